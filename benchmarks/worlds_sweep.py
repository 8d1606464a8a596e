"""Sweep the witness of `Worlds` over every preset and house-rule setup (issue 25 cause 3).

For each setup (`tests/leaks.py`'s ``SETUPS``: every preset as it comes, then the house
rules that change who sees what), ``deals`` seeded deals are played out, once with random
legal actions and once with the heuristic agent (`bezique_rules.agents.HeuristicAgent`,
which itself builds a `Worlds` per decision); at every step `Worlds(deal.view(p))` is built
for every player ``p`` and its witness checked (``witness.view(p) == view``). Prints per
setup and play: views, failures (with the first messages), mean and max witness time in
milliseconds of this process's CPU time (`time.process_time`: the figures hold on a busy machine).

    PYTHONPATH=src python benchmarks/worlds_sweep.py [deals] [seed] [--random-only] [--only SETUP...]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bezique_rules import BeziqueRulesError, DealState, Worlds, get_rules, new_deal
from bezique_rules.agents import HeuristicAgent
from leaks import SETUPS, setup_id


@dataclass
class Row:
    views: int = 0
    failures: int = 0
    messages: list[str] = field(default_factory=list)
    total: float = 0.0
    worst: float = 0.0

    def line(self, name: str) -> str:
        mean = 1000 * self.total / max(1, self.views)
        text = f"{name:58} {self.views:6} {self.failures:5} {mean:8.2f} {1000 * self.worst:8.1f}"
        return text + "".join(f"\n    {m}" for m in self.messages)


def sweep_deal(variant: str, options: dict[str, Any], seed: int, play: str, row: Row) -> None:
    """One deal of ``variant`` played out (``play``: "random" or "heuristic"), every view checked."""
    rng = random.Random(f"worlds-sweep:{play}:{seed}")
    deal: DealState = new_deal(get_rules(variant, **options), seed=seed)
    agent = HeuristicAgent()
    while True:
        for p in range(deal.rules.players):
            view = deal.view(p)
            start = time.process_time()
            try:
                witness = Worlds(view).witness
                ok = witness.view(p) == view
                problem = "" if ok else "the witness shows another view"
            except BeziqueRulesError as error:
                problem = str(error)
            spent = time.process_time() - start
            row.views += 1
            row.total += spent
            row.worst = max(row.worst, spent)
            if problem:
                row.failures += 1
                if len(row.messages) < 3:
                    row.messages.append(f"seed {seed}, {len(deal.moves)} actions, player {p}: {problem[:160]}")
        if deal.is_over:
            return
        who = deal.current_player
        if play == "random" or who is None:
            deal = deal.apply(rng.choice(deal.legal_action_ids()))
        else:
            try:
                deal = deal.apply(agent.choose(deal.view(who), rng))
            except BeziqueRulesError:  # the agent's own witness failed (counted above)
                deal = deal.apply(rng.choice(deal.legal_action_ids()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("deals", nargs="?", type=int, default=3, help="deals per setup and play (default 3)")
    parser.add_argument("seed", nargs="?", type=int, default=0, help="first deal's seed (default 0)")
    parser.add_argument("--random-only", action="store_true", help="random play only")
    parser.add_argument("--only", nargs="*", default=None, help="setup ids (as printed) to sweep")
    args = parser.parse_args()
    plays = ("random",) if args.random_only else ("random", "heuristic")
    print(f"{'setup / play':58} {'views':>6} {'fail':>5} {'mean ms':>8} {'max ms':>8}")
    totals = Row()
    for variant, options in SETUPS:
        name = setup_id(variant, options)
        if args.only and name not in args.only:
            continue
        for play in plays:
            row = Row()
            for seed in range(args.seed, args.seed + args.deals):
                sweep_deal(variant, options, seed, play, row)
            print(row.line(f"{name} [{play}]"), flush=True)
            totals.views += row.views
            totals.failures += row.failures
            totals.total += row.total
            totals.worst = max(totals.worst, row.worst)
    print(totals.line("all"))


if __name__ == "__main__":
    main()
