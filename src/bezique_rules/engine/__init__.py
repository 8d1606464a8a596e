"""Engines: phase sequencing only. Each engine compiles a `RuleSet`'s tables and deals.

The built-in engines are ``stock`` (draw after each trick: Bezique, two-hand Pinochle),
``auction`` (bid, meld, play: auction and partnership Pinochle) and ``euchre`` (order-up
rounds, then tricks). Engines are found by name through the registry in
`bezique_rules.engine.registry`, where a third party can register its own.
"""

from __future__ import annotations

from .registry import Engine, EngineTables, available_engines, engine_for, register_engine

__all__ = ["Engine", "EngineTables", "available_engines", "engine_for", "register_engine"]
