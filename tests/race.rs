//! The swine and the butcher (seed 004): the generic engine against an independent recursion
//! written here, the length of the game against direct recursions for its moments, the
//! simulation against the exact values, and the command line's contract and bad input.

mod support;
use pegchain::engine::{Cancel, Mode, Options, backward, propagate};
use pegchain::race::{self, RaceChain, Rules, Setup, Side, Spot};
use pegchain::render::number::decimal;
use predicates::prelude::*;
use rug::Rational;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use support::pegchain;

/// Seed 004's die as the notebook writes it, (swine, butcher) per face, typed in here rather
/// than read from the library's rules file.
const SEED_DIE: [(u32, u32); 6] = [(1, 0), (2, 0), (3, 0), (1, 1), (0, 5), (0, 6)];

fn r(n: i64, d: i64) -> Rational {
    Rational::from((n, d))
}

fn fair(die: &[(u32, u32)]) -> Vec<(u32, u32, Rational)> {
    die.iter().map(|&(s, b)| (s, b, r(1, die.len() as i64))).collect()
}

/// What the recursions below know of a game: the river, and the die with its probabilities.
struct Game {
    river: u32,
    die: Vec<(u32, u32, Rational)>,
}

impl Game {
    fn over(&self, s: u32, b: u32) -> bool {
        s >= self.river || b >= s
    }

    /// The chance of a roll that moves nobody, and the moving faces.
    fn split(&self) -> (Rational, Vec<&(u32, u32, Rational)>) {
        let stay = self.die.iter().filter(|f| f.0 == 0 && f.1 == 0).map(|f| &f.2).sum();
        (stay, self.die.iter().filter(|f| f.0 != 0 || f.1 != 0).collect())
    }

    /// Seed 004's recursion, exactly: F = 1 at the river (checked first), 0 when caught, else
    /// the average over the die; a roll that moves nobody is solved out of F = q F + rest.
    fn swine_wins(&self, s: u32, b: u32, memo: &mut HashMap<(u32, u32), Rational>) -> Rational {
        if s >= self.river {
            return r(1, 1);
        }
        if b >= s {
            return r(0, 1);
        }
        if let Some(v) = memo.get(&(s, b)) {
            return v.clone();
        }
        let (stay, moving) = self.split();
        let mut v = Rational::new();
        for (ds, db, p) in moving {
            v += p * self.swine_wins(s + ds, b + db, memo);
        }
        let v: Rational = v / (1 - stay);
        memo.insert((s, b), v.clone());
        v
    }

    /// (E[T], E[T^2]) for the number of rolls T: from a live state T = G + T', G the rolls
    /// until someone moves, Geometric(p) with E[G] = 1/p and E[G^2] = (1 + q)/p^2.
    fn turn_moments(
        &self,
        s: u32,
        b: u32,
        memo: &mut HashMap<(u32, u32), (Rational, Rational)>,
    ) -> (Rational, Rational) {
        if self.over(s, b) {
            return (r(0, 1), r(0, 1));
        }
        if let Some(v) = memo.get(&(s, b)) {
            return v.clone();
        }
        let (stay, moving) = self.split();
        let go = Rational::from(1 - &stay);
        let mut after = (Rational::new(), Rational::new());
        for (ds, db, p) in moving {
            let (m1, m2) = self.turn_moments(s + ds, b + db, memo);
            after.0 += Rational::from(p * &m1) / &go;
            after.1 += Rational::from(p * &m2) / &go;
        }
        let g1 = Rational::from(1 / &go);
        let g2 = Rational::from(1 + &stay) / Rational::from(go.square_ref());
        let mean = Rational::from(&g1 + &after.0);
        let square: Rational = g2 + Rational::from(&g1 * &after.0) * 2u32 + &after.1;
        memo.insert((s, b), (mean.clone(), square.clone()));
        (mean, square)
    }
}

fn seed_game() -> Game {
    Game { river: 12, die: fair(&SEED_DIE) }
}

fn default_setup() -> Setup {
    Setup::new(12, 7, 1).unwrap()
}

/// A rules file shipped in `data/race/`.
fn data(file: &str) -> PathBuf {
    support::data(&format!("race/{file}"))
}

#[test]
fn the_default_game_is_221_in_432_for_the_swine_by_two_methods() {
    let report = race::analyse(&Rules::default_game(), default_setup()).unwrap();
    assert_eq!(report.swine, r(221, 432));
    assert_eq!(report.butcher, r(211, 432));
    let independent = seed_game().swine_wins(7, 1, &mut HashMap::new());
    assert_eq!(independent, report.swine);
    // The seed's notebook: "The probability that the swine wins is 51.2%."
    assert_eq!(decimal(&report.swine, 3), "0.512");
}

#[test]
fn the_shipped_rules_file_is_the_built_in_game() {
    let file = Rules::load(&data("swine-butcher.json")).unwrap();
    let built_in = Rules::default_game();
    assert_eq!(file.faces, built_in.faces);
    let effects: Vec<(u32, u32)> = file.faces.iter().map(|f| (f.swine, f.butcher)).collect();
    assert_eq!(effects, SEED_DIE);
}

#[test]
fn both_sides_sum_to_one_and_every_start_matches_the_recursion() {
    let rules = Rules::default_game();
    let game = seed_game();
    let mut memo = HashMap::new();
    let grid = race::grid(&rules, 12).unwrap();
    assert_eq!(grid.cells.len(), 10 * 11 / 2);
    for cell in &grid.cells {
        let setup = Setup::new(12, cell.swine, cell.butcher).unwrap();
        let report = race::analyse(&rules, setup).unwrap();
        assert_eq!(Rational::from(&report.swine + &report.butcher), 1, "{setup:?}");
        assert_eq!(report.swine, cell.p, "{setup:?}");
        assert_eq!(cell.p, game.swine_wins(cell.swine, cell.butcher, &mut memo), "{setup:?}");
    }
}

#[test]
fn forward_propagation_equals_backward_recursion_on_the_race_chain() {
    let rules = Rules::default_game();
    for (length, swine, butcher) in [(12, 7, 1), (20, 9, 3), (30, 2, 1)] {
        let chain = RaceChain::new(&rules, length, true);
        let start = Spot::start(&Setup::new(length, swine, butcher).unwrap());
        let classify = |s: Spot| (chain.winner(s), s.moves);
        let forward = propagate(&chain, start, Mode::Probability, classify, Options::default()).unwrap();
        let backward = backward::absorption(&chain, start, classify);
        assert_eq!(forward, backward, "length {length}");
        let total: Rational = forward.values().sum();
        assert_eq!(total, 1);
    }
}

#[test]
fn the_turn_distribution_sums_to_one_and_gives_the_recursions_moments() {
    let report = race::analyse(&Rules::default_game(), default_setup()).unwrap();
    let t = &report.turns;
    let total: Rational = t.rows.iter().map(|row| row.total()).sum();
    assert_eq!(total, 1);
    assert_eq!(t.tail, 0);
    let mean: Rational = t.rows.iter().map(|row| row.total() * row.turns).sum();
    let square: Rational = t.rows.iter().map(|row| row.total() * (row.turns * row.turns)).sum();
    assert_eq!(mean, t.mean);
    assert_eq!(square - Rational::from(mean.square_ref()), t.variance);

    let (m1, m2) = seed_game().turn_moments(7, 1, &mut HashMap::new());
    assert_eq!(t.mean, m1);
    assert_eq!(t.mean, r(7771, 2592));
    assert_eq!(t.variance, m2 - Rational::from(m1.square_ref()));
    assert_eq!(t.variance, r(10_883_783, 6_718_464));
    // Per side: the swine's wins by turn add up to its probability.
    let swine: Rational = t.rows.iter().map(|row| row.swine.clone()).sum();
    assert_eq!(swine, report.swine);
    // 1/6 of games end on the first roll (a 6 takes the butcher onto the swine); none lasts
    // beyond 6 moves (one butcher's 5, then five single steps of the swine).
    assert_eq!(t.rows[0].total(), r(1, 6));
    assert_eq!((t.shortest, t.median, t.percentile_90, t.longest), (1, Some(3), Some(5), Some(6)));
}

/// The seed's die with its 6 replaced by a face that moves nobody.
fn distracted() -> (Rules, Game) {
    let rules = Rules::load(&data("distracted-butcher.json")).unwrap();
    let mut die = SEED_DIE;
    die[5] = (0, 0);
    (rules, Game { river: 12, die: fair(&die) })
}

#[test]
fn a_face_that_moves_nobody_lengthens_the_game_but_does_not_change_who_wins() {
    let (rules, game) = distracted();
    assert_eq!(rules.stay_probability(), r(1, 6));
    let report = race::analyse(&rules, default_setup()).unwrap();
    assert_eq!(report.swine, game.swine_wins(7, 1, &mut HashMap::new()));
    // The same game on a five-sided die without the idle face.
    let five = Rules::from_json(
        r#"{"die": {"sides": 5, "faces": [
            {"face": 1, "swine": 1, "butcher": 0}, {"face": 2, "swine": 2, "butcher": 0},
            {"face": 3, "swine": 3, "butcher": 0}, {"face": 4, "swine": 1, "butcher": 1},
            {"face": 5, "swine": 0, "butcher": 5}]}}"#,
        "five.json",
    )
    .unwrap();
    let short = race::analyse(&five, default_setup()).unwrap();
    assert_eq!(report.swine, short.swine);
    assert_eq!(report.swine, r(2509, 3125));
    // Each move now takes 6/5 rolls on average.
    assert_eq!(report.turns.mean, &short.turns.mean * r(6, 5));

    let (m1, m2) = game.turn_moments(7, 1, &mut HashMap::new());
    assert_eq!(report.turns.mean, m1);
    assert_eq!(report.turns.variance, m2 - Rational::from(m1.square_ref()));
    // Unbounded: the listed distribution plus its exact tail is the whole of it.
    let t = &report.turns;
    assert_eq!(t.longest, None);
    let listed: Rational = t.rows.iter().map(|row| row.total()).sum();
    assert_eq!(listed + &t.tail, 1);
    assert!(t.tail > 0 && t.tail < r(1, 1000));
}

#[test]
fn a_swept_length_equals_the_same_game_analysed_alone() {
    let rules = Rules::default_game();
    let sweep = race::sweep(&rules, 7, 1, 8..=14, &pegchain::Cancel::new()).unwrap();
    assert_eq!(sweep.len(), 7);
    assert_eq!(sweep[4], race::analyse(&rules, default_setup()).unwrap());
    // A longer run to the river is worse for the swine.
    assert!(sweep.windows(2).all(|w| w[0].swine > w[1].swine));
    let game = Game { river: 14, die: fair(&SEED_DIE) };
    assert_eq!(sweep[6].swine, game.swine_wins(7, 1, &mut HashMap::new()));
}

#[test]
fn the_seeded_simulation_lands_within_four_standard_errors() {
    for (rules, golden) in [(Rules::default_game(), (102_171, 599_491)), (distracted().0, (160_758, 837_922))]
    {
        let exact = race::analyse(&rules, default_setup()).unwrap();
        let sim = race::simulate(&rules, default_setup(), (200_000, 4, 2), &|_| {}, &Cancel::new()).unwrap();
        let check = sim.check(&exact);
        assert!(check.z.unwrap().abs() < 4.0, "{check:?}");
        assert!(check.mean_turns_z.unwrap().abs() < 4.0, "{check:?}");
        // The mean's 95% interval, from the games' own spread, is about 1.96 standard errors
        // of the exact variance either side of the mean.
        let (lo, hi) = check.mean_turns_ci95.unwrap();
        let half = 1.96 * (exact.turns.variance.to_f64() / 200_000.0).sqrt();
        assert!(((hi - lo) / 2.0 / half - 1.0).abs() < 0.02, "{check:?}");
        assert!(((lo + hi) / 2.0 - check.mean_turns).abs() < 1e-12, "{check:?}");
        let p = exact.swine.to_f64();
        assert!(check.interval.0 < p + 0.01 && p - 0.01 < check.interval.1);
        // The fixed seed's exact figures, identical for any thread count.
        assert_eq!((sim.swine_wins, sim.turns), golden, "{}", rules.name);
        assert_eq!(
            sim,
            race::simulate(&rules, default_setup(), (200_000, 4, 1), &|_| {}, &Cancel::new()).unwrap()
        );
    }
}

#[test]
fn reaching_the_river_is_checked_before_being_caught() {
    // One face moves the swine 1 and the butcher 10: from 11 the swine escapes although the
    // butcher passes it; from 10 it is caught.
    let rules =
        Rules::from_json(r#"{"die": {"sides": 1, "faces": [{"face": 1, "swine": 1, "butcher": 10}]}}"#, "t")
            .unwrap();
    assert_eq!(race::swine_wins(&rules, Setup::new(12, 11, 1).unwrap()).unwrap(), 1);
    assert_eq!(race::swine_wins(&rules, Setup::new(12, 10, 1).unwrap()).unwrap(), 0);
    let chain = RaceChain::new(&rules, 12, false);
    let ends = backward::absorption(&chain, Spot { swine: 11, butcher: 1, moves: 0 }, |s| chain.winner(s));
    assert_eq!(ends.keys().copied().collect::<Vec<_>>(), [Side::Swine]);
}

// The command line.

/// The JSON document of `pegchain race ARGS`.
fn json(args: &[&str]) -> Value {
    support::json(&[&["race"], args].concat())
}

#[test]
fn race_prints_the_exact_answer_and_the_length_of_the_game() {
    pegchain().arg("race").assert().success().stdout(
        predicate::str::contains("swine       0.511574  221/432")
            .and(predicate::str::contains("mean      7771/2592 (2.99807)"))
            .and(predicate::str::contains("shortest 1, median 3, 90th percentile 5, longest 6")),
    );
    let v = json(&[]);
    assert_eq!(v["swine_wins"]["fraction"], "221/432");
    assert_eq!(v["butcher_wins"]["fraction"], "211/432");
    assert_eq!(v["turns"]["mean"]["fraction"], "7771/2592");
    assert_eq!(v["turns"]["longest"], 6);
    assert_eq!(v["turns"]["distribution"].as_array().unwrap().len(), 6);
    assert_eq!(v["turns"]["distribution"][0]["probability"]["fraction"], "1/6");
    let v = json(&["--rules", data("distracted-butcher.json").to_str().unwrap()]);
    assert_eq!(v["swine_wins"]["fraction"], "2509/3125");
    assert_eq!(v["turns"]["longest"], Value::Null);
}

#[test]
fn race_simulates_with_a_seed() {
    let v = json(&["--simulate", "200000", "--seed", "4"]);
    assert_eq!(v["simulation"]["swine_wins"]["wins"], 102_171);
    let threads = json(&["--simulate", "200000", "--seed", "4", "--threads", "1"]);
    assert_eq!(v["simulation"], threads["simulation"]);
}

/// `--seed` and `--threads` set the simulation: without `--simulate` they were ignored (`race
/// --seed 5` printed the exact report, exit 0, as if the seed had been used). Now refused; with
/// `--simulate` the default seed is still 4.
#[test]
fn seed_and_threads_without_a_simulation_are_refused() {
    let refused: [(&[&str], &str); 4] = [
        (&["--seed", "5"], "--seed"),
        (&["--threads", "2"], "--threads"),
        (&["--grid", "--seed", "5"], "--seed"),
        (&["--lengths", "8..10", "--threads", "1"], "--threads"),
    ];
    for (args, flag) in refused {
        fails_with(args, &format!("{flag} is a setting of the simulation: use it with --simulate N"));
    }
    let v = json(&["--simulate", "200000"]);
    assert_eq!(v["simulation"]["seed"], 4);
    assert_eq!(v["simulation"]["swine_wins"]["wins"], 102_171);
}

/// A die of one face said "Die: 1 faces, fair: ...".
#[test]
fn a_die_of_one_face_is_said_in_the_singular() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("one-face.json");
    std::fs::write(&path, r#"{"die": {"sides": 1, "faces": [{"face": 1, "swine": 1, "butcher": 0}]}}"#)
        .unwrap();
    pegchain()
        .args(["race", "--rules", path.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("\nDie: 1 face, fair: 1 swine +1.\n"));
}

#[test]
fn race_grid_as_table_csv_and_svg() {
    pegchain()
        .args(["race", "--grid"])
        .assert()
        .success()
        .stdout(predicate::str::contains("7      0.5116  0.4349"));
    let out = pegchain().args(["race", "--grid", "--csv"]).output().unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    assert_eq!(csv.lines().count(), 1 + 55);
    assert!(csv.contains("\n12,7,1,221/432,0.5115740740740741\n"), "{csv}");
    let svg = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("race-grid.svg");
    pegchain().args(["race", "--grid", "--svg"]).arg(&svg).assert().success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    assert_eq!(text.matches("<title>").count(), 55);
    assert!(text.contains("<title>swine 7, butcher 1: 221/432 = 0.511574</title>"));
    let v = json(&["--grid", "--length", "5"]);
    assert_eq!(v["cells"].as_array().unwrap().len(), 6);
}

#[test]
fn race_game_as_markdown_and_csv() {
    let md = support::stdout(&["race", "--markdown", "--simulate", "1000"]);
    assert!(md.starts_with("# The swine and the butcher"), "{md}");
    assert!(md.contains("| swine | 0.511574 | 221/432 |"), "{md}");
    assert!(md.contains("## Simulation: 1,000 games, seed 4"), "{md}");
    let csv = support::stdout(&["race", "--csv", "--simulate", "1000"]);
    assert!(csv.starts_with("quantity,side,turns,exact,decimal\n"), "{csv}");
    assert!(csv.contains("\nwin,swine,,221/432,0.5115740740740741\n"), "{csv}");
    assert!(csv.contains("\nmean_turns,,,7771/2592,"), "{csv}");
    // An exact 0 has the decimal JSON gives it, 0.0, as in every other command's CSV.
    assert!(csv.contains("\nstay_probability,,,0,0.0\n"), "{csv}");
    assert!(csv.contains("\nsimulated_games,,,1000,1000\n"), "{csv}");
}

#[test]
fn race_sweeps_board_lengths() {
    let v = json(&["--lengths", "8..12"]);
    let lengths = v["lengths"].as_array().unwrap();
    assert_eq!(lengths.len(), 5);
    assert_eq!(lengths[0]["swine_wins"]["fraction"], "7/9");
    assert_eq!(lengths[4]["swine_wins"]["fraction"], "221/432");
    let out = pegchain().args(["race", "--lengths", "8..=12", "--csv"]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 6);
}

/// A rules file in the test's scratch directory.
fn rules_file(name: &str, faces: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, format!(r#"{{"die": {{"sides": 3, "faces": [{faces}]}}}}"#)).unwrap();
    path.to_str().unwrap().to_string()
}

fn fails_with(args: &[&str], message: &str) {
    support::fails_with(&[&["race"], args].concat(), message);
}

#[test]
fn bad_race_input_gets_one_line_and_exit_code_2() {
    fails_with(&["--butcher", "7"], "the butcher must start behind the swine: butcher on 7, swine on 7");
    fails_with(&["--butcher", "9"], "behind the swine");
    fails_with(&["--swine", "12"], "the swine must start before the river: swine on 12, river at 12");
    fails_with(&["--swine", "13"], "before the river");
    fails_with(&["--length", "1"], "the board length must be at least 2, not 1");
    fails_with(&["--length", "201", "--swine", "7"], "at most 200");
    // Refused at once, before 199 and 200 are analysed (once 18 s of work).
    fails_with(&["--lengths", "199..201"], "the board length must be at most 200, not 201");
    fails_with(&["--grid", "--svg", "/no/such/dir/grid.svg"], "no directory /no/such/dir");
    fails_with(
        &["--swine", "-3"],
        "invalid value '-3' for '--swine <SWINE>': a whole number is needed, not a negative one",
    );
    // A single race of length 2 is taken with the butcher on square 0, which the grid leaves
    // out: it said only "has no pair of start squares".
    fails_with(
        &["--grid", "--length", "2"],
        "a board of length 2 has no pair of start squares on it: the grid's squares run from 1 (square \
         0, just off the board, is left out), the butcher behind the swine and the swine before the \
         river, so the grid needs a length of 3 or more",
    );
    pegchain().args(["race", "--length", "2", "--swine", "1", "--butcher", "0"]).assert().success();
    fails_with(&["--lengths", "12..8"], "must not exceed");
    fails_with(&["--lengths", "twelve"], "expected A..B");
    // A length past any u32 is too large, not a malformed range.
    fails_with(
        &["--lengths", "13..18446744073709551615"],
        "the board length must be at most 200, not 18446744073709551615",
    );
    fails_with(&["--lengths", "5..9"], "before the river");
    fails_with(&["--simulate", "0"], "at least one game");
    fails_with(&["--simulate", "10", "--threads", "100000"], "--threads takes 0 (one per core) to 1024");
    fails_with(&["--svg", "x.svg"], "use it with --grid");
    fails_with(&["--grid", "--swine", "3"], "cannot be used with");
    fails_with(&["--rules", "/nonexistent/rules.json"], "cannot read it");

    let f1 = r#"{"face": 1, "swine": 1, "butcher": 0}"#;
    let f2 = r#"{"face": 2, "swine": 0, "butcher": 3}"#;
    let missing = rules_file("missing.json", &format!("{f1}, {f2}"));
    fails_with(&["--rules", &missing], "face 3 of 3 is missing");
    let negative =
        rules_file("negative.json", &format!(r#"{f1}, {f2}, {{"face": 3, "swine": -1, "butcher": 0}}"#));
    fails_with(&["--rules", &negative], "face 3 moves the swine by -1: a move must be zero or more");
    // A move too large for serde's i64 was refused as "invalid type: floating point"; one past
    // 64 bits was then said as a double, "by 1.8446744073709552e+19".
    for (moved, why) in [
        (
            "99999999999999999999",
            "by more than 18446744073709551615: out of range, a move is at most 4294967295 squares",
        ),
        (
            "18446744073709551616",
            "by more than 18446744073709551615: out of range, a move is at most 4294967295 squares",
        ),
        ("-99999999999999999999", "by less than -9223372036854775808: a move must be zero or more"),
        ("4294967296", "by 4294967296: out of range, a move is at most 4294967295 squares"),
        ("1.5", "by 1.5: a move is a whole number of squares"),
    ] {
        let far =
            rules_file("far.json", &format!(r#"{f1}, {f2}, {{"face": 3, "swine": {moved}, "butcher": 0}}"#));
        fails_with(&["--rules", &far], &format!("face 3 moves the swine {why}"));
    }
    let sum = rules_file(
        "sum.json",
        r#"{"face": 1, "swine": 1, "butcher": 0, "probability": "1/2"},
           {"face": 2, "swine": 0, "butcher": 3, "probability": "1/4"},
           {"face": 3, "swine": 2, "butcher": 0, "probability": "1/8"}"#,
    );
    fails_with(&["--rules", &sum], "the face probabilities sum to 7/8, not 1");
    // A sum of 600 digits is abbreviated, as text output abbreviates a long fraction.
    let tiny = rules_file(
        "tiny.json",
        r#"{"face": 1, "swine": 1, "butcher": 0, "probability": "1e-300"},
           {"face": 2, "swine": 0, "butcher": 3, "probability": "1/2"},
           {"face": 3, "swine": 2, "butcher": 0, "probability": "1/2"}"#,
    );
    fails_with(
        &["--rules", &tiny],
        "the face probabilities sum to 100000…(301 digits)/100000…(301 digits), not 1",
    );
    // The engine weighs faces by 32-bit numbers: 10^9 is a common denominator it takes, 10^10
    // one it refuses, naming the limit the README gives.
    let billionth = rules_file(
        "billionth.json",
        r#"{"face": 1, "swine": 1, "butcher": 0, "probability": "1e-9"},
           {"face": 2, "swine": 0, "butcher": 3, "probability": "0.5"},
           {"face": 3, "swine": 2, "butcher": 0, "probability": "0.499999999"}"#,
    );
    let v = support::json(&["race", "--rules", &billionth]);
    assert_eq!(v["die"]["faces"][0]["probability"]["fraction"], "1/1000000000", "{v}");
    let finer = rules_file(
        "finer.json",
        r#"{"face": 1, "swine": 1, "butcher": 0, "probability": "1e-10"},
           {"face": 2, "swine": 0, "butcher": 3, "probability": "0.5"},
           {"face": 3, "swine": 2, "butcher": 0, "probability": "0.4999999999"}"#,
    );
    fails_with(
        &["--rules", &finer],
        "the probabilities' common denominator 10000000000 is too large (at most 4294967295)",
    );
    let long = "r".repeat(100_000);
    fails_with(
        &["--rules", &long],
        &format!("rules file {}... (100000 characters): cannot read it", "r".repeat(40)),
    );
    let broken = rules_file("broken.json", "{");
    fails_with(&["--rules", &broken], "broken.json");
    let idle = rules_file(
        "idle.json",
        r#"{"face": 1, "swine": 0, "butcher": 0}, {"face": 2, "swine": 0, "butcher": 0},
           {"face": 3, "swine": 0, "butcher": 0}"#,
    );
    fails_with(&["--rules", &idle], "no face moves anyone");
}

#[test]
fn only_the_distances_matter_so_a_longer_board_shifts_the_grid() {
    // The swine's chance depends on its distance to the river and the butcher's distance
    // behind it, not on where the board starts.
    let rules = Rules::default_game();
    let (short, long) = (race::grid(&rules, 12).unwrap(), race::grid(&rules, 20).unwrap());
    for cell in &short.cells {
        let shifted = long.cells.iter().find(|c| (c.swine, c.butcher) == (cell.swine + 8, cell.butcher + 8));
        assert_eq!(Some(&cell.p), shifted.map(|c| &c.p), "{cell:?}");
    }
}

#[test]
fn a_likely_idle_face_answers_at_once_with_a_capped_list_and_its_exact_tail() {
    // Seed 004's die scaled to 1/1000 of the rolls, and a seventh face that moves nobody with
    // probability 999/1000 (once: nothing printed in 30 s).
    let mut faces: Vec<String> = [(1, 0), (2, 0), (3, 0), (1, 1), (0, 5), (0, 6)]
        .iter()
        .enumerate()
        .map(|(i, (s, b))| {
            format!(r#"{{"face": {}, "swine": {s}, "butcher": {b}, "probability": "1/6000"}}"#, i + 1)
        })
        .collect();
    faces.push(r#"{"face": 7, "swine": 0, "butcher": 0, "probability": "999/1000"}"#.into());
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("idle-999.json");
    std::fs::write(&path, format!(r#"{{"die": {{"sides": 7, "faces": [{}]}}}}"#, faces.join(","))).unwrap();
    let rules = Rules::load(&path).unwrap();
    assert_eq!(rules.stay_probability(), r(999, 1000));

    let idle = race::analyse(&rules, default_setup()).unwrap();
    let plain = race::analyse(&Rules::default_game(), default_setup()).unwrap();
    assert_eq!(idle.swine, plain.swine, "who wins does not depend on the idle face");
    // E[T] = E[K] / (1 - q): each move waits 1000 rolls on average.
    assert_eq!(idle.turns.mean, &plain.turns.mean * r(1000, 1));
    let t = &idle.turns;
    assert_eq!(t.rows.len(), race::turns::MAX_ROWS);
    let listed: Rational = t.rows.iter().map(|row| row.total()).sum();
    assert_eq!(listed + &t.tail, 1, "the tail is exact: the list and it are the whole");
    assert!(t.tail > r(1, 2), "200 turns are a fifth of one move's wait: most games last longer");
    assert_eq!((t.median, t.percentile_90), (None, None));

    // The command line, in every format.
    let file = path.to_str().unwrap();
    let v = json(&["--rules", file]);
    assert_eq!(v["swine_wins"]["fraction"], "221/432");
    assert_eq!(v["turns"]["mean"]["fraction"], "971375/324", "7771/2592 times 1000");
    assert_eq!(v["turns"]["distribution"].as_array().unwrap().len(), race::turns::MAX_ROWS);
    assert_eq!(v["turns"]["tail"]["fraction"], t.tail.to_string());
    assert!(v["turns"].get("median").is_none());
    let text = pegchain().args(["race", "--rules", file]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("median > 200, 90th percentile > 200"), "{text}");
    assert!(text.contains("P(more than 200 turns) = "), "{text}");
    assert!(text.contains("The list stops after 200 rows, at 200 turns"), "{text}");
    // Games of 3 turns at the shortest: the 200 rows end at 202 turns (the note said 200).
    let slow = rules_file(
        "slow.json",
        r#"{"face": 1, "swine": 1, "butcher": 0, "probability": "1/2000"},
           {"face": 2, "swine": 0, "butcher": 2, "probability": "1/2000"},
           {"face": 3, "swine": 0, "butcher": 0, "probability": "999/1000"}"#,
    );
    let text = pegchain().args(["race", "--rules", &slow]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("median > 202, 90th percentile > 202"), "{text}");
    assert!(text.contains("The list stops after 200 rows, at 202 turns"), "{text}");
    let csv = pegchain().args(["race", "--rules", file, "--csv"]).output().unwrap();
    let csv = String::from_utf8(csv.stdout).unwrap();
    assert!(csv.contains("more_turns_than,,200,"), "{csv}");
}

/// One game's turns have no sample variance: the mean's 95% interval was [4.000, 4.000], a
/// certainty no single game gives, beside a z from the exact spread. Now there is none, as
/// for the mean of pegs left of one `simulate` game.
#[test]
fn a_mean_of_one_game_has_no_interval() {
    let run = |args: &[&str]| {
        let out = pegchain().args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&["race", "--simulate", "1", "--seed", "7"]);
    assert!(text.contains("\nmean turns               4.000  none (1 game)     2.99807  +0.787\n"), "{text}");
    let v: Value = serde_json::from_str(&run(&["race", "--simulate", "1", "--seed", "7", "--json"])).unwrap();
    let mean = &v["simulation"]["mean_turns"];
    assert_eq!((mean["estimate"].as_f64(), mean.get("ci95")), (Some(4.0), None), "{mean}");
    let pegs = run(&["simulate", "--games", "1", "--start", "A"]);
    assert!(
        pegs.contains(
            "Expected pegs left: 3.00000 in the game, no interval from one game; exact 3.91620, z = -0.870."
        ),
        "{pegs}"
    );
    // Two games have a sample variance, and so an interval.
    assert!(run(&["race", "--simulate", "2", "--seed", "7"]).contains("[4.000, 4.000]"));
    // A game's simulation of one run has none either, and its heading says "1 run" (it said "1 runs").
    let craps = run(&["game", "craps", "--simulate", "1"]);
    assert!(craps.contains("Simulation: 1 run, seed 2015\n"), "{craps}");
    assert!(!craps.contains("95% interval 5.00000 to 5.00000"), "{craps}");
}
