"""Issue 25, cause 2: what everybody knows of a hand never depends on a concealed copy.

When a player holds a copy of a face everybody has seen (the turn-up taken in exchange,
pagat.com/marriage/bezique.html: "the holder of the seven of trumps may exchange it for
the turn-up") and a concealed copy of the same face, playing or melding that face uses
the known copy first, so the others' knowledge shrinks the same way whatever is concealed. The same holds for a
melded face of which a copy is known (the auction widow shown to all).
"""

from __future__ import annotations

import pytest

from scenario import auction_deal, deal, run

OPPONENT = ["7S", "8S", "9S", "TD", "JD", "QD", "KD", "AD"]


@pytest.mark.parametrize("concealed", ["KH", "QC"])
def test_playing_the_taken_turn_up_face_shows_nothing_of_a_second_copy(concealed: str) -> None:
    """The issue's stacked deal: after ``exchange 7H`` and ``play KH`` player 1 knows of no
    card in player 0's hand, whether player 0 holds a second king of hearts or not."""
    state = deal("bezique", p0=f"AS 7H {concealed} 9C 8C 7C 9D 8D", p1=OPPONENT, turn_up="KH")
    for action in ["play AS", "play 7S", "exchange 7H", "pass"]:
        state = state.apply(action)
    assert str(state.view(1).known[0]) == "KH"  # the taken turn-up is known
    state = state.apply("play KH")
    assert str(state.view(1).known[0]) == ""


def test_two_deals_differing_only_in_a_concealed_copy_look_alike_to_the_other_player() -> None:
    """The two deals of the reproduction give player 1 equal views at every step."""
    deals = [deal("bezique", p0=f"AS 7H {x} 9C 8C 7C 9D 8D", p1=OPPONENT, turn_up="KH") for x in ("KH", "QC")]
    for action in ["play AS", "play 7S", "exchange 7H", "pass", "play KH"]:
        deals = [d.apply(action) for d in deals]
        a, b = (d.view(1) for d in deals)
        assert (a.known, a.tabled, a.melds, a.history) == (b.known, b.tabled, b.melds, b.history)


@pytest.mark.parametrize("viewer", [1, 2])
def test_melding_the_shown_widow_face_shows_nothing_of_a_second_copy(viewer: int) -> None:
    """Auction Pinochle (reference.md §9; pagat.com/pinochle/auction.html: the bidder turns the
    widow face up for all to see and takes it): player 0 takes a widow holding JD and melds a
    pinochle (QS JD). Whether he also holds a concealed JD (dealt first, so it is the lower
    copy) or a QC instead, the others know the same cards of his hand after the meld: the
    melded JD is the shown widow copy."""
    seen = []
    for concealed in ("JD", "QC"):
        hand = f"{concealed} AS TS KS QS 9H 9H TH TH AC AC TC TC 9D 9D"
        state = run(auction_deal("auction-pinochle", {0: hand}, widow="JD 9C 9C"), "bid 310; pass; pass; trump S")
        view = run(state, "meld best").view(viewer)
        assert [m.kind for m in view.melds] == ["royal-marriage", "pinochle"]
        seen.append((view.known, view.melds))
    assert seen[0] == seen[1]
    assert str(seen[0][0][0]) == "KS QS JD 9C 9C"  # the widow and the melds, one JD
