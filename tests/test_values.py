"""Values that behave as values (issue 26, items 1-5): every public value pickles, deep-copies
and copies back to an equal value with the same hash and behaviour, and pickles small; a
hand-built `Action` of the wrong field types is refused naming the field; a record whose
options repeat a record field is refused quoting it; lazily built tables are built once
however many threads ask; a refused call leaves a state exactly as it was.

The contract is the guide's ("Values pickle, copy and compare as values. Nothing built lazily
that two threads could build twice") and the Python data model's (``copy``, ``pickle``: an
object and its copy compare equal and hash alike); the cases are the ones issue 26 lists,
found by a fuzzer written from the public contract alone.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import bezique_rules as b
from bezique_rules import Action, Card, DealState, GameState, Verb
from bezique_rules.errors import ActionTypeError, IllegalActionError, RecordError
from bezique_rules.rules import registry
from fuzzing import in_threads

PRESETS = b.available_variants(builtin=True)

COPIERS: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda v: pickle.loads(pickle.dumps(v)),
    "pickle-protocol-2": lambda v: pickle.loads(pickle.dumps(v, protocol=2)),
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
}

PINOCHLE_COLD: dict[str, Any] = {
    "counting": "tens",
    "leader": "declarer",
    "pass_cards": 4,
    "throw_in_at": "250_or_more",
    "must_beat_partner": True,
}
"""The partnership-pinochle option set issue 26 (item 4) reproduces the thread race with."""


def played(state: DealState | GameState, steps: int, seed: int = 0) -> DealState | GameState:
    """``state`` after ``steps`` random legal actions (fewer when it ends)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_action_ids()))
    return state


def same_behaviour(a: DealState | GameState, b_: DealState | GameState) -> None:
    """``a`` and ``b_`` act alike: legal actions, record, views, and the state after each action."""
    assert a.legal_action_ids() == b_.legal_action_ids()
    assert a.to_dict() == b_.to_dict()
    assert [a.view(p) for p in range(a.players)] == [b_.view(p) for p in range(b_.players)]
    for action_id in a.legal_action_ids()[:3]:
        assert a.apply(action_id) == b_.apply(action_id)


def _states() -> Iterator[tuple[str, DealState | GameState]]:
    for variant in PRESETS:
        yield f"{variant}-deal", b.new_deal(variant, seed=1)
        yield f"{variant}-deal-played", played(b.new_deal(variant, seed=2), 25)
        yield f"{variant}-game", played(b.new_game(variant, seed=1, max_deals=2), 10)


STATES = list(_states())


# -- item 1: pickle, deepcopy, copy -------------------------------------------------------------


@pytest.mark.parametrize("how", sorted(COPIERS))
@pytest.mark.parametrize(("name", "state"), STATES, ids=[n for n, _s in STATES])
def test_states_and_views_round_trip(how: str, name: str, state: DealState | GameState) -> None:
    """Deals of every engine (stock, auction, euchre, marriage) and games, and their views:
    equal after the round trip, the same hash, the same behaviour, and the same rule set object
    (the registry's own: the engines read the tables it compiled)."""
    again = COPIERS[how](state)
    assert type(again) is type(state)
    assert again == state and hash(again) == hash(state)
    assert again.rules is state.rules
    deal = again.deal if isinstance(again, GameState) else again
    original = state.deal if isinstance(state, GameState) else state
    assert deal.setup.meta is original.setup.meta
    same_behaviour(again, state)
    for p in range(state.players):
        view = state.view(p)
        view_again = COPIERS[how](view)
        assert view_again == view and hash(view_again) == hash(view)
        assert view_again.legal_actions() == view.legal_actions()


@pytest.mark.parametrize(("name", "state"), STATES, ids=[n for n, _s in STATES])
def test_a_state_pickles_small_with_no_tables(name: str, state: DealState | GameState) -> None:
    """A state pickles as its rule set's key (variant, options, behaviour version) and its record:
    no compiled table inside (issue 26: the Euchre deals pickled ~400 kB of tables)."""
    data = pickle.dumps(state)
    for table in (b"Tables", b"ActionSpace", b"mappingproxy", b"PlayTable"):
        assert table not in data
    assert len(data) < 8_000


EUCHRE_PICKLED_BEFORE_THE_SPLIT = (
    "gASVSwQAAAAAAACMGGJlemlxdWVfcnVsZXMuc3RhdGUuZGVhbJSMD191bnBpY2tsZWRfZGVhbJSTlIwbYmV6aXF1ZV9ydWxl"
    "cy5lbmdpbmUuZXVjaHJllIwKRXVjaHJlRGVhbJSTlGgAjBBfdW5waWNrbGVkX3NldHVwlJOUKIwcYmV6aXF1ZV9ydWxlcy5y"
    "dWxlcy5yZWdpc3RyeZSMDnJ1bGVzX2Zyb21fa2V5lJOUjA5icml0aXNoLWV1Y2hyZZQojAViZW5ueZSMBWpva2VylIaUjAxi"
    "ZW5ueV90dXJuZWSUjBZkZWFsZXJfbmFtZXNfY2FuZGlkYXRllIaUjAxkZWFsX3BhdHRlcm6UjBB0aHJlZXNfdGhlbl90d29z"
    "lIaUjBlkZWFsZXJfbWF5X2Rpc2NhcmRfdXBjYXJklIiGlIwNZGVhbGVyX3BpY2t1cJSMA21heZSGlIwJZGVja19zaXpllEsZ"
    "hpSMHmRlZmVuZGVyc180X2Zvcl9ldWNocmluZ19sb25lcpSJhpSMDGZhcm1lcnNfaGFuZJSMA29mZpSGlIwNbG9uZV9kZWZl"
    "bmRlcpSMDHZzX2xvbmVfb25seZSGlIwJbG9uZV9sZWFklIwTbGVmdF9vZl9sb25lX3BsYXllcpSGlIwFbWF0Y2iUjARnYW1l"
    "lIaUjBBwYXJ0bmVyX3Rha2VvdmVylIwadW5sZXNzX2RlYWxlcl90b29rX3R1cm5fdXCUhpSMEHN0aWNrX3RoZV9kZWFsZXKU"
    "iYaUjAxzdXBlcl9ldWNocmWUiYaUjAZ0YXJnZXSUSwWGlHSUSwKHlFKUKEsNSxNLBUsWSxdLEEsHSxhLCUsGSw9LAEsSSwhL"
    "DksVSwtLA0sRSwJLAUsUSwxLBEsKdJRLB0sDjAxydWxlcy50YWJsZXOUSv////90lFKUKEsBKEogIQwASgBA4QBKiAoAAUpF"
    "gAIAdJQpSwBLMoaUhZSMFWJlemlxdWVfcnVsZXMuYWN0aW9uc5SMBVBoYXNllJOUjANiaWSUhZRSlEsAKEsASwBLAEsAdJQp"
    "Sv////9LAEsAhpQpaAOMB0JpZGRpbmeUk5QoSwFLAEsBSwCJdJSBlGgDjAhDb250cmFjdJSTlChK/////0r/////Sv////9K"
    "/////0sAdJSBlGgDjAVLaXR0eZSTlCgoSxRLDEsESwp0lEsBSv////9K/////3SUgZR0lIeUUpRoAmgFaDkoSwMoSiABDABK"
    "AEDgAE2ICkpDgAIAdJRLDUsQSxiHlChoO0sBSzKGlEsCSzKGlEsDSzOGlEsDSxuGlEsASw2GlEsBSxCGlEsCSxiGlHSUaD+M"
    "BnRyaWNrc5SFlFKUSwBoQylK/////2hEKWhGKEsBSwBLAEsAiXSUgZRoSihLAEsDSv////9K/////0sAdJSBlGhOKChLFEsM"
    "SwRLCksCdJRLAUsCSv////90lIGUdJSHlFKUhpQu"
)
"""Two ``british-euchre`` deals (seed 7) pickled when the Euchre engine was the single module
``bezique_rules.engine.euchre`` (protocol 4): after the first bid, and in the play after
``MOVES_PICKLED``."""

MOVES_PICKLED = ((0, 50), (1, 50), (2, 50), (3, 51), (3, 27), (0, 13), (1, 16), (2, 24))


def test_a_euchre_deal_pickled_before_the_engine_was_split_still_loads() -> None:
    """The Euchre engine became a package (`bezique_rules.engine.euchre`, split by lifetime):
    a deal pickled before names its classes at the old module path, and loads as the deal it
    was, with the same behaviour."""
    bid, mid = pickle.loads(base64.b64decode(EUCHRE_PICKLED_BEFORE_THE_SPLIT))
    fresh = b.new_deal("british-euchre", seed=7)
    assert bid == fresh.apply(MOVES_PICKLED[0][1])
    for _, action_id in MOVES_PICKLED:
        fresh = fresh.apply(action_id)
    assert mid == fresh
    same_behaviour(mid, fresh)
    same_behaviour(bid, b.new_deal("british-euchre", seed=7).apply(MOVES_PICKLED[0][1]))


@pytest.mark.parametrize("variant", PRESETS)
def test_rule_sets_round_trip_as_the_registry_object(variant: str) -> None:
    """A registry rule set (defaults or options) pickles as its key and comes back as the
    registry's own object, tables and all; deepcopy and copy give it back too."""
    for rules in (b.get_rules(variant), b.get_rules(variant, **_changed_option(variant))):
        data = pickle.dumps(rules)
        assert len(data) < 2_000
        for how, copier in COPIERS.items():
            assert copier(rules) is rules, how
        assert pickle.loads(data).tables is rules.tables


def test_a_hand_built_rule_set_round_trips_by_its_parts() -> None:
    """A rule set the registry cannot rebuild (a part swapped in with attrs.evolve) pickles its
    parts; unpickled twice it is one object, sharing the tables of its registry twin."""
    mine = attrs.evolve(b.get_rules("pinochle"), description="my own pinochle")
    first = pickle.loads(pickle.dumps(mine))
    assert first == mine and hash(first) == hash(mine)
    assert pickle.loads(pickle.dumps(mine)) is first
    assert first.tables is b.get_rules("pinochle").tables
    deal = b.new_deal(mine, seed=3)
    again = pickle.loads(pickle.dumps(deal))
    assert again == deal
    same_behaviour(again, deal)


def test_a_registered_variant_round_trips_by_its_name() -> None:
    """A variant of one's own (register_variant) pickles by its name like a preset."""
    b.register_variant("values-bezique-1500", b.get_rules("bezique", target=1500))
    rules = b.get_rules("values-bezique-1500")
    assert pickle.loads(pickle.dumps(rules)) is rules
    deal = b.new_deal(rules, seed=4)
    assert pickle.loads(pickle.dumps(deal)) == deal


def test_unpickling_an_unregistered_variant_says_to_register_it() -> None:
    """Unpickling a rule set whose variant this process does not know: UnknownVariantError
    saying to register the variant first."""
    with pytest.raises(b.UnknownVariantError, match="register_variant"):
        registry.rules_from_key("values-never-registered", (), 1)


def test_unpickling_another_behaviour_version_is_refused() -> None:
    """A rule set pickled under another behaviour version of its preset: OptionError naming
    both versions (records are the format that lasts across releases)."""
    with pytest.raises(b.OptionError, match="behaviour version 99"):
        registry.rules_from_key("bezique", (), 99)


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_small_values_round_trip(how: str) -> None:
    """Actions, cards, card sets, deal results, table melds and records."""
    deal = played(b.new_deal("bezique", seed=5), 400)
    assert isinstance(deal, DealState) and deal.is_over
    view = deal.view(0)
    values: list[object] = [
        Action.parse("meld bezique QS JD"),
        Card.parse("TH"),
        view.hand,
        view.melds,
        deal.result,
        deal.to_dict(),
        b.new_game("euchre", seed=1).to_dict(),
    ]
    for value in values:
        again = COPIERS[how](value)
        assert again == value
        if not isinstance(value, dict):
            assert hash(again) == hash(value)
    action = COPIERS[how](Action.parse("play AH"))
    assert b.new_deal("bezique", seed=1).apply(action) == b.new_deal("bezique", seed=1).apply("play AH")


# -- item 2: Action fields of the wrong type ----------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"verb": "play"}, "verb"),
        ({"verb": Verb.PLAY, "cards": ["AS"]}, "cards"),
        ({"verb": Verb.PLAY, "cards": "AS"}, "cards"),
        ({"verb": Verb.PLAY, "cards": (Card.parse("AS"),), "tabled": (1,)}, "tabled"),
        ({"verb": Verb.PLAY, "cards": (Card.parse("AS"),), "tabled": (False, False)}, "tabled"),
        ({"verb": Verb.MELD, "meld": None}, "meld"),
        ({"verb": Verb.BID, "number": "250"}, "number"),
        ({"verb": Verb.BID, "number": True}, "number"),
        ({"verb": Verb.TRUMP, "suit": "H"}, "suit"),
        ({"verb": Verb.CALL, "alone": 1}, "alone"),
        ({"verb": Verb.PASS, "with_help": "yes"}, "with_help"),
        ({"verb": Verb.PASS, "to_partner": None}, "to_partner"),
    ],
)
def test_a_hand_built_action_of_wrong_types_names_the_field(fields: dict[str, Any], named: str) -> None:
    """Action(...) with a field of the wrong type: ActionTypeError (an IllegalActionError and a
    TypeError) naming the field, never AttributeError or an unhashable list from deep inside."""
    with pytest.raises(ActionTypeError, match=repr(named)) as info:
        Action(**fields)
    assert isinstance(info.value, TypeError) and isinstance(info.value, IllegalActionError)


def test_the_issue_actions() -> None:
    """The two actions of issue 26 item 2: ``Action("play")`` is refused naming ``verb``; cards
    and tabled flags given as lists are taken as tuples, and the action is the parsed one."""
    with pytest.raises(ActionTypeError, match="'verb'"):
        Action("play")  # type: ignore[arg-type]
    listed = Action(Verb.PLAY, cards=[Card.parse("AS")], tabled=[False])  # type: ignore[arg-type]
    assert listed == Action.parse("play AS") and hash(listed) == hash(Action.parse("play AS"))
    rules = b.get_rules("bezique-match")
    assert rules.action_id(listed) == rules.action_id("play AS")
    assert Action(Verb.PLAY, (Card.parse("AS"),)) == Action.parse("play AS")  # no flags: none tabled


# -- item 3: records whose options repeat a record field ----------------------------------------


@pytest.mark.parametrize("key", ["max_deals", "dealer", "decks", "variant", "seed", "deck", "actions", "first_dealer"])
@pytest.mark.parametrize("kind", ["deal", "game"])
def test_options_repeating_a_record_field_are_refused(kind: str, key: str) -> None:
    """A record whose options repeat a record field (or a keyword of new_deal / new_game):
    RecordError quoting the key, not ``TypeError: got multiple values``."""
    state = b.new_game("bezique", seed=1, max_deals=3) if kind == "game" else b.new_deal("bezique", seed=1)
    record = state.to_dict()
    record["options"][key] = 3
    with pytest.raises(RecordError, match=repr(key)):
        b.replay(record)


def test_unknown_keys_behave_as_documented() -> None:
    """Unknown option names are refused naming them; unknown record keys are refused, except
    ``x-`` keys, which are the writer's own and ignored (`check_record`)."""
    deal = b.new_deal("bezique", seed=1).apply("play AH")
    record = deal.to_dict()
    with pytest.raises(RecordError, match="'nope'"):
        b.replay({**record, "options": {**record["options"], "nope": 1}})
    with pytest.raises(RecordError, match="'extra'"):
        b.replay({**record, "extra": 1})
    assert b.replay({**record, "x-player": "Ann"}) == deal


# -- item 4: threads ----------------------------------------------------------------------------


def _changed_option(variant: str) -> dict[str, Any]:
    """One option of ``variant`` at a value other than its default that the deal engines read
    (so that its tables are its own), the variant still playable."""
    rules = b.get_rules(variant)
    for spec in rules.option_specs:
        values: list[Any] = list(spec.choices or ())
        if isinstance(spec.default, bool):
            values = [not spec.default]
        for value in values:
            if value == spec.default:
                continue
            try:
                changed = b.get_rules(variant, **{spec.name: value})
            except b.OptionError:
                continue
            if changed.table_key() != rules.table_key():
                return {spec.name: value}
    return {}


def _cold(variant: str) -> None:
    """Forget every rule set the registry keeps for ``variant`` but its defaults (test only)."""
    with registry._BUILT_LOCK:
        for key in [k for k, r in registry._BUILT.items() if r.name == variant]:
            registry._forget_twin(registry._BUILT.pop(key))


def _walk(state: DealState, seed: int, steps: int) -> DealState:
    """A fixed path from ``state``, with refused calls and encoded views on the way."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        for text in ("GIV", "PASS", "give AS", "bid 1"):
            with contextlib.suppress(b.BeziqueRulesError):
                state.apply(text)
        state.view(rng.randrange(state.players)).observation_tensor()
        state = state.apply(rng.choice(state.legal_action_ids()))
    return state


def _in_threads(count: int, work: Callable[[], Any]) -> list[Any]:
    """``work``'s results from ``count`` threads at once (`fuzzing.in_threads`); a thread's
    exception is raised here."""
    results = in_threads(count, work)
    for got in results:
        if isinstance(got, BaseException):
            raise got
    return results


@pytest.mark.parametrize("variant", PRESETS)
def test_threads_on_a_cold_option_set_build_it_once(variant: str) -> None:
    """Four threads asking at once for an option set nobody built yet, then dealing and playing
    the same path: one rule set object, one tables object, and the single-threaded result."""
    options = PINOCHLE_COLD if variant == "partnership-pinochle" else _changed_option(variant)
    _cold(variant)

    def work() -> tuple[b.RuleSet, object, DealState]:
        rules = b.get_rules(variant, **options)
        deal = b.new_deal(rules, seed=7)
        return rules, deal.setup.meta, _walk(deal, 11, 30)

    results = _in_threads(4, work)
    alone = _walk(b.new_deal(variant, seed=7, **options), 11, 30)
    assert all(r[0] is results[0][0] for r in results)
    assert all(r[1] is results[0][1] is results[0][0].tables for r in results)
    assert all(r[2] == alone and r[2].to_dict() == alone.to_dict() for r in results)


def test_threads_stepping_one_shared_state() -> None:
    """Issue 26 item 4: four threads stepping one shared partnership-pinochle state of a cold
    option set end where one thread alone ends."""
    _cold("partnership-pinochle")
    shared = b.new_deal("partnership-pinochle", seed=9, **PINOCHLE_COLD)
    results = _in_threads(4, lambda: _walk(shared, 5, 60))
    alone = _walk(b.new_deal("partnership-pinochle", seed=9, **PINOCHLE_COLD), 5, 60)
    assert all(r == alone and r.to_dict() == alone.to_dict() for r in results)


# -- item 5: a refused call changes nothing -----------------------------------------------------


@pytest.mark.parametrize("variant", PRESETS)
def test_a_refused_call_leaves_the_state_as_it_was(variant: str) -> None:
    """After every refused call the state equals an independently replayed twin, with the same
    hash, record and views (issue 26 item 5: "GIV" and "PASS" on partnership-pinochle)."""
    state = played(b.new_deal(variant, seed=3), 6)
    twin = b.replay(state.to_dict())
    before = hash(state), state.to_dict(), [state.view(p) for p in range(state.players)]
    for thing in ("GIV", "PASS", "give AS", "play JK", "meld bezique QS JD", 10**6, -1, Action.parse("bid 990")):
        if state.is_legal(thing):
            continue
        with pytest.raises(b.BeziqueRulesError):
            state.apply(thing)
        assert state == twin
        assert (hash(state), state.to_dict(), [state.view(p) for p in range(state.players)]) == before
        assert [twin.view(p) for p in range(state.players)] == before[2]


def test_an_action_number_too_long_to_print_is_refused_by_name() -> None:
    """A hand-built action whose number has thousands of digits (Python will not even print
    it) is refused with our error naming the field, not a ValueError from ``str`` (fuzz seed
    15225); a bid or guess has at most `MAX_NUMBER_DIGITS` digits, as the notation says."""
    from bezique_rules.actions import MAX_NUMBER_DIGITS

    for number in (10**5000, -(10**5000), 10**MAX_NUMBER_DIGITS):
        with pytest.raises(ActionTypeError, match="'number'"):
            Action(Verb.BID, number=number)
    assert str(Action(Verb.BID, number=10**MAX_NUMBER_DIGITS - 1)) == "bid 999999999"
