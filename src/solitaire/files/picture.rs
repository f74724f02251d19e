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
//!   `finish_count`.
//! - Then the picture: every word is a hole, named by the word, or `o` for a hole named by
//!   the `names` rule (`ooo` is three such holes side by side). A hole sits where its word's first character is. Every line of the
//!   picture is a row (blank lines too); in a row, neighbouring holes are the smallest gap
//!   found anywhere in the picture apart. On a triangular lattice, rows interleave: a hole
//!   sits half that gap to the side of the holes above and below it.
//! - A jump goes over a neighbour into the next hole along any lattice direction.

use super::{BoardFile, Lattice, Puzzle, board_name, build, check_size, fault};
use crate::error::Error;
use crate::solitaire::board::builtin::letters;
use crate::solitaire::board::{Board, Hole};
use crate::solitaire::pegs::Pegs;
use std::collections::BTreeMap;
use std::path::Path;

const OPTIONS: [&str; 9] = [
    "name",
    "description",
    "lattice",
    "numbering",
    "names",
    "empty",
    "finish",
    "finish_count",
    "start_empty",
];

/// One word of the picture: its row, its first character's column, the word.
struct Word<'t> {
    row: i32,
    col: i32,
    line: usize,
    text: &'t str,
}

pub fn parse(path: &Path, text: &str) -> Result<BoardFile, Error> {
    let mut options: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut picture: Vec<(usize, &str)> = Vec::new();
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
                let key = key.trim().to_ascii_lowercase().replace('-', "_");
                if !OPTIONS.contains(&key.as_str()) {
                    return Err(fault(
                        path,
                        format!("line {line}: unknown option {key:?} (known: {})", OPTIONS[..8].join(", ")),
                    ));
                }
                let key = if key == "start_empty" { "empty".to_string() } else { key };
                if options.insert(key.clone(), (line, value.trim().to_string())).is_some() {
                    return Err(fault(path, format!("line {line}: option {key:?} is given twice")));
                }
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
        picture.push((line, raw));
    }
    while picture.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        picture.pop();
    }
    let option = |key: &str| options.get(key).map(|(_, v)| v.as_str());
    let lattice = match option("lattice") {
        None => {
            return Err(fault(
                path,
                "no `lattice:` line (square, square-diagonal or triangular) before the picture",
            ));
        }
        Some(l) => Lattice::parse(l).ok_or_else(|| {
            fault(path, format!("unknown lattice {l:?}; use square, square-diagonal or triangular"))
        })?,
    };
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

    // Number the holes in reading order, from the top or the bottom row.
    let mut order: Vec<usize> = (0..words.len()).collect();
    match option("numbering").map(str::to_ascii_lowercase).as_deref() {
        None | Some("top-down") => {}
        Some("bottom-up") => order.sort_by_key(|&i| (-words[i].row, words[i].col)),
        Some(other) => {
            return Err(fault(path, format!("numbering must be top-down or bottom-up, not {other:?}")));
        }
    }
    let chess = match option("names").map(str::to_ascii_lowercase).as_deref() {
        None | Some("letters") => false,
        Some("chess") => true,
        Some(other) => return Err(fault(path, format!("names must be letters or chess, not {other:?}"))),
    };
    let last_row = words.iter().map(|w| w.row).max().unwrap_or(0);
    let mut holes = Vec::with_capacity(words.len());
    for (index, &i) in order.iter().enumerate() {
        let (x, y) = cells[i];
        let name = match words[i].text {
            "o" if chess => {
                let column = if lattice == Lattice::Triangular { x } else { x / 2 };
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
    let points: Vec<(i32, i32)> = holes.iter().map(|h| (h.x, h.y)).collect();
    let jumps = lattice.jumps(&points);
    let name = board_name(path, option("name"));
    let board = build(path, &name, holes, jumps)?;

    let holes_of = |key: &str| -> Result<Option<Pegs>, Error> {
        let Some((line, value)) = options.get(key) else { return Ok(None) };
        let mut pegs = Pegs::EMPTY;
        for part in value.split(|c: char| c == ',' || c.is_whitespace()).filter(|p| !p.is_empty()) {
            let h = board.find_hole(part).map_err(|_| {
                fault(path, format!("line {line}: {key} names {part:?}, which is not a hole of the board"))
            })?;
            pegs = pegs.with(h);
        }
        Ok(Some(pegs))
    };
    let start = holes_of("empty")?.map(|empty| board.full() & !empty);
    let finish = holes_of("finish")?;
    let finish_count = match options.get("finish_count") {
        None => None,
        Some((line, v)) => {
            Some(v.parse::<u32>().ok().filter(|&k| k >= 1 && k as usize <= board.hole_count()).ok_or_else(
                || fault(path, format!("line {line}: finish_count must be a number of pegs, not {v:?}")),
            )?)
        }
    };
    let puzzle = Puzzle {
        description: option("description").map(str::to_string),
        start,
        finish,
        finish_count,
        ..Puzzle::default()
    };
    Ok(BoardFile { board, puzzle })
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

/// The picture file of a board, as (file name, contents), checked by reading it back.
pub fn render(board: &Board) -> Result<(String, String), Error> {
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
    let back = parse(Path::new(&file_name), &out)?.board;
    let named = |b: &Board| {
        let mut holes: Vec<(String, i32, i32)> =
            b.holes().iter().map(|h| (h.name.clone(), h.x, h.y)).collect();
        holes.sort();
        let mut jumps: Vec<[&str; 3]> =
            b.jumps().iter().map(|j| [b.hole_name(j.from), b.hole_name(j.over), b.hole_name(j.to)]).collect();
        jumps.sort();
        (holes, jumps.iter().map(|j| j.join("-")).collect::<Vec<_>>())
    };
    if named(&back) != named(board) {
        return Err(refuse("a picture cannot hold the board unchanged (export it as seed002)"));
    }
    Ok((file_name, out))
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
            let (_, text) = render(&b).unwrap();
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
        assert!(err("lattice: square\nA B A\n").contains("holes 0 and 2 are both named \"A\""));
        assert!(err("lattice: square\nA B\n").contains("not a usable board: it has no jumps"));
        assert!(
            err("lattice: square\nempty: Z\nA B C\n")
                .contains("line 2: empty names \"Z\", which is not a hole")
        );
        assert!(err("lattice: square\n\n").contains("no picture"));
        let big = format!("lattice: square\n{}\n", vec!["o"; 65].join(" "));
        assert!(err(&big).contains("65 holes, more than the 64 a 64-bit bitboard holds"));
    }
}
