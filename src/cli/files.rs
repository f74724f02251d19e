//! The one writer: every file the tool writes goes through here.
//!
//! Two promises: a file never appears half-written at its final name (it is written to a temporary file
//! in the same directory, synced, then renamed into place, and a rename within a directory is atomic),
//! and the tool never touches a file it did not create (temporary files are opened with `create_new`,
//! under names no user would pick, and only the ones this process created are ever removed).
//!
//! A target that is not a regular file (`/dev/null`, a FIFO, a terminal, `/dev/stdout`) is written
//! straight into, never replaced: a temporary renamed over it would destroy it (run as root,
//! `--svg /dev/null` replaced the system's `/dev/null` with a file). A symbolic link is followed, so
//! the link stays and the file it names is replaced. A file is replaced only where it could be
//! written into (not `chmod a-w`), and the new file takes its permissions.

use std::ffi::OsString;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Numbers the temporary files of this process, so concurrent writes (threads, or several files of one
/// step) never pick the same name.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// How many names to try before giving up: only reached if something keeps creating files with our
/// exact temporary names.
const MAX_ATTEMPTS: u32 = 1000;

/// Characters of the target's name kept in the temporary name: enough to tell whose it is, short enough
/// (at most 160 bytes of UTF-8) that the temporary name stays within the usual 255-byte limit.
const NAME_HINT_CHARS: usize = 40;

/// How many symbolic links a target may pass through, as Linux allows (`ELOOP` past it).
const MAX_LINKS: usize = 40;

/// Writes the file made of `parts` (one after the other) to `path` atomically: after an error
/// the previous file at `path` (if any) is intact and no temporary file is left. Errors name
/// the path.
pub fn write_atomic(path: &Path, parts: &[&[u8]]) -> io::Result<()> {
    let written = target_of(path).and_then(|target| match target {
        Target::File(file) => stage(&file, parts).and_then(Staged::commit),
        Target::InPlace(device) => write_in_place(&device, parts),
    });
    written.map_err(|e| naming(path, e))
}

/// Where a write to a path goes.
#[derive(Debug, PartialEq)]
enum Target {
    /// A regular file, or no file yet (its links followed): replaced atomically.
    File(PathBuf),
    /// A device, a FIFO or a socket: written into as it is.
    InPlace(PathBuf),
}

/// The target of a write to `path`, following its symbolic links (a link to nowhere leads to
/// the file it names, which the write creates). A block device is refused: an SVG or a
/// chain written onto a disk would destroy what it holds. Errors do not name the path: the
/// caller does, in its words (a flag, or "cannot write").
fn target_of(path: &Path) -> io::Result<Target> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&at) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::File(at)),
            Err(e) => return Err(e),
            Ok(meta) => meta,
        };
        // `/dev/stdout` leads through /proc to a pipe or a terminal, which only the system
        // can follow (its link reads `pipe:[…]`): ask it what the link names in the end.
        let link = meta.file_type().is_symlink();
        let end = if link { std::fs::metadata(&at).ok() } else { Some(meta) };
        if let Some(end) = end.filter(|end| !end.is_file() && !end.is_dir()) {
            return in_place(at, &end);
        }
        if !link {
            return replaceable(&at).map(|()| Target::File(at));
        }
        let link = std::fs::read_link(&at)?;
        at = directory_of(&at).join(link);
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Fails for an existing file that this process may not write (`chmod a-w`, a file of
/// another user, a read-only file system), as writing into it would: a temporary renamed
/// over it would replace it all the same wherever its directory takes new files.
fn replaceable(file: &Path) -> io::Result<()> {
    match std::fs::metadata(file) {
        Ok(meta) if meta.is_file() => match OpenOptions::new().write(true).open(file) {
            Ok(_) => Ok(()),
            Err(e) => {
                let why = format!(
                    "the file may not be written ({}), so it is not replaced",
                    pegchain::input::plain(&e)
                );
                Err(io::Error::new(e.kind(), why))
            }
        },
        _ => Ok(()),
    }
}

/// A target that is neither a file nor a directory, written into unless it is a block device.
fn in_place(at: PathBuf, meta: &std::fs::Metadata) -> io::Result<Target> {
    use std::os::unix::fs::FileTypeExt;
    if meta.file_type().is_block_device() {
        let why = "a block device, which the tool does not write into";
        return Err(io::Error::new(io::ErrorKind::InvalidInput, why));
    }
    Ok(Target::InPlace(at))
}

/// Writes `parts` into a device, a FIFO or a socket (opened as it is, never created). A FIFO
/// waits for its reader, as the shell's `>` does, and a reader that stops reading is waited
/// for, but a signal ends either wait ([`wait_for`]): the target is opened without blocking
/// and written as a [`Waiting`] writer.
fn write_in_place(device: &Path, parts: &[&[u8]]) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let file = open_waiting(device)?;
    let mut out = Waiting(file.as_raw_fd());
    parts.iter().try_for_each(|part| out.write_all(part))
}

/// Opens `device` for writing without blocking, waiting while it is a FIFO with no reader.
fn open_waiting(device: &Path) -> io::Result<File> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    loop {
        match OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(device) {
            Err(e)
                if e.raw_os_error() == Some(libc::ENXIO)
                    && std::fs::metadata(device)?.file_type().is_fifo() =>
            {
                _ = wait_for(None)?
            }
            opened => return opened,
        }
    }
}

/// Waits a tenth of a second, or less where `fd` takes more sooner (true then), and fails
/// with [`StoppedByASignal`] where it does not and a signal has come (what an interrupted run
/// still has to say, it says where it can). A write blocked in the system hears no
/// signal (a first Ctrl-C did nothing and said nothing while a reader was missing or had
/// stopped reading), so every wait for a reader is made of these.
fn wait_for(fd: Option<std::os::fd::RawFd>) -> io::Result<bool> {
    const TENTH: std::time::Duration = std::time::Duration::from_millis(100);
    let ready = match fd {
        Some(fd) => {
            let mut polled = libc::pollfd { fd, events: libc::POLLOUT, revents: 0 };
            // SAFETY: one pollfd, owned here, for the length of the call.
            unsafe { libc::poll(&mut polled, 1, TENTH.as_millis() as libc::c_int) > 0 }
        }
        None => {
            std::thread::sleep(TENTH);
            false
        }
    };
    match !ready && super::interrupt::token().is_cancelled() {
        true => Err(io::Error::other(StoppedByASignal)),
        false => Ok(ready),
    }
}

/// A wait for a reader that a signal ended. Not `ErrorKind::Interrupted`, which `write_all`
/// and `BufWriter` take for EINTR and try again.
#[derive(Debug)]
pub struct StoppedByASignal;

impl fmt::Display for StoppedByASignal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stopped by a signal while waiting for the reader")
    }
}

impl std::error::Error for StoppedByASignal {}

/// Whether `e` is a wait that a signal ended.
pub fn stopped_by_a_signal(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<StoppedByASignal>())
}

/// Writes several files as one step (the audit's three plots): every file is first written to its
/// temporary; if any of those writes fails, all temporaries are removed and the directories are as they
/// were. Then the targets that are written in place (a device, a FIFO), which cannot be taken back,
/// and if one of those fails (`/dev/full`) the temporaries are removed likewise. Only then is each
/// temporary renamed into place.
///
/// The renames themselves are not one atomic step: if one fails (rare, as each stays within its own
/// directory), the files renamed before it stay written and the remaining temporaries are removed.
/// Errors name the file concerned, since the caller cannot tell which one failed.
pub fn write_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> io::Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    let mut in_place = Vec::new();
    for (path, bytes) in files {
        // On error, dropping `staged` removes the temporaries written so far.
        match target_of(path).map_err(|e| naming(path, e))? {
            Target::File(file) => staged.push(stage(&file, &[bytes]).map_err(|e| naming(path, e))?),
            Target::InPlace(device) => in_place.push((path, device, bytes)),
        }
    }
    for (path, device, bytes) in in_place {
        write_in_place(&device, &[bytes]).map_err(|e| naming(path, e))?;
    }
    for file in staged {
        let target = file.target.clone();
        file.commit().map_err(|e| naming(&target, e))?;
    }
    Ok(())
}

/// The same error, with the path in its message and its kind kept.
fn naming(path: &Path, e: io::Error) -> io::Error {
    match stopped_by_a_signal(&e) {
        true => e,
        false => io::Error::new(e.kind(), format!("{}: {e}", path.display())),
    }
}

/// `write_atomic`, keeping the file `path` held before as `previous` (replacing any file
/// there): the new file is written and synced first, so the two renames are all that stand
/// between the old file and the new, and if they are cut short between them the old file is
/// at `previous` and nothing at `path`.
///
/// A target that is not a regular file is refused (renaming `/dev/null` away would destroy it);
/// a symbolic link is not followed here: the link itself becomes `previous`, so the file it
/// named is kept as it was.
pub fn write_atomic_keeping(path: &Path, parts: &[&[u8]], previous: &Path) -> io::Result<()> {
    if let Target::InPlace(_) = target_of(path).map_err(|e| naming(path, e))? {
        return Err(naming(path, io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")));
    }
    let staged = stage(path, parts).map_err(|e| naming(path, e))?;
    match std::fs::rename(path, previous) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(naming(previous, e)),
        _ => {}
    }
    staged.commit().map_err(|e| naming(path, e))
}

/// A file written as it goes (solve's solutions to `--output`), put in place whole by
/// [`Growing::finish`]: until then it is a temporary beside its target, removed if the
/// `Growing` is dropped unfinished (a failed write, an error). A device or a FIFO is written
/// into as it is, as [`write_atomic`] does.
pub struct Growing {
    out: Waiting,
    /// The open file `out` writes into (kept open for as long as it does).
    file: File,
    staged: Option<Staged>,
    path: PathBuf,
}

impl Growing {
    /// Opens the temporary beside `path` (or `path` itself where it is a device or a FIFO).
    pub fn create(path: &Path) -> io::Result<Growing> {
        use std::os::fd::AsRawFd;
        let (file, staged) = match target_of(path).map_err(|e| naming(path, e))? {
            Target::File(target) => {
                let (file, staged) = temporary_for(&target).map_err(|e| naming(path, e))?;
                (file, Some(staged))
            }
            Target::InPlace(device) => (open_waiting(&device).map_err(|e| naming(path, e))?, None),
        };
        Ok(Growing { out: Waiting(file.as_raw_fd()), file, staged, path: path.to_path_buf() })
    }

    /// Syncs the file and renames it into place.
    pub fn finish(self) -> io::Result<()> {
        let Growing { file, staged, path, .. } = self;
        let Some(staged) = staged else { return Ok(()) };
        file.sync_all().map_err(|e| naming(&path, e))?;
        drop(file);
        staged.commit().map_err(|e| naming(&path, e))
    }
}

impl Write for Growing {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let path = &self.path;
        self.out.write(bytes).map_err(|e| naming(path, e))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
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
        // A checkpoint is put in place every few seconds under one name: kept once.
        let mut written = WRITTEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !written.contains(&self.target) {
            written.push(self.target.clone());
        }
        Ok(())
    }
}

/// The files this process has put in place, so that the answer (`--output`) never replaces
/// another output of the run (`export --prism P -o P.tra`).
static WRITTEN: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Whether `path` names a file this process has put in place, by any path or link.
pub fn written_by_this_run(path: &Path) -> bool {
    let written = WRITTEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    written.iter().any(|w| pegchain::input::same_file(w, path))
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            // Best effort: the error being returned matters more than a failed cleanup.
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Creates a temporary next to `target` and writes and syncs `parts` into it. A file that
/// replaces another takes its permissions (a private `0600` file stays private).
fn stage(target: &Path, parts: &[&[u8]]) -> io::Result<Staged> {
    let (file, staged) = temporary_for(target)?;
    // The file is closed before the guard could remove it (Windows cannot remove an open file).
    let fill = |mut file: File| {
        parts.iter().try_for_each(|part| file.write_all(part))?;
        file.sync_all()
    };
    fill(file)?;
    Ok(staged)
}

/// A new temporary beside `target`, open to write, with the permissions of the file it will
/// replace, and its guard: from here on an error drops the guard and removes the file.
fn temporary_for(target: &Path) -> io::Result<(File, Staged)> {
    let (file, temp) = create_temp(target, &COUNTER)?;
    let staged = Staged { temp, target: target.to_path_buf(), committed: false };
    if let Some(meta) = std::fs::metadata(target).ok().filter(|meta| meta.is_file()) {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(meta.permissions().mode() & 0o777))?;
    }
    Ok((file, staged))
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
            // Said as such: "No such file or directory" alone reads as if the target were
            // missing (`--svg /proc/version`, whose directory takes no new file).
            Err(e) => {
                let why =
                    format!("no new file can be made in {}: {}", dir.display(), pegchain::input::plain(&e));
                return Err(io::Error::new(e.kind(), why));
            }
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{}: no free temporary name after {MAX_ATTEMPTS} attempts", target.display()),
    ))
}

/// Fails, before a run starts, for a spill directory (`--spill DIR`) in which no file can be
/// made: a run of hours should not fail at its first step in rounds. The probe is removed.
pub fn check_spill_dir(dir: &Path) -> io::Result<()> {
    if !std::fs::metadata(dir)?.is_dir() {
        return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a directory"));
    }
    probe(&dir.join("spill"))
}

/// Fails, before a run starts, for a directory that files are to be written into (made first
/// if missing, with its missing parents) where none could be: its nearest existing ancestor
/// must be a directory that takes a new file (`--svg /proc` failed only after the audit's
/// games were played). A symbolic link counts as existing: one that leads to no directory
/// (dangling, or a loop) blocks the making of a directory in its place, which failed only
/// after the run with "cannot create DIR: File exists". The probe is removed.
pub fn check_out_dir(dir: &Path) -> io::Result<()> {
    let existing = dir
        .ancestors()
        .map(|a| if a.as_os_str().is_empty() { Path::new(".") } else { a })
        .find(|a| std::fs::symlink_metadata(a).is_ok())
        .unwrap_or(Path::new("."));
    if !existing.is_dir() {
        let link = std::fs::symlink_metadata(existing).is_ok_and(|m| m.file_type().is_symlink());
        let what = if link { "a symbolic link that leads to no directory" } else { "not a directory" };
        let why = format!("{} is {what}", existing.display());
        return Err(io::Error::new(io::ErrorKind::NotADirectory, why));
    }
    probe(&existing.join("probe"))
}

/// Fails, before a run starts, for a file target that could not be written as it will be: a
/// file whose directory takes no temporary beside it (a search that ended before its first
/// save used to succeed having saved nothing). A device or a FIFO is written in place: nothing
/// is made beside it.
pub fn check_writable(path: &Path) -> io::Result<()> {
    match target_of(path)? {
        Target::File(file) => probe(&file),
        Target::InPlace(_) => Ok(()),
    }
}

/// Makes and removes a temporary beside `target`, as a write would make one.
fn probe(target: &Path) -> io::Result<()> {
    let (file, probe) = create_temp(target, &COUNTER)?;
    drop(file);
    std::fs::remove_file(probe)
}

/// The directory `target` lives in: its parent, or the current directory for a bare file name.
fn directory_of(target: &Path) -> &Path {
    match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// `path` with `suffix` added to its name (`run.ckpt` and `.pass` make `run.ckpt.pass`): a
/// file that belongs beside `path`, never replacing an extension it has.
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
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
    write_flushed(&mut stdout(), bytes)
}

/// Standard output as a [`Waiting`] writer.
pub fn stdout() -> Waiting {
    Waiting(libc::STDOUT_FILENO)
}

/// Standard error as a [`Waiting`] writer.
pub fn stderr() -> Waiting {
    Waiting(libc::STDERR_FILENO)
}

/// A descriptor (a standard stream, or a target written in place), unbuffered, written at
/// most a pipe's atomic write (4 kB) at a time once a poll says it takes more, so that a
/// reader that stops reading is waited for as [`wait_for`] waits, and a signal ends the wait.
/// A standard stream is left as it is (its open file is shared with the shell); where it is
/// non-blocking, a write that would block waits for the next poll.
pub struct Waiting(std::os::fd::RawFd);

impl Write for Waiting {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.is_empty() {
            return Ok(0);
        }
        let part = bytes.len().min(libc::PIPE_BUF);
        loop {
            while !wait_for(Some(self.0))? {}
            // SAFETY: writes `part` bytes of a live slice.
            let written = unsafe { libc::write(self.0, bytes.as_ptr().cast(), part) };
            match usize::try_from(written) {
                Ok(n) => return Ok(n),
                Err(_) => match io::Error::last_os_error() {
                    e if e.kind() == io::ErrorKind::WouldBlock => {}
                    e => return Err(e),
                },
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether descriptor 1 was closed when the process started. Rust's runtime opens /dev/null
/// in its place before `main` (so that no file it opens takes the number), and every write
/// would then succeed into nothing: a constructor, which the C runtime calls before Rust's,
/// looks first.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Fails as a write to a closed descriptor does where standard output was closed when the
/// process started (`pegchain … >&-`): every command's answer would be lost.
pub fn stdout_open() -> io::Result<()> {
    match STDOUT_CLOSED_AT_START.load(Ordering::Relaxed) {
        true => Err(io::Error::from_raw_os_error(libc::EBADF)),
        false => Ok(()),
    }
}

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_A_CLOSED_STDOUT: extern "C" fn() = note_a_closed_stdout;

#[cfg(target_os = "linux")]
extern "C" fn note_a_closed_stdout() {
    // SAFETY: F_GETFD only reads the descriptor's flags; it fails (EBADF) for a closed one.
    let open = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } != -1;
    STDOUT_CLOSED_AT_START.store(!open, Ordering::Relaxed);
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
        let target = dir.path("absent/plot.svg");
        let e = write_atomic(&target, &[b"x"]).expect_err("no directory");
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        let absent = dir.path("absent");
        let said = format!(
            "{}: no new file can be made in {}: No such file or directory",
            target.display(),
            absent.display()
        );
        assert_eq!(e.to_string(), said);
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

    /// A target written in place that fails (a link to a full device) leaves no file of the
    /// others written: `boards --export` left a JSON naming a layout file never written.
    #[cfg(unix)]
    #[test]
    fn write_all_atomic_with_a_full_device_writes_no_file() {
        let dir = Scratch::new("allfull");
        std::os::unix::fs::symlink("/dev/full", dir.path("layout.csv")).expect("a link");
        let files = vec![
            (dir.path("board.json"), b"one".to_vec()),
            (dir.path("layout.csv"), b"two".to_vec()),
            (dir.path("adjacency.csv"), b"three".to_vec()),
        ];
        let e = write_all_atomic(&files).expect_err("the device is full");
        assert!(e.to_string().contains("layout.csv"), "{e}");
        assert_eq!(dir.names(), ["layout.csv"]);
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

    /// A FIFO at `path`, as `mkfifo` makes it.
    #[cfg(unix)]
    fn make_fifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("no NUL");
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
    }

    #[cfg(unix)]
    fn is_fifo(path: &Path) -> bool {
        use std::os::unix::fs::FileTypeExt;
        fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_fifo())
    }

    /// A FIFO (as a device or `/dev/stdout` to a pipe) is written into, not replaced by a
    /// file: its reading end gets the bytes, and no temporary is left. The reading end is
    /// opened first and without blocking, so a write that went elsewhere fails the test
    /// rather than hang it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_into_not_replaced() {
        use std::io::Read;
        use std::os::unix::fs::OpenOptionsExt;
        let dir = Scratch::new("fifo");
        let fifo = dir.path("plot.svg");
        make_fifo(&fifo);
        let mut reader =
            OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(&fifo).expect("reading end");
        write_atomic(&fifo, &[b"<svg>", b"</svg>"]).expect("written");
        let mut got = Vec::new();
        let _ = reader.read_to_end(&mut got);
        assert_eq!(got, b"<svg></svg>");
        assert!(is_fifo(&fifo), "the FIFO was replaced");
        assert_eq!(dir.names(), ["plot.svg"]);
    }

    /// A FIFO with no reader yet is waited for, as the shell's `>` waits, and takes the whole
    /// output once a reader comes (opened without blocking, the open fails until then).
    #[test]
    fn a_fifo_waits_for_its_reader() {
        use std::io::Read;
        let dir = Scratch::new("fifo-later");
        let fifo = dir.path("plot.svg");
        make_fifo(&fifo);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(300));
                let mut text = Vec::new();
                File::open(&fifo).expect("reading end").read_to_end(&mut text).expect("read");
                text
            })
        };
        let long = vec![b'x'; 300_000];
        write_atomic(&fifo, &[b"<svg>", &long, b"</svg>"]).expect("written");
        let text = reader.join().expect("reader");
        assert_eq!(text.len(), 300_011);
        assert!(text.starts_with(b"<svg>x") && text.ends_with(b"x</svg>"));
    }

    /// A save that keeps the file before it renames that file: a FIFO is refused, and stays.
    #[cfg(unix)]
    #[test]
    fn a_save_keeping_its_previous_refuses_a_fifo() {
        let dir = Scratch::new("fifokeep");
        let fifo = dir.path("run.checkpoint");
        make_fifo(&fifo);
        let e = write_atomic_keeping(&fifo, &[b"state"], &dir.path("run.checkpoint.previous"))
            .expect_err("not a regular file");
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("run.checkpoint: not a regular file"), "{e}");
        assert!(is_fifo(&fifo));
        assert_eq!(dir.names(), ["run.checkpoint"]);
    }

    /// A link is followed: the file it names is replaced and the link stays; a link to
    /// nowhere creates the file it names; a link to a device writes into the device, and
    /// its error (a full disk) names the path given.
    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_followed() {
        use std::os::unix::fs::symlink;
        let dir = Scratch::new("links");
        fs::write(dir.path("real.svg"), "old").expect("setup");
        symlink("real.svg", dir.path("link.svg")).expect("setup");
        write_atomic(&dir.path("link.svg"), &[b"new"]).expect("written");
        assert!(fs::symlink_metadata(dir.path("link.svg")).expect("kept").file_type().is_symlink());
        assert_eq!(fs::read_to_string(dir.path("real.svg")).expect("readable"), "new");

        symlink(dir.path("absent.svg"), dir.path("dangling.svg")).expect("setup");
        write_atomic(&dir.path("dangling.svg"), &[b"made"]).expect("written");
        assert_eq!(fs::read_to_string(dir.path("absent.svg")).expect("created"), "made");
        assert_eq!(dir.names(), ["absent.svg", "dangling.svg", "link.svg", "real.svg"]);

        #[cfg(target_os = "linux")]
        {
            symlink("/dev/full", dir.path("full.svg")).expect("setup");
            let e = write_atomic(&dir.path("full.svg"), &[b"x"]).expect_err("a full disk");
            assert_eq!(e.kind(), io::ErrorKind::StorageFull);
            assert!(e.to_string().starts_with(&format!("{}: ", dir.path("full.svg").display())), "{e}");
            assert!(fs::symlink_metadata(dir.path("full.svg")).expect("kept").file_type().is_symlink());
        }

        // A block device (a disk) is never written into. The test makes its own node, for a
        // loop device no system sets up (minor 250), so that even a regression writes to no
        // disk; making a node needs root, and without it this part is skipped.
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::ffi::OsStrExt;
            let node = dir.path("disk");
            let name = std::ffi::CString::new(node.as_os_str().as_bytes()).expect("no NUL");
            if unsafe { libc::mknod(name.as_ptr(), libc::S_IFBLK | 0o600, libc::makedev(7, 250)) } == 0 {
                symlink(&node, dir.path("disk.svg")).expect("setup");
                for target in [node.clone(), dir.path("disk.svg")] {
                    let e = write_atomic(&target, &[b"x"]).expect_err("a block device");
                    assert!(
                        e.to_string().ends_with("a block device, which the tool does not write into"),
                        "{e}"
                    );
                }
                fs::remove_file(dir.path("disk.svg")).expect("cleanup");
                fs::remove_file(&node).expect("cleanup");
            }
        }

        symlink("loop-b", dir.path("loop-a")).expect("setup");
        symlink("loop-a", dir.path("loop-b")).expect("setup");
        let e = write_atomic(&dir.path("loop-a"), &[b"x"]).expect_err("a loop");
        assert!(e.to_string().ends_with("loop-a: too many levels of symbolic links"), "{e}");
    }

    /// A failed write names its file: the one line the user sees must say which.
    #[test]
    fn a_failed_write_names_its_file() {
        let dir = Scratch::new("named");
        let target = dir.path("absent/plot.svg");
        let e = write_atomic(&target, &[b"x"]).expect_err("no directory");
        assert!(e.to_string().starts_with(&format!("{}: ", target.display())), "{e}");
        let e = write_atomic_keeping(&target, &[b"x"], &dir.path("absent/plot.svg.previous"))
            .expect_err("no directory");
        assert!(e.to_string().starts_with(&format!("{}: ", target.display())), "{e}");
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
