//! `simulate`, `audit` and `race` flags, parsed and validated in process (ripgrep's habit):
//! good requests give the right fields, bad ones the right words, before anything runs.

use super::race::{RaceJob, RaceRequest};
use super::simulate::{AuditRequest, SimulateRequest};
use super::*;
use clap::Parser;
use pegchain::Policy;
use pegchain::solitaire::estimates::StartPlan;

fn command(args: &[&str]) -> Command {
    Cli::try_parse_from([&["pegchain"], args].concat()).expect("flags parse").command
}

/// Clap's own refusal of the flags.
fn unparsed(args: &[&str]) -> String {
    Cli::try_parse_from([&["pegchain"], args].concat()).expect_err("refused by clap").to_string()
}

fn simulate(args: &[&str]) -> Result<SimulateRequest, Error> {
    match command(&[&["simulate"], args].concat()) {
        Command::Simulate(a) => a.validate(),
        _ => unreachable!("a simulate command"),
    }
}

fn audit(args: &[&str]) -> Result<AuditRequest, Error> {
    match command(&[&["audit"], args].concat()) {
        Command::Audit(a) => a.validate(),
        _ => unreachable!("an audit command"),
    }
}

fn race(args: &[&str]) -> Result<RaceRequest, Error> {
    match command(&[&["race"], args].concat()) {
        Command::Race(a) => a.validate(),
        _ => unreachable!("a race command"),
    }
}

/// The words of a refusal.
fn refused<T>(result: Result<T, Error>) -> String {
    match result {
        Ok(_) => panic!("accepted, but should be refused"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn simulate_defaults_to_a_million_games_from_a_random_hole_with_exact_values() {
    let req = simulate(&[]).unwrap();
    let c = &req.config;
    assert_eq!((c.games, c.seed, c.threads, c.policy), (1_000_000, 2015, 0, Policy::Uniform));
    assert_eq!(c.starts, StartPlan::Random);
    assert!(c.exact);
    assert_eq!(req.output, Output::default());
    assert!(!req.quiet);
}

#[test]
fn simulate_start_plans() {
    let plan = |args: &[&str]| simulate(args).unwrap().config.starts;
    assert_eq!(plan(&["--start", "A,E"]), StartPlan::Each(vec![0, 4]));
    assert_eq!(plan(&["--start", "all"]), StartPlan::Each((0..15).collect()));
    assert_eq!(plan(&["--per-class", "50_000"]), StartPlan::PerClass(50_000));
    assert_eq!(simulate(&["--games", "1,000"]).unwrap().config.games, 1000);
    assert_eq!(simulate(&["--games", "12_345_678"]).unwrap().config.games, 12_345_678);
    // Separators that do not part groups of three digits were dropped: "1,00" ran 100 games.
    for slip in ["1,00", ",100", "100,", "1,0,0", "_100", "1__0", "1,000_000", "1000,000"] {
        let e = refused(simulate(&["--games", slip]));
        assert!(e.starts_with("--games takes a whole number of games of at least 1, not"), "{slip}: {e}");
    }
    assert!(refused(simulate(&["--per-class", "5,0"])).contains("--per-class takes a whole number"));
}

#[test]
fn simulate_exact_values_by_board_size_unless_asked() {
    assert!(!simulate(&["--board", "english"]).unwrap().config.exact);
    assert!(simulate(&["--board", "english", "--exact"]).unwrap().config.exact);
    assert!(!simulate(&["--no-exact"]).unwrap().config.exact);
    assert!(unparsed(&["simulate", "--exact", "--no-exact"]).contains("cannot be used with"));
}

#[test]
fn output_flags_of_the_simulation_commands() {
    let format = |args: &[&str]| simulate(args).unwrap().output.format;
    assert_eq!(format(&["--json"]), Format::Json);
    assert_eq!(format(&["--csv"]), Format::Csv);
    assert_eq!(format(&["--markdown"]), Format::Markdown);
    // simulate's text shows no fraction to make whole; audit's does.
    assert!(refused(simulate(&["--full"])).contains("--full shows long fractions whole"));
    assert!(audit(&["--full"]).unwrap().output.style.full_fractions);
    assert_eq!(audit(&["--csv"]).unwrap().output.format, Format::Csv);
    assert_eq!(race(&["--markdown"]).unwrap().output.format, Format::Markdown);
    assert!(unparsed(&["race", "--json", "--csv"]).contains("cannot be used with"));
}

#[test]
fn bad_simulations_are_refused_in_words() {
    assert!(
        refused(simulate(&["--games", "0"])).contains("--games takes a whole number of games of at least 1")
    );
    assert!(refused(simulate(&["--games", "many"])).contains("--games takes a whole number"));
    assert_eq!(
        refused(simulate(&["--games", "99999999999999999999"])),
        "--games takes at most 18446744073709551615 games, not \"99999999999999999999\""
    );
    assert!(refused(simulate(&["--per-class", "0"])).contains("--per-class takes a whole number"));
    assert!(refused(simulate(&["--policy", "clever"])).contains("unknown policy"));
    assert!(refused(simulate(&["--start", "Q"])).contains("has no hole \"Q\""));
    assert!(refused(simulate(&["--threads", "100000"])).contains("--threads takes 0 (one per core) to 1024"));
    assert!(unparsed(&["simulate", "--per-class", "100", "--start", "A"]).contains("cannot be used with"));
    assert!(unparsed(&["simulate", "--per-class", "100", "--games", "5"]).contains("cannot be used with"));
}

#[test]
fn games_that_cannot_be_counted_in_all_are_refused() {
    let max = u64::MAX.to_string();
    assert!(
        refused(simulate(&["--games", &max, "--start", "all"]))
            .contains("makes more than 18446744073709551615 games in all")
    );
    assert!(refused(simulate(&["--per-class", &max])).starts_with("--per-class 18446744073709551615 over"));
    // One run of u64::MAX games (a random start) is counted: it is streamed, not refused.
    assert_eq!(simulate(&["--games", &max]).unwrap().config.games, u64::MAX);
    assert_eq!(
        simulate(&["--games", &(u64::MAX / 15).to_string(), "--start", "all"]).unwrap().config.games,
        u64::MAX / 15
    );
}

#[test]
fn audit_requests() {
    let req = audit(&["--games", "1000", "--seed", "7", "-q", "--svg", "plots"]).unwrap();
    assert_eq!((req.config.games, req.config.seed, req.config.threads), (1000, 7, 0));
    assert_eq!(req.svg, Some(PathBuf::from("plots")));
    assert!(req.quiet);
    assert_eq!(audit(&[]).unwrap().config.games, 4_000_000);
    assert!(refused(audit(&["--games", "0"])).contains("--games takes a whole number"));
    assert!(refused(audit(&["--threads", "5000"])).contains("--threads takes 0"));
    // A file where the plots' directory should be is refused before the games are played.
    assert!(refused(audit(&["--svg", "Cargo.toml"])).contains("not a directory"));
}

#[test]
fn race_jobs() {
    match race(&[]).unwrap().job {
        RaceJob::Game { setup, simulate } => {
            assert_eq!((setup.length, setup.swine, setup.butcher), (12, 7, 1));
            assert_eq!(simulate, None);
        }
        _ => panic!("one game"),
    }
    match race(&["--simulate", "1000", "--seed", "9", "--threads", "2"]).unwrap().job {
        RaceJob::Game { simulate, .. } => assert_eq!(simulate, Some((1000, 9, 2))),
        _ => panic!("one game"),
    }
    match race(&["--grid", "--length", "20", "--svg", "grid.svg"]).unwrap().job {
        RaceJob::Grid { length, svg, mark } => {
            assert_eq!((length, mark), (20, (7, 1)));
            assert_eq!(svg, Some(PathBuf::from("grid.svg")));
        }
        _ => panic!("the grid"),
    }
    match race(&["--lengths", "8..=12", "--swine", "5"]).unwrap().job {
        RaceJob::Sweep { swine, butcher, lengths } => {
            assert_eq!((swine, butcher, lengths), (5, 1, 8..=12))
        }
        _ => panic!("a sweep"),
    }
}

/// Every refusal of `race` happens here, before any game is analysed: `--lengths 199..201`
/// once computed for 18 s before refusing 201.
#[test]
fn bad_races_are_refused_before_computing() {
    assert!(refused(race(&["--lengths", "199..201"])).contains("at most 200, not 201"));
    assert!(refused(race(&["--length", "201"])).contains("at most 200"));
    assert!(refused(race(&["--grid", "--length", "201"])).contains("at most 200"));
    assert!(refused(race(&["--grid", "--length", "2"])).contains("length of 3 or more"));
    assert!(refused(race(&["--lengths", "12..8"])).contains("must not exceed"));
    assert!(refused(race(&["--lengths", "twelve"])).contains("expected A..B"));
    assert!(refused(race(&["--lengths", "5..9"])).contains("the swine must start before the river"));
    assert!(refused(race(&["--butcher", "7"])).contains("the butcher must start behind the swine"));
    assert!(refused(race(&["--simulate", "0"])).contains("at least one game"));
    assert!(refused(race(&["--simulate", "10", "--threads", "100000"])).contains("--threads takes 0"));
    assert!(refused(race(&["--threads", "2"])).contains("--threads is a setting of the simulation"));
    assert!(refused(race(&["--svg", "x.svg"])).contains("use it with --grid"));
    assert!(refused(race(&["--grid", "--svg", "/no/such/dir/x.svg"])).contains("no directory /no/such/dir"));
    assert!(refused(race(&["--grid", "--svg", "src"])).contains("a directory, not a file name"));
    assert!(unparsed(&["race", "--grid", "--swine", "3"]).contains("cannot be used with"));
    assert!(unparsed(&["race", "--lengths", "8..9", "--simulate", "5"]).contains("cannot be used with"));
}
