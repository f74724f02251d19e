//! A chain of your own on the engine: implement `Chain` (and `Ranked` where a rank falls
//! along every move), then ask the exact solvers and the sampler. Two small chains:
//!
//! - Penney's game: a fair coin is flipped until HHT or THH shows; THH comes first with
//!   probability 3/4. Flips repeat, so the chain has cycles: the explicit solver answers it,
//!   after `explore` has written out its reachable states.
//! - A die rolled until the total reaches 10: the total only grows, so `Ranked` holds and the
//!   layered engine answers it too; the explicit solver checks it.
//!
//! Run: `cargo run --release -p pegchain-engine --example own_chain`

use pegchain_engine::explicit::explore::explore;
use pegchain_engine::explicit::questions::{reach_probability, steps_mean_and_variance};
use pegchain_engine::walk::{Tally, Verdict, Walks, walk};
use pegchain_engine::{Cancel, Chain, Mode, Options, Ranked, propagate};
use rug::Rational;
use std::collections::BTreeMap;

/// The last flips of Penney's game (up to three, the latest in the lowest bit, 1 = heads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Flips {
    len: u8,
    bits: u8,
}

const HHT: Flips = Flips { len: 3, bits: 0b110 };
const THH: Flips = Flips { len: 3, bits: 0b011 };

struct Penney;

impl Chain for Penney {
    type State = Flips;

    fn transitions(&self, s: Flips, out: &mut Vec<(Flips, u64)>) -> u64 {
        out.clear();
        if s == HHT || s == THH {
            return 0; // a pattern showed: the game is over
        }
        for heads in [1, 0] {
            let mut next = Flips { len: s.len + 1, bits: s.bits << 1 | heads };
            if next.len == 3 && next != HHT && next != THH {
                next = Flips { len: 2, bits: next.bits & 0b11 }; // only the last two matter
            }
            out.push((next, 1));
        }
        2
    }
}

/// A die rolled until the total reaches 10; the state is the total.
struct DieToTen;

impl Chain for DieToTen {
    type State = u32;

    fn transitions(&self, total: u32, out: &mut Vec<(u32, u64)>) -> u64 {
        out.clear();
        if total < 10 {
            out.extend((1..=6).map(|face| (total + face, 1)));
        }
        6
    }
}

impl Ranked for DieToTen {
    fn rank(&self, total: u32) -> u32 {
        10u32.saturating_sub(total)
    }
}

/// Penney's game answered exactly (explore writes the chain out, labelling the ends; the
/// explicit solver answers) and simulated (the sampler walks the chain as generated).
struct PenneyAnswer {
    states: usize,
    thh_first: Rational,
    flips_mean: Rational,
    flips_variance: Rational,
    simulated: Tally,
}

fn penney() -> PenneyAnswer {
    let never = Cancel::new();
    let start = Flips { len: 0, bits: 0 };
    let label = |s: Flips| match s {
        HHT => vec!["hht".to_string()],
        THH => vec!["thh".to_string()],
        _ => Vec::new(),
    };
    let (chain, states) =
        explore(&Penney, &[start], false, 100, &Cancel::new(), label).expect("a small chain");
    let (hht, thh) = (chain.label_set("hht").expect("labelled"), chain.label_set("thh").expect("labelled"));
    let thh_first = reach_probability(&chain, &thh, &never).expect("solved");
    let ends: Vec<bool> = hht.iter().zip(&thh).map(|(a, b)| *a || *b).collect();
    let flips = steps_mean_and_variance(&chain, &ends, &never).expect("solved");
    let (flips_mean, flips_variance) = flips[0].clone().expect("the game ends surely");
    let verdict = |s: Flips| match s {
        THH => Verdict::Reached,
        HHT => Verdict::Missed,
        _ => Verdict::Going,
    };
    let walks = Walks { runs: 1_000_000, seed: 1, threads: 0, max_steps: 10_000 };
    let simulated = walk(&Penney, &[start], verdict, walks, &never).expect("not cancelled");
    PenneyAnswer {
        states: states.len(),
        thh_first: thh_first[0].clone(),
        flips_mean,
        flips_variance,
        simulated,
    }
}

/// The die's final totals by the layered engine, and P(total 10) by the explicit solver.
fn die() -> (BTreeMap<u32, Rational>, Rational) {
    let ends = propagate(&DieToTen, 0, Mode::Probability, |total| total, Options::default()).expect("small");
    let label = |total: u32| if total == 10 { vec!["ten".to_string()] } else { Vec::new() };
    let (chain, _) = explore(&DieToTen, &[0], false, 100, &Cancel::new(), label).expect("a small chain");
    let ten = reach_probability(&chain, &chain.label_set("ten").expect("labelled"), &Cancel::new())
        .expect("solved");
    (ends, ten[0].clone())
}

fn main() {
    let p = penney();
    println!("Penney's game, HHT against THH ({} states):", p.states);
    println!(
        "  P(THH first) = {} (exact), flips: mean {}, variance {}",
        p.thh_first, p.flips_mean, p.flips_variance
    );
    println!("  simulated: THH first in {} of {} games", p.simulated.reached, p.simulated.runs);
    let (ends, ten) = die();
    println!("A die rolled until the total reaches 10:");
    for (total, p) in &ends {
        println!("  P(total {total}) = {p}");
    }
    println!("  the explicit solver: P(total 10) = {ten}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn penneys_game_gives_thh_three_chances_in_four() {
        let p = penney();
        assert_eq!((p.states, p.thh_first.clone()), (9, Rational::from((3, 4))));
        // The same equations over the last two flips, solved apart (sympy): 13/2 and 77/4.
        assert_eq!((p.flips_mean, p.flips_variance), (Rational::from((13, 2)), Rational::from((77, 4))));
        let share = p.simulated.reached as f64 / p.simulated.runs as f64;
        assert!((share - 0.75).abs() < 4.5 * (0.75f64 * 0.25 / 1e6).sqrt(), "{share}");
    }

    #[test]
    fn the_die_gives_the_same_fraction_by_both_engines() {
        let (ends, ten) = die();
        assert_eq!(ends.keys().copied().collect::<Vec<_>>(), [10, 11, 12, 13, 14, 15]);
        assert_eq!(ends.values().sum::<Rational>(), 1);
        assert_eq!(ten, ends[&10]);
        assert_eq!(ten, Rational::from((17_492_167, 60_466_176)));
    }
}
