//! Exact forward propagation: probability mass (or path counts) pushed layer by layer.
//!
//! Within a layer every state's mass is an integer numerator over one common denominator D.
//! A layer with move totals W_s moves to denominator D * L, L = lcm(W_s), and each child
//! receives numerator * (L / W_s) * weight: integer work only, reduced to fractions once, at
//! the absorbing states.
//!
//! Numerators never exceed D (mass never exceeds one), so a layer stores them in one flat
//! arena of fixed-width limbs, not one heap number per state. A step, one module each:
//!
//! 1. `budget`: plan the step in rounds (and parts) that fit the memory budget, or refuse it
//!    now if none is projected to;
//! 2. `parents`: one parallel pass over the layer finds each state's move total, the mass
//!    absorbed here, and the moves as edges bucketed by a hash shard of the child;
//! 3. `factors`: L, each total's factor L / W_s, and each parent's share;
//! 4. `rounds`: the parents' shares (and states, on disk with `spill`) handed out round by
//!    round, for a step taken in rounds (every round once a part, for one in parts);
//! 5. `shards`: each shard adds up its children's numerators in a small map of its own (in
//!    parts, the shards of one part at a time, each part's maps freed before the next);
//! 6. `pending`: the children are filed by rank, to wait for their layer's turn.
//!
//! A run may be shared by several processes (`across`, over an [`Exchange`]): each owns the
//! states of some hash shards, and between the steps the processes agree on the next rank,
//! the lcm L and the numerators' width, and each child goes to its owner, which adds it to
//! the same shard tables as it arrives (each round's children, in a step taken in rounds).

mod across;
mod alloc;
mod arena;
mod budget;
mod factors;
pub mod limbs;
mod numbers;
mod parents;
mod passes;
mod pending;
pub mod residues;
mod rounds;
mod saved;
mod shards;
mod spill;
mod wire;

use crate::Ranked;
use crate::cancel::{Cancel, requested};
use crate::error::{EngineError, MAX_LAYER_STATES};
use crate::exchange::{self, Exchange, Solo};
pub use across::Across;
use arena::Bucket;
use budget::{History, Plan};
pub use factors::Distinct;
use factors::Scale;
use limbs::to_integer;
use numbers::Numbers;
pub use passes::propagate_by_residues;
use pending::Pending;
use rayon::prelude::*;
use rug::{Integer, Rational};
pub use saved::{FORMAT as SAVE_FORMAT, RunState};
pub use spill::Spill;
use std::collections::BTreeMap;
use std::hash::BuildHasher;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Probability mass: each move weighted by the chain's weights.
    Probability,
    /// Path counts: every move counts once, whatever its weight.
    Paths,
}

/// A finished layer, shown to the caller before it is expanded. In a run shared by several
/// processes, each sees its own part of the layer.
pub struct Layer<'a, S> {
    pub rank: u32,
    /// Canonical states of the layer (of this process's part).
    pub states: &'a [S],
    pub denominator: &'a Integer,
    /// Bytes this process sent to the others to build the layer (0 alone).
    pub sent: u64,
    /// Which run over the chain this is: a run by residues goes over it several times.
    pub pass: Pass,
    nums: &'a [u64],
    stride: usize,
    exchange: &'a dyn Exchange,
}

impl<'a, S> Layer<'a, S> {
    fn of(
        rank: u32,
        bucket: &'a Bucket<S>,
        (denominator, pass): (&'a Integer, Pass),
        (exchange, sent): (&'a dyn Exchange, u64),
    ) -> Layer<'a, S> {
        Layer {
            rank,
            states: &bucket.keys,
            denominator,
            sent,
            pass,
            nums: &bucket.nums,
            stride: bucket.stride,
            exchange,
        }
    }

    /// Counts of this process's part added up over every process of the run (the counts
    /// themselves alone). Every process must ask, with as many counts.
    pub fn total(&self, counts: &[u64]) -> Vec<u64> {
        let mut sum = vec![0u64; counts.len()];
        for part in self.each(counts) {
            sum.iter_mut().zip(part).for_each(|(s, c)| *s += c);
        }
        sum
    }

    /// Every process's counts, in process order (this process's alone). Every process must
    /// ask, with as many counts.
    pub fn each(&self, counts: &[u64]) -> Vec<Vec<u64>> {
        let parts = self.exchange.all_gather(&wire::bytes_of(counts.iter().copied()));
        parts.iter().map(|b| wire::words(b).collect()).collect()
    }

    /// How many distinct keys there are among every process's `keys` (the caller's key of
    /// each state of its part, such as a class under a larger group): each key goes to one
    /// process, by a hash, which counts it once. Every process must ask.
    pub fn distinct(&self, keys: Vec<u64>) -> u64 {
        let processes = self.exchange.processes();
        let mut mine = if processes == 1 {
            keys
        } else {
            let mut parcels = vec![Vec::new(); processes];
            let hasher = parents::shard_hasher();
            for k in keys {
                wire::Writer(&mut parcels[hasher.hash_one(k) as usize % processes]).word(k);
            }
            wire::words(&self.exchange.all_to_all(parcels).bytes).collect()
        };
        mine.par_sort_unstable();
        mine.dedup();
        self.total(&[mine.len() as u64])[0]
    }

    /// The numerator (over `denominator`) of the i-th state: in a run by residues, a number
    /// congruent to it modulo this pass's primes.
    pub fn numerator(&self, i: usize) -> Integer {
        to_integer(&self.nums[i * self.stride..(i + 1) * self.stride])
    }
}

/// Which run over a chain a layer belongs to: exact runs make one pass, runs by residues
/// several (one per batch of primes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    /// From 0.
    pub index: u32,
    /// How many passes the run makes (this process's share, where processes split them):
    /// unknown (None) during the first pass by residues, since it depends on the final
    /// denominator.
    pub of: Option<u32>,
}

impl Pass {
    /// The one pass of an exact run.
    pub const ONLY: Pass = Pass { index: 0, of: Some(1) };
}

/// Sees each finished layer (for statistics and progress); an `Err` (such as an allocation
/// the caller's count of the layer could not make) stops the run with it. A run shared by
/// processes calls it in every process, which must all return `Ok` or all `Err` (a callback
/// can agree by [`Layer::total`]): a process stopped alone would leave the others waiting.
pub type LayerCallback<'a, S> = dyn FnMut(&Layer<'_, S>) -> Result<(), EngineError> + 'a;

pub struct Options<'a, S, K = ()> {
    /// Refuse, before allocating, a layer whose projected memory exceeds this many bytes.
    pub memory_budget: Option<u64>,
    /// Called once per layer, in falling rank order, on the calling thread.
    pub on_layer: Option<&'a mut LayerCallback<'a, S>>,
    /// Stop after the layer of this rank: a partial run, whose result holds only the mass
    /// absorbed by then (for looking at the first layers of a big chain).
    pub until_rank: Option<u32>,
    /// Polled between layers and every few thousand states within a layer's pass: once it
    /// is cancelled the run stops with [`EngineError::Cancelled`], so a long run can end
    /// within a second and say how far it got.
    pub cancel: Option<&'a Cancel>,
    /// Called with the whole state of the run after every finished layer but the last, so
    /// that a long run can be saved; `Err` stops the run with
    /// [`EngineError::NotSaved`]. See [`RunState::encode`].
    pub checkpoint: Option<&'a mut Checkpoint<'a, S, K>>,
    /// A state saved by `checkpoint` from a run of the same chain, start and mode: the run
    /// goes on from it and returns what the uninterrupted run would have.
    pub resume: Option<RunState<S, K>>,
    /// Shares the run with other processes (see [`Across`]); every process returns the
    /// whole result. Checkpoints are then each process's own.
    pub across: Option<Across<'a, S, K>>,
    /// Where a step taken in rounds keeps its parents while their children are summed (see
    /// [`Spill`]): the budget then counts one round's parents, not all of them, and a step
    /// whose children fit no number of rounds may sum them in parts (see `budget::plan`).
    pub spill: Option<Spill<'a, S>>,
}

/// Sees the whole state of a run after a finished layer (see [`Options::checkpoint`]).
pub type Checkpoint<'a, S, K> = dyn FnMut(&RunState<S, K>) -> Result<(), ()> + 'a;

impl<S, K> Default for Options<'_, S, K> {
    fn default() -> Self {
        Options {
            memory_budget: None,
            on_layer: None,
            until_rank: None,
            cancel: None,
            checkpoint: None,
            resume: None,
            across: None,
            spill: None,
        }
    }
}

/// Pushes mass from `start` until every bit of it is absorbed, and returns the total that
/// reached each class of absorbing state, as `classify` names them. In `Paths` mode the
/// values are whole numbers: the number of move sequences ending in each class.
///
/// Refuses a step beyond `options.memory_budget` before allocating it, and a chain that
/// breaks the contract of [`Ranked`] when it meets the broken rule.
pub fn propagate<C, K, F>(
    chain: &C,
    start: C::State,
    mode: Mode,
    classify: F,
    mut options: Options<'_, C::State, K>,
) -> Result<BTreeMap<K, Rational>, EngineError>
where
    C: Ranked,
    K: Ord + Clone + Send,
    F: Fn(C::State) -> K + Sync,
{
    // A run by residues saved its numbers modulo primes: not this run's.
    if options.resume.as_ref().is_some_and(|saved| saved.passes.is_some()) {
        return Err(EngineError::ResumedElsewhere);
    }
    let reached = run(
        chain,
        start,
        (mode, &Numbers::Exact, Pass::ONLY, None),
        classify,
        &mut options,
        MAX_LAYER_STATES,
    )?;
    Ok(reached.absorbed)
}

/// What a run reached: the absorbed mass as fractions (exact runs) or as residues over
/// `denominator` (runs by residues, one per prime of the run).
struct Reached<K> {
    absorbed: BTreeMap<K, Rational>,
    lanes: BTreeMap<K, Vec<u64>>,
    denominator: Integer,
}

/// `propagate` with the most states a layer may hold as a parameter, so that tests reach
/// that refusal with small chains.
///
/// Every step below is taken by every process of a shared run, in the same order; a step's
/// failure is carried to the next point where the processes meet (`together`, `gather`),
/// so that all of them stop there with the same error.
fn run<C, K, F>(
    chain: &C,
    start: C::State,
    (mode, numbers, pass, passes): (Mode, &Numbers, Pass, Option<passes::PassesDone<K>>),
    classify: F,
    options: &mut Options<'_, C::State, K>,
    max_layer: u64,
) -> Result<Reached<K>, EngineError>
where
    C: Ranked,
    K: Ord + Clone + Send,
    F: Fn(C::State) -> K + Sync,
{
    let hasher = parents::shard_hasher();
    let across = options.across;
    let exchange: &dyn Exchange = across.as_ref().map_or(&Solo, |a| a.exchange);
    // Several processes share the run: children go to their owners.
    let routed = across.is_some() && exchange.processes() > 1;
    let owner = |s: &C::State| parents::shard_of(&hasher, s) % exchange.processes();
    let start = chain.canonical(start);
    let mut run = match options.resume.take() {
        Some(saved) if saved.start != start => return Err(EngineError::ResumedElsewhere),
        Some(saved) => saved,
        None => RunState {
            start,
            finished_layers: 0,
            denominator: Integer::from(1),
            absorbed: BTreeMap::new(),
            pending: match owner(&start) == exchange.me() {
                true => Pending::new(chain.rank(start), start, numbers.one()),
                false => Pending::empty(),
            },
            history: History::new(),
            lanes: BTreeMap::new(),
            passes,
        },
    };
    // A resumed run has just been saved: the first save is due after its next layer.
    let mut saved_layers = run.finished_layers;
    // A failure of this process since the processes last met.
    let mut carried: Result<(), EngineError> = Ok(());
    // Bytes this process sent to the others for the layer about to be expanded.
    let mut sent = 0;

    loop {
        // The processes meet: the next layer is the highest rank waiting anywhere.
        let top =
            carried.clone().map(|()| run.pending.top().map_or(Vec::new(), |r| r.to_le_bytes().to_vec()));
        let tops = exchange::gather(exchange, top)?;
        let Some(rank) =
            tops.iter().filter_map(|t| Some(u32::from_le_bytes(t.get(..4)?.try_into().ok()?))).max()
        else {
            break;
        };
        // Saved after every finished layer but the last, by every process of a shared run
        // alike (a process may have nothing waiting of its own): a failed save stops them all
        // where they next meet.
        if run.finished_layers > saved_layers
            && let Some(save) = options.checkpoint.as_mut()
        {
            carried = save(&run).map_err(|()| EngineError::NotSaved { finished_layers: run.finished_layers });
            saved_layers = run.finished_layers;
        }
        // `lanes`: the mass absorbed so far in a run by residues, over the current denominator.
        let RunState { finished_layers, denominator, absorbed, pending, history, lanes, .. } = &mut run;
        let finished_layers = *finished_layers;
        let cancelled = EngineError::Cancelled { finished_layers, rank };
        let stop = |cancel| if requested(cancel) { Err(cancelled.clone()) } else { Ok(()) };
        let layer = exchange::together(
            exchange,
            carried
                .clone()
                .and_then(|()| stop(options.cancel))
                .and_then(|()| pending.take(rank).merged(numbers)),
        )?;
        let n = layer.len();
        if let Some(cb) = options.on_layer.as_mut() {
            cb(&Layer::of(rank, &layer, (denominator, pass), (exchange, sent)))?;
        }
        // A step too big for the budget at once is taken in rounds, each building the
        // edges of a range of the parents (and with its parents on disk, in parts, each
        // summing the children of some shards); the first pass finds every parent's move total.
        // The children's width, projected: one word per prime, or a limb more than now.
        let plan = (|| {
            stop(options.cancel)?;
            budget::check_layer(rank, n as u64, max_layer)?;
            let next = numbers.lanes().unwrap_or(layer.stride + 1);
            let held = budget::Held {
                shared: routed,
                in_place: factors::in_place(mode, numbers, layer.stride, next),
                spilled: options.spill.is_some(),
            };
            budget::plan::<C::State>(options.memory_budget, rank, (n, layer.stride, next), history, held)
        })();
        // Shared, every process takes as many rounds as the one that needs most: each round's
        // children are sent to their owners as it ends, so the processes meet once a round
        // (a shared step is never summed in parts).
        let plan = match routed {
            true => agreed_rounds(exchange, plan.map(|p| p.rounds)).map(|rounds| Plan { rounds, parts: 1 }),
            false => plan,
        };
        let scan = plan.and_then(|plan| {
            let ranges = (&hasher, 0..n, parents::round(0, plan.rounds, n));
            let scan = parents::scan(
                chain,
                &layer,
                rank,
                (mode, numbers),
                &classify,
                ranges,
                (0, plan.parts),
                options.cancel,
            )?;
            // A cancelled scan stops early with partial findings: drop them.
            stop(options.cancel)?;
            Ok((scan, plan))
        });
        let (scan, plan) = match scan {
            Ok((scan, plan)) => (Ok(scan), plan),
            Err(e) => (Err(e), Plan::WHOLE),
        };
        let rounds = plan.rounds;
        // The processes meet: every process's moves and move totals make the step's scale.
        let found = scan.as_ref().map(|s| step_facts(s, mode, &layer)).map_err(Clone::clone);
        let facts = exchange::gather(exchange, found)?.iter().map(|f| StepFacts::read(f)).collect::<Vec<_>>();
        let parents::Scan { totals, absorbed: absorbed_here, edges, moves } = scan?;
        if n > 0 {
            history.moves_per_state = moves as f64 / n as f64;
        }
        for (k, numerator) in absorbed_here {
            match numbers {
                Numbers::Exact => {
                    *absorbed.entry(k).or_default() +=
                        Rational::from((to_integer(&numerator), denominator.clone()))
                }
                Numbers::Residues(_) => numbers.accumulate(lanes.entry(k).or_default(), &numerator),
            }
        }
        if facts.iter().all(|f| f.moves == 0) {
            run.finished_layers += 1;
            continue;
        }
        if options.until_rank.is_some_and(|r| rank <= r) {
            break;
        }

        let all_totals: Vec<u64> = facts.iter().flat_map(|f| f.totals.iter().copied()).collect();
        let scale = Scale::of(&all_totals, mode, numbers);
        let stride = match mode {
            Mode::Probability => factors::child_stride(mode, numbers, denominator, &scale.lcm, &layer, moves),
            Mode::Paths => facts.iter().map(|f| f.paths_stride).max().unwrap_or(1),
        };
        // The shares, written over the parents' numerators where they are as wide; the
        // parents are freed then, but for their states when later rounds scan them again.
        let in_place = factors::in_place(mode, numbers, layer.stride, stride);
        let held = budget::Held { shared: routed, in_place, spilled: options.spill.is_some() };
        let projected = budget::check_step::<C::State>(
            options.memory_budget,
            rank,
            (n, layer.stride, moves, plan),
            stride,
            history,
            held,
        );
        // Near the budget, what the step before freed goes back to the system before the
        // shares take fresh memory, and the children's as they are filed.
        let near_budget = projected.as_ref().is_ok_and(|&bytes| budget::near(options.memory_budget, bytes));
        if near_budget {
            alloc::give_back();
        }
        let parents = projected.and_then(|_| {
            let (states, shares) = match in_place {
                true => factors::shares_in_place(layer, &totals, &scale, numbers),
                false => {
                    let shares = factors::shares(&layer, &totals, &scale, (mode, numbers), stride)?;
                    (layer.keys_only(), shares)
                }
            };
            drop(totals);
            rounds::Rounds::new((states, shares, stride), edges, plan, options.spill)
        });
        // Round r's edges into part q's shards, and the round's shares: the first round's
        // edges of the first part from the scan above, the others' scanned now.
        let (cancel, hasher, classify) = (options.cancel, &hasher, &classify);
        let rescan = |q: usize| {
            move |states: &Bucket<C::State>, range: std::ops::Range<usize>| {
                stop(cancel)?;
                let ranges = (hasher, range.clone(), range);
                let part = (q, plan.parts);
                Ok(parents::scan(chain, states, rank, (mode, numbers), classify, ranges, part, cancel)?.edges)
            }
        };
        // This process's children of the step, each once.
        let (children, bytes) = match &across {
            Some(across) if routed => {
                // Each round's children are summed here, sent to their owners, and added up
                // there with what the other processes sent: a process holds its share of the
                // next layer and one round's children, not the children of all its parents.
                let mut owned = shards::Sums::new();
                let (mut failed, mut bytes) = (parents.as_ref().err().cloned(), 0);
                let mut parents = parents.ok();
                for r in 0..rounds {
                    let children = match (&failed, &mut parents) {
                        (None, Some(parents)) => (|| {
                            let mut sums = shards::Sums::new();
                            let (edges, shares) = parents.round(r, rescan(0))?;
                            sums.add(
                                edges,
                                &shares,
                                (stride, numbers),
                                (rank, max_layer),
                                true,
                                options.cancel,
                            )?;
                            // A cancelled sum stops early with partial sums: drop them.
                            stop(options.cancel)?;
                            Ok(sums.children())
                        })(),
                        (Some(e), _) => Err(e.clone()),
                        (None, None) => unreachable!("a failed step is carried as `failed`"),
                    };
                    // The processes meet: each child goes to the process that owns it.
                    let (received, sent) = across.route(children, stride)?;
                    bytes += sent;
                    if let Err(e) = owned.merge(received, (stride, numbers), (rank, max_layer)) {
                        failed = Some(e);
                    }
                }
                exchange::together(exchange, failed.map_or(Ok(()), Err))?;
                (owned.children(), bytes)
            }
            _ => {
                let children = parents.and_then(|mut parents| {
                    // In parts, each part's shards are summed whole, and their tables freed,
                    // before the next part's.
                    let mut sums = shards::Sums::new();
                    for q in 0..plan.parts {
                        for r in 0..rounds {
                            let last = r + 1 == rounds;
                            let (edges, shares) = parents.round(r, rescan(q))?;
                            sums.add(
                                edges,
                                &shares,
                                (stride, numbers),
                                (rank, max_layer),
                                last,
                                options.cancel,
                            )?;
                        }
                    }
                    // A cancelled sum stops early with partial sums: drop them.
                    stop(options.cancel)?;
                    Ok(sums.children())
                });
                (exchange::together(exchange, children)?, 0)
            }
        };
        sent = bytes;
        if n > 0 {
            history.previous_len = n;
        }

        // Mass still waiting at lower ranks moves to the new denominator too.
        carried = (|| {
            if mode == Mode::Probability && scale.lcm != 1 {
                let factor = numbers.factor(&scale.lcm);
                pending.scale(numbers, &factor, stride)?;
                lanes.values_mut().for_each(|sum| numbers.scale_residues(sum, &factor));
                *denominator *= &scale.lcm;
            }
            pending.receive(children, stride, rank, |s| chain.rank(s), near_budget)
        })();
        run.finished_layers += 1;
    }
    let absorbed = match &across {
        Some(across) if routed => across.add_up(&run.absorbed),
        _ => run.absorbed,
    };
    Ok(Reached { absorbed, lanes: run.lanes, denominator: run.denominator })
}

/// The most rounds any process needs for its part of the step (each process projects its
/// own), or the first failure among them, on every process alike.
fn agreed_rounds(exchange: &dyn Exchange, rounds: Result<usize, EngineError>) -> Result<usize, EngineError> {
    let mine = rounds.map(|r| (r as u64).to_le_bytes().to_vec());
    let all = exchange::gather(exchange, mine)?;
    Ok(all
        .iter()
        .filter_map(|b| Some(u64::from_le_bytes(b.get(..8)?.try_into().ok()?) as usize))
        .max()
        .unwrap_or(1))
}

/// What the processes tell each other about their part of a layer before its step.
struct StepFacts {
    moves: u64,
    /// The width of the children's numerators in `Paths` mode (0 otherwise): it depends on
    /// the largest count, which each process knows of its own part only.
    paths_stride: usize,
    /// The distinct move totals (in `Probability` mode): L is their lcm over every process.
    totals: Vec<u64>,
}

impl StepFacts {
    fn read(bytes: &[u8]) -> StepFacts {
        let mut words = wire::words(bytes);
        let (moves, paths_stride) = (words.next().expect("moves"), words.next().expect("a width"));
        StepFacts { moves, paths_stride: paths_stride as usize, totals: words.collect() }
    }
}

/// This process's `StepFacts` as bytes.
fn step_facts<K, S: Sync>(scan: &parents::Scan<K, S>, mode: Mode, layer: &Bucket<S>) -> Vec<u8> {
    let paths_stride = match mode {
        Mode::Paths => factors::child_stride(
            mode,
            &Numbers::Exact,
            &Integer::from(1),
            &Integer::from(1),
            layer,
            scan.moves,
        ),
        Mode::Probability => 0,
    };
    // The distinct totals, found without a copy of every parent's (8 bytes a parent, at the
    // step's widest moment, that the budget does not count).
    let totals = match mode {
        // A total of zero is a state that absorbs: it has no moves to scale.
        Mode::Probability => Distinct::of_parts(scan.totals.par_chunks(1 << 14), |chunk, seen| {
            chunk.iter().filter(|&&w| w > 0).for_each(|&w| seen.insert(w))
        }),
        Mode::Paths => Distinct::default(),
    };
    wire::bytes_of([scan.moves, paths_stride as u64].into_iter().chain(totals.iter()))
}

/// States per parallel chunk of a layer: a few chunks per thread, for balance. Each chunk
/// keeps its edges in parent order.
fn chunk_size(len: usize) -> usize {
    len.div_ceil(4 * rayon::current_num_threads()).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Chain;

    /// State 10 fans out to the absorbing states 0 to 4, one move each.
    struct Fan;

    impl Chain for Fan {
        type State = u8;

        fn transitions(&self, s: u8, out: &mut Vec<(u8, u64)>) -> u64 {
            out.clear();
            if s == 10 {
                out.extend((0..5).map(|c| (c, 1)));
            }
            out.len() as u64
        }
    }

    impl Ranked for Fan {
        fn rank(&self, s: u8) -> u32 {
            u32::from(s == 10)
        }
    }

    #[test]
    fn a_layer_beyond_what_its_indices_address_is_refused() {
        let fan = |mode, limit| {
            run(&Fan, 10, (mode, &Numbers::Exact, Pass::ONLY, None), |s| s, &mut Options::default(), limit)
                .map(|r| r.absorbed)
        };
        // Five children: whether their shard or their layer is counted first, five states.
        assert_eq!(
            fan(Mode::Probability, 4),
            Err(EngineError::LayerTooLarge { rank: 0, states: 5, limit: 4 })
        );
        let ends = fan(Mode::Probability, 5).unwrap();
        assert_eq!(ends.len(), 5);
        assert!(ends.values().all(|p| *p == Rational::from((1, 5))));
        assert_eq!(
            fan(Mode::Paths, 0).err().unwrap().to_string(),
            "the layer of rank 1 holds up to 1 states, more than the limit of 0"
        );
    }

    #[test]
    fn a_cancelled_run_stops_between_layers_and_says_how_far_it_got() {
        let cancel = Cancel::new();
        let with = |cancel| Options { cancel: Some(cancel), ..Options::default() };
        assert!(propagate(&Fan, 10, Mode::Probability, |s| s, with(&cancel)).is_ok());
        // Cancelled while the first layer is shown: that layer's work is dropped.
        let mut stop = |_: &Layer<'_, u8>| {
            cancel.cancel();
            Ok(())
        };
        let options = Options { on_layer: Some(&mut stop), ..with(&cancel) };
        assert_eq!(
            propagate(&Fan, 10, Mode::Probability, |s| s, options),
            Err(EngineError::Cancelled { finished_layers: 0, rank: 1 })
        );
        // Cancelled before it starts: nothing done.
        assert_eq!(
            propagate(&Fan, 10, Mode::Paths, |s| s, with(&cancel)),
            Err(EngineError::Cancelled { finished_layers: 0, rank: 1 })
        );
    }

    #[test]
    fn a_layer_callbacks_error_stops_the_run_with_it() {
        let refused = EngineError::AllocationFailed { bytes: 80 };
        let mut seen = 0;
        let mut refuse = |_: &Layer<'_, u8>| {
            seen += 1;
            Err(refused.clone())
        };
        let options = Options { on_layer: Some(&mut refuse), ..Options::default() };
        assert_eq!(propagate(&Fan, 10, Mode::Probability, |s| s, options), Err(refused));
        assert_eq!(seen, 1, "the run stops at the first layer's error");
    }
}
