//! An independent replay of solutions, sharing no code with the library: the legal jumps
//! of the 15-hole triangle and of the English cross are built here from hole names and
//! coordinates, and a solution is played peg by peg on a set of hole names.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};

/// A board for replaying: its hole names and its legal (from, over, to) triples.
pub struct Model {
    pub holes: Vec<String>,
    pub jumps: HashSet<(String, String, String)>,
}

/// Row/column of every hole of a triangle named A, B, ... row by row from the tip.
pub fn triangle(rows: i32) -> Model {
    let mut cells = Vec::new();
    for r in 0..rows {
        for c in 0..=r {
            cells.push((r, c));
        }
    }
    let name = |i: usize| ((b'A' + i as u8) as char).to_string();
    let holes: Vec<String> = (0..cells.len()).map(name).collect();
    let at = |p: (i32, i32)| cells.iter().position(|&q| q == p);
    let mut jumps = HashSet::new();
    for (i, &(r, c)) in cells.iter().enumerate() {
        // The three lines of a triangle: along a row, and the two slopes from the tip.
        for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)] {
            if let (Some(o), Some(t)) = (at((r + dr, c + dc)), at((r + 2 * dr, c + 2 * dc))) {
                jumps.insert((name(i), name(o), name(t)));
            }
        }
    }
    Model { holes, jumps }
}

/// The English cross: columns a..g, rows 1..7, holes where column or row is in the middle
/// three; jumps along rows and columns.
pub fn english() -> Model {
    let inside = |c: i32, r: i32| {
        (0..7).contains(&c) && (0..7).contains(&r) && ((2..5).contains(&c) || (2..5).contains(&r))
    };
    let name = |c: i32, r: i32| format!("{}{}", (b'a' + c as u8) as char, r + 1);
    let mut holes = Vec::new();
    let mut jumps = HashSet::new();
    for c in 0..7 {
        for r in 0..7 {
            if !inside(c, r) {
                continue;
            }
            holes.push(name(c, r));
            for (dc, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                if inside(c + dc, r + dr) && inside(c + 2 * dc, r + 2 * dr) {
                    jumps.insert((name(c, r), name(c + dc, r + dr), name(c + 2 * dc, r + 2 * dr)));
                }
            }
        }
    }
    Model { holes, jumps }
}

impl Model {
    /// Every hole but `empty`.
    pub fn start(&self, empty: &str) -> BTreeSet<String> {
        self.holes.iter().filter(|h| *h != empty).cloned().collect()
    }

    /// Plays `jumps` ("F-C-A") from `pegs`, checking each is a jump of the board with pegs
    /// in `from` and `over` and `to` empty; returns the pegs left.
    pub fn replay(&self, mut pegs: BTreeSet<String>, jumps: &[String]) -> Result<BTreeSet<String>, String> {
        for (i, j) in jumps.iter().enumerate() {
            let parts: Vec<&str> = j.split('-').collect();
            let [f, o, t] = parts[..] else { return Err(format!("jump {i} {j:?} is not from-over-to")) };
            if !self.jumps.contains(&(f.into(), o.into(), t.into())) {
                return Err(format!("jump {} {j} is not a jump of the board", i + 1));
            }
            if !pegs.contains(f) || !pegs.contains(o) || pegs.contains(t) {
                return Err(format!("jump {} {j} is illegal in {pegs:?}", i + 1));
            }
            pegs.remove(f);
            pegs.remove(o);
            pegs.insert(t.to_string());
        }
        Ok(pegs)
    }

    /// Whether any jump is possible.
    pub fn can_jump(&self, pegs: &BTreeSet<String>) -> bool {
        self.jumps.iter().any(|(f, o, t)| pegs.contains(f) && pegs.contains(o) && !pegs.contains(t))
    }
}
