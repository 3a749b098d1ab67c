"""How the initial rounds of whist tournaments in tournament/pairing/schedule.py (BASES) were found.

    python tools/find_whist_bases.py 25      # every n = 0 or 1 (mod 4) from 5 to 25

For n = 4k + 1 the design is cyclic on Z_n (0 sits out, round i adds i to every
point); for n = 4k it is 1-rotational on Z_(n-1) plus a fixed point (-1 here,
"infinity").  An initial round works when, over its tables (a, b, c, d) with a
and c partners against b and d, every nonzero difference +-d of Z_m occurs once
between partners and twice between opponents (pairs with infinity aside).  A
randomised depth-first search (seeds 0, 1, … with a node budget each, at most a
minute a size) finds them up to 25; it found none on Z_9 (its budget
exhausted) and none within a minute for 28 and 29.  The tests check every
carried base again by expanding it.
"""

from __future__ import annotations

import random
import sys
import time

INF = -1


def search(n: int, seed: int, budget: int = 200_000) -> list[tuple[int, int, int, int]] | None:
    if n % 4 == 1:
        m, points = n, list(range(1, n))
    else:
        m, points = n - 1, list(range(n - 1)) + [INF]
    half = m // 2
    rng = random.Random(seed)
    partner = [0] * (half + 1)
    opponent = [0] * (half + 1)
    used: set[int] = set()
    tables: list[tuple[int, int, int, int]] = []
    nodes = [0]

    def diff(x: int, y: int) -> int | None:
        if x == INF or y == INF:
            return None
        t = (x - y) % m
        return min(t, m - t)

    def place(a: int, b: int, c: int, d: int) -> list | None:
        done = []
        for x, y, arr, limit in ((a, c, partner, 1), (b, d, partner, 1), (a, b, opponent, 2),
                                 (a, d, opponent, 2), (c, b, opponent, 2), (c, d, opponent, 2)):
            k = diff(x, y)
            if k is None:
                continue
            if arr[k] >= limit:
                for arr2, k2 in done:
                    arr2[k2] -= 1
                return None
            arr[k] += 1
            done.append((arr, k))
        return done

    def go() -> bool:
        nodes[0] += 1
        if nodes[0] > budget:
            return False
        free = [p for p in points if p not in used]
        if not free:
            return True
        a, rest = free[0], free[1:]
        options = [(b, c, d) for b in rest for c in rest for d in rest if len({b, c, d}) == 3 and b < d]
        rng.shuffle(options)
        for b, c, d in options[:60]:
            done = place(a, b, c, d)
            if done is None:
                continue
            used.update((a, b, c, d))
            tables.append((a, b, c, d))
            if go():
                return True
            tables.pop()
            used.difference_update((a, b, c, d))
            for arr, k in done:
                arr[k] -= 1
            if nodes[0] > budget:
                return False
        return False

    return tables if go() else None


def main() -> None:
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    for n in range(5, top + 1):
        if n % 4 not in (0, 1):
            continue
        start, found = time.time(), None
        for seed in range(200):
            found = search(n, seed)
            if found or time.time() - start > 60:
                break
        print(n, found, flush=True)


if __name__ == "__main__":
    main()
