//! Every flag, defined once (clap derive). Turning flags into requests is `validate`'s job.

use clap::{Args, Parser, Subcommand};
use std::num::{IntErrorKind, ParseIntError};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A flag's whole number, refused in people's words: clap's own parser names the type's range
/// ("not in 0..=4294967295") where the flag takes far fewer, and the standard library's says
/// "invalid digit found in string". The request's check then names the flag's own range.
fn whole<T: FromStr<Err = ParseIntError>>(text: &str) -> Result<T, String> {
    // clap names the value and the flag before these words.
    text.parse().map_err(|e: ParseIntError| match e.kind() {
        IntErrorKind::PosOverflow => "too large".to_string(),
        IntErrorKind::Empty => "a whole number is needed".to_string(),
        // Flags take negative numbers as values (allow_negative_numbers), to be refused here.
        _ if text.trim_start().starts_with('-') => "a whole number is needed, not a negative one".to_string(),
        _ => "not a whole number".to_string(),
    })
}

/// The smallest memory budget, in GB: 1 MB. The engine's smallest step needs tens of kB, and
/// a budget of a few bytes (`1e-300` was taken as 0 bytes) is a slip, not a wish.
const MIN_GB: f64 = 0.001;

/// A number of gigabytes for `--max-memory`, worded for people as [`whole`] words integers:
/// a value too large for a float ("1e400") would otherwise reach the check as `inf`.
fn gigabytes(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Err(_) if text.trim().is_empty() => Err("a number of GB is needed".to_string()),
        Err(_) => Err("not a number of GB".to_string()),
        Ok(gb) if gb.is_nan() => Err("not a number of GB".to_string()),
        Ok(gb) if gb == f64::INFINITY && !text.to_ascii_lowercase().contains("inf") => {
            Err("too large".to_string())
        }
        Ok(gb) if gb == f64::INFINITY => Err("a finite number of GB is needed".to_string()),
        Ok(gb) if !(gb > 0.0 && gb.is_finite()) => Err("a positive number of GB is needed".to_string()),
        Ok(gb) if gb < MIN_GB => Err(format!("at least {MIN_GB} GB (1 MB) is needed")),
        Ok(gb) => Ok(gb),
    }
}

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

/// Commands that print no fraction (simulate: none in its text) refuse `--full` (see
/// `OutputArgs::validate_without_fractions`) and do not list it in their help.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the built-in boards, or write one as board files (--export)
    #[command(mut_arg("full", |a| a.hide(true)))]
    Boards(BoardsArgs),
    /// Draw a board with its hole names
    #[command(mut_arg("full", |a| a.hide(true)), mut_arg("csv", |a| a.hide(true)))]
    Show(ShowArgs),
    /// Exact probabilities under random play: one peg left, pegs left, finish holes
    Exact(ExactArgs),
    /// Count complete games, winning games by finish hole, and reachable positions
    #[command(mut_arg("full", |a| a.hide(true)))]
    Count(CountArgs),
    /// Play seeded random games and set the estimates beside the exact values
    #[command(mut_arg("full", |a| a.hide(true)))]
    Simulate(SimulateArgs),
    /// The main job: audit the textbook's p = 0.0070 against the exact answer
    Audit(AuditArgs),
    /// The swine and the butcher (seed 004): a dice race solved exactly, who wins and when
    Race(RaceArgs),
    /// Find solutions: jump sequences from a start to a finish (one, N, every one)
    #[command(mut_arg("full", |a| a.hide(true)))]
    Solve(SolveArgs),
    /// Winning games by start hole and finish hole, and the possible finish holes
    #[command(mut_arg("full", |a| a.hide(true)))]
    Ends(CountArgs),
    /// Any Markov chain from a file (Storm DRN, PRISM explicit .tra): the chance of reaching a
    /// target, the steps and rewards until then, where the chain ends; exact, cycles and all
    Chain(ChainArgs),
    /// List the built-in games that `game` answers
    #[command(mut_arg("full", |a| a.hide(true)))]
    Games(GamesArgs),
    /// A built-in game as a Markov chain, answered exactly: Chutes and Ladders, your own board
    /// game, the gambler's ruin, the Knuth-Yao die, craps, Herman's ring
    Game(GameArgs),
    /// Write a chain the tool builds (a peg-solitaire start, the dice race, a game) as DRN or
    /// PRISM explicit files, so that Storm or PRISM can check it
    #[command(mut_arg("full", |a| a.hide(true)))]
    Export(ExportArgs),
    /// Every legal jump from a position with its exact odds for a random player, and what
    /// perfect play can still do after it
    Coach(CoachArgs),
    /// The coach as a web page on this machine: play by clicking, every jump coloured by its
    /// exact odds
    Serve(ServeArgs),
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed)
    #[arg(long, allow_negative_numbers = true, default_value_t = 8000)]
    pub port: u16,
    /// The address to listen on: loopback unless you say otherwise
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Also offer this board file (the built-in boards are always offered)
    #[arg(long, value_name = "FILE")]
    pub board: Option<String>,
    /// Close a connection that sends no complete request head for this many seconds (an idle
    /// kept-alive one too), or reads none of its answer for as long, 1 to 3600
    #[arg(long, allow_negative_numbers = true, value_name = "SECONDS", default_value_t = 30, value_parser = whole::<u64>)]
    pub idle_timeout: u64,
    /// The longest an answer may compute (once it has a core) before its request is told it
    /// takes too long, 1 to 3600: raise it where a large board needs more on this machine
    #[arg(long, allow_negative_numbers = true, value_name = "SECONDS", default_value_t = 30, value_parser = whole::<u64>)]
    pub budget: u64,
}

#[derive(Args, Debug)]
pub struct CoachArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The empty hole at the start (then --moves plays from it)
    #[arg(long, allow_negative_numbers = true, conflicts_with = "position")]
    pub start: Option<String>,
    /// Jumps played from --start, comma-separated: F-C-A,D-E-F (or F-A,D-F)
    #[arg(long, requires = "start")]
    pub moves: Option<String>,
    /// The position itself: the holes holding pegs (A,B,D,...), or the board as `show`
    /// draws a position (names for pegs, `.` for empty holes)
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["start", "moves"])]
    pub position: Option<String>,
    /// How the random player picks a jump: uniform, peg-first, hole-first
    #[arg(long, default_value = "uniform")]
    pub policy: String,
    #[command(flatten)]
    pub output: OutputArgs,
    /// No progress line on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

/// The questions `chain` and `game` answer.
#[derive(Args, Debug, Clone, Default)]
pub struct QuestionArgs {
    /// The states to reach: a label of the model [game: the game's own target]
    #[arg(long, value_name = "LABEL")]
    pub target: Option<String>,
    /// The states to reach, by number (a comma list)
    #[arg(long, allow_negative_numbers = true, value_name = "LIST", conflicts_with = "target")]
    pub target_states: Option<String>,
    /// Also the expected total of this reward structure until the target
    #[arg(long, value_name = "NAME")]
    pub reward: Option<String>,
    /// The distribution of the steps until the target: P(T = k) and P(T <= k) for k up to K
    #[arg(long, allow_negative_numbers = true, value_name = "K", value_parser = whole::<u32>)]
    pub distribution: Option<u32>,
    /// Write the step distribution as an SVG chart to FILE (with --distribution)
    #[arg(long, value_name = "FILE", requires = "distribution")]
    pub svg: Option<PathBuf>,
    /// The expected visits to each transient state from the (first) initial state
    #[arg(long)]
    pub visits: bool,
    /// Also where the chain ends (its absorbing states and closed classes) beside a target
    #[arg(long)]
    pub ends: bool,
    /// Also estimate by N seeded simulated runs, beside the exact values
    #[arg(long, allow_negative_numbers = true, value_name = "N")]
    pub simulate: Option<String>,
    /// Seed of the simulation (with --simulate): the same seed gives the same output for any
    /// --threads [default: 2015]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub seed: Option<u64>,
    /// Worker threads for the simulation (with --simulate), 0 = one per core, at most 1024
    /// [default: 0]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub threads: Option<usize>,
    /// A simulated run still going after this many steps is counted as cut short (with
    /// --simulate) [default: 10000000]
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = whole::<u64>)]
    pub max_steps: Option<u64>,
    /// A race between players (--players) pinned to P decimal places: its rounds are summed
    /// until no more than 10^-P is undecided, 1 to 1000 [default: 30]
    #[arg(long, allow_negative_numbers = true, value_name = "P", value_parser = whole::<u32>)]
    pub places: Option<u32>,
}

#[derive(Args, Debug)]
pub struct ChainArgs {
    /// The model: a Storm DRN file (.drn) or a PRISM transitions file (.tra, with the .lab,
    /// .srew and .trew files of the same name read when present)
    pub model: PathBuf,
    /// The PRISM labels file [default: MODEL with .lab, if present]
    #[arg(long, value_name = "FILE")]
    pub lab: Option<PathBuf>,
    /// The PRISM state rewards file [default: MODEL with .srew, if present]
    #[arg(long, value_name = "FILE")]
    pub srew: Option<PathBuf>,
    /// The PRISM transition rewards file [default: MODEL with .trew, if present]
    #[arg(long, value_name = "FILE")]
    pub trew: Option<PathBuf>,
    #[command(flatten)]
    pub question: QuestionArgs,
    /// N players, each walking its own copy of the chain from the (first) initial state,
    /// taking turns: each one's chance of reaching the target first, between exact bounds
    /// 10^-30 apart (--places sets another); 1 is the chain's own answers, with no race
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = whole::<u32>)]
    pub players: Option<u32>,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Nothing on stderr but errors
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct GamesArgs {
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The settings of the built-in games.
#[derive(Args, Debug, Clone)]
pub struct GameSettings {
    /// Players taking turns (board games): 1 for the length of a game, 2 to 4 for who wins
    /// (`game`: exactly, or between exact bounds 10^-30 apart where their product chain is too
    /// large, --places sets another; `export`: their product chain) [default: 1]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>)]
    pub players: Option<u32>,
    /// A board game's rules file (game `board`): a line each, `squares N` (the goal), `spinner
    /// 1-N` or `die W1 W2 ...` (face weights), `ladder FROM TO`, `chute FROM TO`, `overshoot
    /// stay|bounce|finish`; `#` starts a comment (data/games/chutes-and-ladders.txt is one)
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// The gambler's money at the start (gamblers-ruin) [default: 5]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub stake: Option<u64>,
    /// The money the gambler stops at (gamblers-ruin) [default: 10]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub goal: Option<u64>,
    /// The chance of winning a round (gamblers-ruin): a fraction such as 18/37 or a decimal
    /// [default: 1/2]
    // Hyphen values, not only negative numbers: -1/2 is no number to clap, and it must reach
    // the flag's own check.
    #[arg(long, allow_hyphen_values = true)]
    pub p: Option<String>,
    /// Processes in the ring (herman): an odd number from 3 to 15 [default: 11]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>)]
    pub processes: Option<u32>,
}

#[derive(Args, Debug)]
pub struct GameArgs {
    /// The game (see `pegchain games`)
    pub name: String,
    #[command(flatten)]
    pub settings: GameSettings,
    #[command(flatten)]
    pub question: QuestionArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Nothing on stderr but errors
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Export this game's chain (see `pegchain games`)
    #[arg(long, value_name = "NAME", conflicts_with_all = ["board", "race"])]
    pub game: Option<String>,
    #[command(flatten)]
    pub settings: GameSettings,
    /// Export random play on this board from --start (positions reduced by the symmetries
    /// that fix the start hole)
    #[arg(long, value_name = "BOARD", conflicts_with = "race")]
    pub board: Option<String>,
    /// The empty hole at the start (with --board)
    #[arg(long, allow_negative_numbers = true)]
    pub start: Option<String>,
    /// How the random player picks a jump (with --board): uniform, peg-first, hole-first
    /// [default: uniform]
    #[arg(long)]
    pub policy: Option<String>,
    /// Export the dice race of seed 004 (the built-in rules, the default start)
    #[arg(long)]
    pub race: bool,
    /// Write the chain as a Storm DRN file
    #[arg(long, value_name = "FILE")]
    pub drn: Option<PathBuf>,
    /// Write the chain as PRISM explicit files PREFIX.tra, PREFIX.lab (and PREFIX.srew,
    /// PREFIX.trew for the game's reward)
    #[arg(long, value_name = "PREFIX")]
    pub prism: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Saving a long run as it goes, and going on from a save.
#[derive(Args, Debug, Clone, Default)]
pub struct CheckpointArgs {
    /// Save the run to FILE as it goes, whole, replacing the last save (simulate: after every
    /// wave of games; exact, count, ends: after every finished layer, and by --residues the
    /// start of the latest pass in FILE.pass too, a few kB; solve: every 5 seconds and when
    /// stopped, so a search that ends sooner saves none; it keeps the solutions shown, so it
    /// takes --limit N of at most 1,000,000; under mpirun, process p of N saves its part to
    /// FILE.p-of-N)
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Go on from the run saved in FILE by --checkpoint with the same flags; the output is
    /// the same as an uninterrupted run's
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

/// The output format flags every command takes: text by default.
#[derive(Args, Debug, Clone, Default)]
pub struct OutputArgs {
    /// One JSON document: exact numbers as strings, each with its correctly rounded decimal
    #[arg(long, conflicts_with_all = ["csv", "markdown"])]
    pub json: bool,
    /// One CSV table
    #[arg(long, conflicts_with = "markdown")]
    pub csv: bool,
    /// Markdown: headings and tables
    #[arg(long)]
    pub markdown: bool,
    /// Show long fractions whole in text and Markdown (abbreviated by default)
    #[arg(long)]
    pub full: bool,
    /// Write the answer to FILE instead of standard output: whole, or not at all (a run that
    /// fails or is interrupted leaves no file)
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct BoardArgs {
    /// Board: triangle4..triangle10, english, european, or a board file (.json or picture)
    #[arg(long, default_value = "triangle5")]
    pub board: String,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Start hole(s), the empty hole at the start: a name (A), a number (1), rank/file on
    /// triangles (a1 = tip), a comma-separated list, or `all`
    #[arg(long, allow_negative_numbers = true, default_value = "all")]
    pub start: String,
    /// Jumps played from --start (one hole), comma-separated: F-C-A,D-E-F (or F-A,D-F); the
    /// figures are those of the position they lead to
    #[arg(long)]
    pub moves: Option<String>,
    /// A position instead of a start: the holes holding pegs (A,B,D,...), or the board as
    /// `show` draws a position (names for pegs, `.` for empty holes)
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["start", "moves"])]
    pub position: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    /// No progress lines on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Memory budget of the exact engine in GB, at least 0.001 (default: 80% of the available memory)
    #[arg(long, value_name = "GB", allow_negative_numbers = true, value_parser = gigabytes)]
    pub max_memory: Option<f64>,
    /// A step taken in rounds to fit the memory budget keeps its parents in an unnamed file in
    /// DIR while their children are summed (8 bytes a position and 8 a word of its share: 16
    /// by one residue), so that it holds one round's parents at a time; a step whose children
    /// still do not fit sums them in parts, passing over its parents once a part: for boards
    /// whose layers outgrow memory
    #[arg(long, value_name = "DIR")]
    pub spill: Option<PathBuf>,
    /// Follow every position instead of one per symmetry class (slower; for checking)
    #[arg(long)]
    pub no_symmetry: bool,
    /// Reduce every start by the board's whole symmetry group and find the finish holes by a
    /// backward pass over all starts at once (by default where the starts share enough of
    /// their classes for it to be the faster: the triangles)
    #[arg(long, conflicts_with_all = ["no_symmetry", "stabilizer"])]
    pub whole_group: bool,
    /// Reduce each start by the symmetries that fix its hole only, splitting its finish holes
    /// over each class (by default where the whole group would not be the faster, as on the
    /// English board, and for a run saved as it goes, by residues, spilling or under mpirun)
    #[arg(long, conflicts_with = "no_symmetry")]
    pub stabilizer: bool,
    /// Under mpirun: deal the starts out between the processes, each evaluating whole starts
    /// alone, instead of sharing every layer (no traffic, but each needs a start's memory)
    #[arg(long)]
    pub deal_starts: bool,
    #[command(flatten)]
    pub saving: CheckpointArgs,
}

impl Command {
    /// The file `--output` names, which takes the answer instead of standard output.
    pub fn answer_file(&self) -> Option<&Path> {
        let output = match self {
            Command::Boards(a) => &a.output,
            Command::Show(a) => &a.output,
            Command::Exact(a) => &a.engine.output,
            Command::Count(a) | Command::Ends(a) => &a.output,
            Command::Simulate(a) => &a.output,
            Command::Audit(a) => &a.output,
            Command::Race(a) => &a.output,
            Command::Solve(a) => &a.output,
            Command::Chain(a) => &a.output,
            Command::Games(a) => &a.output,
            Command::Game(a) => &a.output,
            Command::Export(a) => &a.output,
            Command::Coach(a) => &a.output,
            Command::Serve(_) => return None,
        };
        output.output.as_deref()
    }

    /// Whether the command writes its answer as it goes (solve's solutions), to standard
    /// output or to its `--output` file, rather than handing it over whole at the end.
    pub fn streams_its_answer(&self) -> bool {
        matches!(self, Command::Solve(_))
    }

    /// Whether the command takes `--checkpoint` (and `--resume`): a run of it may be saved.
    pub fn saves_checkpoints(&self) -> bool {
        matches!(
            self,
            Command::Exact(_)
                | Command::Count(_)
                | Command::Ends(_)
                | Command::Simulate(_)
                | Command::Solve(_)
        )
    }
}

/// `exact` also asks how the random player moves; counts do not depend on it.
#[derive(Args, Debug)]
pub struct ExactArgs {
    #[command(flatten)]
    pub engine: CountArgs,
    /// How the random player picks a jump: uniform, peg-first, hole-first
    #[arg(long, default_value = "uniform")]
    pub policy: String,
    /// Keep each numerator as its residues modulo K primes (K from 1 to 64; 8 bytes each)
    /// instead of in full, and follow the board once per K primes until they fix every
    /// fraction (Chinese remainder theorem): the same output in less memory and more time, for
    /// boards whose numerators outgrow memory
    #[arg(long, allow_negative_numbers = true, value_name = "K", value_parser = whole::<u32>)]
    pub residues: Option<u32>,
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Number of games, at least 1 (with --start all: per start hole)
    #[arg(long, default_value = "1000000", allow_negative_numbers = true)]
    pub games: String,
    /// Seed of the random streams: the same seed gives the same output for any --threads
    #[arg(long, allow_negative_numbers = true, default_value_t = DEFAULT_SEED, value_parser = whole::<u64>)]
    pub seed: u64,
    /// Empty hole at the start: `random` (drawn for every game), `all` (each hole in
    /// turn), a hole, or a comma-separated list of holes (each in turn)
    #[arg(long, allow_negative_numbers = true, default_value = "random")]
    pub start: String,
    /// Play this many games in each symmetry class instead
    #[arg(long, value_name = "N", conflicts_with_all = ["start", "games"], allow_negative_numbers = true)]
    pub per_class: Option<String>,
    /// Jumps played from --start (one hole), comma-separated: F-C-A,D-E-F (or F-A,D-F); the
    /// games start from the position they lead to
    #[arg(long, conflicts_with = "per_class")]
    pub moves: Option<String>,
    /// Play from this position instead of a start: the holes holding pegs (A,B,D,...), or
    /// the board as `show` draws a position (names for pegs, `.` for empty holes)
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["start", "moves", "per_class"])]
    pub position: Option<String>,
    /// How the random player picks a jump: uniform, peg-first, hole-first
    #[arg(long, default_value = "uniform")]
    pub policy: String,
    /// Worker threads (0 = one per core, at most 1024); the output does not depend on it
    #[arg(long, allow_negative_numbers = true, default_value_t = 0, value_parser = whole::<usize>)]
    pub threads: usize,
    /// Compare with the exact engine even on a board over 21 holes (it may take long)
    #[arg(long, conflicts_with = "no_exact")]
    pub exact: bool,
    /// Do not compute exact values
    #[arg(long)]
    pub no_exact: bool,
    #[command(flatten)]
    pub saving: CheckpointArgs,
    #[command(flatten)]
    pub output: OutputArgs,
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
    #[arg(long, allow_negative_numbers = true, default_value_t = DEFAULT_SEED, value_parser = whole::<u64>)]
    pub seed: u64,
    /// Worker threads (0 = one per core, at most 1024); the output does not depend on it
    #[arg(long, allow_negative_numbers = true, default_value_t = 0, value_parser = whole::<usize>)]
    pub threads: usize,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Also write SVG plots into this directory
    #[arg(long, value_name = "DIR")]
    pub svg: Option<std::path::PathBuf>,
    /// No progress bar on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

/// The seed of every simulation unless --seed says otherwise.
pub const DEFAULT_SEED: u64 = 2015;

#[derive(Args, Debug)]
pub struct RaceArgs {
    /// Squares on the board, 2 to 200; the river is on the last [default: 12, or the rules
    /// file's]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>)]
    pub length: Option<u32>,
    /// The swine's start square [default: 7, or the rules file's]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>)]
    pub swine: Option<u32>,
    /// The butcher's start square, behind the swine [default: 1, or the rules file's]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>)]
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
    // Hyphen values: -1..12 is no number to clap, and it must reach the flag's own check.
    #[arg(long, allow_hyphen_values = true, value_name = "A..B", conflicts_with_all = ["length", "simulate"])]
    pub lengths: Option<String>,
    /// Cross-check with N simulated games
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = whole::<u64>)]
    pub simulate: Option<u64>,
    /// Seed of the simulation (with --simulate) [default: 4]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub seed: Option<u64>,
    /// Threads for the simulation (with --simulate), 0 = all cores, at most 1024 (the result
    /// does not depend on it) [default: 0]
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub output: OutputArgs,
    /// No progress bar or time estimate on stderr
    #[arg(long, short)]
    pub quiet: bool,
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
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The hole empty at the start, every other one holding a peg (default: a board file's
    /// own start)
    #[arg(long, allow_negative_numbers = true, value_name = "HOLE", conflicts_with = "position")]
    pub start: Option<String>,
    /// Jumps played from --start first, comma-separated: F-C-A,D-E-F; the search starts from
    /// the position they lead to
    #[arg(long, requires = "start")]
    pub moves: Option<String>,
    /// The start as a position: the holes holding pegs (comma-separated), or the board as
    /// `show` draws a position (`--start-pegs` is the same)
    #[arg(long, allow_negative_numbers = true, value_name = "HOLES", alias = "start-pegs", conflicts_with_all = ["start", "moves"])]
    pub position: Option<String>,
    /// The finish: the last peg's hole, or the comma-separated holes holding pegs at the end
    /// (default: one peg left, in any hole)
    #[arg(long, allow_negative_numbers = true, value_name = "HOLES", conflicts_with = "finish_count")]
    pub finish: Option<String>,
    /// Finish with K pegs left and no jump possible (K from 1 to the board's holes)
    #[arg(long, allow_negative_numbers = true, value_name = "K", value_parser = whole::<u32>)]
    pub finish_count: Option<u32>,
    /// Find up to N solutions, N at least 1 (default 1; with --distinct, every distinct one)
    #[arg(long, allow_negative_numbers = true, value_name = "N", conflicts_with = "all", value_parser = whole::<u64>)]
    pub limit: Option<u64>,
    /// Find every solution, listed as found and counted at the end
    #[arg(long)]
    pub all: bool,
    /// Search method: dfs (depth-first with a table of failed positions; default) or bfs
    /// (sweeps every reachable position first; small boards)
    #[arg(long)]
    pub method: Option<String>,
    /// Draw the board after every jump (text and Markdown)
    #[arg(long)]
    pub show: bool,
    /// Keep only solutions that differ in more than the order of their jumps and a symmetry
    /// of the board keeping the start and the finish; count them all
    #[arg(long)]
    pub distinct: bool,
    #[command(flatten)]
    pub saving: CheckpointArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}
