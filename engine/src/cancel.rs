//! A request to stop, shared between whoever asks (a signal handler, a test) and the long
//! loops that poll it. The engine knows no signals: it only reads a flag, at a granularity
//! cheap enough to poll often (between layers, every few thousand states, before each batch),
//! and returns what it had finished.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A cancellation token: clones share one flag, which only ever goes from "running" to
/// "cancelled".
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not yet cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every loop polling this token (or a clone) to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for. One relaxed load: cheap enough for inner loops.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The shared flag itself, for code that sets it from outside (a signal handler that may
    /// only store to an atomic).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
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
}
