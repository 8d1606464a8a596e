"""Rulebook scenarios for the Euchre presets on stacked decks (reference.md §12-§13, presets.md).

Every test builds its deck with `scenario.stack` (naming the cards that
matter), drives the deal with notation strings, and checks the phase, the
player to act, the legal actions, the trick winners, the points and the
`RuleCode` of refusals.

Unless a test says otherwise: dealer 3, so player 0 bids first and (in the
North American preset) leads; partners 0 & 2 (side 0) against 1 & 3 (side 1).
Trick-order tests make hearts trumps by passing the turned card (a club or a
diamond) in round one and having player 0 ``call H`` in round two, so nobody
picks up the turn-up and player 0 leads trick one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique_rules import (
    GameState,
    OptionError,
    Phase,
    RecordError,
    RuleCode,
    Suit,
    determinize,
    get_rules,
    new_deal,
    new_game,
    record_of,
    replay,
)
from bezique_rules.engine.euchre import EuchreDeal
from bezique_rules.integrations.openspiel import openspiel_returns
from bezique_rules.parts.euchre import EuchreScoring, OrderUp
from bezique_rules.parts.scoring import GamesMatchEnd, Standing, TargetEnd
from scenario import cards, codes, euchre_deal, euchre_pack, hand_of, legal, play_out, refusal, run, stack

HEARTS = Suit.HEARTS.value


def kitty(state: EuchreDeal) -> list[str]:
    """The kitty's cards (top first), with the dealer's discard last."""
    return [str(state.rules.deck.card(x)) for x in state.kitty]


def trick_winner(state: EuchreDeal) -> int:
    """The winner of the trick just completed (he leads the next one)."""
    view = state.view(0)
    assert view.trick == () and view.last_trick
    return view.trick_leader


def called_hearts(
    hands: dict[int, str], turn_up: str, kitty_cards: str, preset: str = "euchre", **o: Any
) -> EuchreDeal:
    """A deal where everybody passes the turn-up and player 0 calls hearts: player 0 leads trick one."""
    d = euchre_deal(preset, hands, turn_up, kitty_cards, **o)
    d = run(d, "pass", "pass", "pass", "pass", "call H")
    assert d.phase is Phase.TRICKS and d.current_player == 0 and d.trump == HEARTS
    assert d.sitting_out == ()
    return d


# Hearts trumps by the turn-up 9H; player 0 holds the five best trumps.
STRONG = {0: "JH JD AH KH QH", 1: "AS KS QS TS 9S", 2: "AD KD QD TD 9D", 3: "AC KC QC TC 9C"}
STRONG_KITTY = "TH JS JC"


# -- the deal ---------------------------------------------------------------------------------


def test_euchre_deals_3_2_3_2_then_2_3_2_3_from_the_dealers_left() -> None:
    """presets.md: euchre deals 3, 2, 3, 2 then 2, 3, 2, 3 from the dealer's left; then the turn-up; then the kitty."""
    deck = euchre_pack(24)
    d = new_deal("euchre", deck=deck, dealer=3)
    assert isinstance(d, EuchreDeal)
    expect = {
        0: deck[0:3] + deck[10:12],
        1: deck[3:5] + deck[12:15],
        2: deck[5:8] + deck[15:17],
        3: deck[8:10] + deck[17:20],
    }
    for seat, want in expect.items():
        assert hand_of(d, seat) == set(want)
    assert str(d.view(0).turn_up) == deck[20]
    assert kitty(d) == deck[21:]
    assert d.view(0).stock_size == 3


def test_euchre_deal_starts_at_the_dealers_left_for_any_dealer() -> None:
    """presets.md: with dealer 1 the first packet (3 cards) goes to seat 2, the second to seat 3."""
    deck = euchre_pack(24)
    d = new_deal("euchre", deck=deck, dealer=1)
    assert hand_of(d, 2) == set(deck[0:3] + deck[10:12])
    assert hand_of(d, 3) == set(deck[3:5] + deck[12:15])
    assert hand_of(d, 0) == set(deck[5:8] + deck[15:17])
    assert hand_of(d, 1) == set(deck[8:10] + deck[17:20])
    assert d.current_player == 2


def test_british_euchre_deals_3_each_then_2_each() -> None:
    """presets.md / §12.2: british-euchre deals 3 each then 2 each (25 cards); the turn-up; a kitty of 4."""
    deck = euchre_pack(25)
    d = new_deal("british-euchre", deck=deck)
    assert isinstance(d, EuchreDeal)
    for seat in range(4):
        assert hand_of(d, seat) == set(deck[3 * seat : 3 * seat + 3] + deck[12 + 2 * seat : 14 + 2 * seat])
    assert str(d.view(0).turn_up) == deck[20]
    assert kitty(d) == deck[21:]
    assert "JK" in kitty(d)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_openspiel_profile_deals_one_at_a_time_first_card_to_the_dealer(dealer: int) -> None:
    """§13.3 / §13.5: card i goes to seat (dealer + i) % 4, the first to the dealer; then the up-card; the kitty."""
    deck = euchre_pack(24)
    d = new_deal("euchre-openspiel", deck=deck, dealer=dealer)
    assert isinstance(d, EuchreDeal)
    for seat in range(4):
        assert hand_of(d, seat) == {deck[i] for i in range(20) if (dealer + i) % 4 == seat}
    assert str(d.view(0).turn_up) == deck[20]
    assert kitty(d) == deck[21:]
    assert d.current_player == (dealer + 1) % 4


@pytest.mark.parametrize(
    ("size", "benny", "extra"),
    [(24, "joker", None), (25, "joker", "JK"), (32, "joker", None), (33, "joker", "JK"), (33, "two_of_spades", "2S")],
)
def test_deck_sizes_24_25_32_33(size: int, benny: str, extra: str | None) -> None:
    """§12.2 deck notes / §12.3 deck_size: 24 (A K Q J T 9), 32 (+8 7), 25 and 33 add the Benny; 5 cards each."""
    rules = get_rules("euchre", deck_size=size, benny=benny)
    assert rules.deck.size == size
    faces = sorted(str(c) for c in rules.deck.faces)
    assert faces == sorted(euchre_pack(size, benny))
    assert (extra in faces) if extra else ("JK" not in faces and "2S" not in faces)
    assert any(f.startswith("7") for f in faces) is (size >= 32)
    d = new_deal("euchre", seed=5, deck_size=size, benny=benny)
    assert isinstance(d, EuchreDeal)
    assert [len(d.view(p).hand) for p in range(4)] == [5, 5, 5, 5]
    assert len(d.kitty) == size - 21


def test_default_dealer_is_3_and_player_0_bids_first() -> None:
    """presets.md: the default dealer is seat 3, so player 0 (the dealer's left) acts first."""
    d = new_deal("euchre", seed=1)
    assert d.dealer == 3 and d.current_player == 0 and d.phase is Phase.BID
    assert d.sides == ((0, 2), (1, 3)) and d.side_of(2) == 0 and d.side_of(3) == 1
    assert d.scores == (0, 0)


# -- the trump order ----------------------------------------------------------------------------

TRUMP_LED = {0: "AH 9S TS QS KS", 1: "JD 9D TD QD KD", 2: "KH TH AS AD AC", 3: "JH QH 9H JS JC"}


def trump_ranking(preset: str, trump: Suit, **options: Any) -> list[str]:
    """Every trump of the rule set's deck, highest first, as its trump table ranks them."""
    rules = get_rules(preset, **options)
    table = rules.trump_tables[trump.value]
    ids = [pid for pid in range(rules.deck.size) if (table.trump_mask >> pid) & 1]
    ids.sort(key=lambda pid: -table.power[pid])
    return [str(rules.deck.card(pid)) for pid in ids]


@pytest.mark.parametrize(
    ("preset", "options", "trump", "order"),
    [
        ("euchre", {}, Suit.HEARTS, "JH JD AH KH QH TH 9H"),
        ("euchre", {}, Suit.CLUBS, "JC JS AC KC QC TC 9C"),
        ("euchre", {"deck_size": 32}, Suit.SPADES, "JS JC AS KS QS TS 9S 8S 7S"),
        ("british-euchre", {}, Suit.DIAMONDS, "JK JD JH AD KD QD TD 9D"),
        ("british-euchre", {"benny": "two_of_spades"}, Suit.HEARTS, "2S JH JD AH KH QH TH 9H"),
        ("euchre-openspiel", {}, Suit.SPADES, "JS JC AS KS QS TS 9S"),
    ],
)
def test_trump_order_benny_right_left_then_a_k_q_t_9(
    preset: str, options: dict[str, Any], trump: Suit, order: str
) -> None:
    """§12.1 / §12.2: trumps rank (Benny) > right bower > left bower > A > K > Q > T > 9 (> 8 > 7)."""
    assert trump_ranking(preset, trump, **options) == order.split()


def test_plain_suit_table_order_and_the_left_bower_leaves_its_suit() -> None:
    """§12.1: plain suits rank A K Q J T 9; with hearts trumps the JD counts as a heart, not a diamond."""
    rules = get_rules("euchre")
    table = rules.trump_tables[Suit.HEARTS.value]
    diamonds = [pid for pid in range(24) if table.suit[pid] == Suit.DIAMONDS.value]
    diamonds.sort(key=lambda pid: -table.power[pid])
    assert [str(rules.deck.card(pid)) for pid in diamonds] == ["AD", "KD", "QD", "TD", "9D"]
    clubs = [pid for pid in range(24) if table.suit[pid] == Suit.CLUBS.value]
    clubs.sort(key=lambda pid: -table.power[pid])
    assert [str(rules.deck.card(pid)) for pid in clubs] == ["AC", "KC", "QC", "JC", "TC", "9C"]


@pytest.mark.parametrize(("third", "winner"), [("JH", 3), ("QH", 1), ("9H", 1)])
def test_right_bower_beats_left_bower_beats_ace(third: str, winner: int) -> None:
    """§12.1: right bower (JH) > left bower (JD) > A K Q ... of trumps; the left bower follows a trump lead."""
    d = called_hearts(TRUMP_LED, "9C", "TC QC KC")
    d = d.apply("play AH")
    assert legal(d) == ["play JD"]  # the left bower is a trump: player 1 must follow with it
    d = run(d, "play JD", "play KH")
    assert legal(d) == ["play QH", "play JH", "play 9H"]
    d = d.apply(f"play {third}")
    assert trick_winner(d) == winner


def test_left_bower_is_not_of_its_printed_suit_when_that_suit_is_led() -> None:
    """§12.1 / §13.3: diamonds led (hearts trumps): JD is no diamond; its holder is void and may trump with it."""
    hands = {0: "AD 9S TS QS KS", 1: "JD 9C TC QC KC", 2: "KD TD AS AH AC", 3: "JH QH 9H JS JC"}
    d = called_hearts(hands, "9D", "QD KH TH")
    d = d.apply("play AD")
    assert set(legal(d)) == {"play JD", "play 9C", "play TC", "play QC", "play KC"}
    d = d.apply("play JD")
    assert legal(d) == ["play KD", "play TD"]
    d = run(d, "play KD", "play JS")
    assert trick_winner(d) == 1  # the left bower wins as a trump


def test_holder_of_left_bower_and_a_real_diamond_must_play_the_diamond() -> None:
    """§12.1: diamonds led with hearts trumps: JD does not follow diamonds, 9D must be played; JD refused."""
    hands = {0: "AD 9S TS QS KS", 1: "JD 9D 9C TC QC", 2: "KD TD AS AH AC", 3: "JH QH 9H JS JC"}
    d = called_hearts(hands, "QD", "KC KH TH")
    d = d.apply("play AD")
    assert legal(d) == ["play 9D"]
    assert refusal(d, "play JD") is RuleCode.MUST_FOLLOW_SUIT


@pytest.mark.parametrize(("third", "winner"), [("JH", 3), ("QH", 0)])
def test_leading_the_left_bower_leads_trumps(third: str, winner: int) -> None:
    """§12.1: the left bower led is a trump lead: the others must follow with trumps; it beats the ace."""
    hands = {0: "JD 9S TS QS KS", 1: "9H 9D TD QD KD", 2: "AH KH AS AD AC", 3: "JH QH TH JS JC"}
    d = called_hearts(hands, "9C", "TC QC KC")
    d = d.apply("play JD")
    assert legal(d) == ["play 9H"]  # not a diamond
    d = d.apply("play 9H")
    assert legal(d) == ["play AH", "play KH"]
    d = run(d, "play AH", f"play {third}")
    assert trick_winner(d) == winner


@pytest.mark.parametrize(("three", "winner"), [("QC JH QH 9H JS", 3), ("JH QH 9H JS TH", 1)])
def test_plain_suit_order_ace_king_queen_jack_ten_nine(three: str, winner: int) -> None:
    """§12.1: plain suits rank A > K > Q > J > T > 9 (a jack not a bower is a plain card between Q and T)."""
    hands = {0: "TC 9S TS QS KS", 1: "JC 9D TD QD KD", 2: "9C AS AH AD KH", 3: three}
    rest = "TH JD KC" if "QC" in three else "QC JD KC"
    d = called_hearts(hands, "AC", rest)
    d = d.apply("play TC")
    assert legal(d) == ["play JC"]  # a plain club: the jack of clubs is no bower when hearts are trumps
    d = run(d, "play JC", "play 9C")
    d = d.apply("play QC" if winner == 3 else "play JS")
    assert trick_winner(d) == winner


@pytest.mark.parametrize(("last", "winner"), [("7H", 3), ("8D", 2)])
def test_32_card_pack_ranks_eight_and_seven_below_nine(last: str, winner: int) -> None:
    """§12.2 deck notes: in the 32-card pack 9 > 8 > 7 in a plain suit, and the trump seven beats any plain card."""
    hands = {0: "8C 9S TS QS KS", 1: "7C 9D TD QD KD", 2: "9C AS AD AH KH", 3: "7H 8S 7S 8D 7D"}
    d = called_hearts(hands, "JC", "", deck_size=32)
    d = run(d, "play 8C", "play 7C", "play 9C", f"play {last}")
    assert trick_winner(d) == winner


# -- the Benny ---------------------------------------------------------------------------------

BENNY_CASES = [
    ("british-euchre", {}, "JK"),
    ("euchre", {"deck_size": 25}, "JK"),
    ("euchre", {"deck_size": 33}, "JK"),
    ("british-euchre", {"benny": "two_of_spades"}, "2S"),
    ("euchre", {"deck_size": 33, "benny": "two_of_spades"}, "2S"),
]


@pytest.mark.parametrize(("preset", "options", "benny"), BENNY_CASES)
def test_benny_is_the_highest_trump_and_follows_trumps(preset: str, options: dict[str, Any], benny: str) -> None:
    """§12.2: the Benny (joker, or the two of spades) is the highest trump: it must follow a trump lead and beats JH."""
    hands = {0: "JH 9S TS QS KS", 1: f"{benny} 9D TD QD KD", 2: "AH KH AS AD AC", 3: "QH TH 9H JS JC"}
    d = called_hearts(hands, "9C", "JD TC QC", preset, **options)
    d = d.apply("play JH")
    assert legal(d) == [f"play {benny}"]
    d = run(d, f"play {benny}", "play AH", "play QH")
    assert trick_winner(d) == 1


@pytest.mark.parametrize(("preset", "options", "benny"), BENNY_CASES)
def test_benny_does_not_follow_a_plain_suit(preset: str, options: dict[str, Any], benny: str) -> None:
    """§12.2: a plain suit led (spades, hearts trumps): the Benny (even the two of spades) is no spade."""
    hands = {0: "AS 9S TS QS 9C", 1: f"{benny} KS 9D TD QD", 2: "AH KH AD AC KD", 3: "QH TH 9H JS JC"}
    d = called_hearts(hands, "TC", "JD JH QC", preset, **options)
    d = d.apply("play AS")
    assert legal(d) == ["play KS"]
    assert refusal(d, f"play {benny}") is RuleCode.MUST_FOLLOW_SUIT


@pytest.mark.parametrize(("preset", "options", "benny"), BENNY_CASES[:2] + BENNY_CASES[3:4])
def test_benny_trumps_a_plain_lead_when_void(preset: str, options: dict[str, Any], benny: str) -> None:
    """§12.2: void in the suit led, the Benny may be played and wins the trick as the highest trump."""
    hands = {0: "AS 9S TS QS 9C", 1: f"{benny} 9D TD QD KD", 2: "AH KH AD AC KS", 3: "QH TH 9H JS JC"}
    d = called_hearts(hands, "TC", "JD JH QC", preset, **options)
    d = d.apply("play AS")
    assert f"play {benny}" in legal(d) and len(legal(d)) == 5
    d = run(d, f"play {benny}", "play KS", "play JS")
    assert trick_winner(d) == 1


# -- order up, the dealer's exchange --------------------------------------------------------------


def test_order_up_makes_the_turned_suit_trumps_and_the_dealer_picks_up_and_discards_any_card() -> None:
    """§12.1: ordering up makes the turned suit trumps; the dealer adds the turn-up and discards any card (euchre)."""
    d = euchre_deal("euchre", STRONG, "9H", STRONG_KITTY)
    assert legal(d) == ["pass", "order-up", "order-up alone"]
    d = d.apply("order-up")
    assert d.phase is Phase.DISCARD and d.current_player == 3
    assert d.trump == HEARTS and d.maker == 0
    assert set(legal(d)) == {f"discard {c}" for c in codes("9H AC KC QC TC 9C")}
    after = d.apply("discard AC")
    assert hand_of(after, 3) == set(codes("9H KC QC TC 9C"))
    assert kitty(after) == [*codes(STRONG_KITTY), "AC"]
    assert after.phase is Phase.TRICKS and after.current_player == 0
    assert after.view(3).buried == tuple(cards("AC"))
    assert after.view(0).buried == ()


def test_euchre_dealer_may_discard_the_turn_up_itself() -> None:
    """presets.md (euchre): the dealer may discard any card, including the up-card he just took."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up", "discard 9H")
    assert hand_of(d, 3) == set(codes("AC KC QC TC 9C"))
    assert kitty(d)[-1] == "9H"


def test_dealer_may_not_discard_upcard_option() -> None:
    """§12.1 option dealer_may_discard_upcard=False: discarding the turn-up is refused; other cards are fine."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, dealer_may_discard_upcard=False), "order-up")
    assert "discard 9H" not in legal(d)
    assert refusal(d, "discard 9H") is RuleCode.CARD_NOT_HELD
    assert hand_of(d.apply("discard 9C"), 3) == set(codes("9H AC KC QC TC"))


def test_openspiel_dealer_may_not_discard_the_upcard() -> None:
    """§13.3 step 5 / §13.5: the dealer's legal discards are his five cards, never the up-card."""
    d = run(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY), "order-up")
    assert d.phase is Phase.DISCARD and d.current_player == 3
    assert set(legal(d)) == {f"discard {c}" for c in codes("AC KC QC TC 9C")}
    code = refusal(d, "discard 9H")
    assert code is RuleCode.CARD_NOT_HELD
    assert refusal(d, "pass") is RuleCode.MUST_BID


def test_openspiel_profile_knows_the_dealer_holds_the_upcard() -> None:
    """§13.5: as the up-card cannot be discarded, every player knows the dealer holds it after the exchange."""
    d = run(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY), "order-up", "discard 9C")
    for p in range(4):
        assert list(d.view(p).known[3]) == cards("9H")


def test_discarding_a_card_not_held_is_refused() -> None:
    """Bad input: the dealer discarding a card he does not hold is refused with CARD_NOT_HELD, state unchanged."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up")
    assert refusal(d, "discard AS") is RuleCode.CARD_NOT_HELD
    assert refusal(d, "play 9C") is RuleCode.WRONG_PHASE
    assert refusal(d, "pass") is RuleCode.MUST_BID


def test_british_dealer_may_decline_the_turn_up() -> None:
    """§12.2 (dealer_pickup="may"): the dealer may pass instead of taking the turn-up; his hand stays as dealt."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "order-up")
    assert d.phase is Phase.DISCARD and d.current_player == 3
    assert "pass" in legal(d)
    declined = d.apply("pass")
    assert hand_of(declined, 3) == set(codes(STRONG[3]))
    assert declined.trump == HEARTS and declined.phase is Phase.TRICKS
    assert len(declined.kitty) == 4
    assert "discard 9H" not in legal(d)  # declining is 'pass': the dealer keeps a turn-up he takes
    taken = d.apply("discard 9C")
    assert hand_of(taken, 3) == set(codes("9H AC KC QC TC"))
    assert list(taken.view(1).known[3]) == cards("9H")


def test_dealer_pickup_may_option_in_north_american_preset() -> None:
    """§12.3: dealer_pickup="may" lets the euchre dealer decline with pass; the default "must" refuses the pass."""
    may = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, dealer_pickup="may"), "order-up")
    assert may.apply("pass").phase is Phase.TRICKS
    must = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up")
    assert refusal(must, "pass") is RuleCode.MUST_BID


def test_any_player_may_order_up_the_dealer_too() -> None:
    """§12.1: the dealer's partner ("assists") or the dealer ("picks it up") may accept the turned suit."""
    d = euchre_deal("euchre", STRONG, "9H", STRONG_KITTY)
    assisted = run(d, "pass", "order-up")
    assert assisted.maker == 1 and assisted.phase is Phase.DISCARD and assisted.current_player == 3
    picked = run(d, "pass", "pass", "pass", "order-up")
    assert picked.maker == 3 and picked.phase is Phase.DISCARD and picked.current_player == 3


# -- round two, stick the dealer, all pass ------------------------------------------------------------


def test_round_two_names_another_suit_the_turned_down_suit_refused() -> None:
    """§12.1: after four passes each may name any OTHER suit; the turned-down suit and ordering up are refused."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "pass", "pass", "pass", "pass")
    assert d.phase is Phase.BID and d.current_player == 0
    assert set(legal(d)) == {"pass", "call S", "call D", "call C", "call S alone", "call D alone", "call C alone"}
    assert refusal(d, "call H") is RuleCode.NOT_AN_ACTION
    assert refusal(d, "call H alone") is RuleCode.NOT_AN_ACTION
    assert refusal(d, "order-up") is RuleCode.WRONG_PHASE
    assert refusal(d, "order-up alone") is RuleCode.WRONG_PHASE
    called = d.apply("call D")
    assert called.trump == Suit.DIAMONDS.value and called.maker == 0
    assert called.phase is Phase.TRICKS and called.current_player == 0  # no pick-up in round two
    assert hand_of(called, 3) == set(codes(STRONG[3]))


def test_round_one_call_is_refused() -> None:
    """§12.1: in round one only the turned suit can be accepted: 'call D' is refused with WRONG_PHASE."""
    d = euchre_deal("euchre", STRONG, "9H", STRONG_KITTY)
    assert refusal(d, "call D") is RuleCode.WRONG_PHASE
    assert refusal(d, "trump D") is RuleCode.WRONG_PHASE
    assert refusal(d, "play JH") is RuleCode.WRONG_PHASE
    assert refusal(d, "alone") is RuleCode.WRONG_PHASE
    assert refusal(d, "discard 9C 9D 9H") is RuleCode.NOT_AN_ACTION  # no farmer's hand in this preset


def test_all_pass_is_a_deal_over_with_no_points() -> None:
    """§12.1: eight passes throw the deal in: it is over with 0 points for both sides."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), *["pass"] * 8)
    assert d.is_over and d.phase is Phase.OVER and d.current_player is None
    assert d.scores == (0, 0) and d.maker is None
    assert d.result is not None and d.result.scores == (0, 0)
    assert refusal(d, "pass") is RuleCode.GAME_OVER


def test_all_pass_in_a_game_passes_the_deal_to_the_left() -> None:
    """§12.1/§12.2: all pass: no points, and new_game deals the next deal with the next dealer (seat 0)."""
    first = stack("euchre", STRONG, turn_up="9H", kitty=STRONG_KITTY, dealer=3)
    second = stack("euchre", {1: STRONG[0]}, turn_up="9H", dealer=0)
    g = run(new_game("euchre", seed=1, decks=[first, second]), *["pass"] * 8)
    assert not g.is_over and g.deal_number == 2
    assert g.deal.dealer == 0 and g.current_player == 1
    assert g.totals == (0, 0) and g.results[0].scores == (0, 0)
    assert hand_of(g.deal, 1) == set(codes(STRONG[0]))


def test_stick_the_dealer_refuses_the_dealers_last_pass() -> None:
    """§12.3 stick_the_dealer: the dealer may not pass in round two (MUST_BID); he must name a suit."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, stick_the_dealer=True), *["pass"] * 7)
    assert d.current_player == 3
    assert "pass" not in legal(d)
    assert refusal(d, "pass") is RuleCode.MUST_BID
    assert d.apply("call C").maker == 3


def test_without_stick_the_dealer_the_dealer_may_pass_round_two() -> None:
    """§12.1: by default (euchre) the dealer may pass in round two, which throws the deal in."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), *["pass"] * 7)
    assert "pass" in legal(d)
    assert d.apply("pass").is_over


def test_openspiel_profile_sticks_the_dealer_by_default() -> None:
    """§13.1/§13.3: euchre-openspiel has stick_the_dealer=True by default; False lets eight passes end the deal."""
    d = run(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY), *["pass"] * 7)
    assert sorted(legal(d)) == ["call C", "call D", "call S"]
    assert refusal(d, "pass") is RuleCode.MUST_BID
    loose = run(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY, stick_the_dealer=False), *["pass"] * 8)
    assert loose.is_over and openspiel_returns(loose) == (0, 0, 0, 0)


# -- going alone, who leads, sitting out ---------------------------------------------------------------


def test_going_alone_sits_the_partner_out_and_tricks_have_three_cards() -> None:
    """§12.1: the maker alone: his partner sits out, never acts, and each trick has three cards."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up alone")
    assert d.sitting_out == (2,) and d.view(0).alone == 0 and d.view(1).sitting_out == (2,)
    d = d.apply("discard 9C")
    assert d.phase is Phase.TRICKS and d.current_player == 0
    d = run(d, "play JH")
    assert d.current_player == 1
    d = d.apply("play AS")
    assert d.current_player == 3  # seat 2 is skipped
    d = d.apply("play 9H")
    assert len(d.view(0).last_trick) == 3 and trick_winner(d) == 0
    seen = set()
    while not d.is_over:
        assert d.view(2).legal_actions() == ()
        seen.add(d.current_player)
        d = d.apply(d.legal_actions()[0])
    assert 2 not in seen
    assert d.tricks_taken == (5, 0, 0, 0)
    assert hand_of(d, 2) == set(codes(STRONG[2]))  # the sitting-out hand is never played


def test_playing_for_the_sitting_out_player_is_refused() -> None:
    """Bad input: when seat 1 is to act, playing a card of the sitting-out seat 2 is refused (CARD_NOT_HELD)."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up alone", "discard 9C", "play JH")
    assert d.current_player == 1
    assert refusal(d, "play AD") is RuleCode.CARD_NOT_HELD
    d = d.apply("play AS")
    assert d.current_player == 3
    assert refusal(d, "play 9D") is RuleCode.CARD_NOT_HELD


def test_playing_out_of_turn_is_refused() -> None:
    """Bad input: a card of a player who is not to act is refused (CARD_NOT_HELD: the actor does not hold it)."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up", "discard 9C")
    assert d.current_player == 0
    assert refusal(d, "play AS") is RuleCode.CARD_NOT_HELD
    assert d.view(1).legal_actions() == ()
    assert d.view(0).legal_actions() == d.legal_actions()


def test_dealer_partner_alone_sits_out_the_dealer_who_then_does_not_pick_up() -> None:
    """§12.1 (euchre): when the dealer's partner orders up alone the dealer sits out; no exchange is made."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "pass", "order-up alone")
    assert d.sitting_out == (3,) and d.maker == 1
    assert d.phase is Phase.TRICKS and d.current_player == 0
    assert hand_of(d, 3) == set(codes(STRONG[3]))


def test_dealer_left_leads_skipping_a_sitting_out_seat() -> None:
    """§12.1 lone_lead="dealer_left": the first active seat from the dealer's left leads (seat 0 sits out: seat 1)."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "pass", "pass", "order-up alone", "discard 9C")
    assert d.sitting_out == (0,)
    assert d.phase is Phase.TRICKS and d.current_player == 1


@pytest.mark.parametrize(("bids", "leader"), [(("pass", "order-up alone"), 2), (("pass", "pass", "order-up alone"), 3)])
def test_left_of_lone_player_leads_option(bids: tuple[str, ...], leader: int) -> None:
    """§12.2 lone_lead="left_of_lone_player": the player to the lone player's left leads."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, lone_lead="left_of_lone_player"), *bids)
    if d.phase is Phase.DISCARD:
        d = d.apply("discard 9C")
    assert d.phase is Phase.TRICKS and d.current_player == leader


def test_left_of_lone_player_without_a_loner_leads_from_the_dealers_left() -> None:
    """§12.2: with nobody alone the dealer's left leads (british-euchre)."""
    d = run(
        euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY, dealer=1), "pass", "pass", "order-up", "discard 9S"
    )
    assert d.phase is Phase.TRICKS and d.current_player == 2


def test_openspiel_maker_decides_alone_after_the_dealers_discard() -> None:
    """§13.3 steps 5-6 / §13.5: no 'order-up alone'; the dealer discards first, then the maker says Alone or Partner."""
    d = euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY)
    assert legal(d) == ["pass", "order-up"]
    assert refusal(d, "order-up alone") is RuleCode.NOT_AN_ACTION
    d = run(d, "pass", "order-up")
    assert d.phase is Phase.DISCARD and d.current_player == 3
    d = d.apply("discard 9C")
    assert d.phase is Phase.ALONE and d.current_player == 1
    assert legal(d) == ["pass", "alone"]
    alone = d.apply("alone")
    assert alone.sitting_out == (3,)  # the dealer discarded, then sits out
    assert hand_of(alone, 3) == set(codes("9H AC KC QC TC"))
    assert alone.current_player == 0
    partner = d.apply("pass")
    assert partner.sitting_out == () and partner.current_player == 0


def test_openspiel_round_two_call_asks_the_maker_about_alone() -> None:
    """§13.3: a round-two call has no pick-up; the caller then decides Alone / Partner."""
    d = run(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY), *["pass"] * 5, "call S")
    assert d.phase is Phase.ALONE and d.current_player == 1 and d.maker == 1
    assert refusal(d, "call S alone") is RuleCode.WRONG_PHASE
    d = d.apply("alone")
    assert d.sitting_out == (3,) and d.current_player == 0


# -- British extras: taking over, defending alone ---------------------------------------------------------


def test_british_partner_may_take_over_a_lone_hand() -> None:
    """§12.2 (a): when the maker goes alone his partner may play alone instead, sitting the maker out."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "order-up alone")
    assert d.phase is Phase.ALONE and d.current_player == 2
    assert legal(d) == ["pass", "alone"]
    over = d.apply("alone")
    assert over.sitting_out == (0,) and over.view(1).alone == 2 and over.maker == 0
    over = over.apply("discard 9C")
    while over.phase is Phase.ALONE:  # the defenders decline to defend alone
        over = over.apply("pass")
    assert over.phase is Phase.TRICKS and over.current_player == 3  # left of the lone player 2
    kept = run(d, "pass", "discard 9C")
    assert kept.sitting_out == (2,) and kept.view(1).alone == 0


def test_british_no_takeover_when_the_dealer_took_the_turn_up_alone() -> None:
    """§12.2 (a): not allowed if the maker is the dealer who has taken the turned card."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "pass", "pass", "pass", "order-up alone")
    assert d.phase is Phase.DISCARD and d.current_player == 3
    assert d.sitting_out == (1,)


def test_british_takeover_allowed_when_the_dealer_calls_alone_in_round_two() -> None:
    """§12.2 (a): a dealer calling alone in round two took no card: his partner may take over."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), *["pass"] * 7, "call C alone")
    assert d.phase is Phase.ALONE and d.current_player == 1


def test_north_american_has_no_takeover() -> None:
    """presets.md (euchre): partner_takeover is off: after 'order-up alone' the dealer exchanges, then play."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up alone")
    assert d.phase is Phase.DISCARD
    assert run(d, "discard 9C").phase is Phase.TRICKS


def test_partner_takeover_option_both_ways() -> None:
    """§12.2 partner_takeover: on for euchre the partner is asked; off for british-euchre he is not."""
    on = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, partner_takeover=True), "order-up alone")
    assert on.phase is Phase.ALONE and on.current_player == 2
    assert on.apply("alone").sitting_out == (0,)
    off = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY, partner_takeover=False), "order-up alone")
    assert off.phase is Phase.DISCARD and off.current_player == 3


def test_british_with_no_lone_defence_and_dealer_left_lead() -> None:
    """§12.3 british-euchre options: lone_defender="never" asks nobody; lone_lead="dealer_left" skips seat 0."""
    o: dict[str, Any] = {"lone_defender": "never", "lone_lead": "dealer_left"}
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY, **o), "pass", "pass", "order-up alone", "pass")
    assert d.sitting_out == (0,) and d.phase is Phase.DISCARD
    d = d.apply("discard 9C")
    assert d.phase is Phase.TRICKS and d.current_player == 1


def test_british_lone_defence_only_against_a_lone_maker() -> None:
    """§12.2 (b): vs_lone_only: no defender is asked when the maker plays with his partner."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "pass", "order-up", "discard 9C")
    assert d.phase is Phase.TRICKS and d.current_player == 0


def test_british_lone_defender_sits_his_partner_out_and_scores_4() -> None:
    """§12.2 (b): a defender may defend alone against a lone maker; euchring him scores 4."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "pass", "order-up alone")
    assert d.phase is Phase.ALONE and d.current_player == 3  # the dealer may take over from seat 1
    d = d.apply("pass")  # no takeover; the dealer sits out, so no exchange
    assert d.phase is Phase.ALONE and d.current_player == 0
    d = d.apply("alone")
    assert d.sitting_out == (2, 3) and d.view(1).lone_defender == 0
    assert d.phase is Phase.TRICKS and d.current_player == 0  # left of the lone maker 1 is 2, 3: both out
    d = play_out(d)
    assert d.tricks_taken == (5, 0, 0, 0)
    assert d.scores == (4, 0)


def test_british_defender_may_not_sit_out_the_dealer_who_exchanged() -> None:
    """§12.2 (b): a defender may not defend alone when his partner is the dealer who has already exchanged."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "order-up alone", "pass", "discard 9C")
    assert d.phase is Phase.ALONE and d.current_player == 3  # seat 1 is skipped: his partner 3 exchanged
    assert d.apply("pass").phase is Phase.TRICKS
    declined = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "order-up alone", "pass", "pass")
    assert declined.phase is Phase.ALONE and declined.current_player == 1  # the dealer did not exchange
    d = declined.apply("alone")
    assert d.sitting_out == (2, 3)


def test_lone_defender_always_option_in_north_american_preset() -> None:
    """§12.3 lone_defender="always": a defender is asked even against a maker playing with his partner."""
    d = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, lone_defender="always"), "pass", "order-up", "discard 9C")
    assert d.phase is Phase.ALONE and d.current_player == 0
    d = d.apply("alone")
    assert d.sitting_out == (2,)
    assert play_out(d).scores == (4, 0)


def test_lone_defender_vs_lone_only_option_in_north_american_preset() -> None:
    """§15.1 defend_alone_scope=vs_lone_only on euchre: asked only against a loner."""
    o: dict[str, Any] = {"lone_defender": "vs_lone_only"}
    plain = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, **o), "pass", "order-up", "discard 9C")
    assert plain.phase is Phase.TRICKS
    loner = run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, **o), "pass", "pass", "order-up alone", "discard 9C")
    assert loner.phase is Phase.ALONE and loner.current_player == 3  # seat 1 would sit out the exchanged dealer


def test_openspiel_lone_defender_against_a_non_alone_maker_scores_minus_4() -> None:
    """§13.3 step 7 / §13.5: with allow_lone_defender the defenders are asked regardless; a lone euchre is -4."""
    d = euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY, allow_lone_defender=True)
    d = run(d, "pass", "order-up", "discard 9C", "pass")
    assert d.phase is Phase.ALONE and d.current_player == 0
    d = d.apply("alone")
    assert d.sitting_out == (2,) and d.phase is Phase.TRICKS and d.current_player == 0
    d = play_out(d)
    assert d.scores == (4, 0)
    assert openspiel_returns(d) == (4, -4, 4, -4)


def test_openspiel_second_defender_asked_after_the_first_declines() -> None:
    """§13.3 step 7: the first defender from dealer+1 says Partner, then his partner is asked."""
    d = euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY, allow_lone_defender=True)
    d = run(d, "order-up", "discard 9C", "pass")
    assert d.phase is Phase.ALONE and d.current_player == 1
    d = d.apply("pass")
    assert d.phase is Phase.ALONE and d.current_player == 3
    assert d.apply("pass").phase is Phase.TRICKS


def test_openspiel_without_lone_defender_no_defender_is_asked() -> None:
    """§13.1: allow_lone_defender defaults to False: play starts after the maker's decision."""
    d = run(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY), "order-up", "discard 9C", "alone")
    assert d.phase is Phase.TRICKS


# -- scoring ----------------------------------------------------------------------------------------

MADE3 = {0: "JH JD AH 9S TS", 1: "AS KS QS 9D TD", 2: "9C TC QC KC AC", 3: "AD KD QD KH QH"}
MADE3_PLAY = [
    "play JH", "play 9D", "play 9C", "play 9H",
    "play JD", "play TD", "play TC", "play QH",
    "play AH", "play QS", "play QC", "play KH",
    "play 9S", "play AS", "play KC", "play AD",
    "play KS", "play AC", "play KD", "play TS",
]  # fmt: skip
MADE4 = {0: "JH JD AH KH 9S", 1: "AS KS QS 9D TD", 2: "9C TC QC KC AC", 3: "AD KD QD TS QH"}
MADE4_PLAY = [
    "play JH", "play 9D", "play 9C", "play 9H",
    "play JD", "play TD", "play TC", "play QH",
    "play AH", "play QS", "play QC", "play AD",
    "play KH", "play KS", "play KC", "play KD",
    "play 9S", "play AS", "play AC", "play TS",
]  # fmt: skip


def without_seat(plays: list[str], hand: str) -> list[str]:
    """The plays with the cards of a sitting-out hand removed."""
    gone = set(codes(hand))
    return [p for p in plays if p.split()[1] not in gone]


def test_makers_taking_3_tricks_score_1() -> None:
    """§12.1: makers taking 3 tricks score 1."""
    d = run(euchre_deal("euchre", MADE3, "9H", STRONG_KITTY), "order-up", "discard QD", *MADE3_PLAY)
    assert d.is_over and d.tricks_taken == (3, 2, 0, 0)
    assert d.scores == (1, 0)
    assert d.breakdown[0].contract == 1 and d.breakdown[0].total == 1


def test_makers_taking_4_tricks_score_1() -> None:
    """§12.1: makers taking 4 tricks score 1."""
    d = run(euchre_deal("euchre", MADE4, "9H", STRONG_KITTY), "order-up", "discard QD", *MADE4_PLAY)
    assert d.tricks_taken == (4, 1, 0, 0) and d.scores == (1, 0)


def test_lone_maker_taking_3_tricks_scores_1() -> None:
    """§12.1: alone and 3-4 tricks score 1."""
    plays = without_seat(MADE3_PLAY, MADE3[2])
    d = run(euchre_deal("euchre", MADE3, "9H", STRONG_KITTY), "order-up alone", "discard QD", *plays)
    assert d.is_over and d.tricks_taken == (3, 2, 0, 0) and d.scores == (1, 0)


def test_march_scores_2_and_lone_march_scores_4() -> None:
    """§12.1: all 5 tricks score 2; alone and all 5 score 4."""
    d = play_out(run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up", "discard 9C"))
    assert d.tricks_taken[0] + d.tricks_taken[2] == 5 and d.scores == (2, 0)
    lone = play_out(run(euchre_deal("euchre", STRONG, "9H", STRONG_KITTY), "order-up alone", "discard 9C"))
    assert lone.tricks_taken == (5, 0, 0, 0) and lone.scores == (4, 0)
    assert lone.result is not None and lone.result.breakdown[0].contract == 4


@pytest.mark.parametrize(("super_euchre", "points"), [(False, 2), (True, 4)])
def test_euchred_makers_give_the_defenders_2_or_4_with_super_euchre(super_euchre: bool, points: int) -> None:
    """§12.1 / §12.3: makers taking < 3 tricks are euchred: defenders 2; super_euchre: no trick at all gives 4."""
    d = run(
        euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, super_euchre=super_euchre), "pass", "order-up", "discard 9C"
    )
    d = play_out(d)
    assert d.tricks_taken[1] + d.tricks_taken[3] == 0
    assert d.scores == (points, 0)


def test_super_euchre_needs_zero_tricks() -> None:
    """§12.3 super_euchre: makers with 1-2 tricks are only euchred (2)."""
    plays = list(MADE3_PLAY)
    d = run(
        euchre_deal("euchre", MADE3, "9H", STRONG_KITTY, super_euchre=True), "pass", "order-up", "discard QD", *plays
    )
    assert d.tricks_taken == (3, 2, 0, 0) and d.maker == 1
    assert d.scores == (2, 0)


@pytest.mark.parametrize(("four", "points"), [(False, 2), (True, 4)])
def test_euchring_a_lone_maker(four: bool, points: int) -> None:
    """§12.1: euchring a lone maker scores 2; option defenders_4_for_euchring_loner scores 4."""
    d = euchre_deal("euchre", STRONG, "9H", STRONG_KITTY, defenders_4_for_euchring_loner=four)
    d = play_out(run(d, "pass", "pass", "pass", "order-up alone", "discard 9C"))
    assert d.sitting_out == (1,) and d.tricks_taken[3] < 3
    assert d.scores == (points, 0)


def test_openspiel_returns_have_no_super_euchre() -> None:
    """§13.4: makers taking no trick lose only 2 (no super-euchre): returns (2, -2, 2, -2) for defenders 0 & 2."""
    d = play_out(
        run(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY), "pass", "order-up", "discard 9C", "pass")
    )
    assert d.tricks_taken[1] + d.tricks_taken[3] == 0
    assert d.scores == (2, 0)
    assert openspiel_returns(d) == (2, -2, 2, -2)


def test_openspiel_lone_march_returns_4() -> None:
    """§13.4: t = 5 with the declarer alone: +4 for the makers."""
    d = play_out(run(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY), "order-up", "discard 9C", "alone"))
    assert openspiel_returns(d) == (4, -4, 4, -4)
    assert openspiel_returns(euchre_deal("euchre-openspiel", STRONG, "9H", STRONG_KITTY)) == (0, 0, 0, 0)


def test_scoring_table_directly() -> None:
    """§12.1 / §12.3 / §13.4: the EuchreScoring table: 1 / 2 / 4, euchred 2, loner 2 (4), lone defender 4, super 4."""
    s = EuchreScoring()
    assert s.points(tricks=3, alone=False, lone_defender=False) == (1, 0)
    assert s.points(tricks=4, alone=True, lone_defender=True) == (1, 0)
    assert s.points(tricks=5, alone=False, lone_defender=False) == (2, 0)
    assert s.points(tricks=5, alone=True, lone_defender=False) == (4, 0)
    assert s.points(tricks=2, alone=True, lone_defender=False) == (0, 2)
    assert s.points(tricks=0, alone=False, lone_defender=False) == (0, 2)
    assert s.points(tricks=1, alone=False, lone_defender=True) == (0, 4)
    assert EuchreScoring(euchred_loner=4).points(tricks=2, alone=True, lone_defender=False) == (0, 4)
    assert EuchreScoring(super_euchre=4).points(tricks=0, alone=False, lone_defender=False) == (0, 4)
    assert EuchreScoring(super_euchre=4).points(tricks=1, alone=False, lone_defender=False) == (0, 2)


# -- the turned Benny -------------------------------------------------------------------------------


def test_turned_benny_dealer_names_the_candidate_suit() -> None:
    """§12.2 benny_turned="dealer_names_candidate": the dealer names the suit first; round one offers it."""
    d = euchre_deal("british-euchre", STRONG, "JK", "9H TH JS")
    assert d.phase is Phase.TRUMP and d.current_player == 3
    assert set(legal(d)) == {"trump S", "trump H", "trump D", "trump C"}
    assert refusal(d, "pass") is RuleCode.WRONG_PHASE
    assert refusal(d, "order-up") is RuleCode.WRONG_PHASE
    d = d.apply("trump D")
    assert d.phase is Phase.BID and d.current_player == 0 and d.trump == -1
    ordered = run(d, "order-up")
    assert ordered.trump == Suit.DIAMONDS.value and ordered.phase is Phase.DISCARD and ordered.current_player == 3
    ordered = ordered.apply("discard 9C")
    assert "JK" in hand_of(ordered, 3)
    second = run(d, "pass", "pass", "pass", "pass")
    assert refusal(second, "call D") is RuleCode.NOT_AN_ACTION
    assert "call H" in legal(second)


def test_turned_benny_dealer_forced_maker() -> None:
    """§12.2 benny_turned="dealer_forced_maker": the named suit is trumps, made by the dealer, who takes the Benny."""
    d = euchre_deal("british-euchre", STRONG, "JK", "9H TH JS", benny_turned="dealer_forced_maker")
    assert d.phase is Phase.TRUMP and d.current_player == 3
    d = d.apply("trump C")
    assert d.trump == Suit.CLUBS.value and d.maker == 3
    assert d.phase is Phase.DISCARD and d.current_player == 3
    d = d.apply("discard 9C")
    assert hand_of(d, 3) == set(codes("JK AC KC QC TC"))
    assert d.phase is Phase.TRICKS and d.current_player == 0


def test_turned_two_of_spades_benny() -> None:
    """§12.2: with benny="two_of_spades" a turned 2S is the Benny: the dealer names a suit."""
    d = euchre_deal("euchre", STRONG, "2S", "9H TH JS", deck_size=25, benny="two_of_spades")
    assert d.phase is Phase.TRUMP and d.current_player == 3


# -- farmer's hand -------------------------------------------------------------------------------------

FARMER = {0: "9S 9H 9D AH KH", 1: "JS JC AS KS KC", 2: "TH TS TD AD KD", 3: "AC QC JD TC 9C"}


def test_farmers_hand_swaps_three_nines_for_the_kitty() -> None:
    """§12.3 farmers_hand="nines_or_tens": three nines are swapped for the three hidden kitty cards before bidding."""
    d = euchre_deal("euchre", FARMER, "QD", "QS QH JH", farmers_hand="nines_or_tens")
    assert d.phase is Phase.DISCARD and d.current_player == 0
    assert legal(d) == ["pass", "discard 9S 9H 9D"]
    assert refusal(d, "order-up") is RuleCode.WRONG_PHASE
    assert refusal(d, "discard 9S") is RuleCode.WRONG_PHASE
    d = d.apply("discard 9S 9H 9D")
    assert [str(a) for _p, a in d.view(1).history] == ["discard 9S 9H 9D"]  # the swap is shown
    assert hand_of(d, 0) == set(codes("QS QH JH AH KH"))
    assert set(kitty(d)) == set(codes("9S 9H 9D"))
    assert d.current_player == 2 and legal(d) == ["pass", "discard TS TH TD"]
    d = d.apply("pass")
    assert d.phase is Phase.BID and d.current_player == 0


def test_a_second_farmers_hand_is_a_misdeal() -> None:
    """§12.3: if two players call a farmer's hand, it is a misdeal: the deal is over with no points."""
    d = run(euchre_deal("euchre", FARMER, "QD", "QS QH JH", farmers_hand="nines_or_tens"), "discard 9S 9H 9D")
    d = d.apply("discard TS TH TD")
    assert d.is_over and d.scores == (0, 0) and d.maker is None


def test_farmers_hand_mixed_accepts_any_three_nines_and_tens() -> None:
    """§12.3 farmers_hand="mixed": any three nines/tens qualify; "nines_or_tens" needs three of one rank."""
    hands = {0: "9S TH 9D AH KH", 1: "QS QH QD QC KD", 2: "JS JC AS KS KC", 3: "AD JD AC JH TS"}
    mixed = euchre_deal("euchre", hands, "9C", "9H TD TC", farmers_hand="mixed")
    assert mixed.phase is Phase.DISCARD and mixed.current_player == 0
    assert legal(mixed) == ["pass", "discard 9S TH 9D"]
    assert mixed.apply("pass").phase is Phase.BID
    strict = euchre_deal("euchre", hands, "9C", "9H TD TC", farmers_hand="nines_or_tens")
    assert strict.phase is Phase.BID and strict.current_player == 0


def test_farmers_hand_is_off_by_default() -> None:
    """presets.md: no farmer's hand unless the option is set: three nines go straight to the bidding."""
    d = euchre_deal("euchre", FARMER, "QD", "QS QH JH")
    assert d.phase is Phase.BID and d.current_player == 0
    assert refusal(d, "discard 9S 9H 9D") is RuleCode.NOT_AN_ACTION


def test_openspiel_profile_has_only_its_two_options() -> None:
    """§13.1 / §13.5: euchre-openspiel: no farmer's hand, no Benny, 24 cards; only OpenSpiel's two parameters."""
    rules = get_rules("euchre-openspiel")
    assert rules.deck.size == 24
    assert dict(rules.options) == {"allow_lone_defender": False, "stick_the_dealer": True}
    for bad in ({"farmers_hand": "mixed"}, {"deck_size": 25}, {"super_euchre": True}):
        with pytest.raises(OptionError):
            get_rules("euchre-openspiel", **bad)


# -- games and the tournament -------------------------------------------------------------------------


def lone_march_deck(dealer: int, seat: int = 0, preset: str = "euchre") -> list[str]:
    """A 24-card deck where ``seat`` holds the five best hearts and the turn-up is 9H."""
    hands = {seat: STRONG[0], (seat + 1) % 4: STRONG[1]}
    return stack(preset, hands, turn_up="9H", kitty=STRONG_KITTY, dealer=dealer, options={"deck_size": 24})


def play_lone_march(g: GameState, seat: int = 0) -> GameState:
    """Pass until ``seat`` bids, who orders up alone; play the deal out with the first legal actions."""
    number = g.deal_number
    while g.current_player != seat:
        g = g.apply("pass")
    g = g.apply("order-up alone")
    while not g.is_over and g.deal_number == number:
        g = g.apply(g.legal_actions()[0])
    return g


@pytest.mark.parametrize(("target", "deals"), [(5, 2), (10, 3), (11, 3), (21, 6)])
def test_game_to_target(target: int, deals: int) -> None:
    """§12.1 / §12.2: games to 5, 10, 11 and 21: a lone march is 4, so the game ends on the deal that reaches it."""
    decks = [lone_march_deck((3 + k) % 4, seat=2 * (k % 2)) for k in range(deals)]
    g = new_game("euchre", seed=3, decks=decks, target=target)
    assert g.target == target
    for k in range(deals):
        assert not g.is_over and g.deal.dealer == (3 + k) % 4
        g = play_lone_march(g, seat=2 * (k % 2))
    assert g.is_over and g.winner == 0
    assert g.scores == (4 * deals, 0)
    assert g.deal_number == deals


def test_default_targets() -> None:
    """presets.md: euchre plays to 10, british-euchre to 5 (TargetEnd)."""
    assert get_rules("euchre").game_end == TargetEnd(10, "play_on")
    assert get_rules("british-euchre").game_end == TargetEnd(5, "play_on")
    assert get_rules("british-euchre", match="tournament").game_end == GamesMatchEnd(21, 2)


def test_tournament_rule_decides_games_and_the_match() -> None:
    """§12.2 tournament: first side to win two games to 21; totals restart after each game; ties play on."""
    rule = GamesMatchEnd(21, 2)
    going = rule.decide(Standing((20, 18), 5, 21, (0, 0)))
    assert not going.over and going.totals is None
    first = rule.decide(Standing((22, 9), 6, 21, (0, 0)))
    assert not first.over and first.totals == (0, 0) and first.game_wins == (1, 0)
    tie = rule.decide(Standing((21, 21), 9, 21, (1, 0)))
    assert not tie.over and tie.totals is None
    other = rule.decide(Standing((13, 23), 9, 21, (1, 0)))
    assert not other.over and other.totals == (0, 0) and other.game_wins == (1, 1)
    won = rule.decide(Standing((21, 19), 12, 21, (1, 1)))
    assert won.over and won.winner == 0 and won.game_wins == (2, 1)


def test_tournament_match_full_game() -> None:
    """§12.2 tournament (match="tournament"): side 0 wins two games to 21 with lone marches (6 deals each)."""
    decks = [lone_march_deck((3 + k) % 4, preset="british-euchre") for k in range(12)]
    g = new_game("british-euchre", seed=4, decks=decks, match="tournament", deck_size=24)
    for k in range(12):
        assert not g.is_over
        g = play_lone_march(g)
        if k == 5:
            assert g.game_wins == (1, 0) and g.totals == (0, 0) and not g.is_over
    assert g.is_over and g.winner == 0 and g.game_wins == (2, 0)
    assert [r.scores for r in g.results] == [(4, 0)] * 12


# -- seed 004: a turned Benny is named unseen; taking over a dealer who declined the exchange ----------------

BENNY_HANDS = {0: "JH JD AH KH QH", 1: "AS KS QS TS 9S", 2: "AD KD QD TD 9D", 3: "AC KC QC TC 9C"}


@pytest.mark.parametrize("benny_turned", ["dealer_names_candidate", "dealer_forced_maker"])
def test_seed_004_the_dealer_names_the_suit_of_a_turned_benny_before_looking(benny_turned: str) -> None:
    """Seed 004 (deal): a turned Benny: the dealer names the suit BEFORE looking at his hand, so his view at
    that decision shows no card (the others see their own hands; everyone counts his five cards)."""
    d = euchre_deal("british-euchre", BENNY_HANDS, "JK", benny_turned=benny_turned)
    assert d.phase is Phase.TRUMP and d.current_player == 3
    blind = d.view(3)
    assert list(blind.hand) == [] and blind.hand_sizes == (5, 5, 5, 5)
    assert {str(c) for c in d.view(0).hand} == set(codes(BENNY_HANDS[0]))
    assert legal(d) == ["trump S", "trump H", "trump D", "trump C"]
    named = d.apply("trump C")
    assert {str(c) for c in named.view(3).hand} == set(codes(BENNY_HANDS[3]))  # now he looks


def test_seed_004_determinize_does_not_assume_the_dealer_saw_his_cards() -> None:
    """Seed 004 (deal): from the dealer's view while he names a suit for a turned Benny, determinize deals his
    own five cards at random with the others (the Benny stays turned up); each guess replays and views alike."""
    d = euchre_deal("british-euchre", BENNY_HANDS, "JK")
    seen = d.view(3)
    hands = set()
    for i in range(30):
        guess = determinize(seen, random.Random(i))
        assert isinstance(guess, EuchreDeal)
        assert guess.view(3) == seen and replay(record_of(guess)) == guess
        assert str(guess.rules.deck.card(guess.turn_up)) == "JK"
        hands.add(frozenset(hand_of(guess, 3)))
    assert len(hands) > 20  # not his real hand every time


def test_seed_004_a_dealer_who_saw_a_farmers_hand_sees_his_cards_at_the_benny() -> None:
    """Seed 004 with the farmer's-hand house rule (asked first): a dealer asked about his farmer's hand has
    looked at his cards, so his view while naming the Benny's suit shows them."""
    hands = {0: "AH KH QH AS KS", 1: "AD KD QD AC KC", 2: "JS JH JD JC QS", 3: "9S 9H 9D TC QC"}
    d = euchre_deal("british-euchre", hands, "JK", farmers_hand="nines_or_tens")
    assert d.phase is Phase.DISCARD and d.current_player == 3
    d = d.apply("pass")
    assert d.phase is Phase.TRUMP and {str(c) for c in d.view(3).hand} == set(codes(hands[3]))


def test_seed_004_partner_takes_over_when_the_lone_dealer_declines_the_exchange() -> None:
    """Seed 004 (note 3): the partner of a maker who declared "down" may play alone instead, except when the
    maker is the dealer who has already exchanged: a dealer who orders up alone decides on the exchange first,
    and declining it lets his partner take over (the dealer sits out; the lone player's left leads)."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "pass", "pass", "pass", "order-up alone")
    assert d.phase is Phase.DISCARD and d.current_player == 3 and d.sitting_out == (1,)
    declined = d.apply("pass")
    assert declined.phase is Phase.ALONE and declined.current_player == 1
    assert legal(declined) == ["pass", "alone"]
    over = declined.apply("alone")
    assert over.sitting_out == (3,) and over.view(0).alone == 1 and over.maker == 3
    while over.phase is Phase.ALONE:  # the defenders decline to defend alone
        over = over.apply("pass")
    assert over.phase is Phase.TRICKS and over.current_player == 2  # left of the lone player 1
    kept = run(declined, "pass")
    assert kept.sitting_out == (1,) and kept.view(0).alone == 3


def test_seed_004_no_takeover_once_the_lone_dealer_took_the_turned_card() -> None:
    """Seed 004 (note 3): a lone dealer who took the turned card keeps his lone hand: his partner is not asked."""
    d = run(euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY), "pass", "pass", "pass", "order-up alone")
    took = d.apply("discard 9C")
    assert took.sitting_out == (1,)
    while took.phase is Phase.ALONE:  # only the defenders are asked
        assert took.current_player in (0, 2)
        took = took.apply("pass")
    assert took.phase is Phase.TRICKS and took.sitting_out == (1,)


def test_version_1_takeover_rule_reads_the_records_of_version_1() -> None:
    """british-euchre version 2 (seed 004 take-over); version 1's records say partner_takeover=true, which
    still means version 1's rule (no take-over whenever the dealer made trumps in round one), so they replay."""
    assert get_rules("british-euchre").version == 2 and get_rules("euchre").version == 1
    seed_004 = get_rules("british-euchre").bidding
    version_1 = get_rules("british-euchre", partner_takeover=True).bidding
    assert isinstance(seed_004, OrderUp) and isinstance(version_1, OrderUp)
    assert seed_004.partner_takeover == "unless_dealer_took_turn_up"
    assert version_1.partner_takeover == "unless_dealer_made_in_round_one"
    old = run(
        euchre_deal("british-euchre", STRONG, "9H", STRONG_KITTY, partner_takeover=True),
        "pass", "pass", "pass", "order-up alone", "pass",
    )  # fmt: skip
    assert old.phase is not Phase.ALONE or old.current_player != 1  # nobody asks the partner
    old = play_out(old)
    record = record_of(old)
    assert record["options"]["partner_takeover"] is True
    assert replay(record) == old
    record["options"]["partner_takeover"] = "unless_dealer_took_turn_up"
    with pytest.raises(RecordError) as info:
        replay(record)  # the same actions under the seed-004 rule: the partner answers the defenders' first pass,
    assert info.value.step == 8  # so the first card comes while the last defender is still asked
