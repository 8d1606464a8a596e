"""The batch engine (`bezique_rules.batch`) against the scalar engine: the same deals, the
same player to act and legal actions at every step, the same scores."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="the batch engine needs the [batch] extra (numpy)")

from bezique_rules import DealError, IllegalActionError, OptionError, batch, get_rules, new_deal  # noqa: E402

EUCHRE_PRESETS = ("euchre", "british-euchre", "euchre-openspiel")
GAME_OPTIONS = {"target", "match"}  # about the game, not the deal


def differential(variant: str, seeds: list[int], policy_seed: int, dealer: int | None = None, **options: Any) -> int:
    """Play ``seeds`` with random legal ids in the batch and, id for id, through `new_deal`;
    assert at every step that both agree; return how many deals ended with a score."""
    state = batch.new(variant, seeds, dealer=dealer, **options)
    deals = [new_deal(variant, seed=s, dealer=dealer, **options) for s in seeds]
    rng = np.random.default_rng(policy_seed)
    steps = 0
    while True:
        mask = state.legal_mask()
        assert mask.shape == (len(seeds), state.rules.num_actions)
        for i, deal in enumerate(deals):
            expected = -1 if deal.current_player is None else deal.current_player
            assert state.current_player[i] == expected, (seeds[i], steps, "player to act")
            assert bool(state.done[i]) == deal.is_over, (seeds[i], steps, "over")
            assert tuple(np.flatnonzero(mask[i]).tolist()) == deal.legal_action_ids(), (seeds[i], steps, "legal")
        if state.done.all():
            break
        actions = batch.random_actions(mask, rng)
        state = state.step(actions, check=steps % 7 == 0)
        deals = [d if d.is_over else d.apply(int(a), check=False) for d, a in zip(deals, actions)]
        steps += 1
    scored = 0
    for i, deal in enumerate(deals):
        assert tuple(state.scores[i].tolist()) == deal.scores, (seeds[i], "scores")
        scored += any(deal.scores)
    return scored


@pytest.mark.parametrize("variant", EUCHRE_PRESETS)
def test_a_thousand_random_deals_agree_with_the_scalar_engine(variant: str) -> None:
    """1,200 seeded random deals of each Euchre preset: the batch engine and new_deal agree on
    the player to act and the legal ids at every step, and on the final scores."""
    seeds = list(range(5_000, 6_200))
    assert differential(variant, seeds, policy_seed=1) > 1_000


@pytest.mark.parametrize("takeover", [False, True, "unless_dealer_took_turn_up"])
def test_every_partner_takeover_rule_agrees_with_the_scalar_engine(takeover: bool | str) -> None:
    """British Euchre's take-over of a lone hand (seed 004: asked after the dealer's exchange, and lapsing
    when he took the turn-up) is sequenced from the same `OrderUp` questions in both engines."""
    seeds = list(range(800))
    assert differential("british-euchre", seeds, policy_seed=3, partner_takeover=takeover) > 600


@pytest.mark.parametrize(("variant", "farmers"), [("euchre", "mixed"), ("british-euchre", "nines_or_tens")])
def test_farmers_hands_agree_with_the_scalar_engine(variant: str, farmers: str) -> None:
    """1,000 random deals with the farmer's hand: the swaps (and a second one's misdeal) agree
    with new_deal step by step, and some deals do swap."""
    seeds = list(range(9_000, 10_000))
    differential(variant, seeds, policy_seed=2, farmers_hand=farmers)
    state = batch.new(variant, seeds, farmers_hand=farmers)
    rng = np.random.default_rng(2)
    while not state.done.all():
        state = state.step(batch.random_actions(state.legal_mask(), rng))
    assert isinstance(state, batch.EuchreBatch)
    assert (state.farmer >= 0).sum() > 10


def _options(variant: str) -> st.SearchStrategy[dict[str, Any]]:
    specs = [s for s in get_rules(variant).option_specs if s.name not in GAME_OPTIONS and s.name != "partner_takeover"]
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for spec in specs:
        if spec.choices is not None:
            parts[spec.name] = st.sampled_from(spec.choices)
        elif isinstance(spec.default, bool):
            parts[spec.name] = st.booleans()
    return st.fixed_dictionaries({}, optional=parts)


Case = tuple[str, dict[str, Any], list[int], int, int | None]
"""A preset, its options, the seeds, the policy's seed and the dealer."""


@st.composite
def batches(draw: st.DrawFn) -> Case:
    variant = draw(st.sampled_from(EUCHRE_PRESETS))
    options = draw(_options(variant))
    first = draw(st.integers(0, 2**40))
    return (
        variant,
        options,
        list(range(first, first + 48)),
        draw(st.integers(0, 2**16)),
        draw(st.none() | st.integers(0, 3)),
    )


@given(batches())
def test_option_combinations_agree_with_the_scalar_engine(case: Case) -> None:
    """Every supported option combination (deck sizes, the Benny, pick-up, lone play and
    defence, scoring house rules, dealer seat): 48 seeded random deals agree step by step."""
    variant, options, seeds, policy_seed, dealer = case
    differential(variant, seeds, policy_seed, dealer, **options)


def test_the_same_seeds_deal_the_same_cards_as_new_deal() -> None:
    """batch.new deals each seed's cards exactly as new_deal (to_state of the fresh batch)."""
    state = batch.new("british-euchre", [0, 1, 2**62])
    for i, seed in enumerate((0, 1, 2**62)):
        assert state.to_state(i) == new_deal("british-euchre", seed=seed)


def test_to_state_gives_the_scalar_deal_mid_play_and_at_the_end() -> None:
    """to_state(i) replays deal i's ids: equal to the scalar deal at any step."""
    rng = np.random.default_rng(3)
    state = batch.new("euchre", range(20))
    deals = [new_deal("euchre", seed=s) for s in range(20)]
    for step in range(40):
        if step in (3, 12):
            assert [state.to_state(i) for i in range(20)] == deals
        actions = batch.random_actions(state.legal_mask(), rng)
        state = state.step(actions)
        deals = [d if d.is_over else d.apply(int(a)) for d, a in zip(deals, actions)]
    assert state.done.all()
    assert [state.to_state(i) for i in range(20)] == deals
    with pytest.raises(IndexError, match="no deal 20"):
        state.to_state(20)


def test_step_ignores_finished_deals_and_leaves_the_old_state_unchanged() -> None:
    """A finished deal's action is ignored; step returns a new state and the old one is untouched."""
    rng = np.random.default_rng(5)
    state = batch.new("euchre-openspiel", range(8))
    while not state.done.all():
        state = state.step(batch.random_actions(state.legal_mask(), rng))
    again = state.step(np.full(8, 10**6))
    assert (again.scores == state.scores).all() and (again.moves == state.moves).all()
    before = state.history.copy()
    first = batch.new("euchre-openspiel", range(8))
    snapshot = first.history.copy()
    first.step(batch.random_actions(first.legal_mask(), rng))
    assert (first.history == snapshot).all() and (state.history == before).all()
    assert not state.legal_mask().any()


def test_an_illegal_id_names_the_deal_and_the_action() -> None:
    """step(check=True) refuses an illegal id with IllegalActionError naming deal and action."""
    state = batch.new("euchre", [1, 2])
    play_as = state.rules.action_id("play AS")
    pass_id = state.rules.action_id("pass")
    with pytest.raises(IllegalActionError, match=r"deal 1: 'play AS'"):
        state.step(np.array([pass_id, play_as]))
    with pytest.raises(IllegalActionError, match="no action of 'euchre' has id 999"):
        state.step(np.array([pass_id, 999]))
    with pytest.raises(IllegalActionError, match="one integer action id per deal"):
        state.step(np.array([pass_id]))


def test_unsupported_variants_and_options_raise_option_error_naming_them() -> None:
    """A variant or option value the batch engine does not play raises OptionError naming it."""
    with pytest.raises(OptionError, match="'auction-pinochle'"):
        batch.new("auction-pinochle", [1])
    with pytest.raises(OptionError, match="deck_size"):
        batch.new("euchre", [1], deck_size=23)


def test_bad_seeds_raise_deal_error_quoting_them() -> None:
    """Seeds must be whole numbers of 0 or more, and there must be at least one."""
    with pytest.raises(DealError, match="-3"):
        batch.new("euchre", [1, -3])
    with pytest.raises(DealError, match="'x'"):
        batch.new("euchre", ["x"])  # type: ignore[list-item]
    with pytest.raises(DealError, match="at least one seed"):
        batch.new("euchre", [])


def test_core_import_does_not_import_numpy_and_batch_without_numpy_names_the_extra() -> None:
    """import bezique_rules leaves numpy alone; bezique_rules.batch without numpy raises an
    ImportError that names the [batch] extra."""
    code = (
        "import sys; import bezique_rules; assert 'numpy' not in sys.modules\n"
        "sys.modules['numpy'] = None\n"
        "try:\n    import bezique_rules.batch\nexcept ImportError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install 'bezique-rules[batch]'" in out
