//! Runs by residues: the chain followed once per batch of primes, numerators kept modulo
//! those primes, until their product exceeds the final denominator; then every absorbed
//! numerator is rebuilt by the Chinese remainder theorem (see `residues`).

use super::numbers::Numbers;
use super::residues::{self, Modulus};
use super::{MAX_LAYER_STATES, Mode, Options, Pass, run};
use crate::Ranked;
use crate::error::EngineError;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// `propagate` in `Probability` mode with numerators kept modulo `primes_per_pass` 62-bit
/// primes instead of in full: a state costs 8 bytes a prime instead of the numerator's
/// width (a few hundred bits on the big boards). The chain is followed once per batch of
/// primes until their product exceeds the final denominator (known after the first pass),
/// and the absorbed mass is rebuilt exactly by the Chinese remainder theorem: the result
/// equals `propagate`'s. `on_layer` sees every pass's layers (see [`Layer::pass`]).
///
/// Runs by residues are neither saved, resumed, shared by processes nor stopped early:
/// `options.checkpoint`, `resume`, `across` and `until_rank` must be `None`.
pub fn propagate_by_residues<C, K, F>(
    chain: &C,
    start: C::State,
    classify: F,
    primes_per_pass: usize,
    mut options: Options<'_, C::State, K>,
) -> Result<BTreeMap<K, Rational>, EngineError>
where
    C: Ranked,
    K: Ord + Clone + Send,
    F: Fn(C::State) -> K + Sync,
{
    assert!(
        options.checkpoint.is_none()
            && options.resume.is_none()
            && options.across.is_none()
            && options.until_rank.is_none(),
        "runs by residues are whole runs of one process"
    );
    let per_pass = primes_per_pass.max(1);
    let mut found: BTreeMap<K, Vec<(u64, u64)>> = BTreeMap::new();
    let (mut used, mut needed, mut denominator) = (0, None, Integer::new());
    let mut index = 0;
    while needed.is_none_or(|n| used < n) {
        let count = needed.map_or(per_pass, |n: usize| (n - used).min(per_pass));
        let primes = residues::primes(count, used);
        let numbers = Numbers::Residues(primes.iter().map(|&p| Modulus::new(p)).collect());
        let of = needed.map(|n: usize| index + (n - used).div_ceil(per_pass) as u32);
        let pass = Pass { index, of };
        let reached = run(
            chain,
            start,
            (Mode::Probability, &numbers, pass),
            &classify,
            &mut options,
            MAX_LAYER_STATES,
        )?;
        for (k, lanes) in reached.lanes {
            found.entry(k).or_default().extend(primes.iter().copied().zip(lanes));
        }
        used += count;
        index += 1;
        if needed.is_none() {
            denominator = reached.denominator;
            needed = Some(primes_above(&denominator));
        }
    }
    Ok(found
        .into_iter()
        .map(|(k, residues)| {
            let numerator = residues::rebuild(&residues);
            debug_assert!(numerator <= denominator, "absorbed mass never exceeds one");
            (k, Rational::from((numerator, denominator.clone())))
        })
        .collect())
}

/// How many of the primes of `residues::primes` (the largest first) it takes for their
/// product to exceed `bound`.
fn primes_above(bound: &Integer) -> usize {
    // Every prime is above 2^61: this many always suffice, and the first few are checked.
    let enough = (bound.significant_bits() as usize).div_ceil(61) + 1;
    let primes = residues::primes(enough, 0);
    let mut product = Integer::from(1);
    for (i, p) in primes.iter().enumerate() {
        product *= p;
        if product > *bound {
            return i + 1;
        }
    }
    enough
}
