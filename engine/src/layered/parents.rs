//! The pass over a layer's parents: one call of `transitions` per state gives its move
//! total (0 = it absorbs), its absorbed mass by class, and its moves as edges, bucketed by a
//! hash shard of the child so that each shard can later add up its children alone.

use super::arena::Bucket;
use super::numbers::Numbers;
use super::{Mode, chunk_size};
use crate::Ranked;
use crate::cancel::{Cancel, requested};
use crate::error::{EngineError, MAX_WEIGHT};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hash};
use std::ops::Range;

/// Shards of the children: enough for two to many cores to share the summing evenly.
pub(super) const SHARDS: usize = 256;

/// A move from parent `parent` (an index among the parents of its round) to `child`. Packed: a step's edges are
/// its largest structure, and a `u64` state's edge takes 12 bytes instead of 16.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
pub(super) struct Edge<S> {
    pub child: S,
    pub parent: u32,
}

/// The edges one chunk of parents sends to one shard, in parent order, with their weights:
/// `weights` stays empty while every weight is 1 (uniform choice, path counts), and holds
/// one weight per edge from the first other weight on.
pub(super) struct EdgeList<S> {
    pub edges: Vec<Edge<S>>,
    weights: Vec<u32>,
}

impl<S: Copy> Clone for EdgeList<S> {
    fn clone(&self) -> Self {
        EdgeList { edges: self.edges.clone(), weights: self.weights.clone() }
    }
}

impl<S: Copy> EdgeList<S> {
    pub fn new() -> EdgeList<S> {
        EdgeList { edges: Vec::new(), weights: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// The weight of edge `k`.
    #[inline]
    pub fn weight(&self, k: usize) -> u32 {
        if self.weights.is_empty() { 1 } else { self.weights[k] }
    }

    /// Appends an edge of weight `weight`, growing fallibly.
    #[inline]
    pub fn push(&mut self, edge: Edge<S>, weight: u32) -> Result<(), EngineError> {
        if weight != 1 || !self.weights.is_empty() {
            if self.weights.is_empty() {
                // The first weight other than 1: the edges before it all had weight 1.
                super::alloc::reserve_exact(&mut self.weights, self.edges.capacity().max(1))?;
                self.weights.resize(self.edges.len(), 1);
            }
            super::alloc::push(&mut self.weights, weight)?;
        }
        super::alloc::push(&mut self.edges, edge)
    }

    /// Room for `total` edges in all, where it has less.
    fn reserve_total(&mut self, total: usize) -> Result<(), EngineError> {
        match total.checked_sub(self.edges.len()) {
            Some(more) if total > self.edges.capacity() => super::alloc::reserve_exact(&mut self.edges, more),
            _ => Ok(()),
        }
    }
}

/// Edges by shard, each shard a list of lists (one per chunk of parents, in parent order).
pub(super) type Shards<S> = Vec<Vec<EdgeList<S>>>;

/// The parents (of `n`) whose edges round `index` of `rounds` builds (see `budget::rounds`).
pub(super) fn round(index: usize, rounds: usize, n: usize) -> Range<usize> {
    n * index / rounds..n * (index + 1) / rounds
}

/// What the pass over one layer found.
pub(super) struct Scan<K, S> {
    /// Each parent's move total, 0 for an absorbing state.
    pub totals: Vec<u64>,
    /// Numerators (over the layer's denominator) that absorbed here, by class, in the run's
    /// arithmetic (see `Numbers::accumulate`).
    pub absorbed: BTreeMap<K, Vec<u64>>,
    /// The edges out of the parents whose edges the pass built.
    pub edges: Shards<S>,
    /// How many moves there are in all, kept or not.
    pub moves: u64,
}

/// What one chunk of a layer yields besides its move totals.
struct Part<K, S> {
    absorbed: BTreeMap<K, Vec<u64>>,
    edges: Vec<EdgeList<S>>,
    moves: u64,
}

/// The fewest states of a chunk whose edges foretell the rest's.
const SAMPLED: usize = 1024;

/// Room to spare over the edges foretold, in eighths: a shard's share of a chunk's edges
/// varies by about 1% on a big layer, and moves per state drift along a layer.
const SPARE_EIGHTHS: usize = 1;

impl<K, S: Copy> Part<K, S> {
    /// Gives each list of the part's shards room for the edges of `states` states, at the rate
    /// of the first `done` (shards share a chunk's edges evenly: they are a hash's).
    fn room_for(&mut self, states: usize, done: usize, part: (usize, usize)) -> Result<(), EngineError> {
        let lists: Vec<&mut EdgeList<S>> =
            self.edges.iter_mut().enumerate().filter(|(s, _)| in_part(*s, part)).map(|(_, l)| l).collect();
        let so_far: usize = lists.iter().map(|l| l.len()).sum();
        if so_far == 0 || done < SAMPLED {
            return Ok(());
        }
        let each = (so_far as u128 * states as u128 / (done as u128 * lists.len() as u128)) as usize;
        let total = each + each * SPARE_EIGHTHS / 8 + 16;
        lists.into_iter().try_for_each(|l| l.reserve_total(total))
    }
}

/// Expands the states of `layer` (of rank `rank`) with indices in `visit` once, in parallel
/// chunks, checking the weights against the chain's contract; builds the edges of those in
/// `build` only (the others' children are not even put in canonical form), and of those only
/// the edges into the shards of part `part.0` of `part.1` (see [`in_part`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn scan<C, K, F>(
    chain: &C,
    layer: &Bucket<C::State>,
    rank: u32,
    (mode, numbers): (Mode, &Numbers),
    classify: &F,
    (hasher, visit, build): (&(impl BuildHasher + Sync), Range<usize>, Range<usize>),
    part: (usize, usize),
    cancel: Option<&Cancel>,
) -> Result<Scan<K, C::State>, EngineError>
where
    C: Ranked,
    K: Ord + Send,
    F: Fn(C::State) -> K + Sync,
{
    let pass = Pass { chain, layer, rank, mode, numbers, classify, hasher, build, part, cancel };
    let chunk = chunk_size(visit.len());
    // Each chunk writes its move totals in their place: totals gathered from the chunks
    // would be held twice while copied, 8 bytes a parent more than the budget counts.
    let mut totals = super::alloc::zeroed(visit.len())?;
    let parts: Vec<Part<K, C::State>> = layer.keys[visit.clone()]
        .par_chunks(chunk)
        .zip(totals.par_chunks_mut(chunk))
        .enumerate()
        .map(|(c, (states, totals))| pass.chunk(visit.start + c * chunk, states, totals))
        .collect::<Result<_, _>>()?;
    Ok(gather(parts, totals, numbers))
}

/// What every chunk of one pass shares.
struct Pass<'p, C: Ranked, F, H> {
    chain: &'p C,
    layer: &'p Bucket<C::State>,
    rank: u32,
    mode: Mode,
    numbers: &'p Numbers,
    classify: &'p F,
    hasher: &'p H,
    build: Range<usize>,
    /// The part of the shards whose edges are built, and of how many parts.
    part: (usize, usize),
    /// Polled every `CANCEL_EVERY` states: a cancelled chunk stops early, and the caller
    /// drops the partial scan.
    cancel: Option<&'p Cancel>,
}

/// States between two polls of the cancel token: a few milliseconds of work at most.
const CANCEL_EVERY: usize = 4096;

impl<C, K, F, H> Pass<'_, C, F, H>
where
    C: Ranked,
    K: Ord,
    F: Fn(C::State) -> K,
    H: BuildHasher,
{
    /// The states of one chunk, the first of which has index `first` in the layer, their
    /// move totals written in `totals`. The caller checked that every index fits a `u32`.
    fn chunk(
        &self,
        first: usize,
        states: &[C::State],
        totals: &mut [u64],
    ) -> Result<Part<K, C::State>, EngineError> {
        let mut out = Vec::new();
        let mut here = Part {
            absorbed: BTreeMap::new(),
            edges: (0..SHARDS).map(|_| EdgeList::new()).collect(),
            moves: 0,
        };
        // After the first states, each list is given room for the rest at their rate: grown
        // by doubling, a list is copied a dozen times on the way, each copy on fresh pages,
        // and ends with a quarter of its room unused on average.
        let sample = (states.len() / 32).max(SAMPLED).min(states.len());
        for (j, state) in states.iter().enumerate() {
            if j.is_multiple_of(CANCEL_EVERY) && requested(self.cancel) {
                break;
            }
            if j == sample {
                // Only the parents in `build` make edges.
                let built = |n: usize| overlap(first..first + n, &self.build);
                here.room_for(built(states.len()), built(sample), self.part)?;
            }
            let parent = first + j;
            let build = self.build.contains(&parent);
            // The children of a parent whose edges are not built need no canonical form.
            let total = if build {
                self.chain.canonical_transitions(*state, &mut out)
            } else {
                self.chain.transitions(*state, &mut out)
            };
            if out.is_empty() {
                // A layer kept for a later round has no numerators: the first round counted
                // its absorbed mass.
                if let Some(limbs) = self.layer.kept_limbs(parent) {
                    let sum = here.absorbed.entry((self.classify)(*state)).or_default();
                    self.numbers.accumulate(sum, limbs);
                }
                continue;
            }
            totals[j] = total;
            here.moves += out.len() as u64;
            let mut check = WeightCheck::default();
            for &(child, weight) in &out {
                check.add(weight);
                if !build {
                    continue;
                }
                // Narrowed before it is checked, but the edges of a state that fails the check
                // are never used: the pass returns the refusal instead.
                let weight = if self.mode == Mode::Paths { 1 } else { weight as u32 };
                // Numbered within the round: its shares are handed over by themselves.
                let edge = Edge { child, parent: (parent - self.build.start) as u32 };
                let shard = shard_of(self.hasher, &child);
                if in_part(shard, self.part) {
                    here.edges[shard].push(edge, weight)?;
                }
            }
            if !check.passes(total, out.len()) {
                return Err(refusal(&out, total, self.rank));
            }
        }
        Ok(here)
    }
}

/// One state's moves against the contract, on the way: every weight from 1 to
/// `MAX_WEIGHT`, all adding up to the total. Two operations per move, in the edge loop.
#[derive(Default)]
struct WeightCheck {
    sum: u64,
    /// The OR of every `w | (w - 1)`: within `MAX_WEIGHT` exactly when every weight is
    /// from 1 to `MAX_WEIGHT` (w = 0 wraps to all ones).
    bits: u64,
}

impl WeightCheck {
    #[inline(always)]
    fn add(&mut self, w: u64) {
        self.sum = self.sum.wrapping_add(w);
        self.bits |= w | w.wrapping_sub(1);
    }

    /// With every weight below 2^32 and at most 2^32 moves, the sum cannot have wrapped.
    #[inline(always)]
    fn passes(&self, total: u64, moves: usize) -> bool {
        self.bits <= MAX_WEIGHT && self.sum == total && moves as u64 <= MAX_WEIGHT + 1
    }
}

/// The rule the moves broke, first by move, then by their sum.
#[cold]
fn refusal<S>(moves: &[(S, u64)], total: u64, rank: u32) -> EngineError {
    let sum = moves.iter().map(|m| m.1 as u128).sum();
    for &(_, weight) in moves {
        if weight == 0 {
            return EngineError::ZeroWeight { rank };
        }
        if weight > MAX_WEIGHT {
            return EngineError::WeightTooLarge { weight };
        }
    }
    EngineError::WeightsDoNotSum { rank, total, sum }
}

/// The chunks' findings joined in chunk order, beside the move totals they wrote.
fn gather<K: Ord, S>(parts: Vec<Part<K, S>>, totals: Vec<u64>, numbers: &Numbers) -> Scan<K, S> {
    let mut absorbed: BTreeMap<K, Vec<u64>> = BTreeMap::new();
    let mut edges: Shards<S> = (0..SHARDS).map(|_| Vec::new()).collect();
    let mut moves = 0;
    for part in parts {
        moves += part.moves;
        for (k, v) in part.absorbed {
            numbers.accumulate(absorbed.entry(k).or_default(), &v);
        }
        for (s, list) in part.edges.into_iter().enumerate() {
            edges[s].push(list);
        }
    }
    Scan { totals, absorbed, edges, moves }
}

/// How many indices `a` and `b` share.
fn overlap(a: Range<usize>, b: &Range<usize>) -> usize {
    a.end.min(b.end).saturating_sub(a.start.max(b.start))
}

/// The hasher that shards children: fixed, so every process of a shared run puts a state
/// in the same shard, and so with the same owner.
pub(super) fn shard_hasher() -> foldhash::fast::FixedState {
    foldhash::fast::FixedState::with_seed(0x5eed_9e37_79b9_7f4a)
}

/// Whether shard `shard` is in part `index` of `parts`: a step whose children are summed in
/// parts sums the shards of one part at a time.
#[inline]
pub(super) fn in_part(shard: usize, (index, parts): (usize, usize)) -> bool {
    shard % parts == index
}

#[inline]
pub(super) fn shard_of<S: Hash>(hasher: &impl BuildHasher, state: &S) -> usize {
    (hasher.hash_one(state) >> 56) as usize % SHARDS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part_with(edges_each: usize) -> Part<u8, u64> {
        let mut list = EdgeList::new();
        for child in 0..edges_each as u64 {
            list.push(Edge { child, parent: 0 }, 1).unwrap();
        }
        Part { absorbed: BTreeMap::new(), edges: vec![list; SHARDS], moves: 0 }
    }

    #[test]
    fn a_chunks_lists_get_room_for_its_edges_at_the_rate_of_its_first_parents() {
        // 10 edges a shard from the first 1,024 parents: 2.5 a parent; 32,768 parents
        // make 320 a shard, and an eighth spare with 16 more is 376.
        let mut part = part_with(10);
        part.room_for(32_768, 1_024, (0, 1)).unwrap();
        assert!(part.edges.iter().all(|l| (376..2 * 376).contains(&l.edges.capacity())));
        // Summed in two parts: only the shards of the part are given room, at the rate of
        // theirs (the same 10 edges a shard).
        let mut part = part_with(10);
        part.room_for(32_768, 1_024, (1, 2)).unwrap();
        for (s, list) in part.edges.iter().enumerate() {
            assert_eq!(list.edges.capacity() >= 376, in_part(s, (1, 2)), "shard {s}");
        }
        // Too few parents seen to foretell the rest: the lists grow as they fill.
        let mut part = part_with(10);
        part.room_for(32_768, 1_000, (0, 1)).unwrap();
        assert!(part.edges.iter().all(|l| l.edges.capacity() < 376));
    }

    #[test]
    fn the_parents_that_build_edges_are_those_in_both_ranges() {
        assert_eq!(overlap(0..100, &(50..200)), 50);
        assert_eq!(overlap(100..200, &(0..100)), 0);
        assert_eq!(overlap(10..20, &(0..100)), 10);
    }
}
