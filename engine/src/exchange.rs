//! Several processes running one chain together (over MPI, or any transport that can
//! gather and scatter bytes). Each process owns the states whose hash shard falls to it,
//! expands them, and sends each child to its owner, who adds up what it receives. The
//! engine speaks to the transport through [`Exchange`]; one process alone is [`Solo`].
//!
//! Every process takes the same steps in the same order, so a process that fails (out of
//! memory, cancelled, a broken chain) does not stop where it is: it carries its error to
//! the next point where the processes meet, and there every process learns it and stops
//! with the same error, that of the first process that failed.

use crate::error::EngineError;
use std::sync::{Arc, Barrier, Mutex};

/// A transport between the processes of one run. Each call is made by every process, in
/// the same order (a collective operation); a transport that fails may end the process.
pub trait Exchange: Send + Sync {
    /// How many processes share the run (1 alone).
    fn processes(&self) -> usize;
    /// This process's number, from 0.
    fn me(&self) -> usize;
    /// Sends `parcels[p]` to process p (one parcel per process, this one's own included)
    /// and returns the parcels sent to this one. Each parcel is dropped once it is on its way.
    fn all_to_all(&self, parcels: Vec<Vec<u8>>) -> Received;

    /// Every process's `bytes`, in process order.
    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let received = self.all_to_all(vec![bytes.to_vec(); self.processes()]);
        (0..self.processes()).map(|p| received.from(p).to_vec()).collect()
    }
}

/// The parcels sent to one process, in one buffer: what process p sent is
/// `bytes[starts[p]..starts[p + 1]]`.
pub struct Received {
    pub bytes: Vec<u8>,
    pub starts: Vec<usize>,
}

impl Received {
    /// The parcels in process order, laid end to end.
    pub fn of(parcels: impl IntoIterator<Item = Vec<u8>>) -> Received {
        let (mut bytes, mut starts) = (Vec::new(), vec![0]);
        for parcel in parcels {
            bytes.extend_from_slice(&parcel);
            starts.push(bytes.len());
        }
        Received { bytes, starts }
    }

    /// What process `p` sent.
    pub fn from(&self, p: usize) -> &[u8] {
        &self.bytes[self.starts[p]..self.starts[p + 1]]
    }
}

/// One process alone: every collective is the identity.
pub struct Solo;

impl Exchange for Solo {
    fn processes(&self) -> usize {
        1
    }
    fn me(&self) -> usize {
        0
    }
    fn all_to_all(&self, parcels: Vec<Vec<u8>>) -> Received {
        Received::of(parcels)
    }
}

/// Processes played by threads of one process, meeting in shared memory: for tests of a
/// shared run without a transport, and as the model a real transport must agree with.
pub struct InMemory {
    me: usize,
    processes: usize,
    room: Arc<Room>,
}

/// Where the threads meet: a barrier, and `slots[from][to]`, the bytes `from` left for `to`.
struct Room {
    barrier: Barrier,
    slots: Mutex<Vec<Vec<Vec<u8>>>>,
}

impl InMemory {
    /// `processes` members of one run, one for each thread.
    pub fn group(processes: usize) -> Vec<InMemory> {
        let room = Arc::new(Room {
            barrier: Barrier::new(processes),
            slots: Mutex::new(vec![vec![Vec::new(); processes]; processes]),
        });
        (0..processes).map(|me| InMemory { me, processes, room: room.clone() }).collect()
    }

    /// Runs `work` on `processes` threads, each a member of one group, and returns what each
    /// returned, in process order.
    pub fn run<T: Send>(processes: usize, work: impl Fn(InMemory) -> T + Sync) -> Vec<T> {
        std::thread::scope(|scope| {
            let work = &work;
            let threads: Vec<_> = InMemory::group(processes)
                .into_iter()
                .map(|member| scope.spawn(move || work(member)))
                .collect();
            threads.into_iter().map(|t| t.join().expect("a member's work does not panic")).collect()
        })
    }
}

impl Exchange for InMemory {
    fn processes(&self) -> usize {
        self.processes
    }
    fn me(&self) -> usize {
        self.me
    }
    fn all_to_all(&self, parcels: Vec<Vec<u8>>) -> Received {
        self.room.slots.lock().expect("no thread panics holding the room")[self.me] = parcels;
        self.room.barrier.wait();
        let received = {
            let mut slots = self.room.slots.lock().expect("no thread panics holding the room");
            Received::of(slots.iter_mut().map(|from| std::mem::take(&mut from[self.me])))
        };
        // Nobody leaves new parcels before everyone has taken theirs.
        self.room.barrier.wait();
        received
    }
}

/// A process's outcome as bytes: a zero byte and the payload, or a one byte and the error.
pub(crate) fn status(local: &Result<Vec<u8>, EngineError>) -> Vec<u8> {
    match local {
        Ok(payload) => [&[0u8][..], payload].concat(),
        Err(e) => {
            let mut out = vec![1u8];
            error_into(e, &mut out);
            out
        }
    }
}

/// The payloads of every process's `status`, or the error of the first that failed.
pub(crate) fn payloads<'r>(
    statuses: impl IntoIterator<Item = &'r [u8]>,
) -> Result<Vec<&'r [u8]>, EngineError> {
    let mut out = Vec::new();
    for s in statuses {
        match s.split_first() {
            Some((0, payload)) => out.push(payload),
            _ => return Err(error_from(s.get(1..).unwrap_or_default())),
        }
    }
    Ok(out)
}

/// Every process's payload, when every process succeeded; else the first failure, on every
/// process alike.
pub(crate) fn gather(
    exchange: &dyn Exchange,
    local: Result<Vec<u8>, EngineError>,
) -> Result<Vec<Vec<u8>>, EngineError> {
    let statuses = exchange.all_gather(&status(&local));
    Ok(payloads(statuses.iter().map(|s| &s[..]))?.into_iter().map(<[u8]>::to_vec).collect())
}

/// `local` when every process succeeded; else the first failure, on every process alike.
pub(crate) fn together<T>(exchange: &dyn Exchange, local: Result<T, EngineError>) -> Result<T, EngineError> {
    let mine = local.as_ref().map(|_| Vec::new()).map_err(Clone::clone);
    gather(exchange, mine)?;
    local
}

/// An error as a tag and its fields, 16 bytes each; a text as its length, then its bytes.
fn error_into(e: &EngineError, out: &mut Vec<u8>) {
    use EngineError::*;
    if let SpillFailed { dir, why } = e {
        out.push(10);
        for text in [dir, why] {
            out.extend_from_slice(&(text.len() as u128).to_le_bytes());
            out.extend_from_slice(text.as_bytes());
        }
        return;
    }
    let (tag, fields): (u8, Vec<u128>) = match *e {
        TooLarge { rank, states, bytes, budget } => {
            (0, vec![rank.into(), states.into(), bytes.into(), budget.into()])
        }
        LayerTooLarge { rank, states, limit } => (1, vec![rank.into(), states.into(), limit.into()]),
        AllocationFailed { bytes } => (2, vec![bytes.into()]),
        WeightTooLarge { weight } => (3, vec![weight.into()]),
        ZeroWeight { rank } => (4, vec![rank.into()]),
        WeightsDoNotSum { rank, total, sum } => (5, vec![rank.into(), total.into(), sum]),
        RankDidNotFall { from, to } => (6, vec![from.into(), to.into()]),
        Cancelled { finished_layers, rank } => (7, vec![finished_layers.into(), rank.into()]),
        NotSaved { finished_layers } => (8, vec![finished_layers.into()]),
        ResumedElsewhere => (9, vec![]),
        SpillFailed { .. } => unreachable!("written above"),
    };
    out.push(tag);
    for f in fields {
        out.extend_from_slice(&f.to_le_bytes());
    }
}

/// The error `error_into` wrote (bytes from this program's own processes).
fn error_from(bytes: &[u8]) -> EngineError {
    use EngineError::*;
    let f = |i: usize| -> u128 {
        let at = 1 + 16 * i;
        bytes.get(at..at + 16).map_or(0, |b| u128::from_le_bytes(b.try_into().expect("16 bytes")))
    };
    let (u32_, u64_) = (|i| f(i) as u32, |i| f(i) as u64);
    match bytes.first() {
        Some(0) => TooLarge { rank: u32_(0), states: u64_(1), bytes: u64_(2), budget: u64_(3) },
        Some(1) => LayerTooLarge { rank: u32_(0), states: u64_(1), limit: u64_(2) },
        Some(2) => AllocationFailed { bytes: u64_(0) },
        Some(3) => WeightTooLarge { weight: u64_(0) },
        Some(4) => ZeroWeight { rank: u32_(0) },
        Some(5) => WeightsDoNotSum { rank: u32_(0), total: u64_(1), sum: f(2) },
        Some(6) => RankDidNotFall { from: u32_(0), to: u32_(1) },
        Some(7) => Cancelled { finished_layers: u32_(0), rank: u32_(1) },
        Some(8) => NotSaved { finished_layers: u32_(0) },
        Some(10) => {
            let mut texts = Vec::new();
            let mut at = 1;
            for _ in 0..2 {
                let len = bytes
                    .get(at..at + 16)
                    .map_or(0, |b| u128::from_le_bytes(b.try_into().expect("16 bytes")));
                let text = bytes.get(at + 16..).unwrap_or(&[]);
                let text = &text[..(len as usize).min(text.len())];
                texts.push(String::from_utf8_lossy(text).into_owned());
                at += 16 + text.len();
            }
            let why = texts.pop().unwrap_or_default();
            SpillFailed { dir: texts.pop().unwrap_or_default(), why }
        }
        _ => ResumedElsewhere,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_crosses_between_processes_unchanged() {
        use EngineError::*;
        let all = [
            TooLarge { rank: 3, states: 1 << 40, bytes: u64::MAX, budget: 7 },
            LayerTooLarge { rank: 1, states: 2, limit: 3 },
            AllocationFailed { bytes: 99 },
            WeightTooLarge { weight: 1 << 33 },
            ZeroWeight { rank: 4 },
            WeightsDoNotSum { rank: 5, total: 6, sum: u128::MAX },
            RankDidNotFall { from: 2, to: 9 },
            Cancelled { finished_layers: 11, rank: 12 },
            NotSaved { finished_layers: 13 },
            ResumedElsewhere,
            SpillFailed { dir: "/tmp/spill é".into(), why: "No space left on device (os error 28)".into() },
        ];
        for e in all {
            let statuses =
                [status(&Ok(vec![5])), status(&Err(e.clone())), status(&Err(ZeroWeight { rank: 0 }))];
            // The first process that failed speaks for all.
            assert_eq!(payloads(statuses.iter().map(|s| &s[..])), Err(e));
        }
        let statuses = [status(&Ok(vec![1, 2])), status(&Ok(vec![]))];
        assert_eq!(payloads(statuses.iter().map(|s| &s[..])), Ok(vec![&[1u8, 2][..], &[][..]]));
    }
}
