//! A run shared by several processes (see [`crate::exchange`]): each child goes to the
//! process that owns its hash shard, and the mass absorbed by each process is added up at
//! the end. States and absorbing classes cross as 64-bit codes, as in saved runs.

use super::parents::SHARDS;
use super::shards::Children;
use crate::error::EngineError;
use crate::exchange::{self, Exchange};
use rug::integer::Order;
use rug::{Integer, Rational};
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
                    out.extend_from_slice(&(keys.len() as u64).to_le_bytes());
                    out.extend(keys.iter().flat_map(|&k| (self.state_code)(k).to_le_bytes()));
                    out.extend(nums.iter().flat_map(|w| w.to_le_bytes()));
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
        let words = |from: usize, n: usize| {
            bytes[8 * from..8 * (from + n)]
                .chunks_exact(8)
                .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
        };
        let mut out = Vec::new();
        let mut at = 0;
        while 8 * at < bytes.len() {
            let n = words(at, 1).next().expect("a count") as usize;
            let keys = words(at + 1, n)
                .map(|c| (self.state_of)(c).expect("a state code from this program's own processes"))
                .collect();
            let nums = words(at + 1 + n, n * stride).collect();
            out.push((keys, nums));
            at += 1 + n + n * stride;
        }
        out
    }

    /// The mass every process absorbed, added up (the same on every process).
    pub(super) fn add_up(&self, mine: &BTreeMap<K, Rational>) -> BTreeMap<K, Rational> {
        let mut bytes = Vec::new();
        for (k, v) in mine {
            bytes.extend_from_slice(&(self.key_code)(k).to_le_bytes());
            for n in [v.numer(), v.denom()] {
                let mut digits = vec![0u8; n.significant_digits::<u8>()];
                n.write_digits(&mut digits, Order::Lsf);
                bytes.push(u8::from(*n < 0));
                bytes.extend_from_slice(&(digits.len() as u64).to_le_bytes());
                bytes.extend_from_slice(&digits);
            }
        }
        let mut all: BTreeMap<K, Rational> = BTreeMap::new();
        for part in self.exchange.all_gather(&bytes) {
            let mut at = 0;
            let word = |at: &mut usize| {
                let w = u64::from_le_bytes(part[*at..*at + 8].try_into().expect("8 bytes"));
                *at += 8;
                w
            };
            while at < part.len() {
                let key =
                    (self.key_of)(word(&mut at)).expect("a class code from this program's own processes");
                let number = |at: &mut usize| {
                    let negative = part[*at] == 1;
                    *at += 1;
                    let len = word(at) as usize;
                    let n = Integer::from_digits(&part[*at..*at + len], Order::Lsf);
                    *at += len;
                    if negative { -n } else { n }
                };
                let (numer, denom) = (number(&mut at), number(&mut at));
                *all.entry(key).or_default() += Rational::from((numer, denom));
            }
        }
        all
    }
}
