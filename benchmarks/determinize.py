"""How long `determinize` takes, per preset and house-rule setup (issue 25, issue 26 item 6).

It runs once per iteration of an information-set search (`SearchAgent`, OpenSpiel's
IS-MCTS), so it must stay cheap. For each setup: mid-deal states of a few seeded random
deals (a third to two thirds of the way through), each player's view, and 200 calls in
all; prints the mean time per call in microseconds.

    PYTHONPATH=src python benchmarks/determinize.py [variant ...]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from leaks import SETUPS, setup_id  # noqa: E402

from bezique_rules import DealState, determinize, get_rules, new_deal  # noqa: E402

CALLS = 200


def mid_deal_views(variant: str, options: dict[str, Any], deals: int = 5) -> list[Any]:
    """Views of states a third to two thirds of the way through ``deals`` seeded random deals."""
    views = []
    for seed in range(deals):
        rng = random.Random(f"determinize-bench:{seed}")
        deal: DealState = new_deal(get_rules(variant, **options), seed=seed)
        states = [deal]
        while not deal.is_over:
            deal = deal.apply(rng.choice(deal.legal_action_ids()))
            states.append(deal)
        for state in states[len(states) // 3 : 2 * len(states) // 3 : max(1, len(states) // 9)]:
            views.extend(state.view(p) for p in range(state.rules.players))
    return views


def main(argv: list[str]) -> None:
    for variant, options in SETUPS:
        if argv and variant not in argv:
            continue
        views = mid_deal_views(variant, options)
        rng = random.Random(1)
        start = time.perf_counter()
        for k in range(CALLS):
            determinize(views[k % len(views)], rng)
        per_call = (time.perf_counter() - start) / CALLS * 1e6
        print(f"{setup_id(variant, options):75s} {per_call:9.1f} us", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
