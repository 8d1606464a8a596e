"""Random playouts per second: the batch engine against the scalar step API and OpenSpiel.

Usage::

    pip install -e ".[batch]" open_spiel==2.0.2   # OpenSpiel is optional: its row is skipped without it
    python benchmarks/batch.py [--variant euchre] [--sizes 1,64,1024,16384] [--deals 16384] [--repeat 3]

Every line plays complete random deals, uniformly among the legal actions, from the
shuffle to the last trick, in one process:

- ``batch N``: `bezique_rules.batch` with N deals in lockstep: ``batch.new`` (the seeded
  shuffles, one `seeded_order` per deal in Python), then ``legal_mask``,
  ``batch.random_actions`` and ``step(check=False)`` until every deal is over. ``play
  only`` leaves out ``batch.new`` (the shuffles).
- ``scalar``: the scalar step API, the agents' way: ``new_deal``, then
  ``legal_action_ids()``, ``random.Random.choice`` and ``apply(id, check=False)``.
- ``openspiel native`` (``euchre`` and ``euchre-openspiel`` only): OpenSpiel's C++ loop,
  ``pyspiel.evaluate_bots`` with four ``make_uniform_random_bot`` bots on its ``euchre``,
  one call per deal.

At least ``--deals`` deals per line (one batch for the larger sizes); the best of
``--repeat`` runs is reported, with the ratios to the scalar and OpenSpiel lines (this
machine is shared: single runs are noisy). Memory per deal is the bytes of the batch
state's arrays per deal, plus the legal mask (``num_actions`` bytes) while it exists.

Targets (issue 18, on the 2-core development machine): Euchre at least 1x OpenSpiel's
native loop; Bezique at least 20x the scalar step API (the batch engine does not play
Bezique yet).
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from bezique_rules import batch, get_rules, new_deal

SUPPORTED = ("euchre", "british-euchre", "euchre-openspiel")


def batch_run(variant: str, size: int, deals: int, seed: int) -> tuple[float, float, float]:
    """Play at least ``deals`` deals in batches of ``size``: (seconds, seconds without
    ``batch.new``, deals played)."""
    rng = np.random.default_rng(seed)
    rules = get_rules(variant)
    batches = max(1, -(-deals // size))
    total = play = 0.0
    for b in range(batches):
        first = seed * 10_000_019 + b * size
        start = time.perf_counter()
        state = batch.new(rules, range(first, first + size))
        dealt = time.perf_counter()
        while not state.done.all():
            state = state.step(batch.random_actions(state.legal_mask(), rng), check=False)
        end = time.perf_counter()
        total += end - start
        play += end - dealt
    return total, play, float(batches * size)


def memory_per_deal(variant: str, size: int = 1024) -> float:
    """Bytes per deal: the batch state's arrays, plus the legal mask row."""
    state = batch.new(variant, range(size))
    fields = [getattr(state, f.name) for f in attrs.fields(type(state))]
    arrays = sum(v.nbytes for v in fields if isinstance(v, np.ndarray) and v.shape[:1] == (size,))
    return arrays / size + state.rules.num_actions


def scalar_run(variant: str, deals: int, seed: int) -> float:
    """Seconds for ``deals`` random deals through the scalar step API."""
    rules = get_rules(variant)
    rng = random.Random(seed)
    start = time.perf_counter()
    for k in range(deals):
        deal = new_deal(rules, seed=seed * 100_003 + k)
        while not deal.is_over:
            deal = deal.apply(rng.choice(deal.legal_action_ids()), check=False)
    return time.perf_counter() - start


def openspiel_run(deals: int, seed: int) -> float | None:
    """Seconds for ``deals`` random deals of OpenSpiel's ``euchre`` in its C++ loop, or None
    without OpenSpiel."""
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    bots = [pyspiel.make_uniform_random_bot(p, seed * 7 + p) for p in range(4)]
    evaluate = pyspiel.evaluate_bots
    start = time.perf_counter()
    for k in range(deals):
        evaluate(game.new_initial_state(), bots, seed * 100_003 + k)
    return time.perf_counter() - start


def best(runs: int, f: Callable[[int], float]) -> float:
    """The highest of ``runs`` rates."""
    return max(f(r + 1) for r in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="euchre", choices=SUPPORTED)
    parser.add_argument("--sizes", default="1,64,1024,16384", help="batch sizes, comma-separated")
    parser.add_argument("--deals", type=int, default=16_384, help="deals per line (at least one batch)")
    parser.add_argument("--small-deals", type=int, default=1_024, help="deals per line for batch sizes under 64")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    variant = args.variant
    sizes = [int(s) for s in args.sizes.split(",")]
    batch_run(variant, 64, 64, 0)  # build the tables once
    scalar_deals = max(1, args.deals // 8)
    scalar = best(args.repeat, lambda r: scalar_deals / scalar_run(variant, scalar_deals, r))
    native: float | None = None
    if variant in ("euchre", "euchre-openspiel"):
        native_deals = max(1, args.deals // 2)
        if openspiel_run(10, 0) is not None:
            native = best(args.repeat, lambda r: native_deals / (openspiel_run(native_deals, r) or 1.0))
    mem = memory_per_deal(variant)
    print(f"## {variant}: random deals per second (best of {args.repeat})\n")
    print("| engine | deals/s | play only, deals/s | x scalar | x OpenSpiel native |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| scalar step API (`apply(id, check=False)`) | {scalar:,.0f} | | 1.0 | {_ratio(scalar, native)} |")
    if native is not None:
        print(f"| OpenSpiel native (`evaluate_bots`, `euchre`) | {native:,.0f} | | {native / scalar:.1f} | 1.0 |")
    for size in sizes:
        deals = args.deals if size >= 64 else min(args.deals, args.small_deals)
        rates = []
        for r in range(args.repeat):
            total, play, n = batch_run(variant, size, deals, r + 1)
            rates.append((n / total, n / play))
        rate, play_rate = max(rates)
        cells = f"{rate:,.0f} | {play_rate:,.0f} | {rate / scalar:.1f} | {_ratio(rate, native)}"
        print(f"| batch, N = {size:,} | {cells} |")
    print(f"\nMemory per deal: {mem:,.0f} bytes (state arrays and one legal-mask row).")


def _ratio(rate: float, reference: float | None) -> str:
    return "n/a" if reference is None else f"{rate / reference:.2f}"


if __name__ == "__main__":
    main()
