"""The ``marriage`` engine: the closing games (Sixty-six, Schnapsen), trick and draw with a
stock that may be closed, marriages announced on lead, and "out" claimed at 66.

The engine only sequences; every rule it applies is read from the rule set's parts: the trick
policies (`RuleSet.stock_policy` while the stock is open, `RuleSet.playoff_policy` once it is
closed or exhausted), `CardPoints`, and the `ClosingGame` parts (`MarriageOnLead`,
`TrumpExchange`, `Closing`, `OutClaim`, `GamePoints`) of `RuleSet.closing_game`.

A deal goes: the player on lead may exchange the lowest trump for the turn-up, close the stock,
announce a marriage (then he leads its king or queen) or claim "out", and leads; the other
follows; the winner draws first, then the loser (the turn-up is the last card drawn). When the
stock is closed or exhausted the play-off duties apply. The deal ends with a claim, or when the
cards run out; its `DealState.scores` are the game points it gives (0 until it ends), its
`MarriageDeal.points` the points of cards and marriages so far.

The state record, `MarriageCore` (one NamedTuple; transitions build the next one with
``_replace``, by field name):

- ``stage``: `Phase.PLAY` while the stock is open, `Phase.PLAYOFF` once it is closed or
  exhausted, `Phase.OVER` at the end.
- ``player``: who is to act (-1 once over).
- ``leader``: who leads (or led) the current trick.
- ``hands``: per player, the mask of held cards (physical ids).
- ``won``: per player, the mask of cards won in tricks.
- ``tricks``: per player, how many tricks he has won.
- ``trick``: the current trick's cards in play order.
- ``last_trick`` / ``last_leader``: the previous trick and its leader (empty / -1 before).
- ``stock``: the face-down stock, top first (the turn-up not in it).
- ``turn_up``: the turned trump card (physical id), -1 once it is drawn.
- ``trump``: the trump suit (0-3).
- ``card_points``: per player, the points of the cards won.
- ``marriages``: every marriage announced, as `Announced` (player, suit, points).
- ``announced``: the suit of the marriage the player on lead has just announced (he must lead
  its king or queen), or -1.
- ``known``: per player, the held cards everybody has seen (a marriage's other card, the
  turn-up taken by exchange or drawn last).
- ``ruled_out``: per player, the cards the strict play showed he cannot hold (for
  `determinize`).
- ``closed_by``: who closed the stock (-1: nobody).
- ``closed_against_trickless``: whether the closer's opponent had taken no trick when the stock
  was closed (a failed closing then costs more).
- ``closed_opponent_points``: the closer's opponent's points when the stock was closed (what a
  closer who goes out scores, `Closing.worth_at`).
- ``last_trick_bonus``: who took the last-trick bonus (-1: nobody).
- ``outcome``: how the deal ended (`Outcome`), or None while it goes on.
- ``moves``: every action so far, as ``(player, action_id)`` pairs.
"""

from __future__ import annotations

import random
from typing import Literal, NamedTuple, TypeAlias

import attrs
from typing_extensions import Self

from ..actions import Action, ActionKind, ActionNumbering, ActionSpace, ActionTable, Verb
from ..bits import iter_bits
from ..cards import Card, CardSet, Rank, Suit
from ..checks import check_seat
from ..deck import card_ids
from ..errors import OptionError, RuleCode
from ..parts.closing import ClosingGame
from ..parts.scoring import ScoreBreakdown
from ..parts.trumps import TrumpTable
from ..rules.ruleset import RuleSet, part_of
from ..state.deal import DealSetup, DealState, Move, Phase, PlayerView, TableMeld, relabel_masks, relabel_seq
from ..state.knowledge import sample_hidden, swap_walk
from .fields import CoreField, with_item

__all__ = ["ENGINE", "Announced", "MarriageCore", "MarriageDeal", "MarriageEngine", "MarriageTables", "Outcome"]

Ending: TypeAlias = Literal["out", "false-out", "closing-made", "closing-failed", "cards-out", "no-score"]
"""How a deal ended: a good claim, a false claim, a closing made or failed (cards run out after
a closing), the cards run out without a claim (a winner by the `OutClaim.at_end` rule), or
nobody winning it (nobody reached the target, or equal totals under ``"higher_total"``)."""


class Announced(NamedTuple):
    """A marriage announced on lead."""

    player: int
    """Who announced it."""
    suit: int
    """Its suit (0-3)."""
    points: int
    """What it is worth (counted once the player has won a trick)."""


class Outcome(NamedTuple):
    """How a deal ended."""

    winner: int
    """Who won the deal (-1: nobody scored)."""
    game_points: int
    """The game points the winner scores."""
    ending: Ending
    """Why the deal ended."""


class MarriageCore(NamedTuple):
    """What changes during a deal of a closing game (see the module docstring, field by field)."""

    stage: Phase
    player: int
    leader: int
    hands: tuple[int, ...]
    won: tuple[int, ...]
    tricks: tuple[int, ...]
    trick: tuple[int, ...]
    last_trick: tuple[int, ...]
    last_leader: int
    stock: tuple[int, ...]
    turn_up: int
    trump: int
    card_points: tuple[int, ...]
    marriages: tuple[Announced, ...]
    announced: int
    known: tuple[int, ...]
    ruled_out: tuple[int, ...]
    closed_by: int
    closed_against_trickless: bool
    closed_opponent_points: int
    last_trick_bonus: int
    outcome: Outcome | None
    moves: tuple[Move, ...]


# -- the compiled tables ----------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class MarriageActionIndex:
    """The ids of each card's and suit's actions, and what the shared `ActionTable` does not
    say of an id (its kind and suit are in `MarriageTables.action_table`)."""

    card: tuple[int, ...]
    """Action id -> the physical card played or exchanged (-1: none)."""
    trump_marriage: tuple[bool, ...]
    """Action id -> whether it is the marriage in trumps (``royal-marriage``)."""
    play_id: tuple[int, ...]
    """Physical id -> the id of the action that plays it."""
    marriage_id: tuple[tuple[int, int], ...]
    """Suit -> (id of its plain marriage, id of its marriage in trumps)."""
    exchange_id: tuple[int, ...]
    """Suit -> the id of exchanging that suit's exchange card (-1: no exchange)."""
    close_id: int
    """The id of ``close`` (-1: closing not allowed)."""
    out_id: int
    """The id of ``out``."""


@attrs.frozen(kw_only=True)
class CardIndex:
    """Per-card and per-suit lookups."""

    values: tuple[int, ...]
    """Physical id -> its points when won."""
    king: tuple[int, ...]
    """Suit -> the physical id of its king."""
    queen: tuple[int, ...]
    """Suit -> the physical id of its queen."""
    exchange_card: tuple[int, ...]
    """Suit -> the physical id of its exchange card (-1: no exchange)."""


@attrs.frozen(kw_only=True)
class MarriageTables:
    """What the engine compiled for one rule set (held by `RuleSet.tables`)."""

    actions: ActionSpace
    """The numbered actions."""
    action_table: ActionTable
    """What each action id does, column by column (the shape every engine compiles)."""
    index: MarriageActionIndex
    """What each action id does, and the ids of each card's and suit's actions."""
    cards: CardIndex
    """Per-card and per-suit lookups."""
    parts: ClosingGame
    """The rule set's closing-game parts (checked once here)."""
    last_trick: int
    """The last-trick bonus of the card points."""


MARRIAGE_KINDS = ("common-marriage", "royal-marriage")
"""The meld kinds of a marriage: in a plain suit, in trumps (the Bezique names)."""


class MarriageEngine:
    """Deals of the closing games (see the module docstring)."""

    name = "marriage"

    def compile(self, rules: RuleSet) -> MarriageTables:
        """The numbered actions and lookups for ``rules``.

        Raises:
            OptionError: ``rules`` is not a two-player one-pack game with a turn-up and
                closing-game parts, or its deck lacks a king, queen or exchange card in a suit.
        """
        parts = part_of(rules, rules.closing_game, ClosingGame)
        deck = rules.deck
        if rules.players != 2 or deck.packs != 1 or deck.extras or not rules.deal.turn_up or rules.partnership:
            raise OptionError(
                f"{rules.name!r}: the 'marriage' engine plays two players, one pack without extra cards and a turn-up"
            )
        cards = deck.cards

        def pid(suit: Suit, rank: Rank) -> int:
            card = Card(suit, rank)
            if card not in cards:
                raise OptionError(f"{rules.name!r}: the 'marriage' engine needs {card} in the deck")
            return cards.index(card)

        suits = tuple(Suit(s) for s in range(4))
        king = tuple(pid(s, Rank.KING) for s in suits)
        queen = tuple(pid(s, Rank.QUEEN) for s in suits)
        exchange = parts.exchange
        exchange_card = tuple(pid(s, exchange.rank) if exchange is not None else -1 for s in suits)
        numbering = ActionNumbering[tuple[ActionKind, int, int, bool]]()  # kind, card, suit, royal
        for c in deck.faces:
            numbering.add(Action.make(Verb.PLAY, [c]), (ActionKind.PLAY, cards.index(c), -1, False))
        marriage_id: list[tuple[int, int]] = []
        for s in suits:
            pair = (cards[king[s.value]], cards[queen[s.value]])
            ids = [
                numbering.add(Action.make(Verb.MELD, pair, meld=kind), (ActionKind.MELD, -1, s.value, bool(royal)))
                for royal, kind in enumerate(MARRIAGE_KINDS)
            ]
            marriage_id.append((ids[0], ids[1]))
        exchange_id = [-1] * 4
        if exchange is not None:
            for s in suits:
                card = exchange_card[s.value]
                exchange_id[s.value] = numbering.add(
                    Action.make(Verb.EXCHANGE, [cards[card]]), (ActionKind.EXCHANGE, card, s.value, False)
                )
        close_id = -1
        if parts.closing is not None:
            close_id = numbering.add(Action(Verb.CLOSE), (ActionKind.CLOSE, -1, -1, False))
        out_id = numbering.add(Action(Verb.OUT), (ActionKind.OUT, -1, -1, False))
        meta = numbering.meanings
        space = numbering.space()
        play_id = tuple(space.ids[Action.make(Verb.PLAY, [c])] for c in cards)
        return MarriageTables(
            actions=space,
            action_table=ActionTable.of(
                (m[0] for m in meta),
                face=(deck.face_of[m[1]] if m[0] is ActionKind.PLAY else -1 for m in meta),
                suit=(m[2] for m in meta),
            ),
            index=MarriageActionIndex(
                card=tuple(m[1] for m in meta),
                trump_marriage=tuple(m[3] for m in meta),
                play_id=play_id,
                marriage_id=tuple(marriage_id),
                exchange_id=tuple(exchange_id),
                close_id=close_id,
                out_id=out_id,
            ),
            cards=CardIndex(
                values=rules.card_points.per_card(deck), king=king, queen=queen, exchange_card=exchange_card
            ),
            parts=parts,
            last_trick=rules.card_points.last_trick,
        )

    def new_deal(self, rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> MarriageDeal:
        """The deal of ``order`` (physical ids, top first), dealt by the rule set's `DealPattern`."""
        tables = rules.tables
        assert isinstance(tables, MarriageTables)  # compiled by this engine for this rule set
        hands, _widow, turn_up, stock = rules.deal.deal(order, 2, dealer)
        suit = rules.deck.cards[turn_up].suit
        assert suit is not None  # compile() refused decks with extra (suitless) cards
        first = (dealer + 1) % 2
        core = MarriageCore(
            stage=Phase.PLAY,
            player=first,
            leader=first,
            hands=hands,
            won=(0, 0),
            tricks=(0, 0),
            trick=(),
            last_trick=(),
            last_leader=-1,
            stock=stock,
            turn_up=turn_up,
            trump=suit.value,
            card_points=(0, 0),
            marriages=(),
            announced=-1,
            known=(0, 0),
            ruled_out=(0, 0),
            closed_by=-1,
            closed_against_trickless=False,
            closed_opponent_points=0,
            last_trick_bonus=-1,
            outcome=None,
            moves=(),
        )
        return MarriageDeal(DealSetup(rules, order, seed, dealer, tables), core)


ENGINE = MarriageEngine()
"""The engine registered under ``"marriage"``."""


@attrs.frozen(repr=False)
class MarriageDeal(DealState):
    """A deal of a closing game: immutable; `DealState` supplies the public interface."""

    setup: DealSetup[MarriageTables]
    """The rules, the deck order, the seed, the dealer and the compiled tables."""
    core: MarriageCore
    """What changes."""
    _legal: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False, alias="_legal")
    """The legal action ids, once asked for."""

    def _table(self) -> TrumpTable:
        return self.setup.rules.trump_tables[self.core.trump]

    # -- points and results --

    @property
    def points(self) -> tuple[int, int]:
        """Per player: the points that count toward 66 now (cards won, marriages once the
        player has won a trick, the last-trick bonus)."""
        c = self.core
        bonus = self.setup.tables.last_trick
        out = [c.card_points[q] + (bonus if c.last_trick_bonus == q else 0) for q in range(2)]
        for m in c.marriages:
            if c.tricks[m.player]:
                out[m.player] += m.points
        return out[0], out[1]

    @property
    def closed(self) -> bool:
        """Whether the stock has been closed."""
        return self.core.closed_by >= 0

    outcome = CoreField[Outcome | None]("outcome")
    """How the deal ended (None while it goes on)."""

    @property
    def scores(self) -> tuple[int, ...]:
        """The game points of the deal per player (0 until it ends)."""
        o = self.core.outcome
        if o is None or o.winner < 0:
            return (0, 0)
        return with_item((0, 0), o.winner, o.game_points)

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        """The game points, as the deal's contract points."""
        return tuple(ScoreBreakdown(contract=s) for s in self.scores)

    # -- legality --

    def _on_lead(self) -> bool:
        c = self.core
        return c.stage is not Phase.OVER and not c.trick

    def _may_announce(self, p: int) -> bool:
        """Whether ``p`` (on lead) may announce a marriage now (`MarriageOnLead.timing` and
        `MarriageOnLead.after_stock`)."""
        rule = self.setup.tables.parts.marriage
        if not rule.after_stock and self.core.stage is not Phase.PLAY:
            return False
        return rule.timing == "first_lead" or bool(self.core.tricks[p])

    def _may_claim(self) -> bool:
        """Whether the player on lead, before leading or announcing, may claim "out" now
        (`OutClaim.timing`): just after winning a trick, so not at the deal's first lead."""
        return self.setup.tables.parts.out.timing == "on_lead" or bool(self.core.last_trick)

    def _compute_legal(self) -> tuple[int, ...]:
        c = self.core
        if c.stage is Phase.OVER:
            return ()
        m = self.setup.tables
        ix = m.index
        p = c.player
        hand = c.hands[p]
        if c.trick:
            policy = self.setup.rules.stock_policy if c.stage is Phase.PLAY else self.setup.rules.playoff_policy
            return tuple(sorted(ix.play_id[x] for x in iter_bits(policy.legal(self._table(), hand, c.trick))))
        if c.announced >= 0:
            s = c.announced
            return tuple(sorted((ix.play_id[m.cards.king[s]], ix.play_id[m.cards.queen[s]], ix.out_id)))
        out = [ix.play_id[x] for x in iter_bits(hand)]
        if self._may_announce(p):
            for s in range(4):
                if (hand >> m.cards.king[s]) & 1 and (hand >> m.cards.queen[s]) & 1:
                    out.append(ix.marriage_id[s][1 if s == c.trump else 0])
        if self._may_exchange(p):
            out.append(ix.exchange_id[c.trump])
        if self._may_close():
            out.append(ix.close_id)
        if self._may_claim():
            out.append(ix.out_id)
        return tuple(sorted(out))

    def _may_exchange(self, p: int) -> bool:
        c = self.core
        rule = self.setup.tables.parts.exchange
        if rule is None or c.stage is not Phase.PLAY or c.turn_up < 0 or len(c.stock) < rule.min_stock:
            return False
        if rule.needs_trick and not c.tricks[p]:
            return False
        return bool((c.hands[p] >> self.setup.tables.cards.exchange_card[c.trump]) & 1)

    def _may_close(self) -> bool:
        c = self.core
        rule = self.setup.tables.parts.closing
        return rule is not None and c.stage is Phase.PLAY and len(c.stock) >= rule.min_stock

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        c = self.core
        m = self.setup.tables
        ix = m.index
        kind = m.action_table.kind[action_id]
        p = c.player
        if kind is ActionKind.PLAY:
            card = ix.card[action_id]
            if not (c.hands[p] >> card) & 1:
                return RuleCode.CARD_NOT_HELD, "you do not hold that card"
            if not c.trick and c.announced >= 0:
                return RuleCode.NO_DECLARATION_NOW, "after announcing a marriage you lead its king or queen"
            policy = self.setup.rules.stock_policy if c.stage is Phase.PLAY else self.setup.rules.playoff_policy
            why = policy.refusal(self._table(), c.hands[p], c.trick, card)
            return why if why is not None else (RuleCode.WRONG_PHASE, "that card may not be played now")
        if c.trick:
            return RuleCode.WRONG_PHASE, "only the player on lead may do that, before he leads"
        if c.announced >= 0:
            return RuleCode.NO_DECLARATION_NOW, "after announcing a marriage you lead its king or queen"
        if kind is ActionKind.MELD:
            s = m.action_table.suit[action_id]
            if ix.trump_marriage[action_id] != (s == c.trump):
                return RuleCode.NOT_A_MELD, "a marriage in trumps is a royal-marriage, else a common-marriage"
            if not self._may_announce(p):
                if c.stage is not Phase.PLAY:
                    return RuleCode.NO_DECLARATION_NOW, "marriages end once the stock is closed or exhausted"
                return RuleCode.NO_DECLARATION_NOW, "a marriage may be announced only after winning a trick"
            return RuleCode.CARD_NOT_HELD, "you do not hold both the king and the queen"
        if kind is ActionKind.EXCHANGE:
            if m.action_table.suit[action_id] != c.trump:
                return RuleCode.SEVEN_NOT_ALLOWED, "only the trump suit's card is exchanged"
            rule = self.setup.tables.parts.exchange
            trick = " and a trick won" if rule is not None and rule.needs_trick else ""
            return RuleCode.SEVEN_NOT_ALLOWED, f"the exchange needs the card in hand, an open stock{trick}"
        if kind is ActionKind.OUT:
            return RuleCode.NO_DECLARATION_NOW, "'out' is claimed just after winning a trick or announcing a marriage"
        return RuleCode.NO_DECLARATION_NOW, "the stock is closed, exhausted or too small to close"

    # -- apply --

    def _apply_id(self, action_id: int) -> Self:
        c = self.core
        m = self.setup.tables
        ix = m.index
        p = c.player
        moves = c.moves + ((p, action_id),)
        kind = m.action_table.kind[action_id]
        if kind is ActionKind.PLAY:
            return self._play(ix.card[action_id], moves)
        if kind is ActionKind.MELD:
            s = m.action_table.suit[action_id]
            parts = m.parts.marriage
            pair = (1 << m.cards.king[s]) | (1 << m.cards.queen[s])
            return self._next(
                c._replace(
                    marriages=(*c.marriages, Announced(p, s, parts.trump if s == c.trump else parts.plain)),
                    announced=s,
                    known=with_item(c.known, p, c.known[p] | pair),
                    moves=moves,
                )
            )
        if kind is ActionKind.EXCHANGE:
            low = ix.card[action_id]
            hand = (c.hands[p] & ~(1 << low)) | (1 << c.turn_up)
            return self._next(
                c._replace(
                    hands=with_item(c.hands, p, hand),
                    turn_up=low,
                    known=with_item(c.known, p, (c.known[p] & ~(1 << low)) | (1 << c.turn_up)),
                    moves=moves,
                )
            )
        if kind is ActionKind.CLOSE:
            return self._next(
                c._replace(
                    stage=Phase.PLAYOFF,
                    closed_by=p,
                    closed_against_trickless=not c.tricks[1 - p],
                    closed_opponent_points=self.points[1 - p],
                    moves=moves,
                )
            )
        return self._next(c._replace(stage=Phase.OVER, player=-1, outcome=self._claim(p), moves=moves))

    def _claim(self, p: int) -> Outcome:
        """The outcome of ``p`` claiming "out" now."""
        c = self.core
        parts = self.setup.tables.parts
        gp = parts.game_points
        o = 1 - p
        points = self.points
        if points[p] < parts.out.target:
            fine = gp.false_claim(bool(c.tricks[o]))
            if c.closed_by == p:  # the closer's claim was false: his closing failed too
                fine = max(fine, gp.fine(not c.closed_against_trickless))
            return Outcome(o, fine, "false-out")
        worth = self._closer_worth() if c.closed_by == p else gp.worth(points[o], bool(c.tricks[o]))
        if c.closed_by == o:  # the closer's opponent got there first: the closing failed
            worth = max(worth, gp.fine(not c.closed_against_trickless))
        return Outcome(p, worth, "out")

    def _closer_worth(self) -> int:
        """What the closer scores for going out (`Closing.worth_at`)."""
        c = self.core
        parts = self.setup.tables.parts
        o = 1 - c.closed_by
        if parts.closing is not None and parts.closing.worth_at == "at_closing":
            return parts.game_points.worth(c.closed_opponent_points, not c.closed_against_trickless)
        return parts.game_points.worth(self.points[o], bool(c.tricks[o]))

    def _play(self, card: int, moves: tuple[Move, ...]) -> Self:
        c = self.core
        m = self.setup.tables
        rules = self.setup.rules
        p = c.player
        hands = with_item(c.hands, p, c.hands[p] & ~(1 << card))
        known = with_item(c.known, p, c.known[p] & ~(1 << card))
        ruled_out = c.ruled_out
        if c.trick and c.stage is Phase.PLAYOFF:
            ruled_out = with_item(
                ruled_out, p, ruled_out[p] | rules.playoff_policy.excluded(self._table(), c.trick, card)
            )
        if not c.trick:
            return self._next(
                c._replace(player=1 - p, leader=p, hands=hands, known=known, trick=(card,), announced=-1, moves=moves)
            )
        trick = (*c.trick, card)
        winner = (c.leader + self._table().winner(trick)) % 2
        loser = 1 - winner
        won = with_item(c.won, winner, c.won[winner] | (1 << trick[0]) | (1 << card))
        gained = m.cards.values[trick[0]] + m.cards.values[card]
        core = c._replace(
            player=winner,
            leader=winner,
            hands=hands,
            won=won,
            tricks=with_item(c.tricks, winner, c.tricks[winner] + 1),
            trick=(),
            last_trick=trick,
            last_leader=c.leader,
            card_points=with_item(c.card_points, winner, c.card_points[winner] + gained),
            known=known,
            ruled_out=ruled_out,
            moves=moves,
        )
        if core.stage is Phase.PLAY:  # draw: the winner first, the turn-up last
            stock = core.stock
            first = stock[0]
            second = stock[1] if len(stock) > 1 else core.turn_up
            drawn = list(core.hands)
            drawn[winner] |= 1 << first
            drawn[loser] |= 1 << second
            rest = stock[2:] if len(stock) > 1 else ()
            if len(stock) == 1:  # the loser takes the turn-up: the stock is exhausted
                core = core._replace(
                    stage=Phase.PLAYOFF,
                    turn_up=-1,
                    known=with_item(core.known, loser, core.known[loser] | (1 << second)),
                )
            core = core._replace(hands=tuple(drawn), stock=rest)
        if any(core.hands):
            return self._next(core)
        closing = m.parts.closing
        bonus_kept = c.closed_by < 0 or (closing is not None and closing.last_trick_bonus)
        bonus = winner if m.last_trick and bonus_kept else -1
        core = core._replace(last_trick_bonus=bonus)
        ended = self._make(self.setup, core)
        return self._next(core._replace(stage=Phase.OVER, player=-1, outcome=ended._cards_out(winner)))

    def _cards_out(self, last_winner: int) -> Outcome:
        """The outcome when the last trick has been played and nobody claimed."""
        c = self.core
        parts = self.setup.tables.parts
        gp = parts.game_points
        points = self.points
        target = parts.out.target
        if c.closed_by >= 0:
            closer = c.closed_by
            closing = parts.closing
            # "must_go_out": the closer can go out only just after winning a trick, so only
            # by taking the last one; with the target before it and the last trick lost he
            # can no longer claim, and his closing failed
            goes_out = closing is None or closing.played_out == "count" or last_winner == closer
            if points[closer] >= target and goes_out:
                return Outcome(closer, self._closer_worth(), "closing-made")
            return Outcome(1 - closer, gp.fine(not c.closed_against_trickless), "closing-failed")
        if parts.out.at_end == "last_trick":
            w = last_winner
        elif parts.out.at_end == "higher_total":
            if points[0] == points[1]:
                return Outcome(-1, 0, "no-score")
            w = 0 if points[0] > points[1] else 1
        else:
            reached = [q for q in range(2) if points[q] >= target]
            if not reached:
                return Outcome(-1, 0, "no-score")
            w = reached[0]
        return Outcome(w, gp.worth(points[1 - w], bool(c.tricks[1 - w])), "cards-out")

    def _next(self, core: MarriageCore) -> Self:
        return self._make(self.setup, core)

    # -- knowledge --

    def view(self, player: int) -> PlayerView:
        rules = self.setup.rules
        player = check_seat(player, 2)
        c = self.core
        deck = rules.deck
        cards = deck.cards
        nothing = CardSet(())
        melds = tuple(
            TableMeld(
                a.player,
                MARRIAGE_KINDS[1 if a.suit == c.trump else 0],
                CardSet((cards[self.setup.tables.cards.king[a.suit]], cards[self.setup.tables.cards.queen[a.suit]])),
                a.points,
            )
            for a in c.marriages
        )
        return PlayerView(
            player=player,
            phase=c.stage,
            current_player=self.current_player,
            dealer=self.setup.dealer,
            hand=CardSet(deck.cards_of(c.hands[player])),
            hand_sizes=tuple(h.bit_count() for h in c.hands),
            tabled=(nothing, nothing),
            known=tuple(CardSet(deck.cards_of(k)) for k in c.known),
            trick=tuple(cards[x] for x in c.trick),
            trick_leader=c.leader,
            last_trick=tuple(cards[x] for x in c.last_trick),
            last_trick_leader=c.last_leader,
            trump=Suit(c.trump),
            turn_up=cards[c.turn_up] if c.turn_up >= 0 else None,
            stock_size=len(c.stock),
            scores=self.scores,
            melds=melds,
            won=tuple(CardSet(deck.cards_of(w)) for w in c.won),
            history=self.history,  # every action is public; draws are not actions
            rules=rules,
            legal=self.legal_actions() if self.current_player == player else (),
        )

    def _public_ids(self) -> int:
        c = self.core
        out = super()._public_ids() | (1 << c.turn_up if c.turn_up >= 0 else 0)
        for k in c.known:
            out |= k
        return out

    def _determinize(self, player: int, rng: random.Random) -> Self:
        """A world ``player`` cannot tell from this deal: the opponent's cards nobody has seen
        and the face-down stock dealt again among their places.

        What it samples: uniformly among the deals that keep the voids the strict play
        showed (``ruled_out``: once the stock is closed or exhausted, a card not followed or
        not trumped shows what the opponent does not hold), by rejection
        (`knowledge.sample_hidden`), then `knowledge.deal_hidden` when shuffles keep failing.
        The known cards (a marriage's other card, the turn-up taken or drawn) stay. A deck
        of single cards: the world's record gives it back exactly."""
        c = self.core
        o = 1 - player
        unknown = card_ids(c.hands[o] & ~c.known[o])
        places = [list(unknown), list(c.stock)]
        slots = [(len(unknown), c.ruled_out[o]), (len(c.stock), 0)]
        dealt = sample_hidden([*unknown, *c.stock], slots, rng)
        if dealt is None:  # the deal does not fit its own voids: cannot happen for a legal deal
            dealt = swap_walk(places, [forbid for _, forbid in slots], lambda _: True, rng, 100)
        perm = dict(zip(places[0], dealt[0]))
        perm.update(zip(places[1], dealt[1]))
        return self._relabel(perm)

    def _relabel(self, perm: dict[int, int]) -> Self:
        """This deal with its cards renamed by ``perm`` (a permutation of physical ids; ids it
        leaves out stay) wherever a card is named: the deck as dealt, the hands, the stock and
        turn-up, the tricks, the cards won and the known cards. For cards nobody has seen:
        the moves (plays name cards) and the voids the play showed (``ruled_out``, read from
        the plays) stay. The seed goes (the deck is no longer the seed's)."""
        c = self.core

        core = c._replace(
            hands=relabel_masks(c.hands, perm), won=relabel_masks(c.won, perm), trick=relabel_seq(c.trick, perm),
            last_trick=relabel_seq(c.last_trick, perm), stock=relabel_seq(c.stock, perm),
            turn_up=perm.get(c.turn_up, c.turn_up), known=relabel_masks(c.known, perm),
        )  # fmt: skip
        setup = self.setup
        order = relabel_seq(setup.deck_order, perm)
        return type(self)(DealSetup(setup.rules, order, None, setup.dealer, setup.tables), core)
