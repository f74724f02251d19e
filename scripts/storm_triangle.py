#!/usr/bin/env python3
"""Storm's exact engine on the same question, for the benchmark: a PRISM model of random play
on a triangle board (one boolean per hole, one command per jump; a DTMC picks uniformly among
the enabled commands), checked exactly with stormpy. Prints the time, the peak memory and the
win probability of every start as a fraction, so the figures can be compared with pegchain's.

usage: storm_triangle.py ROWS [START_INDEX]   (all starts unless START_INDEX is given)
"""
import resource
import sys
import tempfile
import time


def jumps(rows):
    index = lambda r, c: r * (r + 1) // 2 + c
    out = []
    for r in range(rows):
        for c in range(r + 1):
            for dr, dc in ((0, 1), (1, 0), (1, 1)):
                if r + 2 * dr < rows and c + 2 * dc <= r + 2 * dr:
                    a, b, z = index(r, c), index(r + dr, c + dc), index(r + 2 * dr, c + 2 * dc)
                    out += [(a, b, z), (z, b, a)]
    return out


def prism(rows, starts):
    holes = rows * (rows + 1) // 2
    lines = ["dtmc", "", "module board"]
    lines += [f"  p{h} : bool;" for h in range(holes)]
    for a, b, z in jumps(rows):
        lines.append(f"  [] p{a} & p{b} & !p{z} -> (p{a}'=false) & (p{b}'=false) & (p{z}'=true);")
    lines.append("endmodule")
    # Several starts: the initial states are the full board less one of the start holes.
    one_empty = " | ".join(
        "(" + " & ".join(("!" if h == s else "") + f"p{h}" for h in range(holes)) + ")" for s in starts
    )
    lines += ["", f"init {one_empty} endinit", ""]
    lines.append("formula pegs = " + " + ".join(f"(p{h}?1:0)" for h in range(holes)) + ";")
    lines.append('label "win" = pegs = 1;')
    return "\n".join(lines) + "\n"


def main():
    import stormpy

    rows = int(sys.argv[1])
    holes = rows * (rows + 1) // 2
    starts = [int(sys.argv[2])] if len(sys.argv) > 2 else list(range(holes))
    with tempfile.NamedTemporaryFile("w", suffix=".prism", delete=False) as f:
        f.write(prism(rows, starts))
        path = f.name
    clock = time.perf_counter()
    program = stormpy.parse_prism_program(path)
    props = stormpy.parse_properties('P=? [ F "win" ]', program)
    model = stormpy.build_model[stormpy.Rational](program, props)
    result = stormpy.model_checking(model, props[0], only_initial_states=True)
    secs = time.perf_counter() - clock
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    print(f"storm {stormpy.__version__} exact: triangle{rows}, {len(starts)} start(s), "
          f"{model.nr_states} states, {secs:.2f} s, {peak_gb:.2f} GB peak")
    for state in model.initial_states:
        print(f"  initial state {state}: P(one peg) = {result.get_value(state)}")


if __name__ == "__main__":
    main()
