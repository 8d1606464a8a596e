"""Rulebook scenarios for two-hand Bezique on stacked decks (reference.md §2 and §3).

Every test builds its deck with `scenario.stack` (naming only the cards
that matter), drives the deal with notation strings, and checks scores, the
breakdown, the phase, the legal actions and the `RuleCode` of refusals.

Unless a test says otherwise: preset ``bezique``, dealer 1, so player 0 leads
trick 1; the turn-up 9H makes hearts trumps; player 0 wins a trick by leading a
plain card that player 1 answers with a lower card or a card of another plain
suit; the trick winner draws first.
"""

from __future__ import annotations

import random
from typing import Any

from bezique_rules import (
    Card,
    CardSet,
    GameState,
    MatchEnd,
    Phase,
    RuleCode,
    ScoreBreakdown,
    Suit,
    TargetEnd,
    get_rules,
    new_game,
)
from bezique_rules.engine.stock import StockDeal
from bezique_rules.parts.melds import index_instances, legal_declarations
from bezique_rules.parts.scoring import Standing
from scenario import finish_deal, legal, play_trick, play_until, refusal, run, stack, stock_game


def hand(state: StockDeal, player: int) -> CardSet:
    """Every card ``player`` holds (concealed and tabled)."""
    return state.view(player).hand


def seven(state: StockDeal) -> tuple[int, int]:
    """The trump-seven points per player."""
    b = state.breakdown
    return b[0].seven, b[1].seven


def melds(state: StockDeal) -> tuple[int, int]:
    """The meld points per player."""
    b = state.breakdown
    return b[0].melds, b[1].melds


def holds(state: StockDeal, player: int, deck_position: int) -> bool:
    """Whether ``player`` holds the physical card dealt from ``deck_position`` of the stacked deck."""
    return bool(state.hands[player] >> state.deck_order[deck_position] & 1)


# ---------------------------------------------------------------------------
# §2.1/§1.2 the deal and the stock-phase trick
# ---------------------------------------------------------------------------


def test_deal_3_2_3_turn_up_and_stock() -> None:
    """§2.1: 8 cards each dealt 3-2-3 (non-dealer first), the 17th card turned up for trumps, 47 in the stock."""
    deck = stack("bezique", p0="AS TS KS QS JS 9S 8S 7S", p1="AH TH KH QH JH 9H 8H 7H", turn_up="JD")
    assert deck[0:3] == ["AS", "TS", "KS"] and deck[3:6] == ["AH", "TH", "KH"]
    assert deck[6:8] == ["QS", "JS"] and deck[8:10] == ["QH", "JH"] and deck[16] == "JD"
    s = stock_game(p0="AS TS KS QS JS 9S 8S 7S", p1="AH TH KH QH JH 9H 8H 7H", turn_up="JD")
    assert hand(s, 0) == CardSet.of("AS TS KS QS JS 9S 8S 7S")
    assert hand(s, 1) == CardSet.of("AH TH KH QH JH 9H 8H 7H")
    view = s.view(0)
    assert view.trump == Card.parse("JD").suit and view.turn_up == Card.parse("JD") and view.stock_size == 47
    assert s.current_player == 0 and s.phase is Phase.PLAY and s.scores == (0, 0)


def test_stock_phase_play_is_free_and_trick_winner() -> None:
    """§1.3/§1.2: any card may follow in the stock phase; a trump or a higher card of the suit led wins."""
    s = run(stock_game(p0="KS 9S AS", p1="AD 9H AS KS QS", turn_up="9H"), "play KS")
    assert len(legal(s)) == len(set(hand(s, 1)))  # every card of the follower's hand
    assert run(s, "play AD").current_player == 0  # a higher card of another plain suit loses
    assert run(s, "play AS").current_player == 1  # a higher card of the suit led wins
    assert run(s, "play 9H").current_player == 1  # any trump beats a plain lead
    s = run(s, "play QS")
    assert s.current_player == 0 and s.view(0).won[0] == CardSet.of("KS QS")
    s = run(s, "play AS")  # player 1 holds the other A-S: the identical card played second loses
    assert run(s, "play AS").current_player == 0


# ---------------------------------------------------------------------------
# §2.6 meld reuse: worked examples E1-E7 (hearts trumps)
# ---------------------------------------------------------------------------


def _e1_deal() -> StockDeal:
    return stock_game(p0="KH QH AH TH JH 9S 9D", p1="8C 8C", turn_up="9H")


def test_e1_royal_marriage_then_sequence_totals_290() -> None:
    """E1 / R3: royal marriage (40), later A T J added to it: sequence (250), 290 in all."""
    s = run(_e1_deal(), "play 9S; play 8C")
    assert s.phase is Phase.DECLARE and s.current_player == 0
    assert legal(s) == ["meld royal-marriage KH QH", "meld sequence AH TH KH QH JH", "pass"]
    s = run(s, "meld royal-marriage KH QH")
    assert s.scores == (40, 0)
    assert s.view(0).tabled[0] == CardSet.of("KH QH")
    s = run(s, "play 9D; play 8C")
    assert legal(s) == ["meld sequence AH TH KH* QH* JH", "pass"]
    s = run(s, "meld sequence AH TH KH* QH* JH")
    assert s.scores == (290, 0)
    assert s.breakdown[0] == ScoreBreakdown(melds=290)
    assert [(m.kind, m.points) for m in s.view(1).melds] == [("royal-marriage", 40), ("sequence", 250)]


def test_e2_no_marriage_from_a_declared_sequence() -> None:
    """E2 / R4: after a sequence neither its K-Q nor its K with a new Q is a marriage; a fresh K-Q pair is."""
    s = stock_game(p0="AH TH KH QH JH KS QS 9S", p1="8C 8C 8D", turn_up="9H", stock="QH ? KH ?")
    s = run(s, "play 9S; play 8C; meld sequence AH TH KH QH JH")
    assert s.scores == (250, 0)
    # trick 2: player 0 (who drew the second QH) wins again, with a common marriage to declare
    s = run(s, "play AH*; play 8C")
    assert s.phase is Phase.DECLARE
    assert legal(s) == ["meld common-marriage KS QS", "pass"]
    assert refusal(s, "meld royal-marriage KH* QH") is RuleCode.MELD_DOWNGRADE
    # both cards from the sequence: forbidden by R4 and by R1 (no card from the concealed hand)
    assert refusal(s, "meld royal-marriage KH* QH*") in {RuleCode.MELD_DOWNGRADE, RuleCode.MELD_NEEDS_NEW_CARD}
    s = run(s, "meld common-marriage KS QS")
    # trick 3: player 0 drew the second KH; the second K-Q of hearts, both from hand, is a new marriage
    s = run(s, "play KS*; play 8D")
    assert legal(s) == ["meld royal-marriage KH QH", "pass"]
    assert refusal(s, "meld royal-marriage KH QH*") is RuleCode.MELD_DOWNGRADE
    s = run(s, "meld royal-marriage KH QH")
    assert s.scores == (250 + 20 + 40, 0)


def test_e3_marriage_king_joins_four_kings_but_not_another_marriage() -> None:
    """E3 / R5, R2: a marriage K-S may join eighty kings; K-S with the other Q-S is refused (MELD_CARD_REUSED)."""
    s = stock_game(p0="KS QS QS KH KD KC 9D 9C", p1="8C 8D 8D", turn_up="9H", stock="9S ? QD ?")
    s = run(s, "play 9D; play 8C; meld common-marriage KS QS")
    assert s.scores == (20, 0)
    s = run(s, "play 9C; play 8D")
    assert "meld four-kings KS* KH KD KC" in legal(s)
    s = run(s, "meld four-kings KS* KH KD KC")
    assert s.scores == (100, 0)
    s = run(s, "play 9S; play 8D")
    assert legal(s) == ["meld common-marriage KD* QD", "pass"]
    assert refusal(s, "meld common-marriage KS* QS") is RuleCode.MELD_CARD_REUSED
    s = run(s, "meld common-marriage KD* QD")  # R5: a king of the quartet may marry
    assert s.scores == (120, 0)


def _e4_deal() -> StockDeal:
    return stock_game(p0="QS JD QS JD 9S 9D 9C", p1="8C 8C 8D", turn_up="9H")


def test_e4_bezique_then_double_bezique_totals_540() -> None:
    """E4 / R3: bezique (40), then the other Q-S and J-D from hand with the first pair on the table: 500, 540 in all."""
    s = run(_e4_deal(), "play 9S; play 8C; meld bezique QS JD")
    assert s.scores == (40, 0)
    s = run(s, "play 9D; play 8C")
    assert legal(s) == ["meld bezique QS JD", "meld double-bezique QS QS* JD JD*", "pass"]
    assert refusal(s, "meld bezique QS JD*") is RuleCode.MELD_CARD_REUSED  # R2: J-D already in a bezique
    s = run(s, "meld double-bezique QS QS* JD JD*")
    assert s.scores == (540, 0)
    assert s.view(0).tabled[0] == CardSet.of("QS QS JD JD")


def test_e4_no_double_bezique_once_a_card_of_the_first_pair_was_played() -> None:
    """E4: once a card of the first bezique is played, no double bezique can be made with it."""
    s = run(_e4_deal(), "play 9S; play 8C; meld bezique QS JD")
    s = run(s, "play QS*; play 8C")
    assert s.phase is Phase.DECLARE
    assert legal(s) == ["meld bezique QS JD", "pass"]  # the second pair alone is a new single bezique
    assert refusal(s, "meld double-bezique QS QS* JD JD*") is RuleCode.CARD_NOT_HELD
    s = run(s, "meld bezique QS JD")
    assert s.scores == (80, 0)


def test_e5_double_bezique_declared_directly_allows_no_single_from_it() -> None:
    """E5 / R4: double bezique at once scores 500; no single bezique may then be made from its cards."""
    s = stock_game(p0="QS QS JD JD KC 9S 9D 9C", p1="8C 8C 8D", turn_up="9H", stock="QC ?")
    s = run(s, "play 9S; play 8C")
    assert legal(s) == ["meld bezique QS JD", "meld double-bezique QS QS JD JD", "pass"]
    s = run(s, "meld double-bezique QS QS JD JD")
    assert s.scores == (500, 0)
    s = run(s, "play 9D; play 8C")
    assert legal(s) == ["meld common-marriage KC QC", "pass"]
    assert refusal(s, "meld bezique QS* JD*") in {RuleCode.MELD_DOWNGRADE, RuleCode.MELD_NEEDS_NEW_CARD}
    s = run(s, "meld common-marriage KC QC")
    assert s.scores == (520, 0)


def test_e6_no_fifth_king_added_to_three_left_of_eighty_kings() -> None:
    """E6 / R2: eighty kings, one king played, a fifth king plus the three left is refused (MELD_CARD_REUSED)."""
    s = stock_game(p0="KS KH KD KC QD 9S 9D 9C", p1="8C 8C 8D", turn_up="9H", stock="KS ?")
    s = run(s, "play 9S; play 8C; meld four-kings KS KH KD KC")
    assert s.scores == (80, 0)
    s = run(s, "play KS*; play 8C")
    assert legal(s) == ["meld common-marriage KD* QD", "pass"]
    assert refusal(s, "meld four-kings KS KH* KD* KC*") is RuleCode.MELD_CARD_REUSED
    s = run(s, "meld common-marriage KD* QD")
    assert s.scores == (100, 0)


def test_e7_royal_marriage_before_sequence_gains_40() -> None:
    """E7: declaring the royal marriage before the sequence gains 40 (the sequence first forbids the marriage)."""
    first_marriage = run(_e1_deal(), "play 9S; play 8C; meld royal-marriage KH QH; play 9D; play 8C")
    first_marriage = run(first_marriage, "meld sequence AH TH KH* QH* JH")
    sequence_only = run(_e1_deal(), "play 9S; play 8C; meld sequence AH TH KH QH JH; play 9D; play 8C")
    assert sequence_only.phase is Phase.PLAY  # nothing left to declare: the draw was automatic
    assert first_marriage.scores[0] - sequence_only.scores[0] == 40


def test_e7_single_before_double_bezique_gains_40() -> None:
    """E7: declaring a single bezique before the double gains 40."""
    single_first = run(_e4_deal(), "play 9S; play 8C; meld bezique QS JD; play 9D; play 8C")
    single_first = run(single_first, "meld double-bezique QS QS* JD JD*")
    double_only = run(_e4_deal(), "play 9S; play 8C; meld double-bezique QS QS JD JD")
    assert (single_first.scores[0], double_only.scores[0]) == (540, 500)


def test_r5_sequence_queen_joins_a_bezique() -> None:
    """§2.6 R5: with spades trumps the Q-S of a declared sequence may join a bezique (another class)."""
    s = stock_game(p0="AS TS KS QS JS JD 9D 9C", p1="8H 8H", turn_up="9S")
    s = run(s, "play 9D; play 8H; meld sequence AS TS KS QS JS; play 9C; play 8H")
    assert legal(s) == ["meld bezique QS* JD", "pass"]
    assert run(s, "meld bezique QS* JD").scores == (290, 0)


# ---------------------------------------------------------------------------
# §2.4 the trump seven
# ---------------------------------------------------------------------------


def test_turned_up_seven_scores_10_for_the_dealer() -> None:
    """§2.1/§2.4: a seven turned up scores 10 for the dealer at once."""
    s = stock_game(turn_up="7H")
    assert s.scores == (0, 10)
    assert s.breakdown[1] == ScoreBreakdown(seven=10)
    s0 = stock_game(turn_up="7H", dealer=0)
    assert s0.scores == (10, 0)


def test_turned_up_seven_scores_once_though_drawn_and_played() -> None:
    """§2.4: the turned-up 7 scores 10 for the dealer once; taken at the 24th trick and played later, nothing more."""
    s = stock_game(turn_up="7H", bottom="7H")  # the other trump seven is the last face-down card
    s = play_until(s, 24)
    assert s.phase is Phase.PLAYOFF and seven(s) == (0, 10)
    assert all(hand(s, p).count(Card.parse("7H")) == 1 for p in (0, 1))
    s = play_until(s, 32)
    assert s.is_over and seven(s) == (0, 10)


def test_turned_up_seven_is_never_exchanged_the_other_can_only_be_declared() -> None:
    """§2.4: with a seven turned up, the other trump seven cannot be exchanged, only declared (+10)."""
    s = run(stock_game(p0="7H 9S", p1="8C", turn_up="7H"), "play 9S; play 8C")
    assert legal(s) == ["declare 7H", "pass"]
    assert refusal(s, "exchange 7H") is RuleCode.SEVEN_NOT_ALLOWED
    s = run(s, "declare 7H")
    assert s.phase is Phase.PLAY and s.scores == (10, 10)
    assert Card.parse("7H") in hand(s, 0) and s.view(0).turn_up == Card.parse("7H")


def test_turned_up_seven_only_declared_in_bezique_match_too() -> None:
    """§3: bezique-match exchanges when it can; with a seven turned up the other seven is simply declared."""
    s = run(stock_game("bezique-match", p0="7H 9S", p1="8C", turn_up="7H"), "play 9S; play 8C")
    assert legal(s) == ["declare 7H", "pass"]
    assert run(s, "declare 7H").scores == (10, 10)


def test_exchange_on_a_win_takes_the_turn_up_and_scores_10() -> None:
    """§2.4: the trick winner exchanges the trump seven: +10, turn-up into his hand (seen by all), 7 under the stock."""
    s = run(stock_game(p0="7H 9S", p1="8C", turn_up="AH"), "play 9S; play 8C")
    assert legal(s) == ["exchange 7H", "declare 7H", "pass"]
    s = run(s, "exchange 7H")
    assert s.phase is Phase.PLAY and s.current_player == 0
    assert s.scores == (10, 0) and s.breakdown[0] == ScoreBreakdown(seven=10)
    assert s.view(1).turn_up == Card.parse("7H")
    assert Card.parse("AH") in hand(s, 0) and Card.parse("7H") not in hand(s, 0)
    assert Card.parse("AH") in s.view(1).known[0]
    assert s.view(0).stock_size == 47 - 2


def test_declare_without_exchange_keeps_the_seven_in_hand() -> None:
    """§2.4 method (2): declaring the trump seven scores 10 and leaves the turn-up in place."""
    s = run(stock_game(p0="7H 9S", p1="8C", turn_up="AH"), "play 9S; play 8C; declare 7H")
    assert s.scores == (10, 0)
    assert s.view(0).turn_up == Card.parse("AH") and Card.parse("7H") in hand(s, 0)
    assert Card.parse("7H") in s.view(1).known[0]


def test_trump_seven_scores_on_play_when_losing_the_trick() -> None:
    """§2.4: a trump seven played in the stock phase scores 10 for its player even when the trick is lost."""
    s = run(stock_game(p0="7H", p1="8H", turn_up="9H"), "play 7H; play 8H")
    assert s.current_player == 1  # 8H beat 7H
    assert seven(s) == (10, 0)


def test_trump_seven_scores_on_play_when_winning_the_trick() -> None:
    """§2.4: a trump seven played to a plain lead wins the trick and scores 10."""
    s = run(stock_game(p0="7H 8C", p1="9C 9D", turn_up="9H"), "play 8C; play 9C")
    assert s.current_player == 1 and s.phase is Phase.PLAY
    s = run(s, "play 9D; play 7H")
    assert s.current_player == 0 and s.phase is Phase.PLAY
    assert s.view(0).won[0] == CardSet.of("9D 7H")
    assert seven(s) == (10, 0)


def test_declared_seven_does_not_score_again_when_played() -> None:
    """§2.4: each physical seven scores once: a declared seven played later scores nothing more."""
    s = run(stock_game(p0="7H 9S KC QC", p1="8C 8D", turn_up="AH"), "play 9S; play 8C; declare 7H")
    assert s.phase is Phase.DECLARE  # the marriage may still be declared
    s = run(s, "pass; play 7H; play 8D")
    assert s.current_player == 0 and seven(s) == (10, 0)


def test_declared_seven_cannot_be_declared_again() -> None:
    """§2.4: a seven that has scored is refused on a later trick (SEVEN_ALREADY_SCORED)."""
    s = run(stock_game(p0="7H 9S 9D KC QC", p1="8C 8D", turn_up="AH"), "play 9S; play 8C; declare 7H; pass")
    s = run(s, "play 9D; play 8D")
    assert legal(s) == ["meld common-marriage KC QC", "pass"]
    assert refusal(s, "declare 7H") is RuleCode.SEVEN_ALREADY_SCORED
    assert refusal(s, "exchange 7H") is RuleCode.SEVEN_ALREADY_SCORED


def test_both_sevens_exchange_then_declare() -> None:
    """§2.4 usual practice: the first seven is exchanged, the second (now the turn-up is a 7) only declared."""
    s = run(stock_game(p0="7H 7H 9S 9D", p1="8C 8D", turn_up="AH"), "play 9S; play 8C; exchange 7H")
    assert s.phase is Phase.PLAY  # one seven action per trick
    s = run(s, "play 9D; play 8D")
    assert legal(s) == ["declare 7H", "pass"]
    s = run(s, "declare 7H")
    assert seven(s) == (20, 0)


def test_seven_methods_exchange_only() -> None:
    """§2.4 option seven_methods='exchange_only': while an exchange is possible the seven cannot be merely declared."""
    s = run(stock_game(p0="7H 9S", p1="8C", turn_up="AH", seven_methods="exchange_only"), "play 9S; play 8C")
    assert legal(s) == ["exchange 7H", "pass"]
    assert refusal(s, "declare 7H") is RuleCode.SEVEN_NOT_ALLOWED
    assert run(s, "exchange 7H").scores == (10, 0)


def test_seven_methods_exchange_only_is_the_bezique_match_default() -> None:
    """§3: in bezique-match declaring the seven on a win exchanges it for the turn-up."""
    s = run(stock_game("bezique-match", p0="7H 9S", p1="8C", turn_up="AH"), "play 9S; play 8C")
    assert legal(s) == ["exchange 7H", "pass"]


def test_seven_methods_score_only() -> None:
    """§2.4 option seven_methods='score_only': the seven is declared for 10, never exchanged."""
    s = run(stock_game(p0="7H 9S", p1="8C", turn_up="AH", seven_methods="score_only"), "play 9S; play 8C")
    assert legal(s) == ["declare 7H", "pass"]
    assert refusal(s, "exchange 7H") is RuleCode.NOT_AN_ACTION
    s = run(s, "declare 7H")
    assert s.scores == (10, 0) and s.view(0).turn_up == Card.parse("AH")


def test_seven_score_on_play_off() -> None:
    """§2.4 option seven_score_on_play=False: playing the trump seven scores nothing (it can still be declared)."""
    s = run(stock_game(p0="7H", p1="8H", turn_up="9H", seven_score_on_play=False), "play 7H; play 8H")
    assert s.scores == (0, 0)


def test_bezique_match_seven_scores_only_when_declared() -> None:
    """§3: in bezique-match a trump seven scores only when declared after a win, never on play."""
    s = run(stock_game("bezique-match", p0="7H", p1="8H", turn_up="9H"), "play 7H; play 8H")
    assert s.scores == (0, 0)
    s = run(stock_game("bezique-match", p0="7H 9S", p1="8C", turn_up="AH"), "play 9S; play 8C; exchange 7H")
    assert s.scores == (10, 0)


def test_seven_only_declared_by_the_trick_winner() -> None:
    """§2.2: the loser of a trick holding the trump seven may not declare it, nor may anyone during play."""
    s = run(stock_game(p0="9S 7H", p1="AS 9D", turn_up="AH"), "play 9S; play AS")
    assert s.current_player == 1 and s.phase is Phase.PLAY  # player 1 won with nothing to declare: drawn
    assert refusal(s, "declare 7H") is RuleCode.NO_DECLARATION_NOW
    s = run(s, "play 9D")
    assert s.current_player == 0 and Card.parse("7H") in hand(s, 0)
    assert refusal(s, "exchange 7H") is RuleCode.NO_DECLARATION_NOW
    assert refusal(s, "declare 7H") is RuleCode.NO_DECLARATION_NOW


# ---------------------------------------------------------------------------
# §2.3 the play-off: duties (spades trumps; player 0 leads the first play-off trick)
# ---------------------------------------------------------------------------
# Both players keep 7 chosen cards through the 24 stock tricks (the dull policy
# plays everything else); the winner of the 24th trick (player 0 in each set-up,
# as asserted) adds the last face-down card, the loser the turn-up 9S.

LEADER_KEEP = "KH JS 8D 8C 7D 7C 9C"


def _playoff(p1_keep: str, bottom: str, p1_hand: str, **options: Any) -> StockDeal:
    s = stock_game(p0=LEADER_KEEP, p1=p1_keep, turn_up="9S", bottom=bottom, **options)
    s = play_until(s, 24, (LEADER_KEEP, p1_keep))
    assert s.phase is Phase.PLAYOFF and s.current_player == 0
    assert s.view(0).stock_size == 0 and s.view(0).turn_up is None
    assert hand(s, 1) == CardSet.of(p1_hand)
    return s


def test_playoff_follower_must_follow_and_beat() -> None:
    """§2.3: K-H led, follower holds A-H, 9-H and trumps: must play A-H (not 9-H, not a trump)."""
    s = _playoff("AH 9H KS QS 7D 7C 8C", "AC", "KS QS 9S AH 9H 7D 8C 7C")
    s = run(s, "play KH")
    assert legal(s) == ["play AH"]
    assert refusal(s, "play 9H") is RuleCode.MUST_BEAT
    assert refusal(s, "play KS") is RuleCode.MUST_FOLLOW_SUIT
    assert refusal(s, "play 7D") is RuleCode.MUST_FOLLOW_SUIT
    s = run(s, "play AH")
    assert s.current_player == 1  # A-H won the trick


def test_playoff_follower_unable_to_beat_must_still_follow() -> None:
    """§2.3: K-H led, follower's only heart is 9-H: must play 9-H even though it loses."""
    s = _playoff("9H KS QS 7D 7C 8C 8D", "9D", "KS QS 9S 9H 8D 7D 8C 7C")
    s = run(s, "play KH")
    assert legal(s) == ["play 9H"]
    assert refusal(s, "play KS") is RuleCode.MUST_FOLLOW_SUIT
    s = run(s, "play 9H")
    assert s.current_player == 0


def test_playoff_void_follower_must_trump_with_any_trump() -> None:
    """§2.3: K-H led, follower holds no heart but trumps: must play a trump, any trump."""
    s = _playoff("KS QS 7D 7C 8C 8D 9D", "9D", "KS QS 9S 9D 8D 7D 8C 7C")
    s = run(s, "play KH")
    assert legal(s) == ["play KS", "play QS", "play 9S"]
    assert refusal(s, "play 7D") is RuleCode.MUST_TRUMP
    s = run(s, "play 9S")
    assert s.current_player == 1  # the lowest trump wins a plain lead


def test_playoff_trump_lead_must_be_overtrumped() -> None:
    """§2.3: J-S led (spades trumps), follower holds K-S and 9-S: must play K-S."""
    s = _playoff("KS 7D 7C 8C 8D 9D 9H", "AC", "KS 9S 9H 9D 8D 7D 8C 7C")
    s = run(s, "play JS")
    assert legal(s) == ["play KS"]
    assert refusal(s, "play 9S") is RuleCode.MUST_BEAT
    assert refusal(s, "play 9H") is RuleCode.MUST_FOLLOW_SUIT


def test_playoff_identical_card_does_not_beat_the_led_card() -> None:
    """§2.3/§1.2: J-S led, follower holds J-S and 9-S: either may be played, and the identical J-S loses."""
    s = _playoff("JS 7D 7C 8C 8D 9D 9H", "9D", "JS 9S 9H 9D 8D 7D 8C 7C")
    s = run(s, "play JS")
    assert legal(s) == ["play JS", "play 9S"]
    s = run(s, "play JS")
    assert s.current_player == 0  # the J-S played first won
    assert s.view(0).won[0].count(Card.parse("JS")) == 2


def test_playoff_void_in_suit_and_trumps_plays_anything() -> None:
    """§2.3: a follower with neither the suit led nor a trump may play any card."""
    s = _playoff("JD 7D 7C 8C 8D 9D 9C", "AC", "9S JD 9D 8D 7D 9C 8C 7C")
    s = run(s, "play JS")
    assert legal(s) == ["play 9S"]  # the only trump must follow the trump lead
    s = run(s, "play 9S; play KH")
    assert legal(s) == ["play JD", "play 9D", "play 8D", "play 7D", "play 9C", "play 8C", "play 7C"]


def test_playoff_rule_follow_only() -> None:
    """§2.3 option playoff_rule='follow_only': follow suit if able (no duty to beat or to trump), else any card."""
    s = _playoff("AH 9H KS QS 7D 7C 8C", "AC", "KS QS 9S AH 9H 7D 8C 7C", playoff_rule="follow_only")
    assert legal(run(s, "play KH")) == ["play AH", "play 9H"]
    assert refusal(run(s, "play KH"), "play KS") is RuleCode.MUST_FOLLOW_SUIT
    s = _playoff("KS QS 7D 7C 8C 8D 9D", "9D", "KS QS 9S 9D 8D 7D 8C 7C", playoff_rule="follow_only")
    s = run(s, "play KH")
    assert legal(s) == ["play KS", "play QS", "play 9S", "play 9D", "play 8D", "play 7D", "play 8C", "play 7C"]
    s = _playoff("KS 7D 7C 8C 8D 9D 9H", "AC", "KS 9S 9H 9D 8D 7D 8C 7C", playoff_rule="follow_only")
    assert legal(run(s, "play JS")) == ["play KS", "play 9S"]


def test_no_seven_scoring_in_the_playoff() -> None:
    """§2.4: an unscored trump seven played in the play-off scores nothing."""
    s = _playoff("KS 7S 7D 7C 8C 8D 9D", "9D", "KS 9S 7S 9D 8D 7D 8C 7C")
    before = s.scores
    s = run(s, "play KH")
    assert "play 7S" in legal(s)
    s = run(s, "play 7S")
    assert s.scores == before and seven(s) == (10, 0)


def test_no_declaration_in_the_playoff() -> None:
    """§1.3/§2.3: once the stock is gone nobody declares: melds and sevens are refused (NO_DECLARATION_NOW)."""
    s = _playoff("KS QS 7D 7C 8C 8D 9D", "9D", "KS QS 9S 9D 8D 7D 8C 7C")
    s = run(s, "play 7D; play 9D")  # player 1 wins and leads next, holding K-S Q-S
    assert s.current_player == 1 and s.phase is Phase.PLAYOFF
    assert all(a.startswith("play ") for a in legal(s))
    assert refusal(s, "meld royal-marriage KS QS") is RuleCode.NO_DECLARATION_NOW
    assert refusal(s, "pass") is RuleCode.WRONG_PHASE


# ---------------------------------------------------------------------------
# §1.3/§2.2 the 24th (last stock) trick
# ---------------------------------------------------------------------------
# Player 0 keeps both trump aces and K-C Q-C through 23 tricks, then wins the
# 24th with A-H whoever leads it; K-D is the last face-down card, 9H the turn-up.

LAST_KEEP = ("AH AH KC QC", "")


def _before_last_stock_trick(**options: Any) -> StockDeal:
    s = stock_game(p0=LAST_KEEP[0], turn_up="9H", bottom="KD", **options)
    s = play_until(s, 23, LAST_KEEP)
    assert s.view(0).stock_size == 1 and s.view(0).turn_up == Card.parse("9H")
    return s


def test_declaring_on_the_last_stock_trick_then_last_cards_drawn() -> None:
    """§2.2: the 24th trick's winner may declare; he then takes the last face-down card, the loser the turn-up."""
    s = play_trick(_before_last_stock_trick(), 0, "AH", LAST_KEEP)
    assert s.phase is Phase.DECLARE and s.current_player == 0
    assert legal(s) == ["meld common-marriage KC QC", "exchange 7H", "declare 7H", "pass"]
    before = s.scores
    s = run(s, "meld common-marriage KC QC; pass")
    assert s.scores == (before[0] + 20, before[1])
    assert s.phase is Phase.PLAYOFF and s.current_player == 0
    assert holds(s, 0, 63) and holds(s, 1, 16)  # K-D to the winner, the turn-up 9H to the loser
    assert len(hand(s, 0)) == len(hand(s, 1)) == 8
    view = s.view(1)
    assert view.stock_size == 0 and view.turn_up is None
    assert view.tabled == (CardSet.of(""), CardSet.of(""))  # tabled cards are back in the hand
    assert Card.parse("KC") in hand(s, 0) and Card.parse("QC") in hand(s, 0)
    # the melded cards and the turn-up are public; the last face-down card is not
    assert view.known == (CardSet.of("KC QC"), CardSet.of("9H"))


def test_exchanging_the_seven_on_the_last_stock_trick_gives_the_loser_the_seven() -> None:
    """§2.4: the seven exchanged on the 24th trick becomes the turn-up, which the loser takes; it never scores again."""
    s = play_trick(_before_last_stock_trick(), 0, "AH", LAST_KEEP)
    sevens_before = hand(s, 1).count(Card.parse("7H"))
    before = seven(s)
    s = run(s, "exchange 7H; meld common-marriage KC QC")
    assert s.phase is Phase.PLAYOFF  # nothing more to declare: both drew
    assert seven(s) == (before[0] + 10, before[1])
    assert Card.parse("9H") in hand(s, 0) and holds(s, 0, 63)
    assert hand(s, 1).count(Card.parse("7H")) == sevens_before + 1
    s = play_until(s, 32)
    assert s.is_over and seven(s) == (before[0] + 10, before[1])


def test_declare_on_last_stock_trick_false() -> None:
    """§2.2 option declare_on_last_stock_trick=False: no declaring on the 24th trick; the last cards are drawn."""
    s = _before_last_stock_trick(declare_on_last_stock_trick=False)
    before = s.scores
    s = play_trick(s, 0, "AH", LAST_KEEP)
    assert s.phase is Phase.PLAYOFF and s.current_player == 0
    assert s.scores[0] == before[0] and melds(s) == (0, 0)
    assert holds(s, 0, 63) and holds(s, 1, 16)
    assert refusal(s, "meld common-marriage KC QC") is RuleCode.NO_DECLARATION_NOW
    assert refusal(s, "declare 7H") is RuleCode.NO_DECLARATION_NOW


def test_declare_on_last_stock_trick_false_still_allows_earlier_tricks() -> None:
    """§2.2: with declare_on_last_stock_trick=False a trick winner still declares while cards remain after his draw."""
    s = stock_game(p0="KC QC 9S", p1="8D", turn_up="9H", declare_on_last_stock_trick=False)
    s = run(s, "play 9S; play 8D")
    assert legal(s) == ["meld common-marriage KC QC", "pass"]


# ---------------------------------------------------------------------------
# §2.7 brisques and the last trick
# ---------------------------------------------------------------------------


def _beats(card: Card, lead: Card, trump: Suit | None) -> bool:
    """§1.2: a follower's card beats the lead: a trump on a plain lead, or a higher card of the suit led."""
    order = "ATKQJ987"
    if card.suit == lead.suit:
        return order.index(card.rank.code) < order.index(lead.rank.code)
    return card.suit == trump


def _brisques(state: StockDeal, player: int) -> int:
    won = state.view(player).won[player]
    return 10 * sum(1 for c in won if c.rank.code in "AT")


def test_last_trick_bonus_goes_to_the_winner_of_the_32nd_trick() -> None:
    """§2.7: 10 for the last (32nd) trick, to its winner; none for the 24th by default."""
    s = play_until(_before_last_stock_trick(), 24, LAST_KEEP)
    assert s.breakdown[0].last_trick == s.breakdown[1].last_trick == 0
    s = play_until(s, 31)
    leader = s.current_player
    assert leader is not None
    s = play_until(s, 32)
    assert s.is_over and s.phase is Phase.OVER and s.current_player is None
    (lead, follow), led_by = s.view(0).last_trick, s.view(0).last_trick_leader
    assert led_by == leader
    winner = 1 - leader if _beats(follow, lead, Card.parse("9H").suit) else leader
    assert s.breakdown[winner].last_trick == 10 and s.breakdown[1 - winner].last_trick == 0


def test_last_trick_bonus_at_last_stock_trick() -> None:
    """§2.7 option last_trick_bonus_at='last_stock_trick': the 10 goes to the winner of the 24th trick instead."""
    s = _before_last_stock_trick(last_trick_bonus_at="last_stock_trick")
    s = play_trick(s, 0, "AH", LAST_KEEP)
    assert s.breakdown[0].last_trick == 10 and s.breakdown[1].last_trick == 0
    s = play_until(s, 32, LAST_KEEP)
    assert (s.breakdown[0].last_trick, s.breakdown[1].last_trick) == (10, 0)


def test_brisques_counted_at_the_end_and_total_170() -> None:
    """§2.7: aces and tens won score 10 each at the end of the deal; with the last trick, 170 in all."""
    s = run(stock_game(p0="TS", p1="AD", turn_up="9H"), "play TS; play AD")
    assert s.current_player == 0 and s.breakdown[0].cards == 0
    s = play_until(s, 32)
    assert s.is_over
    b = s.breakdown
    assert b[0].cards == _brisques(s, 0) and b[1].cards == _brisques(s, 1)
    assert b[0].cards + b[1].cards + b[0].last_trick + b[1].last_trick == 170
    assert s.result is not None and s.result.scores == s.scores


def test_brisque_timing_immediate() -> None:
    """§2.7 option brisque_timing='immediate': brisques count as soon as the trick is won; still 170 in all."""
    s = run(stock_game(p0="TS", p1="AD", turn_up="9H", brisque_timing="immediate"), "play TS; play AD")
    assert s.breakdown[0].cards == 20 and s.scores == (20, 0)
    s = play_until(s, 32)
    b = s.breakdown
    assert b[0].cards == _brisques(s, 0) and b[1].cards == _brisques(s, 1)
    assert b[0].cards + b[1].cards + b[0].last_trick + b[1].last_trick == 170


# ---------------------------------------------------------------------------
# §2.2/§2.4 a meld and the seven on one trick; the card taken in exchange
# ---------------------------------------------------------------------------


def test_meld_and_seven_on_the_same_trick() -> None:
    """§2.2/§2.4: besides its one meld, the trick winner may also exchange the trump seven, in either order."""
    base = run(stock_game(p0="KH QH 7H 9S", p1="8C", turn_up="AH"), "play 9S; play 8C")
    assert legal(base) == ["meld royal-marriage KH QH", "exchange 7H", "declare 7H", "pass"]
    s = run(base, "meld royal-marriage KH QH")
    assert legal(s) == ["exchange 7H", "declare 7H", "pass"]
    s = run(s, "exchange 7H")
    assert s.phase is Phase.PLAY and s.breakdown[0] == ScoreBreakdown(melds=40, seven=10)
    s = run(base, "exchange 7H")
    assert legal(s) == ["meld royal-marriage KH QH", "pass"]
    s = run(s, "meld royal-marriage KH QH")
    assert s.phase is Phase.PLAY and s.breakdown[0] == ScoreBreakdown(melds=40, seven=10)


def _exchange_for_the_queen(**options: Any) -> StockDeal:
    """Player 0 wins trick 1 holding K-H, 7H and K-S Q-S; the turn-up is Q-H."""
    s = stock_game(p0="KH 7H KS QS 9S 9D", p1="8C 8C", turn_up="QH", **options)
    return run(s, "play 9S; play 8C; exchange 7H")


def test_exchanged_card_not_usable_in_a_meld_on_that_trick() -> None:
    """§2.4: the card taken in exchange may not be melded on that trick (EXCHANGED_CARD_IN_MELD), later it may."""
    s = _exchange_for_the_queen()
    assert Card.parse("QH") in hand(s, 0)
    assert legal(s) == ["meld common-marriage KS QS", "pass"]
    assert refusal(s, "meld royal-marriage KH QH") is RuleCode.EXCHANGED_CARD_IN_MELD
    s = run(s, "pass; play 9D; play 8C")
    assert "meld royal-marriage KH QH" in legal(s)
    s = run(s, "meld royal-marriage KH QH")
    assert s.breakdown[0] == ScoreBreakdown(melds=40, seven=10)


def test_exchange_card_usable_same_trick() -> None:
    """§2.4 option exchange_card_usable_same_trick=True: the card taken in exchange may be melded at once."""
    s = _exchange_for_the_queen(exchange_card_usable_same_trick=True)
    assert legal(s) == ["meld common-marriage KS QS", "meld royal-marriage KH QH", "pass"]
    s = run(s, "meld royal-marriage KH QH")
    assert s.phase is Phase.PLAY and s.breakdown[0] == ScoreBreakdown(melds=40, seven=10)


def test_no_meld_when_exchanging() -> None:
    """§2.4 option no_meld_when_exchanging=True: no meld and exchange on one trick (declaring the 7 is allowed)."""
    base = run(stock_game(p0="KS QS 7H 9S", p1="8C", turn_up="AH", no_meld_when_exchanging=True), "play 9S; play 8C")
    assert legal(base) == ["meld common-marriage KS QS", "exchange 7H", "declare 7H", "pass"]
    s = run(base, "meld common-marriage KS QS")
    assert legal(s) == ["declare 7H", "pass"]
    assert refusal(s, "exchange 7H") is RuleCode.NO_MELD_WITH_EXCHANGE
    assert run(s, "declare 7H").breakdown[0] == ScoreBreakdown(melds=20, seven=10)
    s = run(base, "exchange 7H")
    assert s.phase is Phase.PLAY and s.scores == (10, 0)  # no meld was possible: both drew at once
    assert s.view(0).tabled[0] == CardSet.of("")


# ---------------------------------------------------------------------------
# §2.2 who declares, when, and how many melds
# ---------------------------------------------------------------------------


def test_one_meld_per_trick() -> None:
    """§2.2: at most one meld per trick won (MELD_LIMIT); the seven may still be declared."""
    s = run(stock_game(p0="KS QS KC QC 7H 9D", p1="8C", turn_up="AH"), "play 9D; play 8C; meld common-marriage KS QS")
    assert s.phase is Phase.DECLARE
    assert legal(s) == ["exchange 7H", "declare 7H", "pass"]
    assert refusal(s, "meld common-marriage KC QC") is RuleCode.MELD_LIMIT


def test_melds_per_trick_unlimited() -> None:
    """§2.2 option melds_per_trick='unlimited': every available meld may be scored on one trick."""
    s = stock_game(p0="KS QS KC QC 7H 9D", p1="8C", turn_up="AH", melds_per_trick="unlimited")
    s = run(s, "play 9D; play 8C; meld common-marriage KS QS")
    assert legal(s) == ["meld common-marriage KC QC", "exchange 7H", "declare 7H", "pass"]
    s = run(s, "meld common-marriage KC QC; exchange 7H")
    assert s.phase is Phase.PLAY and s.breakdown[0] == ScoreBreakdown(melds=40, seven=10)


def test_only_the_trick_winner_declares_and_only_before_drawing() -> None:
    """§1.3: the loser never declares, nobody declares during play, and after drawing it is too late."""
    s = run(stock_game(p0="KS QS 9S TD", p1="AS 9D", turn_up="9H"), "play 9S; play AS")
    assert s.current_player == 1 and s.phase is Phase.PLAY  # player 1 won with nothing to declare
    assert s.view(0).legal_actions() == ()
    assert refusal(s, "meld common-marriage KS QS") is RuleCode.NO_DECLARATION_NOW
    s = run(s, "play 9D")
    assert s.current_player == 0 and "meld common-marriage KS QS" not in legal(s)
    assert refusal(s, "meld common-marriage KS QS") is RuleCode.NO_DECLARATION_NOW
    s = run(s, "play TD")
    assert s.current_player == 0 and s.phase is Phase.DECLARE
    assert legal(s) == ["meld common-marriage KS QS", "pass"]
    assert refusal(s, "play 9S") is RuleCode.WRONG_PHASE  # declare or pass first
    s = run(s, "pass")
    assert s.phase is Phase.PLAY and s.view(0).stock_size == 47 - 4
    assert refusal(s, "meld common-marriage KS QS") is RuleCode.NO_DECLARATION_NOW
    assert s.scores == (0, 0)


# ---------------------------------------------------------------------------
# §2.6 D1: two single beziques, then a double
# ---------------------------------------------------------------------------


def _two_singles(**options: Any) -> StockDeal:
    s = stock_game(p0="QS QS JD JD KC QC 9S 9D", p1="8C 8C 8D", turn_up="9H", stock="8S ?", **options)
    s = run(s, "play 9S; play 8C; meld bezique QS JD; play 9D; play 8C; meld bezique QS JD")
    assert s.scores == (80, 0)
    return run(s, "play 8S; play 8D")


def test_double_bezique_after_two_singles_refused_by_default() -> None:
    """§2.6 D1: two singles on the table may not be declared again as a double (MELD_NEEDS_NEW_CARD)."""
    s = _two_singles()
    assert legal(s) == ["meld common-marriage KC QC", "pass"]
    assert refusal(s, "meld double-bezique QS* QS* JD* JD*") is RuleCode.MELD_NEEDS_NEW_CARD


def test_double_after_two_singles_option() -> None:
    """§2.6 D1 option double_after_two_singles=True: 40 + 40 + 500 from the same four tabled cards."""
    s = _two_singles(double_after_two_singles=True)
    assert legal(s) == ["meld common-marriage KC QC", "meld double-bezique QS* QS* JD* JD*", "pass"]
    s = run(s, "meld double-bezique QS* QS* JD* JD*")
    assert s.scores == (580, 0)


# ---------------------------------------------------------------------------
# §2.5 quartets and the bezique pair; §2.6 D2
# ---------------------------------------------------------------------------


def test_quartet_rule_any_allows_duplicates() -> None:
    """§2.5 quartet_rule='any' (bezique default): A-S A-S A-H A-D is a hundred aces."""
    s = run(stock_game(p0="AS AS AH AD KC QC 9D", p1="8C 8C", turn_up="9H"), "play 9D; play 8C")
    assert legal(s) == ["meld common-marriage KC QC", "meld four-aces AS AS AH AD", "pass"]
    assert run(s, "meld four-aces AS AS AH AD").scores == (100, 0)


def test_quartet_rule_one_per_suit_refuses_duplicates() -> None:
    """§2.5/§3 quartet_rule='one_per_suit' (bezique-match default): duplicates are no quartet, not even an action."""
    for s in (
        stock_game("bezique-match", p0="AS AS AH AD KC QC 9D", p1="8C 8C", turn_up="9H"),
        stock_game(p0="AS AS AH AD KC QC 9D", p1="8C 8C", turn_up="9H", quartet_rule="one_per_suit"),
    ):
        s = run(s, "play 9D; play 8C")
        assert legal(s) == ["meld common-marriage KC QC", "pass"]
        # no quartet with duplicates exists in these rules: the text names no action of the variant
        assert refusal(s, "meld four-aces AS AS AH AD") is RuleCode.NOT_AN_ACTION
    # §3 (flagged there): one card of each suit applies to kings, queens and jacks too
    quartets = [a for a in get_rules("bezique-match").action_space.actions if (a.meld or "").startswith("four-")]
    assert len(quartets) == 4 * 16  # four ranks, each copy from the hand or the table
    assert all(len({c.suit for c in a.cards}) == 4 for a in quartets)


def test_quartet_rule_one_per_suit_accepts_four_suits() -> None:
    """§3: in bezique-match one ace of each suit is a hundred aces."""
    s = run(stock_game("bezique-match", p0="AS AH AD AC 9D", p1="8C", turn_up="9H"), "play 9D; play 8C")
    assert legal(s) == ["meld four-aces AS AH AD AC", "pass"]
    assert run(s, "meld four-aces AS AH AD AC").scores == (100, 0)


def test_bezique_pair_colour_swap_with_spades_or_diamonds_trumps() -> None:
    """§2.5 option bezique_pair='colour_swap': with spades or diamonds trumps the bezique is Q-C J-H."""
    for trump in ("9S", "9D"):
        s = stock_game(p0="QC JH QS JD 9C", p1="8H", turn_up=trump, bezique_pair="colour_swap")
        s = run(s, "play 9C; play 8H")
        assert legal(s) == ["meld bezique JH QC", "pass"]  # display order: hearts before clubs
        assert refusal(s, "meld bezique QS JD") is RuleCode.NOT_A_MELD
        assert run(s, "meld bezique JH QC").scores == (40, 0)


def test_bezique_pair_colour_swap_keeps_qs_jd_with_hearts_or_clubs_trumps() -> None:
    """§2.5 option bezique_pair='colour_swap': with hearts or clubs trumps the bezique stays Q-S J-D."""
    for trump in ("9H", "9C"):
        s = stock_game(p0="QC JH QS JD 9S", p1="8D", turn_up=trump, bezique_pair="colour_swap")
        s = run(s, "play 9S; play 8D")
        assert legal(s) == ["meld bezique QS JD", "pass"]
        assert refusal(s, "meld bezique JH QC") is RuleCode.NOT_A_MELD


def test_bezique_pair_colour_swap_double() -> None:
    """§2.5 colour swap: the double bezique is both Q-C and both J-H (500) when spades are trumps."""
    s = stock_game(p0="QC QC JH JH 9D", p1="8H", turn_up="9S", bezique_pair="colour_swap")
    s = run(s, "play 9D; play 8H")
    assert legal(s) == ["meld bezique JH QC", "meld double-bezique JH JH QC QC", "pass"]
    assert run(s, "meld double-bezique JH JH QC QC").scores == (500, 0)


def _kings_then_bezique(**options: Any) -> StockDeal:
    s = stock_game(p0="KS KH KD KC QS JD 9S 9D", p1="8C 8C 8D", turn_up="9H", stock="8S ? QD ?", **options)
    s = run(s, "play 9S; play 8C; meld four-kings KS KH KD KC; play 9D; play 8C; meld bezique QS JD")
    assert s.scores == (120, 0)
    return run(s, "play 8S; play 8D")


def test_cross_class_meld_of_tabled_cards_refused_by_default() -> None:
    """§2.6 R1/D2: K-S of the kings and Q-S of the bezique, both tabled, make no marriage (MELD_NEEDS_NEW_CARD)."""
    s = _kings_then_bezique()
    assert legal(s) == ["meld common-marriage KD* QD", "pass"]
    assert refusal(s, "meld common-marriage KS* QS*") is RuleCode.MELD_NEEDS_NEW_CARD


def test_new_card_rule_same_class_only_allows_cross_class_tabled_meld() -> None:
    """§2.6 D2 option new_card_rule='same_class_only': tabled K-S and Q-S, both new to class A, marry (20)."""
    s = _kings_then_bezique(new_card_rule="same_class_only")
    assert "meld common-marriage KS* QS*" in legal(s)
    s = run(s, "meld common-marriage KS* QS*")
    assert s.scores == (140, 0)


# ---------------------------------------------------------------------------
# §2.5 carte blanche (option)
# ---------------------------------------------------------------------------

BLANK = "AS TS 9S 8S AD TD 9D 8D"  # no king, queen or jack; player 1's fillers have none either


def test_carte_blanche_shown_before_the_first_card() -> None:
    """§2.5 option carte_blanche: a dealt hand without K/Q/J shown before one's first card scores and becomes known."""
    s = stock_game(p0=BLANK, turn_up="9H", carte_blanche=50)
    assert "meld carte-blanche" in legal(s)
    s = run(s, "meld carte-blanche")
    assert s.phase is Phase.PLAY and s.current_player == 0
    assert s.scores == (50, 0) and s.breakdown[0] == ScoreBreakdown(melds=50)
    assert s.view(1).known[0] == hand(s, 0) == CardSet.of(BLANK)
    assert refusal(s, "meld carte-blanche") is RuleCode.CARTE_BLANCHE_NOT_ALLOWED
    s = run(s, "play 9S")
    assert "meld carte-blanche" in legal(s)  # the dealer has not played yet
    s = run(s, "meld carte-blanche")
    assert s.scores == (50, 50)


def test_carte_blanche_refused_once_a_card_was_played() -> None:
    """§2.5: after playing a card the carte blanche can no longer be shown (CARTE_BLANCHE_NOT_ALLOWED)."""
    s = run(stock_game(p0=BLANK, p1="8S", turn_up="9H", carte_blanche=50), "play 9S")
    s = run(s, "play 8S")
    assert s.current_player == 0 and s.phase is Phase.PLAY
    assert "meld carte-blanche" not in legal(s)
    assert refusal(s, "meld carte-blanche") is RuleCode.CARTE_BLANCHE_NOT_ALLOWED


def test_carte_blanche_needs_a_hand_without_court_cards() -> None:
    """§2.5: a hand holding a king, queen or jack cannot show carte blanche; without the option it is no action."""
    s = stock_game(p0="KS", turn_up="9H", carte_blanche=50)
    assert "meld carte-blanche" not in legal(s)
    assert refusal(s, "meld carte-blanche") is RuleCode.CARTE_BLANCHE_NOT_ALLOWED
    assert refusal(stock_game(p0=BLANK, turn_up="9H"), "meld carte-blanche") is RuleCode.NOT_AN_ACTION


# ---------------------------------------------------------------------------
# §2.8 and §3: the end of the game
# ---------------------------------------------------------------------------

PLAIN_DECK = stack("bezique")  # no declarations by the dull policy: deal scores stay far below 400


def _non_dealer_hand(deck: list[str]) -> CardSet:
    """The hand dealt to the non-dealer from a stacked deck (packets 3-2-3, non-dealer first)."""
    return CardSet.of([deck[i] for i in (0, 1, 2, 6, 7, 10, 11, 12)])


def test_game_end_rules_of_the_presets() -> None:
    """presets.md: bezique plays to 1000 (ties drawn, no lurch); bezique-match ends on a 400 lead or after 2 deals."""
    assert get_rules("bezique").game_end == TargetEnd(1000, "draw", lurch_threshold=None)
    assert get_rules("bezique-match").game_end == MatchEnd(lead=400, deals=2)
    assert get_rules("bezique", target=1500, tie_rule="play_on", lurch_threshold=500).game_end == TargetEnd(
        1500, "play_on", lurch_threshold=500
    )


def test_match_ends_after_deal_one_on_a_400_lead() -> None:
    """§3: a lead of 400 or more after the first deal wins the match at once."""
    deck = stack("bezique", p0="QS QS JD JD AS AH AD 9C", p1="8D 8C 8C", stock="AC ?", turn_up="9H")
    game = new_game("bezique-match", decks=[deck, PLAIN_DECK])
    game = run(game, "play 9C; play 8D; meld double-bezique QS QS JD JD")
    game = run(game, "play JD*; play 8C; meld four-aces AS AH AD AC")
    assert game.scores == (600, 0)
    game = finish_deal(game)
    assert game.is_over and game.phase is Phase.OVER and game.current_player is None
    assert game.winner == 0 and game.games_won == 1 and not game.is_draw
    assert game.deal_number == 1 and len(game.results) == 1
    assert game.totals == game.results[0].scores and game.totals[0] - game.totals[1] >= 400
    assert refusal(game, "pass") is RuleCode.GAME_OVER


def test_match_second_deal_dealt_by_the_other_player() -> None:
    """§3: with a lead under 400 a second deal follows, dealt by the other player (player 1 leads it)."""
    second = stack("bezique", p0="KC QC", p1="AS TS", dealer=0)
    game = finish_deal(new_game("bezique-match", decks=[PLAIN_DECK, second]))
    first = game.results[0].scores
    assert abs(first[0] - first[1]) < 400
    assert not game.is_over and game.deal_number == 2 and game.totals == first
    assert game.deal.dealer == 0 and game.current_player == 1 and game.phase is Phase.PLAY
    assert game.view(1).hand == _non_dealer_hand(second)
    assert Card.parse("AS") in game.view(1).hand and Card.parse("KC") in game.view(0).hand
    assert game.view(0).game_scores == first


def test_match_tied_after_two_deals_is_a_draw() -> None:
    """§3: equal two-deal totals are a draw (the same deck dealt by each player in turn mirrors the deal)."""
    game = finish_deal(finish_deal(new_game("bezique-match", decks=[PLAIN_DECK, PLAIN_DECK])))
    first, second = (r.scores for r in game.results)
    assert second == (first[1], first[0])
    assert game.is_over and game.is_draw and game.winner is None and game.games_won == 0
    assert game.totals[0] == game.totals[1]


def test_match_higher_two_deal_total_wins() -> None:
    """§3: after two deals the higher total wins the match."""
    deck = stack("bezique", p0="KH QH 9C", p1="8D", turn_up="9H")
    game = run(new_game("bezique-match", decks=[deck, deck]), "play 9C; play 8D; meld royal-marriage KH QH")
    game = finish_deal(finish_deal(game))
    assert game.is_over and len(game.results) == 2
    totals = tuple(a + b for a, b in zip(game.results[0].scores, game.results[1].scores))
    assert game.totals == totals and totals[0] != totals[1]
    assert game.winner == (0 if totals[0] > totals[1] else 1) and game.games_won == 1


# The 1000-point deal: player 0 wins the first 11 tricks (player 1 only throws low clubs
# and diamonds) and scores 500 + 40 + 250 + 100 + 60 + 20 + 20 = 990 in melds.
THOUSAND_DECK = stack(
    "bezique",
    p0="QS QS JD JD KH QH 9S 9S",
    p1="9D 9D 8D 8D 9C 9C 8C 8C",
    turn_up="9H",
    stock="8S 7D AH 7D TH 7C JH 7C AS ? AD ? AC ? QD ? KS ? KD ?",
)
THOUSAND_PLAY = (
    "play 9S; play 9D; meld double-bezique QS QS JD JD",
    "play 9S; play 9D; meld royal-marriage KH QH",
    "play 8S; play 8D",
    "play JD*; play 8C",
    "play JD*; play 8C; meld sequence AH TH KH* QH* JH",
    "play JH*; play 9C",
    "play TH*; play 9C",
    "play KH*; play 8D; meld four-aces AS AH* AD AC",
    "play AS*; play 7D; meld four-queens QS* QS* QH* QD",
    "play AD*; play 7D; meld common-marriage KS QS*",
    "play AC*; play 7C; meld common-marriage KD QD*",
)


def _thousand_game(**options: Any) -> GameState:
    game = new_game("bezique", decks=[THOUSAND_DECK], **options)
    for step in THOUSAND_PLAY:
        game = run(game, step)
    assert game.deal.breakdown[0].melds == 990
    return finish_deal(game)


def test_target_1000_reached_higher_total_wins() -> None:
    """§2.8: the game (to 1000) ends after the deal in which a player reaches it; the higher total wins."""
    game = _thousand_game()
    assert game.is_over and game.deal_number == 1
    assert game.totals[0] >= 1000 > game.totals[1]
    assert game.winner == 0 and game.games_won == 1 and game.target == 1000


def test_lurch_counts_double() -> None:
    """§2.8 option lurch_threshold=500: a winner whose opponent has under 500 wins a double game."""
    game = _thousand_game(lurch_threshold=500)
    assert game.totals[1] < 500 and game.winner == 0 and game.games_won == 2


def test_target_not_reached_deals_again() -> None:
    """§2.8: below the target the game goes on with the next deal, the other player dealing."""
    game = finish_deal(new_game("bezique", decks=[PLAIN_DECK]))
    assert not game.is_over and game.deal_number == 2 and game.deal.dealer == 0
    assert max(game.totals) < 1000


def _tied_at_target(tie_rule: str) -> GameState:
    """Deal 1 of PLAIN_DECK ends level (each player's seven and brisques alike); target 90 is reached by both."""
    game = finish_deal(new_game("bezique", decks=[PLAIN_DECK, PLAIN_DECK], target=90, tie_rule=tie_rule))
    assert game.results[0].scores == (90, 90)
    return game


def test_tie_rule_draw() -> None:
    """§2.8 tie_rule='draw' (default): equal totals at or above the target are a draw."""
    game = _tied_at_target("draw")
    assert game.is_over and game.is_draw and game.winner is None and game.games_won == 0


def test_tie_rule_play_on() -> None:
    """§2.8 tie_rule='play_on': equal totals at the target mean another deal, same target."""
    game = _tied_at_target("play_on")
    assert not game.is_over and game.deal_number == 2 and game.target == 90
    game = finish_deal(game)  # the mirrored second deal ties again: a third deal, dealt by player 1 again
    assert game.totals == (180, 180) and not game.is_over
    assert game.deal_number == 3 and game.deal.dealer == 1


def test_tie_rule_raise_target() -> None:
    """§2.8 tie_rule='raise_target': equal totals at the target raise it by 500 and play goes on."""
    game = _tied_at_target("raise_target")
    assert not game.is_over and game.deal_number == 2 and game.target == 590


def _decide(end: TargetEnd | MatchEnd, totals: tuple[int, int], deals: int, target: int = 0) -> tuple[object, ...]:
    """(over, winner, games won, target from now on) as the end rule decides after ``deals`` deals."""
    d = end.decide(Standing(totals, deals, target, (0, 0)))
    return d.over, d.winner, d.games, d.target


def test_target_end_decide() -> None:
    """§2.8: TargetEnd.decide: checked after each deal, higher total wins, ties per tie_rule, lurch doubles."""
    end = TargetEnd(1000)
    assert _decide(end, (990, 700), 3, 1000) == (False, None, 0, 1000)
    assert _decide(end, (1000, 990), 3, 1000) == (True, 0, 1, 1000)
    assert _decide(end, (1050, 1120), 4, 1000) == (True, 1, 1, 1000)  # both over: the higher total wins
    assert _decide(end, (1000, 1000), 4, 1000) == (True, None, 0, 1000)
    assert _decide(TargetEnd(1000, "play_on"), (1000, 1000), 4, 1000) == (False, None, 0, 1000)
    assert _decide(TargetEnd(1000, "play_on"), (1200, 1100), 5, 1000) == (True, 0, 1, 1000)
    raised = TargetEnd(1000, "raise_target")
    assert _decide(raised, (1000, 1000), 4, 1000) == (False, None, 0, 1500)
    assert _decide(raised, (1300, 1200), 5, 1500) == (False, None, 0, 1500)
    assert _decide(raised, (1500, 1200), 6, 1500) == (True, 0, 1, 1500)
    lurch = TargetEnd(1000, lurch_threshold=500)
    assert _decide(lurch, (1000, 499), 3, 1000) == (True, 0, 2, 1000)
    assert _decide(lurch, (1000, 500), 3, 1000) == (True, 0, 1, 1000)


def test_match_end_decide() -> None:
    """§3: MatchEnd.decide: a 400 lead ends the match after deal 1; after deal 2 the higher total wins, equal draws."""
    end = MatchEnd()
    assert _decide(end, (450, 50), 1) == (True, 0, 1, 0)
    assert _decide(end, (400, 0), 1) == (True, 0, 1, 0)
    assert _decide(end, (100, 500), 1) == (True, 1, 1, 0)
    assert _decide(end, (399, 0), 1) == (False, None, 0, 0)
    assert _decide(end, (700, 650), 2) == (True, 0, 1, 0)
    assert _decide(end, (700, 700), 2) == (True, None, 0, 0)


# ---------------------------------------------------------------------------
# issue 13: seed 002's cross-class reuse, seed 000's trump seven "at any time"
# ---------------------------------------------------------------------------


def test_cross_class_reuse_higher_only_lets_a_marriage_king_join_four_kings() -> None:
    """Seed 002 (cross_class_reuse="higher_only"): a marriage king may join four kings, which score more (80 > 20)."""
    s = stock_game(p0="KS QS QS KH KD KC 9D 9C", p1="8C 8D 8D", turn_up="9H", cross_class_reuse="higher_only")
    s = run(s, "play 9D; play 8C; meld common-marriage KS QS; play 9C; play 8D")
    assert "meld four-kings KS* KH KD KC" in legal(s)
    s = run(s, "meld four-kings KS* KH KD KC")
    assert s.scores == (100, 0)


def test_cross_class_reuse_higher_only_refuses_a_marriage_from_four_kings() -> None:
    """Seed 002: a king of four kings (80) may not later make a marriage (20): MELD_DOWNGRADE; "any" allows it."""
    script = "play 9D; play 8C; meld four-kings KS KH KD KC; play 9C; play 8D"
    p0, p1, stock = "KS KH KD KC QD QS 9D 9C", "8C 8D 8D", "JD"  # player 0 draws J-D after trick 1
    s = run(stock_game(p0=p0, p1=p1, turn_up="9H", stock=stock, cross_class_reuse="higher_only"), script)
    assert legal(s) == ["meld bezique QS JD", "pass"]
    assert refusal(s, "meld common-marriage KD* QD") is RuleCode.MELD_DOWNGRADE
    assert refusal(s, "meld common-marriage KS* QS") is RuleCode.MELD_DOWNGRADE
    s = run(stock_game(p0=p0, p1=p1, turn_up="9H", stock=stock), script)  # the default: reuse in both directions
    assert legal(s) == ["meld common-marriage KS* QS", "meld common-marriage KD* QD", "meld bezique QS JD", "pass"]


def test_cross_class_reuse_higher_only_refuses_equal_scores() -> None:
    """Seed 002 "scores more": a bezique queen (40) may join sixty queens (60) but not a royal marriage (40)."""
    s = stock_game(p0="QS JD KS QH QD QC 9D 9C", p1="8C 8D 8D", turn_up="9S", cross_class_reuse="higher_only")
    s = run(s, "play 9D; play 8C; meld bezique QS JD; play 9C; play 8D")
    assert refusal(s, "meld royal-marriage KS QS*") is RuleCode.MELD_DOWNGRADE
    assert legal(s) == ["meld four-queens QS* QH QD QC", "pass"]


def test_cross_class_reuse_is_an_option_of_the_multipack_presets() -> None:
    """Seed 002's rule is offered where R5 applies: bezique, bezique-match and the multi-pack presets."""
    for variant in ("bezique", "bezique-match", "rubicon-bezique", "six-pack-bezique", "eight-pack-bezique"):
        rules = get_rules(variant, cross_class_reuse="higher_only")
        assert rules.meld_rules.cross_class_reuse == "higher_only"
        assert get_rules(variant).meld_rules.cross_class_reuse == "any"


def test_seven_any_time_declared_before_leading() -> None:
    """Seed 000 method 2 (seven_any_time): the trump seven is declared on one's turn to lead: 10, the lead follows."""
    s = stock_game(p0="7H 9S", p1="8C", turn_up="AH", seven_any_time=True)
    assert "declare 7H" in legal(s) and "exchange 7H" not in legal(s)
    s = run(s, "declare 7H")
    assert s.scores == (10, 0) and s.phase is Phase.PLAY and s.current_player == 0
    assert Card.parse("7H") in s.view(1).known[0] and Card.parse("7H") in hand(s, 0)
    assert "declare 7H" not in legal(s)
    assert refusal(s, "declare 7H") is RuleCode.SEVEN_ALREADY_SCORED


def test_seven_any_time_declared_before_following_then_never_exchanged() -> None:
    """Seed 000 method 2: declared before following, the seven scores 10 and cannot later be exchanged."""
    s = stock_game(p0="9S 9D", p1="7H 8C 8D", turn_up="AH", seven_any_time=True)
    s = run(s, "play 9S; declare 7H")
    assert s.scores == (0, 10) and s.current_player == 1
    s = run(s, "play 8C")
    s = run(s, "play 9D; play 7H")  # player 1 wins with the declared seven: no second 10 for playing it
    assert s.scores == (0, 10)


def test_seven_any_time_as_it_is_played() -> None:
    """Seed 000 method 2 "even as he plays it": playing an unscored seven in the stock phase scores 10,
    also in bezique-match where scoring on play is otherwise off."""
    s = run(stock_game("bezique-match", p0="7H", p1="8H", turn_up="9H", seven_any_time=True), "play 7H; play 8H")
    assert seven(s) == (10, 0)
    s = run(stock_game("bezique-match", p0="7H", p1="8H", turn_up="9H"), "play 7H; play 8H")
    assert seven(s) == (0, 0)


def test_seven_any_time_not_in_the_play_off() -> None:
    """Seed 000: no declarations once the stock is exhausted, the seven included (NO_DECLARATION_NOW)."""
    s = play_until(stock_game(p0="7H", turn_up="AH", seven_any_time=True), 24, keep=("7H", ""))
    assert s.phase is Phase.PLAYOFF and Card.parse("7H") in hand(s, 0)
    while s.current_player != 0:
        s = s.apply(s.legal_actions()[0])
    assert "declare 7H" not in legal(s)
    assert refusal(s, "declare 7H") is RuleCode.NO_DECLARATION_NOW


def test_seven_any_time_off_by_default() -> None:
    """Default (seven_any_time=False): the seven is declared only after a won trick (NO_DECLARATION_NOW)."""
    s = stock_game(p0="7H 9S", p1="8C", turn_up="AH")
    assert "declare 7H" not in legal(s)
    assert refusal(s, "declare 7H") is RuleCode.NO_DECLARATION_NOW


def test_legal_declarations_from_the_parts_find_what_the_rule_sets_search_finds() -> None:
    """The public `legal_declarations`, given a rule set's parts, lists the same declarations
    (kind, cards and places, copies) as the search the rule set builds once per trump
    (`RuleSet.meld_search`), for the quick search (Bezique, Pinochle) and the general one
    (four-hand Bezique, Marjolet), over random hands with some cards tabled."""
    rng = random.Random(5)
    found = 0
    for variant in ("bezique", "pinochle", "four-hand-bezique", "marjolet"):
        rules = get_rules(variant)
        deck = rules.deck
        for trump in range(5):  # index 4: no trump yet
            instances = index_instances(deck, rules.meld_instances[trump])
            for _ in range(15):
                cards = rng.sample(range(deck.size), 14)
                held = sum(1 << i for i in cards)
                tabled = sum(1 << i for i in cards[:4])
                expected = rules.meld_search[trump].legal(held, tabled, ())
                got = legal_declarations(deck, rules.melds, rules.meld_rules, instances, held, tabled, ())
                assert got == expected
                found += len(expected)
    assert found > 100  # the hands form melds: the comparison is not of empty lists
