//! Positions as `u64` bitboards (bit h set = a peg in hole h) and the legal jumps on them.

use crate::solitaire::board::{Board, Jump};

/// The jumps of a board as bit masks, so a legality test is two ANDs and a compare.
#[derive(Clone, Debug)]
pub struct MoveTable {
    jumps: Vec<Jump>,
    /// Bits of `from` and `over`, which must hold pegs.
    need: Vec<u64>,
    /// Bit of `to`, which must be empty.
    empty: Vec<u64>,
}

impl MoveTable {
    pub fn new(board: &Board) -> MoveTable {
        let jumps = board.jumps().to_vec();
        let need = jumps.iter().map(|j| 1u64 << j.from | 1u64 << j.over).collect();
        let empty = jumps.iter().map(|j| 1u64 << j.to).collect();
        MoveTable { jumps, need, empty }
    }

    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    #[inline]
    pub fn is_legal(&self, pos: u64, jump: usize) -> bool {
        pos & self.need[jump] == self.need[jump] && pos & self.empty[jump] == 0
    }

    /// Indices of the legal jumps in `pos`, in the board's jump order.
    #[inline]
    pub fn legal(&self, pos: u64) -> impl Iterator<Item = usize> + '_ {
        (0..self.jumps.len()).filter(move |&j| self.is_legal(pos, j))
    }

    #[inline]
    pub fn has_move(&self, pos: u64) -> bool {
        (0..self.jumps.len()).any(|j| self.is_legal(pos, j))
    }

    /// The position after a legal jump: `from` and `over` empty, `to` filled.
    #[inline]
    pub fn apply(&self, pos: u64, jump: usize) -> u64 {
        pos ^ (self.need[jump] | self.empty[jump])
    }
}

/// The starting position with every hole filled but `hole`.
pub fn start_position(board: &Board, hole: u8) -> u64 {
    board.full() & !(1u64 << hole)
}
