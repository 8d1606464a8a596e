"""Self-play in the PettingZoo environment: a policy learns against a frozen copy of itself.

Run it with ``python examples/pettingzoo_self_play.py [--episodes 300] [--variant schnapsen]``
(needs the rl extra: ``pip install 'bezique-rules[rl]'``; without it the script says so
and stops). Numpy only, no deep-learning framework: the policy is a softmax over the legal
actions of a linear score ``W[a] · observation``, trained by REINFORCE (the deal's reward
times the gradient of the log-probability of each action taken, with a running baseline).

Each deal of the AEC environment seats the learning policy at a random seat and a frozen
copy of the policy at the others; every ``--refresh`` deals the frozen copy is replaced by
a copy of the current weights, so the learner always plays a recent version of itself.
Finally the learned policy plays paired deals (the same cards, the seats swapped) against
the first snapshot (the untrained, uniform policy) and prints its win rate.
"""

from __future__ import annotations

import argparse
from typing import Any

STEP_SIZE, REFRESH, EVALUATE = 0.05, 50, 100


def main() -> None:
    """Train by self-play against a frozen copy, then measure against the untrained policy."""
    parser = argparse.ArgumentParser(description="self-play with a frozen opponent (numpy REINFORCE)")
    parser.add_argument("--variant", default="schnapsen")
    parser.add_argument("--episodes", type=int, default=300, help="training deals")
    parser.add_argument("--refresh", type=int, default=REFRESH, help="deals between snapshots of the frozen copy")
    args = parser.parse_args()
    try:
        from bezique_rules.integrations.envs import aec_env

        env = aec_env(args.variant, observation="flat", canonical_suits=True)
        import numpy as np  # installed with the rl extra
    except ImportError as exc:
        print(f"skipped: {exc}")
        return
    rng = np.random.default_rng(0)
    size = env.observation_space(env.possible_agents[0]).shape[0]
    actions = env.action_space(env.possible_agents[0]).n
    weights = np.zeros((actions, size))
    frozen = weights.copy()
    untrained = weights.copy()

    def policy(w: Any, observation: Any, mask: Any) -> tuple[int, Any, Any]:
        """Sample an action among the legal ones; return it, the legal ids and their probabilities."""
        legal = np.flatnonzero(mask)
        scores = w[legal] @ observation
        p = np.exp(scores - scores.max())
        p /= p.sum()
        return int(legal[rng.choice(len(legal), p=p)]), legal, p

    def deal(seed: int, learner: int, opponent_weights: Any, learn: bool) -> float:
        """One deal: the learner at seat ``learner``, ``opponent_weights`` at the others."""
        env.reset(seed=seed)
        taken: list[tuple[Any, Any, Any, int]] = []
        final = learner_reward = 0.0
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            seat = env.possible_agents.index(agent)
            if terminated or truncated:
                if seat == learner:
                    final = float(info["winner"] == env.rules.side_of(learner)) if info["winner"] is not None else 0.5
                    learner_reward = reward
                env.step(None)
                continue
            w = weights if seat == learner else opponent_weights
            action, legal, p = policy(w, observation, info["action_mask"])
            if seat == learner and learn:
                taken.append((observation, legal, p, action))
            env.step(action)
        if learn:
            update(taken, learner_reward)
        return final

    baseline = [0.0]

    def update(taken: list[tuple[Any, Any, Any, int]], reward: float) -> None:
        advantage = reward - baseline[0]
        baseline[0] += 0.05 * (reward - baseline[0])
        for observation, legal, p, action in taken:
            grad = -np.outer(p, observation)  # d log pi(action) / d W[legal]
            grad[list(legal).index(action)] += observation
            weights[legal] += STEP_SIZE * advantage * grad

    snapshots = 0
    for episode in range(args.episodes):
        if episode % args.refresh == 0:
            frozen = weights.copy()
            snapshots += 1
        deal(10_000 + episode, int(rng.integers(env.max_num_agents)), frozen, learn=True)
    wins = [deal(seed, seat, untrained, learn=False) for seed in range(EVALUATE) for seat in range(env.max_num_agents)]
    print(f"{args.variant}: {args.episodes} self-play deals against a frozen copy ({snapshots} snapshots)")
    print(f"win rate of the learned policy against the untrained one: {np.mean(wins):.1%} over {len(wins)} deals")
    env.close()


if __name__ == "__main__":
    main()
