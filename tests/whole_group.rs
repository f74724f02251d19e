//! The whole-group method (every start reduced by the board's whole symmetry group, finish
//! holes and positions from `solitaire::whole_group`) against the two methods it replaces:
//! each start reduced by its stabilizer, and no reduction at all. Every figure of every
//! start must agree exactly: probabilities, game counts, finish holes, positions.

use pegchain::Policy;
use pegchain::solitaire::board::builtin;
use pegchain::solitaire::exact::{self, Analysis, CountReport, EngineConfig, ExactReport, Stage, Starts};
use std::path::Path;

mod support;

#[derive(Clone, Copy, Debug)]
enum Method {
    WholeGroup,
    Stabilizer,
    NoSymmetry,
}

fn config(method: Method, policy: Policy) -> EngineConfig {
    let (reduce, reduction) = match method {
        Method::WholeGroup => (true, exact::Reduction::WholeGroup),
        Method::Stabilizer => (true, exact::Reduction::Stabilizer),
        Method::NoSymmetry => (false, exact::Reduction::Stabilizer),
    };
    EngineConfig { policy, reduce, reduction, ..EngineConfig::default() }
}

fn exact(board: &str, method: Method, policy: Policy) -> ExactReport {
    let board = builtin(board).unwrap();
    Analysis::new(&board).exact(&Starts::All, &config(method, policy), &mut |_| {}).unwrap()
}

fn count(board: &str, method: Method) -> CountReport {
    let board = builtin(board).unwrap();
    Analysis::new(&board).count(&Starts::All, &config(method, Policy::Uniform), &mut |_| {}).unwrap()
}

fn same_exact(a: &ExactReport, b: &ExactReport, what: &str) {
    assert_eq!(a.starts.len(), b.starts.len());
    for (x, y) in a.starts.iter().zip(&b.starts) {
        let at = format!("{what}, start {}", x.hole);
        assert_eq!(x.hole, y.hole, "{at}");
        assert_eq!(x.win, y.win, "{at}: P(one peg)");
        assert_eq!(x.pegs_left, y.pegs_left, "{at}: pegs left");
        assert_eq!(x.finish, y.finish, "{at}: finish holes");
        assert_eq!(x.expected_pegs_left, y.expected_pegs_left, "{at}: expected pegs left");
        assert_eq!(x.finish_in_start, y.finish_in_start, "{at}: finish in the start hole");
        assert_eq!(x.positions, y.positions, "{at}: positions");
    }
    assert_eq!(a.random_start, b.random_start, "{what}: random start");
}

fn same_count(a: &CountReport, b: &CountReport, what: &str) {
    assert_eq!(a.starts.len(), b.starts.len());
    for (x, y) in a.starts.iter().zip(&b.starts) {
        let at = format!("{what}, start {}", x.hole);
        assert_eq!(x.games, y.games, "{at}: games");
        assert_eq!(x.games_by_pegs_left, y.games_by_pegs_left, "{at}: games by pegs left");
        assert_eq!(x.wins_by_finish, y.wins_by_finish, "{at}: wins by finish hole");
        assert_eq!(x.positions, y.positions, "{at}: positions");
    }
}

fn all_three_agree(board: &str) {
    for policy in [Policy::Uniform, Policy::PegFirst, Policy::HoleFirst] {
        let whole = exact(board, Method::WholeGroup, policy);
        same_exact(
            &whole,
            &exact(board, Method::Stabilizer, policy),
            &format!("{board} {policy:?} by stabilizer"),
        );
        same_exact(
            &whole,
            &exact(board, Method::NoSymmetry, policy),
            &format!("{board} {policy:?} unreduced"),
        );
    }
    let whole = count(board, Method::WholeGroup);
    same_count(&whole, &count(board, Method::Stabilizer), &format!("{board} count by stabilizer"));
    same_count(&whole, &count(board, Method::NoSymmetry), &format!("{board} count unreduced"));
}

#[test]
fn triangle5_every_start_every_policy_by_all_three_methods() {
    all_three_agree("triangle5");
}

#[test]
fn triangle6_every_start_every_policy_by_all_three_methods() {
    all_three_agree("triangle6");
}

/// The stages a run of `exact` on `board` from `starts` reports, and its report.
fn stages_and_report(board: &str, starts: &Starts, config: &EngineConfig) -> (Vec<Stage>, ExactReport) {
    let board = builtin(board).unwrap();
    let mut stages = Vec::new();
    let report = Analysis::new(&board)
        .exact(starts, config, &mut |p| {
            if !stages.contains(&p.stage) {
                stages.push(p.stage)
            }
        })
        .unwrap();
    (stages, report)
}

#[test]
fn the_pegs_left_of_every_start_come_from_one_pass_where_it_fits_and_pays() {
    // triangle6's starts (no hole is fixed by the whole group, so no start needs the forward
    // engine when the pass of every start's pegs left runs) share their classes 3.7 times over.
    let whole = config(Method::WholeGroup, Policy::Uniform);
    let engine_ran = |stages: &[Stage]| stages.iter().any(|s| matches!(s, Stage::Start(_)));
    let (stages, by_one_pass) = stages_and_report("triangle6", &Starts::All, &whole);
    assert!(stages.contains(&Stage::PegsLeft) && !engine_ran(&stages), "{stages:?}");
    same_exact(&by_one_pass, &exact("triangle6", Method::NoSymmetry, Policy::Uniform), "triangle6 unreduced");
    // 8 MB: below what the pass projects for a round's jumps (12.6 MB), above what the
    // forward engine and the finish holes' backward pass need on triangle5 (on triangle6 the
    // backward pass projects 13.6 MB at its widest).
    let (stages, small_by_one_pass) = stages_and_report("triangle5", &Starts::All, &whole);
    assert!(stages.contains(&Stage::PegsLeft) && !engine_ran(&stages), "{stages:?}");
    let held = EngineConfig { memory_budget: Some(8 << 20), ..whole.clone() };
    let (stages, by_engine) = stages_and_report("triangle5", &Starts::All, &held);
    assert!(!stages.contains(&Stage::PegsLeft) && engine_ran(&stages), "{stages:?}");
    same_exact(&small_by_one_pass, &by_engine, "triangle5 by one pass and by the forward engine");
    // One start shares its classes with no other: the pass would not pay.
    let (stages, alone) = stages_and_report("triangle6", &Starts::Holes(vec![1]), &whole);
    assert!(!stages.contains(&Stage::PegsLeft) && engine_ran(&stages), "{stages:?}");
    assert_eq!(alone.starts[0].win, by_one_pass.starts[1].win, "start B alone and among all");
}

#[test]
#[ignore = "triangle7, every start by three methods: about ten minutes"]
fn triangle7_every_start_by_the_two_methods() {
    let whole = exact("triangle7", Method::WholeGroup, Policy::Uniform);
    same_exact(&whole, &exact("triangle7", Method::Stabilizer, Policy::Uniform), "triangle7 by stabilizer");
    let whole = count("triangle7", Method::WholeGroup);
    same_count(&whole, &count("triangle7", Method::Stabilizer), "triangle7 count by stabilizer");
}

/// `--start all --whole-group` on the English board as the JSON the CLI prints, against the
/// fixture the stabilizer method computed before the whole-group method existed (commit
/// 1e83455): every fraction, count and finish hole of the 33 starts.
fn english_against_fixture(command: &str, fixture: &str) {
    let out = assert_cmd::Command::cargo_bin("pegchain")
        .unwrap()
        .args([command, "--board", "english", "--start", "all", "--whole-group", "--json", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(fixture);
    let expected: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got, expected);
}

#[test]
#[ignore = "the English board, every start: about eight minutes and 10 GB"]
fn english_every_start_equals_the_stabilizer_fixture() {
    english_against_fixture("exact", "english-exact-all-starts.json");
}

#[test]
#[ignore = "the English board, every start, counted: about six minutes and 10 GB"]
fn english_every_start_counted_equals_the_stabilizer_fixture() {
    english_against_fixture("count", "english-count-all-starts.json");
}

/// Either method asked for, or the one chosen as the faster (the whole group, on triangle6),
/// prints the same bytes; the methods exclude each other and `--no-symmetry`.
#[test]
fn the_cli_prints_the_same_bytes_by_either_method() {
    for command in ["exact", "count", "ends"] {
        let args = [command, "--board", "triangle6", "--start", "all", "-q", "--json"];
        let chosen = support::stdout_bytes(&args);
        for method in ["--whole-group", "--stabilizer"] {
            assert_eq!(support::stdout_bytes(&[&args[..], &[method]].concat()), chosen, "{command} {method}");
        }
    }
    for (a, b) in [
        ("--whole-group", "--no-symmetry"),
        ("--stabilizer", "--no-symmetry"),
        ("--whole-group", "--stabilizer"),
    ] {
        support::fails_with(&["exact", a, b], "cannot be used with");
    }
}

/// The faster method is chosen where the starts share their classes (triangle6's), and the
/// stabilizer for a run by residues (which asks for less memory, and the stabilizer's passes
/// by residues give it) or from a save: the stages reported say which ran. (Which boards
/// share enough: `finishes`' tests of the probe.)
#[test]
fn the_faster_method_is_chosen_and_gives_way_to_the_stabilizer_where_it_must() {
    let faster = EngineConfig { reduction: exact::Reduction::Faster, ..EngineConfig::default() };
    let whole_group = |stages: &[Stage]| stages.contains(&Stage::FinishHoles);
    let (stages, chosen) = stages_and_report("triangle6", &Starts::All, &faster);
    assert!(whole_group(&stages), "{stages:?}");
    same_exact(&chosen, &exact("triangle6", Method::Stabilizer, Policy::Uniform), "triangle6 chosen");
    let by_residues = EngineConfig { residues: Some(1), ..faster.clone() };
    let (stages, report) = stages_and_report("triangle6", &Starts::All, &by_residues);
    assert!(!whole_group(&stages), "{stages:?}");
    same_exact(&report, &chosen, "by residues");
    // Saved as it goes: every layer of the stabilizer's starts is saved.
    let (mut saves, mut stages) = (0, Vec::new());
    let mut keep = |_: &[u8]| {
        saves += 1;
        Ok(())
    };
    let saving = exact::Saving { save: Some(&mut keep), ..exact::Saving::default() };
    let board = builtin("triangle6").unwrap();
    let saved =
        Analysis::new(&board).exact_saving(&Starts::All, &faster, &mut |p| stages.push(p.stage), saving);
    same_exact(&saved.unwrap(), &chosen, "saved as it goes");
    assert!(!whole_group(&stages) && saves > 20, "{saves} saves: {stages:?}");
}

/// A start from which no play ends with one peg (triangle4's corners, 21 of the European
/// board's 37 holes) has no finish holes: in a run by residues its positions are counted
/// keeping two layers at a time (`solitaire::whole_group::reach_counts`), and every figure equals the
/// stabilizer method's. A run resumed from a save in its middle counts nothing again: the
/// save carries the positions.
#[test]
fn a_start_that_cannot_end_with_one_peg_is_counted_two_layers_at_a_time_and_resumed_without_counting_again() {
    use pegchain::solitaire::exact::Saving;
    use pegchain::solitaire::saved::Saved;
    let board = builtin("triangle4").unwrap();
    let analysis = Analysis::new(&board);
    let by_residues = EngineConfig { residues: Some(1), ..config(Method::WholeGroup, Policy::Uniform) };
    let (stages, whole) = stages_and_report("triangle4", &Starts::All, &by_residues);
    assert!(stages.contains(&Stage::Classes), "{stages:?}");
    same_exact(&whole, &exact("triangle4", Method::Stabilizer, Policy::Uniform), "triangle4 by stabilizer");
    let corner = whole.starts.iter().find(|s| s.hole == 0).unwrap();
    assert_eq!((corner.win.clone(), corner.positions.raw), (0.into(), 42), "corner A: no win, 42 positions");

    // Saved after every layer of start A, and resumed from a save in the middle of a pass.
    let start_a = Starts::Holes(vec![0]);
    let mut saves: Vec<Vec<u8>> = Vec::new();
    let mut keep = |bytes: &[u8]| {
        saves.push(bytes.to_vec());
        Ok(())
    };
    let saving = Saving { save: Some(&mut keep), ..Saving::default() };
    let uninterrupted = analysis.exact_saving(&start_a, &by_residues, &mut |_| {}, saving).unwrap();
    let saves: Vec<Saved> = saves.iter().map(|bytes| Saved::decode(bytes, board.full()).unwrap()).collect();
    let (counting, engine): (Vec<Saved>, Vec<Saved>) = saves.into_iter().partition(|s| s.counting.is_some());
    assert!(engine.len() > 4, "{} saves", engine.len());
    let middle = engine.into_iter().nth(4).unwrap();
    assert!(middle.under_way.as_ref().is_some_and(|run| run.positions.raw == 42));
    let mut stages = Vec::new();
    let saving = Saving { resume: Some(middle), ..Saving::default() };
    let resumed =
        analysis.exact_saving(&start_a, &by_residues, &mut |p| stages.push(p.stage), saving).unwrap();
    assert!(!stages.contains(&Stage::Classes), "counted again: {stages:?}");
    same_exact(&resumed, &uninterrupted, "triangle4 from A, resumed");

    // The count is saved after each of its layers too (on the European board it takes over
    // an hour before the engine saves anything), and a run stopped in it goes on counting
    // from its last counted layer.
    let layers = &uninterrupted.starts[0].positions.by_layer;
    assert_eq!(counting.len(), layers.len());
    for (k, save) in counting.into_iter().enumerate() {
        assert_eq!(save.counting.as_ref().unwrap().positions.by_layer[..], layers[..=k]);
        let mut counted = Vec::new();
        let saving = Saving { resume: Some(save), ..Saving::default() };
        let mut seen = |p: &pegchain::solitaire::exact::Progress| {
            if p.stage == Stage::Classes {
                counted.push(p.pegs);
            }
        };
        let resumed = analysis.exact_saving(&start_a, &by_residues, &mut seen, saving).unwrap();
        let after: Vec<u32> = layers[k..].iter().map(|l| l.0).collect();
        assert_eq!(counted, after, "resumed from the count's save of layer {k}");
        same_exact(&resumed, &uninterrupted, "triangle4 from A, resumed in its count");
    }
}

/// Two starts counted alone (the 4-by-4 square's corner and centre: neither can end with
/// one peg, by their position classes): each count is saved with the counts finished before
/// it, and the engine's saves with the counts still waiting, so a run resumed from any save
/// counts nothing twice and ends as the uninterrupted run does (which equals the stabilizer
/// method's). The edge, which can win, goes through the pass that keeps its layers, which a
/// resumed run makes again.
#[test]
fn a_run_of_several_counted_starts_resumed_from_any_save_counts_nothing_twice() {
    use pegchain::solitaire::exact::{Progress, Saving};
    use pegchain::solitaire::saved::Saved;
    let dir = support::scratch("several-counted-starts");
    let path = dir.join("square4.txt");
    std::fs::write(&path, "lattice: square\no o o o\no o o o\no o o o\no o o o\n").unwrap();
    let board = pegchain::solitaire::files::load(&path).unwrap().board;
    let analysis = Analysis::new(&board);
    let by_residues = EngineConfig { residues: Some(1), ..config(Method::WholeGroup, Policy::Uniform) };
    let by_stabilizer = config(Method::Stabilizer, Policy::Uniform);
    let run = |resume: Option<Saved>| {
        let mut layers = 0;
        let mut seen = |p: &Progress| layers += usize::from(p.stage == Stage::Classes);
        let mut saves: Vec<Vec<u8>> = Vec::new();
        let mut keep = |bytes: &[u8]| {
            saves.push(bytes.to_vec());
            Ok(())
        };
        let saving = Saving { resume, save: Some(&mut keep), ..Saving::default() };
        let report = analysis.exact_saving(&Starts::All, &by_residues, &mut seen, saving).unwrap();
        (report, layers, saves)
    };
    let (whole, layers, saves) = run(None);
    let stabilizer = analysis.exact(&Starts::All, &by_stabilizer, &mut |_| {}).unwrap();
    same_exact(&whole, &stabilizer, "the 4-by-4 square by the stabilizer method");
    let layers_of = |hole: u8| whole.starts.iter().find(|s| s.hole == hole).unwrap().positions.by_layer.len();

    let saves: Vec<Saved> = saves.iter().map(|bytes| Saved::decode(bytes, board.full()).unwrap()).collect();
    let mut counted: Vec<u8> = saves.iter().filter_map(|s| s.counting.as_ref().map(|c| c.hole)).collect();
    counted.dedup();
    assert_eq!(counted, [0, 5], "the corner A and the centre F, counted in turn");
    // The pass that keeps its layers, once for the edge, made again by every resumed run.
    let kept_layers = layers - layers_of(0) - layers_of(5);
    assert_eq!(kept_layers, layers_of(1), "the edge's layers");
    let engine_saves = saves.iter().filter(|s| s.under_way.is_some()).count();
    assert!(engine_saves > 10, "{engine_saves} saves of the engine");
    for (k, save) in saves.into_iter().enumerate() {
        // What the save leaves to count: the rest of the count under way (from its last
        // layer, reported again) and the counts after it, or nothing once the engine runs.
        let left = match &save.counting {
            Some(c) => {
                let before: Vec<u8> = save.counted.iter().map(|(h, _)| *h).collect();
                let after = if c.hole == 5 { 0 } else { layers_of(5) };
                assert_eq!(before, if c.hole == 5 { vec![0] } else { vec![] }, "save {k}");
                layers_of(c.hole) - c.positions.by_layer.len() + 1 + after
            }
            None => 0,
        };
        // The edge's pass is made again unless the edge was evaluated whole.
        let kept_again = if save.is_finished(1) { 0 } else { kept_layers };
        let (resumed, layers, _) = run(Some(save));
        assert_eq!(layers, kept_again + left, "layers counted again after save {k}");
        same_exact(&resumed, &whole, &format!("resumed from save {k}"));
    }
}

/// A run that chose the whole group as the faster, gave way to the stabilizer when the whole
/// group's passes were refused for memory, and was refused again there names the ways out
/// that are left: not the whole group, refused at that budget already. triangle7's starts
/// share their classes enough for the probe to choose the whole group; at 300 MB the pass
/// keeping every layer is refused, and then the engine's step.
#[test]
fn a_refusal_after_the_whole_group_gave_way_does_not_offer_it_again() {
    let args = ["count", "--board", "triangle7", "--start", "all", "--max-memory", "0.3", "-q"];
    let words = |args: &[&str]| {
        let out = support::pegchain().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let fell_back = words(&args);
    assert!(fell_back.contains("too large for the exact engine"), "{fell_back}");
    assert!(fell_back.contains("--spill DIR may need less memory"), "{fell_back}");
    assert!(!fell_back.contains("--whole-group"), "{fell_back}");
    let whole_group = words(&[&args[..], &["--whole-group"]].concat());
    assert!(whole_group.contains("leaving out --whole-group may need less memory"), "{whole_group}");
}

/// The starts the whole group's passes answer whole are saved as soon as the passes end: a
/// run asked to save and answered by them alone (every start of triangle6) leaves one save,
/// of every class finished, and a run resumed from it prints the same without the passes.
#[test]
fn the_whole_groups_answers_are_saved_once_its_passes_end() {
    use pegchain::solitaire::exact::{Progress, Saving};
    use pegchain::solitaire::saved::Saved;
    let board = builtin("triangle6").unwrap();
    let analysis = Analysis::new(&board);
    let whole_group = config(Method::WholeGroup, Policy::Uniform);
    let mut passes = 0;
    let mut saves: Vec<Vec<u8>> = Vec::new();
    let mut keep = |bytes: &[u8]| {
        saves.push(bytes.to_vec());
        Ok(())
    };
    let saving = Saving { save: Some(&mut keep), ..Saving::default() };
    let mut seen = |p: &Progress| passes += usize::from(p.stage == Stage::Classes);
    let uninterrupted = analysis.exact_saving(&Starts::All, &whole_group, &mut seen, saving).unwrap();
    assert!(passes > 0, "the first run makes the passes");
    assert_eq!(saves.len(), 1, "one save, when the passes end");
    let save = Saved::decode(&saves[0], board.full()).unwrap();
    let mut finished: Vec<u8> = save.finished.iter().map(|f| f.hole).collect();
    finished.sort_unstable();
    let names: Vec<&str> = finished.iter().map(|&h| board.hole_name(h)).collect();
    assert_eq!(names, ["A", "B", "D", "E", "H"], "a start of each of triangle6's five classes");
    assert!(save.under_way.is_none());

    let mut steps = 0;
    let mut seen = |_: &Progress| steps += 1;
    let saving = Saving { resume: Some(save), ..Saving::default() };
    let resumed = analysis.exact_saving(&Starts::All, &whole_group, &mut seen, saving).unwrap();
    assert_eq!(steps, 0, "the resumed run makes no pass and takes no step");
    same_exact(&resumed, &uninterrupted, "triangle6 resumed from the whole group's save");
    same_exact(&resumed, &exact("triangle6", Method::Stabilizer, Policy::Uniform), "triangle6, stabilizer");
}
