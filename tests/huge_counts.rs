//! Huge game counts are streamed or refused, never aborted: a run that would take ages says
//! its estimated time on stderr (stdout stays empty) and then plays with bounded memory.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// The first line `pegchain ARGS` writes on stderr; the run is then stopped.
fn first_stderr_line(args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegchain"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    line
}

#[test]
fn the_largest_count_states_its_time_up_front_instead_of_aborting() {
    // Before: "memory allocation of 6755399441055744 bytes failed", an abort.
    for command in ["simulate --games", "audit --games", "race --simulate"] {
        let mut args: Vec<&str> = command.split(' ').collect();
        args.push("18446744073709551615");
        let line = first_stderr_line(&args);
        assert!(line.starts_with("18,446,744,073,709,551,615 games: about "), "{command}: {line}");
        assert!(line.contains("years on") && line.contains("(from a calibration of 20,000 games)"), "{line}");
    }
}

#[test]
fn a_run_of_seconds_states_no_time_estimate() {
    let out = Command::new(env!("CARGO_BIN_EXE_pegchain"))
        .args(["simulate", "--games", "3000000", "--board", "triangle4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    // Only the throughput line: 3,000,000 games take seconds, not hours.
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("calibration"), "{stderr}");
}
