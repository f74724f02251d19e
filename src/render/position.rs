//! `exact`, `count` and `ends` from a position given by the user (`--position`, or `--start H
//! --moves ...`): one document about that position, with its pegs and drawing in place of
//! the per-start and per-class tables.

use super::board::BoardInfo;
use super::count::PositionsView;
use super::doc::{Doc, Table, left, right};
use super::values::{Big, Keyed, Value, Win, decimal_cell};
use super::{Report, Style};
use crate::solitaire::board::Board;
use crate::solitaire::exact::{PositionCount, PositionExact};
use crate::solitaire::pegs::Pegs;
use rug::Rational;
use serde::Serialize;

/// The position a document is about.
#[derive(Clone, Debug, Serialize)]
pub struct At {
    /// The holes holding pegs.
    pub position: Vec<String>,
    pub pegs: u32,
    #[serde(skip)]
    pub drawing: String,
}

impl At {
    pub(crate) fn new(board: &Board, pos: Pegs) -> At {
        At {
            position: board.hole_list(pos).iter().map(|h| h.to_string()).collect(),
            pegs: pos.count(),
            drawing: board.draw_position(pos),
        }
    }

    pub(crate) fn head(&self, d: &mut Doc, board: &BoardInfo) {
        let pegs = crate::render::number::plural(u64::from(self.pegs), "peg", "pegs");
        d.heading(format!("{}, from a position with {pegs}", board.title()));
        d.pre(self.drawing.clone());
    }
}

/// `exact` from a position.
#[derive(Clone, Debug, Serialize)]
pub struct PositionExactView {
    pub command: &'static str,
    pub board: BoardInfo,
    pub policy: String,
    #[serde(skip)]
    pub policy_description: String,
    #[serde(flatten)]
    pub at: At,
    #[serde(flatten)]
    pub win: Win,
    pub pegs_left: Keyed<Value>,
    pub expected_pegs_left: Value,
    pub finish: Keyed<Value>,
    pub positions: PositionsView,
}

impl PositionExactView {
    pub fn new(board: &Board, r: &PositionExact) -> PositionExactView {
        let f = &r.figures;
        PositionExactView {
            command: "exact",
            board: BoardInfo::new(board, r.group_order),
            policy: r.policy.name().to_string(),
            policy_description: r.policy.describe().to_string(),
            at: At::new(board, r.position),
            win: Win::of(&f.win),
            pegs_left: f.pegs_left.iter().map(|(n, p)| (n, Value::of(p))).collect(),
            expected_pegs_left: Value::of(&f.expected_pegs_left),
            finish: f.finish.iter().map(|(h, p)| (board.hole_name(*h), Value::of(p))).collect(),
            positions: PositionsView::new(&r.positions),
        }
    }
}

impl Report for PositionExactView {
    fn document(&self, style: Style) -> Doc {
        let mut d = Doc::default();
        self.at.head(&mut d, &self.board);
        d.para(format!("Random play: {} ({})", self.policy, self.policy_description));
        d.para(format!(
            "P(one peg left) = {}, {} bits",
            self.win.win.fraction_and_decimal(style),
            self.win.bits_text()
        ));
        d.para("Pegs left at the end:");
        d.table(distribution("pegs", &self.pegs_left, style));
        d.para(format!("E[pegs left] = {}", self.expected_pegs_left.fraction_and_decimal(style)));
        if self.finish.is_empty() {
            d.para("One peg left, by finish hole: never.");
        } else {
            d.para("One peg left, by finish hole:");
            d.table(distribution("hole", &self.finish, style));
        }
        self.positions.describe(&mut d);
        d
    }

    /// `quantity,key,fraction,decimal`, the rows of `exact`'s table without the start columns.
    fn table(&self) -> Option<Table> {
        let mut t = Table::new(vec![left("quantity"), left("key"), left("fraction"), right("decimal")]);
        let mut row = |quantity: &str, key: &str, [fraction, decimal]: [String; 2]| {
            t.row(vec![quantity.to_string(), key.to_string(), fraction, decimal]);
        };
        row("win", "", self.win.win.cells());
        if let Some(bits) = self.win.bits {
            row("bits", "", [String::new(), decimal_cell(bits)]);
        }
        for (n, p) in self.pegs_left.iter() {
            row("pegs_left", n, p.cells());
        }
        row("expected_pegs_left", "", self.expected_pegs_left.cells());
        for (hole, p) in self.finish.iter() {
            row("finish", hole, p.cells());
        }
        for (quantity, key, n) in self.positions.rows() {
            row(quantity, &key, Value(Rational::from(&n.0)).cells());
        }
        Some(t)
    }
}

/// A probability per key: its decimal and its fraction.
pub fn distribution(key: &str, values: &Keyed<Value>, style: Style) -> Table {
    let mut t = Table::new(vec![left(key), right("probability"), left("exact")]);
    for (k, p) in values.iter() {
        t.row(vec![k.to_string(), p.decimal(), p.fraction(style)]);
    }
    t
}

/// `count` (or, with `wins_only`, `ends`) from a position.
#[derive(Clone, Debug, Serialize)]
pub struct PositionCountView {
    pub command: &'static str,
    pub board: BoardInfo,
    #[serde(flatten)]
    pub at: At,
    /// Complete games (`count` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<Big>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games_by_pegs_left: Option<Keyed<Big>>,
    pub wins: Big,
    pub wins_by_finish: Keyed<Big>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<PositionsView>,
}

impl PositionCountView {
    /// `count`'s document.
    pub fn count(board: &Board, r: &PositionCount) -> PositionCountView {
        let c = &r.counts;
        PositionCountView {
            command: "count",
            board: BoardInfo::new(board, r.group_order),
            at: At::new(board, r.position),
            games: Some(Big(c.games.clone())),
            games_by_pegs_left: Some(c.games_by_pegs_left.iter().map(|(n, g)| (n, Big(g.clone()))).collect()),
            wins: Big(c.wins_by_finish.values().sum()),
            wins_by_finish: c
                .wins_by_finish
                .iter()
                .map(|(h, n)| (board.hole_name(*h), Big(n.clone())))
                .collect(),
            positions: Some(PositionsView::new(&r.positions)),
        }
    }

    /// `ends`'s document: the winning games by finish hole only.
    pub fn ends(board: &Board, r: &PositionCount) -> PositionCountView {
        PositionCountView {
            command: "ends",
            games: None,
            games_by_pegs_left: None,
            positions: None,
            ..PositionCountView::count(board, r)
        }
    }
}

impl Report for PositionCountView {
    fn document(&self, _: Style) -> Doc {
        let mut d = Doc::default();
        self.at.head(&mut d, &self.board);
        if let (Some(games), Some(by_pegs)) = (&self.games, &self.games_by_pegs_left) {
            d.para(format!(
                "Complete games (distinct move sequences played until no jump is left): {}",
                games.grouped()
            ));
            let by_pegs: Vec<String> = by_pegs.iter().map(|(n, c)| format!("{n}: {}", c.grouped())).collect();
            d.para(format!("By pegs left: {}", by_pegs.join("; ")));
        }
        let mut t = Table::new(vec![left("finish"), right("winning games")]);
        for (h, n) in self.wins_by_finish.iter() {
            t.row(vec![h.to_string(), n.grouped()]);
        }
        t.row(vec!["total".to_string(), self.wins.grouped()]);
        d.para("Winning games (one peg left) by finish hole:");
        d.table(t);
        if let Some(p) = &self.positions {
            p.describe(&mut d);
        }
        d
    }

    /// `quantity,key,count`, the rows of `count`'s table without the start columns.
    fn table(&self) -> Option<Table> {
        let mut t = Table::new(vec![left("quantity"), left("key"), right("count")]);
        let mut row = |quantity: &str, key: &str, n: &Big| {
            t.row(vec![quantity.to_string(), key.to_string(), n.plain()]);
        };
        if let (Some(games), Some(by_pegs)) = (&self.games, &self.games_by_pegs_left) {
            row("games", "", games);
            for (n, c) in by_pegs.iter() {
                row("games_by_pegs_left", n, c);
            }
        }
        row("wins", "", &self.wins);
        for (h, c) in self.wins_by_finish.iter() {
            row("wins_by_finish", h, c);
        }
        if let Some(p) = &self.positions {
            for (quantity, key, n) in p.rows() {
                row(quantity, &key, n);
            }
        }
        Some(t)
    }
}
