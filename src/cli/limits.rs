//! The process's memory limits as this machine reports them, read for `pegchain::budget`:
//! MemAvailable, the address-space limit (RLIMIT_AS) and the cgroup's memory limit.

use pegchain::budget::{self, Budget, HEADROOM_PERCENT, Limits, Source};
use pegchain::{Error, RefusedBy};

/// Every limit the process is held to, and the user's request (bytes), if any.
pub fn read(requested: Option<u64>) -> Limits {
    let file = |path: &str| std::fs::read_to_string(path).ok();
    Limits {
        available: file("/proc/meminfo").as_deref().and_then(budget::meminfo_available),
        address_space: address_space().map(|limit| limit.saturating_sub(mapped())),
        cgroup: cgroup(),
        requested,
    }
}

/// Has every block of a megabyte or more come from the system and go back to it when freed
/// (glibc's mmap threshold, fixed): without it glibc raises the threshold as big blocks are
/// freed and keeps their memory, so the process stays as big as its largest step (5.7 GB
/// after the European board's last layers, where 0.1 GB is in use). About 5% slower, so
/// only for runs that ask to be held to a memory size (`--max-memory`, `--residues`): `asked`.
pub fn return_big_blocks(asked: bool) {
    if !asked {
        return;
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter of the allocator; it is called before the
    // engine's threads start.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Under an address-space limit (`ulimit -v`), keeps glibc to its one main arena. Each
/// thread's own arena reserves 64 MB of address space when the limit leaves room for it and
/// is skipped when not, so the room the budget counts on came and went with the limit:
/// `exact --board triangle7 --start A` aborted on a failed allocation under 146-150 MB and
/// refused in one line under 142 MB; `coach` likewise under 150-170 MB. Without a limit, the
/// arenas stay (threads allocate without waiting on each other).
pub fn one_arena_under_an_address_limit() {
    if address_space().is_none() {
        return;
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter of the allocator; it is called before any
    // thread but the main one starts.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// The address space the process maps already (its binary, libraries, the worker threads'
/// stacks and glibc's arena: about 18 MB with two workers), which an address-space limit
/// counts too: a budget of 80% of the whole limit left the coach from triangle7's tip less
/// room than it planned for under 42-50 MB, and an allocation failed and aborted the run.
fn mapped() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().next().and_then(|p| p.parse().ok()).unwrap_or(0);
    // SAFETY: sysconf reads a constant of the system.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    pages.saturating_mul(u64::try_from(page).unwrap_or(4096))
}

/// RLIMIT_AS, the soft limit; None when unlimited.
fn address_space() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes one rlimit into the struct it is given, which lives here.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

/// The memory limit of this process's cgroup: v2 (its own group's `memory.max`, else the
/// root's), else v1's `memory.limit_in_bytes`. None when there is none.
fn cgroup() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|t| t.lines().find_map(|l| l.strip_prefix("0::").map(str::to_string)));
    let mut paths: Vec<String> =
        own.map(|p| format!("/sys/fs/cgroup{}/memory.max", p.trim_end_matches('/'))).into_iter().collect();
    paths.push("/sys/fs/cgroup/memory.max".into());
    paths.push("/sys/fs/cgroup/memory/memory.limit_in_bytes".into());
    paths.iter().find_map(|p| std::fs::read_to_string(p).ok().map(|t| budget::cgroup_limit(&t)))?
}

/// The flag of the whole group's method: a way out of a refusal by the engine.
pub const WHOLE_GROUP: &str = "--whole-group";

/// The way out of a refusal of the pass of `--whole-group` that keeps every layer.
const LEAVE_OUT_WHOLE_GROUP: &str = "leaving out --whole-group";

/// The way out of a refusal for a memory budget the user asked for.
pub const RAISE_THE_BUDGET: &str = "raise it with --max-memory GB if the machine has the memory";

/// A memory refusal that says where its budget came from, and which of the flags not given,
/// `ways`, may need less memory (the engine's; a pass of `--whole-group` has its own). A
/// budget the user asked for keeps the hint to raise it (as `output::words` words it); one
/// from the machine's limits names that limit, which no flag raises.
pub fn explain(e: Error, budget: Option<Budget>, ways: &[&str]) -> Error {
    let ways: Vec<&str> = match e {
        Error::TooLarge { by: RefusedBy::Engine, .. } => ways.to_vec(),
        // The whole group, chosen as the faster, was refused before the engine was.
        Error::TooLarge { by: RefusedBy::EngineAfterWholeGroup, .. } => {
            ways.iter().copied().filter(|&way| way != WHOLE_GROUP).collect()
        }
        // The engine alone keeps two layers, not every one.
        Error::TooLarge { by: RefusedBy::KeptClasses, .. } => vec![LEAVE_OUT_WHOLE_GROUP],
        // Two layers of classes a word each: neither residues nor a disk change that.
        Error::TooLarge { by: RefusedBy::Counting, .. } => vec![],
        _ => return e,
    };
    let limit = match budget.map(|b| b.source) {
        Some(source) if source != Source::Requested => format!("{HEADROOM_PERCENT}% {}", source.words()),
        _ => RAISE_THE_BUDGET.into(),
    };
    match ways.as_slice() {
        [] => Error::Invalid(format!("{e} ({limit})")),
        [one] => Error::Invalid(format!("{e} ({limit}; {one} may need less memory)")),
        [first @ .., last] => {
            Error::Invalid(format!("{e} ({limit}; {} or {last} may need less memory)", first.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_the_limit_its_budget_came_from() {
        let refused_by = |by| Error::TooLarge {
            layer: "the layer with 9 pegs".into(),
            positions: 5,
            classes: false,
            bytes: 9,
            budget: 8,
            by,
        };
        let e = || refused_by(RefusedBy::Engine);
        let named = |source| explain(e(), Some(Budget { bytes: 8, source }), &[]).to_string();
        assert!(named(Source::AddressSpace).ends_with("(80% of the address space its limit leaves)"));
        assert!(named(Source::Cgroup).ends_with("(80% of the cgroup's memory limit)"));
        assert!(named(Source::Available).ends_with("(80% of the available memory)"));
        let asked = explain(e(), Some(Budget { bytes: 8, source: Source::Requested }), &["--residues 2"]);
        assert!(
            asked.to_string().ends_with(
                "(raise it with --max-memory GB if the machine has the memory; --residues 2 may need less memory)"
            ),
            "{asked}"
        );
        let both = explain(
            e(),
            Some(Budget { bytes: 8, source: Source::Available }),
            &["--whole-group", "--residues 2"],
        );
        assert!(
            both.to_string().ends_with(
                "(80% of the available memory; --whole-group or --residues 2 may need less memory)"
            )
        );
        let three = explain(
            e(),
            Some(Budget { bytes: 8, source: Source::Available }),
            &["--whole-group", "--residues 2", "--spill DIR"],
        );
        assert!(
            three.to_string().ends_with(
                "(80% of the available memory; --whole-group, --residues 2 or --spill DIR may need less memory)"
            ),
            "{three}"
        );
        // A pass of --whole-group has its own way out, or none but more memory.
        let machine = Some(Budget { bytes: 8, source: Source::Available });
        let kept = explain(refused_by(RefusedBy::KeptClasses), machine, &["--residues 2", "--spill DIR"]);
        assert!(
            kept.to_string()
                .ends_with("(80% of the available memory; leaving out --whole-group may need less memory)"),
            "{kept}"
        );
        // The engine after the whole group, chosen as the faster, was refused: not that again.
        let after = explain(
            refused_by(RefusedBy::EngineAfterWholeGroup),
            machine,
            &["--whole-group", "--residues 2", "--spill DIR"],
        );
        assert!(
            after
                .to_string()
                .ends_with("(80% of the available memory; --residues 2 or --spill DIR may need less memory)"),
            "{after}"
        );
        let counting = explain(refused_by(RefusedBy::Counting), machine, &["--residues 1", "--spill DIR"]);
        assert!(counting.to_string().ends_with("(80% of the available memory)"), "{counting}");
        let other = Error::Invalid("x".into());
        assert_eq!(explain(other, None, &["--whole-group"]).to_string(), "x");
    }
}
