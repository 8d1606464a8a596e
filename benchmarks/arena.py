"""The strength ladder of the computer players, measured in the arena.

Usage::

    python benchmarks/arena.py [--matches 400] [--jobs 2 | --cluster local:4] [--seed 0] [--variant bezique-match]

For each comparison (level 2 against level 1, 3 against 2, 4 against 3, 5
against 4, and 5 against level 1, random play), ``--matches`` matches are played
(half as many deal seeds, each played with the seats swapped) and a table is
printed: wins, draws and losses of the stronger side, its win rate with a 95%
confidence interval, the points per deal of both, and whether the target is met
(each level beats the one below in at least 55% of the matches; level 5 beats
random play in at least 95%). Then the time per decision of level 5 (the search)
is measured on a few deals. Strength and speed targets live here, never in timed
tests. ``--cluster`` runs the matches on a Dask cluster (a scheduler address, or
``local:N``; needs the ``cluster`` extra) instead of local processes; the table is
the same.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time

from bezique_rules import available_variants, new_deal
from bezique_rules.agents import level, play_arena
from bezique_rules.agents.arena import Pool

PAIRS = (
    ("level2", "level1", 0.55),
    ("level3", "level2", 0.55),
    ("level4", "level3", 0.55),
    ("level5", "level4", 0.55),
    ("level5", "level1", 0.95),
)
"""(stronger, weaker, target win rate)."""


def timing(variant: str, n: int, deals: int) -> tuple[float, float, int]:
    """Seconds per decision of level ``n`` (mean, max, decisions) over ``deals`` deals against level 3."""
    agent, other = level(n), level(3)
    times: list[float] = []
    for k in range(deals):
        deal = new_deal(variant, seed=1000 + k)
        rng = random.Random(k)
        while not deal.is_over:
            p = deal.current_player
            assert p is not None
            view = deal.view(p)
            if p == k % 2:
                start = time.perf_counter()
                action = agent.choose(view, rng)
                if len(view.legal_actions()) > 1:
                    times.append(time.perf_counter() - start)
            else:
                action = other.choose(view, rng)
            deal = deal.apply(action)
    return statistics.fmean(times), max(times), len(times)


def table(args: argparse.Namespace, seeds: int, wanted: set[tuple[str, ...]] | None, pool: Pool | None) -> None:
    """Play the comparisons and print the table."""
    header = (
        f"{'comparison':<18} {'W-D-L':>11} {'win rate':>9} {'95% CI':>15} {'pts/deal':>15} {'target':>7} {'time':>7}"
    )
    print(header)
    print("-" * len(header))
    for a, b, target in PAIRS:
        if wanted is not None and (a, b) not in wanted:
            continue
        start = time.perf_counter()

        def progress(done: int, total: int, label: str = f"{a} vs {b}") -> None:
            sys.stderr.write(f"\r  {label}: {done}/{total}")
            sys.stderr.flush()

        result = play_arena(
            args.variant, a, b, deals=seeds, seed=args.seed, jobs=args.jobs, pool=pool, progress=progress
        )
        sys.stderr.write("\n")
        low, high = result.interval()
        pa, pb = result.points_per_deal
        ok = "met" if result.win_rate >= target else "MISSED"
        print(
            f"{a + ' vs ' + b:<18} {f'{result.wins}-{result.draws}-{result.losses}':>11} "
            f"{100 * result.win_rate:>8.1f}% {f'{100 * low:.1f}-{100 * high:.1f}%':>15} "
            f"{f'{pa:.0f} / {pb:.0f}':>15} {f'{int(100 * target)}% {ok}':>7} {time.perf_counter() - start:>6.0f}s",
            flush=True,
        )


def main() -> None:
    """Run the comparisons and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="bezique-match", choices=available_variants())
    parser.add_argument("--matches", type=int, default=400, help="matches per comparison (even; default 400)")
    runs_on = parser.add_mutually_exclusive_group()
    runs_on.add_argument("--jobs", type=int, default=2, help="parallel processes (default 2)")
    runs_on.add_argument("--cluster", help="a Dask scheduler address or local:N (the cluster extra)")
    parser.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    parser.add_argument("--timing-deals", type=int, default=4, help="deals timed for level 5 (default 4)")
    parser.add_argument("--only", help="run only these comparisons, e.g. 'level4-level3,level5-level1' (default: all)")
    args = parser.parse_args()
    wanted = None if not args.only else {tuple(p.split("-")) for p in args.only.split(",")}
    seeds = max(1, args.matches // 2)
    with contextlib.ExitStack() as stack:
        pool: Pool | None = None
        where = f"{args.jobs} jobs"
        if args.cluster:
            from bezique_rules.integrations.cluster import open_cluster

            pool = stack.enter_context(open_cluster(args.cluster))
            where = f"cluster {args.cluster}"
        print(f"{args.variant}: {2 * seeds} matches per comparison (seats swapped), seed {args.seed}, {where}")
        table(args, seeds, wanted, pool)
    if args.timing_deals > 0:
        for n in (5,):
            mean, worst, count = timing(args.variant, n, args.timing_deals)
            print(f"level {n}: {1000 * mean:.0f} ms per decision on average, {1000 * worst:.0f} ms at most "
                  f"({count} decisions with a choice)")  # fmt: skip


if __name__ == "__main__":
    main()
