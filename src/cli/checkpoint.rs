//! `simulate --checkpoint FILE` and `--resume FILE`: the tallies after every wave of games,
//! saved whole (through the one file writer), and read back only into the same run.
//!
//! A checkpoint names the run it belongs to (version, board, games, start plan, policy,
//! seed, exact values) and holds the tallies so far. Batches are added in index order, so a
//! resumed run prints exactly what an uninterrupted one would; `--threads` and the output
//! format may change between sessions, since neither changes the games.

use super::output::{self, Failure};
use super::validate::SimulateRequest;
use pegchain::Error;
use pegchain::solitaire::simulate::RunTally;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What a checkpoint file holds.
#[derive(Serialize, Deserialize)]
struct Checkpoint {
    /// The run it belongs to, as (what, value) in a fixed order.
    run: Vec<(String, String)>,
    tallies: Vec<RunTally>,
}

/// The run a request describes, in the terms a refusal names.
pub fn identity(req: &SimulateRequest) -> Vec<(String, String)> {
    let c = &req.config;
    let pairs = [
        ("pegchain version", env!("CARGO_PKG_VERSION").to_string()),
        ("board", req.board.name().to_string()),
        ("holes", req.board.hole_count().to_string()),
        ("games", c.games.to_string()),
        ("start plan", format!("{:?}", c.starts)),
        ("policy", c.policy.to_string()),
        ("seed", c.seed.to_string()),
        ("exact values", c.exact.to_string()),
    ];
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The tallies saved in `path`, refused with one line unless they belong to `run`.
pub fn load(path: &Path, run: &[(String, String)]) -> Result<Vec<RunTally>, Error> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Invalid(format!("cannot read the checkpoint {name}: {}", output::plain(&e))))?;
    let saved: Checkpoint = serde_json::from_str(&text)
        .map_err(|_| Error::Invalid(format!("{name} is not a pegchain simulate checkpoint")))?;
    if let Some(why) = difference(&saved.run, run) {
        return Err(Error::Invalid(format!("the checkpoint {name} belongs to another run: {why}")));
    }
    Ok(saved.tallies)
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
    None
}

/// Saves the tallies whole (a temporary renamed into place), replacing the last checkpoint.
pub fn save(path: &Path, run: &[(String, String)], tallies: &[RunTally]) -> Result<(), Failure> {
    let checkpoint = Checkpoint { run: run.to_vec(), tallies: tallies.to_vec() };
    let text = serde_json::to_string(&checkpoint).expect("tallies serialize");
    output::write_file(path, text.as_bytes())
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
    }
}
