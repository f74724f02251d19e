//! Sorting many 64-bit words side by side by their top bits, faster than a comparison sort:
//! the words are dealt into buckets by the top bits of their key (every key of a bucket is
//! below every key of the next), and each bucket, small enough for a core's cache, is sorted
//! on its own by the rest of the key, a radix of up to 11 bits at a time. The coach's search
//! sorts each layer's classes this way (a class and its slot in one word, sorted by the
//! class). Also here: a slice cut into parts to fill side by side, which the sort and the
//! coach's passes share, a buffer grown side by side, its memory kept, and the set bits of a
//! word one by one.

use rayon::prelude::*;

/// Buckets are named by this many top bits of a key's offset from the smallest key.
const BUCKET_BITS: u32 = 12;

/// A bucket is sorted by at most this many bits a pass (2^11 counts, 16 KB, in a core's
/// first cache).
const DIGIT_BITS: u32 = 11;

/// Fewer words than this are sorted in one piece.
const SMALL: usize = 1 << 16;

/// Sorts `words` by their bits above the lowest `low_bits` (the key), ascending; words of
/// equal keys keep their order.
pub fn sort_above(words: &mut [u64], low_bits: u32) {
    let key = |w: u64| w.checked_shr(low_bits).unwrap_or(0);
    if words.len() < SMALL {
        words.sort_by_key(|&w| key(w));
        return;
    }
    let (low, high) = words
        .par_iter()
        .fold(|| (u64::MAX, 0), |(l, h), &w| (l.min(key(w)), h.max(key(w))))
        .reduce(|| (u64::MAX, 0), |(l1, h1), (l2, h2)| (l1.min(l2), h1.max(h2)));
    // A word's bucket: the top bits of its key's offset from the smallest, in order; the
    // bits below them sort the bucket.
    let shift = (u64::BITS - (high - low).leading_zeros()).saturating_sub(BUCKET_BITS);
    let bucket = |w: u64| ((key(w) - low) >> shift) as usize;
    let buckets = 1 << BUCKET_BITS;
    // Slices dealt out side by side, each into its own buckets one after another, in order.
    let size = words.len().div_ceil(4 * rayon::current_num_threads());
    let dealt: Vec<(Vec<u64>, Vec<usize>)> = words
        .par_chunks(size)
        .map(|slice| {
            let mut starts = vec![0usize; buckets + 1];
            slice.iter().for_each(|&w| starts[bucket(w) + 1] += 1);
            for b in 0..buckets {
                starts[b + 1] += starts[b];
            }
            let mut next = starts.clone();
            let mut out = vec![0u64; slice.len()];
            for &w in slice {
                let b = bucket(w);
                out[next[b]] = w;
                next[b] += 1;
            }
            (out, starts)
        })
        .collect();
    // Each bucket gathered from every slice into its place, then sorted by the rest of its key.
    let lengths =
        (0..buckets).map(|b| dealt.iter().map(|(_, starts)| starts[b + 1] - starts[b]).sum::<usize>());
    cut(words, lengths).into_par_iter().enumerate().for_each_init(Vec::new, |spare, (b, (_, part))| {
        let mut at = 0;
        for (out, starts) in &dealt {
            let from = &out[starts[b]..starts[b + 1]];
            part[at..at + from.len()].copy_from_slice(from);
            at += from.len();
        }
        by_radix(part, spare, |w| key(w) - low, shift);
    });
}

/// Sorts `part` by the lowest `bits` bits of `key`, keeping the order of equal ones: a stable
/// counting pass for each digit from the lowest, between `part` and `spare`.
fn by_radix(part: &mut [u64], spare: &mut Vec<u64>, key: impl Fn(u64) -> u64, bits: u32) {
    let passes = bits.div_ceil(DIGIT_BITS);
    if passes == 0 || part.len() < 2 {
        return;
    }
    let digit_bits = bits.div_ceil(passes);
    spare.clear();
    spare.resize(part.len(), 0);
    let mut counts = vec![0usize; 1 << digit_bits];
    let mut in_part = true;
    for pass in 0..passes {
        let digit = |w: u64| ((key(w) >> (pass * digit_bits)) & ((1 << digit_bits) - 1)) as usize;
        let (from, to): (&[u64], &mut [u64]) = if in_part { (part, spare) } else { (spare, part) };
        counts.fill(0);
        from.iter().for_each(|&w| counts[digit(w)] += 1);
        let mut at = 0;
        for count in counts.iter_mut() {
            (*count, at) = (at, at + *count);
        }
        for &w in from {
            let d = digit(w);
            to[counts[d]] = w;
            counts[d] += 1;
        }
        in_part = !in_part;
    }
    if !in_part {
        part.copy_from_slice(spare);
    }
}

/// `buffer` made `len` items long, its memory kept: the items it lacks, made by `new`, added
/// by every core at once. A large block is grown in place by the command's allocator (its
/// pages moved as they are), so only the pages added are first touched, each by the core
/// that writes it: on this project's virtual machines a page first touched costs many times
/// what writing a page held does.
pub(crate) fn grow_to<T: Send>(buffer: &mut Vec<T>, len: usize, new: impl Fn() -> T + Sync + Send) {
    if buffer.len() >= len {
        buffer.truncate(len);
    } else {
        buffer.reserve_exact(len - buffer.len());
        buffer.par_extend((buffer.len()..len).into_par_iter().map(|_| new()));
    }
}

/// `items` cut into consecutive parts of the given lengths, each with the index of its first
/// item: parts to fill side by side.
pub(crate) fn cut<T>(
    mut items: &mut [T],
    lengths: impl IntoIterator<Item = usize>,
) -> Vec<(usize, &mut [T])> {
    let mut first = 0;
    lengths
        .into_iter()
        .map(|n| {
            let (part, rest) = std::mem::take(&mut items).split_at_mut(n);
            items = rest;
            first += n;
            (first - n, part)
        })
        .collect()
}

/// The set bits of a mask, ascending.
pub(crate) struct Bits(pub(crate) u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let bit = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            bit
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bucket sort gives what a stable comparison sort by the key gives, on words spread
    /// evenly, words crowded into a few buckets, repeated words, words near 2^64, and small
    /// inputs, with no low bits ignored and with 20 and 63.
    #[test]
    fn sorts_as_a_stable_comparison_sort_does() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let inputs: Vec<Vec<u64>> = vec![
            (0..300_000).map(|_| next()).collect(),
            // Most words in one bucket, a few far above them.
            (0..200_000).map(|i| if i % 1000 == 0 { next() } else { next() % 5000 }).collect(),
            (0..100_000).map(|_| next() % 7).collect(),
            (0..100_000).map(|_| u64::MAX - next() % 100_000).collect(),
            // Few keys above the low 20 bits, each key's words in a random order below.
            (0..150_000).map(|_| ((next() % 300) << 20) | (next() % (1 << 20))).collect(),
            vec![5; 70_000],
            (0..1000).map(|_| next()).collect(),
            Vec::new(),
        ];
        for (k, words) in inputs.into_iter().enumerate() {
            for low_bits in [0, 20, 63] {
                let mut expected = words.clone();
                expected.sort_by_key(|&w| w >> low_bits);
                let mut sorted = words.clone();
                sort_above(&mut sorted, low_bits);
                assert!(sorted == expected, "input {k}, low bits {low_bits}");
            }
        }
    }
}
