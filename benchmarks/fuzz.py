"""A long fuzz run: ``python benchmarks/fuzz.py N [FIRST_SEED]``.

Runs N fuzz cases of ``tests/fuzzing.py`` (seeds FIRST_SEED … FIRST_SEED + N - 1, each a
random operation on a random built-in preset: odd and mutated notation, ids, options,
seeds, decks, dealers, views, determinize (every world's record replays to it), records (with unknown keys and options that
repeat a record field), agents, the CLI, pickle / deepcopy / copy round trips of every
value, threads on shared states and on cold option sets, hand-built actions of the wrong
field types, and after every refused call the twin invariant) and prints the
number of failures, the distinct failures with a seed that reproduces each, and the time
taken. The exit status is 1 when anything failed.

Reproduce one failure with ``python -c "import fuzzing; fuzzing.fuzz_one(SEED)"`` from ``tests/``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzzing import FuzzFailure, fuzz_one


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 1000
    first = int(argv[1]) if len(argv) > 1 else 0
    failures = 0
    distinct: dict[str, tuple[int, str]] = {}
    start = time.perf_counter()
    for seed in range(first, first + n):
        try:
            fuzz_one(seed)
        except FuzzFailure as exc:
            failures += 1
            if exc.key not in distinct:
                distinct[exc.key] = (seed, exc.detail)
                print(f"new failure, seed {seed}: {exc.key}: {exc.detail}", file=sys.stderr, flush=True)
        done = seed - first + 1
        if done % 1000 == 0:
            elapsed = time.perf_counter() - start
            print(f"{done}/{n} cases, {failures} failures, {elapsed:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    print(f"fuzz: {n} cases (seeds {first}..{first + n - 1}) in {elapsed:.1f} s ({n / elapsed:.0f} cases/s)")
    print(f"failures: {failures} ({len(distinct)} distinct)")
    for key, (seed, detail) in sorted(distinct.items()):
        print(f"  seed {seed}: {key}: {detail}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
