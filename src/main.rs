//! The `pegchain` command. Everything happens in `cli`: flags -> validated request ->
//! library call -> typed result -> renderer -> bytes -> one output function.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
