//! Boards: named holes with drawing coordinates, and the jump moves between them.
//!
//! A board knows nothing about pegs; `Pegs` (a bitboard) does. The symmetry group is
//! computed from the jumps (see `symmetry`), never typed in.

pub mod builtin;
pub mod symmetry;

pub use builtin::{builtin, builtin_name, builtin_names};
pub use symmetry::SymmetryGroup;

use crate::error::Error;
use crate::solitaire::pegs::Pegs;

/// Bitboards are `u64`, so a board has at most this many holes.
pub const MAX_HOLES: usize = 64;

/// The most jumps a board may have: move tables, the solver and the coach number a jump in
/// 16 bits. (Jumps come one a hole and direction, so only a board file with thousands of
/// directions has more.)
pub const MAX_JUMPS: usize = u16::MAX as usize;

/// One hole: its name and where it is drawn (column, row on a character grid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hole {
    pub name: String,
    pub x: i32,
    pub y: i32,
}

/// A jump: the peg in `from` jumps over `over` into the empty `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Jump {
    pub from: u8,
    pub over: u8,
    pub to: u8,
}

/// What shape a board has, which decides the extra hole notations it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A triangle with `rows` rows; also accepts seed 000's rank/file notation (`a1` = tip).
    Triangle { rows: usize },
    /// A board on a square grid (English, European, or loaded from a file).
    Grid,
}

#[derive(Clone, Debug)]
pub struct Board {
    name: String,
    shape: Shape,
    holes: Vec<Hole>,
    jumps: Vec<Jump>,
    /// The symmetry group's elements, found once when the board is built (and shared by
    /// clones): a board whose group is beyond the tool's limits is refused there.
    symmetries: std::sync::Arc<[symmetry::Perm]>,
}

impl Board {
    /// Builds a board, checking what every later step relies on.
    pub fn new(name: &str, shape: Shape, holes: Vec<Hole>, jumps: Vec<Jump>) -> Result<Board, Error> {
        let bad = |why: String| Error::BadBoard { board: name.to_string(), why };
        if holes.is_empty() {
            return Err(bad("it has no holes".into()));
        }
        if holes.len() > MAX_HOLES {
            return Err(bad(format!(
                "it has {} holes, more than the {MAX_HOLES} a bitboard holds",
                holes.len()
            )));
        }
        for (i, h) in holes.iter().enumerate() {
            if holes[..i].iter().any(|o| o.name == h.name) {
                return Err(bad(format!("the hole name {:?} is used twice", h.name)));
            }
        }
        if jumps.is_empty() {
            return Err(bad("it has no jumps".into()));
        }
        for j in &jumps {
            let n = holes.len();
            if [j.from, j.over, j.to].iter().any(|&h| h as usize >= n) {
                return Err(bad(format!("a jump names hole {} of {n}", j.from.max(j.over).max(j.to))));
            }
            if j.from == j.over || j.over == j.to || j.from == j.to {
                return Err(bad("a jump uses the same hole twice".into()));
            }
        }
        let mut jumps = jumps;
        jumps.sort();
        jumps.dedup();
        if jumps.len() > MAX_JUMPS {
            return Err(bad(format!(
                "it has {} jumps, more than the {MAX_JUMPS} this tool numbers",
                jumps.len()
            )));
        }
        let symmetries = symmetry::automorphisms(holes.len(), &jumps).map_err(|e| bad(e.to_string()))?;
        Ok(Board { name: name.to_string(), shape, holes, jumps, symmetries: symmetries.into() })
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn shape(&self) -> Shape {
        self.shape
    }
    pub fn holes(&self) -> &[Hole] {
        &self.holes
    }
    pub fn hole_count(&self) -> usize {
        self.holes.len()
    }
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }
    /// The elements of the symmetry group (see `SymmetryGroup::of_board`).
    pub fn symmetries(&self) -> &[symmetry::Perm] {
        &self.symmetries
    }
    /// How many holes take part in no jump: every symmetry fixes them.
    pub fn isolated_holes(&self) -> usize {
        let mut touched = Pegs::EMPTY;
        for j in &self.jumps {
            touched = touched.with(j.from).with(j.over).with(j.to);
        }
        self.holes.len() - touched.count() as usize
    }
    pub fn hole_name(&self, hole: u8) -> &str {
        &self.holes[hole as usize].name
    }
    /// A peg in every hole.
    pub fn full(&self) -> Pegs {
        Pegs::full(self.holes.len())
    }

    /// Finds a hole by name (exact, then ignoring case), by 1-based number, or on a
    /// triangle by rank/file (`a1` is the tip, `b2` the right hole of the second row).
    pub fn find_hole(&self, text: &str) -> Result<u8, Error> {
        let t = text.trim();
        let found = self
            .holes
            .iter()
            .position(|h| h.name == t)
            .or_else(|| self.holes.iter().position(|h| h.name.eq_ignore_ascii_case(t)))
            .or_else(|| t.parse::<usize>().ok().filter(|&n| n >= 1 && n <= self.holes.len()).map(|n| n - 1))
            .or_else(|| self.rank_file(t));
        found.map(|h| h as u8).ok_or_else(|| Error::UnknownHole {
            board: self.name.clone(),
            hole: text.to_string(),
            // Numbers are taken too: a number past the last is told the range.
            holes: format!(
                "{} (or their numbers, 1 to {})",
                self.holes.iter().map(|h| h.name.as_str()).collect::<Vec<_>>().join(" "),
                self.holes.len()
            ),
        })
    }

    fn rank_file(&self, t: &str) -> Option<usize> {
        let Shape::Triangle { rows } = self.shape else { return None };
        let mut chars = t.chars();
        let file = chars.next()?.to_ascii_lowercase();
        let rank: usize = chars.as_str().parse().ok()?;
        if !file.is_ascii_lowercase() || rank == 0 || rank > rows {
            return None;
        }
        let file = (file as u8 - b'a') as usize;
        (file < rank).then(|| (rank - 1) * rank / 2 + file)
    }

    /// Draws the board on a character grid, each hole showing `label(hole)`.
    pub fn draw(&self, label: impl Fn(u8) -> String) -> String {
        self.draw_in_columns(1, label)
    }

    /// `draw` with grid columns at least `min_width` characters wide (wider where a label is).
    fn draw_in_columns(&self, min_width: usize, label: impl Fn(u8) -> String) -> String {
        let labels: Vec<String> = (0..self.holes.len() as u8).map(label).collect();
        let width = labels.iter().map(|l| l.chars().count()).fold(min_width, usize::max);
        let min_x = self.holes.iter().map(|h| h.x).min().unwrap_or(0);
        let min_y = self.holes.iter().map(|h| h.y).min().unwrap_or(0);
        let max_y = self.holes.iter().map(|h| h.y).max().unwrap_or(0);
        let mut lines = Vec::new();
        for y in min_y..=max_y {
            let mut row: Vec<(i32, &str)> = self
                .holes
                .iter()
                .zip(&labels)
                .filter(|(h, _)| h.y == y)
                .map(|(h, l)| (h.x - min_x, l.as_str()))
                .collect();
            row.sort();
            // Counted as it grows: measuring the line at every step would be quadratic.
            let mut line = String::new();
            let mut chars = 0;
            for (x, l) in row {
                // One grid column is `width` characters wide: unit spacing keeps shapes.
                let col = x as usize * width;
                let label = l.chars().count();
                let pad = col.saturating_sub(chars) + width.saturating_sub(label);
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(l);
                chars += pad + label;
            }
            lines.push(line.trim_end().to_string());
        }
        lines.join("\n") + "\n"
    }

    /// Draws a position: peg holes show their names, empty holes a dot. Columns are as wide
    /// as the board's longest name, with its peg or without, so that every position of a game
    /// is drawn on one grid.
    pub fn draw_position(&self, pegs: Pegs) -> String {
        let longest = self.holes.iter().map(|h| h.name.chars().count()).max().unwrap_or(1);
        self.draw_in_columns(longest, |h| {
            if pegs.contains(h) { self.hole_name(h).to_string() } else { ".".into() }
        })
    }

    /// The holes with pegs, by name, in hole order.
    pub fn hole_list(&self, pegs: Pegs) -> Vec<&str> {
        (pegs & self.full()).holes().map(|h| self.hole_name(h)).collect()
    }
}

/// A board of separate straight lines of the given lengths, one a row two apart (holes
/// numbered line by line), with every jump along them both ways: its symmetries reverse any
/// line and swap lines of one length (lines of 3, 3, 3, 3: 384 of them). For tests of groups
/// the built-in boards do not have.
#[cfg(test)]
pub(crate) fn lines(lengths: &[u8]) -> Board {
    let mut holes = Vec::new();
    let mut jumps = Vec::new();
    for (l, &length) in lengths.iter().enumerate() {
        let first = holes.len() as u8;
        holes.extend((0..length).map(|i| Hole {
            name: format!("h{}", usize::from(first + i)),
            x: i32::from(i),
            y: 2 * l as i32,
        }));
        for from in first..first + length.saturating_sub(2) {
            jumps.push(Jump { from, over: from + 1, to: from + 2 });
            jumps.push(Jump { from: from + 2, over: from + 1, to: from });
        }
    }
    Board::new("lines", Shape::Grid, holes, jumps).expect("lines make a board")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every jump of three distinct holes among 64 (249,984 of them) is more than a jump's
    /// 16-bit number holds: refused in one line, before any table is made.
    #[test]
    fn a_board_with_more_jumps_than_16_bits_number_is_refused() {
        let n = 64u8;
        let holes = (0..n).map(|i| Hole { name: format!("h{i}"), x: 2 * i32::from(i), y: 0 }).collect();
        let jumps = (0..n)
            .flat_map(|from| (0..n).flat_map(move |over| (0..n).map(move |to| Jump { from, over, to })))
            .filter(|j| j.from != j.over && j.over != j.to && j.from != j.to)
            .collect();
        let e = Board::new("all", Shape::Grid, holes, jumps).unwrap_err().to_string();
        assert!(e.ends_with("it has 249984 jumps, more than the 65535 this tool numbers"), "{e}");
    }

    /// A line a-b-c whose first hole is named `long`: its positions are drawn on one grid,
    /// whether the long name's peg is there or not (they shifted as it left).
    #[test]
    fn positions_of_a_board_with_names_of_mixed_length_share_a_grid() {
        let names = ["long", "b", "c"];
        let holes = names.iter().zip(0..).map(|(n, x)| Hole { name: n.to_string(), x, y: 0 }).collect();
        let jumps = vec![Jump { from: 0, over: 1, to: 2 }, Jump { from: 2, over: 1, to: 0 }];
        let board = Board::new("line", Shape::Grid, holes, jumps).unwrap();
        let full = board.full();
        assert_eq!(board.draw_position(full), "long   b   c\n");
        assert_eq!(board.draw_position(full.without(0)), "   .   b   c\n");
        assert_eq!(board.draw_position(Pegs::single(2)), "   .   .   c\n");
    }
}
