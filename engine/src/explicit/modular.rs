//! Exact solving of an integer linear system A y = b by Dixon's p-adic lifting: A is
//! factored once modulo a prime p, then each step solves for the next base-p digit of y and
//! divides the residual by p exactly. Once enough digits are known, rational reconstruction
//! turns y mod p^k into fractions, which are accepted only if they satisfy A y = b exactly,
//! so the answer never rests on a guess.
//!
//! The factorization does the O(n^3) work in f64 with primes below 2^20: a product of two
//! residues is below 2^40, so a row can take 2^12 updates before its exactly-held integers
//! could pass 2^52, and reductions are needed only when an entry is used.

use crate::{Cancel, Report};
use rayon::prelude::*;
use rug::{Integer, Rational};

/// Primes below 2^20 (the first ones tried; more are found if the matrix is singular modulo
/// all of these).
const PRIME_BOUND: u64 = 1 << 20;

/// Updates a row may take before it must be reduced: 2^52 / 2^40, so entries stay below
/// 2^52, where `reduce` is exact.
const UPDATES_BEFORE_REDUCING: usize = 1 << 12;

/// The primes below 2^20, largest first, found by trial division.
pub fn primes() -> impl Iterator<Item = u64> {
    (3..PRIME_BOUND)
        .rev()
        .step_by(2)
        .filter(|&n| (3..).step_by(2).take_while(|d| d * d <= n).all(|d| n % d != 0))
}

fn pow_mod(mut base: u64, mut exp: u64, p: u64) -> u64 {
    let mut acc = 1u64;
    base %= p;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * base % p;
        }
        base = base * base % p;
        exp >>= 1;
    }
    acc
}

fn inverse(a: u64, p: u64) -> u64 {
    pow_mod(a, p - 2, p)
}

/// A = L U modulo p with the columns permuted (A[:, perm] = L U): L unit lower triangular
/// and U upper triangular, both in `lu` (row-major), entries in 0..p. Residues below 2^20
/// are exact in f32, which halves the memory every lifting step reads.
pub struct Lu {
    n: usize,
    p: u64,
    lu: Vec<f32>,
    /// Column `j` of L U is column `perm[j]` of A.
    perm: Vec<usize>,
    inv_diag: Vec<u64>,
}

/// Reduces an exactly held integer in f64 (below 2^52 in size) to 0..p: the quotient by a
/// multiplication may be one off, which the two corrections mend (`rem_euclid` calls libm's
/// slow `fmod`).
#[inline]
fn reduce(x: f64, p: f64) -> f64 {
    let mut r = x - (x * (1.0 / p)).floor() * p;
    if r < 0.0 {
        r += p;
    }
    if r >= p {
        r -= p;
    }
    r
}

/// `row -= l * pivot` (no reduction).
#[inline]
fn axpy(row: &mut [f64], l: f64, pivot: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has the features the function is compiled for.
            unsafe { axpy_avx2(row, l, pivot) };
            return;
        }
    }
    axpy_plain(row, l, pivot)
}

#[inline]
fn axpy_plain(row: &mut [f64], l: f64, pivot: &[f64]) {
    for (r, u) in row.iter_mut().zip(pivot) {
        *r -= l * u;
    }
}

/// The same loop, compiled for AVX2 (the products are exact integers below 2^53, so fusing
/// changes nothing).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn axpy_avx2(row: &mut [f64], l: f64, pivot: &[f64]) {
    for (r, u) in row.iter_mut().zip(pivot) {
        *r = (-l).mul_add(*u, *r);
    }
}

/// Rows factored together: each pivot row is read once for the whole block.
const BLOCK: usize = 16;

impl Lu {
    /// Factors the n x n matrix `a` (row-major, entries in 0..p) modulo the prime `p`:
    /// `Ok(None)` if it is singular modulo p.
    pub fn new(n: usize, mut a: Vec<f64>, p: u64, cancel: &Cancel) -> Result<Option<Lu>, SolveFailure> {
        assert!(p < PRIME_BOUND && a.len() == n * n);
        let pf = p as f64;
        let mut perm: Vec<usize> = (0..n).collect();
        let mut inv_diag = vec![0u64; n];
        let mut start = 0;
        while start < n {
            if cancel.is_cancelled() {
                return Err(SolveFailure::Cancelled);
            }
            cancel.report(Report::Factoring { states: n as u64, rows: start as u64 });
            let end = (start + BLOCK).min(n);
            let (done, rest) = a.split_at_mut(start * n);
            let block = &mut rest[..(end - start) * n];
            // Every row of the block takes the updates of the pivot rows already finished.
            let inv = &inv_diag[..start];
            block.par_chunks_mut(n * BLOCK.div_ceil(2)).for_each(|rows| {
                eliminate_rows(rows, n, done, inv, 0..start, pf);
            });
            // Then the block's own rows, one after another.
            for i in start..end {
                let (above, this) = a.split_at_mut(i * n);
                let row = &mut this[..n];
                eliminate_rows(row, n, &above[start * n..], &inv_diag[start..i], start..i, pf);
                for x in &mut row[i..] {
                    *x = reduce(*x, pf);
                }
                let Some(pivot_col) = (i..n).find(|&c| row[c] != 0.0) else {
                    return Ok(None);
                };
                if pivot_col != i {
                    for r in a.chunks_exact_mut(n) {
                        r.swap(i, pivot_col);
                    }
                    perm.swap(i, pivot_col);
                }
                inv_diag[i] = inverse(a[i * n + i] as u64, p);
            }
            start = end;
        }
        let lu = filled(a.len(), cancel, |i| a[i] as f32)?;
        Ok(Some(Lu { n, p, lu, perm, inv_diag }))
    }

    pub fn prime(&self) -> u64 {
        self.p
    }

    /// The solution of A x = b modulo p (b's entries in 0..p).
    pub fn solve(&self, b: &[u64]) -> Vec<u64> {
        self.solve_many(&[b.to_vec()]).pop().expect("one column")
    }

    /// The solutions of A x = b for several right-hand sides at once: each row of L and U
    /// is read once for all of them. Rows go a block at a time: the products of a block's
    /// rows with the part of the solution already known (nearly all of the work, and all of
    /// the memory read) are made in parallel, the block's own triangle after them in order.
    pub fn solve_many(&self, columns: &[Vec<u64>]) -> Vec<Vec<u64>> {
        let (n, p) = (self.n, self.p);
        let mut y: Vec<Vec<f64>> = columns.iter().map(|b| b.iter().map(|&v| v as f64).collect()).collect();
        // L y = b, L unit lower triangular.
        for start in (0..n).step_by(SOLVE_BLOCK) {
            let end = (start + SOLVE_BLOCK).min(n);
            let known = self.products(start..end, 0..start, &y);
            for i in start..end {
                let row = &self.lu[i * n + start..i * n + i];
                for (yc, known) in y.iter_mut().zip(&known[i - start]) {
                    let acc = (known + dot_mod(row, &yc[start..i], p)) % p;
                    yc[i] = ((yc[i] as u64 + p - acc) % p) as f64;
                }
            }
        }
        // U z = y, from the last row up.
        let mut z = vec![vec![0f64; n]; columns.len()];
        for start in (0..n).step_by(SOLVE_BLOCK).rev() {
            let end = (start + SOLVE_BLOCK).min(n);
            let known = self.products(start..end, end..n, &z);
            for i in (start..end).rev() {
                let row = &self.lu[i * n + i + 1..i * n + end];
                for ((zc, yc), known) in z.iter_mut().zip(&y).zip(&known[i - start]) {
                    let acc = (known + dot_mod(row, &zc[i + 1..end], p)) % p;
                    zc[i] = ((yc[i] as u64 + p - acc) % p * self.inv_diag[i] % p) as f64;
                }
            }
        }
        z.iter()
            .map(|zc| {
                let mut x = vec![0u64; n];
                for (j, &col) in self.perm.iter().enumerate() {
                    x[col] = zc[j] as u64;
                }
                x
            })
            .collect()
    }

    /// For each row i of `rows` (from its first) and each column c of `x`: the sum over j in
    /// `known` of (L U)\[i\]\[j\] x_c\[j\], modulo p; the rows in parallel.
    fn products(
        &self,
        rows: std::ops::Range<usize>,
        known: std::ops::Range<usize>,
        x: &[Vec<f64>],
    ) -> Vec<Vec<u64>> {
        let (n, p) = (self.n, self.p);
        rows.into_par_iter()
            .with_min_len(8)
            .map(|i| {
                let row = &self.lu[i * n + known.start..i * n + known.end];
                x.iter().map(|xc| dot_mod(row, &xc[known.clone()], p)).collect()
            })
            .collect()
    }
}

/// Rows of a triangular solve taken together (see [`Lu::solve_many`]).
const SOLVE_BLOCK: usize = 128;

/// The dot product of two vectors of residues, modulo p: exact in f64 over runs of
/// `UPDATES_BEFORE_REDUCING` terms (each below 2^40), reduced between runs.
fn dot_mod(a: &[f32], b: &[f64], p: u64) -> u64 {
    let mut acc = 0u64;
    for (ca, cb) in a.chunks(UPDATES_BEFORE_REDUCING).zip(b.chunks(UPDATES_BEFORE_REDUCING)) {
        acc = (acc + dot(ca, cb) as u64 % p) % p;
    }
    acc
}

#[inline]
fn dot(a: &[f32], b: &[f64]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has the features the function is compiled for.
            return unsafe { dot_avx2(a, b) };
        }
    }
    dot_plain(a, b)
}

/// Eight independent sums, so the loop vectorizes (the terms are exact integers, so the
/// order of addition changes nothing).
#[inline]
fn dot_plain(a: &[f32], b: &[f64]) -> f64 {
    let mut acc = [0f64; 8];
    let (head_a, tail_a) = a.split_at(a.len() / 8 * 8);
    let (head_b, tail_b) = b.split_at(head_a.len());
    for (ca, cb) in head_a.chunks_exact(8).zip(head_b.chunks_exact(8)) {
        for j in 0..8 {
            acc[j] += ca[j] as f64 * cb[j];
        }
    }
    let tail: f64 = tail_a.iter().zip(tail_b).map(|(x, y)| *x as f64 * y).sum();
    acc.iter().sum::<f64>() + tail
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn dot_avx2(a: &[f32], b: &[f64]) -> f64 {
    dot_plain(a, b)
}

/// Applies the pivot rows `pivots` (rows k of `done`, offset so that row k of the matrix is
/// `done[(k - first) * n..]`) to every row in `rows`: the multipliers of L are stored in
/// place, the rest is updated without reduction but before 2^52 could be passed.
fn eliminate_rows(
    rows: &mut [f64],
    n: usize,
    done: &[f64],
    inv: &[u64],
    pivots: std::ops::Range<usize>,
    pf: f64,
) {
    let first = pivots.start;
    let p = pf as u64;
    let mut since_reduced = 0;
    for k in pivots {
        let pivot = &done[(k - first) * n..(k - first + 1) * n];
        for row in rows.chunks_exact_mut(n) {
            let x = reduce(row[k], pf) as u64;
            let l = x * inv[k - first] % p;
            row[k] = l as f64;
            if l != 0 {
                axpy(&mut row[k + 1..], l as f64, &pivot[k + 1..]);
            }
        }
        since_reduced += 1;
        if since_reduced == UPDATES_BEFORE_REDUCING {
            since_reduced = 0;
            for row in rows.chunks_exact_mut(n) {
                for x in &mut row[k + 1..] {
                    *x = reduce(*x, pf);
                }
            }
        }
    }
}

/// A sparse integer matrix in rows: (column, value).
pub type IntRows = Vec<Vec<(u32, Integer)>>;

/// Why a system could not be solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveFailure {
    /// The matrix is singular (modulo every prime tried, and past the Hadamard bound).
    Singular,
    /// The caller's cancel token stopped the work.
    Cancelled,
    /// The dense matrix of `bytes` bytes could not be had from the allocator (an address-space
    /// limit, say): refused, where failing to allocate would abort the process.
    OutOfMemory { bytes: u64 },
}

/// The exact solutions of A y = b for each right-hand side `b` of `columns`: A is n x n,
/// nonsingular, integer; the answers are fractions.
pub fn solve(
    a: &IntRows,
    columns: &[Vec<Integer>],
    cancel: &Cancel,
) -> Result<Vec<Vec<Rational>>, SolveFailure> {
    let n = a.len();
    // A prime that divides det A leaves A singular modulo it. Primes are tried until one
    // does not, or until their product passes the Hadamard bound on |det A|, which proves
    // det A = 0: twenty primes and no more called a system whose determinant they all
    // divide singular.
    let det_bits = determinant_bits(a);
    let mut tried_bits = 0;
    let mut lu = None;
    for p in primes() {
        if tried_bits > det_bits {
            break;
        }
        tried_bits += u64::from(p.ilog2());
        let mut dense = filled(n * n, cancel, |_| 0f64)?;
        for (i, row) in a.iter().enumerate() {
            for (j, v) in row {
                dense[i * n + *j as usize] = v.mod_u(p as u32) as f64;
            }
        }
        if let Some(f) = Lu::new(n, dense, p, cancel)? {
            lu = Some(f);
            break;
        }
    }
    let lu = lu.ok_or(SolveFailure::Singular)?;
    let lifts = lift(a, columns, &lu, det_bits, cancel)?;
    Ok(lifts.into_iter().map(|l| l.answer.expect("every column answered")).collect())
}

/// Lifts the solution of A y = b for each `b` of `columns` from `lu`, A factored modulo a
/// prime, until each has its answer.
fn lift(
    a: &IntRows,
    columns: &[Vec<Integer>],
    lu: &Lu,
    det_bits: u64,
    cancel: &Cancel,
) -> Result<Vec<Lift>, SolveFailure> {
    let n = a.len();
    let mut lifts: Vec<Lift> = columns.iter().map(|b| Lift::new(b, det_bits, n)).collect();
    // Every column takes a digit per step, all from one pass over L and U, until each has
    // its answer.
    while lifts.iter().any(|l| l.answer.is_none()) {
        if cancel.is_cancelled() {
            return Err(SolveFailure::Cancelled);
        }
        let active: Vec<usize> = (0..lifts.len()).filter(|&c| lifts[c].answer.is_none()).collect();
        let first = &lifts[active[0]];
        cancel.report(Report::Lifting { states: n as u64, bits: first.bits(), bound: first.final_bits });
        let residues: Vec<Vec<u64>> = active.iter().map(|&c| lifts[c].residues(lu.prime())).collect();
        let digits = lu.solve_many(&residues);
        for (&c, digit) in active.iter().zip(digits) {
            lifts[c].step(a, lu.prime(), &digit, &columns[c], det_bits)?;
        }
    }
    Ok(lifts)
}

/// `len` values, `value(i)` the i-th, made a slice at a time with `cancel` heard between
/// slices: the first touch of a dense matrix's pages takes about a second a gigabyte, too
/// long to be deaf to Ctrl-C. Memory the allocator refuses is an error, not an abort.
fn filled<T>(len: usize, cancel: &Cancel, mut value: impl FnMut(usize) -> T) -> Result<Vec<T>, SolveFailure> {
    const SLICE: usize = 1 << 22;
    let mut values = Vec::new();
    let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    values.try_reserve_exact(len).map_err(|_| SolveFailure::OutOfMemory { bytes })?;
    while values.len() < len {
        if cancel.is_cancelled() {
            return Err(SolveFailure::Cancelled);
        }
        let end = (values.len() + SLICE).min(len);
        values.extend((values.len()..end).map(&mut value));
    }
    Ok(values)
}

/// An upper bound, in bits, on |det A| (Hadamard's inequality): by Cramer's rule it bounds
/// the common denominator of the solution, and with |b| its numerators.
fn determinant_bits(a: &IntRows) -> u64 {
    let row_bits = |row: &[(u32, Integer)]| -> u64 {
        let norm2: Integer = row.iter().map(|(_, v)| Integer::from(v * v)).sum();
        norm2.significant_bits() as u64 / 2 + 1
    };
    a.iter().map(|r| row_bits(r)).sum()
}

/// Dixon's lifting of one right-hand side: a base-p digit of y per step until the
/// reconstructed fractions satisfy the system (with numerator and denominator bounds
/// balanced), or until the modulus passes the bound at which reconstruction with the
/// Hadamard bounds must succeed. A whole reconstruction costs a pass over every entry, so it
/// is tried only once a fixed combination of the entries, reconstructed every step for the
/// price of one entry, gives the same fraction two steps running (a fraction that fits the
/// modulus stays; one that does not changes with it): within a step or two of enough digits,
/// where trying at growing intervals overshot by up to a half.
struct Lift {
    residual: Vec<Integer>,
    /// The solution's digits so far, y = y_done + modulus * block: the digits of the latest
    /// steps are gathered in `block` (a short number) and added to the long `y_done` a block
    /// at a time, not a step at a time.
    y_done: Vec<Integer>,
    modulus: Integer,
    block: Vec<Integer>,
    block_modulus: Integer,
    /// The modulus of the digits so far (`modulus * block_modulus`).
    whole_modulus: Integer,
    /// The combination sum over i of `weight(i) y_i`, of the whole digits so far.
    watch: Integer,
    /// The fraction it was last reconstructed to, while it still holds (n = d · watch modulo
    /// the digits' modulus).
    watched: Option<Watched>,
    /// The work of the lifting steps since the watch was last reconstructed (see
    /// [`Lift::watch_due`]).
    lifted_since_watch: u64,
    /// How many times the watch was reconstructed (a Euclid over the whole modulus each).
    watches: u64,
    /// The step by which a whole reconstruction is tried whatever the watch says (at steps
    /// growing by half, as before the watch: an answer the watch misses is found as soon).
    next_growing_try: u64,
    steps: u64,
    /// The first step at which a whole reconstruction may be tried (after one that failed,
    /// an eighth more steps must pass).
    next_try: u64,
    final_bits: u64,
    answer: Option<Vec<Rational>>,
}

/// The fraction n / d the watch was reconstructed to, held as d and q = (d · watch - n) /
/// modulus, so that whether it holds for a further digit is a short sum and a remainder by p,
/// not a product as long as the modulus.
struct Watched {
    d: Integer,
    q: Integer,
}

impl Watched {
    fn new((n, d): (Integer, Integer), watch: &Integer, modulus: &Integer) -> Watched {
        let q = (Integer::from(&d * watch) - n).div_exact(modulus);
        Watched { d, q }
    }

    /// Whether the fraction holds after the watch gains `weighted` times the modulus and the
    /// modulus is multiplied by `p`: d · watch - n becomes modulus · (q + d · weighted), which
    /// the new modulus divides when p divides q + d · weighted.
    fn holds_for(&mut self, weighted: u128, p: u64) -> bool {
        self.q += &self.d * Integer::from(weighted);
        let holds = self.q.mod_u(p as u32) == 0;
        if holds {
            self.q.div_exact_u_mut(p as u32);
        }
        holds
    }
}

/// The weight of entry `i` in the watched combination: fixed, odd, varied (equal weights
/// could let the terms of entries of opposite signs cancel) and below 2^8, so that the
/// combination needs at most 8 + log2(n) bits more than the largest entry.
fn weight(i: usize) -> u64 {
    ((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) | 1
}

/// Steps at whose end a whole reconstruction is tried anyway: their digits are short, so a
/// try costs little, and an answer this short is found without waiting for the watch.
const FIRST_STEPS_TRIED: u64 = 3;

/// Entries a parallel task of a lifting step takes at least (each costs well under a
/// microsecond).
const ROWS_A_TASK: usize = 1024;

/// The digits of a block of steps are added to the solution once they span this many bits.
const BLOCK_BITS: u32 = 4096;

impl Lift {
    fn new(b: &[Integer], det_bits: u64, n: usize) -> Lift {
        let b_bits = b.iter().map(|v| v.significant_bits() as u64).max().unwrap_or(0);
        // |numerator| <= n * |b| * det-bound of a minor, denominator <= det-bound.
        let num_bits = det_bits + b_bits + (n as u64).ilog2() as u64 + 1;
        Lift {
            residual: b.to_vec(),
            y_done: vec![Integer::new(); n],
            modulus: Integer::from(1),
            block: vec![Integer::new(); n],
            block_modulus: Integer::from(1),
            whole_modulus: Integer::from(1),
            watch: Integer::new(),
            watched: None,
            lifted_since_watch: 0,
            watches: 0,
            next_growing_try: 1,
            steps: 0,
            next_try: 1,
            final_bits: num_bits + det_bits + 2,
            answer: None,
        }
    }

    /// The bits of the modulus so far.
    fn bits(&self) -> u64 {
        u64::from(self.whole_modulus.significant_bits())
    }

    /// Whether the watch is to be reconstructed at this step: once the lifting steps since the
    /// last reconstruction have done as much work as one (counted in limb operations: a step
    /// multiplies each entry of A by its digit into a residual and solves modulo p, about
    /// n² more; a Euclid over L limbs takes about 2 L² by Lehmer's batches), so that watching
    /// costs at most as much as lifting. Where a step costs more than a Euclid (large
    /// components) that is every step; where the answers are long and the component small,
    /// seldom: there the whole reconstructions tried at growing intervals find the answer.
    fn watch_due(&mut self, a: &IntRows) -> bool {
        let residual_limbs = self.residual.iter().map(|r| u64::from(r.significant_bits()) / 64 + 1).max();
        let entries: u64 = a.iter().map(|row| row.len() as u64).sum();
        let n = a.len() as u64;
        self.lifted_since_watch += entries * residual_limbs.unwrap_or(1) + n * n;
        let limbs = self.bits() / 64 + 1;
        let due = self.lifted_since_watch >= 2 * limbs * limbs;
        if due {
            self.lifted_since_watch = 0;
        }
        due
    }

    fn residues(&self, p: u64) -> Vec<u64> {
        self.residual.par_iter().with_min_len(ROWS_A_TASK).map(|v| v.mod_u(p as u32) as u64).collect()
    }

    /// The digits so far, whole (the block added in), and their modulus.
    fn solution(&mut self) -> (&[Integer], &Integer) {
        let modulus = &self.modulus;
        self.y_done.par_iter_mut().zip(&mut self.block).with_min_len(ROWS_A_TASK).for_each(|(y, digits)| {
            *y += modulus * &*digits;
            *digits = Integer::new();
        });
        self.modulus *= &self.block_modulus;
        self.block_modulus = Integer::from(1);
        (&self.y_done, &self.modulus)
    }

    fn step(
        &mut self,
        a: &IntRows,
        p: u64,
        digit: &[u64],
        b: &[Integer],
        det_bits: u64,
    ) -> Result<(), SolveFailure> {
        // Every entry's share of a step is independent of the others': the rows in parallel.
        let block_modulus = &self.block_modulus;
        self.block.par_iter_mut().zip(digit).with_min_len(ROWS_A_TASK).for_each(|(digits, &d)| {
            *digits += block_modulus * d;
        });
        let weighted: u128 = digit.iter().enumerate().map(|(i, &d)| u128::from(weight(i) * d)).sum();
        // The watch's fraction settles when it holds for a further digit.
        let settled = self.watched.as_mut().is_some_and(|w| w.holds_for(weighted, p));
        self.watch += &self.whole_modulus * Integer::from(weighted);
        self.whole_modulus *= p;
        self.block_modulus *= p;
        if self.block_modulus.significant_bits() > BLOCK_BITS {
            self.solution();
        }
        self.residual.par_iter_mut().zip(a).with_min_len(ROWS_A_TASK).for_each(|(residual, row)| {
            let mut acc = Integer::new();
            for (j, v) in row {
                acc += v * digit[*j as usize];
            }
            *residual -= acc;
            residual.div_exact_u_mut(p as u32);
        });
        self.steps += 1;
        if self.residual.iter().all(|r| *r == 0) {
            // The digits so far are the solution itself, an integer vector.
            let (y, _) = self.solution();
            self.answer = Some(y.iter().map(|v| Rational::from(v.clone())).collect());
            return Ok(());
        }
        if self.bits() > self.final_bits {
            let (y, modulus) = self.solution();
            let den_bound = Integer::from(1) << (det_bits as u32);
            let num_bound = Integer::from(modulus / &den_bound) >> 1u32;
            let x = reconstruct(y, modulus, &num_bound, &den_bound).filter(|x| satisfies(a, b, x));
            self.answer = Some(x.ok_or(SolveFailure::Singular)?);
            return Ok(());
        }
        // The bound of a balanced reconstruction, sqrt(m / 2): a square root as long as the
        // modulus, found only where a reconstruction is made (every step, it was a tenth of
        // the time on long answers).
        let half = |m: &Integer| Integer::from(m >> 1u32).sqrt();
        // A new fraction is sought only where the last no longer holds, and not every step:
        // a reconstruction is a Euclid over the whole modulus (made every step, it took 26 s
        // of a 26 s run on a component of 9 states with 50,000-bit answers, `game
        // gamblers-ruin --stake 4 --p 1e-1000`, where the lifting itself took 0.2 s).
        if !settled {
            self.watched = None;
            if self.watch_due(a) {
                self.watches += 1;
                let half = half(&self.whole_modulus);
                self.watched = rational_reconstruction(&self.watch, &self.whole_modulus, &half, &half)
                    .map(|fraction| Watched::new(fraction, &self.watch, &self.whole_modulus));
            }
        }
        let watched = (settled && self.steps >= self.next_try) || self.steps <= FIRST_STEPS_TRIED;
        let growing = self.steps >= self.next_growing_try;
        if watched || growing {
            // Each schedule moves on by its own tries alone: a growing try made too early
            // must not hold back the watch's.
            if watched {
                self.next_try = self.steps + self.steps.div_ceil(8);
            }
            if growing {
                self.next_growing_try = self.steps + self.steps.div_ceil(2);
            }
            let (y, modulus) = self.solution();
            let half = half(modulus);
            self.answer = reconstruct(y, modulus, &half, &half).filter(|x| satisfies(a, b, x));
        }
        Ok(())
    }
}

/// Fractions n/d with |n| <= num_bound and 0 < d <= den_bound congruent to `y` modulo `m`,
/// sharing the denominator found so far (a solution's entries usually share most of it).
fn reconstruct(
    y: &[Integer],
    m: &Integer,
    num_bound: &Integer,
    den_bound: &Integer,
) -> Option<Vec<Rational>> {
    let mut common = Integer::from(1);
    let mut out = Vec::with_capacity(y.len());
    for v in y {
        // Try the known denominator first: d * v mod m balanced small means n / d.
        let scaled = Integer::from(v * &common).modulo(m);
        let balanced = if Integer::from(&scaled << 1u32) > *m { scaled.clone() - m } else { scaled.clone() };
        if balanced.clone().abs() <= *num_bound {
            out.push(Rational::from((balanced, common.clone())));
            continue;
        }
        let (num, den) = rational_reconstruction(&scaled, m, num_bound, den_bound)?;
        let den_total = Integer::from(&den * &common);
        if den_total > *den_bound {
            return None;
        }
        out.push(Rational::from((num, den_total.clone())));
        common = den_total;
    }
    Some(out)
}

/// The fraction n/d with |n| <= num_bound, 0 < d <= den_bound and n = d * v (mod m), by
/// the extended Euclidean algorithm stopped once the remainder is small enough.
fn rational_reconstruction(
    v: &Integer,
    m: &Integer,
    num_bound: &Integer,
    den_bound: &Integer,
) -> Option<(Integer, Integer)> {
    // r_i = t_i * v (mod m) throughout.
    let (mut r0, mut r1) = (m.clone(), v.clone().modulo(m));
    let (mut t0, mut t1) = (Integer::new(), Integer::from(1));
    let bound_bits = num_bound.significant_bits();
    while r1 > *num_bound {
        // Far above the bound, many steps at once from the remainders' leading bits (a plain
        // step a quotient costs a pass over numbers as long as m: quadratic in all). A batch
        // that would pass the bound is not taken: the first remainder below it is the answer.
        if r1.significant_bits() > bound_bits + 128
            && let Some([a, b, c, d]) = lehmer_steps(&r0, &r1)
        {
            let next = |x: &Integer, y: &Integer, p: i64, q: i64| Integer::from(x * p) + Integer::from(y * q);
            let r2 = next(&r0, &r1, c, d);
            if r2 > *num_bound {
                (r0, r1) = (next(&r0, &r1, a, b), r2);
                (t0, t1) = (next(&t0, &t1, a, b), next(&t0, &t1, c, d));
                continue;
            }
        }
        let (q, r2) = r0.div_rem_floor_ref(&r1).into();
        let t2 = t0 - Integer::from(&q * &t1);
        (r0, r1, t0, t1) = (r1, r2, t1, t2);
    }
    fraction(r1, t1, den_bound)
}

/// The fraction r / t with a positive denominator, where the Euclid stopped at remainder r and
/// cofactor t; `None` if t is 0 or larger than `den_bound`.
fn fraction(r: Integer, t: Integer, den_bound: &Integer) -> Option<(Integer, Integer)> {
    if t == 0 || t.cmp_abs(den_bound) == std::cmp::Ordering::Greater {
        return None;
    }
    Some(if t < 0 { (-r, -t) } else { (r, t) })
}

/// Several steps of the Euclidean algorithm on `r0 > r1 > 0` found from their leading 62
/// bits alone (Lehmer; Knuth's Algorithm L): `[a, b, c, d]` such that the remainders those
/// steps reach are `a r0 + b r1` and `c r0 + d r1`; `None` where not one step is certain.
fn lehmer_steps(r0: &Integer, r1: &Integer) -> Option<[i64; 4]> {
    let shift = r0.significant_bits().saturating_sub(62);
    let lead = |r: &Integer| i128::from(Integer::from(r >> shift).to_u64().expect("62 bits"));
    let (mut x, mut y) = (lead(r0), lead(r1));
    let (mut a, mut b, mut c, mut d) = (1i128, 0i128, 0i128, 1i128);
    // A quotient is certain where both ends of the leading bits' error give it.
    while y + c != 0 && y + d != 0 {
        let q = (x + a) / (y + c);
        if q != (x + b) / (y + d) {
            break;
        }
        (a, c) = (c, a - q * c);
        (b, d) = (d, b - q * d);
        (x, y) = (y, x - q * y);
    }
    // Cofactors stay below 2^62 in size.
    (b != 0).then(|| [a, b, c, d].map(|k| k as i64))
}

/// Whether A x = b exactly.
fn satisfies(a: &IntRows, b: &[Integer], x: &[Rational]) -> bool {
    let den = x.iter().fold(Integer::from(1), |acc, v| acc.lcm(v.denom()));
    let scaled: Vec<Integer> = x.iter().map(|v| v.numer() * Integer::from(&den / v.denom())).collect();
    a.iter().zip(b).all(|(row, bi)| {
        let lhs: Integer = row.iter().map(|(j, v)| Integer::from(v * &scaled[*j as usize])).sum();
        lhs == Integer::from(bi * &den)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int_rows(m: &[&[i64]]) -> IntRows {
        m.iter()
            .map(|r| {
                r.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0)
                    .map(|(j, v)| (j as u32, Integer::from(*v)))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_determinant_that_the_first_twenty_primes_divide_is_not_zero() {
        // diag(P, 1) with P the product of the first twenty primes tried: singular modulo
        // each of them, not at all.
        let product: Integer = primes().take(20).map(Integer::from).product();
        let a: IntRows = vec![vec![(0, product.clone())], vec![(1, Integer::from(1))]];
        let y = solve(&a, &[vec![product, Integer::from(3)]], &Cancel::new()).unwrap();
        assert_eq!(y, vec![vec![Rational::from(1), Rational::from(3)]]);
        // A matrix that is singular is found so once the primes pass its Hadamard bound.
        let ones = vec![(0, Integer::from(1)), (1, Integer::from(1))];
        let singular: IntRows = vec![ones.clone(), ones];
        let b = vec![Integer::from(1), Integer::from(1)];
        assert_eq!(solve(&singular, &[b], &Cancel::new()), Err(SolveFailure::Singular));
    }

    #[test]
    fn primes_are_prime_and_below_the_bound() {
        let ps: Vec<u64> = primes().take(3).collect();
        assert_eq!(ps, vec![1048573, 1048571, 1048559]);
    }

    #[test]
    fn a_matrix_is_made_slice_by_slice_and_a_cancel_stops_it() {
        let made = filled(10_000_000, &Cancel::new(), |i| i as f32).unwrap();
        assert_eq!((made.len(), made[0], made[9_999_999]), (10_000_000, 0.0, 9_999_999.0));
        let cancel = Cancel::new();
        cancel.cancel();
        let a = int_rows(&[&[2, 1], &[1, 3]]);
        assert_eq!(
            solve(&a, &[vec![Integer::from(1), Integer::from(2)]], &cancel),
            Err(SolveFailure::Cancelled)
        );
    }

    #[test]
    fn lu_solves_modulo_p_with_a_zero_on_the_diagonal() {
        let p = 1048573;
        let a = vec![0.0, 1.0, 2.0, 1.0, 0.0, 3.0, 4.0, 5.0, 0.0];
        let lu = Lu::new(3, a, p, &Cancel::new()).unwrap().unwrap();
        // x = (1, 2, 3): b = (0+2+6, 1+0+9, 4+10+0)
        assert_eq!(lu.solve(&[8, 10, 14]), vec![1, 2, 3]);
        assert!(Lu::new(2, vec![1.0, 2.0, 2.0, 4.0], p, &Cancel::new()).unwrap().is_none());
    }

    /// Several right-hand sides over more rows than a block of the triangular solves (and a
    /// last block cut short): each solution satisfies A x = b modulo p.
    #[test]
    fn lu_solves_many_columns_across_blocks() {
        let (n, p) = (2 * SOLVE_BLOCK + 45, 1048573u64);
        let mut s = 987654321u64;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) % p
        };
        let a: Vec<u64> = (0..n * n).map(|_| next()).collect();
        let columns: Vec<Vec<u64>> = (0..3).map(|_| (0..n).map(|_| next()).collect()).collect();
        let lu = Lu::new(n, a.iter().map(|&v| v as f64).collect(), p, &Cancel::new()).unwrap().unwrap();
        let solutions = lu.solve_many(&columns);
        assert_eq!(solutions.len(), 3);
        for (x, b) in solutions.iter().zip(&columns) {
            for (i, bi) in b.iter().enumerate() {
                let ax = (0..n).fold(0u64, |acc, j| (acc + a[i * n + j] * x[j]) % p);
                assert_eq!(ax, *bi, "row {i}");
            }
        }
        assert_eq!(lu.solve(&columns[1]), solutions[1]);
    }

    #[test]
    fn solves_small_systems_exactly() {
        let a = int_rows(&[&[2, 1], &[1, 3]]);
        let x = solve(&a, &[vec![Integer::from(1), Integer::from(2)]], &Cancel::new()).unwrap();
        assert_eq!(x[0], vec![Rational::from((1, 5)), Rational::from((3, 5))]);
        // Huge right-hand side and a solution with a large denominator.
        let a = int_rows(&[&[1_000_003, -7, 0], &[5, 999_983, 11], &[0, 13, 1_000_033]]);
        let big = Integer::from(Integer::u_pow_u(10, 80));
        let b = vec![big.clone(), Integer::from(-3), big];
        let x = solve(&a, std::slice::from_ref(&b), &Cancel::new()).unwrap();
        assert!(satisfies(&a, &b, &x[0]));
    }

    /// A random-looking dense n x n system and a right-hand side, entries in -500..500.
    fn random_system(n: usize, seed: u64) -> (IntRows, Vec<Integer>) {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) as i64 % 1000 - 500
        };
        let a: IntRows =
            (0..n).map(|_| (0..n as u32).map(|j| (j, Integer::from(next()))).collect()).collect();
        let b: Vec<Integer> = (0..n).map(|_| Integer::from(next())).collect();
        (a, b)
    }

    /// A small system with long entries (as a component of 9 states whose probabilities
    /// have thousands of digits): a lifting step is short beside a Euclid over the modulus,
    /// so the watch is reconstructed seldom (every step, it took 26 s where the lifting took
    /// 0.2 s), and the answer is found all the same.
    #[test]
    fn a_small_system_of_long_entries_watches_seldom() {
        // Entries of 3,000 bits from a fixed generator: 47 words each.
        let mut s = 2718281828u64;
        let mut big = || {
            (0..47).fold(Integer::new(), |v, _| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (v << 64u32) + s
            })
        };
        let a: IntRows = (0..4).map(|_| (0..4u32).map(|j| (j, big())).collect()).collect();
        let b: Vec<Integer> = (0..4).map(|_| big()).collect();
        let lu = (primes().take(20))
            .find_map(|p| {
                let dense = (0..16).map(|k| a[k / 4][k % 4].1.mod_u(p as u32) as f64).collect();
                Lu::new(4, dense, p, &Cancel::new()).unwrap()
            })
            .unwrap();
        let lifts = lift(&a, std::slice::from_ref(&b), &lu, determinant_bits(&a), &Cancel::new()).unwrap();
        assert!(satisfies(&a, &b, lifts[0].answer.as_ref().unwrap()));
        let (steps, watches) = (lifts[0].steps, lifts[0].watches);
        assert!(steps > 100 && watches * 10 < steps, "{watches} watches in {steps} steps");
    }

    #[test]
    fn solves_a_system_larger_than_a_block_with_many_lifting_steps() {
        let (a, b) = random_system(40, 12345);
        let x = solve(&a, std::slice::from_ref(&b), &Cancel::new()).unwrap();
        assert!(satisfies(&a, &b, &x[0]));
        assert!(x[0].iter().any(|v| v.denom().significant_bits() > 200));
    }

    /// The lifting stops within two steps of the fewest digits from which its reconstruction
    /// gives the answer (numerators and the common denominator at most sqrt(m / 2)), where
    /// trying at growing intervals took up to half as many again.
    #[test]
    fn lifting_stops_within_two_steps_of_enough_digits() {
        for (n, seed) in [(12, 1), (40, 12345), (60, 7), (90, 99)] {
            let (a, b) = random_system(n, seed);
            let lu = (primes().take(20))
                .find_map(|p| {
                    let dense = (0..n * n).map(|k| a[k / n][k % n].1.mod_u(p as u32) as f64).collect();
                    Lu::new(n, dense, p, &Cancel::new()).unwrap()
                })
                .unwrap();
            let lifts =
                lift(&a, std::slice::from_ref(&b), &lu, determinant_bits(&a), &Cancel::new()).unwrap();
            let x = lifts[0].answer.as_ref().unwrap();
            assert!(satisfies(&a, &b, x));
            let den = x.iter().fold(Integer::from(1), |acc, v| acc.lcm(v.denom()));
            let largest = x.iter().map(|v| (v.numer() * Integer::from(&den / v.denom())).abs()).max();
            let needed = largest.unwrap().max(den);
            let mut least = 0;
            let mut m = Integer::from(1);
            while Integer::from(&m >> 1u32).sqrt() < needed {
                m *= lu.prime();
                least += 1;
            }
            let steps = lifts[0].steps;
            assert!(steps >= least && steps <= least + 2, "n = {n}: {steps} steps, {least} needed");
        }
    }
}

#[cfg(test)]
mod reconstruction_tests {
    use super::*;

    /// The extended Euclidean algorithm one quotient at a time: the reference.
    fn plain(
        v: &Integer,
        m: &Integer,
        num_bound: &Integer,
        den_bound: &Integer,
    ) -> Option<(Integer, Integer)> {
        let (mut r0, mut r1) = (m.clone(), v.clone().modulo(m));
        let (mut t0, mut t1) = (Integer::new(), Integer::from(1));
        while r1 > *num_bound {
            let q = Integer::from(&r0 / &r1);
            let r2 = Integer::from(&r0 - &q * &r1);
            let t2 = Integer::from(&t0 - &q * &t1);
            (r0, r1, t0, t1) = (r1, r2, t1, t2);
        }
        fraction(r1, t1, den_bound)
    }

    /// Fractions of many sizes, and residues with no small fraction, give the plain
    /// algorithm's answers (the batches of steps from leading bits change only the speed).
    #[test]
    fn batched_steps_reconstruct_as_single_ones_do() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut word = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s
        };
        let mut number = |limbs: usize| (0..limbs).fold(Integer::new(), |acc, _| (acc << 64u32) + word());
        let (mut found, mut none) = (0, 0);
        for case in 0..300 {
            let limbs = 1 + case % 40;
            let m = number(2 * limbs + 1) | 1u32;
            let half = Integer::from(&m >> 1u32).sqrt();
            // A fraction that fits (every third case), or a random residue.
            let v = if case % 3 == 0 {
                let (n, d) = (number(limbs) >> 3u32, number(limbs) >> 3u32 | 1u32);
                let inverse = d.clone().invert(&m).ok();
                match inverse {
                    Some(inv) => (n * inv).modulo(&m),
                    None => continue,
                }
            } else {
                number(2 * limbs + 1).modulo(&m)
            };
            let got = rational_reconstruction(&v, &m, &half, &half);
            assert_eq!(got, plain(&v, &m, &half, &half), "case {case}");
            if got.is_some() { found += 1 } else { none += 1 }
        }
        assert!(found >= 50 && none >= 50, "{found} found, {none} none");
    }
}

#[cfg(test)]
mod reduce_tests {
    use super::reduce;

    #[test]
    fn reduction_is_exact_near_the_ends_of_the_range() {
        let p = 1_048_573.0;
        for x in [0.0, 1.0, p - 1.0, p, p + 1.0, -1.0, -p, 4_503_599_627_370_495.0, -4_503_599_627_370_495.0]
        {
            let expected = (x as i64).rem_euclid(p as i64) as f64;
            assert_eq!(reduce(x, p), expected, "{x}");
        }
    }
}
