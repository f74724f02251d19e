//! Seeded simulation of the race, for a check against the exact answer.
//!
//! It plays the die as the rules give it, faces that move nobody included, and counts turns
//! directly: it shares the rules with the exact engine and nothing else.

use super::RaceReport;
use super::rules::{Rules, Setup};
use crate::engine::Cancel;
use crate::engine::sampler::{self, Stream};
use crate::engine::stats;
use crate::error::Error;
use std::sync::atomic::{AtomicBool, Ordering};

/// The totals of `trials` simulated games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    pub trials: u64,
    pub seed: u64,
    pub swine_wins: u64,
    /// The sum of the games' turns, and of their squares (each saturating at its maximum,
    /// beyond the reach of any run that finishes).
    pub turns: u64,
    pub turns_squared: u128,
}

/// A simulation set against the exact values.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossCheck {
    pub estimate: f64,
    /// The 95% Wilson interval of the swine's share of wins.
    pub interval: (f64, f64),
    /// (estimate - exact) / its standard error; None when the exact value is 0 or 1.
    pub z: Option<f64>,
    pub mean_turns: f64,
    /// The 95% interval of the mean turns, from the games' own spread; None for one game.
    pub mean_turns_ci95: Option<(f64, f64)>,
    /// The mean turns' z-score against the exact mean, with the exact variance.
    pub mean_turns_z: Option<f64>,
}

/// Plays `trials` games with `seed` on `threads` threads (0 = all); the result does not
/// depend on the thread count. Batches are added up as they finish, so memory does not grow
/// with `trials`; `done` hears of every finished batch (games in it), for progress. Once
/// `cancel` is cancelled no batch starts, and the answer is `Error::Interrupted` with the
/// games played by then.
pub fn simulate(
    rules: &Rules,
    setup: Setup,
    (trials, seed, threads): (u64, u64, usize),
    done: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
) -> Result<Simulation, Error> {
    // Face i is drawn when a uniform number below the total weight falls under bound[i].
    let mut bounds = Vec::with_capacity(rules.faces.len());
    let mut running = 0u64;
    for f in &rules.faces {
        running += f.weight;
        bounds.push(running);
    }
    let total = u32::try_from(rules.total_weight).expect("rules keep the total weight within u32");
    // A game may take billions of rolls (a die whose faces mostly move nobody), so a stop is
    // looked for within a game too; a game cut short spoils its batch, and the run is then
    // interrupted whatever the batches say.
    let cut_short = AtomicBool::new(false);
    let play = |stream: &mut Stream| -> Option<(bool, u64)> {
        let (mut swine, mut butcher, mut turns) = (setup.swine as u64, setup.butcher as u64, 0u64);
        loop {
            if turns % (1 << 20) == (1 << 20) - 1 && cancel.is_cancelled() {
                cut_short.store(true, Ordering::Relaxed);
                return None;
            }
            let roll = stream.below(total) as u64;
            let face = &rules.faces[bounds.partition_point(|&b| b <= roll)];
            turns += 1;
            swine += face.swine as u64;
            butcher += face.butcher as u64;
            if swine >= setup.length as u64 {
                return Some((true, turns));
            }
            if butcher >= swine {
                return Some((false, turns));
            }
        }
    };
    let work = |stream: &mut Stream, batch: sampler::Batch| {
        let mut totals = (0u64, 0u64, 0u128, 0u64);
        for _ in 0..batch.len {
            let Some((swine_won, turns)) = play(stream) else { break };
            totals.0 += u64::from(swine_won);
            totals.1 += turns;
            totals.2 += u128::from(turns) * u128::from(turns);
            totals.3 += 1;
        }
        totals
    };
    let init = Simulation { trials, seed, swine_wins: 0, turns: 0, turns_squared: 0 };
    // The games played whole, for a run whose last games were cut short.
    let mut played = 0u64;
    let add = |sim: &mut Simulation, _, (wins, turns, squares, games): (u64, u64, u128, u64)| {
        played += games;
        sim.swine_wins += wins;
        sim.turns = sim.turns.saturating_add(turns);
        sim.turns_squared = sim.turns_squared.saturating_add(squares);
    };
    let interrupted = |played: u64| Error::games_interrupted(played, trials);
    let sim = sampler::run_folded_cancellable(trials, seed, threads, work, init, add, done, cancel)
        .map_err(|c| interrupted(c.trials_done))?;
    if cut_short.load(Ordering::Relaxed) {
        return Err(interrupted(played));
    }
    Ok(sim)
}

impl Simulation {
    pub fn check(&self, exact: &RaceReport) -> CrossCheck {
        let turns = stats::sample_mean(self.trials, u128::from(self.turns), self.turns_squared);
        let mean_turns = turns.map_or(0.0, |t| t.mean);
        CrossCheck {
            estimate: self.swine_wins as f64 / self.trials as f64,
            interval: stats::wilson95(self.swine_wins, self.trials),
            z: stats::z_score(self.swine_wins, self.trials, exact.swine.to_f64()),
            mean_turns,
            mean_turns_ci95: turns.and_then(|t| t.ci95),
            mean_turns_z: stats::mean_z(
                mean_turns,
                self.trials,
                exact.turns.mean.to_f64(),
                exact.turns.variance.to_f64(),
            ),
        }
    }
}
