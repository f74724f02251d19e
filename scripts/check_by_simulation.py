#!/usr/bin/env python3
"""A second method for a figure computed once, by hours of `exact`: seeded random play.

    python3 scripts/check_by_simulation.py EXACT.json SIMULATED.json

EXACT.json is the output of `pegchain exact --json` for one start (a European class of
docs/european/, say); SIMULATED.json that of `pegchain simulate --json` from the same start,
which on a board this big cannot compute the exact values itself. Prints the simulated mean
of pegs left with its 95% interval beside the exact expectation, the chi-square test of the
games by pegs left against the exact distribution (neighbouring counts pooled until each
expects at least 5 games), and the wins beside the wins expected. Exits 1 when the exact
expectation lies outside the interval or the test's p is below 0.001.
"""

import json
import math
import sys
from fractions import Fraction


def upper_gamma(a, x):
    """The regularized upper incomplete gamma function Q(a, x): a series below a + 1,
    a continued fraction above (Numerical Recipes' gser and gcf)."""
    if x <= 0:
        return 1.0
    scale = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        total = term = 1.0 / a
        n = 0
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= x / (a + n)
            total += term
        return 1.0 - total * scale
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return scale * h


def pooled(counts, expected):
    """Bins of neighbouring pegs-left counts, each expecting at least 5 games: a bin short of
    it joins the smaller of its neighbours, until none is short."""
    bins = [[k] for k in sorted(set(counts) | set(expected)) if expected.get(k, 0) > 0 or counts.get(k, 0)]

    def wanted(b):
        return sum(expected.get(k, 0) for k in b)

    while len(bins) > 1:
        short = next((i for i, b in enumerate(bins) if wanted(b) < 5), None)
        if short is None:
            break
        neighbours = [j for j in (short - 1, short + 1) if 0 <= j < len(bins)]
        other = min(neighbours, key=lambda j: wanted(bins[j]))
        low, high = sorted((short, other))
        bins[low:high + 1] = [bins[low] + bins[high]]
    return bins


def main(exact_path, simulated_path):
    exact = json.load(open(exact_path))["starts"][0]
    simulated = json.load(open(simulated_path))
    if simulated.get("start") != exact["start"]:
        sys.exit(f"the games are from {simulated.get('start')}, the exact figures from {exact['start']}")
    games = simulated["overall"]
    n = games["games"]
    p = {int(k): Fraction(v["fraction"]) for k, v in exact["pegs_left"].items()}
    counts = {int(k): v for k, v in games["games_by_pegs_left"].items()}
    expected = {k: float(q) * n for k, q in p.items()}
    if any(counts.get(k, 0) and not p.get(k) for k in counts):
        sys.exit("a game ended with a number of pegs left the exact figures say is impossible")

    mean = Fraction(exact["expected_pegs_left"]["fraction"])
    low, high = games["mean_pegs_left"]["ci95"]
    inside = low <= mean <= high
    print(f"pegs left: simulated {games['mean_pegs_left']['estimate']:.5f}, 95% interval "
          f"[{low:.5f}, {high:.5f}]; exact {float(mean):.5f}: {'inside' if inside else 'OUTSIDE'}")

    bins = pooled(counts, expected)
    chi = sum((sum(counts.get(k, 0) for k in b) - sum(expected.get(k, 0) for k in b)) ** 2
              / sum(expected.get(k, 0) for k in b) for b in bins)
    freedom = len(bins) - 1
    chance = upper_gamma(freedom / 2, chi / 2)
    merged = ", ".join("+".join(map(str, b)) for b in bins if len(b) > 1) or "none"
    print(f"games by pegs left against the exact distribution: chi-square {chi:.1f} on {freedom} "
          f"degrees of freedom, p = {chance:.3f} (pooled: {merged})")
    win = Fraction(exact["win"]["fraction"])
    print(f"wins: {games['wins']} of {n:,}, {float(win) * n:.2f} expected")
    return 0 if inside and chance >= 0.001 else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    sys.exit(main(sys.argv[1], sys.argv[2]))
