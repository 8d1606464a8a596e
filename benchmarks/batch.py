"""Random playouts per second: the batch engine against the scalar step API and OpenSpiel.

Usage::

    pip install -e ".[batch]" open_spiel==2.0.2   # OpenSpiel is optional: its row is skipped without it
    python benchmarks/batch.py [--variant euchre] [--sizes 1,64,1024,16384] [--deals 16384] [--repeat 3]
    python benchmarks/batch.py --variant bezique --deals 4096 --scalar-deals 256

Every line plays complete random deals, uniformly among the legal actions, from the
shuffle to the last trick, in one process:

- ``batch N``: `bezique_rules.batch` with N deals in lockstep: ``batch.new`` (the seeded
  shuffles: `seeded_order` per deal below 4,096 deals, all deals at once in array form
  from there, `bezique_rules.batch.shuffle`), then ``legal_mask``, ``batch.random_actions``
  and ``step(check=False)`` until every deal is over: the dense N x A legal mask every
  step, as a learner reading the masks would. ``play only`` leaves out ``batch.new``
  (the shuffles).
- ``batch N, packed sampling``: the same deals, but ``batch.random_actions(state, rng)``
  draws from the state's packed legal mask (``legal_words``, 64 ids a word) and the dense
  boolean mask is never built: the fastest random playout, the same ids for the same
  generator.
- ``scalar``: the scalar step API, the agents' way: ``new_deal``, then
  ``legal_action_ids()``, ``random.Random.choice`` and ``apply(id, check=False)``.
- ``openspiel native`` (``euchre`` and ``euchre-openspiel`` only): OpenSpiel's C++ loop,
  ``pyspiel.evaluate_bots`` with four ``make_uniform_random_bot`` bots on its ``euchre``,
  one call per deal.

At least ``--deals`` deals per line (one batch for the larger sizes). Times are the
process's CPU time (``time.process_time``: this machine is shared, and wall time
counts the other processes' turns). Each of the ``--repeat`` rounds measures every batch
line once, each right after its own run of the scalar loop (and of OpenSpiel's, where it
plays): the table shows each line's best rate and, as ratios, the median over the rounds of
the rate divided by the rate of the reference run just before it (the load of a shared
machine drifts within a round). Memory per deal is
the bytes of the batch state's arrays per deal twenty steps into the deals (the history
holds one byte or two a step), plus the legal mask (``num_actions`` bytes) while it exists.

Targets (issue 18, on the 2-core development machine): Euchre at least 1x OpenSpiel's
native loop; Bezique (``bezique``, ``bezique-match``) at least 20x the scalar step API.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from typing import Any

import attrs
import numpy as np

from bezique_rules import batch, get_rules, new_deal

SUPPORTED = ("euchre", "british-euchre", "euchre-openspiel", "bezique", "bezique-match", "pinochle")
OPTIONS: dict[str, dict[str, bool]] = {}  # options a preset needs in the batch engine (none now)
"""Options a preset needs for the batch engine (seed 004's take-over after the exchange is not in
array form yet): the scalar runs use the same, so both play the same game."""


def batch_run(variant: str, size: int, deals: int, seed: int, *, packed: bool = False) -> tuple[float, float, float]:
    """Play at least ``deals`` deals in batches of ``size``: (seconds, seconds without
    ``batch.new``, deals played). ``packed``: sample from the packed mask (no dense mask)."""
    rng = np.random.default_rng(seed)
    rules = get_rules(variant, **OPTIONS.get(variant, {}))
    batches = max(1, -(-deals // size))
    total = play = 0.0
    for b in range(batches):
        first = seed * 10_000_019 + b * size
        start = time.process_time()
        state = batch.new(rules, range(first, first + size))
        dealt = time.process_time()
        if packed:
            while not state.done.all():
                state = state.step(batch.random_actions(state, rng), check=False)
        else:
            while not state.done.all():
                state = state.step(batch.random_actions(state.legal_mask(), rng), check=False)
        end = time.process_time()
        total += end - start
        play += end - dealt
    return total, play, float(batches * size)


def memory_per_deal(variant: str, size: int = 1024) -> float:
    """Bytes per deal: the batch state's arrays, plus the legal mask row."""
    state = batch.new(variant, range(size), **OPTIONS.get(variant, {}))
    rng = np.random.default_rng(0)
    for _ in range(20):  # twenty steps into the deals: `steps` holds one array of N per step
        state = state.step(batch.random_actions(state.legal_mask(), rng), check=False)
    fields = [getattr(state, f.name) for f in attrs.fields(type(state))]
    arrays = [v for v in fields if isinstance(v, np.ndarray)] + [v for f in fields if isinstance(f, tuple) for v in f]
    total = sum(v.nbytes for v in arrays if isinstance(v, np.ndarray) and v.shape[:1] == (size,))
    return total / size + state.rules.num_actions


def scalar_run(variant: str, deals: int, seed: int) -> float:
    """Seconds for ``deals`` random deals through the scalar step API."""
    rules = get_rules(variant, **OPTIONS.get(variant, {}))
    rng = random.Random(seed)
    start = time.process_time()
    for k in range(deals):
        deal = new_deal(rules, seed=seed * 100_003 + k)
        while not deal.is_over:
            deal = deal.apply(rng.choice(deal.legal_action_ids()), check=False)
    return time.process_time() - start


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
    start = time.process_time()
    for k in range(deals):
        evaluate(game.new_initial_state(), bots, seed * 100_003 + k)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="euchre", choices=SUPPORTED)
    parser.add_argument("--sizes", default="1,64,1024,16384", help="batch sizes, comma-separated")
    parser.add_argument("--deals", type=int, default=16_384, help="deals per line (at least one batch)")
    parser.add_argument("--small-deals", type=int, default=256, help="deals per line for batch sizes under 64")
    parser.add_argument("--scalar-deals", type=int, default=0, help="deals for the scalar line (default: --deals / 8)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    variant = args.variant
    sizes = [int(s) for s in args.sizes.split(",")]
    batch_run(variant, 64, 64, 0)  # build the tables once
    scalar_deals = args.scalar_deals or max(1, args.deals // 8)
    native_deals = max(1, args.deals // 2)
    with_native = variant in ("euchre", "euchre-openspiel") and openspiel_run(10, 0) is not None
    # every repeat measures every line once, each batch line right after its own runs of the
    # references (the scalar loop, and OpenSpiel's), so that each ratio compares runs made under
    # the same load (on a shared machine the load drifts within a round)
    runs: dict[str, list[tuple[float, float]]] = {}
    refs: dict[str, list[tuple[float, float | None]]] = {}

    def references(r: int) -> tuple[float, float | None]:
        scalar = scalar_deals / scalar_run(variant, scalar_deals, r)
        runs.setdefault("scalar", []).append((scalar, 0.0))
        if not with_native:
            return scalar, None
        native = native_deals / (openspiel_run(native_deals, r) or 1.0)
        runs.setdefault("native", []).append((native, 0.0))
        return scalar, native

    for r in range(1, args.repeat + 1):
        for size in sizes:
            for packed in (False, True):
                line = f"{size}{' packed' if packed else ''}"
                refs.setdefault(line, []).append(references(r))
                total, play, n = batch_run(variant, size, args.deals if size >= 64 else args.small_deals, r,
                                           packed=packed)  # fmt: skip
                runs.setdefault(line, []).append((n / total, n / play))

    def ratio(line: str, reference: str) -> str:
        if reference not in runs:
            return "n/a"
        if line in ("scalar", "native"):  # the two references, run side by side
            pairs = zip(runs[line], runs[reference])
            return f"{statistics.median(a[0] / b[0] for a, b in pairs):.2f}"
        rates = [rate for rate, _ in runs[line]]
        ref = [pair[0] if reference == "scalar" else pair[1] for pair in refs[line]]
        return f"{statistics.median(a / (b or 1.0) for a, b in zip(rates, ref)):.2f}"

    print(f"## {variant}: random deals per CPU second (best of {args.repeat}; ratios: median of the paired runs)\n")
    print("| engine | deals/s | play only, deals/s | x scalar | x OpenSpiel native |")
    print("| --- | ---: | ---: | ---: | ---: |")
    best = max(rate for rate, _ in runs["scalar"])
    print(f"| scalar step API (`apply(id, check=False)`) | {best:,.0f} | | 1.00 | {ratio('scalar', 'native')} |")
    if with_native:
        best = max(rate for rate, _ in runs["native"])
        print(f"| OpenSpiel native (`evaluate_bots`, `euchre`) | {best:,.0f} | | {ratio('native', 'scalar')} | 1.00 |")
    for packed in (False, True):
        for size in sizes:
            line = f"{size}{' packed' if packed else ''}"
            best, play = max(runs[line])
            cells = f"{best:,.0f} | {play:,.0f} | {ratio(line, 'scalar')} | {ratio(line, 'native')}"
            how = ", packed sampling" if packed else ""
            print(f"| batch, N = {size:,}{how} | {cells} |")
    print(f"\nMemory per deal: {memory_per_deal(variant):,.0f} bytes (state arrays and one legal-mask row).")


if __name__ == "__main__":
    main()
