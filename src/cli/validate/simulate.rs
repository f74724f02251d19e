//! The simulation commands' flags into requests: `simulate` and `audit`.

use super::{
    Output, check_out_dir, check_threads, given_position, holes_named, not_whole, parse_games, parse_starts,
};
use crate::cli::args::*;
use crate::cli::checkpoint::Run;
use crate::cli::interrupt;
use pegchain::solitaire::Pegs;
use pegchain::solitaire::audit::AuditConfig;
use pegchain::solitaire::estimates::{SimConfig, StartPlan};
use pegchain::solitaire::exact::Starts;
use pegchain::solitaire::simulate::RunTally;
use pegchain::{Board, Error, Policy};
use std::path::PathBuf;

/// A validated audit request.
pub struct AuditRequest {
    pub config: AuditConfig,
    /// The directory for the plots.
    pub svg: Option<PathBuf>,
    pub output: Output,
    pub quiet: bool,
}

impl AuditArgs {
    pub fn validate(&self) -> Result<AuditRequest, Error> {
        let config = AuditConfig {
            games: parse_games("--games", &self.games)?,
            seed: self.seed,
            threads: check_threads(self.threads)?,
            cancel: interrupt::token(),
        };
        if let Some(dir) = &self.svg {
            check_out_dir("--svg", dir, "the audit writes three plots into a directory")?;
            // Each plot's file too, before the games are played (a directory in the way of
            // one was found only after them).
            if dir.is_dir() {
                for name in pegchain::render::plots::AUDIT_PLOTS {
                    super::check_file_target("--svg", &dir.join(name))?;
                }
            }
        }
        Ok(AuditRequest { config, svg: self.svg.clone(), output: self.output.validate(), quiet: self.quiet })
    }
}

/// Boards up to this size get exact values beside a simulation by default.
const EXACT_BY_DEFAULT_HOLES: usize = 21;

pub struct SimulateRequest {
    pub board: Board,
    /// A position to play from instead of start holes (`--position`, or `--start H --moves`).
    pub position: Option<Pegs>,
    pub config: SimConfig,
    /// Where to save the tallies after every wave of games, and the run they belong to.
    pub checkpoint: Option<PathBuf>,
    pub run: Run,
    /// The tallies to go on from (read and checked against this run).
    pub resume: Vec<RunTally>,
    pub output: Output,
    pub quiet: bool,
}

/// A plan whose games in all cannot be counted (more than u64::MAX) is refused: its tallies
/// could not be added up.
fn check_total_games(board: &Board, config: &SimConfig) -> Result<(), Error> {
    if config.checked_total_games(board).is_some() {
        return Ok(());
    }
    let (flag, count, runs) = match &config.starts {
        StartPlan::PerClass(n) => ("--per-class", *n, "symmetry classes"),
        _ => ("--games", config.games, "start holes"),
    };
    Err(Error::Invalid(format!(
        "{flag} {count} over these {runs} makes more than {} games in all, more than can be counted",
        u64::MAX
    )))
}

/// What fixes a simulation's answer, for its checkpoints: `--threads` does not.
fn simulate_run(board: &Board, c: &SimConfig) -> Run {
    use pegchain::solitaire::estimates::StartPlan;
    let plan = match &c.starts {
        StartPlan::Random => "a random hole a game".to_string(),
        StartPlan::Each(holes) => {
            format!("the games from each of {}", holes_named(board, holes.iter().copied()))
        }
        StartPlan::PerClass(n) => format!("{n} games a symmetry class"),
    };
    Run::new(
        "simulate",
        board,
        vec![
            ("number of games", c.games.to_string()),
            ("start plan", plan),
            ("policy", c.policy.to_string()),
            ("seed", c.seed.to_string()),
            ("comparison with exact values", if c.exact { "made" } else { "not made" }.into()),
        ],
    )
}

impl SimulateArgs {
    pub fn validate(&self) -> Result<SimulateRequest, Error> {
        let output = self.output.validate_without_fractions_in_text(
            "simulate shows its exact values as decimals beside the estimates (--json and --csv give their fractions)",
        )?;
        let board = pegchain::solitaire::load_board(&self.board.board)?;
        let policy: Policy = self.policy.parse().map_err(Error::Invalid)?;
        let games = parse_games("--games", &self.games)?;
        let random = self.start.eq_ignore_ascii_case("random");
        let starts = match &self.per_class {
            Some(n) => StartPlan::PerClass(parse_games("--per-class", n)?),
            None if random => StartPlan::Random,
            None => match parse_starts(&board, &self.start)? {
                Starts::All => StartPlan::Each((0..board.hole_count() as u8).collect()),
                Starts::Holes(h) => StartPlan::Each(h),
            },
        };
        let start_holes = match &starts {
            StartPlan::Each(holes) => Some(Starts::Holes(holes.clone())),
            _ => None,
        };
        let position = given_position(&board, start_holes.as_ref(), &self.moves, &self.position)?;
        if position.is_some() {
            self.saving.refuse_for_position()?;
        }
        let exact = self.exact || (!self.no_exact && board.hole_count() <= EXACT_BY_DEFAULT_HOLES);
        let threads = check_threads(self.threads)?;
        let config =
            SimConfig { games, seed: self.seed, threads, policy, starts, exact, cancel: interrupt::token() };
        check_total_games(&board, &config)?;
        let run = simulate_run(&board, &config);
        let (checkpoint, saved) = self.saving.validate(&run)?;
        let resume = match saved {
            Some(bytes) => serde_json::from_slice(&bytes).map_err(|_| not_whole(&self.saving))?,
            None => Vec::new(),
        };
        Ok(SimulateRequest { board, position, config, checkpoint, run, resume, output, quiet: self.quiet })
    }
}
