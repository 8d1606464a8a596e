"""The cut for the first deal (``new_game(..., first_dealer="cut")``, issue 15 item 2):
scenarios from given seeds and stacked cuts, ties drawing again, Euchre's partners and
dealer, records, views, the command line, and a property over every preset."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bezique_rules import (
    DealError,
    GameState,
    RecordError,
    available_variants,
    get_rules,
    new_game,
    record_of,
    replay,
)
from bezique_rules.cards import Card, parse_cards
from bezique_rules.cli import main
from bezique_rules.parts.cut import BEZIQUE_CUT, EUCHRE_CUT, PINOCHLE_CUT, CutDraw, CutForDeal, cut_seed

BEZIQUE_FAMILY = (
    "bezique",
    "bezique-match",
    "rubicon-bezique",
    "six-pack-bezique",
    "eight-pack-bezique",
    "three-hand-bezique",
    "four-hand-bezique",
)
PINOCHLE_FAMILY = ("pinochle", "auction-pinochle", "partnership-pinochle", "double-deck-pinochle")
EUCHRE_FAMILY = ("euchre", "british-euchre", "euchre-openspiel")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# -- the parts ---------------------------------------------------------------------------


def test_every_preset_composes_a_cut_part() -> None:
    """Every registered preset has a dealer and so a cut part (new presets: one line,
    ``cut_for_deal=...`` in the preset's RuleSet)."""
    missing = [v for v in available_variants(builtin=True) if get_rules(v).cut_for_deal is None]
    assert missing == [], f"add cut_for_deal=BEZIQUE_CUT (or PINOCHLE_CUT, EUCHRE_CUT) to {missing}"


def test_families_cut_by_their_rules() -> None:
    """Bezique ranks A T K Q J 9 8 7, higher decides; Pinochle A..9, higher deals; Euchre
    K Q J T 9 8 7 A, lowest deals, partners drawn."""
    for v in BEZIQUE_FAMILY:
        assert get_rules(v).cut_for_deal == BEZIQUE_CUT
    for v in PINOCHLE_FAMILY:
        assert get_rules(v).cut_for_deal == PINOCHLE_CUT
    for v in EUCHRE_FAMILY:
        assert get_rules(v).cut_for_deal == EUCHRE_CUT
    assert "".join(r.code for r in BEZIQUE_CUT.rank_order) == "ATKQJ987"
    assert (BEZIQUE_CUT.wins, BEZIQUE_CUT.decides, BEZIQUE_CUT.decision) == ("high", True, "deal")
    assert "".join(r.code for r in EUCHRE_CUT.rank_order) == "KQJT987A"
    assert (EUCHRE_CUT.wins, EUCHRE_CUT.decides, EUCHRE_CUT.partners) == ("low", False, "drawn")
    assert (PINOCHLE_CUT.wins, PINOCHLE_CUT.decides) == ("high", False)


def test_the_benny_is_left_out_of_the_cut_pack() -> None:
    """British Euchre's Benny has no rank in the cut: the cut pack is the 24 suited cards."""
    pack = EUCHRE_CUT.pack(get_rules("british-euchre").deck)
    assert len(pack) == 24 and Card.parse("JK") not in pack
    with pytest.raises(DealError, match="JK"):
        new_game("british-euchre", seed=1, first_dealer="cut", cut_cards=["JK", "AS", "KS", "QS"])


# -- scenarios from seeds ----------------------------------------------------------------


def test_bezique_seed_2_the_higher_card_deals() -> None:
    """bezique, seed 2: player 0 draws AD, player 1 8C; the ace is higher, he decides to deal."""
    game = new_game("bezique", seed=2, first_dealer="cut")
    cut = game.cut_for_deal
    assert cut is not None
    assert cut.rounds == ((CutDraw(0, Card.parse("AD")), CutDraw(1, Card.parse("8C"))),)
    assert (cut.winner, cut.decision, cut.dealer, cut.seats) == (0, "deal", 0, (0, 1))
    assert game.first_dealer == game.deal.dealer == 0
    assert game.current_player == 1  # the non-dealer leads


def test_three_hand_winner_deciding_to_lead_has_his_right_hand_neighbour_deal() -> None:
    """Three-hand Bezique: the highest card decides; 'lead' makes the player on his right
    deal, so that the winner (on the dealer's left) leads."""
    game = new_game("three-hand-bezique", seed=0, first_dealer="cut", cut_cards=["9S", "AS", "KH"])
    assert game.cut_for_deal is not None and game.cut_for_deal.winner == 1
    assert game.deal.dealer == 1
    game = new_game("three-hand-bezique", seed=0, first_dealer="cut", cut_cards=["9S", "AS", "KH"], cut_decision="lead")
    assert game.deal.dealer == 0 and game.current_player == 1


def test_bezique_winner_may_decide_to_lead() -> None:
    """The winner's documented decision 'lead' has the other player deal."""
    game = new_game("bezique", seed=2, first_dealer="cut", cut_decision="lead")
    assert game.cut_for_deal is not None and game.cut_for_deal.decision == "lead"
    assert game.deal.dealer == 1 and game.current_player == 0


def test_the_cut_comes_from_the_seed_and_is_independent_of_the_deals() -> None:
    """Same seed, same cut; the first deal is the seeded deal for the drawn dealer."""
    a = new_game("bezique", seed=1, first_dealer="cut")
    b = new_game("bezique", seed=1, first_dealer="cut")
    assert a == b
    assert a.cut_for_deal is not None and a.cut_for_deal.cards == cards("8D TS")
    assert a.deal == new_game("bezique", seed=1, dealer=1).deal


def test_pinochle_seed_1_equal_cards_draw_again() -> None:
    """pinochle, seed 1: both draw JS (equal), draw again TH against QD: player 0 deals."""
    cut = new_game("pinochle", seed=1, first_dealer="cut").cut_for_deal
    assert cut is not None
    assert [[str(d.card) for d in r] for r in cut.rounds] == [["JS", "JS"], ["TH", "QD"]]
    assert (cut.winner, cut.decision, cut.dealer) == (0, None, 0)


def test_euchre_seed_1_partners_and_dealer() -> None:
    """euchre, seed 1: TD JH KH AH; the ace is lowest and deals (drawer 3), the ten joins him:
    drawer 0 changes places with drawer 1 to sit opposite seat 3."""
    game = new_game("euchre", seed=1, first_dealer="cut")
    cut = game.cut_for_deal
    assert cut is not None
    assert cut.cards == cards("TD JH KH AH")
    assert cut.partners == ((0, 3), (1, 2))
    assert cut.seats == (1, 0, 2, 3)
    assert cut.dealer == game.deal.dealer == 3
    assert cut.seated(["ann", "bob", "cy", "di"]) == ("bob", "ann", "cy", "di")
    assert cut.drawer_at(1) == 0 and cut.seat_of(0) == 1


def test_euchre_seed_2_a_tie_for_lowest_draws_again_and_a_tie_at_the_top_stands() -> None:
    """euchre, seed 2: KD AH KC AS: the two aces tie for the deal and draw again (KD, QS:
    the queen deals); the two kings' tie decides nothing and stands."""
    cut = new_game("euchre", seed=2, first_dealer="cut").cut_for_deal
    assert cut is not None
    assert [[(d.drawer, str(d.card)) for d in r] for r in cut.rounds] == [
        [(0, "KD"), (1, "AH"), (2, "KC"), (3, "AS")],
        [(1, "KD"), (3, "QS")],
    ]
    assert (cut.winner, cut.dealer, cut.seats) == (3, 3, (0, 1, 2, 3))
    assert cut.partners == ((1, 3), (0, 2))


# -- stacked cuts ------------------------------------------------------------------------


def test_stacked_bezique_tie_draws_again() -> None:
    """Two aces tie; the redraw 9C against TD: player 1 has the higher card and deals."""
    game = new_game("bezique", seed=0, first_dealer="cut", cut_cards=["AS", "AH", "9C", "TD"])
    cut = game.cut_for_deal
    assert cut is not None and len(cut.rounds) == 2
    assert (cut.winner, cut.dealer, game.deal.dealer) == (1, 1, 1)


def test_stacked_bezique_repeated_ties() -> None:
    """Equal cards draw again as often as they tie (even the same card twice in two packs)."""
    cut = new_game("bezique", seed=0, first_dealer="cut", cut_cards=["7S", "7S", "KH", "KD", "8C", "QC"]).cut_for_deal
    assert cut is not None and len(cut.rounds) == 3
    assert (cut.winner, cut.dealer) == (1, 1)


def test_stacked_euchre_partners_from_the_draw() -> None:
    """KS 9H AC QD: the ace (drawer 2) is lowest and deals, the nine is his partner and moves
    opposite him (seat 0); the king and queen are partners in seats 1 and 3."""
    cut = new_game("euchre", seed=0, first_dealer="cut", cut_cards=["KS", "9H", "AC", "QD"]).cut_for_deal
    assert cut is not None
    assert cut.seats == (1, 0, 2, 3) and cut.dealer == 2
    assert cut.partners == ((1, 2), (0, 3))
    side = {cut.seats[d] % 2 for d in cut.partners[0]}
    assert side == {cut.dealer % 2}


def test_stacked_euchre_tie_across_the_partnership_line_draws_again() -> None:
    """KS 9H 9C AD: the nines tie for the second-lowest place, which decides the partners:
    they draw again (QS, TS): the ten joins the dealer (drawer 3)."""
    cut = new_game("euchre", seed=0, first_dealer="cut", cut_cards=["KS", "9H", "9C", "AD", "QS", "TS"]).cut_for_deal
    assert cut is not None
    assert [d.drawer for d in cut.rounds[1]] == [1, 2]
    assert cut.partners == ((2, 3), (0, 1))
    assert cut.seats == (0, 2, 1, 3) and cut.dealer == 3


def test_stacked_euchre_tie_at_the_top_stands() -> None:
    """KS KH 9C AD: the kings tie, but both are partners whatever: nobody draws again."""
    cut = new_game("euchre", seed=0, first_dealer="cut", cut_cards=["KS", "KH", "9C", "AD"]).cut_for_deal
    assert cut is not None and len(cut.rounds) == 1
    assert cut.dealer == 3 and cut.partners == ((2, 3), (0, 1))


def test_stacked_pinochle_only_a_tie_for_highest_draws_again() -> None:
    """Partnership Pinochle: the two nines tie for lowest (no matter); the aces tie for
    highest and draw again: partners stay as seated."""
    cut = new_game(
        "partnership-pinochle", seed=0, first_dealer="cut", cut_cards=["AS", "9H", "AD", "9C", "KS", "QS"]
    ).cut_for_deal
    assert cut is not None
    assert [d.drawer for d in cut.rounds[1]] == [0, 2]
    assert (cut.winner, cut.dealer, cut.seats, cut.partners) == (0, 0, (0, 1, 2, 3), ())


@pytest.mark.parametrize(
    ("variant", "stack", "message"),
    [
        ("bezique", ["AS"], "ends before"),
        ("bezique", ["AS", "AH"], "ends before"),
        ("bezique", ["AS", "KH", "QC"], "left over"),
        ("bezique", ["AS", "2H"], "not a card"),
        ("partnership-pinochle", ["AS", "AS", "AS", "KH"], "more often"),
        ("bezique", ["AS", "XX"], "XX"),
    ],
)
def test_bad_stacked_cuts_are_refused(variant: str, stack: list[str], message: str) -> None:
    """A stacked cut that cannot be drawn is a DealError saying why."""
    with pytest.raises(DealError, match=message):
        new_game(variant, seed=0, first_dealer="cut", cut_cards=stack)


def test_bad_first_dealer_arguments_are_refused() -> None:
    """first_dealer: a seat or "cut"; not with dealer; cut settings only with "cut"; no
    decision where the lowest card deals; no cut without a cut part."""
    with pytest.raises(DealError, match="'toss'"):
        new_game("bezique", seed=0, first_dealer="toss")  # type: ignore[arg-type]
    with pytest.raises(DealError, match="drawn by the cut"):
        new_game("bezique", seed=0, first_dealer="cut", dealer=0)
    with pytest.raises(DealError, match="not both"):
        new_game("bezique", seed=0, first_dealer=0, dealer=0)
    with pytest.raises(DealError, match="go with"):
        new_game("bezique", seed=0, cut_decision="lead")
    with pytest.raises(DealError, match="go with"):
        new_game("bezique", seed=0, cut_cards=["AS", "KS"])
    with pytest.raises(DealError, match="no decision"):
        new_game("euchre", seed=0, first_dealer="cut", cut_decision="deal")
    with pytest.raises(DealError, match="'pass'"):
        new_game("bezique", seed=0, first_dealer="cut", cut_decision="pass")  # type: ignore[arg-type]
    with pytest.raises(DealError, match="seat"):
        new_game("bezique", seed=0, first_dealer=2)
    bare = attrs.evolve(get_rules("bezique"), cut_for_deal=None)
    with pytest.raises(DealError, match="no cut"):
        new_game(bare, seed=0, first_dealer="cut")


def test_a_cut_needs_two_ranks_in_its_pack() -> None:
    """A custom part whose pack cannot settle a cut is refused instead of drawing forever."""
    rules = attrs.evolve(get_rules("bezique"), cut_for_deal=CutForDeal(rank_order=(BEZIQUE_CUT.rank_order[0],)))
    with pytest.raises(DealError, match="two ranks"):
        new_game(rules, seed=0, first_dealer="cut")


# -- default behaviour unchanged ---------------------------------------------------------


@pytest.mark.parametrize("variant", available_variants(builtin=True))
def test_without_a_cut_the_first_dealer_is_as_before(variant: str) -> None:
    """The default first dealer (last seat) and a seat given as first_dealer or dealer are
    unchanged; no cut is recorded."""
    players = get_rules(variant).players
    plain = new_game(variant, seed=5)
    assert plain.cut_for_deal is None and plain.first_dealer == players - 1
    assert new_game(variant, seed=5, first_dealer=None) == plain
    assert new_game(variant, seed=5, first_dealer=0) == new_game(variant, seed=5, dealer=0)
    assert "cut" not in record_of(plain)


# -- records and views -------------------------------------------------------------------


def _advance(game: GameState, steps: int, seed: int) -> GameState:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game = game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("variant", ["bezique", "pinochle", "euchre", "partnership-pinochle", "rubicon-bezique"])
def test_record_round_trip_with_a_cut(variant: str) -> None:
    """The record holds the cut's cards (and the decision); replay rebuilds the same game."""
    game = _advance(new_game(variant, seed=2, first_dealer="cut"), 40, 1)
    record = record_of(game)
    assert game.cut_for_deal is not None
    assert record["cut"]["cards"] == [str(c) for c in game.cut_for_deal.cards]
    assert ("decision" in record["cut"]) == (variant in BEZIQUE_FAMILY)
    assert record["dealer"] == game.first_dealer
    assert replay(json.dumps(record)) == game
    assert GameState.from_dict(game.to_dict()) == game


def test_record_of_a_stacked_cut_replays_it() -> None:
    """A stacked cut and a non-default decision are replayed from the record, not redrawn."""
    game = new_game("bezique", seed=9, first_dealer="cut", cut_cards=["AS", "AH", "9C", "TD"], cut_decision="lead")
    record = record_of(game)
    assert record["cut"] == {"cards": ["AS", "AH", "9C", "TD"], "decision": "lead"}
    assert replay(record) == game


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        ({"cards": ["AD"]}, "ends before"),
        ({"cards": "AD 8C"}, "not a list"),
        ({"cards": ["AD", "8C"], "decision": "pass"}, "decision"),
        ({"cards": ["AD", "8C"], "who": 1}, "cut is an object"),
        (["AD", "8C"], "cut is an object"),
    ],
)
def test_bad_recorded_cuts_are_refused(cut: object, message: str) -> None:
    """A record whose cut is malformed or does not settle is a RecordError."""
    record = record_of(new_game("bezique", seed=2, first_dealer="cut"))
    record["cut"] = cut
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_a_record_whose_dealer_contradicts_its_cut_is_refused() -> None:
    """The recorded dealer must be the one the recorded cut gives."""
    record = record_of(new_game("bezique", seed=2, first_dealer="cut"))
    record["dealer"] = 1
    with pytest.raises(RecordError, match="dealer"):
        replay(record)


def test_every_view_shows_the_cut_in_every_deal() -> None:
    """The cut is public: every player's view holds it, in the first deal and the next."""
    game = new_game("euchre", seed=1, first_dealer="cut")
    cut = game.cut_for_deal
    for p in range(4):
        assert game.view(p).cut_for_deal == cut
    rng = random.Random(0)
    while game.deal_number == 1:
        game = game.apply(rng.choice(game.legal_actions()))
    assert game.deal.dealer == (cut.dealer + 1) % 4 if cut is not None else False
    assert {game.view(p).cut_for_deal for p in range(4)} == {cut}
    assert new_game("euchre", seed=1).view(0).cut_for_deal is None


def test_describe_names_players_by_seat() -> None:
    """The cut in words, with the caller's names by seat."""
    cut = new_game("bezique", seed=2, first_dealer="cut").cut_for_deal
    assert cut is not None
    assert (
        cut.describe(["you", "computer"])
        == "Cut: you AD, computer 8C. Winner: you (decision: deal). First dealer: you."
    )
    assert cut_seed(2) == "bezique-rules:2:cut"


# -- the command line --------------------------------------------------------------------


def test_play_with_cut_shows_the_cut() -> None:
    """bezique-rules play --cut: the cut is shown before the first deal, and its dealer deals."""
    out, err = io.StringIO(), io.StringIO()
    status = main(["play", "bezique", "--cut", "--seed", "3", "--level", "1"], out, err, stdin=io.StringIO("quit\n"))
    text = out.getvalue()
    assert status == 0, err.getvalue()
    line = next(line for line in text.splitlines() if line.startswith("Cut: "))
    dealer = line.rsplit("First dealer: ", 1)[1].rstrip(".")
    assert f"=== Deal 1: {dealer} deal" in text


def test_replay_prints_the_recorded_cut(tmp_path: Path) -> None:
    """bezique-rules replay FILE of a game that began with a cut prints the cut."""
    game = _advance(new_game("euchre", seed=1, first_dealer="cut"), 10, 0)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(game)), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(path)], out, err) == 0, err.getvalue()
    assert game.cut_for_deal is not None
    assert game.cut_for_deal.describe() + "\n" in out.getvalue()


def test_play_with_cut_seats_the_person_where_the_draw_puts_him() -> None:
    """Euchre: the person draws first; the cut may move him opposite the dealer."""
    from bezique_rules.play.match import Session

    session = Session("euchre", level=1, seed=1, cut=True)
    match = session.new_match()
    cut = match.game.cut_for_deal
    assert cut is not None
    assert match.human == cut.seat_of(0)
    assert match.cut_lines() == [cut.describe(match.names)]


# -- property over every preset ----------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(available_variants(builtin=True)), seed=st.integers(0, 2**63 - 1))
def test_property_every_preset_cuts_consistently(variant: str, seed: int) -> None:
    """For every preset and seed: everyone draws first; the winner's first card is the best
    drawn; only tied players draw again; the seats are a permutation keeping drawn partners
    on one side; the first deal is dealt by the cut's dealer; views and records carry the cut."""
    rules = get_rules(variant)
    part = rules.cut_for_deal
    assert part is not None
    game = new_game(variant, seed=seed, first_dealer="cut")
    cut = game.cut_for_deal
    assert cut is not None
    n = rules.players
    assert [d.drawer for d in cut.rounds[0]] == list(range(n))
    first = {d.drawer: part.key(d.card) for d in cut.rounds[0]}
    assert first[cut.winner] == min(first.values())
    for before, after in zip(cut.rounds, cut.rounds[1:]):
        keys = [part.key(d.card) for d in before]
        for d in after:
            mine = next(part.key(x.card) for x in before if x.drawer == d.drawer)
            assert keys.count(mine) >= 2  # only equal cards draw again
    assert sorted(cut.seats) == list(range(n))
    assert sorted(cut.order) == list(range(n)) and cut.order[0] == cut.winner
    if part.partners == "drawn":
        assert cut.winner in cut.partners[0]
        assert {cut.seats[d] % 2 for d in cut.partners[0]} == {cut.seats[cut.winner] % 2}
        assert sum(1 for d in range(n) if cut.seats[d] != d) in (0, 2)
        assert cut.seats[cut.winner] == cut.winner
    else:
        assert cut.seats == tuple(range(n))
    expected = cut.seats[cut.winner]
    if cut.decision == "lead":
        expected = (expected - 1) % n
    assert game.deal.dealer == game.first_dealer == cut.dealer == expected
    assert game.deal == new_game(variant, seed=seed, dealer=cut.dealer).deal
    assert all(game.view(p).cut_for_deal == cut for p in range(n))
    assert replay(record_of(game)) == game
