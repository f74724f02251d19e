//! Errors a user can cause. Every one is bad input or an impossible request: the CLI
//! prints it as one line and exits with code 2.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error("unknown board {board:?}; built-in boards: {known} (or a path to a board file)")]
    UnknownBoard { board: String, known: String },
    #[error("board {board} has no hole {hole:?}; its holes are {holes}")]
    UnknownHole { board: String, hole: String, holes: String },
    #[error("board {board} is not usable: {why}")]
    BadBoard { board: String, why: String },
    #[error(
        "too large for the exact engine: the step to the layer with {layer} pegs (about {positions} \
         positions) is projected to need {gb:.1} GB, over the memory budget of {budget_gb:.1} GB \
         (raise it with --max-memory GB if the machine has the memory)",
        gb = *bytes as f64 / 1e9, budget_gb = *budget as f64 / 1e9
    )]
    TooLarge { layer: u32, positions: u64, bytes: u64, budget: u64 },
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
