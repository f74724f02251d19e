//! A position of a board as a user gives it: jumps played from a start (each checked, the
//! first illegal one named) or the holes holding pegs. Every command that analyses a
//! position (`coach`, `exact`, `count`, `solve`, `ends`) reads it here.

use super::board::Board;
use super::moves::MoveTable;
use super::pegs::Pegs;
use crate::error::Error;
use crate::render::number::quoted;

/// The position after `moves` (comma-separated jumps `FROM-OVER-TO` or `FROM-TO`, hole names
/// as the board names them) played from the full board less `start`; no jumps at all (an
/// empty text) is the start itself. An empty item among jumps is refused, not skipped: a jump
/// left out of a list (`F-C-A,,D-E-F`) is more likely a slip than meant.
pub fn play(board: &Board, start: u8, moves: &str) -> Result<Pegs, Error> {
    let table = MoveTable::new(board);
    let mut pos = board.full().without(start);
    if moves.trim().is_empty() {
        return Ok(pos);
    }
    for (n, text) in moves.split(',').map(str::trim).enumerate() {
        if text.is_empty() {
            return Err(Error::Invalid(format!(
                "jump {} of the jumps played is empty: jumps are separated by single commas",
                n + 1
            )));
        }
        let jump = find_jump(board, text)?;
        let index = table.jumps().iter().position(|j| *j == jump).expect("found among the board's jumps");
        if !table.is_legal(pos, index) {
            let why = if !pos.contains(jump.from) {
                format!("no peg in {}", board.hole_name(jump.from))
            } else if !pos.contains(jump.over) {
                format!("no peg in {} to jump over", board.hole_name(jump.over))
            } else {
                format!("{} is not empty", board.hole_name(jump.to))
            };
            let named = [jump.from, jump.over, jump.to].map(|h| board.hole_name(h)).join("-");
            return Err(Error::Invalid(format!("jump {} ({named}) is not legal here: {why}", n + 1)));
        }
        pos = table.apply(pos, index);
    }
    Ok(pos)
}

/// A jump named `FROM-OVER-TO` or `FROM-TO`.
fn find_jump(board: &Board, text: &str) -> Result<super::board::Jump, Error> {
    let parts: Vec<&str> = text.split('-').collect();
    let bad = || {
        Error::Invalid(format!(
            "{} is not a jump: write FROM-OVER-TO or FROM-TO, such as F-C-A",
            quoted(text)
        ))
    };
    let holes: Vec<u8> = match parts.len() {
        2 | 3 => parts.iter().map(|p| board.find_hole(p)).collect::<Result<_, _>>()?,
        _ => return Err(bad()),
    };
    let (from, to) = (holes[0], *holes.last().expect("two or three holes"));
    // Named by the board's own hole names: the user's text may hold line breaks or padding.
    let named = holes.iter().map(|&h| board.hole_name(h)).collect::<Vec<_>>().join("-");
    board
        .jumps()
        .iter()
        .find(|j| j.from == from && j.to == to && (holes.len() == 2 || j.over == holes[1]))
        .copied()
        .ok_or_else(|| Error::Invalid(format!("{named} is not a jump of board {}", board.name())))
}

/// The pegs named in `text`: hole names separated by commas or spaces, or the board as
/// `show` draws a position (names for pegs, `.` for empty holes). An empty item between
/// commas is refused, as among jumps: a hole left out of a list (`A,,C`) is more likely a
/// slip than meant.
pub fn parse_position(board: &Board, text: &str) -> Result<Pegs, Error> {
    if text.contains(',') && text.split(',').any(|item| item.trim().is_empty()) {
        return Err(Error::Invalid(
            "the position's list has an empty item: holes are separated by single commas".into(),
        ));
    }
    let tokens: Vec<&str> =
        text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
    if tokens.contains(&".") {
        check_drawing(board, &tokens)?;
    }
    let mut pos = Pegs::EMPTY;
    for &token in tokens.iter().filter(|&&t| t != ".") {
        let hole = board.find_hole(token)?;
        if pos.contains(hole) {
            return Err(Error::Invalid(format!("the position names hole {} twice", board.hole_name(hole))));
        }
        pos = pos.with(hole);
    }
    if pos.is_empty() {
        return Err(Error::Invalid("the position has no peg".into()));
    }
    Ok(pos)
}

/// A drawn position (one with a `.`, an empty hole) is the board as `show` draws it: a cell
/// for each hole, in the drawing's order, each the hole's name or `.`. A cell left out, one
/// too many or two names swapped was read as a list of names, the holes not named empty.
fn check_drawing(board: &Board, cells: &[&str]) -> Result<(), Error> {
    let drawn = board.draw_position(board.full());
    let order: Vec<&str> = drawn.split_whitespace().collect();
    if cells.len() != order.len() {
        return Err(Error::Invalid(format!(
            "the drawn position has {} where board {} has {} holes (a name for each peg, `.` for each empty hole, as `show` draws it)",
            crate::render::number::plural(cells.len() as u64, "cell", "cells"),
            board.name(),
            order.len()
        )));
    }
    for (i, (&cell, &hole)) in cells.iter().zip(&order).enumerate() {
        if cell != "." && board.find_hole(cell).ok() != board.find_hole(hole).ok() {
            return Err(Error::Invalid(format!(
                "cell {} of the drawn position is {cell} where board {} has hole {hole} (a name for each peg, `.` for each empty hole, as `show` draws it)",
                i + 1,
                board.name()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;

    #[test]
    fn moves_are_played_and_checked() {
        let b = builtin("triangle5").unwrap();
        let pos = play(&b, 0, "F-C-A, D-E-F").unwrap();
        assert_eq!(b.hole_list(b.full() ^ pos), vec!["C", "D", "E"]);
        assert_eq!(play(&b, 0, "F-A").unwrap(), play(&b, 0, "F-C-A").unwrap());
        let e = play(&b, 0, "F-C-A,F-C-A").unwrap_err().to_string();
        assert_eq!(e, "jump 2 (F-C-A) is not legal here: no peg in F");
        let e = play(&b, 0, "A-B-D").unwrap_err().to_string();
        assert_eq!(e, "jump 1 (A-B-D) is not legal here: no peg in A");
        let e = play(&b, 0, "D-B-A,F-C-A").unwrap_err().to_string();
        assert_eq!(e, "jump 2 (F-C-A) is not legal here: A is not empty");
        assert!(play(&b, 0, "A-B").unwrap_err().to_string().contains("not a jump of board triangle5"));
        assert!(play(&b, 0, "F").unwrap_err().to_string().contains("write FROM-OVER-TO"));
        // Padding and line breaks around hole names are not echoed (an error is one line).
        let e = play(&b, 0, "1\n-\nd4-F").unwrap_err().to_string();
        assert_eq!(e, "A-J-F is not a jump of board triangle5");
        // No jumps is the start; an empty item among jumps is named, not skipped.
        assert_eq!(play(&b, 0, " ").unwrap(), b.full().without(0));
        let e = play(&b, 0, "F-C-A,,D-E-F").unwrap_err().to_string();
        assert_eq!(e, "jump 2 of the jumps played is empty: jumps are separated by single commas");
        assert!(play(&b, 0, "F-C-A,").unwrap_err().to_string().starts_with("jump 2 of"));
    }

    #[test]
    fn positions_are_read_as_lists_or_drawings() {
        let b = builtin("triangle5").unwrap();
        let drawn = b.draw_position(play(&b, 0, "F-C-A").unwrap());
        assert_eq!(parse_position(&b, &drawn).unwrap(), play(&b, 0, "F-C-A").unwrap());
        assert_eq!(parse_position(&b, "A, B").unwrap(), Pegs::single(0).with(1));
        assert!(parse_position(&b, "A,A").is_err());
        assert!(parse_position(&b, "Z9").is_err());
        assert!(parse_position(&b, " . ").is_err());
        assert!(parse_position(&b, "A,,B").unwrap_err().to_string().contains("has an empty item"));
        assert!(parse_position(&b, "A,B,").is_err());
        // A drawing is the board's: no cell missing or added, no two names swapped.
        let swapped = drawn.replacen("B", "#", 1).replacen("A", "B", 1).replacen("#", "A", 1);
        let e = parse_position(&b, &swapped).unwrap_err().to_string();
        assert_eq!(
            e,
            "cell 1 of the drawn position is B where board triangle5 has hole A (a name for each peg, `.` for each empty hole, as `show` draws it)"
        );
        let short = drawn.trim_end().trim_end_matches('O');
        let e = parse_position(&b, short).unwrap_err().to_string();
        assert!(e.starts_with("the drawn position has 14 cells where board triangle5 has 15 holes"), "{e}");
        // One cell is one, not "1 cells".
        let e = parse_position(&b, ".").unwrap_err().to_string();
        assert!(e.starts_with("the drawn position has 1 cell where"), "{e}");
        assert!(parse_position(&b, &format!("{drawn} .")).is_err());
        // Names in any case, as everywhere.
        assert_eq!(parse_position(&b, &drawn.to_lowercase()).unwrap(), play(&b, 0, "F-C-A").unwrap());
    }
}
