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
        let mut set = [0u64; MAX_JUMPS / 64];
        for f in &self.families {
            let mut from = f.from & pos.0 & shifted(pos.0, f.over) & !shifted(pos.0, f.to);
            while from != 0 {
                let j = f.jump[from.trailing_zeros() as usize] as usize;
                set[j / 64] |= 1 << (j % 64);
                from &= from - 1;
            }
        }
        Legal::Set { set, word: 0 }
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

/// The positions a position's jumps lead to, in canonical form, found fast: a jump flips
/// three holes, so the images of the position it leads to are the images of the position
/// with the images of those three holes flipped. The images of a position are found once,
/// and each child's canonical form costs one lookup and one comparison per element, where
/// [`SymmetryGroup::canonical_with_element`] permutes every child under every element.
#[derive(Clone, Debug)]
pub struct Children {
    order: usize,
    /// The image of jump j's holes under element g, at `j * order + g`; empty when the
    /// group is too large for the fast way.
    flips: Vec<Pegs>,
}

impl Children {
    pub fn new(moves: &MoveTable, group: &SymmetryGroup) -> Children {
        let order = group.order();
        let flips = if order <= MAX_ORDER {
            (0..moves.jumps().len())
                .flat_map(|j| (0..order).map(move |g| group.apply(g, moves.flip(j))))
                .collect()
        } else {
            Vec::new()
        };
        Children { order, flips }
    }

    /// Calls `f(jump, class, element)` for every legal jump from `pos`, in the board's jump
    /// order: `class` is the canonical form of the position the jump leads to, and element
    /// `element` takes that position to it (as `canonical_with_element` says).
    #[inline]
    pub fn each(
        &self,
        moves: &MoveTable,
        group: &SymmetryGroup,
        pos: Pegs,
        f: impl FnMut(usize, Pegs, usize),
    ) {
        self.each_of(moves, group, pos, moves.legal(pos), f);
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
        f: impl FnMut(usize, Pegs, usize),
    ) {
        self.each_of(moves, group, pos, moves.jumps_into(pos), f);
    }

    /// `f(jump, class, element)` for the position each of `jumps` makes of `pos` (a jump
    /// played or undone flips the same three holes).
    #[inline]
    fn each_of(
        &self,
        moves: &MoveTable,
        group: &SymmetryGroup,
        pos: Pegs,
        jumps: impl Iterator<Item = usize>,
        mut f: impl FnMut(usize, Pegs, usize),
    ) {
        if self.flips.is_empty() {
            for j in jumps {
                let (class, element) = group.canonical_with_element(moves.apply(pos, j));
                f(j, class, element);
            }
            return;
        }
        let mut images = [Pegs::EMPTY; MAX_ORDER];
        for (g, image) in images.iter_mut().enumerate().take(self.order) {
            *image = group.apply(g, pos);
        }
        for j in jumps {
            let flips = &self.flips[j * self.order..(j + 1) * self.order];
            let mut best = (images[0] ^ flips[0], 0);
            for g in 1..self.order {
                let image = images[g] ^ flips[g];
                if image < best.0 {
                    best = (image, g);
                }
            }
            f(j, best.0, best.1);
        }
    }
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
    /// this one) under every element, on every position of a few random games of the crosses and triangles, under the whole group and a stabilizer.
    #[test]
    fn children_have_the_canonical_forms_and_elements_of_a_full_permutation() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        for name in ["english", "triangle5", "european", "triangle8"] {
            let board = builtin(name).unwrap();
            let moves = MoveTable::new(&board);
            let whole = SymmetryGroup::of_board(&board);
            let some = whole.stabilizer(Pegs::single(1));
            for group in [&whole, &some] {
                let children = Children::new(&moves, group);
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
                        children.each_undone(&moves, group, pos, |j, class, element| {
                            undone.push((j, class, element))
                        });
                        assert_eq!(seen, permuted(&mut moves.legal(pos)), "{name}");
                        assert_eq!(undone, permuted(&mut moves.jumps_into(pos)), "{name}, jumps undone");
                        if seen.is_empty() {
                            break;
                        }
                        pos = moves.apply(pos, seen[next() as usize % seen.len()].0);
                    }
                }
            }
        }
    }
}
