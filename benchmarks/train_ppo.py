"""Train sb3-contrib's MaskablePPO on a Gymnasium environment for a given time, then measure it.

Usage::

    pip install 'bezique-rules[rl,train]'   # sb3-contrib and torch (CPU wheels are enough)
    python benchmarks/train_ppo.py schnapsen --minutes 10 [--cpu] [--train-opponent level2]
        [--deals 500] [--canonical-suits] [--trick-features] [--observation flat]
        [--seed 0] [--threads 1] [--save model.zip]
        [--sb3-defaults | --envs 8 --n-steps 256 --batch-size 256 --epochs 10 --lr 3e-4
         --ent-coef 0.01 --gamma 1.0 --net 128,128]

The learner is made with nothing but ``gymnasium.make("bezique_rules/<preset>-v0",
observation="flat", opponent=..., seat="random", canonical_suits=..., trick_features=...)``
and ``MaskablePPO("MlpPolicy", env, ...)``. With ``--sb3-defaults`` every setting is
sb3-contrib's default (one environment, 2,048 steps per update in mini-batches of 64, a
64x64 network, no entropy bonus, discount 0.99). Otherwise the settings are those of
`TUNED` (each can be changed by its flag): eight environments stepped together (the policy
then runs on eight observations at once: about a quarter of the CPU time of a
single-environment run went into one-observation forward passes), the same 2,048 steps per
update in mini-batches of 256, a 128x128 network, an entropy bonus of 0.01 (so the learner
keeps trying to name trumps instead of settling on passing) and no discount (an episode is
one deal, scored at its end).
Training stops after ``--minutes`` of wall time, or of this process's CPU
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

TUNED: dict[str, Any] = {
    "envs": 8,
    "n_steps": 256,
    "batch_size": 256,
    "epochs": 10,
    "lr": 3e-4,
    "ent_coef": 0.01,
    "gamma": 1.0,
    "net": "128,128",
}
"""The settings used unless ``--sb3-defaults`` is given (see the module docs)."""

SB3_DEFAULTS: dict[str, Any] = {
    "envs": 1,
    "n_steps": 2048,
    "batch_size": 64,
    "epochs": 10,
    "lr": 3e-4,
    "ent_coef": 0.0,
    "gamma": 0.99,
    "net": "64,64",
}
"""sb3-contrib's own defaults for ``MaskablePPO("MlpPolicy", env)`` (``--sb3-defaults``)."""


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
    parser.add_argument(
        "--trick-features", action="store_true", help="who is winning the trick and which cards would win it"
    )
    parser.add_argument(
        "--observation", default="flat", choices=("flat", "information_state"), help="what the learner observes"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--save", default=None, help="save the trained model there")
    parser.add_argument("--load", default=None, help="evaluate a saved model instead of training")
    parser.add_argument(
        "--sb3-defaults", action="store_true", help="sb3-contrib's default settings (the flags below are ignored)"
    )
    parser.add_argument("--envs", type=int, default=TUNED["envs"], help="environments stepped together")
    parser.add_argument("--n-steps", type=int, default=TUNED["n_steps"], help="steps per environment per update")
    parser.add_argument("--batch-size", type=int, default=TUNED["batch_size"], help="mini-batch size")
    parser.add_argument("--epochs", type=int, default=TUNED["epochs"], help="passes over each update's steps")
    parser.add_argument("--lr", type=float, default=TUNED["lr"], help="learning rate")
    parser.add_argument("--ent-coef", type=float, default=TUNED["ent_coef"], help="entropy bonus")
    parser.add_argument("--gamma", type=float, default=TUNED["gamma"], help="discount")
    parser.add_argument("--net", default=TUNED["net"], help="hidden layer sizes, comma-separated")
    args = parser.parse_args()
    settings = (
        dict(SB3_DEFAULTS)
        if args.sb3_defaults
        else {
            "envs": args.envs,
            "n_steps": args.n_steps,
            "batch_size": args.batch_size,
            "epochs": args.epochs,
            "lr": args.lr,
            "ent_coef": args.ent_coef,
            "gamma": args.gamma,
            "net": args.net,
        }
    )
    try:
        import gymnasium
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
        from stable_baselines3.common.monitor import Monitor
        from stable_baselines3.common.vec_env import DummyVecEnv
    except ImportError as exc:
        sys.exit(
            f"train_ppo.py needs sb3-contrib and torch ({exc.name} is missing): pip install 'bezique-rules[rl,train]'"
        )

    import bezique_rules.integrations.envs.gymnasium_env  # noqa: F401  (registers the ids)

    torch.set_num_threads(args.threads)
    make_kwargs = {
        "observation": args.observation,
        "opponent": args.train_opponent,
        "seat": "random",
        "canonical_suits": args.canonical_suits,
        "trick_features": args.trick_features,
    }
    env_id = f"bezique_rules/{args.variant}-v0"
    env = gymnasium.make(env_id, **make_kwargs)  # the evaluation's rules and encoder
    train_env = DummyVecEnv([lambda: Monitor(gymnasium.make(env_id, **make_kwargs))] * settings["envs"])
    train_env.seed(args.seed)  # environment k is reset with the seed seed + k

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
        model = MaskablePPO.load(args.load, env=train_env)
        steps = int(model.num_timesteps)
    else:
        model = MaskablePPO(
            "MlpPolicy",
            train_env,
            n_steps=settings["n_steps"],
            batch_size=settings["batch_size"],
            n_epochs=settings["epochs"],
            learning_rate=settings["lr"],
            ent_coef=settings["ent_coef"],
            gamma=settings["gamma"],
            policy_kwargs={"net_arch": [int(size) for size in str(settings["net"]).split(",")]},
            seed=args.seed,
            verbose=0,
        )
        model.learn(total_timesteps=10**9, callback=Deadline(args.minutes * 60))
        steps = int(model.num_timesteps)
        if args.save:
            model.save(args.save)
    wall, cpu = time.monotonic() - started, time.process_time() - cpu_started
    described = "sb3 defaults" if args.sb3_defaults else ", ".join(f"{key}={value}" for key, value in settings.items())
    print(
        f"{args.variant}: MaskablePPO (MlpPolicy, {described}), observation={args.observation!r}"
        f"{', canonical_suits' if args.canonical_suits else ''}"
        f"{', trick_features' if args.trick_features else ''}, trained against {args.train_opponent}: "
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
