//! The one output function of the binary: the answer to stdout, files written whole or not
//! at all, and every failure as one line on stderr with its exit code.
//!
//! Exit codes: 0 success (a closed pipe included: `| head` is not a failure), 1 a failure
//! at run time (a write that failed), 2 bad input or usage, 130 interrupted by SIGINT,
//! 143 by SIGTERM and 129 by SIGHUP (see `interrupt`).

use super::files::{self, StdoutError};
use pegchain::Error;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Why a command did not finish.
#[derive(Debug)]
pub enum Failure {
    /// Bad input or an impossible request: exit 2.
    Input(Error),
    /// Something failed at run time (a write): exit 1.
    Runtime(String),
    /// A signal stopped the work; what had been done by then: exit 130, 143 or 129.
    Interrupted(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        match e {
            Error::Interrupted { done } => Failure::Interrupted(done),
            e => Failure::Input(e),
        }
    }
}

impl Failure {
    /// One line on stderr and the exit code. A line break or other control character carried
    /// in from the user's text (a file name, say) is shown escaped, as the parsers' messages
    /// are, so the message stays one line whatever it quotes.
    pub fn report(&self) -> ExitCode {
        let line = format!("pegchain: {}\n", pegchain::input::one_line(&self.message()));
        super::interrupt::saying_why();
        to_stderr(format_args!("{line}"));
        self.code()
    }

    /// What went wrong, in the user's words (the line `report` prints, without its prefix).
    pub fn message(&self) -> String {
        match self {
            Failure::Input(e) => words(e),
            Failure::Runtime(why) => why.clone(),
            Failure::Interrupted(done) => format!("interrupted: {done}"),
        }
    }

    /// The exit code alone.
    pub fn code(&self) -> ExitCode {
        match self {
            Failure::Input(_) => ExitCode::from(2),
            Failure::Runtime(_) => ExitCode::from(1),
            Failure::Interrupted(_) => ExitCode::from(super::interrupt::exit_code()),
        }
    }
}

/// A library error in a user's words: where a flag is the way out, name it.
pub fn words(e: &Error) -> String {
    match e {
        Error::TooLarge { .. } => {
            format!("{e} ({})", super::limits::RAISE_THE_BUDGET)
        }
        Error::SearchTooLarge { .. } | Error::SearchOutOfMemory { breadth_first: true, .. } => {
            format!("{e}; --method dfs (the default) holds far fewer")
        }
        Error::FutureTooLarge(_) => format!("{e} (exact --position answers for one position)"),
        _ => e.to_string(),
    }
}

/// Writes the answer to stdout. A closed pipe ends quietly; any other failure (a full disk)
/// is a run-time failure.
pub fn emit(text: &str) -> Result<(), Failure> {
    stdout_open()?;
    match files::write_stdout(text.as_bytes()) {
        Ok(()) | Err(StdoutError::Closed) => Ok(()),
        Err(StdoutError::Failed(e)) => Err(stdout_failed(&e)),
    }
}

/// Fails where standard output was closed when the run started (`>&-`), whose answer would
/// be lost: called before any work, so that none is done for nothing.
pub fn stdout_open() -> Result<(), Failure> {
    files::stdout_open().map_err(|e| stdout_failed(&e))
}

pub fn stdout_failed(e: &io::Error) -> Failure {
    if files::stopped_by_a_signal(e) {
        return interrupted_unwritten();
    }
    Failure::Runtime(format!("cannot write to standard output: {}", plain(e)))
}

/// Writes every file whole or none of them: each goes to a temporary file of its own beside
/// its target, and all are renamed into place only when every one is written.
pub fn write_files(files: &[(PathBuf, Vec<u8>)]) -> Result<(), Failure> {
    unless_interrupted()?;
    let targets: Vec<&Path> = files.iter().map(|(path, _)| path.as_path()).collect();
    write_files_checked(&targets, || files::write_all_atomic(files))?;
    written_unless_interrupted(&targets)
}

/// After files are written in place: a signal that came while they were being written ends
/// the run as interrupted, saying the files are whole (it said "the answer was made but not
/// written" beside an export's four finished files).
fn written_unless_interrupted(targets: &[&Path]) -> Result<(), Failure> {
    match super::interrupt::token().is_cancelled() {
        true => {
            let names: Vec<String> = targets.iter().map(|t| t.display().to_string()).collect();
            Err(Failure::Interrupted(format!(
                "{} written whole; the answer on stdout was not",
                names.join(", ")
            )))
        }
        false => Ok(()),
    }
}

/// Refuses a target that is a directory or an input of the run, then writes.
fn write_files_checked(targets: &[&Path], write: impl FnOnce() -> io::Result<()>) -> Result<(), Failure> {
    if let Some(target) = targets.iter().find(|target| pegchain::input::is_input(target)) {
        return Err(Failure::Input(not_an_input_error(target)));
    }
    if let Some(target) = targets.iter().find(|target| target.is_dir()) {
        return Err(Failure::Runtime(format!(
            "cannot write {}: a directory is in the way",
            target.display()
        )));
    }
    write().map_err(|e| file_failed(&e))
}

/// A failed write of a file, as a failure (the error names the file).
pub fn file_failed(e: &io::Error) -> Failure {
    match files::stopped_by_a_signal(e) {
        true => interrupted_unwritten(),
        false => Failure::Runtime(format!("cannot write {}", plain(e))),
    }
}

/// The refusal of an output that would replace an input.
pub fn not_an_input_error(target: &Path) -> Error {
    Error::Invalid(format!(
        "cannot write {}: it is an input of this run, which the output would replace; name another file",
        target.display()
    ))
}

/// Writes one file whole or not at all.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    unless_interrupted()?;
    write_file_parts(path, &[bytes])?;
    written_unless_interrupted(&[path])
}

/// Writes to stderr in one write (a line is shorter than a pipe's atomic write), so that
/// nothing comes between its parts. A stderr that cannot be written (a full disk, a closed
/// pipe) loses the line, not the answer: `eprint!` panics there. One that a launcher made
/// non-blocking is waited for, as stdout is.
pub fn to_stderr(text: std::fmt::Arguments<'_>) {
    let _ = files::stderr().write_all(text.to_string().as_bytes());
}

/// Lines for stderr that belong after the answer (a simulation's throughput), said by
/// [`say_what_follows_the_answer`] once it is written: where the write fails, the failure is
/// the run's one line on stderr.
static AFTER_THE_ANSWER: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Keeps `line` for stderr until the answer is written.
pub fn after_the_answer(line: String) {
    AFTER_THE_ANSWER.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(line);
}

/// Says the lines kept by [`after_the_answer`]: called once the answer is written.
pub fn say_what_follows_the_answer() {
    let lines =
        std::mem::take(&mut *AFTER_THE_ANSWER.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    for line in lines {
        to_stderr(format_args!("{line}"));
    }
}

/// Fails once a signal has come: an answer made after it, on stdout or in files, is not
/// written. Work that hears no signal (rendering a distribution of 50,000 steps, a race's
/// grid) ends as interrupted rather than write and succeed seconds later. Checkpoints, which
/// save the work so far, are written regardless.
pub fn unless_interrupted() -> Result<(), Failure> {
    match super::interrupt::token().is_cancelled() {
        true => Err(interrupted_unwritten()),
        false => Ok(()),
    }
}

fn interrupted_unwritten() -> Failure {
    Failure::Interrupted("the answer was made but not written".into())
}

/// Writes one file, made of `parts` one after the other, whole or not at all.
pub fn write_file_parts(path: &Path, parts: &[&[u8]]) -> Result<(), Failure> {
    write_files_checked(&[path], || files::write_atomic(path, parts))
}

/// `write_file_parts`, keeping the file `path` held before as `previous` (see
/// [`files::write_atomic_keeping`]).
pub fn write_file_parts_keeping(path: &Path, parts: &[&[u8]], previous: &Path) -> Result<(), Failure> {
    write_files_checked(&[path, previous], || files::write_atomic_keeping(path, parts, previous))
}

/// `write_files` into `dir`, created if missing, with any missing parents (all removed again
/// if the writing fails).
pub fn write_files_in(dir: &Path, files: &[(PathBuf, Vec<u8>)]) -> Result<(), Failure> {
    // Deepest first, the order in which they can be removed.
    let missing: Vec<&Path> =
        dir.ancestors().take_while(|d| !d.as_os_str().is_empty() && !d.exists()).collect();
    let written = std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Runtime(format!("cannot create {}: {}", dir.display(), plain(&e))))
        .and_then(|()| write_files(files));
    if written.is_err() {
        for made in missing {
            let _ = std::fs::remove_dir(made);
        }
    }
    written
}

pub use pegchain::input::plain;

/// Stdout for a command that streams (solve): remembers a closed pipe so the caller can stop
/// quietly, and keeps any other failure for a run-time error.
pub struct Stream<W: Write> {
    inner: W,
    pub closed: bool,
    pub failed: Option<io::Error>,
}

impl<W: Write> Stream<W> {
    pub fn new(inner: W) -> Stream<W> {
        Stream { inner, closed: false, failed: None }
    }

    /// Writes `text` unless the stream has already stopped; false once it has.
    pub fn put(&mut self, text: &str) -> bool {
        if self.closed || self.failed.is_some() {
            return false;
        }
        if let Err(e) = self.inner.write_all(text.as_bytes()) {
            self.stop(e);
        }
        !self.closed && self.failed.is_none()
    }

    fn stop(&mut self, e: io::Error) {
        match files::classify(e) {
            StdoutError::Closed => self.closed = true,
            StdoutError::Failed(e) => self.failed = Some(e),
        }
    }

    /// Flushes and turns a failed write into the run-time failure it is.
    pub fn finish(self) -> Result<(), Failure> {
        self.flushed().map(drop).map_err(|e| stdout_failed(&e))
    }

    /// Flushes, and gives back the writer unless a write failed.
    fn flushed(mut self) -> Result<W, io::Error> {
        if self.failed.is_none()
            && !self.closed
            && let Err(e) = self.inner.flush()
        {
            self.stop(e);
        }
        match self.failed {
            Some(e) => Err(e),
            None => Ok(self.inner),
        }
    }
}

impl Stream<io::BufWriter<files::Growing>> {
    /// Flushes and puts the file in place; a failed write leaves none (see [`files::Growing`]).
    pub fn finish_file(self) -> Result<(), Failure> {
        let growing = self.flushed().and_then(|out| out.into_inner().map_err(|e| e.into_error()));
        growing.and_then(files::Growing::finish).map_err(|e| file_failed(&e))
    }
}
