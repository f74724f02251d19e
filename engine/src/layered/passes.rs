//! Runs by residues: the chain followed once per batch of primes, numerators kept modulo
//! those primes, until their product exceeds the final denominator; then every absorbed
//! numerator is rebuilt by the Chinese remainder theorem (see `residues`). Processes that
//! share such a run split its batches between them: each follows the whole chain for its
//! own primes, with no traffic, and the residues meet at the end.

use super::budget::History;
use super::numbers::Numbers;
use super::pending::Pending;
use super::residues::{self, Modulus};
use super::{MAX_LAYER_STATES, Mode, Options, Pass, RunState, run};
use crate::Ranked;
use crate::error::EngineError;
use crate::exchange::{self, Exchange, Solo};
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// `propagate` in `Probability` mode with numerators kept modulo `primes_per_pass` 62-bit
/// primes instead of in full: a state costs 8 bytes a prime instead of the numerator's
/// width (a few hundred bits on the big boards). The chain is followed once per batch of
/// primes until their product exceeds the final denominator (known after the first pass),
/// and the absorbed mass is rebuilt exactly by the Chinese remainder theorem: the result
/// equals `propagate`'s. `on_layer` sees every pass's layers (see [`Layer::pass`](super::Layer::pass)).
///
/// Shared by processes (`options.across`), the run's batches of primes are dealt out: batch
/// b (primes b·K to (b + 1)·K of `residues::primes`) goes to process b mod N, which follows
/// the whole chain for it alone (no layer is shared, nothing crosses between passes); the
/// first round of batches, one a process, runs before the number of primes needed is known,
/// so up to N - 1 batches more than one process needs may be run (more primes rebuild the
/// same numerators). The processes meet after every round of batches, so a failure in one
/// stops every process there, with its error; every process's residues are gathered at the
/// end, and each returns the whole result.
///
/// A run by residues of one process may be saved after every finished layer and resumed
/// (`options.checkpoint`, `resume`): the state saved holds the pass under way and what the
/// passes before it found, so a resumed run goes on in that pass. Processes that split the
/// passes save after every round of passes instead, all of them once a round (a state
/// between two rounds: what each process's passes found, nothing waiting), since their
/// passes are not in step within a round; each goes on from its own state of the same
/// round. It is not stopped early (`until_rank` must be `None`).
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
    assert!(options.until_rank.is_none(), "runs by residues are whole runs");
    // Each pass is a whole run of this process; the processes meet after every round of
    // batches (one a process), so that a failure in one stops the others within a pass.
    let split = options.across.take();
    // Shared, the run is saved between rounds, not within a pass.
    let mut between_rounds = match split {
        Some(_) => options.checkpoint.take(),
        None => None,
    };
    let exchange: &dyn Exchange = split.as_ref().map_or(&Solo, |a| a.exchange);
    let (me, processes) = (exchange.me(), exchange.processes());
    let per_pass = primes_per_pass.max(1);
    // What the passes so far found (saved with every checkpoint).
    let mut done =
        PassesDone { found: BTreeMap::new(), needed: None, denominator: Integer::new(), index: 0, round: 0 };
    // A resumed run goes on in the pass it was saved in, or after the round of passes it was
    // saved after (with nothing waiting), with what the passes before found.
    if let Some(saved) = options.resume.as_ref() {
        done = saved.passes.clone().ok_or(EngineError::ResumedElsewhere)?;
        if saved.pending.buckets.is_empty() {
            options.resume = None;
        }
    }
    // Until a round's first batch starts past the primes needed (unknown in round 0).
    while done.needed.is_none_or(|n| done.round as usize * processes * per_pass < n) {
        let batch = done.round as usize * processes + me;
        let first = batch * per_pass;
        let count = done.needed.map_or(per_pass, |n| n.saturating_sub(first).min(per_pass));
        let pass = (|| {
            if count == 0 {
                return Ok(());
            }
            // This pass and this process's batches after it.
            let index = done.index;
            let of = done.needed.map(|n| index + (n.div_ceil(per_pass) - batch).div_ceil(processes) as u32);
            let primes = residues::primes(count, first);
            let numbers = Numbers::Residues(primes.iter().map(|&p| Modulus::new(p)).collect());
            let reached = run(
                chain,
                start,
                (Mode::Probability, &numbers, Pass { index, of }, Some(done.clone())),
                &classify,
                &mut options,
                MAX_LAYER_STATES,
            )?;
            for (k, lanes) in reached.lanes {
                done.found.entry(k).or_default().extend(primes.iter().copied().zip(lanes));
            }
            done.index += 1;
            if done.needed.is_none() {
                done.needed = Some(primes_above(&reached.denominator));
                done.denominator = reached.denominator;
            }
            Ok(())
        })();
        exchange::together(exchange, pass)?;
        done.round += 1;
        if let Some(save) = between_rounds.as_mut() {
            let state = RunState {
                start: chain.canonical(start),
                finished_layers: 0,
                denominator: Integer::from(1),
                absorbed: BTreeMap::new(),
                pending: Pending::empty(),
                history: History::new(),
                lanes: BTreeMap::new(),
                passes: Some(done.clone()),
            };
            let saved = save(&state).map_err(|()| EngineError::NotSaved { finished_layers: 0 });
            exchange::together(exchange, saved)?;
        }
    }
    let PassesDone { mut found, denominator, .. } = done;
    if let Some(across) = split {
        found = across.gather_residues(&found);
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

/// What the passes of a run by residues before the one under way found, saved with it (see
/// [`RunState`](super::RunState)) so that a resumed run goes on in the same pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PassesDone<K> {
    /// Each absorbing class's residues, `(prime, residue)`.
    pub found: BTreeMap<K, Vec<(u64, u64)>>,
    /// How many primes the run needs (known once the first pass is over).
    pub needed: Option<usize>,
    /// The final common denominator (known once the first pass is over; 0 before).
    pub denominator: Integer,
    /// The passes this process finished.
    pub index: u32,
    /// The rounds of passes finished (one pass a process each; `index` alone).
    pub round: u32,
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
