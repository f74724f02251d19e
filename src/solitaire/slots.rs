//! Tables of classes found by their value, for the hot loops that look classes up: the
//! backward pass of `--whole-group` and its pass of every start's masses (built once, then
//! read), and the coach's search (one table a layer, filled by every task at once).

use crate::engine::layered::limbs::prefetch;
use crate::solitaire::pegs::Pegs;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Classes found by their value: open addressing by [`slot_of`], probed linearly, each
/// class (never the empty position, which marks a free slot) with where it is kept, two
/// indices. A look-up is one cache line, which [`Slots::prefetch`] can ask for ahead.
#[derive(Default)]
pub(crate) struct Slots {
    slots: Vec<(Pegs, u32, u32)>,
    /// `slots` has 2^`bits` entries.
    bits: u32,
}

impl Slots {
    /// The table of `count` classes, each with its two indices.
    pub(crate) fn of(count: usize, classes: impl Iterator<Item = (Pegs, u32, u32)>) -> Slots {
        let bits = Slots::bits_for(count);
        let mask = (1usize << bits) - 1;
        let mut slots = vec![(Pegs::EMPTY, 0, 0); 1 << bits];
        for entry in classes {
            let mut slot = slot_of(entry.0, bits);
            while slots[slot].0 != Pegs::EMPTY {
                slot = (slot + 1) & mask;
            }
            slots[slot] = entry;
        }
        Slots { slots, bits }
    }

    /// At most half the slots full: a probe rarely goes past its first cache line.
    fn bits_for(count: usize) -> u32 {
        (2 * count).max(2).next_power_of_two().trailing_zeros()
    }

    /// The bytes the table takes.
    pub(crate) fn bytes(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<(Pegs, u32, u32)>()) as u64
    }

    /// The bytes the table of `count` classes takes.
    pub(crate) fn bytes_for(count: usize) -> u64 {
        (std::mem::size_of::<(Pegs, u32, u32)>() as u64) << Slots::bits_for(count)
    }

    /// Asks memory for the slot where `class` would be.
    #[inline]
    pub(crate) fn prefetch(&self, class: Pegs) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[slot_of(class, self.bits)]);
        }
    }

    /// The indices kept with `class`, if it is there.
    #[inline]
    pub(crate) fn find(&self, class: Pegs) -> Option<(u32, u32)> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut slot = slot_of(class, self.bits);
        loop {
            let (c, p, i) = self.slots[slot];
            if c == class {
                return Some((p, i));
            }
            if c == Pegs::EMPTY {
                return None;
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// The classes a layer's jumps lead to, each in a slot of its own, met by every task at once:
/// open addressing by [`slot_of`], probed linearly, a class added by one compare-and-swap
/// (the empty position marks a free slot). A jump keeps its class's slot; once the layer is
/// found, [`SharedSlots::rank`] gives each slot the rank of its class among the sorted classes.
/// One table serves layer after layer ([`SharedSlots::reset`]): its pages are written once.
#[derive(Default)]
pub(crate) struct SharedSlots {
    slots: Vec<AtomicU64>,
    /// The table in use is the first 2^`bits` slots.
    bits: u32,
    /// The memory [`SharedSlots::rank`] sorts a layer's classes in, kept for the next layer:
    /// a page written again costs far less than a page first touched.
    words: Vec<u64>,
    /// Each slot's rank once [`SharedSlots::rank`] has ranked the layer: half the bytes of the
    /// table, so more of the jumps' look-ups that follow find it in the cache.
    ranks: Vec<AtomicU32>,
}

/// The slots [`SharedSlots::rank`] reads for a layer's classes in one task.
const SCAN_PIECE: usize = 1 << 16;

/// A table that cannot take another class (see [`SharedSlots::slot_or_add`]).
#[derive(Debug, PartialEq)]
pub(crate) struct Full;

impl SharedSlots {
    /// Empties the table and makes room for `count` classes (at most half full).
    pub(crate) fn reset(&mut self, count: usize) {
        self.bits = Slots::bits_for(count);
        // Slots are named in 32 bits: the coach's limits keep a layer's classes far fewer.
        debug_assert!(self.bits <= 32, "a table of 2^{} slots", self.bits);
        let size = 1usize << self.bits;
        // Grown, not made again: only the pages added are first touched.
        let kept = self.slots.len().min(size);
        self.slots[..kept].par_iter().for_each(|s| s.store(0, Ordering::Relaxed));
        grow_random_access(&mut self.slots, size, || AtomicU64::new(0));
    }

    /// The slots a table made for `count` classes has.
    pub(crate) fn size_for(count: usize) -> usize {
        1 << Slots::bits_for(count)
    }

    /// The slots in use.
    pub(crate) fn size(&self) -> usize {
        1 << self.bits
    }

    /// Whether `count` classes fit the table at most three quarters full (past that, probes
    /// grow long).
    pub(crate) fn holds(&self, count: usize) -> bool {
        4 * count <= 3 * self.size()
    }

    /// Asks memory for the slot where `class` would be.
    #[inline]
    pub(crate) fn prefetch(&self, class: Pegs) {
        prefetch(&self.slots[slot_of(class, self.bits)]);
    }

    /// The slot of `class` (not the empty position), added if it was not there: whether it was
    /// added, and where. A table with no free slot left is [`Full`].
    #[inline]
    pub(crate) fn slot_or_add(&self, class: Pegs) -> Result<(bool, u32), Full> {
        debug_assert!(class != Pegs::EMPTY);
        let mask = self.size() - 1;
        let mut slot = slot_of(class, self.bits);
        for _ in 0..=mask {
            let cell = &self.slots[slot];
            let mut found = cell.load(Ordering::Relaxed);
            if found == 0 {
                match cell.compare_exchange(0, class.0, Ordering::Relaxed, Ordering::Relaxed) {
                    Ok(_) => return Ok((true, slot as u32)),
                    Err(now) => found = now,
                }
            }
            if found == class.0 {
                return Ok((false, slot as u32));
            }
            slot = (slot + 1) & mask;
        }
        Err(Full)
    }

    /// The table's `classes` classes in ascending order; each class's slot then has its
    /// rank among them ([`SharedSlots::rank_at`]). `hole_bits` bits hold any class.
    pub(crate) fn rank(&mut self, classes: usize, hole_bits: u32) -> Vec<Pegs> {
        let slots = &self.slots[..self.size()];
        let held = |(slot, cell): (usize, &AtomicU64)| {
            let class = cell.load(Ordering::Relaxed);
            (class != 0).then_some((Pegs(class), slot))
        };
        grow_random_access(&mut self.ranks, slots.len(), || AtomicU32::new(0));
        let ranks = &self.ranks;
        // The class of rank `rank`, its rank put in its slot's place.
        let ranked = |rank: usize, class: Pegs, slot: usize| {
            ranks[slot].store(rank as u32, Ordering::Relaxed);
            class
        };
        // A class and its slot in one word where they fit (boards of up to 64 holes less the
        // slot's bits): a sort of words, half the bytes of pairs.
        let sorted: Vec<Pegs> = if hole_bits + self.bits <= u64::BITS {
            // The words of the layer before, their memory written again. Each piece of the
            // table is counted first, then writes its classes' words in their place (where
            // pieces gathered in a list took a copy and fresh pages).
            let mut words = std::mem::take(&mut self.words);
            let held_in = |p: usize| {
                let from = p * SCAN_PIECE;
                let piece = &slots[from..(from + SCAN_PIECE).min(slots.len())];
                piece.iter().enumerate().filter_map(move |(i, cell)| held((from + i, cell)))
            };
            let counts: Vec<usize> =
                (0..slots.len().div_ceil(SCAN_PIECE)).into_par_iter().map(|p| held_in(p).count()).collect();
            super::words::grow_to(&mut words, counts.iter().sum(), || 0);
            super::words::cut(&mut words, counts).into_par_iter().enumerate().for_each(|(p, (_, out))| {
                for (word, (class, slot)) in out.iter_mut().zip(held_in(p)) {
                    *word = class.0 << self.bits | slot as u64;
                }
            });
            super::words::sort_above(&mut words, self.bits);
            let mask = (1u64 << self.bits) - 1;
            let split = |(rank, &w): (usize, &u64)| ranked(rank, Pegs(w >> self.bits), (w & mask) as usize);
            let sorted = words.par_iter().enumerate().map(split).collect();
            self.words = words;
            sorted
        } else {
            let mut pairs: Vec<(Pegs, usize)> = Vec::with_capacity(classes);
            pairs.par_extend(slots.par_iter().enumerate().filter_map(held));
            pairs.par_sort_unstable();
            pairs.into_par_iter().enumerate().map(|(rank, (class, slot))| ranked(rank, class, slot)).collect()
        };
        debug_assert_eq!(sorted.len(), classes);
        sorted
    }

    /// Asks memory for the rank of `slot`.
    #[inline]
    pub(crate) fn prefetch_slot(&self, slot: u32) {
        prefetch(&self.ranks[slot as usize]);
    }

    /// The rank [`SharedSlots::rank`] put in `slot`.
    #[inline]
    pub(crate) fn rank_at(&self, slot: u32) -> u32 {
        self.ranks[slot as usize].load(Ordering::Relaxed)
    }
}

/// `table` grown to `len` items like [`super::words::grow_to`], its new memory named as read
/// at random before it is first written ([`crate::pages`]): the table is kept from layer to
/// layer, and each look-up lands on a page of its own.
fn grow_random_access<T: Send>(table: &mut Vec<T>, len: usize, new: impl Fn() -> T + Sync + Send) {
    if table.len() < len {
        table.reserve_exact(len - table.len());
        crate::pages::random_access(table);
    }
    super::words::grow_to(table, len, new);
}

/// A class's slot among 2^`bits` (a multiplicative hash: its top bits).
pub(crate) fn slot_of(class: Pegs, bits: u32) -> usize {
    (class.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (63 - bits) >> 1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Classes are found with the indices they were kept with, however their slots collide,
    /// and no other class is found.
    #[test]
    fn kept_classes_are_found_with_their_indices() {
        // Multiples of 2^40: their hashes share low bits, so many land in one run of slots.
        let classes: Vec<Pegs> = (1..=100u64).map(|k| Pegs(k << 40)).chain((1..=100).map(Pegs)).collect();
        let slots = Slots::of(classes.len(), classes.iter().enumerate().map(|(i, &c)| (c, i as u32, 7)));
        for (i, &class) in classes.iter().enumerate() {
            assert_eq!(slots.find(class), Some((i as u32, 7)));
        }
        assert_eq!(slots.find(Pegs(7 << 50)), None);
        assert_eq!(Slots::default().find(Pegs(1)), None);
    }

    /// Classes added from many tasks at once each take one slot, whoever adds them first;
    /// ranked, the classes come out sorted and each slot's rank is its class's, packed in
    /// words or (a board too large to pack) in pairs, in a table of one piece and of several
    /// (see `SCAN_PIECE`), a larger layer before a smaller one; a table with no slot free is
    /// full.
    #[test]
    fn shared_slots_rank_the_classes_added_side_by_side() {
        // 200,000 jumps into 70,001 classes, then 30,000 into 997, scattered by a
        // multiplicative hash; many share slots' runs (multiples of 2^12 and 2^20).
        let layers = [(200_000u64, 70_001, 12), (30_000, 997, 20)].map(|(jumps, classes, shift)| {
            let met: Vec<Pegs> = (0..jumps)
                .map(|j| Pegs((((j.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) % classes) + 1) << shift))
                .collect();
            let distinct: Vec<Pegs> =
                met.iter().copied().collect::<std::collections::BTreeSet<_>>().into_iter().collect();
            assert_eq!(distinct.len() as u64, classes);
            (met, distinct)
        });
        assert_eq!(SharedSlots::size_for(layers[0].1.len()) / SCAN_PIECE, 4);
        for hole_bits in [33, 64] {
            let mut table = SharedSlots::default();
            table.reset(4); // then larger: the table is made again
            for (met, distinct) in &layers {
                table.reset(distinct.len());
                let found: Vec<(bool, u32)> =
                    met.par_iter().map(|&c| table.slot_or_add(c).unwrap()).collect();
                assert_eq!(found.iter().filter(|f| f.0).count(), distinct.len(), "each class added once");
                let slots: Vec<u32> = found.iter().map(|f| f.1).collect();
                let sorted = table.rank(distinct.len(), hole_bits);
                assert_eq!(&sorted, distinct);
                for (&class, &slot) in met.iter().zip(&slots) {
                    assert_eq!(sorted[table.rank_at(slot) as usize], class);
                }
            }
        }
        let mut small = SharedSlots::default();
        small.reset(2);
        assert!(small.holds(3) && !small.holds(4));
        let added: Vec<_> = (1..=4u64).map(|k| small.slot_or_add(Pegs(k << 30))).collect();
        assert!(added.iter().all(|a| a.as_ref().is_ok_and(|a| a.0)));
        assert_eq!(small.slot_or_add(Pegs(5 << 30)), Err(Full));
        assert_eq!(small.slot_or_add(Pegs(3 << 30)).map(|a| a.0), Ok(false));
    }

    /// A table grown, and its ranks, are named to the process as read at random, the whole
    /// block each (its capacity), so the process may choose their pages.
    #[test]
    fn a_grown_table_and_its_ranks_are_named_as_read_at_random() {
        static NAMED: std::sync::Mutex<Vec<(usize, usize)>> = std::sync::Mutex::new(Vec::new());
        // Other tests' tables are named here too: each block is looked for by its address.
        crate::pages::on_random_access(|block, size| NAMED.lock().unwrap().push((block as usize, size)));
        let named = |block: usize, size: usize| NAMED.lock().unwrap().contains(&(block, size));
        let mut table = SharedSlots::default();
        table.reset(100_000);
        let slots = (table.slots.as_ptr() as usize, table.slots.capacity() * 8);
        assert!(table.slots.len() >= 100_000 && named(slots.0, slots.1), "the table");
        for class in 1..=100_000u64 {
            table.slot_or_add(Pegs(class << 8)).unwrap();
        }
        table.rank(100_000, 40);
        let ranks = (table.ranks.as_ptr() as usize, table.ranks.capacity() * 4);
        assert!(table.ranks.len() == table.slots.len() && named(ranks.0, ranks.1), "its ranks");
    }
}
