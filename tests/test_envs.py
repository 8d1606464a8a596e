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

from bezique_rules import IllegalActionError, available_variants, get_rules

PRESETS = available_variants(builtin=True)


@pytest.fixture(scope="module")
def rl() -> Any:
    """The rl extra's packages (the tests skip without them)."""
    pytest.importorskip("numpy", reason="needs the [rl] extra")
    pytest.importorskip("gymnasium", reason="needs the [rl] extra")
    pytest.importorskip("pettingzoo", reason="needs the [rl] extra")
    import bezique_rules.envs as envs

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
    assert (reward, done, info) == (-1.0, True, {"illegal_action": True})


def test_gym_bad_seat_and_opponent_are_refused(rl: Any) -> None:
    """A seat outside the table or an unknown opponent name is refused with the value quoted."""
    with pytest.raises(ValueError, match="7"):
        rl.gym_env("euchre", seat=7)
    with pytest.raises(ValueError, match="grandmaster"):
        rl.gym_env("euchre", opponent="grandmaster")


def test_without_the_extra_the_import_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without pettingzoo / gymnasium / pyspiel, the entry points raise ImportError naming the extra."""
    import bezique_rules.envs as envs
    from bezique_rules import openspiel

    for name in ("pettingzoo", "gymnasium", "pyspiel"):
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("bezique_rules.envs._common", "bezique_rules.envs.pettingzoo_env", "bezique_rules.envs.gymnasium_env"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delitem(sys.modules, "bezique_rules._openspiel_games", raising=False)
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
        "import sys, bezique_rules, bezique_rules.envs, bezique_rules.openspiel, bezique_rules.observation\n"
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
