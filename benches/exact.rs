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

criterion_group!(benches, exact, simulate);
criterion_main!(benches);
