"""Rulebook scenarios for ``partnership-bezique`` on stacked decks (reference.md §7).

Four packs, partners opposite (players 0 & 2 against 1 & 3), hearts trumps (turn-up
9H), player 3 deals so player 0 leads. In `DEAL` player 2 wins trick 1 with AS and
trick 2 with AC (leading), then player 0 wins trick 3 with the AC he drew.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique_rules import Card, DealState, IllegalActionError, Phase, RuleCode, get_rules, new_deal, new_game
from scenario import deal, legal, run_exact
from test_multihand_scenarios import _expected

V = "partnership-bezique"
HANDS = ["KS KH KD QC QS JD 9S 9D", "8S 8C 8C 8C 7C 7C 8S 8S", "AS AC KC QC QS JD 9C 9C", "7S 8D 7D 7D 8D 8D 7C 9D"]
STOCK = "8H 8H AC 8H 9H 9H 9H TH"
TRICK1 = "play 9S; play 8S; play AS; play 7S"
TRICK2 = "play AC; play 8D; play 9D; play 8C"
TRICK3 = "play 9C; play 7D; play AC; play 8C"


def _passed(state: DealState) -> DealState:
    while state.phase is Phase.DECLARE:
        state = state.apply("pass")
    return state


def _start(**options: Any) -> DealState:
    return deal(V, HANDS, stock=STOCK, **options)


def test_partners_opposite_score_per_side() -> None:
    """Players 0 and 2 against 1 and 3; scores, breakdowns and game totals are per side."""
    rules = get_rules(V)
    assert rules.players == 4 and rules.deck.size == 128 and rules.partnership
    assert rules.sides == ((0, 2), (1, 3))
    state = _passed(run_exact(_start(), TRICK1 + "; meld bezique QS JD"))
    assert state.scores == (40, 0) and len(state.breakdown) == 2 and state.breakdown[0].melds == 40
    game = new_game(V, seed=1)
    assert game.target == 2000 and len(game.totals) == 2


def test_winner_may_pass_the_declaration_to_his_partner() -> None:
    """The winner declares or passes the privilege; the partner declares or passes; the winner draws first, leads."""
    state = run_exact(_start(), TRICK1)
    assert state.current_player == 2 and "pass partner" in legal(state)
    state = state.apply("pass partner")
    assert state.phase is Phase.DECLARE and state.current_player == 0
    assert "pass partner" not in legal(state)  # no passing back
    state = _passed(state.apply("meld bezique QS JD"))
    assert state.scores == (40, 0)
    assert state.phase is Phase.PLAY and state.current_player == 2
    assert Card.parse("8H") in state.view(2).hand and Card.parse("AC") in state.view(0).hand
    assert [str(c) for c in state.view(1).tabled[0]] == ["QS", "JD"]


def test_privilege_passes_only_before_declaring() -> None:
    """Once the winner has declared, he may no longer pass the privilege; the partner never may."""
    state = run_exact(_start(), TRICK1 + "; meld bezique QS JD")
    assert "pass partner" not in legal(state)
    with pytest.raises(IllegalActionError) as err:
        state.apply("pass partner")
    assert err.value.rule is RuleCode.WRONG_PHASE


def test_declaration_may_use_the_partners_tabled_cards() -> None:
    """A declarer combines his cards with his partner's tabled ones (four kings with the partner's KC) (§7)."""
    state = _passed(run_exact(_start(), TRICK1 + "; meld bezique QS JD"))
    state = _passed(run_exact(state, TRICK2 + "; meld common-marriage KC QC"))
    state = run_exact(state, TRICK3)
    assert state.current_player == 0
    offered = legal(state)
    assert "meld four-kings KS KH KD KC*" in offered
    state = state.apply("meld four-kings KS KH KD KC*")
    assert state.scores == (40 + 20 + 80, 0)
    view = state.view(1)
    assert sorted(map(str, view.tabled[0])) == ["KD", "KH", "KS"]
    assert sorted(map(str, view.tabled[2])) == ["JD", "KC", "QC", "QS"]


def test_no_declaration_the_partner_could_not_make() -> None:
    """The partner's earlier declarations bind the combination: his married KC may not marry again (R2)."""
    state = _passed(run_exact(_start(), TRICK1 + "; meld bezique QS JD"))
    state = _passed(run_exact(state, TRICK2 + "; meld common-marriage KC QC"))
    state = run_exact(state, TRICK3)
    assert not [a for a in legal(state) if a.startswith("meld common-marriage") and "KC" in a]
    with pytest.raises(IllegalActionError):
        state.apply("meld common-marriage KC* QC")


def test_double_bezique_only_from_ones_own_cards() -> None:
    """Double and triple bezique come from one player's own cards, never with the partner's tabled bezique."""
    state = _passed(run_exact(_start(), TRICK1 + "; meld bezique QS JD"))
    state = _passed(run_exact(state, TRICK2 + "; meld common-marriage KC QC"))
    state = run_exact(state, TRICK3)
    offered = legal(state)
    assert "meld bezique QS JD" in offered
    assert not [a for a in offered if "double-bezique" in a or "triple-bezique" in a]
    with pytest.raises(IllegalActionError):
        state.apply("meld double-bezique QS QS* JD JD*")


def test_option_partner_beziques_forms_a_double_with_the_partners_bezique() -> None:
    """Britannica 9th ed., four-hand ("Three and Four Handed Bézique"): "to form them the beziques
    may be declared from the hand of either partner": with ``partner_beziques=True`` the partner's
    tabled bezique and one's own make a double bezique (500). presets.md keeps one's own cards
    by default."""
    state = _passed(run_exact(_start(partner_beziques=True), TRICK1 + "; meld bezique QS JD"))
    state = _passed(run_exact(state, TRICK2 + "; meld common-marriage KC QC"))
    state = run_exact(state, TRICK3)
    assert "meld double-bezique QS QS* JD JD*" in legal(state)
    before = state.scores[0]
    state = state.apply("meld double-bezique QS QS* JD JD*")
    assert state.scores[0] == before + 500


def test_without_passing_the_privilege_option() -> None:
    """With ``pass_privilege=False`` only the trick winner declares (the partner's tabled cards still combine)."""
    state = run_exact(_start(pass_privilege=False), TRICK1)
    assert "pass partner" not in legal(state)


@pytest.mark.parametrize("must_beat_partner", [True, False])
def test_playoff_beat_the_highest_card_even_the_partners(must_beat_partner: bool) -> None:
    """Last tricks: each must beat the highest card so far even his partner's (§7); the option spares the partner's."""
    rng = random.Random(3)
    checked = spared = 0
    for seed in range(4):
        state = new_deal(V, seed=seed, must_beat_partner=must_beat_partner)
        while not state.is_over:
            p = state.current_player
            if state.phase is Phase.PLAYOFF and p is not None:
                view = state.view(p)
                assert view.trump is not None
                trick = list(view.trick)
                partner_winning = False
                if len(trick) >= 2 and view.trick_leader is not None:
                    best = max(range(len(trick)), key=lambda i: _power(trick, i, view.trump))
                    partner_winning = (view.trick_leader + best) % 4 == (p + 2) % 4
                rule = "head_the_trick" if must_beat_partner or not partner_winning else "follow_only_or_trump"
                spared += rule != "head_the_trick"
                legal = {a.cards[0] for a in state.legal_actions()}
                assert legal == _expected(list(view.hand), trick, view.trump, rule)
                checked += 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked == 4 * 32
    assert spared > 0 or must_beat_partner


def _power(trick: list[Card], i: int, trump: object) -> tuple[int, int, int]:
    """Sort key of trick[i]: trumps over the suit led over the rest, higher rank, earlier card."""
    c, led = trick[i], trick[0]
    cls = 2 if c.suit is trump else 1 if c.suit is led.suit else 0
    return (cls, -"ATKQJ987".index(c.rank.code), -i)
