"""Every preset as a pyspiel Python game: OpenSpiel's random_sim_test, parameters, tensors, resampling, IS-MCTS.

They need the ``[openspiel]`` extra (``open_spiel``) and skip without it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique_rules import available_variants, determinize, get_rules, new_deal
from bezique_rules.openspiel import openspiel_state, register

PRESETS = available_variants(builtin=True)

SLOW = {"eight-pack-bezique", "six-pack-bezique", "rubicon-bezique", "double-deck-pinochle"}
"""Presets with long deals: fewer simulations (serialization replays the deal at every step)."""


@pytest.fixture(scope="module")
def pyspiel() -> Any:
    """OpenSpiel's module, with every preset registered (the tests skip without OpenSpiel)."""
    module = pytest.importorskip("pyspiel", reason="needs the [openspiel] extra")
    register()
    return module


def test_register_names_every_variant(pyspiel: Any) -> None:
    """register() returns python_bezique_rules_<name with underscores> for every variant, and can run twice."""
    names = register()
    assert "python_bezique_rules_bezique_match" in names
    assert {f"python_bezique_rules_{v.replace('-', '_')}" for v in PRESETS} <= set(names)
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("variant", PRESETS)
def test_random_sim_test_passes(pyspiel: Any, variant: str) -> None:
    """OpenSpiel's own random_sim_test passes, with serialization, for every preset."""
    game = pyspiel.load_game(f"python_bezique_rules_{variant.replace('-', '_')}")
    pyspiel.random_sim_test(game, num_sims=1 if variant in SLOW else 3, serialize=True, verbose=False)


def test_parameters_are_the_options(pyspiel: Any) -> None:
    """Game parameters set the preset's options; -1 stands for None."""
    game = pyspiel.load_game("python_bezique_rules_bezique", {"target": 1500, "lurch_threshold": 500})
    assert game.rules.options["target"] == 1500 and game.rules.options["lurch_threshold"] == 500
    default = pyspiel.load_game("python_bezique_rules_bezique")
    assert default.rules == get_rules("bezique")
    assert default.get_parameters()["lurch_threshold"] == -1


def test_tensors_and_strings_are_the_library_encodings(pyspiel: Any) -> None:
    """The state's observation and information-state tensors are the view's encodings; shapes match the layout."""
    rules = get_rules("pinochle")
    deal = new_deal(rules, seed=4)
    rng = random.Random(4)
    for _ in range(9):
        deal = deal.apply(rng.choice(deal.legal_action_ids()))
    state = openspiel_state(deal)
    game = state.get_game()
    assert game.observation_tensor_shape() == list(rules.observation_shape)
    assert game.information_state_tensor_shape() == list(rules.information_state_shape)
    for p in range(2):
        assert state.observation_tensor(p) == pytest.approx(deal.view(p).observation_tensor())
        assert state.information_state_tensor(p) == pytest.approx(deal.information_state_tensor(p))
        assert str(deal.view(p).hand) in state.observation_string(p)
    assert state.current_player() == deal.current_player
    assert state.legal_actions() == list(deal.legal_action_ids())


def test_resample_keeps_the_information_state(pyspiel: Any) -> None:
    """resample_from_infostate gives a state with the same information state for the player, other hidden cards."""
    deal = new_deal("euchre", seed=8)
    rng = random.Random(8)
    for _ in range(6):
        deal = deal.apply(rng.choice(deal.legal_action_ids()))
    state = openspiel_state(deal)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = False
    for _ in range(5):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert len(world.history()) == len(state.history())
        differs |= world.information_state_string((player + 1) % 4) != state.information_state_string((player + 1) % 4)
    assert differs
    assert determinize(deal.view(player), rng).view(player) == deal.view(player)


def test_returns_are_zero_sum_and_euchre_matches_the_bridge(pyspiel: Any) -> None:
    """A finished euchre-openspiel deal returns OpenSpiel's own returns (openspiel_returns)."""
    from bezique_rules.openspiel import openspiel_returns

    deal = new_deal("euchre-openspiel", seed=2)
    rng = random.Random(2)
    while not deal.is_over:
        deal = deal.apply(rng.choice(deal.legal_action_ids()))
    state = openspiel_state(deal)
    assert state.is_terminal()
    assert tuple(state.returns()) == tuple(float(r) for r in openspiel_returns(deal))
    assert sum(state.returns()) == 0


def test_openspiel_ismcts_drives_the_game(pyspiel: Any) -> None:
    """OpenSpiel's information-set MCTS bot plays a legal action from a state of the Python game."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    state = openspiel_state(new_deal("euchre", seed=1))
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(state.get_game(), mcts.RandomRolloutEvaluator(1, rs), 2.0, 12, random_state=rs)
    assert bot.step(state) in state.legal_actions()


def test_how_to_page_examples_run(pyspiel: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``py`` blocks of the OpenSpiel games how-to page run, in order (they need the extra)."""
    from test_docs import DOCS, code_blocks

    monkeypatch.chdir(tmp_path)
    path = DOCS / "how-to" / "openspiel-games.md"
    blocks = code_blocks(path, lang="py")
    assert blocks
    namespace: dict[str, Any] = {"__name__": "docs.openspiel-games"}
    for line, code in blocks:
        exec(compile("\n" * (line - 1) + code, str(path), "exec"), namespace)
