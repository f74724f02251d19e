//! `exact --residues K` (numerators modulo K primes a pass, rebuilt by the Chinese remainder
//! theorem) against the default big-number path: the same bytes out, for every start and
//! policy of the small boards, whatever K; the English centre in an ignored test.

mod support;

use support::{fails_with, scratch, stdout_bytes};

fn same_output(board: &str, extra: &[&str], primes: &[&str]) {
    let args = [&["exact", "--board", board, "--start", "all", "--json"], extra].concat();
    let big_numbers = stdout_bytes(&args);
    for k in primes {
        let by_residues = stdout_bytes(&[&args[..], &["--residues", k]].concat());
        assert!(by_residues == big_numbers, "{board} {extra:?} with --residues {k}");
    }
}

#[test]
fn every_start_and_policy_of_triangle5_by_residues_prints_what_the_big_numbers_print() {
    for policy in ["uniform", "peg-first", "hole-first"] {
        same_output("triangle5", &["--policy", policy], &["1", "2", "64"]);
    }
    same_output("triangle5", &["--whole-group"], &["1"]);
    same_output("triangle5", &["--no-symmetry"], &["3"]);
    // A position in the middle of a game.
    let position = ["exact", "--board", "triangle6", "--start", "A", "--moves", "D-B-A,K-G-D", "--json"];
    let big_numbers = stdout_bytes(&position);
    assert!(stdout_bytes(&[&position[..], &["--residues", "1"]].concat()) == big_numbers);
}

#[test]
fn every_start_of_triangle6_by_residues_prints_what_the_big_numbers_print() {
    same_output("triangle6", &[], &["2", "5"]);
}

#[test]
#[ignore = "big board: about a minute (cargo test --release -- --ignored)"]
fn the_english_centre_by_residues_prints_what_the_big_numbers_print() {
    let args = ["exact", "--board", "english", "--start", "d4", "--json", "-q"];
    let big_numbers = stdout_bytes(&args);
    // Two passes of four primes, one of them under a budget that splits steps into rounds.
    assert!(stdout_bytes(&[&args[..], &["--residues", "4"]].concat()) == big_numbers);
    assert!(stdout_bytes(&[&args[..], &["--residues", "4", "--max-memory", "0.6"]].concat()) == big_numbers);
}

#[test]
#[ignore = "big board: a few minutes (cargo test --release -- --ignored)"]
fn every_start_of_triangle7_by_residues_prints_what_the_big_numbers_print() {
    same_output("triangle7", &["-q"], &["3"]);
}

#[test]
fn residues_refuse_what_they_cannot_do_in_one_line_and_touch_no_file() {
    let exact = ["exact", "--board", "triangle5", "--start", "A"];
    for k in ["0", "65"] {
        fails_with(
            &[&exact[..], &["--residues", k]].concat(),
            &format!("--residues takes 1 to 64 primes a pass, not {k}"),
        );
    }
    let dir = scratch("residues");
    let file = dir.join("run.save");
    let file = file.to_str().unwrap();
    fails_with(
        &[&exact[..], &["--residues", "0", "--checkpoint", file]].concat(),
        "--residues takes 1 to 64 primes a pass, not 0",
    );
    assert!(!dir.join("run.save").exists());
    fails_with(&["count", "--board", "triangle5", "--residues", "2"], "--residues");
    fails_with(&[&exact[..], &["--residues", "two"]].concat(), "--residues");
}

/// The progress of a run by residues counts the positions a player sees in its first pass and,
/// in the later passes, which are given those counts, the classes they follow: under the
/// start's stabilizer (triangle5's tip is fixed by one reflection), at least half as many.
#[test]
fn later_passes_by_residues_report_classes_not_positions() {
    use pegchain::solitaire::exact::{Analysis, EngineConfig, Starts};
    let board = pegchain::solitaire::board::builtin("triangle5").unwrap();
    let config = EngineConfig { residues: Some(1), ..EngineConfig::default() };
    let mut layers: Vec<(u32, u32, u64, bool)> = Vec::new();
    let report = Analysis::new(&board)
        .exact(&Starts::Holes(vec![0]), &config, &mut |p| {
            layers.push((p.pass.index, p.pegs, p.positions, p.classes))
        })
        .unwrap();
    let by_layer = &report.starts[0].positions.by_layer;
    let first: Vec<(u32, u64)> = layers.iter().filter(|l| l.0 == 0).map(|l| (l.1, l.2)).collect();
    assert_eq!(first, by_layer.iter().map(|&(pegs, raw, _)| (pegs, raw)).collect::<Vec<_>>());
    assert!(layers.iter().all(|l| l.3 == (l.0 > 0)), "{layers:?}");
    let later: Vec<_> = layers.iter().filter(|l| l.0 == 1).collect();
    assert_eq!(later.len(), first.len());
    for (l, (_, raw)) in later.iter().zip(&first) {
        assert!(l.2 < *raw || *raw == 1, "{l:?} against {raw} positions");
        assert!(2 * l.2 >= *raw, "{l:?} against {raw} positions");
    }
}

/// A run by residues hands the first save of every pass after the first to `keep` as well: a
/// few kilobytes (what the passes before found, one class waiting) from which a run goes on at
/// that pass's start, small enough to carry to another machine. Resumed from each, a run
/// follows only the passes left and reports what the whole run reports; on the command line
/// `--checkpoint FILE` keeps the latest in FILE.pass, which `--resume` takes.
#[test]
fn every_pass_by_residues_begins_from_a_small_save_that_a_run_goes_on_from() {
    use pegchain::solitaire::exact::{Analysis, EngineConfig, Saving, Starts};
    use pegchain::solitaire::saved::Saved;
    let board = pegchain::solitaire::board::builtin("triangle6").unwrap();
    let (analysis, starts) = (Analysis::new(&board), Starts::Holes(vec![0]));
    let whole = format!("{:?}", analysis.exact(&starts, &EngineConfig::default(), &mut |_| ()).unwrap());
    let config = EngineConfig { residues: Some(1), ..EngineConfig::default() };
    let (mut largest, mut kept, mut passes) = (0, Vec::new(), 0);
    let mut save = |bytes: &[u8]| {
        largest = largest.max(bytes.len());
        Ok(())
    };
    let mut keep = |bytes: &[u8]| {
        kept.push(bytes.to_vec());
        Ok(())
    };
    let saving = Saving { resume: None, save: Some(&mut save), keep: Some(&mut keep) };
    let report = analysis.exact_saving(&starts, &config, &mut |p| passes = p.pass.index + 1, saving);
    assert_eq!(format!("{:?}", report.unwrap()), whole);
    assert!(passes >= 3, "{passes} passes");
    assert_eq!(kept.len(), passes as usize - 1);
    for (k, bytes) in kept.iter().enumerate() {
        assert!(
            bytes.len() * 10 < largest,
            "pass {}: {} bytes, the largest save {largest}",
            k + 2,
            bytes.len()
        );
        let mut first_pass = None;
        let saving =
            Saving { resume: Some(Saved::decode(bytes, board.full()).unwrap()), ..Saving::default() };
        let report = analysis.exact_saving(
            &starts,
            &config,
            &mut |p| _ = *first_pass.get_or_insert(p.pass.index),
            saving,
        );
        assert_eq!(first_pass, Some(k as u32 + 1));
        assert_eq!(format!("{:?}", report.unwrap()), whole);
    }

    let args = ["exact", "--board", "triangle6", "--start", "A", "--json", "-q"];
    let file = scratch("pass-start").join("run.checkpoint");
    let file = file.to_str().unwrap();
    let by_residues = [&args[..], &["--residues", "1"]].concat();
    let out = stdout_bytes(&[&by_residues[..], &["--checkpoint", file]].concat());
    assert!(out == stdout_bytes(&args));
    let pass = format!("{file}.pass");
    assert!(stdout_bytes(&[&by_residues[..], &["--resume", &pass]].concat()) == out);
    fails_with(
        &[&args[..], &["--residues", "2", "--resume", &pass]].concat(),
        "it was saved by a run with --residues 1, this one with --residues 2",
    );
}
