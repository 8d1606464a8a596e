"""A random policy plays Euchre deals in the PettingZoo environment, using the action masks.

Run it with ``python examples/pettingzoo_random_loop.py`` (needs the rl extra:
``pip install 'bezique-rules[rl]'``; without it the script says so and stops). Each
agent picks uniformly among the actions its mask allows; the loop is PettingZoo's
usual agent-environment cycle. It prints, for three seeded deals, the number of steps
and every agent's reward (zero-sum: the two sides' rewards cancel out).
"""

from __future__ import annotations


def main() -> None:
    """Play three seeded deals with a random masked policy and print the rewards."""
    try:
        from bezique_rules.integrations.envs import aec_env

        env = aec_env("euchre")
        import numpy as np  # installed with the rl extra
    except ImportError as exc:
        print(f"skipped: {exc}")
        return
    rng = np.random.default_rng(0)
    for seed in (1, 2, 3):
        env.reset(seed=seed)
        steps = 0
        rewards = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            rewards[agent] += reward
            if terminated or truncated:
                env.step(None)  # a finished agent leaves the cycle
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(rng.choice(legal)))
            steps += 1
        shown = ", ".join(f"{agent} {value:+.2f}" for agent, value in rewards.items())
        print(f"deal {seed}: {steps} steps; rewards {shown}; zero-sum {abs(sum(rewards.values())) < 1e-9}")
    env.close()


if __name__ == "__main__":
    main()
