//! Command-line flags, and their conversion into the library's validated configs.

use clap::{Args, Parser, Subcommand};
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
