//! Toy chains that test the engine itself (stateright's habit): each is small enough to
//! answer by hand or by a closed form, and each leans on one part of the engine.
#![allow(dead_code)]

use pegchain_engine::{Chain, Ranked};

/// A gambler with `money` and `left` bets to go: each bet wins one unit with weight `up`,
/// loses one with weight `down`. Ruin (money 0) and the deadline (no bets left) absorb.
/// The rank is the bets left, so it falls with every bet. There is no upper target, so
/// the ruin times and the money at the deadline have closed forms (the hitting time
/// theorem and the reflection principle).
pub struct Gambler {
    pub up: u64,
    pub down: u64,
    pub bets: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Purse {
    pub money: u32,
    pub left: u32,
}

/// How a gambler's evening ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Evening {
    /// Ruined by bet number `0`.
    Ruined(u32),
    /// Still playing at the deadline, with this much money.
    Solvent(u32),
}

impl Gambler {
    pub fn end(&self, p: Purse) -> Evening {
        if p.money == 0 { Evening::Ruined(self.bets - p.left) } else { Evening::Solvent(p.money) }
    }
}

impl Chain for Gambler {
    type State = Purse;

    fn transitions(&self, p: Purse, out: &mut Vec<(Purse, u64)>) -> u64 {
        out.clear();
        if p.money == 0 || p.left == 0 {
            return 0;
        }
        let left = p.left - 1;
        out.push((Purse { money: p.money + 1, left }, self.up));
        out.push((Purse { money: p.money - 1, left }, self.down));
        self.up + self.down
    }
}

impl Ranked for Gambler {
    fn rank(&self, p: Purse) -> u32 {
        p.left
    }
}

/// A frog `n` stones from the bank jumps one stone (weight 1) or two (weight 2); from the
/// last stone a jump of two overshoots into the water. Moves skip a rank, so every stone
/// is reached from two layers and its bucket must be merged. States are stones + 1: the
/// bank is 1, the water 0.
pub struct Frog;

pub const BANK: u32 = 1;
pub const WATER: u32 = 0;

impl Chain for Frog {
    type State = u32;

    fn transitions(&self, s: u32, out: &mut Vec<(u32, u64)>) -> u64 {
        out.clear();
        if s <= BANK {
            return 0;
        }
        out.push((s - 1, 1));
        out.push((s - 2, 2));
        3
    }
}

impl Ranked for Frog {
    fn rank(&self, s: u32) -> u32 {
        s
    }
}

/// A small DAG drawn by hand, with a move (C to X) that skips a rank:
///
/// ```text
///            S                  S: A 1, B 1, C 2
///         /  |  \
///        A   B   C              A: D 1, E 1   B: E 1   C: E 1, F 1, X 1
///        |\  |  /|\
///        D  E    F  |           D: X 1   E: X 1, Y 2   F: Y 1
///         \ | \  |  |
///           X   Y   (X)
/// ```
pub struct Dag;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    S,
    A,
    B,
    C,
    D,
    E,
    F,
    X,
    Y,
}

impl Chain for Dag {
    type State = Node;

    fn transitions(&self, n: Node, out: &mut Vec<(Node, u64)>) -> u64 {
        use Node::*;
        out.clear();
        let moves: &[(Node, u64)] = match n {
            S => &[(A, 1), (B, 1), (C, 2)],
            A => &[(D, 1), (E, 1)],
            B => &[(E, 1)],
            C => &[(E, 1), (F, 1), (X, 1)],
            D => &[(X, 1)],
            E => &[(X, 1), (Y, 2)],
            F => &[(Y, 1)],
            X | Y => &[],
        };
        out.extend_from_slice(moves);
        moves.iter().map(|m| m.1).sum()
    }
}

impl Ranked for Dag {
    fn rank(&self, n: Node) -> u32 {
        use Node::*;
        match n {
            S => 3,
            A | B | C => 2,
            D | E | F => 1,
            X | Y => 0,
        }
    }
}

/// Four biased coins whose weights total four distinct primes just below 2^32: the layer of
/// coins has an lcm L of about 2^128, and each L / W of about 2^96, beyond one limb.
///
/// Start picks a coin (weight 1 each); coin i shows heads with weight i + 1 out of its
/// prime; heads ends Win 1 : Lose 2, tails ends Win 4 : Lose 3.
pub struct Coins;

pub const PRIMES: [u64; 4] = [4_294_967_291, 4_294_967_279, 4_294_967_231, 4_294_967_197];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Toss {
    Start,
    Coin(u8),
    Heads,
    Tails,
    Win,
    Lose,
}

impl Chain for Coins {
    type State = Toss;

    fn transitions(&self, t: Toss, out: &mut Vec<(Toss, u64)>) -> u64 {
        out.clear();
        match t {
            Toss::Start => {
                out.extend((0..4).map(|i| (Toss::Coin(i), 1)));
                4
            }
            Toss::Coin(i) => {
                let heads = i as u64 + 1;
                out.extend([(Toss::Heads, heads), (Toss::Tails, PRIMES[i as usize] - heads)]);
                PRIMES[i as usize]
            }
            Toss::Heads => {
                out.extend([(Toss::Win, 1), (Toss::Lose, 2)]);
                3
            }
            Toss::Tails => {
                out.extend([(Toss::Win, 4), (Toss::Lose, 3)]);
                7
            }
            Toss::Win | Toss::Lose => 0,
        }
    }
}

impl Ranked for Coins {
    fn rank(&self, t: Toss) -> u32 {
        match t {
            Toss::Start => 3,
            Toss::Coin(_) => 2,
            Toss::Heads | Toss::Tails => 1,
            Toss::Win | Toss::Lose => 0,
        }
    }
}

/// A chain of one step from state 1 to the absorbing states 0 and 2 (rank: 1 for state 1,
/// 0 for the others) whose moves and total are whatever the test says: for breaking the
/// contract on purpose.
pub struct OneStep {
    pub moves: Vec<(u8, u64)>,
    pub total: u64,
    /// The rank of state 2 (0 keeps the contract).
    pub rank_of_two: u32,
}

impl Chain for OneStep {
    type State = u8;

    fn transitions(&self, s: u8, out: &mut Vec<(u8, u64)>) -> u64 {
        out.clear();
        if s != 1 {
            return 0;
        }
        out.extend_from_slice(&self.moves);
        self.total
    }
}

impl Ranked for OneStep {
    fn rank(&self, s: u8) -> u32 {
        match s {
            1 => 1,
            2 => self.rank_of_two,
            _ => 0,
        }
    }
}
