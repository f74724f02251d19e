//! Boards in every report: the `board` object of the JSON vocabulary and its header line, and
//! the views of `show` (a board drawn with its hole names) and `boards` (the built-in boards;
//! the files an export wrote).

use super::doc::{Doc, Table, left, right};
use super::number::plural;
use super::{Report, Style};
use crate::solitaire::board::{Board, Jump};
use serde::Serialize;

/// The `board` object: `{"name", "holes", "jumps", "symmetry_order"}`, and `"fixed_holes"`
/// when some holes take part in no jump.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardInfo {
    pub name: String,
    pub holes: usize,
    pub jumps: usize,
    /// The order of the group the tool reduces by: the jumps' automorphisms that fix every
    /// hole in no jump (permuting those would change nothing but cost k! elements).
    pub symmetry_order: usize,
    /// How many holes take part in no jump (every counted symmetry fixes them).
    #[serde(skip_serializing_if = "is_zero")]
    pub fixed_holes: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl BoardInfo {
    /// The board's summary; `symmetry_order` is its symmetry group's order (computed by the
    /// caller, who usually holds the group already).
    pub fn new(board: &Board, symmetry_order: usize) -> BoardInfo {
        BoardInfo {
            name: board.name().to_string(),
            holes: board.hole_count(),
            jumps: board.jumps().len(),
            symmetry_order,
            fixed_holes: board.isolated_holes(),
        }
    }

    /// "Board triangle5 (15 holes, 36 jumps, symmetry group of order 6)": the first line of
    /// every peg-solitaire report.
    /// With holes in no jump: "..., symmetry group of order 6 fixing the 10 holes in no jump)".
    pub fn title(&self) -> String {
        let fixed = match self.fixed_holes {
            0 => String::new(),
            1 => " fixing the hole in no jump".to_string(),
            k => format!(" fixing the {k} holes in no jump"),
        };
        format!(
            "Board {} ({}, {}, symmetry group of order {}{fixed})",
            self.name,
            plural(self.holes as u64, "hole", "holes"),
            plural(self.jumps as u64, "jump", "jumps"),
            self.symmetry_order
        )
    }
}

/// Hole names of hole indices, in the order given.
pub fn names(board: &Board, holes: &[u8]) -> Vec<String> {
    holes.iter().map(|&h| board.hole_name(h).to_string()).collect()
}

/// A jump as `from-over-to` with hole names (`F-C-A`), as seed 003 writes them.
pub fn jump_name(board: &Board, jump: &Jump) -> String {
    format!("{}-{}-{}", board.hole_name(jump.from), board.hole_name(jump.over), board.hole_name(jump.to))
}

/// `show`: the board drawn with its hole names. A drawing is no table: no CSV.
#[derive(Clone, Debug, Serialize)]
pub struct ShowView {
    pub command: &'static str,
    pub board: BoardInfo,
    /// Hole names in the board's order (hole numbers count from 1 in this order).
    pub holes: Vec<String>,
    /// Every jump, `from-over-to`.
    pub jumps: Vec<String>,
    /// The drawing, each hole at its place, showing its name.
    pub drawing: String,
    /// The jumps by the hole the peg leaves, in the board's hole order (the text's table).
    #[serde(skip)]
    jumps_by_hole: Vec<(String, Vec<String>)>,
}

impl ShowView {
    pub fn new(board: &Board, symmetry_order: usize) -> ShowView {
        ShowView {
            command: "show",
            board: BoardInfo::new(board, symmetry_order),
            holes: board.holes().iter().map(|h| h.name.clone()).collect(),
            jumps: board.jumps().iter().map(|j| jump_name(board, j)).collect(),
            drawing: board.draw(|h| board.hole_name(h).to_string()),
            jumps_by_hole: (0..board.hole_count())
                .map(|h| {
                    let from = board.jumps().iter().filter(|j| usize::from(j.from) == h);
                    (board.hole_name(h as u8).to_string(), from.map(|j| jump_name(board, j)).collect())
                })
                .filter(|(_, jumps): &(String, Vec<String>)| !jumps.is_empty())
                .collect(),
        }
    }
}

impl Report for ShowView {
    fn document(&self, _: Style) -> Doc {
        let mut d = Doc::default();
        d.heading(self.board.title());
        d.pre(&self.drawing);
        d.para("Jumps (from-over-to), by the hole the peg leaves:");
        let mut t = Table::new(vec![left("from"), left("jumps")]);
        for (from, jumps) in &self.jumps_by_hole {
            t.row(vec![from.clone(), jumps.join(" ")]);
        }
        d.table(t);
        d
    }

    fn table(&self) -> Option<Table> {
        None
    }
}

/// `boards`: the built-in boards.
#[derive(Clone, Debug, Serialize)]
pub struct BoardsView {
    pub command: &'static str,
    pub boards: Vec<BoardInfo>,
}

impl BoardsView {
    pub fn new(boards: Vec<BoardInfo>) -> BoardsView {
        BoardsView { command: "boards", boards }
    }
}

impl Report for BoardsView {
    fn document(&self, _: Style) -> Doc {
        let mut d = Doc::default();
        d.heading("Built-in boards");
        d.table(self.listing("symmetry order"));
        d
    }

    fn table(&self) -> Option<Table> {
        Some(self.listing("symmetry_order"))
    }
}

impl BoardsView {
    /// A row per board; the last header differs between text and CSV.
    fn listing(&self, symmetry_header: &str) -> Table {
        let mut t = Table::new(vec![left("board"), right("holes"), right("jumps"), right(symmetry_header)]);
        for b in &self.boards {
            t.row(vec![
                b.name.clone(),
                b.holes.to_string(),
                b.jumps.to_string(),
                b.symmetry_order.to_string(),
            ]);
        }
        t
    }
}

/// `boards --export`: the board written and the files that hold it.
#[derive(Clone, Debug, Serialize)]
pub struct ExportView {
    pub command: &'static str,
    pub board: BoardInfo,
    /// The file format: `seed002` or `picture`.
    pub format: String,
    /// The files written, as paths.
    pub files: Vec<String>,
}

impl ExportView {
    pub fn new(board: BoardInfo, format: &str, files: Vec<String>) -> ExportView {
        ExportView { command: "boards", board, format: format.to_string(), files }
    }
}

impl Report for ExportView {
    fn document(&self, _: Style) -> Doc {
        let mut d = Doc::default();
        for file in &self.files {
            d.para(format!("wrote {}", crate::input::printable(file)));
        }
        d
    }

    fn table(&self) -> Option<Table> {
        let mut t = Table::new(vec![left("file")]);
        for file in &self.files {
            t.row(vec![file.clone()]);
        }
        Some(t)
    }
}
