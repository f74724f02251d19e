//! Monte Carlo play: random games under a policy, tallied by start hole and pegs left.
//!
//! A simulation is a list of runs; each run plays its games from start holes drawn
//! uniformly from its own hole set (one hole = a fixed start) with its own seed, derived
//! from the user's seed and the run's index. Everything goes through `sampler`, so a seed
//! fixes every number whatever the thread count.

use crate::engine::Cancel;
use crate::engine::sampler::{self, Batch, Stream};
use crate::error::Error;
use crate::solitaire::board::Board;
use crate::solitaire::moves::{MoveTable, start_position};
use crate::solitaire::pegs::Pegs;
use crate::solitaire::policy::Policy;

/// Boards up to this many holes get a table of legal jumps for every position
/// (2^21 positions: about 90 MB for the 21-hole triangle), so a move is one lookup; where the
/// system refuses the memory, games are played without it.
const DENSE_TABLE_HOLES: usize = 21;

/// Plays random games on one board.
pub struct Player {
    moves: MoveTable,
    policy: Policy,
    /// For small boards: the legal jumps of position p are `jumps[offsets[p]..offsets[p + 1]]`,
    /// and `flips` holds each one's effect (position ^= flip), saving a lookup per move.
    dense: Option<Dense>,
}

struct Dense {
    offsets: Vec<u32>,
    jumps: Vec<u8>,
    flips: Vec<u32>,
}

impl Dense {
    /// The table of every position of `holes` holes, or `None` where the system refuses its
    /// memory (an address-space limit, `ulimit -v`): the table only saves time, and the games
    /// are the same without it, where its allocation used to abort the run.
    fn new(moves: &MoveTable, holes: usize) -> Option<Dense> {
        /// Room for one more element, refused rather than aborting when memory is short.
        fn room<T>(v: &mut Vec<T>) -> Option<()> {
            if v.len() == v.capacity() { v.try_reserve(1).ok() } else { Some(()) }
        }
        let positions = 1usize << holes;
        let mut offsets = Vec::new();
        offsets.try_reserve_exact(positions + 1).ok()?;
        let (mut jumps, mut flips) = (Vec::new(), Vec::new());
        for pos in (0..positions as u64).map(Pegs) {
            offsets.push(jumps.len() as u32);
            for j in moves.legal(pos) {
                room(&mut jumps)?;
                room(&mut flips)?;
                jumps.push(j as u8);
                flips.push((moves.apply(pos, j) ^ pos).0 as u32);
            }
        }
        offsets.push(jumps.len() as u32);
        Some(Dense { offsets, jumps, flips })
    }
}

impl Player {
    pub fn new(board: &Board, policy: Policy) -> Player {
        let moves = MoveTable::new(board);
        // A jump a byte, and at most 256 a position: board files may have more.
        let small = board.hole_count() <= DENSE_TABLE_HOLES && moves.jumps().len() <= 256;
        let dense = if small { Dense::new(&moves, board.hole_count()) } else { None };
        Player { moves, policy, dense }
    }

    /// Plays one game from `pos` to the end and returns the final position.
    pub fn play(&self, stream: &mut Stream, pos: Pegs) -> Pegs {
        self.play_with(stream, pos, &mut Vec::new())
    }

    /// [`Player::play`], with `legal` to hold a position's legal jumps (a board file may give a
    /// position hundreds of them, numbered past 255), kept by the caller from game to game.
    pub fn play_with(&self, stream: &mut Stream, mut pos: Pegs, legal: &mut Vec<usize>) -> Pegs {
        loop {
            legal.clear();
            match &self.dense {
                Some(d) => {
                    let (a, b) = (d.offsets[pos.0 as usize] as usize, d.offsets[pos.0 as usize + 1] as usize);
                    if self.policy == Policy::Uniform {
                        if a == b {
                            return pos;
                        }
                        pos ^= Pegs(d.flips[a + stream.below((b - a) as u32) as usize] as u64);
                        continue;
                    }
                    legal.extend(d.jumps[a..b].iter().map(|&j| usize::from(j)));
                }
                None => legal.extend(self.moves.legal(pos)),
            }
            if legal.is_empty() {
                return pos;
            }
            let jump = self.choose(stream, legal);
            pos = self.moves.apply(pos, jump);
        }
    }

    /// Picks one of the legal jumps as the policy says.
    fn choose(&self, stream: &mut Stream, legal: &[usize]) -> usize {
        let jumps = self.moves.jumps();
        let key = |j: usize| match self.policy {
            Policy::Uniform => 0,
            Policy::PegFirst => jumps[j].from,
            Policy::HoleFirst => jumps[j].to,
        };
        if self.policy == Policy::Uniform {
            return legal[stream.below(legal.len() as u32) as usize];
        }
        // Two stages: a uniformly random group (peg or hole), then a jump within it.
        let mut groups = [0u8; 64];
        let mut count = 0;
        for &j in legal {
            if !groups[..count].contains(&key(j)) {
                groups[count] = key(j);
                count += 1;
            }
        }
        let group = groups[stream.below(count as u32) as usize];
        let members = legal.iter().filter(|&&j| key(j) == group).count();
        let pick = stream.below(members as u32) as usize;
        *legal.iter().filter(|&&j| key(j) == group).nth(pick).expect("pick < members")
    }
}

/// One run: `games` games, each from a start hole drawn uniformly from `holes`.
#[derive(Clone, Debug)]
pub struct Run {
    pub label: String,
    pub holes: Vec<u8>,
    pub games: u64,
}

/// The tallies of one run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunTally {
    /// `counts[hole][pegs]`: games started with `hole` empty that ended with `pegs` pegs.
    pub counts: Vec<Vec<u64>>,
    /// (games played, wins so far) after every batch, in order: the running estimate. Runs of
    /// more than `RUNNING_POINTS` batches keep it after every k-th batch and after the last.
    pub running: Vec<(u64, u64)>,
    /// Batches played so far (where a resumed run picks up).
    pub batches: u64,
}

impl RunTally {
    pub fn games(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }
    pub fn wins(&self) -> u64 {
        self.counts.iter().map(|c| c[1]).sum()
    }
}

/// The most points the running estimate keeps, whatever the number of games.
pub const RUNNING_POINTS: u64 = 1_000;

/// The running estimate keeps a point after every `running_every(batches)`-th batch (and
/// after the last), so a run of any length keeps at most `RUNNING_POINTS` points; up to that
/// many batches, it keeps every one.
pub fn running_every(batches: u64) -> u64 {
    if batches <= RUNNING_POINTS { 1 } else { batches.div_ceil(RUNNING_POINTS - 1) }
}

/// Plays every run. `done` hears of every finished batch (games in it), for progress. Once
/// `cancel` is cancelled no batch starts, and the answer is `Error::Interrupted` with the
/// games played by then.
pub fn simulate(
    board: &Board,
    policy: Policy,
    runs: &[Run],
    seed: u64,
    threads: usize,
    done: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
) -> Result<Vec<RunTally>, Error> {
    let waves = Waves { resume: Vec::new(), on_wave: &mut |_| Ok(()) };
    simulate_in_waves(board, policy, runs, (seed, threads), done, cancel, waves)
}

/// Plays `games` games from one position (any position of the board, not only a start)
/// and returns them by pegs left (index = pegs). A seed fixes the tallies for any thread
/// count; the games are those of a one-hole run of [`simulate`] (the first run's stream),
/// so from a start position they are the games `simulate` plays from that hole. Once
/// `cancel` is cancelled the answer is `Error::Interrupted`.
pub fn simulate_from(
    board: &Board,
    policy: Policy,
    pos: Pegs,
    games: u64,
    (seed, threads): (u64, usize),
    done: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
) -> Result<Vec<u64>, Error> {
    let player = Player::new(board, policy);
    let n = board.hole_count();
    let work = |stream: &mut Stream, batch: Batch| {
        let (mut counts, mut legal) = (vec![0u64; n + 1], Vec::new());
        for _ in 0..batch.len {
            counts[player.play_with(stream, pos, &mut legal).count() as usize] += 1;
        }
        counts
    };
    let add = |total: &mut Vec<u64>, _: Batch, counts: Vec<u64>| {
        for (a, b) in total.iter_mut().zip(counts) {
            *a += b;
        }
    };
    let seed = sampler::subseed(seed, 0);
    sampler::run_folded_cancellable(games, seed, threads, work, vec![0u64; n + 1], add, done, cancel)
        .map_err(|c| Error::games_interrupted(c.trials_done, games))
}

/// Batches played between two calls of the wave hook: about 16.8 million games, a
/// checkpoint every second or so on the small boards.
pub const WAVE_BATCHES: u64 = 256;

/// Where a simulation resumes and whom it tells after each wave of `WAVE_BATCHES` batches.
pub struct Waves<'a> {
    /// The tallies of an earlier session (as `on_wave` saw them): run i's tally holds its
    /// batches before `running.len()`; the runs after the last are not begun.
    pub resume: Vec<RunTally>,
    /// Sees the tallies after every wave (to save them); an error stops the simulation.
    pub on_wave: &'a mut dyn FnMut(&[RunTally]) -> Result<(), Error>,
}

/// [`simulate`] in waves: it starts where `waves.resume` stands and shows the tallies to
/// `waves.on_wave` after every wave. Batches are added in index order whatever the waves,
/// so a resumed simulation ends with exactly the tallies of an uninterrupted one.
pub fn simulate_in_waves(
    board: &Board,
    policy: Policy,
    runs: &[Run],
    (seed, threads): (u64, usize),
    done: &(dyn Fn(u64) + Sync),
    cancel: &Cancel,
    waves: Waves<'_>,
) -> Result<Vec<RunTally>, Error> {
    let player = Player::new(board, policy);
    let n = board.hole_count();
    let starts: Vec<Pegs> = (0..n as u8).map(|h| start_position(board, h)).collect();
    let total: u64 = runs.iter().map(|r| r.games).sum();
    let mut tallies = waves.resume;
    check_resume(&tallies, runs, n)?;
    for (i, run) in runs.iter().enumerate() {
        if tallies.len() == i {
            tallies.push(RunTally { counts: vec![vec![0; n + 1]; n], running: Vec::new(), batches: 0 });
        }
        let work = |stream: &mut Stream, batch: Batch| {
            let (mut counts, mut legal) = (vec![vec![0u64; n + 1]; n], Vec::new());
            for _ in 0..batch.len {
                let hole = if run.holes.len() == 1 {
                    run.holes[0]
                } else {
                    run.holes[stream.below(run.holes.len() as u32) as usize]
                };
                let end = player.play_with(stream, starts[hole as usize], &mut legal);
                counts[hole as usize][end.count() as usize] += 1;
            }
            counts
        };
        let seed = sampler::subseed(seed, i as u64);
        let batches = run.games.div_ceil(sampler::BATCH_SIZE);
        let every = running_every(batches);
        while tallies[i].batches < batches {
            let from = tallies[i].batches;
            let wave = from..(from + WAVE_BATCHES).min(batches);
            let played: u64 = tallies.iter().map(RunTally::games).sum();
            let wave = sampler::run_batches(run.games, seed, threads, wave, work, done, cancel)
                .map_err(|c| Error::games_interrupted(played + c.trials_done, total))?;
            tallies[i].add(wave, every, batches);
            (waves.on_wave)(&tallies)?;
        }
    }
    Ok(tallies)
}

/// Refuses tallies that cannot be an earlier session of these runs on a board of `n` holes.
fn check_resume(tallies: &[RunTally], runs: &[Run], n: usize) -> Result<(), Error> {
    let fits = tallies.len() <= runs.len()
        && tallies.iter().zip(runs).all(|(t, run)| {
            t.counts.len() == n
                && t.counts.iter().all(|c| c.len() == n + 1)
                && t.batches <= run.games.div_ceil(sampler::BATCH_SIZE)
                && t.games() == (t.batches * sampler::BATCH_SIZE).min(run.games)
        });
    if fits { Ok(()) } else { Err(Error::Invalid("the saved tallies do not fit this simulation".into())) }
}

impl RunTally {
    /// Adds the counts of a wave of batches, in order, keeping a point of the running estimate
    /// after every `every`-th batch and after the last of the run's `batches`.
    fn add(&mut self, wave: Vec<Vec<Vec<u64>>>, every: u64, batches: u64) {
        let (mut games, mut wins) = (self.games(), self.wins());
        for counts in wave {
            for (t, c) in self.counts.iter_mut().zip(&counts) {
                for (a, b) in t.iter_mut().zip(c) {
                    *a += b;
                }
            }
            games += counts.iter().flatten().sum::<u64>();
            wins += counts.iter().map(|c| c[1]).sum::<u64>();
            self.batches += 1;
            if self.batches.is_multiple_of(every) || self.batches == batches {
                self.running.push((games, wins));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solitaire::board::builtin;

    #[test]
    fn a_simulation_resumed_from_a_wave_ends_with_the_tallies_of_an_uninterrupted_one() {
        let board = builtin("triangle5").unwrap();
        let runs: Vec<Run> = [vec![0], vec![1, 2, 3]]
            .into_iter()
            .map(|holes| Run { label: String::new(), holes, games: 150_000 })
            .collect();
        let (policy, cancel) = (Policy::Uniform, Cancel::new());
        let whole = simulate(&board, policy, &runs, 5, 2, &|_| {}, &cancel).unwrap();
        let mut saved = Vec::new();
        let mut save = |t: &[RunTally]| {
            saved.push(t.to_vec());
            Ok(())
        };
        let waves = Waves { resume: Vec::new(), on_wave: &mut save };
        assert_eq!(simulate_in_waves(&board, policy, &runs, (5, 1), &|_| {}, &cancel, waves).unwrap(), whole);
        assert_eq!(saved.len(), 2, "one wave per run of 3 batches");
        let waves = Waves { resume: saved[0].clone(), on_wave: &mut |_| Ok(()) };
        assert_eq!(simulate_in_waves(&board, policy, &runs, (5, 2), &|_| {}, &cancel, waves).unwrap(), whole);
        // Tallies of another board are refused.
        let small = builtin("triangle4").unwrap();
        let waves = Waves { resume: saved[0].clone(), on_wave: &mut |_| Ok(()) };
        assert!(simulate_in_waves(&small, policy, &runs[..1], (5, 2), &|_| {}, &cancel, waves).is_err());
    }

    #[test]
    fn dense_and_generated_move_lists_play_the_same_games() {
        let board = builtin("triangle5").unwrap();
        for policy in crate::solitaire::policy::POLICIES {
            let dense = Player::new(&board, policy);
            let plain = Player { dense: None, ..Player::new(&board, policy) };
            let (mut a, mut b) = (Stream::new(3, 0), Stream::new(3, 0));
            for _ in 0..2_000 {
                assert_eq!(
                    dense.play(&mut a, start_position(&board, 0)),
                    plain.play(&mut b, start_position(&board, 0))
                );
            }
        }
    }

    #[test]
    fn the_running_estimate_keeps_at_most_its_cap_of_points_deterministically() {
        // Hand-made counts (one hole, a win in every other batch): only the running estimate matters.
        let thin = |batches: u64| {
            let mut tally = RunTally { counts: vec![vec![0; 2]], running: Vec::new(), batches: 0 };
            let wave =
                (0..batches).map(|index| vec![vec![sampler::BATCH_SIZE - index % 2, index % 2]]).collect();
            tally.add(wave, running_every(batches), batches);
            tally.running
        };
        for batches in [1, 2, 999, 1_000, 1_001, 5_000, 123_457] {
            let points = thin(batches);
            assert!(points.len() as u64 <= RUNNING_POINTS, "{batches} batches: {} points", points.len());
            assert_eq!(points.last().unwrap().0, batches * sampler::BATCH_SIZE, "the last batch is kept");
            assert_eq!(points, thin(batches), "deterministic");
        }
        // Up to the cap, every batch keeps its point (as before the cap).
        assert_eq!(thin(1_000).len(), 1_000);
        assert_eq!(thin(1_001).len(), 501);
        assert_eq!(thin(10).iter().map(|p| p.1).collect::<Vec<_>>(), [0, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
    }

    /// A board of 40 holes in a ring with 760 jumps (each hole over its k-th neighbour): a
    /// position with a third of its holes empty has more than 64 legal jumps, numbered past
    /// 255. Games from it end with no legal jump under every policy (a fixed array of 64 jumps
    /// of a byte each panicked here, and would have played the wrong jumps).
    #[test]
    fn a_board_with_hundreds_of_jumps_plays_to_the_end() {
        use crate::solitaire::board::{Hole, Jump, Shape};
        let n = 40u8;
        let holes = (0..n).map(|i| Hole { name: format!("h{i}"), x: 2 * i as i32, y: 0 }).collect();
        let jumps = (0..n)
            .flat_map(|from| {
                (1..n / 2).map(move |k| Jump { from, over: (from + k) % n, to: (from + 2 * k) % n })
            })
            .collect();
        let board = Board::new("ring", Shape::Grid, holes, jumps).unwrap();
        let moves = MoveTable::new(&board);
        assert_eq!(moves.jumps().len(), 760);
        let pos = Pegs((0..n).filter(|h| h % 3 != 0).fold(0, |p, h| p | 1 << h));
        assert!(moves.legal(pos).count() > 64 && moves.legal(pos).any(|j| j > 255));
        for policy in crate::solitaire::policy::POLICIES {
            let player = Player::new(&board, policy);
            let mut s = Stream::new(7, 0);
            for _ in 0..50 {
                let end = player.play(&mut s, pos);
                assert!(!moves.has_move(end) && end.count() < pos.count(), "{policy}");
            }
        }
    }

    #[test]
    fn games_end_with_no_legal_jump() {
        let board = builtin("english").unwrap();
        let player = Player::new(&board, Policy::Uniform);
        let moves = MoveTable::new(&board);
        let mut s = Stream::new(1, 0);
        for _ in 0..100 {
            let end = player.play(&mut s, start_position(&board, 16));
            assert!(!moves.has_move(end));
        }
    }
}
