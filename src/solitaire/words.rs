//! Sorting many 64-bit words side by side, faster than a comparison sort: the words are
//! dealt into buckets by their top bits (every word of a bucket is below every word of the
//! next), and each bucket, small enough for a core's cache, is sorted on its own. The coach's
//! search sorts each layer's classes this way (a class and an index in one word). Also here:
//! a slice cut into parts to fill side by side, which the sort and the coach's passes share.

use rayon::prelude::*;

/// Buckets are named by this many top bits of a word's offset from the smallest word.
const BUCKET_BITS: u32 = 12;

/// Fewer words than this are sorted in one piece.
const SMALL: usize = 1 << 16;

/// Sorts `words` ascending.
pub fn sort(words: &mut [u64]) {
    if words.len() < SMALL {
        words.sort_unstable();
        return;
    }
    let (low, high) = words
        .par_iter()
        .fold(|| (u64::MAX, 0), |(l, h), &w| (l.min(w), h.max(w)))
        .reduce(|| (u64::MAX, 0), |(l1, h1), (l2, h2)| (l1.min(l2), h1.max(h2)));
    // A word's bucket: the top bits of its offset from the smallest, in order.
    let shift = (u64::BITS - (high - low).leading_zeros()).saturating_sub(BUCKET_BITS);
    let bucket = |w: u64| ((w - low) >> shift) as usize;
    let buckets = 1 << BUCKET_BITS;
    // Slices dealt out side by side, each into its own buckets one after another.
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
    // Each bucket gathered from every slice into its place, then sorted.
    let lengths =
        (0..buckets).map(|b| dealt.iter().map(|(_, starts)| starts[b + 1] - starts[b]).sum::<usize>());
    cut(words, lengths).into_par_iter().enumerate().for_each(|(b, (_, part))| {
        let mut at = 0;
        for (out, starts) in &dealt {
            let from = &out[starts[b]..starts[b + 1]];
            part[at..at + from.len()].copy_from_slice(from);
            at += from.len();
        }
        part.sort_unstable();
    });
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The bucket sort gives what a comparison sort gives, on words spread evenly, words
    /// crowded into a few buckets, repeated words, words near 2^64, and small inputs.
    #[test]
    fn sorts_as_a_comparison_sort_does() {
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
            vec![5; 70_000],
            (0..1000).map(|_| next()).collect(),
            Vec::new(),
        ];
        for (k, mut words) in inputs.into_iter().enumerate() {
            let mut expected = words.clone();
            expected.sort_unstable();
            sort(&mut words);
            assert!(words == expected, "input {k}");
        }
    }
}
