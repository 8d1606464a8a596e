"""Rulebook scenarios for ``marjolet`` on stacked decks (reference.md §14.2, presets.md, §15).

Every test builds its deck with `scenario.stack` (naming only the cards that
matter), drives the deal with notation strings, and checks scores, the breakdown, the
phase, the legal actions and the `RuleCode` of refusals.

Unless a test says otherwise: dealer 1, so player 0 leads trick 1; the turn-up is 9S
(spades trumps); player 0 wins trick 1 by leading ``AC`` that player 1 answers with a
plain filler.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from bezique_rules import (
    MeldRules,
    Phase,
    Rank,
    RuleCode,
    StockBonuses,
    Suit,
    TargetEnd,
    TrumpWith,
    available_variants,
    determinize,
    get_rules,
    new_deal,
    new_game,
    record_of,
    replay,
)
from bezique_rules.agents import HeuristicAgent, SearchAgent, level
from bezique_rules.engine.stock import StockDeal
from scenario import dull_action, legal, play_trick, refusal, run, skip_forced_pass, stack, stock_deal, stock_game

PIQUET_PACK = tuple(r + s for s in "SHDC" for r in "ATKQJ987")
"""The 32-card piquet pack, one of each card."""

# -- helpers ---------------------------------------------------------------------------


def won_trick_1(**kwargs: Any) -> StockDeal:
    """A deal where player 0 has led ``AC`` and won trick 1 with player 1's ``9H`` (he is to declare)."""
    kwargs.setdefault("p1", "9H")
    state = stock_game("marjolet", **kwargs)
    state = state.apply("play AC").apply("play 9H")
    assert state.phase is Phase.DECLARE and state.current_player == 0
    return state


def to_stock_end(state: StockDeal) -> StockDeal:
    """Play on dully (never declaring) until the stock is gone and the play-off begins."""
    while state.phase is not Phase.PLAYOFF:
        state = state.apply(dull_action(state))
    return state


def finish(state: StockDeal) -> StockDeal:
    """Play the deal to its end dully."""
    while not state.is_over:
        state = state.apply(dull_action(state))
    return state


def part(state: StockDeal, name: str) -> tuple[int, int]:
    """One part of the breakdown for both players."""
    b = state.breakdown
    return getattr(b[0], name), getattr(b[1], name)


# ---------------------------------------------------------------------------
# deck and deal
# ---------------------------------------------------------------------------


def test_the_preset_is_registered_with_its_parts() -> None:
    """marjolet: a registered preset, one 32-card piquet pack, two players, game 500."""
    assert "marjolet" in available_variants() and "marjolet" in available_variants(builtin=True)
    rules = get_rules("marjolet")
    assert rules.players == 2 and rules.deck.size == 32 and rules.deck.packs == 1
    assert sorted(str(c) for c in rules.deck.cards) == sorted(PIQUET_PACK)
    assert rules.game_end.first_target == 500
    assert rules.meld_rules.reuse == "distinct_sets" and rules.stock.melds_per_trick == 0


def test_deal_three_then_three_turn_up_under_the_stock() -> None:
    """presets.md: 3 each, then 3 each (6 each), non-dealer first; the turn-up fixes trumps; 19 cards above it."""
    deck = stack("marjolet", p0="AC KS QS JS KD QD", p1="AH TH 8S 7D 8D 9D", turn_up="9S")
    assert deck[0:3] == ["AC", "KS", "QS"] and deck[3:6] == ["AH", "TH", "8S"] and deck[12] == "9S"
    state = stock_deal(new_deal("marjolet", deck=deck))
    view = state.view(0)
    assert sorted(map(str, view.hand)) == sorted(["AC", "KS", "QS", "JS", "KD", "QD"])
    assert sorted(map(str, state.view(1).hand)) == sorted(["AH", "TH", "8S", "7D", "8D", "9D"])
    assert str(view.turn_up) == "9S" and view.trump is not None and view.trump.name == "SPADES"
    assert view.stock_size == 19 and view.hand_sizes == (6, 6)
    assert state.current_player == 0


def test_a_deal_has_ten_stock_tricks_and_six_playoff_tricks() -> None:
    """The stock lasts 10 tricks (19 cards and the turn-up); then 6 play-off tricks, 16 in all."""
    state = to_stock_end(stock_game("marjolet"))
    assert state.tricks == 10 and state.view(0).hand_sizes == (6, 6) and state.view(0).stock_size == 0
    assert finish(state).tricks == 16


def test_stock_phase_play_is_free() -> None:
    """While the stock lasts any card may be played: no duty to follow, win or trump."""
    state = stock_game("marjolet", p0="AC", p1="8C 8S 9H").apply("play AC")
    assert {"play 8C", "play 8S", "play 9H"} <= set(legal(state))


# ---------------------------------------------------------------------------
# melds: several per trick won, the marjolet marriages, free reuse
# ---------------------------------------------------------------------------


def test_marjolet_meld_values() -> None:
    """§14.2: royal marriage 40, plain 20, marjolet with the trump queen 40, with a plain queen 20."""
    state = won_trick_1(p0="AC KS QS JS KD QD")
    assert set(legal(state)) == {
        "meld royal-marriage KS QS",
        "meld common-marriage KD QD",
        "meld royal-marjolet-marriage QS JS",
        "meld marjolet-marriage JS QD",
        "pass",
    }
    assert run(state, "meld marjolet-marriage JS QD").breakdown[0].melds == 20
    assert run(state, "meld royal-marjolet-marriage QS JS").breakdown[0].melds == 40
    assert run(state, "meld royal-marriage KS QS").breakdown[0].melds == 40
    assert run(state, "meld common-marriage KD QD").breakdown[0].melds == 20


def test_several_melds_on_one_trick_reusing_cards_even_all_from_the_table() -> None:
    """Several melds after one won trick; a melded card serves again in another meld, and a
    new set made only of cards already on the table is legal."""
    state = won_trick_1(p0="AC KS QS JS KD QD")
    state = run(
        state,
        "meld royal-marriage KS QS; meld common-marriage KD QD; meld royal-marjolet-marriage QS* JS;"
        " meld marjolet-marriage JS* QD*",
    )
    assert state.breakdown[0].melds == 40 + 20 + 40 + 20
    assert sorted(map(str, state.view(1).tabled[0])) == sorted(["KS", "QS", "JS", "KD", "QD"])
    assert state.phase is Phase.PLAY and state.tricks == 1  # nothing new was left: the forced pass, then the draw


def test_the_same_set_of_cards_is_never_melded_twice() -> None:
    """The only restriction on reuse: exactly the same card set may not be melded a second time."""
    state = won_trick_1(p0="AC KS QS JS KD QD", p1="9H 8H")
    state = run(state, "meld royal-marriage KS QS")
    assert refusal(state, "meld royal-marriage KS* QS*") is RuleCode.MELD_CARD_REUSED
    assert "meld royal-marriage KS* QS*" not in legal(state)
    # nor on a later trick won
    state = run(state, "pass; play QD; play 8H")
    assert state.phase is Phase.DECLARE and state.current_player == 0
    assert refusal(state, "meld royal-marriage KS* QS*") is RuleCode.MELD_CARD_REUSED
    assert "meld royal-marjolet-marriage QS* JS" in legal(state)


def test_a_quartet_reuses_a_married_king() -> None:
    """A king of a declared marriage joins four kings on the same trick (80, the default table)."""
    state = won_trick_1(p0="AC KS QS KD KH KC")
    state = run(state, "meld royal-marriage KS QS; meld four-kings KS* KD KH KC")
    assert state.breakdown[0].melds == 40 + 80


def test_melded_cards_stay_playable() -> None:
    """Melded cards lie on the table but may still be played to a trick (``*``)."""
    state = run(won_trick_1(p0="AC KS QS JS KD QD"), "meld royal-marriage KS QS; pass")
    assert "play KS*" in legal(state) and "play QS*" in legal(state)
    state = state.apply("play KS*")
    assert "KS" not in {str(c) for c in state.view(1).tabled[0]}


def test_option_one_meld_per_trick() -> None:
    """Option ``melds_per_trick=1`` (a house rule): only one meld after each trick won."""
    state = won_trick_1(p0="AC KS QS JS KD QD", melds_per_trick=1)
    state = state.apply("meld royal-marriage KS QS")
    # the trump seven is still unscored (public), so he stays to pass, whatever he holds
    assert state.phase is Phase.DECLARE and legal(state) == ["pass"]
    assert refusal(state, "meld common-marriage KD QD") is RuleCode.MELD_LIMIT
    assert state.breakdown[0].melds == 40


def test_no_declaring_in_the_playoff() -> None:
    """Once the stock is gone melding is over: tabled cards go back to the hands, no declarations."""
    state = to_stock_end(stock_game("marjolet", p0="AC KS QS JS KD QD"))
    assert state.tabled == (0, 0)
    assert all(a.startswith("play") for a in legal(state))


@pytest.mark.parametrize(
    ("quartets", "points"),
    [
        ("aces_kings_queens_jacks", {"four-aces": 100, "four-kings": 80, "four-queens": 60, "four-jacks": 40}),
        ("aces_tens_kings_queens", {"four-aces": 100, "four-tens": 80, "four-kings": 60, "four-queens": 40}),
    ],
)
def test_quartet_tables(quartets: str, points: dict[str, int]) -> None:
    """Option ``quartets``: 4A 100, 4K 80, 4Q 60, 4J 40 (default) or 4A 100, 4T 80, 4K 60, 4Q 40."""
    kinds = get_rules("marjolet", quartets=quartets).melds.kinds
    assert {k.name: k.points for k in kinds if k.name.startswith("four-")} == points


def test_four_tens_scores_in_the_other_table() -> None:
    """With ``quartets="aces_tens_kings_queens"`` four tens score 80 and four jacks nothing."""
    state = won_trick_1(p0="AC TS TH TD TC JS", p1="9H JH JD JC", quartets="aces_tens_kings_queens")
    assert "meld four-tens TS TH TD TC" in legal(state)
    assert run(state, "meld four-tens TS TH TD TC").breakdown[0].melds == 80
    default = won_trick_1(p0="AC TS TH TD TC JS")
    assert not [a for a in legal(default) if "tens" in a]


# ---------------------------------------------------------------------------
# the trump seven
# ---------------------------------------------------------------------------


def test_trump_seven_exchanged_for_the_turn_up_after_a_won_trick() -> None:
    """After a won trick the trump seven is exchanged for the turn-up: +10, the seven goes under the stock."""
    state = won_trick_1(p0="AC 7S KD QD", turn_up="9S")
    assert "exchange 7S" in legal(state) and "declare 7S" not in legal(state)
    state = state.apply("exchange 7S")
    assert part(state, "seven") == (10, 0)
    assert str(state.view(1).turn_up) == "7S"
    assert "9S" in {str(c) for c in state.view(0).hand}
    assert refusal(state, "exchange 7S") in (RuleCode.SEVEN_NOT_ALLOWED, RuleCode.CARD_NOT_HELD)


def test_the_exchanged_turn_up_may_join_a_meld_on_the_same_trick() -> None:
    """The card taken for the seven may be melded on the same trick (nothing forbids it in §14.2)."""
    state = won_trick_1(p0="AC 7S JS KD", turn_up="QS")
    state = state.apply("exchange 7S")
    assert "meld royal-marjolet-marriage QS JS" in legal(state)
    assert run(state, "meld royal-marjolet-marriage QS JS").breakdown[0].melds == 40


def test_trump_seven_played_in_the_stock_phase_scores_ten_win_or_lose() -> None:
    """An unexchanged trump seven scores 10 for its player when played while the stock lasts, even losing."""
    state = stock_game("marjolet", p0="7S", p1="8S").apply("play 7S").apply("play 8S")
    assert part(state, "seven") == (10, 0) and state.current_player == 1


def _seven_kept_to_the_playoff(**options: Any) -> StockDeal:
    """Player 0 keeps the trump seven, never exchanged, into the last six tricks; the state
    just before he plays it."""
    state = stock_game("marjolet", p0="7S", **options)
    while state.phase is not Phase.PLAYOFF:  # player 0 keeps the seven and never exchanges it
        state = state.apply(dull_action(state, ("7S", "")))
    assert "7S" in {str(c) for c in state.view(0).hand} and part(state, "seven") == (0, 0)
    while "play 7S" not in legal(state):
        state = state.apply(dull_action(state, ("7S", "")))
    return state


def test_trump_seven_played_in_the_last_tricks_scores_ten() -> None:
    """Issue 27, item 7 (le-mistigri.fr, "Le Marjolet": "S'il n'y a pas d'échange, le 7 d'atout
    fait remporter 10 points au joueur lorsqu'il le joue, qu'il gagne ou non la levée";
    reference.md §14.2: "otherwise playing it scores 10"): a trump seven never exchanged scores
    10 for whoever plays it in any trick, the last six included; the "not in the last tricks"
    exception is Bezique's (option ``seven_scores_late=False``, behaviour version 1)."""
    state = _seven_kept_to_the_playoff()
    assert state.phase is Phase.PLAYOFF
    assert part(state.apply("play 7S"), "seven") == (10, 0)
    legacy = _seven_kept_to_the_playoff(seven_scores_late=False)
    assert part(legacy.apply("play 7S"), "seven") == (0, 0)


@pytest.mark.parametrize(("dealer", "points"), [(1, 10), (0, 10)])
def test_a_turned_seven_scores_for_the_dealer(dealer: int, points: int) -> None:
    """A seven turned up as trumps scores 10 for the dealer at once; it is never exchanged."""
    state = stock_game("marjolet", turn_up="7S", dealer=dealer)
    seven = list(part(state, "seven"))
    assert seven[dealer] == points and seven[1 - dealer] == 0


def test_option_turned_seven_points() -> None:
    """Option ``turned_seven_points`` (gamerules.com: 7): what the turned seven gives the dealer."""
    assert part(stock_game("marjolet", turn_up="7S", turned_seven_points=7), "seven") == (0, 7)
    assert part(stock_game("marjolet", turn_up="7S", turned_seven_points=0), "seven") == (0, 0)


# ---------------------------------------------------------------------------
# bonuses and card points
# ---------------------------------------------------------------------------


def _drawer_of_turn_up(state: StockDeal) -> tuple[StockDeal, int]:
    """Play dully to the end of the stock; return the state and who took the last card (the turn-up)."""
    turn_up = state.view(0).turn_up
    state = to_stock_end(state)
    return state, next(p for p in (0, 1) if turn_up in state.view(p).hand)


def test_drawing_the_last_stock_card_scores_ten() -> None:
    """The player who draws the last card of the stock (the turn-up) scores 10."""
    state, drawer = _drawer_of_turn_up(stock_game("marjolet", turn_up="9S"))
    bonus = list(part(state, "bonus"))
    assert bonus[drawer] == 10 and bonus[1 - drawer] == 0


def test_the_exchanged_seven_is_the_last_card_and_scores_its_drawer() -> None:
    """After an exchange the trump seven lies under the stock: whoever draws it last scores the 10."""
    state = run(won_trick_1(p0="AC 7S", turn_up="9S"), "exchange 7S")  # then the forced pass
    state, drawer = _drawer_of_turn_up(state)
    assert "7S" in {str(c) for c in state.view(drawer).hand}
    assert part(state, "bonus")[drawer] == 10


def test_option_last_card_bonus() -> None:
    """Option ``last_card_bonus``: its value for the last card, 0 for none."""
    state, drawer = _drawer_of_turn_up(stock_game("marjolet", last_card_bonus=0))
    assert part(state, "bonus") == (0, 0)
    state, drawer = _drawer_of_turn_up(stock_game("marjolet", last_card_bonus=25))
    assert part(state, "bonus")[drawer] == 25


SWEEP_STOCK = "? " * 18 + "AD"
"""With this stock and the dull policy keeping AS TS KS QS JS, player 0 wins the 10th trick,
draws AD (player 1 takes the turn-up 9S) and leads the play-off holding AS TS KS QS JS AD
against 9S TC KC JC 9C 7C."""


def _to_playoff(**options: Any) -> StockDeal:
    """The sweep deal at the start of the play-off (player 0 to lead)."""
    state = stock_game("marjolet", p0="AS TS KS QS JS AC", p1="7S 8S", turn_up="9S", **options)
    while state.phase is not Phase.PLAYOFF:
        state = skip_forced_pass(state.apply(dull_action(state, ("AS TS KS QS JS", ""))))
    assert state.current_player == 0
    return state


def _lead_all(state: StockDeal, leads: str) -> StockDeal:
    """Player 0 leads ``leads`` in order; player 1 answers dully (his legal duties)."""
    for card in leads.split():
        state = play_trick(state, 0, card)
    assert state.is_over
    return state


def test_winning_all_six_playoff_tricks_scores_forty() -> None:
    """Winning all six final tricks: +40 (besides the 10 for the last trick)."""
    state = _to_playoff(stock=SWEEP_STOCK)
    assert sorted(map(str, state.view(0).hand)) == sorted(["AS", "TS", "KS", "QS", "JS", "AD"])
    state = _lead_all(state, "AS TS KS QS JS AD")
    assert part(state, "last_trick") == (10, 0)
    assert part(state, "bonus") == (40, 10)  # player 1 drew the last card (the turn-up)


def test_no_sweep_bonus_when_a_playoff_trick_is_lost() -> None:
    """Losing any of the six final tricks (here the first: TC beats KC) gives no +40, even
    to the winner of the other five."""
    state = _to_playoff()
    assert sorted(map(str, state.view(0).hand)) == sorted(["AS", "TS", "KS", "QS", "JS", "KC"])
    state = play_trick(state, 0, "KC")
    assert state.current_player == 1
    state = finish(state)
    assert part(state, "last_trick") == (10, 0)
    assert part(state, "bonus") == (0, 10)


def test_option_sweep_bonus() -> None:
    """Option ``sweep_bonus``: what all six final tricks score (0: nothing)."""
    assert part(_lead_all(_to_playoff(stock=SWEEP_STOCK, sweep_bonus=100), "AS TS KS QS JS AD"), "bonus") == (100, 10)
    assert part(_lead_all(_to_playoff(stock=SWEEP_STOCK, sweep_bonus=0), "AS TS KS QS JS AD"), "bonus") == (0, 10)


def test_sweep_bonus_goes_to_whoever_wins_every_playoff_trick() -> None:
    """Over random deals: the sweep bonus is scored exactly when one player won all six play-off tricks."""
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for seed in range(80):
        state = stock_deal(new_deal("marjolet", seed=seed, last_card_bonus=0))
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_action_ids()))
        plays = state.moves[-12:]
        winner = 0 if part(state, "last_trick")[0] else 1
        swept = all(plays[k * 2][0] == winner for k in range(1, 6))
        seen[swept] += 1
        assert part(state, "bonus") == tuple(40 if swept and p == winner else 0 for p in (0, 1))
    assert seen[True] and seen[False]


# ---------------------------------------------------------------------------
# play-off duties, card points, the last trick
# ---------------------------------------------------------------------------


def test_playoff_follow_beat_or_trump() -> None:
    """After the stock: follow suit and win if possible; void, trump if possible."""
    state = _to_playoff()
    after_ad = state.apply("play KC")
    assert legal(after_ad) == ["play TC"]  # must follow clubs and beat the king
    after_as = state.apply("play AS")
    assert legal(after_as) == ["play 9S"]  # must follow trumps
    # player 1 void in hearts and trumps left? lead JS after AS: he may play anything
    later = play_trick(state, 0, "AS").apply("play TS")
    assert len(legal(later)) == 5  # no trump left, no spade: any card


def test_cards_won_and_the_last_trick() -> None:
    """Aces and tens won score 10 each (80 in all); the last trick 10."""
    state = _lead_all(_to_playoff(stock=SWEEP_STOCK), "AS TS KS QS JS AD")
    won = [sum(10 for c in state.view(0).won[p] if str(c)[0] in "AT") for p in (0, 1)]
    assert part(state, "cards") == tuple(won) and sum(won) == 80
    assert sum(part(state, "last_trick")) == 10
    assert state.scores == tuple(b.total for b in state.breakdown)


# ---------------------------------------------------------------------------
# the game, records, views, agents
# ---------------------------------------------------------------------------


def test_game_to_500() -> None:
    """The game ends after the deal in which a player reaches 500; the higher total wins."""
    rng = random.Random(2)
    game = new_game("marjolet", seed=4)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_action_ids()))
    totals = game.totals
    assert max(totals) >= 500 and game.winner == totals.index(max(totals))
    assert get_rules("marjolet", target=300).game_end.first_target == 300


def test_records_replay_and_determinize() -> None:
    """A deal's record replays to the same state; a determinized world keeps the viewer's view."""
    rng = random.Random(9)
    state = new_deal("marjolet", seed=12)
    for _ in range(25):
        state = state.apply(rng.choice(state.legal_action_ids()))
    assert replay(record_of(state)) == state
    viewer = state.current_player or 0
    world = determinize(state.view(viewer), random.Random(1))
    assert world.view(viewer) == state.view(viewer)
    assert world.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("agent", [HeuristicAgent(), level(2), level(3), SearchAgent(iterations=8)])
def test_computer_players_play_legal_marjolet(agent: Any) -> None:
    """The heuristic and search players (levels 2-5) play whole Marjolet deals legally."""
    state = new_deal("marjolet", seed=3)
    rng = random.Random(0)
    while not state.is_over:
        player = state.current_player
        assert player is not None
        action = agent.choose(state.view(player), rng)
        assert state.is_legal(action)
        state = state.apply(action)


def test_option_tie_rule_and_target() -> None:
    """Options ``target`` and ``tie_rule`` make the game's `TargetEnd`."""
    end = get_rules("marjolet", target=1000, tie_rule="play_on").game_end
    assert isinstance(end, TargetEnd) and (end.target, end.tie_rule) == (1000, "play_on")


# ---------------------------------------------------------------------------
# the new parts serve any stock preset
# ---------------------------------------------------------------------------


def test_distinct_set_reuse_is_a_part_bezique_can_use() -> None:
    """`MeldRules(reuse="distinct_sets")` in two-hand Bezique: a marriage from the king of a
    tabled four kings and the queen of a tabled bezique becomes legal (the classes rules refuse
    it for want of a card from the hand); the same set twice is still refused."""
    rules = get_rules("bezique")
    free = attrs.evolve(rules, meld_rules=MeldRules(reuse="distinct_sets"))
    deck = stack("bezique", p0="KS KH KD KC QS JD AC AC", p1="8C 8C 8D", turn_up="9H", stock="AD")
    script = "play AC; play 8C; meld four-kings KS KH KD KC; play AC; play 8C; meld bezique QS JD"
    classes = run(new_deal(rules, deck=deck), script).apply("play AD").apply("play 8D")
    reuse = run(new_deal(free, deck=deck), script).apply("play AD").apply("play 8D")
    assert classes.phase is Phase.DECLARE and reuse.phase is Phase.DECLARE
    assert refusal(stock_deal(classes), "meld common-marriage KS* QS*") is RuleCode.MELD_NEEDS_NEW_CARD
    reuse = reuse.apply("meld common-marriage KS* QS*")
    assert reuse.breakdown[0].melds == 80 + 40 + 20
    marriage = free.melds.index("common-marriage")
    assert free.meld_rules.refusal(free.melds, marriage, 0b11, 0, 0b11, ((marriage, 0b11),)) == (
        RuleCode.MELD_CARD_REUSED,
        "the same set of cards may be melded only once",
    )


def test_stock_bonuses_are_a_part_pinochle_can_use() -> None:
    """`StockBonuses` in two-hand Pinochle: whoever draws the turn-up scores ``last_card``."""
    rules = get_rules("pinochle")
    with_bonus = attrs.evolve(rules, stock=attrs.evolve(rules.stock, bonuses=StockBonuses(last_card=10)))
    state = stock_deal(new_deal(with_bonus, seed=2))
    turn_up = state.view(0).turn_up
    while state.phase is not Phase.PLAYOFF:
        state = state.apply(dull_action(state))
    drawer = next(p for p in (0, 1) if turn_up in state.view(p).hand)
    assert part(state, "bonus")[drawer] == 10 and part(state, "bonus")[1 - drawer] == 0
    plain = stock_deal(new_deal("pinochle", seed=2))
    while plain.phase is not Phase.PLAYOFF:
        plain = plain.apply(dull_action(plain))
    assert part(plain, "bonus") == (0, 0)


def test_trump_with_pattern() -> None:
    """`TrumpWith`: the jack of trumps with each plain queen (three instances), none without trumps."""
    deck = get_rules("marjolet").deck
    pattern = TrumpWith(Rank.JACK, (Rank.QUEEN,))
    faces = pattern.faces(deck, Suit.HEARTS.value)
    assert sorted(sorted(str(deck.faces[f]) for f in fs) for fs in faces) == [["JH", "QC"], ["JH", "QD"], ["JH", "QS"]]
    assert pattern.faces(deck, -1) == []
