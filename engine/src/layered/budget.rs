//! The memory budget: a step is refused before it allocates, never halfway through. Two
//! projections guard a step, one before each big allocation:
//!
//! 1. `check_scan`, before the pass over the parents builds the edges: the layer itself
//!    plus its edges, projected from the moves per state of the layer before;
//! 2. `check_step`, before the children are built: the layer, its edges (now counted) and
//!    the next layer, projected from this layer's growth and capped by the moves made.
//!
//! A step whose edges would not fit at once is taken in rounds (`plan`): each round keeps
//! the edges of a part of the parents only, and passes over the layer once more. With its
//! parents on disk, a step whose children would not fit is summed in parts besides: each
//! part sums the children of a part of the shards, and passes over every parent again.
//!
//! Both are estimates (hash maps and allocators add their share), meant to refuse a board
//! that cannot fit rather than to account for every byte. Besides the budget, `check_layer`
//! holds a layer to what its `u32` parent indices can address, whatever the budget.

use super::parents::Edge;
use crate::error::EngineError;
use std::mem::size_of;

/// What the projections remember of the layers before.
pub(super) struct History {
    /// States in the last layer that had moves.
    pub previous_len: usize,
    /// Moves per state in the last layer.
    pub moves_per_state: f64,
}

impl History {
    pub fn new() -> History {
        History { previous_len: 1, moves_per_state: 0.0 }
    }

    /// This layer's growth over the last expanded one (1 or more).
    fn growth(&self, n: usize) -> f64 {
        (n as f64 / self.previous_len as f64).max(1.0)
    }
}

/// Refuses a layer of rank `rank` with more than `limit` states.
pub(super) fn check_layer(rank: u32, states: u64, limit: u64) -> Result<(), EngineError> {
    if states > limit {
        return Err(EngineError::LayerTooLarge { rank, states, limit });
    }
    Ok(())
}

/// Projection 1: `n` states of `stride` limbs each, and the edges of one round of one part
/// of `plan` at the last layer's moves per state. A refusal names the next layer with a
/// guess at its size from the growth.
pub(super) fn check_scan<S>(
    budget: Option<u64>,
    rank: u32,
    (n, stride): (usize, usize),
    plan: Plan,
    history: &History,
) -> Result<(), EngineError> {
    let Some(budget) = budget else { return Ok(()) };
    let key_bytes = size_of::<S>() as f64;
    let edge_bytes = bytes_per_edge::<S>() as f64 / plan.passes() as f64;
    let bytes = (n as f64 * (key_bytes + 8.0 * stride as f64 + history.moves_per_state * edge_bytes)) as u64;
    if bytes <= budget {
        return Ok(());
    }
    let states = (n as f64 * history.growth(n)) as u64;
    Err(EngineError::TooLarge { rank: rank.saturating_sub(1), states, bytes, budget })
}

/// The most rounds a step is taken in: past that, each round's pass over every parent
/// costs more than the step.
const MAX_ROUNDS: usize = 64;

/// The most parts a step's children are summed in: each part passes over every parent and
/// puts each child in canonical form again, and past 16 the map of the part under way (at
/// most 24 bytes a child over 16 parts) is no longer what the step holds most of.
const MAX_PARTS: usize = 16;

/// How a step is taken: its parents' edges are built in `rounds` (each round a range of the
/// parents) for each of `parts` (each part the children of some shards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    pub rounds: usize,
    pub parts: usize,
}

impl Plan {
    pub const WHOLE: Plan = Plan { rounds: 1, parts: 1 };

    /// How many times the parents' edges are built, each time a 1/passes share of them.
    pub fn passes(self) -> usize {
        self.rounds * self.parts
    }
}

/// An edge and its weight: a step holds weights only for a chain with weights other than 1,
/// which a projection made before the step cannot know.
fn bytes_per_edge<S>() -> usize {
    size_of::<Edge<S>>() + size_of::<u32>()
}

/// The fewest parts, then the fewest rounds (1, 2, 4, ... up to 16 and 64), in which the
/// step from `n` states of `stride` words to children of `next_stride` words is projected to
/// fit the budget, from the last layer's moves per state; refused as the most would be when
/// none fits. Parts cost a pass over every parent each, so a step takes them only when no
/// number of rounds fits, and only with its parents on disk in a run of one process. A step
/// that fits whole takes one round in one part.
pub(super) fn plan<S>(
    budget: Option<u64>,
    rank: u32,
    (n, stride, next_stride): (usize, usize, usize),
    history: &History,
    held: Held,
) -> Result<Plan, EngineError> {
    let moves = (n as f64 * history.moves_per_state) as u64;
    let most_parts = if held.spilled && !held.shared { MAX_PARTS } else { 1 };
    let mut plan = Plan::WHOLE;
    loop {
        let fits = check_scan::<S>(budget, rank, (n, stride), plan, history).and_then(|()| {
            check_step::<S>(budget, rank, (n, stride, moves, plan), next_stride, history, held).map(|_| ())
        });
        match fits {
            Ok(()) => return Ok(plan),
            Err(e) if plan.rounds >= MAX_ROUNDS && plan.parts >= most_parts => return Err(e),
            Err(_) if plan.rounds >= MAX_ROUNDS => plan = Plan { rounds: 1, parts: plan.parts * 2 },
            Err(_) => plan.rounds *= 2,
        }
    }
}

/// How a step holds its parents (see [`check_step`]).
#[derive(Clone, Copy, Default)]
pub(super) struct Held {
    /// Several processes share the run.
    pub shared: bool,
    /// The shares are written over the parents' numerators (see `factors::in_place`).
    pub in_place: bool,
    /// In rounds, the parents wait on disk (see `spill`).
    pub spilled: bool,
}

/// Projection 2: the larger of the step's two phases. While the shares are made: the
/// layer's `n` states whole (`stride` words each) with their move totals, their shares at the
/// children's width `next_stride` (unless they are made in place), and the edges of one
/// round of one part of `plan`, of its `moves`. While the children are summed: the shares,
/// those edges, the parents' states when the step goes in rounds or parts (later ones scan
/// them again; their numerators are freed), and the next layer, projected from this layer's
/// growth and capped by the moves (each child held with its key and numerator, and the part
/// under way with about 24 bytes of map a child besides). Parents spilled to disk count one
/// round's part (states, their codes as read, shares). A process of a shared run also holds
/// one round's children apart from the ones it owns, and for a while twice more: as the
/// parcels it sends and as those it receives. Returns the bytes projected (0 without a
/// budget).
pub(super) fn check_step<S>(
    budget: Option<u64>,
    rank: u32,
    (n, stride, moves, plan): (usize, usize, u64, Plan),
    next_stride: usize,
    history: &History,
    held: Held,
) -> Result<u64, EngineError> {
    let Some(budget) = budget else { return Ok(0) };
    let (n, key) = (n as u64, size_of::<S>() as u64);
    let Plan { rounds, parts } = plan;
    let edges = (moves as f64 * bytes_per_edge::<S>() as f64 / plan.passes() as f64) as u64;
    let projected = ((n as f64 * history.growth(n as usize)) as u64).min(moves);
    let entry = key + 8 * next_stride as u64;
    let shares = n * 8 * next_stride as u64;
    let making = n * (key + 8 * stride as u64 + 8) + if held.in_place { 0 } else { shares } + edges;
    let parents = match (plan.passes() > 1, held.spilled) {
        (false, _) => shares,
        (true, false) => n * key + shares,
        (true, true) => (n * (key + 8) + shares).div_ceil(rounds as u64),
    };
    let round_children = projected.min(moves / rounds as u64);
    let sent = if held.shared { round_children * (3 * entry + 24) } else { 0 };
    let children = projected * entry + (projected * 24).div_ceil(parts as u64);
    let summing = parents + edges + children + sent;
    let bytes = making.max(summing);
    if bytes <= budget {
        return Ok(bytes);
    }
    Err(EngineError::TooLarge { rank: rank.saturating_sub(1), states: projected, bytes, budget })
}

/// Whether a step projected at `bytes` runs near the budget (past half of it): the step then
/// hands freed memory back to the system as it goes (see `alloc::give_back`), since what the
/// allocator keeps for reuse and the filing of the children into their bucket are not in the
/// projection, and a step at half the budget has room for them.
pub(super) fn near(budget: Option<u64>, bytes: u64) -> bool {
    budget.is_some_and(|budget| bytes > budget / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHARED: Held = Held { shared: true, in_place: false, spilled: false };

    /// A step in `rounds` rounds and one part.
    fn r(rounds: usize) -> Plan {
        Plan { rounds, parts: 1 }
    }

    #[test]
    fn projections_count_keys_numerators_and_edges() {
        let h = History { previous_len: 10, moves_per_state: 2.0 };
        // 100 u64 keys with 1-limb numerators and 2 edges of 16 bytes each: 100 * 48 bytes.
        assert_eq!(bytes_per_edge::<u64>(), 16);
        assert!(check_scan::<u64>(Some(4_800), 5, (100, 1), r(1), &h).is_ok());
        let err = check_scan::<u64>(Some(4_799), 5, (100, 1), r(1), &h).unwrap_err();
        assert_eq!(err, EngineError::TooLarge { rank: 4, states: 1_000, bytes: 4_800, budget: 4_799 });
        // Summing, the larger phase: 100 shares of 8 bytes, 300 edges at 16, and min(1000,
        // 300) children at 16 + 24 (the parents are freed). Making the shares takes the
        // parents whole with their totals (100 * 24), the shares and the edges: 8,000 bytes.
        let bytes = 100 * 8 + 300 * 16 + 300 * 40;
        assert_eq!(check_step::<u64>(Some(bytes), 5, (100, 1, 300, r(1)), 1, &h, Held::default()), Ok(bytes));
        // Past half its budget a step is near it (and gives freed memory back as it goes).
        assert!(near(Some(2 * bytes - 1), bytes));
        assert!(!near(Some(2 * bytes), bytes));
        assert!(!near(None, u64::MAX));
        let err =
            check_step::<u64>(Some(bytes - 1), 5, (100, 1, 300, r(1)), 1, &h, Held::default()).unwrap_err();
        assert_eq!(err, EngineError::TooLarge { rank: 4, states: 300, bytes, budget: bytes - 1 });
        assert_eq!(check_step::<u64>(None, 5, (100, 1, 300, r(1)), 1, &h, Held::default()), Ok(0));
        // Shared: one round's children (300 in one round, 150 in two) besides, at 3 * 16 + 24.
        let shared = bytes + 300 * 72;
        assert!(check_step::<u64>(Some(shared), 5, (100, 1, 300, r(1)), 1, &h, SHARED).is_ok());
        assert!(check_step::<u64>(Some(shared - 1), 5, (100, 1, 300, r(1)), 1, &h, SHARED).is_err());
        // In two rounds the parents' states (8 bytes each, not their numerators) stay for the
        // second round's scan.
        let two = 100 * 8 + 100 * 8 + 150 * 16 + 300 * 40 + 150 * 72;
        assert!(check_step::<u64>(Some(two), 5, (100, 1, 300, r(2)), 1, &h, SHARED).is_ok());
        assert!(check_step::<u64>(Some(two - 1), 5, (100, 1, 300, r(2)), 1, &h, SHARED).is_err());
        // Two rounds halve the edges held at once: 100 * 32 bytes, then 100 * 24.
        assert!(check_scan::<u64>(Some(3_200), 5, (100, 1), r(2), &h).is_ok());
        assert!(check_scan::<u64>(Some(3_199), 5, (100, 1), r(2), &h).is_err());
    }

    #[test]
    fn making_the_shares_is_projected_where_it_is_the_larger_phase() {
        // 100 parents of 4-limb numerators with 50 moves in all (half of them absorbing):
        // the parents whole (8 + 32 bytes), their totals (8) and shares (32), and 50 edges of
        // 16 bytes outweigh the shares, the edges and 50 children of 40 + 24 bytes.
        let h = History { previous_len: 100, moves_per_state: 1.0 };
        let making = 100 * (8 + 32 + 8) + 100 * 32 + 50 * 16;
        let summing = 100 * 32 + 50 * 16 + 50 * 64;
        assert!(making > summing);
        assert!(check_step::<u64>(Some(making), 5, (100, 4, 50, r(1)), 4, &h, Held::default()).is_ok());
        assert!(check_step::<u64>(Some(making - 1), 5, (100, 4, 50, r(1)), 4, &h, Held::default()).is_err());
    }

    #[test]
    fn shares_made_in_place_and_parents_on_disk_are_not_counted_twice() {
        let h = History { previous_len: 100, moves_per_state: 1.0 };
        // Making the shares of 100 parents of 1 word, 30 moves (16 bytes an edge): the
        // parents (8 + 8), their totals (8) and shares (8) apart, or written over them; both
        // over summing them (the shares, the edges and 30 children of 16 + 24 bytes: 2,480).
        let apart = 100 * (8 + 8 + 8) + 100 * 8 + 30 * 16;
        let in_place = Held { in_place: true, ..Held::default() };
        assert!(check_step::<u64>(Some(apart), 5, (100, 1, 30, r(1)), 1, &h, Held::default()).is_ok());
        assert!(check_step::<u64>(Some(apart - 1), 5, (100, 1, 30, r(1)), 1, &h, Held::default()).is_err());
        assert!(check_step::<u64>(Some(apart - 100 * 8), 5, (100, 1, 30, r(1)), 1, &h, in_place).is_ok());
        assert!(
            check_step::<u64>(Some(apart - 100 * 8 - 1), 5, (100, 1, 30, r(1)), 1, &h, in_place).is_err()
        );
        // Summing 50 moves in 4 rounds: the parents' states and shares held whole (8 + 8
        // bytes each), or a round's part of them from disk (states, codes and shares: 24
        // bytes), beside a round's edges and 50 children; both over making the shares (2,600).
        let (edges, children) = (50 * 16 / 4, 50 * (8 + 8 + 24));
        let held = 100 * 16 + edges + children;
        let spilled = (100 * 24) / 4 + edges + children;
        let on_disk = Held { spilled: true, ..in_place };
        assert!(check_step::<u64>(Some(held), 5, (100, 1, 50, r(4)), 1, &h, in_place).is_ok());
        assert!(check_step::<u64>(Some(held - 1), 5, (100, 1, 50, r(4)), 1, &h, in_place).is_err());
        assert!(check_step::<u64>(Some(spilled), 5, (100, 1, 50, r(4)), 1, &h, on_disk).is_ok());
        assert!(check_step::<u64>(Some(spilled - 1), 5, (100, 1, 50, r(4)), 1, &h, on_disk).is_err());
    }

    #[test]
    fn a_step_takes_the_fewest_rounds_that_fit_and_is_refused_when_none_does() {
        let h = History { previous_len: 100, moves_per_state: 8.0 };
        // Summing: 100 shares at the children's width (2 limbs), 800 edges of 16 bytes held a
        // round at a time and 100 children of 24 + 24 bytes; in rounds, the 100 parents'
        // states (8-byte keys) besides.
        let states = |rounds: u64| if rounds > 1 { 100 * 8 } else { 0 };
        let need = |rounds: u64| states(rounds) + 100 * 16 + 800 / rounds * 16 + 100 * (24 + 24);
        assert_eq!(plan::<u64>(None, 5, (100, 1, 2), &h, Held::default()), Ok(r(1)));
        assert_eq!(plan::<u64>(Some(need(1)), 5, (100, 1, 2), &h, Held::default()), Ok(r(1)));
        assert_eq!(plan::<u64>(Some(need(1) - 1), 5, (100, 1, 2), &h, Held::default()), Ok(r(2)));
        assert_eq!(plan::<u64>(Some(need(4)), 5, (100, 1, 2), &h, Held::default()), Ok(r(4)));
        assert!(plan::<u64>(Some(100 * 16), 5, (100, 1, 2), &h, Held::default()).is_err());
    }

    #[test]
    fn a_step_whose_children_fit_no_rounds_is_summed_in_parts_only_with_its_parents_on_disk() {
        let h = History { previous_len: 100, moves_per_state: 1.0 };
        // 100 parents of one word with 100 moves into 100 children, by one residue (shares
        // made in place). Summing in R rounds of P parts: a round's parents from disk
        // (2,400 / R), a pass's edges (1,600 / RP), the children (100 * 16) and the map of
        // the part under way (2,400 / P). One part needs 4,063 bytes even in 64 rounds; two
        // parts fit 4,000 in four rounds (600 + 200 + 1,600 + 1,200), and 3,600 in eight.
        let on_disk = Held { in_place: true, spilled: true, shared: false };
        let plan_for = |bytes, held| plan::<u64>(Some(bytes), 5, (100, 1, 1), &h, held);
        assert_eq!(plan_for(4_000, on_disk), Ok(Plan { rounds: 4, parts: 2 }));
        assert_eq!(plan_for(3_600, on_disk), Ok(Plan { rounds: 4, parts: 2 }));
        assert_eq!(plan_for(3_599, on_disk), Ok(Plan { rounds: 8, parts: 2 }));
        assert_eq!(plan_for(4_063, on_disk), Ok(Plan { rounds: 64, parts: 1 }));
        // With the parents in memory, or in a run shared between processes, never in parts.
        assert!(plan_for(4_000, Held { spilled: false, ..on_disk }).is_err());
        assert!(plan_for(4_000, Held { shared: true, ..on_disk }).is_err());
    }
}
