//! The dice race of seed 004, "the swine and the butcher", as a second chain for the generic
//! engine: who wins, exactly, and how long the game takes.
//!
//! A board of `length` squares with the river on the last; the swine starts ahead, the butcher
//! behind. Each turn one roll of the die moves the swine, the butcher, both or nobody, as the
//! rules say. The swine wins on reaching the river (overshooting is fine); the butcher wins on
//! reaching or passing the swine.

pub mod chain;
pub mod explicit;
pub mod rules;
pub mod simulate;
pub mod turns;

pub use chain::{RaceChain, Side, Spot};
pub use rules::{Face, Rules, Setup};
pub use simulate::{CrossCheck, Simulation, simulate};
pub use turns::{TurnRow, Turns};

use crate::engine::{Cancel, Mode, Options, backward, propagate};
use crate::error::Error;
use rug::Rational;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// The longest board the analyses accept: far beyond any real game, and it keeps the
/// backward recursion's depth (2 * length) small.
pub const MAX_LENGTH: u32 = 200;

/// One start analysed: who wins, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceReport {
    pub setup: Setup,
    pub swine: Rational,
    pub butcher: Rational,
    /// (P(the swine wins after k moves), P(the butcher wins after k moves)), by k; a move is
    /// a roll that shifts someone.
    pub by_moves: BTreeMap<u32, (Rational, Rational)>,
    pub turns: Turns,
}

/// A board length the analyses accept (at most [`MAX_LENGTH`]); callers check it before
/// computing anything.
pub fn check_length(length: u32) -> Result<(), Error> {
    if length > MAX_LENGTH {
        return Err(too_long(length));
    }
    Ok(())
}

/// The refusal of a board longer than [`MAX_LENGTH`]: `length` as given, which may be too
/// large for any integer type.
pub fn too_long(length: impl std::fmt::Display) -> Error {
    Error::Invalid(format!("the board length must be at most {MAX_LENGTH}, not {length}"))
}

/// A board length the grid accepts: at most [`MAX_LENGTH`], and 3 or more, so that it has a
/// pair of start squares on the board (square 0, where a single race may start the butcher,
/// is off it and not in the grid).
pub fn check_grid_length(length: u32) -> Result<(), Error> {
    check_length(length)?;
    if length < 3 {
        return Err(Error::Invalid(format!(
            "a board of length {length} has no pair of start squares on it: the grid's squares run from 1 \
             (square 0, just off the board, is left out), the butcher behind the swine and the swine \
             before the river, so the grid needs a length of 3 or more"
        )));
    }
    Ok(())
}

/// The exact probabilities and length of one game, by layered forward propagation over
/// (swine, butcher, moves).
pub fn analyse(rules: &Rules, setup: Setup) -> Result<RaceReport, Error> {
    analyse_until(rules, setup, &Cancel::new())
}

/// [`analyse`], stopped with [`Error::Interrupted`] once `cancel` is set (polled between the
/// engine's layers: a board of 200 squares takes seconds).
pub fn analyse_until(rules: &Rules, setup: Setup, cancel: &Cancel) -> Result<RaceReport, Error> {
    check_length(setup.length)?;
    let chain = RaceChain::new(rules, setup.length, true);
    let ends = propagate(
        &chain,
        Spot::start(&setup),
        Mode::Probability,
        |s| (chain.winner(s), s.moves),
        Options { cancel: Some(cancel), ..Options::default() },
    )?;
    let mut by_moves: BTreeMap<u32, (Rational, Rational)> = BTreeMap::new();
    for ((side, moves), p) in ends {
        let entry = by_moves.entry(moves).or_default();
        match side {
            Side::Swine => entry.0 += p,
            Side::Butcher => entry.1 += p,
        }
    }
    let swine: Rational = by_moves.values().map(|(s, _)| s).sum();
    let butcher: Rational = by_moves.values().map(|(_, b)| b).sum();
    let turns = turns::turns(&by_moves, &rules.stay_probability());
    Ok(RaceReport { setup, swine, butcher, by_moves, turns })
}

/// The swine's chance from one start, by forward propagation over (swine, butcher) alone.
pub fn swine_wins(rules: &Rules, setup: Setup) -> Result<Rational, Error> {
    check_length(setup.length)?;
    let chain = RaceChain::new(rules, setup.length, false);
    let ends =
        propagate(&chain, Spot::start(&setup), Mode::Probability, |s| chain.winner(s), Options::default())?;
    Ok(ends.get(&Side::Swine).cloned().unwrap_or_default())
}

/// The swine's chance for one pair of start squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridCell {
    pub swine: u32,
    pub butcher: u32,
    pub p: Rational,
}

/// The swine's chance for every pair of start squares on a board, 1 <= butcher < swine <
/// length, by swine then butcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub length: u32,
    pub cells: Vec<GridCell>,
}

/// Every pair of start squares, by the backward recursion with one memo for the whole table.
pub fn grid(rules: &Rules, length: u32) -> Result<Grid, Error> {
    grid_within(rules, length, None)
}

/// The memory the grid of a board of `length` is planned to take, at
/// [`GRID_BYTES_PER_PAIR`] for each pair of squares.
pub fn planned_grid(length: u32) -> u64 {
    u64::from(length).pow(2) * GRID_BYTES_PER_PAIR
}

/// Bytes a pair of squares of the grid, its exact numbers held while they are solved and
/// shown. Measured: 25 MB at length 200, 13.3 MB at 150, 5.7 MB at 100 (past the process's
/// own 5.5 MB); under `ulimit -v` 32-34 MB the grid of 200 aborted in GMP.
pub const GRID_BYTES_PER_PAIR: u64 = 700;

/// [`grid`], refused before any solving where it is planned past `budget` bytes (GMP
/// aborts the process when an allocation fails).
pub fn grid_within(rules: &Rules, length: u32, budget: Option<u64>) -> Result<Grid, Error> {
    check_grid_length(length)?;
    let bytes = planned_grid(length);
    if let Some(budget) = budget.filter(|&b| bytes > b) {
        return Err(Error::Invalid(format!(
            "the grid of a board of length {length} is projected to need {}, over the memory budget of {}",
            crate::render::number::bytes(bytes),
            crate::render::number::bytes(budget)
        )));
    }
    let chain = RaceChain::new(rules, length, false);
    let starts: Vec<Spot> =
        (2..length).flat_map(|s| (1..s).map(move |b| Spot { swine: s, butcher: b, moves: 0 })).collect();
    let values = backward::absorption_each(&chain, &starts, |s| chain.winner(s));
    let cells = starts
        .iter()
        .zip(values)
        .map(|(s, v)| GridCell {
            swine: s.swine,
            butcher: s.butcher,
            p: v.get(&Side::Swine).cloned().unwrap_or_default(),
        })
        .collect();
    Ok(Grid { length, cells })
}

/// The whole analysis for each board length in `lengths`, from the same start squares; every
/// length is checked before the first is analysed. Stopped like [`analyse_until`] once
/// `cancel` is set.
pub fn sweep(
    rules: &Rules,
    swine: u32,
    butcher: u32,
    lengths: RangeInclusive<u32>,
    cancel: &Cancel,
) -> Result<Vec<RaceReport>, Error> {
    let setups: Vec<Setup> = lengths
        .map(|length| {
            check_length(length)?;
            Setup::new(length, swine, butcher)
        })
        .collect::<Result<_, _>>()?;
    setups.into_iter().map(|setup| analyse_until(rules, setup, cancel)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_from_forward_backward_and_the_grid_agree() {
        let rules = Rules::default_game();
        let setup = Setup::new(12, 7, 1).unwrap();
        let report = analyse(&rules, setup).unwrap();
        assert_eq!(Rational::from(&report.swine + &report.butcher), 1);
        assert_eq!(swine_wins(&rules, setup).unwrap(), report.swine);
        let g = grid(&rules, 12).unwrap();
        assert_eq!(g.cells.len(), 55);
        let cell = g.cells.iter().find(|c| (c.swine, c.butcher) == (7, 1)).unwrap();
        assert_eq!(cell.p, report.swine);
    }

    #[test]
    fn lengths_are_limited() {
        let rules = Rules::default_game();
        assert!(analyse(&rules, Setup::new(MAX_LENGTH + 1, 7, 1).unwrap()).is_err());
        assert!(grid(&rules, 2).unwrap_err().to_string().contains("length of 3 or more"));
        assert!(
            sweep(&rules, 7, 1, 7..=9, &Cancel::new()).unwrap_err().to_string().contains("before the river")
        );
    }
}
