//! Runs by residues (`propagate_by_residues`) against exact runs and closed forms: the same
//! fractions, whatever the number of primes per pass.

mod toys;

use pegchain_engine::{Layer, Mode, Options, Pass, propagate, propagate_by_residues};
use rug::ops::Pow;
use rug::{Integer, Rational};
use std::collections::BTreeMap;
use toys::{BANK, Coins, Frog, Gambler, Purse, Toss, WATER};

#[test]
fn the_gamblers_evening_by_residues_equals_the_exact_run_for_any_primes_per_pass() {
    let chain = Gambler { up: 2, down: 3, bets: 40 };
    let start = Purse { money: 7, left: 40 };
    let exact = propagate(&chain, start, Mode::Probability, |s| chain.end(s), Options::default()).unwrap();
    // 5^40 is 93 bits: two primes at least, so one prime a pass makes two or more passes.
    for per_pass in [1, 2, 5] {
        let by_residues =
            propagate_by_residues(&chain, start, |s| chain.end(s), per_pass, Options::default());
        assert_eq!(by_residues.unwrap(), exact, "{per_pass} primes a pass");
    }
    assert_eq!(exact.values().sum::<Rational>(), 1);
}

#[test]
fn big_factors_and_merged_buckets_by_residues_stay_exact() {
    // Coins: an lcm and factors beyond 64 bits. Frog: buckets fed by two layers.
    let exact = propagate(&Coins, Toss::Start, Mode::Probability, |s| s, Options::default()).unwrap();
    assert_eq!(propagate_by_residues(&Coins, Toss::Start, |s| s, 1, Options::default()).unwrap(), exact);
    let stones = 60;
    let frog = propagate_by_residues(&Frog, stones + 1, |s| s, 1, Options::default()).unwrap();
    // Landing on the bank: 3/5 + (2/5)(-2/3)^n, a denominator of 96 bits.
    let bank = Rational::from((3, 5)) + Rational::from((2, 5)) * Rational::from((-2, 3)).pow(stones as i32);
    let water = Rational::from(1 - &bank);
    assert_eq!(frog, BTreeMap::from([(WATER, water), (BANK, bank)]));
}

#[test]
fn every_pass_shows_its_layers_and_the_number_of_passes_once_it_is_known() {
    let chain = Gambler { up: 1, down: 1, bets: 200 };
    let start = Purse { money: 20, left: 200 };
    let mut passes: Vec<Pass> = Vec::new();
    let mut denominators: Vec<Integer> = Vec::new();
    let mut on_layer = |l: &Layer<'_, Purse>| {
        if passes.last() != Some(&l.pass) {
            passes.push(l.pass);
        }
        denominators.push(l.denominator.clone());
        Ok(())
    };
    let options = Options { on_layer: Some(&mut on_layer), ..Options::default() };
    let ends = propagate_by_residues(&chain, start, |s| chain.end(s), 2, options).unwrap();
    // 2^200 needs four primes of 62 bits: two passes of two.
    let of = Some(2);
    assert_eq!(passes, [Pass { index: 0, of: None }, Pass { index: 1, of }]);
    assert_eq!(denominators.last(), Some(&Integer::from(Integer::u_pow_u(2, 200))));
    assert_eq!(
        ends,
        propagate(&chain, start, Mode::Probability, |s| chain.end(s), Options::default()).unwrap()
    );
}
