"""Our ``schnapsen`` preset against an independent engine: the ``schnapsen`` package (0.0.5).

The package is the Vrije Universiteit's Schnapsen platform, written from pagat's rules
(https://www.pagat.com/marriage/schnaps.html, which its code cites). It is GPL, so it lives in
the test-only ``crosscheck`` extra (``pip install ".[crosscheck]"``) and these tests skip
without it. ``schnapsen_bridge`` deals the package's shuffles into our preset and drives both
engines with the same random choices, comparing at every step the legal moves (plays,
marriages, the trump-jack exchange), each trick's winner, the cards and card points won, the
points towards 66, and each deal's winner and game points. Every documented difference is a
named `Mapping` there; the tests below also pin each of them on the package's own code, so a
mapping can never hide a disagreement it does not describe.

Closing off: the driver never closes (the package cannot). Closing on: ``close`` is one more
random choice while it is legal; the package then plays the rest as with an exhausted talon
(the follow-suit duties, no drawing, no exchange, marriages still allowed: pagat, "Exhausting
the talon" and "Closing"), and the deal's game points are pagat's closing rules applied to the
package's points at the closing and at the end. The long run (10,000 deals per mode) is
``python benchmarks/schnapsen_crosscheck.py``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

pytest.importorskip("schnapsen", reason="the differential test needs the [crosscheck] extra (the schnapsen package)")

import schnapsen.game as sg

from bezique_rules import new_deal
from schnapsen_bridge import (
    CLOSING_ON_OPTIONS,
    MATCH_OPTIONS,
    Mapping,
    code,
    crosscheck_deal,
    our_deck,
    package_card,
    package_deal,
)

DEALS = 400
"""Deals per mode in CI (a deal takes about 3 ms; the long run is in benchmarks/)."""


def run(deals: int, *, closing: bool, options: dict[str, Any] | None = None) -> tuple[list[str], Counter[Mapping]]:
    mismatches: list[str] = []
    used: Counter[Mapping] = Counter()
    for seed in range(deals):
        result = crosscheck_deal(seed, closing=closing, options=options)
        used.update(result.mappings)
        if result.mismatch is not None:
            mismatches.append(f"seed {seed}: {result.mismatch}")
    return mismatches, used


def test_closing_off_every_step_agrees() -> None:
    """The talon never closed: every legal move, trick, point and deal result agrees (pagat)."""
    mismatches, used = run(DEALS, closing=False, options=CLOSING_ON_OPTIONS)
    assert mismatches == []
    expected = {
        Mapping.OUT_IS_AUTOMATIC,
        Mapping.NO_CLOSING,
        Mapping.EXCHANGE_LAST_FACE_DOWN,
        Mapping.MARRIAGE_LEADS_KING,
        Mapping.MARRIAGE_PENDING,
    }
    assert expected <= set(used), f"mappings never exercised: {expected - set(used)}"
    assert Mapping.CLOSED_TALON not in used


def test_closing_on_every_step_agrees() -> None:
    """The driver may close: the play after the closing agrees with the package's exhausted-talon
    play, and the game points with pagat's closing rules."""
    mismatches, used = run(DEALS, closing=True, options=CLOSING_ON_OPTIONS)
    assert used[Mapping.CLOSED_TALON] > DEALS // 4  # a good share of the deals were closed
    assert mismatches == []


def test_with_the_packages_exchange_rule_no_exchange_mapping_is_needed() -> None:
    """With ``exchange_min_stock=1`` (the package's rule) our exchange matches it exactly."""
    options = {"exchange_min_stock": 1}
    mismatches, used = run(DEALS // 2, closing=False, options=options)
    assert mismatches == []
    assert used[Mapping.EXCHANGE_LAST_FACE_DOWN] == 0


def test_match_rules_agree_without_closing_or_exchange_mappings() -> None:
    """The rules of the strength matches (`MATCH_OPTIONS`): ours never offers 'close'."""
    mismatches, used = run(DEALS // 4, closing=False, options=MATCH_OPTIONS)
    assert mismatches == []
    assert used[Mapping.NO_CLOSING] == 0 and used[Mapping.EXCHANGE_LAST_FACE_DOWN] == 0


@pytest.mark.parametrize(
    ("options", "what"),
    [
        ({"playoff_rule": "follow_only"}, "follower moves"),
        ({"marriage_timing": "after_trick"}, "leader moves"),
        ({"exchange_needs_trick": True}, "leader moves"),
    ],
)
def test_a_rule_the_package_does_not_play_is_caught(options: dict[str, Any], what: str) -> None:
    """The comparison bites: with one of our options set against the package's rules (pagat's
    strict play-off, marriages on the first lead, the exchange without a trick), deals differ."""
    mismatches, _ = run(100, closing=False, options=options)
    assert mismatches and all(what in m for m in mismatches)


# -- the stacked deck ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 17])
def test_our_deck_deals_the_packages_hands(seed: int) -> None:
    """Our preset's deal pattern (3 each, the turn-up, 2 each, the talon) reproduces the package's
    hands (alternate cards), trump card (the talon's last card) and talon order."""
    _engine, state, shuffled = package_deal(seed, 0)
    deal = new_deal("schnapsen", deck=our_deck(shuffled))
    assert sorted(str(c) for c in deal.view(0).hand) == sorted(shuffled[0:10:2])
    assert sorted(str(c) for c in deal.view(1).hand) == sorted(shuffled[1:10:2])
    assert str(deal.view(0).turn_up) == shuffled[19] == code(state.talon.trump_card())
    assert [str(deal.rules.deck.cards[i]) for i in deal.core.stock] == shuffled[10:19]  # type: ignore[attr-defined]
    assert deal.current_player == 0


# -- each mapping holds in the package's own code ----------------------------------------------


def _state(lead: str, follow: str, talon: str) -> tuple[Any, Any]:
    engine = sg.SchnapsenGamePlayEngine()

    class Idle(sg.Bot):  # type: ignore[misc]
        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            raise AssertionError

    def hand(text: str) -> Any:
        return sg.Hand([package_card(c) for c in text.split()])

    state = sg.GameState(
        leader=sg.BotState(implementation=Idle(), hand=hand(lead)),
        follower=sg.BotState(implementation=Idle(), hand=hand(follow)),
        talon=sg.Talon([package_card(c) for c in talon.split()]),
        previous=None,
    )
    return engine, state


def test_mapping_out_is_automatic() -> None:
    """The package declares the trick winner (its next leader) the deal's winner at 66 points."""
    engine, state = _state("AS TS KS QS JS", "AH TH KH QH JH", "AD TD")
    state.leader.score = sg.Score(direct_points=66)
    state.follower.score = sg.Score(direct_points=40)
    state.follower.won_cards.extend([package_card("AC"), package_card("TC")])
    assert engine.trick_scorer.declare_winner(state) == (state.leader, 1)


def test_mapping_no_closing() -> None:
    """The package's moves are plays, marriages and exchanges only: no closing."""
    assert {c.__name__ for c in sg.Move.__subclasses__()} == {"RegularMove", "TrumpExchange", "Marriage"}


def test_mapping_exchange_last_face_down() -> None:
    """With one face-down card and the trump card left the package allows the exchange; our
    default does not (pagat is silent; our docs page says why), ``exchange_min_stock=1`` does."""
    engine, state = _state("JD AS TS KS QS", "AH TH KH QH JH", "AC KD")
    moves = engine.move_validator.get_legal_leader_moves(engine, state)
    assert sg.TrumpExchange(package_card("JD")) in moves


def test_mapping_marriage_leads_the_king() -> None:
    """The package's marriage plays its king."""
    marriage = sg.Marriage(package_card("QS"), package_card("KS"))
    assert marriage.underlying_regular_move() == sg.RegularMove(package_card("KS"))


def test_mapping_marriage_pending() -> None:
    """The package's marriage points wait for the announcer's next won trick, even when he has
    won a trick before (pagat counts them once he has won any)."""
    engine, state = _state("KS QS JS AH JC", "TH KH QH JH TC", "AD TD")
    state.leader.won_cards.extend([package_card("AC"), package_card("QC")])
    state.leader.score = sg.Score(direct_points=14)
    marriage = sg.Marriage(package_card("QS"), package_card("KS"))
    assert engine.trick_scorer.marriage(marriage, state) == sg.Score(pending_points=20)


def test_the_driver_is_repeatable() -> None:
    """The same seed drives the same deal (the test is reproducible from its seed)."""
    a = crosscheck_deal(5, closing=True)
    b = crosscheck_deal(5, closing=True)
    assert (a.steps, a.closed, a.mismatch, a.mappings) == (b.steps, b.closed, b.mismatch, b.mappings)
