"""A linear learner sketch: Monte Carlo value learning over the observation tensor, in the Gymnasium environment.

Run it with ``python examples/linear_learner.py`` (needs the rl extra:
``pip install 'bezique-rules[rl]'``; without it the script says so and stops). The
learner holds seat 0 of a Euchre deal (its partner and the opponents are random
players). Its action value is linear in the observation, ``Q(s, a) = W[a] · s``; it
plays epsilon-greedily among the legal actions (the mask) and, after each deal, moves
the value of each action it took towards the deal's reward. This is a sketch of the
plumbing (observation, mask, reward), not a strong player. It prints the mean reward
of the greedy learner and of a random policy on the same 200 evaluation deals.
"""

from __future__ import annotations

from typing import Any

TRAIN, EVALUATE, STEP_SIZE, EPSILON = 800, 200, 0.01, 0.2


def main() -> None:
    """Train, then evaluate the greedy policy against a random one on the same deals."""
    try:
        from bezique_rules.integrations.envs import gym_env

        env = gym_env("euchre", opponent="random", seat=0)
        import numpy as np  # installed with the rl extra
    except ImportError as exc:
        print(f"skipped: {exc}")
        return
    rng = np.random.default_rng(0)
    size = env.observation_space["observation"].shape[0]
    weights = np.zeros((env.action_space.n, size))

    def choose(obs: dict[str, Any], explore: float) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        if rng.random() < explore:
            return int(rng.choice(legal))
        return int(legal[np.argmax(weights[legal] @ obs["observation"])])

    def play(seed: int, explore: float, learn: bool) -> float:
        obs, _ = env.reset(seed=seed)
        taken: list[tuple[int, Any]] = []
        done, reward = False, 0.0
        while not done:
            action = choose(obs, explore)
            taken.append((action, obs["observation"]))
            obs, reward, done, _truncated, _info = env.step(action)
        if learn:
            for action, features in taken:
                weights[action] += STEP_SIZE * (reward - weights[action] @ features) * features
        return float(reward)

    for episode in range(TRAIN):
        play(10_000 + episode, EPSILON, learn=True)
    greedy = np.mean([play(seed, 0.0, learn=False) for seed in range(EVALUATE)])
    random_policy = np.mean([play(seed, 1.0, learn=False) for seed in range(EVALUATE)])
    print(f"trained on {TRAIN} deals of euchre (seat 0, random partner and opponents)")
    print(f"mean reward over {EVALUATE} deals: greedy learner {greedy:+.3f}, random policy {random_policy:+.3f}")
    print(f"weights learned for {int(np.count_nonzero(weights.any(axis=1)))} of {env.action_space.n} actions")


if __name__ == "__main__":
    main()
