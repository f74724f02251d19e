//! Forward propagation on toy chains, each value against a closed form or a hand count,
//! and against the backward recursion (two methods that share nothing but the chain).

mod toys;

use pegchain_engine::layered::Spill;
use pegchain_engine::{
    EngineError, Layer, Mode, Options, RunState, backward, propagate, propagate_by_residues,
};
use rug::{Integer, Rational};
use std::collections::BTreeMap;
use toys::{BANK, Coins, Dag, Evening, Frog, Gambler, Node, PRIMES, Purse, Toss, WATER};

fn r(n: i64, d: i64) -> Rational {
    Rational::from((n, d))
}

fn binomial(n: u32, k: u32) -> Integer {
    if k > n { Integer::new() } else { Integer::from(Integer::binomial_u(n, k)) }
}

fn pow(p: &Rational, e: u32) -> Rational {
    (0..e).fold(Rational::from(1), |acc, _| acc * p)
}

#[test]
fn gamblers_ruin_by_a_deadline_matches_the_hitting_time_theorem_and_the_reflection_principle() {
    let (k, bets) = (3u32, 12u32);
    let chain = Gambler { up: 2, down: 3, bets };
    let (p, q) = (r(2, 5), r(3, 5));
    let start = Purse { money: k, left: bets };
    let forward = propagate(&chain, start, Mode::Probability, |s| chain.end(s), Options::default()).unwrap();

    let mut expected = BTreeMap::new();
    // Ruin first at bet t: (k / t) C(t, u) p^u q^(t - u), with u = (t - k) / 2 bets won.
    for t in (k..=bets).step_by(2) {
        let u = (t - k) / 2;
        let ways = Rational::from((binomial(t, u) * k, Integer::from(t)));
        expected.insert(Evening::Ruined(t), ways * pow(&p, u) * pow(&q, t - u));
    }
    // Solvent with m at the deadline: paths from k to m never at 0, C(T, u) - C(T, u*), with
    // u* the bets won on the mirrored path from -k.
    for m in (1..=k + bets).filter(|m| (m + bets + k) % 2 == 0) {
        let (u, mirrored) = ((bets + m - k) / 2, (bets + m + k) / 2);
        let ways = binomial(bets, u) - binomial(bets, mirrored);
        if ways > 0 {
            expected.insert(Evening::Solvent(m), Rational::from(ways) * pow(&p, u) * pow(&q, bets - u));
        }
    }
    assert_eq!(forward, expected);
    assert_eq!(forward.values().sum::<Rational>(), 1);
    assert_eq!(forward[&Evening::Ruined(3)], r(27, 125));
    assert_eq!(backward::absorption(&chain, start, |s| chain.end(s)), forward);
}

#[test]
fn a_layer_whose_lcm_and_factors_exceed_64_bits_stays_exact() {
    let mut denominators = Vec::new();
    let mut on_layer = |l: &Layer<'_, Toss>| {
        denominators.push((l.rank, l.denominator.clone()));
        Ok(())
    };
    let options = Options { on_layer: Some(&mut on_layer), ..Options::default() };
    let forward = propagate(&Coins, Toss::Start, Mode::Probability, |s| s, options).unwrap();

    let heads: Rational = (0..4).map(|i| r(i + 1, PRIMES[i as usize] as i64)).sum::<Rational>() / 4;
    let tails = Rational::from(1 - &heads);
    let win = Rational::from(&heads / 3) + &tails * r(4, 7);
    let lose = &heads * r(2, 3) + tails * r(3, 7);
    assert_eq!(forward, BTreeMap::from([(Toss::Win, win), (Toss::Lose, lose)]));
    assert_eq!(backward::absorption(&Coins, Toss::Start, |s| s), forward);

    // The coins' layer moved to 4 * L, L the product of the four primes (about 2^128), and
    // each of its factors L / W (a product of three primes) is beyond 64 bits.
    let l: Integer = PRIMES.iter().map(|&p| Integer::from(p)).product();
    assert!(Integer::from(&l / PRIMES[0]).significant_bits() > 64);
    let expect = [(3, Integer::from(1)), (2, Integer::from(4)), (1, Integer::from(&l * 4)), (0, l * 4 * 21)];
    assert_eq!(denominators, expect);
}

#[test]
fn moves_that_skip_a_rank_merge_buckets_fed_by_two_layers() {
    // From n stones, landing on the bank has probability 3/5 + (2/5)(-2/3)^n: the solution
    // of a_n = a_(n-1) / 3 + 2 a_(n-2) / 3 with a_0 = 1 and a_(-1) = 0.
    for stones in [1u32, 2, 5, 12] {
        let forward = propagate(&Frog, stones + 1, Mode::Probability, |s| s, Options::default()).unwrap();
        let bank = r(3, 5) + r(2, 5) * pow(&r(-2, 3), stones);
        let water = Rational::from(1 - &bank);
        assert_eq!(forward, BTreeMap::from([(WATER, water), (BANK, bank)]), "{stones} stones");
        assert_eq!(backward::absorption(&Frog, stones + 1, |s| s), forward);
    }
    // Every stone is fed by the two stones above it: each layer holds one state.
    let mut sizes = Vec::new();
    let mut on_layer = |l: &Layer<'_, u32>| {
        sizes.push((l.rank, l.states.to_vec()));
        Ok(())
    };
    let options = Options { on_layer: Some(&mut on_layer), ..Options::default() };
    propagate(&Frog, 5, Mode::Probability, |s| s, options).unwrap();
    assert_eq!(sizes, [(5, vec![5]), (4, vec![4]), (3, vec![3]), (2, vec![2]), (1, vec![1]), (0, vec![0])]);
}

#[test]
fn path_counts_of_the_frog_are_fibonacci_numbers() {
    // Sequences of jumps of 1 and 2 over n stones: F(n + 1) land on the bank, and F(n) reach
    // the last stone and jump 2 into the water.
    let fib = |n: u32| (1..n).fold((Integer::from(0), Integer::from(1)), |(a, b), _| (b.clone(), a + b)).1;
    for stones in [1u32, 2, 10, 90] {
        let counts = propagate(&Frog, stones + 1, Mode::Paths, |s| s, Options::default()).unwrap();
        let expected =
            BTreeMap::from([(WATER, Rational::from(fib(stones))), (BANK, Rational::from(fib(stones + 1)))]);
        assert_eq!(counts, expected, "{stones} stones");
    }
    let counts = propagate(&Frog, 91, Mode::Paths, |s| s, Options::default()).unwrap();
    assert_eq!(counts[&BANK], "4660046610375530309".parse::<Integer>().unwrap());
}

#[test]
fn the_hand_drawn_dag_gives_its_hand_counted_paths_and_probabilities() {
    use Node::*;
    let paths = propagate(&Dag, S, Mode::Paths, |s| s, Options::default()).unwrap();
    // To X: A-D-X, A-E-X, B-E-X, C-E-X, C-X. To Y: A-E-Y, B-E-Y, C-E-Y, C-F-Y.
    assert_eq!(paths, BTreeMap::from([(X, Rational::from(5)), (Y, Rational::from(4))]));

    let mut last = None;
    let mut on_layer = |l: &Layer<'_, Node>| {
        last = Some((l.states.to_vec(), (0..l.states.len()).map(|i| l.numerator(i)).collect::<Vec<_>>()));
        assert_eq!(l.denominator, &[1, 4, 24, 72][3 - l.rank as usize]);
        Ok(())
    };
    let options = Options { on_layer: Some(&mut on_layer), ..Options::default() };
    let p = propagate(&Dag, S, Mode::Probability, |s| s, options).unwrap();
    // X: 1/4 (1/2 + 1/6) + 1/4 (1/3) + 1/2 (1/9 + 1/3) = 17/36.
    assert_eq!(p, BTreeMap::from([(X, r(17, 36)), (Y, r(19, 36))]));
    assert_eq!(backward::absorption(&Dag, S, |s| s), p);
    // X came from C (two layers up, waiting while the denominator grew) and from D and E.
    assert_eq!(last, Some((vec![X, Y], vec![Integer::from(34), Integer::from(38)])));
}

#[test]
fn a_tiny_memory_budget_is_refused_before_the_step() {
    let chain = Gambler { up: 2, down: 3, bets: 12 };
    let options = Options { memory_budget: Some(100), ..Options::default() };
    let err = propagate(&chain, Purse { money: 3, left: 12 }, Mode::Probability, |s| chain.end(s), options)
        .unwrap_err();
    // Even in 64 rounds (the most): the 2 purses' states (8-byte keys) kept for the later
    // rounds, their shares at the children's projected width of two limbs, 1/64 of their 4
    // edges of 16 bytes, and 4 projected children at 24 + 24 bytes: 16 + 32 + 1 + 192.
    assert_eq!(err, EngineError::TooLarge { rank: 10, states: 4, bytes: 241, budget: 100 });
    let options = Options { memory_budget: Some(1 << 20), ..Options::default() };
    assert!(
        propagate(&chain, Purse { money: 3, left: 12 }, Mode::Probability, |s| chain.end(s), options).is_ok()
    );
}

#[test]
fn until_rank_stops_with_the_mass_absorbed_so_far() {
    use Node::*;
    let options = Options { until_rank: Some(2), ..Options::default() };
    let p = propagate(&Dag, S, Mode::Probability, |s| s, options).unwrap();
    assert!(p.is_empty());
    let chain = Gambler { up: 1, down: 1, bets: 12 };
    let options = Options { until_rank: Some(9), ..Options::default() };
    let p = propagate(&chain, Purse { money: 1, left: 12 }, Mode::Probability, |s| chain.end(s), options)
        .unwrap();
    // Ruined at bet 1 (1/2) or at bet 3 (1/8); the layer of rank 9 is shown, not expanded.
    assert_eq!(p, BTreeMap::from([(Evening::Ruined(1), r(1, 2)), (Evening::Ruined(3), r(1, 8))]));
}

/// Runs `Frog` from `stones` stones, saving the encoded state after every finished layer.
fn frog_saving_every_layer(stones: u32, mode: Mode) -> (BTreeMap<u32, Rational>, Vec<Vec<u8>>) {
    let mut saved = Vec::new();
    let mut save = |run: &RunState<u32, u32>| {
        saved.push(run.encode(u64::from, |&k| u64::from(k)).unwrap());
        Ok(())
    };
    let options = Options { checkpoint: Some(&mut save), ..Options::default() };
    let ends = propagate(&Frog, stones + 1, mode, |s| s, options).unwrap();
    (ends, saved)
}

fn decode_frog(bytes: &[u8]) -> RunState<u32, u32> {
    RunState::decode(bytes, |w| u32::try_from(w).ok(), |w| u32::try_from(w).ok()).unwrap()
}

#[test]
fn a_run_resumed_from_any_saved_layer_ends_as_the_uninterrupted_run() {
    for mode in [Mode::Probability, Mode::Paths] {
        // 60 stones: numerators of several limbs, and buckets fed by two layers each.
        let (ends, saved) = frog_saving_every_layer(60, mode);
        assert_eq!(saved.len(), 61, "one save after every layer but the last of 62");
        for (i, bytes) in saved.iter().enumerate() {
            let run = decode_frog(bytes);
            assert_eq!(run.finished_layers() as usize, i + 1);
            let options = Options { resume: Some(run), ..Options::default() };
            let resumed = propagate(&Frog, 61, mode, |s| s, options).unwrap();
            assert_eq!(resumed, ends, "resumed after {} layers in {mode:?}", i + 1);
        }
    }
    // Two methods: the same frog by the backward recursion.
    let (ends, _) = frog_saving_every_layer(60, Mode::Probability);
    assert_eq!(ends, backward::absorption(&Frog, 61, |s| s));
}

#[test]
fn a_resumed_run_is_saved_again_only_after_its_next_layer_and_a_failed_save_stops_the_run() {
    let (_, saved) = frog_saving_every_layer(10, Mode::Probability);
    let mut layers = Vec::new();
    let mut save = |run: &RunState<u32, u32>| {
        layers.push(run.finished_layers());
        Ok(())
    };
    let options =
        Options { checkpoint: Some(&mut save), resume: Some(decode_frog(&saved[4])), ..Options::default() };
    propagate(&Frog, 11, Mode::Probability, |s| s, options).unwrap();
    assert_eq!(layers, (6..=11).collect::<Vec<u32>>(), "saved after layers 6 to 11 of 12");

    let mut refuse = |_: &RunState<u32, u32>| Err(());
    let options = Options { checkpoint: Some(&mut refuse), ..Options::default() };
    assert_eq!(
        propagate(&Frog, 11, Mode::Probability, |s| s, options),
        Err(EngineError::NotSaved { finished_layers: 1 })
    );
    // A state saved from another start is not resumed.
    let options = Options { resume: Some(decode_frog(&saved[4])), ..Options::default() };
    assert_eq!(propagate(&Frog, 12, Mode::Probability, |s| s, options), Err(EngineError::ResumedElsewhere));
}

/// A die of `faces` faces rolled `rolls` times, keeping the sum modulo 7: every state has
/// `faces` moves into at most 7 children, so a step's edges dwarf its states.
struct Sevens {
    faces: u64,
    /// A sum that stops the rolls, if any: then layers hold absorbing states beside states
    /// with many moves.
    stop: Option<u8>,
}

impl pegchain_engine::Chain for Sevens {
    type State = (u32, u8);

    fn transitions(&self, (left, sum): (u32, u8), out: &mut Vec<((u32, u8), u64)>) -> u64 {
        out.clear();
        if left > 0 && self.stop != Some(sum) {
            out.extend((1..=self.faces).map(|f| ((left - 1, ((sum as u64 + f) % 7) as u8), 1)));
        }
        out.len() as u64
    }
}

impl pegchain_engine::Ranked for Sevens {
    fn rank(&self, s: (u32, u8)) -> u32 {
        s.0
    }
}

#[test]
fn a_step_in_rounds_counts_the_mass_absorbed_in_its_layer_once() {
    // The later rounds scan their parents without numerators (freed once the shares are
    // made): the states that absorb among them were counted by the first scan.
    let chain = Sevens { faces: 1000, stop: Some(3) };
    let start = (4, 0);
    let end = |s: (u32, u8)| s;
    for mode in [Mode::Probability, Mode::Paths] {
        let whole = propagate(&chain, start, mode, end, Options::default()).unwrap();
        let options = Options { memory_budget: Some(40_000), ..Options::default() };
        assert_eq!(propagate(&chain, start, mode, end, options).unwrap(), whole);
    }
    let p = propagate(&chain, start, Mode::Probability, end, Options::default()).unwrap();
    assert_eq!(p.values().sum::<Rational>(), 1);
    // Stopped after the first roll: 143 of the 1000 faces give 3.
    assert_eq!(p[&(3, 3)], r(143, 1000));
}

#[test]
fn a_step_whose_edges_exceed_the_budget_is_taken_in_rounds_with_the_same_result() {
    let chain = Sevens { faces: 1000, stop: None };
    let start = (4, 0);
    let whole = propagate(&chain, start, Mode::Probability, |s| s.1, Options::default()).unwrap();
    // A layer of 7 sums has 7,000 edges of 16 bytes: 112,000 bytes, over a budget of 40,000,
    // so the steps go in rounds (the edges of a few shards at a time).
    let options = Options { memory_budget: Some(40_000), ..Options::default() };
    assert_eq!(propagate(&chain, start, Mode::Probability, |s| s.1, options).unwrap(), whole);
    assert_eq!(whole.values().sum::<Rational>(), 1);
    // 1000 = 142 * 7 + 6: after one roll every sum but 0 has weight 143 of 1000.
    let one = propagate(&chain, (1, 0), Mode::Probability, |s| s.1, Options::default()).unwrap();
    assert_eq!(one[&0], r(142, 1000));
    assert_eq!(one[&3], r(143, 1000));
    // Too small for even one shard's edges a round: refused.
    let options = Options { memory_budget: Some(1_000), ..Options::default() };
    assert!(matches!(
        propagate(&chain, start, Mode::Probability, |s| s.1, options),
        Err(EngineError::TooLarge { .. })
    ));
}

/// A spill directory of its own for one test, removed (empty) when dropped.
struct SpillDir(std::path::PathBuf);

impl SpillDir {
    fn new(name: &str) -> SpillDir {
        let dir = std::env::temp_dir().join(format!("pegchain-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        SpillDir(dir)
    }

    fn spill(&self) -> Spill<'_, (u32, u8)> {
        Spill {
            dir: &self.0,
            state_code: |(left, sum)| (u64::from(left) << 8) | u64::from(sum),
            state_of: |code| Some((u32::try_from(code >> 8).ok()?, code as u8)),
        }
    }
}

impl Drop for SpillDir {
    fn drop(&mut self) {
        // Fails, and so fails the test, if a spilled file was left behind.
        std::fs::remove_dir(&self.0).unwrap();
    }
}

#[test]
fn a_step_in_rounds_with_its_parents_on_disk_gives_the_same_result() {
    let dir = SpillDir::new("spill-rounds");
    for stop in [None, Some(3)] {
        let chain = Sevens { faces: 1000, stop };
        let start = (4, 0);
        for mode in [Mode::Probability, Mode::Paths] {
            let whole = propagate(&chain, start, mode, |s| s, Options::default()).unwrap();
            let spilled =
                Options { memory_budget: Some(40_000), spill: Some(dir.spill()), ..Options::default() };
            assert_eq!(
                propagate(&chain, start, mode, |s| s, spilled).unwrap(),
                whole,
                "{mode:?}, stop {stop:?}"
            );
        }
        // By residues the shares are made over the parents' own words, then spilled.
        let whole = propagate(&chain, start, Mode::Probability, |s| s, Options::default()).unwrap();
        for primes in [1, 3] {
            let spilled =
                Options { memory_budget: Some(60_000), spill: Some(dir.spill()), ..Options::default() };
            let by_residues = propagate_by_residues(&chain, start, |s| s, primes, spilled).unwrap();
            assert_eq!(by_residues, whole, "{primes} primes a pass, stop {stop:?}");
        }
        assert_eq!(whole.values().sum::<Rational>(), 1);
    }
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0, "no spilled file is left behind");
}

#[test]
fn a_spill_directory_that_cannot_take_the_parents_stops_the_run_in_words() {
    let chain = Sevens { faces: 1000, stop: None };
    let gone = std::env::temp_dir().join(format!("pegchain-spill-missing-{}", std::process::id()));
    let spill = Spill {
        dir: &gone,
        state_code: |(l, s): (u32, u8)| (u64::from(l) << 8) | u64::from(s),
        state_of: |_| None,
    };
    // In one round nothing is spilled: the directory is not needed.
    let options = Options { spill: Some(spill), ..Options::default() };
    assert!(propagate(&chain, (4, 0), Mode::Probability, |s| s.1, options).is_ok());
    let options = Options { memory_budget: Some(40_000), spill: Some(spill), ..Options::default() };
    let spilled = |e| match e {
        Err(EngineError::SpillFailed { dir, why }) => {
            assert_eq!(dir, gone.display().to_string());
            assert!(why.contains("No such file or directory"), "{why}");
        }
        other => panic!("expected a spill failure, got {other:?}"),
    };
    spilled(propagate(&chain, (4, 0), Mode::Probability, |s| s.1, options));
    // The budgets of the test above spill in every mode (so that test compares spilled runs).
    let options = Options { memory_budget: Some(40_000), spill: Some(spill), ..Options::default() };
    spilled(propagate(&chain, (4, 0), Mode::Paths, |s| s.1, options));
    let options = Options { memory_budget: Some(60_000), spill: Some(spill), ..Options::default() };
    spilled(propagate_by_residues(&chain, (4, 0), |s| s.1, 3, options));
}

/// A binary counter modulo `width`, counted down from `left`: each state has two moves, so
/// once the layers are `width` wide a step holds its children more than its edges.
struct Doubling {
    width: u32,
}

impl pegchain_engine::Chain for Doubling {
    type State = (u32, u32);

    fn transitions(&self, (left, v): (u32, u32), out: &mut Vec<((u32, u32), u64)>) -> u64 {
        out.clear();
        if left > 0 {
            out.extend((0..2).map(|bit| ((left - 1, (2 * v + bit) % self.width), 1)));
        }
        out.len() as u64
    }
}

impl pegchain_engine::Ranked for Doubling {
    fn rank(&self, s: (u32, u32)) -> u32 {
        s.0
    }
}

#[test]
fn a_step_whose_children_exceed_the_budget_is_summed_in_parts_with_its_parents_on_disk() {
    let dir = SpillDir::new("spill-parts");
    let spill = Spill {
        dir: &dir.0,
        state_code: |(left, v): (u32, u32)| (u64::from(left) << 32) | u64::from(v),
        state_of: |code| Some(((code >> 32) as u32, code as u32)),
    };
    let chain = Doubling { width: 4096 };
    let (start, end) = ((16, 0), |s: (u32, u32)| s.1 % 10);
    let budget = |bytes| Options { memory_budget: Some(bytes), ..Options::default() };
    let spilled = |bytes| Options { spill: Some(spill), ..budget(bytes) };
    let refused = |r| matches!(r, Err(EngineError::TooLarge { .. }));
    // The widest steps project 8,192 children (the layer doubled the step before): 8,192 *
    // (24 + 24) bytes at two limbs a child in one part, 8,192 * (16 + 24) by one residue.
    // No number of rounds brings them under these budgets; parts do, with the parents on disk.
    for mode in [Mode::Probability, Mode::Paths] {
        let whole = propagate(&chain, start, mode, end, Options::default()).unwrap();
        assert_eq!(propagate(&chain, start, mode, end, spilled(230_000)).unwrap(), whole, "{mode:?}");
        assert!(refused(propagate(&chain, start, mode, end, budget(230_000))), "{mode:?}");
    }
    let whole = propagate(&chain, start, Mode::Probability, end, Options::default()).unwrap();
    assert_eq!(whole.values().sum::<Rational>(), 1);
    // The last roll's 4,096 states, 16 rolls from 0, are equally likely: 410 of them end
    // in 0, ..., 5 (4096 = 409 * 10 + 6).
    assert_eq!(whole[&0], r(410, 4096));
    assert_eq!(whole[&9], r(409, 4096));
    for (primes, bytes) in [(1, 150_000), (3, 300_000)] {
        let by_residues = propagate_by_residues(&chain, start, end, primes, spilled(bytes)).unwrap();
        assert_eq!(by_residues, whole, "{primes} primes a pass");
        assert!(refused(propagate_by_residues(&chain, start, end, primes, budget(bytes))), "{primes}");
    }
}
