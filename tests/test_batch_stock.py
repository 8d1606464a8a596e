"""The batch engine's stock games (``bezique``, ``bezique-match``, ``pinochle``) against the
scalar stock engine: the same deals, the same player to act and legal actions at every step (tricks,
declarations under R0-R5, the trump seven, draws, the play-off duties), the same scores."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="the batch engine needs the [batch] extra (numpy)")

from bezique_rules import OptionError, batch, get_rules, new_deal  # noqa: E402
from test_batch import differential  # noqa: E402

STOCK_PRESETS = ("bezique", "bezique-match", "pinochle")
GAME_OPTIONS = {"target", "tie_rule", "lurch_threshold", "match_lead"}  # about the game, not the deal
REFUSED = {
    "new_card_rule": "same_class_only",
    "double_after_two_singles": True,
    "pending_declarations": True,
    "copy_order": "ids",
}
"""Option values the batch engine refuses (the general declaration search, melds laid out and
scored later, version 2's choice between copies)."""


@pytest.mark.parametrize(("variant", "deals"), [("bezique", 600), ("bezique-match", 400), ("pinochle", 400)])
def test_random_deals_agree_with_the_scalar_engine(variant: str, deals: int) -> None:
    """Seeded random deals with the default options: the batch engine and new_deal agree on the
    player to act and the legal ids at every step, and on the final scores."""
    seeds = list(range(20_000, 20_000 + deals))
    assert differential(variant, seeds, policy_seed=11) == deals  # every deal scores


def test_both_dealers_carte_blanche_and_unlimited_melds_agree() -> None:
    """Player 0 dealing, carte blanche shown (some deals do), several melds per trick and the
    trump seven any time: 300 random deals agree step by step."""
    seeds = list(range(31_000, 31_300))
    options = {"carte_blanche": 50, "melds_per_trick": "unlimited", "seven_any_time": True}
    differential("bezique", seeds, policy_seed=4, dealer=0, **options)
    state = batch.new("bezique", seeds, dealer=0, **options)
    rng = np.random.default_rng(4)
    while not state.done.all():
        state = state.step(batch.random_actions(state.legal_mask(), rng))
    carte = state.rules.action_id("meld carte-blanche")
    assert (state.history == carte).any(axis=1).sum() >= 3


def _options(variant: str) -> st.SearchStrategy[dict[str, Any]]:
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for spec in get_rules(variant).option_specs:
        if spec.name in GAME_OPTIONS:
            continue
        if spec.choices is not None:
            choices = [c for c in spec.choices if REFUSED.get(spec.name) != c]
            parts[spec.name] = st.sampled_from(choices)
        elif isinstance(spec.default, bool):
            parts[spec.name] = st.just(False) if spec.name in REFUSED else st.booleans()
        elif spec.name == "carte_blanche":
            parts[spec.name] = st.sampled_from([0, 50])
    return st.fixed_dictionaries({}, optional=parts)


Case = tuple[str, dict[str, Any], list[int], int, int | None]
"""A preset, its options, the seeds, the policy's seed and the dealer."""


@st.composite
def batches(draw: st.DrawFn) -> Case:
    variant = draw(st.sampled_from(STOCK_PRESETS))
    first = draw(st.integers(0, 2**40))
    return (
        variant,
        draw(_options(variant)),
        list(range(first, first + 16)),
        draw(st.integers(0, 2**16)),
        draw(st.none() | st.integers(0, 1)),
    )


@given(batches())
def test_option_combinations_agree_with_the_scalar_engine(case: Case) -> None:
    """Every supported option combination (Bezique: quartets, the bezique pair, meld limit, R5,
    the seven's methods and timing, the exchanged card, the play-off duty, brisques, the last
    trick, carte blanche; Pinochle: meld table, double pinochle, counting, rounding, the dix, the
    play-off duty; the dealer seat): 16 seeded random deals agree step by step."""
    variant, options, seeds, policy_seed, dealer = case
    differential(variant, seeds, policy_seed, dealer, **options)


def test_to_state_gives_the_scalar_deal_mid_play() -> None:
    """to_state(i) of a Bezique batch replays deal i's ids: equal to the scalar deal."""
    rng = np.random.default_rng(8)
    state = batch.new("bezique-match", range(6))
    deals = [new_deal("bezique-match", seed=s) for s in range(6)]
    for _ in range(50):
        actions = batch.random_actions(state.legal_mask(), rng)
        state = state.step(actions)
        deals = [d if d.is_over else d.apply(int(a)) for d, a in zip(deals, actions)]
    assert [state.to_state(i) for i in range(6)] == deals


@pytest.mark.parametrize(("option", "value"), sorted(REFUSED.items()))
def test_options_the_batch_engine_does_not_play_raise_option_error_naming_them(option: str, value: Any) -> None:
    """new_card_rule='same_class_only', double_after_two_singles=True and pending_declarations=True raise
    OptionError naming the option."""
    with pytest.raises(OptionError, match=option):
        batch.new("bezique", [1], **{option: value})


def test_other_stock_games_raise_option_error_naming_them() -> None:
    """A stock game the batch engine does not play (multi-pack Bezique) raises OptionError naming it."""
    for variant in ("rubicon-bezique", "six-pack-bezique"):
        with pytest.raises(OptionError, match=variant):
            batch.new(variant, [1])


def test_the_history_keeps_every_id_of_a_long_deal() -> None:
    """The history holds one column per step (none at the start) and every id of a deal of
    about a hundred actions: to_state replays it to the same scores."""
    state = batch.new("bezique", range(5))
    assert state.history.shape == (5, 0)
    rng = np.random.default_rng(2)
    while not state.done.all():
        state = state.step(batch.random_actions(state.legal_mask(), rng))
    assert state.history.shape[1] == int(state.moves.max()) > 64
    assert ((state.history >= 0).sum(axis=1) == state.moves).all()
    assert [state.to_state(i).scores for i in range(5)] == [tuple(row) for row in state.scores.tolist()]
