//! Reports of `simulate`: estimates beside exact values.

use super::{exact, table};
use crate::render::number::{decimal, grouped};
use crate::solitaire::board::Board;
use crate::solitaire::estimates::{Estimate, SimReport, StartPlan};
use serde_json::{Value, json};

fn holes_text(board: &Board, holes: &[u8]) -> String {
    names(board, holes).join(" ")
}

pub fn plan_text(board: &Board, plan: &StartPlan) -> String {
    match plan {
        StartPlan::Random => "a uniformly random empty hole for every game".into(),
        StartPlan::Each(holes) if holes.len() == 1 => format!("hole {} empty", board.hole_name(holes[0])),
        StartPlan::Each(holes) => format!("each of {}", holes_text(board, holes)),
        StartPlan::PerClass(n) => format!("{} games in each symmetry class", grouped(&(*n).into())),
    }
}

fn row(label: String, e: &Estimate) -> Vec<String> {
    vec![
        label,
        grouped(&e.games.into()),
        grouped(&e.wins.into()),
        format!("{:.6}", e.estimate()),
        format!("[{:.6}, {:.6}]", e.ci95.0, e.ci95.1),
        e.exact.as_ref().map_or("-".into(), |p| decimal(p, 6)),
        e.z.map_or("-".into(), |z| format!("{z:+.2}")),
    ]
}

const HEADERS: [&str; 7] = ["", "games", "wins", "estimate", "95% interval", "exact", "z"];

pub fn text(board: &Board, r: &SimReport) -> String {
    let c = &r.config;
    let mut out = format!(
        "Board {}, policy {}, seed {}, start: {}\n\n",
        board.name(),
        c.policy,
        c.seed,
        plan_text(board, &c.starts)
    );
    out += &table(&HEADERS, &[row("all games".into(), &r.overall)]);
    if let Some(chi) = &r.overall.chi_square {
        out += &format!(
            "Pegs left against the exact distribution: chi-square {:.2} on {} df, p = {:.3}\n",
            chi.statistic, chi.degrees_of_freedom, chi.p_value
        );
    }
    if r.exact.is_none() {
        out += "(no exact values: the board was not given to the exact engine; see --exact)\n";
    }
    out += "\nBy class\n";
    let rows: Vec<Vec<String>> = r.classes.iter().map(|e| row(holes_text(board, &e.holes), e)).collect();
    out += &table(&HEADERS, &rows);
    out += "\nBy start hole\n";
    let rows: Vec<Vec<String>> =
        r.starts.iter().map(|e| row(board.hole_name(e.holes[0]).to_string(), e)).collect();
    out += &table(&HEADERS, &rows);

    out += "\nPegs left, all games\n";
    let e = &r.overall;
    let rows: Vec<Vec<String>> = (0..e.pegs_left.len())
        .filter(|&pegs| e.pegs_left[pegs] > 0 || e.exact_pegs_left.as_ref().is_some_and(|d| d[pegs] > 0))
        .map(|pegs| {
            let n = e.pegs_left[pegs];
            let exact = e.exact_pegs_left.as_ref().map_or("-".into(), |d| decimal(&d[pegs], 6));
            vec![pegs.to_string(), grouped(&n.into()), format!("{:.6}", n as f64 / e.games as f64), exact]
        })
        .collect();
    out += &table(&["pegs", "games", "share", "exact"], &rows);
    out
}

fn estimate_json(e: &Estimate) -> Value {
    json!({
        "games": e.games,
        "wins": e.wins,
        "estimate": e.estimate(),
        "ci95": [e.ci95.0, e.ci95.1],
        "exact": e.exact.as_ref().map(exact),
        "exact_decimal": e.exact.as_ref().map(|p| p.to_f64()),
        "z": e.z,
        "exact_pegs_left": e.exact_pegs_left.as_ref().map(|d| d.iter().enumerate().filter(|(_, p)| **p > 0)
            .map(|(k, p)| (k.to_string(), exact(p))).collect::<serde_json::Map<_, _>>()),
        "pegs_left": e.pegs_left.iter().enumerate().filter(|(_, n)| **n > 0)
            .map(|(p, n)| (p.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
        "chi_square": e.chi_square.as_ref().map(|c| json!({
            "statistic": c.statistic, "df": c.degrees_of_freedom, "p_value": c.p_value,
        })),
    })
}

pub fn json(board: &Board, r: &SimReport) -> Value {
    let c = &r.config;
    let head = json!({
        "board": board.name(),
        "policy": c.policy.name(),
        "seed": c.seed,
        "start": plan_text(board, &c.starts),
    });
    let mut doc = merged(head, &r.overall);
    let classes: Vec<Value> =
        r.classes.iter().map(|e| merged(json!({"holes": names(board, &e.holes)}), e)).collect();
    let starts: Vec<Value> =
        r.starts.iter().map(|e| merged(json!({"hole": board.hole_name(e.holes[0])}), e)).collect();
    doc["classes"] = classes.into();
    doc["starts"] = starts.into();
    doc
}

/// `head`'s fields followed by the estimate's.
fn merged(head: Value, e: &Estimate) -> Value {
    let mut v = head;
    if let (Value::Object(m), Value::Object(f)) = (&mut v, estimate_json(e)) {
        m.extend(f);
    }
    v
}

fn names<'a>(board: &'a Board, holes: &[u8]) -> Vec<&'a str> {
    holes.iter().map(|&h| board.hole_name(h)).collect()
}
