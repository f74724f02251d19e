//! The arithmetic of a run's numerators, one of two: exact big numbers in fixed-width limbs,
//! or their residues modulo a few primes (one word each, see `residues`). Every step of the
//! engine adds, multiplies and accumulates through here, so both follow the same code.

use super::limbs::{self, limbs_for, to_integer};
use super::residues::Modulus;
use rug::Integer;

pub(super) enum Numbers {
    /// Numerators as they are, in as many limbs as the layer's denominator needs.
    Exact,
    /// Numerators modulo these primes, one word per prime.
    Residues(Vec<Modulus>),
}

/// A multiplier in the form `Numbers::mul_into` takes.
pub(super) enum Factor {
    Small(u64),
    Big(Integer),
    /// c * R mod p for each prime (see `Modulus::mul`).
    Lanes(Vec<u64>),
}

impl Numbers {
    /// The width of every entry of a run by residues (None for exact runs, whose width
    /// follows the denominator).
    pub fn lanes(&self) -> Option<usize> {
        match self {
            Numbers::Exact => None,
            Numbers::Residues(m) => Some(m.len()),
        }
    }

    /// The entry of a state holding all the mass: the number 1.
    pub fn one(&self) -> Vec<u64> {
        vec![1; self.lanes().unwrap_or(1)]
    }

    /// Words per child entry, for children over the denominator D * L (mass never exceeds
    /// one, so an exact numerator fits D * L's bits).
    pub fn child_stride(&self, denominator: &Integer, lcm: &Integer) -> usize {
        self.lanes().unwrap_or_else(|| limbs_for(denominator.significant_bits() + lcm.significant_bits()))
    }

    /// The multiplier c in this arithmetic's form.
    pub fn factor(&self, c: &Integer) -> Factor {
        match self {
            Numbers::Exact => c.to_u64().map_or_else(|| Factor::Big(c.clone()), Factor::Small),
            Numbers::Residues(m) => Factor::Lanes(m.iter().map(|m| m.lift(c)).collect()),
        }
    }

    /// dst += src * w. Exact: the caller sized `dst` so that the sum fits (see
    /// `limbs::add_mul`); by residues both are one word per prime.
    #[inline(always)]
    pub fn add_mul(&self, dst: &mut [u64], src: &[u64], w: u64) {
        match self {
            Numbers::Exact => limbs::add_mul(dst, src, w),
            Numbers::Residues(m) if w == 1 => {
                for ((d, &s), m) in dst.iter_mut().zip(src).zip(m) {
                    *d = m.add(*d, s);
                }
            }
            Numbers::Residues(m) => {
                for ((d, &s), m) in dst.iter_mut().zip(src).zip(m) {
                    *d = m.add(*d, m.mul(s, m.lift_word(w)));
                }
            }
        }
    }

    /// dst = src * f, for a `dst` of zeros (exact: wider than `src` needs, for the carry).
    #[inline(always)]
    pub fn mul_into(&self, dst: &mut [u64], src: &[u64], f: &Factor) {
        match (self, f) {
            (Numbers::Residues(m), Factor::Lanes(f)) => {
                for (((d, &s), m), &f) in dst.iter_mut().zip(src).zip(m).zip(f) {
                    *d = m.mul(s, f);
                }
            }
            (_, Factor::Small(f)) => limbs::mul_into(dst, src, *f),
            (_, Factor::Big(f)) => limbs::write(dst, &(to_integer(src) * f)),
            (Numbers::Exact, Factor::Lanes(_)) => unreachable!("lanes are made by residue runs only"),
        }
    }

    /// Every residue of `nums` (entries of one word per prime, back to back) times f, in
    /// place. Exact numbers grow when multiplied, so they are scaled by `Bucket::scale`.
    pub fn scale_residues(&self, nums: &mut [u64], f: &Factor) {
        let (Numbers::Residues(m), Factor::Lanes(f)) = (self, f) else {
            unreachable!("residues are scaled by lanes, in runs by residues only")
        };
        for entry in nums.chunks_mut(m.len()) {
            for ((d, m), &f) in entry.iter_mut().zip(m).zip(f) {
                *d = m.mul(*d, f);
            }
        }
    }

    /// acc += src, where `acc` grows as the sum needs (absorbed mass, summed over many states).
    pub fn accumulate(&self, acc: &mut Vec<u64>, src: &[u64]) {
        match self {
            Numbers::Exact => {
                let width = acc.len().max(src.len()) + 1;
                acc.resize(width, 0);
                limbs::add_mul(acc, src, 1);
                while acc.last() == Some(&0) {
                    acc.pop();
                }
            }
            Numbers::Residues(m) => {
                acc.resize(m.len(), 0);
                self.add_mul(acc, src, 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::residues::{Modulus, primes, residue};
    use super::*;

    #[test]
    fn both_arithmetics_agree_modulo_each_prime() {
        let ps = primes(3, 0);
        let residues = Numbers::Residues(ps.iter().map(|&p| Modulus::new(p)).collect());
        let a = Integer::from(Integer::u_pow_u(5, 100)) + 1;
        let c = Integer::from(Integer::u_pow_u(7, 40));
        let in_limbs = |n: &Integer| {
            let mut l = vec![0; 6];
            limbs::write(&mut l, n);
            l
        };
        let in_lanes = |n: &Integer| ps.iter().map(|&p| residue(n, p)).collect::<Vec<_>>();
        // (a * c) + a * 3, then accumulated twice.
        let mut exact = vec![0; 6];
        Numbers::Exact.mul_into(&mut exact, &in_limbs(&a), &Numbers::Exact.factor(&c));
        Numbers::Exact.add_mul(&mut exact, &in_limbs(&a), 3);
        let mut lanes = vec![0; 3];
        residues.mul_into(&mut lanes, &in_lanes(&a), &residues.factor(&c));
        residues.add_mul(&mut lanes, &in_lanes(&a), 3);
        let want = Integer::from(&a * &c) + Integer::from(&a * 3);
        assert_eq!(to_integer(&exact), want);
        assert_eq!(lanes, in_lanes(&want));
        let (mut acc_exact, mut acc_lanes) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            Numbers::Exact.accumulate(&mut acc_exact, &exact);
            residues.accumulate(&mut acc_lanes, &lanes);
        }
        assert_eq!(to_integer(&acc_exact), Integer::from(&want * 2));
        assert_eq!(acc_lanes, in_lanes(&(want * 2)));
    }
}
