"""Issue 25 causes 3 and 4, issue 26 item 6: views are plain data, and `determinize` works
from the view alone.

api.md: "view(player): exactly what that player may know"; "determinize(view, rng): a full
state consistent with everything the view shows". Issue 25 ("What to build"): a view holds
no state and round-trips through JSON and pickle; determinize needs no state, and for every
preset and phase two states with equal views give the same world for the same rng, the world
is never the real deal object, ``world.view(player) == view`` and
``replay(record_of(world)) == world``.
"""

from __future__ import annotations

import contextlib
import copy
import json
import pickle
import random
from typing import Any

import attrs
import pytest

from bezique_rules import (
    DealState,
    PlayerView,
    RecordError,
    Worlds,
    determinize,
    get_rules,
    new_deal,
    record_of,
    replay,
)
from leaks import PRESETS, SETUPS, setup_id, swap_world


def _walk(variant: str, options: dict[str, Any], seed: int, steps: int) -> DealState:
    rng = random.Random(seed)
    deal = new_deal(get_rules(variant, **options), seed=seed)
    for _ in range(steps):
        if deal.is_over:
            break
        deal = deal.apply(rng.choice(deal.legal_action_ids()))
    return deal


def _setups() -> list[Any]:
    return [pytest.param(variant, options, id=setup_id(variant, options)) for variant, options in SETUPS]


# -- views are plain data (cause 4) -------------------------------------------------------


@pytest.mark.parametrize(("variant", "options"), [pytest.param(v, o, id=setup_id(v, o)) for v, o in SETUPS])
def test_a_view_is_plain_data_that_round_trips_through_json_pickle_and_copy(
    variant: str, options: dict[str, Any]
) -> None:
    """Issue 25 cause 4: no field holds the state (``attrs.asdict`` has none); ``to_dict`` /
    ``from_dict``, pickle, ``copy`` and ``deepcopy`` give an equal view (issue 26 item 1);
    the viewer's legal actions are held as data."""
    for steps in (0, 9):
        deal = _walk(variant, options, 5, steps)
        for p in range(deal.players):
            view = deal.view(p)
            assert not any(isinstance(v, DealState) for v in attrs.asdict(view, recurse=False).values())
            assert not hasattr(view, "_state")
            data = json.loads(json.dumps(view.to_dict()))
            assert data["format"] == "bezique-rules-view" and data["version"] == 1
            assert PlayerView.from_dict(data) == view
            for again in (pickle.loads(pickle.dumps(view)), copy.copy(view), copy.deepcopy(view)):
                assert again == view and hash(again) == hash(view)
            if view.current_player == p:
                assert view.legal_actions() == view.legal
            else:
                assert view.legal_actions() == ()


def test_the_json_of_a_view_names_no_hidden_card() -> None:
    """Issue 25 cause 4: ``new_deal("euchre", seed=1).view(0)`` as JSON names none of the
    other hands' cards (a single pack: each card is in one place)."""
    deal = new_deal("euchre", seed=1)
    text = json.dumps(deal.view(0).to_dict())
    for q in (1, 2, 3):
        for card in deal.view(q).hand:
            assert f'"{card}"' not in text


def test_a_view_from_bad_json_is_refused_with_a_record_error_quoting_the_field() -> None:
    """GUIDE: bad input gets our exception quoting it: a wrong type, an unknown field, an
    unknown version each raise RecordError naming what is wrong."""
    data = new_deal("bezique", seed=1).view(0).to_dict()
    with pytest.raises(RecordError, match="hand"):
        PlayerView.from_dict({**data, "hand": "AS"})
    with pytest.raises(RecordError, match="extra"):
        PlayerView.from_dict({**data, "extra": 1})
    with pytest.raises(RecordError, match="99"):
        PlayerView.from_dict({**data, "version": 99})
    with pytest.raises(RecordError, match="history"):
        PlayerView.from_dict({**data, "history": [[0, "play ZZ"]]})


# -- determinize from the view alone (cause 3, issue 26 item 6) -----------------------------


@pytest.mark.parametrize(("variant", "options"), _setups())
def test_determinized_worlds_fit_the_view_and_replay_from_their_record(variant: str, options: dict[str, Any]) -> None:
    """Issue 25 cause 3 and issue 26 item 6, several phases: the world is not the real deal,
    shows the viewer his view, and its record replays to it; a view restored from JSON gives
    the same world (determinize needs no state)."""
    for seed, steps in ((11, 0), (11, 9), (12, 40)):
        deal = _walk(variant, options, seed, steps)
        for p in range(deal.players):
            view = deal.view(p)
            world = determinize(view, random.Random(steps))
            assert world is not deal
            assert world.view(p) == view
            assert replay(record_of(world)) == world
            again = determinize(PlayerView.from_dict(view.to_dict()), random.Random(steps))
            assert again == world


@pytest.mark.parametrize(("variant", "options"), _setups())
def test_two_states_with_equal_views_give_the_same_world(variant: str, options: dict[str, Any]) -> None:
    """Issue 25: two states with equal views (two cards the viewer never saw swapped in the
    deck, the history replayed with checks) give the same world for the same rng."""
    rng = random.Random(7)
    compared = 0
    for seed, steps in ((21, 6), (22, 25)):
        deal = _walk(variant, options, seed, steps)
        for p in range(deal.players):
            twin = swap_world(deal, p, rng)
            if not isinstance(twin, DealState) or twin.view(p) != deal.view(p):
                continue
            compared += 1
            assert determinize(twin.view(p), random.Random(3)) == determinize(deal.view(p), random.Random(3))
    assert compared > 0


@pytest.mark.parametrize("variant", PRESETS)
def test_a_witness_is_built_for_every_player_through_a_whole_deal(variant: str) -> None:
    """Issue 25 cause 3, the short form of ``benchmarks/worlds_sweep.py``: through one random
    deal of every preset (about ten points spread over it, and the end), `Worlds` builds a
    witness for every player whose view is his view (a `DealError` is a failure)."""
    rng = random.Random(f"sweep:{variant}")
    deal = new_deal(get_rules(variant), seed=31)
    states = [deal]
    while not deal.is_over:
        deal = deal.apply(rng.choice(deal.legal_action_ids()))
        states.append(deal)
    for state in states[:: max(1, len(states) // 10)] + [states[-1]]:
        for p in range(state.players):
            view = state.view(p)
            assert Worlds(view).witness.view(p) == view, f"{variant}: {len(state.moves)} actions, player {p}"


def test_worlds_build_once_and_sample_many() -> None:
    """`Worlds` is what `determinize` does, paid once: equal samples for equal rngs, the
    witness a function of the view alone."""
    deal = _walk("bezique", {}, 3, 20)
    view = deal.view(0)
    worlds = Worlds(view)
    assert worlds.sample(random.Random(4)) == determinize(view, random.Random(4))
    assert Worlds(PlayerView.from_dict(view.to_dict())).witness == worlds.witness
    samples = {worlds.sample(random.Random(k)).deck_order for k in range(5)}
    assert len(samples) > 1  # the hidden cards are dealt again


def test_bury_melded_worlds_agree_with_the_declarers_melds() -> None:
    """Issue 26 item 6 (auction-pinochle, bury_melded=True): a world never gives the declarer
    cards his public melds contradict; its record replays."""
    for seed in range(2):
        deal = _walk("auction-pinochle", {"bury_melded": True}, seed, 30)
        for p in range(3):
            world = determinize(deal.view(p), random.Random(seed))
            assert world.view(p) == deal.view(p)
            assert replay(record_of(world)) == world


def test_a_hidden_pass_back_keeps_the_cards_the_partner_plays_after_melding_them() -> None:
    """Issue 25 cause 3 (partnership-pinochle, ``worlds_sweep.py`` seed 101): player 1 sees
    the passes between players 0 and 2 without their cards. The declarer melds ``dix 9D``
    and then plays that nine: one copy, not two; a witness that counted two kept both nines
    of diamonds in the pass back, so his partner, who plays the other later, lacked it (a
    `DealError`). Every world now fits player 1's view and replays from its record."""
    deal = new_deal("partnership-pinochle", seed=101)
    bids = ["1140", "1150", "1170", "1190", "1200", "pass", "1220", "1240", "1250", "1260", "pass", "pass"]
    actions = [f"bid {b}" if b != "pass" else b for b in bids]
    actions += ["trump D", "give AS AD 9D KC", "give AS AD KC KC", "meld pinochle QS JD", "meld dix 9D"]
    actions += ["pass", "pass", "pass", "meld royal-marriage KD QD", "pass", "pass"]
    plays = (
        "9H AH TH QH TD AD TD JD QS KS 9S TS AD 9D KD 9D JH 9H KH AH TC QC AC 9C AS KS JS JS AS TS "
        "QS QD QC KC 9C TC JC JD KC QD 9S TH QH KD AC KH"
    )
    actions += [f"play {c}" for c in plays.split()]
    for a in actions:
        deal = deal.apply(a)
    for p in range(4):
        view = deal.view(p)
        assert Worlds(view).witness.view(p) == view
        world = determinize(view, random.Random(p))
        assert world.view(p) == view
        assert replay(record_of(world)) == world


def _strict_witness(view: PlayerView) -> DealState | None:
    """The witness `Worlds` builds on its strict path (hidden moves chosen, melds made, the
    history replayed with checks) before its first last-resort try, or None where it would
    come to that (``strict=False``: a world that fits the view, whose past need not replay)."""
    from bezique_rules.state.witness import Stuck, Witness
    from bezique_rules.state.worlds import _attempts, _deal_view

    for seed, turn_up, strict, planned in _attempts(view):
        if not strict:
            return None
        with contextlib.suppress(Stuck):
            return Witness(_deal_view(view), random.Random(seed), turn_up, strict=True, planned=planned).build()
    return None


def _check_passes_planned(deal: DealState, players: tuple[int, ...]) -> None:
    for p in players:
        view = deal.view(p)
        witness = _strict_witness(view)
        assert witness is not None, f"player {p}: only the last resort builds a witness"
        assert witness.view(p) == view
        for seed in range(3):
            world = determinize(view, random.Random(seed))
            assert world.view(p) == view
            assert replay(record_of(world)) == world


def test_passes_between_two_other_players_are_planned_before_meld_best() -> None:
    """Issue 25 ("replay(record_of(world)) == world" for every world), partnership-pinochle:
    player 3 sees player 2 pass four cards to the declarer (player 0) and four come back,
    without their cards, then the declarer lays only ``dix 9S`` with ``meld best``. The
    witness plans the passes (the declarer's hand after them makes exactly that meld; the
    cards passed were held at pass time), so its strict path builds it; before, only the
    last resort did (the pass it chose left the declarer a pinochle)."""
    deal = new_deal("partnership-pinochle", seed=107)
    actions = ["bid 430", "pass", "bid 440", "pass", "bid 460", "bid 470", "bid 490", "pass", "trump S"]
    actions += ["give 9S TD JD KC", "give AS JH JH JD", "meld best", "pass", "pass", "pass", "pass"]
    plays = "TH AH AH 9H 9H JH TH QH QD TD 9D AD KD TD JD KD KS TS AS AS TC AC AC 9C JH KH QH KH 9D JS 9S JD"
    actions += [f"play {c}" for c in plays.split()]
    for a in actions:
        deal = deal.apply(a)
    _check_passes_planned(deal, (1, 3))


def test_passes_seen_by_a_passer_are_planned_before_everyone_melds_best() -> None:
    """Issue 25, double-deck-pinochle with ``pass_cards=3``: player 1 (the declarer's partner)
    passes ``AS QH AD`` and gets ``JS JS QD`` back, then all four lay their melds with ``meld
    best``. Every card is dealt (no stock), so a meld one hand does not show can be undone only
    by the plan: the hands after the passes make exactly the melds shown, and the strict path
    builds the witness (before, only the last resort did)."""
    deal = new_deal("double-deck-pinochle", seed=101, pass_cards=3, pass_with_help=True)
    for a in ["pass", "pass", "pass", "bid 50", "trump H", "give AS QH AD", "give JS JS QD"] + ["meld best"] * 4:
        deal = deal.apply(a)
    _check_passes_planned(deal, (0, 1, 2, 3))


def test_a_meld_best_hand_is_made_exact_by_moving_three_cards_round() -> None:
    """Issue 25, partnership-pinochle (sweep seed 2, 52 actions, player 2, the declarer's
    partner): player 3 lays ``meld best`` and the view shows no meld of his. In the planned
    deck his one card no use placed (a queen of hearts, with the king of hearts he plays
    later) and the spare cards elsewhere allow no two-card swap that leaves every hand no
    worse; a three-way move does, and the strict path builds the witness."""
    deal = new_deal("partnership-pinochle", seed=2)
    actions = ["bid 750", "bid 770", "bid 790", "bid 800", "bid 820", "pass", "pass", "pass", "trump H"]
    actions += ["give JS QH JD 9D", "give KS QH JD 9D", "pass", "meld best", "pass", "meld best", "pass"]
    plays = (
        "KD 9D 9D AD QC AC KC JC AS TS KS 9S TC TC AC JC JD QD TD QD AS KH JS TS KD JH AD TD 9C KH 9C TH TH AH JH 9H"
    )
    actions += [f"play {c}" for c in plays.split()]
    for a in actions:
        deal = deal.apply(a)
    _check_passes_planned(deal, (2,))
