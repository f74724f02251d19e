//! Solutions: sequences of jumps from a start position to a finish, found by search.
//!
//! Two methods give the same solutions in the same order (jumps tried in the board's jump
//! order), and differ in time and memory:
//! - `Dfs`: depth-first search with a table of positions known to fail, so a dead end met
//!   again (in any symmetric form) is skipped at once. Little memory; finds one English
//!   centre-to-centre solution in milliseconds.
//! - `Bfs`: a breadth-first sweep of every reachable position, layer by layer, then a
//!   backward pass keeping only positions that reach the finish; the listing then never
//!   enters a dead end. Holds every reachable position, so it suits the smaller boards.
//!
//! Symmetry: a position fails or succeeds together with its images under a symmetry only if
//! that symmetry maps the finish onto itself, so positions are reduced by exactly those
//! elements (all of them for a finish by peg count).
//!
//! Solutions are streamed to a callback, never collected, so `--all` runs in the memory of
//! the search alone.

use crate::engine::Cancel;
use crate::error::Error;
use crate::render::number::plural;
use crate::solitaire::board::{Board, SymmetryGroup};
use crate::solitaire::moves::MoveTable;
use crate::solitaire::pegs::Pegs;
use hashbrown::{HashMap, HashSet};
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::time::Instant;

/// Where a solution must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Exactly these pegs at the end; one hole means the last peg's hole.
    Pegs(Pegs),
    /// This many pegs left and no jump possible; `Count(1)` is one peg in any hole.
    Count(u32),
}

/// A finish's count of pegs left on a board of `holes` holes: at least one, at most every
/// hole; else why not, for the caller to say whose count it is. The one range of a board
/// file's `finish_count` and of any other.
pub fn check_finish_count(k: i64, holes: usize) -> Result<u32, String> {
    match u32::try_from(k) {
        Ok(k) if k >= 1 && k as usize <= holes => Ok(k),
        _ => Err(format!("must be between 1 and {holes}, not {k}")),
    }
}

/// A start position and a finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Problem {
    pub start: Pegs,
    pub finish: Finish,
}

impl Problem {
    /// Checks the positions against the board.
    pub fn new(board: &Board, start: Pegs, finish: Finish) -> Result<Problem, Error> {
        let outside = |p: Pegs| !board.full().contains_all(p);
        if start.is_empty() || outside(start) {
            return Err(Error::Invalid("the start position must hold pegs on the board's holes".into()));
        }
        match finish {
            Finish::Pegs(p) if p.is_empty() || outside(p) => {
                return Err(Error::Invalid("the finish must name at least one hole of the board".into()));
            }
            Finish::Count(0) => return Err(Error::Invalid("the finish must leave at least one peg".into())),
            _ => {}
        }
        Ok(Problem { start, finish })
    }

    /// Pegs left at the finish: every move removes one, so every solution has
    /// `start pegs - finish pegs` jumps.
    pub fn finish_pegs(&self) -> u32 {
        match self.finish {
            Finish::Pegs(p) => p.count(),
            Finish::Count(k) => k,
        }
    }

    fn is_goal(&self, moves: &MoveTable, pos: Pegs) -> bool {
        match self.finish {
            Finish::Pegs(p) => pos == p,
            Finish::Count(k) => pos.count() == k && !moves.has_move(pos),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    #[default]
    Dfs,
    Bfs,
}

impl FromStr for Method {
    type Err = String;
    /// `dfs`/`bfs`, or seed 002's `DEPTH_FIRST`/`BREADTH_FIRST`, in any case.
    fn from_str(s: &str) -> Result<Method, String> {
        match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "dfs" | "depth_first" => Ok(Method::Dfs),
            "bfs" | "breadth_first" => Ok(Method::Bfs),
            _ => Err(format!("unknown search method {s:?}; use dfs or bfs")),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Dfs => "dfs",
            Method::Bfs => "bfs",
        })
    }
}

/// What a search did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Solutions passed to the callback.
    pub found: u64,
    /// The search ran to the end (every solution was seen); false when the callback or the
    /// cancel token stopped it.
    pub complete: bool,
    /// The cancel token stopped the search (the solutions passed on so far stand).
    pub interrupted: bool,
    /// Positions the search expanded (DFS) or held (BFS).
    pub positions: u64,
    /// A save handed to `saving.save` failed, which stopped the search (the solutions
    /// passed on so far stand).
    pub unsaved: bool,
    /// The system refused the depth-first search room for more positions known to fail,
    /// which stopped it: what it held then ("1,204 positions known to fail"). Without the
    /// table the search would go on for hours where it takes seconds.
    pub out_of_memory: Option<String>,
    /// No search was needed: a parity invariant of the board (a position class) differs
    /// between the start and every possible finish.
    pub ruled_out_by_parity: bool,
}

/// Entries the DFS failure table may hold (about 0.9 GB at most); past it the search goes
/// on, correct but slower. The European board from c1 needs about 2^24 to find a solution
/// in under a minute; at 2^23 it found none in two.
const MAX_FAILED: usize = 1 << 25;
/// Positions the BFS sweep may hold (about 400 MB). A search is refused before it starts
/// unless its bound (see `bound`) stays within this; every built-in triangle up to 28 holes
/// fits with a finish by peg count.
pub const MAX_BFS_POSITIONS: u64 = 25_000_000;

/// The search context of one board: moves and symmetry group, built once.
pub struct Solver<'a> {
    pub board: &'a Board,
    pub moves: MoveTable,
    pub group: SymmetryGroup,
    /// Hole sets whose peg count keeps its parity under every jump.
    invariants: Vec<Pegs>,
    /// Polled every `CANCEL_EVERY` positions: once cancelled the search ends as if the
    /// callback had stopped it, with `Summary::interrupted` set.
    pub cancel: Cancel,
    /// The most positions a breadth-first search holds (`MAX_BFS_POSITIONS`).
    pub bfs_limit: u64,
}

/// Positions a search expands between two polls of its cancel token (well under a
/// millisecond of work).
const CANCEL_EVERY: u64 = 1 << 12;

impl<'a> Solver<'a> {
    pub fn new(board: &'a Board) -> Solver<'a> {
        Solver {
            board,
            moves: MoveTable::new(board),
            group: SymmetryGroup::of_board(board),
            invariants: parity_invariants(board),
            cancel: Cancel::new(),
            bfs_limit: MAX_BFS_POSITIONS,
        }
    }

    /// The parities of a position that no jump changes: its position class.
    pub fn position_class(&self, pos: Pegs) -> Vec<bool> {
        position_class(&self.invariants, pos)
    }

    /// Whether the position classes alone show that no solution exists.
    fn ruled_out(&self, problem: &Problem) -> bool {
        match problem.finish {
            Finish::Pegs(p) => self.position_class(p) != self.position_class(problem.start),
            Finish::Count(1) => one_peg_ruled_out_by(self.board, &self.invariants, problem.start),
            Finish::Count(_) => false,
        }
    }

    /// Every solution of `problem`, in jump order, passed to `on_solution` as jump indices
    /// (into `board.jumps()`) until it returns `Break`. A breadth-first search that would hold
    /// more than `MAX_BFS_POSITIONS` positions stops there with an error, before it lists any.
    pub fn run(
        &self,
        problem: &Problem,
        method: Method,
        on_solution: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> Result<Summary, Error> {
        self.run_saving(problem, method, on_solution, SearchSaving::default())
    }

    /// `run`, going on from `saving.resume` (the solutions passed on before it are not
    /// passed on again) and handing the search's state to `saving.save` every
    /// `SAVE_EVERY` and when the cancel token stops it. A failed save stops the search, and the
    /// summary says so (`unsaved`): what was passed on stands, and the caller ends its output.
    pub fn run_saving(
        &self,
        problem: &Problem,
        method: Method,
        on_solution: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
        saving: SearchSaving<'_>,
    ) -> Result<Summary, Error> {
        if self.ruled_out(problem) {
            return Ok(Summary {
                found: 0,
                complete: true,
                interrupted: false,
                positions: 0,
                unsaved: false,
                out_of_memory: None,
                ruled_out_by_parity: true,
            });
        }
        let canon = Canon::new(&self.group, self.finish_preserving(problem));
        let cursor = saving.resume.as_ref().map(|r| r.path.clone());
        let resume = saving.resume.unwrap_or_default();
        let mut save = saving.save;
        let mut search = Search {
            moves: &self.moves,
            problem,
            canon: &canon,
            on_solution,
            path: Vec::new(),
            anys: Vec::new(),
            failed: resume.failed.iter().copied().map(Pegs).collect(),
            cursor,
            resumed_anys: resume.anys,
            found: resume.found,
            positions: resume.positions,
            cancel: &self.cancel,
            steps: 0,
            interrupted: false,
            limit: self.bfs_limit,
            too_many: false,
            out_of_memory: false,
            save: save.as_mut().map(|f| &mut **f as &mut SaveSearch<'_>),
            last_save: Instant::now(),
            unsaved: false,
        };
        let outcome = match method {
            Method::Dfs => search.dfs(),
            Method::Bfs => search.bfs(),
        };
        if search.too_many {
            return Err(Error::SearchTooLarge { limit: self.bfs_limit });
        }
        let breadth_first = method == Method::Bfs;
        if search.out_of_memory && breadth_first {
            let held = plural(search.positions, "position", "positions");
            return Err(Error::SearchOutOfMemory { held, breadth_first });
        }
        Ok(Summary {
            found: search.found,
            complete: outcome.is_continue(),
            interrupted: search.interrupted,
            positions: search.positions,
            unsaved: search.unsaved,
            out_of_memory: search.out_of_memory.then(|| {
                let held = search.failed.len() as u64;
                plural(held, "position known to fail", "positions known to fail")
            }),
            ruled_out_by_parity: false,
        })
    }

    /// The group elements that map the finish onto itself.
    fn finish_preserving(&self, problem: &Problem) -> Vec<usize> {
        (0..self.group.order())
            .filter(|&g| match problem.finish {
                Finish::Pegs(p) => self.group.apply(g, p) == p,
                Finish::Count(_) => true,
            })
            .collect()
    }
}

/// Whether the position classes show that no play from `start` ends with one peg: its class
/// is no single peg's (on the European board, 21 of the 37 single-vacancy starts).
pub fn one_peg_ruled_out(board: &Board, start: Pegs) -> bool {
    one_peg_ruled_out_by(board, &parity_invariants(board), start)
}

fn one_peg_ruled_out_by(board: &Board, invariants: &[Pegs], start: Pegs) -> bool {
    let class = position_class(invariants, start);
    board.full().holes().all(|h| position_class(invariants, Pegs::single(h)) != class)
}

/// The parities of `pos` under each invariant.
fn position_class(invariants: &[Pegs], pos: Pegs) -> Vec<bool> {
    invariants.iter().map(|&v| (v & pos).count() % 2 == 1).collect()
}

/// A basis of the hole sets S with |S ∩ {from, over, to}| even for every jump: a jump
/// flips those three holes, so the parity of the pegs in S never changes. This is the
/// null space of the jumps' incidence matrix over GF(2), found by Gaussian elimination;
/// on the English board it gives the classical 16 position classes.
pub(crate) fn parity_invariants(board: &Board) -> Vec<Pegs> {
    let mut rows: Vec<Pegs> =
        board.jumps().iter().map(|j| Pegs::single(j.from).with(j.over).with(j.to)).collect();
    let mut pivots: Vec<(u8, Pegs)> = Vec::new();
    for col in board.full().holes() {
        let Some(r) = rows.iter().position(|row| row.contains(col)) else { continue };
        let pivot = rows.swap_remove(r);
        for row in rows.iter_mut().chain(pivots.iter_mut().map(|(_, p)| p)) {
            if row.contains(col) {
                *row ^= pivot;
            }
        }
        pivots.push((col, pivot));
    }
    // A free column f gives x_f = 1 and x_p = (bit f of pivot row p) for every pivot p.
    board
        .full()
        .holes()
        .filter(|&f| pivots.iter().all(|&(c, _)| c != f))
        .map(|f| {
            pivots.iter().fold(Pegs::single(f), |v, &(c, row)| if row.contains(f) { v.with(c) } else { v })
        })
        .collect()
}

/// Canonical forms under a subgroup given as element indices.
struct Canon<'g> {
    group: &'g SymmetryGroup,
    elements: Vec<usize>,
}

impl Canon<'_> {
    fn new(group: &SymmetryGroup, elements: Vec<usize>) -> Canon<'_> {
        Canon { group, elements }
    }

    #[inline]
    fn of(&self, pos: Pegs) -> Pegs {
        if self.elements.len() == self.group.order() {
            return self.group.canonical(pos);
        }
        self.elements.iter().fold(pos, |best, &g| best.min(self.group.apply(g, pos)))
    }
}

/// Saving a long search as it goes, and going on from a saved one.
#[derive(Default)]
pub struct SearchSaving<'a> {
    /// Go on from this state, handed to `save` by a search of the same problem and method.
    pub resume: Option<SearchState>,
    /// Receives the search's state every `SAVE_EVERY` and when the search is cancelled.
    pub save: Option<&'a mut SaveSearch<'a>>,
}

/// Receives a search's state to save; `Err` stops the search.
pub type SaveSearch<'a> = dyn FnMut(&SearchState) -> Result<(), ()> + 'a;

/// How often a search hands its state to be saved (besides when it is cancelled).
pub const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// A search stopped at a position it had entered but not yet expanded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchState {
    /// The jumps from the start to that position.
    pub path: Vec<usize>,
    /// For each position on the path before it (DFS): whether a solution passed through
    /// the jumps already tried from it.
    pub anys: Vec<bool>,
    /// Solutions passed on so far.
    pub found: u64,
    /// Positions expanded so far (DFS; the BFS sweeps again and counts them again).
    pub positions: u64,
    /// The positions known to fail (DFS), as bits.
    pub failed: Vec<u64>,
}

struct Search<'s> {
    moves: &'s MoveTable,
    problem: &'s Problem,
    canon: &'s Canon<'s>,
    on_solution: &'s mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    path: Vec<usize>,
    /// For each position on `path` being expanded (DFS): whether a solution passed
    /// through it so far.
    anys: Vec<bool>,
    /// Positions known to fail, in their symmetric form (DFS).
    failed: HashSet<Pegs>,
    /// While resuming: the path to the position the saved search had entered last. The
    /// positions on it are entered without checks or counting, each going on from the jump
    /// it was trying; past its end the search runs as usual.
    cursor: Option<Vec<usize>>,
    resumed_anys: Vec<bool>,
    found: u64,
    positions: u64,
    cancel: &'s Cancel,
    steps: u64,
    interrupted: bool,
    /// The most positions a breadth-first sweep holds, and whether it met more and stopped.
    limit: u64,
    too_many: bool,
    /// The system refused the search memory (for its sweep, or its positions known to fail).
    out_of_memory: bool,
    save: Option<&'s mut SaveSearch<'s>>,
    last_save: Instant,
    unsaved: bool,
}

impl Search<'_> {
    /// One more step of the search (a position expanded, swept or listed): stops once the
    /// token is cancelled, reading it every `CANCEL_EVERY` steps only; saves the state when
    /// cancelled and every `SAVE_EVERY`.
    fn poll(&mut self) -> ControlFlow<()> {
        self.steps += 1;
        if !self.steps.is_multiple_of(CANCEL_EVERY) {
            return ControlFlow::Continue(());
        }
        let cancelled = self.cancel.is_cancelled();
        if (cancelled || self.last_save.elapsed() >= SAVE_EVERY) && self.save_state().is_break() {
            return ControlFlow::Break(());
        }
        if cancelled {
            self.interrupted = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// Hands the state to `save`, at a position entered but not yet expanded.
    fn save_state(&mut self) -> ControlFlow<()> {
        let Some(save) = self.save.as_mut() else { return ControlFlow::Continue(()) };
        let state = SearchState {
            path: self.path.clone(),
            anys: self.anys.clone(),
            found: self.found,
            positions: self.positions,
            failed: self.failed.iter().map(|p| p.0).collect(),
        };
        self.last_save = Instant::now();
        if save(&state).is_err() {
            self.unsaved = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn emit(&mut self) -> ControlFlow<()> {
        self.found += 1;
        (self.on_solution)(&self.path)
    }

    /// While resuming, where the position at the current depth goes on from: `Some(jump)`
    /// for a position on the saved path before its end, `Some(0)` for its end (which
    /// also ends the resuming), `None` once past it.
    fn resume_from(&mut self) -> Option<usize> {
        let cursor = self.cursor.as_ref()?;
        let depth = self.path.len();
        match cursor.get(depth) {
            Some(&jump) => Some(jump),
            None => {
                self.cursor = None;
                Some(0)
            }
        }
    }

    fn dfs(&mut self) -> ControlFlow<()> {
        self.dfs_from(self.problem.start)?;
        ControlFlow::Continue(())
    }

    /// Whether any solution passes through `pos`.
    fn dfs_from(&mut self, pos: Pegs) -> ControlFlow<(), bool> {
        let depth = self.path.len();
        let first = match self.resume_from() {
            Some(jump) => jump,
            None => {
                if self.problem.is_goal(self.moves, pos) {
                    self.emit()?;
                    return ControlFlow::Continue(true);
                }
                if pos.count() <= self.problem.finish_pegs() || self.failed.contains(&self.canon.of(pos)) {
                    return ControlFlow::Continue(false);
                }
                self.positions += 1;
                self.poll()?;
                0
            }
        };
        // A position on the saved path before its end goes on with what its tried jumps found.
        let resuming = self.cursor.is_some();
        self.anys.push(resuming && self.resumed_anys.get(depth).copied().unwrap_or(false));
        for j in first..self.moves.jumps().len() {
            if self.moves.is_legal(pos, j) {
                self.path.push(j);
                let through = self.dfs_from(self.moves.apply(pos, j))?;
                self.anys[depth] |= through;
                self.path.pop();
            }
        }
        let any = self.anys.pop().expect("pushed above");
        if !any && self.failed.len() < MAX_FAILED {
            // Grown fallibly: a refused allocation would abort the process.
            if self.failed.try_reserve(1).is_err() {
                self.out_of_memory = true;
                return ControlFlow::Break(());
            }
            self.failed.insert(self.canon.of(pos));
        }
        ControlFlow::Continue(any)
    }

    /// Sweeps forward, prunes backward to the positions that reach the finish, then lists.
    /// The sweep stops once it holds more than `limit` positions (`too_many`): no
    /// bound known before the search is near the truth (a 64-hole line's position class
    /// holds 2^62 hole sets, its start reaches 993).
    fn bfs(&mut self) -> ControlFlow<()> {
        let last = self.problem.start.count().saturating_sub(self.problem.finish_pegs()) as usize;
        let mut layers: Vec<HashSet<Pegs>> = vec![HashSet::from([self.canon.of(self.problem.start)])];
        self.positions = 1;
        while layers.len() <= last && !layers[layers.len() - 1].is_empty() {
            let mut next = HashSet::new();
            let (moves, canon) = (self.moves, self.canon);
            for &pos in &layers[layers.len() - 1] {
                self.poll()?;
                for child in moves.legal(pos).map(|j| canon.of(moves.apply(pos, j))) {
                    // Grown fallibly: a refused allocation would abort the process.
                    if next.try_reserve(1).is_err() {
                        self.out_of_memory = true;
                        return ControlFlow::Break(());
                    }
                    next.insert(child);
                }
                if self.positions + next.len() as u64 > self.limit {
                    self.too_many = true;
                    return ControlFlow::Break(());
                }
            }
            self.positions += next.len() as u64;
            layers.push(next);
        }
        if layers.len() <= last {
            return ControlFlow::Continue(());
        }
        // Goals have exactly the finish's pegs, so they all sit in the last layer.
        layers[last].retain(|&p| self.problem.is_goal(self.moves, p));
        for i in (0..last).rev() {
            if self.cancel.is_cancelled() {
                self.interrupted = true;
                return ControlFlow::Break(());
            }
            let (head, tail) = layers.split_at_mut(i + 1);
            let below = &tail[0];
            head[i].retain(|&p| {
                self.moves.legal(p).any(|j| below.contains(&self.canon.of(self.moves.apply(p, j))))
            });
        }
        self.list(self.problem.start, &layers, 0)
    }

    /// Every path through the kept positions: each step leads on to a solution.
    fn list(&mut self, pos: Pegs, layers: &[HashSet<Pegs>], depth: usize) -> ControlFlow<()> {
        let first = match self.resume_from() {
            Some(jump) => jump,
            None => {
                self.poll()?;
                0
            }
        };
        if depth + 1 == layers.len() {
            return if layers[depth].contains(&self.canon.of(pos)) {
                self.emit()
            } else {
                ControlFlow::Continue(())
            };
        }
        for j in first..self.moves.jumps().len() {
            if self.moves.is_legal(pos, j) {
                let next = self.moves.apply(pos, j);
                if layers[depth + 1].contains(&self.canon.of(next)) {
                    self.path.push(j);
                    self.list(next, layers, depth + 1)?;
                    self.path.pop();
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// Classes of solutions that differ only in the order of their jumps and a symmetry of the
/// board that maps the start and the finish onto themselves. Two solutions with the same
/// jumps in another order hold the same multiset of jumps, so a class is keyed by the
/// smallest symmetric image of its sorted jump list.
pub struct DistinctSolutions {
    /// For each symmetry kept: jump index -> index of the image jump.
    jump_maps: Vec<Vec<u16>>,
    seen: HashSet<Vec<u16>>,
}

impl DistinctSolutions {
    pub fn new(solver: &Solver<'_>, problem: &Problem) -> DistinctSolutions {
        let jumps = solver.board.jumps();
        let index: HashMap<_, u16> = jumps.iter().enumerate().map(|(i, j)| (*j, i as u16)).collect();
        let group = &solver.group;
        let jump_maps = solver
            .finish_preserving(problem)
            .into_iter()
            .filter(|&g| group.apply(g, problem.start) == problem.start)
            .map(|g| {
                let p = &group.perms()[g];
                jumps
                    .iter()
                    .map(|j| {
                        let image = crate::solitaire::board::Jump {
                            from: p[j.from as usize],
                            over: p[j.over as usize],
                            to: p[j.to as usize],
                        };
                        index[&image]
                    })
                    .collect()
            })
            .collect();
        DistinctSolutions { jump_maps, seen: HashSet::new() }
    }

    /// How many symmetries identify solutions (the identity included).
    pub fn symmetries(&self) -> usize {
        self.jump_maps.len()
    }

    /// Classes seen so far.
    pub fn count(&self) -> u64 {
        self.seen.len() as u64
    }

    /// Records a solution; true when it opens a new class, an error where the system refuses
    /// the classes room to grow.
    pub fn insert(&mut self, solution: &[usize]) -> Result<bool, Error> {
        let key = self
            .jump_maps
            .iter()
            .map(|map| {
                let mut image: Vec<u16> = solution.iter().map(|&j| map[j]).collect();
                image.sort_unstable();
                image
            })
            .min()
            .unwrap_or_default();
        if self.seen.try_reserve(1).is_err() {
            let held = plural(self.count(), "distinct solution", "distinct solutions");
            return Err(Error::SearchOutOfMemory { held, breadth_first: false });
        }
        Ok(self.seen.insert(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;
    use crate::solitaire::moves::start_position;

    fn all(board: &Board, problem: &Problem, method: Method) -> Vec<Vec<usize>> {
        let solver = Solver::new(board);
        let mut out = Vec::new();
        let s = solver
            .run(problem, method, &mut |sol| {
                out.push(sol.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
        assert!(s.complete);
        assert_eq!(s.found as usize, out.len());
        out
    }

    /// Runs until `stop_after` solutions are seen, then cancels: returns the solutions
    /// passed on and the state saved when the search noticed.
    fn stopped(
        board: &Board,
        problem: &Problem,
        method: Method,
        stop_after: usize,
    ) -> (Vec<Vec<usize>>, SearchState) {
        let solver = Solver::new(board);
        let mut seen = Vec::new();
        let mut saved = None;
        let mut save = |state: &SearchState| {
            saved = Some(state.clone());
            Ok(())
        };
        let saving = SearchSaving { resume: None, save: Some(&mut save) };
        let summary = solver
            .run_saving(
                problem,
                method,
                &mut |sol| {
                    seen.push(sol.to_vec());
                    if seen.len() == stop_after {
                        solver.cancel.cancel();
                    }
                    ControlFlow::Continue(())
                },
                saving,
            )
            .unwrap();
        assert!(summary.interrupted && !summary.complete, "{method} not stopped after {stop_after}");
        (seen, saved.expect("saved when cancelled"))
    }

    #[test]
    fn a_search_resumed_from_its_saved_state_passes_on_exactly_the_solutions_not_yet_seen() {
        let board = builtin("triangle5").unwrap();
        let problem = Problem::new(&board, start_position(&board, 0), Finish::Count(1)).unwrap();
        for method in [Method::Dfs, Method::Bfs] {
            let whole = all(&board, &problem, method);
            let full = Solver::new(&board).run(&problem, method, &mut |_| ControlFlow::Continue(())).unwrap();
            for stop_after in [1, 500, 9_000, 20_000] {
                let (mut seen, state) = stopped(&board, &problem, method, stop_after);
                assert_eq!(state.found as usize, seen.len(), "{method} after {stop_after}");
                let saving = SearchSaving { resume: Some(state), save: None };
                let summary = Solver::new(&board)
                    .run_saving(
                        &problem,
                        method,
                        &mut |sol| {
                            seen.push(sol.to_vec());
                            ControlFlow::Continue(())
                        },
                        saving,
                    )
                    .unwrap();
                assert!(seen == whole, "{method} resumed after {stop_after} solutions");
                assert_eq!(summary, full, "{method} resumed after {stop_after}: the summary");
            }
        }
    }

    /// A failed save stops the search where it stood: the solutions passed on stand, and the
    /// summary says it is incomplete and unsaved (not an error, so the caller can end its output).
    #[test]
    fn a_failed_save_stops_the_search_and_says_so() {
        let board = builtin("triangle5").unwrap();
        let problem = Problem::new(&board, start_position(&board, 0), Finish::Count(1)).unwrap();
        for method in [Method::Dfs, Method::Bfs] {
            let solver = Solver::new(&board);
            let mut save = |_: &SearchState| Err(());
            let saving = SearchSaving { resume: None, save: Some(&mut save) };
            let mut seen = 0u64;
            let summary = solver
                .run_saving(
                    &problem,
                    method,
                    &mut |_| {
                        seen += 1;
                        if seen == 100 {
                            solver.cancel.cancel();
                        }
                        ControlFlow::Continue(())
                    },
                    saving,
                )
                .unwrap();
            assert!(summary.unsaved && !summary.complete, "{method}: {summary:?}");
            assert_eq!(summary.found, seen, "{method}");
            assert!(seen < 29_760, "{method} went on after the failed save");
        }
    }

    #[test]
    fn both_methods_list_the_same_solutions_in_the_same_order() {
        let t5 = builtin("triangle5").unwrap();
        for start in [0, 3, 4] {
            for finish in [Finish::Count(1), Finish::Pegs(Pegs::single(12)), Finish::Count(2)] {
                let p = Problem::new(&t5, start_position(&t5, start), finish).unwrap();
                assert_eq!(all(&t5, &p, Method::Dfs), all(&t5, &p, Method::Bfs), "start {start} {finish:?}");
            }
        }
    }

    /// The breadth-first search holds at most `bfs_limit` positions: one fewer than it needs
    /// stops it before any solution is passed on. (It was refused up front by a bound on the
    /// start's position class, 2^62 hole sets on a line of 64 holes whose start reaches 993.)
    #[test]
    fn a_breadth_first_search_stops_past_its_limit() {
        let t5 = builtin("triangle5").unwrap();
        let p = Problem::new(&t5, start_position(&t5, 0), Finish::Count(1)).unwrap();
        let mut solver = Solver::new(&t5);
        let needed = solver.run(&p, Method::Bfs, &mut |_| ControlFlow::Continue(())).unwrap().positions;
        assert!(needed > 100, "{needed}");
        solver.bfs_limit = needed;
        let s = solver.run(&p, Method::Bfs, &mut |_| ControlFlow::Continue(())).unwrap();
        assert_eq!((s.found, s.positions), (29_760, needed));
        solver.bfs_limit = needed - 1;
        let mut passed = 0;
        let e = solver.run(&p, Method::Bfs, &mut |_| {
            passed += 1;
            ControlFlow::Continue(())
        });
        assert!(matches!(e, Err(Error::SearchTooLarge { limit }) if limit == needed - 1));
        assert_eq!(passed, 0);
    }

    #[test]
    fn a_callback_break_stops_the_search() {
        let t5 = builtin("triangle5").unwrap();
        let p = Problem::new(&t5, start_position(&t5, 0), Finish::Count(1)).unwrap();
        let mut n = 0;
        let s = Solver::new(&t5)
            .run(&p, Method::Dfs, &mut |_| {
                n += 1;
                if n == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })
            .unwrap();
        assert_eq!((s.found, s.complete), (3, false));
    }

    #[test]
    fn parity_invariants_hold_and_give_the_english_boards_16_classes() {
        for name in ["english", "european", "triangle5", "triangle6"] {
            let b = builtin(name).unwrap();
            let inv = parity_invariants(&b);
            for v in &inv {
                for j in b.jumps() {
                    let hits = [j.from, j.over, j.to].iter().filter(|&&h| v.contains(h)).count();
                    assert_eq!(hits % 2, 0, "{name}");
                }
            }
        }
        // Beasley's 16 position classes of the 33-hole board.
        assert_eq!(1 << parity_invariants(&builtin("english").unwrap()).len(), 16);
    }

    #[test]
    fn parity_rules_out_the_european_centre_game_without_search() {
        let eu = builtin("european").unwrap();
        let d4 = eu.find_hole("d4").unwrap();
        let p = Problem::new(&eu, start_position(&eu, d4), Finish::Pegs(Pegs::single(d4))).unwrap();
        let s = Solver::new(&eu).run(&p, Method::Dfs, &mut |_| ControlFlow::Continue(())).unwrap();
        assert_eq!((s.found, s.complete, s.ruled_out_by_parity), (0, true, true));
    }

    /// The single-vacancy starts from which no play ends with one peg, by position class: on
    /// the European board 21 of 37 (the classes of d4, d1, b2, c2 and c3), on the English none.
    #[test]
    fn position_classes_rule_out_one_peg_from_21_european_starts_and_no_english_one() {
        let ruled_out = |name: &str| {
            let board = builtin(name).unwrap();
            let holes =
                board.full().holes().filter(|&h| one_peg_ruled_out(&board, start_position(&board, h)));
            holes.map(|h| board.hole_name(h).to_string()).collect::<Vec<_>>()
        };
        let european = ruled_out("european");
        assert_eq!(european.len(), 21, "{european:?}");
        for hole in ["d4", "d1", "b2", "c2", "e2", "c3"] {
            assert!(european.iter().any(|h| h == hole), "{hole} not in {european:?}");
        }
        for hole in ["c1", "d2", "d3"] {
            assert!(!european.iter().any(|h| h == hole), "{hole} in {european:?}");
        }
        assert!(ruled_out("english").is_empty());
    }

    #[test]
    fn bad_problems_are_refused() {
        let t5 = builtin("triangle5").unwrap();
        assert!(Problem::new(&t5, Pegs::EMPTY, Finish::Count(1)).is_err());
        assert!(Problem::new(&t5, Pegs::single(20), Finish::Count(1)).is_err());
        assert!(Problem::new(&t5, Pegs(1), Finish::Count(0)).is_err());
        assert!(Problem::new(&t5, Pegs(1), Finish::Pegs(Pegs::single(15))).is_err());
    }
}
