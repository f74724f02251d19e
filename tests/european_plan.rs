//! `scripts/european.py`, the runner of the European board's start classes (hours each), on a
//! plan of small runs: each class's output equals `pegchain exact`'s, a run interrupted (by
//! Ctrl-C, or a SIGTERM to the script) is saved and goes on where it stopped when the script is
//! run again, a finished class is not
//! run again, a failed one leaves no output, and the table gives the correctly rounded figures.

mod support;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const PLAN: &str = "\
# classes of a test plan
all --board triangle6 --start all --no-symmetry --residues 1 -q
tip --board triangle5 --start A -q
bad --board triangle5 --start Z
";

/// The script on `plan` in `dir`, its own process group (a Ctrl-C reaches the group).
fn script(plan: &Path, dir: &Path, extra: &[&str]) -> Command {
    with_script(Command::new("python3"), plan, dir, extra)
}

/// The same, started as a shell starts a job in the background: with SIGINT ignored.
fn script_ignoring_sigint(plan: &Path, dir: &Path) -> Command {
    let mut shell = Command::new("sh");
    shell.args(["-c", "trap '' INT; exec \"$@\"", "sh", "python3"]);
    with_script(shell, plan, dir, &[])
}

fn with_script(mut command: Command, plan: &Path, dir: &Path, extra: &[&str]) -> Command {
    command
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/european.py"))
        .arg("--plan")
        .arg(plan)
        .args(extra)
        .arg(dir)
        .env("PEGCHAIN", env!("CARGO_BIN_EXE_pegchain"))
        .env("PEGCHAIN_MAX_MEMORY", "2")
        .stdin(Stdio::null())
        .process_group(0);
    command
}

fn sessions(dir: &Path, name: &str) -> Vec<String> {
    let runs = std::fs::read_to_string(dir.join(format!("{name}.runs"))).unwrap_or_default();
    // Each session: seconds, peak kilobytes, exit status; the status is what is compared.
    runs.lines().map(|l| l.split(' ').nth(2).unwrap().to_string()).collect()
}

fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Sends `signal` to the script's process group (`group`) or to the script alone, 0.7 s after
/// it started pegchain on the class `all` in `dir` (the mark `all.running` says so: on a loaded
/// machine the script itself may take that long to start); the script must say it stopped and
/// saved, and exit 130. Its stderr.
fn stopped_by(script: Child, dir: &Path, signal: &str, group: bool) -> String {
    wait_for(&dir.join("all.running"), "pegchain was not started");
    std::thread::sleep(Duration::from_millis(700));
    let target = if group { format!("-{}", script.id()) } else { script.id().to_string() };
    assert!(Command::new("kill").args([signal, "--", &target]).status().unwrap().success());
    let out = script.wait_with_output().unwrap();
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("all: stopped and saved"), "{err}");
    err
}

/// Waits until the class `all` has saved once.
fn wait_for_checkpoint(dir: &Path) {
    wait_for(&dir.join("all.ckpt"), "no checkpoint written");
}

/// Waits until `file` exists, for at most 30 s (else fails, saying `why`).
fn wait_for(file: &Path, why: &str) {
    let clock = Instant::now();
    while !file.exists() {
        assert!(clock.elapsed() < Duration::from_secs(30), "{why}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The class `all`, resumed, gave what one whole `exact` run gives, byte for byte.
fn assert_all_is_whole(dir: &Path) {
    let whole = support::stdout_bytes(&[
        "exact",
        "--board",
        "triangle6",
        "--start",
        "all",
        "--no-symmetry",
        "--json",
    ]);
    assert!(std::fs::read(dir.join("all.json")).unwrap() == whole, "the resumed run's output differs");
}

#[test]
fn the_european_runner_resumes_skips_what_is_done_and_tabulates_the_exact_figures() {
    let scratch = support::scratch("european-plan");
    let plan = scratch.join("plan");
    std::fs::write(&plan, PLAN).unwrap();
    let dir: PathBuf = scratch.join("runs");

    // Interrupted in its first class, once that class has saved: exit 130, nothing finished.
    let first = script(&plan, &dir, &[]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    wait_for_checkpoint(&dir);
    let err = stopped_by(first, &dir, "-INT", true);
    assert!(err.contains("all: stopped and saved; run the script again to go on"), "{err}");
    assert!(dir.join("all.ckpt").exists() && !dir.join("all.json").exists());
    assert!(!dir.join("all.json.partial").exists());
    assert_eq!(sessions(&dir, "all"), ["130"]);
    assert!(sessions(&dir, "tip").is_empty(), "the next class must wait");

    // A SIGTERM sent to the script alone reaches pegchain through it: saved and stopped too.
    let second = script(&plan, &dir, &[]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    stopped_by(second, &dir, "-TERM", false);
    assert_eq!(sessions(&dir, "all"), ["130", "143"]);

    // Started in the background by a shell, the script ignores SIGINT: pegchain's exit status
    // says it stopped on the signal and saved, so the script stops too, not going on to `tip`.
    let third =
        script_ignoring_sigint(&plan, &dir).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    stopped_by(third, &dir, "-INT", true);
    assert_eq!(sessions(&dir, "all"), ["130", "143", "130"]);
    assert!(sessions(&dir, "tip").is_empty(), "the next class must wait");

    // Run again: the interrupted class goes on from its save, the others run; the bad one
    // fails with pegchain's own line and leaves nothing.
    let out = script(&plan, &dir, &[]).output().unwrap();
    let (table, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("--resume"), "{err}");
    // Every class may spill a wide step's parents beside its saves (an unnamed file).
    assert!(
        err.contains(&format!(
            "tip: exact --board triangle5 --start A -q --max-memory 2 --json --checkpoint {} --spill {}",
            dir.join("tip.ckpt").display(),
            dir.display()
        )),
        "{err}"
    );
    assert!(err.contains("pegchain: board triangle5 has no hole \"Z\""), "{err}");
    assert_all_is_whole(&dir);
    let tip = support::stdout_bytes(&["exact", "--board", "triangle5", "--start", "A", "--json"]);
    assert!(std::fs::read(dir.join("tip.json")).unwrap() == tip);
    assert!(!dir.join("all.ckpt").exists() && !dir.join("tip.ckpt").exists());
    assert!(!dir.join("bad.json").exists() && !dir.join("bad.json.partial").exists());
    assert_eq!(sessions(&dir, "all"), ["130", "143", "130", "0"]);
    assert_eq!(
        (sessions(&dir, "tip"), sessions(&dir, "bad")),
        (vec!["0".to_string()], vec!["2".to_string()])
    );
    // The tip of the 15-hole board: 232443128903009/33875167334400000 = 0.00686176, 3.91620
    // pegs left, finishes in A G J M, 3,016 positions.
    assert!(table.contains("| tip | A K O | 0.00686176 | 3.91620 | A G J M | 3,016 | "), "{table}");
    assert!(table.contains("| bad | | not done: 1 session(s), last status 2 |"), "{table}");
    // Each finished class's distribution: the tip's P(n pegs left) from 1 to 8 (the second
    // 2959027906442921/50812751001600000) and its last peg's holes.
    assert!(
        table.contains(
            "tip (from A):\n\n| pegs left | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n\
             | P | 0.00686176 | 0.0582340 | 0.254511 | 0.471162 | 0.141910 | 0.0364428 | 0.0305485 | 0.000330688 |"
        ),
        "{table}"
    );
    assert!(table.contains("| P | 0.000254498 | 0.000127249 | 0.000127249 | 0.00635276 |"), "{table}");

    // Again: what is finished is not run again; the table alone runs nothing.
    let again = script(&plan, &dir, &[]).output().unwrap();
    assert_eq!(again.status.code(), Some(1));
    assert_eq!(
        (sessions(&dir, "all").len(), sessions(&dir, "tip").len(), sessions(&dir, "bad").len()),
        (4, 1, 2)
    );
    let only = script(&plan, &dir, &["--table"]).output().unwrap();
    assert_eq!(only.status.code(), Some(0));
    assert_eq!(sessions(&dir, "bad").len(), 2);
    let (only_table, _) = text(&only);
    assert!(only_table.contains("| tip | A K O | 0.00686176 | 3.91620 |"), "{only_table}");
}

/// A pegchain that cannot be started is one line, and leaves neither output nor a mark.
#[test]
fn the_european_runner_refuses_a_missing_binary_in_one_line() {
    let scratch = support::scratch("european-plan-no-binary");
    let plan = scratch.join("plan");
    std::fs::write(&plan, "tip --board triangle5 --start A -q\n").unwrap();
    let dir = scratch.join("runs");
    let out = script(&plan, &dir, &[]).env("PEGCHAIN", scratch.join("no-such-pegchain")).output().unwrap();
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err.lines().last().unwrap(),
        format!(
            "european.py: [Errno 2] No such file or directory: '{}'",
            scratch.join("no-such-pegchain").display()
        )
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn the_european_runner_refuses_a_missing_plan_in_one_line() {
    let dir = support::scratch("european-plan-missing");
    let out = script(&dir.join("no-such-plan"), &dir, &[]).output().unwrap();
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("european.py: ") && err.contains("no-such-plan"), "{err}");
}

/// Killed outright (SIGKILL to the script and pegchain: what a machine going away does), a
/// session cannot record itself; the mark it left makes the script's next run record it, as
/// its time up to its last save with status `killed`, before it goes on from that save.
#[test]
fn a_session_killed_outright_is_recorded_when_the_script_next_runs() {
    let scratch = support::scratch("european-plan-killed");
    let plan = scratch.join("plan");
    std::fs::write(&plan, "all --board triangle6 --start all --no-symmetry --residues 1 -q\n").unwrap();
    let dir: PathBuf = scratch.join("runs");

    let first = script(&plan, &dir, &[]).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    wait_for_checkpoint(&dir);
    std::thread::sleep(Duration::from_millis(300));
    let group = format!("-{}", first.id());
    assert!(Command::new("kill").args(["-KILL", "--", &group]).status().unwrap().success());
    first.wait_with_output().unwrap();
    assert!(dir.join("all.running").exists(), "the session left no mark");
    assert!(sessions(&dir, "all").is_empty());

    let out = script(&plan, &dir, &[]).output().unwrap();
    let (table, err) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("--resume"), "{err}");
    assert_eq!(sessions(&dir, "all"), ["killed", "0"]);
    let runs = std::fs::read_to_string(dir.join("all.runs")).unwrap();
    let killed: Vec<&str> = runs.lines().next().unwrap().split(' ').collect();
    let seconds: f64 = killed[0].parse().unwrap();
    assert!((0.0..30.0).contains(&seconds) && killed[1] == "-", "{runs}");
    assert!(!dir.join("all.running").exists());
    assert_all_is_whole(&dir);
    assert!(table.contains("| all | "), "{table}");
}

/// A run by residues keeps the state its latest pass began from beside its save
/// (CLASS.ckpt.pass, a few kilobytes): with the save itself gone (the machine replaced, the
/// small file carried over), the script goes on from that pass and gives the whole output.
#[test]
fn a_class_goes_on_from_the_start_of_its_latest_pass_carried_alone() {
    let scratch = support::scratch("european-plan-pass");
    let plan = scratch.join("plan");
    std::fs::write(&plan, "all --board triangle6 --start all --no-symmetry --residues 1 -q\n").unwrap();
    let dir: PathBuf = scratch.join("runs");

    let first = script(&plan, &dir, &[]).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    wait_for(&dir.join("all.ckpt.pass"), "no second pass began");
    let group = format!("-{}", first.id());
    assert!(Command::new("kill").args(["-INT", "--", &group]).status().unwrap().success());
    // Its words say why, should it ever stop otherwise (a Ctrl-C that lost pegchain's status
    // once made it exit 1: see `run_class` in the script).
    let stopped = first.wait_with_output().unwrap();
    assert_eq!(stopped.status.code(), Some(130), "{}", String::from_utf8_lossy(&stopped.stderr));
    let carried = std::fs::metadata(dir.join("all.ckpt.pass")).unwrap().len();
    assert!(carried < 64 * 1024, "{carried} bytes");
    std::fs::remove_file(dir.join("all.ckpt")).unwrap();

    let out = script(&plan, &dir, &[]).output().unwrap();
    let (_, err) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains(&format!("--resume {}", dir.join("all.ckpt.pass").display())), "{err}");
    assert_all_is_whole(&dir);
    assert!(!dir.join("all.ckpt").exists() && !dir.join("all.ckpt.pass").exists());
}
