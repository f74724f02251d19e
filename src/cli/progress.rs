//! Progress on stderr, the one place the CLI reports work under way: a line per finished
//! layer of the exact engine, a bar for simulations. Shown only on a terminal and never with
//! --quiet; stdout is never touched.

use pegchain::Board;
use pegchain::render::number::grouped;
use pegchain::solitaire::exact::Progress;
use std::io::IsTerminal;
use std::time::Instant;

/// A progress line on stderr, rewritten for every finished layer, when stderr is a terminal
/// and not --quiet. It clears itself when the run ends (the printer is dropped).
pub fn layer_printer(board: &Board, quiet: bool) -> impl FnMut(&Progress) + '_ {
    let show = !quiet && std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut line = Line { shown: false };
    move |p: &Progress| {
        if show {
            line.mark_shown();
            eprint!(
                "\r\x1b[Kstart {}: {} positions with {} pegs, {:.2} GB resident, {:.1} s",
                board.hole_name(p.start),
                grouped(&p.positions.into()),
                p.pegs,
                resident_bytes() as f64 / 1e9,
                started.elapsed().as_secs_f64()
            );
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
