//! The whole-group method's forward pass for a start from which no play ends with one peg
//! (its position class differs from every single peg's, [`crate::solitaire::solve::one_peg_ruled_out`]).
//! Such a start has no finish holes, so the backward pass has nothing to find and needs no
//! layer kept: this pass counts the start's raw positions and keeps two layers at a time.
//!
//! As in [`crate::solitaire::whole_group::reach`], each class carries the elements `g` with `g·c`
//! reachable from the start (a bit each), and a layer's raw positions are its classes' bits
//! over their stabilizers. Here a class and its bits share one word, and the classes a layer's
//! jumps lead to are merged in one table filled by every task at once (a new class by one
//! compare-and-swap, a class met again by an `or`), where `reach` collects a pair of words
//! for every jump and sorts them. On the European board from c2 (fixed by no symmetry, its
//! widest layers hundreds of millions of classes) `reach` would need more memory than the
//! machine has; this pass needs about two words a class of the widest step.

use crate::engine::Cancel;
use crate::error::{Error, RefusedBy};
use crate::solitaire::board::SymmetryGroup;
use crate::solitaire::exact::{Positions, Stage};
use crate::solitaire::moves::Children;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::slots::slot_of;
use crate::solitaire::whole_group::classes::Elements;
use crate::solitaire::whole_group::{CHUNK, Game, LayerDone, interrupted};
use crate::solitaire::words::cut;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Whether a class and its elements fit one word on this board: its holes' bits, then one
/// bit an element.
pub fn fits(game: &Game<'_>) -> bool {
    holes(game) + game.group.order() <= 64
}

fn holes(game: &Game<'_>) -> usize {
    game.group.perms()[0].len()
}

/// The most a table is filled before it counts as full: its probes stay short, and a free
/// slot is always left for the jumps under way when it fills.
const MOST_FULL: f64 = 0.8;

/// The fewest slots a table has.
const FEWEST_SLOTS: usize = 1 << 12;

/// Receives, after every layer counted, the positions counted so far and that layer's
/// classes (the words this pass follows), from which [`positions`] can go on.
pub type SaveCount<'a> = dyn FnMut(&Positions, &[u64]) -> Result<(), Error> + 'a;

/// Where a count goes on: what a [`SaveCount`] was handed.
pub type CountSoFar = (Positions, Vec<u64>);

/// The raw positions (and the whole group's classes) of every layer reachable from `start`,
/// in a table of at most `budget` bytes when a budget is given, going on from `resume` when
/// given and handing each layer to `save` when given. The caller checks [`fits`].
pub fn positions(
    game: &Game<'_>,
    start: Pegs,
    budget: Option<u64>,
    cancel: &Cancel,
    progress: &mut LayerDone<'_>,
    (resume, mut save): (Option<CountSoFar>, Option<&mut SaveCount<'_>>),
) -> Result<Positions, Error> {
    assert!(fits(game), "the caller checks that a class and its elements fit a word");
    let group = game.group;
    let elements = Elements::of(group);
    let words = Words { holes: holes(game) as u32 };
    let children_of = Children::new(game.moves, group);
    let mut from_save = resume.is_some();
    let GoOn { mut layer, mut raw, mut pegs, mut positions, mut growth } = match resume {
        Some(so_far) => GoOn::from_save(so_far, group, &words)?,
        None => {
            let class = group.canonical(start);
            let bits =
                (0..group.order()).filter(|&g| group.apply(g, class) == start).fold(0, |m, g| m | 1 << g);
            // The start is one position.
            let layer = vec![words.pack(class, bits)];
            GoOn { layer, raw: 1, pegs: start.count(), positions: Positions::default(), growth: 1.0 }
        }
    };
    while !layer.is_empty() {
        if cancel.is_cancelled() {
            return Err(interrupted("forward pass over the classes", positions.by_layer.len(), pegs));
        }
        positions.raw += raw;
        positions.up_to_symmetry += layer.len() as u64;
        positions.by_layer.push((pegs, raw, layer.len() as u64));
        progress(Stage::Classes, pegs, raw);
        // A layer just read from a save is not saved again.
        if let Some(save) = save.as_deref_mut().filter(|_| !from_save) {
            save(&positions, &layer)?;
        }
        from_save = false;
        let mut guess = (layer.len() as f64 * growth.max(1.0)) as usize;
        let mut slots = (guess as f64 / MOST_FULL).ceil() as usize;
        let next = loop {
            slots = slots.max(FEWEST_SLOTS).next_power_of_two();
            if let Some(budget) = budget {
                // The layer, the table and the next layer drawn from it (as many classes as
                // guessed), at once.
                let bytes = 8 * (layer.len() + slots + guess) as u64;
                if bytes > budget {
                    let (layer, positions) = (format!("the layer with {} pegs", pegs - 1), guess as u64);
                    let by = RefusedBy::Counting;
                    return Err(Error::TooLarge { layer, positions, classes: true, bytes, budget, by });
                }
            }
            let table = Table::new(slots)?;
            if filled(game, &elements, &children_of, &words, &layer, &table, cancel) {
                break table;
            }
            if cancel.is_cancelled() {
                return Err(interrupted("forward pass over the classes", positions.by_layer.len(), pegs));
            }
            // The layer holds more than the table took.
            guess = guess.max((MOST_FULL * slots as f64) as usize);
            slots *= 2;
        };
        let before = layer.len();
        drop(layer);
        (layer, raw) = next.classes(group, &children_of, &elements, &words)?;
        growth = layer.len() as f64 / before as f64;
        pegs = pegs.saturating_sub(1);
    }
    Ok(positions)
}

/// Where a count goes on, as [`positions`] holds it before counting a layer.
struct GoOn {
    /// The layer's classes, its raw positions and its pegs.
    layer: Vec<u64>,
    raw: u64,
    pegs: u32,
    /// The positions of the layers before it.
    positions: Positions,
    /// How many times the layer before it the layer held: the next one's first guess.
    growth: f64,
}

impl GoOn {
    /// Where a count saved with `so_far` goes on: from its last layer. A layer that is not
    /// one of this board's layers of classes is refused, not followed.
    fn from_save(
        (mut positions, layer): CountSoFar,
        group: &SymmetryGroup,
        words: &Words,
    ) -> Result<GoOn, Error> {
        let not_ours = || Error::Invalid("the saved count is not a count of this start's positions".into());
        let (pegs, raw, classes) = positions.by_layer.pop().ok_or_else(not_ours)?;
        let order = group.order() as u32;
        let one_of_ours = |&w: &u64| {
            let (class, bits) = (words.class(w), words.elements(w));
            class.count() == pegs && bits != 0 && (order == 64 || bits >> order == 0)
        };
        if classes != layer.len() as u64 || layer.is_empty() || !layer.par_iter().all(one_of_ours) {
            return Err(not_ours());
        }
        positions.raw = positions.raw.checked_sub(raw).ok_or_else(not_ours)?;
        positions.up_to_symmetry = positions.up_to_symmetry.checked_sub(classes).ok_or_else(not_ours)?;
        let before = positions.by_layer.last().map_or(1, |&(_, _, classes)| classes.max(1));
        Ok(GoOn { layer, raw, pegs, positions, growth: classes as f64 / before as f64 })
    }
}

/// A class and its elements in one word: the class's holes low, the elements above them.
struct Words {
    holes: u32,
}

impl Words {
    #[inline]
    fn pack(&self, class: Pegs, elements: u64) -> u64 {
        class.0 | elements << self.holes
    }

    #[inline]
    fn class(&self, word: u64) -> Pegs {
        Pegs(word & ((1 << self.holes) - 1))
    }

    #[inline]
    fn elements(&self, word: u64) -> u64 {
        word >> self.holes
    }
}

/// The classes a layer's jumps lead to, each in a slot of its own (a zero word marks a free
/// slot: no class is the empty position), probed linearly from [`slot_of`].
struct Table {
    slots: Vec<AtomicU64>,
    bits: u32,
    /// The classes added so far, and the most the table takes.
    added: AtomicUsize,
    most: usize,
    full: AtomicBool,
}

impl Table {
    /// A table of `slots` slots, a power of two.
    fn new(slots: usize) -> Result<Table, Error> {
        let mut words: Vec<AtomicU64> = Vec::new();
        words.try_reserve_exact(slots).map_err(|_| Error::AllocationFailed { bytes: 8 * slots as u64 })?;
        words.par_extend((0..slots).into_par_iter().map(|_| AtomicU64::new(0)));
        let most = (slots as f64 * MOST_FULL) as usize;
        Ok(Table {
            slots: words,
            bits: slots.trailing_zeros(),
            added: AtomicUsize::new(0),
            most,
            full: AtomicBool::new(false),
        })
    }

    /// Adds `word`'s class with its elements, or its elements to the class's. A table past
    /// its most is marked full and takes no more (it will be made again, larger): the slots
    /// left free keep every probe short of a full circle.
    #[inline]
    fn add(&self, words: &Words, word: u64) {
        if self.full.load(Ordering::Relaxed) {
            return;
        }
        let class = words.class(word);
        let mask = self.slots.len() - 1;
        let mut slot = slot_of(class, self.bits);
        loop {
            let mut seen = self.slots[slot].load(Ordering::Relaxed);
            if seen == 0 {
                match self.slots[slot].compare_exchange(0, word, Ordering::Relaxed, Ordering::Relaxed) {
                    Ok(_) => {
                        if self.added.fetch_add(1, Ordering::Relaxed) >= self.most {
                            self.full.store(true, Ordering::Relaxed);
                        }
                        return;
                    }
                    Err(now) => seen = now,
                }
            }
            if words.class(seen) == class {
                if seen | word != seen {
                    self.slots[slot].fetch_or(word, Ordering::Relaxed);
                }
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The classes in the table, each with its elements closed under its stabilizer (`g·c`
    /// and `g·t·c` are one position for `t` fixing `c`), in a vector of their number; and the
    /// raw positions they stand for (a class's elements over its stabilizer's, found once).
    fn classes(
        self,
        group: &SymmetryGroup,
        children: &Children,
        elements: &Elements,
        words: &Words,
    ) -> Result<(Vec<u64>, u64), Error> {
        let pieces: Vec<&[AtomicU64]> = self.slots.chunks(1 << 16).collect();
        let counts: Vec<usize> =
            pieces.par_iter().map(|p| p.iter().filter(|w| w.load(Ordering::Relaxed) != 0).count()).collect();
        let total: usize = counts.iter().sum();
        let mut out: Vec<u64> = Vec::new();
        out.try_reserve_exact(total).map_err(|_| Error::AllocationFailed { bytes: 8 * total as u64 })?;
        out.resize(total, 0);
        let raw = cut(&mut out, counts)
            .into_par_iter()
            .zip(pieces)
            .map(|((_, part), piece)| {
                let found = piece.iter().map(|w| w.load(Ordering::Relaxed)).filter(|&w| w != 0);
                let mut raw = 0;
                for (slot, word) in part.iter_mut().zip(found) {
                    let class = words.class(word);
                    let fixing = children.fixing(group, class);
                    let bits = elements.closed(words.elements(word), fixing);
                    raw += u64::from(bits.count_ones()) / u64::from(fixing.count_ones());
                    *slot = words.pack(class, bits);
                }
                raw
            })
            .sum();
        Ok((out, raw))
    }
}

/// Puts the classes `layer`'s jumps lead to in `table`, each with the elements that take it
/// to a position reachable from the start; false if the table filled (or the run was
/// cancelled) first.
fn filled(
    game: &Game<'_>,
    elements: &Elements,
    children_of: &Children,
    words: &Words,
    layer: &[u64],
    table: &Table,
    cancel: &Cancel,
) -> bool {
    layer.par_chunks(CHUNK).for_each(|chunk| {
        if cancel.is_cancelled() {
            return;
        }
        for &word in chunk {
            if table.full.load(Ordering::Relaxed) {
                return;
            }
            let (class, bits) = (words.class(word), words.elements(word));
            children_of.each(game.moves, game.group, class, |_, child, k| {
                // The child of g·class is g·k⁻¹·child.
                table.add(words, words.pack(child, elements.times(bits, elements.inverse[k])));
            });
        }
    });
    !table.full.load(Ordering::Relaxed) && !cancel.is_cancelled()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cancel;
    use crate::solitaire::board::builtin;
    use crate::solitaire::moves::MoveTable;
    use crate::solitaire::policy::Policy;
    use crate::solitaire::whole_group::reach;

    /// Every start of the small triangles: the same positions, layer by layer, as the pass
    /// that keeps every layer, and a budget too small for a step refused in words.
    #[test]
    fn counts_every_starts_positions_as_the_pass_that_keeps_its_layers() {
        for name in ["triangle4", "triangle5", "triangle6"] {
            let board = builtin(name).unwrap();
            let (moves, group) = (MoveTable::new(&board), SymmetryGroup::of_board(&board));
            let game = Game { moves: &moves, group: &group, policy: Policy::Uniform };
            for hole in board.full().holes() {
                let start = board.full().without(hole);
                let mut quiet = |_: Stage, _: u32, _: u64| {};
                let kept = reach(&game, &[start], None, &Cancel::new(), &mut quiet).unwrap();
                let counted =
                    positions(&game, start, None, &Cancel::new(), &mut quiet, (None, None)).unwrap();
                assert_eq!(counted, kept.positions[0], "{name} from hole {hole}");
            }
        }
        let board = builtin("triangle6").unwrap();
        let (moves, group) = (MoveTable::new(&board), SymmetryGroup::of_board(&board));
        let game = Game { moves: &moves, group: &group, policy: Policy::Uniform };
        let start = board.full().without(0);
        let refused = positions(&game, start, Some(200_000), &Cancel::new(), &mut |_, _, _| {}, (None, None))
            .unwrap_err();
        assert!(refused.to_string().contains("over the memory budget of"), "{refused}");
        assert!(matches!(refused, Error::TooLarge { by: RefusedBy::Counting, .. }), "{refused:?}");
    }

    /// A count saved after every layer goes on from any of its saves to the same positions,
    /// counting only the layers after it; a save of another layer or start is refused.
    #[test]
    fn a_count_goes_on_from_any_layer_it_saved() {
        let board = builtin("triangle6").unwrap();
        let (moves, group) = (MoveTable::new(&board), SymmetryGroup::of_board(&board));
        let game = Game { moves: &moves, group: &group, policy: Policy::Uniform };
        let start = board.full().without(1);
        let mut saves: Vec<CountSoFar> = Vec::new();
        let mut keep = |p: &Positions, layer: &[u64]| {
            saves.push((p.clone(), layer.to_vec()));
            Ok(())
        };
        let whole = positions(&game, start, None, &Cancel::new(), &mut |_, _, _| {}, (None, Some(&mut keep)));
        let whole = whole.unwrap();
        // A save for every layer, each holding the layers up to its own.
        assert_eq!(saves.len(), whole.by_layer.len());
        for (k, (so_far, layer)) in saves.iter().enumerate() {
            assert_eq!(so_far.by_layer[..], whole.by_layer[..=k]);
            let mut counted = Vec::new();
            let mut seen = |_: Stage, pegs: u32, _: u64| counted.push(pegs);
            let mut again = |_: &Positions, _: &[u64]| Ok(());
            let go_on = (Some((so_far.clone(), layer.clone())), Some(&mut again as &mut SaveCount<'_>));
            let resumed = positions(&game, start, None, &Cancel::new(), &mut seen, go_on).unwrap();
            assert_eq!(resumed, whole, "resumed from the save of layer {k}");
            let after: Vec<u32> = whole.by_layer[k..].iter().map(|l| l.0).collect();
            assert_eq!(counted, after, "resumed from the save of layer {k}");
        }
        // The layers of one save with the positions of another.
        let (so_far, _) = saves[5].clone();
        let wrong = (so_far, saves[6].1.clone());
        let refused = positions(&game, start, None, &Cancel::new(), &mut |_, _, _| {}, (Some(wrong), None));
        assert!(refused.unwrap_err().to_string().contains("not a count of this start's positions"));
    }
}
