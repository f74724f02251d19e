//! The legal jumps on a position (a `Pegs` bitboard), and their effect.

use crate::solitaire::board::{Board, Jump};
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
        pos ^ (self.need[jump] | self.empty[jump])
    }
}

/// The starting position with every hole filled but `hole`.
pub fn start_position(board: &Board, hole: u8) -> Pegs {
    board.full().without(hole)
}
