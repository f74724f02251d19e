#!/usr/bin/env python3
"""Check that a new pegchain binary prints every exact figure the old one did.

Usage: python3 scripts/compare_outputs.py OLD_BIN NEW_BIN [--quick]

Runs a fixed list of pegchain commands with both binaries (each with --json,
from the repository root) and compares the *exact values* in the output,
whatever keys they sit under, since key names and layout are free to change.

Exact values are strings that look like a fraction (-?\\d+/\\d+) or an integer
(-?\\d+), and JSON integers; a JSON integer 568630 and the string "568630"
count as the same value. Integers with absolute value < 100 are dropped (class
numbers, peg and hole counts, degrees of freedom: too common to mean anything);
fractions are always kept. Floats are ignored because decimals are allowed to
change (they are being made correctly rounded), and booleans are ignored too.
Dict keys are not values.

The check: each old value must occur in the new output at least as many times
(new output may add values). Exits 1 if any command differs or fails.
"""
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

QUICK = [
    "exact --board triangle5",
    "exact --board triangle5 --policy peg-first",
    "exact --board triangle5 --policy hole-first",
    "exact --board triangle6",
    "count --board triangle5",
    "count --board triangle6 --start A",
    "ends --board triangle5",
    "ends --board triangle6",
    "simulate --games 200000 --start A",
    "simulate --games 200000",
    "simulate --per-class 50000",
    "simulate --games 50000 --start all",
    "audit --games 400000",
    "race",
    "race --length 20 --swine 10 --butcher 2",
    "race --grid",
    "race --lengths 8..24",
    "race --rules data/race/distracted-butcher.json",
    "race --simulate 100000 --seed 4",
    "solve --board triangle5 --start A --all",
    "solve --board triangle5 --start A --finish A --distinct",
    "solve --board triangle5 --start E --limit 3",
]
SLOW = [
    "exact --board triangle7 --start A",
    "count --board english --start d4",
    "exact --board english --start d4",
]
ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 300
EXACT = re.compile(r"-?\d+(?:/\d+)?")


def keep(token):
    """Normalized exact value, or None if it is not worth comparing."""
    if "/" in token:
        return token
    n = int(token)
    return str(n) if abs(n) >= 100 else None


def walk(node, out):
    if isinstance(node, dict):
        for v in node.values():
            walk(v, out)
    elif isinstance(node, list):
        for v in node:
            walk(v, out)
    elif isinstance(node, bool) or isinstance(node, float):
        pass
    elif isinstance(node, int):
        out.append(keep(str(node)))
    elif isinstance(node, str) and EXACT.fullmatch(node):
        out.append(keep(node))


def exact_values(text):
    """Multiset of exact values in one or more concatenated JSON documents,
    or in plain text (regex tokens) if the output is not JSON."""
    decoder, found, i = json.JSONDecoder(), [], 0
    try:
        while True:
            while i < len(text) and text[i].isspace():
                i += 1
            if i >= len(text):
                break
            doc, i = decoder.raw_decode(text, i)
            walk(doc, found)
    except json.JSONDecodeError:
        found = [keep(t) for t in EXACT.findall(text)]
    return Counter(v for v in found if v is not None)


def run(binary, command):
    """(values, None) on success, (None, first stderr line) on failure."""
    try:
        p = subprocess.run([binary, *command.split(), "--json"], cwd=ROOT,
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT} s"
    except OSError as e:
        return None, str(e)
    if p.returncode != 0:
        lines = p.stderr.strip().splitlines()
        return None, lines[0] if lines else f"exit status {p.returncode}"
    return exact_values(p.stdout), None


def main():
    args = sys.argv[1:]
    quick = "--quick" in args
    args = [a for a in args if a != "--quick"]
    if len(args) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    # Binaries given as paths must survive the change of directory to ROOT.
    old_bin, new_bin = (str(Path(a).resolve()) if "/" in a else a for a in args)
    commands = QUICK if quick else QUICK + SLOW
    differ = 0
    for command in commands:
        old, err = run(old_bin, command)
        new, err_new = run(new_bin, command) if err is None else (None, None)
        err = err or err_new
        if err is not None:
            print(f"FAIL {command}: {err}", flush=True)
            differ += 1
            continue
        missing = old - new
        if missing:
            shown = " ".join(sorted(missing)[:5])
            print(f"DIFF {command}: missing {shown}", flush=True)
            differ += 1
        else:
            print(f"ok   {command}", flush=True)
    print(f"{len(commands)} commands, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
