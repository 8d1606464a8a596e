"""The fuzz suite, at a size CI can afford: hypothesis drives `tests/fuzzing.py` (random and
mutated input for every public entry point on every built-in preset) and checks the error
contract; ``benchmarks/fuzz.py N`` runs the same cases for as long as you like."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bezique_rules as b
import fuzzing
from bezique_rules import BeziqueRulesError, DealState, OptionError

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


OPERATIONS = sorted(set(fuzzing.OPERATIONS), key=lambda f: f.__name__)
NAMES = [f.__name__ for f in OPERATIONS]


@pytest.mark.parametrize("operation", OPERATIONS, ids=NAMES)
@FUZZ
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_fuzzed_entry_point_keeps_the_error_contract(operation: Any, seed: int) -> None:
    """Odd input to each entry point: success, or our error (also TypeError/ValueError/LookupError), state unchanged."""
    operation(random.Random(seed))


@FUZZ
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_fuzz_one_case(seed: int) -> None:
    """`fuzz_one` (what benchmarks/fuzz.py runs) passes for hypothesis-chosen seeds."""
    fuzzing.fuzz_one(seed)


@FUZZ
@given(text=st.text(max_size=40), variant=st.sampled_from(fuzzing.PRESETS))
def test_any_text_as_an_action(text: str, variant: str) -> None:
    """Any text given to apply, check, is_legal and parse_action: parsed, or refused with our error."""
    state = b.new_deal(variant, seed=1)
    for call in (state.apply, state.check, state.parse_action, state.rules.action_id):
        fuzzing.attempt("text", fuzzing.bind(call, text))
    assert state.is_legal(text) in (True, False)
    assert state == b.new_deal(variant, seed=1)


@FUZZ
@given(value=st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.binary(), st.text(max_size=5),
                       st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=2), st.integers(),
                                                                            max_size=2)))  # fmt: skip
def test_any_value_as_an_argument(value: object) -> None:
    """Any value as an action, an id, a seat, a seed, a dealer, a variant or an option: our error or success."""
    state = b.new_deal("euchre", seed=1)
    rules = state.rules
    calls = [
        lambda: state.apply(value),  # type: ignore[arg-type]
        lambda: rules.action_from_id(value),  # type: ignore[arg-type]
        lambda: rules.action_id(value),  # type: ignore[arg-type]
        lambda: state.view(value),  # type: ignore[arg-type]
        lambda: state.side_of(value),  # type: ignore[arg-type]
        lambda: b.new_deal("euchre", seed=value),  # type: ignore[arg-type]
        lambda: b.new_deal("euchre", seed=1, dealer=value),  # type: ignore[arg-type]
        lambda: b.new_game("euchre", seed=1, max_deals=value),  # type: ignore[arg-type]
        lambda: b.get_rules(value),  # type: ignore[arg-type]
        lambda: b.get_rules("euchre", target=value),
        lambda: b.replay(value),  # type: ignore[arg-type]
        lambda: b.determinize(value, random.Random(1)),  # type: ignore[arg-type]
        lambda: b.RandomAgent().choose(state.view(1), value),  # type: ignore[arg-type]
    ]
    for call in calls:
        fuzzing.attempt("argument", call)


def _valid_options(draw: st.DrawFn, rules: b.RuleSet) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in rules.option_specs:
        if not draw(st.booleans()):
            continue
        if spec.choices is not None:
            out[spec.name] = draw(st.sampled_from(spec.choices))
        elif isinstance(spec.default, bool):
            out[spec.name] = draw(st.booleans())
        else:
            low = spec.minimum or 0
            out[spec.name] = draw(
                st.one_of(st.integers(low, low + 20), st.integers(low, 3000), st.integers(low, 1_000_000))
            )
            if spec.allow_none and draw(st.booleans()):
                out[spec.name] = None
    return out


@st.composite
def option_sets(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A preset and a random combination of option values each allowed on its own."""
    variant = draw(st.sampled_from(fuzzing.PRESETS))
    return variant, _valid_options(draw, b.get_rules(variant))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(case=option_sets(), seed=st.integers(0, 2**32 - 1))
def test_no_live_state_without_a_legal_action(case: tuple[str, dict[str, Any]], seed: int) -> None:
    """Every option combination is refused as a whole (OptionError) or always has a legal action."""
    variant, options = case
    try:
        state = b.new_deal(variant, seed=seed, **options)
    except OptionError as exc:
        assert any(name in str(exc) for name in options) or "deck" in str(exc)  # names what it refuses
        return
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        legal = state.legal_action_ids()
        assert legal, (variant, options, state.phase)
        state = state.apply(rng.choice(legal), check=False)
        steps += 1
    assert state.result is not None
    assert steps > 0 or state.thrown_in


def test_mutated_records_are_refused_or_round_trip() -> None:
    """Mutated records (fields dropped, retyped, added; actions edited; JSON cut, nested): refused or faithful."""
    refused = replayed = 0
    for seed in range(150):
        record = fuzzing.mutated_record(random.Random(seed))
        try:
            state = b.replay(record)  # type: ignore[arg-type]
        except BeziqueRulesError as exc:
            fuzzing.check_refusal("replay", exc)
            refused += 1
        else:
            assert b.replay(b.record_of(state)) == state
            replayed += 1
    assert refused > 20 and replayed > 20


def test_deal_state_from_dict_refuses_junk() -> None:
    """DealState.from_dict of junk: RecordError (a RecordTypeError, also a TypeError, for a non-dict)."""
    with pytest.raises(b.RecordError) as info:
        DealState.from_dict(5)  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError)
