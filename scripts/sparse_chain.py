#!/usr/bin/env python3
"""Writes a sparse DTMC as a Storm DRN file for the scale benchmark: STATES states in 25
layers, about ten transitions out of each (eleven moves of probability 1/11: nine to
pseudo-random states of the next layer, two within the state's block of four, so the chain
has cycles but its strongly connected components are small). The last layer moves to the
absorbing states `goal` and `trap`. The exact values stay a few hundred digits long because
the chain is 25 layers deep, however wide. State 0 is initial.
Usage: scripts/sparse_chain.py STATES OUT.drn"""
import sys

LAYERS = 25


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    width = (n - 2) // LAYERS
    goal, trap = n - 2, n - 1
    with open(out, "w") as f:
        f.write(f"// a sparse benchmark chain: {n} states in {LAYERS} layers\n")
        f.write(f"@type: DTMC\n@parameters\n\n@reward_models\n\n@nr_states\n{n}\n@nr_choices\n{n}\n@model\n")
        lines = []
        seed = 12345
        for i in range(n - 2):
            layer = min(i // width, LAYERS - 1)
            block = i - i % 4
            if layer == LAYERS - 1:
                forward = [goal] * (1 + i % 8) + [trap] * (8 - i % 8)
            else:
                base = (layer + 1) * width
                forward = []
                for _ in range(9):
                    seed = (seed * 6364136223846793005 + 1442695040888963407) % (1 << 64)
                    forward.append(base + (seed >> 33) % width)
            targets = forward + [block, min(block + (i + 1) % 4, n - 3)]
            counts = {}
            for t in targets:
                counts[t] = counts.get(t, 0) + 1
            rows = "".join(f"\t\t{t} : {c}/11\n" for t, c in sorted(counts.items()))
            lines.append(f"state {i}{' init' if i == 0 else ''}\n\taction 0\n{rows}")
            if len(lines) >= 100000:
                f.write("".join(lines))
                lines = []
        lines.append(f"state {goal} goal\n\taction 0\n\t\t{goal} : 1\n")
        lines.append(f"state {trap} trap\n\taction 0\n\t\t{trap} : 1\n")
        f.write("".join(lines))


if __name__ == "__main__":
    main()
