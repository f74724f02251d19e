//! What the exact analyses return: each start's figures and positions, its class's, and the
//! reports of `exact` and `count`.

use super::Evaluation;
use crate::solitaire::chain::End;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::policy::Policy;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// Reachable positions of one start, per layer and in all.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Positions {
    /// Distinct positions, as a player would see them.
    pub raw: u64,
    /// Distinct positions up to the board's full symmetry group.
    pub up_to_symmetry: u64,
    /// (pegs, raw, up to symmetry) for every layer, most pegs first.
    pub by_layer: Vec<(u32, u64, u64)>,
}

/// What an end distribution of random play says.
#[derive(Clone, Debug)]
pub struct EndFigures {
    /// P(one peg left).
    pub win: Rational,
    pub pegs_left: BTreeMap<u32, Rational>,
    /// P(one peg left, in this hole) for every hole a win can finish in.
    pub finish: BTreeMap<u8, Rational>,
    pub expected_pegs_left: Rational,
}

impl EndFigures {
    pub(super) fn of(ends: &BTreeMap<End, Rational>) -> EndFigures {
        let mut pegs_left: BTreeMap<u32, Rational> = BTreeMap::new();
        let mut finish = BTreeMap::new();
        for (end, p) in ends {
            *pegs_left.entry(end.pegs()).or_default() += p;
            if let End::Finish(f) = end {
                finish.insert(*f, p.clone());
            }
        }
        let win = pegs_left.get(&1).cloned().unwrap_or_default();
        let expected_pegs_left = pegs_left_moment(pegs_left.iter().map(|(&n, p)| (n, p)), 1);
        EndFigures { win, pegs_left, finish, expected_pegs_left }
    }
}

/// E\[K^`power`\] of the pegs left K, given P(K = n) for each n: the expectation that
/// `exact` and the coach give, and the second moment whose variance measures a simulated mean.
pub fn pegs_left_moment<'a>(
    distribution: impl IntoIterator<Item = (u32, &'a Rational)>,
    power: u32,
) -> Rational {
    distribution.into_iter().map(|(n, p)| Rational::from(p * n.pow(power))).sum()
}

/// What the path counts by end say: complete games, by pegs left, and wins by finish hole.
#[derive(Clone, Debug)]
pub struct GameCounts {
    pub games: Integer,
    pub games_by_pegs_left: BTreeMap<u32, Integer>,
    pub wins_by_finish: BTreeMap<u8, Integer>,
}

impl GameCounts {
    pub(super) fn of(ends: &BTreeMap<End, Rational>) -> GameCounts {
        let mut games_by_pegs_left: BTreeMap<u32, Integer> = BTreeMap::new();
        let mut wins_by_finish = BTreeMap::new();
        for (end, count) in ends {
            let count = count.numer().clone();
            *games_by_pegs_left.entry(end.pegs()).or_default() += &count;
            if let End::Finish(f) = end {
                wins_by_finish.insert(*f, count);
            }
        }
        let games = games_by_pegs_left.values().sum();
        GameCounts { games, games_by_pegs_left, wins_by_finish }
    }
}

/// Random play from a position given by the user, exactly.
#[derive(Clone, Debug)]
pub struct PositionExact {
    pub policy: Policy,
    pub group_order: usize,
    pub position: Pegs,
    pub figures: EndFigures,
    pub positions: Positions,
}

/// Every game from a position given by the user, counted.
#[derive(Clone, Debug)]
pub struct PositionCount {
    pub group_order: usize,
    pub position: Pegs,
    pub counts: GameCounts,
    pub positions: Positions,
}

pub(super) trait HasHole {
    fn hole(&self) -> u8;
}

#[derive(Clone, Debug)]
pub struct StartExact {
    pub hole: u8,
    pub class: usize,
    pub win: Rational,
    pub pegs_left: BTreeMap<u32, Rational>,
    /// P(one peg left, in this hole) for every hole a win can finish in.
    pub finish: BTreeMap<u8, Rational>,
    pub expected_pegs_left: Rational,
    pub finish_in_start: Rational,
    pub positions: Positions,
}

impl StartExact {
    /// A start's figures from its end distribution.
    pub(super) fn of(hole: u8, class: usize, eval: Evaluation) -> StartExact {
        let EndFigures { win, pegs_left, finish, expected_pegs_left } = EndFigures::of(&eval.ends);
        let finish_in_start = finish.get(&hole).cloned().unwrap_or_default();
        StartExact {
            hole,
            class,
            win,
            pegs_left,
            finish,
            expected_pegs_left,
            finish_in_start,
            positions: eval.positions,
        }
    }
}

impl HasHole for StartExact {
    fn hole(&self) -> u8 {
        self.hole
    }
}

#[derive(Clone, Debug)]
pub struct StartCount {
    pub hole: u8,
    pub class: usize,
    pub games: Integer,
    pub games_by_pegs_left: BTreeMap<u32, Integer>,
    pub wins_by_finish: BTreeMap<u8, Integer>,
    pub positions: Positions,
}

impl StartCount {
    /// A start's counts from its path counts by end (whole numbers).
    pub(super) fn of(hole: u8, class: usize, eval: Evaluation) -> StartCount {
        let GameCounts { games, games_by_pegs_left, wins_by_finish } = GameCounts::of(&eval.ends);
        StartCount { hole, class, games, games_by_pegs_left, wins_by_finish, positions: eval.positions }
    }
}

impl HasHole for StartCount {
    fn hole(&self) -> u8 {
        self.hole
    }
}

/// A class of start holes with one value shared by all its members.
#[derive(Clone, Debug)]
pub struct ClassValue<V> {
    pub class: usize,
    pub holes: Vec<u8>,
    pub value: V,
}

#[derive(Clone, Debug)]
pub struct ExactReport {
    pub policy: Policy,
    pub group_order: usize,
    pub starts: Vec<StartExact>,
    /// Win probability per class met among the starts.
    pub classes: Vec<ClassValue<Rational>>,
    /// The average over every hole; present when every hole was evaluated.
    pub random_start: Option<Rational>,
}

#[derive(Clone, Debug)]
pub struct CountReport {
    pub group_order: usize,
    pub starts: Vec<StartCount>,
    /// Number of games per class met among the starts.
    pub classes: Vec<ClassValue<Integer>>,
}
