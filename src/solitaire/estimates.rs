//! Simulation beside the exact engine: every estimate with its 95% interval, the exact
//! value it estimates, the z-score between them, and a chi-square test of pegs left.

use crate::engine::Cancel;
use crate::engine::stats::{self, ChiSquare};
use crate::error::Error;
use crate::solitaire::board::Board;
use crate::solitaire::exact::{
    Analysis, EngineConfig, ExactReport, PositionExact, StartExact, Starts, pegs_left_moment,
};
use crate::solitaire::pegs::Pegs;
use crate::solitaire::policy::Policy;
use crate::solitaire::simulate::{Run, RunTally, Waves, simulate_from, simulate_in_waves};
use rug::Rational;
use std::collections::BTreeMap;

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPlan {
    /// A uniformly random empty hole for every game (the textbook's set-up).
    Random,
    /// `games` games from each of these holes.
    Each(Vec<u8>),
    /// This many games in each symmetry class (start drawn within the class).
    PerClass(u64),
}

/// A validated simulation request.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub policy: Policy,
    pub starts: StartPlan,
    /// Compare with the exact engine (skip for boards too big for it).
    pub exact: bool,
    /// Stops the games (and the exact engine) once cancelled.
    pub cancel: Cancel,
}

impl SimConfig {
    /// How many games the plan plays in all on `board` (at most u64::MAX: see
    /// [`SimConfig::checked_total_games`]).
    pub fn total_games(&self, board: &Board) -> u64 {
        self.checked_total_games(board).unwrap_or(u64::MAX)
    }

    /// How many games the plan plays in all on `board`, or None when that count does not fit
    /// in a u64 (the runs' counts are added in one).
    pub fn checked_total_games(&self, board: &Board) -> Option<u64> {
        match &self.starts {
            StartPlan::Random => Some(self.games),
            StartPlan::Each(holes) => self.games.checked_mul(holes.len() as u64),
            StartPlan::PerClass(n) => {
                n.checked_mul(crate::SymmetryGroup::of_board(board).hole_orbits().len() as u64)
            }
        }
    }
}

/// Plays `games` games of the plan's board and policy from random starts on one thread and
/// throws them away: timed by the caller, a projection of a long run's duration.
pub fn calibrate(board: &Board, config: &SimConfig, games: u64) {
    let holes = (0..board.hole_count() as u8).collect();
    let run = Run { label: String::new(), holes, games };
    let _ = crate::solitaire::simulate::simulate(
        board,
        config.policy,
        &[run],
        config.seed,
        1,
        &|_| {},
        &config.cancel,
    );
}

/// One estimate: a set of games, what they gave, and what the exact engine says.
#[derive(Clone, Debug)]
pub struct Estimate {
    pub holes: Vec<u8>,
    pub games: u64,
    pub wins: u64,
    /// Games by pegs left (index = pegs).
    pub pegs_left: Vec<u64>,
    pub ci95: (f64, f64),
    pub exact: Option<Rational>,
    pub z: Option<f64>,
    /// The exact distribution of pegs left for these games (index = pegs).
    pub exact_pegs_left: Option<Vec<Rational>>,
    /// The exact variance of one game's pegs left as these games were drawn: that of
    /// `exact_pegs_left` where every game drew its start alike, and the games-weighted mean of
    /// each run's own variance where runs of fixed size were pooled (`--start all`,
    /// `--per-class`), whose mean does not vary with the spread between the runs.
    pub exact_variance: Option<Rational>,
    pub chi_square: Option<ChiSquare>,
}

impl Estimate {
    pub fn estimate(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.wins as f64 / self.games as f64 }
    }

    /// The mean number of pegs left over the games, with its 95% interval (normal, from the
    /// games' own spread), beside the exact expectation when the exact engine ran; `None`
    /// for no games.
    pub fn mean_pegs_left(&self) -> Option<MeanPegsLeft> {
        let counted = self.pegs_left.iter().enumerate().map(|(k, &c)| (k as u128, u128::from(c)));
        let (sum, squares) =
            counted.fold((0, 0), |(sum, squares), (k, c)| (sum + k * c, squares + k * k * c));
        let m = stats::sample_mean(self.games, sum, squares)?;
        let moments = self
            .exact_pegs_left
            .as_ref()
            .zip(self.exact_variance.as_ref())
            .map(|(d, variance)| (pegs_left_moment((0u32..).zip(d), 1), variance.clone()));
        // As for P(one peg), the z-score measures the simulated mean against the exact
        // spread of the mean, not the games' own.
        let z = moments.as_ref().and_then(|(e, v)| stats::mean_z(m.mean, self.games, e.to_f64(), v.to_f64()));
        Some(MeanPegsLeft { estimate: m.mean, ci95: m.ci95, exact: moments.map(|(e, _)| e), z })
    }
}

/// The simulated mean of pegs left (see [`Estimate::mean_pegs_left`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MeanPegsLeft {
    pub estimate: f64,
    /// None for one game (see [`stats::SampleMean`]).
    pub ci95: Option<(f64, f64)>,
    pub exact: Option<Rational>,
    /// (estimate - exact) / sqrt(exact variance / games), when the exact distribution is known
    /// and has a spread.
    pub z: Option<f64>,
}

#[derive(Clone, Debug)]
pub struct SimReport {
    pub config: SimConfig,
    pub overall: Estimate,
    /// Per run (one per start hole with `Each`, one per class with `PerClass`).
    pub runs: Vec<(Run, RunTally)>,
    pub classes: Vec<Estimate>,
    pub starts: Vec<Estimate>,
    pub exact: Option<ExactReport>,
    /// Wall time of the games alone (not of the exact engine): for a throughput figure.
    pub play_time: std::time::Duration,
}

/// Builds the runs of a plan.
pub fn runs_of(board: &Board, analysis: &Analysis, config: &SimConfig) -> Vec<Run> {
    let name = |h: u8| board.hole_name(h).to_string();
    match &config.starts {
        StartPlan::Random => vec![Run {
            label: "random start".into(),
            holes: (0..board.hole_count() as u8).collect(),
            games: config.games,
        }],
        StartPlan::Each(holes) => holes
            .iter()
            .map(|&h| Run { label: format!("start {}", name(h)), holes: vec![h], games: config.games })
            .collect(),
        StartPlan::PerClass(games) => analysis
            .group
            .hole_orbits()
            .into_iter()
            .map(|holes| Run {
                label: format!("class {}", holes.iter().map(|&h| name(h)).collect::<Vec<_>>().join(" ")),
                holes,
                games: *games,
            })
            .collect(),
    }
}

/// Runs the simulation and sets it beside the exact values (when `config.exact`).
pub fn run(board: &Board, config: &SimConfig, done: &(dyn Fn(u64) + Sync)) -> Result<SimReport, Error> {
    run_in_waves(board, config, done, Waves { resume: Vec::new(), on_wave: &mut |_| Ok(()) })
}

/// `run`, resumed from `waves.resume` and telling `waves.on_wave` of every wave of games
/// (for checkpoints); the report is the same as an uninterrupted `run`'s.
pub fn run_in_waves(
    board: &Board,
    config: &SimConfig,
    done: &(dyn Fn(u64) + Sync),
    waves: Waves<'_>,
) -> Result<SimReport, Error> {
    let analysis = Analysis::new(board);
    let runs = runs_of(board, &analysis, config);
    let exact = if config.exact {
        // Only the starts the games are played from: one start of the English board costs
        // seconds, all of them minutes.
        let mut played: Vec<u8> = runs.iter().flat_map(|r| r.holes.iter().copied()).collect();
        played.sort_unstable();
        played.dedup();
        let starts = if played.len() == board.hole_count() { Starts::All } else { Starts::Holes(played) };
        let engine =
            EngineConfig { policy: config.policy, cancel: config.cancel.clone(), ..EngineConfig::default() };
        Some(analysis.exact(&starts, &engine, &mut |_| {})?)
    } else {
        None
    };
    play_beside(board, &analysis, config, (runs, exact), done, waves)
}

/// `run` beside an exact report computed already (the audit has one): it must be the
/// report of `config.policy` over every start of `board`. `config.exact` is not consulted.
pub fn run_with_exact(
    board: &Board,
    config: &SimConfig,
    exact: ExactReport,
    done: &(dyn Fn(u64) + Sync),
) -> Result<SimReport, Error> {
    if exact.policy != config.policy || exact.starts.len() != board.hole_count() {
        return Err(Error::Invalid(format!(
            "an exact report of the {} player over {} starts cannot stand beside a simulation of the {} \
             player on a board of {} holes",
            exact.policy,
            exact.starts.len(),
            config.policy,
            board.hole_count()
        )));
    }
    let waves = Waves { resume: Vec::new(), on_wave: &mut |_| Ok(()) };
    let analysis = Analysis::new(board);
    let runs = runs_of(board, &analysis, config);
    play_beside(board, &analysis, config, (runs, Some(exact)), done, waves)
}

/// Plays the games of `runs` (the plan's) and makes every estimate, beside `exact` when
/// there is one.
fn play_beside(
    board: &Board,
    analysis: &Analysis,
    config: &SimConfig,
    (runs, exact): (Vec<Run>, Option<ExactReport>),
    done: &(dyn Fn(u64) + Sync),
    waves: Waves<'_>,
) -> Result<SimReport, Error> {
    let clock = std::time::Instant::now();
    let (seed, threads) = (config.seed, config.threads);
    let tallies =
        simulate_in_waves(board, config.policy, &runs, (seed, threads), done, &config.cancel, waves)?;
    let play_time = clock.elapsed();
    let n = board.hole_count();

    let overall = overall(n, &runs, &tallies, exact.as_ref());
    // Per start hole and per class: all their games share one exact probability.
    let played: Vec<u8> = (0..n as u8)
        .filter(|&h| tallies.iter().any(|t| t.counts[h as usize].iter().sum::<u64>() > 0))
        .collect();
    let starts: Vec<Estimate> =
        played.iter().map(|&h| pooled(n, &tallies, vec![h], exact.as_ref())).collect();
    let classes: Vec<Estimate> = analysis
        .group
        .hole_orbits()
        .into_iter()
        .filter(|orbit| orbit.iter().any(|h| played.contains(h)))
        .map(|orbit| {
            // Every hole of the class, as `exact` lists it (the holes played were listed
            // alone: class 1 of triangle4 as A G when no game started in J); its games are
            // those of the holes played.
            let here = orbit.iter().copied().filter(|h| played.contains(h)).collect();
            Estimate { holes: orbit, ..pooled(n, &tallies, here, exact.as_ref()) }
        })
        .collect();
    Ok(SimReport {
        config: config.clone(),
        overall,
        runs: runs.into_iter().zip(tallies).collect(),
        classes,
        starts,
        exact,
        play_time,
    })
}

/// All games pooled. Each run is one design: its games start uniformly in its holes, so
/// its exact distribution of pegs left is the mean over those holes. Runs of fixed size are
/// strata: the spread of the pooled figures is the sum of the runs' own, so z (of wins and
/// of the mean) comes from the runs' spreads, and the chi-square test is the sum of each
/// run's (the pooled distribution's would add the spread between the runs, which a
/// stratified sample does not have, and pass a wrong model too easily).
fn overall(n: usize, runs: &[Run], tallies: &[RunTally], exact: Option<&ExactReport>) -> Estimate {
    let mut counts = vec![0u64; n + 1];
    let (mut mean, mut var) = (0.0, 0.0);
    let mut exact_total = Rational::new();
    let mut dist = vec![Rational::new(); n + 1];
    let mut variance = Rational::new();
    let mut tests = Vec::new();
    let total_games: u64 = tallies.iter().map(|t| t.games()).sum();
    for (run, tally) in runs.iter().zip(tallies) {
        let mut here = vec![0u64; n + 1];
        for c in &tally.counts {
            add_to(&mut here, c);
        }
        add_to(&mut counts, &here);
        if let Some(exact) = exact {
            let (p, d) = mean_over(exact, &run.holes, n);
            let g = tally.games() as f64;
            let pf = p.to_f64();
            mean += g * pf;
            var += g * pf * (1.0 - pf);
            exact_total += p * Rational::from(tally.games());
            let share = Rational::from((tally.games(), total_games.max(1)));
            variance += variance_of(&d) * &share;
            tests.push(stats::chi_square(&here, &floats(&d)));
            for (a, b) in dist.iter_mut().zip(d) {
                *a += b * &share;
            }
        }
    }
    let wins = counts[1];
    let have_exact = exact.is_some();
    Estimate {
        holes: (0..n as u8).collect(),
        games: total_games,
        wins,
        ci95: stats::wilson95(wins, total_games),
        exact: have_exact.then(|| exact_total / Rational::from(total_games)),
        z: (have_exact && var > 0.0).then(|| (wins as f64 - mean) / var.sqrt()),
        chi_square: have_exact.then(|| stats::chi_square_of_strata(tests.into_iter().flatten())).flatten(),
        exact_pegs_left: have_exact.then_some(dist),
        exact_variance: have_exact.then_some(variance),
        pegs_left: counts,
    }
}

/// The variance of one game's pegs left under the exact distribution `d` (index = pegs):
/// E[K^2] - E[K]^2.
pub(crate) fn variance_of(d: &[Rational]) -> Rational {
    let moment = |power| pegs_left_moment((0u32..).zip(d), power);
    let mean = moment(1);
    moment(2) - Rational::from(&mean * &mean)
}

/// The exact win probability and pegs-left distribution of a run whose games start
/// uniformly in `holes`: the means over those holes.
fn mean_over(exact: &ExactReport, holes: &[u8], n: usize) -> (Rational, Vec<Rational>) {
    let mut win = Rational::new();
    let mut dist = vec![Rational::new(); n + 1];
    for &h in holes {
        let s = exact_of(exact, h);
        win += &s.win;
        for (pegs, p) in &s.pegs_left {
            dist[*pegs as usize] += p;
        }
    }
    let k = holes.len() as u32;
    (win / k, dist.into_iter().map(|d| d / k).collect())
}

/// The exact figures of start `hole` in a report that holds it (the report of every start,
/// or of the starts played).
fn exact_of(exact: &ExactReport, hole: u8) -> &StartExact {
    exact.starts.iter().find(|s| s.hole == hole).expect("the exact report holds every start played")
}

/// The games of every run that started in `holes`, beside the exact values of the first
/// of them (the holes share one class, or are one hole).
fn pooled(n: usize, tallies: &[RunTally], holes: Vec<u8>, exact: Option<&ExactReport>) -> Estimate {
    let mut counts = vec![0u64; n + 1];
    for tally in tallies {
        for &h in &holes {
            add_to(&mut counts, &tally.counts[h as usize]);
        }
    }
    let here = exact.map(|e| exact_of(e, holes[0]));
    estimate(counts, holes, here.map(|s| (&s.win, &s.pegs_left)))
}

/// Games tallied by pegs left, beside the exact P(one peg left) and distribution of pegs
/// left that every one of them shares, when known.
fn estimate(
    counts: Vec<u64>,
    holes: Vec<u8>,
    exact: Option<(&Rational, &BTreeMap<u32, Rational>)>,
) -> Estimate {
    let games: u64 = counts.iter().sum();
    let wins = counts[1];
    let dist = exact.map(|(_, pegs_left)| {
        let mut d = vec![Rational::new(); counts.len()];
        for (pegs, p) in pegs_left {
            d[*pegs as usize] = p.clone();
        }
        d
    });
    Estimate {
        games,
        wins,
        ci95: stats::wilson95(wins, games),
        z: exact.and_then(|(win, _)| stats::z_score(wins, games, win.to_f64())),
        chi_square: dist.as_ref().and_then(|d| stats::chi_square(&counts, &floats(d))),
        exact_variance: dist.as_deref().map(variance_of),
        exact_pegs_left: dist,
        exact: exact.map(|(win, _)| win.clone()),
        pegs_left: counts,
        holes,
    }
}

/// A simulation from one position (`simulate --position`), beside the position's exact
/// values when they were computed.
#[derive(Clone, Debug)]
pub struct PositionSimReport {
    pub config: SimConfig,
    pub position: Pegs,
    pub estimate: Estimate,
    pub exact: Option<PositionExact>,
    /// Wall time of the games alone.
    pub play_time: std::time::Duration,
}

/// Plays `config.games` games from `position` and sets them beside its exact values (when
/// `config.exact`). `config.starts` is not consulted.
pub fn run_from_position(
    board: &Board,
    position: Pegs,
    config: &SimConfig,
    done: &(dyn Fn(u64) + Sync),
) -> Result<PositionSimReport, Error> {
    let analysis = Analysis::new(board);
    let position = analysis.on_board(position)?;
    let exact = if config.exact {
        let engine =
            EngineConfig { policy: config.policy, cancel: config.cancel.clone(), ..EngineConfig::default() };
        Some(analysis.exact_position(position, &engine, &mut |_| {})?)
    } else {
        None
    };
    let clock = std::time::Instant::now();
    let (seed, threads) = (config.seed, config.threads);
    let counts =
        simulate_from(board, config.policy, position, config.games, (seed, threads), done, &config.cancel)?;
    let play_time = clock.elapsed();
    let figures = exact.as_ref().map(|e| (&e.figures.win, &e.figures.pegs_left));
    let estimate = estimate(counts, Vec::new(), figures);
    Ok(PositionSimReport { config: config.clone(), position, estimate, exact, play_time })
}

/// Adds tallies by pegs left.
fn add_to(total: &mut [u64], counts: &[u64]) {
    for (a, b) in total.iter_mut().zip(counts) {
        *a += b;
    }
}

fn floats(values: &[Rational]) -> Vec<f64> {
    values.iter().map(|v| v.to_f64()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;

    fn config(policy: Policy) -> SimConfig {
        SimConfig {
            games: 70_000,
            seed: 9,
            threads: 1,
            policy,
            starts: StartPlan::PerClass(20_000),
            exact: true,
            cancel: Cancel::new(),
        }
    }

    /// Ten games, four with 1 peg left and six with 2, against an exact distribution of
    /// 1/2 each: mean 1.6 against 3/2, exact variance 1/4, so z = 0.1 / sqrt(1/40).
    #[test]
    fn the_mean_of_pegs_left_is_measured_against_the_exact_spread() {
        let half = Rational::from((1, 2));
        let estimate = Estimate {
            holes: vec![0],
            games: 10,
            wins: 4,
            pegs_left: vec![0, 4, 6],
            ci95: (0.0, 1.0),
            exact: Some(half.clone()),
            z: None,
            exact_pegs_left: Some(vec![Rational::new(), half.clone(), half]),
            exact_variance: Some(Rational::from((1, 4))),
            chi_square: None,
        };
        let mean = estimate.mean_pegs_left().unwrap();
        assert_eq!(mean.exact, Some(Rational::from((3, 2))));
        assert!((mean.estimate - 1.6).abs() < 1e-12);
        let z = mean.z.unwrap();
        assert!((z - 0.1 / (0.025f64).sqrt()).abs() < 1e-9, "{z}");
        // From the games' own spread (sample variance 0.2667) z would be 0.612, not 0.632.
        assert!((z - 0.632_455_532).abs() < 1e-6, "{z}");
        let unknown = Estimate { exact_pegs_left: None, ..estimate };
        assert_eq!(unknown.mean_pegs_left().unwrap().z, None);
    }

    #[test]
    fn a_report_given_equals_the_report_computed() {
        let board = builtin("triangle5").unwrap();
        let cfg = config(Policy::PegFirst);
        let computed = run(&board, &cfg, &|_| {}).unwrap();
        let exact = computed.exact.clone().unwrap();
        let given = run_with_exact(&board, &SimConfig { exact: false, ..cfg }, exact, &|_| {}).unwrap();
        let figures = |e: &Estimate| {
            (e.games, e.wins, e.exact.clone(), e.z, e.exact_pegs_left.clone(), e.chi_square.clone())
        };
        assert_eq!(figures(&computed.overall), figures(&given.overall));
        assert!(computed.overall.z.is_some() && computed.overall.chi_square.is_some());
        for (a, b) in
            computed.classes.iter().zip(&given.classes).chain(computed.starts.iter().zip(&given.starts))
        {
            assert_eq!(figures(a), figures(b));
        }
        assert_eq!(computed.classes.len(), 4);
    }

    /// Games from a few starts are set beside the exact figures of those starts alone (the
    /// exact engine evaluates only their classes), equal to the figures of every start's report.
    #[test]
    fn games_from_some_starts_get_the_exact_figures_of_those_starts_only() {
        let board = builtin("triangle6").unwrap();
        let (a, e) = (board.find_hole("A").unwrap(), board.find_hole("E").unwrap());
        let cfg = SimConfig { games: 1_000, starts: StartPlan::Each(vec![e, a]), ..config(Policy::Uniform) };
        let played = run(&board, &cfg, &|_| {}).unwrap();
        let exact = played.exact.unwrap();
        assert_eq!(exact.starts.iter().map(|s| s.hole).collect::<Vec<_>>(), vec![a, e]);
        let every = Analysis::new(&board).exact(&Starts::All, &EngineConfig::default(), &mut |_| {}).unwrap();
        let figures = |s: &StartExact| {
            (s.win.clone(), s.pegs_left.clone(), s.finish.clone(), s.expected_pegs_left.clone())
        };
        for s in &exact.starts {
            assert_eq!(figures(s), figures(&every.starts[s.hole as usize]));
        }
        let started_in = |hole: u8| played.starts.iter().find(|x| x.holes == vec![hole]).unwrap();
        assert_eq!(started_in(a).exact.as_ref(), Some(&every.starts[a as usize].win));
        assert_eq!(started_in(e).exact.as_ref(), Some(&every.starts[e as usize].win));
        assert_eq!(
            played.overall.exact,
            Some((every.starts[a as usize].win.clone() + &every.starts[e as usize].win) / 2u32)
        );
    }

    #[test]
    fn a_report_of_another_policy_is_refused() {
        let board = builtin("triangle5").unwrap();
        let uniform =
            Analysis::new(&board).exact(&Starts::All, &EngineConfig::default(), &mut |_| {}).unwrap();
        let err = run_with_exact(&board, &config(Policy::HoleFirst), uniform, &|_| {}).unwrap_err();
        assert!(err.to_string().contains("exact report of the uniform player"), "{err}");
    }
}
