//! The race as a chain for the generic engine.
//!
//! A state is where the swine and the butcher stand, and (when the length of the game is
//! wanted) how many moves have been made. Only faces that move someone are moves of the
//! chain: a face that moves nobody would be a move back to the same state, which the engine
//! forbids, and it changes nothing but the time taken, which `turns` adds back exactly.
//!
//! Every move advances someone, so squares still to travel, 2 * length - swine - butcher,
//! falls along every move. Positions past the end are cut back (the swine to the river, the
//! butcher to the swine), which keeps that rank from going negative and changes no outcome.

use super::rules::{Rules, Setup};
use crate::engine::{Chain, Ranked};

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Swine,
    Butcher,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Swine => "swine",
            Side::Butcher => "butcher",
        }
    }
}

/// A state of the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Spot {
    pub swine: u32,
    pub butcher: u32,
    /// Moves made so far (moves that shifted someone; always 0 when not counted).
    pub moves: u32,
}

impl Spot {
    pub fn start(setup: &Setup) -> Spot {
        Spot { swine: setup.swine, butcher: setup.butcher, moves: 0 }
    }

    /// Who has won, if the game is over. Reaching the river is checked first: a face that
    /// takes the swine to the river while the butcher passes it is a win for the swine (as
    /// in seed 004's recursion; the built-in die has no such face).
    pub fn winner(self, length: u32) -> Option<Side> {
        if self.swine >= length {
            Some(Side::Swine)
        } else if self.butcher >= self.swine {
            Some(Side::Butcher)
        } else {
            None
        }
    }
}

/// The race on a board of `length` squares under `rules`.
pub struct RaceChain {
    length: u32,
    /// The faces that move someone: (swine, butcher, weight).
    faces: Vec<(u32, u32, u64)>,
    total: u64,
    count_moves: bool,
}

impl RaceChain {
    /// With `count_moves`, states remember how many moves were made (for the length of the
    /// game); without, states that differ only in that merge (for probabilities alone).
    pub fn new(rules: &Rules, length: u32, count_moves: bool) -> RaceChain {
        let faces = rules.moving_faces();
        let total = faces.iter().map(|f| f.2).sum();
        RaceChain { length, faces, total, count_moves }
    }

    /// The winner of a finished game (the engine's absorbing class).
    pub fn winner(&self, spot: Spot) -> Side {
        spot.winner(self.length).expect("only finished games absorb")
    }

    fn step(&self, spot: Spot, (ds, db, _): (u32, u32, u64)) -> Spot {
        let swine = spot.swine.saturating_add(ds).min(self.length);
        let butcher = spot.butcher.saturating_add(db).min(swine);
        Spot { swine, butcher, moves: spot.moves + u32::from(self.count_moves) }
    }
}

impl Chain for RaceChain {
    type State = Spot;

    fn transitions(&self, spot: Spot, out: &mut Vec<(Spot, u64)>) -> u64 {
        out.clear();
        if spot.winner(self.length).is_some() {
            return 0;
        }
        out.extend(self.faces.iter().map(|&f| (self.step(spot, f), f.2)));
        self.total
    }
}

impl Ranked for RaceChain {
    fn rank(&self, spot: Spot) -> u32 {
        2 * self.length - spot.swine - spot.butcher
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_advance_someone_and_cut_back_past_the_end() {
        let rules = Rules::default_game();
        let chain = RaceChain::new(&rules, 12, true);
        let mut out = Vec::new();
        let total = chain.transitions(Spot { swine: 10, butcher: 6, moves: 2 }, &mut out);
        assert_eq!(total, 6);
        let next: Vec<(u32, u32, u32)> = out.iter().map(|(s, _)| (s.swine, s.butcher, s.moves)).collect();
        assert_eq!(next, [(11, 6, 3), (12, 6, 3), (12, 6, 3), (11, 7, 3), (10, 10, 3), (10, 10, 3)]);
        for (s, _) in &out {
            assert!(chain.rank(*s) < chain.rank(Spot { swine: 10, butcher: 6, moves: 2 }));
        }
        assert_eq!(chain.winner(out[1].0), Side::Swine);
        assert_eq!(chain.winner(out[4].0), Side::Butcher);
        assert_eq!(chain.transitions(out[4].0, &mut out), 0);
        assert!(out.is_empty());
    }

    #[test]
    fn reaching_the_river_beats_being_caught_on_the_same_roll() {
        let rules = Rules::from_json(
            r#"{"die": {"sides": 1, "faces": [{"face": 1, "swine": 1, "butcher": 9}]}}"#,
            "both.json",
        )
        .unwrap();
        let chain = RaceChain::new(&rules, 5, false);
        let mut out = Vec::new();
        chain.transitions(Spot { swine: 4, butcher: 1, moves: 0 }, &mut out);
        assert_eq!(out[0].0, Spot { swine: 5, butcher: 5, moves: 0 });
        assert_eq!(chain.winner(out[0].0), Side::Swine);
        chain.transitions(Spot { swine: 3, butcher: 1, moves: 0 }, &mut out);
        assert_eq!(chain.winner(out[0].0), Side::Butcher);
    }
}
