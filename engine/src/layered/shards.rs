//! The summing step: each shard of edges adds its children's shares in a small map of its
//! own, in parallel with the other shards; no lock, and no child is in two shards.

use super::limbs::add_mul;
use super::parents::{Edge, Shards};
use hashbrown::HashMap;
use rayon::prelude::*;
use std::hash::Hash;

/// The children of one shard: their states, and their numerators as `stride`-limb entries.
pub(super) type Children<S> = (Vec<S>, Vec<u64>);

/// Adds up every child's numerator: the parent's share (from `shares`, `stride` limbs per
/// parent) times the move's weight, over every move into it.
pub(super) fn sum_children<S>(edges: Shards<S>, shares: &[u64], stride: usize) -> Vec<Children<S>>
where
    S: Copy + Eq + Hash + Send,
{
    edges.into_par_iter().map(|lists| sum_shard(lists, shares, stride)).collect()
}

fn sum_shard<S: Copy + Eq + Hash>(lists: Vec<Vec<Edge<S>>>, shares: &[u64], stride: usize) -> Children<S> {
    let total: usize = lists.iter().map(|l| l.len()).sum();
    let mut slots: HashMap<S, u32> = HashMap::with_capacity(total / 2);
    let (mut keys, mut arena) = (Vec::new(), Vec::new());
    for e in lists.into_iter().flatten() {
        let slot = *slots.entry(e.child).or_insert_with(|| {
            keys.push(e.child);
            arena.resize(arena.len() + stride, 0);
            (keys.len() - 1) as u32
        }) as usize;
        let src = &shares[e.parent as usize * stride..(e.parent as usize + 1) * stride];
        add_mul(&mut arena[slot * stride..(slot + 1) * stride], src, e.weight as u64);
    }
    (keys, arena)
}
