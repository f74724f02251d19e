//! The stabilizer method: each start (or position) by the forward engine, its positions
//! reduced by the symmetries that fix it, so every position of a class carries the same mass
//! and a finish hole's share splits evenly over its class; saved after every layer and
//! resumed, shared by processes, by residues, or in rounds spilled to disk.
use super::{
    Analysis, End, EngineConfig, Evaluation, Origin, PegChain, Positions, Progress, SaveBytes, Stage,
};
use crate::engine::{self, Across, EngineError, Layer, Mode, Options, Pass, RunState};
use crate::error::Error;
use crate::solitaire::board::SymmetryGroup;
use crate::solitaire::moves::start_position;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::saved::Saved;
use crate::solitaire::whole_group::StartFigures;
use rayon::prelude::*;
use rug::Rational;
use std::collections::BTreeMap;

/// The bytes each process sent to build `layer`, when processes share the run.
fn sent_by_each(layer: &Layer<'_, Pegs>) -> Vec<u64> {
    let each = layer.each(&[layer.sent]);
    if each.len() == 1 { Vec::new() } else { each.into_iter().map(|s| s[0]).collect() }
}

/// Receives the positions counted so far and the engine's state after a finished layer.
type SaveLayer<'a> = dyn FnMut(&Positions, &RunState<Pegs, End>) -> Result<(), ()> + 'a;

impl Analysis<'_> {
    /// One start, evaluated with symmetry reduction by the stabilizer of its hole, or by the
    /// whole group when `whole` brings its positions and finish holes; going on from
    /// `resume` (its positions and the engine's state) when given, and handing the engine's
    /// state with the positions so far to `save` after every finished layer.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn evaluate(
        &self,
        hole: u8,
        mode: Mode,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
        resume: Option<(Positions, RunState<Pegs, End>)>,
        save: Option<&mut SaveLayer<'_>>,
        whole: Option<&StartFigures>,
    ) -> Result<Evaluation, Error> {
        let (ends, positions) =
            self.evaluate_from(Origin::Hole(hole), mode, config, progress, resume, save, whole)?;
        Ok(Evaluation { hole, ends, positions })
    }

    /// The end distribution (finish holes on raw holes) and positions of random play, or of
    /// every game, from `origin`: reduced by the symmetries that fix its start hole, or that
    /// map its position onto itself (then every position of a reduced class carries the same
    /// mass, and a finish class splits evenly over its holes).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn evaluate_from(
        &self,
        origin: Origin,
        mode: Mode,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
        resume: Option<(Positions, RunState<Pegs, End>)>,
        save: Option<&mut SaveLayer<'_>>,
        whole: Option<&StartFigures>,
    ) -> Result<(BTreeMap<End, Rational>, Positions), Error> {
        let n = self.board.hole_count();
        let (start, stage) = match origin {
            Origin::Hole(hole) => (start_position(self.board, hole), Stage::Start(hole)),
            Origin::Position(pos) => (pos, Stage::Position),
        };
        if let Some((figures, stuck)) = whole.and_then(|f| Some((f, f.stuck.as_ref()?))) {
            // The whole-group passes gave every figure: the forward engine has nothing to add.
            let ends = stuck.iter().map(|(&pegs, v)| (End::Pegs(pegs), v.clone())).collect();
            return Ok((with_finishes(ends, &figures.finish), figures.positions.clone()));
        }
        let local = match (config.reduce, whole, origin) {
            (false, _, _) => SymmetryGroup::trivial(n),
            (true, Some(_), _) => self.group.clone(),
            (true, None, Origin::Hole(hole)) => self.group.stabilizer(Pegs::single(hole)),
            (true, None, Origin::Position(pos)) => self.group.position_stabilizer(pos),
        };
        let chain = PegChain::new(&self.moves, config.policy, &local);
        let (positions, run) = match resume {
            Some((positions, run)) => (positions, Some(run)),
            // A run by the whole group saves the positions its passes counted, so that a run
            // resumed need not count them again.
            None => (whole.map(|f| f.positions.clone()).unwrap_or_default(), None),
        };
        let positions = std::cell::RefCell::new(positions);
        // The pass under way, for a run by residues stopped in it.
        let under_way = std::cell::Cell::new(Pass::ONLY);
        let mut on_layer = |layer: &Layer<'_, Pegs>| {
            let (pegs, pass) = (layer.rank, layer.pass);
            under_way.set(pass);
            if whole.is_some() || pass.index > 0 {
                // The positions come with the finish holes, or were counted by the first pass
                // by residues; the classes show the progress.
                let classes = layer.total(&[layer.states.len() as u64])[0];
                let sent = sent_by_each(layer);
                let reduced = local.order() > 1;
                progress(&Progress {
                    stage,
                    pegs,
                    positions: classes,
                    classes: reduced,
                    sent,
                    pass,
                    start: None,
                });
                return Ok(());
            }
            let (raw, classes) = self.count_layer(layer, &chain)?;
            let mut positions = positions.borrow_mut();
            positions.raw += raw;
            positions.up_to_symmetry += classes;
            positions.by_layer.push((layer.rank, raw, classes));
            let sent = sent_by_each(layer);
            progress(&Progress { stage, pegs, positions: raw, classes: false, sent, pass, start: None });
            Ok(())
        };
        let counted = &positions;
        let mut checkpoint = save.map(|save| move |run: &RunState<Pegs, End>| save(&counted.borrow(), run));
        let options = Options {
            memory_budget: config.memory_budget,
            on_layer: Some(&mut on_layer),
            until_rank: None,
            cancel: Some(&config.cancel),
            checkpoint: checkpoint.as_mut().map(|c| c as &mut engine::layered::Checkpoint<'_, Pegs, End>),
            resume: run,
            across: config.processes.as_ref().map(|p| Across {
                exchange: &*p.0,
                state_code: |pos: Pegs| pos.0,
                state_of: |code| Some(Pegs(code)),
                key_code: End::code,
                key_of: End::of_code,
            }),
            spill: config.spill.as_deref().map(|dir| engine::layered::Spill {
                dir,
                state_code: |pos: Pegs| pos.0,
                state_of: |code| Some(Pegs(code)),
            }),
        };
        let reduced = match (config.residues, mode) {
            (Some(primes), Mode::Probability) => {
                engine::propagate_by_residues(&chain, start, End::of, primes, options)
            }
            _ => engine::propagate(&chain, start, mode, End::of, options),
        }
        .map_err(|e| {
            let pass = config.residues.map(|_| under_way.get());
            self.in_game_words(e, origin, start.count(), pass, local.order() > 1)
        })?;
        Ok(match whole {
            None => (spread_finishes(reduced, &local), positions.into_inner()),
            Some(figures) => (with_finishes(reduced, &figures.finish), figures.positions.clone()),
        })
    }

    /// An engine error about the start `hole` (with `pegs` pegs) in the game's words; a
    /// cancelled run counts its layers against the most it could have (one per peg count), and
    /// a run `reduced` by symmetry counts a refused layer in classes.
    fn in_game_words(
        &self,
        e: EngineError,
        origin: Origin,
        pegs: u32,
        pass: Option<Pass>,
        reduced: bool,
    ) -> Error {
        let mut start = match origin {
            Origin::Hole(hole) => format!("start {}", self.board.hole_name(hole)),
            Origin::Position(_) => "the position".to_string(),
        };
        // A run by residues goes over the board once a pass.
        if let Some(pass) = pass {
            start += &match pass.of {
                Some(of) => format!(", pass {} of {of}", pass.index + 1),
                None => format!(", pass {}", pass.index + 1),
            };
        }
        match e {
            EngineError::Cancelled { finished_layers, rank } => Error::Interrupted {
                done: format!(
                    "{start}: {finished_layers} of {pegs} layers finished, stopped in the layer with {rank} pegs"
                ),
            },
            // Which start (and pass) met it, where every start is evaluated in turn.
            e => Error::from_engine(
                e,
                |pegs| match origin {
                    Origin::Hole(_) => format!("the layer with {pegs} pegs of {start}"),
                    Origin::Position(_) => format!("the layer with {pegs} pegs"),
                },
                reduced,
            ),
        }
    }

    /// A layer's positions reduced by the group of `chain`: how many raw positions they stand
    /// for, and how many classes under the board's whole group (over every process sharing
    /// the run). Refused where the system will not give room for the layer's whole-group
    /// forms (a word a position, beside the engine's own budget), in every process at once.
    fn count_layer(&self, layer: &Layer<'_, Pegs>, chain: &PegChain<'_>) -> Result<(u64, u64), EngineError> {
        let states = layer.states;
        let raw: u64 = states.par_iter().map(|s| chain.orbit_size(*s)).sum();
        // Reduced by the whole group already, each state is its own class.
        if chain.group.order() == self.group.order() {
            let counts = layer.total(&[raw, states.len() as u64]);
            return Ok((counts[0], counts[1]));
        }
        let mut forms: Vec<u64> = Vec::new();
        let refused = forms.try_reserve_exact(states.len()).is_err();
        // Every process must know before any of them waits for the others in `distinct`.
        let counts = layer.total(&[raw, u64::from(refused)]);
        if counts[1] > 0 {
            return Err(EngineError::AllocationFailed { bytes: 8 * states.len() as u64 });
        }
        states.par_iter().map(|s| self.group.canonical(*s).0).collect_into_vec(&mut forms);
        Ok((counts[0], layer.distinct(forms)))
    }

    /// `evaluate`, saving after every finished layer (with the evaluations `finished` before
    /// it) when `save` is given, and handing a pass's first save to `keep` as well (see
    /// [`Saving::keep`]); a failed save stops it with the save's error.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn evaluate_saving(
        &self,
        hole: u8,
        mode: Mode,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
        resume: Option<(Positions, RunState<Pegs, End>)>,
        (finished, counted): (&[Evaluation], &[(u8, Positions)]),
        (save, mut keep): (Option<&mut SaveBytes<'_>>, Option<&mut SaveBytes<'_>>),
        whole: Option<&StartFigures>,
    ) -> Result<Evaluation, Error> {
        let Some(save) = save else {
            return self.evaluate(hole, mode, config, progress, resume, None, whole);
        };
        // The starts counted that wait for their evaluation, so that a run resumed from a save
        // of this one need not count them again.
        let waiting: Vec<(u8, Positions)> = counted
            .iter()
            .filter(|(h, _)| *h != hole && !finished.iter().any(|f| f.hole == *h))
            .cloned()
            .collect();
        let mut failure = None;
        let mut save_layer = |positions: &Positions, run: &RunState<Pegs, End>| {
            let pass_begins = run.finished_layers() == 1 && run.passes_finished() > 0;
            let saved = Saved::encode(finished, &waiting, Some((hole, positions, run))).and_then(|bytes| {
                save(&bytes)?;
                match keep.as_deref_mut() {
                    Some(keep) if pass_begins => keep(&bytes),
                    _ => Ok(()),
                }
            });
            saved.map_err(|e| failure = Some(e))
        };
        let eval = self.evaluate(hole, mode, config, progress, resume, Some(&mut save_layer), whole);
        match failure {
            Some(e) => Err(e),
            None => eval,
        }
    }
}

/// The end distribution of a run reduced by the whole group, with its finish holes (which
/// that reduction merges) from the backward pass; the two passes must agree on the mass
/// that ends with one peg.
fn with_finishes(
    reduced: BTreeMap<End, Rational>,
    finish: &BTreeMap<u8, Rational>,
) -> BTreeMap<End, Rational> {
    let mut ends: BTreeMap<End, Rational> =
        reduced.into_iter().filter(|(e, _)| matches!(e, End::Pegs(_))).collect();
    ends.extend(finish.iter().map(|(&h, v)| (End::Finish(h), v.clone())));
    ends
}

/// The end distribution on raw holes: a finish hole reduced by `local` stands for its
/// whole orbit under `local`, whose members all carry the same share.
fn spread_finishes(reduced: BTreeMap<End, Rational>, local: &SymmetryGroup) -> BTreeMap<End, Rational> {
    let mut ends = BTreeMap::new();
    for (end, value) in reduced {
        let End::Finish(f) = end else {
            ends.insert(end, value);
            continue;
        };
        let mut orbit: Vec<u8> = local.perms().iter().map(|p| p[f as usize]).collect();
        orbit.sort_unstable();
        orbit.dedup();
        let share = value / Rational::from(orbit.len() as u32);
        for g in orbit {
            ends.insert(End::Finish(g), share.clone());
        }
    }
    ends
}
