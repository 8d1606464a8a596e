"""bezique-rules: correct, fast, fully typed rules for the Bezique family of card games.

Everything public is importable from here:

>>> from bezique_rules import new_deal
>>> deal = new_deal("bezique", seed=1)
>>> deal = deal.apply(deal.legal_actions()[0])
>>> deal.current_player
1
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

from .actions import Action, ActionKind, ActionSpace, Verb
from .agents import Agent, HeuristicAgent, RandomAgent, SearchAgent, level
from .api import new_deal
from .cards import JOKER, Card, CardSet, Rank, Suit, parse_cards
from .deck import DealPattern, DeckSpec, shuffle
from .errors import (
    ArgumentTypeError,
    BeziqueRulesError,
    DealError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    RuleCode,
    UnknownVariantError,
)
from .parts.cut import BEZIQUE_CUT, EUCHRE_CUT, PINOCHLE_CUT, CutDecision, CutDraw, CutForDeal, CutOutcome
from .parts.melds import FixedCards, MeldKind, MeldRules, MeldTable, Quartet, SuitRun, TrumpWith
from .parts.scoring import BRISQUES, CardPoints, MatchEnd, ScoreBreakdown, TargetEnd
from .parts.stock import DixRule, StockBonuses
from .parts.tricks import BeatRule, PlayDuty, TrickPolicy
from .parts.trumps import TrumpOrder, TrumpTable
from .rules import OptionSpec, Preset, RuleSet, StockRules, available_variants, get_rules, register_variant
from .state.deal import DealResult, DealState, Phase, PlayerView, TableMeld
from .state.events import (
    CardsReceived,
    CardsShown,
    DealOver,
    Event,
    Moved,
    PhaseChanged,
    ScoresChanged,
    TrickWon,
    TrumpsFixed,
    what_happened,
)
from .state.game import GameState, deal_seed, new_game
from .state.records import record_of, replay
from .state.worlds import Worlds, determinize

__version__ = "0.2.0"
"""The package version."""

__all__ = [
    "BEZIQUE_CUT",
    "BRISQUES",
    "EUCHRE_CUT",
    "JOKER",
    "PINOCHLE_CUT",
    "Action",
    "ActionKind",
    "ActionSpace",
    "Agent",
    "ArgumentTypeError",
    "BeatRule",
    "BeziqueRulesError",
    "Card",
    "CardPoints",
    "CardSet",
    "CardsReceived",
    "CardsShown",
    "CutDecision",
    "CutDraw",
    "CutForDeal",
    "CutOutcome",
    "DealError",
    "DealOver",
    "DealPattern",
    "DealResult",
    "DealState",
    "DeckSpec",
    "DixRule",
    "Event",
    "FixedCards",
    "GameState",
    "HeuristicAgent",
    "IllegalActionError",
    "MatchEnd",
    "MeldKind",
    "MeldRules",
    "MeldTable",
    "Moved",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "Phase",
    "PhaseChanged",
    "PlayDuty",
    "PlayerView",
    "Preset",
    "Quartet",
    "RandomAgent",
    "Rank",
    "RecordError",
    "RuleCode",
    "RuleSet",
    "ScoreBreakdown",
    "ScoresChanged",
    "SearchAgent",
    "StockBonuses",
    "StockRules",
    "Suit",
    "SuitRun",
    "TableMeld",
    "TargetEnd",
    "TrickPolicy",
    "TrickWon",
    "TrumpOrder",
    "TrumpTable",
    "TrumpWith",
    "TrumpsFixed",
    "UnknownVariantError",
    "Verb",
    "Worlds",
    "__version__",
    "available_variants",
    "deal_seed",
    "determinize",
    "get_rules",
    "level",
    "new_deal",
    "new_game",
    "parse_cards",
    "record_of",
    "register_variant",
    "replay",
    "shuffle",
    "what_happened",
]


# -- the 0.2.0 module paths ----------------------------------------------------------------

MOVED_MODULES: dict[str, str] = {
    "bezique_rules.trumps": "bezique_rules.parts.trumps",
    "bezique_rules.tricks": "bezique_rules.parts.tricks",
    "bezique_rules.melds": "bezique_rules.parts.melds",
    "bezique_rules.scoring": "bezique_rules.parts.scoring",
    "bezique_rules.cut": "bezique_rules.parts.cut",
    "bezique_rules.bidding": "bezique_rules.parts.euchre",
    "bezique_rules.rules.closing": "bezique_rules.parts.closing",
    "bezique_rules.rules.engines": "bezique_rules.engine.registry",
    "bezique_rules.game": "bezique_rules.state.game",
    "bezique_rules.records": "bezique_rules.state.records",
    "bezique_rules.knowledge": "bezique_rules.state.knowledge",
    "bezique_rules.observation": "bezique_rules.state.observation",
    "bezique_rules.svg": "bezique_rules.state.svg",
    "bezique_rules.events": "bezique_rules.state.events",
    "bezique_rules.openspiel": "bezique_rules.integrations.openspiel",
    "bezique_rules._openspiel_games": "bezique_rules.integrations._openspiel_games",
    "bezique_rules.cluster": "bezique_rules.integrations.cluster",
    "bezique_rules.returns": "bezique_rules.integrations.returns",
    "bezique_rules.envs": "bezique_rules.integrations.envs",
}
"""Modules of 0.2.0 that moved when the package was laid out by layer: old dotted name -> new.

Importing an old name (or a module below it, such as ``bezique_rules.envs.gymnasium_env``)
still works and gives the module at its new home, the same object, with a
`DeprecationWarning` naming the new path; nothing is imported before it is asked for. An
old module whose names went to several homes (`SPLIT_MODULES`) gives a module of its own
that finds each name in its new home."""

SPLIT_MODULES: dict[str, tuple[str, ...]] = {
    "bezique_rules.bidding": ("bezique_rules.parts.euchre", "bezique_rules.parts.auction"),
    "bezique_rules.scoring": (
        "bezique_rules.parts.scoring",
        "bezique_rules.parts.stock",
        "bezique_rules.parts.euchre",
        "bezique_rules.parts.auction",
    ),
    "bezique_rules.melds": ("bezique_rules.parts.melds", "bezique_rules.parts.stock"),
}
"""0.2.0 modules whose names now live in several modules (one family's parts each): old name
-> the new homes, searched in order."""


class _SplitModule(ModuleType):
    """A 0.2.0 module whose names went to several homes: each name is read from the first home
    that defines it (``from bezique_rules.scoring import StockBonuses`` as in 0.2.0)."""

    def __init__(self, name: str, homes: tuple[ModuleType, ...]) -> None:
        super().__init__(
            name, f"The 0.2.0 module {name}: its names now live in {', '.join(h.__name__ for h in homes)}."
        )
        self._homes = homes
        self.__all__ = sorted({n for home in homes for n in getattr(home, "__all__", ())})
        self.__path__: list[str] = []  # a package (``bezique_rules.melds`` was one): its modules have new homes

    def __getattr__(self, name: str) -> object:
        for home in self._homes:
            found = home.__dict__.get(name, _MISSING)
            if found is not _MISSING:
                return found
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")


_MISSING = object()


def _new_home(name: str) -> str | None:
    """The new name of the moved module ``name`` (or of a module below one), or None."""
    old = name
    while old:
        new = MOVED_MODULES.get(old)
        if new is not None:
            return new + name[len(old) :]
        old = old.rpartition(".")[0]
    return None


def _caller_level() -> int:
    """The stack level, as `warnings.warn` counts it from `_MovedModuleFinder.create_module`, of
    the code that asked for the old path: the import machinery's frozen frames are skipped by
    `warnings.warn` itself; this module's and `importlib.import_module`'s frames are counted."""
    level, frame = 2, sys._getframe(2)  # the frame below create_module
    while frame is not None:
        name = frame.f_code.co_filename
        if name in (__file__, importlib.__file__):
            level += 1
        elif not name.startswith("<frozen importlib"):
            break
        frame = frame.f_back  # type: ignore[assignment]
    return level


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a 0.2.0 module path and loads it as the module at its new home (`MOVED_MODULES`)."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if _new_home(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        split = SPLIT_MODULES.get(spec.name)
        new = ", ".join(split) if split else _new_home(spec.name)
        assert new is not None
        warnings.warn(
            f"{spec.name} moved to {new} (the old path will be removed in a later release)",
            DeprecationWarning,
            stacklevel=_caller_level(),
        )
        if split:
            return _SplitModule(spec.name, tuple(importlib.import_module(home) for home in split))
        module = importlib.import_module(new)
        spec.loader_state = module.__spec__  # kept with this import, for exec_module
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import machinery set the old name's spec on the module it was given; a moved
        # module keeps its own (it is the same object under both names).
        spec = module.__spec__
        if not isinstance(module, _SplitModule) and spec is not None and spec.loader_state is not None:
            module.__spec__ = spec.loader_state


if not any(isinstance(finder, _MovedModuleFinder) for finder in sys.meta_path):
    # First in line: below a moved package (``bezique_rules.envs``) the file finder would
    # otherwise load a second copy of a module under its old name.
    sys.meta_path.insert(0, _MovedModuleFinder())


def __getattr__(name: str) -> ModuleType:
    """``bezique_rules.svg`` and the other moved modules as attributes (imported on first use)."""
    if f"{__name__}.{name}" in MOVED_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
