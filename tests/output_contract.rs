//! The output contract of docs/output.md, checked on every command in every format: one JSON
//! vocabulary (every exact value a `{"fraction", "decimal"}` pair whose decimal is the double
//! nearest to the fraction; nothing `null`), CSV that is one rectangular table, Markdown with
//! its tables, and the same exit codes for a failed write and a closed pipe.

mod support;

use pegchain::render::number::nearest_f64;
use rug::Rational;
use serde_json::Value;
use std::io::Read;
use std::process::Stdio;
use support::stdout;

/// One fast run of every command (and of each mode of `race`).
const COMMANDS: &[&[&str]] = &[
    &["boards"],
    &["show", "--board", "triangle5"],
    &["exact", "--board", "triangle5", "--start", "A,E"],
    &["count", "--board", "triangle5", "--start", "A"],
    &["ends", "--board", "triangle5"],
    &["solve", "--board", "triangle5", "--start", "A", "--limit", "2"],
    &["simulate", "--games", "20000", "-q"],
    &["audit", "--games", "20000", "-q"],
    &["race"],
    &["race", "--simulate", "10000"],
    &["race", "--grid", "--length", "8"],
    &["race", "--lengths", "8..10"],
    &["chain", "tests/fixtures/chains/herman5.drn", "--target", "stable", "--reward", "steps", "--visits"],
    &["chain", "tests/fixtures/chains/herman5.drn"],
    &["game", "chutes-and-ladders", "--distribution", "12", "--simulate", "20000"],
    &["game", "craps", "--target", "win", "--simulate", "20000"],
    &["game", "knuth-yao"],
    &["games"],
    &["coach", "--start", "A", "--moves", "F-C-A,D-E-F"],
    &["coach", "--board", "triangle5", "--position", "A,B,C,E"],
    &["exact", "--start", "A", "--moves", "F-C-A,D-E-F"],
    &["count", "--position", "A,B,C,E,G,H"],
    &["ends", "--start", "E", "--moves", "L-H-E"],
    &["solve", "--start", "A", "--moves", "F-C-A", "--limit", "1"],
    &["simulate", "--start", "A", "--moves", "F-C-A,D-E-F", "--games", "20000", "-q"],
    &["simulate", "--board", "english", "--position", "d4,d5,e5", "--games", "2000", "-q"],
];

fn with(args: &[&str], flag: &str) -> Vec<String> {
    args.iter().map(|a| a.to_string()).chain([flag.to_string()]).collect()
}

fn run(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    stdout(&args)
}

/// Every exact pair's decimal is the nearest double; no value is null. Returns the pairs seen.
fn check_values(v: &Value, at: &str, pairs: &mut usize) {
    match v {
        Value::Null => panic!("{at}: null (a value not computed is absent, never null)"),
        Value::Object(map) => {
            if let (Some(Value::String(fraction)), Some(decimal)) = (map.get("fraction"), map.get("decimal"))
            {
                let exact: Rational =
                    fraction.parse().unwrap_or_else(|_| panic!("{at}: fraction {fraction:?}"));
                let decimal = decimal.as_f64().unwrap_or_else(|| panic!("{at}: decimal {decimal}"));
                assert_eq!(
                    decimal,
                    nearest_f64(&exact),
                    "{at}: {fraction} is not printed as its nearest double"
                );
                *pairs += 1;
            }
            for (key, value) in map {
                check_values(value, &format!("{at}.{key}"), pairs);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                check_values(item, &format!("{at}[{i}]"), pairs);
            }
        }
        _ => {}
    }
}

#[test]
fn every_json_document_keeps_the_one_vocabulary() {
    let mut pairs = 0;
    for args in COMMANDS {
        let text = run(&with(args, "--json"));
        let v: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: not one JSON document: {e}"));
        assert_eq!(v["command"], args[0], "{args:?}: `command` names the subcommand");
        check_values(&v, args[0], &mut pairs);
        // The board of a peg-solitaire command is the one object (coach gave its name alone).
        if let Some(board) = v.get("board") {
            for key in ["name", "holes", "jumps", "symmetry_order"] {
                assert!(board.get(key).is_some(), "{args:?}: the board object has no {key}: {board}");
            }
        }
        for old in ["win_decimal", "exact_decimal", "predicted_decimal", "group_order", "interval"] {
            assert!(!text.contains(&format!("\"{old}\"")), "{args:?}: old key {old}");
        }
    }
    assert!(pairs > 100, "the documents carry exact pairs ({pairs})");
}

/// `show` draws the board: a drawing is no table, so it has no CSV (refused) and its Markdown
/// is the drawing in a code block.
fn tabular(args: &&&[&str]) -> bool {
    args[0] != "show"
}

/// A chain's CSV is one table (the race, the target's distribution or values, or the ends):
/// a part asked for beside it that the table would leave out is refused, not dropped, and so
/// are the ends a game shows beside its own target (knuth-yao's faces).
fn leaves_out_of_csv(args: &[&str]) -> Option<&'static str> {
    if args == ["game", "knuth-yao"] {
        return Some("where the chain ends, which the game shows beside its target (--target done");
    }
    let chain = matches!(args[0], "chain" | "game");
    ["--simulate", "--visits"].into_iter().find(|flag| chain && args.contains(flag))
}

#[test]
fn every_csv_is_one_rectangular_table() {
    support::fails_with(&["show", "--csv"], "--csv does not fit");
    let mut refused = 0;
    for args in COMMANDS.iter().filter(tabular) {
        if let Some(flag) = leaves_out_of_csv(args) {
            support::fails_with(&[args, &["--csv"][..]].concat(), &format!("--csv does not fit {flag}"));
            refused += 1;
            continue;
        }
        let text = run(&with(args, "--csv"));
        let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(text.as_bytes());
        let width = reader.headers().unwrap_or_else(|e| panic!("{args:?}: {e}")).len();
        let mut rows = 0;
        for record in reader.records() {
            let record = record.unwrap_or_else(|e| panic!("{args:?}: {e}"));
            assert_eq!(record.len(), width, "{args:?}: a ragged row");
            // A decimal is written as JSON writes it, so the two formats agree character for
            // character (3.51722561243691e-6, not 0.00000351722561243691; 0.0 for an exact 0).
            for cell in record.iter().filter(|c| c.contains(['.', 'e']) && !c.contains(['/', ' '])) {
                if let Ok(x) = cell.parse::<f64>() {
                    assert_eq!(serde_json::to_string(&x).unwrap(), cell, "{args:?}: {record:?}");
                }
            }
            rows += 1;
        }
        assert!(rows > 0, "{args:?}: a CSV with no rows");
    }
    assert_eq!(refused, 4, "the chain runs with estimates or visits, and a game's own ends");
    let ends = ["chain", "tests/fixtures/chains/herman5.drn", "--target", "stable", "--ends", "--csv"];
    support::fails_with(&ends, "--csv does not fit --ends: a CSV is one table, here the target's values");
}

#[test]
fn every_markdown_document_has_its_tables() {
    assert!(run(&with(&["show"], "--markdown")).contains("```\n    A\n"));
    for args in COMMANDS.iter().filter(tabular) {
        let text = run(&with(args, "--markdown"));
        assert!(text.lines().any(|l| l.starts_with("|") && l.contains("---")), "{args:?}: no table");
        assert!(text.ends_with('\n'));
        // Every column is named: the line above each rule is its table's header.
        let lines: Vec<&str> = text.lines().collect();
        for pair in lines.windows(2).filter(|p| p[1].starts_with("|:") || p[1].starts_with("|-")) {
            assert!(
                !pair[0].contains("|  |") && !pair[0].contains("||"),
                "{args:?}: a nameless column: {}",
                pair[0]
            );
        }
    }
}

#[test]
fn a_failed_write_to_stdout_says_so_and_exits_1() {
    for args in COMMANDS {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
            .args(*args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?} > /dev/full: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains("cannot write to standard output"), "{args:?}: {err}");
    }
}

/// A simulation says its throughput on stderr once its answer is written: where the write
/// fails, the failure is the run's one line (the throughput line came first, and the run
/// ended with two).
#[test]
fn a_failed_write_is_the_one_line_where_a_throughput_line_would_follow() {
    let args = ["simulate", "--board", "triangle4", "--games", "100"];
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
        .args(args)
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pegchain: cannot write to standard output: No space left on device\n"
    );
    let out = support::pegchain().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.starts_with("100 games in ") && err.lines().count() == 1, "{err}");
}

/// Started with standard output closed (`pegchain … >&-`), every command fails as `ls` does,
/// before any work: its answer would be lost (Rust's runtime puts /dev/null in its place).
#[test]
fn a_stdout_closed_at_start_is_a_failed_write() {
    let closed = |args: &[&str]| {
        std::process::Command::new("bash")
            .args(["-c", "exec \"$@\" >&-", "pegchain", env!("CARGO_BIN_EXE_pegchain")])
            .args(args)
            .output()
            .unwrap()
    };
    for args in COMMANDS {
        let out = closed(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?} >&-: {err}");
        assert_eq!(err, "pegchain: cannot write to standard output: Bad file descriptor\n", "{args:?}");
    }
    // Refused before any work: a file the command would write besides is not written.
    let dir = std::env::temp_dir().join(format!("pegchain-closed-stdout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let drn = dir.join("a.drn");
    let out = closed(&["export", "--board", "triangle5", "--start", "A", "--drn", drn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!drn.exists());
    std::fs::remove_dir_all(&dir).unwrap();
    let out = closed(&["--version"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pegchain: cannot write to standard output: Bad file descriptor\n"
    );
}

/// A pipe whose write end is non-blocking, as some launchers hand over: (read end, write end).
fn non_blocking_pipe() -> (std::fs::File, std::os::fd::OwnedFd) {
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut ends = [0; 2];
    // SAFETY: a pipe's two new descriptors, each owned once below.
    assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0);
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
    // SAFETY: flags of a descriptor owned here.
    unsafe { libc::fcntl(ends[1], libc::F_SETFL, libc::fcntl(ends[1], libc::F_GETFL) | libc::O_NONBLOCK) };
    (std::fs::File::from(read), write)
}

/// Everything `read` gives until its writers are gone, read slowly after a pause.
fn read_slowly(mut read: std::fs::File) -> Vec<u8> {
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (mut got, mut part) = (Vec::new(), [0u8; 4096]);
    loop {
        match read.read(&mut part).unwrap() {
            0 => return got,
            n => got.extend_from_slice(&part[..n]),
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// A pipe made non-blocking by the process that shares it (some launchers do) takes the
/// whole answer, however slowly it is read: the write used to fail with EAGAIN once the
/// pipe was full (`cannot write to standard output: Resource temporarily unavailable`,
/// 65,536 bytes of 212,802 written). Standard error likewise keeps its line where such a
/// pipe is full when the line comes (it was lost).
#[test]
fn a_non_blocking_pipe_read_slowly_takes_every_byte() {
    let args = ["race", "--grid", "--length", "200"];
    let (read, write) = non_blocking_pipe();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
        .args(args)
        .stdout(Stdio::from(write))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let got = read_slowly(read);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(got).unwrap(), stdout(&args));

    let (read, write) = non_blocking_pipe();
    let filler = vec![b'.'; 1 << 20];
    let held = write.try_clone().unwrap();
    let full = std::io::Write::write(&mut std::fs::File::from(held), &filler).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
        .args(["exact", "--board", "nope"])
        .stderr(Stdio::from(write))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let got = read_slowly(read);
    assert_eq!(child.wait().unwrap().code(), Some(2));
    assert!(got[..full].iter().all(|&b| b == b'.'));
    let line = String::from_utf8(got[full..].to_vec()).unwrap();
    assert!(line.starts_with("pegchain: unknown board \"nope\"") && line.ends_with('\n'), "{line}");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // Long outputs, so that the reader is gone before the writer has finished.
    for args in [
        &["solve", "--board", "triangle5", "--start", "A", "--all"][..],
        &["race", "--grid", "--length", "60"],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The pipe's read end is dropped here.
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// Every file the tool writes, written through a link to `/dev/full`: the device is written
/// into (a full disk, so one line naming the path and exit 1), and neither the device nor the
/// link is replaced by a file. Before, a temporary was renamed over the target: run as root,
/// `--svg /dev/null` replaced the system's `/dev/null` with a file.
#[cfg(target_os = "linux")]
#[test]
fn a_file_written_through_a_link_to_a_device_is_written_into_it() {
    use std::os::unix::fs::{FileTypeExt, symlink};
    let dir = support::scratch("device-targets");
    let full = dir.join("full.svg");
    symlink("/dev/full", &full).unwrap();
    let path = full.to_str().unwrap();
    for args in [
        &["race", "--grid", "--length", "8", "--svg", path][..],
        &[
            "chain",
            "tests/fixtures/chains/herman5.drn",
            "--target",
            "stable",
            "--distribution",
            "5",
            "--svg",
            path,
        ],
        &["export", "--board", "triangle5", "--start", "A", "--drn", path],
    ] {
        support::fails_at_run_time_with(args, &format!("cannot write {path}: No space left on device"));
        assert!(std::fs::symlink_metadata(&full).unwrap().file_type().is_symlink(), "{args:?}");
    }
    assert!(std::fs::metadata("/dev/full").unwrap().file_type().is_char_device());
}

/// A file target refused before any work is named once, by its flag: a link that leads
/// nowhere but to itself was named twice (`--svg loop.svg: loop.svg: too many levels of
/// symbolic links`), as was a block device.
#[cfg(unix)]
#[test]
fn a_refused_file_target_is_named_once() {
    let dir = support::scratch("target-named-once");
    let link = dir.join("loop.svg");
    std::os::unix::fs::symlink(&link, &link).unwrap();
    let path = link.to_str().unwrap();
    for (flag, args) in [
        ("--svg", &["race", "--grid", "--length", "8", "--svg", path][..]),
        ("--drn", &["export", "--board", "triangle5", "--start", "A", "--drn", path]),
        ("--checkpoint", &["simulate", "--games", "10", "-q", "--checkpoint", path]),
    ] {
        let out = support::pegchain().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err, format!("pegchain: {flag} {path}: too many levels of symbolic links\n"), "{args:?}");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// A file the user may not write (`chmod a-w`) is refused before any work, as the shell's
/// `>` refuses it, and left as it was; one that may be written is replaced keeping its
/// permissions. Before, a temporary renamed over either replaced the read-only file all the
/// same, and a private `0600` file came back readable by all (`0644`). Run as root, the run
/// is made as the user `nobody`, whom a mode of `0444` binds.
#[cfg(target_os = "linux")]
#[test]
fn a_target_keeps_its_permissions_and_a_read_only_one_is_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = support::scratch("read-only-target");
    let mode = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    mode(&dir, 0o777);
    let (kept, private) = (dir.join("kept.svg"), dir.join("private.svg"));
    for file in [&kept, &private] {
        std::fs::write(file, "mine").unwrap();
    }
    mode(&kept, 0o444);
    mode(&private, 0o600);
    // The replaced file keeps its permissions.
    support::stdout(&["race", "--grid", "--length", "8", "--svg", private.to_str().unwrap()]);
    assert!(std::fs::read_to_string(&private).unwrap().contains("</svg>"));
    assert_eq!(std::fs::metadata(&private).unwrap().permissions().mode() & 0o777, 0o600);
    // Root is bound by no mode, and `nobody` must reach the binary and the file: a checkout
    // under a private home (`/root`, mode 0700) does not let it, and that half is skipped.
    let others_reach = |path: &std::path::Path| {
        path.ancestors().all(|p| std::fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
    };
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_pegchain"));
    if unsafe { libc::geteuid() } == 0 && !(others_reach(binary) && others_reach(&dir)) {
        eprintln!("skipped: the user nobody cannot reach {} or {}", binary.display(), dir.display());
        return;
    }
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"));
    command.args(["race", "--grid", "--length", "8", "--svg", kept.to_str().unwrap()]);
    // SAFETY: only setgroups, setgid and setuid, async-signal-safe, between fork and exec.
    unsafe {
        command.pre_exec(|| {
            if libc::geteuid() == 0
                && (libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(65534) != 0
                    || libc::setuid(65534) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let words = format!(
        "pegchain: --svg {}: the file may not be written (Permission denied), so it is not replaced\n",
        kept.display()
    );
    assert_eq!(err, words);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine");
}

/// A directory to write into that is a symbolic link leading nowhere (or to itself) is
/// refused before any work: the run went on (the audit played its games) and failed at the
/// end with "cannot create DIR: File exists", exit 1.
#[cfg(unix)]
#[test]
fn an_output_directory_that_is_a_link_to_nowhere_is_refused_before_any_work() {
    let dir = support::scratch("dangling-out-dir");
    let (nowhere, looped) = (dir.join("plots"), dir.join("loop"));
    std::os::unix::fs::symlink(dir.join("missing"), &nowhere).unwrap();
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    for link in [&nowhere, &looped] {
        let path = link.to_str().unwrap();
        for (flag, args) in [
            ("--svg", &["audit", "--games", "1000", "-q", "--svg", path][..]),
            ("--out", &["boards", "--export", "triangle5", "--out", path]),
            ("--svg", &["audit", "--games", "1000", "-q", "--svg", &format!("{path}/sub")]),
        ] {
            support::fails_with(args, &format!("{flag} {}", args.last().unwrap()));
            support::fails_with(args, &format!("{path} is a symbolic link that leads to no directory"));
        }
    }
}

/// A write past the file-size limit (`ulimit -f`) fails like a full disk: one line naming
/// the file, exit 1, and no file or temporary left. Before, SIGXFSZ killed the process
/// mid-write (the shell's "File size limit exceeded", exit 153) and left the hidden temporary
/// beside the target.
#[cfg(target_os = "linux")]
#[test]
fn a_write_past_the_file_size_limit_fails_in_one_line_and_leaves_nothing() {
    use std::os::unix::process::CommandExt;
    let dir = support::scratch("file-size-limit");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for args in [
        vec!["race".to_string(), "--grid".into(), "--svg".into(), file("grid.svg")],
        vec!["export".into(), "--board".into(), "triangle5".into(), "--start".into(), "A".into()]
            .into_iter()
            .chain(["--drn".into(), file("walk.drn")])
            .collect(),
        vec!["exact".into(), "--board".into(), "triangle6".into(), "-q".into(), "--checkpoint".into()]
            .into_iter()
            .chain([file("run.ckpt")])
            .collect(),
    ] {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"));
        command.args(&args).stdin(Stdio::null());
        // SAFETY: only setrlimit, async-signal-safe, runs between fork and exec.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit { rlim_cur: 1024, rlim_max: 1024 };
                match libc::setrlimit(libc::RLIMIT_FSIZE, &limit) {
                    0 => Ok(()),
                    _ => Err(std::io::Error::last_os_error()),
                }
            });
        }
        let out = command.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {:?} {err}", out.status);
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains("File too large"), "{args:?}: {err}");
        // The checkpoint's first saves fit in the limit: the last whole one stays, nothing else.
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.iter().all(|name| name == "run.ckpt"), "{args:?}: {left:?}");
    }
}

/// A checkpoint that is a FIFO is refused before any work, in one line: each save replaces
/// its file by renaming, which would take the FIFO away.
#[cfg(unix)]
#[test]
fn a_checkpoint_that_is_not_a_regular_file_is_refused() {
    use std::os::unix::fs::FileTypeExt;
    let dir = support::scratch("fifo-checkpoint");
    let fifo = dir.join("run.checkpoint");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    support::fails_with(
        &["exact", "--board", "triangle5", "--checkpoint", fifo.to_str().unwrap()],
        &format!("--checkpoint {}: not a regular file (a FIFO)", fifo.display()),
    );
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

/// A checkpoint that exists already is kept: a run that does not go on from it is refused
/// before any work (a run started again without `--resume` replaced hours of saves, or any
/// file of that name, at its first save), and goes on from it with `--resume`. The file a run
/// by residues keeps beside it (FILE.pass) must be a regular file too: as a FIFO the run
/// waited forever at its first pass's save, as a directory it failed there.
#[cfg(unix)]
#[test]
fn a_checkpoint_in_place_is_not_replaced_and_its_pass_file_is_checked() {
    let dir = support::scratch("checkpoint-in-place");
    let saved = dir.join("run.checkpoint");
    let path = saved.to_str().unwrap();
    let args = ["exact", "--board", "triangle5", "--start", "all", "--checkpoint", path];
    let whole = stdout(&args);
    let kept = std::fs::read(&saved).unwrap();
    support::fails_with(
        &args,
        &format!(
            "--checkpoint {path}: the file exists; go on from it with --resume {path}, or remove it to start again"
        ),
    );
    let other = dir.join("other.checkpoint");
    std::fs::copy(&saved, &other).unwrap();
    support::fails_with(&[&args[..], &["--resume", other.to_str().unwrap()]].concat(), "the file exists");
    assert_eq!(std::fs::read(&saved).unwrap(), kept, "the refused runs left the save as it was");
    assert_eq!(stdout(&[&args[..], &["--resume", path]].concat()), whole);

    let fresh = dir.join("fresh.checkpoint");
    let fresh_path = fresh.to_str().unwrap();
    let pass = dir.join("fresh.checkpoint.pass");
    let by_residues =
        ["exact", "--board", "triangle6", "--start", "all", "--residues", "1", "--checkpoint", fresh_path];
    let made = std::process::Command::new("mkfifo").arg(&pass).status().unwrap();
    assert!(made.success());
    let beside = |kind: &str| {
        format!(
            "--checkpoint {fresh_path}: {} beside it, where a run by --residues keeps the start of its pass, is not a regular file ({kind})",
            pass.display()
        )
    };
    support::fails_with(&by_residues, &beside("a FIFO"));
    std::fs::remove_file(&pass).unwrap();
    std::fs::create_dir(&pass).unwrap();
    support::fails_with(&by_residues, &beside("a directory"));
    assert!(!fresh.exists(), "nothing saved");
}

/// An output never replaces an input of the run, whatever path names it (a link included):
/// the run is refused in one line, exit 2, and the input is left as it was. Before, `--svg`
/// naming the chain file, `--drn` naming the rules file and `--checkpoint` naming the board
/// file each replaced it and reported success. A checkpoint resumed and saved again is no
/// input: the run goes on from it and replaces it, as before.
#[cfg(unix)]
#[test]
fn an_output_never_replaces_an_input() {
    let dir = support::scratch("inputs-kept");
    let copy = |from: &std::path::Path, name: &str| {
        let to = dir.join(name);
        std::fs::copy(from, &to).unwrap();
        to.to_str().unwrap().to_string()
    };
    let chain = copy(std::path::Path::new("tests/fixtures/chains/herman5.drn"), "herman5.drn");
    let link = dir.join("link.drn");
    std::os::unix::fs::symlink(&chain, &link).unwrap();
    let race = copy(&support::data("race/swine-butcher.json"), "race.json");
    for name in ["triangle5.json", "triangle5.adjacency.csv", "triangle5.layout.csv"] {
        copy(&support::data(&format!("boards/{name}")), name);
    }
    let board = dir.join("triangle5.json").to_str().unwrap().to_string();
    let adjacency = dir.join("triangle5.adjacency.csv").to_str().unwrap().to_string();
    let link = link.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["chain", &chain, "--target", "stable", "--distribution", "5", "--svg", &chain], &chain),
        (&["chain", &chain, "--target", "stable", "--distribution", "5", "--svg", link], link),
        (&["race", "--rules", &race, "--grid", "--svg", &race], &race),
        (&["exact", "--board", &board, "--start", "A", "--checkpoint", &board], &board),
        (&["export", "--board", &board, "--start", "A", "--drn", &adjacency], &adjacency),
    ];
    let before: Vec<Vec<u8>> =
        [&chain, &race, &board, &adjacency].iter().map(|f| std::fs::read(f).unwrap()).collect();
    for (args, target) in cases {
        support::fails_with(args, &format!("cannot write {target}: it is an input of this run"));
    }
    let after: Vec<Vec<u8>> =
        [&chain, &race, &board, &adjacency].iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(before == after, "an input was changed");
    let saved = dir.join("run.checkpoint").to_str().unwrap().to_string();
    let args = ["exact", "--board", "triangle5", "--start", "A", "--checkpoint", &saved];
    let whole = stdout(&args);
    let resumed = stdout(&[&args[..], &["--resume", &saved]].concat());
    assert_eq!(whole, resumed);
}

/// `--output FILE` takes the very bytes the answer would have on stdout, and stdout is left
/// empty, for every command and format; a failed write of the file is a run-time failure
/// naming it. Before the flag, an answer redirected under `mpirun` to a full disk was lost
/// with exit 0 (mpirun's own write failed, not the process's), and a run stopped while its
/// shell had already made `> FILE` left an empty file behind.
#[test]
fn every_answer_goes_to_its_output_file_as_it_would_to_stdout() {
    let dir = support::scratch("answer-files");
    for args in COMMANDS {
        for format in ["", "--json", "--csv", "--markdown"] {
            let args: Vec<&str> =
                args.iter().copied().chain([format].into_iter().filter(|f| !f.is_empty())).collect();
            let on_stdout = support::pegchain().args(&args).output().unwrap();
            if !on_stdout.status.success() {
                continue; // a format the command cannot give, refused either way
            }
            let file = dir.join("answer");
            let to_file =
                support::pegchain().args(&args).args(["-o", file.to_str().unwrap()]).output().unwrap();
            assert!(to_file.status.success(), "{args:?} -o: {}", String::from_utf8_lossy(&to_file.stderr));
            assert!(to_file.stdout.is_empty(), "{args:?} -o: stdout not empty");
            assert!(
                std::fs::read(&file).unwrap() == on_stdout.stdout,
                "{args:?}: the file differs from stdout"
            );
            std::fs::remove_file(&file).unwrap();
        }
        let out = support::pegchain().args(*args).args(["--output", "/dev/full"]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?} --output /dev/full: {err}");
        assert_eq!(err, "pegchain: cannot write /dev/full: No space left on device\n", "{args:?}");
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

/// `--output` is refused before any work, in one line and with exit 2, where its file could
/// not be written, and where the command line names the same file otherwise (an input, which
/// it would replace, or another output, which would replace it), whichever form gave it.
#[cfg(unix)]
#[test]
fn an_output_file_is_refused_before_any_work_where_it_cannot_take_the_answer() {
    let dir = support::scratch("answer-file-refused");
    let board = dir.join("triangle5.json");
    for name in ["triangle5.json", "triangle5.adjacency.csv", "triangle5.layout.csv"] {
        std::fs::copy(support::data(&format!("boards/{name}")), dir.join(name)).unwrap();
    }
    let before = std::fs::read(&board).unwrap();
    let (board, link) = (board.to_str().unwrap(), dir.join("link.json"));
    std::os::unix::fs::symlink(board, &link).unwrap();
    let link = link.to_str().unwrap();
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (svg, saved, missing) = (at("steps.svg"), at("run.checkpoint"), at("no/such/file"));
    let dir_name = dir.to_str().unwrap();
    let also = "the command line also names that file";
    let board_flag = format!("--board={board}");
    let glued = format!("-o{link}");
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["exact", "--board", board, "--start", "A", "-o", board], also.into()),
        (vec!["exact", "--board", board, "--start", "A", "--output", link], also.into()),
        (vec!["exact", &board_flag, "--start", "A", "-q", &glued], also.into()),
        (vec!["exact", "-qo", board, "--board", board], also.into()),
        (vec!["exact", "--board", "triangle5", "--checkpoint", &saved, "--output", &saved], also.into()),
        (
            vec![
                "chain",
                "tests/fixtures/chains/herman5.drn",
                "--target",
                "stable",
                "--distribution",
                "5",
                "--svg",
                &svg,
                "-o",
                &svg,
            ],
            also.into(),
        ),
        (
            vec!["chain", "tests/fixtures/chains/herman5.drn", "-o", "tests/fixtures/chains/herman5.drn"],
            also.into(),
        ),
        (vec!["exact", "-o", dir_name], "a directory, not a file name".into()),
        (vec!["exact", "-o", &missing], format!("--output {missing}: no directory")),
    ];
    for (args, message) in cases {
        support::fails_with(&args, &message);
    }
    assert!(std::fs::read(at("triangle5.json")).unwrap() == before, "the board file was changed");
    assert!(!std::path::Path::new(&svg).exists() && !std::path::Path::new(&saved).exists());
    // `--prism PREFIX` names the files beside PREFIX; an output named only as the run goes
    // (an audit's plot in its folder) is refused when the answer would replace it, the plot
    // left as the run wrote it.
    let prefix = at("chain");
    let tra = format!("{prefix}.tra");
    support::fails_with(&["export", "--race", "--prism", &prefix, "-o", &tra], also);
    assert!(!std::path::Path::new(&tra).exists());
    let plots = at("plots");
    std::fs::create_dir(&plots).unwrap();
    let running = format!("{plots}/running.svg");
    support::fails_with(
        &["audit", "--games", "1000", "-q", "--svg", &plots, "-o", &running],
        "the run wrote it as another of its outputs, which the answer would replace",
    );
    assert!(std::fs::read_to_string(&running).unwrap().trim_end().ends_with("</svg>"));
}

/// A simulated proportion beside its exact value is one object in every command that gives
/// one (`simulate`, `race --simulate`, `chain`/`game --simulate`), and so is a simulated mean:
/// chain and game gave theirs as flat keys (`reached`, `reach_estimate`, `steps_z`, ...).
#[test]
fn simulated_estimates_share_one_shape_across_commands() {
    let keys = |v: &Value| {
        let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    let proportion = ["ci95", "estimate", "exact", "games", "wins", "z"];
    let simulate = support::json(&["simulate", "--games", "20000", "-q"]);
    let overall: Vec<String> =
        keys(&simulate["overall"]).into_iter().filter(|k| proportion.contains(&k.as_str())).collect();
    assert_eq!(overall, proportion);
    let race = support::json(&["race", "--simulate", "10000", "-q"]);
    assert_eq!(keys(&race["simulation"]["swine_wins"]), proportion);
    let game = support::json(&["game", "chutes-and-ladders", "--simulate", "2000"]);
    assert_eq!(keys(&game["simulation"]["reach"]).len(), 5, "z is left out where the exact value is 1");
    assert_eq!(game["simulation"]["reach"]["games"], 2000);
    assert_eq!(game["simulation"]["reach"]["wins"], 2000);
    let craps = support::json(&["game", "craps", "--target", "win", "--simulate", "2000"]);
    assert_eq!(keys(&craps["simulation"]["reach"]), proportion);
    let mean = ["ci95", "estimate", "exact", "z"];
    assert_eq!(keys(&race["simulation"]["mean_turns"]), mean);
    assert_eq!(keys(&game["simulation"]["mean_steps"]), mean);
}
