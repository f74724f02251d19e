//! A position as a bitboard: bit h set = a peg in hole h. One `u64` (so a board has at most
//! 64 holes), copied and compared as cheaply as the integer, with a small const API in
//! place of shifts and masks scattered through the code (shakmaty's `Bitboard` is the
//! model).
//!
//! Holes are `u8` indices into the board's hole list; a hole of 64 or more is a caller's
//! bug (the shifts panic in debug builds). `!pegs` complements all 64 bits: intersect with
//! `Pegs::full(holes)` to stay on a board.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Pegs(pub u64);

impl Pegs {
    /// No pegs.
    pub const EMPTY: Pegs = Pegs(0);

    /// A peg in every hole of a board of `holes` holes (at most 64).
    #[inline]
    pub const fn full(holes: usize) -> Pegs {
        if holes >= 64 { Pegs(u64::MAX) } else { Pegs((1u64 << holes) - 1) }
    }

    /// One peg, in `hole`.
    #[inline]
    pub const fn single(hole: u8) -> Pegs {
        Pegs(1u64 << hole)
    }

    #[inline]
    pub const fn contains(self, hole: u8) -> bool {
        self.0 >> hole & 1 == 1
    }

    /// Every peg of `other` is here too.
    #[inline]
    pub const fn contains_all(self, other: Pegs) -> bool {
        self.0 & other.0 == other.0
    }

    /// No peg is in both.
    #[inline]
    pub const fn is_disjoint(self, other: Pegs) -> bool {
        self.0 & other.0 == 0
    }

    /// These pegs and one in `hole`.
    #[inline]
    pub const fn with(self, hole: u8) -> Pegs {
        Pegs(self.0 | 1u64 << hole)
    }

    /// These pegs but none in `hole`.
    #[inline]
    pub const fn without(self, hole: u8) -> Pegs {
        Pegs(self.0 & !(1u64 << hole))
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest hole with a peg.
    #[inline]
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 { None } else { Some(self.0.trailing_zeros() as u8) }
    }

    /// The hole of the only peg, if there is exactly one.
    #[inline]
    pub const fn single_hole(self) -> Option<u8> {
        if self.0.is_power_of_two() { Some(self.0.trailing_zeros() as u8) } else { None }
    }

    /// The holes with a peg, lowest first.
    #[inline]
    pub const fn holes(self) -> Holes {
        Holes(self.0)
    }
}

/// The holes of a `Pegs`, lowest first.
#[derive(Clone, Debug)]
pub struct Holes(u64);

impl Iterator for Holes {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let hole = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(hole)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Holes {}

impl FromIterator<u8> for Pegs {
    fn from_iter<I: IntoIterator<Item = u8>>(holes: I) -> Pegs {
        holes.into_iter().fold(Pegs::EMPTY, Pegs::with)
    }
}

impl fmt::Binary for Pegs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Binary::fmt(&self.0, f)
    }
}

macro_rules! bit_op {
    ($op:ident, $f:ident, $assign:ident, $af:ident, $sym:tt) => {
        impl $op for Pegs {
            type Output = Pegs;
            #[inline]
            fn $f(self, rhs: Pegs) -> Pegs {
                Pegs(self.0 $sym rhs.0)
            }
        }
        impl $assign for Pegs {
            #[inline]
            fn $af(&mut self, rhs: Pegs) {
                self.0 = self.0 $sym rhs.0;
            }
        }
    };
}

bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Pegs {
    type Output = Pegs;
    #[inline]
    fn not(self) -> Pegs {
        Pegs(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_const_api_agrees_with_the_bits() {
        assert_eq!(Pegs::full(15), Pegs(0x7fff));
        assert_eq!(Pegs::full(64), Pegs(u64::MAX));
        assert_eq!(Pegs::full(0), Pegs::EMPTY);
        let p = Pegs::full(15).without(0).without(12);
        assert_eq!(p, Pegs(0x6ffe));
        assert!(p.contains(1) && !p.contains(0) && !p.contains(15));
        assert_eq!((p.count(), p.first()), (13, Some(1)));
        assert_eq!(p.with(0).with(12), Pegs::full(15));
        assert_eq!(Pegs::single(63), Pegs(1 << 63));
        assert_eq!(Pegs::single(5).single_hole(), Some(5));
        assert_eq!(
            (Pegs(0b110).single_hole(), Pegs::EMPTY.single_hole(), Pegs::EMPTY.first()),
            (None, None, None)
        );
        assert!(p.contains_all(Pegs(0b110)) && !p.contains_all(Pegs(0b11)));
        assert!(p.is_disjoint(Pegs(1)) && !p.is_disjoint(Pegs(3)));
    }

    #[test]
    fn holes_iterate_lowest_first_and_collect_back() {
        let p = Pegs(1 | 1 << 9 | 1 << 63);
        assert_eq!(p.holes().collect::<Vec<_>>(), [0, 9, 63]);
        assert_eq!(p.holes().len(), 3);
        assert_eq!(p.holes().collect::<Pegs>(), p);
        assert_eq!(Pegs::EMPTY.holes().next(), None);
    }

    #[test]
    fn bit_operators_act_on_the_holes() {
        let (a, b) = (Pegs(0b1100), Pegs(0b1010));
        assert_eq!(
            (a | b, a & b, a ^ b, !a & Pegs::full(4)),
            (Pegs(0b1110), Pegs(0b1000), Pegs(0b0110), Pegs(0b0011))
        );
        let mut c = a;
        c ^= b;
        c |= Pegs(1);
        c &= Pegs(0b0111);
        assert_eq!(c, Pegs(0b0111));
    }
}
