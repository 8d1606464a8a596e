"""The witness's first deck: the cards the history names placed where they are dealt in time.

Every card a player names (plays, melds, declares, exchanges, discards or passes; the viewer's
hand at the end) reached his hand in a *slot*: his dealt hand, or a draw from the stock after a
trick (the stock and sixty-six engines: the trick's winner first, then each player in turn,
before the next lead). The slots' times follow from the public history alone (who won each
trick is who acts next). `plan_order` assigns faces to slots per player by an earliest-deadline
matching (each slot, in time order, takes the use due soonest that it can still serve, a copy
of its face being left) and deals the rest of the deck at random. The replay in
`bezique_rules.state.witness` then rarely has anything to repair; what the plan cannot know
(a widow taken, cards passed, copies shared by melds) it still repairs.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter

from ..actions import Action, Verb
from ..parts.melds import best_melds
from .deal import PlayerView
from .knowledge import sample_hidden

__all__ = ["DRAWING_ENGINES", "plan_order"]

_LEAVING = frozenset({Verb.PLAY, Verb.EXCHANGE, Verb.DISCARD, Verb.GIVE})
"""Verbs whose cards leave their player's hand."""
_SHOWING = frozenset({Verb.MELD, Verb.DECLARE})
"""Verbs whose cards stay in the hand (melds of one kind use distinct copies, of two kinds may share)."""
_AUCTION = frozenset({Verb.BID, Verb.PASS})
DRAWING_ENGINES = frozenset({"stock", "marriage"})
"""Engines whose players draw from a stock after each trick, the winner first."""


def _slots(view: PlayerView) -> tuple[list[list[tuple[int, int]]], int]:
    """Per player: (time, deck position) of each card he receives: ``-1`` for his dealt hand,
    else the index in the history of the first action after the draw; and the index from which
    the play-off's duties hold (nobody draws any more, or the stock is closed)."""
    rules = view.rules
    n = rules.players
    hands, widow, turn_pos, stock_pos = rules.deal.deal(range(rules.deck.size), n, view.dealer)
    slots: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for q, mask in enumerate(hands):
        while mask:
            low = mask & -mask
            slots[q].append((-1, low.bit_length() - 1))
            mask ^= low
    if rules.engine not in DRAWING_ENGINES:
        if widow and view.maker is not None:  # the declarer takes the widow when the auction ends
            taken = next((i for i, (_, a) in enumerate(view.history) if a.verb not in _AUCTION), len(view.history))
            slots[view.maker].extend((taken, pos) for pos in widow)
        return slots, 0
    draws = list(stock_pos) + ([turn_pos] if turn_pos >= 0 else [])
    k = 0
    plays = 0
    winner = -1
    pending = False
    history = view.history
    playoff = len(history) + 1

    def draw(first: int, time: int) -> None:
        nonlocal k, playoff
        for j in range(n):
            if k < len(draws):
                slots[(first + j) % n].append((time, draws[k]))
                k += 1
        if k >= len(draws):
            playoff = min(playoff, time)

    for i, (who, action) in enumerate(history):
        verb = action.verb
        if verb is Verb.CLOSE:  # a closed stock is drawn from no more
            k = len(draws)
            playoff = min(playoff, i)
        if pending and winner < 0:
            winner = who
        if pending and (verb is Verb.PLAY or action.meld == "carte-blanche"):
            # the draw comes when the declarations end: before the next lead, and before a
            # carte blanche shown then (a streak shows the drawn card; none is shown while declaring)
            draw(winner, i)
            pending = False
        if verb is Verb.PLAY:
            plays += 1
            if plays % n == 0:
                pending, winner = True, -1
    if pending and view.stock_size < len(stock_pos) - k:  # drawn after the last action seen
        first = winner if winner >= 0 else view.current_player
        if first is not None:
            draw(first, len(history))
    return slots, playoff


def _voids(view: PlayerView, playoff: int) -> list[list[tuple[int, int]]]:
    """Per player: (step, cards) for each play whose duty shows he held none of ``cards`` then
    (`TrickPolicy.excluded`: the stock's policy before ``playoff``, the play-off's from it)."""
    rules = view.rules
    n = rules.players
    out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    if view.trump is None:
        return out
    table = rules.trump_tables[view.trump.value]
    deck = rules.deck
    face_index = deck.face_index
    first_copy = [(m & -m).bit_length() - 1 for m in deck.face_masks]
    partnership = rules.partnership
    trick: list[int] = []
    seats: list[int] = []
    size = n - len(view.sitting_out) if view.sitting_out else n
    for i, (who, action) in enumerate(view.history):
        if action.verb is not Verb.PLAY or not action.cards:
            continue
        card = first_copy[face_index[action.cards[0]]]
        if trick:
            policy = rules.stock_policy if i < playoff else rules.playoff_policy
            partner = False
            if partnership:
                w = seats[table.winner(tuple(trick))]
                partner = w != who and w % 2 == who % 2
            mask = policy.excluded(table, tuple(trick), card, partner)
            if mask:
                out[who].append((i, mask))
        trick.append(card)
        seats.append(who)
        if len(trick) == size:
            trick, seats = [], []
    return out


def _unnamed_melds(view: PlayerView) -> dict[int, list[tuple[str, list[int]]]]:
    """Per player: the melds the view shows that no action of his named (laid with ``meld best``)."""
    face_index = view.rules.deck.face_index
    named: dict[tuple[int, str, tuple[int, ...]], int] = {}
    for who, action in view.history:
        if action.verb is Verb.MELD and action.cards:
            key = (who, action.meld, tuple(sorted(face_index[c] for c in action.cards)))
            named[key] = named.get(key, 0) + 1
    out: dict[int, list[tuple[str, list[int]]]] = {}
    for meld in view.melds:
        faces = sorted(face_index[c] for c in meld.cards)
        key = (meld.player, meld.kind, tuple(faces))
        if named.get(key, 0):
            named[key] -= 1
        else:
            out.setdefault(meld.player, []).append((meld.kind, faces))
    return out


def _last_meld_best(view: PlayerView, who: int) -> int:
    """The index of ``who``'s last ``meld best`` (-1: none)."""
    for i in range(len(view.history) - 1, -1, -1):
        w, action = view.history[i]
        if w == who and action.verb is Verb.MELD and not action.cards:
            return i
    return -1


def _blanches(view: PlayerView) -> list[int]:
    """Per player: the index of his last carte blanche (his hand shown: no court card), or -1.

    A streak of carte blanches (``carte_blanche_repeat``) shows the hand again after each draw,
    so every card he receives up to the last one is no court card, and the copies still known
    at the end were in his hand then."""
    out = [-1] * view.rules.players
    for i, (who, action) in enumerate(view.history):
        if action.verb is Verb.MELD and action.meld == "carte-blanche":
            out[who] = i
    return out


def _turn_up_drawn(view: PlayerView, turn_up: int, slots: list[list[tuple[int, int]]]) -> list[tuple[int, int] | None]:
    """Per player: (time, face) of the turn-up he drew, shown to all as he takes it (the face
    the last exchange before then put there, else ``turn_up``), or None."""
    rules = view.rules
    out: list[tuple[int, int] | None] = [None] * rules.players
    _hands, _widow, turn_pos, _stock = rules.deal.deal(range(rules.deck.size), rules.players, view.dealer)
    if turn_pos < 0:
        return out
    face_index = rules.deck.face_index
    for q, mine in enumerate(slots):
        for time, pos in mine:
            if pos == turn_pos:
                face = turn_up
                for _, action in view.history[: max(time, 0)]:
                    if action.verb is Verb.EXCHANGE and action.cards:
                        face = face_index[action.cards[0]]
                if face >= 0:
                    out[q] = (time, face)
    return out


def _uses(
    view: PlayerView,
    turn_up: int,
    slots: list[list[tuple[int, int]]],
    playoff: int,
    passes: list[tuple[int, int, int, tuple[int, ...] | None]],
) -> tuple[list[list[tuple[int, int]]], list[Counter[int]]]:
    """Per player: (deadline, face) of each card he must hold by then (a card he melds, then
    plays, is one use, due at the meld); the viewer's hand at the end is due after the history.
    With ``passes`` (`_partner_passes`), the passers' uses are those of their hands after both
    passes: what they name later, and the cards passed that they hold then. Also per player:
    the copies known to all at the end that no action of his explains (each also a use due at
    the end: a widow taken face up, a last card shown)."""
    rules = view.rules
    face_index = rules.deck.face_index
    n = rules.players
    uses: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    shown: list[dict[str, dict[int, int]]] = [{} for _ in range(n)]  # per kind: copies shown of a face
    needed: list[dict[int, int]] = [{} for _ in range(n)]  # copies of a face his melds hold
    spent: list[dict[int, int]] = [{} for _ in range(n)]  # of which gone since

    unnamed = _unnamed_melds(view)
    on_table = playoff if rules.engine == "stock" else 0  # melds lie on the table until played

    # (``play QD*``) or the play-off begins (they go back to the hand)
    def show(i: int, who: int, kind_name: str, faces: list[int]) -> None:
        """Cards shown at ``i`` that stay in the hand: a use for each copy beyond those he
        already shows (melds of one kind use distinct copies, of two kinds may share)."""
        kind = shown[who].setdefault(kind_name, {})
        for f in faces:
            kind[f] = kind.get(f, 0) + 1
            if kind[f] > needed[who].get(f, 0):
                needed[who][f] = kind[f]
                uses[who].append((i, f))

    for i, (who, action) in enumerate(view.history):
        verb = action.verb
        if verb is Verb.EXCHANGE and turn_up >= 0:  # the turn-up comes to his hand: held, shown
            needed[who][turn_up] = needed[who].get(turn_up, 0) + 1
        if verb is Verb.MELD and not action.cards:  # melds laid without naming cards
            for kind_name, cards in unnamed.get(who, []) if i == _last_meld_best(view, who) else []:
                show(i, who, f"meld {kind_name}", cards)
            continue
        if not action.cards or (verb not in _LEAVING and verb not in _SHOWING):
            continue
        if verb is Verb.GIVE and passes:  # from the hand before the passes: `_plan_passes`
            continue
        faces = [face_index[c] for c in action.cards]
        if verb in _SHOWING:
            show(i, who, f"{verb.value} {action.meld}", faces)
        else:
            tabled = action.tabled or (False,) * len(faces)
            for f, star in zip(faces, tabled):
                # a copy lying on the table (``*``) was shown by a meld; where melds lie on the
                # table, a card played without ``*`` is a concealed copy: one more use
                if (star or i >= on_table) and spent[who].get(f, 0) < needed[who].get(f, 0):
                    spent[who][f] = spent[who].get(f, 0) + 1
                else:
                    uses[who].append((i, f))
    end = len(view.history) + 1
    p = view.player
    blanche = [end if i < 0 else i for i in _blanches(view)]  # what is known since he showed his hand
    turn_ups = _turn_up_drawn(view, turn_up, slots)
    unexplained: list[Counter[int]] = [Counter() for _ in range(n)]
    # faces a copy of which became known otherwise (the turn-up, an exchange, a declaration)
    shown_elsewise = {
        face_index[c] for _, a in view.history if a.verb in (Verb.EXCHANGE, Verb.DECLARE, Verb.MELD) for c in a.cards
    }
    for q in range(n):
        # the cards everybody knows him to hold that no meld or exchange explains: held since
        # his carte blanche, else by the end (the viewer's other cards by the end)
        held: dict[int, int] = {}
        for card in view.hand if q == p else ():
            f = face_index[card]
            held[f] = held.get(f, 0) + 1
        known: dict[int, int] = {}
        for card in view.known[q]:
            f = face_index[card]
            known[f] = known.get(f, 0) + 1
        drawn = turn_ups[q]
        if drawn is not None and blanche[q] < drawn[0] and known.get(drawn[1], 0):
            # the turn-up he drew after his carte blanche, still known (none of its face played
            # since: a known copy goes first): it explains a known copy; its slot serves it
            time, f = drawn
            if not any(t >= time and g == f for t, g in uses[q]):
                known[f] -= 1
                uses[q].append((end, f))
        for f in set(held) | set(known):
            on_hand = needed[q].get(f, 0) - spent[q].get(f, 0)
            shown_k = max(0, known.get(f, 0) - on_hand)
            if blanche[q] < end and known.get(f, 0) and f != turn_up and f not in shown_elsewise:
                # a copy of his carte blanche still known at the end: every later card of the
                # face he played or melded was a shown copy (known copies go first), so his
                # shown hand held them all besides the ones still known
                later = [k for k, (t, g) in enumerate(uses[q]) if g == f and t > blanche[q]]
                for k in later:
                    uses[q][k] = (blanche[q], f)
                shown_k = known[f]
            rest = max(0, held.get(f, 0) - on_hand - shown_k)
            uses[q].extend([(blanche[q], f)] * shown_k + [(end, f)] * rest)
            if blanche[q] == end and shown_k:
                unexplained[q][f] = shown_k
    if passes:  # after both passes the partner holds what came back, the declarer what he kept
        (_, partner, declarer, given), (second, _, _, back) = passes
        if given is not None and back is not None:
            for q, held in ((partner, Counter(back)), (declarer, Counter(given) - Counter(back))):
                have = Counter(f for _, f in uses[q])
                for f, k in held.items():
                    uses[q].extend([(second, f)] * max(0, k - have[f]))
    elif rules.partnership and n == 4:  # cards passed to the partner serve his next uses of their faces
        for i, (who, action) in enumerate(view.history):
            if action.verb is Verb.GIVE and action.cards:
                mine_later = uses[(who + 2) % n]
                for card in action.cards:
                    f = face_index[card]
                    j = min(
                        (j for j, (t, g) in enumerate(mine_later) if g == f and t > i),
                        default=-1,
                        key=lambda j: mine_later[j][0],
                    )
                    if j >= 0:
                        del mine_later[j]
    return uses, unexplained


def plan_order(view: PlayerView, rng: random.Random, turn_up: int) -> tuple[list[int], dict[int, tuple[int, ...]]]:
    """A deck order (physical ids, top first) whose slots give each player in time the faces
    the view shows him naming, as far as copies allow, and whose other cards in a hand avoid
    the voids its player shows later; ``turn_up``: the face to turn up (or -1). With it, the
    passes the viewer does not see: per step in the history, the faces passed (sorted)."""
    rules = view.rules
    deck = rules.deck
    n = rules.players
    size = deck.size
    copies: list[list[int]] = []
    for mask in deck.face_masks:
        ids = []
        while mask:
            low = mask & -mask
            ids.append(low.bit_length() - 1)
            mask ^= low
        rng.shuffle(ids)
        copies.append(ids)
    order = [-1] * size
    _hands, _widow, turn_pos, _stock = rules.deal.deal(range(size), n, view.dealer)
    if turn_pos >= 0 and turn_up >= 0 and copies[turn_up]:
        order[turn_pos] = copies[turn_up].pop()
    slots, playoff = _slots(view)
    face_index = deck.face_index
    exchanged = [(i, face_index[a.cards[0]]) for i, (_, a) in enumerate(view.history) if a.verb is Verb.EXCHANGE]
    passes = _partner_passes(view)
    uses, unexplained = _uses(view, turn_up, slots, playoff, passes)
    widow_known = _place_widow_known(view, slots, uses, unexplained, order, copies)
    voids = _voids(view, playoff)
    open_slots: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # per player: (time, position) no use took
    blanche = [i if i >= 0 else -2 for i in _blanches(view)]  # -2: none (a slot's time is -1 or more)
    court = 0  # the court faces (bits by face), and their cards (bits by physical id)
    court_cards = 0
    for f, card in enumerate(deck.faces):
        if card.rank.is_court:
            court |= 1 << f
            court_cards |= deck.face_masks[f]
    for q in [view.player] + [q for q in range(n) if q != view.player]:  # the viewer's cards are sure: first
        waiting = sorted(uses[q])
        for time, pos in slots[q]:
            # the turn-up he draws: it serves the soonest use of its face
            if order[pos] >= 0 and (widow_known is None or pos not in widow_known):
                face = deck.face_of[order[pos]]
                if pos == turn_pos:  # or of the dix exchanged for it (the exchanger's copy)
                    face = next((f for t, f in reversed(exchanged) if t < time), face)
                j = next((j for j, (deadline, f) in enumerate(waiting) if f == face and deadline >= time), -1)
                if j >= 0:
                    del waiting[j]  # still sorted: a heap
        if q == view.maker and widow_known is not None:
            # the rest of a widow taken face up: the cards known to all would still be known
            # unless they left his hand, so it takes the soonest uses that are not held to the end
            for time, pos in slots[q]:
                if time >= 0 and order[pos] < 0:
                    fits = [u for u in waiting if time <= u[0] <= len(view.history) and copies[u[1]]]
                    if fits:
                        use = min(fits)
                        waiting.remove(use)
                        heapq.heapify(waiting)
                        order[pos] = copies[use[1]].pop()
        left: list[tuple[int, int]] = []
        for time, pos in sorted(slots[q]):
            if order[pos] >= 0:
                continue
            while waiting and waiting[0][0] < time:
                heapq.heappop(waiting)  # due before this slot comes: a repair serves it
            held_back = []  # a court card, where he shows a carte blanche after this slot comes
            while waiting:
                use = heapq.heappop(waiting)
                if time <= blanche[q] and court >> use[1] & 1:
                    held_back.append(use)
                elif copies[use[1]]:
                    order[pos] = copies[use[1]].pop()
                    break
            else:
                left.append((time, pos))
            for use in held_back:
                heapq.heappush(waiting, use)
        open_slots[q] = left
    # the other cards: a player's open slots avoid what he shows he lacks after they come
    # (player or -1, positions, cards they may not hold, dealt before his carte blanche)
    owned: list[tuple[int, list[int], int, bool]] = []
    placed = set()
    for q in range(n):
        by_forbid: dict[tuple[int, bool], list[int]] = {}
        for time, pos in open_slots[q]:
            blank = time <= blanche[q]
            forbid = court_cards if blank else 0
            for step, mask in voids[q]:
                if step >= time:
                    forbid |= mask
            by_forbid.setdefault((forbid, blank), []).append(pos)
            placed.add(pos)
        owned.extend((q, positions, forbid, blank) for (forbid, blank), positions in by_forbid.items())
    owned.append((-1, [pos for pos in range(size) if order[pos] < 0 and pos not in placed], 0, False))
    groups = [(positions, forbid) for _, positions, forbid, _ in owned]
    rest = [x for ids in copies for x in ids]
    dealt = sample_hidden(rest, [(len(positions), forbid) for positions, forbid in groups], rng)
    if dealt is None:  # the declarer's voids bind the cards he buries too: he alone goes free
        groups = [(positions, 0 if q == view.maker else forbid) for q, positions, forbid, _ in owned]
        dealt = sample_hidden(rest, [(len(positions), forbid) for positions, forbid in groups], rng)
    if dealt is None:  # the voids do not fit (a use the plan could not place): a carte blanche still holds
        groups = [(positions, court_cards if blank else 0) for _, positions, _, blank in owned]
        dealt = sample_hidden(rest, [(len(positions), forbid) for positions, forbid in groups], rng)
    if dealt is None:  # at random
        rng.shuffle(rest)
        dealt = [rest]
        groups = [([pos for positions, _ in groups for pos in positions], 0)]
    forbidden: dict[int, int] = {}  # per open position: the cards a void rules out there
    for (positions, forbid), cards in zip(groups, dealt):
        for pos, x in zip(positions, cards):
            order[pos] = x
            forbidden[pos] = forbid
    _match_best_melds(view, order, slots, forbidden, rng, planned_passes=bool(passes))
    return order, _plan_passes(view, order, slots, forbidden, passes, rng)


def _place_widow_known(
    view: PlayerView,
    slots: list[list[tuple[int, int]]],
    uses: list[list[tuple[int, int]]],
    unexplained: list[Counter[int]],
    order: list[int],
    copies: list[list[int]],
) -> set[int] | None:
    """The widow the declarer of an auction game took face up: the cards known to be his that
    no meld of his explains came in it (pagat.com, Auction Pinochle: the widow is turned face
    up for all to see). Copies of those faces go to the widow's places at once, their uses
    served; the positions so filled (None: no widow taken face up by a declarer)."""
    maker = view.maker
    if view.rules.engine != "auction" or maker is None:
        return None
    filled: set[int] = set()
    places = [pos for time, pos in slots[maker] if time >= 0 and order[pos] < 0]
    end = len(view.history) + 1
    for f, k in sorted(unexplained[maker].items()):
        for _ in range(k):
            if not places or not copies[f] or (end, f) not in uses[maker]:
                break
            pos = places.pop()
            order[pos] = copies[f].pop()
            filled.add(pos)
            uses[maker].remove((end, f))
    return filled


def _partner_passes(view: PlayerView) -> list[tuple[int, int, int, tuple[int, ...] | None]]:
    """(step, giver, receiver, faces passed: sorted, or None where the viewer does not see
    them) of the two passes between partners (the partner's to the declarer, then the
    declarer's back), or none. The plan deals the two their hands as they hold them after both
    passes, then makes the hands before them (`_plan_passes`): the melds laid with ``meld
    best`` are made from the hands after the passes."""
    rules = view.rules
    contract = rules.contract
    if not rules.partnership or rules.players != 4 or view.maker is None or contract is None:
        return []
    if not contract.pass_cards or rules.engine in DRAWING_ENGINES:
        return []
    declarer = view.maker
    partner = (declarer + 2) % 4
    gives = [(i, w, a) for i, (w, a) in enumerate(view.history) if a.verb is Verb.GIVE]
    if [w for _, w, _ in gives] != [partner, declarer]:
        return []
    face_index = rules.deck.face_index

    def faces(action: Action) -> tuple[int, ...] | None:
        if not action.cards:
            return None
        return tuple(sorted(face_index[c] for c in action.cards))

    (first, _, a), (second, _, b) = gives
    return [(first, partner, declarer, faces(a)), (second, declarer, partner, faces(b))]


def _plan_passes(
    view: PlayerView,
    order: list[int],
    slots: list[list[tuple[int, int]]],
    forbidden: dict[int, int],
    passes: list[tuple[int, int, int, tuple[int, ...] | None]],
    rng: random.Random,
) -> dict[int, tuple[int, ...]]:
    """The passes between partners (`_partner_passes`) on a deck that deals the partner and
    the declarer the hands they hold after both; the faces passed per step. The declarer's
    cards of faces passed to him and not back (``given - back``) trade places with the
    partner's of faces passed back and not given (``back - given``): the partner then holds
    ``given`` at his pass and the declarer, having received them, ``back``; the hands after
    the passes are the planned ones (their melds, voids and uses). Where the viewer does not
    see the cards, ``k`` of the declarer's are ``given`` and ``k`` of the partner's ``back``:
    cards a use placed first (the history pins them anyway; an open card passed could no
    longer be swapped by a repair)."""
    if not passes:
        return {}
    contract = view.rules.contract
    assert contract is not None
    k = contract.pass_cards
    (first, partner, declarer, given), (second, _, _, back) = passes
    face_of = view.rules.deck.face_of

    def pick(q: int, faces: Counter[int] | None) -> list[int]:
        ps = [pos for _, pos in slots[q]]
        rng.shuffle(ps)
        ps.sort(key=lambda pos: pos in forbidden)  # the positions a use took first
        if faces is None:
            return ps[:k]
        out = []
        for pos in ps:
            f = face_of[order[pos]]
            if faces[f] > 0:
                faces[f] -= 1
                out.append(pos)
        return out

    if given is None or back is None:
        ours = pick(declarer, None), pick(partner, None)
        if len(ours[0]) < k or len(ours[1]) < k:
            return {}
        given = tuple(sorted(face_of[order[pos]] for pos in ours[0]))
        back = tuple(sorted(face_of[order[pos]] for pos in ours[1]))
    else:
        extra, missing = Counter(given) - Counter(back), Counter(back) - Counter(given)
        ours = pick(declarer, extra.copy()), pick(partner, missing.copy())
        if len(ours[0]) != sum(extra.values()) or len(ours[1]) != sum(missing.values()):
            return {}  # the plan could not place them: the repairs see to the hands
    for a, b in zip(*ours):
        order[a], order[b] = order[b], order[a]
    return {first: given, second: back}


_MELD_TRIES = 400
"""How many swaps `_match_best_melds` tries at most (each keeps the hands no worse)."""
_CYCLE_SHARE = 0.25
"""The share of `_match_best_melds`'s tries that move three cards round instead of two."""


def _match_best_melds(
    view: PlayerView,
    order: list[int],
    slots: list[list[tuple[int, int]]],
    forbidden: dict[int, int],
    rng: random.Random,
    *,
    planned_passes: bool = False,
) -> None:
    """Where players laid their melds with ``meld best`` from the hand they were dealt (an
    auction: the declarer's with the widow), swap open cards (``forbidden``: the positions no
    use took, with the cards a void rules out there) until each such hand makes exactly the
    melds the view shows him laying: the cards of his melds are placed, but the other cards may
    complete more. A min-conflicts walk: a swap is kept when no hand gets further from its melds."""
    rules = view.rules
    if rules.engine in DRAWING_ENGINES or view.trump is None or not forbidden:
        return
    history = view.history
    best = {w for w, a in history if a.verb is Verb.MELD and a.meld == "best" and not a.cards}
    passed = {w for w, a in history if a.verb is Verb.GIVE}
    if passed and not planned_passes:  # cards passed before the melds change the hands: the repairs see to them
        best -= passed | {view.maker}
    best.discard(view.player)
    if not best:
        return
    deck = rules.deck
    face_of = deck.face_of
    kinds = rules.melds.kinds
    instances = rules.meld_instances[view.trump.value]
    face_index = deck.face_index
    want: dict[int, Counter[tuple[str, tuple[int, ...]]]] = {q: Counter() for q in best}
    for m in view.melds:
        if m.player in want:
            want[m.player][(m.kind, tuple(sorted(face_index[c] for c in m.cards)))] += 1
    positions = {q: [pos for _, pos in slots[q]] for q in best}
    owner = {pos: q for q, ps in positions.items() for pos in ps}

    def distance(q: int) -> tuple[int, set[int]]:
        """How far ``q``'s hand is from his melds, and the faces of the melds it makes beyond them."""
        counts = [0] * len(deck.faces)
        for pos in positions[q]:
            counts[face_of[order[pos]]] += 1
        _points, laid = best_melds(rules.melds, instances, counts)
        got = Counter((kinds[k].name, tuple(sorted(faces))) for k, faces in laid)
        extra = got - want[q]
        return sum((extra + (want[q] - got)).values()), {f for _kind, faces in extra for f in faces}

    far = {q: distance(q) for q in best}
    open_positions = list(forbidden)
    for _ in range(_MELD_TRIES):
        bad = [q for q, (d, _faces) in far.items() if d]
        if not bad:
            return
        q = rng.choice(bad)
        faces = far[q][1]
        mine = [pos for pos in positions[q] if pos in forbidden]
        # a card of a meld too many goes first, for one of no such face
        mine = [pos for pos in mine if face_of[order[pos]] in faces] or mine
        if not mine:
            far[q] = (0, set())  # nothing to move: the repairs see to it
            continue
        # a swap, or now and then a three-way move (a's card to b's place, b's to c's, c's to
        # a's: where no two-card swap leaves every hand no worse)
        cycle = [rng.choice(mine), rng.choice(open_positions)]
        if rng.random() < _CYCLE_SHARE:
            cycle.append(rng.choice(open_positions))
        cards = [order[pos] for pos in cycle]
        moved = cards[-1:] + cards[:-1]  # the card each place of the cycle gets
        owners = {owner.get(pos, -1) for pos in cycle} - {-1}
        if (
            len(set(cycle)) < len(cycle)
            or all(owner.get(pos, -1) == q for pos in cycle)
            or face_of[moved[0]] in faces
            or any((forbidden[pos] >> x) & 1 for pos, x in zip(cycle, moved))
        ):
            continue
        for pos, x in zip(cycle, moved):
            order[pos] = x
        new = {r: distance(r) for r in owners}
        if sum(d for d, _ in new.values()) <= sum(far[r][0] for r in owners):
            far.update(new)
        else:
            for pos, x in zip(cycle, cards):
                order[pos] = x
