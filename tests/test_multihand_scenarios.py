"""Rulebook scenarios for three- and four-hand Bezique on stacked decks (reference.md §7, §2).

Presets ``three-hand-bezique`` (3 packs, each for himself) and ``four-hand-bezique``
(4 packs, four individuals); hearts are trumps (turn-up 9H) unless a test says
otherwise, and the last seat deals, so player 0 leads trick 1. Decks come from
`scenario.stack`, which names only the cards that matter.
"""

from __future__ import annotations

import random

import pytest

from bezique_rules import (
    Action,
    Card,
    DealState,
    IllegalActionError,
    Phase,
    RuleCode,
    Suit,
    Verb,
    determinize,
    get_rules,
    new_deal,
    new_game,
    record_of,
    replay,
)
from bezique_rules.parts.tricks import BeatRule, PlayDuty
from bezique_rules.rules.multihand import _PROFILES as _MULTIHAND_PROFILES
from bezique_rules.rules.multihand import MultihandOptions
from bezique_rules.rules.ruleset import read_options
from scenario import cards, deal, dull, run_exact

PLAYERS = {"three-hand-bezique": 3, "four-hand-bezique": 4, "partnership-bezique": 4}
"""Reference §7: the players of each multi-hand preset."""

INDIVIDUAL = ("three-hand-bezique", "four-hand-bezique")
RANK_ORDER = "ATKQJ987"


def _finish_declaring(state: DealState) -> DealState:
    """Pass until the declaration is over (the winner may still have a seven action open)."""
    while state.phase is Phase.DECLARE:
        state = state.apply("pass")
    return state


def _phase(state: DealState) -> Phase:
    return state.phase


def _meld(state: DealState, name: str) -> Action:
    """The one legal meld action of kind ``name``."""
    found = [a for a in state.legal_actions() if a.verb is Verb.MELD and a.meld == name]
    assert len(found) == 1, [str(a) for a in state.legal_actions()]
    return found[0]


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_deck_deal_and_turn_up(variant: str) -> None:
    """One pack per player, 8 cards each dealt 3-2-3, a turn-up for trumps, the rest the stock; dealer's left leads."""
    n = PLAYERS[variant]
    rules = get_rules(variant)
    assert rules.players == n and rules.deck.size == 32 * n and rules.deck.packs == n
    assert not rules.partnership and rules.sides == tuple((p,) for p in range(n))
    state = deal(variant, ["AS KS QS JS TS 9S 8S 7S"], turn_up="JC")
    view = state.view(0)
    assert sorted(map(str, view.hand)) == sorted(["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"])
    assert view.hand_sizes == (8,) * n
    assert view.turn_up == Card.parse("JC") and view.trump is Suit.CLUBS
    assert view.stock_size == 32 * n - 8 * n - 1
    assert state.phase is Phase.PLAY and state.current_player == 0


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_play_to_the_left_and_the_highest_card_wins(variant: str) -> None:
    """Each player in turn to the left plays one card; the highest of the suit led wins; the winner alone declares."""
    n = PLAYERS[variant]
    hands = ["KS", "AS", "QS", "JS"][:n]
    state = deal(variant, hands)
    state = run_exact(state, ";".join(f"play {h}" for h in hands))
    assert state.phase is Phase.DECLARE and state.current_player == 1


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_identical_cards_the_first_played_wins(variant: str) -> None:
    """Of two identical cards the one played first wins the trick (§1.2)."""
    n = PLAYERS[variant]
    hands = ["9S", "AS", "AS", "AS"][:n]
    state = run_exact(deal(variant, hands), ";".join(f"play {h}" for h in hands))
    assert state.current_player == 1


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_a_trump_wins_over_the_suit_led(variant: str) -> None:
    """Any trump beats every card of a plain suit led, whoever plays it."""
    n = PLAYERS[variant]
    hands = ["AS", "TS", "7H", "KS"][:n]
    state = run_exact(deal(variant, hands), ";".join(f"play {h}" for h in hands))
    assert state.current_player == 2


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_the_winner_draws_first_then_each_player_to_his_left(variant: str) -> None:
    """After a stock trick the winner draws the top card, then each player to his left in turn."""
    n = PLAYERS[variant]
    hands = ["KS", "AS", "QS", "JS"][:n]
    top = ["KC", "QC", "JC", "TC"][:n]
    state = run_exact(deal(variant, hands, stock=" ".join(top)), ";".join(f"play {h}" for h in hands) + "; pass")
    assert state.phase is Phase.PLAY and state.current_player == 1
    for i in range(n):
        seat = (1 + i) % n
        assert Card.parse(top[i]) in state.view(seat).hand, (seat, top[i])


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_the_last_player_to_draw_takes_the_turn_up(variant: str) -> None:
    """On the last stock trick the turn-up is drawn last: by the player on the winner's right, who shows it."""
    n = PLAYERS[variant]
    state = new_deal(variant, seed=3)
    while state.view(0).stock_size > n - 1 or state.phase is not Phase.PLAY or state.view(0).trick:
        state = dull(state)
    turn_up = state.view(0).turn_up
    assert turn_up is not None
    while _phase(state) is not Phase.PLAYOFF:
        state = dull(state)
    winner = state.current_player
    assert winner is not None
    right = (winner + n - 1) % n
    assert turn_up in state.view(winner).known[right]
    assert state.view(0).turn_up is None and state.view(0).stock_size == 0
    assert all(size == 8 for size in state.view(0).hand_sizes)


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_single_double_and_triple_bezique_build_up(variant: str) -> None:
    """Bezique 40, then double 500 with the first pair still tabled, then triple 1500: 2040 in all (§7, R3)."""
    n = PLAYERS[variant]
    hands = ["QS QS QS JD JD JD AC AC", "8S 8S 8S 8C 8C 8C 7S 7S", "8D 8D 8D 9C 9C 9C 7D 7D", "9S 9S 9S 9D 9D 9D 7C 7C"]
    state = deal(variant, hands[:n], stock="AC")
    follow = ["8S", "8D", "9S"][: n - 1]

    def win_trick(s: DealState) -> DealState:
        return run_exact(s, "play AC;" + ";".join(f"play {c}" for c in follow))

    state = win_trick(state)
    state = _finish_declaring(state.apply(_meld(state, "bezique")))
    state = win_trick(state)
    state = _finish_declaring(state.apply("meld double-bezique QS QS* JD JD*"))
    state = win_trick(state)
    state = _finish_declaring(state.apply("meld triple-bezique QS QS* QS* JD JD* JD*"))
    assert state.breakdown[0].melds == 40 + 500 + 1500
    assert sorted(str(c) for c in state.view(1).tabled[0]) == ["JD"] * 3 + ["QS"] * 3


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_triple_bezique_declared_at_once(variant: str) -> None:
    """Three queens of spades and three jacks of diamonds from the hand score 1500 at once."""
    n = PLAYERS[variant]
    hands = ["QS QS QS JD JD JD AC", "8S", "8D", "9S"][:n]
    state = run_exact(deal(variant, hands), "play AC;" + ";".join(f"play {h}" for h in hands[1:]))
    state = state.apply("meld triple-bezique QS QS QS JD JD JD")
    assert state.scores[0] == 1500


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_trump_seven_exchanged_then_another_declared(variant: str) -> None:
    """The trump seven is exchanged for the turn-up (+10); a further copy then only scores 10 (§2.4)."""
    n = PLAYERS[variant]
    hands = ["7H 7H AC AC", "8S 8S", "8D 8D", "9S 9S"][:n]
    state = deal(variant, hands, turn_up="KH")
    follow = ";".join(f"play {h.split()[0]}" for h in hands[1:])
    state = run_exact(state, "play AC;" + follow + "; exchange 7H")
    assert Card.parse("KH") in state.view(0).hand
    state = _finish_declaring(state)
    assert state.view(0).turn_up == Card.parse("7H")
    state = run_exact(state, "play AC;" + follow)
    legal = [str(a) for a in state.legal_actions()]
    assert "declare 7H" in legal and "exchange 7H" not in legal
    state = state.apply("declare 7H")
    assert state.breakdown[0].seven == 20


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_only_the_winner_declares(variant: str) -> None:
    """No declaration on one's turn to play: melds are refused outside the winner's declaration."""
    n = PLAYERS[variant]
    state = deal(variant, ["KH QH AC", "KC QC"][:n])
    with pytest.raises(IllegalActionError) as err:
        state.apply("meld royal-marriage KH QH")
    assert err.value.rule is RuleCode.NO_DECLARATION_NOW


def _winning(trick: list[Card], trump: Suit) -> Card:
    best = trick[0]
    for c in trick[1:]:
        if (c.suit is trump and best.suit is not trump) or (
            c.suit is best.suit and RANK_ORDER.index(c.rank.code) < RANK_ORDER.index(best.rank.code)
        ):
            best = c
    return best


def _expected(hand: list[Card], trick: list[Card], trump: Suit, rule: str, undertrump: bool = True) -> set[Card]:
    """The cards the play-off duty allows, written out from §1.4 (a) and (d); with
    ``undertrump=False`` a void player who cannot win by trumping plays any card (Britannica)."""
    if not trick:
        return set(hand)
    led = trick[0]
    target = _winning(trick, trump) if rule == "head_the_trick" else led
    follow = [c for c in hand if c.suit is led.suit]

    def beats(c: Card, w: Card) -> bool:
        return (c.suit is trump and w.suit is not trump) or (
            c.suit is w.suit and RANK_ORDER.index(c.rank.code) < RANK_ORDER.index(w.rank.code)
        )

    if follow:
        if rule in ("follow_only", "follow_only_or_trump"):
            return set(follow)
        higher = [c for c in follow if target.suit is led.suit and beats(c, target)]
        return set(higher or follow)
    trumps = [c for c in hand if c.suit is trump]
    if rule == "follow_only" or not trumps:
        return set(hand)
    if rule == "head_the_trick" and target.suit is trump:
        return set([c for c in trumps if beats(c, target)] or (trumps if undertrump else hand))
    return set(trumps)


@pytest.mark.parametrize("variant", INDIVIDUAL)
@pytest.mark.parametrize("rule", ["head_the_trick", "follow_beat_or_trump", "follow_only"])
def test_playoff_duties(variant: str, rule: str) -> None:
    """Last 8 tricks: follow and win the trick if able (default), else win by trumping
    (overtrump), else any card (Britannica: "if not able to follow suit, nor to win the trick by
    trumping, may throw away any card"); ``undertrump=True`` (version 1) plays a losing trump."""
    for undertrump in (False, True):
        _check_playoff_duties(variant, rule, undertrump)


def _check_playoff_duties(variant: str, rule: str, undertrump: bool) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(4):
        state = new_deal(variant, seed=seed, playoff_rule=rule, undertrump=undertrump)
        while not state.is_over:
            p = state.current_player
            if state.phase is Phase.PLAYOFF and p is not None:
                view = state.view(p)
                trump = view.trump
                assert trump is not None
                legal = {a.cards[0] for a in state.legal_actions()}
                assert legal == _expected(list(view.hand), list(view.trick), trump, rule, undertrump)
                checked += 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked == 4 * 8 * PLAYERS[variant]


def test_playoff_policy_is_head_the_trick_by_default() -> None:
    """The default play-off duty is head-the-trick against the card winning so far."""
    policy = get_rules("three-hand-bezique").playoff_policy
    assert policy.duty is PlayDuty.HEAD_THE_TRICK and policy.beat_rule is BeatRule.CURRENT_WINNER


@pytest.mark.parametrize("variant", [*INDIVIDUAL, "partnership-bezique"])
def test_partner_options_only_in_the_partnership_preset(variant: str) -> None:
    """Presets: only partnership Bezique offers ``must_beat_partner`` and ``pass_privilege``; without
    partners the profile fixes them (beat every card, no passing) and the rules agree."""
    profile = _MULTIHAND_PROFILES[variant]
    rules = get_rules(variant)
    names = {spec.name for spec in rules.option_specs}
    assert ("must_beat_partner" in names) is ("pass_privilege" in names) is profile.partnership
    assert rules.partnership is profile.partnership and rules.players == profile.players
    read = read_options(MultihandOptions, rules.options, profile.fixed_options)
    assert read.must_beat_partner is True and read.pass_privilege is profile.partnership
    assert rules.playoff_policy.must_beat_partner is True
    if profile.partnership:
        changed = get_rules(variant, must_beat_partner=False, pass_privilege=False)
        read = read_options(MultihandOptions, changed.options, profile.fixed_options)
        assert (read.must_beat_partner, read.pass_privilege) == (False, False)
        assert changed.playoff_policy.must_beat_partner is False


def test_playoff_must_beat_the_card_winning_so_far() -> None:
    """Three-hand play-off: after a higher card of the suit led, the next player must beat that one, not the lead."""
    rules = get_rules("three-hand-bezique")
    deck = rules.deck
    ids = {str(c): deck.face(c) for c in cards("JS KS TS AS QS 8H")}
    hand = (1 << ids["AS"]) | (1 << ids["QS"]) | (1 << ids["8H"])
    trick = (ids["JS"], ids["TS"])
    table = rules.trump_tables[Suit.HEARTS.value]
    assert rules.playoff_policy.legal(table, hand, trick) == 1 << ids["AS"]
    literal = get_rules("three-hand-bezique", playoff_rule="follow_beat_or_trump").playoff_policy
    assert literal.legal(table, hand, trick) == (1 << ids["AS"]) | (1 << ids["QS"])


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_brisques_and_last_trick(variant: str) -> None:
    """Every ace and ten won scores 10 at the end of the deal, and the last trick 10."""
    n = PLAYERS[variant]
    state = new_deal(variant, seed=11)
    while not state.is_over:
        state = dull(state)
    parts = state.breakdown
    assert sum(p.cards for p in parts) == 10 * 8 * n
    assert sum(p.last_trick for p in parts) == 10
    assert len(state.scores) == n


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_game_to_2000_each_for_himself(variant: str) -> None:
    """A game runs deal after deal, the deal passing to the left, until someone reaches 2000; the highest wins."""
    n = PLAYERS[variant]
    assert get_rules(variant).options["target"] == 2000
    game = new_game(variant, seed=5, target=600)
    rng = random.Random(5)
    dealers = [game.deal.dealer]
    while not game.is_over:
        number = game.deal_number
        game = game.apply(rng.choice(game.legal_action_ids()))
        if game.deal_number != number and not game.is_over:
            dealers.append(game.deal.dealer)
    assert len(game.totals) == n and max(game.totals) >= 600
    assert dealers == [(n - 1 + i) % n for i in range(len(dealers))]
    if game.winner is not None:
        assert game.totals[game.winner] == max(game.totals)


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_views_and_determinize_keep_what_each_player_sees(variant: str) -> None:
    """A world sampled for a player shows him exactly his own view, at every decision of a deal."""
    rng = random.Random(2)
    state = new_deal(variant, seed=2)
    while not state.is_over:
        p = state.current_player
        assert p is not None
        view = state.view(p)
        assert determinize(view, rng).view(p) == view
        state = state.apply(rng.choice(state.legal_actions()))


# -- the printed rules (issue 27) -----------------------------------------------------------
#
# [Brit]: Encyclopaedia Britannica, 9th edition, vol. 3, "Bézique", section "Three and Four
# Handed Bézique" (p. 625; en.wikisource.org, Page:Encyclopædia Britannica, Ninth Edition,
# v. 3.djvu/643).


@pytest.mark.parametrize("variant", [*INDIVIDUAL, "partnership-bezique"])
def test_a_second_double_bezique_on_a_bezique_already_used_in_a_double(variant: str) -> None:
    """Item 8 [Brit]: "A second double bezique, counting 500, may be declared to a bezique on
    the table, which has already been used for double bezique" (three-hand; four-hand: "a second
    double bezique or triple bezique may be scored as before"): 500 + 500. Version 1's reading,
    a card scoring once in a double, is ``second_double_bezique=False``."""
    n = PLAYERS[variant]
    hands = ["QS QS QS JD JD JD AC AC", "8S 8S 8S 8C 8C 8C 7S 7S", "8D 8D 8D 9C 9C 9C 7D 7D", "9S 9S 9S 9D 9D 9D 7C 7C"]
    follow = ["8S", "8D", "9S"][: n - 1]

    def win_trick(s: DealState) -> DealState:
        return run_exact(s, "play AC;" + ";".join(f"play {c}" for c in follow))

    for second_double, scores in ((True, 1000), (False, None)):
        state = win_trick(deal(variant, hands[:n], stock="AC", second_double_bezique=second_double))
        state = _finish_declaring(state.apply("meld double-bezique QS QS JD JD"))
        state = win_trick(state)
        if scores is None:
            with pytest.raises(IllegalActionError, match="only once in a double-bezique"):
                state.apply("meld double-bezique QS QS* JD JD*")
            continue
        state = _finish_declaring(state.apply("meld double-bezique QS QS* JD JD*"))  # a new bezique + a tabled one
        assert state.breakdown[0].melds == scores
        state = win_trick(state)
        with pytest.raises(IllegalActionError, match="at most half its cards"):
            state.apply("meld double-bezique QS* QS* JD* JD*")  # four tabled cards: no new bezique
    if n == 4:  # a fourth pack: two new jacks on two tabled queens are no bezique on the table
        hands4 = ["QS QS JD JD JD JD AC AC", *hands[1:]]
        state = win_trick(deal(variant, hands4, stock="AC"))
        state = _finish_declaring(state.apply("meld double-bezique QS QS JD JD"))
        state = win_trick(state)
        with pytest.raises(IllegalActionError, match="half of each card"):
            state.apply("meld double-bezique QS* QS* JD JD")


def _void_without_a_winning_trump(state: DealState) -> DealState | None:
    """Play dull moves into the last tricks until the player to play is void in the suit led,
    holds trumps but none that beats the trump winning the trick, and holds other cards."""
    while not state.is_over:
        v = state.view(state.current_player) if state.current_player is not None else None
        if v is not None and state.phase is Phase.PLAYOFF and len(v.trick) >= 2 and v.trump is not None:
            led = v.trick[0].suit
            trumps = [c for c in v.hand if c.suit == v.trump]
            winning_trump = any(c.suit == v.trump for c in v.trick) and led != v.trump
            if winning_trump and trumps and not any(c.suit == led for c in v.hand) and len(trumps) < len(v.hand):
                best = max((c for c in v.trick if c.suit == v.trump), key=lambda c: "789JQKTA".index(c.rank.code))
                if all("789JQKTA".index(c.rank.code) <= "789JQKTA".index(best.rank.code) for c in trumps):
                    return state
        state = dull(state)
    return None


@pytest.mark.parametrize("variant", INDIVIDUAL)
def test_the_last_tricks_a_player_who_cannot_win_by_trumping_plays_any_card(variant: str) -> None:
    """Item 9 [Brit, three-hand]: "In playing the last eight tricks, the third hand, if not able to
    follow suit, nor to win the trick by trumping, may throw away any card he pleases" (four-hand
    plays as three-hand, presets.md). Version 1 forced a losing trump (``undertrump=True``)."""
    for seed in range(40):
        state = _void_without_a_winning_trump(new_deal(variant, seed=seed))
        if state is None:
            continue
        p = state.current_player
        assert p is not None
        hand = state.view(p).hand
        assert {str(a) for a in state.legal_actions()} == {f"play {c}" for c in hand}
        old = replay({**record_of(state), "options": {**state.rules.options, "undertrump": True}})
        trump = state.view(p).trump
        assert {str(a) for a in old.legal_actions()} == {f"play {c}" for c in hand if c.suit == trump}
        return
    pytest.fail("no deal reached a trick where a void player cannot win by trumping")


def test_three_hand_seed_11_the_issue_position() -> None:
    """Item 9 [Brit]: issue 27's position (three-hand, seed 11, choices by random.Random(11),
    hearts trumps, the trick 7S QH): the third hand, holding 8H KD QD 7D 9C 9C, could only play
    the losing 8H under version 1; he may now play any card."""
    rng = random.Random(11)
    old = new_deal("three-hand-bezique", seed=11, undertrump=True)
    while [str(c) for c in old.view(0).trick] != ["7S", "QH"]:
        old = old.apply(rng.choice(old.legal_actions()))
    assert old.phase is Phase.PLAYOFF and old.view(0).trump == Suit.HEARTS
    third = old.current_player
    assert third is not None
    assert sorted(str(c) for c in old.view(third).hand) == ["7D", "8H", "9C", "9C", "KD", "QD"]
    assert [str(a) for a in old.legal_actions()] == ["play 8H"]
    now = replay({**record_of(old), "options": {**old.rules.options, "undertrump": False}})
    assert sorted(str(a) for a in now.legal_actions()) == ["play 7D", "play 8H", "play 9C", "play KD", "play QD"]
