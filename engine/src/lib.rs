//! The generic engine of pegchain: Markov chains solved exactly, and seeded Monte Carlo
//! sampling. It knows no game, no flag and no text for users: a chain is a type that
//! implements [`Chain`], and every refusal is an [`EngineError`] in the engine's terms.
//!
//! A chain lists the moves out of a state with integer weights; a state with no moves
//! absorbs. Every chain serves the sampler ([`walk`]) and the explicit solver (an
//! implicit chain through [`explicit::explore`], which writes its reachable states out; an
//! [`explicit::ExplicitChain`] is a `Chain` itself through [`explicit::ExplicitChain::weighted`]).
//! A chain whose rank falls strictly along every move ([`Ranked`]) also serves the layered
//! engine, which processes states in layers of falling rank, every layer finished before the
//! next one starts.

pub mod backward;
pub mod cancel;
pub mod error;
pub mod exchange;
pub mod explicit;
pub mod layered;
pub mod sampler;
pub mod stats;
pub mod walk;

pub use cancel::{Cancel, Report};
pub use error::EngineError;
pub use exchange::{Exchange, InMemory, Solo};
pub use layered::{Across, Layer, Mode, Options, Pass, RunState, propagate, propagate_by_residues};

use std::hash::Hash;

/// A finite Markov chain with integer move weights, cycles allowed: the one interface of
/// implicit chains (generated state by state, as peg solitaire or the dice race) and explicit
/// ones (a sparse matrix read from a file, through [`explicit::ExplicitChain::weighted`]).
///
/// # The contract
///
/// For every state `s` that `transitions` lists moves for:
/// - every move's weight is at least 1;
/// - the weights add up exactly to the total `transitions` returns (so the total is at
///   least 1 and the probabilities weight / total add up to one);
/// - where a chain reduces states by symmetry, the chain is symmetric under what `canonical`
///   identifies (see there).
///
/// The layered engine asks more: see [`Ranked`].
pub trait Chain: Sync {
    type State: Copy + Eq + Hash + Ord + Send + Sync + std::fmt::Debug;

    /// Writes every move out of `state` as (next state, weight), one entry per move, and
    /// returns the total weight: a move is taken with probability weight / total.
    /// No entries means the state absorbs (its total is then ignored).
    fn transitions(&self, state: Self::State, out: &mut Vec<(Self::State, u64)>) -> u64;

    /// One representative of the state's symmetry class. The chain must be symmetric under
    /// whatever this identifies, so that classes can be followed in place of states.
    fn canonical(&self, state: Self::State) -> Self::State {
        state
    }

    /// `transitions` with every next state already in canonical form: what the engine
    /// follows. A chain may do this faster than one `canonical` per move (peg solitaire: a
    /// jump flips three holes, so the child's images follow from the parent's).
    fn canonical_transitions(&self, state: Self::State, out: &mut Vec<(Self::State, u64)>) -> u64 {
        let total = self.transitions(state, out);
        out.iter_mut().for_each(|(next, _)| *next = self.canonical(*next));
        total
    }
}

/// A chain whose rank falls strictly along every move, so it has no cycles and its states can
/// be followed in layers: what the layered engine ([`propagate`]) and [`backward`] need.
///
/// # The contract, beyond [`Chain`]'s
///
/// - every move's weight is at most [`error::MAX_WEIGHT`] (2^32 - 1): the layered engine
///   stores weights as `u32`;
/// - every move leads to a state of lower rank (so no move leads back to `s`);
/// - `canonical` maps a state to one of the same rank.
///
/// A layer (the states of one rank) may hold at most [`error::MAX_LAYER_STATES`] states.
/// [`propagate`] checks all of this as it goes and returns an [`EngineError`] naming the
/// broken rule; it never narrows a weight or an index silently. Totals themselves may be
/// any `u64`: the lcm of a layer's totals is a big number when it needs to be.
/// [`backward::absorption`] works in rationals and needs only the rank to fall (it checks
/// nothing; it is meant for small chains in tests).
pub trait Ranked: Chain {
    /// Falls strictly along every move (pegs left; squares still to travel).
    fn rank(&self, state: Self::State) -> u32;
}
