//! What every CLI test needs, written once: the binary, its output as text, bytes or JSON,
//! scratch directories, and the bad-input contract.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn pegchain() -> Command {
    Command::cargo_bin("pegchain").unwrap()
}

/// Holds `command`'s address space to `bytes` (RLIMIT_AS, as `ulimit -v` sets).
pub fn limit_address_space(command: &mut std::process::Command, bytes: u64) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: only setrlimit, async-signal-safe, runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            match libc::setrlimit(libc::RLIMIT_AS, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        })
    }
}

/// Stdout of a run that must succeed.
pub fn stdout_bytes(args: &[&str]) -> Vec<u8> {
    let out = pegchain().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Stdout of a run that must succeed, as text.
pub fn stdout(args: &[&str]) -> String {
    String::from_utf8(stdout_bytes(args)).unwrap()
}

/// The JSON document of a run that must succeed (`--json` is added).
pub fn json(args: &[&str]) -> Value {
    let bytes = stdout_bytes(&[args, &["--json"]].concat());
    serde_json::from_slice(&bytes).unwrap()
}

/// A file shipped in `data/`.
pub fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(path)
}

/// A fresh, empty directory under the target's scratch space.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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

/// A big integer of the JSON vocabulary (a string of digits), as a number.
pub fn big(v: &Value) -> Option<u64> {
    v.as_str()?.parse().ok()
}

/// Checks every exact value (`{"fraction", "decimal"}`) in `v`: its decimal is the double
/// nearest to its fraction. Returns how many it checked.
pub fn assert_decimals_are_nearest(v: &Value) -> usize {
    match v {
        Value::Object(map) => {
            let pair =
                (map.get("fraction").and_then(Value::as_str), map.get("decimal").and_then(Value::as_f64));
            let own = match pair {
                (Some(fraction), Some(decimal)) => {
                    let exact: rug::Rational = fraction.parse().unwrap();
                    let nearest = pegchain::render::number::nearest_f64(&exact);
                    assert_eq!(
                        decimal.to_bits(),
                        nearest.to_bits(),
                        "{fraction}: {decimal:e} is not {nearest:e}"
                    );
                    1
                }
                _ => 0,
            };
            own + map.values().map(assert_decimals_are_nearest).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(assert_decimals_are_nearest).sum(),
        _ => 0,
    }
}
