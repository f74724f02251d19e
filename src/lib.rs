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
pub mod solve;
pub mod stats;

pub use board::{Board, SymmetryGroup};
pub use error::Error;
pub use policy::Policy;

/// A board by name: a built-in one (`triangle5`, `english`, ...), or a board file's path.
pub fn load_board(spec: &str) -> Result<Board, Error> {
    Ok(load_board_and_puzzle(spec)?.0)
}

/// A board and the puzzle its file carries (none for a built-in board). A built-in name
/// wins over a file of that name in the current directory (write `./english` for the file).
pub fn load_board_and_puzzle(spec: &str) -> Result<(Board, Option<board::file::Puzzle>), Error> {
    match board::builtin(spec) {
        Ok(b) => Ok((b, None)),
        Err(unknown) => {
            let path = std::path::Path::new(spec);
            if path.exists() || spec.contains(['/', '\\', '.']) {
                let f = board::file::load(path)?;
                Ok((f.board, Some(f.puzzle)))
            } else {
                Err(unknown)
            }
        }
    }
}
