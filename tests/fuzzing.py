"""The fuzz harness: random, odd and mutated input for every public entry point.

`fuzz_one` runs one random operation (a deal, a game, options, notation, ids, views,
`determinize` (its worlds saved and replayed), records, agents, the CLI; pickling and copying every value, threads on
shared states and cold option sets, hand-built actions of the wrong field types) on every
built-in preset and checks the contract of the error hierarchy: each call either succeeds
or raises a `BeziqueRulesError` that is also a `TypeError`, `ValueError` or `LookupError`
with a short message; a refused call changes nothing (the state still equals an
independently replayed twin, with the same hash, record and views); no live state is
without a legal action; a record that replays round-trips; a pickled or copied value
comes back equal, with the same hash and behaviour, and pickles without tables; threads
get what one thread gets. A broken contract raises `FuzzFailure`.

Used by ``tests/test_fuzz.py`` (hypothesis draws the seeds, at a modest size) and by
``benchmarks/fuzz.py N`` (a long run that counts distinct failures).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import pickle
import random
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any, Literal

import attrs

import bezique_rules as b
from bezique_rules import BeziqueRulesError, DealState, GameState
from bezique_rules.cli import main as cli_main
from bezique_rules.errors import ActionTypeError
from bezique_rules.state.records import check_record

PRESETS = b.available_variants(builtin=True)
MAX_MESSAGE = 1000
"""The longest error message allowed (inputs are quoted truncated)."""


class FuzzFailure(AssertionError):
    """A broken contract: ``key`` identifies it (operation and what went wrong)."""

    def __init__(self, key: str, detail: str) -> None:
        super().__init__(f"{key}: {detail}")
        self.key = key
        self.detail = detail


_ODD_TEXT = [
    "", " ", "\x00", "\t\n", "¹⁰⁰", "٣", "ſ", "K", "Ｑ", "ℌ", "\u200b", "🂡", "é", "ß", "\ud800",
    "9" * 5000, "play " * 300, "*", ",,,", "bid -1", "bid 1e3", "bid 0x10", "bid 1_000",
]  # fmt: skip


def junk(rng: random.Random) -> object:
    """An odd value of a random type."""
    pick = rng.randrange(24)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([-1, 0, 1, 2, 3, 4, 7, 8, 255, 256, 2**31, 2**63, 2**64, -(2**63)])
    if pick == 3:
        return 10 ** rng.randrange(1, 6000) * rng.choice([1, -1])
    if pick == 4:
        return rng.choice([1.0, 0.5, float("nan"), float("inf"), -0.0])
    if pick == 5:
        return rng.choice(_ODD_TEXT)
    if pick == 6:
        return rng.choice([b"play AS", bytearray(b"x"), memoryview(b"ab")])
    if pick == 7:
        return rng.choice([[], {}, (), set(), frozenset(), [1, 2], {"a": 1}, {1: 2}, [[[]]]])
    if pick == 8:
        return object()
    if pick == 9:
        return rng.choice([random.Random(1), random, int, str, lambda: 1])
    if pick == 10:
        return b.Card.parse("QS")
    if pick == 11:
        return b.Action.parse("play AS")
    if pick == 12:
        return complex(1, 2)
    if pick == 13:
        nested: list[Any] = []
        for _ in range(rng.randrange(1, 50)):
            nested = [nested]
        return nested
    if pick == 14:
        return b.get_rules(rng.choice(PRESETS))
    if pick == 15:
        return iter(range(3))
    return "".join(rng.choice("azAZ09 *-♠♥ſ¹٣\x00") for _ in range(rng.randrange(0, 12)))


def mutate_text(rng: random.Random, text: str) -> str:
    """``text`` with one to three random edits (odd characters, huge numbers, case, cuts)."""
    for _ in range(rng.randrange(1, 4)):
        pick = rng.randrange(10)
        i = rng.randrange(len(text) + 1)
        if pick == 0:
            text = text[:i] + rng.choice(_ODD_TEXT[:15]) + text[i:]
        elif pick == 1 and text:
            text = text[:i] + text[i + 1 :]
        elif pick == 2:
            text = text.swapcase()
        elif pick == 3:
            text = text[:i]
        elif pick == 4:
            text = text + " " + text
        elif pick == 5:
            text = text[:i] + str(rng.choice([0, -1, 10**9, 10**30, 999999999])) + text[i:]
        elif pick == 6:
            text = text.replace(" ", rng.choice(["  ", ",", "\t", "\u00a0", ""]))
        elif pick == 7:
            text = text[:i] + "*" + text[i:]
        elif pick == 8:
            text = rng.choice(["bid ", "guess ", "meld ", "call ", "give ", "trump ", "play "]) + text
        else:
            text = text * rng.randrange(2, 200)
    return text


def check_refusal(where: str, exc: BaseException) -> None:
    """``exc`` keeps the contract: our error, also the built-in expected, a short message."""
    if not isinstance(exc, BeziqueRulesError):
        tb = traceback.extract_tb(exc.__traceback__)
        place = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else "?"
        raise FuzzFailure(f"{where}: leaked {type(exc).__name__} at {place}", repr(exc)[:300]) from exc
    if not isinstance(exc, (TypeError, ValueError, LookupError)):
        raise FuzzFailure(f"{where}: {type(exc).__name__} is no TypeError/ValueError/LookupError", str(exc)[:300])
    message = str(exc)
    if len(message) > MAX_MESSAGE:
        raise FuzzFailure(f"{where}: message of {len(message)} characters", message[:200])


def bind(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[[], Any]:
    """``function`` with its arguments bound (a call for `attempt`)."""
    return lambda: function(*args, **kwargs)


def attempt(where: str, call: Callable[[], Any]) -> Any:
    """``call()``, or None when it raises an error that keeps the contract."""
    try:
        return call()
    except FuzzFailure:
        raise
    except RecursionError as exc:
        raise FuzzFailure(f"{where}: leaked RecursionError", "") from exc
    except Exception as exc:
        check_refusal(where, exc)
        return None


def check_live(where: str, state: DealState | GameState) -> None:
    """A state that is not over has a legal action, and the mask agrees."""
    legal = state.legal_actions()
    if not state.is_over and not legal:
        raise FuzzFailure(f"{where}: live state without a legal action", f"{state.rules.name} {state.phase}")
    if sum(state.legal_action_mask()) != len(legal):
        raise FuzzFailure(f"{where}: mask disagrees with legal_actions", state.rules.name)


def random_options(rng: random.Random, rules: b.RuleSet, *, odd: bool) -> dict[str, Any]:
    """Random option changes; with ``odd``, some names and values are junk."""
    out: dict[str, Any] = {}
    for spec in rules.option_specs:
        if rng.random() < 0.6:
            continue
        if odd and rng.random() < 0.3:
            out[spec.name] = junk(rng)
        elif spec.choices is not None:
            out[spec.name] = rng.choice(spec.choices)
        elif isinstance(spec.default, bool):
            out[spec.name] = rng.random() < 0.5
        else:
            low = spec.minimum or 0
            out[spec.name] = rng.choice([low, low + 1, rng.randint(low, low + 100), rng.randint(low, 5000)])
            if spec.allow_none and rng.random() < 0.2:
                out[spec.name] = None
    if odd and rng.random() < 0.2:
        out[rng.choice(["nope", "Target", "", "target ", "ſ", "x" * 300])] = junk(rng)
    return out


def random_deal(rng: random.Random, variant: str | None = None, steps: int | None = None) -> DealState:
    """A deal of a preset (default options), played on by random legal actions."""
    state = b.new_deal(variant or rng.choice(PRESETS), seed=rng.getrandbits(32))
    if steps is None:
        steps = rng.randrange(0, 80) if rng.random() < 0.2 else rng.randrange(0, 12)
    for _ in range(steps):
        if state.is_over:
            break
        ids = state.legal_action_ids()
        if not ids:
            raise FuzzFailure("play: live state without a legal action", f"{state.rules.name} {state.phase}")
        state = state.apply(rng.choice(ids), check=False)
    return state


def notation_for(rng: random.Random, state: DealState) -> object:
    """Something to give `apply`: a mutated action text, an odd id, or junk."""
    actions = state.rules.action_space.actions
    pick = rng.randrange(6)
    if pick == 0:
        return mutate_text(rng, str(rng.choice(actions)))
    if pick == 1:
        return str(rng.choice(actions))
    if pick == 2:
        return rng.choice([-1, len(actions), len(actions) + 1, 10**100, True, False, rng.randrange(len(actions))])
    if pick == 3:
        return rng.choice(actions)
    return junk(rng)


def random_game(rng: random.Random, variant: str | None = None, steps: int | None = None) -> GameState:
    """A game of a preset (default options, at most two deals), played on by random legal actions."""
    game = b.new_game(variant or rng.choice(PRESETS), seed=rng.getrandbits(32), max_deals=2)
    for _ in range(rng.randrange(0, 60) if steps is None else steps):
        if game.is_over:
            break
        game = game.apply(rng.choice(game.legal_action_ids()), check=False)
    return game


class Twin:
    """What a state looked like before a call: an independently replayed twin of it (a new deal
    or game, the same actions applied by id), its hash, its record and every player's view."""

    def __init__(self, state: DealState | GameState) -> None:
        self.state = state
        self.twin = _replayed_by_ids(state)
        self.hash = hash(state)
        self.record = state.to_dict()
        self.views = tuple(state.view(p) for p in range(state.players))
        if self.twin != state:
            raise FuzzFailure("twin: a state replayed by ids is not equal to it", state.rules.name)

    def check(self, where: str, detail: object) -> None:
        """The state still equals its twin, with the same hash, record and views (the
        invariant after every refused call, issue 26 item 5)."""
        state = self.state
        what = ""
        if state != self.twin:
            what = "no longer equals its replayed twin"
        elif hash(state) != self.hash or hash(state) != hash(self.twin):
            what = "changed its hash"
        elif state.to_dict() != self.record:
            what = "changed its record"
        elif tuple(state.view(p) for p in range(state.players)) != self.views:
            what = "changed a view"
        elif tuple(self.twin.view(p) for p in range(state.players)) != self.views:
            what = "has views its twin does not"
        if what:
            raise FuzzFailure(f"{where}: the refused call's state {what}", repr(detail)[:100])


def _replayed_by_ids(state: DealState | GameState) -> DealState | GameState:
    if isinstance(state, GameState):
        game = b.new_game(
            state.rules, seed=state.seed, dealer=state.first_dealer, max_deals=state.max_deals, decks=state.decks
        )
        for moves in (*state.past_moves, () if state.is_over else state.deal.moves):
            for _player, action_id in moves:
                game = game.apply(action_id)
        return game
    if state.seed is None:
        return b.replay(b.record_of(state))
    deal = b.new_deal(state.rules, seed=state.seed, dealer=state.dealer)
    for _player, action_id in state.moves:
        deal = deal.apply(action_id)
    return deal


# -- operations -------------------------------------------------------------------------


def op_apply(rng: random.Random) -> None:
    """apply / check / is_legal / parse_action with odd input: refused cleanly, and after every
    refused call the state equals an independently replayed twin, hash, record and views alike."""
    state: DealState | GameState = random_deal(rng) if rng.random() < 0.8 else random_game(rng)
    before = Twin(state)
    legal = state.legal_action_ids()
    for _ in range(rng.randrange(1, 8)):
        thing = notation_for(rng, state.deal if isinstance(state, GameState) else state)
        name = rng.choice(["apply", "check", "is_legal", "parse_action", "apply_unchecked_flag"])
        if name == "apply":
            after = attempt("apply", bind(state.apply, thing))
            if after is not None:
                check_live("apply", after)
        elif name == "check":
            attempt("check", bind(state.check, thing))
        elif name == "is_legal":
            answer = attempt("is_legal", bind(state.is_legal, thing))
            if answer not in (True, False):
                raise FuzzFailure("is_legal: not a bool", repr(answer)[:100])
        elif name == "parse_action":
            attempt("parse_action", bind(state.parse_action, thing))
        else:
            flag = junk(rng)
            if not isinstance(flag, bool):  # check=False with an illegal action is documented as undefined
                attempt("apply(check=junk)", bind(state.apply, 0, check=flag))
        if state.legal_action_ids() != legal:
            raise FuzzFailure(f"{name}: the legal actions changed", repr(thing)[:100])
        before.check(name, thing)
    check_live("apply", state)


_COPIERS: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("pickle", lambda v: pickle.loads(pickle.dumps(v))),
    ("pickle protocol 2", lambda v: pickle.loads(pickle.dumps(v, protocol=2))),
    ("deepcopy", copy.deepcopy),
    ("copy", copy.copy),
)
_TABLE_NAMES = (b"Tables", b"ActionSpace", b"mappingproxy", b"PlayTable", b"MeldSearch")
"""Names that would show a compiled table inside a pickle."""
MAX_PICKLE = 64_000
"""The largest pickle of a fuzzed value (a state pickles as its rule set's key and its record)."""


def check_round_trip(where: str, value: object, rng: random.Random) -> None:
    """``value`` pickled, deep-copied and copied comes back equal, with the same hash and type
    and the same behaviour; its pickle holds no table; a registry rule set comes back as the
    registry's own object (issue 26 item 1)."""
    try:
        data = pickle.dumps(value)
    except Exception as exc:
        raise FuzzFailure(f"{where}: pickle raised {type(exc).__name__}", repr(exc)[:200]) from exc
    if len(data) > MAX_PICKLE or any(name in data for name in _TABLE_NAMES):
        raise FuzzFailure(f"{where}: a pickle with tables inside", f"{type(value).__name__}: {len(data)} bytes")
    for how, copier in _COPIERS:
        try:
            again = copier(value)
        except Exception as exc:
            raise FuzzFailure(f"{where}: {how} raised {type(exc).__name__}", repr(exc)[:200]) from exc
        if type(again) is not type(value) or again != value:
            raise FuzzFailure(f"{where}: {how} gives back an unequal value", type(value).__name__)
        if not isinstance(value, dict) and hash(again) != hash(value):  # a record is a dict
            raise FuzzFailure(f"{where}: {how} gives back another hash", type(value).__name__)
        _check_behaviour(f"{where}: {how}", value, again, rng)


def _check_behaviour(where: str, value: object, again: Any, rng: random.Random) -> None:
    if isinstance(value, b.RuleSet):
        if value is b.get_rules(value.name, **dict(value.option_values)) and again is not value:
            raise FuzzFailure(f"{where}: a registry rule set comes back as another object", value.name)
        if again.num_actions != value.num_actions or again.sides != value.sides:
            raise FuzzFailure(f"{where}: a rule set that behaves otherwise", value.name)
    elif isinstance(value, (DealState, GameState)):
        if again.rules is not value.rules and value.rules is b.get_rules(value.rules.name, **value.rules.options):
            raise FuzzFailure(f"{where}: a state comes back with another rule set object", value.rules.name)
        if again.legal_action_ids() != value.legal_action_ids() or again.to_dict() != value.to_dict():
            raise FuzzFailure(f"{where}: a state that behaves otherwise", value.rules.name)
        if any(again.view(p) != value.view(p) for p in range(value.players)):
            raise FuzzFailure(f"{where}: a state that shows other views", value.rules.name)
        legal = value.legal_actions()
        if legal:
            i = rng.randrange(len(legal))
            if again.apply(again.legal_actions()[i]) != value.apply(legal[i]):
                raise FuzzFailure(f"{where}: the same action gives unequal states", value.rules.name)
    elif isinstance(value, b.PlayerView):
        if again.legal_actions() != value.legal_actions():
            raise FuzzFailure(f"{where}: a view with other legal actions", str(value.phase))
    elif isinstance(value, b.Action) and str(again) != str(value):
        raise FuzzFailure(f"{where}: an action with other notation", str(value))


def op_values(rng: random.Random) -> None:
    """Pickle, deep-copy and copy every public value: rule sets (registry, with options, built by
    hand), deals of every engine, games, views, actions, cards, card sets, results, melds, records."""
    pick = rng.randrange(6)
    variant = rng.choice(PRESETS)
    if pick == 0:
        rules = b.get_rules(variant)
        options = random_options(rng, rules, odd=False)
        got = attempt("get_rules", lambda: b.get_rules(variant, **options))
        if got is not None:
            rules = got
        if rng.random() < 0.3:  # by hand: not what the registry rebuilds from its name and options
            rules = attrs.evolve(rules, description="a rule set of my own")
        check_round_trip("rules", rules, rng)
        if rng.random() < 0.3:
            deal = attempt("new_deal", lambda: b.new_deal(rules, seed=rng.getrandbits(32)))
            if deal is not None:
                check_round_trip("deal of its rules", deal, rng)
        return
    state: DealState | GameState = random_deal(rng, variant) if pick < 3 else random_game(rng, variant)
    values: list[object] = [state, state.view(rng.randrange(state.players)), state.to_dict()]
    deal = state.deal if isinstance(state, GameState) else state
    values += list(deal.legal_actions()[:2])
    values += [deal.rules.deck.card(rng.randrange(deal.rules.deck.size))]
    values += [deal.view(0).hand, deal.view(0).melds, deal.result]
    if isinstance(state, GameState):
        values += [state.results]
    if rng.random() < 0.2:
        play_out(rng, deal)
    for value in values:
        check_round_trip(type(value).__name__, value, rng)


def in_threads(count: int, work: Callable[[], Any]) -> list[Any]:
    """Run ``work`` in ``count`` threads released together (a barrier), switching threads
    often so that a race shows sooner; each thread's result, or the exception it raised."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def worker(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work()
        except BaseException as exc:  # handed to the caller
            results[i] = exc

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    return results


def op_threads(rng: random.Random) -> None:
    """Several threads at once: on one shared state (each taking the same path, with refused
    calls between the steps and views encoded on the way), or each building the same cold
    option set and dealing from it; every thread ends where one thread alone ends, and threads
    asking for one option set get one rule set object with one set of tables (issue 26 item 4)."""
    variant = rng.choice(PRESETS)
    options = random_options(rng, b.get_rules(variant), odd=False)
    if attempt("get_rules", lambda: b.get_rules(variant, **options)) is None:
        return
    seed, path, steps = rng.getrandbits(32), rng.getrandbits(32), rng.randrange(1, 20)
    shared = b.new_deal(variant, seed=seed, **options) if rng.random() < 0.5 else None
    if shared is None:  # a cold option set: one no thread has built yet
        _evict(variant)
    count = rng.randrange(2, 5)

    def walk(start: DealState | None) -> tuple[Any, ...]:
        rules = b.get_rules(variant, **options)
        state = start if start is not None else b.new_deal(rules, seed=seed)
        tables = state.setup.tables  # the tables this thread's deal was dealt with
        walker = random.Random(path)
        for _ in range(steps):
            if state.is_over:
                break
            before = hash(state), state.to_dict()
            for text in ("GIV", "PASS", "play AS", "meld best"):
                with contextlib.suppress(BeziqueRulesError):
                    state.apply(text)
            if (hash(state), state.to_dict()) != before:
                raise FuzzFailure("threads: a refused call changed a shared state", variant)
            if walker.random() < 0.2:
                state.view(walker.randrange(state.players)).observation_tensor()
            state = state.apply(walker.choice(state.legal_actions()))
        return rules, tables, state

    results = in_threads(count, lambda: walk(shared))
    for got in results:
        if isinstance(got, FuzzFailure):
            raise got
        if isinstance(got, BaseException):
            raise FuzzFailure(f"threads: {type(got).__name__}", repr(got)[:200]) from got
    alone = walk(shared)
    if any(r[0] is not results[0][0] or r[1] is not results[0][1] for r in results):
        raise FuzzFailure("threads: one option set built as several rule sets or tables", variant)
    if any(r[2] != alone[2] or r[2].to_dict() != alone[2].to_dict() for r in results):
        raise FuzzFailure("threads: a thread ends elsewhere than one thread alone", variant)


def _evict(variant: str) -> None:
    """Make ``variant``'s option sets cold: no rule set kept for them by the registry (but
    the defaults, kept for good)."""
    from bezique_rules.rules import registry

    with registry._BUILT_LOCK:
        for key in [k for k, r in registry._BUILT.items() if r.name == variant]:
            registry._forget_twin(registry._BUILT.pop(key))


_ACTION_FIELDS: dict[str, Callable[[random.Random], object]] = {
    "verb": lambda rng: rng.choice(list(b.Verb)),
    "cards": lambda rng: (b.Card.parse(rng.choice(["AS", "QS", "JD", "9C"])),),
    "tabled": lambda rng: (False,),
    "meld": lambda rng: rng.choice(["", "bezique"]),
    "number": lambda rng: rng.choice([None, 250]),
    "suit": lambda rng: rng.choice([None, b.Suit.HEARTS]),
    "alone": lambda rng: False,
    "with_help": lambda rng: False,
    "to_partner": lambda rng: False,
}


def op_action_fields(rng: random.Random) -> None:
    """`Action` built by hand with wrong field types: an `ActionTypeError` (also a TypeError)
    naming the field; an action that is built is well-typed, and every entry point takes it
    or refuses it with our error (issue 26 item 2)."""
    fields = {name: make(rng) for name, make in _ACTION_FIELDS.items() if rng.random() < 0.6 or name == "verb"}
    if "cards" not in fields:
        fields.pop("tabled", None)
    wrong = rng.choice(list(fields))
    as_list = list(fields["cards"]) if "cards" in fields else 1  # type: ignore[call-overload]  # a list for a tuple
    odd = rng.choice([junk(rng), [rng.choice(["AS", 1, None])], "play", str(fields[wrong]), as_list])
    fields[wrong] = odd
    try:
        action = b.Action(**fields)  # type: ignore[arg-type]
    except BeziqueRulesError as exc:
        check_refusal("Action", exc)
        named = ("'cards'", "'tabled'") if wrong in ("cards", "tabled") else (repr(wrong),)
        if not isinstance(exc, ActionTypeError) or not any(n in str(exc) for n in named):
            raise FuzzFailure("Action: a wrong field refused without naming it", f"{wrong}: {exc}") from exc
        return
    except Exception as exc:
        check_refusal("Action", exc)
        return
    if not (
        isinstance(action.verb, b.Verb)
        and isinstance(action.cards, tuple)
        and all(isinstance(c, b.Card) for c in action.cards)
        and len(action.tabled) == len(action.cards)
        and all(type(t) is bool for t in action.tabled)
        and type(action.meld) is str
        and all(type(getattr(action, f)) is bool for f in ("alone", "with_help", "to_partner"))
    ):
        raise FuzzFailure("Action: built with a field of the wrong type", repr(fields)[:200])
    str(action), hash(action), repr(action)
    state: DealState | GameState = random_deal(rng, steps=rng.randrange(0, 10))
    if rng.random() < 0.3:
        state = random_game(rng, steps=rng.randrange(0, 10))
    before = Twin(state)
    for call in (state.apply, state.check, state.is_legal, state.rules.action_id):
        attempt("hand-built action", bind(call, action))
    before.check("hand-built action", action)


def op_ids(rng: random.Random) -> None:
    """action_id / action_from_id / legal_action_mask with odd input."""
    rules = b.get_rules(rng.choice(PRESETS))
    state = random_deal(rng, rules.name, steps=rng.randrange(0, 20))
    for _ in range(rng.randrange(1, 6)):
        thing = notation_for(rng, state)
        found = attempt("action_id", bind(rules.action_id, thing))
        if found is not None and not 0 <= found < rules.num_actions:
            raise FuzzFailure("action_id: out of range", repr(found))
        action = attempt("action_from_id", bind(rules.action_from_id, thing))
        if action is not None and rules.action_id(action) != thing:
            raise FuzzFailure("action_from_id: does not round-trip", repr(thing)[:100])
    if len(state.legal_action_mask()) != rules.num_actions:
        raise FuzzFailure("legal_action_mask: wrong length", rules.name)


def op_view(rng: random.Random) -> None:
    """view / side_of / determinize with odd seats, views and random sources."""
    state: DealState | GameState = random_deal(rng)
    if rng.random() < 0.3:
        state = b.new_game(rng.choice(PRESETS), seed=rng.getrandbits(32), max_deals=2)
    seat = rng.choice([junk(rng), rng.randrange(-2, 10)])
    view = attempt("view", lambda: state.view(seat))  # type: ignore[arg-type]
    attempt("side_of", lambda: state.side_of(seat))  # type: ignore[arg-type]
    if view is None:
        view = state.view(rng.randrange(state.players))
    target = view if rng.random() < 0.7 else junk(rng)
    source = random.Random(rng.getrandbits(32)) if rng.random() < 0.7 else junk(rng)
    world = attempt("determinize", lambda: b.determinize(target, source))  # type: ignore[arg-type]
    if world is not None and not isinstance(world, DealState):
        raise FuzzFailure("determinize: not a DealState", type(world).__name__)


WORLD_SETUPS: tuple[tuple[str, dict[str, Any]], ...] = tuple((v, {}) for v in PRESETS) + (
    ("euchre", {"farmers_hand": "mixed"}),
    ("british-euchre", {"farmers_hand": "nines_or_tens", "dealer_may_discard_upcard": False}),
    ("euchre", {"dealer_pickup": "may", "lone_defender": "always", "partner_takeover": True}),
    ("auction-pinochle", {"bury_melded": True}),
    ("double-deck-pinochle", {"pass_cards": 3, "pass_with_help": True}),
    ("bezique", {"pending_declarations": True}),
    ("pinochle", {"show_last_card": False}),
)
"""Every preset, and the house rules that change who sees what (as ``tests/leaks.py`` has them)."""


def op_worlds(rng: random.Random) -> None:
    """A determinized world of a random state of a random setup, for a random player, is a
    proper world that can be saved (issue 25 cause 3, issue 26 item 6): not the deal itself,
    the same view, and its record replays (with every check) to the world itself."""
    variant, options = rng.choice(WORLD_SETUPS)
    state = b.new_deal(b.get_rules(variant, **options), seed=rng.getrandbits(32))
    for _ in range(rng.randrange(0, 160)):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_action_ids()), check=False)
    player = rng.randrange(state.players)
    view = state.view(player)
    world = b.determinize(view, random.Random(rng.getrandbits(32)))
    where = f"{variant} {options} seed-moves {len(state.moves)} player {player}"
    if world is state:
        raise FuzzFailure("determinize: the deal itself", where)
    if world.view(player) != view:
        raise FuzzFailure("determinize: another view", where)
    try:
        again = b.replay(json.loads(json.dumps(b.record_of(world))))
    except b.RecordError as exc:
        raise FuzzFailure("determinize: the world's record does not replay", f"{where}: {exc}") from None
    if again != world:
        raise FuzzFailure("determinize: the world's record replays to another deal", where)


def op_setup(rng: random.Random) -> None:
    """new_deal / new_game / get_rules with odd variants, options, seeds, decks, dealers."""
    variant: object = rng.choice(PRESETS)
    if rng.random() < 0.15:
        variant = rng.choice([junk(rng), mutate_text(rng, str(variant))])
    rules = b.get_rules(rng.choice(PRESETS)) if not isinstance(variant, str) else None
    base = b.get_rules(variant) if isinstance(variant, str) and variant in PRESETS else rules
    options = random_options(rng, base, odd=rng.random() < 0.5) if base is not None else {}
    kwargs: dict[str, Any] = {}
    if rng.random() < 0.3:
        kwargs["seed"] = rng.choice([junk(rng), rng.getrandbits(64), -1, 2**64])
    else:
        kwargs["seed"] = rng.getrandbits(32)
    if rng.random() < 0.3:
        kwargs["dealer"] = rng.choice([junk(rng), rng.randrange(-1, 6)])
    if base is not None and rng.random() < 0.3:
        deck = [str(c) for c in base.deck.cards]
        rng.shuffle(deck)
        edit = rng.randrange(6)
        if edit == 0 and deck:
            deck.pop()
        elif edit == 1:
            deck.append(rng.choice(deck))
        elif edit == 2:
            deck[rng.randrange(len(deck))] = mutate_text(rng, deck[0])
        elif edit == 3:
            deck[rng.randrange(len(deck))] = junk(rng)  # type: ignore[call-overload]
        elif edit == 4:
            kwargs["deck"] = junk(rng)
        if "deck" not in kwargs:
            text_ok = all(isinstance(c, str) for c in deck)
            kwargs["deck"] = " ".join(deck) if text_ok and rng.random() < 0.2 else deck
        if rng.random() < 0.8:
            kwargs.pop("seed")
    maker = rng.randrange(3)
    if maker == 0:
        got = attempt("get_rules", lambda: b.get_rules(variant, **options))  # type: ignore[arg-type]
        if got is not None and rng.random() < 0.1:
            deal = attempt("new_deal", lambda: b.new_deal(got, seed=rng.getrandbits(32)))
            if deal is not None:
                play_out(rng, deal)
        return
    if maker == 1:
        deal = attempt("new_deal", lambda: b.new_deal(variant, **kwargs, **options))  # type: ignore[arg-type]
        if deal is not None:
            check_live("new_deal", deal)
            if rng.random() < 0.2:
                play_out(rng, deal)
        return
    kwargs.pop("deck", None)
    if rng.random() < 0.3:
        kwargs["max_deals"] = rng.choice([junk(rng), rng.randrange(-1, 4)])
    if rng.random() < 0.2:
        kwargs["decks"] = junk(rng)
    if rng.random() < 0.3:
        kwargs.pop("dealer", None)
        kwargs["first_dealer"] = rng.choice(["cut", "cut", junk(rng), rng.randrange(-1, 6)])
        if base is not None and rng.random() < 0.3:
            pack = [str(c) for c in base.deck.cards]
            stack = [rng.choice(pack) for _ in range(rng.randrange(0, 2 * base.players + 2))]
            if stack and rng.random() < 0.3:
                stack[rng.randrange(len(stack))] = mutate_text(rng, stack[0])
            kwargs["cut_cards"] = rng.choice([stack, stack, junk(rng)])
        if rng.random() < 0.2:
            kwargs["cut_decision"] = rng.choice(["deal", "lead", junk(rng)])
    game = attempt("new_game", lambda: b.new_game(variant, **kwargs, **options))  # type: ignore[arg-type]
    if game is not None:
        check_live("new_game", game)


def play_out(rng: random.Random, state: DealState) -> None:
    """Play ``state`` to its end by random legal actions, checking every state is live."""
    while not state.is_over:
        ids = state.legal_action_ids()
        if not ids:
            raise FuzzFailure("play: live state without a legal action", f"{state.rules.name} {state.phase}")
        state = state.apply(rng.choice(ids), check=False)


def op_register(rng: random.Random) -> None:
    """register_variant with a bad name, a taken name or something that is no rule set: refused."""
    choice = rng.randrange(3)
    name: object
    rules: object
    if choice == 0:
        name, rules = junk(rng), b.get_rules("bezique")
        if isinstance(name, str) and name and len(name) <= 100:
            name = rng.choice(PRESETS)  # taken: must be refused
    elif choice == 1:
        name, rules = rng.choice(PRESETS), b.get_rules("bezique")
    else:
        name, rules = "fuzz-never-registered", junk(rng)
        if isinstance(rules, b.RuleSet):
            rules = None
    before = b.available_variants()
    result = attempt("register_variant", lambda: b.register_variant(name, rules))  # type: ignore[arg-type]
    if result is not None or b.available_variants() != before:
        raise FuzzFailure("register_variant: accepted bad input", repr(name)[:100])


def mutated_record(rng: random.Random) -> object:
    """A record of a random deal or game, mutated (a field dropped, changed, added; the
    actions edited; the JSON text cut, nested or flipped)."""
    if rng.random() < 0.2:
        first_dealer: Literal["cut"] | None = "cut" if rng.random() < 0.5 else None
        game = b.new_game(rng.choice(PRESETS), seed=rng.getrandbits(32), max_deals=2, first_dealer=first_dealer)
        for _ in range(rng.randrange(0, 40)):
            if game.is_over:
                break
            game = game.apply(rng.choice(game.legal_action_ids()), check=False)
        record: dict[Any, Any] = b.record_of(game)
    else:
        record = b.record_of(random_deal(rng))
    for _ in range(rng.randrange(0, 3)):
        pick = rng.randrange(8)
        key = rng.choice(list(record))
        if pick == 0:
            del record[key]
        elif pick == 1:
            record[key] = junk(rng)
        elif pick == 2:
            record[rng.choice(["extra", "x-note", "Seed", "deck", "decks", "max_deals", 1])] = junk(rng)
        elif pick == 3 and isinstance(record.get("actions"), list) and record["actions"]:
            i = rng.randrange(len(record["actions"]))
            record["actions"][i] = mutate_text(rng, str(record["actions"][i]))
        elif pick == 4 and isinstance(record.get("options"), dict) and record.get("variant") in PRESETS:
            record["options"].update(random_options(rng, b.get_rules(record["variant"]), odd=True))
        elif pick == 5:
            record["version"] = rng.choice([True, 1.0, "1", 2, 0, None])
        elif pick == 6:
            record["seed"] = rng.choice([None, True, -1, 2**64, 10**5000, "1"])
        elif pick == 7 and isinstance(record.get("cut"), dict) and rng.random() < 0.5:
            cut = record["cut"]
            cut[rng.choice(["cards", "decision", "who"])] = rng.choice([junk(rng), ["AS"], "lead", None])
        else:
            record["dealer"] = rng.choice([None, True, 1.0, -1, 9, "0"])
    if rng.random() < 0.5:
        return record
    try:
        text = json.dumps(record)
    except (TypeError, ValueError):
        return record
    pick = rng.randrange(5)
    if pick == 0:
        return text[: rng.randrange(len(text) + 1)]
    if pick == 1:
        depth = rng.choice([10, 100, 2000, 100_000])
        return '{"a":' * depth + text + "}" * depth
    if pick == 2:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(_ODD_TEXT[:15]) + text[i + 1 :]
    return text


_RECORD_FIELDS = ("max_deals", "dealer", "decks", "deck", "variant", "seed", "actions", "first_dealer", "cut_cards")


def op_records(rng: random.Random) -> None:
    """replay / from_dict / record_of of mutated records: refused cleanly, or a replay that
    round-trips; options that repeat a record field are refused quoting it (issue 26 item 3),
    unknown keys are refused (``x-`` keys ignored) as `check_record` documents."""
    record = mutated_record(rng)
    if rng.random() < 0.1:
        record = junk(rng)
    if rng.random() < 0.15 and isinstance(record, dict):
        repeated = rng.choice(_RECORD_FIELDS)
        others = record["options"] if isinstance(record.get("options"), dict) else {}
        record["options"] = {repeated: 3, **{k: v for k, v in others.items() if k != repeated}}  # checked first
        try:
            b.replay(record)
        except b.RecordError as exc:
            check_refusal("replay", exc)
            if repr(repeated) not in str(exc) and not _refused_before_options(record):
                raise FuzzFailure(
                    "replay: options repeating a record field refused without quoting it", str(exc)[:200]
                ) from exc
            return
        except Exception as exc:
            check_refusal("replay", exc)
            raise FuzzFailure("replay: options repeating a record field: not a RecordError", repr(exc)[:200]) from exc
        raise FuzzFailure("replay: options repeating a record field accepted", repeated)
    if rng.random() < 0.1 and isinstance(record, dict):
        record["x-" + rng.choice(["player", "date", "note"])] = junk(rng)
    call = rng.choice([b.replay, DealState.from_dict, GameState.from_dict])
    state = attempt("replay", bind(call, record))
    if state is not None:
        again = b.replay(b.record_of(state))
        if again != state:
            raise FuzzFailure("replay: the record of a replayed state does not replay to it", state.rules.name)
        check_live("replay", state)
    attempt("record_of", lambda: b.record_of(junk(rng)))  # type: ignore[arg-type]


def op_agents(rng: random.Random) -> None:
    """An agent's choose with odd views and random sources; a legal answer otherwise."""
    state = random_deal(rng, steps=rng.randrange(0, 30))
    if state.is_over:
        return
    player = state.current_player
    assert player is not None
    seat = player if rng.random() < 0.6 else (player + 1) % state.players
    view: object = state.view(seat) if rng.random() < 0.8 else junk(rng)
    source: object = random.Random(rng.getrandbits(32)) if rng.random() < 0.8 else junk(rng)
    agent = b.RandomAgent() if rng.random() < 0.8 else b.HeuristicAgent()
    action = attempt("choose", lambda: agent.choose(view, source))  # type: ignore[arg-type]
    if action is not None and not state.is_legal(action):
        raise FuzzFailure("choose: an illegal action", f"{state.rules.name} {action}")


def op_cli(rng: random.Random) -> None:
    """The command line with odd arguments: an exit status, never an exception."""
    variant = rng.choice(PRESETS)
    argv: object = rng.choice(
        [
            ["rules", rng.choice([variant, mutate_text(rng, variant), ""])],
            ["simulate", variant, "--deals", str(rng.choice([0, -1, 1, 2, 10**12, 10**30]))],
            ["simulate", variant, "--deals", "1", "--jobs", str(rng.choice([0, -1, 10**6]))],
            ["simulate", variant, "--deals", "1", "--seed", str(rng.choice([-1, 10**30, 0]))],
            ["replay", rng.choice(["/nonexistent/record.json", "/", "/dev/null"])],
            ["play", variant, "--level", str(rng.choice([0, 6, -1]))],
            [mutate_text(rng, "simulate")],
            junk(rng),
        ]
    )
    out, err = io.StringIO(), io.StringIO()
    status = attempt("cli", lambda: cli_main(argv, out, err, stdin=io.StringIO("")))  # type: ignore[arg-type]
    if not isinstance(status, int) or isinstance(status, bool):
        raise FuzzFailure("cli: no exit status", repr(status)[:100])


def _refused_before_options(record: dict[Any, Any]) -> bool:
    """Whether ``record`` is refused for a fault `check_record` finds before its options."""
    try:
        check_record({**record, "options": {}})
    except b.RecordError:
        return True
    return False


OPERATIONS: tuple[Callable[[random.Random], None], ...] = (
    op_apply,
    op_apply,
    op_values,
    op_values,
    op_threads,
    op_action_fields,
    op_ids,
    op_view,
    op_worlds,
    op_setup,
    op_setup,
    op_register,
    op_records,
    op_records,
    op_agents,
    op_cli,
)


def fuzz_one(seed: int) -> None:
    """One fuzz case: a random operation driven by ``random.Random(seed)``.

    Raises:
        FuzzFailure: the library broke its contract.
    """
    rng = random.Random(seed)
    operation = rng.choice(OPERATIONS)
    try:
        operation(rng)
    except FuzzFailure:
        raise
    except Exception as exc:  # the harness's own valid calls must not fail either
        tb = traceback.extract_tb(exc.__traceback__)
        place = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else "?"
        raise FuzzFailure(f"{operation.__name__}: {type(exc).__name__} at {place}", repr(exc)[:300]) from exc
