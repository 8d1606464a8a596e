"""The ``>>>`` examples in every module's docstrings run, against the installed package."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import bezique_rules


def _modules() -> list[str]:
    names = [bezique_rules.__name__]
    for info in pkgutil.walk_packages(bezique_rules.__path__, prefix=bezique_rules.__name__ + "."):
        if info.name.endswith("__main__"):
            continue
        names.append(info.name)
    return sorted(names)


NEEDS_AN_EXTRA = {
    "bezique_rules.integrations._openspiel_games": "openspiel",
    "bezique_rules.integrations.envs._common": "rl",
    "bezique_rules.integrations.envs.gymnasium_env": "rl",
    "bezique_rules.integrations.envs.pettingzoo_env": "rl",
}
"""Modules that import an extra's packages: skipped when the extra is not installed."""


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_run(name: str) -> None:
    """Every docstring example of the module gives the output it shows."""
    if name.startswith("bezique_rules.batch"):
        pytest.importorskip("numpy", reason="the batch engine needs the [batch] extra (numpy)")
    try:
        module: ModuleType = importlib.import_module(name)
    except ImportError as exc:
        if name not in NEEDS_AN_EXTRA:
            raise
        pytest.skip(f"{name} needs the [{NEEDS_AN_EXTRA[name]}] extra: {exc}")
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False, report=True
    )
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples failed in {name}"
