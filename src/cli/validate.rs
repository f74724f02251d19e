//! Flags into validated requests: every check a user's input needs happens here, before any
//! computing starts, and every refusal names the flag in the user's words.

use super::args::*;
use super::checkpoint::{Part, Run};
use super::interrupt;
use pegchain::budget::Budget;
use pegchain::race::{self, Rules, Setup};
use pegchain::render::{Format, Style};
use pegchain::solitaire::Pegs;
use pegchain::solitaire::audit::AuditConfig;
use pegchain::solitaire::estimates::{SimConfig, StartPlan};
use pegchain::solitaire::exact::{EngineConfig, Reduction, Starts};
use pegchain::solitaire::files::{self, Puzzle};
use pegchain::solitaire::position::{parse_position, play};
use pegchain::solitaire::saved::{Saved, SavedSearch};
use pegchain::solitaire::simulate::RunTally;
use pegchain::solitaire::solve::{Finish, Method, Problem, Solver};
use pegchain::{Board, Error, Policy, SymmetryGroup};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// How the answer is to be written: the format and how text shows exact numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub format: Format,
    pub style: Style,
}

impl OutputArgs {
    /// The flags conflict with each other in clap already, so any combination left is valid.
    pub fn validate(&self) -> Output {
        let format = if self.json {
            Format::Json
        } else if self.csv {
            Format::Csv
        } else if self.markdown {
            Format::Markdown
        } else {
            Format::Text
        };
        Output { format, style: Style { full_fractions: self.full } }
    }
}

/// A validated audit request.
pub struct AuditRequest {
    pub config: AuditConfig,
    /// The directory for the plots.
    pub svg: Option<PathBuf>,
    pub output: Output,
    pub quiet: bool,
}

/// The flag that asks for `format`.
fn flag(format: Format) -> &'static str {
    match format {
        Format::Text => "text",
        Format::Markdown => "--markdown",
        Format::Json => "--json",
        Format::Csv => "--csv",
    }
}

/// Refuses, before anything is computed, an output format the answer cannot take; `why`
/// says what the answer is instead.
fn refuse_format(output: Output, unfit: &[Format], why: &str) -> Result<Output, Error> {
    match unfit.iter().find(|&&f| f == output.format) {
        Some(&f) => Err(Error::Invalid(format!("{} does not fit: {why}", flag(f)))),
        None => Ok(output),
    }
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
        }
        Ok(AuditRequest { config, svg: self.svg.clone(), output: self.output.validate(), quiet: self.quiet })
    }
}

/// A directory `flag` writes `what` into: one, or a name for a new one, not a file.
fn check_out_dir(flag: &str, dir: &Path, what: &str) -> Result<(), Error> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Invalid(format!("{flag} {}: not a directory ({what})", dir.display())));
    }
    Ok(())
}

/// `--svg FILE` of the race grid: not a directory, and in a directory that exists.
fn check_svg_file(file: &Path) -> Result<(), Error> {
    check_file_target("--svg", file)
}

/// A file `flag` will write: not an input read so far, not a directory, and in a directory
/// that exists (checked before computing, so that a long run does not fail at its first
/// write; the writer refuses an input again, whenever it was read).
pub fn check_file_target(flag: &str, file: &Path) -> Result<(), Error> {
    if pegchain::input::is_input(file) {
        return Err(super::output::not_an_input_error(file));
    }
    if file.is_dir() {
        return Err(Error::Invalid(format!("{flag} {}: a directory, not a file name", file.display())));
    }
    let parent = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(Error::Invalid(format!("{flag} {}: no directory {}", file.display(), parent.display())));
    }
    Ok(())
}

/// `--checkpoint FILE` (or a process's part of it): a file target that is a regular file or
/// none yet. A save replaces its file and keeps the one before it by renaming, which would
/// take a device or a FIFO away from the system rather than write into it.
fn check_checkpoint_target(file: &Path) -> Result<(), Error> {
    check_file_target("--checkpoint", file)?;
    match std::fs::metadata(file) {
        Ok(meta) if !meta.is_file() => Err(Error::Invalid(format!(
            "--checkpoint {}: not a regular file ({}); a checkpoint is a file of its own",
            file.display(),
            pegchain::input::kind(&meta)
        ))),
        _ => Ok(()),
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
    let n: u64 = text.replace(['_', ','], "").parse().map_err(|e: std::num::ParseIntError| {
        if *e.kind() == std::num::IntErrorKind::PosOverflow {
            Error::Invalid(format!("{flag} takes at most {} games, not {text:?}", u64::MAX))
        } else {
            bad()
        }
    })?;
    if n == 0 { Err(bad()) } else { Ok(n) }
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

/// Holes by their names, comma-separated: how a checkpoint records starts and pegs, in the
/// words its refusals show.
fn holes_named(board: &Board, holes: impl IntoIterator<Item = u8>) -> String {
    holes.into_iter().map(|h| board.hole_name(h)).collect::<Vec<_>>().join(",")
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
            ("exact values", c.exact.to_string()),
        ],
    )
}

impl CheckpointArgs {
    /// Checkpoints belong to runs from start holes; a run from a position is short and not saved.
    fn refuse_for_position(&self) -> Result<(), Error> {
        if self.checkpoint.is_some() || self.resume.is_some() {
            return Err(Error::Invalid(
                "--checkpoint and --resume save runs from start holes; a run from a position is not saved"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Where to save (checked writable now, before any work) and the state saved for `run`
    /// to go on from (read and checked against it now).
    fn validate(&self, run: &Run) -> Result<(Option<PathBuf>, Option<Vec<u8>>), Error> {
        if let Some(path) = &self.checkpoint {
            check_checkpoint_target(path)?;
        }
        let saved = match &self.resume {
            Some(path) => Some(super::checkpoint::load(path, run)?),
            None => None,
        };
        Ok((self.checkpoint.clone(), saved))
    }

    /// `validate` for a process of a shared run: its part of the save every process holds
    /// (`checkpoint::load_shared`) and that save's number (0: none). Every process checks
    /// its own files, and all refuse alike when one must.
    fn validate_shared<T>(
        &self,
        run: &Run,
        exchange: &dyn pegchain::engine::Exchange,
        read: impl FnOnce(&[u8]) -> Result<T, Error>,
    ) -> Result<(Option<PathBuf>, u64, Option<T>), Error> {
        let part = Part { me: exchange.me(), of: exchange.processes(), resumed: 0 };
        let target =
            self.checkpoint.as_ref().map_or(Ok(()), |path| check_checkpoint_target(&part.file(path)));
        pegchain::solitaire::exact::agree(exchange, target.map(|()| Vec::new()))?;
        let Some(path) = &self.resume else { return Ok((self.checkpoint.clone(), 0, None)) };
        let (number, saved) = super::checkpoint::load_shared(path, run, exchange, read)?;
        Ok((self.checkpoint.clone(), number, Some(saved)))
    }
}

/// The refusal of a checkpoint whose header is right but whose state is not whole.
fn not_whole(args: &CheckpointArgs) -> Error {
    let name = args.resume.as_deref().unwrap_or(Path::new("")).display();
    Error::Invalid(format!("the checkpoint {name} is damaged: its saved state is not whole"))
}

/// The position given by `--position`, or by `--moves` played from the one start hole, if
/// either is given.
fn given_position(
    board: &Board,
    starts: Option<&Starts>,
    moves: &Option<String>,
    position: &Option<String>,
) -> Result<Option<Pegs>, Error> {
    match (starts, moves, position) {
        (_, None, None) => Ok(None),
        (Some(Starts::Holes(holes)), Some(moves), None) if holes.len() == 1 => {
            Ok(Some(play(board, holes[0], moves)?))
        }
        (_, Some(_), None) => Err(Error::Invalid("--moves plays from one start hole: give --start H".into())),
        (_, _, Some(text)) => Ok(Some(parse_position(board, text)?)),
    }
}

impl SimulateArgs {
    pub fn validate(&self) -> Result<SimulateRequest, Error> {
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
        Ok(SimulateRequest {
            board,
            position,
            config,
            checkpoint,
            run,
            resume,
            output: self.output.validate(),
            quiet: self.quiet,
        })
    }
}

/// A validated engine request.
pub struct EngineRequest {
    pub board: Board,
    /// Where to save the evaluation after every finished layer, and the run it belongs to.
    pub checkpoint: Option<PathBuf>,
    pub run: Run,
    /// The saved evaluation to go on from (read and checked against this run).
    pub resume: Option<Saved>,
    /// The memory budget and the limit it came from (`config.memory_budget` is its bytes).
    pub budget: Option<Budget>,
    pub starts: Starts,
    /// A position given instead of a start (`--position`, or `--start H --moves ...`).
    pub position: Option<Pegs>,
    pub config: EngineConfig,
    pub output: Output,
    pub quiet: bool,
    /// The run asks to be held to a memory size (`--max-memory`, `--residues`): freed big
    /// blocks go back to the system (see `limits::return_big_blocks`).
    pub return_freed_memory: bool,
}

impl EngineRequest {
    /// The flags not given that may let a run refused for memory fit: `--whole-group` where
    /// a start is fixed by fewer symmetries than the board has (the stabilizer method then
    /// follows more classes), `--residues 2` for `exact`, `--residues 1` for a run by more
    /// residues a pass (8 bytes a position less for each prime left out), and `--spill DIR`
    /// (a step in rounds then holds one round's parents, and sums its children in parts).
    pub fn other_ways(&self) -> Vec<&'static str> {
        let mut ways = Vec::new();
        if self.position.is_none() && self.config.reduce && self.config.reduction != Reduction::WholeGroup {
            let group = SymmetryGroup::of_board(&self.board);
            let holes: Vec<u8> = match &self.starts {
                Starts::All => (0..self.board.hole_count() as u8).collect(),
                Starts::Holes(holes) => holes.clone(),
            };
            let fewer = |h: u8| group.stabilizer(Pegs::single(h)).order() < group.order();
            if group.order() <= pegchain::solitaire::whole_group::MAX_GROUP_ORDER
                && holes.into_iter().any(fewer)
            {
                ways.push(super::limits::WHOLE_GROUP);
            }
        }
        match self.config.residues {
            None if self.run.command == "exact" => ways.push("--residues 2"),
            Some(primes) if primes > 1 => ways.push("--residues 1"),
            _ => {}
        }
        if self.config.spill.is_none() {
            ways.push("--spill DIR");
        }
        ways
    }
}

/// The most primes a pass of --residues may keep: more would cost as much as the numbers.
const MAX_PRIMES_PER_PASS: u32 = 64;

impl ExactArgs {
    pub fn validate(&self) -> Result<EngineRequest, Error> {
        let policy: Policy = self.policy.parse().map_err(Error::Invalid)?;
        self.refuse_residues_with_others()?;
        let mut request = self.engine.validate_with("exact", policy, self.residues)?;
        request.config.residues = self.residues.map(|k| k as usize);
        request.return_freed_memory |= self.residues.is_some();
        Ok(request)
    }

    /// --residues: a number of primes a pass (checked before anything else, so that a
    /// refusal touches no file). Processes that share the run split its passes between them.
    fn refuse_residues_with_others(&self) -> Result<(), Error> {
        let Some(k) = self.residues else { return Ok(()) };
        if !(1..=MAX_PRIMES_PER_PASS).contains(&k) {
            return Err(Error::Invalid(format!(
                "--residues takes 1 to {MAX_PRIMES_PER_PASS} primes a pass, not {k}"
            )));
        }
        Ok(())
    }
}

impl CountArgs {
    pub fn validate(&self) -> Result<EngineRequest, Error> {
        self.validate_with("count", Policy::Uniform, None)
    }

    /// `command` is `exact` or `count` (which `ends` shares): it names the checkpoints, which
    /// also record `residues` (a run by residues saves its passes, not big numbers).
    fn validate_with(
        &self,
        command: &'static str,
        policy: Policy,
        residues: Option<u32>,
    ) -> Result<EngineRequest, Error> {
        let board = pegchain::solitaire::load_board(&self.board.board)?;
        let starts = parse_starts(&board, &self.start)?;
        let position = given_position(&board, Some(&starts), &self.moves, &self.position)?;
        // The parser lets one method at most be asked for.
        let reduction = match (self.whole_group, self.stabilizer) {
            (true, _) => Reduction::WholeGroup,
            (_, true) => Reduction::Stabilizer,
            _ => Reduction::Faster,
        };
        if position.is_some() {
            let flag = match reduction {
                Reduction::WholeGroup => Some("--whole-group is a method"),
                Reduction::Stabilizer => Some("--stabilizer is a method"),
                Reduction::Faster => self.deal_starts.then_some("--deal-starts deals out"),
            };
            if let Some(flag) = flag {
                return Err(Error::Invalid(format!("{flag} for start holes, not for a position")));
            }
            self.saving.refuse_for_position()?;
        }
        let shared = super::processes::shared();
        if self.deal_starts && shared.is_none() {
            return Err(Error::Invalid(
                "--deal-starts deals the starts out between processes: start the run with mpirun -np N, N of 2 or more"
                    .into(),
            ));
        }
        // The parser took only positive, finite numbers of GB.
        let memory_budget = self.max_memory.map(|gb| (gb * 1e9) as u64);
        let budget = super::limits::read(memory_budget).budget();
        let memory_budget = budget.map(|b| b.bytes);
        if let Some(dir) = &self.spill {
            super::files::check_spill_dir(dir).map_err(|e| {
                Error::Invalid(format!("--spill {}: {}", dir.display(), pegchain::input::plain(&e)))
            })?;
        }
        // What fixes the answer: the memory budget and where it spills do not.
        let symmetry = match (self.no_symmetry, self.whole_group) {
            (true, _) => "false",
            (false, true) => "whole group",
            (false, false) => "true",
        };
        let start = match &starts {
            Starts::All => "all".to_string(),
            Starts::Holes(holes) => holes_named(&board, holes.iter().copied()),
        };
        let mut fixed = vec![("start", start), ("symmetry", symmetry.to_string())];
        if command == "exact" {
            fixed.push(("policy", policy.to_string()));
        }
        if let Some(k) = residues {
            fixed.push(("primes a pass", k.to_string()));
        }
        // The engine's saves change format between versions: an older one is refused in words.
        fixed.push(("engine save format", pegchain::engine::layered::SAVE_FORMAT.to_string()));
        // A shared run is saved in parts, one a process (see `checkpoint::Part`).
        if let Some(processes) = &shared {
            fixed.push(("processes", processes.0.processes().to_string()));
            let sharing = if self.deal_starts { "starts dealt out" } else { "layers shared" };
            fixed.push(("sharing", sharing.to_string()));
        }
        let mut run = Run::new(command, &board, fixed);
        let decode = |bytes: &[u8]| Saved::decode(bytes).map_err(|_| not_whole(&self.saving));
        let (checkpoint, resume) = match &shared {
            None => {
                let (checkpoint, saved) = self.saving.validate(&run)?;
                (checkpoint, saved.map(|bytes| decode(&bytes)).transpose()?)
            }
            Some(processes) => {
                let (checkpoint, number, saved) = self.saving.validate_shared(&run, &*processes.0, decode)?;
                let (me, of) = (processes.0.me(), processes.0.processes());
                run.shared = Some(Part { me, of, resumed: number });
                (checkpoint, saved)
            }
        };
        Ok(EngineRequest {
            board,
            checkpoint,
            run,
            resume,
            starts,
            position,
            config: EngineConfig {
                policy,
                reduce: !self.no_symmetry,
                reduction,
                residues: None,
                memory_budget,
                spill: self.spill.clone(),
                cancel: interrupt::token(),
                processes: shared,
                deal_starts: self.deal_starts,
            },
            budget,
            output: self.output.validate(),
            // Process 0 speaks for every process of a shared run.
            quiet: self.quiet || !super::processes::speaks(),
            return_freed_memory: self.max_memory.is_some(),
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
        // As a position naming a hole twice is refused: a typing slip, not a wish for one row.
        if holes.contains(&h) {
            return Err(Error::Invalid(format!("--start names hole {} twice", board.hole_name(h))));
        }
        holes.push(h);
    }
    Ok(Starts::Holes(holes))
}

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
                Some(n) => Some((n, self.seed, self.threads)),
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
        let output = self.output.validate();
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
            self.output.validate(),
            &[Format::Csv],
            "show draws the board, and a drawing is no table (--json lists the holes and jumps)",
        )?;
        Ok(ShowRequest { board: pegchain::solitaire::load_board(&self.board.board)?, output })
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
        if self.finish_count == Some(0) {
            return Err(Error::Invalid("--finish-count must be at least 1".into()));
        }
        let output = self.output()?;
        let (board, puzzle) = pegchain::solitaire::load_board_and_puzzle(&self.board.board)?;
        // A board file's puzzle applies as a whole when no start is given.
        let puzzle = puzzle.filter(|_| self.start.is_none() && self.position.is_none()).unwrap_or_default();
        let start = self.start(&board, &puzzle)?;
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
        // A search that could outgrow its memory is refused now, not a minute into it.
        Solver::new(&board).check(&problem, method)?;
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
            ("distinct", self.distinct.to_string()),
        ];
        let run = Run::new("solve", &board, fixed);
        let (checkpoint, saved) = self.saving.validate(&run)?;
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
        let output = self.output.validate();
        if !self.show {
            return Ok(output);
        }
        refuse_format(
            output,
            &[Format::Json, Format::Csv],
            "--show draws boards, which only text and --markdown hold",
        )
    }

    /// The start position: the flags', else the board file's.
    fn start(&self, board: &Board, puzzle: &Puzzle) -> Result<Pegs, Error> {
        match (&self.start, &self.position, puzzle.start) {
            (Some(hole), _, _) => play(board, board.find_hole(hole)?, self.moves.as_deref().unwrap_or("")),
            (None, Some(text), _) => parse_position(board, text),
            (None, None, Some(pegs)) => Ok(pegs),
            (None, None, None) => Err(Error::Invalid(format!(
                "solve needs a start: --start HOLE (the empty hole) or --position HOLES; \
                 board {}'s file gives none",
                board.name()
            ))),
        }
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

/// `simulate`, `audit` and `race` flags, parsed and validated in process (ripgrep's habit):
/// good requests give the right fields, bad ones the right words, before anything runs.
#[cfg(test)]
mod sim_tests {
    use super::*;
    use clap::Parser;

    fn command(args: &[&str]) -> Command {
        Cli::try_parse_from([&["pegchain"], args].concat()).expect("flags parse").command
    }

    /// Clap's own refusal of the flags.
    fn unparsed(args: &[&str]) -> String {
        Cli::try_parse_from([&["pegchain"], args].concat()).expect_err("refused by clap").to_string()
    }

    fn simulate(args: &[&str]) -> Result<SimulateRequest, Error> {
        match command(&[&["simulate"], args].concat()) {
            Command::Simulate(a) => a.validate(),
            _ => unreachable!("a simulate command"),
        }
    }

    fn audit(args: &[&str]) -> Result<AuditRequest, Error> {
        match command(&[&["audit"], args].concat()) {
            Command::Audit(a) => a.validate(),
            _ => unreachable!("an audit command"),
        }
    }

    fn race(args: &[&str]) -> Result<RaceRequest, Error> {
        match command(&[&["race"], args].concat()) {
            Command::Race(a) => a.validate(),
            _ => unreachable!("a race command"),
        }
    }

    /// The words of a refusal.
    fn refused<T>(result: Result<T, Error>) -> String {
        match result {
            Ok(_) => panic!("accepted, but should be refused"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn simulate_defaults_to_a_million_games_from_a_random_hole_with_exact_values() {
        let req = simulate(&[]).unwrap();
        let c = &req.config;
        assert_eq!((c.games, c.seed, c.threads, c.policy), (1_000_000, 2015, 0, Policy::Uniform));
        assert_eq!(c.starts, StartPlan::Random);
        assert!(c.exact);
        assert_eq!(req.output, Output::default());
        assert!(!req.quiet);
    }

    #[test]
    fn simulate_start_plans() {
        let plan = |args: &[&str]| simulate(args).unwrap().config.starts;
        assert_eq!(plan(&["--start", "A,E"]), StartPlan::Each(vec![0, 4]));
        assert_eq!(plan(&["--start", "all"]), StartPlan::Each((0..15).collect()));
        assert_eq!(plan(&["--per-class", "50_000"]), StartPlan::PerClass(50_000));
        assert_eq!(simulate(&["--games", "1,000"]).unwrap().config.games, 1000);
    }

    #[test]
    fn simulate_exact_values_by_board_size_unless_asked() {
        assert!(!simulate(&["--board", "english"]).unwrap().config.exact);
        assert!(simulate(&["--board", "english", "--exact"]).unwrap().config.exact);
        assert!(!simulate(&["--no-exact"]).unwrap().config.exact);
        assert!(unparsed(&["simulate", "--exact", "--no-exact"]).contains("cannot be used with"));
    }

    #[test]
    fn output_flags_of_the_simulation_commands() {
        let format = |args: &[&str]| simulate(args).unwrap().output.format;
        assert_eq!(format(&["--json"]), Format::Json);
        assert_eq!(format(&["--csv"]), Format::Csv);
        assert_eq!(format(&["--markdown"]), Format::Markdown);
        assert!(simulate(&["--full"]).unwrap().output.style.full_fractions);
        assert_eq!(audit(&["--csv"]).unwrap().output.format, Format::Csv);
        assert_eq!(race(&["--markdown"]).unwrap().output.format, Format::Markdown);
        assert!(unparsed(&["race", "--json", "--csv"]).contains("cannot be used with"));
    }

    #[test]
    fn bad_simulations_are_refused_in_words() {
        assert!(
            refused(simulate(&["--games", "0"]))
                .contains("--games takes a whole number of games of at least 1")
        );
        assert!(refused(simulate(&["--games", "many"])).contains("--games takes a whole number"));
        assert_eq!(
            refused(simulate(&["--games", "99999999999999999999"])),
            "--games takes at most 18446744073709551615 games, not \"99999999999999999999\""
        );
        assert!(refused(simulate(&["--per-class", "0"])).contains("--per-class takes a whole number"));
        assert!(refused(simulate(&["--policy", "clever"])).contains("unknown policy"));
        assert!(refused(simulate(&["--start", "Q"])).contains("has no hole \"Q\""));
        assert!(
            refused(simulate(&["--threads", "100000"])).contains("--threads takes 0 (one per core) to 1024")
        );
        assert!(
            unparsed(&["simulate", "--per-class", "100", "--start", "A"]).contains("cannot be used with")
        );
        assert!(
            unparsed(&["simulate", "--per-class", "100", "--games", "5"]).contains("cannot be used with")
        );
    }

    #[test]
    fn games_that_cannot_be_counted_in_all_are_refused() {
        let max = u64::MAX.to_string();
        assert!(
            refused(simulate(&["--games", &max, "--start", "all"]))
                .contains("makes more than 18446744073709551615 games in all")
        );
        assert!(
            refused(simulate(&["--per-class", &max])).starts_with("--per-class 18446744073709551615 over")
        );
        // One run of u64::MAX games (a random start) is counted: it is streamed, not refused.
        assert_eq!(simulate(&["--games", &max]).unwrap().config.games, u64::MAX);
        assert_eq!(
            simulate(&["--games", &(u64::MAX / 15).to_string(), "--start", "all"]).unwrap().config.games,
            u64::MAX / 15
        );
    }

    #[test]
    fn audit_requests() {
        let req = audit(&["--games", "1000", "--seed", "7", "-q", "--svg", "plots"]).unwrap();
        assert_eq!((req.config.games, req.config.seed, req.config.threads), (1000, 7, 0));
        assert_eq!(req.svg, Some(PathBuf::from("plots")));
        assert!(req.quiet);
        assert_eq!(audit(&[]).unwrap().config.games, 4_000_000);
        assert!(refused(audit(&["--games", "0"])).contains("--games takes a whole number"));
        assert!(refused(audit(&["--threads", "5000"])).contains("--threads takes 0"));
        // A file where the plots' directory should be is refused before the games are played.
        assert!(refused(audit(&["--svg", "Cargo.toml"])).contains("not a directory"));
    }

    #[test]
    fn race_jobs() {
        match race(&[]).unwrap().job {
            RaceJob::Game { setup, simulate } => {
                assert_eq!((setup.length, setup.swine, setup.butcher), (12, 7, 1));
                assert_eq!(simulate, None);
            }
            _ => panic!("one game"),
        }
        match race(&["--simulate", "1000", "--seed", "9", "--threads", "2"]).unwrap().job {
            RaceJob::Game { simulate, .. } => assert_eq!(simulate, Some((1000, 9, 2))),
            _ => panic!("one game"),
        }
        match race(&["--grid", "--length", "20", "--svg", "grid.svg"]).unwrap().job {
            RaceJob::Grid { length, svg, mark } => {
                assert_eq!((length, mark), (20, (7, 1)));
                assert_eq!(svg, Some(PathBuf::from("grid.svg")));
            }
            _ => panic!("the grid"),
        }
        match race(&["--lengths", "8..=12", "--swine", "5"]).unwrap().job {
            RaceJob::Sweep { swine, butcher, lengths } => {
                assert_eq!((swine, butcher, lengths), (5, 1, 8..=12))
            }
            _ => panic!("a sweep"),
        }
    }

    /// Every refusal of `race` happens here, before any game is analysed: `--lengths 199..201`
    /// once computed for 18 s before refusing 201.
    #[test]
    fn bad_races_are_refused_before_computing() {
        assert!(refused(race(&["--lengths", "199..201"])).contains("at most 200, not 201"));
        assert!(refused(race(&["--length", "201"])).contains("at most 200"));
        assert!(refused(race(&["--grid", "--length", "201"])).contains("at most 200"));
        assert!(refused(race(&["--grid", "--length", "2"])).contains("length of 3 or more"));
        assert!(refused(race(&["--lengths", "12..8"])).contains("must not exceed"));
        assert!(refused(race(&["--lengths", "twelve"])).contains("expected A..B"));
        assert!(refused(race(&["--lengths", "5..9"])).contains("the swine must start before the river"));
        assert!(refused(race(&["--butcher", "7"])).contains("the butcher must start behind the swine"));
        assert!(refused(race(&["--simulate", "0"])).contains("at least one game"));
        assert!(refused(race(&["--threads", "100000"])).contains("--threads takes 0"));
        assert!(refused(race(&["--svg", "x.svg"])).contains("use it with --grid"));
        assert!(
            refused(race(&["--grid", "--svg", "/no/such/dir/x.svg"])).contains("no directory /no/such/dir")
        );
        assert!(refused(race(&["--grid", "--svg", "src"])).contains("a directory, not a file name"));
        assert!(unparsed(&["race", "--grid", "--swine", "3"]).contains("cannot be used with"));
        assert!(unparsed(&["race", "--lengths", "8..9", "--simulate", "5"]).contains("cannot be used with"));
    }
}

/// Flags into requests, in process: what a good request asks for, and what a bad one is told.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::{Cli, Command};
    use clap::Parser;
    use pegchain::Policy;

    fn parse(args: &[&str]) -> Command {
        Cli::try_parse_from([&["pegchain"], args].concat()).expect("flags parse").command
    }

    /// The validated engine request of `exact` or `count`/`ends`.
    fn engine(args: &[&str]) -> Result<EngineRequest, String> {
        match parse(args) {
            Command::Exact(a) => a.validate(),
            Command::Count(a) | Command::Ends(a) => a.validate(),
            other => panic!("not an engine command: {other:?}"),
        }
        .map_err(|e| e.to_string())
    }

    fn solve(args: &[&str]) -> Result<SolveRequest, String> {
        match parse(&[&["solve"], args].concat()) {
            Command::Solve(a) => a.validate().map_err(|e| e.to_string()),
            other => panic!("{other:?}"),
        }
    }

    fn show(args: &[&str]) -> Result<ShowRequest, String> {
        match parse(&[&["show"], args].concat()) {
            Command::Show(a) => a.validate().map_err(|e| e.to_string()),
            other => panic!("{other:?}"),
        }
    }

    fn boards(args: &[&str]) -> Result<BoardsRequest, String> {
        match parse(&[&["boards"], args].concat()) {
            Command::Boards(a) => a.validate().map_err(|e| e.to_string()),
            other => panic!("{other:?}"),
        }
    }

    fn refused<T>(result: Result<T, String>, message: &str) {
        match result {
            Ok(_) => panic!("accepted; expected {message:?}"),
            Err(e) => assert!(e.contains(message), "{e:?} does not say {message:?}"),
        }
    }

    #[test]
    fn exact_takes_the_board_starts_policy_memory_and_output() {
        let args = ["exact", "--board", "triangle5", "--start", "a1,E", "--policy", "peg-first"];
        let extra = ["--max-memory", "2.5", "--no-symmetry", "--markdown", "--full", "-q"];
        let req = engine(&[&args[..], &extra].concat()).unwrap();
        assert_eq!(req.board.name(), "triangle5");
        assert_eq!(req.starts, Starts::Holes(vec![0, 4]));
        assert_eq!((req.config.policy, req.config.reduce), (Policy::PegFirst, false));
        assert_eq!(req.config.memory_budget, Some(2_500_000_000));
        assert_eq!(req.output, Output { format: Format::Markdown, style: Style { full_fractions: true } });
        assert!(req.quiet);
        // a1 and A are the same hole: named twice, it is refused.
        refused(engine(&["exact", "--start", "a1,E,A"]), "--start names hole A twice");
    }

    #[test]
    fn exact_count_and_ends_default_to_every_start_uniform_play_and_text() {
        for command in ["exact", "count", "ends"] {
            let req = engine(&[command]).unwrap();
            assert_eq!((req.board.name(), &req.starts), ("triangle5", &Starts::All), "{command}");
            assert_eq!((req.config.policy, req.config.reduce), (Policy::Uniform, true));
            assert_eq!(req.output, Output::default());
        }
        assert_eq!(engine(&["count", "--csv"]).unwrap().output.format, Format::Csv);
        assert_eq!(engine(&["ends", "--json"]).unwrap().output.format, Format::Json);
    }

    #[test]
    fn unknown_boards_holes_and_policies_are_named() {
        refused(engine(&["exact", "--board", "hexagon"]), "unknown board \"hexagon\"");
        refused(engine(&["exact", "--start", "P"]), "board triangle5 has no hole \"P\"");
        refused(engine(&["count", "--start", "A,f3"]), "has no hole \"f3\"");
        refused(engine(&["ends", "--start", "0"]), "has no hole \"0\"");
        refused(engine(&["exact", "--policy", "greedy"]), "unknown policy \"greedy\"");
        refused(solve(&["--start", "P"]), "has no hole \"P\"");
        refused(show(&["--board", "hexagon"]), "unknown board");
        refused(boards(&["--export", "hexagon"]), "unknown board");
    }

    #[test]
    fn a_memory_budget_must_be_a_positive_number_of_gb() {
        let said = |gb: &str| match Cli::try_parse_from(["pegchain", "count", "--max-memory", gb]) {
            Ok(_) => panic!("--max-memory {gb} accepted"),
            Err(e) => e.to_string(),
        };
        for (bad, words) in [
            ("-1", "a positive number of GB is needed"),
            ("0", "a positive number of GB is needed"),
            ("inf", "a positive number of GB is needed"),
            ("1e400", "too large"),
            ("NaN", "not a number of GB"),
            ("lots", "not a number of GB"),
            ("", "a number of GB is needed"),
        ] {
            assert!(
                said(bad).contains(&format!("'{bad}' for '--max-memory <GB>': {words}")),
                "{bad}: {}",
                said(bad)
            );
        }
        assert!(Cli::try_parse_from(["pegchain", "count", "--max-memory", "0.5"]).is_ok());
    }

    #[test]
    fn output_formats_conflict_in_the_parser() {
        for pair in [["--json", "--csv"], ["--json", "--markdown"], ["--csv", "--markdown"]] {
            for command in ["exact", "count", "ends", "solve", "show", "boards"] {
                let err = Cli::try_parse_from(["pegchain", command, pair[0], pair[1]]).unwrap_err();
                assert_eq!(err.kind(), clap::error::ErrorKind::ArgumentConflict, "{command} {pair:?}");
            }
        }
    }

    #[test]
    fn a_format_that_does_not_fit_is_refused_before_anything_runs() {
        refused(show(&["--csv"]), "--csv does not fit: show draws the board");
        assert_eq!(show(&["--json"]).unwrap().output.format, Format::Json);
        assert_eq!(show(&["--markdown"]).unwrap().output.format, Format::Markdown);
        refused(solve(&["--start", "A", "--show", "--json"]), "--json does not fit: --show draws boards");
        refused(solve(&["--start", "A", "--show", "--csv"]), "--csv does not fit");
        let req = solve(&["--start", "A", "--show", "--markdown"]).unwrap();
        assert!(req.show && req.output.format == Format::Markdown);
    }

    #[test]
    fn solve_takes_a_start_a_finish_a_limit_and_a_method() {
        let req = solve(&["--start", "A", "--finish", "M"]).unwrap();
        assert_eq!(req.problem.start, req.board.full().without(0));
        assert_eq!(req.problem.finish, Finish::Pegs(Pegs::single(12)));
        assert_eq!((req.method, req.limit, req.distinct), (Method::Dfs, Some(1), false));
        let req =
            solve(&["--start-pegs", "B,C,D", "--finish-count", "2", "--all", "--method", "BREADTH_FIRST"])
                .unwrap();
        assert_eq!((req.problem.start, req.problem.finish), (Pegs(0b1110), Finish::Count(2)));
        assert_eq!((req.method, req.limit), (Method::Bfs, None));
        assert_eq!(solve(&["--start", "A", "--distinct"]).unwrap().limit, None);
        assert_eq!(solve(&["--start", "A", "--distinct", "--limit", "3"]).unwrap().limit, Some(3));
        assert_eq!(solve(&["--start", "A", "--csv"]).unwrap().output.format, Format::Csv);
    }

    #[test]
    fn bad_solve_requests_name_their_flag() {
        refused(solve(&["--start", "A", "--limit", "0"]), "--limit must be at least 1");
        refused(solve(&["--start", "A", "--finish-count", "0"]), "--finish-count must be at least 1");
        refused(solve(&["--start", "A", "--method", "astar"]), "unknown search method \"astar\"");
        refused(solve(&[]), "solve needs a start: --start HOLE");
        refused(solve(&["--start", "A", "--finish", ","]), "no holes in \",\"");
        assert!(Cli::try_parse_from(["pegchain", "solve", "--limit", "2", "--all"]).is_err());
    }

    #[test]
    fn a_breadth_first_search_too_big_to_hold_is_refused_at_validation() {
        let err = solve(&["--board", "english", "--start", "d4", "--method", "bfs"]).err().unwrap();
        assert!(err.contains("a breadth-first search of this problem may hold up to"), "{err}");
        assert!(solve(&["--board", "english", "--start", "d4"]).is_ok());
        assert!(solve(&["--board", "triangle6", "--start", "A", "--method", "bfs"]).is_ok());
    }

    #[test]
    fn boards_lists_or_exports() {
        let req = boards(&["--json"]).unwrap();
        assert!(req.export.is_none() && req.output.format == Format::Json);
        let req = boards(&["--export", "english", "--format", "picture", "--out", "some/dir"]).unwrap();
        let export = req.export.unwrap();
        assert_eq!(
            (export.board.name(), export.format, export.dir),
            ("english", files::Format::Picture, "some/dir".into())
        );
        refused(boards(&["--export", "english", "--format", "svg"]), "unknown board file format \"svg\"");
    }
}
