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


def _late_six_pack_state() -> DealState:
    """A six-pack deal after the cut is guessed, played on with random actions until the stock is gone."""
    rng = random.Random(11)
    state = new_deal("six-pack-bezique", seed=11)
    while state.phase is not Phase.PLAYOFF:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_late_six_pack_world_keeps_the_public_cut_and_its_record_carries_it() -> None:
    """Six-pack's cut is public after the guess: a world dealt with a handful of hidden cards keeps the real
    cut, and its record gives it as ``cut_packet`` (the stacked deck order alone would give another), so the
    record replays to the world."""
    state = _late_six_pack_state()
    view = state.view(0)
    assert view.cut is not None
    carried = 0
    for k in range(40):
        world = determinize(view, random.Random(k))
        assert world.view(0).cut == view.cut
        record = record_of(world)
        carried += "cut_packet" in record
        again = replay(record)
        assert record_of(again) == record and again.scores == world.scores
        assert again.view(0) == view
    assert carried > 0  # most stacked orders cut otherwise: the record must say the cut


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cut_packet": 40}, "from 12 to 36"),
        ({"cut_packet": True}, "from 12 to 36"),
        ({"cut_packet": "24"}, "from 12 to 36"),
    ],
)
def test_a_bad_cut_packet_is_refused(change: dict[str, object], message: str) -> None:
    """A record's cut_packet must be a whole number within the cut's range (RecordError quoting it)."""
    from bezique_rules.errors import RecordError

    record = record_of(determinize(_late_six_pack_state().view(1), random.Random(0)))
    with pytest.raises(RecordError, match=message):
        replay({**record, **change})


def test_a_cut_packet_needs_a_deck_list_and_a_variant_with_a_cut() -> None:
    """cut_packet is refused with a seed (the seed gives the cut) and in a variant without a random cut."""
    from bezique_rules.errors import RecordError

    seeded = record_of(new_deal("six-pack-bezique", seed=2))
    with pytest.raises(RecordError, match="only with its deck list"):
        replay({**seeded, "cut_packet": 20})
    stacked = record_of(determinize(new_deal("bezique", seed=2).view(0), random.Random(0)))
    with pytest.raises(RecordError, match="no random cut"):
        replay({**stacked, "cut_packet": 20})
