//! The coach against independent methods: every jump's odds against the layered forward
//! engine started from the position after it (no symmetry, raw positions), its winning
//! continuations against the engine's path counts, the average over jumps against the
//! position's own odds, and the start position against `exact`.

mod support;
use pegchain::Policy;
use pegchain::engine::{Mode, Options, propagate};
use pegchain::solitaire::Pegs;
use pegchain::solitaire::board::{Board, SymmetryGroup, builtin};
use pegchain::solitaire::chain::{End, PegChain};
use pegchain::solitaire::coach::Coach;
use pegchain::solitaire::moves::MoveTable;
use pegchain::solitaire::position::play;
use rug::{Integer, Rational};
use support::{fails_with, json, stdout};

/// P(n pegs left), and winning paths by finish hole.
type Figures = (Vec<(u32, Rational)>, Vec<(u8, Integer)>);

/// The figures from `pos`, by the layered engine.
fn by_the_engine(board: &Board, pos: Pegs, policy: Policy) -> Figures {
    let moves = MoveTable::new(board);
    let group = SymmetryGroup::trivial(board.hole_count());
    let chain = PegChain::new(&moves, policy, &group);
    let p = propagate(&chain, pos, Mode::Probability, End::of, Options::default()).unwrap();
    let mut pegs: Vec<(u32, Rational)> = Vec::new();
    for (end, q) in p {
        match pegs.iter_mut().find(|(n, _)| *n == end.pegs()) {
            Some(e) => e.1 += q,
            None => pegs.push((end.pegs(), q)),
        }
    }
    pegs.sort_by_key(|e| e.0);
    let paths = propagate(&chain, pos, Mode::Paths, End::of, Options::default()).unwrap();
    let wins = paths
        .into_iter()
        .filter_map(|(end, n)| match end {
            End::Finish(h) => Some((h, n.numer().clone())),
            End::Pegs(_) => None,
        })
        .collect();
    (pegs, wins)
}

#[test]
fn every_jumps_odds_and_continuations_agree_with_the_layered_engine() {
    let board = builtin("triangle5").unwrap();
    let positions = [(0u8, ""), (0, "F-C-A,D-E-F"), (4, "L-H-E,N-M-L"), (3, "A-B-D"), (7, "")];
    for policy in [Policy::Uniform, Policy::PegFirst] {
        let coach = Coach::new(&board, policy);
        for (start, moves) in positions {
            let pos = play(&board, start, moves).unwrap();
            let advice = coach.advise(pos).unwrap();
            assert!(!advice.jumps.is_empty());
            let table = MoveTable::new(&board);
            for j in &advice.jumps {
                let index = table
                    .jumps()
                    .iter()
                    .position(|x| (x.from, x.over, x.to) == (j.from, j.over, j.to))
                    .unwrap();
                let child = table.apply(pos, index);
                let (pegs, wins) = by_the_engine(&board, child, policy);
                let one = pegs.iter().find(|(n, _)| *n == 1).map_or(Rational::new(), |e| e.1.clone());
                let expected: Rational = pegs.iter().map(|(n, p)| Rational::from(p * *n)).sum();
                assert_eq!(j.odds.one_peg, one, "{start} {moves} {policy}");
                assert_eq!(j.odds.expected_pegs_left, expected, "{start} {moves} {policy}");
                assert_eq!(j.prospects.wins_by_hole, wins, "{start} {moves}");
            }
            // The position's own distribution (the coach's forward pass) equals the engine's.
            assert_eq!(advice.pegs_left, by_the_engine(&board, pos, policy).0, "{start} {moves} {policy}");
            // Under uniform play the position's odds are the average of its jumps' odds.
            if policy == Policy::Uniform {
                let sum: Rational = advice.jumps.iter().map(|j| j.odds.one_peg.clone()).sum();
                assert_eq!(sum / advice.jumps.len() as u32, advice.odds.one_peg);
            }
        }
    }
}

#[test]
fn the_start_position_has_the_exact_commands_odds() {
    for start in ["A", "B", "D", "E"] {
        let exact = json(&["exact", "--start", start]);
        let coach = json(&["coach", "--start", start]);
        assert_eq!(coach["win"], exact["starts"][0]["win"], "{start}");
        assert_eq!(coach["expected_pegs_left"], exact["starts"][0]["expected_pegs_left"]);
        let wins = json(&["count", "--start", start]);
        assert_eq!(coach["winning_continuations"], wins["starts"][0]["games_by_pegs_left"]["1"], "{start}");
    }
}

/// The text shows the position's pegs-left distribution (the page's chart) as `exact` gives
/// it, and counts one winning sequence in the singular.
#[test]
fn the_text_shows_the_positions_pegs_left_as_exact_gives_them() {
    let exact = json(&["exact", "--start", "A"]);
    let text = stdout(&["coach", "--start", "A"]);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Pegs left at the end with random play from here: "))
        .expect("the distribution's line");
    let shown: Vec<(String, f64)> = line
        .split(", ")
        .map(|pair| {
            let (pegs, p) = pair.split_once(": ").unwrap();
            (pegs.to_string(), p.parse().unwrap())
        })
        .collect();
    let expected = exact["starts"][0]["pegs_left"].as_object().unwrap();
    assert_eq!(
        shown.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
    for (pegs, p) in &shown {
        let exact = expected[pegs]["decimal"].as_f64().unwrap();
        assert!((p - exact).abs() <= 5e-6 * exact, "{pegs} pegs: {p} against {exact}");
    }
    let last = stdout(&["coach", "--position", "A,B"]);
    assert!(last.contains("by 1 winning move sequence\n"), "{last}");
    assert!(last.contains("Pegs left at the end with random play from here: 1: 1.00000\n"), "{last}");
}

/// `--full` (text or Markdown) shows every jump's exact P(one peg) and expected pegs left, as
/// the table's footer promises: the columns were decimals only, whatever the style.
#[test]
fn full_fractions_show_every_jumps_exact_odds() {
    let v = json(&["coach", "--start", "A", "--moves", "F-C-A,D-E-F"]);
    for format in [&[][..], &["--markdown"][..]] {
        let mut args = vec!["coach", "--start", "A", "--moves", "F-C-A,D-E-F", "--full"];
        args.extend_from_slice(format);
        let text = stdout(&args);
        for j in v["jumps"].as_array().unwrap() {
            let row = text
                .lines()
                .find(|l| l.trim_start_matches("| ").starts_with(j["jump"].as_str().unwrap()))
                .unwrap_or_else(|| panic!("{format:?}: {text}"));
            for value in ["win", "expected_pegs_left"] {
                let fraction = j[value]["fraction"].as_str().unwrap();
                assert!(row.contains(fraction), "{format:?} {value} {fraction}: {row}");
            }
        }
    }
    // Without --full the table stays as narrow as it was.
    let text = stdout(&["coach", "--start", "A", "--moves", "F-C-A,D-E-F"]);
    assert!(!text.contains("48862183/3048192000"), "{text}");
    assert!(text.contains("Exact fractions: --json, --csv or --markdown --full."), "{text}");
}

#[test]
fn hopeless_and_best_jumps_are_marked() {
    let v = json(&["coach", "--start", "A", "--moves", "F-C-A,D-E-F"]);
    let jumps = v["jumps"].as_array().unwrap();
    assert_eq!(jumps.len(), 6);
    let m = jumps.iter().find(|j| j["jump"] == "M-H-D").unwrap();
    assert_eq!((m["hopeless"].as_bool(), m["win"]["fraction"].as_str()), (Some(true), Some("0")));
    assert_eq!(m["winning_continuations"], "0");
    let best: Vec<&str> =
        jumps.iter().filter(|j| j["best"] == true).map(|j| j["jump"].as_str().unwrap()).collect();
    assert_eq!(best, ["A-B-D"]);
    assert_eq!(v["position"].as_array().unwrap().len(), 12);
}

/// Where every jump loses all hope, none is called best (the first of the equal zeros was).
#[test]
fn no_jump_is_best_where_none_leaves_a_chance() {
    let v = json(&["coach", "--position", "A,B,K,L"]);
    let jumps = v["jumps"].as_array().unwrap();
    let names: Vec<&str> = jumps.iter().map(|j| j["jump"].as_str().unwrap()).collect();
    assert_eq!(names, ["A-B-D", "K-L-M"]);
    for j in jumps {
        assert_eq!((j["hopeless"].as_bool(), j["win"]["fraction"].as_str()), (Some(true), Some("0")));
        assert_eq!(j["best"], false, "{}", j["jump"]);
    }
    let text = stdout(&["coach", "--position", "A,B,K,L"]);
    assert!(!text.contains("best for a random player"), "{text}");
    assert_eq!(text.matches("loses all hope").count(), 2, "{text}");
}

#[test]
fn bad_positions_get_one_line() {
    fails_with(
        &["coach", "--start", "A", "--moves", "F-C-A,A-B-D"],
        "jump 2 (A-B-D) is not legal here: D is not empty",
    );
    fails_with(&["coach", "--start", "A", "--moves", "F-Q"], "board triangle5 has no hole \"Q\"");
    fails_with(&["coach", "--position", "A,A"], "names hole A twice");
    fails_with(&["coach"], "say which position");
    fails_with(&["coach", "--moves", "F-C-A"], "--start");
}

#[test]
fn a_position_with_too_large_a_future_is_refused() {
    // The 21-hole triangle from A reaches 146,435 positions up to symmetry (`count`'s figure).
    let board = builtin("triangle6").unwrap();
    let start = play(&board, 0, "").unwrap();
    let e = Coach::new(&board, Policy::Uniform).with_limit(100_000).advise(start).unwrap_err();
    // In the library's words; the command adds its way out, "(exact --position answers for
    // one position)" (tests/memory_limits.rs).
    assert_eq!(
        e.to_string(),
        "this position's future holds more than 100,000 positions up to symmetry or 1,000,000 jumps between them: too many for the coach"
    );
    assert!(Coach::new(&board, Policy::Uniform).with_limit(146_435).advise(start).is_ok());
    assert!(Coach::new(&board, Policy::Uniform).with_limit(146_434).advise(start).is_err());
}

/// A kept future answers its root, every position one jump ahead and every position two
/// jumps ahead as a new answer for each does; a position it does not hold gets no answer.
#[test]
fn a_kept_future_answers_the_positions_below_its_root() {
    for (board, start, moves) in
        [("triangle5", 0u8, ""), ("triangle5", 4, "L-H-E,N-M-L"), ("triangle6", 3, "A-B-D,G-D-B")]
    {
        let board = builtin(board).unwrap();
        let pos = play(&board, start, moves).unwrap();
        for policy in [Policy::Uniform, Policy::HoleFirst] {
            let coach = Coach::new(&board, policy);
            let future = coach.future(pos).unwrap();
            assert_eq!(future.root(), pos);
            let here = coach.advise_within(&future, pos).unwrap().unwrap();
            assert_eq!(here, coach.advise(pos).unwrap());
            for jump in &here.jumps {
                let child = pos.without(jump.from).without(jump.over).with(jump.to);
                let next = coach.advise_within(&future, child).unwrap().unwrap();
                assert_eq!(next.odds, jump.odds);
                assert_eq!(next, coach.advise(child).unwrap(), "{start} {moves}");
                for jump in &next.jumps {
                    let grandchild = child.without(jump.from).without(jump.over).with(jump.to);
                    let kept = coach.advise_within(&future, grandchild).unwrap().unwrap();
                    assert_eq!(kept, coach.advise(grandchild).unwrap());
                }
            }
            // The board's full position lies above the root.
            assert!(coach.advise_within(&future, board.full()).is_none());
        }
    }
}

/// The CSV carries the position's own figures, on a first row whose jump is empty, then a row
/// per jump, each the JSON's values: it held the jumps alone, so a position with no jump was
/// a header line and nothing else.
#[test]
fn the_csv_has_the_positions_own_row_before_its_jumps() {
    for args in [&["coach", "--start", "A", "--moves", "F-C-A,D-E-F"][..], &["coach", "--position", "A"]] {
        let v = json(args);
        let csv = stdout(&[args, &["--csv"]].concat());
        let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
        let jumps = v["jumps"].as_array().unwrap();
        assert_eq!(rows.len(), 1 + jumps.len(), "{csv}");
        let figures = |o: &serde_json::Value| {
            [
                o["win"]["fraction"].as_str().unwrap().to_string(),
                o["expected_pegs_left"]["fraction"].as_str().unwrap().to_string(),
                o["winnable"].to_string(),
                o["finish_holes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| h.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(" "),
                o["winning_continuations"].as_str().unwrap().to_string(),
            ]
        };
        let cells = |row: &[&str]| [row[1], row[4], row[6], row[7], row[8]].map(str::to_string);
        assert_eq!((rows[0][0], cells(&rows[0])), ("", figures(&v)), "{csv}");
        assert_eq!((rows[0][9], rows[0][10]), ("", ""));
        for (row, jump) in rows[1..].iter().zip(jumps) {
            assert_eq!((row[0], cells(row)), (jump["jump"].as_str().unwrap(), figures(jump)), "{csv}");
        }
    }
    let one_peg = stdout(&["coach", "--position", "A", "--csv"]);
    assert!(one_peg.ends_with("\n,1,1.0,0.0,1,1.0,true,A,1,,\n"), "{one_peg}");
}

/// With `--full` the text gives every exact value of the position as its fraction: the
/// expected pegs left and the pegs-left distribution were decimals alone, though the footer
/// without `--full` sends the reader there for the exact fractions.
#[test]
fn full_gives_every_exact_value_of_the_position_as_a_fraction() {
    let args = ["coach", "--board", "triangle5", "--start", "A", "--moves", "D-B-A,F-E-D"];
    let v = support::json(&args);
    let text = support::stdout(&[&args[..], &["--full"]].concat());
    let expected = v["expected_pegs_left"]["fraction"].as_str().unwrap();
    assert!(text.contains(&format!("expected pegs left {expected} (3.84142)")), "{text}");
    for (pegs, p) in v["pegs_left"].as_object().unwrap() {
        let fraction = p["fraction"].as_str().unwrap();
        assert!(text.contains(&format!("{pegs}: {fraction} (")), "{pegs}: {fraction}: {text}");
    }
    let short = support::stdout(&args);
    assert!(
        !short.contains(expected) && short.contains("Exact fractions: --json, --csv or --markdown --full.")
    );
}
