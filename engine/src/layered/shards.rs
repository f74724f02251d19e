//! The summing step: each shard of edges adds its children's shares in a small map of its
//! own, in parallel with the other shards; no lock, and no child is in two shards.

use super::alloc;
use super::budget::check_layer;
use super::limbs::add_mul;
use super::parents::{Edge, Shards};
use crate::cancel::{Cancel, requested};
use crate::error::EngineError;
use hashbrown::HashMap;
use hashbrown::hash_map::Entry;
use rayon::prelude::*;
use std::hash::Hash;
use std::mem::size_of;

/// The children of one shard: their states, and their numerators as `stride`-limb entries.
pub(super) type Children<S> = (Vec<S>, Vec<u64>);

/// Adds up every child's numerator: the parent's share (from `shares`, `stride` limbs per
/// parent) times the move's weight, over every move into it. A shard indexes its children
/// with `u32` slots: one with more moves into it than `limit` (at most `u32::MAX`) is
/// refused as a layer too large, below the rank `from` of the parents. A shard stops early
/// once `cancel` is cancelled (polled every `CANCEL_EVERY` edges): the caller then drops
/// the partial sums.
pub(super) fn sum_children<S>(
    edges: Shards<S>,
    shares: &[u64],
    stride: usize,
    (from, limit): (u32, u64),
    cancel: Option<&Cancel>,
) -> Result<Vec<Children<S>>, EngineError>
where
    S: Copy + Eq + Hash + Send,
{
    for lists in &edges {
        let moves: usize = lists.iter().map(|l| l.len()).sum();
        check_layer(from.saturating_sub(1), moves as u64, limit)?;
    }
    edges.into_par_iter().map(|lists| sum_shard(lists, shares, stride, cancel)).collect()
}

/// Edges a shard adds between two polls of the cancel token: a few milliseconds of work.
const CANCEL_EVERY: usize = 1 << 16;

/// One shard's children, each once, with its numerator. Every structure grows fallibly:
/// a refused allocation is an error, not an abort.
fn sum_shard<S: Copy + Eq + Hash>(
    lists: Vec<Vec<Edge<S>>>,
    shares: &[u64],
    stride: usize,
    cancel: Option<&Cancel>,
) -> Result<Children<S>, EngineError> {
    let total: usize = lists.iter().map(|l| l.len()).sum();
    let mut slots: HashMap<S, u32> = HashMap::new();
    let refused =
        |_| EngineError::AllocationFailed { bytes: (total as u64 / 2) * (size_of::<S>() as u64 + 5) };
    slots.try_reserve(total / 2).map_err(refused)?;
    let (mut keys, mut arena) = (Vec::new(), Vec::new());
    for (i, e) in lists.into_iter().flatten().enumerate() {
        if i.is_multiple_of(CANCEL_EVERY) && requested(cancel) {
            break;
        }
        // A full map would grow inside `entry`, infallibly: it grows here first.
        if slots.len() == slots.capacity() {
            slots.try_reserve(slots.len().max(1)).map_err(refused)?;
        }
        let slot = match slots.entry(e.child) {
            Entry::Occupied(o) => *o.get() as usize,
            Entry::Vacant(v) => {
                alloc::push(&mut keys, e.child)?;
                alloc::reserve(&mut arena, stride)?;
                arena.resize(arena.len() + stride, 0);
                v.insert((keys.len() - 1) as u32);
                keys.len() - 1
            }
        };
        let src = &shares[e.parent as usize * stride..(e.parent as usize + 1) * stride];
        add_mul(&mut arena[slot * stride..(slot + 1) * stride], src, e.weight as u64);
    }
    Ok((keys, arena))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layered::parents::SHARDS;

    #[test]
    fn a_shard_adds_each_childs_shares_and_refuses_more_moves_than_its_slots_address() {
        let mut edges: Shards<u8> = (0..SHARDS).map(|_| Vec::new()).collect();
        let e = |child, parent, weight| Edge { child, parent, weight };
        edges[3] = vec![vec![e(7, 0, 2), e(9, 1, 1)], vec![e(7, 1, 5)]];
        let shares = [10, 0, 3, 0]; // two parents of two limbs each
        let children = sum_children(edges.clone(), &shares, 2, (4, 3), None).unwrap();
        assert_eq!(children[3], (vec![7, 9], vec![35, 0, 3, 0]));
        assert!(children.iter().enumerate().all(|(s, c)| s == 3 || c.0.is_empty()));
        let err = sum_children(edges, &shares, 2, (4, 2), None).unwrap_err();
        assert_eq!(err, EngineError::LayerTooLarge { rank: 3, states: 3, limit: 2 });
    }
}
