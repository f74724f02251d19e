//! The pass over a layer's parents: one call of `transitions` per state gives its move
//! total (0 = it absorbs), its absorbed mass by class, and its moves as edges, bucketed by a
//! hash shard of the child so that each shard can later add up its children alone.

use super::arena::Bucket;
use super::limbs::to_integer;
use super::{Mode, chunk_size};
use crate::Chain;
use rayon::prelude::*;
use rug::Integer;
use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hash};

/// Shards of the children: enough for two to many cores to share the summing evenly.
pub(super) const SHARDS: usize = 64;

/// A move from parent `parent` (an index in its layer) to `child`, with its weight.
#[derive(Clone, Copy)]
pub(super) struct Edge<S> {
    pub child: S,
    pub parent: u32,
    pub weight: u32,
}

/// Edges by shard, each shard a list of lists (one per chunk of parents, in parent order).
pub(super) type Shards<S> = Vec<Vec<Vec<Edge<S>>>>;

/// What the pass over one layer found.
pub(super) struct Scan<K, S> {
    /// Each parent's move total, 0 for an absorbing state.
    pub totals: Vec<u64>,
    /// Numerators (over the layer's denominator) that absorbed here, by class.
    pub absorbed: BTreeMap<K, Integer>,
    pub edges: Shards<S>,
    /// How many edges there are in all.
    pub moves: u64,
}

/// What one chunk of a layer yields.
struct Part<K, S> {
    totals: Vec<u64>,
    absorbed: BTreeMap<K, Integer>,
    edges: Vec<Vec<Edge<S>>>,
}

/// Expands every state of `layer` once, in parallel chunks of `chunk` states.
pub(super) fn scan<C, K, F>(
    chain: &C,
    layer: &Bucket<C::State>,
    mode: Mode,
    classify: &F,
    hasher: &(impl BuildHasher + Sync),
) -> Scan<K, C::State>
where
    C: Chain,
    K: Ord + Send,
    F: Fn(C::State) -> K + Sync,
{
    let chunk = chunk_size(layer.len());
    let parts: Vec<Part<K, C::State>> = layer
        .keys
        .par_chunks(chunk)
        .enumerate()
        .map(|(c, states)| scan_chunk(chain, layer, c * chunk, states, mode, classify, hasher))
        .collect();
    gather(parts, layer.len())
}

/// The states of one chunk, the first of which has index `first` in the layer.
fn scan_chunk<C, K, F>(
    chain: &C,
    layer: &Bucket<C::State>,
    first: usize,
    states: &[C::State],
    mode: Mode,
    classify: &F,
    hasher: &impl BuildHasher,
) -> Part<K, C::State>
where
    C: Chain,
    K: Ord,
    F: Fn(C::State) -> K,
{
    let mut out = Vec::new();
    let mut here = Part {
        totals: Vec::with_capacity(states.len()),
        absorbed: BTreeMap::new(),
        edges: (0..SHARDS).map(|_| Vec::new()).collect(),
    };
    for (j, state) in states.iter().enumerate() {
        let total = chain.transitions(*state, &mut out);
        let parent = first + j;
        if out.is_empty() {
            *here.absorbed.entry(classify(*state)).or_default() += to_integer(layer.limbs(parent));
            here.totals.push(0);
            continue;
        }
        here.totals.push(total);
        for &(child, weight) in &out {
            let child = chain.canonical(child);
            let weight = if mode == Mode::Paths { 1 } else { weight as u32 };
            here.edges[shard_of(hasher, &child)].push(Edge { child, parent: parent as u32, weight });
        }
    }
    here
}

/// The chunks' findings joined in chunk order.
fn gather<K: Ord, S>(parts: Vec<Part<K, S>>, n: usize) -> Scan<K, S> {
    let mut totals = Vec::with_capacity(n);
    let mut absorbed: BTreeMap<K, Integer> = BTreeMap::new();
    let mut edges: Shards<S> = (0..SHARDS).map(|_| Vec::new()).collect();
    for part in parts {
        totals.extend(part.totals);
        for (k, v) in part.absorbed {
            *absorbed.entry(k).or_default() += v;
        }
        for (s, list) in part.edges.into_iter().enumerate() {
            edges[s].push(list);
        }
    }
    let moves = edges.iter().flatten().map(|l| l.len() as u64).sum();
    Scan { totals, absorbed, edges, moves }
}

#[inline]
fn shard_of<S: Hash>(hasher: &impl BuildHasher, state: &S) -> usize {
    (hasher.hash_one(state) >> 58) as usize % SHARDS
}
