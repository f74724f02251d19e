//! The explicit solver against the layered engine's independent backward evaluation: toy
//! chains written out as explicit chains give the same absorption probabilities.

mod toys;

use pegchain_engine::Cancel;
use pegchain_engine::backward;
use pegchain_engine::explicit::explore::explore;
use pegchain_engine::explicit::questions;
use rug::Rational;
use toys::{Gambler, Purse};

#[test]
fn explored_gambler_ends_as_the_backward_evaluation_says() {
    let gambler = Gambler { up: 2, down: 3, bets: 12 };
    let start = Purse { money: 4, left: 12 };
    let (chain, states) = explore(&gambler, &[start], false, 10_000, &Cancel::new(), |_| Vec::new()).unwrap();
    let ends = questions::ends(&chain, &pegchain_engine::Cancel::new()).unwrap();
    let mut explicit = std::collections::BTreeMap::new();
    for (bottom, p) in ends.bottoms.iter().zip(&ends.probability) {
        assert_eq!(bottom.len(), 1);
        *explicit.entry(gambler.end(states[bottom[0] as usize])).or_insert_with(Rational::new) += p;
    }
    explicit.retain(|_, p| *p != 0);
    let backward = backward::absorption(&gambler, start, |p| gambler.end(p));
    assert_eq!(explicit, backward);
    assert!(explicit.len() > 5);
}

#[test]
fn the_explore_limit_is_kept() {
    let gambler = Gambler { up: 1, down: 1, bets: 40 };
    let start = Purse { money: 4, left: 40 };
    assert!(explore(&gambler, &[start], false, 50, &Cancel::new(), |_| Vec::new()).is_err());
}
