//! The coach's backward pass: each layer's values from the layer below, from the fewest pegs
//! up: P(one peg left) and expected pegs left (or the whole distribution, for a small
//! future) over one denominator a layer, and the move sequences that still win, by hole.

use super::layers::{Kept, Layer, LayerValues, Prefetch, ValueRows};
use super::{CHUNK, Coach, Factors, Keep, SEARCH_CHUNK};
use crate::error::Error;
use crate::solitaire::exact::Stage;
use crate::solitaire::policy::Policy;
use crate::solitaire::scale::{Factor, factors};
use crate::solitaire::words::Bits;
use hashbrown::HashMap;
use pegchain_engine::layered::Distinct;
use pegchain_engine::layered::limbs::{add_mul, add_mul_into_wider, limbs_for, write};
use rayon::prelude::*;
use rug::Integer;

impl Coach<'_> {
    /// The backward pass over `layers`: each layer's values (`kept` of each position), the
    /// root's first, keeping `keep` of them.
    pub(super) fn layers_valued(
        &self,
        layers: Vec<Layer>,
        kept: Kept,
        keep: Keep,
        factors: &[Factors],
    ) -> Result<Vec<LayerValues>, Error> {
        // The layers valued, the lowest first.
        let mut valued: Vec<LayerValues> = Vec::new();
        for ((k, layer), factors) in layers.into_iter().enumerate().zip(factors).rev() {
            self.report(Stage::CoachValues, &layer);
            let values = self.layer_values(layer, kept, factors, valued.last())?;
            // One answer needs the root and the layer below it: a layer is dropped as soon as
            // the one above it is valued.
            if keep == Keep::Top && k > 0 {
                valued.clear();
            }
            valued.push(values);
        }
        valued.reverse();
        Ok(valued)
    }

    /// Whether the policy weighs jumps (uniform play weighs each one): only then does a
    /// layer keep each jump's index, for [`Coach::total`] to read its weights.
    pub(super) fn weighs_jumps(&self) -> bool {
        self.policy != Policy::Uniform
    }

    /// The lcm of `layer`'s move totals, and lcm / total for each total.
    pub(super) fn factors_of(&self, layer: &Layer) -> Factors {
        if !self.weighs_jumps() {
            // A uniform total is the number of jumps: where the rows start says it, with no
            // pass over the jumps themselves (a position with none has no total).
            let mut seen = Distinct::default();
            layer
                .edges
                .starts
                .iter()
                .flat_map(|s| s.windows(2))
                .filter(|w| w[1] > w[0])
                .for_each(|w| seen.insert(u64::from(w[1] - w[0])));
            return factors(seen.iter());
        }
        let positions = layer.positions.len();
        let totals =
            Distinct::of_parts((0..positions.div_ceil(SEARCH_CHUNK)).into_par_iter(), |chunk, seen| {
                let (mut legal, mut weights) = (Vec::new(), Vec::new());
                for i in chunk * SEARCH_CHUNK..positions.min((chunk + 1) * SEARCH_CHUNK) {
                    if let Some(total) = self.total(layer, i, &mut legal, &mut weights) {
                        seen.insert(total);
                    }
                }
            });
        factors(totals.iter())
    }

    /// One layer's values from those of the layer below it (one peg fewer). Its denominator
    /// is the lcm of its move totals times the one below, so that a position with `total`
    /// over its jumps' weights has numerators (lcm / total) * sum(weight * child numerators).
    fn layer_values(
        &self,
        layer: Layer,
        kept: Kept,
        (lcm, factors): &Factors,
        below: Option<&LayerValues>,
    ) -> Result<LayerValues, Error> {
        let denominator = match below {
            Some(b) => Integer::from(lcm * &b.denominator),
            None => lcm.clone(),
        };
        let parts: Option<Vec<ValueRows>> = (0..layer.positions.len())
            .step_by(CHUNK)
            .collect::<Vec<usize>>()
            .into_par_iter()
            .map_init(Vec::new, |scratch, from| {
                let to = (from + CHUNK).min(layer.positions.len());
                (!self.cancel.is_cancelled())
                    .then(|| self.values(&layer, kept, from..to, below, (factors, &denominator), scratch))
            })
            .collect();
        let parts = parts.ok_or_else(|| self.stopped())?;
        Ok(LayerValues { layer, kept, denominator, parts })
    }

    /// The total of position i's jump weights under the policy, its jumps' weights the first
    /// of `weights` (`legal` holds its jumps as indices into the move table where the policy
    /// needs them); `None` if it has no jump.
    pub(super) fn total(
        &self,
        layer: &Layer,
        i: usize,
        legal: &mut Vec<usize>,
        weights: &mut Vec<u64>,
    ) -> Option<u64> {
        let row = layer.edges.row(i);
        if row.is_empty() {
            return None;
        }
        if !self.weighs_jumps() {
            // Every weight is one: `weights` keeps its ones from position to position (a
            // coach's policy never changes), at least one a jump.
            if weights.len() < row.len() {
                weights.resize(row.len(), 1);
            }
            return Some(row.len() as u64);
        }
        legal.clear();
        legal.extend(layer.jumps(i).iter().map(|&j| j as usize));
        Some(self.policy.weights(self.moves.jumps(), legal, weights))
    }

    /// The values of positions `range` of `layer`, over `denominator` (see `layer_values`):
    /// every numerator is at most the denominator, and a count of wins at most the sum of
    /// its children's. `scratch` is the task's memory to write rows in.
    fn values(
        &self,
        layer: &Layer,
        kept: Kept,
        range: std::ops::Range<usize>,
        below: Option<&LayerValues>,
        (factors, denominator): (&HashMap<u64, Factor>, &Integer),
        scratch: &mut Vec<u64>,
    ) -> ValueRows {
        let pegs = layer.positions.first().map_or(0, |p| p.count() as usize);
        let stride = kept.slots(pegs);
        // A position with no jump ends where it is; no value of the layer is larger than these.
        let ended: Vec<(usize, Integer)> = kept
            .ended(pegs)
            .into_iter()
            .map(|(slot, times)| (slot, Integer::from(denominator * times)))
            .collect();
        let width = limbs_for(ended.iter().map(|(_, v)| v.significant_bits()).max().unwrap_or(1));
        let ended: Vec<(usize, Vec<u64>)> = ended
            .into_iter()
            .map(|(slot, v)| {
                let mut value = vec![0u64; width];
                write(&mut value, &v);
                (slot, value)
            })
            .collect();
        // Sums of weighted values need a limb more than the values (weights and their
        // number fit 64 bits).
        let sum_width = below.map_or(1, |b| b.parts.first().map_or(1, |p| p.width) + 1);
        let wins_width = below.map_or(1, |b| b.wins_width() + 1);
        // The rows are written into the task's scratch (its pages held from part to part,
        // however long the rows turn out) and kept in a block of their size: fresh memory is
        // written once, with no copy as it grows.
        let mut rows = ValueRows::new(width);
        rows.data = std::mem::take(scratch);
        rows.data.clear();
        rows.starts.reserve(range.len());
        let mut sums = vec![0u64; stride * sum_width];
        let mut num = vec![0u64; stride * width.max(sum_width)];
        let mut won = vec![0u64; self.board.hole_count() * wins_width];
        let (mut legal, mut weights) = (Vec::new(), Vec::new());
        for i in range {
            if let Some(b) = below {
                for (ahead, stage) in [(2, Prefetch::Start), (1, Prefetch::Row)] {
                    if i + ahead < layer.positions.len() {
                        layer
                            .edges
                            .row(i + ahead)
                            .iter()
                            .for_each(|&e| b.prefetch(self.code.child(e) as usize, stage));
                    }
                }
            }
            let (mut counted, mut finished) = (0u64, 0u64);
            match (below, self.total(layer, i, &mut legal, &mut weights)) {
                (Some(b), Some(total)) => {
                    for (edge, &w) in layer.edges.row(i).iter().zip(&weights) {
                        let c = self.code.child(*edge) as usize;
                        for (slot, x) in b.numerators(c) {
                            add_mul_into_wider(&mut sums[slot * sum_width..(slot + 1) * sum_width], x, w);
                            counted |= 1 << slot;
                        }
                        let undo = &self.undo[self.code.element(*edge)];
                        for (hole, x) in b.wins(c) {
                            let h = undo[hole] as usize;
                            add_mul(&mut won[h * wins_width..(h + 1) * wins_width], x, 1);
                            finished |= 1 << h;
                        }
                    }
                    // Over the layer's denominator: each sum times lcm / total.
                    let factor = &factors[&total];
                    for slot in Bits(counted) {
                        let (sum, out) = (
                            &mut sums[slot * sum_width..(slot + 1) * sum_width],
                            &mut num[slot * width..(slot + 1) * width],
                        );
                        factor.scale(out, sum);
                        sum.fill(0);
                    }
                }
                _ => {
                    for (slot, value) in &ended {
                        num[slot * width..(slot + 1) * width].copy_from_slice(value);
                        counted |= 1 << slot;
                    }
                    if let Some(h) = layer.positions[i].single_hole() {
                        won[h as usize * wins_width] = 1;
                        finished = 1 << h;
                    }
                }
            }
            rows.push(&mut num, counted, &mut won, wins_width, finished);
        }
        let kept = rows.data.to_vec();
        *scratch = std::mem::replace(&mut rows.data, kept);
        rows
    }
}
