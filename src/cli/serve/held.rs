//! The futures the server keeps, so that a game goes on below a position already valued
//! without a new search: one per board and policy (a page on the English board keeps its
//! future while another page plays a triangle), as many as the memory share for futures
//! holds, the least recently used let go first, and none kept once unused for [`IDLE`] (a
//! server left running gives its memory back).

use pegchain::Policy;
use pegchain::solitaire::coach::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a future unused is kept.
pub const IDLE: Duration = Duration::from_secs(10 * 60);

/// The most futures kept at once, whatever their size.
const MOST: usize = 8;

/// A future kept for the positions below its root.
pub struct Held {
    pub board: String,
    pub policy: Policy,
    pub future: Future,
}

/// The futures kept, each with when it last answered.
pub struct Holding {
    /// The most positions (up to symmetry) the futures kept may hold together.
    max_positions: usize,
    futures: Vec<(Arc<Held>, Instant)>,
}

impl Holding {
    pub fn new(max_positions: usize) -> Holding {
        Holding { max_positions, futures: Vec::new() }
    }

    /// The future kept of `board` under `policy`, if any, marked as used `now`.
    pub fn of(&mut self, board: &str, policy: Policy, now: Instant) -> Option<Arc<Held>> {
        let (held, used) = self.futures.iter_mut().find(|(h, _)| h.board == board && h.policy == policy)?;
        *used = now;
        Some(held.clone())
    }

    /// Keeps `held` (in place of the one of its board and policy), letting the least
    /// recently used others go until the futures kept fit.
    pub fn keep(&mut self, held: Held, now: Instant) {
        self.let_go(&held.board, held.policy);
        self.futures.push((Arc::new(held), now));
        let positions = |futures: &[(Arc<Held>, Instant)]| -> usize {
            futures.iter().map(|(h, _)| h.future.positions()).sum()
        };
        while self.futures.len() > MOST
            || (self.futures.len() > 1 && positions(&self.futures) > self.max_positions)
        {
            // The newest is last, and never the least recently used of the others.
            let others = &self.futures[..self.futures.len() - 1];
            let oldest = (0..others.len()).min_by_key(|&i| others[i].1).expect("others are kept");
            self.futures.remove(oldest);
        }
    }

    /// Lets go of the future of `board` under `policy`, if one is kept.
    pub fn let_go(&mut self, board: &str, policy: Policy) {
        self.futures.retain(|(h, _)| !(h.board == board && h.policy == policy));
    }

    /// Lets go of the futures unused since `now - IDLE`.
    pub fn let_go_idle(&mut self, now: Instant) {
        self.futures.retain(|(_, used)| now.duration_since(*used) < IDLE);
    }

    /// The boards whose futures are kept, least recently used first.
    #[cfg(test)]
    fn boards(&self) -> Vec<&str> {
        let mut kept: Vec<_> = self.futures.iter().collect();
        kept.sort_by_key(|(_, used)| *used);
        kept.iter().map(|(h, _)| h.board.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pegchain::solitaire::board::builtin;
    use pegchain::solitaire::coach::Coach;

    /// The future of `name`'s full board less its first hole, and its size.
    fn held(name: &str) -> (Held, usize) {
        let board = builtin(name).unwrap();
        let future = Coach::new(&board, Policy::Uniform).future(board.full().without(0)).unwrap();
        let size = future.positions();
        (Held { board: name.into(), policy: Policy::Uniform, future }, size)
    }

    #[test]
    fn futures_are_kept_a_board_each_as_memory_allows_and_let_go_when_idle() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let (five, five_size) = held("triangle5");
        let (six, six_size) = held("triangle6");
        assert!(six_size > five_size);

        // Room for both: both kept, and one of another board never replaces the other.
        let mut holding = Holding::new(five_size + six_size);
        holding.keep(five, at(0));
        holding.keep(six, at(1));
        assert_eq!(holding.boards(), ["triangle5", "triangle6"]);
        assert!(holding.of("triangle5", Policy::Uniform, at(2)).is_some());
        assert!(holding.of("triangle5", Policy::PegFirst, at(2)).is_none());
        assert_eq!(holding.boards(), ["triangle6", "triangle5"]);
        // A new future of a board kept replaces it.
        holding.keep(held("triangle6").0, at(3));
        assert_eq!(holding.boards(), ["triangle5", "triangle6"]);
        // One let go before its board's next future is valued: the others stay.
        holding.let_go("triangle6", Policy::Uniform);
        assert_eq!(holding.boards(), ["triangle5"]);

        // Room for the larger alone: the least recently used goes, never the newest.
        let mut holding = Holding::new(six_size);
        holding.keep(held("triangle5").0, at(0));
        holding.keep(held("triangle6").0, at(1));
        assert_eq!(holding.boards(), ["triangle6"]);
        holding.keep(held("triangle5").0, at(2));
        assert_eq!(holding.boards(), ["triangle5"]);

        // Unused for IDLE: let go; used since: kept.
        let mut holding = Holding::new(usize::MAX);
        holding.keep(held("triangle5").0, at(0));
        holding.keep(held("triangle6").0, at(0));
        assert!(holding.of("triangle6", Policy::Uniform, at(300)).is_some());
        holding.let_go_idle(at(0) + IDLE);
        assert_eq!(holding.boards(), ["triangle6"]);
        holding.let_go_idle(at(300) + IDLE);
        assert!(holding.boards().is_empty());
    }
}
