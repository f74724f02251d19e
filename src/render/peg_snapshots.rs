//! Snapshots of the peg-solitaire views (hyperfine's habit): every format of every view, on
//! results built by hand, not by the engine. The values are chosen to exercise the renderers
//! (a long fraction, a probability of zero, a count past 2^64, a start with no win), not to be
//! true figures of the board. The `.snap` files beside this one are the output contract of
//! `exact`, `count`, `ends`, `solve`, `show` and `boards`.

use super::board::{BoardInfo, BoardsView, ExportView, ShowView};
use super::count::CountView;
use super::ends::EndsView;
use super::exact::ExactView;
use super::solve::{SolveFooter, SolveHeader, SolveWriter};
use super::{Format, Report, Style, render};
use crate::solitaire::board::{Board, builtin};
use crate::solitaire::exact::{ClassValue, CountReport, ExactReport, Positions, StartCount, StartExact};
use crate::solitaire::policy::Policy;
use crate::solitaire::solve::{Finish, Method, Problem, Summary};
use insta::assert_snapshot;
use rug::ops::Pow;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

fn board() -> Board {
    builtin("triangle4").expect("built-in")
}

fn r(n: i64, d: i64) -> Rational {
    Rational::from((n, d))
}

/// A fraction of 45 digits over 46: too long to show whole in text.
fn long() -> Rational {
    let ten = |e: u32| Integer::from(10).pow(e);
    Rational::from((ten(44) + 1u32, ten(45) * 3u32 + 7u32))
}

fn positions(layers: &[(u32, u64, u64)]) -> Positions {
    Positions {
        raw: layers.iter().map(|l| l.1).sum(),
        up_to_symmetry: layers.iter().map(|l| l.2).sum(),
        by_layer: layers.to_vec(),
    }
}

fn class<V>(class: usize, holes: &[u8], value: V) -> ClassValue<V> {
    ClassValue { class, holes: holes.to_vec(), value }
}

/// Start A never wins; start B wins with 3/20, its pegs-left distribution has long fractions.
fn exact_report() -> ExactReport {
    let pegs_b = BTreeMap::from([(1, r(3, 20)), (2, long()), (3, r(17, 20) - long())]);
    let expected_b = pegs_b.iter().map(|(n, p)| Rational::from(p * *n)).sum();
    let b = StartExact {
        hole: 1,
        class: 1,
        win: r(3, 20),
        pegs_left: pegs_b,
        finish: BTreeMap::from([(3, r(1, 10)), (9, r(1, 20))]),
        expected_pegs_left: expected_b,
        finish_in_start: r(0, 1),
        positions: positions(&[(9, 1, 1), (8, 3, 2), (7, 116, 27)]),
    };
    let a = StartExact {
        hole: 0,
        class: 0,
        win: r(0, 1),
        pegs_left: BTreeMap::from([(3, r(1, 1))]),
        finish: BTreeMap::new(),
        expected_pegs_left: r(3, 1),
        finish_in_start: r(0, 1),
        positions: positions(&[(9, 1, 1), (8, 2, 1), (7, 5, 3)]),
    };
    ExactReport {
        policy: Policy::Uniform,
        group_order: 6,
        starts: vec![a, b],
        classes: vec![class(0, &[0, 6, 9], r(0, 1)), class(1, &[1, 2, 3, 5, 7, 8], r(3, 20))],
        random_start: Some((r(9, 10) + long()) / 10u32),
    }
}

/// Start A has no win; start B's games number more than 2^64.
fn count_report() -> CountReport {
    let big = |s: &str| s.parse::<Integer>().expect("digits");
    let a = StartCount {
        hole: 0,
        class: 0,
        games: Integer::from(7),
        games_by_pegs_left: BTreeMap::from([(3, Integer::from(7))]),
        wins_by_finish: BTreeMap::new(),
        positions: positions(&[(9, 1, 1), (8, 2, 1), (7, 5, 3)]),
    };
    let b = StartCount {
        hole: 1,
        class: 1,
        games: big("15781465375116838924"),
        games_by_pegs_left: BTreeMap::from([
            (1, big("422164782932465380")),
            (2, big("15359300592184373544")),
        ]),
        wins_by_finish: BTreeMap::from([(2, big("22789743014998172")), (3, big("399375039917467208"))]),
        positions: positions(&[(9, 1, 1), (8, 3, 2), (7, 116, 27)]),
    };
    let classes = vec![class(0, &[0, 6, 9], a.games.clone()), class(1, &[1, 2, 3, 5, 7, 8], b.games.clone())];
    CountReport { group_order: 6, starts: vec![a, b], classes }
}

/// Every rendering of a view, one snapshot per format.
fn snapshot_all(name: &str, view: &impl Report) {
    for (format, suffix) in [(Format::Text, "text"), (Format::Markdown, "md"), (Format::Json, "json")] {
        assert_snapshot!(format!("{name}_{suffix}"), render(view, format, Style::default()).expect("fits"));
    }
    match render(view, Format::Csv, Style::default()) {
        Some(csv) => assert_snapshot!(format!("{name}_csv"), csv),
        None => assert!(view.table().is_none()),
    }
}

#[test]
fn exact_view() {
    let view = ExactView::new(&board(), &exact_report());
    snapshot_all("exact", &view);
    let full = render(&view, Format::Text, Style { full_fractions: true }).expect("fits");
    assert!(full.contains(&long().to_string()), "--full shows fractions whole");
}

#[test]
fn count_view() {
    snapshot_all("count", &CountView::new(&board(), &count_report()));
}

#[test]
fn ends_view() {
    snapshot_all("ends", &EndsView::new(&board(), &count_report()));
}

#[test]
fn board_views() {
    let b = board();
    snapshot_all("show", &ShowView::new(&b, 6));
    let english =
        BoardInfo { name: "english".into(), holes: 33, jumps: 76, symmetry_order: 8, fixed_holes: 0 };
    snapshot_all("boards", &BoardsView::new(vec![BoardInfo::new(&b, 6), english.clone()]));
    let files = vec!["out/english.json".into(), "out/english.adjacency.csv".into()];
    snapshot_all("export", &ExportView::new(english, "seed002", files));
}

/// A search from A empty to 7 pegs left: two solutions of two jumps, then `summary`.
fn solve_output(format: Format, show: bool, summary: &Summary, distinct: Option<(u64, usize)>) -> String {
    let b = board();
    let problem = Problem::new(&b, b.full().without(0), Finish::Count(7)).expect("valid");
    let writer = SolveWriter { board: &b, format, show, more: Some("--limit N or --all for more".into()) };
    let jump = |name: &str| {
        let index = b.jumps().iter().position(|j| super::board::jump_name(&b, j) == name);
        index.expect("a jump of the board")
    };
    let solutions = [[jump("D-B-A"), jump("I-E-B")], [jump("F-C-A"), jump("H-E-C")]];
    let mut out = writer.head(&SolveHeader::new(&b, 6, &problem, Method::Dfs));
    for (i, s) in solutions.iter().enumerate().take(summary.found as usize) {
        out += &writer.solution(problem.start, i as u64 + 1, s);
    }
    out + &writer.foot(&SolveFooter::new(summary, distinct), summary.found.min(2))
}

fn summary(found: u64, complete: bool) -> Summary {
    Summary {
        found,
        complete,
        interrupted: false,
        positions: 0,
        unsaved: false,
        out_of_memory: None,
        ruled_out_by_parity: false,
    }
}

#[test]
fn solve_streams_in_every_format() {
    let stopped = summary(2, false);
    for (format, suffix) in
        [(Format::Text, "text"), (Format::Markdown, "md"), (Format::Csv, "csv"), (Format::Json, "json")]
    {
        assert_snapshot!(format!("solve_{suffix}"), solve_output(format, false, &stopped, None));
    }
    assert_snapshot!("solve_show_text", solve_output(Format::Text, true, &stopped, None));
    assert_snapshot!("solve_show_md", solve_output(Format::Markdown, true, &stopped, None));
}

#[test]
fn solve_json_is_one_document_whatever_was_found() {
    let parity = Summary { ruled_out_by_parity: true, ..summary(0, true) };
    for (s, distinct) in [
        (summary(2, false), None),
        (summary(0, true), None),
        (parity, None),
        (summary(2, true), Some((1, 2))),
        (Summary { unsaved: true, ..summary(2, false) }, None),
    ] {
        let text = solve_output(Format::Json, false, &s, distinct);
        let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
        assert_eq!(v["solutions"].as_array().map(Vec::len), Some(s.found as usize));
        assert_eq!(v["found"], s.found.to_string());
    }
}

#[test]
fn solve_footers_say_how_the_search_ended() {
    let parity = Summary { ruled_out_by_parity: true, ..summary(0, true) };
    let cases = [
        ("exhaustive", summary(2, true), None),
        ("no solution", summary(0, true), None),
        ("parity", parity, None),
        ("distinct, exhaustive", summary(2, true), Some((1, 2))),
        ("distinct, one symmetry", summary(2, true), Some((2, 1))),
        ("distinct, stopped", summary(2, false), Some((1, 2))),
        ("unsaved", Summary { unsaved: true, interrupted: true, ..summary(2, false) }, None),
    ];
    let text: String = cases
        .iter()
        .map(|(name, s, distinct)| {
            let out = solve_output(Format::Text, false, s, *distinct);
            format!("{name}: {}", out.lines().last().unwrap_or_default())
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_snapshot!("solve_footers", text);
}
