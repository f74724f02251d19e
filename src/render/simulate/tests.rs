//! Snapshots of `simulate`'s renderings on a hand-built result (hyperfine's habit): no games
//! are played, so every number here is typed in and any change of layout shows in the diff.

use super::SimulateView;
use crate::engine::stats::ChiSquare;
use crate::render::{Format, Style, render};
use crate::solitaire::board::builtin;
use crate::solitaire::estimates::{Estimate, SimConfig, SimReport, StartPlan, variance_of};
use crate::solitaire::policy::Policy;
use rug::Rational;

fn r(n: i64, d: i64) -> Rational {
    Rational::from((n, d))
}

/// An estimate over `holes` of the 15-hole board: `tallies[k]` games ended with k pegs.
fn estimate(holes: Vec<u8>, tallies: &[u64], exact: Option<Vec<Rational>>, z: Option<f64>) -> Estimate {
    let mut pegs_left = vec![0; 16];
    pegs_left[..tallies.len()].copy_from_slice(tallies);
    let games = tallies.iter().sum();
    let exact_pegs_left = exact.map(|mut d| {
        d.resize(16, Rational::new());
        d
    });
    Estimate {
        holes,
        games,
        wins: tallies[1],
        pegs_left,
        ci95: (0.00123, 0.0456),
        exact: exact_pegs_left.as_ref().map(|d| d[1].clone()),
        z,
        chi_square: exact_pegs_left.as_ref().map(|_| ChiSquare {
            statistic: 3.25871,
            degrees_of_freedom: 2,
            p_value: 0.2079,
        }),
        exact_variance: exact_pegs_left.as_deref().map(variance_of),
        exact_pegs_left,
    }
}

/// Games from the tip (class 1) and from B (class 2): 1,000 each, exact values beside them.
fn report() -> SimReport {
    let tip = vec![Rational::new(), r(1, 100), r(1, 3), r(200, 300) - r(1, 100)];
    let b = vec![Rational::new(), r(3, 1000), r(1, 2), r(1, 2) - r(3, 1000)];
    let overall = vec![Rational::new(), r(13, 2000), r(5, 12), r(7, 12) - r(13, 2000)];
    let (a, b_tallies) = ([0, 9, 340, 651], [0, 2, 510, 488]);
    let config = SimConfig {
        games: 1000,
        seed: 2015,
        threads: 0,
        policy: Policy::Uniform,
        starts: StartPlan::Each(vec![0, 1]),
        exact: true,
        cancel: crate::engine::Cancel::new(),
    };
    SimReport {
        config,
        overall: estimate((0..15).collect(), &[0, 11, 850, 1139], Some(overall), Some(-0.2718)),
        runs: vec![],
        classes: vec![
            estimate(vec![0], &a, Some(tip.clone()), Some(-0.3)),
            estimate(vec![1], &b_tallies, Some(b.clone()), Some(0.0000123)),
        ],
        starts: vec![
            estimate(vec![0], &a, Some(tip), Some(-0.3)),
            estimate(vec![1], &b_tallies, Some(b), Some(1.5)),
        ],
        exact: None,
        play_time: std::time::Duration::ZERO,
    }
}

fn rendered(format: Format) -> String {
    let board = builtin("triangle5").expect("built-in");
    render(&SimulateView::new(&board, &report()), format, Style::default()).expect("every format fits")
}

#[test]
fn simulate_text() {
    insta::assert_snapshot!(rendered(Format::Text));
}

#[test]
fn simulate_markdown() {
    insta::assert_snapshot!(rendered(Format::Markdown));
}

#[test]
fn simulate_json() {
    insta::assert_snapshot!(rendered(Format::Json));
}

#[test]
fn simulate_csv() {
    insta::assert_snapshot!(rendered(Format::Csv));
}

/// Without the exact engine: no exact value, z or test, and the text says why.
#[test]
fn simulate_without_exact_values() {
    let board = builtin("triangle5").expect("built-in");
    let mut report = report();
    report.config.starts = StartPlan::Random;
    report.overall = estimate((0..15).collect(), &[0, 0, 999, 1001], None, None);
    report.classes.clear();
    report.starts.clear();
    let view = SimulateView::new(&board, &report);
    let text = render(&view, Format::Text, Style::default()).expect("text");
    assert!(text.contains("No exact values"), "{text}");
    let json = render(&view, Format::Json, Style::default()).expect("json");
    for absent in ["\"exact\"", "\"z\"", "\"pegs_left\"", "\"chi_square\"", "null"] {
        assert!(!json.contains(absent), "{absent} in {json}");
    }
    // The wins are listed even when there are none.
    assert!(json.contains("\"1\": 0"), "{json}");
    assert!(json.contains("\"start\": \"random\""), "{json}");
}
