//! Seeded, reproducible Monte Carlo: the same seed gives the same numbers for any thread
//! count.
//!
//! A run of N trials is cut into batches of `BATCH_SIZE` (so the cut depends on N only).
//! Batch i draws from its own stream: ChaCha8 keyed by the seed, with stream number i, a
//! portable generator whose streams never overlap. Batch results are added up in index order,
//! a wave of batches at a time, so memory does not grow with N.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rayon::prelude::*;

/// Trials per batch: large enough to amortize scheduling, small enough to balance 2+ cores.
pub const BATCH_SIZE: u64 = 1 << 16;

/// Lemire's multiply-and-reject at one width: `draw` gives a uniform `$word`, the product
/// with `n` is taken in `$wide`, and its high half is the draw in 0..n.
macro_rules! lemire {
    ($draw:expr, $n:expr, $word:ty, $wide:ty) => {{
        let n: $word = $n;
        debug_assert!(n > 0);
        let mut m = <$wide>::from($draw) * <$wide>::from(n);
        if (m as $word) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as $word) < threshold {
                m = <$wide>::from($draw) * <$wide>::from(n);
            }
        }
        (m >> <$word>::BITS) as $word
    }};
}

/// The random stream of one batch.
pub struct Stream(ChaCha8Rng);

impl Stream {
    pub fn new(seed: u64, stream: u64) -> Stream {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream);
        Stream(rng)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in 0..n (n > 0), without bias (Lemire's multiply-and-reject).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        lemire!(self.0.next_u32(), n, u32, u64)
    }

    /// A uniform integer in 0..n (n > 0) from 64-bit words, as [`Stream::below`].
    #[inline]
    pub fn below_u64(&mut self, n: u64) -> u64 {
        lemire!(self.0.next_u64(), n, u64, u128)
    }
}

/// A seed for a separate run derived from a user's seed (SplitMix64 of seed and label), so
/// that runs sharing one seed (one run per class, say) do not share streams.
pub fn subseed(seed: u64, label: u64) -> u64 {
    let mut z = seed ^ label.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where a batch sits in the run.
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    pub index: u64,
    /// Index of the batch's first trial in the whole run.
    pub first: u64,
    pub len: u64,
}

/// Batch `index` of a run of `trials` trials (the cut depends on `trials` only).
pub fn batch(trials: u64, index: u64) -> Batch {
    let first = index * BATCH_SIZE;
    Batch { index, first, len: BATCH_SIZE.min(trials - first) }
}

/// The number of batches of a run of `trials` trials.
pub fn batch_count(trials: u64) -> u64 {
    trials.div_ceil(BATCH_SIZE)
}

/// The batches of a run of `trials` trials (a list: for small runs and tests).
pub fn batches(trials: u64) -> Vec<Batch> {
    (0..batch_count(trials)).map(|index| batch(trials, index)).collect()
}

/// Batches in flight per worker thread: enough to keep every core busy while a wave's
/// slowest batch finishes, few enough that a wave's results take no memory to speak of.
const WAVE_PER_THREAD: u64 = 4;

/// Runs `work` on every batch, on `threads` threads (0 = all cores), and returns the results
/// in batch order. `done` hears of every finished batch (for a progress bar). The list grows
/// with the number of batches: long runs use [`run_folded`].
pub fn run<T, W>(trials: u64, seed: u64, threads: usize, work: W, done: &(dyn Fn(u64) + Sync)) -> Vec<T>
where
    T: Send,
    W: Fn(&mut Stream, Batch) -> T + Sync,
{
    run_folded(trials, seed, threads, work, Vec::new(), |all: &mut Vec<T>, _, t| all.push(t), done)
}

/// Runs `work` on every batch, on `threads` threads (0 = all cores), and folds the results
/// into `init` with `add(accumulator, batch, result)` in batch order, so the answer is the
/// same for any thread count. Batches run in waves of a few per thread, so memory does not
/// grow with the number of trials. `done` hears of every finished batch (for a progress bar).
pub fn run_folded<T, A, W, F>(
    trials: u64,
    seed: u64,
    threads: usize,
    work: W,
    init: A,
    add: F,
    done: &(dyn Fn(u64) + Sync),
) -> A
where
    T: Send,
    W: Fn(&mut Stream, Batch) -> T + Sync,
    F: FnMut(&mut A, Batch, T),
{
    let never = crate::Cancel::new();
    let all = 0..batch_count(trials);
    match fold_batches(trials, seed, threads, all, work, init, add, done, &never) {
        Ok(acc) => acc,
        Err((acc, _)) => acc, // unreachable: nothing cancels `never`
    }
}

/// A run stopped by its [`Cancel`](crate::Cancel) token: the batches that had finished held
/// `trials_done` trials (the others were never started or were dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled {
    pub trials_done: u64,
}

/// [`run_folded`], polling `cancel` before each batch: once it is cancelled no batch starts,
/// and the run returns [`Cancelled`] with the trials of the batches folded in by then (a batch
/// is short, `BATCH_SIZE` trials, so the run stops soon after the request).
#[allow(clippy::too_many_arguments)]
pub fn run_folded_cancellable<T, A, W, F>(
    trials: u64,
    seed: u64,
    threads: usize,
    work: W,
    init: A,
    add: F,
    done: &(dyn Fn(u64) + Sync),
    cancel: &crate::Cancel,
) -> Result<A, Cancelled>
where
    T: Send,
    W: Fn(&mut Stream, Batch) -> T + Sync,
    F: FnMut(&mut A, Batch, T),
{
    let all = 0..batch_count(trials);
    fold_batches(trials, seed, threads, all, work, init, add, done, cancel).map_err(|(_, c)| c)
}

/// The results of the batches of the run whose indices fall in `range` only, in order (the
/// rest of the run is someone else's: an earlier session's, a later wave's). Each batch is the
/// one it would be in the whole run, so ranges added in order give the whole run. Polls
/// `cancel` before each batch, as [`run_folded_cancellable`].
pub fn run_batches<T, W>(
    trials: u64,
    seed: u64,
    threads: usize,
    range: std::ops::Range<u64>,
    work: W,
    done: &(dyn Fn(u64) + Sync),
    cancel: &crate::Cancel,
) -> Result<Vec<T>, Cancelled>
where
    T: Send,
    W: Fn(&mut Stream, Batch) -> T + Sync,
{
    let range = range.start..range.end.min(batch_count(trials));
    let add = |all: &mut Vec<T>, _: Batch, t: T| all.push(t);
    fold_batches(trials, seed, threads, range, work, Vec::new(), add, done, cancel).map_err(|(_, c)| c)
}

/// The one loop under every run: the batches of `range` in waves of a few per thread, each
/// wave's results folded in batch order; no batch starts once `cancel` is cancelled. On
/// cancellation the accumulator holds every batch finished before the wave that saw it.
#[allow(clippy::too_many_arguments)]
fn fold_batches<T, A, W, F>(
    trials: u64,
    seed: u64,
    threads: usize,
    range: std::ops::Range<u64>,
    work: W,
    init: A,
    mut add: F,
    done: &(dyn Fn(u64) + Sync),
    cancel: &crate::Cancel,
) -> Result<A, (A, Cancelled)>
where
    T: Send,
    W: Fn(&mut Stream, Batch) -> T + Sync,
    F: FnMut(&mut A, Batch, T),
{
    // Where no thread can be started (no memory left for a stack), the games are played on
    // this thread alone, which starts none: the same output, as for any thread count.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .or_else(|_| rayon::ThreadPoolBuilder::new().num_threads(1).use_current_thread().build())
        .expect("a pool of the current thread alone starts no thread");
    let wave = pool.current_num_threads() as u64 * WAVE_PER_THREAD;
    let (mut acc, mut folded, mut start) = (init, 0u64, range.start);
    while start < range.end {
        let end = range.end.min(start.saturating_add(wave));
        let results: Option<Vec<(Batch, T)>> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|index| {
                    if cancel.is_cancelled() {
                        return None;
                    }
                    let batch = batch(trials, index);
                    let out = work(&mut Stream::new(seed, batch.index), batch);
                    done(batch.len);
                    Some((batch, out))
                })
                .collect()
        });
        match results {
            Some(results) if !cancel.is_cancelled() => {
                for (batch, out) in results {
                    folded += batch.len;
                    add(&mut acc, batch, out);
                }
            }
            _ => return Err((acc, Cancelled { trials_done: folded })),
        }
        start = end;
    }
    Ok(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let draw = |s: &mut Stream, b: Batch| (0..b.len).map(|_| s.below(36) as u64).sum::<u64>();
        let one = run(300_000, 7, 1, draw, &|_| {});
        let two = run(300_000, 7, 2, draw, &|_| {});
        let many = run(300_000, 7, 5, draw, &|_| {});
        assert_eq!(one, two);
        assert_eq!(one, many);
        assert_ne!(one, run(300_000, 8, 2, draw, &|_| {}));
        assert_eq!(one.len(), 5);
    }

    fn run_cancellable_test<W: Fn(&mut Stream, Batch) -> u64 + Sync>(
        trials: u64,
        seed: u64,
        threads: usize,
        work: W,
        done: &(dyn Fn(u64) + Sync),
        cancel: &crate::Cancel,
    ) -> Result<Vec<u64>, Cancelled> {
        run_batches(trials, seed, threads, 0..u64::MAX, work, done, cancel)
    }

    #[test]
    fn a_cancellable_run_gives_the_same_results_or_stops_before_the_next_batch() {
        let draw = |s: &mut Stream, b: Batch| (0..b.len).map(|_| s.below(36) as u64).sum::<u64>();
        let cancel = crate::Cancel::new();
        assert_eq!(
            run_cancellable_test(300_000, 7, 2, draw, &|_| {}, &cancel),
            Ok(run(300_000, 7, 2, draw, &|_| {}))
        );
        // Cancelled after the first finished batch, on one thread: no batch starts after it,
        // and the wave it was in is dropped (its results would not be whole).
        let stop = |_| cancel.cancel();
        assert_eq!(
            run_cancellable_test(300_000, 7, 1, draw, &stop, &cancel),
            Err(Cancelled { trials_done: 0 })
        );
        let cancel = crate::Cancel::new();
        let stop_late = |_: u64| {
            static SEEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            if SEEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == WAVE_PER_THREAD {
                cancel.cancel();
            }
        };
        // On one thread the first wave (4 batches) is folded in before the cancel is seen.
        assert_eq!(
            run_cancellable_test(300_000, 7, 1, draw, &stop_late, &cancel),
            Err(Cancelled { trials_done: WAVE_PER_THREAD * BATCH_SIZE })
        );
        assert_eq!(
            run_cancellable_test(300_000, 7, 2, draw, &|_| {}, &cancel),
            Err(Cancelled { trials_done: 0 })
        );
        // Waves of batches, added in order, are the whole run.
        let go = crate::Cancel::new();
        let whole = run(300_000, 7, 2, draw, &|_| {});
        let mut waves = run_batches(300_000, 7, 2, 0..2, draw, &|_| {}, &go).unwrap();
        waves.extend(run_batches(300_000, 7, 1, 2..9, draw, &|_| {}, &go).unwrap());
        assert_eq!(waves, whole);
    }

    #[test]
    fn folded_results_do_not_depend_on_the_thread_count() {
        let draw = |s: &mut Stream, b: Batch| (0..b.len).map(|_| s.below(36) as u64).sum::<u64>();
        let fold = |threads| {
            run_folded(300_000, 7, threads, draw, Vec::new(), |v: &mut Vec<u64>, _, t| v.push(t), &|_| {})
        };
        assert_eq!(fold(1), run(300_000, 7, 1, draw, &|_| {}));
        assert_eq!(fold(1), fold(2));
        assert_eq!(fold(1), fold(5));
    }

    #[test]
    fn a_folded_run_keeps_only_its_accumulator_whatever_the_batch_count() {
        // 10^5 batches of one trial each would be 10^5 results if they were collected; the fold
        // sees them one by one, in order, and keeps a constant-size accumulator.
        let trials = 100_000 * BATCH_SIZE;
        let (count, last, in_order) = run_folded(
            trials,
            1,
            2,
            |_, b: Batch| b.index,
            (0u64, None::<u64>, true),
            |acc: &mut (u64, Option<u64>, bool), b, index| {
                acc.2 &= acc.1.map_or(index == 0, |last| index == last + 1) && b.index == index;
                acc.0 += 1;
                acc.1 = Some(index);
            },
            &|_| {},
        );
        assert_eq!((count, last, in_order), (100_000, Some(99_999), true));
    }

    #[test]
    fn the_last_batch_of_the_largest_run_is_addressable() {
        let b = batch(u64::MAX, batch_count(u64::MAX) - 1);
        assert_eq!(b.first + b.len, u64::MAX);
        assert_eq!(batch_count(u64::MAX), 1 << 48);
    }

    #[test]
    fn below_is_uniform_enough() {
        let mut s = Stream::new(1, 0);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[s.below(6) as usize] += 1;
        }
        // Each count is Binomial(60000, 1/6): sd about 91; 5 sd is far beyond chance.
        assert!(counts.iter().all(|&c| (c as i64 - 10_000).abs() < 460), "{counts:?}");
    }

    #[test]
    fn subseeds_differ() {
        assert_ne!(subseed(1, 0), subseed(1, 1));
        assert_ne!(subseed(1, 0), subseed(2, 0));
    }

    // Value stability (rand's habit): these pin the generator, its seeding, Lemire's
    // sampler and the batch cut. A failure means every published seed now gives other
    // numbers: change them only on purpose, with a note in the README.

    #[test]
    fn the_streams_first_outputs_are_pinned() {
        let first = |seed, stream| {
            let mut s = Stream::new(seed, stream);
            [s.next_u64(), s.next_u64(), s.next_u64(), s.next_u64()]
        };
        assert_eq!(
            first(0, 0),
            [0xb585f767a79a3b6c, 0x7746a55fbad8c037, 0xb2fb0d3281e2a6e6, 0x0f6760a48f9b887c]
        );
        assert_eq!(
            first(42, 7),
            [0x20e5cc8835be27d0, 0x538a68c16dbb833d, 0x9d8dc577cebf4400, 0x7e6bb95a5d65b364]
        );
    }

    #[test]
    fn below_draws_are_pinned() {
        let six = |n| {
            let mut s = Stream::new(1, 0);
            let v: Vec<u32> = (0..6).map(|_| s.below(n)).collect();
            (v, s.0.get_word_pos())
        };
        assert_eq!(six(1), (vec![0; 6], 6));
        assert_eq!(six(6), (vec![3, 2, 5, 0, 1, 3], 6));
        assert_eq!(six(36), (vec![19, 14, 35, 2, 7, 21], 6));
        assert_eq!(six(1000), (vec![549, 402, 984, 80, 211, 596], 6));
        assert_eq!(
            six(u32::MAX),
            (vec![2359561648, 1728662761, 4228812394, 345245399, 906430052, 2562206466], 6)
        );
        // Just over 2^31: about half the draws are rejected, so the rejection loop is pinned too.
        let (v, words) = six(0x8000_0001);
        assert_eq!(v, [453215026, 609220905, 1961955372, 1526023835, 1065338123, 1524802631]);
        assert_eq!(words, 15, "32-bit words drawn for 6 draws: 9 rejected");
    }

    #[test]
    fn draws_from_64_bit_words_are_pinned() {
        let six = |n| {
            let mut s = Stream::new(1, 0);
            let v: Vec<u64> = (0..6).map(|_| s.below_u64(n)).collect();
            (v, s.0.get_word_pos())
        };
        assert_eq!(six(1).0, vec![0; 6]);
        assert_eq!(six(6), (vec![2, 0, 3, 1, 1, 4], 12));
        // Just over 2^63: about half the draws are rejected, so the rejection loop is pinned too.
        let (v, words) = six((1 << 63) + 1);
        assert_eq!(
            v,
            [
                3712275015481296600,
                741408853161625397,
                2616583866949690866,
                6554222466203455532,
                4252787763281118475,
                6517456707042423940
            ]
        );
        assert_eq!(words, 20, "32-bit words drawn for 6 draws: 4 draws of 64 bits rejected");
    }

    #[test]
    fn subseeds_are_pinned() {
        assert_eq!(subseed(0, 0), 0);
        assert_eq!(subseed(1, 0), 0x5692161d100b05e5);
        assert_eq!(subseed(1, 1), 0xe4d971771b652c20);
        assert_eq!(subseed(42, 3), 0x5fd30d2fcbef75e3);
        assert_eq!(subseed(u64::MAX, 12345), 0x75f45bbef9486507);
    }

    #[test]
    fn the_batch_cut_is_pinned() {
        let cut = |n| batches(n).iter().map(|b| (b.index, b.first, b.len)).collect::<Vec<_>>();
        assert_eq!(cut(0), []);
        assert_eq!(cut(1), [(0, 0, 1)]);
        assert_eq!(cut(65_536), [(0, 0, 65_536)]);
        assert_eq!(cut(65_537), [(0, 0, 65_536), (1, 65_536, 1)]);
        assert_eq!(
            cut(200_000),
            [(0, 0, 65_536), (1, 65_536, 65_536), (2, 131_072, 65_536), (3, 196_608, 3_392)]
        );
    }
}
