//! `serve`: the boards offered and how long a connection may stay idle.

use crate::cli::args::ServeArgs;
use pegchain::render::number::quoted;
use pegchain::solitaire::board;
use pegchain::{Board, Error};
use std::time::Duration;

/// A validated `serve` request (where to listen is clap's to check).
pub struct ServeChoices {
    /// Every built-in board, after the board file's if one is given.
    pub boards: Vec<Board>,
    pub idle_timeout: Duration,
}

impl ServeArgs {
    pub fn validate(&self) -> Result<ServeChoices, Error> {
        let idle_timeout = match self.idle_timeout {
            seconds @ 1..=3600 => Duration::from_secs(seconds),
            seconds => {
                return Err(Error::Invalid(format!("--idle-timeout takes 1 to 3600 seconds, not {seconds}")));
            }
        };
        let mut boards: Vec<Board> =
            board::builtin_names().into_iter().filter_map(|name| board::builtin(&name).ok()).collect();
        if let Some(spec) = &self.board {
            let extra = pegchain::solitaire::load_board(spec)?;
            // The page and the API find a board by its name in any case (`English`), so a file
            // may share a built-in's name, however written, only by being that board (as the
            // files in data/boards/ are): another board would hide the built-in one.
            let builtin = board::builtin_name(extra.name());
            if let Some(i) = builtin.and_then(|name| boards.iter().position(|b| b.name() == name)) {
                if (boards[i].holes(), boards[i].jumps()) != (extra.holes(), extra.jumps()) {
                    return Err(Error::BoardFile {
                        file: spec.clone(),
                        why: format!(
                            "the board is named {} but is not the built-in board of that name, which serve offers too; \
                             give it another name",
                            quoted(extra.name())
                        ),
                    });
                }
                boards.remove(i);
            }
            boards.insert(0, extra);
        }
        Ok(ServeChoices { boards, idle_timeout })
    }
}
