//! The memory budget comes from the process's real limits: under an address-space limit
//! (`ulimit -v`) a board too big for it is refused with one line, never aborted mid-step.

mod support;

use std::process::{Command, Output};

/// `pegchain ARGS` with its address space held to `bytes` (RLIMIT_AS, as `ulimit -v` sets).
fn under_address_limit(bytes: u64, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pegchain"));
    support::limit_address_space(command.args(args), bytes);
    command.output().unwrap()
}

#[test]
fn an_address_space_limit_is_a_refusal_in_one_line_not_an_abort() {
    // triangle8 from its tip needs about half a gigabyte; before, this aborted with
    // "memory allocation of 1048576 bytes failed" and a backtrace.
    let out = under_address_limit(400_000_000, &["exact", "--board", "triangle8", "--start", "A"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The way out is named: the flags not given that may need less memory.
    let words = " MB (80% of the address space its limit leaves; --whole-group, --residues 2 or --spill DIR may need less memory)";
    assert!(stderr.contains(words), "{stderr}");
    // 80% of the 400 MB less what the process maps already (about 20 MB).
    assert!((290.0..320.0).contains(&budget_mb(&stderr)), "{stderr}");
    assert!(!stderr.contains("memory allocation of"), "{stderr}");
}

/// The coach under an address-space limit its answer does not fit: the English board from the
/// centre (a future of 23.5 million positions, about 1.4 GB at its peak) under 1 GB was
/// aborted ("memory allocation of 557056 bytes failed"); it is refused in one line.
#[test]
fn the_coach_under_an_address_space_limit_is_a_refusal_not_an_abort() {
    let out =
        under_address_limit(1_000_000_000, &["coach", "--board", "english", "--start", "d4", "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.starts_with("pegchain: this position's future holds more than "), "{stderr}");
    assert!(
        stderr.ends_with(" MB (exact --position answers for one position)\n") && stderr.lines().count() == 1,
        "{stderr}"
    );
    // 80% of the 1 GB less what the process maps already, at 72 bytes a position.
    let budget = budget_mb(&stderr);
    assert!((770.0..800.0).contains(&budget), "{stderr}");
    let positions: f64 = stderr["pegchain: this position's future holds more than ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.replace(',', "").parse().ok())
        .expect("a number of positions");
    assert!((positions * 72e-6 - budget).abs() < 1.0, "{stderr}");
    // Where it fits, it answers.
    let out =
        under_address_limit(1_000_000_000, &["coach", "--board", "triangle6", "--start", "A", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Limits at which glibc's per-thread arenas (64 MB of address space each, taken where the
/// limit left room) ate the room the budget counted on: triangle7 from its tip aborted under
/// 146-150 MB ("memory allocation of 4161824 bytes failed", exit 134) and the coach under
/// 150-170 MB, where the limits beside them were refused in one line. Under an address-space
/// limit the process now keeps to one arena. And limits at which what the process maps before
/// it starts (about 18 MB) was counted as room: the coach from triangle7's tip aborted under
/// 42-50 MB ("memory allocation of 966656 bytes failed"); the budget is now a share of what is
/// left.
#[test]
fn limits_where_the_arenas_took_the_room_are_refusals_not_aborts() {
    for (kb, args) in [
        (146_000u64, &["exact", "--board", "triangle7", "--start", "A", "-q"][..]),
        (150_000, &["exact", "--board", "triangle7", "--start", "A", "-q"]),
        (150_000, &["coach", "--board", "triangle7", "--start", "A", "-q"]),
        (165_000, &["coach", "--board", "triangle7", "--start", "A", "-q"]),
        (42_000, &["coach", "--board", "triangle7", "--start", "A", "-q"]),
        (46_000, &["coach", "--board", "triangle7", "--start", "A", "-q"]),
        (50_000, &["coach", "--board", "triangle7", "--start", "A", "-q"]),
    ] {
        let out = under_address_limit(kb * 1024, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{kb} KiB, {args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("memory budget"), "{stderr}");
    }
}

/// A run by two residues a pass refused for memory names one a pass, which needs less: on the
/// English centre the step to 19 pegs is projected at 69.8 MB by two, 56.4 MB by one.
#[test]
fn a_run_by_residues_refused_for_memory_names_fewer_residues() {
    let args = ["exact", "--board", "english", "--start", "d4", "--max-memory", "0.06", "--quiet"];
    let by = |residues: &str| {
        let out = support::pegchain().args(args).args(["--residues", residues]).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, stderr) = by("2");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("projected to need 69.8 MB, over the memory budget of 60.0 MB"), "{stderr}");
    assert!(
        stderr.ends_with("(raise it with --max-memory GB if the machine has the memory; --residues 1 or --spill DIR may need less memory)\n"),
        "{stderr}"
    );
    // By one residue that step fits; the run is refused one step later.
    let (code, stderr) = by("1");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("the step to the layer with 18 pegs of start d4, pass 1"), "{stderr}");
}

/// The passes of --whole-group name their own way out: the pass that keeps every layer of
/// classes, the engine's two; the count of a start that cannot end with one peg, none but more
/// memory (neither residues nor a disk change it).
#[test]
fn a_pass_of_the_whole_group_refused_for_memory_names_its_own_way_out() {
    let refused = |args: &[&str]| {
        let out = support::pegchain().args(args).args(["--whole-group", "--quiet"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(out.stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        stderr
    };
    let kept = refused(&["exact", "--board", "triangle6", "--start", "all", "--max-memory", "0.001"]);
    assert!(kept.contains("over the memory budget of 1.00 MB"), "{kept}");
    assert!(
        kept.ends_with("(raise it with --max-memory GB if the machine has the memory; leaving out --whole-group may need less memory)\n"),
        "{kept}"
    );
    // Triangle7's corner cannot end with one peg; by residues its positions are counted.
    let counted =
        ["exact", "--board", "triangle7", "--start", "A", "--residues", "1", "--max-memory", "0.001"];
    let counted = refused(&counted);
    assert!(
        counted.ends_with("(raise it with --max-memory GB if the machine has the memory)\n"),
        "{counted}"
    );
}

#[test]
fn a_requested_budget_never_exceeds_the_address_space_limit() {
    let args = ["exact", "--board", "triangle8", "--start", "A", "--max-memory", "100"];
    let out = under_address_limit(400_000_000, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("(80% of the address space its limit leaves;"), "{stderr}");
}

/// Where a chain ends was solved for every state and every absorbing state (a fraction each):
/// one state fanning out to 30,000 absorbing ones aborted under 4 GB ("GNU MP: Cannot
/// allocate memory"), as did triangle6's chain from a corner, exported (755 absorbing
/// states). It is solved once for the initial states, and answers under 300 MB.
#[test]
fn where_a_chain_of_many_ends_ends_is_answered_in_little_memory() {
    let ends = 30_000;
    let mut text = format!("@type: DTMC\n@nr_states\n{}\n@model\nstate 0 init\n\taction 0\n", ends + 1);
    for s in 1..=ends {
        text += &format!("\t\t{s} : 1/{ends}\n");
    }
    for s in 1..=ends {
        text += &format!("state {s}\n\taction 0\n\t\t{s} : 1\n");
    }
    let model = written("limits-fan", "fan.drn", &text);
    let out = under_address_limit(300_000_000, &["chain", &model, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed = v["ends"].as_array().unwrap();
    assert_eq!(listed.len(), ends);
    assert!(listed.iter().all(|e| e["probability"]["fraction"] == "1/30000"), "{}", listed[0]);
}

/// The memory budget a refusal names, in MB.
fn budget_mb(stderr: &str) -> f64 {
    let (_, after) = stderr.split_once("memory budget of ").expect("a budget named");
    let (number, unit) = after.split_once(' ').expect("a number and its unit");
    assert!(unit.starts_with("MB"), "{stderr}");
    number.parse().expect("a number")
}

#[test]
fn a_board_that_fits_the_limit_is_answered() {
    let out = under_address_limit(400_000_000, &["exact", "--board", "triangle5", "--start", "A"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The path of a file `name` holding `text`, in a scratch folder of its own.
fn written(folder: &str, name: &str, text: &str) -> String {
    let path = support::scratch(folder).join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// A one-line refusal of `pegchain ARGS` under an address-space limit of `bytes`.
fn refused_under(bytes: u64, args: &[&str], words: &str) {
    let out = under_address_limit(bytes, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(words), "{stderr}");
}

/// A cycle's component of 17,496 states (three players on a 20-square board with a chute)
/// needs a 2.45 GB matrix: under a 2 GB limit that aborted with "memory allocation of
/// 2448880128 bytes failed" and a backtrace; it is planned before any solving.
#[test]
fn a_component_too_large_for_the_address_space_is_refused_not_aborted() {
    let rules = written("limits-component", "chute.txt", "squares 20\nspinner 1-6\nchute 19 1\n");
    let rules = rules.as_str();
    refused_under(
        2_000_000_000,
        &["game", "board", "--rules", rules, "--players", "3"],
        "too large to solve exactly in this memory: 17,496 states all reach one another (one strongly \
         connected component), whose factorization needs 2.45 GB, over the memory budget of ",
    );
}

/// The distribution of steps holds numbers that grow with every step (memory as the square of
/// the steps): 25,000 steps of a four-state cycle under a 300 MB limit aborted in GMP
/// ("Cannot allocate memory"); they are refused, projected from the first steps, and
/// 10,000 steps (about 150 MB with their JSON) are answered.
#[test]
fn a_distribution_of_steps_past_the_budget_is_refused_early() {
    let model =
        written("limits-steps", "cycle.tra", "4 6\n0 1 1/2\n0 2 1/2\n1 3 1\n3 1 1\n2 2 1/3\n2 0 2/3\n");
    let model = model.as_str();
    let asked = |steps: &str| {
        ["chain", model, "--target-states", "3", "--distribution", steps, "--json"].map(str::to_string)
    };
    for steps in ["25000", "1000000"] {
        let args = asked(steps);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_under(
            300_000_000,
            &args,
            &format!(
                "the distribution of {} steps does not fit the memory budget of ",
                if steps == "25000" { "25,000" } else { "1,000,000" }
            ),
        );
        // 80% of the 300 MB less what the process maps already.
        let stderr = String::from_utf8_lossy(&under_address_limit(300_000_000, &args).stderr).into_owned();
        assert!((220.0..240.0).contains(&budget_mb(&stderr)), "{stderr}");
    }
    let args = asked("10000");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = under_address_limit(300_000_000, &args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let steps = &v["target"]["distribution"]["steps"];
    assert_eq!(steps.as_array().unwrap().len(), 10_001);
    // P(T = 2): the walk goes 0 -> 1 -> 3 with probability 1/2.
    assert_eq!(steps[2]["probability"]["fraction"], "1/2");
}

/// The output of `pegchain ARGS` and the most memory it held at once (its peak resident
/// set, as the kernel counts it for the process alone).
#[allow(clippy::zombie_processes, reason = "reaped by wait4, which also gives its peak")]
fn output_and_peak(args: &[&str]) -> (Vec<u8>, u64) {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pegchain"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: waits for this test's own child, writing into the two locals.
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as libc::pid_t);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{args:?}: status {status}");
    (out, usage.ru_maxrss as u64 * 1024)
}

/// A budget the user sets holds the whole process, not only what the engine projects: the
/// English centre by three residues a pass, its parents on disk, under 300 MB peaked at
/// 361-398 MB (the memory glibc kept for reuse beside fresh blocks, and the children held
/// twice while filed into their bucket) and now stays under it, with the big-number run's
/// bytes.
#[test]
#[ignore = "the English board four times: about two minutes"]
fn a_requested_budget_holds_the_peak_of_the_process() {
    let spill = support::scratch("limits-peak");
    let exact = ["exact", "--board", "english", "--start", "d4", "--json", "-q"];
    let budget = 300_000_000;
    let (out, peak) = output_and_peak(
        &[&exact[..], &["--residues", "3", "--max-memory", "0.3", "--spill", spill.to_str().unwrap()]]
            .concat(),
    );
    assert!(peak <= budget, "peak {peak} bytes over the budget of {budget}");
    let (whole, whole_peak) = output_and_peak(&exact);
    assert!(out == whole, "not the big-number run's bytes");
    assert!(
        whole_peak > 2 * budget,
        "the run without a budget peaked at {whole_peak}: the test shows nothing"
    );
}

/// Random play on a board of up to 21 holes builds a table of every position's jumps (about
/// 90 MB for the 21-hole triangle) to save time; where the address space does not spare it,
/// the games are played without it, the same games. Before, its allocation aborted the run
/// ("memory allocation of 16777216 bytes failed", a backtrace, exit 134) under 200 MB.
#[test]
fn a_simulation_short_of_address_space_plays_without_its_table() {
    let args = ["simulate", "--board", "triangle6", "--games", "20000", "--no-exact", "-q"];
    let out = under_address_limit(200_000_000, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(out.stdout, support::stdout_bytes(&args));
}

/// A file of gigabytes given to `--resume` by a slip is refused by its first line, unread:
/// it used to be read whole into memory first (here, up to the limit: "the checkpoint big:
/// cannot read it: out of memory" after 2 GB and 7 s of reading; with no limit, as much
/// memory as the file held).
#[test]
fn a_huge_file_that_is_no_checkpoint_is_refused_unread() {
    let dir = support::scratch("resume-huge-file");
    let big = dir.join("big");
    // Sparse: 8 GiB of zeros that take no room on the disk.
    std::fs::File::create(&big).unwrap().set_len(8 << 30).unwrap();
    for command in ["exact", "simulate", "solve"] {
        let args = [command, "--board", "triangle5", "--start", "A", "--resume", big.to_str().unwrap()];
        let out = under_address_limit(1_000_000_000, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        let words = format!("{} is not a pegchain {command} checkpoint", big.display());
        assert!(stderr.contains(&words), "{stderr}");
    }
    let _ = std::fs::remove_file(&big);
}

/// Herman's ring of 13 processes (1.59 million transitions) is planned before it is built:
/// under 250 MB of address space its building aborted ("memory allocation of 33554432 bytes
/// failed", a backtrace, exit 134); it is refused in one line, and no file is written.
#[test]
fn a_ring_planned_past_the_budget_is_refused_before_it_is_built() {
    let dir = support::scratch("limits-herman");
    let drn = dir.join("ring.drn");
    for args in [
        &["game", "herman", "--processes", "13"][..],
        &["export", "--game", "herman", "--processes", "13", "--drn", drn.to_str().unwrap()],
    ] {
        let out = under_address_limit(250_000_000, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        let words = "Herman's ring of 13 processes: a chain of 8,192 states and 1,594,298 transitions is projected to need 256 MB, over the memory budget of ";
        assert!(stderr.contains(words), "{stderr}");
        // 80% of the 250 MB less what the process maps already.
        assert!((180.0..200.0).contains(&budget_mb(&stderr)), "{stderr}");
    }
    assert!(!drn.exists());
}

/// Exit 2 and one line naming the memory budget, for `pegchain ARGS` under each address-space
/// limit of `mbs` (MiB, as `ulimit -v` counts them): never an abort (exit 134).
fn refused_at_each(mbs: &[u64], args: &[&str]) -> Vec<String> {
    mbs.iter()
        .map(|mb| {
            let out = under_address_limit(mb << 20, args);
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            assert_eq!(out.status.code(), Some(2), "{mb} MB, {args:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{mb} MB");
            assert_eq!(stderr.lines().count(), 1, "{mb} MB: {stderr}");
            assert!(stderr.contains("memory budget of "), "{mb} MB: {stderr}");
            stderr
        })
        .collect()
}

/// Triangle6's chain from a corner, exported to DRN (146,435 states, 930,179 transitions),
/// aborted `chain` under 64-240 MB ("memory allocation of 320 bytes failed", "GNU MP: Cannot
/// allocate memory", exit 134): a DRN file was planned by its states alone, and answering it
/// (253 MB at its peak) not at all. Its transitions are counted before it is read, and its
/// answer planned before any solving.
#[test]
fn an_exported_chain_too_large_to_answer_is_refused_not_aborted() {
    let dir = support::scratch("limits-exported-chain");
    let drn = dir.join("t6.drn");
    let drn = drn.to_str().unwrap();
    let out = support::pegchain()
        .args(["export", "--board", "triangle6", "--start", "A", "--drn", drn])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = refused_at_each(&[48, 64, 100, 160, 200, 240], &["chain", drn, "-q"]);
    let read =
        "a chain of 146,435 states and 930,179 transitions is projected to need 175 MB with the file's text";
    assert!(said[0].contains(read), "{}", said[0]);
    let answered = "answering a chain of 146,435 states and 930,179 transitions is projected to need 247 MB";
    assert!(said[5].contains(answered), "{}", said[5]);
    let target = ["chain", drn, "--target", "one_peg", "--distribution", "20", "-q"];
    let said = refused_at_each(&[64, 160, 240], &target);
    assert!(said[2].contains(answered), "{}", said[2]);
    // Where it fits, it answers.
    let out = under_address_limit(320 << 20, &target);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `export --board triangle6 --start A` had no memory budget: under 32-160 MB it aborted
/// (exit 134) as it explored. The chain is projected as it is explored (the positions found
/// and the transitions of those expanded) and refused as soon as it passes the budget; no
/// file is written.
#[test]
fn an_export_past_the_budget_is_refused_as_it_is_explored() {
    let dir = support::scratch("limits-export");
    let drn = dir.join("t6.drn");
    let args = ["export", "--board", "triangle6", "--start", "A", "--drn", drn.to_str().unwrap()];
    for said in refused_at_each(&[32, 48, 64, 100, 160], &args) {
        assert!(said.starts_with("pegchain: random play from this start reaches more than "), "{said}");
        assert!(said.contains(" transitions, projected to need more than the memory budget of "), "{said}");
    }
    assert!(!drn.exists());
    let out = under_address_limit(240 << 20, &args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(drn.exists());
}

/// Chutes and Ladders for two (one component of 11,552 states, a factorization of 1.07 GB)
/// aborted under 32-46 MB ("memory allocation of 277248 bytes failed": the component's rows,
/// made before its matrix was asked for), and the race's grid of length 200 under 32-34 MB
/// ("GNU MP: Cannot allocate memory"). Both are planned before any solving.
#[test]
fn small_address_spaces_are_refusals_before_any_solving() {
    let chutes = refused_at_each(&[32, 36, 40, 46, 48], &["game", "chutes-and-ladders", "--players", "2"]);
    for said in chutes {
        let words = "11,552 states all reach one another (one strongly connected component), whose factorization needs 1.07 GB, over the memory budget of ";
        assert!(said.contains(words), "{said}");
    }
    for said in refused_at_each(&[32, 34, 40], &["race", "--grid", "--length", "200", "-q"]) {
        assert!(
            said.contains(
                "the grid of a board of length 200 is projected to need 28.0 MB, over the memory budget of "
            ),
            "{said}"
        );
    }
}

/// `solve` held no budget: under `ulimit -v` its tables grew until an allocation failed, and
/// the process aborted ("memory allocation of 37748752 bytes failed", a backtrace, exit 134;
/// found by an audit). Its tables now grow fallibly: a breadth-first sweep stops before it
/// lists anything, and a depth-first search ends its document, which says so, then the line.
#[test]
fn a_search_short_of_memory_stops_in_one_line_not_an_abort() {
    let bfs =
        under_address_limit(100 << 20, &["solve", "--board", "english", "--start", "d4", "--method", "bfs"]);
    let stderr = String::from_utf8_lossy(&bfs.stderr);
    assert_eq!(bfs.status.code(), Some(2), "{stderr}");
    assert!(bfs.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr
            .starts_with("pegchain: the search ran out of memory: the system refused it room for more than ")
    );
    assert!(stderr.ends_with(" positions; --method dfs (the default) holds far fewer\n"), "{stderr}");

    let args = ["solve", "--board", "english", "--start", "d4", "--finish", "d1", "--all", "--json"];
    let dfs = under_address_limit(60 << 20, &args);
    let stderr = String::from_utf8_lossy(&dfs.stderr);
    assert_eq!(dfs.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.ends_with(" positions known to fail\n"), "{stderr}");
    let document: serde_json::Value = serde_json::from_slice(&dfs.stdout).expect("one valid JSON document");
    assert_eq!(document["complete"], false);
    assert_eq!(document["out_of_memory"], true);
}
