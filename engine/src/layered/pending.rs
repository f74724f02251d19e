//! Mass waiting to be expanded: one bucket per rank below the current layer. A step hands
//! its children over here by rank; a move may skip ranks, so a bucket can be fed by several
//! layers before its turn comes (it is merged then, see `Bucket::merged`).

use super::alloc;
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
    /// them counts one more feeding layer. A child whose rank did not fall is refused. With
    /// `give_back` (a step near its budget), the memory of the shards filed is handed back
    /// to the system after each sixteenth of them and at the end, so the layer is not held
    /// twice.
    pub fn receive(
        &mut self,
        children: Vec<Children<S>>,
        stride: usize,
        from: u32,
        rank_of: impl Fn(S) -> u32,
        give_back: bool,
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
        let every = children.len().div_ceil(16).max(1);
        for (filed, (keys, arena)) in children.into_iter().enumerate() {
            if give_back && filed > 0 && filed % every == 0 {
                // The shards filed so far are freed: their memory goes back before the
                // bucket grows into the next ones.
                alloc::give_back();
            }
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
        if give_back {
            alloc::give_back();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Children filed with their memory given back as they go land as those filed without:
    /// every child under its rank, in order, with its numerator, in 40 shards of two ranks.
    #[test]
    fn giving_memory_back_while_filing_files_the_same_children() {
        let shards = || -> Vec<Children<u32>> {
            (0..40u32)
                .map(|s| ((0..s).map(|k| 1000 * s + k).collect(), (0..s).map(|k| u64::from(k) * 3).collect()))
                .collect()
        };
        // Rank 2 for even states, 1 for odd ones, fed by a layer of rank 3.
        let rank_of = |s: u32| 1 + s.is_multiple_of(2) as u32;
        let [kept, given] = [false, true].map(|give_back| {
            let mut pending = Pending::empty();
            pending.receive(shards(), 1, 3, rank_of, give_back).unwrap();
            [2, 1].map(|r| {
                let bucket = pending.take(r);
                (bucket.keys.clone(), bucket.nums.clone(), bucket.batches)
            })
        });
        assert_eq!(kept, given);
        let all: Vec<u32> = shards().into_iter().flat_map(|(keys, _)| keys).collect();
        assert_eq!(given[0].0, all.iter().copied().filter(|s| s % 2 == 0).collect::<Vec<_>>());
        assert_eq!(given[1].0.len() + given[0].0.len(), all.len());
        assert_eq!(given[1].1, given[1].0.iter().map(|s| u64::from(s % 1000) * 3).collect::<Vec<_>>());
        assert_eq!((given[0].2, given[1].2), (1, 1));
        // A child whose rank does not fall is refused, given back or not.
        let mut pending = Pending::empty();
        let refused = pending.receive(shards(), 1, 2, rank_of, true);
        assert_eq!(refused, Err(EngineError::RankDidNotFall { from: 2, to: 2 }));
    }
}
