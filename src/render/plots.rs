//! The audit's plots as SVG documents: per class, the exact win probability beside the
//! simulated one; the pegs left from the tip, probability against the share of games; and the
//! running estimate of the re-run converging on the exact value.
//!
//! Every figure that shows simulated games says how many and with which seed.

use super::number::{grouped, plural, significant_exact};
use super::svg::{Chart, Scale, Swatch, decade_ticks, nice_step, ticks};
use crate::engine::stats::wilson95;
use crate::solitaire::audit::{AuditReport, CLAIM_P};
use crate::solitaire::board::builtin;
use crate::solitaire::estimates::Estimate;
use rug::Rational;

const EXACT: &str = "#1f77b4";
const SIMULATED: &str = "#e6550d";
const SHARE: &str = "#fdae6b";
const CLAIM: &str = "#d62728";
const RANDOM: &str = "#555";
const BAND: &str = "#c6dbef";
const INTERVAL: &str = "#6baed6";
/// Up to this many batches, the running estimate shows each interval as a whisker (a band
/// through one or two points would not show).
const FEW_POINTS: usize = 20;

/// The file names of the audit's three plots, in the order [`audit_plots`] gives them.
pub const AUDIT_PLOTS: [&str; 3] = ["classes.svg", "pegs_left.svg", "running.svg"];

/// The audit's three plots: (file name, SVG document).
pub fn audit_plots(r: &AuditReport) -> Vec<(&'static str, String)> {
    AUDIT_PLOTS.into_iter().zip([classes(r), pegs_left(r), running(r)]).collect()
}

fn claim() -> f64 {
    CLAIM_P.0 as f64 / CLAIM_P.1 as f64
}

/// "4,000,000 games from a uniformly random empty hole, uniform random jumps, seed 2015".
fn simulated(r: &AuditReport) -> String {
    format!(
        "{} from a uniformly random empty hole, uniform random jumps, seed {}",
        plural(r.simulation.overall.games, "game", "games"),
        r.config.seed
    )
}

/// A tick label with just the decimals `step` needs: 0.002, 0.0025, 3.
fn tick_label(v: f64, step: f64) -> String {
    let mut decimals = 0usize;
    while decimals < 12
        && ((step * 10f64.powi(decimals as i32)).round() - step * 10f64.powi(decimals as i32)).abs() > 1e-9
    {
        decimals += 1;
    }
    format!("{v:.decimals$}")
}

/// Ticks from 0 to `top` at a round step, and the step.
fn linear_ticks(top: f64, most: usize) -> (Vec<(f64, String)>, f64) {
    let step = nice_step(top, most);
    (ticks(0.0, top, step, |v| tick_label(v, step)), step)
}

fn classes(r: &AuditReport) -> String {
    let classes = &r.exact.classes;
    let sims: Vec<Option<&Estimate>> = classes
        .iter()
        .map(|cl| r.simulation.classes.iter().find(|e| e.holes.iter().all(|h| cl.holes.contains(h))))
        .collect();
    let highest = classes
        .iter()
        .map(|c| c.value.to_f64())
        .chain(sims.iter().flatten().map(|e| e.ci95.1))
        .fold(claim(), f64::max);
    let step = nice_step(highest * 1.08, 8);
    let top = (highest * 1.08 / step).ceil() * step;
    let mut c = Chart::new(
        "Win probability per start class: exact, and simulated with its 95% interval",
        &format!("Simulated: {}", simulated(r)),
        (0.0, classes.len() as f64),
        (0.0, top),
        Scale::Linear,
    );
    let labels = class_labels(r, &sims);
    let (y_ticks, _) = linear_ticks(top, 8);
    c.axes(&labels, &y_ticks, "start class: its number and holes", "P(one peg left)");
    c.hline(claim(), CLAIM, true);
    c.hline(r.random_start().to_f64(), RANDOM, true);
    for (i, (cl, sim)) in classes.iter().zip(&sims).enumerate() {
        let x = i as f64 + 0.5;
        c.bar(x - 0.12, 0.3, cl.value.to_f64(), EXACT);
        if let Some(e) = sim {
            c.interval(x + 0.2, e.estimate(), e.ci95.0, e.ci95.1, SIMULATED);
        }
    }
    c.legend(EXACT, Swatch::Box, "exact");
    c.legend(SIMULATED, Swatch::Interval, "simulated, with its 95% interval");
    c.legend(CLAIM, Swatch::Dashed, "the book's 0.0070");
    c.legend(
        RANDOM,
        Swatch::Dashed,
        &format!("exact, random start: {}", significant_exact(r.random_start(), 6)),
    );
    c.finish()
}

/// Each class's tick: its number and holes, and under them its simulated games.
fn class_labels(r: &AuditReport, sims: &[Option<&Estimate>]) -> Vec<(f64, String)> {
    let board = builtin("triangle5").expect("built-in");
    r.exact
        .classes
        .iter()
        .zip(sims)
        .enumerate()
        .map(|(i, (cl, sim))| {
            let holes: Vec<&str> = cl.holes.iter().map(|&h| board.hole_name(h)).collect();
            let games = plural(sim.map_or(0, |e| e.games), "game", "games");
            (i as f64 + 0.5, format!("{}: {}\n{games}", cl.class + 1, holes.join(" ")))
        })
        .collect()
}

fn pegs_left(r: &AuditReport) -> String {
    let tip = &r.exact.starts[0];
    let counts = &r.tip_counts.starts[0];
    let most = *tip.pegs_left.keys().max().unwrap_or(&1) as f64;
    let bars: Vec<(f64, f64, f64)> = tip
        .pegs_left
        .iter()
        .map(|(pegs, p)| {
            let n = counts.games_by_pegs_left.get(pegs).cloned().unwrap_or_default();
            (*pegs as f64, p.to_f64(), Rational::from((n, counts.games.clone())).to_f64())
        })
        .collect();
    let smallest = bars.iter().flat_map(|b| [b.1, b.2]).filter(|v| *v > 0.0).fold(1.0, f64::min);
    let bottom = 10f64.powf(smallest.log10().floor());
    let games = grouped(&counts.games);
    let mut c = Chart::new(
        "Pegs left from the tip (A): random play is not a share of games",
        &format!(
            "Exact, no simulation: uniform random jumps against the {games} complete games counted once"
        ),
        (0.5, most + 0.5),
        (bottom, 1.0),
        Scale::Log,
    );
    let x_ticks: Vec<(f64, String)> = (1..=most as u32).map(|k| (k as f64, k.to_string())).collect();
    let y_ticks = decade_ticks(bottom, 1.0, |v| super::number::significant(v, 1));
    c.axes(&x_ticks, &y_ticks, "pegs left at the end", "proportion of games ending so (log scale)");
    for &(x, p, share) in &bars {
        c.bar(x - 0.18, 0.34, p, EXACT);
        c.bar(x + 0.18, 0.34, share, SHARE);
    }
    c.legend(EXACT, Swatch::Box, "weighted by their probability under uniform random play");
    c.legend(
        SHARE,
        Swatch::Box,
        &format!("each of the {games} distinct games counted once (seed 000's histogram)"),
    );
    if let Some(&(_, p, share)) = bars.iter().find(|b| b.0 == 1.0) {
        let percent = |v: f64| super::number::significant(v * 100.0, 2);
        c.note(&format!(
            "One peg is left in {}% of the distinct games but with probability {}% under random play.",
            percent(share),
            percent(p)
        ));
    }
    c.finish()
}

/// The running estimate after each batch: (games so far, estimate, its 95% interval).
type Running = Vec<(f64, f64, (f64, f64))>;

fn running(r: &AuditReport) -> String {
    let tally = &r.simulation.runs[0].1;
    let exact = r.random_start().to_f64();
    let games = tally.running.last().map_or(1, |g| g.0) as f64;
    let points: Running =
        tally.running.iter().map(|&(g, w)| (g as f64, w as f64 / g as f64, wilson95(w, g))).collect();
    let lowest = points.iter().map(|p| p.2.0).fold(exact, f64::min);
    let highest = points.iter().map(|p| p.2.1).fold(exact, f64::max);
    let pad = (highest - lowest) * 0.08;
    let (y0, y1) = ((lowest - pad).max(0.0), highest + pad);
    let mut c = Chart::new(
        "Running estimate of the random-start win probability, after each batch of games",
        &format!("Simulated: {}", simulated(r)),
        (0.0, games * 1.03),
        (y0, y1),
        Scale::Linear,
    );
    let (x_step, y_step) = (games_step(games), nice_step(y1 - y0, 7));
    c.axes(
        &ticks(0.0, games * 1.03, x_step, |v| games_label(v, x_step)),
        &ticks(y0, y1, y_step, |v| tick_label(v, y_step)),
        "games played",
        "estimate of P(one peg left)",
    );
    let claim_shown = (y0..=y1).contains(&claim());
    draw_running(&mut c, &points, exact, claim_shown);
    running_legend(&mut c, r, points.len() <= FEW_POINTS, claim_shown);
    c.finish()
}

/// The interval (a band, or whiskers when there are few points), the exact value and the
/// claim under the running estimate, drawn last so it is on top.
fn draw_running(c: &mut Chart, points: &Running, exact: f64, claim_shown: bool) {
    let few = points.len() <= FEW_POINTS;
    if !few {
        let xs: Vec<f64> = points.iter().map(|p| p.0).collect();
        let lo: Vec<f64> = points.iter().map(|p| p.2.0).collect();
        let hi: Vec<f64> = points.iter().map(|p| p.2.1).collect();
        c.band(&xs, &lo, &hi, BAND);
    }
    c.hline(exact, "#000", false);
    if claim_shown {
        c.hline(claim(), CLAIM, true);
    }
    if few {
        for p in points {
            c.interval(p.0, p.1, p.2.0, p.2.1, INTERVAL);
        }
    }
    c.polyline(&points.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(), SIMULATED);
}

fn running_legend(c: &mut Chart, r: &AuditReport, few: bool, claim_shown: bool) {
    // Long runs keep a point every few batches (see `running_every`): the legend says how many games.
    let games = r.simulation.runs[0].1.running.last().map_or(0, |g| g.0);
    let every = crate::solitaire::simulate::running_every(crate::engine::sampler::batch_count(games));
    let batch = grouped(crate::engine::sampler::BATCH_SIZE * every);
    c.legend(SIMULATED, Swatch::Line, &format!("running estimate, after each batch of {batch} games"));
    if few {
        c.legend(INTERVAL, Swatch::Interval, "its 95% interval");
    } else {
        c.legend(BAND, Swatch::Box, "its 95% interval");
    }
    c.legend("#000", Swatch::Line, &format!("exact: {}", significant_exact(r.random_start(), 6)));
    if claim_shown {
        c.legend(CLAIM, Swatch::Dashed, "the book's 0.0070");
    } else {
        c.note("The book's 0.0070 lies above this range.");
    }
}

/// A count of games on an axis: 500, 250k, 1.5M.
/// A step between ticks of games played: a whole number of games (a run of one game had
/// ticks at 0.2, 0.4, ...).
fn games_step(games: f64) -> f64 {
    match nice_step(games, 5) {
        s if s < 1.0 => 1.0,
        s if s.fract() != 0.0 => 5.0, // 2.5
        s => s,
    }
}

fn games_label(v: f64, step: f64) -> String {
    match step {
        _ if v == 0.0 => "0".into(),
        s if s >= 1e5 => format!("{}M", tick_label(v / 1e6, s / 1e6)),
        s if s >= 1e3 => format!("{}k", tick_label(v / 1e3, s / 1e3)),
        s => tick_label(v, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_carry_the_decimals_the_step_needs() {
        assert_eq!(tick_label(0.004, 0.002), "0.004");
        assert_eq!(tick_label(0.0075, 0.0025), "0.0075");
        assert_eq!(tick_label(3.0, 1.0), "3");
        assert_eq!(games_label(2e6, 1e6), "2M");
        assert_eq!(games_label(600.0, 200.0), "600");
        assert_eq!(games_label(4000.0, 2000.0), "4k");
        assert_eq!(games_label(40.0, 20.0), "40");
        assert_eq!(games_label(2.5e5, 2.5e5), "0.25M");
    }

    #[test]
    fn games_are_ticked_in_whole_games() {
        assert_eq!(games_step(1.0), 1.0);
        assert_eq!(games_step(3.0), 1.0);
        assert_eq!(games_step(12.0), 5.0);
        assert_eq!(games_step(40.0), 10.0);
        assert_eq!(games_step(120.0), 25.0);
        assert_eq!(games_step(4e6), 1e6);
    }
}
