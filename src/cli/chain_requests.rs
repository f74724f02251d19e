//! `chain`, `game` and `export` flags into validated requests: the model read and checked,
//! the question built, every file to be written checked before any computing.

use super::args::{ChainArgs, DEFAULT_SEED, ExportArgs, GameArgs, GameSettings, QuestionArgs};
use super::validate::{Output, check_file_target, check_threads, first_given, parse_count};
use pegchain::Error;
use pegchain::chains::{MAX_RACE_PLACES, Question, RaceQuestion, Simulation, Target};
use pegchain::engine::explicit::ExplicitChain;
use pegchain::formats::number::NumberError;
use pegchain::formats::{self, FormatError, number, prism};
use pegchain::games::{self, GameParams, Setting};
use pegchain::input::shown_path;
use pegchain::render::Format;
use pegchain::render::number::quoted;
use std::path::{Path, PathBuf};

/// A simulated run still going after this many steps is counted as cut short.
const DEFAULT_MAX_STEPS: u64 = 10_000_000;

/// The largest chain file read: 4 GiB.
pub const MAX_MODEL_BYTES: u64 = 4 << 30;

/// A chain and the question asked of it.
pub struct ChainRequest {
    /// The file or game, in words.
    pub model: String,
    /// The same with a long fraction abbreviated, for titles.
    pub model_brief: String,
    pub chain: ExplicitChain,
    /// `double` for a DRN file of doubles (its decimals read exactly as written).
    pub value_type: Option<&'static str>,
    pub question: Question,
    pub svg: Option<PathBuf>,
    pub output: Output,
    /// Nothing on stderr but errors (no progress line).
    pub quiet: bool,
}

impl QuestionArgs {
    /// The question; `default_target` and `default_reward` are a game's own.
    fn validate(
        &self,
        default_target: Option<&str>,
        default_reward: Option<&str>,
        default_ends: bool,
    ) -> Result<(Question, Option<PathBuf>), Error> {
        let threads = check_threads(self.threads.unwrap_or(0))?;
        let target = match (&self.target, &self.target_states) {
            (Some(label), _) => Some(Target::Label(label.clone())),
            (None, Some(list)) => Some(Target::States(parse_states(list)?)),
            (None, None) => default_target.map(|t| Target::Label(t.to_string())),
        };
        let simulation_flags = [
            ("--seed", self.seed.is_some()),
            ("--threads", self.threads.is_some()),
            ("--max-steps", self.max_steps.is_some()),
        ];
        let simulation = match &self.simulate {
            Some(text) => {
                let runs = parse_count("--simulate", text, "runs")?;
                let max_steps = self.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
                if max_steps == 0 {
                    return Err(Error::Invalid("--max-steps must be at least 1".into()));
                }
                let seed = self.seed.unwrap_or(DEFAULT_SEED);
                Some(Simulation { runs, seed, threads, max_steps })
            }
            // As `race` does: a seed given without a simulation would run none, silently.
            None => match first_given(&simulation_flags) {
                Some(flag) => {
                    return Err(Error::Invalid(format!(
                        "{flag} is a setting of the simulation: use it with --simulate N"
                    )));
                }
                None => None,
            },
        };
        if let Some(file) = &self.svg {
            check_file_target("--svg", file)?;
        }
        let own_target = self.target.is_some() || self.target_states.is_some();
        let reward =
            self.reward.clone().or(if own_target { None } else { default_reward.map(str::to_string) });
        let ends = self.ends || (!own_target && default_ends);
        let question = Question {
            target,
            reward,
            distribution: self.distribution,
            memory_budget: super::limits::read(None).budget().map(|b| b.bytes),
            visits: self.visits,
            ends,
            simulation,
            race: None,
        };
        Ok((question, self.svg.clone()))
    }

    /// The race of `players` (None: no race), pinned to `--places`; the flag is refused
    /// where no race is run.
    fn race(&self, players: Option<u32>) -> Result<Option<RaceQuestion>, Error> {
        match (players, self.places) {
            (None, None) => Ok(None),
            (None, Some(_)) => Err(Error::Invalid(
                "--places pins the chances of a race between players (--players N, where their product chain is too large to solve exactly), and this answer has none"
                    .into(),
            )),
            (Some(players), None) => Ok(Some(RaceQuestion::of(players))),
            (Some(players), Some(places)) if (1..=MAX_RACE_PLACES).contains(&places) => {
                Ok(Some(RaceQuestion { players, places }))
            }
            (Some(_), Some(places)) => {
                Err(Error::Invalid(format!("--places takes 1 to {MAX_RACE_PLACES} decimal places, not {places}")))
            }
        }
    }
}

fn parse_states(list: &str) -> Result<Vec<u64>, Error> {
    let mut states = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for s in list.split(',') {
        let state = s.trim().parse::<u64>().map_err(|_| {
            Error::Invalid(format!(
                "--target-states takes state numbers separated by commas, not {}",
                quoted(list)
            ))
        })?;
        // As with --start: a state named twice is a typing slip, not a wish.
        if !seen.insert(state) {
            return Err(Error::Invalid(format!("--target-states names state {state} twice")));
        }
        states.push(state);
    }
    Ok(states)
}

/// The most players a race on a chain from a file takes (each round multiplies numbers as
/// long as the players' count).
const MAX_RACE_PLAYERS: u32 = 64;

impl QuestionArgs {
    /// Refuses `--csv` beside a part of the answer its one table would leave out (the table
    /// is the race, else the target's distribution or values, else the ends): the estimates of
    /// `--simulate`, the expected visits of `--visits`, the expected reward of `--reward`
    /// beside a race or a distribution, and the ends beside a target or race, asked for by
    /// `--ends` or shown by the game unasked.
    fn fits_csv(&self, output: Output, question: &Question) -> Result<(), Error> {
        if output.format != Format::Csv {
            return Ok(());
        }
        let (target, race) = (question.target.is_some(), question.race.is_some());
        let table = if race {
            "each player's chances"
        } else if self.distribution.is_some() && target {
            "P(T = k) by steps"
        } else if target {
            "the target's values by initial state"
        } else {
            "where the chain ends"
        };
        let left_out = [
            (self.simulate.is_some(), "--simulate"),
            (self.visits, "--visits"),
            (self.ends && (target || race), "--ends"),
            (self.distribution.is_some() && race, "--distribution"),
            (self.reward.is_some() && (race || (target && self.distribution.is_some())), "--reward"),
        ];
        // A game's own ends, shown beside its own target unasked.
        let game_ends = match &question.target {
            Some(Target::Label(label)) if question.ends && !self.ends => Some(format!(
                "where the chain ends, which the game shows beside its target (--target {label} gives the \
                 target alone)"
            )),
            _ => None,
        };
        match left_out.iter().find(|(asked, _)| *asked).map(|(_, flag)| flag.to_string()).or(game_ends) {
            Some(flag) => Err(Error::Invalid(format!(
                "--csv does not fit {flag}: a CSV is one table, here {table}; text, --markdown and \
                 --json carry every part"
            ))),
            None => Ok(()),
        }
    }
}

impl ChainArgs {
    pub fn validate(&self) -> Result<ChainRequest, Error> {
        let (mut question, svg) = self.question.validate(None, None, false)?;
        if let Some(players) = self.players.filter(|p| !(1..=MAX_RACE_PLAYERS).contains(p)) {
            return Err(Error::Invalid(format!(
                "--players takes 1 to {MAX_RACE_PLAYERS} players, not {players}"
            )));
        }
        // One player races no one: the chain's own answers are that player's, as in `game`.
        question.race = self.question.race(self.players.filter(|&p| p > 1))?;
        let output = self.output.validate();
        self.question.fits_csv(output, &question)?;
        let budget = super::limits::read(None).budget().map(|b| b.bytes);
        let (chain, value_type) = read_model(self, budget)?;
        Ok(ChainRequest {
            model: self.model.display().to_string(),
            model_brief: self.model.display().to_string(),
            chain,
            value_type,
            question,
            svg,
            output,
            quiet: self.quiet,
        })
    }
}

/// A model file: DRN, or PRISM's .tra with its companions; and `double` where the file says
/// its probabilities are doubles.
fn read_model(args: &ChainArgs, budget: Option<u64>) -> Result<(ExplicitChain, Option<&'static str>), Error> {
    let path = &args.model;
    let text = read_text(path)?;
    let stop = super::interrupt::token();
    let in_file = |e: FormatError| stopped_or_invalid(path, &e, &stop);
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let looks_like_drn =
        extension == "drn" || text.trim_start().starts_with("//") || text.trim_start().starts_with('@');
    if looks_like_drn && extension != "tra" {
        for flag in [(&args.lab, "--lab"), (&args.srew, "--srew"), (&args.trew, "--trew")] {
            if flag.0.is_some() {
                return Err(Error::Invalid(format!(
                    "{} goes with a PRISM .tra file, not a DRN file",
                    flag.1
                )));
            }
        }
        let drn = formats::drn::parse_drn_until(&text, budget, &stop).map_err(in_file)?;
        return Ok((drn.chain, drn.doubles.then_some("double")));
    }
    // A companion found by name is read as one given: a directory or a FIFO there is refused,
    // not skipped as if absent.
    let companion = |given: &Option<PathBuf>, ext: &str| -> Result<Option<(PathBuf, String)>, Error> {
        let p = given.clone().unwrap_or_else(|| path.with_extension(ext));
        if given.is_none() && matches!(p.try_exists(), Ok(false)) {
            return Ok(None);
        }
        Ok(Some((p.clone(), read_text(&p)?)))
    };
    let lab = companion(&args.lab, "lab")?;
    let srew = companion(&args.srew, "srew")?;
    let trew = companion(&args.trew, "trew")?;
    let reward_name = match (&srew, &trew) {
        (Some((p, _)), _) | (None, Some((p, _))) => {
            p.file_stem().and_then(|s| s.to_str()).unwrap_or("reward").to_string()
        }
        _ => "reward".to_string(),
    };
    let files = prism::PrismFiles {
        tra: text,
        lab: lab.as_ref().map(|l| l.1.clone()),
        srew: srew.as_ref().map(|l| l.1.clone()),
        trew: trew.as_ref().map(|l| l.1.clone()),
    };
    let chain = prism::parse_prism_until(&files, &reward_name, budget, &stop).map_err(|e| {
        let file = match e.part {
            prism::Part::Tra => path.clone(),
            prism::Part::Lab => lab.map_or(path.with_extension("lab"), |l| l.0),
            prism::Part::Srew => srew.map_or(path.with_extension("srew"), |l| l.0),
            prism::Part::Trew => trew.map_or(path.with_extension("trew"), |l| l.0),
        };
        stopped_or_invalid(&file, &e.error, &stop)
    })?;
    Ok((chain, None))
}

/// A model file's fault in words, or, when a stop was asked for, how far the reading got.
fn stopped_or_invalid(file: &Path, e: &FormatError, stop: &pegchain::Cancel) -> Error {
    match (stop.is_cancelled(), e.line) {
        (true, Some(line)) => {
            Error::Interrupted { done: format!("model file {}: read up to line {line}", shown_path(file)) }
        }
        _ => Error::Invalid(format!("model file {}: {e}", shown_path(file))),
    }
}

fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = pegchain::input::read_bytes(path, MAX_MODEL_BYTES)
        .map_err(|why| Error::Invalid(format!("model file {}: {why}", shown_path(path))))?;
    pegchain::input::utf8_text(bytes)
        .map_err(|why| Error::Invalid(format!("model file {}: {why}", shown_path(path))))
}

impl GameSettings {
    /// The settings given, each with its flag.
    fn given(&self) -> Vec<(Setting, &'static str)> {
        [
            (self.players.is_some(), Setting::Players, "--players"),
            (self.rules.is_some(), Setting::Rules, "--rules"),
            (self.stake.is_some(), Setting::Stake, "--stake"),
            (self.goal.is_some(), Setting::Goal, "--goal"),
            (self.p.is_some(), Setting::P, "--p"),
            (self.processes.is_some(), Setting::Processes, "--processes"),
        ]
        .into_iter()
        .filter(|(given, _, _)| *given)
        .map(|(_, setting, flag)| (setting, flag))
        .collect()
    }

    /// Refuses a setting the game `name` would ignore (an unknown game is left to `build`).
    fn check_taken_by(&self, name: &str) -> Result<(), Error> {
        let Some(takes) = games::settings_of(name) else { return Ok(()) };
        let Some((setting, flag)) = self.given().into_iter().find(|(s, _)| !takes.contains(s)) else {
            return Ok(());
        };
        let taking: Vec<&str> = games::GAMES
            .iter()
            .map(|g| g.0)
            .filter(|g| games::settings_of(g).is_some_and(|s| s.contains(&setting)))
            .collect();
        Err(Error::Invalid(format!("the game {name} takes no {flag} (games that do: {})", taking.join(", "))))
    }

    fn params(&self) -> Result<GameParams, Error> {
        let defaults = GameParams::default();
        let p = match &self.p {
            Some(text) => number::parse(text.trim()).map_err(|e| {
                Error::Invalid(match e {
                    NumberError::NotANumber => {
                        format!("--p takes a probability such as 18/37 or 0.4, not {}", quoted(text))
                    }
                    e => format!("--p {}", e.why("a probability", text.trim())),
                })
            })?,
            None => defaults.p.clone(),
        };
        let rules = match &self.rules {
            Some(path) => Some(
                pegchain::input::read_input(path)
                    .map_err(|why| Error::BadRules { file: shown_path(path), why })?,
            ),
            None => None,
        };
        Ok(GameParams {
            players: self.players.unwrap_or(defaults.players),
            rules,
            stake: self.stake.unwrap_or(defaults.stake),
            processes: self.processes.unwrap_or(defaults.processes),
            goal: self.goal.unwrap_or(defaults.goal),
            p,
            cancel: super::interrupt::token(),
            memory_budget: super::limits::read(None).budget().map(|b| b.bytes),
            ..defaults
        })
    }

    /// The game; `whole_chain`: the players' product chain however large (an export).
    fn build(&self, name: &str, whole_chain: bool) -> Result<games::Game, Error> {
        self.check_taken_by(name)?;
        games::build(name, &GameParams { whole_chain, ..self.params()? }).map_err(|e| {
            match (e, &self.rules) {
                (Error::BadRules { why, .. }, Some(path)) => Error::BadRules { file: shown_path(path), why },
                (e, _) => e,
            }
        })
    }
}

impl GameArgs {
    pub fn validate(&self) -> Result<ChainRequest, Error> {
        let game = self.settings.build(&self.name, false)?;
        let (mut question, svg) =
            self.question.validate(game.target.as_deref(), game.reward.as_deref(), game.ends)?;
        // Players run no race where their product chain is solved: "this answer has none"
        // would leave them wondering where their chances went.
        if let (None, Some(_), Some(players @ 2..)) = (game.race, self.question.places, self.settings.players)
        {
            return Err(Error::Invalid(format!(
                "--places pins the chances of a race between players where their product chain is too \
                 large to solve exactly; here the {players} players' chances are exact fractions from \
                 their product chain, so there is nothing to pin"
            )));
        }
        question.race = self.question.race(game.race)?;
        let output = self.output.validate();
        self.question.fits_csv(output, &question)?;
        Ok(ChainRequest {
            model_brief: game.brief.unwrap_or_else(|| game.description.clone()),
            model: game.description,
            chain: game.chain,
            value_type: None,
            question,
            svg,
            output,
            quiet: self.quiet,
        })
    }
}

/// A chain to write, and where.
pub struct ExportRequest {
    pub what: String,
    /// The same with a long fraction abbreviated, for the line that says what was written.
    pub what_brief: String,
    pub chain: ExplicitChain,
    /// The reward structure written to PRISM's .srew/.trew.
    pub reward: Option<String>,
    pub drn: Option<PathBuf>,
    pub prism: Option<PathBuf>,
    pub output: Output,
}

/// Peg-solitaire positions written out at most.
pub const MAX_EXPORT_STATES: u64 = 20_000_000;

/// The extensions of PRISM's explicit files, in the order `export` writes them.
pub const PRISM_FILES: [&str; 4] = ["tra", "lab", "srew", "trew"];

/// The PRISM file `PREFIX.ext` (the extension added, never replacing one the prefix has).
pub fn prism_file(prefix: &std::path::Path, ext: &str) -> PathBuf {
    super::files::beside(prefix, &format!(".{ext}"))
}

impl ExportArgs {
    pub fn validate(&self) -> Result<ExportRequest, Error> {
        let output = self.output.validate_without_fractions("export")?;
        if self.drn.is_none() && self.prism.is_none() {
            return Err(Error::Invalid(
                "say where to write the chain: --drn FILE and/or --prism PREFIX".into(),
            ));
        }
        if let Some(f) = &self.drn {
            check_file_target("--drn", f)?;
        }
        if let Some(prefix) = &self.prism {
            // A directory, or a path ending in one, would give files named `.tra` and so on.
            if prefix.is_dir() || prefix.as_os_str().to_string_lossy().ends_with('/') {
                return Err(Error::Invalid(format!(
                    "--prism {}: a directory, not a prefix; the files are named PREFIX.tra and so on \
                     (give, say, {})",
                    prefix.display(),
                    prefix.join("chain").display()
                )));
            }
            for ext in PRISM_FILES {
                let file = prism_file(prefix, ext);
                check_file_target("--prism", &file)?;
                let same = |drn: &PathBuf| std::path::absolute(drn).ok() == std::path::absolute(&file).ok();
                if let Some(drn) = self.drn.as_ref().filter(|drn| same(drn)) {
                    return Err(Error::Invalid(format!(
                        "--drn {} is also a file --prism {} may write: give them different names",
                        drn.display(),
                        prefix.display()
                    )));
                }
            }
        }
        if let (None, Some((_, flag))) = (&self.game, self.settings.given().first()) {
            return Err(Error::Invalid(format!("{flag} is a setting of a game (--game NAME)")));
        }
        // clap lets a flag's `requires` go unmet when a flag it conflicts with is given, so
        // `--race --start A` was taken and --start ignored: checked here instead.
        let board_flags = [("--start", self.start.is_some()), ("--policy", self.policy.is_some())];
        if let (None, Some(flag)) = (&self.board, first_given(&board_flags)) {
            return Err(Error::Invalid(format!("{flag} is a setting of a peg-solitaire export (--board B)")));
        }
        let mut brief = None;
        let (what, chain, reward) = if let Some(name) = &self.game {
            let game = self.settings.build(name, true)?;
            let reward = game.reward.clone().or_else(|| game.chain.rewards().keys().next().cloned());
            brief = game.brief;
            (game.description, game.chain, reward)
        } else if let Some(board_name) = &self.board {
            let board = pegchain::solitaire::load_board(board_name)?;
            let start = self
                .start
                .as_deref()
                .ok_or_else(|| Error::Invalid("--board needs --start HOLE (the empty hole)".into()))?;
            let hole = super::validate::one_start_hole(&board, start)?;
            let policy = match &self.policy {
                Some(text) => text.parse().map_err(Error::Invalid)?,
                None => pegchain::Policy::default(),
            };
            let stop = super::interrupt::token();
            let budget = super::limits::read(None).budget().map(|b| b.bytes);
            let chain = pegchain::solitaire::explicit::chain(
                &board,
                hole,
                policy,
                (MAX_EXPORT_STATES, budget),
                &stop,
            )?;
            (format!("{board_name}, start {}, {policy} random play", board.hole_name(hole)), chain, None)
        } else if self.race {
            let rules = pegchain::race::Rules::default_game();
            let setup = pegchain::race::Setup::new(12, 7, 1)?;
            (
                "the swine and the butcher (seed 004), length 12, swine 7, butcher 1".to_string(),
                pegchain::race::explicit::chain(&rules, &setup)?,
                None,
            )
        } else {
            return Err(Error::Invalid(
                "say which chain to write: --game NAME, --board B --start H, or --race".into(),
            ));
        };
        let what_brief = brief.unwrap_or_else(|| what.clone());
        Ok(ExportRequest {
            what,
            what_brief,
            chain,
            reward,
            drn: self.drn.clone(),
            prism: self.prism.clone(),
            output,
        })
    }
}

/// A position to coach, on its board.
pub struct CoachRequest {
    pub board: pegchain::Board,
    pub position: pegchain::solitaire::Pegs,
    pub policy: pegchain::Policy,
    pub output: Output,
    pub quiet: bool,
}

impl super::args::CoachArgs {
    pub fn validate(&self) -> Result<CoachRequest, Error> {
        use pegchain::solitaire::position;
        let board = pegchain::solitaire::load_board(&self.board.board)?;
        let policy: pegchain::Policy = self.policy.parse().map_err(Error::Invalid)?;
        let position = match (&self.start, &self.position) {
            (Some(start), None) => {
                let hole = super::validate::one_start_hole(&board, start)?;
                position::play(&board, hole, self.moves.as_deref().unwrap_or(""))?
            }
            (None, Some(text)) => position::parse_position(&board, text)?,
            _ => {
                return Err(Error::Invalid(
                    "say which position: --start H [--moves ...] or --position P".into(),
                ));
            }
        };
        Ok(CoachRequest { board, position, policy, output: self.output.validate(), quiet: self.quiet })
    }
}
