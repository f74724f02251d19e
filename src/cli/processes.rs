//! The processes of one run under `mpirun` (cargo feature `mpi`): `exact`, `count` and
//! `ends` share every layer between them (see the engine's `exchange`), every process
//! computes the whole answer, and only process 0 writes it and any error. Without the
//! feature, or when not started by `mpirun`, the binary is one process, as always.

use pegchain::solitaire::exact::Processes;

/// Keeps MPI alive for the command's run; dropping it ends MPI (before the process exits,
/// as MPI requires).
pub struct Membership {
    #[cfg(feature = "mpi")]
    _universe: Option<mpi::environment::Universe>,
}

#[cfg(feature = "mpi")]
static SHARED: std::sync::OnceLock<Processes> = std::sync::OnceLock::new();

/// Joins the other processes when `mpirun` (or `srun` with PMIx) started this one.
pub fn join() -> Membership {
    #[cfg(feature = "mpi")]
    {
        let started_by_mpirun = launched_as().is_some() || env_number(&RANK_VARIABLES).is_some();
        let universe =
            started_by_mpirun.then(|| mpi::initialize_with_threading(mpi::Threading::Funneled)).flatten();
        if let Some((universe, _)) = &universe {
            let exchange = over_mpi::Mpi::new(universe);
            if pegchain::engine::Exchange::processes(&exchange) > 1 {
                let _ = SHARED.set(Processes(std::sync::Arc::new(exchange)));
            }
        }
        Membership { _universe: universe.map(|(u, _)| u) }
    }
    #[cfg(not(feature = "mpi"))]
    Membership {}
}

/// Started by `mpirun` as one of several processes, by a binary built without the `mpi`
/// feature: the number of processes and this one's number, read from mpirun's environment
/// (each process would otherwise compute and print the whole answer alone).
pub fn copies_without_mpi() -> Option<(usize, usize)> {
    if cfg!(feature = "mpi") {
        return None;
    }
    launched_as().filter(|&(size, _)| size > 1)
}

/// Started by a launcher as a process other than process 0: known from the launcher's
/// environment before the processes join, so that the help and `--version`, which need no
/// joining, are written once, by process 0.
pub fn a_silent_copy() -> bool {
    launched_as().is_some_and(|(size, me)| size > 1 && me != 0)
}

/// Started by a launcher (`mpirun`, `srun`), as one process or several: stderr is then a log,
/// never a terminal.
pub fn launched() -> bool {
    launched_as().is_some()
}

/// Where a launcher (Open MPI's mpirun, or a PMI launcher such as Slurm's srun) says how
/// many processes it started, and which one this is.
const SIZE_VARIABLES: [&str; 2] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"];
const RANK_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"];

/// The number of processes a launcher started and this one's number, if one started it.
fn launched_as() -> Option<(usize, usize)> {
    Some((env_number(&SIZE_VARIABLES)?, env_number(&RANK_VARIABLES).unwrap_or(0)))
}

/// The first of `names` set to a number.
fn env_number(names: &[&str]) -> Option<usize> {
    names.iter().find_map(|n| std::env::var(n).ok()?.parse().ok())
}

/// The processes this run shares its work with, when there are others.
pub fn shared() -> Option<Processes> {
    #[cfg(feature = "mpi")]
    return SHARED.get().cloned();
    #[cfg(not(feature = "mpi"))]
    None
}

/// How many processes run this command (1 alone).
pub fn count() -> usize {
    shared().map_or(1, |p| p.0.processes())
}

/// Whether this process writes the answer, progress and errors: process 0, or alone.
pub fn speaks() -> bool {
    shared().is_none_or(|p| p.0.me() == 0)
}

/// Waits for every process of a shared run to come here. Each comes once its answer or
/// error is written (process 0) or not to be written (the others): mpirun ends the whole job
/// as soon as one process exits with a failure, which could otherwise cut process 0 short
/// before its error is out (an interrupted run that exits with no word).
pub fn settle() {
    if let Some(p) = shared() {
        p.0.all_gather(&[]);
    }
}

#[cfg(feature = "mpi")]
mod over_mpi {
    use mpi::datatype::{Partition, PartitionMut};
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::*;
    use pegchain::engine::Exchange;
    use pegchain::engine::exchange::Received;

    pub struct Mpi {
        world: SimpleCommunicator,
    }

    // The engine calls the exchange from the thread that runs the command only (MPI is
    // started as "funneled"), never from its worker threads.
    unsafe impl Send for Mpi {}
    unsafe impl Sync for Mpi {}

    impl Mpi {
        pub fn new(universe: &mpi::environment::Universe) -> Mpi {
            Mpi { world: universe.world() }
        }
    }

    impl Exchange for Mpi {
        fn processes(&self) -> usize {
            self.world.size() as usize
        }

        fn me(&self) -> usize {
            self.world.rank() as usize
        }

        fn all_to_all(&self, parcels: Vec<Vec<u8>>) -> Received {
            let n = self.processes();
            let lengths: Vec<u64> = parcels.iter().map(|p| p.len() as u64).collect();
            let mut incoming = vec![0u64; n];
            self.world.all_to_all_into(&lengths[..], &mut incoming[..]);
            let starts: Vec<usize> = std::iter::once(0)
                .chain(incoming.iter().scan(0, |at, &l| {
                    *at += l as usize;
                    Some(*at)
                }))
                .collect();
            // MPI counts bytes and offsets in `i32`: larger exchanges go in rounds, as many as
            // the largest parcel anywhere needs, on every process.
            // PEGCHAIN_MPI_ROUND_BYTES sets smaller rounds, for tests of this path.
            let round_bytes = std::env::var("PEGCHAIN_MPI_ROUND_BYTES")
                .ok()
                .and_then(|b| b.parse::<usize>().ok())
                .unwrap_or(i32::MAX as usize / n)
                .clamp(1, i32::MAX as usize / n);
            let mine = lengths.iter().chain(&incoming).max().copied().unwrap_or(0) as usize;
            let mut rounds = vec![0u64; n];
            self.world.all_gather_into(&(mine.div_ceil(round_bytes) as u64), &mut rounds[..]);
            let rounds = rounds.into_iter().max().unwrap_or(0) as usize;
            // One byte more than received: an empty buffer would share one dangling address
            // with an empty send buffer, which MPI refuses as the same buffer twice.
            let mut bytes = vec![0u8; starts[n] + 1];
            if rounds == 1 {
                // The usual case: each parcel dropped once copied, received in place.
                let mut send = Vec::with_capacity(lengths.iter().sum::<u64>() as usize + 1);
                for parcel in parcels {
                    send.extend_from_slice(&parcel);
                }
                send.push(0);
                let counts = |ls: &[u64]| ls.iter().map(|&l| l as i32).collect::<Vec<i32>>();
                self.exchange_round(&send, &counts(&lengths), &mut bytes, &counts(&incoming));
                bytes.pop();
                return Received { bytes, starts };
            }
            for round in 0..rounds {
                let piece = |len: usize| (round * round_bytes).min(len)..((round + 1) * round_bytes).min(len);
                let mut send: Vec<u8> =
                    parcels.iter().flat_map(|p| p[piece(p.len())].iter().copied()).collect();
                send.push(0);
                let send_counts: Vec<i32> = parcels.iter().map(|p| piece(p.len()).len() as i32).collect();
                let recv_counts: Vec<i32> =
                    incoming.iter().map(|&l| piece(l as usize).len() as i32).collect();
                let mut recv = vec![0u8; recv_counts.iter().map(|&c| c as usize).sum::<usize>() + 1];
                self.exchange_round(&send, &send_counts, &mut recv, &recv_counts);
                let mut at = 0;
                for (p, &c) in recv_counts.iter().enumerate().filter(|(_, c)| **c > 0) {
                    let to = starts[p] + round * round_bytes;
                    bytes[to..to + c as usize].copy_from_slice(&recv[at..at + c as usize]);
                    at += c as usize;
                }
            }
            bytes.pop();
            Received { bytes, starts }
        }
    }

    impl Mpi {
        /// One MPI all-to-all: `send` and `recv` hold one byte past their counts.
        fn exchange_round(&self, send: &[u8], send_counts: &[i32], recv: &mut [u8], recv_counts: &[i32]) {
            let (send_at, recv_at) = (offsets(send_counts), offsets(recv_counts));
            let (send_len, recv_len) = (send.len() - 1, recv.len() - 1);
            let out = Partition::new(&send[..send_len], send_counts, &send_at[..]);
            let mut into = PartitionMut::new(&mut recv[..recv_len], recv_counts, &recv_at[..]);
            self.world.all_to_all_varcount_into(&out, &mut into);
        }
    }

    fn offsets(counts: &[i32]) -> Vec<i32> {
        counts
            .iter()
            .scan(0, |at, &c| {
                let here = *at;
                *at += c;
                Some(here)
            })
            .collect()
    }
}
