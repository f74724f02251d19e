//! The generic engine of pegchain: absorbing Markov chains solved exactly, and seeded
//! Monte Carlo sampling. It knows no game, no flag and no text for users: a game is a type
//! that implements [`Chain`], and every refusal is an [`EngineError`] in the engine's terms.
//!
//! A chain lists the moves out of a state with integer weights; a state with no moves
//! absorbs. A rank falls strictly along every move, so states can be processed in layers
//! of falling rank and every layer is finished before the next one starts.

pub mod backward;
pub mod error;
pub mod layered;
pub mod sampler;
pub mod stats;

pub use error::EngineError;
pub use layered::{Layer, Mode, Options, propagate};

use std::hash::Hash;

pub trait Chain: Sync {
    type State: Copy + Eq + Hash + Ord + Send + Sync + std::fmt::Debug;

    /// Falls strictly along every move (pegs left; squares still to travel).
    fn rank(&self, state: Self::State) -> u32;

    /// Writes every move out of `state` as (next state, weight), one entry per move, and
    /// returns the total weight: a move is taken with probability weight / total.
    /// No entries means the state absorbs. A move back to `state` itself is not allowed.
    fn transitions(&self, state: Self::State, out: &mut Vec<(Self::State, u64)>) -> u64;

    /// One representative of the state's symmetry class. The chain must be symmetric under
    /// whatever this identifies, so that classes can be followed in place of states.
    fn canonical(&self, state: Self::State) -> Self::State {
        state
    }
}
