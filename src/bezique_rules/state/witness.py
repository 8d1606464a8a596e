"""The witness's replay: the view's public history replayed on a planned deck, repaired in place.

`bezique_rules.state.witness_plan` deals a deck that gives every player in time the cards the
history shows him naming; `Witness` replays the view's public history on it with every check
on. Where the replay cannot go on (a copy the plan could not place, another player's hidden
decision, melds laid without naming cards, a void a later swap would break), the intermediate
state is repaired in place by *transpositions* (two physical cards swap places,
`DealState._relabel`) of cards nobody has seen so far (in a hand, concealed and never named
by an action or shown; or in the stock, a face-down widow or kitty). Such a swap changes
nothing anyone saw before the step, so the history up to it stays legal and looks the same;
the replay never restarts:

* a player lacks a card the next action names: a copy of that face is swapped in for one
  of his cards nobody has seen;
* a duty is broken (he could have followed, or beaten, and the history shows he did
  not): the cards the trick policy rules out (`TrickPolicy.excluded`) are swapped out;
  after each play the cards it rules out are recorded per *place* (keyed by the
  physical id now there, re-keyed on each swap), and no later swap brings such a card
  to that place, so a void once shown holds for the rest of the replay;
* another player's hidden action (a discard, a pass of cards, a farmer's-hand ``pass``
  the viewer never sees): a legal one is chosen, keeping the cards he uses later;
* melds laid without naming cards (``meld best``): their cards are swapped in first,
  with every card he uses later, and his hand is then left alone; a meld the view does
  not show has its extra cards swapped out;
* the turn-up under the stock is the view's, or after an exchange (or a last draw) the
  trump the history and the known cards point to;
* at the end the viewer's hand is made his view's hand.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter

from ..actions import Action, Verb
from ..bits import iter_bits
from ..errors import BeziqueRulesError
from .deal import DealState, Phase, PlayerView, TableMeld, relabel_mask, relabel_seq
from .witness_plan import DRAWING_ENGINES, _slots, _voids, plan_order

__all__ = ["Stuck", "Witness"]

_HIDDEN_VERBS = (Verb.DISCARD, Verb.GIVE)
_LEAVING = (Verb.PLAY, Verb.DISCARD, Verb.GIVE, Verb.EXCHANGE)
"""Verbs whose cards leave the hand (a meld's or a declaration's stay)."""


class Stuck(Exception):
    """The witness cannot go on (a defect, or a turn-up guess that does not fit)."""


class Witness:
    """The replay with repairs (see the module docs); one use."""

    def __init__(
        self, view: PlayerView, rng: random.Random, turn_up: int, *, strict: bool = True, planned: bool = True
    ) -> None:
        self.view = view
        self.rules = rules = view.rules
        self.deck = rules.deck
        self.rng = rng
        self.viewer = view.player
        from ..engine.registry import engine_for  # the engines are above: their registry is imported on use

        self.engine = engine_for(rules.engine)
        self.passes: dict[int, tuple[int, ...]] = {}
        """Per step: the faces the plan passes there between partners (sorted)."""
        if planned:
            order, self.passes = plan_order(view, rng, turn_up)
        else:  # a plain shuffle: the repairs do all (when the plan's deck does not fit)
            order = list(range(self.deck.size))
            rng.shuffle(order)
        self.planned = planned
        self.actions = rules.action_space.actions
        self.shown_view: tuple[DealState, PlayerView] | None = None
        """The last deal `_fix_known` took the view of, with that view."""
        if turn_up >= 0:
            self._place_turn_up(order, turn_up)
        self.deal = self._new_deal(tuple(order))
        self.named = 0
        """Cards an action has named or moved from hand to hand (no longer free to swap)."""
        self.excluded: dict[int, int] = {}
        """Per place (the physical id there now): the cards a void shown rules out there."""
        self.frozen = 0
        """Places no swap may touch (a hand whose melds were laid without naming cards)."""
        self.trick_seats: list[int] = []
        self.final = Counter(self.deck.face_index[c] for c in view.hand)
        """The faces of the viewer's hand at the end."""
        self.strict = strict
        """False: a last resort that leaves hands whose melds were laid unnamed open to swaps
        and does not replay the history (the world fits the view; its past may not)."""
        self.later_memo: dict[tuple[int, bool], list[Counter[int]]] = {}
        self.step = -1
        """The index in the view's history of the action being replayed."""
        self.unsure = False
        """Whether a swap may have changed what an earlier step allowed (a question asked for
        what a hand holds, melds laid without naming cards, cards shown): checked by a replay."""
        self.relabel_native = type(self.deal)._relabel is not DealState._relabel

    # -- the deal and its changes ---------------------------------------------------

    def _new_deal(self, order: tuple[int, ...]) -> DealState:
        deal = self.engine.new_deal(self.rules, order, None, self.view.dealer)
        cut = self.view.cut
        if cut is not None and deal.setup.packet != cut:
            deal = deal._with_cut_packet(cut)
        return deal

    def _replayed(self, order: tuple[int, ...], moves: tuple[tuple[int, int], ...]) -> DealState:
        """The deal of ``order`` with ``moves`` replayed (unchecked)."""
        new = self._new_deal(order)
        for _, action_id in moves:
            if action_id not in new.legal_action_ids():  # a swap took a card a hidden move used
                raise Stuck("a hidden move no longer fits the cards swapped")
            new = new._apply_id(action_id)
        return new

    def replays(self, world: DealState) -> bool:
        """Whether ``world``'s moves, replayed with checks on its deck, show the view again (a
        witness built with ``strict=False`` is not replayed as it is built)."""
        try:
            again = self._replayed(world.deck_order, world.moves)
        except Stuck:
            return False
        return again.view(self.viewer) == self.view

    def _retrack(self) -> None:
        """The deal's moves again on its deck (which copy an action shows may change: known
        copies go first), and the cards they name tracked anew."""
        deal = self.deal
        self.deal = self._new_deal(deal.deck_order)
        self.named = 0
        for _, action_id in deal.moves:
            if action_id not in self.deal.legal_action_ids():  # a swap moved a card it used
                raise Stuck("a move no longer fits the cards the repairs moved")
            self._track(action_id)

    def _transpose(self, x: int, y: int) -> None:
        """Swap the physical cards ``x`` and ``y`` everywhere in the deal (two free cards)."""
        self._permute({x: y, y: x})

    def _permute(self, perm: dict[int, int]) -> None:
        """Relabel the free cards of ``perm`` everywhere in the deal: the place of ``a`` gets
        ``perm[a]``; what a void rules out at a place stays with the place."""
        deal = self.deal
        if self.relabel_native and deal.phase is not Phase.DISCARD and deal.moves:
            self.deal = deal._relabel(perm)
        else:  # before the first move, or at a question asked for what a hand holds (a
            # farmer's hand, a pick-up): the same moves on the relabelled deck ask it anew
            self.deal = self._replayed(relabel_seq(deal.deck_order, perm), deal.moves)
        ex = self.excluded
        old = {a: ex.pop(a, 0) for a in perm}
        for a, mask in old.items():
            if mask:
                ex[perm[a]] = mask
        self.frozen = relabel_mask(self.frozen, perm)

    def _allowed(self, perm: dict[int, int]) -> bool:
        """Whether no void rules out the card ``perm`` brings to any place."""
        ex = self.excluded
        return not any((ex.get(a, 0) >> b) & 1 for a, b in perm.items())

    def _free(self) -> int:
        """The mask of cards nobody has seen where they are: concealed in a hand and never
        named, or face down out of every hand (stock, widow, kitty)."""
        deal = self.deal
        held = 0
        for h in deal.hands:
            held |= h
        out_of_hands = (1 << self.deck.size) - 1 & ~held
        for w in deal.won:
            out_of_hands &= ~w
        for x in deal.trick:
            out_of_hands &= ~(1 << x)
        return (held | out_of_hands) & ~self.named & ~deal._public_ids() & ~self.frozen

    def _holder(self, pid: int) -> int:
        for q, h in enumerate(self.deal.hands):
            if (h >> pid) & 1:
                return q
        return -1

    def _swap_allowed(self, x: int, y: int) -> bool:
        """Whether ``x`` may go to ``y``'s place and ``y`` to ``x``'s (no void forbids it)."""
        return self._allowed({x: y, y: x})

    def _move_in(self, x: int, ys: list[int]) -> bool:
        """Bring free card ``x`` to the place of one of ``ys``: by a swap, or when voids forbid
        every swap, by a three-way move through a third free card's place."""
        for y in ys:
            if self._swap_allowed(x, y):
                self._transpose(x, y)
                return True
        free = [z for z in iter_bits(self._free()) if z != x and z not in ys]
        for y in ys:
            q = self._holder(y)
            here = self.deal.hands[q] if q >= 0 else 0
            for z in free:
                if (here >> z) & 1:
                    continue  # a card of the same hand: the move would gain it nothing
                perm = {x: z, y: x, z: y}  # x's place gets z, y's place gets x, z's place gets y
                if self._allowed(perm):
                    self._permute(perm)
                    return True
        return False

    def _bring(self, who: int, face: int, keep: Counter[int], *, concealed: bool = True) -> None:
        """Swap a copy of ``face`` into ``who``'s hand for one of his free cards whose face he
        does not need (``keep``: faces of his concealed hand, or of his whole hand)."""
        deck = self.deck
        free = self._free()
        hand = self.deal.hands[who]
        mine = list(iter_bits(hand & free))
        held = self._concealed(who) if concealed else Counter(deck.face_of[y] for y in iter_bits(hand))
        spare = [y for y in mine if held[deck.face_of[y]] > keep[deck.face_of[y]]]
        sources = [x for x in iter_bits(deck.face_masks[face] & free & ~hand)]
        if not sources or not spare:
            raise Stuck(f"no free copy of {deck.faces[face]} for player {who}")
        # the stock first, then another player's hand, the viewer's last
        rank = {x: self._source_rank(x) for x in sources}
        self.rng.shuffle(sources)
        sources.sort(key=rank.__getitem__)
        self.rng.shuffle(spare)
        later = self._later(who, self.step)  # his cards he names later go last
        if who == self.viewer:
            later |= self.final
        spare.sort(key=lambda y: later[deck.face_of[y]] > 0)
        for x in sources:
            if self._move_in(x, spare):
                return
        raise Stuck(f"every copy of {deck.faces[face]} is ruled out for player {who}")

    def _source_rank(self, pid: int) -> int:
        """Where to take a card from: the stock first, then another player's hand, then the
        viewer's; a face its holder names later (or the viewer's view shows him holding) after
        every other."""
        q = self._holder(pid)
        if q < 0:
            return 0
        face = self.deck.face_of[pid]
        if q == self.viewer and self.final[face]:
            return 4
        table = self.later_memo.get((q, False))
        if table is None:
            table = self.later_memo[(q, False)] = self._later_table(q, False)
        if table[min(self.step + 1, len(table) - 1)][face]:
            return 3 if q != self.viewer else 4
        return 1 if q != self.viewer else 2

    # -- the replay ----------------------------------------------------------------

    def build(self) -> DealState:
        view = self.view
        history = view.history
        self._early_hand()
        for step, (who, action) in enumerate(history):
            self.step = step
            if action.cards and self.deal.current_player != who:
                # he may be asked only when he holds what the action shows (a farmer's hand):
                # his cards first, then the others' unseen decisions
                need = self._needs(action)
                held = self._concealed(who)
                for f, k in need.items():
                    for _ in range(k - held[f]):
                        self._bring(who, f, need)
            self._unseen_turns(step, who, action)
            for _ in range(self.deck.size):
                if not self._asked_otherwise(who, action):
                    break
                self._not_asked(step)  # the viewer is asked what the real deal did not ask him
                self._unseen_turns(step, who, action)
            deal = self.deal
            if deal.current_player != who:
                raise Stuck(f"step {step}: player {who} is not to act")
            if who != self.viewer and action.verb in _HIDDEN_VERBS and not action.cards:
                action_id = self._hidden_choice(step)
            elif action.verb is Verb.MELD and not action.cards and action.meld != "carte-blanche":
                action_id = self._meld_best(step)
            else:
                action_id = self._public(step)
            self._apply(action_id, step)
        for _ in range(self.deck.size):
            deal = self.deal
            if deal.current_player != self.viewer or view.current_player != self.viewer or deal.phase is view.phase:
                break
            self._not_asked(len(history))
        if self._fix_known():
            self.unsure = True
        self._finish()
        if self.strict and self.unsure and not _replays(self.deal):
            raise Stuck("the cards shown to everybody do not come out as the view shows")
        return self.deal

    def _asked_otherwise(self, who: int, action: Action) -> bool:
        """Whether the deal asks the viewer now where his history shows ``who`` doing
        ``action``: another player, or a question of another kind (a farmer's hand)."""
        return self.deal.current_player == self.viewer and who != self.viewer

    def _not_asked(self, step: int, q: int | None = None) -> None:
        """Player ``q`` (the viewer by default) is asked a question his hand raises (a farmer's
        hand) that the history does not show: swap out a card the question names that he does
        not name later."""
        deal = self.deal
        deck = self.deck
        q = self.viewer if q is None else q
        bad = 0
        for a in deal.legal_actions():
            for card in a.cards:
                bad |= deck.face_masks[deck.face_index[card]]
        later = self._later(q, step - 1)
        if q == self.viewer:
            later += Counter(deck.face_index[c] for c in self.view.hand)
        free = self._free()
        out = [y for y in iter_bits(deal.hands[q] & bad & free) if not later[deck.face_of[y]]]
        sources = [x for x in iter_bits(free & ~deal.hands[q] & ~bad)]
        self.rng.shuffle(sources)
        sources.sort(key=self._source_rank)
        for x in sources:
            if self._move_in(x, out):
                return
        raise Stuck(f"step {step}: player {q} is asked what his history does not show")

    def _early_hand(self) -> None:
        """Give the viewer from the start, as far as his hand holds them, the cards he holds at
        the end and those he names later (all of them where nobody draws): he is then asked
        what the real deal asked him (a farmer's hand)."""
        if self.planned and (self.rules.engine in DRAWING_ENGINES or self.passes):
            return  # `plan_order` placed his cards in time (before the passes, after them)
        face_index = self.deck.face_index
        want = Counter(face_index[c] for c in self.view.hand) + self._later(self.viewer, -1, leaving=True)
        for f, k in want.items():
            for _ in range(k - self._concealed(self.viewer)[f]):
                try:
                    self._bring(self.viewer, f, want)
                except Stuck:
                    break  # drawn later, or face up (a turn-up he takes)

    def _unseen_turns(self, step: int, who: int, action: Action) -> None:
        """Decisions of other players the viewer never sees (a farmer's-hand ``pass``), made
        before the next action he sees unless that action is the decision itself."""
        tries = 0
        while True:
            deal = self.deal
            hidden = deal._unseen_turn(self.viewer)
            if hidden is None:
                return
            if who == deal.current_player:
                try:
                    action_id = self.rules.action_id(action)
                except BeziqueRulesError:
                    action_id = -1
                if action_id != hidden and action.verb in {a.verb for a in deal.legal_actions()}:
                    return  # his decision, shown (a farmer's swap): its cards are brought next
            # rather than a decision nobody sees, a hand that is not asked (fewer constraints
            # later); else his unseen decision
            q = deal.current_player
            assert q is not None
            self.unsure = True
            tries += 1
            try:
                if tries > 4:
                    raise Stuck("still asked")
                self._not_asked(step, q)
            except Stuck:
                self._apply(hidden)
                tries = 0

    def _apply(self, action_id: int, step: int = -1) -> None:
        before = self.deal
        after, played, left = self._track(action_id)
        who = before.current_player
        if played.verb is Verb.PLAY and who is not None:
            self._record_void(before, after, who, left & before.hands[who])
        if not after.trick:
            self.trick_seats = []
        if step >= 0 and (played.verb is Verb.MELD or not played.cards):
            # a card drawn face up (the last card of the stock shown, the turn-up): a face
            # the view shows him holding, or one he names later
            for y in iter_bits(after._public_ids() & ~before._public_ids() & ~self.named):
                q = self._holder(y)
                if q >= 0:
                    self._choose_shown(step, q, y)

    def _track(self, action_id: int) -> tuple[DealState, Action, int]:
        """Apply ``action_id``, tracking the cards it names; (the deal, the action, the
        cards that left a hand)."""
        before = self.deal
        after = before._apply_id(action_id)
        left = 0
        came = 0
        held_before = 0
        for b, a in zip(before.hands, after.hands):
            left |= b & ~a
            came |= a & ~b
            held_before |= b
        self.named |= left | (came & held_before)
        played = self.actions[action_id]
        if played.verb is Verb.MELD or (played.cards and played.verb is not Verb.PLAY):
            # the cards it shows are named by it (a card played has left the hand: named)
            shown = after._public_ids() & ~before._public_ids() & held_before
            if played.verb is not Verb.MELD:
                faces = 0
                for card in played.cards:
                    faces |= self.deck.face_masks[self.deck.face_index[card]]
                shown &= faces
            self.named |= shown
        self.deal = after
        return after, played, left

    def _choose_shown(self, step: int, q: int, y: int) -> None:
        """Give the card ``y`` just shown in ``q``'s hand a face the view shows him holding
        known, else one he names later (the shown copy goes first)."""
        deck = self.deck
        face_index = deck.face_index
        known = Counter(face_index[c] for c in self.deal.view(self.viewer).known[q])
        want = Counter(face_index[c] for c in self.view.known[q])
        leaving = self._later(q, step, leaving=True)
        named = leaving | self._later_shown(q, step)
        hand = self.deal.hands[q]
        later = named - Counter(deck.face_of[x] for x in iter_bits(hand & ~(1 << y)))  # beyond his copies
        # the known faces the view shows him holding that no other copy known now (and still
        # held then: the known copies are played first) accounts for
        rest = want - (known - Counter({deck.face_of[y]: 1}) - leaving)
        if rest[deck.face_of[y]] or (not rest and later[deck.face_of[y]]):
            return  # it fits
        history = self.view.history
        if not rest and any(w == q and a.verb is Verb.DISCARD and not a.cards for w, a in history[step + 1 :]):
            return  # a widow card he may bury unseen
        free = self._free()
        # a face he lacks, from anywhere; else one he names later, from his own concealed cards
        # (his hand stays the same: which of his cards came face up changes)
        choices = [(f, free) for f in list(rest) + [f for f in later if f not in rest]]
        choices += [(f, free & hand) for f in named if f != deck.face_of[y] and not rest]
        for f, within in choices:
            xs = [x for x in iter_bits(deck.face_masks[f] & within)]
            self.rng.shuffle(xs)
            xs.sort(key=self._source_rank)
            if any(self._move_in(x, [y]) for x in xs):
                self.unsure = True
                return

    def _policy_now(self, deal: DealState) -> tuple[object, object] | None:
        view = self.view
        if view.trump is None:
            return None
        rules = self.rules
        policy = rules.stock_policy if deal.phase is Phase.PLAY else rules.playoff_policy
        return policy, rules.trump_tables[view.trump.value]

    def _partner_winning(self, deal: DealState, who: int) -> bool:
        if not self.rules.partnership or not deal.trick:
            return False
        found = self._policy_now(deal)
        assert found is not None
        table = found[1]
        w = self.trick_seats[table.winner(deal.trick)]  # type: ignore[attr-defined]
        return w != who and w % 2 == who % 2

    def _ruled_out(self, deal: DealState, who: int, pid: int) -> int:
        """The cards the trick policy says ``who`` cannot hold when he plays ``pid`` now."""
        found = self._policy_now(deal)
        if found is None or not deal.trick:
            return 0
        policy, table = found
        mask: int = policy.excluded(table, deal.trick, pid, self._partner_winning(deal, who))  # type: ignore[attr-defined]
        return mask

    def _record_void(self, before: DealState, after: DealState, who: int, played: int) -> None:
        if not played:
            return
        pid = next(iter_bits(played))
        mask = self._ruled_out(before, who, pid)
        self.trick_seats.append(who)
        if mask:
            ex = self.excluded
            for y in iter_bits(after.hands[who]):
                ex[y] = ex.get(y, 0) | mask

    def _public(self, step: int) -> int:
        """The id of the public action at ``step``, its player's hand repaired to allow it."""
        who, action = self.view.history[step]
        try:
            action_id = self.rules.action_id(action)
        except BeziqueRulesError:
            raise Stuck(f"step {step}: {action} is no action of {self.rules.name!r}") from None
        if action_id in self.deal.legal_action_ids():  # the plan dealt him what it needs
            return action_id
        need = self._needs(action)
        hand = self.deal.hands[who]
        masks = self.deck.face_masks
        hand &= ~self.deal._tabled_ids(who)
        if any((hand & masks[f]).bit_count() < k for f, k in need.items()):
            held = self._concealed(who)
            for f, k in need.items():
                for _ in range(k - held[f]):
                    self._bring(who, f, need)
        extra = action.verb is not Verb.PLAY
        for _ in range(self.deck.size):
            if action_id in self.deal.legal_action_ids():
                return action_id
            if extra:  # a copy he holds is spent (a seven declared already): one more of each face
                extra = False
                held = self._concealed(who)
                for f in need:
                    with contextlib.suppress(Stuck):
                        self._bring(who, f, need | Counter({f: held[f] + 1}))
                continue
            self._repair_duty(step, who, action, need)
        raise Stuck(f"step {step}: {action} stays illegal")

    def _concealed(self, who: int) -> Counter[int]:
        """The faces ``who`` holds off the table (what an action without ``*`` plays from)."""
        deal = self.deal
        hand = deal.hands[who]
        return Counter(self.deck.face_of[y] for y in iter_bits(hand & ~deal._tabled_ids(who)))

    def _needs(self, action: Action) -> Counter[int]:
        """The faces ``action`` needs in its player's concealed hand (not on the table)."""
        face_index = self.deck.face_index
        need: Counter[int] = Counter()
        tabled = action.tabled or (False,) * len(action.cards)
        for card, on_table in zip(action.cards, tabled):
            if not on_table:
                need[face_index[card]] += 1
        return need

    def _repair_duty(self, step: int, who: int, action: Action, need: Counter[int]) -> None:
        """The action is illegal though its cards are held: a duty it breaks. Swap out the
        cards the duty would have made him play instead."""
        deal = self.deal
        deck = self.deck
        hand = deal.hands[who]
        bad = 0
        if action.verb is Verb.PLAY and action.cards:
            face = deck.face_index[action.cards[0]]
            pid = next(iter_bits(hand & deck.face_masks[face]))
            bad = self._ruled_out(deal, who, pid)
        if not bad & hand:  # the policy does not say: the cards the rules offer instead
            for a in deal.legal_actions():
                for card in a.cards:
                    bad |= deck.face_masks[deck.face_index[card]]
            bad &= ~deck.face_masks[deck.face_index[action.cards[0]]] if action.cards else ~0
        free = self._free()
        out = [y for y in iter_bits(hand & bad & free) if need[deck.face_of[y]] == 0]
        if not out:
            raise Stuck(f"step {step}: {action} breaks a duty and no card can be swapped out")
        y = out[0]
        sources = [x for x in iter_bits(free & ~hand & ~bad)]
        self.rng.shuffle(sources)
        sources.sort(key=self._source_rank)
        for x in sources:
            if self._swap_allowed(x, y):
                self._transpose(x, y)
                return
        raise Stuck(f"step {step}: no card may replace {deck.cards[y]} in player {who}'s hand")

    def _later(self, who: int, step: int, *, leaving: bool = False) -> Counter[int]:
        """The faces ``who`` names after ``step``: what he keeps (``leaving``: only the
        cards that then leave his hand, played, discarded or passed). A fresh Counter."""
        table = self.later_memo.get((who, leaving))
        if table is None:
            table = self.later_memo[(who, leaving)] = self._later_table(who, leaving)
        return Counter(table[min(step + 1, len(table) - 1)] if step + 1 >= 0 else table[0])

    def _held_later(self, who: int, step: int) -> Counter[int]:
        """The copies of each face ``who`` must hold after ``step`` for what he names later,
        where melds go back to the hand before the tricks (a card melded, then played, is one
        copy): the most that his plays and discards, or one kind of meld, name."""
        if self.rules.engine in DRAWING_ENGINES:  # a card played from a meld is marked: not named twice
            return self._later(who, step)
        return self._later(who, step, leaving=True) | self._later_shown(who, step)

    def _later_shown(self, who: int, step: int) -> Counter[int]:
        """The faces ``who`` shows after ``step`` without giving them up (melds, declarations):
        the copies the busiest kind needs."""
        face_index = self.deck.face_index
        by_kind: dict[tuple[Verb, str], Counter[int]] = {}
        for w, a in self.view.history[step + 1 :]:
            if w == who and a.cards and a.verb not in _LEAVING:
                by_kind.setdefault((a.verb, a.meld), Counter()).update(face_index[c] for c in a.cards)
        out: Counter[int] = Counter()
        for counts in by_kind.values():
            out |= counts
        return out

    def _later_table(self, who: int, leaving: bool) -> list[Counter[int]]:
        """Per index ``i`` of the history (and one past its end): the faces ``who`` names
        from step ``i`` on."""
        face_index = self.deck.face_index
        history = self.view.history
        table: list[Counter[int]] = [Counter()] * (len(history) + 1)
        running: Counter[int] = Counter()
        for i in range(len(history) - 1, -1, -1):
            w, a = history[i]
            if w == who and a.cards and (not leaving or a.verb in _LEAVING):
                running = running.copy()
                tabled = a.tabled or (False,) * len(a.cards)
                running.update(face_index[c] for c, t in zip(a.cards, tabled) if not t)
            table[i] = running
        return table

    def _hidden_choice(self, step: int) -> int:
        """Another player's hidden discard or pass of cards: a legal one keeping the cards
        he uses later, then the cards anybody uses later (the viewer's hand included)."""
        who, action = self.view.history[step]
        deal = self.deal
        actions = self.rules.action_space.actions
        choices = [i for i in deal.legal_action_ids() if actions[i].verb is action.verb]
        if not choices:
            raise Stuck(f"step {step}: player {who} cannot {action.verb.value}")
        face_index = self.deck.face_index
        planned = self.passes.get(step)
        if planned is not None:  # the plan dealt the hands after the passes: its pass, if held
            for i in choices:
                if tuple(sorted(face_index[c] for c in actions[i].cards)) == planned:
                    return i
        # per player: the faces he names later or his melds hold (a card melded, then played, once)
        uses = [self._held_later(q, step) | self._melded(q) for q in range(self.rules.players)]
        if not any(w == who and a.verb is Verb.MELD for w, a in self.view.history[step + 1 :]):
            uses[who] = self._held_later(who, step)  # his melds are laid: a burial may take their cards
        own = uses[who]
        names_later = self._later(who, step)
        anyone: Counter[int] = Counter(face_index[c] for c in self.view.hand)
        for counts in uses:
            anyone.update(counts)
        rng = self.rng
        deck = self.deck
        gone = self.named
        for w in deal.won:
            gone |= w
        # copies of a face beyond what the history and the viewer's hand still use: spare
        slack = {f: (deck.face_masks[f] & ~gone).bit_count() - anyone[f] for f in range(len(deck.faces))}
        hand_faces = Counter(deck.face_of[y] for y in iter_bits(deal.hands[who]))

        receiver = -1
        if action.verb is Verb.GIVE:  # the cards stay in play: the receiver may use them
            after = deal._apply_id(choices[0])
            gained = [q for q, (b, a) in enumerate(zip(deal.hands, after.hands)) if a & ~b]
            receiver = gained[0] if gained else -1
        theirs = self._held_later(receiver, step) if receiver >= 0 else Counter()
        melds_theirs = self._melded(receiver) if receiver >= 0 else Counter()

        faces_of: dict[int, list[tuple[int, int]]] = {}  # per action: (face, copies) it gives away
        ruled_out = 0  # the faces (bits) the voids he shows later rule out, which nobody can swap out
        seen = deal._public_ids()  # in his hand, or offered to it (an upcard), not elsewhere
        for q, h in enumerate(deal.hands):
            if q != who:
                seen &= ~h
        for w in deal.won:
            seen &= ~w
        if seen:
            for later_step, mask in _voids(self.view, _slots(self.view)[1])[who]:
                if later_step > step:
                    for y in iter_bits(mask & seen):
                        ruled_out |= 1 << deck.face_of[y]

        def cost(i: int) -> float:
            used = faces_of.get(i)
            if used is None:
                counts: dict[int, int] = {}
                for c in actions[i].cards:
                    f = face_index[c]
                    counts[f] = counts.get(f, 0) + 1
                used = faces_of[i] = list(counts.items())
            total = 0
            if receiver >= 0:
                for f, k in used:
                    total += 10 * max(0, k - (hand_faces[f] - own[f])) - min(k, theirs[f])
                    if melds_theirs and not melds_theirs[f] and not theirs[f]:
                        total += 2  # a card his melds do not show may complete one they do not
            else:
                for f, k in used:
                    total += 10 * max(0, k - (hand_faces[f] - own[f])) + max(0, k - max(0, slack[f]))
                    if ruled_out >> f & 1 and not names_later[f]:
                        total -= 15  # a card his later voids rule out that all have seen (an upcard): it goes
            return total + rng.random()

        for _ in range(self.deck.size):
            best = min(choices, key=cost)
            if cost(best) < 1 or receiver >= 0:
                return best
            # it gives away a card used later: first swap such a card for one nobody uses
            free = self._free()
            hand = self.deal.hands[who]
            used = {face_index[c] for c in actions[best].cards if slack[face_index[c]] <= 0 or own[face_index[c]]}
            ys = [y for y in iter_bits(hand & free) if deck.face_of[y] in used]
            spare = [x for x in iter_bits(free & ~hand) if slack[deck.face_of[x]] > 0 and not own[deck.face_of[x]]]
            self.rng.shuffle(spare)
            spare.sort(key=self._source_rank)
            if not any(self._move_in(x, ys) for x in spare):
                return best
            choices = [i for i in self.deal.legal_action_ids() if actions[i].verb is action.verb]
            if not choices or self.deal.current_player != who:
                raise Stuck(f"step {step}: player {who} cannot {action.verb.value} after a swap")
            hand_faces = Counter(deck.face_of[y] for y in iter_bits(self.deal.hands[who]))
        return min(choices, key=cost)

    def _melded(self, q: int) -> Counter[int]:
        """The faces the melds the view shows ``q`` laying hold together (melds of one kind
        use distinct copies; melds of two kinds may share)."""
        face_index = self.deck.face_index
        by_kind: dict[str, Counter[int]] = {}
        for m in self.view.melds:
            if m.player == q:
                by_kind.setdefault(m.kind, Counter()).update(face_index[c] for c in m.cards)
        need: Counter[int] = Counter()
        for counts in by_kind.values():
            need |= counts
        return need

    def _meld_best(self, step: int) -> int:
        """Melds laid at once without naming cards: his hand gets every card his melds in the
        view use and every card he names later, then is left alone; extra melds' cards go."""
        who, action = self.view.history[step]
        deck = self.deck
        face_index = deck.face_index
        try:
            action_id = self.rules.action_id(action)
        except BeziqueRulesError:
            raise Stuck(f"step {step}: {action} is no action of {self.rules.name!r}") from None
        shown = [m for m in self.view.melds if m.player == who]
        need = self._melded(who) | self._later(who, step)
        if who == self.viewer:
            need |= Counter(face_index[c] for c in self.view.hand)
        self._release(who, step, need)
        for _ in range(deck.size):
            held = Counter(deck.face_of[y] for y in iter_bits(self.deal.hands[who]))
            missing = [f for f, k in need.items() if held[f] < k]
            if missing:
                self._bring(who, missing[0], need)
                continue
            if action_id not in self.deal.legal_action_ids():
                raise Stuck(f"step {step}: {action} is illegal")
            laid = [m for m in self.deal._apply_id(action_id).view(self.viewer).melds if m.player == who]
            extra = Counter(laid) - Counter(shown)
            lack = Counter(shown) - Counter(laid)
            if not extra and not lack:
                break
            if extra:
                self._drop_extra(who, step, extra, need)
                continue
            for m in lack:  # a meld shown is not made: one more copy of each of its faces
                for c in m.cards:
                    need[face_index[c]] = max(need[face_index[c]], held[face_index[c]] + 1)
        else:
            raise Stuck(f"step {step}: the melds do not come out as the view shows")
        if self.strict:
            self.frozen |= self.deal.hands[who] & ~self.named & ~self.deal._public_ids()
        self.unsure = True
        return action_id

    def _release(self, q: int, step: int, need: Counter[int]) -> None:
        """Before ``q``'s hand is left alone: swap out the cards he does not need of faces the
        others need later (the viewer's hand included) beyond the copies they hold and the
        free copies left elsewhere."""
        deck = self.deck
        face_index = deck.face_index
        wants: dict[int, Counter[int]] = {}  # per other player: the faces he needs later
        for w, a in self.view.history[step + 1 :]:
            if w != q and a.verb in _LEAVING:
                wants.setdefault(w, Counter()).update(
                    face_index[c] for c, t in zip(a.cards, a.tabled or (False,) * len(a.cards)) if not t
                )
        if q != self.viewer:
            wants.setdefault(self.viewer, Counter()).update(face_index[c] for c in self.view.hand)
        hands = self.deal.hands
        free = self._free()
        short: Counter[int] = Counter()  # per face: copies the others lack beyond the free ones elsewhere
        wanted = {f for counts in wants.values() for f in counts}
        for f in wanted:
            copies = deck.face_masks[f]
            spare = (copies & free & ~hands[q]).bit_count()
            for r, counts in wants.items():
                held = (hands[r] & copies).bit_count()
                short[f] += max(0, counts[f] - held)
                spare -= min(counts[f], (hands[r] & copies & free).bit_count())
            short[f] -= max(0, spare)
        for f, k in short.items():
            if k <= 0:
                continue
            mine = (self.deal.hands[q] & deck.face_masks[f]).bit_count()
            for _ in range(min(k, mine - need[f])):
                free = self._free()
                hand = self.deal.hands[q]
                ys = [y for y in iter_bits(hand & free & deck.face_masks[f])]
                xs = [x for x in iter_bits(free & ~hand) if not need[deck.face_of[x]] and deck.face_of[x] not in wanted]
                self.rng.shuffle(xs)
                if not any(self._move_in(x, ys) for x in xs):
                    break

    def _drop_extra(self, who: int, step: int, extra: Counter[TableMeld], need: Counter[int]) -> None:
        deck = self.deck
        free = self._free()
        hand = self.deal.hands[who]
        faces = {deck.face_index[c] for m in extra for c in m.cards}
        out = [y for y in iter_bits(hand & free) if deck.face_of[y] in faces]
        held = Counter(deck.face_of[y] for y in iter_bits(hand))
        out = [y for y in out if held[deck.face_of[y]] > need[deck.face_of[y]]] or out
        bad = 0
        for f in faces:
            bad |= deck.face_masks[f]
        sources = [x for x in iter_bits(free & ~hand & ~bad)]
        self.rng.shuffle(sources)
        sources.sort(key=self._source_rank)
        for y in out:
            if held[deck.face_of[y]] <= need[deck.face_of[y]]:
                continue
            for x in sources:
                if self._swap_allowed(x, y):
                    self._transpose(x, y)
                    return
        raise Stuck(
            f"step {step}: player {who}'s hand makes melds the view does not show ({sorted(m.kind for m in extra)})"
        )

    # -- the end -------------------------------------------------------------------

    def _place_turn_up(self, order: list[int], face: int) -> None:
        """Put a card of ``face`` where the deal of ``order`` turns one up."""
        _hands, _widow, turn_up, _stock = self.rules.deal.deal(order, self.rules.players, self.view.dealer)
        if turn_up < 0 or self.deck.face_of[turn_up] == face:
            return
        i = order.index(turn_up)
        j = order.index(next(iter_bits(self.deck.face_masks[face])))
        order[i], order[j] = order[j], order[i]

    def _fix_known(self) -> bool:
        """Give the cards everybody saw without an action naming them (a widow shown, a last
        card shown, a carte blanche) the faces the view shows as known; True when it swapped."""
        deck = self.deck
        swapped = False
        for _ in range(deck.size):
            deal = self.deal
            seen = deal.view(self.viewer)
            self.shown_view = (deal, seen)
            shown = seen.known
            differ = [
                (q, got - want, want - got)
                for q, (want, got) in enumerate(
                    (Counter(deck.face_index[c] for c in w), Counter(deck.face_index[c] for c in g))
                    for w, g in zip(self.view.known, shown)
                )
                if want - got
            ]
            if not differ:
                return swapped
            q, surplus, missing = differ[0]
            marked = deal.hands[q] & deal._public_ids() & ~self.named & ~self.frozen
            # a card shown that the view does not show; else one shown twice over (a widow
            # card he then melded): the meld then shows a concealed copy of its face
            free = self._free()
            hand = deal.hands[q]
            ys = [y for y in iter_bits(marked) if surplus[deck.face_of[y]]]
            within = free
            if not ys:
                melded = {deck.face_index[c] for m in self.view.melds if m.player == q for c in m.cards}
                ys = [y for y in iter_bits(marked) if deck.face_of[y] in melded]
                within = free & hand
            xs = [x for f in missing for x in iter_bits(deck.face_masks[f] & within)]
            self.rng.shuffle(xs)
            xs.sort(key=lambda x: (not (hand >> x) & 1, self._source_rank(x)))
            if not any(self._move_in(x, ys) for x in xs) and not self._shown_from_afar(q, ys, missing):
                raise Stuck(f"player {q}'s cards known to everybody do not come out as the view shows")
            swapped = True
            # what later actions showed depends on what was known before (known copies are
            # shown first): the same moves again on the deck as it now is
            self._retrack()
        raise Stuck("the known cards do not settle")

    def _shown_from_afar(self, q: int, ys: list[int], missing: Counter[int]) -> bool:
        """A card of a ``missing`` face from elsewhere to the place of a shown card ``y`` he
        melded, ``y`` to a concealed place of his (he still melds it), that place's card away."""
        deck = self.deck
        deal = self.deal
        free = self._free()
        hand = deal.hands[q]
        keep = self._later(q, -1)
        for m in self.view.melds:
            if m.player == q:
                keep.update(deck.face_index[c] for c in m.cards)
        zs = [z for z in iter_bits(hand & free) if not keep[deck.face_of[z]] and z not in ys]
        for f in missing:
            for x in iter_bits(deck.face_masks[f] & free & ~hand):
                for y in ys:
                    for z in zs:
                        perm = {x: z, y: x, z: y}
                        if self._allowed(perm):
                            self._permute(perm)
                            return True
        return False

    def _finish(self) -> None:
        """Make the viewer's hand his view's hand."""
        deck = self.deck
        viewer = self.viewer
        want = Counter(deck.face_index[c] for c in self.view.hand)
        for _ in range(deck.size):
            hand = self.deal.hands[viewer]
            held = Counter(deck.face_of[y] for y in iter_bits(hand))
            missing = [f for f, k in want.items() if held[f] < k]
            if not missing:
                return
            self._bring(viewer, missing[0], want, concealed=False)
        raise Stuck("the viewer's hand does not come out as his view shows")


def _replays(world: DealState) -> bool:
    """Whether ``world``'s moves are legal, replayed with checks on its own deck."""
    from ..engine.registry import engine_for  # the engines are above: their registry is imported on use

    rules = world.rules
    deal = engine_for(rules.engine).new_deal(rules, world.deck_order, None, world.dealer)
    if world.setup.packet >= 0 and deal.setup.packet != world.setup.packet:
        deal = deal._with_cut_packet(world.setup.packet)
    for who, action_id in world.moves:
        if deal.current_player != who or action_id not in deal.legal_action_ids():
            return False
        deal = deal._apply_id(action_id)
    return True
