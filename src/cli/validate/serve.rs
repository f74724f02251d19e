//! `serve`: where to listen, the boards offered, how long a connection may stay idle and how
//! long an answer may compute.

use crate::cli::args::ServeArgs;
use pegchain::render::number::quoted;
use pegchain::solitaire::board;
use pegchain::{Board, Error};
use std::time::Duration;

/// A validated `serve` request (the port is clap's to check).
pub struct ServeChoices {
    /// The host to listen on: an IP address (an IPv6 one without its brackets) or a name.
    pub host: String,
    /// Every built-in board, after the board file's if one is given.
    pub boards: Vec<Board>,
    pub idle_timeout: Duration,
    /// How long an answer may compute.
    pub budget: Duration,
}

/// A flag's seconds, 1 to 3600.
fn seconds(flag: &str, seconds: u64) -> Result<Duration, Error> {
    match seconds {
        1..=3600 => Ok(Duration::from_secs(seconds)),
        _ => Err(Error::Invalid(format!("{flag} takes 1 to 3600 seconds, not {seconds}"))),
    }
}

impl ServeArgs {
    pub fn validate(&self) -> Result<ServeChoices, Error> {
        let idle_timeout = seconds("--idle-timeout", self.idle_timeout)?;
        let budget = seconds("--budget", self.budget)?;
        let mut boards: Vec<Board> =
            board::builtin_names().into_iter().filter_map(|name| board::builtin(&name).ok()).collect();
        if let Some(spec) = &self.board {
            let extra = pegchain::solitaire::load_board(spec)?;
            // The page and the API find a board by its name in any case (`English`), so a file
            // may share a built-in's name, however written, only by being that board (as the
            // files in data/boards/ are): another board would hide the built-in one.
            let builtin = board::builtin_name(extra.name());
            if let Some(i) = builtin.and_then(|name| boards.iter().position(|b| b.name() == name)) {
                if (boards[i].holes(), boards[i].jumps()) != (extra.holes(), extra.jumps()) {
                    return Err(Error::BoardFile {
                        file: spec.clone(),
                        why: format!(
                            "the board is named {} but is not the built-in board of that name, which serve offers too; \
                             give it another name",
                            quoted(extra.name())
                        ),
                    });
                }
                boards.remove(i);
            }
            boards.insert(0, extra);
        }
        Ok(ServeChoices { host: host(&self.host)?, boards, idle_timeout, budget })
    }
}

/// `--host` as the system takes it: an IP address, an IPv6 one in brackets or not, or a name.
/// One with a port (`127.0.0.1:9000`, `[::1]:9000`) was looked up as a name, and refused as
/// `cannot listen on 127.0.0.1:9000:0`.
fn host(given: &str) -> Result<String, Error> {
    // A bare IPv6 address ends in a group after a colon too (`::1`, `2001:db8::80`).
    let with_port = given.rsplit_once(':').is_some_and(|(before, port)| {
        !port.is_empty()
            && port.bytes().all(|b| b.is_ascii_digit())
            && (before.ends_with(']') || !before.contains(':'))
    });
    if with_port {
        return Err(Error::Invalid(format!(
            "--host takes no port, not {}: give the port with --port",
            quoted(given)
        )));
    }
    Ok(given.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(given).to_string())
}

#[cfg(test)]
mod tests {
    use super::host;

    #[test]
    fn a_host_is_an_address_or_a_name_without_a_port() {
        for (given, taken) in [
            ("127.0.0.1", "127.0.0.1"),
            ("::1", "::1"),
            ("[::1]", "::1"),
            ("::ffff:127.0.0.1", "::ffff:127.0.0.1"),
            ("2001:db8::80", "2001:db8::80"),
            ("localhost", "localhost"),
        ] {
            assert_eq!(host(given).unwrap(), taken, "{given}");
        }
        for given in ["127.0.0.1:9000", "[::1]:9000", "localhost:80"] {
            let refused = host(given).unwrap_err().to_string();
            assert_eq!(refused, format!("--host takes no port, not \"{given}\": give the port with --port"));
        }
    }
}
