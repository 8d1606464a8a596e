"""Nothing shown to a player that he may not know (issue 25): the leak check, short form.

For random states of every preset and of the house rules that change who sees what
(`leaks.SETUPS`), and for each player, worlds he cannot tell apart are built two ways:
independently (two cards of faces he never saw swapped in the deck, the history replayed
with checks; an illegal replay is skipped and counted) and by the library's `determinize`.
Every surface shown to him (`leaks.all_surfaces`: the view and its JSON, the tensors and
strings, the SVG, OpenSpiel's strings, tensors and public observer, PettingZoo's and
Gymnasium's observations) must be the same in all of them. This is the information rule
of the architecture ("whatever reaches a player is computed from his view alone") and of
the printed games: a player sees his own cards and what is played or shown, nothing else.

``benchmarks/leak_check.py`` runs the long form and prints the counts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique_rules import DealState, GameState, determinize, new_deal
from bezique_rules.engine.euchre import FarmersRound
from leaks import SETUPS, Context, Tally, all_surfaces, check_setup, check_state, setup_id
from scenario import stock_game

KNOWN: dict[str, Any] = {}
"""The setups whose short check meets a known cause (seed 11)."""


def _setups() -> list[Any]:
    out = []
    for variant, options in SETUPS:
        marks = [KNOWN[variant]] if not options and variant in KNOWN else []
        out.append(pytest.param(variant, options, marks=marks, id=setup_id(variant, options)))
    return out


@pytest.fixture(scope="module")
def surfaces() -> dict[str, Any]:
    return all_surfaces()


@pytest.mark.parametrize(("variant", "options"), _setups())
def test_no_surface_shows_a_hidden_card(variant: str, options: dict[str, Any], surfaces: dict[str, Any]) -> None:
    """Every surface is the same in every world the player cannot tell apart, and every
    determinize world is a proper one (not the real deal, the same view, a legal history).
    (``attrs.asdict`` of the view is checked on its own: `test_a_view_holds_no_state`.)"""
    shown = {name: surface for name, surface in surfaces.items() if name != "view asdict"}
    tally = check_setup(variant, options, seeds=[11], states=2, swaps=2, samples=1, surfaces=shown)
    assert tally.states == 2 and tally.comparisons > 0
    assert tally.swap_worlds + tally.swap_illegal + tally.swap_shown + tally.swap_none > 0
    assert not tally.bad_worlds, tally.bad_worlds[:3]
    assert not tally.leaks, [str(leak) for leak in tally.leaks[:5]]


@pytest.mark.parametrize("variant", ["bezique", "euchre", "auction-pinochle"])
def test_a_view_holds_no_state(variant: str, surfaces: dict[str, Any]) -> None:
    """Issue 25 cause 4: ``attrs.asdict(view)``, the obvious way to send a view to a client,
    is the same in every world the player cannot tell apart (a view held the whole state)."""
    tally = check_setup(
        variant, {}, seeds=[3], states=2, swaps=2, samples=0, surfaces={"asdict": surfaces["view asdict"]}
    )
    assert tally.comparisons > 0
    assert not tally.leaks, [str(leak) for leak in tally.leaks[:3]]


def test_the_surfaces_include_every_adapter_installed(surfaces: dict[str, Any]) -> None:
    """The check compares the adapters that are installed (none is skipped silently)."""
    names = set(surfaces)
    assert {"view", "view asdict", "view to_dict JSON", "tensors", "strings", "svg", "narration", "web JSON"} <= names
    for module, surface in (("pyspiel", "openspiel"), ("pettingzoo", "pettingzoo"), ("gymnasium", "gymnasium")):
        try:
            __import__(module)
        except ImportError:
            continue
        assert surface in names


# -- the check can fail: planted leaks ----------------------------------------------------------


def _bezique_states() -> list[tuple[int, DealState]]:
    deal = new_deal("bezique", seed=5)
    rng = random.Random(5)
    states = []
    for k in range(12):
        states.append((k, deal))
        deal = deal.apply(rng.choice(deal.legal_action_ids()))
    return states


def _check(surfaces: dict[str, Any]) -> Tally:
    tally = Tally()
    rng = random.Random(0)
    for moves, deal in _bezique_states():
        tally.add(
            check_state(deal, setup="bezique", seed=5, moves=moves, swaps=2, samples=1, surfaces=surfaces, rng=rng)
        )
    return tally


def test_a_planted_leak_in_a_surface_is_caught(surfaces: dict[str, Any]) -> None:
    """A surface that shows the opponent's hand is reported, in swap and determinize worlds."""
    planted = {"opponent's hand": lambda deal, player, ctx: str(deal.view(1 - player).hand)}
    tally = _check(planted)
    assert tally.leaks
    assert {leak.world for leak in tally.leaks} == {"swap", "determinize"}
    assert {leak.surface for leak in tally.leaks} == {"opponent's hand"}


def test_a_planted_leak_in_the_library_is_caught(monkeypatch: pytest.MonkeyPatch, surfaces: dict[str, Any]) -> None:
    """The information-state tensor made to carry the order of the deck (a hidden card's place) is reported."""
    original = DealState.information_state_tensor

    def leaky(self: DealState, player: int) -> list[float]:
        faces = self.rules.deck.face_of
        return [*original(self, player), float(sum(i * faces[pid] for i, pid in enumerate(self.deck_order)))]

    monkeypatch.setattr(DealState, "information_state_tensor", leaky)
    tally = _check({"tensors": surfaces["tensors"]})
    assert any(leak.surface == "tensors" for leak in tally.leaks)


# -- the states the issue names ----------------------------------------------------------------


def _same_surfaces(a: DealState, b: DealState, player: int, surfaces: dict[str, Any]) -> list[str]:
    """The surfaces that differ between ``a`` and ``b`` for ``player``."""
    ctx = Context(asked=FarmersRound.start(a).asked)
    return [name for name, surface in surfaces.items() if surface(a, player, ctx) != surface(b, player, ctx)]


@pytest.mark.parametrize("variant", ["bezique", "bezique-match"])
def test_a_concealed_second_copy_is_not_shown(variant: str, surfaces: dict[str, Any]) -> None:
    """Issue 25 cause 2: player 0 exchanges the trump seven for the turn-up KH, then plays
    a KH. Whether he holds a second, concealed KH must not show: everything player 1 sees is
    the same whether player 0's other card is KH or QC (rules: a player knows his own cards
    and what is shown; reference.md §2: the exchanged turn-up is shown). (``attrs.asdict`` of
    the view carries the state, cause 4: `test_a_view_holds_no_state`.)"""
    shown = {name: surface for name, surface in surfaces.items() if name != "view asdict"}
    deals = []
    for x in ("KH", "QC"):
        deal = stock_game(variant, p0=f"AS 7H {x} 9C 8C 7C 9D 8D", p1="7S 8S 9S TD JD QD KD AD", turn_up="KH")
        for text in ("play AS", "play 7S", "exchange 7H", "pass", "play KH"):
            deal = deal.apply(text)
        deals.append(deal)
    assert _same_surfaces(deals[0], deals[1], 1, shown) == []


def test_determinize_never_hands_back_the_real_deal() -> None:
    """Issue 25 cause 3: under the farmer's-hand house rule, with a hidden pass of another
    player, determinize gives a world that is not the real deal and shows the same view."""
    deal = new_deal("british-euchre", seed=1000, farmers_hand="nines_or_tens", dealer_may_discard_upcard=False)
    actions = (
        "pass, pass, order-up, pass, play JH, play AS, play QD, play TD, play TS, play 9C, play KS, play QS,"
        " play KC, play 9H, play TC, play AC, play AH, play QC, play KH, play TH, play QH"
    )
    for text in actions.split(","):
        deal = deal.apply(text.strip())
    view = deal.view(1)
    worlds = [determinize(view, random.Random(seed)) for seed in range(6)]
    assert all(world is not deal and world.view(1) == view for world in worlds)
    assert len({world.deck_order for world in worlds}) > 1


@pytest.mark.parametrize("whole_game", [False, True])
def test_pettingzoo_asks_every_seat_about_a_farmers_hand(whole_game: bool) -> None:
    """Issue 25 cause 6: under the farmer's-hand house rule PettingZoo selects every seat in
    turn from the dealer's left, and no other agent's mask is ever set, so neither shows who
    holds a farmer's hand; a seat holding none may only pass."""
    pytest.importorskip("pettingzoo", reason="needs the [rl] extra")
    import numpy as np

    from bezique_rules.integrations.envs import aec_env

    env = aec_env("euchre", farmers_hand="mixed", whole_game=whole_game)
    held = 0
    for seed in range(12):
        env.reset(seed=seed)
        table = env.state_now
        deal = table.deal if isinstance(table, GameState) else table
        held += deal.current_player != (deal.dealer + 1) % 4  # the deal itself asks a holder first
        expected = [f"player_{(deal.dealer + 1 + k) % 4}" for k in range(4)]
        rng = random.Random(seed)
        selected: list[str] = []
        for agent in env.agent_iter():
            observed, _, over, _, _ = env.last()
            if over:
                env.step(None)
                continue
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            selected.append(agent)
            env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
            if len(selected) == 4:
                break
        assert selected == expected[: len(selected)]
    assert held  # some deal had a holder the deal asked out of turn
