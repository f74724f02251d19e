//! What every CLI test needs: the binary, and the bad-input contract.
#![allow(dead_code)]

use assert_cmd::Command;

pub fn pegchain() -> Command {
    Command::cargo_bin("pegchain").unwrap()
}

/// Bad input: exit code 2, one line on stderr naming the fault, nothing on stdout, no panic.
pub fn fails_with(args: &[&str], message: &str) {
    fails_with_code(args, 2, message);
}

/// A failure at run time (a write that failed): exit code 1, otherwise as `fails_with`.
pub fn fails_at_run_time_with(args: &[&str], message: &str) {
    fails_with_code(args, 1, message);
}

fn fails_with_code(args: &[&str], code: i32, message: &str) {
    let out = pegchain().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("pegchain: "), "{err}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert!(!err.contains("panicked"));
    assert!(out.stdout.is_empty());
}
