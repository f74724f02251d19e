//! `--spill DIR`: a step taken in rounds keeps its parents on disk while their children are
//! summed, and sums them in parts where they do not fit at once. The same bytes out as a run
//! without a budget, under budgets that the run without the spill directory refuses; nothing
//! left in the directory; bad directories refused.

mod support;

use support::{fails_with, pegchain, scratch, stdout_bytes};

/// The run's output, and whether the same run without `--spill` is refused for memory.
fn spilled_and_refused_without(args: &[&str], dir: &str) -> (Vec<u8>, bool) {
    let spilled = stdout_bytes(&[args, &["--spill", dir]].concat());
    let without = pegchain().args(args).output().unwrap();
    let refused = String::from_utf8_lossy(&without.stderr).contains("too large for the exact engine");
    (spilled, !without.status.success() && refused)
}

#[test]
fn parents_on_disk_give_the_same_bytes_under_budgets_refused_without_them() {
    let dir = scratch("spill");
    let spill = dir.to_str().unwrap();
    // The stabilizer method, which --spill serves (the whole group, chosen as the faster on
    // triangle6 where nothing is spilled, fits these budgets without it).
    let exact = ["exact", "--board", "triangle6", "--start", "all", "--json", "-q", "--stabilizer"];
    let whole = stdout_bytes(&exact);
    // Big numbers in 6 MB, one residue a pass in 4 MB (its shares made in place), and in 2
    // MB, where the widest steps also sum their children in parts (refused before parts:
    // the step to 11 pegs of B, 2.18 MB projected).
    let budgets = [
        &["--max-memory", "0.006"][..],
        &["--max-memory", "0.004", "--residues", "1"],
        &["--max-memory", "0.002", "--residues", "1"],
    ];
    for extra in budgets {
        let (spilled, refused) = spilled_and_refused_without(&[&exact[..], extra].concat(), spill);
        assert!(spilled == whole, "{extra:?}");
        assert!(refused, "{extra:?} fits without --spill: the test no longer shows it");
    }
    // Path counts, which carry no shares but the counts themselves.
    let count = ["count", "--board", "triangle6", "--start", "all", "--json", "-q"];
    let spilled = stdout_bytes(&[&count[..], &["--max-memory", "0.006", "--spill", spill]].concat());
    assert!(spilled == stdout_bytes(&count));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "the spilled files have no name");
}

#[test]
fn a_spill_directory_that_cannot_take_a_file_is_refused_before_the_run() {
    let dir = scratch("spill-refused");
    let exact = ["exact", "--board", "triangle5", "--start", "A", "--spill"];
    let missing = dir.join("missing");
    fails_with(&[&exact[..], &[missing.to_str().unwrap()]].concat(), "No such file or directory");
    let file = dir.join("file");
    std::fs::write(&file, "a file").unwrap();
    fails_with(&[&exact[..], &[file.to_str().unwrap()]].concat(), "not a directory");
    fails_with(&[&exact[..], &["/proc"]].concat(), "no new file can be made in /proc");
    assert_eq!(std::fs::read(&file).unwrap(), b"a file");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}
