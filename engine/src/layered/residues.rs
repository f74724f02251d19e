//! Numerators modulo primes: the engine's second arithmetic. A numerator of a few hundred
//! bits costs as many limbs in every entry of a layer; its residues modulo a few 62-bit
//! primes cost one word each, whatever its size. A run keeps `k` residues per state, and
//! enough runs, each with other primes, give residues modulo primes whose product exceeds
//! the final denominator D; every absorbed numerator lies in 0..=D, so the Chinese remainder
//! theorem rebuilds it exactly.
//!
//! Each prime works in Montgomery form (R = 2^64): a residue is kept as itself, a constant
//! c as c * R mod p, so one 128-bit product and one reduction give a * c mod p.

use rug::Integer;
use rug::integer::IsPrime;

/// One prime modulus p < 2^62 with its Montgomery constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modulus {
    pub p: u64,
    /// -p^-1 mod 2^64.
    neg_inv: u64,
    /// R^2 mod p.
    r2: u64,
}

impl Modulus {
    /// `p` must be an odd number below 2^62.
    pub fn new(p: u64) -> Modulus {
        assert!(p % 2 == 1 && p < 1 << 62, "an odd modulus below 2^62");
        // Newton's iteration doubles the correct low bits of p^-1 mod 2^64 each round.
        let mut inv: u64 = p;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = ((1u128 << 64) % p as u128) as u64;
        let r2 = ((r as u128 * r as u128) % p as u128) as u64;
        Modulus { p, neg_inv: inv.wrapping_neg(), r2 }
    }

    /// t * R^-1 mod p, for t < p * 2^64.
    #[inline(always)]
    fn reduce(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        // t + m * p < 2 * p * 2^64 < 2^127: no overflow.
        let u = ((t + m as u128 * self.p as u128) >> 64) as u64;
        if u >= self.p { u - self.p } else { u }
    }

    /// a + b mod p, for a, b < p.
    #[inline(always)]
    pub fn add(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        if s >= self.p { s - self.p } else { s }
    }

    /// a * c mod p, for a < p and `lifted` = c * R mod p (from `lift`).
    #[inline(always)]
    pub fn mul(&self, a: u64, lifted: u64) -> u64 {
        self.reduce(a as u128 * lifted as u128)
    }

    /// w * R mod p for a word w: the form `mul` takes. A move's weight (below 2^32) is
    /// below p already, and skips the division.
    #[inline(always)]
    pub fn lift_word(&self, w: u64) -> u64 {
        let w = if w < self.p { w } else { w % self.p };
        self.reduce(w as u128 * self.r2 as u128)
    }

    /// c * R mod p for any non-negative integer c.
    pub fn lift(&self, c: &Integer) -> u64 {
        self.lift_word(residue(c, self.p))
    }
}

/// c mod p for a non-negative integer.
pub fn residue(c: &Integer, p: u64) -> u64 {
    Integer::from(c % p).to_u64().expect("a residue below the modulus")
}

/// Primes below 2^62, the largest first: the k-th pass of a run by residues takes the next
/// ones. Deterministic, so every run (and every process) uses the same primes.
pub fn primes(count: usize, skip: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(count);
    let mut seen = 0;
    let mut n = (1u64 << 62) - 1;
    while out.len() < count {
        if Integer::from(n).is_probably_prime(40) != IsPrime::No {
            if seen >= skip {
                out.push(n);
            }
            seen += 1;
        }
        n -= 2;
    }
    out
}

/// The number in 0..product(moduli) with the given residues (Chinese remainder theorem).
pub fn rebuild(residues: &[(u64, u64)]) -> Integer {
    let mut x = Integer::new();
    let mut m = Integer::from(1);
    for &(p, r) in residues {
        // x + m * t = r (mod p): t = (r - x) * m^-1 mod p.
        let inv = Integer::from(&m % p).invert(&Integer::from(p)).expect("distinct primes");
        let t = (Integer::from(r) - &x) * inv % p;
        let t = if t < 0 { t + p } else { t };
        x += &m * t;
        m *= p;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn montgomery_products_agree_with_integer_arithmetic() {
        for p in primes(3, 0).into_iter().chain([3, 1_000_003]) {
            let m = Modulus::new(p);
            for (a, c) in [(0u64, 5u64), (p - 1, p - 1), (123_456_789 % p, 987_654_321_987), (p / 2, 2)] {
                let want = (a as u128 * (c % p) as u128 % p as u128) as u64;
                assert_eq!(m.mul(a, m.lift_word(c)), want, "{a} * {c} mod {p}");
                assert_eq!(m.mul(a, m.lift(&Integer::from(c))), want);
            }
            assert_eq!(m.add(p - 1, p - 1), p - 2);
        }
    }

    #[test]
    fn the_chinese_remainder_theorem_rebuilds_a_big_number() {
        let ps = primes(5, 2);
        assert!(ps.windows(2).all(|w| w[0] > w[1]) && ps[0] < 1 << 62);
        assert_eq!(primes(2, 0)[1], primes(1, 1)[0]);
        let n = Integer::from(Integer::u_pow_u(3, 180)) + 17; // 286 bits, under 5 * 61
        let residues: Vec<(u64, u64)> = ps.iter().map(|&p| (p, residue(&n, p))).collect();
        assert_eq!(rebuild(&residues), n);
    }
}
