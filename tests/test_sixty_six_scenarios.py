"""Scenario tests for the closing games (Sixty-six, Schnapsen) with stacked decks.

Player 0 is the non-dealer (the dealer is player 1) and leads first. ``deal66`` stacks a
Sixty-six deck from the two hands, the turn-up and the top of the stock (the rest of the cards
follow in a fixed order); ``deal_schnapsen`` does the same with Schnapsen's pattern (3 each, the
turn-up, 2 each).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bezique_rules import (
    IllegalActionError,
    OptionError,
    Phase,
    determinize,
    get_rules,
    new_deal,
    new_game,
    record_of,
    replay,
)
from bezique_rules.engine.marriage import MarriageDeal
from scenario import deal, legal, run_exact


def deal66(hand0: str, hand1: str, turn_up: str, stock: str = "", **options: Any) -> MarriageDeal:
    """A Sixty-six deal: player 0 gets ``hand0`` (6 cards), player 1 ``hand1``, then the turn-up,
    then ``stock`` on top of the stock (the other cards below it)."""
    state = deal("sixty-six", p0=hand0, p1=hand1, turn_up=turn_up, stock=stock, **options)
    assert isinstance(state, MarriageDeal)
    return state


def deal_schnapsen(hand0: str, hand1: str, turn_up: str, stock: str = "", **options: Any) -> MarriageDeal:
    """A Schnapsen deal (3 each, the turn-up, 2 each) with ``stock`` on top of the stock."""
    state = deal("schnapsen", p0=hand0, p1=hand1, turn_up=turn_up, stock=stock, **options)
    assert isinstance(state, MarriageDeal)
    return state


# -- the deal -------------------------------------------------------------------------------


def test_sixty_six_deals_threes_then_the_turn_up_and_a_stock_of_eleven() -> None:
    """Sixty-six: 3 each, 3 each, the turn-up fixes trumps, 11 face-down cards remain."""
    d = deal66("AS TS KS QH JH 9H", "AH TH KH QS JS 9S", "AD")
    v = d.view(0)
    assert set(map(str, v.hand)) == {"AS", "TS", "KS", "QH", "JH", "9H"}
    assert str(v.turn_up) == "AD" and v.trump is not None and v.trump.code == "D"
    assert v.stock_size == 11 and d.current_player == 0 and d.phase is Phase.PLAY


def test_schnapsen_turns_the_trump_after_the_first_threes() -> None:
    """Schnapsen: 3 each, then the turn-up, then 2 each: 5 cards each, 9 face-down cards."""
    d = deal_schnapsen("AS TS KS QH JH", "AH TH KH QS JS", "AD")
    assert set(map(str, d.view(0).hand)) == {"AS", "TS", "KS", "QH", "JH"}
    assert set(map(str, d.view(1).hand)) == {"AH", "TH", "KH", "QS", "JS"}
    assert str(d.view(0).turn_up) == "AD" and d.view(0).stock_size == 9
    assert get_rules("schnapsen").deck.size == 20 and get_rules("sixty-six").deck.size == 24


# -- the stock phase -----------------------------------------------------------------------


def test_no_duty_to_follow_while_the_stock_is_open_and_the_winner_draws_first() -> None:
    """While the stock is open any card may follow; the trick winner draws the top card."""
    d = deal66("AS TS KS QH JH 9H", "AH TH KH QS JS 9S", "AD", "KD QD")
    d = run_exact(d, "play AS")
    assert "play AH" in legal(d)  # player 1 holds spades but need not follow
    d = run_exact(d, "play AH")  # spade led, heart played: the ace of spades wins
    assert d.current_player == 0 and d.points == (22, 0)
    assert "KD" in map(str, d.view(0).hand) and "QD" in map(str, d.view(1).hand)


def test_the_loser_of_the_sixth_trick_takes_the_turn_up_and_strict_play_begins() -> None:
    """The last stock card goes to the winner, the turn-up to the loser, who everybody knows holds
    it; then the play-off duties apply."""
    d = deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD", "AC TC KC QC JC 9C TD KD QD JD 9D")
    for _ in range(6):  # player 0 leads a spade, player 1 throws a heart: player 0 wins and leads
        lead = sorted(a for a in legal(d) if a.startswith("play ") and a[-1] == "S")[0]
        d = d.apply(lead)
        d = d.apply(sorted(a for a in legal(d) if a.endswith("H"))[0])
    assert d.phase is Phase.PLAYOFF and d.view(0).stock_size == 0 and d.view(0).turn_up is None
    assert "AD" in map(str, d.view(0).known[1])  # the turn-up, drawn last, is known


def test_after_exhaustion_the_follower_must_follow_and_win() -> None:
    """Strict play (follow, win if able, else trump) once the stock is exhausted."""
    d = deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD", "AC TC KC QC JC 9C TD KD QD JD 9D")
    for _ in range(6):
        d = d.apply(sorted(a for a in legal(d) if a.startswith("play ") and a[-1] == "S")[0])
        d = d.apply(sorted(a for a in legal(d) if a.endswith("H"))[0])
    hand0 = {str(c) for c in d.view(0).hand}
    lead = next(c for c in ("KC", "QC", "JC", "9C") if c in hand0)
    d = d.apply(f"play {lead}")
    plays = {a for a in legal(d) if a.startswith("play")}
    hand1 = {str(c) for c in d.view(1).hand}
    clubs = {c for c in hand1 if c.endswith("C")}
    assert clubs  # the stacked stock gave player 1 clubs
    assert {p[5:] for p in plays} <= clubs
    with pytest.raises(IllegalActionError):
        d.check(f"play {next(c for c in hand1 if not c.endswith('C'))}")


def test_follow_only_play_off_option() -> None:
    """``playoff_rule="follow_only"``: after closing, follow suit but need not win."""
    d = deal66("AS TS KS QS JS 9S", "AH TH 9H QD JD 9D", "AD", "", playoff_rule="follow_only")
    d = run_exact(d, "close", "play 9S")
    assert set(legal(d)) == {f"play {c}" for c in ("AH", "TH", "9H", "QD", "JD", "9D")}  # void in spades: any card
    d2 = deal66("9S TS KS QS JS AC", "AS TH 9H QD JD 9D", "AD", "", playoff_rule="follow_only")
    d2 = run_exact(d2, "close", "play 9S")
    assert set(legal(d2)) == {"play AS"}
    d3 = deal66("AS TS KS QS JS 9S", "AH TH 9H QD JD 9D", "AD")
    d3 = run_exact(d3, "close", "play 9S")
    assert set(legal(d3)) == {"play QD", "play JD", "play 9D"}  # default: void in spades, must trump


# -- marriages -------------------------------------------------------------------------------


def test_a_marriage_is_announced_on_lead_and_one_of_its_cards_led() -> None:
    """A marriage is shown on lead; then only its king or queen may be led (or "out")."""
    d = deal66("KH QH AS TS 9C JC", "AH TH KS QS JS 9S", "AD")
    assert "meld common-marriage KH QH" in legal(d)
    d = run_exact(d, "meld common-marriage KH QH")
    assert set(legal(d)) == {"play KH", "play QH", "out"}
    with pytest.raises(IllegalActionError):
        d.check("play AS")
    d = run_exact(d, "play KH")
    assert "QH" in map(str, d.view(1).known[0])  # the partner card shown stays known


def test_a_marriage_counts_only_once_the_announcer_has_won_a_trick() -> None:
    """A marriage announced on the first lead waits until the announcer wins a trick."""
    d = deal66("KH QH AS TS 9C JC", "AH TH KS QS JS 9S", "AD", "9D JD")
    d = run_exact(d, "meld common-marriage KH QH", "play QH", "play AH")  # player 1 wins the trick
    assert d.points == (0, 14)
    d = run_exact(d, "play 9S", "play AS")  # player 0 wins a trick: the marriage counts
    assert d.points == (11 + 20, 14)


def test_a_marriage_in_trumps_is_worth_40() -> None:
    """The marriage in the trump suit is a royal marriage worth 40."""
    d = deal66("KD QD AS TS 9C JC", "AH TH KS QS JS 9S", "AD")
    assert "meld royal-marriage KD QD" in legal(d) and "meld common-marriage KD QD" not in legal(d)
    d = run_exact(d, "meld royal-marriage KD QD", "play QD", "play 9S")
    assert d.points == (40 + 3, 0)


def test_marriage_timing_after_trick_refuses_the_first_lead() -> None:
    """``marriage_timing="after_trick"``: no marriage before the announcer has won a trick."""
    d = deal66("KH QH AS TS 9C JC", "AH TH KS QS JS 9S", "AD", "9D JD", marriage_timing="after_trick")
    assert "meld common-marriage KH QH" not in legal(d)
    with pytest.raises(IllegalActionError):
        d.check("meld common-marriage KH QH")
    d = run_exact(d, "play AS", "play 9S")
    assert "meld common-marriage KH QH" in legal(d)


# -- the trump exchange ----------------------------------------------------------------------


def test_the_trump_nine_is_exchanged_only_after_a_won_trick() -> None:
    """Sixty-six: the trump nine is exchanged for the turn-up by a player on lead who has won a
    trick; the nine becomes the turn-up and the taken card is known."""
    d = deal66("9D AS TS 9C JC KC", "AH TH KS QS JS 9S", "AD", "QC JD")
    assert "exchange 9D" not in legal(d)  # no trick won yet
    d = run_exact(d, "play AS", "play 9S")
    assert "exchange 9D" in legal(d)
    d = run_exact(d, "exchange 9D")
    assert str(d.view(1).turn_up) == "9D" and "AD" in map(str, d.view(1).known[0])
    assert "AD" in map(str, d.view(0).hand) and "9D" not in map(str, d.view(0).hand)


def test_schnapsen_exchanges_the_jack_on_the_first_lead_while_two_cards_are_face_down() -> None:
    """Schnapsen: the trump jack is exchanged, a trick won is not needed, and not when one
    face-down card is left (``exchange_min_stock=2``)."""
    d = deal_schnapsen("JD AS TS KC QC", "AH TH KS QS JS", "AD")
    assert "exchange JD" in legal(d)
    d = run_exact(d, "exchange JD")
    assert str(d.view(0).turn_up) == "JD"
    d2 = deal_schnapsen("JD AS TS KC QC", "AH TH KS QS JS", "AD", exchange_needs_trick=True)
    assert "exchange JD" not in legal(d2)


def test_no_exchange_when_the_stock_is_too_small() -> None:
    """The exchange needs ``exchange_min_stock`` face-down cards."""
    d2 = deal66("9D AS TS 9C JC KC", "AH TH KS QS JS 9S", "AD", "QC JD", exchange_min_stock=12)
    d2 = run_exact(d2, "play AS", "play 9S")
    assert "exchange 9D" not in legal(d2)


def test_no_exchange_after_closing() -> None:
    """Once the stock is closed the turn-up can no longer be exchanged."""
    d = deal66("9D AS TS 9C JC KC", "AH TH KS QS JS 9S", "AD", "QC JD")
    d = run_exact(d, "play AS", "play 9S", "close")
    assert "exchange 9D" not in legal(d) and "close" not in legal(d)


# -- closing ---------------------------------------------------------------------------------


def test_closing_stops_the_drawing_and_starts_strict_play() -> None:
    """Closing: no more cards are drawn, the face-down cards stay, strict duties apply at once."""
    d = deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9C", "AD")
    d = run_exact(d, "close")
    assert d.phase is Phase.PLAYOFF and d.closed
    d = run_exact(d, "play AS", "play 9C")
    assert len(d.view(0).hand) == 5 and d.view(0).stock_size == 11


def test_a_closer_who_reaches_66_and_claims_wins() -> None:
    """The closer who claims "out" at 66 or more wins; his opponent's points set the game points
    (marriages after the closing: the Hoyle reading, option ``marriages_after_stock``)."""
    d = deal66("AD TD KD QD AS TS", "9S JS 9H JH 9C JC", "JD", marriages_after_stock=True)
    d = run_exact(d, "close", "meld royal-marriage KD QD", "play KD", "play 9S")  # 40 + 4 + 0
    d = run_exact(d, "play AD", "play JS")  # 44 + 11 + 2 = 57
    d = run_exact(d, "play TD", "play 9H")  # 67
    assert d.points == (67, 0)
    d = run_exact(d, "out")
    assert d.outcome is not None and d.outcome.ending == "out"
    assert d.scores == (3, 0)  # the loser took no trick


def test_a_failed_closing_gives_the_opponent_two_or_three() -> None:
    """When the closer does not reach 66 the opponent scores 2 (3 if he had no trick at the
    closing)."""
    d = deal66("9S JS 9H JH 9C JC", "AD TD KD QD AS TS", "JD")
    d = run_exact(d, "close")  # player 0 closes with a poor hand and no trick
    while not d.is_over:
        d = d.apply(d.legal_actions()[0] if str(d.legal_actions()[0]) != "out" else d.legal_actions()[1])
    assert d.outcome is not None and d.outcome.ending == "closing-failed"
    assert d.scores == (0, 3)  # player 1 had taken no trick when player 0 closed


def test_the_closers_opponent_may_claim_out_and_scores_at_least_the_penalty() -> None:
    """If the closer's opponent reaches 66 and claims, he scores at least what the failed closing
    gives: here 3, as he had no trick when the stock was closed."""
    d = deal66("9S JS 9H JH 9C KS", "AD TD KD QD AS TS", "JD", marriages_after_stock=True)
    d = run_exact(d, "close", "play 9S")
    assert set(legal(d)) == {"play AS", "play TS"}  # strict at once: follow and win
    d = run_exact(d, "play AS", "meld royal-marriage KD QD", "play KD", "play 9H", "play AD", "play 9C")
    assert d.points == (0, 66) and d.core.closed_against_trickless
    d = run_exact(d, "out")
    assert d.outcome is not None and d.outcome.ending == "out" and d.scores == (0, 3)


def test_out_refused_with_a_false_claim_gives_the_opponent_two() -> None:
    """A false claim (< 66) ends the deal: with ``false_claim="by_tricks"`` (Schnapsen's figure,
    and version 1's) the opponent scores 2, or 3 if he had no trick."""
    d = deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD", false_claim="by_tricks", out_timing="on_lead")
    d = run_exact(d, "out")
    assert d.outcome is not None and d.outcome.ending == "false-out" and d.scores == (0, 3)
    d = deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9D", "AD")
    d = run_exact(d, "play AS", "play JH", "play 9S", "play 9D", "out")  # player 1 claims with 0
    assert d.outcome is not None and d.outcome.ending == "false-out" and d.scores == (2, 0)


def test_a_closers_false_claim_costs_at_least_the_failed_closing() -> None:
    """A closer who claims falsely gives the opponent the greater of the two penalties: here 3,
    as the opponent had no trick when the stock was closed (he has one at the claim)."""
    d = deal66("AS TS KS QS JS 9C", "9S AH TH KH QH 9D", "AD")
    d = run_exact(d, "close", "play 9C", "play 9D", "play 9S", "play JS")  # 1 trumps, then 0 beats
    assert d.current_player == 0 and d.core.tricks == (1, 1)
    d = run_exact(d, "out")
    assert d.outcome is not None and d.outcome.ending == "false-out" and d.scores == (0, 3)


def test_out_at_66_scores_one_two_or_three_by_the_losers_points() -> None:
    """A good claim: 1 game point, 2 when the loser has fewer than 33 points, 3 when he has no
    trick."""
    rules = get_rules("sixty-six").closing_game
    assert rules is not None
    gp = rules.game_points
    assert (gp.worth(33, True), gp.worth(32, True), gp.worth(0, False)) == (1, 2, 3)
    d = deal66("AD TD KD QD AS TS", "9S JS 9H JH 9C JC", "JD")
    d = run_exact(d, "meld royal-marriage KD QD", "play KD", "play 9S", "play AD", "play JS", "play TD", "play 9H")
    d = run_exact(d, "out")
    assert d.scores == (3, 0)


# -- the last trick -------------------------------------------------------------------------


def _play_out(d: MarriageDeal) -> MarriageDeal:
    """Play the deal to its end: the first legal card each time, never a claim."""
    while not d.is_over:
        d = d.apply(next(a for a in d.legal_actions() if str(a).startswith("play")))
    return d


def test_the_last_trick_scores_10_when_the_stock_ran_out() -> None:
    """Sixty-six: the last trick scores 10 when the stock was exhausted, not closed."""
    d = _play_out(deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD"))
    assert d.core.last_trick_bonus >= 0
    assert sum(d.points) == 120 + 10 + sum(m.points for m in d.core.marriages if d.core.tricks[m.player])


def test_no_last_trick_10_after_closing() -> None:
    """After a closing the last trick scores nothing extra."""
    d = _play_out(run_exact(deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD"), "close"))
    assert d.core.last_trick_bonus == -1
    assert sum(d.core.card_points) < 120  # the stock's cards were never played


def test_schnapsen_has_no_last_trick_10_and_the_last_trick_wins_the_deal() -> None:
    """Schnapsen: no last-trick bonus; if nobody claims, the winner of the last trick wins."""
    d = _play_out(deal_schnapsen("AS TS KS QS JS", "AH TH KH QH JH", "AD"))
    assert sum(d.core.card_points) == 120 and d.core.last_trick_bonus == -1
    assert d.outcome is not None and d.outcome.ending == "cards-out"
    assert d.outcome.winner == d.core.leader


def test_sixty_six_without_a_claim_the_player_with_66_wins() -> None:
    """Sixty-six: when the cards run out unclaimed, the player with 66 or more wins; at 65 each
    nobody scores."""
    d = _play_out(deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD"))
    assert d.outcome is not None
    points = d.points
    if max(points) >= 66:
        assert d.outcome.winner == points.index(max(points))
    else:
        assert d.outcome.ending == "no-score" and d.scores == (0, 0)


# -- the game ---------------------------------------------------------------------------------


def test_a_game_goes_to_seven_game_points() -> None:
    """The deals' game points add up; the first to 7 wins (``target=10`` plays longer)."""
    game = new_game("sixty-six", seed=3)
    rng = random.Random(3)
    while not game.is_over:
        ids = game.legal_action_ids()
        game = game.apply(ids[rng.randrange(len(ids))])
    assert max(game.totals) >= 7 and game.winner == game.totals.index(max(game.totals))
    assert sum(sum(r.scores) for r in game.results) == sum(game.totals)
    game10 = new_game("schnapsen", seed=3, target=10)
    while not game10.is_over:
        ids = game10.legal_action_ids()
        game10 = game10.apply(ids[rng.randrange(len(ids))])
    assert max(game10.totals) >= 10


def test_options_are_validated() -> None:
    """Unknown option values are refused with an OptionError."""
    with pytest.raises(OptionError):
        get_rules("sixty-six", marriage_timing="never")
    with pytest.raises(OptionError):
        get_rules("schnapsen", playoff_rule="head")


# -- records, views, determinize -------------------------------------------------------------


def test_records_replay_and_views_hide_the_stock_and_the_other_hand() -> None:
    """A deal's record replays to the same state; a view shows no hidden card; a determinized
    deal looks the same to the viewer."""
    d = deal66("KH QH AS TS 9C JC", "AH TH KS QS JS 9S", "AD")
    d = run_exact(d, "meld common-marriage KH QH", "play KH", "play AH")
    assert replay(record_of(d)) == d
    v = d.view(1)
    assert "QH" in map(str, v.known[0]) and len(v.hand) == 6
    guess = determinize(v, random.Random(2))
    assert guess.view(1) == v
    assert guess.hands[0] & (1 << get_rules("sixty-six").deck.cards.index(v.known[0].cards[0]))


def test_schnapsen_closing_needs_two_face_down_cards() -> None:
    """Schnapsen: the talon can be closed only while it holds two face-down cards or more
    (``closing_min_stock=2``); Sixty-six allows it down to one."""
    d = deal_schnapsen("AS TS KS QS JS", "AH TH KH QH JH", "AD")
    for _ in range(4):  # player 0 wins four tricks: 9, 7, 5, 3, then 1 face-down card
        d = d.apply(sorted(a for a in legal(d) if a.startswith("play ") and a[-1] == "S")[0])
        d = d.apply(sorted(a for a in legal(d) if a.startswith("play ") and a[-1] == "H")[0])
    assert d.view(0).stock_size == 1 and d.current_player == 0
    assert "close" not in legal(d)
    d2 = deal_schnapsen("AS TS KS QS JS", "AH TH KH QH JH", "AD", closing_min_stock=1)
    for _ in range(4):
        d2 = d2.apply(sorted(a for a in legal(d2) if a.startswith("play ") and a[-1] == "S")[0])
        d2 = d2.apply(sorted(a for a in legal(d2) if a.startswith("play ") and a[-1] == "H")[0])
    assert "close" in legal(d2)


def test_views_show_neither_the_other_hand_nor_the_stock() -> None:
    """Two deals that differ only in the opponent's unseen cards and the stock look the same."""
    a = deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD", "AC TC KC QC JC 9C TD KD QD JD 9D")
    b = deal66("AS TS KS QS JS 9S", "AC TC KC QC JC 9C", "AD", "AH TH KH QH JH 9H TD KD QD JD 9D")
    assert a.view(0) == b.view(0) and a.view(1) != b.view(1)
    assert a.view(0).hand_sizes == (6, 6) and not a.view(0).known[1]


def test_determinize_keeps_what_the_strict_play_showed() -> None:
    """After a player fails to follow in strict play, no determinized world gives him that suit."""
    d = deal66("AS TS KS QS JS 9S", "AH TH 9H QD JD 9D", "AC")
    d = run_exact(d, "close", "play 9S", "play QD")  # void in spades, no trump (clubs): any card
    rules = get_rules("sixty-six")
    spades = sum(1 << i for i, c in enumerate(rules.deck.cards) if c.suit is not None and c.suit.code == "S")
    clubs = sum(1 << i for i, c in enumerate(rules.deck.cards) if c.suit is not None and c.suit.code == "C")
    rng = random.Random(4)
    for _ in range(20):
        world = determinize(d.view(0), rng)
        assert world.view(0) == d.view(0)
        assert not world.hands[1] & (spades | clubs)


def test_the_computer_claims_out_at_66_and_never_falsely() -> None:
    """The heuristic (level 4) claims "out" once it has 66, and makes no false claim."""
    from bezique_rules import level

    agent = level(4)
    for seed in range(30):
        d = new_deal("sixty-six" if seed % 2 else "schnapsen", seed=seed)
        assert isinstance(d, MarriageDeal)
        rng = random.Random(seed)
        while not d.is_over:
            p = d.current_player
            assert p is not None
            action = agent.choose(d.view(p), rng)
            if str(action) == "out":
                assert d.points[p] >= 66
            elif "out" in legal(d):
                assert d.points[p] < 66
            d = d.apply(action)
        assert d.outcome is not None and d.outcome.ending != "false-out"


# -- the printed rules (issue 27) -----------------------------------------------------------
#
# [pagat 66]: pagat.com, "Sixty-six" (www.pagat.com/marriage/66.html);
# [pagat Schnapsen]: pagat.com, "Schnapsen" (www.pagat.com/marriage/schnaps.html).


def _new(variant: str, **options: Any) -> MarriageDeal:
    """``new_deal(variant, **options)``, a deal of the marriage engine."""
    d = new_deal(variant, **options)
    assert isinstance(d, MarriageDeal)
    return d


def _schnapsen_closed_early() -> MarriageDeal:
    """Player 0 closes at the first lead (player 1 has no trick), player 1 then takes a trick
    and announces a marriage (33 points), and player 0 reaches 68 with a royal marriage."""
    d = deal_schnapsen("AD TD KD QD JC", "AC TC TS KS QS", "JD")
    d = run_exact(d, "close", "play JC", "play AC")  # player 1 wins 13
    d = run_exact(d, "meld common-marriage KS QS", "play KS", "play TD")  # 13 + 20 = 33; player 0: 14
    d = run_exact(d, "meld royal-marriage KD QD", "play KD", "play TC")  # player 0: 14 + 40 + 14 = 68
    assert d.points == (68, 33) and d.core.tricks == (2, 1) and d.core.closed_against_trickless
    return d


def test_schnapsen_a_closer_who_goes_out_scores_by_the_opponent_at_the_closing() -> None:
    """Item 1 [pagat Schnapsen, "Closing"]: the closer's game points are counted from the
    opponent's points and tricks at the moment of closing: 3, as the opponent had no trick when
    the talon was closed, although he has one trick and 33 points at the claim (1 at the claim)."""
    d = run_exact(_schnapsen_closed_early(), "out")
    assert d.outcome is not None and d.outcome.ending == "out" and d.scores == (3, 0)
    legacy = deal_schnapsen("AD TD KD QD JC", "AC TC TS KS QS", "JD", closing_game_points="at_claim")
    legacy = run_exact(legacy, *[str(a) for _, a in _moves(_schnapsen_closed_early())], "out")
    assert legacy.scores == (1, 0)  # by the opponent's 33 points and trick at the claim


def _moves(d: MarriageDeal) -> list[Any]:
    return [(p, d.rules.action_space.actions[a]) for p, a in d.core.moves]


def test_schnapsen_a_closer_who_never_goes_out_loses_the_deal() -> None:
    """Item 2 [pagat Schnapsen, "Closing"]: a closer who plays on to the last card and loses
    the last trick has lost, even with 66 or more: he can no longer go out then. Player 1 had no
    trick at the closing, so he scores 3."""
    d = deal_schnapsen("AD TD KD QD JC", "AC KS QS JS TS", "JD")
    d = run_exact(d, "close", "meld royal-marriage KD QD", "play KD", "play JS")  # 46
    d = run_exact(d, "play AD", "play QS", "play TD", "play KS")  # 74: player 0 could claim here
    d = run_exact(d, "play QD", "play TS", "play JC", "play AC")  # he plays on; player 1 takes the last trick
    assert d.points == (87, 13)
    assert d.outcome is not None and d.outcome.ending == "closing-failed" and d.scores == (0, 3)
    legacy = deal_schnapsen("AD TD KD QD JC", "AC KS QS JS TS", "JD", closing_played_out="count")
    legacy = run_exact(legacy, *[str(a) for _, a in _moves(d)])
    assert legacy.outcome is not None and legacy.outcome.ending == "closing-made" and legacy.scores == (3, 0)


def test_sixty_six_a_closer_who_never_goes_out_loses_the_deal() -> None:
    """Item 2 [pagat 66, "Closing"]: the same in Sixty-six: 89 points, the last trick lost, the
    closing failed; 3 to the opponent, who had no trick at the closing."""
    d = deal66("AD TD KD QD TS JC", "AC KS QS JS 9S 9H", "9D", stock="JH 9C")
    d = run_exact(d, "meld royal-marriage KD QD", "play QD", "play 9S")  # 43; draws JH and 9C
    d = run_exact(d, "close", "play AD", "play 9H", "play TD", "play 9C", "play KD", "play JS")  # 70
    assert d.points == (70, 0) and "out" in legal(d)  # he could go out here
    d = run_exact(d, "play TS", "play KS", "play JH", "play QS", "play JC", "play AC")
    assert d.points == (89, 13)
    assert d.outcome is not None and d.outcome.ending == "closing-failed" and d.scores == (0, 3)


def test_sixty_six_marriages_end_with_the_open_stock() -> None:
    """Item 3 [pagat 66]: once the stock is closed or exhausted no marriage can be declared;
    the Hoyle reading (marriages to the end) is the option ``marriages_after_stock``."""
    d = _new("sixty-six", seed=8)
    assert "meld common-marriage KD QD" in legal(d)
    closed = d.apply("close")
    assert not any(a.startswith("meld") for a in legal(closed))
    with pytest.raises(IllegalActionError, match="marriages end once the stock is closed or exhausted"):
        closed.apply("meld common-marriage KD QD")
    hoyle = _new("sixty-six", seed=8, marriages_after_stock=True).apply("close")
    assert "meld common-marriage KD QD" in legal(hoyle)
    # Schnapsen keeps its own rule: marriages in any trick, closed or not [pagat Schnapsen]
    s = deal_schnapsen("AD TD KD QD JC", "AC TC TS KS QS", "JD").apply("close")
    assert "meld royal-marriage KD QD" in legal(s)


def _played_out(seed: int, **options: Any) -> MarriageDeal:
    """Seed ``seed`` played to the end by random.Random(seed) choices, never closing or claiming."""
    rng = random.Random(seed)
    d = _new("sixty-six", seed=seed, **options)
    while not d.is_over:
        d = d.apply(rng.choice([a for a in d.legal_actions() if str(a) not in ("out", "close")]))
    return d


def test_sixty_six_played_out_the_higher_total_wins() -> None:
    """Item 4 [pagat 66]: cards played to the end with no claim: the higher total wins; equal
    totals are a draw with no game points (version 1 gave the deal to player 0 whenever he had 66)."""
    d = _played_out(97)
    assert d.points == (74, 76)
    assert d.outcome is not None and d.outcome.ending == "cards-out" and d.scores == (0, 1)
    tie = _played_out(167)
    assert tie.points == (75, 75)
    assert tie.outcome is not None and tie.outcome.ending == "no-score" and tie.scores == (0, 0)
    assert _played_out(97, unclaimed_end="count").scores == (1, 0)  # version 1's reading


def test_sixty_six_a_false_claim_costs_a_flat_two() -> None:
    """Item 5 [pagat 66, scoring table]: "out" with fewer than 66 gives the opponent 2, whatever
    his points or tricks; the 2-or-3 figure (Schnapsen's) is the option ``false_claim="by_tricks"``."""
    d = run_exact(deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD"), "play AS", "play 9H")
    assert d.core.tricks == (1, 0) and "out" in legal(d)
    flat = d.apply("out")
    assert flat.outcome is not None and flat.outcome.ending == "false-out" and flat.scores == (0, 2)
    by_tricks = deal66("AS TS KS QS JS 9S", "AH TH KH QH JH 9H", "AD", false_claim="by_tricks")
    assert run_exact(by_tricks, "play AS", "play 9H", "out").scores == (0, 3)
    schnapsen = run_exact(deal_schnapsen("AS TS KS QS JS", "AH TH KH QH JH", "AD"), "play AS", "play JH", "out")
    assert schnapsen.scores == (0, 3)  # [pagat Schnapsen]: 3 when the opponent has no trick


@pytest.mark.parametrize("variant", ["sixty-six", "schnapsen"])
def test_out_only_just_after_winning_a_trick_or_declaring_a_marriage(variant: str) -> None:
    """Item 6 [pagat 66, pagat Schnapsen]: "out" may be claimed only just after winning a trick
    or declaring a marriage, so never at the deal's first lead before a marriage."""
    for seed in range(20):
        d = _new(variant, seed=seed)
        assert "out" not in legal(d)
        with pytest.raises(IllegalActionError, match="just after winning a trick"):
            d.apply("out")
        marriages = [a for a in legal(d) if a.startswith("meld")]
        if marriages:
            assert "out" in legal(d.apply(marriages[0]))  # just after declaring one
        after = run_exact(d, *[str(d.legal_actions()[0])])
        after = after.apply(after.legal_actions()[0])
        assert "out" in legal(after)  # the winner of the first trick, on lead
        assert "out" in legal(_new(variant, seed=seed, out_timing="on_lead"))  # version 1


def test_version_1_records_replay_with_version_1_behaviour() -> None:
    """A record written under behaviour version 1 (no new options named) replays with the
    legacy values: the first-lead "out" it may contain stays legal, and a false claim costs 2, or
    3 against a trickless opponent, in both presets."""
    for variant in ("sixty-six", "schnapsen"):
        record = {**record_of(new_deal(variant, seed=3, out_timing="on_lead").apply("out"))}
        record["rules_version"], record["options"] = 1, {"target": 7}
        old = replay(record)
        assert old.rules.options["out_timing"] == "on_lead" and old.rules.options["false_claim"] == "by_tricks"
        assert old.scores == (0, 3)
