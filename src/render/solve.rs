//! Reports of `solve`: a header, one piece per solution (so `--all` streams), a footer.
//! Jumps are written from-over-to with hole names (`F-C-A`), as seed 003 writes them.
//! The JSON document is written in the same three pieces and is valid once complete.

use crate::render::number::grouped;
use crate::solitaire::board::Board;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::solve::{Finish, Method, Problem, Summary};
use rug::Integer;
use serde_json::{Map, Value, json};

/// A jump as `from-over-to`.
pub fn jump_text(board: &Board, jump: usize) -> String {
    let j = board.jumps()[jump];
    format!("{}-{}-{}", board.hole_name(j.from), board.hole_name(j.over), board.hole_name(j.to))
}

fn count(n: u64) -> String {
    grouped(&Integer::from(n))
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// "A empty (14 pegs)" for a start with one empty hole, else the pegs.
pub fn start_text(board: &Board, start: Pegs) -> String {
    let empty = (board.full() & !start).0;
    let pegs = start.count() as u64;
    if empty.count_ones() == 1 {
        format!("{} empty ({})", board.hole_name(empty.trailing_zeros() as u8), plural(pegs, "peg", "pegs"))
    } else {
        format!("pegs in {} ({})", board.hole_list(start).join(" "), plural(pegs, "peg", "pegs"))
    }
}

pub fn finish_text(board: &Board, finish: Finish) -> String {
    match finish {
        Finish::Pegs(p) if p.count() == 1 => {
            format!("the last peg in {}", board.hole_name(p.0.trailing_zeros() as u8))
        }
        Finish::Pegs(p) => format!("pegs in exactly {}", board.hole_list(p).join(" ")),
        Finish::Count(1) => "one peg left, in any hole".into(),
        Finish::Count(k) => format!("{k} pegs left and no jump possible"),
    }
}

pub fn header_text(board: &Board, problem: &Problem, method: Method) -> String {
    let how = match method {
        Method::Dfs => "depth-first search with a table of failed positions",
        Method::Bfs => "breadth-first sweep of every reachable position",
    };
    format!(
        "Board {} ({} holes, {} jumps)\nStart: {}\nFinish: {}\nSearch: {how}\n\n",
        board.name(),
        board.hole_count(),
        board.jumps().len(),
        start_text(board, problem.start),
        finish_text(board, problem.finish)
    )
}

/// One solution: a numbered line of jumps, or with `show` the board after every jump.
pub fn solution_text(board: &Board, start: Pegs, number: u64, jumps: &[usize], show: bool) -> String {
    let list: Vec<String> = jumps.iter().map(|&j| jump_text(board, j)).collect();
    if jumps.is_empty() {
        return format!("{number}. (no jump: the start is already the finish)\n");
    }
    if !show {
        return format!("{number}. {}\n", list.join(", "));
    }
    let indent = |drawing: String| drawing.lines().map(|l| format!("    {l}\n")).collect::<String>();
    let mut out = format!("Solution {number} ({})\n  start\n", plural(jumps.len() as u64, "jump", "jumps"));
    let mut pos = start;
    out += &indent(board.draw_position(pos));
    for (i, (&j, text)) in jumps.iter().zip(&list).enumerate() {
        let jump = board.jumps()[j];
        pos ^= Pegs(1 << jump.from | 1 << jump.over | 1 << jump.to);
        out += &format!("  {}. {text}\n", i + 1);
        out += &indent(board.draw_position(pos));
    }
    out + "\n"
}

/// Distinct classes found, and the symmetries (identity included) that identify solutions.
#[derive(Clone, Copy, Debug)]
pub struct DistinctCount {
    pub classes: u64,
    pub symmetries: usize,
}

pub fn footer_text(summary: &Summary, shown: u64, distinct: Option<DistinctCount>) -> String {
    let lead = if shown > 0 { "\n" } else { "" };
    if summary.ruled_out_by_parity {
        return "No solution: the start and the finish are in different position classes (the parity of \
                the pegs on certain holes, which no jump changes), so no sequence of jumps joins them.\n"
            .into();
    }
    if summary.found == 0 && summary.complete {
        return format!(
            "{lead}No solution: no sequence of jumps leads from this start to this finish \
             (the search was exhaustive).\n"
        );
    }
    let text = match (distinct, summary.complete) {
        (None, true) => {
            format!("{} in all (the search was exhaustive).", plural(summary.found, "solution", "solutions"))
        }
        (None, false) => format!(
            "Stopped after {} (the limit); --limit N or --all for more.",
            plural(summary.found, "solution", "solutions")
        ),
        (Some(d), true) => format!(
            "{} among {}, up to the order of jumps and {}.",
            plural(d.classes, "distinct solution", "distinct solutions"),
            plural(summary.found, "solution", "solutions"),
            symmetries_text(d.symmetries)
        ),
        (Some(d), false) => format!(
            "Stopped after {} (the limit){}.",
            plural(d.classes, "distinct solution", "distinct solutions"),
            if summary.found > d.classes {
                format!(", among the first {}", plural(summary.found, "solution", "solutions"))
            } else {
                String::new()
            }
        ),
    };
    format!("{lead}{text}\n")
}

fn symmetries_text(n: usize) -> String {
    match n {
        1 => "no symmetry (none but the identity keeps the start and the finish)".into(),
        n => format!("the {n} symmetries (identity included) that keep the start and the finish"),
    }
}

/// The JSON document up to the opening of its `solutions` array.
pub fn json_header(board: &Board, problem: &Problem, method: Method) -> String {
    let finish = match problem.finish {
        Finish::Pegs(p) => json!({ "pegs": board.hole_list(p) }),
        Finish::Count(k) => json!({ "pegs_left": k, "no_jump": true }),
    };
    let mut head = Map::new();
    head.insert("board".into(), json!(board.name()));
    head.insert("start".into(), json!({ "pegs": board.hole_list(problem.start) }));
    head.insert("finish".into(), finish);
    head.insert("method".into(), json!(method.to_string()));
    let text = serde_json::to_string_pretty(&Value::Object(head)).expect("JSON values serialize");
    // Reopen the object to append the array.
    format!("{},\n  \"solutions\": [", text.trim_end().trim_end_matches('}').trim_end())
}

/// One element of the `solutions` array, with its separator.
pub fn json_solution(board: &Board, number: u64, jumps: &[usize]) -> String {
    let jumps: Vec<String> = jumps.iter().map(|&j| jump_text(board, j)).collect();
    let item = json!({ "number": number, "jumps": jumps });
    format!("{}\n    {}", if number == 1 { "" } else { "," }, item)
}

/// The end of the array and the counts.
pub fn json_footer(summary: &Summary, shown: u64, distinct: Option<DistinctCount>) -> String {
    let mut tail = Map::new();
    tail.insert("found".into(), json!(summary.found));
    tail.insert("complete".into(), json!(summary.complete));
    tail.insert("ruled_out_by_parity".into(), json!(summary.ruled_out_by_parity));
    if let Some(d) = distinct {
        tail.insert("distinct".into(), json!({ "classes": d.classes, "symmetries": d.symmetries }));
    }
    let text = serde_json::to_string_pretty(&Value::Object(tail)).expect("JSON values serialize");
    let body = text.trim_start().trim_start_matches('{');
    format!("{}],{body}\n", if shown > 0 { "\n  " } else { "" })
}
