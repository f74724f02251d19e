//! What the engine can refuse, in the engine's own terms: ranks, states and bytes. It knows
//! no game and no flag; callers put these into their users' words.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The step to the layer of rank `rank` would need more memory than the budget allows.
    #[error(
        "the step to rank {rank} (about {states} states) is projected to need {bytes} bytes, over the \
         budget of {budget} bytes"
    )]
    TooLarge { rank: u32, states: u64, bytes: u64, budget: u64 },
}
