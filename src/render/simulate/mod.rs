//! `simulate`: seeded random games, every estimate (all games, per symmetry class, per start
//! hole) beside its exact value, and the pegs left.
//!
//! [`SimulateView`] is the command's document; [`SimulationView`] is the part the audit reuses
//! for its re-run of the book's experiment. [`estimate`] holds the pieces every simulation
//! view shares (the audit's and the race's too).

pub mod estimate;
pub mod from_position;

use crate::render::number::{grouped, plural};
use crate::render::values::decimal_cell;
use crate::render::{Column, Doc, Report, Style, Table, left, right};
use crate::solitaire::board::{Board, SymmetryGroup};
use crate::solitaire::estimates::{SimReport, StartPlan};
use estimate::{BoardInfo, Classes, ESTIMATE_HEADERS, EstimateView, names, proportion};
use serde::Serialize;

/// The document of `simulate`.
#[derive(Clone, Debug, Serialize)]
pub struct SimulateView {
    pub command: &'static str,
    pub board: BoardInfo,
    #[serde(flatten)]
    pub simulation: SimulationView,
}

/// What was played and what it gave.
#[derive(Clone, Debug, Serialize)]
pub struct SimulationView {
    pub policy: &'static str,
    pub seed: u64,
    /// `random`, `all`, `per-class`, a hole name, or holes joined by commas (as `--start`
    /// takes them).
    pub start: String,
    /// Games in each run: the one run of `random`, each start hole's, each class's.
    pub games_per_run: u64,
    pub overall: EstimateView,
    pub classes: Vec<ClassEstimate>,
    pub starts: Vec<StartEstimate>,
    /// The start plan in words, for text.
    #[serde(skip)]
    pub plan: String,
    #[serde(skip)]
    pub policy_words: &'static str,
}

/// One symmetry class's games (the played holes of the class).
#[derive(Clone, Debug, Serialize)]
pub struct ClassEstimate {
    pub class: usize,
    pub holes: Vec<String>,
    #[serde(flatten)]
    pub estimate: EstimateView,
}

/// One start hole's games.
#[derive(Clone, Debug, Serialize)]
pub struct StartEstimate {
    pub start: String,
    pub class: usize,
    #[serde(flatten)]
    pub estimate: EstimateView,
}

impl SimulateView {
    pub fn new(board: &Board, r: &SimReport) -> SimulateView {
        let group = SymmetryGroup::of_board(board);
        SimulateView {
            command: "simulate",
            board: BoardInfo::new(board, group.order()),
            simulation: SimulationView::new(board, &group, r),
        }
    }
}

impl SimulationView {
    pub fn new(board: &Board, group: &SymmetryGroup, r: &SimReport) -> SimulationView {
        let classes = Classes::of(group);
        let c = &r.config;
        let (start, games_per_run) = start_token(board, &c.starts, c.games);
        SimulationView {
            policy: c.policy.name(),
            seed: c.seed,
            start,
            games_per_run,
            overall: EstimateView::of(&r.overall),
            classes: r
                .classes
                .iter()
                .map(|e| ClassEstimate {
                    class: classes.number(e.holes[0]),
                    holes: names(board, &e.holes),
                    estimate: EstimateView::of(e),
                })
                .collect(),
            starts: r
                .starts
                .iter()
                .map(|e| StartEstimate {
                    start: board.hole_name(e.holes[0]).to_string(),
                    class: classes.number(e.holes[0]),
                    estimate: EstimateView::of(e),
                })
                .collect(),
            plan: plan_text(board, &c.starts, r.overall.games, games_per_run),
            policy_words: c.policy.describe(),
        }
    }

    /// Whether the exact engine ran beside the games.
    fn has_exact(&self) -> bool {
        self.overall.win.compared.exact.is_some()
    }
}

/// The start plan as `--start` takes it, and the games of each run.
fn start_token(board: &Board, plan: &StartPlan, games: u64) -> (String, u64) {
    match plan {
        StartPlan::Random => ("random".into(), games),
        StartPlan::Each(holes) if holes.len() == board.hole_count() => ("all".into(), games),
        StartPlan::Each(holes) => (names(board, holes).join(","), games),
        StartPlan::PerClass(n) => ("per-class".into(), *n),
    }
}

/// The start plan in words: "a uniformly random empty hole for every game; 100,000 games".
fn plan_text(board: &Board, plan: &StartPlan, total: u64, per_run: u64) -> String {
    let (n, all) = (plural(per_run, "game", "games"), grouped(total));
    match plan {
        StartPlan::Random => format!("a uniformly random empty hole for every game; {n}"),
        StartPlan::Each(holes) if holes.len() == 1 => {
            format!("hole {} empty; {n}", board.hole_name(holes[0]))
        }
        StartPlan::Each(holes) if holes.len() == board.hole_count() => {
            format!("each hole empty in turn; {n} from each, {all} in all")
        }
        StartPlan::Each(holes) => format!(
            "each of the holes {} empty in turn; {n} from each, {all} in all",
            names(board, holes).join(" ")
        ),
        StartPlan::PerClass(_) => {
            format!("{n} in each symmetry class, the empty hole drawn within the class; {all} in all")
        }
    }
}

impl Report for SimulateView {
    fn document(&self, _style: Style) -> Doc {
        let mut d = Doc::default();
        d.heading(format!("Simulation: random play on {}", self.board.name));
        d.para(self.board.title());
        self.simulation.describe(&mut d);
        d
    }

    fn table(&self) -> Option<Table> {
        Some(self.simulation.csv())
    }
}

impl SimulationView {
    /// The sections of the text: what was played, all games, classes, starts, pegs left.
    pub fn describe(&self, d: &mut Doc) {
        d.para(format!(
            "Policy {} ({}), seed {}. Start: {}.",
            self.policy, self.policy_words, self.seed, self.plan
        ));
        let mut all = Table::new(estimate_columns(&["sample"]));
        all.row([vec!["all games".to_string()], self.overall.win.cells()].concat());
        d.table(all);
        match &self.overall.chi_square {
            Some(chi) => d.para(format!("Pegs left against the exact distribution: {}.", chi.text())),
            None if !self.has_exact() => d.para(
                "No exact values: the exact engine did not run on this board (by default it runs on boards of up to 21 holes).",
            ),
            None => {}
        }
        d.heading("By symmetry class");
        d.table(self.class_table());
        d.heading("By start hole");
        d.table(self.start_table());
        d.heading("Pegs left, all games");
        d.table(pegs_left_table(&self.overall));
        if let Some(mean) = &self.overall.mean_pegs_left {
            d.para(mean.mean_pegs_left_text());
        }
    }

    fn class_table(&self) -> Table {
        let mut t = Table::new(estimate_columns(&["class", "holes"]));
        for c in &self.classes {
            t.row([vec![c.class.to_string(), c.holes.join(" ")], c.estimate.win.cells()].concat());
        }
        t
    }

    fn start_table(&self) -> Table {
        let mut t = Table::new(estimate_columns(&["start", "class"]));
        for s in &self.starts {
            t.row([vec![s.start.clone(), s.class.to_string()], s.estimate.win.cells()].concat());
        }
        t
    }
}

/// Label columns (left-aligned; a "class" column right-aligned) then the estimate's columns.
fn estimate_columns(labels: &[&str]) -> Vec<Column> {
    let mut columns: Vec<_> = labels.iter().map(|l| if *l == "class" { right(l) } else { left(l) }).collect();
    columns.extend(ESTIMATE_HEADERS.iter().map(|h| if *h == "95% interval" { left(h) } else { right(h) }));
    columns
}

/// Simulated games by pegs left beside the exact probability of each.
fn pegs_left_table(e: &EstimateView) -> Table {
    let mut t = Table::new(vec![right("pegs left"), right("games"), right("share"), right("probability")]);
    for (&pegs, &n) in &e.games_by_pegs_left {
        let exact = e.exact_pegs_left(pegs).map_or("-".into(), |p| p.decimal());
        t.row(vec![pegs.to_string(), grouped(n), proportion(share(n, e.win.games)), exact]);
    }
    t
}

/// The CSV columns of a simulation: one row per scope (all games, each class, each start)
/// and number of pegs left.
const CSV_COLUMNS: [&str; 15] = [
    "scope",
    "class",
    "holes",
    "pegs_left",
    "games",
    "count",
    "estimate",
    "ci95_low",
    "ci95_high",
    "z",
    "exact",
    "exact_decimal",
    "chi_square",
    "chi_square_df",
    "chi_square_p",
];

impl SimulationView {
    /// One tidy table: a row per scope and number of pegs left; the interval and z (of the
    /// win probability) and the chi-square test (of the scope's pegs left) on its one-peg row.
    pub fn csv(&self) -> Table {
        let mut t = Table::new(CSV_COLUMNS.iter().map(|c| left(c)).collect());
        csv_rows(&mut t, ["overall", "", ""], &self.overall);
        for c in &self.classes {
            csv_rows(&mut t, ["class", &c.class.to_string(), &c.holes.join(" ")], &c.estimate);
        }
        for s in &self.starts {
            csv_rows(&mut t, ["start", &s.class.to_string(), &s.start], &s.estimate);
        }
        t
    }
}

fn csv_rows(t: &mut Table, scope: [&str; 3], e: &EstimateView) {
    for (&pegs, &n) in &e.games_by_pegs_left {
        let exact = e.exact_pegs_left(pegs);
        let win = pegs == 1;
        let p = &e.win;
        let mut row: Vec<String> = scope.iter().map(|s| s.to_string()).collect();
        row.extend([pegs.to_string(), p.games.to_string(), n.to_string(), decimal_cell(share(n, p.games))]);
        let [low, high] = if win { p.compared.ci95_cells() } else { Default::default() };
        row.extend([low, high]);
        row.push(p.compared.z.filter(|_| win).map_or(String::new(), decimal_cell));
        row.push(exact.as_ref().map_or(String::new(), |p| p.0.to_string()));
        row.push(exact.as_ref().map_or(String::new(), |p| crate::render::number::finite_decimal_cell(&p.0)));
        let chi = e.chi_square.as_ref().filter(|_| win);
        row.push(chi.map_or(String::new(), |c| decimal_cell(c.statistic)));
        row.push(chi.map_or(String::new(), |c| c.df.to_string()));
        row.push(chi.map_or(String::new(), |c| decimal_cell(c.p_value)));
        t.row(row);
    }
}

/// The share of `games` that `n` is (0 of no games).
fn share(n: u64, games: u64) -> f64 {
    if games == 0 { 0.0 } else { n as f64 / games as f64 }
}

#[cfg(test)]
mod tests;
