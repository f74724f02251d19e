//! Games built on explicit chains, each a small module that builds its chain: board games
//! of the Chutes and Ladders kind (from a rules file), the gambler's ruin, the Knuth-Yao die
//! and the pass line of craps. The registry names them and says what each asks by default.

pub mod board;
pub mod classic;
pub mod herman;

use crate::Cancel;
use crate::engine::explicit::ExplicitChain;
use crate::error::Error;
use crate::render::number::{abbreviated, quoted};
use crate::render::values::FRACTION_CHARS;
use board::BoardRules;
use rug::Rational;

/// A built-in game: its name and a line saying what it is.
pub const GAMES: [(&str, &str); 6] = [
    (
        "chutes-and-ladders",
        "the Milton Bradley board: how long a game lasts, and who wins with 2 to 4 players",
    ),
    ("board", "a board game of your own from a rules file (squares, spinner, ladders, chutes)"),
    ("gamblers-ruin", "a gambler bets one unit a round until reaching the goal or ruin"),
    ("knuth-yao", "the die of Knuth and Yao: a fair die from fair coin flips"),
    ("craps", "the pass line of craps"),
    ("herman", "Herman's self-stabilising ring of the PRISM benchmarks: steps until one token is left"),
];

/// A setting of [`GameParams`] that only some games take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Players,
    Rules,
    Stake,
    Goal,
    P,
    Processes,
}

/// The settings game `name` takes, or `None` for a name that is no game: a caller can refuse
/// a setting the game would ignore.
pub fn settings_of(name: &str) -> Option<&'static [Setting]> {
    match name {
        "chutes-and-ladders" => Some(&[Setting::Players]),
        "board" => Some(&[Setting::Players, Setting::Rules]),
        "gamblers-ruin" => Some(&[Setting::Stake, Setting::Goal, Setting::P]),
        "herman" => Some(&[Setting::Processes]),
        _ => GAMES.iter().any(|g| g.0 == name).then_some(&[]),
    }
}

/// The settings a game may take; the CLI fills in what the user gave.
#[derive(Clone, Debug)]
pub struct GameParams {
    pub players: u32,
    /// A board game's rules file text (for `board`).
    pub rules: Option<String>,
    pub stake: u64,
    pub goal: u64,
    pub p: Rational,
    /// Processes in Herman's ring.
    pub processes: u32,
    /// The largest product chain built for several players.
    pub max_states: u64,
    /// Build the chain however large, as an export wants it: the players' product chain up
    /// to `max_states`, the gambler's ruin to its largest goal. Otherwise the chain is to be
    /// solved exactly: players whose product chain is too large race on the one-player chain,
    /// and a gambler's ruin too large is refused before it is built.
    pub whole_chain: bool,
    /// Stops the building of a large chain (Herman's ring of 15 takes seconds).
    pub cancel: Cancel,
    /// The memory budget in bytes, if any: a chain planned past it is refused before it is
    /// built (see [`crate::formats::check_size`]).
    pub memory_budget: Option<u64>,
}

impl Default for GameParams {
    fn default() -> Self {
        GameParams {
            players: 1,
            rules: None,
            stake: 5,
            goal: 10,
            p: Rational::from((1, 2)),
            processes: 11,
            max_states: 2_000_000,
            whole_chain: false,
            cancel: Cancel::new(),
            memory_budget: None,
        }
    }
}

/// A game's chain and its default question.
pub struct Game {
    pub chain: ExplicitChain,
    /// What the game is, in a line (with its settings).
    pub description: String,
    /// The same with a long fraction among its settings abbreviated, for a title; None where
    /// the description has none.
    pub brief: Option<String>,
    /// The label to reach by default, and the reward to accumulate until then.
    pub target: Option<String>,
    pub reward: Option<String>,
    /// Whether to show where the chain ends beside the target's answers.
    pub ends: bool,
    /// Players racing on copies of the chain (see `chains::Race`), where their product chain
    /// is too large to solve exactly.
    pub race: Option<u32>,
}

/// A stop asked for while a chain is built, polled before every state (a state of Herman's
/// ring of 15 has up to 16,384 moves): `done` of `states` made so far.
fn stop_building(cancel: &Cancel, done: u64, states: u64) -> Result<(), Error> {
    if cancel.is_cancelled() {
        return Err(stopped_while("built", done, states));
    }
    Ok(())
}

/// The interruption of a chain being `built` or `checked`, `done` of `states` states in.
fn stopped_while(doing: &str, done: u64, states: u64) -> Error {
    let (done, states) = (crate::render::number::grouped(done), crate::render::number::grouped(states));
    Error::Interrupted { done: format!("the chain was being {doing}: {done} of {states} states") }
}

/// A built chain checked and finished (see [`crate::engine::explicit::Builder::finish_until`]):
/// a stop asked for meanwhile is an interruption, any other fault `malformed`.
fn finish_building(
    b: crate::engine::explicit::Builder,
    cancel: &Cancel,
    malformed: impl Fn(crate::engine::explicit::ChainError) -> Error,
) -> Result<ExplicitChain, Error> {
    b.finish_until(cancel).map_err(|e| match e {
        crate::engine::explicit::ChainError::Stopped { state, states } => {
            stopped_while("checked", state, states)
        }
        e => malformed(e),
    })
}

/// Builds the game `name` with `params`.
pub fn build(name: &str, params: &GameParams) -> Result<Game, Error> {
    match name {
        "chutes-and-ladders" | "board" => {
            if !(1..=4).contains(&params.players) {
                return Err(Error::Invalid(format!(
                    "a board game has 1 to 4 players (1 for the length of a game, 2 to 4 for who wins), not {}",
                    params.players
                )));
            }
            let text = match (name, &params.rules) {
                ("board", Some(text)) => text.as_str(),
                ("board", None) => return Err(Error::Invalid("the board game needs a rules file".into())),
                (_, Some(_)) => {
                    return Err(Error::Invalid(
                        "chutes-and-ladders is built in: use the game `board` for a rules file".into(),
                    ));
                }
                _ => board::CHUTES_AND_LADDERS,
            };
            let rules =
                BoardRules::parse(text).map_err(|why| Error::BadRules { file: "rules".into(), why })?;
            let what = if name == "board" { "a board game" } else { "Chutes and Ladders (Milton Bradley)" };
            if params.players == 1 {
                Ok(Game {
                    chain: board::one_player(&rules)?,
                    description: format!("{what}, one player"),
                    brief: None,
                    target: Some("finish".into()),
                    reward: Some("turns".into()),
                    ends: false,
                    race: None,
                })
            } else if !params.whole_chain
                && (2..=4).contains(&params.players)
                && board::players_states(&rules, params.players) > board::EXACT_PLAYERS_STATES as u128
            {
                // Too large to solve exactly: the players race on the one-player chain.
                Ok(Game {
                    chain: board::one_player(&rules)?,
                    description: format!(
                        "{what}, {} players taking turns, player 1 first: each walks the one-player chain",
                        params.players
                    ),
                    brief: None,
                    target: Some("finish".into()),
                    reward: Some("turns".into()),
                    ends: false,
                    race: Some(params.players),
                })
            } else {
                Ok(Game {
                    chain: board::players(&rules, params.players, params.max_states, &params.cancel)?,
                    description: format!("{what}, {} players taking turns, player 1 first", params.players),
                    brief: None,
                    target: None,
                    reward: None,
                    ends: true,
                    race: None,
                })
            }
        }
        "gamblers-ruin" => {
            let describe = |p: String| {
                format!(
                    "gambler's ruin: stake {}, goal {}, a round won with probability {p}",
                    params.stake, params.goal
                )
            };
            Ok(Game {
                chain: classic::gamblers_ruin(params.stake, params.goal, &params.p, !params.whole_chain)?,
                description: describe(params.p.to_string()),
                brief: Some(describe(abbreviated(&params.p, FRACTION_CHARS))),
                target: Some("over".into()),
                reward: Some("rounds".into()),
                ends: true,
                race: None,
            })
        }
        "knuth-yao" => Ok(Game {
            chain: classic::knuth_yao(),
            description: "the Knuth-Yao die from fair coin flips".into(),
            brief: None,
            target: Some("done".into()),
            reward: Some("flips".into()),
            ends: true,
            race: None,
        }),
        "craps" => Ok(Game {
            chain: classic::craps(),
            description: "craps, the pass line".into(),
            brief: None,
            target: Some("over".into()),
            reward: Some("rolls".into()),
            ends: true,
            race: None,
        }),
        "herman" => Ok(Game {
            chain: herman::ring(params.processes, params.memory_budget, &params.cancel)?,
            description: format!("Herman's self-stabilising ring of {} processes", params.processes),
            brief: None,
            target: Some("stable".into()),
            reward: Some("steps".into()),
            ends: false,
            race: None,
        }),
        _ => {
            let known: Vec<&str> = GAMES.iter().map(|g| g.0).collect();
            Err(Error::Invalid(format!("unknown game {}; the games are {}", quoted(name), known.join(", "))))
        }
    }
}
