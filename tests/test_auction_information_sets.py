"""Views of the auction games are true information sets (issue 12 item 5).

What a player sees never depends on cards he cannot see, so `determinize` can deal the
hidden cards of any view into a world whose own record replays (every action checked)
to a deal that every player sees as that world, and that the viewer sees as his view.
"""

from __future__ import annotations

import random

import pytest

from bezique_rules import DealState, Phase, determinize, new_deal, record_of, replay
from bezique_rules.engine.auction import AuctionDeal
from scenario import auction_deal, run

AUCTION_PRESETS = ("auction-pinochle", "partnership-pinochle", "double-deck-pinochle")


def _random_walk(variant: str, seed: int) -> list[DealState]:
    """Every state of a deal played with random legal actions."""
    rng = random.Random(seed)
    state = new_deal(variant, seed=seed)
    states = []
    while not state.is_over:
        states.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize(("variant", "seeds", "every"), [(AUCTION_PRESETS[0], 4, 9), (AUCTION_PRESETS[1], 3, 11),
                                                       (AUCTION_PRESETS[2], 2, 23)])  # fmt: skip
def test_determinized_worlds_replay_to_themselves(variant: str, seeds: int, every: int) -> None:
    """api.md determinize: from any view of a random deal, the guessed world's record replays to that
    world, and the viewer sees it exactly as his view."""
    for seed in range(seeds):
        for state in _random_walk(variant, seed)[::every]:
            for player in range(state.players):
                view = state.view(player)
                guess = determinize(view, random.Random(seed))
                again = replay(record_of(guess))
                assert guess.view(player) == view
                assert all(again.view(q) == guess.view(q) for q in range(state.players))


def test_meld_best_constrains_the_guessed_hands() -> None:
    """After an opponent's ``meld best`` the guessed hands make exactly the melds he laid."""
    s = auction_deal("partnership-pinochle", {1: "QS JD 9S 9S 9D 9D 9C 9C TS TS TD TD"}, pass_cards=0)
    s = run(s, "bid 250; pass; pass; pass; trump H; meld best; meld best")
    for seed in range(10):
        guess = determinize(s.view(0), random.Random(seed))
        again = replay(record_of(guess))
        assert isinstance(guess, AuctionDeal) and isinstance(again, AuctionDeal)
        assert again.meld_points() == guess.meld_points() == s.meld_points()


def test_when_no_guess_fits_determinize_walks_to_a_world_that_still_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12: when no random guess explains the melds seen, determinize walks from the deal by swaps that keep
    them explained (never a world that contradicts the view): with no guesses at all, every world it returns still
    makes exactly the melds laid, replays, and looks to the viewer as his view; the walk moves hidden cards."""
    import bezique_rules.engine.auction.viewer as engine

    monkeypatch.setattr(engine, "_DETERMINIZE_TRIES", 0)
    s = auction_deal("partnership-pinochle", {1: "QS JD 9S 9S 9D 9D 9C 9C TS TS TD TD"}, pass_cards=0)
    s = run(s, "bid 250; pass; pass; pass; trump H; meld best; meld best")
    moved = False
    for seed in range(10):
        guess = determinize(s.view(0), random.Random(seed))
        again = replay(record_of(guess))
        assert isinstance(guess, AuctionDeal) and isinstance(again, AuctionDeal)
        assert again.meld_points() == guess.meld_points() == s.meld_points()
        assert guess.view(0) == s.view(0)
        moved |= guess.hands != s.hands
    assert moved


def test_burial_keeps_only_the_melded_cards_known() -> None:
    """§9 burial: after the declarer buries face down, the others know he still holds the cards his melds
    need, but no longer which widow cards he kept."""
    s = auction_deal("auction-pinochle", {0: "KS QS QS JD AH TH"}, widow="KH QH 9H")
    s = run(s, "bid 350; pass; pass; trump H; meld pinochle QS JD; pass")
    assert {"KH", "QH", "QS", "JD"} <= {str(c) for c in s.view(1).known[0]}
    s = run(s, "discard QS 9H KH")
    assert str(s.view(1).known[0]) == "QS JD"
    assert s.phase is Phase.TRICKS


def test_a_played_copy_is_the_known_one() -> None:
    """Playing one copy of a face of which a copy is known leaves the others knowing one fewer."""
    s = auction_deal("partnership-pinochle", {0: "QS QS JD AS AS AH"}, pass_cards=0)
    s = run(s, "bid 250; pass; pass; pass; trump S; meld pinochle QS JD; pass")
    while s.phase is Phase.MELD:
        s = run(s, "pass")
    assert [str(c) for c in s.view(1).known[0]].count("QS") == 1
    s = run(s, "play QS")
    assert "QS" not in [str(c) for c in s.view(1).known[0]]
