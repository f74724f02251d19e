//! A step's parents on disk. A step taken in rounds needs, in each round, only the states and
//! shares of that round's parents; with a spill directory ([`Spill`]) they wait in a file there
//! while the children are summed, so the step holds one round's parents at a time, not all of
//! them beside the next layer.
//!
//! The file is unnamed: it is removed as soon as it is made and lives only as long as its
//! handle, so nothing is left behind however the run ends (an error, a signal, a crash).

use super::alloc;
use crate::error::EngineError;
use std::fs::{File, OpenOptions};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where a step taken in rounds keeps its parents while their children are summed: a
/// directory with room for the widest layer's states and shares (8 bytes a state and 8 a
/// word of its share). `state_code` and `state_of` write a state as one 64-bit word and read
/// it back.
pub struct Spill<'a, S> {
    pub dir: &'a Path,
    pub state_code: fn(S) -> u64,
    pub state_of: fn(u64) -> Option<S>,
}

impl<S> Clone for Spill<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Spill<'_, S> {}

impl<S> Spill<'_, S> {
    /// The run's stop when the spill directory fails it.
    fn failed(&self, why: impl ToString) -> EngineError {
        EngineError::SpillFailed { dir: self.dir.display().to_string(), why: why.to_string() }
    }
}

/// Words moved to and from the file in blocks of this many (8 MB).
const BLOCK: usize = 1 << 20;

/// A layer's states and shares (`stride` words each) on disk: the states' codes first, then
/// the shares.
pub(super) struct Parked {
    file: File,
    n: usize,
    stride: usize,
}

impl Parked {
    /// Writes the states and shares of a layer to a new unnamed file in the spill
    /// directory; the caller then drops them.
    pub fn write<S: Copy>(
        spill: &Spill<'_, S>,
        keys: &[S],
        shares: &[u64],
        stride: usize,
    ) -> Result<Parked, EngineError> {
        let failed = |why: std::io::Error| spill.failed(why);
        let file = unnamed(spill.dir).map_err(failed)?;
        let mut at = 0u64;
        let mut block = Vec::with_capacity(BLOCK * 8);
        let mut put = |words: &mut dyn Iterator<Item = u64>| -> std::io::Result<()> {
            loop {
                block.clear();
                block.extend(words.take(BLOCK).flat_map(u64::to_le_bytes));
                if block.is_empty() {
                    return Ok(());
                }
                file.write_all_at(&block, at)?;
                at += block.len() as u64;
            }
        };
        put(&mut keys.iter().map(|&k| (spill.state_code)(k))).map_err(failed)?;
        put(&mut shares.iter().copied()).map_err(failed)?;
        Ok(Parked { file, n: keys.len(), stride })
    }

    /// The states of the parents in `part`.
    pub fn states<S>(&self, spill: &Spill<'_, S>, part: Range<usize>) -> Result<Vec<S>, EngineError> {
        let codes = self.words(spill, part)?;
        let mut states = Vec::new();
        alloc::reserve_exact(&mut states, codes.len())?;
        for code in codes {
            let state = (spill.state_of)(code)
                .ok_or_else(|| spill.failed("a state read back is not the one written"))?;
            states.push(state);
        }
        Ok(states)
    }

    /// The shares of the parents in `part`, `stride` words each.
    pub fn shares<S>(&self, spill: &Spill<'_, S>, part: Range<usize>) -> Result<Vec<u64>, EngineError> {
        self.words(spill, self.n + part.start * self.stride..self.n + part.end * self.stride)
    }

    /// The words of the file in `range`. A refused allocation is the engine's usual refusal,
    /// a failed read the spill directory's.
    fn words<S>(&self, spill: &Spill<'_, S>, range: Range<usize>) -> Result<Vec<u64>, EngineError> {
        let mut out = Vec::new();
        alloc::reserve_exact(&mut out, range.len())?;
        let mut bytes = vec![0u8; BLOCK.min(range.len()) * 8];
        let mut at = range.start;
        while at < range.end {
            let count = BLOCK.min(range.end - at);
            let block = &mut bytes[..count * 8];
            self.file.read_exact_at(block, at as u64 * 8).map_err(|why| spill.failed(why))?;
            out.extend(block.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))));
            at += count;
        }
        Ok(out)
    }
}

/// A new file in `dir`, open for reading and writing, already removed from the directory;
/// never a file that was there before (a name taken moves on to the next).
fn unnamed(dir: &Path) -> std::io::Result<File> {
    static MADE: AtomicU64 = AtomicU64::new(0);
    loop {
        let name = format!(".pegchain-spill-{}-{}", std::process::id(), MADE.fetch_add(1, Ordering::Relaxed));
        let path = dir.join(name);
        match OpenOptions::new().read(true).write(true).create_new(true).open(&path) {
            Ok(file) => {
                std::fs::remove_file(&path)?;
                return Ok(file);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_read_back_by_part_are_those_written_and_leave_no_file() {
        let dir = std::env::temp_dir().join(format!("pegchain-spill-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let spill =
            Spill { dir: &dir, state_code: |s: u32| u64::from(s), state_of: |w| u32::try_from(w).ok() };
        let keys: Vec<u32> = (0..5_000).map(|i| i * 7 + 1).collect();
        let shares: Vec<u64> = (0..10_000).map(|i| u64::MAX - i).collect();
        let parked = Parked::write(&spill, &keys, &shares, 2).unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "the file has no name");
        let (k, s) =
            (parked.states(&spill, 1_000..1_003).unwrap(), parked.shares(&spill, 1_000..1_003).unwrap());
        assert_eq!(k, [7_001, 7_008, 7_015]);
        assert_eq!(s, (2_000..2_006).map(|i| u64::MAX - i).collect::<Vec<_>>());
        let (k, s) = (parked.states(&spill, 0..5_000).unwrap(), parked.shares(&spill, 0..5_000).unwrap());
        assert_eq!((k, s), (keys, shares));
        // A state that does not read back is refused, not taken for another.
        let narrow =
            Spill { dir: &dir, state_code: |s: u32| u64::from(s) << 40, state_of: |w| u32::try_from(w).ok() };
        let parked = Parked::write(&narrow, &[1u32], &[0], 1).unwrap();
        assert!(matches!(parked.states(&narrow, 0..1), Err(EngineError::SpillFailed { .. })));
        let gone = dir.join("missing");
        let missing = Spill { dir: &gone, ..spill };
        assert!(matches!(Parked::write(&missing, &[1u32], &[0], 1), Err(EngineError::SpillFailed { .. })));
        std::fs::remove_dir(&dir).unwrap();
    }
}
