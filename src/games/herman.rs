//! Herman's self-stabilising ring (Herman 1990), the DTMC of the PRISM benchmark suite:
//! `processes` processes in a ring (an odd number), each holding a bit. A process holds a
//! token when its bit equals its left neighbour's; every step, all at once, a process with
//! a token sets its bit by a fair coin flip and one without copies its left neighbour's
//! bit. Tokens meet and vanish until one is left: the ring is stable. As in the benchmark,
//! every configuration is initial, stable configurations absorb (label `stable`), and the
//! reward `steps` counts the steps until then.

use crate::Cancel;
use crate::engine::explicit::{Builder, ExplicitChain};
use crate::error::Error;
use rug::Rational;

/// The largest ring built: 15 processes make 32,768 states and about 14 million
/// transitions.
pub const MAX_PROCESSES: u32 = 15;

/// Which processes hold a token in configuration `x` (bit i is process i's bit; process
/// i's left neighbour is process i - 1, process 0's is process n - 1).
fn tokens(x: u32, n: u32) -> u32 {
    let left = (x << 1 | x >> (n - 1)) & ((1 << n) - 1);
    !(x ^ left) & ((1 << n) - 1)
}

/// How many transitions leave a configuration whose token holders are `holders`: a stable
/// one (a single token) absorbs; any other moves to each choice of bits for its holders.
fn transitions_from(holders: u32) -> u64 {
    match holders.count_ones() {
        1 => 1,
        k => 1 << k,
    }
}

/// How many transitions the ring of `n` processes has, counted before it is built.
fn transitions(n: u32) -> u64 {
    (0..1u32 << n).map(|x| transitions_from(tokens(x, n))).sum()
}

/// The ring of `processes` processes; refused before it is built where its chain is planned
/// past `budget` bytes (under `ulimit -v 200000` the ring of 13 aborted as it was built);
/// stops when `cancel` is cancelled.
pub fn ring(processes: u32, budget: Option<u64>, cancel: &Cancel) -> Result<ExplicitChain, Error> {
    let n = processes;
    if !(3..=MAX_PROCESSES).contains(&n) || n.is_multiple_of(2) {
        return Err(Error::Invalid(format!(
            "Herman's ring takes an odd number of processes from 3 to {MAX_PROCESSES}, not {n}"
        )));
    }
    let states = 1u64 << n;
    crate::formats::check_size(states, transitions(n), 0, budget)
        .map_err(|e| Error::Invalid(format!("Herman's ring of {n} processes: {e}")))?;
    let malformed = |e| Error::Invalid(format!("the ring's chain is malformed: {e}"));
    let mut b = Builder::new(states).map_err(malformed)?;
    b.declare_reward("steps");
    let mask = (1u32 << n) - 1;
    for x in 0..states as u32 {
        super::stop_building(cancel, x as u64, states)?;
        b.initial(x as u64).map_err(malformed)?;
        let holders = tokens(x, n);
        if holders.count_ones() == 1 {
            b.absorbing(x as u64).map_err(malformed)?;
            b.label("stable", x as u64).map_err(malformed)?;
            continue;
        }
        // Without a token, a process takes its left neighbour's bit.
        let copied = (x << 1 | x >> (n - 1)) & mask & !holders;
        let p = Rational::from((1, 1u64 << holders.count_ones()));
        // Every choice of bits for the token holders, as a subset of `holders`.
        let mut moves = Vec::with_capacity(transitions_from(holders) as usize);
        let mut subset = 0u32;
        loop {
            moves.push(((copied | subset) as u64, p.clone()));
            if subset == holders {
                break;
            }
            subset = (subset.wrapping_sub(holders)) & holders;
        }
        b.row(x as u64, moves).map_err(malformed)?;
        b.state_reward("steps", x as u64, Rational::from(1)).map_err(malformed)?;
    }
    super::finish_building(b, cancel, malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_has_the_benchmarks_size() {
        // Storm builds the PRISM model herman11.pm with 2,048 states and 177,126 transitions.
        let go_on = Cancel::new();
        let chain = ring(11, None, &go_on).unwrap();
        assert_eq!((chain.states(), chain.transitions()), (2048, 177_126));
        assert_eq!(chain.label("stable").unwrap().len(), 22);
        assert_eq!(ring(7, None, &go_on).unwrap().transitions(), 2174);
        // The plan counts what the builder makes.
        for n in [3, 5, 7, 9, 11] {
            assert_eq!(transitions(n), ring(n, None, &go_on).unwrap().transitions() as u64, "{n}");
        }
        assert!(ring(4, None, &go_on).is_err() && ring(17, None, &go_on).is_err());
        let stop = Cancel::new();
        stop.cancel();
        let e = ring(11, None, &stop).unwrap_err();
        assert!(
            matches!(e, Error::Interrupted { ref done } if done == "the chain was being built: 0 of 2,048 states"),
            "{e:?}"
        );
    }
}
