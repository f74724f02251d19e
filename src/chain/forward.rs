//! Exact forward propagation: probability mass (or path counts) pushed layer by layer.
//!
//! Within a layer every state's mass is an integer numerator over one common denominator D.
//! A layer with move totals W_s moves to denominator D * L, L = lcm(W_s), and each child
//! receives numerator * (L / W_s) * weight: integer work only, reduced to fractions once, at
//! the absorbing states. Layers are processed in parallel with sharded hash maps.

use super::Chain;
use crate::error::Error;
use hashbrown::HashMap;
use rayon::prelude::*;
use rug::{Assign, Integer, Rational};
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
    /// Canonical states with their numerators (over `denominator`).
    pub states: &'a [(S, Integer)],
    pub denominator: &'a Integer,
}

/// Sees each finished layer (for statistics and progress).
pub type LayerCallback<'a, S> = dyn FnMut(&Layer<'_, S>) + 'a;

pub struct Options<'a, S> {
    /// Refuse, before allocating, a layer whose projected memory exceeds this many bytes.
    pub memory_budget: Option<u64>,
    /// Called once per layer, in falling rank order, on the calling thread.
    pub on_layer: Option<&'a mut LayerCallback<'a, S>>,
}

impl<S> Default for Options<'_, S> {
    fn default() -> Self {
        Options { memory_budget: None, on_layer: None }
    }
}

/// States waiting at one rank; `batches` > 1 means the same state may appear twice.
struct Bucket<S> {
    entries: Vec<(S, Integer)>,
    batches: u32,
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
) -> Result<BTreeMap<K, Rational>, Error>
where
    C: Chain,
    K: Ord + Clone + Send,
    F: Fn(C::State) -> K + Sync,
{
    let hasher = hashbrown::DefaultHashBuilder::default();
    let mut pending: BTreeMap<u32, Bucket<C::State>> = BTreeMap::new();
    let start = chain.canonical(start);
    pending.insert(chain.rank(start), Bucket { entries: vec![(start, Integer::from(1))], batches: 1 });
    let mut denominator = Integer::from(1);
    let mut absorbed: BTreeMap<K, Rational> = BTreeMap::new();
    let mut previous_len = 1usize;

    while let Some((rank, bucket)) = pending.pop_last() {
        let layer = merge_duplicates(bucket);
        if let Some(cb) = options.on_layer.as_mut() {
            cb(&Layer { rank, states: &layer, denominator: &denominator });
        }

        // Pass 1: each state's move total (0 = absorbing), and the absorbed mass by class.
        let chunk = chunk_size(layer.len());
        let (totals, absorbed_here, moves): (Vec<u64>, BTreeMap<K, Integer>, u64) = layer
            .par_chunks(chunk)
            .map(|part| {
                let mut out = Vec::new();
                let mut totals = Vec::with_capacity(part.len());
                let mut here: BTreeMap<K, Integer> = BTreeMap::new();
                let mut moves = 0u64;
                for (state, numerator) in part {
                    let total = chain.transitions(*state, &mut out);
                    moves += out.len() as u64;
                    if out.is_empty() {
                        *here.entry(classify(*state)).or_default() += numerator;
                    }
                    totals.push(if out.is_empty() { 0 } else { total });
                }
                (totals, here, moves)
            })
            .reduce(
                || (Vec::new(), BTreeMap::new(), 0),
                |(mut ta, mut ha, ma), (tb, hb, mb)| {
                    ta.extend(tb);
                    for (k, v) in hb {
                        *ha.entry(k).or_default() += v;
                    }
                    (ta, ha, ma + mb)
                },
            );
        for (k, numerator) in absorbed_here {
            *absorbed.entry(k).or_default() += Rational::from((numerator, denominator.clone()));
        }
        if moves == 0 {
            continue;
        }

        // The layer's lcm, and L / W for every distinct total W.
        let mut lcm = Integer::from(1);
        let mut factors: HashMap<u64, Integer> = HashMap::new();
        if mode == Mode::Probability {
            for &w in &totals {
                if w > 0 && !factors.contains_key(&w) {
                    factors.insert(w, Integer::new());
                    lcm.lcm_mut(&Integer::from(w));
                }
            }
            for (w, f) in factors.iter_mut() {
                *f = Integer::from(&lcm / *w);
            }
        }

        if let Some(budget) = options.memory_budget {
            // Project the next layer from this layer's growth, capped by the moves made.
            let growth = layer.len() as f64 / previous_len as f64;
            let projected = ((layer.len() as f64 * growth.max(1.0)) as u64).min(moves);
            let limb_bytes = (denominator.significant_bits() + lcm.significant_bits()) as u64 / 8 + 16;
            let entry = (std::mem::size_of::<(C::State, Integer)>() as u64 + limb_bytes) * 2;
            let bytes = entry * (layer.len() as u64 + 2 * projected);
            if bytes > budget {
                return Err(Error::TooLarge { layer: rank - 1, positions: projected, bytes, budget });
            }
        }
        previous_len = layer.len();

        // Pass 2: push every state's mass to its children, into per-chunk sharded maps.
        let partials: Vec<Vec<HashMap<C::State, Integer>>> = layer
            .par_chunks(chunk)
            .zip(totals.par_chunks(chunk))
            .map(|(part, part_totals)| {
                let mut shards: Vec<HashMap<C::State, Integer>> =
                    (0..SHARDS).map(|_| HashMap::new()).collect();
                let mut out = Vec::new();
                let mut share = Integer::new();
                for ((state, numerator), &total) in part.iter().zip(part_totals) {
                    if total == 0 {
                        continue;
                    }
                    chain.transitions(*state, &mut out);
                    match mode {
                        Mode::Probability => share.assign(numerator * &factors[&total]),
                        Mode::Paths => share.clone_from(numerator),
                    }
                    for &(child, weight) in &out {
                        let child = chain.canonical(child);
                        let slot = shards[shard_of(&hasher, &child)].entry(child).or_default();
                        if weight == 1 || mode == Mode::Paths {
                            *slot += &share;
                        } else {
                            *slot += Integer::from(&share * weight);
                        }
                    }
                }
                shards
            })
            .collect();
        let merged = merge_shards(partials);

        // Mass still waiting at lower ranks moves to the new denominator too.
        if mode == Mode::Probability {
            for bucket in pending.values_mut() {
                bucket.entries.par_iter_mut().for_each(|(_, n)| *n *= &lcm);
            }
            denominator *= &lcm;
        }
        let mut touched: Vec<u32> = Vec::new();
        for map in merged {
            for (state, numerator) in map {
                let r = chain.rank(state);
                debug_assert!(r < rank, "rank must fall along every move");
                let bucket = pending.entry(r).or_insert_with(|| Bucket { entries: Vec::new(), batches: 0 });
                if !touched.contains(&r) {
                    touched.push(r);
                    bucket.batches += 1;
                }
                bucket.entries.push((state, numerator));
            }
        }
    }
    Ok(absorbed)
}

fn chunk_size(len: usize) -> usize {
    // One chunk per thread keeps the duplicated children (one map per chunk) few.
    len.div_ceil(rayon::current_num_threads()).max(1)
}

fn shard_of<S: Hash>(hasher: &impl BuildHasher, state: &S) -> usize {
    (hasher.hash_one(state) >> 58) as usize % SHARDS
}

/// Merges the chunk maps shard by shard, in parallel (a state lives in one shard only).
fn merge_shards<S: Hash + Eq + Send>(partials: Vec<Vec<HashMap<S, Integer>>>) -> Vec<HashMap<S, Integer>> {
    let mut by_shard: Vec<Vec<HashMap<S, Integer>>> = (0..SHARDS).map(|_| Vec::new()).collect();
    for chunk in partials {
        for (i, map) in chunk.into_iter().enumerate() {
            by_shard[i].push(map);
        }
    }
    by_shard
        .into_par_iter()
        .map(|mut maps| {
            maps.sort_by_key(|m| std::cmp::Reverse(m.len()));
            let mut maps = maps.into_iter();
            let mut target = maps.next().unwrap_or_default();
            for map in maps {
                for (state, n) in map {
                    *target.entry(state).or_default() += n;
                }
            }
            target
        })
        .collect()
}

/// A bucket fed by more than one layer may list a state twice: sort and add.
fn merge_duplicates<S: Ord + Copy>(bucket: Bucket<S>) -> Vec<(S, Integer)> {
    let mut entries = bucket.entries;
    if bucket.batches <= 1 {
        return entries;
    }
    entries.sort_by_key(|(s, _)| *s);
    let mut merged: Vec<(S, Integer)> = Vec::with_capacity(entries.len());
    for (s, n) in entries {
        match merged.last_mut() {
            Some((last, total)) if *last == s => *total += n,
            _ => merged.push((s, n)),
        }
    }
    merged
}
