"""Train sb3-contrib's MaskablePPO on a Gymnasium environment for a given time, then measure it.

Usage::

    pip install 'bezique-rules[rl,train]'   # sb3-contrib and torch (CPU wheels are enough)
    python benchmarks/train_ppo.py schnapsen --minutes 10 [--cpu] [--train-opponent level2]
        [--deals 500] [--canonical-suits] [--seed 0] [--threads 1] [--save model.zip]

The learner is made with nothing but ``gymnasium.make("bezique_rules/<preset>-v0",
observation="flat", opponent=..., seat="random")`` and ``MaskablePPO("MlpPolicy", env)`` at
its defaults; training stops after ``--minutes`` of wall time, or of this process's CPU
time with ``--cpu`` (on ``--threads`` torch threads; ``--cpu`` gives comparable runs on a
shared machine). Then the greedy policy (``predict(..., action_masks=...,
deterministic=True)``) plays ``--deals`` paired deals against ``random``, ``level2`` and
``level4``: every deal twice with the same cards and dealer, the learner holding a seat of
each side in turn (its partner, in partnership games, is the opponent's level). A deal is
won when the learner's side scores more than the other side (a tie counts half). The table
gives the win rate with its 95% interval over the pairs (a pair scores 0, ½ or 1), and, in
games with bidding, how often the learner named trumps and the win rate of those deals.

sb3-contrib (and torch) are not dependencies of the library nor of CI: this script is
run by hand, and its table lives in docs/how-to/gymnasium.md.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from typing import Any

OPPONENTS = ("random", "level2", "level4")
"""The opponents of the evaluation."""


def main() -> None:
    """Parse the arguments, train, evaluate and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--minutes", type=float, default=10.0, help="training time (wall, or CPU with --cpu)")
    parser.add_argument(
        "--cpu", action="store_true", help="count --minutes in this process's CPU time (fair on a shared machine)"
    )
    parser.add_argument("--train-opponent", default="level2", help="the agent trained against (and partner)")
    parser.add_argument("--deals", type=int, default=500, help="paired deals per opponent")
    parser.add_argument("--canonical-suits", action="store_true", help="suits renumbered relative to trumps")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--save", default=None, help="save the trained model there")
    parser.add_argument("--load", default=None, help="evaluate a saved model instead of training")
    args = parser.parse_args()
    try:
        import gymnasium
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
    except ImportError as exc:
        sys.exit(
            f"train_ppo.py needs sb3-contrib and torch ({exc.name} is missing): pip install 'bezique-rules[rl,train]'"
        )

    import bezique_rules.integrations.envs.gymnasium_env  # noqa: F401  (registers the ids)

    torch.set_num_threads(args.threads)
    env = gymnasium.make(
        f"bezique_rules/{args.variant}-v0",
        observation="flat",
        opponent=args.train_opponent,
        seat="random",
        canonical_suits=args.canonical_suits,
    )

    clock = time.process_time if args.cpu else time.monotonic

    class Deadline(BaseCallback):  # type: ignore[misc]
        """Stop training once the time is spent."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.end = clock() + seconds

        def _on_step(self) -> bool:
            return bool(clock() < self.end)

    started, cpu_started = time.monotonic(), time.process_time()
    if args.load:
        model = MaskablePPO.load(args.load, env=env)
        steps = int(model.num_timesteps)
    else:
        model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
        model.learn(total_timesteps=10**9, callback=Deadline(args.minutes * 60))
        steps = int(model.num_timesteps)
        if args.save:
            model.save(args.save)
    wall, cpu = time.monotonic() - started, time.process_time() - cpu_started
    print(
        f"{args.variant}: MaskablePPO (MlpPolicy, defaults), observation='flat'"
        f"{', canonical_suits' if args.canonical_suits else ''}, trained against {args.train_opponent}: "
        f"{steps} steps in {cpu / 60:.1f} CPU min ({wall / 60:.1f} min wall, {args.threads} torch thread(s))"
    )
    print(f"{'opponent':<9} {'win rate':>8}  {'95% interval':<15} {'deals':>5}  named trumps (won)")
    for opponent in OPPONENTS:
        row = evaluate(env.unwrapped, model, opponent, args.deals, args.seed)
        print(row)


def evaluate(env: Any, model: Any, opponent_name: str, pairs: int, seed: int) -> str:
    """Play ``pairs`` paired deals against ``opponent_name``; return the table row."""
    from bezique_rules import new_deal
    from bezique_rules.agents.levels import make_agent

    rules = env.rules
    encoder = env.encoder
    opponent = make_agent(opponent_name)
    seats = [side[0] for side in rules.sides]
    rng = random.Random(seed + 1)
    pair_scores: list[float] = []
    named = named_won = 0
    for _ in range(pairs):
        deal_seed = rng.getrandbits(63)
        dealer = rng.randrange(rules.players)
        score = 0.0
        for seat in seats:
            won, made = play(rules, encoder, model, opponent, new_deal(rules, seed=deal_seed, dealer=dealer), seat)
            score += won
            if made:
                named += 1
                named_won += won == 1.0
        pair_scores.append(score / len(seats))
    mean = statistics.fmean(pair_scores)
    half = 1.96 * statistics.pstdev(pair_scores) / math.sqrt(len(pair_scores))
    deals = pairs * len(seats)
    trumps = "-"
    if rules.bidding is not None:
        trumps = f"{named / deals:6.1%}" + (f" ({named_won / named:.0%})" if named else "")
    interval = f"[{max(0.0, mean - half):.1%}, {min(1.0, mean + half):.1%}]"
    return f"{opponent_name:<9} {mean:>8.1%}  {interval:<15} {deals:>5}  {trumps}"


def play(rules: Any, encoder: Any, model: Any, opponent: Any, deal: Any, seat: int) -> tuple[float, bool]:
    """One deal: the learner at ``seat``, ``opponent`` at every other seat (partners too).
    Returns 1 / ½ / 0 for a win / tie / loss of the learner's side, and whether the learner
    named trumps."""
    agent_rng = random.Random(deal.seed)
    while not deal.is_over:
        player = deal.current_player
        if player == seat:
            observation, mask = encoder.observe(deal, seat)
            action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
            deal = deal.apply(encoder.to_rules_id(deal, seat, int(action)))
        else:
            deal = deal.apply(opponent.choose(deal.view(player), agent_rng))
    scores = deal.scores
    mine = scores[rules.side_of(seat)]
    best_other = max(s for side, s in enumerate(scores) if side != rules.side_of(seat))
    won = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
    return won, deal.view(seat).maker == seat


if __name__ == "__main__":
    main()
