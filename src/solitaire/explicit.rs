//! Random play from one start written out as an explicit chain, for `export` (Storm and
//! PRISM check it) and for checking the layered engine against the explicit solver.

use super::board::{Board, SymmetryGroup};
use super::chain::PegChain;
use super::moves::MoveTable;
use super::pegs::Pegs;
use super::policy::Policy;
use crate::engine::explicit::ExplicitChain;
use crate::engine::explicit::explore::{ExploreError, SizeBudget, explore_within};
use crate::error::Error;

/// The chain of random play under `policy` from the full board less `start`, its positions
/// reduced by the symmetries that fix the start hole (so every figure of `exact` survives).
/// Ends are labelled `one_peg` and `pegs_N` (N pegs left, no jump). At most `limit` states;
/// stops when `cancel` is cancelled. With a memory `budget` (bytes), refused as soon as the
/// chain is projected past it (see [`crate::formats::check_size`]), before it is built.
pub fn chain(
    board: &Board,
    start: u8,
    policy: Policy,
    (limit, budget): (u64, Option<u64>),
    cancel: &crate::Cancel,
) -> Result<ExplicitChain, Error> {
    let moves = MoveTable::new(board);
    let group = SymmetryGroup::of_board(board).stabilizer(Pegs::single(start));
    let peg_chain = PegChain::new(&moves, policy, &group);
    let first = board.full().without(start);
    let labels = |pos: Pegs| -> Vec<String> {
        use crate::engine::Chain;
        if peg_chain.transitions(pos, &mut Vec::new()) > 0 {
            return Vec::new();
        }
        match pos.count() {
            1 => vec!["one_peg".to_string(), "pegs_1".to_string()],
            n => vec![format!("pegs_{n}")],
        }
    };
    let budget = budget.map(|bytes| SizeBudget {
        bytes,
        per_state: crate::formats::BYTES_PER_STATE,
        per_transition: crate::formats::BYTES_PER_TRANSITION,
    });
    let explored = explore_within(&peg_chain, &[first], true, (limit, budget), cancel, labels);
    let (explicit, _) = explored.map_err(|e| match e {
        ExploreError::PastBudget { states, transitions, budget, .. } => Error::Invalid(format!(
            "random play from this start reaches more than {} positions (classes under symmetry) and about {} \
             transitions, projected to need more than the memory budget of {}",
            crate::render::number::grouped(states),
            crate::render::number::grouped(transitions),
            crate::render::number::bytes(budget)
        )),
        ExploreError::TooManyStates { limit } => Error::Invalid(format!(
            "random play from this start reaches more than {} positions (classes under symmetry): too many to write out",
            crate::render::number::grouped(limit)
        )),
        ExploreError::Cancelled { states } => Error::Interrupted {
            done: format!(
                "the export stopped with nothing written ({} of the start's positions found)",
                crate::render::number::grouped(states)
            ),
        },
        ExploreError::Chain(e) => Error::Invalid(format!("cannot write this chain out: {e}")),
    })?;
    Ok(explicit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;

    /// A start that reaches more positions than the limit is refused, the limit in words.
    #[test]
    fn a_chain_past_the_limit_is_refused_with_the_limit() {
        let board = builtin("triangle5").unwrap();
        let go_on = crate::Cancel::new();
        assert!(chain(&board, 0, Policy::Uniform, (10_000, None), &go_on).is_ok());
        let why = chain(&board, 0, Policy::Uniform, (1_000, None), &go_on).unwrap_err().to_string();
        assert_eq!(
            why,
            "random play from this start reaches more than 1,000 positions (classes under symmetry): too many to write out"
        );
    }

    /// A stop asked for ends the exploration with what it had found, and writes nothing.
    #[test]
    fn a_cancelled_export_stops() {
        let board = builtin("triangle5").unwrap();
        let stop = crate::Cancel::new();
        stop.cancel();
        let e = chain(&board, 0, Policy::Uniform, (10_000, None), &stop).unwrap_err();
        assert!(
            matches!(e, Error::Interrupted { ref done } if done == "the export stopped with nothing written (1 of the start's positions found)"),
            "{e:?}"
        );
    }
}
