//! The command-line contract: output shapes, hole notations, and bad input.

mod support;
use predicates::prelude::*;
use support::{assert_decimals_are_nearest, fails_with, json, pegchain, scratch, stdout};

#[test]
fn exact_json_has_the_documented_fields() {
    let v = json(&["exact", "--board", "triangle5"]);
    assert_eq!(v["command"], "exact");
    assert_eq!(v["board"]["name"], "triangle5");
    assert_eq!((v["board"]["holes"].as_u64(), v["board"]["symmetry_order"].as_u64()), (Some(15), Some(6)));
    let starts = v["starts"].as_array().unwrap();
    assert_eq!(starts.len(), 15);
    let a = &starts[0];
    assert_eq!(a["start"], "A");
    assert_eq!(a["holes"], serde_json::json!(["A", "K", "O"]));
    for key in
        ["class", "win", "bits", "pegs_left", "expected_pegs_left", "finish", "finish_in_start", "positions"]
    {
        assert!(!a[key].is_null(), "missing {key}");
    }
    let win = a["win"]["fraction"].as_str().unwrap();
    assert!(win.contains('/'), "{win}");
    assert_eq!(v["classes"].as_array().unwrap().len(), 4);
    assert_eq!(v["classes"][0]["holes"], serde_json::json!(["A", "K", "O"]));
    let bits = v["random_start"]["bits"].as_f64().unwrap();
    assert!((bits - 7.79).abs() < 0.01);
    // A start that cannot finish in its own hole: 0, and no bits for it.
    let e = &starts[4];
    assert_eq!((e["start"].as_str(), e["finish_in_start"]["fraction"].as_str()), (Some("E"), Some("0")));
    assert!(starts.iter().all(|s| s["bits"].is_number()));
}

#[test]
fn every_decimal_is_the_double_nearest_its_fraction() {
    let policies = ["uniform", "peg-first", "hole-first"];
    for policy in policies {
        let checked = assert_decimals_are_nearest(&json(&["exact", "--policy", policy]));
        assert!(checked > 15 * 10, "{policy}: {checked}");
    }
    // 530647768748392433/135500669337600000 was once printed as 3.91620035046678.
    let v = json(&["exact", "--start", "A"]);
    assert_eq!(v["starts"][0]["expected_pegs_left"]["decimal"].as_f64(), Some(3.9162003504667804));
    assert!(assert_decimals_are_nearest(&json(&["exact", "--board", "triangle6", "--start", "A"])) > 10);
}

#[test]
fn a_start_with_no_win_has_a_zero_probability_and_no_bits() {
    // Seed 000's triangle of four rows: no start leaves one peg from the tip.
    let v = json(&["exact", "--board", "triangle4", "--start", "A"]);
    let a = &v["starts"][0];
    assert_eq!(a["win"]["fraction"], "0");
    assert_eq!(a["win"]["decimal"].as_f64(), Some(0.0));
    assert!(a.get("bits").is_none(), "{a}");
    assert!(v.get("random_start").is_none(), "only one start was evaluated");
}

#[test]
fn count_json_holds_big_numbers_as_strings() {
    let v = json(&["count", "--start", "A"]);
    let s = &v["starts"][0];
    assert_eq!(s["games"], "568630");
    assert_eq!(s["games_by_pegs_left"]["7"], "324");
    assert_eq!(s["wins_by_finish"]["M"], "16128");
    assert!(s["positions"]["raw"].is_string());
}

#[test]
fn a_hole_by_name_number_or_rank_and_file_is_the_same_hole() {
    let by = |h: &str| json(&["exact", "--start", h])["starts"][0]["start"].clone();
    assert_eq!(by("A"), "A");
    assert_eq!(by("1"), "A");
    assert_eq!(by("a1"), "A");
    assert_eq!(by("c3"), "F");
    assert_eq!(by("e"), "E");
}

#[test]
fn boards_and_show_list_and_draw() {
    let boards = stdout(&["boards"]);
    let english: Vec<&str> =
        boards.lines().find(|l| l.starts_with("english")).unwrap().split_whitespace().collect();
    assert_eq!(english, ["english", "33", "76", "8"], "{boards}");
    let v = json(&["boards"]);
    assert_eq!(
        v["boards"][7],
        serde_json::json!({"name": "english", "holes": 33, "jumps": 76, "symmetry_order": 8})
    );
    pegchain()
        .args(["show", "--board", "triangle5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("    A\n   B C\n  D E F\n G H I J\nK L M N O\n"));
    pegchain().args(["show", "--board", "english"]).assert().success().stdout(predicate::str::contains("d4"));
}

/// Text holds what JSON holds: `show` lists every jump, `count` and `exact` every layer's
/// reachable positions.
#[test]
fn text_lists_the_jumps_and_the_positions_of_every_layer() {
    let shown = stdout(&["show", "--board", "english"]);
    let listed: Vec<&str> = shown
        .lines()
        .flat_map(|l| {
            l.split_whitespace().filter(|w| {
                w.split('-').count() == 3 && w.split('-').all(|h| h.chars().all(char::is_alphanumeric))
            })
        })
        .collect();
    let jumps = json(&["show", "--board", "english"])["jumps"].as_array().unwrap().len();
    assert_eq!((listed.len(), jumps), (76, 76), "{shown}");
    assert!(shown.contains("\nd4    d4-d3-d2 d4-c4-b4 d4-e4-f4 d4-d5-d6\n"), "{shown}");
    for command in ["count", "exact"] {
        let text = stdout(&[command, "--start", "A"]);
        let line = text.lines().find(|l| l.starts_with("By pegs on the board")).expect(&text);
        let layers: Vec<String> = json(&[command, "--start", "A"])["starts"][0]["positions"]["by_layer"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                format!(
                    "{}: {} ({})",
                    l["pegs"],
                    l["raw"].as_str().unwrap(),
                    l["up_to_symmetry"].as_str().unwrap()
                )
            })
            .collect();
        assert_eq!(line.split_once(": ").unwrap().1, layers.join("; "), "{command}");
        assert!(
            line.ends_with(
                "; 7: 679 (344); 6: 623 (317); 5: 414 (215); 4: 212 (112); 3: 75 (39); 2: 18 (10); 1: 4 (3)"
            ),
            "{line}"
        );
    }
}

/// A negative number given to a flag is the flag's value, refused by the flag's own check;
/// clap took it for a flag ("unexpected argument '-1' found", or '-0' for -0.5).
#[test]
fn a_negative_number_is_refused_as_the_flags_value() {
    let negative = "a whole number is needed, not a negative one";
    for (args, message) in [
        (&["solve", "--start", "-1"][..], "board triangle5 has no hole \"-1\""),
        (&["count", "--position", "-1"], "board triangle5 has no hole \"-1\""),
        (&["simulate", "--seed", "-1"], &format!("invalid value '-1' for '--seed <SEED>': {negative}")),
        (
            &["solve", "--start", "A", "--limit", "-1"],
            &format!("invalid value '-1' for '--limit <N>': {negative}"),
        ),
        (&["serve", "--port", "-1"], "invalid value '-1' for '--port <PORT>': -1 is not in 0..=65535"),
        (
            &["game", "gamblers-ruin", "--p", "-0.5"],
            "the probability of winning a round must be strictly between 0 and 1, not -1/2",
        ),
        // A value that starts with a hyphen but is no number to clap ("unexpected argument '-1'").
        (
            &["game", "gamblers-ruin", "--p", "-1/2"],
            "the probability of winning a round must be strictly between 0 and 1, not -1/2",
        ),
        (&["race", "--lengths", "-1..12"], "--lengths \"-1..12\": expected A..B, two board lengths"),
    ] {
        fails_with(args, message);
    }
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    fails_with(&["exact", "--board", "hexagon"], "unknown board \"hexagon\"");
    fails_with(&["exact", "--start", "P"], "has no hole \"P\"");
    // Holes are also taken by number: one past the last is told the range.
    fails_with(
        &["exact", "--start", "16"],
        "has no hole \"16\"; its holes are A B C D E F G H I J K L M N O (or their numbers, 1 to 15)",
    );
    fails_with(&["exact", "--start", "0"], "has no hole \"0\"");
    fails_with(&["count", "--start", "f3"], "has no hole \"f3\"");
    // A hole named twice, by name or by number, is a slip (as in a position), not one row.
    fails_with(&["exact", "--board", "triangle5", "--start", "A,B,A"], "--start names hole A twice");
    fails_with(&["count", "--board", "triangle5", "--start", "B,2"], "--start names hole B twice");
    fails_with(&["exact", "--policy", "greedy"], "unknown policy");
    // A jump of 100,000 characters was echoed whole, in one line of 100 KB.
    let long = "a".repeat(100_000);
    // So were a policy's name, a game's and a count of games.
    fails_with(&["game", &long], &format!("unknown game {:?}... (100000 characters)", "a".repeat(40)));
    fails_with(
        &["simulate", "--games", &long],
        &format!("--games takes a whole number of games of at least 1, not {:?}...", "a".repeat(40)),
    );
    for command in ["coach", "exact"] {
        fails_with(
            &[command, "--board", "triangle5", "--start", "A", "--policy", &long],
            &format!("unknown policy {:?}... (100000 characters); known: uniform", "a".repeat(40)),
        );
    }
    for command in ["solve", "exact"] {
        fails_with(
            &[command, "--board", "english", "--start", "d4", "--moves", &long],
            &format!("{:?}... (100000 characters) is not a jump: write FROM-OVER-TO", "a".repeat(40)),
        );
    }
    fails_with(&["exact", "--max-memory", "-1"], "--max-memory");
    // A number too large for a float is not infinitely many GB.
    fails_with(&["exact", "--max-memory", "1e400"], "'1e400' for '--max-memory <GB>': too large");
    // Nor is a number too small for a budget one byte: below 1 MB is a slip.
    for tiny in ["1e-300", "0.0009"] {
        fails_with(
            &["exact", "--max-memory", tiny],
            &format!("'{tiny}' for '--max-memory <GB>': at least 0.001 GB (1 MB) is needed"),
        );
    }
    fails_with(
        &["exact", "--deal-starts"],
        "--deal-starts deals the starts out between processes: start the run with mpirun",
    );
    fails_with(&["count", "--position", "A,B,C", "--deal-starts"], "--deal-starts deals out for start holes");
    // The refusal names the start whose step it is, and counts in thousands what the engine
    // holds: classes of positions under the reflection that fixes A.
    fails_with(
        &["exact", "--board", "triangle10", "--start", "A", "--max-memory", "0.05"],
        "too large for the exact engine: the step to the layer with 46 pegs of start A (about 970,312 classes)",
    );
    // Without symmetry the engine holds positions, about twice as many.
    fails_with(
        &["exact", "--board", "triangle10", "--start", "A", "--max-memory", "0.05", "--no-symmetry"],
        "too large for the exact engine: the step to the layer with 46 pegs of start A (about 1,941,045 positions)",
    );
}

/// A whole number a flag cannot hold is "too large", not "not in 0..=4294967295" (the type's
/// range, where the flag takes far fewer); one in range but not the flag's gets the flag's own
/// range from the request's check.
#[test]
fn a_number_flag_words_its_refusals_for_people() {
    let too_large = "invalid value '99999999999' for '--residues <K>': too large (see pegchain --help)";
    fails_with(&["exact", "--board", "triangle5", "--start", "A", "--residues", "99999999999"], too_large);
    fails_with(
        &["exact", "--board", "triangle5", "--start", "A", "--residues", "65"],
        "--residues takes 1 to 64 primes a pass, not 65",
    );
    fails_with(&["race", "--length", "4294967296"], "'--length <LENGTH>': too large");
    fails_with(&["simulate", "--seed", "18446744073709551616"], "'--seed <SEED>': too large");
    fails_with(&["simulate", "--threads", "1.5"], "'--threads <THREADS>': not a whole number");
    fails_with(&["solve", "--limit", ""], "'--limit <N>': a whole number is needed");
}

#[test]
fn no_arguments_prints_help() {
    pegchain().assert().success().stdout(predicate::str::contains("Usage"));
}

/// A file target in a directory that takes no new file is refused before the run, as any
/// bad input: a search that ended before its first save used to succeed having saved nothing.
#[test]
fn a_target_that_cannot_be_written_is_refused_before_the_run() {
    let no_new_file = "no new file can be made in /proc/self: No such file or directory";
    fails_with(&["solve", "--start", "A", "--checkpoint", "/proc/self/run.ck"], no_new_file);
    fails_with(&["race", "--grid", "--svg", "/proc/self/grid.svg"], no_new_file);
    fails_with(&["export", "--race", "--drn", "/proc/self/race.drn"], no_new_file);
}

/// A directory the files go into (`audit --svg DIR`, `boards --export --out DIR`, made if
/// missing) where no file can be made is refused before the run, exit 2: the audit used to
/// play its games and then fail (`cannot write /proc/classes.svg`, exit 1), and a path under
/// a file failed the same way (`cannot create plots.txt/sub: Not a directory`).
#[test]
fn an_output_directory_that_takes_no_file_is_refused_before_the_run() {
    let dir = scratch("out-dirs");
    let file = dir.join("plots.txt");
    std::fs::write(&file, "mine").unwrap();
    let under_file = file.join("sub");
    let under_file = under_file.to_str().unwrap();
    let no_new_file = "no new file can be made in /proc: No such file or directory";
    fails_with(&["audit", "--games", "1000", "-q", "--svg", "/proc"], &format!("--svg /proc: {no_new_file}"));
    fails_with(
        &["boards", "--export", "triangle4", "--out", "/proc/x"],
        &format!("--out /proc/x: {no_new_file}"),
    );
    let not_a_dir = format!("{} is not a directory", file.display());
    fails_with(&["audit", "--games", "1000", "-q", "--svg", under_file], &not_a_dir);
    fails_with(&["boards", "--export", "triangle4", "--out", under_file], &not_a_dir);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    // A directory in the way of one plot was found only after the games were played (exit 1).
    let plots = dir.join("plots");
    std::fs::create_dir_all(plots.join("pegs_left.svg")).unwrap();
    let in_the_way = format!("--svg {}: a directory, not a file name", plots.join("pegs_left.svg").display());
    fails_with(&["audit", "--games", "3000000", "-q", "--svg", plots.to_str().unwrap()], &in_the_way);
    // A directory still missing, under one that takes files, is made and written into.
    let new = dir.join("new/plots");
    stdout(&["boards", "--export", "triangle4", "--out", new.to_str().unwrap()]);
    assert!(new.join("triangle4.json").is_file());
}

/// Directories made for the files (`--out DIR/a/b/c`, three of them) are all removed again when
/// a file cannot be written there (here no file may grow past 0 bytes, `ulimit -f 0`, with
/// the signal that limit sends ignored so the write fails instead): only the last, `c`, was.
#[test]
fn directories_made_for_files_that_fail_are_removed_again() {
    let dir = scratch("out-dirs-removed");
    let out = dir.join("a/b/c");
    let ran = std::process::Command::new("bash")
        .args(["-c", "trap '' XFSZ; ulimit -f 0; exec \"$@\"", "pegchain", env!("CARGO_BIN_EXE_pegchain")])
        .args(["boards", "--export", "triangle4", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(1), "{err}");
    assert!(err.contains("File too large"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The binary, with its streams set by the test (assert_cmd's command does not set them).
fn binary() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_pegchain"))
}

/// The help and the version are answers like any other: a failed write of them fails.
#[test]
fn the_help_written_to_a_full_disk_fails_in_one_line() {
    for args in [&[][..], &["--help"], &["exact", "--help"], &["--version"]] {
        let out = binary().args(args).stdout(std::fs::File::create("/dev/full").unwrap()).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.trim_end(), "pegchain: cannot write to standard output: No space left on device");
    }
}

/// Progress and the throughput line go to stderr; a stderr that cannot be written loses them,
/// not the answer (`eprintln!` panicked there, before the answer was printed).
#[test]
fn a_full_stderr_costs_the_progress_not_the_answer() {
    let args = ["simulate", "--games", "100000", "--seed", "7", "--json"];
    let out = binary().args(args).stderr(std::fs::File::create("/dev/full").unwrap()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        answer,
        serde_json::from_slice::<serde_json::Value>(&pegchain().args(args).output().unwrap().stdout).unwrap()
    );
}

/// The throughput line names its threads in the singular when there is one ("on 1 threads"
/// was printed).
#[test]
fn the_throughput_line_counts_its_threads_in_words() {
    for (threads, words) in [("1", " on 1 thread\n"), ("2", " on 2 threads\n")] {
        let out = support::pegchain()
            .args(["simulate", "--games", "1000", "--seed", "1", "--threads", threads])
            .output()
            .unwrap();
        let said = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success() && said.ends_with(words), "{said:?}");
        assert!(said.starts_with("1,000 games in "), "{said:?}");
    }
}

/// `--full` shows long fractions whole; `show`, `boards` and `export` print none, and took it
/// without a word (`show --full` drew the board, exit 0). Now refused, naming the flag. So do
/// `count`, `ends` and `solve`, which print counts and jumps (`count --full` printed as
/// without it).
#[test]
fn full_is_refused_where_no_fraction_is_printed() {
    let dir = scratch("full-without-fractions");
    let drn = dir.join("x.drn");
    let out = dir.join("boards");
    let refused: [(&[&str], &str); 8] = [
        (&["show", "--full"], "show"),
        (&["games", "--full"], "games"),
        (&["count", "--board", "triangle4", "--full"], "count"),
        (&["ends", "--board", "triangle4", "--markdown", "--full"], "ends"),
        (&["solve", "--start", "A", "--full"], "solve"),
        (&["boards", "--full"], "boards"),
        (&["boards", "--export", "triangle4", "--out", out.to_str().unwrap(), "--full"], "boards"),
        (&["export", "--race", "--drn", drn.to_str().unwrap(), "--full"], "export"),
    ];
    for (args, command) in refused {
        fails_with(args, &format!("--full shows long fractions whole, and {command} prints none"));
    }
    assert!(!drn.exists() && !out.exists());
    // simulate's text and Markdown show its exact values as decimals (`--full` printed the
    // same bytes as without it); its JSON and CSV hold the fractions.
    fails_with(
        &["simulate", "--games", "100", "--full"],
        "--full shows long fractions whole, and simulate shows its exact values as decimals beside the estimates (--json and --csv give their fractions)",
    );
    assert!(stdout(&["show", "--markdown"]).contains("# Board triangle5"));
    assert!(stdout(&["exact", "--board", "triangle4", "--start", "A", "--full"]).contains("start  class"));
}

/// The help gives the ranges the flags are checked against: `--residues` (1 to 64), `solve
/// --finish-count` (1 to the board's holes) and `--limit` (at least 1) were refused past them
/// with no word of it in `--help`.
#[test]
fn help_gives_the_ranges_exact_and_solve_check() {
    let help = stdout(&["exact", "--help"]);
    assert!(help.contains("modulo K primes (K from 1 to 64;"), "{help}");
    fails_with(&["exact", "--residues", "65"], "--residues takes 1 to 64 primes a pass, not 65\n");
    let help = stdout(&["solve", "--help"]);
    assert!(help.contains("no jump possible (K from 1 to the board's holes)"), "{help}");
    assert!(help.contains("Find up to N solutions, N at least 1 "), "{help}");
    fails_with(&["solve", "--start", "A", "--finish-count", "16"], "between 1 and 15, not 16\n");
    fails_with(&["solve", "--start", "A", "--limit", "0"], "--limit must be at least 1\n");
}

/// A command that prints no fraction refuses `--full`, and its help no longer offers it (`show
/// --help` listed "Show long fractions whole"); the commands that print fractions keep it.
#[test]
fn full_is_offered_only_where_fractions_are_printed() {
    for command in ["boards", "show", "count", "ends", "solve", "export", "games", "simulate"] {
        let help = stdout(&[command, "--help"]);
        assert!(!help.contains("--full"), "{command}: {help}");
    }
    fails_with(&["show", "--full"], "pegchain: --full shows long fractions whole, and show prints none\n");
    for command in ["exact", "audit", "race", "chain", "game", "coach"] {
        let help = stdout(&[command, "--help"]);
        assert!(help.contains("--full"), "{command}: {help}");
    }
}

/// `--help` said `solve` saves its checkpoint "after every branch"; it saves every 5 seconds
/// and when stopped, so a search that ends sooner leaves no file.
#[test]
fn the_checkpoint_help_says_when_solve_saves() {
    let help = stdout(&["solve", "--help"]);
    assert!(
        help.contains("solve: every 5 seconds and when stopped, so a search that ends sooner saves none;"),
        "{help}"
    );
    assert!(
        help.contains("it keeps the solutions shown, so it takes --limit N of at most 1,000,000;"),
        "{help}"
    );
    assert!(!help.contains("after every branch"), "{help}");
    let dir = scratch("solve-checkpoint-help");
    let save = dir.join("s.ckpt");
    let solved = stdout(&["solve", "--start", "A", "--checkpoint", save.to_str().unwrap()]);
    assert!(solved.contains("\n1. D-B-A, "), "{solved}");
    assert!(!save.exists());
}

/// An argument that is not UTF-8 text is named, with its flag: clap's words were "invalid
/// UTF-8 was detected in one or more arguments", which left the user to find it.
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_named() {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let bytes = |b: &[u8]| OsString::from_vec(b.to_vec());
    for (args, words) in [
        (
            vec![bytes(b"exact"), bytes(b"--board"), bytes(b"b\xff.json")],
            "pegchain: the value of --board, \"b\\xFF.json\", is not UTF-8 text, which --board takes (see pegchain --help)\n",
        ),
        (
            vec![bytes(b"exact"), bytes(b"--start=\xff")],
            "pegchain: the argument \"--start=\\xFF\" is not UTF-8 text (see pegchain --help)\n",
        ),
    ] {
        let out = pegchain().args(&args).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), words);
        assert_eq!(out.status.code(), Some(2));
    }
}

/// rayon sizes the worker pool by RAYON_NUM_THREADS: 30,000 took minutes to start, past the
/// 1,024 threads `--threads` allows, and a Ctrl-C went unheard meanwhile. Refused in one line.
#[test]
fn too_many_threads_by_rayons_variable_are_refused() {
    let out = support::pegchain().env("RAYON_NUM_THREADS", "30000").args(["exact", "-q"]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "pegchain: RAYON_NUM_THREADS is 30000: the worker threads are at most 1024 (0 or unset: one per core)\n"
    );
    assert!(out.stdout.is_empty());
    // Within the bound it sizes the pool as before; the output does not depend on it.
    let three = support::pegchain().env("RAYON_NUM_THREADS", "3").args(["exact", "--json"]).output().unwrap();
    assert!(three.status.success());
    assert_eq!(three.stdout, support::stdout_bytes(&["exact", "--json"]));
}

/// A misspelt command or flag is named with the one clap finds similar, in the one line: its
/// tip stood on a line of its own and was dropped with the rest of clap's message.
#[test]
fn a_misspelt_command_or_flag_is_told_the_similar_one() {
    fails_with(
        &["exat"],
        "pegchain: unrecognized subcommand 'exat'; some similar subcommands exist: 'export', 'exact' (see pegchain --help)\n",
    );
    fails_with(
        &["exact", "--bord", "triangle5"],
        "pegchain: unexpected argument '--bord' found; a similar argument exists: '--board' (see pegchain --help)\n",
    );
    fails_with(&["xyz"], "pegchain: unrecognized subcommand 'xyz' (see pegchain --help)\n");
}
