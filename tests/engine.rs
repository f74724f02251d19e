//! The exact engine against itself: reduced against unreduced runs, forward propagation
//! against backward recursion for every policy, and mapped classes against direct runs.

use pegchain::Policy;
use pegchain::engine::backward;
use pegchain::solitaire::Pegs;
use pegchain::solitaire::board::{SymmetryGroup, builtin};
use pegchain::solitaire::exact::{Analysis, End, EngineConfig, PegChain, Starts};
use pegchain::solitaire::moves::{MoveTable, start_position};
use rug::Rational;
use std::collections::BTreeMap;

fn config(policy: Policy, reduce: bool) -> EngineConfig {
    EngineConfig { policy, reduce, ..EngineConfig::default() }
}

#[test]
fn symmetry_reduced_runs_equal_unreduced_runs() {
    for name in ["triangle4", "triangle5"] {
        let board = builtin(name).unwrap();
        let a = Analysis::new(&board);
        let reduced = a.exact(&Starts::All, &config(Policy::Uniform, true), &mut |_| {}).unwrap();
        let plain = a.exact(&Starts::All, &config(Policy::Uniform, false), &mut |_| {}).unwrap();
        for (r, p) in reduced.starts.iter().zip(&plain.starts) {
            assert_eq!(r.hole, p.hole);
            assert_eq!(r.pegs_left, p.pegs_left, "{name} start {}", r.hole);
            assert_eq!(r.finish, p.finish, "{name} start {}", r.hole);
            assert_eq!(r.finish_in_start, p.finish_in_start);
            assert_eq!(r.positions.raw, p.positions.raw, "raw positions, {name} start {}", r.hole);
            assert_eq!(r.positions.up_to_symmetry, p.positions.up_to_symmetry);
        }
        assert_eq!(reduced.random_start, plain.random_start);
        let reduced = a.count(&Starts::All, &config(Policy::Uniform, true), &mut |_| {}).unwrap();
        let plain = a.count(&Starts::All, &config(Policy::Uniform, false), &mut |_| {}).unwrap();
        for (r, p) in reduced.starts.iter().zip(&plain.starts) {
            assert_eq!(r.games_by_pegs_left, p.games_by_pegs_left);
            assert_eq!(r.wins_by_finish, p.wins_by_finish);
        }
    }
}

#[test]
fn every_hole_evaluated_directly_equals_its_class_representative_mapped() {
    let board = builtin("triangle5").unwrap();
    let a = Analysis::new(&board);
    let mapped = a.exact(&Starts::All, &EngineConfig::default(), &mut |_| {}).unwrap();
    for s in &mapped.starts {
        let direct = a.exact(&Starts::Holes(vec![s.hole]), &EngineConfig::default(), &mut |_| {}).unwrap();
        assert_eq!(direct.starts[0].finish, s.finish, "start {}", s.hole);
        assert_eq!(direct.starts[0].pegs_left, s.pegs_left);
    }
}

#[test]
fn forward_propagation_equals_backward_recursion_for_every_policy() {
    let board = builtin("triangle5").unwrap();
    let moves = MoveTable::new(&board);
    let trivial = SymmetryGroup::trivial(15);
    let a = Analysis::new(&board);
    for policy in pegchain::solitaire::policy::POLICIES {
        let forward = a.exact(&Starts::All, &config(policy, true), &mut |_| {}).unwrap();
        for s in forward.starts.iter().filter(|s| [0, 1, 3, 4].contains(&s.hole)) {
            let chain = PegChain::new(&moves, policy, &trivial);
            let back = backward::absorption(&chain, start_position(&board, s.hole), End::of);
            let mut pegs: BTreeMap<u32, Rational> = BTreeMap::new();
            for (end, p) in &back {
                *pegs.entry(end.pegs()).or_default() += p;
            }
            assert_eq!(pegs, s.pegs_left, "{policy} start {}", s.hole);
            let finish_in_start = back.get(&End::Finish(s.hole)).cloned().unwrap_or_default();
            assert_eq!(finish_in_start, s.finish_in_start);
        }
    }
}

#[test]
fn policies_give_different_answers_on_the_15_hole_board() {
    let board = builtin("triangle5").unwrap();
    let a = Analysis::new(&board);
    let win = |p| a.exact(&Starts::All, &config(p, true), &mut |_| {}).unwrap().random_start.unwrap();
    let (u, pf, hf) = (win(Policy::Uniform), win(Policy::PegFirst), win(Policy::HoleFirst));
    assert!(u != pf && u != hf && pf != hf);
}

#[test]
fn reachable_positions_of_the_tip_start() {
    let board = builtin("triangle5").unwrap();
    let a = Analysis::new(&board);
    let r = a.count(&Starts::Holes(vec![0]), &EngineConfig::default(), &mut |_| {}).unwrap();
    let p = &r.starts[0].positions;
    // Independently: a plain depth-first walk over raw positions.
    let moves = MoveTable::new(&board);
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![start_position(&board, 0)];
    while let Some(pos) = stack.pop() {
        if seen.insert(pos) {
            stack.extend(moves.legal(pos).map(|j| moves.apply(pos, j)));
        }
    }
    assert_eq!(p.raw, seen.len() as u64);
    let group = SymmetryGroup::of_board(&board);
    let classes: std::collections::HashSet<Pegs> = seen.iter().map(|&s| group.canonical(s)).collect();
    assert_eq!(p.up_to_symmetry, classes.len() as u64);
    assert_eq!(p.by_layer.iter().map(|l| l.1).sum::<u64>(), p.raw);
}

#[test]
fn a_board_beyond_the_memory_budget_is_refused_before_it_is_built() {
    let board = builtin("triangle10").unwrap();
    let a = Analysis::new(&board);
    let cfg = EngineConfig { memory_budget: Some(50_000_000), ..EngineConfig::default() };
    let err = a.exact(&Starts::Holes(vec![0]), &cfg, &mut |_| {}).unwrap_err();
    assert!(matches!(err, pegchain::Error::TooLarge { .. }), "{err}");
}

/// A run of several starts numbers its evaluations in its layers' reports: one per start
/// class under symmetry (triangle5: 4 classes, 15 holes), one per hole without it, each
/// start's layers under its own number; a start alone is not numbered.
#[test]
fn a_run_of_several_starts_numbers_each_start_in_its_reports() {
    use pegchain::solitaire::exact::Stage;
    let board = builtin("triangle5").unwrap();
    let a = Analysis::new(&board);
    for (reduce, evaluations) in [(true, 4), (false, 15)] {
        let mut seen: Vec<(u8, Option<(usize, usize)>)> = Vec::new();
        let mut report = |p: &pegchain::solitaire::exact::Progress| {
            let Stage::Start(hole) = p.stage else { panic!("a forward engine's report") };
            if seen.last() != Some(&(hole, p.start)) {
                seen.push((hole, p.start));
            }
        };
        a.count(&Starts::All, &config(Policy::Uniform, reduce), &mut report).unwrap();
        let numbers: Vec<Option<(usize, usize)>> = seen.iter().map(|&(_, start)| start).collect();
        let expected: Vec<Option<(usize, usize)>> =
            (1..=evaluations).map(|k| Some((k, evaluations))).collect();
        assert_eq!(numbers, expected, "reduce {reduce}: {seen:?}");
    }
    let mut alone = Vec::new();
    a.exact(&Starts::Holes(vec![4]), &EngineConfig::default(), &mut |p| alone.push(p.start)).unwrap();
    assert!(!alone.is_empty() && alone.iter().all(|&s| s == Some((1, 1))), "{alone:?}");
}
