//! The step's arithmetic: a layer over denominator D with move totals W_s moves to the
//! denominator D * L, L = lcm(W_s), so parent s hands its children numerator * (L / W_s),
//! each child's share times the move's weight. Here: L and the factors L / W_s, the width
//! of the children's numerators, and every parent's share, in the run's arithmetic.

use super::arena::Bucket;
use super::limbs::{copy_into, limbs_for};
use super::numbers::{Factor, Numbers};
use super::{Mode, chunk_size};
use crate::error::EngineError;
use hashbrown::HashMap;
use rayon::prelude::*;
use rug::Integer;
use std::collections::BTreeSet;

/// Totals below this are marked by a bit in [`Distinct`].
const MARKED: u64 = 256;

/// The distinct move totals of a layer, gathered as they are met: a bit for each total below
/// 256 (in most chains a total is the number of moves), a tree for the others. A tree alone
/// costs an insert per parent, about 2% of the English centre's run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Distinct {
    marked: [u64; (MARKED / 64) as usize],
    others: BTreeSet<u64>,
}

impl Distinct {
    /// The distinct totals that `gather` finds in each of `parts`, each part gathered into a
    /// set of its own on some core (a fold moving the set along with every total took as
    /// long as the tree it replaced).
    pub fn of_parts<P: Send>(
        parts: impl ParallelIterator<Item = P>,
        gather: impl Fn(P, &mut Distinct) + Sync + Send,
    ) -> Distinct {
        parts
            .map(|part| {
                let mut seen = Distinct::default();
                gather(part, &mut seen);
                seen
            })
            .reduce(Distinct::default, Distinct::union)
    }

    pub fn insert(&mut self, w: u64) {
        match w < MARKED {
            true => self.marked[(w / 64) as usize] |= 1 << (w % 64),
            false => _ = self.others.insert(w),
        }
    }

    pub fn union(mut self, other: Distinct) -> Distinct {
        for (mine, theirs) in self.marked.iter_mut().zip(other.marked) {
            *mine |= theirs;
        }
        self.others.extend(other.others);
        self
    }

    /// The totals, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let marked = self.marked.iter().enumerate().flat_map(|(word, &bits)| {
            (0..64).filter(move |bit| bits >> bit & 1 == 1).map(move |bit| word as u64 * 64 + bit)
        });
        marked.chain(self.others.iter().copied())
    }
}

/// Totals below this find their factor in a table, without hashing: in most chains a move
/// total is the number of moves, or a small multiple of it.
const TABLE: u64 = 1024;

/// The lcm L of a layer's move totals, and L / W for each distinct total W, in the run's
/// arithmetic.
pub(super) struct Scale {
    pub lcm: Integer,
    factors: HashMap<u64, Factor>,
    /// `small[w]` = L / w for the totals w below `TABLE`.
    small: Vec<Option<Factor>>,
}

impl Scale {
    /// In `Paths` mode nothing is scaled: L = 1 and there are no factors.
    pub fn of(totals: &[u64], mode: Mode, numbers: &Numbers) -> Scale {
        let mut lcm = Integer::from(1);
        let mut factors = HashMap::new();
        let mut small = Vec::new();
        if mode == Mode::Probability {
            let mut seen: Vec<u64> = totals.iter().copied().filter(|&w| w > 0).collect();
            seen.sort_unstable();
            seen.dedup();
            for &w in &seen {
                lcm.lcm_mut(&Integer::from(w));
            }
            // L / W once per distinct total, not once per state.
            let table = seen.iter().filter(|&&w| w < TABLE).max().map_or(0, |&w| w as usize + 1);
            small = (0..table).map(|_| None).collect();
            for w in seen {
                let f = numbers.factor(&Integer::from(&lcm / w));
                match small.get_mut(w as usize) {
                    Some(slot) => *slot = Some(f),
                    None => _ = factors.insert(w, f),
                }
            }
        }
        Scale { lcm, factors, small }
    }

    /// L / w, for a total `w` of the layer.
    #[inline(always)]
    fn factor(&self, w: u64) -> &Factor {
        match self.small.get(w as usize) {
            Some(Some(f)) => f,
            _ => self.factors.get(&w).expect("every move total has a factor"),
        }
    }

    /// dst = src * L / w, for a total `w` of the layer (once per parent: always inlined).
    #[inline(always)]
    fn multiply(&self, numbers: &Numbers, dst: &mut [u64], src: &[u64], w: u64) {
        numbers.mul_into(dst, src, self.factor(w));
    }
}

/// Whether a step's shares can be written over its parents' numerators: in a run by
/// residues (one word per prime, for parents and shares alike) of probabilities.
pub(super) fn in_place(mode: Mode, numbers: &Numbers, stride: usize, share_stride: usize) -> bool {
    mode == Mode::Probability && numbers.lanes() == Some(stride) && stride == share_stride
}

/// [`shares`] written over the parents' own numerators where [`in_place`] allows it, so
/// that the step holds one layer of numbers while it makes them, not two: the parents'
/// states (their numerators gone) and the shares.
pub(super) fn shares_in_place<S: Sync>(
    mut layer: Bucket<S>,
    totals: &[u64],
    scale: &Scale,
    numbers: &Numbers,
) -> (Bucket<S>, Vec<u64>) {
    let (chunk, stride) = (chunk_size(layer.len()), layer.stride);
    let mut nums = std::mem::take(&mut layer.nums);
    nums.par_chunks_mut(chunk * stride).enumerate().for_each(|(c, part)| {
        for (j, entry) in part.chunks_mut(stride).enumerate() {
            match totals[c * chunk + j] {
                0 => entry.fill(0),
                w => numbers.scale_residues(entry, scale.factor(w)),
            }
        }
    });
    (layer, nums)
}

/// Limbs per child numerator. Probabilities: a child's numerator is at most D * L (mass
/// never exceeds one). Paths: a child's count is at most the sum of its parents' counts
/// times their multiplicities, below (states) x (largest count) x (moves).
pub(super) fn child_stride<S: Sync>(
    mode: Mode,
    numbers: &Numbers,
    denominator: &Integer,
    lcm: &Integer,
    layer: &Bucket<S>,
    moves: u64,
) -> usize {
    match mode {
        Mode::Probability => numbers.child_stride(denominator, lcm),
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
    (mode, numbers): (Mode, &Numbers),
    stride: usize,
) -> Result<Vec<u64>, EngineError> {
    let chunk = chunk_size(layer.len());
    let mut out = super::alloc::zeroed(layer.keys.len() * stride)?;
    out.par_chunks_mut(chunk * stride).enumerate().for_each(|(c, part)| {
        for (j, dst) in part.chunks_mut(stride).enumerate() {
            let i = c * chunk + j;
            let (src, w) = (layer.limbs(i), totals[i]);
            if w == 0 {
                continue;
            }
            match mode {
                Mode::Paths => copy_into(dst, src),
                Mode::Probability => scale.multiply(numbers, dst, src, w),
            }
        }
    });
    Ok(out)
}

/// The number of significant bits of a limb number.
fn bit_length(limbs: &[u64]) -> u32 {
    limbs.iter().rposition(|&l| l != 0).map_or(0, |top| 64 * top as u32 + 64 - limbs[top].leading_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marked by bits or kept in the tree, the totals come out distinct and ascending, as a
    /// set of them would list them, however they were gathered and joined.
    #[test]
    fn distinct_totals_list_as_a_set_of_them() {
        let totals: Vec<u64> = (0..20_000u64).map(|i| (i * 7_919) % 611 + (i % 3) * (u64::MAX / 4)).collect();
        let set: BTreeSet<u64> = totals.iter().copied().collect();
        let gathered = Distinct::of_parts(totals.par_chunks(100), |chunk, seen| {
            chunk.iter().for_each(|&w| seen.insert(w))
        });
        assert_eq!(gathered.iter().collect::<Vec<_>>(), set.iter().copied().collect::<Vec<_>>());
        let (low, high) = totals.split_at(7_000);
        let mut joined = Distinct::default();
        high.iter().for_each(|&w| joined.insert(w));
        let mut first = Distinct::default();
        low.iter().for_each(|&w| first.insert(w));
        assert_eq!(first.union(joined), gathered);
        assert!(set.contains(&0) && set.contains(&255) && set.contains(&256) && set.contains(&610));
    }
}
