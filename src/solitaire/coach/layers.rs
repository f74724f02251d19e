//! What the coach's passes hold of a position's future: each layer's positions with their
//! jumps ([`Layer`], each jump an [`Edge`]), and the values the backward pass gives them
//! ([`LayerValues`], rows of [`ValueRows`] keeping what [`Kept`] says).

use super::{CHUNK, Odds, PegsLeft, SEARCH_CHUNK, odds_from};
use crate::solitaire::pegs::Pegs;
use crate::solitaire::words::Bits;
use pegchain_engine::layered::limbs::{limbs_for, prefetch, to_integer};
use rug::{Integer, Rational};

/// Rows of items, in parts of [`SEARCH_CHUNK`] rows (row i is in part i / `SEARCH_CHUNK`):
/// each part the vector the piece of the search that found it filled, so a layer's jumps are
/// not copied into one.
pub(super) struct Rows<T> {
    /// For each part, where each of its rows starts among its items, and where the last ends.
    pub(super) starts: Vec<Vec<u32>>,
    pub(super) parts: Vec<Vec<T>>,
}

impl<T> Rows<T> {
    pub(super) fn new() -> Rows<T> {
        Rows { starts: Vec::new(), parts: Vec::new() }
    }

    pub(super) fn row(&self, i: usize) -> &[T] {
        self.row_of(&self.parts, i)
    }

    /// Row i of `parts`, items one a row's item, cut as these rows' parts are.
    fn row_of<'p, U>(&self, parts: &'p [Vec<U>], i: usize) -> &'p [U] {
        let (part, k) = (i / SEARCH_CHUNK, i % SEARCH_CHUNK);
        let starts = &self.starts[part];
        &parts[part][starts[k] as usize..starts[k + 1] as usize]
    }
}

/// What the backward pass keeps for each position, each value in a slot of its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kept {
    /// P(one peg left) in slot 0 and expected pegs left in slot 1: all a jump's line of the
    /// advice needs, two numbers a position where the distribution takes about seven.
    Odds,
    /// P(n pegs left) in slot n - 1, for every n: the distribution each position below the
    /// root shows, with no forward pass.
    PegsLeft,
}

impl Kept {
    /// Slots a row of a layer of positions with `pegs` pegs may fill.
    pub(super) fn slots(self, pegs: usize) -> usize {
        match self {
            Kept::Odds => 2,
            Kept::PegsLeft => pegs,
        }
    }

    /// The values of a position with `pegs` pegs and no jump, by slot, as multiples of the
    /// layer's denominator: it ends where it is. No value of a position of `pegs` pegs is
    /// larger than the largest of them (an expected number of pegs left is at most `pegs`).
    pub(super) fn ended(self, pegs: usize) -> Vec<(usize, u64)> {
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
pub(super) struct ValueRows {
    pub(super) starts: Vec<u32>,
    pub(super) data: Vec<u64>,
    pub(super) width: usize,
    /// The most significant bits of any count of wins.
    wins_bits: u32,
}

impl ValueRows {
    pub(super) fn new(width: usize) -> ValueRows {
        ValueRows { starts: vec![0], data: Vec::new(), width, wins_bits: 0 }
    }

    /// Row i's numerators by slot.
    #[inline(always)]
    pub(super) fn numerators(&self, i: usize) -> impl Iterator<Item = (usize, &[u64])> {
        let at = self.starts[i] as usize;
        let mask = self.data[at];
        let limbs = &self.data[at + 2..at + 2 + mask.count_ones() as usize * self.width];
        Bits(mask).zip(limbs.chunks_exact(self.width))
    }

    /// Row i's counts of wins by finish hole.
    #[inline(always)]
    pub(super) fn wins(&self, i: usize) -> impl Iterator<Item = (usize, &[u64])> {
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
    pub(super) fn push(
        &mut self,
        numerators: &mut [u64],
        slots: u64,
        wins: &mut [u64],
        wins_width: usize,
        holes: u64,
    ) {
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
pub(super) struct Edge(u32);

/// How a board's jumps pack into an [`Edge`]: the element in the low bits (as many as the
/// group's order needs: 3 for the square and triangular boards' 8 and 6 symmetries, 10 for
/// `MAX_SYMMETRIES`), the child above them. A layer's children are named in the bits left:
/// 2^29 on the square boards, far more than the coach's limits let a layer hold.
#[derive(Clone, Copy)]
pub(super) struct EdgeCode {
    element_bits: u32,
}

impl EdgeCode {
    pub(super) fn for_order(order: usize) -> EdgeCode {
        EdgeCode { element_bits: usize::BITS - order.saturating_sub(1).leading_zeros() }
    }

    /// The most children (a layer's classes, or its table's slots while it is searched) an
    /// edge can name.
    pub(super) fn most_children(self) -> usize {
        1 << (u32::BITS - self.element_bits)
    }

    pub(super) fn pack(self, child: u32, element: usize) -> Edge {
        debug_assert!((child as usize) < self.most_children() && element < 1 << self.element_bits);
        Edge(child << self.element_bits | element as u32)
    }

    /// `edge` with another child, its element kept (a slot replaced by its class's rank).
    #[inline]
    pub(super) fn with_child(self, edge: Edge, child: u32) -> Edge {
        self.pack(child, self.element(edge))
    }

    #[inline]
    pub(super) fn child(self, edge: Edge) -> u32 {
        edge.0 >> self.element_bits
    }

    #[inline]
    pub(super) fn element(self, edge: Edge) -> usize {
        (edge.0 & ((1 << self.element_bits) - 1)) as usize
    }
}

/// The positions of one layer (the same number of pegs), in the order they were found, with
/// their jumps. Found once, by the search that finds the positions, so valuing them needs no
/// move generation and no lookup.
pub(super) struct Layer {
    pub(super) positions: Vec<Pegs>,
    pub(super) edges: Rows<Edge>,
    /// Each jump's index in the move table, parts as `edges`' parts: kept only under a policy
    /// that weighs jumps (uniform play's weights are all one).
    pub(super) jumps: Vec<Vec<u16>>,
}

impl Layer {
    pub(super) fn of(positions: Vec<Pegs>) -> Layer {
        Layer { positions, edges: Rows::new(), jumps: Vec::new() }
    }

    /// The indices of position i's jumps, where the layer keeps them.
    pub(super) fn jumps(&self, i: usize) -> &[u16] {
        self.edges.row_of(&self.jumps, i)
    }
}

/// The values of one layer, in parts of [`CHUNK`] positions (valued side by side).
pub(super) struct LayerValues {
    pub(super) layer: Layer,
    pub(super) kept: Kept,
    pub(super) denominator: Integer,
    pub(super) parts: Vec<ValueRows>,
}

impl LayerValues {
    /// Position i's values: its numerators by slot, over the layer's denominator.
    #[inline(always)]
    pub(super) fn numerators(&self, i: usize) -> impl Iterator<Item = (usize, &[u64])> {
        self.parts[i / CHUNK].numerators(i % CHUNK)
    }

    /// Position i's move sequences that end with one peg, by the hole it ends in.
    #[inline(always)]
    pub(super) fn wins(&self, i: usize) -> impl Iterator<Item = (usize, &[u64])> {
        self.parts[i / CHUNK].wins(i % CHUNK)
    }

    /// Reads ahead of position i's values, in two stages: where its row starts, then (a
    /// position later) the row. A layer's positions read their children's rows in scattered
    /// order, a cache miss each without this.
    pub(super) fn prefetch(&self, i: usize, stage: Prefetch) {
        let (part, row) = (&self.parts[i / CHUNK], i % CHUNK);
        match stage {
            Prefetch::Start => part.prefetch_start(row),
            Prefetch::Row => part.prefetch_row(row),
        }
    }

    /// Limbs enough for any count of wins of this layer.
    pub(super) fn wins_width(&self) -> usize {
        limbs_for(self.parts.iter().map(|p| p.wins_bits).max().unwrap_or(1))
    }

    /// Position i's values by slot, as fractions.
    pub(super) fn slots(&self, i: usize) -> impl Iterator<Item = (usize, Rational)> {
        self.numerators(i).map(|(slot, n)| (slot, Rational::from((to_integer(n), self.denominator.clone()))))
    }

    pub(super) fn odds(&self, i: usize) -> Odds {
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
    pub(super) fn pegs_left(&self, i: usize) -> PegsLeft {
        debug_assert_eq!(self.kept, Kept::PegsLeft);
        self.slots(i).map(|(slot, p)| (slot as u32 + 1, p)).collect()
    }
}

/// The two stages of a read ahead of a position's values (see [`LayerValues::prefetch`]).
#[derive(Clone, Copy)]
pub(super) enum Prefetch {
    Start,
    Row,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::symmetry::MAX_SYMMETRIES;

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
}
