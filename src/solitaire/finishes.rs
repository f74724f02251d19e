//! The whole-group method (`--whole-group`): every start reduced by the board's whole
//! symmetry group, a second method beside the default one (each start reduced by the
//! stabilizer of its hole, with the finish holes split over its classes).
//!
//! The figures no symmetry changes (pegs left, P(one peg), games) need no stabilizer: random
//! play commutes with every symmetry, so classes of the whole group carry them exactly
//! whatever the start, and the forward engine gives them. (That is not much cheaper on the
//! English board: from a start few symmetries fix, a position's mirror images are mostly
//! reachable only from the mirrored starts; see the README.) This module gives what that
//! reduction merges, for many starts at once:
//!
//! 1. [`reach`]: one forward pass over the classes reachable from the starts, keeping for each
//!    class `c` and start `s` the elements `g` with `g·c` reachable from `s` (a bit each): the
//!    raw positions of every start are counted exactly, and each layer's classes are kept.
//! 2. [`finishes`]: one backward pass, from one peg up, of each class's finish vector
//!    `V(c)[h]` = P(random play from `c` ends with its last peg in `h`) (or, counting, how many
//!    games do), kept only where it is not zero. It visits only the classes that can still
//!    win, found from those of the layer below by undoing jumps. `V(g·c)[g(h)] = V(c)[h]` serves every
//!    orientation of a class, so `P(last peg in h | start s) = V(s)[h]` for all starts at
//!    once. Within a layer the vectors are integers over one common denominator, as in the
//!    forward engine.

use crate::engine::layered::Distinct;
use crate::engine::layered::limbs::{add_mul, limbs_for, prefetch, to_integer};
use crate::engine::{Cancel, Mode};
use crate::error::{Error, RefusedBy};
use crate::solitaire::board::SymmetryGroup;
use crate::solitaire::exact::{Positions, Stage};
use crate::solitaire::masses;
use crate::solitaire::moves::{Children, MoveTable};
use crate::solitaire::pegs::Pegs;
use crate::solitaire::policy::Policy;
use crate::solitaire::scale::{Factor, factors};
use crate::solitaire::slots::Slots;
use crate::solitaire::words::{cut, grow_to};
use hashbrown::HashMap;
use rayon::prelude::*;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// The most group elements the reach pass can follow per start: one bit each in a `u64`.
pub const MAX_GROUP_ORDER: usize = 64;

/// What the two passes need of a board.
pub struct Game<'a> {
    pub moves: &'a MoveTable,
    pub group: &'a SymmetryGroup,
    pub policy: Policy,
}

/// How many starts one pass over the classes carries at once: a bit for each start and
/// element of the group in a class's mask of 64.
fn starts_a_pass(group: &SymmetryGroup) -> usize {
    MAX_GROUP_ORDER / group.order()
}

/// A start's figures from the two passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartFigures {
    pub positions: Positions,
    /// The value (probability, or number of games) of ending with the last peg in each hole,
    /// for every hole where it is not zero.
    pub finish: BTreeMap<u8, Rational>,
    /// The value of ending stuck with n pegs, for every n of two or more where it is not
    /// zero, from the forward pass of every start's masses ([`crate::solitaire::masses`]);
    /// `None` where that pass was not asked for or would not fit the memory budget.
    pub stuck: Option<BTreeMap<u32, Rational>>,
}

/// Sees each finished layer of either pass: the stage, the layer's pegs and its positions
/// (raw positions of every start together forward, classes that can still win backward).
pub type LayerDone<'a> = dyn FnMut(Stage, u32, u64) + 'a;

/// Positions and finish holes of each start in `starts` (positions of equal peg count),
/// refused when the classes kept for the backward pass are projected past `budget`; and,
/// when `stuck` is given (the memory budget of that pass, if any), the value of ending with
/// each number of pegs by the forward pass of every start's masses, which is checked against
/// the finish holes: both give the value of ending with one peg.
pub fn evaluate(
    game: &Game<'_>,
    starts: &[Pegs],
    mode: Mode,
    budget: Option<u64>,
    stuck: Option<Option<u64>>,
    cancel: &Cancel,
    progress: &mut LayerDone<'_>,
) -> Result<Vec<StartFigures>, Error> {
    assert!(game.group.order() <= MAX_GROUP_ORDER, "the caller checks the group's order");
    let mut out = Vec::with_capacity(starts.len());
    for chunk in starts.chunks(starts_a_pass(game.group)) {
        let mut reached = reach(game, chunk, budget, cancel, progress)?;
        // The forward pass first: the memory it leaves is not the backward pass's peak.
        let by_pegs = match stuck {
            Some(budget) => masses::pegs_left(game, &reached, mode, budget, cancel, progress)?,
            None => None,
        };
        // Which classes each start reaches served that pass only (on the English board, 0.4 GB).
        reached.members = Vec::new();
        let finish = finishes(game, &reached.layers, chunk, mode, cancel, progress)?;
        let by_pegs = match by_pegs {
            Some(by_pegs) => by_pegs.into_iter().map(Some).collect(),
            None => vec![None; chunk.len()],
        };
        for ((positions, finish), by_pegs) in reached.positions.into_iter().zip(finish).zip(by_pegs) {
            let stuck = by_pegs.map(|by_pegs| stuck_checked(by_pegs, &finish)).transpose()?;
            out.push(StartFigures { positions, finish, stuck });
        }
    }
    Ok(out)
}

/// The value of ending with two pegs or more, of a start's value of ending with each number of
/// pegs, once its value of ending with one peg is found equal to the sum of its finish holes'
/// (the two passes share no code: a difference is a fault of either).
fn stuck_checked(
    mut by_pegs: BTreeMap<u32, Rational>,
    finish: &BTreeMap<u8, Rational>,
) -> Result<BTreeMap<u32, Rational>, Error> {
    let (one_peg, finishing) = (by_pegs.remove(&1).unwrap_or_default(), finish.values().sum::<Rational>());
    if one_peg != finishing {
        return Err(Error::Invalid(format!(
            "internal check failed: the whole-group passes disagree on the value of ending with one peg ({one_peg} forward, {finishing} backward)"
        )));
    }
    Ok(by_pegs)
}

/// The classes reachable from some starts, layer by layer, and each start's positions.
pub struct Reached {
    /// The classes of each layer, most pegs first.
    pub layers: Vec<Vec<Pegs>>,
    /// For each layer, which of its classes each start reaches.
    pub members: Vec<Vec<Members>>,
    pub positions: Vec<Positions>,
}

/// Which classes of a layer one start reaches: a bit a class, a word of 64 at a time beside
/// the number of bits set before it, so that a class's row among the start's classes takes
/// one cache line and one popcount.
pub struct Members {
    words: Vec<(u64, u64)>,
}

impl Members {
    /// The bytes one start's members of a layer of `classes` take.
    fn bytes(classes: u64) -> u64 {
        classes.div_ceil(64) * size_of::<(u64, u64)>() as u64
    }

    /// The classes of `layer` whose masks have a bit of `bits`.
    fn of(layer: &[(Pegs, u64)], bits: u64) -> Members {
        let mut words: Vec<(u64, u64)> = layer
            .par_chunks(64)
            .map(|word| {
                let set = word.iter().enumerate().filter(|(_, (_, mask))| mask & bits != 0);
                (set.fold(0, |w, (i, _)| w | 1 << i), 0)
            })
            .collect();
        let mut count = 0;
        for (word, before) in &mut words {
            *before = count;
            count += u64::from(word.count_ones());
        }
        words.push((0, count));
        Members { words }
    }

    /// How many classes the start reaches.
    pub fn count(&self) -> usize {
        self.words.last().map_or(0, |&(_, count)| count as usize)
    }

    /// Class `i`'s row among the start's classes, if the start reaches it.
    #[inline]
    pub fn row(&self, i: usize) -> Option<usize> {
        let (word, bit) = (self.words[i / 64].0, i % 64);
        (word >> bit & 1 == 1).then(|| self.rank(i))
    }

    /// How many of the classes before class `i` the start reaches.
    #[inline]
    fn rank(&self, i: usize) -> usize {
        let ((word, before), bit) = (self.words[i / 64], i % 64);
        (before + u64::from((word & ((1 << bit) - 1)).count_ones())) as usize
    }

    /// Asks memory for the word of class `i`.
    #[inline]
    pub fn prefetch(&self, i: usize) {
        prefetch(&self.words[i / 64]);
    }
}

/// Products in the group, as tables.
pub(crate) struct Elements {
    order: usize,
    /// `compose[g * order + k]`: `k`, then `g`.
    compose: Vec<usize>,
    /// `right[k << order | bits]`: the bits of `{g·k : g in bits}` for one start's `order`
    /// bits, so a start's elements are carried at once (triangle7's every-start classes took
    /// 0.84-0.91 of the time they took carried one by one). Empty for a group of more than
    /// [`TABLED_ORDER`] elements (a board from a file whose group is not a plane's).
    right: Vec<u16>,
    pub(crate) inverse: Vec<usize>,
}

/// The most elements a group may have for [`Elements::right`] (12 rows of 2^12 entries for
/// the 12 symmetries of a hexagonal board).
const TABLED_ORDER: usize = 12;

impl Elements {
    pub(crate) fn of(group: &SymmetryGroup) -> Elements {
        let order = group.order();
        let compose: Vec<usize> = (0..order * order).map(|i| group.compose(i / order, i % order)).collect();
        let mut elements = Elements { order, compose, right: Vec::new(), inverse: Vec::new() };
        if order <= TABLED_ORDER {
            let rows = (0..order).flat_map(|k| (0..1u64 << order).map(move |bits| (bits, k)));
            elements.right = rows.map(|(bits, k)| elements.times_one_by_one(bits, k) as u16).collect();
        }
        elements.inverse = (0..order).map(|g| group.inverse(g)).collect();
        elements
    }

    /// `{g·k : g in mask}` for each start's bits of `mask`.
    #[inline]
    pub(crate) fn times(&self, mask: u64, k: usize) -> u64 {
        if self.right.is_empty() {
            return self.times_one_by_one(mask, k);
        }
        let (order, row) = (self.order, k << self.order);
        let (mut out, mut rest, mut shift) = (0, mask, 0);
        while rest != 0 {
            out |= (self.right[row | (rest & ((1 << order) - 1)) as usize] as u64) << shift;
            rest >>= order;
            shift += order;
        }
        out
    }

    /// [`Elements::times`], element by element.
    fn times_one_by_one(&self, mask: u64, k: usize) -> u64 {
        let mut out = 0;
        let mut bits = mask;
        while bits != 0 {
            let bit = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (start, g) = (bit / self.order, bit % self.order);
            out |= 1 << (start * self.order + self.compose[g * self.order + k]);
        }
        out
    }
}

/// The forward pass: every class reachable from `starts` (at most 64 / group order of them),
/// with the elements that orient it for each start; refused, before the step projected to
/// take it past `budget`, with what that step would hold.
pub fn reach(
    game: &Game<'_>,
    starts: &[Pegs],
    budget: Option<u64>,
    cancel: &Cancel,
    progress: &mut LayerDone<'_>,
) -> Result<Reached, Error> {
    reach_until(game, starts, budget, cancel, progress, usize::MAX)
}

/// Classes in the layer where [`share_enough`] measures how much the starts share them: the
/// first layer at least this large. On the 28-hole triangle (layer 19: 271,934 classes)
/// and the English board (layer 24: 145,640) it comes in well under a second.
const PROBED_CLASSES: usize = 1 << 17;

/// How many starts reach a class of the probed layer on average, at the least, for the
/// whole-group method to be the faster. Measured: the six non-centre start classes of the
/// 28-hole triangle share the probed layer's classes 2.26 times (2.75 at the widest layer;
/// there the method takes 0.67 of the stabilizer's time), the English board's six 1.75
/// times (2.01 over all layers; there it takes 1.13 of it). Sharing grows layer by layer on
/// both boards, and every start's pegs left in one pass needs 2.5 over all layers.
const ENOUGH_SHARING: f64 = 2.0;

/// Whether `starts` share their classes enough for the whole-group method to be the faster
/// (see [`ENOUGH_SHARING`]) by [`sharing`]. A board none of whose layers has
/// [`PROBED_CLASSES`] classes takes the whole group (both methods take a moment there), a
/// probe refused for memory the stabilizer. Refused only when cancelled.
pub fn share_enough(
    game: &Game<'_>,
    starts: &[Pegs],
    budget: Option<u64>,
    cancel: &Cancel,
) -> Result<bool, Error> {
    match sharing(game, starts, budget, cancel) {
        Ok(Some((rows, classes))) => Ok(rows as f64 >= ENOUGH_SHARING * classes as f64),
        Ok(None) => Ok(true),
        Err(Error::TooLarge { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// How many of the first layer of [`PROBED_CLASSES`] classes or more each start reaches, in
/// all, and how many classes it has, by the forward pass over the starts' classes down to it
/// (without progress: it is brief); `None` where no layer is that large. Of the first
/// starts only where they are more than one pass takes at once.
fn sharing(
    game: &Game<'_>,
    starts: &[Pegs],
    budget: Option<u64>,
    cancel: &Cancel,
) -> Result<Option<(usize, usize)>, Error> {
    let chunk = &starts[..starts.len().min(starts_a_pass(game.group))];
    let reached = reach_until(game, chunk, budget, cancel, &mut |_, _, _| {}, PROBED_CLASSES)?;
    Ok(reached
        .layers
        .last()
        .zip(reached.members.last())
        .filter(|(classes, _)| classes.len() >= PROBED_CLASSES)
        .map(|(classes, members)| (members.iter().map(Members::count).sum(), classes.len())))
}

/// [`reach`], stopped after the first layer of `until` classes or more (its children not
/// found).
fn reach_until(
    game: &Game<'_>,
    starts: &[Pegs],
    budget: Option<u64>,
    cancel: &Cancel,
    progress: &mut LayerDone<'_>,
    until: usize,
) -> Result<Reached, Error> {
    let group = game.group;
    let elements = Elements::of(group);
    let order = elements.order;
    assert!(starts.len() * order <= MAX_GROUP_ORDER);
    let mut positions = vec![Positions::default(); starts.len()];
    let (mut layers, mut members) = (Vec::new(), Vec::new());
    let children_of = Children::new(game.moves, group);
    // The first layer: each start in its class, with every element taking the class to it.
    let mut layer: Vec<(Pegs, u64)> = starts
        .iter()
        .enumerate()
        .map(|(s, &start)| {
            let class = group.canonical(start);
            let mask = (0..order)
                .filter(|&g| group.apply(g, class) == start)
                .fold(0, |m, g| m | 1 << (s * order + g));
            (class, mask)
        })
        .collect();
    layer = merged(layer);
    let mut pegs = starts.first().map_or(0, |s| s.count());
    // The bytes of the layers kept; how many times the layer before it the last layer held,
    // and how many pairs the chunks handed over for each of its classes: the next step's
    // guesses.
    let (mut kept, mut growth, mut repeats) = (0u64, 1.0f64, 1.0f64);
    while !layer.is_empty() {
        if cancel.is_cancelled() {
            return Err(interrupted("forward pass over the classes", layers.len(), pegs));
        }
        let raw = count_layer(group, &elements, &layer, pegs, &mut positions);
        progress(Stage::Classes, pegs, raw);
        if let Some(budget) = budget {
            // The layers kept and this one's pairs, with the next layer's: its pairs as the
            // chunks hand them over, and merged.
            let next = (layer.len() as f64 * growth.max(1.0)) as u64;
            let bytes = kept + PAIR * (layer.len() as u64 + (next as f64 * (1.0 + repeats)) as u64);
            if bytes > budget {
                let (layer, by) =
                    (format!("the layer with {} pegs", pegs.saturating_sub(1)), RefusedBy::KeptClasses);
                return Err(Error::TooLarge { layer, positions: next, classes: true, bytes, budget, by });
            }
        }
        let start_bits = u64::MAX >> (64 - order);
        members.push((0..starts.len()).map(|s| Members::of(&layer, start_bits << (s * order))).collect());
        if layer.len() >= until {
            layers.push(layer.into_iter().map(|(class, _)| class).collect());
            break;
        }
        let elements = &elements;
        // Each chunk merges the masks of the children it reaches more than once: fewer pairs
        // to hold and sort.
        let children: Vec<Vec<(Pegs, u64)>> = layer
            .par_chunks(CHUNK)
            .map_init(HashMap::new, |seen: &mut HashMap<Pegs, u64>, chunk| {
                for &(class, mask) in chunk {
                    children_of.each(game.moves, group, class, |_, child, k| {
                        // The child of g·class is g·k⁻¹·child.
                        *seen.entry(child).or_default() |= elements.times(mask, elements.inverse[k]);
                    });
                }
                seen.drain().collect()
            })
            .collect();
        let children = concatenated(children);
        let (classes, pairs) = (layer.len() as u64, children.len() as u64);
        kept += classes * size_of::<Pegs>() as u64 + starts.len() as u64 * Members::bytes(classes);
        layers.push(layer.par_iter().map(|&(class, _)| class).collect());
        layer = closed(group, elements, merged(children));
        growth = layer.len() as f64 / classes as f64;
        repeats = pairs as f64 / layer.len().max(1) as f64;
        pegs = pegs.saturating_sub(1);
    }
    Ok(Reached { layers, members, positions })
}

/// The parts one after another in one block of their size, copied side by side (a flattened
/// collect grows vectors on the way and copies every pair twice; one core copying them all
/// left the other idle).
fn concatenated<T: Copy + Default + Send + Sync>(parts: Vec<Vec<T>>) -> Vec<T> {
    let mut out = Vec::new();
    grow_to(&mut out, parts.iter().map(Vec::len).sum(), T::default);
    let places = cut(&mut out, parts.iter().map(Vec::len));
    places.into_par_iter().zip(parts).for_each(|((_, place), part)| place.copy_from_slice(&part));
    out
}

/// The bytes of a class and its mask.
const PAIR: u64 = size_of::<(Pegs, u64)>() as u64;

/// The pairs sorted by class, one per class with the union of its masks.
fn merged(mut pairs: Vec<(Pegs, u64)>) -> Vec<(Pegs, u64)> {
    pairs.par_sort_unstable_by_key(|&(class, _)| class);
    // Each core's runs in a vector of its own, then copied side by side into one of their
    // size (a collect would append them on one core).
    let runs: Vec<Vec<(Pegs, u64)>> = pairs
        .par_chunk_by(|a, b| a.0 == b.0)
        .fold(Vec::new, |mut out, same| {
            out.push((same[0].0, same.iter().fold(0, |union, &(_, mask)| union | mask)));
            out
        })
        .collect();
    drop(pairs);
    concatenated(runs)
}

/// Each mask closed under the class's stabilizer: `g·c` and `g·t·c` are one position for `t`
/// fixing `c`, and the counts below need every element that names a reachable position.
fn closed(group: &SymmetryGroup, elements: &Elements, mut layer: Vec<(Pegs, u64)>) -> Vec<(Pegs, u64)> {
    layer.par_iter_mut().for_each(|(class, mask)| {
        for t in (1..elements.order).filter(|&t| group.apply(t, *class) == *class) {
            *mask |= elements.times(*mask, t);
        }
    });
    layer
}

/// Adds one layer to each start's positions, and returns its raw positions, all starts
/// together.
fn count_layer(
    group: &SymmetryGroup,
    elements: &Elements,
    layer: &[(Pegs, u64)],
    pegs: u32,
    positions: &mut [Positions],
) -> u64 {
    let order = elements.order;
    let starts = positions.len();
    let per_start: Vec<(u64, u64)> = layer
        .par_iter()
        .fold(
            || vec![(0u64, 0u64); starts],
            |mut acc, &(class, mask)| {
                let fixing = (0..order).filter(|&t| group.apply(t, class) == class).count() as u64;
                for (s, slot) in acc.iter_mut().enumerate() {
                    let bits = (mask >> (s * order)) & (u64::MAX >> (64 - order));
                    if bits != 0 {
                        slot.0 += bits.count_ones() as u64 / fixing;
                        slot.1 += 1;
                    }
                }
                acc
            },
        )
        .reduce(
            || vec![(0, 0); starts],
            |a, b| a.iter().zip(&b).map(|(x, y)| (x.0 + y.0, x.1 + y.1)).collect(),
        );
    let mut total = 0;
    for (p, &(raw, classes)) in positions.iter_mut().zip(&per_start) {
        if raw > 0 {
            p.raw += raw;
            p.up_to_symmetry += classes;
            p.by_layer.push((pegs, raw, classes));
        }
        total += raw;
    }
    total
}

/// Classes a step of either pass takes at a time (per task; the backward pass polls the
/// cancel token between them).
pub(crate) const CHUNK: usize = 4096;

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
pub fn finishes(
    game: &Game<'_>,
    layers: &[Vec<Pegs>],
    starts: &[Pegs],
    mode: Mode,
    cancel: &Cancel,
    progress: &mut LayerDone<'_>,
) -> Result<Vec<BTreeMap<u8, Rational>>, Error> {
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
        let sums: Option<Vec<Part>> = winnable(game, &children, layer, &below)
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

/// How many children ahead of the one looked up (or summed) the memory it will need is
/// asked for: the look-ups and the vectors are scattered, a cache miss each without this.
pub(crate) const AHEAD: usize = 8;

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

/// The weights of a class's `legal` jumps into `weights`, and their total: each jump counts
/// once when counting games; a class with no jump has the total 1.
pub(crate) fn weighed(game: &Game<'_>, mode: Mode, legal: &[usize], weights: &mut Vec<u64>) -> u64 {
    match mode {
        Mode::Paths => {
            weights.clear();
            weights.resize(legal.len(), 1);
            1
        }
        Mode::Probability if legal.is_empty() => 1,
        Mode::Probability => game.policy.weights(game.moves.jumps(), legal, weights),
    }
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

pub(crate) fn interrupted(pass: &str, finished: usize, pegs: u32) -> Error {
    Error::Interrupted {
        done: format!("whole-group {pass}: {finished} layers finished, stopped at {pegs} pegs"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_passes_must_agree_on_the_value_of_one_peg() {
        let (half, quarter) = (Rational::from((1, 2)), Rational::from((1, 4)));
        let by_pegs = BTreeMap::from([(1, half.clone()), (3, half.clone())]);
        let finish = BTreeMap::from([(0u8, quarter.clone()), (5, quarter)]);
        assert_eq!(stuck_checked(by_pegs.clone(), &finish).unwrap(), BTreeMap::from([(3, half)]));
        let short = BTreeMap::from([(0u8, Rational::from((1, 3)))]);
        let e = stuck_checked(by_pegs, &short).unwrap_err().to_string();
        assert!(e.contains("disagree") && e.contains("1/2 forward, 1/3 backward"), "{e}");
    }

    #[test]
    fn parts_are_concatenated_in_order() {
        let parts = vec![vec![1u64, 2], vec![], vec![3], vec![4, 5, 6]];
        assert_eq!(concatenated(parts), [1, 2, 3, 4, 5, 6]);
        assert_eq!(concatenated(Vec::<Vec<u64>>::new()), Vec::<u64>::new());
        // Many more parts than cores, of every length from 0 to 99, copied side by side.
        let parts: Vec<Vec<u64>> =
            (0..1000u64).map(|p| (0..p % 100).map(|i| p * 1000 + i).collect()).collect();
        let expected: Vec<u64> = parts.iter().flatten().copied().collect();
        assert_eq!(expected.len(), 10 * (0..100).sum::<usize>());
        assert_eq!(concatenated(parts), expected);
    }

    /// Pairs of a class and a mask become one pair a class, in the order of the classes, with
    /// the union of its masks; many more classes than cores.
    #[test]
    fn pairs_are_merged_by_class() {
        let pairs: Vec<(Pegs, u64)> =
            (0..300_000u64).map(|i| (Pegs(i * 7919 % 100_003), 1 << (i % 64))).collect();
        let mut expected: BTreeMap<Pegs, u64> = BTreeMap::new();
        for &(class, mask) in &pairs {
            *expected.entry(class).or_default() |= mask;
        }
        assert_eq!(expected.len(), 100_003);
        assert_eq!(merged(pairs), expected.into_iter().collect::<Vec<_>>());
        assert_eq!(merged(Vec::new()), Vec::new());
    }

    /// The pass that keeps every layer is refused before a step projected past its budget,
    /// and a budget the whole pass fits changes nothing. Triangle6 from A keeps 146,435
    /// classes, 8 bytes each: about 1.2 MB, its widest step a few hundred kilobytes more.
    #[test]
    fn the_pass_that_keeps_every_layer_is_refused_past_its_budget() {
        let board = crate::solitaire::board::builtin("triangle6").unwrap();
        let (moves, group) = (MoveTable::new(&board), SymmetryGroup::of_board(&board));
        let game = Game { moves: &moves, group: &group, policy: Policy::Uniform };
        let start = board.full().without(0);
        let run = |budget| reach(&game, &[start], budget, &Cancel::new(), &mut |_, _, _| {});
        let whole = run(None).unwrap();
        let classes: usize = whole.layers.iter().map(Vec::len).sum();
        assert_eq!(classes, 146_435);
        let fits = run(Some(8_000_000)).unwrap();
        assert_eq!((fits.layers, fits.positions), (whole.layers, whole.positions));
        let Err(Error::TooLarge { bytes, budget, by, positions, .. }) = run(Some(1_000_000)) else {
            panic!("a pass keeping 1.2 MB of classes fitted 1 MB");
        };
        assert!(bytes > budget && budget == 1_000_000 && positions > 0, "{bytes} over {budget}");
        assert_eq!(by, RefusedBy::KeptClasses);
    }

    /// The probe that chooses the faster method, on the non-centre start classes of the
    /// 28-hole triangle (whole group) and the English board (stabilizer): how many of the
    /// first layer of 2^17 classes or more the starts reach, in all, and how many it has.
    #[test]
    fn the_triangles_starts_share_enough_of_their_classes_and_the_english_boards_do_not() {
        for (name, rows, classes, enough) in
            [("triangle7", 615_544, 271_934, true), ("english", 254_941, 145_640, false)]
        {
            let board = crate::solitaire::board::builtin(name).unwrap();
            let (moves, group) = (MoveTable::new(&board), SymmetryGroup::of_board(&board));
            let game = Game { moves: &moves, group: &group, policy: Policy::Uniform };
            let starts: Vec<Pegs> = group
                .hole_orbits()
                .iter()
                .filter(|orbit| orbit.len() > 1)
                .map(|orbit| board.full().without(orbit[0]))
                .collect();
            assert_eq!(starts.len(), 6, "{name}");
            let cancel = Cancel::new();
            assert_eq!(sharing(&game, &starts, None, &cancel).unwrap(), Some((rows, classes)), "{name}");
            assert_eq!(share_enough(&game, &starts, None, &cancel).unwrap(), enough, "{name}");
            // A probe refused for memory chooses the stabilizer.
            assert!(!share_enough(&game, &starts, Some(1 << 20), &cancel).unwrap(), "{name}");
        }
        // triangle6's layers never reach 2^17 classes: the whole group.
        let board = crate::solitaire::board::builtin("triangle6").unwrap();
        let (moves, group) = (MoveTable::new(&board), SymmetryGroup::of_board(&board));
        let game = Game { moves: &moves, group: &group, policy: Policy::Uniform };
        let starts = [board.full().without(0), board.full().without(1)];
        assert_eq!(sharing(&game, &starts, None, &Cancel::new()).unwrap(), None);
        assert!(share_enough(&game, &starts, None, &Cancel::new()).unwrap());
    }

    /// The table carries every start's elements as the elements one by one do, on the
    /// triangles' group (6 elements, ten starts' bits) and the English board's (8, eight).
    #[test]
    fn elements_carried_by_the_table_as_one_by_one() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for name in ["triangle7", "english"] {
            let board = crate::solitaire::board::builtin(name).unwrap();
            let group = SymmetryGroup::of_board(&board);
            let elements = Elements::of(&group);
            assert_eq!(elements.right.len(), group.order() << group.order());
            let bits = 64 / group.order() * group.order();
            for _ in 0..2000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let mask = state >> (64 - bits);
                for k in 0..group.order() {
                    let carried = elements.times(mask, k);
                    assert_eq!(carried, elements.times_one_by_one(mask, k), "{name}: {mask:#x} times {k}");
                    assert_eq!(carried.count_ones(), mask.count_ones(), "a permutation of each start's bits");
                }
            }
        }
    }
}
