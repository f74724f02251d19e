//! Report of `ends`: winning games from each start hole to each finish hole, and the set
//! of possible finish holes per start, from the exact engine's path counts.

use super::{big, table};
use crate::render::number::grouped;
use crate::solitaire::board::Board;
use crate::solitaire::exact::{CountReport, StartCount};
use rug::Integer;
use serde_json::{Map, Value, json};

pub fn ends_text(board: &Board, r: &CountReport) -> String {
    let mut out = format!(
        "Board {} ({} holes, {} jumps, symmetry group of order {})\n\
         Winning games (one peg left) from each start hole (rows) to each finish hole (columns),\n\
         as exact path counts of the engine; \".\" means none.\n\n",
        board.name(),
        board.hole_count(),
        board.jumps().len(),
        r.group_order
    );
    let mut headers: Vec<&str> = vec!["start"];
    headers.extend(board.holes().iter().map(|h| h.name.as_str()));
    headers.push("total");
    let rows: Vec<Vec<String>> = r
        .starts
        .iter()
        .map(|s| {
            let mut row = vec![board.hole_name(s.hole).to_string()];
            row.extend(
                (0..board.hole_count() as u8)
                    .map(|f| s.wins_by_finish.get(&f).filter(|n| **n != 0).map_or(".".into(), grouped)),
            );
            row.push(grouped(&total(s.wins_by_finish.values())));
            row
        })
        .collect();
    out += &table(&headers, &rows);

    out += "\nPossible finish holes\n";
    let rows: Vec<Vec<String>> = r
        .starts
        .iter()
        .map(|s| {
            let holes: Vec<&str> = finishes(s).map(|(f, _)| board.hole_name(f)).collect();
            let holes = if holes.is_empty() { "none".to_string() } else { holes.join(" ") };
            vec![board.hole_name(s.hole).to_string(), holes, grouped(&total(s.wins_by_finish.values()))]
        })
        .collect();
    out += &table(&["start", "holes", "winning games"], &rows);
    out
}

fn total<'a>(counts: impl Iterator<Item = &'a Integer>) -> Integer {
    counts.sum()
}

/// The finish holes a start can win in, with their counts.
fn finishes(s: &StartCount) -> impl Iterator<Item = (u8, &Integer)> {
    s.wins_by_finish.iter().filter(|(_, n)| **n != 0).map(|(&f, n)| (f, n))
}

pub fn ends_json(board: &Board, r: &CountReport) -> Value {
    let starts: Vec<Value> = r
        .starts
        .iter()
        .map(|s| {
            let by_finish: Map<String, Value> =
                finishes(s).map(|(f, n)| (board.hole_name(f).to_string(), big(n))).collect();
            json!({
                "start": board.hole_name(s.hole),
                "class": s.class + 1,
                "wins": big(&total(s.wins_by_finish.values())),
                "finish_holes": finishes(s).map(|(f, _)| board.hole_name(f)).collect::<Vec<_>>(),
                "wins_by_finish": by_finish,
            })
        })
        .collect();
    json!({
        "board": board.name(),
        "group_order": r.group_order,
        "starts": starts,
    })
}
