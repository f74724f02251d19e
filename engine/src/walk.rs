//! Seeded random walks on any [`Chain`], implicit or explicit: each move drawn with its exact
//! probability weight / total, on the sampler's streams (a stream per batch, batches added
//! in order), so a tally is the same for any thread count.

use crate::Chain;
use crate::sampler::{self, Batch, Cancelled, Stream};

/// One step of random play from `state`: a move drawn with probability weight / total, exactly
/// (one 64-bit draw; none when there is only one move), or `None` where the state absorbs.
/// `moves` is scratch space, reused between steps.
#[inline]
pub fn step<C: Chain>(
    chain: &C,
    state: C::State,
    stream: &mut Stream,
    moves: &mut Vec<(C::State, u64)>,
) -> Option<C::State> {
    moves.clear();
    let total = chain.transitions(state, moves);
    match moves.as_slice() {
        [] => None,
        [(only, _)] => Some(*only),
        all => {
            let x = stream.below_u64(total);
            let mut below = 0;
            for &(next, weight) in all {
                below += weight;
                if x < below {
                    return Some(next);
                }
            }
            unreachable!("the weights add up to the total (the Chain contract)")
        }
    }
}

/// What a walk has come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The walk has reached the target: it stops, counted with its steps.
    Reached,
    /// The target can no longer be reached: it stops, uncounted.
    Missed,
    /// It goes on.
    Going,
}

/// What a run of walks saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub runs: u64,
    /// Walks that reached the target.
    pub reached: u64,
    /// Steps taken by the walks that reached it: sum and sum of squares.
    pub steps: u128,
    pub steps_squared: u128,
    /// Walks stopped at the step limit (neither reached nor surely missed).
    pub cut_short: u64,
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

/// How a run of walks is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Walks {
    pub runs: u64,
    pub seed: u64,
    /// Worker threads (0 = all cores): the tally does not depend on them.
    pub threads: usize,
    /// A walk that has neither reached nor missed the target after this many steps stops.
    pub max_steps: u64,
}

/// Walks `walks.runs` times from a state drawn uniformly from `starts` (one draw even when
/// there is one start), until `verdict` says a walk has reached or missed its target, the
/// walk is absorbed (missed), or it has taken `max_steps` steps. Polls `cancel` before each
/// batch. `starts` must not be empty (a caller's error: it panics).
pub fn walk<C, V>(
    chain: &C,
    starts: &[C::State],
    verdict: V,
    walks: Walks,
    cancel: &crate::Cancel,
) -> Result<Tally, Cancelled>
where
    C: Chain,
    V: Fn(C::State) -> Verdict + Sync,
{
    assert!(!starts.is_empty(), "a walk needs a start");
    let work = |stream: &mut Stream, batch: Batch| {
        let mut t = Tally::default();
        let mut moves = Vec::new();
        for _ in 0..batch.len {
            let mut state = starts[stream.below_u64(starts.len() as u64) as usize];
            let mut steps = 0u64;
            t.runs += 1;
            loop {
                match verdict(state) {
                    Verdict::Reached => {
                        t.reached += 1;
                        t.steps += steps as u128;
                        t.steps_squared += (steps as u128) * (steps as u128);
                        break;
                    }
                    Verdict::Missed => break,
                    Verdict::Going if steps == walks.max_steps => {
                        t.cut_short += 1;
                        break;
                    }
                    Verdict::Going => match step(chain, state, stream, &mut moves) {
                        Some(next) => state = next,
                        None => break,
                    },
                }
                steps += 1;
            }
        }
        t
    };
    let add = |acc: &mut Tally, _: Batch, t: Tally| acc.add(t);
    let (runs, seed, threads) = (walks.runs, walks.seed, walks.threads);
    sampler::run_folded_cancellable(runs, seed, threads, work, Tally::default(), add, &|_| {}, cancel)
}
