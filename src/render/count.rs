//! `count`: complete games (distinct move sequences played until no jump is left) by pegs
//! left, winning games by finish hole, and reachable positions, per start hole. Every count
//! is a big integer.

use super::board::{BoardInfo, names};
use super::doc::{Doc, Table, left, right};
use super::exact::class_holes;
use super::values::{Big, DIGITS, Keyed};
use super::{Report, Style};
use crate::render::number::significant_exact;
use crate::solitaire::board::Board;
use crate::solitaire::exact::{CountReport, Positions, StartCount};
use rug::Rational;
use serde::Serialize;

/// Reachable positions of one start: `{"raw", "up_to_symmetry", "by_layer"}`.
#[derive(Clone, Debug, Serialize)]
pub struct PositionsView {
    /// Distinct positions, as a player would see them.
    pub raw: Big,
    /// Distinct positions up to the board's symmetry.
    pub up_to_symmetry: Big,
    /// Every layer (positions with the same number of pegs), most pegs first.
    pub by_layer: Vec<LayerView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LayerView {
    pub pegs: u32,
    pub raw: Big,
    pub up_to_symmetry: Big,
}

impl PositionsView {
    pub fn new(p: &Positions) -> PositionsView {
        PositionsView {
            raw: Big::of(p.raw),
            up_to_symmetry: Big::of(p.up_to_symmetry),
            by_layer: p
                .by_layer
                .iter()
                .map(|&(pegs, raw, sym)| LayerView { pegs, raw: Big::of(raw), up_to_symmetry: Big::of(sym) })
                .collect(),
        }
    }

    /// The text's lines: the totals, then each layer's positions with its classes in brackets.
    pub fn describe(&self, d: &mut Doc) {
        d.para(format!(
            "Reachable positions: {} ({} up to symmetry)",
            self.raw.grouped(),
            self.up_to_symmetry.grouped()
        ));
        let layers: Vec<String> = self
            .by_layer
            .iter()
            .map(|l| format!("{}: {} ({})", l.pegs, l.raw.grouped(), l.up_to_symmetry.grouped()))
            .collect();
        d.para(format!("By pegs on the board, up to symmetry in brackets: {}", layers.join("; ")));
    }

    /// CSV rows (quantity, key, count): the totals under an empty key, then each layer under
    /// its number of pegs.
    pub fn rows(&self) -> Vec<(&'static str, String, &Big)> {
        let mut rows = vec![("positions", String::new(), &self.raw)];
        rows.extend(self.by_layer.iter().map(|l| ("positions", l.pegs.to_string(), &l.raw)));
        rows.push(("positions_up_to_symmetry", String::new(), &self.up_to_symmetry));
        rows.extend(
            self.by_layer.iter().map(|l| ("positions_up_to_symmetry", l.pegs.to_string(), &l.up_to_symmetry)),
        );
        rows
    }
}

/// One start hole, counted.
#[derive(Clone, Debug, Serialize)]
pub struct CountStart {
    pub start: String,
    pub class: usize,
    pub holes: Vec<String>,
    pub games: Big,
    pub games_by_pegs_left: Keyed<Big>,
    pub wins_by_finish: Keyed<Big>,
    pub positions: PositionsView,
}

#[derive(Clone, Debug, Serialize)]
pub struct CountClass {
    pub class: usize,
    pub holes: Vec<String>,
    pub games: Big,
}

/// The `count` document.
#[derive(Clone, Debug, Serialize)]
pub struct CountView {
    pub command: &'static str,
    pub board: BoardInfo,
    pub starts: Vec<CountStart>,
    pub classes: Vec<CountClass>,
}

impl CountView {
    pub fn new(board: &Board, r: &CountReport) -> CountView {
        CountView {
            command: "count",
            board: BoardInfo::new(board, r.group_order),
            starts: r
                .starts
                .iter()
                .map(|s| start_view(board, s, class_holes(board, &r.classes, s.class)))
                .collect(),
            classes: r
                .classes
                .iter()
                .map(|c| CountClass {
                    class: c.class + 1,
                    holes: names(board, &c.holes),
                    games: Big(c.value.clone()),
                })
                .collect(),
        }
    }
}

fn start_view(board: &Board, s: &StartCount, holes: Vec<String>) -> CountStart {
    CountStart {
        start: board.hole_name(s.hole).to_string(),
        class: s.class + 1,
        holes,
        games: Big(s.games.clone()),
        games_by_pegs_left: s.games_by_pegs_left.iter().map(|(n, c)| (n, Big(c.clone()))).collect(),
        wins_by_finish: s.wins_by_finish.iter().map(|(h, c)| (board.hole_name(*h), Big(c.clone()))).collect(),
        positions: PositionsView::new(&s.positions),
    }
}

impl CountStart {
    /// Games that end with one peg.
    pub fn wins(&self) -> Big {
        self.games_by_pegs_left.get("1").cloned().unwrap_or_default()
    }
}

impl Report for CountView {
    fn document(&self, _: Style) -> Doc {
        let mut d = Doc::default();
        d.heading(self.board.title());
        d.para("Complete games are distinct move sequences played until no jump is left.");
        d.table(self.start_table());
        d.heading("Per class");
        let mut t = Table::new(vec![left("class"), left("holes"), right("games")]);
        for c in &self.classes {
            t.row(vec![c.class.to_string(), c.holes.join(" "), c.games.grouped()]);
        }
        d.table(t);
        for s in &self.starts {
            d.heading(format!("Start {}: {}", s.start, s.games.plural("game", "games")));
            let by_pegs: Vec<String> =
                s.games_by_pegs_left.iter().map(|(n, c)| format!("{n}: {}", c.grouped())).collect();
            d.para(format!("By pegs left: {}", by_pegs.join("; ")));
            let wins: Vec<String> =
                s.wins_by_finish.iter().map(|(h, c)| format!("{h} {}", c.grouped())).collect();
            d.para(format!(
                "Wins by finish hole: {}",
                if wins.is_empty() { "none".into() } else { wins.join("; ") }
            ));
            s.positions.describe(&mut d);
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
            right("count"),
        ]);
        let mut row = |start: &str, class: usize, holes: &[String], quantity: &str, key: &str, n: &Big| {
            let cells = [start, &class.to_string(), &holes.join(" "), quantity, key, &n.plain()];
            t.row(cells.map(str::to_string).to_vec());
        };
        for s in &self.starts {
            row(&s.start, s.class, &s.holes, "games", "", &s.games);
            for (n, c) in s.games_by_pegs_left.iter() {
                row(&s.start, s.class, &s.holes, "games_by_pegs_left", n, c);
            }
            for (h, c) in s.wins_by_finish.iter() {
                row(&s.start, s.class, &s.holes, "wins_by_finish", h, c);
            }
            for (quantity, key, n) in s.positions.rows() {
                row(&s.start, s.class, &s.holes, quantity, &key, n);
            }
        }
        for c in &self.classes {
            row("", c.class, &c.holes, "games", "", &c.games);
        }
        Some(t)
    }
}

impl CountView {
    fn start_table(&self) -> Table {
        let mut t = Table::new(vec![
            left("start"),
            right("class"),
            right("games"),
            right("winning games"),
            right("share"),
            right("positions"),
            right("up to symmetry"),
        ]);
        for s in &self.starts {
            let wins = s.wins();
            // Every start has a complete game (one with no jump at all, at least).
            let share = if s.games.0 == 0 {
                "-".into()
            } else {
                significant_exact(&Rational::from((wins.0.clone(), s.games.0.clone())), DIGITS)
            };
            t.row(vec![
                s.start.clone(),
                s.class.to_string(),
                s.games.grouped(),
                wins.grouped(),
                share,
                s.positions.raw.grouped(),
                s.positions.up_to_symmetry.grouped(),
            ]);
        }
        t
    }
}
