//! A step's parents once their shares are made, handed out round by round (and, for a step
//! whose children are summed in parts, every round once a part): each round's edges (the
//! first round's of the first part from the pass that found the move totals, the others' from
//! a pass over that round's parents again) with the shares of that round's parents. The
//! parents stay in memory (their states only, for the passes again), or wait on disk
//! ([`Spill`]) so that the step holds one round's parents at a time.

use super::arena::Bucket;
use super::budget::Plan;
use super::parents::{Shards, round};
use super::spill::{Parked, Spill};
use crate::error::EngineError;
use std::borrow::Cow;
use std::ops::Range;

pub(super) struct Rounds<'a, S> {
    rounds: usize,
    n: usize,
    stride: usize,
    first: Option<Shards<S>>,
    kept: Kept<'a, S>,
}

/// Where the parents wait between rounds.
enum Kept<'a, S> {
    /// The states (for the passes of rounds after the first; none in one round) and every
    /// parent's share.
    Memory {
        states: Option<Bucket<S>>,
        shares: Vec<u64>,
    },
    Disk {
        parked: Parked,
        spill: Spill<'a, S>,
    },
}

impl<'a, S: Copy> Rounds<'a, S> {
    /// The parents (`states`, their numerators already dropped) and their `shares`, `stride`
    /// words each, for a step taken as `plan` says whose first edges are `first`. A step
    /// that passes over its parents again with a `spill` directory puts both on disk here.
    pub fn new(
        (states, shares, stride): (Bucket<S>, Vec<u64>, usize),
        first: Shards<S>,
        plan: Plan,
        spill: Option<Spill<'a, S>>,
    ) -> Result<Rounds<'a, S>, EngineError> {
        let n = states.len();
        let again = plan.passes() > 1;
        let kept = match spill {
            Some(spill) if again => {
                Kept::Disk { parked: Parked::write(&spill, &states.keys, &shares, stride)?, spill }
            }
            _ => Kept::Memory { states: again.then_some(states), shares },
        };
        Ok(Rounds { rounds: plan.rounds, n, stride, first: Some(first), kept })
    }

    /// Round `r`'s edges and the shares of its parents (which the edges number from 0):
    /// `scan` builds the edges of the parents of a bucket in a range (into the shards of the
    /// part under way). The first call is given the first edges.
    pub fn round(
        &mut self,
        r: usize,
        scan: impl Fn(&Bucket<S>, Range<usize>) -> Result<Shards<S>, EngineError>,
    ) -> Result<(Shards<S>, Cow<'_, [u64]>), EngineError> {
        let part = round(r, self.rounds, self.n);
        let words = part.start * self.stride..part.end * self.stride;
        match &self.kept {
            Kept::Memory { states, shares } => {
                let edges = match self.first.take() {
                    Some(edges) => edges,
                    None => scan(
                        states.as_ref().expect("the states are kept for every pass after the first"),
                        part,
                    )?,
                };
                Ok((edges, Cow::Borrowed(&shares[words])))
            }
            Kept::Disk { parked, spill } => {
                // The first round's edges are made: its states are not read back.
                let edges = match self.first.take() {
                    Some(edges) => edges,
                    None => {
                        let keys = parked.states(spill, part.clone())?;
                        let states = Bucket { keys, nums: Vec::new(), stride: self.stride, batches: 1 };
                        scan(&states, 0..states.len())?
                    }
                };
                let shares = parked.shares(spill, part)?;
                Ok((edges, Cow::Owned(shares)))
            }
        }
    }
}
