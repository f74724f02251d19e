//! The memory budget comes from the process's real limits: under an address-space limit
//! (`ulimit -v`) a board too big for it is refused with one line, never aborted mid-step.

use std::os::unix::process::CommandExt;
use std::process::{Command, Output};

/// `pegchain ARGS` with its address space held to `bytes` (RLIMIT_AS, as `ulimit -v` sets).
fn under_address_limit(bytes: u64, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pegchain"));
    command.args(args);
    // SAFETY: only setrlimit, async-signal-safe, runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.output().unwrap()
}

#[test]
fn an_address_space_limit_is_a_refusal_in_one_line_not_an_abort() {
    // triangle8 from its tip needs about half a gigabyte; before, this aborted with
    // "memory allocation of 1048576 bytes failed" and a backtrace.
    let out = under_address_limit(400_000_000, &["exact", "--board", "triangle8", "--start", "A"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The way out is named: the flags not given that may need less memory.
    let words = "over the memory budget of 320 MB (80% of the address-space limit; --whole-group or --residues 2 may need less memory)";
    assert!(stderr.contains(words), "{stderr}");
    assert!(!stderr.contains("memory allocation of"), "{stderr}");
}

#[test]
fn a_requested_budget_never_exceeds_the_address_space_limit() {
    let args = ["exact", "--board", "triangle8", "--start", "A", "--max-memory", "100"];
    let out = under_address_limit(400_000_000, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("(80% of the address-space limit;"), "{stderr}");
}

#[test]
fn a_board_that_fits_the_limit_is_answered() {
    let out = under_address_limit(400_000_000, &["exact", "--board", "triangle5", "--start", "A"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
