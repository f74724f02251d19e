//! The summing step: each shard of edges adds its children's shares in a small table of its
//! own, in parallel with the other shards; no lock, and no child is in two shards. The table
//! holds only each child's index in the shard's keys and a few bits of its hash (4 bytes a
//! slot, open addressing, at most 3/4 full), not the child itself. For an edge a few places
//! on, its slot is asked of memory before it is needed, and then the key and numerator of the
//! first slot from there whose hash bits are the child's.

use super::alloc;
use super::budget::check_layer;
use super::limbs::prefetch;
use super::numbers::Numbers;
use super::parents::{EdgeList, SHARDS, Shards};
use crate::cancel::{Cancel, requested};
use crate::error::EngineError;
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
    slots: Slots,
    keys: Vec<S>,
    arena: Vec<u64>,
}

/// An open-addressing table of indices into a shard's keys: slot value 0 is empty; otherwise
/// its low `bits` bits hold `i + 1` for key `i` (a table at most 3/4 full of 2^`bits` slots
/// holds fewer keys than that) and the bits above them a tag, the hash's low bits. A probe
/// passes over a slot whose tag differs without reading its key: the keys are read at random,
/// a cache miss each, and a probe often meets another child's slot first. A power of two of
/// slots, probed linearly from the hash's top bits, at most 3/4 full.
struct Slots {
    slots: Vec<u32>,
    /// log2 of the number of slots (0 with none).
    bits: u32,
}

impl Slots {
    fn new() -> Slots {
        Slots { slots: Vec::new(), bits: 0 }
    }

    /// The bits of a slot that hold a key's index (plus one).
    #[inline]
    fn index_mask(&self) -> u32 {
        ((1u64 << self.bits.min(32)) - 1) as u32
    }

    /// The tag a hash leaves in the bits of a slot above the index (none when the index takes
    /// all 32).
    #[inline]
    fn tag(&self, hash: u64) -> u32 {
        (hash << self.bits) as u32
    }

    /// The slot value naming key `index` for a hash.
    #[inline]
    fn value(&self, hash: u64, index: usize) -> u32 {
        self.tag(hash) | (index as u32 + 1)
    }

    /// The key index a slot value names if its tag is the hash's.
    #[inline]
    fn tagged(&self, value: u32, hash: u64) -> Option<usize> {
        let mask = self.index_mask();
        (value & !mask == self.tag(hash)).then(|| (value & mask) as usize - 1)
    }

    /// Where a hash's probe starts.
    #[inline]
    fn home(&self, hash: u64) -> usize {
        if self.bits == 0 { 0 } else { (hash >> (64 - self.bits)) as usize }
    }

    /// Room for `entries` keys in all, or an error if the system refuses it; rebuilt from
    /// `keys` when it grows.
    fn reserve<S: Hash>(
        &mut self,
        entries: usize,
        keys: &[S],
        hasher: &foldhash::fast::FixedState,
    ) -> Result<(), ()> {
        if entries * 4 <= self.slots.len() * 3 {
            return Ok(());
        }
        let bits = (entries * 4 / 3 + 1).next_power_of_two().trailing_zeros().max(4);
        let mut slots = Vec::new();
        slots.try_reserve_exact(1 << bits).map_err(|_| ())?;
        slots.resize(1 << bits, 0);
        let mut grown = Slots { slots, bits };
        let mask = (1 << bits) - 1;
        for (i, key) in keys.iter().enumerate() {
            let hash = hasher.hash_one(key);
            let mut at = grown.home(hash);
            while grown.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            grown.slots[at] = grown.value(hash, i);
        }
        *self = grown;
        Ok(())
    }

    /// The key index where a hash's probe will most likely end, to ask memory for its key
    /// ahead: the first of the slots from its home (those of the cache line asked for, about)
    /// to carry the hash's tag; none if an empty slot comes first (the child is new).
    #[inline]
    fn likely_index(&self, hash: u64) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut at = self.home(hash);
        for _ in 0..LIKELY_PROBES {
            let value = self.slots[at];
            if value == 0 {
                return None;
            }
            if let Some(i) = self.tagged(value, hash) {
                return Some(i);
            }
            at = (at + 1) & mask;
        }
        None
    }

    /// Asks memory for the slot where a hash's probe starts.
    #[inline]
    fn prefetch(&self, hash: u64) {
        prefetch(self.slots.as_ptr().wrapping_add(self.home(hash)));
    }
}

/// The hasher of the slot tables: not the shard hasher, whose top bits are the same for
/// every child of a shard (and would leave the table's control bytes alike).
fn slot_hasher() -> foldhash::fast::FixedState {
    foldhash::fast::FixedState::with_seed(0x0123_4567_89ab_cdef)
}

impl<S: Copy + Eq + Hash + Send> Sums<S> {
    pub fn new() -> Sums<S> {
        let empty = || ShardSum { slots: Slots::new(), keys: Vec::new(), arena: Vec::new() };
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
                    sum.slots = Slots::new();
                }
                Ok(())
            })
            .collect()
    }

    /// Adds children summed elsewhere (a shard's keys and their `stride`-word numerators,
    /// from each of `batches`) to the same sums, each child once: the owner of a shard adds
    /// up what every process sent it, round by round. As [`Sums::add`], a shard holding more
    /// children than `limit` is refused below the rank `from`.
    pub fn merge(
        &mut self,
        batches: Vec<Vec<Children<S>>>,
        (stride, numbers): (usize, &Numbers),
        (from, limit): (u32, u64),
    ) -> Result<(), EngineError> {
        let mut by_shard: Vec<Vec<Children<S>>> = (0..SHARDS).map(|_| Vec::new()).collect();
        for batch in batches {
            for (s, children) in batch.into_iter().enumerate() {
                if !children.0.is_empty() {
                    by_shard[s].push(children);
                }
            }
        }
        by_shard
            .into_par_iter()
            .zip(self.shards.par_iter_mut())
            .map(|(parts, sum)| {
                let count: usize = parts.iter().map(|c| c.0.len()).sum();
                check_layer(from.saturating_sub(1), (sum.keys.len() + count) as u64, limit)?;
                parts.iter().try_for_each(|(keys, nums)| sum.merge(keys, nums, (stride, numbers)))
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

/// How many edges ahead a share, and the child's key and numerator, are fetched: about one
/// memory latency of work. The child's slot is fetched twice as far ahead, so that by then
/// it can be read to find which key and numerator to fetch.
const AHEAD: usize = 8;

/// How many slots from a probe's home [`Slots::likely_index`] looks at: past its cache line
/// the look would itself miss.
const LIKELY_PROBES: usize = 4;

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
        if total == 0 {
            // Nothing to add (a shard outside the part under way, whose table, if summed
            // already, is freed and must not be built again).
            return Ok(());
        }
        let refused = |_| EngineError::AllocationFailed { bytes: (total as u64 / 2) * 6 };
        let hasher = &slot_hasher();
        let ShardSum { slots, keys, arena } = self;
        slots.reserve(keys.len() + total / 2, keys, hasher).map_err(refused)?;
        let share = |parent: u32| shares.as_ptr().wrapping_add(parent as usize * stride);
        let mut added = 0usize;
        // Each child's slot hash, found once, when its slot is first asked for, and kept for
        // its two later uses in a ring of as many edges as that is ahead.
        let mut hashes = [0u64; 2 * AHEAD];
        for list in &lists {
            for (k, e) in list.edges.iter().take(2 * AHEAD).enumerate() {
                hashes[k] = hasher.hash_one(e.child);
                slots.prefetch(hashes[k]);
            }
            for (k, e) in list.edges.iter().enumerate() {
                if added.is_multiple_of(CANCEL_EVERY) && requested(cancel) {
                    return Ok(());
                }
                added += 1;
                // What an edge a few places on will read, asked of memory now: all of it is
                // read at random, a cache miss each without this. First the child's slot;
                // once that has come, the key it names (compared with the child) and its
                // numerator (added to), and the parent's share.
                let hash = hashes[k % (2 * AHEAD)];
                if let Some(a) = list.edges.get(k + 2 * AHEAD) {
                    hashes[k % (2 * AHEAD)] = hasher.hash_one(a.child);
                    slots.prefetch(hashes[k % (2 * AHEAD)]);
                }
                if let Some(a) = list.edges.get(k + AHEAD) {
                    prefetch(share(a.parent));
                    prefetch(share(a.parent).wrapping_add(stride - 1));
                    if let Some(i) = slots.likely_index(hashes[(k + AHEAD) % (2 * AHEAD)]) {
                        prefetch(keys.as_ptr().wrapping_add(i));
                        prefetch(arena.as_ptr().wrapping_add(i * stride));
                    }
                }
                // A table 3/4 full grows before it takes another child.
                if (keys.len() + 1) * 4 > slots.slots.len() * 3 {
                    slots.reserve((keys.len() + 1) * 2, keys, hasher).map_err(refused)?;
                }
                let slot = slot_of(slots, keys, arena, e.child, hash, stride)?;
                let parent = e.parent as usize;
                let src = &shares[parent * stride..(parent + 1) * stride];
                numbers.add_mul(&mut arena[slot * stride..(slot + 1) * stride], src, list.weight(k) as u64);
            }
        }
        Ok(())
    }
}

impl<S: Copy + Eq + Hash> ShardSum<S> {
    /// Adds each of `keys` with its numerator (`stride` words of `nums`): to the child's sum
    /// where the shard has it, else as a new child.
    fn merge(
        &mut self,
        keys: &[S],
        nums: &[u64],
        (stride, numbers): (usize, &Numbers),
    ) -> Result<(), EngineError> {
        let refused = |_| EngineError::AllocationFailed { bytes: keys.len() as u64 * 6 };
        let hasher = &slot_hasher();
        let ShardSum { slots, keys: own, arena } = self;
        slots.reserve(own.len() + keys.len(), own, hasher).map_err(refused)?;
        for (&key, num) in keys.iter().zip(nums.chunks_exact(stride)) {
            let slot = slot_of(slots, own, arena, key, hasher.hash_one(key), stride)?;
            numbers.add_mul(&mut arena[slot * stride..(slot + 1) * stride], num, 1);
        }
        Ok(())
    }
}

/// The index of `child` (whose slot hash is `hash`) among a shard's `keys`: found by its
/// slot, or added with a numerator of `stride` zero words. The table has room for it.
#[inline]
fn slot_of<S: Copy + Eq>(
    slots: &mut Slots,
    keys: &mut Vec<S>,
    arena: &mut Vec<u64>,
    child: S,
    hash: u64,
    stride: usize,
) -> Result<usize, EngineError> {
    let mask = slots.slots.len() - 1;
    let mut at = slots.home(hash);
    loop {
        match slots.slots[at] {
            0 => {
                alloc::push(keys, child)?;
                alloc::reserve(arena, stride)?;
                arena.resize(arena.len() + stride, 0);
                slots.slots[at] = slots.value(hash, keys.len() - 1);
                return Ok(keys.len() - 1);
            }
            value => {
                if let Some(i) = slots.tagged(value, hash)
                    && keys[i] == child
                {
                    return Ok(i);
                }
                at = (at + 1) & mask;
            }
        }
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
        // Children summed by two other processes, added up here: each child once.
        let mut owned: Sums<u8> = Sums::new();
        let sent = |keys: Vec<u8>, nums: Vec<u64>| {
            let mut batch: Vec<Children<u8>> = (0..SHARDS).map(|_| (Vec::new(), Vec::new())).collect();
            batch[3] = (keys, nums);
            batch
        };
        owned
            .merge(
                vec![sent(vec![7, 9], vec![35, 0, 13, 0]), sent(vec![9, 4], vec![u64::MAX, 0, 1, 0])],
                exact,
                (4, 5),
            )
            .unwrap();
        owned.merge(vec![sent(vec![7], vec![1, 0])], exact, (4, 5)).unwrap();
        assert_eq!(owned.children()[3], (vec![7, 9, 4], vec![36, 0, 12, 1, 1, 0]));
        let mut full: Sums<u8> = Sums::new();
        let err =
            full.merge(vec![sent(vec![7, 9], vec![1, 0, 1, 0]), sent(vec![4], vec![1, 0])], exact, (4, 2));
        assert_eq!(err.unwrap_err(), EngineError::LayerTooLarge { rank: 3, states: 3, limit: 2 });
        // A second round adds to the same children.
        let mut sums = Sums::new();
        sums.add(edges.clone(), &shares, exact, (4, 7), false, None).unwrap();
        sums.add(edges, &shares, exact, (4, 7), true, None).unwrap();
        assert_eq!(sums.children()[3], (vec![7, 9], vec![70, 0, 26, 0]));
    }

    #[test]
    fn a_table_that_grows_over_rounds_keeps_every_child_once() {
        // 5,000 children, each reached from parent 0 (share 1) and parent 1 (share 10), in
        // two rounds: the table grows from nothing several times and is rebuilt from the keys.
        let shares = [1u64, 10];
        let exact = (1, &Numbers::Exact);
        let round = |parent: u32| {
            let mut edges: Shards<u32> = (0..SHARDS).map(|_| Vec::new()).collect();
            let mut list = EdgeList::new();
            (0..5_000u32).for_each(|c| list.push(Edge { child: c * 7919 % 5_000, parent }, 1).unwrap());
            edges[0] = vec![list];
            edges
        };
        let mut sums = Sums::new();
        sums.add(round(0), &shares, exact, (1, 100_000), false, None).unwrap();
        sums.add(round(1), &shares, exact, (1, 100_000), true, None).unwrap();
        let (keys, arena) = &sums.children()[0];
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..5_000).collect::<Vec<u32>>(), "each child once");
        assert!(arena.iter().all(|&n| n == 11), "each child's two shares added");
    }

    /// A slot names its key and carries its hash's low bits above the index, for tables of
    /// any size up to 2^32 slots (whose index leaves no bit for a tag); a probe finds a child
    /// past slots of other children whatever their tags, and the look ahead names the key a
    /// probe ends at.
    #[test]
    fn a_slot_names_its_key_and_a_probe_passes_over_other_tags() {
        for bits in [4, 17, 31, 32] {
            let table = Slots { slots: Vec::new(), bits };
            for (hash, index) in [(0u64, 0usize), (u64::MAX, 11), (0x9e37_79b9_7f4a_7c15, 5)] {
                let value = table.value(hash, index);
                assert_ne!(value, 0, "a held slot is never empty");
                assert_eq!(table.tagged(value, hash), Some(index));
            }
            if bits < 32 {
                // Hashes differing in the tag's lowest bit.
                assert_eq!(table.tagged(table.value(0, 3), 1), None);
            }
        }
        // Three children with one home slot (top bits 0) and different tags, in a table of
        // 16 slots: each found where it was added, after the others.
        let hasher = slot_hasher();
        let (mut slots, mut keys, mut arena) = (Slots::new(), Vec::new(), Vec::new());
        slots.reserve(4, &keys, &hasher).unwrap();
        assert_eq!(slots.bits, 4);
        let hashes = [1u64, 2, 3];
        for (child, &hash) in hashes.iter().enumerate() {
            assert_eq!(slot_of(&mut slots, &mut keys, &mut arena, child as u8, hash, 1), Ok(child));
        }
        for (child, &hash) in hashes.iter().enumerate() {
            assert_eq!(slot_of(&mut slots, &mut keys, &mut arena, child as u8, hash, 1), Ok(child));
            assert_eq!(slots.likely_index(hash), Some(child));
        }
        assert_eq!(keys.len(), 3);
        assert_eq!(slots.likely_index(4), None, "a new child's probe meets an empty slot");
    }
}
