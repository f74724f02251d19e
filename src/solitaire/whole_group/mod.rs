//! The whole-group method (`--whole-group`): every start reduced by the board's whole
//! symmetry group, a second method beside the default one (each start reduced by the
//! stabilizer of its hole, with the finish holes split over its classes).
//!
//! The figures no symmetry changes (pegs left, P(one peg), games) need no stabilizer: random
//! play commutes with every symmetry, so classes of the whole group carry them exactly
//! whatever the start, and the forward engine gives them. (That is not much cheaper on the
//! English board: from a start few symmetries fix, a position's mirror images are mostly
//! reachable only from the mirrored starts; see the README.) This module gives what that
//! reduction merges, for many starts at once, in a pass a file:
//!
//! 1. [`classes`]: one forward pass over the classes reachable from the starts, keeping for
//!    each class `c` and start `s` the elements `g` with `g·c` reachable from `s` (a bit
//!    each): the raw positions of every start are counted exactly, and each layer's classes
//!    are kept.
//! 2. [`masses`]: every start's pegs left, its mass carried along those classes.
//! 3. [`finishes`](mod@finishes): one backward pass, from one peg up, of each class's finish
//!    vector `V(c)[h]` = P(random play from `c` ends with its last peg in `h`) (or, counting, how
//!    many games do), kept only where it is not zero, over the classes that can still win.
//!
//! [`reach_counts`] is the first pass for a start from which no play ends with one peg: it
//! keeps two layers at a time, where [`classes`] keeps every layer for the backward pass.

pub mod classes;
pub mod finishes;
pub mod masses;
pub mod reach_counts;

pub(crate) use classes::share_enough;
pub use classes::{Members, Reached, reach};

use crate::engine::{Cancel, Mode};
use crate::error::Error;
use crate::render::number::plural;
use crate::solitaire::board::SymmetryGroup;
use crate::solitaire::exact::{Positions, Stage};
use crate::solitaire::moves::MoveTable;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::policy::Policy;
use crate::solitaire::words::{cut, grow_to};
use finishes::finishes;
use rayon::prelude::*;
use rug::Rational;
use std::collections::BTreeMap;

/// The most group elements the reach pass can follow per start: one bit each in a `u64`.
pub const MAX_GROUP_ORDER: usize = 64;

/// What the passes need of a board.
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
    /// zero, from the forward pass of every start's masses ([`masses`]);
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
        let finish = finishes(game, &reached.layers, chunk, mode, budget, cancel, progress)?;
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

/// Classes a step of either pass takes at a time (per task; the backward pass polls the
/// cancel token between them).
pub(crate) const CHUNK: usize = 4096;

/// How many children ahead of the one looked up (or summed) the memory it will need is
/// asked for: the look-ups and the vectors are scattered, a cache miss each without this.
pub(crate) const AHEAD: usize = 8;

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

/// The error of a pass stopped by the cancel token, with how far it came.
pub(crate) fn interrupted(pass: &str, finished: usize, pegs: u32) -> Error {
    Error::Interrupted {
        done: format!(
            "whole-group {pass}: {} finished, stopped at {pegs} pegs",
            plural(finished as u64, "layer", "layers")
        ),
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
}
