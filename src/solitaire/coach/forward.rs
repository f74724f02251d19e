//! The coach's forward pass: a position's P(n pegs left) from the jumps the search found,
//! one number a position (where keeping every position's distribution in the backward pass
//! takes about seven), and a second way to the root's odds beside the backward pass's.

use super::layers::Layer;
use super::{CHUNK, Coach, Factors, PegsLeft};
use crate::error::Error;
use crate::solitaire::exact::Stage;
use crate::solitaire::gather::Gathered;
use crate::solitaire::scale::Factor;
use crate::solitaire::words::{cut, grow_to};
use hashbrown::HashMap;
use pegchain_engine::layered::limbs::{add_mul, limbs_for, to_integer};
use rayon::prelude::*;
use rug::{Integer, Rational};

/// Numerators of one width, a row a position: a layer's probabilities in the forward pass.
struct Numerators {
    width: usize,
    data: Vec<u64>,
}

impl Numerators {
    fn row(&self, i: usize) -> &[u64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }
}

impl Coach<'_> {
    /// The P(n pegs left) of position `from` of `layers[0]` by a forward pass over the jumps
    /// the search found (positions it cannot reach are passed over): each
    /// layer's probabilities as numerators over one denominator (the one above times the lcm
    /// of the layer's move totals), each class gathering from the jumps that lead to it, and
    /// the probability of the positions with no jump summed layer by layer. One number a
    /// jump, where keeping every position's distribution in the backward pass takes about
    /// seven; and a second way to the root's odds beside the backward pass's.
    pub(super) fn pegs_left_forward(
        &self,
        layers: &[&Layer],
        factors: &[Factors],
        from: usize,
    ) -> Result<PegsLeft, Error> {
        // Each layer's rows are as wide as its masses once scaled, over the denominator of
        // the layer below: the masses are scaled where they are.
        let mut denominators = vec![Integer::from(1)];
        for (lcm, _) in &factors[..layers.len() - 1] {
            denominators.push(Integer::from(lcm * denominators.last().expect("the root's")));
        }
        let widths: Vec<usize> = denominators.iter().map(|d| limbs_for(d.significant_bits())).collect();
        let stride = |k: usize| widths[(k + 1).min(layers.len() - 1)];
        let mut mass = Numerators { width: stride(0), data: vec![0; layers[0].positions.len() * stride(0)] };
        mass.data[from * stride(0)] = 1;
        let mut pegs_left = Vec::new();
        // The layer before's numbers, their memory written again layer after layer (see
        // [`Coach::forward`]).
        let mut spare = Vec::new();
        for ((k, layer), (_, factors)) in layers.iter().enumerate().zip(factors) {
            if self.cancel.is_cancelled() {
                return Err(self.stopped());
            }
            self.report(Stage::CoachPegsLeft, layer);
            let ended = (0..layer.positions.len())
                .into_par_iter()
                .filter(|&u| layer.edges.row(u).is_empty())
                .fold(
                    || vec![0u64; mass.width + 1],
                    |mut sum, u| {
                        add_mul(&mut sum, mass.row(u), 1);
                        sum
                    },
                )
                .map(|sum| to_integer(&sum))
                .reduce(Integer::new, |a, b| a + b);
            if ended != 0 {
                let pegs = layer.positions[0].count();
                pegs_left.push((pegs, Rational::from((ended, denominators[k].clone()))));
            }
            let Some(next) = layers.get(k + 1) else { break };
            self.scale(layer, &mut mass, factors);
            let next_mass =
                self.forward(layer, next.positions.len(), &mass, stride(k + 1), std::mem::take(&mut spare));
            spare = std::mem::replace(&mut mass, next_mass).data;
        }
        pegs_left.reverse();
        Ok(pegs_left)
    }

    /// Each position's mass in `mass` times lcm / total, where it is (its row is wide
    /// enough for the product); a position with no jump keeps its mass, which no jump reads.
    fn scale(&self, layer: &Layer, mass: &mut Numerators, factors: &HashMap<u64, Factor>) {
        let width = mass.width;
        mass.data.par_chunks_mut(CHUNK * width).enumerate().for_each(|(c, rows)| {
            let (mut legal, mut weights) = (Vec::new(), Vec::new());
            for (u, row) in (c * CHUNK..).zip(rows.chunks_exact_mut(width)) {
                if row.iter().any(|&l| l != 0)
                    && let Some(total) = self.total(layer, u, &mut legal, &mut weights)
                {
                    factors[&total].scale_in_place(row);
                }
            }
        });
    }

    /// The numerators of the `classes` of the layer below `layer` (`width` limbs each) from
    /// `layer`'s scaled masses: each class the sum of weight times scaled mass over the
    /// jumps that lead to it. The next layer is cut into parts, one task's each (no two
    /// tasks write one number), each reading every jump of the layer and adding those that
    /// lead into its part (see [`Gathered`]). The numbers are written into `next`'s memory,
    /// whatever it holds: on this project's virtual machines a page first touched costs 10
    /// to 50 times what writing a page held does.
    fn forward(
        &self,
        layer: &Layer,
        classes: usize,
        scaled: &Numerators,
        width: usize,
        next: Vec<u64>,
    ) -> Numerators {
        let positions = layer.positions.len();
        let part_size = classes.div_ceil(rayon::current_num_threads()).max(CHUNK);
        let parts = classes.div_ceil(part_size);
        let mut next = Numerators { width, data: next };
        grow_to(&mut next.data, classes * width, || 0);
        let lengths = (0..parts).map(|p| (part_size.min(classes - p * part_size)) * width);
        let weighted = self.weighs_jumps();
        cut(&mut next.data, lengths).into_par_iter().enumerate().for_each(|(part, (_, out))| {
            // The memory holds an earlier layer's numbers (and a fresh page read first would be
            // the shared zero page, its first write then a copy and a flush of every core's TLB).
            out.fill(0);
            let (first, rows) = ((part * part_size) as u32, (out.len() / width) as u32);
            let mut gathered = Gathered::new();
            let (mut legal, mut weights) = (Vec::new(), Vec::new());
            for u in 0..positions {
                let edges = layer.edges.row(u);
                if edges.is_empty() || scaled.row(u).iter().all(|&l| l == 0) {
                    continue;
                }
                if weighted {
                    self.total(layer, u, &mut legal, &mut weights);
                }
                for (k, &e) in edges.iter().enumerate() {
                    if gathered.is_full() {
                        gathered.add_into(out, width, |from| scaled.row(from as usize));
                    }
                    let weight = if weighted { weights[k] } else { 1 };
                    gathered.jump(self.code.child(e).wrapping_sub(first), rows, u as u32, weight);
                }
            }
            gathered.add_into(out, width, |from| scaled.row(from as usize));
        });
        next
    }
}
