//! The `pegchain` command: parse flags, validate them into configs, run, print.

mod cli;

use clap::Parser;
use cli::{Cli, Command, EngineRequest, RaceFormat, RaceJob, RaceRequest, SolveRequest};
use pegchain::crosscheck::StartPlan;
use pegchain::report::race as race_report;
use pegchain::report::simulate as simreport;
use pegchain::report::solitaire as report;
use pegchain::report::solve::DistinctCount;
use pegchain::solitaire::{Analysis, Progress};
use pegchain::solve::{DistinctSolutions, Solver};
use pegchain::{Error, board};
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    if std::env::args_os().len() == 1 {
        use clap::CommandFactory;
        let _ = Cli::command().print_help();
        return ExitCode::SUCCESS;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("pegchain: {} (see pegchain --help)", one_line(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    match run(cli.command) {
        Ok(text) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a message.
            let _ = stdout.write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pegchain: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<String, Error> {
    match command {
        Command::Boards(args) => match args.validate()? {
            None => Ok(boards_text()),
            Some(req) => {
                let files = board::file::export(&req.board, req.format, &req.dir)?;
                Ok(files.iter().map(|f| format!("wrote {}\n", f.display())).collect())
            }
        },
        Command::Show(args) => {
            let b = pegchain::load_board(&args.board)?;
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
        Command::Exact(args) => {
            let req = args.validate()?;
            let analysis = Analysis::new(&req.board);
            let r = analysis.exact(&req.starts, &req.config, &mut progress_printer(&req))?;
            Ok(if req.json {
                json(report::exact_json(&req.board, &r))
            } else {
                report::exact_text(&req.board, &r)
            })
        }
        Command::Simulate(args) => {
            let req = args.validate()?;
            let total = match &req.config.starts {
                StartPlan::Random => req.config.games,
                StartPlan::Each(h) => req.config.games * h.len() as u64,
                StartPlan::PerClass(n) => {
                    n * pegchain::SymmetryGroup::of_board(&req.board).hole_orbits().len() as u64
                }
            };
            let bar = progress_bar(total, req.quiet);
            let r = pegchain::crosscheck::run(&req.board, &req.config, &|n| bar.inc(n))?;
            bar.finish_and_clear();
            if !req.quiet {
                let secs = r.play_time.as_secs_f64();
                eprintln!(
                    "{} games in {secs:.2} s: {:.2} million games per second on {} threads",
                    total,
                    total as f64 / secs / 1e6,
                    if req.config.threads == 0 { rayon::current_num_threads() } else { req.config.threads }
                );
            }
            Ok(if req.json { json(simreport::json(&req.board, &r)) } else { simreport::text(&req.board, &r) })
        }
        Command::Audit(args) => {
            let config = args.validate()?;
            let bar = progress_bar(config.games, args.quiet);
            let r = pegchain::audit::run(&config, &|n| bar.inc(n))?;
            bar.finish_and_clear();
            if let Some(dir) = &args.svg {
                pegchain::report::plots::write_audit_plots(&r, dir)?;
            }
            let doc = pegchain::report::audit::document(&r);
            Ok(if args.json {
                json(pegchain::report::audit::json(&r))
            } else if args.markdown {
                doc.markdown()
            } else {
                doc.text()
            })
        }
        Command::Count(args) => {
            let req = args.validate()?;
            let analysis = Analysis::new(&req.board);
            let r = analysis.count(&req.starts, &req.config, &mut progress_printer(&req))?;
            Ok(if req.json {
                json(report::count_json(&req.board, &r))
            } else {
                report::count_text(&req.board, &r)
            })
        }
        Command::Solve(args) => {
            let req = args.validate()?;
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            solve(&req, &mut out)?;
            Ok(String::new())
        }
        Command::Ends(args) => {
            let req = args.validate()?;
            let analysis = Analysis::new(&req.board);
            let r = analysis.count(&req.starts, &req.config, &mut progress_printer(&req))?;
            Ok(if req.json {
                json(pegchain::report::ends::ends_json(&req.board, &r))
            } else {
                pegchain::report::ends::ends_text(&req.board, &r)
            })
        }
        Command::Race(args) => race(args.validate()?),
    }
}

fn race(req: RaceRequest) -> Result<String, Error> {
    use pegchain::race;
    let rules = &req.rules;
    match req.job {
        RaceJob::Game { setup, simulate } => {
            let r = race::analyse(rules, setup)?;
            let sim = simulate.map(|(games, seed, threads)| {
                let s = race::simulate(rules, setup, games, seed, threads);
                let check = s.check(&r);
                (s, check)
            });
            Ok(match req.format {
                RaceFormat::Text => race_report::game_text(rules, &r, sim.as_ref()),
                RaceFormat::Json => json(race_report::game_json(rules, &r, sim.as_ref())),
                RaceFormat::Csv => race_report::game_csv(&r),
            })
        }
        RaceJob::Grid { length, svg } => {
            let g = race::grid(rules, length)?;
            if let Some(path) = &svg {
                std::fs::write(path, race_report::grid_svg(rules, &g)).map_err(|e| {
                    Error::Invalid(format!("cannot write the heat map to {}: {e}", path.display()))
                })?;
            }
            Ok(match req.format {
                RaceFormat::Text => {
                    let note =
                        svg.map_or(String::new(), |p| format!("\nHeat map written to {}\n", p.display()));
                    race_report::grid_text(rules, &g) + &note
                }
                RaceFormat::Json => json(race_report::grid_json(rules, &g)),
                RaceFormat::Csv => race_report::grid_csv(&g),
            })
        }
        RaceJob::Sweep { swine, butcher, lengths } => {
            let reports = race::sweep(rules, swine, butcher, lengths)?;
            Ok(match req.format {
                RaceFormat::Text => race_report::sweep_text(rules, &reports),
                RaceFormat::Json => json(race_report::sweep_json(rules, &reports)),
                RaceFormat::Csv => race_report::sweep_csv(&reports),
            })
        }
    }
}

/// Runs a search, writing each solution as it is found: `--all` never holds them all.
/// A closed pipe (`| head`) ends the search quietly.
fn solve(req: &SolveRequest, out: &mut impl Write) -> Result<(), Error> {
    use pegchain::report::solve as report;
    let (board, problem) = (&req.board, &req.problem);
    let solver = Solver::new(board);
    let mut distinct = req.distinct.then(|| DistinctSolutions::new(&solver, problem));
    let head = if req.json {
        report::json_header(board, problem, req.method)
    } else {
        report::header_text(board, problem, req.method)
    };
    let mut closed = out.write_all(head.as_bytes()).is_err();
    let mut shown = 0;
    let summary = solver.run(problem, req.method, &mut |jumps| {
        if closed || distinct.as_mut().is_some_and(|d| !d.insert(jumps)) {
            return if closed { ControlFlow::Break(()) } else { ControlFlow::Continue(()) };
        }
        shown += 1;
        let text = if req.json {
            report::json_solution(board, shown, jumps)
        } else {
            report::solution_text(board, problem.start, shown, jumps, req.show)
        };
        closed = out.write_all(text.as_bytes()).is_err();
        if closed || req.limit == Some(shown) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })?;
    if closed {
        return Ok(());
    }
    let distinct = distinct.map(|d| DistinctCount { classes: d.count(), symmetries: d.symmetries() });
    let foot = if req.json {
        report::json_footer(&summary, shown, distinct)
    } else {
        report::footer_text(&summary, shown, distinct)
    };
    let _ = out.write_all(foot.as_bytes()).and_then(|_| out.flush());
    Ok(())
}

/// The first line of clap's message, without its "error: " prefix.
fn one_line(message: &str) -> String {
    let mut lines = message.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    // "the following required arguments were not provided:" names them on the next line.
    match (first.ends_with(':'), lines.next()) {
        (true, Some(next)) => format!("{first} {}", next.trim()),
        _ => first.to_string(),
    }
}

fn json(value: serde_json::Value) -> String {
    serde_json::to_string_pretty(&value).expect("JSON values serialize") + "\n"
}

fn boards_text() -> String {
    let mut out = String::from("Built-in boards:\n");
    for name in board::builtin_names() {
        let b = board::builtin(&name).expect("built-in");
        let g = pegchain::SymmetryGroup::of_board(&b);
        out += &format!(
            "  {:<11} {:>2} holes  {:>3} jumps  symmetry order {}\n",
            name,
            b.hole_count(),
            b.jumps().len(),
            g.order()
        );
    }
    out
}

/// A progress line on stderr, rewritten for every finished layer, when stderr is a terminal
/// and not --quiet. It clears itself when the run ends (the printer is dropped).
fn progress_printer(req: &EngineRequest) -> impl FnMut(&Progress) + '_ {
    struct Line {
        shown: bool,
    }
    impl Line {
        // A method, so that the closure owns the whole guard, not just its field.
        fn mark_shown(&mut self) {
            self.shown = true;
        }
    }
    impl Drop for Line {
        fn drop(&mut self) {
            if self.shown {
                eprint!("\r\x1b[K");
            }
        }
    }
    let show = !req.quiet && std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut line = Line { shown: false };
    move |p: &Progress| {
        if show {
            line.mark_shown();
            eprint!(
                "\r\x1b[Kstart {}: {} positions with {} pegs, {:.2} GB resident, {:.1} s",
                req.board.hole_name(p.start),
                pegchain::numfmt::grouped(&p.positions.into()),
                p.pegs,
                resident_bytes() as f64 / 1e9,
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// This process's resident memory, from /proc (0 where there is no /proc).
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm.split_whitespace().nth(1).and_then(|pages| pages.parse::<u64>().ok()).unwrap_or(0) * 4096
}

/// A progress bar on stderr; indicatif hides it when stderr is not a terminal.
fn progress_bar(total: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(Some(total), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {percent:>3}% {human_pos}/{human_len} games, eta {eta}",
        )
        .expect("a valid template"),
    );
    bar
}
