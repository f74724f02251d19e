//! The whole-group method's first pass: every class reachable from some starts, layer by
//! layer, with the elements that orient it for each start (so each start's raw positions are
//! counted exactly), every layer kept for the passes after it; and the probe that tells
//! whether the starts share their classes enough for the method to be the faster.

use crate::engine::Cancel;
use crate::engine::layered::limbs::prefetch;
use crate::error::{Error, RefusedBy};
use crate::solitaire::board::SymmetryGroup;
use crate::solitaire::exact::{Positions, Stage};
use crate::solitaire::moves::Children;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::whole_group::{
    CHUNK, Game, LayerDone, MAX_GROUP_ORDER, concatenated, interrupted, starts_a_pass,
};
use crate::solitaire::words::{Bits, sort_above};
use hashbrown::HashMap;
use rayon::prelude::*;

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
    pub(crate) fn bytes(classes: u64) -> u64 {
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

    /// `mask` closed under `fixing`, the elements that fix its class (a bit each): `g·c` and
    /// `g·t·c` are one position for `t` fixing `c`, and counting raw positions needs every
    /// element that names a reachable one.
    #[inline]
    pub(crate) fn closed(&self, mut mask: u64, fixing: u64) -> u64 {
        // The identity (bit 0) adds nothing.
        for t in Bits(fixing & !1) {
            mask |= self.times(mask, t);
        }
        mask
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
pub(crate) fn share_enough(
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
    // Where a class (its holes' bits) and its mask fit in one word, the pairs are handed over
    // and sorted as words: in half the bytes, by a radix.
    let mask_bits = (starts.len() * order) as u32;
    let packed = group.perms()[0].len() as u32 + mask_bits <= u64::BITS;
    // The first layer: each start in its class, with every element taking the class to it.
    let layer: Vec<(Pegs, u64)> = starts
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
    let (mut layer, mut per_start) = closed(group, &children_of, &elements, starts.len(), merged(layer));
    let mut pegs = starts.first().map_or(0, |s| s.count());
    // The bytes of the layers kept; how many times the layer before it the last layer held,
    // and how many pairs the chunks handed over for each of its classes: the next step's
    // guesses.
    let (mut kept, mut growth, mut repeats) = (0u64, 1.0f64, 1.0f64);
    while !layer.is_empty() {
        if cancel.is_cancelled() {
            return Err(interrupted("forward pass over the classes", layers.len(), pegs));
        }
        let raw = count_layer(&per_start, pegs, &mut positions);
        progress(Stage::Classes, pegs, raw);
        if let Some(budget) = budget {
            // The layers kept and this one's pairs, with the next layer's: its pairs as the
            // chunks hand them over, and merged (pairs packed in words are sorted out of
            // place: twice their bytes, as many as a pair's).
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
        let (next, pairs) = match packed {
            true => {
                let words = children(game, &children_of, &elements, &layer, |class, mask| {
                    class.0 << mask_bits | mask
                });
                let pairs = words.len() as u64;
                (merged_words(words, mask_bits), pairs)
            }
            false => {
                let found = children(game, &children_of, &elements, &layer, |class, mask| (class, mask));
                let pairs = found.len() as u64;
                (merged(found), pairs)
            }
        };
        let classes = layer.len() as u64;
        kept += classes * size_of::<Pegs>() as u64 + starts.len() as u64 * Members::bytes(classes);
        layers.push(layer.par_iter().map(|&(class, _)| class).collect());
        (layer, per_start) = closed(group, &children_of, &elements, starts.len(), next);
        growth = layer.len() as f64 / classes as f64;
        repeats = pairs as f64 / layer.len().max(1) as f64;
        pegs = pegs.saturating_sub(1);
    }
    Ok(Reached { layers, members, positions })
}

/// The bytes of a class and its mask.
const PAIR: u64 = size_of::<(Pegs, u64)>() as u64;

/// Every child class of `layer` with the elements that orient it for each start, made into
/// `T` by `pair`; a chunk of the layer hands over each child it reaches once, its masks
/// merged (fewer to hold and sort).
fn children<T: Copy + Default + Send + Sync>(
    game: &Game<'_>,
    children_of: &Children,
    elements: &Elements,
    layer: &[(Pegs, u64)],
    pair: impl Fn(Pegs, u64) -> T + Sync,
) -> Vec<T> {
    let parts: Vec<Vec<T>> = layer
        .par_chunks(CHUNK)
        .map_init(HashMap::new, |seen: &mut HashMap<Pegs, u64>, chunk| {
            for &(class, mask) in chunk {
                children_of.each(game.moves, game.group, class, |_, child, k| {
                    // The child of g·class is g·k⁻¹·child.
                    *seen.entry(child).or_default() |= elements.times(mask, elements.inverse[k]);
                });
            }
            seen.drain().map(|(child, mask)| pair(child, mask)).collect()
        })
        .collect();
    concatenated(parts)
}

/// The pairs sorted by class, one per class with the union of its masks.
fn merged(mut pairs: Vec<(Pegs, u64)>) -> Vec<(Pegs, u64)> {
    pairs.par_sort_unstable_by_key(|&(class, _)| class);
    unions(pairs, |pair| pair)
}

/// [`merged`] for pairs packed in words, each a class above its mask's `mask_bits` bits,
/// sorted by a radix: `exact --board triangle7 --start all` took 0.96-0.99 of the time it took
/// with the pairs compared (in half their bytes).
fn merged_words(mut words: Vec<u64>, mask_bits: u32) -> Vec<(Pegs, u64)> {
    sort_above(&mut words, mask_bits);
    let mask = (1 << mask_bits) - 1;
    unions(words, |word| (Pegs(word >> mask_bits), word & mask))
}

/// One pair per class of `sorted` (read by `pair`), with the union of its masks. Each core's
/// runs in a vector of its own, then copied side by side into one of their size (a collect
/// would append them on one core).
fn unions<T: Copy + Send + Sync>(
    sorted: Vec<T>,
    pair: impl Fn(T) -> (Pegs, u64) + Sync + Send,
) -> Vec<(Pegs, u64)> {
    let runs: Vec<Vec<(Pegs, u64)>> = sorted
        .par_chunk_by(|&a, &b| pair(a).0 == pair(b).0)
        .fold(Vec::new, |mut out, same| {
            let masks = same.iter().fold(0, |union, &p| union | pair(p).1);
            out.push((pair(same[0]).0, masks));
            out
        })
        .collect();
    drop(sorted);
    concatenated(runs)
}

/// Each mask closed under its class's stabilizer ([`Elements::closed`]), with each start's
/// raw positions and classes in the layer, counted from the closed masks.
fn closed(
    group: &SymmetryGroup,
    children: &Children,
    elements: &Elements,
    starts: usize,
    mut layer: Vec<(Pegs, u64)>,
) -> (Vec<(Pegs, u64)>, Vec<StartCount>) {
    let order = elements.order;
    let per_start = layer
        .par_iter_mut()
        .fold(
            || vec![(0u64, 0u64); starts],
            |mut acc, (class, mask)| {
                let fixing = children.fixing(group, *class);
                *mask = elements.closed(*mask, fixing);
                let stabilizer = u64::from(fixing.count_ones());
                for (s, slot) in acc.iter_mut().enumerate() {
                    let bits = (*mask >> (s * order)) & (u64::MAX >> (64 - order));
                    if bits != 0 {
                        slot.0 += u64::from(bits.count_ones()) / stabilizer;
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
    (layer, per_start)
}

/// A start's raw positions and classes in a layer.
type StartCount = (u64, u64);

/// Adds one layer's raw positions and classes (`per_start`, from [`closed`]) to each start's
/// positions, and returns its raw positions, all starts together.
fn count_layer(per_start: &[StartCount], pegs: u32, positions: &mut [Positions]) -> u64 {
    let mut total = 0;
    for (p, &(raw, classes)) in positions.iter_mut().zip(per_start) {
        if raw > 0 {
            p.raw += raw;
            p.up_to_symmetry += classes;
            p.by_layer.push((pegs, raw, classes));
        }
        total += raw;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::moves::MoveTable;
    use crate::solitaire::policy::Policy;
    use std::collections::BTreeMap;

    /// Pairs of a class and a mask become one pair a class, in the order of the classes, with
    /// the union of its masks, whether compared as pairs or sorted as words (enough of them
    /// for the radix); many more classes than cores.
    #[test]
    fn pairs_are_merged_by_class() {
        let pairs: Vec<(Pegs, u64)> =
            (0..300_000u64).map(|i| (Pegs(i * 7919 % 100_003), 1 << (i % 64))).collect();
        let mut expected: BTreeMap<Pegs, u64> = BTreeMap::new();
        for &(class, mask) in &pairs {
            *expected.entry(class).or_default() |= mask;
        }
        assert_eq!(expected.len(), 100_003);
        let expected: Vec<(Pegs, u64)> = expected.into_iter().collect();
        // The same pairs packed in words, 17 bits of class above 47 of mask.
        let words = pairs.iter().map(|&(class, mask)| class.0 << 47 | mask & ((1 << 47) - 1)).collect();
        let masked =
            expected.iter().map(|&(class, mask)| (class, mask & ((1 << 47) - 1))).collect::<Vec<_>>();
        assert_eq!(merged_words(words, 47), masked);
        assert_eq!(merged(pairs), expected);
        assert_eq!(merged(Vec::new()), Vec::new());
        assert_eq!(merged_words(Vec::new(), 47), Vec::new());
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
