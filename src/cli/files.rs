//! The one writer: every file the tool writes goes through here.
//!
//! Two promises: a file never appears half-written at its final name (it is written to a temporary file
//! in the same directory, synced, then renamed into place, and a rename within a directory is atomic),
//! and the tool never touches a file it did not create (temporary files are opened with `create_new`,
//! under names no user would pick, and only the ones this process created are ever removed).

use std::ffi::OsString;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers the temporary files of this process, so concurrent writes (threads, or several files of one
/// step) never pick the same name.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// How many names to try before giving up: only reached if something keeps creating files with our
/// exact temporary names.
const MAX_ATTEMPTS: u32 = 1000;

/// Characters of the target's name kept in the temporary name: enough to tell whose it is, short enough
/// (at most 160 bytes of UTF-8) that the temporary name stays within the usual 255-byte limit.
const NAME_HINT_CHARS: usize = 40;

/// Writes the file made of `parts` (one after the other) to `path` atomically: after an error
/// the previous file at `path` (if any) is intact and no temporary file is left.
pub fn write_atomic(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    stage(path, parts)?.commit()
}

/// Writes several files as one step (the audit's three plots): every file is first written to its
/// temporary; if any of those writes fails, all temporaries are removed and the directories are as they
/// were. Only then is each renamed into place.
///
/// The renames themselves are not one atomic step: if one fails (rare, as each stays within its own
/// directory), the files renamed before it stay written and the remaining temporaries are removed.
/// Errors name the file concerned, since the caller cannot tell which one failed.
pub fn write_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> io::Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        // On error, dropping `staged` removes the temporaries written so far.
        staged.push(stage(path, &[bytes]).map_err(|e| naming(path, e))?);
    }
    for file in staged {
        let target = file.target.clone();
        file.commit().map_err(|e| naming(&target, e))?;
    }
    Ok(())
}

/// The same error, with the path in its message and its kind kept.
fn naming(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// `write_atomic`, keeping the file `path` held before as `previous` (replacing any file
/// there): the new file is written and synced first, so the two renames are all that stand
/// between the old file and the new, and if they are cut short between them the old file is
/// at `previous` and nothing at `path`.
pub fn write_atomic_keeping(path: &Path, parts: &[&[u8]], previous: &Path) -> io::Result<()> {
    let staged = stage(path, parts)?;
    match std::fs::rename(path, previous) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(naming(previous, e)),
        _ => {}
    }
    staged.commit()
}

/// A temporary file written and synced, waiting to be renamed onto `target`. Dropping it without
/// [`Staged::commit`] removes the temporary, so every error path (and a panic) cleans up after itself.
struct Staged {
    temp: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl Staged {
    /// Renames the temporary into place.
    fn commit(mut self) -> io::Result<()> {
        std::fs::rename(&self.temp, &self.target)?;
        self.committed = true;
        sync_directory(&self.target);
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            // Best effort: the error being returned matters more than a failed cleanup.
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Creates a temporary next to `target` and writes and syncs `parts` into it.
fn stage(target: &Path, parts: &[&[u8]]) -> io::Result<Staged> {
    let (file, temp) = create_temp(target, &COUNTER)?;
    // From here on the guard owns the temporary: an error below drops it and removes the file.
    let staged = Staged { temp, target: target.to_path_buf(), committed: false };
    // The file is closed before the guard could remove it (Windows cannot remove an open file).
    let fill = |mut file: File| {
        parts.iter().try_for_each(|part| file.write_all(part))?;
        file.sync_all()
    };
    fill(file)?;
    Ok(staged)
}

/// Opens a new temporary file in the directory of `target`, never reusing an existing file: on a name
/// already taken, tries the next number from `counter`.
fn create_temp(target: &Path, counter: &AtomicU64) -> io::Result<(File, PathBuf)> {
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, format!("{}: not a file name", target.display()))
    })?;
    let dir = directory_of(target);
    for _ in 0..MAX_ATTEMPTS {
        let temp = dir.join(temp_name(name, std::process::id(), counter.fetch_add(1, Ordering::Relaxed)));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{}: no free temporary name after {MAX_ATTEMPTS} attempts", target.display()),
    ))
}

/// The directory `target` lives in: its parent, or the current directory for a bare file name.
fn directory_of(target: &Path) -> &Path {
    match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// `.{name}.pegchain-{pid}-{n}.tmp`: hidden, tagged with the tool and the process, so it cannot be
/// mistaken for (or collide with) a user's `classes.tmp`.
fn temp_name(name: &std::ffi::OsStr, pid: u32, n: u64) -> OsString {
    let hint: String = name.to_string_lossy().chars().take(NAME_HINT_CHARS).collect();
    OsString::from(format!(".{hint}.pegchain-{pid}-{n}.tmp"))
}

/// Makes the rename durable on Unix by syncing the directory. Best effort: the file is already in
/// place, and failing the write over this would be misleading.
fn sync_directory(target: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = File::open(directory_of(target)) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = target;
}

/// Why writing to standard output stopped.
#[derive(Debug)]
pub enum StdoutError {
    /// The reader went away (`pegchain … | head`): not a failure, the caller exits quietly with success.
    Closed,
    /// Anything else, e.g. a full disk behind `> file` or `> /dev/full`: a real error to report.
    Failed(io::Error),
}

impl fmt::Display for StdoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StdoutError::Closed => write!(f, "standard output was closed"),
            StdoutError::Failed(e) => write!(f, "cannot write to standard output: {e}"),
        }
    }
}

impl std::error::Error for StdoutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StdoutError::Closed => None,
            StdoutError::Failed(e) => Some(e),
        }
    }
}

/// Writes `bytes` to standard output and flushes, so a full disk is reported here rather than lost when
/// the buffer is dropped at exit.
pub fn write_stdout(bytes: &[u8]) -> Result<(), StdoutError> {
    write_flushed(&mut io::stdout().lock(), bytes)
}

/// [`write_stdout`] on any writer, so its error handling can be tried on `/dev/full` or a closed pipe.
fn write_flushed(out: &mut impl Write, bytes: &[u8]) -> Result<(), StdoutError> {
    out.write_all(bytes).and_then(|()| out.flush()).map_err(classify)
}

/// A closed pipe is the reader's choice; everything else is a failure.
pub fn classify(e: io::Error) -> StdoutError {
    if e.kind() == io::ErrorKind::BrokenPipe { StdoutError::Closed } else { StdoutError::Failed(e) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A fresh empty directory for one test, removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(test: &str) -> Self {
            static N: AtomicU64 = AtomicU64::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("pegchain-output-{}-{test}-{n}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).expect("scratch directory");
            Scratch(dir)
        }

        fn path(&self, name: &str) -> PathBuf {
            self.0.join(name)
        }

        /// The names in the directory, sorted.
        fn names(&self) -> Vec<String> {
            let mut names: Vec<String> = fs::read_dir(&self.0)
                .expect("readable")
                .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn write_atomic_leaves_only_the_final_file() {
        let dir = Scratch::new("final");
        write_atomic(&dir.path("classes.svg"), &[b"<svg/>"]).expect("written");
        assert_eq!(dir.names(), ["classes.svg"]);
        assert_eq!(fs::read(dir.path("classes.svg")).expect("readable"), b"<svg/>");
    }

    #[test]
    fn write_atomic_replaces_an_existing_target() {
        let dir = Scratch::new("replace");
        fs::write(dir.path("out.json"), "old, and longer than the new contents").expect("setup");
        write_atomic(&dir.path("out.json"), &[b"new"]).expect("written");
        assert_eq!(fs::read_to_string(dir.path("out.json")).expect("readable"), "new");
        assert_eq!(dir.names(), ["out.json"]);
    }

    #[test]
    fn write_atomic_of_nothing_creates_an_empty_file() {
        let dir = Scratch::new("empty");
        write_atomic(&dir.path("empty.txt"), &[b""]).expect("written");
        assert_eq!(fs::read(dir.path("empty.txt")).expect("readable"), b"");
        assert_eq!(dir.names(), ["empty.txt"]);
    }

    #[test]
    fn write_atomic_into_a_missing_directory_fails_and_leaves_nothing() {
        let dir = Scratch::new("missing");
        let e = write_atomic(&dir.path("absent/plot.svg"), &[b"x"]).expect_err("no directory");
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(dir.names().is_empty());
    }

    #[test]
    fn write_atomic_onto_a_directory_fails_and_removes_its_temporary() {
        let dir = Scratch::new("ontodir");
        fs::create_dir(dir.path("plots")).expect("setup");
        fs::write(dir.path("plots/keep.txt"), "mine").expect("setup");
        assert!(write_atomic(&dir.path("plots"), &[b"x"]).is_err());
        assert_eq!(dir.names(), ["plots"]);
        assert_eq!(fs::read_to_string(dir.path("plots/keep.txt")).expect("readable"), "mine");
    }

    #[test]
    fn write_atomic_needs_a_file_name() {
        let e = write_atomic(Path::new("/"), &[b"x"]).expect_err("no file name");
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn temporaries_go_next_to_their_target() {
        assert_eq!(directory_of(Path::new("plot.svg")), Path::new("."));
        assert_eq!(directory_of(Path::new("out/plot.svg")), Path::new("out"));
        assert_eq!(directory_of(Path::new("/tmp/plot.svg")), Path::new("/tmp"));
    }

    #[test]
    fn user_files_named_like_temporaries_are_untouched() {
        let dir = Scratch::new("userfiles");
        let pid = std::process::id();
        let lookalikes = [
            "classes.tmp".to_string(),
            "x.tmp".to_string(),
            format!(".x.svg.pegchain-{pid}-0.tmp"),
            format!(".x.svg.pegchain-{pid}-1.tmp"),
        ];
        for name in &lookalikes {
            fs::write(dir.path(name), format!("user data in {name}")).expect("setup");
        }
        write_atomic(&dir.path("x.svg"), &[b"plot"]).expect("written");
        write_atomic(&dir.path("classes"), &[b"no extension"]).expect("written");
        for name in &lookalikes {
            assert_eq!(fs::read_to_string(dir.path(name)).expect("kept"), format!("user data in {name}"));
        }
        let mut expected: Vec<String> = lookalikes.to_vec();
        expected.extend(["classes".to_string(), "x.svg".to_string()]);
        expected.sort();
        assert_eq!(dir.names(), expected);
    }

    #[test]
    fn a_taken_temporary_name_is_skipped_not_reused() {
        let dir = Scratch::new("taken");
        let pid = std::process::id();
        for n in 0..2 {
            fs::write(dir.path(&format!(".x.svg.pegchain-{pid}-{n}.tmp")), "user").expect("setup");
        }
        let counter = AtomicU64::new(0);
        let (_, temp) = create_temp(&dir.path("x.svg"), &counter).expect("created");
        assert_eq!(temp, dir.path(&format!(".x.svg.pegchain-{pid}-2.tmp")));
        for n in 0..2 {
            let name = format!(".x.svg.pegchain-{pid}-{n}.tmp");
            assert_eq!(fs::read_to_string(dir.path(&name)).expect("kept"), "user");
        }
    }

    #[test]
    fn temporary_names_stay_short_for_long_targets() {
        let long = "é".repeat(120);
        let name = temp_name(std::ffi::OsStr::new(&long), 4_000_000, u64::MAX);
        assert!(name.len() < 255, "{} bytes", name.len());
        assert_eq!(temp_name(std::ffi::OsStr::new("a.svg"), 7, 3), ".a.svg.pegchain-7-3.tmp");
    }

    #[test]
    fn write_all_atomic_writes_every_file() {
        let dir = Scratch::new("all");
        let files: Vec<(PathBuf, Vec<u8>)> = ["classes.svg", "pegs_left.svg", "running.svg"]
            .iter()
            .map(|name| (dir.path(name), name.as_bytes().to_vec()))
            .collect();
        write_all_atomic(&files).expect("written");
        assert_eq!(dir.names(), ["classes.svg", "pegs_left.svg", "running.svg"]);
        for (path, bytes) in &files {
            assert_eq!(&fs::read(path).expect("readable"), bytes);
        }
    }

    #[test]
    fn write_all_atomic_with_a_missing_directory_writes_nothing() {
        let dir = Scratch::new("allfail");
        let files = vec![
            (dir.path("classes.svg"), b"one".to_vec()),
            (dir.path("absent/pegs_left.svg"), b"two".to_vec()),
            (dir.path("running.svg"), b"three".to_vec()),
        ];
        let e = write_all_atomic(&files).expect_err("second directory missing");
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().contains("pegs_left.svg"), "{e}");
        assert!(dir.names().is_empty(), "{:?}", dir.names());
    }

    #[test]
    fn write_all_atomic_failure_keeps_existing_files() {
        let dir = Scratch::new("allkeep");
        fs::write(dir.path("classes.svg"), "previous run").expect("setup");
        let files =
            vec![(dir.path("classes.svg"), b"new".to_vec()), (dir.path("absent/running.svg"), b"x".to_vec())];
        assert!(write_all_atomic(&files).is_err());
        assert_eq!(dir.names(), ["classes.svg"]);
        assert_eq!(fs::read_to_string(dir.path("classes.svg")).expect("readable"), "previous run");
    }

    #[test]
    fn write_all_atomic_of_nothing_is_fine() {
        write_all_atomic(&[]).expect("nothing to do");
    }

    #[test]
    fn an_uncommitted_stage_removes_its_temporary() {
        let dir = Scratch::new("drop");
        let staged = stage(&dir.path("a.svg"), &[b"x"]).expect("staged");
        assert_eq!(dir.names().len(), 1);
        assert!(dir.names()[0].ends_with(".tmp"));
        drop(staged);
        assert!(dir.names().is_empty());
    }

    #[test]
    fn a_closed_pipe_is_not_a_failure() {
        assert!(matches!(classify(io::Error::from(io::ErrorKind::BrokenPipe)), StdoutError::Closed));
        // EPIPE as the OS reports it.
        #[cfg(unix)]
        assert!(matches!(classify(io::Error::from_raw_os_error(32)), StdoutError::Closed));
    }

    #[test]
    fn other_stdout_errors_are_failures() {
        for kind in [io::ErrorKind::StorageFull, io::ErrorKind::Other, io::ErrorKind::PermissionDenied] {
            match classify(io::Error::from(kind)) {
                StdoutError::Failed(e) => assert_eq!(e.kind(), kind),
                StdoutError::Closed => panic!("{kind:?} taken for a closed pipe"),
            }
        }
        // ENOSPC, what `> /dev/full` gives, keeps its OS code for the message.
        #[cfg(unix)]
        match classify(io::Error::from_raw_os_error(28)) {
            StdoutError::Failed(e) => {
                assert_eq!(e.kind(), io::ErrorKind::StorageFull);
                assert_eq!(e.raw_os_error(), Some(28));
            }
            StdoutError::Closed => panic!("ENOSPC taken for a closed pipe"),
        }
    }

    #[test]
    fn stdout_errors_explain_themselves() {
        assert_eq!(StdoutError::Closed.to_string(), "standard output was closed");
        let full = StdoutError::Failed(io::Error::from(io::ErrorKind::StorageFull));
        assert!(full.to_string().starts_with("cannot write to standard output: "));
    }

    /// A reader that has gone away, as `| head` leaves it.
    struct ClosedPipe;

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writing_to_a_closed_pipe_reports_closed() {
        assert!(matches!(write_flushed(&mut ClosedPipe, b"table\n"), Err(StdoutError::Closed)));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn writing_to_a_full_disk_reports_failed() {
        let mut full = OpenOptions::new().write(true).open("/dev/full").expect("/dev/full on Linux");
        match write_flushed(&mut full, b"table\n") {
            Err(StdoutError::Failed(e)) => assert_eq!(e.kind(), io::ErrorKind::StorageFull),
            other => panic!("expected a failure, got {other:?}"),
        }
        // Through a buffer the error only shows at the flush, which must not be skipped.
        let mut buffered = io::BufWriter::new(full);
        assert!(matches!(write_flushed(&mut buffered, b"table\n"), Err(StdoutError::Failed(_))));
    }

    #[test]
    fn write_stdout_succeeds_on_an_open_stdout() {
        assert!(write_stdout(b"").is_ok());
    }
}
