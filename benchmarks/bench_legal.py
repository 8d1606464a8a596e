"""The cost of one ``legal_actions()`` call in the stock phase, by number of packs.

Usage::

    python benchmarks/bench_legal.py [--states 400] [--repeat 5]

Issue 5 asks that this cost does not grow with the number of packs beyond the size of
the hand: the table prints the mean hand size beside the time per call, for two-hand
Bezique (2 packs), Rubicon (4), Six-pack (6) and Eight-pack (8).
"""

from __future__ import annotations

import argparse
import random
import time

from bezique_rules import DealState, Phase, new_deal

VARIANTS = ("bezique", "rubicon-bezique", "six-pack-bezique", "eight-pack-bezique")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for variant in VARIANTS:
        rng = random.Random(1)
        states: list[DealState] = []
        seed = 0
        while len(states) < args.states:
            deal = new_deal(variant, seed=seed)
            seed += 1
            while not deal.is_over and len(states) < args.states:
                if deal.phase is Phase.PLAY:
                    states.append(deal)
                deal = deal.apply(rng.choice(deal.legal_actions()), check=False)
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            for state in states:
                object.__setattr__(state, "_legal", None)  # measure the computation, not the cache
                state.legal_actions()
            best = min(best, (time.perf_counter() - start) / len(states))
        hand = sum(len(s.view(s.current_player or 0).hand) for s in states) / len(states)
        packs = states[0].rules.deck.packs
        print(f"{variant:>20}: {packs} packs, mean hand {hand:4.1f} cards, {best * 1e6:6.2f} us per legal_actions()")


if __name__ == "__main__":
    main()
