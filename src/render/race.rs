//! Reports of `race`: the game, who wins, how long it takes, the grid of start squares and the
//! sweep over board lengths, as text, JSON, CSV and an SVG heat map.

use super::{exact, fraction_and_decimal, table};
use crate::race::{CrossCheck, Face, Grid, RaceReport, Rules, Simulation, TurnRow};
use crate::render::number::{decimal, grouped};
use rug::{Integer, Rational};
use serde_json::{Value, json};

fn number(p: &Rational) -> Value {
    json!({ "fraction": exact(p), "decimal": p.to_f64() })
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

/// The die in one line: "6 faces, fair: 1 swine +1 | ...".
pub fn die_text(rules: &Rules) -> String {
    let faces: Vec<String> = if rules.is_fair() {
        rules.faces.iter().map(|f| format!("{} {}", f.face, effect(f))).collect()
    } else {
        rules.faces.iter().map(|f| format!("{} {} (p {})", f.face, effect(f), f.probability)).collect()
    };
    let fair = if rules.is_fair() { ", fair" } else { "" };
    format!("{} faces{fair}: {}", rules.faces.len(), faces.join(" | "))
}

fn die_json(rules: &Rules) -> Value {
    json!({
        "name": rules.name,
        "faces": rules.faces.iter().map(|f| json!({
            "face": f.face, "swine": f.swine, "butcher": f.butcher, "probability": exact(&f.probability),
        })).collect::<Vec<_>>(),
    })
}

fn game_header(rules: &Rules, r: &RaceReport) -> String {
    let s = &r.setup;
    format!(
        "{}\nBoard of {} squares, the river on {}; the swine starts on {}, the butcher on {}\nDie: {}\n",
        rules.name,
        s.length,
        s.length,
        s.swine,
        s.butcher,
        die_text(rules)
    )
}

pub fn game_text(rules: &Rules, r: &RaceReport, sim: Option<&(Simulation, CrossCheck)>) -> String {
    let mut out = game_header(rules, r);
    out += "\nWho wins\n";
    let rows = [("swine", &r.swine), ("butcher", &r.butcher)]
        .iter()
        .map(|(side, p)| vec![side.to_string(), decimal(p, 6), p.to_string()])
        .collect::<Vec<_>>();
    out += &table(&["side", "probability", "exact"], &rows);

    let t = &r.turns;
    out += "\nHow long the game takes, in turns (rolls of the die)\n";
    out += &format!("mean      {}\n", fraction_and_decimal(&t.mean, 6));
    out += &format!(
        "variance  {}, standard deviation {:.4}\n",
        fraction_and_decimal(&t.variance, 6),
        t.variance.to_f64().sqrt()
    );
    let given = |m: &Option<Rational>| m.as_ref().map_or("(never wins)".to_string(), |m| decimal(m, 6));
    out += &format!(
        "mean when the swine wins {}, when the butcher wins {}\n",
        given(&t.mean_if_swine_wins),
        given(&t.mean_if_butcher_wins)
    );
    let longest = match t.longest {
        Some(n) => n.to_string(),
        None => format!("unbounded (a roll moves nobody with probability {})", t.stay),
    };
    out += &format!(
        "shortest {}, median {}, 90th percentile {}, longest {}\n\n",
        t.shortest, t.median, t.percentile_90, longest
    );
    let mut cumulative = Rational::new();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|row| {
            let total = row.total();
            cumulative += &total;
            vec![
                row.turns.to_string(),
                decimal(&total, 6),
                decimal(&row.swine, 6),
                decimal(&row.butcher, 6),
                decimal(&cumulative, 6),
                total.to_string(),
            ]
        })
        .collect();
    out +=
        &table(&["turns", "P(ends then)", "swine wins", "butcher wins", "P(over by then)", "exact"], &rows);
    if t.tail != 0 {
        let last = t.rows.last().map_or(0, |r| r.turns);
        out += &format!("P(more than {last} turns) = {}\n", fraction_and_decimal(&t.tail, 6));
    }
    if let Some((s, c)) = sim {
        out += &simulation_text(r, s, c);
    }
    out
}

fn simulation_text(r: &RaceReport, s: &Simulation, c: &CrossCheck) -> String {
    let z = |z: Option<f64>| z.map_or("undefined".to_string(), |z| format!("{z:+.2}"));
    format!(
        "\nSimulation: {} games, seed {}\n\
         swine wins {} = {:.6}, 95% interval [{:.6}, {:.6}], z = {} against the exact {}\n\
         mean turns {:.6}, z = {} against the exact {}\n",
        grouped(&Integer::from(s.trials)),
        s.seed,
        grouped(&Integer::from(s.swine_wins)),
        c.estimate,
        c.interval.0,
        c.interval.1,
        z(c.z),
        decimal(&r.swine, 6),
        c.mean_turns,
        z(c.mean_turns_z),
        decimal(&r.turns.mean, 6),
    )
}

fn row_json(row: &TurnRow) -> Value {
    json!({
        "turns": row.turns,
        "probability": exact(&row.total()),
        "swine": exact(&row.swine),
        "butcher": exact(&row.butcher),
    })
}

pub fn game_json(rules: &Rules, r: &RaceReport, sim: Option<&(Simulation, CrossCheck)>) -> Value {
    let t = &r.turns;
    let optional = |m: &Option<Rational>| m.as_ref().map_or(Value::Null, number);
    let mut doc = json!({
        "length": r.setup.length,
        "swine": r.setup.swine,
        "butcher": r.setup.butcher,
        "die": die_json(rules),
        "swine_wins": number(&r.swine),
        "butcher_wins": number(&r.butcher),
        "turns": {
            "stay_probability": exact(&t.stay),
            "mean": number(&t.mean),
            "variance": number(&t.variance),
            "mean_if_swine_wins": optional(&t.mean_if_swine_wins),
            "mean_if_butcher_wins": optional(&t.mean_if_butcher_wins),
            "shortest": t.shortest,
            "median": t.median,
            "percentile_90": t.percentile_90,
            "longest": t.longest,
            "distribution": t.rows.iter().map(row_json).collect::<Vec<_>>(),
            "tail": exact(&t.tail),
        },
    });
    if let Some((s, c)) = sim {
        doc["simulation"] = json!({
            "games": s.trials,
            "seed": s.seed,
            "swine_wins": s.swine_wins,
            "estimate": c.estimate,
            "interval": [c.interval.0, c.interval.1],
            "z": c.z,
            "mean_turns": c.mean_turns,
            "mean_turns_z": c.mean_turns_z,
        });
    }
    doc
}

/// The turn distribution as CSV, exact and decimal.
pub fn game_csv(r: &RaceReport) -> String {
    let mut out =
        String::from("turns,probability,swine,butcher,cumulative,probability_decimal,cumulative_decimal\n");
    let mut cumulative = Rational::new();
    for row in &r.turns.rows {
        let total = row.total();
        cumulative += &total;
        out += &format!(
            "{},{},{},{},{},{},{}\n",
            row.turns,
            total,
            row.swine,
            row.butcher,
            cumulative,
            decimal(&total, 10),
            decimal(&cumulative, 10)
        );
    }
    out
}

pub fn grid_text(rules: &Rules, g: &Grid) -> String {
    let mut out = format!(
        "{}\nP(the swine wins) for every pair of start squares on a board of {} (river on {})\n\
         Die: {}\nRows: the swine's start square; columns: the butcher's. Exact fractions: --csv or --json.\n\n",
        rules.name,
        g.length,
        g.length,
        die_text(rules)
    );
    let butchers: Vec<u32> = (1..g.length - 1).collect();
    let mut headers = vec!["swine".to_string()];
    headers.extend(butchers.iter().map(|b| b.to_string()));
    let rows: Vec<Vec<String>> = (2..g.length)
        .map(|s| {
            let mut row = vec![s.to_string()];
            row.extend(butchers.iter().map(|&b| {
                g.cells
                    .iter()
                    .find(|c| (c.swine, c.butcher) == (s, b))
                    .map_or(String::new(), |c| decimal4(&c.p))
            }));
            row
        })
        .collect();
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    out += &table(&headers, &rows);
    out
}

/// A probability with four decimals (fixed, so the grid's columns line up).
fn decimal4(p: &Rational) -> String {
    let scaled = Integer::from((Rational::from(p * 10_000) + Rational::from((1, 2))).floor_ref());
    let whole = Integer::from(&scaled / 10_000);
    let frac = Integer::from(&scaled % 10_000);
    format!("{whole}.{:0>4}", frac.to_string())
}

pub fn grid_csv(g: &Grid) -> String {
    let mut out = String::from("length,swine,butcher,p_swine,p_swine_decimal\n");
    for c in &g.cells {
        out += &format!("{},{},{},{},{}\n", g.length, c.swine, c.butcher, c.p, decimal(&c.p, 10));
    }
    out
}

pub fn grid_json(rules: &Rules, g: &Grid) -> Value {
    json!({
        "length": g.length,
        "die": die_json(rules),
        "cells": g.cells.iter().map(|c| json!({
            "swine": c.swine, "butcher": c.butcher, "p_swine": number(&c.p),
        })).collect::<Vec<_>>(),
    })
}

pub fn sweep_text(rules: &Rules, reports: &[RaceReport]) -> String {
    let first = &reports[0].setup;
    let mut out = format!(
        "{}\nThe swine starts on {}, the butcher on {}; the board's length varies\nDie: {}\n\n",
        rules.name,
        first.swine,
        first.butcher,
        die_text(rules)
    );
    let rows: Vec<Vec<String>> = reports
        .iter()
        .map(|r| {
            let t = &r.turns;
            vec![
                r.setup.length.to_string(),
                decimal(&r.swine, 6),
                decimal(&t.mean, 6),
                format!("{:.4}", t.variance.to_f64().sqrt()),
                t.median.to_string(),
                t.percentile_90.to_string(),
                t.longest.map_or("unbounded".into(), |n| n.to_string()),
                r.swine.to_string(),
            ]
        })
        .collect();
    out += &table(&["length", "P(swine)", "mean turns", "sd", "median", "90th", "longest", "exact"], &rows);
    out
}

pub fn sweep_csv(reports: &[RaceReport]) -> String {
    let mut out = String::from(
        "length,swine,butcher,p_swine,p_swine_decimal,mean_turns,mean_turns_decimal,variance,median,percentile_90,longest\n",
    );
    for r in reports {
        let t = &r.turns;
        out += &format!(
            "{},{},{},{},{},{},{},{},{},{},{}\n",
            r.setup.length,
            r.setup.swine,
            r.setup.butcher,
            r.swine,
            decimal(&r.swine, 10),
            t.mean,
            decimal(&t.mean, 10),
            t.variance,
            t.median,
            t.percentile_90,
            t.longest.map_or(String::new(), |n| n.to_string())
        );
    }
    out
}

pub fn sweep_json(rules: &Rules, reports: &[RaceReport]) -> Value {
    json!({
        "die": die_json(rules),
        "lengths": reports.iter().map(|r| json!({
            "length": r.setup.length,
            "swine": r.setup.swine,
            "butcher": r.setup.butcher,
            "swine_wins": number(&r.swine),
            "mean_turns": number(&r.turns.mean),
            "variance": number(&r.turns.variance),
            "median": r.turns.median,
            "percentile_90": r.turns.percentile_90,
            "longest": r.turns.longest,
        })).collect::<Vec<_>>(),
    })
}

/// A heat map of the grid as an SVG document: butcher's square across, swine's square down,
/// red where the butcher is favoured, white at even chances, blue where the swine is.
pub fn grid_svg(rules: &Rules, g: &Grid) -> String {
    // Swine rows 2..length-1 and butcher columns 1..length-2: n of each.
    let n = g.length - 2;
    let cell = (720 / n).clamp(6, 44) as f64;
    let (left, top) = (70.0, 70.0);
    let side = cell * n as f64;
    let scale_height = side.max(100.0);
    let (width, height) = ((left + side + 150.0).max(560.0), top + scale_height + 30.0);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"15\">P(the swine wins), board of {} squares</text>\n\
         <text x=\"10\" y=\"42\" fill=\"#555\">{}; columns: the butcher's start, rows: the swine's</text>\n",
        g.length,
        escape(&rules.name)
    );
    for c in &g.cells {
        let x = left + (c.butcher - 1) as f64 * cell;
        let y = top + (c.swine - 2) as f64 * cell;
        let p = c.p.to_f64();
        svg += &format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{}\"><title>swine {}, butcher {}: {} = {}</title></rect>\n",
            colour(p),
            c.swine,
            c.butcher,
            c.p,
            decimal(&c.p, 6)
        );
        if cell >= 30.0 {
            let ink = if (p - 0.5).abs() > 0.3 { "white" } else { "black" };
            svg += &format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\" fill=\"{ink}\">{:.2}</text>\n",
                x + cell / 2.0,
                y + cell / 2.0 + 4.0,
                p
            );
        }
    }
    // Axis labels, thinned so they do not overlap.
    let every = (22.0 / cell).ceil().max(1.0) as u32;
    for b in (1..g.length - 1).filter(|b| (b - 1) % every == 0) {
        let x = left + (b - 1) as f64 * cell + cell / 2.0;
        svg += &format!("<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{b}</text>\n", top - 6.0);
    }
    for s in (2..g.length).filter(|s| (s - 2) % every == 0) {
        let y = top + (s - 2) as f64 * cell + cell / 2.0 + 4.0;
        svg += &format!("<text x=\"{}\" y=\"{y}\" text-anchor=\"end\">{s}</text>\n", left - 6.0);
    }
    // The colour scale.
    let (lx, steps) = (left + side + 30.0, 50);
    let step = scale_height / steps as f64;
    for i in 0..steps {
        let p = 1.0 - (i as f64 + 0.5) / steps as f64;
        svg += &format!(
            "<rect x=\"{lx}\" y=\"{:.2}\" width=\"16\" height=\"{:.2}\" fill=\"{}\"/>\n",
            top + i as f64 * step,
            step + 0.5,
            colour(p)
        );
    }
    for (p, label) in [(1.0, "1 (swine)"), (0.5, "0.5"), (0.0, "0 (butcher)")] {
        let y = top + (1.0 - p) * step * steps as f64 + 4.0;
        svg += &format!("<text x=\"{}\" y=\"{y:.2}\">{label}</text>\n", lx + 20.0);
    }
    svg += "</svg>\n";
    svg
}

/// Red (butcher) through white (even) to blue (swine).
fn colour(p: f64) -> String {
    let (red, white, blue) = ([178.0, 24.0, 43.0], [247.0, 247.0, 247.0], [33.0, 102.0, 172.0]);
    let (from, to, t) = if p < 0.5 { (red, white, p * 2.0) } else { (white, blue, p * 2.0 - 1.0) };
    let mix = |i: usize| (from[i] + (to[i] - from[i]) * t.clamp(0.0, 1.0)).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_decimals_and_colours() {
        assert_eq!(decimal4(&Rational::from((1, 3))), "0.3333");
        assert_eq!(decimal4(&Rational::from(1)), "1.0000");
        assert_eq!(decimal4(&Rational::from((1, 20000))), "0.0001");
        assert_eq!(colour(0.0), "#b2182b");
        assert_eq!(colour(0.5), "#f7f7f7");
        assert_eq!(colour(1.0), "#2166ac");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
