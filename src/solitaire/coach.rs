//! The coach: every legal jump from a position, with what it does to a random player's
//! exact odds (P(one peg left), expected pegs left), whether one peg can still be reached
//! with perfect play and in which holes, and how many move sequences still win.
//!
//! Positions are given as jumps played from a start (`F-C-A,D-E-F`, each checked) or as the
//! holes holding pegs. One backward pass over the positions the position can reach serves
//! every jump (their futures overlap): layer by layer from the fewest pegs, each position's
//! P(n pegs left) as integers over one denominator per layer (the engine's representation,
//! so no fraction is reduced until the answer), and its winning paths by finish hole. A
//! forward search finds the layers first, with each position's jumps as indices into the
//! next layer; only two layers of values are held at once.

use super::board::Board;
use super::exact::{Progress, Stage};
use super::moves::MoveTable;
use super::pegs::Pegs;
use super::policy::Policy;
use crate::error::Error;
use crate::render::number::grouped;
use hashbrown::HashMap;
use pegchain_engine::Cancel;
use rug::{Integer, Rational};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// The most positions a coach answer follows by default (about a minute and 2 GB): past it,
/// a position has too large a future to answer here (`exact --position` answers for it
/// alone). [`Coach::with_limit`] sets another.
pub const MAX_POSITIONS: usize = 20_000_000;

/// What random play from a position leads to, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// P(one peg left).
    pub one_peg: Rational,
    pub expected_pegs_left: Rational,
    /// P(n pegs left), n ascending, zeros left out.
    pub pegs_left: Vec<(u32, Rational)>,
}

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
    pub prospects: Prospects,
    pub jumps: Vec<JumpAdvice>,
    /// The jump with the best P(one peg) for a random player (the first of equals), if any.
    pub best: Option<usize>,
}

/// Hears of the coach's progress.
type Reporter<'a> = Box<dyn FnMut(&Progress) + 'a>;

/// Computes coach answers for positions of one board under one random player.
pub struct Coach<'a> {
    board: &'a Board,
    moves: MoveTable,
    policy: Policy,
    cancel: Cancel,
    max_positions: usize,
    /// Hears of every layer found and every layer valued.
    progress: RefCell<Reporter<'a>>,
}

/// Rows of items kept one after another in one vector (row i is `items[starts[i]..starts[i +
/// 1]]`): one allocation for a whole layer, not one per position.
struct Rows<T> {
    starts: Vec<u32>,
    items: Vec<T>,
}

impl<T> Rows<T> {
    fn new() -> Rows<T> {
        Rows { starts: vec![0], items: Vec::new() }
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.starts[i] as usize..self.starts[i + 1] as usize
    }

    fn row(&self, i: usize) -> &[T] {
        &self.items[self.range(i)]
    }

    /// Ends the row being filled (the items pushed since the last row ended).
    fn end_row(&mut self) {
        self.starts.push(self.items.len() as u32);
    }
}

/// Rows of numbers kept as their nonzero entries: a position's values are mostly zero (pegs
/// counts its games cannot end with, holes they cannot finish in), and its row is read whole
/// by every position that jumps to it. Keys and values apart, so that a value takes 16 bytes.
struct SparseRows {
    keys: Rows<u8>,
    values: Vec<Integer>,
}

impl SparseRows {
    fn new() -> SparseRows {
        SparseRows { keys: Rows::new(), values: Vec::new() }
    }

    fn row(&self, i: usize) -> impl Iterator<Item = (usize, &Integer)> {
        self.keys.row(i).iter().map(|&k| k as usize).zip(&self.values[self.keys.range(i)])
    }

    /// Appends the nonzero entries of `dense` (by index) as the next row, leaving `dense` all
    /// zeros.
    fn push_nonzero(&mut self, dense: &mut [Integer]) {
        for (k, v) in dense.iter_mut().enumerate().filter(|(_, v)| !v.is_zero()) {
            self.keys.items.push(k as u8);
            self.values.push(std::mem::take(v));
        }
        self.keys.end_row();
    }
}

/// The positions of one layer (the same number of pegs), in the order they were found, with
/// their jumps: each the jump's index and the index of the position it leads to in the next
/// layer. Found once, by the search that finds the positions, so valuing them needs no move
/// generation and no lookup.
struct Layer {
    positions: Vec<Pegs>,
    edges: Rows<(u32, u32)>,
}

impl Layer {
    fn of(positions: Vec<Pegs>) -> Layer {
        Layer { positions, edges: Rows::new() }
    }
}

/// The values of one layer: P(n pegs left) of position i is its entry n of `numerators`
/// over `denominator`; its entry h of `wins` counts its move sequences that end with one peg,
/// in hole h.
struct LayerValues {
    layer: Layer,
    denominator: Integer,
    numerators: SparseRows,
    wins: SparseRows,
}

impl LayerValues {
    fn odds(&self, i: usize) -> Odds {
        let pegs_left: Vec<(u32, Rational)> = self
            .numerators
            .row(i)
            .map(|(pegs, n)| (pegs as u32, Rational::from((n.clone(), self.denominator.clone()))))
            .collect();
        let expected_pegs_left = pegs_left.iter().map(|(n, p)| Rational::from(p * *n)).sum();
        let one_peg = pegs_left.iter().find(|(n, _)| *n == 1).map_or_else(Rational::new, |(_, p)| p.clone());
        Odds { one_peg, expected_pegs_left, pegs_left }
    }

    fn prospects(&self, i: usize) -> Prospects {
        Prospects { wins_by_hole: self.wins.row(i).map(|(h, n)| (h as u8, n.clone())).collect() }
    }
}

impl<'a> Coach<'a> {
    pub fn new(board: &'a Board, policy: Policy) -> Coach<'a> {
        Coach {
            board,
            moves: MoveTable::new(board),
            policy,
            cancel: Cancel::new(),
            max_positions: MAX_POSITIONS,
            progress: RefCell::new(Box::new(|_| {})),
        }
    }

    /// Tells `progress` of every layer of positions found (stage `CoachFuture`) and valued
    /// (`CoachValues`), for a long answer.
    pub fn with_progress(self, progress: impl FnMut(&Progress) + 'a) -> Coach<'a> {
        Coach { progress: RefCell::new(Box::new(progress)), ..self }
    }

    fn report(&self, stage: Stage, layer: &Layer) {
        let pegs = layer.positions.first().map_or(0, |p| p.count());
        (self.progress.borrow_mut())(&Progress { stage, pegs, positions: layer.positions.len() as u64 });
    }

    /// Refuses positions whose future holds more than `max_positions` positions.
    pub fn with_limit(mut self, max_positions: usize) -> Coach<'a> {
        self.max_positions = max_positions;
        self
    }

    /// Stops the work (with [`Error::Interrupted`]) once `cancel` is cancelled: a page that
    /// went away, a budget spent, Ctrl-C.
    pub fn with_cancel(mut self, cancel: Cancel) -> Coach<'a> {
        self.cancel = cancel;
        self
    }

    fn check_cancel(&self) -> Result<(), Error> {
        if self.cancel.is_cancelled() {
            return Err(Error::Interrupted { done: "the coach stopped before its answer".into() });
        }
        Ok(())
    }

    /// Every legal jump from `pos` with its odds and prospects.
    pub fn advise(&mut self, pos: Pegs) -> Result<Advice, Error> {
        let pos = pos & self.board.full();
        let (here, children) = self.evaluate(pos)?;
        let mut jumps = Vec::new();
        for &(j, i) in here.layer.edges.row(0) {
            let jump = self.moves.jumps()[j as usize];
            let layer = children.as_ref().expect("a position with a jump has children");
            let i = i as usize;
            jumps.push(JumpAdvice {
                from: jump.from,
                over: jump.over,
                to: jump.to,
                odds: layer.odds(i),
                prospects: layer.prospects(i),
            });
        }
        let best = (0..jumps.len()).fold(None, |best: Option<usize>, i| match best {
            Some(b) if jumps[b].odds.one_peg >= jumps[i].odds.one_peg => Some(b),
            _ => Some(i),
        });
        Ok(Advice { position: pos, odds: here.odds(0), prospects: here.prospects(0), jumps, best })
    }

    /// What random play from `pos` leads to.
    pub fn odds_of(&mut self, pos: Pegs) -> Result<Odds, Error> {
        Ok(self.evaluate(pos)?.0.odds(0))
    }

    /// What perfect play from `pos` can still do.
    pub fn prospects_of(&mut self, pos: Pegs) -> Result<Prospects, Error> {
        Ok(self.evaluate(pos)?.0.prospects(0))
    }

    fn too_many(&self) -> Error {
        Error::Invalid(format!(
            "this position's future holds more than {} positions: too many for the coach (exact --position answers for one position)",
            grouped(self.max_positions as u64)
        ))
    }

    /// The values of `root` (a layer of one) and of its children (none if it has no jump).
    fn evaluate(&self, root: Pegs) -> Result<(LayerValues, Option<LayerValues>), Error> {
        let mut below: Option<LayerValues> = None;
        let layers = self.layers_from(root)?;
        for (k, layer) in layers.into_iter().enumerate().rev() {
            self.report(Stage::CoachValues, &layer);
            let values = self.layer_values(layer, below.as_ref())?;
            if k == 0 {
                return Ok((values, below));
            }
            below = Some(values);
        }
        unreachable!("the root's layer is the first")
    }

    /// The positions `root` can reach, by layers: `layers[k]` has k pegs fewer.
    fn layers_from(&self, root: Pegs) -> Result<Vec<Layer>, Error> {
        let mut layers = vec![Layer::of(vec![root])];
        let mut total = 1;
        loop {
            self.check_cancel()?;
            let (mut next, mut index) = (Vec::new(), HashMap::new());
            let layer = layers.last_mut().expect("the root's layer");
            for (i, &p) in layer.positions.iter().enumerate() {
                if i % 1024 == 1023 {
                    self.check_cancel()?;
                }
                for j in self.moves.legal(p) {
                    let child = self.moves.apply(p, j);
                    let c = *index.entry(child).or_insert_with(|| {
                        next.push(child);
                        next.len() as u32 - 1
                    });
                    layer.edges.items.push((j as u32, c));
                }
                layer.edges.end_row();
            }
            if next.is_empty() {
                return Ok(layers);
            }
            let next = Layer::of(next);
            self.report(Stage::CoachFuture, &next);
            total += next.positions.len();
            if total > self.max_positions {
                return Err(self.too_many());
            }
            layers.push(next);
        }
    }

    /// One layer's values from those of the layer below it (one peg fewer). Its denominator
    /// is the lcm of its move totals times the one below, so that a position with `total`
    /// over its jumps' weights has numerators (lcm / total) * sum(weight * child numerators).
    fn layer_values(&self, layer: Layer, below: Option<&LayerValues>) -> Result<LayerValues, Error> {
        let (jumps, holes) = (self.moves.jumps(), self.board.hole_count());
        let (mut legal, mut weights) = (Vec::new(), Vec::new());
        let jumps_of = |i: usize, legal: &mut Vec<usize>| {
            legal.clear();
            legal.extend(layer.edges.row(i).iter().map(|&(j, _)| j as usize));
        };
        let mut totals = BTreeSet::new();
        for i in 0..layer.positions.len() {
            jumps_of(i, &mut legal);
            if !legal.is_empty() {
                totals.insert(self.policy.weights(jumps, &legal, &mut weights));
            }
        }
        let lcm = totals.iter().fold(Integer::from(1), |l, &t| l.lcm(&Integer::from(t)));
        // lcm / total for each of the few totals, not for every position.
        let factors: HashMap<u64, Integer> = totals.iter().map(|&t| (t, Integer::from(&lcm / t))).collect();
        let denominator = match below {
            Some(b) => Integer::from(&lcm * &b.denominator),
            None => lcm.clone(),
        };
        let stride = layer.positions.first().map_or(0, |p| p.count() as usize + 1);
        let (mut numerators, mut wins) = (SparseRows::new(), SparseRows::new());
        let (mut num, mut won) = (vec![Integer::new(); stride], vec![Integer::new(); holes]);
        for (i, &p) in layer.positions.iter().enumerate() {
            if i % 1024 == 0 {
                self.check_cancel()?;
            }
            jumps_of(i, &mut legal);
            match below {
                Some(b) if !legal.is_empty() => {
                    let total = self.policy.weights(jumps, &legal, &mut weights);
                    for (&(_, c), &w) in layer.edges.row(i).iter().zip(&weights) {
                        for (pegs, x) in b.numerators.row(c as usize) {
                            num[pegs] += x * w;
                        }
                        for (hole, x) in b.wins.row(c as usize) {
                            won[hole] += x;
                        }
                    }
                    let factor = &factors[&total];
                    if *factor != 1 {
                        for a in num.iter_mut().filter(|a| !a.is_zero()) {
                            *a *= factor;
                        }
                    }
                }
                _ => {
                    num[stride - 1] = denominator.clone();
                    if let Some(h) = p.single_hole() {
                        won[h as usize] = Integer::from(1);
                    }
                }
            }
            numerators.push_nonzero(&mut num);
            wins.push_nonzero(&mut won);
        }
        Ok(LayerValues { layer, denominator, numerators, wins })
    }
}
