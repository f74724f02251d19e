//! One `Chain` trait and one sampler for every chain: the engine's random walks on peg
//! solitaire generated jump by jump (an implicit chain), on the explicit chain the same game
//! writes out, and on a chain given as a matrix, each against its exact value; and an
//! explicit chain followed by `explore`, the tool written for implicit chains.

use pegchain::Policy;
use pegchain::engine::explicit::explore::explore;
use pegchain::engine::explicit::questions::reach_probability;
use pegchain::engine::explicit::{ExplicitChain, sample};
use pegchain::engine::walk::{Tally, Verdict, Walks, walk};
use pegchain::engine::{Cancel, Mode, Options, propagate};
use pegchain::games::classic;
use pegchain::solitaire::board::{SymmetryGroup, builtin};
use pegchain::solitaire::chain::{End, PegChain};
use pegchain::solitaire::moves::{MoveTable, start_position};
use pegchain::solitaire::{Pegs, explicit};
use rug::Rational;

/// |z| of a tally's share of reached walks against the exact probability `p`.
fn z(t: &Tally, p: &Rational) -> f64 {
    let p = p.to_f64();
    (t.reached as f64 / t.runs as f64 - p).abs() / (p * (1.0 - p) / t.runs as f64).sqrt()
}

#[test]
fn walks_on_peg_solitaire_agree_with_the_exact_engine_generated_or_written_out() {
    let board = builtin("triangle5").unwrap();
    let (moves, group) = (MoveTable::new(&board), SymmetryGroup::trivial(board.hole_count()));
    let game = PegChain::new(&moves, Policy::Uniform, &group);
    // Hole D (index 3): no symmetry fixes it, so every position is its own state.
    let start = start_position(&board, 3);
    let ends = propagate(&game, start, Mode::Probability, End::of, Options::default()).unwrap();
    let exact: Rational = ends.iter().filter(|(e, _)| e.pegs() == 1).map(|(_, p)| p.clone()).sum();
    assert!(exact > 0 && exact < 1);

    // The implicit chain: positions generated jump by jump.
    let one_peg = |p: Pegs| if p.count() == 1 { Verdict::Reached } else { Verdict::Going };
    let walks = Walks { runs: 300_000, seed: 17, threads: 0, max_steps: 100 };
    let never = Cancel::new();
    let implicit = walk(&game, &[start], one_peg, walks, &never).unwrap();
    assert_eq!(implicit, walk(&game, &[start], one_peg, Walks { threads: 1, ..walks }, &never).unwrap());
    assert!(z(&implicit, &exact) < 4.5, "z = {}", z(&implicit, &exact));
    // Every jump removes a peg: a win takes 13 jumps, no more, no less.
    assert_eq!(
        (implicit.steps, implicit.steps_squared),
        (13 * implicit.reached as u128, 169 * implicit.reached as u128)
    );
    assert_eq!(implicit.cut_short, 0);

    // The same game written out as a matrix, walked through its integer weights.
    let written =
        explicit::chain(&board, 3, Policy::Uniform, (1_000_000, None), &pegchain::Cancel::new()).unwrap();
    let target = written.label_set("one_peg").unwrap();
    let explicit = sample::simulate(&written.weighted().unwrap(), &target, walks, &never).unwrap();
    assert!(z(&explicit, &exact) < 4.5, "z = {}", z(&explicit, &exact));
    assert_eq!(explicit.steps, 13 * explicit.reached as u128);
    // Its exact answer is the engine's.
    assert_eq!(reach_probability(&written, &target, &never).unwrap()[written.initial()[0] as usize], exact);
}

/// The names of the labels `chain` gives `state`.
fn labels_of(chain: &ExplicitChain, state: u32) -> Vec<String> {
    chain
        .labels()
        .iter()
        .filter(|(_, states)| states.contains(&state))
        .map(|(name, _)| name.clone())
        .collect()
}

#[test]
fn a_chain_given_as_a_matrix_is_a_chain_like_any_other() {
    // The pass line of craps has cycles (a point rolled again and again): no rank falls.
    let craps = classic::craps();
    let weighted = craps.weighted().unwrap();
    let (again, _) =
        explore(&weighted, craps.initial(), false, 1_000, &pegchain::Cancel::new(), |s| labels_of(&craps, s))
            .unwrap();
    let win = |chain: &ExplicitChain| chain.label_set("win").unwrap();
    let never = Cancel::new();
    let p = reach_probability(&again, &win(&again), &never).unwrap()[again.initial()[0] as usize].clone();
    assert_eq!(p, Rational::from((244, 495)));
    assert_eq!(p, reach_probability(&craps, &win(&craps), &never).unwrap()[craps.initial()[0] as usize]);

    // The walk on its weights, against the same probability.
    let target = win(&craps);
    let verdict = |s: u32| match (target[s as usize], craps.is_absorbing(s)) {
        (true, _) => Verdict::Reached,
        (false, true) => Verdict::Missed,
        (false, false) => Verdict::Going,
    };
    let walks = Walks { runs: 200_000, seed: 5, threads: 0, max_steps: 1_000_000 };
    let t = walk(&weighted, craps.initial(), verdict, walks, &never).unwrap();
    assert!(z(&t, &p) < 4.5, "z = {}", z(&t, &p));
    assert_eq!(t.cut_short, 0);
}
