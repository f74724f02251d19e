//! A run shared by several processes (see [`crate::exchange`]): each child goes to the
//! process that owns its hash shard, and the mass absorbed by each process is added up at
//! the end. States and absorbing classes cross as 64-bit codes, as in saved runs.

use super::parents::SHARDS;
use super::shards::Children;
use super::wire::{self, Reader, Writer};
use crate::error::EngineError;
use crate::exchange::{self, Exchange};
use rug::Rational;
use std::collections::BTreeMap;

/// Children from one process, by shard.
pub(super) type Batch<S> = Vec<Children<S>>;

/// The transport of a shared run and the codes of what crosses it: `state_code` and
/// `key_code` give each state and absorbing class a 64-bit code that `state_of` and
/// `key_of` map back.
pub struct Across<'a, S, K> {
    pub exchange: &'a dyn Exchange,
    pub state_code: fn(S) -> u64,
    pub state_of: fn(u64) -> Option<S>,
    pub key_code: fn(&K) -> u64,
    pub key_of: fn(u64) -> Option<K>,
}

impl<S, K> Clone for Across<'_, S, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S, K> Copy for Across<'_, S, K> {}

impl<S: Copy, K: Ord + Clone> Across<'_, S, K> {
    /// The processes meet: sends every shard's children (`stride` limbs each) to the process
    /// that owns the shard, or this process's failure to build them. Returns the children
    /// this process owns, one batch per process that had any (a child met by two
    /// processes is in two batches), and the bytes sent to the others.
    pub(super) fn route(
        &self,
        children: Result<Vec<Children<S>>, EngineError>,
        stride: usize,
    ) -> Result<(Vec<Batch<S>>, u64), EngineError> {
        let (processes, me) = (self.exchange.processes(), self.exchange.me());
        let mut own = Vec::new();
        let parcels: Vec<Vec<u8>> = match children {
            Err(e) => vec![exchange::status(&Err(e)); processes],
            Ok(shards) => {
                let mut parcels: Vec<Vec<u8>> = (0..processes).map(|_| vec![0u8]).collect();
                for (s, (keys, nums)) in shards.into_iter().enumerate() {
                    let to = s % processes;
                    if to == me {
                        own.push((keys, nums));
                        continue;
                    }
                    let out = &mut parcels[to];
                    let mut out = Writer(out);
                    out.word(keys.len() as u64);
                    keys.iter().for_each(|&k| out.word((self.state_code)(k)));
                    nums.iter().for_each(|&w| out.word(w));
                }
                // This process's own parcel stays here: only its status is looked at.
                parcels[me].truncate(1);
                parcels
            }
        };
        let sent = parcels.iter().enumerate().filter(|(p, _)| *p != me).map(|(_, b)| b.len() as u64).sum();
        let received = self.exchange.all_to_all(parcels);
        let parts = exchange::payloads((0..processes).map(|p| received.from(p)))?;
        let mut batches = vec![own];
        for (from, bytes) in parts.into_iter().enumerate() {
            if from != me && !bytes.is_empty() {
                batches.push(self.read_children(bytes, stride));
            }
        }
        debug_assert!(batches[0].len() <= SHARDS);
        Ok((batches, sent))
    }

    /// The shards another process sent, as `route` wrote them.
    fn read_children(&self, bytes: &[u8], stride: usize) -> Vec<Children<S>> {
        let mut words = wire::words(bytes);
        let mut out = Vec::new();
        while let Some(n) = words.next() {
            let n = n as usize;
            let keys = (&mut words)
                .take(n)
                .map(|c| (self.state_of)(c).expect("a state code from this program's own processes"))
                .collect();
            out.push((keys, (&mut words).take(n * stride).collect()));
        }
        out
    }

    /// Every process's residues of the absorbed mass (by class, `(prime, residue)` pairs),
    /// brought together (the same on every process).
    pub(super) fn gather_residues(
        &self,
        mine: &BTreeMap<K, Vec<(u64, u64)>>,
    ) -> BTreeMap<K, Vec<(u64, u64)>> {
        let mut bytes = Vec::new();
        Writer(&mut bytes).residues(mine, self.key_code);
        let mut all: BTreeMap<K, Vec<(u64, u64)>> = BTreeMap::new();
        for part in self.exchange.all_gather(&bytes) {
            let theirs =
                Reader::new(&part).residues(self.key_of).expect("residues from this program's own processes");
            for (k, residues) in theirs {
                all.entry(k).or_default().extend(residues);
            }
        }
        all
    }

    /// The mass every process absorbed, added up (the same on every process).
    pub(super) fn add_up(&self, mine: &BTreeMap<K, Rational>) -> BTreeMap<K, Rational> {
        let mut bytes = Vec::new();
        Writer(&mut bytes).fractions(mine, self.key_code);
        let mut all: BTreeMap<K, Rational> = BTreeMap::new();
        for part in self.exchange.all_gather(&bytes) {
            let theirs = Reader::new(&part)
                .fractions(self.key_of)
                .expect("fractions from this program's own processes");
            for (k, v) in theirs {
                *all.entry(k).or_default() += v;
            }
        }
        all
    }
}
