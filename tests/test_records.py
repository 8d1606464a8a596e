"""Game records: record_of / replay round trips for deals and games, and every way a
corrupt or tampered record is refused with a RecordError (with the step number when a
step is at fault)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bezique_rules import (
    BeziqueRulesError,
    DealState,
    GameState,
    Phase,
    RecordError,
    get_rules,
    new_deal,
    new_game,
    record_of,
    replay,
)

SUITS = "SHDC"
RANKS = "ATKQJ987"
FULL_DECK = [r + s for s in SUITS for r in RANKS] * 2


def play_deal(state: DealState, rng: random.Random, steps: int | None = None) -> DealState:
    """Play random legal actions: ``steps`` of them, or to the end of the deal."""
    count = 0
    while not state.is_over and (steps is None or count < steps):
        state = state.apply(rng.choice(state.legal_actions()))
        count += 1
    return state


def play_game(game: GameState, rng: random.Random) -> GameState:
    """Play random legal actions to the end of the game."""
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    return game


def assert_same_deal(a: DealState | GameState, b: DealState) -> None:
    """Two deals are the same in every observable way."""
    assert isinstance(a, DealState)
    assert a == b
    assert a.history == b.history
    assert a.legal_actions() == b.legal_actions()
    assert a.scores == b.scores
    assert a.breakdown == b.breakdown
    assert a.phase is b.phase
    assert a.view(0) == b.view(0)
    assert a.view(1) == b.view(1)


def finished_deal(seed: int = 5) -> DealState:
    """A seeded deal played to its end."""
    return play_deal(new_deal("bezique", seed=seed), random.Random(seed))


def illegal_at(state: DealState) -> str:
    """A well-formed action of the variant that is not legal in ``state`` (nor, where ``state``
    is a declaration decision whose only action is ``pass``, which a record may leave out,
    after that pass)."""
    legal = set(state.legal_action_ids())
    if state.phase is Phase.DECLARE and [str(a) for a in state.legal_actions()] == ["pass"]:
        legal |= set(state.apply("pass").legal_action_ids())
    actions = state.rules.action_space.actions
    return str(next(a for i, a in enumerate(actions) if i not in legal))


# -- what a record holds ----------------------------------------------------------------


def test_deal_record_fields() -> None:
    """A deal record: format, version, kind, variant, every option, seed, dealer and canonical action strings."""
    deal = play_deal(new_deal("bezique", seed=7, dealer=0, target=1500), random.Random(1), steps=30)
    record = record_of(deal)
    assert record["format"] == "bezique-rules-record"
    assert record["version"] == 1
    assert record["kind"] == "deal"
    assert record["variant"] == "bezique"
    assert record["options"] == dict(get_rules("bezique", target=1500).options)
    assert record["seed"] == 7
    assert "deck" not in record
    assert record["dealer"] == 0
    assert record["actions"] == [str(a) for _p, a in deal.history]
    assert len(record["actions"]) == 30
    assert json.loads(json.dumps(record)) == record
    assert deal.to_dict() == record


def test_stacked_deal_record_keeps_the_deck() -> None:
    """A stacked deal's record holds the deck order (top first) instead of a seed."""
    deck = list(reversed(FULL_DECK))
    deal = play_deal(new_deal("bezique", deck=deck), random.Random(2), steps=9)
    record = record_of(deal)
    assert record["deck"] == deck
    assert "seed" not in record
    assert record["dealer"] == 1


# -- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("steps", [0, 1, 2, 17, 40, None])
def test_seeded_deal_round_trip(steps: int | None) -> None:
    """replay(record_of(deal)) rebuilds the same deal, at the start, mid-trick, mid-deal and at the end."""
    deal = play_deal(new_deal("bezique", seed=21), random.Random(21), steps=steps)
    assert_same_deal(replay(record_of(deal)), deal)
    assert_same_deal(DealState.from_dict(deal.to_dict()), deal)


@pytest.mark.parametrize("steps", [0, 5, None])
def test_stacked_deal_round_trip(steps: int | None) -> None:
    """A stacked deal replays to the same state, with dealer 0 as well."""
    deck = FULL_DECK[32:] + FULL_DECK[:32]
    deal = play_deal(new_deal("bezique", deck=deck, dealer=0), random.Random(3), steps=steps)
    assert_same_deal(replay(record_of(deal)), deal)


@pytest.mark.parametrize(
    "options",
    [
        {"carte_blanche": 50, "quartet_rule": "one_per_suit"},
        {"melds_per_trick": "unlimited", "seven_methods": "score_only", "playoff_rule": "follow_only"},
        {"brisque_timing": "immediate", "last_trick_bonus_at": "last_stock_trick", "lurch_threshold": 500},
    ],
)
def test_round_trip_keeps_options(options: dict[str, Any]) -> None:
    """A record keeps non-default options, and the replayed deal plays by them."""
    deal = play_deal(new_deal("bezique", seed=8, **options), random.Random(8))
    record = record_of(deal)
    for name, value in options.items():
        assert record["options"][name] == value
    again = replay(json.dumps(record))
    assert_same_deal(again, deal)
    assert again.rules == deal.rules


def test_match_preset_deal_round_trip() -> None:
    """A deal of the bezique-match preset replays under that preset's defaults."""
    deal = play_deal(new_deal("bezique-match", seed=4), random.Random(4))
    record = record_of(deal)
    assert record["variant"] == "bezique-match"
    assert record["options"]["quartet_rule"] == "one_per_suit"
    assert_same_deal(replay(record), deal)


def test_json_text_input() -> None:
    """replay accepts the record's JSON text (compact or indented)."""
    deal = finished_deal(6)
    record = record_of(deal)
    assert_same_deal(replay(json.dumps(record)), deal)
    assert_same_deal(replay(json.dumps(record, indent=2, sort_keys=True)), deal)


def test_game_round_trip() -> None:
    """A whole game (several deals) replays to the same game: totals, results, winner, deal number."""
    game = play_game(new_game("bezique-match", seed=2), random.Random(2))
    record = record_of(game)
    assert record["kind"] == "game"
    assert record["seed"] == 2
    assert record["actions"] == [str(a) for a in game.all_actions()]
    again = replay(json.dumps(record))
    assert isinstance(again, GameState)
    assert again == game
    assert again.scores == game.scores
    assert again.results == game.results
    assert again.winner == game.winner
    assert again.deal_number == game.deal_number
    assert GameState.from_dict(game.to_dict()) == game


def test_game_in_progress_round_trip() -> None:
    """A game stopped in its second deal replays to the same state and plays on identically."""
    rng = random.Random(9)
    game = new_game("bezique", seed=9, max_deals=3)
    while game.deal_number < 2 or len(game.deal.history) < 10:
        game = game.apply(rng.choice(game.legal_actions()))
    record = record_of(game)
    assert record["max_deals"] == 3
    again = replay(record)
    assert isinstance(again, GameState)
    assert again == game
    action = game.legal_actions()[-1]
    assert again.apply(action) == game.apply(action)


def test_stacked_game_round_trip() -> None:
    """A game with a stacked first deal keeps the decks in its record and replays to the same game."""
    deck = list(reversed(FULL_DECK))
    game = new_game("bezique-match", seed=5, decks=[deck])
    game = play_game(game, random.Random(5))
    record = record_of(game)
    assert record["decks"] == [deck]
    again = replay(record)
    assert again == game


def test_replay_leaves_the_record_untouched() -> None:
    """replay does not modify the record it is given."""
    record = record_of(finished_deal(3))
    before = copy.deepcopy(record)
    replay(record)
    assert record == before


# -- corrupt and tampered records ---------------------------------------------------------------


def refused(record: Any) -> RecordError:
    """The RecordError that replaying ``record`` raises (also a ValueError, with no chained inner error)."""
    with pytest.raises(RecordError) as info:
        replay(record)
    exc = info.value
    assert isinstance(exc, ValueError)
    assert isinstance(exc, BeziqueRulesError)
    assert exc.__cause__ is None
    assert exc.__context__ is None or exc.__suppress_context__
    return exc


def test_wrong_card_in_an_action() -> None:
    """A step naming a card the player does not hold: RecordError at that step, the step quoted."""
    deal = finished_deal(5)
    record = record_of(deal)
    first = new_deal("bezique", seed=5)
    held = {str(c) for c in first.view(0).hand}
    missing = next(r + s for s in SUITS for r in RANKS if r + s not in held)
    record["actions"][0] = f"play {missing}"
    exc = refused(record)
    assert exc.step == 1
    assert "step 1" in str(exc)
    assert f"'play {missing}'" in str(exc)
    assert "you hold no such card" in str(exc)


def test_unparsable_card_in_an_action() -> None:
    """A step that does not parse: RecordError at that step, saying it is not a card."""
    record = record_of(finished_deal(5))
    record["actions"][6] = "play ZZ"
    exc = refused(record)
    assert exc.step == 7
    assert "step 7" in str(exc)
    assert "'play ZZ'" in str(exc)
    assert "not a card" in str(exc)


def test_illegal_step() -> None:
    """An illegal step ("pass" while a card is due): RecordError with .step the 1-based step number."""
    deal = finished_deal(5)
    record = record_of(deal)
    states = [new_deal("bezique", seed=5)]
    for text in record["actions"]:
        states.append(states[-1].apply(text))
    k = next(i for i, s in enumerate(states) if i >= 10 and not s.is_legal("pass"))
    record["actions"][k] = "pass"
    exc = refused(record)
    assert exc.step == k + 1
    assert f"step {k + 1} ('pass')" in str(exc)
    assert "nothing to pass" in str(exc)


def test_step_after_the_end() -> None:
    """An action after the deal is over: RecordError at that extra step."""
    record = record_of(finished_deal(5))
    n = len(record["actions"])
    record["actions"].append("play AS")
    exc = refused(record)
    assert exc.step == n + 1
    assert "the deal is over" in str(exc)


@given(seed=st.integers(0, 2**32), where=st.floats(0, 1, exclude_max=True))
def test_any_tampered_step_is_reported_at_its_number(seed: int, where: float) -> None:
    """Replacing any step k with an action that is illegal there fails at exactly step k."""
    rng = random.Random(seed)
    states = [new_deal("bezique", seed=seed % 1000)]
    while not states[-1].is_over:
        states.append(states[-1].apply(rng.choice(states[-1].legal_actions())))
    record = record_of(states[-1])
    k = int(where * len(record["actions"]))
    bad = illegal_at(states[k])
    record["actions"][k] = bad
    exc = refused(record)
    assert exc.step == k + 1
    assert f"step {k + 1} ({bad!r})" in str(exc)


def test_tampered_game_step_counts_across_deals() -> None:
    """In a game record the step number counts every action of every deal, from 1."""
    game = play_game(new_game("bezique-match", seed=2), random.Random(2))
    record = record_of(game)
    assert game.deal_number == 2
    first_deal = len(game.past_moves[0])
    replayed = new_game("bezique-match", seed=2)
    for text in record["actions"][: first_deal + 4]:
        replayed = replayed.apply(text)
    assert replayed.deal_number == 2
    record["actions"][first_deal + 4] = illegal_at(replayed.deal)
    exc = refused(record)
    assert exc.step == first_deal + 5
    assert f"step {first_deal + 5}" in str(exc)


@pytest.mark.parametrize("version", [2, 0, "1", None, 1.5])
def test_unknown_format_version(version: object) -> None:
    """A record of another format version: RecordError naming the version and the one this library reads."""
    record = record_of(finished_deal())
    record["version"] = version
    exc = refused(record)
    assert exc.step is None
    assert "version" in str(exc)
    assert repr(version) in str(exc)


def test_missing_format_version() -> None:
    """A record without a version: RecordError about the version."""
    record = record_of(finished_deal())
    del record["version"]
    assert "version" in str(refused(record))


@pytest.mark.parametrize("name", ["chess-pgn", "bezique-rules", None, 1])
def test_unknown_format_name(name: object) -> None:
    """A record of another format: RecordError quoting the format name."""
    record = record_of(finished_deal())
    record["format"] = name
    exc = refused(record)
    assert "not a bezique-rules record" in str(exc)
    assert repr(name) in str(exc)


def test_missing_format_name() -> None:
    """A record without a format field: RecordError."""
    record = record_of(finished_deal())
    del record["format"]
    assert "not a bezique-rules record" in str(refused(record))


@pytest.mark.parametrize("text", ["not json {", "", "{'format': 1}", '{"format": "bezique-rules-record",'])
def test_not_json(text: str) -> None:
    """Text that is not JSON: RecordError saying so."""
    exc = refused(text)
    assert "is JSON; this is not" in str(exc)
    assert exc.step is None


@pytest.mark.parametrize(("value", "kind"), [("[1, 2]", "list"), ("5", "int"), ('"x"', "str"), ("null", "NoneType")])
def test_json_that_is_not_an_object(value: str, kind: str) -> None:
    """JSON that is not an object: RecordError naming what it is."""
    assert f"a JSON object, not {kind}" in str(refused(value))


@pytest.mark.parametrize("value", [[1], 5, None])
def test_record_that_is_not_a_dict(value: object) -> None:
    """A record that is neither a dict nor JSON text: RecordError."""
    assert "JSON object" in str(refused(value))


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("variant", None, "names no variant"),
        ("variant", 5, "names no variant"),
        ("actions", None, "actions are not a list of strings"),
        ("actions", "play AS", "actions are not a list of strings"),
        ("actions", ["play AS", 5], "actions are not a list of strings"),
        ("options", [1], "options are not an object"),
        ("kind", "tournament", "unknown record kind 'tournament'"),
        ("dealer", 7, "dealer must be a seat"),
        ("dealer", "x", "dealer must be a seat"),
        ("variant", "chess", "unknown variant 'chess'"),
    ],
)
def test_bad_fields(field: str, value: object, fragment: str) -> None:
    """A field of the wrong type or value: RecordError saying which."""
    record = record_of(finished_deal())
    record[field] = value
    if value is None:
        del record[field]
    exc = refused(record)
    assert fragment in str(exc)
    assert exc.step is None


@pytest.mark.parametrize("seed", ["5", 5.0, True, [5]])
def test_bad_seed_type(seed: object) -> None:
    """A seed that is not a whole number: RecordError quoting it."""
    record = record_of(finished_deal())
    record["seed"] = seed
    exc = refused(record)
    assert "seed is not a whole number" in str(exc)
    assert repr(seed) in str(exc)


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"match_lead": 400}, "unknown option 'match_lead'"),
        ({"target": -3}, "option 'target' must be at least 1"),
        ({"quartet_rule": "some"}, "option 'quartet_rule' does not allow 'some'"),
    ],
)
def test_bad_options(options: dict[str, Any], fragment: str) -> None:
    """Options with an unknown option or a bad value: RecordError naming it."""
    record = record_of(finished_deal())
    record["options"].update(options)
    exc = refused(record)
    assert fragment in str(exc)
    assert exc.step is None


def test_stacked_deck_tampered() -> None:
    """A deal record whose deck is not the 64 cards, or has a seed too: RecordError."""
    deal = new_deal("bezique", deck=FULL_DECK)
    record = record_of(deal)
    short = copy.deepcopy(record)
    short["deck"] = FULL_DECK[:-1]
    assert "missing 7C" in str(refused(short))
    foreign = copy.deepcopy(record)
    foreign["deck"] = ["ZZ", *FULL_DECK[1:]]
    assert "'ZZ'" in str(refused(foreign))
    both = copy.deepcopy(record)
    both["seed"] = 4
    assert "either a seed or a deck" in str(refused(both))


def test_game_record_fields_tampered() -> None:
    """A game record without its seed, or with bad max_deals or decks: RecordError."""
    record = record_of(new_game("bezique", seed=1))
    no_seed = copy.deepcopy(record)
    del no_seed["seed"]
    assert "needs its seed" in str(refused(no_seed))
    capped = copy.deepcopy(record)
    capped["max_deals"] = 0
    assert "max_deals" in str(refused(capped))
    decks = copy.deepcopy(record)
    decks["decks"] = "AS KS"
    assert "decks" in str(refused(decks))
    short = copy.deepcopy(record)
    short["decks"] = [FULL_DECK[:-1]]
    assert "missing 7C" in str(refused(short))


@pytest.mark.parametrize("decks", [[5], [None]])
def test_game_record_with_non_list_deck(decks: list[Any]) -> None:
    """A game record whose decks hold something that is not a card list: RecordError."""
    record = record_of(new_game("bezique", seed=1))
    record["decks"] = decks
    refused(record)


def test_from_dict_checks_the_kind() -> None:
    """DealState.from_dict of a game record and GameState.from_dict of a deal record raise RecordError."""
    game_record = record_of(new_game("bezique-match", seed=1))
    deal_record = record_of(new_deal("bezique", seed=1))
    with pytest.raises(RecordError) as info:
        DealState.from_dict(game_record)
    assert "of a game, not of a deal" in str(info.value)
    with pytest.raises(RecordError) as info:
        GameState.from_dict(deal_record)
    assert "of a deal, not of a game" in str(info.value)
    with pytest.raises(RecordError):
        DealState.from_dict({"format": "other"})
