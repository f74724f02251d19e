//! The whole-group method's side of `exact` and `count`: which starts it takes (where it is
//! asked for or chosen as the faster, and fits), and its figures for them, with the starts
//! from which no play ends with one peg counted alone.
use super::{Analysis, EngineConfig, Positions, Progress, Reduction, SaveBytes, Starts};
use crate::engine::{Mode, Pass};
use crate::error::Error;
use crate::solitaire::moves::start_position;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::saved::Saved;
use crate::solitaire::solve;
use crate::solitaire::whole_group::{self, Game, StartFigures, reach_counts};
use std::collections::BTreeMap;

/// What the whole-group passes found: each start's figures, and the positions of the
/// starts counted alone among them (see `reach_counts`), which the saves carry.
type WholeGroupFigures = (Vec<(u8, StartFigures)>, Vec<(u8, Positions)>);

impl Analysis<'_> {
    /// The positions and finish holes, by the whole group's classes, of the starts to
    /// evaluate that their stabilizer would reduce less, when the whole-group method is
    /// asked for (none without symmetry, or for a group too large for the method); and
    /// their pegs left where the pass over every start's classes gives them; and the
    /// positions of the starts counted alone. Those come from `saved` where it holds them,
    /// and a count goes on from `saved` and hands `save` the evaluation after every layer.
    pub(super) fn whole_group_figures(
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
}
