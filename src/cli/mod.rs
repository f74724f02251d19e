//! The `pegchain` binary's command line: flags (`args`), their validation into requests
//! (`validate`), one function per subcommand (`commands`), progress on stderr (`progress`),
//! the one output function (`output`) and the one file writer (`files`).

pub mod args;
pub mod chain_requests;
pub mod checkpoint;
pub mod commands;
pub mod files;
#[cfg(target_os = "linux")]
pub mod huge_pages;
pub mod interrupt;
pub mod limits;
pub mod output;
pub mod processes;
pub mod progress;
pub mod serve;
pub mod validate;
pub mod watch;

use args::{Cli, Command};
use clap::Parser;
use std::path::Path;
use std::process::ExitCode;

/// Parses the command line, runs the command, and writes its answer: the binary's whole life.
pub fn main() -> ExitCode {
    interrupt::write_errors_not_signals();
    huge_pages::choose_page_size();
    limits::one_arena_under_an_address_limit();
    pegchain::pages::on_random_access(huge_pages::advise_random_access);
    let silent = processes::a_silent_copy();
    // The help (asked for, or no command given) and --version: an answer on stdout like any
    // other, so a failed write fails.
    let help = |text: String| match silent {
        true => ExitCode::SUCCESS,
        false => output::emit(&text).map_or_else(|f| f.report(), |()| ExitCode::SUCCESS),
    };
    if std::env::args_os().len() == 1 {
        use clap::CommandFactory;
        return help(Cli::command().render_help().to_string());
    }
    let parsed = match Cli::try_parse() {
        Err(e) if !e.use_stderr() => return help(e.to_string()),
        parsed => parsed.map_err(|e| refused_command_line(&e)),
    };
    let _membership = processes::join();
    if let Some((n, me)) = processes::copies_without_mpi() {
        if me == 0 {
            output::to_stderr(format_args!(
                "pegchain: started as one of {n} processes, but built without the mpi feature: build with `cargo build --release --features mpi` to share the work, or run one process\n"
            ));
        }
        return ExitCode::from(2);
    }
    // The processes of a shared run meet first over their command lines: a refused one stops
    // them all here, with process 0 saying why (in the words of the process that refused it)
    // before any exits; mpirun ends the job as soon as one exits with a failure.
    // Only process 0 writes the answer, so only its --output is checked, before the meeting
    // that stops every process with its words.
    let parsed = parsed.and_then(|cli| match processes::speaks() {
        true => check_answer_file(cli.command.answer_file()).map(|()| cli),
        false => Ok(cli),
    });
    let parsed = pegchain::solitaire::exact::agreed(processes::shared().as_ref(), parsed)
        .and_then(|cli| one_command_line(processes::shared().as_ref()).map(|()| cli));
    let mut answer = Answer::Stdout;
    let outcome = parsed.map_err(output::Failure::Input).and_then(|cli| {
        interrupt::install(processes::speaks(), cli.command.saves_checkpoints());
        answer = match (cli.command.answer_file(), cli.command.streams_its_answer()) {
            (Some(file), false) => Answer::File(file.to_path_buf()),
            (Some(_), true) => Answer::Streamed,
            (None, _) => Answer::Stdout,
        };
        stdout_open_alone(&answer)
            .and_then(|()| only_shared_commands(&cli.command))
            .and_then(|()| start_workers(&cli.command))
            .and_then(|()| run(cli.command))
            .and_then(|text| output::unless_interrupted().map(|()| text))
    });
    // Every process of a shared run has the whole answer (or the same error): one speaks.
    let code = if processes::speaks() {
        match outcome.and_then(|text| answer.write(&text)) {
            Ok(()) => {
                output::say_what_follows_the_answer();
                ExitCode::SUCCESS
            }
            Err(failure) => failure.report(),
        }
    } else {
        outcome.map_or_else(|failure| failure.code(), |_| ExitCode::SUCCESS)
    };
    processes::settle();
    code
}

/// Where the answer goes.
enum Answer {
    /// Standard output.
    Stdout,
    /// The `--output` file, written whole at the end.
    File(std::path::PathBuf),
    /// Written as it was made, by the command itself (solve's solutions to `--output`).
    Streamed,
}

impl Answer {
    fn write(&self, text: &str) -> Result<(), output::Failure> {
        match self {
            Answer::Stdout => output::emit(text),
            Answer::File(file) if files::written_by_this_run(file) => {
                Err(output::Failure::Input(pegchain::Error::Invalid(format!(
                    "cannot write {}: the run wrote it as another of its outputs, which the answer would replace; name another file for --output",
                    file.display()
                ))))
            }
            Answer::File(file) => output::write_file(file, text.as_bytes()),
            Answer::Streamed => Ok(()),
        }
    }
}

/// Fails before any work where standard output was closed at the start, the answer goes
/// there and this process runs alone. The processes of a shared run write to mpirun's own
/// pipes, and must all go the same way (one that stopped here would leave the others waiting
/// for it).
fn stdout_open_alone(answer: &Answer) -> Result<(), output::Failure> {
    match (processes::count(), answer) {
        (1, Answer::Stdout) => output::stdout_open(),
        _ => Ok(()),
    }
}

/// `--output FILE`, checked before any work: a file that can be made or replaced where it
/// is, and not a file the command line also names (an input the run reads, a checkpoint,
/// another output), which the answer would replace or which would replace the answer. The
/// writer refuses an input again when it writes, whatever path named it.
fn check_answer_file(file: Option<&std::path::Path>) -> Result<(), pegchain::Error> {
    let Some(file) = file else { return Ok(()) };
    validate::check_file_target("--output", file)?;
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    match also_named(&args, file) {
        None => Ok(()),
        Some(other) => Err(pegchain::Error::Invalid(format!(
            "--output {}: the command line also names that file ({}); the answer needs a file of its own",
            file.display(),
            pegchain::input::shown_path(std::path::Path::new(&other))
        ))),
    }
}

/// The first argument other than `--output`'s own value that names `file`: the same existing
/// file by any path, or, for the flags that write files, the same path. The value of `-o` and
/// `--output` is recognised in every form clap takes (`-o F`, `-oF`, `-qo F`, `--output F`,
/// `--output=F`).
fn also_named(args: &[std::ffi::OsString], file: &std::path::Path) -> Option<std::ffi::OsString> {
    const WRITERS: [&str; 3] = ["--svg", "--checkpoint", "--drn"];
    let text = |a: &std::ffi::OsString| a.to_string_lossy().into_owned();
    let names_output =
        |a: &str| a == "--output" || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('o'));
    let mut candidates = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let (this, before) = (text(arg), i.checked_sub(1).map(|b| text(&args[b])));
        let is_output = before.as_deref().is_some_and(names_output)
            || this.starts_with("--output=")
            || (this.starts_with("-o") && this.len() > 2);
        if is_output || this == "--" {
            continue;
        }
        let writes = before.as_deref().is_some_and(|b| WRITERS.contains(&b));
        let (flag, value) = match this.split_once('=').filter(|(flag, _)| flag.starts_with("--")) {
            Some((flag, value)) => (Some(flag), std::ffi::OsString::from(value)),
            None => (before.as_deref(), arg.clone()),
        };
        // `--prism PREFIX` writes PREFIX.tra and the files beside it.
        if flag == Some("--prism") {
            for suffix in [".tra", ".lab", ".srew", ".trew"] {
                candidates.push((files::beside(Path::new(&value), suffix).into_os_string(), true));
            }
        }
        candidates.push((value, writes || flag.is_some_and(|f| WRITERS.contains(&f))));
    }
    candidates
        .into_iter()
        .find(|(value, writes): &(std::ffi::OsString, bool)| {
            let path = std::path::Path::new(value);
            pegchain::input::same_file(path, file) || (*writes && path == file)
        })
        .map(|(value, _)| value)
}

/// Starts the worker threads of a command whose work is parallel from its start, here where
/// a failure can be worded: left to the first parallel call, a system that refused threads
/// (a limit on processes, an address space of a few megabytes) aborted the run with a panic.
/// Other commands start them only if they need them: each worker's first allocation reserves
/// an arena of address space (64 MB with glibc), which an address-space limit may not spare.
fn start_workers(command: &Command) -> Result<(), output::Failure> {
    let parallel = matches!(
        command,
        Command::Exact(_)
            | Command::Count(_)
            | Command::Ends(_)
            | Command::Simulate(_)
            | Command::Audit(_)
            | Command::Coach(_)
            | Command::Serve(_)
    );
    if !parallel {
        return Ok(());
    }
    // rayon sizes its pool by RAYON_NUM_THREADS where it is set: 30,000 threads took minutes
    // to start, and a Ctrl-C went unheard meanwhile.
    let asked = std::env::var("RAYON_NUM_THREADS").ok().and_then(|v| v.trim().parse::<usize>().ok());
    if let Some(threads) = asked.filter(|&t| t > validate::MAX_THREADS) {
        return Err(output::Failure::Input(pegchain::Error::Invalid(format!(
            "RAYON_NUM_THREADS is {threads}: the worker threads are at most {} (0 or unset: one per core)",
            validate::MAX_THREADS
        ))));
    }
    rayon::ThreadPoolBuilder::new().build_global().map_err(|e| {
        output::Failure::Runtime(format!("cannot start the worker threads: {}", one_line(&e.to_string())))
    })
}

/// Under `mpirun`, the commands whose work the processes share; any other is refused
/// rather than run once per process.
fn only_shared_commands(command: &Command) -> Result<(), output::Failure> {
    let n = processes::count();
    match command {
        _ if n == 1 => Ok(()),
        Command::Exact(_) | Command::Count(_) | Command::Ends(_) => Ok(()),
        _ => Err(output::Failure::Input(pegchain::Error::Invalid(format!(
            "only exact, count and ends share their work between processes; run this command as one process, not under mpirun with {n}"
        )))),
    }
}

fn run(command: Command) -> commands::Answer {
    match command {
        Command::Boards(args) => commands::boards(args),
        Command::Show(args) => commands::show(args),
        Command::Exact(args) => commands::exact(args),
        Command::Count(args) => commands::count(args),
        Command::Ends(args) => commands::ends(args),
        Command::Chain(args) => commands::chain(args),
        Command::Games(args) => commands::games(args),
        Command::Game(args) => commands::game(args),
        Command::Export(args) => commands::export(args),
        Command::Coach(args) => commands::coach(args),
        Command::Serve(args) => commands::serve(args),
        Command::Simulate(args) => commands::simulate(args),
        Command::Audit(args) => commands::audit(args),
        Command::Race(args) => commands::race(args),
        Command::Solve(args) => commands::solve(args),
    }
}

/// The processes of a shared run meet at every layer, so they must run one command line: a
/// process given another (`mpirun -np 1 pegchain exact ... : -np 1 pegchain simulate ...`)
/// left the others waiting for it for ever. Every process must call it.
fn one_command_line(
    processes: Option<&pegchain::solitaire::exact::Processes>,
) -> Result<(), pegchain::Error> {
    let Some(pegchain::solitaire::exact::Processes(exchange)) = processes else { return Ok(()) };
    let mine: Vec<u8> =
        std::env::args_os().skip(1).flat_map(|a| [a.as_encoded_bytes(), &[0]].concat()).collect();
    let all = pegchain::solitaire::exact::agree(&**exchange, Ok(mine))?;
    let line = |bytes: &[u8]| {
        let words: Vec<_> =
            bytes.split(|&b| b == 0).filter(|w| !w.is_empty()).map(String::from_utf8_lossy).collect();
        pegchain::render::number::quoted(&words.join(" "))
    };
    match all.iter().position(|other| *other != all[0]) {
        None => Ok(()),
        Some(p) => Err(pegchain::Error::Invalid(format!(
            "the processes of one run must be given one command line, but process {p} was given {} and process 0 {}",
            line(&all[p]),
            line(&all[0])
        ))),
    }
}

/// A command line clap refused, in one line.
fn refused_command_line(e: &clap::Error) -> pegchain::Error {
    let why = match e.kind() {
        clap::error::ErrorKind::InvalidUtf8 => not_text(std::env::args_os().skip(1)),
        _ => one_line(&e.to_string()),
    };
    pegchain::Error::Invalid(format!("{why} (see pegchain --help)"))
}

/// Which argument is not UTF-8 text, and whose value it is: clap says only "invalid UTF-8 was
/// detected in one or more arguments", which left the user to find it.
fn not_text(args: impl Iterator<Item = std::ffi::OsString>) -> String {
    let args: Vec<_> = args.collect();
    let Some(at) = args.iter().position(|a| a.to_str().is_none()) else {
        return "an argument is not UTF-8 text".to_string();
    };
    let shown = format!("{:?}", args[at]);
    match at.checked_sub(1).and_then(|before| args[before].to_str()).filter(|f| f.starts_with('-')) {
        Some(flag) => format!("the value of {flag}, {shown}, is not UTF-8 text, which {flag} takes"),
        None => format!("the argument {shown} is not UTF-8 text"),
    }
}

/// The first line of clap's message, without its "error: " prefix, and the name it suggests
/// for a misspelt one ("tip: a similar subcommand exists: 'exact'", on a line of its own,
/// was dropped with the rest).
fn one_line(message: &str) -> String {
    let mut lines = message.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let similar = message
        .lines()
        .filter_map(|l| l.trim().strip_prefix("tip: "))
        .find(|tip| tip.starts_with("a similar ") || tip.starts_with("some similar "))
        .map_or(String::new(), |tip| format!("; {tip}"));
    // "the following required arguments were not provided:" names them on the next line.
    match (first.ends_with(':'), lines.next()) {
        (true, Some(next)) => format!("{first} {}{similar}", next.trim()),
        _ => format!("{first}{similar}"),
    }
}
