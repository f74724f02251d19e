//! A request to stop, shared between whoever asks (a signal handler, a test) and the long
//! loops that poll it. The engine knows no signals: it only reads a flag, at a granularity
//! cheap enough to poll often (between layers, every few thousand states, before each batch),
//! and returns what it had finished.
//!
//! The other way, loops with no layers to report may leave word of how far they have got
//! where they poll ([`Cancel::report`]); whoever shows progress reads the latest word from
//! its own thread ([`Cancel::latest`]). The engine never waits for it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A cancellation token: clones share one flag, which only ever goes from "running" to
/// "cancelled", and one slot for the latest [`Report`] of the work under way.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    latest: Arc<Mutex<Option<Report>>>,
}

/// How far a long computation has got (the chain solver's; the layered engine reports each
/// finished layer through its own callback).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// Solving a linear system a component at a time: `done` of `of` unknowns solved.
    Components { done: u64, of: u64 },
    /// Factoring a component of `states` unknowns modulo a prime: `rows` of them done (the
    /// work of a row grows with its index, so the work done goes as `rows` squared).
    Factoring { states: u64, rows: u64 },
    /// Lifting the factored component's solution a digit a step: `bits` of the answer known,
    /// at most `bound` needed (the answer is usually found well before).
    Lifting { states: u64, bits: u64, bound: u64 },
    /// The distribution of steps: `done` of `of` steps (a step's work grows with its index).
    Steps { done: u64, of: u64 },
    /// The distribution's fractions put in lowest terms: `done` of `of` (likewise).
    Fractions { done: u64, of: u64 },
}

impl Cancel {
    /// A token not yet cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every loop polling this token (or a clone) to stop.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for. One relaxed load: cheap enough for inner loops.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// The shared flag itself, for code that sets it from outside (a signal handler that may
    /// only store to an atomic).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Leaves word of how far the work has got (a lock taken briefly: for loops that report
    /// at most a few thousand times a second).
    pub fn report(&self, report: Report) {
        *self.latest.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(report);
    }

    /// Takes back the latest word, when the work it was about is over (so that what follows,
    /// reporting nothing, is not shown as that work).
    pub fn clear_report(&self) {
        *self.latest.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
    }

    /// The latest word left by [`Cancel::report`], if any.
    pub fn latest(&self) -> Option<Report> {
        *self.latest.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Whether `cancel`, if there is one, was cancelled.
#[inline]
pub fn requested(cancel: Option<&Cancel>) -> bool {
    cancel.is_some_and(Cancel::is_cancelled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_flag() {
        let a = Cancel::new();
        let b = a.clone();
        assert!(!b.is_cancelled() && !requested(Some(&b)) && !requested(None));
        a.cancel();
        assert!(b.is_cancelled() && requested(Some(&b)));
        assert!(b.flag().load(Ordering::Relaxed));
    }

    #[test]
    fn clones_share_the_latest_report() {
        let a = Cancel::new();
        let b = a.clone();
        assert_eq!(b.latest(), None);
        a.report(Report::Steps { done: 1, of: 10 });
        a.report(Report::Steps { done: 2, of: 10 });
        assert_eq!(b.latest(), Some(Report::Steps { done: 2, of: 10 }));
        b.clear_report();
        assert_eq!(a.latest(), None);
    }
}
