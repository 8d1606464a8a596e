"""Rulebook scenarios for the Pinochle presets on stacked decks (reference.md §8-§11, §15.1).

Every test builds its deck with `scenario.stack` (naming only the cards
that matter; the deal patterns are written out there from presets.md), drives
the deal with notation strings, and checks scores, the breakdown, the phase, the
legal actions, views and the `RuleCode` of refusals.

Two-hand ``pinochle`` (§8): dealer 1, so player 0 leads trick 1; the turn-up
names trumps (mostly KH or TH: hearts); player 0 wins a trick by leading a plain
ten that player 1 answers with a card of another plain suit.

Auction games (§9-§11): the default dealer is the last seat, so player 0 bids
first and (as declarer) leads.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from bezique_rules import (
    Card,
    CardSet,
    DealState,
    GameState,
    NotationError,
    Phase,
    RuleCode,
    ScoreBreakdown,
    Suit,
    TargetEnd,
    determinize,
    get_rules,
    new_deal,
    new_game,
    record_of,
    replay,
)
from bezique_rules.engine.auction import AuctionDeal
from bezique_rules.engine.stock import StockDeal
from bezique_rules.parts.auction import ContractScoring
from bezique_rules.parts.scoring import DealsEnd, Standing
from bezique_rules.parts.tricks import PlayDuty, TrickPolicy
from scenario import (
    auction_deal,
    codes,
    dull_action,
    legal,
    pinochle_deal,
    play_out,
    play_until,
    refusal,
    run,
    stack,
    stock_deal,
)

CLASSIC = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
TENS = {"A": 10, "T": 10, "K": 10}
FIVES = {"A": 10, "T": 10, "K": 5, "Q": 5}
DOUBLE_DECK = {"A": 1, "T": 1, "K": 1}
HEARTS = "AH AH TH TH KH KH QH QH JH JH 9H 9H"
"""Every heart of the 48-card deck."""


def hand(state: DealState, player: int) -> CardSet:
    """Every card ``player`` holds."""
    return state.view(player).hand


def counters(cards: Iterable[Card], values: dict[str, int]) -> int:
    """The card points of ``cards`` by rank letter, counted independently of the engine."""
    return sum(values.get(c.rank.code, 0) for c in cards)


def rounded_7_up(points: int) -> int:
    """Card points counted in tens, a remainder of 7, 8 or 9 counting as another ten (§8.5)."""
    tens, rest = divmod(points, 10)
    return (tens + (1 if rest >= 7 else 0)) * 10


def auction_to_tricks(
    state: AuctionDeal, bids: str, trump: str, bury: str = "", melds: str = "meld best"
) -> AuctionDeal:
    """Drive an auction deal through the bidding (``bids``), the widow (turned up with ``pass`` at
    the minimum), naming ``trump``, the melds (``melds`` for every melder) and the burial."""
    s: AuctionDeal = run(state, bids)
    if s.phase is Phase.TRUMP and "pass" in legal(s):  # at the minimum: turn the widow up
        s = run(s, "pass")
    s = run(s, f"trump {trump}")
    while s.phase is Phase.MELD:
        s = run(s, melds)
    if bury:
        s = run(s, f"discard {bury}")
    return s


# =====================================================================================
# §8 two-hand Pinochle
# =====================================================================================

# §8.1 the deal -------------------------------------------------------------------------


def test_two_hand_deal_in_fours_turn_up_and_stock() -> None:
    """§8.1/presets: 48 cards, 12 each dealt 4 at a time from the non-dealer; the 25th turned up; 23 in stock."""
    p0, p1 = "AS TS KS QS JS 9S AH TH KH QH JH 9H", "AD TD KD QD JD 9D AC TC KC QC JC 9C"
    deck = stack("pinochle", {0: p0, 1: p1}, turn_up="TH")
    assert len(deck) == 48 and deck[24] == "TH"
    assert deck[0:4] == codes("AS TS KS QS") and deck[4:8] == codes("AD TD KD QD")
    assert deck[8:12] == codes("JS 9S AH TH") and deck[12:16] == codes("JD 9D AC TC")
    assert deck[16:20] == codes("KH QH JH 9H") and deck[20:24] == codes("KC QC JC 9C")
    s = stock_deal(new_deal("pinochle", deck=deck))
    assert hand(s, 0) == CardSet.of(p0) and hand(s, 1) == CardSet.of(p1)
    view = s.view(1)
    assert view.trump is Suit.HEARTS and view.turn_up == Card.parse("TH") and view.stock_size == 23
    assert s.current_player == 0 and s.phase is Phase.PLAY and s.scores == (0, 0)
    other = stock_deal(new_deal("pinochle", deck=deck, dealer=0))
    assert hand(other, 1) == CardSet.of(p0) and other.current_player == 1


def test_stock_phase_play_is_free() -> None:
    """§1.3/§8: in the stock phase any card may follow; the trick winner leads next."""
    s = run(pinochle_deal("TS", "JC", turn_up="KH"), "play TS")
    assert len(legal(s)) == len(set(hand(s, 1)))
    assert run(s, "play JC").current_player == 0


# §8.2 the dix ----------------------------------------------------------------------------


def test_turned_up_dix_scores_10_for_the_dealer() -> None:
    """§8.2: a nine of trumps turned up scores 10 for the dealer at once."""
    s = pinochle_deal(turn_up="9H")
    assert s.scores == (0, 10) and s.breakdown[1] == ScoreBreakdown(seven=10)
    assert pinochle_deal(turn_up="9H", dealer=0).scores == (10, 0)
    assert pinochle_deal(turn_up="TH").scores == (0, 0)


def test_dix_exchanged_after_a_won_trick() -> None:
    """§8.2: after winning a trick the dix is exchanged for the turn-up: +10, the turn-up seen in hand."""
    s = run(pinochle_deal("9H TS", "JC", turn_up="KH"), "play TS; play JC")
    assert s.phase is Phase.DECLARE and s.current_player == 0
    assert legal(s) == ["exchange 9H", "declare 9H", "pass"]
    s = run(s, "exchange 9H")
    assert s.scores == (10, 0) and s.breakdown[0] == ScoreBreakdown(seven=10)
    assert s.view(1).turn_up == Card.parse("9H") and Card.parse("KH") in s.view(1).known[0]
    assert Card.parse("9H") not in hand(s, 0) and Card.parse("KH") in hand(s, 0)
    assert s.phase is Phase.PLAY and s.view(0).stock_size == 21


def test_dix_declared_without_exchange() -> None:
    """§8.2: the dix may instead be shown for 10; the turn-up stays, the dix is seen by the opponent."""
    s = run(pinochle_deal("9H TS", "JC", turn_up="KH"), "play TS; play JC; declare 9H")
    assert s.scores == (10, 0) and s.view(0).turn_up == Card.parse("KH")
    assert Card.parse("9H") in s.view(1).known[0] and Card.parse("9H") in hand(s, 0)


def test_dix_never_scores_by_playing_it() -> None:
    """§8.2 / presets: the dix scores by showing it after a won trick, never by playing it (win or lose)."""
    s = run(pinochle_deal("9H TS", "JC", turn_up="KH"), "play 9H; play JC")  # the dix wins the trick
    assert s.scores == (0, 0) and s.current_player == 0
    s = run(pinochle_deal("9H", "AH", turn_up="KH"), "play 9H; play AH")  # the dix loses the trick
    assert s.scores == (0, 0) and s.current_player == 1


def test_dix_score_on_play_option() -> None:
    """Seed 000 (Bezique's seven rules with the nine), dix_score_on_play=True: an unscored dix played in the
    stock phase scores 10, win or lose; once, and not again after it was shown."""
    s = run(pinochle_deal("9H TS", "JC", turn_up="KH", dix_score_on_play=True), "play 9H; play JC")  # the dix wins
    assert s.scores == (10, 0) and s.breakdown[0] == ScoreBreakdown(seven=10)
    s = run(pinochle_deal("9H", "AH", turn_up="KH", dix_score_on_play=True), "play 9H; play AH")  # the dix loses
    assert s.scores == (10, 0) and s.current_player == 1
    s = run(pinochle_deal("9H TS QS", "JC AC", turn_up="KH", dix_score_on_play=True), "play TS; play JC; declare 9H")
    s = run(s, "play 9H; play AC")  # shown already: playing it scores nothing more
    assert s.scores == (10, 0)


def test_dix_only_after_a_won_trick_and_once() -> None:
    """§8.2: no dix action without a won trick (NO_DECLARATION_NOW); a scored dix never scores again."""
    s = pinochle_deal("9H TS AS QS JD", "JC QC", turn_up="KH")
    assert refusal(s, "declare 9H") is RuleCode.NO_DECLARATION_NOW
    s = run(s, "play TS; play JC; declare 9H")
    assert s.phase is Phase.DECLARE and legal(s) == ["meld pinochle QS JD", "pass"]
    s = run(s, "pass; play AS; play QC")
    assert legal(s) == ["meld pinochle QS JD", "pass"]
    assert refusal(s, "declare 9H") is RuleCode.SEVEN_ALREADY_SCORED
    assert s.scores == (10, 0)


def test_second_dix_is_declared_when_the_turn_up_is_a_nine() -> None:
    """§8.2: after an exchange the turn-up is a nine: the other dix can only be shown (+10), not exchanged."""
    s = run(pinochle_deal("9H 9H TS AS", "JC QC", turn_up="KH"), "play TS; play JC")
    s = run(s, "exchange 9H")
    assert refusal(s, "declare 9H") is RuleCode.NO_DECLARATION_NOW
    s = run(s, "play AS; play QC")
    assert legal(s) == ["declare 9H", "pass"]
    assert refusal(s, "exchange 9H") is RuleCode.SEVEN_NOT_ALLOWED
    assert run(s, "declare 9H").scores == (20, 0)


def test_dix_turned_up_the_other_is_only_declared() -> None:
    """§8.2: with the dix turned up (10 to the dealer) the other dix is shown for 10, never exchanged."""
    s = run(pinochle_deal("9H TS", "JC", turn_up="9H"), "play TS; play JC")
    assert legal(s) == ["declare 9H", "pass"]
    assert refusal(s, "exchange 9H") is RuleCode.SEVEN_NOT_ALLOWED
    assert run(s, "declare 9H").scores == (10, 10)


def test_one_dix_action_per_trick() -> None:
    """§8.2 (Bezique's seven rules): one dix action per trick (SEVEN_NOT_ALLOWED); the second waits."""
    s = run(pinochle_deal("9H 9H TS AS QS JD", "JC QC", turn_up="KH"), "play TS; play JC; declare 9H")
    assert s.phase is Phase.DECLARE and legal(s) == ["meld pinochle QS JD", "pass"]
    assert refusal(s, "declare 9H") is RuleCode.SEVEN_NOT_ALLOWED
    s = run(s, "pass; play AS; play QC")
    assert "declare 9H" in legal(s)  # the other dix, on the next won trick
    assert run(s, "declare 9H").scores == (20, 0)


def test_exchange_and_a_meld_on_the_same_trick() -> None:
    """§8.2: the dix holder may exchange and make another meld on the same trick."""
    s = run(pinochle_deal("9H TS QS JD", "JC", turn_up="KH"), "play TS; play JC")
    assert legal(s) == ["meld pinochle QS JD", "exchange 9H", "declare 9H", "pass"]
    s = run(s, "exchange 9H")
    assert s.phase is Phase.DECLARE and legal(s) == ["meld pinochle QS JD", "pass"]
    s = run(s, "meld pinochle QS JD")
    assert s.scores == (50, 0) and s.phase is Phase.PLAY


def test_dix_methods_exchange_only() -> None:
    """§15.1 dix_methods="exchange_only": while an exchange is possible, declaring the dix is refused."""
    s = run(pinochle_deal("9H TS", "JC", turn_up="KH", dix_methods="exchange_only"), "play TS; play JC")
    assert legal(s) == ["exchange 9H", "pass"]
    assert refusal(s, "declare 9H") is RuleCode.SEVEN_NOT_ALLOWED
    s = run(pinochle_deal("9H TS", "JC", turn_up="9H", dix_methods="exchange_only"), "play TS; play JC")
    assert legal(s) == ["declare 9H", "pass"]  # no exchange possible: the dix is shown


def test_dix_methods_score_only() -> None:
    """§15.1 dix_methods="score_only": the dix is only shown, never exchanged (no such action)."""
    s = run(pinochle_deal("9H TS", "JC", turn_up="KH", dix_methods="score_only"), "play TS; play JC")
    assert legal(s) == ["declare 9H", "pass"]
    assert refusal(s, "exchange 9H") is RuleCode.NOT_AN_ACTION
    s = run(s, "declare 9H")
    assert s.scores == (10, 0) and s.view(0).turn_up == Card.parse("KH")


# §8.3 the American meld table and its reuse rules ------------------------------------------


def test_american_meld_table_values() -> None:
    """§8.3: flush 150, royal marriage 40, marriage 20, arounds 100/80/60/40, pinochle 40 (no dix meld)."""
    table = {k.name: k.points for k in get_rules("pinochle", double_pinochle="none").melds.kinds}
    assert table == {
        "common-marriage": 20,
        "royal-marriage": 40,
        "flush": 150,
        "aces-around": 100,
        "kings-around": 80,
        "queens-around": 60,
        "jacks-around": 40,
        "pinochle": 40,
    }
    with_double = {k.name: k.points for k in get_rules("pinochle", double_pinochle=300).melds.kinds}
    assert with_double == {**table, "double-pinochle": 300}


def test_default_two_hand_table_has_double_pinochle_300() -> None:
    """presets.md: the pinochle preset's default table has the double pinochle at 300."""
    assert get_rules("pinochle").options["double_pinochle"] == 300
    s = run(pinochle_deal("QS QS JD JD TS", "9C", turn_up="TH"), "play TS; play 9C")
    assert run(s, "meld double-pinochle QS QS JD JD").scores == (300, 0)


def test_royal_marriage_then_flush_totals_190() -> None:
    """§8.3: a royal marriage (40), later A T J added to it as a flush (150): 190."""
    s = pinochle_deal("KH QH AH TH JH 9S 9D TS TD", "JC JC", turn_up="KH")
    s = run(s, "play TS; play JC")
    assert "meld royal-marriage KH QH" in legal(s) and "meld flush AH TH KH QH JH" in legal(s)
    s = run(s, "meld royal-marriage KH QH")
    assert s.scores == (40, 0)
    s = run(s, "play TD; play JC")
    assert "meld flush AH TH KH* QH* JH" in legal(s)
    s = run(s, "meld flush AH TH KH* QH* JH")
    assert s.scores == (190, 0) and s.breakdown[0] == ScoreBreakdown(melds=190)
    assert [(m.kind, m.points) for m in s.view(1).melds] == [("royal-marriage", 40), ("flush", 150)]


def test_no_royal_marriage_from_a_declared_flush() -> None:
    """§8.3 reuse (R4): after a flush its K-Q is not a royal marriage (MELD_DOWNGRADE); a fresh K-Q is."""
    s = pinochle_deal("KH QH AH TH JH 9S 9D TS TD", "JC JC", turn_up="KH")
    s = run(s, "play TS; play JC; meld flush AH TH KH QH JH")
    assert s.scores == (150, 0)
    s = run(s, "play TD; play JC")
    assert s.phase is Phase.PLAY  # nothing to declare: the K-Q of the flush make no marriage
    s = pinochle_deal("KH QH AH TH JH KH 9D TS TD", "JC JC", turn_up="JH", stock="QH")
    s = run(s, "play TS; play JC; meld flush AH TH KH QH JH; play TD; play JC")
    assert legal(s) == ["meld royal-marriage KH QH", "pass"]  # the second K-Q, both from the hand
    assert refusal(s, "meld royal-marriage KH* QH") is RuleCode.MELD_DOWNGRADE
    assert refusal(s, "meld royal-marriage KH* QH*") in {RuleCode.MELD_DOWNGRADE, RuleCode.MELD_NEEDS_NEW_CARD}
    assert run(s, "meld royal-marriage KH QH").scores == (190, 0)


def test_each_meld_needs_a_card_from_the_hand() -> None:
    """§8.3: at least one new card from the hand for each meld: a marriage of two tabled cards is refused."""
    s = pinochle_deal("KS KH KD KC QS QH QD QC JD TS TD TC", "9C 9C 9D", turn_up="TH")
    s = run(s, "play TS; play 9C; meld kings-around KS KH KD KC")
    s = run(s, "play TD; play 9C; meld queens-around QS QH QD QC")
    s = run(s, "play TC; play 9D")
    assert "meld pinochle QS* JD" in legal(s)
    assert refusal(s, "meld common-marriage KS* QS*") is RuleCode.MELD_NEEDS_NEW_CARD
    assert refusal(s, "meld royal-marriage KH* QH*") is RuleCode.MELD_NEEDS_NEW_CARD
    assert run(s, "meld pinochle QS* JD").scores == (180, 0)


def test_arounds_need_one_of_each_suit() -> None:
    """§8.3: 80 kings is one king of each suit: four kings with two spades is no meld of the American table."""
    s = run(pinochle_deal("KS KS KH KD KC TS", "JC", turn_up="TH"), "play TS; play JC")
    assert "meld kings-around KS KH KD KC" in legal(s)
    assert refusal(s, "meld kings-around KS KS KD KC") is RuleCode.NOT_AN_ACTION
    assert run(s, "meld kings-around KS KH KD KC").scores == (80, 0)


def test_around_values() -> None:
    """§8.3: aces around 100, kings 80, queens 60, jacks 40."""
    for rank, points in (("A", 100), ("K", 80), ("Q", 60), ("J", 40)):
        four = " ".join(rank + s for s in "SHDC")
        s = run(pinochle_deal(f"{four} TS", "9C", turn_up="TH"), "play TS; play 9C")
        name = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}[rank]
        assert run(s, f"meld {name}-around {four}").scores == (points, 0)


def test_a_king_serves_in_a_marriage_and_kings_around_but_not_twice_in_arounds() -> None:
    """§8.3: a melded card may be melded again in another class; never twice in the same kind."""
    s = pinochle_deal("KS QS KH KD KC KS KH KD KC TS TD TC", "9C 9C 9D", turn_up="TH")
    s = run(s, "play TS; play 9C; meld common-marriage KS QS")
    s = run(s, "play TD; play 9C")
    assert "meld kings-around KS* KH KD KC" in legal(s)
    s = run(s, "meld kings-around KS* KH KD KC")
    assert s.scores == (100, 0)
    s = run(s, "play TC; play 9D")
    # the second copies of the four kings make a fresh 80 kings, but no king of the first may be reused
    assert "meld kings-around KS KH KD KC" in legal(s)
    assert refusal(s, "meld kings-around KS KH* KD* KC*") is RuleCode.MELD_CARD_REUSED
    assert run(s, "meld kings-around KS KH KD KC").scores == (180, 0)


def test_pinochle_and_queens_around_share_the_queen_of_spades() -> None:
    """§8.3: pinochle (Q♠ J♦) 40 and queens around 60 are different classes: Q♠ serves in both."""
    s = pinochle_deal("QS JD QH QD QC TS TD", "9C 9C", turn_up="TH")
    s = run(s, "play TS; play 9C; meld pinochle QS JD; play TD; play 9C")
    assert "meld queens-around QS* QH QD QC" in legal(s)
    assert run(s, "meld queens-around QS* QH QD QC").scores == (100, 0)


@pytest.mark.parametrize("value", [80, 300])
def test_double_pinochle_option(value: int) -> None:
    """§8.3/§15.1 double_pinochle=80|300: the double pinochle scores it, after a single pinochle too."""
    s = run(pinochle_deal("QS QS JD JD TS TD", "9C 9C", turn_up="TH", double_pinochle=value), "play TS; play 9C")
    assert "meld double-pinochle QS QS JD JD" in legal(s)
    assert run(s, "meld double-pinochle QS QS JD JD").scores == (value, 0)
    s = run(s, "meld pinochle QS JD; play TD; play 9C")
    assert "meld double-pinochle QS QS* JD JD*" in legal(s)
    assert run(s, "meld double-pinochle QS QS* JD JD*").scores == (40 + value, 0)


def test_meld_table_bezique() -> None:
    """§8.3/§15.1 meld_table="bezique" (seed 000): sequence 250, double pinochle 500, any four of a rank."""
    rules = get_rules("pinochle", meld_table="bezique")
    table = {k.name: k.points for k in rules.melds.kinds}
    assert table["sequence"] == 250 and table["pinochle"] == 40 and table["double-pinochle"] == 500
    assert table["four-kings"] == 80 and "flush" not in table
    s = run(pinochle_deal("KS KS KD KC TS", "9C", turn_up="TH", meld_table="bezique"), "play TS; play 9C")
    assert "meld four-kings KS KS KD KC" in legal(s)
    assert run(s, "meld four-kings KS KS KD KC").scores == (80, 0)
    s = run(pinochle_deal("AH TH KH QH JH TS", "9C", turn_up="KH", meld_table="bezique"), "play TS; play 9C")
    assert run(s, "meld sequence AH TH KH QH JH").scores == (250, 0)
    s = run(pinochle_deal("QS QS JD JD TS", "9C", turn_up="TH", meld_table="bezique"), "play TS; play 9C")
    assert run(s, "meld double-pinochle QS QS JD JD").scores == (500, 0)


def test_one_meld_per_trick() -> None:
    """§8.3: one meld per trick won (MELD_LIMIT); the dix may still be shown on that trick."""
    s = run(pinochle_deal("QS JD KS 9H TS", "9C", turn_up="KH"), "play TS; play 9C; meld pinochle QS JD")
    assert s.phase is Phase.DECLARE and legal(s) == ["exchange 9H", "declare 9H", "pass"]
    assert refusal(s, "meld common-marriage KS QS") is RuleCode.MELD_LIMIT


# §8.4 end of the stock and the play-off ----------------------------------------------------

PLAYOFF_KEEP = {0: "KS QH TD JS JS 9C 9C QD QD JC JC", 1: "AS 9S KH 9H TC TC AC AC KC KC QC"}
"""Cards each player keeps for the play-off (the dull play spends every other card first)."""


def _playoff(**options: Any) -> StockDeal:
    """A deal played to the play-off: player 0 wins the 12th trick and takes QS, player 1 the turn-up JH."""
    s = pinochle_deal(PLAYOFF_KEEP[0] + " 9D", PLAYOFF_KEEP[1] + " 9D", turn_up="JH", bottom="QS", **options)
    s = play_until(s, 12, PLAYOFF_KEEP)
    assert s.phase is Phase.PLAYOFF and s.current_player == 0
    assert hand(s, 0) == CardSet.of("KS QS JS JS QH TD QD QD JC JC 9C 9C")
    assert hand(s, 1) == CardSet.of("AS 9S KH JH 9H AC AC TC TC KC KC QC")
    return s


def test_last_face_down_card_is_shown() -> None:
    """§8.4: the winner of the 12th trick draws the last face-down card and shows it; the loser takes the turn-up."""
    s = _playoff()
    assert s.view(1).known[0] == CardSet.of("QS") and s.view(0).known[1] == CardSet.of("JH")
    assert s.view(0).turn_up is None and s.view(0).stock_size == 0


def test_last_face_down_card_hidden_with_show_last_card_off() -> None:
    """§8.4 show_last_card=False: the last face-down card stays unknown to the opponent."""
    s = _playoff(show_last_card=False)
    assert s.view(1).known[0] == CardSet.of("") and s.view(0).known[1] == CardSet.of("JH")


def test_melds_on_the_12th_trick() -> None:
    """§8.4: the winner of the 12th trick may still meld before drawing the last card."""
    keep = {0: "QS JD", 1: "QS JD"}
    s = play_until(pinochle_deal("QS JD 9D", "QS JD 9D", turn_up="JH"), 11, keep)
    s = s.apply(dull_action(s, keep))
    s = s.apply(dull_action(s, keep))
    assert s.tricks == 12 and s.phase is Phase.DECLARE
    assert "meld pinochle QS JD" in legal(s)
    s = run(s, "meld pinochle QS JD")
    assert s.phase is Phase.PLAYOFF


def test_playoff_returns_melds_to_hand_and_allows_no_declarations() -> None:
    """§1.3/§8.4: in the play-off melded cards go back to the hand and no more declarations are made."""
    keep = {0: "QS JD", 1: ""}
    s = pinochle_deal("QS JD TS", "9C", turn_up="JH")
    s = run(s, "play TS; play 9C; meld pinochle QS JD")
    assert s.view(0).tabled[0] == CardSet.of("QS JD")
    s = play_until(s, 12, keep)
    assert s.phase is Phase.PLAYOFF and s.view(0).tabled == (CardSet.of(""), CardSet.of(""))
    assert all(a.verb.value == "play" for a in s.legal_actions())
    assert hand(s, 0).count(Card.parse("QS")) >= 1 and Card.parse("JD") in hand(s, 0)
    assert refusal(s, "meld pinochle QS JD") in {RuleCode.NO_DECLARATION_NOW, RuleCode.WRONG_PHASE}
    while not s.is_over:  # no trick of the play-off opens a declaration
        s = s.apply(dull_action(s, keep))
        assert s.phase in (Phase.PLAYOFF, Phase.OVER)


def test_playoff_plain_lead_need_not_be_beaten() -> None:
    """§8.4/§1.4c: follow suit, but no duty to beat a plain-suit lead (MUST_FOLLOW_SUIT otherwise)."""
    s = run(_playoff(), "play KS")
    assert legal(s) == ["play AS", "play 9S"]
    assert refusal(s, "play KH") is RuleCode.MUST_FOLLOW_SUIT


def test_playoff_trump_lead_must_be_beaten() -> None:
    """§8.4/§1.4c: when trumps are led the follower must win if able (MUST_BEAT)."""
    s = run(_playoff(), "play QH")
    assert legal(s) == ["play KH"]
    assert refusal(s, "play 9H") is RuleCode.MUST_BEAT
    assert refusal(s, "play AS") is RuleCode.MUST_FOLLOW_SUIT


def test_playoff_void_must_trump() -> None:
    """§8.4/§1.4c: void in the suit led, the follower must trump (MUST_TRUMP)."""
    s = run(_playoff(), "play TD")
    assert legal(s) == ["play KH", "play JH", "play 9H"]
    assert refusal(s, "play AC") is RuleCode.MUST_TRUMP


def test_playoff_rule_follow_beat_or_trump() -> None:
    """§15.1 playoff_rule="follow_beat_or_trump": a plain-suit lead must be beaten too (Bezique's rule)."""
    s = run(_playoff(playoff_rule="follow_beat_or_trump"), "play KS")
    assert legal(s) == ["play AS"]
    assert refusal(s, "play 9S") is RuleCode.MUST_BEAT


# §8.5 counting -------------------------------------------------------------------------------


@pytest.mark.parametrize(("counting", "values"), [("classic", CLASSIC), ("tens", TENS), ("fives", FIVES)])
def test_counting_systems_total_250(counting: str, values: dict[str, int]) -> None:
    """§8.5: counters won (classic 11/10/4/3/2, tens, fives) plus 10 for the last trick total 250."""
    s = play_out(pinochle_deal(turn_up="KH", counting=counting))
    for p in (0, 1):
        assert s.breakdown[p].cards == counters(s.view(p).won[p], values)
    assert [b.last_trick for b in s.breakdown] == [10 if p == s.leader else 0 for p in (0, 1)]
    assert sum(b.cards + b.last_trick for b in s.breakdown) == 250


@pytest.mark.parametrize(("turn_up", "raw", "counted"), [("KH", (207, 33), (210, 30)), ("QD", (114, 126), (110, 120))])
def test_round_7_up(turn_up: str, raw: tuple[int, int], counted: tuple[int, int]) -> None:
    """§8.5 round_7_up: card points count in tens, a remainder of 7-9 is another ten, 1-6 is dropped."""
    plain = play_out(pinochle_deal(turn_up=turn_up))
    assert tuple(b.cards for b in plain.breakdown) == raw
    s = play_out(pinochle_deal(turn_up=turn_up, round_7_up=True))
    assert tuple(b.cards for b in s.breakdown) == counted == tuple(rounded_7_up(r) for r in raw)
    assert [b.last_trick for b in s.breakdown] == [b.last_trick for b in plain.breakdown]


def test_game_to_1000() -> None:
    """§8.5: the game is 1000, checked at the end of a deal; the higher total wins; equal totals draw."""
    end = get_rules("pinochle").game_end
    assert end == TargetEnd(1000, "draw")
    assert end.decide(Standing((1010, 1200), 3, 1000, (0, 0))).winner == 1
    assert not end.decide(Standing((990, 600), 3, 1000, (0, 0))).over
    draw = end.decide(Standing((1100, 1100), 3, 1000, (0, 0)))
    assert draw.over and draw.winner is None


def test_tie_rule_options() -> None:
    """§15.1 tie_rule: equal totals at the target play on, or raise the target by 500."""
    tie = Standing((1100, 1100), 3, 1000, (0, 0))
    assert not get_rules("pinochle", tie_rule="play_on").game_end.decide(tie).over
    raised = get_rules("pinochle", tie_rule="raise_target").game_end.decide(tie)
    assert not raised.over and raised.target == 1500


def test_stacked_game_ends_at_the_target() -> None:
    """§8.5 target: a game ends after the deal in which a player reaches the target; the higher total wins."""
    deck = stack("pinochle", turn_up="KH")
    game = new_game("pinochle", decks=[deck], target=200)
    while not game.is_over:
        game = game.apply(game.legal_actions()[0] if game.phase is not Phase.DECLARE else "pass")
    assert game.deal_number == 1 and game.totals[0] >= 200 > game.totals[1]
    assert game.winner == 0


# =====================================================================================
# §9 three-hand Auction Pinochle
# =====================================================================================


def test_auction_deal_pattern_and_widow() -> None:
    """§9/presets: 3 each, 3 to the widow, then 3 each four times: 15 each; the widow is deck[9:12]."""
    deck = stack("auction-pinochle", {0: "AS TS KS", 1: "AH TH KH", 2: "AD TD KD"}, widow="QC QC JC")
    assert deck[0:3] == codes("AS TS KS") and deck[3:6] == codes("AH TH KH") and deck[6:9] == codes("AD TD KD")
    assert deck[9:12] == codes("QC QC JC")
    s = new_deal("auction-pinochle", deck=deck)
    assert isinstance(s, AuctionDeal)
    assert [len(hand(s, p)) for p in range(3)] == [15, 15, 15]
    assert sorted(str(s.rules.deck.card(x)) for x in s.widow) == sorted(codes("QC QC JC"))
    assert s.phase is Phase.BID and s.current_player == 0 and s.dealer == 2
    assert all(v.stock_size == 3 and v.known == (CardSet.of(""),) * 3 for v in map(s.view, range(3)))


def test_minimum_bid_and_steps_of_ten() -> None:
    """§9: bids start at 300 (option minimum_bid) and rise in tens; passing is allowed."""
    s = auction_deal("auction-pinochle")
    assert legal(s)[:4] == ["bid 300", "bid 310", "bid 320", "bid 330"] and "pass" in legal(s)
    low = auction_deal("auction-pinochle", minimum_bid=250)
    assert legal(low)[:2] == ["bid 250", "bid 260"]


def test_bids_must_rise() -> None:
    """§9: a bid must beat the high bid (BID_TOO_LOW); bids below the minimum or off the step are refused."""
    s = run(auction_deal("auction-pinochle"), "bid 310")
    assert refusal(s, "bid 310") is RuleCode.BID_TOO_LOW
    assert refusal(s, "bid 300") is RuleCode.BID_TOO_LOW
    assert refusal(s, "bid 315") is RuleCode.BID_TOO_LOW
    assert refusal(auction_deal("auction-pinochle"), "bid 290") is RuleCode.BID_TOO_LOW
    with pytest.raises(NotationError):
        s.parse_action("bid 31O")


def test_bid_below_minimum_or_off_step_is_bid_too_low() -> None:
    """§9 / RuleCode.BID_TOO_LOW: a bid below the minimum, or off the step of ten, is BID_TOO_LOW."""
    s = auction_deal("auction-pinochle")
    assert refusal(s, "bid 290") is RuleCode.BID_TOO_LOW
    assert refusal(run(s, "bid 300"), "bid 315") is RuleCode.BID_TOO_LOW


def test_a_pass_is_final() -> None:
    """§9: a pass is final: the passed player is skipped; the auction ends when one bidder is left."""
    s = run(auction_deal("auction-pinochle"), "bid 300; pass; bid 310")
    assert s.current_player == 0
    s = run(s, "bid 320")
    assert s.current_player == 2  # player 1 passed: never asked again
    s = run(s, "bid 330; bid 340")
    assert s.current_player == 2
    s = run(s, "pass")
    assert s.phase is Phase.TRUMP and s.declarer == 0 and s.core.bid == 340
    assert [str(a) for p, a in s.history if p == 1] == ["pass"]


def test_two_passes_after_a_bid_end_the_auction() -> None:
    """§9: after a bid, two passes end the auction: the bidder is declarer."""
    s = run(auction_deal("auction-pinochle"), "pass; bid 300; pass")
    assert s.declarer == 1 and s.contract_side == 1 and s.phase is Phase.TRUMP and s.current_player == 1


def test_brooklyn_bids() -> None:
    """§9 brooklyn_bids: no bids ending in 40 or 90."""
    s = auction_deal("auction-pinochle", brooklyn_bids=True)
    bids = [int(a.split()[1]) for a in legal(s) if a.startswith("bid")]
    assert bids[:6] == [300, 310, 320, 330, 350, 360]
    assert all(b % 100 not in (40, 90) for b in bids) and 1100 in bids
    assert refusal(s, "bid 340") is RuleCode.BID_TOO_LOW  # off the ladder: a bid rule, not an unknown action
    s = run(s, "bid 330")
    assert legal(s)[0] == "bid 350"


def test_all_pass_throws_the_deal_in() -> None:
    """§9 all_pass="redeal": everyone passes: the deal is over with no score and no declarer."""
    s = run(auction_deal("auction-pinochle"), "pass; pass; pass")
    assert s.is_over and s.core.misdeal and s.scores == (0, 0, 0)
    assert s.declarer is None and s.contract_side is None and s.result is not None
    assert refusal(s, "bid 300") is RuleCode.GAME_OVER


def test_all_pass_redealt_by_the_next_dealer_in_a_game() -> None:
    """§9 all_pass="redeal": the thrown-in deal is redealt by the next dealer; it is not one of the game's deals."""
    game = new_game("auction-pinochle", seed=3, deals=1, decks=[stack("auction-pinochle")])
    game = run(game, "pass; pass; pass")
    assert not game.is_over and game.deal_number == 2 and game.deal.dealer == 0 and game.totals == (0, 0, 0)
    assert game.deal.phase is Phase.BID and game.current_player == 1


def test_all_pass_dealer_stuck() -> None:
    """§9 all_pass="dealer_stuck": when the others pass the dealer may not pass (MUST_BID)."""
    s = run(auction_deal("auction-pinochle", all_pass="dealer_stuck"), "pass; pass")
    assert s.current_player == 2 and "pass" not in legal(s) and legal(s)[0] == "bid 300"
    assert refusal(s, "pass") is RuleCode.MUST_BID
    s = run(s, "bid 300")
    assert s.declarer == 2 and s.phase is Phase.TRUMP


def test_widow_turned_up_for_all_above_the_minimum() -> None:
    """§9: the bidder turns the widow face up for all to see and takes it (a bid above the minimum)."""
    s = auction_deal("auction-pinochle", {0: "AS TS KS"}, widow="QC QC JC")
    s = run(s, "bid 310; pass; pass")
    assert s.phase is Phase.TRUMP and s.widow == () and s.core.widow_shown
    for p in range(3):
        assert s.view(p).known[0] == CardSet.of("QC QC JC") and s.view(p).stock_size == 0
    assert len(hand(s, 0)) == 18 and hand(s, 0).count(Card.parse("QC")) == 2
    assert legal(s) == ["trump S", "trump H", "trump D", "trump C", "throw-in"]


def test_widow_hidden_until_shown_at_the_minimum() -> None:
    """§9: at the minimum bid the widow stays face down until the bidder turns it (``pass``) or concedes."""
    s = run(auction_deal("auction-pinochle", {0: "AS TS KS"}, widow="QC QC JC"), "bid 300; pass; pass")
    assert legal(s) == ["pass", "throw-in"]
    for p in range(3):
        assert s.view(p).known == (CardSet.of(""),) * 3 and s.view(p).stock_size == 3
    assert refusal(s, "trump H") is RuleCode.WRONG_PHASE
    s = run(s, "pass")
    assert all(s.view(p).known[0] == CardSet.of("QC QC JC") for p in range(3))


def test_naming_trumps() -> None:
    """§9: the bidder names trumps (``trump H``); a non-suit is a NotationError."""
    s = run(auction_deal("auction-pinochle"), "bid 310; pass; pass")
    with pytest.raises(NotationError):
        s.apply("trump X")
    with pytest.raises(NotationError):
        s.parse_action("trump")
    s = run(s, "trump H")
    assert all(s.view(p).trump is Suit.HEARTS for p in range(3))
    assert s.phase is Phase.MELD and s.current_player == 0


def test_only_the_bidder_melds_then_buries_three() -> None:
    """§9: only the bidder melds (seen by all), then buries 3 face down (only he sees them); then he leads."""
    s = auction_deal("auction-pinochle", {0: HEARTS + " AS AD AC"}, widow="9S 9D 9C")
    s = run(s, "bid 310; pass; pass; trump H")
    s = run(s, "meld best")
    assert s.phase is Phase.DISCARD and s.current_player == 0
    assert s.meld_points() == (300 + 20 + 100, 0, 0)  # two flushes, two dix, aces around
    assert [(m.player, m.kind) for m in s.view(2).melds].count((0, "flush")) == 2
    assert legal(s) == ["throw-in", "discard 9S 9D 9C"]  # the only cards not used in melds
    assert refusal(s, "discard AS 9D 9C") is RuleCode.BURY_MELDED
    assert refusal(s, "discard 9D 9D 9C") is RuleCode.CARD_NOT_HELD
    assert refusal(s, "discard 9D 9C") is RuleCode.NOT_AN_ACTION
    s = run(s, "discard 9S 9D 9C")
    assert s.phase is Phase.TRICKS and s.current_player == 0
    assert [len(hand(s, p)) for p in range(3)] == [15, 15, 15]
    assert sorted(str(c) for c in s.view(0).buried) == sorted(codes("9S 9D 9C"))
    assert s.view(1).buried == () and s.view(2).buried == ()
    for p in (1, 2):
        assert all(a.cards == () for q, a in s.view(p).history if a.verb.value == "discard")
        assert Card.parse("9S") not in s.view(p).known[0]


def test_bury_melded_option() -> None:
    """§9 bury_melded=True: the bidder may bury cards he used in his melds."""
    s = auction_deal("auction-pinochle", {0: HEARTS + " AS AD AC"}, widow="9S 9D 9C", bury_melded=True)
    s = run(s, "bid 310; pass; pass; trump H; meld best")
    assert "discard AS AD AC" in legal(s) and "discard AH AH 9H" in legal(s)
    s = run(s, "discard AS AD AC")
    assert s.phase is Phase.TRICKS and s.meld_points() == (420, 0, 0)


def test_meld_best_never_leaves_the_bidder_without_a_burial() -> None:
    """§9: after ``meld best`` the bidder can still bury three cards (the deal never gets stuck)."""
    for concede in (True, False):
        s = auction_deal("auction-pinochle", {0: HEARTS + " AS AD AC"}, widow="KS QS 9S", concede_after_widow=concede)
        s = run(s, "bid 310; pass; pass; trump H; meld best")
        assert s.phase is Phase.DISCARD and not s.is_over
        assert any(str(a).startswith("discard") for a in s.legal_actions())


def test_meld_table_of_auction_pinochle() -> None:
    """§9: the two-hand American table plus the dix (10); a flush's K-Q is no royal marriage too."""
    table = {k.name: k.points for k in get_rules("auction-pinochle").melds.kinds}
    assert table == {
        "common-marriage": 20,
        "royal-marriage": 40,
        "flush": 150,
        "dix": 10,
        "aces-around": 100,
        "kings-around": 80,
        "queens-around": 60,
        "jacks-around": 40,
        "pinochle": 40,
    }
    s = auction_deal("auction-pinochle", {0: "AH TH KH QH JH 9S 9S 9D 9D 9C 9C TS TS TD TD"}, widow="TC TC AS")
    s = run(s, "bid 310; pass; pass; trump H; meld best")
    assert s.meld_points() == (150, 0, 0)


@pytest.mark.parametrize(("double_pinochle", "points"), [("none", 80), (80, 80), (300, 300)])
def test_auction_double_pinochle_option(double_pinochle: str | int, points: int) -> None:
    """§9/§15.1 double_pinochle: two pinochles are 2 x 40, or a double pinochle of 80 or 300."""
    hand = "QS QS JD JD 9S 9S 9D 9D 9C 9C TS TS TD TD TC"
    s = auction_deal("auction-pinochle", {0: hand}, widow="TC AS AD", double_pinochle=double_pinochle)
    s = run(s, "bid 310; pass; pass; trump H; meld best")
    assert s.meld_points() == (points, 0, 0)
    kinds = [m.kind for m in s.view(1).melds]
    if double_pinochle != 80:  # at 80 the double and two singles are worth the same
        assert kinds == (["pinochle", "pinochle"] if double_pinochle == "none" else ["double-pinochle"])


WINNER = {0: HEARTS + " AS AS TS"}
"""With the widow TS KS KS: the bidder holds every heart, both spade aces and tens: he takes every trick."""
WINNER_WIDOW = "TS KS KS"


def test_buried_counters_count_for_the_bidder() -> None:
    """§9: buried counters count for the bidder: meld 320 + all 250 card points makes exactly 570."""
    for bid, made in ((570, True), (580, False)):
        s = auction_deal("auction-pinochle", WINNER, widow=WINNER_WIDOW)
        s = auction_to_tricks(s, f"bid {bid}; pass; pass", "H", bury="TS KS KS")
        assert s.meld_points() == (320, 0, 0)  # two flushes, two dix
        s = play_out(s)
        assert s.core.taken == (15, 0, 0)  # the bidder wins every trick
        assert counters(s.view(0).won[0], CLASSIC) == 240 - 18
        assert s.scores == ((20, -10, -10) if made else (-40, 20, 20))  # 10 units, single or double


def test_unit_settlement_made() -> None:
    """§9 settlement: a made bid is paid by each opponent (300-340: 1 unit; 350: 2; 500-540: 8)."""
    for bid, units in ((300, 1), (340, 1), (350, 2), (500, 8)):
        s = auction_deal("auction-pinochle", WINNER, widow=WINNER_WIDOW)
        s = play_out(auction_to_tricks(s, f"bid {bid}; pass; pass", "H", bury="TS KS KS"))
        assert s.scores == (2 * units, -units, -units)
        assert s.breakdown == (
            ScoreBreakdown(contract=2 * units),
            ScoreBreakdown(contract=-units),
            ScoreBreakdown(contract=-units),
        )


def test_unit_settlement_set_pays_double() -> None:
    """§9 settlement: a bid played and lost costs the bidder double to each opponent (double bete)."""
    s = auction_deal("auction-pinochle", {0: "9S 9S 9D 9C 9C 9D"})
    s = play_out(auction_to_tricks(s, "bid 400; pass; pass", "H", bury="9S 9S 9D", melds="pass"))
    assert s.meld_points() == (0, 0, 0)
    assert s.scores == (-16, 8, 8)


def test_concession_after_the_widow_is_a_single_bete() -> None:
    """§9: after seeing the widow the bidder may concede: he pays each opponent single."""
    s = run(auction_deal("auction-pinochle"), "bid 350; pass; pass")
    assert "throw-in" in legal(s)
    conceded = run(s, "throw-in")
    assert conceded.is_over and conceded.core.conceded == "after_widow" and conceded.scores == (-4, 2, 2)
    s = run(s, "trump H; meld best")
    assert "throw-in" in legal(s)  # also after the melds, before burying
    assert run(s, "throw-in").scores == (-4, 2, 2)


def test_concession_before_the_widow_pays_the_kitty() -> None:
    """§9: at the minimum bid the bidder may concede without seeing the widow: he pays only the kitty."""
    s = run(auction_deal("auction-pinochle", widow="QC QC JC"), "bid 300; pass; pass")
    conceded = run(s, "throw-in")
    assert conceded.core.conceded == "before_widow" and conceded.scores == (-1, 0, 0)
    assert conceded.breakdown[0] == ScoreBreakdown(contract=-1)
    assert all(conceded.view(p).known == (CardSet.of(""),) * 3 for p in range(3))


def test_concession_before_the_widow_only_at_the_minimum() -> None:
    """§9: above the minimum there is no concession without seeing the widow (it is turned up at once)."""
    s = run(auction_deal("auction-pinochle"), "bid 310; pass; pass")
    assert s.core.widow_shown
    assert run(s, "throw-in").core.conceded == "after_widow"


def test_concede_before_widow_option_off() -> None:
    """§9 concede_before_widow=False: even at the minimum the widow is turned up at once."""
    s = run(auction_deal("auction-pinochle", concede_before_widow=False), "bid 300; pass; pass")
    assert s.core.widow_shown and legal(s) == ["trump S", "trump H", "trump D", "trump C", "throw-in"]
    assert run(s, "throw-in").scores == (-2, 1, 1)


def test_concede_after_widow_option_off() -> None:
    """§9 concede_after_widow=False: once the widow is seen the bidder must play."""
    s = run(auction_deal("auction-pinochle", concede_after_widow=False), "bid 310; pass; pass")
    assert legal(s) == ["trump S", "trump H", "trump D", "trump C"]
    assert refusal(s, "throw-in") is RuleCode.WRONG_PHASE
    s = run(s, "trump H; meld best")
    assert "throw-in" not in legal(s)
    s = run(auction_deal("auction-pinochle", concede_after_widow=False), "bid 300; pass; pass")
    assert legal(s) == ["pass", "throw-in"]  # before the widow the concession stays


def test_second_unit_scale() -> None:
    """§9 unit_scale="second": 250-290 = 2 units, 300-340 = 3, ..., 700+ = 30."""
    s = run(auction_deal("auction-pinochle", unit_scale="second", minimum_bid=250), "bid 250; pass; pass")
    assert run(s, "throw-in").scores == (-2, 0, 0)
    s = run(auction_deal("auction-pinochle", unit_scale="second"), "bid 300; pass; pass; pass; throw-in")
    assert s.scores == (-6, 3, 3)
    for bid, units in ((450, 10), (570, 17)):
        s = auction_deal("auction-pinochle", WINNER, widow=WINNER_WIDOW, unit_scale="second")
        s = play_out(auction_to_tricks(s, f"bid {bid}; pass; pass", "H", bury="TS KS KS"))
        assert s.scores == (2 * units, -units, -units)


def test_units_on_the_first_scale() -> None:
    """§9: the first published scale, step by step."""
    scoring = get_rules("auction-pinochle").scoring
    assert isinstance(scoring, ContractScoring)
    expected = {300: 1, 340: 1, 350: 2, 400: 4, 450: 6, 500: 8, 550: 10, 600: 12, 650: 14, 700: 16}
    assert {bid: scoring.units(bid) for bid in expected} == expected


def test_auction_game_is_a_number_of_deals() -> None:
    """§9: each deal is settled; a game is a fixed number of deals (option deals, default 9)."""
    assert get_rules("auction-pinochle").game_end == DealsEnd(9)
    assert get_rules("auction-pinochle", deals=3).game_end == DealsEnd(3)
    game = new_game("auction-pinochle", seed=1, deals=1, decks=[stack("auction-pinochle")])
    game = run(game, "bid 350; pass; pass; throw-in")
    assert game.is_over and game.totals == (-4, 2, 2) and game.winner is None


# §9 play: head the trick ------------------------------------------------------------------

HEAD_P1 = "AS AS JS 9S 9S AH AH TH TH KH QH QH JH JH 9H"
"""Player 1: no club or diamond; spades A A J 9 9; hearts (trumps) without K-H's twin."""
HEAD_P2 = "TS JS KH 9H AD AD TD TD KD QD QD JD JD 9D 9D"
"""Player 2: spades T J; hearts K 9; diamonds; no club."""


def _head(**options: Any) -> AuctionDeal:
    """Player 0 (declarer, hearts trumps, all the clubs) to lead trick 1 against HEAD_P1 and HEAD_P2."""
    s = auction_deal("auction-pinochle", {0: "QS AC KD", 1: HEAD_P1, 2: HEAD_P2}, **options)
    s = auction_to_tricks(s, "bid 300; pass; pass", "H", bury="9C 9C JC", melds="pass")
    assert s.phase is Phase.TRICKS and s.current_player == 0
    return s


def test_head_the_trick_must_beat_the_led_card() -> None:
    """§9/§1.4d: following suit, a player must beat the winning card if able (MUST_BEAT)."""
    s = run(_head(), "play QS")
    assert legal(s) == ["play AS"]
    assert refusal(s, "play 9S") is RuleCode.MUST_BEAT
    assert refusal(s, "play AH") is RuleCode.MUST_FOLLOW_SUIT


@pytest.mark.parametrize(
    ("beat_rule", "second", "third"),
    [
        ("current_winner", ["play AS"], ["play TS", "play JS"]),
        ("led_card", ["play AS"], ["play TS"]),
        ("none", ["play AS", "play JS", "play 9S"], ["play TS", "play JS"]),
    ],
)
def test_beat_rule(beat_rule: str, second: list[str], third: list[str]) -> None:
    """§1.4d beat_rule: beat the card now winning, or the card led, or no duty to beat."""
    s = run(_head(beat_rule=beat_rule), "play QS")
    assert legal(s) == second
    s = run(s, "play AS")
    assert legal(s) == third  # A-S wins: T-S beats only the led Q-S


def test_void_must_trump_and_overtrump() -> None:
    """§1.4d: void in the suit led a player must trump, and overtrump a trump already winning (MUST_OVERTRUMP)."""
    s = run(_head(), "play AC")
    assert legal(s) == ["play AH", "play TH", "play KH", "play QH", "play JH", "play 9H"]
    assert refusal(s, "play AS") is RuleCode.MUST_TRUMP
    s = run(s, "play QH")
    assert legal(s) == ["play KH"]
    assert refusal(s, "play 9H") is RuleCode.MUST_OVERTRUMP
    assert refusal(s, "play AD") is RuleCode.MUST_TRUMP


def test_must_overtrump_off() -> None:
    """§1.4d must_overtrump=False: a void player must trump but need not overtrump."""
    s = run(_head(must_overtrump=False), "play AC; play QH")
    assert legal(s) == ["play KH", "play 9H"]
    assert refusal(s, "play AD") is RuleCode.MUST_TRUMP


@pytest.mark.parametrize(
    ("beat_rule", "third"),
    [
        ("current_winner", ["play AD", "play TD", "play KD", "play QD", "play JD", "play 9D"]),
        ("led_card", ["play AD", "play TD"]),
    ],
)
def test_following_a_trumped_trick(beat_rule: str, third: list[str]) -> None:
    """§1.4d: once a plain lead is trumped, any card of the suit led follows; beat_rule="led_card" still beats it."""
    s = run(_head(beat_rule=beat_rule), "play KD; play QH")
    assert legal(s) == third
    assert refusal(s, "play KH") is RuleCode.MUST_FOLLOW_SUIT


@pytest.mark.parametrize(("counting", "values"), [("classic", CLASSIC), ("tens", TENS), ("fives", FIVES)])
def test_auction_counting_option(counting: str, values: dict[str, int]) -> None:
    """§9 counting: the counters of the three systems (each 240 + 10 for the last trick)."""
    rules = get_rules("auction-pinochle", counting=counting)
    assert {rank.code: points for rank, points in rules.card_points.points if points} == values
    assert rules.card_points.last_trick == 10 and rules.card_points.total(rules.deck) == 250


def test_auction_round_7_up_counts_in_tens() -> None:
    """§9 round_7_up: the bidder's 209 card points count 210: with 320 meld a bid of 530 is made."""
    for r7, expected in ((False, (-32, 16, 16)), (True, (16, -8, -8))):
        s = auction_deal("auction-pinochle", {0: HEARTS + " 9C 9C JC"}, widow="9S 9S 9D", round_7_up=r7)
        s = play_out(auction_to_tricks(s, "bid 530; pass; pass", "H", bury="9S 9S 9D"))
        assert s.meld_points() == (320, 0, 0) and counters(s.view(0).won[0], CLASSIC) == 209
        assert s.core.last_winner != 0
        assert s.scores == expected


# =====================================================================================
# §10 partnership Pinochle
# =====================================================================================


def _partnership_melds(cards: str, trump: str = "H", preset: str = "partnership-pinochle") -> int:
    """Player 0's ``meld best`` points holding exactly ``cards`` (the declarer, trumps named)."""
    opening = "bid 250" if preset == "partnership-pinochle" else "bid 50"
    s = auction_deal(preset, {0: cards}, pass_cards=0)
    assert hand(s, 0) == CardSet.of(cards)
    s = run(s, f"{opening}; pass; pass; pass; trump {trump}; meld best")
    return s.meld_points()[0]


def test_partnership_deal_and_sides() -> None:
    """§10.1: 4 players, 12 each dealt 3 at a time from the dealer's left; partners 0 & 2 against 1 & 3."""
    deck = stack("partnership-pinochle", {0: "AS TS KS", 1: "AH TH KH", 2: "AD TD KD", 3: "AC TC KC"})
    assert deck[0:12] == codes("AS TS KS AH TH KH AD TD KD AC TC KC")
    s = new_deal("partnership-pinochle", deck=deck)
    assert s.sides == ((0, 2), (1, 3)) and s.side_of(2) == 0 and s.side_of(3) == 1
    assert [len(hand(s, p)) for p in range(4)] == [12] * 4 and s.scores == (0, 0)
    assert s.current_player == 0 and legal(s)[:2] == ["bid 250", "bid 260"]


def test_partnership_flow_give_four_each_way() -> None:
    """§10.1: the declarer names trumps; his partner passes him exactly 4 cards, he passes 4 back."""
    s = auction_deal("partnership-pinochle", {0: "AH TH KH QH JH", 2: "AS KS QS JS 9S"})
    s = run(s, "bid 250; pass; pass; pass")
    assert s.phase is Phase.TRUMP and legal(s) == ["trump S", "trump H", "trump D", "trump C"]
    s = run(s, "trump H")
    assert s.phase is Phase.GIVE and s.current_player == 2
    assert refusal(s, "give AS KS QS") is RuleCode.NOT_AN_ACTION
    assert refusal(s, "give AS KS QS JS 9S") is RuleCode.NOT_AN_ACTION
    assert refusal(s, "give AH KS QS JS") is RuleCode.CARD_NOT_HELD
    before0, before2 = hand(s, 0), hand(s, 2)
    s = run(s, "give AS KS QS JS")
    assert s.current_player == 0 and s.phase is Phase.GIVE and len(hand(s, 0)) == 16
    assert s.view(1).history[-1][1].cards == () and s.view(3).history[-1][1].cards == ()
    assert s.view(0).history[-1][1].cards == tuple(Card.parse(c) for c in codes("AS KS QS JS"))
    assert refusal(s, "give 9C 9C 9C 9C") in {RuleCode.NOT_AN_ACTION, RuleCode.CARD_NOT_HELD}
    s = run(s, "give KS QS JS AH")  # may include cards just received
    assert s.phase is Phase.MELD and s.current_player == 0
    assert [len(hand(s, p)) for p in range(4)] == [12] * 4
    assert hand(s, 2).count(Card.parse("AS")) == before2.count(Card.parse("AS")) - 1
    assert Card.parse("AS") in hand(s, 0) and Card.parse("AH") in hand(s, 2)
    assert sorted(map(str, [*hand(s, 0), *hand(s, 2)])) == sorted(map(str, [*before0, *before2]))
    assert s.view(0).history[-1][1].cards and s.view(2).history[-1][1].cards
    assert s.view(1).history[-1][1].cards == ()


@pytest.mark.parametrize("count", [3, 0])
def test_pass_cards_option(count: int) -> None:
    """§10.3 pass_cards=3|0: three cards each way, or no passing at all."""
    s = run(auction_deal("partnership-pinochle", pass_cards=count), "bid 250; pass; pass; pass; trump H")
    if count == 0:
        assert s.phase is Phase.MELD and s.current_player == 0
        return
    assert s.phase is Phase.GIVE and all(len(a.split()) == 4 for a in legal(s))
    assert refusal(s, f"give {' '.join(str(c) for c in list(hand(s, 2))[:4])}") is RuleCode.NOT_AN_ACTION


def test_all_four_meld_in_turn() -> None:
    """§10.1: all four players meld (from the declarer round the table); partnership totals."""
    s = auction_deal("partnership-pinochle", {1: "AS AH AD AC", 2: "QS JD", 3: "KH QH"}, pass_cards=0)
    s = run(s, "pass; bid 250; pass; pass; trump C")
    order = []
    while s.phase is Phase.MELD:
        order.append(s.current_player)
        s = run(s, "meld best")
    assert order == [1, 2, 3, 0]
    points = s.meld_points()
    assert points[1] >= 100 and points[2] >= 40 and points[3] >= 20
    assert s.phase is Phase.TRICKS and s.current_player == 1  # the declarer leads
    melders = {m.player for m in s.view(0).melds}
    assert {1, 2, 3} <= melders


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("AH TH KH QH JH KH QH 9S 9S 9D 9D 9C", 190),  # flush 150 + an extra royal marriage
        ("AH TH KH QH JH 9S 9S 9D 9D 9C 9C TS", 150),  # the flush's K-Q is no royal marriage too
        ("AS AS AH AH AD AD AC AC 9S 9S 9D 9D", 1000),  # all eight aces
        ("AS AH AD AC 9S 9S 9D 9D 9C 9C TS TS", 100),  # aces around
        ("QS QS JD JD 9S 9S 9D 9D 9C 9C TS TS", 300),  # double pinochle
        ("QS JD 9S 9S 9D 9D 9C 9C TS TS TD TD", 40),  # pinochle
        ("KS QS KH QH KD QD KC QC 9S 9S 9D 9D", 240),  # marriages around counted as its parts
        ("KH KH QH QH 9S 9S 9D 9D 9C 9C TS TS", 80),  # double royal marriage
        ("AH AH TH TH KH KH QH QH JH JH 9H 9H", 1520),  # double flush and both dix
        ("KS KS KH KH KD KD KC KC 9S 9S 9D 9D", 800),  # all eight kings
        ("QS QS QH QH QD QD QC QC JD JD 9S 9S", 900),  # eight queens 600 and double pinochle 300
    ],
)
def test_meld_best_is_the_best_combination(cards: str, points: int) -> None:
    """§10.2: ``meld best`` lays the best combination: doubles, a flush's K-Q, marriages around as parts."""
    assert _partnership_melds(cards) == points


def test_partnership_meld_table() -> None:
    """§10.2: the seed-003 values, with the double forms and the dix."""
    table = {k.name: k.points for k in get_rules("partnership-pinochle").melds.kinds}
    assert table == {
        "common-marriage": 20,
        "royal-marriage": 40,
        "flush": 150,
        "double-flush": 1500,
        "dix": 10,
        "aces-around": 100,
        "double-aces-around": 1000,
        "kings-around": 80,
        "double-kings-around": 800,
        "queens-around": 60,
        "double-queens-around": 600,
        "jacks-around": 40,
        "double-jacks-around": 400,
        "pinochle": 40,
        "double-pinochle": 300,
    }


def test_melds_one_by_one_then_pass() -> None:
    """§10: melds may be laid one by one, then ``pass``; a card serves only once per class."""
    s = auction_deal("partnership-pinochle", {0: "AH TH KH QH JH KS QS 9H 9H AS AD AC"}, pass_cards=0)
    s = run(s, "bid 250; pass; pass; pass; trump H")
    assert legal(s) == [
        "pass",
        "meld common-marriage KS QS",
        "meld royal-marriage KH QH",
        "meld flush AH TH KH QH JH",
        "meld dix 9H",
        "meld aces-around AS AH AD AC",
        "meld best",
    ]
    s = run(s, "meld flush AH TH KH QH JH")
    assert refusal(s, "meld royal-marriage KH QH") is RuleCode.MELD_CARD_REUSED
    s = run(s, "meld dix 9H; meld dix 9H")
    assert refusal(s, "meld dix 9H") is RuleCode.MELD_CARD_REUSED
    s = run(s, "meld aces-around AS AH AD AC")
    assert s.phase is Phase.MELD and s.current_player == 0 and s.meld_points()[0] == 270
    s = run(s, "pass")
    assert s.current_player == 1 and s.meld_points()[0] == 270
    assert [m.kind for m in s.view(3).melds if m.player == 0] == ["flush", "dix", "dix", "aces-around"]


def test_meld_refusals_name_the_rule() -> None:
    """§10 / errors: a meld of cards not held is CARD_NOT_HELD; a royal marriage off trumps is NOT_A_MELD."""
    s = auction_deal("partnership-pinochle", {0: "AH TH KH QH JH KS QS 9H 9H AS AD AC"}, pass_cards=0)
    s = run(s, "bid 250; pass; pass; pass; trump H")
    assert refusal(s, "meld common-marriage KD QD") is RuleCode.CARD_NOT_HELD
    assert refusal(s, "meld royal-marriage KS QS") is RuleCode.NOT_A_MELD


def test_meld_phase_refuses_other_actions() -> None:
    """§10: nothing but melds and ``pass`` in the meld phase (WRONG_PHASE)."""
    s = run(auction_deal("partnership-pinochle", pass_cards=0), "bid 250; pass; pass; pass; trump H")
    assert refusal(s, "play AS") is RuleCode.WRONG_PHASE
    assert refusal(s, "bid 260") is RuleCode.WRONG_PHASE


HOLD_ALL_TRUMPS = {0: HEARTS, 1: "QS QS JD JD 9S 9S 9D 9D 9C 9C TS TD"}
"""Player 0 holds every heart (he wins every trick with hearts trumps); player 1 a double pinochle."""


@pytest.mark.parametrize("needs_trick", [False, True])
def test_meld_needs_trick(needs_trick: bool) -> None:
    """§10.3 meld_needs_trick: a side's meld counts only if it takes a trick."""
    s = auction_deal("partnership-pinochle", HOLD_ALL_TRUMPS, pass_cards=0, meld_needs_trick=needs_trick)
    s = play_out(auction_to_tricks(s, "bid 250; pass; pass; pass", "H"))
    melds = s.meld_points()
    assert s.core.taken == (12, 0, 0, 0) and melds[0] == 1520 and melds[1] == 300
    opponents = 0 if needs_trick else melds[1] + melds[3]
    assert s.scores == (melds[0] + melds[2] + 250, opponents)
    assert s.breakdown[1] == ScoreBreakdown(melds=opponents)


def test_made_bid_scores_meld_and_counters() -> None:
    """§10.1: a made bid adds the side's meld and counters (A T K 10 each, last trick 10); opponents score theirs."""
    s = auction_deal("partnership-pinochle", {0: "AH TH KH QH JH AS AD AC 9H"}, pass_cards=0)
    s = play_out(auction_to_tricks(s, "bid 250; pass; pass; pass", "H"))
    melds = s.meld_points()
    side = [melds[0] + melds[2], melds[1] + melds[3]]
    assert side[0] >= 260
    cards = [counters([*s.view(0).won[a], *s.view(0).won[b]], TENS) for a, b in ((0, 2), (1, 3))]
    last = [10 if s.side_of(s.core.last_winner) == k else 0 for k in (0, 1)]
    assert cards[0] + cards[1] + 10 == 250
    assert s.scores == (side[0] + cards[0] + last[0], side[1] + cards[1] + last[1])
    assert s.breakdown[0] == ScoreBreakdown(melds=side[0], cards=cards[0], last_trick=last[0])


def test_set_bid_loses_the_bid() -> None:
    """§10.1: a side short of its bid loses the bid; the opponents still score their meld and counters."""
    s = auction_deal("partnership-pinochle", {0: "AH TH KH QH JH AS AD AC 9H"}, pass_cards=0)
    s = play_out(auction_to_tricks(s, "bid 800; pass; pass; pass", "H"))
    melds = s.meld_points()
    cards = counters([*s.view(0).won[1], *s.view(0).won[3]], TENS)
    last = 10 if s.side_of(s.core.last_winner) == 1 else 0
    assert s.scores == (-800, melds[1] + melds[3] + cards + last)
    assert s.breakdown[0] == ScoreBreakdown(contract=-800)


def test_throw_in_after_meld_when_more_than_250_short() -> None:
    """§10.1: after the melds a declarer over 250 short may concede: he loses the bid, opponents score meld only."""
    s = auction_deal("partnership-pinochle", {1: "AS AH AD AC"}, pass_cards=0)
    s = auction_to_tricks(s, "bid 600; pass; pass; pass", "H")
    melds = s.meld_points()
    assert melds[0] + melds[2] < 350 and melds[1] >= 100
    assert s.phase is Phase.CONCEDE and s.current_player == 0 and legal(s) == ["pass", "throw-in"]
    assert refusal(s, "play AS") is RuleCode.WRONG_PHASE
    t = run(s, "throw-in")
    assert t.is_over and t.core.conceded == "after_meld" and t.scores == (-600, melds[1] + melds[3])
    assert t.breakdown == (ScoreBreakdown(contract=-600), ScoreBreakdown(melds=melds[1] + melds[3]))
    played = run(s, "pass")
    assert played.phase is Phase.TRICKS and played.current_player == 0
    assert refusal(played, "throw-in") is RuleCode.WRONG_PHASE


def test_no_throw_in_when_250_or_less_short_with_throw_in_at_more_than_250() -> None:
    """§10.1 (0.1.0's reading, throw_in_at="more_than_250"): the throw-in needs the side more than 250 short."""
    hands = {0: "AS AH AD AC 9S 9S 9D 9D 9C 9C TS TS"}
    options: dict[str, Any] = {"pass_cards": 0, "bid_raises": "any", "throw_in_at": "more_than_250"}
    s = auction_to_tricks(auction_deal("partnership-pinochle", hands, **options), "bid 250; pass; pass; pass", "D")
    side = s.meld_points()[0] + s.meld_points()[2]
    assert side >= 100 and s.phase is Phase.TRICKS
    exact = auction_deal("partnership-pinochle", hands, **options)
    exact = auction_to_tricks(exact, f"bid {side + 250}; pass; pass; pass", "D")
    assert exact.phase is Phase.TRICKS and "throw-in" not in legal(exact)
    assert refusal(exact, "throw-in") is RuleCode.WRONG_PHASE
    short = auction_deal("partnership-pinochle", hands, **options)
    short = auction_to_tricks(short, f"bid {side + 260}; pass; pass; pass", "D")
    assert short.phase is Phase.CONCEDE


def test_throw_in_option_off() -> None:
    """§10.3 throw_in=False: no concession after the melds."""
    s = auction_deal("partnership-pinochle", pass_cards=0, throw_in=False)
    s = auction_to_tricks(s, "bid 900; pass; pass; pass", "H")
    assert s.phase is Phase.TRICKS and "throw-in" not in legal(s)


def test_throw_in_with_leader_dealer_left() -> None:
    """§10.1/§10.3: the declarer may throw in after the melds whoever leads the first trick."""
    s = run(auction_deal("partnership-pinochle", pass_cards=0, leader="dealer_left"), "pass; bid 900; pass; pass")
    s = auction_to_tricks(s, "", "H")
    assert s.declarer == 1 and s.meld_points()[1] + s.meld_points()[3] < 900 - 250
    assert s.phase is Phase.CONCEDE and s.current_player == 1 and "throw-in" in legal(s)
    s = run(s, "pass")
    assert s.phase is Phase.TRICKS and s.current_player == 0  # the dealer's left leads


def test_throw_in_keeps_the_opponents_meld_with_meld_needs_trick() -> None:
    """§10.1/§10.3: on a throw-in the opponents score their meld, even under meld_needs_trick."""
    s = auction_deal("partnership-pinochle", {1: "AS AH AD AC"}, pass_cards=0, meld_needs_trick=True)
    s = auction_to_tricks(s, "bid 600; pass; pass; pass", "H")
    melds = s.meld_points()
    assert run(s, "throw-in").scores == (-600, melds[1] + melds[3])


def test_leader_option() -> None:
    """§10.3 leader: the declarer leads (default), or the dealer's left regardless of the declarer."""
    s = auction_to_tricks(auction_deal("partnership-pinochle", pass_cards=0), "pass; bid 250; pass; pass", "H")
    assert s.declarer == 1 and s.current_player == 1
    s = auction_deal("partnership-pinochle", pass_cards=0, leader="dealer_left")
    s = auction_to_tricks(s, "pass; bid 250; pass; pass", "H")
    assert s.declarer == 1 and s.current_player == 0


PARTNER_P1 = "JS 9S 9S AH AH TH TH KH KH QH QH JH"
PARTNER_P2 = "KS JS AD AD TD TD KD KD QD QD JD JD"


@pytest.mark.parametrize(("beat_partner", "third"), [(True, ["play KS"]), (False, ["play KS", "play JS"])])
def test_must_beat_partner(beat_partner: bool, third: list[str]) -> None:
    """§1.4d must_beat_partner: the duty to beat holds even when the partner is winning, or not."""
    s = auction_deal(
        "partnership-pinochle", {0: "QS", 1: PARTNER_P1, 2: PARTNER_P2}, pass_cards=0, must_beat_partner=beat_partner
    )
    s = auction_to_tricks(s, "bid 250; pass; pass; pass", "C")
    s = run(s, "play QS; play JS")
    assert legal(s) == third


def test_dealer_stuck_in_partnership() -> None:
    """§10 all_pass: all four pass throws the deal in (default); with "dealer_stuck" the dealer must bid."""
    s = run(auction_deal("partnership-pinochle"), "pass; pass; pass; pass")
    assert s.is_over and s.scores == (0, 0)
    s = run(auction_deal("partnership-pinochle", all_pass="dealer_stuck", pass_cards=0), "pass; pass; pass")
    assert s.current_player == 3 and refusal(s, "pass") is RuleCode.MUST_BID


def test_game_1500_declarer_side_wins_when_both_reach_it() -> None:
    """§10.1: game 1500; if both sides reach it on the same deal the declarer's side wins."""
    end = get_rules("partnership-pinochle").game_end
    assert isinstance(end, TargetEnd) and end.target == 1500 and end.declarer_wins
    both = Standing((1510, 1700), 5, 1500, (0, 0), declarer=0)
    assert end.decide(both).over and end.decide(both).winner == 0
    assert TargetEnd(1500).decide(both).winner == 1  # without the rule the higher total wins
    assert end.decide(Standing((1400, 1700), 5, 1500, (0, 0), declarer=0)).winner == 1
    assert not end.decide(Standing((1400, 1490), 5, 1500, (0, 0), declarer=1)).over


# The full deal of the stacked partnership game: side 0 melds 260, side 1 melds 570.
GAME_HANDS = {
    0: "AC TC KC QC JC AS AH AD 9C TS TH TD",
    1: "QS QS JD JD KS KS KH KD KC QH QD QC",
    2: "AS TS JS JS 9S 9S KH JH JH KD AC TC",
    3: "AH TH QH 9H 9H AD TD QD 9D 9D JC 9C",
}


def _play_game(game: GameState, bid: int) -> GameState:
    """Bid, name clubs, (pass four cards there and back,) meld best all round, then play dully."""
    game = run(game, f"bid {bid}; pass; pass; pass; trump C")
    if game.phase is Phase.GIVE:
        game = run(game, "give JS JS 9S 9S; give JS JS 9S 9S")
    for _ in range(4):
        game = run(game, "meld best")
    assert isinstance(game.deal, AuctionDeal) and game.deal.meld_points() == (260, 560, 0, 10)
    number = game.deal_number
    while not game.is_over and game.deal_number == number:
        game = game.apply(dull_action(game.deal))  # plays dully; ``pass`` when offered a throw-in
    return game


def test_stacked_game_declarer_side_wins_with_fewer_points() -> None:
    """§10.1: both sides pass the target on one deal: the declarer's side wins though the others have more."""
    deck = stack("partnership-pinochle", GAME_HANDS)
    game = _play_game(new_game("partnership-pinochle", seed=1, decks=[deck], target=250, pass_cards=0), 250)
    assert game.is_over and game.deal_number == 1
    assert game.totals[1] > game.totals[0] >= 250
    assert game.winner == 0


def test_lose_at_minus() -> None:
    """§10.3 lose_at_minus: a side at minus the target loses; without it the game goes on."""
    end = get_rules("partnership-pinochle", lose_at_minus=True).game_end
    assert end.decide(Standing((-1500, 200), 4, 1500, (0, 0))).winner == 1
    assert not get_rules("partnership-pinochle").game_end.decide(Standing((-1500, 200), 4, 1500, (0, 0))).over
    deck = stack("partnership-pinochle", GAME_HANDS)
    options: dict[str, Any] = {"target": 1000, "pass_cards": 0}
    game = _play_game(new_game("partnership-pinochle", seed=1, decks=[deck], lose_at_minus=True, **options), 1000)
    assert game.is_over and game.totals[0] == -1000 and game.winner == 1
    game = _play_game(new_game("partnership-pinochle", seed=1, decks=[deck], **options), 1000)
    assert not game.is_over and game.deal_number == 2 and game.totals[0] == -1000


# =====================================================================================
# §11 double-deck partnership Pinochle
# =====================================================================================


def test_double_deck_deck_and_deal() -> None:
    """§11: 80 cards (A T K Q J, four of each), 20 each dealt 4 at a time."""
    rules = get_rules("double-deck-pinochle")
    assert rules.deck.size == 80 and rules.players == 4
    deck = stack("double-deck-pinochle", {0: "AS AS AS AS", 1: "TH TH TH TH"})
    assert len(deck) == 80 and deck[0:8] == codes("AS AS AS AS TH TH TH TH")
    s = new_deal("double-deck-pinochle", deck=deck)
    assert [len(hand(s, p)) for p in range(4)] == [20] * 4
    assert all(c.rank.code != "9" for c in rules.deck.cards)


def test_double_deck_bids_by_ones_then_fives() -> None:
    """§11: bids open at 50 or more, rise by 1 up to 60, then by 5."""
    s = auction_deal("double-deck-pinochle")
    bids = [int(a.split()[1]) for a in legal(s) if a.startswith("bid")]
    assert bids[:13] == [50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65, 70] and bids[-1] == 300
    s = run(s, "bid 58")
    assert legal(s)[:3] == ["bid 59", "bid 60", "bid 65"]
    assert refusal(s, "bid 62") is RuleCode.BID_TOO_LOW  # off the steps


def test_double_deck_dealer_stuck() -> None:
    """§11: if the first three pass, the dealer must bid (the preset's default)."""
    s = run(auction_deal("double-deck-pinochle"), "pass; pass; pass")
    assert s.current_player == 3 and "pass" not in legal(s)
    assert refusal(s, "pass") is RuleCode.MUST_BID
    s = run(auction_deal("double-deck-pinochle", all_pass="redeal"), "pass; pass; pass; pass")
    assert s.is_over and s.scores == (0, 0)


def test_double_deck_counters_total_50() -> None:
    """§11: A, T, K count 1 each (48) and the last trick 2: 50 a deal."""
    rules = get_rules("double-deck-pinochle")
    assert rules.card_points.total(rules.deck) == 50
    s = play_out(auction_to_tricks(auction_deal("double-deck-pinochle"), "bid 50; pass; pass; pass", "S"))
    won = [counters([*s.view(0).won[a], *s.view(0).won[b]], DOUBLE_DECK) for a, b in ((0, 2), (1, 3))]
    assert sum(won) == 48
    last = [2 if s.side_of(s.core.last_winner) == k else 0 for k in (0, 1)]
    for k in (0, 1):
        if s.breakdown[k].contract == 0:
            assert s.breakdown[k].cards == won[k] and s.breakdown[k].last_trick == last[k]


def test_double_deck_meld_table() -> None:
    """§11: run 15/150/225/300, arounds with double/triple/quadruple forms, pinochle 4/30/60/90, marriages 2/4."""
    table = {k.name: k.points for k in get_rules("double-deck-pinochle").melds.kinds}
    expected = {"common-marriage": 2, "royal-marriage": 4}
    for base, values in (
        ("flush", (15, 150, 225, 300)),
        ("aces-around", (10, 100, 150, 200)),
        ("kings-around", (8, 80, 120, 160)),
        ("queens-around", (6, 60, 90, 120)),
        ("jacks-around", (4, 40, 60, 80)),
        ("pinochle", (4, 30, 60, 90)),
    ):
        for prefix, value in zip(("", "double-", "triple-", "quadruple-"), values):
            expected[prefix + base] = value
    assert table == expected


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("AS AS AS AH AH AH AD AD AD AC AC AC TS TS TS TS TH TH TH TH", 150),  # triple aces around
        ("AS AS AS AS AH AH AH AH AD AD AD AD AC AC AC AC TS TS TS TS", 200),  # quadruple aces around
        ("AS AS AH AH AD AD AC AC AS AH TS TS TS TS TH TH TH TH TD TD", 100),  # double; no single left
        ("AH AH AH AH TH TH TH TH KH KH KH KH QH QH QH QH JH JH JH JH", 300),  # quadruple run
        ("KS QS KH QH KD QD KC QC TS TS TS TS TH TH TH TH TD TD TD TD", 24),  # round house as parts
        ("QS QS QS QS JD JD JD JD TS TS TS TS TH TH TH TH TC TC TC TC", 90),  # quadruple pinochle
    ],
)
def test_double_deck_meld_best(cards: str, points: int) -> None:
    """§11: ``meld best`` in the double-deck table (triple and quadruple forms, round house as parts)."""
    assert _partnership_melds(cards, "H", "double-deck-pinochle") == points


def test_double_deck_game_500() -> None:
    """§11: game 500; if both sides reach it on one deal the bidding side wins."""
    end = get_rules("double-deck-pinochle").game_end
    assert end == TargetEnd(500, "play_on", declarer_wins=True)
    assert end.decide(Standing((510, 600), 3, 500, (0, 0), declarer=0)).winner == 0
    assert not end.decide(Standing((490, 480), 3, 500, (0, 0), declarer=0)).over


# =====================================================================================
# determinize: a determinized deal must be one that could have happened
# =====================================================================================


def _replays_as_guessed(state: DealState, player: int, seeds: int = 20) -> None:
    """For ``seeds`` shuffles: the determinized deal's own record replays (every action re-checked)
    to a deal every player sees as the determinized one (identical copies of a card may swap)."""
    for seed in range(seeds):
        guess = determinize(state.view(player), random.Random(seed))
        again = replay(record_of(guess))
        assert all(again.view(q) == guess.view(q) for q in range(state.players))


def test_determinized_two_hand_deal_is_a_possible_deal() -> None:
    """api.md determinize / issue 12: every trick winner gets the declaration decision (``pass`` when he has
    nothing), so the history shows nothing of the hidden cards and a determinized deal replays to itself."""
    s = play_until(pinochle_deal(turn_up="KH"), 8)
    assert len([a for _p, a in s.history if str(a) == "pass"]) == 8  # one decision per stock trick, forced or not
    _replays_as_guessed(s, 0)
    _replays_as_guessed(s, 1)


def test_determinized_auction_deal_is_a_possible_deal() -> None:
    """api.md determinize: after ``meld best`` by an opponent (his hidden cards make no better
    combination than the melds he laid) the determinized deal replays to itself."""
    s = auction_deal("partnership-pinochle", {1: "QS JD 9S 9S 9D 9D 9C 9C TS TS TD TD"}, pass_cards=0)
    s = run(s, "bid 250; pass; pass; pass; trump H; meld best; meld best")
    assert s.meld_points()[1] == 40 and s.current_player == 2
    _replays_as_guessed(s, 0)


def test_head_the_trick_refusals_name_the_duty_and_the_suit_led() -> None:
    """Each duty of heading the trick refuses a card with its own code and words, naming the
    suit led: follow suit, beat the card winning, trump when void, overtrump a trump winning."""
    rules = get_rules("pinochle")
    table = rules.trump_tables[Suit.SPADES.value]  # spades trumps
    policy = TrickPolicy(PlayDuty.HEAD_THE_TRICK)  # beat the card winning; trump, overtrump
    deck = rules.deck

    def pid(text: str) -> int:  # the first copy of a card: its physical id is its face
        return deck.face(Card.parse(text))

    def mask(*texts: str) -> int:
        return sum(1 << pid(t) for t in texts)

    led = (pid("KH"),)
    assert policy.refusal(table, mask("AH", "QH", "9D"), led, pid("9D")) == (
        RuleCode.MUST_FOLLOW_SUIT,
        "must follow suit (you hold hearts)",
    )
    assert policy.refusal(table, mask("AH", "QH"), led, pid("QH")) == (
        RuleCode.MUST_BEAT,
        "must beat the card to beat when able",
    )
    assert policy.refusal(table, mask("9S", "9D"), led, pid("9D")) == (
        RuleCode.MUST_TRUMP,
        "must trump (you hold no hearts but hold trumps)",
    )
    trumped = (pid("KH"), pid("JS"))  # a trump is winning the trick
    assert policy.refusal(table, mask("AS", "9S"), trumped, pid("9S")) == (
        RuleCode.MUST_OVERTRUMP,
        "must overtrump when able",
    )
    assert policy.refusal(table, mask("AS", "9S"), trumped, pid("AS")) is None
    assert policy.legal(table, mask("AS", "9S"), trumped) == mask("AS")
