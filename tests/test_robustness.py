"""Reliability (issue 12): every reproducer of the issue as a regression test, the wrong-type
errors, ASCII-only notation, whole-option-set checks, the record schema and its limits, and
bounded memory."""

from __future__ import annotations

import gc
import json
import random
import tracemalloc
import weakref
from collections.abc import Callable
from typing import Any

import pytest

import bezique_rules as b
from bezique_rules import (
    BeziqueRulesError,
    DealError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    RuleCode,
    UnknownVariantError,
)
from bezique_rules.errors import (
    ActionTypeError,
    ArgumentTypeError,
    DealTypeError,
    NotationTypeError,
    OptionTypeError,
    RecordTypeError,
    VariantTypeError,
    quote,
)
from bezique_rules.rules import registry
from bezique_rules.state.records import MAX_RECORD_DEPTH


def record(**changes: Any) -> dict[str, Any]:
    """A valid deal record of bezique seed 1, with ``changes`` (a value None deletes the key)."""
    out: dict[str, Any] = {
        "format": "bezique-rules-record",
        "version": 1,
        "kind": "deal",
        "variant": "bezique",
        "rules_version": b.get_rules("bezique").version,  # without it: version 1, with version 1's options
        "seed": 1,
        "actions": [],
        "options": {},
    }
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


# -- the issue's reproducers --------------------------------------------------------------

LEAKS: list[tuple[str, Callable[[], object], type[BeziqueRulesError]]] = [
    ("bid of 5000 digits", lambda: b.new_deal("bezique", seed=1).apply("bid " + "9" * 5000), NotationError),
    ("superscript digits", lambda: b.new_deal("bezique", seed=1).apply("bid ¹⁰⁰"), NotationError),
    ("action_id of a dict", lambda: b.get_rules("bezique-match").action_id({}), ActionTypeError),  # type: ignore[arg-type]
    ("action_from_id of a huge int", lambda: b.get_rules("bezique-match").action_from_id(10**5000), IllegalActionError),
    ("side_of a str", lambda: b.new_deal("euchre-openspiel", seed=1).side_of("1"), DealTypeError),  # type: ignore[arg-type]
    ("deeply nested JSON", lambda: b.replay('{"a":' * 2000 + "1" + "}" * 2000), RecordError),
    ("option key not a str", lambda: b.replay(record(options={1: 2})), RecordError),
    ("determinize of a str", lambda: b.determinize("not a view", None), ArgumentTypeError),  # type: ignore[arg-type]
    ("get_rules name=-1", lambda: b.get_rules("bezique", name=-1), OptionError),
    ("action_from_id(True)", lambda: b.get_rules("british-euchre").action_from_id(True), ActionTypeError),
    ("side_of a missing seat", lambda: b.new_deal("euchre-openspiel", seed=1).side_of(9), DealError),
    ("record version True", lambda: b.replay(record(version=True)), RecordError),
    ("record version 1.0", lambda: b.replay(record(version=1.0)), RecordError),
    ("record dealer 1.0", lambda: b.replay(record(dealer=1.0)), RecordError),
    ("record dealer True", lambda: b.replay(record(dealer=True)), RecordError),
    ("record with neither seed nor deck", lambda: b.replay(record(seed=None)), RecordError),
]


@pytest.mark.parametrize(("call", "error"), [c[1:] for c in LEAKS], ids=[c[0] for c in LEAKS])
def test_issue_reproducer_is_refused_with_our_error(call: Callable[[], object], error: type[BeziqueRulesError]) -> None:
    """Each reproducer of issue 12 raises our error (no leaked built-in, nothing accepted) with a short message."""
    with pytest.raises(error) as info:
        call()
    assert len(str(info.value)) < 600
    assert info.value.__cause__ is None


def test_wrong_types_are_type_errors_and_bad_values_value_errors() -> None:
    """A wrong type is a TypeError (and still the domain's error); a bad value a ValueError."""
    state = b.new_deal("euchre-openspiel", seed=1)
    with pytest.raises(TypeError):
        state.side_of("1")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        state.side_of(9)
    with pytest.raises(TypeError):
        b.get_rules("british-euchre").action_from_id(True)
    with pytest.raises(ValueError):
        b.get_rules("british-euchre").action_from_id(10**5000)
    with pytest.raises(TypeError):
        b.determinize("not a view", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        b.determinize(state.view(0), None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        state.view(True)
    with pytest.raises(TypeError):
        b.new_deal("euchre", seed="1")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        b.new_deal("euchre", seed=2**64)


ERROR_TWINS = [
    (VariantTypeError, UnknownVariantError, lambda: b.get_rules(5)),  # type: ignore[arg-type]
    (OptionTypeError, OptionError, lambda: b.get_rules("bezique", target="1000")),
    (DealTypeError, DealError, lambda: b.new_deal("bezique", seed=1, dealer=True)),
    (NotationTypeError, NotationError, lambda: b.parse_cards(5)),  # type: ignore[arg-type]
    (ActionTypeError, IllegalActionError, lambda: b.new_deal("bezique", seed=1).apply(None)),  # type: ignore[arg-type]
    (RecordTypeError, RecordError, lambda: b.replay(5)),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("twin", "domain", "call"), ERROR_TWINS, ids=[t[0].__name__ for t in ERROR_TWINS])
def test_type_error_twins(twin: type[Exception], domain: type[Exception], call: Callable[[], object]) -> None:
    """Each ...TypeError is both its domain's error and an ArgumentTypeError (a TypeError)."""
    with pytest.raises(twin) as info:
        call()
    assert isinstance(info.value, domain)
    assert isinstance(info.value, ArgumentTypeError)
    assert isinstance(info.value, TypeError)


def test_not_your_turn_in_an_agent() -> None:
    """An agent asked to act for a player who is not to act: IllegalActionError NOT_YOUR_TURN."""
    deal = b.new_deal("bezique", seed=1)
    with pytest.raises(IllegalActionError) as info:
        b.RandomAgent().choose(deal.view(1), random.Random(1))
    assert info.value.rule is RuleCode.NOT_YOUR_TURN
    with pytest.raises(ArgumentTypeError):
        b.RandomAgent().choose(deal.view(0), 5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        b.HeuristicAgent().choose("view", random.Random(1))  # type: ignore[arg-type]


def test_quote_truncates() -> None:
    """Messages quote at most 60 characters of the input, then '...'; a huge int is described, not printed."""
    assert quote("abc") == "'abc'"
    assert quote("x" * 1000) == "'" + "x" * 59 + "..."
    assert quote(10**5000).startswith("<an int of")
    with pytest.raises(NotationError) as info:
        b.new_deal("bezique", seed=1).apply("play " + "A" * 300)
    assert len(str(info.value)) < 300


# -- notation: ASCII only -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["play Aſ", "play ＡS", "bid ٣٠٠", "play AS\u200b", "play 10H\u00a0", "meld ſ AS"])
def test_non_ascii_notation_is_refused(text: str) -> None:
    """Notation is ASCII (plus the suit symbols): look-alikes and Unicode digits are NotationErrors."""
    with pytest.raises(NotationError) as info:
        b.new_deal("bezique", seed=1).apply(text)
    assert "ASCII" in str(info.value)


def test_suit_symbols_still_parse() -> None:
    """The documented suit symbols stay accepted."""
    assert str(b.Card.parse("Q♠")) == "QS"
    assert str(b.Action.parse("play A♥")) == "play AH"


@pytest.mark.parametrize("text", ["bid 9999999999", "guess 1234567890"])
def test_numbers_are_bounded_before_conversion(text: str) -> None:
    """A bid or guess of more than 9 significant digits is refused before it is converted."""
    with pytest.raises(NotationError) as info:
        b.Action.parse(text)
    assert "at most 9 digits" in str(info.value)
    assert b.Action.parse("bid 0000000000000000000250").number == 250


# -- options as a whole -------------------------------------------------------------------


def test_minimum_bid_beyond_the_ladder_is_refused() -> None:
    """The issue's dead state: a minimum bid beyond the bid ladder is an OptionError naming the options."""
    with pytest.raises(OptionError) as info:
        b.new_deal("partnership-pinochle", seed=4191511087, minimum_bid=507174, all_pass="dealer_stuck")
    assert "minimum_bid=507174" in str(info.value)
    assert "all_pass='dealer_stuck'" in str(info.value)


def test_stuck_dealer_at_the_top_bid_has_a_bid() -> None:
    """At the highest allowed minimum bid a stuck dealer still has exactly that bid to make."""
    state = b.new_deal("partnership-pinochle", seed=4191511087, minimum_bid=1500, all_pass="dealer_stuck")
    for text in ("pass", "pass", "pass"):
        state = state.apply(text)
    assert not state.is_over
    assert [str(a) for a in state.legal_actions()] == ["bid 1500"]


def test_whole_number_options_are_bounded() -> None:
    """A whole-number option above 1,000,000 is refused (a target no game reaches in bounded time)."""
    with pytest.raises(OptionError) as info:
        b.get_rules("bezique", target=10**7)
    assert "at most 1000000" in str(info.value)


# -- records ----------------------------------------------------------------------------------


def test_record_unknown_keys() -> None:
    """An unknown record field is refused; a field beginning with 'x-' is the writer's own and ignored."""
    with pytest.raises(RecordError) as info:
        b.replay(record(sead=1))
    assert "unknown field 'sead'" in str(info.value)
    assert b.replay(record(**{"x-players": ["Ann", "Bob"]})) == b.new_deal("bezique", seed=1)


def test_record_depth_limit_is_checked_before_parsing() -> None:
    """Nesting deeper than the limit is refused before json parses it (no RecursionError at any depth)."""
    for depth in (MAX_RECORD_DEPTH + 1, 10_000, 1_000_000):
        with pytest.raises(RecordError) as info:
            b.replay("[" * depth + "]" * depth)
        assert "deep" in str(info.value)
    text = json.dumps(record(actions=["[[{{"] * 3))  # brackets inside strings do not count
    with pytest.raises(RecordError) as step:
        b.replay(text)
    assert step.value.step == 1


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"version": True}, "version"),
        ({"version": "1"}, "version"),
        ({"kind": 1}, "kind"),
        ({"seed": 1.0}, "seed"),
        ({"dealer": "1"}, "dealer"),
        ({"options": {"target": [1]}}, "options"),
        ({"deck": ["AS"] * 64}, "either a seed or a deck"),
        ({"format": ["bezique-rules-record"]}, "format"),
        ({"variant": ""}, "variant"),
    ],
)
def test_record_schema_types(changes: dict[str, Any], fragment: str) -> None:
    """Each record field has an exact type: anything else is a RecordError naming the field."""
    with pytest.raises(RecordError) as info:
        b.replay(record(**changes))
    assert fragment in str(info.value)


def test_record_of_refuses_junk() -> None:
    """record_of of something that is not a state: ArgumentTypeError, not an AttributeError."""
    with pytest.raises(ArgumentTypeError):
        b.record_of("state")  # type: ignore[arg-type]


# -- memory -----------------------------------------------------------------------------------


def test_built_rule_sets_are_bounded() -> None:
    """The cache of built rule sets never holds more than BUILT_CACHE_SIZE, however many option sets are asked for."""
    for target in range(5000, 5000 + 3 * registry.BUILT_CACHE_SIZE):
        b.get_rules("bezique", target=target)
    assert len(registry._BUILT) <= registry.BUILT_CACHE_SIZE


def test_option_sets_that_change_no_table_share_tables() -> None:
    """Rule sets that differ only in the target share their engine's tables."""
    one = b.get_rules("partnership-pinochle", target=100_001)
    two = b.get_rules("partnership-pinochle", target=100_002)
    assert one.tables is two.tables
    assert one != two
    assert b.get_rules("partnership-pinochle", minimum_bid=260).tables is not one.tables


def test_distinct_option_sets_keep_little_memory() -> None:
    """The issue's memory reproducer at a small scale: 12 distinct targets keep well under 10 MB."""
    b.new_deal("partnership-pinochle", seed=1).legal_actions()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for t in range(12):
            b.new_deal("partnership-pinochle", seed=1, target=100000 + t).legal_actions()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 10_000_000


def test_a_long_game_keeps_nothing_once_dropped() -> None:
    """A game of many deals (played with unchecked random actions) is freed entirely when dropped."""
    b.new_game("euchre", seed=3, target=1_000_000, max_deals=2)  # the tables exist before measuring
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        game = b.new_game("euchre", seed=3, target=1_000_000, max_deals=300)
        rng = random.Random(3)
        while not game.is_over:
            game = game.apply(rng.choice(game.legal_action_ids()), check=False)
        assert game.deal_number == 300
        probe = weakref.ref(game.deal)
        held = tracemalloc.get_traced_memory()[0] - start
        del game
        gc.collect()
        left = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert probe() is None
    assert held > 100_000
    assert left < held / 10


def test_double_deck_minimum_bid_above_the_ladder_is_an_option_error() -> None:
    """Fuzz seed 11380: double-deck Pinochle with a minimum bid above its bid ladder and a stuck
    dealer left a live state with no legal action; the whole-option-set check refuses it."""
    with pytest.raises(b.OptionError, match="minimum_bid"):
        b.get_rules("double-deck-pinochle", minimum_bid=400, all_pass="dealer_stuck")


@pytest.mark.parametrize("decks", [str, list])
def test_new_game_decks_given_as_a_class_is_a_deal_error(decks: object) -> None:
    """Fuzz seed 21924: a class (not a list of decks) given as ``decks`` leaked a TypeError."""
    with pytest.raises(b.DealError, match="decks is a list of stacked decks"):
        b.new_game("bezique", seed=1, decks=decks)  # type: ignore[arg-type]


def test_record_of_a_huge_rules_version_gets_a_short_message() -> None:
    """Fuzz seed 61808: a record written under an absurd behaviour version is refused with a
    message that quotes the number cut short."""
    record = {
        "format": "bezique-rules-record",
        "version": 1,
        "kind": "deal",
        "variant": "bezique",
        "rules_version": 10**4000,
        "seed": 1,
        "actions": [],
    }
    with pytest.raises(b.RecordError) as refused:
        b.replay(record)
    assert len(str(refused.value)) < 300


@pytest.mark.parametrize("deck", [list, tuple, dict])
def test_new_deal_deck_given_as_a_class_is_a_deal_type_error(deck: object) -> None:
    """Fuzz seed 82511: a class (which has ``__iter__`` but cannot be iterated) given as the
    stacked deck leaked a TypeError from deep inside; it is a DealTypeError quoting it."""
    with pytest.raises(DealTypeError, match="a stacked deck is a sequence of cards"):
        b.new_deal("bezique", deck=deck)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", b.available_variants(builtin=True))
def test_apply_check_must_be_a_bool_and_a_checked_play_is_checked(variant: str) -> None:
    """`apply`'s ``check`` is True or False (anything else: ArgumentTypeError, whether the
    action is an id or an action object, even a falsy one); a checked illegal action object
    raises IllegalActionError and leaves the state as it was; a checked legal one applies."""
    rng = random.Random(3)

    def into_the_play(seed: int) -> b.DealState | None:
        deal = b.new_deal(variant, seed=seed)
        while not deal.is_over:  # the first card played that follows a lead (duties apply)
            if deal.trick and str(deal.legal_actions()[0]).startswith("play"):
                return deal
            deal = deal.apply(rng.choice(deal.legal_action_ids()), check=False)
        return None  # a deal without play (everyone passed): another seed

    deal = next(d for d in map(into_the_play, range(11, 40)) if d is not None)
    legal = deal.legal_actions()
    for bad in (0, 1, None, "yes"):
        with pytest.raises(ArgumentTypeError):
            deal.apply(legal[0], check=bad)  # type: ignore[arg-type]
        with pytest.raises(ArgumentTypeError):
            deal.apply(deal.legal_action_ids()[0], check=bad)  # type: ignore[arg-type]
    illegal = [a for a in deal.rules.action_space.actions if a not in legal]
    before = deal.to_dict()
    with pytest.raises(IllegalActionError):
        deal.apply(illegal[0])
    assert deal.to_dict() == before
    after = deal.apply(legal[-1])
    assert after.moves[-1] == (deal.current_player, deal.rules.action_id(legal[-1]))
