//! The exact engine's flags into requests: `exact`, `count` and `ends`.

use super::{Output, given_position, holes_named, not_whole, parse_starts};
use crate::cli::args::*;
use crate::cli::checkpoint::{Part, Run};
use crate::cli::interrupt;
use pegchain::budget::Budget;
use pegchain::solitaire::Pegs;
use pegchain::solitaire::exact::{EngineConfig, Reduction, Starts, agreed};
use pegchain::solitaire::saved::Saved;
use pegchain::{Board, Error, Policy, SymmetryGroup};
use std::path::PathBuf;

/// A validated engine request.
pub struct EngineRequest {
    pub board: Board,
    /// Where to save the evaluation after every finished layer, and the run it belongs to.
    pub checkpoint: Option<PathBuf>,
    pub run: Run,
    /// The saved evaluation to go on from (read and checked against this run).
    pub resume: Option<Saved>,
    /// The memory budget and the limit it came from (`config.memory_budget` is its bytes).
    pub budget: Option<Budget>,
    pub starts: Starts,
    /// A position given instead of a start (`--position`, or `--start H --moves ...`).
    pub position: Option<Pegs>,
    pub config: EngineConfig,
    pub output: Output,
    pub quiet: bool,
    /// The run asks to be held to a memory size (`--max-memory`, `--residues`): freed big
    /// blocks go back to the system (see `limits::return_big_blocks`).
    pub return_freed_memory: bool,
}

impl EngineRequest {
    /// The flags not given that may let a run refused for memory fit: `--whole-group` where
    /// a start is fixed by fewer symmetries than the board has (the stabilizer method then
    /// follows more classes), `--residues 2` for `exact`, `--residues 1` for a run by more
    /// residues a pass (8 bytes a position less for each prime left out), and `--spill DIR`
    /// (a step in rounds then holds one round's parents, and sums its children in parts).
    pub fn other_ways(&self) -> Vec<&'static str> {
        let mut ways = Vec::new();
        if self.position.is_none() && self.config.reduce && self.config.reduction != Reduction::WholeGroup {
            let group = SymmetryGroup::of_board(&self.board);
            let holes: Vec<u8> = match &self.starts {
                Starts::All => (0..self.board.hole_count() as u8).collect(),
                Starts::Holes(holes) => holes.clone(),
            };
            let fewer = |h: u8| group.stabilizer(Pegs::single(h)).order() < group.order();
            if group.order() <= pegchain::solitaire::whole_group::MAX_GROUP_ORDER
                && holes.into_iter().any(fewer)
            {
                ways.push(crate::cli::limits::WHOLE_GROUP);
            }
        }
        match self.config.residues {
            None if self.run.command == "exact" => ways.push("--residues 2"),
            Some(primes) if primes > 1 => ways.push("--residues 1"),
            _ => {}
        }
        if self.config.spill.is_none() {
            ways.push("--spill DIR");
        }
        ways
    }
}

/// The most primes a pass of --residues may keep: more would cost as much as the numbers.
const MAX_PRIMES_PER_PASS: u32 = 64;

impl ExactArgs {
    pub fn validate(&self) -> Result<EngineRequest, Error> {
        let policy = self.policy.parse().map_err(Error::Invalid);
        let policy = policy.and_then(|policy| self.refuse_residues_with_others().map(|()| policy));
        let mut request = self.engine.validate_with("exact", policy, self.residues)?;
        request.config.residues = self.residues.map(|k| k as usize);
        request.return_freed_memory |= self.residues.is_some();
        Ok(request)
    }

    /// --residues: a number of primes a pass (checked before anything else, so that a
    /// refusal touches no file). Processes that share the run split its passes between them.
    fn refuse_residues_with_others(&self) -> Result<(), Error> {
        let Some(k) = self.residues else { return Ok(()) };
        if !(1..=MAX_PRIMES_PER_PASS).contains(&k) {
            return Err(Error::Invalid(format!(
                "--residues takes 1 to {MAX_PRIMES_PER_PASS} primes a pass, not {k}"
            )));
        }
        Ok(())
    }
}

impl CountArgs {
    /// `command` is `count` or `ends`, the same evaluation.
    pub fn validate(&self, command: &'static str) -> Result<EngineRequest, Error> {
        // count and ends print counts, never a fraction: --full would be ignored.
        let policy = self.output.validate_without_fractions(command).map(|_| Policy::Uniform);
        self.validate_with(command, policy, None)
    }

    /// `command` is `exact`, `count` or `ends`: it names the checkpoints, which also record
    /// `residues` (a run by residues saves its passes, not big numbers). `policy` is the
    /// command's own flags read, or their refusal.
    fn validate_with(
        &self,
        command: &'static str,
        policy: Result<Policy, Error>,
        residues: Option<u32>,
    ) -> Result<EngineRequest, Error> {
        let shared = crate::cli::processes::shared();
        // What each process checks alone (a file may be missing on one machine only) is
        // agreed before anything else: a process that left with its error would leave the
        // others waiting for it where they next meet.
        let alone = policy.and_then(|policy| self.check_alone(policy, shared.is_some()));
        let Alone { policy, board, starts, position, reduction, budget } = agreed(shared.as_ref(), alone)?;
        let memory_budget = budget.map(|b| b.bytes);
        // What fixes the answer: the memory budget and where it spills do not. A save taken
        // with the default method is the stabilizer method's (see `--stabilizer`).
        let symmetry = match (self.no_symmetry, self.whole_group) {
            (true, _) => "none",
            (false, true) => "the whole group",
            (false, false) => "each start's stabilizer",
        };
        let start = match &starts {
            Starts::All => "all".to_string(),
            Starts::Holes(holes) => holes_named(&board, holes.iter().copied()),
        };
        let mut fixed = vec![("start", start), ("symmetry", symmetry.to_string())];
        if command == "exact" {
            fixed.push(("policy", policy.to_string()));
        }
        if let Some(k) = residues {
            fixed.push(("--residues", k.to_string()));
        }
        // The engine's saves change format between versions: an older one is refused in words.
        fixed.push(("engine save format", pegchain::engine::layered::SAVE_FORMAT.to_string()));
        // A shared run is saved in parts, one a process (see `checkpoint::Part`).
        let processes = shared.as_ref().map_or(1, |p| p.0.processes());
        fixed.push(("number of processes", processes.to_string()));
        if shared.is_some() {
            let sharing = if self.deal_starts { "starts dealt out" } else { "layers shared" };
            fixed.push(("sharing", sharing.to_string()));
        }
        let mut run = Run::new(command, &board, fixed);
        let decode = |bytes: &[u8]| Saved::decode(bytes, board.full()).map_err(|_| not_whole(&self.saving));
        let (checkpoint, resume) = match &shared {
            None => {
                let (checkpoint, saved) = self.saving.validate(&run)?;
                (checkpoint, saved.map(|bytes| decode(&bytes)).transpose()?)
            }
            Some(processes) => {
                let (checkpoint, number, saved) = self.saving.validate_shared(&run, &*processes.0, decode)?;
                let (me, of) = (processes.0.me(), processes.0.processes());
                run.shared = Some(Part { me, of, resumed: number });
                (checkpoint, saved)
            }
        };
        Ok(EngineRequest {
            board,
            checkpoint,
            run,
            resume,
            starts,
            position,
            config: EngineConfig {
                policy,
                reduce: !self.no_symmetry,
                reduction,
                residues: None,
                memory_budget,
                spill: self.spill.clone(),
                cancel: interrupt::token(),
                processes: shared,
                deal_starts: self.deal_starts,
            },
            budget,
            output: self.output.validate(),
            // Process 0 speaks for every process of a shared run.
            quiet: self.quiet || !crate::cli::processes::speaks(),
            return_freed_memory: self.max_memory.is_some(),
        })
    }

    /// The checks a process makes on its own, before the processes of a shared run first
    /// meet: the board, the start or position, the memory budget and the spill folder.
    fn check_alone(&self, policy: Policy, shared: bool) -> Result<Alone, Error> {
        let board = pegchain::solitaire::load_board(&self.board.board)?;
        let starts = parse_starts(&board, &self.start)?;
        let position = given_position(&board, Some(&starts), &self.moves, &self.position)?;
        // The parser lets one method at most be asked for.
        let reduction = match (self.whole_group, self.stabilizer) {
            (true, _) => Reduction::WholeGroup,
            (_, true) => Reduction::Stabilizer,
            _ => Reduction::Faster,
        };
        if position.is_some() {
            let flag = match reduction {
                Reduction::WholeGroup => Some("--whole-group is a method"),
                Reduction::Stabilizer => Some("--stabilizer is a method"),
                Reduction::Faster => self.deal_starts.then_some("--deal-starts deals out"),
            };
            if let Some(flag) = flag {
                return Err(Error::Invalid(format!("{flag} for start holes, not for a position")));
            }
            self.saving.refuse_for_position()?;
        }
        if self.deal_starts && !shared {
            return Err(Error::Invalid(
                "--deal-starts deals the starts out between processes: start the run with mpirun -np N, N of 2 or more"
                    .into(),
            ));
        }
        // The parser took only positive, finite numbers of GB.
        let memory_budget = self.max_memory.map(|gb| (gb * 1e9) as u64);
        let budget = crate::cli::limits::read(memory_budget).budget();
        if let Some(dir) = &self.spill {
            crate::cli::files::check_spill_dir(dir).map_err(|e| {
                Error::Invalid(format!("--spill {}: {}", dir.display(), pegchain::input::plain(&e)))
            })?;
        }
        Ok(Alone { policy, board, starts, position, reduction, budget })
    }
}

/// What [`CountArgs::check_alone`] found.
struct Alone {
    policy: Policy,
    board: Board,
    starts: Starts,
    position: Option<Pegs>,
    reduction: Reduction,
    budget: Option<Budget>,
}
