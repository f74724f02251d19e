//! Library-level timings of the exact engine (the CLI wall times are in scripts/bench.sh).

use criterion::{Criterion, criterion_group, criterion_main};
use pegchain::solitaire::board::builtin;
use pegchain::solitaire::exact::{Analysis, EngineConfig, Starts};
use std::hint::black_box;

fn exact(c: &mut Criterion) {
    let t5 = builtin("triangle5").unwrap();
    c.bench_function("exact triangle5 all starts", |b| {
        b.iter(|| {
            Analysis::new(&t5).exact(black_box(&Starts::All), &EngineConfig::default(), &mut |_| {}).unwrap()
        })
    });
    c.bench_function("count triangle5 all starts", |b| {
        b.iter(|| {
            Analysis::new(&t5).count(black_box(&Starts::All), &EngineConfig::default(), &mut |_| {}).unwrap()
        })
    });
    let t6 = builtin("triangle6").unwrap();
    let mut group = c.benchmark_group("slow");
    group.sample_size(10);
    group.bench_function("exact triangle6 all starts", |b| {
        b.iter(|| {
            Analysis::new(&t6).exact(black_box(&Starts::All), &EngineConfig::default(), &mut |_| {}).unwrap()
        })
    });
    group.finish();
}

fn simulate(c: &mut Criterion) {
    use pegchain::solitaire::simulate::{Run, simulate};
    let t5 = builtin("triangle5").unwrap();
    let run = [Run { label: "random".into(), holes: (0..15).collect(), games: 1_000_000 }];
    let mut group = c.benchmark_group("slow");
    group.sample_size(10);
    group.bench_function("simulate 1M random games triangle5", |b| {
        b.iter(|| {
            simulate(&t5, pegchain::Policy::Uniform, black_box(&run), 1, 0, &|_| {}, &pegchain::Cancel::new())
        })
    });
    group.finish();
}

fn chains(c: &mut Criterion) {
    use pegchain::engine::explicit::questions::expected_reward;
    let ring = pegchain::games::herman::ring(9, None, &pegchain::Cancel::new()).unwrap();
    let mut stable = vec![false; ring.states()];
    for &s in ring.label("stable").unwrap() {
        stable[s as usize] = true;
    }
    let steps = ring.step_reward("steps").unwrap();
    c.bench_function("herman 9 expected steps, every state", |b| {
        b.iter(|| expected_reward(black_box(&ring), &stable, &steps, &pegchain::Cancel::new()).unwrap())
    });
    let ring = pegchain::games::herman::ring(11, None, &pegchain::Cancel::new()).unwrap();
    let mut stable = vec![false; ring.states()];
    for &s in ring.label("stable").unwrap() {
        stable[s as usize] = true;
    }
    let steps = ring.step_reward("steps").unwrap();
    let mut group = c.benchmark_group("slow");
    group.sample_size(10);
    group.bench_function("herman 11 expected steps, every state", |b| {
        b.iter(|| expected_reward(black_box(&ring), &stable, &steps, &pegchain::Cancel::new()).unwrap())
    });
    group.finish();
    // Three players of Chutes and Ladders, summed until 10^-30 is undecided.
    let rules =
        pegchain::games::board::BoardRules::parse(pegchain::games::board::CHUTES_AND_LADDERS).unwrap();
    let single = pegchain::games::board::one_player(&rules).unwrap();
    let finish = single.label_set("finish").unwrap();
    let gap = rug::Rational::from((1, rug::Integer::from(rug::Integer::u_pow_u(10, 30))));
    c.bench_function("race of 3 players of chutes and ladders to 30 places", |b| {
        b.iter(|| {
            pegchain::engine::explicit::race::race(
                black_box(&single),
                &finish,
                0,
                3,
                &gap,
                pegchain::chains::RACE_MOST,
                &pegchain::Cancel::new(),
            )
            .unwrap()
        })
    });
}

fn coach(c: &mut Criterion) {
    use pegchain::solitaire::coach::Coach;
    use pegchain::solitaire::position::play;
    let t5 = builtin("triangle5").unwrap();
    let pos = play(&t5, 0, "").unwrap();
    c.bench_function("coach triangle5 from the full board less A (every jump)", |b| {
        b.iter(|| Coach::new(&t5, pegchain::Policy::Uniform).advise(black_box(pos)).unwrap())
    });
}

/// Every jump's class and element from 100,000 English positions of about 16 pegs: the inner
/// loop of the coach's search and of the exact engine's steps.
fn children(c: &mut Criterion) {
    use pegchain::SymmetryGroup;
    use pegchain::solitaire::moves::{Children, MoveTable};
    use pegchain::solitaire::pegs::Pegs;
    let english = builtin("english").unwrap();
    let (moves, group) = (MoveTable::new(&english), SymmetryGroup::of_board(&english));
    let children = Children::new(&moves, &group);
    use rand_core::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut next = move || rng.next_u64();
    let positions: Vec<Pegs> =
        (0..100_000).map(|_| Pegs(english.full().0 & (next() & next() | next() & next()))).collect();
    c.bench_function("children of 100,000 english positions (class and element of every jump)", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &p in &positions {
                children.each(&moves, &group, p, |j, class, element| {
                    sum = sum.wrapping_add(class.0 ^ j as u64 ^ element as u64)
                });
            }
            black_box(sum)
        })
    });
}

criterion_group!(benches, exact, simulate, chains, coach, children);
criterion_main!(benches);
