//! `race`: the dice race of seed 004 as documents: one game (who wins, how long it takes, and
//! a simulation beside it), the grid of start squares, and the sweep over board lengths.
//!
//! Each is a view deriving `Serialize` (the JSON) and implementing [`Report`] (text, Markdown,
//! CSV); `text` writes their documents, `csv` their tables and `heatmap` the grid's SVG.

mod csv;
mod heatmap;
mod text;

pub use heatmap::grid_svg;

use super::Report;
use super::number::plural;
use super::simulate::estimate::{Compared, Proportion, Value};
use crate::race::{CrossCheck, Face, Grid, RaceReport, Rules, Simulation, TurnRow, Turns};
use rug::Rational;
use serde::Serialize;

/// The die: its name and what each face does.
#[derive(Clone, Debug, Serialize)]
pub struct DieView {
    pub name: String,
    pub faces: Vec<FaceView>,
    /// "6 faces, fair: 1 swine +1 | ..." for text.
    #[serde(skip)]
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FaceView {
    pub face: u32,
    pub swine: u32,
    pub butcher: u32,
    pub probability: Value,
}

impl DieView {
    pub fn of(rules: &Rules) -> DieView {
        DieView {
            name: rules.name.clone(),
            faces: rules
                .faces
                .iter()
                .map(|f| FaceView {
                    face: f.face,
                    swine: f.swine,
                    butcher: f.butcher,
                    probability: Value::of(&f.probability),
                })
                .collect(),
            text: die_text(rules),
        }
    }
}

/// The die in one line: "6 faces, fair: 1 swine +1 | ...".
fn die_text(rules: &Rules) -> String {
    let faces: Vec<String> = if rules.is_fair() {
        rules.faces.iter().map(|f| format!("{} {}", f.face, effect(f))).collect()
    } else {
        rules.faces.iter().map(|f| format!("{} {} (p {})", f.face, effect(f), f.probability)).collect()
    };
    let fair = if rules.is_fair() { ", fair" } else { "" };
    format!("{}{fair}: {}", plural(rules.faces.len() as u64, "face", "faces"), faces.join(" | "))
}

fn effect(f: &Face) -> String {
    match (f.swine, f.butcher) {
        (0, 0) => "nobody moves".into(),
        (s, 0) => format!("swine +{s}"),
        (0, b) => format!("butcher +{b}"),
        (s, b) if s == b => format!("both +{s}"),
        (s, b) => format!("swine +{s}, butcher +{b}"),
    }
}

/// How long a game takes, in turns (rolls of the die): the summary every view shows.
#[derive(Clone, Debug, Serialize)]
pub struct TurnsSummary {
    /// The probability that a roll moves nobody.
    pub stay_probability: Value,
    pub mean: Value,
    pub variance: Value,
    /// The square root of the variance (not exact).
    pub sd: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_if_swine_wins: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_if_butcher_wins: Option<Value>,
    pub shortest: u64,
    /// Absent when it lies beyond the listed turns (a likely idle face): see `listed_to`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percentile_90: Option<u64>,
    /// The last turn listed in the distribution (the text says a quantile is beyond it).
    #[serde(skip)]
    pub listed_to: u64,
    /// Absent when a face moves nobody: then a game can last any number of turns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest: Option<u64>,
}

impl TurnsSummary {
    /// A quantile in words: its turn, or "> N" when it lies beyond the listed turns.
    pub fn quantile_text(&self, q: Option<u64>) -> String {
        q.map_or_else(|| format!("> {}", self.listed_to), |n| n.to_string())
    }

    fn of(t: &Turns) -> TurnsSummary {
        TurnsSummary {
            stay_probability: Value::of(&t.stay),
            mean: Value::of(&t.mean),
            variance: Value::of(&t.variance),
            sd: crate::render::number::sqrt_nearest(&t.variance),
            mean_if_swine_wins: t.mean_if_swine_wins.as_ref().map(Value::of),
            mean_if_butcher_wins: t.mean_if_butcher_wins.as_ref().map(Value::of),
            shortest: t.shortest,
            median: t.median,
            percentile_90: t.percentile_90,
            listed_to: t.rows.last().map_or(0, |r| r.turns),
            longest: t.longest,
        }
    }
}

/// The summary, the distribution turn by turn, and the mass beyond the last turn listed.
#[derive(Clone, Debug, Serialize)]
pub struct TurnsView {
    #[serde(flatten)]
    pub summary: TurnsSummary,
    pub distribution: Vec<TurnRowView>,
    /// P(more turns than the last listed): 0 when every game is listed.
    pub tail: Value,
}

/// P(the game ends on this turn), by winner, and P(it is over by then).
#[derive(Clone, Debug, Serialize)]
pub struct TurnRowView {
    pub turns: u64,
    pub probability: Value,
    pub swine: Value,
    pub butcher: Value,
    pub cumulative: Value,
}

impl TurnsView {
    fn of(t: &Turns) -> TurnsView {
        let mut cumulative = Rational::new();
        let distribution = t
            .rows
            .iter()
            .map(|row: &TurnRow| {
                let total = row.total();
                cumulative += &total;
                TurnRowView {
                    turns: row.turns,
                    probability: Value(total),
                    swine: Value::of(&row.swine),
                    butcher: Value::of(&row.butcher),
                    cumulative: Value::of(&cumulative),
                }
            })
            .collect();
        TurnsView { summary: TurnsSummary::of(t), distribution, tail: Value::of(&t.tail) }
    }
}

/// The document of `race` for one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub command: &'static str,
    pub kind: &'static str,
    pub die: DieView,
    pub length: u32,
    pub swine: u32,
    pub butcher: u32,
    pub swine_wins: Value,
    pub butcher_wins: Value,
    pub turns: TurnsView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation: Option<RaceSimulation>,
}

/// Simulated games beside the exact values.
#[derive(Clone, Debug, Serialize)]
pub struct RaceSimulation {
    pub seed: u64,
    pub games: u64,
    /// The swine's wins as an estimate of its exact chance.
    pub swine_wins: Proportion,
    /// The games' mean turns, its 95% interval from their own spread, and its z with the exact
    /// variance: (estimate - exact) / sd of the mean.
    pub mean_turns: Compared,
}

impl GameView {
    pub fn new(rules: &Rules, r: &RaceReport, sim: Option<&(Simulation, CrossCheck)>) -> GameView {
        GameView {
            command: "race",
            kind: "game",
            die: DieView::of(rules),
            length: r.setup.length,
            swine: r.setup.swine,
            butcher: r.setup.butcher,
            swine_wins: Value::of(&r.swine),
            butcher_wins: Value::of(&r.butcher),
            turns: TurnsView::of(&r.turns),
            simulation: sim.map(|(s, c)| RaceSimulation::new(r, s, c)),
        }
    }
}

impl RaceSimulation {
    fn new(r: &RaceReport, s: &Simulation, c: &CrossCheck) -> RaceSimulation {
        RaceSimulation {
            seed: s.seed,
            games: s.trials,
            swine_wins: Proportion {
                games: s.trials,
                wins: s.swine_wins,
                compared: Compared {
                    estimate: c.estimate,
                    ci95: Some([c.interval.0, c.interval.1]),
                    exact: Some(Value::of(&r.swine)),
                    z: c.z,
                },
            },
            mean_turns: Compared {
                estimate: c.mean_turns,
                ci95: c.mean_turns_ci95.map(|(lo, hi)| [lo, hi]),
                exact: Some(Value::of(&r.turns.mean)),
                z: c.mean_turns_z,
            },
        }
    }
}

/// The document of `race --grid`: the swine's chance for every pair of start squares.
#[derive(Clone, Debug, Serialize)]
pub struct GridView {
    pub command: &'static str,
    pub kind: &'static str,
    pub die: DieView,
    pub length: u32,
    pub cells: Vec<CellView>,
    /// The heat map's file, when one was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CellView {
    pub swine: u32,
    pub butcher: u32,
    pub swine_wins: Value,
}

impl GridView {
    pub fn new(rules: &Rules, g: &Grid, svg: Option<String>) -> GridView {
        GridView {
            command: "race",
            kind: "grid",
            die: DieView::of(rules),
            length: g.length,
            cells: g
                .cells
                .iter()
                .map(|c| CellView { swine: c.swine, butcher: c.butcher, swine_wins: Value::of(&c.p) })
                .collect(),
            svg,
        }
    }
}

/// The document of `race --lengths A..B`: one game per board length, from the same squares.
#[derive(Clone, Debug, Serialize)]
pub struct SweepView {
    pub command: &'static str,
    pub kind: &'static str,
    pub die: DieView,
    pub swine: u32,
    pub butcher: u32,
    pub lengths: Vec<LengthView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LengthView {
    pub length: u32,
    pub swine_wins: Value,
    pub butcher_wins: Value,
    pub turns: TurnsSummary,
}

impl SweepView {
    /// `reports`: at least one game, all from the same start squares.
    pub fn new(rules: &Rules, reports: &[RaceReport]) -> SweepView {
        let first = reports.first().map(|r| r.setup);
        SweepView {
            command: "race",
            kind: "sweep",
            die: DieView::of(rules),
            swine: first.map_or(0, |s| s.swine),
            butcher: first.map_or(0, |s| s.butcher),
            lengths: reports
                .iter()
                .map(|r| LengthView {
                    length: r.setup.length,
                    swine_wins: Value::of(&r.swine),
                    butcher_wins: Value::of(&r.butcher),
                    turns: TurnsSummary::of(&r.turns),
                })
                .collect(),
        }
    }
}

// The views are documents and tables: see `text` and `csv`.
impl Report for GameView {
    fn document(&self, style: super::Style) -> super::Doc {
        text::game(self, style)
    }
    fn table(&self) -> Option<super::Table> {
        Some(csv::game(self))
    }
}

impl Report for GridView {
    fn document(&self, style: super::Style) -> super::Doc {
        text::grid(self, style)
    }
    fn table(&self) -> Option<super::Table> {
        Some(csv::grid(self))
    }
}

impl Report for SweepView {
    fn document(&self, style: super::Style) -> super::Doc {
        text::sweep(self, style)
    }
    fn table(&self) -> Option<super::Table> {
        Some(csv::sweep(self))
    }
}

#[cfg(test)]
mod tests;
