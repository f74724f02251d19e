//! Small classic chains with known answers: the gambler's ruin, the Knuth-Yao die made of
//! fair coin flips, and the pass line of craps.

use crate::engine::error::shortened_fraction;
use crate::engine::explicit::linear::MAX_COMPONENT_STATES;
use crate::engine::explicit::{Builder, ChainError, ExplicitChain};
use crate::error::Error;
use crate::render::number::grouped;
use rug::Rational;

/// The largest goal of a gambler's ruin built (a state per unit of money), as an export
/// writes it.
pub const MAX_GOAL: u64 = 1_000_000;

/// The largest goal of a gambler's ruin solved exactly: its goal - 1 states between ruin and
/// the goal all reach one another, one component for the exact solver to factor.
pub const MAX_SOLVED_GOAL: u64 = MAX_COMPONENT_STATES as u64 + 1;

fn q(n: u64, d: u64) -> Rational {
    Rational::from((n, d))
}

fn malformed(e: ChainError) -> Error {
    Error::Invalid(format!("the game's chain is malformed: {e}"))
}

/// A gambler with `stake` bets one unit a round, winning it with probability `p`, until they
/// hold `goal` (label `win`) or nothing (label `ruin`), either labelled `over`; reward
/// `rounds`. `solved`: the chain is to be solved exactly, so its goal is at most
/// [`MAX_SOLVED_GOAL`] (else [`MAX_GOAL`]), refused before it is built.
pub fn gamblers_ruin(stake: u64, goal: u64, p: &Rational, solved: bool) -> Result<ExplicitChain, Error> {
    let most = if solved { MAX_SOLVED_GOAL } else { MAX_GOAL };
    if !(2..=most).contains(&goal) {
        let why = if solved && goal > most {
            format!(
                ": the states between ruin and the goal all reach one another, and the exact solver \
                 factors at most {} such states",
                grouped(MAX_COMPONENT_STATES)
            )
        } else {
            String::new()
        };
        return Err(Error::Invalid(format!("the goal must be from 2 to {most}, not {goal}{why}")));
    }
    if stake == 0 || stake >= goal {
        return Err(Error::Invalid(format!(
            "the stake must be strictly between 0 and the goal {goal}, not {stake}"
        )));
    }
    if *p <= 0 || *p >= 1 {
        return Err(Error::Invalid(format!(
            "the probability of winning a round must be strictly between 0 and 1, not {}",
            shortened_fraction(p)
        )));
    }
    let lose = Rational::from(1) - p;
    let mut b = Builder::new(goal + 1).map_err(malformed)?;
    b.declare_reward("rounds");
    b.absorbing(0).map_err(malformed)?;
    b.absorbing(goal).map_err(malformed)?;
    b.label("ruin", 0).map_err(malformed)?;
    b.label("win", goal).map_err(malformed)?;
    b.label("over", 0).map_err(malformed)?;
    b.label("over", goal).map_err(malformed)?;
    for i in 1..goal {
        b.row(i, [(i + 1, p.clone()), (i - 1, lose.clone())]).map_err(malformed)?;
        b.state_reward("rounds", i, q(1, 1)).map_err(malformed)?;
    }
    b.initial(stake).map_err(malformed)?;
    b.finish().map_err(malformed)
}

/// The die of Knuth and Yao: fair coin flips walk a small tree with two back-edges until a
/// face comes up (labels `one` .. `six`), reward `flips`. States 0-6 are the tree's nodes as
/// in PRISM's case study, 7-12 the faces.
pub fn knuth_yao() -> ExplicitChain {
    let half = || q(1, 2);
    let rows: [(u64, u64); 7] = [(1, 2), (3, 4), (5, 6), (1, 7), (8, 9), (10, 11), (2, 12)];
    let mut b = Builder::new(13).expect("13 states");
    b.declare_reward("flips");
    for (s, (a, c)) in rows.into_iter().enumerate() {
        b.row(s as u64, [(a, half()), (c, half())]).expect("a fair flip");
        b.state_reward("flips", s as u64, q(1, 1)).expect("a state");
    }
    for (i, face) in ["one", "two", "three", "four", "five", "six"].iter().enumerate() {
        let s = 7 + i as u64;
        b.absorbing(s).expect("a state");
        b.label(face, s).expect("a state");
        b.label("done", s).expect("a state");
    }
    b.initial(0).expect("a state");
    b.finish().expect("the die's rows sum to one")
}

/// The pass line of craps: the come-out roll of two dice wins on 7 or 11, loses on 2, 3 or
/// 12, and otherwise sets a point; then the dice roll until the point (win) or a 7 (lose).
/// Labels `win`, `lose` and `over` (either); reward `rolls`. States: 0 the come-out, 1-6 the points 4, 5, 6, 8,
/// 9, 10, then 7 win, 8 lose.
pub fn craps() -> ExplicitChain {
    let ways = |sum: u64| 6 - (sum as i64 - 7).unsigned_abs();
    let points = [4u64, 5, 6, 8, 9, 10];
    let (win, lose) = (7u64, 8u64);
    let mut b = Builder::new(9).expect("9 states");
    b.declare_reward("rolls");
    let mut come_out = vec![(win, q(ways(7) + ways(11), 36)), (lose, q(ways(2) + ways(3) + ways(12), 36))];
    for (i, &p) in points.iter().enumerate() {
        come_out.push((1 + i as u64, q(ways(p), 36)));
        let stay = 36 - ways(p) - ways(7);
        b.row(1 + i as u64, [(win, q(ways(p), 36)), (lose, q(ways(7), 36)), (1 + i as u64, q(stay, 36))])
            .expect("a point");
        b.state_reward("rolls", 1 + i as u64, q(1, 1)).expect("a state");
    }
    b.row(0, come_out).expect("the come-out roll");
    b.state_reward("rolls", 0, q(1, 1)).expect("a state");
    b.absorbing(win).expect("a state");
    b.absorbing(lose).expect("a state");
    b.label("win", win).expect("a state");
    b.label("lose", lose).expect("a state");
    b.label("over", win).expect("a state");
    b.label("over", lose).expect("a state");
    b.initial(0).expect("a state");
    b.finish().expect("the dice's rows sum to one")
}
