"""An outside yardstick: OpenSpiel's information-set MCTS against our level 5, at equal time per decision.

Usage::

    python benchmarks/ismcts_yardstick.py --variant bezique-match --matches 200 [--seed 0] [--out FILE]
    python benchmarks/ismcts_yardstick.py --summarize FILE [FILE ...]

Needs the ``[openspiel]`` extra. The bot is OpenSpiel's own Python ``ISMCTSBot``
(``open_spiel.python.algorithms.ismcts``) with one random rollout per leaf
(``RandomRolloutEvaluator``), driving this library's preset registered as a pyspiel
Python game (`bezique_rules.integrations.openspiel.register`); its root worlds come from the game's
``resample_from_infostate`` (our `determinize`). Its search tree is rebuilt at every
decision, from the current deal only (one OpenSpiel game is one deal; the match score
before the deal is not part of its returns).

Equal time per decision: every decision of level 5 is timed, and before each of its own
decisions the bot gets as many simulations as fit in level 5's mean time so far, at its
own mean time per simulation so far (at least 4). Decisions with one legal action are
played at once by both sides and not timed. The mean times of both are printed.

Each seed is played twice with the seats swapped (in partnership games the bot holds
both seats of one side). A match is a whole game of the preset (``new_game``). The
summary gives the bot's wins, draws and losses and its score rate (draw = half) with a
95% Wilson interval. Results are appended one JSON line per match to ``--out`` as they
come, so a run can be stopped and summarized at any time.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path
from typing import Any

from bezique_rules import available_variants, level, new_game

UNLIMITED = -1


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``score / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_match(variant: str, seed: int, bot_side: int, timing: dict[str, list[float]]) -> dict[str, Any]:
    """One match of ``variant`` (game seed ``seed``): the bot plays side ``bot_side``, level 5 the rest."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from bezique_rules.integrations.openspiel import openspiel_state

    game = new_game(variant, seed=seed)
    rules = game.rules
    ours = level(5)
    rng = random.Random(seed * 2 + bot_side)
    np_rng = np.random.RandomState(seed * 2 + bot_side)
    uct_c = 2.0 * rules.encodings.score_scale / 10.0
    bot: Any = None
    while not game.is_over:
        player = game.current_player
        assert player is not None
        legal = game.legal_action_ids()
        if len(legal) == 1:
            game = game.apply(legal[0])
            continue
        start = time.perf_counter()
        if rules.side_of(player) == bot_side:
            state = openspiel_state(game.deal)
            if bot is None:
                bot = ismcts.ISMCTSBot(
                    state.get_game(), mcts.RandomRolloutEvaluator(1, np_rng), uct_c, 4, random_state=np_rng
                )
            budget = statistics.fmean(timing["level5"]) if timing["level5"] else 0.1
            per_sim = statistics.fmean(timing["per_sim"][-200:]) if timing["per_sim"] else 0.01
            sims = max(4, int(budget / per_sim))
            bot._max_simulations = sims
            action = int(bot.step(state))
            spent = time.perf_counter() - start
            timing["ismcts"].append(spent)
            timing["per_sim"].append(spent / sims)
            timing["sims"].append(sims)
        else:
            action_obj = ours.choose(game.view(player), rng)
            action = rules.action_id(action_obj)
            timing["level5"].append(time.perf_counter() - start)
        game = game.apply(action)
    winner = game.winner
    result = 0.5 if winner is None else (1.0 if winner == bot_side else 0.0)
    return {"variant": variant, "seed": seed, "bot_side": bot_side, "bot_score": result, "totals": list(game.totals)}


def summarize(paths: list[str]) -> None:
    """Print the table of the results in ``paths``."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                rows.setdefault(rec["variant"], []).append(rec)
    print(f"{'variant':<16} {'matches':>7} {'W-D-L (bot)':>12} {'bot score':>9} {'95% CI':>15} {'ms/decision':>18}")
    for variant, recs in sorted(rows.items()):
        matches = [r for r in recs if "bot_score" in r]
        times = [r for r in recs if "timing" in r]
        w = sum(1 for r in matches if r["bot_score"] == 1.0)
        d = sum(1 for r in matches if r["bot_score"] == 0.5)
        lost = len(matches) - w - d
        score = w + 0.5 * d
        lo, hi = wilson(score, len(matches))
        rate = score / len(matches) if matches else 0.0
        ms = ""
        if times:
            t = times[-1]["timing"]
            ms = f"{t['ismcts_ms']:.0f} vs {t['level5_ms']:.0f}"
        wdl, ci = f"{w}-{d}-{lost}", f"[{lo:.3f}, {hi:.3f}]"
        print(f"{variant:<16} {len(matches):>7} {wdl:>12} {rate:>9.3f} {ci:>15} {ms:>18}")


def main() -> None:
    """Play the matches (or summarize a results file)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="bezique-match", choices=available_variants())
    parser.add_argument("--matches", type=int, default=200, help="matches (even: each seed with seats swapped)")
    parser.add_argument("--seed", type=int, default=0, help="the first game seed (default 0)")
    parser.add_argument("--out", help="append one JSON line per match to this file")
    parser.add_argument("--summarize", nargs="+", metavar="FILE", help="print the table of results files")
    args = parser.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return
    timing: dict[str, list[float]] = {"level5": [], "ismcts": [], "per_sim": [], "sims": []}
    started = time.time()
    for k in range(args.matches):
        seed, side = args.seed + k // 2, k % 2
        rec = play_match(args.variant, seed, side, timing)
        rec["timing"] = {
            "level5_ms": 1000 * statistics.fmean(timing["level5"]),
            "ismcts_ms": 1000 * statistics.fmean(timing["ismcts"]),
            "mean_sims": statistics.fmean(timing["sims"]),
            "elapsed_s": time.time() - started,
        }
        line = json.dumps(rec)
        print(line, flush=True)
        if args.out:
            with Path(args.out).open("a", encoding="utf-8") as out:
                out.write(line + "\n")
    if args.out:
        summarize([args.out])


if __name__ == "__main__":
    main()
