//! Board files: the shipped files equal the built-in boards (holes, jumps, symmetry group,
//! figures), exports reproduce them, seed 002's own format loads, and every fault in a file
//! gets one line naming the file.

mod replay;

mod support;
use pegchain::SymmetryGroup;
use pegchain::solitaire::board::{builtin, builtin_names};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use support::{big, fails_at_run_time_with, fails_with, json, pegchain, scratch, stdout};

/// A board file shipped in `data/boards/`, as a path argument.
fn board_file(name: &str) -> String {
    support::data(&format!("boards/{name}")).display().to_string()
}

#[test]
fn shipped_files_are_the_built_in_boards() {
    for name in builtin_names() {
        let b = builtin(&name).unwrap();
        for path in [board_file(&format!("{name}.json")), board_file(&format!("{name}.txt"))] {
            let f = pegchain::solitaire::load_board(&path).unwrap();
            assert_eq!(f.name(), name, "{path}");
            assert_eq!(f.holes(), b.holes(), "{path}");
            assert_eq!(f.jumps(), b.jumps(), "{path}");
            assert_eq!(f.shape(), b.shape(), "{path}");
            assert_eq!(SymmetryGroup::of_board(&f).perms(), SymmetryGroup::of_board(&b).perms(), "{path}");
        }
    }
}

#[test]
fn file_boards_give_the_built_in_figures() {
    for args in [&["ends"][..], &["count", "--start", "all"], &["exact", "--start", "A,E"], &["show"]] {
        let built_in = stdout(&[args, &["--board", "triangle5"]].concat());
        for file in ["triangle5.json", "triangle5.txt"] {
            let path = board_file(file);
            assert_eq!(stdout(&[args, &["--board", path.as_str()]].concat()), built_in, "{args:?} {file}");
        }
    }
    let built_in = stdout(&["solve", "--board", "english", "--start", "d4", "--finish", "d4", "--json"]);
    for file in ["english.json", "english.txt"] {
        let path = board_file(file);
        let from_file =
            stdout(&["solve", "--board", path.as_str(), "--start", "d4", "--finish", "d4", "--json"]);
        assert_eq!(from_file, built_in, "{file}");
    }
}

#[test]
fn exports_reproduce_the_shipped_files() {
    let dir = scratch("export");
    for name in builtin_names() {
        for format in ["seed002", "picture"] {
            stdout(&["boards", "--export", &name, "--format", format, "--out", dir.to_str().unwrap()]);
        }
        for file in [".json", ".adjacency.csv", ".layout.csv", ".txt"] {
            let file = format!("{name}{file}");
            let written = std::fs::read_to_string(dir.join(&file)).unwrap();
            assert_eq!(written, std::fs::read_to_string(board_file(&file)).unwrap(), "{file}");
        }
    }
    // Converting a file board from one format to the other keeps it.
    let out = scratch("convert");
    stdout(&[
        "boards",
        "--export",
        &board_file("european.txt"),
        "--format",
        "seed002",
        "--out",
        out.to_str().unwrap(),
    ]);
    let back = pegchain::solitaire::load_board(out.join("european.json").to_str().unwrap()).unwrap();
    assert_eq!(back.jumps(), builtin("european").unwrap().jumps());
}

/// Seed 002's example as its README describes it: 0-based neighbours in six direction
/// columns, no header, a floating-point layout with y upwards, the puzzle in the JSON.
fn write_cracker(dir: &Path) -> PathBuf {
    // Holes row by row from the tip; (row, place) -> index.
    let index = |r: i32, k: i32| (0..=4).contains(&r) && (0..=r).contains(&k);
    let id = |r: i32, k: i32| r * (r + 1) / 2 + k;
    // Right, up-right, up-left, left, down-left, down-right.
    let steps = [(0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0), (1, 1)];
    let mut board = String::new();
    let mut layout = String::new();
    for r in 0..5 {
        for k in 0..=r {
            let cells: Vec<String> = steps
                .iter()
                .map(
                    |&(dr, dk)| {
                        if index(r + dr, k + dk) { id(r + dr, k + dk).to_string() } else { String::new() }
                    },
                )
                .collect();
            board += &(cells.join(",") + "\n");
            layout += &format!("{},{}\n", (2 * k - r) as f64 / 3f64.sqrt(), -r);
        }
    }
    std::fs::write(dir.join("cracker_board.csv"), board).unwrap();
    std::fs::write(dir.join("cracker_layout.csv"), layout).unwrap();
    let json = r#"{
    "description": "Standard Cracker Barrel Peg Jump Game",
    "board": "cracker_board.csv",
    "layout": "cracker_layout.csv",
    "scope": "MULTIPLE",
    "start": [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13]
}"#;
    let path = dir.join("cracker_standard.json");
    std::fs::write(&path, json).unwrap();
    path
}

#[test]
fn seed_002s_example_loads_and_its_puzzle_is_solved() {
    let dir = scratch("cracker");
    let path = write_cracker(&dir);
    let board = pegchain::solitaire::load_board(path.to_str().unwrap()).unwrap();
    let t5 = builtin("triangle5").unwrap();
    assert_eq!((board.holes(), board.jumps()), (t5.holes(), t5.jumps()));

    // The file's puzzle: corners empty, finish (by default) with pegs in just the corners,
    // every solution (scope MULTIPLE).
    let out = pegchain().args(["solve", "--board", path.to_str().unwrap(), "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["finish_pegs"], serde_json::json!(["A", "K", "O"]));
    let model = replay::triangle(5);
    let start: BTreeSet<String> =
        model.holes.iter().filter(|h| !["A", "K", "O"].contains(&h.as_str())).cloned().collect();
    let corners: BTreeSet<String> = ["A", "K", "O"].iter().map(|s| s.to_string()).collect();
    let solutions = v["solutions"].as_array().unwrap();
    for s in solutions {
        let jumps: Vec<String> =
            s["jumps"].as_array().unwrap().iter().map(|j| j.as_str().unwrap().into()).collect();
        assert_eq!(model.replay(start.clone(), &jumps).unwrap(), corners);
    }
    // As many as an independent count over the replay model's jumps finds.
    fn count(
        model: &replay::Model,
        pegs: BTreeSet<String>,
        goal: &BTreeSet<String>,
        memo: &mut HashMap<BTreeSet<String>, u64>,
    ) -> u64 {
        if pegs.len() == goal.len() {
            return u64::from(pegs == *goal);
        }
        if let Some(&n) = memo.get(&pegs) {
            return n;
        }
        let mut n = 0;
        for (f, o, t) in &model.jumps {
            if pegs.contains(f) && pegs.contains(o) && !pegs.contains(t) {
                let mut next = pegs.clone();
                next.remove(f);
                next.remove(o);
                next.insert(t.clone());
                n += count(model, next, goal, memo);
            }
        }
        memo.insert(pegs, n);
        n
    }
    let expected = count(&model, start, &corners, &mut HashMap::new());
    assert!(expected > 0);
    assert_eq!(solutions.len() as u64, expected);
    assert_eq!(big(&v["found"]), Some(expected));
    // A --start on the command line replaces the file's puzzle.
    let one = stdout(&["solve", "--board", path.to_str().unwrap(), "--start", "A"]);
    assert!(one.contains("Finish: one peg left, in any hole"), "{one}");
}

#[test]
fn a_hand_written_picture_board_works_end_to_end() {
    let dir = scratch("picture");
    // A small board with one diagonal line, its holes named by the letters rule.
    let path = dir.join("corner.txt");
    std::fs::write(&path, "# a small board\nlattice: square-diagonal\nempty: D\no o\no o o\n  o o\n")
        .unwrap();
    let b = pegchain::solitaire::load_board(path.to_str().unwrap()).unwrap();
    let names: Vec<&str> = b.holes().iter().map(|h| h.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C", "D", "E", "F", "G"]);
    // Lines of three holes: C-D-E across, B-D-F down, A-D-G on the diagonal.
    let jumps: BTreeSet<String> = b
        .jumps()
        .iter()
        .map(|j| format!("{}-{}-{}", b.hole_name(j.from), b.hole_name(j.over), b.hole_name(j.to)))
        .collect();
    let want: BTreeSet<String> =
        ["C-D-E", "E-D-C", "B-D-F", "F-D-B", "A-D-G", "G-D-A"].iter().map(|s| s.to_string()).collect();
    assert_eq!(jumps, want);
    let shown = stdout(&["show", "--board", path.to_str().unwrap()]);
    assert!(shown.contains("corner (7 holes, 6 jumps"), "{shown}");
    // Every jump passes over D: from D empty nothing moves, from A empty one jump does.
    let solved = stdout(&["solve", "--board", path.to_str().unwrap(), "--finish-count", "6", "--all"]);
    assert!(solved.contains("Start: D empty (6 pegs)"), "{solved}");
    assert!(solved.contains("1. (no jump: the start is already the finish)\n"), "{solved}");
    let solved =
        stdout(&["solve", "--board", path.to_str().unwrap(), "--start", "A", "--finish-count", "5", "--all"]);
    assert!(solved.contains("1. G-D-A\n\n1 solution in all"), "{solved}");
}

/// A file triangle named otherwise than the built-in (`names: chess`: `a1` a corner of the
/// base) is named by its own names alone: `a5`, which it does not use, was read by seed 000's
/// rank/file notation as that notation's first hole of the fifth row, the file's `a1`, and
/// the run went on from a hole the user never named. The built-in's names keep the notation.
#[test]
fn a_file_triangles_own_names_are_not_read_as_rank_and_file() {
    let dir = scratch("chess-triangle");
    let path = dir.join("ch.txt");
    std::fs::write(&path, "lattice: triangular\nnames: chess\n    o\n   o o\n  o o o\n o o o o\no o o o o\n")
        .unwrap();
    let path = path.to_str().unwrap();
    let b = pegchain::solitaire::load_board(path).unwrap();
    assert_eq!((b.hole_name(0), b.hole_name(10)), ("e5", "a1"));
    let start = |hole: &str| json(&["exact", "--board", path, "--start", hole])["starts"][0]["start"].clone();
    assert_eq!(start("a1"), "a1");
    assert_eq!(start("e5"), "e5");
    fails_with(&["exact", "--board", path, "--start", "a5"], "pegchain: board ch has no hole \"a5\"");
    let letters = dir.join("letters.txt");
    std::fs::write(&letters, "lattice: triangular\n    o\n   o o\n  o o o\n o o o o\no o o o o\n").unwrap();
    let letters = letters.to_str().unwrap();
    let start =
        |hole: &str| json(&["exact", "--board", letters, "--start", hole])["starts"][0]["start"].clone();
    assert_eq!(start("a5"), "K");
}

#[test]
fn bad_files_get_one_line_naming_the_file_and_the_fault() {
    let dir = scratch("bad");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let line3 = "0,0\n1,0\n2,0\n";
    write("ok.csv", "1,\n2,0\n,1\n");
    write("line3.csv", line3);
    let json = |name: &str, body: &str| write(name, body);

    let f = json("broken.json", r#"{"board": "ok.csv", "layout": "#);
    fails_with(&["show", "--board", &f], &format!("board file {f}: invalid JSON"));
    let csv = write("words.csv", "1,x\n2,0\n,1\n");
    let f = json("words.json", r#"{"board": "words.csv", "layout": "line3.csv"}"#);
    fails_with(
        &["show", "--board", &f],
        &format!("board file {csv}: line 1, column 2: \"x\" is not a hole number"),
    );
    let csv = write("range.csv", "1,\n2,7\n,1\n");
    let f = json("range.json", r#"{"board": "range.csv", "layout": "line3.csv"}"#);
    fails_with(&["show", "--board", &f], &format!("{csv}: line 2, column 2: neighbour 7 is out of range"));
    // An adjacency CSV `name`.csv of `text` and its board file over line3.csv: (CSV, board).
    let board_of = |name: &str, text: &str| {
        let csv = write(&format!("{name}.csv"), text);
        let f =
            json(&format!("{name}.json"), &format!(r#"{{"board": "{name}.csv", "layout": "line3.csv"}}"#));
        (csv, f)
    };
    // A blank line was skipped, so the holes after it took the numbers before their own and
    // the error blamed a sound line; now the blank line is named, and one after the last row
    // is named where the hole it might have been is the neighbour out of range.
    let (csv, f) = board_of("blank", "1\n\n0\n");
    fails_with(
        &["show", "--board", &f],
        &format!(
            "board file {csv}: line 2 is blank: every row is a hole, and a hole with no neighbours is a row of empty cells (\",\", or \"\" in a file of one column)"
        ),
    );
    let (csv, f) = board_of("tail", "1\n2\n\n");
    fails_with(
        &["show", "--board", &f],
        &format!(
            "board file {csv}: line 2, column 1: neighbour 2 is out of range (the 2 holes are numbered 0 to 1); a blank line after the rows is no row"
        ),
    );
    // A faulty first row is named as such (it was skipped as a header, the fault reported on
    // line 2), and a first row after blank lines by its own line (it was named by the first).
    let (csv, f) = board_of("semicolon", "1;\n2,0\n,1\n");
    fails_with(
        &["show", "--board", &f],
        &format!("board file {csv}: line 1, column 1: \"1;\" is not a hole number"),
    );
    let (csv, f) = board_of("late", "\n\n1,x\n2,0\n,1\n");
    fails_with(
        &["show", "--board", &f],
        &format!("board file {csv}: line 3, column 2: \"x\" is not a hole number"),
    );
    let (_, f) = board_of("quoted", "1\n2\n\"\"\n");
    let shown = support::stdout(&["show", "--board", &f]);
    assert!(shown.contains("(3 holes, 1 jump"), "{shown}");
    let layout = write("short.csv", "0,0\n1,\n2,0\n");
    let f = json("short.json", r#"{"board": "ok.csv", "layout": "short.csv"}"#);
    fails_with(&["show", "--board", &f], &format!("{layout}: hole 1 (line 2) has no coordinates"));
    // A board file naming itself as a CSV read as a header alone: "the adjacency CSV has no rows".
    let f = json("itself.json", r#"{"board": "itself.json", "layout": "line3.csv"}"#);
    fails_with(
        &["show", "--board", &f],
        &format!("pegchain: board file {f}: named as the adjacency CSV, but it holds JSON, not CSV\n"),
    );
    let f = json("layout.json", r#"{"board": "ok.csv", "layout": "layout.json"}"#);
    fails_with(
        &["show", "--board", &f],
        &format!("board file {f}: named as the layout CSV, but it holds JSON"),
    );
    // Holes a unit apart beside one at 1e308 were said to have the same coordinates.
    let layout = write("far.csv", "1e308,1e308\n1,0\n2,0\n");
    let f = json("far.json", r#"{"board": "ok.csv", "layout": "far.csv"}"#);
    fails_with(
        &["show", "--board", &f],
        &format!(
            "pegchain: board file {layout}: hole 0's coordinates are so large that holes 1 and 2, a millionth of them \
             apart or less, cannot be told apart\n"
        ),
    );
    let f = json("dup.json", r#"{"board": "ok.csv", "layout": "line3.csv", "names": ["a", "b", "a"]}"#);
    fails_with(&["show", "--board", &f], "hole 0 and hole 2 are both named \"a\"");
    let f = json("start.json", r#"{"board": "ok.csv", "layout": "line3.csv", "start": [0, 3]}"#);
    fails_with(&["solve", "--board", &f], "start names hole 3, not on the board (holes are 0 to 2)");
    // A start with no peg is said to be empty, in either format.
    let f = json("nostart.json", r#"{"board": "ok.csv", "layout": "line3.csv", "start": []}"#);
    fails_with(
        &["solve", "--board", &f],
        &format!("pegchain: board file {f}: start is empty: it lists the holes holding pegs at the start\n"),
    );
    let p = write("allempty.txt", "lattice: square\nempty: A,B,C\nA B C\n");
    fails_with(
        &["solve", "--board", &p],
        &format!("pegchain: board file {p}: line 2: empty names every hole, so the start holds no peg\n"),
    );
    // A file that gives no start says so; a built-in board has no file.
    let f = json("nopuzzle.json", r#"{"board": "ok.csv", "layout": "line3.csv"}"#);
    fails_with(&["solve", "--board", &f], "--position HOLES; board nopuzzle's file gives none\n");
    fails_with(
        &["solve", "--board", "triangle5"],
        "--position HOLES; board triangle5 is built in and gives none\n",
    );
    let big: String = (0..65).map(|i| format!("{}\n", (i + 1) % 65)).collect();
    write("big.csv", &big);
    let f = json("big.json", r#"{"board": "big.csv", "layout": "line3.csv"}"#);
    fails_with(&["show", "--board", &f], "65 holes, more than the 64 a 64-bit bitboard holds");
    write("lonely.csv", "1,\n,0\n");
    let f = json("lonely.json", r#"{"board": "lonely.csv", "layout": "line3.csv"}"#);
    fails_with(&["show", "--board", &f], "the layout has 3 rows but the board has 2 holes");
    write("two.csv", "0,0\n1,0\n");
    let f = json("nojumps.json", r#"{"board": "lonely.csv", "layout": "two.csv"}"#);
    fails_with(&["show", "--board", &f], &format!("board file {f}: not a usable board: it has no jumps"));
    let f = json("missing.json", r#"{"board": "nowhere.csv", "layout": "two.csv"}"#);
    fails_with(&["show", "--board", &f], "nowhere.csv: cannot read it");
    fails_with(&["show", "--board", "no/such/board.json"], "board file no/such/board.json: cannot read it");

    let p = write("pic.txt", "lattice: square\n o\no o o\n o\n");
    fails_with(
        &["show", "--board", &p],
        &format!("board file {p}: line 2: hole \"o\" at column 2 is off the square lattice"),
    );
    // A picture numbers no hole: its faults place the holes they name.
    let p = write("dup.txt", "lattice: square\nx y z\n    x\n");
    fails_with(
        &["show", "--board", &p],
        &format!(
            "board file {p}: the hole at line 2, column 1 and the hole at line 3, column 5 are both named \"x\"\n"
        ),
    );
    let p = write("nolattice.txt", "o o o\n");
    fails_with(&["show", "--board", &p], "no `lattice:` line");
    let p = write("empty.txt", "lattice: square\nempty: Q\no o o\n");
    fails_with(&["solve", "--board", &p], "line 2: empty names \"Q\", which is not a hole of the board");
    // An unknown option is shown as written, beside every option known.
    let p = write("colon.txt", "lattice: square\nA: B C\n");
    fails_with(
        &["show", "--board", &p],
        &format!(
            "pegchain: board file {p}: line 2: unknown option \"A\" (known: name, description, lattice, \
             numbering, names, empty, finish, finish_count, method, scope)\n"
        ),
    );
}

/// A board file's puzzle is exported with its board: `boards --export` wrote the board alone,
/// so the exported file of seed 002's example could not be solved (`solve needs a start`). Each
/// format's files, and a picture's start alone (one peg left, in any hole), solve as before.
#[test]
fn a_board_files_puzzle_survives_export_to_either_format() {
    let dir = scratch("puzzle-export");
    let cracker = write_cracker(&dir);
    // Named `surname`: the picture's first comment line, `# surname: 15 holes...`, holds
    // `name: ` too, and the description must go before the `name:` option, not into it.
    let picture = dir.join("surname.txt");
    std::fs::write(&picture, "description: a corner start\nlattice: triangular\nempty: A\nmethod: bfs\n    A\n   B C\n  D E F\n G H I J\nK L M N O\n").unwrap();
    let solved = |board: &Path| {
        let v = json(&["solve", "--board", board.to_str().unwrap()]);
        (
            v["start_pegs"].clone(),
            v["finish_pegs"].clone(),
            v["finish_count"].clone(),
            v["method"].clone(),
            v["solutions"].as_array().unwrap().len(),
            v["complete"].clone(),
        )
    };
    for (file, exported) in [
        (&cracker, ["cracker_standard.txt", "cracker_standard.json"]),
        (&picture, ["surname.txt", "surname.json"]),
    ] {
        let before = solved(file);
        for (format, name) in ["picture", "seed002"].into_iter().zip(exported) {
            let out = dir.join(format!("out-{format}"));
            std::fs::create_dir_all(&out).unwrap();
            pegchain()
                .args([
                    "boards",
                    "--export",
                    file.to_str().unwrap(),
                    "--format",
                    format,
                    "--out",
                    out.to_str().unwrap(),
                ])
                .assert()
                .success();
            assert_eq!(solved(&out.join(name)), before, "{} as {format}", file.display());
        }
    }
    // The 7,344 solutions of seed 002's example, every one asked for by its `scope`; and its
    // description, which no answer shows, kept in the files.
    assert_eq!(solved(&cracker).4, 7344);
    let text = std::fs::read_to_string(dir.join("out-picture/cracker_standard.txt")).unwrap();
    assert!(text.contains("description: Standard Cracker Barrel Peg Jump Game\n"), "{text}");
    assert!(text.contains("empty: A,K,O\nfinish: A,K,O\nscope: multiple\n"), "{text}");
}

/// A picture's puzzle is checked as seed 002's, by one check: a picture whose `finish` holds
/// one peg and whose `finish_count` says 2 was solved with the count ignored, exported as a
/// picture unchanged, and refused on export as seed 002 naming `t.json`, a file the user never
/// wrote; a hole listed twice was taken once.
#[test]
fn a_pictures_contradictory_puzzle_is_refused_naming_the_users_file() {
    let dir = scratch("contradictory-picture");
    let triangle = "    A\n   B C\n  D E F\n G H I J\nK L M N O\n";
    let write = |name: &str, options: &str| {
        let p = dir.join(name);
        std::fs::write(&p, format!("name: t\nlattice: triangular\n{options}{triangle}")).unwrap();
        p.to_str().unwrap().to_string()
    };
    let p = write("p.txt", "empty: A\nfinish: M\nfinish_count: 2\n");
    let out = dir.join("out");
    std::fs::create_dir(&out).unwrap();
    let contradiction = format!("pegchain: board file {p}: finish holds 1 peg but finish_count says 2");
    fails_with(&["solve", "--board", &p], &contradiction);
    for format in ["seed002", "picture"] {
        fails_with(
            &["boards", "--export", &p, "--format", format, "--out", out.to_str().unwrap()],
            &contradiction,
        );
    }
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing exported");
    let p = write("twice.txt", "empty: A A\n");
    fails_with(
        &["solve", "--board", &p],
        &format!("pegchain: board file {p}: line 3: empty lists hole \"A\" twice"),
    );
    let p = write("finish-twice.txt", "empty: A\nfinish: M,M\n");
    fails_with(&["solve", "--board", &p], &format!("board file {p}: line 4: finish lists hole \"M\" twice"));
    // The same puzzle as seed 002's JSON is refused in the same words.
    write_cracker(&dir);
    let f = dir.join("fb.json");
    std::fs::write(
        &f,
        r#"{"board": "cracker_board.csv", "layout": "cracker_layout.csv", "start": [1, 2], "finish": [12], "finish_count": 2}"#,
    )
    .unwrap();
    let f = f.to_str().unwrap();
    fails_with(
        &["solve", "--board", f],
        &format!("pegchain: board file {f}: finish holds 1 peg but finish_count says 2"),
    );
}

#[test]
fn a_failed_export_leaves_no_file_behind() {
    let dir = scratch("failed_export");
    // A directory where the layout file should go makes the export fail.
    std::fs::create_dir(dir.join("english.layout.csv")).unwrap();
    fails_at_run_time_with(
        &["boards", "--export", "english", "--out", dir.to_str().unwrap()],
        "a directory is in the way",
    );
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["english.layout.csv"]);
    fails_with(&["boards", "--export", "english", "--format", "svg"], "unknown board file format \"svg\"");
    // A file where the directory should be: "cannot create ...: File exists", exit 1, before.
    fails_with(
        &["boards", "--export", "english", "--out", "Cargo.toml"],
        "--out Cargo.toml: not a directory",
    );
    // Three holes in a row from seed 002's files (`layout`, and `more` fields), exported as a
    // picture into `out`: refused with `message`, and nothing written.
    let refused_as_picture = |name: &str, layout: &str, more: &str, message: &str| {
        let dir = scratch(name);
        std::fs::write(dir.join("b.csv"), "1,\n2,0\n,1\n").unwrap();
        std::fs::write(dir.join("l.csv"), layout).unwrap();
        let spec = dir.join(format!("{name}.json"));
        std::fs::write(&spec, format!(r#"{{"board": "b.csv", "layout": "l.csv"{more}}}"#)).unwrap();
        let out = scratch(&format!("{name}_out"));
        let (spec, into) = (spec.to_str().unwrap(), out.to_str().unwrap());
        fails_with(&["boards", "--export", spec, "--format", "picture", "--out", into], message);
        assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
    };
    // A name the picture reads as unnamed holes: the format's limit, not a fault of a file.
    refused_as_picture(
        "ooo",
        "0,0\n1,0\n2,0\n",
        r#", "names": ["ooo", "B", "C"]"#,
        "a picture cannot hold the board unchanged (export it as seed002)",
    );
    // A board off any lattice cannot be drawn as a picture: refused before writing.
    refused_as_picture("odd", "0,0\n1,0\n3,0\n", "", "cannot export the board as odd.txt");
}

/// One jump, one game, one entry: a board of one jump (A over B into C, not back) said
/// `Board b (3 holes, 1 jumps, ...)`, `count` `Start A: 1 games`, and a file naming one hole
/// for three `names has 1 entries`. Now each in the singular; the plural stays for more.
#[test]
fn one_jump_and_one_game_are_said_in_the_singular() {
    let dir = scratch("singular");
    std::fs::write(dir.join("one.csv"), "1,\n2,\n,\n").unwrap();
    std::fs::write(dir.join("line.csv"), "0,0\n1,0\n2,0\n").unwrap();
    let board = dir.join("b.json");
    std::fs::write(&board, r#"{"board": "one.csv", "layout": "line.csv"}"#).unwrap();
    let b = board.to_str().unwrap();
    let counted = stdout(&["count", "--board", b]);
    assert!(counted.starts_with("Board b (3 holes, 1 jump, symmetry group of order 1)\n"), "{counted}");
    for start in ["A", "B", "C"] {
        assert!(counted.contains(&format!("\nStart {start}: 1 game\n")), "{counted}");
    }
    assert!(!counted.contains("1 games") && !counted.contains("1 jumps"), "{counted}");
    assert!(stdout(&["exact", "--board", b]).starts_with("Board b (3 holes, 1 jump, "));
    // A checkpoint's record of the board too.
    let saved = dir.join("run.ckpt");
    stdout(&["exact", "--board", b, "--checkpoint", saved.to_str().unwrap()]);
    let bytes = std::fs::read(&saved).unwrap();
    let header = String::from_utf8_lossy(bytes.split(|&c| c == b'\n').next().unwrap()).into_owned();
    assert!(header.contains("\"1 jump (hash "), "{header}");
    let many = stdout(&["count", "--board", "triangle5", "--start", "A"]);
    assert!(many.starts_with("Board triangle5 (15 holes, 36 jumps, symmetry group of order 6)\n"), "{many}");
    assert!(many.contains("\nStart A: 568,630 games\n"), "{many}");
    let named = dir.join("named.json");
    std::fs::write(&named, r#"{"board": "one.csv", "layout": "line.csv", "names": ["X"]}"#).unwrap();
    fails_with(&["show", "--board", named.to_str().unwrap()], "names has 1 entry for the 3 holes\n");
}

/// An adjacency or layout CSV given as the board was read as a picture and refused for its
/// missing `lattice:` line, which sent the user to the wrong format. Now it names the JSON
/// file that a seed 002 board is given by.
#[test]
fn a_csv_given_as_the_board_points_to_its_json_file() {
    for part in ["triangle5.adjacency.csv", "triangle5.layout.csv"] {
        let csv = board_file(part);
        for command in ["show", "exact", "solve"] {
            fails_with(
                &[command, "--board", &csv],
                &format!(
                    "pegchain: board file {csv}: a CSV is one part of a seed 002 board, not a board file: give \
                     the .json file that names it (\"board\": adjacency CSV, \"layout\": layout CSV), or a picture\n"
                ),
            );
        }
    }
}

/// Where no start can end with one peg, the random start's P(one peg) is 0, written once: it
/// read "P(one peg) = 0 = 0, inf bits", the fraction and its decimal both.
#[test]
fn a_random_start_that_never_wins_is_written_once() {
    let dir = scratch("never-wins");
    let file = dir.join("l.txt");
    // Three holes in a row and one below: a jump leaves two pegs, never one.
    std::fs::write(&file, "name: x\nlattice: square\nooo\no\n").unwrap();
    let text = stdout(&["exact", "--board", file.to_str().unwrap()]);
    assert!(text.contains("Random start hole: P(one peg) = 0, inf bits\n"), "{text}");
    let triangle = stdout(&["exact", "--board", "triangle4"]);
    assert!(
        triangle.contains("Random start hole: P(one peg) = 13/720 = 0.0180556, 5.79141 bits\n"),
        "{triangle}"
    );
}
