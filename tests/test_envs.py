"""The PettingZoo and Gymnasium environments pass their ecosystems' own conformance checks, for every preset.

The conformance tests need the ``[rl]`` extra (numpy, gymnasium, pettingzoo) and skip
without it; the tests of the import guard run everywhere.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from typing import Any

import pytest

from bezique_rules import IllegalActionError, OptionError, available_variants, get_rules

PRESETS = available_variants(builtin=True)


@pytest.fixture(scope="module")
def rl() -> Any:
    """The rl extra's packages (the tests skip without them)."""
    pytest.importorskip("numpy", reason="needs the [rl] extra")
    pytest.importorskip("gymnasium", reason="needs the [rl] extra")
    pytest.importorskip("pettingzoo", reason="needs the [rl] extra")
    import bezique_rules.integrations.envs as envs

    return envs


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> None:
    """Run a checker, silencing its advisory warnings (a dict observation is not a bare array)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fn(*args, **kwargs)


@pytest.mark.parametrize("variant", PRESETS)
def test_aec_env_passes_pettingzoo_api_and_seed_tests(rl: Any, variant: str) -> None:
    """PettingZoo's api_test and seed_test pass for one deal of every preset."""
    from pettingzoo.test import api_test, seed_test

    _quiet(api_test, rl.aec_env(variant, render_mode="ansi"), num_cycles=400)
    _quiet(seed_test, lambda: rl.aec_env(variant), num_cycles=60)


@pytest.mark.parametrize("variant", ["bezique-match", "euchre", "auction-pinochle"])
def test_aec_env_whole_game_passes_api_test(rl: Any, variant: str) -> None:
    """A whole game per episode passes api_test too."""
    from pettingzoo.test import api_test

    _quiet(api_test, rl.aec_env(variant, whole_game=True), num_cycles=300)


def test_aec_episode_pays_zero_sum_rewards_and_renders(rl: Any) -> None:
    """A random deal ends with every agent terminated and rewards summing to zero; ansi render is text."""
    import numpy as np

    env = rl.aec_env("euchre", render_mode="ansi")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        total[agent] = total.get(agent, 0.0) + reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["observation"].shape == get_rules("euchre").observation_shape
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []
    assert abs(sum(total.values())) < 1e-9 and any(total.values())
    assert "euchre" in env.render()


def test_aec_same_seed_same_deal(rl: Any) -> None:
    """reset(seed=s) deals the same cards every time."""
    env = rl.aec_env("bezique")
    env.reset(seed=11)
    first = env.state_now.deck_order
    env.reset(seed=12)
    env.reset(seed=11)
    assert env.state_now.deck_order == first


def test_aec_illegal_action_is_refused(rl: Any) -> None:
    """An illegal action id raises IllegalActionError and leaves the deal unchanged."""
    env = rl.aec_env("bezique")
    env.reset(seed=1)
    before = env.state_now
    illegal = next(i for i, ok in enumerate(before.legal_action_mask()) if not ok)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.state_now is before


@pytest.mark.parametrize("variant", PRESETS)
def test_gym_env_passes_check_env(rl: Any, variant: str) -> None:
    """Gymnasium's check_env passes for every preset, made through its registered id."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    rl.register_gym_envs()
    env = gymnasium.make(f"bezique_rules/{variant}-v0", opponent="level2", render_mode="ansi")
    _quiet(check_env, env.unwrapped)


def test_gym_episode_against_agents(rl: Any) -> None:
    """The learner acts only on its own turns; the episode ends with a reward; the same seed replays it."""
    import numpy as np

    def run(seed: int) -> tuple[float, int]:
        env = rl.gym_env("bezique-match", opponent="level3", seat=1)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps, reward, done = 0, 0.0, False
        while not done:
            assert env.state_now.current_player == 1
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            assert not truncated and "illegal_action" not in info
            steps += 1
        return reward, steps

    assert run(5) == run(5)
    assert run(5)[1] > 10


def test_gym_illegal_action_ends_the_episode(rl: Any) -> None:
    """An illegal action ends the episode with reward -1 and info['illegal_action']."""
    env = rl.gym_env("euchre", opponent="random")
    obs, _ = env.reset(seed=0)
    illegal = int(list(obs["action_mask"]).index(0))
    _obs, reward, done, _trunc, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    assert not info["action_mask"].any() and not env.action_masks().any()  # the episode is over
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(illegal)


def test_gym_bad_seat_and_opponent_are_refused(rl: Any) -> None:
    """A seat outside the table or an unknown opponent name is refused with the value quoted."""
    with pytest.raises(ValueError, match="7"):
        rl.gym_env("euchre", seat=7)
    with pytest.raises(ValueError, match="grandmaster"):
        rl.gym_env("euchre", opponent="grandmaster")


def test_without_the_extra_the_import_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without pettingzoo / gymnasium / pyspiel, the entry points raise ImportError naming the extra."""
    import bezique_rules.integrations.envs as envs
    from bezique_rules.integrations import openspiel

    for name in ("pettingzoo", "gymnasium", "pyspiel"):
        monkeypatch.setitem(sys.modules, name, None)
    for name in (
        "bezique_rules.integrations.envs._common",
        "bezique_rules.integrations.envs.pettingzoo_env",
        "bezique_rules.integrations.envs.gymnasium_env",
    ):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delitem(sys.modules, "bezique_rules.integrations._openspiel_games", raising=False)
    with pytest.raises(ImportError, match=r"bezique-rules\[rl\]"):
        envs.aec_env("bezique")
    with pytest.raises(ImportError, match=r"bezique-rules\[rl\]"):
        envs.gym_env("bezique")
    with pytest.raises(ImportError, match=r"bezique-rules\[openspiel\]"):
        openspiel.register()
    importlib.invalidate_caches()


def test_importing_the_core_imports_no_extra() -> None:
    """import bezique_rules (and .envs, .openspiel, .observation) loads no numpy, gymnasium, pettingzoo, pyspiel."""
    code = (
        "import sys, bezique_rules, bezique_rules.integrations.envs, bezique_rules.integrations.openspiel\n"
        "import bezique_rules.state.observation\n"
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_pettingzoo_example_plays_zero_sum_deals(rl: Any) -> None:
    """examples/pettingzoo_random_loop.py plays three seeded deals, each zero-sum."""
    from test_examples import run_example

    lines = run_example("pettingzoo_random_loop.py").splitlines()
    assert [line.split(":")[0] for line in lines] == ["deal 1", "deal 2", "deal 3"]
    assert all(line.endswith("zero-sum True") for line in lines)


def test_linear_learner_example_trains_and_evaluates(rl: Any) -> None:
    """examples/linear_learner.py trains, then prints the greedy and the random policy's mean rewards."""
    from test_examples import run_example

    out = run_example("linear_learner.py")
    assert "trained on 800 deals of euchre" in out
    assert "mean reward over 200 deals: greedy learner " in out and "random policy " in out


@pytest.mark.parametrize("page", ["pettingzoo.md", "gymnasium.md"])
def test_how_to_page_examples_run(rl: Any, page: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``py`` blocks of the PettingZoo and Gymnasium how-to pages run, in order (they need the extra)."""
    from test_docs import DOCS, code_blocks

    monkeypatch.chdir(tmp_path)
    path = DOCS / "how-to" / page
    blocks = code_blocks(path, lang="py")
    assert blocks
    namespace: dict[str, Any] = {"__name__": f"docs.{page}"}
    for line, code in blocks:
        exec(compile("\n" * (line - 1) + code, str(path), "exec"), namespace)


def test_aec_finished_agent_takes_only_none(rl: Any) -> None:
    """Once the deal is over, stepping a finished agent with an action id is refused (None is its only action)."""
    env = rl.aec_env("euchre")
    env.reset(seed=4)
    while not env.terminations[env.agent_selection]:
        env.step(env.state_now.legal_action_ids()[0])
    with pytest.raises(IllegalActionError, match="only action is None"):
        env.step(0)
    env.step(None)
    assert len(env.agents) == 3


def test_aec_step_takes_numpy_ids_and_refuses_other_types(rl: Any) -> None:
    """A numpy integer id plays like the int; a value that is no action id is refused with the library's errors."""
    import numpy as np

    from bezique_rules import BeziqueRulesError

    env = rl.aec_env("euchre")
    env.reset(seed=2)
    first = env.state_now.legal_action_ids()[0]
    expected = env.state_now.apply(first)
    env.step(np.int64(first))
    assert env.state_now == expected
    before = env.state_now
    for bad in (True, 1.5, "nonsense", -1, 10**6):
        with pytest.raises(BeziqueRulesError):
            env.step(bad)
        assert env.state_now is before


# -- issue 30: environments a trainer can use as they are ------------------------------

SEATS = [(variant, seat) for variant in PRESETS for seat in range(get_rules(variant).players)]
"""Every seat of every preset."""


def _legal_mask(env: Any) -> Any:
    """The mask of the learner's legal ids, read from the state (not from the environment)."""
    import numpy as np

    mask = np.zeros(env.rules.num_actions, dtype=bool)
    if env.state_now.current_player == env.seat:
        mask[list(env.state_now.legal_action_ids())] = True
    return mask


def _play_out(env: Any, observation: Any, info: dict[str, Any], rng: Any) -> tuple[float, dict[str, Any], int]:
    """Play random masked actions to the episode's end, checking at every step that the learner
    is to act, that the three masks agree with the state and that the observation is in its space."""
    import numpy as np

    steps, done, reward = 0, False, 0.0
    while not done:
        assert not env.state_now.is_over and env.state_now.current_player == env.seat
        legal = _legal_mask(env)
        assert legal.any()
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,)
        assert np.array_equal(masks, legal)
        assert info["action_mask"].dtype == np.int8 and np.array_equal(info["action_mask"].astype(bool), legal)
        if isinstance(observation, dict):
            assert np.array_equal(observation["action_mask"], info["action_mask"])
        assert env.observation_space.contains(observation)
        action = env.action_space.sample(mask=info["action_mask"])  # Gymnasium's masked sampling takes int8
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated and "illegal_action" not in info
        steps += 1
    assert env.state_now.is_over and not env.action_masks().any() and not info["action_mask"].any()
    return reward, info, steps


@pytest.mark.parametrize(("variant", "seat"), SEATS)
def test_gym_every_seat_acts_on_every_observation_and_masks_agree(rl: Any, variant: str, seat: int) -> None:
    """Issue 30, items 1, 2 and 6, at every seat of every preset: reset and step hand back only
    states where the learner is to act; action_masks() (bool), info["action_mask"] (int8) and the
    dict observation's mask are the state's legal ids; the end gives scores, winner and breakdown."""
    import numpy as np

    env = rl.gym_env(variant, opponent="random", seat=seat)
    rng = np.random.default_rng(seat)
    observation, info = env.reset(seed=100 + seat)
    assert info["seat"] == seat and info["dealer"] == env.state_now.dealer
    for skipped in info["skipped_deals"]:
        assert skipped["seat"] == seat and skipped["reward"] == pytest.approx(skipped["reward"])
    reward, info, steps = _play_out(env, observation, info, rng)
    assert steps > 0
    state = env.state_now
    assert info["scores"] == state.scores
    assert info["reward"] == pytest.approx(reward)
    assert info["seat"] == seat and info["side"] == env.rules.side_of(seat)
    best = max(state.scores)
    assert info["winner"] == (state.scores.index(best) if state.scores.count(best) == 1 else None)
    totals = tuple(part.total for part in info["breakdown"])
    assert totals == tuple(b.total for b in state.breakdown)


@pytest.mark.parametrize(
    ("variant", "seat", "opponent"),
    [("schnapsen", 1, "random"), ("euchre", 2, "level2"), ("euchre", 3, "level4"), ("sixty-six", 1, "random")],
)
def test_gym_reset_never_hands_back_a_finished_deal(rl: Any, variant: str, seat: int, opponent: str) -> None:
    """Issue 30, item 1 (the bug): where the built-in players often end a deal before the
    learner's first turn (a random Schnapsen opponent closing at once, a Euchre lone hand the
    learner sits out), reset deals again until the learner is to act and lists the skipped
    deals, each with its outcome; the same seed skips the same deals."""
    env = rl.gym_env(variant, opponent=opponent, seat=seat, dealer=get_rules(variant).players - 1)  # as in the issue
    skipped_total = 0
    for seed in range(300):
        _observation, info = env.reset(seed=seed)
        assert not env.state_now.is_over and env.state_now.current_player == seat
        assert env.action_masks().any()
        for skipped in info["skipped_deals"]:
            assert set(skipped) >= {"scores", "winner", "breakdown", "reward", "seat", "side"}
            assert skipped["winner"] is not None or skipped["scores"].count(max(skipped["scores"])) > 1
        skipped_total += len(info["skipped_deals"])
    assert skipped_total > 0  # the case the bug was about did come up
    first = env.reset(seed=7)[1]["skipped_deals"]
    assert env.reset(seed=7)[1]["skipped_deals"] == first


def test_gym_whole_game_steps_only_to_the_learners_turns(rl: Any) -> None:
    """Issue 30, item 1 in whole_game mode: deals that end on the way (the learner sitting out a
    lone hand) are played through; step returns only at the learner's turn or the game's end,
    listing the deals that ended during it."""
    import numpy as np

    env = rl.gym_env("euchre", opponent="random", seat=2, whole_game=True)
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    deals_seen = len(info.get("deals_finished", ()))
    done = False
    while not done:
        assert env.state_now.current_player == 2 and env.action_masks().any()
        observation, reward, done, _truncated, info = env.step(env.action_space.sample(mask=info["action_mask"]))
        deals_seen += len(info.get("deals_finished", ()))
    game = env.state_now
    assert game.is_over and info["winner"] == game.winner and info["scores"] == game.totals
    assert deals_seen == len(game.results) == info["deals"]
    assert reward == (1.0 if game.winner == env.rules.side_of(2) else -1.0)
    del observation, rng


@pytest.mark.parametrize("variant", PRESETS)
def test_gym_observation_kinds_are_the_tensors_with_true_bounds(rl: Any, variant: str) -> None:
    """Issue 30, items 2 and 3: observation="flat" is a Box of the observation tensor alone,
    "information_state" a Box of the information-state tensor, "dict" (the default) the tensor
    and the mask; the bounds are [0, 1] except for the fields that can leave it, never ±1000."""
    import gymnasium
    import numpy as np

    rl.register_gym_envs()
    rules = get_rules(variant)
    flat = gymnasium.make(f"bezique_rules/{variant}-v0", observation="flat", opponent="random")
    info_state = gymnasium.make(f"bezique_rules/{variant}-v0", observation="information_state", opponent="random")
    default = rl.gym_env(variant, opponent="random")
    assert isinstance(default.observation_space, gymnasium.spaces.Dict)
    assert flat.observation_space.shape == rules.observation_shape
    assert info_state.observation_space.shape == rules.information_state_shape
    wide = {"hand_sizes", "melds", "pending", "scores", "game_scores", "verb_counts", "actions_taken"}
    for env, layout in ((flat, rules.observation_layout), (info_state, rules.information_state_layout)):
        space = env.observation_space
        for field in layout.fields:
            low, high = space.low[field.slice], space.high[field.slice]
            if field.name not in wide:
                assert (low == 0).all() and (high == 1).all(), field.name
            assert not np.isin([-1000.0, 1000.0], np.concatenate([low, high])).any()
        observation, info = env.reset(seed=5)
        state, seat = env.unwrapped.state_now, env.unwrapped.seat
        expected = state.view(seat).observation_tensor() if env is flat else state.information_state_tensor(seat)
        assert observation.dtype == np.float32
        assert np.array_equal(observation, np.asarray(expected, dtype=np.float32))
        assert env.unwrapped.action_masks().any()
        _play_out(env.unwrapped, observation, info, np.random.default_rng(5))


@pytest.mark.parametrize("variant", PRESETS)
@pytest.mark.parametrize("observation", ["flat", "information_state"])
def test_gym_flat_envs_pass_check_env(rl: Any, variant: str, observation: str) -> None:
    """Gymnasium's check_env passes for the Box observations of every preset."""
    from gymnasium.utils.env_checker import check_env

    _quiet(check_env, rl.gym_env(variant, opponent="random", observation=observation))


def test_gym_declared_bounds_hold_where_values_leave_the_unit_interval(rl: Any) -> None:
    """Issue 30, item 3: the fields that do leave [0, 1] in play (a dealer holding six Euchre
    cards, meld counts, action counts, a score past the target) stay inside the declared bounds."""
    import numpy as np

    for variant in ("euchre", "eight-pack-bezique", "auction-pinochle"):
        env = rl.gym_env(variant, opponent="random", observation="information_state")
        seen = np.zeros(env.observation_space.shape, dtype=np.float32)
        for seed in range(3):
            observation, info = env.reset(seed=seed)
            done = False
            while not done:
                assert env.observation_space.contains(observation)
                seen = np.maximum(seen, observation)
                observation, _reward, done, _trunc, info = env.step(env.action_space.sample(mask=info["action_mask"]))
        assert seen.max() > 1  # the unit interval was left, and the bounds held


def test_gym_seat_random_and_dealer_choices(rl: Any) -> None:
    """Issue 30, item 4: seat="random" draws the seat from the reset's seed (the same seed, the same
    seat; over many seeds every seat); dealer="random" draws the dealer, "rotate" passes the deal
    to the left from the last seat, a seat fixes it; bad values are refused, quoted."""
    from bezique_rules import OptionError

    env = rl.gym_env("euchre", opponent="random", seat="random")
    seats, dealers = set(), set()
    for seed in range(40):
        _obs, info = env.reset(seed=seed)
        assert info["seat"] == env.seat == env.state_now.current_player
        seats.add(info["seat"])
        dealers.add(info["dealer"])
        assert env.reset(seed=seed)[1]["seat"] == info["seat"]
    assert seats == dealers == {0, 1, 2, 3}
    rotate = rl.gym_env("schnapsen", opponent="random", seat=1, dealer="rotate")
    dealt = []
    for k in range(12):
        _obs, info = rotate.reset(seed=1 if k == 0 else None)
        dealt += [skipped["dealer"] for skipped in info["skipped_deals"]] + [info["dealer"]]
    assert dealt == [1, 0] * (len(dealt) // 2) + [1] * (len(dealt) % 2)  # skipped deals rotate too
    fixed = rl.gym_env("euchre", opponent="random", dealer=2)
    assert {fixed.reset(seed=s)[1]["dealer"] for s in range(5)} == {2}
    aec = rl.aec_env("euchre", dealer="rotate")
    order = []
    for _ in range(5):
        aec.reset()  # unseeded: the rotation starts with the environment
        order.append(aec.state_now.dealer)
    aec.reset(seed=0)  # seeding restarts it
    order.append(aec.state_now.dealer)
    assert order == [3, 0, 1, 2, 3, 3]
    with pytest.raises(OptionError, match="'left'"):
        rl.gym_env("euchre", dealer="left")
    with pytest.raises(OptionError, match="4"):
        rl.aec_env("euchre", dealer=4)
    with pytest.raises(ValueError, match="'any'"):
        rl.gym_env("euchre", seat="any")


def test_gym_partner_is_chosen_on_its_own_and_the_default_opponent_is_level4(rl: Any) -> None:
    """Issue 30, item 5: the default opponent is level4 (as documented); in Euchre ``partner=``
    plays the learner's partner only (the opponents' seats keep the opponent); a partner in a
    game without partnerships is refused."""
    from bezique_rules.agents import RandomAgent
    from bezique_rules.integrations.envs.gymnasium_env import DEFAULT_OPPONENT

    assert DEFAULT_OPPONENT == "level4" and rl.gym_env("schnapsen").opponent.name == "level4"
    seen: dict[str, set[int]] = {"partner": set(), "opponent": set()}

    class Recording(RandomAgent):
        def choose(self, view: Any, rng: Any) -> Any:
            seen[self.name].add(view.player)
            return super().choose(view, rng)

    partner = Recording(name="partner")
    env = rl.gym_env("euchre", opponent=Recording(name="opponent"), partner=partner, seat=1)
    assert env.partner is partner
    for seed in range(6):
        _obs, info = env.reset(seed=seed)
        done = False
        while not done:
            _obs, _r, done, _t, info = env.step(env.action_space.sample(mask=info["action_mask"]))
    assert seen["partner"] == {3} and seen["opponent"] == {0, 2}
    default = rl.gym_env("euchre", opponent="level2")
    assert default.partner is default.opponent
    with pytest.raises(ValueError, match="no partnerships"):
        rl.gym_env("schnapsen", partner="random")


CANONICAL = ("euchre", "british-euchre", "euchre-openspiel", "schnapsen", "sixty-six", "marjolet")
"""The presets that are the same game in every suit (canonical_suits applies)."""


def _renamed_deal(state: Any, names: dict[Any, Any]) -> Any:
    """``state`` with every suit renamed by ``names``: the same deck order and dealer, the same
    history, each card and named suit renamed (built through the public API only)."""
    import attrs

    from bezique_rules import Action, Card, new_deal

    def card(c: Any) -> Any:
        return Card(names[c.suit], c.rank) if c.suit is not None else c

    rules = state.rules
    deck = [card(rules.deck.card(i)) for i in state.deck_order]
    renamed = new_deal(rules, deck=deck, dealer=state.dealer)
    for _player, action in state.history:
        moved = attrs.evolve(
            action, cards=tuple(card(c) for c in action.cards), suit=names[action.suit] if action.suit else None
        )
        renamed = renamed.apply(Action.parse(str(moved)))
    return renamed


@pytest.mark.parametrize("variant", CANONICAL)
def test_canonical_suits_are_the_renamed_deal(rl: Any, variant: str) -> None:
    """Issue 30, item 7: with canonical_suits=True, every seat's observation (and information
    state) and mask are those of the deal with its suits renamed (trumps, or the turn-up's suit
    while bidding, become spades; the other suit of their colour clubs), replayed from a stacked
    deck; a canonical action id plays the renamed action. Pagat's Euchre: the left bower is the
    jack of the other suit of the trump colour, so the renaming keeps colours paired."""
    import numpy as np

    from bezique_rules import new_deal
    from bezique_rules.integrations.envs._common import SuitRelabelling, canonical_names

    rules = get_rules(variant)
    aec = rl.aec_env(variant, canonical_suits=True)
    plain = rl.aec_env(variant)
    info_state = rl.aec_env(variant, canonical_suits=True, observation="information_state")
    tricks, plain_tricks = (
        rl.aec_env(variant, canonical_suits=True, trick_features=True),
        rl.aec_env(variant, trick_features=True),
    )
    rng = np.random.default_rng(1)
    for seed in range(4):
        state = new_deal(rules, seed=seed, dealer=seed % rules.players)
        while not state.is_over:
            for seat in range(rules.players):
                view = state.view(seat)
                names = canonical_names(rules.deck.suits, SuitRelabelling.reference(view))
                renamed = _renamed_deal(state, names)
                canonical_obs, canonical_mask = aec.encoder.observe(state, seat)
                renamed_obs, renamed_mask = plain.encoder.observe(renamed, seat)
                assert np.array_equal(canonical_obs["observation"], renamed_obs["observation"])
                assert np.array_equal(canonical_mask, renamed_mask)
                with_tricks, _ = tricks.encoder.observe(state, seat)
                renamed_tricks, _ = plain_tricks.encoder.observe(renamed, seat)
                assert np.array_equal(with_tricks["observation"], renamed_tricks["observation"])
                info_tensor, _ = info_state.encoder.observe(state, seat)
                assert np.array_equal(info_tensor, np.asarray(renamed.information_state_tensor(seat), np.float32))
                if view.trump is not None:
                    trump = rules.observation_layout.field("trump")
                    assert canonical_obs["observation"][trump.slice][0] == 1.0  # trumps are always spades
            player = state.current_player
            assert player is not None
            _obs, mask = aec.encoder.observe(state, player)
            choice = int(rng.choice(np.flatnonzero(mask)))
            played = state.apply(aec.encoder.to_rules_id(state, player, choice))
            names = canonical_names(rules.deck.suits, SuitRelabelling.reference(state.view(player)))
            assert _renamed_deal(state, names).apply(choice) == _renamed_deal(played, names)
            state = played


TRICK_FEATURE_PRESETS = ("euchre", "british-euchre", "schnapsen", "four-hand-bezique", "auction-pinochle", "marjolet")
"""Partnerships with lone hands and a Benny, a closing game, several packs (identical cards), three seats."""


@pytest.mark.parametrize("variant", TRICK_FEATURE_PRESETS)
def test_trick_features_agree_with_the_engine_on_who_takes_the_trick(rl: Any, variant: str) -> None:
    """``trick_features=True`` appends ``trick_winner`` and ``winning_cards`` after the tensor.
    Checked against the engine, not against our reading of the trick order: whenever the
    learner is the last to play to a trick, each legal card he may play takes the trick (his
    won pile grows) exactly when ``winning_cards`` marks it, and any other card leaves the
    trick to the seat ``trick_winner`` marks. A leader sees both fields all zero. The values
    stay within the declared bounds, and the fields sit after the rule set's tensor."""
    import numpy as np

    for opponent in ("random", "level4"):
        env = rl.gym_env(variant, opponent=opponent, seat="random", observation="flat", trick_features=True)
        rules = env.rules
        layout = env.encoder.layout
        assert layout.fields[: len(rules.observation_layout.fields)] == rules.observation_layout.fields
        winner_field, cards_field = layout.field("trick_winner"), layout.field("winning_cards")
        assert winner_field.start == rules.observation_layout.size and cards_field.stop == layout.size
        assert env.observation_space.shape == (layout.size,)
        faces = rules.deck.faces
        rng = np.random.default_rng(5)
        checked = 0
        for episode in range(25):
            observation, info = env.reset(seed=episode)
            done = False
            while not done:
                assert env.observation_space.contains(observation)
                table, seat = env.state_now, env.seat
                view = table.view(seat)
                winner = np.flatnonzero(observation[winner_field.slice])
                winning = {faces[i] for i in np.flatnonzero(observation[cards_field.slice])}
                if not view.trick:
                    assert winner.size == 0 and not winning
                else:
                    assert winner.size == 1
                    assert winning <= set(view.hand)
                    playing = rules.players - len(view.sitting_out)
                    if len(view.trick) == playing - 1:  # the learner closes the trick
                        for action_id in np.flatnonzero(info["action_mask"]):
                            action = rules.action_space.actions[action_id]
                            if action.verb.value != "play":
                                continue
                            after = table.apply(int(action_id)).view(seat)
                            took = [len(after.won[s]) - len(view.won[s]) for s in range(rules.players)]
                            taker = int(np.argmax(took))
                            assert (taker == seat) == (action.cards[0] in winning), (view, action)
                            if taker != seat:
                                assert (taker - seat) % rules.players == winner[0], (view, action)
                            checked += 1
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                observation, _reward, done, _trunc, info = env.step(action)
        assert checked > 20
    with pytest.raises(OptionError, match="trick_features"):
        rl.gym_env("euchre", trick_features="yes")


@pytest.mark.parametrize("variant", ["euchre", "schnapsen", "bezique-match"])
@pytest.mark.parametrize("observation", ["dict", "flat", "information_state"])
def test_trick_feature_envs_pass_check_env(rl: Any, variant: str, observation: str) -> None:
    """Gymnasium's own checker accepts the environments with ``trick_features=True``."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(f"bezique_rules/{variant}-v0", observation=observation, trick_features=True, opponent="level2")
    _quiet(check_env, env.unwrapped)


def test_canonical_suits_are_refused_where_melds_name_suits(rl: Any) -> None:
    """Bezique's bezique (QS JD) and Pinochle's pinochle name particular suits: renaming the suits
    changes those games, so canonical_suits=True is refused with the reason."""
    from bezique_rules import OptionError

    for variant in sorted(set(PRESETS) - set(CANONICAL)):
        with pytest.raises(OptionError, match="same in every suit"):
            rl.gym_env(variant, canonical_suits=True)
    with pytest.raises(OptionError, match="canonical_suits"):
        rl.gym_env("euchre", canonical_suits="yes")
    with pytest.raises(OptionError, match="'tensor'"):
        rl.gym_env("euchre", observation="tensor")


def test_canonical_gym_episode_plays_by_canonical_ids(rl: Any) -> None:
    """A learner sending canonical ids plays whole Euchre deals at every seat: every id the mask
    allows is legal once renamed back."""
    for seat in range(4):
        env = rl.gym_env("euchre", opponent="random", seat=seat, canonical_suits=True, observation="flat")
        _observation, info = env.reset(seed=seat)
        done = False
        while not done:
            _observation, _reward, done, _trunc, info = env.step(env.action_space.sample(mask=info["action_mask"]))
            assert "illegal_action" not in info


def test_encoder_maps_canonical_ids_with_the_observations_reference(rl: Any) -> None:
    """The Gymnasium env maps the learner's canonical id with the reference suit kept from the
    observation (`observe_with_reference` + `rules_id`) instead of computing the view again:
    at every decision of random Euchre deals that gives the same rule-set id as
    `to_rules_id`, for every id of the action space (out-of-range ids pass through)."""
    import numpy as np

    env = rl.gym_env("euchre", opponent="random", seat="random", canonical_suits=True, observation="flat")
    encoder = env.encoder
    rng = np.random.default_rng(0)
    for episode in range(6):
        _observation, info = env.reset(seed=episode)
        done = False
        while not done:
            table, seat = env.state_now, env.seat
            _obs, mask, reference = encoder.observe_with_reference(table, seat)
            assert np.array_equal(mask, info["action_mask"])
            for action_id in (*range(env.action_space.n), -1, env.action_space.n):
                assert encoder.rules_id(reference, action_id) == encoder.to_rules_id(table, seat, action_id)
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _observation, _reward, done, _trunc, info = env.step(action)
            assert "illegal_action" not in info


@pytest.mark.parametrize("observation", ["flat", "information_state"])
@pytest.mark.parametrize("variant", ["euchre", "schnapsen", "bezique-match", "auction-pinochle"])
def test_aec_box_observations_pass_api_test_with_the_mask_in_info(rl: Any, variant: str, observation: str) -> None:
    """PettingZoo with observation="flat" / "information_state": api_test passes, the observation
    is the tensor alone, and the agent to act finds its mask in info["action_mask"]."""
    import numpy as np
    from pettingzoo.test import api_test

    _quiet(api_test, rl.aec_env(variant, observation=observation), num_cycles=200)
    env = rl.aec_env(variant, observation=observation, canonical_suits=variant in CANONICAL)
    env.reset(seed=2)
    rules = get_rules(variant)
    shape = rules.observation_shape if observation == "flat" else rules.information_state_shape
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, info = env.last()
        assert obs.shape == shape and env.observation_space(agent).contains(obs)
        if terminated or truncated:
            assert not info["action_mask"].any()
            env.step(None)
            continue
        assert np.array_equal(info["action_mask"], env.action_mask(agent)) and info["action_mask"].any()
        assert all(not env.infos[other] for other in env.agents if other != agent)  # no stale masks
        assert env.last(observe=False)[4] is env.infos[agent]
        env.step(int(rng_choice(info["action_mask"])))


def rng_choice(mask: Any) -> int:
    """The first legal id of an int8 mask."""
    import numpy as np

    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("variant", PRESETS)
def test_aec_infos_at_the_end_hold_the_outcome(rl: Any, variant: str) -> None:
    """Issue 30, item 6 in PettingZoo: when the deal ends every agent's info holds the scores, the
    winner, the breakdown and its side; the rewards are the documented returns."""
    env = rl.aec_env(variant)
    env.reset(seed=9)
    finals: dict[str, dict[str, Any]] = {}
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            finals[agent] = info
            env.step(None)
            continue
        env.step(rng_choice(obs["action_mask"]))
    state = env.state_now
    rules = env.rules
    assert set(finals) == set(env.possible_agents)
    for agent, info in finals.items():
        assert info["scores"] == state.scores
        assert info["side"] == rules.side_of(int(agent.split("_")[1]))
        assert tuple(part.total for part in info["breakdown"]) == tuple(b.total for b in state.breakdown)
        best = max(state.scores)
        assert info["winner"] == (state.scores.index(best) if state.scores.count(best) == 1 else None)


def test_self_play_example_learns_against_its_frozen_copy(rl: Any) -> None:
    """examples/pettingzoo_self_play.py trains against a frozen copy and beats the untrained policy."""
    from test_examples import run_example

    lines = run_example("pettingzoo_self_play.py").splitlines()
    assert lines[0].startswith("schnapsen: 300 self-play deals against a frozen copy (6 snapshots)")
    rate = float(lines[1].split(": ")[1].split("%")[0])
    assert rate > 50.0  # better than the untrained policy over the paired deals


def test_maskable_ppo_how_to_block_runs_when_sb3_contrib_is_installed(rl: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The MaskablePPO block of the Gymnasium how-to (fenced python3: sb3-contrib and torch are
    not CI dependencies) is valid Python, and runs (a few hundred steps) where sb3-contrib is."""
    import ast

    from test_docs import DOCS, code_blocks

    path = DOCS / "how-to" / "gymnasium.md"
    blocks = code_blocks(path, lang="python3")
    assert len(blocks) == 1
    line, code = blocks[0]
    ast.parse(code)
    assert "action_masks=env.unwrapped.action_masks()" in code and 'observation="flat"' in code
    pytest.importorskip("sb3_contrib", reason="needs sb3-contrib (the train extra)")
    short = code.replace("STEPS = 200_000", "STEPS = 256")
    assert short != code
    exec(compile("\n" * (line - 1) + short, str(path), "exec"), {"__name__": "docs.gymnasium"})


@pytest.mark.parametrize("variant", PRESETS)
def test_gym_random_seats_and_dealers_cover_the_table_in_every_preset(rl: Any, variant: str) -> None:
    """Issue 30, items 4 and 5, in every preset: seat="random" and dealer="random" reach every
    seat over a few dozen seeds, and in partnership games a separately chosen partner agent
    plays the learner's partners' seats and no other."""
    from bezique_rules.agents import RandomAgent

    rules = get_rules(variant)
    acted: dict[str, set[int]] = {"partner": set(), "opponent": set()}

    class Recording(RandomAgent):
        def choose(self, view: Any, rng: Any) -> Any:
            acted[self.name].add(rules.side_of(view.player) == rules.side_of(env.seat))
            return super().choose(view, rng)

    partners = any(len(side) > 1 for side in rules.sides)
    extra = {"partner": Recording(name="partner")} if partners else {}
    env = rl.gym_env(variant, opponent=Recording(name="opponent"), seat="random", **extra)
    seats, dealers = set(), set()
    for seed in range(40):
        _obs, info = env.reset(seed=seed)
        assert env.state_now.current_player == info["seat"] == env.seat
        seats.add(info["seat"])
        dealers.add(info["dealer"])
    assert seats == dealers == set(range(rules.players))
    assert acted["opponent"] == {False}
    assert acted["partner"] == ({True} if partners else set())
