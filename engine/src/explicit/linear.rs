//! Exact solution of x = A x + b over a chosen set of unknown states, where A is (part of) a
//! chain's matrix: strongly connected components in topological order, sinks first, so each
//! component sees only values already known. A state alone is solved by one division; a
//! few states by rational elimination; larger components by the modular solver.

use super::graph::components;
use super::modular::{self, IntRows};
use crate::{Cancel, Report};
use rug::{Integer, Rational};
use thiserror::Error;

/// Components up to this size are solved by rational elimination (cheaper than a modular
/// factorization at that size).
pub const ELIMINATION_LIMIT: usize = 8;

/// Rows of (column, coefficient): one component's equations.
pub type SparseRows = Vec<Vec<(u32, Rational)>>;

/// A square sparse matrix of exact coefficients, in rows.
pub trait Rows: Sync {
    /// The number of rows (and columns).
    fn size(&self) -> usize;
    /// The nonzero entries of row `i`: (column, value).
    fn row(&self, i: u32) -> impl Iterator<Item = (u32, &Rational)>;
}

impl Rows for super::ExplicitChain {
    fn size(&self) -> usize {
        self.states()
    }
    fn row(&self, i: u32) -> impl Iterator<Item = (u32, &Rational)> {
        super::ExplicitChain::row(self, i)
    }
}

/// The transpose of a matrix, restricted to the rows and columns where `keep` holds.
pub struct Transposed {
    offsets: Vec<usize>,
    entries: Vec<(u32, Rational)>,
}

impl Transposed {
    pub fn new(rows: &impl Rows, keep: &[bool]) -> Transposed {
        let n = rows.size();
        let mut offsets = vec![0usize; n + 1];
        for i in (0..n as u32).filter(|&i| keep[i as usize]) {
            for (j, _) in rows.row(i).filter(|(j, _)| keep[*j as usize]) {
                offsets[j as usize + 1] += 1;
            }
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut entries = vec![(0u32, Rational::new()); offsets[n]];
        for i in (0..n as u32).filter(|&i| keep[i as usize]) {
            for (j, v) in rows.row(i).filter(|(j, _)| keep[*j as usize]) {
                entries[fill[j as usize]] = (i, v.clone());
                fill[j as usize] += 1;
            }
        }
        Transposed { offsets, entries }
    }
}

impl Rows for Transposed {
    fn size(&self) -> usize {
        self.offsets.len() - 1
    }
    fn row(&self, i: u32) -> impl Iterator<Item = (u32, &Rational)> {
        self.entries[self.offsets[i as usize]..self.offsets[i as usize + 1]].iter().map(|(j, v)| (*j, v))
    }
}

/// The most states a strongly connected component may have: the modular solver holds it as
/// a dense matrix of 8 bytes an entry while it factors it (25,000 states: 5 GB).
pub const MAX_COMPONENT_STATES: usize = 25_000;

/// Why a system was not solved.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// No unique solution: the caller's graph analysis should have excluded every state from
    /// which the unknowns cannot be left.
    #[error("the linear system over {states} states has no unique solution")]
    Singular { states: usize },
    /// A component too large for the dense factorization.
    #[error(
        "a strongly connected component of {states} states (every state reaching every other) is more than the \
         {limit} the exact solver factors (it would need {bytes} bytes)",
        limit = MAX_COMPONENT_STATES
    )]
    ComponentTooLarge { states: usize, bytes: u64 },
    /// A component's dense matrix of `bytes` bytes, refused by the allocator.
    #[error("not enough memory: {bytes} bytes needed")]
    OutOfMemory { states: usize, bytes: u64 },
    /// A distribution of `bound` steps projected at `step` to need `bytes`, past `budget`.
    #[error("the distribution of {bound} steps needs about {bytes} bytes, over the budget of {budget}")]
    PastBudget { bound: u32, step: u32, bytes: u64, budget: u64 },
    /// The caller's cancel token stopped the work.
    #[error("cancelled")]
    Cancelled,
}

/// Solves x_s = sum_t A\[s\]\[t\] x_t + b\[s\] for every state s where `unknown` holds (A's
/// entries to other states are ignored: fold their known values into b), for each column
/// of b. Returns x per state (empty for states not unknown). `b[s]` must have the same
/// number of columns for every unknown s.
pub fn solve(
    a: &impl Rows,
    unknown: &[bool],
    b: &[Vec<Rational>],
    cancel: &Cancel,
) -> Result<Vec<Vec<Rational>>, SolveError> {
    let n = a.size();
    let columns = (0..n).find(|&s| unknown[s]).map_or(0, |s| b[s].len());
    let mut x: Vec<Vec<Rational>> = vec![Vec::new(); n];
    let mut local = vec![u32::MAX; n];
    let comps = components(n, unknown, |v| a.row(v).map(|(t, _)| t));
    if let Some(big) = comps.iter().find(|c| c.len() > MAX_COMPONENT_STATES) {
        let bytes = (big.len() as u64).pow(2) * 8;
        return Err(SolveError::ComponentTooLarge { states: big.len(), bytes });
    }
    let (mut solved, of) = (0, unknown.iter().filter(|&&u| u).count() as u64);
    for comp in comps {
        if cancel.is_cancelled() {
            return Err(SolveError::Cancelled);
        }
        cancel.report(Report::Components { done: solved, of });
        solved += comp.len() as u64;
        for (k, &s) in comp.iter().enumerate() {
            local[s as usize] = k as u32;
        }
        let inside = |t: u32| local[t as usize] != u32::MAX;
        // Each row: the coefficients inside the component, and b plus the known outside values.
        let mut coefficients: SparseRows = Vec::with_capacity(comp.len());
        let mut rhs: Vec<Vec<Rational>> = Vec::with_capacity(comp.len());
        for &s in &comp {
            let mut row = Vec::new();
            let mut r = b[s as usize].clone();
            for (t, v) in a.row(s).filter(|(t, _)| unknown[*t as usize]) {
                if inside(t) {
                    row.push((local[t as usize], v.clone()));
                } else {
                    for (rc, xc) in r.iter_mut().zip(&x[t as usize]) {
                        *rc += Rational::from(v * xc);
                    }
                }
            }
            coefficients.push(row);
            rhs.push(r);
        }
        let values = if comp.len() <= ELIMINATION_LIMIT {
            eliminate(&coefficients, &rhs, columns)
        } else {
            solve_modular(&coefficients, &rhs, columns, cancel)?
        }
        .ok_or(SolveError::Singular { states: comp.len() })?;
        for (&s, v) in comp.iter().zip(values) {
            x[s as usize] = v;
            local[s as usize] = u32::MAX;
        }
    }
    cancel.clear_report();
    Ok(x)
}

/// Solves (I - C) x = r by Gauss-Jordan elimination in rationals (C: rows of (column,
/// coefficient)); `None` if singular.
pub fn eliminate(
    c: &[Vec<(u32, Rational)>],
    r: &[Vec<Rational>],
    columns: usize,
) -> Option<Vec<Vec<Rational>>> {
    let m = c.len();
    let width = m + columns;
    let mut rows: Vec<Vec<Rational>> = (0..m)
        .map(|i| {
            let mut row = vec![Rational::new(); width];
            row[i] = Rational::from(1);
            for (j, v) in &c[i] {
                row[*j as usize] -= v;
            }
            for (k, v) in r[i].iter().enumerate() {
                row[m + k] = v.clone();
            }
            row
        })
        .collect();
    for col in 0..m {
        let pivot = (col..m).find(|&i| rows[i][col] != 0)?;
        rows.swap(col, pivot);
        let inv = Rational::from(rows[col][col].recip_ref());
        for v in &mut rows[col][col..] {
            *v *= &inv;
        }
        let pivot_row = rows[col].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            if i == col || row[col] == 0 {
                continue;
            }
            let f = row[col].clone();
            for (v, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *v -= Rational::from(&f * p);
            }
        }
    }
    Some(rows.into_iter().map(|row| row[m..].to_vec()).collect())
}

/// Solves (I - C) x = r by clearing denominators row by row and handing the integer system
/// to the modular solver, one column of r at a time (one factorization for all).
fn solve_modular(
    c: &[Vec<(u32, Rational)>],
    r: &[Vec<Rational>],
    columns: usize,
    cancel: &Cancel,
) -> Result<Option<Vec<Vec<Rational>>>, SolveError> {
    let m = c.len();
    let mut a: IntRows = Vec::with_capacity(m);
    let mut scaled_rhs: Vec<Vec<Rational>> = Vec::with_capacity(m);
    for (i, row) in c.iter().enumerate() {
        let d = row.iter().fold(Integer::from(1), |acc, (_, v)| acc.lcm(v.denom()));
        let mut ints: Vec<(u32, Integer)> = Vec::with_capacity(row.len() + 1);
        let mut diagonal = d.clone();
        for (j, v) in row {
            let scaled: Integer = v.numer() * Integer::from(&d / v.denom());
            if *j as usize == i {
                diagonal -= scaled;
            } else {
                ints.push((*j, -scaled));
            }
        }
        if diagonal != 0 {
            ints.push((i as u32, diagonal));
        }
        ints.sort_by_key(|e| e.0);
        a.push(ints);
        scaled_rhs.push(r[i].iter().map(|v| Rational::from(v * &d)).collect());
    }
    let mut out = vec![Vec::with_capacity(columns); m];
    let mut integer_columns = Vec::with_capacity(columns);
    let mut denominators = Vec::with_capacity(columns);
    for k in 0..columns {
        let den = scaled_rhs.iter().fold(Integer::from(1), |acc, row| acc.lcm(row[k].denom()));
        integer_columns.push(
            scaled_rhs.iter().map(|row| row[k].numer() * Integer::from(&den / row[k].denom())).collect(),
        );
        denominators.push(den);
    }
    let solutions = match modular::solve(&a, &integer_columns, cancel) {
        Ok(s) => s,
        Err(modular::SolveFailure::Cancelled) => return Err(SolveError::Cancelled),
        Err(modular::SolveFailure::Singular) => return Ok(None),
        Err(modular::SolveFailure::OutOfMemory { bytes }) => {
            return Err(SolveError::OutOfMemory { states: m, bytes });
        }
    };
    for (y, den) in solutions.into_iter().zip(&denominators) {
        for (i, v) in y.into_iter().enumerate() {
            out[i].push(v / den.clone());
        }
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    /// A random dense sub-stochastic system with a random right-hand side.
    fn random_system(m: usize, seed: u64) -> (SparseRows, Vec<Vec<Rational>>) {
        let mut s = seed;
        let mut next = |k: u64| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) % k
        };
        let c = (0..m)
            .map(|_| {
                let weights: Vec<u64> = (0..m).map(|_| next(4)).collect();
                let total: u64 = weights.iter().sum::<u64>() + 1 + next(3);
                weights
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| **w > 0)
                    .map(|(j, w)| (j as u32, q(*w as i64, total as i64)))
                    .collect()
            })
            .collect();
        let r = (0..m).map(|_| vec![q(next(7) as i64, 1 + next(5) as i64), q(1, 1)]).collect();
        (c, r)
    }

    #[test]
    fn modular_and_rational_elimination_agree() {
        for (m, seed) in [(3, 1), (9, 2), (20, 3), (40, 4)] {
            let (c, r) = random_system(m, seed);
            assert_eq!(solve_modular(&c, &r, 2, &Cancel::new()).unwrap(), eliminate(&c, &r, 2), "m = {m}");
        }
    }

    #[test]
    fn solves_a_cycle_and_a_tail_in_topological_order() {
        // A fair coin walk on 0..=4 absorbed at 0 and 4, plus state 5 leading into it.
        // Unknowns 1, 2, 3, 5; b = the probability of stepping straight onto 4.
        struct M(Vec<Vec<(u32, Rational)>>);
        impl Rows for M {
            fn size(&self) -> usize {
                self.0.len()
            }
            fn row(&self, i: u32) -> impl Iterator<Item = (u32, &Rational)> {
                self.0[i as usize].iter().map(|(j, v)| (*j, v))
            }
        }
        let half = || q(1, 2);
        let a = M(vec![
            vec![],
            vec![(0, half()), (2, half())],
            vec![(1, half()), (3, half())],
            vec![(2, half()), (4, half())],
            vec![],
            vec![(2, q(1, 1))],
        ]);
        let unknown = [false, true, true, true, false, true];
        let b: Vec<Vec<Rational>> = [0, 0, 0, 1, 0, 0].iter().map(|&v| vec![q(v, 2)]).collect();
        let x = solve(&a, &unknown, &b, &Cancel::new()).unwrap();
        assert_eq!([&x[1][0], &x[2][0], &x[3][0], &x[5][0]], [&q(1, 4), &q(1, 2), &q(3, 4), &q(1, 2)]);
    }
}
