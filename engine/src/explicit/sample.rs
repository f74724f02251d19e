//! Seeded simulation of an explicit chain: runs from a uniformly drawn initial state until
//! the target is reached or can no longer be, on the engine's sampler (a stream per batch,
//! batches added in order), so the tallies are the same for any thread count.

use super::ExplicitChain;
use super::questions::reachability;
use crate::sampler::{self, Batch, Stream};
use rug::{Integer, Rational};

/// A row's moves as cumulative thresholds out of a common denominator, for exact draws.
struct Row {
    /// Exact when the row's common denominator fits in 63 bits; otherwise thresholds out of
    /// 2^63 rounded down (an error below 2^-60 per move, documented as such).
    denominator: u64,
    thresholds: Vec<u64>,
    targets: Vec<u32>,
}

/// What a run of simulations saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub runs: u64,
    /// Runs that reached the target.
    pub reached: u64,
    /// Steps taken by the runs that reached it: sum and sum of squares.
    pub steps: u128,
    pub steps_squared: u128,
    /// Runs stopped at the step limit (neither reached nor surely missed).
    pub cut_short: u64,
    /// Rows sampled with rounded thresholds (denominators past 63 bits).
    pub rounded_rows: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.runs += other.runs;
        self.reached += other.reached;
        self.steps += other.steps;
        self.steps_squared += other.steps_squared;
        self.cut_short += other.cut_short;
    }
}

/// Simulates `runs` runs with `seed` on `threads` threads (0 = all cores): each starts in an
/// initial state drawn uniformly and stops on reaching `target`, on entering a state that
/// cannot reach it, or after `max_steps` steps.
pub fn simulate(
    chain: &ExplicitChain,
    target: &[bool],
    runs: u64,
    seed: u64,
    threads: usize,
    max_steps: u64,
    cancel: &crate::Cancel,
) -> Result<Tally, sampler::Cancelled> {
    let possible = reachability(chain, target).possible;
    let (rows, rounded) = prepare(chain);
    let initial = chain.initial();
    let work = |stream: &mut Stream, batch: Batch| {
        let mut t = Tally::default();
        for _ in 0..batch.len {
            let mut s = initial[below(stream, initial.len() as u64) as usize];
            let mut steps = 0u64;
            t.runs += 1;
            loop {
                if target[s as usize] {
                    t.reached += 1;
                    t.steps += steps as u128;
                    t.steps_squared += (steps as u128) * (steps as u128);
                    break;
                }
                if !possible[s as usize] {
                    break;
                }
                if steps == max_steps {
                    t.cut_short += 1;
                    break;
                }
                s = step(&rows[s as usize], stream);
                steps += 1;
            }
        }
        t
    };
    let add = |acc: &mut Tally, _: Batch, t: Tally| acc.add(t);
    let mut total =
        sampler::run_folded_cancellable(runs, seed, threads, work, Tally::default(), add, &|_| {}, cancel)?;
    total.rounded_rows = rounded;
    Ok(total)
}

fn prepare(chain: &ExplicitChain) -> (Vec<Row>, u64) {
    let mut rounded = 0;
    let rows = (0..chain.states() as u32)
        .map(|s| {
            let den = chain.row(s).fold(Integer::from(1), |acc, (_, p)| acc.lcm(p.denom()));
            let exact = den.significant_bits() <= 63;
            let scale = if exact { den.clone() } else { Integer::from(1) << 63u32 };
            rounded += !exact as u64;
            let mut acc = Integer::new();
            let mut thresholds = Vec::new();
            let mut targets = Vec::new();
            for (t, p) in chain.row(s) {
                let share = Rational::from(p * &scale);
                acc += share.numer() / Integer::from(share.denom());
                thresholds.push(acc.to_u64().unwrap_or(u64::MAX));
                targets.push(t);
            }
            // Rounding down may leave the last threshold short of the scale: the last move
            // takes the remainder.
            let denominator = scale.to_u64().unwrap_or(1 << 63);
            *thresholds.last_mut().expect("rows are not empty") = denominator;
            Row { denominator, thresholds, targets }
        })
        .collect();
    (rows, rounded)
}

fn step(row: &Row, stream: &mut Stream) -> u32 {
    if row.targets.len() == 1 {
        return row.targets[0];
    }
    let x = below(stream, row.denominator);
    let i = row.thresholds.partition_point(|&t| t <= x);
    row.targets[i]
}

/// A uniform integer in 0..n (n > 0), without bias (Lemire's method on 64 bits).
fn below(stream: &mut Stream, n: u64) -> u64 {
    let mut m = stream.next_u64() as u128 * n as u128;
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = stream.next_u64() as u128 * n as u128;
        }
    }
    (m >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::super::Builder;
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_tally_for_any_thread_count() {
        let mut b = Builder::new(4).unwrap();
        let third = || Rational::from((1, 3));
        b.row(0, [(1, third()), (0, third()), (3, third())]).unwrap();
        b.row(1, [(2, Rational::from((1, 2))), (0, Rational::from((1, 2)))]).unwrap();
        b.absorbing(2).unwrap();
        b.absorbing(3).unwrap();
        b.initial(0).unwrap();
        let chain = b.finish().unwrap();
        let target = [false, false, true, false];
        let never = crate::Cancel::new();
        let one = simulate(&chain, &target, 200_000, 7, 1, 1000, &never).unwrap();
        assert_eq!(one, simulate(&chain, &target, 200_000, 7, 2, 1000, &never).unwrap());
        // P(reach 2) = 1/3 exactly: P0 = P1 / 3 + P0 / 3 with P1 = 1/2 + P0 / 2.
        let exact =
            super::super::questions::reach_probability(&chain, &target, &crate::Cancel::new()).unwrap();
        assert_eq!(exact[0], Rational::from((1, 3)));
        let p = one.reached as f64 / one.runs as f64;
        assert!((p - 1.0 / 3.0).abs() < 5.0 * (2.0f64 / 9.0 / 200_000.0).sqrt(), "{p}");
        assert_eq!((one.cut_short, one.rounded_rows), (0, 0));
    }
}
