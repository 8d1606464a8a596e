"""Play a short bezique-match match between two computer players and print the result.

Run it with ``python examples/agent_match.py``. Level 4 (the full heuristic) plays
against level 2 (the weak heuristic): each agent sees only its own view and
draws its randomness from its own seeded `random.Random`, so the run is the
same every time. It prints each deal's scores and the winner of the match.
"""

from __future__ import annotations

import random

from bezique_rules import new_game
from bezique_rules.agents import Agent, level

SEED = 7


def main() -> None:
    """Play one match, seat 0 against seat 1, and print what happened."""
    agents: list[Agent] = [level(4), level(2)]
    names = ["level 4 (full heuristic)", "level 2 (weak heuristic)"]
    rngs = [random.Random(f"{SEED}:{seat}") for seat in range(2)]
    game = new_game("bezique-match", seed=SEED)
    print(f"bezique-match, seed {SEED}: {names[0]} (seat 0, leads) against {names[1]} (seat 1)")
    while not game.is_over:
        player = game.current_player
        assert player is not None
        action = agents[player].choose(game.view(player), rngs[player])
        before = len(game.results)
        game = game.apply(action)
        if len(game.results) > before:
            scores = game.results[-1].scores
            print(f"  deal {len(game.results)}: {names[0]} {scores[0]}, {names[1]} {scores[1]}")
    print(f"match totals: {game.totals[0]} to {game.totals[1]}")
    print("winner: " + ("a draw" if game.winner is None else names[game.winner]))


if __name__ == "__main__":
    main()
