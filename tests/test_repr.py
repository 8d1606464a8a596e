"""Short ``repr`` of rule sets, deals and games: the variant, the options that differ from the
preset, the phase and whose turn, like `PlayerView`'s (a rule set's full repr was 5.7 KB)."""

from __future__ import annotations

import random

import pytest

from bezique_rules import available_variants, get_rules, new_deal, new_game


@pytest.mark.parametrize("variant", available_variants())
def test_deal_repr_is_short_and_says_where_the_deal_stands(variant: str) -> None:
    """A deal's repr names its engine, its variant, the phase, who acts, the dealer and the scores."""
    rules = get_rules(variant)
    deal = new_deal(rules, seed=4, dealer=0)
    deal = deal.apply(deal.legal_actions()[0])
    text = repr(deal)
    assert len(text) < 200, text
    assert text.startswith(type(deal).__name__ + f"(rules=RuleSet({variant!r})")
    assert f"phase={deal.phase.value}" in text
    assert f"player={deal.current_player}" in text
    assert "dealer=0" in text and "moves=1" in text
    assert f"scores={deal.scores}" in text


@pytest.mark.parametrize("variant", ["bezique", "auction-pinochle", "euchre", "schnapsen"])
def test_repr_leaves_equality_and_hash_alone(variant: str) -> None:
    """Only the repr changed: equal deals and games still compare equal and hash alike."""
    rules = get_rules(variant)
    deal = new_deal(rules, seed=9)
    again = new_deal(get_rules(variant), seed=9)
    assert deal == again and hash(deal) == hash(again)
    moved = deal.apply(deal.legal_actions()[0])
    assert moved != deal
    game = new_game(rules, seed=3)
    assert game == new_game(rules, seed=3) and hash(game) == hash(new_game(rules, seed=3))


def test_rule_set_repr_shows_only_changed_options() -> None:
    """A preset's rule set reads ``RuleSet('bezique')``; changed options follow, defaults do not."""
    assert repr(get_rules("bezique")) == "RuleSet('bezique')"
    assert repr(get_rules("bezique", target=1500)) == "RuleSet('bezique', target=1500)"
    default_target = get_rules("bezique").options["target"]
    assert repr(get_rules("bezique", target=default_target)) == "RuleSet('bezique')"
    assert get_rules("bezique", target=1500) != get_rules("bezique")


def test_game_repr_is_short_and_names_the_winner_at_the_end() -> None:
    """A game's repr gives the deal number, phase, whose turn and totals; once over, the winner."""
    rules = get_rules("schnapsen")
    game = new_game(rules, seed=5)
    assert repr(game) == (
        f"GameState(rules=RuleSet('schnapsen'), deal_number=1, phase={game.phase.value}, "
        f"player={game.current_player}, totals=(0, 0))"
    )
    rng = random.Random(5)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    text = repr(game)
    assert text.endswith(f"totals={game.totals}, winner={game.winner})")
    assert "phase=over" in text and "player=None" in text
    assert len(text) < 200
