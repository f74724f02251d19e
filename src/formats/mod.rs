//! Chains exchanged with model checkers: Storm's DRN and PRISM's explicit files, read into
//! and written from [`ExplicitChain`](crate::engine::explicit::ExplicitChain). Numbers are
//! read exactly (`0.1` is 1/10) and written as fractions.

pub mod drn;
pub mod number;
pub mod prism;

use crate::engine::explicit::ChainError;
use thiserror::Error;

/// What is wrong with a chain file, and on which line (1-based) when one line is to blame.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub struct FormatError {
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl FormatError {
    pub fn at(line: usize, message: impl Into<String>) -> FormatError {
        FormatError { line: Some(line), message: message.into() }
    }

    pub fn whole(message: impl Into<String>) -> FormatError {
        FormatError { line: None, message: message.into() }
    }

    /// Reading stopped at `line` because a stop was asked for (see [`POLL_EVERY`]).
    pub fn stopped(line: usize) -> FormatError {
        FormatError::at(line, "reading stopped here")
    }

    /// A chain rule broken at `line` (or over the whole file).
    fn chain(line: Option<usize>, e: ChainError) -> FormatError {
        FormatError { line, message: e.to_string() }
    }
}

/// Refuses a file whose lines number other than its header declares: `who` (the header, or
/// its section, on line `line`) declares `declared` of `what` (a noun, singular and plural)
/// and `found` are listed. Storm's and PRISM's own exports always agree with their headers, so a file that
/// does not was cut short, run together with another or edited by hand, and reading on
/// would answer for a chain other than the one meant.
pub fn check_declared(
    line: usize,
    who: &str,
    declared: u64,
    what: [&str; 2],
    found: u64,
) -> Result<(), FormatError> {
    if declared == found {
        return Ok(());
    }
    let noun = what[usize::from(declared != 1)];
    let verb = if found == 1 { "is" } else { "are" };
    Err(FormatError::at(line, format!("{who} declares {declared} {noun}, but {found} {verb} listed")))
}

/// How many lines (a DRN file's states, a .tra file's transitions) are read between two
/// polls of the stop: a file of gigabytes takes minutes to read.
pub const POLL_EVERY: u64 = 4096;

/// `Err(FormatError::stopped(line))` on every `POLL_EVERY`th `count` once `cancel` is set.
fn poll(cancel: &crate::Cancel, count: u64, line: usize) -> Result<(), FormatError> {
    if count.is_multiple_of(POLL_EVERY) && cancel.is_cancelled() {
        Err(FormatError::stopped(line))
    } else {
        Ok(())
    }
}

/// The most bytes a chain is planned to take per transition and per state once read (the
/// exact probability, its target, the row's bookkeeping), for refusing a file whose header
/// promises more than memory holds before anything is allocated. Measured: Herman's ring of
/// 13 processes (1.59 million transitions) peaks at 250 MB built and written out, 157 bytes a
/// transition, and at 368 MB answered; planned at 96, it passed a budget of 160 MB and then
/// aborted (`ulimit -v 200000`).
pub const BYTES_PER_TRANSITION: u64 = 160;
pub const BYTES_PER_STATE: u64 = 64;

/// The most bytes answering a chain is planned to take per transition, beside
/// [`BYTES_PER_STATE`] a state (the chain held, and every state's exact answers while they
/// are solved). Measured: triangle6's chain from a corner (930,179 transitions, exported to
/// DRN) peaks at 253 MB answered, 245 bytes a transition less the file's text; Herman's ring
/// of 13 at 368 MB, 231. The dense factorization of a big strongly connected component comes
/// on top (see `chains::planned_answer`).
pub const BYTES_PER_ANSWERED_TRANSITION: u64 = 256;

/// The memory a chain of this size is planned to need.
pub fn planned_bytes(states: u64, transitions: u64) -> u64 {
    states.saturating_mul(BYTES_PER_STATE).saturating_add(transitions.saturating_mul(BYTES_PER_TRANSITION))
}

/// Refuses a size over `budget` bytes (when there is one), with the estimate; `text` is the
/// bytes of the file's text, held while the chain is built from it (0 for none).
pub fn check_size(states: u64, transitions: u64, text: u64, budget: Option<u64>) -> Result<(), FormatError> {
    let bytes = planned_bytes(states, transitions).saturating_add(text);
    match budget {
        Some(budget) if bytes > budget => Err(FormatError::whole(format!(
            "a chain of {} and {} is projected to need {}{}, over the memory budget of {}",
            crate::render::number::plural(states, "state", "states"),
            crate::render::number::plural(transitions, "transition", "transitions"),
            crate::render::number::bytes(bytes),
            if text > 0 { " with the file's text" } else { "" },
            crate::render::number::bytes(budget)
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_the_header_declares_is_held_to() {
        assert_eq!(check_declared(3, "@nr_choices", 4, ["choice", "choices"], 4), Ok(()));
        assert_eq!(
            check_declared(1, "the header", 27, ["transition", "transitions"], 28).unwrap_err().to_string(),
            "line 1: the header declares 27 transitions, but 28 are listed"
        );
        assert_eq!(
            check_declared(1, "the header", 9, ["entry", "entries"], 1).unwrap_err().to_string(),
            "line 1: the header declares 9 entries, but 1 is listed"
        );
        assert_eq!(
            check_declared(1, "the header", 1, ["entry", "entries"], 0).unwrap_err().to_string(),
            "line 1: the header declares 1 entry, but 0 are listed"
        );
    }
}
