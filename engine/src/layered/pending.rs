//! Mass waiting to be expanded: one bucket per rank below the current layer. A step hands
//! its children over here by rank; a move may skip ranks, so a bucket can be fed by several
//! layers before its turn comes (it is merged then, see `Bucket::merged`).

use super::arena::Bucket;
use super::numbers::{Factor, Numbers};
use super::shards::Children;
use crate::error::EngineError;
use std::collections::BTreeMap;

pub(super) struct Pending<S> {
    pub buckets: BTreeMap<u32, Bucket<S>>,
}

impl<S: Copy + Ord> Pending<S> {
    /// All the mass on `start`, of rank `rank` (`one` is the number 1 in the run's arithmetic).
    pub fn new(rank: u32, start: S, one: Vec<u64>) -> Pending<S> {
        Pending { buckets: BTreeMap::from([(rank, Bucket::single(start, one))]) }
    }

    /// Nothing waiting (a process of a shared run that owns no start).
    pub fn empty() -> Pending<S> {
        Pending { buckets: BTreeMap::new() }
    }

    /// The highest rank waiting.
    pub fn top(&self) -> Option<u32> {
        self.buckets.last_key_value().map(|(r, _)| *r)
    }

    /// The bucket of rank `rank`, the highest rank waiting anywhere, so no layer can feed it
    /// any more (empty when nothing of that rank waits here).
    pub fn take(&mut self, rank: u32) -> Bucket<S> {
        self.buckets.remove(&rank).unwrap_or_else(|| Bucket::new(1))
    }

    /// Multiplies every waiting numerator by `factor` when the common denominator does.
    pub fn scale(&mut self, numbers: &Numbers, factor: &Factor, stride: usize) -> Result<(), EngineError> {
        for bucket in self.buckets.values_mut() {
            bucket.scale(numbers, factor, stride)?;
        }
        Ok(())
    }

    /// Files the children of the layer of rank `from` under their ranks; a bucket new to
    /// them counts one more feeding layer. A child whose rank did not fall is refused.
    pub fn receive(
        &mut self,
        children: Vec<Children<S>>,
        stride: usize,
        from: u32,
        rank_of: impl Fn(S) -> u32,
    ) -> Result<(), EngineError> {
        let mut touched: Vec<u32> = Vec::new();
        // Room for every child at once, rank by rank: a bucket grown by doubling would hold
        // up to twice its children, and copy them all on the way.
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for &key in children.iter().flat_map(|c| &c.0) {
            *counts.entry(rank_of(key)).or_default() += 1;
        }
        for (r, count) in counts {
            if r < from {
                let bucket = self.buckets.entry(r).or_insert_with(|| Bucket::new(stride));
                bucket.reserve_exact(count, stride)?;
            }
        }
        for (keys, arena) in children {
            // Children come in runs of one rank (in most chains every move falls by one):
            // one bucket lookup per run, not per child.
            let mut i = 0;
            while i < keys.len() {
                let r = rank_of(keys[i]);
                if r >= from {
                    return Err(EngineError::RankDidNotFall { from, to: r });
                }
                let bucket = self.buckets.entry(r).or_insert_with(|| Bucket::new(stride));
                if !touched.contains(&r) {
                    touched.push(r);
                    bucket.batches += 1;
                }
                loop {
                    bucket.push(keys[i], &arena[i * stride..(i + 1) * stride])?;
                    i += 1;
                    if i == keys.len() || rank_of(keys[i]) != r {
                        break;
                    }
                }
            }
        }
        Ok(())
    }
}
