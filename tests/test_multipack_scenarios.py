"""Rulebook scenarios for multi-pack Bezique on stacked decks (reference.md §4-§6, §15.1).

Presets ``rubicon-bezique`` (4 packs, 9 cards), ``six-pack-bezique`` alias
``chinese-bezique`` (6 packs, 12 cards, the cut and guess) and ``eight-pack-bezique``
(8 packs, 15 cards). Every test builds its deck with `scenario.stack` (naming
only the cards that matter), drives the deal with notation strings, and checks
scores, the breakdown, the phase, the legal actions and the `RuleCode` of refusals.

Unless a test says otherwise: dealer 1, so player 0 leads trick 1; player 0 wins a
trick by leading ``9C`` that player 1 answers with ``7S`` (no trump, or trumps that
are neither clubs nor spades: the leader wins), and the stock ``REFILL`` gives them
another ``9C`` and ``7S`` to draw; six-pack deals are made with ``cut_and_guess=False``
unless the test is about the cut.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import attrs
import pytest

from bezique_rules import (
    Action,
    Card,
    CardSet,
    Phase,
    RuleCode,
    ScoreBreakdown,
    Suit,
    Verb,
    determinize,
    get_rules,
    new_deal,
    new_game,
)
from bezique_rules.engine.stock import StockDeal
from bezique_rules.parts.stock import RubiconScoring
from bezique_rules.rules.multipack import _PROFILES as _MULTIPACK_PROFILES
from bezique_rules.rules.multipack import MultipackOptions
from bezique_rules.rules.ruleset import read_options
from scenario import (
    RUBICON_RESULTS,
    cards,
    dull_action,
    legal,
    places,
    play_out,
    refusal,
    rubicon_result,
    run,
    stack,
    stock_deal,
    stock_game,
)

PRESETS = ("rubicon-bezique", "six-pack-bezique", "eight-pack-bezique")
PACKS = {"rubicon-bezique": 4, "six-pack-bezique": 6, "eight-pack-bezique": 8}
"""§4.1, §5.1, §6: how many piquet packs each preset shuffles together."""
HAND = {"rubicon-bezique": 9, "six-pack-bezique": 12, "eight-pack-bezique": 15}
"""§4.1, §5.1, §6: how many cards each player is dealt."""


def full_deck(variant: str) -> list[str]:
    """Every card of the preset's deck: ``PACKS[variant]`` piquet packs (A T K Q J 9 8 7 of each suit)."""
    return [r + s for s in "SHDC" for r in "ATKQJ987"] * PACKS[variant]


WIN = "play 9C; play 7S"
"""Player 0 leads a plain nine, player 1 answers a seven of another plain suit: player 0 wins."""
REFILL = "9C 7S 9C 7S 9C 7S"
"""The top of the stock: after each of the first three tricks player 0 (the winner) draws 9C, player 1 7S."""


# -- helpers ---------------------------------------------------------------------------


def opts(variant: str, **options: Any) -> dict[str, Any]:
    """Options for a scenario deal: six-pack without the cut unless the test sets it."""
    if variant.startswith("six") or variant == "chinese-bezique":
        options.setdefault("cut_and_guess", False)
    return options


def mdeal(variant: str = "rubicon-bezique", **kwargs: Any) -> StockDeal:
    """A stacked scenario deal (see `scenario.deal`), six-pack without the cut by default."""
    return stock_game(variant, **opts(variant, **kwargs))


def won_by_0(state: StockDeal) -> StockDeal:
    """Play `WIN` and check that player 0 won the trick (he is to declare or lead)."""
    after = run(state, WIN)
    assert after.current_player == 0 and [str(c) for c in after.view(0).last_trick] == ["9C", "7S"]
    return after


def melds(state: StockDeal) -> tuple[int, int]:
    """The meld points per player."""
    b = state.breakdown
    return b[0].melds, b[1].melds


def brisques(state: StockDeal, player: int) -> int:
    """10 for each ace and ten ``player`` has won in tricks."""
    return sum(10 for c in state.view(player).won[player] if str(c)[0] in "AT")


def check_final(state: StockDeal, *, double_bonus: bool = False) -> None:
    """At the end: the breakdown adds up to the scores, one score is 0, and the scores are
    `scenario.rubicon_result` of the totals (every part but cards and contract) and brisques won."""
    assert state.is_over and state.phase is Phase.OVER
    b = state.breakdown
    assert tuple(x.total for x in b) == state.scores
    assert min(state.scores) == 0
    variant = state.rules.name
    totals = (
        b[0].melds + b[0].seven + b[0].last_trick + b[0].bonus,
        b[1].melds + b[1].seven + b[1].last_trick + b[1].bonus,
    )
    won = (brisques(state, 0), brisques(state, 1))
    scores, counted = rubicon_result(variant, totals, won, double_bonus=double_bonus)
    assert state.scores == scores
    assert (b[0].cards, b[1].cards) == (won if counted else (0, 0))
    last = RUBICON_RESULTS[variant][2]
    assert sorted(x.last_trick for x in b) == [0, last]


# ---------------------------------------------------------------------------
# §4.1, §5.1, §6: deck and deal
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "size", "hand", "stock"),
    [
        ("rubicon-bezique", 128, 9, 110),
        ("six-pack-bezique", 192, 12, 168),
        ("eight-pack-bezique", 256, 15, 226),
    ],
)
def test_deck_hand_and_stock_sizes_no_turn_up(variant: str, size: int, hand: int, stock: int) -> None:
    """§4.1/§5.1/§6: 128/192/256 cards, 9/12/15 a hand, the rest the stock, no turn-up and no trump."""
    rules = get_rules(variant)
    assert rules.deck.size == size and rules.players == 2
    assert Counter(str(c) for c in rules.deck.cards) == Counter(full_deck(variant))
    s = stock_deal(new_deal(variant, seed=11))
    v = s.view(0)
    assert v.hand_sizes == (hand, hand) and len(v.hand) == hand
    assert v.stock_size == stock and len(s.stock) == stock
    assert v.turn_up is None and s.turn_up == -1
    assert v.trump is None and s.trump == -1
    assert rules.stock.dix is None


@pytest.mark.parametrize("variant", PRESETS)
@pytest.mark.parametrize("dealer", [0, 1])
def test_dealing_order(variant: str, dealer: int) -> None:
    """Deal: Rubicon three at a time x3, six/eight-pack one at a time; the non-dealer first; the stock follows."""
    deck = list(full_deck(variant))
    random.Random(5).shuffle(deck)
    s = stock_deal(new_deal(variant, deck=deck, dealer=dealer, **opts(variant)))
    first = (dealer + 1) % 2
    n = HAND[variant]
    if variant == "rubicon-bezique":
        mine = deck[0:3] + deck[6:9] + deck[12:15]
        theirs = deck[3:6] + deck[9:12] + deck[15:18]
    else:
        mine, theirs = deck[0 : 2 * n : 2], deck[1 : 2 * n : 2]
    assert Counter(str(c) for c in s.view(first).hand) == Counter(mine)
    assert Counter(str(c) for c in s.view(dealer).hand) == Counter(theirs)
    assert [str(s.rules.deck.card(c)) for c in s.stock] == deck[2 * n :]
    assert s.current_player == first
    # the stacker (`scenario.places`, from the DealPattern) puts hands in the same places
    assert sorted(deck[i] for i in places(get_rules(variant), dealer).hands[first]) == sorted(mine)


def test_stacked_hands_are_what_the_scenario_names() -> None:
    """The helper's places agree with the engine: named hands arrive whole, the stock is drawn top first."""
    s = mdeal(p0="KH QH AS TS 9C", p1="7S JD", stock="AH TH")
    assert Counter(s.view(0).hand) >= Counter(cards("KH QH AS TS 9C"))
    assert Counter(s.view(1).hand) >= Counter(cards("7S JD"))
    after = run(s, "play 9C; play 7S; pass")  # player 0 wins and draws first
    assert after.view(0).hand.count(Card.parse("AH")) == 1 and after.view(1).hand.count(Card.parse("TH")) == 1


@pytest.mark.parametrize(
    ("alias", "name"), [("chinese-bezique", "six-pack-bezique"), ("japanese-bezique", "rubicon-bezique")]
)
def test_aliases(alias: str, name: str) -> None:
    """Presets: ``chinese-bezique`` is ``six-pack-bezique``; ``japanese-bezique`` is ``rubicon-bezique``."""
    a, b = get_rules(alias), get_rules(name)
    assert a.deck == b.deck and a.melds == b.melds and a.stock == b.stock and a.deal == b.deal


@pytest.mark.parametrize("variant", ["rubicon-bezique", "six-pack-bezique", "eight-pack-bezique"])
def test_a_preset_offers_every_family_option_its_profile_does_not_fix(variant: str) -> None:
    """Presets: a multi-pack preset offers exactly the family's options its profile does not fix
    (eight-pack: no carte blanche options; only six-pack: the cut and guess, the bonus doubling),
    and its typed options take the fixed values for the others."""
    profile = _MULTIPACK_PROFILES[variant]
    rules = get_rules(variant)
    names = {spec.name for spec in rules.option_specs}
    fixed = dict(profile.fixed_options)
    assert names == {"profile"} | {f.name for f in attrs.fields(MultipackOptions)} - set(fixed)
    assert (profile.carte_blanche == 0) is ("carte_blanche" in fixed)
    assert ("cut_and_guess" in names) is (variant == "six-pack-bezique")
    read = read_options(MultipackOptions, rules.options, profile.fixed_options)
    for name, value in fixed.items():
        assert getattr(read, name) == value
    assert read.deals == rules.options["deals"] and read.carte_blanche is (profile.carte_blanche > 0)


def test_typed_options_follow_the_option_values() -> None:
    """Presets: the multi-pack options record reads each offered option's value by name."""
    rules = get_rules("six-pack-bezique", cut_and_guess=False, rubicon_double_bonus=True, carte_blanche=False)
    read = read_options(MultipackOptions, rules.options, _MULTIPACK_PROFILES["six-pack-bezique"].fixed_options)
    assert (read.cut_and_guess, read.rubicon_double_bonus, read.carte_blanche) == (False, True, False)
    assert rules.stock.cut_guess is None and rules.stock.carte_blanche == 0
    assert isinstance(rules.stock.result, RubiconScoring) and rules.stock.result.rubicon_doubles_bonus


@pytest.mark.parametrize("variant", ["rubicon-bezique", "eight-pack-bezique"])
def test_default_dealer_and_leader(variant: str) -> None:
    """Presets: default dealer 1; player 0 (the non-dealer) leads trick 1."""
    s = new_deal(variant, seed=2)
    assert s.dealer == 1 and s.current_player == 0 and s.phase is Phase.PLAY


# ---------------------------------------------------------------------------
# §4.2 / §1.2: trumps
# ---------------------------------------------------------------------------


def test_no_trump_highest_card_of_the_suit_led_wins() -> None:
    """§1.2: before trumps exist a card of another suit never wins; a higher card of the suit led does."""
    s = mdeal(p0="9H", p1="AS TH")
    assert run(s, "play 9H; play AS").current_player == 0  # the ace of another suit loses
    assert run(s, "play 9H; play TH").current_player == 1  # a higher heart wins


def test_identical_cards_the_first_played_wins() -> None:
    """§1.2: of two identical cards the one played first wins (multi-pack has up to eight copies)."""
    s = mdeal("eight-pack-bezique", p0="AC", p1="AC")
    assert run(s, "play AC; play AC").current_player == 0


@pytest.mark.parametrize("variant", PRESETS)
def test_first_marriage_fixes_trumps_as_a_royal_marriage(variant: str) -> None:
    """§4.2: there is no trump at the start; the first marriage fixes trumps and scores 40 as royal."""
    s = mdeal(variant, p0="KD QD 9C", p1="7S")
    assert s.trump_suit is None
    s = won_by_0(s)
    assert "meld royal-marriage KD QD" in legal(s) and s.trump_suit is None
    s = s.apply("meld royal-marriage KD QD")
    assert s.trump_suit is Suit.DIAMONDS and s.view(1).trump is Suit.DIAMONDS
    assert melds(s) == (40, 0) and s.phase is Phase.PLAY  # one meld a trick: the draw follows


@pytest.mark.parametrize("suit", "SHDC")
def test_any_suit_can_become_trumps(suit: str) -> None:
    """§4.2: before trumps exist, a marriage in any suit is offered as a royal marriage."""
    s = won_by_0(mdeal(p0=f"K{suit} Q{suit} 9C", p1="7S"))  # no trump yet: 7S never wins
    assert f"meld royal-marriage K{suit} Q{suit}" in legal(s)
    assert s.apply(f"meld royal-marriage K{suit} Q{suit}").trump_suit is Suit("SHDC".index(suit))


def test_common_marriage_not_before_trumps() -> None:
    """§4.2: before trumps a marriage is royal (and fixes trumps); a common marriage is not a meld yet."""
    s = won_by_0(mdeal(p0="KH QH 9C", p1="7S"))
    assert "meld common-marriage KH QH" not in legal(s)
    assert refusal(s, "meld common-marriage KH QH") is RuleCode.NOT_A_MELD


def test_after_trumps_marriages_are_royal_or_common() -> None:
    """§4.4: once hearts are trumps, a spade marriage is common (20) and not royal."""
    s = run(mdeal(p0="KH QH KS QS 9C", p1="7D", stock="9C 7D"), "play 9C; play 7D")
    s = s.apply("meld royal-marriage KH QH")
    s = run(s, "play 9C; play 7D")
    assert refusal(s, "meld royal-marriage KS QS") is RuleCode.NOT_A_MELD
    s = s.apply("meld common-marriage KS QS")
    assert melds(s) == (60, 0) and s.trump_suit is Suit.HEARTS


def test_sequence_before_any_marriage_fixes_trumps() -> None:
    """§4.2: a sequence declared before any marriage makes its suit trumps and scores 250."""
    s = won_by_0(mdeal(p0="AC TC KC QC JC 9C", p1="7S"))
    assert "meld sequence AC TC KC QC JC" in legal(s) and "meld royal-marriage KC QC" in legal(s)
    s = s.apply("meld sequence AC TC KC QC JC")
    assert s.trump_suit is Suit.CLUBS and melds(s) == (250, 0)


def test_a_bezique_does_not_fix_trumps() -> None:
    """§4.2: only a marriage or a sequence fixes trumps; a bezique before trumps leaves none."""
    s = won_by_0(mdeal(p0="QS JD 9C", p1="7S")).apply("meld bezique QS JD")
    assert s.trump_suit is None and melds(s) == (40, 0)


def test_trumps_win_once_fixed() -> None:
    """§1.2: once hearts are trumps a heart beats a plain card led; before, it did not."""
    s = won_by_0(mdeal(p0="KH QH 9C", p1="7S 7H", stock="9C 9S"))
    before = run(s, "pass; play 9C; play 7H")
    assert before.current_player == 0  # no trump yet: the heart is just another suit
    after = run(s.apply("meld royal-marriage KH QH"), "play 9C; play 7H")
    assert after.current_player == 1


def test_trumps_never_change_again() -> None:
    """§4.2: a later marriage in another suit is a common marriage and leaves trumps as fixed."""
    s = won_by_0(mdeal(p0="KH QH KC QC 9C", p1="7S", stock=REFILL)).apply("meld royal-marriage KH QH")
    s = won_by_0(s).apply("meld common-marriage KC QC")
    assert s.trump_suit is Suit.HEARTS and melds(s) == (60, 0)


def test_no_trump_seven() -> None:
    """§4.2: no seven-of-trumps scoring: there is no such action and a played seven scores nothing."""
    s = won_by_0(mdeal(p0="KH QH 7H 9C", p1="7S", stock="9C 7S")).apply("meld royal-marriage KH QH")
    assert refusal(s, "declare 7H") is RuleCode.NOT_AN_ACTION
    assert refusal(s, "exchange 7H") is RuleCode.NOT_AN_ACTION
    s = run(s, "play 7H; play 7S")
    assert s.breakdown[0].seven == 0 and s.scores == (40, 0)


# ---------------------------------------------------------------------------
# §4.3, §5.2, §6: carte blanche
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "points"), [("rubicon-bezique", 50), ("six-pack-bezique", 250)])
def test_carte_blanche_scores(variant: str, points: int) -> None:
    """§4.3/§5.2: a dealt hand without K, Q or J may be shown for 50 (Rubicon) / 250 (six-pack)."""
    s = mdeal(variant, blank=(0,))
    assert "meld carte-blanche" in legal(s)
    s = s.apply("meld carte-blanche")
    assert s.scores == (points, 0) and s.breakdown[0] == ScoreBreakdown(melds=points)
    assert s.current_player == 0 and s.phase is Phase.PLAY and "meld carte-blanche" not in legal(s)
    assert refusal(s, "meld carte-blanche") is RuleCode.CARTE_BLANCHE_NOT_ALLOWED


def test_carte_blanche_shows_the_hand() -> None:
    """§4.3: the carte blanche is shown: every card of the hand becomes known to the opponent."""
    s = mdeal(p0="AS TS 9S 8H 7H AD 9D 8C 7C", blank=(0,))
    assert len(s.view(1).known[0]) == 0
    s = s.apply("meld carte-blanche")
    assert s.view(1).known[0] == s.view(0).hand == CardSet(cards("AS TS 9S 8H 7H AD 9D 8C 7C"))


def test_carte_blanche_after_the_guess() -> None:
    """§5.1-§5.2: in six-pack the non-dealer guesses the cut first, then may show his carte blanche."""
    s = stock_game("six-pack-bezique", blank=(0,))
    assert s.phase is Phase.GUESS and "meld carte-blanche" not in legal(s)
    s = s.apply("guess 12")
    assert s.phase is Phase.PLAY and "meld carte-blanche" in legal(s)


def test_no_carte_blanche_in_eight_pack() -> None:
    """§6: eight-pack Bezique has no carte blanche, even for a hand without court cards."""
    s = mdeal("eight-pack-bezique", blank=(0,))
    assert all(a.verb is Verb.PLAY for a in s.legal_actions())
    assert refusal(s, "meld carte-blanche") is RuleCode.NOT_AN_ACTION


def test_carte_blanche_option_off() -> None:
    """Option carte_blanche=False: a blank hand scores nothing."""
    s = mdeal(blank=(0,), carte_blanche=False)
    assert "meld carte-blanche" not in legal(s)
    assert refusal(s, "meld carte-blanche") is RuleCode.NOT_AN_ACTION


def test_no_carte_blanche_with_a_court_card() -> None:
    """§4.3: a hand holding a king, queen or jack is no carte blanche (here a lone jack)."""
    s = mdeal(p0="JC 9S 9S 9S 9H 9H 9H 9D 9D")
    assert "meld carte-blanche" not in legal(s)
    assert refusal(s, "meld carte-blanche") is RuleCode.CARTE_BLANCHE_NOT_ALLOWED


def test_carte_blanche_only_before_the_first_card() -> None:
    """§4.3: the carte blanche is shown before the player's first card, not after it."""
    s = mdeal(p0="9C", p1="7S", blank=(0,), stock="9D 8D")
    s = run(s, WIN)
    assert refusal(s, "meld carte-blanche") is RuleCode.CARTE_BLANCHE_NOT_ALLOWED


def test_dealer_shows_carte_blanche_before_his_first_card() -> None:
    """§4.3: the dealer (player 1) may show his carte blanche when he is first to play, after the lead."""
    s = mdeal(p1="9S", blank=(1,))
    assert s.current_player == 0 and "meld carte-blanche" not in legal(s)
    s = s.apply(dull_action(s))
    assert "meld carte-blanche" in legal(s)
    s = s.apply("meld carte-blanche")
    assert s.scores == (0, 50) and s.current_player == 1 and s.view(0).known[1] == s.view(1).hand


def test_carte_blanche_repeats_for_each_non_court_draw() -> None:
    """§4.3 (WK, Bicycle, CM, Parlett): after the carte blanche each drawn card that is not a court
    card may be shown for another 50, the new card shown too; a drawn court card ends it for good."""
    s = mdeal(p0="9C", p1="7S", blank=(0,), stock="9C 7S 9C 7S KD 7D 9C 7D")
    s = s.apply("meld carte-blanche")
    s = run(s, WIN)  # player 0 draws a 9C: no court card
    assert "meld carte-blanche" in legal(s)
    s = s.apply("meld carte-blanche")
    assert s.scores == (100, 0)
    assert s.view(1).known[0] == s.view(0).hand  # the drawn card is shown too
    s = run(s, WIN)  # another 9C: player 0 may show it, but declines
    assert "meld carte-blanche" in legal(s)
    s = run(s, WIN)  # the king of diamonds: the streak ends
    assert Card.parse("KD") in s.view(0).hand
    assert refusal(s, "meld carte-blanche") is RuleCode.CARTE_BLANCHE_NOT_ALLOWED
    s = run(s, "play 9S; play 7D")  # a later non-court draw (9C) does not restart it
    assert "meld carte-blanche" not in legal(s)
    assert s.scores == (100, 0)


def test_carte_blanche_repeat_not_for_an_undeclared_hand() -> None:
    """§4.3: the repeat belongs to a shown carte blanche: a blank hand not shown at the start gets none later."""
    s = mdeal(p0="9C", p1="7S", blank=(0,), stock="9C 7S")
    s = run(s, WIN)
    assert "meld carte-blanche" not in legal(s)


def test_carte_blanche_once_only_option() -> None:
    """Option carte_blanche_repeat=False (Foster): announceable once, before the first trick."""
    s = mdeal(p0="9C", p1="7S", blank=(0,), stock="9C 7S", carte_blanche_repeat=False)
    s = run(s.apply("meld carte-blanche"), WIN)
    assert "meld carte-blanche" not in legal(s)
    assert refusal(s, "meld carte-blanche") is RuleCode.CARTE_BLANCHE_NOT_ALLOWED
    assert s.scores == (50, 0)


def _unbroken_streak_deal() -> tuple[StockDeal, int]:
    """Rubicon, stacked so that player 0 (a carte blanche of sevens and eights) wins every stock trick
    and draws only cards that are not court cards (the even places of the stock), while player 1 holds
    and draws the court cards: player 0 shows once, then plays his lowest card; player 1 always
    plays a card that loses. Returns the deal at the start of the play-off, and how many times a
    new carte blanche was offered to player 0 during the stock phase."""
    rank = {r: i for i, r in enumerate("ATKQJ987")}
    plain = sorted([r + s for s in "SHDC" for r in "AT987"] * 4, key=lambda c: -rank[c[0]])
    court = [r + s for s in "SHDC" for r in "KQJ"] * 4
    odd = court[9:] + plain[9 + 55 :]
    random.Random(1).shuffle(odd)
    deck = [""] * 128
    for p, hand in enumerate((plain[:9], court[:9])):
        for slot, card in zip(places(get_rules("rubicon-bezique")).hands[p], hand):
            deck[slot] = card
    deck[18:] = [c for pair in zip(plain[9 : 9 + 55], odd) for c in pair]
    s = stock_deal(new_deal("rubicon-bezique", deck=deck)).apply("meld carte-blanche")
    offers = 0
    while s.phase is not Phase.PLAYOFF:
        offers += s.current_player == 0 and s.tricks > 0 and not s.trick and s.is_legal("meld carte-blanche")
        if s.phase is Phase.DECLARE:
            s = s.apply("pass")
            continue
        plays = [a for a in s.legal_actions() if a.verb is Verb.PLAY]
        if s.current_player == 0:
            s = s.apply(max(plays, key=lambda a: rank[str(a.cards[0])[0]]))
        else:
            led = s.view(1).trick[0]
            s = s.apply(
                next(a for a in plays if a.cards[0].suit != led.suit or a.cards[0].rank.value >= led.rank.value)
            )
            assert s.current_player == 0, "player 0 must win every stock trick"
    return s, offers


def test_unbroken_streak_reaches_the_playoff() -> None:
    """§4.3: the streak lasts while no court card is drawn: after each of the first 54 stock tricks
    player 0 is offered a new carte blanche (he declines them all)."""
    s, offers = _unbroken_streak_deal()
    assert offers == 54 and s.tricks == 55
    assert s.current_player == 0 and s.scores == (50, 0)
    assert not any(c.rank.is_court for c in s.view(0).hand)


def test_no_carte_blanche_in_the_playoff() -> None:
    """§4.5: no declarations once the stock is exhausted, a repeated carte blanche included."""
    s, _offers = _unbroken_streak_deal()
    assert "meld carte-blanche" not in legal(s)


def test_determinize_does_not_offer_carte_blanche_to_a_court_hand() -> None:
    """§4.3 + determinize: in any determinized state, a player offered a carte blanche holds no K, Q or J."""
    s = mdeal(blank=(0,))
    assert s.is_legal("meld carte-blanche")
    for i in range(8):
        guess = determinize(s.view(1), random.Random(i))
        assert guess.view(1) == s.view(1)
        if guess.is_legal("meld carte-blanche"):
            assert not any(c.rank.is_court for c in guess.view(0).hand)


# ---------------------------------------------------------------------------
# §4.4, §5.3, §6: melds
# ---------------------------------------------------------------------------


def test_back_door_sequence() -> None:
    """§4.4: a plain-suit sequence (back door) scores 150 once trumps exist; a plain 'sequence' is refused."""
    s = won_by_0(mdeal(p0="KH QH AD TD KD QD JD 9C", p1="7S", stock="9C 7S"))
    assert "meld back-door AD TD KD QD JD" not in legal(s)  # no trumps yet: it would be the trump sequence
    assert refusal(s, "meld back-door AD TD KD QD JD") is RuleCode.NOT_A_MELD
    s = won_by_0(s.apply("meld royal-marriage KH QH"))
    assert refusal(s, "meld sequence AD TD KD QD JD") is RuleCode.NOT_A_MELD
    s = s.apply("meld back-door AD TD KD QD JD")
    assert melds(s) == (190, 0) and s.trump_suit is Suit.HEARTS


def test_trump_sequence_after_trumps() -> None:
    """§4.4: with hearts trumps, A T K Q J of hearts is the trump sequence (250)."""
    s = won_by_0(mdeal(p0="KH QH AH TH KH QH JH 9C", p1="7S", stock="9C 7S")).apply("meld royal-marriage KH QH")
    s = won_by_0(s).apply("meld sequence AH TH KH QH JH")
    assert melds(s) == (290, 0)


def test_bezique_builds_up_to_quadruple() -> None:
    """§4.4: bezique 40 → double 500 → triple 1500 → quadruple 4500, each with the earlier cards still
    on the table and at least one new card (Rubicon, 4 packs: four of each card)."""
    s = mdeal(p0="QS QS QS QS JD JD JD JD 9C", p1="7S", stock=REFILL)
    s = won_by_0(s)
    assert {
        "meld bezique QS JD",
        "meld double-bezique QS QS JD JD",
        "meld quadruple-bezique QS QS QS QS JD JD JD JD",
    } <= set(legal(s))
    s = won_by_0(s.apply("meld bezique QS JD"))
    s = won_by_0(s.apply("meld double-bezique QS QS* JD JD*"))
    s = won_by_0(s.apply("meld triple-bezique QS QS* QS* JD JD* JD*"))
    s = s.apply("meld quadruple-bezique QS QS* QS* QS* JD JD* JD* JD*")
    assert melds(s) == (40 + 500 + 1500 + 4500, 0)
    assert [(m.kind, m.points) for m in s.view(1).melds] == [
        ("bezique", 40),
        ("double-bezique", 500),
        ("triple-bezique", 1500),
        ("quadruple-bezique", 4500),
    ]
    assert s.view(1).tabled[0] == CardSet(cards("QS QS QS QS JD JD JD JD"))


def test_build_up_needs_the_earlier_cards_unplayed() -> None:
    """§4.4: all cards of a multiple bezique lie on the table together, unplayed: once the bezique's Q♠
    is played, no double can use it (only a fresh pair with the J♦ still on the table)."""
    s = mdeal(p0="QS QS QS JD JD 9C", p1="7S 8H", stock=REFILL)
    s = won_by_0(s).apply("meld bezique QS JD")
    s = run(s, "play QS*; play 8H")
    assert s.current_player == 0 and s.phase is Phase.DECLARE
    assert refusal(s, "meld double-bezique QS QS* JD JD*") is RuleCode.CARD_NOT_HELD
    assert "meld double-bezique QS QS JD JD*" in legal(s)


def test_multiple_bezique_declared_directly() -> None:
    """§4.4: a triple bezique may be declared at once from the hand (1500), forgoing the lower ones."""
    s = won_by_0(mdeal("six-pack-bezique", p0="QS QS QS JD JD JD 9C", p1="7S"))
    s = s.apply("meld triple-bezique QS QS QS JD JD JD")
    assert melds(s) == (1500, 0)


def test_build_up_needs_a_new_card() -> None:
    """§4.4 (R1, D1): two single beziques on the table may not be combined into a double without a new card."""
    s = mdeal(p0="QS QS JD JD KH QH 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld bezique QS JD")).apply("meld bezique QS JD")
    s = won_by_0(s)  # the marriage keeps the declaring open
    assert not any(a.startswith("meld double-bezique") for a in legal(s))
    assert refusal(s, "meld double-bezique QS* QS* JD* JD*") is RuleCode.MELD_NEEDS_NEW_CARD
    assert melds(s) == (80, 0)


def test_no_single_bezique_from_a_double() -> None:
    """§4.4 / R4: cards of a double bezique may not form a single bezique, from the table or with a new card."""
    s = mdeal(p0="QS QS QS JD JD KH QH 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld double-bezique QS QS JD JD"))
    assert refusal(s, "meld bezique QS* JD*") is RuleCode.MELD_DOWNGRADE
    assert refusal(s, "meld bezique QS JD*") is RuleCode.MELD_DOWNGRADE
    assert "meld bezique QS JD*" not in legal(s) and "meld bezique QS* JD*" not in legal(s)


@pytest.mark.parametrize("variant", ["rubicon-bezique", "six-pack-bezique"])
def test_no_quintuple_bezique_below_eight_packs(variant: str) -> None:
    """§4.4/§5.3: the beziques stop at quadruple in four and six packs."""
    s = won_by_0(mdeal(variant, p0="QS QS QS QS JD JD JD JD 9C", p1="7S"))
    assert refusal(s, "meld quintuple-bezique QS QS QS QS QS JD JD JD JD JD") is RuleCode.NOT_AN_ACTION


def test_quintuple_bezique_eight_packs() -> None:
    """§6: quintuple bezique 9000, built from a quadruple (4500) with a new Q♠ and J♦."""
    s = mdeal("eight-pack-bezique", p0="QS QS QS QS QS JD JD JD JD JD 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld quadruple-bezique QS QS QS QS JD JD JD JD"))
    assert "meld quintuple-bezique QS QS* QS* QS* QS* JD JD* JD* JD* JD*" in legal(s)
    s = s.apply("meld quintuple-bezique QS QS* QS* QS* QS* JD JD* JD* JD* JD*")
    assert melds(s) == (4500 + 9000, 0)


@pytest.mark.parametrize(
    ("meld", "points"),
    [
        ("four-aces AS AH AH AD", 100),
        ("four-kings KC KC KC KC", 80),
        ("four-queens QS QH QD QC", 60),
        ("four-jacks JS JS JH JC", 40),
    ],
)
@pytest.mark.parametrize("variant", PRESETS)
def test_any_four_duplicates_allowed(variant: str, meld: str, points: int) -> None:
    """§4.4: any four aces / kings / queens / jacks (duplicates allowed) score 100 / 80 / 60 / 40."""
    faces = meld.split()[1:]
    s = won_by_0(mdeal(variant, p0=" ".join(faces) + " 9C", p1="7S"))
    s = s.apply(f"meld {meld}")
    assert melds(s) == (points, 0) and s.trump_suit is None


def test_four_tens_only_if_agreed() -> None:
    """§5.3 / option four_tens: any four tens score 90 only with the option."""
    s = won_by_0(mdeal(p0="TS TH TD TD 9C", p1="7S"))
    assert refusal(s, "meld four-tens TS TH TD TD") is RuleCode.NOT_AN_ACTION
    s = won_by_0(mdeal(p0="TS TH TD TD 9C", p1="7S", four_tens=True))
    assert melds(s.apply("meld four-tens TS TH TD TD")) == (90, 0)


def test_no_trump_quartets_in_rubicon() -> None:
    """§4.4: no extra value for four of a kind in trumps in Rubicon."""
    s = won_by_0(mdeal(p0="KH QH AH AH AH AH 9C", p1="7S", stock="9C 7S")).apply("meld royal-marriage KH QH")
    s = won_by_0(s)
    assert refusal(s, "meld four-trump-aces AH AH AH AH") is RuleCode.NOT_AN_ACTION
    assert melds(s.apply("meld four-aces AH AH AH AH")) == (140, 0)


@pytest.mark.parametrize(
    ("rank", "name", "points"),
    [("A", "aces", 1000), ("T", "tens", 900), ("K", "kings", 800), ("Q", "queens", 600), ("J", "jacks", 400)],
)
@pytest.mark.parametrize("variant", ["six-pack-bezique", "eight-pack-bezique"])
def test_four_trumps_of_a_rank(variant: str, rank: str, name: str, points: int) -> None:
    """§5.3/§6: four trump aces 1000, tens 900, kings 800, queens 600, jacks 400 (clubs trumps here)."""
    s = mdeal(variant, p0=f"KC QC {rank}C {rank}C {rank}C {rank}C 9D", p1="7S", stock="9D 7S")
    s = run(s, "play 9D; play 7S").apply("meld royal-marriage KC QC")
    s = run(s, "play 9D; play 7S")
    text = f"meld four-trump-{name} " + " ".join([f"{rank}C"] * 4)
    assert text in legal(s)
    s = s.apply(text)
    assert melds(s) == (40 + points, 0)


@pytest.mark.parametrize("variant", ["six-pack-bezique", "eight-pack-bezique"])
def test_no_trump_quartet_before_trumps(variant: str) -> None:
    """§5.3: four trumps of a rank need a trump suit: before the first marriage it is no meld."""
    s = won_by_0(mdeal(variant, p0="AH AH AH AH 9C", p1="7S"))
    assert refusal(s, "meld four-trump-aces AH AH AH AH") is RuleCode.NOT_A_MELD
    assert "meld four-aces AH AH AH AH" in legal(s)


def test_any_four_upgrades_to_four_trumps() -> None:
    """§5.3: 'any four' and 'four trump' are one class, trump version higher: upgrade with a new card."""
    s = mdeal("six-pack-bezique", p0="KH QH AH AH AH AH AS 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld royal-marriage KH QH")).apply("meld four-aces AS AH AH AH")
    s = won_by_0(s)
    assert "meld four-trump-aces AH AH* AH* AH*" in legal(s)
    s = s.apply("meld four-trump-aces AH AH* AH* AH*")
    assert melds(s) == (40 + 100 + 1000, 0)


def test_four_trumps_never_down_to_any_four() -> None:
    """§5.3: cards of four trump aces may not form 'any four aces' (no downgrade), even with a new ace."""
    s = mdeal("six-pack-bezique", p0="KH QH AH AH AH AH AS QS JD 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld royal-marriage KH QH")).apply("meld four-trump-aces AH AH AH AH")
    s = won_by_0(s)  # the bezique keeps the declaring open
    assert not any(a.startswith("meld four-aces") for a in legal(s))
    assert refusal(s, "meld four-aces AS AH* AH* AH*") is RuleCode.MELD_DOWNGRADE


@pytest.mark.parametrize(
    ("rank", "name", "points"),
    [("A", "aces", 2000), ("T", "tens", 1800), ("K", "kings", 1600), ("Q", "queens", 1200), ("J", "jacks", 800)],
)
def test_five_trumps_eight_packs(rank: str, name: str, points: int) -> None:
    """§6: five trump aces 2000, tens 1800, kings 1600, queens 1200, jacks 800 (spades trumps here)."""
    five = " ".join([f"{rank}S"] * 5)
    s = mdeal("eight-pack-bezique", p0=f"KS QS {five} 9C", p1="7D", stock="9C 7D")
    s = run(s, "play 9C; play 7D").apply("meld royal-marriage KS QS")
    s = run(s, "play 9C; play 7D")
    text = f"meld five-trump-{name} {five}"
    assert text in legal(s)
    s = s.apply(text)
    assert melds(s) == (40 + points, 0) and s.trump_suit is Suit.SPADES


def test_five_trumps_upgrade_from_four() -> None:
    """§6: four trump aces (1000) then a fifth trump ace from the hand: five trump aces (2000)."""
    s = mdeal("eight-pack-bezique", p0="KH QH AH AH AH AH AH 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld royal-marriage KH QH")).apply("meld four-trump-aces AH AH AH AH")
    s = won_by_0(s)
    assert "meld five-trump-aces AH AH* AH* AH* AH*" in legal(s)
    s = s.apply("meld five-trump-aces AH AH* AH* AH* AH*")
    assert melds(s) == (40 + 1000 + 2000, 0)


def test_no_five_trumps_in_six_packs() -> None:
    """§5.3: six-pack has four trumps of a rank, but no five."""
    s = won_by_0(mdeal("six-pack-bezique", p0="KH QH AH AH AH AH AH 9C", p1="7S")).apply("meld royal-marriage KH QH")
    assert refusal(s, "meld five-trump-aces AH AH AH AH AH") is RuleCode.NOT_AN_ACTION


@pytest.mark.parametrize(
    ("trump", "pair", "answer"),
    [("S", "QS JD", "7H"), ("D", "QD JS", "7S"), ("H", "QH JC", "7S"), ("C", "QC JH", "7S")],
)
def test_trump_dependent_bezique(trump: str, pair: str, answer: str) -> None:
    """§5.3 option bezique_pair='trump_dependent': the queen of trumps and the jack of the other suit of
    the opposite colour (S: Q♠ J♦, D: Q♦ J♠, H: Q♥ J♣, C: Q♣ J♥); no bezique before trumps."""
    lead = "9D" if trump == "C" else "9C"
    others = {"QS JD", "QD JS", "QH JC", "QC JH"} - {pair}
    hand = f"K{trump} Q{trump} {pair} {' '.join(others)} {lead}"
    s = mdeal("six-pack-bezique", p0=hand, p1=answer, stock=f"{lead} {answer}", bezique_pair="trump_dependent")
    s = run(s, f"play {lead}; play {answer}")
    assert not any(a.startswith("meld bezique") for a in legal(s))
    assert refusal(s, f"meld bezique {pair}") is RuleCode.NOT_A_MELD
    s = run(s.apply(f"meld royal-marriage K{trump} Q{trump}"), f"play {lead}; play {answer}")
    for other in others:
        assert refusal(s, f"meld bezique {other}") is RuleCode.NOT_A_MELD
    assert str(Action.parse(f"meld bezique {pair}")) in legal(s)  # written in display order, e.g. JS QD
    s = s.apply(f"meld bezique {pair}")
    assert melds(s) == (80, 0)


def test_trump_dependent_double_bezique() -> None:
    """§5.3 trump_dependent: with hearts trumps a double bezique is two Q♥ and two J♣ (500)."""
    s = mdeal("six-pack-bezique", p0="KH QH QH QH JC JC 9C", p1="7S", stock="9C 7S", bezique_pair="trump_dependent")
    s = won_by_0(won_by_0(s).apply("meld royal-marriage KH QH"))
    s = s.apply("meld double-bezique QH QH JC JC")
    assert melds(s) == (540, 0)


def test_fixed_bezique_is_independent_of_trumps() -> None:
    """§5.3 default bezique_pair='fixed': Q♠ J♦ is the bezique whatever trumps are (here clubs), and before trumps."""
    s = mdeal("six-pack-bezique", p0="KC QC QS JD QC JH 9D", p1="7S", stock="9D 7S")
    s = run(s, "play 9D; play 7S")
    assert "meld bezique QS JD" in legal(s)
    s = run(s.apply("meld royal-marriage KC QC"), "play 9D; play 7S")
    assert "meld bezique QS JD" in legal(s) and refusal(s, "meld bezique QC JH") is RuleCode.NOT_AN_ACTION


# ---------------------------------------------------------------------------
# §4.5: declaration rules
# ---------------------------------------------------------------------------


def test_only_the_trick_winner_declares_one_meld() -> None:
    """§4.5: only the trick winner declares, one meld a trick, before drawing; the loser may not."""
    s = mdeal(p0="9C", p1="KH QH 7S")
    s = run(s, WIN)
    assert s.current_player == 0 and s.phase is Phase.PLAY  # player 0 has nothing: the draw is automatic
    assert refusal(s, "meld royal-marriage KH QH") is RuleCode.NO_DECLARATION_NOW
    s2 = s.apply(dull_action(s))
    assert s2.current_player == 1 and refusal(s2, "meld royal-marriage KH QH") is RuleCode.NO_DECLARATION_NOW
    won = won_by_0(mdeal(p0="KH QH QS JD 9C", p1="7S", stock=REFILL))
    assert won.phase is Phase.DECLARE and {"meld royal-marriage KH QH", "meld bezique QS JD"} <= set(legal(won))
    after = won.apply("meld royal-marriage KH QH")
    assert after.phase is Phase.PLAY and len(after.view(0).hand) == 9  # one meld: both have drawn
    assert refusal(after, "meld bezique QS JD") is RuleCode.NO_DECLARATION_NOW
    assert "meld bezique QS JD" in legal(won_by_0(after))  # declared on the next trick won


def test_reform_after_play_sixty_queens() -> None:
    """§4.5 formal rule: sixty queens declared, one played, a new queen with the other three scores 60 again."""
    s = mdeal(p0="QS QH QD QC QC 9C", p1="7S", stock=REFILL)
    s = won_by_0(s).apply("meld four-queens QS QH QD QC")
    s = run(s, "play QC*; play 7S")
    assert s.phase is Phase.DECLARE and "meld four-queens QS* QH* QD* QC" in legal(s)
    s = s.apply("meld four-queens QS* QH* QD* QC")
    assert melds(s) == (120, 0)


def test_reform_after_play_option_off() -> None:
    """Option reform_after_play=False: a card that scored in a kind never scores in it again (R2)."""
    s = mdeal(p0="QS QH QD QC QC JD 9C", p1="7S", stock=REFILL, reform_after_play=False)
    s = won_by_0(s).apply("meld four-queens QS QH QD QC")
    s = run(s, "play QC*; play 7S")
    assert s.phase is Phase.DECLARE  # the bezique Q♠* J♦ keeps the declaring open
    assert not any(a.startswith("meld four-queens") for a in legal(s))
    assert refusal(s, "meld four-queens QS* QH* QD* QC") is RuleCode.MELD_CARD_REUSED


def test_reform_not_the_same_intact_set() -> None:
    """§4.5 formal rule: a declaration whose card set is an intact scored set of its kind is refused."""
    s = mdeal(p0="QS QH QD QC KH QH JD 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld four-queens QS QH QD QC"))
    assert refusal(s, "meld four-queens QS* QH* QD* QC*") is RuleCode.MELD_CARD_REUSED
    assert "meld four-queens QS* QH* QD* QC*" not in legal(s)


def test_reform_orphaned_marriage_partner() -> None:
    """§4.5 (WK): two heart marriages, one Q♥ played: its K♥ re-marries the other marriage's Q♥ for 40 more."""
    s = mdeal(p0="KH QH KH QH QS JD 9C", p1="7S 8D", stock=REFILL)
    s = won_by_0(s).apply("meld royal-marriage KH QH")
    s = won_by_0(s).apply("meld royal-marriage KH QH")
    s = run(s, "play QH*; play 8D")
    assert s.current_player == 0 and s.phase is Phase.DECLARE  # the bezique keeps the declaring open
    assert "meld royal-marriage KH* QH*" in legal(s)
    assert melds(s.apply("meld royal-marriage KH* QH*")) == (120, 0)


def test_reform_orphan_with_a_new_card() -> None:
    """§4.5: a marriage broken by play: its orphaned Q♥ marries a new K♥ from the hand (40 again)."""
    s = mdeal(p0="KH QH KH 9C", p1="7S 8D", stock=REFILL)
    s = won_by_0(s).apply("meld royal-marriage KH QH")
    s = run(s, "play KH*; play 8D")
    assert "meld royal-marriage KH QH*" in legal(s)
    assert melds(s.apply("meld royal-marriage KH QH*")) == (80, 0)


def test_no_reform_without_a_played_card() -> None:
    """§4.5 (re-forming starts from a played card): four queens still whole on the table and a fifth queen
    in the hand do not make four queens again; nor does a new Q♥ with a whole sequence make another."""
    s = mdeal(p0="QS QH QD QC QC KH QH JD 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld four-queens QS QH QD QC"))  # the marriage keeps the declaring open
    assert not any(a.startswith("meld four-queens") for a in legal(s))
    assert refusal(s, "meld four-queens QS* QH* QD* QC") is RuleCode.MELD_CARD_REUSED
    s = mdeal(p0="AH TH KH QH JH QH QS JD 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld sequence AH TH KH QH JH"))  # the bezique keeps the declaring open
    assert refusal(s, "meld sequence AH* TH* KH* QH JH*") is RuleCode.MELD_CARD_REUSED


def test_marriage_to_sequence_default_forbidden() -> None:
    """§4.5 (WK) default marriage_to_sequence=False: the K and Q of a marriage may not join a sequence."""
    s = mdeal(p0="AH TH KH QH JH QS JD 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld royal-marriage KH QH"))
    assert not any(a.startswith("meld sequence") for a in legal(s))
    assert refusal(s, "meld sequence AH TH KH* QH* JH") is RuleCode.MELD_UPGRADE


def test_marriage_to_sequence_option() -> None:
    """Option marriage_to_sequence=True (Foster): royal marriage 40, then the sequence with them 250."""
    s = mdeal(p0="AH TH KH QH JH 9C", p1="7S", stock=REFILL, marriage_to_sequence=True)
    s = won_by_0(won_by_0(s).apply("meld royal-marriage KH QH"))
    s = s.apply("meld sequence AH TH KH* QH* JH")
    assert melds(s) == (290, 0)


def test_common_marriage_to_back_door_default_forbidden() -> None:
    """Default marriage_to_sequence=False also keeps a common marriage's K and Q out of a back-door sequence."""
    s = mdeal(p0="KH QH AS TS KS QS JS JD 9C", p1="7D", stock="9C 7D 9C 7D")
    s = run(s, "play 9C; play 7D").apply("meld royal-marriage KH QH")
    s = run(s, "play 9C; play 7D").apply("meld common-marriage KS QS")
    s = run(s, "play 9C; play 7D")
    assert refusal(s, "meld back-door AS TS KS* QS* JS") is RuleCode.MELD_UPGRADE


@pytest.mark.parametrize("allowed", [False, True])
def test_sequence_to_marriage_option(allowed: bool) -> None:
    """§4.5 sequence_to_marriage (default False): the K of a sequence with a new Q as a marriage."""
    s = mdeal(p0="AH TH KH QH JH QH QS JD 9C", p1="7S", stock=REFILL, sequence_to_marriage=allowed)
    s = won_by_0(won_by_0(s).apply("meld sequence AH TH KH QH JH"))
    if allowed:
        assert "meld royal-marriage KH* QH" in legal(s)
        assert melds(s.apply("meld royal-marriage KH* QH")) == (290, 0)
        assert refusal(s, "meld royal-marriage KH* QH*") is RuleCode.MELD_NEEDS_NEW_CARD
    else:
        assert s.phase is Phase.DECLARE  # the bezique keeps the declaring open
        assert refusal(s, "meld royal-marriage KH* QH") is RuleCode.MELD_DOWNGRADE


def test_cross_class_reuse() -> None:
    """§4.5 / R5: the Q♠ of a bezique may serve in sixty queens."""
    s = mdeal(p0="QS JD QH QD QC 9C", p1="7S", stock=REFILL)
    s = won_by_0(won_by_0(s).apply("meld bezique QS JD")).apply("meld four-queens QS* QH QD QC")
    assert melds(s) == (100, 0)


# ---------------------------------------------------------------------------
# §5.1: the cut and the guess (six-pack)
# ---------------------------------------------------------------------------


def _deck_with_cut(size: int) -> list[str]:
    """A six-pack stacked deck whose (chance) cut is ``size``: two different cards near the bottom of
    the stock are swapped until the cut drawn from the deck order is ``size``."""
    base = stack("six-pack-bezique")
    n = len(base)
    for i in range(n - 60, n):
        for j in range(i + 1, n):
            if base[i] == base[j]:
                continue
            deck = base[:]
            deck[i], deck[j] = deck[j], deck[i]
            if stock_deal(new_deal("six-pack-bezique", deck=deck)).setup.packet == size:
                return deck
    raise AssertionError(f"no deck found with a cut of {size}")


@pytest.mark.parametrize("dealer", [0, 1])
def test_cut_guess_phase(dealer: int) -> None:
    """§5.1: six-pack starts with the non-dealer's guess of the cut, 12 to 36; nothing else is legal."""
    s = stock_deal(new_deal("chinese-bezique", seed=9, dealer=dealer))
    assert s.phase is Phase.GUESS and s.current_player == 1 - dealer
    assert legal(s) == [f"guess {n}" for n in range(12, 37)]
    assert 12 <= s.setup.packet <= 36
    assert refusal(s, f"play {next(iter(s.view(1 - dealer).hand))}") is RuleCode.WRONG_PHASE
    assert refusal(s, "pass") is RuleCode.WRONG_PHASE
    assert refusal(s, "guess 11") is RuleCode.NOT_AN_ACTION
    assert refusal(s, "guess 37") is RuleCode.NOT_AN_ACTION
    after = s.apply("guess 20")
    assert after.phase is Phase.PLAY and after.current_player == 1 - dealer
    assert refusal(after, "guess 20") is RuleCode.WRONG_PHASE


def test_right_guess_scores_150() -> None:
    """§5.1: a right guess of the cut scores 150 to the non-dealer; a wrong one nothing."""
    deck = _deck_with_cut(17)
    s = stock_deal(new_deal("six-pack-bezique", deck=deck))
    assert s.setup.packet == 17
    right = s.apply("guess 17")
    assert right.scores == (150, 0) and right.breakdown[0] == ScoreBreakdown(bonus=150)
    assert s.apply("guess 18").scores == (0, 0)


def test_right_guess_by_player_1_when_player_0_deals() -> None:
    """§5.1: the guesser is the non-dealer, whoever that is."""
    s = stock_deal(new_deal("six-pack-bezique", deck=_deck_with_cut(30), dealer=0))
    assert s.setup.packet == 30 and s.current_player == 1
    assert s.apply("guess 30").scores == (0, 150)
    assert s.apply("guess 29").scores == (0, 0)


def test_cut_of_exactly_24_scores_250_to_the_dealer() -> None:
    """§5.1: a cut of exactly 24 cards (what the dealer deals) scores 250 to the dealer, guessed or not."""
    s = stock_deal(new_deal("six-pack-bezique", deck=_deck_with_cut(24)))
    assert s.apply("guess 23").scores == (0, 250)
    both = s.apply("guess 24")
    assert both.scores == (150, 250) and both.breakdown[1] == ScoreBreakdown(bonus=250)


def test_cut_is_a_chance_outcome_of_the_seed() -> None:
    """§5.1: the cut comes from the deal's seed: same seed, same cut; the cuts spread over 12..36."""
    cuts = [stock_deal(new_deal("six-pack-bezique", seed=k)).setup.packet for k in range(60)]
    assert cuts == [stock_deal(new_deal("six-pack-bezique", seed=k)).setup.packet for k in range(60)]
    assert all(12 <= c <= 36 for c in cuts) and len(set(cuts)) > 10


def test_cut_and_guess_off() -> None:
    """Option cut_and_guess=False: six-pack starts in Phase.PLAY with no guess and no cut."""
    s = stock_deal(new_deal("six-pack-bezique", seed=3, cut_and_guess=False))
    assert s.phase is Phase.PLAY and s.current_player == 0 and s.setup.packet == -1
    assert refusal(s, "guess 24") is RuleCode.NOT_AN_ACTION


def test_view_shows_the_cut_after_the_guess() -> None:
    """§5.1: the cut is counted and shown after the guess: the views show it then, not before."""
    s = stock_deal(new_deal("six-pack-bezique", seed=5))
    assert s.view(0).cut is None and s.view(1).cut is None
    after = s.apply("guess 12")
    assert after.view(0).cut == after.view(1).cut == s.setup.packet


def test_determinize_hides_the_cut_before_the_guess() -> None:
    """§5.1 + determinize: before the guess nobody knows the cut, so determinized states vary it (in
    12..36); after the guess the cut is public and every determinized state keeps it."""
    s = stock_deal(new_deal("six-pack-bezique", seed=5))
    for p in (0, 1):
        cuts = {stock_deal(determinize(s.view(p), random.Random(i))).setup.packet for i in range(12)}
        assert len(cuts) > 1 and all(12 <= c <= 36 for c in cuts)
    after = s.apply("guess 12")
    for p in (0, 1):
        cuts = {stock_deal(determinize(after.view(p), random.Random(i))).setup.packet for i in range(6)}
        assert cuts == {s.setup.packet}


# ---------------------------------------------------------------------------
# §4.6, §5.4, §6: the result of a deal (a game)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "bonus", "rubicon", "doubles", "adds"),
    [
        ("rubicon-bezique", 500, 1000, True, True),
        ("six-pack-bezique", 1000, 3000, False, False),
        ("eight-pack-bezique", 1000, 5000, False, False),
    ],
)
def test_result_rules_of_the_presets(variant: str, bonus: int, rubicon: int, doubles: bool, adds: bool) -> None:
    """§4.6/§5.4/§6: game bonus 500 / 1000 / 1000, rubicon 1000 / 3000 / 5000, Rubicon doubling and brisques."""
    r = get_rules(variant).stock.result
    assert isinstance(r, RubiconScoring)
    assert (r.game_bonus, r.rubicon, r.rubicon_doubles_bonus, r.rubicon_adds_brisques) == (
        bonus,
        rubicon,
        doubles,
        adds,
    )
    assert r.truncate == 100
    assert r.all_brisques == 80 * PACKS[variant]  # every ace and ten: 320 / 480 / 640
    assert get_rules(variant).card_points.last_trick == RUBICON_RESULTS[variant][2]


def _result_rule(variant: str, **options: Any) -> RubiconScoring:
    rule = get_rules(variant, **options).stock.result
    assert isinstance(rule, RubiconScoring)
    return rule


RUBICON = _result_rule("rubicon-bezique")
SIX = _result_rule("six-pack-bezique")
EIGHT = _result_rule("eight-pack-bezique")


@pytest.mark.parametrize(
    ("rule", "totals", "won", "expected"),
    [
        # Rubicon, normal game: 500 + 2300 - 1400 (fractions of 100 dropped)
        (RUBICON, (2350, 1480), (90, 70), (1400, 0)),
        # Rubicon, the loser under 1000: 1000 + 1600 + 800 + 300 (the 320 brisques, cut to 300)
        (RUBICON, (1650, 840), (100, 60), (3700, 0)),
        # rubiconed though the winner is under 1000 too (CM)
        (RUBICON, (900, 400), (0, 0), (1000 + 900 + 400 + 300, 0)),
        # the second player wins
        (RUBICON, (1200, 2099), (0, 0), (0, 500 + 2000 - 1200)),
        # six-pack: 1000 + 5200 - 3100; rubiconed: 1000 + 4400 + 2900
        (SIX, (5230, 3120), (0, 0), (3100, 0)),
        (SIX, (4480, 2950), (0, 0), (8300, 0)),
        # eight-pack: 1000 + 7600 - 5100; rubiconed: 1000 + 7600 + 4900
        (EIGHT, (7650, 5120), (0, 0), (3500, 0)),
        (EIGHT, (7600, 4990), (0, 0), (13500, 0)),
        # truncation: 500 + 2300 - 1000
        (RUBICON, (2399, 1001), (0, 0), (1800, 0)),
    ],
)
def test_result_worked_numbers(
    rule: RubiconScoring, totals: tuple[int, int], won: tuple[int, int], expected: tuple[int, int]
) -> None:
    """§4.6/§5.4/§6 worked numbers: winner bonus + difference, or against a rubiconed loser bonus + both totals."""
    assert rule.result(totals, won) == expected


def test_six_pack_rubicon_double_bonus_option() -> None:
    """Option rubicon_double_bonus (six-pack): the 1000 bonus doubles against a rubiconed loser only."""
    rule = _result_rule("six-pack-bezique", rubicon_double_bonus=True)
    assert rule.result((4480, 2950), (0, 0)) == (9300, 0)
    assert rule.result((5230, 3120), (0, 0)) == (3100, 0)


@pytest.mark.parametrize(
    ("totals", "won", "counted", "expected"),
    [
        # not counted: the loser is above the rubicon, or stays under it even with his brisques
        ((2350, 1480), (90, 70), False, (1400, 0)),
        ((1650, 840), (100, 60), False, (3700, 0)),
        # the loser's brisques lift him out of the rubicon: counted for both, 500 + 1900 - 1000
        ((1850, 960), (90, 60), True, (500 + 1900 - 1000, 0)),
        # exactly to 1000 is out of the rubicon
        ((1850, 950), (90, 50), True, (500 + 1900 - 1000, 0)),
        # a tie: brisques decide, 1500 + 170 against 1500 + 150
        ((1500, 1500), (170, 150), True, (500 + 1600 - 1600, 0)),
        # still a tie: a draw
        ((1500, 1500), (160, 160), True, (0, 0)),
        # counting them changes the winner: 1000 + 0 against 990 + 100; then 500 + 1000 - 1000
        ((1000, 990), (0, 100), True, (0, 500)),
        # a tie under the rubicon: brisques decide, the loser stays rubiconed; the brisques are in
        # the totals already, so the 300 is not added again (the library's reading)
        ((300, 300), (200, 120), True, (1000 + 500 + 400, 0)),
    ],
)
def test_brisques_only_for_a_tie_or_the_rubicon(
    totals: tuple[int, int], won: tuple[int, int], counted: bool, expected: tuple[int, int]
) -> None:
    """§4.6: brisques count only to break a tie or to lift the loser out of the rubicon, then for both."""
    assert RUBICON.counts_brisques(totals, won) is counted
    assert RUBICON.result(totals, won) == expected
    assert rubicon_result("rubicon-bezique", totals, won) == (expected, counted)


def _playoff_deal(variant: str, *, marry: bool) -> StockDeal:
    """Rubicon: both players keep A♠ K♠ 9♠ 8♣ K♥ Q♥ J♥ T♥ and play their ninth card each stock trick;
    the last two stock cards are 7♦ (to the last stock trick's winner) and 9♣ (to its loser).
    With ``marry``, player 0 declares K♥ Q♥ on trick 1 (hearts trumps); else no trump is ever made."""
    keep = "AS KS 9S 8C KH QH JH TH"
    s = stock_game(variant, p0=keep + " 9C", p1=keep + " 8S", bottom="7D 9C")
    s = run(s, "play 9C; play 8S")
    s = s.apply("meld royal-marriage KH QH" if marry else "pass")
    while s.phase is not Phase.PLAYOFF:
        s = s.apply(dull_action(s, (keep, keep)))
    return s


def test_playoff_duties_follow_beat_trump() -> None:
    """§4.6 / §1.4a: in the play-off, follow suit and beat if able, else follow; void: trump if able."""
    s = _playoff_deal("rubicon-bezique", marry=True)
    assert s.trump_suit is Suit.HEARTS and s.tabled == (0, 0) and len(s.stock) == 0
    lead = s.current_player
    assert lead is not None
    follower = 1 - lead
    keep = cards("AS KS 9S 8C KH QH JH TH")
    assert Counter(s.view(lead).hand) == Counter([*keep, Card.parse("7D")])
    assert Counter(s.view(follower).hand) == Counter([*keep, Card.parse("9C")])
    assert legal(s.apply("play 9S")) == ["play AS", "play KS"]  # must beat (an equal 9♠ does not)
    assert legal(s.apply("play AS")) == ["play AS", "play KS", "play 9S"]  # cannot beat: follow
    assert legal(s.apply("play 7D")) == ["play TH", "play KH", "play QH", "play JH"]  # void: trump
    assert legal(s.apply("play JH")) == ["play TH", "play KH", "play QH"]  # trump led: overtrump
    assert legal(s.apply("play TH")) == ["play TH", "play KH", "play QH", "play JH"]
    after = s.apply("play 9S")
    assert refusal(after, "play 9S") is RuleCode.MUST_BEAT
    assert refusal(after, "play TH") is RuleCode.MUST_FOLLOW_SUIT
    assert refusal(s.apply("play 7D"), "play AS") is RuleCode.MUST_TRUMP


def test_playoff_without_trumps() -> None:
    """§1.2 + §4.6: if no marriage or sequence was ever declared there are no trumps in the play-off:
    follow and beat still apply, a void player may play any card."""
    s = _playoff_deal("rubicon-bezique", marry=False)
    assert s.trump_suit is None
    assert legal(s.apply("play 9S")) == ["play AS", "play KS"]
    void = s.apply("play 7D")
    assert len(legal(void)) == len(set(void.view(void.player).hand))
    s = run(s, "play 7D; play TH")
    assert s.view(0).last_trick == (Card.parse("7D"), Card.parse("TH")) and s.current_player == s.last_leader


def test_no_declarations_in_the_playoff() -> None:
    """§4.5: no declarations once the stock is exhausted; melded cards are back in the hand."""
    s = _playoff_deal("rubicon-bezique", marry=True)
    lead = s.current_player
    assert lead is not None
    s = run(s, "play 9S; play AS")
    assert refusal(s, "meld royal-marriage KH QH") is RuleCode.NO_DECLARATION_NOW
    assert all(not a.startswith("meld") for a in legal(s))


def test_full_rubicon_deal_result() -> None:
    """§4.6: a full Rubicon deal: last trick 50; loser rubiconed: 1000 + both totals cut + 300; the
    breakdown adds up to the scores."""
    s = play_out(_playoff_deal("rubicon-bezique", marry=True), ("AS KS 9S 8C KH QH JH TH",) * 2)
    check_final(s)
    b = s.breakdown
    assert b[0].melds == 40 and b[1].melds == 0
    totals = tuple(x.melds + x.last_trick for x in b)
    assert min(totals) + 320 < 1000  # rubiconed, brisques or not
    winner = 0 if totals[0] > totals[1] else 1
    assert s.scores[winner] == 1000 + 300 + totals[winner] // 100 * 100 + totals[1 - winner] // 100 * 100


@pytest.mark.parametrize("variant", ["six-pack-bezique", "eight-pack-bezique"])
def test_full_deal_result(variant: str) -> None:
    """§5.4/§6: a full deal: last trick 250; the result from the totals; the breakdown adds up to the scores."""
    s = mdeal(variant, p0="KH QH QS JD 9C", p1="7S", stock="9C 7S")
    s = won_by_0(s).apply("meld royal-marriage KH QH")
    s = won_by_0(s).apply("meld bezique QS JD")
    s = play_out(s)
    check_final(s)
    assert s.breakdown[0].melds == 80
    totals = tuple(x.melds + x.last_trick for x in s.breakdown)
    assert min(totals) + 80 * PACKS[variant] < RUBICON_RESULTS[variant][1]  # rubiconed, brisques or not
    winner = 0 if totals[0] > totals[1] else 1
    assert s.scores[winner] == 1000 + totals[winner] // 100 * 100 + totals[1 - winner] // 100 * 100


def test_full_six_pack_deal_with_the_cut() -> None:
    """§5.1 + §5.4: the guess bonuses count in the totals of the result (here a right guess and a cut of 24)."""
    s = stock_deal(new_deal("six-pack-bezique", deck=_deck_with_cut(24)))
    s = play_out(s.apply("guess 24"))
    check_final(s)
    assert (s.breakdown[0].bonus, s.breakdown[1].bonus) == (150, 250)


def test_six_pack_double_bonus_full_deal() -> None:
    """Option rubicon_double_bonus: a full six-pack deal with a rubiconed loser scores 2000 + both totals."""
    s = play_out(mdeal("six-pack-bezique", rubicon_double_bonus=True))
    check_final(s, double_bonus=True)
    totals = tuple(x.melds + x.last_trick for x in s.breakdown)
    assert min(totals) + 480 < 3000  # rubiconed, brisques or not
    assert max(s.scores) == 2000 + max(totals) // 100 * 100 + min(totals) // 100 * 100


@pytest.mark.parametrize("variant", ["rubicon-bezique", "six-pack-bezique"])
def test_tie_broken_by_brisques(variant: str) -> None:
    """§4.6: equal totals (a carte blanche against the last trick: 50 / 250 each): brisques count for both."""
    base = mdeal(variant, blank=(0,)).apply("meld carte-blanche")
    for seed in range(40):
        s = base
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase is Phase.DECLARE:
                s = s.apply("pass")
            else:
                s = s.apply(rng.choice([a for a in s.legal_actions() if a.verb is Verb.PLAY]))
        if s.breakdown[1].last_trick:
            break
    else:
        raise AssertionError("no deal found in which player 1 takes the last trick")
    b = s.breakdown
    assert b[0].melds == b[1].last_trick == RUBICON_RESULTS[variant][2] and b[1].melds == b[0].last_trick == 0
    won = (brisques(s, 0), brisques(s, 1))
    assert (b[0].cards, b[1].cards) == won and sum(won) == 80 * PACKS[variant]
    check_final(s)


@pytest.mark.parametrize(
    ("quota", "counted"),
    [((25, 16), True), ((25, 19), False)],
)
def test_brisques_lift_the_loser_out_of_the_rubicon(quota: tuple[int, int], counted: bool) -> None:
    """§4.6: a loser under 1000 whose brisques reach 1000 is out of the rubicon (brisques then count for
    both); at 1000 without them they are not counted. Totals come from repeated cartes blanches."""
    s = mdeal(blank=(0, 1))
    shows = [0, 0]
    rng = random.Random(0)
    while not s.is_over:
        p = s.current_player
        assert p is not None
        if s.phase is Phase.PLAY and shows[p] < quota[p] and s.is_legal("meld carte-blanche"):
            s = s.apply("meld carte-blanche")
            shows[p] += 1
        elif s.phase is Phase.DECLARE:
            s = s.apply("pass")
        else:
            s = s.apply(rng.choice([a for a in s.legal_actions() if a.verb is Verb.PLAY]))
    assert shows == list(quota)
    b = s.breakdown
    totals = [x.melds + x.last_trick for x in b]
    loser = totals.index(min(totals))
    if counted:
        assert totals[loser] < 1000 <= totals[loser] + brisques(s, loser)
    else:
        assert totals[loser] >= 1000
    assert (b[0].cards + b[1].cards > 0) is counted
    check_final(s)


@pytest.mark.parametrize("variant", PRESETS)
def test_each_deal_is_a_game(variant: str) -> None:
    """§4.6: each deal is a game: new_game ends after one deal (option deals) with the deal's result."""
    g = new_game(variant, seed=4)
    while not g.is_over:
        g = g.apply(dull_action(stock_deal(g.deal)))
    assert g.deal_number == 1 and len(g.results) == 1
    assert g.deal.is_over and g.scores == g.deal.scores == g.results[0].scores
    assert min(g.scores) == 0 and max(g.scores) > 0 and g.winner == g.scores.index(max(g.scores))


def test_session_of_deals() -> None:
    """Option deals: a session of several deals (each a game) adds up the deal results; the deal alternates."""
    g = new_game("rubicon-bezique", seed=4, deals=2)
    dealers: list[int] = []
    while not g.is_over:
        if len(dealers) < g.deal_number:
            dealers.append(g.deal.dealer)
        g = g.apply(dull_action(stock_deal(g.deal)))
    assert dealers == [1, 0] and len(g.results) == 2
    assert g.scores == tuple(sum(r.scores[p] for r in g.results) for p in (0, 1))
    assert all(min(r.scores) == 0 for r in g.results)


def test_full_six_pack_deal_without_rubicon() -> None:
    """§5.4: a loser at 3000 or more is not rubiconed: the winner scores 1000 + the difference
    (totals from repeated cartes blanches of 250: 14 against 12)."""
    s = mdeal("six-pack-bezique", blank=(0, 1))
    quota, shows = (14, 12), [0, 0]
    while not s.is_over:
        p = s.current_player
        assert p is not None
        if s.phase is Phase.PLAY and shows[p] < quota[p] and s.is_legal("meld carte-blanche"):
            s = s.apply("meld carte-blanche")
            shows[p] += 1
        else:
            s = s.apply(dull_action(s))
    assert shows == [14, 12]
    check_final(s)
    totals = [x.melds + x.last_trick for x in s.breakdown]
    assert min(totals) >= 3000 and s.breakdown[0].cards == s.breakdown[1].cards == 0
    assert max(s.scores) == 1000 + max(totals) // 100 * 100 - min(totals) // 100 * 100


def test_full_eight_pack_deal_without_rubicon() -> None:
    """§6: a loser at 5000 or more is not rubiconed. Player 0 declares a quintuple bezique (9000); player 1
    a royal marriage (hearts), five trump aces, five trump kings and five trump tens (5440)."""
    s = stock_game(
        "eight-pack-bezique",
        p0="QS QS QS QS QS JD JD JD JD JD 9C 7C",
        p1="KH KH KH KH KH QH AH AH AH AH AH TH TH TH TH",
        stock="7C 8C 9D 7C TH 7C TH 7C",
    )
    s = run(s, "play 9C; play TH")  # no trump yet: player 1's heart loses
    s = s.apply("meld quintuple-bezique QS QS QS QS QS JD JD JD JD JD")
    s = run(s, "play 7C; play 8C").apply("meld royal-marriage KH QH")
    s = run(s, "play 9D; play 7C").apply("meld five-trump-aces AH AH AH AH AH")
    s = run(s, "play AH*; play 7C").apply("meld five-trump-kings KH KH KH KH KH*")
    s = run(s, "play AH*; play 7C").apply("meld five-trump-tens TH TH TH TH TH")
    assert (s.breakdown[0].melds, s.breakdown[1].melds) == (9000, 40 + 2000 + 1600 + 1800)
    s = play_out(s)
    check_final(s)
    totals = [x.melds + x.last_trick for x in s.breakdown]
    assert min(totals) >= 5000 and s.breakdown[0].cards == s.breakdown[1].cards == 0
    assert s.scores[0] == 1000 + totals[0] // 100 * 100 - totals[1] // 100 * 100


def test_declaring_on_the_last_stock_trick() -> None:
    """§4.5: the winner of the last stock trick may still declare (here the first marriage, fixing trumps
    for the play-off); then the stock is exhausted and the play-off begins."""
    keep = "AS KS 9S 8C KH QH JH TH"
    s = stock_game("rubicon-bezique", p0=keep + " 9C", p1=keep + " 8S", bottom="7D 9C")
    s = run(s, "play 9C; play 8S; pass")
    while not (len(s.stock) == 2 and not s.trick and s.phase is Phase.PLAY):
        s = s.apply(dull_action(s, (keep, keep)))
    for _ in range(2):
        s = s.apply(dull_action(s, (keep, keep)))
    assert s.phase is Phase.DECLARE and len(s.stock) == 2 and s.trump_suit is None
    assert "meld royal-marriage KH QH" in legal(s)
    s = s.apply("meld royal-marriage KH QH")
    assert s.phase is Phase.PLAYOFF and not s.stock and s.trump_suit is Suit.HEARTS and s.tabled == (0, 0)
