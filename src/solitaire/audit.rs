//! The textbook audit: the claim, the exact truth, a simulation as the book describes it,
//! and the hypotheses that could explain the published number.
//!
//! The book (Introduction to Evolutionary Informatics, section 5.4.1.2) reports p = 0.0070
//! and 7.15 bits from four million random games with a random start hole. Seed 001 found
//! 0.0045 and suspected one million games per symmetry class, of which only some were kept.

use crate::engine::Cancel;
use crate::error::Error;
use crate::solitaire::board::{Board, builtin};
use crate::solitaire::estimates::{self, SimConfig, SimReport, StartPlan};
use crate::solitaire::exact::{Analysis, CountReport, EngineConfig, ExactReport, Starts};
use crate::solitaire::policy::Policy;
use rug::Rational;

/// The published claim: p = 0.0070 from 4,000,000 games, 7.15 bits.
pub const CLAIM_P: (u32, u32) = (7, 1000);
pub const CLAIM_GAMES: u64 = 4_000_000;
pub const CLAIM_BITS: f64 = 7.15;

#[derive(Clone, Debug)]
pub struct AuditConfig {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// Stops the audit's games and exact runs once cancelled.
    pub cancel: Cancel,
}

/// The published 0.0070 has two significant digits: it stands for any estimate from 0.00695
/// to 0.00705, these bounds included.
pub const CLAIM_ROUNDED_FROM: [(u32, u32); 2] = [(139, 20_000), (141, 20_000)];

/// How well a hypothesis explains the published number, read from the z of the value nearest
/// to its prediction among those that round to 0.0070 ([`Hypothesis::z_nearest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// |z| at most 2.
    Explains,
    /// |z| above 2, at most 3.
    Strained,
    /// |z| above 3.
    RuledOut,
}

impl Verdict {
    /// The verdict on a distance of `z` standard deviations.
    pub fn of(z: f64) -> Verdict {
        match z.abs() {
            d if d <= 2.0 => Verdict::Explains,
            d if d <= 3.0 => Verdict::Strained,
            _ => Verdict::RuledOut,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Verdict::Explains => "explains",
            Verdict::Strained => "strained",
            Verdict::RuledOut => "ruled out",
        }
    }
}

/// Which games a hypothesis plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Design {
    /// Every game from a uniformly random start hole, under a policy.
    RandomStart(Policy),
    /// Equal numbers of games in each of these symmetry classes (their `class` indices),
    /// the estimates averaged.
    Classes(Vec<usize>),
}

/// One way the book's number could have come about: runs of games, each with an exact
/// win probability, whose estimates are averaged with weights.
///
/// One sign convention throughout: z = (observed - predicted) / sd, with the book's number
/// as the observation.
#[derive(Clone, Debug)]
pub struct Hypothesis {
    pub name: String,
    pub design: Design,
    pub games: u64,
    /// The exact probability the design estimates.
    pub predicted: Rational,
    /// The standard deviation of its estimate over the design's games.
    pub sd: f64,
    /// (0.0070 - predicted) / sd.
    pub z: f64,
    /// (v - predicted) / sd for the v nearest to the prediction among the values the book
    /// would print as 0.0070 (0.00695 to 0.00705); 0 when the prediction is one of them.
    pub z_nearest: f64,
    /// Read from `z_nearest` alone.
    pub verdict: Verdict,
}

impl Hypothesis {
    /// `parts`: (weight, games, exact probability) of each run averaged into the estimate.
    pub fn new(name: String, design: Design, parts: &[(Rational, u64, Rational)]) -> Hypothesis {
        let predicted: Rational = parts.iter().map(|(w, _, p)| Rational::from(w * p)).sum();
        let var: f64 = parts
            .iter()
            .map(|(w, n, p)| {
                let (w, p) = (w.to_f64(), p.to_f64());
                w * w * p * (1.0 - p) / *n as f64
            })
            .sum();
        let sd = var.sqrt();
        let [low, high] = CLAIM_ROUNDED_FROM.map(Rational::from);
        let nearest = predicted.clone().clamp(&low, &high);
        let z = (Rational::from(CLAIM_P) - &predicted).to_f64() / sd;
        let z_nearest = (nearest - &predicted).to_f64() / sd;
        Hypothesis {
            name,
            design,
            games: parts.iter().map(|(_, n, _)| n).sum(),
            predicted,
            sd,
            z,
            z_nearest,
            verdict: Verdict::of(z_nearest),
        }
    }
}

/// log2(q / p) of an assist that raises the success probability from p to q.
#[derive(Clone, Debug)]
pub struct ActiveInformation {
    pub assist: String,
    pub q: Rational,
    pub bits: f64,
}

#[derive(Clone, Debug)]
pub struct AuditReport {
    pub config: AuditConfig,
    /// Exact values under uniform random play, every start.
    pub exact: ExactReport,
    /// Exact random-start win probability under every policy: (policy, p).
    pub policies: Vec<(Policy, Rational)>,
    /// Complete games from the tip by pegs left (seed 000's histogram counts these).
    pub tip_counts: CountReport,
    /// The book's experiment, run again: random start, `games` games.
    pub simulation: SimReport,
    pub hypotheses: Vec<Hypothesis>,
    pub active_information: Vec<ActiveInformation>,
}

impl AuditReport {
    pub fn random_start(&self) -> &Rational {
        self.exact.random_start.as_ref().expect("every start evaluated")
    }
}

/// Plays `games` of the audit's random games on one thread (a calibration: the caller times it).
pub fn calibrate(config: &AuditConfig, games: u64) {
    if let Ok(board) = builtin("triangle5") {
        let sim = SimConfig {
            games,
            seed: config.seed,
            threads: 1,
            policy: Policy::Uniform,
            starts: StartPlan::Random,
            exact: false,
            cancel: config.cancel.clone(),
        };
        estimates::calibrate(&board, &sim, games);
    }
}

/// The whole audit on the 15-hole board. Each policy's exact values are computed once:
/// the uniform player's report serves the table, the hypotheses and the simulation alike.
pub fn run(config: &AuditConfig, done: &(dyn Fn(u64) + Sync)) -> Result<AuditReport, Error> {
    let board = builtin("triangle5")?;
    let analysis = Analysis::new(&board);
    let exact_of = |policy| {
        analysis.exact(
            &Starts::All,
            &EngineConfig { policy, cancel: config.cancel.clone(), ..EngineConfig::default() },
            &mut |_| {},
        )
    };
    let exact = exact_of(Policy::Uniform)?;
    let mut policies = Vec::new();
    for policy in crate::solitaire::policy::POLICIES {
        let win = match policy {
            Policy::Uniform => exact.random_start.clone(),
            other => exact_of(other)?.random_start,
        };
        policies.push((policy, win.expect("every start evaluated")));
    }
    let tip = board.find_hole("A")?;
    let tip_counts = analysis.count(
        &Starts::Holes(vec![tip]),
        &EngineConfig { cancel: config.cancel.clone(), ..EngineConfig::default() },
        &mut |_| {},
    )?;
    let sim_config = SimConfig {
        games: config.games,
        seed: config.seed,
        threads: config.threads,
        policy: Policy::Uniform,
        starts: StartPlan::Random,
        exact: true,
        cancel: config.cancel.clone(),
    };
    let simulation = estimates::run_with_exact(&board, &sim_config, exact.clone(), done)?;
    Ok(AuditReport {
        config: config.clone(),
        hypotheses: hypotheses(&board, &exact, &policies),
        active_information: active_information(&board, &exact, tip),
        exact,
        policies,
        tip_counts,
        simulation,
    })
}

fn hole_names(board: &Board, holes: &[u8]) -> String {
    holes.iter().map(|&h| board.hole_name(h)).collect::<Vec<_>>().join(" ")
}

/// The bits an assist adds over the random start: the best class, and the tip.
fn active_information(board: &Board, exact: &ExactReport, tip: u8) -> Vec<ActiveInformation> {
    let random = exact.random_start.clone().expect("every start evaluated");
    let best = exact.classes.iter().max_by(|a, b| a.value.cmp(&b.value)).expect("a class");
    let assist = |assist: String, q: &Rational| ActiveInformation {
        assist,
        q: q.clone(),
        bits: crate::render::number::bits_ratio(q, &random),
    };
    vec![
        assist(format!("choosing the best start class ({})", hole_names(board, &best.holes)), &best.value),
        assist("choosing the tip (A) as the start".into(), &exact.starts[tip as usize].win),
    ]
}

/// The designs that could have produced the book's number, each judged against it: the one
/// the book describes, one class alone (the tip's class A K O is seed 001's suggestion), the
/// four classes or two of them averaged (1M games each), and the other random players.
fn hypotheses(board: &Board, exact: &ExactReport, policies: &[(Policy, Rational)]) -> Vec<Hypothesis> {
    let names = |holes: &[u8]| hole_names(board, holes);
    let one = |p: &Rational| vec![(Rational::from(1), CLAIM_GAMES, p.clone())];
    let random = exact.random_start.clone().expect("every start evaluated");
    let mut out = vec![Hypothesis::new(
        "random start hole, as the book describes".into(),
        Design::RandomStart(Policy::Uniform),
        &one(&random),
    )];
    for c in &exact.classes {
        let name = format!("only class {} empty", names(&c.holes));
        out.push(Hypothesis::new(name, Design::Classes(vec![c.class]), &one(&c.value)));
    }
    let million = CLAIM_GAMES / 4;
    let quarter = Rational::from((1, 4));
    let all_four: Vec<_> =
        exact.classes.iter().map(|c| (quarter.clone(), million, c.value.clone())).collect();
    let every = Design::Classes(exact.classes.iter().map(|c| c.class).collect());
    out.push(Hypothesis::new("1M games in each of the four classes, averaged".into(), every, &all_four));
    let half = Rational::from((1, 2));
    for (i, a) in exact.classes.iter().enumerate() {
        for b in &exact.classes[i + 1..] {
            out.push(Hypothesis::new(
                format!("1M in each of classes {} and {}, averaged", names(&a.holes), names(&b.holes)),
                Design::Classes(vec![a.class, b.class]),
                &[(half.clone(), million, a.value.clone()), (half.clone(), million, b.value.clone())],
            ));
        }
    }
    for (policy, p) in policies.iter().filter(|(policy, _)| *policy != Policy::Uniform) {
        let name = format!("{policy} player, random start hole");
        out.push(Hypothesis::new(name, Design::RandomStart(*policy), &one(p)));
    }
    out
}
