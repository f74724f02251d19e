//! The legal jumps on a position (a `Pegs` bitboard), and their effect.

use crate::solitaire::board::{Board, Jump, SymmetryGroup};
use crate::solitaire::pegs::Pegs;

/// The jumps of a board as bit masks, so a legality test is two ANDs and a compare.
#[derive(Clone, Debug)]
pub struct MoveTable {
    jumps: Vec<Jump>,
    /// `from` and `over`, which must hold pegs.
    need: Vec<Pegs>,
    /// `to`, which must be empty.
    empty: Vec<Pegs>,
    /// The jumps in families tested together; empty for a board of more than `MAX_JUMPS`
    /// jumps, whose jumps are tested one by one.
    families: Vec<Family>,
}

/// The jumps whose `over` and `to` lie the same distances from `from` in the hole order
/// (on a board numbered row by row, one direction between two rows): shifted copies of a
/// position test all of them at once.
#[derive(Clone, Debug)]
struct Family {
    /// Their `from` holes.
    from: u64,
    /// `over - from` and `to - from`.
    over: i32,
    to: i32,
    /// The index of the family's jump from each hole (of those in `from`).
    jump: [u16; 64],
}

/// The most jumps the families serve: the legal ones are gathered in a bit set this long.
const MAX_JUMPS: usize = 512;

/// `pos` moved so that bit `h + by` lands on bit `h`.
#[inline(always)]
fn shifted(pos: u64, by: i32) -> u64 {
    if by >= 0 { pos >> by } else { pos << -by }
}

impl Family {
    /// The `from` holes of the family's jumps that are legal in `pos`.
    #[inline(always)]
    fn legal_from(&self, pos: Pegs) -> u64 {
        self.from & pos.0 & shifted(pos.0, self.over) & !shifted(pos.0, self.to)
    }
}

impl MoveTable {
    pub fn new(board: &Board) -> MoveTable {
        let jumps = board.jumps().to_vec();
        let need = jumps.iter().map(|j| Pegs::single(j.from).with(j.over)).collect();
        let empty = jumps.iter().map(|j| Pegs::single(j.to)).collect();
        let mut families: Vec<Family> = Vec::new();
        if jumps.len() <= MAX_JUMPS {
            for (index, j) in jumps.iter().enumerate() {
                let (over, to) = (j.over as i32 - j.from as i32, j.to as i32 - j.from as i32);
                let family = match families.iter().position(|f| (f.over, f.to) == (over, to)) {
                    Some(f) => &mut families[f],
                    None => {
                        families.push(Family { from: 0, over, to, jump: [0; 64] });
                        families.last_mut().expect("just pushed")
                    }
                };
                family.from |= 1 << j.from;
                family.jump[j.from as usize] = index as u16;
            }
        }
        MoveTable { jumps, need, empty, families }
    }

    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    #[inline]
    pub fn is_legal(&self, pos: Pegs, jump: usize) -> bool {
        pos.contains_all(self.need[jump]) && pos.is_disjoint(self.empty[jump])
    }

    /// Indices of the legal jumps in `pos`, in the board's jump order.
    #[inline]
    pub fn legal(&self, pos: Pegs) -> Legal<'_> {
        if self.families.is_empty() {
            return Legal::OneByOne { moves: self, pos, next: 0 };
        }
        // The families' jumps gathered in a bit set, read back in the board's order.
        let mut set = [0u64; MAX_JUMPS / 64];
        self.each_legal(pos, |j| set[j / 64] |= 1 << (j % 64));
        Legal::Set { set, word: 0 }
    }

    /// Calls `f(jump)` for every legal jump in `pos`, family by family: the jumps of
    /// [`MoveTable::legal`] in another order, with no bit set to gather them in (a caller that
    /// sums over the jumps needs no order).
    #[inline(always)]
    pub fn each_legal(&self, pos: Pegs, mut f: impl FnMut(usize)) {
        if self.families.is_empty() {
            return self.legal(pos).for_each(f);
        }
        for family in &self.families {
            let mut from = family.legal_from(pos);
            while from != 0 {
                f(family.jump[from.trailing_zeros() as usize] as usize);
                from &= from - 1;
            }
        }
    }

    #[inline]
    pub fn has_move(&self, pos: Pegs) -> bool {
        self.legal(pos).next().is_some()
    }

    /// The position after a legal jump: `from` and `over` empty, `to` filled.
    #[inline]
    pub fn apply(&self, pos: Pegs, jump: usize) -> Pegs {
        pos ^ self.flip(jump)
    }

    /// The holes a jump changes.
    #[inline]
    pub fn flip(&self, jump: usize) -> Pegs {
        self.need[jump] | self.empty[jump]
    }

    /// Indices of the jumps that could have led to `pos` (its `to` holds a peg, its `from`
    /// and `over` are empty), in the board's jump order: `apply` undoes each of them.
    pub fn jumps_into(&self, pos: Pegs) -> impl Iterator<Item = usize> + '_ {
        (0..self.jumps.len())
            .filter(move |&j| pos.contains_all(self.empty[j]) && pos.is_disjoint(self.need[j]))
    }
}
/// The legal jumps of a position, in the board's jump order (see [`MoveTable::legal`]).
pub enum Legal<'m> {
    /// Found by the families, as a bit set of jump indices.
    Set { set: [u64; MAX_JUMPS / 64], word: usize },
    /// Tested one by one (a board of very many jumps).
    OneByOne { moves: &'m MoveTable, pos: Pegs, next: usize },
}

impl Iterator for Legal<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            Legal::Set { set, word } => loop {
                let bits = set.get_mut(*word)?;
                if *bits != 0 {
                    let bit = bits.trailing_zeros() as usize;
                    *bits &= *bits - 1;
                    return Some(*word * 64 + bit);
                }
                *word += 1;
            },
            Legal::OneByOne { moves, pos, next } => {
                let j = (*next..moves.jumps.len()).find(|&j| moves.is_legal(*pos, j))?;
                *next = j + 1;
                Some(j)
            }
        }
    }
}

/// The most elements [`Children`] takes: the images of a position sit in an array this long.
const MAX_ORDER: usize = 16;

/// The low bits of a packed image that name its element (see [`Children`]): enough for
/// `MAX_ORDER` elements.
const ELEMENT_BITS: u32 = MAX_ORDER.trailing_zeros();

/// The positions a position's jumps lead to, in canonical form, found fast: a jump flips
/// three holes, so the images of the position it leads to are the images of the position
/// with the images of those three holes flipped. The images of a position are found once,
/// and each child's canonical form costs one XOR per element and the least of the results,
/// where [`SymmetryGroup::canonical_with_element`] permutes every child under every element.
/// An image is packed with its element in the low bits, so the least packed image is the
/// class and its element at once (the first element of equal images, as
/// `canonical_with_element` finds it).
#[derive(Clone, Debug)]
pub struct Children {
    /// The group's order rounded up to a power of two: the images compared per child.
    width: usize,
    /// The image of jump j's holes under element g, above the element's bits, at
    /// `j * width + g` (zero past the order); empty when the group or the board is too large
    /// for the fast way.
    flips: Vec<u64>,
    /// The packed images under every element of the holes that `value` marks in byte `byte`
    /// of a position, side by side at `(byte * 256 + value) * width` (byte 0's with each
    /// element in the low bits; all ones past the order, never the least): a position's images
    /// are a row a byte (one cache line for 8 elements), where a table per element took one
    /// line per element and byte.
    images: Vec<u64>,
}

impl Children {
    pub fn new(moves: &MoveTable, group: &SymmetryGroup) -> Children {
        let order = group.order();
        let width = order.next_power_of_two();
        let holes = group.perms()[0].len();
        if order > MAX_ORDER || holes as u32 + ELEMENT_BITS > u64::BITS {
            return Children { width, flips: Vec::new(), images: Vec::new() };
        }
        // Past the order, images are all ones and flips zero: never the least.
        let image = |g: usize, holes: Pegs| group.apply(g, holes).0 << ELEMENT_BITS;
        let flips = (0..moves.jumps().len())
            .flat_map(|j| (0..width).map(move |g| if g < order { image(g, moves.flip(j)) } else { 0 }))
            .collect();
        let images = (0..holes.div_ceil(8))
            .flat_map(|byte| (0..256u64).map(move |value| (byte, value)))
            .flat_map(|(byte, value)| {
                let marked = Pegs(value << (8 * byte)) & Pegs::full(holes);
                let element = move |g: usize| if byte == 0 { g as u64 } else { 0 };
                (0..width).map(move |g| if g < order { image(g, marked) | element(g) } else { u64::MAX })
            })
            .collect();
        Children { width, flips, images }
    }

    /// Calls `f(jump, class, element)` for every legal jump from `pos` (in the order of
    /// [`MoveTable::each_legal`], not the board's jump order): `class` is the canonical form
    /// of the position the jump leads to, and element `element` takes that position to it (as
    /// `canonical_with_element` says).
    #[inline]
    pub fn each(
        &self,
        moves: &MoveTable,
        group: &SymmetryGroup,
        pos: Pegs,
        mut f: impl FnMut(usize, Pegs, usize),
    ) {
        let child = self.class_after(moves, group, pos);
        moves.each_legal(pos, |j| {
            let (class, element) = child(j);
            f(j, class, element)
        });
    }

    /// Calls `f(jump, class, element)` for every jump that could have led to `pos` (see
    /// [`MoveTable::jumps_into`]), in the board's jump order: `class` is the canonical form
    /// of the position before the jump, and element `element` takes that position to it.
    #[inline]
    pub fn each_undone(
        &self,
        moves: &MoveTable,
        group: &SymmetryGroup,
        pos: Pegs,
        mut f: impl FnMut(usize, Pegs, usize),
    ) {
        let child = self.class_after(moves, group, pos);
        moves.jumps_into(pos).for_each(|j| {
            let (class, element) = child(j);
            f(j, class, element)
        });
    }

    /// The class of the position a jump played or undone makes of `pos` (both flip the same
    /// three holes), and the element taking that position to it.
    #[inline(always)]
    fn class_after<'c>(
        &'c self,
        moves: &'c MoveTable,
        group: &'c SymmetryGroup,
        pos: Pegs,
    ) -> impl Fn(usize) -> (Pegs, usize) + 'c {
        // The images of `pos`, once, packed with their elements.
        let images = self.images(pos);
        move |j| {
            if self.flips.is_empty() {
                return group.canonical_with_element(moves.apply(pos, j));
            }
            let flips = &self.flips[j * self.width..(j + 1) * self.width];
            let least = match self.width {
                1 => least::<1>(&images, flips),
                2 => least::<2>(&images, flips),
                4 => least::<4>(&images, flips),
                8 => least::<8>(&images, flips),
                _ => least::<MAX_ORDER>(&images, flips),
            };
            (Pegs(least >> ELEMENT_BITS), (least & ((1 << ELEMENT_BITS) - 1)) as usize)
        }
    }

    /// How many positions `pos` stands for under the group: its order over the number of
    /// elements that fix `pos`, whose images are read a row a byte as for its children (an
    /// image a table lookup per byte and element took 3.6% of the English centre's run).
    pub fn orbit_size(&self, group: &SymmetryGroup, pos: Pegs) -> u64 {
        (group.order() / self.fixing(group, pos).count_ones() as usize) as u64
    }

    /// The elements that fix `pos`, a bit each (element g is bit g; the group has at most 64),
    /// from its images read a row a byte, or one permutation at a time where the group or the
    /// board is too large for that.
    pub fn fixing(&self, group: &SymmetryGroup, pos: Pegs) -> u64 {
        debug_assert!(group.order() <= 64);
        if self.flips.is_empty() {
            return (0..group.order()).filter(|&g| group.apply(g, pos) == pos).fold(0, |m, g| m | 1 << g);
        }
        let images = self.images(pos);
        // A packed image holds its element in its low bits.
        images[..group.order()]
            .iter()
            .filter(|&&image| image >> ELEMENT_BITS == pos.0)
            .fold(0, |m, &image| m | 1 << (image & ((1 << ELEMENT_BITS) - 1)))
    }

    /// The packed images of `pos` under every element (all ones past the order, and where
    /// the group or the board is too large for the fast way).
    #[inline(always)]
    fn images(&self, pos: Pegs) -> [u64; MAX_ORDER] {
        let mut images = [u64::MAX; MAX_ORDER];
        if !self.flips.is_empty() {
            match self.width {
                1 => images_of::<1>(&self.images, pos, &mut images),
                2 => images_of::<2>(&self.images, pos, &mut images),
                4 => images_of::<4>(&self.images, pos, &mut images),
                8 => images_of::<8>(&self.images, pos, &mut images),
                _ => images_of::<MAX_ORDER>(&self.images, pos, &mut images),
            }
        }
        images
    }
}

/// The first `N` packed images of `pos` (see [`Children`]), a row of `table` for each byte.
#[inline(always)]
fn images_of<const N: usize>(table: &[u64], pos: Pegs, images: &mut [u64; MAX_ORDER]) {
    let mut out = [0u64; N];
    for (byte, rows) in table.chunks_exact(256 * N).enumerate() {
        let value = (pos.0 >> (8 * byte) & 0xff) as usize;
        let row = &rows[value * N..(value + 1) * N];
        for g in 0..N {
            out[g] |= row[g];
        }
    }
    images[..N].copy_from_slice(&out);
}

/// The least of the first `N` packed images, each with a jump's flips.
#[inline(always)]
fn least<const N: usize>(images: &[u64; MAX_ORDER], flips: &[u64]) -> u64 {
    let mut least = images[0] ^ flips[0];
    for g in 1..N {
        let x = images[g] ^ flips[g];
        least = if x < least { x } else { least };
    }
    least
}

/// The starting position with every hole filled but `hole`.
pub fn start_position(board: &Board, hole: u8) -> Pegs {
    board.full().without(hole)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;

    /// A small fixed random sequence for the tests' positions and games.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// The families find exactly the jumps that testing each jump finds, in the same order,
    /// on random positions of every built-in board; so does the one-by-one fallback.
    #[test]
    fn legal_jumps_by_families_are_the_jumps_tested_one_by_one() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        let mut checked = 0;
        for name in crate::solitaire::board::builtin_names() {
            let board = builtin(&name).unwrap();
            let moves = MoveTable::new(&board);
            assert!(!moves.families.is_empty(), "{name}");
            let fallback = MoveTable { families: Vec::new(), ..moves.clone() };
            for _ in 0..2000 {
                // Sparse and dense positions alike: each hole kept with probability 1/4 or 5/8.
                let keep = next() & next() | (next() & 1).wrapping_neg() & next();
                let pos = Pegs(board.full().0 & keep);
                let expected: Vec<usize> =
                    (0..moves.jumps().len()).filter(|&j| moves.is_legal(pos, j)).collect();
                assert_eq!(moves.legal(pos).collect::<Vec<_>>(), expected, "{name}");
                assert_eq!(fallback.legal(pos).collect::<Vec<_>>(), expected, "{name}");
                assert_eq!(moves.has_move(pos), !expected.is_empty(), "{name}");
                checked += expected.len();
            }
        }
        assert!(checked > 10_000, "the positions had too few legal jumps to test: {checked}");
    }

    /// `jumps_into` finds exactly the jumps whose result is the position: undoing each gives
    /// a position where it is legal and leads back, and no other jump does.
    #[test]
    fn jumps_into_a_position_are_the_legal_jumps_that_lead_to_it() {
        let mut next = xorshift(0x5851_f42d_4c95_7f2du64);
        let mut checked = 0;
        for name in ["english", "triangle5", "european"] {
            let board = builtin(name).unwrap();
            let moves = MoveTable::new(&board);
            for _ in 0..500 {
                let pos = Pegs(board.full().0 & next() & next());
                let into: Vec<usize> = moves.jumps_into(pos).collect();
                for j in 0..moves.jumps().len() {
                    let before = moves.apply(pos, j);
                    let leads_here = moves.is_legal(before, j) && moves.apply(before, j) == pos;
                    assert_eq!(into.contains(&j), leads_here, "{name}, jump {j}");
                }
                checked += into.len();
            }
        }
        assert!(checked > 1000, "too few jumps into the positions to test: {checked}");
    }

    /// `Children` agrees with permuting every child (and every position before a jump into
    /// this one) under every element, and its orbit sizes with the group's, on every position
    /// of a few random games of the crosses and triangles, under the whole group and a
    /// stabilizer.
    #[test]
    fn children_have_the_canonical_forms_and_elements_of_a_full_permutation() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        // Two lines of 3 holes and one of 5: 16 symmetries (each line reversed, the short
        // lines swapped), the most the fast way takes.
        let lines = crate::solitaire::board::lines(&[3, 3, 5]);
        assert_eq!(SymmetryGroup::of_board(&lines).order(), 16);
        let boards = ["english", "triangle5", "european", "triangle8"].map(|name| builtin(name).unwrap());
        let mut orders = std::collections::BTreeSet::new();
        for board in boards.iter().chain([&lines]) {
            let name = board.name();
            let moves = MoveTable::new(board);
            let whole = SymmetryGroup::of_board(board);
            let (some, fewer) = (whole.stabilizer(Pegs::single(1)), whole.stabilizer(Pegs::single(0)));
            for group in [&whole, &some, &fewer] {
                orders.insert(group.order());
                let children = Children::new(&moves, group);
                // Fixed by every element, and by fewer.
                for pos in [board.full(), board.full().without(0)] {
                    assert_eq!(children.orbit_size(group, pos), group.orbit_size(pos), "{name}, orbit");
                }
                for game in 0..20 {
                    let mut pos = board.full().without((game % board.hole_count()) as u8);
                    loop {
                        // Each jump's position permuted under every element.
                        let permuted = |jumps: &mut dyn Iterator<Item = usize>| -> Vec<(usize, Pegs, usize)> {
                            jumps
                                .map(|j| {
                                    let (class, element) = group.canonical_with_element(moves.apply(pos, j));
                                    (j, class, element)
                                })
                                .collect()
                        };
                        let (mut seen, mut undone) = (Vec::new(), Vec::new());
                        children.each(&moves, group, pos, |j, class, element| seen.push((j, class, element)));
                        // Family by family, not in the board's jump order.
                        seen.sort_unstable();
                        children.each_undone(&moves, group, pos, |j, class, element| {
                            undone.push((j, class, element))
                        });
                        assert_eq!(seen, permuted(&mut moves.legal(pos)), "{name}");
                        assert_eq!(undone, permuted(&mut moves.jumps_into(pos)), "{name}, jumps undone");
                        assert_eq!(children.orbit_size(group, pos), group.orbit_size(pos), "{name}, orbit");
                        if seen.is_empty() {
                            break;
                        }
                        pos = moves.apply(pos, seen[next() as usize % seen.len()].0);
                    }
                }
            }
        }
        // Every width of the images compared (1, 2, 4, 8 and 16 elements) is met.
        assert_eq!(orders.into_iter().collect::<Vec<_>>(), [1, 2, 4, 6, 8, 16]);
    }
}
