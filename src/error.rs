//! Errors a user can cause. Every one is bad input or an impossible request: the CLI
//! prints it as one line and exits with code 2.

use crate::engine::EngineError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error("unknown board {board:?}; built-in boards: {known} (or a path to a board file)")]
    UnknownBoard { board: String, known: String },
    #[error("board {board} has no hole {hole:?}; its holes are {holes}")]
    UnknownHole { board: String, hole: String, holes: String },
    #[error("board {board} is not usable: {why}")]
    BadBoard { board: String, why: String },
    /// `layer` names the layer in the game's words ("the layer with 21 pegs").
    #[error(
        "too large for the exact engine: the step to {layer} (about {positions} positions) is \
         projected to need {gb:.1} GB, over the memory budget of {budget_gb:.1} GB",
        gb = *bytes as f64 / 1e9, budget_gb = *budget as f64 / 1e9
    )]
    TooLarge { layer: String, positions: u64, bytes: u64, budget: u64 },
    /// A search refused before it starts: it could hold up to `bound` positions.
    #[error(
        "a breadth-first search of this problem may hold up to {bound} positions (every reachable \
         one, up to symmetry), over its limit of {limit}"
    )]
    SearchTooLarge { bound: u128, limit: u64 },
    #[error("{0}")]
    Invalid(String),
    #[error("cannot write {path}: {why}")]
    Output { path: String, why: String },
    #[error("rules file {file}: {why}")]
    BadRules { file: String, why: String },
    #[error("board file {file}: {why}")]
    BoardFile { file: String, why: String },
    #[error("cannot export the board as {path}: {why}")]
    Export { path: String, why: String },
}

impl Error {
    /// An engine refusal in a game's words: `layer` names the rank ("the layer with 21 pegs").
    pub fn from_engine(e: EngineError, layer: impl Fn(u32) -> String) -> Error {
        match e {
            EngineError::TooLarge { rank, states, bytes, budget } => {
                Error::TooLarge { layer: layer(rank), positions: states, bytes, budget }
            }
        }
    }
}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Error {
        Error::from_engine(e, |rank| format!("the layer of rank {rank}"))
    }
}
