//! Board games of the Chutes and Ladders kind, from a rules file a teacher can write by
//! hand, as explicit chains: for one player (how long the game lasts) and for several
//! (who wins: a product chain of every player's square and whose turn it is).
//!
//! ```text
//! # comments
//! squares 100        the goal square; players start on square 0, off the board
//! spinner 1-6        a fair spinner (or: die 1 1 2 ..., the weights of faces 1, 2, 3, ...)
//! overshoot stay     a move past the goal: stay, bounce (back from the goal), or finish
//! ladder 1 38        a jump up
//! chute 16 6         a jump down
//! ```

use crate::engine::explicit::{Builder, ExplicitChain};
use crate::error::Error;
use crate::render::number::{grouped, plural, quoted};
use rug::Rational;
use std::collections::BTreeMap;
use std::num::IntErrorKind;

/// The Milton Bradley board, built in.
pub const CHUTES_AND_LADDERS: &str = include_str!("../../data/games/chutes-and-ladders.txt");

/// More squares than any printed board; keeps the product chains within reach.
pub const MAX_SQUARES: u32 = 10_000;
/// More faces than any spinner.
pub const MAX_FACES: usize = 1_000;

/// What a move past the goal does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overshoot {
    /// The player stays where they were.
    Stay,
    /// The player goes back from the goal by the squares left over.
    Bounce,
    /// Any move that reaches or passes the goal wins.
    Finish,
}

/// A board game's rules, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRules {
    pub squares: u32,
    /// (face, weight): faces 1, 2, ... with integer weights.
    pub faces: Vec<(u32, u64)>,
    pub overshoot: Overshoot,
    /// Jump from -> to (ladders and chutes).
    pub jumps: BTreeMap<u32, u32>,
}

/// How a line of the rules is written, by its first word; `None` for no such word.
fn form(word: &str) -> Option<&'static str> {
    Some(match word {
        "squares" => "`squares N`, the goal square",
        "spinner" => "`spinner 1-N`",
        "die" => "`die W1 W2 ...`, a weight for each face",
        "overshoot" => "`overshoot stay`, `bounce` or `finish`",
        "ladder" => "`ladder FROM TO`",
        "chute" => "`chute FROM TO`",
        _ => return None,
    })
}

impl BoardRules {
    /// Parses a rules file; every refusal names its line.
    pub fn parse(text: &str) -> Result<BoardRules, String> {
        let mut squares = None;
        let mut faces = None;
        let mut overshoot = None;
        let mut jumps: BTreeMap<u32, (u32, usize)> = BTreeMap::new();
        // The line each setting was given on: a second one is refused, not let override it.
        let mut given: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            // Digits past a u32 are a square past any board, not "not a square number".
            let number = |w: &str| match w.parse::<u32>() {
                Err(e) if *e.kind() == IntErrorKind::PosOverflow => Err(format!(
                    "line {n}: square {} is past any board: squares run up to {MAX_SQUARES}",
                    quoted(w)
                )),
                parsed => parsed.map_err(|_| format!("line {n}: not a square number: {}", quoted(w))),
            };
            let setting = match words[0] {
                "squares" => Some("the goal square (`squares`)"),
                "spinner" | "die" => Some("the spinner or die"),
                "overshoot" => Some("the overshoot rule"),
                _ => None,
            };
            if let Some(what) = setting
                && let Some(first) = given.insert(what, n)
            {
                return Err(format!("line {n}: {what} is already given on line {first}"));
            }
            match words[0] {
                "squares" if words.len() == 2 => {
                    let out_of_range =
                        |s: String| format!("line {n}: squares must be from 1 to {MAX_SQUARES}, not {s}");
                    // Digits past a u32 are squares too many, not "not a square number".
                    let s = match words[1].parse::<u32>() {
                        Err(e) if *e.kind() == IntErrorKind::PosOverflow => {
                            return Err(out_of_range(quoted(words[1])));
                        }
                        _ => number(words[1])?,
                    };
                    if !(1..=MAX_SQUARES).contains(&s) {
                        return Err(out_of_range(s.to_string()));
                    }
                    squares = Some(s);
                }
                "spinner" if words.len() == 2 => {
                    let malformed = || format!("line {n}: expected `spinner 1-6`, found {}", quoted(line));
                    // Digits past a u32 are faces too many, not a malformed line.
                    let face = |w: &str| match w.parse::<u32>() {
                        Err(e) if *e.kind() == IntErrorKind::PosOverflow => Ok(u32::MAX),
                        parsed => parsed.map_err(|_| malformed()),
                    };
                    let (a, b) = words[1].split_once('-').ok_or_else(malformed)?;
                    let (a, b) = (face(a)?, face(b)?);
                    if a != 1 || b < 1 || b as usize > MAX_FACES {
                        return Err(format!(
                            "line {n}: a spinner runs from 1 to at most {MAX_FACES}: `spinner 1-6`"
                        ));
                    }
                    faces = Some((1..=b).map(|f| (f, 1)).collect::<Vec<_>>());
                }
                "die" if words.len() >= 2 => {
                    if words.len() - 1 > MAX_FACES {
                        return Err(format!("line {n}: more than {MAX_FACES} faces"));
                    }
                    let weights: Result<Vec<u64>, String> = words[1..]
                        .iter()
                        .map(|w| {
                            w.parse::<u64>().ok().filter(|&x| x <= u32::MAX as u64).ok_or_else(|| {
                                format!(
                                    "line {n}: a face weight is a whole number from 0 to {}, not {}",
                                    u32::MAX,
                                    quoted(w)
                                )
                            })
                        })
                        .collect();
                    let weights = weights?;
                    if weights.iter().all(|&w| w == 0) {
                        return Err(format!("line {n}: every face has weight 0"));
                    }
                    faces = Some(
                        weights
                            .iter()
                            .enumerate()
                            .filter(|(_, w)| **w > 0)
                            .map(|(i, w)| (i as u32 + 1, *w))
                            .collect(),
                    );
                }
                "overshoot" if words.len() == 2 => {
                    overshoot = Some(match words[1] {
                        "stay" => Overshoot::Stay,
                        "bounce" => Overshoot::Bounce,
                        "finish" => Overshoot::Finish,
                        other => {
                            return Err(format!(
                                "line {n}: overshoot is stay, bounce or finish, not {}",
                                quoted(other)
                            ));
                        }
                    });
                }
                kind @ ("ladder" | "chute") if words.len() == 3 => {
                    let (from, to) = (number(words[1])?, number(words[2])?);
                    if (kind == "ladder") != (to > from) || from == to {
                        return Err(format!(
                            "line {n}: a {kind} goes {} ({from} to {to})",
                            if kind == "ladder" { "up" } else { "down" }
                        ));
                    }
                    if let Some((_, first)) = jumps.insert(from, (to, n)) {
                        return Err(format!("line {n}: square {from} already has a jump (line {first})"));
                    }
                }
                word => {
                    return Err(match form(word) {
                        Some(form) => format!("line {n}: expected {form}, found {}", quoted(line)),
                        None => format!(
                            "line {n}: expected squares, spinner, die, overshoot, ladder or chute, found {} with {}",
                            quoted(word),
                            plural(words.len() as u64 - 1, "value", "values")
                        ),
                    });
                }
            }
        }
        let squares = squares.ok_or("no `squares` line")?;
        let faces = faces.ok_or("no `spinner` or `die` line")?;
        for (&from, &(to, n)) in &jumps {
            if from == 0 || from >= squares || to > squares {
                return Err(format!(
                    "line {n}: a jump must start on a square from 1 to {} and end on the board, not {from} to {to}",
                    squares - 1
                ));
            }
        }
        let jumps: BTreeMap<u32, u32> = jumps.into_iter().map(|(from, (to, _))| (from, to)).collect();
        // Jumps that lead onto jumps are followed; a loop of them would never end.
        for &from in jumps.keys() {
            let mut at = from;
            for _ in 0..=jumps.len() {
                match jumps.get(&at) {
                    Some(&to) => at = to,
                    None => break,
                }
            }
            if jumps.contains_key(&at) {
                return Err(format!("the jumps from square {from} lead round in a loop"));
            }
        }
        Ok(BoardRules { squares, faces, overshoot: overshoot.unwrap_or(Overshoot::Stay), jumps })
    }

    /// Where a spin of `face` from `square` leaves a player.
    pub fn land(&self, square: u32, face: u32) -> u32 {
        let goal = self.squares;
        let mut at = square + face;
        if at > goal {
            at = match self.overshoot {
                Overshoot::Stay => return square,
                Overshoot::Bounce => goal - (at - goal).min(goal),
                Overshoot::Finish => goal,
            };
        }
        while let Some(&to) = self.jumps.get(&at) {
            at = to;
        }
        at
    }

    fn total_weight(&self) -> u64 {
        self.faces.iter().map(|f| f.1).sum()
    }

    /// The squares a player can rest on, from square 0, in increasing order.
    pub fn rest_squares(&self) -> Vec<u32> {
        let mut seen = vec![false; self.squares as usize + 1];
        let mut stack = vec![0u32];
        seen[0] = true;
        while let Some(s) = stack.pop() {
            if s == self.squares {
                continue;
            }
            for &(f, _) in &self.faces {
                let t = self.land(s, f);
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    stack.push(t);
                }
            }
        }
        (0..=self.squares).filter(|&s| seen[s as usize]).collect()
    }
}

/// One player alone: a state per square they can rest on, one step per spin, the label
/// `finish` on the goal, the reward `turns` (1 per spin). A spin that leaves the player in
/// place is a move back to the same state.
pub fn one_player(rules: &BoardRules) -> Result<ExplicitChain, Error> {
    let squares = rules.rest_squares();
    let index = |s: u32| squares.binary_search(&s).expect("a rest square") as u64;
    let total = rules.total_weight();
    let mut b = Builder::new(squares.len() as u64).map_err(chain_error)?;
    b.declare_reward("turns");
    // Declared even where no spin reaches the goal: the answer is then that it is never reached.
    b.declare_label("finish");
    for &s in &squares {
        let i = index(s);
        if s == rules.squares {
            b.absorbing(i).map_err(chain_error)?;
            b.label("finish", i).map_err(chain_error)?;
            continue;
        }
        let moves = rules.faces.iter().map(|&(f, w)| (index(rules.land(s, f)), Rational::from((w, total))));
        b.row(i, moves).map_err(chain_error)?;
        b.state_reward("turns", i, Rational::from(1)).map_err(chain_error)?;
    }
    b.initial(0).map_err(chain_error)?;
    b.finish().map_err(chain_error)
}

/// Product chains of at most this many states are solved exactly (their largest component
/// fits the exact solver's dense factorization); for more, the players race on the
/// one-player chain (`chains::Race`).
pub const EXACT_PLAYERS_STATES: usize = crate::engine::explicit::linear::MAX_COMPONENT_STATES;

/// The states of `players` players' product chain, for refusing one too large up front.
pub fn players_states(rules: &BoardRules, players: u32) -> u128 {
    let rest = rules.rest_squares().len() as u128 - 1;
    // Every player off the goal, whose turn it is; plus one won state per player.
    rest.pow(players) * players as u128 + players as u128
}

/// `players` players taking turns (player 1 first): a state per squares of every player and
/// whose turn it is; the first to reach the goal wins (labels `player1_wins`, ...,
/// absorbing), reward `turns` (1 per spin). Refused past `max_states` states; stops when
/// `cancel` is cancelled.
pub fn players(
    rules: &BoardRules,
    players: u32,
    max_states: u64,
    cancel: &crate::Cancel,
) -> Result<ExplicitChain, Error> {
    if !(2..=4).contains(&players) {
        return Err(Error::Invalid(format!("a game has 2 to 4 players, not {players}")));
    }
    let states = players_states(rules, players);
    if states > max_states as u128 {
        // Only a chain written out gets here (`game` races the players on the one-player chain
        // past `EXACT_PLAYERS_STATES`): simulating is no way out of an export.
        return Err(Error::Invalid(format!(
            "{players} players on this board make a chain of {} states, more than the {} a chain built here may \
             have (`game` answers who wins from the one-player chain)",
            grouped(states),
            grouped(max_states)
        )));
    }
    let rest: Vec<u32> = rules.rest_squares().into_iter().filter(|&s| s != rules.squares).collect();
    let r = rest.len() as u64;
    let k = players as u64;
    let index_of = |s: u32| rest.binary_search(&s).expect("a rest square") as u64;
    // State number: (turn, square of each player) in mixed radix; the won states follow.
    let playing = r.pow(players) * k;
    let won = |p: u64| playing + p;
    let total = rules.total_weight();
    let mut b = Builder::new(playing + k).map_err(chain_error)?;
    b.declare_reward("turns");
    let mut squares = vec![0u64; players as usize];
    for state in 0..playing {
        super::stop_building(cancel, state, playing)?;
        let turn = state % k;
        let mut rest_of = state / k;
        for sq in squares.iter_mut() {
            *sq = rest_of % r;
            rest_of /= r;
        }
        let encode =
            |squares: &[u64], turn: u64| squares.iter().rev().fold(0u64, |acc, &s| acc * r + s) * k + turn;
        let mover = turn as usize;
        let mut moves = Vec::with_capacity(rules.faces.len());
        for &(f, w) in &rules.faces {
            let to = rules.land(rest[squares[mover] as usize], f);
            let next = if to == rules.squares {
                won(turn)
            } else {
                let mut after = squares.clone();
                after[mover] = index_of(to);
                encode(&after, (turn + 1) % k)
            };
            moves.push((next, Rational::from((w, total))));
        }
        b.row(state, moves).map_err(chain_error)?;
        b.state_reward("turns", state, Rational::from(1)).map_err(chain_error)?;
    }
    for p in 0..k {
        b.absorbing(won(p)).map_err(chain_error)?;
        b.label(&format!("player{}_wins", p + 1), won(p)).map_err(chain_error)?;
    }
    // Everyone on square 0, player 1 to move.
    b.initial(0).map_err(chain_error)?;
    super::finish_building(b, cancel, chain_error)
}

fn chain_error(e: crate::engine::explicit::ChainError) -> Error {
    Error::Invalid(format!("the game's chain is malformed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_board_is_the_milton_bradley_board() {
        let rules = BoardRules::parse(CHUTES_AND_LADDERS).unwrap();
        assert_eq!(rules.squares, 100);
        assert_eq!(rules.faces, (1..=6).map(|f| (f, 1)).collect::<Vec<_>>());
        assert_eq!(rules.overshoot, Overshoot::Stay);
        let ladders =
            [(1, 38), (4, 14), (9, 31), (21, 42), (28, 84), (36, 44), (51, 67), (71, 91), (80, 100)];
        let chutes = [
            (16, 6),
            (47, 26),
            (49, 11),
            (56, 53),
            (62, 19),
            (64, 60),
            (87, 24),
            (93, 73),
            (95, 75),
            (98, 78),
        ];
        let expected: BTreeMap<u32, u32> = ladders.into_iter().chain(chutes).collect();
        assert_eq!(rules.jumps, expected);
        // 101 squares less the 19 feet of jumps; square 0 is a rest square.
        assert_eq!(rules.rest_squares().len(), 82);
        assert_eq!(rules.land(97, 6), 97);
        assert_eq!(rules.land(0, 1), 38);
        assert_eq!(rules.land(94, 4), 78);
    }

    #[test]
    fn one_player_rows_are_the_spinner() {
        let rules = BoardRules::parse(CHUTES_AND_LADDERS).unwrap();
        let chain = one_player(&rules).unwrap();
        assert_eq!(chain.states(), 82);
        let squares = rules.rest_squares();
        // From 99 only a 1 moves (to 100): stay with 5/6.
        let at = |s: u32| squares.binary_search(&s).unwrap() as u32;
        let row: Vec<(u32, Rational)> = chain.row(at(99)).map(|(t, p)| (t, p.clone())).collect();
        assert_eq!(row, vec![(at(99), Rational::from((5, 6))), (at(100), Rational::from((1, 6)))]);
    }

    #[test]
    fn two_players_make_a_product_chain() {
        let rules = BoardRules::parse("squares 4\nspinner 1-2\novershoot stay\nchute 3 1\n").unwrap();
        let go_on = crate::Cancel::new();
        let chain = players(&rules, 2, 1000, &go_on).unwrap();
        // Rest squares 0, 1, 2 (3 is a chute's foot): 3^2 * 2 + 2 states.
        assert_eq!(chain.states(), 20);
        assert_eq!(chain.label("player2_wins").unwrap(), &[19]);
        assert!(players(&rules, 5, 1000, &go_on).is_err());
        let big = BoardRules::parse(CHUTES_AND_LADDERS).unwrap();
        assert!(
            players(&big, 4, 1_000_000, &go_on)
                .unwrap_err()
                .to_string()
                .contains("more than the 1,000,000 a chain built here may have")
        );
    }

    #[test]
    fn bad_rules_name_their_line() {
        let cases = [
            ("squares 10\nspinner 1-6\nladder 5 3\n", "line 3: a ladder goes up (5 to 3)"),
            (
                "squares 10\nspinner 1-6\nchute 5 3\nladder 5 8\n",
                "line 4: square 5 already has a jump (line 3)",
            ),
            (
                "squares 10\nspinner 1-6\nladder 5 30\n",
                "line 3: a jump must start on a square from 1 to 9 and end on the board, not 5 to 30",
            ),
            ("squares 10\nspinner 2-6\n", "line 2: a spinner runs from 1 to at most 1000: `spinner 1-6`"),
            ("squares 10\ndie 0 0\n", "line 2: every face has weight 0"),
            (
                "squares 10\nspinner 1-6\novershoot maybe\n",
                "line 3: overshoot is stay, bounce or finish, not \"maybe\"",
            ),
            (
                "squares 10\nspinner 1-6\nsnake 5 3\n",
                "line 3: expected squares, spinner, die, overshoot, ladder or chute, found \"snake\" with 2 values",
            ),
            ("spinner 1-6\n", "no `squares` line"),
            ("squares 10\n", "no `spinner` or `die` line"),
            (
                "squares 10\nspinner 1-6\nladder 2 5\nchute 5 2\n",
                "the jumps from square 2 lead round in a loop",
            ),
            ("squares x\n", "line 1: not a square number: \"x\""),
            // More squares than a u32 holds are too many, as 100000 is, not "not a square number".
            ("squares 100000\n", "line 1: squares must be from 1 to 10000, not 100000"),
            ("squares 99999999999\n", "line 1: squares must be from 1 to 10000, not \"99999999999\""),
            // So is a ladder's or chute's square (it said "not a square number").
            (
                "squares 100\nspinner 1-6\nladder 3 99999999999\n",
                "line 3: square \"99999999999\" is past any board: squares run up to 10000",
            ),
            (
                "squares 100\nspinner 1-6\nchute 99999999999 3\n",
                "line 3: square \"99999999999\" is past any board: squares run up to 10000",
            ),
            // A known word with too few or too many values says how it is written.
            ("squares 10\ndie\n", "line 2: expected `die W1 W2 ...`, a weight for each face, found \"die\""),
            ("squares 10\nladder 5\n", "line 2: expected `ladder FROM TO`, found \"ladder 5\""),
            // A spinner of more faces than a u32 holds has too many faces, not a bad square.
            (
                "squares 10\nspinner 1-99999999999\n",
                "line 2: a spinner runs from 1 to at most 1000: `spinner 1-6`",
            ),
            ("squares 10\nspinner 1-x\n", "line 2: expected `spinner 1-6`, found \"spinner 1-x\""),
        ];
        for (text, message) in cases {
            assert_eq!(BoardRules::parse(text).unwrap_err(), message, "{text:?}");
        }
    }
}
