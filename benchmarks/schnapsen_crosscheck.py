"""The long run of the differential test against the ``schnapsen`` package (0.0.5).

Usage::

    python benchmarks/schnapsen_crosscheck.py [--deals 10000] [--start 0] [--show 3]

Needs the ``[crosscheck]`` extra (the GPL ``schnapsen`` package, test-only). Drives our
``schnapsen`` preset and the package through the same deals (seeds ``start`` to
``start + deals - 1``), with closing off and with closing on, exactly as
``tests/test_schnapsen_crosscheck.py`` does in CI for a few hundred deals (the bridge is
``tests/schnapsen_bridge.py``), and prints per mode: the deals, the mismatching deals, the
deals closed, how often each named mapping applied, and the time. ``--show N`` prints the
first N mismatches (the deal's seed, what differed and the moves). Exits with status 1 if any
deal mismatched.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def main(argv: list[str] | None = None) -> int:
    from schnapsen_bridge import Mapping, crosscheck_deal

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="mismatches to print per mode")
    args = parser.parse_args(argv)
    failed = False
    for closing in (False, True):
        start = time.perf_counter()
        used: Counter[Mapping] = Counter()
        bad: list[str] = []
        closed = 0
        for seed in range(args.start, args.start + args.deals):
            result = crosscheck_deal(seed, closing=closing)
            used.update(result.mappings)
            closed += result.closed
            if result.mismatch is not None:
                bad.append(f"  seed {seed}: {result.mismatch}")
        seconds = time.perf_counter() - start
        mode = "closing on " if closing else "closing off"
        print(f"{mode}: {args.deals} deals, {len(bad)} mismatching, {closed} closed, {seconds:.1f} s")
        for mapping in Mapping:
            print(f"  {mapping.name}: {used[mapping]}")
        print("\n".join(bad[: args.show]))
        failed = failed or bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
