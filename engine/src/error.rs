//! What the engine can refuse, in the engine's own terms: ranks, states, weights and bytes.
//! It knows no game and no flag; callers put these into their users' words.
//!
//! Two kinds of refusal: a chain too big for the machine or for the engine's compact
//! storage (`TooLarge`, `LayerTooLarge`, `AllocationFailed`), and a chain that breaks the
//! contract of [`Chain`](crate::Chain) (the rest). Nothing is narrowed or skipped silently.

use rug::{Integer, Rational};
use thiserror::Error;

/// The characters a message shows of a long text or fraction, to stay one readable line.
const SHOWN: usize = 40;

/// The first 40 characters of `text` and how many it has, if it has more: what a message
/// shows of a line of garbage, to stay one readable line.
pub fn long_text(text: &str) -> Option<(&str, usize)> {
    let (cut, _) = text.char_indices().nth(SHOWN)?;
    Some((&text[..cut], text.chars().count()))
}

/// `text`, or its start and length if it is long (see [`long_text`]).
pub fn shortened(text: &str) -> String {
    match long_text(text) {
        Some((start, chars)) => format!("{start}... ({chars} characters)"),
        None => text.to_string(),
    }
}

/// `value` as a message shows it: `p/q`, or abbreviated past 40 characters (see
/// [`abbreviated`]), so that a sum of 20,000 digits stays one readable line.
pub fn shortened_fraction(value: &Rational) -> String {
    abbreviated(value, SHOWN)
}

/// Leading digits kept by [`abbreviated`] for each part of a long fraction.
const LEADING_DIGITS: usize = 6;

/// The fraction as `p/q` (`n` when whole) if that has at most `max_chars` characters; otherwise an
/// abbreviation that still names the number: each part too long to show becomes its first six digits
/// (not rounded), an ellipsis and its digit count, e.g. `119943…(106 digits)/444603…(113 digits)`.
///
/// A part is abbreviated only when that makes it shorter (an 18-digit part stays whole), so a short
/// numerator over a huge denominator keeps its numerator: `1/444603…(113 digits)`. The abbreviation is
/// the shortest form offered: it may still exceed a very small `max_chars`.
pub fn abbreviated(value: &Rational, max_chars: usize) -> String {
    let full = value.to_string();
    if full.chars().count() <= max_chars {
        return full;
    }
    let numer = abbreviate_integer(value.numer());
    if *value.denom() == 1 { numer } else { format!("{numer}/{}", abbreviate_integer(value.denom())) }
}

/// `n` as `ddddd…(N digits)` when that is shorter than its digits, otherwise in full.
fn abbreviate_integer(n: &Integer) -> String {
    let text = n.to_string();
    let digits = text.trim_start_matches('-');
    if digits.len() <= LEADING_DIGITS {
        return text;
    }
    let sign = &text[..text.len() - digits.len()];
    let short = format!("{sign}{}…({} digits)", &digits[..LEADING_DIGITS], digits.len());
    if short.chars().count() < text.len() { short } else { text }
}

/// The most states a layer may hold: parents are stored as `u32` indices.
pub const MAX_LAYER_STATES: u64 = u32::MAX as u64;

/// The largest move weight: weights are stored as `u32` in the edges of a step.
pub const MAX_WEIGHT: u64 = u32::MAX as u64;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The step to the layer of rank `rank` would need more memory than the budget allows.
    #[error(
        "the step to rank {rank} (about {states} states) is projected to need {bytes} bytes, over the \
         budget of {budget} bytes"
    )]
    TooLarge { rank: u32, states: u64, bytes: u64, budget: u64 },
    /// The layer of rank `rank` holds (or, counted by the moves into it, may hold) `states`
    /// states, more than the `limit` a layer's indices can address.
    #[error("the layer of rank {rank} holds up to {states} states, more than the limit of {limit}")]
    LayerTooLarge { rank: u32, states: u64, limit: u64 },
    /// The system refused an allocation of `bytes` bytes: the process may use less memory
    /// than the budget allowed (an address-space or cgroup limit), or the projection fell short.
    #[error("the system refused an allocation of {bytes} bytes")]
    AllocationFailed { bytes: u64 },
    /// A move's weight is over [`MAX_WEIGHT`].
    #[error("a move has weight {weight}, more than the limit of {limit}", limit = MAX_WEIGHT)]
    WeightTooLarge { weight: u64 },
    /// A move has weight 0 (a move never taken must be left out).
    #[error("a move out of a state of rank {rank} has weight 0")]
    ZeroWeight { rank: u32 },
    /// A state's move weights do not add up to the total `transitions` returned.
    #[error("the move weights of a state of rank {rank} add up to {sum}, not to its total {total}")]
    WeightsDoNotSum { rank: u32, total: u64, sum: u128 },
    /// A move from a state of rank `from` leads to a state of rank `to`, not lower.
    #[error("a move from rank {from} leads to rank {to}: the rank must fall along every move")]
    RankDidNotFall { from: u32, to: u32 },
    /// The caller's [`Cancel`](crate::Cancel) token asked to stop: `finished_layers` layers
    /// were done, and the layer of rank `rank` was under way (its work is dropped).
    #[error("cancelled after {finished_layers} finished layers, in the layer of rank {rank}")]
    Cancelled { finished_layers: u32, rank: u32 },
    /// The caller's checkpoint could not save the state after `finished_layers` layers.
    #[error("the state after {finished_layers} finished layers was not saved")]
    NotSaved { finished_layers: u32 },
    /// The spill directory (see [`Spill`](crate::layered::Spill)) could not hold a step's
    /// parents, or gave them back otherwise than they were written.
    #[error("the spill directory {dir}: {why}")]
    SpillFailed { dir: String, why: String },
    /// A saved state handed back to resume from begins at another start.
    #[error("the saved run began from another start")]
    ResumedElsewhere,
}
