//! Exact forward propagation: probability mass (or path counts) pushed layer by layer.
//!
//! Within a layer every state's mass is an integer numerator over one common denominator D.
//! A layer with move totals W_s moves to denominator D * L, L = lcm(W_s), and each child
//! receives numerator * (L / W_s) * weight: integer work only, reduced to fractions once, at
//! the absorbing states.
//!
//! Numerators never exceed D (mass never exceeds one), so a layer stores them in one flat
//! arena of fixed-width limbs, not one heap number per state. A step runs in two parallel
//! phases: one pass over the parents finds their move totals and lists their moves as edges,
//! bucketed by a hash shard of the child; then each shard adds up its children's numerators
//! in a small map of its own.

pub mod limbs;

use crate::Chain;
use crate::error::EngineError;
use hashbrown::HashMap;
use limbs::{add_mul, limbs_for, mul_into, to_integer};
use rayon::prelude::*;
use rug::{Integer, Rational};
use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hash};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Probability mass: each move weighted by the chain's weights.
    Probability,
    /// Path counts: every move counts once, whatever its weight.
    Paths,
}

/// A finished layer, shown to the caller before it is expanded.
pub struct Layer<'a, S> {
    pub rank: u32,
    /// Canonical states of the layer.
    pub states: &'a [S],
    pub denominator: &'a Integer,
    nums: &'a [u64],
    stride: usize,
}

impl<S> Layer<'_, S> {
    /// The numerator (over `denominator`) of the i-th state.
    pub fn numerator(&self, i: usize) -> Integer {
        to_integer(&self.nums[i * self.stride..(i + 1) * self.stride])
    }
}

/// Sees each finished layer (for statistics and progress).
pub type LayerCallback<'a, S> = dyn FnMut(&Layer<'_, S>) + 'a;

pub struct Options<'a, S> {
    /// Refuse, before allocating, a layer whose projected memory exceeds this many bytes.
    pub memory_budget: Option<u64>,
    /// Called once per layer, in falling rank order, on the calling thread.
    pub on_layer: Option<&'a mut LayerCallback<'a, S>>,
    /// Stop after the layer of this rank: a partial run, whose result holds only the mass
    /// absorbed by then (for looking at the first layers of a big chain).
    pub until_rank: Option<u32>,
}

impl<S> Default for Options<'_, S> {
    fn default() -> Self {
        Options { memory_budget: None, on_layer: None, until_rank: None }
    }
}

/// States with numerators of `stride` limbs each; `batches` > 1 means a state may repeat.
struct Bucket<S> {
    keys: Vec<S>,
    nums: Vec<u64>,
    stride: usize,
    batches: u32,
}

impl<S: Copy + Ord> Bucket<S> {
    fn new(stride: usize) -> Bucket<S> {
        Bucket { keys: Vec::new(), nums: Vec::new(), stride, batches: 0 }
    }

    fn limbs(&self, i: usize) -> &[u64] {
        &self.nums[i * self.stride..(i + 1) * self.stride]
    }

    /// Re-lays the arena with wider entries.
    fn widen(&mut self, stride: usize) {
        if stride <= self.stride {
            return;
        }
        let mut nums = vec![0u64; self.keys.len() * stride];
        for i in 0..self.keys.len() {
            nums[i * stride..i * stride + self.stride].copy_from_slice(self.limbs(i));
        }
        self.nums = nums;
        self.stride = stride;
    }

    fn push(&mut self, key: S, limbs: &[u64]) {
        self.widen(limbs.len());
        self.keys.push(key);
        let start = self.nums.len();
        self.nums.resize(start + self.stride, 0);
        self.nums[start..start + limbs.len()].copy_from_slice(limbs);
    }

    /// Multiplies every numerator by `factor` (mass waiting while the denominator grows).
    fn scale(&mut self, factor: &Integer, stride: usize) {
        let values: Vec<Integer> = (0..self.keys.len()).map(|i| to_integer(self.limbs(i)) * factor).collect();
        self.stride = stride.max(self.stride);
        self.nums = vec![0u64; self.keys.len() * self.stride];
        for (i, v) in values.iter().enumerate() {
            limbs::write(&mut self.nums[i * self.stride..(i + 1) * self.stride], v);
        }
    }

    /// Adds up repeated states (a bucket fed by more than one layer).
    fn merged(mut self) -> Bucket<S> {
        if self.batches <= 1 {
            return self;
        }
        self.widen(self.stride + 1);
        let mut order: Vec<usize> = (0..self.keys.len()).collect();
        order.sort_by_key(|&i| self.keys[i]);
        let mut out = Bucket::new(self.stride);
        for i in order {
            if out.keys.last() == Some(&self.keys[i]) {
                let last = out.keys.len() - 1;
                let stride = out.stride;
                add_mul(&mut out.nums[last * stride..], self.limbs(i), 1);
            } else {
                out.push(self.keys[i], self.limbs(i));
            }
        }
        out.batches = 1;
        out
    }
}

/// What one chunk of a layer yields: move totals, absorbed mass, edges by shard.
struct Part<K, S> {
    totals: Vec<u64>,
    absorbed: BTreeMap<K, Integer>,
    edges: Vec<Vec<Edge<S>>>,
}

/// A move from parent `parent` (an index in its layer) to `child`, with its weight.
#[derive(Clone, Copy)]
struct Edge<S> {
    child: S,
    parent: u32,
    weight: u32,
}

const SHARDS: usize = 64;

/// Pushes mass from `start` until every bit of it is absorbed, and returns the total that
/// reached each class of absorbing state, as `classify` names them. In `Paths` mode the
/// values are whole numbers: the number of move sequences ending in each class.
pub fn propagate<C, K, F>(
    chain: &C,
    start: C::State,
    mode: Mode,
    classify: F,
    mut options: Options<'_, C::State>,
) -> Result<BTreeMap<K, Rational>, EngineError>
where
    C: Chain,
    K: Ord + Clone + Send,
    F: Fn(C::State) -> K + Sync,
{
    let hasher = hashbrown::DefaultHashBuilder::default();
    let mut pending: BTreeMap<u32, Bucket<C::State>> = BTreeMap::new();
    let start = chain.canonical(start);
    let mut first = Bucket::new(1);
    first.push(start, &[1]);
    first.batches = 1;
    pending.insert(chain.rank(start), first);
    let mut denominator = Integer::from(1);
    let mut absorbed: BTreeMap<K, Rational> = BTreeMap::new();
    let mut previous_len = 1usize;
    let mut moves_per_state = 0.0f64;

    while let Some((rank, bucket)) = pending.pop_last() {
        let layer = bucket.merged();
        let (n, stride) = (layer.keys.len(), layer.stride);
        if let Some(cb) = options.on_layer.as_mut() {
            cb(&Layer { rank, states: &layer.keys, denominator: &denominator, nums: &layer.nums, stride });
        }

        // The edges are allocated in the pass below: project them from the last layer's moves
        // per state before building them.
        let key_bytes = std::mem::size_of::<C::State>() as f64;
        let edge_bytes = std::mem::size_of::<Edge<C::State>>() as f64;
        if let Some(budget) = options.memory_budget {
            let bytes = (n as f64 * (key_bytes + 8.0 * stride as f64 + moves_per_state * edge_bytes)) as u64;
            if bytes > budget {
                let positions = (n as f64 * (n as f64 / previous_len as f64).max(1.0)) as u64;
                return Err(EngineError::TooLarge { rank: rank - 1, states: positions, bytes, budget });
            }
        }

        // One pass over the layer: each state's move total (0 = absorbing), the absorbed mass
        // by class, and the moves as edges bucketed by the child's shard.
        let chunk = chunk_size(n);
        let parts: Vec<Part<K, C::State>> = layer
            .keys
            .par_chunks(chunk)
            .enumerate()
            .map(|(c, part)| {
                let mut out = Vec::new();
                let mut here = Part {
                    totals: Vec::with_capacity(part.len()),
                    absorbed: BTreeMap::new(),
                    edges: (0..SHARDS).map(|_| Vec::new()).collect(),
                };
                for (j, state) in part.iter().enumerate() {
                    let total = chain.transitions(*state, &mut out);
                    let parent = c * chunk + j;
                    if out.is_empty() {
                        *here.absorbed.entry(classify(*state)).or_default() +=
                            to_integer(layer.limbs(parent));
                        here.totals.push(0);
                        continue;
                    }
                    here.totals.push(total);
                    for &(child, weight) in &out {
                        let child = chain.canonical(child);
                        let weight = if mode == Mode::Paths { 1 } else { weight as u32 };
                        here.edges[shard_of(&hasher, &child)].push(Edge {
                            child,
                            parent: parent as u32,
                            weight,
                        });
                    }
                }
                here
            })
            .collect();
        let mut totals = Vec::with_capacity(n);
        let mut absorbed_here: BTreeMap<K, Integer> = BTreeMap::new();
        let mut by_shard: Vec<Vec<Vec<Edge<C::State>>>> = (0..SHARDS).map(|_| Vec::new()).collect();
        for part in parts {
            totals.extend(part.totals);
            for (k, v) in part.absorbed {
                *absorbed_here.entry(k).or_default() += v;
            }
            for (s, list) in part.edges.into_iter().enumerate() {
                by_shard[s].push(list);
            }
        }
        let moves: u64 = by_shard.iter().flatten().map(|l| l.len() as u64).sum();
        moves_per_state = moves as f64 / n as f64;
        for (k, numerator) in absorbed_here {
            *absorbed.entry(k).or_default() += Rational::from((numerator, denominator.clone()));
        }
        if moves == 0 {
            continue;
        }
        if options.until_rank.is_some_and(|r| rank <= r) {
            break;
        }

        // The layer's lcm L, and each state's factor L / W_s.
        let mut lcm = Integer::from(1);
        let mut factors: HashMap<u64, Factor> = HashMap::new();
        if mode == Mode::Probability {
            let mut seen: Vec<u64> = totals.iter().copied().filter(|&w| w > 0).collect();
            seen.sort_unstable();
            seen.dedup();
            for &w in &seen {
                lcm.lcm_mut(&Integer::from(w));
            }
            // L / W once per distinct total, not once per state.
            for w in seen {
                let f = Integer::from(&lcm / w);
                factors.insert(w, f.to_u64().map_or(Factor::Big(f), Factor::Small));
            }
        }
        // Children's numerators fit D * L (mass <= 1). A child's count is at most the sum of
        // its parents' counts times their multiplicities: below states x largest x moves.
        let next_stride = match mode {
            Mode::Probability => limbs_for(denominator.significant_bits() + lcm.significant_bits()),
            Mode::Paths => {
                let largest = (0..n).into_par_iter().map(|i| bit_length(layer.limbs(i))).max().unwrap_or(0);
                limbs_for(largest + 64 - (n as u64).leading_zeros() + 64 - moves.leading_zeros())
            }
        };

        if let Some(budget) = options.memory_budget {
            // Project the next layer from this layer's growth, capped by the moves made; the
            // edges and this layer's shares are held while it is built.
            let growth = n as f64 / previous_len as f64;
            let projected = ((n as f64 * growth.max(1.0)) as u64).min(moves);
            let entry = key_bytes as u64 + 8 * next_stride as u64;
            let bytes = n as u64 * entry + (moves as f64 * edge_bytes) as u64 + projected * (entry + 24);
            if bytes > budget {
                return Err(EngineError::TooLarge { rank: rank - 1, states: projected, bytes, budget });
            }
        }
        previous_len = n;

        // Each parent's share: numerator * L / W_s, widened to the children's width.
        let contributions = shares(&layer, &totals, &factors, mode, next_stride, chunk);
        drop(layer.nums);

        // Every shard adds up its children.
        let children: Vec<(Vec<C::State>, Vec<u64>)> = by_shard
            .into_par_iter()
            .map(|lists| {
                let total: usize = lists.iter().map(|l| l.len()).sum();
                let mut slots: HashMap<C::State, u32> = HashMap::with_capacity(total / 2);
                let (mut keys, mut arena) = (Vec::new(), Vec::new());
                for e in lists.into_iter().flatten() {
                    let slot = *slots.entry(e.child).or_insert_with(|| {
                        keys.push(e.child);
                        arena.resize(arena.len() + next_stride, 0);
                        (keys.len() - 1) as u32
                    }) as usize;
                    let src = &contributions
                        [e.parent as usize * next_stride..(e.parent as usize + 1) * next_stride];
                    add_mul(&mut arena[slot * next_stride..(slot + 1) * next_stride], src, e.weight as u64);
                }
                (keys, arena)
            })
            .collect();
        drop(contributions);

        // Mass still waiting at lower ranks moves to the new denominator too.
        if mode == Mode::Probability && lcm != 1 {
            for bucket in pending.values_mut() {
                bucket.scale(&lcm, next_stride);
            }
            denominator *= &lcm;
        }
        let mut touched: Vec<u32> = Vec::new();
        for (keys, arena) in children {
            for (i, key) in keys.into_iter().enumerate() {
                let r = chain.rank(key);
                debug_assert!(r < rank, "rank must fall along every move");
                let bucket = pending.entry(r).or_insert_with(|| Bucket::new(next_stride));
                if !touched.contains(&r) {
                    touched.push(r);
                    bucket.batches += 1;
                }
                bucket.push(key, &arena[i * next_stride..(i + 1) * next_stride]);
            }
        }
    }
    Ok(absorbed)
}

/// Every parent's numerator times its factor L / W_s, in an arena of `stride`-limb entries.
fn shares<S: Copy + Ord + Sync>(
    layer: &Bucket<S>,
    totals: &[u64],
    factors: &HashMap<u64, Factor>,
    mode: Mode,
    stride: usize,
    chunk: usize,
) -> Vec<u64> {
    let mut out = vec![0u64; layer.keys.len() * stride];
    out.par_chunks_mut(chunk * stride).enumerate().for_each(|(c, part)| {
        for (j, dst) in part.chunks_mut(stride).enumerate() {
            let i = c * chunk + j;
            let (src, w) = (layer.limbs(i), totals[i]);
            if w == 0 {
                continue;
            }
            match (mode, &factors.get(&w)) {
                (Mode::Paths, _) => dst[..src.len()].copy_from_slice(src),
                (Mode::Probability, Some(Factor::Small(f))) => mul_into(dst, src, *f),
                (Mode::Probability, Some(Factor::Big(f))) => limbs::write(dst, &(to_integer(src) * f)),
                (Mode::Probability, None) => unreachable!("every move total has a factor"),
            }
        }
    });
    out
}

/// L / W for one move total W: one limb in practice, a big number in general.
enum Factor {
    Small(u64),
    Big(Integer),
}

/// The number of significant bits of a limb number.
fn bit_length(limbs: &[u64]) -> u32 {
    limbs.iter().rposition(|&l| l != 0).map_or(0, |top| 64 * top as u32 + 64 - limbs[top].leading_zeros())
}

fn chunk_size(len: usize) -> usize {
    // A few chunks per thread, for balance; each chunk keeps its edges in order.
    len.div_ceil(4 * rayon::current_num_threads()).max(1)
}

fn shard_of<S: Hash>(hasher: &impl BuildHasher, state: &S) -> usize {
    (hasher.hash_one(state) >> 58) as usize % SHARDS
}
