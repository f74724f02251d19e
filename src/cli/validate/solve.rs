//! `solve`: a start, a finish, how many solutions and how to search.

use super::{Output, hole_list, holes_named, not_whole, refuse_format};
use crate::cli::args::*;
use crate::cli::checkpoint::Run;
use pegchain::render::Format;
use pegchain::solitaire::Pegs;
use pegchain::solitaire::files::Puzzle;
use pegchain::solitaire::position::{parse_position, play};
use pegchain::solitaire::saved::{MAX_KEPT_SOLUTIONS, SavedSearch};
use pegchain::solitaire::solve::{Finish, Method, Problem, check_finish_count};
use pegchain::{Board, Error};
use std::path::PathBuf;

/// A validated solve request.
pub struct SolveRequest {
    pub board: Board,
    pub problem: Problem,
    pub method: Method,
    /// Stop after this many solutions (distinct ones with `distinct`); `None`: every one.
    pub limit: Option<u64>,
    pub distinct: bool,
    pub show: bool,
    pub output: Output,
    /// Where to save the search as it goes, and the run it belongs to.
    pub checkpoint: Option<PathBuf>,
    pub run: Run,
    /// The saved search to go on from (read and checked against this run).
    pub resume: Option<SavedSearch>,
}

impl SolveArgs {
    pub fn validate(&self) -> Result<SolveRequest, Error> {
        if self.limit == Some(0) {
            return Err(Error::Invalid("--limit must be at least 1".into()));
        }
        let output = self.output()?;
        let (board, puzzle) = pegchain::solitaire::load_board_and_puzzle(&self.board.board)?;
        let from_file = puzzle.is_some();
        // A board file's puzzle applies as a whole when no start is given.
        let puzzle = puzzle.filter(|_| self.start.is_none() && self.position.is_none()).unwrap_or_default();
        let start = self.start(&board, &puzzle, from_file)?;
        let finish = match (&self.finish, self.finish_count) {
            (Some(list), _) => Finish::Pegs(holes(&board, list)?),
            (None, Some(k)) => Finish::Count(
                check_finish_count(k.into(), board.hole_count())
                    .map_err(|why| Error::Invalid(format!("--finish-count {why}")))?,
            ),
            (None, None) => file_finish(&puzzle).unwrap_or(Finish::Count(1)),
        };
        let problem = Problem::new(&board, start, finish)?;
        let method = match (&self.method, puzzle.method) {
            (Some(m), _) => m.parse().map_err(Error::Invalid)?,
            (None, m) => m.unwrap_or_default(),
        };
        let limit = match (self.limit, self.all || puzzle.all, self.distinct) {
            (Some(n), _, _) => Some(n),
            (None, true, _) | (None, false, true) => None,
            (None, false, false) => Some(1),
        };
        // What fixes the solutions shown: the format and --show do not.
        let fixed = vec![
            ("start", format!("pegs in {}", holes_named(&board, problem.start.holes()))),
            (
                "finish",
                match problem.finish {
                    Finish::Pegs(pegs) => format!("pegs in {}", holes_named(&board, pegs.holes())),
                    Finish::Count(n) => {
                        format!("{} left", pegchain::render::number::plural(u64::from(n), "peg", "pegs"))
                    }
                },
            ),
            ("method", method.to_string()),
            ("limit", limit.map_or("none".to_string(), |n| n.to_string())),
            ("search", if self.distinct { "for distinct solutions" } else { "for every solution" }.into()),
        ];
        let run = Run::new("solve", &board, fixed);
        let (checkpoint, saved) = self.saving.validate(&run)?;
        // A saved search keeps every solution it shows, to show them again when resumed.
        if checkpoint.is_some() && limit.is_none_or(|n| n > MAX_KEPT_SOLUTIONS) {
            let asked = limit.map_or("every solution".to_string(), |n| format!("--limit {n}"));
            return Err(Error::Invalid(format!(
                "--checkpoint keeps every solution it shows, to show them again when the search is \
                 resumed, so it takes --limit N of at most {}, not {asked}; without --checkpoint \
                 the solutions stream and any number fit",
                pegchain::render::number::grouped(MAX_KEPT_SOLUTIONS)
            )));
        }
        let resume = saved
            .map(|bytes| SavedSearch::decode(&bytes, board.jumps().len()))
            .transpose()
            .map_err(|_| not_whole(&self.saving))?;
        Ok(SolveRequest {
            board,
            problem,
            method,
            limit,
            distinct: self.distinct,
            show: self.show,
            output,
            checkpoint,
            run,
            resume,
        })
    }

    /// The output format; drawings (`--show`) fit only text and Markdown.
    fn output(&self) -> Result<Output, Error> {
        let output = self.output.validate_without_fractions("solve")?;
        if !self.show {
            return Ok(output);
        }
        refuse_format(
            output,
            &[Format::Json, Format::Csv],
            "--show draws boards, which only text and --markdown hold",
        )
    }

    /// The start position: the flags', else the board file's (`from_file`: the board is read
    /// from a file, which may give one; a built-in board gives none).
    fn start(&self, board: &Board, puzzle: &Puzzle, from_file: bool) -> Result<Pegs, Error> {
        match (&self.start, &self.position, puzzle.start) {
            (Some(hole), _, _) => {
                play(board, super::one_start_hole(board, hole)?, self.moves.as_deref().unwrap_or(""))
            }
            (None, Some(text), _) => parse_position(board, text),
            (None, None, Some(pegs)) => Ok(pegs),
            (None, None, None) => {
                let none = match from_file {
                    true => format!("board {}'s file gives none", board.name()),
                    false => format!("board {} is built in and gives none", board.name()),
                };
                Err(Error::Invalid(format!(
                    "solve needs a start: --start HOLE (the empty hole) or --position HOLES; {none}"
                )))
            }
        }
    }
}

fn file_finish(puzzle: &Puzzle) -> Option<Finish> {
    puzzle.finish.map(Finish::Pegs).or(puzzle.finish_count.map(Finish::Count))
}

/// A comma-separated list of holes as a bitboard.
fn holes(board: &Board, list: &str) -> Result<Pegs, Error> {
    let holes = hole_list(board, "--finish", list)?;
    Ok(holes.into_iter().fold(Pegs::EMPTY, Pegs::with))
}
