"""`what_happened(before, after)`: what a player saw happen between two of his views (issue 25: the one
public way to tell it, on which the games narrate)."""

from __future__ import annotations

import copy
import itertools
import pickle
import random

import pytest

from bezique_rules import (
    Action,
    ArgumentTypeError,
    CardsReceived,
    DealError,
    DealOver,
    DealState,
    Moved,
    TrickWon,
    Verb,
    available_variants,
    new_deal,
    what_happened,
)


def _random_deal(variant: str, seed: int) -> list[DealState]:
    """Every state of one deal played with random legal moves."""
    deal = new_deal(variant, seed=seed)
    rng = random.Random(seed)
    states = [deal]
    while not deal.is_over:
        deal = deal.apply(rng.choice(deal.legal_actions()))
        states.append(deal)
    return states


@pytest.mark.parametrize("variant", available_variants(builtin=True))
def test_events_follow_the_views_of_every_preset(variant: str) -> None:
    """For every seat of a random deal: each move is one `Moved` (as the seat's history shows it); each trick
    completed is one `TrickWon` whose winner is the player whose won cards grew, with the view's last trick as
    its cards; the end of the deal is one `DealOver`; events several moves apart are the single steps'
    moves and tricks in the same order."""
    states = _random_deal(variant, seed=11)
    rng = random.Random(3)
    for player in range(states[0].rules.players):
        views = [s.view(player) for s in states]
        steps = [what_happened(a, b) for a, b in itertools.pairwise(views)]
        for events, a, b in zip(steps, views, views[1:]):
            moved = [e for e in events if isinstance(e, Moved)]
            assert [(e.player, e.action) for e in moved] == list(b.history[len(a.history) :])
            tricks = [e for e in events if isinstance(e, TrickWon)]
            grew = [p for p in range(len(b.won)) if len(b.won[p]) > len(a.won[p])]
            if grew:
                assert len(tricks) == 1 and [tricks[0].player] == grew
                assert tricks[0].cards == b.last_trick and tricks[0].leader == b.last_trick_leader
            else:
                assert tricks == []
            for e in events:
                if isinstance(e, CardsReceived):
                    assert all(c in b.hand for c in e.cards)  # only the viewer's own cards
        assert sum(isinstance(e, DealOver) for events in steps for e in events) == 1
        for _ in range(20):
            i = rng.randrange(len(views))
            j = rng.randrange(i, len(views))
            whole = [e for e in what_happened(views[i], views[j]) if isinstance(e, (Moved, TrickWon))]
            assert whole == [e for events in steps[i:j] for e in events if isinstance(e, (Moved, TrickWon))]


def test_another_seats_discard_is_told_without_its_card() -> None:
    """Issue 25, cause 1: the Euchre dealer's discard reaches the other seats as a bare ``discard``; the
    dealer himself is told his card."""
    start = new_deal("euchre", seed=0)
    deal = start.apply("order-up")  # seat 0 orders up: the dealer (seat 3) takes the turn-up and discards
    deal = deal.apply(deal.legal_actions()[0])
    dealer = start.setup.dealer
    for seat in range(4):
        told = [e for e in what_happened(start.view(seat), deal.view(seat)) if isinstance(e, Moved)]
        assert told[0] == Moved(0, Action.parse("order-up"))
        assert told[1].player == dealer and told[1].action.verb is Verb.DISCARD
        assert bool(told[1].action.cards) == (seat == dealer)
    taken = [e for e in what_happened(start.view(dealer), deal.view(dealer)) if isinstance(e, CardsReceived)]
    up = start.view(0).turn_up
    assert up is not None
    assert taken == [CardsReceived((up,), "turn-up")] or not taken  # unless he discarded it


def test_cards_drawn_and_the_turn_up() -> None:
    """Bezique: the trick's winner's ``pass`` ends the declaring; each player draws one card from the stock
    (the viewer learns only his own), and the last card drawn is the turn-up."""
    deal = new_deal("bezique", seed=1)
    before = deal.view(1)
    deal = deal.apply("play AH").apply("play TS").apply("pass")
    events = what_happened(before, deal.view(1))
    assert events[2] == TrickWon(0, tuple(deal.view(1).last_trick), 0)
    received = [e for e in events if isinstance(e, CardsReceived)]
    assert len(received) == 1 and received[0].source == "stock" and len(received[0].cards) == 1
    states = _random_deal("bezique", seed=1)
    sources = {e.source for p in (0, 1) for a, b in itertools.pairwise(states)
               for e in what_happened(a.view(p), b.view(p)) if isinstance(e, CardsReceived)}  # fmt: skip
    assert sources == {"stock", "turn-up"}


def test_bad_arguments_are_refused_clearly() -> None:
    """Two views of different players, views out of order, or something that is not a view: our errors."""
    deal = new_deal("bezique", seed=1)
    later = deal.apply(deal.legal_actions()[0])
    with pytest.raises(DealError, match="one player"):
        what_happened(deal.view(0), later.view(1))
    with pytest.raises(DealError, match="later view"):
        what_happened(later.view(0), deal.view(0))
    with pytest.raises(ArgumentTypeError, match="PlayerView"):
        what_happened(deal, later.view(0))  # type: ignore[arg-type]


def test_events_are_values() -> None:
    """Events compare, hash, copy and pickle as values."""
    states = _random_deal("partnership-pinochle", seed=2)
    events = what_happened(states[0].view(0), states[-1].view(0))
    assert events and pickle.loads(pickle.dumps(events)) == events == copy.deepcopy(events)
    assert len({hash(e) for e in events}) > 1
    assert all(str(e) for e in events)
