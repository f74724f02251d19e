//! Command-line flags, and their conversion into the library's validated configs.

use clap::{Args, Parser, Subcommand};
use pegchain::audit::AuditConfig;
use pegchain::board::file::{Format, Puzzle};
use pegchain::crosscheck::{SimConfig, StartPlan};
use pegchain::race::{Rules, Setup};
use pegchain::solitaire::{EngineConfig, Starts};
use pegchain::solve::{Finish, Method, Problem};
use pegchain::{Board, Error, Policy};
use std::ops::RangeInclusive;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "pegchain",
    version,
    about = "Games of chance and random play as absorbing Markov chains, solved exactly and checked by simulation",
    long_about = None,
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the built-in boards, or write one as board files (--export)
    Boards(BoardsArgs),
    /// Draw a board with its hole names
    Show(BoardArgs),
    /// Exact probabilities under random play: one peg left, pegs left, finish holes
    Exact(ExactArgs),
    /// Count complete games, winning games by finish hole, and reachable positions
    Count(CountArgs),
    /// Play seeded random games and set the estimates beside the exact values
    Simulate(SimulateArgs),
    /// The main job: audit the textbook's p = 0.0070 against the exact answer
    Audit(AuditArgs),
    /// The swine and the butcher (seed 004): a dice race solved exactly, who wins and when
    Race(RaceArgs),
    /// Find solutions: jump sequences from a start to a finish (one, N, every one)
    Solve(SolveArgs),
    /// Winning games by start hole and finish hole, and the possible finish holes
    Ends(CountArgs),
}

#[derive(Args, Debug)]
pub struct BoardArgs {
    /// Board: triangle4..triangle10, english, european, or a board file (.json or picture)
    #[arg(long, default_value = "triangle5")]
    pub board: String,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Start hole(s), the empty hole at the start: a name (A), a number (1), rank/file on
    /// triangles (a1 = tip), a comma-separated list, or `all`
    #[arg(long, default_value = "all")]
    pub start: String,
    /// Print one JSON document instead of tables
    #[arg(long)]
    pub json: bool,
    /// No progress lines on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Memory budget of the exact engine in GB (default: 80% of the available memory)
    #[arg(long, value_name = "GB", allow_negative_numbers = true)]
    pub max_memory: Option<f64>,
    /// Follow every position instead of one per symmetry class (slower; for checking)
    #[arg(long)]
    pub no_symmetry: bool,
}

/// `exact` also asks how the random player moves; counts do not depend on it.
#[derive(Args, Debug)]
pub struct ExactArgs {
    #[command(flatten)]
    pub engine: CountArgs,
    /// How the random player picks a jump: uniform, peg-first, hole-first
    #[arg(long, default_value = "uniform")]
    pub policy: String,
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Number of games (with --start all: per start hole)
    #[arg(long, default_value = "1000000", allow_negative_numbers = true)]
    pub games: String,
    /// Seed of the random streams: the same seed gives the same output for any --threads
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Empty hole at the start: `random` (drawn for every game), `all` (each hole in
    /// turn), or a hole
    #[arg(long, default_value = "random")]
    pub start: String,
    /// Play this many games in each symmetry class instead
    #[arg(long, value_name = "N", conflicts_with_all = ["start", "games"], allow_negative_numbers = true)]
    pub per_class: Option<String>,
    /// How the random player picks a jump: uniform, peg-first, hole-first
    #[arg(long, default_value = "uniform")]
    pub policy: String,
    /// Worker threads (0 = one per core); the output does not depend on it
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Compare with the exact engine even on a board over 21 holes (it may take long)
    #[arg(long, conflicts_with = "no_exact")]
    pub exact: bool,
    /// Do not compute exact values
    #[arg(long)]
    pub no_exact: bool,
    /// Print one JSON document instead of tables
    #[arg(long)]
    pub json: bool,
    /// No progress bar or timing line on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Games in the re-run of the book's experiment
    #[arg(long, default_value = "4000000", allow_negative_numbers = true)]
    pub games: String,
    /// Seed of the simulation
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Worker threads (0 = one per core); the output does not depend on it
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print the report as one JSON document
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the report as Markdown
    #[arg(long)]
    pub markdown: bool,
    /// Also write SVG plots into this directory
    #[arg(long, value_name = "DIR")]
    pub svg: Option<std::path::PathBuf>,
    /// No progress bar on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

impl AuditArgs {
    pub fn validate(&self) -> Result<AuditConfig, Error> {
        Ok(AuditConfig {
            games: parse_games("--games", &self.games)?,
            seed: self.seed,
            threads: self.threads,
        })
    }
}

/// The seed of every simulation unless --seed says otherwise.
pub const DEFAULT_SEED: u64 = 2015;

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
        let board = pegchain::load_board(&self.board.board)?;
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
        let board = pegchain::load_board(&self.board.board)?;
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

#[derive(Args, Debug)]
pub struct RaceArgs {
    /// Squares on the board; the river is on the last [default: 12, or the rules file's]
    #[arg(long)]
    pub length: Option<u32>,
    /// The swine's start square [default: 7, or the rules file's]
    #[arg(long)]
    pub swine: Option<u32>,
    /// The butcher's start square, behind the swine [default: 1, or the rules file's]
    #[arg(long)]
    pub butcher: Option<u32>,
    /// A JSON rules file: the die, and whom each face moves how far [default: the built-in
    /// data/race/swine-butcher.json]
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// The swine's chance for every pair of start squares on the board
    #[arg(long, conflicts_with_all = ["swine", "butcher", "lengths", "simulate"])]
    pub grid: bool,
    /// Write the grid as an SVG heat map to FILE
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Sweep the board length from A to B (both included) for fixed start squares
    #[arg(long, value_name = "A..B", conflicts_with_all = ["length", "simulate"])]
    pub lengths: Option<String>,
    /// Cross-check with N simulated games
    #[arg(long, value_name = "N")]
    pub simulate: Option<u64>,
    /// Seed of the simulation
    #[arg(long, default_value_t = 4)]
    pub seed: u64,
    /// Threads for the simulation, 0 = all cores (the result does not depend on it)
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// CSV instead of tables: the turn distribution, the grid, or the sweep
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Print one JSON document instead of tables
    #[arg(long)]
    pub json: bool,
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

#[derive(Args, Debug)]
pub struct BoardsArgs {
    /// Write this board (a built-in name or a board file) as board files
    #[arg(long, value_name = "BOARD")]
    pub export: Option<String>,
    /// File format: seed002 (JSON + adjacency CSV + layout CSV) or picture (text)
    #[arg(long, default_value = "seed002", requires = "export")]
    pub format: String,
    /// Directory to write the files into
    #[arg(long, value_name = "DIR", default_value = ".", requires = "export")]
    pub out: PathBuf,
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
            board: pegchain::load_board(spec)?,
            format: self.format.parse()?,
            dir: self.out.clone(),
        }))
    }
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The hole empty at the start, every other one holding a peg (default: a board file's
    /// own start)
    #[arg(long, value_name = "HOLE", conflicts_with = "start_pegs")]
    pub start: Option<String>,
    /// The start as a full position: the holes holding pegs, comma-separated
    #[arg(long, value_name = "HOLES")]
    pub start_pegs: Option<String>,
    /// The finish: the last peg's hole, or the comma-separated holes holding pegs at the end
    /// (default: one peg left, in any hole)
    #[arg(long, value_name = "HOLES", conflicts_with = "finish_count")]
    pub finish: Option<String>,
    /// Finish with K pegs left and no jump possible
    #[arg(long, value_name = "K")]
    pub finish_count: Option<u32>,
    /// Find up to N solutions (default 1; with --distinct, every distinct one)
    #[arg(long, value_name = "N", conflicts_with = "all")]
    pub limit: Option<u64>,
    /// Find every solution, listed as found and counted at the end
    #[arg(long)]
    pub all: bool,
    /// Search method: dfs (depth-first with a table of failed positions; default) or bfs
    /// (sweeps every reachable position first; small boards)
    #[arg(long)]
    pub method: Option<String>,
    /// Draw the board after every jump
    #[arg(long, conflicts_with = "json")]
    pub show: bool,
    /// Keep only solutions that differ in more than the order of their jumps and a symmetry
    /// of the board keeping the start and the finish; count them all
    #[arg(long)]
    pub distinct: bool,
    /// Print one JSON document (streamed) instead of text
    #[arg(long)]
    pub json: bool,
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
        let (board, puzzle) = pegchain::load_board_and_puzzle(&self.board.board)?;
        // A board file's puzzle applies as a whole when no start is given.
        let puzzle = puzzle.filter(|_| self.start.is_none() && self.start_pegs.is_none()).unwrap_or_default();
        let start = match (&self.start, &self.start_pegs, puzzle.start) {
            (Some(hole), _, _) => board.full() & !(1u64 << board.find_hole(hole)?),
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
fn holes(board: &Board, list: &str) -> Result<u64, Error> {
    let mut pegs = 0u64;
    for part in list.split(',').filter(|p| !p.trim().is_empty()) {
        pegs |= 1 << board.find_hole(part)?;
    }
    if pegs == 0 {
        return Err(Error::Invalid(format!("no holes in {list:?}")));
    }
    Ok(pegs)
}
