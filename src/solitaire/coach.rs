//! The coach: every legal jump from a position, with what it does to a random player's
//! exact odds (P(one peg left), expected pegs left), whether one peg can still be reached
//! with perfect play and in which holes, and how many move sequences still win.
//!
//! Positions are given as jumps played from a start (`F-C-A,D-E-F`, each checked) or as the
//! holes holding pegs. One memo over positions serves every jump (their futures overlap),
//! so a coach answer costs little more than one evaluation of the position.

use super::board::Board;
use super::moves::MoveTable;
use super::pegs::Pegs;
use super::policy::Policy;
use crate::error::Error;
use hashbrown::HashMap;
use rug::{Integer, Rational};
use std::rc::Rc;

/// Positions the coach keeps at most (each with its exact values): past it, a position has
/// too large a future to answer here.
pub const MAX_POSITIONS: usize = 500_000;

/// The position after `moves` (comma-separated jumps `FROM-OVER-TO` or `FROM-TO`, hole names
/// as the board names them) played from the full board less `start`.
pub fn play(board: &Board, start: u8, moves: &str) -> Result<Pegs, Error> {
    let table = MoveTable::new(board);
    let mut pos = board.full().without(start);
    for (n, text) in moves.split(',').map(str::trim).filter(|t| !t.is_empty()).enumerate() {
        let jump = find_jump(board, text)?;
        let index = table.jumps().iter().position(|j| *j == jump).expect("found among the board's jumps");
        if !table.is_legal(pos, index) {
            let why = if !pos.contains(jump.from) {
                format!("no peg in {}", board.hole_name(jump.from))
            } else if !pos.contains(jump.over) {
                format!("no peg in {} to jump over", board.hole_name(jump.over))
            } else {
                format!("{} is not empty", board.hole_name(jump.to))
            };
            return Err(Error::Invalid(format!("jump {} ({text}) is not legal here: {why}", n + 1)));
        }
        pos = table.apply(pos, index);
    }
    Ok(pos)
}

/// A jump named `FROM-OVER-TO` or `FROM-TO`.
fn find_jump(board: &Board, text: &str) -> Result<super::board::Jump, Error> {
    let parts: Vec<&str> = text.split('-').collect();
    let bad =
        || Error::Invalid(format!("{text:?} is not a jump: write FROM-OVER-TO or FROM-TO, such as F-C-A"));
    let holes: Vec<u8> = match parts.len() {
        2 | 3 => parts.iter().map(|p| board.find_hole(p)).collect::<Result<_, _>>()?,
        _ => return Err(bad()),
    };
    let (from, to) = (holes[0], *holes.last().expect("two or three holes"));
    board
        .jumps()
        .iter()
        .find(|j| j.from == from && j.to == to && (holes.len() == 2 || j.over == holes[1]))
        .copied()
        .ok_or_else(|| Error::Invalid(format!("{text} is not a jump of board {}", board.name())))
}

/// The pegs named in `text`: hole names separated by commas or spaces, or the board as
/// `show` draws a position (names for pegs, `.` for empty holes).
pub fn parse_position(board: &Board, text: &str) -> Result<Pegs, Error> {
    let mut pos = Pegs::EMPTY;
    for token in text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty() && *t != ".") {
        let hole = board.find_hole(token)?;
        if pos.contains(hole) {
            return Err(Error::Invalid(format!("the position names hole {} twice", board.hole_name(hole))));
        }
        pos = pos.with(hole);
    }
    if pos.is_empty() {
        return Err(Error::Invalid("the position has no peg".into()));
    }
    Ok(pos)
}

/// What random play from a position leads to, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// P(one peg left).
    pub one_peg: Rational,
    pub expected_pegs_left: Rational,
    /// P(n pegs left), n ascending, zeros left out.
    pub pegs_left: Vec<(u32, Rational)>,
}

/// What perfect play from a position can still do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prospects {
    /// Move sequences that end with one peg, by the hole it ends in (ascending).
    pub wins_by_hole: Vec<(u8, Integer)>,
}

impl Prospects {
    pub fn winnable(&self) -> bool {
        !self.wins_by_hole.is_empty()
    }

    pub fn winning_continuations(&self) -> Integer {
        self.wins_by_hole.iter().map(|(_, n)| n).sum()
    }
}

/// One legal jump and what follows it.
#[derive(Clone, Debug, PartialEq)]
pub struct JumpAdvice {
    pub from: u8,
    pub over: u8,
    pub to: u8,
    pub odds: Odds,
    pub prospects: Prospects,
}

/// The coach's answer for a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    pub position: Pegs,
    pub odds: Odds,
    pub prospects: Prospects,
    pub jumps: Vec<JumpAdvice>,
    /// The jump with the best P(one peg) for a random player (the first of equals), if any.
    pub best: Option<usize>,
}

/// Exact values of positions, remembered across the jumps of one answer.
pub struct Coach<'a> {
    board: &'a Board,
    moves: MoveTable,
    policy: Policy,
    odds: HashMap<Pegs, Rc<Distribution>>,
    wins: HashMap<Pegs, Rc<Vec<(u8, Integer)>>>,
}

/// P(n pegs left) for each n (index n), exactly.
type Distribution = Vec<Rational>;

impl<'a> Coach<'a> {
    pub fn new(board: &'a Board, policy: Policy) -> Coach<'a> {
        Coach { board, moves: MoveTable::new(board), policy, odds: HashMap::new(), wins: HashMap::new() }
    }

    /// Every legal jump from `pos` with its odds and prospects.
    pub fn advise(&mut self, pos: Pegs) -> Result<Advice, Error> {
        let pos = pos & self.board.full();
        let legal: Vec<usize> = self.moves.legal(pos).collect();
        let mut jumps = Vec::with_capacity(legal.len());
        for &j in &legal {
            let child = self.moves.apply(pos, j);
            let jump = self.moves.jumps()[j];
            jumps.push(JumpAdvice {
                from: jump.from,
                over: jump.over,
                to: jump.to,
                odds: self.odds_of(child)?,
                prospects: self.prospects_of(child)?,
            });
        }
        let best = (0..jumps.len()).fold(None, |best: Option<usize>, i| match best {
            Some(b) if jumps[b].odds.one_peg >= jumps[i].odds.one_peg => Some(b),
            _ => Some(i),
        });
        Ok(Advice {
            position: pos,
            odds: self.odds_of(pos)?,
            prospects: self.prospects_of(pos)?,
            jumps,
            best,
        })
    }

    pub fn odds_of(&mut self, pos: Pegs) -> Result<Odds, Error> {
        let d = self.distribution(pos)?;
        let pegs_left: Vec<(u32, Rational)> =
            d.iter().enumerate().filter(|(_, p)| **p != 0).map(|(n, p)| (n as u32, p.clone())).collect();
        let expected_pegs_left = pegs_left.iter().map(|(n, p)| Rational::from(p * *n)).sum();
        let one_peg = d.get(1).cloned().unwrap_or_default();
        Ok(Odds { one_peg, expected_pegs_left, pegs_left })
    }

    pub fn prospects_of(&mut self, pos: Pegs) -> Result<Prospects, Error> {
        Ok(Prospects { wins_by_hole: self.wins(pos)?.as_ref().clone() })
    }

    fn too_many(&self) -> Error {
        Error::Invalid(format!(
            "this position's future holds more than {MAX_POSITIONS} positions: too many for the coach (use exact from a start)"
        ))
    }

    /// P(n pegs left) under random play from `pos`: the weighted average over its jumps.
    fn distribution(&mut self, pos: Pegs) -> Result<Rc<Distribution>, Error> {
        if let Some(d) = self.odds.get(&pos) {
            return Ok(d.clone());
        }
        if self.odds.len() >= MAX_POSITIONS {
            return Err(self.too_many());
        }
        let legal: Vec<usize> = self.moves.legal(pos).collect();
        let n = pos.count() as usize;
        let mut d = vec![Rational::new(); n + 1];
        if legal.is_empty() {
            d[n] = Rational::from(1);
        } else {
            let mut weights = Vec::new();
            let total = self.policy.weights(self.moves.jumps(), &legal, &mut weights);
            for (&j, &w) in legal.iter().zip(&weights) {
                let child = self.distribution(self.moves.apply(pos, j))?;
                let share = Rational::from((w, total));
                for (k, p) in child.iter().enumerate() {
                    if *p != 0 {
                        d[k] += Rational::from(p * &share);
                    }
                }
            }
        }
        let d = Rc::new(d);
        self.odds.insert(pos, d.clone());
        Ok(d)
    }

    /// Move sequences from `pos` that end with one peg, by its hole.
    fn wins(&mut self, pos: Pegs) -> Result<Rc<Vec<(u8, Integer)>>, Error> {
        if let Some(w) = self.wins.get(&pos) {
            return Ok(w.clone());
        }
        if self.wins.len() >= MAX_POSITIONS {
            return Err(self.too_many());
        }
        let mut by_hole: Vec<(u8, Integer)> = Vec::new();
        if let Some(hole) = pos.single_hole() {
            by_hole.push((hole, Integer::from(1)));
        } else {
            let legal: Vec<usize> = self.moves.legal(pos).collect();
            for j in legal {
                for (hole, n) in self.wins(self.moves.apply(pos, j))?.iter() {
                    match by_hole.binary_search_by_key(hole, |e| e.0) {
                        Ok(i) => by_hole[i].1 += n,
                        Err(i) => by_hole.insert(i, (*hole, n.clone())),
                    }
                }
            }
        }
        let w = Rc::new(by_hole);
        self.wins.insert(pos, w.clone());
        Ok(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;

    #[test]
    fn moves_are_played_and_checked() {
        let b = builtin("triangle5").unwrap();
        let pos = play(&b, 0, "F-C-A, D-E-F").unwrap();
        assert_eq!(b.hole_list(b.full() ^ pos), vec!["C", "D", "E"]);
        assert_eq!(play(&b, 0, "F-A").unwrap(), play(&b, 0, "F-C-A").unwrap());
        let e = play(&b, 0, "F-C-A,F-C-A").unwrap_err().to_string();
        assert_eq!(e, "jump 2 (F-C-A) is not legal here: no peg in F");
        let e = play(&b, 0, "A-B-D").unwrap_err().to_string();
        assert_eq!(e, "jump 1 (A-B-D) is not legal here: no peg in A");
        let e = play(&b, 0, "D-B-A,F-C-A").unwrap_err().to_string();
        assert_eq!(e, "jump 2 (F-C-A) is not legal here: A is not empty");
        assert!(play(&b, 0, "A-B").unwrap_err().to_string().contains("not a jump of board triangle5"));
        assert!(play(&b, 0, "F").unwrap_err().to_string().contains("write FROM-OVER-TO"));
    }

    #[test]
    fn positions_are_read_as_lists_or_drawings() {
        let b = builtin("triangle5").unwrap();
        let drawn = b.draw_position(play(&b, 0, "F-C-A").unwrap());
        assert_eq!(parse_position(&b, &drawn).unwrap(), play(&b, 0, "F-C-A").unwrap());
        assert_eq!(parse_position(&b, "A, B").unwrap(), Pegs::single(0).with(1));
        assert!(parse_position(&b, "A,A").is_err());
        assert!(parse_position(&b, "Z9").is_err());
        assert!(parse_position(&b, " . ").is_err());
    }
}
