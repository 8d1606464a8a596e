"""The engine registry (issue 14, item 5): engines are found by name; built-ins cannot be replaced."""

from __future__ import annotations

import pytest

from bezique_rules import OptionError, get_rules
from bezique_rules.engine.registry import available_engines, engine_for, register_engine


def test_builtin_engines_are_found_by_name() -> None:
    """Every built-in preset's engine is in the registry under the name its rule set gives."""
    assert {"stock", "auction", "euchre"} <= set(available_engines())
    for variant in ("bezique", "partnership-pinochle", "euchre"):
        rules = get_rules(variant)
        assert engine_for(rules.engine).name == rules.engine


def test_unknown_engine_is_an_option_error_naming_it() -> None:
    """An engine name nobody registered is refused with the known names."""
    with pytest.raises(OptionError, match=r"unknown engine 'chess'.*stock"):
        engine_for("chess")


def test_builtin_engine_cannot_be_replaced() -> None:
    """Registering under a built-in engine's name is refused."""
    with pytest.raises(OptionError, match="already registered"):
        register_engine(engine_for("stock"))


def test_agents_find_their_strategy_by_engine_name() -> None:
    """The computer players look up what they know of an engine in a registry, not by isinstance."""
    from bezique_rules.agents.strategy import strategy_for

    assert strategy_for(get_rules("bezique")).engine == "stock"
    assert strategy_for(get_rules("bezique")).ranking is not None  # flat search over the heuristic's picks
    assert strategy_for(get_rules("euchre")).engine == "euchre"
    assert strategy_for(get_rules("auction-pinochle")).ranking is None  # plain tree search


def test_builtin_agent_strategy_cannot_be_replaced_silently() -> None:
    """Registering a second strategy for an engine that has one needs replace=True."""
    from bezique_rules.agents.strategy import register_strategy, strategy_for

    with pytest.raises(OptionError, match="has an agent strategy already"):
        register_strategy(strategy_for(get_rules("euchre")))


def _stock_presets() -> list[str]:
    from bezique_rules import available_variants

    return [v for v in available_variants() if get_rules(v).engine == "stock"]


@pytest.mark.parametrize("variant", _stock_presets())
def test_stock_deals_built_fast_are_the_readable_deals(variant: str) -> None:
    """The engines' speed trick (`DealState._make`: the deal's slots set directly) builds exactly
    the deal the readable way builds (`StockCore` by keyword, then `StockDeal(...)`), equal and
    with the same hash, and the legal actions it
    keeps for a trick winner's declaration are those `_compute_legal` finds afresh."""
    import random

    from bezique_rules import new_deal
    from bezique_rules.engine.stock import StockCore, StockDeal

    rng = random.Random(5)
    seen_declare = 0
    for seed in range(3):
        deal = new_deal(variant, seed=seed)
        while not deal.is_over:
            assert isinstance(deal, StockDeal)
            readable = StockDeal(deal.setup, StockCore(**deal.core._asdict()))
            assert readable == deal
            assert hash(readable) == hash(deal)
            kept = deal._legal
            if kept is not None:
                seen_declare += deal.phase.value == "declare"
                assert kept == deal._compute_legal() == readable.legal_action_ids()
            ids = deal.legal_action_ids()
            deal = deal.apply(rng.choice(ids), check=False)
    assert seen_declare > 0


@pytest.mark.parametrize("variant", ["bezique", "auction-pinochle", "euchre", "sixty-six"])
def test_raw_fields_read_the_record_with_their_declared_type(variant: str) -> None:
    """Each engine's raw fields (``deal.stock``, ``deal.kitty``, ...) are `CoreField`s: every one
    reads the field of ``core`` its path names, a value of the type it declares, at every step
    of a deal (a path that names no field, or a wrong type, fails here, not in a user's code)."""
    import operator
    import random
    import types
    import typing

    from bezique_rules import new_deal
    from bezique_rules.engine.fields import CoreField

    deal = new_deal(variant, seed=5)
    fields = {
        name: field for cls in type(deal).__mro__ for name, field in vars(cls).items() if isinstance(field, CoreField)
    }
    assert fields, "the engine's deal declares its raw fields as CoreFields"
    rng = random.Random(1)
    while True:
        for name, field in fields.items():
            path = field.__doc__.strip("`") if field.__doc__ else ""
            assert path.startswith("core.")
            value = getattr(deal, name)
            assert value == operator.attrgetter(path)(deal), name
            (declared,) = typing.get_args(field.__orig_class__)  # type: ignore[attr-defined]
            origin = typing.get_origin(declared)
            kind = declared if origin is types.UnionType else origin or declared  # tuple[int, ...]: a tuple
            assert isinstance(value, kind), (name, value, declared)
        if deal.is_over:
            break
        deal = deal.apply(rng.choice(deal.legal_action_ids()), check=False)


def test_action_numbering_gives_ids_in_order_and_refuses_an_action_twice() -> None:
    """Every engine numbers its actions through `ActionNumbering`: ids in the order added, the
    meanings beside them; an action added twice (which would shift every later id) is refused."""
    from bezique_rules.actions import Action, ActionNumbering, Verb

    numbering = ActionNumbering[str]()
    assert numbering.add(Action(Verb.PASS), "pass") == 0
    assert numbering.add(Action(Verb.CLOSE), "close") == 1
    assert numbering.space().actions == (Action(Verb.PASS), Action(Verb.CLOSE))
    assert numbering.meanings == ["pass", "close"]
    numbering.add(Action(Verb.PASS), "again")
    with pytest.raises(ValueError, match=r"numbered the action .* twice"):
        numbering.space()
