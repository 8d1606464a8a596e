"""Pending declarations (issue 15 item 1; reference.md §2.2, §4.5, §15): option
``pending_declarations`` of the two-hand, multi-hand and multi-pack Bezique presets.

A trick winner whose cards show several melds lays them all out but scores one per trick
won [Foster, Parlett]: after the trick's scoring meld, further ``meld`` actions lay their
cards out unscored (pending); each later trick he wins, the same action with every card
``*`` scores one of them instead of a new meld, while all its cards are still on the table.

Two-hand deals (`scenario.stack`): dealer 1, player 0 leads, turn-up 9H (hearts trumps); player 0
wins a trick by leading a plain card that player 1 answers with a card of another plain suit.
"""

from __future__ import annotations

import random

import pytest

from bezique_rules import IllegalActionError, Phase, RuleCode, determinize, record_of, replay
from bezique_rules.engine.stock import StockDeal
from scenario import deal, legal, play_until, run, run_exact, stock_deal, stock_game

HAND = "KH QH QS JD 9S 9D 9C"
"""Player 0 holds a royal marriage and a bezique (and three plain nines to win tricks with)."""


def laid_out() -> StockDeal:
    """Trick 1 won by player 0, who scores the bezique and lays out the royal marriage pending
    (he still has to ``pass``, his only action)."""
    s = stock_game(p0=HAND, p1="8C 8C 8D", turn_up="9H", pending_declarations=True)
    return run(s, "play 9S; play 8C; meld bezique QS JD").apply("meld royal-marriage KH QH")


def test_two_combinations_laid_out_one_scored_the_other_after_the_next_trick_won() -> None:
    """Both melds are laid out on trick 1, the bezique scores 40; the royal marriage scores 40
    on trick 2, won by player 0, with the meld action naming its tabled cards."""
    s = stock_game(p0=HAND, p1="8C 8C 8D", turn_up="9H", pending_declarations=True)
    s = run(s, "play 9S; play 8C")
    assert legal(s) == ["meld royal-marriage KH QH", "meld bezique QS JD", "pass"]
    s = run(s, "meld bezique QS JD")
    assert s.scores == (40, 0) and s.phase is Phase.DECLARE  # he stays: more melds may be laid out
    assert legal(s) == ["meld royal-marriage KH QH", "pass"]
    s = s.apply("meld royal-marriage KH QH")
    assert s.scores == (40, 0)  # laid out, not scored
    assert s.view(1).tabled[0] == s.view(0).tabled[0] and len(s.view(0).tabled[0]) == 4
    s = run(s, "pass; play 9D; play 8C")
    assert s.phase is Phase.DECLARE and s.current_player == 0
    assert "meld royal-marriage KH* QH*" in legal(s)
    s = run(s, "meld royal-marriage KH* QH*")
    assert s.scores == (80, 0)
    assert s.view(0).pending == ()
    assert [(m.kind, m.points) for m in s.view(1).melds] == [("bezique", 40), ("royal-marriage", 40)]


def test_views_show_the_pending_melds_apart_from_the_scored_ones() -> None:
    """Every player's view lists player 0's pending royal marriage (with the 40 it will score)
    in `pending`, and only the scored bezique in `melds`."""
    s = laid_out()
    for p in (0, 1):
        view = s.view(p)
        assert [(m.player, m.kind, str(m.cards), m.points) for m in view.pending] == [
            (0, "royal-marriage", "KH QH", 40)
        ]
        assert [(m.kind, m.points) for m in view.melds] == [("bezique", 40)]


def test_a_pending_meld_scores_on_a_later_trick_not_the_same_one() -> None:
    """The trick's one scoring meld is spent: scoring the pending marriage at once is refused
    (MELD_LIMIT), and it is not among the legal actions."""
    s = laid_out()
    assert legal(s) == ["pass"]
    with pytest.raises(IllegalActionError) as info:
        s.apply("meld royal-marriage KH* QH*")
    assert info.value.rule is RuleCode.MELD_LIMIT


def test_a_pending_meld_is_scored_instead_of_a_new_one() -> None:
    """On a later trick won, scoring the pending meld is that trick's meld: a new meld may then
    only be laid out, pending in its turn."""
    s = stock_game(p0="KH QH QS JD 9S 9D 9C", p1="8C 8C 8D", turn_up="9H", stock="KS", pending_declarations=True)
    s = run(s, "play 9S; play 8C; meld bezique QS JD; meld royal-marriage KH QH")
    s = run(s, "play 9D; play 8C")  # player 0 drew KS: a spade marriage with the bezique's Q-S
    assert legal(s) == ["meld common-marriage KS QS*", "meld royal-marriage KH* QH*", "pass"]
    s = run(s, "meld royal-marriage KH* QH*")
    assert s.scores == (80, 0)
    s = run(s, "meld common-marriage KS QS*")
    assert s.scores == (80, 0)
    assert [m.kind for m in s.view(0).pending] == ["common-marriage"]


def test_playing_a_card_of_a_pending_meld_cancels_it() -> None:
    """Player 0 leads the tabled K-H: his pending royal marriage is cancelled (never scored,
    gone from the views) and cannot be scored when he wins the trick."""
    s = laid_out()
    s = run(s, "pass; play KH*")
    assert s.view(1).pending == () and s.view(0).pending == ()
    s = s.apply("play 8C")
    assert s.phase is Phase.DECLARE and s.current_player == 0
    assert legal(s) == ["pass"]  # nothing to score: the marriage was cancelled
    assert s.scores == (40, 0)
    assert [m.kind for m in s.view(1).melds] == ["bezique"]
    assert len(stock_deal(s).declarations) == 1  # the cancelled meld is no declaration at all


def test_pending_melds_lapse_when_the_stock_is_exhausted() -> None:
    """No declarations in the play-off: a meld still pending when the stock runs out never scores."""
    s = laid_out()
    s = run(s, "pass")
    s = play_until(s, 24, keep=("KH QH", ""))
    assert s.phase is Phase.PLAYOFF
    assert s.view(0).pending == ()
    assert "royal-marriage" not in [m.kind for m in s.view(0).melds]


def test_without_the_option_the_second_meld_is_not_laid_out() -> None:
    """Option off (the default): after the trick's meld the winner draws at once; nothing is pending."""
    s = stock_game(p0=HAND, p1="8C 8C 8D", turn_up="9H")
    s = run(s, "play 9S; play 8C; meld bezique QS JD")
    assert s.phase is Phase.PLAY and s.view(0).pending == ()


def test_records_replay_pending_declarations() -> None:
    """A record of a deal with pending melds replays to the same state, pending melds included."""
    s = run(laid_out(), "pass; play 9D; play 8C")
    record = record_of(s)
    assert record["options"]["pending_declarations"] is True
    again = replay(record)
    assert again == s
    assert again.view(0).pending == s.view(0).pending
    assert again.legal_actions() == s.legal_actions()


def test_determinize_keeps_the_pending_melds() -> None:
    """A determinized world of player 1 keeps player 0's pending meld (public), and player 0
    may still score it there."""
    s = run(laid_out(), "pass")
    view = s.view(1)
    for i in range(8):
        world = stock_deal(determinize(view, random.Random(i)))
        assert world.view(1) == view
        assert world.pending == s.pending
        assert world.view(1).pending == view.pending


def test_rubicon_bezique_pending_declaration() -> None:
    """Multi-pack (Rubicon): the bezique scores, four aces wait and score on the next trick won."""
    s = stock_game("rubicon-bezique", p0="AS AH AD AC QS JD 9C 9C 9S", p1="8C 8C 8D", pending_declarations=True)
    s = run(s, "play 9C; play 8C")
    s = run(s, "meld bezique QS JD; meld four-aces AS AH AD AC")
    assert s.scores == (40, 0)
    assert [m.kind for m in s.view(1).pending] == ["four-aces"]
    s = run(s, "play 9C; play 8C")
    assert "meld four-aces AS* AH* AD* AC*" in legal(s)
    s = run(s, "meld four-aces AS* AH* AD* AC*")
    assert s.scores == (140, 0) and s.view(0).pending == ()


def test_three_hand_bezique_pending_declaration() -> None:
    """Three-hand: the same rule, the winner scores one meld per trick won."""
    s = deal("three-hand-bezique", ("KH QH QS JD 9S 9D 9C", "8C 8C", "8D 8D"), pending_declarations=True)
    s = run_exact(s, "play 9S; play 8C; play 8D; meld bezique QS JD; meld royal-marriage KH QH; pass")
    assert s.scores == (40, 0, 0)
    assert [m.kind for m in s.view(2).pending] == ["royal-marriage"]
    s = run_exact(s, "play 9D; play 8C; play 8D; meld royal-marriage KH* QH*")
    assert s.scores == (80, 0, 0)
