//! The summing step: each shard of edges adds its children's shares in a small table of its
//! own, in parallel with the other shards; no lock, and no child is in two shards. The table
//! holds only each child's index in the shard's keys (4 bytes and a control byte), not the
//! child itself.

use super::alloc;
use super::budget::check_layer;
use super::limbs::prefetch;
use super::numbers::Numbers;
use super::parents::{EdgeList, SHARDS, Shards};
use crate::cancel::{Cancel, requested};
use crate::error::EngineError;
use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rayon::prelude::*;
use std::hash::{BuildHasher, Hash};

/// The children of one shard: their states, and their numerators as `stride`-limb entries.
pub(super) type Children<S> = (Vec<S>, Vec<u64>);

/// The children summed so far, shard by shard: a step taken in rounds adds each round's
/// edges to the same sums.
pub(super) struct Sums<S> {
    shards: Vec<ShardSum<S>>,
}

/// One shard's children so far, each once, with its numerator; `slots` finds a child's
/// index in `keys` (kept until the step's last round).
struct ShardSum<S> {
    slots: HashTable<u32>,
    keys: Vec<S>,
    arena: Vec<u64>,
}

/// The hash of the child in `slot`, for a table that grows.
fn rehash<'k, S: Hash>(keys: &'k [S], hasher: &'k foldhash::fast::FixedState) -> impl Fn(&u32) -> u64 + 'k {
    move |&slot| hasher.hash_one(&keys[slot as usize])
}

/// The hasher of the slot tables: not the shard hasher, whose top bits are the same for
/// every child of a shard (and would leave the table's control bytes alike).
fn slot_hasher() -> foldhash::fast::FixedState {
    foldhash::fast::FixedState::with_seed(0x0123_4567_89ab_cdef)
}

impl<S: Copy + Eq + Hash + Send> Sums<S> {
    pub fn new() -> Sums<S> {
        let empty = || ShardSum { slots: HashTable::new(), keys: Vec::new(), arena: Vec::new() };
        Sums { shards: (0..SHARDS).map(|_| empty()).collect() }
    }

    /// Adds every edge's share to its child: the parent's share (from `shares`, `stride`
    /// words per parent) times the move's weight. A shard indexes its children with `u32`
    /// slots: one with more moves into it than `limit` (at most `u32::MAX`) is refused as a
    /// layer too large, below the rank `from` of the parents. A shard stops early once
    /// `cancel` is cancelled (polled every `CANCEL_EVERY` edges): the caller then drops the
    /// partial sums. After the `last` round the tables are freed.
    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &mut self,
        edges: Shards<S>,
        shares: &[u64],
        (stride, numbers): (usize, &Numbers),
        (from, limit): (u32, u64),
        last: bool,
        cancel: Option<&Cancel>,
    ) -> Result<(), EngineError> {
        for (lists, sum) in edges.iter().zip(&self.shards) {
            let moves: usize = lists.iter().map(|l| l.len()).sum();
            check_layer(from.saturating_sub(1), (sum.keys.len() + moves) as u64, limit)?;
        }
        edges
            .into_par_iter()
            .zip(self.shards.par_iter_mut())
            .map(|(lists, sum)| {
                sum.add(lists, shares, (stride, numbers), cancel)?;
                if last {
                    sum.slots = HashTable::new();
                }
                Ok(())
            })
            .collect()
    }

    /// The children of every shard, with their numerators (`stride` words each).
    pub fn children(self) -> Vec<Children<S>> {
        self.shards.into_iter().map(|s| (s.keys, s.arena)).collect()
    }
}

/// Edges a shard adds between two polls of the cancel token: a few milliseconds of work.
const CANCEL_EVERY: usize = 1 << 16;

/// How many edges ahead a share is fetched: about one memory latency of work.
const AHEAD: usize = 8;

impl<S: Copy + Eq + Hash> ShardSum<S> {
    /// Every structure grows fallibly: a refused allocation is an error, not an abort.
    fn add(
        &mut self,
        lists: Vec<EdgeList<S>>,
        shares: &[u64],
        (stride, numbers): (usize, &Numbers),
        cancel: Option<&Cancel>,
    ) -> Result<(), EngineError> {
        let total: usize = lists.iter().map(|l| l.len()).sum();
        let refused = |_| EngineError::AllocationFailed { bytes: (total as u64 / 2) * 5 };
        let hasher = &slot_hasher();
        let ShardSum { slots, keys, arena } = self;
        slots.try_reserve(total / 2, rehash(keys, hasher)).map_err(refused)?;
        let share = |parent: u32| shares.as_ptr().wrapping_add(parent as usize * stride);
        let edges = lists.iter().flat_map(|list| {
            // The share an edge a few places on will read, asked of memory now: the shares
            // are read in parent order, sparsely, a cache miss each without this.
            let ahead = |k: usize| list.edges.get(k + AHEAD).map(|a| a.parent);
            list.edges.iter().enumerate().map(move |(k, &e)| (e.child, e.parent, list.weight(k), ahead(k)))
        });
        for (i, (child, parent, weight, ahead)) in edges.enumerate() {
            if i.is_multiple_of(CANCEL_EVERY) && requested(cancel) {
                break;
            }
            if let Some(parent) = ahead {
                prefetch(share(parent));
                prefetch(share(parent).wrapping_add(stride - 1));
            }
            // A full table would grow inside `entry`, infallibly: it grows here first.
            if slots.len() == slots.capacity() {
                slots.try_reserve(slots.len().max(1), rehash(keys, hasher)).map_err(refused)?;
            }
            let hash = hasher.hash_one(child);
            let slot = match slots.entry(hash, |&slot| keys[slot as usize] == child, rehash(keys, hasher)) {
                Entry::Occupied(o) => *o.get() as usize,
                Entry::Vacant(v) => {
                    alloc::push(keys, child)?;
                    alloc::reserve(arena, stride)?;
                    arena.resize(arena.len() + stride, 0);
                    v.insert((keys.len() - 1) as u32);
                    keys.len() - 1
                }
            };
            let src = &shares[parent as usize * stride..(parent as usize + 1) * stride];
            numbers.add_mul(&mut arena[slot * stride..(slot + 1) * stride], src, weight as u64);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layered::parents::{Edge, SHARDS};

    #[test]
    fn a_shard_adds_each_childs_shares_and_refuses_more_moves_than_its_slots_address() {
        let mut edges: Shards<u8> = (0..SHARDS).map(|_| Vec::new()).collect();
        let list = |moves: &[(u8, u32, u32)]| {
            let mut list = EdgeList::new();
            for &(child, parent, weight) in moves {
                list.push(Edge { child, parent }, weight).unwrap();
            }
            list
        };
        // Weights other than 1 from the first edge, from the second, and none.
        edges[3] = vec![list(&[(7, 0, 2), (9, 1, 1)]), list(&[(7, 1, 1), (7, 1, 4)]), list(&[(9, 0, 1)])];
        let shares = [10, 0, 3, 0]; // two parents of two limbs each
        let exact = (2, &Numbers::Exact);
        let mut sums = Sums::new();
        sums.add(edges.clone(), &shares, exact, (4, 5), true, None).unwrap();
        let children = sums.children();
        assert_eq!(children[3], (vec![7, 9], vec![35, 0, 13, 0]));
        assert!(children.iter().enumerate().all(|(s, c)| s == 3 || c.0.is_empty()));
        let err = Sums::new().add(edges.clone(), &shares, exact, (4, 4), true, None).unwrap_err();
        assert_eq!(err, EngineError::LayerTooLarge { rank: 3, states: 5, limit: 4 });
        // A second round adds to the same children.
        let mut sums = Sums::new();
        sums.add(edges.clone(), &shares, exact, (4, 7), false, None).unwrap();
        sums.add(edges, &shares, exact, (4, 7), true, None).unwrap();
        assert_eq!(sums.children()[3], (vec![7, 9], vec![70, 0, 26, 0]));
    }
}
