//! The engine's bytes: little-endian 64-bit words, big numbers as sign, limb count and
//! limbs, and maps of fractions by 64-bit class code. Saved runs (`saved`) and the parcels
//! between the processes of a shared run (`across`, `Layer`) are written and read here.

use rug::integer::Order;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

pub(super) struct Writer<'a>(pub &'a mut Vec<u8>);

impl Writer<'_> {
    pub fn word(&mut self, w: u64) {
        self.0.extend_from_slice(&w.to_le_bytes());
    }

    /// Sign, limb count, limbs.
    pub fn integer(&mut self, n: &Integer) {
        self.word(u64::from(n.is_negative()));
        let mut limbs = vec![0u64; n.significant_digits::<u64>()];
        n.write_digits(&mut limbs, Order::Lsf);
        self.word(limbs.len() as u64);
        limbs.into_iter().for_each(|l| self.word(l));
    }

    /// Count, then each class's code (`key`), numerator and denominator.
    pub fn fractions<K>(&mut self, map: &BTreeMap<K, Rational>, key: impl Fn(&K) -> u64) {
        self.word(map.len() as u64);
        for (k, v) in map {
            self.word(key(k));
            self.integer(v.numer());
            self.integer(v.denom());
        }
    }

    /// Count, then each class's code (`key`), its number of residues and its `(prime,
    /// residue)` pairs.
    pub fn residues<K>(&mut self, map: &BTreeMap<K, Vec<(u64, u64)>>, key: impl Fn(&K) -> u64) {
        self.word(map.len() as u64);
        for (k, pairs) in map {
            self.word(key(k));
            self.word(pairs.len() as u64);
            pairs
                .iter()
                .for_each(|&(prime, residue)| [prime, residue].into_iter().for_each(|w| self.word(w)));
        }
    }
}

/// Reads what `Writer` wrote, refusing in words anything cut short or malformed.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// Whether every byte has been read.
    pub fn is_done(&self) -> bool {
        self.at == self.bytes.len()
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or("it is cut short")?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    pub fn word(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("eight bytes")))
    }

    /// A count of items of at least `each` bytes apiece: refused when the bytes left cannot
    /// hold that many, so a corrupt count never drives a huge allocation.
    pub fn count(&mut self, each: usize) -> Result<usize, String> {
        let n = usize::try_from(self.word()?).map_err(|_| "a count is out of range")?;
        let left = self.bytes.len() - self.at;
        if each > 0 && n > left / each {
            return Err("it is cut short".into());
        }
        Ok(n)
    }

    pub fn integer(&mut self) -> Result<Integer, String> {
        let negative = match self.word()? {
            0 => false,
            1 => true,
            _ => return Err("it holds a malformed number".into()),
        };
        let len = self.count(8)?;
        let limbs: Vec<u64> = (0..len).map(|_| self.word()).collect::<Result<_, _>>()?;
        let n = super::limbs::to_integer(&limbs);
        Ok(if negative { -n } else { n })
    }

    /// What `Writer::fractions` wrote, each class's code mapped back by `key`.
    pub fn fractions<K: Ord>(
        &mut self,
        key: impl Fn(u64) -> Option<K>,
    ) -> Result<BTreeMap<K, Rational>, String> {
        let mut map = BTreeMap::new();
        for _ in 0..self.count(3 * 8)? {
            let k = key(self.word()?).ok_or("it holds an absorbing class this chain does not have")?;
            let (numer, denom) = (self.integer()?, self.integer()?);
            if denom <= 0 {
                return Err("it holds a fraction with a denominator that is not positive".into());
            }
            map.insert(k, Rational::from((numer, denom)));
        }
        Ok(map)
    }
}

impl Reader<'_> {
    /// What `Writer::residues` wrote, each class's code mapped back by `key`.
    pub fn residues<K: Ord>(
        &mut self,
        key: impl Fn(u64) -> Option<K>,
    ) -> Result<BTreeMap<K, Vec<(u64, u64)>>, String> {
        let mut map = BTreeMap::new();
        for _ in 0..self.count(2 * 8)? {
            let k = key(self.word()?).ok_or("it holds an absorbing class this chain does not have")?;
            let len = self.count(2 * 8)?;
            let pairs =
                (0..len).map(|_| Ok((self.word()?, self.word()?))).collect::<Result<Vec<_>, String>>()?;
            map.insert(k, pairs);
        }
        Ok(map)
    }
}

/// Bytes as the words they hold (a whole number of words, written by `Writer::word`).
pub(super) fn words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().expect("eight bytes")))
}

/// Words as bytes.
pub(super) fn bytes_of(words: impl IntoIterator<Item = u64>) -> Vec<u8> {
    words.into_iter().flat_map(u64::to_le_bytes).collect()
}
