//! The step's arithmetic: a layer over denominator D with move totals W_s moves to the
//! denominator D * L, L = lcm(W_s), so parent s hands its children numerator * (L / W_s),
//! each child's share times the move's weight. Here: L and the factors L / W_s, the width
//! of the children's numerators, and every parent's share.

use super::arena::Bucket;
use super::limbs::{self, copy_into, limbs_for, mul_into, to_integer};
use super::{Mode, chunk_size};
use hashbrown::HashMap;
use rayon::prelude::*;
use rug::Integer;

/// L / W for one move total W: one limb in practice, a big number in general (when the
/// totals of a layer have a large lcm).
pub(super) enum Factor {
    Small(u64),
    Big(Integer),
}

/// The lcm L of a layer's move totals, and L / W for each distinct total W.
pub(super) struct Scale {
    pub lcm: Integer,
    pub factors: HashMap<u64, Factor>,
}

impl Scale {
    /// In `Paths` mode nothing is scaled: L = 1 and there are no factors.
    pub fn of(totals: &[u64], mode: Mode) -> Scale {
        let mut lcm = Integer::from(1);
        let mut factors = HashMap::new();
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
        Scale { lcm, factors }
    }
}

/// Limbs per child numerator. Probabilities: a child's numerator is at most D * L (mass
/// never exceeds one). Paths: a child's count is at most the sum of its parents' counts
/// times their multiplicities, below (states) x (largest count) x (moves).
pub(super) fn child_stride<S: Sync>(
    mode: Mode,
    denominator: &Integer,
    lcm: &Integer,
    layer: &Bucket<S>,
    moves: u64,
) -> usize {
    match mode {
        Mode::Probability => limbs_for(denominator.significant_bits() + lcm.significant_bits()),
        Mode::Paths => {
            let n = layer.keys.len();
            let largest = (0..n).into_par_iter().map(|i| bit_length(layer.limbs(i))).max().unwrap_or(0);
            limbs_for(largest + 64 - (n as u64).leading_zeros() + 64 - moves.leading_zeros())
        }
    }
}

/// Every parent's numerator times its factor L / W_s, in an arena of `stride`-limb entries
/// (absorbing parents, total 0, stay zero). In `Paths` mode a share is the count itself.
pub(super) fn shares<S: Sync>(
    layer: &Bucket<S>,
    totals: &[u64],
    scale: &Scale,
    mode: Mode,
    stride: usize,
) -> Vec<u64> {
    let chunk = chunk_size(layer.len());
    let mut out = vec![0u64; layer.keys.len() * stride];
    out.par_chunks_mut(chunk * stride).enumerate().for_each(|(c, part)| {
        for (j, dst) in part.chunks_mut(stride).enumerate() {
            let i = c * chunk + j;
            let (src, w) = (layer.limbs(i), totals[i]);
            if w == 0 {
                continue;
            }
            match (mode, &scale.factors.get(&w)) {
                (Mode::Paths, _) => copy_into(dst, src),
                (Mode::Probability, Some(Factor::Small(f))) => mul_into(dst, src, *f),
                (Mode::Probability, Some(Factor::Big(f))) => limbs::write(dst, &(to_integer(src) * f)),
                (Mode::Probability, None) => unreachable!("every move total has a factor"),
            }
        }
    });
    out
}

/// The number of significant bits of a limb number.
fn bit_length(limbs: &[u64]) -> u32 {
    limbs.iter().rposition(|&l| l != 0).map_or(0, |top| 64 * top as u32 + 64 - limbs[top].leading_zeros())
}
