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
}

impl MoveTable {
    pub fn new(board: &Board) -> MoveTable {
        let jumps = board.jumps().to_vec();
        let need = jumps.iter().map(|j| Pegs::single(j.from).with(j.over)).collect();
        let empty = jumps.iter().map(|j| Pegs::single(j.to)).collect();
        MoveTable { jumps, need, empty }
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
    pub fn legal(&self, pos: Pegs) -> impl Iterator<Item = usize> + '_ {
        (0..self.jumps.len()).filter(move |&j| self.is_legal(pos, j))
    }

    #[inline]
    pub fn has_move(&self, pos: Pegs) -> bool {
        (0..self.jumps.len()).any(|j| self.is_legal(pos, j))
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
        mut f: impl FnMut(usize, Pegs, usize),
    ) {
        if self.flips.is_empty() {
            for j in moves.legal(pos) {
                let (class, element) = group.canonical_with_element(moves.apply(pos, j));
                f(j, class, element);
            }
            return;
        }
        let mut images = [Pegs::EMPTY; MAX_ORDER];
        for (g, image) in images.iter_mut().enumerate().take(self.order) {
            *image = group.apply(g, pos);
        }
        for j in moves.legal(pos) {
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

    /// `Children` agrees with permuting every child under every element, on every position
    /// of a few random games of the crosses and triangles, under the whole group and a stabilizer.
    #[test]
    fn children_have_the_canonical_forms_and_elements_of_a_full_permutation() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
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
                        let mut seen = Vec::new();
                        children.each(&moves, group, pos, |j, class, element| seen.push((j, class, element)));
                        let expected: Vec<(usize, Pegs, usize)> = moves
                            .legal(pos)
                            .map(|j| {
                                let (class, element) = group.canonical_with_element(moves.apply(pos, j));
                                (j, class, element)
                            })
                            .collect();
                        assert_eq!(seen, expected, "{name}");
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
