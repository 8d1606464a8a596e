"""Heuristic play for the stock games: two-hand Bezique, its multi-pack relatives, two-hand Pinochle.

The policy reads a `StockDeal` at the level of physical-card masks (fast enough
for search rollouts), but only what the player to move may know: his own hand,
the cards on the table, the tricks, the trump, the turn-up, the size of the
stock, the scores and the declarations. It never reads the opponent's concealed
cards or the order of the stock, so running it on a world made by
`bezique_rules.determinize` gives the same choice in every world (up to the
random tie-breaks), and `HeuristicAgent` does exactly that.

The strategy (see the how-to "Write an agent" and the tutorial):

* Stock phase, following: win the trick when it carries a brisque or when a
  meld is waiting to be declared, with the cheapest card that wins; otherwise
  give away a worthless card (a seven, an eight, a nine of a plain suit) and keep
  the trumps. Every card has a *keep value*: its trick-winning power (trumps,
  aces and tens) and what it adds to the melds the hand can still make (a king
  that married can still join four kings: it counts twice).
* Stock phase, leading: lead the cheapest card the opponent will not want to
  take, unless a meld is waiting, then lead a card that wins (the ace of trumps
  cannot be beaten: of identical cards the first played wins).
* The opponent's table is read: a shown bezique, a shown royal marriage or any
  near-complete meld on his side makes winning tricks worth more (he declares
  only after winning one).
* Declaring: the meld that scores most, but a royal marriage before the
  sequence and a bezique before the double bezique when there are tricks left
  to declare the bigger one later; the trump seven always (the exchange when it
  brings a good card).
* As the stock runs down, trumps are kept (two or three) for the play-off, and
  the last face-up card goes to the loser of the last stock trick.
* Play-off: the opponent's hand is known (every other card has been seen);
  lead what he cannot beat, otherwise what costs least; follow with the
  cheapest winner, or the cheapest card when nothing wins.

``skill=WEAK`` is a weak version (no meld planning, no reading of the table, no
trump saving) used for level 2; ``MEDIUM`` (level 3) follows and declares like the full
heuristic but leads and plays the play-off like the weak one; ``FAST`` is the rollout
policy of the search.
"""

from __future__ import annotations

import random
from typing import cast

from ..actions import Action, ActionKind, Verb
from ..api import new_deal
from ..bits import lowest_bit
from ..deck import card_ids
from ..engine.stock import StockDeal
from ..errors import BeziqueRulesError
from ..parts.trumps import TrumpTable
from ..rules.ruleset import RuleSet
from ..state.deal import DealState, Phase, PlayerView
from .endgame import playoff_values
from .stocktables import _ACE, _TEN, StockHeuristicTables, stock_tables
from .strategy import AgentStrategy, Rollout, RolloutKind, Strength

__all__ = [
    "FAST",
    "FULL",
    "MEDIUM",
    "STRATEGY",
    "WEAK",
    "StockHeuristicTables",
    "stock_action",
    "stock_evaluate",
    "stock_ranking",
    "stock_tables",
]

# action kinds (module aliases of `ActionKind`, read on the hot paths)
_PLAY, _MELD, _EXCHANGE, _DECLARE = ActionKind.PLAY, ActionKind.MELD, ActionKind.EXCHANGE, ActionKind.DECLARE
_PASS, _CARTE = ActionKind.PASS, ActionKind.CARTE_BLANCHE

WEAK, FAST, MEDIUM, FULL = 1, 2, 3, 4
"""The skills of `stock_action`: the weak heuristic (level 2), the rollout policy of the search,
the medium heuristic (level 3: the full one, except that it leads and plays the play-off by the
weak rules) and the full heuristic (level 4)."""

_BASELINE_THREAT = 6.0
"""What the opponent is expected to declare after winning an ordinary trick."""


class _Situation:
    """What the player to move knows, precomputed once per decision."""

    __slots__ = (
        "chances", "declared", "draws", "found", "hand", "last_stock", "me", "opp", "opp_hidden", "opp_known",
        "opp_used", "state", "stock_n", "table", "tabled", "tb", "trump", "unseen", "unseen_n", "used", "values",
    )  # fmt: skip

    def __init__(self, state: StockDeal, tb: StockHeuristicTables) -> None:
        self.state = state
        self.tb = tb
        me = state.player
        self.me = me
        n = tb.rules.players
        self.opp = (me + 1) % n
        hand = state.hands[me]
        self.hand = hand
        self.tabled = state.tabled[me]
        trump = state.trump
        self.trump = trump
        self.table: TrumpTable = tb.rules.trump_tables[trump]
        seen = hand
        for w in state.won:
            seen |= w
        for c in state.trick:
            seen |= 1 << c
        opp_known = 0
        for q in range(n):
            if q != me:
                opp_known |= state.known[q]
        self.opp_known = opp_known
        seen |= opp_known
        if state.turn_up >= 0:
            seen |= 1 << state.turn_up
        self.unseen = tb.rules.deck.full_mask & ~seen
        self.unseen_n = self.unseen.bit_count()
        stock_n = len(state.stock) + (1 if state.turn_up >= 0 else 0)
        self.stock_n = stock_n
        self.draws = stock_n / n
        self.last_stock = 0 < stock_n <= n
        self.opp_hidden = max(0, state.hands[self.opp].bit_count() - state.known[self.opp].bit_count())
        used: dict[str, int] = {}
        opp_used: dict[str, int] = {}
        groups = tb.groups
        for p, k, mk in state.declarations:
            target = used if p == me else opp_used
            g = groups[k]
            target[g] = target.get(g, 0) | mk
        self.used = used
        self.opp_used = opp_used
        self.chances: dict[int, float] = {}
        self.found: list[tuple[float, int]] | None = None
        self.values: dict[int, float] = {}
        self.declared = state.declarations

    # -- meld potential ----------------------------------------------------------

    def _draw_chance(self, face: int, missing: int) -> float:
        """The chance to draw ``missing`` more copies of ``face`` before the stock runs out."""
        key = face * 8 + missing
        found = self.chances.get(key)
        if found is not None:
            return found
        u = (self.unseen & self.tb.compiled.index.face_masks[face]).bit_count()
        if u < missing or self.unseen_n == 0 or self.draws <= 0:
            found = 0.0
        else:
            per = min(1.0, self.draws / self.unseen_n)
            found = (1.0 - (1.0 - per) ** u) ** missing
        self.chances[key] = found
        return found

    def _inst_value(self, i: int, minus: int = -1) -> float:
        """The prospect of instance ``i``: its points times the chance to complete it with cards
        fresh for its group (with one copy of face ``minus`` gone, when given)."""
        key = i * 1024 + minus + 1
        found = self.values.get(key)
        if found is not None:
            return found
        inst = self.tb.instances[self.trump][i]
        fresh = self.hand & ~self.used.get(inst.group, 0)
        chance = 1.0
        masks = self.tb.compiled.index.face_masks
        for f, need in inst.needs:
            have = (fresh & masks[f]).bit_count() - (1 if f == minus else 0)
            if have < need:
                chance *= self._draw_chance(f, need - have)
                if chance == 0.0:
                    break
        found = inst.points * chance
        self.values[key] = found
        return found

    def _kind_best(self, kind: int, minus: int) -> float:
        """For a kind with many instances: the best prospect among them (one copy of ``minus`` gone)."""
        tb = self.tb
        best = 0.0
        for i, inst in enumerate(tb.instances[self.trump]):
            if inst.kind == kind:
                v = self._inst_value(i, minus if minus >= 0 and (inst.faces >> minus) & 1 else -1)
                if v > best:
                    best = v
        return best

    def potential_loss(self, pid: int) -> float:
        """How much the hand's meld prospects lose if card ``pid`` leaves it."""
        tb = self.tb
        face = tb.rules.deck.face_of[pid]
        idx = tb.by_face[self.trump][face]
        if not idx:
            return 0.0
        insts = tb.instances[self.trump]
        loss = 0.0
        kinds: set[int] = set()
        many = tb.many
        used = self.used
        for i in idx:
            inst = insts[i]
            if (used.get(inst.group, 0) >> pid) & 1:
                continue  # already used in this kind of meld: its loss changes nothing here
            if many[inst.kind]:
                kinds.add(inst.kind)
                continue
            before = self._inst_value(i)
            if before:
                loss += before - self._inst_value(i, face)
        for k in kinds:
            loss += self._kind_best(k, -1) - self._kind_best(k, face)
        return loss

    def opponent_threat(self) -> float:
        """What the opponent may declare after winning a trick, judged from his table."""
        tb = self.tb
        threat = _BASELINE_THREAT
        known = self.opp_known
        if not known:
            return threat
        hidden = self.opp_hidden
        un = self.unseen_n
        masks = tb.compiled.index.face_masks
        best = 0.0
        for inst in tb.instances[self.trump]:
            fresh = known & ~self.opp_used.get(inst.group, 0)
            if not fresh & inst.phys:
                continue
            chance = 1.0
            for f, need in inst.needs:
                have = (fresh & masks[f]).bit_count()
                if have < need:
                    u = (self.unseen & masks[f]).bit_count()
                    missing = need - have
                    if u < missing or un == 0 or hidden == 0:
                        chance = 0.0
                        break
                    per = min(1.0, hidden / un)
                    chance *= (1.0 - (1.0 - per) ** u) ** missing
            best = max(best, inst.points * chance)
        return threat + best

    # -- what a trick win would open --------------------------------------------

    def declarable(self, skill: int) -> tuple[float, int]:
        """The best meld the player could declare now (points, mask of its cards) and the
        worth of an unscored trump seven, if he wins the trick (before playing to it)."""
        tb = self.tb
        rules = tb.rules
        if self.last_stock and not rules.stock.declare_on_last_stock_trick:
            return 0.0, 0
        if self.found is None:
            history = tuple((k, mk) for p, k, mk in self.declared if p == self.me)
            points = tb.kind_points
            found = rules.meld_search[self.trump].legal(self.hand, self.tabled, history)
            self.found = [(float(points[k]), mk) for k, _key, mk in found]
        best, mask = 0.0, 0
        for v, mk in self.found:
            if v > best:
                best, mask = v, mk
        return best, mask

    def declarable_without(self, pid: int) -> float:
        """The best meld left to declare after card ``pid`` is played (one of those found with
        the whole hand that does not use it)."""
        if self.found is None:
            self.declarable(FULL)
        assert self.found is not None
        return max((v for v, mk in self.found if not (mk >> pid) & 1), default=0.0)

    def seven_value(self, without: int = -1) -> float:
        """10 when an unscored trump seven (dix) is held and could be declared after a win."""
        if self.trump < 0:
            return 0.0
        f = self.tb.compiled.declaring.dix_faces[self.trump]
        if f < 0:
            return 0.0
        held = self.hand & self.tb.compiled.index.face_masks[f] & ~self.state.scored
        if without >= 0:
            held &= ~(1 << without)
        dix = self.tb.rules.stock.dix
        return float(dix.points) if held and dix is not None else 0.0

    # -- card values -------------------------------------------------------------

    def keep_value(self, pid: int, skill: int) -> float:
        """What the player gives up by spending card ``pid``."""
        tb = self.tb
        f = tb.rules.deck.face_of[pid]
        rank = tb.rank[f]
        trump = self.trump
        v = 0.05 * (8 - rank)  # of two worthless cards, keep the higher
        is_trump = trump >= 0 and tb.suit[f] == trump
        if is_trump:
            v += 9.0 + (6.0 if rank == _ACE else 4.0 if rank == _TEN else 1.0)
            if skill >= FAST and self.stock_n <= 10:
                trumps = (self.hand & self.table.trump_mask).bit_count()
                if trumps <= 3:
                    v += 8.0  # keep two or three trumps for the play-off
        elif rank in (_ACE, _TEN):
            v += 4.0 + 0.6 * tb.compiled.scoring.card_values[pid]
        dix_faces = tb.compiled.declaring.dix_faces
        if dix_faces[trump if trump >= 0 else 0] == f and is_trump and (self.state.scored >> pid) & 1 == 0:
            dix = tb.rules.stock.dix
            if dix is not None:
                scores_now = self.state.stage is Phase.PLAY or dix.score_on_play_in_playoff
                if not (dix.score_on_play and scores_now):
                    v += dix.points
        if skill >= FAST:
            v += self.potential_loss(pid)
        else:
            v += 0.1 * _static_meld(tb, self.trump, f)
        return v


def _static_meld(tb: StockHeuristicTables, trump: int, face: int) -> float:
    """The weak heuristic's meld value of a face: its share of every meld instance using it."""
    return tb.static_meld[trump][face]


# -- the policy ------------------------------------------------------------------------------


def stock_action(state: StockDeal, rng: random.Random, skill: int = FULL) -> int:
    """The heuristic's action id for the player to move in a stock-game deal.

    Args:
        state: the deal (a real one, or a world from `determinize`: only what the
            player to move may know is read).
        rng: breaks ties.
        skill: `FULL` for the full heuristic, `MEDIUM` or `WEAK` for the weaker ones,
            `FAST` for the rollout policy of the search.
    """
    ids = state.legal_action_ids()
    if len(ids) == 1:
        return ids[0]
    tb = stock_tables(state.rules)
    stage = state.stage
    kinds = tb.compiled.action_table.kind
    if stage is Phase.GUESS:
        number = tb.compiled.action_table.number
        return min(ids, key=lambda i: (abs(number[i] - 24), number[i]))
    if stage is Phase.DECLARE:
        return _declare(state, tb, ids, skill)
    for i in ids:
        if kinds[i] == _CARTE:
            return i
    if skill == MEDIUM:
        skill = WEAK if stage is Phase.PLAYOFF or (stage is Phase.PLAY and not state.trick) else FULL
    if skill == WEAK:
        return _weak_play(state, tb, ids)
    if skill == FAST:
        return _fast_play(state, tb, ids)
    plays = [i for i in ids if kinds[i] == _PLAY]
    if not plays:
        return rng.choice(ids)
    return max(_full_values(state, tb, plays))[1]


def _full_values(state: StockDeal, tb: StockHeuristicTables, plays: list[int]) -> list[tuple[float, int]]:
    sit = _Situation(state, tb)
    if state.stage is Phase.PLAYOFF:
        return _playoff(sit, plays, FULL)
    if state.trick:
        return _follow(sit, plays, FULL)
    return _lead(sit, plays, FULL)


def stock_ranking(state: StockDeal, rng: random.Random) -> list[int]:
    """The legal action ids, the full heuristic's favourite first."""
    ids = state.legal_action_ids()
    if len(ids) <= 1:
        return list(ids)
    tb = stock_tables(state.rules)
    first = stock_action(state, rng, FULL)
    kinds = tb.compiled.action_table.kind
    values: list[tuple[float, int]]
    if state.stage is Phase.DECLARE:
        values = _declare_values(state, tb, ids, FULL)
    else:
        plays = [i for i in ids if kinds[i] == _PLAY]
        values = _full_values(state, tb, plays) if plays and state.stage in (Phase.PLAY, Phase.PLAYOFF) else []
        seen = {i for _v, i in values}
        values += [(-1e9, i) for i in ids if i not in seen]
    order = [i for _v, i in sorted(values, reverse=True)]
    order.remove(first)
    return [first, *order]


def _waiting(state: StockDeal, tb: StockHeuristicTables, me: int, hand: int) -> int:
    """The points of the best meld the cards of ``hand`` complete (fresh cards for its group)."""
    trump = state.trump
    nf = len(tb.rank)
    all_faces = (1 << nf) - 1
    faces = 0
    m = hand
    while m:
        faces |= m & all_faces
        m >>= nf
    used: dict[str, int] = {}
    if state.declarations:
        groups = tb.groups
        for p, k, mk in state.declarations:
            if p == me:
                g = groups[k]
                used[g] = used.get(g, 0) | mk
    masks = tb.compiled.index.face_masks
    best = 0
    for inst in tb.instances[trump]:
        if inst.points <= best or inst.faces & ~faces:
            continue
        fresh = hand & ~used.get(inst.group, 0)
        for f, need in inst.needs:
            if (fresh & masks[f]).bit_count() < need:
                break
        else:
            best = inst.points
    return best


def _fast_play(state: StockDeal, tb: StockHeuristicTables, ids: tuple[int, ...]) -> int:
    """The rollout policy: the weak heuristic, plus winning tricks when a meld is waiting."""
    stage = state.stage
    if stage is Phase.PLAYOFF:
        return _weak_play(state, tb, ids)
    me = state.player
    hand = state.hands[me]
    trump = state.trump
    keep = tb.weak_keep[trump]
    table = tb.rules.trump_tables[trump]
    points = tb.compiled.scoring.card_values
    beats = table.beats
    masks, face_of = tb.compiled.index.face_masks, tb.rules.deck.face_of
    plays = _card_plays(tb, ids, hand, state.tabled[me])
    if not plays:
        return ids[-1]
    waiting = _waiting(state, tb, me, hand)
    dix = tb.compiled.declaring.dix_faces[trump] if trump >= 0 else -1
    if dix >= 0 and hand & masks[dix] & ~state.scored:
        waiting += 10
    trick = state.trick
    if trick:
        led = trick[0]
        gain = points[led] + waiting
        winners = [(keep[face_of[c]], c, i) for i, c in plays if beats(c, led)]
        if winners:
            k, c, i = min(winners)
            if gain + points[c] >= k - 3.0:
                return i
        return min((keep[face_of[c]] + 0.01 * i, i) for i, c in plays)[1]
    if waiting >= 40:
        outside = tb.rules.deck.full_mask & ~hand
        for w in state.won:
            outside &= ~w
        sure = [(keep[face_of[c]], i) for i, c in plays if not outside & tb.beat_masks[trump][face_of[c]]]
        if sure:
            return min(sure)[1]
    return min((keep[face_of[c]] + 0.01 * i, i) for i, c in plays)[1]


def _weak_play(state: StockDeal, tb: StockHeuristicTables, ids: tuple[int, ...]) -> int:
    """The weak heuristic's card (fast: static card values only)."""
    me = state.player
    trump = state.trump
    keep = tb.weak_keep[trump]
    table = tb.rules.trump_tables[trump]
    points = tb.compiled.scoring.card_values
    power = table.power
    beats = table.beats
    face_of = tb.rules.deck.face_of
    plays = _card_plays(tb, ids, state.hands[me], state.tabled[me])
    if not plays:
        return ids[-1]
    trick = state.trick
    if state.stage is Phase.PLAYOFF:
        if trick:
            led = trick[0]
            winners = [(points[c] * 0.1 + power[c], i) for i, c in plays if beats(c, led)]
            if winners:
                return min(winners)[1]
            return min((points[c] * 3 + power[c] * 0.1, i) for i, c in plays)[1]
        return max((power[c] - points[c] * 0.5, i) for i, c in plays)[1]
    if trick:
        led = trick[0]
        if points[led] > 0:
            winners = [(keep[face_of[c]], i) for i, c in plays if beats(c, led)]
            if winners:
                return min(winners)[1]
    return min((keep[face_of[c]] + 0.01 * i, i) for i, c in plays)[1]


def _card_plays(tb: StockHeuristicTables, ids: tuple[int, ...], hand: int, tabled: int) -> list[tuple[int, int]]:
    """The plays among ``ids``, each with the physical card it uses (see `_copy_played`)."""
    kinds = tb.compiled.action_table.kind
    return [(i, _copy_played(tb, i, hand, tabled)) for i in ids if kinds[i] == _PLAY]


def _copy_played(tb: StockHeuristicTables, action_id: int, hand: int, tabled: int) -> int:
    """The physical card a play action uses, as the engine picks it: the lowest copy of its
    face in ``hand``, from the table (``tabled``) or the concealed cards as the action says."""
    actions = tb.compiled.action_table
    copies = hand & tb.compiled.index.face_masks[actions.face[action_id]]
    return lowest_bit(copies & (tabled if actions.from_table[action_id] else ~tabled))


def _pid_of(sit: _Situation, action_id: int) -> int:
    """The physical card a play action uses (as the engine picks it)."""
    return _copy_played(sit.tb, action_id, sit.hand, sit.tabled)


def _follow(sit: _Situation, plays: list[int], skill: int) -> list[tuple[float, int]]:
    tb = sit.tb
    led = sit.state.trick[0]
    table = sit.table
    points = tb.compiled.scoring.card_values
    meld, meld_mask = sit.declarable(skill)
    threat = sit.opponent_threat()
    last_swing = _last_stock_swing(sit)
    values = []
    for i in plays:
        pid = _pid_of(sit, i)
        wins = table.beats(pid, led)
        tp = points[led] + points[pid]
        keep = sit.keep_value(pid, skill)
        if wins:
            decl = meld if not (meld_mask >> pid) & 1 else sit.declarable_without(pid)
            v = tp + decl + sit.seven_value(pid) + threat - _BASELINE_THREAT + 3.0 - last_swing
        else:
            v = -tp - threat + last_swing
        values.append((v - keep - 0.001 * i, i))
    return values


def _last_stock_swing(sit: _Situation) -> float:
    """On the last stock trick the loser takes the face-up card: what losing is worth."""
    state = sit.state
    if not (sit.last_stock and state.turn_up >= 0):
        return 0.0
    up = state.turn_up
    tb = sit.tb
    f = tb.rules.deck.face_of[up]
    rank = tb.rank[f]
    v = 10.0 if tb.suit[f] == sit.trump else 0.0
    v += 8.0 if rank in (_ACE, _TEN) else 0.0
    return v - 6.0


def _beaters(sit: _Situation, pid: int) -> int:
    """How many unseen (or opponent's known) cards beat ``pid``."""
    mask = sit.tb.beat_masks[sit.trump][sit.tb.rules.deck.face_of[pid]]
    return ((sit.unseen | sit.opp_known) & mask).bit_count()


def _lead(sit: _Situation, plays: list[int], skill: int) -> list[tuple[float, int]]:
    tb = sit.tb
    points = tb.compiled.scoring.card_values
    meld, meld_mask = sit.declarable(skill)
    threat = sit.opponent_threat()
    hidden = sit.opp_hidden
    un = max(1, sit.unseen_n)
    per = min(1.0, hidden / un)
    values = []
    for i in plays:
        pid = _pid_of(sit, i)
        b = _beaters(sit, pid)
        holds = 1.0 - (1.0 - per) ** b if b else 0.0
        want = points[pid] > 0 or threat > _BASELINE_THREAT + 20
        p_beat = holds * (0.9 if want else 0.35)
        decl = meld if not (meld_mask >> pid) & 1 else sit.declarable_without(pid)
        win_v = points[pid] + decl + sit.seven_value(pid) + threat - _BASELINE_THREAT + 3.0
        lose_v = -points[pid] - threat - 3.0
        v = (1.0 - p_beat) * win_v + p_beat * lose_v - sit.keep_value(pid, skill)
        values.append((v - 0.001 * i, i))
    return values


def _playoff(sit: _Situation, plays: list[int], skill: int) -> list[tuple[float, int]]:
    tb = sit.tb
    table = sit.table
    points = tb.compiled.scoring.card_values
    power = table.power
    state = sit.state
    if state.trick:
        led = state.trick[0]
        winners = [i for i in plays if table.beats(_pid_of(sit, i), led)]
        if winners:
            return [
                (-(points[_pid_of(sit, i)] * 0.1 + power[_pid_of(sit, i)]) + (1000.0 if i in winners else 0.0), i)
                for i in plays
            ]
        return [(-(points[_pid_of(sit, i)] * 3 + power[_pid_of(sit, i)] * 0.1), i) for i in plays]
    # the opponent's hand is every card not seen (the stock is gone)
    opp = sit.unseen | sit.opp_known
    policy = tb.rules.playoff_policy
    my_trumps = (sit.hand & table.trump_mask).bit_count()
    opp_trumps = (opp & table.trump_mask).bit_count()
    last = sit.hand.bit_count() == 1
    values = []
    for i in plays:
        pid = _pid_of(sit, i)
        answers = policy.legal(table, opp, (pid,))
        beat = [c for c in card_ids(answers) if table.beats(c, pid)]
        if beat:
            reply = min(beat, key=lambda c: (points[c], power[c]))
            v = -(points[pid] + points[reply]) - (10.0 if last else 0.0)
        else:
            reply = min(card_ids(answers), key=lambda c: (points[c], power[c]))
            v = points[pid] + points[reply] + (10.0 if last else 0.0)
        is_trump = (table.trump_mask >> pid) & 1
        if is_trump:
            if my_trumps > opp_trumps > 0 and (table.trump_mask >> reply) & 1:
                v += 6.0  # drawing his trumps frees the plain winners
            elif not beat:
                v -= 2.0
            else:
                v -= 4.0
        values.append((v - 0.01 * power[pid] - 0.001 * i, i))
    return values


def _declare(state: StockDeal, tb: StockHeuristicTables, ids: tuple[int, ...], skill: int) -> int:
    return max(_declare_values(state, tb, ids, skill))[1]


def _declare_values(
    state: StockDeal, tb: StockHeuristicTables, ids: tuple[int, ...], skill: int
) -> list[tuple[float, int]]:
    actions = tb.compiled.action_table
    kinds = actions.kind
    stock_n = len(state.stock) + (1 if state.turn_up >= 0 else 0)
    melds = [i for i in ids if kinds[i] == _MELD]
    options: list[tuple[float, int]] = []
    points = tb.kind_points
    for i in ids:
        c = kinds[i]
        if c == _MELD:
            k = actions.meld_kind[i]
            v = float(points[k]) + 0.01 * tb.n_star[i]
            if skill >= FAST and stock_n >= 6:
                for j in melds:
                    kj = actions.meld_kind[j]
                    if (
                        j != i
                        and tb.classes[kj] == tb.classes[k]
                        and tb.classes[k]
                        and tb.levels[kj] < tb.levels[k]
                        and tb.meld_faces[j] & ~tb.meld_faces[i] == 0
                    ):
                        v = min(v, float(points[kj]) - 1.0)  # the smaller meld first, the bigger one later
            options.append((v, i))
        elif c == _EXCHANGE:
            up = state.turn_up
            bonus = 0.0
            if up >= 0:
                f = tb.rules.deck.face_of[up]
                bonus = 3.0 + (4.0 if tb.rank[f] in (_ACE, _TEN) else 0.0)
            options.append((10.0 + bonus + 0.5, i))
        elif c == _DECLARE:
            options.append((10.0, i))
        elif c == _CARTE:
            options.append((1000.0, i))
        elif c == _PASS:
            options.append((0.0, i))
    return options


def stock_evaluate(state: StockDeal, weight: float = 0.6, holding: float = 0.5) -> tuple[float, ...]:
    """An estimate of each player's final points in a stock-game deal still in play: the
    points scored, the card points already won (when they count at the end of the deal),
    ``weight`` times the meld prospects of his hand, and what the cards held are worth in
    tricks to come (``holding`` times their card points, a little for each trump, most of
    an unscored trump seven while the stock lasts). Used by the search to cut rollouts
    short; it reads every hand, so it is meant for a world from `determinize`."""
    tb = stock_tables(state.rules)
    n = tb.rules.players
    points = tb.compiled.scoring.card_values
    rules = tb.rules
    at_end = rules.stock.card_timing != "immediate"
    trump = state.trump
    insts = tb.instances[trump]
    masks = tb.compiled.index.face_masks
    seen_all = state.turn_up if state.turn_up >= 0 else -1
    played = 0
    for w in state.won:
        played |= w
    for c in state.trick:
        played |= 1 << c
    stock_n = len(state.stock) + (1 if state.turn_up >= 0 else 0)
    draws = stock_n / n
    trump_mask = rules.trump_tables[trump].trump_mask
    dix = rules.stock.dix
    dix_face = tb.compiled.declaring.dix_faces[trump] if trump >= 0 else -1
    dix_mask = masks[dix_face] if dix_face >= 0 else 0
    out = []
    for p in range(n):
        total = float(state.points[p].total)
        if at_end:
            total += sum(points[c] for c in card_ids(state.won[p]))
        hand = state.hands[p]
        if holding:
            total += holding * sum(points[c] for c in card_ids(hand)) + 3.0 * (hand & trump_mask).bit_count()
            if dix is not None and stock_n and hand & dix_mask & ~state.scored:
                total += 0.8 * dix.points * (hand & dix_mask & ~state.scored).bit_count()
        if draws > 0:
            seen = hand | played
            for q in range(n):
                if q != p:
                    seen |= state.known[q]
            if seen_all >= 0:
                seen |= 1 << seen_all
            unseen = tb.rules.deck.full_mask & ~seen
            un = unseen.bit_count()
            per = min(1.0, draws / un) if un else 0.0
        else:
            unseen, per = 0, 0.0
        mine = [(k, mk) for q, k, mk in state.declarations if q == p]
        blocked: dict[int, int] = {}
        ready = max(weight, 1.0 - 0.5**draws) if weight else 0.0
        prospects = 0.0
        best: dict[int, float] = {}
        for inst in insts:
            kind = inst.kind
            closed = blocked.get(kind)
            if closed is None:
                closed = 0
                if mine:
                    barred = tb.blocked_by[kind]
                    for k, mk in mine:
                        if k in barred:
                            closed |= mk
                blocked[kind] = closed
            fresh = hand & ~closed
            if not fresh & inst.phys:
                continue
            chance = 1.0
            complete = True
            for f, need in inst.needs:
                have = (fresh & masks[f]).bit_count()
                if have < need:
                    complete = False
                    if per == 0.0:
                        chance = 0.0
                        break
                    u = (unseen & masks[f]).bit_count()
                    if u < need - have:
                        chance = 0.0
                        break
                    chance *= (1.0 - (1.0 - per) ** u) ** (need - have)
            if chance:
                v = weight * inst.points * chance
                if complete and mine and stock_n and _grows(tb, kind, mine, hand, inst.phys):
                    # the second step of a planned pair (a royal marriage already declared, the
                    # sequence in hand): it needs only one more trick won before the stock runs out
                    v = ready * inst.points
                if tb.many[kind]:
                    if v > best.get(kind, 0.0):
                        best[kind] = v
                else:
                    prospects += v
        prospects += sum(best.values())
        if stock_n == 0:
            prospects = 0.0
        out.append(total + prospects)
    return tuple(out)


def _grows(tb: StockHeuristicTables, kind: int, declared: list[tuple[int, int]], hand: int, phys: int) -> bool:
    """A meld of ``kind`` would grow one of the ``declared`` melds still held whole (its cards
    among the copies ``phys`` the meld uses)."""
    lower = tb.upgrade_of[kind]
    return any(k in lower and mk & hand == mk and mk & phys for k, mk in declared)


# -- the stock engine's strategy for the agents ------------------------------------------------


def _stock(state: DealState) -> StockDeal:
    """The deal as the stock engine's (the registry only hands this strategy stock deals)."""
    return cast(StockDeal, state)


def _heuristic(world: DealState, view: PlayerView, rng: random.Random, strength: Strength) -> Action:
    skill = FULL if strength == "full" else MEDIUM if strength == "medium" else WEAK
    return world.rules.action_space.actions[stock_action(_stock(world), rng, skill)]


def _reward_scale(rules: RuleSet) -> float:
    if rules.stock.result is not None:
        return 1000.0
    total = sum(rules.card_values) + rules.card_points.last_trick
    return max(100.0, 2.0 * total)


def _heuristic_rollout(state: DealState, rng: random.Random) -> int:
    return stock_action(_stock(state), rng, FULL)


def _fast_rollout(state: DealState, rng: random.Random) -> int:
    return stock_action(_stock(state), rng, FAST)


def _rollouts(kind: RolloutKind) -> Rollout | None:
    return _heuristic_rollout if kind == "heuristic" else _fast_rollout if kind == "fast" else None


def _ranking(state: DealState, rng: random.Random) -> list[int]:
    return stock_ranking(_stock(state), rng)


def _endgame(state: DealState, nodes: int) -> dict[int, int] | None:
    deal = _stock(state)
    return playoff_values(deal, nodes) if deal.stage is Phase.PLAYOFF else None


def _clock(state: DealState) -> int:
    return _stock(state).tricks


def _estimate(state: DealState, weight: float, holding: float) -> tuple[float, ...] | None:
    """The estimate between tricks (not mid-trick, not while the winner declares)."""
    deal = _stock(state)
    if deal.trick or deal.stage is Phase.DECLARE:
        return None
    return stock_evaluate(deal, weight, holding)


def _likelihood(state: DealState, me: int, decisions: int, mismatch: float) -> float:
    """How well the world explains the opponents' recent play: ``mismatch`` to the power of how
    many of their last ``decisions`` stock-phase choices the heuristic would not have made
    holding the world's cards (the deal is replayed from the world's deck)."""
    world = _stock(state)
    rules = world.rules
    moves = world.moves
    wanted = []
    for index in range(len(moves) - 1, -1, -1):
        if moves[index][0] != me:
            wanted.append(index)
            if len(wanted) >= 3 * decisions:
                break
    if not wanted:
        return 1.0
    deck = [rules.deck.card(pid) for pid in world.deck_order]
    try:
        replayed = new_deal(rules, deck=deck, dealer=world.dealer)
    except BeziqueRulesError:
        return 1.0
    deal = _stock(replayed)
    first = min(wanted)
    rng = random.Random(0)
    weight = 1.0
    checked = 0
    pass_id = rules.action_space.ids[Action(Verb.PASS)]
    for index, (who, action) in enumerate(moves):
        if deal.stage is Phase.DECLARE and action not in deal.legal_action_ids():
            # in this world the trick winner could have declared, but the real one could not
            if who != me and index >= first and stock_action(deal, rng, FULL) != pass_id:
                weight *= mismatch
            deal = deal.apply(pass_id, check=False)
        if action not in deal.legal_action_ids():
            return weight  # the world does not replay: judge it on what was seen so far
        if (
            index >= first
            and index in wanted
            and checked < decisions
            and deal.stage is Phase.PLAY
            and len(deal.legal_action_ids()) > 1
        ):
            checked += 1
            if stock_action(deal, rng, FULL) != action:
                weight *= mismatch
        deal = deal.apply(action, check=False)
    return weight


STRATEGY = AgentStrategy(
    "stock",
    _heuristic,
    _reward_scale,
    rollouts=_rollouts,
    ranking=_ranking,
    endgame=_endgame,
    clock=_clock,
    estimate=_estimate,
    likelihood=_likelihood,
)
"""What the computer players know of the stock games: the heuristic, its rollouts and ranking,
the exact play-off, the estimate that cuts rollouts short and the likelihood of a world."""
