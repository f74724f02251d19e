//! A table of classes found by their value, for the hot loops that look classes up: the
//! backward pass of `--whole-group` and its pass of every start's masses (built once, then
//! read), and the coach's search (filled as it goes, each piece of a layer afresh).

use crate::engine::layered::limbs::prefetch;
use crate::solitaire::pegs::Pegs;

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

    /// Whether `count` classes fit the table at most half full.
    pub(crate) fn holds(&self, count: usize) -> bool {
        2 * count <= self.slots.len()
    }

    /// Empties the table, keeping its slots.
    pub(crate) fn clear(&mut self) {
        self.slots.fill((Pegs::EMPTY, 0, 0));
    }

    /// The bytes the table takes.
    pub(crate) fn bytes(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<(Pegs, u32, u32)>()) as u64
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

    /// The first index kept with `class` if it is there; if not, `class` is added with
    /// `index` (and 0) and the answer is `None`. The caller keeps the table at most half
    /// full ([`Slots::holds`]), so a free slot is always found.
    #[inline]
    pub(crate) fn find_or_add(&mut self, class: Pegs, index: u32) -> Option<u32> {
        debug_assert!(class != Pegs::EMPTY && self.holds(1));
        let mask = self.slots.len() - 1;
        let mut slot = slot_of(class, self.bits);
        loop {
            let (c, p, _) = self.slots[slot];
            if c == class {
                return Some(p);
            }
            if c == Pegs::EMPTY {
                self.slots[slot] = (class, index, 0);
                return None;
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// A class's slot among 2^`bits` (a multiplicative hash: its top bits).
fn slot_of(class: Pegs, bits: u32) -> usize {
    (class.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (63 - bits) >> 1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Classes added one by one are found with the index they were added with, however
    /// their slots collide, and a cleared table finds none of them.
    #[test]
    fn added_classes_are_found_with_their_indices() {
        let mut slots = Slots::of(100, std::iter::empty());
        // Multiples of 2^40: their hashes share low bits, so many land in one run of slots.
        let classes: Vec<Pegs> = (1..=100u64).map(|k| Pegs(k << 40)).chain((1..=100).map(Pegs)).collect();
        let mut seen = Vec::new();
        for &class in classes.iter().chain(&classes) {
            if !slots.holds(seen.len() + 1) {
                slots = Slots::of(2 * seen.len(), seen.iter().enumerate().map(|(i, &c)| (c, i as u32, 0)));
            }
            match slots.find_or_add(class, seen.len() as u32) {
                Some(i) => assert_eq!(seen[i as usize], class),
                None => seen.push(class),
            }
        }
        assert_eq!(seen, classes, "each class added once, in order");
        for (i, &class) in seen.iter().enumerate() {
            assert_eq!(slots.find(class), Some((i as u32, 0)));
        }
        assert_eq!(slots.find(Pegs(7 << 50)), None);
        slots.clear();
        assert!(classes.iter().all(|&c| slots.find(c).is_none()));
    }
}
