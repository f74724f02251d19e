//! The questions a user asks of an explicit chain, answered exactly for every state:
//! the probability of ever reaching a target, the expected steps (or reward) until then and
//! their variance, the distribution of the steps, where the chain ends, and the expected
//! visits to each transient state. Graph analysis decides first which states reach the
//! target surely, possibly or never, so that an expectation is finite or infinite exactly.

use super::ExplicitChain;
use super::graph::{Reverse, components};
use super::linear::{self, Rows, SolveError, Transposed};
use crate::{Cancel, Report};
use rug::ops::Pow;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// Which states reach the target with probability 0, 1, or strictly between.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reachability {
    /// Reaches the target with positive probability (target states included).
    pub possible: Vec<bool>,
    /// Reaches it with probability 1 (target states included).
    pub sure: Vec<bool>,
}

/// Graph analysis (no arithmetic): a state reaches the target surely iff it cannot reach a
/// state that misses it without first passing through the target.
pub fn reachability(chain: &ExplicitChain, target: &[bool]) -> Reachability {
    let n = chain.states();
    let reverse = Reverse::new(n, |s| chain.row(s).map(|(t, _)| t));
    let possible = reverse.reaching(target, &vec![true; n]);
    let never: Vec<bool> = possible.iter().map(|p| !p).collect();
    let outside_target: Vec<bool> = target.iter().map(|t| !t).collect();
    let may_miss = reverse.reaching(&never, &outside_target);
    let sure = (0..n).map(|s| target[s] || (possible[s] && !may_miss[s])).collect();
    Reachability { possible, sure }
}

/// The probability of ever reaching `target` (at step 0 if the state is in it), per state.
pub fn reach_probability(
    chain: &ExplicitChain,
    target: &[bool],
    cancel: &Cancel,
) -> Result<Vec<Rational>, SolveError> {
    let r = reachability(chain, target);
    let n = chain.states();
    let unknown: Vec<bool> = (0..n).map(|s| r.possible[s] && !r.sure[s]).collect();
    let b: Vec<Vec<Rational>> = (0..n)
        .map(|s| match unknown[s] {
            true => vec![chain.row(s as u32).filter(|(t, _)| r.sure[*t as usize]).map(|(_, p)| p).sum()],
            false => Vec::new(),
        })
        .collect();
    let x = linear::solve(chain, &unknown, &b, cancel)?;
    Ok((0..n)
        .map(|s| match (r.sure[s], unknown[s]) {
            (true, _) => Rational::from(1),
            (_, true) => x[s][0].clone(),
            _ => Rational::new(),
        })
        .collect())
}

/// The expected total of `reward` (earned on each step out of a state) until `target` is
/// reached, per state: `None` (infinite) where the target is missed with positive
/// probability, 0 in the target.
pub fn expected_reward(
    chain: &ExplicitChain,
    target: &[bool],
    reward: &[Rational],
    cancel: &Cancel,
) -> Result<Vec<Option<Rational>>, SolveError> {
    let e = expectations(chain, target, std::slice::from_ref(&reward.to_vec()), cancel)?;
    Ok(e.rewards.into_iter().next().expect("one reward"))
}

/// The expected number of steps until `target` and its variance, per state (`None` where
/// infinite).
pub fn steps_mean_and_variance(
    chain: &ExplicitChain,
    target: &[bool],
    cancel: &Cancel,
) -> Result<Vec<Option<(Rational, Rational)>>, SolveError> {
    Ok(expectations(chain, target, &[], cancel)?.steps)
}

/// What accumulates until the target, per state (`None` where infinite).
pub struct Expectations {
    /// The steps' mean and variance.
    pub steps: Vec<Option<(Rational, Rational)>>,
    /// The expected total of each reward asked for.
    pub rewards: Vec<Vec<Option<Rational>>>,
}

/// The steps until `target` (mean and variance) and the expected totals of `rewards`, for
/// states that reach it surely: one solve for the means (one column each), one more for
/// the second moment of the steps T, which satisfies
/// E\[T^2\] = sum_t P(s,t) (1 + 2 E_t\[T\] + E_t\[T^2\]) outside the target.
pub fn expectations(
    chain: &ExplicitChain,
    target: &[bool],
    rewards: &[Vec<Rational>],
    cancel: &Cancel,
) -> Result<Expectations, SolveError> {
    let r = reachability(chain, target);
    let n = chain.states();
    let unknown: Vec<bool> = (0..n).map(|s| r.sure[s] && !target[s]).collect();
    let b: Vec<Vec<Rational>> = (0..n)
        .map(|s| match unknown[s] {
            true => std::iter::once(Rational::from(1)).chain(rewards.iter().map(|r| r[s].clone())).collect(),
            false => Vec::new(),
        })
        .collect();
    let first = linear::solve(chain, &unknown, &b, cancel)?;
    let value =
        |x: &[Vec<Rational>], s: usize, c: usize| if unknown[s] { x[s][c].clone() } else { Rational::new() };
    let b2: Vec<Vec<Rational>> = (0..n)
        .map(|s| match unknown[s] {
            true => {
                let ahead: Rational =
                    chain.row(s as u32).map(|(t, p)| p * value(&first, t as usize, 0)).sum();
                vec![Rational::from(1) + ahead * 2u32]
            }
            false => Vec::new(),
        })
        .collect();
    let second = linear::solve(chain, &unknown, &b2, cancel)?;
    let steps = (0..n)
        .map(|s| {
            r.sure[s].then(|| {
                let mean = value(&first, s, 0);
                let variance = value(&second, s, 0) - mean.clone().square();
                (mean, variance)
            })
        })
        .collect();
    let rewards = (0..rewards.len())
        .map(|c| (0..n).map(|s| r.sure[s].then(|| value(&first, s, c + 1))).collect())
        .collect();
    Ok(Expectations { steps, rewards })
}

/// P(T <= k) for k = 0..=bound, per state, where T is the step at which `target` is first
/// reached: exact, by `bound` sweeps of the matrix. Its numbers grow with every step (a
/// denominator of k bits by step k on most chains, so memory grows as bound²): where
/// `budget` is given, the bytes the whole answer will hold are projected from the growth of
/// each step's numbers (after steps 64, 128, 256, ...) and checked at every step, and a
/// distribution past the budget is refused ([`SolveError::PastBudget`]) before it is.
///
/// The sweeps are in integers: with d the lcm of the denominators of the probabilities
/// that move (out of a state that is not the target and can reach it), every P(T <= k) is
/// an integer over d^k, so a sweep is integer multiply-adds, where sums of fractions spent
/// most of their time in the gcds that keep each one in lowest terms. The answer stays so
/// ([`Steps`]): a caller puts in lowest terms only the fractions it shows.
pub fn steps_distribution(
    chain: &ExplicitChain,
    target: &[bool],
    bound: u32,
    states: &[u32],
    budget: Option<u64>,
    cancel: &Cancel,
) -> Result<Steps, SolveError> {
    let n = chain.states();
    let possible = reachability(chain, target).possible;
    let moves = |s: usize| !target[s] && possible[s];
    let d = (0..n)
        .filter(|&s| moves(s))
        .flat_map(|s| chain.row(s as u32).map(|(_, p)| p.denom()))
        .fold(Integer::from(1), |d, q| d.lcm(q));
    // Each moving state's row times d: integers.
    let weights: Vec<Vec<(u32, Integer)>> = (0..n)
        .map(|s| match moves(s) {
            true => {
                chain.row(s as u32).map(|(t, p)| (t, Integer::from(&d / p.denom()) * p.numer())).collect()
            }
            false => Vec::new(),
        })
        .collect();
    // Step k's numerators over d^k.
    let mut scale = Integer::from(1);
    let mut u: Vec<Integer> = (0..n).map(|s| Integer::from(target[s] as u32)).collect();
    let mut out: Vec<Vec<Integer>> = states.iter().map(|&s| vec![u[s as usize].clone()]).collect();
    let mut growth = Growth::default();
    for step in 1..=bound {
        if cancel.is_cancelled() {
            return Err(SolveError::Cancelled);
        }
        cancel.report(Report::Steps { done: u64::from(step - 1), of: u64::from(bound) });
        scale *= &d;
        let next: Vec<Integer> = (0..n)
            .map(|s| match (target[s], possible[s]) {
                (true, _) => scale.clone(),
                (_, false) => Integer::new(),
                _ => weights[s].iter().map(|(t, w)| Integer::from(w * &u[*t as usize])).sum(),
            })
            .collect();
        u = next;
        for (o, &s) in out.iter_mut().zip(states) {
            o.push(u[s as usize].clone());
        }
        if let Some(budget) = budget {
            // What the fraction of each value kept will hold.
            let kept: u64 =
                out.iter().map(|o| integer_bytes(o.last().expect("a step")) + integer_bytes(&scale)).sum();
            let working: u64 = u.iter().chain([&scale]).map(integer_bytes).sum();
            let bytes = growth.projected(step, bound, kept, working);
            if bytes > budget {
                return Err(SolveError::PastBudget { bound, step, bytes, budget });
            }
        }
    }
    cancel.clear_report();
    let primes = small_primes(&d);
    Ok(Steps { d, numerators: out, primes })
}

/// P(T <= k) for k = 0..=bound of each state asked for, as integers over a power of one
/// number: `numerators[i][k] / d^k` (see [`steps_distribution`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Steps {
    d: Integer,
    pub numerators: Vec<Vec<Integer>>,
    /// d's prime factors and their exponents, where it has no prime factor past 32 bits.
    primes: Option<Vec<(u32, u32)>>,
}

impl Steps {
    /// The number whose powers are the denominators.
    pub fn d(&self) -> &Integer {
        &self.d
    }

    /// `numerator / (times * d^k)` in lowest terms (see [`Over::fraction`]).
    pub fn fraction(&self, numerator: Integer, times: u32, k: u32) -> Rational {
        self.over(times).fraction(numerator, k)
    }

    /// The fractions over `times` powers of d, their denominator's primes merged once for all.
    pub fn over(&self, times: u32) -> Over<'_> {
        let primes = self.primes.as_ref().map(|primes| {
            // d's primes with their exponents, and times's: (p, exponent in d, in times).
            let times = small_primes(&Integer::from(times)).expect("a 32-bit number's primes are below 2^32");
            let mut merged: BTreeMap<u32, (u32, u32)> = primes.iter().map(|&(p, e)| (p, (e, 0))).collect();
            for (p, e) in times {
                merged.entry(p).or_default().1 += e;
            }
            merged.into_iter().map(|(p, (in_d, in_times))| (p, in_d, in_times)).collect()
        });
        Over { d: &self.d, times, primes }
    }

    /// P(T <= k) of the i-th state asked for.
    pub fn cumulative(&self, i: usize, k: u32) -> Rational {
        self.fraction(self.numerators[i][k as usize].clone(), 1, k)
    }
}

/// Fractions over `times` powers of d (see [`Steps::over`]).
pub struct Over<'a> {
    d: &'a Integer,
    times: u32,
    /// The denominator's primes: (p, its exponent in d, in times), where d's are known.
    primes: Option<Vec<(u32, u32, u32)>>,
}

impl Over<'_> {
    /// `numerator / (times * d^k)` in lowest terms. Where the primes of the denominator are
    /// known, each is divided out of the numerator as often as it goes, not found by a gcd of
    /// two numbers of k digits, which took most of a long distribution's time. GMP removes a
    /// prime's every factor at once (by p, p², p⁴, ...): one at a time, a numerator with k
    /// factors of p took k divisions of its k digits (a 4-state chain's 10,000 steps, 164 s).
    pub fn fraction(&self, mut numerator: Integer, k: u32) -> Rational {
        let (Some(primes), false) = (&self.primes, numerator.is_zero()) else {
            return Rational::from((numerator, Integer::from(self.d.pow(k)) * self.times));
        };
        let mut denominator = Integer::from(1);
        for &(p, in_d, in_times) in primes {
            let most = in_d * k + in_times;
            let found = numerator.remove_factor_mut(&Integer::from(p));
            // Factors past the denominator's go back: the fraction keeps them.
            if found > most {
                numerator *= Integer::from(Integer::u_pow_u(p, found - most));
            }
            denominator *= Integer::from(Integer::u_pow_u(p, most - found.min(most)));
        }
        // Lowest terms: every prime of the denominator that is left divides the numerator no
        // more (all its factors were removed, and only those past the denominator's put back).
        debug_assert_eq!(Integer::from(numerator.gcd_ref(&denominator)), 1);
        // SAFETY: the denominator is positive and coprime to the numerator, as shown above.
        unsafe { Rational::from_canonical(numerator, denominator) }
    }
}

/// The prime factors of `n` (n > 0) with their exponents, found by trial division by the
/// numbers below 2^16; `None` where a factor past 32 bits is left.
fn small_primes(n: &Integer) -> Option<Vec<(u32, u32)>> {
    let mut left = n.clone();
    let mut primes = Vec::new();
    let mut p = 2u32;
    while p < 1 << 16 && left > 1 {
        let mut e = 0;
        while left.is_divisible_u(p) {
            left.div_exact_u_mut(p);
            e += 1;
        }
        if e > 0 {
            primes.push((p, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    match left.to_u32() {
        Some(1) => Some(primes),
        // No factor below 2^16: a prime.
        Some(q) => {
            primes.push((q, 1));
            Some(primes)
        }
        None => None,
    }
}

/// How many times a distribution of steps is held, in numbers and in print (see [`Growth`]).
const HELD: u64 = 5;

/// About the bytes an integer holds: the value, its heap block and its limbs.
fn integer_bytes(i: &Integer) -> u64 {
    32 + u64::from(i.significant_bits()).div_ceil(64) * 8
}

/// The bytes a distribution of steps holds so far, and what one step's numbers took at the
/// last two projection points.
#[derive(Default)]
struct Growth {
    held: u64,
    /// (step, bytes kept that step) at the last projection point.
    last: Option<(u32, u64)>,
    projected: u64,
}

impl Growth {
    /// The bytes of the whole answer at step `bound`, as projected at `step` (which kept
    /// `kept` bytes and works in `working`): from steps 64, 128, 256, ... each step's bytes
    /// are taken to grow by the same amount a step as they did since the last such point;
    /// in between, the last projection, or what is held if that is more. The answer is held
    /// about five times beside the working vector: the distribution, its sums, and both
    /// printed (as JSON fractions, measured: 4.7 times the numbers' bytes in all).
    fn projected(&mut self, step: u32, bound: u32, kept: u64, working: u64) -> u64 {
        self.held += kept;
        if step >= 64 && step.is_power_of_two() {
            let slope = self.last.map_or(0, |(at, was)| kept.saturating_sub(was) / u64::from(step - at));
            let rest = u64::from(bound - step);
            let later = rest
                .saturating_mul(kept)
                .saturating_add(slope.saturating_mul(rest.saturating_mul(rest + 1) / 2));
            let per_step = working.div_ceil(u64::from(step));
            let working_then = working.saturating_add(per_step.saturating_mul(rest));
            self.projected =
                self.held.saturating_add(later).saturating_mul(HELD).saturating_add(working_then);
            self.last = Some((step, kept));
        }
        self.projected.max(self.held.saturating_mul(HELD).saturating_add(working))
    }
}

/// Where the chain ends: its bottom strongly connected components (a single absorbing state,
/// or a closed class it cycles in forever), and the probability of ending in each from an
/// initial state drawn uniformly.
pub struct Ends {
    /// The bottom components, each a sorted list of states.
    pub bottoms: Vec<Vec<u32>>,
    /// The probability of ending in each bottom component (in the order of `bottoms`), from
    /// an initial state drawn uniformly.
    pub probability: Vec<Rational>,
}

/// Solved as one system, the initial distribution times (I - Q)^-1 (each transient state's
/// expected visits), whatever the number of bottoms: solved for every state and bottom
/// (a column each), a chain of 146,435 states and 755 absorbing ones (triangle6's from a
/// corner, exported) held 110 million fractions and aborted on memory.
pub fn ends(chain: &ExplicitChain, cancel: &Cancel) -> Result<Ends, SolveError> {
    let n = chain.states();
    let all = vec![true; n];
    let comps = components(n, &all, |s| chain.row(s).map(|(t, _)| t));
    let mut which = vec![usize::MAX; n];
    let mut bottoms = Vec::new();
    for comp in comps {
        let closed = comp.iter().all(|&s| chain.row(s).all(|(t, _)| comp.binary_search(&t).is_ok()));
        if closed {
            for &s in &comp {
                which[s as usize] = bottoms.len();
            }
            bottoms.push(comp);
        }
    }
    let transient: Vec<bool> = which.iter().map(|&w| w == usize::MAX).collect();
    let share = Rational::from((1, chain.initial().len().max(1) as u64));
    let mut start = vec![Rational::new(); n];
    for &s in chain.initial() {
        start[s as usize] += &share;
    }
    let mut probability = vec![Rational::new(); bottoms.len()];
    for (s, p) in start.iter().enumerate().filter(|&(s, _)| !transient[s]) {
        probability[which[s]] += p;
    }
    // The visits v solve (I - Q^T) v = start over the transient states.
    let qt = Transposed::new(chain, &transient);
    let b: Vec<Vec<Rational>> =
        (0..n).map(|s| if transient[s] { vec![start[s].clone()] } else { Vec::new() }).collect();
    let visits = linear::solve(&qt, &transient, &b, cancel)?;
    for s in (0..n).filter(|&s| transient[s] && visits[s][0] != 0) {
        for (t, p) in chain.row(s as u32).filter(|(t, _)| !transient[*t as usize]) {
            probability[which[t as usize]] += Rational::from(&visits[s][0] * p);
        }
    }
    Ok(Ends { bottoms, probability })
}

/// The expected number of visits to each transient state (a state not in a bottom
/// component) starting from `from`: a row of the fundamental matrix (I - Q)^-1. Empty
/// entries for recurrent states; all empty if `from` is recurrent.
pub fn expected_visits(
    chain: &ExplicitChain,
    ends: &Ends,
    from: u32,
    cancel: &Cancel,
) -> Result<Vec<Option<Rational>>, SolveError> {
    let n = chain.states();
    let mut transient = vec![true; n];
    for s in ends.bottoms.iter().flatten() {
        transient[*s as usize] = false;
    }
    if !transient[from as usize] {
        return Ok(vec![None; n]);
    }
    // v = e_from (I - Q)^-1, i.e. (I - Q^T) v = e_from.
    let qt = Transposed::new(chain, &transient);
    let b: Vec<Vec<Rational>> = (0..n)
        .map(|s| if transient[s] { vec![Rational::from((s == from as usize) as u32)] } else { Vec::new() })
        .collect();
    let x = linear::solve(&qt, &transient, &b, cancel)?;
    debug_assert_eq!(qt.size(), n);
    Ok((0..n).map(|s| transient[s].then(|| x[s][0].clone())).collect())
}

#[cfg(test)]
mod tests {
    use super::super::Builder;
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    /// Gambler's ruin on 0..=goal with win probability p, started at 1.
    fn ruin(goal: u64, p: Rational) -> ExplicitChain {
        let mut b = Builder::new(goal + 1).unwrap();
        b.absorbing(0).unwrap();
        b.absorbing(goal).unwrap();
        for i in 1..goal {
            b.row(i, [(i + 1, p.clone()), (i - 1, Rational::from(1) - &p)]).unwrap();
        }
        b.initial(1).unwrap();
        b.finish().unwrap()
    }

    fn set(n: usize, states: &[usize]) -> Vec<bool> {
        (0..n).map(|s| states.contains(&s)).collect()
    }

    #[test]
    fn gamblers_ruin_matches_its_closed_forms() {
        // p = 2/5, q/p = 3/2: P(win from i) = (1 - (3/2)^i) / (1 - (3/2)^N).
        let (n, p) = (12u64, q(2, 5));
        let chain = ruin(n, p);
        let win = reach_probability(&chain, &set(13, &[12]), &Cancel::new()).unwrap();
        for i in 0..=12u32 {
            let power = |k: u32| (0..k).fold(q(1, 1), |acc, _| acc * q(3, 2));
            let expected = (Rational::from(1) - power(i)) / (Rational::from(1) - power(12));
            assert_eq!(win[i as usize], expected, "i = {i}");
        }
        // Fair: duration i (N - i) to either end, and its variance by the second method of
        // summing the distribution is checked in the integration tests.
        let fair = ruin(10, q(1, 2));
        let both = set(11, &[0, 10]);
        let m = steps_mean_and_variance(&fair, &both, &Cancel::new()).unwrap();
        for i in 0..=10i64 {
            assert_eq!(m[i as usize].as_ref().unwrap().0, q(i * (10 - i), 1));
        }
        // Variance of the fair walk's duration from i: i(N-i)(i^2 + (N-i)^2 - 2) / 3.
        for i in 0..=10i64 {
            let expected = q(i * (10 - i) * (i * i + (10 - i) * (10 - i) - 2), 3);
            assert_eq!(m[i as usize].as_ref().unwrap().1, expected, "i = {i}");
        }
    }

    #[test]
    fn a_target_missed_with_positive_probability_has_infinite_expectation() {
        let chain = ruin(4, q(1, 2));
        let win = set(5, &[4]);
        let e = expected_reward(&chain, &win, &vec![q(1, 1); 5], &Cancel::new()).unwrap();
        assert_eq!(e, vec![None, None, None, None, Some(q(0, 1))]);
        let r = reachability(&chain, &win);
        assert_eq!(r.possible, vec![false, true, true, true, true]);
        assert_eq!(r.sure, vec![false, false, false, false, true]);
    }

    #[test]
    fn ends_and_visits_of_the_fair_walk() {
        let chain = ruin(4, q(1, 2));
        let e = ends(&chain, &Cancel::new()).unwrap();
        assert_eq!(e.bottoms, vec![vec![0], vec![4]]);
        assert_eq!(e.probability, vec![q(3, 4), q(1, 4)]);
        // Fundamental matrix of the fair walk on 1..=3: N[1] = (3/2, 1, 1/2).
        let v = expected_visits(&chain, &e, 1, &Cancel::new()).unwrap();
        assert_eq!(v, vec![None, Some(q(3, 2)), Some(q(1, 1)), Some(q(1, 2)), None]);
    }

    #[test]
    fn a_steps_fraction_is_in_lowest_terms_by_the_primes_of_d_as_by_a_gcd() {
        // d = 36 (craps), d = 2 * 3 * a prime past 16 bits, d with a prime past 32 bits (the
        // gcd's way): every numerator up to d^k times the initial states, every k up to 4.
        for d in [36u64, 6 * 65_537, 2 * 4_294_967_311] {
            let d = Integer::from(d);
            let steps = Steps { primes: small_primes(&d), d, numerators: Vec::new() };
            for (k, times) in [(0u32, 1u32), (1, 3), (2, 4), (4, 6)] {
                let whole: Integer = Integer::from((&steps.d).pow(k)) * times;
                for n in (0..200u32).map(Integer::from).chain([whole.clone(), whole.clone() - 1u32]) {
                    let fraction = steps.fraction(n.clone(), times, k);
                    assert_eq!(fraction, Rational::from((n, whole.clone())));
                    assert_eq!(Integer::from(fraction.numer().gcd_ref(fraction.denom())), 1);
                }
            }
        }
        // Numerators with many factors of d's primes, up to past the denominator's own (2^81
        // and 3^81 in 6 * 36^40): each prime's factors removed at once, those past put back.
        let d = Integer::from(36);
        let steps = Steps { primes: small_primes(&d), d, numerators: Vec::new() };
        let whole = Integer::from((&steps.d).pow(40)) * 6u32;
        for (twos, threes) in [(0, 0), (1, 80), (80, 1), (81, 81), (90, 3), (2, 95), (0, 82)] {
            let n =
                Integer::from(Integer::u_pow_u(2, twos)) * Integer::from(Integer::u_pow_u(3, threes)) * 7u32;
            assert_eq!(
                steps.fraction(n.clone(), 6, 40),
                Rational::from((n, whole.clone())),
                "2^{twos} 3^{threes}"
            );
        }
        assert_eq!(small_primes(&Integer::from(360)), Some(vec![(2, 3), (3, 2), (5, 1)]));
        assert_eq!(small_primes(&Integer::from(4_294_967_291u32)), Some(vec![(4_294_967_291, 1)]));
        assert_eq!(small_primes(&(Integer::from(4_294_967_311u64) * 2)), None);
    }

    #[test]
    fn the_distribution_of_steps_adds_up_to_the_mean() {
        // Fair walk on 0..=2 from 1: T = 1 always.
        let chain = ruin(2, q(1, 2));
        let d = steps_distribution(&chain, &set(3, &[0, 2]), 3, &[1], None, &Cancel::new()).unwrap();
        let cumulative: Vec<Rational> = (0..=3).map(|k| d.cumulative(0, k)).collect();
        assert_eq!(cumulative, vec![q(0, 1), q(1, 1), q(1, 1), q(1, 1)]);
        // Fair walk on 0..=3 from 1: it ends at each step with probability 1/2, so P(T <= k)
        // = 1 - 2^-k, integers over 2^k.
        let chain = ruin(3, q(1, 2));
        let d = steps_distribution(&chain, &set(4, &[0, 3]), 5, &[1], None, &Cancel::new()).unwrap();
        assert_eq!(*d.d(), 2);
        let cumulative: Vec<Rational> = (0..=5).map(|k| d.cumulative(0, k)).collect();
        assert_eq!(cumulative, vec![q(0, 1), q(1, 2), q(3, 4), q(7, 8), q(15, 16), q(31, 32)]);
    }
}
