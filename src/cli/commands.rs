//! One function per subcommand: a validated request in, the library called, its typed result
//! rendered, the bytes handed to `output`. No domain logic lives here.

use super::args::{AuditArgs, BoardsArgs, CountArgs, ExactArgs, RaceArgs, ShowArgs, SimulateArgs, SolveArgs};
use super::checkpoint::Saver;
use super::output::{self, Failure, Stream};
use super::progress;
use super::validate::{ExportRequest, Output, RaceJob, ServeChoices, SolveRequest};
use pegchain::render::audit::AuditView;
use pegchain::render::board::{BoardInfo, BoardsView, ExportView, ShowView};
use pegchain::render::chain::{ChainView, ExportedView, GamesView, distribution_svg};
use pegchain::render::count::CountView;
use pegchain::render::ends::EndsView;
use pegchain::render::exact::ExactView;
use pegchain::render::position::{PositionCountView, PositionExactView};
use pegchain::render::race::{GameView, GridView, SweepView, grid_svg};
use pegchain::render::simulate::SimulateView;
use pegchain::render::simulate::from_position::PositionSimulateView;
use pegchain::render::solve::{SolveFooter, SolveHeader, SolveWriter};
use pegchain::render::{Report, render};
use pegchain::solitaire::board;
use pegchain::solitaire::exact::{Analysis, CountReport, PositionCount, SaveBytes, Saving};
use pegchain::solitaire::files;
use pegchain::solitaire::saved::SavedSearch;
use pegchain::solitaire::simulate::{RunTally, Waves};
use pegchain::solitaire::solve::{DistinctSolutions, SearchSaving, SearchState, Solver};
use pegchain::{Error, SymmetryGroup};
use std::io::Write;
use std::ops::ControlFlow;

/// What a command leaves on stdout (files are written before it returns).
pub type Answer = Result<String, Failure>;

/// A view in the requested format. `validate` has refused every format a view cannot hold,
/// so `None` (no table for CSV) is only a safety net.
fn answer(view: &impl Report, output: Output) -> Answer {
    render(view, output.format, output.style)
        .ok_or_else(|| Failure::Input(Error::Invalid("this answer is no table: --csv does not fit".into())))
}

pub fn boards(args: BoardsArgs) -> Answer {
    let req = args.validate()?;
    match &req.export {
        None => answer(&BoardsView::new(builtin_boards()), req.output),
        Some(export) => answer(&export_board(export)?, req.output),
    }
}

fn builtin_boards() -> Vec<BoardInfo> {
    let boards = board::builtin_names().into_iter().filter_map(|name| board::builtin(&name).ok());
    boards.map(|b| BoardInfo::new(&b, SymmetryGroup::of_board(&b).order())).collect()
}

/// Writes the board files (all or none) and says which.
fn export_board(req: &ExportRequest) -> Result<ExportView, Failure> {
    let rendered = files::render(&req.board, &req.puzzle, req.format)?;
    let files: Vec<_> =
        rendered.into_iter().map(|(name, text)| (req.dir.join(name), text.into_bytes())).collect();
    output::write_files_in(&req.dir, &files)?;
    let info = BoardInfo::new(&req.board, SymmetryGroup::of_board(&req.board).order());
    let format = match req.format {
        files::Format::Seed002 => "seed002",
        files::Format::Picture => "picture",
    };
    Ok(ExportView::new(info, format, files.iter().map(|(path, _)| path.display().to_string()).collect()))
}

pub fn show(args: ShowArgs) -> Answer {
    let req = args.validate()?;
    let order = SymmetryGroup::of_board(&req.board).order();
    answer(&ShowView::new(&req.board, order), req.output)
}

pub fn exact(args: ExactArgs) -> Answer {
    let mut req = args.validate()?;
    super::limits::return_big_blocks(req.return_freed_memory);
    let analysis = Analysis::new(&req.board);
    if let Some(position) = req.position {
        let mut progress = progress::layer_printer(&req.board, req.quiet);
        let r = analysis.exact_position(position, &req.config, &mut progress);
        let r = r.map_err(|e| super::limits::explain(e, req.budget, &req.other_ways()))?;
        return answer(&PositionExactView::new(&req.board, &r), req.output);
    }
    // Every save goes to the checkpoint, and each pass's first by residues beside it too.
    let saver = std::cell::RefCell::new(Saver::new(req.checkpoint.as_deref(), &req.run));
    let mut save = |bytes: &[u8]| saver.borrow_mut().save(bytes);
    let mut keep = |bytes: &[u8]| saver.borrow_mut().keep(bytes);
    let save = req.checkpoint.is_some().then_some(&mut save as &mut SaveBytes<'_>);
    let keep = req.checkpoint.is_some().then_some(&mut keep as &mut SaveBytes<'_>);
    let saving = Saving { resume: req.resume.take(), save, keep };
    let mut progress = progress::layer_printer(&req.board, req.quiet);
    let r = analysis.exact_saving(&req.starts, &req.config, &mut progress, saving);
    let r = r.map_err(|e| super::limits::explain(e, req.budget, &req.other_ways()));
    let r = saver.into_inner().outcome(r)?;
    answer(&ExactView::new(&req.board, &r), req.output)
}

pub fn count(args: CountArgs) -> Answer {
    let mut req = args.validate("count")?;
    super::limits::return_big_blocks(req.return_freed_memory);
    if let Some(r) = count_position(&req)? {
        return answer(&PositionCountView::count(&req.board, &r), req.output);
    }
    let r = count_games(&mut req)?;
    answer(&CountView::new(&req.board, &r), req.output)
}

pub fn ends(args: CountArgs) -> Answer {
    let mut req = args.validate("ends")?;
    super::limits::return_big_blocks(req.return_freed_memory);
    if let Some(r) = count_position(&req)? {
        return answer(&PositionCountView::ends(&req.board, &r), req.output);
    }
    let r = count_games(&mut req)?;
    answer(&EndsView::new(&req.board, &r), req.output)
}

/// The counts from the request's position, if it gives one instead of start holes.
fn count_position(req: &super::validate::EngineRequest) -> Result<Option<PositionCount>, Failure> {
    let Some(position) = req.position else { return Ok(None) };
    let mut progress = progress::layer_printer(&req.board, req.quiet);
    let r = Analysis::new(&req.board).count_position(position, &req.config, &mut progress);
    Ok(Some(r.map_err(|e| super::limits::explain(e, req.budget, &req.other_ways()))?))
}

fn count_games(req: &mut super::validate::EngineRequest) -> Result<CountReport, Failure> {
    let analysis = Analysis::new(&req.board);
    let mut saver = Saver::new(req.checkpoint.as_deref(), &req.run);
    let mut save = |bytes: &[u8]| saver.save(bytes);
    let save = req.checkpoint.is_some().then_some(&mut save as &mut SaveBytes<'_>);
    let saving = Saving { resume: req.resume.take(), save, keep: None };
    let mut progress = progress::layer_printer(&req.board, req.quiet);
    let r = analysis.count_saving(&req.starts, &req.config, &mut progress, saving);
    saver.outcome(r.map_err(|e| super::limits::explain(e, req.budget, &req.other_ways())))
}

pub fn simulate(args: SimulateArgs) -> Answer {
    let req = args.validate()?;
    if let Some(position) = req.position {
        return simulate_from_position(&req, position);
    }
    let total = req.config.total_games(&req.board);
    progress::warn_if_long(total, req.config.threads, req.quiet, || {
        pegchain::solitaire::estimates::calibrate(&req.board, &req.config, progress::CALIBRATION_GAMES)
    });
    let bar = progress::games_bar(total, req.quiet);
    // A checkpoint that cannot be written stops the run; its failure is reported as such.
    let mut saver = Saver::new(req.checkpoint.as_deref(), &req.run);
    let mut on_wave =
        |tallies: &[RunTally]| saver.save(&serde_json::to_vec(tallies).expect("tallies serialize"));
    let resumed = req.resume.iter().map(RunTally::games).sum();
    bar.inc(resumed);
    let waves = Waves { resume: req.resume.clone(), on_wave: &mut on_wave };
    let r = pegchain::solitaire::estimates::run_in_waves(&req.board, &req.config, &|n| bar.inc(n), waves);
    bar.finish_and_clear();
    let r = saver.outcome(r)?;
    progress::throughput(
        total.saturating_sub(resumed),
        resumed,
        r.play_time.as_secs_f64(),
        req.config.threads,
        req.quiet,
    );
    answer(&SimulateView::new(&req.board, &r), req.output)
}

/// `simulate --position` (or `--start H --moves ...`): games from one position.
fn simulate_from_position(
    req: &super::validate::SimulateRequest,
    position: pegchain::solitaire::Pegs,
) -> Answer {
    let games = req.config.games;
    let bar = progress::games_bar(games, req.quiet);
    let r =
        pegchain::solitaire::estimates::run_from_position(&req.board, position, &req.config, &|n| bar.inc(n));
    bar.finish_and_clear();
    let r = r?;
    progress::throughput(games, 0, r.play_time.as_secs_f64(), req.config.threads, req.quiet);
    let view = PositionSimulateView {
        more: Some("--exact asks for it"),
        ..PositionSimulateView::new(&req.board, &r)
    };
    answer(&view, req.output)
}

pub fn audit(args: AuditArgs) -> Answer {
    let req = args.validate()?;
    progress::warn_if_long(req.config.games, req.config.threads, req.quiet, || {
        pegchain::solitaire::audit::calibrate(&req.config, progress::CALIBRATION_GAMES)
    });
    let bar = progress::games_bar(req.config.games, req.quiet);
    let r = pegchain::solitaire::audit::run(&req.config, &|n| bar.inc(n));
    bar.finish_and_clear();
    let r = r?;
    let mut view = AuditView::new(&r);
    if let Some(dir) = &req.svg {
        let files: Vec<_> = pegchain::render::plots::audit_plots(&r)
            .into_iter()
            .map(|(name, svg)| (dir.join(name), svg.into_bytes()))
            .collect();
        output::write_files_in(dir, &files)?;
        view.plots = files.iter().map(|(path, _)| path.display().to_string()).collect();
    }
    answer(&view, req.output)
}

pub fn race(args: RaceArgs) -> Answer {
    use pegchain::race;
    let req = args.validate()?;
    let rules = &req.rules;
    let cancel = super::interrupt::token();
    match req.job {
        RaceJob::Game { setup, simulate } => {
            let r = race::analyse_until(rules, setup, &cancel)?;
            let sim = match simulate {
                Some((games, seed, threads)) => {
                    progress::warn_if_long(games, threads, req.quiet, || {
                        let calibration = (progress::CALIBRATION_GAMES, seed, 1);
                        let _ = race::simulate(rules, setup, calibration, &|_| {}, &cancel);
                    });
                    let bar = progress::games_bar(games, req.quiet);
                    let s = race::simulate(rules, setup, (games, seed, threads), &|n| bar.inc(n), &cancel);
                    bar.finish_and_clear();
                    let s = s?;
                    let check = s.check(&r);
                    Some((s, check))
                }
                None => None,
            };
            answer(&GameView::new(rules, &r, sim.as_ref()), req.output)
        }
        RaceJob::Grid { length, svg, mark } => {
            let budget = super::limits::read(None).budget().map(|b| b.bytes);
            let g = race::grid_within(rules, length, budget)?;
            let view = GridView::new(rules, &g, svg.as_ref().map(|p| p.display().to_string()));
            if let Some(path) = &svg {
                output::write_file(path, grid_svg(&view, Some(mark)).as_bytes())?;
            }
            answer(&view, req.output)
        }
        RaceJob::Sweep { swine, butcher, lengths } => {
            let reports = race::sweep(rules, swine, butcher, lengths, &cancel)?;
            answer(&SweepView::new(rules, &reports), req.output)
        }
    }
}

/// Runs a search, writing each solution as it is found: `--all` never holds them all.
/// A closed pipe (`| head`) ends the search quietly; any other failed write is a failure.
/// A signal or a failed save ends the search early, but the document is still closed (JSON
/// stays valid, its footer saying `"complete": false` and `"interrupted": true` or
/// `"unsaved": true`) before the stop is reported: streaming keeps memory flat, so the output
/// is closed rather than buffered.
///
/// With `--output FILE` the solutions go to a temporary beside FILE, put in place when the
/// search ends (an interrupted one too, whose document says it was cut short); a failed write
/// leaves no file.
pub fn solve(args: SolveArgs) -> Answer {
    let file = args.output.output.clone();
    let mut req = args.validate()?;
    // An interrupted search has still ended its document: flush it before saying so.
    let streamed = match file {
        None => {
            let mut out = Stream::new(std::io::BufWriter::new(super::files::stdout()));
            let streamed = stream_solutions(&mut req, &mut out);
            out.finish()?;
            streamed
        }
        Some(path) => {
            let file = super::files::Growing::create(&path).map_err(|e| output::file_failed(&e))?;
            let mut out = Stream::new(std::io::BufWriter::new(file));
            let streamed = stream_solutions(&mut req, &mut out);
            out.finish_file()?;
            streamed
        }
    };
    streamed?;
    Ok(String::new())
}

/// The solutions' document on its stream, its head written just before what comes first
/// after it (a solution, or the foot): a search that fails before it has anything to say (a
/// breadth-first sweep stopped at its limit, exit 2) leaves stdout empty, as every refusal
/// does, where the head stood alone before the error.
struct Document<'a, W: Write> {
    out: &'a mut Stream<W>,
    head: Option<String>,
}

impl<W: Write> Document<'_, W> {
    /// Writes `text` (the head first, the first time); false once the stream has stopped.
    fn put(&mut self, text: &str) -> bool {
        if let Some(head) = self.head.take()
            && !self.out.put(&head)
        {
            return false;
        }
        self.out.put(text)
    }
}

/// The way to more solutions after a stop at the limit, in flags.
const MORE_SOLUTIONS: &str = "--limit N or --all for more";

fn stream_solutions(req: &mut SolveRequest, out: &mut Stream<impl Write>) -> Result<(), Failure> {
    let (board, problem) = (&req.board, &req.problem);
    let mut solver = Solver::new(board);
    solver.cancel = super::interrupt::token();
    let mut distinct = req.distinct.then(|| DistinctSolutions::new(&solver, problem));
    let writer = SolveWriter {
        board,
        format: req.output.format,
        show: req.show,
        more: Some(MORE_SOLUTIONS.to_string()),
    };
    let head = writer.head(&SolveHeader::new(board, solver.group.order(), problem, req.method));
    let mut out = Document { out, head: Some(head) };
    let mut open = true;
    // A resumed search shows again what it had shown; a saved one keeps what it shows.
    let (resume, shown_before) = match req.resume.take() {
        Some(saved) => (Some(saved.search), saved.shown),
        None => (None, Vec::new()),
    };
    for (i, jumps) in shown_before.iter().enumerate() {
        if let Some(d) = distinct.as_mut() {
            d.insert(jumps)?;
        }
        open = open && out.put(&writer.solution(problem.start, i as u64 + 1, jumps));
    }
    // Only a saved search keeps what it showed: `--all` alone holds no solution.
    let mut count = shown_before.len() as u64;
    let shown = std::cell::RefCell::new(shown_before);
    let mut saver = Saver::new(req.checkpoint.as_deref(), &req.run);
    let mut save = |search: &SearchState| {
        let saved = SavedSearch { search: search.clone(), shown: shown.borrow().clone() };
        saver.save(&saved.encode()).map_err(|_| ())
    };
    let saving = SearchSaving { resume, save: req.checkpoint.is_some().then_some(&mut save as _) };
    // Where the system refused `--distinct` room for more classes: the search stops there.
    let mut refused = None;
    let summary = solver.run_saving(
        problem,
        req.method,
        &mut |jumps| {
            if !open {
                return ControlFlow::Break(());
            }
            match distinct.as_mut().map(|d| d.insert(jumps)) {
                Some(Ok(false)) => return ControlFlow::Continue(()),
                Some(Err(e)) => {
                    refused = Some(e);
                    return ControlFlow::Break(());
                }
                Some(Ok(true)) | None => {}
            }
            count += 1;
            if req.checkpoint.is_some() {
                shown.borrow_mut().push(jumps.to_vec());
            }
            open = out.put(&writer.solution(problem.start, count, jumps));
            if !open || req.limit == Some(count) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        },
        saving,
    );
    // Said before the saver is done with: whether a save is on disk to go on from.
    let stopped = summary.as_ref().ok().filter(|s| s.interrupted).map(|s| {
        let found = pegchain::render::number::plural(s.found, "solution", "solutions");
        saver.interrupted_words(format!("{found} found"))
    });
    // The search's own table of failed positions refused memory, if `--distinct`'s did not.
    let refused = refused.or_else(|| {
        let held = summary.as_ref().ok()?.out_of_memory.clone()?;
        Some(Error::SearchOutOfMemory { held, breadth_first: false })
    });
    // Closed before a failed save is reported, as before an interruption.
    if let (true, Ok(summary)) = (open, &summary) {
        let distinct = distinct.map(|d| (d.count(), d.symmetries()));
        let foot = SolveFooter { out_of_memory: refused.is_some(), ..SolveFooter::new(summary, distinct) };
        out.put(&writer.foot(&foot, count));
    }
    saver.outcome(summary)?;
    if let Some(e) = refused {
        return Err(e.into());
    }
    match stopped {
        Some(done) => Err(Failure::Interrupted(done)),
        None => Ok(()),
    }
}

pub fn chain(args: super::args::ChainArgs) -> Answer {
    chain_answer("chain", args.validate()?)
}

pub fn game(args: super::args::GameArgs) -> Answer {
    chain_answer("game", args.validate()?)
}

/// Analyses a validated chain request, writes its SVG if asked, and renders the answer.
fn chain_answer(command: &'static str, req: super::chain_requests::ChainRequest) -> Answer {
    let token = super::interrupt::token();
    let watcher = super::watch::watch(&token, req.quiet);
    let report = pegchain::chains::analyse(&req.chain, &req.question, &token);
    drop(watcher);
    let report = report?;
    let view = ChainView {
        more: Some("all of them in --json and --csv"),
        svg: req.svg.as_ref().map(|p| p.display().to_string()),
        value_type: req.value_type,
        ..ChainView::new(command, (&req.model, &req.model_brief), &report, req.chain.initial()[0])
    };
    if let Some(file) = &req.svg {
        let svg = distribution_svg(&view).ok_or_else(|| {
            Failure::Input(Error::Invalid("--svg draws the step distribution: it needs a target".into()))
        })?;
        output::write_file(file, svg.as_bytes())?;
    }
    answer(&view, req.output)
}

pub fn games(args: super::args::GamesArgs) -> Answer {
    answer(&GamesView::new(&pegchain::games::GAMES), args.output.validate_without_fractions("games")?)
}

pub fn export(args: super::args::ExportArgs) -> Answer {
    use pegchain::formats::{drn, prism};
    let req = args.validate()?;
    let stop = super::interrupt::token();
    let stopped = || Failure::Interrupted("the export stopped with nothing written".into());
    let mut files: Vec<(std::path::PathBuf, Vec<u8>)> = Vec::new();
    // PRISM files of an earlier export under the prefix that this chain has no text for.
    let mut stale = Vec::new();
    if let Some(path) = &req.drn {
        files.push((path.clone(), drn::write_drn_until(&req.chain, &stop).ok_or_else(stopped)?.into_bytes()));
    }
    if let Some(prefix) = &req.prism {
        let written =
            prism::write_prism_until(&req.chain, req.reward.as_deref(), &stop).ok_or_else(stopped)?;
        let texts = [Some(written.tra), written.lab, written.srew, written.trew];
        for (ext, text) in super::chain_requests::PRISM_FILES.into_iter().zip(texts) {
            let file = super::chain_requests::prism_file(prefix, ext);
            match text {
                Some(text) => files.push((file, text.into_bytes())),
                None if file.symlink_metadata().is_ok() => stale.push(file),
                None => {}
            }
        }
    }
    // A stop asked for while the files were being made: none is written.
    if stop.is_cancelled() {
        return Err(stopped());
    }
    output::write_files(&files)?;
    // `chain PREFIX.tra` reads PREFIX.lab, .srew and .trew where they are: an earlier chain's
    // would be read with this one (and refused, its states not this chain's).
    for file in &stale {
        std::fs::remove_file(file).map_err(|e| {
            Failure::Runtime(format!(
                "wrote {}, but cannot remove {}, an earlier chain's, which would be read with them: {}",
                files.iter().map(|(p, _)| p.display().to_string()).collect::<Vec<_>>().join(", "),
                file.display(),
                output::plain(&e)
            ))
        })?;
    }
    let view = ExportedView {
        command: "export",
        chain: req.what,
        chain_brief: req.what_brief,
        states: req.chain.states(),
        transitions: req.chain.transitions(),
        files: files.iter().map(|(p, _)| p.display().to_string()).collect(),
        removed: stale.iter().map(|p| p.display().to_string()).collect(),
        labels_not_in_drn: match req.drn {
            Some(_) => {
                req.chain.labels().iter().filter(|(_, s)| s.is_empty()).map(|(l, _)| l.clone()).collect()
            }
            None => Vec::new(),
        },
    };
    answer(&view, req.output)
}

pub fn coach(args: super::args::CoachArgs) -> Answer {
    let req = args.validate()?;
    let mut coach = pegchain::solitaire::coach::Coach::new(&req.board, req.policy)
        .with_cancel(super::interrupt::token())
        .with_progress(progress::layer_printer(&req.board, req.quiet));
    if let Some(budget) = super::limits::read(None).budget() {
        coach = coach.with_memory_budget(budget.bytes);
    }
    let advice = coach.advise(req.position)?;
    let view = pegchain::render::coach::CoachView {
        more: Some("Exact fractions: --json, --csv or --markdown --full."),
        ..pegchain::render::coach::CoachView::new(&req.board, &req.policy.to_string(), &advice)
    };
    answer(&view, req.output)
}

pub fn serve(args: super::args::ServeArgs) -> Answer {
    let ServeChoices { host, boards, idle_timeout, budget } = args.validate()?;
    let memory = super::limits::read(None).budget().map(|b| b.bytes);
    let req = super::serve::ServeRequest { host, port: args.port, boards, memory, idle_timeout, budget };
    super::serve::run(req)?;
    // Stopped by a signal: nothing more to say on stdout.
    if super::interrupt::token().is_cancelled() {
        return Err(Error::Interrupted { done: "the server stopped".into() }.into());
    }
    Ok(String::new())
}
