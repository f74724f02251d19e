#!/usr/bin/env python3
"""A plain Python loop of seed 001's simulation (the audit's R function, translated): for the
benchmark only, to set pegchain's games per second beside a straightforward implementation."""
import random
import sys
import time


def moves():
    """The 36 jumps of the 15-hole triangle, from row/column coordinates."""
    index = lambda r, c: r * (r + 1) // 2 + c
    out = []
    for r in range(5):
        for c in range(r + 1):
            for dr, dc in ((0, 1), (1, 0), (1, 1)):
                if r + 2 * dr < 5 and c + 2 * dc <= r + 2 * dr:
                    a, b, z = index(r, c), index(r + dr, c + dc), index(r + 2 * dr, c + 2 * dc)
                    out += [(a, b, z), (z, b, a)]
    return out


def play(pos, jumps, rng):
    while True:
        legal = [m for m in jumps if pos[m[0]] and pos[m[1]] and not pos[m[2]]]
        if not legal:
            return sum(pos)
        a, b, z = rng.choice(legal)
        pos[a], pos[b], pos[z] = False, False, True


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    jumps, rng = moves(), random.Random(2015)
    start = time.perf_counter()
    wins = 0
    for _ in range(games):
        pos = [True] * 15
        pos[rng.randrange(15)] = False
        wins += play(pos, jumps, rng) == 1
    secs = time.perf_counter() - start
    print(f"{games} games, {wins} wins, {secs:.2f} s, {games / secs:.0f} games/s")


if __name__ == "__main__":
    main()
