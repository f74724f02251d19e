//! What a caller asks of the exact analyses: which starts, how (policy, reduction, memory,
//! residues, processes), how to save and resume; and the progress reports it hears.

use crate::engine::{Cancel, Exchange, Pass};
use crate::error::Error;
use crate::solitaire::policy::Policy;
use crate::solitaire::saved::Saved;

/// Which start holes to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Starts {
    All,
    Holes(Vec<u8>),
}

/// What the engine needs besides the board; built by the CLI from flags.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub policy: Policy,
    /// Reduce by symmetry (on by default; off only to check the reduction).
    pub reduce: bool,
    /// How starts that the whole group does not fix are reduced: by the stabilizer of the
    /// hole, by the whole group (positions and finish holes from
    /// [`whole_group`](crate::solitaire::whole_group)), or by whichever the starts' classes say
    /// is faster. The figures are the same.
    pub reduction: Reduction,
    /// Evaluate probabilities with numerators modulo this many primes per pass instead of in
    /// full (see [`propagate_by_residues`](crate::engine::propagate_by_residues)): the same
    /// fractions in less memory.
    pub residues: Option<usize>,
    pub memory_budget: Option<u64>,
    /// Where a step taken in rounds keeps its parents (see
    /// [`Spill`](crate::engine::layered::Spill)); a run given one may also sum a step's
    /// children in parts.
    pub spill: Option<std::path::PathBuf>,
    /// Stops the evaluation (with `Error::Interrupted`) once cancelled.
    pub cancel: Cancel,
    /// Shares each evaluation's layers with other processes (each returns the whole answer);
    /// with `residues`, deals its passes out between them instead.
    pub processes: Option<Processes>,
    /// With `processes`: deal the starts out instead, each process evaluating whole starts
    /// alone, a round at a time, where it would share every layer.
    pub deal_starts: bool,
}

/// The two methods for every start, which check each other (the same figures, exactly), and
/// the choice between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// Each start reduced by the symmetries that fix its hole: its finish holes split
    /// exactly over a class. Every layer of a start is saved as it goes.
    Stabilizer,
    /// Every start reduced by the board's whole group: the figures no symmetry changes by
    /// the whole group's classes, the finish holes by a backward pass over every start at
    /// once (see [`whole_group`](crate::solitaire::whole_group)). Faster where the starts
    /// share many classes (the triangles), slower where they share few (the English board).
    WholeGroup,
    /// The whole group where the starts share their classes enough for it to pay (see
    /// `whole_group::share_enough`) and its passes fit the memory budget; the stabilizer
    /// otherwise, and for a run saved as it goes, by residues, spilling to disk or shared by
    /// processes (the ways the stabilizer method has to fit and to go on after a stop).
    Faster,
}

/// The processes an evaluation is shared with (see
/// [`engine::exchange`](crate::engine::exchange)).
#[derive(Clone)]
pub struct Processes(pub std::sync::Arc<dyn Exchange>);

impl std::fmt::Debug for Processes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "process {} of {}", self.0.me(), self.0.processes())
    }
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            policy: Policy::Uniform,
            reduce: true,
            reduction: Reduction::Stabilizer,
            residues: None,
            memory_budget: None,
            spill: None,
            cancel: Cancel::new(),
            processes: None,
            deal_starts: false,
        }
    }
}

/// A progress report for one finished layer (for a progress line on stderr).
#[derive(Clone, Debug)]
pub struct Progress {
    pub stage: Stage,
    pub pegs: u32,
    pub positions: u64,
    /// Whether `positions` counts classes under symmetry, not the positions a player sees
    /// (the passes of a run by residues after the first, which counted the positions, and
    /// the whole-group method's forward engine, whose positions come with the finish holes).
    pub classes: bool,
    /// In a run shared by processes, the bytes each process sent the others to build this
    /// layer, in process order (empty alone).
    pub sent: Vec<u64>,
    /// Which pass over the board (a run by residues makes several).
    pub pass: Pass,
    /// In a run from start holes, which of its evaluations this is (from 1) and how many it
    /// makes (one per start class under symmetry, one per hole without); `None` for a
    /// position, the whole-group passes and starts dealt out between processes.
    pub start: Option<(usize, usize)>,
}

/// Which work a progress report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The forward engine from this start hole (positions: its raw positions, or classes).
    Start(u8),
    /// The whole-group method's forward pass over every start's classes (positions: raw).
    Classes,
    /// The whole-group method's backward pass (positions: classes that can still win).
    FinishHoles,
    /// The whole-group method's forward pass of every start's masses (positions: classes,
    /// counted once for each start that reaches them).
    PegsLeft,
    /// The forward engine from a position given by the user.
    Position,
    /// The coach finding the positions a position can reach (positions: a layer's).
    CoachFuture,
    /// The coach's forward pass for the position's own P(n pegs left) (positions: a layer's).
    CoachPegsLeft,
    /// The coach valuing them, from the fewest pegs up (positions: a layer's).
    CoachValues,
}

/// Saving a long evaluation after every finished layer, and going on from a saved one.
#[derive(Default)]
pub struct Saving<'a> {
    /// An evaluation saved by an earlier run of the same request: this run goes on from it
    /// and returns what the uninterrupted run would have.
    pub resume: Option<Saved>,
    /// Receives the bytes of the whole evaluation after every finished layer (see
    /// [`Saved`]); an error stops the run with that error.
    pub save: Option<&'a mut SaveBytes<'a>>,
    /// Receives, besides, the first of those saves in every pass after the first of a run by
    /// residues: a few kilobytes (what the passes before found, one class waiting) from which
    /// a run goes on at the start of that pass, small enough to carry to another machine.
    pub keep: Option<&'a mut SaveBytes<'a>>,
}

/// Receives the bytes of a saved evaluation.
pub type SaveBytes<'a> = dyn FnMut(&[u8]) -> Result<(), Error> + 'a;
