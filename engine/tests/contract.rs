//! The chain contract (see `Chain`): chains that break it on purpose are refused with the
//! rule they broke, never narrowed or followed silently; chains at its limits are answered.

mod toys;

use pegchain_engine::error::MAX_WEIGHT;
use pegchain_engine::{EngineError, Mode, Options, backward, propagate};
use rug::Rational;
use std::collections::BTreeMap;
use toys::OneStep;

fn run(chain: &OneStep, mode: Mode) -> Result<BTreeMap<u8, Rational>, EngineError> {
    propagate(chain, 1, mode, |s| s, Options::default())
}

fn one_step(moves: &[(u8, u64)], total: u64) -> OneStep {
    OneStep { moves: moves.to_vec(), total, rank_of_two: 0 }
}

#[test]
fn a_weight_beyond_32_bits_is_refused_not_truncated() {
    // 2^32 + 1 would have been stored as 1, and 1 as itself: an even chance, silently.
    let chain = one_step(&[(0, 1 << 32 | 1), (2, 1)], (1 << 32) + 2);
    for mode in [Mode::Probability, Mode::Paths] {
        assert_eq!(run(&chain, mode), Err(EngineError::WeightTooLarge { weight: (1 << 32) + 1 }));
    }
    // 2^32 exactly (stored as 0), and a weight near 2^64 whose sum with the others wraps
    // around to the total.
    let chain = one_step(&[(2, 3), (0, 1 << 32)], (1 << 32) + 3);
    assert_eq!(run(&chain, Mode::Probability), Err(EngineError::WeightTooLarge { weight: 1 << 32 }));
    let chain = one_step(&[(0, u64::MAX), (2, 2)], 1);
    assert_eq!(run(&chain, Mode::Probability), Err(EngineError::WeightTooLarge { weight: u64::MAX }));
}

#[test]
fn weights_at_the_limit_and_totals_beyond_it_are_answered_exactly() {
    let chain = one_step(&[(0, MAX_WEIGHT), (2, MAX_WEIGHT - 1)], 2 * MAX_WEIGHT - 1);
    let p = run(&chain, Mode::Probability).unwrap();
    let total = 2 * MAX_WEIGHT - 1;
    let expected = BTreeMap::from([
        (0, Rational::from((MAX_WEIGHT, total))),
        (2, Rational::from((MAX_WEIGHT - 1, total))),
    ]);
    assert_eq!(p, expected);
    assert_eq!(backward::absorption(&chain, 1, |s| s), p);
}

#[test]
fn weights_that_do_not_add_up_to_the_total_are_refused() {
    // More than the total would create mass (and overflow the limb arena); less would lose it.
    for total in [3, 5] {
        let chain = one_step(&[(0, 1), (2, 3)], total);
        assert_eq!(
            run(&chain, Mode::Probability),
            Err(EngineError::WeightsDoNotSum { rank: 1, total, sum: 4 })
        );
        assert_eq!(run(&chain, Mode::Paths), Err(EngineError::WeightsDoNotSum { rank: 1, total, sum: 4 }));
    }
}

#[test]
fn a_zero_weight_is_refused() {
    let chain = one_step(&[(0, 0), (2, 3)], 3);
    assert_eq!(run(&chain, Mode::Probability), Err(EngineError::ZeroWeight { rank: 1 }));
}

#[test]
fn a_move_whose_rank_does_not_fall_is_refused() {
    let chain = OneStep { moves: vec![(0, 1), (2, 1)], total: 2, rank_of_two: 1 };
    assert_eq!(run(&chain, Mode::Probability), Err(EngineError::RankDidNotFall { from: 1, to: 1 }));
    let chain = OneStep { rank_of_two: 7, ..chain };
    assert_eq!(run(&chain, Mode::Paths), Err(EngineError::RankDidNotFall { from: 1, to: 7 }));
}
