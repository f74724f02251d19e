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

use super::board::{Board, SymmetryGroup};
use super::exact::{Progress, Stage, pegs_left_moment};
use super::gather::Gathered;
use super::moves::{Children, MoveTable};
use super::pegs::Pegs;
use super::policy::Policy;
use super::scale::{Factor, factors};
use super::slots::{Full, SharedSlots};
use super::words::{cut, grow_to};
use crate::error::Error;
use crate::render::number::grouped;
use hashbrown::HashMap;
use pegchain_engine::Cancel;
use pegchain_engine::layered::Distinct;
use pegchain_engine::layered::limbs::{add_mul, add_mul_into_wider, limbs_for, prefetch, to_integer, write};
use rayon::prelude::*;
use rug::{Integer, Rational};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The group's identity: its elements are sorted, and the identity permutation comes first.
const IDENTITY: usize = 0;

/// Positions taken at a time, per task and between looks at the cancel token.
const CHUNK: usize = 1024;
/// Positions taken at a time by a task of the search; their jumps are kept as one part of
/// their layer's jumps.
const SEARCH_CHUNK: usize = 16 * 1024;

/// How many jumps ahead the search asks memory for the slot of a jump's class, as it puts
/// each class's rank in its jumps.
const REMAP_AHEAD: usize = 48;

/// How many positions ahead the search finds a position's children and asks memory for their
/// slots, before it looks them up (see [`Coach::piece_of`]).
const LOOKUP_AHEAD: usize = 2;

/// The lists of children the search holds at once: the one looked up and those ahead.
const RING: usize = LOOKUP_AHEAD + 1;

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
    /// The most positions a future is kept whole for (see [`Coach::future`]).
    max_kept: usize,
    /// Hears of every layer found and every layer valued.
    progress: Mutex<Reporter<'a>>,
}

/// Rows of items, in parts of [`SEARCH_CHUNK`] rows (row i is in part i / `SEARCH_CHUNK`):
/// each part the vector the piece of the search that found it filled, so a layer's jumps are
/// not copied into one.
struct Rows<T> {
    /// For each part, where each of its rows starts among its items, and where the last ends.
    starts: Vec<Vec<u32>>,
    parts: Vec<Vec<T>>,
}

impl<T> Rows<T> {
    fn new() -> Rows<T> {
        Rows { starts: Vec::new(), parts: Vec::new() }
    }

    fn row(&self, i: usize) -> &[T] {
        self.row_of(&self.parts, i)
    }

    /// Row i of `parts`, items one a row's item, cut as these rows' parts are.
    fn row_of<'p, U>(&self, parts: &'p [Vec<U>], i: usize) -> &'p [U] {
        let (part, k) = (i / SEARCH_CHUNK, i % SEARCH_CHUNK);
        let starts = &self.starts[part];
        &parts[part][starts[k] as usize..starts[k + 1] as usize]
    }
}

/// The set bits of a mask, ascending.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let bit = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            bit
        })
    }
}

/// What the backward pass keeps for each position, each value in a slot of its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    /// P(one peg left) in slot 0 and expected pegs left in slot 1: all a jump's line of the
    /// advice needs, two numbers a position where the distribution takes about seven.
    Odds,
    /// P(n pegs left) in slot n - 1, for every n: the distribution each position below the
    /// root shows, with no forward pass.
    PegsLeft,
}

impl Kept {
    /// Slots a row of a layer of positions with `pegs` pegs may fill.
    fn slots(self, pegs: usize) -> usize {
        match self {
            Kept::Odds => 2,
            Kept::PegsLeft => pegs,
        }
    }

    /// The values of a position with `pegs` pegs and no jump, by slot, as multiples of the
    /// layer's denominator: it ends where it is. No value of a position of `pegs` pegs is
    /// larger than the largest of them (an expected number of pegs left is at most `pegs`).
    fn ended(self, pegs: usize) -> Vec<(usize, u64)> {
        match self {
            Kept::Odds if pegs == 1 => vec![(0, 1), (1, 1)],
            Kept::Odds => vec![(1, pegs as u64)],
            Kept::PegsLeft => vec![(pegs - 1, 1)],
        }
    }
}

/// The values of some positions, a row each, kept as their nonzero entries in the engine's
/// fixed-width numbers (no heap number per value). A row is read whole by every position that
/// jumps to it, at random, so it lies in one place: a word whose bit s says the value in slot
/// s (see [`Kept`]) is not zero, a word whose bit h says some move sequences end with one peg
/// in hole h, those values' numerators (over the layer's denominator, `width` limbs each),
/// then, where there are wins, the width of their counts and the counts. Row i is
/// `data[starts[i]..starts[i + 1]]`.
struct ValueRows {
    starts: Vec<u32>,
    data: Vec<u64>,
    width: usize,
    /// The most significant bits of any count of wins.
    wins_bits: u32,
}

impl ValueRows {
    fn new(width: usize) -> ValueRows {
        ValueRows { starts: vec![0], data: Vec::new(), width, wins_bits: 0 }
    }

    /// Row i's numerators by slot.
    #[inline(always)]
    fn numerators(&self, i: usize) -> impl Iterator<Item = (usize, &[u64])> {
        let at = self.starts[i] as usize;
        let mask = self.data[at];
        let limbs = &self.data[at + 2..at + 2 + mask.count_ones() as usize * self.width];
        Bits(mask).zip(limbs.chunks_exact(self.width))
    }

    /// Row i's counts of wins by finish hole.
    #[inline(always)]
    fn wins(&self, i: usize) -> impl Iterator<Item = (usize, &[u64])> {
        let at = self.starts[i] as usize;
        let (mask, holes) = (self.data[at], self.data[at + 1]);
        let from = at + 2 + mask.count_ones() as usize * self.width;
        let (width, counts) = match holes {
            0 => (1, &[][..]),
            _ => {
                let width = self.data[from] as usize;
                (width, &self.data[from + 1..from + 1 + holes.count_ones() as usize * width])
            }
        };
        Bits(holes).zip(counts.chunks_exact(width))
    }

    /// Appends a row: the nonzero entries of `numerators` (`width`-limb values by slot)
    /// named by `slots`, and of `wins` (`wins_width`-limb counts by hole) named by `holes`,
    /// leaving both zero.
    fn push(&mut self, numerators: &mut [u64], slots: u64, wins: &mut [u64], wins_width: usize, holes: u64) {
        let header = self.data.len();
        self.data.extend([0, 0]);
        for s in Bits(slots) {
            let value = &mut numerators[s * self.width..(s + 1) * self.width];
            if value.iter().any(|&l| l != 0) {
                self.data[header] |= 1 << s;
                self.data.extend_from_slice(value);
                value.fill(0);
            }
        }
        // Counts of wins take the limbs the row's largest needs.
        let top = |h: usize| wins[h * wins_width..(h + 1) * wins_width].iter().rposition(|&l| l != 0);
        if let Some(width) = Bits(holes).filter_map(top).max().map(|top| top + 1) {
            self.data.push(width as u64);
            for h in Bits(holes) {
                let count = &wins[h * wins_width..(h + 1) * wins_width];
                if let Some(top) = top(h) {
                    self.wins_bits = self.wins_bits.max(64 * top as u32 + 64 - count[top].leading_zeros());
                    self.data[header + 1] |= 1 << h;
                    self.data.extend_from_slice(&count[..width]);
                }
            }
        }
        Bits(holes).for_each(|h| wins[h * wins_width..(h + 1) * wins_width].fill(0));
        self.starts.push(self.data.len() as u32);
    }

    /// Asks memory for where row i starts: the first of the two reads ahead of a row.
    fn prefetch_start(&self, i: usize) {
        prefetch(self.starts.as_ptr().wrapping_add(i));
    }

    /// Asks memory for row i, once its start is at hand: one hint per cache line of 8 words.
    fn prefetch_row(&self, i: usize) {
        let (from, to) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        self.data[from..to].iter().step_by(8).for_each(|w| prefetch(w));
    }
}

/// A jump from a position: the index in the next layer of the class it leads to, and the
/// element `g` of the group that takes the position it leads to onto that class (so a peg
/// ending in hole `h` of the class ends in hole `g⁻¹(h)` of the position), in one word as
/// [`EdgeCode`] packs them. Which jump it is only a policy that weighs jumps asks, and only
/// its layers keep (see [`Layer`]). Four bytes: the layers' jumps are most of the coach's
/// memory, and each byte of it is written once and read twice or three times.
#[derive(Clone, Copy)]
struct Edge(u32);

/// How a board's jumps pack into an [`Edge`]: the element in the low bits (as many as the
/// group's order needs: 3 for the square and triangular boards' 8 and 6 symmetries, 10 for
/// `MAX_SYMMETRIES`), the child above them. A layer's children are named in the bits left:
/// 2^29 on the square boards, far more than the coach's limits let a layer hold.
#[derive(Clone, Copy)]
struct EdgeCode {
    element_bits: u32,
}

impl EdgeCode {
    fn for_order(order: usize) -> EdgeCode {
        EdgeCode { element_bits: usize::BITS - order.saturating_sub(1).leading_zeros() }
    }

    /// The most children (a layer's classes, or its table's slots while it is searched) an
    /// edge can name.
    fn most_children(self) -> usize {
        1 << (u32::BITS - self.element_bits)
    }

    fn pack(self, child: u32, element: usize) -> Edge {
        debug_assert!((child as usize) < self.most_children() && element < 1 << self.element_bits);
        Edge(child << self.element_bits | element as u32)
    }

    /// `edge` with another child, its element kept (a slot replaced by its class's rank).
    #[inline]
    fn with_child(self, edge: Edge, child: u32) -> Edge {
        self.pack(child, self.element(edge))
    }

    #[inline]
    fn child(self, edge: Edge) -> u32 {
        edge.0 >> self.element_bits
    }

    #[inline]
    fn element(self, edge: Edge) -> usize {
        (edge.0 & ((1 << self.element_bits) - 1)) as usize
    }
}

/// The positions of one layer (the same number of pegs), in the order they were found, with
/// their jumps. Found once, by the search that finds the positions, so valuing them needs no
/// move generation and no lookup.
struct Layer {
    positions: Vec<Pegs>,
    edges: Rows<Edge>,
    /// Each jump's index in the move table, parts as `edges`' parts: kept only under a policy
    /// that weighs jumps (uniform play's weights are all one).
    jumps: Vec<Vec<u16>>,
}

impl Layer {
    fn of(positions: Vec<Pegs>) -> Layer {
        Layer { positions, edges: Rows::new(), jumps: Vec::new() }
    }

    /// The indices of position i's jumps, where the layer keeps them.
    fn jumps(&self, i: usize) -> &[u16] {
        self.edges.row_of(&self.jumps, i)
    }
}

/// The values of one layer, in parts of [`CHUNK`] positions (valued side by side).
struct LayerValues {
    layer: Layer,
    kept: Kept,
    denominator: Integer,
    parts: Vec<ValueRows>,
}

impl LayerValues {
    /// Position i's values: its numerators by slot, over the layer's denominator.
    #[inline(always)]
    fn numerators(&self, i: usize) -> impl Iterator<Item = (usize, &[u64])> {
        self.parts[i / CHUNK].numerators(i % CHUNK)
    }

    /// Position i's move sequences that end with one peg, by the hole it ends in.
    #[inline(always)]
    fn wins(&self, i: usize) -> impl Iterator<Item = (usize, &[u64])> {
        self.parts[i / CHUNK].wins(i % CHUNK)
    }

    /// Reads ahead of position i's values, in two stages: where its row starts, then (a
    /// position later) the row. A layer's positions read their children's rows in scattered
    /// order, a cache miss each without this.
    fn prefetch(&self, i: usize, stage: Prefetch) {
        let (part, row) = (&self.parts[i / CHUNK], i % CHUNK);
        match stage {
            Prefetch::Start => part.prefetch_start(row),
            Prefetch::Row => part.prefetch_row(row),
        }
    }

    /// Limbs enough for any count of wins of this layer.
    fn wins_width(&self) -> usize {
        limbs_for(self.parts.iter().map(|p| p.wins_bits).max().unwrap_or(1))
    }

    /// Position i's values by slot, as fractions.
    fn slots(&self, i: usize) -> impl Iterator<Item = (usize, Rational)> {
        self.numerators(i).map(|(slot, n)| (slot, Rational::from((to_integer(n), self.denominator.clone()))))
    }

    fn odds(&self, i: usize) -> Odds {
        match self.kept {
            Kept::Odds => {
                let mut slots = [Rational::new(), Rational::new()];
                self.slots(i).for_each(|(slot, value)| slots[slot] = value);
                let [one_peg, expected_pegs_left] = slots;
                Odds { one_peg, expected_pegs_left }
            }
            Kept::PegsLeft => odds_from(&self.pegs_left(i)),
        }
    }

    /// P(n pegs left) of position i, for a layer that keeps it.
    fn pegs_left(&self, i: usize) -> PegsLeft {
        debug_assert_eq!(self.kept, Kept::PegsLeft);
        self.slots(i).map(|(slot, p)| (slot as u32 + 1, p)).collect()
    }
}

/// P(one peg left) and expected pegs left of a distribution of pegs left.
fn odds_from(pegs_left: &PegsLeft) -> Odds {
    let expected_pegs_left = pegs_left_moment(pegs_left.iter().map(|(n, p)| (*n, p)), 1);
    let one_peg = pegs_left.iter().find(|(n, _)| *n == 1).map_or_else(Rational::new, |(_, p)| p.clone());
    Odds { one_peg, expected_pegs_left }
}

/// The jumps of a piece of a layer, found side by side with the other pieces: where each
/// position's jumps start (and where the last ends) and the jumps, their child the slot of
/// the class they lead to in the layer's [`SharedSlots`] until the layer is ranked.
struct Piece {
    starts: Vec<u32>,
    edges: Vec<Edge>,
    /// Each jump's index, where the policy weighs jumps (see [`Layer`]).
    jumps: Option<Vec<u16>>,
}

impl Piece {
    /// An empty piece with room for `positions` and `edges` jumps, keeping each jump's index
    /// if `weighted`.
    fn new(positions: usize, edges: usize, weighted: bool) -> Piece {
        let mut starts = Vec::with_capacity(positions + 1);
        starts.push(0);
        Piece { starts, edges: Vec::with_capacity(edges), jumps: weighted.then(|| Vec::with_capacity(edges)) }
    }

    /// Adds a position's jumps, each a class, the jump and the element onto the class, each
    /// class to `met`: the number of classes it added there.
    fn add(&mut self, met: &SharedSlots, code: EdgeCode, jumps: &[(Pegs, u16, u16)]) -> Result<usize, Full> {
        let mut added = 0;
        for &(class, jump, element) in jumps {
            let (new, child) = met.slot_or_add(class)?;
            added += usize::from(new);
            self.edges.push(code.pack(child, element as usize));
            if let Some(kept) = &mut self.jumps {
                kept.push(jump);
            }
        }
        self.starts.push(self.edges.len() as u32);
        Ok(added)
    }
}

/// The room a search is made with, a position's worth of jumps (for a piece) and of classes
/// (for the layer's table), in sixteenths, from the layer before: made large enough at once,
/// a piece's vectors are not copied as they grow, nor the layer searched again.
#[derive(Clone, Copy)]
struct Room {
    edges: usize,
    classes: usize,
}

impl Default for Room {
    fn default() -> Room {
        Room { edges: 16, classes: 16 }
    }
}

impl Room {
    /// The room a layer of `positions` with `edges` jumps into `classes` classes took, an
    /// eighth more.
    fn per_position(edges: usize, classes: usize, positions: usize) -> Room {
        let per = |n: usize| (18 * n).div_ceil(positions.max(1)).max(1);
        Room { edges: per(edges), classes: per(classes) }
    }

    fn edges(self, positions: usize) -> usize {
        positions * self.edges / 16
    }

    fn classes(self, positions: usize) -> usize {
        positions * self.classes / 16
    }
}

/// A layer's lcm of move totals and, for each total, lcm / total (see [`factors`]).
type Factors = (Integer, HashMap<u64, Factor>);

/// Numerators of one width, a row a position: a layer's probabilities in the forward pass.
struct Numerators {
    width: usize,
    data: Vec<u64>,
}

impl Numerators {
    fn row(&self, i: usize) -> &[u64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }
}

/// The two stages of a read ahead of a position's values (see [`LayerValues::prefetch`]).
#[derive(Clone, Copy)]
enum Prefetch {
    Start,
    Row,
}

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
        Error::Invalid(format!(
            "this position's future holds more than {} positions up to symmetry or {} jumps between them: too many for the coach (exact --position answers for one position)",
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

    /// The backward pass over `layers`: each layer's values (`kept` of each position), the
    /// root's first, keeping `keep` of them.
    fn layers_valued(
        &self,
        layers: Vec<Layer>,
        kept: Kept,
        keep: Keep,
        factors: &[Factors],
    ) -> Result<Vec<LayerValues>, Error> {
        // The layers valued, the lowest first.
        let mut valued: Vec<LayerValues> = Vec::new();
        for ((k, layer), factors) in layers.into_iter().enumerate().zip(factors).rev() {
            self.report(Stage::CoachValues, &layer);
            let values = self.layer_values(layer, kept, factors, valued.last())?;
            // One answer needs the root and the layer below it: a layer is dropped as soon as
            // the one above it is valued.
            if keep == Keep::Top && k > 0 {
                valued.clear();
            }
            valued.push(values);
        }
        valued.reverse();
        Ok(valued)
    }

    /// The positions `root` can reach, by layers: `layers[k]` has k pegs fewer; below the
    /// root, one position per class of the whole group.
    fn layers_from(&self, root: Pegs) -> Result<Vec<Layer>, Error> {
        let mut layers = vec![Layer::of(vec![root])];
        let (mut total, mut edges) = (1, 0);
        let mut expected = Room::default();
        let mut met = SharedSlots::default();
        let hole_bits = u64::BITS - self.board.full().0.leading_zeros();
        loop {
            let layer = layers.last_mut().expect("the root's layer");
            // A future too large is refused as soon as the search of a layer finds more jumps
            // than it may: a layer's jumps are numbered in 32 bits, whatever limit a caller sets.
            let layer_most = self.max_positions.saturating_mul(2).min(u32::MAX as usize);
            let most = layer_most.min(self.max_positions.saturating_mul(10).saturating_sub(edges));
            let (mut pieces, classes) = self.jumps_of(&layer.positions, most, expected, &mut met)?;
            let count: usize = pieces.iter().map(|p| p.edges.len()).sum();
            // The next layer's pieces and table are made about as large as this layer's
            // turned out.
            expected = Room::per_position(count, classes, layer.positions.len());
            edges += count;
            // The classes in order (positions near each other in a layer have children near
            // each other, which the values passes read), and each jump's child its class's
            // index among them.
            let next = met.rank(classes, hole_bits);
            pieces.par_iter_mut().for_each(|p| {
                // The slots are read at random: each is asked for some jumps ahead.
                let code = self.code;
                for k in 0..p.edges.len() {
                    if let Some(&ahead) = p.edges.get(k + REMAP_AHEAD) {
                        met.prefetch_slot(code.child(ahead));
                    }
                    let slot = code.child(p.edges[k]);
                    p.edges[k] = code.with_child(p.edges[k], met.rank_at(slot));
                }
            });
            for p in pieces {
                layer.edges.starts.push(p.starts);
                layer.edges.parts.push(p.edges);
                layer.jumps.push(p.jumps.unwrap_or_default());
            }
            if count == 0 {
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

    /// The jumps of `positions`, piece by piece (see [`Piece`]), and the number of classes
    /// they lead to, each in `met`: the jump's index, the element taking the position it leads
    /// to onto its class, and the class's slot. `met` is made for the classes `expected`
    /// says; one that fills up past three quarters is made four times as large and the layer
    /// searched again. More than `most` jumps in all are refused as a future too large, as
    /// soon as the pieces found so far hold them.
    fn jumps_of(
        &self,
        positions: &[Pegs],
        most: usize,
        expected: Room,
        met: &mut SharedSlots,
    ) -> Result<(Vec<Piece>, usize), Error> {
        let mut room = expected.classes(positions.len()).max(64);
        loop {
            // A jump names its class's slot in the bits its edge leaves (see [`EdgeCode`]):
            // only a board of many symmetries with a layer of millions of classes runs out.
            if SharedSlots::size_for(room) > self.code.most_children() {
                return Err(Error::Invalid(format!(
                    "a layer of this position's future holds more classes than the coach can number on a board of {} symmetries",
                    self.group.order()
                )));
            }
            met.reset(room);
            let met = &*met;
            let (found, added) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let full = AtomicBool::new(false);
            let too_many = || found.load(Ordering::Relaxed) > most;
            let pieces: Option<Vec<Piece>> = positions
                .par_chunks(SEARCH_CHUNK)
                .map_init(
                    || std::array::from_fn(|_| Vec::new()),
                    |ahead, chunk| {
                        if self.cancel.is_cancelled() || too_many() || full.load(Ordering::Relaxed) {
                            return None;
                        }
                        let piece = self.piece_of(chunk, expected, met, ahead);
                        match piece {
                            Ok((piece, new)) if met.holds(added.fetch_add(new, Ordering::Relaxed) + new) => {
                                found.fetch_add(piece.edges.len(), Ordering::Relaxed);
                                Some(piece)
                            }
                            // A table too full stops every piece.
                            _ => {
                                full.store(true, Ordering::Relaxed);
                                None
                            }
                        }
                    },
                )
                .collect();
            if too_many() {
                return Err(self.too_many());
            }
            if full.load(Ordering::Relaxed) {
                room = 4 * room.max(added.load(Ordering::Relaxed));
                continue;
            }
            let pieces = pieces.ok_or_else(|| self.stopped())?;
            return Ok((pieces, added.into_inner()));
        }
    }

    /// The jumps of a chunk of positions and the number of classes they added to `met`
    /// (`ahead` holds the jumps of the positions ahead, in turn).
    fn piece_of(
        &self,
        chunk: &[Pegs],
        expected: Room,
        met: &SharedSlots,
        ahead: &mut [Vec<(Pegs, u16, u16)>; RING],
    ) -> Result<(Piece, usize), Full> {
        let weighted = self.weighs_jumps();
        let mut piece = Piece::new(chunk.len(), expected.edges(chunk.len()), weighted);
        // A position's children are found, and their slots asked for, two positions before
        // they are looked up: the look-ups miss the cache (the table outgrows it), and misses
        // asked for together overlap.
        let mut new = 0;
        for (k, &p) in chunk.iter().enumerate() {
            let found = &mut ahead[k % RING];
            found.clear();
            self.children.each(&self.moves, &self.group, p, |j, class, element| {
                met.prefetch(class);
                found.push((class, j as u16, element as u16));
            });
            if k >= LOOKUP_AHEAD {
                new += piece.add(met, self.code, &ahead[(k - LOOKUP_AHEAD) % RING])?;
            }
        }
        for k in chunk.len().saturating_sub(LOOKUP_AHEAD)..chunk.len() {
            new += piece.add(met, self.code, &ahead[k % RING])?;
        }
        Ok((piece, new))
    }

    /// The P(n pegs left) of position `from` of `layers[0]` by a forward pass over the jumps
    /// the search found (positions it cannot reach are passed over): each
    /// layer's probabilities as numerators over one denominator (the one above times the lcm
    /// of the layer's move totals), each class gathering from the jumps that lead to it, and
    /// the probability of the positions with no jump summed layer by layer. One number a
    /// jump, where keeping every position's distribution in the backward pass takes about
    /// seven; and a second way to the root's odds beside the backward pass's.
    fn pegs_left_forward(
        &self,
        layers: &[&Layer],
        factors: &[Factors],
        from: usize,
    ) -> Result<PegsLeft, Error> {
        // Each layer's rows are as wide as its masses once scaled, over the denominator of
        // the layer below: the masses are scaled where they are.
        let mut denominators = vec![Integer::from(1)];
        for (lcm, _) in &factors[..layers.len() - 1] {
            denominators.push(Integer::from(lcm * denominators.last().expect("the root's")));
        }
        let widths: Vec<usize> = denominators.iter().map(|d| limbs_for(d.significant_bits())).collect();
        let stride = |k: usize| widths[(k + 1).min(layers.len() - 1)];
        let mut mass = Numerators { width: stride(0), data: vec![0; layers[0].positions.len() * stride(0)] };
        mass.data[from * stride(0)] = 1;
        let mut pegs_left = Vec::new();
        // The layer before's numbers, their memory written again layer after layer (see
        // [`Coach::forward`]).
        let mut spare = Vec::new();
        for ((k, layer), (_, factors)) in layers.iter().enumerate().zip(factors) {
            if self.cancel.is_cancelled() {
                return Err(self.stopped());
            }
            self.report(Stage::CoachPegsLeft, layer);
            let ended = (0..layer.positions.len())
                .into_par_iter()
                .filter(|&u| layer.edges.row(u).is_empty())
                .fold(
                    || vec![0u64; mass.width + 1],
                    |mut sum, u| {
                        add_mul(&mut sum, mass.row(u), 1);
                        sum
                    },
                )
                .map(|sum| to_integer(&sum))
                .reduce(Integer::new, |a, b| a + b);
            if ended != 0 {
                let pegs = layer.positions[0].count();
                pegs_left.push((pegs, Rational::from((ended, denominators[k].clone()))));
            }
            let Some(next) = layers.get(k + 1) else { break };
            self.scale(layer, &mut mass, factors);
            let next_mass =
                self.forward(layer, next.positions.len(), &mass, stride(k + 1), std::mem::take(&mut spare));
            spare = std::mem::replace(&mut mass, next_mass).data;
        }
        pegs_left.reverse();
        Ok(pegs_left)
    }

    /// Each position's mass in `mass` times lcm / total, where it is (its row is wide
    /// enough for the product); a position with no jump keeps its mass, which no jump reads.
    fn scale(&self, layer: &Layer, mass: &mut Numerators, factors: &HashMap<u64, Factor>) {
        let width = mass.width;
        mass.data.par_chunks_mut(CHUNK * width).enumerate().for_each(|(c, rows)| {
            let (mut legal, mut weights) = (Vec::new(), Vec::new());
            for (u, row) in (c * CHUNK..).zip(rows.chunks_exact_mut(width)) {
                if row.iter().any(|&l| l != 0)
                    && let Some(total) = self.total(layer, u, &mut legal, &mut weights)
                {
                    factors[&total].scale_in_place(row);
                }
            }
        });
    }

    /// The numerators of the `classes` of the layer below `layer` (`width` limbs each) from
    /// `layer`'s scaled masses: each class the sum of weight times scaled mass over the
    /// jumps that lead to it. The next layer is cut into parts, one task's each (no two
    /// tasks write one number), each reading every jump of the layer and adding those that
    /// lead into its part (see [`Gathered`]). The numbers are written into `next`'s memory,
    /// whatever it holds: on this project's virtual machines a page first touched costs 10
    /// to 50 times what writing a page held does.
    fn forward(
        &self,
        layer: &Layer,
        classes: usize,
        scaled: &Numerators,
        width: usize,
        next: Vec<u64>,
    ) -> Numerators {
        let positions = layer.positions.len();
        let part_size = classes.div_ceil(rayon::current_num_threads()).max(CHUNK);
        let parts = classes.div_ceil(part_size);
        let mut next = Numerators { width, data: next };
        grow_to(&mut next.data, classes * width, || 0);
        let lengths = (0..parts).map(|p| (part_size.min(classes - p * part_size)) * width);
        let weighted = self.weighs_jumps();
        cut(&mut next.data, lengths).into_par_iter().enumerate().for_each(|(part, (_, out))| {
            // The memory holds an earlier layer's numbers (and a fresh page read first would be
            // the shared zero page, its first write then a copy and a flush of every core's TLB).
            out.fill(0);
            let (first, rows) = ((part * part_size) as u32, (out.len() / width) as u32);
            let mut gathered = Gathered::new();
            let (mut legal, mut weights) = (Vec::new(), Vec::new());
            for u in 0..positions {
                let edges = layer.edges.row(u);
                if edges.is_empty() || scaled.row(u).iter().all(|&l| l == 0) {
                    continue;
                }
                if weighted {
                    self.total(layer, u, &mut legal, &mut weights);
                }
                for (k, &e) in edges.iter().enumerate() {
                    if gathered.is_full() {
                        gathered.add_into(out, width, |from| scaled.row(from as usize));
                    }
                    let weight = if weighted { weights[k] } else { 1 };
                    gathered.jump(self.code.child(e).wrapping_sub(first), rows, u as u32, weight);
                }
            }
            gathered.add_into(out, width, |from| scaled.row(from as usize));
        });
        next
    }

    /// Whether the policy weighs jumps (uniform play weighs each one): only then does a
    /// layer keep each jump's index, for [`Coach::total`] to read its weights.
    fn weighs_jumps(&self) -> bool {
        self.policy != Policy::Uniform
    }

    /// The lcm of `layer`'s move totals, and lcm / total for each total.
    fn factors_of(&self, layer: &Layer) -> Factors {
        if !self.weighs_jumps() {
            // A uniform total is the number of jumps: where the rows start says it, with no
            // pass over the jumps themselves (a position with none has no total).
            let mut seen = Distinct::default();
            layer
                .edges
                .starts
                .iter()
                .flat_map(|s| s.windows(2))
                .filter(|w| w[1] > w[0])
                .for_each(|w| seen.insert(u64::from(w[1] - w[0])));
            return factors(seen.iter());
        }
        let positions = layer.positions.len();
        let totals =
            Distinct::of_parts((0..positions.div_ceil(SEARCH_CHUNK)).into_par_iter(), |chunk, seen| {
                let (mut legal, mut weights) = (Vec::new(), Vec::new());
                for i in chunk * SEARCH_CHUNK..positions.min((chunk + 1) * SEARCH_CHUNK) {
                    if let Some(total) = self.total(layer, i, &mut legal, &mut weights) {
                        seen.insert(total);
                    }
                }
            });
        factors(totals.iter())
    }

    /// One layer's values from those of the layer below it (one peg fewer). Its denominator
    /// is the lcm of its move totals times the one below, so that a position with `total`
    /// over its jumps' weights has numerators (lcm / total) * sum(weight * child numerators).
    fn layer_values(
        &self,
        layer: Layer,
        kept: Kept,
        (lcm, factors): &Factors,
        below: Option<&LayerValues>,
    ) -> Result<LayerValues, Error> {
        let denominator = match below {
            Some(b) => Integer::from(lcm * &b.denominator),
            None => lcm.clone(),
        };
        let parts: Option<Vec<ValueRows>> = (0..layer.positions.len())
            .step_by(CHUNK)
            .collect::<Vec<usize>>()
            .into_par_iter()
            .map_init(Vec::new, |scratch, from| {
                let to = (from + CHUNK).min(layer.positions.len());
                (!self.cancel.is_cancelled())
                    .then(|| self.values(&layer, kept, from..to, below, (factors, &denominator), scratch))
            })
            .collect();
        let parts = parts.ok_or_else(|| self.stopped())?;
        Ok(LayerValues { layer, kept, denominator, parts })
    }

    /// The total of position i's jump weights under the policy, its jumps' weights the first
    /// of `weights` (`legal` holds its jumps as indices into the move table where the policy
    /// needs them); `None` if it has no jump.
    fn total(&self, layer: &Layer, i: usize, legal: &mut Vec<usize>, weights: &mut Vec<u64>) -> Option<u64> {
        let row = layer.edges.row(i);
        if row.is_empty() {
            return None;
        }
        if !self.weighs_jumps() {
            // Every weight is one: `weights` keeps its ones from position to position (a
            // coach's policy never changes), at least one a jump.
            if weights.len() < row.len() {
                weights.resize(row.len(), 1);
            }
            return Some(row.len() as u64);
        }
        legal.clear();
        legal.extend(layer.jumps(i).iter().map(|&j| j as usize));
        Some(self.policy.weights(self.moves.jumps(), legal, weights))
    }

    /// The values of positions `range` of `layer`, over `denominator` (see `layer_values`):
    /// every numerator is at most the denominator, and a count of wins at most the sum of
    /// its children's. `scratch` is the task's memory to write rows in.
    fn values(
        &self,
        layer: &Layer,
        kept: Kept,
        range: std::ops::Range<usize>,
        below: Option<&LayerValues>,
        (factors, denominator): (&HashMap<u64, Factor>, &Integer),
        scratch: &mut Vec<u64>,
    ) -> ValueRows {
        let pegs = layer.positions.first().map_or(0, |p| p.count() as usize);
        let stride = kept.slots(pegs);
        // A position with no jump ends where it is; no value of the layer is larger than these.
        let ended: Vec<(usize, Integer)> = kept
            .ended(pegs)
            .into_iter()
            .map(|(slot, times)| (slot, Integer::from(denominator * times)))
            .collect();
        let width = limbs_for(ended.iter().map(|(_, v)| v.significant_bits()).max().unwrap_or(1));
        let ended: Vec<(usize, Vec<u64>)> = ended
            .into_iter()
            .map(|(slot, v)| {
                let mut value = vec![0u64; width];
                write(&mut value, &v);
                (slot, value)
            })
            .collect();
        // Sums of weighted values need a limb more than the values (weights and their
        // number fit 64 bits).
        let sum_width = below.map_or(1, |b| b.parts.first().map_or(1, |p| p.width) + 1);
        let wins_width = below.map_or(1, |b| b.wins_width() + 1);
        // The rows are written into the task's scratch (its pages held from part to part,
        // however long the rows turn out) and kept in a block of their size: fresh memory is
        // written once, with no copy as it grows.
        let mut rows = ValueRows::new(width);
        rows.data = std::mem::take(scratch);
        rows.data.clear();
        rows.starts.reserve(range.len());
        let mut sums = vec![0u64; stride * sum_width];
        let mut num = vec![0u64; stride * width.max(sum_width)];
        let mut won = vec![0u64; self.board.hole_count() * wins_width];
        let (mut legal, mut weights) = (Vec::new(), Vec::new());
        for i in range {
            if let Some(b) = below {
                for (ahead, stage) in [(2, Prefetch::Start), (1, Prefetch::Row)] {
                    if i + ahead < layer.positions.len() {
                        layer
                            .edges
                            .row(i + ahead)
                            .iter()
                            .for_each(|&e| b.prefetch(self.code.child(e) as usize, stage));
                    }
                }
            }
            let (mut counted, mut finished) = (0u64, 0u64);
            match (below, self.total(layer, i, &mut legal, &mut weights)) {
                (Some(b), Some(total)) => {
                    for (edge, &w) in layer.edges.row(i).iter().zip(&weights) {
                        let c = self.code.child(*edge) as usize;
                        for (slot, x) in b.numerators(c) {
                            add_mul_into_wider(&mut sums[slot * sum_width..(slot + 1) * sum_width], x, w);
                            counted |= 1 << slot;
                        }
                        let undo = &self.undo[self.code.element(*edge)];
                        for (hole, x) in b.wins(c) {
                            let h = undo[hole] as usize;
                            add_mul(&mut won[h * wins_width..(h + 1) * wins_width], x, 1);
                            finished |= 1 << h;
                        }
                    }
                    // Over the layer's denominator: each sum times lcm / total.
                    let factor = &factors[&total];
                    for slot in Bits(counted) {
                        let (sum, out) = (
                            &mut sums[slot * sum_width..(slot + 1) * sum_width],
                            &mut num[slot * width..(slot + 1) * width],
                        );
                        factor.scale(out, sum);
                        sum.fill(0);
                    }
                }
                _ => {
                    for (slot, value) in &ended {
                        num[slot * width..(slot + 1) * width].copy_from_slice(value);
                        counted |= 1 << slot;
                    }
                    if let Some(h) = layer.positions[i].single_hole() {
                        won[h as usize * wins_width] = 1;
                        finished = 1 << h;
                    }
                }
            }
            rows.push(&mut num, counted, &mut won, wins_width, finished);
        }
        let kept = rows.data.to_vec();
        *scratch = std::mem::replace(&mut rows.data, kept);
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::symmetry::MAX_SYMMETRIES;
    use std::collections::BTreeSet;

    /// A layer's jumps lead to its classes, each class met once in its table, after the
    /// table filled up (made for 64 classes, the least it takes) and the layer was searched
    /// again: English positions with many jumps, in three pieces, then some of them again.
    #[test]
    fn a_layers_jumps_lead_to_its_classes_each_met_once() {
        let board = crate::solitaire::board::builtin("english").unwrap();
        // A policy that weighs jumps: the pieces keep which jump each is.
        let coach = Coach::new(&board, Policy::PegFirst);
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut positions: Vec<Pegs> = (0..3 * SEARCH_CHUNK)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                Pegs(board.full().0 & state)
            })
            .collect();
        positions.sort_by_key(|&p| std::cmp::Reverse(coach.moves.legal(p).count()));
        let layer: Vec<Pegs> = positions[..2 * SEARCH_CHUNK].iter().chain(&positions[..5]).copied().collect();
        let mut met = SharedSlots::default();
        let (pieces, classes) =
            coach.jumps_of(&layer, usize::MAX, Room { edges: 16, classes: 0 }, &mut met).unwrap();
        assert_eq!(pieces.len(), 3);
        assert!(met.size() >= 4 * 64, "the table was never made again: {} slots", met.size());
        let lengths: Vec<u32> =
            pieces.iter().flat_map(|p| p.starts.windows(2).map(|w| w[1] - w[0])).collect();
        let legal: Vec<u32> = layer.iter().map(|&p| coach.moves.legal(p).count() as u32).collect();
        assert_eq!(lengths, legal);
        let next = met.rank(classes, 33);
        // Each position's jumps (in no particular order): its class, jump and element.
        let mut rows =
            pieces.iter().flat_map(|p| p.starts.windows(2).map(move |w| (p, w[0] as usize..w[1] as usize)));
        let mut distinct = BTreeSet::new();
        for &p in &layer {
            let (piece, row) = rows.next().unwrap();
            let jumps = piece.jumps.as_ref().expect("kept under a weighted policy");
            let mut found: Vec<(Pegs, usize, usize)> = row
                .map(|k| {
                    let e = piece.edges[k];
                    (
                        next[met.rank_at(coach.code.child(e)) as usize],
                        jumps[k] as usize,
                        coach.code.element(e),
                    )
                })
                .collect();
            let mut expected: Vec<(Pegs, usize, usize)> = coach
                .moves
                .legal(p)
                .map(|j| {
                    let (class, element) = coach.group.canonical_with_element(coach.moves.apply(p, j));
                    (class, j, element)
                })
                .collect();
            found.sort_unstable();
            expected.sort_unstable();
            assert_eq!(found, expected);
            distinct.extend(found.iter().map(|f| f.0));
        }
        assert_eq!(next, distinct.into_iter().collect::<Vec<_>>(), "each class once, in order");
    }

    /// A row keeps the nonzero values it is given, by pegs left (up to 64) and by hole (its
    /// counts of wins in the limbs the largest needs), and leaves the buffers zero.
    #[test]
    fn value_rows_keep_each_rows_nonzero_entries() {
        let mut rows = ValueRows::new(2);
        let (mut numerators, mut wins) = (vec![0u64; 64 * 2], vec![0u64; 64 * 3]);
        numerators[0..2].copy_from_slice(&[7, 1]); // slot 0 (1 peg left)
        numerators[63 * 2] = 9; // slot 63 (64 pegs left)
        wins[5 * 3] = 4; // hole 5
        wins[63 * 3..63 * 3 + 2].copy_from_slice(&[0, 3]); // hole 63, two limbs
        // Slot 2 and hole 9 are named but zero: left out.
        rows.push(&mut numerators, 1 | 1 << 2 | 1 << 63, &mut wins, 3, 1 << 5 | 1 << 9 | 1 << 63);
        assert!(numerators.iter().chain(&wins).all(|&l| l == 0));
        rows.push(&mut numerators, 0, &mut wins, 3, 0);
        numerators[2 * 2] = 5;
        rows.push(&mut numerators, 1 << 2, &mut wins, 3, 0);
        let row = |i| {
            let numerators: Vec<(usize, Vec<u64>)> =
                rows.numerators(i).map(|(n, v)| (n, v.to_vec())).collect();
            let wins: Vec<(usize, Vec<u64>)> = rows.wins(i).map(|(h, v)| (h, v.to_vec())).collect();
            (numerators, wins)
        };
        assert_eq!(row(0).0, [(0, vec![7, 1]), (63, vec![9, 0])]);
        assert_eq!(row(0).1, [(5, vec![4, 0]), (63, vec![0, 3])]);
        assert_eq!(rows.wins_bits, 64 + 2);
        assert_eq!(row(1), (vec![], vec![]));
        assert_eq!(row(2), (vec![(2, vec![5, 0])], vec![]));
    }

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

    /// An edge keeps its child and element whatever the group's order, in as few bits for
    /// the element as the order needs, and names as many children as the bits left.
    #[test]
    fn an_edge_keeps_its_child_and_element() {
        for (order, bits) in [(1, 0), (2, 1), (6, 3), (8, 3), (9, 4), (384, 9), (MAX_SYMMETRIES, 10)] {
            let code = EdgeCode::for_order(order);
            assert_eq!(code.element_bits, bits, "order {order}");
            assert_eq!(code.most_children(), 1 << (32 - bits));
            let most = (code.most_children() - 1) as u32;
            for (child, element) in [(0, 0), (most, order - 1), (most / 3, order / 2), (1, order - 1)] {
                let edge = code.pack(child, element);
                assert_eq!((code.child(edge), code.element(edge)), (child, element), "order {order}");
                let moved = code.with_child(edge, most - child);
                assert_eq!(
                    (code.child(moved), code.element(moved)),
                    (most - child, element),
                    "order {order}"
                );
            }
        }
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
