//! `chain` and `game`: a Markov chain's answers (reaching a target, the steps and rewards
//! until then, their distribution, where the chain ends, expected visits) with the
//! simulation beside them, as text, JSON, CSV and an SVG of the step distribution.

use super::doc::{Doc, Table, left, right};
use super::number::{fixed_places, grouped, plural, significant};
use super::simulate::estimate::{Compared, Proportion, signed};
use super::svg::{Chart, Scale, Swatch, nice_step, ticks, whole_step};
use super::values::Value;
use super::{Report, Style};
use crate::chains::{
    ChainReport, CutShort, Distribution, Estimate, RACE_MOST, RaceAnswer, Summary, TargetAnswer,
};
use crate::engine::stats::{mean_z, sample_mean, wilson95, z_score};
use rug::Rational;
use serde::Serialize;

/// Initial states listed in text before the rest are summed up (JSON and CSV list all).
const LISTED: usize = 10;

/// An exact value, or `None` for infinity: JSON leaves an infinite value out (the contract
/// has no `null`) and says beside it, in a `..._finite` flag, that it is infinite.
pub type Maybe = Option<Value>;

#[derive(Clone, Debug, Serialize)]
pub struct SummaryView {
    pub min: Value,
    pub max: Value,
    pub average: Value,
}

impl SummaryView {
    fn of(s: &Summary) -> SummaryView {
        SummaryView { min: Value::of(&s.min), max: Value::of(&s.max), average: Value::of(&s.average) }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct InitialView {
    pub state: u32,
    pub reach: Value,
    /// False when the target is missed with positive probability: the expected steps (and
    /// reward) are infinite and left out.
    pub steps_finite: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_steps: Maybe,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variance_steps: Maybe,
    /// The expected reward (when one was asked for and it is finite).
    #[serde(skip_serializing_if = "infinite_reward", serialize_with = "flat")]
    pub expected_reward: Option<Maybe>,
}

/// `Some(Some(v))` as `v` (the `None`s are skipped).
fn flat<S: serde::Serializer>(v: &Option<Maybe>, serializer: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(Some(value)) => value.serialize(serializer),
        _ => serializer.serialize_none(),
    }
}

fn infinite_reward(v: &Option<Maybe>) -> bool {
    !matches!(v, Some(Some(_)))
}

#[derive(Clone, Debug, Serialize)]
pub struct StepView {
    pub steps: u32,
    pub probability: Value,
    pub cumulative: Value,
}

#[derive(Clone, Debug, Serialize)]
pub struct DistributionView {
    pub bound: u32,
    /// Left out when past the bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percentile_90: Option<u32>,
    pub steps: Vec<StepView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TargetView {
    pub target: String,
    pub target_states: usize,
    pub reach: SummaryView,
    /// False when the expected steps are infinite from some initial state (the summaries of
    /// the steps are then left out).
    pub steps_finite: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_steps: Option<SummaryView>,
    /// Each initial state's variance, summarised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variance_steps: Option<SummaryView>,
    /// The variance of a run from a uniformly drawn initial state (with several initial
    /// states, more than their average variance by the spread of their means).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variance_steps_uniform: Maybe,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward: Option<String>,
    #[serde(skip_serializing_if = "summary_infinite", serialize_with = "flat_summary")]
    pub expected_reward: Option<Option<SummaryView>>,
    pub initial: Vec<InitialView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distribution: Option<DistributionView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EndView {
    pub states: Vec<u32>,
    pub labels: Vec<String>,
    pub probability: Value,
}

#[derive(Clone, Debug, Serialize)]
pub struct VisitView {
    pub state: u32,
    pub expected_visits: Value,
}

/// A chain's simulation beside its exact values, in the estimate objects of `simulate` and
/// `race --simulate`: `reach` a proportion (`games` the runs, `wins` those that reached the
/// target), `mean_steps` a compared mean (as `race`'s `mean_turns`).
#[derive(Clone, Debug, Serialize)]
pub struct EstimateView {
    pub runs: u64,
    pub seed: u64,
    /// The runs that reached the target; its z is left out where the exact value is 0 or 1
    /// (no spread).
    pub reach: Proportion,
    /// Mean steps of the runs that reached the target (none reached it: left out), with its
    /// 95% interval from those runs' own spread, the exact expected steps (left out when
    /// infinite), and z with the exact variance of the steps (left out where the exact mean
    /// is infinite, the variance is 0, or runs were cut short).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_steps: Option<Compared>,
    pub cut_short: u64,
}

impl EstimateView {
    fn of(e: &Estimate) -> EstimateView {
        let t = &e.tally;
        let (lo, hi) = wilson95(t.reached, t.runs);
        let steps = sample_mean(t.reached, t.steps, t.steps_squared);
        let reach = Compared {
            estimate: t.reached as f64 / t.runs.max(1) as f64,
            ci95: Some([lo, hi]),
            exact: Some(Value::of(&e.reach)),
            z: z_score(t.reached, t.runs, e.reach.to_f64()),
        };
        let mean_steps = steps.map(|s| Compared {
            estimate: s.mean,
            ci95: s.ci95.map(|(lo, hi)| [lo, hi]),
            exact: e.steps.as_ref().map(|(mean, _)| Value::of(mean)),
            z: e.steps
                .as_ref()
                .filter(|_| t.cut_short == 0)
                .and_then(|(mean, variance)| mean_z(s.mean, t.reached, mean.to_f64(), variance.to_f64())),
        });
        EstimateView {
            runs: t.runs,
            seed: e.simulation.seed,
            reach: Proportion { games: t.runs, wins: t.reached, compared: reach },
            mean_steps,
            cut_short: t.cut_short,
        }
    }
}

/// One player's chance in a race, between exact bounds.
#[derive(Clone, Debug, Serialize)]
pub struct RacePlayerView {
    pub player: u32,
    /// The chance lies between these exact fractions.
    pub lower: Value,
    pub upper: Value,
    /// The bounds to `places` decimal places, rounded outward (still bounds).
    pub at_least: String,
    pub at_most: String,
}

/// Who wins a race of players on copies of the chain (see `chains::Race`).
#[derive(Clone, Debug, Serialize)]
pub struct RaceView {
    pub players: u32,
    pub from: u32,
    pub rounds: u32,
    pub places: u32,
    /// P(no player has reached the target within the rounds summed): each upper bound is its
    /// lower bound plus this.
    pub undecided: Value,
    /// What stopped the summing before the bounds were 10^-places apart: the most rounds
    /// (`rounds`) or the most digits its exact numbers carry (`size`); absent where nothing did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut_short: Option<&'static str>,
    pub chances: Vec<RacePlayerView>,
}

impl RaceView {
    fn of(answer: &RaceAnswer) -> RaceView {
        let (r, places) = (&answer.race, answer.places);
        let chances = r
            .lower
            .iter()
            .zip(1..)
            .map(|(lower, player)| {
                let upper = Rational::from(lower + &r.undecided);
                RacePlayerView {
                    player,
                    at_least: fixed_places(lower, places, false),
                    at_most: fixed_places(&upper, places, true),
                    lower: Value::of(lower),
                    upper: Value(upper),
                }
            })
            .collect();
        RaceView {
            players: r.players,
            from: r.from,
            rounds: r.rounds,
            places,
            undecided: Value::of(&r.undecided),
            cut_short: r.cut_short.map(|c| match c {
                CutShort::Rounds => "rounds",
                CutShort::Size => "size",
            }),
            chances,
        }
    }
}

/// The `chain` (and `game`) document.
#[derive(Clone, Debug, Serialize)]
pub struct ChainView {
    pub command: &'static str,
    /// The file or game the chain came from.
    pub model: String,
    /// The same with a long fraction abbreviated, for text and plot titles.
    #[serde(skip)]
    pub model_brief: String,
    pub states: usize,
    pub transitions: usize,
    pub initial_states: usize,
    pub labels: Vec<String>,
    pub rewards: Vec<String>,
    /// `double` for a file of doubles, whose decimals are read exactly as written: the answers
    /// are the chain's as written, rounded where its writer rounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<TargetView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends: Option<Vec<EndView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits_from: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visits: Option<Vec<VisitView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation: Option<EstimateView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub race: Option<RaceView>,
    /// The step distribution's chart file, when one was written (as `race --grid` names its
    /// heat map's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
    /// Where every row of a list cut short in text is, in the caller's words.
    #[serde(skip)]
    pub more: Option<&'static str>,
}

impl ChainView {
    /// `model` in words, whole and `brief` (see [`ChainView::model_brief`]).
    pub fn new(
        command: &'static str,
        (model, brief): (&str, &str),
        r: &ChainReport,
        first_initial: u32,
    ) -> ChainView {
        ChainView {
            command,
            model: model.to_string(),
            model_brief: brief.to_string(),
            states: r.states,
            transitions: r.transitions,
            initial_states: r.initial_states,
            labels: r.labels.clone(),
            rewards: r.rewards.clone(),
            value_type: None,
            target: r.target.as_ref().map(target_view),
            ends: r.ends.as_ref().map(|ends| {
                ends.iter()
                    .map(|e| EndView {
                        states: e.states.clone(),
                        labels: e.labels.clone(),
                        probability: Value::of(&e.probability),
                    })
                    .collect()
            }),
            visits_from: r.visits.as_ref().map(|_| first_initial),
            visits: r.visits.as_ref().map(|v| {
                v.iter().map(|(s, x)| VisitView { state: *s, expected_visits: Value::of(x) }).collect()
            }),
            simulation: r.estimate.as_ref().map(EstimateView::of),
            race: r.race.as_ref().map(RaceView::of),
            svg: None,
            more: None,
        }
    }
}

fn summary_infinite(v: &Option<Option<SummaryView>>) -> bool {
    !matches!(v, Some(Some(_)))
}

fn flat_summary<S: serde::Serializer>(
    v: &Option<Option<SummaryView>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(Some(value)) => value.serialize(serializer),
        _ => serializer.serialize_none(),
    }
}

fn target_view(t: &TargetAnswer) -> TargetView {
    TargetView {
        target: t.name.clone(),
        target_states: t.target_states,
        reach: SummaryView::of(&t.reach),
        steps_finite: t.steps.is_some(),
        expected_steps: t.steps.as_ref().map(SummaryView::of),
        variance_steps: t.variance.as_ref().map(SummaryView::of),
        variance_steps_uniform: t.uniform_variance.as_ref().map(Value::of),
        reward: t.reward.as_ref().map(|(name, _)| name.clone()),
        expected_reward: t.reward.as_ref().map(|(_, s)| s.as_ref().map(SummaryView::of)),
        initial: t
            .initial
            .iter()
            .map(|a| InitialView {
                state: a.state,
                reach: Value::of(&a.reach),
                steps_finite: a.steps.is_some(),
                expected_steps: a.steps.as_ref().map(|s| Value::of(&s.0)),
                variance_steps: a.steps.as_ref().map(|s| Value::of(&s.1)),
                expected_reward: a.reward.as_ref().map(|r| r.as_ref().map(Value::of)),
            })
            .collect(),
        distribution: t.distribution.as_ref().map(distribution_view),
    }
}

fn distribution_view(d: &Distribution) -> DistributionView {
    let steps = (d.probability.iter().zip(&d.cumulative).enumerate())
        .map(|(k, (p, c))| StepView { steps: k as u32, probability: Value::of(p), cumulative: Value::of(c) })
        .collect();
    DistributionView {
        bound: d.cumulative.len() as u32 - 1,
        median: d.median,
        percentile_90: d.percentile_90,
        steps,
    }
}

fn maybe_text(v: &Maybe, style: Style) -> String {
    v.as_ref().map_or_else(|| "infinite".to_string(), |v| v.fraction_and_decimal(style))
}

impl Report for ChainView {
    fn document(&self, style: Style) -> Doc {
        let mut doc = Doc::default();
        let model = if style.full_fractions { &self.model } else { &self.model_brief };
        doc.heading(format!("Markov chain {}", crate::input::printable(model)));
        doc.para(format!(
            "{}, {}, {}; labels: {}; rewards: {}",
            plural(self.states as u64, "state", "states"),
            plural(self.transitions as u64, "transition", "transitions"),
            plural(self.initial_states as u64, "initial state", "initial states"),
            list_or_none(&self.labels),
            list_or_none(&self.rewards)
        ));
        if self.value_type == Some("double") {
            doc.para(
                "The file holds doubles (@value_type: double): each probability is read exactly as the \
                 decimal written, so these answers are exact for the chain as written, and where its writer \
                 rounded a probability (Storm writes 1/3 as 0.3333333333) they are the rounded chain's; \
                 storm --exact --exportbuild FILE.drn writes the exact values.",
            );
        }
        let several = self.initial_states > 1;
        if let Some(race) = &self.race {
            race_document(&mut doc, race, self.target.as_ref().map_or("", |t| t.target.as_str()));
        }
        if let Some(t) = &self.target {
            target_document(&mut doc, t, several, style, self.more);
        }
        if let Some(path) = &self.svg {
            doc.para(format!("Step distribution chart written to {}.", crate::input::printable(path)));
        }
        if let Some(ends) = &self.ends {
            doc.heading("Where the chain ends");
            if several {
                doc.para("Probabilities for an initial state drawn uniformly.");
            }
            let mut table =
                Table::new(vec![left("end"), left("labels"), right("probability"), right("decimal")]);
            for e in ends {
                let p = &e.probability;
                table.row(vec![states_text(&e.states), e.labels.join(", "), p.fraction(style), p.decimal()]);
            }
            doc.table(table);
        }
        if let (Some(from), Some(visits)) = (self.visits_from, &self.visits) {
            doc.heading(format!("Expected visits to each transient state from state {from}"));
            if visits.is_empty() {
                // An empty table said nothing of why.
                doc.para(format!(
                    "State {from} lies where the chain ends (an absorbing state or a closed class), so no \
                     transient state is ever visited from it."
                ));
            } else {
                let mut table = Table::new(vec![right("state"), right("expected visits"), right("decimal")]);
                for v in visits {
                    table.row(vec![
                        v.state.to_string(),
                        v.expected_visits.fraction(style),
                        v.expected_visits.decimal(),
                    ]);
                }
                doc.table(table);
            }
        }
        if let Some(e) = &self.simulation {
            doc.heading(format!("Simulation: {}, seed {}", plural(e.runs, "run", "runs"), e.seed));
            let (reach, interval) = (&e.reach.compared, e.reach.compared.ci95.unwrap_or_default());
            doc.para(format!(
                "reached: {} of {} = {} (95% interval {} to {}); exact {}; z = {}",
                grouped(e.reach.wins),
                grouped(e.reach.games),
                significant(reach.estimate, 6),
                significant(interval[0], 6),
                significant(interval[1], 6),
                reach.exact.as_ref().map_or(String::new(), Value::decimal),
                reach.z.map_or("none (exact value 0 or 1)".to_string(), signed)
            ));
            if let Some(mean) = &e.mean_steps {
                doc.para(format!(
                    "mean steps of the runs that reached it: {}{}; exact expected steps {}{}",
                    significant(mean.estimate, 6),
                    mean.ci95.map_or(String::new(), |[lo, hi]| format!(
                        " (95% interval {} to {})",
                        significant(lo, 6),
                        significant(hi, 6)
                    )),
                    mean.exact.as_ref().map_or("infinite".to_string(), |v| v.decimal()),
                    mean.z.map_or(String::new(), |z| format!("; z = {}", signed(z)))
                ));
            }
            if e.cut_short > 0 {
                doc.para(format!("{} cut short at the step limit", plural(e.cut_short, "run", "runs")));
            }
        }
        doc
    }

    fn table(&self) -> Option<Table> {
        if let Some(race) = &self.race {
            let mut table = Table::new(vec![
                right("player"),
                left("lower"),
                right("at_least"),
                left("upper"),
                right("at_most"),
            ]);
            for c in &race.chances {
                let [lower, _] = c.lower.cells();
                let [upper, _] = c.upper.cells();
                table.row(vec![c.player.to_string(), lower, c.at_least.clone(), upper, c.at_most.clone()]);
            }
            return Some(table);
        }
        if let Some(t) = &self.target {
            if let Some(d) = &t.distribution {
                let mut table = Table::new(vec![
                    right("steps"),
                    left("probability"),
                    right("probability_decimal"),
                    left("cumulative"),
                    right("cumulative_decimal"),
                ]);
                for s in &d.steps {
                    let [p, p_dec] = s.probability.cells();
                    let [c, c_dec] = s.cumulative.cells();
                    table.row(vec![s.steps.to_string(), p, p_dec, c, c_dec]);
                }
                return Some(table);
            }
            let mut table = Table::new(vec![
                right("state"),
                left("reach"),
                right("reach_decimal"),
                left("expected_steps"),
                right("expected_steps_decimal"),
                left("variance_steps"),
                right("variance_steps_decimal"),
                left("expected_reward"),
                right("expected_reward_decimal"),
            ]);
            for i in &t.initial {
                let cells =
                    |v: &Maybe| v.as_ref().map_or(["inf".to_string(), "inf".to_string()], Value::cells);
                let [reach, reach_dec] = i.reach.cells();
                let [steps, steps_dec] = cells(&i.expected_steps);
                let [var, var_dec] = cells(&i.variance_steps);
                let [reward, reward_dec] =
                    i.expected_reward.as_ref().map_or([String::new(), String::new()], cells);
                table.row(vec![
                    i.state.to_string(),
                    reach,
                    reach_dec,
                    steps,
                    steps_dec,
                    var,
                    var_dec,
                    reward,
                    reward_dec,
                ]);
            }
            return Some(table);
        }
        let ends = self.ends.as_ref()?;
        let mut table =
            Table::new(vec![left("states"), left("labels"), left("probability"), right("decimal")]);
        for e in ends {
            let [fraction, decimal] = e.probability.cells();
            // Every state, as JSON lists them (text shortens a long class for people).
            let states: Vec<String> = e.states.iter().map(u32::to_string).collect();
            table.row(vec![states.join(" "), e.labels.join(", "), fraction, decimal]);
        }
        Some(table)
    }
}

/// The decimal digits of 2^bits.
fn digits_of_bits(bits: u64) -> u64 {
    (bits as f64 * std::f64::consts::LOG10_2) as u64 + 1
}

fn race_document(doc: &mut Doc, race: &RaceView, target: &str) {
    doc.heading(format!(
        "Who wins: {} taking turns from state {}, player 1 first",
        plural(race.players.into(), "player", "players"),
        race.from
    ));
    doc.para(format!(
        "Each player walks the chain on its own, one step a turn; the first to reach {target} wins."
    ));
    let rounds = plural(race.rounds.into(), "round", "rounds");
    if race.undecided.0 == 0 {
        // Nothing is left undecided: the bounds meet, and the chances are exact.
        doc.para(format!(
            "Within {rounds} some player has surely arrived, so the chances below are exact (their \
             fractions are in the JSON and CSV output)."
        ));
    } else {
        // The rounds may run out before the bounds are 10^-places apart: then "only" was wrong.
        let asked = Rational::from((1, rug::Integer::from(rug::Integer::u_pow_u(10, race.places))));
        let why = match race.cut_short {
            _ if race.undecided.0 <= asked => None,
            Some("size") => Some(format!(
                "where its exact numbers passed {} digits, the most it carries",
                grouped(digits_of_bits(RACE_MOST.bits))
            )),
            _ => Some("at the most rounds it sums".to_string()),
        };
        let short = match why {
            None => " only".to_string(),
            Some(why) => format!(", more than the 10^-{} asked (the race stopped {why})", race.places),
        };
        doc.para(format!(
            "After {rounds} no player has arrived with probability {left}{short}: each chance \
             lies between the chance of winning within those rounds and that plus {left}, two exact \
             fractions (in the JSON and CSV output). The exact chances are fractions of the players' product \
             chain, which this answer does not solve.",
            left = race.undecided.decimal()
        ));
    }
    let places = race.places;
    let mut table = Table::new(vec![
        right("player"),
        right("chance"),
        left(&format!("at least ({})", plural(places.into(), "place", "places"))),
        left(&format!("at most ({})", plural(places.into(), "place", "places"))),
    ]);
    for c in &race.chances {
        // Six digits are certain when both bounds round to them.
        let (low, high) = (c.lower.decimal(), c.upper.decimal());
        let chance = if low == high { low } else { format!("{low} to {high}") };
        table.row(vec![c.player.to_string(), chance, c.at_least.clone(), c.at_most.clone()]);
    }
    doc.table(table);
}

fn target_document(doc: &mut Doc, t: &TargetView, several: bool, style: Style, more: Option<&str>) {
    doc.heading(format!("Reaching {} ({})", t.target, plural(t.target_states as u64, "state", "states")));
    if several {
        doc.para("Over the initial states (each equally likely for the average):");
    }
    // One row per figure: its value, or its average, min and max over the initial states.
    let mut table = if several {
        Table::new(vec![left("figure"), right("average"), right("min"), right("max")])
    } else {
        Table::new(vec![left("figure"), right("exact"), right("decimal")])
    };
    table.row(figure_row("P(reach)", &t.reach, several, style));
    match (&t.expected_steps, &t.variance_steps) {
        (Some(steps), Some(var)) => {
            table.row(figure_row("expected steps", steps, several, style));
            table.row(figure_row("variance of the steps", var, several, style));
        }
        _ => {
            let miss = |v: &Value| Value(Rational::from(1) - &v.0);
            let r = &t.reach;
            let missing = SummaryView { min: miss(&r.max), max: miss(&r.min), average: miss(&r.average) };
            table.row(figure_row("P(miss)", &missing, several, style));
            table.row(infinite_row("expected steps", several));
        }
    }
    if let (Some(name), Some(reward)) = (&t.reward, &t.expected_reward) {
        let what = format!("expected reward {name}");
        match reward {
            Some(s) => table.row(figure_row(&what, s, several, style)),
            None => table.row(infinite_row(&what, several)),
        }
    }
    doc.table(table);
    if let (true, Some(uniform)) = (several, &t.variance_steps_uniform) {
        doc.para(format!(
            "From an initial state drawn uniformly, the steps have variance {}: the states' average \
             variance plus the spread of their means.",
            uniform.fraction_and_decimal(style)
        ));
    }
    if t.expected_steps.is_none() {
        doc.para("The target is missed with positive probability, so the expected steps are infinite.");
    }
    if several {
        // "The first" only when some are left out.
        doc.para(if t.initial.len() > LISTED {
            format!("The first {LISTED} initial states:")
        } else {
            "The initial states:".to_string()
        });
        let mut table = Table::new(vec![right("initial state"), right("P(reach)"), right("expected steps")]);
        for i in t.initial.iter().take(LISTED) {
            table.row(vec![i.state.to_string(), i.reach.decimal(), maybe_text(&i.expected_steps, style)]);
        }
        doc.table(table);
        if t.initial.len() > LISTED {
            let where_all = more.map(|m| format!(" ({m})")).unwrap_or_default();
            doc.para(format!("... and {} more{where_all}", grouped((t.initial.len() - LISTED) as u64)));
        }
    }
    if let Some(d) = &t.distribution {
        doc.heading("Distribution of the steps");
        if several {
            // As the ends are: the distribution is the initial states' average.
            doc.para("For an initial state drawn uniformly.");
        }
        doc.para(quantiles(d, &t.reach.average));
        let mut columns = vec![right("steps"), right("P(T = k)"), right("P(T <= k)")];
        // With --full, the exact fractions too (text and Markdown showed decimals alone).
        let full = style.full_fractions;
        if full {
            columns.extend([left("P(T = k), exact"), left("P(T <= k), exact")]);
        }
        let mut table = Table::new(columns);
        for s in &d.steps {
            let mut row = vec![s.steps.to_string(), s.probability.decimal(), s.cumulative.decimal()];
            if full {
                row.extend([s.probability.fraction(style), s.cumulative.fraction(style)]);
            }
            table.row(row);
        }
        doc.table(table);
    }
}

/// A figure's row: its value (one initial state), or its average, min and max (each a
/// fraction beside its decimal, as the average: the min and max were decimals alone).
fn figure_row(what: &str, s: &SummaryView, several: bool, style: Style) -> Vec<String> {
    if several {
        let [average, min, max] = [&s.average, &s.min, &s.max].map(|v| v.fraction_and_decimal(style));
        vec![what.to_string(), average, min, max]
    } else {
        vec![what.to_string(), s.average.fraction(style), s.average.decimal()]
    }
}

fn infinite_row(what: &str, several: bool) -> Vec<String> {
    let mut row = vec![what.to_string(), "infinite".to_string(), String::new()];
    if several {
        row.push(String::new());
    }
    row
}

/// The names, or "none"; an unnamed one (a reward structure Storm wrote without a name) as `""`.
fn list_or_none(items: &[String]) -> String {
    let shown: Vec<&str> = items.iter().map(|i| if i.is_empty() { "\"\"" } else { i.as_str() }).collect();
    if items.is_empty() { "none".to_string() } else { shown.join(", ") }
}

/// "7", or "3 states: 4 5 6" for a closed class, shortened past ten states.
fn states_text(states: &[u32]) -> String {
    match states {
        [one] => one.to_string(),
        _ => {
            let shown: Vec<String> = states.iter().take(10).map(u32::to_string).collect();
            let more = if states.len() > 10 { " ..." } else { "" };
            format!("{} states: {}{more}", states.len(), shown.join(" "))
        }
    }
}

/// The step distribution as bars of P(T = k) with the cumulative line, or `None` when no
/// distribution was asked for.
pub fn distribution_svg(view: &ChainView) -> Option<String> {
    let t = view.target.as_ref()?;
    let d = t.distribution.as_ref()?;
    let probs: Vec<f64> = d.steps.iter().map(|s| s.probability.0.to_f64()).collect();
    // Where the target is never reached within the bound, every bar is 0: the axis goes to 1
    // (it went to 1.2e-12, labelled to thirteen decimals past the margin).
    let highest = probs.iter().cloned().fold(0.0, f64::max);
    let top = if highest > 0.0 { highest * 1.1 } else { 1.0 };
    let step = nice_step(top, 8);
    let top = (top / step).ceil() * step;
    let bound = d.bound as f64;
    let mut c = Chart::new(
        &format!("Steps until {}: the exact distribution", t.target),
        &format!("{}; {}", view.model_brief, quantiles(d, &t.reach.average)),
        (-0.5, bound + 0.5),
        (0.0, top),
        Scale::Linear,
    );
    // Steps are whole numbers: no tick between two (0.5, 1.5 for a bound of 5).
    let x_step = whole_step(bound.max(1.0), 10);
    let x_ticks = ticks(0.0, bound, x_step, |v| format!("{v}"));
    // As many decimals as the step needs: 0.005, 0.010, 0.015.
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let y_ticks = ticks(0.0, top, step, |v| format!("{v:.decimals$}"));
    c.axes(&x_ticks, &y_ticks, "steps k", "P(T = k)");
    for (k, p) in probs.iter().enumerate() {
        c.bar(k as f64, 0.8, *p, "#3b6ea8");
    }
    c.legend("#3b6ea8", Swatch::Box, "P(T = k), exact");
    if highest == 0.0 {
        c.note(&format!("P(T <= {0}) = 0: the target is not reached within {0} steps", d.bound));
    }
    Some(c.finish())
}

/// "median 5, 90th percentile 9": each the first step where P(T <= k) reaches its share,
/// "over K" where that comes past the bound K, and "never" where the target is reached less
/// often than that share (P(reach) = 221/432 has no 90th percentile, whatever the bound: it
/// said "over 100", as if a larger bound would find it).
fn quantiles(d: &DistributionView, reach: &Value) -> String {
    let never = |share: (u32, u32)| reach.0 < Rational::from(share);
    let at = |k: Option<u32>, share| match k {
        Some(k) => k.to_string(),
        None if never(share) => "never".to_string(),
        None => format!("over {}", d.bound),
    };
    let why = match d.percentile_90.is_none() && never((9, 10)) {
        true => format!(" (the target is reached with probability {})", reach.decimal()),
        false => String::new(),
    };
    format!("median {}, 90th percentile {}{why}", at(d.median, (1, 2)), at(d.percentile_90, (9, 10)))
}

/// `games`: the built-in games.
#[derive(Clone, Debug, Serialize)]
pub struct GamesView {
    pub command: &'static str,
    pub games: Vec<GameInfo>,
}

#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    pub name: String,
    pub description: String,
}

impl GamesView {
    pub fn new(games: &[(&str, &str)]) -> GamesView {
        let games =
            games.iter().map(|(n, d)| GameInfo { name: n.to_string(), description: d.to_string() }).collect();
        GamesView { command: "games", games }
    }
}

impl Report for GamesView {
    fn document(&self, _: Style) -> Doc {
        let mut doc = Doc::default();
        doc.heading("Built-in games (pegchain game NAME)");
        doc.table(self.table().expect("a table"));
        doc
    }

    fn table(&self) -> Option<Table> {
        let mut table = Table::new(vec![left("game"), left("what it is")]);
        for g in &self.games {
            table.row(vec![g.name.clone(), g.description.clone()]);
        }
        Some(table)
    }
}

/// `export`: which chain was written where.
#[derive(Clone, Debug, Serialize)]
pub struct ExportedView {
    pub command: &'static str,
    pub chain: String,
    /// The same with a long fraction abbreviated, for text (`export` takes no `--full`).
    #[serde(skip)]
    pub chain_brief: String,
    pub states: usize,
    pub transitions: usize,
    pub files: Vec<String>,
    /// PRISM files an earlier export left under the prefix, for parts this chain has not (its
    /// rewards, say), removed so that they are not read with it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// Labels of no state, which a DRN file cannot name (it labels states), where one is
    /// written: `chain FILE.drn --target LABEL` will not know them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels_not_in_drn: Vec<String>,
}

impl Report for ExportedView {
    fn document(&self, _: Style) -> Doc {
        let mut doc = Doc::default();
        doc.para(format!(
            "Wrote {} ({}, {}) to {}",
            self.chain_brief,
            plural(self.states as u64, "state", "states"),
            plural(self.transitions as u64, "transition", "transitions"),
            self.files.iter().map(|f| crate::input::printable(f)).collect::<Vec<_>>().join(", ")
        ));
        if !self.removed.is_empty() {
            doc.para(format!(
                "Removed {}, left by an earlier export under the same name: it would have been read with these files.",
                self.removed.iter().map(|f| crate::input::printable(f)).collect::<Vec<_>>().join(", ")
            ));
        }
        if !self.labels_not_in_drn.is_empty() {
            let (which, hold) =
                if self.labels_not_in_drn.len() == 1 { ("label", "holds") } else { ("labels", "hold") };
            doc.para(format!(
                "The DRN file leaves out the {which} {}, which {hold} no state: a DRN file names labels \
                 only on states (PRISM's .lab declares them).",
                self.labels_not_in_drn.join(", ")
            ));
        }
        doc
    }

    fn table(&self) -> Option<Table> {
        let mut table = Table::new(vec![left("file")]);
        for f in &self.files {
            table.row(vec![f.clone()]);
        }
        Some(table)
    }
}
