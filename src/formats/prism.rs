//! PRISM's explicit files: `.tra` (transitions: a header `STATES TRANSITIONS`, which may be
//! absent, then `FROM TO PROBABILITY`, a line perhaps ending with its action's label; an MDP's
//! header `STATES CHOICES TRANSITIONS` is refused), `.lab` (labels: `0="init" 1="deadlock" ...`
//! then `STATE: L L ...`), and one reward structure as `.srew` (`STATE REWARD`) and `.trew`
//! (`FROM TO REWARD`), each with its header line. Lines starting with `#` or `//` are comments.
//! Initial states are those labelled `init` (state 0 without a `.lab`).

use super::number::parse;
use super::{FormatError, check_declared, check_size};
use crate::engine::error::shortened_fraction;
use crate::engine::explicit::{Builder, ChainError, ExplicitChain};
use crate::render::number::quoted;
use rug::Rational;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// The files of one chain, as texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrismFiles {
    pub tra: String,
    pub lab: Option<String>,
    pub srew: Option<String>,
    pub trew: Option<String>,
}

/// Which file a message is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Tra,
    Lab,
    Srew,
    Trew,
}

/// A problem in one of the files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrismError {
    pub part: Part,
    pub error: FormatError,
}

/// Numbered lines that are not blank or comments.
fn content(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"))
}

/// Reads the files of one chain; the reward structure (if any) is called `reward_name`.
pub fn parse_prism(
    files: &PrismFiles,
    reward_name: &str,
    budget: Option<u64>,
) -> Result<ExplicitChain, PrismError> {
    parse_prism_until(files, reward_name, budget, &crate::Cancel::new())
}

/// [`parse_prism`], stopped with [`FormatError::stopped`] once `cancel` is set (polled every
/// [`super::POLL_EVERY`] transitions).
pub fn parse_prism_until(
    files: &PrismFiles,
    reward_name: &str,
    budget: Option<u64>,
    cancel: &crate::Cancel,
) -> Result<ExplicitChain, PrismError> {
    let at = |part: Part| move |error: FormatError| PrismError { part, error };
    let moves = transitions(&files.tra, "PROBABILITY", ["transition", "transitions"], true, cancel)
        .map_err(at(Part::Tra))?;
    let states = moves.states;
    check_size(states, moves.rows.len() as u64, files.tra.len() as u64, budget).map_err(at(Part::Tra))?;
    let mut b = Builder::new(states).map_err(|e| at(Part::Tra)(FormatError::whole(e.to_string())))?;
    b.distinct_transitions();
    // The line where each run of a state's transitions begins (files list them state by
    // state): a row that does not add up to one is named by it.
    let mut runs: Vec<(u64, usize)> = Vec::new();
    for (k, (from, to, p, line)) in moves.rows.into_iter().enumerate() {
        super::poll(cancel, k as u64, line).map_err(at(Part::Tra))?;
        if runs.last().is_none_or(|&(state, _)| state != from) {
            runs.push((from, line));
        }
        if p <= 0 || p > 1 {
            return Err(at(Part::Tra)(FormatError::at(
                line,
                format!("probability {} out of state {from} is not in (0, 1]", shortened_fraction(&p)),
            )));
        }
        b.transition(from, to, p).map_err(|e| at(Part::Tra)(FormatError::at(line, e.to_string())))?;
    }
    match &files.lab {
        Some(lab) => labels(lab, &mut b).map_err(at(Part::Lab))?,
        None => b.initial(0).map_err(|e| at(Part::Lab)(FormatError::whole(e.to_string())))?,
    }
    if files.srew.is_some() || files.trew.is_some() {
        b.declare_reward(reward_name);
    }
    if let Some(srew) = &files.srew {
        for (state, value, line) in state_rewards(srew, states).map_err(at(Part::Srew))? {
            b.state_reward(reward_name, state, value)
                .map_err(|e| at(Part::Srew)(FormatError::at(line, e.to_string())))?;
        }
    }
    if let Some(trew) = &files.trew {
        let t = transitions(trew, "REWARD", ["entry", "entries"], false, cancel).map_err(at(Part::Trew))?;
        if let Some(line) = t.header.filter(|_| t.states != states) {
            return Err(at(Part::Trew)(other_chain(line, t.states, states)));
        }
        for (from, to, value, line) in t.rows {
            b.transition_reward(reward_name, from, to, value.clone())
                .map_err(|e| at(Part::Trew)(FormatError::at(line, e.to_string())))?;
        }
    }
    b.finish().map_err(|e| {
        let line = match &e {
            ChainError::RowSum { state, .. } => runs.iter().find(|(s, _)| s == state).map(|&(_, line)| line),
            _ => None,
        };
        at(Part::Tra)(FormatError::chain(line, e))
    })
}

struct Rows {
    /// The header's count of states, else one past the largest state named.
    states: u64,
    /// The header's line, when the file has one.
    header: Option<usize>,
    rows: Vec<(u64, u64, Rational, usize)>,
}

/// `FROM TO VALUE` lines after an optional `STATES COUNT` header, whose count is of these
/// lines (`counted`, singular and plural). With `actions` (a .tra file) a line may end with
/// its action's label, as PRISM writes a DTMC's, ignored as DRN's action names are; four
/// numbers are an MDP's `FROM CHOICE TO VALUE`.
fn transitions(
    text: &str,
    what: &str,
    counted: [&str; 2],
    actions: bool,
    cancel: &crate::Cancel,
) -> Result<Rows, FormatError> {
    let mut declared = None;
    let mut header = None;
    let mut rows = Vec::new();
    let mut max_state = 0u64;
    for (k, (n, line)) in content(text).enumerate() {
        super::poll(cancel, k as u64, n)?;
        let mut fields: Vec<&str> = line.split_whitespace().collect();
        if k == 0 && fields.len() == 2 {
            let states: u64 = fields[0]
                .parse()
                .map_err(|_| FormatError::at(n, format!("not a state count: {}", quoted(fields[0]))))?;
            let count: u64 = fields[1].parse().map_err(|_| {
                FormatError::at(n, format!("not a count of {}: {}", counted[1], quoted(fields[1])))
            })?;
            declared = Some(states);
            header = Some((n, count));
            continue;
        }
        if k == 0 && actions && is_mdp_header(&fields) {
            return Err(FormatError::at(
                n,
                "three numbers (STATES CHOICES TRANSITIONS): an MDP's header, not a DTMC's",
            ));
        }
        // An MDP's line is four numbers, and in a .tra maybe an action after them.
        let mdp_line = |numbers: &[&str]| numbers.len() == 4 && numbers.iter().all(|f| parse(f).is_ok());
        if mdp_line(&fields)
            || (actions && fields.len() == 5 && is_action(fields[4]) && mdp_line(&fields[..4]))
        {
            return Err(FormatError::at(n, "four numbers (FROM CHOICE TO VALUE): an MDP, not a DTMC"));
        }
        if actions && fields.len() == 4 && is_action(fields[3]) {
            fields.pop();
        }
        if fields.len() != 3 {
            let action = if actions { " [ACTION]" } else { "" };
            return Err(FormatError::at(
                n,
                format!("expected `FROM TO {what}{action}`, found {}", quoted(line)),
            ));
        }
        let state = |s: &str| {
            s.parse::<u64>().map_err(|_| FormatError::at(n, format!("not a state number: {}", quoted(s))))
        };
        let (from, to) = (state(fields[0])?, state(fields[1])?);
        let value = parse(fields[2]).map_err(|e| FormatError::at(n, e.why("a number", fields[2])))?;
        if let Some(states) = declared.filter(|&s| from >= s || to >= s) {
            return Err(FormatError::at(
                n,
                format!("state {} past the {states} states of the header", from.max(to)),
            ));
        }
        let most = crate::engine::explicit::chain::MAX_STATES;
        if from.max(to) >= most {
            return Err(FormatError::at(
                n,
                format!("state {} past the {most} states a chain may have", from.max(to)),
            ));
        }
        max_state = max_state.max(from).max(to);
        rows.push((from, to, value, n));
    }
    if let Some((line, count)) = header {
        check_declared(line, "the header", count, counted, rows.len() as u64)?;
    }
    let states = declared.unwrap_or(if rows.is_empty() { 0 } else { max_state + 1 });
    Ok(Rows { states, header: header.map(|(line, _)| line), rows })
}

/// `STATES CHOICES TRANSITIONS`, the header PRISM writes for an MDP: whole numbers, at least one
/// choice a state and one transition a choice. The third past 1 tells it from a DTMC's
/// headerless first line `FROM TO PROBABILITY`, whose probability is at most 1.
fn is_mdp_header(fields: &[&str]) -> bool {
    match fields.iter().map(|f| f.parse::<u64>()).collect::<Result<Vec<_>, _>>().as_deref() {
        Ok(&[states, choices, transitions]) => {
            1 <= states && states <= choices && choices <= transitions && transitions > 1
        }
        _ => false,
    }
}

/// An action's label as PRISM names one: a letter or `_`, then letters, digits and `_`.
fn is_action(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `0="init" 1="goal"` then `STATE: 0 1`.
fn labels(text: &str, b: &mut Builder) -> Result<(), FormatError> {
    let mut lines = content(text);
    let Some((n, first)) = lines.next() else {
        return Err(FormatError::whole("empty: the first line declares the labels (0=\"init\" ...)"));
    };
    let mut names: BTreeMap<u32, String> = BTreeMap::new();
    for item in first.split_whitespace() {
        let (index, name) = item
            .split_once('=')
            .and_then(|(i, name)| Some((i.parse::<u32>().ok()?, name.strip_prefix('"')?.strip_suffix('"')?)))
            .ok_or_else(|| FormatError::at(n, format!("expected INDEX=\"NAME\", found {}", quoted(item))))?;
        if let Some(first) = names.get(&index) {
            return Err(FormatError::at(
                n,
                format!("label index {index} is declared twice ({} and {})", quoted(first), quoted(name)),
            ));
        }
        // Two indices of one name merged their states silently.
        if let Some((first, _)) = names.iter().find(|(_, known)| *known == name) {
            return Err(FormatError::at(
                n,
                format!("label {} is declared twice (indices {first} and {index})", quoted(name)),
            ));
        }
        b.declare_label(name);
        names.insert(index, name.to_string());
    }
    let mut any_initial = false;
    for (n, line) in lines {
        let (state, rest) = line
            .split_once(':')
            .ok_or_else(|| FormatError::at(n, format!("expected `STATE: LABELS`, found {}", quoted(line))))?;
        let state: u64 = state
            .trim()
            .parse()
            .map_err(|_| FormatError::at(n, format!("not a state number: {}", quoted(state.trim()))))?;
        for index in rest.split_whitespace() {
            let name = index.parse::<u32>().ok().and_then(|i| names.get(&i)).ok_or_else(|| {
                FormatError::at(n, format!("label {index} is not declared on the first line"))
            })?;
            if name == "init" {
                b.initial(state).map_err(|e| FormatError::at(n, e.to_string()))?;
                any_initial = true;
            }
            b.label(name, state).map_err(|e| FormatError::at(n, e.to_string()))?;
        }
    }
    if !any_initial {
        return Err(FormatError::whole("no state is labelled init"));
    }
    Ok(())
}

/// A reward file's header (line `line`) declares `declared` states where the chain has
/// `states`: the file was written for another chain.
fn other_chain(line: usize, declared: u64, states: u64) -> FormatError {
    FormatError::at(line, format!("the header declares {declared} states, but the chain has {states}"))
}

/// `STATE VALUE` lines after the header `STATES COUNT`, which may be absent. The first line
/// is the header when its first number is the chain's number of `states` (no entry can name
/// that state, the last being `states - 1`), or when it reads as one of another chain: two
/// whole numbers, the second the count of the entries after it, the first past every state
/// they name (an entry of a file without a header seldom is, its states being listed in
/// order); that header is refused. The header's count must be the number of entries, and a
/// state has one entry at most. An empty file is no rewards, as PRISM reads it.
fn state_rewards(text: &str, states: u64) -> Result<Vec<(u64, Rational, usize)>, FormatError> {
    let lines: Vec<(usize, &str)> = content(text).collect();
    let state_of = |line: &str| line.split_whitespace().next().and_then(|s| s.parse::<u64>().ok());
    let header = match lines.first() {
        Some(&(n, first)) => {
            let fields: Vec<&str> = first.split_whitespace().collect();
            let numbers: Vec<Option<u64>> = fields.iter().map(|f| f.parse().ok()).collect();
            let after = &lines[1..];
            if fields.len() == 2 && numbers[0] == Some(states) {
                let count: u64 = fields[1].parse().map_err(|_| {
                    FormatError::at(n, format!("not a count of entries: {}", quoted(fields[1])))
                })?;
                Some((n, count))
            } else if let [Some(declared), Some(count)] = numbers[..]
                && count == after.len() as u64
                && after.iter().all(|&(_, l)| state_of(l).is_some_and(|s| s < declared))
            {
                return Err(other_chain(n, declared, states));
            } else {
                None
            }
        }
        None => None,
    };
    let entries = &lines[usize::from(header.is_some())..];
    if let Some((line, count)) = header {
        check_declared(line, "the header", count, ["entry", "entries"], entries.len() as u64)?;
    }
    let mut first_line: HashMap<u64, usize> = HashMap::with_capacity(entries.len());
    entries
        .iter()
        .map(|&(n, line)| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(FormatError::at(n, format!("expected `STATE REWARD`, found {}", quoted(line))));
            }
            let state = fields[0]
                .parse()
                .map_err(|_| FormatError::at(n, format!("not a state number: {}", quoted(fields[0]))))?;
            let value = parse(fields[1]).map_err(|e| FormatError::at(n, e.why("a number", fields[1])))?;
            if let Some(first) = first_line.insert(state, n) {
                return Err(FormatError::at(
                    n,
                    format!("state {state} is given a reward twice (first on line {first})"),
                ));
            }
            Ok((state, value, n))
        })
        .collect()
}

/// The chain as PRISM explicit files, with the reward structure `reward` (if given) as
/// `.srew` and `.trew`.
pub fn write_prism(chain: &ExplicitChain, reward: Option<&str>) -> PrismFiles {
    write_prism_until(chain, reward, &crate::Cancel::new()).expect("never stopped")
}

/// [`write_prism`], or `None` once `cancel` is set (polled before every state's rows of the .tra
/// file, the bulk of the writing).
pub fn write_prism_until(
    chain: &ExplicitChain,
    reward: Option<&str>,
    cancel: &crate::Cancel,
) -> Option<PrismFiles> {
    let mut tra = format!("{} {}\n", chain.states(), chain.transitions());
    for s in 0..chain.states() as u32 {
        if cancel.is_cancelled() {
            return None;
        }
        for (t, p) in chain.row(s) {
            let _ = writeln!(tra, "{s} {t} {p}");
        }
    }
    let mut names: Vec<&str> = vec!["init"];
    names.extend(chain.labels().keys().map(String::as_str).filter(|n| *n != "init"));
    let mut lab = String::new();
    let declared: Vec<String> = names.iter().enumerate().map(|(i, n)| format!("{i}=\"{n}\"")).collect();
    let _ = writeln!(lab, "{}", declared.join(" "));
    let mut of_state: Vec<Vec<usize>> = vec![Vec::new(); chain.states()];
    for &s in chain.initial() {
        of_state[s as usize].push(0);
    }
    for (i, name) in names.iter().enumerate().skip(1) {
        for &s in chain.label(name).unwrap_or(&[]) {
            of_state[s as usize].push(i);
        }
    }
    for (s, ls) in of_state.iter().enumerate().filter(|(_, ls)| !ls.is_empty()) {
        let ls: Vec<String> = ls.iter().map(usize::to_string).collect();
        let _ = writeln!(lab, "{s}: {}", ls.join(" "));
    }
    let rewards = reward.and_then(|name| chain.rewards().get(name));
    let srew = rewards.filter(|r| !r.state.is_empty()).map(|r| {
        let entries: Vec<(usize, &Rational)> = r.state.iter().enumerate().filter(|(_, v)| **v != 0).collect();
        let mut out = format!("{} {}\n", chain.states(), entries.len());
        for (s, v) in entries {
            let _ = writeln!(out, "{s} {v}");
        }
        out
    });
    let trew = rewards.filter(|r| !r.transition.is_empty()).map(|r| {
        let mut entries = Vec::new();
        for s in 0..chain.states() as u32 {
            for (i, (t, _)) in chain.row_range(s).zip(chain.row(s)) {
                if r.transition[i] != 0 {
                    entries.push(format!("{s} {t} {}", r.transition[i]));
                }
            }
        }
        format!(
            "{} {}\n{}",
            chain.states(),
            entries.len(),
            entries.iter().map(|e| format!("{e}\n")).collect::<String>()
        )
    });
    Some(PrismFiles { tra, lab: Some(lab), srew, trew })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(tra: &str, lab: Option<&str>) -> PrismFiles {
        PrismFiles { tra: tra.into(), lab: lab.map(str::to_string), srew: None, trew: None }
    }

    #[test]
    fn reads_a_walk_with_and_without_its_header_and_writes_it_back() {
        let tra = "4 6\n0 1 0.5\n0 2 1/2\n1 1 1\n2 3 1\n3 3 1\n2 2 0\n";
        // A zero probability is refused, so drop that line for the good case.
        let tra_good = "# a comment\n4 5\n0 1 0.5\n0 2 1/2\n1 1 1\n2 3 1\n3 3 1\n";
        let lab = "0=\"init\" 1=\"deadlock\" 2=\"goal\"\n0: 0\n3: 2\n";
        let chain = parse_prism(&files(tra_good, Some(lab)), "r", None).unwrap();
        assert_eq!((chain.states(), chain.transitions(), chain.initial()), (4, 5, &[0u32][..]));
        assert_eq!(chain.label("goal").unwrap(), &[3]);
        let no_header =
            parse_prism(&files("0 1 0.5\n0 2 0.5\n1 1 1\n2 3 1\n3 3 1\n", Some(lab)), "r", None).unwrap();
        assert_eq!(no_header, chain);
        // PRISM may end a DTMC's line with its action's label: read, the label ignored.
        let actions = "4 5\n0 1 0.5 flip\n0 2 1/2 flip\n1 1 1 _stay\n2 3 1 go2\n3 3 1\n";
        assert_eq!(parse_prism(&files(actions, Some(lab)), "r", None).unwrap(), chain);
        assert_eq!(parse_prism(&write_prism(&chain, None), "r", None).unwrap(), chain);
        let e = parse_prism(&files(tra, Some(lab)), "r", None).unwrap_err();
        assert_eq!(
            (e.part, e.error.to_string()),
            (Part::Tra, "line 7: probability 0 out of state 2 is not in (0, 1]".into())
        );
    }

    /// A stop asked for ends the reading of the .tra file at its first line.
    #[test]
    fn a_stop_ends_the_reading_at_a_line() {
        let stop = crate::Cancel::new();
        stop.cancel();
        let e = parse_prism_until(&files("# a walk\n0 1 1\n1 1 1\n", None), "r", None, &stop).unwrap_err();
        assert_eq!((e.part, e.error), (Part::Tra, FormatError::stopped(2)));
    }

    #[test]
    fn rewards_round_trip() {
        let tra = "3 4\n0 1 1/3\n0 2 2/3\n1 1 1\n2 2 1\n";
        let f = PrismFiles {
            tra: tra.into(),
            lab: Some("0=\"init\"\n0: 0\n".into()),
            srew: Some("3 1\n0 2\n".into()),
            trew: Some("3 1\n0 2 3/2\n".into()),
        };
        let chain = parse_prism(&f, "cost", None).unwrap();
        assert_eq!(chain.step_reward("cost").unwrap()[0], Rational::from(3));
        assert_eq!(parse_prism(&write_prism(&chain, Some("cost")), "cost", None).unwrap(), chain);
    }

    /// A .srew file without its header keeps every entry, even one whose reward equals the
    /// number of lines after it: only the chain's number of states starts a header.
    #[test]
    fn state_rewards_without_a_header_keep_their_first_line() {
        let walk = |srew: &str| PrismFiles {
            tra: "3 4\n0 1 1\n1 1 1/2\n1 2 1/2\n2 2 1\n".into(),
            lab: Some("0=\"init\" 1=\"goal\"\n0: 0\n2: 1\n".into()),
            srew: Some(srew.into()),
            trew: None,
        };
        for srew in ["0 2\n1 5\n2 9\n", "3 3\n0 2\n1 5\n2 9\n", "3 2\n0 2\n1 5\n"] {
            let chain = parse_prism(&walk(srew), "r", None).unwrap();
            let rewards = chain.step_reward("r").unwrap();
            assert_eq!(rewards[..2], [Rational::from(2), Rational::from(5)], "{srew:?}");
        }
    }

    /// What a header declares is held to: the count of transitions or entries, one index per
    /// label, one reward per state. Each was read silently: a .tra file one line longer than its
    /// header, a label's states given to another declared with the same index, a state's two
    /// rewards added up.
    #[test]
    fn what_a_header_declares_is_held_to() {
        let walk = "3 4\n0 1 1\n1 1 1/2\n1 2 1/2\n2 2 1\n";
        let lab = "0=\"init\" 1=\"goal\"\n0: 0\n2: 1\n";
        let with = |tra: &str, lab: &str, srew: Option<&str>| PrismFiles {
            srew: srew.map(str::to_string),
            ..files(tra, Some(lab))
        };
        let cases = [
            (
                with("3 3\n0 1 1\n1 1 1/2\n1 2 1/2\n2 2 1\n", lab, None),
                Part::Tra,
                "line 1: the header declares 3 transitions, but 4 are listed",
            ),
            (
                with("# a walk\n3 9\n0 1 1\n1 1 1/2\n1 2 1/2\n2 2 1\n", lab, None),
                Part::Tra,
                "line 2: the header declares 9 transitions, but 4 are listed",
            ),
            (with("3 x\n0 1 1\n", lab, None), Part::Tra, "line 1: not a count of transitions: \"x\""),
            (
                with(walk, "0=\"init\" 1=\"lose\" 1=\"dup\" 3=\"win\"\n0: 0\n2: 1\n", None),
                Part::Lab,
                "line 1: label index 1 is declared twice (\"lose\" and \"dup\")",
            ),
            (
                with(walk, "0=\"init\" 1=\"win\" 2=\"win\"\n0: 0\n2: 1\n", None),
                Part::Lab,
                "line 1: label \"win\" is declared twice (indices 1 and 2)",
            ),
            (
                PrismFiles { trew: Some("3 2\n0 1 5\n".into()), ..with(walk, lab, None) },
                Part::Trew,
                "line 1: the header declares 2 entries, but 1 is listed",
            ),
            // Another chain's reward file: its header was read as a state's entry (.srew) or
            // let be (.trew).
            (
                PrismFiles { trew: Some("9 1\n0 1 5\n".into()), ..with(walk, lab, None) },
                Part::Trew,
                "line 1: the header declares 9 states, but the chain has 3",
            ),
        ];
        let srew_cases = [
            ("3 9\n0 1\n1 2\n", "line 1: the header declares 9 entries, but 2 are listed"),
            ("3 2\n0 1\n", "line 1: the header declares 2 entries, but 1 is listed"),
            ("2 2\n0 1\n1 2\n", "line 1: the header declares 2 states, but the chain has 3"),
            ("3 two\n0 1\n", "line 1: not a count of entries: \"two\""),
            (
                "3 3\n0 1\n# a comment\n1 2\n0 5\n",
                "line 5: state 0 is given a reward twice (first on line 2)",
            ),
            ("0 1\n1 2\n0 5\n", "line 3: state 0 is given a reward twice (first on line 1)"),
        ];
        let srew_cases = srew_cases.map(|(srew, message)| (with(walk, lab, Some(srew)), Part::Srew, message));
        for (f, part, message) in cases.into_iter().chain(srew_cases) {
            let e = parse_prism(&f, "r", None).unwrap_err();
            assert_eq!((e.part, e.error.to_string()), (part, message.to_string()));
        }
        // Without a header nothing is declared; an empty .srew is no rewards (PRISM reads it so),
        // and a header of no entries is one too.
        for srew in ["0 1\n1 2\n", "", "3 0\n"] {
            assert!(parse_prism(&with(walk, lab, Some(srew)), "r", None).is_ok(), "{srew:?}");
        }
        assert!(parse_prism(&with("0 1 1\n1 1 1/2\n1 2 1/2\n2 2 1\n", lab, None), "r", None).is_ok());
    }

    #[test]
    fn bad_files_are_named_by_part_and_line() {
        let lab = Some("0=\"init\"\n0: 0\n");
        let cases = [
            (
                files("0 1 1 0.5\n", lab),
                Part::Tra,
                "line 1: four numbers (FROM CHOICE TO VALUE): an MDP, not a DTMC",
            ),
            (
                files("0 1 1 0.5 go\n", lab),
                Part::Tra,
                "line 1: four numbers (FROM CHOICE TO VALUE): an MDP, not a DTMC",
            ),
            // An MDP's header was read as the transition 2 -> 3 and refused for its probability 4.
            (
                files("2 3 4\n0 0 1 1\n0 1 0 1/2\n0 1 1 1/2\n1 0 1 1\n", lab),
                Part::Tra,
                "line 1: three numbers (STATES CHOICES TRANSITIONS): an MDP's header, not a DTMC's",
            ),
            // A headerless DTMC's first line is not one: its probability is at most 1.
            (files("0 1 2\n", lab), Part::Tra, "line 1: probability 2 out of state 0 is not in (0, 1]"),
            // A fourth column is an action's label, or the line is malformed.
            (
                files("2 2\n0 1 1 2x\n1 1 1\n", lab),
                Part::Tra,
                "line 2: expected `FROM TO PROBABILITY [ACTION]`, found \"0 1 1 2x\"",
            ),
            (
                PrismFiles { trew: Some("0 1 5 go\n".into()), ..files("2 2\n0 1 1\n1 1 1\n", lab) },
                Part::Trew,
                "line 1: expected `FROM TO REWARD`, found \"0 1 5 go\"",
            ),
            (files("2 2\n0 1 x\n", lab), Part::Tra, "line 2: not a number: \"x\""),
            (
                files("0 18446744073709551615 1\n", lab),
                Part::Tra,
                "line 1: state 18446744073709551615 past the 4294967295 states a chain may have",
            ),
            (files("2 2\n0 5 1\n", lab), Part::Tra, "line 2: state 5 past the 2 states of the header"),
            // Named by the line where the state's transitions begin.
            (
                files("2 2\n0 1 1/2\n1 1 1\n", lab),
                Part::Tra,
                "line 2: the probabilities out of state 0 add up to 1/2, not exactly 1",
            ),
            (
                files("1 1 1\n0 1 1/4\n0 0 1/4\n", lab),
                Part::Tra,
                "line 2: the probabilities out of state 0 add up to 1/2, not exactly 1",
            ),
            // Listed twice, even apart and adding up to 1: refused, not added up.
            (
                files("2 3\n0 1 1/2\n1 1 1\n0 1 1/2\n", lab),
                Part::Tra,
                "state 0 lists a transition to state 1 twice",
            ),
            (
                files("2 2\n0 1 1\n1 1 1\n", Some("0=init\n")),
                Part::Lab,
                "line 1: expected INDEX=\"NAME\", found \"0=init\"",
            ),
            (
                files("2 2\n0 1 1\n1 1 1\n", Some("0=\"init\"\n0: 3\n")),
                Part::Lab,
                "line 2: label 3 is not declared on the first line",
            ),
            (
                files("2 2\n0 1 1\n1 1 1\n", Some("0=\"init\" 1=\"x\"\n1: 1\n")),
                Part::Lab,
                "no state is labelled init",
            ),
            (
                files("2 2\n0 1 1\n1 1 1\n", Some("0=\"init\"\n0: 0\n5: 0\n")),
                Part::Lab,
                "line 3: there is no state 5: the chain has 2 states, 0 to 1",
            ),
            (
                PrismFiles { trew: Some("2 1\n1 0 5\n".into()), ..files("2 2\n0 1 1\n1 1 1\n", lab) },
                Part::Trew,
                "line 2: there is no transition from state 1 to state 0",
            ),
            // A transition's rewards were added up, 5 and 5 earning 10.
            (
                PrismFiles { trew: Some("2 2\n0 1 5\n0 1 5\n".into()), ..files("2 2\n0 1 1\n1 1 1\n", lab) },
                Part::Trew,
                "line 3: state 0 lists a reward for its transition to state 1 twice",
            ),
            (
                PrismFiles { srew: Some("7 1\n".into()), ..files("2 2\n0 1 1\n1 1 1\n", lab) },
                Part::Srew,
                "line 1: there is no state 7: the chain has 2 states, 0 to 1",
            ),
        ];
        for (f, part, message) in cases {
            let e = parse_prism(&f, "r", None).unwrap_err();
            assert_eq!((e.part, e.error.to_string()), (part, message.to_string()));
        }
    }
}
