//! Command-line flags, and their conversion into the library's validated configs.

use clap::{Args, Parser, Subcommand};
use pegchain::audit::AuditConfig;
use pegchain::crosscheck::{SimConfig, StartPlan};
use pegchain::solitaire::{EngineConfig, Starts};
use pegchain::{Board, Error, Policy};

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
    /// List the built-in boards
    Boards,
    /// Draw a board with its hole names
    Show(BoardArgs),
    /// Exact probabilities under random play: one peg left, pegs left, finish holes
    Exact(EngineArgs),
    /// Count complete games, winning games by finish hole, and reachable positions
    Count(EngineArgs),
    /// Play seeded random games and set the estimates beside the exact values
    Simulate(SimulateArgs),
    /// The main job: audit the textbook's p = 0.0070 against the exact answer
    Audit(AuditArgs),
}

#[derive(Args, Debug)]
pub struct BoardArgs {
    /// Board: triangle4..triangle10, english, european
    #[arg(long, default_value = "triangle5")]
    pub board: String,
}

#[derive(Args, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Start hole(s), the empty hole at the start: a name (A), a number (1), rank/file on
    /// triangles (a1 = tip), a comma-separated list, or `all`
    #[arg(long, default_value = "all")]
    pub start: String,
    /// How the random player picks a jump: uniform, peg-first, hole-first
    #[arg(long, default_value = "uniform")]
    pub policy: String,
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
        return Err(Error::Invalid(format!("--threads takes 0 (one per core) to {MAX_THREADS}, not {threads}")));
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

impl EngineArgs {
    pub fn validate(&self) -> Result<EngineRequest, Error> {
        let board = pegchain::load_board(&self.board.board)?;
        let starts = parse_starts(&board, &self.start)?;
        let policy: Policy = self.policy.parse().map_err(Error::Invalid)?;
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
