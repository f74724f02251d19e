//! The audit's plots, written as SVG files.

use super::svg::{Chart, ticks};
use crate::solitaire::audit::{AuditReport, CLAIM_P};
use crate::solitaire::board::builtin;
use rug::Rational;

const EXACT: &str = "#1f77b4";
const ESTIMATE: &str = "#9ecae1";
const CLAIM: &str = "#d62728";

/// The audit's three plots: (file name, SVG document).
pub fn audit_plots(r: &AuditReport) -> Vec<(&'static str, String)> {
    vec![("classes.svg", classes(r)), ("pegs_left.svg", pegs_left(r)), ("running.svg", running(r))]
}

fn claim() -> f64 {
    CLAIM_P.0 as f64 / CLAIM_P.1 as f64
}

fn classes(r: &AuditReport) -> String {
    let board = builtin("triangle5").expect("built-in");
    let classes = &r.exact.classes;
    let top = 0.0085;
    let mut c = Chart::new(
        "Win probability per start class: exact and simulated (95% interval)",
        (0.0, classes.len() as f64),
        (0.0, top),
    );
    let labels: Vec<(f64, String)> = classes
        .iter()
        .enumerate()
        .map(|(i, cl)| {
            (i as f64 + 0.5, cl.holes.iter().map(|&h| board.hole_name(h)).collect::<Vec<_>>().join(" "))
        })
        .collect();
    c.axes(&labels, &ticks(0.0, top, 0.001, |v| format!("{v:.3}")), "start class", "P(one peg left)");
    for (i, cl) in classes.iter().enumerate() {
        let x = i as f64 + 0.5;
        c.bar(x - 0.17, 0.3, cl.value.to_f64(), EXACT);
        if let Some(e) = r.simulation.classes.iter().find(|e| e.holes.iter().all(|h| cl.holes.contains(h))) {
            c.bar(x + 0.17, 0.3, e.estimate(), ESTIMATE);
            c.interval(x + 0.17, e.ci95.0, e.ci95.1);
        }
    }
    c.hline(claim(), CLAIM, true, "book: 0.0070");
    c.hline(r.random_start().to_f64(), "#555", true, "exact, random start");
    c.legend(0.0, &[(EXACT, "exact"), (ESTIMATE, "simulated")]);
    c.finish()
}

fn pegs_left(r: &AuditReport) -> String {
    let tip = &r.exact.starts[0];
    let counts = &r.tip_counts.starts[0];
    let most = *tip.pegs_left.keys().max().unwrap_or(&1) as f64;
    let mut c = Chart::new(
        "Pegs left from the tip: probability vs share of distinct games",
        (0.5, most + 0.5),
        (0.0, 0.5),
    );
    let x_ticks: Vec<(f64, String)> = (1..=most as u32).map(|k| (k as f64, k.to_string())).collect();
    c.axes(&x_ticks, &ticks(0.0, 0.5, 0.1, |v| format!("{v:.1}")), "pegs left", "probability / share");
    for (pegs, p) in &tip.pegs_left {
        let x = *pegs as f64;
        c.bar(x - 0.18, 0.34, p.to_f64(), EXACT);
        let n = counts.games_by_pegs_left.get(pegs).cloned().unwrap_or_default();
        c.bar(x + 0.18, 0.34, Rational::from((n, counts.games.clone())).to_f64(), "#fdae6b");
    }
    let share =
        format!("share of the {} distinct games (seed 000)", crate::render::number::grouped(&counts.games));
    c.legend(0.55, &[(EXACT, "probability under random play"), ("#fdae6b", &share)]);
    c.finish()
}

fn running(r: &AuditReport) -> String {
    let tally = &r.simulation.runs[0].1;
    let exact = r.random_start().to_f64();
    let games = tally.running.last().map_or(1, |g| g.0) as f64;
    let mut xs = vec![];
    let (mut lo, mut hi, mut est) = (vec![], vec![], vec![]);
    for &(g, w) in &tally.running {
        let (l, h) = crate::engine::stats::wilson95(w, g);
        xs.push(g as f64);
        lo.push(l);
        hi.push(h);
        est.push((g as f64, w as f64 / g as f64));
    }
    let (y0, y1) = (0.0025, 0.0080);
    let mut c =
        Chart::new("Running estimate of the random-start win probability (95% band)", (0.0, games), (y0, y1));
    let step = if games >= 2e6 { 1e6 } else { (games / 4.0).max(1.0) };
    c.axes(
        &ticks(0.0, games, step, |v| format!("{:.1}M", v / 1e6)),
        &ticks(y0, y1, 0.0005, |v| format!("{v:.4}")),
        "games played",
        "estimate",
    );
    let clip = |v: f64| v.clamp(y0, y1);
    c.band(
        &xs,
        &lo.iter().map(|&v| clip(v)).collect::<Vec<_>>(),
        &hi.iter().map(|&v| clip(v)).collect::<Vec<_>>(),
        "#c6dbef",
    );
    c.polyline(&est.iter().map(|&(x, y)| (x, clip(y))).collect::<Vec<_>>(), EXACT);
    c.hline(exact, "#000", false, "exact 0.00451");
    c.hline(claim(), CLAIM, true, "book: 0.0070");
    c.finish()
}
