"""How the complete Howell movements of tournament/pairing/movements.py (ADDERS) were found.

    python tools/find_howell_adders.py 30      # every table count from 3 to 30

A complete Howell of T tables is 2T pairs over m = 2T - 1 rounds, with m sets of boards.  It is
1-rotational on Z_m: pair "infinity" stays at table 1, round r seats pair r against it and
pairs r + i against r - i at table i + 1 (i = 1 … T - 1), the circle method.  Table i + 1
plays set r + f(i) in round r, with f(0) = 0; so the sets of a round differ when the f(i)
differ, and a pair plays every set exactly once when the 2(T - 1) numbers f(i) - i and
f(i) + i are the nonzero elements of Z_m, each once (a pair p meets its sets at p + f(i) - i
and p + f(i) + i).  That is a Room square of side m; none exists of side 3 or 5 (Mullin and
Wallis), so 3 tables have none, and this search finds none for 5 tables (side 9 exists, but
not of this form).  A randomised depth-first search (seeds 0, 1, … with a node budget each)
finds the others in seconds; the tests check every carried table again by expanding it.
"""

from __future__ import annotations

import random
import sys


def search(tables: int, seed: int, budget: int = 200_000) -> tuple[int, ...] | None:
    m = 2 * tables - 1
    rng = random.Random(seed)
    chosen: dict[int, int] = {}
    used_f, used_sum = {0}, {0}
    nodes = [0]

    def place(k: int) -> bool:
        nodes[0] += 1
        if nodes[0] > budget:
            return False
        if k == 0:
            return True
        values = list(range(1, m))
        rng.shuffle(values)
        for v in values:
            a, b = (v - k) % m, (v + k) % m
            if v in used_f or a in used_sum or b in used_sum or a == b:
                continue
            chosen[k] = v
            used_f.add(v), used_sum.update((a, b))
            if place(k - 1):
                return True
            used_f.discard(v), used_sum.difference_update((a, b))
        return False

    return tuple(chosen[i] for i in range(1, tables)) if place(tables - 1) else None


def main(top: int) -> None:
    found = {}
    for tables in range(3, top + 1):
        for seed in range(50):
            adders = search(tables, seed)
            if adders is not None:
                found[tables] = adders
                break
    print(found)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
