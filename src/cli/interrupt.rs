//! SIGINT, SIGTERM and SIGHUP (a terminal closed, an SSH session dropped), turned into a
//! cancel token the library polls. The handler only sets flags (all a signal handler may
//! safely do); the library notices within a second, returns `Error::Interrupted` saying what
//! it had done, and the normal error path reports it, removes any temporary file and exits
//! 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP). SIGHUP is left alone where it is ignored
//! (`nohup`: the run goes on once its terminal is gone). A second signal
//! ends the process at once with the same code, for a user who will not wait, saying so in
//! one line (`mpirun` sends its processes SIGTERM after the SIGINT of a Ctrl-C, and SIGKILL
//! a second later); the same signal sent again by the same process within a tenth of a
//! second is the same request, not a second one (GNU `timeout` sends its SIGTERM to the
//! process and then to its process group, microseconds apart: a third of the runs it
//! stopped ended at once, with no word of what they had done). SIGXFSZ is ignored (see
//! [`write_errors_not_signals`]).

use pegchain::Cancel;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The process's token and the number of the signal that set it (0: none yet).
struct Installed {
    cancel: Cancel,
    signal: Arc<AtomicUsize>,
}

static INSTALLED: OnceLock<Installed> = OnceLock::new();

/// Set once the process writes its last line (its error): a second signal then leaves it to
/// finish that line and end, rather than cut it short or add another.
static SAYING_WHY: AtomicBool = AtomicBool::new(false);

/// Called just before the process writes the line that says why it ends.
pub fn saying_why() {
    SAYING_WHY.store(true, Ordering::SeqCst);
}

/// What a process that `speaks` (see `processes::speaks`) says when a second signal ends it,
/// in a command that saves checkpoints and in one that does not (`serve`, `coach`, ...).
const ENDED_AT_ONCE_SAVED: &[u8] = b"pegchain: stopped at once by a second signal (a run saved with --checkpoint goes on from its last save with --resume)\n";
const ENDED_AT_ONCE: &[u8] = b"pegchain: stopped at once by a second signal\n";

/// Installs the handlers once; later calls change nothing. If the handlers cannot be
/// installed, the signals keep their default action (the process ends at once), as before.
/// Only a process that `speaks` says why it ends at once, and only one whose command `saves`
/// checkpoints points to them.
pub fn install(speaks: bool, saves: bool) {
    INSTALLED.get_or_init(|| {
        let installed = Installed { cancel: Cancel::new(), signal: Arc::new(AtomicUsize::new(0)) };
        let said: &'static [u8] = match (speaks, saves) {
            (false, _) => b"",
            (true, true) => ENDED_AT_ONCE_SAVED,
            (true, false) => ENDED_AT_ONCE,
        };
        for signal in [SIGINT, SIGTERM] {
            let _ = handle(signal, &installed, said);
        }
        if !ignored(SIGHUP) {
            let _ = handle(SIGHUP, &installed, said);
        }
        installed
    });
}

/// The first signal: its number, its sender (see [`sender`]) and when it came.
static FIRST_SIGNAL: AtomicI32 = AtomicI32::new(0);
static FIRST_SENDER: AtomicI32 = AtomicI32::new(NO_SENDER);
static FIRST_AT_NS: AtomicU64 = AtomicU64::new(0);

/// How soon the same signal from the same process is the same request.
const SAME_REQUEST_NS: u64 = 100_000_000;

/// The sender of a signal with no process behind it (the terminal's Ctrl-C).
const NO_SENDER: i32 = -1;

/// The process that sent the signal with `kill` or `sigqueue`, or [`NO_SENDER`].
fn sender(info: &libc::siginfo_t) -> i32 {
    match info.si_code {
        // SAFETY: si_pid is set for signals sent by kill (SI_USER) and sigqueue (SI_QUEUE).
        libc::SI_USER | libc::SI_QUEUE => unsafe { info.si_pid() },
        _ => NO_SENDER,
    }
}

/// The monotonic clock in nanoseconds (clock_gettime is async-signal-safe).
fn now_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Whether `signal` from `from` at `at` repeats the first signal: the same signal from the
/// same process, within [`SAME_REQUEST_NS`].
fn repeats_the_first(signal: i32, from: i32, at: u64) -> bool {
    from != NO_SENDER
        && FIRST_SIGNAL.load(Ordering::SeqCst) == signal
        && FIRST_SENDER.load(Ordering::SeqCst) == from
        && at.saturating_sub(FIRST_AT_NS.load(Ordering::SeqCst)) < SAME_REQUEST_NS
}

/// The second `signal` writes `said` and exits at once (the flag is already set then),
/// unless the process is already saying why it ends or the first signal is repeated; the
/// first sets the flag and records which signal it was, from whom and when.
fn handle(signal: i32, installed: &Installed, said: &'static [u8]) -> std::io::Result<()> {
    let flag = installed.cancel.flag();
    let set_before = Arc::clone(&flag);
    let code = i32::from(exit_code_of(signal));
    // SAFETY: the action reads the clock, loads and stores atomics, writes a static buffer
    // and calls _exit: all async-signal-safe. Registered first, it sees the flag as the
    // signals before left it.
    unsafe {
        signal_hook_registry::register_sigaction(signal, move |info| {
            let (from, at) = (sender(info), now_ns());
            if !set_before.load(Ordering::SeqCst) {
                FIRST_SIGNAL.store(signal, Ordering::SeqCst);
                FIRST_SENDER.store(from, Ordering::SeqCst);
                FIRST_AT_NS.store(at, Ordering::SeqCst);
            } else if !SAYING_WHY.load(Ordering::SeqCst) && !repeats_the_first(signal, from, at) {
                libc::write(libc::STDERR_FILENO, said.as_ptr().cast(), said.len());
                libc::_exit(code);
            }
        })?;
    }
    signal_hook::flag::register_usize(signal, Arc::clone(&installed.signal), signal as usize)?;
    signal_hook::flag::register(signal, flag)?;
    Ok(())
}

/// Lets a write past the file-size limit (`ulimit -f`) fail as an error, EFBIG, which the
/// writers report in one line and after which they remove their temporary, rather than end
/// the process by SIGXFSZ, whose default action kills it mid-write (the shell's "File size
/// limit exceeded", a temporary left behind). Called first: the help is written, too.
pub fn write_errors_not_signals() {
    // SAFETY: setting a signal's disposition to SIG_IGN runs no code in the process.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Whether `signal` is ignored, as `nohup` leaves SIGHUP for the program it starts.
fn ignored(signal: i32) -> bool {
    // SAFETY: sigaction with no new action only reads the signal's disposition into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

/// The token requests carry: the process's once `install` ran, else one never cancelled.
pub fn token() -> Cancel {
    INSTALLED.get().map(|i| i.cancel.clone()).unwrap_or_default()
}

/// The exit code of an interrupted run: 128 + the signal's number, as shells report it.
pub fn exit_code() -> u8 {
    let signal = INSTALLED.get().map_or(0, |i| i.signal.load(Ordering::Relaxed));
    exit_code_of(if signal == 0 { SIGINT } else { signal as i32 })
}

fn exit_code_of(signal: i32) -> u8 {
    128 + u8::try_from(signal).unwrap_or(SIGINT as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(exit_code_of(SIGINT), 130);
        assert_eq!(exit_code_of(SIGTERM), 143);
        assert_eq!(exit_code_of(SIGHUP), 129);
    }
}
