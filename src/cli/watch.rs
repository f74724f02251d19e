//! The progress line of work that has no layers to report (the chain solver): the engine
//! leaves word of how far it has got in the cancel token ([`Report`]), and a thread of the
//! CLI reads the latest word a few times a second and rewrites one line on stderr, from the
//! first second on, only on a terminal and never with --quiet.

use super::output::to_stderr;
use super::progress::{duration_words, resident_bytes};
use pegchain::Cancel;
use pegchain::engine::Report;
use pegchain::render::number::grouped;
use std::io::IsTerminal;
use std::mem::Discriminant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the line is rewritten.
const EVERY: Duration = Duration::from_millis(250);

/// Shows the progress `token` reports until dropped; dropping it stops the thread and
/// clears the line, if one was shown.
pub struct Watcher {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// A watcher of `token`'s reports: a thread only where a line can be shown (and none, with
/// no line, where the system will not start one: the work goes on without it).
pub fn watch(token: &Cancel, quiet: bool) -> Watcher {
    let stop = Arc::new(AtomicBool::new(false));
    let thread = (!quiet && std::io::stderr().is_terminal())
        .then(|| {
            let (token, stop) = (token.clone(), Arc::clone(&stop));
            std::thread::Builder::new().name("progress".into()).spawn(move || show(&token, &stop)).ok()
        })
        .flatten();
    Watcher { stop, thread }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// The thread: rewrites the line until stopped, then clears it; clears it too while nothing
/// is reported (the work reported is over, and what follows reports nothing).
fn show(token: &Cancel, stop: &AtomicBool) {
    let started = Instant::now();
    let mut stage = Stage::default();
    let mut shown = false;
    while !stop.load(Ordering::Relaxed) {
        std::thread::park_timeout(EVERY);
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(report) = token.latest() else {
            // The work reported is over: its line goes until the next report.
            if std::mem::take(&mut shown) {
                to_stderr(format_args!("\r\x1b[K"));
            }
            continue;
        };
        let left = stage.left(&report);
        if started.elapsed() >= Duration::from_secs(1) {
            let (gb, s) = (resident_bytes() as f64 / 1e9, started.elapsed().as_secs_f64());
            to_stderr(format_args!("\r\x1b[K{}, {gb:.2} GB resident, {s:.1} s{left}", words(&report)));
            shown = true;
        }
    }
    if shown {
        to_stderr(format_args!("\r\x1b[K"));
    }
}

/// A report in words: "factoring a component of 11,552 states: row 4,000".
pub fn words(report: &Report) -> String {
    match *report {
        Report::Components { done, of } => {
            format!(
                "solving the chain a component at a time: {} of {} states solved",
                grouped(done),
                grouped(of)
            )
        }
        Report::Factoring { states, rows } => {
            format!(
                "factoring a component of {} states: row {} of {}",
                grouped(states),
                grouped(rows),
                grouped(states)
            )
        }
        Report::Lifting { states, bits, bound } => format!(
            "lifting the exact solution of a component of {} states: {} bits known (at most {} needed)",
            grouped(states),
            grouped(bits),
            grouped(bound)
        ),
        Report::Steps { done, of } => {
            format!("the distribution of steps: {} of {} steps", grouped(done), grouped(of))
        }
        Report::Fractions { done, of } => {
            format!("the distribution's fractions in lowest terms: {} of {}", grouped(done), grouped(of))
        }
    }
}

/// The stage under way, for its projected end.
#[derive(Default)]
struct Stage {
    /// Which stage (its kind of report and its size; `None` before the first report) and
    /// when it was first seen.
    of: Option<((Discriminant<Report>, u64), Instant)>,
}

impl Stage {
    /// ", about 2.0 minutes left" for a stage whose work done is a known share of its whole
    /// (factoring and the distribution of steps, whose work goes as the square of the rows
    /// or steps done), once a quarter of its rows or steps is done and a second or more is
    /// left; nothing for the others (a lifting stops when its answer is found, usually long
    /// before its bound).
    fn left(&mut self, report: &Report) -> String {
        let (done, of) = match *report {
            Report::Factoring { states, rows } => (Some(rows), states),
            Report::Steps { done, of } | Report::Fractions { done, of } => (Some(done), of),
            Report::Components { of, .. } => (None, of),
            Report::Lifting { states, .. } => (None, states),
        };
        let key = (std::mem::discriminant(report), of);
        let since = match self.of {
            Some((k, since)) if k == key => since,
            _ => self.of.insert((key, Instant::now())).1,
        };
        done.and_then(|done| projected_left(since.elapsed().as_secs_f64(), done, of))
            .map(|left| format!(", about {} left", duration_words(left)))
            .unwrap_or_default()
    }
}

/// The seconds left of work that goes as the square of the rows or steps done (`done` of
/// `of` after `elapsed` seconds), once a quarter is done and while a second or more is left.
/// Earlier it can be far off: a sparse matrix fills in as it is factored, so its first rows
/// go faster than the square says (`game chutes-and-ladders --players 2`: 3.2 times the
/// time left at a tenth of the rows, 0.6 to 1.9 times from a quarter on).
fn projected_left(elapsed: f64, done: u64, of: u64) -> Option<f64> {
    if of == 0 || done * 4 < of {
        return None;
    }
    let share = (done as f64 / of as f64).powi(2);
    let left = elapsed * (1.0 / share - 1.0);
    (left >= 1.0).then_some(left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_that_goes_as_the_square_projects_its_end() {
        // Half the rows in 10 s: a quarter of the work, so 30 s left.
        assert_eq!(projected_left(10.0, 500, 1000), Some(30.0));
        // Too early, or nearly done.
        assert_eq!(projected_left(10.0, 249, 1000), None);
        assert_eq!(projected_left(10.0, 999, 1000), None);
        assert_eq!(projected_left(10.0, 0, 0), None);
    }

    #[test]
    fn reports_in_words() {
        assert_eq!(
            words(&Report::Factoring { states: 11552, rows: 4000 }),
            "factoring a component of 11,552 states: row 4,000 of 11,552"
        );
        assert_eq!(
            words(&Report::Lifting { states: 11552, bits: 16000, bound: 92813 }),
            "lifting the exact solution of a component of 11,552 states: 16,000 bits known (at most 92,813 needed)"
        );
        assert_eq!(
            words(&Report::Steps { done: 3, of: 4000 }),
            "the distribution of steps: 3 of 4,000 steps"
        );
    }
}
