//! Seeded simulation of an explicit chain: runs from a uniformly drawn initial state until
//! the target is reached or can no longer be, by the engine's random walks on the chain's
//! integer weights ([`ExplicitChain::weighted`](super::ExplicitChain::weighted)), so every draw is exact and the tallies are
//! the same for any thread count.

use super::Weighted;
use super::questions::reachability;
use crate::sampler::Cancelled;
use crate::walk::{self, Verdict, Walks};

pub use crate::walk::Tally;

/// Simulates `walks.runs` runs of `chain`: each starts in an initial state drawn uniformly
/// and stops on reaching `target`, on entering a state that cannot reach it, or after
/// `walks.max_steps` steps.
pub fn simulate(
    chain: &Weighted<'_>,
    target: &[bool],
    walks: Walks,
    cancel: &crate::Cancel,
) -> Result<Tally, Cancelled> {
    let explicit = chain.explicit();
    let possible = reachability(explicit, target).possible;
    let verdict = |s: u32| match (target[s as usize], possible[s as usize]) {
        (true, _) => Verdict::Reached,
        (false, false) => Verdict::Missed,
        (false, true) => Verdict::Going,
    };
    walk::walk(chain, explicit.initial(), verdict, walks, cancel)
}

#[cfg(test)]
mod tests {
    use super::super::Builder;
    use super::*;
    use rug::Rational;

    #[test]
    fn the_same_seed_gives_the_same_tally_for_any_thread_count() {
        let mut b = Builder::new(4).unwrap();
        let third = || Rational::from((1, 3));
        b.row(0, [(1, third()), (0, third()), (3, third())]).unwrap();
        b.row(1, [(2, Rational::from((1, 2))), (0, Rational::from((1, 2)))]).unwrap();
        b.absorbing(2).unwrap();
        b.absorbing(3).unwrap();
        b.initial(0).unwrap();
        let chain = b.finish().unwrap();
        let target = [false, false, true, false];
        let never = crate::Cancel::new();
        let weighted = chain.weighted().unwrap();
        let walks = Walks { runs: 200_000, seed: 7, threads: 1, max_steps: 1000 };
        let one = simulate(&weighted, &target, walks, &never).unwrap();
        assert_eq!(one, simulate(&weighted, &target, Walks { threads: 2, ..walks }, &never).unwrap());
        // P(reach 2) = 1/3 exactly: P0 = P1 / 3 + P0 / 3 with P1 = 1/2 + P0 / 2.
        let exact =
            super::super::questions::reach_probability(&chain, &target, &crate::Cancel::new()).unwrap();
        assert_eq!(exact[0], Rational::from((1, 3)));
        let p = one.reached as f64 / one.runs as f64;
        assert!((p - 1.0 / 3.0).abs() < 5.0 * (2.0f64 / 9.0 / 200_000.0).sqrt(), "{p}");
        assert_eq!(one.cut_short, 0);
    }
}
