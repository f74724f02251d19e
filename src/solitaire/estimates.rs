//! Simulation beside the exact engine: every estimate with its 95% interval, the exact
//! value it estimates, the z-score between them, and a chi-square test of pegs left.

use crate::engine::stats::{self, ChiSquare};
use crate::error::Error;
use crate::solitaire::board::Board;
use crate::solitaire::exact::{Analysis, EngineConfig, ExactReport, Starts};
use crate::solitaire::policy::Policy;
use crate::solitaire::simulate::{Run, RunTally, simulate};
use rug::Rational;

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPlan {
    /// A uniformly random empty hole for every game (the textbook's set-up).
    Random,
    /// `games` games from each of these holes.
    Each(Vec<u8>),
    /// This many games in each symmetry class (start drawn within the class).
    PerClass(u64),
}

/// A validated simulation request.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub policy: Policy,
    pub starts: StartPlan,
    /// Compare with the exact engine (skip for boards too big for it).
    pub exact: bool,
}

impl SimConfig {
    /// How many games the plan plays in all on `board`.
    pub fn total_games(&self, board: &Board) -> u64 {
        match &self.starts {
            StartPlan::Random => self.games,
            StartPlan::Each(holes) => self.games.saturating_mul(holes.len() as u64),
            StartPlan::PerClass(n) => {
                n.saturating_mul(crate::SymmetryGroup::of_board(board).hole_orbits().len() as u64)
            }
        }
    }
}

/// One estimate: a set of games, what they gave, and what the exact engine says.
#[derive(Clone, Debug)]
pub struct Estimate {
    pub holes: Vec<u8>,
    pub games: u64,
    pub wins: u64,
    /// Games by pegs left (index = pegs).
    pub pegs_left: Vec<u64>,
    pub ci95: (f64, f64),
    pub exact: Option<Rational>,
    pub z: Option<f64>,
    /// The exact distribution of pegs left for these games (index = pegs).
    pub exact_pegs_left: Option<Vec<Rational>>,
    pub chi_square: Option<ChiSquare>,
}

impl Estimate {
    pub fn estimate(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.wins as f64 / self.games as f64 }
    }
}

#[derive(Clone, Debug)]
pub struct SimReport {
    pub config: SimConfig,
    pub overall: Estimate,
    /// Per run (one per start hole with `Each`, one per class with `PerClass`).
    pub runs: Vec<(Run, RunTally)>,
    pub classes: Vec<Estimate>,
    pub starts: Vec<Estimate>,
    pub exact: Option<ExactReport>,
    /// Wall time of the games alone (not of the exact engine): for a throughput figure.
    pub play_time: std::time::Duration,
}

/// Builds the runs of a plan.
pub fn runs_of(board: &Board, analysis: &Analysis, config: &SimConfig) -> Vec<Run> {
    let name = |h: u8| board.hole_name(h).to_string();
    match &config.starts {
        StartPlan::Random => vec![Run {
            label: "random start".into(),
            holes: (0..board.hole_count() as u8).collect(),
            games: config.games,
        }],
        StartPlan::Each(holes) => holes
            .iter()
            .map(|&h| Run { label: format!("start {}", name(h)), holes: vec![h], games: config.games })
            .collect(),
        StartPlan::PerClass(games) => analysis
            .group
            .hole_orbits()
            .into_iter()
            .map(|holes| Run {
                label: format!("class {}", holes.iter().map(|&h| name(h)).collect::<Vec<_>>().join(" ")),
                holes,
                games: *games,
            })
            .collect(),
    }
}

/// Runs the simulation and sets it beside the exact values.
pub fn run(board: &Board, config: &SimConfig, done: &(dyn Fn(u64) + Sync)) -> Result<SimReport, Error> {
    let analysis = Analysis::new(board);
    let exact = if config.exact {
        let engine = EngineConfig { policy: config.policy, ..EngineConfig::default() };
        Some(analysis.exact(&Starts::All, &engine, &mut |_| {})?)
    } else {
        None
    };
    let runs = runs_of(board, &analysis, config);
    let clock = std::time::Instant::now();
    let tallies = simulate(board, config.policy, &runs, config.seed, config.threads, done);
    let play_time = clock.elapsed();
    let n = board.hole_count();

    // Each run is one design: its games start uniformly in its holes, so its exact win
    // probability is the mean over those holes.
    let per_hole = |h: u8| exact.as_ref().map(|e| e.starts[h as usize].clone());
    let mean_over = |holes: &[u8]| -> Option<(Rational, Vec<Rational>)> {
        let mut win = Rational::new();
        let mut dist = vec![Rational::new(); n + 1];
        for &h in holes {
            let s = per_hole(h)?;
            win += &s.win;
            for (pegs, p) in &s.pegs_left {
                dist[*pegs as usize] += p;
            }
        }
        let k = holes.len() as u32;
        Some((win / k, dist.into_iter().map(|d| d / k).collect()))
    };

    // Overall: the runs pooled; z from the sum of the runs' binomial spreads.
    let mut overall_counts = vec![0u64; n + 1];
    let (mut mean, mut var) = (0.0, 0.0);
    let mut exact_total = Rational::new();
    let mut dist = vec![Rational::new(); n + 1];
    let total_games: u64 = tallies.iter().map(|t| t.games()).sum();
    let mut have_exact = exact.is_some();
    for (run, tally) in runs.iter().zip(&tallies) {
        for c in &tally.counts {
            for (a, b) in overall_counts.iter_mut().zip(c) {
                *a += b;
            }
        }
        match mean_over(&run.holes) {
            Some((p, d)) => {
                let g = tally.games() as f64;
                let pf = p.to_f64();
                mean += g * pf;
                var += g * pf * (1.0 - pf);
                exact_total += p * Rational::from(tally.games());
                for (a, b) in dist.iter_mut().zip(d) {
                    *a += b * Rational::from((tally.games(), total_games));
                }
            }
            None => have_exact = false,
        }
    }
    let wins = overall_counts[1];
    let overall = Estimate {
        holes: (0..n as u8).collect(),
        games: total_games,
        wins,
        ci95: stats::wilson95(wins, total_games),
        exact: have_exact.then(|| exact_total / Rational::from(total_games)),
        z: (have_exact && var > 0.0).then(|| (wins as f64 - mean) / var.sqrt()),
        chi_square: have_exact.then(|| stats::chi_square(&overall_counts, &floats(&dist))).flatten(),
        exact_pegs_left: have_exact.then_some(dist),
        pegs_left: overall_counts,
    };

    // Per start hole and per class: all their games share one exact probability.
    let pooled = |holes: Vec<u8>| -> Estimate {
        let mut counts = vec![0u64; n + 1];
        for tally in &tallies {
            for &h in &holes {
                for (a, b) in counts.iter_mut().zip(&tally.counts[h as usize]) {
                    *a += b;
                }
            }
        }
        let games: u64 = counts.iter().sum();
        let wins = counts[1];
        let exact_here = per_hole(holes[0]);
        Estimate {
            games,
            wins,
            ci95: stats::wilson95(wins, games),
            z: exact_here.as_ref().and_then(|s| stats::z_score(wins, games, s.win.to_f64())),
            exact_pegs_left: exact_here.as_ref().map(|s| {
                let mut d = vec![Rational::new(); n + 1];
                for (pegs, p) in &s.pegs_left {
                    d[*pegs as usize] = p.clone();
                }
                d
            }),
            chi_square: exact_here.as_ref().and_then(|s| {
                let mut d = vec![0.0; n + 1];
                for (pegs, p) in &s.pegs_left {
                    d[*pegs as usize] = p.to_f64();
                }
                stats::chi_square(&counts, &d)
            }),
            exact: exact_here.map(|s| s.win),
            pegs_left: counts,
            holes,
        }
    };
    let played: Vec<u8> = (0..n as u8)
        .filter(|&h| tallies.iter().any(|t| t.counts[h as usize].iter().sum::<u64>() > 0))
        .collect();
    let starts: Vec<Estimate> = played.iter().map(|&h| pooled(vec![h])).collect();
    let classes: Vec<Estimate> = analysis
        .group
        .hole_orbits()
        .into_iter()
        .filter(|orbit| orbit.iter().any(|h| played.contains(h)))
        .map(|orbit| pooled(orbit.into_iter().filter(|h| played.contains(h)).collect()))
        .collect();
    Ok(SimReport {
        config: config.clone(),
        overall,
        runs: runs.into_iter().zip(tallies).collect(),
        classes,
        starts,
        exact,
        play_time,
    })
}

fn floats(values: &[Rational]) -> Vec<f64> {
    values.iter().map(|v| v.to_f64()).collect()
}
