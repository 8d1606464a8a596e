"""Views of the stock games are true information sets (issue 12 item 5).

Every winner of a stock-phase trick gets the declaration decision (a ``pass`` when he has
nothing, or nothing more, to declare), so neither the public history nor the phase sequence
depends on hidden cards; `determinize` can then deal the hidden cards afresh, and the world it
returns replays from its own record to an equal state that the viewer sees as he saw the real one.
"""

from __future__ import annotations

import random

import pytest

from bezique_rules import DealState, Phase, determinize, new_deal, record_of, replay

STOCK_PRESETS = ("bezique", "bezique-match", "pinochle", "rubicon-bezique", "six-pack-bezique", "eight-pack-bezique")


def _random_states(variant: str, seed: int, every: int) -> list[DealState]:
    """Every ``every``-th state of a deal played with random legal actions."""
    rng = random.Random(seed)
    state = new_deal(variant, seed=seed)
    out = []
    step = 0
    while not state.is_over:
        if step % every == 0:
            out.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
        step += 1
    return out


@pytest.mark.parametrize("variant", STOCK_PRESETS)
def test_determinized_worlds_replay_to_themselves(variant: str) -> None:
    """determinize(view): the world's record replays to an equal state (every player sees it alike), and the
    viewer's view of the world is the view."""
    for state in _random_states(variant, seed=3, every=9):
        for player in range(state.players):
            view = state.view(player)
            guess = determinize(view, random.Random(player))
            assert guess.view(player) == view
            hidden = view.stock_size + sum(view.hand_sizes[q] - len(view.known[q]) for q in range(state.players))
            hidden -= view.hand_sizes[player] - len(view.known[player])
            if variant == "six-pack-bezique" and view.cut is not None and hidden < 12:
                continue  # too few hidden cards to deal a world whose own stacked deck cuts the same (known limit)
            record = record_of(guess)
            again = replay(record)
            # equal up to which of two identical copies is which (a record names cards, not copies)
            assert record_of(again) == record and again.scores == guess.scores
            assert all(again.view(q) == guess.view(q) for q in range(state.players))


@pytest.mark.parametrize("variant", STOCK_PRESETS)
def test_every_stock_trick_winner_gets_the_declaration_decision(variant: str) -> None:
    """The phase sequence does not depend on hidden cards: after each stock trick (declaring allowed on it),
    the winner is in Phase.DECLARE, whether or not he can declare anything."""
    rng = random.Random(5)
    state = new_deal(variant, seed=5)
    forced = 0
    while not state.is_over:
        before = state
        state = state.apply(rng.choice(state.legal_actions()))
        ended_trick = before.phase is Phase.PLAY and len(before.view(0).trick) == before.players - 1
        if ended_trick and state.phase is not Phase.PLAYOFF and state.view(0).stock_size + 1 > before.players - 1:
            assert state.phase is Phase.DECLARE
            forced += [str(a) for a in state.legal_actions()] == ["pass"]
    assert forced > 0  # some winners had nothing to declare, and still passed
