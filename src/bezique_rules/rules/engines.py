"""Deprecated: the engine registry moved to `bezique_rules.engine.registry`.

This module re-exports it so that code written for 0.2.0 keeps working; importing it warns.
"""

from __future__ import annotations

import warnings

from ..engine.registry import Engine, EngineTables, available_engines, engine_for, register_engine

__all__ = ["Engine", "EngineTables", "available_engines", "engine_for", "register_engine"]

warnings.warn(
    "bezique_rules.rules.engines moved to bezique_rules.engine.registry; the old path will be removed",
    DeprecationWarning,
    stacklevel=2,
)
