//! Boards the tool must handle in bounded time and memory, or refuse with one line: holes
//! in no jump (fixed by every symmetry), boards whose symmetry group is too large, and
//! names, rows and drawings beyond their limits.

mod support;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use support::{fails_with, json, pegchain, scratch};

/// Writes a seed 002 board file of `lines` adjacency rows and `layout` rows; returns the
/// JSON file's path.
fn seed002(dir: &Path, name: &str, adjacency: &[String], layout: &[String]) -> PathBuf {
    std::fs::write(dir.join(format!("{name}.adjacency.csv")), adjacency.join("\n") + "\n").unwrap();
    std::fs::write(dir.join(format!("{name}.layout.csv")), layout.join("\n") + "\n").unwrap();
    let json = dir.join(format!("{name}.json"));
    let text =
        format!(r#"{{"name": "{name}", "board": "{name}.adjacency.csv", "layout": "{name}.layout.csv"}}"#);
    std::fs::write(&json, text).unwrap();
    json
}

/// A shipped board's CSV rows, with `k` holes in no jump added at the end.
fn with_isolated_holes(dir: &Path, board: &str, k: usize) -> PathBuf {
    let rows = |suffix: &str| -> Vec<String> {
        let text = std::fs::read_to_string(support::data(&format!("boards/{board}.{suffix}.csv"))).unwrap();
        text.lines().map(str::to_string).collect()
    };
    let (mut adjacency, mut layout) = (rows("adjacency"), rows("layout"));
    for i in 0..k {
        adjacency.push(",,,,,".into());
        layout.push(format!("{},-9", 10 + i));
    }
    seed002(dir, &format!("{board}-isolated"), &adjacency, &layout)
}

/// Runs `args`, which must succeed within a second.
fn quickly(args: &[&str]) -> Value {
    let started = Instant::now();
    let doc = json(args);
    assert!(started.elapsed() < Duration::from_secs(1), "{args:?} took {:?}", started.elapsed());
    doc
}

/// The pegs-left distribution of `start` on `board`, keyed by pegs left plus `shift`.
fn pegs_left(board: &str, start: &str, shift: usize) -> Vec<(usize, Value)> {
    let doc = quickly(&["exact", "--board", board, "--start", start]);
    let left = doc["starts"][0]["pegs_left"].as_object().unwrap().clone();
    left.into_iter().map(|(pegs, p)| (pegs.parse::<usize>().unwrap() + shift, p)).collect()
}

/// The isolated holes keep their pegs: every figure is the board's own with 10 more pegs
/// left, found in well under a second (it took k! steps, 35 s and an abort for k = 10).
#[test]
fn holes_in_no_jump_are_fixed_and_change_nothing_but_the_count() {
    let dir = scratch("isolated-holes");
    let k = 10;
    for (board, starts) in [("triangle4", &["A", "B", "E"][..]), ("triangle5", &["A", "B", "D", "E"])] {
        let file = with_isolated_holes(&dir, board, k).display().to_string();
        let shown = quickly(&["show", "--board", &file]);
        assert_eq!(shown["board"]["symmetry_order"], 6);
        assert_eq!(shown["board"]["fixed_holes"], 10);
        for start in starts {
            assert_eq!(pegs_left(&file, start, 0), pegs_left(board, start, k), "{board} {start}");
        }
    }
    let file = dir.join("triangle4-isolated.json").display().to_string();
    let text =
        String::from_utf8(pegchain().args(["show", "--board", &file]).output().unwrap().stdout).unwrap();
    assert!(text.starts_with(
        "Board triangle4-isolated (20 holes, 18 jumps, symmetry group of order 6 fixing the 10 holes in no jump)"
    ));
}

/// `copies` disjoint lines a-b-c with jumps both ways: a group of order 2^copies * copies!.
fn lines(dir: &Path, copies: usize) -> PathBuf {
    let mut adjacency = Vec::new();
    let mut layout = Vec::new();
    for c in 0..copies {
        let a = 3 * c;
        adjacency.push(format!("{},", a + 1));
        adjacency.push(format!("{},{}", a + 2, a));
        adjacency.push(format!(",{}", a + 1));
        for x in 0..3 {
            layout.push(format!("{x},{}", 2 * c));
        }
    }
    seed002(dir, &format!("lines{copies}"), &adjacency, &layout)
}

#[test]
fn a_board_with_a_huge_symmetry_group_is_refused_at_once() {
    let dir = scratch("huge-group");
    let small = lines(&dir, 4).display().to_string();
    assert_eq!(quickly(&["show", "--board", &small])["board"]["symmetry_order"], 384);
    for copies in [6, 21] {
        let file = lines(&dir, copies).display().to_string();
        let started = Instant::now();
        fails_with(
            &["show", "--board", &file],
            &format!(
                "board file {file}: not a usable board: its symmetry group has more than 1000 elements, the \
                 most this tool supports"
            ),
        );
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    }
}

/// A shipped triangle5 seed 002 file with `names` given: the JSON file's path.
fn triangle5_named(dir: &Path, file: &str, names: &[String]) -> PathBuf {
    let boards = support::data("boards");
    let names: Vec<String> = names.iter().map(|n| serde_json::to_string(n).unwrap()).collect();
    let text = format!(
        r#"{{"board": "{0}/triangle5.adjacency.csv", "layout": "{0}/triangle5.layout.csv", "names": [{1}]}}"#,
        boards.display(),
        names.join(", ")
    );
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    path
}

/// A 65,535-character name panicked (`Formatting argument out of range`); names longer than
/// 16 characters are refused when the file is read, as are control characters.
#[test]
fn long_and_unprintable_names_are_refused() {
    let dir = scratch("long-names");
    let mut names: Vec<String> = (0..15).map(|i| format!("h{i}")).collect();
    names[3] = "x".repeat(16);
    let fine = triangle5_named(&dir, "fine.json", &names).display().to_string();
    assert_eq!(quickly(&["show", "--board", &fine])["board"]["holes"], 15);
    let (whole, start) = (format!("{:?}", "x".repeat(21)), format!("{:?}...", "x".repeat(40)));
    for (long, shown) in [(21, whole), (70_000, start)] {
        names[3] = "x".repeat(long);
        let f = triangle5_named(&dir, "long.json", &names).display().to_string();
        fails_with(
            &["show", "--board", &f],
            &format!("board file {f}: hole 3 has a name of {long} characters ({shown}), more than 16"),
        );
    }
    names[3] = "a\u{7}".into();
    let f = triangle5_named(&dir, "bell.json", &names).display().to_string();
    fails_with(
        &["show", "--board", &f],
        "hole 3 has the name \"a\\u{7}\"; names must be non-empty printable text",
    );
    // A name the tool's own notation cannot give back: `.` is an empty hole in a drawn
    // position, and a dash separates the holes of a jump (`d-b-a-b` was printed, then refused).
    for (name, file) in [(".", "dot.json"), ("a-b", "dash.json")] {
        names[3] = name.into();
        let f = triangle5_named(&dir, file, &names).display().to_string();
        fails_with(
            &["show", "--board", &f],
            &format!(
                "hole 3 has the name {name:?}; names must be non-empty printable text, without spaces, commas, colons or dashes, and not \".\""
            ),
        );
    }
    let f = dir.join("dotted.txt");
    std::fs::write(&f, "lattice: square\n. B C\n").unwrap();
    let f = f.display().to_string();
    fails_with(&["show", "--board", &f], "has the name \".\"");
    let f = dir.join("named.txt");
    std::fs::write(&f, format!("name: {}\nlattice: square\na b c\n", "n".repeat(100))).unwrap();
    let f = f.display().to_string();
    fails_with(
        &["show", "--board", &f],
        &format!("the board name \"{}\"... has 100 characters, more than 64", "n".repeat(40)),
    );
    // Format characters are invisible, and a right-to-left override reorders what follows it:
    // a name holding one is not the name it shows, for a hole or for the board.
    names[3] = "a\u{202e}b".into();
    let f = triangle5_named(&dir, "bidi.json", &names).display().to_string();
    fails_with(
        &["show", "--board", &f],
        "hole 3 has the name \"a\\u{202e}b\"; names must be non-empty printable text",
    );
    let f = dir.join("bidi.txt");
    std::fs::write(&f, "name: t\u{200b}5\nlattice: square\na b c\n").unwrap();
    let f = f.display().to_string();
    fails_with(&["show", "--board", &f], "the board name \"t\\u{200b}5\" must be non-empty printable text");
}

/// A hole named as a whole number hid the hole of that number (`--start 2` took the hole
/// named "2", not the second hole), and one named `all` or `random` could not be named at all
/// where those words stand for starts: both are refused when the file is read.
#[test]
fn names_that_read_as_numbers_or_start_words_are_refused() {
    let dir = scratch("number-names");
    let mut names: Vec<String> = (0..15).map(|i| format!("h{i}")).collect();
    for number in ["2", "15", "007", "+1", "9999999999999999"] {
        names[14] = number.into();
        let f = triangle5_named(&dir, "number.json", &names).display().to_string();
        fails_with(
            &["solve", "--board", &f, "--start", "2"],
            &format!(
                "board file {f}: hole 14 has the name {number:?}, which reads as a hole number; names must not be whole numbers"
            ),
        );
    }
    for (word, means) in [("all", "every start hole"), ("Random", "a random start hole")] {
        names[14] = word.into();
        let f = triangle5_named(&dir, "word.json", &names).display().to_string();
        fails_with(
            &["show", "--board", &f],
            &format!(
                "hole 14 has the name {word:?}, which stands for {means}; names must not be \"all\" or \"random\""
            ),
        );
    }
    // A picture's words are its names: the same rule.
    let f = dir.join("numbers.txt");
    std::fs::write(&f, "lattice: square\nx 1 y\n").unwrap();
    let f = f.display().to_string();
    fails_with(
        &["show", "--board", &f],
        "the hole at line 2, column 3 has the name \"1\", which reads as a hole number",
    );
    // Names that merely hold digits or those words are names like any other.
    names[14] = "all2".into();
    names[13] = "h2random".into();
    let f = triangle5_named(&dir, "fine.json", &names).display().to_string();
    assert_eq!(json(&["exact", "--board", &f, "--start", "all2"])["starts"][0]["start"], "all2");
}

/// A 4 KB picture with one 4,000-character row made `show` run for over 100 s; rows are at
/// most 200 characters and pictures at most 200 rows, refused naming the line.
#[test]
fn wide_and_tall_pictures_are_refused_naming_the_line() {
    let dir = scratch("wide-pictures");
    let wide = dir.join("wide.txt");
    std::fs::write(&wide, format!("lattice: square\na b c\n{}x\n", " ".repeat(3999))).unwrap();
    let f = wide.display().to_string();
    fails_with(
        &["show", "--board", &f],
        &format!("board file {f}: line 3: a picture row of 4000 characters, more than 200"),
    );
    let widest = dir.join("widest.txt");
    std::fs::write(&widest, format!("lattice: square\na b c\n{}x\n", " ".repeat(198))).unwrap();
    let f = widest.display().to_string();
    assert_eq!(quickly(&["show", "--board", &f])["board"]["holes"], 4);
    let tall = dir.join("tall.txt");
    std::fs::write(&tall, format!("lattice: square\na b c\n{}x\n", "\n".repeat(250))).unwrap();
    let f = tall.display().to_string();
    fails_with(
        &["show", "--board", &f],
        &format!("board file {f}: line 202: the picture has more than 200 rows"),
    );
}
