"""The package's layout: the layers hold (issue 28, item 3; design review 2f473e4, sections 5-6).

The import graph is read from the source with `ast`, not by importing: an edge is an ``import``
or ``from ... import`` statement naming a module of the package. Module-level statements are the
imports that run when a module is imported; function-local (lazy) ones run when the function is
called. Imports under ``if TYPE_CHECKING:`` never run and are not edges. The engine and strategy
registries find their built-in engines by name (``importlib.import_module``): that is the plug-in
seam a third party's engine uses too, and it is not an edge either. The package root
(``bezique_rules/__init__.py``, the public façade that imports everything) is left out: every
module imports it first, by Python's own rules.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import itertools
import os
import pickle
import re
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import bezique_rules

PACKAGE = "bezique_rules"
SRC = Path(__file__).resolve().parent.parent / "src" / PACKAGE

MAX_LINES = 1000
"""No module of the package is longer (issue 28: "no module of the package is over 1,000 lines")."""
MAX_TOP_LEVEL = 12
"""Modules at the package's top level beside its sub-packages (``__init__.py`` not counted)."""
MAX_LOOP = 3
"""The largest set of modules that import each other in a loop, counting lazy imports."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package's modules an import statement of ``module`` imports."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".")
            if MODULES[module].name != "__init__.py":
                base.pop()
            base = base[: len(base) - (node.level - 1)]
            target = ".".join([*base, *([node.module] if node.module else [])])
        else:
            target = node.module or ""
        names = [target, *(f"{target}.{alias.name}" for alias in node.names)]
    found = set()
    for name in names:
        parts = name.split(".")
        while parts and ".".join(parts) not in MODULES:
            parts.pop()
        if len(parts) > 1:  # the package root is left out (see the module docstring)
            found.add(".".join(parts))
    found.discard(module)
    return found


def _walk(module: str, nodes: Iterator[ast.AST], in_function: bool, eager: set[str], local: set[str]) -> None:
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            (local if in_function else eager).update(_targets(module, node))
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            _walk(module, iter(node.orelse), in_function, eager, local)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            _walk(module, ast.iter_child_nodes(node), True, eager, local)
        else:
            _walk(module, ast.iter_child_nodes(node), in_function, eager, local)


def _imports() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Per module: the modules it imports at module level, and those it imports lazily."""
    top: dict[str, set[str]] = {}
    lazy: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        eager: set[str] = set()
        local: set[str] = set()
        _walk(module, iter(ast.parse(path.read_text(encoding="utf-8")).body), False, eager, local)
        top[module] = eager
        lazy[module] = local - eager
    return top, lazy


TOP, LAZY = _imports()


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = itertools.count()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = next(counter)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_reader_sees_the_imports_it_should() -> None:
    """The graph reader itself: a module-level import, a lazy one and a type-only one of
    `state/deal.py` are each where they belong (so the assertions below test something)."""
    assert "bezique_rules.actions" in TOP["bezique_rules.state.deal"]
    assert "bezique_rules.state.picture" in LAZY["bezique_rules.state.deal"]  # the picture, imported on use
    assert "bezique_rules.rules.ruleset" not in TOP["bezique_rules.state.deal"]  # under TYPE_CHECKING only


def test_no_module_level_import_cycle() -> None:
    """Importing any module runs no import loop: the module-level imports form no cycle."""
    assert _components(TOP) == []


def test_no_import_loop_of_more_than_three_modules_counting_lazy_imports() -> None:
    """Even counting function-local imports (a state's picture, tensor, record: conveniences
    that reach up a layer and import on use), no more than three modules import each other
    in a loop (issue 28; there were nine)."""
    graph = {m: TOP[m] | LAZY[m] for m in MODULES}
    too_big = [c for c in _components(graph) if len(c) > MAX_LOOP]
    assert too_big == []


def test_the_engine_registry_is_imported_by_name_only() -> None:
    """The registry names its built-in engines and imports them on first use: the rules layer
    (`RuleSet.tables`) reaches the engines through it without importing an engine module."""
    for module in MODULES:
        if module.startswith(("bezique_rules.rules.", "bezique_rules.engine.registry")):
            engines = {m for m in TOP[module] | LAZY[module] if m.startswith("bezique_rules.engine.")}
            assert engines <= {"bezique_rules.engine.registry"}, module


def test_no_module_is_over_a_thousand_lines() -> None:
    """Big modules are split by lifetime (per rule set, per state, per viewer), not left whole."""
    sizes = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in MODULES.items()}
    assert {m: n for m, n in sizes.items() if n > MAX_LINES} == {}


def test_the_top_level_holds_at_most_twelve_modules() -> None:
    """Beside its sub-packages (the layers), the package's top level holds few modules."""
    top = sorted(p.name for p in SRC.glob("*.py") if p.name != "__init__.py")
    assert len(top) <= MAX_TOP_LEVEL, top


def test_no_two_classes_share_a_name() -> None:
    """One word per concept: a class name means one class in the whole package."""
    homes: dict[str, list[str]] = {}
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                homes.setdefault(node.name, []).append(module)
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_is_read(module: str) -> None:
    """Every module parses, so the graph above covers the whole package."""
    assert module in TOP and module in LAZY


def test_the_package_imports_its_modules_at_their_homes() -> None:
    """Inside the package no import goes through a 0.2.0 path (`bezique_rules.MOVED_MODULES`):
    every ``from X import`` names a module that is a file of the package."""
    wrong = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = module.split(".")
                if path.name != "__init__.py":
                    base.pop()
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
                if target not in MODULES:
                    wrong.append(f"{module}: from {'.' * node.level}{node.module or ''}")
    assert wrong == []


MOVED = sorted((old, new) for old, new in bezique_rules.MOVED_MODULES.items() if old not in bezique_rules.SPLIT_MODULES)


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_a_0_2_0_module_path_still_imports_with_a_deprecation_warning(old: str, new: str) -> None:
    """Code written for 0.2.0 imports ``bezique_rules.svg``, ``bezique_rules.records``...: the
    old path gives the module at its new home (the same object), and warns, naming it."""
    if new.endswith("_openspiel_games"):
        pytest.importorskip("pyspiel", reason="the module needs the [openspiel] extra")
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=re.escape(new)):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new and module.__spec__ is not None and module.__spec__.name == new


@pytest.mark.parametrize(("old", "homes"), sorted(bezique_rules.SPLIT_MODULES.items()))
def test_a_0_2_0_module_split_by_family_still_gives_every_name(old: str, homes: tuple[str, ...]) -> None:
    """``bidding``, ``scoring`` and ``melds`` were split into the shared parts and one module per
    family: every name the 0.2.0 module exported is still importable from its old path, and is
    the object at its new home."""
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=re.escape(homes[0])):
        module = importlib.import_module(old)
    exported = OLD_EXPORTS[old]
    assert set(exported) <= set(module.__all__)
    for name in exported:
        value = getattr(module, name)
        assert any(vars(importlib.import_module(home)).get(name, None) is value for home in homes), name
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = module.nothing


OLD_EXPORTS = {
    "bezique_rules.bidding": [
        "AllPass",
        "Auction",
        "BennyTurned",
        "ContractRules",
        "DealerPickup",
        "Decision",
        "FarmersHand",
        "FirstLeader",
        "LoneDefender",
        "LoneLead",
        "Melders",
        "OrderUp",
        "Takeover",
    ],
    "bezique_rules.scoring": [
        "BRISQUES",
        "CLASSIC_COUNTERS",
        "FIVES_COUNTERS",
        "TENS_COUNTERS",
        "UNIT_SCALE",
        "UNIT_SCALE_STEEP",
        "CardPoints",
        "Concession",
        "ContractScoring",
        "DealResultRule",
        "DealsEnd",
        "EndDecision",
        "EuchreScoring",
        "GameEnd",
        "GamesMatchEnd",
        "MatchEnd",
        "RubiconScoring",
        "ScoreBreakdown",
        "Settlement",
        "Standing",
        "StockBonuses",
        "TargetEnd",
        "TieRule",
    ],
    "bezique_rules.melds": [
        "DixMethods",
        "DixRule",
        "FixedCards",
        "InstanceGroup",
        "MeldKind",
        "MeldReuse",
        "MeldRules",
        "MeldTable",
        "NewCardRule",
        "Quartet",
        "RunSuits",
        "SuitRun",
        "TrumpWith",
        "index_instances",
        "legal_declarations",
    ],
}
"""What the 0.2.0 modules that were split exported (their ``__all__`` at 0.2.0)."""


def test_old_paths_reach_modules_below_a_moved_package_and_names_in_them() -> None:
    """``bezique_rules.envs.gymnasium_env`` (below the moved ``envs``) and ``from
    bezique_rules.records import replay`` work as in 0.2.0."""
    if _has("numpy"):  # the learning environments' module needs the [rl] extra
        sys.modules.pop("bezique_rules.envs._common", None)
        with pytest.warns(DeprecationWarning, match="bezique_rules.integrations.envs._common"):
            common = importlib.import_module("bezique_rules.envs._common")
        assert common is importlib.import_module("bezique_rules.integrations.envs._common")
    sys.modules.pop("bezique_rules.records", None)
    with pytest.warns(DeprecationWarning):
        from bezique_rules.records import replay  # type: ignore[import-not-found]  # an old path, served by the finder
    assert replay is bezique_rules.replay


def _has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def test_old_module_names_are_attributes_of_the_package() -> None:
    """``import bezique_rules; bezique_rules.svg.render(...)`` worked in 0.2.0: the moved modules
    are attributes of the package, imported on first use."""
    module = bezique_rules.__getattr__("svg")
    assert module is importlib.import_module("bezique_rules.state.svg")
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        bezique_rules.__getattr__("nothing")


def test_a_deal_pickled_under_the_old_module_names_unpickles() -> None:
    """A pickle names classes and functions by module: one written by 0.2.0 (``bezique_rules.game``,
    ``bezique_rules.state._unpickled_deal``...) still loads, to an equal value."""
    game = bezique_rules.new_game("bezique", seed=4)
    game = game.apply(game.legal_actions()[0])
    data = pickle.dumps(game, protocol=2)  # protocol 2 names globals as text lines
    assert b"bezique_rules.state.game\n" in data
    old = data.replace(b"bezique_rules.state.game\n", b"bezique_rules.game\n").replace(
        b"bezique_rules.state.deal\n", b"bezique_rules.state\n"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert pickle.loads(old) == game
    # a part of a hand-built rule set, named by its 0.2.0 module
    bonuses = bezique_rules.StockBonuses(last_card=10)
    data = pickle.dumps(bonuses, protocol=2)
    assert b"bezique_rules.parts.stock\n" in data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert pickle.loads(data.replace(b"bezique_rules.parts.stock\n", b"bezique_rules.scoring\n")) == bonuses


def test_old_paths_import_no_extra() -> None:
    """``import bezique_rules`` and the old paths of the adapters import no optional extra."""
    code = (
        "import sys, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "import bezique_rules, bezique_rules.envs, bezique_rules.openspiel, bezique_rules.cluster\n"
        "import bezique_rules.returns, bezique_rules.observation\n"
        "print(sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'distributed') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env())
    assert out.stdout.strip() == "[]"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC.parent), env.get("PYTHONPATH", "")])
    return env


LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("vocabulary", ("cards", "deck", "actions", "bits", "errors", "checks", "lazy", "_extras")),
    ("rule parts", ("parts",)),
    ("composition", ("rules",)),
    (
        "the deal interface",
        ("state=", "state.deal", "state.knowledge", "state.worlds", "state.witness", "state.witness_plan"),
    ),
    ("sequencing", ("engine",)),
    ("the state interface", ("api", "state")),
    ("users of the API", ("agents", "batch", "play", "integrations", "cli", "__main__")),
)
"""The layers, lowest first, as `docs/explanation/engines.md` draws them: a module belongs to the
layer of the longest prefix of its name (below ``bezique_rules.``) listed here (``=``: that
module only, here the `bezique_rules.state` package's own ``__init__``)."""

REACHING_UP = {
    ("bezique_rules.rules.ruleset", "bezique_rules.engine.registry"),  # RuleSet.tables
    ("bezique_rules.rules.ruleset", "bezique_rules.state.observation"),  # RuleSet.encodings
    ("bezique_rules.state.deal", "bezique_rules.state.observation"),  # the tensors of a view or deal
    ("bezique_rules.state.deal", "bezique_rules.state.picture"),  # a view's or deal's picture
    ("bezique_rules.state.deal", "bezique_rules.state.records"),  # DealState.to_dict / from_dict
    ("bezique_rules.state.deal", "bezique_rules.state.viewdata"),  # PlayerView.to_dict / from_dict
    ("bezique_rules.state.knowledge", "bezique_rules.engine.registry"),  # a world replayed through its engine
    ("bezique_rules.state.witness", "bezique_rules.engine.registry"),  # determinize: the witness replayed
}
"""The conveniences that reach up a layer, each a function-local import that says so."""


def _layer(module: str) -> int:
    name = module.removeprefix(PACKAGE + ".")
    best, found = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if prefix.endswith("="):
                if name == prefix[:-1] and len(prefix) > best:
                    best, found = len(prefix), i
            elif (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), i
    assert found >= 0, module
    return found


def test_module_level_imports_go_down_the_layers() -> None:
    """A module imports (at module level) only from its own layer or the layers below."""
    up = sorted((m, x) for m in MODULES if m != PACKAGE for x in TOP[m] if _layer(x) > _layer(m))
    assert up == []
    # the rule set and the deal interface sit side by side: an engine reads both
    side = sorted(
        (m, x) for m in MODULES if m != PACKAGE and _layer(m) == 3 for x in TOP[m] | LAZY[m] if _layer(x) == 2
    )
    assert side == []


def test_only_the_named_conveniences_reach_up() -> None:
    """The lazy imports that go up a layer are the documented conveniences, nothing else."""
    up = {(m, x) for m in MODULES if m != PACKAGE for x in LAZY[m] if _layer(x) > _layer(m)}
    assert up == REACHING_UP


def test_old_paths_imported_from_threads_at_once_keep_their_modules_whole() -> None:
    """Two threads importing different old paths at the same time each get the module at its
    new home, with that module's own spec (the finder keeps nothing between two imports)."""
    names = ["bezique_rules.svg", "bezique_rules.game", "bezique_rules.knowledge", "bezique_rules.events"]
    for name in names:
        sys.modules.pop(name, None)
    barrier = threading.Barrier(len(names))
    found: dict[str, object] = {}

    def load(name: str) -> None:
        barrier.wait()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            found[name] = importlib.import_module(name)

    threads = [threading.Thread(target=load, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name in names:
        new = bezique_rules.MOVED_MODULES[name]
        module = found[name]
        assert module is importlib.import_module(new)
        assert isinstance(module, ModuleType) and module.__spec__ is not None and module.__spec__.name == new
