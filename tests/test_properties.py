"""Property tests over random legal play of every registered preset.

Every property is checked after every step of random deals (see `strategies`). For
every engine: legal actions (unique, sorted, mask, ids, notation, `is_legal`,
`check`, `apply`), refusals of illegal actions, views, `determinize`, records,
action ids, scores and whole games. For the stock engine (two-hand Bezique) also
card conservation over the physical cards, score bookkeeping (170 in brisques and
the last trick), independent oracles for the play duties, trick winners and draws,
and a check that views show only public cards. A stateful machine completes it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from bezique_rules import (
    JOKER,
    Action,
    Card,
    CardSet,
    DealState,
    GameState,
    IllegalActionError,
    Phase,
    PlayDuty,
    PlayerView,
    Rank,
    RuleCode,
    RuleSet,
    Suit,
    TrumpOrder,
    Verb,
    available_variants,
    determinize,
    get_rules,
    record_of,
    replay,
)
from bezique_rules.deck import card_ids as bits  # the physical ids in a mask, lowest first
from bezique_rules.engine.stock import StockDeal
from bezique_rules.rules.bezique import build_bezique, build_bezique_match
from strategies import (
    Chooser,
    DealSpec,
    GameSpec,
    Options,
    Step,
    deal_specs,
    game_specs,
    option_changes,
    play_game,
    playthroughs,
    walk,
)

VARIANTS = available_variants(builtin=True)


def _bezique_examples(share: float) -> settings:
    """Two-hand Bezique presets (the checks' main target): a fifth of the profile's examples
    times ``share`` each (5 by default, 24 under ``ci`` for a share of 1)."""
    return settings(max_examples=max(3, int(settings().max_examples * share / 5)))


def _other_examples(share: float) -> settings:
    """Every other preset: a 24th of the profile's examples times ``share`` each (at least one)."""
    return settings(max_examples=max(1, int(settings().max_examples * share / 24)))


def expensive_stride(rules: RuleSet) -> int:
    """Every how many steps the expensive checks (applying every legal action, views,
    determinize) run: every step in two-hand Bezique and in decks of up to 63 cards, every
    few steps in the long deals of bigger decks (the cheap checks run at every step)."""
    if two_hand_bezique(rules):
        return 1
    return max(1, rules.deck.size // 32)


_PLAY_REFUSALS = {RuleCode.MUST_FOLLOW_SUIT, RuleCode.MUST_BEAT, RuleCode.MUST_TRUMP, RuleCode.MUST_OVERTRUMP}
_MELD_REFUSALS = {
    RuleCode.NOT_A_MELD,
    RuleCode.MELD_NEEDS_NEW_CARD,
    RuleCode.MELD_CARD_REUSED,
    RuleCode.MELD_DOWNGRADE,
    RuleCode.MELD_LIMIT,
    RuleCode.EXCHANGED_CARD_IN_MELD,
    RuleCode.NO_MELD_WITH_EXCHANGE,
    RuleCode.CARD_NOT_HELD,
}
_SEVEN_REFUSALS = {
    RuleCode.SEVEN_NOT_ALLOWED,
    RuleCode.SEVEN_ALREADY_SCORED,
    RuleCode.CARD_NOT_HELD,
    RuleCode.NO_MELD_WITH_EXCHANGE,
}


# -- helpers ------------------------------------------------------------------------


def mask_of(ids: Sequence[int]) -> int:
    """The mask of a sequence of physical ids."""
    out = 0
    for c in ids:
        out |= 1 << c
    return out


def cards_of(rules: RuleSet, mask: int) -> CardSet:
    """The cards of a mask, as a card set."""
    return CardSet(rules.deck.cards_of(mask))


def views_of(state: DealState) -> tuple[PlayerView, ...]:
    """Every player's view."""
    return tuple(state.view(q) for q in range(state.players))


def two_hand_bezique(rules: RuleSet) -> bool:
    """Whether ``rules`` is two-hand Bezique (reference §2-3: the ``bezique`` presets and rule sets
    derived from them), where the Bezique-specific checks and oracles below apply."""
    two_hand = rules.builder in (build_bezique, build_bezique_match)
    return two_hand and rules.players == 2 and rules.trump_order == TrumpOrder()


def counts_every_card(rules: RuleSet) -> bool:
    """Whether every card won and the last trick always score as they are (stock games without
    a special result rule such as Rubicon's, and without Pinochle's rounding to tens): then they
    total ``card_points.total(deck)`` in every deal."""
    rounding = getattr(rules.card_points, "round_7_up", False)
    return rules.engine == "stock" and rules.stock.result is None and not rounding


def beats(follower: Card, leader: Card, trump: Suit | None) -> bool:
    """Reference §1.4: a later card wins only by a higher card of the suit led or by trumping."""
    if follower.suit == leader.suit:
        return follower.rank.value < leader.rank.value  # Rank order is A T K Q J 9 8 7
    return follower.suit == trump


def trick_winner(rules: RuleSet, trick: Sequence[int], leader: int, trump: int) -> int:
    """The seat that wins a complete two-card trick (equal cards: the leader)."""
    deck = rules.deck
    suit = None if trump < 0 else Suit(trump)
    return (leader + 1) % 2 if beats(deck.card(trick[1]), deck.card(trick[0]), suit) else leader


def expected_plays(s: StockDeal) -> set[Action]:
    """Reference §1.3-1.4, two players: the play actions open to the player to act.

    Stock phase: any held card. Play-off: follow suit and beat if able (only follow with
    ``playoff_rule="follow_only"``), else trump if able, else any card. A card lying on
    the table in a meld is played as ``play XX*``.
    """
    rules = s.rules
    deck = rules.deck
    p = s.player
    held = bits(s.hands[p])
    if s.stage is Phase.PLAYOFF and s.trick:
        led = deck.card(s.trick[0])
        trump = Suit(s.trump)
        follow = [c for c in held if deck.card(c).suit == led.suit]
        if follow:
            held = follow
            if rules.playoff_policy.duty is PlayDuty.FOLLOW_BEAT_OR_TRUMP:
                higher = [c for c in follow if deck.card(c).rank.value < led.rank.value]
                held = higher or follow
        elif rules.playoff_policy.duty is PlayDuty.FOLLOW_BEAT_OR_TRUMP:
            trumps = [c for c in held if deck.card(c).suit == trump]
            held = trumps or held
    return {Action.make(Verb.PLAY, [deck.card(c)], [bool((s.tabled[p] >> c) & 1)]) for c in held}


def held_in_place(s: StockDeal, action: Action) -> bool:
    """Whether the player to act holds the card a play action names, in the place named."""
    p = s.player
    place = s.tabled[p] if action.tabled[0] else s.hands[p] & ~s.tabled[p]
    return any(s.rules.deck.card(c) == action.cards[0] for c in bits(place))


def snapshot(state: DealState) -> tuple[Any, ...]:
    """Everything observable about a state, to show that a refused action changed nothing."""
    fields = attrs.astuple(cast(Any, state), recurse=False) if attrs.has(type(state)) else ()
    return (fields, state.legal_action_ids(), state.phase, state.current_player, state.scores, state.history)


# -- invariants of one state, every engine ---------------------------------------------


def shows_a_hidden_decision_as_made(state: DealState, view: PlayerView) -> bool:
    """Whether ``view`` may show the deal as after another player's pending decision: a decision only
    its holder knows he has (Euchre's farmer's hand, before trumps) is shown to the others as already
    made (issue 12: a view is an information set). Every other view shows the state as it is."""
    return view.player != state.current_player and state.phase is Phase.DISCARD and view.trump is None


def check_state(state: DealState, views: Sequence[PlayerView]) -> None:
    """Views agree with the state and with each other; hands are the sizes shown; no card
    appears more often than the deck holds it; scores are the breakdown totals."""
    rules = state.rules
    n = state.players
    seen: Counter[Card] = Counter()
    first = views[0]
    actor = state.current_player
    for q, v in enumerate(views):
        assert v.player == q
        same = (v.phase, v.current_player) == (state.phase, actor)
        assert same or shows_a_hidden_decision_as_made(state, v), f"player {q}'s view"
        assert v.dealer == state.dealer and v.scores == state.scores
        # seed 004: with a turned Benny the dealer names trumps before looking at his hand
        unseen = v.turn_up == JOKER and v.phase is Phase.TRUMP and q == v.dealer and not v.hand
        assert unseen or len(v.hand) == v.hand_sizes[q], f"player {q}'s hand is not the size the views show"
        assert len(v.hand_sizes) == n
        assert (v.hand_sizes, v.trick, v.won, v.trump, v.turn_up, v.stock_size, v.melds, v.tabled, v.known) == (
            first.hand_sizes,
            first.trick,
            first.won,
            first.trump,
            first.turn_up,
            first.stock_size,
            first.melds,
            first.tabled,
            first.known,
        ), "two players see different public fields"
        seen.update(v.hand)
    seen.update(first.trick)
    for w in first.won:
        seen.update(w)
    excess = seen - Counter(rules.deck.cards)
    assert not excess, f"cards beyond the deck: {sorted(excess)}"
    assert state.scores == tuple(b.total for b in state.breakdown)
    result = state.result
    if state.is_over:
        assert result is not None and result.scores == state.scores and result.breakdown == state.breakdown
    else:
        assert result is None


def check_legal_ids(state: DealState) -> None:
    """Legal actions are unique, sorted by action id, and empty exactly when the deal is over;
    the mask agrees with `legal_action_ids`."""
    rules = state.rules
    ids = state.legal_action_ids()
    legal = state.legal_actions()
    assert list(ids) == sorted(set(ids)), "legal action ids are not unique and sorted"
    assert len(legal) == len(ids) and all(rules.action_space.actions[i] == a for i, a in zip(ids, legal))
    assert (not legal) == state.is_over == (state.phase is Phase.OVER) == (state.current_player is None)
    mask = state.legal_action_mask()
    assert len(mask) == rules.num_actions
    assert tuple(i for i, on in enumerate(mask) if on) == ids


def check_legal_actions(state: DealState, views: Sequence[PlayerView]) -> None:
    """Each legal action: its id and notation round-trip, `is_legal` and `check` accept it,
    and `apply` (by action, text or id, checked or not) gives one and the same state."""
    rules = state.rules
    ids = state.legal_action_ids()
    legal = state.legal_actions()
    check_legal_ids(state)
    p = state.current_player
    for q, v in enumerate(views):
        if shows_a_hidden_decision_as_made(state, v):  # q may see himself to act next (the first bidder)
            assert bool(v.legal_actions()) == (v.current_player == q)
            continue
        assert v.legal_actions() == (legal if q == p else ())
    moves = state.action_history
    for k, a in enumerate(legal):
        i = ids[k]
        assert rules.action_from_id(i) == a and rules.action_id(a) == i
        assert state.parse_action(str(a)) == a and Action.parse(str(a)) == a
        assert state.is_legal(a)
        state.check(a)  # raises if apply would refuse it
        after = state.apply(a)
        assert state.apply(i, check=False) == after
        assert after.action_history == (*moves, i), "apply must record the action"
        assert after.rules == rules and after.dealer == state.dealer
        if k == 0:  # the other spellings, and the (player, action) history, once per state
            assert state.is_legal(str(a)) and state.is_legal(i)
            assert state.apply(str(a)) == after and state.apply(i) == after
            assert state.apply(a, check=False) == after
            assert after.history == (*state.history, (p, a))


def expected_refusals(s: DealState, action: Action) -> set[RuleCode] | None:
    """The rule codes that may refuse a non-legal ``action`` (None: any code, other engines)."""
    if s.is_over:
        return {RuleCode.GAME_OVER}
    if not isinstance(s, StockDeal) or not two_hand_bezique(s.rules):
        return None
    verb = action.verb
    if verb is Verb.MELD and action.meld == "carte-blanche":
        return {RuleCode.CARTE_BLANCHE_NOT_ALLOWED}
    if s.stage is Phase.DECLARE:
        if verb is Verb.PLAY:
            return {RuleCode.WRONG_PHASE}
        if verb is Verb.MELD:
            return _MELD_REFUSALS
        if verb in (Verb.EXCHANGE, Verb.DECLARE):
            return _SEVEN_REFUSALS
        return set()  # pass is always legal when declaring
    if verb is Verb.PASS:
        return {RuleCode.WRONG_PHASE}
    if verb is Verb.DECLARE and s.stage is Phase.PLAY and s.rules.options["seven_any_time"]:
        return _SEVEN_REFUSALS  # seed 000 method 2: declared on one's turn to play
    if verb in (Verb.MELD, Verb.EXCHANGE, Verb.DECLARE):
        return {RuleCode.NO_DECLARATION_NOW}
    assert verb is Verb.PLAY
    if not held_in_place(s, action):
        return {RuleCode.CARD_NOT_HELD}
    return _PLAY_REFUSALS if s.stage is Phase.PLAYOFF else set()


def check_refusals(state: DealState, rng: random.Random, tries: int = 2) -> None:
    """Random non-legal actions are refused with an `IllegalActionError` carrying the right
    `RuleCode` (the same from `apply` and `check`), and the state is unchanged."""
    rules = state.rules
    legal = set(state.legal_action_ids())
    before = snapshot(state)
    for t in range(tries):
        i = rng.randrange(rules.num_actions)
        if i in legal:
            continue
        action = rules.action_space.actions[i]
        assert not state.is_legal(action)
        assert rules.action_from_id(rules.action_id(action)) == action
        assert state.parse_action(str(action)) == action
        codes = set()
        for attempt in (action, str(action), i) if t == 0 else (action,):
            with pytest.raises(IllegalActionError) as info:
                state.apply(attempt)
            err = info.value
            assert isinstance(err.rule, RuleCode)
            allowed = expected_refusals(state, action)
            if allowed is not None:
                assert err.rule in allowed, f"{action} refused with {err.rule} in {state.phase}"
            else:
                assert err.rule is not RuleCode.GAME_OVER
            assert err.player == state.current_player and err.phase is state.phase
            codes.add(err.rule)
        with pytest.raises(IllegalActionError) as checked:
            state.check(action)
        codes.add(checked.value.rule)
        assert len(codes) == 1, f"apply and check refuse {action} for different reasons: {codes}"
    assert snapshot(state) == before, "a refused action changed the state"
    assert state.legal_action_ids() == before[1]


def check_determinize(state: DealState, views: Sequence[PlayerView], rng: random.Random) -> None:
    """`determinize(view(p)).view(p) == view(p)` for every p: states that differ only in hidden
    cards look the same to p, and the viewer's legal actions are unchanged."""
    actor = state.current_player or 0
    for p, view in enumerate(views):
        d = determinize(view, rng)
        assert d.view(p) == view, f"a determinized state shows player {p} something else"
        assert type(d) is type(state) and d.rules == state.rules and d.phase is state.phase
        assert d.moves == state.moves or not isinstance(state, StockDeal)
        if p == actor:
            assert d.legal_action_ids() == state.legal_action_ids(), "the viewer's legal actions changed"
        if isinstance(state, StockDeal):
            check_stock_determinized(state, d, p)
        elif p == actor:
            check_state(d, views_of(d))


# -- invariants of one state, the stock engine -------------------------------------------


def check_conservation(state: DealState) -> None:
    """Stock games: hands, won cards, stock, turn-up and trick partition the deck; tabled and
    known cards are held; hands are equal but for the current trick; in two-hand Bezique the
    hand sizes fit the phase."""
    if not isinstance(state, StockDeal):
        return
    s = state
    rules = s.rules
    n = rules.players
    assert len(set(s.stock)) == len(s.stock), "a card is twice in the stock"
    assert len(set(s.trick)) == len(s.trick), "a card is twice in the trick"
    parts = [*s.hands, *s.won, mask_of(s.stock), mask_of(s.trick)]
    if s.turn_up >= 0:
        parts.append(1 << s.turn_up)
    seen = 0
    for part in parts:
        assert seen & part == 0, f"cards in two places: {cards_of(rules, seen & part)}"
        seen |= part
    assert seen == rules.deck.full_mask, f"cards lost: {cards_of(rules, rules.deck.full_mask & ~seen)}"
    for q in range(n):
        assert s.tabled[q] & ~s.hands[q] == 0, f"player {q} has tabled cards he does not hold"
        assert s.known[q] & ~s.hands[q] == 0, f"player {q} has known cards he does not hold"
        assert s.tabled[q] & ~s.known[q] == 0, f"player {q} has tabled cards that are not known"
    if s.stage is Phase.OVER:
        assert not any(s.hands) and not s.trick and not s.stock and s.turn_up < 0
    played = {(s.leader + i) % n for i in range(len(s.trick))}
    sizes = {s.hands[q].bit_count() + (q in played) for q in range(n)}
    assert len(sizes) == 1, f"hand sizes out of step: {[h.bit_count() for h in s.hands]}"
    if not two_hand_bezique(rules):
        return
    if s.stage is Phase.PLAYOFF:
        assert not any(s.tabled), "melded cards return to the hand for the play-off"
        assert not s.stock and s.turn_up < 0
    size = sizes.pop()
    if s.stage is Phase.PLAY:
        assert size == rules.deal.hand_size
    elif s.stage is Phase.DECLARE:
        assert size == rules.deal.hand_size - 1 and not s.trick
    elif s.stage is Phase.OVER:
        assert size == 0 and not s.trick and not s.stock and s.turn_up < 0
    if s.stage in (Phase.PLAY, Phase.PLAYOFF):
        assert s.player == (s.leader + len(s.trick)) % n, "the wrong player is to act in the trick"
        assert len(s.trick) < n


def check_scores(state: DealState) -> None:
    """At the end the cards won plus the last trick are worth the deck's total (170 in Bezique)
    where every card counts; in two-hand Bezique meld, seven, card and last-trick points
    match what happened."""
    if not isinstance(state, StockDeal):
        return
    s = state
    rules = s.rules
    n = rules.players
    breakdown = s.breakdown
    if s.stage is Phase.OVER and counts_every_card(rules):
        total = sum(b.cards + b.last_trick for b in breakdown)
        assert total == rules.card_points.total(rules.deck), "cards won plus the last trick must total the deck"
    if not two_hand_bezique(rules):
        return
    values = rules.card_values
    kinds = rules.melds.kinds
    cartes = Counter(p for p, a in s.history if a.verb is Verb.MELD and a.meld == "carte-blanche")
    for q in range(n):
        b = breakdown[q]
        assert b.total == b.melds + b.seven + b.cards + b.last_trick, "a stock game scores nothing else"
        # a pending meld (pending declarations) is laid out but scores only later
        melded = sum(kinds[k].points for p, k, m in s.declarations if p == q and (p, k, m) not in s.pending)
        assert b.melds == melded + cartes[q] * rules.stock.carte_blanche, f"player {q}'s meld points"
        won_points = sum(values[c] for c in bits(s.won[q]))
        if s.stage is Phase.OVER or rules.stock.card_timing == "immediate":
            assert b.cards == won_points, f"player {q}'s card points are not his won cards"
        else:
            assert b.cards == 0, "card points count only at the end of the deal"
    dix = rules.stock.dix
    seven = sum(b.seven for b in breakdown)
    if dix is None:
        assert seven == 0
    else:
        assert seven == dix.points * s.scored.bit_count(), "each trump seven scores once"
        for c in bits(s.scored):
            assert rules.deck.card(c).rank is dix.rank and rules.deck.card(c).suit == s.trump_suit
    last = [b.last_trick for b in breakdown]
    if rules.stock.last_trick_bonus_at == "last_stock_trick":
        bonus_done = s.tricks >= (rules.deck.size - n * rules.deal.hand_size) // n
    else:
        bonus_done = s.stage is Phase.OVER
    if bonus_done:
        assert sorted(last) == [0] * (n - 1) + [rules.card_points.last_trick], f"last-trick bonus: {last}"
    else:
        assert last == [0] * n, f"last-trick bonus too early: {last}"


def check_play_oracle(state: DealState) -> None:
    """Reference §1.3-1.4: the play actions offered are exactly the held cards the duties allow."""
    if not isinstance(state, StockDeal) or not two_hand_bezique(state.rules):
        return
    if state.stage not in (Phase.PLAY, Phase.PLAYOFF):
        return
    offered = {a for a in state.legal_actions() if a.verb is Verb.PLAY}
    assert offered == expected_plays(state), f"{state.stage.value}: trick {state.view(0).trick}"


def check_declare_phase(state: DealState) -> None:
    """The trick winner declares: pass is always open, melds use held cards in the places named,
    the trump seven is the only card exchanged or declared."""
    if not isinstance(state, StockDeal) or state.stage is not Phase.DECLARE or not two_hand_bezique(state.rules):
        return
    s = state
    rules = s.rules
    legal = s.legal_actions()
    assert Action(Verb.PASS) in legal, "the trick winner may always decline to declare"
    # ``pass`` may be the only action: every stock-trick winner gets the decision (issue 12 item 5)
    assert all(a.verb in (Verb.PASS, Verb.MELD, Verb.EXCHANGE, Verb.DECLARE) for a in legal)
    p = s.player
    concealed = Counter(rules.deck.cards_of(s.hands[p] & ~s.tabled[p]))
    tabled = Counter(rules.deck.cards_of(s.tabled[p]))
    for a in legal:
        if a.verb is Verb.MELD:
            need_hand = Counter(c for c, t in zip(a.cards, a.tabled) if not t)
            need_table = Counter(c for c, t in zip(a.cards, a.tabled) if t)
            assert not need_hand - concealed and not need_table - tabled, f"{a}: cards not held there"
            if rules.meld_rules.new_card_rule == "every_meld" and not rules.meld_rules.double_after_two_singles:
                waiting = {(m.kind, m.cards) for m in s.view(p).pending if m.player == p}  # scored later
                assert need_hand or (a.meld, CardSet(a.cards)) in waiting, f"{a}: R1 needs a concealed card"
        elif a.verb in (Verb.EXCHANGE, Verb.DECLARE):
            assert s.trump_suit is not None and a.cards[0] == Card(s.trump_suit, Rank.SEVEN)
            if a.verb is Verb.EXCHANGE:
                assert s.turn_up >= 0 and rules.deck.card(s.turn_up).rank is not Rank.SEVEN


def check_stock_determinized(s: StockDeal, d: DealState, p: int) -> None:
    """A determinized stock deal is consistent and changes only the cards hidden from ``p``:
    the other players' concealed unknown cards and the stock. Cards are compared as cards, not
    physical copies: on decks with several copies of a card a world is the replay of its
    history on its deck, its copies numbered as its record numbers them (issue 26 item 6)."""
    assert isinstance(d, StockDeal)
    check_conservation(d)
    deck = s.rules.deck

    def cards(mask: int) -> Counter[Card]:
        return Counter(deck.cards_of(mask))

    def row(masks: Sequence[int]) -> list[Counter[Card]]:
        return [cards(m) for m in masks]

    def seq(ids: Sequence[int]) -> list[Card]:
        return [deck.card(x) for x in ids]

    def one(pid: int) -> Card | None:
        return None if pid < 0 else deck.card(pid)

    def melds(rows: Sequence[Any]) -> list[tuple[int, int, Counter[Card]]]:
        return [(m.player, m.kind, cards(m.cards)) for m in rows]

    assert cards(d.hands[p]) == cards(s.hands[p]) and row(d.tabled) == row(s.tabled) and row(d.known) == row(s.known)
    assert row(d.won) == row(s.won) and seq(d.trick) == seq(s.trick) and seq(d.last_trick) == seq(s.last_trick)
    assert one(d.turn_up) == one(s.turn_up) and d.trump == s.trump and d.points == s.points
    assert melds(d.declarations) == melds(s.declarations) and cards(d.scored) == cards(s.scored)
    assert d.moves == s.moves and melds(d.pending) == melds(s.pending)
    assert (d.stage, d.player, d.leader) == (s.stage, s.player, s.leader)
    assert (d.core.declaring.melds_this_trick, d.core.declaring.seven_done) == (
        s.core.declaring.melds_this_trick,
        s.core.declaring.seven_done,
    )
    assert one(d.exchanged) == one(s.exchanged)
    assert len(d.stock) == len(s.stock)
    hidden_s = cards(mask_of(s.stock))
    hidden_d = cards(mask_of(d.stock))
    for q in range(s.players):
        if q == p:
            continue
        assert d.hands[q].bit_count() == s.hands[q].bit_count()
        assert cards(d.hands[q] & d.known[q]) == cards(s.hands[q] & s.known[q])
        hidden_s += cards(s.hands[q] & ~s.known[q])
        hidden_d += cards(d.hands[q] & ~d.known[q])
    # the next player's view differs only in his hand and the choices it gives him (when he is
    # to act): nothing else depends on hidden cards
    q = (p + 1) % s.players
    theirs = s.view(q)
    assert attrs.evolve(d.view(q), hand=theirs.hand, legal=theirs.legal) == theirs
    assert hidden_d == hidden_s, "determinize moved a card the viewer can see"


# -- transitions, the stock engine --------------------------------------------------------


def check_transition(step: Step) -> None:
    """Stock games: one move per step. Two-hand Bezique: scores never fall; a completed trick
    goes to its winner (reference §1.4), who acts next; the winner draws the top stock card,
    the loser the next or the turn-up."""
    if step.parent is None or step.action is None or not isinstance(step.state, StockDeal):
        return
    parent, s = step.parent, step.state
    assert isinstance(parent, StockDeal)
    rules = s.rules
    assert s.moves[:-1] == parent.moves and len(s.moves) == len(parent.moves) + 1
    assert s.tricks >= parent.tricks
    if not two_hand_bezique(rules):
        return
    assert all(a >= b for a, b in zip(s.scores, parent.scores)), f"a score fell: {parent.scores} -> {s.scores}"
    if parent.stage is Phase.DECLARE:
        check_declare_end(parent, s, step.action)
        return
    if step.action.verb is not Verb.PLAY or len(parent.trick) != 1:
        return
    # the trick is complete
    trick = (*parent.trick, s.last_trick[-1])
    assert s.last_trick == trick and s.last_leader == parent.leader and s.tricks == parent.tricks + 1
    winner = trick_winner(rules, trick, parent.leader, parent.trump)
    loser = 1 - winner
    assert s.won[winner] == parent.won[winner] | mask_of(trick), "the trick did not go to its winner"
    assert s.won[loser] == parent.won[loser]
    if s.stage is Phase.OVER:
        return
    assert s.player == winner, "the trick winner acts next"
    if s.stage is Phase.DECLARE or parent.stage is Phase.PLAYOFF:
        assert s.stock == parent.stock and s.turn_up == parent.turn_up
        return
    check_draw(parent, s, winner)


def check_draw(before: StockDeal, s: StockDeal, winner: int) -> None:
    """After a stock-phase trick the winner draws the top card, the loser the next (the turn-up last)."""
    loser = 1 - winner
    top = before.stock[0]
    second = before.stock[1] if len(before.stock) > 1 else before.turn_up
    assert second >= 0
    gained = [s.hands[q] & ~before.hands[q] for q in range(2)]
    assert gained[winner] == 1 << top, "the winner draws the top card of the stock"
    assert gained[loser] == 1 << second, "the loser draws the next card (the turn-up last)"
    assert s.stock == before.stock[2:]
    if len(before.stock) <= 1:
        assert s.turn_up < 0 and s.stage is Phase.PLAYOFF
        assert (s.known[loser] >> second) & 1, "the turn-up drawn last is a known card"


def check_declare_end(parent: StockDeal, s: StockDeal, action: Action) -> None:
    """Declaring: the declarer stays to act while he can declare more; when the declarations
    end (a pass, or nothing more to declare) he, the trick winner, draws first and leads."""
    if action.verb is Verb.PASS:
        assert s.stage is not Phase.DECLARE and s.tricks == parent.tricks
    assert s.player == parent.player
    if s.stage is Phase.DECLARE:
        assert s.stock == parent.stock
        return
    assert s.leader == parent.player
    if action.verb is not Verb.EXCHANGE:
        check_draw(parent, s, parent.player)


# -- publicity, the stock engine ----------------------------------------------------------


class Publicity:
    """Tracks which physical cards of a stock deal have been shown to everybody so far."""

    def __init__(self) -> None:
        self.shown = 0

    def update(self, step: Step) -> None:
        """Add what the step showed: turn-ups, melds, played cards, declared or exchanged
        sevens, a carte blanche."""
        s = step.state
        assert isinstance(s, StockDeal)
        if s.turn_up >= 0:
            self.shown |= 1 << s.turn_up
        for _p, _k, mk in s.declarations:
            self.shown |= mk
        self.shown |= mask_of(s.trick) | mask_of(s.last_trick)
        for w in s.won:
            self.shown |= w
        if step.parent is None or step.action is None:
            return
        parent = step.parent
        assert isinstance(parent, StockDeal)
        p = parent.player
        if step.action.verb is Verb.DECLARE:
            # the declared seven is shown (it may be known already, e.g. after a carte blanche)
            new = s.known[p] & ~parent.known[p]
            assert new.bit_count() <= 1
            assert any(s.rules.deck.card(c) == step.action.cards[0] for c in bits(new or parent.known[p]))
            self.shown |= new
        elif step.action.verb is Verb.EXCHANGE:
            self.shown |= s.scored & ~parent.scored  # the seven laid down as the new turn-up
        elif step.action.meld == "carte-blanche":
            self.shown |= parent.hands[p]


def check_public_views(s: StockDeal, views: Sequence[PlayerView], public: Publicity) -> None:
    """A view holds the player's own cards and public cards only: the known cards are exactly
    the held cards that were shown, and every field other than the hand is made of them."""
    rules = s.rules
    deck = rules.deck
    for q in range(s.players):
        assert s.known[q] == s.hands[q] & public.shown, f"player {q}'s known cards are not the shown ones"
    public_parts = [*s.tabled, *s.known, *s.won, mask_of(s.trick), mask_of(s.last_trick)]
    public_parts += [mk for _p, _k, mk in s.declarations]
    if s.turn_up >= 0:
        public_parts.append(1 << s.turn_up)
    for part in public_parts:
        assert part & ~public.shown == 0, "a view field shows a card that was never shown"
    for p, v in enumerate(views):
        assert v.hand == cards_of(rules, s.hands[p]), "view.hand must be exactly the player's cards"
        assert v.hand_sizes == tuple(h.bit_count() for h in s.hands)
        assert v.tabled == tuple(cards_of(rules, t) for t in s.tabled)
        assert v.known == tuple(cards_of(rules, k) for k in s.known)
        assert v.won == tuple(cards_of(rules, w) for w in s.won)
        assert v.trick == tuple(deck.card(c) for c in s.trick)
        assert v.last_trick == tuple(deck.card(c) for c in s.last_trick)
        assert v.trick_leader == s.leader and v.last_trick_leader == s.last_leader
        assert v.turn_up == (None if s.turn_up < 0 else deck.card(s.turn_up))
        assert v.trump == s.trump_suit and v.stock_size == len(s.stock)
        assert v.history == s.history and v.game_scores is None
        assert [(m.player, m.kind, m.cards, m.points) for m in v.melds] == [
            (q, rules.melds.kinds[k].name, cards_of(rules, mk), rules.melds.kinds[k].points)
            for q, k, mk in s.declarations
            if (q, k, mk) not in s.pending
        ]
        assert [(m.player, m.kind, m.cards, m.points) for m in v.pending] == [
            (q, rules.melds.kinds[k].name, cards_of(rules, mk), rules.melds.kinds[k].points) for q, k, mk in s.pending
        ]


# -- deal properties --------------------------------------------------------------------

BEZIQUE_PRESETS = tuple(v for v in VARIANTS if two_hand_bezique(get_rules(v)))
OTHER_PRESETS = tuple(v for v in VARIANTS if v not in BEZIQUE_PRESETS)


def every_step(variant: str, data: st.DataObject, forced: Options = ()) -> None:
    """The body of `test_every_step_keeps_the_invariants`."""
    pt = data.draw(playthroughs([variant], forced=forced), label="playthrough")
    stride = expensive_stride(pt.spec.rules())
    offset = data.draw(st.integers(0, stride - 1), label="offset")
    rng = random.Random(pt.policy_seed)
    last = None
    for step in pt.steps():
        s = step.state
        check_legal_ids(s)
        check_conservation(s)
        check_scores(s)
        check_play_oracle(s)
        check_declare_phase(s)
        check_transition(step)
        if step.number % stride == offset or s.is_over:
            views = views_of(s)
            check_state(s, views)
            check_legal_actions(s, views)
            check_refusals(s, rng)
        last = s
    assert last is not None and last.is_over and last.result is not None
    assert last.result.scores == last.scores
    if counts_every_card(last.rules):
        total = sum(b.cards + b.last_trick for b in last.result.breakdown)
        assert total == last.rules.card_points.total(last.rules.deck)


@pytest.mark.parametrize("variant", BEZIQUE_PRESETS)
@_bezique_examples(1.0)
@given(data=st.data())
def test_every_step_keeps_the_invariants(variant: str, data: st.DataObject) -> None:
    """After every step of two-hand Bezique: conservation of the 64 cards, scores (170 in
    brisques and the last trick), consistent legal actions, the play-duty oracle, declare-phase
    sanity, trick winners and draws, refusals of illegal actions with the right rule code."""
    every_step(variant, data)


@pytest.mark.parametrize("variant", OTHER_PRESETS)
@_other_examples(1.0)
@given(data=st.data())
def test_every_step_keeps_the_invariants_in_other_presets(variant: str, data: st.DataObject) -> None:
    """The engine-independent invariants (and physical-card conservation in every stock game)
    after every step of the other presets; the expensive ones every few steps of long deals."""
    every_step(variant, data)


def views_and_determinize(variant: str, data: st.DataObject, forced: Options = ()) -> None:
    """The body of `test_views_never_leak_and_determinize_keeps_them`."""
    pt = data.draw(playthroughs([variant], forced=forced), label="playthrough")
    stride = expensive_stride(pt.spec.rules())
    offset = data.draw(st.integers(0, stride - 1), label="offset")
    rng = random.Random(pt.policy_seed ^ 0x5EED)
    public = Publicity()
    bezique = two_hand_bezique(pt.spec.rules())
    for step in pt.steps():
        s = step.state
        if bezique:
            public.update(step)
        if step.number % stride != offset and not s.is_over:
            continue
        views = views_of(s)
        check_state(s, views)
        check_determinize(s, views, rng)
        if bezique:
            assert isinstance(s, StockDeal)
            check_public_views(s, views, public)


@pytest.mark.parametrize("variant", BEZIQUE_PRESETS)
@_bezique_examples(1.0)
@given(data=st.data())
def test_views_never_leak_and_determinize_keeps_them(variant: str, data: st.DataObject) -> None:
    """After every step of two-hand Bezique: a view holds the player's own cards and public
    cards only, and `determinize(view(p), rng).view(p) == view(p)` with only hidden cards changed."""
    views_and_determinize(variant, data)


@pytest.mark.parametrize("variant", OTHER_PRESETS)
@_other_examples(1.0)
@given(data=st.data())
def test_views_and_determinize_in_other_presets(variant: str, data: st.DataObject) -> None:
    """Other presets: views agree with each other and the state, and determinizing any
    player's view keeps that view and the viewer's legal actions."""
    views_and_determinize(variant, data)


def records_round_trip(variant: str, data: st.DataObject, literal_every: int, forced: Options = ()) -> None:
    """The body of `test_records_round_trip_at_every_step`."""
    pt = data.draw(playthroughs([variant], forced=forced), label="playthrough")
    steps = list(pt.steps())
    final = steps[-1].state
    final_record = record_of(final)
    assert final.to_dict() == final_record
    # replay(record_of(s)) re-applies the record's actions one by one from the deal: replaying
    # the final record in lockstep shows replay(record_of(s)) == s for every step s at once,
    # provided each step's record is the prefix of the final one.
    head = {**final_record, "actions": []}
    replayed = replay(head)
    assert isinstance(replayed, DealState)
    for step in steps:
        s = step.state
        record = record_of(s)
        assert record == {**head, "actions": final_record["actions"][: step.number]}
        if step.action is not None:
            replayed = replayed.apply(final_record["actions"][step.number - 1])
        assert replayed == s and replayed.legal_action_ids() == s.legal_action_ids()
        if step.number % literal_every == 0 or s.is_over:
            assert DealState.from_dict(s.to_dict()) == s
            assert replay(record) == s
    text = json.dumps(final_record)
    assert replay(text) == final
    assert replay(json.loads(text)) == final


@pytest.mark.parametrize("variant", BEZIQUE_PRESETS)
@_bezique_examples(0.5)
@given(data=st.data())
def test_records_round_trip_at_every_step(variant: str, data: st.DataObject) -> None:
    """After every step of two-hand Bezique: `from_dict(to_dict(s)) == s` and
    `replay(record_of(s)) == s`, also through JSON text."""
    records_round_trip(variant, data, literal_every=1)


PENDING = (("pending_declarations", True),)
"""Pending declarations on (off by default, so only sometimes drawn by the option sampling)."""


@pytest.mark.parametrize("variant", ["bezique", "rubicon-bezique", "three-hand-bezique"])
@_bezique_examples(0.5)
@given(data=st.data())
def test_every_step_with_pending_declarations(variant: str, data: st.DataObject) -> None:
    """With pending declarations on: every step keeps the invariants (meld points count the
    scored melds only), views show exactly the pending melds, determinize keeps them, and
    records replay every step."""
    every_step(variant, data, PENDING)
    views_and_determinize(variant, data, PENDING)
    records_round_trip(variant, data, literal_every=25, forced=PENDING)


@pytest.mark.parametrize("variant", OTHER_PRESETS)
@_other_examples(1.0)
@given(data=st.data())
def test_records_round_trip_in_other_presets(variant: str, data: st.DataObject) -> None:
    """Other presets: every step's record is the prefix of the deal's record and replays to
    that step (literally re-replayed every 25 steps and at the end)."""
    records_round_trip(variant, data, literal_every=25)


def determinized_playout(variant: str, data: st.DataObject) -> None:
    """The body of `test_determinized_states_play_out_consistently`."""
    pt = data.draw(playthroughs([variant]), label="playthrough")
    steps = list(pt.steps())
    step = data.draw(st.sampled_from(steps), label="step")
    viewer = data.draw(st.integers(0, step.state.players - 1), label="viewer")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    d = determinize(step.state.view(viewer), random.Random(seed))
    check_state(d, views_of(d))
    last = d
    for later in walk(d, Chooser((), seed)):
        check_legal_ids(later.state)
        check_conservation(later.state)
        check_scores(later.state)
        check_transition(later)
        last = later.state
    check_state(last, views_of(last))
    assert last.is_over and last.result is not None and last.result.scores == last.scores


@pytest.mark.parametrize("variant", BEZIQUE_PRESETS)
@_bezique_examples(0.5)
@given(data=st.data())
def test_determinized_states_play_out_consistently(variant: str, data: st.DataObject) -> None:
    """A determinized two-hand Bezique deal is a real deal: played on to the end it keeps every
    invariant, and its brisques plus the last trick still total 170."""
    determinized_playout(variant, data)


@pytest.mark.parametrize("variant", OTHER_PRESETS)
@_other_examples(1.0)
@given(data=st.data())
def test_determinized_states_play_out_in_other_presets(variant: str, data: st.DataObject) -> None:
    """A determinized deal of any other preset plays on to a consistent end."""
    determinized_playout(variant, data)


def check_action_space(rules: RuleSet, ids: Sequence[int]) -> None:
    """Action ids are unique; `action_from_id(action_id(a)) == a` and `parse(str(a)) == a` for the ids given."""
    actions = rules.action_space.actions
    assert len(set(actions)) == len(actions) == rules.num_actions
    for i in ids:
        a = actions[i]
        assert rules.action_id(a) == i and rules.action_from_id(i) == a
        assert Action.parse(str(a)) == a and rules.action_id(str(a)) == i


@pytest.mark.parametrize("variant", VARIANTS)
def test_action_space_ids_and_notation_round_trip(variant: str) -> None:
    """Every action of the preset (a fixed sample of 3000 in the largest spaces): ids are unique,
    `action_from_id(action_id(a)) == a` and `parse(str(a)) == a`."""
    rules = get_rules(variant)
    ids: Sequence[int] = range(rules.num_actions)
    if rules.num_actions > 3000:
        ids = sorted(random.Random(variant).sample(ids, 3000))
    check_action_space(rules, ids)


@pytest.mark.parametrize("variant", BEZIQUE_PRESETS)
@settings(max_examples=3)
@given(data=st.data())
def test_action_space_round_trip_with_options(variant: str, data: st.DataObject) -> None:
    """With other options (carte blanche adds an action, a meld table changes the melds) every
    action still round-trips through its id and its notation."""
    rules = get_rules(variant, **dict(data.draw(option_changes(variant), label="options")))
    check_action_space(rules, range(rules.num_actions))


# -- games ---------------------------------------------------------------------------------


def whole_game(variant: str, data: st.DataObject) -> None:
    """The body of `test_games_total_their_deals_and_round_trip`."""
    spec: GameSpec = data.draw(game_specs([variant]), label="game")
    choose = Chooser((), data.draw(st.integers(0, 2**32 - 1), label="policy seed"))
    game: GameState | None = None
    for game in play_game(spec.new_game(), choose):
        if not game.is_over:
            assert game.scores == tuple(t + s for t, s in zip(game.totals, game.deal.scores))
            assert game.deal_number == len(game.results) + 1
        assert game.totals == tuple(sum(r.scores[q] for r in game.results) for q in range(len(game.totals)))
    assert game is not None and game.is_over
    assert game.view(0).game_scores == game.totals
    assert (game.cut_for_deal is not None) == (spec.dealer == "cut")
    assert all(game.view(p).cut_for_deal == game.cut_for_deal for p in range(game.rules.players))
    assert game.max_deals is not None and 1 <= len(game.results) <= game.max_deals
    assert game.scores == game.totals
    rules = game.rules
    for result in game.results:
        assert result.scores == tuple(b.total for b in result.breakdown)
        if counts_every_card(rules):
            assert sum(b.cards + b.last_trick for b in result.breakdown) == rules.card_points.total(rules.deck)
    if game.winner is not None:
        assert all(game.totals[game.winner] > t for q, t in enumerate(game.totals) if q != game.winner)
        assert game.games_won >= 1
    else:
        assert game.games_won == 0
    assert not game.legal_actions() and game.current_player is None
    assert GameState.from_dict(game.to_dict()) == game
    assert replay(record_of(game)) == game
    assert replay(json.dumps(record_of(game))) == game


@pytest.mark.parametrize("variant", BEZIQUE_PRESETS)
@_bezique_examples(0.5)
@given(data=st.data())
def test_games_total_their_deals_and_round_trip(variant: str, data: st.DataObject) -> None:
    """A two-hand Bezique game's totals are the sums of its deal results; its scores are the
    totals plus the deal in progress; its record replays to the same game."""
    whole_game(variant, data)


@pytest.mark.parametrize("variant", OTHER_PRESETS)
@_other_examples(1.0)
@given(data=st.data())
def test_games_total_their_deals_in_other_presets(variant: str, data: st.DataObject) -> None:
    """Games of the other presets: totals are the sums of the deal results; records replay."""
    whole_game(variant, data)


# -- a stateful machine ------------------------------------------------------------------


class DealMachine(RuleBasedStateMachine):
    """Random legal play across presets, with the invariants checked after every rule."""

    def __init__(self) -> None:
        super().__init__()
        self.state: DealState | None = None

    @initialize(spec=deal_specs(max_changes=1))
    def start(self, spec: DealSpec) -> None:
        """Deal a random deal of a random preset."""
        self.state = spec.new_deal()

    @precondition(lambda self: self.state is not None and not self.state.is_over)
    @rule(choice=st.integers(0, 255))
    def play(self, choice: int) -> None:
        """Apply one legal action."""
        assert self.state is not None
        legal = self.state.legal_actions()
        action = legal[choice % len(legal)]
        parent, self.state = self.state, self.state.apply(action)
        check_transition(Step(1, self.state, parent, action))

    @precondition(lambda self: self.state is not None and not self.state.is_over)
    @rule(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 30))
    def play_many(self, seed: int, count: int) -> None:
        """Apply up to ``count`` random legal actions (to reach the play-off and the end)."""
        assert self.state is not None
        for step in walk(self.state, Chooser((), seed), max_steps=count):
            check_conservation(step.state)
            check_transition(step)
            self.state = step.state

    @precondition(lambda self: self.state is not None and self.state.is_over)
    @rule(spec=deal_specs(max_changes=1))
    def deal_again(self, spec: DealSpec) -> None:
        """Start a new deal once this one is over."""
        self.state = spec.new_deal()

    @precondition(lambda self: self.state is not None)
    @rule(seed=st.integers(0, 2**32 - 1))
    def refuse_illegal(self, seed: int) -> None:
        """Random non-legal actions are refused and change nothing."""
        assert self.state is not None
        check_refusals(self.state, random.Random(seed), tries=4)

    @precondition(lambda self: self.state is not None)
    @rule(seed=st.integers(0, 2**32 - 1))
    def determinize_views(self, seed: int) -> None:
        """Determinizing any player's view keeps that view."""
        assert self.state is not None
        check_determinize(self.state, views_of(self.state), random.Random(seed))

    @precondition(lambda self: self.state is not None)
    @rule()
    def round_trip(self) -> None:
        """The record replays to the same state."""
        assert self.state is not None
        assert replay(record_of(self.state)) == self.state

    @precondition(lambda self: self.state is not None)
    @rule()
    def check_every_legal_action(self) -> None:
        """Views agree; every legal action round-trips its id and notation and applies alike."""
        assert self.state is not None
        views = views_of(self.state)
        check_state(self.state, views)
        check_legal_actions(self.state, views)

    @invariant()
    def consistent(self) -> None:
        """Legal ids, conservation, scores and the Bezique oracles hold in every state."""
        if self.state is not None:
            check_legal_ids(self.state)
            check_conservation(self.state)
            check_scores(self.state)
            check_play_oracle(self.state)
            check_declare_phase(self.state)


DealMachine.TestCase.settings = settings(
    settings(), max_examples=max(3, settings().max_examples // 8), stateful_step_count=25
)
TestDealMachine = DealMachine.TestCase
