"""What the PettingZoo environment adds to the cost of a step, against the plain API (target: at most 30%).

Usage::

    python benchmarks/bench_envs.py [--deals 40] [--repeat 9] [--variant euchre ...] [--no-observe]

Needs the ``[rl]`` extra. Every preset by default (``--variant`` picks some). The same
deals are played with the same random choices, one deal at a time, through the plain
API and through the environment, alternately (so that a change in the machine's load
hits both alike):

- *plain*: ``new_deal``, then per step ``current_player``, ``legal_action_ids()``, a
  random choice, ``apply()``, and at the end the deal's ``scores`` (the outcome, from
  which the environment pays its rewards);
- *AEC*: PettingZoo's documented loop, ``env.reset(seed=k)``, ``for agent in
  env.agent_iter()``, ``env.last(observe=False)``, ``env.step(None)`` for the finished
  agents, else a random choice among ``env.state_now.legal_action_ids()`` and
  ``env.step()``: what the environment adds to stepping (the reset, the iterator,
  ``last()``, the finished agents' steps, the rewards);
- and, with observations on both sides (unless ``--no-observe``), *plain + encode*
  (``observation_tensor()`` of the player to act and ``legal_action_mask()`` at each step,
  and every player's final ``observation_tensor()``, which ``last()`` gives each finished
  agent) against *AEC + observe*, the loop of the PettingZoo how-to page: ``env.last()``
  (the float32 observation and the int8 mask) and the choice among ``numpy.flatnonzero``
  of the mask.

A round plays ``--deals`` deals both ways; its ratio is the AEC time over the plain time.
The median ratio of ``--repeat`` rounds is printed, with the lowest and the highest. Times
are CPU time of this process (``time.process_time``), with the garbage collector paused
while a deal is timed, as other processes on a shared machine disturb wall-clock times.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

import numpy as np

from bezique_rules import available_variants, get_rules, new_deal
from bezique_rules.integrations.envs import aec_env
from bezique_rules.integrations.envs.pettingzoo_env import BeziqueAECEnv


def plain(variant: str, k: int, observe: bool) -> tuple[float, int]:
    """Seconds and steps of deal ``k`` through the plain API."""
    clock = time.process_time
    start = clock()
    deal = new_deal(variant, seed=random.Random(k).getrandbits(63))  # the deal of env.reset(seed=k)
    rng = random.Random(k)
    steps = 0
    while not deal.is_over:
        player = deal.current_player  # who acts: a multi-agent loop needs it
        assert player is not None
        if observe:
            deal.view(player).observation_tensor()
            deal.legal_action_mask()
        ids = deal.legal_action_ids()
        deal = deal.apply(ids[rng.randrange(len(ids))])
        steps += 1
    _outcome = deal.scores  # what the environment reads once, to pay the rewards
    if observe:  # every player's final observation, as last() gives it to each finished agent
        for player in range(deal.rules.players):
            deal.view(player).observation_tensor()
    return clock() - start, steps


def aec(env: BeziqueAECEnv, k: int, observe: bool) -> tuple[float, int]:
    """Seconds and steps of deal ``k`` through PettingZoo's AEC loop (the same deal and choices)."""
    clock = time.process_time
    start = clock()
    env.reset(seed=k)
    rng = random.Random(k)
    steps = 0
    for _agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last(observe=observe)
        if terminated or truncated:
            env.step(None)
            continue
        if observation is not None:  # the how-to page's loop: the legal ids from the mask
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        else:
            ids = env.state_now.legal_action_ids()
            env.step(ids[rng.randrange(len(ids))])
        steps += 1
    return clock() - start, steps


def rounds(variant: str, deals: int, observe: bool, repeat: int) -> tuple[list[float], float, float]:
    """Per round, the ratio AEC / plain; and the best plain and AEC times per step (µs)."""
    env = aec_env(variant, dealer=get_rules(variant).players - 1)  # the plain deals' dealer (new_deal's default)
    ratios: list[float] = []
    best_plain = best_aec = float("inf")
    for r in range(repeat + 1):  # round 0 warms up
        plain_s = aec_s = 0.0
        plain_n = aec_n = 0
        for k in range(deals):
            gc.collect()
            gc.disable()
            try:
                if k % 2:  # alternate which goes first
                    s1, n1 = plain(variant, k, observe)
                    s2, n2 = aec(env, k, observe)
                else:
                    s2, n2 = aec(env, k, observe)
                    s1, n1 = plain(variant, k, observe)
            finally:
                gc.enable()
            assert n1 == n2, "the two loops played different deals"
            plain_s, plain_n, aec_s, aec_n = plain_s + s1, plain_n + n1, aec_s + s2, aec_n + n2
        if r:
            ratios.append(aec_s / plain_s)
            best_plain = min(best_plain, plain_s / plain_n * 1e6)
            best_aec = min(best_aec, aec_s / aec_n * 1e6)
    return ratios, best_plain, best_aec


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--variant", action="append", help="default: every preset")
    parser.add_argument("--no-observe", action="store_true", help="only the stepping figures")
    args = parser.parse_args()
    head = f"{'variant':<22} {'plain µs':>9} {'AEC µs':>9} {'ratio (min-max)':>19}"
    if not args.no_observe:
        head += f"   {'+encode µs':>10} {'+observe µs':>11} {'ratio (min-max)':>19}"
    print(head)
    worst = 0.0
    for variant in args.variant or available_variants(builtin=True):
        ratios, p, a = rounds(variant, args.deals, False, args.repeat)
        median = statistics.median(ratios)
        worst = max(worst, median)
        line = f"{variant:<22} {p:>9.1f} {a:>9.1f} {median:>6.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        if not args.no_observe:
            ratios, po, ao = rounds(variant, args.deals, True, args.repeat)
            median = statistics.median(ratios)
            line += f"   {po:>10.1f} {ao:>11.1f} {median:>6.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        print(line, flush=True)
    print(f"highest median stepping ratio: {worst:.2f} (target: at most 1.30)")


if __name__ == "__main__":
    main()
