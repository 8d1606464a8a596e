"""Bounded memory: ``python benchmarks/memory.py [N] [DEALS]``.

1. Builds N (default 10,000) distinct option sets over every built-in preset (mostly
   options no deal reads, such as targets, plus one in ten that changes the tables, such
   as Pinochle's minimum bid), deals one deal of each and asks for its legal actions,
   then reports the peak resident memory (the target: under 200 MB).
2. Plays a game of DEALS (default 1,500) deals with random legal actions, drops it, and
   reports how much traced memory is left over (the target: none).
"""

from __future__ import annotations

import gc
import random
import resource
import sys
import time
import tracemalloc
from typing import Any

import bezique_rules as b


def rss_mb() -> float:
    """The peak resident set size of this process, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def option_sets(n: int) -> list[tuple[str, dict[str, Any]]]:
    """N distinct (preset, options) pairs."""
    rng = random.Random(12)
    presets = b.available_variants(builtin=True)
    out: list[tuple[str, dict[str, Any]]] = []
    for i in range(n):
        variant = presets[i % len(presets)]
        names = {s.name for s in b.get_rules(variant).option_specs}
        number = next((name for name in ("target", "deals", "match_lead") if name in names), None)
        options: dict[str, Any] = {}
        if number is not None:
            options[number] = 2000 + i
        elif "stick_the_dealer" in names:  # euchre-openspiel has no number: a table-changing switch
            options["stick_the_dealer"] = bool(i % 2)
            options["allow_lone_defender"] = bool(i % 4 // 2)
        if "minimum_bid" in names and rng.random() < 0.1:
            options["minimum_bid"] = rng.choice(range(250, 400, 10)) if "double_deck" not in names else 60
        out.append((variant, options))
    return out


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 10_000
    deals = int(argv[1]) if len(argv) > 1 else 1500
    start = time.perf_counter()
    for i, (variant, options) in enumerate(option_sets(n)):
        deal = b.new_deal(variant, seed=i, **options)
        deal.legal_actions()
    elapsed = time.perf_counter() - start
    print(f"{n} distinct option sets in {elapsed:.1f} s: peak RSS {rss_mb():.0f} MB (target < 200 MB)")

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    game = b.new_game("euchre", seed=5, target=1_000_000, max_deals=deals)
    rng = random.Random(5)
    start = time.perf_counter()
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_action_ids()), check=False)
    elapsed = time.perf_counter() - start
    held = tracemalloc.get_traced_memory()[0] - before
    played = game.deal_number
    del game
    gc.collect()
    left = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    print(
        f"a game of {played} deals in {elapsed:.1f} s held {held / 1e6:.1f} MB; "
        f"after dropping it {max(left, 0) / 1e6:.2f} MB remain (target 0)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
