"""Property tests over random legal deals of the Euchre presets (reference.md §12-§13).

Each example deals one deal of ``euchre``, ``british-euchre`` or
``euchre-openspiel`` under one of several option combinations (seeded or
stacked), plays it with random legal actions, and checks after every step:
card conservation, legal-action notation round trips, refusal of illegal
actions (with a `RuleCode`, state unchanged), views that show no hidden card,
`determinize` consistency with the view; and at the end: five tricks with one
card per active player, the points against an independent scoring table, and
record round trips. The tests at the end pin down what `determinize` keeps: the
dealer's taken turn-up, and who held a farmer's hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bezique_rules import (
    Action,
    Card,
    IllegalActionError,
    Phase,
    RuleCode,
    Verb,
    determinize,
    new_deal,
    new_game,
    record_of,
    replay,
)
from bezique_rules.engine.euchre import EuchreDeal, legal
from bezique_rules.parts.euchre import OrderUp
from scenario import euchre_pack, hand_of, run, stack

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("euchre", {}),
    (
        "euchre",
        {"stick_the_dealer": True, "lone_defender": "always", "lone_lead": "left_of_lone_player", "super_euchre": True},
    ),
    (
        "euchre",
        {"deck_size": 33, "farmers_hand": "mixed", "defenders_4_for_euchring_loner": True, "dealer_pickup": "may"},
    ),
    (
        "euchre",
        {
            "deck_size": 25,
            "benny": "two_of_spades",
            "benny_turned": "dealer_forced_maker",
            "dealer_may_discard_upcard": False,
            "farmers_hand": "nines_or_tens",
            "partner_takeover": True,
            "lone_defender": "vs_lone_only",
        },
    ),
    ("euchre", {"deck_size": 32, "dealer_may_discard_upcard": False, "partner_takeover": True}),
    ("british-euchre", {}),
    ("british-euchre", {"deck_size": 33, "benny_turned": "dealer_forced_maker", "lone_defender": "always"}),
    ("british-euchre", {"dealer_pickup": "must", "lone_lead": "dealer_left", "super_euchre": True}),
    ("euchre-openspiel", {}),
    ("euchre-openspiel", {"allow_lone_defender": True}),
    ("euchre-openspiel", {"allow_lone_defender": True, "stick_the_dealer": False}),
]
"""(preset, options) combinations the properties run over."""


def setup(index: int, seed: int, dealer: int, stacked: bool) -> EuchreDeal:
    """A new deal of ``CONFIGS[index]``: seeded, or on a deck shuffled with ``seed`` and stacked."""
    preset, options = CONFIGS[index]
    if stacked:
        size = options.get("deck_size", 25 if preset == "british-euchre" else 24)
        deck = euchre_pack(size, options.get("benny", "joker"))
        random.Random(seed).shuffle(deck)
        state = new_deal(preset, deck=deck, dealer=dealer, **options)
    else:
        state = new_deal(preset, seed=seed, dealer=dealer, **options)
    assert isinstance(state, EuchreDeal)
    return state


def choose(s: EuchreDeal, rng: random.Random, passive: float) -> Action:
    """A random legal action; in the bidding ``pass`` with probability ``passive`` (to reach round two and misdeals)."""
    actions = s.legal_actions()
    if s.phase is Phase.BID and rng.random() < passive:
        passes = [a for a in actions if a.verb is Verb.PASS]
        if passes:
            return passes[0]
    return rng.choice(actions)


def bits(mask: int) -> set[int]:
    """The physical ids in a mask."""
    return {i for i in range(mask.bit_length()) if (mask >> i) & 1}


def check_conservation(s: EuchreDeal) -> None:
    """Hands, won cards, kitty and trick are disjoint; with the turn-up (when in none of them) the whole deck."""
    parts: list[set[int]] = [bits(h) for h in s.hands] + [bits(w) for w in s.won] + [set(s.kitty), set(s.trick)]
    seen: set[int] = set()
    for part in parts:
        assert not (seen & part)
        seen |= part
    assert len(s.kitty) == len(set(s.kitty)) and len(s.trick) == len(set(s.trick))
    full = set(range(s.rules.deck.size))
    assert seen | {s.turn_up} == full
    taken = any(a.verb is Verb.DISCARD and p == s.dealer and len(a.cards) <= 1 for p, a in s.history)
    assert (s.turn_up in seen) is taken  # the turn-up is in play exactly when the dealer took it


def is_farmers_swap(a: Action) -> bool:
    """A farmer's-hand swap (three cards discarded before the bidding); public."""
    return a.verb is Verb.DISCARD and len(a.cards) == 3


def hidden_from(s: EuchreDeal, p: int) -> set[str]:
    """The cards ``p`` cannot know: other hands and the kitty, less the turn-up, the cards ``p`` discarded
    and the cards of a farmer's swap (shown to all)."""
    cards = s.rules.deck.cards
    mine = {str(c) for q, a in s.history if a.verb is Verb.DISCARD and (q == p or is_farmers_swap(a)) for c in a.cards}
    hidden = {str(cards[x]) for q in range(4) if q != p for x in bits(s.hands[q])}
    hidden |= {str(cards[x]) for x in s.kitty}
    return hidden - mine - {str(cards[s.turn_up])}


def check_view(s: EuchreDeal, p: int, kept: frozenset[int] = frozenset()) -> None:
    """The view shows ``p``'s own hand (none to the dealer naming a suit for a turned Benny before he looked)
    and no card of another hand, of the kitty, or of another's discard; the history leaves out the moves
    ``kept`` (indices of farmer's hands kept with ``pass``) of the other players."""
    view = s.view(p)
    # the view's phase: while another player decides on a farmer's hand, p sees the deal as after his hidden pass
    unseen = view.phase is Phase.TRUMP and p == s.dealer and all(q != p for q, _ in s.history)
    assert {str(c) for c in view.hand} == (set() if unseen else hand_of(s, p))
    assert view.hand_sizes == tuple(h.bit_count() for h in s.hands)
    parts: list[Iterable[Card]] = [*view.known, *view.won, view.trick, view.last_trick, view.buried]
    shown = {str(c) for part in parts for c in part}
    shown |= {str(c) for q, a in view.history for c in a.cards}
    assert not (shown & hidden_from(s, p))
    seen = [(q, a) for i, (q, a) in enumerate(s.history) if q == p or i not in kept]
    assert len(view.history) == len(seen)
    for (q, a), (q_true, a_true) in zip(view.history, seen):
        assert q == q_true
        if q != p and a_true.verb is Verb.DISCARD and not is_farmers_swap(a_true):
            assert a == Action(Verb.DISCARD)  # the dealer's discard is hidden from the others
        else:
            assert a == a_true
    assert view.buried == () or p == s.dealer
    assert view.sitting_out == s.sitting_out and view.maker == s.maker
    if view.current_player != p:
        assert view.legal_actions() == ()


def check_refusals(s: EuchreDeal, rng: random.Random) -> None:
    """A few illegal action ids are refused with a RuleCode; the state does not change."""
    legal = set(s.legal_action_ids())
    illegal = [i for i in range(s.rules.num_actions) if i not in legal]
    before_core, before_record = s.core, record_of(s)
    for i in rng.sample(illegal, min(4, len(illegal))):
        with pytest.raises(IllegalActionError) as info:
            s.apply(i)
        assert isinstance(info.value.rule, RuleCode)
        assert not s.is_legal(i)
        with pytest.raises(IllegalActionError):
            s.apply(str(s.rules.action_from_id(i)))
    assert s.core == before_core and record_of(s) == before_record
    assert set(s.legal_action_ids()) == legal


def expected_points(s: EuchreDeal) -> tuple[int, int]:
    """An independent scoring table (§12.1, §12.3, §13.4): points per side from tricks, alone and lone defence."""
    if s.maker is None:
        return (0, 0)
    view = s.view(0)
    alone = view.alone is not None
    lone_defender = view.lone_defender is not None
    t = s.tricks_taken[s.maker] + s.tricks_taken[(s.maker + 2) % 4]
    options = s.rules.options
    openspiel = s.rules.name == "euchre-openspiel"
    if t == 5:
        makers, defenders = (4 if alone else 2), 0
    elif t >= 3:
        makers, defenders = 1, 0
    elif lone_defender:
        makers, defenders = 0, 4
    elif openspiel:
        makers, defenders = 0, 2
    elif (t == 0 and options["super_euchre"]) or (alone and options["defenders_4_for_euchring_loner"]):
        makers, defenders = 0, 4
    else:
        makers, defenders = 0, 2
    return (makers, defenders) if s.maker % 2 == 0 else (defenders, makers)


def check_tricks(s: EuchreDeal) -> None:
    """A played deal has exactly five tricks, each with one card from every active player."""
    active = [p for p in range(4) if p not in s.sitting_out]
    plays = [(p, a) for p, a in s.history if a.verb is Verb.PLAY]
    if s.maker is None:
        assert plays == [] and s.tricks_taken == (0, 0, 0, 0)
        return
    assert sum(s.tricks_taken) == 5
    assert len(plays) == 5 * len(active)
    for k in range(5):
        trick = plays[k * len(active) : (k + 1) * len(active)]
        assert sorted(p for p, _ in trick) == active
    assert len({a.cards[0] for _, a in plays}) == len(plays)
    for p in s.sitting_out:
        assert s.tricks_taken[p] == 0 and s.won[p] == 0


@given(
    index=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 2**32),
    dealer=st.integers(0, 3),
    stacked=st.booleans(),
    choices=st.integers(0, 2**32),
    passive=st.sampled_from([0.0, 0.8, 0.95]),
)
# a turned Benny while another player decides on a farmer's hand: the dealer sees himself name trumps unseen
@example(index=2, seed=72, dealer=0, stacked=True, choices=0, passive=0.0)
def test_random_deals_keep_every_invariant(
    index: int, seed: int, dealer: int, stacked: bool, choices: int, passive: float
) -> None:
    """Conservation, notation, refusals, hidden views, determinize, five full tricks, points, records (§12-§13)."""
    s = setup(index, seed, dealer, stacked)
    rng = random.Random(choices)
    assert s.dealer == dealer
    kept: set[int] = set()  # the moves that kept a farmer's hand
    while True:
        check_conservation(s)
        if s.is_over:
            break
        actions = s.legal_actions()
        assert actions and list(s.legal_action_ids()) == sorted(set(s.legal_action_ids()))
        for a in actions:
            assert s.parse_action(str(a)) == a and s.is_legal(a)
        if rng.random() < 0.3:
            check_refusals(s, rng)
        for p in range(4):
            check_view(s, p, frozenset(kept))
            guess = determinize(s.view(p), random.Random(seed))
            assert guess.view(p) == s.view(p)
            assert replay(record_of(guess)) == guess
        action = choose(s, rng, passive)
        if s.phase is Phase.DISCARD and s.trump < 0 and action.verb is Verb.PASS:
            kept.add(len(s.history))
        s = s.apply(action)
    for p in range(4):
        check_view(s, p, frozenset(kept))
    assert s.current_player is None and s.legal_actions() == ()
    check_tricks(s)
    assert s.scores == expected_points(s)
    assert s.result is not None and s.result.scores == s.scores
    assert replay(record_of(s)) == s
    assert s.to_dict() == record_of(s)
    assert EuchreDeal.from_dict(s.to_dict()) == s


@given(
    index=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
    cut=st.floats(0, 1),
    passive=st.sampled_from([0.0, 0.9]),
)
def test_records_round_trip_mid_deal(index: int, seed: int, choices: int, cut: float, passive: float) -> None:
    """replay(record_of(s)) == s at any point of a deal, and every history action's text parses back."""
    s = setup(index, seed, 3, stacked=False)
    rng = random.Random(choices)
    states = [s]
    while not s.is_over:
        s = s.apply(choose(s, rng, passive))
        states.append(s)
    mid = states[int(cut * (len(states) - 1))]
    assert replay(record_of(mid)) == mid
    for _p, a in mid.history:
        assert Action.parse(str(a)) == a


@given(
    index=st.sampled_from(range(len(CONFIGS))),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
    passive=st.sampled_from([0.0, 0.9]),
)
def test_determinized_deals_are_consistent(index: int, seed: int, choices: int, passive: float) -> None:
    """determinize(view) gives a deal that replays from its own record and keeps every view of the viewer."""
    s = setup(index, seed, 3, stacked=False)
    rng = random.Random(choices)
    while not s.is_over:
        p = rng.randrange(4)
        guess = determinize(s.view(p), rng)
        assert isinstance(guess, EuchreDeal)
        assert guess.view(p) == s.view(p)
        assert replay(record_of(guess)) == guess
        check_conservation(guess)
        s = s.apply(choose(s, rng, passive))


@given(index=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_games_score_deal_points_and_round_trip(index: int, seed: int, choices: int) -> None:
    """new_game adds each deal's side points to the totals; the dealer rotates; game records replay."""
    preset, options = CONFIGS[index]
    g = new_game(preset, seed=seed, max_deals=3, **options)
    rng = random.Random(choices)
    dealers = [g.deal.dealer]
    while not g.is_over:
        number = g.deal_number
        g = g.apply(rng.choice(g.legal_actions()))
        if g.deal_number != number and not g.is_over:
            dealers.append(g.deal.dealer)
    assert dealers == [(3 + k) % 4 for k in range(len(dealers))]
    assert g.totals == tuple(sum(r.scores[i] for r in g.results) for i in range(2))
    assert replay(record_of(g)) == g


BID_REFUSALS = {
    "may_pass_bid": RuleCode.MUST_BID,
    "may_order_up": RuleCode.WRONG_PHASE,
    "may_call round one": RuleCode.WRONG_PHASE,
    "may_call": RuleCode.NOT_AN_ACTION,
    "may_bid_alone": RuleCode.NOT_AN_ACTION,
}
"""The rule a refused bid breaks, by the bid predicate that says no (the scenario tests pin
each down against its printed rule: stick the dealer, order up in round one only, the
turned-down suit, going alone with the bid)."""


def broken_bid_rule(s: EuchreDeal, action: Action) -> str | None:
    """The bid predicate (`bezique_rules.engine.euchre.legal`) that refuses ``action`` now, or
    None when they all allow it."""
    order_up = s.rules.bidding
    assert isinstance(order_up, OrderUp)
    bidding = s.core.bidding
    round_two = bidding.round == 2
    if action.verb is Verb.PASS:
        return (
            None
            if legal.may_pass_bid(order_up, round_two=round_two, is_dealer=s.current_player == s.dealer)
            else "may_pass_bid"
        )
    if action.verb is Verb.ORDER_UP and not legal.may_order_up(round_two=round_two):
        return "may_order_up"
    if action.verb is Verb.CALL:
        assert action.suit is not None
        if not round_two:
            return "may_call round one"
        if not legal.may_call(round_two=round_two, candidate=bidding.candidate, suit=action.suit.value):
            return "may_call"
    if action.alone and not legal.may_bid_alone(order_up):
        return "may_bid_alone"
    return None


@given(index=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_the_bid_predicates_make_the_legal_bids_and_name_the_refusals(index: int, seed: int, choices: int) -> None:
    """At every bid, a bid is legal exactly when the named bid predicates allow it, and a bid
    they refuse is refused with the rule of the predicate that says no: the legal ids (compiled
    once per rule set) and the refusals read the same predicates."""
    s = setup(index, seed, 3, stacked=False)
    rng = random.Random(choices)
    bids = [a for a in s.rules.action_space.actions if a.verb in (Verb.PASS, Verb.ORDER_UP, Verb.CALL)]
    while not s.is_over:
        if s.phase is Phase.BID:
            for action in bids:
                broken = broken_bid_rule(s, action)
                assert s.is_legal(action) is (broken is None), (action, broken)
                if broken is not None:
                    with pytest.raises(IllegalActionError) as info:
                        s.check(action)
                    assert info.value.rule is BID_REFUSALS[broken], (action, broken)
        s = s.apply(choose(s, rng, 0.8))


# -- determinize: what a guess keeps ---------------------------------------------------------------------

STRONG = {0: "JH JD AH KH QH", 1: "AS KS QS TS 9S", 2: "AD KD QD TD 9D", 3: "AC KC QC TC 9C"}


def picked_up(preset: str, **options: Any) -> EuchreDeal:
    """Player 0 orders up the turned 9H and the dealer (3) takes it, discarding 9C."""
    s = new_deal(preset, deck=stack(preset, STRONG, turn_up="9H", kitty="TH JS JC"), **options)
    assert isinstance(s, EuchreDeal)
    return run(s, "order-up", "discard 9C")


def test_determinize_keeps_the_taken_turn_up_with_the_dealer_or_the_kitty() -> None:
    """After the dealer took the turn-up it is in his hand or (his discard) the kitty in every determinized deal."""
    s = picked_up("euchre")
    for i in range(40):
        guess = determinize(s.view(0), random.Random(i))
        assert isinstance(guess, EuchreDeal)
        assert (guess.hands[3] >> guess.turn_up) & 1 or guess.turn_up in guess.kitty
        assert replay(record_of(guess)) == guess


def test_determinize_does_not_know_whether_the_dealer_discarded_the_turn_up() -> None:
    """Issue 12 (views are information sets): when the dealer may discard the turn-up he took and his discard is
    hidden, guesses from another seat have him keep it or discard it (each replays and views the same)."""
    s = picked_up("euchre")  # he kept the 9H and discarded the 9C
    places = set()
    for i in range(60):
        guess = determinize(s.view(0), random.Random(i))
        assert isinstance(guess, EuchreDeal)
        assert guess.view(0) == s.view(0) and replay(record_of(guess)) == guess
        places.add("kitty" if guess.turn_up in guess.kitty else "hand")
    assert places == {"kitty", "hand"}


@pytest.mark.parametrize(
    ("preset", "options"),
    [("euchre-openspiel", {}), ("euchre", {"dealer_may_discard_upcard": False}), ("british-euchre", {})],
)
def test_a_kept_turn_up_is_known_and_stays_with_the_dealer(preset: str, options: dict[str, Any]) -> None:
    """§13.5 / dealer_pickup="may": when the dealer could not have discarded the turn-up he took, everyone knows
    he holds it, and every determinization leaves it with him."""
    s = picked_up(preset, **options)
    for p in range(4):
        assert list(s.view(p).known[3]) == [Card.parse("9H")]
    for i in range(20):
        guess = determinize(s.view(1), random.Random(i))
        assert isinstance(guess, EuchreDeal)
        assert (guess.hands[3] >> guess.turn_up) & 1
        assert guess.view(1) == s.view(1)
        assert replay(record_of(guess)) == guess


FARMER = {0: "9S 9H 9D AH KH", 1: "JS JC AS KS KC", 2: "QS QH TD AD KD", 3: "AC QC JD TC 9C"}


def test_a_farmers_swap_is_public_and_stays_in_the_kitty() -> None:
    """Farmer's hand: the swap is shown to everybody, and determinized deals keep the swapped nines in the kitty."""
    s = new_deal("euchre", deck=stack("euchre", FARMER, turn_up="TH", kitty="TS JH QD"), farmers_hand="nines_or_tens")
    assert isinstance(s, EuchreDeal)
    s = s.apply("discard 9S 9H 9D")
    assert s.view(1).history == ((0, Action.parse("discard 9S 9H 9D")),)
    for i in range(20):
        guess = determinize(s.view(1), random.Random(i))
        assert isinstance(guess, EuchreDeal)
        assert {str(s.rules.deck.card(x)) for x in guess.kitty} == {"9S", "9H", "9D"}
        assert guess.view(1) == s.view(1)


def test_a_kept_farmers_hand_is_seen_by_its_holder_only() -> None:
    """Issue 12 (views are information sets): only a holder is asked about a farmer's hand, so his ``pass`` is in
    his own history only; determinize from another view replays with whoever its guessed hands make holders."""
    s = new_deal("euchre", deck=stack("euchre", FARMER, turn_up="TH", kitty="TS JH QD"), farmers_hand="nines_or_tens")
    assert isinstance(s, EuchreDeal)
    s = s.apply("pass")
    assert s.phase is Phase.BID and s.current_player == 0
    assert s.view(0).history == ((0, Action(Verb.PASS)),)
    assert s.view(1).history == s.view(2).history == s.view(3).history == ()
    asked = set()
    for i in range(40):
        guess = determinize(s.view(1), random.Random(i))
        assert isinstance(guess, EuchreDeal)
        assert guess.view(1) == s.view(1) and replay(record_of(guess)) == guess
        asked.add(tuple(who for who, _ in guess.history))
    assert () in asked  # a guess need not give seat 0 a farmer's hand


def test_a_pending_farmers_decision_is_not_shown_to_the_others() -> None:
    """Issue 12 (views are information sets): while the holder of a farmer's hand decides, the others see the
    bidding as if nobody held one (showing him as the player to act would tell what he holds); the holder sees
    his decision, and determinize from another view gives a world that view cannot tell apart."""
    s = new_deal("euchre", deck=stack("euchre", FARMER, turn_up="TH", kitty="TS JH QD"), farmers_hand="nines_or_tens")
    assert isinstance(s, EuchreDeal)
    assert s.phase is Phase.DISCARD and s.current_player == 0
    assert s.view(0).current_player == 0 and s.view(0).phase is Phase.DISCARD
    passed = s.apply("pass")
    for p in (1, 2, 3):
        assert s.view(p) == passed.view(p)
        assert s.view(p).phase is Phase.BID and s.view(p).current_player == 0
        assert s.view(p).legal_actions() == ()
        for i in range(10):
            guess = determinize(s.view(p), random.Random(i))
            assert guess.view(p) == s.view(p) and replay(record_of(guess)) == guess


def test_determinize_respects_who_held_a_farmers_hand() -> None:
    """With farmers_hand on, determinized deals replay from their own records (nobody gains a farmer's hand)."""
    s = new_deal("euchre", seed=5, deck_size=32, farmers_hand="mixed")
    assert isinstance(s, EuchreDeal)
    s = s.apply("order-up alone")
    for i in range(40):
        guess = determinize(s.view(2), random.Random(i))
        assert replay(record_of(guess)) == guess


@given(index=st.sampled_from(range(len(CONFIGS))), seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_the_three_ways_to_apply_give_the_same_deal(index: int, seed: int, choices: int) -> None:
    """apply(action), apply(action, check=False) and apply(action_id, check=False) walk the
    same deal: the same states, legal ids and legal actions at every step, whatever the
    stored layout (a mask of playable cards or a tuple of ids) behind them."""
    checked = fast = by_id = setup(index, seed, 3, stacked=False)
    rules = checked.rules
    rng = random.Random(choices)
    while not checked.is_over:
        legal = checked.legal_actions()
        ids = checked.legal_action_ids()
        assert fast.legal_actions() == by_id.legal_actions() == legal
        assert fast.legal_action_ids() == by_id.legal_action_ids() == ids
        assert legal == tuple(rules.action_from_id(i) for i in ids)
        k = rng.randrange(len(ids))
        checked = checked.apply(legal[k])
        fast = fast.apply(legal[k], check=False)
        by_id = by_id.apply(ids[k], check=False)
        assert checked == fast == by_id and hash(checked) == hash(by_id)
        assert checked.is_over == fast.is_over == by_id.is_over
        assert checked.core == by_id.core
    assert checked.scores == fast.scores == by_id.scores
