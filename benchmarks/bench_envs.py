"""What the PettingZoo environment adds to the cost of a step, against the plain API (target: at most 30%).

Usage::

    python benchmarks/bench_envs.py [--deals 40] [--repeat 5] [--variant bezique --variant euchre]

Needs the ``[rl]`` extra. The same deals are played with the same random choices
three ways, and the best of ``--repeat`` runs is kept (plain and AEC
alternate, run by run):

- *plain*: ``current_player``, ``legal_action_ids()``, a random choice, ``apply()``;
- *AEC*: PettingZoo's loop, ``env.last(observe=False)``, a random choice among the
  deal's legal ids, ``env.step()`` (what the environment adds to stepping);
- and, with observations on both sides, *plain + encode* (``observation_tensor()`` of
  the player to act and ``legal_action_mask()``) against *AEC + observe*
  (``env.last()``: the float32 observation and the int8 mask).

The ratios AEC / plain are printed; stepping is the figure the target applies to. Times
are CPU time of this process (``time.process_time``), the best of ``--repeat`` runs, as
other processes on a shared machine disturb wall-clock times.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bezique_rules import new_deal
from bezique_rules.envs import aec_env


def plain(variant: str, deals: int, observe: bool) -> tuple[float, int]:
    """Seconds and steps of ``deals`` deals through the plain API."""
    steps = 0
    start = time.process_time()
    for k in range(deals):
        deal = new_deal(variant, seed=random.Random(k).getrandbits(63))  # the deal of env.reset(seed=k)
        rng = random.Random(k)
        while not deal.is_over:
            player = deal.current_player  # who acts: a multi-agent loop needs it
            assert player is not None
            if observe:
                deal.view(player).observation_tensor()
                deal.legal_action_mask()
            ids = deal.legal_action_ids()
            deal = deal.apply(ids[rng.randrange(len(ids))])
            steps += 1
    return time.process_time() - start, steps


def aec(variant: str, deals: int, observe: bool) -> tuple[float, int]:
    """Seconds and steps of ``deals`` deals through PettingZoo's AEC loop (the same deals and choices)."""
    env = aec_env(variant)
    steps = 0
    start = time.process_time()
    for k in range(deals):
        env.reset(seed=k)
        rng = random.Random(k)
        for _agent in env.agent_iter():
            _obs, _reward, terminated, truncated, _info = env.last(observe=observe)
            if terminated or truncated:
                env.step(None)
                continue
            ids = env.state_now.legal_action_ids()
            env.step(ids[rng.randrange(len(ids))])
            steps += 1
    return time.process_time() - start, steps


Runner = Callable[[str, int, bool], tuple[float, int]]


def best_pair(
    first: Runner, second: Runner, variant: str, deals: int, observe: bool, repeat: int
) -> tuple[float, float]:
    """The best time per step (µs) of each runner over ``repeat`` rounds, the two runs of a
    round back to back (so that a change in the machine's load affects both alike)."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for fn, out in ((first, times[0]), (second, times[1])):
            seconds, steps = fn(variant, deals, observe)
            out.append(seconds / steps * 1e6)
    return min(times[0]), min(times[1])


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--variant", action="append", help="default: bezique and euchre")
    args = parser.parse_args()
    head = f"{'variant':<16} {'plain µs':>9} {'AEC µs':>9} {'ratio':>6}   {'+encode µs':>10} {'+observe µs':>11}"
    print(head + f" {'ratio':>6}")
    for variant in args.variant or ["bezique", "euchre"]:
        p, a = best_pair(plain, aec, variant, args.deals, False, args.repeat)
        po, ao = best_pair(plain, aec, variant, args.deals, True, args.repeat)
        print(f"{variant:<16} {p:>9.1f} {a:>9.1f} {a / p:>6.2f}   {po:>10.1f} {ao:>11.1f} {ao / po:>6.2f}")


if __name__ == "__main__":
    main()
