//! pegchain's own board format: a text picture, easy to write by hand.
//!
//! ```text
//! # The 15-hole triangle. Lines starting with # are comments.
//! name: triangle5
//! lattice: triangular
//!     A
//!    B C
//!   D E F
//!  G H I J
//! K L M N O
//! ```
//!
//! - Options (`key: value`) come first: `lattice` (required: `square` for orthogonal jumps,
//!   `square-diagonal` to add diagonal ones, `triangular`), and optionally `name`,
//!   `description`, `numbering` (`top-down`, the default, or `bottom-up`: the order holes
//!   are numbered in, row by row, left to right), `names` (`letters`, the default, or
//!   `chess`: how holes written as `o` are named), and a puzzle: `empty` (holes empty at
//!   the start; the rest hold pegs), `finish` (holes with pegs at the end),
//!   `finish_count`, `method` (`dfs` or `bfs`) and `scope` (`single`, the default, or
//!   `multiple`: every solution), as seed 002's files have them.
//! - Then the picture: every word is a hole, named by the word, or `o` for a hole named by
//!   the `names` rule (`ooo` is three such holes side by side). A hole sits where its word's first character is. Every line of the
//!   picture is a row (blank lines too); in a row, neighbouring holes are the smallest gap
//!   found anywhere in the picture apart. On a triangular lattice, rows interleave: a hole
//!   sits half that gap to the side of the holes above and below it.
//! - A jump goes over a neighbour into the next hole along any lattice direction.

use super::{BoardFile, Lattice, Puzzle, board_name, build, check_size, fault, finish_count, listed};
use crate::error::Error;
use crate::solitaire::board::builtin::letters;
use crate::solitaire::board::{Board, Hole};
use crate::solitaire::pegs::Pegs;
use crate::solitaire::solve::Method;
use std::collections::BTreeMap;
use std::path::Path;

/// The options a picture takes (in any case, `-` for `_`; `start_empty` is `empty` too).
const OPTIONS: [&str; 10] = [
    "name",
    "description",
    "lattice",
    "numbering",
    "names",
    "empty",
    "finish",
    "finish_count",
    "method",
    "scope",
];

/// One word of the picture: its row, its first character's column, the word.
struct Word<'t> {
    row: i32,
    col: i32,
    line: usize,
    text: &'t str,
}

pub fn parse(path: &Path, text: &str) -> Result<BoardFile, Error> {
    let (options, picture) = sections(path, text)?;
    let lattice = lattice(path, &options)?;
    let words: Vec<Word> = picture
        .iter()
        .enumerate()
        .flat_map(|(row, &(line, raw))| {
            words_of(raw).map(move |(col, text)| Word { row: row as i32, col, line, text })
        })
        .collect();
    if words.is_empty() {
        return Err(fault(path, "no picture of the board after the options"));
    }
    check_size(path, words.len(), "the picture has")?;
    let cells = cells(path, &words, lattice)?;
    let order = numbering(path, &options, &words)?;
    let chess = chess_names(path, &options)?;
    let holes = name_holes(path, &words, &cells, &order, lattice == Lattice::Triangular, chess)?;
    let points: Vec<(i32, i32)> = holes.iter().map(|h| (h.x, h.y)).collect();
    let jumps = lattice.jumps(&points);
    let name = board_name(path, options.get("name"));
    // A picture numbers no hole: its faults call each by its place in the picture.
    let place = |i: usize| {
        let word = &words[order[i]];
        format!("the hole at line {}, column {}", word.line, word.col + 1)
    };
    let board = build(path, &name, holes, jumps, &place)?;
    let puzzle = puzzle(path, &options, &board)?;
    Ok(BoardFile { board, puzzle })
}

/// The options before the picture: key -> (line, value).
struct Options(BTreeMap<String, (usize, String)>);

impl Options {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(|(_, v)| v.as_str())
    }

    /// Records `key: value` from line `line`, refusing unknown and repeated keys.
    fn insert(&mut self, path: &Path, line: usize, key: &str, value: &str) -> Result<(), Error> {
        let written = key.trim();
        let mut key = written.to_ascii_lowercase().replace('-', "_");
        if key == "start_empty" {
            key = "empty".into();
        }
        if !OPTIONS.contains(&key.as_str()) {
            return Err(fault(
                path,
                format!("line {line}: unknown option {written:?} (known: {})", OPTIONS.join(", ")),
            ));
        }
        if self.0.insert(key.clone(), (line, value.trim().to_string())).is_some() {
            return Err(fault(path, format!("line {line}: option {key:?} is given twice")));
        }
        Ok(())
    }
}

/// The lines of the picture, each with its line number.
type Picture<'t> = Vec<(usize, &'t str)>;

/// The widest picture row, in characters. A row holds at most 64 holes; 200 columns draw
/// any of them, and keeps the work of placing and drawing a row small.
pub const MAX_ROW_CHARS: usize = 200;

/// The most rows a picture may have (blank ones inside it included), for the same reason.
pub const MAX_PICTURE_ROWS: usize = 200;

/// Fails when picture line `line` is wider than `MAX_ROW_CHARS` or the picture, with this
/// line, has more than `MAX_PICTURE_ROWS` rows.
fn check_row(path: &Path, line: usize, raw: &str, rows: usize) -> Result<(), Error> {
    let chars = raw.trim_end().chars().count();
    if chars > MAX_ROW_CHARS {
        return Err(fault(
            path,
            format!("line {line}: a picture row of {chars} characters, more than {MAX_ROW_CHARS}"),
        ));
    }
    if rows > MAX_PICTURE_ROWS {
        return Err(fault(path, format!("line {line}: the picture has more than {MAX_PICTURE_ROWS} rows")));
    }
    Ok(())
}

/// The options and the picture's lines, without comments, blank lines before the picture,
/// or blank lines after it.
fn sections<'t>(path: &Path, text: &'t str) -> Result<(Options, Picture<'t>), Error> {
    let mut options = Options(BTreeMap::new());
    let mut picture: Picture = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.starts_with('#') {
            continue;
        }
        if picture.is_empty() {
            if trimmed.is_empty() {
                continue;
            }
            if let Some((key, value)) = trimmed.split_once(':') {
                options.insert(path, line, key, value)?;
                continue;
            }
        }
        if raw.contains('\t') {
            return Err(fault(path, format!("line {line} holds a tab; draw the picture with spaces")));
        }
        if raw.contains(':') {
            return Err(fault(
                path,
                format!("line {line}: a ':' inside the picture (options go before it; names have no ':')"),
            ));
        }
        check_row(path, line, raw, picture.len() + 1)?;
        picture.push((line, raw));
    }
    while picture.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        picture.pop();
    }
    Ok((options, picture))
}

fn lattice(path: &Path, options: &Options) -> Result<Lattice, Error> {
    match options.get("lattice") {
        None => {
            Err(fault(path, "no `lattice:` line (square, square-diagonal or triangular) before the picture"))
        }
        Some(l) => Lattice::parse(l).ok_or_else(|| {
            fault(path, format!("unknown lattice {l:?}; use square, square-diagonal or triangular"))
        }),
    }
}

/// The order holes are numbered in: reading order from the top row, or from the bottom.
fn numbering(path: &Path, options: &Options, words: &[Word]) -> Result<Vec<usize>, Error> {
    let mut order: Vec<usize> = (0..words.len()).collect();
    match options.get("numbering").map(str::to_ascii_lowercase).as_deref() {
        None | Some("top-down") => {}
        Some("bottom-up") => order.sort_by_key(|&i| (-words[i].row, words[i].col)),
        Some(other) => {
            return Err(fault(path, format!("numbering must be top-down or bottom-up, not {other:?}")));
        }
    }
    Ok(order)
}

/// Whether holes written `o` take chess names (`a1`) rather than letters.
fn chess_names(path: &Path, options: &Options) -> Result<bool, Error> {
    match options.get("names").map(str::to_ascii_lowercase).as_deref() {
        None | Some("letters") => Ok(false),
        Some("chess") => Ok(true),
        Some(other) => Err(fault(path, format!("names must be letters or chess, not {other:?}"))),
    }
}

/// The holes in numbering order, named by their words (`o`: a letter, or with `chess` a
/// column letter and a row number counted from the bottom; `triangular` columns are one
/// drawing column wide, square ones two).
fn name_holes(
    path: &Path,
    words: &[Word],
    cells: &[(i32, i32)],
    order: &[usize],
    triangular: bool,
    chess: bool,
) -> Result<Vec<Hole>, Error> {
    let last_row = words.iter().map(|w| w.row).max().unwrap_or(0);
    let mut holes = Vec::with_capacity(words.len());
    for (index, &i) in order.iter().enumerate() {
        let (x, y) = cells[i];
        let name = match words[i].text {
            "o" if chess => {
                let column = if triangular { x } else { x / 2 };
                if column >= 26 {
                    return Err(fault(path, "chess names run out of letters past 26 columns"));
                }
                format!("{}{}", (b'a' + column as u8) as char, last_row - words[i].row + 1)
            }
            "o" => letters(index),
            name => name.to_string(),
        };
        holes.push(Hole { name, x, y });
    }
    Ok(holes)
}

/// The puzzle the options set on `board`: `empty`, `finish`, `finish_count` (checked as
/// seed 002's, by `listed` and `finish_count`), `method`, `scope`.
fn puzzle(path: &Path, options: &Options, board: &Board) -> Result<Puzzle, Error> {
    let start = holes_of(path, options, board, "empty")?.map(|empty| board.full() & !empty);
    if start == Some(Pegs::EMPTY) {
        let (line, _) = &options.0["empty"];
        return Err(fault(path, format!("line {line}: empty names every hole, so the start holds no peg")));
    }
    let finish = holes_of(path, options, board, "finish")?;
    let count = match options.0.get("finish_count") {
        None => None,
        Some((line, v)) => Some((
            format!("line {line}: finish_count"),
            v.parse::<i64>().map_err(|_| {
                fault(path, format!("line {line}: finish_count must be a number of pegs, not {v:?}"))
            })?,
        )),
    };
    let finish_count = finish_count(path, finish, count, board.hole_count())?;
    let method = match options.0.get("method") {
        None => None,
        Some((line, v)) => {
            Some(v.parse::<Method>().map_err(|why| fault(path, format!("line {line}: {why}")))?)
        }
    };
    let all = match options.0.get("scope") {
        None => false,
        Some((_, v)) if v.eq_ignore_ascii_case("single") => false,
        Some((_, v)) if v.eq_ignore_ascii_case("multiple") => true,
        Some((line, v)) => {
            return Err(fault(path, format!("line {line}: scope must be single or multiple, not {v:?}")));
        }
    };
    Ok(Puzzle {
        description: options.get("description").map(str::to_string),
        start,
        finish,
        finish_count,
        method,
        all,
    })
}

/// The holes an option names (by the board's names, separated by commas or spaces), each
/// on the board and, by `listed`, once.
fn holes_of(path: &Path, options: &Options, board: &Board, key: &str) -> Result<Option<Pegs>, Error> {
    let Some((line, value)) = options.0.get(key) else { return Ok(None) };
    let holes = value.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()).map(|part| {
        let h = board.find_hole(part).map_err(|_| {
            fault(path, format!("line {line}: {key} names {part:?}, which is not a hole of the board"))
        })?;
        Ok((h, format!("{part:?}")))
    });
    listed(path, &format!("line {line}: {key}"), holes).map(Some)
}

/// The words of a line with the column (in characters) of their first character. A word
/// of several `o`s is that many unnamed holes side by side (`ooo`).
fn words_of(line: &str) -> impl Iterator<Item = (i32, &str)> {
    let mut words = Vec::new();
    let mut start: Option<(i32, usize)> = None;
    fn push<'a>(s: i32, word: &'a str, words: &mut Vec<(i32, &'a str)>) {
        if word.len() > 1 && word.bytes().all(|b| b == b'o') {
            words.extend((0..word.len() as i32).map(|k| (s + k, "o")));
        } else {
            words.push((s, word));
        }
    }
    for (col, (byte, c)) in line.char_indices().enumerate() {
        match (c == ' ', start) {
            (false, None) => start = Some((col as i32, byte)),
            (true, Some((s, b))) => {
                push(s, &line[b..byte], &mut words);
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, b)) = start {
        push(s, &line[b..], &mut words);
    }
    words.into_iter()
}

/// Drawing coordinates of the words: neighbours in a row two columns apart, rows as lines.
fn cells(path: &Path, words: &[Word], lattice: Lattice) -> Result<Vec<(i32, i32)>, Error> {
    let mut gap = i32::MAX;
    for pair in words.windows(2) {
        if pair[0].row == pair[1].row {
            gap = gap.min(pair[1].col - pair[0].col);
        }
    }
    let triangular = lattice == Lattice::Triangular;
    if gap == i32::MAX {
        gap = if triangular { 2 } else { 1 };
    }
    let min_col = words.iter().map(|w| w.col).min().unwrap_or(0);
    let mut parity = None;
    words
        .iter()
        .map(|w| {
            // Twice the offset in units of half a gap: even on the lattice's columns.
            let halves = 2 * (w.col - min_col);
            let off = || {
                let rows = if triangular { ", rows shifted by half that" } else { "" };
                fault(
                    path,
                    format!(
                        "line {}: hole {:?} at column {} is off the {} lattice (neighbours in a row sit \
                         {gap} columns apart{rows})",
                        w.line,
                        w.text,
                        w.col + 1,
                        lattice.name()
                    ),
                )
            };
            if triangular {
                if halves % gap != 0 {
                    return Err(off());
                }
                let x = halves / gap;
                // Rows interleave: x + row has one parity throughout.
                if *parity.get_or_insert((x + w.row) % 2) != (x + w.row) % 2 {
                    return Err(off());
                }
                Ok((x, w.row))
            } else {
                if halves % (2 * gap) != 0 {
                    return Err(off());
                }
                Ok((halves / gap, w.row))
            }
        })
        .collect()
}

/// A file name for a board: its name with anything unusual replaced.
pub fn file_stem(name: &str) -> String {
    let stem: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
    if stem.is_empty() || stem.starts_with('.') { format!("board{stem}") } else { stem }
}

/// The picture file of a board and its puzzle, as (file name, contents), checked by
/// reading it back.
pub fn render(board: &Board, puzzle: &Puzzle) -> Result<(String, String), Error> {
    let file_name = format!("{}.txt", file_stem(board.name()));
    let refuse = |why: &str| Error::Export { path: file_name.clone(), why: why.to_string() };
    let lattice = Lattice::of_board(board)
        .ok_or_else(|| refuse("its jumps do not lie on a square or triangular lattice"))?;
    let holes = board.holes();
    let min_x = holes.iter().map(|h| h.x).min().unwrap_or(0);
    let min_y = holes.iter().map(|h| h.y).min().unwrap_or(0);
    let width = holes.iter().map(|h| h.name.chars().count()).max().unwrap_or(1) as i32;
    // Neighbours in a row (two drawing columns apart) keep a space between their names.
    let column = |x: i32| match lattice {
        Lattice::Triangular => (x - min_x) * ((width + 2) / 2),
        Lattice::Square | Lattice::SquareDiagonal => (x - min_x) / 2 * (width + 1),
    };
    let mut rows: BTreeMap<i32, Vec<(i32, &str)>> = BTreeMap::new();
    for h in holes {
        rows.entry(h.y - min_y).or_default().push((column(h.x), &h.name));
    }
    let reading = |rev: bool| {
        let mut order: Vec<usize> = (0..holes.len()).collect();
        order.sort_by_key(|&i| (if rev { -holes[i].y } else { holes[i].y }, holes[i].x));
        order == (0..holes.len()).collect::<Vec<_>>()
    };
    let numbering = if !reading(false) && reading(true) { "bottom-up" } else { "top-down" };
    let mut out = format!(
        "# {}: {} holes, {} jumps; written by pegchain.\n\
         # Each word is a hole, placed at its first character.\n\
         name: {}\nlattice: {}\nnumbering: {numbering}\n\n",
        board.name(),
        holes.len(),
        board.jumps().len(),
        board.name(),
        lattice.name()
    );
    let names = |pegs: Pegs| pegs.holes().map(|h| board.hole_name(h)).collect::<Vec<_>>().join(",");
    if let Some(description) = &puzzle.description {
        let name_line = out.find("\nname: ").expect("the name line") + 1;
        out.insert_str(name_line, &format!("description: {description}\n"));
    }
    let mut options = Vec::new();
    options.extend(puzzle.start.map(|start| format!("empty: {}", names(board.full() & !start))));
    options.extend(puzzle.finish.map(|finish| format!("finish: {}", names(finish))));
    options.extend(puzzle.finish_count.map(|k| format!("finish_count: {k}")));
    options.extend(puzzle.method.map(|m| format!("method: {m}")));
    if puzzle.all {
        options.push("scope: multiple".to_string());
    }
    if !options.is_empty() {
        let at = out.rfind("\n\n").expect("the blank line before the picture");
        out.insert_str(at + 1, &(options.join("\n") + "\n"));
    }
    let last = rows.keys().max().copied().unwrap_or(0);
    for y in 0..=last {
        let mut line = String::new();
        for (col, name) in rows.get(&y).map(Vec::as_slice).unwrap_or(&[]) {
            while (line.chars().count() as i32) < *col {
                line.push(' ');
            }
            line += name;
        }
        out += &(line + "\n");
    }
    // Read it back: the same holes (by name, in place) and the same jumps.
    // A picture that does not read back (a name such as `ooo` is taken for unnamed holes) is
    // refused as this format's limit, not as a fault of a file the user never wrote.
    let cannot = || refuse("a picture cannot hold the board unchanged (export it as seed002)");
    let back = parse(Path::new(&file_name), &out).map_err(|_| cannot())?;
    if !puzzle.kept_by(&back.puzzle) {
        return Err(refuse("a picture cannot hold the puzzle unchanged (export it as seed002)"));
    }
    let back = back.board;
    if by_name(&back) != by_name(board) {
        return Err(cannot());
    }
    Ok((file_name, out))
}

/// A board's holes (name and place) and jumps (by hole names), sorted: what a file must
/// keep whatever order it numbers the holes in.
fn by_name(b: &Board) -> (Vec<(String, i32, i32)>, Vec<String>) {
    let mut holes: Vec<(String, i32, i32)> = b.holes().iter().map(|h| (h.name.clone(), h.x, h.y)).collect();
    holes.sort();
    let mut jumps: Vec<[&str; 3]> =
        b.jumps().iter().map(|j| [b.hole_name(j.from), b.hole_name(j.over), b.hole_name(j.to)]).collect();
    jumps.sort();
    (holes, jumps.iter().map(|j| j.join("-")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::{Shape, builtin};

    fn load(text: &str) -> Result<BoardFile, Error> {
        parse(Path::new("pic.txt"), text)
    }

    #[test]
    fn a_hand_drawn_triangle_is_the_built_in_one() {
        let f =
            load("lattice: triangular\nname: t5\nempty: A\n    o\n   o o\n  o o o\n o o o o\no o o o o\n")
                .unwrap();
        let t5 = builtin("triangle5").unwrap();
        assert_eq!(f.board.holes(), t5.holes());
        assert_eq!(f.board.jumps(), t5.jumps());
        assert_eq!(f.board.shape(), Shape::Triangle { rows: 5 });
        assert_eq!(f.puzzle.start, Some(Pegs(0x7ffe)));
    }

    #[test]
    fn a_hand_drawn_cross_with_chess_names_is_the_english_board() {
        let rows = ["  ooo  ", "  ooo  ", "ooooooo", "ooooooo", "ooooooo", "  ooo  ", "  ooo  "];
        let text = format!("lattice: square\nnames: chess\nnumbering: bottom-up\n{}\n", rows.join("\n"));
        let f = load(&text).unwrap();
        let en = builtin("english").unwrap();
        assert_eq!(f.board.holes(), en.holes());
        assert_eq!(f.board.jumps(), en.jumps());
    }

    #[test]
    fn pictures_round_trip() {
        for name in ["triangle5", "triangle10", "english", "european"] {
            let b = builtin(name).unwrap();
            let (_, text) = render(&b, &Puzzle::default()).unwrap();
            let back = load(&text).unwrap().board;
            assert_eq!(back.holes(), b.holes(), "{name}");
            assert_eq!(back.jumps(), b.jumps(), "{name}");
        }
    }

    #[test]
    fn faults_name_the_line() {
        let err = |t: &str| load(t).unwrap_err().to_string();
        assert!(err("o o o\n").contains("no `lattice:` line"));
        assert!(err("lattice: hex-ish\no o\n").contains("unknown lattice"));
        assert!(err("lattice: square\ncolour: red\no o\n").contains("line 2: unknown option \"colour\""));
        assert!(
            err("lattice: square\no o  o\n")
                .contains("line 2: hole \"o\" at column 6 is off the square lattice")
        );
        assert!(err("lattice: triangular\nA B\nC D\n").contains("off the triangular lattice"));
        assert!(
            err("lattice: square\nA B A\n").contains(
                "the hole at line 2, column 1 and the hole at line 2, column 5 are both named \"A\""
            )
        );
        assert!(err("lattice: square\nA B\n").contains("not a usable board: it has no jumps"));
        assert!(
            err("lattice: square\nempty: Z\nA B C\n")
                .contains("line 2: empty names \"Z\", which is not a hole")
        );
        assert!(err("lattice: square\n\n").contains("no picture"));
        let big = format!("lattice: square\n{}\n", vec!["o"; 65].join(" "));
        assert!(err(&big).contains("65 holes, more than the 64 a 64-bit bitboard holds"));
    }

    const TRIANGLE: &str = "    A\n   B C\n  D E F\n G H I J\nK L M N O\n";

    /// A picture's puzzle is checked as seed 002's (one check serves both): a `finish` and a
    /// `finish_count` that disagree were accepted, the count silently dropped, and a hole listed
    /// twice was taken once.
    #[test]
    fn a_contradictory_puzzle_is_refused_as_in_seed_002s_files() {
        let refusal = |options: &str| {
            let text = format!("name: t\nlattice: triangular\n{options}{TRIANGLE}");
            parse(Path::new("p.txt"), &text).unwrap_err().to_string()
        };
        assert_eq!(
            refusal("empty: A\nfinish: M\nfinish_count: 2\n"),
            "board file p.txt: finish holds 1 peg but finish_count says 2"
        );
        assert_eq!(
            refusal("finish: A,M\nfinish_count: 3\n"),
            "board file p.txt: finish holds 2 pegs but finish_count says 3"
        );
        assert_eq!(refusal("empty: A A\n"), "board file p.txt: line 3: empty lists hole \"A\" twice");
        assert_eq!(
            refusal("empty: A\nfinish: M,B,M\n"),
            "board file p.txt: line 4: finish lists hole \"M\" twice"
        );
        assert_eq!(
            refusal("finish_count: 0\n"),
            "board file p.txt: line 3: finish_count must be between 1 and 15, not 0"
        );
        assert_eq!(
            refusal("finish_count: 16\n"),
            "board file p.txt: line 3: finish_count must be between 1 and 15, not 16"
        );
        assert_eq!(
            refusal("finish_count: one\n"),
            "board file p.txt: line 3: finish_count must be a number of pegs, not \"one\""
        );
        // A finish that holds finish_count pegs is one puzzle, read as before.
        let text = format!("lattice: triangular\nempty: A\nfinish: M\nfinish_count: 1\n{TRIANGLE}");
        let f = load(&text).unwrap();
        assert_eq!((f.puzzle.finish, f.puzzle.finish_count), (Some(Pegs(1 << 12)), Some(1)));
    }
}
