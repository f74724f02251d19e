//! One function per subcommand: a validated request in, the library called, its typed result
//! rendered, the bytes handed to `output`. No domain logic lives here.

use super::args::{AuditArgs, BoardsArgs, CountArgs, ExactArgs, RaceArgs, ShowArgs, SimulateArgs, SolveArgs};
use super::output::{self, Failure, Stream};
use super::progress;
use super::validate::{Output, RaceJob, SolveRequest};
use pegchain::render::Format;
use pegchain::render::audit::AuditView;
use pegchain::render::race::{GameView, GridView, SweepView, grid_svg};
use pegchain::render::simulate::SimulateView;
use pegchain::render::solitaire as report;
use pegchain::render::solve::DistinctCount;
use pegchain::render::{Report, render};
use pegchain::solitaire::board;
use pegchain::solitaire::exact::Analysis;
use pegchain::solitaire::solve::{DistinctSolutions, Solver};
use std::io::Write;
use std::ops::ControlFlow;

/// What a command leaves on stdout (files are written before it returns).
pub type Answer = Result<String, Failure>;

pub fn boards(args: BoardsArgs) -> Answer {
    let Some(req) = args.validate()? else { return Ok(boards_text()) };
    let files = pegchain::solitaire::files::render(&req.board, req.format)?;
    let files: Vec<_> =
        files.into_iter().map(|(name, text)| (req.dir.join(name), text.into_bytes())).collect();
    output::write_files_in(&req.dir, &files)?;
    Ok(files.iter().map(|(path, _)| format!("wrote {}\n", path.display())).collect())
}

fn boards_text() -> String {
    let mut out = String::from("Built-in boards:\n");
    for b in board::builtin_names().iter().filter_map(|name| board::builtin(name).ok()) {
        let g = pegchain::SymmetryGroup::of_board(&b);
        out += &format!(
            "  {:<11} {:>2} holes  {:>3} jumps  symmetry order {}\n",
            b.name(),
            b.hole_count(),
            b.jumps().len(),
            g.order()
        );
    }
    out
}

pub fn show(args: ShowArgs) -> Answer {
    let b = pegchain::solitaire::load_board(&args.board.board)?;
    let group = pegchain::SymmetryGroup::of_board(&b);
    Ok(format!(
        "{} ({} holes, {} jumps, symmetry group of order {})\n\n{}",
        b.name(),
        b.hole_count(),
        b.jumps().len(),
        group.order(),
        b.draw(|h| b.hole_name(h).to_string())
    ))
}

pub fn exact(args: ExactArgs) -> Answer {
    let req = args.validate()?;
    let analysis = Analysis::new(&req.board);
    let r = analysis.exact(&req.starts, &req.config, &mut progress::layer_printer(&req.board, req.quiet))?;
    Ok(if req.output.format == Format::Json {
        json(report::exact_json(&req.board, &r))
    } else {
        report::exact_text(&req.board, &r)
    })
}

pub fn count(args: CountArgs) -> Answer {
    let req = args.validate()?;
    let analysis = Analysis::new(&req.board);
    let r = analysis.count(&req.starts, &req.config, &mut progress::layer_printer(&req.board, req.quiet))?;
    Ok(if req.output.format == Format::Json {
        json(report::count_json(&req.board, &r))
    } else {
        report::count_text(&req.board, &r)
    })
}

pub fn ends(args: CountArgs) -> Answer {
    let req = args.validate()?;
    let analysis = Analysis::new(&req.board);
    let r = analysis.count(&req.starts, &req.config, &mut progress::layer_printer(&req.board, req.quiet))?;
    Ok(if req.output.format == Format::Json {
        json(pegchain::render::ends::ends_json(&req.board, &r))
    } else {
        pegchain::render::ends::ends_text(&req.board, &r)
    })
}

pub fn simulate(args: SimulateArgs) -> Answer {
    let req = args.validate()?;
    let total = req.config.total_games(&req.board);
    let bar = progress::games_bar(total, req.quiet);
    let r = pegchain::solitaire::estimates::run(&req.board, &req.config, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    progress::throughput(total, r.play_time.as_secs_f64(), req.config.threads, req.quiet);
    Ok(rendered(&SimulateView::new(&req.board, &r), req.output))
}

pub fn audit(args: AuditArgs) -> Answer {
    let req = args.validate()?;
    let bar = progress::games_bar(req.config.games, req.quiet);
    let r = pegchain::solitaire::audit::run(&req.config, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    if let Some(dir) = &req.svg {
        let files: Vec<_> = pegchain::render::plots::audit_plots(&r)
            .into_iter()
            .map(|(name, svg)| (dir.join(name), svg.into_bytes()))
            .collect();
        output::write_files_in(dir, &files)?;
    }
    Ok(rendered(&AuditView::new(&r), req.output))
}

/// A view in the requested format (every view of these commands has a CSV table).
fn rendered(view: &impl Report, output: Output) -> String {
    render(view, output.format, output.style).unwrap_or_default()
}

pub fn race(args: RaceArgs) -> Answer {
    use pegchain::race;
    let req = args.validate()?;
    let rules = &req.rules;
    match req.job {
        RaceJob::Game { setup, simulate } => {
            let r = race::analyse(rules, setup)?;
            let sim = simulate.map(|(games, seed, threads)| {
                let s = race::simulate(rules, setup, games, seed, threads);
                let check = s.check(&r);
                (s, check)
            });
            Ok(rendered(&GameView::new(rules, &r, sim.as_ref()), req.output))
        }
        RaceJob::Grid { length, svg, mark } => {
            let g = race::grid(rules, length)?;
            let view = GridView::new(rules, &g, svg.as_ref().map(|p| p.display().to_string()));
            if let Some(path) = &svg {
                output::write_file(path, grid_svg(&view, Some(mark)).as_bytes())?;
            }
            Ok(rendered(&view, req.output))
        }
        RaceJob::Sweep { swine, butcher, lengths } => {
            let reports = race::sweep(rules, swine, butcher, lengths)?;
            Ok(rendered(&SweepView::new(rules, &reports), req.output))
        }
    }
}

/// Runs a search, writing each solution as it is found: `--all` never holds them all.
/// A closed pipe (`| head`) ends the search quietly; any other failed write is a failure.
pub fn solve(args: SolveArgs) -> Answer {
    let req = args.validate()?;
    let mut out = Stream::new(std::io::BufWriter::new(std::io::stdout().lock()));
    stream_solutions(&req, &mut out)?;
    out.finish()?;
    Ok(String::new())
}

fn stream_solutions(req: &SolveRequest, out: &mut Stream<impl Write>) -> Result<(), Failure> {
    use pegchain::render::solve as report;
    let (board, problem) = (&req.board, &req.problem);
    let solver = Solver::new(board);
    let mut distinct = req.distinct.then(|| DistinctSolutions::new(&solver, problem));
    let head = if req.output.format == Format::Json {
        report::json_header(board, problem, req.method)
    } else {
        report::header_text(board, problem, req.method)
    };
    let mut open = out.put(&head);
    let mut shown = 0;
    let summary = solver.run(problem, req.method, &mut |jumps| {
        if !open {
            return ControlFlow::Break(());
        }
        if distinct.as_mut().is_some_and(|d| !d.insert(jumps)) {
            return ControlFlow::Continue(());
        }
        shown += 1;
        let text = if req.output.format == Format::Json {
            report::json_solution(board, shown, jumps)
        } else {
            report::solution_text(board, problem.start, shown, jumps, req.show)
        };
        open = out.put(&text);
        if !open || req.limit == Some(shown) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })?;
    if open {
        let distinct = distinct.map(|d| DistinctCount { classes: d.count(), symmetries: d.symmetries() });
        let foot = if req.output.format == Format::Json {
            report::json_footer(&summary, shown, distinct)
        } else {
            report::footer_text(&summary, shown, distinct)
        };
        out.put(&foot);
    }
    Ok(())
}

fn json(value: serde_json::Value) -> String {
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}
