//! An upper bound on the positions a breadth-first solve holds, computed before it starts,
//! so a search that could outgrow its memory is refused at once rather than after a minute.
//!
//! A reachable position lies in the start's position class (the parities no jump changes),
//! holds between the finish's and the start's number of pegs, and is stored once per orbit of
//! the symmetries the search reduces by. So the search holds at most as many positions as
//! there are orbits of such hole sets. Those are counted exactly, without listing them:
//! Burnside's lemma (orbits = the average number of sets each symmetry fixes) over the
//! symmetries that keep the class, and a character sum over the parities (a set's parities
//! match the class for exactly one of the 2^m parity patterns).

use crate::solitaire::board::symmetry::Perm;
use std::ops::RangeInclusive;

/// Parity conditions used at most: each halves the bound, and the sum runs over 2^m terms.
const MAX_PARITIES: usize = 12;

/// The number of orbits, under the group `perms` (which must map the class onto itself), of
/// hole sets of `holes` holes with a peg count in `pegs` and the parities `class` on the
/// hole sets `parities`. Parities beyond the first twelve are left out (the bound stays an
/// upper bound, only looser).
pub fn orbits(
    holes: usize,
    perms: &[&Perm],
    parities: &[u64],
    class: &[bool],
    pegs: RangeInclusive<u32>,
) -> u128 {
    let m = parities.len().min(MAX_PARITIES);
    let mut total = vec![0i128; holes + 1];
    for perm in perms {
        let cycles = cycles(perm);
        for chi in 0..1u32 << m {
            let chosen = (0..m).filter(|&i| chi >> i & 1 == 1);
            let (w, sign) = chosen.fold((0u64, false), |(w, s), i| (w ^ parities[i], s ^ class[i]));
            let fixed = fixed_sets(&cycles, w);
            for (k, c) in fixed.iter().enumerate() {
                total[k] += if sign { -c } else { *c };
            }
        }
    }
    let denominator = (perms.len() as i128) << m;
    let in_range: i128 = pegs.filter_map(|k| total.get(k as usize)).sum();
    debug_assert_eq!(in_range % denominator.max(1), 0, "Burnside counts are whole");
    (in_range / denominator.max(1)).max(0) as u128
}

/// The cycles of a permutation, each as a bitboard of its holes.
fn cycles(perm: &Perm) -> Vec<u64> {
    let mut seen = 0u64;
    let mut out = Vec::new();
    for start in 0..perm.len() {
        let mut cycle = 0u64;
        let mut h = start;
        while seen >> h & 1 == 0 {
            seen |= 1 << h;
            cycle |= 1 << h;
            h = perm[h] as usize;
        }
        if cycle != 0 {
            out.push(cycle);
        }
    }
    out
}

/// For each size k, the sets fixed by the permutation (unions of whole cycles) with k holes,
/// each counted with the sign (-1)^|set ∩ w|: the coefficients of the product over cycles c
/// of (1 ± x^|c|), minus when c meets w in an odd number of holes.
fn fixed_sets(cycles: &[u64], w: u64) -> Vec<i128> {
    let mut poly = vec![1i128];
    for &c in cycles {
        let len = c.count_ones() as usize;
        let odd = (c & w).count_ones() % 2 == 1;
        let mut next = vec![0i128; poly.len() + len];
        for (k, &a) in poly.iter().enumerate() {
            next[k] += a;
            next[k + len] += if odd { -a } else { a };
        }
        poly = next;
    }
    poly
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::{SymmetryGroup, builtin};
    use hashbrown::HashSet;

    fn binomial(n: u128, k: u128) -> u128 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn with_no_symmetry_and_no_parity_it_counts_every_set() {
        let identity: Perm = (0..10).collect();
        let all: u128 = (2..=7).map(|k| binomial(10, k)).sum();
        assert_eq!(orbits(10, &[&identity], &[], &[], 2..=7), all);
    }

    /// Every hole set of the 15-hole board, listed: the count of canonical forms in one
    /// parity class equals the formula's.
    use crate::solitaire::pegs::Pegs;

    #[test]
    fn it_counts_the_orbits_in_a_class_exactly() {
        let board = builtin("triangle5").unwrap();
        let group = SymmetryGroup::of_board(&board);
        let parities: Vec<u64> =
            crate::solitaire::solve::parity_invariants(&board).iter().map(|p| p.0).collect();
        let class_of =
            |pos: Pegs| parities.iter().map(|v| (v & pos.0).count_ones() % 2 == 1).collect::<Vec<_>>();
        let start = board.full().without(0);
        let class = class_of(start);
        let keep: Vec<usize> =
            (0..group.order()).filter(|&g| class_of(group.apply(g, start)) == class).collect();
        let perms: Vec<&Perm> = keep.iter().map(|&g| &group.perms()[g]).collect();
        let mut forms = HashSet::new();
        for pos in (0..=board.full().0).map(Pegs) {
            let pegs = pos.count();
            if (3..=12).contains(&pegs) && class_of(pos) == class {
                forms.insert(keep.iter().map(|&g| group.apply(g, pos)).min().unwrap());
            }
        }
        assert_eq!(orbits(15, &perms, &parities, &class, 3..=12), forms.len() as u128);
    }
}
