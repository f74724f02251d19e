//! `--checkpoint FILE` and `--resume FILE`: a long run's state saved whole as it goes (through
//! the one file writer) and read back only into the same run.
//!
//! A checkpoint file is one JSON line naming the run it belongs to (the command and, in a
//! fixed order, what fixes its answer: version, board, start, seed, ...), then the state the
//! command saved: `simulate`'s tallies after every wave of games, `exact` and `count`'s
//! evaluation after every finished layer, `solve`'s search every 5 seconds and when stopped.
//! The header records a checksum of itself and the state, so a file edited or damaged is
//! refused. A resumed run prints exactly what an uninterrupted one would; what does not
//! change the answer (`--threads`, the output format, the memory budget) may change between
//! sessions.
//!
//! A run shared by several processes (under `mpirun`) is saved in parts, one a process:
//! process p of N saves its part to `FILE.p-of-N` and keeps the part it saved before beside
//! it, `FILE.p-of-N.previous`. The processes save in step, after every finished layer, and
//! meet between two saves, so a stop at any moment (even between two processes' saves)
//! leaves a save every process holds: the parts are numbered, and a resumed run goes on from
//! the latest number that every process holds.

use super::files::beside;
use super::output::{self, Failure};
use pegchain::Error;
use pegchain::engine::Exchange;
use pegchain::solitaire::board::Board;
use pegchain::solitaire::exact::agree;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The run a checkpoint belongs to.
pub struct Run {
    /// The command that saves it (`simulate`, `exact`, `count`, `ends`, `solve`).
    pub command: &'static str,
    /// What fixes the answer, as (what, value) in a fixed order.
    pub pairs: Vec<(String, String)>,
    /// This process's part of a run shared by several, saved in parts.
    pub shared: Option<Part>,
}

/// A process's part of a shared run's saves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// This process's number, from 0.
    pub me: usize,
    /// How many processes share the run.
    pub of: usize,
    /// The number of the save the run went on from (0: it began afresh). Saves are
    /// numbered from 1, the same on every process.
    pub resumed: u64,
}

impl Part {
    /// Where this process keeps its part of the run saved to `path`.
    pub fn file(&self, path: &Path) -> PathBuf {
        beside(path, &format!(".{}-of-{}", self.me, self.of))
    }

    /// Where this process keeps the part it saved before, beside `file`.
    fn previous(file: &Path) -> PathBuf {
        beside(file, ".previous")
    }
}

impl Run {
    /// A run of `command` on `board`: the version and the board (its name, and a fingerprint
    /// of its jumps, so an edited board file of the same name is told apart) come first.
    pub fn new(command: &'static str, board: &Board, rest: Vec<(&str, String)>) -> Run {
        let mut pairs = vec![
            ("pegchain version", env!("CARGO_PKG_VERSION").to_string()),
            ("board", board.name().to_string()),
            ("number of holes", board.hole_count().to_string()),
            ("jump list", fingerprint(board)),
        ];
        pairs.extend(rest);
        Run { command, pairs: pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(), shared: None }
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
    let jumps = board.jumps().len();
    format!("{jumps} {} (hash {hash:016x})", if jumps == 1 { "jump" } else { "jumps" })
}

/// The command a save of `command` records: `ends` is `count`'s evaluation, and each goes on
/// from the other's saves.
fn saved_as(command: &str) -> &str {
    if command == "ends" { "count" } else { command }
}

/// The format of checkpoint files: 2 since the checksum covers the header too. A save of
/// format 1 records none; its checksum, of the state alone, would not match.
const FORMAT: u32 = 2;

/// The first line of a checkpoint file.
#[derive(Serialize, Deserialize)]
struct Header {
    checkpoint: String,
    #[serde(default = "format_1")]
    format: u32,
    run: Vec<(String, String)>,
    /// The number of a shared run's save (see [`Part`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    save: Option<u64>,
    /// The [`checksum`] of this line without the sum, then of the state after it, in hex: a
    /// header or state edited or damaged on disk is refused, not resumed into a wrong answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sum: Option<String>,
}

/// Saves of format 1 did not record their format.
fn format_1() -> u32 {
    1
}

impl Header {
    /// The sum of this header, its own sum left out, and of `state`.
    fn sum(&self, state: &[u8]) -> String {
        let covered =
            Header { checkpoint: self.checkpoint.clone(), run: self.run.clone(), sum: None, ..*self };
        checksum(&[&serde_json::to_vec(&covered).expect("a header serializes"), state])
    }
}

/// A 64-bit checksum of `parts` in turn, in hex, the same on every machine and build: each
/// 8-byte word of a part (the last padded with zeros, then the part's length) is mixed in by
/// an xor, a rotation and a multiply by an odd number. Every step is a bijection of the sum
/// for a given word, so any change confined to one word always changes the sum; it reads
/// several GB a second.
fn checksum(parts: &[&[u8]]) -> String {
    let mix = |sum: u64, word: u64| (sum.rotate_left(23) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut sum = 0;
    for bytes in parts {
        let mut words = bytes.chunks_exact(8);
        sum = words.by_ref().fold(sum, |sum, w| mix(sum, u64::from_le_bytes(w.try_into().expect("8 bytes"))));
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        sum = mix(mix(sum, u64::from_le_bytes(last)), bytes.len() as u64);
    }
    format!("{sum:016x}")
}

/// The most a checkpoint file may hold: an English or European evaluation saves layers of
/// several GB, so the cap only guards against reading a device or a runaway file.
const MAX_CHECKPOINT_BYTES: u64 = 1 << 40;

/// The longest header line read before the rest of a checkpoint: a header names a run in a
/// few kilobytes (a board of 64 holes with names of 16 characters, listed twice, is 2 kB).
const MAX_HEADER_BYTES: u64 = 1 << 20;

/// The state saved in `path`, refused with one line unless it belongs to `run`.
pub fn load(path: &Path, run: &Run) -> Result<Vec<u8>, Error> {
    load_numbered(path, run).map(|(_, state)| state)
}

/// This process's part of the latest save of `run` that every process of `exchange` holds
/// under `path` (see [`Part`]), read by `read`, and its number. Every process must call it:
/// each learns every process's failure, and all return the first.
pub fn load_shared<T>(
    path: &Path,
    run: &Run,
    exchange: &dyn Exchange,
    read: impl FnOnce(&[u8]) -> Result<T, Error>,
) -> Result<(u64, T), Error> {
    let part = Part { me: exchange.me(), of: exchange.processes(), resumed: 0 };
    let file = part.file(path);
    let previous = Part::previous(&file);
    let mut held = Vec::new();
    let mine = (|| {
        // A part missing beside a previous one: the process stopped between its two renames.
        if file.exists() || !previous.exists() {
            held.push(load_numbered(&file, run)?);
        }
        if previous.exists() {
            held.push(load_numbered(&previous, run)?);
        }
        held.iter()
            .map(|(number, _)| {
                number
                    .ok_or_else(|| Error::Invalid(format!("{} is not part of a shared run", file.display())))
            })
            .collect::<Result<Vec<u64>, Error>>()
    })();
    let numbers = agree(exchange, mine.map(|n| n.iter().flat_map(|n| n.to_le_bytes()).collect()))?;
    let numbers: Vec<Vec<u64>> = numbers
        .iter()
        .map(|b| b.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))).collect())
        .collect();
    let common = numbers[0].iter().copied().filter(|n| numbers.iter().all(|ns| ns.contains(n))).max();
    let Some(number) = common else {
        let holds = numbers.iter().enumerate().map(|(p, ns)| {
            let ns: Vec<String> = ns.iter().map(u64::to_string).collect();
            format!("process {p} holds save {}", ns.join(" and "))
        });
        return Err(Error::Invalid(format!(
            "the parts of the checkpoint {} hold no save in common ({})",
            path.display(),
            holds.collect::<Vec<_>>().join(", ")
        )));
    };
    let (_, state) =
        held.into_iter().find(|(n, _)| *n == Some(number)).expect("every process holds the common save");
    let state = read(&state);
    agree(exchange, state.as_ref().map(|_| Vec::new()).map_err(|e| Error::Invalid(e.to_string())))?;
    Ok((number, state?))
}

/// The state saved in `path` and its number in a shared run, refused with one line unless
/// it belongs to `run`.
fn load_numbered(path: &Path, run: &Run) -> Result<(Option<u64>, Vec<u8>), Error> {
    let name = path.display();
    let unread = |why| Error::Invalid(format!("the checkpoint {name}: {why}"));
    let not_one = || Error::Invalid(format!("{name} is not a pegchain {} checkpoint", run.command));
    // The header line first: a file that does not begin with one is refused unread.
    let head = pegchain::input::read_save_head(path, MAX_HEADER_BYTES).map_err(unread)?;
    let line = match head.iter().position(|&b| b == b'\n') {
        Some(line) => line,
        // Every header begins so: a file that does and ends before its line does is cut short.
        None if head.starts_with(b"{\"checkpoint\":") => {
            return Err(Error::Invalid(format!(
                "the checkpoint {name} is damaged: it ends inside its first line"
            )));
        }
        None => return Err(not_one()),
    };
    let header: Header = serde_json::from_slice(&head[..line]).map_err(|_| not_one())?;
    // The state follows that line (a file changed between the two reads fails its checksum).
    let bytes = pegchain::input::read_save(path, MAX_CHECKPOINT_BYTES).map_err(unread)?;
    let state = bytes.get(line + 1..).ok_or_else(not_one)?;
    if header.format != FORMAT {
        return Err(Error::Invalid(format!(
            "the checkpoint {name} is in save format {}, which this pegchain does not read (it reads format {FORMAT})",
            header.format
        )));
    }
    // Checked first: an edited header is damage, whatever run it is resumed into.
    if header.sum.as_deref() != Some(header.sum(state).as_str()) {
        return Err(Error::Invalid(format!(
            "the checkpoint {name} is damaged: it does not match its checksum"
        )));
    }
    if header.checkpoint != saved_as(run.command) {
        return Err(not_one());
    }
    if let Some(why) = difference(&header.run, &run.pairs) {
        return Err(Error::Invalid(format!("the checkpoint {name} belongs to another run: {why}")));
    }
    Ok((header.save, state.to_vec()))
}

/// The first way the saved run differs from this one, in words. A field named by its flag
/// (`--residues`) is recorded by the runs given that flag only, and worded as the flag.
fn difference(saved: &[(String, String)], run: &[(String, String)]) -> Option<String> {
    fn value<'a>(pairs: &'a [(String, String)], what: &str) -> Option<&'a str> {
        pairs.iter().find(|(k, _)| k == what).map(|(_, v)| v.as_str())
    }
    // This run's fields, then what only the saved run recorded.
    for (what, _) in run.iter().chain(saved) {
        let (was, is) = (value(saved, what), value(run, what));
        if was == is {
            continue;
        }
        let with = |v: Option<&str>| v.map_or(format!("without {what}"), |v| format!("with {what} {v}"));
        return Some(match (was, is) {
            (was, is) if what.starts_with("--") => {
                format!("it was saved by a run {}, this one {}", with(was), with(is))
            }
            (Some(was), Some(is)) => format!("its {what} is {was}, this run's is {is}"),
            (Some(was), None) => format!("its {what} is {was}, this run has none"),
            (None, _) => format!("it does not record the {what}"),
        });
    }
    None
}

/// Where `--checkpoint FILE` keeps the state the latest pass of a run by residues began
/// from: FILE.pass, a checkpoint of a few kilobytes that `--resume` takes like FILE.
pub fn pass_start(path: &Path) -> PathBuf {
    beside(path, ".pass")
}

/// Saves `state` whole (a temporary renamed into place), replacing the last checkpoint; in
/// a shared run, this process's part as save number `number`, keeping its part before.
pub fn save(path: &Path, run: &Run, number: u64, state: &[u8]) -> Result<(), Failure> {
    let save = run.shared.map(|_| number);
    let mut header = Header {
        checkpoint: saved_as(run.command).to_string(),
        format: FORMAT,
        run: run.pairs.clone(),
        save,
        sum: None,
    };
    header.sum = Some(header.sum(state));
    let mut line = serde_json::to_vec(&header).expect("a header serializes");
    line.push(b'\n');
    // Two parts, not one copy of a state that may hold a layer of millions of positions.
    match run.shared {
        None => output::write_file_parts(path, &[&line, state]),
        Some(part) => {
            let file = part.file(path);
            output::write_file_parts_keeping(&file, &[&line, state], &Part::previous(&file))
        }
    }
}

/// Saves to `path` when there is one, keeping the first failure for the caller to report:
/// the library only learns that the save failed, and stops.
pub struct Saver<'a> {
    path: Option<&'a Path>,
    run: &'a Run,
    /// The number of the last save (see [`Part`]).
    saved: u64,
    failure: Option<Failure>,
}

impl<'a> Saver<'a> {
    pub fn new(path: Option<&'a Path>, run: &'a Run) -> Saver<'a> {
        let saved = run.shared.map_or(0, |part| part.resumed);
        Saver { path, run, saved, failure: None }
    }

    pub fn save(&mut self, state: &[u8]) -> Result<(), Error> {
        let Some(path) = self.path else { return Ok(()) };
        self.saved += 1;
        self.write(path, state)
    }

    /// Keeps `state`, a save just made, in its own file beside the checkpoint as well
    /// ([`pass_start`]): a save worth carrying elsewhere, such as the start of a pass.
    pub fn keep(&mut self, state: &[u8]) -> Result<(), Error> {
        let Some(path) = self.path else { return Ok(()) };
        self.write(&pass_start(path), state)
    }

    /// Writes `state` to `path` as save number `saved`; a failure is kept for `outcome`.
    fn write(&mut self, path: &Path, state: &[u8]) -> Result<(), Error> {
        save(path, self.run, self.saved, state).map_err(|failure| {
            self.failure = Some(failure);
            Error::Invalid("the checkpoint was not saved".into())
        })
    }

    /// The run's result, or the failed save that stopped it. In a shared run a failed save
    /// stops every process, but only the process that failed knows why: the processes meet
    /// here (each calls it once), and each reports the first failed save, in its words.
    pub fn outcome<T>(mut self, result: Result<T, Error>) -> Result<T, Failure> {
        let failure = match (self.run.shared, super::processes::shared()) {
            (Some(_), Some(processes)) => {
                let mine = self.failure.as_ref().map_or(Vec::new(), |f| f.message().into_bytes());
                let all = processes.0.all_gather(&mine);
                all.into_iter()
                    .find(|why| !why.is_empty())
                    .map(|why| Failure::Runtime(String::from_utf8_lossy(&why).into_owned()))
            }
            _ => self.failure.take(),
        };
        match failure {
            Some(failure) => Err(failure),
            None => result.map_err(|e| match Failure::from(e) {
                Failure::Interrupted(done) => Failure::Interrupted(self.interrupted_words(done)),
                other => other,
            }),
        }
    }

    /// `done`, the words of an interruption, saying so where a save was asked for and none is
    /// on disk: the run has nothing for `--resume` to go on from (stopped before its first
    /// save), where a later `--resume` would only find no such file.
    pub fn interrupted_words(&self, done: String) -> String {
        let Some(path) = self.path else { return done };
        let file = match self.run.shared {
            Some(part) => part.file(path),
            None => path.to_path_buf(),
        };
        match file.exists() {
            true => done,
            false => format!("{done}; no checkpoint was saved yet"),
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
        let residues = |k: &str| [run("1"), vec![("--residues".into(), k.into())]].concat();
        let (without, with) =
            ("it was saved by a run without --residues", "it was saved by a run with --residues 2");
        assert_eq!(
            difference(&run("1"), &residues("3")).unwrap(),
            format!("{without}, this one with --residues 3")
        );
        assert_eq!(
            difference(&residues("2"), &residues("3")).unwrap(),
            format!("{with}, this one with --residues 3")
        );
        assert_eq!(
            difference(&residues("2"), &run("1")).unwrap(),
            format!("{with}, this one without --residues")
        );
    }

    /// A directory of this test process's own, made empty, and the checkpoint path in it.
    fn scratch(name: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("pegchain-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.checkpoint");
        (dir, path)
    }

    /// Two processes played by threads save parts in step; `load_shared` finds the latest
    /// save both hold (the newest, or the one before where a process's newest is missing),
    /// and refuses alike on both when none is common or one part is unreadable.
    #[test]
    fn processes_go_on_from_the_latest_save_every_one_holds() {
        use pegchain::engine::InMemory;
        let (dir, path) = scratch("parts");
        let board = pegchain::solitaire::board::builtin("triangle5").unwrap();
        let run_of = |me: usize| {
            let mut run = Run::new("exact", &board, vec![("processes", "2".into())]);
            run.shared = Some(Part { me, of: 2, resumed: 0 });
            run
        };
        for me in 0..2 {
            let run = run_of(me);
            let mut saver = Saver::new(Some(&path), &run);
            for n in 1..=3u8 {
                saver.save(&[me as u8, n]).unwrap();
            }
        }
        let part = |me: usize| run_of(me).shared.unwrap().file(&path);
        let load = || {
            InMemory::run(2, |exchange| {
                let run = run_of(pegchain::engine::Exchange::me(&exchange));
                load_shared(&path, &run, &exchange, |b| Ok(b.to_vec())).map_err(|e| e.to_string())
            })
        };
        assert_eq!(load(), vec![Ok((3, vec![0, 3])), Ok((3, vec![1, 3]))]);
        // Process 1 stopped between its two renames: both go on from save 2.
        std::fs::remove_file(part(1)).unwrap();
        assert_eq!(load(), vec![Ok((2, vec![0, 2])), Ok((2, vec![1, 2]))]);
        // Process 0 holds save 3 alone now.
        std::fs::remove_file(Part::previous(&part(0))).unwrap();
        let none = "hold no save in common (process 0 holds save 3, process 1 holds save 2)";
        assert!(load().iter().all(|r| r.as_ref().unwrap_err().ends_with(none)), "{:?}", load());
        // A part that is not a checkpoint: both refuse with its reason.
        std::fs::write(part(0), b"not a checkpoint").unwrap();
        assert!(
            load().iter().all(|r| r.as_ref().unwrap_err().contains("is not a pegchain exact checkpoint"))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The checksum covers the header: a seed edited in it is damage, not a save of that
    /// seed. A save of format 1, whose checksum covered the state alone, is refused as such.
    #[test]
    fn an_edited_header_or_an_older_format_is_refused() {
        let (dir, path) = scratch("format");
        let board = pegchain::solitaire::board::builtin("triangle5").unwrap();
        let run = |seed: &str| Run::new("simulate", &board, vec![("seed", seed.into())]);
        save(&path, &run("5"), 1, b"[1,2]").unwrap();
        assert_eq!(load(&path, &run("5")).unwrap(), b"[1,2]");
        let refusal = |seed: &str| load(&path, &run(seed)).unwrap_err().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(r#"["seed","5"]"#, r#"["seed","6"]"#)).unwrap();
        let name = path.display();
        assert_eq!(refusal("6"), format!("the checkpoint {name} is damaged: it does not match its checksum"));
        let old = format!(
            "{{\"checkpoint\":\"simulate\",\"run\":{},\"sum\":\"{}\"}}\n[1,2]",
            serde_json::to_string(&run("5").pairs).unwrap(),
            checksum(&[b"[1,2]"])
        );
        std::fs::write(&path, old).unwrap();
        assert_eq!(
            refusal("5"),
            format!(
                "the checkpoint {name} is in save format 1, which this pegchain does not read (it reads format 2)"
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn boards_with_other_jumps_have_other_fingerprints() {
        let b = |name: &str| pegchain::solitaire::board::builtin(name).unwrap();
        assert_eq!(fingerprint(&b("triangle5")), fingerprint(&b("triangle5")));
        assert_ne!(fingerprint(&b("triangle5")), fingerprint(&b("triangle6")));
        assert!(fingerprint(&b("triangle5")).starts_with("36 jumps (hash "));
    }
}
