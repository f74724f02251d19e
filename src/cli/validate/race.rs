//! The dice race's flags into a request: one game, the grid of starts, or a sweep of lengths.

use super::{Output, check_file_target, check_threads, first_given};
use crate::cli::args::*;
use pegchain::Error;
use pegchain::engine::error::shortened;
use pegchain::race::{self, Rules, Setup};
use pegchain::render::number::quoted;
use std::num::IntErrorKind;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// `--svg FILE` of the race grid: not a directory, and in a directory that exists.
fn check_svg_file(file: &Path) -> Result<(), Error> {
    check_file_target("--svg", file)
}

/// The simulation's seed unless `--seed` is given: the seed's number, 004.
const DEFAULT_SEED: u64 = 4;

/// What `race` is asked to compute.
pub enum RaceJob {
    Game {
        setup: Setup,
        simulate: Option<(u64, u64, usize)>,
    },
    /// `mark`: the start the rules propose, outlined on the heat map.
    Grid {
        length: u32,
        svg: Option<PathBuf>,
        mark: (u32, u32),
    },
    Sweep {
        swine: u32,
        butcher: u32,
        lengths: RangeInclusive<u32>,
    },
}

/// A validated race request.
pub struct RaceRequest {
    pub rules: Rules,
    pub job: RaceJob,
    pub output: Output,
    pub quiet: bool,
}

impl RaceArgs {
    /// Every bound is checked here, before any computing: each board length of a sweep, the
    /// start squares against its shortest board, the heat map's file.
    pub fn validate(&self) -> Result<RaceRequest, Error> {
        if self.svg.is_some() && !self.grid {
            return Err(Error::Invalid("--svg draws the grid's heat map: use it with --grid".into()));
        }
        let simulation_flags = [("--seed", self.seed.is_some()), ("--threads", self.threads.is_some())];
        if let (None, Some(flag)) = (self.simulate, first_given(&simulation_flags)) {
            return Err(Error::Invalid(format!(
                "{flag} is a setting of the simulation: use it with --simulate N"
            )));
        }
        let threads = check_threads(self.threads.unwrap_or(0))?;
        let rules = match &self.rules {
            Some(path) => Rules::load(path)?,
            None => Rules::default_game(),
        };
        let board = rules.board.unwrap_or(Setup { length: 12, swine: 7, butcher: 1 });
        let length = self.length.unwrap_or(board.length);
        let swine = self.swine.unwrap_or(board.swine);
        let butcher = self.butcher.unwrap_or(board.butcher);
        let job = if self.grid {
            race::check_grid_length(length)?;
            if let Some(file) = &self.svg {
                check_svg_file(file)?;
            }
            RaceJob::Grid { length, svg: self.svg.clone(), mark: (board.swine, board.butcher) }
        } else if let Some(text) = &self.lengths {
            let lengths = parse_lengths(text)?;
            race::check_length(*lengths.end())?;
            // Checks the start squares against the shortest board.
            Setup::new(*lengths.start(), swine, butcher)?;
            RaceJob::Sweep { swine, butcher, lengths }
        } else {
            let simulate = match self.simulate {
                Some(0) => return Err(Error::Invalid("--simulate needs at least one game".into())),
                Some(n) => Some((n, self.seed.unwrap_or(DEFAULT_SEED), threads)),
                None => None,
            };
            race::check_length(length)?;
            RaceJob::Game { setup: Setup::new(length, swine, butcher)?, simulate }
        };
        Ok(RaceRequest { rules, job, output: self.output.validate(), quiet: self.quiet })
    }
}

/// "A..B" (or "A..=B"): board lengths from A to B, both included.
fn parse_lengths(text: &str) -> Result<RangeInclusive<u32>, Error> {
    let bad = || {
        Error::Invalid(format!("--lengths {}: expected A..B, two board lengths such as 8..20", quoted(text)))
    };
    let length = |part: &str| {
        let part = part.trim();
        part.parse::<u32>().map_err(|e| match e.kind() {
            // Digits past a u32: a length too large, not a malformed range.
            IntErrorKind::PosOverflow => race::too_long(shortened(part)),
            _ => bad(),
        })
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let (a, b) = (length(a)?, length(b)?);
    if a > b {
        return Err(Error::Invalid(format!("--lengths {text}: the first length must not exceed the second")));
    }
    Ok(a..=b)
}
