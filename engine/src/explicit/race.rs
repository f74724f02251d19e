//! A race of independent walkers: `n` players each walk their own copy of a chain from one
//! state, taking turns (player 1 first, one step a turn); the first to reach the target wins.
//!
//! The walkers never meet, so the product chain of their states (`states^n * n` states, with
//! cycles wherever the chain has them) is not needed: with T the steps one walker takes to the
//! target, f_k = P(T = k) and S_k = P(T > k), player i wins in round k with probability
//! f_k S_k^(i-1) S_(k-1)^(n-i) (the players before it have taken k steps, those after it k - 1).
//! Summed over the first K rounds this gives each player's chance exactly up to round K; the
//! mass left, S_K^n (every walker still out after K rounds), is the one thing not yet shared
//! out, so each chance lies between its sum and its sum plus S_K^n, both exact fractions. The
//! exact chances themselves are the product chain's, whose fractions grow with its size (4,335
//! digits for two players of Chutes and Ladders; for three, by the degree of the product
//! chain's determinant, up to some 400,000): the bounds close geometrically and cost K sweeps
//! of the one-walker chain.

use super::ExplicitChain;
use super::linear::SolveError;
use crate::Cancel;
use rug::ops::Pow;
use rug::{Integer, Rational};

/// Each player's chance of reaching the target first, between exact bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    pub players: u32,
    /// The state every player starts in.
    pub from: u32,
    /// Rounds summed (every player has taken this many steps, or finished).
    pub rounds: u32,
    /// Player i's chance of winning within the rounds summed: the lower bound of its chance.
    pub lower: Vec<Rational>,
    /// The probability that no player has reached the target after those rounds: each
    /// player's chance is at most its lower bound plus this.
    pub undecided: Rational,
    /// Why the summing stopped before `undecided` came within the gap asked, if it did.
    pub cut_short: Option<CutShort>,
}

/// What ended a race's summing before its bounds were as close as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutShort {
    /// The most rounds it sums.
    Rounds,
    /// The most bits its exact numbers carry: they grow by the players times the bits of the
    /// chain's common denominator every round, and each round's products cost more as they grow.
    Size,
}

/// The most a race sums: rounds, and bits of its common denominator (`d^(n k)` after `k`
/// rounds of `n` players).
#[derive(Clone, Copy, Debug)]
pub struct Most {
    pub rounds: u32,
    pub bits: u64,
}

/// Sums rounds of the race of `players` walkers of `chain` from `from` to `target` until no
/// more than `gap` is undecided, or until `most` rounds are summed or its numbers have grown
/// past `most` bits. Exact integer arithmetic over powers of the common denominator of the
/// chain's probabilities.
pub fn race(
    chain: &ExplicitChain,
    target: &[bool],
    from: u32,
    players: u32,
    gap: &Rational,
    most: Most,
    cancel: &Cancel,
) -> Result<Race, SolveError> {
    assert!(players >= 1, "a race has a player");
    let n = players as usize;
    let sweep = Sweep::new(chain, target);
    let d = &sweep.denominator;
    // Numerators over d^k after k steps: where a walker still out is, f_k and S_k.
    let mut at: Vec<Integer> = vec![Integer::new(); chain.states()];
    let mut out = Integer::from(1);
    if target[from as usize] {
        // Every walker starts at the target: the first player wins at once.
        let mut lower = vec![Rational::new(); n];
        lower[0] = Rational::from(1);
        return Ok(Race { players, from, rounds: 0, lower, undecided: Rational::new(), cut_short: None });
    }
    at[from as usize] = Integer::from(1);
    // Player i's wins over d^(n k), and the powers of d: d^n and d^(n - i) for i = 1..=n.
    let mut wins = vec![Integer::new(); n];
    let d_to: Vec<Integer> = (0..=n as u32).map(|e| Integer::from(d.pow(e))).collect();
    let mut all_rounds = Integer::from(1);
    let mut rounds = 0;
    loop {
        // Undecided: out^n / d^(n k), compared with the gap without reducing a fraction.
        let left = Integer::from((&out).pow(players));
        let cut_short = if Integer::from(&left * gap.denom()) <= Integer::from(gap.numer() * &all_rounds) {
            Some(None)
        } else if rounds >= most.rounds {
            Some(Some(CutShort::Rounds))
        } else if u64::from(all_rounds.significant_bits()) > most.bits {
            Some(Some(CutShort::Size))
        } else {
            None
        };
        if let Some(cut_short) = cut_short {
            let lower = wins.into_iter().map(|w| Rational::from((w, all_rounds.clone()))).collect();
            let undecided = Rational::from((left, all_rounds));
            return Ok(Race { players, from, rounds, lower, undecided, cut_short });
        }
        if cancel.is_cancelled() {
            return Err(SolveError::Cancelled);
        }
        let finished = sweep.step(&mut at);
        // S_k = S_(k-1) - f_k, over d^k.
        let now_out = Integer::from(&out * d) - &finished;
        let before = std::mem::replace(&mut out, now_out);
        // Powers 0..n of S_k and of S_(k-1).
        let powers = |s: &Integer| {
            let mut p = vec![Integer::from(1)];
            for e in 1..n {
                let next = Integer::from(&p[e - 1] * s);
                p.push(next);
            }
            p
        };
        let (now, then) = (powers(&out), powers(&before));
        for (i, w) in wins.iter_mut().enumerate() {
            // f_k S_k^i S_(k-1)^(n-1-i) over d^(k + k i + (k-1)(n-1-i)) = d^(n k - (n-1-i)).
            let term = Integer::from(&finished * &now[i]) * &then[n - 1 - i] * &d_to[n - 1 - i];
            *w *= &d_to[n];
            *w += term;
        }
        all_rounds *= &d_to[n];
        rounds += 1;
    }
}

/// One step of a walker: its probabilities as integers over one denominator.
struct Sweep {
    denominator: Integer,
    /// The moves out of each state not in the target: (to, weight), weights over the
    /// denominator.
    moves: Vec<Vec<(u32, Integer)>>,
    target: Vec<bool>,
}

impl Sweep {
    fn new(chain: &ExplicitChain, target: &[bool]) -> Sweep {
        let states = chain.states() as u32;
        let mut denominator = Integer::from(1);
        for s in (0..states).filter(|&s| !target[s as usize]) {
            for (_, p) in chain.row(s) {
                denominator.lcm_mut(p.denom());
            }
        }
        let moves = (0..states)
            .map(|s| match target[s as usize] {
                true => Vec::new(),
                false => chain
                    .row(s)
                    .map(|(t, p)| (t, Integer::from(&denominator / p.denom()) * p.numer()))
                    .collect(),
            })
            .collect();
        Sweep { denominator, moves, target: target.to_vec() }
    }

    /// Moves the walkers still out one step (`at`: numerators over d^k, then over d^(k+1)) and
    /// returns the numerator (over d^(k+1)) of those that reached the target in this step.
    fn step(&self, at: &mut [Integer]) -> Integer {
        let mut next = vec![Integer::new(); at.len()];
        let mut finished = Integer::new();
        for (s, mass) in at.iter().enumerate().filter(|(_, m)| **m != 0) {
            for (t, w) in &self.moves[s] {
                let arriving = Integer::from(mass * w);
                match self.target[*t as usize] {
                    true => finished += arriving,
                    false => next[*t as usize] += arriving,
                }
            }
        }
        at.iter_mut().zip(next).for_each(|(a, n)| *a = n);
        finished
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::Builder;

    /// A walker that reaches the target with probability 1/3 a step and otherwise stays.
    fn coin() -> ExplicitChain {
        let mut b = Builder::new(2).unwrap();
        b.row(0, vec![(0, Rational::from((2, 3))), (1, Rational::from((1, 3)))]).unwrap();
        b.absorbing(1).unwrap();
        b.initial(0).unwrap();
        b.finish().unwrap()
    }

    /// With geometric walkers the chances are known in closed form: with q = 2/3 the chance
    /// to stay out a turn, player i of n wins with probability q^(i-1) (1 - q) / (1 - q^n).
    #[test]
    fn geometric_walkers_share_the_wins_as_the_closed_form_says() {
        let chain = coin();
        let target = [false, true];
        let gap = Rational::from((1, Integer::from(10).pow(40)));
        for n in 1..=4u32 {
            let r =
                race(&chain, &target, 0, n, &gap, Most { rounds: 100_000, bits: 1 << 20 }, &Cancel::new())
                    .unwrap();
            let q = Rational::from((2, 3));
            let total: Rational = r.lower.iter().sum::<Rational>() + &r.undecided;
            assert_eq!(total, 1, "the rounds summed and the mass left make one");
            assert!(r.undecided <= gap && r.undecided > 0);
            for (i, lower) in r.lower.iter().enumerate() {
                let exact = (q.clone().pow(i as u32) * (1 - q.clone())) / (1 - q.clone().pow(n));
                assert!(*lower <= exact && exact <= Rational::from(lower + &r.undecided), "player {}", i + 1);
            }
            // Rounds until (2/3)^(n K) <= 10^-40.
            let rounds = (40.0 * 10f64.ln() / (n as f64 * 1.5f64.ln())).ceil() as u32;
            assert_eq!(r.rounds, rounds);
        }
    }

    #[test]
    fn a_walker_at_the_target_wins_at_once_and_a_cap_on_rounds_is_kept() {
        let chain = coin();
        let most = |rounds| Most { rounds, bits: 1 << 20 };
        let r = race(&chain, &[true, true], 0, 3, &Rational::new(), most(10), &Cancel::new()).unwrap();
        assert_eq!(r.lower, vec![Rational::from(1), Rational::new(), Rational::new()]);
        assert_eq!(r.cut_short, None);
        let r = race(&chain, &[false, true], 0, 2, &Rational::new(), most(7), &Cancel::new()).unwrap();
        assert_eq!((r.rounds, r.cut_short), (7, Some(CutShort::Rounds)));
        assert_eq!(r.undecided, Rational::from((2, 3)).pow(14u32));
    }

    /// The common denominator after k rounds of two players is 3^(2k): 3^16 has 26 bits, 3^18 29.
    #[test]
    fn a_cap_on_the_numbers_size_is_kept() {
        let chain = coin();
        let most = Most { rounds: 1000, bits: 26 };
        let r = race(&chain, &[false, true], 0, 2, &Rational::new(), most, &Cancel::new()).unwrap();
        assert_eq!((r.rounds, r.cut_short), (9, Some(CutShort::Size)));
        assert_eq!(r.undecided, Rational::from((2, 3)).pow(18u32));
        let total: Rational = r.lower.iter().sum::<Rational>() + &r.undecided;
        assert_eq!(total, 1);
    }
}
