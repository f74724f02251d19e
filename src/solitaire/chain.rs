//! Random play on a board as an absorbing Markov chain for the engine: states are
//! positions, moves are the legal jumps weighted by the policy, and a game ends where no
//! jump is left. The rank is the number of pegs, which every jump lowers by one.

use crate::engine::{Chain, Ranked};
use crate::solitaire::board::SymmetryGroup;
use crate::solitaire::moves::{Children, MoveTable};
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
    /// Each jump's holes under each element: the children's canonical forms, fast.
    children: Children,
}

impl<'a> PegChain<'a> {
    pub fn new(moves: &'a MoveTable, policy: Policy, group: &'a SymmetryGroup) -> PegChain<'a> {
        PegChain { moves, policy, group, children: Children::new(moves, group) }
    }

    /// How many positions `pos` stands for under the chain's group.
    pub fn orbit_size(&self, pos: Pegs) -> u64 {
        self.children.orbit_size(self.group, pos)
    }
}

impl Chain for PegChain<'_> {
    type State = Pegs;

    #[inline]
    fn transitions(&self, pos: Pegs, out: &mut Vec<(Pegs, u64)>) -> u64 {
        self.moves_into(pos, out, false)
    }

    #[inline]
    fn canonical(&self, pos: Pegs) -> Pegs {
        self.group.canonical(pos)
    }

    #[inline]
    fn canonical_transitions(&self, pos: Pegs, out: &mut Vec<(Pegs, u64)>) -> u64 {
        self.moves_into(pos, out, true)
    }
}

impl Ranked for PegChain<'_> {
    #[inline]
    fn rank(&self, pos: Pegs) -> u32 {
        pos.count()
    }
}

impl PegChain<'_> {
    /// The moves from `pos` into `out` and their total weight, each child in canonical form
    /// if `canonical` asks: the legal jumps are found once either way.
    #[inline]
    fn moves_into(&self, pos: Pegs, out: &mut Vec<(Pegs, u64)>, canonical: bool) -> u64 {
        out.clear();
        if self.policy == Policy::Uniform {
            // The hot path of the big boards: no list of legal jumps, no allocation.
            self.each_child(pos, canonical, |_, child| out.push((child, 1)));
            return out.len() as u64;
        }
        let mut legal = Vec::new();
        self.each_child(pos, canonical, |jump, child| {
            legal.push(jump);
            out.push((child, 0));
        });
        if legal.is_empty() {
            return 0;
        }
        let mut weights = Vec::with_capacity(legal.len());
        let total = self.policy.weights(self.moves.jumps(), &legal, &mut weights);
        out.iter_mut().zip(weights).for_each(|(next, weight)| next.1 = weight);
        total
    }

    /// Calls `add(jump, child)` for every legal jump from `pos`, the child in canonical form
    /// if `canonical` asks (then in the order of [`Children::each`], else the board's jump
    /// order).
    #[inline(always)]
    fn each_child(&self, pos: Pegs, canonical: bool, mut add: impl FnMut(usize, Pegs)) {
        if canonical {
            self.children.each(self.moves, self.group, pos, |jump, class, _| add(jump, class));
        } else {
            self.moves.legal(pos).for_each(|jump| add(jump, self.moves.apply(pos, jump)));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;
    use crate::solitaire::policy::POLICIES;

    /// The fast canonical children equal `transitions` followed by `canonical`, weights
    /// included (in another order), under every policy, on the first 20,000 classes reachable layer by
    /// layer from an empty hole 1 of triangle5 (all of them) and of the English board, under
    /// the whole group and a stabilizer.
    #[test]
    fn canonical_transitions_are_transitions_then_canonical() {
        for name in ["triangle5", "english"] {
            let board = builtin(name).unwrap();
            let moves = MoveTable::new(&board);
            let whole = SymmetryGroup::of_board(&board);
            let some = whole.stabilizer(Pegs::single(1));
            for group in [&whole, &some] {
                for policy in POLICIES {
                    let chain = PegChain::new(&moves, policy, group);
                    let mut seen = 0;
                    let mut layer = vec![board.full().without(1)];
                    let (mut fast, mut slow) = (Vec::new(), Vec::new());
                    while !layer.is_empty() && seen < 20_000 {
                        let mut next = Vec::new();
                        for &pos in &layer {
                            let total = chain.canonical_transitions(pos, &mut fast);
                            assert_eq!(total, chain.transitions(pos, &mut slow), "{name} {policy}");
                            slow.iter_mut().for_each(|(child, _)| *child = chain.canonical(*child));
                            next.extend(slow.iter().map(|&(child, _)| child));
                            // The fast way takes the jumps in another order.
                            fast.sort_unstable();
                            slow.sort_unstable();
                            assert_eq!(fast, slow, "{name} {policy}");
                            seen += 1;
                        }
                        next.sort_unstable();
                        next.dedup();
                        layer = next;
                    }
                    assert!(seen > 1000, "{name} {policy}: {seen}");
                }
            }
        }
    }
}
