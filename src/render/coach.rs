//! `coach`: every legal jump from a position with its exact random-play odds and what
//! perfect play can still do after it.

use super::doc::{Doc, Table, left, right};
use super::number::grouped;
use super::values::{Big, Keyed, Value, Win};
use super::{Report, Style};
use crate::render::board::BoardInfo;
use crate::solitaire::board::Board;
use crate::solitaire::coach::{Advice, JumpAdvice, Odds, Prospects};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct OddsView {
    /// P(one peg left) under random play, with its bits.
    #[serde(flatten)]
    pub win: Win,
    pub expected_pegs_left: Value,
}

impl OddsView {
    fn of(o: &Odds) -> OddsView {
        OddsView { win: Win::of(&o.one_peg), expected_pegs_left: Value::of(&o.expected_pegs_left) }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct ProspectsView {
    /// One peg can still be reached with perfect play.
    pub winnable: bool,
    /// The holes the last peg can still end in.
    pub finish_holes: Vec<String>,
    /// Move sequences that end with one peg.
    pub winning_continuations: Big,
}

impl ProspectsView {
    fn of(board: &Board, p: &Prospects) -> ProspectsView {
        ProspectsView {
            winnable: p.winnable(),
            finish_holes: p.wins_by_hole.iter().map(|(h, _)| board.hole_name(*h).to_string()).collect(),
            winning_continuations: Big(p.winning_continuations()),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct JumpView {
    /// FROM-OVER-TO.
    pub jump: String,
    #[serde(flatten)]
    pub odds: OddsView,
    #[serde(flatten)]
    pub prospects: ProspectsView,
    /// The best jump for a random player.
    pub best: bool,
    /// After this jump one peg can no longer be reached, whatever is played.
    pub hopeless: bool,
}

/// The `coach` document.
#[derive(Clone, Debug, Serialize)]
pub struct CoachView {
    pub command: &'static str,
    pub board: BoardInfo,
    pub policy: String,
    /// The holes holding pegs.
    pub position: Vec<String>,
    #[serde(skip)]
    pub drawing: String,
    pub pegs: u32,
    #[serde(flatten)]
    pub odds: OddsView,
    #[serde(flatten)]
    pub prospects: ProspectsView,
    /// P(n pegs left) under random play from the position.
    pub pegs_left: Keyed<Value>,
    pub jumps: Vec<JumpView>,
    /// Where the exact fractions are, in the caller's words, below an abbreviated table.
    #[serde(skip)]
    pub more: Option<&'static str>,
}

impl CoachView {
    pub fn new(board: &Board, policy: &str, a: &Advice) -> CoachView {
        let jump = |j: &JumpAdvice| {
            [j.from, j.over, j.to].iter().map(|&h| board.hole_name(h)).collect::<Vec<_>>().join("-")
        };
        let jumps = a
            .jumps
            .iter()
            .enumerate()
            .map(|(i, j)| JumpView {
                jump: jump(j),
                odds: OddsView::of(&j.odds),
                prospects: ProspectsView::of(board, &j.prospects),
                best: a.best == Some(i),
                hopeless: !j.prospects.winnable(),
            })
            .collect();
        CoachView {
            command: "coach",
            board: BoardInfo::new(board, a.symmetry_order),
            policy: policy.to_string(),
            position: board.hole_list(a.position).iter().map(|h| h.to_string()).collect(),
            drawing: board.draw_position(a.position),
            pegs: a.position.count(),
            odds: OddsView::of(&a.odds),
            prospects: ProspectsView::of(board, &a.prospects),
            pegs_left: a.pegs_left.iter().map(|(n, p)| (n, Value::of(p))).collect(),
            jumps,
            more: None,
        }
    }
}

impl Report for CoachView {
    fn document(&self, style: Style) -> Doc {
        let mut doc = Doc::default();
        doc.heading(format!(
            "Coach: board {}, {}, {} random play",
            self.board.name,
            crate::render::number::plural(u64::from(self.pegs), "peg", "pegs"),
            self.policy
        ));
        doc.pre(self.drawing.clone());
        let p = &self.prospects;
        // With --full, every exact value of the position as its fraction too (the footer's
        // promise); by default the chance of one peg alone, the headline.
        let full = style.full_fractions;
        let exact = |v: &Value| if full { v.fraction_and_decimal(style) } else { v.decimal() };
        doc.para(format!(
            "Here: P(one peg left) = {}, {} bits; expected pegs left {}; {}",
            self.odds.win.win.fraction_and_decimal(style),
            self.odds.win.bits_text(),
            exact(&self.odds.expected_pegs_left),
            if p.winnable {
                format!(
                    "one peg can still be reached (in {}), by {} winning move {}",
                    p.finish_holes.join(" "),
                    grouped(&p.winning_continuations.0),
                    if p.winning_continuations.0 == 1 { "sequence" } else { "sequences" }
                )
            } else {
                "one peg can no longer be reached".to_string()
            }
        ));
        // The page's chart, in words.
        let shares: Vec<String> = self.pegs_left.iter().map(|(n, p)| format!("{n}: {}", exact(p))).collect();
        doc.para(format!("Pegs left at the end with random play from here: {}", shares.join(", ")));
        if self.jumps.is_empty() {
            doc.para("No jump is left: the game is over.");
            return doc;
        }
        let mut columns = vec![
            left("jump"),
            right("P(one peg)"),
            right("bits"),
            right("E[pegs left]"),
            left("finish holes"),
            right("winning continuations"),
            left("note"),
        ];
        if full {
            columns.extend([left("P(one peg), exact"), left("E[pegs left], exact")]);
        }
        let mut table = Table::new(columns);
        for j in &self.jumps {
            let mark = if j.best {
                "best for a random player"
            } else if j.hopeless {
                "loses all hope"
            } else {
                ""
            };
            let finish =
                if j.prospects.winnable { j.prospects.finish_holes.join(" ") } else { "none".into() };
            let mut row = vec![
                j.jump.clone(),
                j.odds.win.win.decimal(),
                j.odds.win.bits_text(),
                j.odds.expected_pegs_left.decimal(),
                finish,
                j.prospects.winning_continuations.grouped(),
                mark.to_string(),
            ];
            if full {
                row.extend([j.odds.win.win.fraction(style), j.odds.expected_pegs_left.fraction(style)]);
            }
            table.row(row);
        }
        doc.table(table);
        if let Some(more) = self.more.filter(|_| !full) {
            doc.para(more);
        }
        doc
    }

    fn table(&self) -> Option<Table> {
        let mut table = Table::new(vec![
            left("jump"),
            left("win"),
            right("win_decimal"),
            right("bits"),
            left("expected_pegs_left"),
            right("expected_pegs_left_decimal"),
            left("winnable"),
            left("finish_holes"),
            right("winning_continuations"),
            left("best"),
            left("hopeless"),
        ]);
        // The position itself first, its jump empty (a position with no jump was a header
        // alone), then each jump.
        let row = |jump: &str, odds: &OddsView, prospects: &ProspectsView, marks: [String; 2]| {
            let [win, win_decimal] = odds.win.win.cells();
            let [pegs, pegs_decimal] = odds.expected_pegs_left.cells();
            let [best, hopeless] = marks;
            vec![
                jump.to_string(),
                win,
                win_decimal,
                odds.win.bits.map_or(String::new(), crate::render::values::decimal_cell),
                pegs,
                pegs_decimal,
                prospects.winnable.to_string(),
                prospects.finish_holes.join(" "),
                prospects.winning_continuations.plain(),
                best,
                hopeless,
            ]
        };
        table.row(row("", &self.odds, &self.prospects, [String::new(), String::new()]));
        for j in &self.jumps {
            table.row(row(&j.jump, &j.odds, &j.prospects, [j.best.to_string(), j.hopeless.to_string()]));
        }
        Some(table)
    }
}
