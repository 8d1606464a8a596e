"""Every preset as a pyspiel Python game: OpenSpiel's random_sim_test, parameters, tensors, resampling, IS-MCTS.

They need the ``[openspiel]`` extra (``open_spiel``) and skip without it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique_rules import available_variants, determinize, get_rules, new_deal, record_of, replay
from bezique_rules.integrations.openspiel import openspiel_state, register

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
    from bezique_rules.integrations.openspiel import openspiel_returns

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


# -- nothing shown to a player that he may not know (issue 25, causes 5, 6 and 7) -----------------


def _public_observer(pyspiel: Any, game: Any, *, perfect_recall: bool = False) -> Any:
    from open_spiel.python.observation import make_observation

    kind = pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    return make_observation(game, kind)


def _played(variant: str, seed: int, moves: int, **options: Any) -> Any:
    deal = new_deal(variant, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if deal.is_over:
            break
        deal = deal.apply(rng.choice(deal.legal_action_ids()))
    return deal


@pytest.mark.parametrize(
    ("variant", "options", "moves"),
    [
        ("euchre", {}, 9),  # after the dealer's face-down discard
        ("auction-pinochle", {"bury_melded": True}, 8),  # after the burial
        ("partnership-pinochle", {}, 10),  # after the cards passed between partners
        ("bezique", {}, 6),
        ("euchre", {"farmers_hand": "mixed"}, 0),  # in the farmer's-hand round
        ("euchre", {"farmers_hand": "mixed"}, 1),
        ("british-euchre", {"farmers_hand": "nines_or_tens"}, 3),
    ],
)
def test_public_observer_holds_only_public_information(
    pyspiel: Any, variant: str, options: dict[str, Any], moves: int
) -> None:
    """Cause 5: OpenSpiel's public observer (private_info NONE) shows every player the same
    thing: no hand, no buried card, no discarded or passed card (the private observer does)."""
    for seed in range(6):
        deal = _played(variant, seed, moves, **options)
        state = openspiel_state(deal)
        for perfect_recall in (False, True):
            observer = _public_observer(pyspiel, state.get_game(), perfect_recall=perfect_recall)
            strings = set()
            for p in range(deal.rules.players):
                observer.set_from(state, p)
                assert not observer.dict["hand"].any(), "the public tensor holds no hand"
                if "buried" in observer.dict:
                    assert not observer.dict["buried"].any()
                text = observer.string_from(state, p)
                assert "hand:  |" in text
                strings.add(text.split(" ", 1)[1])  # all but "p<seat>"
            assert len(strings) == 1, "every player gets the same public observation"


def test_private_observer_is_the_players_view(pyspiel: Any) -> None:
    """The default observation type (private_info SINGLE_PLAYER) keeps the player's view,
    and an unsupported observation type is refused with a clear error."""
    from open_spiel.python.observation import make_observation

    deal = _played("euchre", 3, 9)
    state = openspiel_state(deal)
    game = state.get_game()
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    observer.set_from(state, 0)
    assert observer.tensor.tolist() == pytest.approx(deal.view(0).observation_tensor())
    every = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="every player's"):
        game.make_py_observer(every)


def _play_openspiel(state: Any, rng: random.Random, until: int | None = None) -> list[int]:
    """Play random chance outcomes and actions; return who acted, in order."""
    seats: list[int] = []
    while not state.is_terminal() and (until is None or len(seats) < until):
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes))
        else:
            seats.append(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
    return seats


@pytest.mark.parametrize("variant", ["euchre", "british-euchre"])
def test_farmers_hand_asks_every_seat_in_turn(pyspiel: Any, variant: str) -> None:
    """Cause 6: under the farmer's-hand house rule every seat is asked in turn from the
    dealer's left, holder or not (a seat holding none may only pass), so current_player shows
    nothing; the deal's own record is unchanged (only holders' answers are its moves)."""
    from bezique_rules.engine.euchre import FarmersRound

    deal = new_deal("euchre", seed=1002, farmers_hand="mixed")
    assert deal.current_player == 3  # the engine asks the holder...
    state = openspiel_state(deal)
    assert state.current_player() == 0 == deal.view(0).current_player  # ...everybody sees seat 0 asked
    assert state.legal_actions() == [deal.rules.action_id("pass")]
    game = pyspiel.load_game(f"python_bezique_rules_{variant.replace('-', '_')}", {"farmers_hand": "mixed"})
    for seed in range(40):
        state = game.new_initial_state()
        seats = _play_openspiel(state, random.Random(seed))
        n = game.num_players()
        dealer = n - 1
        expected = [(dealer + 1 + i) % n for i in range(n)]
        misdeal = state.deal.thrown_in and len(seats) < n
        assert seats[:n] == expected[: len(seats[:n])] or misdeal, seats
        assert len(state.deal.moves) <= len(seats)  # a seat holding none: its pass is not the deal's
        assert replay(record_of(state.deal)) == state.deal
        restored = game.deserialize_state(state.serialize())
        assert restored.history() == state.history() and restored.deal == state.deal
    assert FarmersRound.start(new_deal("euchre", seed=1002, farmers_hand="mixed")).seat == 0


def test_farmers_hand_resample_keeps_the_round(pyspiel: Any) -> None:
    """resample_from_infostate keeps the farmer's-hand round where it is: the same player to
    act, the same legal actions, the same information state."""
    game = pyspiel.load_game("python_bezique_rules_euchre", {"farmers_hand": "mixed"})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seed in range(25):
        rng = random.Random(seed)
        state = game.new_initial_state()
        _play_openspiel(state, rng, until=rng.randrange(1, 7))
        if state.is_terminal():
            continue
        player = state.current_player()
        for _ in range(3):
            world = state.resample_from_infostate(player, sampler)
            assert world.current_player() == player
            assert world.legal_actions() == state.legal_actions()
            assert world.information_state_string(player) == state.information_state_string(player)


def test_six_pack_cut_is_its_own_chance_move(pyspiel: Any) -> None:
    """Cause 7: six-pack's cut is a chance move of its own (every packet size alike), so two
    decks differing only in two deep stock cards show the same cut after the guess."""
    game = pyspiel.load_game("python_bezique_rules_six_pack_bezique")
    rules = game.rules
    rng = random.Random(7)
    state = game.new_initial_state()
    while len(state.history()) < rules.deck.size:
        outcomes, _ = zip(*state.chance_outcomes())
        state.apply_action(rng.choice(outcomes))
    cut = state.chance_outcomes()
    assert len(cut) == 25 and {p for _, p in cut} == {1 / 25}
    faces = list(state.history())
    i = next(k for k in range(len(faces) - 2, 0, -1) if faces[k] != faces[-1])
    swapped = faces[:i] + [faces[-1]] + faces[i + 1 : -1] + [faces[i]]
    states = []
    for deck in (faces, swapped):
        s = game.new_initial_state()
        for f in (*deck, 7):  # the cut: 12 + 7 = 19 cards
            s.apply_action(f)
        guess = s.legal_actions()[0]
        s.apply_action(guess)
        states.append(s)
    assert "cut 19" in states[0].observation_string(0)
    for p in range(2):
        assert states[0].observation_string(p) == states[1].observation_string(p)
        assert states[0].information_state_tensor(p) == states[1].information_state_tensor(p)
    deal = states[0].deal
    assert game.state_of(deal).history() == states[0].history()
