//! Questions about explicit Markov chains (from files or built-in games), answered exactly
//! by the engine's explicit solver, with the seeded simulation beside them on request.
//! Typed results only: `render::chain` turns them into text, JSON and CSV.

use crate::Cancel;
use crate::engine::Report;
use crate::engine::explicit::questions::{self, Ends};
use crate::engine::explicit::sample::{self, Tally};
use crate::engine::explicit::{ExplicitChain, linear::SolveError};
use crate::engine::walk::Walks;
use crate::error::Error;
use crate::render::number::{grouped, quoted};
use rug::{Integer, Rational};

/// Which states count as reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The states of a label of the model.
    Label(String),
    /// States by number.
    States(Vec<u64>),
}

/// The seeded simulation asked for beside the exact values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simulation {
    pub runs: u64,
    pub seed: u64,
    pub threads: usize,
    /// A run that has neither reached the target nor lost every chance of it after this many
    /// steps is counted as cut short.
    pub max_steps: u64,
}

/// What to ask of a chain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Question {
    pub target: Option<Target>,
    /// A reward structure of the model, accumulated until the target.
    pub reward: Option<String>,
    /// P(T = k) and P(T <= k) for k up to this bound.
    pub distribution: Option<u32>,
    /// The memory budget in bytes: a chain whose answer is planned past it is refused before
    /// any solving, and so is a distribution of steps projected past it (its numbers grow
    /// with every step); none for no limit.
    pub memory_budget: Option<u64>,
    /// The expected visits to each transient state from the first initial state.
    pub visits: bool,
    /// Where the chain ends, even when a target is given.
    pub ends: bool,
    pub simulation: Option<Simulation>,
    /// Players each walking its own copy of the chain from the first initial state, taking
    /// turns: each one's chance of reaching the target first (see [`Race`]).
    pub race: Option<RaceQuestion>,
}

/// A race between players: how many, and to how many decimal places their chances are
/// pinned (the rounds are summed until no more than 10^-places is undecided).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceQuestion {
    pub players: u32,
    pub places: u32,
}

impl RaceQuestion {
    /// `players` racing, their chances pinned to [`RACE_PLACES`] places.
    pub fn of(players: u32) -> RaceQuestion {
        RaceQuestion { players, places: RACE_PLACES }
    }
}

/// Decimal places to which a race's chances are pinned unless asked otherwise.
pub const RACE_PLACES: u32 = 30;

/// The most decimal places a race is pinned to: the rounds, and the digits of every number
/// in them, grow with the places (Chutes and Ladders, 3 players: 30 places in 576 rounds and
/// 0.06 s, 300 places in 5,620 rounds and 0.8 s).
pub const MAX_RACE_PLACES: u32 = 1000;

/// A race's rounds are summed at most this far (a walker that nearly never arrives would
/// need ever more), and its exact numbers grow at most this large (the players times the
/// bits of the chain's common denominator a round, each round's products slower as they
/// grow: a chain of 20-digit probabilities took minutes for the rounds alone); the bounds then
/// say how far apart they still are. Four players of Chutes and Ladders to 1,000 places need
/// 145,000 bits.
pub const RACE_MOST: Most = Most { rounds: 20_000, bits: 1 << 18 };

/// Who wins a race of players walking independent copies of the chain, taking turns (player
/// 1 first): each chance between exact bounds, `lower[i]` and `lower[i] + undecided`.
pub use crate::engine::explicit::race::{CutShort, Most, Race};

/// The answers for one initial state.
#[derive(Clone, Debug, PartialEq)]
pub struct StateAnswer {
    pub state: u32,
    pub reach: Rational,
    /// Expected steps and their variance; `None` when infinite (the target may be missed).
    pub steps: Option<(Rational, Rational)>,
    /// The expected reward until the target, when a reward was asked for (`Some(None)`:
    /// infinite).
    pub reward: Option<Option<Rational>>,
}

/// min, max and the average over the initial states (each one equally likely).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub min: Rational,
    pub max: Rational,
    pub average: Rational,
}

impl Summary {
    /// `None` if any value is infinite (`None`) or there is none.
    fn of<'a>(values: impl Iterator<Item = Option<&'a Rational>>) -> Option<Summary> {
        let values: Option<Vec<&Rational>> = values.collect();
        let values = values.filter(|v| !v.is_empty())?;
        let min = (*values.iter().min()?).clone();
        let max = (*values.iter().max()?).clone();
        let sum: Rational = values.iter().copied().sum();
        Some(Summary { min, max, average: sum / values.len() as u32 })
    }
}

/// The distribution of the steps until the target, for a uniformly drawn initial state.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// P(T <= k) for k = 0..=bound.
    pub cumulative: Vec<Rational>,
    /// P(T = k) for k = 0..=bound.
    pub probability: Vec<Rational>,
    /// The smallest k with P(T <= k) >= 1/2, and >= 9/10, if within the bound.
    pub median: Option<u32>,
    pub percentile_90: Option<u32>,
}

/// Everything about reaching the target.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetAnswer {
    pub name: String,
    pub target_states: usize,
    pub initial: Vec<StateAnswer>,
    pub reach: Summary,
    pub steps: Option<Summary>,
    /// Each initial state's variance of the steps, summarised (its average is not the
    /// variance of a run from a uniformly drawn initial state: that is `uniform_variance`).
    pub variance: Option<Summary>,
    /// The variance of the steps of a run from a uniformly drawn initial state: the states'
    /// average variance plus the variance of their means (`None` when infinite).
    pub uniform_variance: Option<Rational>,
    pub reward: Option<(String, Option<Summary>)>,
    pub distribution: Option<Distribution>,
}

/// A place the chain ends in (a bottom component) and its probability for a uniformly drawn
/// initial state.
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    pub states: Vec<u32>,
    /// The labels every state of the component carries.
    pub labels: Vec<String>,
    pub probability: Rational,
}

/// The simulation's tallies beside the exact values they estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub simulation: Simulation,
    pub tally: Tally,
    /// The exact values for a uniformly drawn initial state.
    pub reach: Rational,
    /// The steps' mean and variance for a uniformly drawn initial state (finite only when
    /// every initial state reaches the target surely): `TargetAnswer::uniform_variance`.
    pub steps: Option<(Rational, Rational)>,
}

/// The answers about one chain.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainReport {
    pub states: usize,
    pub transitions: usize,
    pub initial_states: usize,
    pub labels: Vec<String>,
    pub rewards: Vec<String>,
    pub target: Option<TargetAnswer>,
    /// Where the chain ends, when no target was given.
    pub ends: Option<Vec<End>>,
    /// Expected visits to each transient state from the first initial state.
    pub visits: Option<Vec<(u32, Rational)>>,
    pub estimate: Option<Estimate>,
    pub race: Option<RaceAnswer>,
}

/// A race's chances, pinned to `places` decimal places (unless its rounds ran out first:
/// `race.undecided` says how far apart the bounds are).
#[derive(Clone, Debug, PartialEq)]
pub struct RaceAnswer {
    pub places: u32,
    pub race: Race,
}

/// Answers `question` about `chain` exactly (and by simulation if asked).
pub fn analyse(chain: &ExplicitChain, question: &Question, cancel: &Cancel) -> Result<ChainReport, Error> {
    let (target, name) = match &question.target {
        Some(t) => {
            let (set, name) = target_set(chain, t)?;
            (Some(set), name)
        }
        None => (None, String::new()),
    };
    if question.reward.is_some() && target.is_none() {
        return Err(Error::Invalid("a reward is accumulated until a target: name the target too".into()));
    }
    if question.distribution.is_some() && target.is_none() {
        return Err(Error::Invalid("the distribution of the steps needs a target".into()));
    }
    if question.race.is_some() && target.is_none() {
        return Err(Error::Invalid("a race is won by reaching a target: name the target".into()));
    }
    if question.simulation.is_some() && target.is_none() {
        return Err(Error::Invalid(
            "a simulation estimates the chance of reaching a target: name the target".into(),
        ));
    }
    let reward = match &question.reward {
        Some(r) => Some((r.clone(), step_reward(chain, r)?)),
        None => None,
    };
    // Checked before any solving: a simulation draws every move exactly, or not at all.
    let weighted = match question.simulation {
        Some(_) => Some(
            chain.weighted().map_err(|why| Error::Invalid(format!("cannot simulate this chain: {why}")))?,
        ),
        None => None,
    };
    let mut report = ChainReport {
        states: chain.states(),
        transitions: chain.transitions(),
        initial_states: chain.initial().len(),
        labels: chain.labels().keys().cloned().collect(),
        rewards: chain.rewards().keys().cloned().collect(),
        target: None,
        ends: None,
        visits: None,
        estimate: None,
        race: None,
    };
    if let Some(budget) = question.memory_budget {
        fits_to_answer(chain, budget)?;
    }
    let ends_wanted = target.is_none() || question.ends;
    let ends_needed = ends_wanted || question.visits;
    let ends = if ends_needed { Some(questions::ends(chain, cancel).map_err(unsolved)?) } else { None };
    if let Some(target) = &target {
        report.target = Some(target_answer(
            chain,
            target,
            name,
            reward,
            (question.distribution, question.memory_budget),
            cancel,
        )?);
        if let (Some(sim), Some(weighted)) = (question.simulation, &weighted) {
            let t = report.target.as_ref().expect("just set");
            let walks =
                Walks { runs: sim.runs, seed: sim.seed, threads: sim.threads, max_steps: sim.max_steps };
            let tally =
                sample::simulate(weighted, target, walks, cancel).map_err(|c| Error::Interrupted {
                    done: format!(
                        "{} of {} simulated runs finished",
                        grouped(c.trials_done),
                        grouped(sim.runs)
                    ),
                })?;
            report.estimate = Some(Estimate {
                simulation: sim,
                tally,
                reach: t.reach.average.clone(),
                steps: t.steps.as_ref().map(|s| s.average.clone()).zip(t.uniform_variance.clone()),
            });
        }
    }
    if let (Some(asked), Some(target)) = (question.race, &target) {
        report.race = Some(RaceAnswer { places: asked.places, race: race(chain, target, asked, cancel)? });
    }
    if let (true, Some(e)) = (ends_wanted, &ends) {
        report.ends = Some(ends_answer(chain, e));
    }
    if question.visits {
        let e = ends.as_ref().expect("computed when visits are asked for");
        let from = chain.initial()[0];
        let v = questions::expected_visits(chain, e, from, cancel).map_err(unsolved)?;
        report.visits =
            Some(v.into_iter().enumerate().filter_map(|(s, v)| v.map(|v| (s as u32, v))).collect());
    }
    Ok(report)
}

/// The memory answering `chain` is planned to need: the chain and its answers
/// ([`formats::BYTES_PER_ANSWERED_TRANSITION`] a transition, [`formats::BYTES_PER_STATE`] a
/// state), and the dense matrix of 8 bytes an entry the exact solver factors its largest
/// strongly connected component in (past the few states it eliminates in rationals). Returns
/// the bytes and that component's states.
///
/// [`formats::BYTES_PER_ANSWERED_TRANSITION`]: crate::formats::BYTES_PER_ANSWERED_TRANSITION
/// [`formats::BYTES_PER_STATE`]: crate::formats::BYTES_PER_STATE
pub fn planned_answer(chain: &ExplicitChain) -> (u64, usize) {
    use crate::engine::explicit::{graph, linear};
    use crate::formats::{BYTES_PER_ANSWERED_TRANSITION, BYTES_PER_STATE};
    let n = chain.states();
    let largest = graph::components(n, &vec![true; n], |s| chain.row(s).map(|(t, _)| t))
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    let dense = if largest > linear::ELIMINATION_LIMIT { (largest as u64).pow(2) * 8 } else { 0 };
    let held = (n as u64)
        .saturating_mul(BYTES_PER_STATE)
        .saturating_add((chain.transitions() as u64).saturating_mul(BYTES_PER_ANSWERED_TRANSITION));
    (held.saturating_add(dense), largest)
}

/// Refuses, before any solving, a chain whose answer is planned past `budget` bytes: GMP
/// aborts the process when an allocation fails, so the answer must not start where it
/// cannot end (`chain` on triangle6's exported chain aborted under `ulimit -v` 64-240 MB).
fn fits_to_answer(chain: &ExplicitChain, budget: u64) -> Result<(), Error> {
    use crate::render::number::{bytes, plural};
    let (need, largest) = planned_answer(chain);
    if need <= budget {
        return Ok(());
    }
    let dense = (largest as u64).pow(2) * 8;
    Err(Error::Invalid(if dense > budget {
        format!(
            "too large to solve exactly in this memory: {} states all reach one another (one strongly connected \
             component), whose factorization needs {}, over the memory budget of {}",
            grouped(largest),
            bytes(dense),
            bytes(budget)
        )
    } else {
        format!(
            "answering a chain of {} and {} is projected to need {}, over the memory budget of {}",
            plural(chain.states() as u64, "state", "states"),
            plural(chain.transitions() as u64, "transition", "transitions"),
            bytes(need),
            bytes(budget)
        )
    }))
}

/// The race from the first initial state, summed until 10^-places is undecided. A walker
/// that may never arrive would leave the bounds apart for ever: refused.
fn race(chain: &ExplicitChain, target: &[bool], asked: RaceQuestion, cancel: &Cancel) -> Result<Race, Error> {
    let RaceQuestion { players, places } = asked;
    if players == 0 {
        return Err(Error::Invalid("a race needs at least one player".into()));
    }
    let from = chain.initial()[0];
    if !questions::reachability(chain, target).sure[from as usize] {
        return Err(Error::Invalid(format!(
            "a race is summed round by round until it is decided, but from state {from} the target may never be \
             reached"
        )));
    }
    let gap = Rational::from((1, rug::Integer::from(rug::Integer::u_pow_u(10, places))));
    crate::engine::explicit::race::race(chain, target, from, players, &gap, RACE_MOST, cancel)
        .map_err(unsolved)
}

fn unsolved(e: SolveError) -> Error {
    match e {
        // What was done by then, in the words of a chain being built or checked: the line
        // reads "interrupted: the chain was being solved".
        SolveError::Cancelled => Error::Interrupted { done: "the chain was being solved".into() },
        SolveError::ComponentTooLarge { states, bytes } => Error::Invalid(format!(
            "too large to solve exactly: {} states all reach one another (one strongly connected component), \
             more than the {} the exact solver factors; it would need {}",
            grouped(states),
            grouped(crate::engine::explicit::linear::MAX_COMPONENT_STATES),
            crate::render::number::bytes(bytes)
        )),
        SolveError::OutOfMemory { states, bytes } => Error::Invalid(format!(
            "too large to solve exactly in this memory: {} states all reach one another (one strongly connected \
             component), whose factorization needs {}, and the allocator refused it",
            grouped(states),
            crate::render::number::bytes(bytes)
        )),
        SolveError::PastBudget { bound, step, bytes, budget } => Error::Invalid(format!(
            "the distribution of {} steps does not fit the memory budget of {}: its exact numbers grow with \
             every step, and at step {} it was projected to need {}; ask for the distribution of fewer steps",
            grouped(bound as usize),
            crate::render::number::bytes(budget),
            grouped(step as usize),
            crate::render::number::bytes(bytes)
        )),
        e => Error::Invalid(format!("cannot solve this chain exactly: {e}")),
    }
}

fn target_set(chain: &ExplicitChain, target: &Target) -> Result<(Vec<bool>, String), Error> {
    let n = chain.states();
    match target {
        Target::Label(name) => {
            let set = chain.label_set(name).ok_or_else(|| {
                let known = names(chain.labels().keys());
                Error::Invalid(format!("the model has no label {} (its labels: {known})", quoted(name)))
            })?;
            Ok((set, name.clone()))
        }
        Target::States(states) => {
            let mut set = vec![false; n];
            for &s in states {
                if s >= n as u64 {
                    return Err(Error::Invalid(format!(
                        "the model has no state {s} (its states are 0 to {})",
                        n - 1
                    )));
                }
                set[s as usize] = true;
            }
            let list: Vec<String> = states.iter().map(u64::to_string).collect();
            Ok((set, format!("states {}", list.join(","))))
        }
    }
}

fn step_reward(chain: &ExplicitChain, name: &str) -> Result<Vec<Rational>, Error> {
    chain.step_reward(name).ok_or_else(|| {
        let known = names(chain.rewards().keys());
        Error::Invalid(format!("the model has no reward structure {} (its rewards: {known})", quoted(name)))
    })
}

/// A model's names as a message lists them: the first few, each cut short if long, and how
/// many more there are, so that a model of thousands of labels still gets one readable line.
fn names<'a>(all: impl ExactSizeIterator<Item = &'a String>) -> String {
    const LISTED: usize = 10;
    let count = all.len();
    if count == 0 {
        return "none".to_string();
    }
    let shown: Vec<String> = all.take(LISTED).map(|n| crate::engine::error::shortened(n)).collect();
    match count - shown.len() {
        0 => shown.join(", "),
        more => format!("{}, and {more} more", shown.join(", ")),
    }
}

fn target_answer(
    chain: &ExplicitChain,
    target: &[bool],
    name: String,
    reward: Option<(String, Vec<Rational>)>,
    (bound, memory_budget): (Option<u32>, Option<u64>),
    cancel: &Cancel,
) -> Result<TargetAnswer, Error> {
    let reach = questions::reach_probability(chain, target, cancel).map_err(unsolved)?;
    let reward_columns: Vec<Vec<Rational>> = reward.iter().map(|(_, r)| r.clone()).collect();
    let e = questions::expectations(chain, target, &reward_columns, cancel).map_err(unsolved)?;
    let steps = e.steps;
    let rewards = e.rewards.into_iter().next();
    let initial: Vec<StateAnswer> = chain
        .initial()
        .iter()
        .map(|&s| StateAnswer {
            state: s,
            reach: reach[s as usize].clone(),
            steps: steps[s as usize].clone(),
            reward: rewards.as_ref().map(|r| r[s as usize].clone()),
        })
        .collect();
    let reach_summary =
        Summary::of(initial.iter().map(|a| Some(&a.reach))).expect("a chain has an initial state");
    let steps_summary = Summary::of(initial.iter().map(|a| a.steps.as_ref().map(|s| &s.0)));
    let variance = Summary::of(initial.iter().map(|a| a.steps.as_ref().map(|s| &s.1)));
    let uniform_variance = uniform_variance(&initial);
    let reward = reward.map(|(name, _)| {
        let summary = Summary::of(initial.iter().map(|a| a.reward.as_ref().and_then(|r| r.as_ref())));
        (name, summary)
    });
    let distribution = bound.map(|k| distribution(chain, target, k, memory_budget, cancel)).transpose()?;
    let target_states = target.iter().filter(|t| **t).count();
    Ok(TargetAnswer {
        name,
        target_states,
        initial,
        reach: reach_summary,
        steps: steps_summary,
        variance,
        uniform_variance,
        reward,
        distribution,
    })
}

/// The variance of the steps from a uniformly drawn initial state (`None` when infinite from
/// some initial state), by the law of total variance: E(var) + E(mean^2) - E(mean)^2.
fn uniform_variance(initial: &[StateAnswer]) -> Option<Rational> {
    let each: Option<Vec<&(Rational, Rational)>> = initial.iter().map(|a| a.steps.as_ref()).collect();
    let each = each?;
    let n = Rational::from(each.len() as u64);
    let mean = each.iter().map(|s| &s.0).sum::<Rational>() / &n;
    let second: Rational = each.iter().map(|(m, v)| v + Rational::from(m * m)).sum();
    Some(second / &n - Rational::from(&mean * &mean))
}

fn distribution(
    chain: &ExplicitChain,
    target: &[bool],
    bound: u32,
    budget: Option<u64>,
    cancel: &Cancel,
) -> Result<Distribution, Error> {
    let mut steps = questions::steps_distribution(chain, target, bound, chain.initial(), budget, cancel)
        .map_err(unsolved)?;
    // The initial states' average, summed as integers over d^k (one state's taken as they
    // are: on a long distribution they hold gigabytes); each fraction is put in lowest terms
    // once.
    let count = steps.numerators.len() as u32;
    let sums: Vec<Integer> = match count {
        1 => steps.numerators.pop().expect("one initial state"),
        _ => (0..=bound as usize).map(|k| steps.numerators.iter().map(|n| &n[k]).sum()).collect(),
    };
    let mut cumulative = Vec::with_capacity(sums.len());
    let mut probability = Vec::with_capacity(sums.len());
    // Each sum is let go as its fractions are made.
    let over = steps.over(count);
    let mut before = Integer::new();
    let of = sums.len() as u64;
    for (k, sum) in (0..).zip(sums) {
        if cancel.is_cancelled() {
            return Err(unsolved(SolveError::Cancelled));
        }
        cancel.report(Report::Fractions { done: u64::from(k), of });
        // P(T = k) = P(T <= k) - P(T <= k - 1), the latter over d^(k - 1).
        before *= steps.d();
        probability.push(over.fraction(Integer::from(&sum - &before), k));
        cumulative.push(over.fraction(sum.clone(), k));
        before = sum;
    }
    cancel.clear_report();
    let first_at = |p: Rational| cumulative.iter().position(|c| *c >= p).map(|k| k as u32);
    Ok(Distribution {
        median: first_at(Rational::from((1, 2))),
        percentile_90: first_at(Rational::from((9, 10))),
        cumulative,
        probability,
    })
}

/// The ends in the order of their first states (the solver finds them in another order,
/// which put a game's player 2 before player 1).
fn ends_answer(chain: &ExplicitChain, ends: &Ends) -> Vec<End> {
    let mut answer: Vec<End> = ends
        .bottoms
        .iter()
        .zip(&ends.probability)
        .map(|(states, probability)| {
            let probability = probability.clone();
            let labels = chain
                .labels()
                .iter()
                .filter(|(name, held)| {
                    name.as_str() != "init" && states.iter().all(|s| held.binary_search(s).is_ok())
                })
                .map(|(name, _)| name.clone())
                .collect();
            End { states: states.clone(), labels, probability }
        })
        .collect();
    answer.sort_by_key(|e| e.states[0]);
    answer
}
