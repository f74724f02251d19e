//! Peg solitaire as an absorbing Markov chain, and the two exact analyses built on it:
//! probabilities under random play (`exact`) and counts of games and positions (`count`).
//!
//! Each start is evaluated with symmetry reduction by the stabilizer of its start hole
//! only: then every position in a reduced class carries the same mass, so quantities that
//! depend on which hole a peg sits in (finish hole, last peg in the start hole) are split
//! exactly over the class. With `--start all`, one hole per class is evaluated and the
//! others are mapped from it by a symmetry.

use crate::engine::{self, Across, EngineError, Layer, Mode, Options, Pass, RunState};
use crate::error::{Error, RefusedBy};
use crate::solitaire::board::{Board, SymmetryGroup};
use crate::solitaire::moves::{MoveTable, start_position};
use crate::solitaire::pegs::Pegs;
use crate::solitaire::saved::{Finished, Resumed, Saved};
use crate::solitaire::solve;
use crate::solitaire::whole_group::{self, Game, StartFigures, reach_counts};

pub use crate::solitaire::chain::{End, PegChain};
use rayon::prelude::*;
use rug::Rational;
use std::collections::BTreeMap;

mod agree;
mod report;
mod request;

pub use agree::agree;
use agree::agreed;
use report::HasHole;
pub use report::{
    ClassValue, CountReport, EndFigures, ExactReport, GameCounts, PositionCount, PositionExact, Positions,
    StartCount, StartExact, pegs_left_moment,
};
pub use request::{EngineConfig, Processes, Progress, Reduction, SaveBytes, Saving, Stage, Starts};

/// The bytes each process sent to build `layer`, when processes share the run.
fn sent_by_each(layer: &Layer<'_, Pegs>) -> Vec<u64> {
    let each = layer.each(&[layer.sent]);
    if each.len() == 1 { Vec::new() } else { each.into_iter().map(|s| s[0]).collect() }
}

/// Where an evaluation starts.
#[derive(Clone, Copy, Debug)]
enum Origin {
    /// The full board less this hole.
    Hole(u8),
    /// Any position.
    Position(Pegs),
}

/// One start, evaluated: the end distribution with finish holes on raw holes.
type Evaluation = Finished;

/// What the whole-group passes found: each start's figures, and the positions of the
/// starts counted alone among them (see `reach_counts`), which the saves carry.
type WholeGroupFigures = (Vec<(u8, StartFigures)>, Vec<(u8, Positions)>);

/// Receives the positions counted so far and the engine's state after a finished layer.
type SaveLayer<'a> = dyn FnMut(&Positions, &RunState<Pegs, End>) -> Result<(), ()> + 'a;

/// The analysis context of one board: its moves and its symmetry group.
pub struct Analysis<'a> {
    pub board: &'a Board,
    pub moves: MoveTable,
    pub group: SymmetryGroup,
}

impl<'a> Analysis<'a> {
    pub fn new(board: &'a Board) -> Analysis<'a> {
        Analysis { board, moves: MoveTable::new(board), group: SymmetryGroup::of_board(board) }
    }

    /// The start holes to evaluate, checked against the board.
    fn start_holes(&self, starts: &Starts) -> Vec<u8> {
        match starts {
            Starts::All => (0..self.board.hole_count() as u8).collect(),
            Starts::Holes(h) => h.clone(),
        }
    }

    /// The class (index into `group.hole_orbits()`) of every hole.
    pub fn class_of(&self) -> Vec<usize> {
        let mut class = vec![0; self.board.hole_count()];
        for (i, orbit) in self.group.hole_orbits().iter().enumerate() {
            for &h in orbit {
                class[h as usize] = i;
            }
        }
        class
    }

    /// One start, evaluated with symmetry reduction by the stabilizer of its hole, or by the
    /// whole group when `whole` brings its positions and finish holes; going on from
    /// `resume` (its positions and the engine's state) when given, and handing the engine's
    /// state with the positions so far to `save` after every finished layer.
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
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
    fn evaluate_from(
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
                return progress(&Progress {
                    stage,
                    pegs,
                    positions: classes,
                    classes: reduced,
                    sent,
                    pass,
                    start: None,
                });
            }
            let (raw, classes) = self.count_layer(layer, &chain);
            let mut positions = positions.borrow_mut();
            positions.raw += raw;
            positions.up_to_symmetry += classes;
            positions.by_layer.push((layer.rank, raw, classes));
            let sent = sent_by_each(layer);
            progress(&Progress { stage, pegs, positions: raw, classes: false, sent, pass, start: None });
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
    /// the run).
    fn count_layer(&self, layer: &Layer<'_, Pegs>, chain: &PegChain<'_>) -> (u64, u64) {
        let states = layer.states;
        let raw: u64 = states.par_iter().map(|s| chain.orbit_size(*s)).sum();
        // Reduced by the whole group already, each state is its own class.
        if chain.group.order() == self.group.order() {
            let counts = layer.total(&[raw, states.len() as u64]);
            return (counts[0], counts[1]);
        }
        let forms: Vec<u64> = states.par_iter().map(|s| self.group.canonical(*s).0).collect();
        (layer.total(&[raw])[0], layer.distinct(forms))
    }

    /// `evaluate`, saving after every finished layer (with the evaluations `finished` before
    /// it) when `save` is given, and handing a pass's first save to `keep` as well (see
    /// [`Saving::keep`]); a failed save stops it with the save's error.
    #[allow(clippy::too_many_arguments)]
    fn evaluate_saving(
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

    /// Evaluates every requested start, one hole per class when the group allows, going on
    /// from `saving.resume` and saving after every finished layer when asked; each start's
    /// evaluation is made into its row by `row` (given the hole, its class and the evaluation):
    /// what `exact` and `count` share.
    fn evaluate_starts<R>(
        &self,
        starts: &Starts,
        (mode, row): (Mode, fn(u8, usize, Evaluation) -> R),
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
        saving: Saving<'_>,
    ) -> Result<Vec<R>, Error> {
        let holes = self.start_holes(starts);
        let class = self.class_of();
        let orbits = self.group.hole_orbits();
        let mut saved = saving.resume.unwrap_or_default();
        let (mut save, mut keep) = (saving.save, saving.keep);
        // The evaluations finished so far, in the order they ran: what a save holds.
        let mut evaluated: Vec<Evaluation> = Vec::new();
        let mut results = Vec::new();
        // Evaluations to run: one per class met under symmetry, else one per hole.
        let mut classes: Vec<usize> = holes.iter().map(|&h| class[h as usize]).collect();
        classes.sort_unstable();
        classes.dedup();
        let planned = if config.reduce { classes.len() } else { holes.len() };
        // Every process runs these passes whole, each under its own memory budget: one
        // refused stops them all before they meet in the engine.
        let mut whole_group_refused = false;
        let whole = self.whole_group_figures(
            &holes,
            starts,
            (mode, config),
            &mut saved,
            (save.as_deref_mut(), &mut whole_group_refused),
            progress,
        );
        let (whole, counted) = agreed(config.processes.as_ref(), whole)?;
        if let Some(processes) = config.processes.as_ref().filter(|_| config.deal_starts) {
            let reps = self.representatives(&holes, starts, config);
            self.deal_starts(
                &reps,
                (processes, mode, config),
                progress,
                &whole,
                &mut saved,
                save.as_deref_mut(),
            )
            .map_err(|e| with_evaluations_done(e, saved.finished.len(), planned))?;
        }
        for &hole in &holes {
            let c = class[hole as usize];
            // Under symmetry, one evaluation per class serves every hole of the class.
            let known = evaluated.iter().position(|e| config.reduce && class[e.hole as usize] == c);
            let index = match known {
                Some(i) => i,
                None => {
                    // Under symmetry, evaluate the first requested hole of each class.
                    let rep = if config.reduce && *starts == Starts::All { orbits[c][0] } else { hole };
                    // Its layers' reports say which evaluation of how many it is.
                    let number = (evaluated.len() + 1, planned);
                    let mut numbered =
                        |p: &Progress| progress(&Progress { start: Some(number), ..p.clone() });
                    let eval = match saved.take(rep) {
                        Resumed::Finished(eval) => eval,
                        Resumed::GoOn(resume) => self
                            .evaluate_saving(
                                rep,
                                mode,
                                config,
                                &mut numbered,
                                resume,
                                (&evaluated, &counted),
                                (save.as_deref_mut(), keep.as_deref_mut()),
                                whole.iter().find(|(h, _)| *h == rep).map(|(_, f)| f),
                            )
                            .map_err(|e| after_whole_group(e, whole_group_refused))
                            .map_err(|e| with_evaluations_done(e, evaluated.len(), planned))?,
                    };
                    evaluated.push(eval);
                    evaluated.len() - 1
                }
            };
            let eval = &evaluated[index];
            let g = self.group.element_mapping(eval.hole, hole).expect("same class");
            let perm = &self.group.perms()[g];
            let ends = eval
                .ends
                .iter()
                .map(|(e, v)| match e {
                    End::Finish(f) => (End::Finish(perm[*f as usize]), v.clone()),
                    other => (*other, v.clone()),
                })
                .collect();
            results.push(row(
                hole,
                class[hole as usize],
                Evaluation { hole, ends, positions: eval.positions.clone() },
            ));
        }
        Ok(results)
    }

    /// Evaluates the starts `reps` not finished in `saved` dealt out between `processes`
    /// instead of sharing every layer: in each round process p evaluates the round's p-th
    /// start alone (no traffic within a start, but each process needs one whole start's
    /// memory), and the processes meet after it, each adding every evaluation of the round to
    /// `saved`'s finished ones and saving them all when asked (every process the same, a
    /// save a round: a stopped run loses the round under way). A failure in one process
    /// (a refused step, Ctrl-C, a failed save) stops them all where they meet, with the first
    /// failure's words.
    fn deal_starts(
        &self,
        reps: &[u8],
        (processes, mode, config): (&Processes, Mode, &EngineConfig),
        progress: &mut dyn FnMut(&Progress),
        whole: &[(u8, StartFigures)],
        saved: &mut Saved,
        mut save: Option<&mut SaveBytes<'_>>,
    ) -> Result<(), Error> {
        let exchange = &*processes.0;
        let alone = EngineConfig { processes: None, deal_starts: false, ..config.clone() };
        let to_do: Vec<u8> = reps.iter().copied().filter(|&h| !saved.is_finished(h)).collect();
        for round in to_do.chunks(exchange.processes()) {
            let mine = round.get(exchange.me()).map(|&rep| {
                let figures = whole.iter().find(|(h, _)| *h == rep).map(|(_, f)| f);
                let eval = self.evaluate(rep, mode, &alone, progress, None, None, figures)?;
                Saved::encode(&[eval], &[], None)
            });
            for part in agree(exchange, mine.unwrap_or_else(|| Ok(Vec::new())))? {
                if !part.is_empty() {
                    saved.finished.extend(Saved::decode(&part)?.finished);
                }
            }
            if let Some(save) = save.as_deref_mut() {
                let done = Saved::encode(&saved.finished, &[], None).and_then(|bytes| save(&bytes));
                agree(exchange, done.map(|()| Vec::new()))?;
            }
        }
        Ok(())
    }

    /// The hole evaluated for each class among `holes` (each hole, without symmetry).
    fn representatives(&self, holes: &[u8], starts: &Starts, config: &EngineConfig) -> Vec<u8> {
        if !config.reduce {
            return holes.to_vec();
        }
        let (class, orbits) = (self.class_of(), self.group.hole_orbits());
        let mut reps: Vec<u8> = Vec::new();
        for &hole in holes {
            let c = class[hole as usize];
            if !reps.iter().any(|&r| class[r as usize] == c) {
                reps.push(if *starts == Starts::All { orbits[c][0] } else { hole });
            }
        }
        reps
    }

    /// The positions and finish holes, by the whole group's classes, of the starts to
    /// evaluate that their stabilizer would reduce less, when the whole-group method is
    /// asked for (none without symmetry, or for a group too large for the method); and
    /// their pegs left where the pass over every start's classes gives them; and the
    /// positions of the starts counted alone. Those come from `saved` where it holds them,
    /// and a count goes on from `saved` and hands `save` the evaluation after every layer.
    fn whole_group_figures(
        &self,
        holes: &[u8],
        starts: &Starts,
        (mode, config): (Mode, &EngineConfig),
        saved: &mut Saved,
        (save, refused): (Option<&mut SaveBytes<'_>>, &mut bool),
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<WholeGroupFigures, Error> {
        let order = self.group.order();
        let none = || Ok((Vec::new(), Vec::new()));
        let faster = config.reduction == Reduction::Faster;
        // The stabilizer method saves every layer as it goes, and fits memory by residues,
        // by rounds spilled to disk or by processes sharing its layers.
        let keeps_stabilizer = || {
            save.is_some()
                || !saved.is_empty()
                || config.residues.is_some()
                || config.spill.is_some()
                || config.processes.is_some()
        };
        if !config.reduce
            || config.reduction == Reduction::Stabilizer
            || (faster && keeps_stabilizer())
            || order > whole_group::MAX_GROUP_ORDER
        {
            return none();
        }
        let reps: Vec<u8> = self
            .representatives(holes, starts, config)
            .into_iter()
            .filter(|&h| !saved.is_finished(h) && self.group.stabilizer(Pegs::single(h)).order() < order)
            .collect();
        if reps.is_empty() {
            return none();
        }
        let game = Game { moves: &self.moves, group: &self.group, policy: config.policy };
        let starts_of =
            |holes: &[u8]| holes.iter().map(|&h| start_position(self.board, h)).collect::<Vec<_>>();
        if faster
            && !whole_group::share_enough(&game, &starts_of(&reps), config.memory_budget, &config.cancel)?
        {
            return none();
        }
        let mut layer = |stage, pegs, positions| {
            let (sent, pass) = (Vec::new(), Pass::ONLY);
            progress(&Progress { stage, pegs, positions, classes: false, sent, pass, start: None })
        };
        // The pegs left of every start in one pass, where it fits; a run by residues (asked
        // for to save memory) and a run shared by processes (whose forward engine is shared)
        // follow each start by the forward engine instead.
        let stuck = (config.residues.is_none() && config.processes.is_none()).then_some(config.memory_budget);
        // A start from which no play ends with one peg has no finish holes for the backward
        // pass to find: where the forward engine gives its pegs left, its positions are
        // counted keeping two layers at a time, or read from the save of its run under way.
        let counted_alone = |&h: &u8| {
            stuck.is_none()
                && reach_counts::fits(&game)
                && solve::one_peg_ruled_out(self.board, start_position(self.board, h))
        };
        let (counted, kept): (Vec<u8>, Vec<u8>) = reps.into_iter().partition(counted_alone);
        let positions = starts_of(&kept);
        let figures = match positions.is_empty() {
            true => Vec::new(),
            false => {
                let budget = config.memory_budget;
                match whole_group::evaluate(
                    &game,
                    &positions,
                    mode,
                    budget,
                    stuck,
                    &config.cancel,
                    &mut layer,
                ) {
                    // Chosen as the faster, the method gives way where it does not fit.
                    Err(Error::TooLarge { .. }) if faster => {
                        *refused = true;
                        return none();
                    }
                    figures => figures?,
                }
            }
        };
        let mut out: Vec<(u8, StartFigures)> = kept.into_iter().zip(figures).collect();
        // Counted whole: by this run, or by the run it goes on from.
        let mut done: Vec<(u8, Positions)> = Vec::new();
        // A run shared by processes counts in every process, which do not meet between its
        // layers, so the count is saved only by a process alone.
        let mut save = save.filter(|_| config.processes.is_none());
        for hole in counted {
            let under_way = saved.under_way.as_ref().filter(|run| run.hole == hole);
            let known = saved.counted.iter().find(|(h, _)| *h == hole).map(|(_, p)| p);
            let positions =
                match under_way.map(|run| &run.positions).filter(|p| !p.by_layer.is_empty()).or(known) {
                    Some(positions) => positions.clone(),
                    None => {
                        let start = start_position(self.board, hole);
                        let resume = match saved.counting.take() {
                            Some(c) if c.hole == hole => Some((c.positions, c.layer)),
                            other => {
                                saved.counting = other;
                                None
                            }
                        };
                        let saving_on = save.is_some();
                        let mut save_count = |positions: &Positions, layer: &[u64]| {
                            let bytes =
                                Saved::encode_counting(&saved.finished, &done, (hole, positions, layer))?;
                            save.as_deref_mut().map_or(Ok(()), |save| save(&bytes))
                        };
                        let saving = saving_on.then_some(&mut save_count as &mut reach_counts::SaveCount<'_>);
                        let budget = config.memory_budget;
                        reach_counts::positions(
                            &game,
                            start,
                            budget,
                            &config.cancel,
                            &mut layer,
                            (resume, saving),
                        )?
                    }
                };
            done.push((hole, positions.clone()));
            out.push((hole, StartFigures { positions, finish: BTreeMap::new(), stuck: None }));
        }
        Ok((out, done))
    }

    /// Exact probabilities under random play for the requested starts.
    pub fn exact(
        &self,
        starts: &Starts,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<ExactReport, Error> {
        self.exact_saving(starts, config, progress, Saving::default())
    }

    /// `exact`, saved after every finished layer and resumed as `saving` says.
    pub fn exact_saving(
        &self,
        starts: &Starts,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
        saving: Saving<'_>,
    ) -> Result<ExactReport, Error> {
        let starts_out =
            self.evaluate_starts(starts, (Mode::Probability, StartExact::of), config, progress, saving)?;
        let classes = self.classes_of(&starts_out, |s| s.win.clone());
        let random_start = (starts_out.len() == self.board.hole_count()).then(|| {
            let sum = starts_out.iter().fold(Rational::new(), |acc, s| acc + &s.win);
            sum / Rational::from(starts_out.len() as u32)
        });
        Ok(ExactReport {
            policy: config.policy,
            group_order: self.group.order(),
            starts: starts_out,
            classes,
            random_start,
        })
    }

    /// Counts of games, wins by finish hole and reachable positions for the requested starts.
    pub fn count(
        &self,
        starts: &Starts,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<CountReport, Error> {
        self.count_saving(starts, config, progress, Saving::default())
    }

    /// `count`, saved after every finished layer and resumed as `saving` says.
    pub fn count_saving(
        &self,
        starts: &Starts,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
        saving: Saving<'_>,
    ) -> Result<CountReport, Error> {
        let starts_out =
            self.evaluate_starts(starts, (Mode::Paths, StartCount::of), config, progress, saving)?;
        let classes = self.classes_of(&starts_out, |s| s.games.clone());
        Ok(CountReport { group_order: self.group.order(), starts: starts_out, classes })
    }

    /// Exact probabilities under random play from any position of the board (one that no
    /// single-vacancy start leads to as well).
    pub fn exact_position(
        &self,
        position: Pegs,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<PositionExact, Error> {
        let position = self.on_board(position)?;
        let (ends, positions) = self.evaluate_from(
            Origin::Position(position),
            Mode::Probability,
            config,
            progress,
            None,
            None,
            None,
        )?;
        Ok(PositionExact {
            policy: config.policy,
            group_order: self.group.order(),
            position,
            figures: EndFigures::of(&ends),
            positions,
        })
    }

    /// Counts of games, wins by finish hole and reachable positions from any position.
    pub fn count_position(
        &self,
        position: Pegs,
        config: &EngineConfig,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<PositionCount, Error> {
        let position = self.on_board(position)?;
        let (ends, positions) =
            self.evaluate_from(Origin::Position(position), Mode::Paths, config, progress, None, None, None)?;
        Ok(PositionCount {
            group_order: self.group.order(),
            position,
            counts: GameCounts::of(&ends),
            positions,
        })
    }

    /// `position`, checked to hold pegs only in the board's holes and at least one.
    pub fn on_board(&self, position: Pegs) -> Result<Pegs, Error> {
        if position.is_empty() || position & self.board.full() != position {
            return Err(Error::Invalid(format!("that is not a position of board {}", self.board.name())));
        }
        Ok(position)
    }

    /// The classes met among `starts`, each with its holes and the value of its first start.
    fn classes_of<S: HasHole, V>(&self, starts: &[S], value: impl Fn(&S) -> V) -> Vec<ClassValue<V>> {
        let orbits = self.group.hole_orbits();
        let class = self.class_of();
        let mut out: Vec<ClassValue<V>> = Vec::new();
        for s in starts {
            let c = class[s.hole() as usize];
            if !out.iter().any(|cv| cv.class == c) {
                out.push(ClassValue { class: c, holes: orbits[c].clone(), value: value(s) });
            }
        }
        out.sort_by_key(|cv| cv.class);
        out
    }
}

/// An interruption during the evaluation of one start among several says how many were
/// finished before it; any other error, and a lone start, pass unchanged.
fn with_evaluations_done(e: Error, finished: usize, planned: usize) -> Error {
    match e {
        Error::Interrupted { done } if planned > 1 => {
            Error::Interrupted { done: format!("{finished} of {planned} start evaluations finished; {done}") }
        }
        e => e,
    }
}

/// A refusal of the forward engine's step, marked as coming after the whole group's passes
/// were refused (`refused`): a refusal then names the whole group among no ways out.
fn after_whole_group(e: Error, refused: bool) -> Error {
    match e {
        Error::TooLarge { layer, positions, classes, bytes, budget, by: RefusedBy::Engine } if refused => {
            Error::TooLarge { layer, positions, classes, bytes, budget, by: RefusedBy::EngineAfterWholeGroup }
        }
        e => e,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_refusal_after_the_whole_group_was_refused_says_so() {
        let refused = |by| Error::TooLarge {
            layer: "the layer with 9 pegs".into(),
            positions: 5,
            classes: true,
            bytes: 9,
            budget: 8,
            by,
        };
        let by = |e: Error| match e {
            Error::TooLarge { by, .. } => by,
            other => panic!("{other}"),
        };
        assert_eq!(by(after_whole_group(refused(RefusedBy::Engine), true)), RefusedBy::EngineAfterWholeGroup);
        assert_eq!(by(after_whole_group(refused(RefusedBy::Engine), false)), RefusedBy::Engine);
        assert_eq!(by(after_whole_group(refused(RefusedBy::Counting), true)), RefusedBy::Counting);
        let other = Error::Invalid("x".into());
        assert_eq!(after_whole_group(other, true).to_string(), "x");
    }
}
