//! Flags into validated requests: every check a user's input needs happens here, before any
//! computing starts, and every refusal names the flag in the user's words.

use super::args::*;
use pegchain::race::{Rules, Setup};
use pegchain::solitaire::Pegs;
use pegchain::solitaire::audit::AuditConfig;
use pegchain::solitaire::estimates::{SimConfig, StartPlan};
use pegchain::solitaire::exact::{EngineConfig, Starts};
use pegchain::solitaire::files::{Format, Puzzle};
use pegchain::solitaire::solve::{Finish, Method, Problem};
use pegchain::{Board, Error, Policy};
use std::ops::RangeInclusive;
use std::path::PathBuf;

impl AuditArgs {
    pub fn validate(&self) -> Result<AuditConfig, Error> {
        Ok(AuditConfig {
            games: parse_games("--games", &self.games)?,
            seed: self.seed,
            threads: self.threads,
        })
    }
}

/// Boards up to this size get exact values beside a simulation by default.
const EXACT_BY_DEFAULT_HOLES: usize = 21;

pub struct SimulateRequest {
    pub board: Board,
    pub config: SimConfig,
    pub json: bool,
    pub quiet: bool,
}

/// The most worker threads a run may ask for: more would only cost memory.
pub const MAX_THREADS: usize = 1024;

/// A thread count: 0 (one per core) up to MAX_THREADS.
pub fn check_threads(threads: usize) -> Result<usize, Error> {
    if threads > MAX_THREADS {
        return Err(Error::Invalid(format!(
            "--threads takes 0 (one per core) to {MAX_THREADS}, not {threads}"
        )));
    }
    Ok(threads)
}

/// A count of games: a whole number of at least one.
pub fn parse_games(flag: &str, text: &str) -> Result<u64, Error> {
    let bad = || Error::Invalid(format!("{flag} takes a whole number of games of at least 1, not {text:?}"));
    let n: u64 = text.replace(['_', ','], "").parse().map_err(|_| bad())?;
    if n == 0 { Err(bad()) } else { Ok(n) }
}

impl SimulateArgs {
    pub fn validate(&self) -> Result<SimulateRequest, Error> {
        let board = pegchain::solitaire::load_board(&self.board.board)?;
        let policy: Policy = self.policy.parse().map_err(Error::Invalid)?;
        let games = parse_games("--games", &self.games)?;
        let starts = match &self.per_class {
            Some(n) => StartPlan::PerClass(parse_games("--per-class", n)?),
            None if self.start.eq_ignore_ascii_case("random") => StartPlan::Random,
            None => match parse_starts(&board, &self.start)? {
                Starts::All => StartPlan::Each((0..board.hole_count() as u8).collect()),
                Starts::Holes(h) => StartPlan::Each(h),
            },
        };
        let exact = self.exact || (!self.no_exact && board.hole_count() <= EXACT_BY_DEFAULT_HOLES);
        let threads = check_threads(self.threads)?;
        let config = SimConfig { games, seed: self.seed, threads, policy, starts, exact };
        Ok(SimulateRequest { board, config, json: self.json, quiet: self.quiet })
    }
}

/// A validated engine request.
pub struct EngineRequest {
    pub board: Board,
    pub starts: Starts,
    pub config: EngineConfig,
    pub json: bool,
    pub quiet: bool,
}

impl ExactArgs {
    pub fn validate(&self) -> Result<EngineRequest, Error> {
        let policy: Policy = self.policy.parse().map_err(Error::Invalid)?;
        self.engine.validate_with(policy)
    }
}

impl CountArgs {
    pub fn validate(&self) -> Result<EngineRequest, Error> {
        self.validate_with(Policy::Uniform)
    }

    fn validate_with(&self, policy: Policy) -> Result<EngineRequest, Error> {
        let board = pegchain::solitaire::load_board(&self.board.board)?;
        let starts = parse_starts(&board, &self.start)?;
        let memory_budget = match self.max_memory {
            Some(gb) if !(gb > 0.0 && gb.is_finite()) => {
                return Err(Error::Invalid(format!(
                    "--max-memory must be a positive number of GB, not {gb}"
                )));
            }
            Some(gb) => Some((gb * 1e9) as u64),
            None => available_memory().map(|b| b / 5 * 4),
        };
        Ok(EngineRequest {
            board,
            starts,
            config: EngineConfig { policy, reduce: !self.no_symmetry, memory_budget },
            json: self.json,
            quiet: self.quiet,
        })
    }
}

pub fn parse_starts(board: &Board, text: &str) -> Result<Starts, Error> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(Starts::All);
    }
    let mut holes = Vec::new();
    for part in text.split(',') {
        let h = board.find_hole(part)?;
        if !holes.contains(&h) {
            holes.push(h);
        }
    }
    Ok(Starts::Holes(holes))
}

/// MemAvailable from /proc/meminfo, in bytes.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// What `race` is asked to compute.
pub enum RaceJob {
    Game { setup: Setup, simulate: Option<(u64, u64, usize)> },
    Grid { length: u32, svg: Option<PathBuf> },
    Sweep { swine: u32, butcher: u32, lengths: RangeInclusive<u32> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceFormat {
    Text,
    Json,
    Csv,
}

/// A validated race request.
pub struct RaceRequest {
    pub rules: Rules,
    pub job: RaceJob,
    pub format: RaceFormat,
}

impl RaceArgs {
    pub fn validate(&self) -> Result<RaceRequest, Error> {
        if self.svg.is_some() && !self.grid {
            return Err(Error::Invalid("--svg draws the grid's heat map: use it with --grid".into()));
        }
        check_threads(self.threads)?;
        let rules = match &self.rules {
            Some(path) => Rules::load(path)?,
            None => Rules::default_game(),
        };
        let board = rules.board.unwrap_or(Setup { length: 12, swine: 7, butcher: 1 });
        let length = self.length.unwrap_or(board.length);
        let swine = self.swine.unwrap_or(board.swine);
        let butcher = self.butcher.unwrap_or(board.butcher);
        let job = if self.grid {
            RaceJob::Grid { length, svg: self.svg.clone() }
        } else if let Some(text) = &self.lengths {
            let lengths = parse_lengths(text)?;
            // Checks the start squares against the shortest board.
            Setup::new(*lengths.start(), swine, butcher)?;
            RaceJob::Sweep { swine, butcher, lengths }
        } else {
            let simulate = match self.simulate {
                Some(0) => return Err(Error::Invalid("--simulate needs at least one game".into())),
                Some(n) => Some((n, self.seed, self.threads)),
                None => None,
            };
            RaceJob::Game { setup: Setup::new(length, swine, butcher)?, simulate }
        };
        let format = if self.json {
            RaceFormat::Json
        } else if self.csv {
            RaceFormat::Csv
        } else {
            RaceFormat::Text
        };
        Ok(RaceRequest { rules, job, format })
    }
}

/// "A..B" (or "A..=B"): board lengths from A to B, both included.
fn parse_lengths(text: &str) -> Result<RangeInclusive<u32>, Error> {
    let bad =
        || Error::Invalid(format!("--lengths {text:?}: expected A..B, two board lengths such as 8..20"));
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let (a, b): (u32, u32) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if a > b {
        return Err(Error::Invalid(format!("--lengths {text}: the first length must not exceed the second")));
    }
    Ok(a..=b)
}

/// A validated export request.
pub struct ExportRequest {
    pub board: Board,
    pub format: Format,
    pub dir: PathBuf,
}

impl BoardsArgs {
    /// `None`: list the built-in boards.
    pub fn validate(&self) -> Result<Option<ExportRequest>, Error> {
        let Some(spec) = &self.export else { return Ok(None) };
        Ok(Some(ExportRequest {
            board: pegchain::solitaire::load_board(spec)?,
            format: self.format.parse()?,
            dir: self.out.clone(),
        }))
    }
}

/// A validated solve request.
pub struct SolveRequest {
    pub board: Board,
    pub problem: Problem,
    pub method: Method,
    /// Stop after this many solutions (distinct ones with `distinct`); `None`: every one.
    pub limit: Option<u64>,
    pub distinct: bool,
    pub show: bool,
    pub json: bool,
}

impl SolveArgs {
    pub fn validate(&self) -> Result<SolveRequest, Error> {
        let (board, puzzle) = pegchain::solitaire::load_board_and_puzzle(&self.board.board)?;
        // A board file's puzzle applies as a whole when no start is given.
        let puzzle = puzzle.filter(|_| self.start.is_none() && self.start_pegs.is_none()).unwrap_or_default();
        let start = match (&self.start, &self.start_pegs, puzzle.start) {
            (Some(hole), _, _) => board.full().without(board.find_hole(hole)?),
            (None, Some(list), _) => holes(&board, list)?,
            (None, None, Some(pegs)) => pegs,
            (None, None, None) => {
                return Err(Error::Invalid(format!(
                    "solve needs a start: --start HOLE (the empty hole) or --start-pegs HOLES; \
                     board {}'s file gives none",
                    board.name()
                )));
            }
        };
        let finish = match (&self.finish, self.finish_count) {
            (Some(list), _) => Finish::Pegs(holes(&board, list)?),
            (None, Some(k)) => Finish::Count(k),
            (None, None) => file_finish(&puzzle).unwrap_or(Finish::Count(1)),
        };
        let problem = Problem::new(&board, start, finish)?;
        let method = match (&self.method, puzzle.method) {
            (Some(m), _) => m.parse().map_err(Error::Invalid)?,
            (None, m) => m.unwrap_or_default(),
        };
        if self.limit == Some(0) {
            return Err(Error::Invalid("--limit must be at least 1".into()));
        }
        let limit = match (self.limit, self.all || puzzle.all, self.distinct) {
            (Some(n), _, _) => Some(n),
            (None, true, _) | (None, false, true) => None,
            (None, false, false) => Some(1),
        };
        Ok(SolveRequest {
            board,
            problem,
            method,
            limit,
            distinct: self.distinct,
            show: self.show,
            json: self.json,
        })
    }
}

fn file_finish(puzzle: &Puzzle) -> Option<Finish> {
    puzzle.finish.map(Finish::Pegs).or(puzzle.finish_count.map(Finish::Count))
}

/// A comma-separated list of holes as a bitboard.
fn holes(board: &Board, list: &str) -> Result<Pegs, Error> {
    let mut pegs = 0u64;
    for part in list.split(',').filter(|p| !p.trim().is_empty()) {
        pegs |= 1 << board.find_hole(part)?;
    }
    if pegs == 0 {
        return Err(Error::Invalid(format!("no holes in {list:?}")));
    }
    Ok(Pegs(pegs))
}
