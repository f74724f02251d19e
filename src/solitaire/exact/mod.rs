//! Peg solitaire as an absorbing Markov chain, and the two exact analyses built on it:
//! probabilities under random play (`exact`) and counts of games and positions (`count`).
//!
//! Each start is evaluated with symmetry reduction by the stabilizer of its start hole
//! only: then every position in a reduced class carries the same mass, so quantities that
//! depend on which hole a peg sits in (finish hole, last peg in the start hole) are split
//! exactly over the class. With `--start all`, one hole per class is evaluated and the
//! others are mapped from it by a symmetry.
//!
//! Here: the analyses a caller asks for, and the choice of method for each start. The
//! stabilizer method is in `stabilizer`, the whole group's figures made into each start's
//! in `by_whole_group` (its passes are [`crate::solitaire::whole_group`]); `request` and
//! `report` hold what goes in and what comes out, `agree` how processes sharing a run agree.

use crate::engine::Mode;
use crate::error::{Error, RefusedBy};
use crate::solitaire::board::{Board, SymmetryGroup};
use crate::solitaire::moves::MoveTable;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::saved::{Finished, Resumed, Saved};
use crate::solitaire::whole_group::StartFigures;

pub use crate::solitaire::chain::{End, PegChain};
use rug::Rational;

mod agree;
mod by_whole_group;
mod report;
mod request;
mod stabilizer;

pub use agree::{agree, agreed};
use report::HasHole;
pub use report::{
    ClassValue, CountReport, EndFigures, ExactReport, GameCounts, PositionCount, PositionExact, Positions,
    StartCount, StartExact, pegs_left_moment,
};
pub use request::{EngineConfig, Processes, Progress, Reduction, SaveBytes, Saving, Stage, Starts};

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
        // The starts the whole group's passes answered whole are evaluated once they end, and
        // saved then: a run stopped after them goes on with the starts left.
        for (hole, figures) in whole.iter().filter(|(_, f)| f.stuck.is_some()) {
            evaluated.push(self.evaluate(*hole, mode, config, progress, None, None, Some(figures))?);
        }
        if let Some(save) = save.as_deref_mut().filter(|_| !evaluated.is_empty()) {
            let waiting: Vec<(u8, Positions)> =
                counted.iter().filter(|(h, _)| !evaluated.iter().any(|e| e.hole == *h)).cloned().collect();
            save(&Saved::encode(&evaluated, &waiting, None)?)?;
        }
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
                    saved.finished.extend(Saved::decode(&part, self.board.full())?.finished);
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
