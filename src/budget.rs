//! The exact engine's memory budget, from every limit the process is really held to.
//!
//! Free memory alone is not enough: a process under `ulimit -v` (RLIMIT_AS) or in a container
//! (a cgroup memory limit) is stopped long before the machine runs out, and the engine would
//! abort mid-step instead of refusing up front. The budget is the smallest of the readings,
//! each but the user's own request less a headroom (allocator slack, thread stacks, the
//! binary itself). The readings are taken by the caller and passed in, so the arithmetic is
//! tested without the machine's limits.

/// The share of a limit the engine may plan to use, in percent.
pub const HEADROOM_PERCENT: u64 = 80;

/// What the process may use, in bytes; None where there is no limit or no reading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Memory available on the machine (MemAvailable).
    pub available: Option<u64>,
    /// The address space left under its limit (RLIMIT_AS, less what the process maps).
    pub address_space: Option<u64>,
    /// The cgroup's memory limit.
    pub cgroup: Option<u64>,
    /// The user's own budget, taken as given (no headroom).
    pub requested: Option<u64>,
}

/// Where a budget came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Available,
    AddressSpace,
    Cgroup,
    Requested,
}

impl Source {
    /// The source in words, for a refusal.
    pub fn words(self) -> &'static str {
        match self {
            Source::Available => "of the available memory",
            Source::AddressSpace => "of the address space its limit leaves",
            Source::Cgroup => "of the cgroup's memory limit",
            Source::Requested => "as asked",
        }
    }
}

/// A memory budget and the limit it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub bytes: u64,
    pub source: Source,
}

impl Limits {
    /// The smallest of the limits (each but the request less the headroom); None when there
    /// is no reading at all.
    pub fn budget(&self) -> Option<Budget> {
        let share = |b: u64| (b as u128 * HEADROOM_PERCENT as u128 / 100) as u64;
        [
            self.requested.map(|b| (b, Source::Requested)),
            self.available.map(|b| (share(b), Source::Available)),
            self.address_space.map(|b| (share(b), Source::AddressSpace)),
            self.cgroup.map(|b| (share(b), Source::Cgroup)),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|&(bytes, _)| bytes)
        .map(|(bytes, source)| Budget { bytes, source })
    }
}

/// MemAvailable from the text of /proc/meminfo, in bytes.
pub fn meminfo_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// A cgroup memory limit from the text of its file (v2 `memory.max`, v1
/// `memory.limit_in_bytes`): "max" means none, and so does v1's "no limit" (a number near
/// 2^63, rounded down to a page).
pub fn cgroup_limit(text: &str) -> Option<u64> {
    let bytes: u64 = text.trim().parse().ok()?;
    (bytes < 1 << 62).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GB: u64 = 1_000_000_000;

    #[test]
    fn the_budget_is_the_smallest_limit_less_its_headroom() {
        let limits =
            Limits { available: Some(10 * GB), address_space: Some(4 * GB), cgroup: None, requested: None };
        assert_eq!(limits.budget(), Some(Budget { bytes: 3_200_000_000, source: Source::AddressSpace }));
        let limits = Limits { cgroup: Some(2 * GB), ..limits };
        assert_eq!(limits.budget(), Some(Budget { bytes: 1_600_000_000, source: Source::Cgroup }));
        let only_free = Limits { available: Some(5 * GB), ..Limits::default() };
        assert_eq!(only_free.budget(), Some(Budget { bytes: 4 * GB, source: Source::Available }));
        assert_eq!(Limits::default().budget(), None);
    }

    #[test]
    fn a_request_is_taken_as_given_but_never_above_the_real_limits() {
        let machine = Limits { available: Some(10 * GB), ..Limits::default() };
        let asked = |gb| Limits { requested: Some(gb * GB), ..machine }.budget().unwrap();
        assert_eq!(asked(3), Budget { bytes: 3 * GB, source: Source::Requested });
        // More than the machine has: the machine's limit wins.
        assert_eq!(asked(100), Budget { bytes: 8 * GB, source: Source::Available });
        let rlimit = Limits { address_space: Some(400_000_000), requested: Some(3 * GB), ..machine };
        assert_eq!(rlimit.budget(), Some(Budget { bytes: 320_000_000, source: Source::AddressSpace }));
    }

    #[test]
    fn huge_limits_do_not_overflow() {
        let limits = Limits { address_space: Some(u64::MAX), ..Limits::default() };
        assert_eq!(limits.budget().unwrap().bytes, (u64::MAX as u128 * 80 / 100) as u64);
    }

    #[test]
    fn readings_from_proc_and_the_cgroup_files() {
        let meminfo = "MemTotal:       16000000 kB\nMemFree:         1000 kB\nMemAvailable:    8000000 kB\n";
        assert_eq!(meminfo_available(meminfo), Some(8_192_000_000));
        assert_eq!(meminfo_available("MemTotal: 1 kB\n"), None);
        assert_eq!(cgroup_limit("max\n"), None);
        assert_eq!(cgroup_limit("536870912\n"), Some(536_870_912));
        assert_eq!(cgroup_limit("9223372036854771712\n"), None, "cgroup v1's 'no limit'");
        assert_eq!(cgroup_limit(""), None);
    }
}
