//! Errors a user can cause. Every one is bad input or an impossible request: the CLI
//! prints it as one line and exits with code 2.

use crate::engine::EngineError;
use crate::render::number::{grouped, plural};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error(
        "unknown board {}; built-in boards: {known} (or a path to a board file)",
        crate::render::number::quoted(board)
    )]
    UnknownBoard { board: String, known: String },
    #[error("board {board} has no hole {}; its holes are {holes}", crate::render::number::quoted(hole))]
    UnknownHole { board: String, hole: String, holes: String },
    #[error("board {board} is not usable: {why}")]
    BadBoard { board: String, why: String },
    /// `layer` names the layer in the game's words ("the layer with 21 pegs"); `classes`
    /// says that the engine's states are classes of positions (a run reduced by symmetry),
    /// counted as such; `by` names the pass refused, whose ways to need less memory are its own.
    #[error(
        "too large for the exact engine: the step to {layer} (about {}) is projected to need {}, \
         over the memory budget of {}",
        held(*positions, *classes), crate::render::number::bytes(*bytes),
        crate::render::number::bytes(*budget)
    )]
    TooLarge { layer: String, positions: u64, classes: bool, bytes: u64, budget: u64, by: RefusedBy },
    /// The system refused memory the budget allowed: the process may use less than the
    /// readings the budget came from (or the engine's projection fell short).
    #[error(
        "too large for the exact engine: the system refused {} of memory within the memory \
         budget; this process may use less than the budget assumed",
        crate::render::number::bytes(*bytes)
    )]
    AllocationFailed { bytes: u64 },
    /// Beyond what the exact engine can index, whatever the memory: no flag raises it.
    #[error(
        "too large for the exact engine: {layer} holds up to {}, more than the {} one layer may \
         hold",
        held(*positions, *classes), crate::render::number::grouped(*limit)
    )]
    LayerTooLarge { layer: String, positions: u64, classes: bool, limit: u64 },
    /// A breadth-first search stopped before it listed any solution: it held more positions
    /// than `limit`.
    #[error(
        "a breadth-first search of this problem met more than {} positions (up to symmetry), \
         its limit, and stopped before listing any solution",
        crate::render::number::grouped(*limit)
    )]
    SearchTooLarge { limit: u64 },
    /// The system refused a search the memory to hold more: `held` says what it held then
    /// ("1,204 positions"); `breadth_first` where the sweep of a breadth-first search held them.
    #[error("the search ran out of memory: the system refused it room for more than {held}")]
    SearchOutOfMemory { held: String, breadth_first: bool },
    #[error("{0}")]
    Invalid(String),
    /// A position whose future the coach cannot hold; the exact figures of the position
    /// alone may still be within reach.
    #[error("{0}")]
    FutureTooLarge(String),
    #[error("cannot write {path}: {why}")]
    Output { path: String, why: String },
    #[error("rules file {file}: {why}")]
    BadRules { file: String, why: String },
    #[error("board file {file}: {why}")]
    BoardFile { file: String, why: String },
    #[error("cannot export the board as {path}: {why}")]
    Export { path: String, why: String },
    /// The caller's cancel token stopped the work; `done` says, in the game's words, how far
    /// it got ("12 of 32 layers finished", "3,145,728 of 100,000,000 games played"). Not bad
    /// input: the CLI gives it its own exit code.
    #[error("{done}")]
    Interrupted { done: String },
}

impl Error {
    /// A simulation stopped after `played` of its `total` games.
    pub fn games_interrupted(played: u64, total: u64) -> Error {
        Error::Interrupted {
            done: format!("{} of {} played", grouped(played), plural(total, "game", "games")),
        }
    }
}

/// The pass a memory refusal comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedBy {
    /// The forward engine's step: fewer residues a pass, or parents waiting on disk, need less.
    Engine,
    /// The whole group's passes over the classes of starts that can end with one peg: the
    /// forward one keeps every layer for the backward one, which holds two layers' finish
    /// vectors besides; the engine alone keeps two layers.
    KeptClasses,
    /// The count of a start's positions two layers at a time: nothing but memory helps.
    Counting,
    /// The forward engine's step, in a run that chose the whole group's passes as the faster
    /// and fell back to the engine when they were refused: as `Engine`, but the whole group
    /// is no way out.
    EngineAfterWholeGroup,
}

impl RefusedBy {
    /// Every pass, in the order of their codes (`by as u64`), for a refusal crossing between
    /// processes.
    pub const ALL: [RefusedBy; 4] =
        [RefusedBy::Engine, RefusedBy::KeptClasses, RefusedBy::Counting, RefusedBy::EngineAfterWholeGroup];
}

/// What a layer holds, in the words of the progress lines: positions, or classes of them
/// where the run is reduced by symmetry (the engine's states are then classes).
fn held(states: u64, classes: bool) -> String {
    if classes { plural(states, "class", "classes") } else { plural(states, "position", "positions") }
}

impl Error {
    /// An engine refusal in a game's words: `layer` names the rank ("the layer with 21 pegs"),
    /// and `classes` says that a state is a class of positions (a run reduced by symmetry).
    /// A broken chain contract can only come from a game's input (a rules file whose
    /// probabilities need weights beyond the engine's, say): it is reported as invalid input.
    pub fn from_engine(e: EngineError, layer: impl Fn(u32) -> String, classes: bool) -> Error {
        let invalid = |why: String| Error::Invalid(format!("cannot evaluate this exactly: {why}"));
        match e {
            EngineError::TooLarge { rank, states, bytes, budget } => {
                let by = RefusedBy::Engine;
                Error::TooLarge { layer: layer(rank), positions: states, classes, bytes, budget, by }
            }
            EngineError::AllocationFailed { bytes } => Error::AllocationFailed { bytes },
            EngineError::LayerTooLarge { rank, states, limit } => {
                Error::LayerTooLarge { layer: layer(rank), positions: states, classes, limit }
            }
            EngineError::WeightTooLarge { weight } => invalid(format!(
                "a move needs the integer weight {weight}, over the engine's limit of {}; the \
                 probabilities' common denominator is too large",
                crate::engine::error::MAX_WEIGHT
            )),
            EngineError::ZeroWeight { rank } => {
                invalid(format!("a move out of {} has probability 0 and should not be listed", layer(rank)))
            }
            EngineError::WeightsDoNotSum { rank, total, sum } => invalid(format!(
                "the move weights out of a position in {} add up to {sum}, not to their total {total}",
                layer(rank)
            )),
            EngineError::RankDidNotFall { from, to } => invalid(format!(
                "a move leads from {} to {}, which the layered engine cannot follow",
                layer(from),
                layer(to)
            )),
            EngineError::NotSaved { finished_layers } => Error::Invalid(format!(
                "the evaluation after {} was not saved",
                plural(finished_layers.into(), "finished layer", "finished layers")
            )),
            EngineError::SpillFailed { dir, why } => Error::Output { path: dir, why },
            EngineError::ResumedElsewhere => invalid("the saved evaluation began from another start".into()),
            EngineError::Cancelled { finished_layers, rank } => Error::Interrupted {
                done: format!(
                    "{} finished, stopped in {}",
                    plural(finished_layers.into(), "layer", "layers"),
                    layer(rank)
                ),
            },
        }
    }
}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Error {
        Error::from_engine(e, |rank| format!("the layer of rank {rank}"), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_engine_says_how_far_it_got_in_the_games_words() {
        let e = Error::from_engine(
            EngineError::Cancelled { finished_layers: 12, rank: 20 },
            |p| format!("the layer with {p} pegs"),
            false,
        );
        assert_eq!(e.to_string(), "12 layers finished, stopped in the layer with 20 pegs");
        assert!(matches!(e, Error::Interrupted { .. }));
    }

    #[test]
    fn a_stopped_simulation_counts_its_games_in_words() {
        assert_eq!(Error::games_interrupted(0, 1).to_string(), "0 of 1 game played");
        assert_eq!(
            Error::games_interrupted(3_145_728, 100_000_000).to_string(),
            "3,145,728 of 100,000,000 games played"
        );
    }

    /// A refusal crosses between processes by its pass's code, its place in `ALL`.
    #[test]
    fn every_pass_is_listed_at_its_code() {
        for (code, by) in RefusedBy::ALL.into_iter().enumerate() {
            assert_eq!(by as usize, code, "{by:?}");
        }
    }

    #[test]
    fn every_engine_refusal_is_put_in_the_games_words() {
        let pegs = |rank: u32| format!("the layer with {rank} pegs");
        let e = Error::from_engine(
            EngineError::TooLarge { rank: 20, states: 9, bytes: 3_000_000_000, budget: 1 },
            pegs,
            false,
        );
        assert!(
            matches!(e, Error::TooLarge { ref layer, positions: 9, by: RefusedBy::Engine, .. } if layer == "the layer with 20 pegs")
        );
        assert!(
            e.to_string().contains("the step to the layer with 20 pegs (about 9 positions) is projected")
        );
        let e = Error::from_engine(
            EngineError::LayerTooLarge { rank: 20, states: 5_000_000_000, limit: 7 },
            pegs,
            false,
        );
        assert_eq!(
            e.to_string(),
            "too large for the exact engine: the layer with 20 pegs holds up to 5,000,000,000 positions, \
             more than the 7 one layer may hold"
        );
        // A run reduced by symmetry counts classes, as its progress lines do from the second
        // pass on: a class stands for up to as many positions as the symmetries.
        let reduced = |e| Error::from_engine(e, pegs, true).to_string();
        let step = reduced(EngineError::TooLarge { rank: 18, states: 298_490_008, bytes: 1, budget: 0 });
        assert!(step.contains("the step to the layer with 18 pegs (about 298,490,008 classes)"), "{step}");
        let layer = reduced(EngineError::LayerTooLarge { rank: 20, states: 5_000_000_000, limit: 7 });
        assert!(layer.contains("holds up to 5,000,000,000 classes, more than the 7"), "{layer}");
        let invalid = [
            (
                EngineError::WeightTooLarge { weight: 1 << 33 },
                "integer weight 8589934592, over the engine's limit of 4294967295",
            ),
            (EngineError::ZeroWeight { rank: 3 }, "a move out of the layer with 3 pegs has probability 0"),
            (EngineError::WeightsDoNotSum { rank: 3, total: 4, sum: 5 }, "add up to 5, not to their total 4"),
            (
                EngineError::RankDidNotFall { from: 3, to: 3 },
                "from the layer with 3 pegs to the layer with 3 pegs",
            ),
        ];
        for (engine, words) in invalid {
            let e = Error::from_engine(engine, pegs, false);
            assert!(matches!(e, Error::Invalid(ref why) if why.contains(words)), "{e}");
        }
    }
}
