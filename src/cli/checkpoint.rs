//! `--checkpoint FILE` and `--resume FILE`: a long run's state saved whole as it goes (through
//! the one file writer) and read back only into the same run.
//!
//! A checkpoint file is one JSON line naming the run it belongs to (the command and, in a
//! fixed order, what fixes its answer: version, board, start, seed, ...), then the state the
//! command saved: `simulate`'s tallies after every wave of games, `exact` and `count`'s
//! evaluation after every finished layer, `solve`'s search after every branch. A resumed run
//! prints exactly what an uninterrupted one would; what does not change the answer
//! (`--threads`, the output format, the memory budget) may change between sessions.

use super::output::{self, Failure};
use pegchain::Error;
use pegchain::solitaire::board::Board;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The run a checkpoint belongs to.
pub struct Run {
    /// The command that saves it (`simulate`, `exact`, `count`, `solve`).
    pub command: &'static str,
    /// What fixes the answer, as (what, value) in a fixed order.
    pub pairs: Vec<(String, String)>,
}

impl Run {
    /// A run of `command` on `board`: the version and the board (its name, and a fingerprint
    /// of its jumps, so an edited board file of the same name is told apart) come first.
    pub fn new(command: &'static str, board: &Board, rest: Vec<(&str, String)>) -> Run {
        let mut pairs = vec![
            ("pegchain version", env!("CARGO_PKG_VERSION").to_string()),
            ("board", board.name().to_string()),
            ("holes", board.hole_count().to_string()),
            ("jumps", fingerprint(board)),
        ];
        pairs.extend(rest);
        Run { command, pairs: pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect() }
    }
}

/// The number of jumps and a hash of them (FNV-1a over the hole triples): stable across
/// versions and machines, unlike std's hasher.
fn fingerprint(board: &Board) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for jump in board.jumps() {
        for byte in [jump.from, jump.over, jump.to] {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{} ({hash:016x})", board.jumps().len())
}

/// The first line of a checkpoint file.
#[derive(Serialize, Deserialize)]
struct Header {
    checkpoint: String,
    run: Vec<(String, String)>,
}

/// The most a checkpoint file may hold: an English or European evaluation saves layers of
/// several GB, so the cap only guards against reading a device or a runaway file.
const MAX_CHECKPOINT_BYTES: u64 = 1 << 40;

/// The state saved in `path`, refused with one line unless it belongs to `run`.
pub fn load(path: &Path, run: &Run) -> Result<Vec<u8>, Error> {
    let name = path.display();
    let bytes = pegchain::input::read_bytes(path, MAX_CHECKPOINT_BYTES)
        .map_err(|why| Error::Invalid(format!("the checkpoint {name}: {why}")))?;
    let split = bytes.iter().position(|&b| b == b'\n').unwrap_or(bytes.len());
    let not_one = || Error::Invalid(format!("{name} is not a pegchain {} checkpoint", run.command));
    let header: Header = serde_json::from_slice(&bytes[..split]).map_err(|_| not_one())?;
    if header.checkpoint != run.command || split == bytes.len() {
        return Err(not_one());
    }
    if let Some(why) = difference(&header.run, &run.pairs) {
        return Err(Error::Invalid(format!("the checkpoint {name} belongs to another run: {why}")));
    }
    Ok(bytes[split + 1..].to_vec())
}

/// The first way the saved run differs from this one, in words.
fn difference(saved: &[(String, String)], run: &[(String, String)]) -> Option<String> {
    for (what, value) in run {
        match saved.iter().find(|(k, _)| k == what) {
            Some((_, v)) if v == value => continue,
            Some((_, v)) => return Some(format!("its {what} is {v}, this run's is {value}")),
            None => return Some(format!("it does not record the {what}")),
        }
    }
    // What the saved run recorded and this one does not have (`--residues`, say).
    let (what, value) = saved.iter().find(|(k, _)| !run.iter().any(|(r, _)| r == k))?;
    Some(format!("its {what} is {value}, this run has none"))
}

/// Saves `state` whole (a temporary renamed into place), replacing the last checkpoint.
pub fn save(path: &Path, run: &Run, state: &[u8]) -> Result<(), Failure> {
    let header = Header { checkpoint: run.command.to_string(), run: run.pairs.clone() };
    let mut line = serde_json::to_vec(&header).expect("a header serializes");
    line.push(b'\n');
    // Two parts, not one copy of a state that may hold a layer of millions of positions.
    output::write_file_parts(path, &[&line, state])
}

/// Saves to `path` when there is one, keeping the first failure for the caller to report:
/// the library only learns that the save failed, and stops.
pub struct Saver<'a> {
    path: Option<&'a Path>,
    run: &'a Run,
    failure: Option<Failure>,
}

impl<'a> Saver<'a> {
    pub fn new(path: Option<&'a Path>, run: &'a Run) -> Saver<'a> {
        Saver { path, run, failure: None }
    }

    pub fn save(&mut self, state: &[u8]) -> Result<(), Error> {
        let Some(path) = self.path else { return Ok(()) };
        save(path, self.run, state).map_err(|failure| {
            self.failure = Some(failure);
            Error::Invalid("the checkpoint was not saved".into())
        })
    }

    /// The run's result, or the failed save that stopped it.
    pub fn outcome<T>(self, result: Result<T, Error>) -> Result<T, Failure> {
        match self.failure {
            Some(failure) => Err(failure),
            None => Ok(result?),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_what_differs() {
        let run =
            |seed: &str| vec![("board".to_string(), "triangle5".to_string()), ("seed".into(), seed.into())];
        assert_eq!(difference(&run("1"), &run("1")), None);
        assert_eq!(difference(&run("1"), &run("2")).unwrap(), "its seed is 1, this run's is 2");
        assert_eq!(difference(&run("1")[..1], &run("1")).unwrap(), "it does not record the seed");
        assert_eq!(difference(&run("1"), &run("1")[..1]).unwrap(), "its seed is 1, this run has none");
    }

    #[test]
    fn boards_with_other_jumps_have_other_fingerprints() {
        let b = |name: &str| pegchain::solitaire::board::builtin(name).unwrap();
        assert_eq!(fingerprint(&b("triangle5")), fingerprint(&b("triangle5")));
        assert_ne!(fingerprint(&b("triangle5")), fingerprint(&b("triangle6")));
        assert!(fingerprint(&b("triangle5")).starts_with("36 ("));
    }
}
