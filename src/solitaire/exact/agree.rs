//! Processes that share a run agree at each meeting: every process's bytes where all
//! succeeded, else on every process alike the first failure, in that process's words.

use super::Processes;
use crate::engine::Exchange;
use crate::error::{Error, RefusedBy};

/// Every process's `local` bytes, in process order, when every process succeeded; else, on
/// every process alike, the first failure (this process's own where it failed first, else
/// in the words of the process that did). Every process must call it.
pub fn agree(exchange: &dyn Exchange, local: Result<Vec<u8>, Error>) -> Result<Vec<Vec<u8>>, Error> {
    let status = match &local {
        Ok(bytes) => [&[0u8][..], bytes].concat(),
        Err(Error::Interrupted { done }) => [&[2u8][..], done.as_bytes()].concat(),
        // A refusal for memory crosses as one, so that every process words it alike (with
        // its way out).
        Err(Error::TooLarge { layer, positions, classes, bytes, budget, by }) => {
            let numbers = [*positions, *bytes, *budget, u64::from(*classes), *by as u64]
                .map(|n| n.to_le_bytes())
                .concat();
            [&[3u8][..], &numbers, layer.as_bytes()].concat()
        }
        Err(e) => [&[1u8][..], e.to_string().as_bytes()].concat(),
    };
    let all = exchange.all_gather(&status);
    match all.iter().position(|s| s.first() != Some(&0)) {
        None => Ok(all.into_iter().map(|s| s[1..].to_vec()).collect()),
        Some(first) if first == exchange.me() => Err(local.expect_err("this process failed")),
        Some(first) => Err(failure_from(&all[first])),
    }
}

/// `local` where every process succeeded (a lone process: always), else on every process
/// alike the first failure, as [`agree`] finds it. Every process must call it.
pub fn agreed<T>(processes: Option<&Processes>, local: Result<T, Error>) -> Result<T, Error> {
    let Some(Processes(exchange)) = processes else { return local };
    match local {
        Ok(value) => agree(&**exchange, Ok(Vec::new())).map(|_| value),
        Err(e) => Err(agree(&**exchange, Err(e)).expect_err("a process that failed fails them all")),
    }
}

/// The error a process's status in [`agree`] carries (bytes from this program's own processes).
fn failure_from(status: &[u8]) -> Error {
    let words = |from: usize| String::from_utf8_lossy(status.get(from..).unwrap_or_default()).into_owned();
    let number = |i: usize| {
        let at = 1 + 8 * i;
        status.get(at..at + 8).map_or(0, |b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    };
    match status.first() {
        Some(2) => Error::Interrupted { done: words(1) },
        Some(3) => Error::TooLarge {
            layer: words(41),
            positions: number(0),
            classes: number(3) != 0,
            bytes: number(1),
            budget: number(2),
            by: RefusedBy::ALL.get(number(4) as usize).copied().unwrap_or(RefusedBy::Engine),
        },
        _ => Error::Invalid(words(1)),
    }
}
