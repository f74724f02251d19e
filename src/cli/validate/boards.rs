//! `boards` and `show`: the built-in boards listed, a board exported or drawn.

use super::{Output, check_out_dir, refuse_format};
use crate::cli::args::*;
use pegchain::render::Format;
use pegchain::solitaire::files;
use pegchain::{Board, Error};
use std::path::PathBuf;

/// A validated export request.
pub struct ExportRequest {
    pub board: Board,
    /// The puzzle the board's file carries (none for a built-in board), exported with it.
    pub puzzle: files::Puzzle,
    pub format: files::Format,
    pub dir: PathBuf,
}

/// A validated `boards` request: list the built-in boards, or export one.
pub struct BoardsRequest {
    pub export: Option<ExportRequest>,
    pub output: Output,
}

impl BoardsArgs {
    pub fn validate(&self) -> Result<BoardsRequest, Error> {
        let output = self.output.validate_without_fractions("boards")?;
        let Some(spec) = &self.export else { return Ok(BoardsRequest { export: None, output }) };
        check_out_dir("--out", &self.out, "an export writes its board files into a directory")?;
        let (board, puzzle) = pegchain::solitaire::load_board_and_puzzle(spec)?;
        let export = ExportRequest {
            board,
            puzzle: puzzle.unwrap_or_default(),
            format: self.format.parse()?,
            dir: self.out.clone(),
        };
        Ok(BoardsRequest { export: Some(export), output })
    }
}

/// A validated `show` request.
pub struct ShowRequest {
    pub board: Board,
    pub output: Output,
}

impl ShowArgs {
    pub fn validate(&self) -> Result<ShowRequest, Error> {
        let output = refuse_format(
            self.output.validate_without_fractions("show")?,
            &[Format::Csv],
            "show draws the board, and a drawing is no table (--json lists the holes and jumps)",
        )?;
        Ok(ShowRequest { board: pegchain::solitaire::load_board(&self.board.board)?, output })
    }
}
