"""The example engine of examples/custom_engine.py: an engine registered from outside the package
works with the library's generic machinery (deals, checks, views, determinize, records, games, ids
and the agents)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bezique_rules import (
    DealState,
    IllegalActionError,
    OptionError,
    Phase,
    RuleCode,
    determinize,
    get_rules,
    level,
    new_deal,
    new_game,
    record_of,
    replay,
)
from bezique_rules.agents.strategy import strategy_for
from bezique_rules.bits import iter_bits
from bezique_rules.engine import registry as engines
from bezique_rules.engine.registry import engine_for
from bezique_rules.rules import registry

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import custom_engine
from custom_engine import VARIANT, NoStockDeal, NoStockTables


@pytest.fixture(autouse=True, scope="module")
def registered() -> Iterator[None]:
    """Register the example's engine and variant for this module only."""
    tables: tuple[dict[Any, Any], ...] = (registry._PRESETS, registry._ALIASES, registry._BUILT, engines._ENGINES.found)
    saved = [dict(table) for table in tables]
    custom_engine.register()
    yield
    for table, content in zip(tables, saved):
        table.clear()
        table.update(content)


def play_out(deal: DealState, seed: int) -> DealState:
    """Random legal actions (by id) to the end of the deal."""
    rng = random.Random(seed)
    while not deal.is_over:
        ids = deal.legal_action_ids()
        deal = deal.apply(ids[rng.randrange(len(ids))])
    return deal


def test_the_engine_and_variant_are_found_by_name() -> None:
    """The registered engine compiles the variant's tables; registering twice is refused."""
    rules = get_rules(VARIANT)
    assert rules.engine == "no-stock" and engine_for("no-stock") is custom_engine.ENGINE
    assert isinstance(rules.tables, NoStockTables)
    assert rules.num_actions == 24 and str(rules.action_from_id(0)) == "play AS"
    custom_engine.register()  # idempotent
    with pytest.raises(OptionError, match="already registered"):
        engines.register_engine(custom_engine.ENGINE)


def test_a_deal_is_laid_out_by_the_deal_pattern() -> None:
    """Ten cards each, one turned card fixing trumps, a blind of three, player 0 to lead."""
    deal = new_deal(VARIANT, seed=3)
    assert isinstance(deal, NoStockDeal)
    view = deal.view(0)
    assert view.hand_sizes == (10, 10) and len(deal.core.blind) == 3
    assert view.turn_up is not None and view.trump == view.turn_up.suit
    assert deal.current_player == 0 and deal.phase is Phase.TRICKS
    every = sum(deal.hands) | (1 << deal.core.turn_up) | sum(1 << x for x in deal.core.blind)
    assert every == get_rules(VARIANT).deck.full_mask


def test_following_suit_is_enforced_with_the_rule_code() -> None:
    """A follower holding the led suit may not discard another: check and apply name MUST_FOLLOW_SUIT."""
    for seed in range(50):
        deal = new_deal(VARIANT, seed=seed)
        deal = deal.apply(deal.legal_actions()[0])
        view = deal.view(1)
        assert view.current_player == 1
        off = [c for c in view.hand if not deal.is_legal(f"play {c}")]
        if not off:
            continue
        with pytest.raises(IllegalActionError) as exc:
            deal.check(f"play {off[0]}")
        assert exc.value.rule in (RuleCode.MUST_FOLLOW_SUIT, RuleCode.MUST_BEAT, RuleCode.MUST_TRUMP)
        with pytest.raises(IllegalActionError):
            deal.apply(f"play {off[0]}")
        break
    else:
        pytest.fail("no seed gave a refused card")
    with pytest.raises(IllegalActionError) as held:
        new_deal(VARIANT, seed=3).check(f"play {new_deal(VARIANT, seed=3).view(1).hand.cards[0]}")
    assert held.value.rule is RuleCode.CARD_NOT_HELD


@pytest.mark.parametrize("seed", range(40))
def test_random_deals_keep_the_invariants(seed: int) -> None:
    """Cards are conserved, the turn passes by the trick rules, points add up to the cards won, and
    the legal ids agree with is_legal and the mask."""
    rules = get_rules(VARIANT)
    values = rules.card_values
    deal = new_deal(VARIANT, seed=seed, dealer=seed % 2)
    assert isinstance(deal, NoStockDeal)
    out_of_play = (1 << deal.core.turn_up) | sum(1 << x for x in deal.core.blind)
    rng = random.Random(seed)
    tricks = 0
    while not deal.is_over:
        ids = deal.legal_action_ids()
        assert ids and list(ids) == sorted(set(ids))
        assert [i for i, ok in enumerate(deal.legal_action_mask()) if ok] == list(ids)
        assert all(deal.is_legal(i) for i in ids)
        deal = deal.apply(ids[rng.randrange(len(ids))])
        assert sum(deal.hands) | sum(deal.won) | sum(1 << x for x in deal.trick) | out_of_play == rules.deck.full_mask
        assert sum(h.bit_count() for h in deal.hands) + len(deal.trick) + sum(w.bit_count() for w in deal.won) == 20
        tricks += not deal.trick
    assert tricks == 10 and deal.current_player is None and deal.legal_actions() == ()
    result = deal.result
    assert result is not None
    for player, part in enumerate(result.breakdown):
        assert part.cards == sum(values[x] for x in iter_bits(deal.won[player]))
    assert sum(result.scores) == sum(values) - sum(values[x] for x in iter_bits(out_of_play)) + 10
    with pytest.raises(IllegalActionError) as exc:
        deal.check(0)
    assert exc.value.rule is RuleCode.GAME_OVER


@pytest.mark.parametrize("seed", range(10))
def test_records_replay_and_determinize_is_consistent(seed: int) -> None:
    """A record replays to an equal deal at every step; a determinized deal shows the viewer the same
    view, hides the rest at random, and is itself a legal deal (its own record replays)."""
    deal = new_deal(VARIANT, seed=seed)
    rng = random.Random(seed)
    seen_other = set()
    while not deal.is_over:
        assert replay(record_of(deal)) == deal
        player = deal.current_player
        assert player is not None
        guess = determinize(deal.view(player), rng)
        assert guess.view(player) == deal.view(player)
        assert replay(record_of(guess)) == guess
        seen_other.add(guess.hands[1 - player])
        ids = deal.legal_action_ids()
        deal = deal.apply(ids[rng.randrange(len(ids))])
    assert replay(record_of(deal)) == deal
    assert len(seen_other) > 1  # the hidden hand is guessed, not copied


def test_determinize_respects_a_shown_void() -> None:
    """A player who did not follow suit is never dealt that suit by determinize."""
    rules = get_rules(VARIANT)
    for seed in range(200):
        deal = new_deal(VARIANT, seed=seed)
        deal = deal.apply(deal.legal_action_ids()[0])
        assert isinstance(deal, NoStockDeal)
        table = rules.trump_tables[deal.core.trump]
        led_suit = table.suit[deal.trick[0]]
        follow = [i for i in deal.legal_action_ids() if table.suit[_card(deal, i)] != led_suit]
        if not follow:
            continue
        deal = deal.apply(follow[0])  # player 1 shows a void in the led suit
        rng = random.Random(seed)
        for _ in range(20):
            guess = determinize(deal.view(0), rng)
            assert guess.hands[1] & table.suit_masks[led_suit] == 0
        return
    pytest.fail("no seed showed a void")


def _card(deal: DealState, action_id: int) -> int:
    tables = deal.rules.tables
    assert isinstance(tables, NoStockTables)
    return tables.plays.card[action_id]


def test_a_game_runs_to_its_target_with_options() -> None:
    """new_game deals until TargetEnd is met; the target is an option of the registered variant."""
    game = new_game(VARIANT, seed=5, target=100)
    assert game.rules.options["target"] == 100
    rng = random.Random(5)
    while not game.is_over:
        ids = game.legal_action_ids()
        game = game.apply(ids[rng.randrange(len(ids))])
    assert max(game.totals) >= 100 and game.deal_number >= 1
    assert replay(record_of(game)) == game
    with pytest.raises(OptionError):
        get_rules(VARIANT, target=0)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_agents_play_it_through_the_generic_strategy(n: int) -> None:
    """level(1) to level(4) play whole deals of the new engine (the generic strategy: no own one)."""
    assert strategy_for(get_rules(VARIANT)).engine == "*"
    agent = level(n)
    rng = random.Random(n)
    deal = new_deal(VARIANT, seed=n)
    while not deal.is_over:
        player = deal.current_player
        assert player is not None
        action = agent.choose(deal.view(player), rng)
        assert deal.is_legal(action)
        deal = deal.apply(action)
    assert deal.result is not None


def test_a_mismatched_rule_set_is_refused_when_compiled() -> None:
    """The engine refuses rule sets it cannot sequence (two packs) with an OptionError naming them."""
    import attrs

    rules = attrs.evolve(get_rules(VARIANT), deck=get_rules("bezique").deck)
    with pytest.raises(OptionError, match="one pack"):
        _ = rules.tables
