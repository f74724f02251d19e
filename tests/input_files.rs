//! Every input file is a regular file under the size cap (1 MiB), read as UTF-8: devices,
//! FIFOs, directories, huge files and binary files each get one line naming the file and
//! exit code 2, at once (a FIFO would block a reader forever, /dev/zero would never end).

mod support;
use std::path::Path;
use std::time::{Duration, Instant};
use support::{pegchain, scratch};

/// Runs the binary with a time limit (so a blocking read fails the test instead of hanging
/// it) and checks the bad-input contract: exit 2, one line on stderr with `message`.
fn refused_quickly(args: &[&str], message: &str) {
    let started = Instant::now();
    let out = pegchain().args(args).timeout(Duration::from_secs(10)).output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "{args:?} took {:?}", started.elapsed());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert!(!err.contains("panicked"));
    assert!(out.stdout.is_empty());
}

/// The two flags that name an input file, with a command that reads it.
fn readers(file: &str) -> [Vec<String>; 2] {
    [
        ["show", "--board", file].map(String::from).to_vec(),
        ["race", "--rules", file].map(String::from).to_vec(),
    ]
}

fn each_reader(file: &Path, why: &str) {
    let f = file.display().to_string();
    for (args, what) in readers(&f).iter().zip(["board file", "rules file"]) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_quickly(&args, &format!("{what} {f}: {why}"));
    }
}

#[test]
fn devices_are_not_read() {
    each_reader(Path::new("/dev/zero"), "not a regular file (a character device)");
}

#[test]
fn directories_are_not_read() {
    each_reader(&scratch("input-dir"), "not a regular file (a directory)");
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = scratch("input-fifo");
    let fifo = dir.join("board.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    each_reader(&fifo, "not a regular file (a FIFO)");
}

#[test]
fn files_over_the_cap_are_refused() {
    let dir = scratch("input-big");
    let big = dir.join("big.json");
    std::fs::write(&big, vec![b' '; 2 << 20]).unwrap();
    each_reader(&big, "larger than the 1048576 bytes (1 MiB) an input file may hold");
}

#[test]
fn binary_files_are_refused() {
    let dir = scratch("input-binary");
    let binary = dir.join("binary.json");
    std::fs::write(&binary, b"{\"name\": \"\xff\xfe\"}").unwrap();
    each_reader(&binary, "not UTF-8 text (an invalid byte at offset 10)");
}

/// A board file whose CSV names a device is refused on that CSV, not read forever.
#[test]
fn a_board_naming_a_device_as_its_csv_is_refused() {
    let dir = scratch("input-csv-device");
    let json = dir.join("board.json");
    std::fs::write(&json, r#"{"board": "/dev/urandom", "layout": "/dev/zero"}"#).unwrap();
    let f = json.display().to_string();
    refused_quickly(
        &["show", "--board", &f],
        "board file /dev/urandom: not a regular file (a character device)",
    );
}

/// A PRISM companion found by name (`m.lab` beside `m.tra`) that is a directory or a FIFO is
/// refused as one given by `--lab` is: it was skipped, the chain read with no labels.
#[test]
fn a_companion_found_by_name_that_is_no_file_is_refused() {
    let dir = scratch("input-companion");
    let tra = dir.join("m.tra");
    std::fs::write(&tra, "2 3\n0 0 1/2\n0 1 1/2\n1 1 1\n").unwrap();
    let tra = tra.to_str().unwrap();
    let lab = dir.join("m.lab");
    std::fs::create_dir(&lab).unwrap();
    let why = "not a regular file (a directory); only regular files are read";
    refused_quickly(&["chain", tra], &format!("model file {}: {why}", lab.display()));
    std::fs::remove_dir(&lab).unwrap();
    let srew = dir.join("m.srew");
    let made = std::process::Command::new("mkfifo").arg(&srew).status().unwrap();
    assert!(made.success());
    refused_quickly(&["chain", tra], &format!("model file {}: not a regular file (a FIFO)", srew.display()));
    std::fs::remove_file(&srew).unwrap();
    let out = pegchain().args(["chain", tra]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
