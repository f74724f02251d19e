//! The coach: every legal jump from a position, with what it does to a random player's
//! exact odds (P(one peg left), expected pegs left), whether one peg can still be reached
//! with perfect play and in which holes, and how many move sequences still win.
//!
//! Positions are given as jumps played from a start (`F-C-A,D-E-F`, each checked) or as the
//! holes holding pegs. One backward pass over the positions the position can reach serves
//! every jump (their futures overlap): layer by layer from the fewest pegs, each position's
//! P(one peg left) and expected pegs left as integers over one denominator per layer (the
//! engine's representation, so no fraction is reduced until the answer; a small future keeps
//! each position's whole P(n pegs left) instead), and its winning paths by finish hole. A
//! forward search finds the layers first, with each position's jumps as indices into the
//! next layer; for one answer only two layers of values are held at once. The position's
//! own P(n pegs left) then comes from a forward pass over the same jumps (one number a
//! position, where a distribution kept for every position would take about seven). A future
//! kept whole ([`Coach::future`]: every layer's jumps and values) answers any position below
//! its root with no new search: its odds and its jumps' are kept, and its distribution is the
//! one kept (a small future) or a forward pass from it (a large one).
//!
//! Below the position itself, positions are followed up to the board's whole symmetry group
//! (one per class): random play commutes with every symmetry, so a position and its images
//! have the same odds and the same number of wins, their finish holes mapped by the symmetry
//! between them. Each jump keeps that symmetry, so its wins land in the right holes.
//!
//! A file a pass: `search` finds the layers, `backward` values them, `forward` gives the
//! position's distribution; `layers` holds what they share (a layer's jumps, its values).

use super::board::{Board, SymmetryGroup};
use super::exact::{Progress, Stage, pegs_left_moment};
use super::moves::{Children, MoveTable};
use super::pegs::Pegs;
use super::policy::Policy;
use super::scale::Factor;
use crate::error::Error;
use crate::render::number::{bytes as render_bytes, grouped};
use hashbrown::HashMap;
use pegchain_engine::Cancel;
use pegchain_engine::layered::limbs::to_integer;
use rug::{Integer, Rational};
use std::sync::Mutex;

mod backward;
mod forward;
mod layers;
mod search;

use layers::{EdgeCode, Kept, Layer, LayerValues};

/// The group's identity: its elements are sorted, and the identity permutation comes first.
const IDENTITY: usize = 0;

/// Positions taken at a time, per task and between looks at the cancel token.
const CHUNK: usize = 1024;
/// Positions taken at a time by a task of the search; their jumps are kept as one part of
/// their layer's jumps.
const SEARCH_CHUNK: usize = 16 * 1024;

/// The fewest positions (up to symmetry) in a position's future for which the coach keeps
/// only the odds below the position and finds its distribution by a forward pass (on the
/// English board after eight jumps of a solution, 0.86 of the time; on the 21-hole triangle,
/// 146,435 classes, a little slower than keeping every distribution).
const FORWARD_FROM: usize = 500_000;

/// The most positions (up to symmetry) a coach answer follows by default (the English board
/// from a full board reaches 23.5 million: about 13 s and 2.9 GB): past it, a position
/// has too large a future to answer here (`exact --position` answers for it alone).
/// [`Coach::with_limit`] sets another.
pub const MAX_POSITIONS: usize = 30_000_000;

/// Memory a coach answer takes at its peak, per position of the future (up to symmetry):
/// 2.93 GB over the English board's 23.5 million from a full board, 1.87 GB over 17.5
/// million after four jumps (2.28 and 1.44 GB since the search's one table a layer, 1.94 and
/// 1.22 GB with six-byte jumps, 1.39 and 0.88 GB with four-byte jumps and the forward pass's
/// masses scaled where they are; the figure is kept as a margin). For a caller that sets the
/// limit from the memory it has.
pub const BYTES_PER_POSITION: u64 = 128;

/// Memory one coach answer takes at its peak, per position of the future, as measured since
/// the four-byte jumps (1.39 GB over the English board's 23.5 million from a full board, 59
/// bytes; 0.88 GB over 17.5 million after four jumps, 50), with a margin: for a caller that
/// holds one answer at a time ([`Coach::with_memory_budget`]). A server holding several
/// keeps [`BYTES_PER_POSITION`]'s wider margin.
pub const PEAK_BYTES_PER_POSITION: u64 = 72;

/// Memory a future kept whole (see [`Coach::future`]) takes at its peak, per position, with
/// a forward pass from a position below its root beside it: on the English board from a full
/// board (23.5 million positions) it holds 3.4 GB, and 4.5-4.8 GB (kilobytes over 10^6, as
/// `/usr/bin/time` counts them: up to 4.9 GB) with the forward pass from the position after
/// the first jump.
pub const BYTES_PER_KEPT_POSITION: u64 = 224;

/// What random play from a position leads to, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// P(one peg left).
    pub one_peg: Rational,
    pub expected_pegs_left: Rational,
}

/// P(n pegs left), n ascending, zeros left out.
pub type PegsLeft = Vec<(u32, Rational)>;

/// What perfect play from a position can still do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prospects {
    /// Move sequences that end with one peg, by the hole it ends in (ascending).
    pub wins_by_hole: Vec<(u8, Integer)>,
}

impl Prospects {
    pub fn winnable(&self) -> bool {
        !self.wins_by_hole.is_empty()
    }

    pub fn winning_continuations(&self) -> Integer {
        self.wins_by_hole.iter().map(|(_, n)| n).sum()
    }
}

/// One legal jump and what follows it.
#[derive(Clone, Debug, PartialEq)]
pub struct JumpAdvice {
    pub from: u8,
    pub over: u8,
    pub to: u8,
    pub odds: Odds,
    pub prospects: Prospects,
}

/// The coach's answer for a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    pub position: Pegs,
    pub odds: Odds,
    /// How many pegs random play from the position leaves.
    pub pegs_left: PegsLeft,
    pub prospects: Prospects,
    pub jumps: Vec<JumpAdvice>,
    /// The jump with the best P(one peg) for a random player (the first of equals), if any
    /// jump leaves a chance of one peg.
    pub best: Option<usize>,
    /// The order of the board's symmetry group the coach reduced by (a report shows it).
    pub symmetry_order: usize,
}

/// Hears of the coach's progress.
type Reporter<'a> = Box<dyn FnMut(&Progress) + Send + 'a>;

/// Computes coach answers for positions of one board under one random player.
pub struct Coach<'a> {
    board: &'a Board,
    moves: MoveTable,
    group: SymmetryGroup,
    children: Children,
    /// For each element `g`, the permutation of holes undoing it.
    undo: Vec<Vec<u8>>,
    /// How a jump's class and element share its edge's word.
    code: EdgeCode,
    policy: Policy,
    cancel: Cancel,
    max_positions: usize,
    /// The memory budget that set `max_positions`, where it is lower than the coach's own limit.
    memory_budget: Option<u64>,
    /// The most positions a future is kept whole for (see [`Coach::future`]).
    max_kept: usize,
    /// Hears of every layer found and every layer valued.
    progress: Mutex<Reporter<'a>>,
}

/// P(one peg left) and expected pegs left of a distribution of pegs left.
fn odds_from(pegs_left: &PegsLeft) -> Odds {
    let expected_pegs_left = pegs_left_moment(pegs_left.iter().map(|(n, p)| (*n, p)), 1);
    let one_peg = pegs_left.iter().find(|(n, _)| *n == 1).map_or_else(Rational::new, |(_, p)| p.clone());
    Odds { one_peg, expected_pegs_left }
}

/// A layer's lcm of move totals and, for each total, lcm / total (see [`factors`]).
type Factors = (Integer, HashMap<u64, Factor>);

/// A position's future as the backward pass valued it: `layers[k]` holds the positions k
/// jumps below it (`layers[0]` the position itself), each with its jumps and values, as deep
/// as was kept, and `pegs_left` the position's P(n pegs left). Kept whole (see
/// [`Coach::future`]), it answers any position it holds without a new search
/// ([`Coach::advise_within`]).
pub struct Future {
    layers: Vec<LayerValues>,
    /// Each layer's lcm of move totals, for a forward pass from a position below the root.
    factors: Vec<Factors>,
    pegs_left: PegsLeft,
}

impl Future {
    /// The position whose future this is.
    pub fn root(&self) -> Pegs {
        self.layers[0].layer.positions[0]
    }

    /// The positions (up to symmetry) it holds.
    pub fn positions(&self) -> usize {
        self.layers.iter().map(|l| l.layer.positions.len()).sum()
    }

    /// Whether it keeps every distribution of pegs left (a small future): the positions below
    /// the root are then answered without a forward pass.
    pub fn keeps_distributions(&self) -> bool {
        self.layers.get(1).is_none_or(|l| l.kept == Kept::PegsLeft)
    }
}

/// What the backward pass keeps of each position of a future of `classes` classes: the
/// forward pass pays for itself on a large future; on a small one its passes over the cores
/// cost more than keeping every position's distribution.
fn kept_for(classes: usize) -> Kept {
    if classes >= FORWARD_FROM { Kept::Odds } else { Kept::PegsLeft }
}

/// How much of a future the backward pass keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// The root and the layer below it: one answer's worth.
    Top,
    /// Every layer: answers for every position below the root.
    All,
}

impl<'a> Coach<'a> {
    pub fn new(board: &'a Board, policy: Policy) -> Coach<'a> {
        let group = SymmetryGroup::of_board(board);
        debug_assert!(group.perms()[IDENTITY].iter().enumerate().all(|(h, &g)| usize::from(g) == h));
        let undo = (0..group.order()).map(|g| group.perms()[group.inverse(g)].to_vec()).collect();
        let moves = MoveTable::new(board);
        Coach {
            board,
            children: Children::new(&moves, &group),
            code: EdgeCode::for_order(group.order()),
            moves,
            group,
            undo,
            policy,
            cancel: Cancel::new(),
            max_positions: MAX_POSITIONS,
            memory_budget: None,
            max_kept: usize::MAX,
            progress: Mutex::new(Box::new(|_| {})),
        }
    }

    /// Tells `progress` of every layer of positions found (stage `CoachFuture`) and valued
    /// (`CoachValues`), for a long answer.
    pub fn with_progress(self, progress: impl FnMut(&Progress) + Send + 'a) -> Coach<'a> {
        Coach { progress: Mutex::new(Box::new(progress)), ..self }
    }

    fn report(&self, stage: Stage, layer: &Layer) {
        let pegs = layer.positions.first().map_or(0, |p| p.count());
        (self.progress.lock().expect("no reporter panics"))(&Progress {
            stage,
            pegs,
            positions: layer.positions.len() as u64,
            classes: false,
            sent: Vec::new(),
            pass: crate::engine::Pass::ONLY,
            start: None,
        });
    }

    /// Keeps a future whole (see [`Coach::future`]) only where it holds at most `max_kept`
    /// positions.
    pub fn with_keep_limit(mut self, max_kept: usize) -> Coach<'a> {
        self.max_kept = max_kept;
        self
    }

    /// Refuses positions whose future holds more than `max_positions` positions.
    pub fn with_limit(mut self, max_positions: usize) -> Coach<'a> {
        self.max_positions = max_positions;
        self
    }

    /// Refuses, as well, positions whose future would not fit `bytes` at its peak (at
    /// [`PEAK_BYTES_PER_POSITION`] a position): refused in words where the system would
    /// otherwise refuse the memory mid-answer and end the process.
    pub fn with_memory_budget(mut self, bytes: u64) -> Coach<'a> {
        let fits = usize::try_from(bytes / PEAK_BYTES_PER_POSITION).unwrap_or(usize::MAX);
        if fits < self.max_positions {
            (self.max_positions, self.memory_budget) = (fits, Some(bytes));
        }
        self
    }

    /// Stops the work (with [`Error::Interrupted`]) once `cancel` is cancelled: a page that
    /// went away, a budget spent, Ctrl-C.
    pub fn with_cancel(mut self, cancel: Cancel) -> Coach<'a> {
        self.cancel = cancel;
        self
    }

    fn stopped(&self) -> Error {
        Error::Interrupted { done: "the coach stopped before its answer".into() }
    }

    /// Every legal jump from `pos` with its odds and prospects.
    pub fn advise(&self, pos: Pegs) -> Result<Advice, Error> {
        let pos = pos & self.board.full();
        let future = self.evaluate(pos, Keep::Top)?;
        self.advise_within(&future, pos).expect("a future holds its root and the layer below it")
    }

    /// The whole future of `pos`, valued and kept: every position below it is answered from
    /// it by [`Coach::advise_within`], without a new search. It takes more memory than one
    /// answer (every layer's values are kept, not two: see [`BYTES_PER_KEPT_POSITION`]), so
    /// a future of more positions than the keep limit ([`Coach::with_keep_limit`]) is kept as
    /// one answer keeps it: the root and the layer below it.
    pub fn future(&self, pos: Pegs) -> Result<Future, Error> {
        self.evaluate(pos & self.board.full(), Keep::All)
    }

    /// The advice for `pos` from `future`, or `None` if `future` does not hold it (it is not
    /// the root or a position below it, or the layer below it was not kept). Below the root,
    /// the position's odds and prospects and its jumps' are read from the values kept; where
    /// the future is large enough for the coach to keep only the odds (see
    /// `FORWARD_FROM`), its distribution of pegs left takes a forward pass from it over the
    /// jumps kept (no search and no backward pass).
    pub fn advise_within(&self, future: &Future, pos: Pegs) -> Option<Result<Advice, Error>> {
        let pos = pos & self.board.full();
        let root = future.root();
        let depth = root.count().checked_sub(pos.count())? as usize;
        let layer = future.layers.get(depth)?;
        let (i, element) = match depth {
            // The root's layer holds the root itself, not its class.
            0 => (pos == root).then_some((0, IDENTITY))?,
            _ => self.locate(layer, pos)?,
        };
        let below = future.layers.get(depth + 1);
        if below.is_none() && self.moves.legal(pos).next().is_some() {
            return None;
        }
        let pegs_left = match (depth, layer.kept) {
            (0, _) => Ok(future.pegs_left.clone()),
            (_, Kept::PegsLeft) => Ok(layer.pegs_left(i)),
            (_, Kept::Odds) => {
                let layers: Vec<&Layer> = future.layers[depth..].iter().map(|l| &l.layer).collect();
                self.pegs_left_forward(&layers, &future.factors[depth..], i)
            }
        };
        Some(
            pegs_left
                .map(|pegs_left| self.advice_at(pos, self.oriented(layer, i, element), pegs_left, below)),
        )
    }

    /// The advice for `pos`, given its prospects and P(n pegs left) and the values of the
    /// layer below it (which holds the class of every position its jumps lead to).
    fn advice_at(
        &self,
        pos: Pegs,
        prospects: Prospects,
        pegs_left: PegsLeft,
        below: Option<&LayerValues>,
    ) -> Advice {
        let mut jumps = Vec::new();
        for j in self.moves.legal(pos) {
            let layer = below.expect("a position with a jump has children");
            let (i, element) = self.find(layer, self.moves.apply(pos, j));
            let jump = self.moves.jumps()[j];
            jumps.push(JumpAdvice {
                from: jump.from,
                over: jump.over,
                to: jump.to,
                odds: layer.odds(i),
                prospects: self.oriented(layer, i, element),
            });
        }
        // Where no jump leaves a chance, none is best.
        let chances = (0..jumps.len()).filter(|&i| jumps[i].odds.one_peg > 0);
        let best = chances.fold(None, |best: Option<usize>, i| match best {
            Some(b) if jumps[b].odds.one_peg >= jumps[i].odds.one_peg => Some(b),
            _ => Some(i),
        });
        let symmetry_order = self.group.order();
        Advice {
            position: pos,
            odds: odds_from(&pegs_left),
            pegs_left,
            prospects,
            jumps,
            best,
            symmetry_order,
        }
    }

    /// The index of `pos`'s class in `layer` (sorted, below the root), and the element taking
    /// `pos` to it.
    fn find(&self, layer: &LayerValues, pos: Pegs) -> (usize, usize) {
        self.locate(layer, pos).expect("the layer below holds every child's class")
    }

    /// [`Coach::find`], or `None` where `layer` does not hold `pos`'s class.
    fn locate(&self, layer: &LayerValues, pos: Pegs) -> Option<(usize, usize)> {
        let (class, element) = self.group.canonical_with_element(pos);
        layer.layer.positions.binary_search(&class).ok().map(|i| (i, element))
    }

    /// The prospects of class `i` of `layer` for the position that `element` takes to it.
    fn oriented(&self, layer: &LayerValues, i: usize, element: usize) -> Prospects {
        let undo = &self.undo[element];
        let mut wins_by_hole: Vec<(u8, Integer)> =
            layer.wins(i).map(|(h, n)| (undo[h], to_integer(n))).collect();
        wins_by_hole.sort_unstable();
        Prospects { wins_by_hole }
    }

    /// What perfect play from `pos` can still do: the backward pass alone (no forward pass
    /// for the position's distribution, which a large future would take).
    pub fn prospects_of(&self, pos: Pegs) -> Result<Prospects, Error> {
        let layers = self.layers_from(self.checked_root(pos & self.board.full())?)?;
        let factors: Vec<Factors> = layers.iter().map(|layer| self.factors_of(layer)).collect();
        let kept = kept_for(layers.iter().map(|l| l.positions.len()).sum());
        let top = self.layers_valued(layers, kept, Keep::Top, &factors)?;
        Ok(self.oriented(&top[0], 0, IDENTITY))
    }

    fn too_many(&self) -> Error {
        let why = match self.memory_budget {
            Some(bytes) => {
                format!("more than the coach can hold in the memory budget of {}", render_bytes(bytes))
            }
            None => "too many for the coach".to_string(),
        };
        Error::FutureTooLarge(format!(
            "this position's future holds more than {} positions up to symmetry or {} jumps between them: {why}",
            grouped(self.max_positions as u64),
            grouped((self.max_positions as u64).saturating_mul(10))
        ))
    }

    /// The future of `root`, as much of it as `keep` says, keeping below the root the odds
    /// of a large future and the distributions of a small one.
    fn evaluate(&self, root: Pegs, keep: Keep) -> Result<Future, Error> {
        let layers = self.layers_from(self.checked_root(root)?)?;
        let classes: usize = layers.iter().map(|l| l.positions.len()).sum();
        let keep = if classes > self.max_kept { Keep::Top } else { keep };
        self.values_of(layers, kept_for(classes), keep)
    }

    /// `root`, where the coach can value it (a jump's 16-bit index is the board's limit:
    /// `Board::new` refuses more jumps).
    fn checked_root(&self, root: Pegs) -> Result<Pegs, Error> {
        // Slot n - 1 holds P(n pegs left): a game leaves at least one.
        if root.count() == 0 {
            return Err(Error::Invalid("the position has no peg".into()));
        }
        Ok(root)
    }

    /// The values of the layers below a root (`layers[0]`), keeping `kept` of each position
    /// and `keep` of the layers.
    fn values_of(&self, layers: Vec<Layer>, kept: Kept, keep: Keep) -> Result<Future, Error> {
        // Each layer's lcm of move totals, once for both passes.
        let factors: Vec<Factors> = layers.iter().map(|layer| self.factors_of(layer)).collect();
        let forward = match kept {
            Kept::Odds => Some(self.pegs_left_forward(&layers.iter().collect::<Vec<_>>(), &factors, 0)?),
            Kept::PegsLeft => None,
        };
        let valued = self.layers_valued(layers, kept, keep, &factors)?;
        let pegs_left = forward.unwrap_or_else(|| valued[0].pegs_left(0));
        Ok(Future { layers: valued, factors, pegs_left })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Keeping only the odds below a position (its distribution by the forward pass) and
    /// keeping every distribution give the same values, for every class of the two layers
    /// below the position too, under uniform and non-uniform play.
    #[test]
    fn keeping_the_odds_or_the_distributions_agrees() {
        use crate::solitaire::board::builtin;
        use crate::solitaire::position::play;
        for (board, start, moves) in
            [("triangle5", 0, ""), ("triangle5", 4, "L-H-E,N-M-L"), ("triangle6", 3, "A-B-D")]
        {
            let board = builtin(board).unwrap();
            let pos = play(&board, start, moves).unwrap();
            for policy in [Policy::Uniform, Policy::PegFirst] {
                let coach = Coach::new(&board, policy);
                let [odds, pegs_left] = [Kept::Odds, Kept::PegsLeft]
                    .map(|k| coach.values_of(coach.layers_from(pos).unwrap(), k, Keep::All).unwrap());
                assert_eq!(odds.pegs_left, pegs_left.pegs_left);
                assert_eq!(odds.layers[0].odds(0), odds_from(&pegs_left.pegs_left));
                for (a, b) in odds.layers.iter().zip(&pegs_left.layers).skip(1) {
                    assert_eq!(a.kept, Kept::Odds);
                    for i in 0..a.layer.positions.len() {
                        assert_eq!(a.odds(i), b.odds(i));
                        assert_eq!(a.wins(i).collect::<Vec<_>>(), b.wins(i).collect::<Vec<_>>());
                    }
                }
            }
        }
    }

    /// A kept future answers every position below its root as a new answer for that position
    /// does, whether it keeps the odds (the distribution then by a forward pass from the
    /// position) or the distributions; positions it does not hold get no answer.
    #[test]
    fn a_kept_future_answers_every_position_it_holds() {
        use crate::solitaire::board::builtin;
        use crate::solitaire::position::play;
        let board = builtin("triangle5").unwrap();
        let root = play(&board, 4, "L-H-E").unwrap();
        for policy in [Policy::Uniform, Policy::PegFirst] {
            let coach = Coach::new(&board, policy);
            for kept in [Kept::Odds, Kept::PegsLeft] {
                let future = coach.values_of(coach.layers_from(root).unwrap(), kept, Keep::All).unwrap();
                // Every position below the root, not just the classes kept.
                let (mut layer, mut answered) = (vec![root], 0);
                while !layer.is_empty() {
                    for &pos in &layer {
                        let kept = coach.advise_within(&future, pos).expect("held").unwrap();
                        assert_eq!(kept, coach.advise(pos).unwrap());
                        answered += 1;
                    }
                    let moves = &coach.moves;
                    let next: BTreeSet<Pegs> =
                        layer.iter().flat_map(|&p| moves.legal(p).map(move |j| moves.apply(p, j))).collect();
                    layer = next.into_iter().collect();
                }
                assert!(answered > 100, "only {answered} positions below the root");
                // Another start's position with as many pegs, and the root's mirror image.
                let elsewhere = play(&board, 0, "F-C-A,D-E-F,A-B-D").unwrap();
                assert!(coach.advise_within(&future, elsewhere).is_none());
                let mirror =
                    (0..coach.group.order()).map(|g| coach.group.apply(g, root)).find(|&m| m != root);
                assert!(coach.advise_within(&future, mirror.unwrap()).is_none());
            }
        }
        // One answer's future holds the root, not the positions below it; so does a future
        // past the keep limit.
        let coach = Coach::new(&board, Policy::Uniform);
        let child = coach.moves.apply(root, coach.moves.legal(root).next().unwrap());
        let top = coach.evaluate(root, Keep::Top).unwrap();
        assert!(coach.advise_within(&top, child).is_none());
        let held = coach.future(root).unwrap();
        let positions = held.positions();
        assert!(coach.advise_within(&held, child).is_some());
        let coach = coach.with_keep_limit(positions - 1);
        let top = coach.future(root).unwrap();
        assert_eq!(top.positions(), 1 + top.layers[1].layer.positions.len());
        assert!(coach.advise_within(&top, child).is_none());
        assert_eq!(coach.advise_within(&top, root).unwrap().unwrap(), coach.advise(root).unwrap());
        assert!(coach.with_keep_limit(positions).future(root).unwrap().layers.len() > 2);
    }

    /// Every recorded jump names the element that takes the position it leads to onto the
    /// class it records, on a board whose group (384 elements) a byte cannot number.
    #[test]
    fn each_jump_records_the_element_onto_its_class() {
        let board = crate::solitaire::board::lines(&[3, 3, 3, 3]);
        let coach = Coach::new(&board, Policy::Uniform);
        assert_eq!(coach.group.order(), 384);
        let mut most = 0;
        for root in [board.full().without(1).without(4), board.full().without(0).without(5).without(7)] {
            let layers = coach.layers_from(root).unwrap();
            for (layer, next) in layers.iter().zip(&layers[1..]) {
                assert!(layer.jumps.iter().all(Vec::is_empty), "uniform play keeps no jump's index");
                for (i, &p) in layer.positions.iter().enumerate() {
                    // Each jump's class, undone by the inverse of its element, is the
                    // position a jump leads to (jumps in no particular order).
                    let mut undone: Vec<Pegs> = layer
                        .edges
                        .row(i)
                        .iter()
                        .map(|&e| {
                            let class = next.positions[coach.code.child(e) as usize];
                            coach.group.apply(coach.group.inverse(coach.code.element(e)), class)
                        })
                        .collect();
                    let mut children: Vec<Pegs> =
                        coach.moves.legal(p).map(|j| coach.moves.apply(p, j)).collect();
                    undone.sort_unstable();
                    children.sort_unstable();
                    assert_eq!(undone, children);
                    most = layer.edges.row(i).iter().map(|&e| coach.code.element(e)).fold(most, usize::max);
                }
            }
        }
        assert!(most > 255, "the elements met stay below 256 ({most}): the test would not see a byte");
    }
}
