//! pegchain: games of chance and random play as absorbing Markov chains, solved exactly
//! with rational arithmetic and checked by simulation.
//!
//! The rule of the layout: `engine` (the `pegchain-engine` crate: chains, exact propagation,
//! sampling, statistics; it knows no game) <- the games (`solitaire`, `race`) <- `render`
//! (typed results to bytes) <- the `pegchain` binary's `cli` (flags to validated requests,
//! one output function). Data flows one way; the library never parses arguments, never
//! prints and never names a flag. `budget` turns the process's memory limits into the exact
//! engine's budget; `pages` names the blocks it reads at random, for the process's allocator
//! to choose their pages.

pub mod budget;
pub mod chains;
pub mod error;
pub mod formats;
pub mod games;
pub mod input;
pub mod pages;
pub mod race;
pub mod render;
pub mod solitaire;

pub use error::{Error, RefusedBy};
pub use pegchain_engine as engine;
pub use pegchain_engine::Cancel;
pub use solitaire::board::{Board, SymmetryGroup};
pub use solitaire::policy::Policy;
