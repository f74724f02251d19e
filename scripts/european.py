#!/usr/bin/env python3
"""Every start class of the European board, exactly: the runs that take hours, one after another.

    python3 scripts/european.py [DIR]          # run what is not done yet, then print the table
    python3 scripts/european.py --table [DIR]  # print the table of what is done
    python3 scripts/european.py --plan FILE [--table] [DIR]  # another plan (lines: NAME FLAGS...)

Each class is one `pegchain exact` run with the flags of the plan below, saved after every
layer (`--checkpoint DIR/CLASS.ckpt`). Stop it at any moment (Ctrl-C; a SIGTERM to the
script, which passes it on to pegchain; the machine going away) and run the script again: a
finished class is skipped, the class under way goes on from its last save (`--resume`), and
the output is the same as an uninterrupted run's. A run by residues also keeps the state its
latest pass began from, DIR/CLASS.ckpt.pass: a few kilobytes where the save holds up to
gigabytes, so it can be carried to another machine (or kept in version control); a class
whose DIR holds that file alone goes on from the start of that pass. A class's
output is DIR/CLASS.json, written under another name and renamed only once the run succeeded.
Each session of a class (its wall time, its peak memory as the kernel measured it, its exit
status) is added to DIR/CLASS.runs, and the table gives their total time and highest peak (a
session run by hand before may be added as a line `SECONDS KILOBYTES STATUS`, `-` where it was
not measured; a session killed with no chance to record itself, found by the mark
DIR/CLASS.running it left, is added when the script next runs, as its time up to its last
save, status `killed`). After the table come each finished class's P(n pegs left) and P(last
peg in h), every probability rounded from its fraction.

The plan is for a machine of 24 GB (the one the README's figures come from): a budget of
19 GB lets a start fixed by one reflection run by two residues a pass (b2: 7 passes, 2.2 hours
in one session, a peak of 15.8 GB; d2, a little wider: 3.75 hours in three sessions, the same
peak); d3 ran by one (14 passes of 18-20 minutes alone, about 4.5
hours; 5.8 hours of sessions beside other work), begun before a step in rounds freed its
parents' numerators (a run goes on with the residues it began with, so a saved run keeps its own).
c3 is wider (448,577,836 positions with 19 pegs, against b2's widest layer of 382,266,493):
by two residues it was refused at the step to 18 pegs (20.4 GB projected), so it ran by one
(14 passes, 29-30 minutes each alone, a peak of 14.4 GB; 11 hours of sessions beside other work).
PEGCHAIN_MAX_MEMORY=GB changes that budget (a saved run may be resumed under another budget).
Every run is given `--spill DIR` (unless its line names another directory), so a wide step's
parents may wait on disk: c1, fixed by no symmetry, fits by one residue that way (its first pass:
3,520 s alone, a peak of 13.9 GB, on 2026-12-02; 14 passes, 12.28 hours of sessions, finished
2026-12-03). c2, fixed by no symmetry too, cannot end with one peg from any play (its position
class rules it out), so it has no finish holes and every figure it has may be reduced by the
whole group: it runs by `--whole-group`, whose count of its positions keeps two layers at a time
and is saved after every layer (1,136 s alone), then by two residues a pass over the whole
group's classes (the widest, 238,330,496 with 17 pegs, fits under 19 GB with --spill: 13.9 GB at
the widest steps of its first pass). It began on 2026-12-03 by one residue and was restarted by two
before its count ended; its last pass ran on 2026-12-05 on another machine, from its pass file
alone (1,191 s). The table marks a class that failed, and the script goes on with the next.
"""

import json
import math
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A class and the flags of its `exact` run, a line each, in the order they are run: first the
# classes from which one peg can be reached, then the centre's class (the most memory by big
# numbers, the fewest positions) and d1's, which falls into the centre's classes (its only
# first jump leads to the centre's first position) that the whole group finds.
PLAN = """
d3 --board european --start d3 --residues 1
d2 --board european --start d2 --residues 2
d4 --board european --start d4
d1 --board european --start d1 --whole-group
b2 --board european --start b2 --residues 2
c3 --board european --start c3 --residues 1
c1 --board european --start c1 --residues 1
c2 --board european --start c2 --whole-group --residues 2
"""


def parse_plan(text):
    """[(name, flags)] from lines `NAME FLAGS...` (blank lines and # comments skipped)."""
    lines = [line.split("#")[0].split() for line in text.splitlines()]
    return [(words[0], words[1:]) for words in lines if words]


def budget():
    return os.environ.get("PEGCHAIN_MAX_MEMORY", "19")


def pass_start(checkpoint):
    """Where pegchain keeps, beside `checkpoint`, the state its latest pass by residues began
    from: a few kilobytes, where the checkpoint holds up to gigabytes."""
    return checkpoint.with_name(checkpoint.name + ".pass")


def command(binary, flags, checkpoint):
    args = [str(binary), "exact", *flags, "--max-memory", budget(), "--json"]
    args += ["--checkpoint", str(checkpoint)]
    # A wide step's parents may wait on disk beside the saves (c1 needs it under 19 GB): the
    # file has no name, so nothing is left however the run ends, and nothing is written unless
    # the budget forces a step into rounds. A plan line that names its own --spill keeps it.
    if not any(f == "--spill" or f.startswith("--spill=") for f in flags):
        args += ["--spill", str(checkpoint.parent)]
    # The last save, else the start of the latest pass (carried alone from another machine).
    saved = next((s for s in (checkpoint, pass_start(checkpoint)) if s.exists()), None)
    if saved:
        args += ["--resume", str(saved)]
    return args


class Stopped(Exception):
    """An interrupt stopped the script in the run of a class (pegchain saved it first)."""


def finished(directory, name):
    """The output's start of a class whose run succeeded, else None."""
    out = directory / f"{name}.json"
    return json.loads(out.read_text())["starts"][0] if out.exists() else None


def record_lost_session(running, name, directory, checkpoint):
    """Records a session that ended with no chance to record itself (the script killed, the
    machine gone), found by the mark it left (`running`): its time up to its last save (what
    it kept; the checkpoint's time), peak unknown, status `killed`."""
    if not running.exists():
        return
    began = float(running.read_text())
    saved = checkpoint.stat().st_mtime if checkpoint.exists() else began
    with open(directory / f"{name}.runs", "a") as runs:
        runs.write(f"{max(saved - began, 0):.1f} - killed\n")
    running.unlink()


def wait_for_pegchain(args, partial, running, interrupted):
    """Runs pegchain with its output into `partial`, marking `running` while it runs; its wait
    status and resource usage. A SIGTERM sent to this script is passed on to it."""
    with open(partial, "wb") as stdout:
        try:
            child = subprocess.Popen(args, stdout=stdout)
        except OSError:
            partial.unlink()  # no run, no output under any name
            raise
        # Marked once pegchain runs: a binary that fails to start leaves no session behind.
        running.write_text(f"{time.time():.1f}\n")

        def terminate(*_):
            # A SIGTERM sent to this script alone: pegchain saves and stops on it too.
            interrupted.append(True)
            child.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, terminate)
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
    return status, usage


def run_class(binary, directory, name, flags):
    """Runs (or resumes) one class; True when its output is whole."""
    out = directory / f"{name}.json"
    if out.exists():
        return True
    partial = directory / f"{name}.json.partial"
    checkpoint = directory / f"{name}.ckpt"
    args = command(binary, flags, checkpoint)
    running = directory / f"{name}.running"
    record_lost_session(running, name, directory, checkpoint)
    print(f"{name}: {' '.join(args[1:])}", file=sys.stderr, flush=True)
    began = time.monotonic()
    interrupted = []

    def interrupt(*_):
        # A Ctrl-C reaches pegchain too: it saves and stops; wait for it. Recorded, not
        # raised: raised, it could come just after wait4 reaped pegchain and lose its status
        # (the next wait4 then finds no child).
        interrupted.append(True)

    # Started in the background, the script ignores SIGINT, and goes on ignoring it; the
    # handler it had comes back however this run ends.
    on_int = signal.getsignal(signal.SIGINT)
    if on_int is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, interrupt)
    try:
        status, usage = wait_for_pegchain(args, partial, running, interrupted)
    finally:
        signal.signal(signal.SIGINT, on_int)
    seconds = time.monotonic() - began
    code = os.waitstatus_to_exitcode(status)
    with open(directory / f"{name}.runs", "a") as runs:
        # ru_maxrss is in kilobytes on Linux.
        runs.write(f"{seconds:.1f} {usage.ru_maxrss} {code}\n")
    running.unlink()
    if code != 0:
        partial.unlink(missing_ok=True)
        # 130 and 143: pegchain stopped on SIGINT or SIGTERM and saved, even where this script
        # never saw the signal (started in the background, it ignores SIGINT).
        if interrupted or code in (130, 143):
            raise Stopped(name)
        print(f"{name}: pegchain stopped with status {code} (its message is above)", file=sys.stderr)
        return False
    partial.rename(out)
    checkpoint.unlink(missing_ok=True)
    pass_start(checkpoint).unlink(missing_ok=True)
    if interrupted:
        raise Stopped(name)
    return True


def significant(value, digits=6):
    """`value` (a Fraction, at least 0) to `digits` significant digits, rounded half up from the
    exact fraction, in the style of the tool's own (`render::number::significant_exact`): plain
    from 10^-4 to 10^(digits + 3), else scientific with its trailing zeros dropped."""
    if value == 0:
        return "0"
    # 10^exponent <= value < 10^(exponent + 1): the digits' difference, or one less.
    exponent = len(str(value.numerator)) - len(str(value.denominator))
    if Fraction(10) ** exponent > value:
        exponent -= 1
    rounded = math.floor(value * Fraction(10) ** (digits - 1 - exponent) + Fraction(1, 2))
    if rounded == 10**digits:
        rounded, exponent = rounded // 10, exponent + 1
    text = str(rounded)
    if not -4 <= exponent < digits + 3:
        tail = text[1:].rstrip("0")
        return f"{text[0]}{'.' if tail else ''}{tail}e{exponent}"
    if exponent < 0:
        return "0." + "0" * (-exponent - 1) + text
    if exponent + 1 >= len(text):
        return text + "0" * (exponent + 1 - len(text))
    return text[: exponent + 1] + "." + text[exponent + 1 :]


def table(plan, directory):
    rows = [
        "| class | start holes | P(one peg) | E[pegs left] | finish holes | positions | time | peak |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, _ in plan:
        runs = []
        if (directory / f"{name}.runs").exists():
            runs = [line.split() for line in (directory / f"{name}.runs").read_text().split("\n") if line]
        seconds = sum(float(r[0]) for r in runs)
        peak = max((int(r[1]) for r in runs if r[1].isdigit()), default=0) / 1e6
        start = finished(directory, name)
        if start is None:
            state = "not run" if not runs else f"not done: {len(runs)} session(s), last status {runs[-1][2]}"
            rows.append(f"| {name} | | {state} | | | | {seconds / 3600:.2f} h | {peak:.1f} GB |")
            continue
        win = Fraction(start["win"]["fraction"])
        pegs = Fraction(start["expected_pegs_left"]["fraction"])
        finish = " ".join(sorted(start["finish"])) or "none"
        raw = int(start["positions"]["raw"])
        rows.append(
            f"| {name} | {' '.join(start['holes'])} | {significant(win)} | {significant(pegs)} | {finish} "
            f"| {raw:,} | {seconds / 3600:.2f} h | {peak:.1f} GB |"
        )
    return "\n".join(rows)


def split_table(label, cells):
    """Markdown tables of `label` and (heading, value) cells, ten columns at most each."""
    tables = []
    for at in range(0, len(cells), 10):
        part = cells[at : at + 10]
        tables.append(
            "\n".join(
                [
                    f"| {label[0]} | " + " | ".join(h for h, _ in part) + " |",
                    "| --- |" + " --- |" * len(part),
                    f"| {label[1]} | " + " | ".join(v for _, v in part) + " |",
                ]
            )
        )
    return tables


def rounded(values):
    """(name, value) pairs of the JSON output, each value its fraction rounded."""
    return [(name, significant(Fraction(value["fraction"]))) for name, value in values]


def distributions(plan, directory):
    """For each finished class: its exact P(n pegs left) and P(last peg in h), rounded."""
    parts = []
    for name, _ in plan:
        start = finished(directory, name)
        if start is None:
            continue
        pegs = rounded(sorted(start["pegs_left"].items(), key=lambda item: int(item[0])))
        finish = rounded(start["finish"].items())  # in the board's reading order
        parts.append(f"{name} (from {start['start']}):")
        parts += split_table(("pegs left", "P"), pegs)
        parts += split_table(("last peg in", "P"), finish)
    return "\n\n".join(parts)


def main(argv):
    only_table = "--table" in argv
    rest = [a for a in argv if a != "--table"]
    plan = PLAN
    if "--plan" in rest[:-1]:
        at = rest.index("--plan")
        plan = Path(rest[at + 1]).read_text()
        rest = rest[:at] + rest[at + 2 :]
    if len(rest) > 1 or any(a.startswith("-") for a in rest):
        print("usage: european.py [--plan FILE] [--table] [DIR]", file=sys.stderr)
        return 2
    plan = parse_plan(plan)
    directory = Path(rest[0]) if rest else ROOT / "european-runs"
    if not only_table:
        binary = Path(os.environ.get("PEGCHAIN", ROOT / "target/release/pegchain"))
        if "PEGCHAIN" not in os.environ:
            subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        directory.mkdir(parents=True, exist_ok=True)
        try:
            failed = [name for name, flags in plan if not run_class(binary, directory, name, flags)]
        except Stopped as stopped:
            print(f"{stopped}: stopped and saved; run the script again to go on", file=sys.stderr)
            return 130
        if failed:
            print(f"not finished: {' '.join(failed)}", file=sys.stderr)
    print(table(plan, directory))
    shown = distributions(plan, directory)
    if shown:
        print("\n" + shown)
    return 1 if not only_table and failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"european.py: {error}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("european.py: interrupted", file=sys.stderr)
        sys.exit(130)
