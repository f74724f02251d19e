//! `exact`, `count`, `ends`, `solve` and `simulate` from a position (`--position`, or
//! `--start H --moves ...`), against independent methods: the coach's backward pass over raw
//! positions (no symmetry reduction; its own layers and arithmetic), the engine without
//! symmetry, the start-hole path of the same engine, and the solver's exhaustive search.

mod support;
use pegchain::Policy;
use pegchain::solitaire::board::builtin;
use pegchain::solitaire::coach::Coach;
use pegchain::solitaire::position::{parse_position, play};
use serde_json::Value;
use support::{fails_with, json};

/// Positions of the 15- and 21-hole triangles: after moves from a start, one fixed by every
/// symmetry (the three corners empty), one fixed by a reflection (two corners empty), pegs on
/// two edges, a position with no jump left, and a single-vacancy start.
const POSITIONS: &[(&str, &str)] = &[
    ("triangle5", "A,B,F,G,H,I,J,K,L,M,N,O"),
    ("triangle5", "B,C,D,E,F,G,H,I,J,L,M,N"),
    ("triangle5", "A,B,D,G,K,L,M,N,O"),
    ("triangle5", "A,B,C,N,O"),
    ("triangle5", "A,O"),
    ("triangle6", "B,C,D,E,F,G,H,I,J,K,L,M,N,O,P,Q,R,S,T"),
    ("triangle6", "A,B,C,D,E,F,H,I,J,K,L,M,N,O,P,Q,R,S,T,U"),
];

fn fraction(v: &Value) -> &str {
    v["fraction"].as_str().unwrap()
}

#[test]
fn exact_from_a_position_equals_the_coachs_odds_and_the_unreduced_engine() {
    for &(board_name, pegs) in POSITIONS {
        let board = builtin(board_name).unwrap();
        let pos = parse_position(&board, pegs).unwrap();
        let advice = Coach::new(&board, Policy::Uniform).advise(pos).unwrap();
        let odds = &advice.odds;
        let v = json(&["exact", "--board", board_name, "--position", pegs]);
        assert_eq!(v["command"], "exact");
        assert_eq!(v["pegs"], pos.count());
        assert_eq!(fraction(&v["win"]), odds.one_peg.to_string(), "{board_name} {pegs}");
        assert_eq!(fraction(&v["expected_pegs_left"]), odds.expected_pegs_left.to_string());
        let by_pegs: Vec<(String, String)> =
            advice.pegs_left.iter().map(|(n, p)| (n.to_string(), p.to_string())).collect();
        let shown: Vec<(String, String)> = v["pegs_left"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(n, p)| (n.clone(), fraction(p).to_string()))
            .collect();
        assert_eq!(shown, by_pegs, "{board_name} {pegs}");
        // Reduced by the position's own symmetries or not at all: the same document but
        // for the classes counted.
        let mut plain = json(&["exact", "--board", board_name, "--position", pegs, "--no-symmetry"]);
        let mut reduced = v.clone();
        for doc in [&mut plain, &mut reduced] {
            doc["positions"]["up_to_symmetry"] = Value::Null;
            for layer in doc["positions"]["by_layer"].as_array_mut().unwrap() {
                layer["up_to_symmetry"] = Value::Null;
            }
        }
        assert_eq!(plain, reduced, "{board_name} {pegs}");
    }
}

#[test]
fn count_and_ends_from_a_position_equal_the_coachs_winning_continuations() {
    for &(board_name, pegs) in POSITIONS {
        let board = builtin(board_name).unwrap();
        let pos = parse_position(&board, pegs).unwrap();
        let prospects = Coach::new(&board, Policy::Uniform).prospects_of(pos).unwrap();
        let expected: Vec<(String, String)> = prospects
            .wins_by_hole
            .iter()
            .map(|(h, n)| (board.hole_name(*h).to_string(), n.to_string()))
            .collect();
        for command in ["count", "ends"] {
            let v = json(&[command, "--board", board_name, "--position", pegs]);
            assert_eq!(v["command"], command);
            assert_eq!(v["wins"].as_str().unwrap(), prospects.winning_continuations().to_string());
            let shown: Vec<(String, String)> = v["wins_by_finish"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(h, n)| (h.clone(), n.as_str().unwrap().to_string()))
                .collect();
            assert_eq!(shown, expected, "{command} {board_name} {pegs}");
        }
    }
}

#[test]
fn a_start_played_with_no_moves_is_the_start_hole() {
    for start in ["A", "B", "D", "E"] {
        let by_hole = json(&["exact", "--start", start]);
        let s = &by_hole["starts"][0];
        let by_position = json(&["exact", "--start", start, "--moves", ""]);
        for key in ["win", "expected_pegs_left", "pegs_left", "finish", "positions"] {
            assert_eq!(by_position[key], s[key], "{start} {key}");
        }
        let games = json(&["count", "--start", start]);
        let from = json(&["count", "--start", start, "--moves", ""]);
        assert_eq!(from["games"], games["starts"][0]["games"]);
        assert_eq!(from["wins_by_finish"], games["starts"][0]["wins_by_finish"]);
    }
}

#[test]
fn moves_lead_to_the_position_they_name_and_solve_finds_every_win_from_it() {
    let board = builtin("triangle5").unwrap();
    let moves = "F-C-A,D-E-F,A-B-D";
    let pos = play(&board, 0, moves).unwrap();
    let pegs = board.hole_list(pos).join(",");
    let by_moves = json(&["exact", "--start", "A", "--moves", moves]);
    let by_pegs = json(&["exact", "--position", &pegs]);
    assert_eq!(by_moves, by_pegs);
    let wins = json(&["count", "--start", "A", "--moves", moves])["wins"].as_str().unwrap().to_string();
    assert_eq!(wins, "1402", "the coach's figure for A-B-D after F-C-A, D-E-F");
    let solved = json(&["solve", "--start", "A", "--moves", moves, "--all"]);
    let found = solved["solutions"].as_array().map_or(0, |s| s.len());
    assert_eq!(found.to_string(), wins);
    let solved = json(&["solve", "--position", &pegs, "--all"]);
    assert_eq!(solved["solutions"].as_array().map_or(0, |s| s.len()).to_string(), wins);
}

#[test]
fn simulate_from_a_position_stands_beside_its_exact_values() {
    // From a start played with no moves: the very games `simulate` plays from that hole, for
    // any thread count.
    let mut from_hole =
        json(&["simulate", "--start", "D", "--games", "300000", "--seed", "11"])["starts"][0].clone();
    let labels = from_hole.as_object_mut().unwrap();
    assert_eq!((labels.remove("start"), labels.remove("class")), (Some("D".into()), Some(3.into())));
    for threads in ["1", "2"] {
        let from_position = json(&[
            "simulate",
            "--start",
            "D",
            "--moves",
            "",
            "--games",
            "300000",
            "--seed",
            "11",
            "--threads",
            threads,
        ]);
        assert_eq!(from_position["overall"], from_hole, "{threads} threads");
    }
    // From a position after moves: its exact values are `exact --position`'s, and the games
    // agree with them.
    for (start, moves) in [("A", "F-C-A,D-E-F"), ("E", "N-I-E,G-H-I")] {
        let v = json(&["simulate", "--start", start, "--moves", moves, "--games", "400000", "--seed", "5"]);
        let exact = json(&["exact", "--start", start, "--moves", moves]);
        assert_eq!(v["command"], "simulate");
        assert_eq!(v["position"], exact["position"]);
        let overall = &v["overall"];
        assert_eq!(overall["exact"], exact["win"]);
        assert_eq!(overall["pegs_left"], exact["pegs_left"]);
        assert_eq!(overall["games"], 400_000);
        let tallied: u64 =
            overall["games_by_pegs_left"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!(tallied, 400_000);
        let z = overall["z"].as_f64().unwrap();
        assert!(z.abs() < 4.0, "{start} {moves}: z = {z}");
        assert!(overall["chi_square"]["p_value"].as_f64().unwrap() > 1e-4);
    }
}

/// From a game of the English board begun in the centre, one peg can end only in d1, a4, d4,
/// g4 or d7, and every position of two pegs that can still end with one is a pair such as
/// {d2, d3}, with one jump into the centre and one into the edge beside it: half of the
/// winning games, and half of a random player's probability of winning under every policy,
/// end in the centre (README, "Big boards"). Checked after eight jumps of a solution, where
/// wins end in d4 and d7.
#[test]
fn a_win_in_the_centres_game_ends_in_the_centre_exactly_half_the_time() {
    let moves = "d2-d3-d4,b3-c3-d3,c1-c2-c3,e1-d1-c1,d3-c3-b3,a3-b3-c3,e3-e2-e1,g3-f3-e3";
    let from = ["--board", "english", "--start", "d4", "--moves", moves];
    let exact = |v: &Value| fraction(v).parse::<rug::Rational>().unwrap();
    for policy in ["uniform", "peg-first", "hole-first"] {
        let v = json(&[&["exact", "--policy", policy][..], &from].concat());
        let win = exact(&v["win"]);
        assert!(win > 0, "{policy}");
        let finish = v["finish"].as_object().unwrap();
        assert_eq!(finish.keys().collect::<Vec<_>>(), ["d4", "d7"], "{policy}");
        assert_eq!(exact(&finish["d4"]) * 2u32, win, "{policy}");
        assert_eq!(exact(&finish["d7"]) * 2u32, win, "{policy}");
    }
    let v = json(&[&["count"][..], &from].concat());
    let wins: u64 = v["wins"].as_str().unwrap().parse().unwrap();
    let by_finish = &v["wins_by_finish"];
    assert_eq!(by_finish.as_object().unwrap().len(), 2);
    assert!(wins > 0);
    assert_eq!(by_finish["d4"].as_str().unwrap().parse::<u64>().unwrap() * 2, wins);
}

#[test]
fn bad_positions_get_one_line() {
    fails_with(
        &["exact", "--start", "A", "--moves", "F-C-A,F-C-A"],
        "jump 2 (F-C-A) is not legal here: no peg in F",
    );
    // A jump left out of the list is named, not skipped (the coach answered the position
    // after F-C-A and D-E-F for "F-C-A,,D-E-F").
    fails_with(
        &["coach", "--start", "A", "--moves", "F-C-A,,D-E-F"],
        "jump 2 of the jumps played is empty: jumps are separated by single commas",
    );
    // So is a hole left out of a position's list (the coach answered "A,,C" as A and C).
    for (command, position) in [("coach", "A,,C"), ("exact", "A, ,C"), ("count", "A,C,")] {
        fails_with(
            &[command, "--position", position],
            "the position's list has an empty item: holes are separated by single commas",
        );
    }
    fails_with(&["exact", "--moves", "F-C-A"], "--moves plays from one start hole");
    fails_with(&["count", "--start", "A,B", "--moves", "F-C-A"], "--moves plays from one start hole");
    fails_with(&["exact", "--position", "A,Q"], "has no hole \"Q\"");
    fails_with(&["exact", "--position", "A,A"], "names hole A twice");
    fails_with(&["count", "--position", &[". "; 15].concat()], "the position has no peg");
    // A drawing is the board's own: a cell for each hole (a cell left out was an empty hole).
    fails_with(
        &["count", "--position", ". . ."],
        "the drawn position has 3 cells where board triangle5 has 15 holes",
    );
    let swapped = "    B\n   A .\n  . . F\n G H I J\nK L M N O";
    fails_with(
        &["coach", "--position", swapped],
        "cell 1 of the drawn position is B where board triangle5 has hole A",
    );
    fails_with(&["exact", "--start", "A", "--position", "A,B"], "cannot be used with");
    fails_with(
        &["ends", "--position", "A,B,C", "--whole-group"],
        "--whole-group is a method for start holes",
    );
    fails_with(
        &["exact", "--position", "A,B,C", "--checkpoint", "x.ck"],
        "a run from a position is not saved",
    );
    fails_with(&["solve", "--start", "A", "--moves", "A-B-D"], "is not legal here");
    fails_with(&["solve", "--moves", "F-C-A"], "--start");
    // A command that plays from one start hole says so to a list or `all` (it said `board
    // triangle5 has no hole "A,B"`).
    for command in ["solve", "coach"] {
        for (start, not) in [("A,B", "a list"), ("all", "all")] {
            fails_with(
                &[command, "--start", start],
                &format!("pegchain: --start {start}: this command plays from one start hole, not {not}"),
            );
        }
    }
    // Jumps given with a position are refused, not dropped, by every command that takes both.
    for command in ["exact", "count", "ends", "simulate", "solve", "coach"] {
        fails_with(
            &[command, "--position", "B,C,D,E,F,G,H,I,J,K,L,M,N,O", "--moves", "F-C-A"],
            "cannot be used with",
        );
    }
    fails_with(&["simulate", "--moves", "F-C-A"], "--moves plays from one start hole");
    fails_with(
        &["simulate", "--start", "A", "--moves", "F-C-A,D-E-F,F-C-A"],
        "jump 3 (F-C-A) is not legal here",
    );
    fails_with(&["simulate", "--position", "A,B", "--per-class", "10"], "cannot be used with");
    fails_with(&["simulate", "--position", "A,B", "--resume", "x.ck"], "a run from a position is not saved");
}
