//! The whole state of a run between two layers, so a long run can be saved after every
//! finished layer and resumed later as if it had never stopped.
//!
//! Between layers a run is: the mass waiting at every lower rank (states and numerators),
//! the common denominator, what has been absorbed so far, and what the budget remembers
//! of the layers before. `encode` writes it as bytes (little-endian, with the caller's
//! codes for states and absorbing classes) and `decode` reads them back, refusing anything
//! malformed in words rather than trusting it.

use super::alloc;
use super::arena::Bucket;
use super::budget::History;
use super::passes::PassesDone;
use super::pending::Pending;
use super::wire::{Reader, Writer};
use crate::error::EngineError;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// The format of the bytes `RunState::encode` writes: a caller may record it beside them,
/// so that a save of another format is refused in words before it is read.
pub const FORMAT: u8 = 3;

/// What a saved run begins with, so bytes from another format are refused.
const MAGIC: &[u8; 8] = &[b'p', b'c', b'r', b'u', b'n', 0, 0, FORMAT];

/// A run between two layers (see [`Options::checkpoint`](super::Options)).
pub struct RunState<S, K> {
    pub(super) start: S,
    pub(super) finished_layers: u32,
    pub(super) denominator: Integer,
    pub(super) absorbed: BTreeMap<K, Rational>,
    pub(super) pending: Pending<S>,
    pub(super) history: History,
    /// In a run by residues: the mass absorbed so far in the pass under way, by class, one
    /// residue a prime of the pass.
    pub(super) lanes: BTreeMap<K, Vec<u64>>,
    /// In a run by residues: what the passes before the one under way found.
    pub(super) passes: Option<PassesDone<K>>,
}

impl<S: Copy, K> RunState<S, K> {
    /// The layers finished so far.
    pub fn finished_layers(&self) -> u32 {
        self.finished_layers
    }

    /// The start the run began from (a resumed run must begin from the same).
    pub fn start(&self) -> S {
        self.start
    }

    /// The passes of a run by residues finished before the one under way (0 in the first
    /// pass, and in a run by big numbers): with `finished_layers` 1, the state a pass begins
    /// from, a few kilobytes (what the passes before found, and one state waiting).
    pub fn passes_finished(&self) -> u32 {
        self.passes.as_ref().map_or(0, |done| done.index)
    }

    /// Appends the bytes of this state to `out`: `state` and `key` give each state and
    /// absorbing class a 64-bit code that the decoder's inverses map back. The room is
    /// reserved at once, fallibly: a save too large for memory is refused, never an abort.
    pub fn encode_into(
        &self,
        out: &mut Vec<u8>,
        state: impl Fn(S) -> u64,
        key: impl Fn(&K) -> u64,
    ) -> Result<(), EngineError> {
        let limbs = |n: &Integer| 2 + n.significant_digits::<u64>();
        let waiting: usize = self.pending.buckets.values().map(|b| 4 + b.len() * (1 + b.stride)).sum();
        let absorbed: usize = self.absorbed.values().map(|v| 1 + limbs(v.numer()) + limbs(v.denom())).sum();
        let lanes: usize = self.lanes.values().map(|l| 2 + l.len()).sum();
        let passes = self.passes.as_ref().map_or(0, |p| {
            3 + limbs(&p.denominator) + 1 + p.found.values().map(|f| 2 + 2 * f.len()).sum::<usize>()
        });
        let words = 6 + limbs(&self.denominator) + absorbed + waiting + 2 + lanes + passes;
        alloc::reserve(out, MAGIC.len() + 8 * words)?;
        let mut out = Writer(out);
        out.0.extend_from_slice(MAGIC);
        out.word(state(self.start));
        out.word(u64::from(self.finished_layers));
        out.word(self.history.previous_len as u64);
        out.word(self.history.moves_per_state.to_bits());
        out.integer(&self.denominator);
        out.fractions(&self.absorbed, &key);
        out.word(self.pending.buckets.len() as u64);
        for (rank, bucket) in &self.pending.buckets {
            out.word(u64::from(*rank));
            out.word(u64::from(bucket.batches));
            out.word(bucket.stride as u64);
            out.word(bucket.len() as u64);
            bucket.keys.iter().for_each(|&s| out.word(state(s)));
            bucket.nums.iter().for_each(|&limb| out.word(limb));
        }
        out.word(self.lanes.len() as u64);
        for (k, lanes) in &self.lanes {
            out.word(key(k));
            out.word(lanes.len() as u64);
            lanes.iter().for_each(|&w| out.word(w));
        }
        match &self.passes {
            None => out.word(0),
            Some(p) => {
                out.word(1);
                out.word(u64::from(p.index));
                out.word(u64::from(p.round));
                out.word(p.needed.map_or(u64::MAX, |n| n as u64));
                out.integer(&p.denominator);
                out.residues(&p.found, &key);
            }
        }
        Ok(())
    }

    /// The bytes of this state (see `encode_into`).
    pub fn encode(&self, state: impl Fn(S) -> u64, key: impl Fn(&K) -> u64) -> Result<Vec<u8>, EngineError> {
        let mut out = Vec::new();
        self.encode_into(&mut out, state, key)?;
        Ok(out)
    }

    /// The state `encode` wrote, or what is wrong with the bytes.
    pub fn decode(
        bytes: &[u8],
        state: impl Fn(u64) -> Option<S>,
        key: impl Fn(u64) -> Option<K>,
    ) -> Result<RunState<S, K>, String>
    where
        K: Ord,
    {
        let mut r = Reader::new(bytes);
        if r.take(MAGIC.len())? != MAGIC {
            return Err("it is not a saved run of this version".into());
        }
        let bad_state = || "it holds a state this chain does not have".to_string();
        let start = state(r.word()?).ok_or_else(bad_state)?;
        let finished_layers = u32::try_from(r.word()?).map_err(|_| "its layer count is out of range")?;
        let previous_len = r.count(1)?.max(1);
        let moves_per_state = f64::from_bits(r.word()?);
        let denominator = r.integer()?;
        if denominator <= 0 {
            return Err("its denominator is not positive".into());
        }
        let absorbed = r.fractions(&key)?;
        let mut pending = BTreeMap::new();
        for _ in 0..r.count(4 * 8)? {
            let rank = u32::try_from(r.word()?).map_err(|_| "a rank is out of range")?;
            let batches = u32::try_from(r.word()?).map_err(|_| "a batch count is out of range")?;
            let stride = r.count(0)?;
            if stride == 0 {
                return Err("a layer has numerators of no width".into());
            }
            let len = r.count(8 * (1 + stride))?;
            let keys: Result<Vec<S>, String> =
                (0..len).map(|_| r.word().and_then(|w| state(w).ok_or_else(bad_state))).collect();
            let nums: Result<Vec<u64>, String> = (0..len * stride).map(|_| r.word()).collect();
            pending.insert(rank, Bucket { keys: keys?, nums: nums?, stride, batches });
        }
        let bad_key = || "it holds an absorbing class this chain does not have".to_string();
        let mut lanes = BTreeMap::new();
        for _ in 0..r.count(2 * 8)? {
            let k = key(r.word()?).ok_or_else(bad_key)?;
            let len = r.count(8)?;
            lanes.insert(k, (0..len).map(|_| r.word()).collect::<Result<Vec<u64>, String>>()?);
        }
        let passes = match r.word()? {
            0 => None,
            1 => {
                let index = u32::try_from(r.word()?).map_err(|_| "a pass count is out of range")?;
                let round = u32::try_from(r.word()?).map_err(|_| "a round count is out of range")?;
                let needed = match r.word()? {
                    u64::MAX => None,
                    n => Some(usize::try_from(n).map_err(|_| "a prime count is out of range")?),
                };
                let denominator = r.integer()?;
                let found = r.residues(&key)?;
                Some(PassesDone { found, needed, denominator, index, round })
            }
            _ => return Err("it holds a malformed record of passes".into()),
        };
        // A pass by residues keeps one word a prime for every number: one width throughout.
        if passes.is_some() {
            let mut widths = pending.values().map(|b| b.stride).chain(lanes.values().map(Vec::len));
            if let Some(first) = widths.next()
                && widths.any(|w| w != first)
            {
                return Err("it holds residues of different widths".into());
            }
        }
        if !r.is_done() {
            return Err("it has bytes after the end of the saved run".into());
        }
        Ok(RunState {
            start,
            finished_layers,
            denominator,
            absorbed,
            pending: Pending { buckets: pending },
            history: History { previous_len, moves_per_state },
            lanes,
            passes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RunState<u8, u8> {
        let mut bucket = Bucket::new(2);
        bucket.push(7, &[u64::MAX, 3]).unwrap();
        bucket.push(9, &[5]).unwrap();
        bucket.batches = 2;
        RunState {
            start: 20,
            finished_layers: 3,
            denominator: Integer::from(Integer::u_pow_u(6, 40)),
            absorbed: BTreeMap::from([(1, Rational::from((5, 36))), (2, Rational::from((-1, 7)))]),
            pending: Pending { buckets: BTreeMap::from([(4, bucket)]) },
            history: History { previous_len: 12, moves_per_state: 2.5 },
            lanes: BTreeMap::from([(1, vec![3, u64::MAX]), (2, vec![0, 1])]),
            passes: Some(PassesDone {
                found: BTreeMap::from([(1, vec![(11, 4), (13, 5)])]),
                needed: Some(7),
                denominator: Integer::from(Integer::u_pow_u(6, 50)),
                index: 2,
                round: 3,
            }),
        }
    }

    fn same(a: &RunState<u8, u8>, b: &RunState<u8, u8>) -> bool {
        let bucket = |s: &RunState<u8, u8>| {
            s.pending
                .buckets
                .iter()
                .map(|(r, b)| (*r, b.keys.clone(), b.nums.clone(), b.stride, b.batches))
                .collect::<Vec<_>>()
        };
        (a.start, a.finished_layers, &a.denominator, &a.absorbed)
            == (b.start, b.finished_layers, &b.denominator, &b.absorbed)
            && bucket(a) == bucket(b)
            && (a.history.previous_len, a.history.moves_per_state)
                == (b.history.previous_len, b.history.moves_per_state)
            && a.lanes == b.lanes
            && a.passes == b.passes
    }

    #[test]
    fn a_state_reads_back_as_written() {
        let s = sample();
        let bytes = s.encode(u64::from, |&k| u64::from(k)).unwrap();
        assert_eq!(bytes.len(), bytes.capacity(), "the room reserved is exact");
        let back = RunState::decode(&bytes, |w| u8::try_from(w).ok(), |w| u8::try_from(w).ok()).unwrap();
        assert!(same(&s, &back));
    }

    #[test]
    fn damaged_bytes_are_refused_in_words() {
        let bytes = sample().encode(u64::from, |&k| u64::from(k)).unwrap();
        let decode =
            |b: &[u8]| RunState::<u8, u8>::decode(b, |w| u8::try_from(w).ok(), |w| u8::try_from(w).ok());
        // Every cut is refused, never read as a shorter state.
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut} was accepted");
        }
        // A pass by residues whose numbers are not all one width.
        let mut uneven = sample();
        uneven.lanes.insert(3, vec![1, 2, 3]);
        let uneven = uneven.encode(u64::from, |&k| u64::from(k)).unwrap();
        assert_eq!(decode(&uneven).err().unwrap(), "it holds residues of different widths");
        let mut extra = bytes.clone();
        extra.push(0);
        assert_eq!(decode(&extra).err().unwrap(), "it has bytes after the end of the saved run");
        let mut other = bytes.clone();
        other[0] = b'x';
        assert_eq!(decode(&other).err().unwrap(), "it is not a saved run of this version");
        // A state code this chain does not have.
        let only_small = |w: u64| (w < 8).then_some(w as u8);
        assert_eq!(
            RunState::<u8, u8>::decode(&bytes, only_small, |w| u8::try_from(w).ok()).err().unwrap(),
            "it holds a state this chain does not have"
        );
        // A huge count is refused by the bytes left, not allocated.
        let mut huge = bytes.clone();
        // The count of absorbed classes: after the magic, four words, and the denominator
        // 6^40 (sign, length and two limbs).
        let at = MAGIC.len() + 4 * 8 + 4 * 8;
        assert_eq!(bytes[at..at + 8], 2u64.to_le_bytes());
        huge[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode(&huge).is_err());
    }
}
