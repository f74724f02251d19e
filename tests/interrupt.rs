//! Interruption: SIGINT, SIGTERM and SIGHUP stop every long run within a second, say on one
//! line what had been done, exit 130, 143 or 129, and leave stdout empty or complete (an interrupted
//! `solve --json` still ends its document); SIGKILL never leaves a partial output file under
//! its final name. Each run is the real binary, signalled through `kill`.

mod support;

use serde::de::IgnoredAny;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long a run may take to stop after the signal (the tool aims for one second).
const STOP_WITHIN: Duration = Duration::from_secs(2);

/// A run of the binary with stdout and stderr in files (a pipe left unread could block it).
struct Run {
    child: Child,
    dir: PathBuf,
}

impl Run {
    fn start(name: &str, args: &[&str]) -> Run {
        // As from a terminal, whatever started the tests: under `nohup` SIGHUP is ignored, and
        // the run keeps it so (see `under_nohup_sighup_is_still_ignored`).
        Run::start_with_sighup(name, args, libc::SIG_DFL)
    }

    /// [`Run::start`] with SIGHUP's disposition `sighup` (`SIG_DFL`, or `SIG_IGN` as `nohup` sets it).
    fn start_with_sighup(name: &str, args: &[&str], sighup: libc::sighandler_t) -> Run {
        use std::os::unix::process::CommandExt;
        let dir = support::scratch(&format!("interrupt-{name}"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_pegchain"));
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(File::create(dir.join("stdout")).unwrap())
            .stderr(File::create(dir.join("stderr")).unwrap());
        // SAFETY: only signal(2), async-signal-safe, runs between fork and exec.
        unsafe {
            command.pre_exec(move || {
                libc::signal(libc::SIGHUP, sighup);
                Ok(())
            });
        }
        Run { child: command.spawn().unwrap(), dir }
    }

    /// The address a `serve` run says it serves on ("pegchain: serving the coach on
    /// http://127.0.0.1:PORT/ (Ctrl-C stops it)"), as HOST:PORT, once said.
    fn served_address(&self) -> String {
        let started = Instant::now();
        loop {
            let said = std::fs::read_to_string(self.dir.join("stdout")).unwrap();
            if let Some(url) = said.split_whitespace().find(|w| w.starts_with("http://")) {
                return url.trim_start_matches("http://").trim_end_matches('/').to_string();
            }
            assert!(started.elapsed() < Duration::from_secs(10), "no address: {said}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends `signal` ("INT", "TERM", "KILL") once `after` has passed, and waits for the end
    /// (killing the run if it outlives `STOP_WITHIN`, so that a failing test cannot hang).
    fn signal_after(self, after: Duration, signal: &str) -> Ended {
        self.signals_after(after, signal, 1)
    }

    /// The same, sending `signal` `times` times, a few milliseconds apart, each by a `kill` of
    /// its own (as a user does).
    fn signals_after(self, after: Duration, signal: &str, times: usize) -> Ended {
        self.sent_after(after, signal, |pid| {
            for time in 0..times {
                if time > 0 {
                    std::thread::sleep(Duration::from_millis(3));
                }
                let kill = Command::new("kill").arg(format!("-{signal}")).arg(pid.to_string()).status();
                assert!(kill.unwrap().success());
            }
        })
    }

    /// `signal` sent twice by one process, `gap` apart, as GNU `timeout` sends its SIGTERM (to
    /// the run, then to its process group): one shell's built-in `kill`, twice.
    fn signal_repeated_by_one_process(self, after: Duration, signal: &str, gap: Duration) -> Ended {
        self.sent_after(after, signal, |pid| {
            let twice = format!("kill -{signal} {pid}; sleep {}; kill -{signal} {pid}", gap.as_secs_f64());
            // The second kill finds no process where the run stopped before it: no matter.
            Command::new("sh").arg("-c").arg(twice).stderr(Stdio::null()).status().unwrap();
        })
    }

    /// Runs `send` (given the run's process id) once `after` has passed, and waits for the end
    /// (killing the run if it outlives `STOP_WITHIN`, so that a failing test cannot hang).
    fn sent_after(mut self, after: Duration, signal: &str, send: impl FnOnce(u32)) -> Ended {
        std::thread::sleep(after);
        assert!(self.child.try_wait().unwrap().is_none(), "the run ended before the signal: make it longer");
        let sent = Instant::now();
        send(self.child.id());
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if sent.elapsed() > STOP_WITHIN + Duration::from_secs(3) {
                let _ = self.child.kill();
                panic!("still running {:?} after SIG{signal}", sent.elapsed());
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        Ended { status, took: sent.elapsed(), dir: self.dir }
    }
}

struct Ended {
    status: ExitStatus,
    took: Duration,
    dir: PathBuf,
}

impl Ended {
    fn stdout(&self) -> Vec<u8> {
        std::fs::read(self.dir.join("stdout")).unwrap()
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.join("stderr")).unwrap()
    }

    /// Stopped in time with `code` and one line on stderr saying what was done; returns it.
    fn interrupted(&self, code: i32) -> String {
        self.interrupted_saying(code, self.stderr())
    }

    /// [`Ended::interrupted`], with the line a long simulation says before it starts set
    /// aside: how long it will take, said only where the run is projected past an hour, which
    /// the machine's speed decides (the race's billion games take under an hour on a quiet
    /// machine, 14.5 hours on one busy with other work). Where said, it comes first.
    fn interrupted_after_any_estimate(&self, code: i32) -> String {
        let err = self.stderr();
        let estimate =
            |line: &str| line.contains(" games: about ") && line.contains("(from a calibration of ");
        assert!(err.lines().skip(1).all(|line| !estimate(line)), "the estimate first: {err}");
        let rest: String =
            err.lines().filter(|line| !estimate(line)).map(|line| format!("{line}\n")).collect();
        self.interrupted_saying(code, rest)
    }

    /// The checks of [`Ended::interrupted`] on `err`, the run's stderr or the part of it checked.
    fn interrupted_saying(&self, code: i32, err: String) -> String {
        assert_eq!(self.status.code(), Some(code), "{err}");
        assert!(self.took < STOP_WITHIN, "took {:?} to stop", self.took);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("pegchain: interrupted: "), "{err}");
        err
    }
}

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn sigint_stops_a_simulation_with_the_games_played_and_nothing_on_stdout() {
    let ended =
        Run::start("simulate", &["simulate", "--games", "1000000000", "-q"]).signal_after(SECOND, "INT");
    let err = ended.interrupted(130);
    assert!(err.contains(" of 1,000,000,000 games played"), "{err}");
    assert!(ended.stdout().is_empty());
}

#[test]
fn sigterm_stops_a_simulation_with_exit_code_143() {
    let ended = Run::start("simulate-term", &["simulate", "--games", "1000000000", "-q"])
        .signal_after(SECOND, "TERM");
    ended.interrupted(143);
    assert!(ended.stdout().is_empty());
}

#[test]
fn sigint_stops_the_race_simulation() {
    let ended = Run::start("race", &["race", "--simulate", "1000000000"]).signal_after(SECOND, "INT");
    let err = ended.interrupted_after_any_estimate(130);
    assert!(err.contains(" of 1,000,000,000 games played"), "{err}");
    assert!(ended.stdout().is_empty());
}

/// The race's exact answer for a board of 200 squares takes seconds, and a sweep of lengths
/// minutes: both ran to the end and printed it after a first signal. A game of a die that
/// almost never moves anyone takes billions of rolls: the stop was looked for only between
/// batches of games, a couple of minutes on.
#[test]
fn sigint_stops_the_races_exact_answer_its_sweep_and_a_game_of_billions_of_rolls() {
    let dir = support::scratch("race-idle-die");
    let rules = dir.join("idle.json");
    let idle = r#"{"die": {"sides": 2, "faces": [{"face": 1, "swine": 0, "butcher": 0, "probability": "4294967294/4294967295"}, {"face": 2, "swine": 1, "butcher": 0, "probability": "1/4294967295"}]}}"#;
    std::fs::write(&rules, idle).unwrap();
    let rules = rules.to_str().unwrap();
    for (name, args, said) in [
        ("race-exact", &["race", "--length", "200"][..], "layers finished"),
        ("race-sweep", &["race", "--lengths", "195..200"][..], "layers finished"),
        ("race-idle", &["race", "--rules", rules, "--simulate", "1", "-q"][..], "0 of 1 game played"),
    ] {
        let ended = Run::start(name, args).signal_after(SECOND, "INT");
        let err = ended.interrupted(130);
        assert!(err.contains(said), "{name}: {err}");
        assert!(ended.stdout().is_empty(), "{name}");
    }
}

#[test]
fn sigint_stops_the_exact_engine_with_the_layers_finished() {
    let args = ["exact", "--board", "triangle8", "--start", "A", "-q"];
    let ended = Run::start("exact", &args).signal_after(SECOND, "INT");
    let err = ended.interrupted(130);
    assert!(
        err.contains("start A: ") && err.contains(" of 35 layers finished, stopped in the layer with "),
        "{err}"
    );
    assert!(ended.stdout().is_empty());
}

/// A run stopped before its answer is made leaves no `--output` file and no temporary; a
/// search stopped part way puts its file in place, its document closed and saying so, as it
/// would on stdout.
#[test]
fn an_interrupted_run_leaves_no_answer_file_but_a_search_ends_its_own() {
    // The folder `Run::start` makes for a run of that name (made afresh for it).
    let folder =
        |name: &str| Path::new(env!("CARGO_TARGET_TMPDIR")).join("scratch").join(format!("interrupt-{name}"));
    let files_in = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let answer = folder("answer-file").join("answer.txt");
    let args = ["exact", "--board", "triangle8", "--start", "A", "-q", "-o", answer.to_str().unwrap()];
    let ended = Run::start("answer-file", &args).signal_after(SECOND, "INT");
    ended.interrupted(130);
    assert!(ended.stdout().is_empty());
    assert_eq!(files_in(&ended.dir), ["stderr", "stdout"]);

    let solutions = folder("solutions-file").join("solutions.json");
    let args = [
        "solve",
        "--board",
        "english",
        "--start",
        "d4",
        "--all",
        "--json",
        "-o",
        solutions.to_str().unwrap(),
    ];
    let ended = Run::start("solutions-file", &args).signal_after(SECOND, "INT");
    ended.interrupted(130);
    assert!(ended.stdout().is_empty());
    let document: serde_json::Value = serde_json::from_slice(&std::fs::read(&solutions).unwrap()).unwrap();
    assert_eq!((&document["complete"], &document["interrupted"]), (&false.into(), &true.into()));
    assert_eq!(files_in(&ended.dir), ["solutions.json", "stderr", "stdout"]);
}

#[test]
fn sigint_during_every_start_says_how_many_starts_were_finished() {
    let args = ["exact", "--board", "triangle7", "--start", "all", "-q", "--stabilizer"];
    let ended = Run::start("exact-all", &args).signal_after(SECOND, "INT");
    let err = ended.interrupted(130);
    assert!(err.contains(" of 7 start evaluations finished; start "), "{err}");
    assert!(ended.stdout().is_empty());
    // The whole group, chosen as the faster here, is stopped in its first pass.
    let ended = Run::start("exact-all-whole", &args[..6]).signal_after(SECOND, "INT");
    let err = ended.interrupted(130);
    assert!(
        err.contains("whole-group forward pass over the classes: ")
            && (err.contains(" layers finished, stopped at ")
                || err.contains(": 1 layer finished, stopped at ")),
        "{err}"
    );
    assert!(ended.stdout().is_empty());
}

/// A run stopped before its first save says that nothing was saved, where a later `--resume`
/// would only find no such file: the whole group's passes on triangle7 save nothing until
/// they end (about 45 s).
#[test]
fn a_run_stopped_before_its_first_save_says_so() {
    let dir = support::scratch("interrupt-before-a-save");
    let saved = dir.join("run.checkpoint");
    let path = saved.to_str().unwrap();
    let args =
        ["exact", "--board", "triangle7", "--start", "all", "--whole-group", "-q", "--checkpoint", path];
    let ended = Run::start("before-a-save", &args).signal_after(SECOND, "INT");
    let err = ended.interrupted(130);
    assert!(
        err.starts_with("pegchain: interrupted: whole-group forward pass over the classes: ")
            && err.ends_with(" pegs; no checkpoint was saved yet\n"),
        "{err}"
    );
    assert!(!saved.exists());
}

#[test]
fn sigterm_stops_the_exact_engine_with_exit_code_143() {
    let args = ["exact", "--board", "triangle8", "--start", "A", "-q"];
    let ended = Run::start("exact-term", &args).signal_after(SECOND, "TERM");
    ended.interrupted(143);
    assert!(ended.stdout().is_empty());
}

/// SIGHUP (a terminal closed, an SSH session dropped) ended a run with no word and left its
/// hidden temporary behind (an export's 216 MB, a checkpoint's 30 MB). It now stops a run as
/// SIGTERM does, with exit code 129, and an export stopped by it leaves no file.
#[test]
fn sighup_stops_a_run_with_exit_code_129_and_leaves_no_file() {
    let args = ["exact", "--board", "triangle8", "--start", "A", "-q"];
    let ended = Run::start("exact-hup", &args).signal_after(SECOND, "HUP");
    ended.interrupted(129);
    assert!(ended.stdout().is_empty());
    let out = support::scratch("interrupt-export-hup-files");
    let drn = out.join("h.drn");
    let args = ["export", "--game", "herman", "--processes", "15", "--drn", drn.to_str().unwrap()];
    for after in [SECOND, 3 * SECOND] {
        let ended = Run::start("export-hup", &args).signal_after(after, "HUP");
        ended.interrupted(129);
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "after {after:?}: {left:?}");
    }
}

/// Under `nohup`, which starts a program with SIGHUP ignored, the run goes on once its
/// terminal is gone: the handler is not installed over an ignored SIGHUP.
#[test]
fn under_nohup_sighup_is_still_ignored() {
    let args = ["exact", "--board", "triangle8", "--start", "A", "-q"];
    let run = Run::start_with_sighup("nohup", &args, libc::SIG_IGN);
    let pid = run.child.id().to_string();
    std::thread::sleep(SECOND);
    assert!(Command::new("kill").args(["-HUP", &pid]).status().unwrap().success());
    std::thread::sleep(STOP_WITHIN);
    let ended = run.signal_after(Duration::ZERO, "TERM");
    ended.interrupted(143);
}

/// A second signal ends the run at once, in one line, with the first signal's code. It
/// used to end it with no word when it came before the run had stopped (each run below
/// stops a large layer of the English board, which takes longer than the gap between the
/// signals, unless the layer has just ended).
#[test]
fn a_second_signal_ends_the_run_at_once_saying_so() {
    let args = ["exact", "--board", "english", "--start", "d4", "-q"];
    for (run, signal, code) in [(0, "INT", 130), (1, "INT", 130), (2, "TERM", 143)] {
        let ended = Run::start(&format!("twice-{run}"), &args).signals_after(SECOND, signal, 2);
        let err = ended.stderr();
        assert_eq!(ended.status.code(), Some(code), "{err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(
            err == "pegchain: stopped at once by a second signal (a run saved with --checkpoint goes on from its last save with --resume)\n"
                || err.starts_with("pegchain: interrupted: start d4: "),
            "{err}"
        );
        assert!(ended.stdout().is_empty());
    }
}

/// The same signal sent again by the same process within a tenth of a second is the first
/// one repeated, not a second: GNU `timeout` sends its SIGTERM to the run and then to its
/// process group, and a third of the runs it stopped ended "at once by a second signal",
/// with no word of what they had done and their temporaries left. Sent 3 ms apart here, after
/// the first has been handled and before the English centre's layer has stopped (the
/// binary before ended at once 4 times in 4; 20 ms apart, the run had stopped).
#[test]
fn the_same_signal_repeated_by_one_process_is_one_request() {
    let args = ["exact", "--board", "english", "--start", "d4", "-q"];
    for (run, signal, code) in [(0, "TERM", 143), (1, "INT", 130)] {
        let ended = Run::start(&format!("repeated-{run}"), &args).signal_repeated_by_one_process(
            SECOND,
            signal,
            Duration::from_millis(3),
        );
        let err = ended.interrupted(code);
        assert!(err.starts_with("pegchain: interrupted: start d4: "), "{err}");
    }
}

/// The search streams its solutions: on a signal it closes the JSON document, whose footer
/// says the search is incomplete and was interrupted.
#[test]
fn an_interrupted_json_search_leaves_one_valid_document() {
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let args = ["solve", "--board", "english", "--start", "d4", "--all", "--json"];
        let ended = Run::start(&format!("solve-{signal}"), &args).signal_after(SECOND, signal);
        let err = ended.interrupted(code);
        assert!(err.ends_with(" solutions found\n"), "{err}");
        let out = ended.stdout();
        // Valid JSON, read without building the (large) document.
        serde_json::from_slice::<IgnoredAny>(&out).expect("one valid JSON document");
        let tail = String::from_utf8_lossy(&out[out.len().saturating_sub(300)..]).into_owned();
        assert!(tail.contains("\"complete\": false") && tail.contains("\"interrupted\": true"), "{tail}");
    }
}

#[test]
fn an_interrupted_text_search_ends_with_a_line_saying_so() {
    let args = ["solve", "--board", "english", "--start", "d4", "--all"];
    let ended = Run::start("solve-text", &args).signal_after(SECOND, "INT");
    ended.interrupted(130);
    let out = String::from_utf8(ended.stdout()).unwrap();
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("Interrupted after ") && last.ends_with(": the search was not finished."),
        "{last}"
    );
}

/// The `.svg` files directly in `dir` (temporaries are hidden: they start with a dot).
fn final_svgs(dir: &Path) -> Vec<PathBuf> {
    let names = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path());
    names.filter(|p| p.extension().is_some_and(|e| e == "svg")).collect()
}

#[test]
fn sigint_during_an_audit_writes_no_file() {
    let dir = support::scratch("interrupt-audit-svg");
    let svg = dir.to_str().unwrap();
    let ended = Run::start("audit", &["audit", "--games", "1000000000", "-q", "--svg", svg])
        .signal_after(SECOND, "INT");
    ended.interrupted(130);
    assert!(ended.stdout().is_empty());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The race's grid of 200 squares takes about 0.4 s and hears no signal: its answer made, its
/// heat map is not written after all (it used to be, beside "the answer was made but not
/// written").
#[test]
fn sigint_during_the_races_grid_writes_no_heat_map() {
    let dir = support::scratch("interrupt-race-grid-svg");
    let svg = dir.join("grid.svg");
    let args = ["race", "--grid", "--length", "200", "--svg", svg.to_str().unwrap()];
    let ended = Run::start("race-grid", &args).signal_after(Duration::from_millis(100), "INT");
    let err = ended.interrupted(130);
    assert!(err.contains("the answer was made but not written"), "{err}");
    assert!(ended.stdout().is_empty());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A FIFO is written into as the shell's `>` would, waiting for its reader; a signal ends the
/// wait (a first Ctrl-C used to do nothing there, the run blocked in the system), whether no
/// reader came or the one that came stopped reading (a heat map of 188 kB, more than a pipe
/// holds).
#[test]
fn sigint_ends_a_wait_for_a_fifos_reader() {
    for (name, length, reader) in [("none", "8", false), ("stalled", "200", true)] {
        let dir = support::scratch(&format!("interrupt-fifo-target-{name}"));
        let fifo = dir.join("grid.svg");
        assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        // Opened for reading, never read; it holds the FIFO open until the test ends.
        let _stalled = reader.then(|| {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(&fifo).unwrap()
        });
        let args = ["race", "--grid", "--length", length, "--svg", fifo.to_str().unwrap()];
        let ended =
            Run::start(&format!("fifo-{name}"), &args).signal_after(Duration::from_millis(600), "INT");
        let err = ended.interrupted(130);
        assert!(err.contains("the answer was made but not written"), "{name}: {err}");
        assert!(ended.stdout().is_empty(), "{name}");
    }
}

/// The same for standard output: a reader that stops reading (a pager left waiting, a pipe's
/// reader stopped) no longer holds a run past its first signal, whether a whole answer (212
/// kB) or a stream of solutions was being written.
#[test]
fn sigint_ends_a_wait_for_stdouts_reader() {
    let solve = ["solve", "--board", "triangle5", "--start", "A", "--all"];
    for (name, args) in [("race", &["race", "--grid", "--length", "200"][..]), ("solve", &solve)] {
        let dir = support::scratch(&format!("interrupt-stdout-unread-{name}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_pegchain"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(File::create(dir.join("stderr")).unwrap())
            .spawn()
            .unwrap();
        // Held, never read, until the run has ended.
        let _unread = child.stdout.take();
        let ended = Run { child, dir }.signal_after(Duration::from_millis(600), "INT");
        let err = ended.interrupted(130);
        assert!(err.contains("the answer was made but not written"), "{name}: {err}");
    }
}

/// SIGKILL cannot be caught: whenever it lands, the plots under their final names are
/// whole or absent (a hidden temporary may stay behind).
#[test]
fn sigkill_never_leaves_a_partial_plot() {
    let dir = support::scratch("interrupt-plots-kill");
    let svg = dir.to_str().unwrap();
    // A 4,000,000-game audit takes about half a second: the kills land before, during and
    // after the writing of the plots.
    for ms in [100, 250, 350, 400, 450, 500, 600] {
        let mut run = Run::start("audit-kill", &["audit", "--games", "4000000", "-q", "--svg", svg]);
        std::thread::sleep(Duration::from_millis(ms));
        let _ = run.child.kill();
        run.child.wait().unwrap();
        for path in final_svgs(&dir) {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.trim_end().ends_with("</svg>"), "{} is partial after {ms} ms", path.display());
        }
    }
}

/// `--checkpoint` saves the tallies after every wave; `--resume` goes on from them and
/// prints exactly what the uninterrupted run prints.
#[test]
fn a_simulation_interrupted_and_resumed_prints_what_an_uninterrupted_one_does() {
    let run = ["simulate", "--games", "60000000", "--seed", "3", "-q", "--json"];
    let whole = support::stdout_bytes(&run);
    let dir = support::scratch("interrupt-checkpoint");
    let file = dir.join("games.checkpoint");
    let file = file.to_str().unwrap();
    let started = Run::start("checkpoint", &[&run[..], &["--checkpoint", file]].concat());
    // Interrupted once the first wave is saved (a wave is 16.8 million games).
    let clock = Instant::now();
    while !Path::new(file).exists() {
        assert!(clock.elapsed() < Duration::from_secs(30), "no checkpoint written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let ended = started.signal_after(Duration::from_millis(100), "INT");
    ended.interrupted(130);
    assert!(ended.stdout().is_empty());
    let resumed = support::stdout_bytes(&[&run[..], &["--resume", file, "--threads", "1"]].concat());
    assert!(resumed == whole, "the resumed run's output differs");
    // The throughput line counts the games this run played, not those it resumed.
    let loud: Vec<&str> = run.iter().copied().filter(|a| *a != "-q").collect();
    let out = support::pegchain().args([&loud[..], &["--resume", file]].concat()).output().unwrap();
    let said = String::from_utf8(out.stderr).unwrap();
    let (played, rest) = said.split_once(" games in ").unwrap();
    let (_, rest) = rest.split_once(" s, after ").unwrap();
    let (resumed, rate) = rest.split_once(" resumed from the checkpoint: ").unwrap();
    let number = |n: &str| n.replace(',', "").parse::<u64>().unwrap();
    let (played, resumed) = (number(played), number(resumed));
    assert!(resumed > 0 && played + resumed == 60_000_000, "{said}");
    assert!(rate.contains(" million games per second on ") && said.lines().count() == 1, "{said}");
    // Another seed, board or game count is refused with one line naming the difference.
    let other = |flag: &str, value: &str, what: &str| {
        let mut args = run.to_vec();
        match args.iter().position(|a| *a == flag) {
            Some(i) => args[i + 1] = value,
            None => args.extend([flag, value]),
        }
        args.extend(["--resume", file]);
        support::fails_with(&args, &format!("belongs to another run: its {what}"));
    };
    other("--seed", "4", "seed is 3, this run's is 4");
    other("--games", "70000000", "number of games is 60000000, this run's is 70000000");
    other("--start", "A", "start plan is a random hole a game, this run's is the games from each of A");
    other("--board", "triangle6", "board is triangle5, this run's is triangle6");
    other("--policy", "peg-first", "policy is uniform");
    support::fails_with(
        &[&run[..], &["--no-exact", "--resume", file]].concat(),
        &format!(
            "pegchain: the checkpoint {file} belongs to another run: its comparison with exact values is made, \
             this run's is not made\n"
        ),
    );
    // The checksum covers the header: a seed edited in it is damage, not a save of that seed.
    let text = std::fs::read_to_string(file).unwrap();
    let edited = dir.join("edited.checkpoint");
    std::fs::write(&edited, text.replacen(r#"["seed","3"]"#, r#"["seed","4"]"#, 1)).unwrap();
    let edited = edited.to_str().unwrap();
    let mut args = run.to_vec();
    args[4] = "4";
    support::fails_with(
        &[&args[..], &["--resume", edited]].concat(),
        &format!("pegchain: the checkpoint {edited} is damaged: it does not match its checksum\n"),
    );
    // A save of the whole run leaves none to play.
    let finished = dir.join("finished.checkpoint");
    let finished = finished.to_str().unwrap();
    let small = ["simulate", "--games", "1000", "--checkpoint", finished];
    support::stdout_bytes(&small);
    let out = support::pegchain().args([&small[..3], &["--resume", finished]].concat()).output().unwrap();
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "1,000 games resumed from the checkpoint, none left to play\n"
    );
    // A checkpoint that could not be written is refused before the games.
    let missing = dir.join("missing").join("games.checkpoint");
    support::fails_with(&["simulate", "--checkpoint", missing.to_str().unwrap()], "no directory");
    // A file name with a line break is quoted in one line, the break escaped.
    let broken = dir.join("mis\nsing").join("games.checkpoint");
    support::fails_with(&["simulate", "--checkpoint", broken.to_str().unwrap()], "mis\\nsing");
}

/// Waits until `file` exists (a run has saved its first checkpoint).
fn wait_for(file: &str) {
    let clock = Instant::now();
    while !Path::new(file).exists() {
        assert!(clock.elapsed() < Duration::from_secs(30), "no checkpoint written");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A run by residues saves after every finished layer of every pass (the pass under way and
/// the residues of the passes before it); interrupted twice and resumed, it prints what the
/// big-number run prints; a save of a run with another number of primes a pass is refused.
#[test]
fn a_run_by_residues_interrupted_and_resumed_prints_what_the_big_numbers_print() {
    // 21 starts without symmetry, several passes of two primes each: about four seconds.
    let run = ["exact", "--board", "triangle6", "--start", "all", "--no-symmetry", "-q", "--json"];
    let whole = support::stdout_bytes(&run);
    let by_residues = [&run[..], &["--residues", "2"]].concat();
    let dir = support::scratch("interrupt-residues-checkpoint");
    let file = dir.join("residues.checkpoint");
    let file = file.to_str().unwrap();
    let first = Run::start("residues-checkpoint", &[&by_residues[..], &["--checkpoint", file]].concat());
    wait_for(file);
    let said = first.signal_after(Duration::from_millis(700), "INT").interrupted(130);
    // Which pass it stopped in: "start I, pass 2 of 5: 11 of 20 layers finished, ...".
    assert!(said.contains(", pass "), "{said}");
    let again = Run::start(
        "residues-checkpoint-2",
        &[&by_residues[..], &["--resume", file, "--checkpoint", file]].concat(),
    );
    again.signal_after(Duration::from_millis(700), "INT").interrupted(130);
    let resumed = support::stdout_bytes(&[&by_residues[..], &["--resume", file]].concat());
    assert!(resumed == whole, "the resumed run's output differs");
    support::fails_with(
        &[&run[..], &["--residues", "3", "--resume", file]].concat(),
        &format!(
            "pegchain: the checkpoint {file} belongs to another run: it was saved by a run with --residues 2, \
             this one with --residues 3\n"
        ),
    );
    support::fails_with(
        &[&run[..], &["--resume", file]].concat(),
        &format!(
            "pegchain: the checkpoint {file} belongs to another run: it was saved by a run with --residues 2, \
             this one without --residues\n"
        ),
    );
}

/// `exact --checkpoint` saves the evaluation after every finished layer (the starts done and
/// the engine's state in the one under way); `--resume` goes on from it and prints exactly
/// what the uninterrupted run prints, even when interrupted again and resumed again.
#[test]
fn an_exact_evaluation_interrupted_and_resumed_prints_what_an_uninterrupted_one_does() {
    // 21 starts without symmetry: about two seconds, so the signals land mid-run.
    let run = ["exact", "--board", "triangle6", "--start", "all", "--no-symmetry", "-q", "--json"];
    let whole = support::stdout_bytes(&run);
    let dir = support::scratch("interrupt-exact-checkpoint");
    let file = dir.join("exact.checkpoint");
    let file = file.to_str().unwrap();
    let first = Run::start("exact-checkpoint", &[&run[..], &["--checkpoint", file]].concat());
    wait_for(file);
    let ended = first.signal_after(Duration::from_millis(300), "INT");
    let said = ended.interrupted(130);
    assert!(said.contains("of 21 start evaluations finished"), "{said}");
    assert!(ended.stdout().is_empty());
    // Resumed and saved to the same file, interrupted again, resumed to the end.
    let again =
        Run::start("exact-checkpoint-2", &[&run[..], &["--resume", file, "--checkpoint", file]].concat());
    again.signal_after(Duration::from_millis(300), "INT").interrupted(130);
    let resumed = support::stdout_bytes(&[&run[..], &["--resume", file]].concat());
    assert!(resumed == whole, "the resumed run's output differs");

    // Another policy, command or board is refused with one line naming the difference.
    fn with<'a>(args: &[&'a str], file: &'a str) -> Vec<&'a str> {
        [args, &["--resume", file]].concat()
    }
    support::fails_with(
        &with(&[&run[..], &["--policy", "peg-first"]].concat(), file),
        "its policy is uniform",
    );
    support::fails_with(
        &with(&["exact", "--board", "triangle6", "--start", "all"], file),
        "belongs to another run: its symmetry is none, this run's is each start's stabilizer",
    );
    support::fails_with(
        &with(&["exact", "--board", "triangle6", "--start", "A,B", "--no-symmetry"], file),
        "belongs to another run: its start is all, this run's is A,B",
    );
    support::fails_with(
        &with(&["count", "--board", "triangle6"], file),
        "is not a pegchain count checkpoint",
    );
    // A damaged save is refused, never half read: cut short, a bit flipped, a digit edited
    // (each was resumed into a wrong answer before saves recorded a checksum of their state).
    let bytes = std::fs::read(file).unwrap();
    let mut flipped = bytes.clone();
    *flipped.iter_mut().rev().nth(20).unwrap() ^= 1;
    let digit = bytes.iter().rposition(|b| (b'0'..=b'8').contains(b)).unwrap();
    let mut edited = bytes.clone();
    edited[digit] += 1;
    // The header is covered too: a policy edited in it is damage, not a save of that policy.
    let header = bytes.iter().position(|&b| b == b'\n').unwrap();
    let header = String::from_utf8(bytes[..header].to_vec()).unwrap();
    let policy = [
        header.replace(r#"["policy","uniform"]"#, r#"["policy","peg-first"]"#).as_bytes(),
        &bytes[header.len()..],
    ]
    .concat();
    let damages = [
        ("cut", bytes[..bytes.len() - 9].to_vec(), "uniform"),
        ("flipped", flipped, "uniform"),
        ("edited", edited, "uniform"),
        ("policy", policy, "peg-first"),
    ];
    for (name, damaged, policy) in damages {
        let path = dir.join(format!("{name}.checkpoint"));
        std::fs::write(&path, &damaged).unwrap();
        let path = path.to_str().unwrap();
        support::fails_with(
            &[&run[..], &["--policy", policy, "--resume", path]].concat(),
            &format!("pegchain: the checkpoint {path} is damaged: it does not match its checksum\n"),
        );
    }
    // Cut inside its header line, it was called no checkpoint of this command at all.
    let path = dir.join("header-cut.checkpoint");
    std::fs::write(&path, &bytes[..100]).unwrap();
    let path = path.to_str().unwrap();
    support::fails_with(
        &[&run[..], &["--resume", path]].concat(),
        &format!("pegchain: the checkpoint {path} is damaged: it ends inside its first line\n"),
    );
}

/// A save resumed by another run is refused in the words of the flags that differ, not in
/// the values the run keeps.
#[test]
fn a_save_of_another_run_is_refused_in_the_words_of_its_flags() {
    let dir = support::scratch("checkpoint-words");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = ["exact", "--board", "triangle5", "--start", "all", "-q"];
    let refused = |flags: &[&str], file: &str, why: &str| {
        support::fails_with(
            &[&run[..], flags, &["--resume", file]].concat(),
            &format!("pegchain: the checkpoint {file} belongs to another run: {why}\n"),
        );
    };
    // The whole group's passes leave a save of every start's answer on triangle5.
    let (whole, each) = (path("whole-group.checkpoint"), path("stabilizer.checkpoint"));
    support::stdout_bytes(&[&run[..], &["--whole-group", "--checkpoint", &whole]].concat());
    support::stdout_bytes(&[&run[..], &["--checkpoint", &each]].concat());
    refused(&[], &whole, "its symmetry is the whole group, this run's is each start's stabilizer");
    refused(
        &["--stabilizer"],
        &whole,
        "its symmetry is the whole group, this run's is each start's stabilizer",
    );
    refused(&["--no-symmetry"], &each, "its symmetry is each start's stabilizer, this run's is none");
    refused(
        &["--whole-group"],
        &each,
        "its symmetry is each start's stabilizer, this run's is the whole group",
    );
    refused(
        &["--residues", "3"],
        &each,
        "it was saved by a run without --residues, this one with --residues 3",
    );
    // --stabilizer is the method a default run saved as it goes takes.
    support::stdout_bytes(&[&run[..], &["--stabilizer", "--resume", &each]].concat());
    // `ends` and `count` make one evaluation and go on from each other's saves; a save of
    // another command is refused naming the command run.
    let (ends, count) = (["ends", "--board", "triangle5", "-q"], ["count", "--board", "triangle5", "-q"]);
    let saved = path("ends.checkpoint");
    support::stdout_bytes(&[&ends[..], &["--checkpoint", &saved]].concat());
    support::stdout_bytes(&[&count[..], &["--resume", &saved]].concat());
    support::fails_with(
        &[&ends[..], &["--resume", &each]].concat(),
        &format!("pegchain: {each} is not a pegchain ends checkpoint\n"),
    );
}

/// `count` saves and resumes the same way, with whole-number path counts.
#[test]
fn a_count_interrupted_and_resumed_prints_what_an_uninterrupted_one_does() {
    let run = ["count", "--board", "triangle6", "--start", "all", "--no-symmetry", "-q", "--csv"];
    let whole = support::stdout_bytes(&run);
    let dir = support::scratch("interrupt-count-checkpoint");
    let file = dir.join("count.checkpoint");
    let file = file.to_str().unwrap();
    let first = Run::start("count-checkpoint", &[&run[..], &["--checkpoint", file]].concat());
    wait_for(file);
    first.signal_after(Duration::from_millis(200), "TERM").interrupted(143);
    // `ends` is the same evaluation: it goes on from `count`'s save.
    let ends =
        support::stdout_bytes(&["ends", "--board", "triangle6", "--start", "all", "--no-symmetry", "-q"]);
    let resumed_ends = support::stdout_bytes(&[
        "ends",
        "--board",
        "triangle6",
        "--start",
        "all",
        "--no-symmetry",
        "-q",
        "--resume",
        file,
    ]);
    assert!(resumed_ends == ends, "ends resumed from a count checkpoint differs");
    let resumed = support::stdout_bytes(&[&run[..], &["--resume", file]].concat());
    assert!(resumed == whole, "the resumed run's output differs");
}

/// `solve --checkpoint` saves the search when interrupted (and every few seconds): where it
/// stood, the positions known to fail and the solutions shown. `--resume` shows those again
/// and goes on: the output is exactly the uninterrupted run's, for both methods.
#[test]
fn a_search_interrupted_and_resumed_prints_what_an_uninterrupted_one_does() {
    for (method, format) in [("dfs", "--json"), ("bfs", "--csv")] {
        // 300,000 solutions: about a second and a half.
        let run = [
            "solve",
            "--board",
            "triangle6",
            "--start",
            "A",
            "--limit",
            "300000",
            "--method",
            method,
            format,
        ];
        let whole = support::stdout_bytes(&run);
        let dir = support::scratch(&format!("interrupt-solve-{method}"));
        let file = dir.join("solve.checkpoint");
        let file = file.to_str().unwrap();
        let first = Run::start(&format!("solve-{method}"), &[&run[..], &["--checkpoint", file]].concat());
        let ended = first.signal_after(Duration::from_millis(400), "INT");
        assert!(ended.interrupted(130).contains("solutions found"));
        assert!(Path::new(file).exists(), "no checkpoint saved when interrupted");
        let resumed = support::stdout_bytes(&[&run[..], &["--resume", file]].concat());
        assert!(resumed == whole, "the resumed {method} search's output differs");
        // Another limit or method is refused with one line naming the difference.
        let mut other = run.to_vec();
        other[6] = "300001";
        support::fails_with(
            &[&other[..], &["--resume", file]].concat(),
            "its limit is 300000, this run's is 300001",
        );
        support::fails_with(
            &[&run[..], &["--distinct", "--resume", file]].concat(),
            &format!(
                "pegchain: the checkpoint {file} belongs to another run: its search is for every solution, \
                 this run's is for distinct solutions\n"
            ),
        );
    }
}

#[test]
fn sigint_stops_the_chain_solver_and_its_simulation() {
    // Two players of Chutes and Ladders: a component of 11,552 states, minutes of work.
    let ended = Run::start("chain-solve", &["game", "chutes-and-ladders", "--players", "2"])
        .signal_after(SECOND, "INT");
    let err = ended.interrupted(130);
    // "interrupted: interrupted while solving the chain" said it twice.
    assert_eq!(err, "pegchain: interrupted: the chain was being solved\n");
    assert!(ended.stdout().is_empty());
    let args = ["game", "craps", "--simulate", "1000000000000"];
    let ended = Run::start("chain-simulate", &args).signal_after(SECOND, "TERM");
    let err = ended.interrupted(143);
    assert!(err.contains(" of 1,000,000,000,000 simulated runs finished"), "{err}");
}

/// `export` of a big start (the English centre: about 98 s before its limit refuses it)
/// stops on the first signal and writes nothing, where it used to ignore one.
#[test]
fn sigint_stops_an_export_with_nothing_written() {
    let dir = support::scratch("interrupt-export-target");
    let drn = dir.join("english.drn");
    let args = ["export", "--board", "english", "--start", "d4", "--drn", drn.to_str().unwrap()];
    let ended = Run::start("export", &args).signal_after(SECOND, "INT");
    let err = ended.interrupted(130);
    assert!(err.contains("the export stopped with nothing written ("), "{err}");
    assert!(ended.stdout().is_empty());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Herman's ring of 15 processes takes seconds to build (14 million transitions): the build
/// stops on the first signal, in `game` and in `export` (which used to build, write its file
/// and succeed).
#[test]
fn sigint_stops_the_building_of_a_large_game() {
    let dir = support::scratch("interrupt-game-target");
    let drn = dir.join("herman15.drn");
    let export = ["export", "--game", "herman", "--processes", "15", "--drn", drn.to_str().unwrap()];
    for (name, args) in [("game", &["game", "herman", "--processes", "15"][..]), ("export-game", &export)] {
        let ended = Run::start(name, args).signal_after(Duration::from_millis(300), "INT");
        let err = ended.interrupted(130);
        assert!(err.contains("the chain was being built: "), "{err}");
        assert!(err.contains(" of 32,768 states"), "{err}");
        assert!(ended.stdout().is_empty());
    }
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "a file was written");
}

/// A model file of tens of megabytes takes seconds to read: the reading stops on the first
/// signal and says how far it got (it used to read on, then answer or refuse).
#[test]
fn sigint_stops_the_reading_of_a_large_model_file() {
    use std::io::Write;
    let dir = support::scratch("interrupt-model-file");
    let model = dir.join("walk.drn");
    let mut out = std::io::BufWriter::new(File::create(&model).unwrap());
    let states = 1_500_000u64;
    write!(
        out,
        "@type: DTMC\n@parameters\n\n@reward_models\n\n@nr_states\n{states}\n@nr_choices\n{states}\n@model\n"
    )
    .unwrap();
    for s in 0..states {
        let (label, next) = if s == 0 { (" init", s + 1) } else { ("", (s + 1).min(states - 1)) };
        write!(out, "state {s}{label}\n\taction 0\n\t\t{next} : 1/2\n\t\t{} : 1/2\n", s.saturating_sub(1))
            .unwrap();
    }
    drop(out);
    let ended = Run::start("model", &["chain", model.to_str().unwrap()]).signal_after(SECOND, "INT");
    let err = ended.interrupted(130);
    assert!(err.contains(&format!("model file {}: read up to line ", model.display())), "{err}");
    assert!(ended.stdout().is_empty());
}

/// Ctrl-C stops `serve` at once even with an answer under way (the English board from a full
/// board, about 10 s): the client is told the server is stopping, where the server used to
/// finish the answer first (about 10 s), then to cut it off after 5 s with no answer.
#[test]
fn sigint_stops_the_server_at_once_telling_the_client_under_way() {
    use std::io::{Read, Write};
    let run = Run::start("serve", &["serve", "--port", "0"]);
    let address = run.served_address();
    // One more request than cores: on two cores c1 waits for one, and it too is told (it was
    // given no answer at all once the last answers' second ran out).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).min(3);
    let clients: Vec<_> = ["d4", "d1", "c1", "d2"][..=cores]
        .iter()
        .map(|start| {
            let address = address.clone();
            let head = format!(
                "GET /api/coach?board=english&start={start} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
            );
            std::thread::spawn(move || {
                let mut stream = std::net::TcpStream::connect(address).unwrap();
                stream.write_all(head.as_bytes()).unwrap();
                let mut answer = String::new();
                let _ = stream.read_to_string(&mut answer);
                answer
            })
        })
        .collect();
    let ended = run.signal_after(Duration::from_millis(1500), "INT");
    assert_eq!(ended.interrupted(130), "pegchain: interrupted: the server stopped\n");
    for client in clients {
        let answer = client.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
        assert!(answer.ends_with(r#"{"error":"the server is stopping"}"#), "{answer}");
    }
}

/// Ctrl-C stops `serve` at once also while a client holds a connection with half a request
/// head sent: the server waited 5 s for it (and for a client reading none of its answer).
#[test]
fn sigint_stops_the_server_at_once_with_a_half_sent_request() {
    use std::io::Write;
    let run = Run::start("serve-half", &["serve", "--port", "0", "--board", "triangle5"]);
    let address = run.served_address();
    let mut half = std::net::TcpStream::connect(&address).unwrap();
    half.write_all(b"GET /api/boards HTTP/1.1\r\nHost: localhost\r\n").unwrap();
    let ended = run.signal_after(Duration::from_millis(500), "INT");
    assert_eq!(ended.interrupted(130), "pegchain: interrupted: the server stopped\n");
    drop(half);
}

/// A second Ctrl-C stops `serve` at once, saying so without a word of checkpoints, which serve
/// has none of: it said "(a run saved with --checkpoint goes on from its last save with
/// --resume)", as a search does (a client holding half a request keeps the first stop going
/// for a second, so that the second signal lands before it ends).
#[test]
fn a_second_signal_stops_the_server_without_a_word_of_checkpoints() {
    use std::io::Write;
    let run = Run::start("serve-twice", &["serve", "--port", "0", "--board", "triangle5"]);
    let address = run.served_address();
    let mut half = std::net::TcpStream::connect(&address).unwrap();
    half.write_all(b"GET /api/boards HTTP/1.1\r\nHost: localhost\r\n").unwrap();
    let ended = run.signals_after(Duration::from_millis(500), "INT", 2);
    assert_eq!(ended.status.code(), Some(130));
    assert_eq!(ended.stderr(), "pegchain: stopped at once by a second signal\n");
    assert!(ended.stdout().starts_with(b"pegchain: serving the coach on http://"));
    drop(half);
}

/// A search whose checkpoint cannot be saved (its directory removed under it) stops with one
/// line naming the file and exit 1, and still ends its JSON document, whose footer says the
/// search is incomplete and unsaved. Before, stdout stopped inside the array of solutions.
#[test]
fn a_search_whose_save_fails_still_ends_its_document() {
    let dir = support::scratch("solve-unsaved");
    let gone = dir.join("gone");
    std::fs::create_dir(&gone).unwrap();
    let file = gone.join("solve.checkpoint");
    let file = file.to_str().unwrap();
    let args = [
        "solve",
        "--board",
        "english",
        "--start",
        "d4",
        "--limit",
        "1000000",
        "--json",
        "--checkpoint",
        file,
    ];
    let run = Run::start("solve-unsaved", &args);
    std::thread::sleep(Duration::from_millis(500));
    std::fs::remove_dir(&gone).unwrap();
    let ended = run.signal_after(Duration::from_millis(500), "INT");
    let err = ended.stderr();
    assert_eq!(ended.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with(&format!("pegchain: cannot write {file}")), "{err}");
    let out = ended.stdout();
    serde_json::from_slice::<IgnoredAny>(&out).expect("one valid JSON document");
    let tail = String::from_utf8_lossy(&out[out.len().saturating_sub(300)..]).into_owned();
    assert!(tail.contains("\"complete\": false") && tail.contains("\"unsaved\": true"), "{tail}");
}

/// A checkpoint's checksum catches damage, not an edit resealed with a fresh checksum: such a
/// file's saved position with a peg off the board (bit 40 of a 21-hole board) made the resumed
/// run panic ("attempt to divide by zero" in the move tables). Every saved position is now
/// checked to lie on the board, and a save that passes resumes as before.
#[test]
fn a_saved_position_off_the_board_is_refused() {
    use pegchain::solitaire::exact::{Analysis, EngineConfig, Saving, Starts};
    use pegchain::solitaire::saved::Saved;
    let board = pegchain::solitaire::board::builtin("triangle6").unwrap();
    let analysis = Analysis::new(&board);
    let starts = Starts::Holes(vec![0]);
    let mut saves: Vec<Vec<u8>> = Vec::new();
    let mut keep = |bytes: &[u8]| {
        saves.push(bytes.to_vec());
        Ok(())
    };
    let saving = Saving { save: Some(&mut keep), ..Saving::default() };
    let whole = analysis.exact_saving(&starts, &EngineConfig::default(), &mut |_| (), saving).unwrap();
    let mut bytes = saves[0].clone();
    let resumed = |bytes: &[u8]| {
        let saving = Saving { resume: Some(Saved::decode(bytes, board.full())?), ..Saving::default() };
        analysis.exact_saving(&starts, &EngineConfig::default(), &mut |_| (), saving)
    };
    assert_eq!(format!("{:?}", resumed(&bytes).unwrap()), format!("{whole:?}"));
    // A position waiting in the saved run: a word after its magic and start that reads as a
    // position of 17 to 19 pegs on the 21 holes (the start has 20).
    let magic = bytes.windows(5).position(|w| w == b"pcrun").expect("a saved run");
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let waiting = (magic + 16..bytes.len() - 8)
        .step_by(8)
        .find(|&at| word(at) < 1 << 21 && (17..=19).contains(&word(at).count_ones()))
        .expect("a waiting position");
    bytes[waiting + 5] |= 1; // bit 40
    let refused = resumed(&bytes).unwrap_err().to_string();
    assert_eq!(refused, "it is not a whole saved evaluation: it holds a state this chain does not have");
}
