//! `pegchain solve` and `pegchain ends`: seed 003's figures, solutions replayed by an
//! independent model, enumeration against the engine's path counts, and the CLI contract.

mod replay;

mod support;
use pegchain::solitaire::Pegs;
use pegchain::solitaire::board::builtin;
use pegchain::solitaire::exact::{Analysis, EngineConfig, Starts};
use pegchain::solitaire::moves::start_position;
use pegchain::solitaire::solve::{DistinctSolutions, Finish, Method, Problem, Solver};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::ops::ControlFlow;
use support::{big, json, pegchain, stdout};

fn jumps_of(solution: &Value) -> Vec<String> {
    solution["jumps"].as_array().unwrap().iter().map(|j| j.as_str().unwrap().to_string()).collect()
}

fn set(holes: &[&str]) -> BTreeSet<String> {
    holes.iter().map(|h| h.to_string()).collect()
}

/// Start hole -> (finish hole -> winning games), from `ends --json`.
fn ends(board: &str) -> BTreeMap<String, BTreeMap<String, u64>> {
    let v = json(&["ends", "--board", board]);
    v["starts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let by: BTreeMap<String, u64> = s["wins_by_finish"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, n)| (k.clone(), n.as_str().unwrap().parse().unwrap()))
                .collect();
            (s["start"].as_str().unwrap().to_string(), by)
        })
        .collect()
}

#[test]
fn ends_shows_seed_003s_finish_holes_and_counts() {
    let e = ends("triangle5");
    let a: Vec<(&str, u64)> = e["A"].iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(a, [("A", 6_816), ("G", 3_408), ("J", 3_408), ("M", 16_128)]);
    assert_eq!(e["A"].values().sum::<u64>(), 29_760);
    let holes = |s: &str| e[s].keys().map(String::as_str).collect::<Vec<_>>().join(" ");
    assert_eq!(holes("E"), "M");
    assert_eq!(holes("B"), "B F K N");
    assert_eq!(holes("D"), "C D I L O");
    // Seed 003: "the location A results are applicable also to locations K and O" etc.
    assert_eq!(holes("K"), "B F K N");
    assert_eq!(holes("H"), "F");
    let table = stdout(&["ends"]);
    assert!(table.contains("A       6,816      .      .       .      .       .  3,408"), "{table}");
    assert!(table.contains("D      C D I L O         85,258"), "{table}");
}

#[test]
fn every_solution_from_a_replays_and_their_number_is_the_path_count() {
    let v = json(&["solve", "--start", "A", "--all"]);
    let model = replay::triangle(5);
    let solutions = v["solutions"].as_array().unwrap();
    let mut seen = HashSet::new();
    let mut by_finish: BTreeMap<String, u64> = BTreeMap::new();
    for s in solutions {
        let jumps = jumps_of(s);
        assert_eq!(jumps.len(), 13);
        let end = model.replay(model.start("A"), &jumps).unwrap();
        assert_eq!(end.len(), 1);
        *by_finish.entry(end.into_iter().next().unwrap()).or_default() += 1;
        assert!(seen.insert(jumps), "a solution listed twice");
    }
    assert_eq!((big(&v["found"]), v["complete"].as_bool()), (Some(29_760), Some(true)));
    assert_eq!(solutions.len(), 29_760);
    assert_eq!(by_finish, ends("triangle5")["A"]);
}

#[test]
fn enumeration_equals_the_engines_path_counts_for_every_start_and_end() {
    let t5 = builtin("triangle5").unwrap();
    let counts = Analysis::new(&t5).count(&Starts::All, &EngineConfig::default(), &mut |_| {}).unwrap();
    let solver = Solver::new(&t5);
    for s in &counts.starts {
        let start = start_position(&t5, s.hole);
        // One peg in each hole, and k pegs left with no jump for every k.
        for f in 0..15u8 {
            let p = Problem::new(&t5, start, Finish::Pegs(Pegs::single(f))).unwrap();
            let n = solver.run(&p, Method::Dfs, &mut |_| ControlFlow::Continue(())).unwrap().found;
            assert_eq!(
                n,
                s.wins_by_finish.get(&f).map_or(0, |c| c.to_u64().unwrap()),
                "start {} finish {f}",
                s.hole
            );
        }
        for (&k, games) in &s.games_by_pegs_left {
            let p = Problem::new(&t5, start, Finish::Count(k)).unwrap();
            let n = solver.run(&p, Method::Dfs, &mut |_| ControlFlow::Continue(())).unwrap().found;
            assert_eq!(n, games.to_u64().unwrap(), "start {} with {k} pegs left", s.hole);
        }
    }
}

#[test]
fn breadth_first_lists_the_same_solutions() {
    for args in [["--start", "E", "--finish", "M"], ["--start", "A", "--finish-count", "5"]] {
        let dfs = json(&[&["solve", "--all", "--method", "dfs"][..], &args].concat());
        let bfs = json(&[&["solve", "--all", "--method", "bfs"][..], &args].concat());
        assert_eq!(dfs["solutions"], bfs["solutions"], "{args:?}");
        assert_eq!(bfs["method"], "bfs");
    }
}

/// A line of 64 holes: its start's position class holds 2^62 hole sets, and the breadth-first
/// search was refused for that bound ("may hold up to 4611686018427387904 positions"); the
/// start reaches a few hundred positions, and both methods now answer alike.
#[test]
fn breadth_first_runs_where_only_a_bound_was_large() {
    let dir = support::scratch("line64");
    let adjacency: Vec<String> = (0..64)
        .map(|i| {
            let right = if i < 63 { (i + 1).to_string() } else { String::new() };
            let left = if i > 0 { (i - 1).to_string() } else { String::new() };
            format!("{right},{left}")
        })
        .collect();
    let layout: Vec<String> = (0..64).map(|i| format!("{i},0")).collect();
    std::fs::write(dir.join("line64.adj.csv"), adjacency.join("\n") + "\n").unwrap();
    std::fs::write(dir.join("line64.lay.csv"), layout.join("\n") + "\n").unwrap();
    let board = dir.join("line64.json");
    std::fs::write(&board, r#"{"board": "line64.adj.csv", "layout": "line64.lay.csv"}"#).unwrap();
    let args = ["solve", "--board", board.to_str().unwrap(), "--start", "B", "--limit", "20"];
    let dfs = json(&args);
    let bfs = json(&[&args[..], &["--method", "bfs"]].concat());
    assert_eq!(dfs["solutions"], bfs["solutions"]);
    assert_eq!(dfs["found"], bfs["found"]);
}

#[test]
fn the_english_centre_game_is_solved_fast_and_replays() {
    let en = builtin("english").unwrap();
    let d4 = en.find_hole("d4").unwrap();
    let solver = Solver::new(&en);
    let problem = Problem::new(&en, start_position(&en, d4), Finish::Pegs(Pegs::single(d4))).unwrap();
    let mut first = None;
    let summary = solver
        .run(&problem, Method::Dfs, &mut |jumps| {
            first = Some(jumps.to_vec());
            ControlFlow::Break(())
        })
        .unwrap();
    // Fast, counted in work rather than time: the failure table keeps the search this small.
    // (8,991 positions expanded today).
    assert!(summary.positions < 20_000, "{} positions expanded", summary.positions);
    assert_eq!(first.unwrap().len(), 31);

    let v = json(&["solve", "--board", "english", "--start", "d4", "--finish", "d4"]);
    let model = replay::english();
    let end = model.replay(model.start("d4"), &jumps_of(&v["solutions"][0])).unwrap();
    assert_eq!(end, set(&["d4"]));
}

#[test]
fn impossible_requests_say_so_and_succeed() {
    let out = stdout(&["solve", "--start", "E", "--finish", "A"]);
    assert!(out.contains("No solution: no sequence of jumps leads from this start to this finish"), "{out}");
    let v = json(&["solve", "--start", "E", "--finish", "A", "--all"]);
    assert_eq!((big(&v["found"]), v["complete"].as_bool()), (Some(0), Some(true)));
    // The English board's classical position classes settle this one without a search.
    let out = stdout(&["solve", "--board", "european", "--start", "d4", "--finish", "d4"]);
    assert!(out.contains("No solution: the start and the finish are in different position classes"), "{out}");
    let out = stdout(&["solve", "--board", "triangle4", "--start", "A"]);
    assert!(out.starts_with("Board triangle4") && out.contains("No solution"), "{out}");
}

/// The European board's position classes, start by start: one peg can be left only from
/// the 16 holes of three start classes (c1, d2, d3, each to four finish holes); from the
/// other 21 (the centre, d1, b2, c2 and c3 classes) P(one peg) is exactly 0 for any play.
/// (Random play confirms the three: seeded games won from b4 and c4, README.)
#[test]
fn european_starts_that_parity_allows_to_end_with_one_peg() {
    let board = builtin("european").unwrap();
    let solver = Solver::new(&board);
    let hole = |name: &str| board.find_hole(name).unwrap();
    let finishes = |start: &str| -> BTreeSet<String> {
        let class = solver.position_class(start_position(&board, hole(start)));
        (0..board.hole_count() as u8)
            .filter(|&h| solver.position_class(Pegs::single(h)) == class)
            .map(|h| board.hole_name(h).to_string())
            .collect()
    };
    let names = |list: &str| list.split(' ').map(String::from).collect::<BTreeSet<String>>();
    assert_eq!(finishes("c1"), names("b4 e1 e4 e7"));
    assert_eq!(finishes("d2"), names("a3 d3 d6 g3"));
    assert_eq!(finishes("d3"), names("a5 d2 d5 g5"));
    let never: BTreeSet<String> = (0..board.hole_count() as u8)
        .map(|h| board.hole_name(h).to_string())
        .filter(|h| finishes(h).is_empty())
        .collect();
    assert_eq!(never, names("d4 d1 a4 g4 d7 b2 f2 b6 f6 c2 e2 b3 f3 b5 f5 c6 e6 c3 e3 c5 e5"));
}

/// The mirror of the triangle through its tip: row r, place c goes to place r - c.
fn mirror(hole: char) -> char {
    let i = (hole as u8 - b'A') as i32;
    let r = (0..5).find(|r| (r + 1) * (r + 2) / 2 > i).unwrap();
    let c = i - r * (r + 1) / 2;
    (b'A' + (r * (r + 1) / 2 + r - c) as u8) as char
}

#[test]
fn distinct_a_to_a_solutions_up_to_jump_order_and_mirror() {
    let v = json(&["solve", "--start", "A", "--finish", "A", "--all"]);
    let all: Vec<Vec<String>> = v["solutions"].as_array().unwrap().iter().map(jumps_of).collect();
    assert_eq!(all.len(), 6_816);
    // Independently: a class is the smaller of the sorted jump lists of a solution and its mirror image.
    let key = |s: &[String], undirected: bool| {
        let one = |j: &String, m: bool| {
            let mut h: Vec<char> = j.split('-').map(|p| p.chars().next().unwrap()).collect();
            if m {
                h = h.into_iter().map(mirror).collect();
            }
            if undirected && h[0] > h[2] {
                h.swap(0, 2);
            }
            h.into_iter().collect::<String>()
        };
        let sorted = |m: bool| {
            let mut v: Vec<String> = s.iter().map(|j| one(j, m)).collect();
            v.sort();
            v
        };
        sorted(false).min(sorted(true))
    };
    let classes: HashSet<Vec<String>> = all.iter().map(|s| key(s, false)).collect();
    let d = json(&["solve", "--start", "A", "--finish", "A", "--distinct"]);
    assert_eq!(big(&d["distinct"]["classes"]), Some(classes.len() as u64));
    assert_eq!(d["distinct"]["symmetries"].as_u64(), Some(2));
    assert_eq!(big(&d["found"]), Some(6_816));
    assert_eq!(d["solutions"].as_array().unwrap().len(), classes.len());
    assert_eq!(classes.len(), 4);
    // The seed 003 commenter's "only TWO" appears when a jump and its reverse over the
    // same peg count as the same: the four classes pair up.
    let undirected: HashSet<Vec<String>> = all.iter().map(|s| key(s, true)).collect();
    assert_eq!(undirected.len(), 2);

    // The library's classes agree with the CLI's.
    let t5 = builtin("triangle5").unwrap();
    let solver = Solver::new(&t5);
    let p = Problem::new(&t5, start_position(&t5, 0), Finish::Pegs(Pegs::single(0))).unwrap();
    let mut distinct = DistinctSolutions::new(&solver, &p);
    solver
        .run(&p, Method::Dfs, &mut |s| {
            distinct.insert(s).unwrap();
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(distinct.count(), 4);
}

#[test]
fn limits_positions_and_finish_counts() {
    let v = json(&["solve", "--start", "A", "--limit", "5"]);
    assert_eq!(v["solutions"].as_array().unwrap().len(), 5);
    assert_eq!(v["complete"], false);
    // Seed 002's puzzle: the three corners empty, finish with pegs in exactly the corners.
    let v = json(&["solve", "--start-pegs", "B,C,D,E,F,G,H,I,J,L,M,N", "--finish", "A,K,O", "--all"]);
    let model = replay::triangle(5);
    let start = set(&["B", "C", "D", "E", "F", "G", "H", "I", "J", "L", "M", "N"]);
    for s in v["solutions"].as_array().unwrap() {
        assert_eq!(model.replay(start.clone(), &jumps_of(s)).unwrap(), set(&["A", "K", "O"]));
    }
    assert!(big(&v["found"]).unwrap() > 0);
    // Eight pegs left and stuck: seed 000's two games.
    let v = json(&["solve", "--start", "A", "--finish-count", "8", "--all"]);
    assert_eq!(big(&v["found"]), Some(2));
    for s in v["solutions"].as_array().unwrap() {
        let end = model.replay(model.start("A"), &jumps_of(s)).unwrap();
        assert_eq!(end.len(), 8);
        assert!(!model.can_jump(&end));
    }
}

#[test]
fn show_draws_the_board_after_every_jump() {
    let out = stdout(&["solve", "--start", "A", "--show"]);
    let first = json(&["solve", "--start", "A"]);
    let jumps = jumps_of(&first["solutions"][0]);
    assert!(out.contains("Solution 1 (13 jumps)\n  start\n        .\n       B C\n"), "{out}");
    // The last drawing holds one peg: 13 numbered jumps, each followed by a board.
    assert!(out.contains(&format!("  13. {}\n", jumps[12])), "{out}");
    let model = replay::triangle(5);
    let last = model.replay(model.start("A"), &jumps).unwrap().into_iter().next().unwrap();
    let after = out.split(&format!("13. {}\n", jumps[12])).nth(1).unwrap();
    let last_board: String =
        after.lines().take_while(|l| !l.trim().is_empty()).collect::<Vec<_>>().join("\n");
    assert_eq!(last_board.lines().count(), 5);
    assert_eq!(last_board.matches(char::is_alphabetic).count(), 1, "{last_board}");
    assert!(last_board.contains(&last), "{last_board}");
}

#[test]
fn a_closed_pipe_ends_the_stream_quietly() {
    use std::io::{BufRead, BufReader};
    let exe = assert_cmd::cargo::cargo_bin("pegchain");
    let mut child = std::process::Command::new(exe)
        .args(["solve", "--board", "triangle6", "--start", "D", "--all"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let header = lines.next().unwrap().unwrap();
    assert!(header.starts_with("Board triangle6"));
    drop(lines);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bad_solve_requests_get_one_line_and_exit_code_2() {
    let fails = |args: &[&str], message: &str| {
        let out = pegchain().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(message), "{err}");
    };
    fails(&["solve"], "solve needs a start");
    fails(&["solve", "--start", "P"], "has no hole \"P\"");
    fails(&["solve", "--start", "A", "--finish", "A", "--finish-count", "1"], "cannot be used with");
    fails(&["solve", "--start", "A", "--limit", "0"], "--limit must be at least 1");
    // The range a board file's finish_count has: at least one peg, at most every hole.
    for k in ["0", "16", "99"] {
        let why = format!("pegchain: --finish-count must be between 1 and 15, not {k}\n");
        fails(&["solve", "--start", "A", "--finish-count", k], &why);
    }
    fails(
        &["solve", "--board", "triangle4", "--start", "A", "--finish-count", "11"],
        "between 1 and 10, not 11",
    );
    fails(&["solve", "--start", "A", "--method", "astar"], "unknown search method");
    // A finish hole named twice, by name or by rank and file, is a slip, as in --start.
    fails(&["solve", "--start", "A", "--finish", "A,A"], "pegchain: --finish names hole A twice\n");
    fails(&["solve", "--start", "A", "--finish", "O,A,a1"], "pegchain: --finish names hole A twice\n");
    fails(&["solve", "--start", "A", "--show", "--json"], "--json does not fit");
}

/// A breadth-first sweep past its limit of 25 million positions is refused in one line with
/// nothing on stdout (once, 77 s of sweeping came after a printed header). The English board
/// from c1 meets the limit after about 40 s: ignored in the fast suite; the limit itself is
/// tested in the library (`a_breadth_first_search_stops_past_its_limit`).
#[test]
#[ignore]
fn breadth_first_search_beyond_its_limit_is_refused_with_nothing_printed() {
    let out = pegchain()
        .args(["solve", "--board", "english", "--start", "c1", "--method", "bfs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "pegchain: a breadth-first search of this problem met more than 25,000,000 positions (up to \
         symmetry), its limit, and stopped before listing any solution; --method dfs (the default) \
         holds far fewer\n"
    );
}

#[test]
fn solutions_stream_as_one_json_document_and_as_csv_rows() {
    let v = json(&["solve", "--start", "A", "--limit", "3"]);
    assert_eq!(
        (v["command"].as_str(), v["start"].as_str(), v["finish_count"].as_u64()),
        (Some("solve"), Some("A"), Some(1))
    );
    assert_eq!(v["start_pegs"].as_array().unwrap().len(), 14);
    let csv = stdout(&["solve", "--start", "A", "--limit", "3", "--csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[0].starts_with("number,jump_1,jump_2,") && lines[0].ends_with(",jump_13"), "{csv}");
    for (i, solution) in v["solutions"].as_array().unwrap().iter().enumerate() {
        assert_eq!(lines[i + 1], format!("{},{}", i + 1, jumps_of(solution).join(",")));
    }
    let md = stdout(&["solve", "--start", "A", "--limit", "3", "--markdown"]);
    assert!(md.contains("| number | jumps |\n|---:|:---|\n| 1 | D-B-A, "), "{md}");
}
