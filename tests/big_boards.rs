//! The big boards: the English cross's reachable positions layer by layer against the
//! published sequence (OEIS A112737), fast on the first layers; the whole board in ignored
//! tests (`cargo test --release -- --ignored`, about a minute each).

use pegchain::Policy;
use pegchain::engine::{Layer, Mode, Options, propagate};
use pegchain::solitaire::Pegs;
use pegchain::solitaire::board;
use pegchain::solitaire::board::{SymmetryGroup, builtin};
use pegchain::solitaire::exact::{Analysis, End, EngineConfig, PegChain, Reduction, Starts};
use pegchain::solitaire::moves::{MoveTable, start_position};
use rug::{Integer, Rational};

/// OEIS A112737: distinct positions after n jumps on the English board, centre start.
const A112737: [u64; 32] = [
    1, 4, 12, 60, 296, 1338, 5648, 21842, 77559, 249690, 717788, 1834379, 4138302, 8171208, 14020166,
    20773236, 26482824, 28994876, 27286330, 22106348, 15425572, 9274496, 4792664, 2120101, 800152, 255544,
    68236, 14727, 2529, 334, 32, 5,
];

/// Raw positions per layer from the centre, following one class per symmetry.
fn english_layers(until_pegs: u32) -> Vec<u64> {
    let en = builtin("english").unwrap();
    let centre = en.find_hole("d4").unwrap();
    let group = SymmetryGroup::of_board(&en);
    let moves = MoveTable::new(&en);
    let chain = PegChain::new(&moves, Policy::Uniform, &group);
    let mut raw = Vec::new();
    let mut on_layer = |layer: &Layer<'_, Pegs>| {
        raw.push(layer.states.iter().map(|s| group.orbit_size(*s)).sum());
        Ok(())
    };
    let options =
        Options { on_layer: Some(&mut on_layer), until_rank: Some(until_pegs), ..Options::default() };
    propagate(&chain, start_position(&en, centre), Mode::Probability, End::of, options).unwrap();
    raw
}

#[test]
fn english_first_layers_match_the_published_counts() {
    // 32 pegs at the start; the layer of 24 pegs is 8 jumps in.
    let raw = english_layers(24);
    assert_eq!(raw, A112737[..9]);
}

#[test]
fn the_same_first_layers_without_symmetry() {
    let en = builtin("english").unwrap();
    let centre = en.find_hole("d4").unwrap();
    let moves = MoveTable::new(&en);
    let trivial = SymmetryGroup::trivial(33);
    let chain = PegChain::new(&moves, Policy::Uniform, &trivial);
    let mut raw = Vec::new();
    let mut on_layer = |layer: &Layer<'_, Pegs>| {
        raw.push(layer.states.len() as u64);
        Ok(())
    };
    let options = Options { on_layer: Some(&mut on_layer), until_rank: Some(26), ..Options::default() };
    propagate(&chain, start_position(&en, centre), Mode::Paths, End::of, options).unwrap();
    assert_eq!(raw, A112737[..7]);
}

#[test]
fn triangle6_from_a_corner_reduced_and_unreduced_agree() {
    let t6 = builtin("triangle6").unwrap();
    let a = Analysis::new(&t6);
    let run = |reduce| {
        let cfg = EngineConfig { reduce, ..EngineConfig::default() };
        a.exact(&Starts::Holes(vec![0]), &cfg, &mut |_| {}).unwrap().starts.remove(0)
    };
    let (reduced, plain) = (run(true), run(false));
    assert_eq!(reduced.pegs_left, plain.pegs_left);
    assert_eq!(reduced.finish, plain.finish);
    assert_eq!(reduced.positions.raw, plain.positions.raw);
    assert_eq!(reduced.pegs_left.values().sum::<Rational>(), 1);
}

#[test]
fn european_centre_is_refused_under_a_small_budget_before_it_grows() {
    let eu = board::builtin("european").unwrap();
    let a = Analysis::new(&eu);
    let cfg = EngineConfig { memory_budget: Some(200_000_000), ..EngineConfig::default() };
    let centre = eu.find_hole("d4").unwrap();
    match a.exact(&Starts::Holes(vec![centre]), &cfg, &mut |_| {}) {
        Err(pegchain::Error::TooLarge { bytes, budget, .. }) => assert!(bytes > budget),
        other => panic!("expected a refusal, got {:?}", other.map(|r| r.starts.len())),
    }
}

#[test]
#[ignore = "the whole English board: about a minute and 1 GB"]
fn english_centre_counts_match_the_published_record() {
    let en = builtin("english").unwrap();
    let centre = en.find_hole("d4").unwrap();
    let a = Analysis::new(&en);
    let r = a.count(&Starts::Holes(vec![centre]), &EngineConfig::default(), &mut |_| {}).unwrap();
    let s = &r.starts[0];
    let raw: Vec<u64> = s.positions.by_layer.iter().map(|l| l.1).collect();
    assert_eq!(raw, A112737);
    assert_eq!(s.positions.raw, 187_636_299);
    assert_eq!(s.positions.up_to_symmetry, 23_475_688);
    // Complete games and winning games ending in the centre, as Durango Bill and George Bell
    // published them.
    assert_eq!(s.games, "577116156815309849672".parse::<Integer>().unwrap());
    assert_eq!(s.wins_by_finish[&centre], "40861647040079968".parse::<Integer>().unwrap());
}

#[test]
#[ignore = "the whole English board: about a minute and 1 GB"]
fn english_centre_probabilities_sum_to_one_and_match_the_layers() {
    let en = builtin("english").unwrap();
    let centre = en.find_hole("d4").unwrap();
    let a = Analysis::new(&en);
    let r = a.exact(&Starts::Holes(vec![centre]), &EngineConfig::default(), &mut |_| {}).unwrap();
    let s = &r.starts[0];
    assert_eq!(s.pegs_left.values().sum::<Rational>(), 1);
    assert_eq!(s.finish.values().sum::<Rational>(), s.win);
    assert_eq!(english_layers(1), A112737);
    assert!(s.win > 0 && s.win < Rational::from((1, 10_000_000)));
}

/// The European board from d1 has one first jump, d3-d2-d1, to the position the centre's
/// every first jump leads to (up to symmetry): by the whole group (the stabilizer method
/// would need four times the centre's memory), d1's figures are the centre's, fraction for
/// fraction. One peg is out of reach of both (P = 0 exactly, as the parity classes say).
/// Measured: the centre 282 s, d1 494 s, each at 16.2-16.3 GB.
#[test]
#[ignore = "the whole European board twice: about 13 minutes and 17 GB"]
fn european_d1_by_the_whole_group_has_the_centres_figures() {
    let eu = builtin("european").unwrap();
    let a = Analysis::new(&eu);
    let hole = |name: &str| Starts::Holes(vec![eu.find_hole(name).unwrap()]);
    let centre = a.exact(&hole("d4"), &EngineConfig::default(), &mut |_| {}).unwrap();
    let whole_group = EngineConfig { reduction: Reduction::WholeGroup, ..EngineConfig::default() };
    let d1 = a.exact(&hole("d1"), &whole_group, &mut |_| {}).unwrap();
    let (c, d) = (&centre.starts[0], &d1.starts[0]);
    assert_eq!((c.positions.raw, c.positions.up_to_symmetry), (2_993_979_754, 374_349_517));
    assert_eq!((d.positions.raw, d.positions.up_to_symmetry), (2_252_125_041, 374_349_517));
    assert_eq!(c.pegs_left.values().sum::<Rational>(), 1);
    assert_eq!(c.pegs_left.keys().copied().collect::<Vec<u32>>(), (2..=21).collect::<Vec<u32>>());
    assert_eq!((&c.win, &d.win), (&Rational::new(), &Rational::new()));
    assert_eq!(d.pegs_left, c.pegs_left);
    assert_eq!(d.expected_pegs_left, c.expected_pegs_left);
    assert!(d.finish.is_empty() && c.finish.is_empty());
}
