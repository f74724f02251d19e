//! Progress on stderr, the one place the CLI reports work under way: a line per finished
//! layer of the exact engine, a bar for simulations. Shown only on a terminal and never with
//! --quiet; stdout is never touched.

use pegchain::Board;
use pegchain::render::number::{grouped, plural};
use pegchain::solitaire::exact::{Progress, Stage};
use std::io::IsTerminal;
use std::time::Instant;

/// A progress line on stderr, rewritten for every finished layer, when stderr is a terminal
/// and not --quiet. It clears itself when the run ends (the printer is dropped).
pub fn layer_printer(board: &Board, quiet: bool) -> impl FnMut(&Progress) + '_ {
    let show = !quiet && std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut line = Line { shown: false };
    let mut passes = Passes { index: 0, started, first: None };
    move |p: &Progress| {
        let left = passes.left(p);
        let words = || {
            let (words, gb, s) =
                (layer_words(board, p), resident_bytes() as f64 / 1e9, started.elapsed().as_secs_f64());
            format!("{words}, {gb:.2} GB resident, {s:.1} s{left}")
        };
        if !quiet && !p.sent.is_empty() {
            // A run shared by processes (under mpirun, whose output is a log): a line per layer.
            let mb: Vec<String> = p.sent.iter().map(|b| format!("{:.1}", *b as f64 / 1e6)).collect();
            eprintln!("{} (process 0); MB sent by each process: {}", words(), mb.join(" "));
        } else if show {
            line.mark_shown();
            eprint!("\r\x1b[K{}", words());
        }
    }
}

/// What a progress report says, in words: "start d4: 1,234 positions with 20 pegs".
pub fn layer_words(board: &Board, p: &Progress) -> String {
    let what = match p.stage {
        Stage::Start(hole) => match p.start {
            Some((number, of)) if of > 1 => format!("start {} ({number} of {of})", board.hole_name(hole)),
            _ => format!("start {}", board.hole_name(hole)),
        },
        Stage::Classes => "every start's classes".to_string(),
        Stage::FinishHoles => "finish holes".to_string(),
        Stage::PegsLeft => "every start's pegs left".to_string(),
        Stage::Position => "the position".to_string(),
        Stage::CoachFuture => "finding the position's future".to_string(),
        Stage::CoachPegsLeft => "the position's pegs left, from the most pegs down".to_string(),
        Stage::CoachValues => "the odds, from the fewest pegs up".to_string(),
    };
    let count = match p.stage {
        Stage::FinishHoles => plural(p.positions, "winnable class", "winnable classes"),
        Stage::PegsLeft => plural(p.positions, "class of a start", "classes of a start"),
        _ => plural(p.positions, "position", "positions"),
    };
    let pass = match p.pass.of {
        Some(1) => String::new(),
        Some(n) => format!(" (pass {} of {n})", p.pass.index + 1),
        None => format!(" (pass {})", p.pass.index + 1),
    };
    format!("{what}: {count} with {}{pass}", plural(p.pegs.into(), "peg", "pegs"))
}

/// The passes of a run by residues: every pass of a start follows the same layers, so its
/// first one's duration projects the end of its passes (each start's first pass is timed
/// anew: starts differ in size).
struct Passes {
    index: u32,
    /// When the current pass began.
    started: Instant,
    /// How long the first pass of the start under way took, once it is over.
    first: Option<f64>,
}

impl Passes {
    /// ", about 2.5 hours left" once the start's first pass is over and the number of passes
    /// known (", about 2.5 hours left for this start" in a run of several starts).
    fn left(&mut self, p: &Progress) -> String {
        if p.pass.index != self.index {
            if self.index == 0 {
                self.first = Some(self.started.elapsed().as_secs_f64());
            }
            (self.index, self.started) = (p.pass.index, Instant::now());
        }
        match (self.first, p.pass.of) {
            (Some(first), Some(of)) if of > p.pass.index => {
                let left = first * f64::from(of - p.pass.index) - self.started.elapsed().as_secs_f64();
                let whose = if p.start.is_some_and(|(_, of)| of > 1) { " for this start" } else { "" };
                format!(", about {} left{whose}", duration_words(left.max(0.0)))
            }
            _ => String::new(),
        }
    }
}

/// Clears the progress line when dropped, if one was shown.
struct Line {
    shown: bool,
}

impl Line {
    // A method, so that the closure owns the whole guard, not just its field.
    fn mark_shown(&mut self) {
        self.shown = true;
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}

/// This process's resident memory, from /proc (0 where there is no /proc).
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm.split_whitespace().nth(1).and_then(|pages| pages.parse::<u64>().ok()).unwrap_or(0) * 4096
}

/// A progress bar of games on stderr; indicatif hides it when stderr is not a terminal.
pub fn games_bar(total: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(Some(total), indicatif::ProgressDrawTarget::stderr());
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {percent:>3}% {human_pos}/{human_len} games, eta {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The throughput line of a simulation, on stderr unless --quiet.
pub fn throughput(games: u64, seconds: f64, threads: usize, quiet: bool) {
    if !quiet {
        let threads = if threads == 0 { rayon::current_num_threads() } else { threads };
        eprintln!(
            "{games} games in {seconds:.2} s: {:.2} million games per second on {threads} threads",
            games as f64 / seconds / 1e6
        );
    }
}

/// Games a calibration plays: enough to time, a few milliseconds on any board.
pub const CALIBRATION_GAMES: u64 = 20_000;

/// A run projected to take longer than this says so before it starts.
const LONG_RUN_SECONDS: f64 = 3600.0;

/// Before a long simulation of `total` games on `threads` threads (0 = all), times
/// `calibrate` (which plays `CALIBRATION_GAMES` games on one thread) and, when the whole run
/// is projected to take more than an hour, says on stderr how long. Silent with --quiet and for
/// runs too short to matter (no calibration is played then).
pub fn warn_if_long(total: u64, threads: usize, quiet: bool, calibrate: impl FnOnce()) {
    if quiet || total <= 100 * CALIBRATION_GAMES {
        return;
    }
    let clock = Instant::now();
    calibrate();
    let per_game = clock.elapsed().as_secs_f64() / CALIBRATION_GAMES as f64;
    let threads = if threads == 0 { rayon::current_num_threads() } else { threads };
    let seconds = per_game * total as f64 / threads as f64;
    if seconds > LONG_RUN_SECONDS {
        eprintln!(
            "{} games: about {} on {threads} threads (from a calibration of {} games)",
            grouped(total),
            duration_words(seconds),
            grouped(CALIBRATION_GAMES)
        );
    }
}

/// A long duration in the largest fitting unit: "3.2 hours", "41 days", "2.1e6 years".
pub fn duration_words(seconds: f64) -> String {
    const UNITS: [(&str, f64); 4] =
        [("years", 365.25 * 86400.0), ("days", 86400.0), ("hours", 3600.0), ("minutes", 60.0)];
    let (unit, size) =
        UNITS.iter().find(|(_, size)| seconds >= 2.0 * size).copied().unwrap_or(("seconds", 1.0));
    let amount = seconds / size;
    if amount >= 1e6 { format!("{amount:.1e} {unit}") } else { format!("{amount:.1} {unit}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_pass_by_residues_projects_the_end_of_the_others() {
        use pegchain::engine::Pass;
        use pegchain::solitaire::exact::Stage;
        let at = |index, of| Progress {
            stage: Stage::Position,
            pegs: 3,
            positions: 1,
            sent: Vec::new(),
            pass: Pass { index, of },
            start: None,
        };
        let an_hour_ago = Instant::now() - std::time::Duration::from_secs(3600);
        let mut passes = Passes { index: 0, started: an_hour_ago, first: None };
        assert_eq!(passes.left(&at(0, None)), "");
        // The first pass took an hour: three more passes, the second just begun.
        let left = passes.left(&at(1, Some(4)));
        assert_eq!(left, ", about 3.0 hours left");
        let mut alone = Passes { index: 0, started: an_hour_ago, first: None };
        assert_eq!(alone.left(&at(0, Some(1))), "");
    }

    /// In a run of several starts, the time left is that of the start under way, projected
    /// from its own first pass: the next start's first pass projects nothing (the number of
    /// passes is not known yet), and its second pass projects from its first.
    #[test]
    fn each_start_projects_from_its_own_first_pass() {
        use pegchain::engine::Pass;
        use pegchain::solitaire::exact::Stage;
        let at = |start, index, of| Progress {
            stage: Stage::Start(0),
            pegs: 3,
            positions: 1,
            sent: Vec::new(),
            pass: Pass { index, of },
            start: Some((start, 2)),
        };
        let two_hours_ago = Instant::now() - std::time::Duration::from_secs(7200);
        let mut passes = Passes { index: 0, started: two_hours_ago, first: None };
        assert_eq!(passes.left(&at(1, 0, None)), "");
        assert_eq!(passes.left(&at(1, 1, Some(3))), ", about 4.0 hours left for this start");
        // The second start begins, and its first pass ends at once: one more pass, as short.
        assert_eq!(passes.left(&at(2, 0, None)), "");
        assert!(passes.left(&at(2, 1, Some(2))).starts_with(", about 0"), "{:?}", passes.first);
    }

    /// A start's progress line says which evaluation of a run of several it is.
    #[test]
    fn a_start_of_several_is_numbered() {
        use pegchain::engine::Pass;
        use pegchain::solitaire::exact::Stage;
        let board = pegchain::solitaire::load_board("triangle5").unwrap();
        let report = |start| Progress {
            stage: Stage::Start(0),
            pegs: 13,
            positions: 1234,
            sent: Vec::new(),
            pass: Pass::ONLY,
            start,
        };
        assert_eq!(
            layer_words(&board, &report(Some((2, 4)))),
            "start A (2 of 4): 1,234 positions with 13 pegs"
        );
        assert_eq!(layer_words(&board, &report(Some((1, 1)))), "start A: 1,234 positions with 13 pegs");
        assert_eq!(layer_words(&board, &report(None)), "start A: 1,234 positions with 13 pegs");
    }

    #[test]
    fn long_durations_are_said_in_the_largest_unit() {
        assert_eq!(duration_words(7200.0), "2.0 hours");
        assert_eq!(duration_words(5.0 * 86400.0), "5.0 days");
        assert_eq!(duration_words(3.0 * 365.25 * 86400.0), "3.0 years");
        assert_eq!(duration_words(4e6 * 365.25 * 86400.0), "4.0e6 years");
    }
}
