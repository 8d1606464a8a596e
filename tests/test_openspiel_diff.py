"""The ``euchre-openspiel`` preset against OpenSpiel's ``euchre`` (reference.md §13), and the id mappings.

The differential tests drive both engines with the same chance outcomes (the
dealer, the 20 cards dealt one at a time, the up-card) and the same random
decisions, and assert at every step the same player to act, the same sorted
legal OpenSpiel action ids and, at the end, the same returns (§13.5), for all
four parameter combinations. They need ``pyspiel`` and skip without it; the unit
tests of `bezique_rules.integrations.openspiel` below them do not.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique_rules import (
    Action,
    Card,
    IllegalActionError,
    NotationError,
    Phase,
    RuleCode,
    Verb,
    new_deal,
)
from bezique_rules.engine.euchre import EuchreDeal
from bezique_rules.integrations.openspiel import (
    card_from_openspiel,
    deck_from_openspiel,
    from_openspiel_action,
    openspiel_card,
    openspiel_returns,
    to_openspiel_action,
)
from scenario import euchre_deal, run

DEALS = 100
"""Deals per parameter combination in the differential test."""

PARAMS = [(False, False), (False, True), (True, False), (True, True)]
"""(allow_lone_defender, stick_the_dealer): all four combinations (§13.1)."""


@pytest.fixture(scope="module")
def pyspiel() -> Any:
    """OpenSpiel's Python module; the differential tests skip when it is not installed."""
    return pytest.importorskip("pyspiel")


def ours_from_chance(dealer: int, cards: list[int], allow: bool, stick: bool) -> EuchreDeal:
    """Our deal for OpenSpiel's chance outcomes: ``dealer`` and the 21 card ids (20 dealt, then the up-card)."""
    state = new_deal(
        "euchre-openspiel",
        deck=deck_from_openspiel(cards),
        dealer=dealer,
        allow_lone_defender=allow,
        stick_the_dealer=stick,
    )
    assert isinstance(state, EuchreDeal)
    return state


def our_ids(state: EuchreDeal) -> list[int]:
    """Our legal actions as sorted OpenSpiel ids."""
    return sorted(to_openspiel_action(state, a) for a in state.legal_actions())


@pytest.mark.parametrize(("allow", "stick"), PARAMS)
def test_same_players_legal_actions_and_returns_as_openspiel(pyspiel: Any, allow: bool, stick: bool) -> None:
    """§13.5: with the same chance outcomes and decisions, the same player, legal ids and returns at every step."""
    game = pyspiel.load_game("euchre", {"allow_lone_defender": allow, "stick_the_dealer": stick})
    lengths = []
    outcomes: set[str] = set()
    for k in range(DEALS):
        rng = random.Random(1000 * k + 2 * allow + stick)
        theirs = game.new_initial_state()
        dealer = rng.choice(theirs.legal_actions())
        theirs.apply_action(dealer)
        cards = []
        for _ in range(21):
            assert theirs.is_chance_node()
            card = rng.choice(theirs.legal_actions())
            cards.append(card)
            theirs.apply_action(card)
        ours = ours_from_chance(dealer, cards, allow, stick)
        bias = 0.85 if k % 2 else 0.0  # every other deal passes a lot: round two, stuck dealers, misdeals
        steps = 0
        while not theirs.is_terminal():
            assert not ours.is_over
            assert ours.current_player == theirs.current_player()
            assert our_ids(ours) == sorted(theirs.legal_actions())
            options = theirs.legal_actions()
            action_id = 24 if 24 in options and rng.random() < bias else rng.choice(options)
            action = from_openspiel_action(ours, action_id)
            assert ours.is_legal(action)
            assert to_openspiel_action(ours, action) == action_id
            ours = ours.apply(action)
            theirs.apply_action(action_id)
            steps += 1
        assert ours.is_over and ours.current_player is None
        assert openspiel_returns(ours) == tuple(int(r) for r in theirs.returns())
        lengths.append(steps)
        outcomes.add(
            "thrown in" if ours.maker is None else "round two" if ours.core.bidding.round == 2 else "round one"
        )
    assert max(lengths) <= 8 + 1 + 2 * allow + 20  # §13.1 MaxGameLength
    assert outcomes == ({"round one", "round two"} if stick else {"round one", "round two", "thrown in"})


def test_openspiel_game_parameters_match_the_preset_options(pyspiel: Any) -> None:
    """§13.1: OpenSpiel's euchre has exactly the two parameters of the preset, with the same defaults."""
    game = pyspiel.load_game("euchre")
    params = game.get_parameters()
    assert params["allow_lone_defender"] is False and params["stick_the_dealer"] is True
    assert game.num_distinct_actions() == 31
    deal = new_deal("euchre-openspiel", seed=1)
    assert dict(deal.rules.options) == {"allow_lone_defender": False, "stick_the_dealer": True}


# -- unit tests of the mappings (no pyspiel needed) ---------------------------------------------------

ALL_CARDS = [r + s for r in "9TJQKA" for s in "CDHS"]
"""OpenSpiel's card order: id = rank * 4 + suit, suits C D H S, ranks 9 T J Q K A."""


def test_openspiel_card_ids() -> None:
    """§13.2: card id = rank*4 + suit with suits C D H S = 0-3 and ranks 9 T J Q K A = 0-5."""
    for i, code in enumerate(ALL_CARDS):
        card = Card.parse(code)
        assert openspiel_card(card) == i
        assert card_from_openspiel(i) == card
    assert openspiel_card(Card.parse("9C")) == 0
    assert openspiel_card(Card.parse("JH")) == 10
    assert openspiel_card(Card.parse("AS")) == 23


@pytest.mark.parametrize("code", ["JK", "8S", "7H", "2S"])
def test_openspiel_card_refuses_cards_outside_the_24_card_pack(code: str) -> None:
    """§13.2: only the 24 cards 9-A exist in OpenSpiel: the joker, eights, sevens and 2S raise NotationError."""
    with pytest.raises(NotationError):
        openspiel_card(Card.parse(code))


@pytest.mark.parametrize("bad", [24, -1, 100, "3", None, 2.0])
def test_card_from_openspiel_refuses_bad_ids(bad: Any) -> None:
    """card_from_openspiel accepts only the ints 0-23."""
    with pytest.raises(NotationError):
        card_from_openspiel(bad)


def test_deck_from_openspiel_stacks_dealt_cards_then_upcard_then_the_rest() -> None:
    """deck_from_openspiel: the 21 chance cards in order, then the 3 unseen cards in id order."""
    chance = [23, 5, 0, 7, 12, 1, 2, 3, 4, 6, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18, 22]
    deck = deck_from_openspiel(chance)
    assert [str(c) for c in deck] == [ALL_CARDS[i] for i in chance] + ["KS", "AC", "AD"]
    state = new_deal("euchre-openspiel", deck=deck, dealer=2)
    for seat in range(4):  # §13.3: the i-th dealt card goes to (dealer + i) % 4
        want = {ALL_CARDS[chance[i]] for i in range(20) if (2 + i) % 4 == seat}
        assert {str(c) for c in state.view(seat).hand} == want
    assert str(state.view(0).turn_up) == "AH"


@pytest.mark.parametrize(
    "bad",
    [list(range(20)), list(range(22)), [*range(20), 0], [*range(20), 24], [*range(20), -1]],
    ids=["20-ids", "22-ids", "repeat", "id-24", "id-minus-1"],
)
def test_deck_from_openspiel_refuses_bad_chance_outcomes(bad: list[int]) -> None:
    """deck_from_openspiel: not 21 distinct ids 0-23 raises NotationError."""
    with pytest.raises(NotationError):
        deck_from_openspiel(bad)


def walk(seed: int, allow: bool = True, stick: bool = True) -> list[EuchreDeal]:
    """Every state of a random euchre-openspiel deal."""
    rng = random.Random(seed)
    s = new_deal("euchre-openspiel", seed=seed, dealer=seed % 4, allow_lone_defender=allow, stick_the_dealer=stick)
    assert isinstance(s, EuchreDeal)
    states = [s]
    while not s.is_over:
        actions = s.legal_actions()
        passes = [a for a in actions if a.verb is Verb.PASS and s.phase is Phase.BID]
        s = s.apply(passes[0] if passes and rng.random() < 0.6 else rng.choice(actions))
        states.append(s)
    return states


@pytest.mark.parametrize("seed", range(12))
def test_action_id_round_trips(seed: int) -> None:
    """from_openspiel_action(s, to_openspiel_action(s, a)) == a for every legal a; ids distinct and in 0-30."""
    for state in walk(seed, allow=seed % 2 == 0, stick=seed % 3 != 0):
        ids = [to_openspiel_action(state, a) for a in state.legal_actions()]
        assert len(set(ids)) == len(ids) and all(0 <= i <= 30 for i in ids)
        for a, i in zip(state.legal_actions(), ids):
            assert from_openspiel_action(state, i) == a
            assert to_openspiel_action(state, str(a)) == i


STRONG = {0: "JH JD AH KH QH", 1: "AS KS QS TS 9S", 2: "AD KD QD TD 9D", 3: "AC KC QC TC 9C"}


def stacked(**options: Any) -> EuchreDeal:
    """A euchre-openspiel deal (dealer 3) with the turn-up 9H."""
    return euchre_deal("euchre-openspiel", STRONG, "9H", "TH JS JC", **options)


def test_named_action_ids() -> None:
    """§13.2: 24 Pass, 25-28 the suits C D H S (order up = the up-card's suit), 29 Alone, 30 Partner, cards 0-23."""
    d = stacked(allow_lone_defender=True)
    assert to_openspiel_action(d, "pass") == 24
    assert to_openspiel_action(d, "order-up") == 27  # hearts
    assert from_openspiel_action(d, 27) == Action.parse("order-up")
    d = run(d, "order-up")
    assert to_openspiel_action(d, "discard 9C") == 0 and from_openspiel_action(d, 0) == Action.parse("discard 9C")
    d = d.apply("discard 9C")
    assert d.phase is Phase.ALONE
    assert to_openspiel_action(d, "alone") == 29 and to_openspiel_action(d, "pass") == 30
    assert from_openspiel_action(d, 29) == Action.parse("alone")
    assert from_openspiel_action(d, 30) == Action.parse("pass")
    d = run(d, "pass", "pass", "pass")
    assert d.phase is Phase.TRICKS
    assert to_openspiel_action(d, "play JH") == 10 and from_openspiel_action(d, 10) == Action.parse("play JH")
    second = run(stacked(), "pass", "pass", "pass", "pass")
    assert to_openspiel_action(second, "call C") == 25 and to_openspiel_action(second, "call S") == 28
    assert from_openspiel_action(second, 26) == Action.parse("call D")


def test_mapping_errors() -> None:
    """Ids and actions with no counterpart in the phase raise IllegalActionError (NOT_AN_ACTION)."""
    d = stacked()
    for bad_id in (26, 28, 29, 30, 31, -1):  # round one: only Pass and the up-card's suit
        with pytest.raises(IllegalActionError) as info:
            from_openspiel_action(d, bad_id)
        assert info.value.rule is RuleCode.NOT_AN_ACTION
    second = run(stacked(), "pass", "pass", "pass", "pass")
    for bad_id in (29, 30):
        with pytest.raises(IllegalActionError):
            from_openspiel_action(second, bad_id)
    for text in ("order-up alone", "call S alone", "trump H", "alone"):
        with pytest.raises(IllegalActionError) as info:
            to_openspiel_action(d, text)
        assert info.value.rule is RuleCode.NOT_AN_ACTION
    table = new_deal("euchre", seed=1)
    with pytest.raises(IllegalActionError):
        to_openspiel_action(table, "order-up alone")


def test_openspiel_returns() -> None:
    """§13.4: returns are zero before the end; then per player own side's points minus the other side's."""
    d = stacked()
    assert openspiel_returns(d) == (0, 0, 0, 0)
    march = run(d, "order-up", "discard 9C", "pass")
    while not march.is_over:
        march = march.apply(march.legal_actions()[0])
    assert march.scores == (2, 0)
    assert openspiel_returns(march) == (2, -2, 2, -2)
