//! Random play on a board as an absorbing Markov chain for the engine: states are
//! positions, moves are the legal jumps weighted by the policy, and a game ends where no
//! jump is left. The rank is the number of pegs, which every jump lowers by one.

use crate::engine::Chain;
use crate::solitaire::board::SymmetryGroup;
use crate::solitaire::moves::MoveTable;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::policy::Policy;

/// Random play on a board: states are positions, reduced by `group`.
///
/// The engine's weight contract: a policy's weights are at most the lcm of the numbers of
/// jumps one peg (or into one hole) has, 840 at most on a lattice board (8 directions);
/// a board file with a hole of very many jumps could pass 2^32, and the engine then
/// refuses it rather than narrowing.
pub struct PegChain<'a> {
    pub moves: &'a MoveTable,
    pub policy: Policy,
    pub group: &'a SymmetryGroup,
}

impl Chain for PegChain<'_> {
    type State = Pegs;

    #[inline]
    fn rank(&self, pos: Pegs) -> u32 {
        pos.count()
    }

    #[inline]
    fn transitions(&self, pos: Pegs, out: &mut Vec<(Pegs, u64)>) -> u64 {
        out.clear();
        if self.policy == Policy::Uniform {
            // The hot path of the big boards: no list of legal jumps, no allocation.
            out.extend(self.moves.legal(pos).map(|j| (self.moves.apply(pos, j), 1)));
            return out.len() as u64;
        }
        let legal: Vec<usize> = self.moves.legal(pos).collect();
        if legal.is_empty() {
            return 0;
        }
        let mut weights = Vec::with_capacity(legal.len());
        let total = self.policy.weights(self.moves.jumps(), &legal, &mut weights);
        out.extend(legal.iter().zip(&weights).map(|(&j, &w)| (self.moves.apply(pos, j), w)));
        total
    }

    #[inline]
    fn canonical(&self, pos: Pegs) -> Pegs {
        self.group.canonical(pos)
    }
}

/// How a game ended: one peg left in a hole, or several pegs and no jump (the engine's
/// absorbing classes for peg solitaire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum End {
    Finish(u8),
    Pegs(u32),
}

impl End {
    /// A 64-bit code (saved runs, and runs shared by processes): a finish hole as itself,
    /// any other end as 2^32 + its pegs.
    pub fn code(end: &End) -> u64 {
        match *end {
            End::Finish(h) => u64::from(h),
            End::Pegs(n) => (1 << 32) + u64::from(n),
        }
    }

    /// The end of a code, if it is one.
    pub fn of_code(code: u64) -> Option<End> {
        match code {
            0..=255 => Some(End::Finish(code as u8)),
            c if c > 1 << 32 => u32::try_from(c - (1 << 32)).ok().map(End::Pegs),
            _ => None,
        }
    }

    #[inline]
    pub fn of(pos: Pegs) -> End {
        match pos.single_hole() {
            Some(hole) => End::Finish(hole),
            None => End::Pegs(pos.count()),
        }
    }
    pub fn pegs(self) -> u32 {
        match self {
            End::Finish(_) => 1,
            End::Pegs(n) => n,
        }
    }
}
