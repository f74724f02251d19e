//! `ends`: winning games from each start hole to each finish hole, and the possible finish
//! holes of each start, from the exact engine's path counts.

use super::board::BoardInfo;
use super::count::CountView;
use super::doc::{Doc, Table, left, right};
use super::values::{Big, Keyed};
use super::{Report, Style};
use crate::solitaire::board::Board;
use crate::solitaire::exact::CountReport;
use serde::Serialize;

/// One start: its winning games in all and by finish hole (only holes a win can end in).
#[derive(Clone, Debug, Serialize)]
pub struct EndsStart {
    pub start: String,
    pub class: usize,
    pub holes: Vec<String>,
    pub wins: Big,
    pub wins_by_finish: Keyed<Big>,
}

/// The `ends` document.
#[derive(Clone, Debug, Serialize)]
pub struct EndsView {
    pub command: &'static str,
    pub board: BoardInfo,
    pub starts: Vec<EndsStart>,
    /// Every hole of the board, in order: the columns of the text table.
    #[serde(skip)]
    pub board_holes: Vec<String>,
}

impl EndsView {
    pub fn new(board: &Board, r: &CountReport) -> EndsView {
        let count = CountView::new(board, r);
        let starts = count
            .starts
            .into_iter()
            .map(|s| {
                let wins_by_finish: Keyed<Big> =
                    s.wins_by_finish.0.into_iter().filter(|(_, n)| n.0 != 0).collect();
                let wins = Big(wins_by_finish.iter().map(|(_, n)| &n.0).sum());
                EndsStart { start: s.start, class: s.class, holes: s.holes, wins, wins_by_finish }
            })
            .collect();
        EndsView {
            command: "ends",
            board: count.board,
            starts,
            board_holes: board.holes().iter().map(|h| h.name.clone()).collect(),
        }
    }
}

impl Report for EndsView {
    fn document(&self, _: Style) -> Doc {
        let mut d = Doc::default();
        d.heading(self.board.title());
        d.para(
            "Winning games (one peg left) from each start hole (rows) to each finish hole (columns),\n\
             as exact path counts of the engine; \".\" means none.",
        );
        d.table(self.matrix());
        d.heading("Possible finish holes");
        let mut t = Table::new(vec![left("start"), left("holes"), right("winning games")]);
        for s in &self.starts {
            let holes: Vec<&str> = s.wins_by_finish.iter().map(|(h, _)| h).collect();
            let holes = if holes.is_empty() { "none".to_string() } else { holes.join(" ") };
            t.row(vec![s.start.clone(), holes, s.wins.grouped()]);
        }
        d.table(t);
        d
    }

    /// A row per start and finish hole a win can end in; a start with no win has one row with
    /// no finish and 0 games.
    fn table(&self) -> Option<Table> {
        let mut t =
            Table::new(vec![left("start"), right("class"), left("holes"), left("finish"), right("wins")]);
        for s in &self.starts {
            let mut row = |finish: &str, wins: String| {
                t.row(vec![
                    s.start.clone(),
                    s.class.to_string(),
                    s.holes.join(" "),
                    finish.to_string(),
                    wins,
                ]);
            };
            if s.wins_by_finish.is_empty() {
                row("", "0".into());
            }
            for (finish, n) in s.wins_by_finish.iter() {
                row(finish, n.plain());
            }
        }
        Some(t)
    }
}

impl EndsView {
    /// Starts (rows) by finish holes (columns), with a total per start.
    fn matrix(&self) -> Table {
        let mut columns = vec![left("start")];
        columns.extend(self.board_holes.iter().map(|h| right(h)));
        columns.push(right("total"));
        let mut t = Table::new(columns);
        for s in &self.starts {
            let mut row = vec![s.start.clone()];
            row.extend(
                self.board_holes.iter().map(|h| s.wins_by_finish.get(h).map_or(".".into(), Big::grouped)),
            );
            row.push(s.wins.grouped());
            t.row(row);
        }
        t
    }
}
