//! Storm's explicit format, DRN, as `storm --exportbuild model.drn` writes it: a header
//! (`@type`, `@parameters`, `@reward_models`, `@nr_states`, `@model`), then for each state a
//! line `state ID [rewards] labels`, a line `action 0 [rewards]`, and one line
//! `TARGET : PROBABILITY` per transition. Only discrete-time chains (`@type: DTMC`) are read.
//! The label `init` marks the initial states; a DTMC's action reward is earned on each step
//! out of its state, so it is added to the state's reward.

use super::number::parse;
use super::{FormatError, check_declared, check_size};
use crate::engine::error::shortened_fraction;
use crate::engine::explicit::{Builder, ExplicitChain};
use crate::render::number::quoted;
use rug::Rational;
use std::fmt::Write;

/// Reads a DRN text. `budget` (bytes) refuses a chain whose size (its declared states, its
/// transitions as listed) will not fit.
pub fn parse_drn(text: &str, budget: Option<u64>) -> Result<ExplicitChain, FormatError> {
    parse_drn_until(text, budget, &crate::Cancel::new()).map(|drn| drn.chain)
}

/// A DRN file read: its chain, and whether its header says `@value_type: double` (its
/// probabilities are decimals the writer may have rounded, which the answer's reader should
/// be told).
#[derive(Debug)]
pub struct Drn {
    pub chain: ExplicitChain,
    pub doubles: bool,
}

/// The value types of Storm's that are read: a parametric model's values must still be numbers
/// (its parameters are refused), and interval models are not read.
const VALUE_TYPES: [&str; 3] = ["double", "rational", "parametric"];

/// Why a row of a file of doubles may not sum to 1, and the way to an exact file.
const ROUNDED_DOUBLES: &str = "the file holds doubles (@value_type: double), rounded where it was written; \
     export the model with exact values (storm --exact --exportbuild FILE.drn, or stormpy's exact build) for an exact answer";

/// The header's sections whose values come on the lines after their name.
const LISTED: [&str; 5] = ["@parameters", "@placeholders", "@reward_models", "@nr_states", "@nr_choices"];

/// [`parse_drn`], stopped with [`FormatError::stopped`] once `cancel` is set (polled every
/// [`super::POLL_EVERY`] states).
pub fn parse_drn_until(text: &str, budget: Option<u64>, cancel: &crate::Cancel) -> Result<Drn, FormatError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with("//")
    });
    let mut header = Header::default();
    // The header: sections until @model.
    loop {
        let Some((n, line)) = lines.next() else {
            return Err(FormatError::whole("no @model section: not a DRN file"));
        };
        let line = line.trim();
        let (key, rest) = match line.split_once(':') {
            Some((k, r)) if k.starts_with('@') => (k.trim(), Some(r.trim())),
            _ => (line, None),
        };
        match key {
            "@type" => {
                let kind = rest.unwrap_or_default();
                if kind != "DTMC" {
                    return Err(FormatError::at(n, not_a_dtmc(kind)));
                }
                header.dtmc = true;
            }
            "@value_type" => {
                let kind = rest.unwrap_or_default();
                header.doubles = kind == "double";
                if !VALUE_TYPES.contains(&kind) {
                    return Err(FormatError::at(
                        n,
                        format!(
                            "value type {} is not read: the value types read are {}",
                            quoted(kind),
                            VALUE_TYPES.join(", ")
                        ),
                    ));
                }
            }
            "@model" => break,
            "@reward_models" => {
                // Storm writes each name followed by one space, so the line of an unnamed
                // structure is a single space, which the blank lines skipped would lose (its
                // rewards were then refused as one more than the names): read the raw line.
                let raw = text.lines().nth(n).unwrap_or_default();
                let raw = raw.strip_suffix('\r').unwrap_or(raw);
                let names = raw.trim();
                if !names.is_empty() && !names.starts_with("//") {
                    lines.next();
                }
                header.name_rewards(n + 1, if names.starts_with("//") { "" } else { raw })?;
            }
            _ if LISTED.contains(&key) => header.expect = Some((n, key.to_string())),
            _ if key.starts_with('@') => {
                // A known section with its value on the same line (`@nr_states 3`).
                let word = key.split_whitespace().next().unwrap_or(key);
                let why = if LISTED.contains(&word) || word == "@model" {
                    format!("{word} stands alone on its line, its values on the lines after it")
                } else {
                    format!("unknown section {key}")
                };
                return Err(FormatError::at(n, why));
            }
            _ => header.value(n, line)?,
        }
    }
    if !header.dtmc {
        return Err(FormatError::whole("no @type: the file must say @type: DTMC"));
    }
    let (states, states_line) = header.states.ok_or_else(|| FormatError::whole("no @nr_states"))?;
    // The transitions as listed, counted in a first pass over the lines: the header declares
    // only the states, and a plan by them alone let a chain of six times as many transitions
    // start and abort.
    let transitions = lines
        .clone()
        .filter(|(_, l)| {
            let t = l.trim_start();
            !t.starts_with("state") && !t.starts_with("action")
        })
        .count();
    check_size(states, transitions as u64, text.len() as u64, budget)?;
    let mut b = Builder::new(states).map_err(|e| FormatError::chain(None, e))?;
    b.distinct_transitions();
    for name in &header.rewards {
        b.declare_reward(name);
    }
    let mut current: Option<(u64, usize)> = None;
    let mut actions = 0u32;
    let mut row: Vec<(u64, Rational)> = Vec::new();
    let mut listed = 0u64;
    let mut choices = 0u64;
    let doubles = header.doubles;
    let finish_row = |b: &mut Builder, current: Option<(u64, usize)>, row: &mut Vec<(u64, Rational)>| {
        if let Some((state, line)) = current {
            // Named by its state line here; the chain's own check knows no line.
            if row.is_empty() {
                let e = crate::engine::explicit::ChainError::NoTransitions { state };
                return Err(FormatError::chain(Some(line), e));
            }
            let sum: Rational = row.iter().map(|(_, p)| p).sum();
            if sum != 1 {
                let e = crate::engine::explicit::ChainError::RowSum { state, sum: shortened_fraction(&sum) };
                // Storm's double-precision export rounds each probability (1/3 as
                // 0.3333333333), so its rows rarely sum to 1: say where the exact file comes from.
                return Err(match doubles {
                    true => FormatError::at(line, format!("{e}: {ROUNDED_DOUBLES}")),
                    false => FormatError::chain(Some(line), e),
                });
            }
            b.row(state, row.drain(..)).map_err(|e| FormatError::chain(Some(line), e))?;
        }
        Ok::<(), FormatError>(())
    };
    for (n, line) in lines {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("state ") {
            super::poll(cancel, listed, n)?;
            finish_row(&mut b, current, &mut row)?;
            let (state, rewards, labels) = state_line(n, rest, header.rewards.len())?;
            if state >= states {
                return Err(FormatError::at(n, format!("state {state}, but @nr_states is {states}")));
            }
            for (name, value) in header.rewards.iter().zip(rewards) {
                b.state_reward(name, state, value).map_err(|e| FormatError::chain(Some(n), e))?;
            }
            for label in labels {
                if label == "init" {
                    b.initial(state).map_err(|e| FormatError::chain(Some(n), e))?;
                }
                b.label(label, state).map_err(|e| FormatError::chain(Some(n), e))?;
            }
            current = Some((state, n));
            actions = 0;
            listed += 1;
        } else if let Some(rest) = t.strip_prefix("action ").or(if t == "action" { Some("") } else { None }) {
            let Some((state, _)) = current else {
                return Err(FormatError::at(n, "an action before any state"));
            };
            actions += 1;
            choices += 1;
            if actions > 1 {
                return Err(FormatError::at(
                    n,
                    format!("state {state} has a second action: an MDP, not a DTMC"),
                ));
            }
            let rewards = action_rewards(n, rest, header.rewards.len())?;
            for (name, value) in header.rewards.iter().zip(rewards) {
                b.state_reward(name, state, value).map_err(|e| FormatError::chain(Some(n), e))?;
            }
        } else if let Some((to, p)) = t.split_once(':') {
            let Some((state, _)) = current.filter(|_| actions == 1) else {
                return Err(FormatError::at(n, "a transition outside a state's action"));
            };
            let to: u64 = to
                .trim()
                .parse()
                .map_err(|_| FormatError::at(n, format!("not a state number: {}", quoted(to.trim()))))?;
            let p = parse(p.trim()).map_err(|e| FormatError::at(n, e.why("a probability", p.trim())))?;
            if to >= states {
                return Err(FormatError::at(
                    n,
                    format!("a transition to state {to}, but @nr_states is {states}"),
                ));
            }
            if p <= 0 || p > 1 {
                return Err(FormatError::at(
                    n,
                    format!("probability {} out of state {state} is not in (0, 1]", shortened_fraction(&p)),
                ));
            }
            row.push((to, p));
        } else {
            return Err(FormatError::at(
                n,
                format!("expected `state`, `action` or `TARGET : PROBABILITY`, found {}", quoted(t)),
            ));
        }
    }
    finish_row(&mut b, current, &mut row)?;
    check_declared(states_line, "@nr_states", states, ["state", "states"], listed)?;
    if let Some((declared, line)) = header.choices {
        check_declared(line, "@nr_choices", declared, ["choice", "choices"], choices)?;
    }
    let chain = b.finish().map_err(|e| FormatError::chain(None, e))?;
    Ok(Drn { chain, doubles })
}

fn not_a_dtmc(kind: &str) -> String {
    let what = match kind {
        "MDP" => "an MDP",
        "CTMC" => "a CTMC",
        "MA" => "a Markov automaton",
        "POMDP" => "a POMDP",
        _ => {
            return format!(
                "model type {}: only discrete-time Markov chains (@type: DTMC) are read",
                quoted(kind)
            );
        }
    };
    format!("{what}, not a DTMC: only discrete-time Markov chains are read")
}

/// What the header said.
#[derive(Default)]
struct Header {
    dtmc: bool,
    /// The section whose value the next line holds.
    expect: Option<(usize, String)>,
    /// `@nr_states`, and the line it is on.
    states: Option<(u64, usize)>,
    /// `@nr_choices` (one per state in a DTMC), and the line it is on: absent from the files
    /// of older Storm releases, so checked only when given.
    choices: Option<(u64, usize)>,
    rewards: Vec<String>,
    /// `@value_type: double`: the writer rounded every probability.
    doubles: bool,
}

impl Header {
    /// The reward structures' names from the line after `@reward_models` (line `n`), as it
    /// stands: Storm ends each name with one space (`steps ` and, for an unnamed structure, ` `),
    /// so a line that ends in a space is cut at single spaces, its last piece dropped; any
    /// other line (PRISM's, or written by hand) is cut at runs of white space.
    fn name_rewards(&mut self, n: usize, line: &str) -> Result<(), FormatError> {
        self.rewards = match line.strip_suffix(' ') {
            Some(names) => names.split(' ').map(str::to_string).collect(),
            None => line.split_whitespace().map(str::to_string).collect(),
        };
        // Two structures of one name would be added up into one, silently.
        let mut seen = std::collections::HashSet::new();
        for name in &self.rewards {
            if !seen.insert(name) {
                return Err(FormatError::at(n, format!("reward model {} is named twice", quoted(name))));
            }
        }
        Ok(())
    }

    fn value(&mut self, n: usize, line: &str) -> Result<(), FormatError> {
        let Some((_, section)) = self.expect.take() else {
            return Err(FormatError::at(
                n,
                format!("expected a section such as @type, found {}", quoted(line)),
            ));
        };
        match section.as_str() {
            "@parameters" | "@placeholders" => Err(FormatError::at(
                n,
                "a parametric model (it has parameters): only numeric chains are read",
            )),
            "@nr_states" => {
                let count = line
                    .parse()
                    .map_err(|_| FormatError::at(n, format!("not a state count: {}", quoted(line))))?;
                self.states = Some((count, n));
                Ok(())
            }
            "@nr_choices" => {
                let count = line
                    .parse()
                    .map_err(|_| FormatError::at(n, format!("not a choice count: {}", quoted(line))))?;
                self.choices = Some((count, n));
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// `ID [r1, r2] label label` (also `ID {valuation} [..] ..`): the state, its rewards and labels.
fn state_line(n: usize, rest: &str, rewards: usize) -> Result<(u64, Vec<Rational>, Vec<&str>), FormatError> {
    let rest = rest.trim();
    let (id, mut rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let state: u64 =
        id.parse().map_err(|_| FormatError::at(n, format!("not a state number: {}", quoted(id))))?;
    rest = rest.trim_start();
    if rest.starts_with('{') {
        let end = rest.find('}').ok_or_else(|| FormatError::at(n, "a valuation `{` without its `}`"))?;
        rest = rest[end + 1..].trim_start();
    }
    let mut values = Vec::new();
    if rest.starts_with('[') {
        let end = rest.find(']').ok_or_else(|| FormatError::at(n, "a reward list `[` without its `]`"))?;
        values = reward_list(n, &rest[1..end], rewards)?;
        rest = &rest[end + 1..];
    }
    let labels = labels(n, rest)?;
    // A reward list after the labels would be taken for a label, its rewards for none.
    if let Some(late) = labels.iter().find(|l| l.starts_with(['[', '{'])) {
        return Err(FormatError::at(
            n,
            format!("{} after the labels: rewards and valuations come before them", quoted(late)),
        ));
    }
    Ok((state, values, labels))
}

/// A state's labels, parted by white space; a label in double quotes may hold white space,
/// as Storm writes a label named by an expression (`"(s >= 3)" goal`): split at its spaces,
/// it became three labels, and two such labels shared the label `>=`.
fn labels(n: usize, mut rest: &str) -> Result<Vec<&str>, FormatError> {
    let mut labels = Vec::new();
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else { return Ok(labels) };
        let (label, after) = match first {
            '"' => rest[1..].split_once('"').ok_or_else(|| {
                FormatError::at(n, format!("a label {} without its closing quote", quoted(rest)))
            })?,
            _ => rest.split_once(char::is_whitespace).unwrap_or((rest, "")),
        };
        labels.push(label);
        rest = after;
    }
}

/// A label as a state line writes it: in double quotes where it holds white space.
fn written_label(label: &str) -> std::borrow::Cow<'_, str> {
    match label.contains(char::is_whitespace) {
        true => format!("\"{label}\"").into(),
        false => label.into(),
    }
}

/// `0 [r1, r2]` or `__NOLABEL__` and so on: the action's rewards (its name is ignored).
fn action_rewards(n: usize, rest: &str, rewards: usize) -> Result<Vec<Rational>, FormatError> {
    match rest.find('[') {
        Some(start) => {
            let end = rest
                .find(']')
                .filter(|&e| e > start)
                .ok_or_else(|| FormatError::at(n, "a reward list `[` without its `]`"))?;
            reward_list(n, &rest[start + 1..end], rewards)
        }
        None => Ok(Vec::new()),
    }
}

fn reward_list(n: usize, list: &str, rewards: usize) -> Result<Vec<Rational>, FormatError> {
    let values: Vec<&str> = list.split(',').map(str::trim).filter(|v| !v.is_empty()).collect();
    if values.len() != rewards {
        return Err(FormatError::at(
            n,
            format!(
                "{}, but @reward_models names {rewards}",
                crate::render::number::plural(values.len() as u64, "reward value", "reward values")
            ),
        ));
    }
    values.iter().map(|v| parse(v).map_err(|e| FormatError::at(n, e.why("a reward value", v)))).collect()
}

/// The chain as DRN, exactly (fractions). Transition rewards are written as the action's
/// reward (their expectation over the step), which is what a DTMC's rewards mean.
pub fn write_drn(chain: &ExplicitChain) -> String {
    write_drn_until(chain, &crate::Cancel::new()).expect("never stopped")
}

/// [`write_drn`], or `None` once `cancel` is set (polled before every state's row: a chain of
/// millions of transitions takes seconds to write).
pub fn write_drn_until(chain: &ExplicitChain, cancel: &crate::Cancel) -> Option<String> {
    let mut out = String::new();
    let names: Vec<&String> = chain.rewards().keys().collect();
    let state_rewards: Vec<Vec<Rational>> = chain
        .rewards()
        .values()
        .map(|r| if r.state.is_empty() { vec![Rational::new(); chain.states()] } else { r.state.clone() })
        .collect();
    let step_rewards: Vec<Vec<Rational>> =
        names.iter().map(|name| chain.step_reward(name).expect("a reward of the chain")).collect();
    let mut labels_of: Vec<Vec<&str>> = vec![Vec::new(); chain.states()];
    for &s in chain.initial() {
        labels_of[s as usize].push("init");
    }
    for (name, states) in chain.labels().iter().filter(|(name, _)| name.as_str() != "init") {
        for &s in states {
            labels_of[s as usize].push(name);
        }
    }
    let _ = writeln!(out, "// Exported by pegchain\n@type: DTMC\n@value_type: rational\n@parameters\n");
    let list: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let _ = writeln!(out, "@reward_models\n{}", list.join(" "));
    let _ = writeln!(out, "@nr_states\n{}\n@nr_choices\n{}\n@model", chain.states(), chain.states());
    for s in 0..chain.states() {
        if cancel.is_cancelled() {
            return None;
        }
        let _ = write!(out, "state {s}");
        if !names.is_empty() {
            let values: Vec<String> = state_rewards.iter().map(|r| r[s].to_string()).collect();
            let _ = write!(out, " [{}]", values.join(", "));
        }
        for label in &labels_of[s] {
            let _ = write!(out, " {}", written_label(label));
        }
        out.push_str("\n\taction 0");
        if !names.is_empty() {
            let values: Vec<String> = step_rewards
                .iter()
                .zip(&state_rewards)
                .map(|(step, st)| Rational::from(&step[s] - &st[s]).to_string())
                .collect();
            let _ = write!(out, " [{}]", values.join(", "));
        }
        out.push('\n');
        for (t, p) in chain.row(s as u32) {
            let _ = writeln!(out, "\t\t{t} : {p}");
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The die of Knuth and Yao as Storm exports it (`storm --prism die.pm --exportbuild`),
    /// trimmed to its rows.
    const DIE: &str = "// Exported by storm
// Original model type: DTMC
@type: DTMC
@parameters

@reward_models
coin_flips
@nr_states
13
@nr_choices
13
@model
state 0 [1] init
\taction 0 [0]
\t\t1 : 1/2
\t\t2 : 1/2
state 1 [1]
\taction 0 [0]
\t\t3 : 1/2
\t\t4 : 1/2
state 2 [1]
\taction 0 [0]
\t\t5 : 1/2
\t\t6 : 1/2
state 3 [1]
\taction 0 [0]
\t\t1 : 1/2
\t\t7 : 1/2
state 4 [1]
\taction 0 [0]
\t\t8 : 0.5
\t\t9 : 0.5
state 5 [1]
\taction 0 [0]
\t\t10 : 1/2
\t\t11 : 1/2
state 6 [1]
\taction 0 [0]
\t\t2 : 1/2
\t\t12 : 1/2
state 7 [0] one done
\taction 0 [0]
\t\t7 : 1
state 8 [0] two done
\taction 0 [0]
\t\t8 : 1
state 9 [0] three done
\taction 0 [0]
\t\t9 : 1
state 10 [0] four done
\taction 0 [0]
\t\t10 : 1
state 11 [0] five done
\taction 0 [0]
\t\t11 : 1
state 12 [0] six done
\taction 0 [0]
\t\t12 : 1
";

    #[test]
    fn reads_the_die_and_writes_it_back_the_same() {
        let chain = parse_drn(DIE, None).unwrap();
        assert_eq!((chain.states(), chain.transitions(), chain.initial()), (13, 20, &[0u32][..]));
        assert_eq!(chain.label("done").unwrap(), &[7, 8, 9, 10, 11, 12]);
        assert_eq!(chain.step_reward("coin_flips").unwrap()[3], Rational::from(1));
        let again = parse_drn(&write_drn(&chain), None).unwrap();
        assert_eq!(again, chain);
    }

    fn error(text: &str) -> String {
        parse_drn(text, None).unwrap_err().to_string()
    }

    /// Storm writes each reward structure's name followed by a space: an unnamed one (PRISM's
    /// `rewards ... endrewards`, as in the benchmark suite's brp and nand) is a line of one
    /// space, which was skipped as blank, and its rewards refused ("1 reward value, but
    /// @reward_models names 0").
    #[test]
    fn an_unnamed_reward_structure_is_read_as_storm_writes_it() {
        let unnamed = DIE.replace("@reward_models\ncoin_flips\n", "@reward_models\n \n");
        let chain = parse_drn(&unnamed, None).unwrap();
        assert_eq!(chain.rewards().keys().collect::<Vec<_>>(), [""]);
        assert_eq!(chain.step_reward("").unwrap()[3], Rational::from(1));
        let both = DIE
            .replace("@reward_models\ncoin_flips\n", "@reward_models\ncoin_flips  \n")
            .replace(" [1]", " [1, 2]")
            .replace(" [0]", " [0, 0]");
        let chain = parse_drn(&both, None).unwrap();
        assert_eq!(chain.rewards().keys().collect::<Vec<_>>(), ["", "coin_flips"]);
        assert_eq!(chain.step_reward("").unwrap()[3], Rational::from(2));
        // A line of names without Storm's trailing space is cut at runs of white space.
        let hand = DIE.replace("@reward_models\ncoin_flips\n", "@reward_models\n  coin_flips\n");
        assert_eq!(parse_drn(&hand, None).unwrap(), parse_drn(DIE, None).unwrap());
    }

    /// Storm 2.0 writes a label named by an expression in double quotes (`stormpy`'s
    /// `export_to_drn` of a PRISM model with `label "(s >= 3)"`-like labels).
    #[test]
    fn a_label_in_quotes_keeps_its_spaces() {
        let text = "@type: DTMC\n@value_type: rational\n@parameters\n\n@reward_models\n\n@nr_states\n3\n@nr_choices\n3\n@model\n\
                    state 0 init\n\taction 0\n\t\t1 : 1/2\n\t\t2 : 1/2\n\
                    state 1 \"(s >= 1)\" goal\n\taction 0\n\t\t1 : 1\n\
                    state 2 \"(s >= 1)\"  \"(s >= 2)\"\n\taction 0\n\t\t2 : 1\n";
        let chain = parse_drn(text, None).unwrap();
        assert_eq!(chain.label("(s >= 1)").unwrap(), &[1, 2]);
        assert_eq!(chain.label("(s >= 2)").unwrap(), &[2]);
        assert_eq!(chain.label("goal").unwrap(), &[1]);
        assert!(chain.label(">=").is_none() && chain.label("\"(s").is_none());
        // Written back in quotes, and read again the same.
        let written = write_drn(&chain);
        assert!(written.contains("state 2 \"(s >= 1)\" \"(s >= 2)\"\n"), "{written}");
        assert_eq!(parse_drn(&written, None).unwrap(), chain);
        let open = text.replace("goal", "\"goal");
        assert_eq!(error(&open), "line 16: a label \"\\\"goal\" without its closing quote");
    }

    /// A stop asked for ends the writing, with nothing written.
    #[test]
    fn a_stop_ends_the_writing() {
        let chain = parse_drn(DIE, None).unwrap();
        let stop = crate::Cancel::new();
        assert_eq!(write_drn_until(&chain, &stop), Some(write_drn(&chain)));
        stop.cancel();
        assert_eq!(write_drn_until(&chain, &stop), None);
        assert!(crate::formats::prism::write_prism_until(&chain, None, &stop).is_none());
    }

    /// A stop asked for ends the reading at the first poll, on the first state's line.
    #[test]
    fn a_stop_ends_the_reading_at_a_line() {
        let stop = crate::Cancel::new();
        assert!(parse_drn_until(DIE, None, &stop).is_ok());
        stop.cancel();
        let e = parse_drn_until(DIE, None, &stop).unwrap_err();
        let first_state = DIE.lines().position(|l| l.trim().starts_with("state ")).unwrap() + 1;
        assert_eq!(e, FormatError::stopped(first_state));
    }

    #[test]
    fn a_header_of_doubles_is_told_from_an_exact_one() {
        let doubles = |text: &str| parse_drn_until(text, None, &crate::Cancel::new()).unwrap().doubles;
        let typed = |line: &str| DIE.replace("@type: DTMC\n", &format!("@type: DTMC\n{line}\n"));
        assert!(doubles(&typed("@value_type: double")));
        assert!(doubles(&typed("@value_type:double\r")));
        assert!(!doubles(&typed("@value_type: rational")));
        assert!(!doubles(DIE));
        // Only the header counts: a state's label named like the section is no header.
        assert!(DIE.contains("state 12 [0] six done\n"));
        assert!(!doubles(
            &DIE.replace("state 12 [0] six done", "state 12 [0] six done \"@value_type: double\"")
        ));
    }

    #[test]
    fn bad_files_are_named_by_line() {
        let head = "@type: DTMC\n@parameters\n\n@reward_models\n\n@nr_states\n2\n@model\n";
        assert_eq!(
            error("@type: MDP\n@model\n"),
            "line 1: an MDP, not a DTMC: only discrete-time Markov chains are read"
        );
        assert_eq!(
            error("@type: CTMC\n"),
            "line 1: a CTMC, not a DTMC: only discrete-time Markov chains are read"
        );
        assert_eq!(error("hello"), "line 1: expected a section such as @type, found \"hello\"");
        assert_eq!(
            error("@type: DTMC\n@nr_states 2\n@model\n"),
            "line 2: @nr_states stands alone on its line, its values on the lines after it"
        );
        assert_eq!(error("@type: DTMC\n@states\n2\n@model\n"), "line 2: unknown section @states");
        assert_eq!(error(""), "no @model section: not a DRN file");
        let row_sum =
            format!("{head}state 0 init\n\taction 0\n\t\t1 : 1/3\nstate 1\n\taction 0\n\t\t1 : 1\n");
        assert_eq!(error(&row_sum), "line 9: the probabilities out of state 0 add up to 1/3, not exactly 1");
        // Storm's export in doubles rounds 1/3: the refusal says where the exact file comes from.
        let thirds = "\t\t0 : 0.3333333333\n\t\t1 : 0.6666666666\nstate 1\n\taction 0\n\t\t1 : 1\n";
        let doubles = format!(
            "{}state 0 init\n\taction 0\n{thirds}",
            head.replace("DTMC\n", "DTMC\n@value_type: double\n")
        );
        let said = error(&doubles);
        assert!(
            said.starts_with("line 10: the probabilities out of state 0 add up to 9999999999/10000000000, not exactly 1: the file holds doubles (@value_type: double), rounded where it was written; export the model with exact values"),
            "{said}"
        );
        let negative = format!("{head}state 0 init\n\taction 0\n\t\t1 : -1/3\n");
        assert_eq!(error(&negative), "line 11: probability -1/3 out of state 0 is not in (0, 1]");
        let far = format!("{head}state 0 init\n\taction 0\n\t\t7 : 1\n");
        assert_eq!(error(&far), "line 11: a transition to state 7, but @nr_states is 2");
        let word = format!("{head}state 0 init\n\taction 0\n\t\t1 : half\n");
        assert_eq!(error(&word), "line 11: not a probability: \"half\"");
        let two = format!("{head}state 0 init\n\taction 0\n\t\t1 : 1\n\taction 1\n");
        assert_eq!(error(&two), "line 12: state 0 has a second action: an MDP, not a DTMC");
        let value_type = "@type: DTMC\n@value_type: foo\n@model\n";
        assert_eq!(
            error(value_type),
            "line 2: value type \"foo\" is not read: the value types read are double, rational, parametric"
        );
        // Storm's reader adds a repeated transition up; a file lists each once, so a repeat is refused.
        let repeat = format!(
            "{head}state 0 init\n\taction 0\n\t\t1 : 1/2\n\t\t1 : 1/2\nstate 1\n\taction 0\n\t\t1 : 1\n"
        );
        assert_eq!(error(&repeat), "state 0 lists a transition to state 1 twice");
        let missing = format!("{head}state 0 init\n\taction 0\n\t\t0 : 1\n");
        assert_eq!(error(&missing), "line 7: @nr_states declares 2 states, but 1 is listed");
        // A reward written after the labels became a label `[1]`, the state's reward 0.
        let late = format!("{head}state 0 init [1]\n\taction 0\n\t\t0 : 1\n");
        assert_eq!(error(&late), "line 9: \"[1]\" after the labels: rewards and valuations come before them");
        let no_init = format!("{head}state 0\n\taction 0\n\t\t0 : 1\nstate 1\n\taction 0\n\t\t1 : 1\n");
        assert_eq!(error(&no_init), "no initial state");
        let param = "@type: DTMC\n@parameters\np q\n@model\n";
        assert_eq!(
            error(param),
            "line 3: a parametric model (it has parameters): only numeric chains are read"
        );
        // @nr_choices is held to (it was read and let be), when it is given.
        let walk = "state 0 init\n\taction 0\n\t\t1 : 1\nstate 1\n\taction 0\n\t\t1 : 1\n";
        let choices = |n: &str| format!("@type: DTMC\n@nr_states\n2\n@nr_choices\n{n}\n@model\n{walk}");
        assert_eq!(error(&choices("99")), "line 5: @nr_choices declares 99 choices, but 2 are listed");
        assert_eq!(error(&choices("1")), "line 5: @nr_choices declares 1 choice, but 2 are listed");
        assert_eq!(error(&choices("two")), "line 5: not a choice count: \"two\"");
        assert!(parse_drn(&choices("2"), None).is_ok());
        assert!(parse_drn(&format!("{head}{walk}"), None).is_ok());
        let no_action = "@type: DTMC\n@nr_states\n2\n@nr_choices\n2\n@model\nstate 0 init\n\taction 0\n\t\t1 : 1\nstate 1\n";
        // The state without an action is named first, by its line: the count's shortfall follows from it.
        assert_eq!(error(no_action), "line 10: state 1 has no transitions");
        let huge = "@type: DTMC\n@parameters\n\n@nr_states\n4000000000\n@model\n";
        assert!(parse_drn(huge, Some(1 << 30)).unwrap_err().to_string().contains("over the memory budget"));
    }
}
