"""Random deals per second of this tree against release 0.1.0, side by side, per preset.

Usage::

    python benchmarks/versus_0_1_0.py [--variant all] [--deals 200] [--rounds 5] [--old PATH]

The 0.1.0 code is a git worktree of commit ``BASELINE`` (made in a temporary folder unless
``--old`` names a source tree). For each preset, each round runs the same workload twice, once
with each tree on ``PYTHONPATH``, in fresh interpreters and in alternating order (old-new,
new-old, ...), so that both see the same machine load; the ratio reported is the median of the
per-round ratios new/old of deals per second (above 1: the new code is faster). A workload plays
``--deals`` complete deals from ``new_deal(seed=...)``, choosing uniformly among
``legal_action_ids()`` and applying with ``apply(action_id, check=False)`` (the agents' path),
then the same through the checked public API ``apply(action)``.

Target (issue 14): no preset below 0.85 of 0.1.0.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BASELINE = "5a3e58b"
"""The commit of release 0.1.0 (the last commit before the engine redesign)."""

ROOT = Path(__file__).resolve().parent.parent

_WORKLOAD = r"""
import json, random, sys, time
from bezique_rules import get_rules, new_deal
variant, deals, checked = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
rules = get_rules(variant)
rng = random.Random(7)
new_deal(rules, seed=0)  # build the tables outside the clock
start = time.perf_counter()
for k in range(deals):
    deal = new_deal(rules, seed=1_000 + k)
    if checked:
        while not deal.is_over:
            deal = deal.apply(rng.choice(deal.legal_actions()))
    else:
        while not deal.is_over:
            deal = deal.apply(rng.choice(deal.legal_action_ids()), check=False)
print(json.dumps(deals / (time.perf_counter() - start)))
"""


def rate(src: Path, variant: str, deals: int, checked: bool) -> float:
    """Deals per second of ``variant`` with the package at ``src`` (a fresh interpreter)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", _WORKLOAD, variant, str(deals), "1" if checked else "0"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    value: float = json.loads(out)
    return value


def compare(old: Path, new: Path, variant: str, deals: int, rounds: int, checked: bool) -> tuple[float, float, float]:
    """(median ratio new/old, median old deals/s, median new deals/s)."""
    ratios, olds, news = [], [], []
    for r in range(rounds):
        if r % 2 == 0:
            o = rate(old, variant, deals, checked)
            n = rate(new, variant, deals, checked)
        else:
            n = rate(new, variant, deals, checked)
            o = rate(old, variant, deals, checked)
        ratios.append(n / o)
        olds.append(o)
        news.append(n)
    return statistics.median(ratios), statistics.median(olds), statistics.median(news)


def _presets(src: Path) -> list[str]:
    code = "from bezique_rules import available_variants; print(' '.join(available_variants(builtin=True)))"
    out = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(src)}, check=True, capture_output=True
    )
    return out.stdout.decode().split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="all", help="a preset, or 'all' (the presets both trees have)")
    parser.add_argument("--deals", type=int, default=200, help="deals per workload")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per preset")
    parser.add_argument("--old", type=Path, default=None, help="the 0.1.0 source tree (default: a git worktree)")
    args = parser.parse_args()
    new = ROOT / "src"
    with tempfile.TemporaryDirectory() as tmp:
        if args.old is None:
            tree = Path(tmp) / "v0.1.0"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), BASELINE], check=True)
            old = tree / "src"
        else:
            old = args.old
        try:
            variants = _presets(old) if args.variant == "all" else [args.variant]
            print("| preset | ids, unchecked: ratio (0.1.0 → now, deals/s) | checked API: ratio (0.1.0 → now) |")
            print("| --- | --- | --- |")
            worst = float("inf")
            for variant in variants:
                fast = compare(old, new, variant, args.deals, args.rounds, checked=False)
                slow = compare(old, new, variant, args.deals, args.rounds, checked=True)
                worst = min(worst, fast[0], slow[0])
                print(
                    f"| {variant} | {fast[0]:.2f} ({fast[1]:.0f} → {fast[2]:.0f}) "
                    f"| {slow[0]:.2f} ({slow[1]:.0f} → {slow[2]:.0f}) |",
                    flush=True,
                )
            print(f"\nlowest ratio: {worst:.2f} (target: at least 0.85)")
        finally:
            if args.old is None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


if __name__ == "__main__":
    main()
