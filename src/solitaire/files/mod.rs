//! Boards (and optionally a puzzle on them) read from and written to files, in two formats:
//!
//! - `seed002`: seed 002's JSON file naming an adjacency CSV (a row per hole, a column per
//!   direction, a cell holding the neighbour's index in that direction) and a layout CSV
//!   of coordinates. A jump goes from a hole to its neighbour in direction d and on to that
//!   neighbour's neighbour in the same direction d.
//! - `picture`: a text picture of the board on a declared lattice, written by hand.
//!
//! Every fault is reported as one line naming the file; nothing here panics on bad input.
//! Exports are checked by reading them back before anything is written, and are written
//! through temporary files, so a failed export leaves no file behind.

mod geometry;
pub mod picture;
pub mod seed002;

use crate::error::Error;
use crate::input::unprintable;
use crate::solitaire::board::{Board, Hole, Jump, Shape, builtin};
use crate::solitaire::pegs::Pegs;
use crate::solitaire::solve::{Method, check_finish_count};
use std::path::Path;
use std::str::FromStr;

/// The puzzle a board file may carry besides the board (seed 002's optional fields).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Puzzle {
    pub description: Option<String>,
    /// Pegs at the start.
    pub start: Option<Pegs>,
    /// Pegs at the end.
    pub finish: Option<Pegs>,
    /// Pegs left at the end, with no jump possible.
    pub finish_count: Option<u32>,
    pub method: Option<Method>,
    /// Seed 002's `"scope": "MULTIPLE"`: every solution rather than one.
    pub all: bool,
}

#[derive(Clone, Debug)]
pub struct BoardFile {
    pub board: Board,
    pub puzzle: Puzzle,
}

/// The file formats `pegchain` reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Seed002,
    Picture,
}

impl FromStr for Format {
    type Err = Error;
    fn from_str(s: &str) -> Result<Format, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "seed002" | "json" => Ok(Format::Seed002),
            "picture" | "txt" => Ok(Format::Picture),
            _ => Err(Error::Invalid(format!("unknown board file format {s:?}; use seed002 or picture"))),
        }
    }
}

/// Reads a board file: JSON (seed 002's format) by its `.json` extension or a leading `{`,
/// otherwise a picture. A `.csv` file is one of seed 002's parts, read through its JSON file.
pub fn load(path: &Path) -> Result<BoardFile, Error> {
    let text = crate::input::read_input(path).map_err(|why| fault(path, why))?;
    let extension = |ext: &str| path.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext));
    if extension("csv") {
        return Err(fault(
            path,
            "a CSV is one part of a seed 002 board, not a board file: give the .json file that names \
             it (\"board\": adjacency CSV, \"layout\": layout CSV), or a picture",
        ));
    }
    let json = extension("json") || text.trim_start().starts_with('{');
    if json { seed002::parse(path, &text) } else { picture::parse(path, &text) }
}

/// `board`, with the puzzle its file carried, as board files in `format`: each file's name
/// and contents, for the caller to write.
pub fn render(board: &Board, puzzle: &Puzzle, format: Format) -> Result<Vec<(String, String)>, Error> {
    match format {
        Format::Seed002 => seed002::render(board, puzzle),
        Format::Picture => Ok(vec![picture::render(board, puzzle)?]),
    }
}

impl Puzzle {
    /// The puzzle as a search reads it: a start with no finish given asks for one peg left,
    /// in any hole (seed 002's files say so by `finish_count: 1`, since a file of theirs with a
    /// start alone finishes in the holes empty at the start).
    pub(crate) fn meant(&self) -> Puzzle {
        let one_peg = self.start.is_some() && self.finish.is_none() && self.finish_count.is_none();
        Puzzle { finish_count: if one_peg { Some(1) } else { self.finish_count }, ..self.clone() }
    }

    /// Whether `back`, read from a file written of this puzzle, asks the same (a description
    /// not given may be written by the exporter).
    pub(crate) fn kept_by(&self, back: &Puzzle) -> bool {
        let description =
            if self.description.is_some() { self.description.clone() } else { back.description.clone() };
        Puzzle { description, ..self.meant() } == back.meant()
    }
}

/// The pegs of a puzzle's list of holes (seed 002's `start` and `finish`, a picture's `empty`
/// and `finish`), each hole listed once: `field` says where the list stands (with its line, in
/// a picture), and each hole comes as the file writes it (`1`, `"A"`), or as the reader's
/// fault at a hole that is not on the board. The one check of both formats' lists.
fn listed(
    path: &Path,
    field: &str,
    holes: impl IntoIterator<Item = Result<(u8, String), Error>>,
) -> Result<Pegs, Error> {
    let mut pegs = Pegs::EMPTY;
    for hole in holes {
        let (hole, written) = hole?;
        if pegs.contains(hole) {
            return Err(fault(path, format!("{field} lists hole {written} twice")));
        }
        pegs = pegs.with(hole);
    }
    Ok(pegs)
}

/// A puzzle's `finish_count`, given as `count` (where it stands, as `field` in `listed`, and
/// its value), checked against the board's `holes` and against the puzzle's `finish`, which
/// must hold that many pegs when the file gives both. The one check of both formats.
fn finish_count(
    path: &Path,
    finish: Option<Pegs>,
    count: Option<(String, i64)>,
    holes: usize,
) -> Result<Option<u32>, Error> {
    let Some((field, k)) = count else { return Ok(None) };
    let k = check_finish_count(k, holes).map_err(|why| fault(path, format!("{field} {why}")))?;
    if let Some(f) = finish
        && f.count() != k
    {
        let pegs = if f.count() == 1 { "peg" } else { "pegs" };
        return Err(fault(path, format!("finish holds {} {pegs} but finish_count says {k}", f.count())));
    }
    Ok(Some(k))
}

/// A fault in a board file, as one line naming the file (a line break in the file's name
/// or in quoted input is escaped).
pub(crate) fn fault(file: &Path, why: impl Into<String>) -> Error {
    let one_line = crate::input::one_line;
    Error::BoardFile { file: one_line(&file.display().to_string()), why: one_line(&why.into()) }
}

/// The board's name: the one given in the file, else the file name without its extension.
fn board_name(path: &Path, given: Option<&str>) -> String {
    given.map(str::to_string).unwrap_or_else(|| {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        stem.strip_suffix(".board").unwrap_or(&stem).to_string()
    })
}

/// The longest hole name, in characters. Names are typed on the command line and drawn in
/// a grid whose every column is as wide as the longest name: 16 fits every notation in use
/// (`a1`, `d4`, `h10`) with room to spare, and keeps drawings and tables narrow.
pub const MAX_NAME_CHARS: usize = 16;

/// The longest board name, in characters (it heads every report).
pub const MAX_BOARD_NAME_CHARS: usize = 64;

/// Builds and checks the board, reporting faults against `path`, each hole called as
/// `hole` calls it: by its number as the file numbers them, or by its place in a picture.
fn build(
    path: &Path,
    name: &str,
    holes: Vec<Hole>,
    jumps: Vec<Jump>,
    hole: &HoleCalled,
) -> Result<Board, Error> {
    check_board_name(path, name)?;
    check_names(path, &holes, hole)?;
    let shape = shape_of(&holes, &jumps);
    Board::new(name, shape, holes, jumps).map_err(|e| match e {
        Error::BadBoard { why, .. } => fault(path, format!("not a usable board: {why}")),
        other => other,
    })
}

/// How a file's faults call hole `i` (in the board's order): "hole 3", "line 2: the hole at
/// column 5".
type HoleCalled<'a> = dyn Fn(usize) -> String + 'a;

/// A name quoted for a one-line message, or its start if it is long: the messages that
/// show it give its length themselves.
fn shown(text: &str) -> String {
    match crate::engine::error::long_text(text) {
        Some((start, _)) => format!("{start:?}..."),
        None => format!("{text:?}"),
    }
}

/// A board name is printable text of at most `MAX_BOARD_NAME_CHARS` characters.
fn check_board_name(path: &Path, name: &str) -> Result<(), Error> {
    let chars = name.chars().count();
    if chars > MAX_BOARD_NAME_CHARS {
        return Err(fault(
            path,
            format!(
                "the board name {} has {chars} characters, more than {MAX_BOARD_NAME_CHARS}",
                shown(name)
            ),
        ));
    }
    if name.is_empty() || name.contains(unprintable) {
        return Err(fault(path, format!("the board name {} must be non-empty printable text", shown(name))));
    }
    Ok(())
}

/// Why a hole name would be read as something else where holes are named: a whole number is a
/// hole's number (`2` is the second hole), and `all` and `random` stand for starts.
fn taken_as_other(name: &str) -> Option<String> {
    let digits = name.strip_prefix('+').unwrap_or(name);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Some("which reads as a hole number; names must not be whole numbers".into());
    }
    let words = [("all", "every start hole"), ("random", "a random start hole")];
    let (_, means) = words.iter().find(|(word, _)| name.eq_ignore_ascii_case(word))?;
    Some(format!("which stands for {means}; names must not be \"all\" or \"random\""))
}

/// Names must be usable on the command line and in a drawing: non-empty, at most
/// `MAX_NAME_CHARS` characters, unique, printable, no spaces, commas, colons or dashes (a
/// jump is written `F-C-A`), not `.` (an empty hole in a drawn position), and not a word
/// that means something else where holes are named (`taken_as_other`). Holes are called
/// as `hole` calls them.
fn check_names(path: &Path, holes: &[Hole], hole: &HoleCalled) -> Result<(), Error> {
    for (i, h) in holes.iter().enumerate() {
        let chars = h.name.chars().count();
        if chars > MAX_NAME_CHARS {
            return Err(fault(
                path,
                format!(
                    "{} has a name of {chars} characters ({}), more than {MAX_NAME_CHARS}",
                    hole(i),
                    shown(&h.name)
                ),
            ));
        }
        let bad = |c: char| c.is_whitespace() || unprintable(c) || c == ',' || c == ':' || c == '-';
        if h.name.is_empty() || h.name == "." || h.name.contains(bad) {
            return Err(fault(
                path,
                format!(
                    "{} has the name {}; names must be non-empty printable text, without spaces, \
                     commas, colons or dashes, and not \".\"",
                    hole(i),
                    shown(&h.name)
                ),
            ));
        }
        if let Some(why) = taken_as_other(&h.name) {
            return Err(fault(path, format!("{} has the name {}, {why}", hole(i), shown(&h.name))));
        }
        if let Some(j) = holes[..i].iter().position(|o| o.name == h.name) {
            return Err(fault(path, format!("{} and {} are both named {:?}", hole(j), hole(i), h.name)));
        }
    }
    Ok(())
}

/// Triangles keep their rank/file notation when a file holds exactly a built-in triangle,
/// its holes named as the built-in names them. A file that names them otherwise (a picture's
/// `names: chess`: `a1` a corner of the base) would have a name it does not use read by the
/// notation as one of its other holes (`a5`, the notation's first hole of the fifth row, is
/// its `a1`).
fn shape_of(holes: &[Hole], jumps: &[Jump]) -> Shape {
    let mut sorted = jumps.to_vec();
    sorted.sort();
    sorted.dedup();
    let same = |t: &Board| {
        t.jumps() == sorted && t.holes().iter().zip(holes).all(|(built, file)| built.name == file.name)
    };
    (4..=10)
        .filter(|rows| rows * (rows + 1) / 2 == holes.len())
        .find(|rows| builtin(&format!("triangle{rows}")).is_ok_and(|t| same(&t)))
        .map_or(Shape::Grid, |rows| Shape::Triangle { rows })
}

/// Fails with a file fault when a board exceeds the bitboard.
fn check_size(path: &Path, holes: usize, what: &str) -> Result<(), Error> {
    if holes > crate::solitaire::board::MAX_HOLES {
        return Err(fault(
            path,
            format!(
                "{what} {holes} holes, more than the {} a 64-bit bitboard holds",
                crate::solitaire::board::MAX_HOLES
            ),
        ));
    }
    Ok(())
}

/// The lattice a board's jumps lie on, read from its drawing coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lattice {
    /// Orthogonal jumps on a square grid.
    Square,
    /// Orthogonal and diagonal jumps on a square grid.
    SquareDiagonal,
    /// Jumps along the three directions of a triangular grid.
    Triangular,
}

impl Lattice {
    /// Steps (dx, dy) between the drawing coordinates of neighbours, counter-clockwise from
    /// "right" with y growing downwards (the order of seed 002's cracker_board.csv).
    pub fn directions(self) -> &'static [(i32, i32)] {
        match self {
            Lattice::Square => &[(2, 0), (0, -1), (-2, 0), (0, 1)],
            Lattice::SquareDiagonal => {
                &[(2, 0), (2, -1), (0, -1), (-2, -1), (-2, 0), (-2, 1), (0, 1), (2, 1)]
            }
            Lattice::Triangular => &[(2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)],
        }
    }

    fn name(self) -> &'static str {
        match self {
            Lattice::Square => "square",
            Lattice::SquareDiagonal => "square-diagonal",
            Lattice::Triangular => "triangular",
        }
    }

    fn parse(s: &str) -> Option<Lattice> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "square" | "orthogonal" => Some(Lattice::Square),
            "square-diagonal" | "diagonal" => Some(Lattice::SquareDiagonal),
            "triangular" | "triangle" | "hexagonal" => Some(Lattice::Triangular),
            _ => None,
        }
    }

    /// The smallest lattice holding every jump step of the board, if any does.
    pub fn of_board(board: &Board) -> Option<Lattice> {
        let holes = board.holes();
        let mut steps = Vec::new();
        for j in board.jumps() {
            let (f, o, t) = (&holes[j.from as usize], &holes[j.over as usize], &holes[j.to as usize]);
            let step = (o.x - f.x, o.y - f.y);
            if step != (t.x - o.x, t.y - o.y) {
                return None;
            }
            steps.push(step);
        }
        [Lattice::Square, Lattice::Triangular, Lattice::SquareDiagonal]
            .into_iter()
            .find(|l| steps.iter().all(|s| l.directions().contains(s)))
    }

    /// Every jump of holes placed at drawing coordinates on this lattice: three
    /// consecutive points along one direction.
    fn jumps(self, points: &[(i32, i32)]) -> Vec<Jump> {
        let at: std::collections::HashMap<(i32, i32), u8> =
            points.iter().enumerate().map(|(i, &p)| (p, i as u8)).collect();
        let mut jumps = Vec::new();
        for (from, &(x, y)) in points.iter().enumerate() {
            for &(dx, dy) in self.directions() {
                if let (Some(&over), Some(&to)) =
                    (at.get(&(x + dx, y + dy)), at.get(&(x + 2 * dx, y + 2 * dy)))
                {
                    jumps.push(Jump { from: from as u8, over, to });
                }
            }
        }
        jumps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_boards_sit_on_their_lattices() {
        for name in crate::solitaire::board::builtin_names() {
            let b = builtin(&name).unwrap();
            let want = if name.starts_with("triangle") { Lattice::Triangular } else { Lattice::Square };
            assert_eq!(Lattice::of_board(&b), Some(want), "{name}");
            let points: Vec<(i32, i32)> = b.holes().iter().map(|h| (h.x, h.y)).collect();
            let mut jumps = want.jumps(&points);
            jumps.sort();
            assert_eq!(jumps, b.jumps(), "{name}");
        }
    }

    #[test]
    fn only_whole_built_in_triangles_get_the_triangle_shape() {
        let t5 = builtin("triangle5").unwrap();
        assert_eq!(shape_of(t5.holes(), t5.jumps()), Shape::Triangle { rows: 5 });
        assert_eq!(shape_of(t5.holes(), &t5.jumps()[1..]), Shape::Grid);
        // Its holes named otherwise (K as `a1`), it is a board of its own names.
        let mut renamed = t5.holes().to_vec();
        renamed[10].name = "a1".into();
        assert_eq!(shape_of(&renamed, t5.jumps()), Shape::Grid);
        let en = builtin("english").unwrap();
        assert_eq!(shape_of(en.holes(), en.jumps()), Shape::Grid);
    }
}
