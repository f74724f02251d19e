//! `solve`: a header, one piece per solution, a footer, in every format, so that solutions
//! are written as they are found and `--all` never holds them. Each format is whole once the
//! three parts are written: JSON one document (the header's fields, a `solutions` array, the
//! footer's fields), CSV a header line and a row per solution, Markdown a table of solutions.
//! Jumps are written from-over-to with hole names (`F-C-A`), as seed 003 writes them.

use super::board::{BoardInfo, jump_name};
use super::doc::{Doc, Table, left, right};
use super::values::Big;
use super::{Format, json};
use crate::render::number::plural;
use crate::solitaire::board::Board;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::solve::{Finish, Method, Problem, Summary};
use serde::Serialize;

/// What is asked: the board, the start, the finish and the method.
#[derive(Clone, Debug, Serialize)]
pub struct SolveHeader {
    pub command: &'static str,
    pub board: BoardInfo,
    /// The hole empty at the start, when exactly one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The holes holding pegs at the start.
    pub start_pegs: Vec<String>,
    /// The finish as a position: exactly these holes hold pegs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finish_pegs: Option<Vec<String>>,
    /// The finish as a count: this many pegs left and no jump possible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finish_count: Option<u32>,
    pub method: String,
    /// The finish and the search in words, for text.
    #[serde(skip)]
    pub finish_text: String,
    #[serde(skip)]
    pub search_text: String,
    /// Jumps in every solution: each removes one peg.
    #[serde(skip)]
    pub jumps: u32,
}

impl SolveHeader {
    pub fn new(board: &Board, symmetry_order: usize, problem: &Problem, method: Method) -> SolveHeader {
        let empty = board.full() & !problem.start;
        let (finish_pegs, finish_count) = match problem.finish {
            Finish::Pegs(p) => (Some(hole_list(board, p)), None),
            Finish::Count(k) => (None, Some(k)),
        };
        SolveHeader {
            command: "solve",
            board: BoardInfo::new(board, symmetry_order),
            start: empty.single_hole().map(|h| board.hole_name(h).to_string()),
            start_pegs: hole_list(board, problem.start),
            finish_pegs,
            finish_count,
            method: method.to_string(),
            finish_text: finish_text(board, problem.finish),
            search_text: search_text(method).to_string(),
            jumps: problem.start.count().saturating_sub(problem.finish_pegs()),
        }
    }

    /// "A empty (14 pegs)" for a start with one empty hole, else the pegs.
    fn start_text(&self) -> String {
        let pegs = plural(self.start_pegs.len() as u64, "peg", "pegs");
        match &self.start {
            Some(hole) => format!("{hole} empty ({pegs})"),
            None => format!("pegs in {} ({pegs})", self.start_pegs.join(" ")),
        }
    }
}

fn hole_list(board: &Board, pegs: Pegs) -> Vec<String> {
    board.hole_list(pegs).into_iter().map(str::to_string).collect()
}

fn finish_text(board: &Board, finish: Finish) -> String {
    match finish {
        Finish::Pegs(p) if p.count() == 1 => format!("the last peg in {}", board.hole_list(p).join(" ")),
        Finish::Pegs(p) => format!("pegs in exactly {}", board.hole_list(p).join(" ")),
        Finish::Count(1) => "one peg left, in any hole".into(),
        Finish::Count(k) => format!("{k} pegs left and no jump possible"),
    }
}

fn search_text(method: Method) -> &'static str {
    match method {
        Method::Dfs => "depth-first search with a table of failed positions",
        Method::Bfs => "breadth-first sweep of every reachable position",
    }
}

/// One solution: its number in the listing and its jumps.
#[derive(Clone, Debug, Serialize)]
pub struct SolutionView {
    pub number: u64,
    pub jumps: Vec<String>,
}

impl SolutionView {
    pub fn new(board: &Board, number: u64, jumps: &[usize]) -> SolutionView {
        SolutionView { number, jumps: jumps.iter().map(|&j| jump_name(board, &board.jumps()[j])).collect() }
    }
}

/// Distinct solutions found, and the symmetries (identity included) that identify them.
#[derive(Clone, Debug, Serialize)]
pub struct DistinctView {
    pub classes: Big,
    pub symmetries: usize,
}

/// What the search found.
#[derive(Clone, Debug, Serialize)]
pub struct SolveFooter {
    /// Solutions the search met (every one, even those `--distinct` does not list).
    pub found: Big,
    /// Every solution was seen.
    pub complete: bool,
    /// The search was stopped from outside (a signal): present, and true, only then, so
    /// that an interrupted stream still ends as one valid document.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    /// A checkpoint could not be saved, which stopped the search: present, and true, only
    /// then, so that the stream still ends as one valid document.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unsaved: bool,
    /// The system refused the search memory to go on (for its positions known to fail, or
    /// the classes of `--distinct`): present, and true, only then, so that the stream still
    /// ends as one valid document.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub out_of_memory: bool,
    /// The position classes alone showed there is none.
    pub ruled_out_by_parity: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distinct: Option<DistinctView>,
}

impl SolveFooter {
    pub fn new(summary: &Summary, distinct: Option<(u64, usize)>) -> SolveFooter {
        SolveFooter {
            found: Big::of(summary.found),
            complete: summary.complete,
            interrupted: summary.interrupted,
            unsaved: summary.unsaved,
            out_of_memory: false,
            ruled_out_by_parity: summary.ruled_out_by_parity,
            distinct: distinct
                .map(|(classes, symmetries)| DistinctView { classes: Big::of(classes), symmetries }),
        }
    }
}

/// Writes the three parts in one format. `more` is appended to the footer's text when the
/// search stopped at its limit: the way to more solutions, in the caller's words.
#[derive(Clone, Debug)]
pub struct SolveWriter<'a> {
    pub board: &'a Board,
    pub format: Format,
    /// Draw the board after every jump (text and Markdown).
    pub show: bool,
    pub more: Option<String>,
}

impl SolveWriter<'_> {
    /// Everything before the first solution.
    pub fn head(&self, h: &SolveHeader) -> String {
        match self.format {
            Format::Text => header_doc(h).text() + "\n",
            Format::Markdown => header_doc(h).markdown() + "\n",
            Format::Csv => solutions_table(h.jumps).csv(),
            Format::Json => {
                // The header's fields, the object reopened for the array.
                let text = json(h);
                format!("{},\n  \"solutions\": [", text.trim_end().trim_end_matches('}').trim_end())
            }
        }
    }

    /// Solution `number` (counted from 1), from the start position `start`.
    pub fn solution(&self, start: Pegs, number: u64, jumps: &[usize]) -> String {
        let view = SolutionView::new(self.board, number, jumps);
        let first = number == 1;
        match self.format {
            Format::Text if self.show && !jumps.is_empty() => format!(
                "Solution {number} ({})\n{}\n",
                plural(jumps.len() as u64, "jump", "jumps"),
                drawings(self.board, start, &view, jumps)
            ),
            Format::Text => solution_line(&view),
            Format::Markdown if self.show && !jumps.is_empty() => format!(
                "## Solution {number} ({})\n\n```\n{}```\n\n",
                plural(jumps.len() as u64, "jump", "jumps"),
                drawings(self.board, start, &view, jumps)
            ),
            Format::Markdown => skip_lines(markdown_row(&view).markdown(), if first { 0 } else { 2 }),
            Format::Csv => skip_lines(csv_row(&view).csv(), 1),
            Format::Json => {
                let item = serde_json::to_string(&view).unwrap_or_default();
                format!("{}\n    {item}", if first { "" } else { "," })
            }
        }
    }

    /// Everything after the last solution; `shown` solutions were written.
    pub fn foot(&self, f: &SolveFooter, shown: u64) -> String {
        match self.format {
            Format::Text => footer_text(f, shown, self.more.as_deref()),
            Format::Markdown => {
                let lead = if shown > 0 && !self.show { "\n" } else { "" };
                format!("{lead}{}", footer_text(f, 0, self.more.as_deref()))
            }
            Format::Csv => String::new(),
            Format::Json => {
                let text = json(f);
                let body = text.trim_start().trim_start_matches('{');
                format!("{}],{body}", if shown > 0 { "\n  " } else { "" })
            }
        }
    }
}

fn header_doc(h: &SolveHeader) -> Doc {
    let mut d = Doc::default();
    d.heading(h.board.title());
    d.para(format!("Start: {}", h.start_text()));
    d.para(format!("Finish: {}", h.finish_text));
    d.para(format!("Search: {}", h.search_text));
    d
}

/// The columns of the solutions table: the number, then one per jump.
fn solutions_table(jumps: u32) -> Table {
    let mut columns = vec![right("number")];
    columns.extend((1..=jumps).map(|i| left(&format!("jump_{i}"))));
    Table::new(columns)
}

/// One solution as a Markdown table of one row: the jumps in one cell.
fn markdown_row(view: &SolutionView) -> Table {
    let mut t = Table::new(vec![right("number"), left("jumps")]);
    t.row(vec![view.number.to_string(), view.jumps.join(", ")]);
    t
}

/// One solution as a CSV table of one row: every jump in its own cell.
fn csv_row(view: &SolutionView) -> Table {
    let mut t = solutions_table(view.jumps.len() as u32);
    t.row([view.number.to_string()].into_iter().chain(view.jumps.iter().cloned()).collect());
    t
}

/// `text` without its first `n` lines.
fn skip_lines(text: String, n: usize) -> String {
    text.split_inclusive('\n').skip(n).collect()
}

fn solution_line(view: &SolutionView) -> String {
    if view.jumps.is_empty() {
        return format!("{}. (no jump: the start is already the finish)\n", view.number);
    }
    format!("{}. {}\n", view.number, view.jumps.join(", "))
}

/// A solution drawn: the board at the start and after every jump (`jumps` index the board's).
fn drawings(board: &Board, start: Pegs, view: &SolutionView, jumps: &[usize]) -> String {
    let indent = |drawing: String| drawing.lines().map(|l| format!("    {l}\n")).collect::<String>();
    let mut out = String::from("  start\n");
    let mut pos = start;
    out += &indent(board.draw_position(pos));
    for (i, (name, &j)) in view.jumps.iter().zip(jumps).enumerate() {
        let jump = board.jumps()[j];
        pos ^= Pegs::single(jump.from).with(jump.over).with(jump.to);
        out += &format!("  {}. {name}\n", i + 1);
        out += &indent(board.draw_position(pos));
    }
    out
}

/// The footer in words; `more` follows a stop at the limit.
fn footer_text(f: &SolveFooter, shown: u64, more: Option<&str>) -> String {
    let lead = if shown > 0 { "\n" } else { "" };
    if f.ruled_out_by_parity {
        return "No solution: the start and the finish are in different position classes (the parity of \
                the pegs on certain holes, which no jump changes), so no sequence of jumps joins them.\n"
            .into();
    }
    let found = f.found.0.to_u64().unwrap_or(u64::MAX);
    if found == 0 && f.complete {
        return format!(
            "{lead}No solution: no sequence of jumps leads from this start to this finish \
             (the search was exhaustive).\n"
        );
    }
    let solutions = plural(found, "solution", "solutions");
    if f.unsaved {
        return format!("{lead}Stopped after {solutions}: the checkpoint could not be saved.\n");
    }
    if f.out_of_memory {
        return format!("{lead}Stopped after {solutions}: the system refused the search memory to go on.\n");
    }
    if f.interrupted {
        return format!("{lead}Interrupted after {solutions}: the search was not finished.\n");
    }
    let text = match (&f.distinct, f.complete) {
        (None, true) => format!("{solutions} in all (the search was exhaustive)."),
        (None, false) => match more {
            Some(more) => format!("Stopped after {solutions} (the limit); {more}."),
            None => format!("Stopped after {solutions} (the limit)."),
        },
        (Some(d), complete) => distinct_text(d, &solutions, found, complete),
    };
    format!("{lead}{text}\n")
}

fn distinct_text(d: &DistinctView, solutions: &str, found: u64, complete: bool) -> String {
    let classes = d.classes.0.to_u64().unwrap_or(u64::MAX);
    let distinct = plural(classes, "distinct solution", "distinct solutions");
    if complete {
        return format!(
            "{distinct} among {solutions}, up to the order of jumps and {}.",
            symmetries_text(d.symmetries)
        );
    }
    let among = if found > classes { format!(", among the first {solutions}") } else { String::new() };
    format!("Stopped after {distinct} (the limit){among}.")
}

fn symmetries_text(n: usize) -> String {
    match n {
        1 => "no symmetry (none but the identity keeps the start and the finish)".into(),
        n => format!("the {n} symmetries (identity included) that keep the start and the finish"),
    }
}
