//! Seed 002's board files: a JSON file naming an adjacency CSV and a layout CSV.
//!
//! ```json
//! { "description": "Standard Cracker Barrel Peg Jump Game",
//!   "board": "cracker_board.csv", "layout": "cracker_layout.csv",
//!   "start": [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13], "scope": "MULTIPLE" }
//! ```
//!
//! - Holes are numbered from 0 in the order of the adjacency CSV's rows, as seed 002's
//!   example `cracker_board.csv` numbers them (its top hole is 0). Files numbered from 1
//!   say so with `"index_base": 1`; this applies to the CSV cells, to `start`/`finish`, and
//!   to the holes the reader's faults name.
//! - Adjacency CSV: a row per hole, a column per direction, a cell the neighbour in that
//!   direction (empty: none). A jump goes from a hole to its neighbour in direction d, over
//!   it, into that neighbour's neighbour in the same direction d.
//! - Layout CSV: a row per hole, `x,y` with any offset and scale, y upwards.
//! - Either CSV may start with a header row (a row without numbers).
//! - Optional: `description`, `start` (holes with pegs), `finish` (holes with pegs at the
//!   end; when both it and `finish_count` are missing, the holes empty at the start),
//!   `finish_count` (or `final_count`, as seed 002's program spells it), `method`
//!   (`DEPTH_FIRST`/`BREADTH_FIRST`), `scope` (`SINGLE`/`MULTIPLE`), and two fields of
//!   pegchain's own: `name` and `names` (hole names; default A, B, ... in row order).
//!   Unknown fields are refused, so a misspelt one is not silently ignored.

use super::geometry::{coordinate_text, from_grid, to_grid};
use super::{BoardFile, Lattice, Puzzle, board_name, build, check_size, fault, finish_count, listed};
use crate::error::Error;
use crate::render::number::plural;
use crate::solitaire::board::builtin::letters;
use crate::solitaire::board::{Board, Hole, Jump};
use crate::solitaire::pegs::Pegs;
use crate::solitaire::solve::Method;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    name: Option<String>,
    description: Option<String>,
    board: String,
    layout: String,
    names: Option<Vec<String>>,
    index_base: Option<i64>,
    start: Option<Vec<i64>>,
    finish: Option<Vec<i64>>,
    #[serde(alias = "final_count")]
    finish_count: Option<i64>,
    method: Option<String>,
    scope: Option<String>,
}

/// Reads the JSON file at `path` (already read as `text`) and the CSV files it names.
pub fn parse(path: &Path, text: &str) -> Result<BoardFile, Error> {
    parse_with(path, text, &crate::input::read_input)
}

/// `parse` with the named files read by `read` (which says why it could not, in words that
/// follow the file's name): lets tests and fuzzers hold every file in memory.
pub fn parse_with(
    path: &Path,
    text: &str,
    read: &dyn Fn(&Path) -> Result<String, String>,
) -> Result<BoardFile, Error> {
    let config: Config = crate::input::json(text).map_err(|why| fault(path, why))?;
    let base = match config.index_base.unwrap_or(0) {
        b @ (0 | 1) => b,
        b => return Err(fault(path, format!("index_base must be 0 or 1, not {b}"))),
    };
    let board = read_board(path, &config, base, read)?;
    let puzzle = read_puzzle(path, config, base, &board)?;
    Ok(BoardFile { board, puzzle })
}

/// The board: holes from the adjacency CSV's rows, named by `names`, placed by the layout
/// CSV; jumps along the adjacency's directions.
fn read_board(
    path: &Path,
    config: &Config,
    base: i64,
    read: &dyn Fn(&Path) -> Result<String, String>,
) -> Result<Board, Error> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let resolve = |f: &str| -> PathBuf { if Path::new(f).is_absolute() { f.into() } else { dir.join(f) } };
    let adjacency_path = resolve(&config.board);
    let (adjacency, blank_after) = read_csv(&adjacency_path, "adjacency CSV", read)?;
    let n = adjacency.len();
    if n == 0 {
        return Err(fault(&adjacency_path, "the adjacency CSV has no rows, so the board has no holes"));
    }
    check_size(&adjacency_path, n, "the adjacency CSV has a row per hole:")?;
    let neighbours = neighbours(&adjacency_path, &adjacency, base, blank_after)?;

    let layout_path = resolve(&config.layout);
    let (layout, _) = read_csv(&layout_path, "layout CSV", read)?;
    let points = points(&layout_path, &layout, n, base)?;
    let grid = to_grid(&points, base).map_err(|why| fault(&layout_path, why))?;

    let names = match &config.names {
        Some(names) if names.len() != n => {
            return Err(fault(
                path,
                format!("names has {} for the {n} holes", plural(names.len() as u64, "entry", "entries")),
            ));
        }
        Some(names) => names.clone(),
        None => (0..n).map(letters).collect(),
    };
    let holes = names.into_iter().zip(&grid).map(|(name, &(x, y))| Hole { name, x, y }).collect();
    let jumps = jumps(&adjacency_path, &neighbours, base)?;
    let name = board_name(path, config.name.as_deref());
    build(path, &name, holes, jumps, &|i| format!("hole {}", i as i64 + base))
}

/// The puzzle fields: start, finish (by default the holes empty at the start), finish
/// count, method and scope.
fn read_puzzle(path: &Path, config: Config, base: i64, board: &Board) -> Result<Puzzle, Error> {
    let n = board.hole_count();
    let start = positions(path, "start", &config.start, base, n)?;
    if start == Some(Pegs::EMPTY) {
        return Err(fault(path, "start is empty: it lists the holes holding pegs at the start"));
    }
    let mut finish = positions(path, "finish", &config.finish, base, n)?;
    let finish_count =
        finish_count(path, finish, config.finish_count.map(|k| ("finish_count".to_string(), k)), n)?;
    if let (Some(s), None, None) = (start, finish, finish_count) {
        // Seed 002: the finish defaults to the holes empty at the start.
        finish = Some(board.full() & !s).filter(|f| !f.is_empty());
    }
    let method =
        config.method.as_deref().map(str::parse::<Method>).transpose().map_err(|e| fault(path, e))?;
    let all = match config.scope.as_deref().map(|s| s.trim().to_ascii_uppercase()) {
        None => false,
        Some(s) if s == "SINGLE" => false,
        Some(s) if s == "MULTIPLE" => true,
        Some(s) => return Err(fault(path, format!("scope must be SINGLE or MULTIPLE, not {s:?}"))),
    };
    Ok(Puzzle { description: config.description, start, finish, finish_count, method, all })
}

/// The holes a puzzle field lists (numbered from `base`), each on the board and, by `listed`,
/// once.
fn positions(
    path: &Path,
    field: &str,
    list: &Option<Vec<i64>>,
    base: i64,
    n: usize,
) -> Result<Option<Pegs>, Error> {
    let Some(list) = list else { return Ok(None) };
    let holes = list.iter().map(|&v| {
        if v < base || v - base >= n as i64 {
            return Err(fault(
                path,
                format!(
                    "{field} names hole {v}, not on the board (holes are {base} to {})",
                    n as i64 - 1 + base
                ),
            ));
        }
        Ok(((v - base) as u8, v.to_string()))
    });
    listed(path, field, holes).map(Some)
}

/// A CSV row: its line number and its cells.
type Row = (u64, Vec<String>);

/// Why a blank line is no row of a board's CSV.
const BLANK_LINE: &str = "every row is a hole, and a hole with no neighbours is a row of empty cells \
                          (\",\", or \"\" in a file of one column)";

/// The CSV's records, with their line numbers, without a header row, and whether a blank
/// line follows the last. `what` names the CSV ("adjacency CSV") for a file that is no CSV at
/// all.
fn read_csv(
    path: &Path,
    what: &str,
    read: &dyn Fn(&Path) -> Result<String, String>,
) -> Result<(Vec<Row>, bool), Error> {
    let text = read(path).map_err(|why| fault(path, why))?;
    // A JSON file (the board's own, named by mistake) reads as one header row and no data.
    if text.trim_start().starts_with('{') {
        return Err(fault(path, format!("named as the {what}, but it holds JSON, not CSV")));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| fault(path, format!("invalid CSV: {e}")))?;
        let line = record.position().map_or(0, |p| p.line());
        rows.push((line, record.iter().map(str::to_string).collect::<Vec<_>>()));
    }
    // The CSV reader skips a blank line, so every row after it would stand for the hole
    // before its own: a blank line between rows is refused, not skipped. Lines are the text's
    // own: the reader numbers a record after blank lines as the first of them.
    let filled = || text.lines().zip(1u64..).filter(|(l, _)| !l.trim().is_empty()).map(|(_, n)| n);
    let (first, last) = (filled().next().unwrap_or(0), filled().last().unwrap_or(0));
    let blank = text.lines().zip(1u64..).find(|(l, n)| (first..last).contains(n) && l.trim().is_empty());
    if let Some((_, line)) = blank {
        return Err(fault(path, format!("line {line} is blank: {BLANK_LINE}")));
    }
    if let Some(row) = rows.first_mut() {
        row.0 = first;
    }
    // A header names its columns: a first row of no numbers but no words either (`1;`) is a
    // faulty row, and was skipped as a header, the fault then reported on the next line.
    let is_header = |cells: &[String]| {
        cells.iter().any(|c| c.chars().any(char::is_alphabetic))
            && cells.iter().all(|c| c.is_empty() || c.parse::<f64>().is_err())
    };
    if rows.first().is_some_and(|(_, cells)| is_header(cells)) {
        rows.remove(0);
    }
    let blank_after = text.lines().skip(last as usize).any(|l| l.trim().is_empty());
    Ok((rows, blank_after))
}

/// Neighbour indices (0-based) per hole and direction. The rows have as many columns as most
/// of them, a direction each: a neighbour past them (a cell added by a slip) would be a
/// direction of one hole alone, and was read as one, its jumps and all.
/// `blank_after`: the file has a blank line after its last row.
fn neighbours(
    path: &Path,
    rows: &[(u64, Vec<String>)],
    base: i64,
    blank_after: bool,
) -> Result<Vec<Vec<Option<usize>>>, Error> {
    let n = rows.len() as i64;
    let mut widths: HashMap<usize, usize> = HashMap::new();
    for (_, cells) in rows {
        *widths.entry(cells.len()).or_default() += 1;
    }
    let width =
        widths.iter().max_by_key(|&(&w, &count)| (count, std::cmp::Reverse(w))).map_or(0, |(&w, _)| w);
    for (line, cells) in rows {
        if let Some(col) = cells.iter().skip(width).position(|c| !c.is_empty()) {
            return Err(fault(
                path,
                format!(
                    "line {line}, column {}: a neighbour past the {width} columns of the other rows (a column is a direction)",
                    width + col + 1
                ),
            ));
        }
    }
    rows.iter()
        .map(|(line, cells)| {
            cells
                .iter()
                .enumerate()
                .map(|(col, cell)| {
                    if cell.is_empty() {
                        return Ok(None);
                    }
                    let at = format!("line {line}, column {}", col + 1);
                    let v = cell
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.fract() == 0.0 && v.abs() < 1e9)
                        .ok_or_else(|| fault(path, format!("{at}: {cell:?} is not a hole number")))?
                        as i64;
                    if v < base || v - base >= n {
                        // A blank last line read as a hole with no neighbours would be this one.
                        let blank_after = blank_after && v - base == n;
                        return Err(fault(
                            path,
                            format!(
                                "{at}: neighbour {v} is out of range (the {n} holes are numbered {base} to {}){}",
                                n - 1 + base,
                                if blank_after { format!("; a blank line after the rows is no row: {BLANK_LINE}") } else { String::new() }
                            ),
                        ));
                    }
                    Ok(Some((v - base) as usize))
                })
                .collect()
        })
        .collect()
}

/// The jumps of an adjacency table: from h over its neighbour o in direction d into o's
/// neighbour in direction d.
fn jumps(path: &Path, neighbours: &[Vec<Option<usize>>], base: i64) -> Result<Vec<Jump>, Error> {
    let mut jumps = Vec::new();
    for (from, row) in neighbours.iter().enumerate() {
        for (d, &over) in row.iter().enumerate() {
            let Some(over) = over else { continue };
            let hole = |h: usize| h as i64 + base;
            if over == from {
                return Err(fault(
                    path,
                    format!("hole {} is its own neighbour in column {}", hole(from), d + 1),
                ));
            }
            let Some(Some(to)) = neighbours[over].get(d).copied() else { continue };
            if to == from {
                return Err(fault(
                    path,
                    format!(
                        "column {} leads from hole {} to {} and straight back, so it is not one direction",
                        d + 1,
                        hole(from),
                        hole(over)
                    ),
                ));
            }
            jumps.push(Jump { from: from as u8, over: over as u8, to: to as u8 });
        }
    }
    Ok(jumps)
}

/// The (x, y) of every hole.
fn points(path: &Path, rows: &[(u64, Vec<String>)], n: usize, base: i64) -> Result<Vec<(f64, f64)>, Error> {
    if rows.len() > n {
        return Err(fault(
            path,
            format!(
                "the layout has {} but the board has {n} holes",
                plural(rows.len() as u64, "row", "rows")
            ),
        ));
    }
    let mut points = Vec::with_capacity(n);
    for i in 0..n {
        let hole = i as i64 + base;
        let Some((line, cells)) = rows.get(i) else {
            return Err(fault(
                path,
                format!(
                    "hole {hole} has no coordinates: the layout has {} for {n} holes",
                    plural(rows.len() as u64, "row", "rows")
                ),
            ));
        };
        let coordinate = |k: usize| -> Result<f64, Error> {
            let cell = cells.get(k).map(String::as_str).unwrap_or("");
            if cell.is_empty() {
                return Err(fault(path, format!("hole {hole} (line {line}) has no coordinates")));
            }
            cell.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| fault(path, format!("line {line}: {cell:?} is not a coordinate")))
        };
        // x and y, and nothing more: a third value is a slip (a row joined to the next, a
        // column shifted), not a coordinate to drop.
        if let Some(extra) = cells.iter().skip(2).find(|c| !c.is_empty()) {
            return Err(fault(
                path,
                format!("line {line}: {extra:?} after x and y (a row of the layout is a hole's x,y)"),
            ));
        }
        points.push((coordinate(0)?, coordinate(1)?));
    }
    Ok(points)
}

/// The three files of a board and its puzzle, as (file name, contents), checked by reading
/// them back.
pub fn render(board: &Board, puzzle: &Puzzle) -> Result<Vec<(String, String)>, Error> {
    let stem = super::picture::file_stem(board.name());
    let refuse = |why: &str| Error::Export { path: format!("{stem}.json"), why: why.to_string() };
    let lattice = Lattice::of_board(board)
        .ok_or_else(|| refuse("its jumps do not lie on a square or triangular lattice"))?;
    let holes = board.holes();
    let at: HashMap<(i32, i32), usize> = holes.iter().enumerate().map(|(i, h)| ((h.x, h.y), i)).collect();
    let mut adjacency = String::new();
    for h in holes {
        let cells: Vec<String> = lattice
            .directions()
            .iter()
            .map(|(dx, dy)| at.get(&(h.x + dx, h.y + dy)).map_or(String::new(), |i| i.to_string()))
            .collect();
        adjacency += &(cells.join(",") + "\n");
    }
    let cells: Vec<(i32, i32)> = holes.iter().map(|h| (h.x, h.y)).collect();
    let layout: String = from_grid(&cells, lattice)
        .iter()
        .map(|&(x, y)| format!("{},{}\n", coordinate_text(x), coordinate_text(y)))
        .collect();
    let (adjacency_name, layout_name) = (format!("{stem}.adjacency.csv"), format!("{stem}.layout.csv"));
    // Written by hand to keep the hole names on one line.
    let quote = |s: &str| serde_json::to_string(s).expect("strings serialize");
    let description =
        puzzle.description.clone().unwrap_or_else(|| format!("{}, written by pegchain", board.name()));
    let mut fields = vec![
        ("description", quote(&description)),
        ("name", quote(board.name())),
        ("board", quote(&adjacency_name)),
        ("layout", quote(&layout_name)),
    ];
    if holes.iter().enumerate().any(|(i, h)| h.name != letters(i)) {
        let names: Vec<String> = holes.iter().map(|h| quote(&h.name)).collect();
        fields.push(("names", format!("[{}]", names.join(", "))));
    }
    // The puzzle, holes numbered from 0; a start alone means one peg left (see `Puzzle::meant`).
    let meant = puzzle.meant();
    let listed =
        |pegs: Pegs| format!("[{}]", pegs.holes().map(|h| h.to_string()).collect::<Vec<_>>().join(", "));
    fields.extend(meant.start.map(|p| ("start", listed(p))));
    fields.extend(meant.finish.map(|p| ("finish", listed(p))));
    fields.extend(meant.finish_count.map(|k| ("finish_count", k.to_string())));
    fields.extend(
        meant
            .method
            .map(|m| ("method", quote(if m == Method::Dfs { "DEPTH_FIRST" } else { "BREADTH_FIRST" }))),
    );
    if meant.all {
        fields.push(("scope", quote("MULTIPLE")));
    }
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("  \"{k}\": {v}")).collect();
    let json_text = format!("{{\n{}\n}}\n", body.join(",\n"));

    // Read the files back from memory: the export must give the same board.
    let files =
        HashMap::from([(adjacency_name.clone(), adjacency.clone()), (layout_name.clone(), layout.clone())]);
    let read = |p: &Path| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        files.get(&name).cloned().ok_or_else(|| "cannot read it: not found".to_string())
    };
    // A file that does not read back is refused as the export's fault, naming the file it
    // would write: not as a fault of a board file the user never wrote.
    let back = parse_with(Path::new(&format!("{stem}.json")), &json_text, &read).map_err(|e| match e {
        Error::BoardFile { why, .. } => refuse(&format!("it does not read back: {why}")),
        other => other,
    })?;
    if !puzzle.kept_by(&back.puzzle) {
        return Err(refuse("this format cannot hold the puzzle unchanged"));
    }
    let back = back.board;
    if back.holes() != board.holes() || back.jumps() != board.jumps() {
        return Err(refuse("this format cannot hold the board unchanged"));
    }
    Ok(vec![(format!("{stem}.json"), json_text), (adjacency_name, adjacency), (layout_name, layout)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;

    fn from_memory(json: &str, files: &[(&str, &str)]) -> Result<BoardFile, Error> {
        let files: HashMap<String, String> =
            files.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let read = |p: &Path| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            files.get(&name).cloned().ok_or_else(|| "cannot read it: not found".to_string())
        };
        parse_with(Path::new("dir/puzzle.json"), json, &read)
    }

    /// Seed 002's 15-hole board written as its README describes it: 0-based neighbours,
    /// six direction columns, no header, floating-point layout with y upwards.
    fn cracker(start: &str) -> Result<BoardFile, Error> {
        let t5 = builtin("triangle5").unwrap();
        let files = render(&t5, &Puzzle::default()).unwrap();
        let json = format!(
            r#"{{"description": "Standard Cracker Barrel Peg Jump Game", "board": "b.csv",
                "layout": "l.csv", "scope": "MULTIPLE", "start": {start}}}"#
        );
        from_memory(&json, &[("b.csv", &files[1].1), ("l.csv", &files[2].1)])
    }

    #[test]
    fn a_seed_002_puzzle_reads_with_its_defaults() {
        let f = cracker("[1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13]").unwrap();
        let corners = Pegs(1 | 1 << 10 | 1 << 14);
        assert_eq!(f.puzzle.start, Some(Pegs(0x7fff) & !corners));
        assert_eq!(f.puzzle.finish, Some(corners), "finish defaults to the holes empty at the start");
        assert!(f.puzzle.all);
        assert_eq!(f.board.name(), "puzzle");
        assert_eq!(f.board.hole_name(0), "A");
    }

    #[test]
    fn the_triangle_adjacency_matches_seed_002s_direction_order() {
        let files = render(&builtin("triangle5").unwrap(), &Puzzle::default()).unwrap();
        // Hole 0 (the tip) has neighbours only down-left (1) and down-right (2).
        assert_eq!(files[1].1.lines().next(), Some(",,,,1,2"));
        assert_eq!(files[1].1.lines().nth(4), Some("5,2,1,3,7,8"));
    }

    #[test]
    fn faults_name_the_file_and_the_place() {
        let err = |r: Result<BoardFile, Error>| r.unwrap_err().to_string();
        assert!(
            err(cracker("[1, 15]")).contains("start names hole 15, not on the board (holes are 0 to 14)")
        );
        assert!(err(cracker("[1, 1]")).contains("start lists hole 1 twice"));
        let e = err(from_memory(
            r#"{"board": "b.csv", "layout": "l.csv"}"#,
            &[("b.csv", "1\n7\n"), ("l.csv", "0,0\n1,0\n")],
        ));
        assert!(
            e.contains(
                "b.csv: line 2, column 1: neighbour 7 is out of range (the 2 holes are numbered 0 to 1)"
            ),
            "{e}"
        );
        let e = err(from_memory(
            r#"{"board": "b.csv", "layout": "l.csv"}"#,
            &[("b.csv", "1,\n2,0\n,1\n"), ("l.csv", "0,0\n1,0\n")],
        ));
        assert!(e.contains("l.csv: hole 2 has no coordinates: the layout has 2 rows for 3 holes"), "{e}");
        let e = err(from_memory(r#"{"board": "b.csv", "layout": "l.csv", "boardd": 1}"#, &[]));
        assert!(e.contains("unknown field `boardd`, expected one of `name`, `description`, `board`,"), "{e}");
        // A value of the wrong kind is named by its field, in words (serde said "invalid type:
        // string \"a\", expected i64 at line 1 column 79"): see `input::json`.
        let faults = [
            (r#""start": ["a"]"#, "`start[0]` must be a whole number, not the string \"a\""),
            (r#""start": [1, 2, 1.5]"#, "`start[2]` must be a whole number, not 1.5"),
            (r#""finish": 3"#, "`finish` must be a list, not 3"),
            (r#""names": "abc""#, "`names` must be a list, not the string \"abc\""),
            (r#""scope": {"a": 1}"#, "`scope` must be a string, not an object"),
            (r#""index_base": "1""#, "`index_base` must be a whole number, not the string \"1\""),
        ];
        for (field, fault) in faults {
            let e = err(from_memory(&format!(r#"{{"board": "b.csv", "layout": "l.csv", {field}}}"#), &[]));
            assert!(e.contains(&format!("dir/puzzle.json: {fault} (line 1, column ")), "{e}");
        }
        let e = err(from_memory(r#"{"layout": "l.csv"}"#, &[]));
        assert!(e.ends_with("puzzle.json: missing field `board` (line 1, column 19)"), "{e}");
        let e = err(from_memory("[]", &[]));
        assert!(
            e.ends_with("puzzle.json: the file must be an object, not a list of 0 items (line 1, column 2)"),
            "{e}"
        );
        let e = err(from_memory(
            r#"{"board": "b.csv", "layout": "l.csv"}"#,
            &[("b.csv", "1,\n,0\n"), ("l.csv", "0,0\n1,0\n")],
        ));
        assert!(e.contains("dir/puzzle.json: not a usable board: it has no jumps"), "{e}");
        let e = err(from_memory(
            r#"{"board": "b.csv", "layout": "l.csv"}"#,
            &[("b.csv", "1\n0\n"), ("l.csv", "0,0\n1,0\n")],
        ));
        assert!(e.contains("column 1 leads from hole 0 to 1 and straight back"), "{e}");
        // A cell more than a row can hold: in the adjacency, a direction of one hole alone (it
        // made a jump A-F-O on the 15-hole board); in the layout, a third value (dropped).
        let files = render(&builtin("triangle5").unwrap(), &Puzzle::default()).unwrap();
        let json = r#"{"board": "b.csv", "layout": "l.csv"}"#;
        let added = files[1].1.replacen(",,,,1,2", ",,,,1,2,5", 1);
        let e = err(from_memory(json, &[("b.csv", &added), ("l.csv", &files[2].1)]));
        assert!(
            e.contains("b.csv: line 1, column 7: a neighbour past the 6 columns of the other rows"),
            "{e}"
        );
        let third = files[2].1.replacen("\n", ",foo\n", 1);
        let e = err(from_memory(json, &[("b.csv", &files[1].1), ("l.csv", &third)]));
        assert!(e.contains("l.csv: line 1: \"foo\" after x and y"), "{e}");
        // Empty cells past them are no values (a spreadsheet's trailing commas).
        let trailing = files[1].1.replace('\n', ",\n");
        let trailing_layout = files[2].1.replace('\n', ",,\n");
        assert!(from_memory(json, &[("b.csv", &trailing), ("l.csv", &trailing_layout)]).is_ok());
    }

    /// The puzzle's checks, one function shared with the picture reader: the same refusals as
    /// before, word for word but for "1 peg".
    #[test]
    fn a_contradictory_puzzle_is_refused() {
        let t5 = builtin("triangle5").unwrap();
        let files = render(&t5, &Puzzle::default()).unwrap();
        let refusal = |fields: &str| {
            let json = format!(r#"{{"board": "b.csv", "layout": "l.csv", {fields}}}"#);
            from_memory(&json, &[("b.csv", &files[1].1), ("l.csv", &files[2].1)]).unwrap_err().to_string()
        };
        assert_eq!(
            refusal(r#""start": [1, 2], "finish": [12], "finish_count": 2"#),
            "board file dir/puzzle.json: finish holds 1 peg but finish_count says 2"
        );
        assert_eq!(
            refusal(r#""finish": [0, 12], "final_count": 3"#),
            "board file dir/puzzle.json: finish holds 2 pegs but finish_count says 3"
        );
        assert_eq!(refusal(r#""start": [1, 2, 1]"#), "board file dir/puzzle.json: start lists hole 1 twice");
        assert_eq!(
            refusal(r#""finish": [13, 13]"#),
            "board file dir/puzzle.json: finish lists hole 13 twice"
        );
        assert_eq!(
            refusal(r#""finish_count": 0"#),
            "board file dir/puzzle.json: finish_count must be between 1 and 15, not 0"
        );
        assert_eq!(
            refusal(r#""finish_count": 16"#),
            "board file dir/puzzle.json: finish_count must be between 1 and 15, not 16"
        );
    }

    /// An export that does not read back is the export's fault, naming the file it would write,
    /// never a board file the user did not write.
    #[test]
    fn an_export_that_does_not_read_back_names_the_export() {
        let t5 = builtin("triangle5").unwrap();
        let puzzle = Puzzle { finish: Some(Pegs(1 << 12)), finish_count: Some(2), ..Puzzle::default() };
        assert_eq!(
            render(&t5, &puzzle).unwrap_err().to_string(),
            "cannot export the board as triangle5.json: it does not read back: finish holds 1 peg but \
             finish_count says 2"
        );
    }

    #[test]
    fn one_based_files_say_so() {
        let json = r#"{"board": "b.csv", "layout": "l.csv", "index_base": 1, "start": [2, 3]}"#;
        let f =
            from_memory(json, &[("b.csv", "x,y\n2,\n3,1\n,2\n"), ("l.csv", "x,y\n0,0\n1,0\n2,0\n")]).unwrap();
        assert_eq!(f.board.jumps(), [Jump { from: 0, over: 1, to: 2 }, Jump { from: 2, over: 1, to: 0 }]);
        assert_eq!(f.puzzle.start, Some(Pegs(0b110)));
        assert_eq!(f.puzzle.finish, Some(Pegs(0b001)));
    }

    /// A fault names a hole as the file numbers it: these named the holes from 0 whatever
    /// index_base said.
    #[test]
    fn one_based_files_are_told_of_their_holes_from_1() {
        let refusal = |names: &str, layout: &str| {
            let json = format!(r#"{{"board": "b.csv", "layout": "l.csv", "index_base": 1{names}}}"#);
            from_memory(&json, &[("b.csv", "2,\n3,1\n,2\n"), ("l.csv", layout)]).unwrap_err().to_string()
        };
        assert_eq!(
            refusal("", "0,0\n1,0\n1,0\n"),
            "board file dir/l.csv: holes 2 and 3 have the same coordinates"
        );
        assert_eq!(
            refusal("", "0,0\n1,0\n1e300,0\n"),
            "board file dir/l.csv: hole 3's coordinates are so large that holes 1 and 2, a millionth of them \
             apart or less, cannot be told apart"
        );
        assert_eq!(
            refusal(r#", "names": ["A", "B", "A"]"#, "0,0\n1,0\n2,0\n"),
            "board file dir/puzzle.json: hole 1 and hole 3 are both named \"A\""
        );
        assert_eq!(
            refusal(r#", "names": ["A", "all", "C"]"#, "0,0\n1,0\n2,0\n"),
            "board file dir/puzzle.json: hole 2 has the name \"all\", which stands for every start hole; \
             names must not be \"all\" or \"random\""
        );
    }
}
