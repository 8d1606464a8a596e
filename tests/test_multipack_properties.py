"""Property tests over random legal deals of multi-pack Bezique (reference.md §4-§6).

Each example is one whole deal of ``rubicon-bezique``, ``six-pack-bezique`` or
``eight-pack-bezique`` (130-300 decisions) with a few non-default options, a
dealer, a shuffle seed (sometimes re-stacked so that a hand is a carte blanche),
and a random policy that likes to declare. Deals are long, so each test runs only
a few examples under the default hypothesis profile (3) and more under
``HYPOTHESIS_PROFILE=ci``.

Checked at every step: card conservation over the physical cards, legal actions
(unique, sorted, the mask, accepted), the number of legal actions in the stock
phase (no growth with the packs beyond the hand), trumps fixed once and only by a
marriage or sequence, trick winners, the play-off duties, and the scores. At
sampled steps: a random illegal action is refused with a `RuleCode` and changes
nothing, ``determinize(view).view(p) == view``, notation round trips, and records
round trip. At the end: the breakdown adds up to the scores, one score is 0, and
the scores follow the rubicon rules.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bezique_rules import (
    Action,
    Card,
    IllegalActionError,
    Phase,
    RuleCode,
    Suit,
    Verb,
    determinize,
    get_rules,
    new_deal,
    record_of,
    replay,
)
from bezique_rules.deck import card_ids as bits  # the physical ids in a mask, lowest first
from bezique_rules.engine.stock import StockDeal
from scenario import RUBICON_RESULTS, places, rubicon_result

VARIANTS = tuple(RUBICON_RESULTS)
EXAMPLES = max(3, settings().max_examples // 5) if settings().max_examples > 25 else 3
"""Deals per test: 3 under the default profile, 24 under ``ci`` (120 examples)."""
deals_settings = settings(max_examples=EXAMPLES)

CARTE = {"rubicon-bezique": 50, "six-pack-bezique": 250, "eight-pack-bezique": 0}


@dataclass(frozen=True)
class Case:
    """One random deal: preset, options, dealer, seed, a blank (carte blanche) hand or not, policy."""

    variant: str
    options: tuple[tuple[str, Any], ...]
    dealer: int
    seed: int
    blank: int | None
    policy: int
    declare_bias: float = field(default=0.7)

    def new_deal(self) -> StockDeal:
        """The deal: shuffled from ``seed``; with ``blank``, that player's dealt court cards are
        swapped with non-court cards of the stock (the deck then goes in as a stacked deck)."""
        options = dict(self.options)
        if self.blank is None:
            state = new_deal(self.variant, seed=self.seed, dealer=self.dealer, **options)
        else:
            state = new_deal(self.variant, deck=blank_deck(self, self.blank), dealer=self.dealer, **options)
        assert isinstance(state, StockDeal)
        return state


def blank_deck(case: Case, player: int) -> list[str]:
    """A shuffled deck of the case's preset in which ``player``'s dealt hand has no K, Q or J."""
    rules = get_rules(case.variant)
    deck = [str(c) for c in rules.deck.cards]
    random.Random(case.seed).shuffle(deck)
    where = places(rules, case.dealer)
    spare = [i for i in where.stock if deck[i][0] not in "KQJ"]
    for i in where.hands[player]:
        if deck[i][0] in "KQJ":
            j = spare.pop()
            deck[i], deck[j] = deck[j], deck[i]
    return deck


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A preset, some non-default options (from each preset's own options), a dealer, a seed."""
    variant = draw(st.sampled_from(VARIANTS))
    names = {spec.name for spec in get_rules(variant).option_specs}
    options: dict[str, Any] = {}
    flips = {
        "marriage_to_sequence": True,
        "sequence_to_marriage": True,
        "reform_after_play": False,
        "four_tens": True,
        "bezique_pair": "trump_dependent",
        "carte_blanche_repeat": False,
        "cut_and_guess": False,
        "rubicon_double_bonus": True,
    }
    for name, value in flips.items():
        if name in names and draw(st.integers(0, 3)) == 0:
            options[name] = value
    return Case(
        variant=variant,
        options=tuple(sorted(options.items())),
        dealer=draw(st.integers(0, 1)),
        seed=draw(st.integers(0, 2**32)),
        blank=draw(st.sampled_from([None, None, 0, 1])),
        policy=draw(st.integers(0, 2**32)),
        declare_bias=draw(st.sampled_from([0.3, 0.7, 0.95])),
    )


def choose(state: StockDeal, rng: random.Random, bias: float) -> int:
    """The random policy, built to reach big melds: when declaring, with probability ``bias`` the
    highest-scoring meld, else any meld or ``pass``; a carte blanche whenever offered (probability
    ``bias``); when playing, with probability ``bias`` a card no meld needs (T 9 8 7) if any."""
    ids = state.legal_action_ids()
    actions = state.rules.action_space.actions
    if state.phase is Phase.DECLARE:
        melds = [i for i in ids if actions[i].verb is Verb.MELD]
        if melds and rng.random() < bias:
            points = {k.name: k.points for k in state.rules.melds.kinds}
            best = max(points[actions[i].meld] for i in melds)
            return rng.choice([i for i in melds if points[actions[i].meld] == best])
        return rng.choice(list(ids))
    carte = [i for i in ids if actions[i].meld == "carte-blanche"]
    if carte and rng.random() < bias:
        return carte[0]
    plays = [i for i in ids if actions[i].verb is not Verb.MELD] or list(ids)
    dull = [i for i in plays if actions[i].verb is Verb.PLAY and str(actions[i].cards[0])[0] in "T987"]
    if dull and rng.random() < bias:
        return rng.choice(dull)
    return rng.choice(plays)


def walk(case: Case) -> Iterator[tuple[StockDeal, int | None]]:
    """Every state of the deal with the action id chosen there (None at the end)."""
    state = case.new_deal()
    rng = random.Random(case.policy)
    while not state.is_over:
        action = choose(state, rng, case.declare_bias)
        yield state, action
        state = state.apply(action)
    yield state, None


# -- oracles -----------------------------------------------------------------------------


def beats(later: Card, winning: Card, trump: Suit | None) -> bool:
    """§1.2: a later card wins by a higher card of the suit of the winning card, or by trumping it
    (no trump before the first marriage or sequence)."""
    if later.suit == winning.suit:
        return later.rank.value < winning.rank.value  # ranks are numbered A T K Q J 9 8 7
    return trump is not None and later.suit == trump


def expected_plays(state: StockDeal) -> set[tuple[Card, bool]]:
    """§1.3-§1.4a: any held card in the stock phase; in the play-off follow suit and beat the led
    card if able, else follow; void: trump if able (there may be no trump), else any card."""
    deck = state.rules.deck
    p = state.player
    held = bits(state.hands[p])
    if state.phase is Phase.PLAYOFF and state.trick:
        led = deck.card(state.trick[0])
        trump = state.trump_suit
        follow = [c for c in held if deck.card(c).suit == led.suit]
        if follow:
            higher = [c for c in follow if deck.card(c).rank.value < led.rank.value]
            held = higher or follow
        else:
            trumps = [c for c in held if trump is not None and deck.card(c).suit == trump]
            held = trumps or held
    return {(deck.card(c), bool((state.tabled[p] >> c) & 1)) for c in held}


# -- per-step checks ----------------------------------------------------------------------


def check_conservation(state: StockDeal) -> None:
    """Every physical card is in exactly one place: a hand, the trick, a pile of won cards, the stock;
    tabled and known cards are held cards."""
    places = [*state.hands, *state.won, *(1 << c for c in state.trick), *(1 << c for c in state.stock)]
    union = 0
    for m in places:
        assert not union & m, "a card is in two places"
        union |= m
    assert union == state.rules.deck.full_mask
    assert sum(m.bit_count() for m in places) == state.rules.deck.size
    assert state.turn_up == -1
    for p in (0, 1):
        assert state.tabled[p] & ~state.hands[p] == 0
        assert state.known[p] & ~state.hands[p] == 0
    if state.phase is Phase.PLAYOFF or state.is_over:
        assert state.tabled == (0, 0) and not state.stock


def check_legal(state: StockDeal) -> None:
    """Legal ids are unique and sorted, the mask agrees, each action is legal; in the stock phase
    the plays are exactly the held cards by (face, place); the count stays within the hand."""
    ids = state.legal_action_ids()
    assert list(ids) == sorted(set(ids))
    mask = state.legal_action_mask()
    assert [i for i, ok in enumerate(mask) if ok] == list(ids)
    if state.is_over:
        assert ids == () and state.current_player is None
        return
    assert ids, "a live deal always has a legal action"
    actions = state.legal_actions()
    assert all(state.is_legal(a) for a in actions)
    hand_size = state.rules.deal.hand_size
    p = state.player
    held = state.hands[p].bit_count()
    if state.phase is Phase.GUESS:
        assert [a.number for a in actions] == list(range(12, 37))
        return
    if state.phase is Phase.DECLARE:
        assert all(a.verb in (Verb.MELD, Verb.PASS) for a in actions) and Action(Verb.PASS) in actions
        assert all(a.meld != "carte-blanche" for a in actions)
        return
    plays = [a for a in actions if a.verb is Verb.PLAY]
    others = [a for a in actions if a.verb is not Verb.PLAY]
    assert {(a.cards[0], a.tabled[0]) for a in plays} == expected_plays(state)
    # the performance property: no growth with the packs beyond the hand
    assert len(plays) <= held <= hand_size
    assert len(actions) <= held + 1
    assert all(a.meld == "carte-blanche" for a in others) and len(others) <= 1
    if others:  # a carte blanche: only in a preset that has one, from a hand without K, Q or J
        assert CARTE[state.rules.name] > 0
        assert not any(state.rules.deck.card(c).rank.is_court for c in bits(state.hands[p]))


def check_transition(before: StockDeal, action: int, after: StockDeal) -> None:
    """Trumps are fixed once, by the first marriage or sequence, in its suit; a completed trick goes
    to the right player; meld and carte points are the kind's points; nothing else scores mid-deal."""
    a = before.rules.action_space.actions[action]
    kinds = {k.name: k for k in before.rules.melds.kinds}
    if before.trump >= 0:
        assert after.trump == before.trump
    elif a.verb is Verb.MELD and a.meld in kinds and kinds[a.meld].fixes_trump:
        assert after.trump_suit is a.cards[0].suit and a.meld in ("royal-marriage", "sequence")
    else:
        assert after.trump == -1
    p = before.player
    gained = after.points[p].melds - before.points[p].melds
    if a.verb is Verb.MELD:
        expected = CARTE[before.rules.name] if a.meld == "carte-blanche" else kinds[a.meld].points
        assert gained == expected
    elif not after.is_over:
        assert gained == 0
    if a.verb is Verb.PLAY and len(before.trick) == 1 and not after.is_over:
        deck = before.rules.deck
        lead, follow = deck.card(before.trick[0]), a.cards[0]
        winner = p if beats(follow, lead, before.trump_suit) else before.leader
        assert after.leader == winner
        assert after.tricks == before.tricks + 1
    if not after.is_over:
        assert all(x.cards == 0 and x.contract == 0 for x in after.breakdown)
        assert after.scores == tuple(x.total for x in after.breakdown)


def check_final(state: StockDeal, options: dict[str, Any]) -> None:
    """At the end: breakdown totals are the scores, one score is 0, and the scores are the rubicon
    result of the totals (brisques shown only when they count)."""
    variant = state.rules.name
    b = state.breakdown
    assert state.is_over and state.phase is Phase.OVER
    assert tuple(x.total for x in b) == state.scores
    assert min(state.scores) == 0
    deck = state.rules.deck
    won = tuple(sum(10 for c in bits(state.won[p]) if deck.card(c).rank.name in ("ACE", "TEN")) for p in (0, 1))
    assert sum(won) == 80 * state.rules.deck.packs
    totals = tuple(x.melds + x.seven + x.last_trick + x.bonus for x in b)
    scores, counted = rubicon_result(
        variant, (totals[0], totals[1]), (won[0], won[1]), double_bonus=options.get("rubicon_double_bonus", False)
    )
    assert state.scores == scores
    assert (b[0].cards, b[1].cards) == (won if counted else (0, 0))
    assert sorted(x.last_trick for x in b) == [0, RUBICON_RESULTS[variant][2]]
    assert state.result is not None and state.result.scores == state.scores


def snapshot(state: StockDeal) -> tuple[Any, ...]:
    """What a refused action must leave unchanged."""
    return (state.core, state.legal_action_ids(), state.scores, state.history)


def check_illegal(state: StockDeal, rng: random.Random) -> None:
    """A random illegal action (half of the time a play) is refused with a `RuleCode`; nothing changes."""
    rules = state.rules
    legal = set(state.legal_action_ids())
    plays = [i for i, a in enumerate(rules.action_space.actions) if a.verb is Verb.PLAY and i not in legal]
    pool = plays if plays and rng.random() < 0.5 else [i for i in range(rules.num_actions) if i not in legal]
    i = rng.choice(pool)
    before = snapshot(state)
    assert not state.is_legal(i)
    try:
        state.apply(i)
    except IllegalActionError as exc:
        assert isinstance(exc.rule, RuleCode)
        try:
            state.check(i)
        except IllegalActionError as again:
            assert again.rule is exc.rule
        else:
            raise AssertionError("check accepted an action apply refused")
    else:
        raise AssertionError(f"illegal action {rules.action_space.actions[i]} was accepted")
    assert snapshot(state) == before


def check_knowledge(state: StockDeal, rng: random.Random) -> None:
    """determinize(view).view(p) == view for both players; the viewer keeps his own legal actions."""
    for p in (0, 1):
        view = state.view(p)
        guess = determinize(view, rng)
        assert isinstance(guess, StockDeal)
        assert guess.view(p) == view
        if state.current_player == p:
            assert guess.legal_action_ids() == state.legal_action_ids()


def check_notation(state: StockDeal) -> None:
    """parse_action(str(a)) == a for every legal action, and the text maps to the same id."""
    for a in state.legal_actions():
        assert state.parse_action(str(a)) == a
        assert state.rules.action_id(str(a)) == state.rules.action_id(a)


def check_record(state: StockDeal) -> None:
    """record_of → JSON → replay gives the same state."""
    record = json.loads(json.dumps(record_of(state)))
    again = replay(record)
    assert again == state and again.legal_action_ids() == state.legal_action_ids()
    assert again.scores == state.scores and again.history == state.history


# -- the tests ------------------------------------------------------------------------------


def run_checks(
    case: Case,
    every_step: list[Callable[[StockDeal], None]],
    sampled: int = 0,
    extra: Callable[[StockDeal, random.Random], None] | None = None,
) -> StockDeal:
    """Walk a deal applying ``every_step`` checks and the transition checks; ``extra(state, rng)``
    runs at ``sampled`` random steps. Returns the final state."""
    rng = random.Random(case.seed ^ case.policy)
    steps = list(walk(case))
    chosen = set(rng.sample(range(len(steps)), min(sampled, len(steps))))
    for k, (state, action) in enumerate(steps):
        for check in every_step:
            check(state)
        if extra is not None and k in chosen:
            extra(state, rng)
        if action is not None:
            check_transition(state, action, steps[k + 1][0])
    return steps[-1][0]


@deals_settings
@given(cases())
def test_random_deals_conserve_cards_and_follow_the_rules(case: Case) -> None:
    """Every step: card conservation, legal actions (sorted, unique, mask, duties, count within the
    hand), trumps, trick winners and scores; at the end the rubicon result."""
    final = run_checks(case, [check_conservation, check_legal])
    check_final(final, dict(case.options))


@deals_settings
@given(cases())
def test_random_illegal_actions_are_refused(case: Case) -> None:
    """At sampled steps a random illegal action is refused with a RuleCode and changes nothing."""
    final = run_checks(case, [], 25, check_illegal)
    check_illegal(final, random.Random(case.policy))  # GAME_OVER at the end


@deals_settings
@given(cases())
def test_determinize_keeps_the_view(case: Case) -> None:
    """At sampled steps determinize(view(p)).view(p) == view(p) for both players."""
    run_checks(case, [], 12, check_knowledge)


@deals_settings
@given(cases())
def test_notation_and_records_round_trip(case: Case) -> None:
    """At 40 sampled steps parse_action(str(a)) == a for every legal action, at one of them (and at
    the end) the record round trips."""
    recorded: list[StockDeal] = []

    def sampled(state: StockDeal, _rng: random.Random) -> None:
        check_notation(state)
        if not recorded:
            recorded.append(state)
            check_record(state)

    final = run_checks(case, [], 40, sampled)
    check_record(final)


@deals_settings
@given(cases())
def test_action_count_does_not_grow_with_the_packs(case: Case) -> None:
    """The performance property, counted not timed: in the stock phase and the play-off the number of
    legal actions never exceeds the cards held + one carte blanche, and the play actions are one per
    distinct (card, place) held, so eight copies of a card still give one action."""
    worst = 0
    for state, _action in walk(case):
        if state.phase in (Phase.PLAY, Phase.PLAYOFF):
            ids = state.legal_action_ids()
            held = state.hands[state.player].bit_count()
            assert len(ids) <= held + 1
            distinct = {
                (state.rules.deck.face_of[c], (state.tabled[state.player] >> c) & 1)
                for c in bits(state.hands[state.player])
            }
            plays = [i for i in ids if state.rules.action_space.actions[i].verb is Verb.PLAY]
            assert len(plays) <= len(distinct) <= get_rules(case.variant).deal.hand_size
            worst = max(worst, len(ids))
    assert worst <= get_rules(case.variant).deal.hand_size + 1


def test_a_carte_blanche_copy_still_known_was_shown_with_every_later_copy() -> None:
    """Issue 25 (the witness): a player who showed a carte blanche (Rubicon: a hand without
    court cards, shown to the other player) and plays a card of a face he still holds a shown
    copy of played a shown copy (known copies go first), so his shown hand held both. Every
    view of this deal (found by the CI's random search) gets a world that shows it again."""
    case = Case(
        variant="rubicon-bezique",
        options=(
            ("bezique_pair", "trump_dependent"),
            ("carte_blanche_repeat", False),
            ("four_tens", True),
            ("marriage_to_sequence", True),
            ("reform_after_play", False),
            ("sequence_to_marriage", True),
        ),
        dealer=0,
        seed=1,
        blank=1,
        policy=13928,
        declare_bias=0.3,
    )
    checked = 0
    for state, _action in walk(case):
        for p in range(2):
            view = state.view(p)
            world = determinize(view, random.Random(checked))
            assert world.view(p) == view
            checked += 1
    assert checked > 60
