//! Runs shared by several processes: in the library, processes played by threads (the
//! engine's `InMemory` exchange) give reports equal to one process's, field for field; with
//! the `mpi` feature, `mpirun` with 1, 2 and 4 local processes prints the same bytes as the
//! plain binary, and refuses what it cannot share in one line.

#[cfg(feature = "mpi")]
mod support;

use pegchain::engine::InMemory;
use pegchain::solitaire::board;
use pegchain::solitaire::exact::{Analysis, EngineConfig, Processes, Reduction, Starts};
use std::sync::Arc;

/// The exact and count reports (as their debug text, every field) of every start of `board`,
/// shared by `processes` threads: one pair per thread.
fn reports_on(board_name: &str, processes: usize, config: &EngineConfig) -> Vec<(String, String)> {
    let board = board::builtin(board_name).unwrap();
    InMemory::run(processes, |exchange| {
        let config = EngineConfig { processes: Some(Processes(Arc::new(exchange))), ..config.clone() };
        let analysis = Analysis::new(&board);
        let exact = analysis.exact(&Starts::All, &config, &mut |_| ()).unwrap();
        let count = analysis.count(&Starts::All, &config, &mut |_| ()).unwrap();
        (format!("{exact:?}"), format!("{count:?}"))
    })
}

#[test]
fn every_process_reports_what_one_process_alone_reports() {
    for config in [
        EngineConfig::default(),
        EngineConfig { reduce: false, ..EngineConfig::default() },
        EngineConfig { reduction: Reduction::WholeGroup, ..EngineConfig::default() },
    ] {
        let board = board::builtin("triangle5").unwrap();
        let analysis = Analysis::new(&board);
        let exact = analysis.exact(&Starts::All, &config, &mut |_| ()).unwrap();
        let count = analysis.count(&Starts::All, &config, &mut |_| ()).unwrap();
        // The published figure (seed 000), so that equal reports are right ones: 568,630 games from A.
        assert_eq!(count.starts[0].games, 568_630);
        let alone = (format!("{exact:?}"), format!("{count:?}"));
        for processes in [1, 2, 3] {
            for shared in reports_on("triangle5", processes, &config) {
                assert_eq!(shared, alone, "{processes} processes, {config:?}");
            }
        }
    }
}

#[test]
fn positions_and_classes_are_counted_once_over_every_process() {
    let board = board::builtin("triangle6").unwrap();
    let alone = Analysis::new(&board).exact(&Starts::All, &EngineConfig::default(), &mut |_| ()).unwrap();
    // From A: 291,987 raw positions (Storm's state count), in fewer classes of the whole group.
    assert_eq!(alone.starts[0].positions.raw, 291_987);
    for (exact, _) in reports_on("triangle6", 2, &EngineConfig::default()) {
        assert_eq!(exact, format!("{alone:?}"));
    }
}

/// A run by residues shared by processes deals its passes out (each process follows the
/// whole chain for its own primes): with one prime a pass, the 21-hole triangle's fractions
/// (up to 145 digits over 147: several passes) come out of 1, 2 and 3 processes as one
/// process gives them without residues, field for field.
#[test]
fn processes_split_the_passes_of_a_run_by_residues() {
    let board = board::builtin("triangle6").unwrap();
    let alone = Analysis::new(&board).exact(&Starts::All, &EngineConfig::default(), &mut |_| ()).unwrap();
    let alone = format!("{alone:?}");
    for primes in [1, 2] {
        let config = EngineConfig { residues: Some(primes), ..EngineConfig::default() };
        // The passes each process makes (the most any start needs), and the reports.
        let shared = |processes: usize| -> Vec<(u32, String)> {
            InMemory::run(processes, |exchange| {
                let config =
                    EngineConfig { processes: Some(Processes(Arc::new(exchange))), ..config.clone() };
                let mut passes = 0;
                let exact = Analysis::new(&board)
                    .exact(&Starts::All, &config, &mut |p| passes = passes.max(p.pass.index + 1))
                    .unwrap();
                (passes, format!("{exact:?}"))
            })
        };
        let needed = shared(1)[0].0;
        assert!(needed >= 3, "{needed} passes of {primes} primes: too few to deal out");
        for processes in [1, 2, 3] {
            let runs = shared(processes);
            for (_, report) in &runs {
                assert_eq!(*report, alone, "{processes} processes, {primes} primes a pass");
            }
            // Each process makes its share of the passes: together at least all of them.
            let passes: Vec<u32> = runs.iter().map(|(n, _)| *n).collect();
            assert!(passes.iter().all(|&n| n <= needed.div_ceil(processes as u32)), "{passes:?} of {needed}");
            assert!(passes.iter().sum::<u32>() >= needed, "{passes:?} of {needed}");
        }
    }
}

/// A process of a run by residues that fails (here held to a budget it cannot keep) stops
/// the others where they meet after the round of passes: every process returns its error,
/// and none goes on to a second pass.
#[test]
fn a_failure_in_one_process_of_a_run_by_residues_stops_them_all() {
    let board = board::builtin("triangle6").unwrap();
    let outcomes = InMemory::run(3, |exchange| {
        let me = pegchain::engine::Exchange::me(&exchange);
        let budget = (me == 1).then_some(100_000);
        let config = EngineConfig {
            residues: Some(1),
            memory_budget: budget,
            processes: Some(Processes(Arc::new(exchange))),
            ..EngineConfig::default()
        };
        let mut passes = 0;
        let exact = Analysis::new(&board)
            .exact(&Starts::Holes(vec![0]), &config, &mut |p| passes = passes.max(p.pass.index + 1));
        (passes, exact.map(|_| ()).unwrap_err().to_string())
    });
    assert!(outcomes[0].1.contains("too large"), "{}", outcomes[0].1);
    assert!(outcomes.iter().all(|(passes, e)| *passes <= 1 && *e == outcomes[0].1), "{outcomes:?}");
}

/// The passes of `--whole-group` run whole in every process, each under its own budget: one
/// refused stops the others before they meet in the engine (they waited there for it).
#[test]
fn a_whole_group_pass_refused_in_one_process_is_refused_in_every_process() {
    let board = board::builtin("triangle6").unwrap();
    for deal_starts in [false, true] {
        let outcomes = InMemory::run(2, |exchange| {
            let me = pegchain::engine::Exchange::me(&exchange);
            let config = EngineConfig {
                reduction: Reduction::WholeGroup,
                deal_starts,
                memory_budget: (me == 1).then_some(100_000),
                processes: Some(Processes(Arc::new(exchange))),
                ..EngineConfig::default()
            };
            Analysis::new(&board).exact(&Starts::All, &config, &mut |_| ()).map(|_| ()).unwrap_err()
        });
        for e in &outcomes {
            assert!(
                matches!(e, pegchain::Error::TooLarge { by: pegchain::RefusedBy::KeptClasses, .. }),
                "{e:?}"
            );
            assert_eq!(e.to_string(), outcomes[1].to_string());
        }
    }
}

/// Starts dealt out: a process refused for memory stops the others, and every process
/// returns that refusal as a refusal for memory (so the CLI of process 0 names the way out,
/// `--max-memory`), not as a plain error in its words.
#[test]
fn a_refusal_for_memory_in_one_dealt_process_is_one_in_every_process() {
    let board = board::builtin("triangle6").unwrap();
    let outcomes = InMemory::run(2, |exchange| {
        let me = pegchain::engine::Exchange::me(&exchange);
        let config = EngineConfig {
            deal_starts: true,
            memory_budget: (me == 1).then_some(100_000),
            processes: Some(Processes(Arc::new(exchange))),
            ..EngineConfig::default()
        };
        Analysis::new(&board).exact(&Starts::All, &config, &mut |_| ()).map(|_| ()).unwrap_err()
    });
    for e in &outcomes {
        assert!(matches!(e, pegchain::Error::TooLarge { .. }), "{e:?}");
        assert_eq!(e.to_string(), outcomes[1].to_string());
    }
    assert!(outcomes[1].to_string().contains("over the memory budget of 100 kB"), "{}", outcomes[1]);
}

/// Held to 6 MB each, two processes take the steps of the 21-hole triangle in rounds (one
/// alone is refused at 8 MB), sending each round's children to their owners as it ends: the
/// reports are one process's without a budget, field for field.
#[test]
fn processes_held_to_a_budget_send_their_children_round_by_round() {
    let board = board::builtin("triangle6").unwrap();
    let alone = Analysis::new(&board).exact(&Starts::All, &EngineConfig::default(), &mut |_| ()).unwrap();
    let tight = EngineConfig { memory_budget: Some(6_000_000), ..EngineConfig::default() };
    assert!(
        Analysis::new(&board).exact(&Starts::All, &tight, &mut |_| ()).is_err(),
        "one process alone fits"
    );
    for (exact, _) in reports_on("triangle6", 2, &tight) {
        assert_eq!(exact, format!("{alone:?}"));
    }
}

/// `exact` from `starts` on `processes` threads, each with `config` of its exchange, keeping
/// every save: each thread's report (its debug text) and saves, in order.
fn exact_keeping_saves(
    board: &pegchain::Board,
    starts: &Starts,
    processes: usize,
    config: impl Fn(InMemory) -> EngineConfig + Sync,
) -> Vec<(String, Vec<Vec<u8>>)> {
    InMemory::run(processes, |exchange| {
        let mut saves = Vec::new();
        let mut save = |bytes: &[u8]| {
            saves.push(bytes.to_vec());
            Ok(())
        };
        let saving = pegchain::solitaire::exact::Saving { resume: None, save: Some(&mut save), keep: None };
        let report = Analysis::new(board).exact_saving(starts, &config(exchange), &mut |_| (), saving);
        (format!("{:?}", report.unwrap()), saves)
    })
}

/// Each process of a shared run saves its own part after every finished layer, all in step
/// (as many saves each, a process with no positions of its own in a layer included), and
/// processes that go on from their parts of any one save, taken after a start, within one
/// or at its last layer, report what one process alone reports, field for field. Processes
/// that split the passes of a run by residues (one prime a pass: several rounds a start)
/// save after every round of passes, as many saves each, and go on from them alike.
#[test]
fn processes_save_their_parts_in_step_and_go_on_from_them() {
    use pegchain::solitaire::exact::Saving;
    use pegchain::solitaire::saved::Saved;
    let board = board::builtin("triangle6").unwrap();
    let starts = Starts::Holes(vec![0, 1, 4]);
    let alone = Analysis::new(&board).exact(&starts, &EngineConfig::default(), &mut |_| ()).unwrap();
    let alone = format!("{alone:?}");
    let by_residues = EngineConfig { residues: Some(1), ..EngineConfig::default() };
    for (processes, config) in [(2, EngineConfig::default()), (3, EngineConfig::default()), (2, by_residues)]
    {
        let shared =
            |exchange| EngineConfig { processes: Some(Processes(Arc::new(exchange))), ..config.clone() };
        let runs = exact_keeping_saves(&board, &starts, processes, shared);
        assert!(runs.iter().all(|(report, _)| *report == alone));
        let saves: Vec<Vec<Vec<u8>>> = runs.into_iter().map(|(_, saves)| saves).collect();
        let count = saves[0].len();
        // Within a pass a layer each; by residues split, a round each (3 starts, 2 rounds at least).
        assert!(count >= if config.residues.is_some() { 6 } else { 20 }, "{count} saves");
        assert!(saves.iter().all(|s| s.len() == count), "{processes} processes saved unevenly");
        for k in [0, 1, count / 2, count - 1] {
            let reports = InMemory::run(processes, |exchange| {
                let me = pegchain::engine::Exchange::me(&exchange);
                let saving = Saving {
                    resume: Some(Saved::decode(&saves[me][k], board.full()).unwrap()),
                    save: None,
                    keep: None,
                };
                let report =
                    Analysis::new(&board).exact_saving(&starts, &shared(exchange), &mut |_| (), saving);
                format!("{:?}", report.unwrap())
            });
            assert!(reports.iter().all(|r| *r == alone), "{processes} processes resumed from save {k}");
        }
    }
}

/// Processes that deal the starts out (each evaluating whole starts alone) report what one
/// process alone reports, field for field, by the stabilizer and the whole-group methods and
/// by residues; saved after every round of starts (as many saves each) and resumed from any
/// of them, likewise.
#[test]
fn processes_that_deal_the_starts_out_report_what_one_process_does() {
    use pegchain::solitaire::exact::Saving;
    use pegchain::solitaire::saved::Saved;
    let board = board::builtin("triangle6").unwrap();
    for config in [
        EngineConfig::default(),
        EngineConfig { reduction: Reduction::WholeGroup, ..EngineConfig::default() },
        EngineConfig { residues: Some(2), ..EngineConfig::default() },
    ] {
        let alone = Analysis::new(&board).exact(&Starts::All, &config, &mut |_| ()).unwrap();
        let alone = format!("{alone:?}");
        let count = Analysis::new(&board).count(&Starts::All, &config, &mut |_| ()).unwrap();
        for processes in [2, 3] {
            let dealt = |exchange| EngineConfig {
                processes: Some(Processes(Arc::new(exchange))),
                deal_starts: true,
                ..config.clone()
            };
            let runs = exact_keeping_saves(&board, &Starts::All, processes, dealt);
            assert!(runs.iter().all(|(report, _)| *report == alone), "{processes} processes, {config:?}");
            let counted = InMemory::run(processes, |exchange| {
                format!(
                    "{:?}",
                    Analysis::new(&board).count(&Starts::All, &dealt(exchange), &mut |_| ()).unwrap()
                )
            });
            assert!(counted.iter().all(|c| *c == format!("{count:?}")));
            let saves: Vec<Vec<Vec<u8>>> = runs.into_iter().map(|(_, saves)| saves).collect();
            // Triangle6's 5 classes of starts: a save a round.
            assert!(saves.iter().all(|s| s.len() == 5usize.div_ceil(processes)), "{processes} processes");
            let resumed = InMemory::run(processes, |exchange| {
                let me = pegchain::engine::Exchange::me(&exchange);
                let saving = Saving {
                    resume: Some(Saved::decode(&saves[me][0], board.full()).unwrap()),
                    save: None,
                    keep: None,
                };
                let exact =
                    Analysis::new(&board).exact_saving(&Starts::All, &dealt(exchange), &mut |_| (), saving);
                format!("{:?}", exact.unwrap())
            });
            assert!(resumed.iter().all(|r| *r == alone), "{processes} processes resumed");
        }
    }
    // Process 1 held to a budget it cannot keep: both stop with its refusal, in its words.
    let outcomes = InMemory::run(2, |exchange| {
        let me = pegchain::engine::Exchange::me(&exchange);
        let config = EngineConfig {
            memory_budget: (me == 1).then_some(100_000),
            processes: Some(Processes(Arc::new(exchange))),
            deal_starts: true,
            ..EngineConfig::default()
        };
        Analysis::new(&board).exact(&Starts::All, &config, &mut |_| ()).unwrap_err().to_string()
    });
    assert!(outcomes[0].contains("too large") && outcomes[0].contains("of start B"), "{}", outcomes[0]);
    assert_eq!(outcomes[0], outcomes[1]);
}

#[cfg(feature = "mpi")]
mod under_mpirun {
    use std::process::{Command, Output};

    fn mpirun(processes: usize, args: &[&str]) -> Option<Output> {
        mpirun_with(processes, args, None)
    }

    /// `round_bytes`: the most bytes a process sends another in one MPI call.
    fn mpirun_with(processes: usize, args: &[&str], round_bytes: Option<usize>) -> Option<Output> {
        let mut command = Command::new("mpirun");
        if let Some(bytes) = round_bytes {
            command.args(["-x", &format!("PEGCHAIN_MPI_ROUND_BYTES={bytes}")]);
        }
        let out = with_processes(command, processes, args).output();
        match out {
            Ok(out) => Some(out),
            Err(e) => {
                eprintln!("skipped: mpirun could not start ({e}); scripts/setup.sh --mpi installs Open MPI");
                None
            }
        }
    }

    /// `mpirun` starting `processes` processes of the binary with `args`.
    fn with_processes(mut command: Command, processes: usize, args: &[&str]) -> Command {
        command
            .args(["-q", "--oversubscribe", "--bind-to", "none", "-np", &processes.to_string()])
            .arg(assert_cmd::cargo::cargo_bin("pegchain"))
            .args(args)
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        command
    }

    /// `mpirun` starting in `dir` one process of the binary for each list of arguments in
    /// `each` (process p with `each[p]`), the job ended after 60 seconds rather than left to hang.
    fn mpirun_each(dir: &std::path::Path, each: &[&[&str]]) -> Option<Output> {
        mpirun_in(&each.iter().map(|args| (dir, *args)).collect::<Vec<_>>())
    }

    /// Like [`mpirun_each`], each process in a folder of its own (as on machines of their own).
    fn mpirun_in(each: &[(&std::path::Path, &[&str])]) -> Option<Output> {
        let mut command = Command::new("mpirun");
        command.args(["-q", "--oversubscribe", "--bind-to", "none", "--timeout", "60"]);
        for (p, (dir, args)) in each.iter().enumerate() {
            if p > 0 {
                command.arg(":");
            }
            command
                .args(["-np", "1", "-wdir"])
                .arg(dir)
                .arg(assert_cmd::cargo::cargo_bin("pegchain"))
                .args(*args);
        }
        command.env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        match command.output() {
            Ok(out) => Some(out),
            Err(e) => {
                eprintln!("skipped: mpirun could not start ({e}); scripts/setup.sh --mpi installs Open MPI");
                None
            }
        }
    }

    /// `out` failed with exit code 2 and one line on stderr holding `message`.
    fn refused(out: &Output, message: &str) {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("pegchain: ") && err.contains(message), "{err}");
    }

    /// Under mpirun, `--checkpoint FILE` saves each process's part (`FILE.p-of-N`, and the
    /// part it saved before, `FILE.p-of-N.previous`): a run interrupted by Ctrl-C and resumed
    /// prints one process's bytes, and so does a run resumed from parts where one process
    /// stopped between its two renames (its newest part missing). Parts with no save in
    /// common, another number of processes and one process alone are refused in one line.
    #[test]
    fn a_run_shared_by_processes_is_saved_in_parts_and_resumed() {
        saved_in_parts_and_resumed("layers", &[]);
    }

    /// The same for processes that deal the starts out (saved after every round of starts;
    /// each start by residues, so that the run lasts until it is interrupted).
    #[test]
    fn a_run_whose_starts_are_dealt_out_is_saved_in_parts_and_resumed() {
        saved_in_parts_and_resumed("starts", &["--deal-starts", "--residues", "1"]);
    }

    /// The same for a run by residues whose passes the processes split (saved after every
    /// round of passes).
    #[test]
    fn a_run_by_residues_split_between_processes_is_saved_in_parts_and_resumed() {
        saved_in_parts_and_resumed("residues", &["--residues", "1"]);
    }

    fn saved_in_parts_and_resumed(name: &str, extra: &[&str]) {
        let base = ["exact", "--board", "triangle6", "--start", "all", "--no-symmetry", "-q", "--json"];
        let alone = plain(&base);
        let run = [&base[..], extra].concat();
        let dir = std::env::temp_dir().join(format!("pegchain-mpi-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("run.checkpoint");
        let file = file.to_str().unwrap();
        let part = |p: usize, previous: bool| {
            dir.join(format!("run.checkpoint.{p}-of-2{}", if previous { ".previous" } else { "" }))
        };
        let saving = [&run[..], &["--checkpoint", file]].concat();
        let mut command = with_processes(Command::new("mpirun"), 2, &saving);
        command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        let Ok(first) = command.spawn() else {
            eprintln!("skipped: mpirun could not start; scripts/setup.sh --mpi installs Open MPI");
            return;
        };
        let clock = std::time::Instant::now();
        while !part(1, true).exists() {
            assert!(clock.elapsed().as_secs() < 60, "no part saved");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        let kill = Command::new("kill").args(["-INT", &first.id().to_string()]).status().unwrap();
        assert!(kill.success());
        let first = first.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&first.stderr);
        assert!(said.contains("of 21 start evaluations finished"), "{said}");
        assert!(first.stdout.is_empty());

        let resuming = [&run[..], &["--resume", file]].concat();
        let resumed = mpirun(2, &resuming).unwrap();
        assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
        assert_eq!(resumed.stdout, alone.stdout);
        // Process 1 stopped between moving its part aside and putting its new one in place.
        std::fs::remove_file(part(1, false)).unwrap();
        let resumed = mpirun(2, &resuming).unwrap();
        assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
        assert_eq!(resumed.stdout, alone.stdout);

        refused(&mpirun(3, &resuming).unwrap(), "run.checkpoint.0-of-3");
        if extra.is_empty() {
            let first_part = part(0, false);
            let part_alone = [&run[..], &["--resume", first_part.to_str().unwrap()]].concat();
            refused(&plain(&part_alone), "its number of processes is 2, this run's is 1");
        }
        // Process 0 now holds only its newest save, process 1 only the one before.
        std::fs::remove_file(part(0, true)).unwrap();
        refused(&mpirun(2, &resuming).unwrap(), "hold no save in common");
        // Process 1 cannot save its part: every process stops, saying why in its words.
        let blocked = dir.join("blocked.checkpoint");
        std::fs::create_dir(dir.join("blocked.checkpoint.1-of-2.previous")).unwrap();
        let out = mpirun(2, &[&run[..], &["--checkpoint", blocked.to_str().unwrap()]].concat()).unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("blocked.checkpoint.1-of-2.previous: a directory is in the way"), "{err}");
        assert!(!out.status.success() && out.stdout.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn plain(args: &[&str]) -> Output {
        assert_cmd::Command::cargo_bin("pegchain").unwrap().args(args).output().unwrap()
    }

    fn same_bytes_on_1_2_and_4_processes(args: &[&str]) {
        let alone = plain(args);
        assert!(alone.status.success());
        for processes in [1, 2, 4] {
            let Some(shared) = mpirun(processes, args) else { return };
            let err = String::from_utf8_lossy(&shared.stderr);
            assert!(shared.status.success(), "{processes} processes: {err}");
            assert_eq!(shared.stdout, alone.stdout, "{processes} processes, {args:?}");
        }
    }

    #[test]
    fn mpirun_prints_the_bytes_of_one_process() {
        same_bytes_on_1_2_and_4_processes(&["exact", "--board", "triangle6", "--start", "all", "--json"]);
        same_bytes_on_1_2_and_4_processes(&["count", "--board", "triangle6", "--start", "all"]);
        same_bytes_on_1_2_and_4_processes(&["ends", "--board", "triangle5", "--start", "all", "--csv"]);
    }

    #[test]
    fn mpirun_prints_the_bytes_of_one_process_with_the_starts_dealt_out() {
        let alone = plain(&["exact", "--board", "triangle6", "--start", "all", "--json"]);
        for processes in [2, 4] {
            let args = ["exact", "--board", "triangle6", "--start", "all", "--json", "--deal-starts"];
            let Some(dealt) = mpirun(processes, &args) else { return };
            assert!(dealt.status.success(), "{}", String::from_utf8_lossy(&dealt.stderr));
            assert_eq!(dealt.stdout, alone.stdout, "{processes} processes");
        }
    }

    #[test]
    fn mpirun_splits_the_passes_of_a_run_by_residues() {
        same_bytes_on_1_2_and_4_processes(&[
            "exact",
            "--board",
            "triangle6",
            "--start",
            "all",
            "--residues",
            "1",
        ]);
    }

    #[test]
    fn parcels_larger_than_one_mpi_call_go_in_rounds() {
        let args = ["exact", "--board", "triangle5", "--start", "all", "--json"];
        let alone = plain(&args);
        // 100 bytes a call: the widest layer's parcels take several rounds.
        let Some(shared) = mpirun_with(3, &args, Some(100)) else { return };
        assert!(shared.status.success(), "{}", String::from_utf8_lossy(&shared.stderr));
        assert_eq!(shared.stdout, alone.stdout);
    }

    #[test]
    #[ignore = "the English board from the centre, three times: minutes"]
    fn mpirun_prints_the_bytes_of_one_process_on_the_english_board() {
        same_bytes_on_1_2_and_4_processes(&["exact", "--board", "english", "--start", "d4", "--json"]);
    }

    /// A file or folder missing on one machine only: the process that meets the error alone
    /// does not leave the others waiting for it (the job hung, process 0 saying `pegchain: `).
    /// Every process stops with exit code 2 and process 0 says why, in the words of the process
    /// that met it, whichever that is.
    #[test]
    fn an_error_only_one_process_meets_stops_every_process_in_its_words() {
        let dir = std::env::temp_dir().join(format!("pegchain-mpi-alone-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // The same command line in three folders: one with the board file and the spill
        // folder, one without the folder, one without the board.
        let (whole, without_spill, without_board) =
            (dir.join("whole"), dir.join("nospill"), dir.join("noboard"));
        for (folder, spill, board) in
            [(&whole, true, true), (&without_spill, false, true), (&without_board, true, false)]
        {
            std::fs::create_dir_all(folder).unwrap();
            if spill {
                std::fs::create_dir(folder.join("spill")).unwrap();
            }
            if board {
                let out = plain(&[
                    "boards",
                    "--export",
                    "triangle5",
                    "--format",
                    "picture",
                    "--out",
                    folder.to_str().unwrap(),
                ]);
                assert!(out.status.success());
            }
        }
        let run: &[&str] = &["exact", "--board", "triangle5.txt", "-q", "--json", "--spill", "spill"];
        let missing_spill = "pegchain: --spill spill: No such file or directory";
        let missing_board = "pegchain: board file triangle5.txt: cannot read it: No such file or directory";
        for (each, message) in [
            ([&whole, &without_spill], missing_spill),
            ([&without_spill, &whole], missing_spill),
            ([&whole, &without_board], missing_board),
            ([&without_board, &whole], missing_board),
        ] {
            let Some(out) = mpirun_in(&[(each[0], run), (each[1], run)]) else { return };
            refused(&out, message);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A shared run saved to `--checkpoint FILE` and started again is refused with the advice
    /// to give `--resume FILE`, the name the processes go on from (it named process 0's part,
    /// `FILE.0-of-2`, which no process could resume), and to remove every part; following it
    /// prints the bytes of one process.
    #[test]
    fn a_shared_run_started_again_over_its_parts_is_told_the_name_to_resume() {
        let dir = std::env::temp_dir().join(format!("pegchain-mpi-again-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("run");
        let file = file.to_str().unwrap();
        let run =
            ["exact", "--board", "triangle6", "--start", "1", "--no-symmetry", "-q", "--checkpoint", file];
        let Some(first) = mpirun(2, &run) else { return };
        assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
        refused(
            &mpirun(2, &run).unwrap(),
            &format!(
                "--checkpoint {file}: its part {file}.0-of-2 exists; go on from the parts with --resume {file}, or remove them ({file}.*-of-2*) to start again"
            ),
        );
        let resumed = mpirun(2, &[&run[..], &["--resume", file]].concat()).unwrap();
        assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
        assert_eq!(resumed.stdout, first.stdout);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A command line refused under mpirun is said every time: the other processes exited at
    /// once, and mpirun often ended the job before process 0 had written its line (3 runs in
    /// 25 with 3 processes said nothing). They now meet first, and a line refused by one
    /// process only is said by process 0 in its words.
    #[test]
    fn a_refused_command_line_is_said_every_time_by_process_0() {
        let said = "pegchain: unexpected argument '--no-such-flag' found (see pegchain --help)";
        for _ in 0..10 {
            let Some(out) = mpirun(3, &["exact", "--no-such-flag"]) else { return };
            refused(&out, said);
        }
        let dir = std::env::temp_dir();
        let good: &[&str] = &["exact", "--board", "triangle5", "-q"];
        for each in [[good, &["exact", "--no-such-flag"]], [&["exact", "--no-such-flag"], good]] {
            refused(&mpirun_each(&dir, &each).unwrap(), said);
        }
    }

    /// Processes given different command lines (`mpirun -np 1 pegchain exact ... : -np 1
    /// pegchain simulate ...`) hung: the process refused for its command (or running another
    /// start) never met the others. They now compare their command lines first.
    #[test]
    fn processes_given_different_command_lines_are_refused() {
        let dir = std::env::temp_dir();
        let exact: &[&str] = &["exact", "--board", "triangle5", "-q"];
        let simulate: &[&str] = &["simulate", "--games", "100", "--seed", "1"];
        let Some(out) = mpirun_each(&dir, &[exact, simulate]) else { return };
        refused(
            &out,
            "the processes of one run must be given one command line, but process 1 was given \"simulate --games \
             100 --seed 1\" and process 0 \"exact --board triangle5 -q\"",
        );
        let other_start: &[&str] = &["exact", "--board", "triangle5", "-q", "--start", "B"];
        refused(&mpirun_each(&dir, &[exact, exact, other_start]).unwrap(), "but process 2 was given");
    }

    /// Under mpirun process 0 writes a line per layer on stderr also where no process sends
    /// another anything (nothing was written): every start's 20 layers of the first pass by
    /// residues, the 20 layers of each start it is dealt (A, D and H of triangle6's 5 start
    /// classes), and one process's passes over every start's classes and pegs left.
    #[test]
    fn process_0_writes_a_line_per_layer_where_no_process_sends() {
        let run = ["exact", "--board", "triangle6", "--start", "all", "--json"];
        for (processes, extra, lines, first) in [
            (3, &["--residues", "2"][..], 100, "start A (1 of 5): 1 position with 20 pegs (pass 1), "),
            (2, &["--deal-starts"], 60, "start A: 1 position with 20 pegs, "),
            (1, &[], 59, "every start's classes: 5 positions with 20 pegs, "),
        ] {
            let Some(out) = mpirun(processes, &[&run[..], extra].concat()) else { return };
            assert!(out.status.success());
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), lines, "{processes} processes, {extra:?}: {err}");
            assert!(err.starts_with(first), "{err}");
            assert!(err.lines().all(|l| l.ends_with(" (process 0)")), "{err}");
            if extra == ["--deal-starts"] {
                let last: Vec<&str> = err.lines().filter(|l| l.contains("with 1 peg,")).collect();
                let starts: Vec<&str> = last.iter().map(|l| &l[..8]).collect();
                assert_eq!(starts, ["start A:", "start D:", "start H:"], "{err}");
            }
        }
    }

    #[test]
    fn under_mpirun_bad_input_and_unshared_commands_get_one_line_from_one_process() {
        for args in [
            &["exact", "--board", "nosuch"][..],
            &["exact", "--no-such-flag"],
            &["simulate", "--games", "10"],
            &["exact", "--board", "triangle5", "--checkpoint", "/tmp/pegchain-mpi-no-such-dir/run.ckpt"],
        ] {
            let Some(out) = mpirun(2, args) else { return };
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(out.stdout.is_empty());
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.starts_with("pegchain: "), "{err}");
        }
        assert!(!std::path::Path::new("/tmp/pegchain-mpi-no-such-dir").exists());
        // What the command line alone decides is written once, by process 0.
        let Some(help) = mpirun(2, &["exact", "--help"]) else { return };
        assert!(help.status.success());
        assert_eq!(String::from_utf8_lossy(&help.stdout).matches("Usage:").count(), 1);
    }

    /// The processes' stdout reaches the terminal through mpirun, whose failed writes none of
    /// them sees (`> /dev/full` ended with exit 0 and no word). `--output` is written by
    /// process 0 itself: the same bytes as one process's answer, and a failed write is the
    /// run's failure; a file it cannot write is refused before any work.
    #[test]
    fn under_mpirun_the_answer_file_is_written_by_process_0_and_its_failure_is_the_runs() {
        let dir = super::support::scratch("mpi-answer-file");
        let file = dir.join("answer.json");
        let args = ["exact", "--board", "triangle5", "--start", "all", "--json", "-q"];
        let Some(out) = mpirun(2, &[&args[..], &["-o", file.to_str().unwrap()]].concat()) else { return };
        assert!(out.status.success() && out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(std::fs::read(&file).unwrap() == super::support::stdout_bytes(&args));
        let Some(out) = mpirun(2, &[&args[..], &["-o", "/dev/full"]].concat()) else { return };
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err, "pegchain: cannot write /dev/full: No space left on device\n");
        let missing = dir.join("no-such-dir").join("answer.json");
        let Some(out) = mpirun(2, &[&args[..], &["-o", missing.to_str().unwrap()]].concat()) else { return };
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("no directory"), "{err}");
    }
}

/// A binary built without the feature, started by mpirun as one of several processes, would
/// print the whole answer once per process: it refuses, process 0 saying why.
#[cfg(not(feature = "mpi"))]
#[test]
fn without_the_feature_a_binary_started_as_one_of_several_processes_refuses() {
    let run = |rank: &str| {
        assert_cmd::Command::cargo_bin("pegchain")
            .unwrap()
            .args(["exact", "--board", "triangle5"])
            .env("OMPI_COMM_WORLD_SIZE", "2")
            .env("OMPI_COMM_WORLD_RANK", rank)
            .output()
            .unwrap()
    };
    let (first, second) = (run("0"), run("1"));
    assert_eq!((first.status.code(), second.status.code()), (Some(2), Some(2)));
    assert!(first.stdout.is_empty() && second.stdout.is_empty() && second.stderr.is_empty());
    let err = String::from_utf8(first.stderr).unwrap();
    assert_eq!(err.lines().count(), 1);
    assert!(err.contains("built without the mpi feature"), "{err}");
}
