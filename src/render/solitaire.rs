//! Reports of `exact` and `count` on a peg board.

use super::{big, bits_text, exact, fraction_and_decimal, table};
use crate::render::number::{decimal, grouped};
use crate::solitaire::board::Board;
use crate::solitaire::exact::{CountReport, ExactReport, Positions};
use rug::Rational;
use serde_json::{Map, Value, json};

fn names<'a>(board: &'a Board, holes: &[u8]) -> Vec<&'a str> {
    holes.iter().map(|&h| board.hole_name(h)).collect()
}

fn header(board: &Board, group_order: usize) -> String {
    format!(
        "Board {} ({} holes, {} jumps, symmetry group of order {})\n",
        board.name(),
        board.hole_count(),
        board.jumps().len(),
        group_order
    )
}

fn positions_json(p: &Positions) -> Value {
    json!({
        "raw": p.raw.to_string(),
        "up_to_symmetry": p.up_to_symmetry.to_string(),
        "by_layer": p.by_layer.iter().map(|(pegs, raw, sym)| json!({
            "pegs": pegs, "raw": raw.to_string(), "up_to_symmetry": sym.to_string()
        })).collect::<Vec<_>>(),
    })
}

pub fn exact_text(board: &Board, r: &ExactReport) -> String {
    let mut out = header(board, r.group_order);
    out += &format!("Random play: {} ({})\n\n", r.policy, r.policy.describe());
    let rows: Vec<Vec<String>> = r
        .starts
        .iter()
        .map(|s| {
            vec![
                board.hole_name(s.hole).to_string(),
                (s.class + 1).to_string(),
                decimal(&s.win, 6),
                bits_text(&s.win),
                decimal(&s.expected_pegs_left, 6),
                decimal(&s.finish_in_start, 6),
            ]
        })
        .collect();
    out += &table(&["start", "class", "P(one peg)", "bits", "E[pegs left]", "P(last peg in start)"], &rows);

    out += "\nPer class (exact)\n";
    let rows: Vec<Vec<String>> = r
        .classes
        .iter()
        .map(|c| {
            vec![
                (c.class + 1).to_string(),
                names(board, &c.holes).join(" "),
                decimal(&c.value, 6),
                bits_text(&c.value),
                c.value.to_string(),
            ]
        })
        .collect();
    out += &table(&["class", "holes", "P(one peg)", "bits", "exact"], &rows);
    if let Some(p) = &r.random_start {
        out +=
            &format!("\nRandom start hole: P(one peg) = {} = {}, {} bits\n", p, decimal(p, 6), bits_text(p));
    }

    // Details once per class: members differ only by a symmetry.
    for c in &r.classes {
        let Some(s) = r.starts.iter().find(|s| s.class == c.class) else { continue };
        out +=
            &format!("\nStart {} (class {}): pegs left at the end\n", board.hole_name(s.hole), c.class + 1);
        let rows: Vec<Vec<String>> =
            s.pegs_left.iter().map(|(n, p)| vec![n.to_string(), decimal(p, 6), p.to_string()]).collect();
        out += &table(&["pegs", "probability", "exact"], &rows);
        out += &format!("E[pegs left] = {}\n", fraction_and_decimal(&s.expected_pegs_left, 6));
        out += "One peg left, by finish hole:\n";
        let rows: Vec<Vec<String>> = s
            .finish
            .iter()
            .map(|(h, p)| vec![board.hole_name(*h).to_string(), decimal(p, 6), p.to_string()])
            .collect();
        out += &table(&["hole", "probability", "exact"], &rows);
        out += &format!("Last peg in the start hole: {}\n", fraction_and_decimal(&s.finish_in_start, 6));
    }
    out
}

pub fn exact_json(board: &Board, r: &ExactReport) -> Value {
    let starts: Vec<Value> = r
        .starts
        .iter()
        .map(|s| {
            let pegs: Map<String, Value> =
                s.pegs_left.iter().map(|(n, p)| (n.to_string(), exact(p))).collect();
            let finish: Map<String, Value> =
                s.finish.iter().map(|(h, p)| (board.hole_name(*h).to_string(), exact(p))).collect();
            json!({
                "hole": board.hole_name(s.hole),
                "class": s.class + 1,
                "win": exact(&s.win),
                "win_decimal": s.win.to_f64(),
                "bits": finite(crate::render::number::bits(&s.win)),
                "pegs_left": pegs,
                "expected_pegs_left": exact(&s.expected_pegs_left),
                "expected_pegs_left_decimal": s.expected_pegs_left.to_f64(),
                "finish_in_start": exact(&s.finish_in_start),
                "finish_in_start_decimal": s.finish_in_start.to_f64(),
                "finish": finish,
                "positions": positions_json(&s.positions),
            })
        })
        .collect();
    json!({
        "board": board.name(),
        "holes": board.hole_count(),
        "symmetry_order": r.group_order,
        "policy": r.policy.name(),
        "starts": starts,
        "classes": r.classes.iter().map(|c| json!({
            "class": c.class + 1,
            "holes": names(board, &c.holes),
            "win": exact(&c.value),
            "win_decimal": c.value.to_f64(),
            "bits": finite(crate::render::number::bits(&c.value)),
        })).collect::<Vec<_>>(),
        "random_start": r.random_start.as_ref().map(|p| json!({
            "win": exact(p), "win_decimal": p.to_f64(), "bits": finite(crate::render::number::bits(p)),
        })),
    })
}

fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

pub fn count_text(board: &Board, r: &CountReport) -> String {
    let mut out = header(board, r.group_order);
    out += "Complete games are distinct move sequences played until no jump is left.\n\n";
    let rows: Vec<Vec<String>> = r
        .starts
        .iter()
        .map(|s| {
            let wins = s.games_by_pegs_left.get(&1).cloned().unwrap_or_default();
            vec![
                board.hole_name(s.hole).to_string(),
                (s.class + 1).to_string(),
                grouped(&s.games),
                grouped(&wins),
                decimal(&Rational::from((wins, s.games.clone())), 4),
                grouped(&s.positions.raw.into()),
                grouped(&s.positions.up_to_symmetry.into()),
            ]
        })
        .collect();
    out +=
        &table(&["start", "class", "games", "winning games", "share", "positions", "up to symmetry"], &rows);
    for s in &r.starts {
        out += &format!("\nStart {}: {} games\n", board.hole_name(s.hole), grouped(&s.games));
        let by_pegs: Vec<String> =
            s.games_by_pegs_left.iter().map(|(n, c)| format!("{n}: {}", grouped(c))).collect();
        out += &format!("  by pegs left  {}\n", by_pegs.join("; "));
        let wins: Vec<String> =
            s.wins_by_finish.iter().map(|(h, c)| format!("{} {}", board.hole_name(*h), grouped(c))).collect();
        out +=
            &format!("  wins by finish  {}\n", if wins.is_empty() { "none".into() } else { wins.join("; ") });
    }
    out
}

pub fn count_json(board: &Board, r: &CountReport) -> Value {
    let starts: Vec<Value> = r
        .starts
        .iter()
        .map(|s| {
            let by_pegs: Map<String, Value> =
                s.games_by_pegs_left.iter().map(|(n, c)| (n.to_string(), big(c))).collect();
            let wins: Map<String, Value> =
                s.wins_by_finish.iter().map(|(h, c)| (board.hole_name(*h).to_string(), big(c))).collect();
            json!({
                "hole": board.hole_name(s.hole),
                "class": s.class + 1,
                "games": big(&s.games),
                "games_by_pegs_left": by_pegs,
                "wins_by_finish": wins,
                "positions": positions_json(&s.positions),
            })
        })
        .collect();
    json!({
        "board": board.name(),
        "holes": board.hole_count(),
        "symmetry_order": r.group_order,
        "starts": starts,
        "classes": r.classes.iter().map(|c| json!({
            "class": c.class + 1, "holes": names(board, &c.holes), "games": big(&c.value),
        })).collect::<Vec<_>>(),
    })
}
