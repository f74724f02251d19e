//! `simulate` from a position given by the user (`--position`, or `--start H --moves ...`):
//! the games' tallies beside the position's exact values, with the same estimate, interval,
//! z and chi-square as a simulation from start holes.

use super::estimate::{BoardInfo, EstimateView};
use super::{CSV_COLUMNS, csv_rows, estimate_columns, pegs_left_table};
use crate::render::doc::{Doc, Table, left};
use crate::render::number::plural;
use crate::render::position::At;
use crate::render::{Report, Style};
use crate::solitaire::board::{Board, SymmetryGroup};
use crate::solitaire::estimates::PositionSimReport;
use serde::Serialize;

/// The document of `simulate` from a position.
#[derive(Clone, Debug, Serialize)]
pub struct PositionSimulateView {
    pub command: &'static str,
    pub board: BoardInfo,
    pub policy: &'static str,
    pub seed: u64,
    #[serde(flatten)]
    pub at: At,
    pub overall: EstimateView,
    #[serde(skip)]
    pub policy_words: &'static str,
    /// How to ask for exact values where the engine did not run, in the caller's words.
    #[serde(skip)]
    pub more: Option<&'static str>,
}

impl PositionSimulateView {
    pub fn new(board: &Board, r: &PositionSimReport) -> PositionSimulateView {
        PositionSimulateView {
            command: "simulate",
            board: BoardInfo::new(board, SymmetryGroup::of_board(board).order()),
            policy: r.config.policy.name(),
            seed: r.config.seed,
            at: At::new(board, r.position),
            overall: EstimateView::of(&r.estimate),
            policy_words: r.config.policy.describe(),
            more: None,
        }
    }
}

impl Report for PositionSimulateView {
    fn document(&self, _style: Style) -> Doc {
        let mut d = Doc::default();
        self.at.head(&mut d, &self.board);
        d.para(format!(
            "Simulation: policy {} ({}), seed {}; {} from this position.",
            self.policy,
            self.policy_words,
            self.seed,
            plural(self.overall.win.games, "game", "games")
        ));
        let mut all = Table::new(estimate_columns(&["sample"]));
        all.row([vec!["all games".to_string()], self.overall.win.cells()].concat());
        d.table(all);
        match &self.overall.chi_square {
            Some(chi) => d.para(format!("Pegs left against the exact distribution: {}.", chi.text())),
            None if self.overall.win.compared.exact.is_none() => d.para(format!(
                "No exact values: the exact engine did not run on this board (by default it runs on boards of up to 21 holes{}).",
                self.more.map(|m| format!("; {m}")).unwrap_or_default()
            )),
            None => {}
        }
        d.heading("Pegs left");
        d.table(pegs_left_table(&self.overall));
        if let Some(mean) = &self.overall.mean_pegs_left {
            d.para(mean.mean_pegs_left_text());
        }
        d
    }

    /// The columns of `simulate`'s table, one scope: `position`, with its pegs as the holes.
    fn table(&self) -> Option<Table> {
        let mut t = Table::new(CSV_COLUMNS.iter().map(|c| left(c)).collect());
        csv_rows(&mut t, ["position", "", &self.at.position.join(" ")], &self.overall);
        Some(t)
    }
}
