"""Unit tests for the shared parts: cards and their codes, card sets, action notation,
the deck and its documented shuffle, trump orders, play duties and card points."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bezique_rules import (
    BRISQUES,
    JOKER,
    Action,
    BeatRule,
    Card,
    CardPoints,
    CardSet,
    DeckSpec,
    NotationError,
    PlayDuty,
    Rank,
    RuleCode,
    ScoreBreakdown,
    Suit,
    TrickPolicy,
    TrumpOrder,
    TrumpTable,
    Verb,
    get_rules,
    new_deal,
    parse_cards,
    shuffle,
)
from bezique_rules.cards import cards_without
from bezique_rules.deck import seeded_order
from bezique_rules.parts.trumps import NO_TRUMP

BEZIQUE_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
PIQUET = DeckSpec(ranks=BEZIQUE_RANKS, packs=2)
EUCHRE = DeckSpec(ranks=(Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE))
PINOCHLE = DeckSpec(ranks=(Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE), packs=2)


# -- Suit and Rank ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("suit", "code", "symbol"),
    [
        (Suit.SPADES, "S", "♠"),
        (Suit.HEARTS, "H", "♥"),
        (Suit.DIAMONDS, "D", "♦"),
        (Suit.CLUBS, "C", "♣"),
    ],
)
def test_suit_codes_symbols_and_lower_case_parse(suit: Suit, code: str, symbol: str) -> None:
    """Suit: code S H D C, symbol ♠ ♥ ♦ ♣, parse accepts code, lower case and symbol; str is the code."""
    assert suit.code == code
    assert suit.symbol == symbol
    assert str(suit) == code
    assert Suit.parse(code) is suit
    assert Suit.parse(code.lower()) is suit
    assert Suit.parse(symbol) is suit
    assert Suit.parse(f" {code} ") is suit


def test_suit_colours() -> None:
    """Suit: hearts and diamonds are red; the same-colour partner of each suit (for bowers)."""
    assert [s.is_red for s in Suit] == [False, True, True, False]
    assert Suit.SPADES.same_colour is Suit.CLUBS
    assert Suit.CLUBS.same_colour is Suit.SPADES
    assert Suit.HEARTS.same_colour is Suit.DIAMONDS
    assert Suit.DIAMONDS.same_colour is Suit.HEARTS


@pytest.mark.parametrize("text", ["", "X", "SH", "10", "spades"])
def test_suit_parse_rejects_non_suits(text: str) -> None:
    """Suit.parse: anything but one code or symbol is a NotationError quoting the text."""
    with pytest.raises(NotationError) as info:
        Suit.parse(text)
    assert repr(text) in str(info.value)


def test_rank_codes_ten_as_10_and_lower_case() -> None:
    """Rank: codes A T K Q J 9 8 7; parse accepts lower case and 10 for the ten; str is the code."""
    bezique = "ATKQJ987"
    assert "".join(r.code for r in BEZIQUE_RANKS) == bezique
    for rank, code in zip(BEZIQUE_RANKS, bezique):
        assert Rank.parse(code) is rank
        assert Rank.parse(code.lower()) is rank
        assert str(rank) == code
    assert Rank.parse("10") is Rank.TEN
    assert [r.is_court for r in BEZIQUE_RANKS] == [False, False, True, True, True, False, False, False]


@pytest.mark.parametrize("text", ["", "1", "JK", "joker", "11", "AA"])
def test_rank_parse_rejects_non_ranks(text: str) -> None:
    """Rank.parse: anything but one rank code (or 10) is a NotationError quoting the text."""
    with pytest.raises(NotationError) as info:
        Rank.parse(text)
    assert repr(text) in str(info.value)


# -- Card ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["QS", "Q♠", "qs", "q♠", " QS ", "Qs", "qS"])
def test_card_parse_forms_of_the_queen_of_spades(text: str) -> None:
    """Card.parse: code, symbol, any case and surrounding spaces all give the same card."""
    card = Card.parse(text)
    assert card == Card(Suit.SPADES, Rank.QUEEN)
    assert str(card) == "QS"


@pytest.mark.parametrize("text", ["10H", "10h", "10♥", "TH", "th", "T♥"])
def test_card_parse_ten_written_as_10(text: str) -> None:
    """Card.parse: the ten is T or 10, with a code or a symbol; it prints as TH."""
    assert Card.parse(text) == Card(Suit.HEARTS, Rank.TEN)
    assert str(Card.parse(text)) == "TH"


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", " JK "])
def test_card_parse_joker(text: str) -> None:
    """Card.parse: JK is the joker, which has no suit and prints as JK."""
    card = Card.parse(text)
    assert card == JOKER
    assert card.suit is None
    assert card.rank is Rank.JOKER
    assert str(card) == "JK"


def test_card_str_round_trip_for_every_face() -> None:
    """Card: str then parse is the identity for every suited card, via code and via symbol."""
    for suit in Suit:
        for rank in Rank:
            if rank is Rank.JOKER:
                continue
            card = Card(suit, rank)
            assert str(card) == rank.code + suit.code
            assert Card.parse(str(card)) == card
            assert Card.parse(rank.code + suit.symbol) == card
            assert Card.parse(str(card).lower()) == card
            assert repr(card) == f"Card({str(card)!r})"
    assert Card.parse(str(JOKER)) == JOKER


def test_card_is_a_hashable_value_identical_cards_equal() -> None:
    """Card: a frozen value; identical cards (any copy, any spelling) are equal and hash alike."""
    a, b = Card.parse("QS"), Card(Suit.SPADES, Rank.QUEEN)
    assert a == b
    assert hash(a) == hash(b)
    assert len({Card.parse("QS"), Card.parse("q♠"), Card.parse("JD")}) == 2
    with pytest.raises(AttributeError):
        a.rank = Rank.KING  # type: ignore[misc]


def test_card_sort_order_suits_then_ranks_joker_last() -> None:
    """Card: display order is suits S H D C, then ranks A T K Q J 9 8 7, the joker last."""
    shuffled = parse_cards("7C JK AS TH 9S KS AH QD")
    assert [str(c) for c in sorted(shuffled)] == ["AS", "KS", "9S", "AH", "TH", "QD", "7C", "JK"]


@pytest.mark.parametrize("text", ["", "Q", "QSS", "1H", "KX", "SQ", "JKS", "S"])
def test_card_parse_rejects_non_cards(text: str) -> None:
    """Card.parse: text that is not rank-then-suit is a NotationError quoting the text."""
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


def test_card_without_suit_must_be_the_joker() -> None:
    """Card: only the joker lacks a suit, and the joker has none (NotationError otherwise)."""
    with pytest.raises(NotationError):
        Card(Suit.SPADES, Rank.JOKER)
    with pytest.raises(NotationError):
        Card(None, Rank.ACE)


# -- parse_cards and CardSet ------------------------------------------------------------


@pytest.mark.parametrize("text", ["QS JD 10H", "QS,JD,10H", " qs  jd , th ", "Q♠ J♦ T♥"])
def test_parse_cards_separators_and_spellings(text: str) -> None:
    """parse_cards: spaces or commas separate; any spelling of a card is accepted, order kept."""
    assert parse_cards(text) == (Card.parse("QS"), Card.parse("JD"), Card.parse("TH"))


def test_parse_cards_from_iterables_and_empty() -> None:
    """parse_cards: an iterable of codes and cards works; empty text gives no cards."""
    assert parse_cards(["QS", Card.parse("JD")]) == (Card.parse("QS"), Card.parse("JD"))
    assert parse_cards("") == ()
    with pytest.raises(NotationError) as info:
        parse_cards("QS XX")
    assert "'XX'" in str(info.value)


def test_cardset_is_a_sorted_multiset() -> None:
    """CardSet: cards kept in display order, copies counted, equal whatever the input order."""
    hand = CardSet.of("KS QS AS QS 7C")
    assert str(hand) == "AS KS QS QS 7C"
    assert len(hand) == 5
    assert hand.count(Card.parse("QS")) == 2
    assert hand.count(Card.parse("JD")) == 0
    assert Card.parse("7C") in hand
    assert Card.parse("7D") not in hand
    assert hand == CardSet.of(["7C", "QS", "QS", "AS", "KS"])
    assert hand != CardSet.of("AS KS QS 7C")
    assert list(hand) == list(parse_cards("AS KS QS QS 7C"))
    assert not CardSet.of("")
    assert bool(hand)
    assert repr(hand) == "CardSet('AS KS QS QS 7C')"


def test_cards_without_takes_away_one_copy_per_card_removed() -> None:
    """`cards_without` is a multiset difference: each removed card takes away one equal copy,
    cards not held are ignored, the order of the first argument is kept."""
    hand = CardSet.of("AS KS QS QS 7C")
    assert cards_without(hand, parse_cards("QS 7C JD")) == list(parse_cards("AS KS QS"))
    assert cards_without(hand, parse_cards("QS QS QS")) == list(parse_cards("AS KS 7C"))
    assert cards_without(parse_cards("7C QS AS"), ()) == list(parse_cards("7C QS AS"))
    assert cards_without((), hand) == []


# -- Action notation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("play QS", "play QS"),
        ("PLAY qs", "play QS"),
        ("  play\tQ♠  ", "play QS"),
        ("Play 10s", "play TS"),
        ("play qs*", "play QS*"),
        ("MELD  Royal-Marriage qh kh", "meld royal-marriage KH QH"),
        ("meld BEZIQUE jd qs", "meld bezique QS JD"),
        ("exchange 7h", "exchange 7H"),
        ("Declare 7H", "declare 7H"),
        ("PASS", "pass"),
        (" pass \n", "pass"),
        ("bid 0250", "bid 250"),
        ("trump h", "trump H"),
        ("give ks as ts qs", "give AS TS KS QS"),
        ("discard 9c", "discard 9C"),
        ("Order-Up  ALONE", "order-up alone"),
        ("order-up", "order-up"),
        ("call h alone", "call H alone"),
        ("call ♦", "call D"),
        ("throw-in", "throw-in"),
    ],
)
def test_action_parse_forgives_case_and_whitespace(text: str, canonical: str) -> None:
    """Action.parse: case, spacing and card spelling are free; str() is the canonical notation."""
    action = Action.parse(text)
    assert str(action) == canonical
    assert Action.parse(canonical) == action
    assert repr(action) == f"Action({canonical!r})"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("plays QS", "unknown verb 'plays'"),
        ("play QS QS", "expected 1 argument"),
        ("play Q S", "expected 1 argument"),
        ("play", "needs a card"),
        ("play QZ", "not a card"),
        ("pass QS", "expected 0 arguments"),
        ("meld", "needs a meld name"),
        ("bid ten", "whole number"),
        ("trump X", "not a suit"),
        ("order-up now", "'alone'"),
        ("exchange 7H 7S", "expected 1 argument"),
    ],
)
def test_action_parse_is_not_forgiving_of_meaning(text: str, fragment: str) -> None:
    """Action.parse: text that names no action is a NotationError saying why."""
    with pytest.raises(NotationError) as info:
        Action.parse(text)
    assert fragment in str(info.value)


def test_action_card_order_is_not_meaning_but_the_star_is() -> None:
    """Action: cards in any order name the same meld; a `*` (the tabled copy) changes the action."""
    assert Action.parse("meld bezique JD QS") == Action.parse("meld bezique QS JD")
    assert Action.parse("meld bezique QS JD*") != Action.parse("meld bezique QS JD")
    assert Action.parse("play QS*") != Action.parse("play QS")
    assert Action.parse("play QS*").tabled == (True,)
    assert Action.parse("play QS").tabled == (False,)
    assert str(Action.parse("play QS*")) == "play QS*"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("meld double-bezique JD* QS JD QS*", "meld double-bezique QS QS* JD JD*"),
        ("meld sequence jh qh* kh* th ah", "meld sequence AH TH KH* QH* JH"),
        ("meld four-kings kc kd kh ks", "meld four-kings KS KH KD KC"),
        ("meld four-aces AC* AS AS* AD", "meld four-aces AS AS* AD AC*"),
        ("meld common-marriage QC KC*", "meld common-marriage KC* QC"),
    ],
)
def test_meld_cards_in_canonical_display_order(text: str, canonical: str) -> None:
    """Meld notation: cards in display order (S H D C, A T K Q J 9 8 7), the hand copy before the `*` copy."""
    action = Action.parse(text)
    assert action.verb is Verb.MELD
    assert str(action) == canonical
    assert Action.make(Verb.MELD, action.cards[::-1], action.tabled[::-1], meld=action.meld) == action


def test_every_bezique_action_round_trips_through_its_notation() -> None:
    """parse_action(str(a)) == a and the id is stable for every numbered action of the bezique preset."""
    rules = get_rules("bezique")
    state = new_deal(rules, seed=0)
    assert rules.num_actions == len(set(rules.action_space.actions))
    for i, action in enumerate(rules.action_space.actions):
        text = str(action)
        assert Action.parse(text) == action
        assert state.parse_action(text) == action
        assert state.parse_action(text.upper()) == action
        assert rules.action_id(text) == i
        assert rules.action_from_id(i) == action


# -- DeckSpec and the shuffle ---------------------------------------------------------


def test_deckspec_piquet_deck_faces_and_copies() -> None:
    """DeckSpec: 32 faces suit-major in trick order, two copies; physical id = copy * 32 + face."""
    assert PIQUET.size == 64
    assert PIQUET.num_faces == 32
    assert " ".join(str(c) for c in PIQUET.faces[:9]) == "AS TS KS QS JS 9S 8S 7S AH"
    assert PIQUET.card(0) == PIQUET.card(32) == Card.parse("AS")
    assert PIQUET.card(63) == Card.parse("7C")
    assert PIQUET.full_mask == (1 << 64) - 1
    assert PIQUET.cards_of(1 | 1 << 32 | 1 << 63) == parse_cards("AS AS 7C")
    assert get_rules("bezique").deck == PIQUET


def test_order_from_cards_identical_cards_take_copies_in_order() -> None:
    """DeckSpec.order_from_cards: the first of two identical cards is copy 0, the second copy 1."""
    in_id_order = [str(c) for c in PIQUET.cards]
    assert PIQUET.order_from_cards(in_id_order) == tuple(range(64))
    reversed_cards = in_id_order[::-1]
    expected = tuple(range(31, -1, -1)) + tuple(range(63, 31, -1))
    assert PIQUET.order_from_cards(reversed_cards) == expected
    mixed: list[Card | str] = [Card.parse(c) if i % 2 else c.lower() for i, c in enumerate(reversed_cards)]
    assert PIQUET.order_from_cards(mixed) == expected
    assert [str(PIQUET.card(p)) for p in PIQUET.order_from_cards(reversed_cards)] == reversed_cards


def _documented_shuffle(n: int, seed: int) -> tuple[int, ...]:
    """The algorithm as the deck module documents it, written out independently."""
    rng = random.Random(seed)
    out = list(range(n))
    for i in range(n - 1, 0, -1):
        k = (i + 1).bit_length()
        r = rng.getrandbits(k)
        while r > i:
            r = rng.getrandbits(k)
        out[i], out[r] = out[r], out[i]
    return tuple(out)


@pytest.mark.parametrize("seed", [0, 1, 7, 2024, 2**40 + 3])
def test_shuffle_follows_the_documented_algorithm(seed: int) -> None:
    """shuffle: Fisher-Yates from the top index down, getrandbits with rejection, as documented."""
    assert shuffle(range(64), random.Random(seed)) == _documented_shuffle(64, seed)
    assert shuffle(range(64), random.Random(seed)) == shuffle(list(range(64)), random.Random(seed))


@given(size=st.integers(0, 300), seed=st.integers(0, 2**80))
def test_seeded_order_is_the_documented_shuffle(size: int, seed: int) -> None:
    """seeded_order (new_deal's shuffle, seeding its generator once) gives exactly the
    documented shuffle of random.Random(seed)."""
    assert seeded_order(size, seed) == _documented_shuffle(size, seed)


def test_shuffle_fixed_permutations() -> None:
    """shuffle: pinned permutations for fixed seeds, so any change to the algorithm is caught."""
    assert shuffle(range(5), random.Random(1)) == (2, 3, 4, 0, 1)
    assert shuffle(range(10), random.Random(12345)) == (8, 7, 3, 5, 1, 2, 9, 4, 0, 6)
    assert shuffle(range(64), random.Random(2024))[:10] == (53, 51, 8, 2, 7, 30, 49, 0, 27, 18)


SEED_1_DECK = (
    "8D JH JD QS QD 9S JC KC KS TS KH AH 9C KC TC TH JH KD 8C QH 7H AH 7H 7S AC TC AS 7D TD QH 9D 9H "
    "KH KS QS 8H JD 9C 9S 8H 7C 9D AS 8S QC KD TS 7D 8S 9H AC TH 8C JC QC 7C 7S AD JS AD QD 8D JS TD"
)


def test_seeded_deal_is_pinned() -> None:
    """new_deal(seed=1): the whole deck order, both hands and the turn-up are fixed forever."""
    deal = new_deal("bezique", seed=1)
    deck = deal.rules.deck
    assert " ".join(str(deck.card(c)) for c in deal.deck_order) == SEED_1_DECK
    assert str(deal.view(0).hand) == "AH KH JH JD 8D KC JC 9C"
    assert str(deal.view(1).hand) == "TS KS QS 9S TH QD TC KC"
    assert deal.view(0).turn_up == Card.parse("JH")
    assert deal.view(0).trump is Suit.HEARTS


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    """new_deal: the same seed deals the same cards; another seed deals others; a shuffle is a permutation."""
    assert new_deal("bezique", seed=99) == new_deal("bezique", seed=99)
    assert new_deal("bezique", seed=99).deck_order != new_deal("bezique", seed=100).deck_order
    assert sorted(new_deal("bezique", seed=99).deck_order) == list(range(64))


# -- Trump orders and trick winners ---------------------------------------------------


def pid(deck: DeckSpec, code: str, copy: int = 0) -> int:
    """The physical id of copy ``copy`` of the card ``code``."""
    return copy * deck.num_faces + deck.face(Card.parse(code))


def mask(deck: DeckSpec, codes: str, copy: int = 0) -> int:
    """The mask of copy ``copy`` of each card in ``codes``."""
    out = 0
    for code in codes.split():
        out |= 1 << pid(deck, code, copy)
    return out


def trick(deck: DeckSpec, codes: str) -> tuple[int, ...]:
    """A trick of the second copies (so that a hand of first copies may hold identical cards)."""
    copy = 1 if deck.packs > 1 else 0
    return tuple(pid(deck, c, copy) for c in codes.split())


def hearts(deck: DeckSpec = PIQUET, order: TrumpOrder | None = None) -> TrumpTable:
    """The trump table with hearts as trumps."""
    return (order or TrumpOrder()).table(deck, Suit.HEARTS.value)


def test_plain_order_higher_rank_of_the_suit_led_wins() -> None:
    """TrumpOrder (plain): A T K Q J 9 8 7 in each suit; the higher card of the suit led wins."""
    table = TrumpOrder().table(PIQUET, NO_TRUMP)
    ranks = "ATKQJ987"
    for i, hi in enumerate(ranks):
        for lo in ranks[i + 1 :]:
            assert table.winner(trick(PIQUET, f"{hi}S {lo}S")) == 0
            assert table.winner(trick(PIQUET, f"{lo}S {hi}S")) == 1
    assert table.trump_mask == 0


def test_trump_table_trumps_and_off_suit() -> None:
    """TrumpTable: any trump beats every plain card; an off-suit plain card never wins."""
    table = hearts()
    assert table.winner(trick(PIQUET, "AS 7H")) == 1
    assert table.winner(trick(PIQUET, "7H AS")) == 0
    assert table.winner(trick(PIQUET, "KS AD")) == 0
    assert table.winner(trick(PIQUET, "9H AH")) == 1
    assert table.trump_mask == mask(PIQUET, "AH TH KH QH JH 9H 8H 7H") | mask(PIQUET, "AH TH KH QH JH 9H 8H 7H", 1)


def test_trump_table_earlier_identical_card_wins() -> None:
    """TrumpTable.winner: of two identical cards the one played first wins; an identical card never beats."""
    table = hearts()
    first, second = pid(PIQUET, "AS", 0), pid(PIQUET, "AS", 1)
    assert table.winner((first, second)) == 0
    assert table.winner((second, first)) == 0
    assert not table.beats(second, first)
    assert not table.beats(first, second)
    assert table.winner((pid(PIQUET, "7H", 1), pid(PIQUET, "7H", 0))) == 0
    assert table.winner(trick(PIQUET, "9S KS") + (pid(PIQUET, "KS", 0),)) == 1


def test_bowers_right_left_and_effective_suit() -> None:
    """TrumpOrder(bowers): jack of trumps highest, the same-colour jack next and a trump (not of its own suit)."""
    table = hearts(EUCHRE, TrumpOrder(bowers=True))
    jd, jh, ah = pid(EUCHRE, "JD"), pid(EUCHRE, "JH"), pid(EUCHRE, "AH")
    assert table.suit[jd] == Suit.HEARTS.value
    assert (table.trump_mask >> jd) & 1
    assert not (table.suit_masks[Suit.DIAMONDS.value] >> jd) & 1
    assert table.power[jh] > table.power[jd] > table.power[ah]
    assert table.winner(trick(EUCHRE, "AH JD")) == 1
    assert table.winner(trick(EUCHRE, "JD JH")) == 1
    assert table.winner(trick(EUCHRE, "AD JD")) == 1
    assert table.suit[pid(EUCHRE, "JS")] == Suit.SPADES.value
    diamonds = TrumpOrder(bowers=True).table(EUCHRE, Suit.DIAMONDS.value)
    assert diamonds.suit[jh] == Suit.DIAMONDS.value


def test_benny_is_the_highest_trump() -> None:
    """TrumpOrder(benny=JOKER): the joker is the highest trump, above the right bower, whatever the trump."""
    deck = DeckSpec(ranks=EUCHRE.ranks, extras=(JOKER,))
    order = TrumpOrder(bowers=True, benny=JOKER)
    for suit in Suit:
        table = order.table(deck, suit.value)
        joker = deck.face(JOKER)
        right = pid(deck, "J" + suit.code)
        assert table.suit[joker] == suit.value
        assert table.winner((right, joker)) == 1
        assert table.winner((joker, right)) == 0


# -- Play duties --------------------------------------------------------------------


def legal(policy: TrickPolicy, table: TrumpTable, deck: DeckSpec, hand: str, led: str, partner: bool = False) -> str:
    """The cards of ``hand`` that ``policy`` allows on the trick ``led``, as display text."""
    allowed = policy.legal(table, mask(deck, hand), trick(deck, led), partner)
    return str(CardSet(deck.cards_of(allowed)))


def refusal(
    policy: TrickPolicy, table: TrumpTable, deck: DeckSpec, hand: str, led: str, card: str, partner: bool = False
) -> RuleCode | None:
    """The rule that forbids playing ``card`` (None when allowed)."""
    why = policy.refusal(table, mask(deck, hand), trick(deck, led), pid(deck, card), partner)
    return None if why is None else why[0]


def test_duty_free_allows_any_card() -> None:
    """PlayDuty.FREE (Bezique's stock phase): any card, whatever is led."""
    policy = TrickPolicy(PlayDuty.FREE)
    assert legal(policy, hearts(), PIQUET, "TS 8S AH 7H KD", "9S") == "TS 8S AH 7H KD"


@pytest.mark.parametrize("duty", list(PlayDuty))
def test_leading_is_free_under_every_duty(duty: PlayDuty) -> None:
    """Every duty: the leader of a trick may lead any card."""
    assert legal(TrickPolicy(duty), hearts(), PIQUET, "TS 8S AH 7H KD", "") == "TS 8S AH 7H KD"


def test_duty_follow_beat_or_trump() -> None:
    """PlayDuty.FOLLOW_BEAT_OR_TRUMP: follow and beat if able; void: trump if able; else anything."""
    policy, table = TrickPolicy(PlayDuty.FOLLOW_BEAT_OR_TRUMP), hearts()
    assert legal(policy, table, PIQUET, "TS 8S AH 7H KD", "9S") == "TS"
    assert refusal(policy, table, PIQUET, "TS 8S AH 7H KD", "9S", "8S") is RuleCode.MUST_BEAT
    assert refusal(policy, table, PIQUET, "TS 8S AH 7H KD", "9S", "AH") is RuleCode.MUST_FOLLOW_SUIT
    assert refusal(policy, table, PIQUET, "TS 8S AH 7H KD", "9S", "TS") is None
    assert refusal(policy, table, PIQUET, "TS 8S AH 7H KD", "9S", "QC") is RuleCode.CARD_NOT_HELD
    assert legal(policy, table, PIQUET, "8S 7S AH", "9S") == "8S 7S"
    assert legal(policy, table, PIQUET, "KS 8S", "KS") == "KS 8S"  # an identical card does not beat
    assert legal(policy, table, PIQUET, "AH 7H KD", "9S") == "AH 7H"
    assert refusal(policy, table, PIQUET, "AH 7H KD", "9S", "KD") is RuleCode.MUST_TRUMP
    assert legal(policy, table, PIQUET, "KD 8C", "9S") == "KD 8C"


def test_duty_follow_only() -> None:
    """PlayDuty.FOLLOW_ONLY: follow suit if able (no duty to beat), else any card (no duty to trump)."""
    policy, table = TrickPolicy(PlayDuty.FOLLOW_ONLY), hearts()
    assert legal(policy, table, PIQUET, "TS 8S AH", "9S") == "TS 8S"
    assert refusal(policy, table, PIQUET, "TS 8S AH", "9S", "AH") is RuleCode.MUST_FOLLOW_SUIT
    assert legal(policy, table, PIQUET, "AH 7H KD", "9S") == "AH 7H KD"


def test_duty_follow_beat_if_trump_led() -> None:
    """PlayDuty.FOLLOW_BEAT_IF_TRUMP_LED: beat only when trumps are led; void: trump if able."""
    policy, table = TrickPolicy(PlayDuty.FOLLOW_BEAT_IF_TRUMP_LED), hearts()
    assert legal(policy, table, PIQUET, "TS 8S AH", "9S") == "TS 8S"
    assert legal(policy, table, PIQUET, "TH 8H AS", "9H") == "TH"
    assert refusal(policy, table, PIQUET, "TH 8H AS", "9H", "8H") is RuleCode.MUST_BEAT
    assert legal(policy, table, PIQUET, "AH KD", "9S") == "AH"


HEAD_HAND = "AS TS QS 8S AH"


@pytest.mark.parametrize(
    ("beat_rule", "expected"),
    [
        (BeatRule.CURRENT_WINNER, "AS TS"),
        (BeatRule.LED_CARD, "AS TS QS"),
        (BeatRule.NONE, "AS TS QS 8S"),
    ],
)
def test_duty_head_the_trick_beat_rules(beat_rule: BeatRule, expected: str) -> None:
    """PlayDuty.HEAD_THE_TRICK: a follower of suit beats the current winner, the card led, or nothing."""
    policy, table = TrickPolicy(PlayDuty.HEAD_THE_TRICK, beat_rule=beat_rule), hearts()
    assert legal(policy, table, PIQUET, HEAD_HAND, "9S KS") == expected
    assert refusal(policy, table, PIQUET, HEAD_HAND, "9S KS", "AH") is RuleCode.MUST_FOLLOW_SUIT


def test_duty_head_the_trick_details() -> None:
    """HEAD_THE_TRICK: refusal codes, a trumped trick, overtrumping and the partner exception."""
    table = hearts()
    head = TrickPolicy(PlayDuty.HEAD_THE_TRICK)
    assert refusal(head, table, PIQUET, HEAD_HAND, "9S KS", "QS") is RuleCode.MUST_BEAT
    assert legal(head, table, PIQUET, HEAD_HAND, "9S KS", partner=True) == "AS TS"
    lenient = TrickPolicy(PlayDuty.HEAD_THE_TRICK, must_beat_partner=False)
    assert legal(lenient, table, PIQUET, HEAD_HAND, "9S KS", partner=True) == "AS TS QS 8S"
    assert legal(lenient, table, PIQUET, HEAD_HAND, "9S KS", partner=False) == "AS TS"
    # trumped: the winner is not of the suit led, so following suit is enough
    assert legal(head, table, PIQUET, "AS 8S AH", "9S 9H") == "AS 8S"
    # void: trump, overtrumping the winning trump when able
    assert legal(head, table, PIQUET, "AH 8H KD", "9S 9H") == "AH"
    assert refusal(head, table, PIQUET, "AH 8H KD", "9S 9H", "8H") is RuleCode.MUST_OVERTRUMP
    assert refusal(head, table, PIQUET, "AH 8H KD", "9S 9H", "KD") is RuleCode.MUST_TRUMP
    assert legal(head, table, PIQUET, "8H 7H KD", "9S 9H") == "8H 7H"
    no_over = TrickPolicy(PlayDuty.HEAD_THE_TRICK, must_overtrump=False)
    assert legal(no_over, table, PIQUET, "AH 8H KD", "9S 9H") == "AH 8H"
    assert legal(lenient, table, PIQUET, "AH 8H KD", "9S 9H", partner=True) == "AH 8H"


def test_duty_follow_effective_suit_with_bowers() -> None:
    """PlayDuty.FOLLOW_EFFECTIVE_SUIT: the left bower counts as a trump, not as its printed suit; no beat duty."""
    policy = TrickPolicy(PlayDuty.FOLLOW_EFFECTIVE_SUIT)
    table = hearts(EUCHRE, TrumpOrder(bowers=True))
    assert legal(policy, table, EUCHRE, "JD AS", "9H") == "JD"
    assert refusal(policy, table, EUCHRE, "JD AS", "9H", "AS") is RuleCode.MUST_FOLLOW_SUIT
    assert legal(policy, table, EUCHRE, "JD 9S", "AD") == "9S JD"
    assert legal(policy, table, EUCHRE, "JD KD 9S", "AD") == "KD"
    assert legal(policy, table, EUCHRE, "AH 9D", "JD") == "AH"
    assert legal(policy, table, EUCHRE, "KH 9H", "AH") == "KH 9H"
    assert legal(policy, table, EUCHRE, "AS KD", "9H") == "AS KD"


# -- Card points and the breakdown ----------------------------------------------------


def test_brisques_total_170_on_the_piquet_deck() -> None:
    """CardPoints BRISQUES: every ace and ten 10, last trick 10: 170 on the 64-card deck."""
    assert BRISQUES.total(PIQUET) == 170
    per_card = BRISQUES.per_card(PIQUET)
    assert sum(per_card) == 160
    assert [PIQUET.card(i).rank for i, v in enumerate(per_card) if v] == [Rank.ACE, Rank.TEN] * 8
    assert set(per_card) == {0, 10}
    assert BRISQUES.last_trick == 10
    rules = get_rules("bezique")
    assert rules.card_points.total(rules.deck) == 170


def test_card_points_of_a_mapping_pinochle_count() -> None:
    """CardPoints.of: the classic pinochle count 11/10/4/3/2 + 10 for the last trick totals 250."""
    count = CardPoints.of({Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}, last_trick=10)
    assert count.total(PINOCHLE) == 250
    assert CardPoints.of({Rank.ACE: 10, Rank.TEN: 10}) == BRISQUES


def test_score_breakdown_total() -> None:
    """ScoreBreakdown.total: melds + seven + cards + last trick + bonus."""
    assert ScoreBreakdown(melds=40, seven=10, cards=90, last_trick=10, bonus=5).total == 155
    assert ScoreBreakdown().total == 0
