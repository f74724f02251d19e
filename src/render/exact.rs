//! `exact`: probabilities under random play, per start hole, per symmetry class and for a
//! random start hole, with the distribution of pegs left and of the finish hole.

use super::board::{BoardInfo, names};
use super::count::PositionsView;
use super::doc::{Doc, Table, left, right};
use super::position::distribution;
pub use super::values::Win;
use super::values::{Keyed, Value, decimal_cell};
use super::{Report, Style};
use crate::solitaire::board::Board;
use crate::solitaire::exact::{ClassValue, ExactReport, StartExact};
use rug::Rational;
use serde::Serialize;

/// One start hole, evaluated.
#[derive(Clone, Debug, Serialize)]
pub struct StartView {
    pub start: String,
    pub class: usize,
    /// The holes of the start's class.
    pub holes: Vec<String>,
    #[serde(flatten)]
    pub win: Win,
    /// P(n pegs left) for every n that can happen.
    pub pegs_left: Keyed<Value>,
    pub expected_pegs_left: Value,
    /// P(one peg left, in this hole) for every hole a win can finish in.
    pub finish: Keyed<Value>,
    /// P(the last peg sits in the start hole).
    pub finish_in_start: Value,
    pub positions: PositionsView,
}

/// A class of start holes, which share every symmetric figure.
#[derive(Clone, Debug, Serialize)]
pub struct ClassView {
    pub class: usize,
    pub holes: Vec<String>,
    #[serde(flatten)]
    pub win: Win,
}

/// The `exact` document.
#[derive(Clone, Debug, Serialize)]
pub struct ExactView {
    pub command: &'static str,
    pub board: BoardInfo,
    pub policy: String,
    /// The policy in words, for text.
    #[serde(skip)]
    pub policy_description: String,
    pub starts: Vec<StartView>,
    pub classes: Vec<ClassView>,
    /// The average over every hole: present when every hole was evaluated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random_start: Option<Win>,
}

impl ExactView {
    pub fn new(board: &Board, r: &ExactReport) -> ExactView {
        let holes_of = |class: usize| class_holes(board, &r.classes, class);
        ExactView {
            command: "exact",
            board: BoardInfo::new(board, r.group_order),
            policy: r.policy.name().to_string(),
            policy_description: r.policy.describe().to_string(),
            starts: r.starts.iter().map(|s| start_view(board, s, holes_of(s.class))).collect(),
            classes: r
                .classes
                .iter()
                .map(|c| ClassView {
                    class: c.class + 1,
                    holes: names(board, &c.holes),
                    win: Win::of(&c.value),
                })
                .collect(),
            random_start: r.random_start.as_ref().map(Win::of),
        }
    }
}

/// The hole names of class `class` (0-based, as the library numbers it).
pub fn class_holes<V>(board: &Board, classes: &[ClassValue<V>], class: usize) -> Vec<String> {
    classes.iter().find(|c| c.class == class).map(|c| names(board, &c.holes)).unwrap_or_default()
}

fn start_view(board: &Board, s: &StartExact, holes: Vec<String>) -> StartView {
    StartView {
        start: board.hole_name(s.hole).to_string(),
        class: s.class + 1,
        holes,
        win: Win::of(&s.win),
        pegs_left: s.pegs_left.iter().map(|(n, p)| (n, Value::of(p))).collect(),
        expected_pegs_left: Value::of(&s.expected_pegs_left),
        finish: s.finish.iter().map(|(h, p)| (board.hole_name(*h), Value::of(p))).collect(),
        finish_in_start: Value::of(&s.finish_in_start),
        positions: PositionsView::new(&s.positions),
    }
}

impl Report for ExactView {
    fn document(&self, style: Style) -> Doc {
        let mut d = Doc::default();
        d.heading(self.board.title());
        d.para(format!("Random play: {} ({})", self.policy, self.policy_description));
        d.table(self.start_table());
        d.heading("Per class");
        d.table(self.class_table(style));
        if let Some(r) = &self.random_start {
            // A whole value (0, where no start can win) is not written twice.
            let decimal =
                if *r.win.0.denom() == 1 { String::new() } else { format!(" = {}", r.win.decimal()) };
            d.para(format!(
                "Random start hole: P(one peg) = {}{decimal}, {} bits",
                r.win.fraction(style),
                r.win.bits_text()
            ));
        }
        // Details once per class: its members differ only by a symmetry.
        for c in &self.classes {
            if let Some(s) = self.starts.iter().find(|s| s.class == c.class) {
                start_details(&mut d, s, style);
            }
        }
        d
    }

    fn table(&self) -> Option<Table> {
        let mut t = Table::new(vec![
            left("start"),
            right("class"),
            left("holes"),
            left("quantity"),
            left("key"),
            left("fraction"),
            right("decimal"),
        ]);
        for s in &self.starts {
            let row = Row { start: &s.start, class: Some(s.class), holes: &s.holes };
            row.win(&mut t, &s.win);
            for (n, p) in s.pegs_left.iter() {
                row.value(&mut t, "pegs_left", n, p);
            }
            row.value(&mut t, "expected_pegs_left", "", &s.expected_pegs_left);
            for (hole, p) in s.finish.iter() {
                row.value(&mut t, "finish", hole, p);
            }
            row.value(&mut t, "finish_in_start", "", &s.finish_in_start);
            for (quantity, key, n) in s.positions.rows() {
                row.value(&mut t, quantity, &key, &Value(Rational::from(&n.0)));
            }
        }
        for c in &self.classes {
            Row { start: "", class: Some(c.class), holes: &c.holes }.win(&mut t, &c.win);
        }
        if let Some(r) = &self.random_start {
            Row { start: "random", class: None, holes: &[] }.win(&mut t, r);
        }
        Some(t)
    }
}

/// The first cells of a CSV row: which start (or class, or the random start) it is about.
struct Row<'a> {
    start: &'a str,
    class: Option<usize>,
    holes: &'a [String],
}

impl Row<'_> {
    fn cells(&self, t: &mut Table, quantity: &str, key: &str, [fraction, decimal]: [String; 2]) {
        let class = self.class.map_or(String::new(), |c| c.to_string());
        t.row(vec![
            self.start.to_string(),
            class,
            self.holes.join(" "),
            quantity.to_string(),
            key.to_string(),
            fraction,
            decimal,
        ]);
    }

    fn value(&self, t: &mut Table, quantity: &str, key: &str, p: &Value) {
        self.cells(t, quantity, key, p.cells());
    }

    /// The win row, and a bits row beside it (bits are no fraction: that cell stays empty).
    fn win(&self, t: &mut Table, w: &Win) {
        self.value(t, "win", "", &w.win);
        if let Some(bits) = w.bits {
            self.cells(t, "bits", "", [String::new(), decimal_cell(bits)]);
        }
    }
}

impl ExactView {
    fn start_table(&self) -> Table {
        let mut t = Table::new(vec![
            left("start"),
            right("class"),
            right("P(one peg)"),
            right("bits"),
            right("E[pegs left]"),
            right("P(last peg in start)"),
        ]);
        for s in &self.starts {
            t.row(vec![
                s.start.clone(),
                s.class.to_string(),
                s.win.win.decimal(),
                s.win.win.bits_text(),
                s.expected_pegs_left.decimal(),
                s.finish_in_start.decimal(),
            ]);
        }
        t
    }

    fn class_table(&self, style: Style) -> Table {
        let mut t =
            Table::new(vec![left("class"), left("holes"), right("P(one peg)"), right("bits"), left("exact")]);
        for c in &self.classes {
            t.row(vec![
                c.class.to_string(),
                c.holes.join(" "),
                c.win.win.decimal(),
                c.win.win.bits_text(),
                c.win.win.fraction(style),
            ]);
        }
        t
    }
}

/// A start's distributions: pegs left, finish hole, last peg in the start hole, positions.
fn start_details(d: &mut Doc, s: &StartView, style: Style) {
    d.heading(format!("Start {} (class {})", s.start, s.class));
    d.para("Pegs left at the end:");
    d.table(distribution("pegs", &s.pegs_left, style));
    d.para(format!("E[pegs left] = {}", s.expected_pegs_left.fraction_and_decimal(style)));
    if s.finish.is_empty() {
        d.para("One peg left, by finish hole: never.");
    } else {
        d.para("One peg left, by finish hole:");
        d.table(distribution("hole", &s.finish, style));
    }
    d.para(format!("Last peg in the start hole: {}", s.finish_in_start.fraction_and_decimal(style)));
    s.positions.describe(d);
}
