//! Fuzzing the parsers in process: board files (seed 002's JSON with its two CSVs, and
//! pictures) and race rules files, mutated from the shipped files in data/.
//!
//! Every case must end in `Ok` or in an error of one line, never a panic; a board that
//! loads must have its symmetry group found and be drawn (both bounded by construction:
//! the search stops past its limits, names and rows are capped when the file is read).
//! Every case stays under a fixed time (`CASE_TIME`) and a fixed memory cap (`CASE_MEMORY`,
//! the peak of the bytes its thread holds, counted by this binary's allocator).
//! The suite runs 300 cases per target; `PEGCHAIN_FUZZ_CASES` asks for more, and
//! `scripts/fuzz.sh SECONDS` loops them for a while. Inputs worth keeping go to
//! tests/corpus/, which `corpus_files_keep_the_contract` runs through the binary.

mod support;
use pegchain::SymmetryGroup;
use pegchain::race::Rules;
use pegchain::solitaire::board::{Board, builtin};
use pegchain::solitaire::files::{picture, seed002};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The most time one case may take.
const CASE_TIME: Duration = Duration::from_secs(2);
/// The most memory one case may hold at once.
const CASE_MEMORY: isize = 256 << 20;

/// The system allocator, counting the bytes each thread holds and their peak: the cases of
/// one target run on one thread, while other targets run on theirs.
struct Counting;

thread_local! {
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(bytes: isize) {
    // `try_with`: a thread being torn down has no counters left, and must still free.
    let _ = HELD.try_with(|held| {
        held.set(held.get() + bytes);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(held.get())));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        count(-(layout.size() as isize));
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, size) };
        if !q.is_null() {
            count(size as isize - layout.size() as isize);
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `case`, and returns what it returned with the most memory it held above what was
/// held before it, and its time.
fn measured<T>(case: impl FnOnce() -> T) -> (T, isize, Duration) {
    let before = HELD.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let started = Instant::now();
    let out = case();
    (out, PEAK.with(Cell::get) - before, started.elapsed())
}

/// Cases per target: 300 by default, `PEGCHAIN_FUZZ_CASES` otherwise.
fn cases() -> u32 {
    std::env::var("PEGCHAIN_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

/// The seed of the inputs drawn: `PEGCHAIN_FUZZ_SEED`, 0 by default, so that the suite draws
/// the same inputs on every machine and every run (CI is not red by the luck of a draw);
/// scripts/fuzz.sh draws a new seed every round and prints it with a failure.
fn seed() -> u64 {
    std::env::var("PEGCHAIN_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// One change to a text.
#[derive(Clone, Debug)]
enum Mutation {
    /// Replaces the byte at (index mod length) by this byte.
    Flip(usize, u8),
    DeleteLine(usize),
    DuplicateLine(usize),
    /// Inserts the text at (index mod length), on a char boundary.
    Insert(usize, String),
    /// Replaces the line by an empty one.
    EmptyLine(usize),
    /// Replaces the (index mod count)-th number by the text: keeps JSON and CSV valid, so
    /// the checks behind the syntax are reached.
    Number(usize, String),
    /// Removes the numbers of line (index mod lines), keeping its commas: in an adjacency
    /// CSV, a hole in no jump.
    ClearNumbers(usize),
}

/// Numbers that sit on or beyond a limit, or name holes that exist.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..70).prop_map(|n| n.to_string()),
        Just(String::new()),
        Just("-1".to_string()),
        Just("4294967296".to_string()),
        Just("18446744073709551616".to_string()),
        Just("1e308".to_string()),
        Just("0.5".to_string()),
    ]
}

/// Texts that found faults or sit on a limit: huge and negative numbers, long names.
fn nasty() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("18446744073709551616".to_string()),
        Just("-1".to_string()),
        Just("1e308".to_string()),
        Just("99999999999".to_string()),
        Just("NaN".to_string()),
        Just(",,,,,,,,,,,,".to_string()),
        Just("\"".to_string()),
        Just("\u{7}".to_string()),
        (1usize..80).prop_map(|n| "x".repeat(n)),
        Just("y".repeat(70_000)),
        Just(" ".repeat(4000)),
        "[ -~]{0,12}",
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        1 => any::<usize>().prop_map(Mutation::DeleteLine),
        1 => any::<usize>().prop_map(Mutation::DuplicateLine),
        1 => (any::<usize>(), nasty()).prop_map(|(i, s)| Mutation::Insert(i, s)),
        1 => any::<usize>().prop_map(Mutation::EmptyLine),
        3 => (any::<usize>(), number()).prop_map(|(i, s)| Mutation::Number(i, s)),
        1 => any::<usize>().prop_map(Mutation::ClearNumbers),
    ]
}

/// `text` with `m` applied (as valid UTF-8: the reader refuses anything else).
fn mutate(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let n = lines.len();
    match m {
        Mutation::Flip(i, b) if !text.is_empty() => {
            let mut bytes = text.as_bytes().to_vec();
            let len = bytes.len();
            bytes[i % len] = *b;
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Mutation::Flip(..) => text.to_string(),
        Mutation::DeleteLine(i) => {
            lines.remove(i % n);
            lines.join("\n")
        }
        Mutation::DuplicateLine(i) => {
            lines.insert(i % n, lines[i % n]);
            lines.join("\n")
        }
        Mutation::EmptyLine(i) => {
            lines[i % n] = "";
            lines.join("\n")
        }
        Mutation::Number(i, s) => replace_number(text, *i, s),
        Mutation::ClearNumbers(i) => {
            let cleared: String = lines[i % n].chars().filter(|c| !c.is_ascii_digit() && *c != '.').collect();
            lines[i % n] = &cleared;
            lines.join("\n")
        }
        Mutation::Insert(i, s) => {
            let mut at = i % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            format!("{}{s}{}", &text[..at], &text[at..])
        }
    }
}

/// `text` with its (i mod count)-th run of digits replaced by `by`.
fn replace_number(text: &str, i: usize, by: &str) -> String {
    let bytes = text.as_bytes();
    let runs: Vec<(usize, usize)> = (0..bytes.len())
        .filter(|&k| bytes[k].is_ascii_digit() && (k == 0 || !bytes[k - 1].is_ascii_digit()))
        .map(|k| (k, (k..bytes.len()).find(|&e| !bytes[e].is_ascii_digit()).unwrap_or(bytes.len())))
        .collect();
    if runs.is_empty() {
        return text.to_string();
    }
    let (start, end) = runs[i % runs.len()];
    format!("{}{by}{}", &text[..start], &text[end..])
}

fn shipped(path: &str) -> String {
    std::fs::read_to_string(support::data(path)).unwrap()
}

const BOARDS: [&str; 9] = [
    "triangle4",
    "triangle5",
    "triangle6",
    "triangle7",
    "triangle8",
    "triangle9",
    "triangle10",
    "english",
    "european",
];

/// A parser's verdict: an `Ok` value, or an error of one line.
fn one_line<T>(result: Result<T, pegchain::Error>, input: &str) -> Result<Option<T>, TestCaseError> {
    match result {
        Ok(v) => Ok(Some(v)),
        Err(e) => {
            let message = e.to_string();
            prop_assert!(!message.contains('\n'), "{message:?} for {input:?}");
            prop_assert!(!message.is_empty());
            Ok(None)
        }
    }
}

/// A loaded board has its symmetry group found and is drawn (within the case's limits).
fn usable(board: &Board) -> Result<(), TestCaseError> {
    let group = SymmetryGroup::of_board(board);
    prop_assert!(group.order() >= 1);
    let drawing = board.draw_position(board.full());
    prop_assert!(drawing.lines().count() >= 1);
    Ok(())
}

/// Runs `test` on `cases()` inputs from `strategy` (`test` says whether the input was
/// accepted); prints how many ran and how many were accepted (fuzz.sh adds these up).
fn run<S: Strategy>(target: &str, strategy: S, test: impl Fn(S::Value) -> Result<bool, TestCaseError>) {
    let config = Config { cases: cases(), failure_persistence: None, ..Config::default() };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed().to_le_bytes());
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    let accepted = AtomicUsize::new(0);
    let most = std::sync::Mutex::new((0isize, Duration::ZERO));
    let result = runner.run(&strategy, |input| {
        let (verdict, memory, time) = measured(|| test(input));
        prop_assert!(memory <= CASE_MEMORY, "a case held {memory} bytes, over {CASE_MEMORY}");
        prop_assert!(time <= CASE_TIME, "a case took {time:?}, over {CASE_TIME:?}");
        let mut most = most.lock().unwrap();
        *most = (most.0.max(memory), most.1.max(time));
        if verdict? {
            accepted.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("fuzz target {target} (PEGCHAIN_FUZZ_SEED={}): {e}", seed());
    }
    let (memory, time) = *most.lock().unwrap();
    println!(
        "fuzz target {target}: {} cases, {} accepted; the largest case held {} KB, the slowest took {} ms",
        cases(),
        accepted.into_inner(),
        memory / 1024,
        time.as_millis()
    );
}

#[test]
fn fuzz_seed002_board_files() {
    let strategy = (0..BOARDS.len(), 0..3usize, prop::collection::vec(mutation(), 1..4));
    run("seed002", strategy, |(board, file, mutations)| {
        let name = BOARDS[board];
        let mut files: Vec<String> = ["json", "adjacency.csv", "layout.csv"]
            .iter()
            .map(|ext| shipped(&format!("boards/{name}.{ext}")))
            .collect();
        for m in &mutations {
            files[file] = mutate(&files[file], m);
        }
        let named: HashMap<String, String> = [
            (format!("{name}.adjacency.csv"), files[1].clone()),
            (format!("{name}.layout.csv"), files[2].clone()),
        ]
        .into();
        let read = |p: &Path| {
            let key = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            named.get(&key).cloned().ok_or_else(|| "cannot read it: not found".to_string())
        };
        let path = format!("data/boards/{name}.json");
        let parsed = seed002::parse_with(Path::new(&path), &files[0], &read);
        let parsed = one_line(parsed, &files[file])?;
        if let Some(f) = &parsed {
            usable(&f.board)?;
        }
        Ok(parsed.is_some())
    });
}

#[test]
fn fuzz_pictures() {
    let strategy = (0..BOARDS.len(), prop::collection::vec(mutation(), 1..4));
    run("picture", strategy, |(board, mutations)| {
        let mut text = shipped(&format!("boards/{}.txt", BOARDS[board]));
        for m in &mutations {
            text = mutate(&text, m);
        }
        let parsed = one_line(picture::parse(Path::new("board.txt"), &text), &text)?;
        if let Some(f) = &parsed {
            usable(&f.board)?;
        }
        Ok(parsed.is_some())
    });
}

#[test]
fn fuzz_race_rules() {
    let strategy = (0..2usize, prop::collection::vec(mutation(), 1..4));
    run("rules", strategy, |(file, mutations)| {
        let mut text = shipped(["race/swine-butcher.json", "race/distracted-butcher.json"][file]);
        for m in &mutations {
            text = mutate(&text, m);
        }
        let parsed = one_line(Rules::from_json(&text, "rules.json"), &text)?;
        if let Some(rules) = &parsed {
            prop_assert!(rules.faces.iter().map(|f| f.weight).sum::<u64>() == rules.total_weight);
        }
        Ok(parsed.is_some())
    });
}

/// A chain a parser accepted is solved (where it ends), within the case's limits.
fn solvable(chain: &pegchain::engine::explicit::ExplicitChain) -> Result<(), TestCaseError> {
    use pegchain::engine::explicit::questions::ends;
    if chain.states() <= 2_000 {
        let e = ends(chain, &pegchain::Cancel::new());
        prop_assert!(e.is_ok(), "{:?}", e.err());
        let e = e.expect("solved");
        let total: rug::Rational = e.probability.iter().sum();
        prop_assert!(total == 1, "the ends add up to {total}");
    }
    Ok(())
}

/// The memory budget the chain parsers are given in the fuzzing: a declared size past it
/// is refused before anything is allocated.
const CHAIN_BUDGET: Option<u64> = Some(64 << 20);

fn chain_error<T>(result: Result<T, pegchain::formats::FormatError>) -> Result<T, pegchain::Error> {
    result.map_err(|e| pegchain::Error::Invalid(e.to_string()))
}

#[test]
fn fuzz_drn() {
    let herman = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chains/herman5.drn"),
    )
    .unwrap();
    let craps = pegchain::formats::drn::write_drn(&pegchain::games::classic::craps());
    let strategy = (0..2usize, prop::collection::vec(mutation(), 1..4));
    run("drn", strategy, |(file, mutations)| {
        let mut text = [&herman, &craps][file].clone();
        for m in &mutations {
            text = mutate(&text, m);
        }
        let parsed = one_line(chain_error(pegchain::formats::drn::parse_drn(&text, CHAIN_BUDGET)), &text)?;
        if let Some(chain) = &parsed {
            solvable(chain)?;
        }
        Ok(parsed.is_some())
    });
}

#[test]
fn fuzz_prism_files() {
    use pegchain::formats::prism::{PrismFiles, parse_prism, write_prism};
    let game = pegchain::games::build("chutes-and-ladders", &Default::default()).unwrap();
    let files = write_prism(&game.chain, Some("turns"));
    let strategy = (0..3usize, prop::collection::vec(mutation(), 1..4));
    run("prism", strategy, |(part, mutations)| {
        let mut f: PrismFiles = files.clone();
        let text = match part {
            0 => &mut f.tra,
            1 => f.lab.as_mut().unwrap(),
            _ => f.srew.get_or_insert_with(|| "82 1\n0 1\n".to_string()),
        };
        for m in &mutations {
            *text = mutate(text, m);
        }
        let input = text.clone();
        let result =
            parse_prism(&f, "turns", CHAIN_BUDGET).map_err(|e| pegchain::Error::Invalid(e.error.to_string()));
        let parsed = one_line(result, &input)?;
        if let Some(chain) = &parsed {
            solvable(chain)?;
        }
        Ok(parsed.is_some())
    });
}

#[test]
fn fuzz_board_game_rules() {
    use pegchain::games::board::{BoardRules, one_player};
    let strategy = prop::collection::vec(mutation(), 1..4);
    run("board_game", strategy, |mutations| {
        let mut text = shipped("games/chutes-and-ladders.txt");
        for m in &mutations {
            text = mutate(&text, m);
        }
        let parsed = one_line(BoardRules::parse(&text).map_err(pegchain::Error::Invalid), &text)?;
        if let Some(rules) = &parsed {
            let chain = one_line(one_player(rules), &text)?;
            if let Some(chain) = &chain {
                solvable(chain)?;
            }
        }
        Ok(parsed.is_some())
    });
}

/// Positions and moves as `coach`, `exact --position`, `--moves` and the coach page's API read
/// them: hole names, jumps, separators and junk, on the 15-hole triangle and the English board;
/// an accepted position of the triangle is then coached (every jump's exact odds).
#[test]
fn fuzz_positions_and_moves() {
    use pegchain::solitaire::coach::Coach;
    use pegchain::solitaire::position::{parse_position, play};
    let word = prop_oneof![
        "[A-Oa-g1-7]{1,2}".prop_map(|s| s),
        Just("F-C-A".to_string()),
        Just("D-E-F".to_string()),
        Just("A-B-D".to_string()),
        Just("d2-d4".to_string()),
        Just("-".to_string()),
        Just(".".to_string()),
        nasty(),
    ];
    let text =
        (prop::collection::vec(word, 0..20), prop_oneof![Just(","), Just(" "), Just("\n"), Just(", ")])
            .prop_map(|(words, sep)| words.join(sep));
    let boards = [builtin("triangle5").unwrap(), builtin("english").unwrap()];
    run("positions", (text, 0..2usize, 0..15u8), |(text, b, start)| {
        let board = &boards[b];
        let position = one_line(parse_position(board, &text), &text)?;
        let played = one_line(play(board, start, &text), &text)?;
        if b == 0 {
            for pos in position.iter().chain(played.iter()) {
                let advice = Coach::new(board, pegchain::Policy::Uniform).advise(*pos);
                prop_assert!(advice.is_ok(), "{text:?}");
            }
        }
        Ok(position.is_some() || played.is_some())
    });
}

/// Every file in tests/corpus/ (inputs that once crashed, hung or sit on a limit) goes
/// through the binary under a 4 GB address-space limit (as the fuzzing that found them ran):
/// exit code 0 or 2, at most one line on stderr, no panic or abort, within a time limit. Boards are `.json` (not `.rules.json`) and `.txt`; rules are `.rules.json`.
#[test]
fn corpus_files_keep_the_contract() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut ran = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.display().to_string();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Files are written only for an input that loads: a refused one leaves `out` empty.
        let dir = support::scratch(&format!("corpus-{name}"));
        let out_dir = dir.display().to_string();
        let svg = dir.join("grid.svg").display().to_string();
        let runs: Vec<Vec<&str>> = if name.ends_with(".rules.json") {
            vec![vec!["race", "--rules", &file], vec!["race", "--rules", &file, "--grid", "--svg", &svg]]
        } else if name.ends_with(".json") || name.ends_with(".txt") {
            vec![
                vec!["show", "--board", &file],
                vec!["count", "--board", &file, "--start", "all"],
                vec!["boards", "--export", &file, "--out", &out_dir],
            ]
        } else {
            continue;
        };
        for args in runs {
            let started = Instant::now();
            let out = assert_cmd::Command::new("bash")
                .args(["-c", "ulimit -v 4000000 && exec \"$@\"", "pegchain", env!("CARGO_BIN_EXE_pegchain")])
                .args(&args)
                .timeout(Duration::from_secs(20))
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(matches!(out.status.code(), Some(0 | 2)), "{args:?}: {:?} {err}", out.status);
            assert!(err.lines().count() <= 1, "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            assert!(started.elapsed() < Duration::from_secs(10), "{args:?}: {:?}", started.elapsed());
            if out.status.code() == Some(2) {
                let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
                assert!(left.is_empty(), "{args:?} failed and left {left:?}");
            }
            ran += 1;
        }
    }
    assert!(ran >= 5, "the corpus holds its files ({ran} runs)");
}
