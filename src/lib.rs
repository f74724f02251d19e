//! pegchain: games of chance and random play as absorbing Markov chains, solved exactly
//! with rational arithmetic and checked by simulation.
//!
//! The library never parses arguments or prints: the CLI builds validated configs, calls
//! in here, and writes what the `report` functions return.

pub mod audit;
pub mod board;
pub mod chain;
pub mod crosscheck;
pub mod error;
pub mod numfmt;
pub mod policy;
pub mod position;
pub mod race;
pub mod report;
pub mod sampler;
pub mod simulate;
pub mod solitaire;
pub mod stats;

pub use board::{Board, SymmetryGroup};
pub use error::Error;
pub use policy::Policy;

/// A board by name: a built-in one (`triangle5`, `english`, ...).
pub fn load_board(spec: &str) -> Result<Board, Error> {
    board::builtin(spec)
}
