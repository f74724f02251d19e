//! Progress on stderr, the one place the CLI reports work under way: a line per finished
//! layer of the exact engine, a bar for simulations. Shown only on a terminal (under mpirun,
//! a line per layer from process 0) and never with --quiet; stdout is never touched.

use super::output::{self, to_stderr};
use pegchain::Board;
use pegchain::render::number::{grouped, plural};
use pegchain::solitaire::exact::{Progress, Stage};
use std::io::IsTerminal;
use std::time::Instant;

/// A progress line on stderr, rewritten for every finished layer, when stderr is a terminal
/// and not --quiet. It clears itself when the run ends (the printer is dropped).
pub fn layer_printer(board: &Board, quiet: bool) -> impl FnMut(&Progress) + '_ {
    // Under mpirun, whose output is a log, a line per layer instead.
    let log = !quiet && super::processes::launched();
    let show = !quiet && !log && std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut line = Line { shown: false };
    let mut passes = Passes::new(started);
    let mut layers = Layers { of: None, sizes: Vec::new(), last: started };
    move |p: &Progress| {
        // Once a run by residues has finished a pass, the last one projects the others;
        // before, the layers of the pass under way project its end.
        let (by_passes, by_layers) = (passes.left(p), layers.left(p));
        let left = if by_passes.is_empty() { by_layers } else { by_passes };
        let words = || {
            let (words, gb, s) =
                (layer_words(board, p), resident_bytes() as f64 / 1e9, started.elapsed().as_secs_f64());
            format!("{words}, {gb:.2} GB resident, {s:.1} s{left}")
        };
        if log {
            // A layer built by processes that send each other children says how much they sent
            // (none do in a pass by residues, a dealt start, or a run of one process).
            let mb: Vec<String> = p.sent.iter().map(|b| format!("{:.1}", *b as f64 / 1e6)).collect();
            let sent = match mb.is_empty() {
                true => String::new(),
                false => format!("; MB sent by each process: {}", mb.join(" ")),
            };
            to_stderr(format_args!("{} (process 0){sent}\n", words()));
        } else if show {
            line.mark_shown();
            to_stderr(format_args!("\r\x1b[K{}", words()));
        }
    }
}

/// What a progress report says, in words: "start d4: 1,234 positions with 20 pegs".
pub fn layer_words(board: &Board, p: &Progress) -> String {
    let what = match p.stage {
        Stage::Start(hole) => match p.start {
            Some((number, of)) if one_of_several(p) => {
                format!("start {} ({number} of {of})", board.hole_name(hole))
            }
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
        _ if p.classes => plural(p.positions, "class", "classes"),
        _ => plural(p.positions, "position", "positions"),
    };
    let pass = match p.pass.of {
        Some(1) => String::new(),
        Some(n) => format!(" (pass {} of {n})", p.pass.index + 1),
        None => format!(" (pass {})", p.pass.index + 1),
    };
    format!("{what}: {count} with {}{pass}", plural(p.pegs.into(), "peg", "pegs"))
}

/// The passes of a run by residues: every pass of a start follows the same layers, so the
/// last finished pass's duration projects the end of its passes (the first also finds what
/// the others are given and took up to twice as long, 22.8 s against 11.8 s, so it only
/// projects until a second pass ends; each start is timed anew: starts differ in size).
struct Passes {
    index: u32,
    /// When the current pass began.
    started: Instant,
    /// How long the start's last finished pass took.
    last: Option<f64>,
    /// Whether the current pass began in this process: a run resumed in the middle of a pass
    /// reports that pass first, and the time it takes to end it is not a pass's time.
    whole: bool,
    /// Whether a report came yet.
    seen: bool,
}

impl Passes {
    /// Passes timed from `started`, the beginning of the run.
    fn new(started: Instant) -> Passes {
        Passes { index: 0, started, last: None, whole: true, seen: false }
    }

    /// ", about 2.5 hours left" once a pass of the start under way is over and the number
    /// of passes known (", about 2.5 hours left for this start" in a run of several starts).
    fn left(&mut self, p: &Progress) -> String {
        if !std::mem::replace(&mut self.seen, true) && p.pass.index != self.index {
            // A run resumed in a later pass: its time projects nothing.
            (self.index, self.started, self.whole) = (p.pass.index, Instant::now(), false);
        }
        if p.pass.index != self.index {
            // The next pass of the same start, or a new start's first.
            let ended = self.started.elapsed().as_secs_f64();
            self.last = (p.pass.index > self.index && self.whole).then_some(ended);
            (self.index, self.started, self.whole) = (p.pass.index, Instant::now(), true);
        }
        match (self.last, p.pass.of) {
            (Some(last), Some(of)) if of > p.pass.index => {
                let left = last * f64::from(of - p.pass.index) - self.started.elapsed().as_secs_f64();
                time_left(left.max(0.0), p, false)
            }
            _ => String::new(),
        }
    }
}

/// A pass of a run: its stage, its start's number (of how many) and its index.
type PassOf = (Stage, Option<(usize, usize)>, u32);

/// The layers of the pass under way, for its projected end: a forward pass's layers rise and
/// fall about like a bell curve (their logarithms like a parabola in the pegs), so the last
/// layers' sizes project those to come, and the last step's time per position their time.
struct Layers {
    /// The pass the layers belong to.
    of: Option<PassOf>,
    /// Each layer's pegs and positions, in the order they came.
    sizes: Vec<(u32, u64)>,
    /// When the last report came.
    last: Instant,
}

impl Layers {
    /// ", about 3.5 minutes left" once the layers so far project the rest of the pass (see
    /// [`projected_positions`]), while a second or more is left; for this start in a run of
    /// several, and "in this pass" where more passes follow: the first pass by residues (whose
    /// number of passes is not known yet), a pass a resumed run began in the middle of (until
    /// a whole pass is timed, see [`Passes`]), and the whole-group method's passes over every
    /// start.
    fn left(&mut self, p: &Progress) -> String {
        let now = Instant::now();
        let step = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        // Only the forward passes lose a peg a layer from the top.
        if !matches!(p.stage, Stage::Start(_) | Stage::Position | Stage::Classes | Stage::PegsLeft) {
            return String::new();
        }
        let of = Some((p.stage, p.start, p.pass.index));
        if self.of != of {
            (self.of, self.sizes) = (of, Vec::new());
        }
        self.sizes.push((p.pegs, p.positions));
        let Some(to_come) = projected_positions(&self.sizes) else { return String::new() };
        // A step's time goes with the positions it reads and writes (its parents and
        // children: steady within about 1.3 times over a run, where its children's alone vary
        // 1.8 times), and each layer to come is read once and written once.
        let parent = self.sizes[self.sizes.len() - 2].1 as f64;
        let seconds = step / (parent + p.positions as f64) * (p.positions as f64 + 2.0 * to_come);
        if seconds < 1.0 {
            return String::new();
        }
        // The end of this pass only where more work follows it (more passes, or passes whose
        // number is not known yet).
        let more_passes = p.pass.of.is_none_or(|of| p.pass.index + 1 < of);
        let pass_only = more_passes || matches!(p.stage, Stage::Classes | Stage::PegsLeft);
        time_left(seconds, p, pass_only)
    }
}

/// ", about 2.0 hours left", said of this pass alone (`pass_only`: "in this pass") or, in a
/// run of several starts, of the start under way ("for this start").
fn time_left(seconds: f64, p: &Progress, pass_only: bool) -> String {
    let whose = if pass_only {
        " in this pass"
    } else if one_of_several(p) {
        " for this start"
    } else {
        ""
    };
    format!(", about {} left{whose}", duration_words(seconds))
}

/// Whether the report is of one start of a run of several.
fn one_of_several(p: &Progress) -> bool {
    p.start.is_some_and(|(_, of)| of > 1)
}

/// The layers fitted for a projection: fewer follow the bend of the curve more closely and
/// are thrown off more by one odd layer.
const FITTED_LAYERS: usize = 6;

/// The positions of the layers still to come, down to one peg, projected from the layers so
/// far (`(pegs, positions)`, a peg fewer each) by a parabola fitted to the logarithms of the
/// last [`FITTED_LAYERS`] by least squares. `None` until the parabola turns down and the
/// layers so far hold a tenth of the projected whole: before that the projection can be off
/// a hundredfold. From then on, while a hundredth of the positions was still to come, it was
/// within 0.65 to 1.4 times the truth on the English board's centre and c1 and triangle7's
/// corner, and up to 1.7 and 2.5 times on triangle6 and triangle5, whose layers are few
/// (README, "Progress").
pub fn projected_positions(sizes: &[(u32, u64)]) -> Option<f64> {
    let fitted = &sizes[sizes.len().checked_sub(FITTED_LAYERS)?..];
    let &(last_pegs, _) = fitted.last()?;
    if fitted.iter().any(|&(_, n)| n == 0) {
        return None;
    }
    let at = |pegs: u32| f64::from(pegs) - f64::from(last_pegs);
    let points: Vec<(f64, f64)> = fitted.iter().map(|&(pegs, n)| (at(pegs), (n as f64).ln())).collect();
    let [a, b, c] = parabola_through(&points)?;
    if c >= 0.0 {
        return None;
    }
    let to_come: f64 = (1..last_pegs).map(|pegs| (a + b * at(pegs) + c * at(pegs) * at(pegs)).exp()).sum();
    let done: f64 = sizes.iter().map(|&(_, n)| n as f64).sum();
    (done >= 0.1 * (done + to_come)).then_some(to_come)
}

/// The least-squares parabola `a + b x + c x^2` through `points`, as `[a, b, c]` (`None` if
/// the points do not fix one): the normal equations, solved by Cramer's rule.
fn parabola_through(points: &[(f64, f64)]) -> Option<[f64; 3]> {
    let power_sum = |k: i32| points.iter().map(|(x, _)| x.powi(k)).sum::<f64>();
    let moment = |k: i32| points.iter().map(|(x, y)| y * x.powi(k)).sum::<f64>();
    let (s0, s1, s2, s3, s4) = (power_sum(0), power_sum(1), power_sum(2), power_sum(3), power_sum(4));
    let (t0, t1, t2) = (moment(0), moment(1), moment(2));
    let det3 = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let matrix = [[s0, s1, s2], [s1, s2, s3], [s2, s3, s4]];
    let det = det3(matrix);
    if det.abs() < 1e-9 {
        return None;
    }
    let solved = |column: usize| {
        let mut m = matrix;
        for (row, t) in m.iter_mut().zip([t0, t1, t2]) {
            row[column] = t;
        }
        det3(m) / det
    };
    Some([solved(0), solved(1), solved(2)])
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
            to_stderr(format_args!("\r\x1b[K"));
        }
    }
}

/// This process's resident memory, from /proc (0 where there is no /proc).
pub(super) fn resident_bytes() -> u64 {
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

/// The throughput line of a simulation, on stderr unless --quiet, once the answer is written
/// (see [`output::after_the_answer`]): of the `games` this run played in `seconds`, not the
/// `resumed` ones a checkpoint held.
pub fn throughput(games: u64, resumed: u64, seconds: f64, threads: usize, quiet: bool) {
    if quiet {
        return;
    }
    if resumed > 0 && games == 0 {
        let resumed = plural(resumed, "game", "games");
        output::after_the_answer(format!("{resumed} resumed from the checkpoint, none left to play\n"));
        return;
    }
    let threads = if threads == 0 { rayon::current_num_threads() } else { threads };
    let after = match resumed {
        0 => String::new(),
        _ => format!(", after {} resumed from the checkpoint", grouped(resumed)),
    };
    output::after_the_answer(format!(
        "{} in {seconds:.2} s{after}: {:.2} million games per second on {}\n",
        plural(games, "game", "games"),
        games as f64 / seconds / 1e6,
        plural(threads as u64, "thread", "threads")
    ));
}

/// Games a calibration plays: enough to time, a few milliseconds on any board.
pub const CALIBRATION_GAMES: u64 = 20_000;

/// A run projected to take longer than this says so before it starts.
const LONG_RUN_SECONDS: f64 = 3600.0;

/// Calibrations timed before a long run; the fastest counts. A calibration takes about a
/// millisecond, so one stall (the process set aside for a moment on a busy machine) made one
/// of 20,000 games look like one of two seconds: a run of 16 s was announced as 13.9 hours.
const CALIBRATIONS: usize = 3;

/// Before a long simulation of `total` games on `threads` threads (0 = all), times
/// `calibrate` (which plays `CALIBRATION_GAMES` games on one thread; the fastest of
/// [`CALIBRATIONS`]) and, when the whole run is projected to take more than an hour, says on
/// stderr how long. Silent with --quiet and for runs too short to matter (no calibration is
/// played then).
pub fn warn_if_long(total: u64, threads: usize, quiet: bool, calibrate: impl Fn()) {
    if quiet || total <= 100 * CALIBRATION_GAMES {
        return;
    }
    let threads = if threads == 0 { rayon::current_num_threads() } else { threads };
    let seconds = projected_seconds(total, threads, calibrate);
    if seconds > LONG_RUN_SECONDS {
        to_stderr(format_args!(
            "{} games: about {} on {} (from a calibration of {} games)\n",
            grouped(total),
            duration_words(seconds),
            plural(threads as u64, "thread", "threads"),
            grouped(CALIBRATION_GAMES)
        ));
    }
}

/// The seconds `total` games would take on `threads` threads, from the fastest of
/// [`CALIBRATIONS`] timings of `calibrate` (`CALIBRATION_GAMES` games on one thread).
fn projected_seconds(total: u64, threads: usize, calibrate: impl Fn()) -> f64 {
    let timed = || {
        let clock = Instant::now();
        calibrate();
        clock.elapsed().as_secs_f64()
    };
    let fastest = (0..CALIBRATIONS).map(|_| timed()).fold(f64::INFINITY, f64::min);
    fastest / CALIBRATION_GAMES as f64 * total as f64 / threads as f64
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

    /// A calibration held up once (here for 200 ms, as a stall on a busy machine holds one
    /// up) does not count: the projection comes from the fastest, 2 ms a calibration of
    /// 20,000 games, so 10^9 games on 2 threads take about 50 s (under 1,000 s, however late
    /// a busy machine wakes the sleeps), not the 1.4 hours the stalled one would project.
    #[test]
    fn a_stalled_calibration_does_not_count() {
        let calls = std::cell::Cell::new(0);
        let calibrate = || {
            calls.set(calls.get() + 1);
            let pause = if calls.get() == 1 { 200 } else { 2 };
            std::thread::sleep(std::time::Duration::from_millis(pause));
        };
        let seconds = projected_seconds(1_000_000_000, 2, calibrate);
        assert_eq!(calls.get(), CALIBRATIONS);
        assert!((50.0..1000.0).contains(&seconds), "{seconds} s projected");
    }

    #[test]
    fn the_last_pass_by_residues_projects_the_end_of_the_others() {
        use pegchain::engine::Pass;
        use pegchain::solitaire::exact::Stage;
        let at = |index, of| Progress {
            stage: Stage::Position,
            pegs: 3,
            positions: 1,
            classes: false,
            sent: Vec::new(),
            pass: Pass { index, of },
            start: None,
        };
        let an_hour_ago = Instant::now() - std::time::Duration::from_secs(3600);
        let mut passes = Passes::new(an_hour_ago);
        assert_eq!(passes.left(&at(0, None)), "");
        // The first pass took an hour: three more passes, the second just begun.
        let left = passes.left(&at(1, Some(4)));
        assert_eq!(left, ", about 3.0 hours left");
        // The second took half an hour: the two passes left are projected from it.
        passes.started = Instant::now() - std::time::Duration::from_secs(1800);
        assert_eq!(passes.left(&at(2, Some(4))), ", about 60.0 minutes left");
        let mut alone = Passes::new(an_hour_ago);
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
            classes: false,
            sent: Vec::new(),
            pass: Pass { index, of },
            start: Some((start, 2)),
        };
        let two_hours_ago = Instant::now() - std::time::Duration::from_secs(7200);
        let mut passes = Passes::new(two_hours_ago);
        assert_eq!(passes.left(&at(1, 0, None)), "");
        assert_eq!(passes.left(&at(1, 1, Some(3))), ", about 4.0 hours left for this start");
        // The second start begins, and its first pass ends at once: one more pass, as short.
        assert_eq!(passes.left(&at(2, 0, None)), "");
        assert!(passes.left(&at(2, 1, Some(2))).starts_with(", about 0"), "{:?}", passes.last);
    }

    /// A run resumed in the middle of a later pass projects nothing from the rest of that
    /// pass (it would pass for a whole pass of a few minutes), only from the next whole pass.
    #[test]
    fn a_run_resumed_in_a_pass_projects_from_its_next_whole_pass() {
        use pegchain::engine::Pass;
        use pegchain::solitaire::exact::Stage;
        let at = |index| Progress {
            stage: Stage::Start(0),
            pegs: 3,
            positions: 1,
            classes: true,
            sent: Vec::new(),
            pass: Pass { index, of: Some(14) },
            start: None,
        };
        let an_hour_ago = Instant::now() - std::time::Duration::from_secs(3600);
        let mut passes = Passes::new(an_hour_ago);
        assert_eq!(passes.left(&at(6)), "");
        passes.started = an_hour_ago;
        assert_eq!(passes.left(&at(7)), "", "the rest of a pass resumed in its middle is no pass's time");
        passes.started = an_hour_ago;
        assert_eq!(passes.left(&at(8)), ", about 6.0 hours left");
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
            classes: false,
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
        let classes = Progress { classes: true, pass: Pass { index: 1, of: Some(3) }, ..report(None) };
        assert_eq!(layer_words(&board, &classes), "start A: 1,234 classes with 13 pegs (pass 2 of 3)");
    }

    /// Layers shaped exactly like a bell curve project their own tail, once it has turned.
    #[test]
    fn a_bell_curve_of_layers_projects_its_own_tail() {
        let size = |pegs: u32| (25.0 - 0.05 * (f64::from(pegs) - 16.0).powi(2)).exp();
        let layers: Vec<(u32, u64)> = (1..=31).rev().map(|pegs| (pegs, size(pegs).round() as u64)).collect();
        for seen in 12..30 {
            let truth: f64 = layers[seen..].iter().map(|&(_, n)| n as f64).sum();
            let projected = projected_positions(&layers[..seen]).expect("past a tenth of the whole");
            assert!((projected / truth - 1.0).abs() < 1e-6, "{seen} layers: {projected} for {truth}");
        }
    }

    /// No projection from fewer layers than the fit takes, from layers still growing as fast
    /// as ever (a parabola that does not turn down), or from the first tenth of the whole.
    #[test]
    fn a_projection_waits_for_the_curve_to_turn() {
        let growing: Vec<(u32, u64)> = (0..10).map(|k| (30 - k, 3u64.pow(k))).collect();
        assert_eq!(projected_positions(&growing), None);
        let size = |pegs: u32| (25.0 - 0.05 * (f64::from(pegs) - 16.0).powi(2)).exp().round() as u64;
        let bell: Vec<(u32, u64)> = (1..=31).rev().map(|pegs| (pegs, size(pegs))).collect();
        assert_eq!(projected_positions(&bell[..5]), None, "too few layers");
        // 7.7% of the whole after 11 layers, 13.3% after 12.
        assert_eq!(projected_positions(&bell[..11]), None, "the first tenth");
        assert!(projected_positions(&bell[..12]).is_some());
    }

    /// On the engine's own layers (triangle6 from each start class, by the reports a progress
    /// line gets), the projection comes before the largest layer is built and stays within
    /// 0.5 to 2 times the positions still to come.
    #[test]
    fn the_engines_layers_project_the_positions_to_come() {
        use pegchain::solitaire::exact::{Analysis, EngineConfig, Starts};
        let board = pegchain::solitaire::load_board("triangle6").unwrap();
        for hole in ["A", "B", "D", "E", "M"] {
            let hole = board.find_hole(hole).unwrap();
            let mut layers: Vec<(u32, u64)> = Vec::new();
            let config = EngineConfig::default();
            Analysis::new(&board)
                .count(&Starts::Holes(vec![hole]), &config, &mut |p| layers.push((p.pegs, p.positions)))
                .unwrap();
            let largest = (0..layers.len()).max_by_key(|&k| layers[k].1).unwrap();
            let first = (1..layers.len()).find(|&k| projected_positions(&layers[..k]).is_some());
            assert!(first.is_some_and(|k| k <= largest), "{hole}: first {first:?}, largest {largest}");
            for seen in first.unwrap()..layers.len() {
                let truth: f64 = layers[seen..].iter().map(|&(_, n)| n as f64).sum();
                let projected = projected_positions(&layers[..seen]).expect("once shown, always shown");
                let ratio = projected / truth;
                assert!((0.5..2.0).contains(&ratio), "{hole} after {seen} layers: {ratio}");
            }
        }
    }

    #[test]
    fn long_durations_are_said_in_the_largest_unit() {
        assert_eq!(duration_words(7200.0), "2.0 hours");
        assert_eq!(duration_words(5.0 * 86400.0), "5.0 days");
        assert_eq!(duration_words(3.0 * 365.25 * 86400.0), "3.0 years");
        assert_eq!(duration_words(4e6 * 365.25 * 86400.0), "4.0e6 years");
    }
}
