//! An explicit chain: every state and transition listed, probabilities exact. Files (DRN,
//! PRISM explicit) and built-in games build one with [`Builder`]; the solver and the sampler
//! read it. Cycles are allowed; an absorbing state is a state whose only move is back to
//! itself with probability 1.

use rug::Rational;
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use thiserror::Error;

/// The most states an explicit chain may have: states are `u32` indices.
pub const MAX_STATES: u64 = u32::MAX as u64;

/// A chain broken as a chain (the reader of a file adds the file and line).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ChainError {
    #[error("the chain has no states")]
    Empty,
    #[error("state {state} is listed twice")]
    DuplicateState { state: u64 },
    #[error("state {state} has no transitions")]
    NoTransitions { state: u64 },
    #[error("there is no state {state}: the chain has {states} states, 0 to {last}", last = .states - 1)]
    NoSuchState { state: u64, states: u64 },
    #[error("there is no transition from state {from} to state {to}")]
    NoSuchTransition { from: u64, to: u64 },
    #[error("state {from} lists a transition to state {to} twice")]
    RepeatedTransition { from: u64, to: u64 },
    #[error("state {from} lists a reward for its transition to state {to} twice")]
    RepeatedTransitionReward { from: u64, to: u64 },
    #[error("a transition out of state {state} has probability {probability}, not in (0, 1]")]
    BadProbability { state: u64, probability: String },
    #[error("the probabilities out of state {state} add up to {sum}, not exactly 1")]
    RowSum { state: u64, sum: String },
    #[error("no initial state")]
    NoInitialState,
    #[error(
        "the probabilities out of state {state} have a common denominator of {bits} bits, \
         more than the 64 bits of an exact draw"
    )]
    WideRow { state: u64, bits: u32 },
    #[error("the chain has {states} states, more than the limit of {limit}", limit = MAX_STATES)]
    TooManyStates { states: u64 },
    #[error("stopped at state {state} of {states}, as asked")]
    Stopped { state: u64, states: u64 },
}

/// A finite discrete-time Markov chain with exact probabilities, labels and rewards.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplicitChain {
    /// Row `s` is `offsets[s]..offsets[s + 1]` of `to` and `probability`, sorted by target.
    offsets: Vec<usize>,
    to: Vec<u32>,
    probability: Vec<Rational>,
    initial: Vec<u32>,
    /// Label name -> the states it holds, ascending.
    labels: BTreeMap<String, Vec<u32>>,
    /// Reward name -> what a step out of each state earns (state reward plus the expected
    /// transition reward of that step).
    rewards: BTreeMap<String, Rewards>,
}

/// One reward structure, as files give it: per state, and per transition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rewards {
    /// Earned in each step out of a state (index = state); empty if none.
    pub state: Vec<Rational>,
    /// Earned on taking a transition (index = transition, in the order of [`ExplicitChain::row`]);
    /// empty if none.
    pub transition: Vec<Rational>,
}

impl ExplicitChain {
    pub fn states(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn transitions(&self) -> usize {
        self.to.len()
    }

    /// The moves out of `state`: (next state, probability), ascending by next state.
    pub fn row(&self, state: u32) -> impl ExactSizeIterator<Item = (u32, &Rational)> + Clone {
        let range = self.row_range(state);
        self.to[range.clone()].iter().copied().zip(&self.probability[range])
    }

    /// Where `state`'s moves sit in the transition arrays.
    pub fn row_range(&self, state: u32) -> std::ops::Range<usize> {
        self.offsets[state as usize]..self.offsets[state as usize + 1]
    }

    /// A state whose only move is to itself.
    pub fn is_absorbing(&self, state: u32) -> bool {
        let range = self.row_range(state);
        range.len() == 1 && self.to[range.start] == state
    }

    pub fn initial(&self) -> &[u32] {
        &self.initial
    }

    pub fn labels(&self) -> &BTreeMap<String, Vec<u32>> {
        &self.labels
    }

    pub fn label(&self, name: &str) -> Option<&[u32]> {
        self.labels.get(name).map(Vec::as_slice)
    }

    /// The states of label `name` as a set (one flag per state), as the questions take a
    /// target; `None` if the chain has no such label.
    pub fn label_set(&self, name: &str) -> Option<Vec<bool>> {
        let mut set = vec![false; self.states()];
        self.label(name)?.iter().for_each(|&s| set[s as usize] = true);
        Some(set)
    }

    pub fn rewards(&self) -> &BTreeMap<String, Rewards> {
        &self.rewards
    }

    /// What one step out of each state earns on average under reward structure `name`: the
    /// state reward plus the transition rewards weighted by their probabilities.
    pub fn step_reward(&self, name: &str) -> Option<Vec<Rational>> {
        let rewards = self.rewards.get(name)?;
        let mut out = vec![Rational::new(); self.states()];
        for (s, value) in out.iter_mut().enumerate() {
            if let Some(r) = rewards.state.get(s) {
                *value += r;
            }
            if !rewards.transition.is_empty() {
                for i in self.row_range(s as u32) {
                    *value += Rational::from(&self.probability[i] * &rewards.transition[i]);
                }
            }
        }
        Some(out)
    }

    /// The raw arrays, for writers and tests: (offsets, targets, probabilities).
    pub fn parts(&self) -> (&[usize], &[u32], &[Rational]) {
        (&self.offsets, &self.to, &self.probability)
    }
}

/// Builds an [`ExplicitChain`] state by state, checking every rule on `finish`.
#[derive(Debug)]
pub struct Builder {
    states: u64,
    rows: Vec<Option<Vec<(u32, Rational)>>>,
    initial: Vec<u32>,
    labels: BTreeMap<String, Vec<u32>>,
    rewards: BTreeMap<String, RewardRows>,
    /// Whether two transitions between the same states are refused rather than added up.
    distinct: bool,
}

#[derive(Debug, Default)]
struct RewardRows {
    state: BTreeMap<u32, Rational>,
    transition: BTreeMap<(u32, u32), Rational>,
}

impl Builder {
    /// A chain of `states` states (numbered 0..states) to be filled in.
    pub fn new(states: u64) -> Result<Builder, ChainError> {
        if states == 0 {
            return Err(ChainError::Empty);
        }
        if states > MAX_STATES {
            return Err(ChainError::TooManyStates { states });
        }
        let rows = std::iter::repeat_with(|| None).take(states as usize).collect();
        Ok(Builder {
            states,
            rows,
            initial: Vec::new(),
            labels: BTreeMap::new(),
            rewards: BTreeMap::new(),
            distinct: false,
        })
    }

    /// Refuses, on `finish`, two transitions between the same states, and at once a second
    /// reward for one transition: a file lists each once (a repeat was edited in or pasted
    /// twice), where a game's moves to one state add up.
    pub fn distinct_transitions(&mut self) {
        self.distinct = true;
    }

    pub fn states(&self) -> u64 {
        self.states
    }

    fn check(&self, state: u64) -> Result<u32, ChainError> {
        if state >= self.states {
            return Err(ChainError::NoSuchState { state, states: self.states });
        }
        Ok(state as u32)
    }

    /// Adds one transition (transitions to the same state add up).
    pub fn transition(&mut self, from: u64, to: u64, probability: Rational) -> Result<(), ChainError> {
        let (from, to) = (self.check(from)?, self.check(to)?);
        if probability <= 0 || probability > 1 {
            return Err(ChainError::BadProbability {
                state: from as u64,
                probability: crate::error::shortened_fraction(&probability),
            });
        }
        self.rows[from as usize].get_or_insert_with(Vec::new).push((to, probability));
        Ok(())
    }

    /// Sets a whole row at once; a row given twice is refused.
    pub fn row(
        &mut self,
        from: u64,
        moves: impl IntoIterator<Item = (u64, Rational)>,
    ) -> Result<(), ChainError> {
        let index = self.check(from)?;
        if self.rows[index as usize].is_some() {
            return Err(ChainError::DuplicateState { state: from });
        }
        self.rows[index as usize] = Some(Vec::new());
        for (to, p) in moves {
            self.transition(from, to, p)?;
        }
        Ok(())
    }

    /// Makes `state` absorbing (a move to itself with probability 1).
    pub fn absorbing(&mut self, state: u64) -> Result<(), ChainError> {
        self.row(state, [(state, Rational::from(1))])
    }

    pub fn initial(&mut self, state: u64) -> Result<(), ChainError> {
        let s = self.check(state)?;
        self.initial.push(s);
        Ok(())
    }

    pub fn label(&mut self, name: &str, state: u64) -> Result<(), ChainError> {
        let s = self.check(state)?;
        self.labels.entry(name.to_string()).or_default().push(s);
        Ok(())
    }

    /// Declares a label that may hold no state.
    pub fn declare_label(&mut self, name: &str) {
        self.labels.entry(name.to_string()).or_default();
    }

    /// Adds `value` to what each step out of `state` earns under reward structure `name`.
    pub fn state_reward(&mut self, name: &str, state: u64, value: Rational) -> Result<(), ChainError> {
        let s = self.check(state)?;
        *self.rewards.entry(name.to_string()).or_default().state.entry(s).or_default() += value;
        Ok(())
    }

    /// Adds `value` to what the transition `from` -> `to` earns under reward structure `name`;
    /// a transition not added before is refused, and so is a second reward for it after
    /// [`Builder::distinct_transitions`].
    pub fn transition_reward(
        &mut self,
        name: &str,
        from: u64,
        to: u64,
        value: Rational,
    ) -> Result<(), ChainError> {
        let key = (self.check(from)?, self.check(to)?);
        let row = self.rows[key.0 as usize].as_deref().unwrap_or_default();
        if !row.iter().any(|&(t, _)| t == key.1) {
            return Err(ChainError::NoSuchTransition { from, to });
        }
        let earned = self.rewards.entry(name.to_string()).or_default().transition.entry(key);
        if self.distinct && matches!(earned, Entry::Occupied(_)) {
            return Err(ChainError::RepeatedTransitionReward { from, to });
        }
        *earned.or_default() += value;
        Ok(())
    }

    /// Declares a reward structure that may have no entry.
    pub fn declare_reward(&mut self, name: &str) {
        self.rewards.entry(name.to_string()).or_default();
    }

    /// The chain, once every state has a row summing to exactly 1 and there is an initial
    /// state. Transitions to the same state are merged (refused after
    /// [`Builder::distinct_transitions`]); a transition reward on a transition that does not
    /// exist is refused.
    pub fn finish(self) -> Result<ExplicitChain, ChainError> {
        self.finish_until(&crate::Cancel::new())
    }

    /// [`Builder::finish`], stopped with [`ChainError::Stopped`] once `cancel` is set (polled
    /// before every row, as a row may hold thousands of transitions: the rows of a chain of
    /// millions take seconds to check).
    pub fn finish_until(self, cancel: &crate::Cancel) -> Result<ExplicitChain, ChainError> {
        if self.initial.is_empty() {
            return Err(ChainError::NoInitialState);
        }
        let mut offsets = Vec::with_capacity(self.rows.len() + 1);
        let (mut to, mut probability) = (Vec::new(), Vec::new());
        offsets.push(0);
        let states = self.rows.len() as u64;
        for (s, row) in self.rows.into_iter().enumerate() {
            if cancel.is_cancelled() {
                return Err(ChainError::Stopped { state: s as u64, states });
            }
            let Some(mut row) = row.filter(|r| !r.is_empty()) else {
                return Err(ChainError::NoTransitions { state: s as u64 });
            };
            row.sort_by_key(|m| m.0);
            let mut sum = Rational::new();
            let start = to.len();
            for (t, p) in row {
                sum += &p;
                if to.len() > start && to.last() == Some(&t) {
                    if self.distinct {
                        return Err(ChainError::RepeatedTransition { from: s as u64, to: t.into() });
                    }
                    *probability.last_mut().expect("a transition") += p;
                } else {
                    to.push(t);
                    probability.push(p);
                }
            }
            if sum != 1 {
                return Err(ChainError::RowSum {
                    state: s as u64,
                    sum: crate::error::shortened_fraction(&sum),
                });
            }
            offsets.push(to.len());
        }
        let mut initial = self.initial;
        initial.sort_unstable();
        initial.dedup();
        let labels = self
            .labels
            .into_iter()
            .map(|(name, mut states)| {
                states.sort_unstable();
                states.dedup();
                (name, states)
            })
            .collect();
        let n = offsets.len() - 1;
        let mut rewards = BTreeMap::new();
        for (name, rows) in self.rewards {
            let mut r = Rewards::default();
            if !rows.state.is_empty() {
                r.state = vec![Rational::new(); n];
                for (s, v) in rows.state {
                    r.state[s as usize] = v;
                }
            }
            if !rows.transition.is_empty() {
                r.transition = vec![Rational::new(); to.len()];
                for ((from, target), v) in rows.transition {
                    let range = offsets[from as usize]..offsets[from as usize + 1];
                    let Ok(i) = to[range.clone()].binary_search(&target) else {
                        return Err(ChainError::NoSuchTransition { from: from as u64, to: target as u64 });
                    };
                    r.transition[range.start + i] = v;
                }
            }
            rewards.insert(name, r);
        }
        Ok(ExplicitChain { offsets, to, probability, initial, labels, rewards })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    /// A stop asked for ends the check of the rows, naming the row it reached.
    #[test]
    fn a_stop_ends_the_finish() {
        let walk = || {
            let mut b = Builder::new(2).unwrap();
            b.row(0, [(1, q(1, 1))]).unwrap();
            b.absorbing(1).unwrap();
            b.initial(0).unwrap();
            b
        };
        let stop = crate::Cancel::new();
        assert!(walk().finish_until(&stop).is_ok());
        stop.cancel();
        assert_eq!(walk().finish_until(&stop).unwrap_err(), ChainError::Stopped { state: 0, states: 2 });
    }

    #[test]
    fn rows_merge_sort_and_sum_to_one() {
        let mut b = Builder::new(3).unwrap();
        b.row(0, [(2, q(1, 3)), (1, q(1, 3)), (1, q(1, 3))]).unwrap();
        b.absorbing(1).unwrap();
        b.absorbing(2).unwrap();
        b.initial(0).unwrap();
        let c = b.finish().unwrap();
        let row: Vec<_> = c.row(0).map(|(t, p)| (t, p.clone())).collect();
        assert_eq!(row, vec![(1, q(2, 3)), (2, q(1, 3))]);
        assert!(c.is_absorbing(1) && !c.is_absorbing(0));
    }

    #[test]
    fn refuses_rows_that_do_not_sum_to_one() {
        let mut b = Builder::new(2).unwrap();
        b.row(0, [(1, q(1, 3))]).unwrap();
        b.absorbing(1).unwrap();
        b.initial(0).unwrap();
        assert_eq!(b.finish(), Err(ChainError::RowSum { state: 0, sum: "1/3".into() }));
    }

    #[test]
    fn repeated_transitions_add_up_unless_refused() {
        let build = |distinct: bool| {
            let mut b = Builder::new(2).unwrap();
            if distinct {
                b.distinct_transitions();
            }
            b.row(0, [(1, q(1, 2)), (0, q(1, 4)), (1, q(1, 4))]).unwrap();
            b.absorbing(1).unwrap();
            b.initial(0).unwrap();
            b.finish()
        };
        assert_eq!(
            build(false).unwrap().row(0).map(|(t, p)| (t, p.clone())).collect::<Vec<_>>(),
            [(0, q(1, 4)), (1, q(3, 4))]
        );
        assert_eq!(build(true), Err(ChainError::RepeatedTransition { from: 0, to: 1 }));
    }

    #[test]
    fn refuses_missing_rows_states_and_probabilities() {
        let mut b = Builder::new(2).unwrap();
        b.absorbing(1).unwrap();
        b.initial(0).unwrap();
        assert_eq!(b.finish(), Err(ChainError::NoTransitions { state: 0 }));
        let mut b = Builder::new(2).unwrap();
        assert_eq!(b.transition(0, 5, q(1, 2)), Err(ChainError::NoSuchState { state: 5, states: 2 }));
        assert!(matches!(b.transition(0, 1, q(-1, 2)), Err(ChainError::BadProbability { .. })));
        assert!(matches!(b.transition(0, 1, q(3, 2)), Err(ChainError::BadProbability { .. })));
    }

    #[test]
    fn step_reward_adds_state_and_expected_transition_rewards() {
        let mut b = Builder::new(2).unwrap();
        b.row(0, [(0, q(1, 2)), (1, q(1, 2))]).unwrap();
        b.absorbing(1).unwrap();
        b.initial(0).unwrap();
        b.state_reward("r", 0, q(1, 1)).unwrap();
        b.transition_reward("r", 0, 1, q(4, 1)).unwrap();
        let c = b.finish().unwrap();
        assert_eq!(c.step_reward("r").unwrap(), vec![q(3, 1), q(0, 1)]);
        assert_eq!(c.step_reward("x"), None);
    }

    /// A transition's second reward adds up, as its second listing does, unless a file's
    /// transitions are held distinct: then it is refused as soon as it is given.
    #[test]
    fn repeated_transition_rewards_add_up_unless_refused() {
        let build = |distinct: bool| {
            let mut b = Builder::new(2).unwrap();
            if distinct {
                b.distinct_transitions();
            }
            b.row(0, [(1, q(1, 1))]).unwrap();
            b.absorbing(1).unwrap();
            b.initial(0).unwrap();
            b.transition_reward("r", 0, 1, q(4, 1)).unwrap();
            b.transition_reward("r", 0, 1, q(4, 1)).map(|()| b)
        };
        assert_eq!(build(false).unwrap().finish().unwrap().step_reward("r").unwrap(), [q(8, 1), q(0, 1)]);
        assert_eq!(build(true).unwrap_err(), ChainError::RepeatedTransitionReward { from: 0, to: 1 });
    }
}
