//! The whole-group method's backward pass: from one peg up, each class's finish vector
//! `V(c)[h]` = P(random play from `c` ends with its last peg in `h`) (or, counting, how many
//! games do), kept only where it is not zero. It visits only the classes that can still win,
//! found from those of the layer below by undoing jumps. `V(g·c)[g(h)] = V(c)[h]` serves every
//! orientation of a class, so `P(last peg in h | start s) = V(s)[h]` for all starts at once.
//! Within a layer the vectors are integers over one common denominator, as in the forward
//! engine.

use crate::engine::layered::Distinct;
use crate::engine::layered::limbs::{add_mul, limbs_for, prefetch, to_integer};
use crate::engine::{Cancel, Mode};
use crate::error::{Error, RefusedBy};
use crate::solitaire::exact::Stage;
use crate::solitaire::moves::Children;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::scale::{Factor, factors};
use crate::solitaire::slots::Slots;
use crate::solitaire::whole_group::{AHEAD, CHUNK, Game, LayerDone, concatenated, interrupted, weighed};
use hashbrown::HashMap;
use rayon::prelude::*;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// Limbs in a cache line of 64 bytes.
const LIMBS_PER_LINE: usize = 8;

/// Finish vectors of some classes of one layer: for each class that can still end with one
/// peg, its holes and their values, integers of `width` limbs over the layer's common
/// denominator, in flat arrays (no heap number per value).
struct Part {
    classes: Vec<Pegs>,
    /// Class i's move total (its values' denominator before the layer's common one).
    totals: Vec<u64>,
    /// Class i's entries: `ends[i]..ends[i + 1]`.
    ends: Vec<u32>,
    holes: Vec<u8>,
    limbs: Vec<u64>,
    width: usize,
    /// The most significant bits of any value.
    bits: u32,
}

impl Part {
    /// A part with room for `classes` classes of `values` values in all: grown by doubling,
    /// its limbs were copied a dozen times on the way.
    fn with_room(width: usize, classes: usize, values: usize) -> Part {
        let mut ends = Vec::with_capacity(classes + 1);
        ends.push(0);
        Part {
            classes: Vec::with_capacity(classes),
            totals: Vec::with_capacity(classes),
            ends,
            holes: Vec::with_capacity(values),
            limbs: Vec::with_capacity(values * width),
            width,
            bits: 0,
        }
    }

    /// The bytes a part of `classes` classes of `values` values in all takes.
    fn bytes_for(classes: usize, values: usize, width: usize) -> u64 {
        let per_class = size_of::<Pegs>() + size_of::<u64>() + size_of::<u32>();
        (classes * per_class + values * (1 + width * size_of::<u64>())) as u64
    }

    /// The bytes the part takes.
    fn bytes(&self) -> u64 {
        Part::bytes_for(self.classes.len(), self.holes.len(), self.width)
    }

    fn vector(&self, i: usize) -> impl Iterator<Item = (u8, &[u64])> {
        let (from, to) = (self.ends[i] as usize, self.ends[i + 1] as usize);
        (from..to).map(move |e| (self.holes[e], &self.limbs[e * self.width..(e + 1) * self.width]))
    }

    /// Adds a value to the class being written (its first `width` limbs).
    fn push_value(&mut self, hole: u8, value: &[u64]) {
        let value = &value[..self.width];
        self.holes.push(hole);
        self.limbs.extend_from_slice(value);
        if let Some(top) = value.iter().rposition(|&l| l != 0) {
            self.bits = self.bits.max(64 * top as u32 + 64 - value[top].leading_zeros());
        }
    }

    /// Ends the class being written: its values are those pushed since the last class.
    fn end_class(&mut self, class: Pegs, total: u64) {
        self.classes.push(class);
        self.totals.push(total);
        self.ends.push(self.holes.len() as u32);
    }
}

/// A layer's finish vectors, by class.
#[derive(Default)]
struct Vectors {
    parts: Vec<Part>,
    /// Each class with its part and index there. Most children looked up cannot win, and a
    /// miss costs as much as a hit.
    slots: Slots,
    /// The values of a vector on average, rounded up: the room a part of the layer above
    /// is made with (found once, not by every chunk).
    values_per_class: usize,
}

impl Vectors {
    fn of(parts: Vec<Part>) -> Vectors {
        let classes = parts.iter().map(|p| p.classes.len()).sum::<usize>();
        let entries = parts.iter().enumerate().flat_map(|(p, part)| {
            part.classes.iter().enumerate().map(move |(i, &class)| (class, p as u32, i as u32))
        });
        let slots = Slots::of(classes, entries);
        let values: usize = parts.iter().map(|p| p.holes.len()).sum();
        Vectors { values_per_class: values.div_ceil(classes.max(1)), parts, slots }
    }

    fn classes(&self) -> usize {
        self.parts.iter().map(|p| p.classes.len()).sum()
    }

    fn bytes(&self) -> u64 {
        self.parts.iter().map(Part::bytes).sum::<u64>() + self.slots.bytes()
    }

    /// Asks memory for the slot where `class` would be.
    fn prefetch(&self, class: Pegs) {
        self.slots.prefetch(class);
    }

    /// Where `class`'s vector is (its part and index there), if it has one.
    fn find(&self, class: Pegs) -> Option<(u32, u32)> {
        self.slots.find(class)
    }

    /// The vector found at `at`.
    fn vector(&self, (p, i): (u32, u32)) -> impl Iterator<Item = (u8, &[u64])> {
        self.parts[p as usize].vector(i as usize)
    }

    /// Asks memory for the vector at `at`: its holes and every cache line of its values (a
    /// vector of triangle7's middle layers spans four to five lines; with the first alone
    /// asked for, the loads of the rest took a quarter of the sums' time).
    fn prefetch_vector(&self, (p, i): (u32, u32)) {
        let part = &self.parts[p as usize];
        let (from, to) = (part.ends[i as usize] as usize, part.ends[i as usize + 1] as usize);
        prefetch(&part.holes[from]);
        for limb in (from * part.width..to * part.width).step_by(LIMBS_PER_LINE) {
            prefetch(&part.limbs[limb]);
        }
        // The last line, where the values do not start on a line's first limb.
        if to > from {
            prefetch(&part.limbs[to * part.width - 1]);
        }
    }

    /// Limbs wide enough for any value of this layer.
    fn width(&self) -> usize {
        limbs_for(self.parts.iter().map(|p| p.bits).max().unwrap_or(1))
    }
}

/// The backward pass over `layers` (most pegs first): the finish values of each start.
/// Refused, before the vectors of a layer projected to take it past `budget` are made, with
/// what they would hold beside `layers`.
pub fn finishes(
    game: &Game<'_>,
    layers: &[Vec<Pegs>],
    starts: &[Pegs],
    mode: Mode,
    budget: Option<u64>,
    cancel: &Cancel,
    progress: &mut LayerDone<'_>,
) -> Result<Vec<BTreeMap<u8, Rational>>, Error> {
    let kept: u64 = layers.iter().map(|l| (l.len() * size_of::<Pegs>()) as u64).sum();
    let group = game.group;
    let inverse: Vec<usize> = (0..group.order()).map(|g| group.inverse(g)).collect();
    let children = Children::new(game.moves, group);
    // The vectors of the layer below, by class, over `denominator`.
    let mut below = Vectors::default();
    let mut denominator = Integer::from(1);
    for (done, layer) in layers.iter().rev().enumerate() {
        let stopped =
            || interrupted("backward pass of the finish holes", done, layer.first().map_or(0, |c| c.count()));
        // A sum of weighted values needs one limb more than the values (weights and their
        // number fit 64 bits).
        let width = below.width() + 1;
        let found = winnable(game, &children, layer, &below);
        if let Some(budget) = budget {
            // Summing holds the vectors below and the sums, as many values a class as below;
            // scaling, the sums and their copies over the common denominator, with their table
            // (a limb wider: the lcm of a layer's move totals fits a limb on the built-in boards).
            let values = found.len() * below.values_per_class.max(1);
            let sums = Part::bytes_for(found.len(), values, width);
            let scaled = Part::bytes_for(found.len(), values, width + 1) + Slots::bytes_for(found.len());
            let bytes = kept + (found.len() * size_of::<Pegs>()) as u64 + sums + below.bytes().max(scaled);
            if bytes > budget {
                let pegs = layer.first().map_or(0, |c| c.count());
                let layer = format!("the finish holes of the layer with {pegs} pegs");
                let (positions, by) = (found.len() as u64, RefusedBy::KeptClasses);
                return Err(Error::TooLarge { layer, positions, classes: true, bytes, budget, by });
            }
        }
        let sums: Option<Vec<Part>> = found
            .par_chunks(CHUNK)
            .map(|chunk| {
                (!cancel.is_cancelled())
                    .then(|| sum_chunk(game, &children, &inverse, &below, chunk, mode, width))
            })
            .collect();
        let sums = sums.ok_or_else(stopped)?;
        // The layer below has served: its memory goes before the scaled copies are made.
        drop(std::mem::take(&mut below));
        // V(c) = sum / (total · D): over D·L, the numerators are sum · L / total.
        let totals = Distinct::of_parts(sums.par_iter(), |part, seen| {
            part.totals.iter().for_each(|&w| seen.insert(w))
        });
        let (lcm, factors) = factors(totals.iter());
        let bits = sums.iter().map(|p| p.bits).max().unwrap_or(1) + lcm.significant_bits();
        let parts = sums.into_par_iter().map(|part| scaled(part, &factors, limbs_for(bits))).collect();
        below = Vectors::of(parts);
        progress(Stage::FinishHoles, layer.first().map_or(0, |c| c.count()), below.classes() as u64);
        denominator *= &lcm;
    }
    Ok(starts
        .iter()
        .map(|&start| {
            let (class, k) = group.canonical_with_element(start);
            let back = &group.perms()[inverse[k]];
            below
                .find(class)
                .into_iter()
                .flat_map(|at| below.vector(at))
                .map(|(hole, value)| {
                    (back[hole as usize], Rational::from((to_integer(value), denominator.clone())))
                })
                .collect()
        })
        .collect())
}

/// The classes of `layer` (sorted) that can still end with one peg, sorted: its single pegs,
/// and the classes with a jump into a class of `below` (one peg fewer) that can. They are
/// found from `below` by undoing jumps, so the classes that cannot win, most classes of a big
/// board, are never looked at.
fn winnable(game: &Game<'_>, children: &Children, layer: &[Pegs], below: &Vectors) -> Vec<Pegs> {
    let (moves, group) = (game.moves, game.group);
    // Every class of a layer has the same number of pegs.
    let single_pegs = if layer.first().is_some_and(|c| c.count() == 1) { layer } else { &[] };
    // Each part's parents in a vector of its own, joined side by side (a flattened collect
    // appends them on one core).
    let mut parts: Vec<Vec<Pegs>> = below
        .parts
        .par_iter()
        .map(|part| {
            let mut parents = Vec::new();
            for &class in &part.classes {
                children.each_undone(moves, group, class, |_, parent, _| parents.push(parent));
            }
            // Neighbouring classes share parents: fewer to hold and sort below.
            parents.sort_unstable();
            parents.dedup();
            parents
        })
        .collect();
    parts.push(single_pegs.to_vec());
    let mut found = concatenated(parts);
    found.par_sort_unstable();
    found.dedup();
    // A class of a position no start reaches has no value a start needs. Both lists are
    // sorted: each piece walks the layer from where its first class would be.
    let pieces: Vec<Vec<Pegs>> = found
        .par_chunks(CHUNK)
        .map(|piece| {
            let mut at = layer.partition_point(|c| *c < piece[0]);
            piece
                .iter()
                .copied()
                .filter(|class| {
                    while at < layer.len() && layer[at] < *class {
                        at += 1;
                    }
                    at < layer.len() && layer[at] == *class
                })
                .collect()
        })
        .collect();
    // The pieces hold what is kept: the list they were taken from goes before they are joined.
    drop(found);
    concatenated(pieces)
}

/// The sums of some classes' children's vectors, weighted by their moves' weights. In three
/// sweeps over the chunk, so that memory is asked for ahead: every child's class, then every
/// child's vector found (its slot read ahead), then the sums (the vectors read ahead).
fn sum_chunk(
    game: &Game<'_>,
    children_of: &Children,
    inverse: &[usize],
    below: &Vectors,
    chunk: &[Pegs],
    mode: Mode,
    width: usize,
) -> Part {
    // Room for as many values a class as the layer below has, and a quarter more.
    let values = chunk.len() * below.values_per_class * 5 / 4;
    let mut part = Part::with_room(width, chunk.len(), values);
    // Each class's children (class, element), weights and total; its own pegs for a class
    // of one peg, which ends there.
    let mut children: Vec<(Pegs, usize)> = Vec::new();
    let mut weights: Vec<u64> = Vec::new();
    let mut totals = Vec::with_capacity(chunk.len());
    let mut ends = Vec::with_capacity(chunk.len());
    let mut legal = Vec::new();
    let mut class_weights = Vec::new();
    for &class in chunk {
        // The legal jumps and their children, found once.
        legal.clear();
        children_of.each(game.moves, game.group, class, |j, child, k| {
            legal.push(j);
            children.push((child, k));
        });
        let total = weighed(game, mode, &legal, &mut class_weights);
        weights.extend_from_slice(&class_weights[..legal.len()]);
        totals.push(total);
        ends.push(children.len());
    }
    let found: Vec<Option<(u32, u32)>> = (0..children.len())
        .map(|e| {
            if let Some(&(ahead, _)) = children.get(e + AHEAD) {
                below.prefetch(ahead);
            }
            below.find(children[e].0)
        })
        .collect();
    // A value per hole, and which holes hold one; the value 1, for a class of one peg.
    let mut sums = vec![0u64; 64 * width];
    let mut one = vec![0u64; width];
    one[0] = 1;
    let mut from = 0;
    for ((&class, &total), &to) in chunk.iter().zip(&totals).zip(&ends) {
        if let Some(hole) = class.single_hole() {
            part.push_value(hole, &one);
            part.end_class(class, 1);
            from = to;
            continue;
        }
        let mut touched = 0u64;
        for e in from..to {
            if let Some(Some(ahead)) = found.get(e + AHEAD) {
                below.prefetch_vector(*ahead);
            }
            let Some(at) = found[e] else { continue };
            // child = k⁻¹·(its class): V(child)[k⁻¹(h)] = V(class of child)[h].
            let back = &game.group.perms()[inverse[children[e].1]];
            for (hole, value) in below.vector(at) {
                let h = back[hole as usize] as usize;
                touched |= 1 << h;
                add_mul(&mut sums[h * width..(h + 1) * width], value, weights[e]);
            }
        }
        from = to;
        if touched == 0 {
            continue;
        }
        for h in Pegs(touched).holes() {
            let sum = &mut sums[h as usize * width..(h as usize + 1) * width];
            part.push_value(h, sum);
            sum.fill(0);
        }
        part.end_class(class, total);
    }
    part
}

/// A part's sums over its classes' totals, as values over the layer's common denominator:
/// each sum times its factor `lcm / total`, in limbs of `width`.
fn scaled(part: Part, factors: &HashMap<u64, Factor>, width: usize) -> Part {
    let mut out = Part::with_room(width, part.classes.len(), part.holes.len());
    let mut value = vec![0u64; width];
    for (i, (&class, &total)) in part.classes.iter().zip(&part.totals).enumerate() {
        let factor = &factors[&total];
        for (hole, sum) in part.vector(i) {
            factor.scale(&mut value, sum);
            out.push_value(hole, &value);
        }
        out.end_class(class, total);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::{SymmetryGroup, builtin};
    use crate::solitaire::moves::MoveTable;
    use crate::solitaire::policy::Policy;
    use crate::solitaire::whole_group::reach;

    /// The backward pass is refused before the vectors of a layer projected past its budget
    /// are made, naming them, and a budget it fits changes nothing. Triangle6 from A keeps
    /// 146,435 classes (1.2 MB); the widest layers' finish vectors are projected at 7 MB more.
    #[test]
    fn the_backward_pass_is_refused_past_its_budget() {
        let board = builtin("triangle6").unwrap();
        let (moves, group) = (MoveTable::new(&board), SymmetryGroup::of_board(&board));
        let game = Game { moves: &moves, group: &group, policy: Policy::Uniform };
        let start = board.full().without(0);
        let layers = reach(&game, &[start], None, &Cancel::new(), &mut |_, _, _| {}).unwrap().layers;
        let run = |budget| {
            finishes(&game, &layers, &[start], Mode::Probability, budget, &Cancel::new(), &mut |_, _, _| {})
        };
        let whole = run(None).unwrap();
        let win: Rational = whole[0].values().sum();
        let published = "4604187114624846611878372908370137957212188696779025680012083/\
                         316733698473964427907411526834138356645996716359680000000000000";
        assert_eq!(win, published.parse::<Rational>().unwrap());
        assert_eq!(run(Some(16_000_000)).unwrap(), whole);
        let Err(Error::TooLarge { layer, bytes, budget, by, positions, classes }) = run(Some(1_200_000))
        else {
            panic!("1.2 MB of classes kept and their finish vectors fitted 1.2 MB");
        };
        assert!(bytes > budget && budget == 1_200_000 && positions > 0 && classes, "{bytes} over {budget}");
        assert!(layer.starts_with("the finish holes of the layer with "), "{layer}");
        assert_eq!(by, RefusedBy::KeptClasses);
    }
}
