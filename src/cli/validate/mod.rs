//! Flags into validated requests: every check a user's input needs happens here, before any
//! computing starts, and every refusal names the flag in the user's words.

mod boards;
mod engine;
mod race;
mod serve;
mod simulate;
mod solve;

pub use boards::ExportRequest;
pub use engine::EngineRequest;
pub use race::RaceJob;
pub use serve::ServeChoices;
pub use simulate::SimulateRequest;
pub use solve::SolveRequest;

use crate::cli::args::*;
use crate::cli::checkpoint::{Part, Run, pass_start};
use pegchain::render::{Format, Style};
use pegchain::solitaire::Pegs;
use pegchain::solitaire::exact::Starts;
use pegchain::solitaire::position::{parse_position, play};
use pegchain::{Board, Error};
use std::path::{Path, PathBuf};

/// How the answer is to be written: the format and how text shows exact numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub format: Format,
    pub style: Style,
}

impl OutputArgs {
    /// The flags conflict with each other in clap already, so any combination left is valid.
    pub fn validate(&self) -> Output {
        let format = if self.json {
            Format::Json
        } else if self.csv {
            Format::Csv
        } else if self.markdown {
            Format::Markdown
        } else {
            Format::Text
        };
        Output { format, style: Style { full_fractions: self.full } }
    }

    /// For a command that prints no fraction, where `--full` would be ignored: refused.
    pub fn validate_without_fractions(&self, command: &str) -> Result<Output, Error> {
        self.validate_without_fractions_in_text(&format!("{command} prints none"))
    }

    /// For a command whose text and Markdown show no fraction (`--full` would be ignored),
    /// whatever its other formats hold: refused, saying `why`.
    pub fn validate_without_fractions_in_text(&self, why: &str) -> Result<Output, Error> {
        if self.full {
            return Err(Error::Invalid(format!("--full shows long fractions whole, and {why}")));
        }
        Ok(self.validate())
    }
}

/// The first of `flags` given (each with whether it was): where a flag only makes sense with
/// another, it is refused by name rather than ignored.
pub fn first_given<'a>(flags: &[(&'a str, bool)]) -> Option<&'a str> {
    flags.iter().find(|(_, given)| *given).map(|(flag, _)| *flag)
}

/// The flag that asks for `format`.
fn flag(format: Format) -> &'static str {
    match format {
        Format::Text => "text",
        Format::Markdown => "--markdown",
        Format::Json => "--json",
        Format::Csv => "--csv",
    }
}

/// Refuses, before anything is computed, an output format the answer cannot take; `why`
/// says what the answer is instead.
fn refuse_format(output: Output, unfit: &[Format], why: &str) -> Result<Output, Error> {
    match unfit.iter().find(|&&f| f == output.format) {
        Some(&f) => Err(Error::Invalid(format!("{} does not fit: {why}", flag(f)))),
        None => Ok(output),
    }
}

/// A directory `flag` writes `what` into: one, or a name for a new one, not a file, where
/// files can be made.
fn check_out_dir(flag: &str, dir: &Path, what: &str) -> Result<(), Error> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Invalid(format!("{flag} {}: not a directory ({what})", dir.display())));
    }
    crate::cli::files::check_out_dir(dir)
        .map_err(|e| Error::Invalid(format!("{flag} {}: {}", dir.display(), pegchain::input::plain(&e))))
}

/// A file `flag` will write: not an input read so far, not a directory, and in a directory
/// that exists (checked before computing, so that a long run does not fail at its first
/// write; the writer refuses an input again, whenever it was read).
pub fn check_file_target(flag: &str, file: &Path) -> Result<(), Error> {
    if pegchain::input::is_input(file) {
        return Err(crate::cli::output::not_an_input_error(file));
    }
    if file.is_dir() {
        return Err(Error::Invalid(format!("{flag} {}: a directory, not a file name", file.display())));
    }
    let parent = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(Error::Invalid(format!("{flag} {}: no directory {}", file.display(), parent.display())));
    }
    crate::cli::files::check_writable(file)
        .map_err(|e| Error::Invalid(format!("{flag} {}: {}", file.display(), pegchain::input::plain(&e))))
}

/// `--checkpoint FILE` (or a process's part of it, `file`) and `pass`, where a run by
/// residues keeps the start of its pass beside it: file targets that are regular files or none
/// yet. A save replaces its file and keeps the one before it by renaming, which would take a
/// device or a FIFO away from the system rather than write into it (and opening a FIFO to
/// write waits for a reader).
fn check_checkpoint_target(file: &Path, pass: &Path) -> Result<(), Error> {
    check_file_target("--checkpoint", file)?;
    let not_regular = |target: &Path| match std::fs::metadata(target) {
        Ok(meta) if !meta.is_file() => Some(pegchain::input::kind(&meta)),
        _ => None,
    };
    if let Some(kind) = not_regular(file) {
        return Err(Error::Invalid(format!(
            "--checkpoint {}: not a regular file ({kind}); a checkpoint is a file of its own",
            file.display()
        )));
    }
    if let Some(kind) = not_regular(pass) {
        return Err(Error::Invalid(format!(
            "--checkpoint {}: {} beside it, where a run by --residues keeps the start of its pass, is not a regular file ({kind})",
            file.display(),
            pass.display()
        )));
    }
    Ok(())
}

/// A checkpoint target that holds a file already is refused unless the run goes on from that
/// very file: a run started again without `--resume` would replace hours of saved work (or any
/// other file of that name) at its first save.
fn check_not_replaced(file: &Path, resume: Option<&Path>) -> Result<(), Error> {
    if !replaced(file, resume) {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "--checkpoint {0}: the file exists; go on from it with --resume {0}, or remove it to start again",
        file.display()
    )))
}

/// `check_not_replaced` for this process's part of the checkpoint `path` of a shared run:
/// the refusal gives `--resume` the name the user gave, which the processes resume from, and
/// names every process's files, not only this one's.
fn check_part_not_replaced(path: &Path, part: Part, resume: Option<&Path>) -> Result<(), Error> {
    let file = part.file(path);
    if !replaced(&file, resume.map(|r| part.file(r)).as_deref()) {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "--checkpoint {0}: its part {1} exists; go on from the parts with --resume {0}, or remove them ({0}.*-of-{2}*) to start again",
        path.display(),
        file.display(),
        part.of
    )))
}

/// Whether a save to `file` would replace a file there that the run does not go on from.
fn replaced(file: &Path, resume: Option<&Path>) -> bool {
    std::fs::symlink_metadata(file).is_ok()
        && !resume.is_some_and(|resume| pegchain::input::same_file(file, resume))
}

/// The most worker threads a run may ask for: more would only cost memory.
pub const MAX_THREADS: usize = 1024;

/// A thread count: 0 (one per core) up to MAX_THREADS.
pub fn check_threads(threads: usize) -> Result<usize, Error> {
    if threads > MAX_THREADS {
        return Err(Error::Invalid(format!(
            "--threads takes 0 (one per core) to {MAX_THREADS}, not {threads}"
        )));
    }
    Ok(threads)
}

/// A count of games: a whole number of at least one.
pub fn parse_games(flag: &str, text: &str) -> Result<u64, Error> {
    parse_count(flag, text, "games")
}

/// A count of `what` (games, a chain's runs): a whole number of at least one.
pub fn parse_count(flag: &str, text: &str, what: &str) -> Result<u64, Error> {
    let shown = pegchain::render::number::quoted(text);
    let bad = || Error::Invalid(format!("{flag} takes a whole number of {what} of at least 1, not {shown}"));
    let digits = without_thousands_separators(text).ok_or_else(bad)?;
    let n: u64 = digits.parse().map_err(|e: std::num::ParseIntError| {
        if *e.kind() == std::num::IntErrorKind::PosOverflow {
            Error::Invalid(format!("{flag} takes at most {} {what}, not {shown}", u64::MAX))
        } else {
            bad()
        }
    })?;
    if n == 0 { Err(bad()) } else { Ok(n) }
}

/// `text` without its thousands separators (`1,000,000` or `1_000_000`, one kind), or None
/// where a separator does not part groups of three digits: `1,00` is a slip (a decimal
/// comma?), not 100 games.
fn without_thousands_separators(text: &str) -> Option<String> {
    let Some(separator) = text.chars().find(|&c| c == ',' || c == '_') else { return Some(text.to_string()) };
    let groups: Vec<&str> = text.split(separator).collect();
    let grouped = (1..=3).contains(&groups[0].len()) && groups[1..].iter().all(|g| g.len() == 3);
    grouped.then(|| groups.concat())
}

/// Holes by their names, comma-separated: how a checkpoint records starts and pegs, in the
/// words its refusals show.
fn holes_named(board: &Board, holes: impl IntoIterator<Item = u8>) -> String {
    holes.into_iter().map(|h| board.hole_name(h)).collect::<Vec<_>>().join(",")
}

impl CheckpointArgs {
    /// Checkpoints belong to runs from start holes; a run from a position is short and not saved.
    fn refuse_for_position(&self) -> Result<(), Error> {
        if self.checkpoint.is_some() || self.resume.is_some() {
            return Err(Error::Invalid(
                "--checkpoint and --resume save runs from start holes; a run from a position is not saved"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Where to save (checked writable now, before any work) and the state saved for `run`
    /// to go on from (read and checked against it now).
    fn validate(&self, run: &Run) -> Result<(Option<PathBuf>, Option<Vec<u8>>), Error> {
        if let Some(path) = &self.checkpoint {
            check_checkpoint_target(path, &pass_start(path))?;
            check_not_replaced(path, self.resume.as_deref())?;
        }
        let saved = match &self.resume {
            Some(path) => Some(crate::cli::checkpoint::load(path, run)?),
            None => None,
        };
        Ok((self.checkpoint.clone(), saved))
    }

    /// `validate` for a process of a shared run: its part of the save every process holds
    /// (`checkpoint::load_shared`) and that save's number (0: none). Every process checks
    /// its own files, and all refuse alike when one must.
    fn validate_shared<T>(
        &self,
        run: &Run,
        exchange: &dyn pegchain::engine::Exchange,
        read: impl FnOnce(&[u8]) -> Result<T, Error>,
    ) -> Result<(Option<PathBuf>, u64, Option<T>), Error> {
        let part = Part { me: exchange.me(), of: exchange.processes(), resumed: 0 };
        let target = self.checkpoint.as_ref().map_or(Ok(()), |path| {
            let (file, pass) = (part.file(path), part.file(&pass_start(path)));
            check_checkpoint_target(&file, &pass)?;
            check_part_not_replaced(path, part, self.resume.as_deref())
        });
        pegchain::solitaire::exact::agree(exchange, target.map(|()| Vec::new()))?;
        let Some(path) = &self.resume else { return Ok((self.checkpoint.clone(), 0, None)) };
        let (number, saved) = crate::cli::checkpoint::load_shared(path, run, exchange, read)?;
        Ok((self.checkpoint.clone(), number, Some(saved)))
    }
}

/// The refusal of a checkpoint whose header is right but whose state is not whole.
fn not_whole(args: &CheckpointArgs) -> Error {
    let name = args.resume.as_deref().unwrap_or(Path::new("")).display();
    Error::Invalid(format!("the checkpoint {name} is damaged: its saved state is not whole"))
}

/// The position given by `--position`, or by `--moves` played from the one start hole, if
/// either is given.
fn given_position(
    board: &Board,
    starts: Option<&Starts>,
    moves: &Option<String>,
    position: &Option<String>,
) -> Result<Option<Pegs>, Error> {
    match (starts, moves, position) {
        (_, None, None) => Ok(None),
        (Some(Starts::Holes(holes)), Some(moves), None) if holes.len() == 1 => {
            Ok(Some(play(board, holes[0], moves)?))
        }
        (_, Some(_), None) => Err(Error::Invalid("--moves plays from one start hole: give --start H".into())),
        (_, _, Some(text)) => Ok(Some(parse_position(board, text)?)),
    }
}

/// The one start hole of a command that plays from one (`solve`, `coach`, `export`): a
/// list or `all` is told so, not taken for a hole's name (`board triangle5 has no hole "A,B"`).
pub fn one_start_hole(board: &Board, text: &str) -> Result<u8, Error> {
    match parse_starts(board, text) {
        Ok(Starts::Holes(holes)) if holes.len() == 1 => Ok(holes[0]),
        Ok(_) => Err(Error::Invalid(format!(
            "--start {}: this command plays from one start hole, not {}",
            text.trim(),
            if text.contains(',') { "a list" } else { "all" }
        ))),
        Err(e) => Err(e),
    }
}

pub fn parse_starts(board: &Board, text: &str) -> Result<Starts, Error> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(Starts::All);
    }
    Ok(Starts::Holes(hole_list(board, "--start", text)?))
}

/// The holes `flag` names. As a position naming a hole twice is refused, so is a list: a
/// typing slip, not a wish for one row or one peg; and so is an empty item, as in a position.
fn hole_list(board: &Board, flag: &str, list: &str) -> Result<Vec<u8>, Error> {
    // An empty value is no list (`coach --start ""` was told of "--start's list").
    if list.trim().is_empty() {
        return Err(Error::Invalid(format!("{flag} is empty: name a hole")));
    }
    let mut holes = Vec::new();
    for name in list.split(',') {
        if name.trim().is_empty() {
            return Err(Error::Invalid(format!(
                "{flag}'s list has an empty item: holes are separated by single commas"
            )));
        }
        let h = board.find_hole(name)?;
        if holes.contains(&h) {
            return Err(Error::Invalid(format!("{flag} names hole {} twice", board.hole_name(h))));
        }
        holes.push(h);
    }
    Ok(holes)
}

#[cfg(test)]
mod simulation_tests;
#[cfg(test)]
mod tests;
