//! The built-in boards: triangles of 4 to 10 rows, the English cross and the European board.

use super::{Board, Hole, Jump, Shape};
use crate::error::Error;

/// Names accepted by `builtin`, for listings and error messages.
pub fn builtin_names() -> Vec<String> {
    let mut names: Vec<String> = (4..=10).map(|n| format!("triangle{n}")).collect();
    names.extend(["english".to_string(), "european".to_string()]);
    names
}

/// A built-in board by name (`triangle5`, `english`, ...), as [`builtin_name`] finds it.
pub fn builtin(name: &str) -> Result<Board, Error> {
    let unknown = || Error::UnknownBoard { board: name.to_string(), known: builtin_names().join(", ") };
    match builtin_name(name).ok_or_else(unknown)?.as_str() {
        "english" => Ok(cross("english", &ENGLISH)),
        "european" => Ok(cross("european", &EUROPEAN)),
        triangle => Ok(self::triangle(triangle_rows(triangle).ok_or_else(unknown)?)),
    }
}

/// The built-in board's own name (`triangle5`) for `name` as the user may write it: in any
/// case (`Triangle5`, `ENGLISH`), the rows as any number (`triangle05`); `None` for a name
/// of no built-in board.
pub fn builtin_name(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    if let Some(rows) = triangle_rows(&lower) {
        return Some(format!("triangle{rows}"));
    }
    matches!(lower.as_str(), "english" | "european").then_some(lower)
}

/// The rows of the built-in triangle a lower-case name names.
fn triangle_rows(lower: &str) -> Option<usize> {
    let rows = lower.strip_prefix("triangle").and_then(|n| n.parse::<usize>().ok());
    rows.filter(|r| (4..=10).contains(r))
}

/// Spreadsheet-style names: A..Z, then AA, AB, ...
pub fn letters(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap()
}

/// Holes on lattice points; a jump joins three consecutive points along one of `directions`.
fn lattice_jumps(points: &[(i32, i32)], directions: &[(i32, i32)]) -> Vec<Jump> {
    let index = |p: (i32, i32)| points.iter().position(|&q| q == p);
    let mut jumps = Vec::new();
    for (from, &(a, b)) in points.iter().enumerate() {
        for &(da, db) in directions {
            if let (Some(over), Some(to)) = (index((a + da, b + db)), index((a + 2 * da, b + 2 * db))) {
                jumps.push(Jump { from: from as u8, over: over as u8, to: to as u8 });
            }
        }
    }
    jumps
}

/// Rows of 1, 2, ..., `rows` holes; named A.. row by row from the tip.
fn triangle(rows: usize) -> Board {
    let points: Vec<(i32, i32)> = (0..rows as i32).flat_map(|r| (0..=r).map(move |k| (r, k))).collect();
    // Three lines through every hole: along a row, and the two slopes down from the tip.
    let directions = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)];
    let jumps = lattice_jumps(&points, &directions);
    let holes = points
        .iter()
        .enumerate()
        .map(|(i, &(r, k))| Hole { name: letters(i), x: 2 * k + (rows as i32 - 1 - r), y: r })
        .collect();
    Board::new(&format!("triangle{rows}"), Shape::Triangle { rows }, holes, jumps)
        .expect("built-in triangles are valid")
}

/// The English cross: 33 holes, rows of 3, 3, 7, 7, 7, 3, 3.
const ENGLISH: [&str; 7] = ["  ooo  ", "  ooo  ", "ooooooo", "ooooooo", "ooooooo", "  ooo  ", "  ooo  "];
/// The European (French) board: 37 holes, rows of 3, 5, 7, 7, 7, 5, 3.
const EUROPEAN: [&str; 7] = ["  ooo  ", " ooooo ", "ooooooo", "ooooooo", "ooooooo", " ooooo ", "  ooo  "];

/// A board on the square grid with orthogonal jumps; holes are named by column a..g and
/// row 1..7 counted from the bottom, so `d4` is the centre.
fn cross(name: &str, picture: &[&str; 7]) -> Board {
    let mut points = Vec::new();
    // Hole order: row 1 (bottom) first, left to right, like the names.
    for row in 0..7 {
        let line = picture[6 - row].as_bytes();
        for (col, &c) in line.iter().enumerate() {
            if c == b'o' {
                points.push((col as i32, row as i32));
            }
        }
    }
    let jumps = lattice_jumps(&points, &[(0, 1), (0, -1), (1, 0), (-1, 0)]);
    let holes = points
        .iter()
        .map(|&(c, r)| Hole { name: format!("{}{}", (b'a' + c as u8) as char, r + 1), x: 2 * c, y: 6 - r })
        .collect();
    Board::new(name, Shape::Grid, holes, jumps).expect("built-in crosses are valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hole_and_jump_counts_match_the_classic_boards() {
        let t5 = builtin("triangle5").unwrap();
        assert_eq!((t5.hole_count(), t5.jumps().len()), (15, 36));
        let en = builtin("english").unwrap();
        assert_eq!((en.hole_count(), en.jumps().len()), (33, 76));
        let eu = builtin("european").unwrap();
        assert_eq!((eu.hole_count(), eu.jumps().len()), (37, 92));
        assert_eq!(builtin("triangle10").unwrap().hole_count(), 55);
    }

    #[test]
    fn spreadsheet_names_continue_past_z() {
        assert_eq!(letters(0), "A");
        assert_eq!(letters(25), "Z");
        assert_eq!(letters(26), "AA");
        assert_eq!(letters(54), "BC");
    }
}
