"""The long leak check: ``python benchmarks/leak_check.py [SEEDS] [STATES] [SWAPS] [SAMPLES]``.

Runs ``tests/leaks.py`` over every preset and every house-rule setup that changes who
sees what: SEEDS random deals each (default 6), STATES random states of each deal
(default 4), and for every state and player SWAPS swap worlds (two cards of faces he
never saw swapped, the history replayed with checks; default 3) and SAMPLES
`determinize` worlds (default 2). Every surface shown to the player is compared across
the worlds. Prints one line per setup and the totals: states, worlds, illegal replays
skipped, surfaces compared, leaks (and the first of each kind), bad determinize worlds.
The exit status is 1 when anything leaked.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from leaks import SETUPS, Tally, all_surfaces, check_setup, setup_id


def main(argv: list[str]) -> int:
    seeds, states, swaps, samples = ([int(a) for a in argv] + [6, 4, 3, 2][len(argv) :])[:4]
    surfaces = all_surfaces()
    print(f"surfaces: {', '.join(surfaces)}")
    total = Tally()
    start = time.perf_counter()
    for variant, options in SETUPS:
        t = time.perf_counter()
        tally = check_setup(
            variant, options, seeds=range(seeds), states=states, swaps=swaps, samples=samples, surfaces=surfaces
        )
        total.add(tally)
        kinds = Counter(f"{leak.surface}/{leak.world}" for leak in tally.leaks)
        print(f"{setup_id(variant, options)}: {tally.summary()} ({time.perf_counter() - t:.0f} s)", flush=True)
        if kinds:
            print(f"    leaks by surface/world: {dict(kinds)}")
        seen: set[str] = set()
        for leak in tally.leaks:
            if leak.surface not in seen:
                seen.add(leak.surface)
                print(f"    first {leak.surface} leak: {leak}")
        for bad in dict.fromkeys(tally.bad_worlds):
            print(f"    bad world: {bad}")
    print(f"TOTAL: {total.summary()} in {time.perf_counter() - start:.0f} s")
    return 1 if total.leaks or total.bad_worlds else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
