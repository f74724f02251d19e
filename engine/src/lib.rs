//! The generic engine of pegchain: absorbing Markov chains solved exactly, and seeded
//! Monte Carlo sampling. It knows no game, no flag and no text for users: a game is a type
//! that implements [`Chain`], and every refusal is an [`EngineError`] in the engine's terms.
//!
//! A chain lists the moves out of a state with integer weights; a state with no moves
//! absorbs. A rank falls strictly along every move, so states can be processed in layers
//! of falling rank and every layer is finished before the next one starts.

pub mod backward;
pub mod cancel;
pub mod error;
pub mod exchange;
pub mod explicit;
pub mod layered;
pub mod sampler;
pub mod stats;

pub use cancel::Cancel;
pub use error::EngineError;
pub use exchange::{Exchange, InMemory, Solo};
pub use layered::{Across, Layer, Mode, Options, Pass, RunState, propagate, propagate_by_residues};

use std::hash::Hash;

/// An absorbing Markov chain with integer move weights and a rank that falls along every
/// move.
///
/// # The contract
///
/// For every state `s` that `transitions` lists moves for:
/// - every move's weight is at least 1 and at most [`error::MAX_WEIGHT`] (2^32 - 1): the
///   engine stores weights as `u32`;
/// - the weights add up exactly to the total `transitions` returns (so the total is at
///   least 1 and the probabilities weight / total add up to one);
/// - every move leads to a state of lower rank (so no move leads back to `s`);
/// - `canonical` maps the children to a state of the same rank.
///
/// A layer (the states of one rank) may hold at most [`error::MAX_LAYER_STATES`] states.
/// [`propagate`] checks all of this as it goes and returns an [`EngineError`] naming the
/// broken rule; it never narrows a weight or an index silently. Totals themselves may be
/// any `u64`: the lcm of a layer's totals is a big number when it needs to be.
/// [`backward::absorption`] works in rationals and needs only the rank to fall (it checks
/// nothing; it is meant for small chains in tests).
pub trait Chain: Sync {
    type State: Copy + Eq + Hash + Ord + Send + Sync + std::fmt::Debug;

    /// Falls strictly along every move (pegs left; squares still to travel).
    fn rank(&self, state: Self::State) -> u32;

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
