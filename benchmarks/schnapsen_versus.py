"""Level 5 at Schnapsen against the ``schnapsen`` package's computer players (an outside yardstick).

Usage::

    python benchmarks/schnapsen_versus.py --opponent rdeep --deals 200 --out rdeep.jsonl
    python benchmarks/schnapsen_versus.py --opponent bully --deals 200 --out bully.jsonl
    python benchmarks/schnapsen_versus.py --summarize rdeep.jsonl bully.jsonl

Needs the ``[crosscheck]`` extra (the GPL ``schnapsen`` package, 0.0.5, test-only). The
opponents are the package's ``RdeepBot(num_samples=16, depth=4)`` (for every legal move, 16
random worlds, each played on by random moves for 4 tricks, scored by its share of the card
points) and ``BullyBot`` (a trump if it can, else follow suit, else its highest card). Both see
the package's own perspective of the deal; level 5 sees our `PlayerView`. The bridge
(``tests/schnapsen_bridge.py``, `play_versus`) keeps the two engines in step on the same cards
and checks every move against both rule sets.

The rules are what both engines play: the package cannot close the talon, so closing is off
(``closing_min_stock=10``), and the trump jack may be exchanged while one face-down card is
left (``exchange_min_stock=1``, the package's rule). The bot goes out as the package does, as
soon as it is on lead with 66; level 5 claims for itself. A deal is worth 1, 2 or 3 game points
to its winner (pagat).

Deal seed ``s`` (the package's shuffle, ``random.Random(s)``) is played twice with the seats
swapped: level 5 leads first once and follows first once. Results are appended one JSON line
per deal to ``--out`` as they come, so a run can be stopped, resumed (``--start``) and
summarized at any time. The summary gives level 5's share of the deals won and of the game
points, each with a 95% interval (Wilson for the deals; for the game points a bootstrap over the
seed pairs, 2,000 resamples, fixed seed).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bezique_rules import level

OPPONENTS = ("rdeep", "bully")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def make_bot(opponent: str) -> Any:
    """A factory of the package's bot called ``opponent`` (given its random source)."""
    from schnapsen.bots.bully_bot import BullyBot
    from schnapsen.bots.rdeep import RdeepBot

    if opponent == "rdeep":
        return lambda rng: RdeepBot(num_samples=16, depth=4, rand=rng)
    return lambda rng: BullyBot(rng)


def play(opponent: str, seeds: range, out: Path) -> None:
    from schnapsen_bridge import play_versus

    factory = make_bot(opponent)
    agent = level(5)
    with out.open("a") as f:
        for seed in seeds:
            for seat in (0, 1):
                start = time.perf_counter()
                result = play_versus(
                    seed,
                    agent,
                    factory,
                    agent_seat=seat,
                    agent_rng=random.Random(2 * seed + seat),
                    bot_rng=random.Random(1_000_003 + 2 * seed + seat),
                )
                row = {
                    "opponent": opponent,
                    "seed": seed,
                    "agent_seat": seat,
                    "winner": result.winner,
                    "game_points": result.game_points,
                    "ending": result.ending,
                    "agent_points": result.agent_points,
                    "bot_points": result.bot_points,
                    "seconds": round(time.perf_counter() - start, 3),
                }
                f.write(json.dumps(row) + "\n")
                f.flush()


def summarize(paths: list[Path]) -> None:
    rows = [json.loads(line) for p in paths for line in p.read_text().splitlines() if line.strip()]
    print(
        "| opponent | deals | level 5 won | deal rate | 95% interval "
        "| game points (level 5 / bot) | point share | 95% interval |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for opponent in OPPONENTS:
        mine = [r for r in rows if r["opponent"] == opponent]
        if not mine:
            continue
        n = len(mine)
        won = sum(r["agent_points"] > 0 for r in mine)
        lo, hi = wilson(won, n)
        ours = sum(r["agent_points"] for r in mine)
        theirs = sum(r["bot_points"] for r in mine)
        pairs: dict[int, list[dict[str, Any]]] = {}
        for r in mine:
            pairs.setdefault(r["seed"], []).append(r)
        groups = list(pairs.values())
        rng = random.Random(0)
        shares = []
        for _ in range(2000):
            sample = [groups[rng.randrange(len(groups))] for _ in groups]
            a = sum(r["agent_points"] for g in sample for r in g)
            b = sum(r["bot_points"] for g in sample for r in g)
            shares.append(a / (a + b) if a + b else 0.5)
        shares.sort()
        share = ours / (ours + theirs) if ours + theirs else 0.5
        seconds = sum(r["seconds"] for r in mine)
        print(
            f"| `{opponent}` | {n} | {won} | {won / n:.1%} | {lo:.1%}-{hi:.1%} | {ours} / {theirs} "
            f"| {share:.1%} | {shares[50]:.1%}-{shares[1949]:.1%} |"
        )
        print(f"<!-- {opponent}: {seconds / n:.2f} s per deal on average -->", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", choices=OPPONENTS, default="rdeep")
    parser.add_argument("--deals", type=int, default=200, help="deal seeds (each played twice, seats swapped)")
    parser.add_argument("--start", type=int, default=0, help="the first deal seed")
    parser.add_argument("--out", type=Path, help="append one JSON line per deal here")
    parser.add_argument("--summarize", type=Path, nargs="+", help="summarize result files and exit")
    args = parser.parse_args(argv)
    if args.summarize:
        summarize(args.summarize)
        return
    out = args.out or Path(f"schnapsen-versus-{args.opponent}.jsonl")
    play(args.opponent, range(args.start, args.start + args.deals), out)
    summarize([out])


if __name__ == "__main__":
    main()
