//! An implicit chain (generated move by move, as peg solitaire or the dice race) written out
//! as an explicit one, so it can be exported for other tools and checked against the
//! explicit solver.

use super::{Builder, ChainError, ExplicitChain};
use crate::{Cancel, Chain};
use hashbrown::HashMap;
use rug::Rational;

/// How many states are expanded (or written) between two polls of the cancel token.
const POLL_EVERY: usize = 4096;

/// Why a chain could not be written out.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ExploreError {
    #[error("more than {limit} states are reachable")]
    TooManyStates { limit: u64 },
    #[error(
        "{states} states and about {transitions} transitions are projected to need {bytes} bytes, over the \
         budget of {budget}"
    )]
    PastBudget { states: u64, transitions: u64, bytes: u64, budget: u64 },
    #[error("stopped after {states} states were found")]
    Cancelled { states: u64 },
    #[error(transparent)]
    Chain(#[from] ChainError),
}

/// The memory the chain written out may take: `bytes` in all, planned at `per_state` a state
/// and `per_transition` a transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeBudget {
    pub bytes: u64,
    pub per_state: u64,
    pub per_transition: u64,
}

impl SizeBudget {
    /// The bytes planned for `states` and `transitions`.
    pub fn planned(&self, states: u64, transitions: u64) -> u64 {
        states.saturating_mul(self.per_state).saturating_add(transitions.saturating_mul(self.per_transition))
    }
}

/// [`explore_within`] with no memory budget.
pub fn explore<C: Chain>(
    chain: &C,
    starts: &[C::State],
    reduce: bool,
    limit: u64,
    cancel: &Cancel,
    labels: impl Fn(C::State) -> Vec<String>,
) -> Result<(ExplicitChain, Vec<C::State>), ExploreError> {
    explore_within(chain, starts, reduce, (limit, None), cancel, labels)
}

/// Every state reachable from `starts` (through `canonical` if `reduce`), numbered in the
/// order they were found (starts first), with the move probabilities weight / total; a
/// state with no moves becomes absorbing (a move to itself with probability 1). `labels`
/// names the labels of each state. Returns the chain and the state behind each index. Polls
/// `cancel` every [`POLL_EVERY`] states: a big start takes minutes to write out. At most
/// `limit` states; with a `budget`, refused as soon as the chain is projected past it (the
/// states found and not yet expanded taken to have as many transitions as those expanded,
/// on average), before the exploration's own memory comes near it.
pub fn explore_within<C: Chain>(
    chain: &C,
    starts: &[C::State],
    reduce: bool,
    (limit, budget): (u64, Option<SizeBudget>),
    cancel: &Cancel,
    labels: impl Fn(C::State) -> Vec<String>,
) -> Result<(ExplicitChain, Vec<C::State>), ExploreError> {
    let key = |s: C::State| if reduce { chain.canonical(s) } else { s };
    let mut index: HashMap<C::State, u64> = HashMap::new();
    let mut states: Vec<C::State> = Vec::new();
    let mut rows: Vec<Vec<(u64, u64)>> = Vec::new();
    let mut totals: Vec<u64> = Vec::new();
    let mut number = |s: C::State, states: &mut Vec<C::State>| -> Result<u64, ExploreError> {
        let len = index.len() as u64;
        let id = *index.entry(s).or_insert(len);
        if id == len {
            if len >= limit {
                return Err(ExploreError::TooManyStates { limit });
            }
            states.push(s);
        }
        Ok(id)
    };
    for &s in starts {
        number(key(s), &mut states)?;
    }
    let mut moves = Vec::new();
    let mut next = 0usize;
    let mut transitions = 0u64;
    let stopped = |states: &[C::State], at: usize| {
        let due = at.is_multiple_of(POLL_EVERY) && cancel.is_cancelled();
        if due { Err(ExploreError::Cancelled { states: states.len() as u64 }) } else { Ok(()) }
    };
    while next < states.len() {
        stopped(&states, next)?;
        moves.clear();
        let total = chain.transitions(states[next], &mut moves);
        let mut row = Vec::with_capacity(moves.len());
        for &(child, weight) in &moves {
            row.push((number(key(child), &mut states)?, weight));
        }
        transitions += row.len().max(1) as u64;
        rows.push(row);
        totals.push(total);
        next += 1;
        if let Some(budget) = budget {
            let found = states.len() as u64;
            let projected = transitions.saturating_mul(found) / next as u64;
            let bytes = budget.planned(found, projected);
            if bytes > budget.bytes {
                return Err(ExploreError::PastBudget {
                    states: found,
                    transitions: projected,
                    bytes,
                    budget: budget.bytes,
                });
            }
        }
    }
    let mut b = Builder::new(states.len() as u64)?;
    for (s, (row, total)) in rows.into_iter().zip(totals).enumerate() {
        stopped(&states, s)?;
        let s = s as u64;
        if row.is_empty() {
            b.absorbing(s)?;
        } else {
            b.row(s, row.into_iter().map(|(t, w)| (t, Rational::from((w, total)))))?;
        }
    }
    for &s in starts {
        b.initial(index[&key(s)])?;
    }
    for (i, &s) in states.iter().enumerate() {
        for label in labels(s) {
            b.label(&label, i as u64)?;
        }
    }
    Ok((b.finish()?, states))
}
