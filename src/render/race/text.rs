//! The race's documents for people (text and Markdown): decimals with significant digits,
//! fractions abbreviated past 40 characters unless `--full`.

use super::{GameView, GridView, RaceSimulation, SweepView, TurnsSummary, TurnsView};
use crate::race::turns::{MAX_ROWS, TAIL};
use crate::render::number::{grouped, plural, significant_exact};
use crate::render::simulate::estimate::{ESTIMATE_DIGITS, Value, interval, proportion, signed};
use crate::render::{Doc, Style, Table, left, right};
use rug::Rational;

/// Significant digits of a probability in the grid, where 198 columns may stand side by side.
const GRID_DIGITS: usize = 4;

pub fn game(v: &GameView, style: Style) -> Doc {
    let mut d = Doc::default();
    d.heading(v.die.name.clone());
    d.para(format!(
        "Board of {} squares, the river on {}; the swine starts on {}, the butcher on {}.",
        v.length, v.length, v.swine, v.butcher
    ));
    d.para(format!("Die: {}.", v.die.text));
    d.heading("Who wins");
    let mut t = Table::new(vec![left("side"), right("probability"), left("exact")]);
    for (side, p) in [("swine", &v.swine_wins), ("butcher", &v.butcher_wins)] {
        t.row(vec![side.into(), p.decimal(), p.fraction(style)]);
    }
    d.table(t);
    d.heading("How long the game takes, in turns (rolls of the die)");
    for line in turn_lines(&v.turns.summary, style) {
        d.para(line);
    }
    d.table(distribution(&v.turns, style));
    if v.turns.tail.0 != 0 {
        let last = v.turns.distribution.last().map_or(0, |r| r.turns);
        d.para(format!("P(more than {last} turns) = {}", v.turns.tail.fraction_and_decimal(style)));
        if v.turns.distribution.len() >= MAX_ROWS && v.turns.tail.0 >= Rational::from(TAIL) {
            d.para(format!(
                "The list stops after {MAX_ROWS} rows, at {last} turns (it would stop once less than \
                 {}/{} of the games is left): the longer games are given by this exact tail, and the \
                 mean and variance above are exact closed forms.",
                TAIL.0, TAIL.1
            ));
        }
    }
    if let Some(s) = &v.simulation {
        simulation(&mut d, s);
    }
    d
}

/// Mean, variance, conditional means and the quantiles, one line each.
fn turn_lines(t: &TurnsSummary, style: Style) -> [String; 4] {
    let given =
        |m: &Option<Value>| m.as_ref().map_or("(never wins)".into(), |m| m.fraction_and_decimal(style));
    let longest = match t.longest {
        Some(n) => n.to_string(),
        None => {
            format!("unbounded (a roll moves nobody with probability {})", t.stay_probability.fraction(style))
        }
    };
    [
        format!("mean      {}", t.mean.fraction_and_decimal(style)),
        format!(
            "variance  {}, standard deviation {}",
            t.variance.fraction_and_decimal(style),
            crate::render::number::significant(t.sd, 6)
        ),
        format!(
            "mean when the swine wins {}, when the butcher wins {}",
            given(&t.mean_if_swine_wins),
            given(&t.mean_if_butcher_wins)
        ),
        format!(
            "shortest {}, median {}, 90th percentile {}, longest {longest}",
            t.shortest,
            t.quantile_text(t.median),
            t.quantile_text(t.percentile_90)
        ),
    ]
}

fn distribution(t: &TurnsView, style: Style) -> Table {
    let mut table = Table::new(vec![
        right("turns"),
        right("P(ends then)"),
        right("swine wins"),
        right("butcher wins"),
        right("P(over by then)"),
        left("exact"),
    ]);
    for row in &t.distribution {
        table.row(vec![
            row.turns.to_string(),
            row.probability.decimal(),
            row.swine.decimal(),
            row.butcher.decimal(),
            row.cumulative.decimal(),
            row.probability.fraction(style),
        ]);
    }
    table
}

fn simulation(d: &mut Doc, s: &RaceSimulation) {
    d.heading(format!("Simulation: {}, seed {}", plural(s.games, "game", "games"), s.seed));
    let mut t = Table::new(vec![
        left("figure"),
        right("wins"),
        right("simulated"),
        left("95% interval"),
        right("exact"),
        right("z"),
    ]);
    let w = &s.swine_wins;
    t.row(vec![
        "P(swine wins)".into(),
        grouped(w.wins),
        proportion(w.compared.estimate),
        interval(w.compared.ci95),
        w.compared.exact.as_ref().map_or("-".into(), Value::decimal),
        w.compared.z.map_or("undefined".into(), signed),
    ]);
    let m = &s.mean_turns;
    t.row(vec![
        "mean turns".into(),
        String::new(),
        crate::render::number::significant(m.estimate, ESTIMATE_DIGITS),
        interval(m.ci95),
        m.exact.as_ref().map_or("-".into(), Value::decimal),
        m.z.map_or("undefined".into(), signed),
    ]);
    d.table(t);
    d.para("z = (simulated - exact) / sd; undefined where the exact value leaves no spread.");
}

pub fn grid(v: &GridView, _style: Style) -> Doc {
    let mut d = Doc::default();
    d.heading(v.die.name.clone());
    d.para(format!(
        "P(the swine wins) for every pair of start squares on a board of {} (river on {}).",
        v.length, v.length
    ));
    d.para(format!("Die: {}.", v.die.text));
    d.para("Rows: the swine's start square; columns: the butcher's. The exact fractions are in the JSON and CSV outputs.");
    let butchers: Vec<u32> = (1..v.length.saturating_sub(1)).collect();
    let mut columns = vec![left("swine")];
    columns.extend(butchers.iter().map(|b| right(&b.to_string())));
    let mut t = Table::new(columns);
    for s in 2..v.length {
        let mut row = vec![s.to_string()];
        row.extend(butchers.iter().map(|&b| {
            v.cells
                .iter()
                .find(|c| (c.swine, c.butcher) == (s, b))
                .map_or(String::new(), |c| significant_exact(&c.swine_wins.0, GRID_DIGITS))
        }));
        t.row(row);
    }
    d.table(t);
    if let Some(path) = &v.svg {
        d.para(format!("Heat map written to {path}."));
    }
    d
}

pub fn sweep(v: &SweepView, style: Style) -> Doc {
    let mut d = Doc::default();
    d.heading(v.die.name.clone());
    d.para(format!(
        "The swine starts on {}, the butcher on {}; the board's length varies.",
        v.swine, v.butcher
    ));
    d.para(format!("Die: {}.", v.die.text));
    let mut t = Table::new(vec![
        right("length"),
        right("P(swine)"),
        right("mean turns"),
        right("sd"),
        right("median"),
        right("90th"),
        right("longest"),
        left("exact"),
    ]);
    for l in &v.lengths {
        let turns = &l.turns;
        t.row(vec![
            l.length.to_string(),
            l.swine_wins.decimal(),
            turns.mean.decimal(),
            crate::render::number::significant(turns.sd, 6),
            turns.quantile_text(turns.median),
            turns.quantile_text(turns.percentile_90),
            turns.longest.map_or("unbounded".into(), |n| n.to_string()),
            l.swine_wins.fraction(style),
        ]);
    }
    d.table(t);
    d
}
