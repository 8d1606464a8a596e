"""Bad input: every mistake raises its own error from the library's hierarchy (and the
builtin base it promises), with a message that names the problem, never an
exception from deep inside, and never a changed state."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs
import pytest

from bezique_rules import (
    Action,
    BeziqueRulesError,
    Card,
    DealError,
    DealState,
    IllegalActionError,
    NotationError,
    OptionError,
    Phase,
    Rank,
    RuleCode,
    Suit,
    UnknownVariantError,
    Verb,
    available_variants,
    get_rules,
    new_deal,
    new_game,
    parse_cards,
    record_of,
    register_variant,
    replay,
)
from bezique_rules.rules import registry
from bezique_rules.rules.ruleset import OptionSpec, RuleSet, read_options

PRESETS = ("bezique", "bezique-match")
SUITS = "SHDC"
RANKS = "ATKQJ987"
FULL_DECK = [r + s for s in SUITS for r in RANKS] * 2
"""The 64 cards in face order, twice: a valid stacked deck."""
P0_SLOTS = (0, 1, 2, 6, 7, 10, 11, 12)
P1_SLOTS = (3, 4, 5, 8, 9, 13, 14, 15)


def assert_clean(exc: BaseException) -> None:
    """The error shows no chained internal exception (no traceback from deep inside)."""
    assert exc.__cause__ is None
    assert exc.__context__ is None or exc.__suppress_context__


def stacked(p0: str, p1: str, turn_up: str, stock: str = "") -> list[str]:
    """A 64-card deck dealing ``p0`` and ``p1`` (8 cards each), the turn-up, then ``stock`` on top."""
    deck = [""] * 64
    pool = list(FULL_DECK)
    for slots, hand in ((P0_SLOTS, p0.split()), (P1_SLOTS, p1.split())):
        assert len(hand) == 8
        for slot, card in zip(slots, hand):
            deck[slot] = card
            pool.remove(card)
    deck[16] = turn_up
    pool.remove(turn_up)
    for i, card in enumerate(stock.split()):
        deck[17 + i] = card
        pool.remove(card)
    rest = iter(pool)
    return [c or next(rest) for c in deck]


def twin_of(state: DealState) -> DealState:
    """An independent copy of ``state``, rebuilt from its record."""
    twin = replay(record_of(state))
    assert isinstance(twin, DealState)
    return twin


def assert_unchanged(state: DealState, twin: DealState) -> None:
    """``state`` is still exactly the state ``twin`` copied, and still plays on the same way."""
    assert state == twin
    assert state.legal_actions() == twin.legal_actions()
    assert state.scores == twin.scores
    assert state.view(0) == twin.view(0)
    assert state.view(1) == twin.view(1)
    if not state.is_over:
        first = state.legal_actions()[0]
        assert state.apply(first) == twin.apply(first)


def random_play(state: DealState, rng: random.Random) -> Iterator[DealState]:
    """Every state of a deal played on by random legal actions, ``state`` first, the end last."""
    yield state
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        yield state


def finished_deal(seed: int = 3) -> DealState:
    """A deal played to its end by random legal actions."""
    *_, last = random_play(new_deal("bezique", seed=seed), random.Random(seed))
    return last


# -- unknown variants -----------------------------------------------------------------


MAKERS: list[Callable[[Any], object]] = [
    lambda name: new_deal(name, seed=1),
    lambda name: new_game(name, seed=1),
    lambda name: get_rules(name),
]


@pytest.mark.parametrize("make", MAKERS, ids=["new_deal", "new_game", "get_rules"])
@pytest.mark.parametrize("name", ["no-such-game", "bezique-three-hand", "", "bezik"])
def test_unknown_variant_lists_the_known_names(make: Callable[[Any], object], name: str) -> None:
    """An unknown preset: UnknownVariantError (a LookupError) quoting the name and listing every known one."""
    with pytest.raises(UnknownVariantError) as info:
        make(name)
    exc = info.value
    assert isinstance(exc, LookupError)
    assert isinstance(exc, BeziqueRulesError)
    message = str(exc)
    assert message.startswith("unknown variant")
    assert repr(name) in message
    for known in available_variants():
        assert known in message
    assert_clean(exc)


@pytest.mark.parametrize("name", [5, None, ["bezique"]])
def test_non_text_variant_name(name: object) -> None:
    """A variant name that is not text: UnknownVariantError naming the value, not a TypeError."""
    with pytest.raises(UnknownVariantError) as info:
        new_deal(name, seed=1)  # type: ignore[arg-type]
    assert repr(name) in str(info.value)


# -- options ------------------------------------------------------------------------------


UNKNOWN_OPTIONS = [
    ("bezique", "nope"),
    ("bezique", "targett"),
    ("bezique", "match_lead"),
    ("bezique", "Target"),
    ("bezique-match", "target"),
    ("bezique-match", "tie_rule"),
    ("bezique-match", "lurch_threshold"),
    ("bezique-match", "seven"),
]


@pytest.mark.parametrize(("preset", "option"), UNKNOWN_OPTIONS)
def test_unknown_option_names_it_and_lists_the_options(preset: str, option: str) -> None:
    """An unknown option: OptionError (a ValueError) quoting the option and listing the preset's options."""
    known = sorted(get_rules(preset).options)
    options: dict[str, Any] = {option: 1}
    calls: list[Callable[[], object]] = [
        lambda: get_rules(preset, **options),
        lambda: new_deal(preset, seed=1, **options),
        lambda: new_game(preset, seed=1, **options),
        lambda: get_rules(preset).with_options(**options),
    ]
    for call in calls:
        with pytest.raises(OptionError) as info:
            call()
        exc = info.value
        assert isinstance(exc, ValueError)
        message = str(exc)
        assert f"unknown option {option!r}" in message
        assert repr(preset) in message
        for name in known:
            assert name in message
        assert_clean(exc)


BAD_VALUES: list[tuple[str, str, object, str]] = [
    ("bezique", "quartet_rule", "foo", "'any', 'one_per_suit'"),
    ("bezique", "quartet_rule", "ANY", "'any', 'one_per_suit'"),
    ("bezique", "bezique_pair", "swap", "'fixed', 'colour_swap'"),
    ("bezique", "melds_per_trick", 2, "1, 'unlimited'"),
    ("bezique", "melds_per_trick", True, "1, 'unlimited'"),
    ("bezique", "new_card_rule", "", "'every_meld', 'same_class_only'"),
    ("bezique", "double_after_two_singles", "yes", "True or False"),
    ("bezique", "declare_on_last_stock_trick", 1, "True or False"),
    ("bezique", "seven_methods", "never", "'both', 'exchange_only', 'score_only'"),
    ("bezique", "seven_score_on_play", None, "True or False"),
    ("bezique", "playoff_rule", "follow_beat", "'follow_beat_or_trump', 'follow_only'"),
    ("bezique", "brisque_timing", None, "'end_of_hand', 'immediate'"),
    ("bezique", "last_trick_bonus_at", 24, "'final', 'last_stock_trick'"),
    ("bezique", "carte_blanche", -10, "at least 0"),
    ("bezique", "carte_blanche", "50", "whole number"),
    ("bezique", "target", 0, "at least 1"),
    ("bezique", "target", "1000", "whole number"),
    ("bezique", "target", 1500.0, "whole number"),
    ("bezique", "target", None, "whole number"),
    ("bezique", "tie_rule", "coin_flip", "'draw', 'play_on', 'raise_target'"),
    ("bezique", "lurch_threshold", -1, "at least 0"),
    ("bezique-match", "match_lead", 0, "at least 1"),
    ("bezique-match", "match_lead", "400", "whole number"),
    ("bezique-match", "quartet_rule", "any ", "'any', 'one_per_suit'"),
    ("bezique-match", "seven_methods", "both_ways", "'both', 'exchange_only', 'score_only'"),
    ("bezique-match", "no_meld_when_exchanging", 0, "True or False"),
    ("bezique-match", "exchange_card_usable_same_trick", "False", "True or False"),
]


@pytest.mark.parametrize(("preset", "option", "value", "allowed"), BAD_VALUES)
def test_bad_option_value_names_option_value_and_what_is_allowed(
    preset: str, option: str, value: object, allowed: str
) -> None:
    """A bad option value: OptionError (a ValueError) naming the option, the value and what is allowed."""
    options: dict[str, Any] = {option: value}
    calls: list[Callable[[], object]] = [
        lambda: get_rules(preset, **options),
        lambda: new_deal(preset, seed=1, **options),
        lambda: new_game(preset, seed=1, **options),
    ]
    for call in calls:
        with pytest.raises(OptionError) as info:
            call()
        exc = info.value
        assert isinstance(exc, ValueError)
        message = str(exc)
        assert repr(option) in message
        assert repr(value) in message
        assert allowed in message
        assert_clean(exc)


def test_with_options_refusal_leaves_the_rule_set_unchanged() -> None:
    """RuleSet.with_options with a bad value raises OptionError; the rule set keeps its options."""
    rules = get_rules("bezique", target=1500)
    before = dict(rules.options)
    with pytest.raises(OptionError):
        rules.with_options(target=-1)
    with pytest.raises(OptionError):
        rules.with_options(quartet_rule="one_per_suit", nonsense=True)
    assert dict(rules.options) == before
    assert rules == get_rules("bezique", target=1500)


@attrs.frozen
class _TwoOptions:
    """An options record for `read_options`."""

    target: int
    tie_rule: str


def test_read_options_reads_each_field_by_name_or_from_the_fixed_values() -> None:
    """read_options: each field of the record from the option of its name, or from the values a
    profile fixes for options the preset does not offer; a preset and profile that disagree (an
    option both offered and fixed, or neither) is an OptionError naming the options."""
    assert read_options(_TwoOptions, {"target": 700, "tie_rule": "draw", "other": 1}, ()) == _TwoOptions(700, "draw")
    assert read_options(_TwoOptions, {"target": 700}, (("tie_rule", "play_on"),)) == _TwoOptions(700, "play_on")
    with pytest.raises(OptionError, match=r"both offered and fixed \['target'\]"):
        read_options(_TwoOptions, {"target": 700, "tie_rule": "draw"}, (("target", 1),))
    with pytest.raises(OptionError, match=r"neither \['tie_rule'\]"):
        read_options(_TwoOptions, {"target": 700}, ())


# -- stacked decks ------------------------------------------------------------------------


def with_changes(changes: dict[int, str]) -> list[str]:
    """The valid deck with some positions replaced."""
    deck = list(FULL_DECK)
    for i, card in changes.items():
        deck[i] = card
    return deck


DECK_CASES: list[tuple[str, list[Any], list[str]]] = [
    ("one card missing", FULL_DECK[:-1], ["missing 7C"]),
    ("two cards missing", FULL_DECK[2:], ["missing AS TS"]),
    ("one extra card", [*FULL_DECK, "QS"], ["extra QS"]),
    ("a third queen of spades", with_changes({63: "QS"}), ["missing 7C", "extra QS"]),
    ("a third copy twice", with_changes({62: "AS", 63: "AS"}), ["missing 8C 7C", "extra AS AS"]),
    ("a six (not in the deck)", with_changes({0: "6S"}), ["missing AS", "extra 6S"]),
    ("a joker", with_changes({5: "JK"}), ["missing 9S", "extra JK"]),
    ("too short", FULL_DECK[:10], ["missing", "QH"]),
    ("empty", [], ["missing AS AS"]),
]


@pytest.mark.parametrize(("deck", "fragments"), [(d, f) for _, d, f in DECK_CASES], ids=[n for n, _, _ in DECK_CASES])
def test_stacked_deck_not_the_variants_deck(deck: list[str], fragments: list[str]) -> None:
    """A stacked deck that is not a permutation of the 64 cards: DealError saying what is missing or extra."""
    with pytest.raises(DealError) as info:
        new_deal("bezique", deck=deck)
    exc = info.value
    assert isinstance(exc, ValueError)
    message = str(exc)
    assert "64-card deck" in message
    for fragment in fragments:
        assert fragment in message
    assert_clean(exc)
    with pytest.raises(DealError):
        new_game("bezique", seed=1, decks=[deck])


@pytest.mark.parametrize("token", ["XX", "10", "QSS", "", 5, None])
def test_stacked_deck_with_a_non_card(token: object) -> None:
    """A stacked deck holding something that is not a card: DealError quoting it."""
    deck: list[Any] = with_changes({7: "AS"})
    deck[7] = token
    with pytest.raises(DealError) as info:
        new_deal("bezique", deck=deck)
    message = str(info.value)
    assert "not a card" in message
    assert repr(token) in message
    assert_clean(info.value)


def test_stacked_deck_accepts_any_spelling_and_text() -> None:
    """A stacked deck may use any card spelling, or be one string; it deals the same cards."""
    spelled = [c.lower() if i % 3 == 0 else c for i, c in enumerate(FULL_DECK)]
    plain = new_deal("bezique", deck=FULL_DECK)
    assert new_deal("bezique", deck=spelled) == plain
    assert new_deal("bezique", deck=" ".join(FULL_DECK)) == plain
    assert new_deal("bezique", deck=parse_cards(FULL_DECK)) == plain


def test_stacked_deck_as_a_generator() -> None:
    """A stacked deck given as a generator is dealt like the same list (or refused saying why)."""
    try:
        deal = new_deal("bezique", deck=(c for c in FULL_DECK))  # type: ignore[arg-type]
    except DealError as exc:
        assert "missing" not in str(exc)
    else:
        assert deal == new_deal("bezique", deck=FULL_DECK)


@pytest.mark.parametrize("deck", [5, 3.5])
def test_stacked_deck_that_is_not_a_sequence(deck: object) -> None:
    """A stacked deck that is not a sequence of cards: DealError, not a TypeError from inside."""
    with pytest.raises(DealError):
        new_deal("bezique", deck=deck)  # type: ignore[arg-type]


# -- dealer and seed ----------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [2, -1, 10, "1", 1.0, True, [0]])
def test_bad_dealer(dealer: object) -> None:
    """A dealer that is not a seat 0 or 1: DealError naming the value and the seats."""
    for call in (
        lambda: new_deal("bezique", seed=1, dealer=dealer),  # type: ignore[arg-type]
        lambda: new_game("bezique", seed=1, dealer=dealer),  # type: ignore[arg-type]
        lambda: new_deal("bezique", deck=FULL_DECK, dealer=dealer),  # type: ignore[arg-type]
    ):
        with pytest.raises(DealError) as info:
            call()
        message = str(info.value)
        assert "dealer" in message
        assert "0 to 1" in message
        assert repr(dealer) in message


def test_seed_and_deck_both() -> None:
    """A seed and a stacked deck together: DealError saying to give one or the other."""
    with pytest.raises(DealError) as info:
        new_deal("bezique", seed=1, deck=FULL_DECK)
    assert "either a seed or a stacked deck" in str(info.value)


@pytest.mark.parametrize("seed", ["7", 7.0, True, [7]])
def test_bad_seed(seed: object) -> None:
    """A seed that is not a whole number: DealError quoting it (deal and game)."""
    for call in (
        lambda: new_deal("bezique", seed=seed),  # type: ignore[arg-type]
        lambda: new_game("bezique", seed=seed),  # type: ignore[arg-type]
    ):
        with pytest.raises(DealError) as info:
            call()
        assert "whole number" in str(info.value)
        assert repr(seed) in str(info.value)


@pytest.mark.parametrize("max_deals", [0, -3, True, "2", 1.5])
def test_bad_max_deals(max_deals: object) -> None:
    """new_game: a max_deals that is not a whole number >= 1 is a DealError quoting it."""
    with pytest.raises(DealError) as info:
        new_game("bezique", seed=1, max_deals=max_deals)  # type: ignore[arg-type]
    assert repr(max_deals) in str(info.value)


@pytest.mark.parametrize("decks", [5, [5], [None]])
def test_bad_decks_for_a_game(decks: object) -> None:
    """new_game: decks that are not a list of card lists: DealError, not a TypeError from inside."""
    with pytest.raises(DealError):
        new_game("bezique", seed=1, decks=decks)  # type: ignore[arg-type]


# -- notation -------------------------------------------------------------------------------


NOTATION_CASES = [
    ("", "empty"),
    ("   ", "empty"),
    ("fly QS", "unknown verb 'fly'"),
    ("play", "needs a card"),
    ("play QS JD", "expected 1 argument"),
    ("play ZZ", "not a card"),
    ("play Q", "not a card"),
    ("play AH**", "not a card"),
    ("play *", "not a card"),
    ("meld", "needs a meld name"),
    ("meld bezique QS XD", "not a card"),
    ("pass now", "expected 0 arguments"),
    ("exchange", "needs a card"),
    ("declare 7H 7S", "expected 1 argument"),
    ("bid ten", "whole number"),
    ("trump", "expected 1 argument"),
    ("call X", "not a suit"),
]


@pytest.mark.parametrize(("text", "fragment"), NOTATION_CASES)
def test_unparsable_notation(text: str, fragment: str) -> None:
    """Text that does not parse: NotationError (a ValueError) saying why and quoting the text; state unchanged."""
    state = new_deal("bezique", seed=1)
    twin = twin_of(state)
    for call in (state.apply, state.check, state.parse_action):
        with pytest.raises(NotationError) as info:
            call(text)
        exc = info.value
        assert isinstance(exc, ValueError)
        assert fragment in str(exc)
        if text.strip():
            assert repr(text) in str(exc)
        assert_clean(exc)
    assert state.is_legal(text) is False
    assert_unchanged(state, twin)


# -- illegal actions --------------------------------------------------------------------------


def seed_1_deal() -> DealState:
    """new_deal("bezique", seed=1): player 0 holds AH KH JH JD 8D KC JC 9C; hearts are trumps."""
    return new_deal("bezique", seed=1)


def declare_phase() -> DealState:
    """Player 0 wins trick 1 (AH over 7S, clubs trumps) and may declare: bezique, marriage, the trump seven."""
    deal = new_deal("bezique", deck=stacked("QS JD AH KH QH 7C 9S 8S", "7S 7D 7H 8H 9C 8C TD TS", "KC", "9D 8D"))
    deal = deal.apply("play AH").apply("play 7S")
    assert deal.phase is Phase.DECLARE
    return deal


def after_one_meld() -> DealState:
    """The declare phase above after "meld bezique QS JD": one meld declared, the trump seven still open."""
    deal = declare_phase().apply("meld bezique QS JD")
    assert deal.phase is Phase.DECLARE
    return deal


def queen_on_the_table() -> DealState:
    """After the bezique was declared and the seven scored: QS and JD lie on the table; player 0 leads."""
    deal = after_one_meld().apply("declare 7C")
    assert deal.phase is Phase.PLAY
    assert deal.current_player == 0
    return deal


ILLEGAL_CASES: list[tuple[str, Callable[[], DealState], str, RuleCode, str]] = [
    ("card not held", seed_1_deal, "play AS", RuleCode.CARD_NOT_HELD, "you hold no such card"),
    ("tabled copy not held", seed_1_deal, "play AH*", RuleCode.CARD_NOT_HELD, "on the table"),
    ("pass while playing", seed_1_deal, "pass", RuleCode.WRONG_PHASE, "nothing to pass"),
    ("meld before a trick", seed_1_deal, "meld royal-marriage KH QH", RuleCode.NO_DECLARATION_NOW, "trick winner"),
    ("exchange before a trick", seed_1_deal, "exchange 7H", RuleCode.NO_DECLARATION_NOW, "trick winner"),
    ("declare before a trick", seed_1_deal, "declare 7H", RuleCode.NO_DECLARATION_NOW, "trick winner"),
    ("play while declaring", declare_phase, "play 9S", RuleCode.WRONG_PHASE, "declare or pass"),
    ("marriage not trumps", declare_phase, "meld royal-marriage KH QH", RuleCode.NOT_A_MELD, "royal-marriage"),
    ("common in trumps", declare_phase, "meld common-marriage KC QC", RuleCode.NOT_A_MELD, "common-marriage"),
    ("meld not held", declare_phase, "meld four-aces AS AH AD AC", RuleCode.CARD_NOT_HELD, "do not hold"),
    ("star not on table", declare_phase, "meld bezique QS* JD", RuleCode.CARD_NOT_HELD, "do not hold"),
    ("seven of a plain suit", declare_phase, "declare 7H", RuleCode.SEVEN_NOT_ALLOWED, "seven of trumps"),
    ("second meld", after_one_meld, "meld common-marriage KH QH", RuleCode.MELD_LIMIT, "1 meld per trick"),
    ("hand copy on table", queen_on_the_table, "play QS", RuleCode.CARD_NOT_HELD, "concealed hand"),
    ("meld while playing", queen_on_the_table, "meld common-marriage KH QH", RuleCode.NO_DECLARATION_NOW, "winner"),
    ("deal over: play", finished_deal, "play AS", RuleCode.GAME_OVER, "the deal is over"),
    ("deal over: pass", finished_deal, "pass", RuleCode.GAME_OVER, "the deal is over"),
]


@pytest.mark.parametrize(
    ("make", "text", "rule", "fragment"),
    [c[1:] for c in ILLEGAL_CASES],
    ids=[c[0] for c in ILLEGAL_CASES],
)
def test_illegal_action_names_the_rule_and_changes_nothing(
    make: Callable[[], DealState], text: str, rule: RuleCode, fragment: str
) -> None:
    """An illegal action: IllegalActionError with rule, player, phase, action and a message quoting it; no change."""
    state = make()
    twin = twin_of(state)
    action = Action.parse(text)
    action_id = state.rules.action_id(action)
    for attempt in (text, action, action_id):
        for call in (state.apply, state.check):
            with pytest.raises(IllegalActionError) as info:
                call(attempt)
            exc = info.value
            assert isinstance(exc, ValueError)
            assert exc.rule is rule
            assert exc.player == state.current_player
            assert exc.phase is state.phase
            assert exc.action == action
            assert fragment in str(exc)
            assert repr(str(action)) in str(exc)
            assert_clean(exc)
        assert state.is_legal(attempt) is False
    assert action not in state.legal_actions()
    assert_unchanged(state, twin)


def test_illegal_after_the_deal_is_over_every_action() -> None:
    """Once the deal is over every action is GAME_OVER, player None, phase OVER; nothing is legal."""
    state = finished_deal(seed=11)
    assert state.is_over
    assert state.legal_actions() == ()
    assert not any(state.legal_action_mask())
    for action in state.rules.action_space.actions[::23]:
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert info.value.rule is RuleCode.GAME_OVER
        assert info.value.player is None
        assert info.value.phase is Phase.OVER


def test_game_over_refuses_with_game_over() -> None:
    """A finished game refuses any action with GAME_OVER and keeps its result."""
    game = new_game("bezique-match", seed=2)
    rng = random.Random(2)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    scores, winner = game.scores, game.winner
    for text in ("play AS", "pass"):
        with pytest.raises(IllegalActionError) as info:
            game.apply(text)
        assert info.value.rule is RuleCode.GAME_OVER
        assert info.value.player is None
        with pytest.raises(IllegalActionError):
            game.check(text)
        assert game.is_legal(text) is False
    assert game.scores == scores
    assert game.winner == winner
    assert game.legal_actions() == ()


def test_game_over_error_carries_phase_and_quotes_the_action() -> None:
    """A finished game's GAME_OVER error has phase OVER and quotes the action like a deal's."""
    game = new_game("bezique-match", seed=2)
    rng = random.Random(2)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    with pytest.raises(IllegalActionError) as info:
        game.apply("play AS")
    assert info.value.phase is Phase.OVER
    assert "'play AS'" in str(info.value)


@pytest.mark.parametrize(
    "text",
    ["bid 250", "trump H", "give AS TS KS QS", "discard 9C", "order-up", "call H alone", "throw-in",
     "play 6S", "play JK", "meld bezique QS", "meld flush AH TH KH QH JH", "meld carte-blanche"],
)  # fmt: skip
def test_action_not_of_this_variant(text: str) -> None:
    """An action of another variant (or no meld of this one): IllegalActionError NOT_AN_ACTION; state unchanged."""
    state = seed_1_deal()
    twin = twin_of(state)
    for call in (state.apply, state.check):
        with pytest.raises(IllegalActionError) as info:
            call(text)
        exc = info.value
        assert exc.rule is RuleCode.NOT_AN_ACTION
        assert exc.player == 0
        assert exc.phase is Phase.PLAY
        assert "not an action of 'bezique'" in str(exc)
        assert repr(str(Action.parse(text))) in str(exc)
    with pytest.raises(IllegalActionError) as info:
        state.parse_action(text)
    assert info.value.rule is RuleCode.NOT_AN_ACTION
    with pytest.raises(IllegalActionError):
        state.rules.action_id(text)
    assert state.is_legal(text) is False
    assert_unchanged(state, twin)


@pytest.mark.parametrize("action_id", [-1, 1102, 10**6])
def test_action_id_out_of_range(action_id: int) -> None:
    """An action id outside 0..num_actions-1: IllegalActionError NOT_AN_ACTION naming the id and the range."""
    state = seed_1_deal()
    twin = twin_of(state)
    assert state.rules.num_actions == 1102
    for call in (state.apply, state.check, state.rules.action_from_id):
        with pytest.raises(IllegalActionError) as info:
            call(action_id)
        assert info.value.rule is RuleCode.NOT_AN_ACTION
        assert repr(action_id) in str(info.value)
        assert "0 to 1101" in str(info.value)
    assert state.is_legal(action_id) is False
    assert_unchanged(state, twin)


@pytest.mark.parametrize("thing", [None, 3.5, True, b"play AH", ("play", "AH")])
def test_not_an_action_object(thing: object) -> None:
    """Something that is neither an action, its text nor an id: IllegalActionError NOT_AN_ACTION; state unchanged."""
    state = seed_1_deal()
    twin = twin_of(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(thing)  # type: ignore[arg-type]
    assert info.value.rule is RuleCode.NOT_AN_ACTION
    assert repr(thing) in str(info.value)
    assert state.is_legal(thing) is False  # type: ignore[arg-type]
    assert_unchanged(state, twin)


@pytest.mark.parametrize(
    "attempt",
    [
        pytest.param(lambda s: s.apply(1102), id="apply id 1102"),
        pytest.param(lambda s: s.apply(-1), id="apply id -1"),
        pytest.param(lambda s: s.apply(None), id="apply None"),
        pytest.param(lambda s: s.parse_action("bid 250"), id="parse_action bid"),
    ],
)
def test_not_an_action_error_names_player_and_phase(attempt: Callable[[DealState], object]) -> None:
    """Every IllegalActionError from a state names the player to act and the phase."""
    state = seed_1_deal()
    with pytest.raises(IllegalActionError) as info:
        attempt(state)
    assert info.value.player == 0
    assert info.value.phase is Phase.PLAY


def _power(card: str) -> int:
    return -RANKS.index(card[0])


def _expected_refusal(hand: list[str], led: str, trump: str, card: str) -> RuleCode | None:
    """Reference §1.4a (the play-off duty of §2.3), written out: follow and beat if able; void: trump if able."""
    suit = led[1]
    follow = [c for c in hand if c[1] == suit]
    if follow:
        if card[1] != suit:
            return RuleCode.MUST_FOLLOW_SUIT
        higher = [c for c in follow if _power(c) > _power(led)]
        if higher and _power(card) <= _power(led):
            return RuleCode.MUST_BEAT
        return None
    trumps = [c for c in hand if c[1] == trump]
    if trumps and card[1] != trump:
        return RuleCode.MUST_TRUMP
    return None


def test_playoff_duties_refused_with_their_rule() -> None:
    """Play-off duties: each refused card names MUST_FOLLOW_SUIT, MUST_BEAT or MUST_TRUMP as reference §2.3 says."""
    seen: set[RuleCode] = set()
    for seed in range(12):
        for state in random_play(new_deal("bezique", seed=seed), random.Random(seed)):
            if state.phase is not Phase.PLAYOFF or len(state.view(0).trick) != 1:
                continue
            player = state.current_player
            assert player is not None
            view = state.view(player)
            hand = [str(c) for c in view.hand]
            led = str(view.trick[0])
            assert view.trump is not None
            trump = view.trump.code
            legal = {str(a.cards[0]) for a in state.legal_actions()}
            assert all(a.verb is Verb.PLAY and a.tabled == (False,) for a in state.legal_actions())
            for card in set(hand):
                expected = _expected_refusal(hand, led, trump, card)
                assert (card in legal) == (expected is None), (hand, led, trump, card)
                if expected is None:
                    continue
                with pytest.raises(IllegalActionError) as info:
                    state.apply(f"play {card}")
                assert info.value.rule is expected
                assert info.value.player == player
                assert info.value.phase is Phase.PLAYOFF
                assert f"'play {card}'" in str(info.value)
                seen.add(expected)
            with pytest.raises(IllegalActionError) as info:
                state.apply("meld bezique QS JD")
            assert info.value.rule is RuleCode.NO_DECLARATION_NOW
    assert seen == {RuleCode.MUST_FOLLOW_SUIT, RuleCode.MUST_BEAT, RuleCode.MUST_TRUMP}


def test_every_refused_action_id_is_explained() -> None:
    """Across a deal every illegal action id is refused with a real rule, the player, the phase and the action."""
    rng = random.Random(5)
    states = list(random_play(new_deal("bezique", seed=5), rng))
    rules = states[0].rules
    actions = rules.action_space.actions
    ids = [i for i, a in enumerate(actions) if a.verb is not Verb.MELD] + [
        i for i, a in enumerate(actions) if a.verb is Verb.MELD
    ][::29]
    codes: set[RuleCode] = set()
    for state in states[::3] + [states[-1]]:
        legal = set(state.legal_action_ids())
        for i in ids:
            if i in legal:
                continue
            with pytest.raises(IllegalActionError) as info:
                state.apply(i)
            exc = info.value
            assert exc.rule is not RuleCode.NOT_AN_ACTION
            assert exc.player == state.current_player
            assert exc.phase is state.phase
            assert repr(str(actions[i])) in str(exc)
            codes.add(exc.rule)
    assert {RuleCode.CARD_NOT_HELD, RuleCode.WRONG_PHASE, RuleCode.NO_DECLARATION_NOW, RuleCode.GAME_OVER} <= codes


# -- other bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("player", [2, -1])
def test_view_of_a_bad_seat(player: int) -> None:
    """view() of a seat that does not exist: an error of the library's hierarchy naming the seat."""
    with pytest.raises(BeziqueRulesError) as info:
        seed_1_deal().view(player)
    assert repr(player) in str(info.value)


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: Suit.parse(None), id="Suit.parse(None)"),  # type: ignore[arg-type]
        pytest.param(lambda: Rank.parse(5), id="Rank.parse(5)"),  # type: ignore[arg-type]
        pytest.param(lambda: parse_cards(None), id="parse_cards(None)"),  # type: ignore[arg-type]
    ],
)
def test_parsers_refuse_non_text_with_notation_error(call: Callable[[], object]) -> None:
    """Every parser answers non-text with NotationError, as Card.parse and Action.parse do."""
    with pytest.raises(NotationError):
        call()


def test_card_and_action_parse_refuse_non_text() -> None:
    """Card.parse and Action.parse of non-text: NotationError quoting the value."""
    for value in (None, 5):
        with pytest.raises(NotationError) as info:
            Action.parse(value)  # type: ignore[arg-type]
        assert repr(value) in str(info.value)
    with pytest.raises(NotationError) as card_info:
        Card.parse(None)  # type: ignore[arg-type]
    assert "None" in str(card_info.value)


@pytest.fixture
def private_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register variants into copies of the registry, so a test cannot disturb the others."""
    monkeypatch.setattr(registry, "_PRESETS", dict(registry._PRESETS))
    monkeypatch.setattr(registry, "_ALIASES", dict(registry._ALIASES))
    monkeypatch.setattr(registry, "_BUILT", dict(registry._BUILT))


@pytest.mark.usefixtures("private_registry")
@pytest.mark.parametrize("name", ["", 5, None])
def test_register_variant_bad_name(name: object) -> None:
    """register_variant with a name that is not non-empty text: OptionError quoting it."""
    with pytest.raises(OptionError) as info:
        register_variant(name, get_rules("bezique"))  # type: ignore[arg-type]
    assert repr(name) in str(info.value)


@pytest.mark.usefixtures("private_registry")
def test_register_variant_alias_taken() -> None:
    """register_variant under a taken alias: OptionError; the alias still finds its preset."""
    with pytest.raises(OptionError) as info:
        register_variant("two-hand-bezique", get_rules("bezique", target=1500))
    assert "'two-hand-bezique'" in str(info.value)
    assert get_rules("two-hand-bezique").options["target"] == 1000


@pytest.mark.usefixtures("private_registry")
@pytest.mark.parametrize("name", ["bezique", "bezique-match"])
def test_register_variant_cannot_replace_a_preset(name: str) -> None:
    """register_variant under a built-in preset's name: OptionError; the preset keeps its defaults."""
    with pytest.raises(OptionError):
        register_variant(name, get_rules("bezique", target=1500))
    assert get_rules(name).options.get("target", 1000) == 1000


@pytest.mark.usefixtures("private_registry")
def test_register_presets_registers_each_and_checks_every_rule_set_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """register_presets: every preset of the family is found by name and alias, and the family's
    check runs on each rule set their builders build (refusing one with an OptionError)."""
    monkeypatch.setattr(registry, "_CHECKS", dict(registry._CHECKS))
    checked: list[str] = []

    def build(name: str, values: Mapping[str, Any]) -> RuleSet:
        return attrs.evolve(get_rules("bezique", target=values["target"]), name=name, builder=build)

    def check(rules: RuleSet) -> None:
        checked.append(rules.name)
        if rules.options["target"] == 13:
            raise OptionError(f"{rules.name!r}: target 13 is unlucky")

    target = (OptionSpec("target", 1000, minimum=1),)
    registry.register_presets(
        registry.Preset("family-one-test", build, target, aliases=("family-alias-test",)),
        registry.Preset("family-two-test", build, target),
        check=check,
    )
    assert get_rules("family-alias-test", target=700).name == "family-one-test"
    assert get_rules("family-two-test").options["target"] == 1000
    assert checked == ["family-one-test", "family-two-test"]
    with pytest.raises(OptionError, match="unlucky"):
        get_rules("family-two-test", target=13)
