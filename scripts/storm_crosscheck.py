#!/usr/bin/env python3
"""Storm beside pegchain on the same chains, exactly: for each model, Storm's exact engine
(stormpy, `pip install stormpy`) and `pegchain chain` answer the same question from the same
DRN file; the script compares every initial state's value as a fraction and prints both
times and their ratio. Both times include reading the file: Storm's is measured inside one
Python process (no start-up), pegchain's is the whole command (process start-up included,
best of three runs). Models: Herman's self-stabilising ring from the PRISM benchmark
model (Storm builds it and exports the DRN), and chains pegchain exports (Chutes and
Ladders, the Knuth-Yao die, craps, the gambler's ruin, peg solitaire from every start of the
15-hole board, the dice race), which Storm reads back.

usage: storm_crosscheck.py [--storm-timeout SECONDS] [--herman N,N,...]
Exits 1 if any value differs."""
import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEGCHAIN = os.path.join(ROOT, "target", "release", "pegchain")


def herman_prism(n):
    lines = ["dtmc", "module process1", "  x1 : [0..1];",
             f"  [step]  (x1=x{n}) -> 0.5 : (x1'=0) + 0.5 : (x1'=1);",
             f"  [step] !(x1=x{n}) -> (x1'=x{n});", "endmodule"]
    lines += [f"module process{i} = process1 [ x1=x{i}, x{n}=x{i - 1} ] endmodule" for i in range(2, n + 1)]
    lines += ['rewards "steps"', "  true : 1;", "endrewards", "init true endinit"]
    tokens = "+".join(f"(x{i}=x{i % n + 1}?1:0)" for i in range(1, n + 1))
    lines += [f"formula num_tokens = {tokens};", 'label "stable" = num_tokens=1;']
    return "\n".join(lines) + "\n"


def storm_check(drn, formula, queue):
    import stormpy
    from stormpy.numbers.developer.gmp import Rational
    start = time.time()
    model = stormpy.build_model_from_drn[Rational](drn)
    prop = stormpy.parse_properties(formula)[0]
    result = stormpy.model_checking(model, prop)
    elapsed = time.time() - start
    queue.put((elapsed, [str(result.get_value(s)) for s in model.initial_states], list(model.initial_states)))


def storm(drn, formula, timeout):
    """Storm's exact values at the initial states and its time, or None past the timeout."""
    queue = multiprocessing.Queue()
    worker = multiprocessing.Process(target=storm_check, args=(drn, formula, queue))
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        worker.kill()
        return None
    return queue.get()


def pegchain(drn, args):
    """pegchain's answer and its best wall time of three runs (reading the file included)."""
    best = None
    for _ in range(3):
        start = time.time()
        out = subprocess.run([PEGCHAIN, "chain", drn, "--json", *args], check=True, capture_output=True, text=True)
        elapsed = time.time() - start
        best = elapsed if best is None else min(best, elapsed)
        if elapsed > 5:
            break
    return best, json.loads(out.stdout)


def fraction(v):
    return "inf" if v is None else v["fraction"]


def compare(name, drn, formula, args, key, timeout, rows):
    peg_time, doc = pegchain(drn, args)
    values = {row["state"]: fraction(row.get(key)) for row in doc["target"]["initial"]}
    result = storm(drn, formula, timeout)
    size = f"{doc['states']:,} / {doc['transitions']:,}"
    if result is None:
        rows.append((name, size, f"no answer in {timeout} s", f"{peg_time:.2f} s", f"> {timeout / peg_time:.0f}x", "-"))
        return True
    storm_time, storm_values, initial = result
    same = all(values[s] == v for s, v in zip(initial, storm_values))
    rows.append((name, size, f"{storm_time:.2f} s", f"{peg_time:.2f} s", f"{storm_time / peg_time:.1f}x",
                 "equal" if same else "DIFFERENT"))
    if not same:
        for s, v in zip(initial, storm_values):
            if values[s] != v:
                print(f"{name}: state {s}: Storm {v}, pegchain {values[s]}", file=sys.stderr)
                break
    return same


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--storm-timeout", type=float, default=60)
    parser.add_argument("--herman", default="3,5,7,9,11")
    opts = parser.parse_args()
    try:
        import stormpy  # noqa: F401
        from stormpy.numbers.developer.gmp import Rational  # noqa: F401
    except ImportError:
        print("storm_crosscheck: stormpy is not installed (pip install stormpy); nothing compared")
        return 0
    if not os.path.exists(PEGCHAIN):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    import stormpy
    import stormpy.io
    from stormpy.numbers.developer.gmp import Rational
    rows, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in opts.herman.split(",") if x]:
            pm = os.path.join(tmp, f"herman{n}.pm")
            with open(pm, "w") as f:
                f.write(herman_prism(n))
            program = stormpy.parse_prism_program(pm)
            props = stormpy.parse_properties('R{"steps"}=? [F "stable"]', program)
            drn = os.path.join(tmp, f"herman{n}.drn")
            stormpy.io.export_to_drn(stormpy.build_model[Rational](program, props), drn)
            ok &= compare(f"herman{n} (expected steps)", drn, 'R{"steps"}=? [F "stable"]',
                          ["--target", "stable", "--reward", "steps"], "expected_reward", opts.storm_timeout, rows)
        exports = [
            ("chutes and ladders (turns)", ["--game", "chutes-and-ladders"], 'R{"turns"}=? [F "finish"]',
             ["--target", "finish", "--reward", "turns"], "expected_reward"),
            ("knuth-yao (flips)", ["--game", "knuth-yao"], 'R{"flips"}=? [F "done"]',
             ["--target", "done", "--reward", "flips"], "expected_reward"),
            ("knuth-yao (P(six))", ["--game", "knuth-yao"], 'P=? [F "six"]', ["--target", "six"], "reach"),
            ("craps (P(win))", ["--game", "craps"], 'P=? [F "win"]', ["--target", "win"], "reach"),
            ("gambler's ruin 18/37 (P(win))", ["--game", "gamblers-ruin", "--p", "18/37", "--goal", "40", "--stake", "20"],
             'P=? [F "win"]', ["--target", "win"], "reach"),
            ("dice race (P(swine))", ["--race"], 'P=? [F "swine_wins"]', ["--target", "swine_wins"], "reach"),
        ]
        exports += [(f"triangle5 start {h} (P(one peg))", ["--board", "triangle5", "--start", h], 'P=? [F "one_peg"]',
                     ["--target", "one_peg"], "reach") for h in "ABDEM"]
        for i, (name, source, formula, args, key) in enumerate(exports):
            drn = os.path.join(tmp, f"export{i}.drn")
            subprocess.run([PEGCHAIN, "export", *source, "--drn", drn], check=True, capture_output=True)
            ok &= compare(name, drn, formula, args, key, opts.storm_timeout, rows)
    header = ("model", "states / transitions", "Storm exact", "pegchain", "Storm / pegchain", "values")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
