"""Rule sets, the registry of variants, and one module per family of presets."""

from __future__ import annotations

from . import registry
from .registry import Preset, available_variants, get_rules, register_preset, register_variant
from .ruleset import OptionSpec, RuleSet, StockRules

__all__ = [
    "OptionSpec",
    "Preset",
    "RuleSet",
    "StockRules",
    "available_variants",
    "get_rules",
    "register_preset",
    "register_variant",
]

from . import bezique as _bezique  # noqa: F401  (registers the presets)
from . import euchre as _euchre  # noqa: F401
from . import marjolet as _marjolet  # noqa: F401
from . import multihand as _multihand  # noqa: F401
from . import multipack as _multipack  # noqa: F401
from . import pinochle as _pinochle  # noqa: F401
from . import sixtysix as _sixtysix  # noqa: F401

registry.mark_builtin()
