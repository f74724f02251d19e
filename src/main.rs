//! The `pegchain` command. Everything happens in `cli`: flags -> validated request ->
//! library call -> typed result -> renderer -> bytes -> one output function.

mod cli;

/// Large blocks on huge pages (see `cli::huge_pages`).
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: cli::huge_pages::HugePages = cli::huge_pages::HugePages;

fn main() -> std::process::ExitCode {
    cli::main()
}
