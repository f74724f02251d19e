//! Peg solitaire: boards and their symmetry, board files, positions and jumps, the random
//! player as a chain for the engine, and the analyses built on it (exact odds, counts,
//! simulation beside the exact values, solutions, the textbook audit).

pub mod audit;
pub mod board;
pub mod chain;
pub mod coach;
pub mod estimates;
pub mod exact;
pub mod explicit;
pub mod files;
pub mod gather;
pub mod moves;
pub mod pegs;
pub mod policy;
pub mod position;
pub mod saved;
pub mod scale;
pub mod simulate;
pub mod slots;
pub mod solve;
pub mod whole_group;
pub mod words;

use crate::error::Error;
use board::Board;
pub use pegs::Pegs;

/// A board by name: a built-in one (`triangle5`, `english`, ...), or a board file's path.
pub fn load_board(spec: &str) -> Result<Board, Error> {
    Ok(load_board_and_puzzle(spec)?.0)
}

/// A board and the puzzle its file carries (none for a built-in board). A built-in name
/// wins over a file of that name in the current directory (write `./english` for the file).
pub fn load_board_and_puzzle(spec: &str) -> Result<(Board, Option<files::Puzzle>), Error> {
    match board::builtin(spec) {
        Ok(b) => Ok((b, None)),
        Err(unknown) => {
            let path = std::path::Path::new(spec);
            if path.exists() || spec.contains(['/', '\\', '.']) {
                let f = files::load(path)?;
                Ok((f.board, Some(f.puzzle)))
            } else {
                Err(unknown)
            }
        }
    }
}
