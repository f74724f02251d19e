//! The race's tables for programs: every fraction whole with the double nearest to it beside
//! it; one rectangular table per view.

use super::{GameView, GridView, RaceSimulation, SweepView, TurnsSummary};
use crate::render::number::finite_decimal_cell;
use crate::render::simulate::estimate::Value;
use crate::render::values::decimal_cell;
use crate::render::{Table, left};

fn table(columns: &[&str]) -> Table {
    Table::new(columns.iter().map(|c| left(c)).collect())
}

/// The fraction and its double, as two cells (the double empty beyond its range).
fn pair(f: &Value) -> [String; 2] {
    [f.0.to_string(), finite_decimal_cell(&f.0)]
}

/// A game as a tidy table, one value per row: `quantity,side,turns,exact,decimal`. `exact`
/// holds a fraction or a whole number; a simulated or irrational number has only `decimal`.
pub fn game(v: &GameView) -> Table {
    let mut t = table(&["quantity", "side", "turns", "exact", "decimal"]);
    let mut exact = |q: &str, side: &str, turns: String, f: &Value| {
        let [e, d] = pair(f);
        t.row(vec![q.into(), side.into(), turns, e, d]);
    };
    exact("win", "swine", String::new(), &v.swine_wins);
    exact("win", "butcher", String::new(), &v.butcher_wins);
    for row in &v.turns.distribution {
        let turns = row.turns.to_string();
        exact("ends_on_turn", "", turns.clone(), &row.probability);
        exact("ends_on_turn", "swine", turns.clone(), &row.swine);
        exact("ends_on_turn", "butcher", turns.clone(), &row.butcher);
        exact("over_by_turn", "", turns, &row.cumulative);
    }
    let last = v.turns.distribution.last().map_or(0, |r| r.turns);
    exact("more_turns_than", "", last.to_string(), &v.turns.tail);
    summary_rows(&mut t, &v.turns.summary);
    if let Some(s) = &v.simulation {
        simulation_rows(&mut t, s);
    }
    t
}

fn summary_rows(t: &mut Table, s: &TurnsSummary) {
    let mut exact = |q: &str, side: &str, f: &Value| {
        let [e, d] = pair(f);
        t.row(vec![q.into(), side.into(), String::new(), e, d]);
    };
    exact("stay_probability", "", &s.stay_probability);
    exact("mean_turns", "", &s.mean);
    exact("variance_turns", "", &s.variance);
    if let Some(m) = &s.mean_if_swine_wins {
        exact("mean_turns_if_wins", "swine", m);
    }
    if let Some(m) = &s.mean_if_butcher_wins {
        exact("mean_turns_if_wins", "butcher", m);
    }
    let mut whole =
        |q: &str, n: u64| t.row(vec![q.into(), String::new(), String::new(), n.to_string(), n.to_string()]);
    whole("shortest", s.shortest);
    // A quantile beyond the listed turns is left out, as `longest` is when unbounded.
    for (q, n) in [("median", s.median), ("percentile_90", s.percentile_90)] {
        if let Some(n) = n {
            whole(q, n);
        }
    }
    if let Some(n) = s.longest {
        whole("longest", n);
    }
    t.row(vec!["sd_turns".into(), String::new(), String::new(), String::new(), decimal_cell(s.sd)]);
}

fn simulation_rows(t: &mut Table, s: &RaceSimulation) {
    let mut number = |q: &str, side: &str, exact: String, decimal: String| {
        t.row(vec![q.into(), side.into(), String::new(), exact, decimal]);
    };
    for (q, n) in
        [("simulated_seed", s.seed), ("simulated_games", s.games), ("simulated_wins", s.swine_wins.wins)]
    {
        let side = if q == "simulated_wins" { "swine" } else { "" };
        number(q, side, n.to_string(), n.to_string());
    }
    let w = &s.swine_wins;
    number("simulated_win", "swine", String::new(), decimal_cell(w.compared.estimate));
    let [low, high] = w.compared.ci95_cells();
    number("simulated_win_ci95_low", "swine", String::new(), low);
    number("simulated_win_ci95_high", "swine", String::new(), high);
    if let Some(z) = w.compared.z {
        number("simulated_win_z", "swine", String::new(), decimal_cell(z));
    }
    number("simulated_mean_turns", "", String::new(), decimal_cell(s.mean_turns.estimate));
    // As the z: no rows where there is no interval (one game).
    if let Some([low, high]) = s.mean_turns.ci95 {
        number("simulated_mean_turns_ci95_low", "", String::new(), decimal_cell(low));
        number("simulated_mean_turns_ci95_high", "", String::new(), decimal_cell(high));
    }
    if let Some(z) = s.mean_turns.z {
        number("simulated_mean_turns_z", "", String::new(), decimal_cell(z));
    }
}

/// `length,swine,butcher,swine_wins,swine_wins_decimal`: a row per pair of start squares.
pub fn grid(v: &GridView) -> Table {
    let mut t = table(&["length", "swine", "butcher", "swine_wins", "swine_wins_decimal"]);
    for c in &v.cells {
        let [e, d] = pair(&c.swine_wins);
        t.row(vec![v.length.to_string(), c.swine.to_string(), c.butcher.to_string(), e, d]);
    }
    t
}

/// A row per board length.
pub fn sweep(v: &SweepView) -> Table {
    let mut t = table(&[
        "length",
        "swine",
        "butcher",
        "swine_wins",
        "swine_wins_decimal",
        "butcher_wins",
        "butcher_wins_decimal",
        "mean_turns",
        "mean_turns_decimal",
        "variance_turns",
        "variance_turns_decimal",
        "sd_turns",
        "shortest",
        "median",
        "percentile_90",
        "longest",
    ]);
    for l in &v.lengths {
        let s = &l.turns;
        let mut row = vec![l.length.to_string(), v.swine.to_string(), v.butcher.to_string()];
        for f in [&l.swine_wins, &l.butcher_wins, &s.mean, &s.variance] {
            row.extend(pair(f));
        }
        row.push(decimal_cell(s.sd));
        row.push(s.shortest.to_string());
        row.extend([s.median, s.percentile_90].map(|n| n.map_or(String::new(), |n| n.to_string())));
        row.push(s.longest.map_or(String::new(), |n| n.to_string()));
        t.row(row);
    }
    t
}
