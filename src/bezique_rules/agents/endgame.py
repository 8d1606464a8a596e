"""Exact play-off for two-player stock games: once the stock is gone, nothing is hidden.

After the last draw every card is either in the player's hand, in a trick, or
in the opponent's hand, so a world from `bezique_rules.determinize` is the true
deal. The last tricks are then a perfect-information game: a minimax search
over the card points still to be won (and the last-trick bonus) finds the best
card. Identical cards are searched once.
"""

from __future__ import annotations

from collections.abc import Callable

from ..bits import lowest_bit
from ..deck import card_ids
from ..engine.stock import StockDeal
from ..state.deal import Phase

__all__ = ["playoff_values"]


def playoff_values(state: StockDeal, node_limit: int = 200_000) -> dict[int, int] | None:
    """The exact value of each legal play for the player to move, in card points from his side
    (what he will win minus what the opponent will win in the rest of the play-off).

    Returns None when the state is not a two-player play-off or the search would exceed
    ``node_limit`` positions.
    """
    if state.stage is not Phase.PLAYOFF or state.rules.players != 2:
        return None
    rules = state.rules
    table = rules.trump_tables[state.trump]
    legal_of = rules.playoff_policy.legal
    values = rules.card_values
    face_of = rules.deck.face_of
    bonus = rules.card_points.last_trick if rules.stock.last_trick_bonus_at == "final" else 0
    beats = table.beats
    memo: dict[tuple[int, int], int] = {}
    count = [0]

    def distinct(mask: int) -> list[int]:
        seen = 0
        out = []
        for c in card_ids(mask):
            bit = 1 << face_of[c]
            if not seen & bit:
                seen |= bit
                out.append(c)
        return out

    def follow(c: int, hl: int, hf: int, floor: int) -> int:
        """The leader's value once he has led ``c`` (``hl`` without it) against ``hf``; the
        search stops as soon as it is at most ``floor`` (the lead is then no better)."""
        worst = 1 << 30
        last = hl == 0
        for f in distinct(legal_of(table, hf, (c,))):
            pts = values[c] + values[f] + (bonus if last else 0)
            hf2 = hf & ~(1 << f)
            if beats(f, c):
                v = -pts - (lead(hf2, hl) if hf2 else 0)
            else:
                v = pts + (lead(hl, hf2) if hl else 0)
            if v < worst:
                worst = v
                if worst <= floor:
                    break
        return worst

    def lead(hl: int, hf: int) -> int:
        """The value for the player to lead with hand ``hl`` against ``hf``."""
        key = (hl, hf)
        found = memo.get(key)
        if found is not None:
            return found
        count[0] += 1
        if count[0] > node_limit:
            raise _TooBig
        best = -(1 << 30)
        for c in distinct(hl):
            v = follow(c, hl & ~(1 << c), hf, best)
            if v > best:
                best = v
        memo[key] = best
        return best

    me = state.player
    opp = 1 - me
    ids = state.legal_action_ids()
    hand = state.hands[me]
    out: dict[int, int] = {}
    pick: Callable[[int], int] = _picker(state)
    try:
        if state.trick:
            led = state.trick[0]
            for i in ids:
                f = pick(i)
                mine = hand & ~(1 << f)
                pts = values[led] + values[f] + (bonus if not mine else 0)
                if beats(f, led):
                    out[i] = pts + (lead(mine, state.hands[opp]) if mine else 0)
                else:
                    out[i] = -pts - (lead(state.hands[opp], mine) if mine else 0)
        else:
            for i in ids:
                c = pick(i)
                out[i] = follow(c, hand & ~(1 << c), state.hands[opp], -(1 << 30))
    except _TooBig:
        return None
    return out


class _TooBig(Exception):
    """The search would be too large."""


def _picker(state: StockDeal) -> Callable[[int], int]:
    """Action id -> the physical card the play uses (the play-off has no table)."""
    rules = state.rules
    actions = rules.action_space.actions
    deck = rules.deck
    hand = state.hands[state.player]

    def pick(action_id: int) -> int:
        face = deck.face(actions[action_id].cards[0])
        copies = hand & deck.face_masks[face]
        return lowest_bit(copies)

    return pick
