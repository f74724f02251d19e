//! Flags into requests, in process: what a good request asks for, and what a bad one is told.

use super::boards::{BoardsRequest, ShowRequest};
use super::*;
use crate::cli::args::{Cli, Command};
use clap::Parser;
use pegchain::Policy;
use pegchain::solitaire::files;
use pegchain::solitaire::solve::{Finish, Method};

fn parse(args: &[&str]) -> Command {
    Cli::try_parse_from([&["pegchain"], args].concat()).expect("flags parse").command
}

/// The validated engine request of `exact` or `count`/`ends`.
fn engine(args: &[&str]) -> Result<EngineRequest, String> {
    match parse(args) {
        Command::Exact(a) => a.validate(),
        Command::Count(a) => a.validate("count"),
        Command::Ends(a) => a.validate("ends"),
        other => panic!("not an engine command: {other:?}"),
    }
    .map_err(|e| e.to_string())
}

fn solve(args: &[&str]) -> Result<SolveRequest, String> {
    match parse(&[&["solve"], args].concat()) {
        Command::Solve(a) => a.validate().map_err(|e| e.to_string()),
        other => panic!("{other:?}"),
    }
}

fn show(args: &[&str]) -> Result<ShowRequest, String> {
    match parse(&[&["show"], args].concat()) {
        Command::Show(a) => a.validate().map_err(|e| e.to_string()),
        other => panic!("{other:?}"),
    }
}

fn boards(args: &[&str]) -> Result<BoardsRequest, String> {
    match parse(&[&["boards"], args].concat()) {
        Command::Boards(a) => a.validate().map_err(|e| e.to_string()),
        other => panic!("{other:?}"),
    }
}

fn refused<T>(result: Result<T, String>, message: &str) {
    match result {
        Ok(_) => panic!("accepted; expected {message:?}"),
        Err(e) => assert!(e.contains(message), "{e:?} does not say {message:?}"),
    }
}

#[test]
fn exact_takes_the_board_starts_policy_memory_and_output() {
    let args = ["exact", "--board", "triangle5", "--start", "a1,E", "--policy", "peg-first"];
    let extra = ["--max-memory", "2.5", "--no-symmetry", "--markdown", "--full", "-q"];
    let req = engine(&[&args[..], &extra].concat()).unwrap();
    assert_eq!(req.board.name(), "triangle5");
    assert_eq!(req.starts, Starts::Holes(vec![0, 4]));
    assert_eq!((req.config.policy, req.config.reduce), (Policy::PegFirst, false));
    assert_eq!(req.config.memory_budget, Some(2_500_000_000));
    assert_eq!(req.output, Output { format: Format::Markdown, style: Style { full_fractions: true } });
    assert!(req.quiet);
    // a1 and A are the same hole: named twice, it is refused.
    refused(engine(&["exact", "--start", "a1,E,A"]), "--start names hole A twice");
    // An empty item is refused as in a position ("A,,B"): it said `no hole ""`.
    for list in [",", "A,,B", "A,"] {
        refused(engine(&["exact", "--start", list]), "--start's list has an empty item");
    }
    // An empty value is no list.
    for empty in ["", " "] {
        refused(engine(&["exact", "--start", empty]), "--start is empty: name a hole");
    }
}

#[test]
fn exact_count_and_ends_default_to_every_start_uniform_play_and_text() {
    for command in ["exact", "count", "ends"] {
        let req = engine(&[command]).unwrap();
        assert_eq!((req.board.name(), &req.starts), ("triangle5", &Starts::All), "{command}");
        assert_eq!((req.config.policy, req.config.reduce), (Policy::Uniform, true));
        assert_eq!(req.output, Output::default());
    }
    assert_eq!(engine(&["count", "--csv"]).unwrap().output.format, Format::Csv);
    assert_eq!(engine(&["ends", "--json"]).unwrap().output.format, Format::Json);
}

#[test]
fn unknown_boards_holes_and_policies_are_named() {
    refused(engine(&["exact", "--board", "hexagon"]), "unknown board \"hexagon\"");
    refused(engine(&["exact", "--start", "P"]), "board triangle5 has no hole \"P\"");
    refused(engine(&["count", "--start", "A,f3"]), "has no hole \"f3\"");
    refused(engine(&["ends", "--start", "0"]), "has no hole \"0\"");
    refused(engine(&["exact", "--policy", "greedy"]), "unknown policy \"greedy\"");
    refused(solve(&["--start", "P"]), "has no hole \"P\"");
    refused(show(&["--board", "hexagon"]), "unknown board");
    refused(boards(&["--export", "hexagon"]), "unknown board");
}

#[test]
fn a_memory_budget_must_be_a_positive_number_of_gb() {
    let said = |gb: &str| match Cli::try_parse_from(["pegchain", "count", "--max-memory", gb]) {
        Ok(_) => panic!("--max-memory {gb} accepted"),
        Err(e) => e.to_string(),
    };
    for (bad, words) in [
        ("-1", "a positive number of GB is needed"),
        ("0", "a positive number of GB is needed"),
        ("inf", "a finite number of GB is needed"),
        ("1e400", "too large"),
        ("NaN", "not a number of GB"),
        ("lots", "not a number of GB"),
        ("", "a number of GB is needed"),
    ] {
        assert!(
            said(bad).contains(&format!("'{bad}' for '--max-memory <GB>': {words}")),
            "{bad}: {}",
            said(bad)
        );
    }
    assert!(Cli::try_parse_from(["pegchain", "count", "--max-memory", "0.5"]).is_ok());
}

#[test]
fn output_formats_conflict_in_the_parser() {
    for pair in [["--json", "--csv"], ["--json", "--markdown"], ["--csv", "--markdown"]] {
        for command in ["exact", "count", "ends", "solve", "show", "boards"] {
            let err = Cli::try_parse_from(["pegchain", command, pair[0], pair[1]]).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::ArgumentConflict, "{command} {pair:?}");
        }
    }
}

#[test]
fn a_format_that_does_not_fit_is_refused_before_anything_runs() {
    refused(show(&["--csv"]), "--csv does not fit: show draws the board");
    // Nor does its help offer it (it listed `--csv  One CSV table`).
    use clap::CommandFactory;
    let help = Cli::command().find_subcommand_mut("show").unwrap().render_help().to_string();
    assert!(help.contains("--markdown") && !help.contains("--csv"), "{help}");
    assert_eq!(show(&["--json"]).unwrap().output.format, Format::Json);
    assert_eq!(show(&["--markdown"]).unwrap().output.format, Format::Markdown);
    refused(solve(&["--start", "A", "--show", "--json"]), "--json does not fit: --show draws boards");
    refused(solve(&["--start", "A", "--show", "--csv"]), "--csv does not fit");
    let req = solve(&["--start", "A", "--show", "--markdown"]).unwrap();
    assert!(req.show && req.output.format == Format::Markdown);
}

#[test]
fn solve_takes_a_start_a_finish_a_limit_and_a_method() {
    let req = solve(&["--start", "A", "--finish", "M"]).unwrap();
    assert_eq!(req.problem.start, req.board.full().without(0));
    assert_eq!(req.problem.finish, Finish::Pegs(Pegs::single(12)));
    assert_eq!((req.method, req.limit, req.distinct), (Method::Dfs, Some(1), false));
    let req = solve(&["--start-pegs", "B,C,D", "--finish-count", "2", "--all", "--method", "BREADTH_FIRST"])
        .unwrap();
    assert_eq!((req.problem.start, req.problem.finish), (Pegs(0b1110), Finish::Count(2)));
    assert_eq!((req.method, req.limit), (Method::Bfs, None));
    assert_eq!(solve(&["--start", "A", "--distinct"]).unwrap().limit, None);
    assert_eq!(solve(&["--start", "A", "--distinct", "--limit", "3"]).unwrap().limit, Some(3));
    assert_eq!(solve(&["--start", "A", "--csv"]).unwrap().output.format, Format::Csv);
}

/// A saved search keeps every solution it shows: `--all --checkpoint` on the English board
/// held 3.4 GB after 20 s (found by an audit), so a checkpoint takes a limit it can hold.
#[test]
fn a_checkpoint_takes_a_limit_of_solutions_it_can_keep() {
    let dir = std::env::temp_dir().join(format!("pegchain-kept-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("solve.checkpoint");
    let file = file.to_str().unwrap();
    let kept = "--checkpoint keeps every solution it shows, to show them again when the search is resumed, \
                so it takes --limit N of at most 1,000,000, not ";
    refused(solve(&["--start", "A", "--all", "--checkpoint", file]), &format!("{kept}every solution"));
    refused(solve(&["--start", "A", "--distinct", "--checkpoint", file]), &format!("{kept}every solution"));
    refused(
        solve(&["--start", "A", "--limit", "1000001", "--checkpoint", file]),
        &format!("{kept}--limit 1000001"),
    );
    assert_eq!(
        solve(&["--start", "A", "--limit", "1000000", "--checkpoint", file]).unwrap().limit,
        Some(1_000_000)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_solve_requests_name_their_flag() {
    refused(solve(&["--start", "A", "--limit", "0"]), "--limit must be at least 1");
    refused(
        solve(&["--start", "A", "--finish-count", "0"]),
        "--finish-count must be between 1 and 15, not 0",
    );
    refused(solve(&["--start", "A", "--method", "astar"]), "unknown search method \"astar\"");
    refused(solve(&[]), "solve needs a start: --start HOLE");
    // An empty item is refused, not skipped: "--finish A,,B" was read as A,B.
    refused(solve(&["--start", "A", "--finish", ","]), "--finish's list has an empty item");
    refused(solve(&["--start", "A", "--finish", "A,,B"]), "--finish's list has an empty item");
    assert!(Cli::try_parse_from(["pegchain", "solve", "--limit", "2", "--all"]).is_err());
}

#[test]
fn boards_lists_or_exports() {
    let req = boards(&["--json"]).unwrap();
    assert!(req.export.is_none() && req.output.format == Format::Json);
    let req = boards(&["--export", "english", "--format", "picture", "--out", "some/dir"]).unwrap();
    let export = req.export.unwrap();
    assert_eq!(
        (export.board.name(), export.format, export.dir),
        ("english", files::Format::Picture, "some/dir".into())
    );
    refused(boards(&["--export", "english", "--format", "svg"]), "unknown board file format \"svg\"");
}
