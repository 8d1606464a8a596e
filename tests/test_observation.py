"""Observation and information-state tensors: shapes, no hidden-card leaks, no dead fields.

Every preset the library ships is covered through `available_variants(builtin=True)`, so a
new preset is tested without touching this file.
"""

from __future__ import annotations

import random

import pytest

from bezique_rules import (
    DealState,
    GameState,
    available_variants,
    determinize,
    get_rules,
    new_deal,
    new_game,
)
from bezique_rules.state.observation import encode_information_state, encode_observation

PRESETS = available_variants(builtin=True)

PENDING = ("bezique", "three-hand-bezique", "partnership-bezique")
"""Presets played with ``pending_declarations=True`` too: the option adds the ``pending`` field."""


@pytest.mark.parametrize("variant", PRESETS)
def test_layout_tiles_the_encoding(variant: str) -> None:
    """The fields follow each other without gaps; the observation's fields open the information state."""
    rules = get_rules(variant)
    for layout in (rules.observation_layout, rules.information_state_layout):
        start = 0
        for field in layout.fields:
            assert field.start == start and field.size > 0 and field.doc
            start = field.stop
        assert layout.shape == (start,)
    obs = rules.observation_layout.fields
    assert rules.information_state_layout.fields[: len(obs)] == obs
    assert rules.observation_shape == rules.observation_layout.shape
    assert rules.information_state_shape == rules.information_state_layout.shape


@pytest.mark.parametrize("variant", PRESETS)
def test_equal_views_encode_identically(variant: str) -> None:
    """A determinized deal (same view, other hidden cards) encodes the same for the viewer: nothing hidden leaks."""
    rules = get_rules(variant)
    rng = random.Random(variant)
    for seed in range(3):
        deal = new_deal(rules, seed=seed)
        steps = 0
        while not deal.is_over:
            if steps % 7 == 0:
                for player in range(rules.players):
                    view = deal.view(player)
                    other = determinize(view, rng)
                    assert other.view(player) == view
                    assert other.view(player).observation_tensor() == view.observation_tensor()
                    assert other.information_state_tensor(player) == deal.information_state_tensor(player)
            deal = deal.apply(rng.choice(deal.legal_action_ids()))
            steps += 1


def _changed_fields(variant: str, games: int, **options: bool) -> tuple[set[str], set[str]]:
    """The observation and information-state fields whose values changed over random whole games."""
    rules = get_rules(variant, **options)
    obs_layout, info_layout = rules.observation_layout, rules.information_state_layout
    first_obs: list[float] | None = None
    first_info: list[float] | None = None
    changed_obs: set[str] = set()
    changed_info: set[str] = set()

    def see(state: GameState | DealState) -> None:
        nonlocal first_obs, first_info
        for player in range(rules.players):
            view = state.view(player)
            obs = encode_observation(view)
            info = encode_information_state(view)
            assert len(obs) == obs_layout.size and len(info) == info_layout.size
            first_obs = first_obs or obs
            first_info = first_info or info
            changed_obs.update(f.name for f in obs_layout.fields if obs[f.slice] != first_obs[f.slice])
            changed_info.update(f.name for f in info_layout.fields if info[f.slice] != first_info[f.slice])

    for seed in range(games):
        game = new_game(rules, seed=seed, max_deals=2)
        rng = random.Random(seed)
        while not game.is_over:
            see(game)
            game = game.apply(rng.choice(game.legal_action_ids()))
        see(game.deal)
        if changed_info == set(info_layout.names()):
            break
    return changed_obs, changed_info


@pytest.mark.parametrize("variant", PRESETS)
def test_every_field_changes_in_some_random_game(variant: str) -> None:
    """No dead slots: every field of both layouts takes more than one value over a few random games."""
    rules = get_rules(variant)
    changed_obs, changed_info = _changed_fields(variant, games=40)
    assert set(rules.observation_layout.names()) - changed_obs == set()
    assert set(rules.information_state_layout.names()) - changed_info == set()


@pytest.mark.parametrize("variant", PENDING)
def test_pending_declarations_add_a_live_pending_field(variant: str) -> None:
    """With `pending_declarations` (StockRules) the layout gains ``pending`` right after ``melds``; no field is dead."""
    rules = get_rules(variant, pending_declarations=True)
    names = rules.observation_layout.names()
    assert "pending" not in get_rules(variant).observation_layout.names()
    assert names[names.index("melds") + 1] == "pending"
    assert rules.observation_layout.field("pending").shape == rules.observation_layout.field("melds").shape
    changed_obs, changed_info = _changed_fields(variant, games=40, pending_declarations=True)
    assert set(names) - changed_obs == set()
    assert set(rules.information_state_layout.names()) - changed_info == set()


@pytest.mark.parametrize("variant", PENDING)
def test_pending_melds_encode_as_the_view_shows_them(variant: str) -> None:
    """The ``pending`` field counts the view's pending melds per seat (relative) and kind; equal views
    (determinized deals) encode the same with the option on."""
    rules = get_rules(variant, pending_declarations=True)
    field = rules.observation_layout.field("pending")
    kinds = rules.encodings.meld_kinds
    seen = 0
    for seed in range(40):  # pending melds are rare in random play: a few of these deals have some
        rng = random.Random(seed)
        deal = new_deal(rules, seed=seed)
        while not deal.is_over:
            for player in range(rules.players):
                view = deal.view(player)
                rows = view.observation_tensor()[field.slice]
                expected = [0.0] * field.size
                for meld in view.pending:
                    expected[(meld.player - player) % rules.players * len(kinds) + kinds.index(meld.kind)] += 1.0
                assert rows == expected
                seen += bool(view.pending)
                if view.pending and seen % 5 == 1:
                    other = determinize(view, rng)
                    assert other.view(player).observation_tensor() == view.observation_tensor()
            deal = deal.apply(rng.choice(deal.legal_action_ids()))
        if seen > 20:
            break
    assert seen > 0


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen"])
def test_marriages_encode_per_seat_and_suit(variant: str) -> None:
    """The closing games' ``marriages`` field marks, per seat (relative) and suit, the marriages the view shows."""
    rules = get_rules(variant)
    field = rules.observation_layout.field("marriages")
    suits = [s.value for s in rules.deck.suits]
    assert field.shape == (2, len(suits))
    rng = random.Random(variant)
    seen = 0
    for seed in range(20):
        deal = new_deal(rules, seed=seed)
        while not deal.is_over:
            for player in range(2):
                view = deal.view(player)
                expected = [0.0] * field.size
                for meld in view.melds:
                    assert meld.kind in ("common-marriage", "royal-marriage")
                    suit = next(iter(meld.cards)).suit
                    assert suit is not None and all(card.suit is suit for card in meld.cards)
                    expected[(meld.player - player) % 2 * len(suits) + suits.index(suit.value)] = 1.0
                assert view.observation_tensor()[field.slice] == expected
                seen += len(view.melds)
            deal = deal.apply(rng.choice(deal.legal_action_ids()))
    assert seen > 0


@pytest.mark.parametrize("variant", PRESETS)
def test_tensor_values_stay_small(variant: str) -> None:
    """Every entry is a float in a small range (card counts and one-hots in 0..1, scaled scores and counts)."""
    rules = get_rules(variant)
    deal = new_deal(rules, seed=5)
    rng = random.Random(5)
    while not deal.is_over:
        tensor = deal.information_state_tensor(deal.current_player or 0)
        assert all(isinstance(x, float) and -20.0 <= x <= 200.0 for x in tensor)
        deal = deal.apply(rng.choice(deal.legal_action_ids()))


def test_seats_are_relative_to_the_viewer() -> None:
    """Row 0 of a per-seat field is the viewer: each player's own hand size is in row 0 of hand_sizes."""
    rules = get_rules("euchre")
    deal = new_deal(rules, seed=2)
    field = rules.observation_layout.field("player")
    dealer = rules.observation_layout.field("dealer")
    for player in range(4):
        obs = deal.view(player).observation_tensor()
        assert obs[field.slice].index(1.0) == player
        assert obs[dealer.slice].index(1.0) == (deal.dealer - player) % 4


def test_unknown_field_name_lists_the_fields() -> None:
    """Asking for a field that does not exist raises KeyError naming the fields there are."""
    layout = get_rules("bezique").observation_layout
    with pytest.raises(KeyError, match="hand"):
        layout.field("nonsense")


def test_numpy_shape_matches_the_documented_shape() -> None:
    """numpy.asarray of the pure-Python tensors has the documented shapes."""
    np = pytest.importorskip("numpy", reason="numpy is part of the [rl] extra")
    for variant in PRESETS:
        rules = get_rules(variant)
        deal = new_deal(rules, seed=1)
        assert np.asarray(deal.view(0).observation_tensor()).shape == rules.observation_shape
        assert np.asarray(deal.information_state_tensor(1)).shape == rules.information_state_shape


def test_the_layout_page_matches_the_code() -> None:
    """The observations page shows the tables the code gives (regenerate: docs/_ext/observation_tables.py)."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "docs" / "_ext" / "observation_tables.py"
    spec = importlib.util.spec_from_file_location("observation_tables", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = module.PAGE.read_text(encoding="utf-8")
    assert module.page_with_tables(page) == page, "run: python docs/_ext/observation_tables.py"
    for variant in PRESETS:
        assert f"`{variant}`" in page


def test_the_stock_size_is_encoded_exactly_in_the_stock_games() -> None:
    """`RuleSet.draws_from_stock` (reference.md §1.3: draw after each trick): the stock games have a stock
    size in their encoding; the bidding games, whose undealt cards are a widow or a kitty, do not."""
    stock_games = {"bezique", "pinochle", "marjolet", "sixty-six", "schnapsen", "three-hand-bezique"}
    for variant in PRESETS:
        rules = get_rules(variant)
        drawn = rules.draws_from_stock
        assert drawn == (rules.bidding is None), variant
        assert ("stock_size" in {f.name for f in rules.observation_layout.fields}) == drawn, variant
    assert all(get_rules(v).draws_from_stock for v in stock_games)
    assert not any(get_rules(v).draws_from_stock for v in ("euchre", "auction-pinochle", "partnership-pinochle"))


def test_tabled_melds_and_brisques_at_the_end_are_asked_of_the_rules() -> None:
    """reference.md §1.3: melds declared after a trick stay on the table, playable from there, and
    the brisques count at the end of the deal, in exactly the stock games with melds; the
    observation plan and the terminal game read `RuleSet.melds_tabled` and
    `RuleSet.card_points_at_end` for them (no engine names)."""
    for variant in PRESETS:
        rules = get_rules(variant)
        stock_game = rules.engine == "stock"
        assert rules.melds_tabled == stock_game, variant
        assert rules.card_points_at_end == stock_game, variant
        fields = {f.name for f in rules.observation_layout.fields}
        assert any(name.startswith("tabled") for name in fields) == stock_game, variant


@pytest.mark.parametrize("variant", PRESETS)
def test_the_0_2_0_encoding_flags_still_read_with_a_deprecation_warning(variant: str) -> None:
    """`EncodingPlan`'s 0.2.0 flags (``has_stock`` …) became one set of field names
    (``plan.has``): each old flag still reads, warns, and says whether its field is encoded."""
    from bezique_rules.state.observation import _OLD_FLAGS

    plan = get_rules(variant).encodings
    names = set(plan.observation.names()) | set(plan.information_state.names())
    for flag, field in _OLD_FLAGS.items():
        with pytest.warns(DeprecationWarning, match=flag):
            value = getattr(plan, flag)
        assert value is (field in plan.has)
        assert value is (field in names)
