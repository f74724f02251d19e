//! Explicit chains: a sparse matrix of exact probabilities, read from a file or built by a
//! game, with cycles allowed. Questions about them are answered exactly: graph analysis
//! first (which states reach a target at all, which reach it surely), then the strongly
//! connected components in topological order, each solved exactly.

pub mod chain;
pub mod explore;
pub mod graph;
pub mod linear;
pub mod modular;
pub mod questions;
pub mod race;
pub mod sample;
pub mod weighted;

pub use chain::{Builder, ChainError, ExplicitChain, MAX_STATES, Rewards};
pub use weighted::Weighted;
