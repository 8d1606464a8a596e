"""A complete engine of your own, registered from outside the package, and played.

Run it with ``python examples/custom_engine.py``. The game, "no-stock duel", is a two-hand
trick game without a stock: 24 cards (A T K Q J 9 of each suit), ten to each player, the next
card turned face up to fix trumps, and the last three cards put aside face down unseen (the
blind). Ten tricks are played under the rule set's trick policy (follow suit, beat the lead if
able, else trump); cards won count A 11, T 10, K 4, Q 3, J 2, and the last trick 10. A game
goes to 250.

The engine only sequences the deal (deal, tricks, over). Everything else is read from the
rule set's parts: who may play what (`TrickPolicy`), who wins a trick (`TrumpTable`), what
cards are worth (`CardPoints`), how the deal is laid out (`DealPattern`) and when a game ends
(`TargetEnd`). The docs' how-to "Add a phase or a new engine" walks through this file.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import NamedTuple

import attrs
from typing_extensions import Self

from bezique_rules import (
    Action,
    ActionKind,
    ActionSpace,
    CardSet,
    DealState,
    IllegalActionError,
    OptionError,
    OptionSpec,
    Phase,
    PlayerView,
    Rank,
    RuleCode,
    RuleSet,
    Suit,
    Verb,
    available_variants,
    determinize,
    get_rules,
    level,
    new_deal,
    new_game,
    record_of,
    register_variant,
    replay,
)
from bezique_rules.bits import bit_ids, iter_bits
from bezique_rules.deck import DealPattern, DeckSpec
from bezique_rules.engine.registry import available_engines, register_engine
from bezique_rules.errors import DealError
from bezique_rules.parts.scoring import CardPoints, ScoreBreakdown, TargetEnd
from bezique_rules.parts.tricks import PlayDuty, TrickPolicy
from bezique_rules.parts.trumps import TrumpOrder, TrumpTable
from bezique_rules.rules.ruleset import OptionValue
from bezique_rules.state import DealSetup, Move, relabel_seq
from bezique_rules.state.knowledge import deal_hidden

ENGINE_NAME = "no-stock"
"""The name rule sets use to pick this engine (`RuleSet.engine`)."""
VARIANT = "no-stock-duel"
"""The name the variant is registered under."""


# -- the state record: everything that changes during a deal, by name ---------------------------


# --8<-- [start:core]
class NoStockCore(NamedTuple):
    """The changing state of a no-stock deal. Transitions build the next one with ``_replace``."""

    stage: Phase
    """``TRICKS`` while cards are played, then ``OVER``."""
    player: int
    """Who is to act (-1 once the deal is over)."""
    leader: int
    """Who led the current trick."""
    hands: tuple[int, ...]
    """Per player: the mask of cards held (physical ids)."""
    won: tuple[int, ...]
    """Per player: the mask of cards won in tricks."""
    trick: tuple[int, ...]
    """The current trick's cards (physical ids) in play order."""
    last_trick: tuple[int, ...]
    """The previous trick's cards in play order (empty before the first trick is complete)."""
    last_leader: int
    """Who led the previous trick (-1 before the first trick is complete)."""
    points: tuple[int, ...]
    """Per player: the points of the cards won so far."""
    last_winner: int
    """Who won the deal's last trick, once it is over (-1 before)."""
    trump: int
    """The trump suit index (the suit of the turned card)."""
    turn_up: int
    """The turned card (physical id): face up, out of play."""
    blind: tuple[int, ...]
    """The cards put aside face down (physical ids): out of play and seen by nobody."""
    moves: tuple[Move, ...]
    """Every action so far, as ``(player, action_id)`` pairs."""


# --8<-- [end:core]


# -- the compiled tables: built once per rule set, by keyword ------------------------------------


# --8<-- [start:tables]
@attrs.frozen(kw_only=True)
class PlayIndex:
    """The action index: which action id plays which card, and back."""

    play_id: tuple[int, ...]
    """Physical id -> the id of the action that plays it."""
    card: tuple[int, ...]
    """Action id -> the physical id it plays."""
    kinds: tuple[ActionKind, ...]
    """Action id -> what the action does (here: always `ActionKind.PLAY`)."""


@attrs.frozen(kw_only=True)
class NoStockTables:
    """What the engine compiled for one rule set (held by `RuleSet.tables`)."""

    actions: ActionSpace
    """The numbered actions: one ``play`` per card."""
    plays: PlayIndex
    """Action ids and cards."""
    values: tuple[int, ...]
    """Physical id -> its points when won (from the rule set's `CardPoints`)."""
    last_trick: int
    """The bonus for the deal's last trick (from the rule set's `CardPoints`)."""


# --8<-- [end:tables]


# -- the deal state -------------------------------------------------------------------------------


# --8<-- [start:state]
@attrs.frozen(repr=False)
class NoStockDeal(DealState):
    """A no-stock deal: immutable; `DealState` supplies the public interface."""

    setup: DealSetup[NoStockTables]
    """The rules, the deck order, the seed, the dealer and the compiled tables."""
    core: NoStockCore
    """What changes."""
    _legal: tuple[int, ...] | None = attrs.field(default=None, eq=False, repr=False, alias="_legal")
    """The legal action ids, once asked for (`DealState.legal_action_ids` fills it in)."""

    def __repr__(self) -> str:
        return f"NoStockDeal(dealer={self.setup.dealer}, core={self.core!r})"

    def _table(self) -> TrumpTable:
        """The rule set's trick table for this deal's trumps."""
        return self.setup.rules.trump_tables[self.core.trump]

    # --8<-- [end:state]

    # --8<-- [start:legality]
    # -- legality: which ids are legal, and why another one is not --

    def _compute_legal(self) -> tuple[int, ...]:
        c = self.core
        if c.stage is Phase.OVER:
            return ()
        playable = self.setup.rules.playoff_policy.legal(self._table(), c.hands[c.player], c.trick)
        play_id = self.setup.tables.plays.play_id
        return tuple(sorted(play_id[card] for card in iter_bits(playable)))

    def _refusal(self, action_id: int) -> tuple[RuleCode, str]:
        c = self.core
        card = self.setup.tables.plays.card[action_id]
        why = self.setup.rules.playoff_policy.refusal(self._table(), c.hands[c.player], c.trick, card)
        return why if why is not None else (RuleCode.WRONG_PHASE, "that card may not be played now")

    # --8<-- [end:legality]

    # --8<-- [start:apply]
    # -- apply: the next state, for an id already known to be legal --

    def _apply_id(self, action_id: int) -> Self:
        c = self.core
        tables = self.setup.tables
        n = self.setup.rules.players
        card = tables.plays.card[action_id]
        p = c.player
        hands = tuple(h & ~(1 << card) if q == p else h for q, h in enumerate(c.hands))
        trick = (*c.trick, card)
        moves = (*c.moves, (p, action_id))
        if len(trick) < n:
            return self._next(c._replace(player=(p + 1) % n, hands=hands, trick=trick, moves=moves))
        winner = (c.leader + self._table().winner(trick)) % n
        taken = sum(1 << x for x in trick)
        won = tuple(w | taken if q == winner else w for q, w in enumerate(c.won))
        gained = sum(tables.values[x] for x in trick)
        points = tuple(s + gained if q == winner else s for q, s in enumerate(c.points))
        done = not any(hands)
        return self._next(
            c._replace(
                stage=Phase.OVER if done else Phase.TRICKS,
                player=-1 if done else winner,
                leader=winner,
                hands=hands,
                won=won,
                trick=(),
                last_trick=trick,
                last_leader=c.leader,
                points=points,
                last_winner=winner if done else -1,
                moves=moves,
            )
        )

    def _next(self, core: NoStockCore) -> Self:
        return type(self)(self.setup, core)  # its legal ids are worked out when asked for

    # --8<-- [end:apply]

    # -- scores --

    @property
    def breakdown(self) -> tuple[ScoreBreakdown, ...]:
        c = self.core
        bonus = self.setup.tables.last_trick
        return tuple(
            ScoreBreakdown(cards=c.points[q], last_trick=bonus if q == c.last_winner else 0)
            for q in range(self.setup.rules.players)
        )

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(b.total for b in self.breakdown)

    # --8<-- [start:knowledge]
    # -- knowledge: what a player sees, and a full deal consistent with it --

    def view(self, player: int) -> PlayerView:
        rules = self.setup.rules
        n = rules.players
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < n:
            raise DealError(f"player must be a seat from 0 to {n - 1}: {player!r}")
        c = self.core
        deck = rules.deck
        cards = deck.cards
        nothing = CardSet(())
        return PlayerView(
            player=player,
            phase=c.stage,
            current_player=self.current_player,
            dealer=self.setup.dealer,
            hand=CardSet(deck.cards_of(c.hands[player])),
            hand_sizes=tuple(h.bit_count() for h in c.hands),
            tabled=(nothing,) * n,
            known=(nothing,) * n,
            trick=tuple(cards[x] for x in c.trick),
            trick_leader=c.leader,
            last_trick=tuple(cards[x] for x in c.last_trick),
            last_trick_leader=c.last_leader,
            trump=Suit(c.trump),
            turn_up=cards[c.turn_up],
            stock_size=0,  # the blind is never drawn
            scores=self.scores,
            melds=(),
            won=tuple(CardSet(deck.cards_of(w)) for w in c.won),
            history=self.history,  # every play is public
            rules=rules,
            legal=self.legal_actions() if self.current_player == player else (),
        )

    def _ruled_out(self) -> list[int]:
        """Per player: the cards the play shows he cannot hold (the trick policy says which)."""
        rules = self.setup.rules
        n = rules.players
        table = self._table()
        card_of = self.setup.tables.plays.card
        out = [0] * n
        trick: list[int] = []
        for who, action_id in self.core.moves:
            card = card_of[action_id]
            out[who] |= rules.playoff_policy.excluded(table, tuple(trick), card)
            trick = [*trick, card] if len(trick) + 1 < n else []
        return out

    def _determinize(self, player: int, rng: random.Random) -> Self:
        c = self.core
        others = [q for q in range(self.setup.rules.players) if q != player]
        ruled_out = self._ruled_out()
        hidden = [x for q in others for x in bit_ids(c.hands[q])] + list(c.blind)
        slots = [(c.hands[q].bit_count(), ruled_out[q]) for q in others] + [(len(c.blind), 0)]
        dealt = deal_hidden(hidden, slots, rng)
        if dealt is None:  # cannot happen for a state reached by legal play
            return self
        hands = list(c.hands)
        perm: dict[int, int] = {}
        for q, new in zip(others, dealt):
            perm.update(zip(bit_ids(c.hands[q]), sorted(new)))
            hands[q] = sum(1 << x for x in new)
        blind = list(dealt[-1])
        rng.shuffle(blind)
        perm.update(zip(c.blind, blind))
        # The deck order is relabelled the same way, so the guess is a deal of its own deck
        # (its record replays); every played card keeps its place.
        order = relabel_seq(self.setup.deck_order, perm)
        setup = DealSetup(self.setup.rules, order, None, self.setup.dealer, self.setup.tables)
        return type(self)(setup, c._replace(hands=tuple(hands), blind=tuple(blind)))


# --8<-- [end:knowledge]


# -- the engine: compiles tables and deals; registered by name -----------------------------------


# --8<-- [start:engine]
class NoStockEngine:
    """Deals of trick games without a stock (see the module docstring)."""

    name = ENGINE_NAME

    def compile(self, rules: RuleSet) -> NoStockTables:
        """The numbered actions and the lookup tables for ``rules``.

        Raises:
            OptionError: ``rules`` asks for something this engine does not sequence.
        """
        deck = rules.deck
        if deck.packs != 1 or deck.extras or not rules.deal.turn_up or rules.partnership:
            raise OptionError(
                f"{rules.name!r}: the {ENGINE_NAME!r} engine plays one pack without extra cards, "
                "a turned trump card and no partnerships"
            )
        actions = ActionSpace.of(Action.make(Verb.PLAY, [card]) for card in deck.faces)
        play_id = tuple(actions.ids[Action.make(Verb.PLAY, [card])] for card in deck.cards)
        card = tuple(play_id.index(i) for i in range(len(actions)))
        return NoStockTables(
            actions=actions,
            plays=PlayIndex(play_id=play_id, card=card, kinds=(ActionKind.PLAY,) * len(actions)),
            values=rules.card_points.per_card(deck),
            last_trick=rules.card_points.last_trick,
        )

    def new_deal(self, rules: RuleSet, order: tuple[int, ...], seed: int | None, dealer: int) -> NoStockDeal:
        """The deal of ``order`` (physical ids, top first), dealt by the rule set's `DealPattern`."""
        tables = rules.tables
        assert isinstance(tables, NoStockTables)  # compiled by this engine for this rule set
        n = rules.players
        hands, _widow, turn_up, blind = rules.deal.deal(order, n, dealer)
        suit = rules.deck.cards[turn_up].suit
        assert suit is not None  # compile() refused decks with extra (suitless) cards
        first = (dealer + 1) % n
        core = NoStockCore(
            stage=Phase.TRICKS,
            player=first,
            leader=first,
            hands=hands,
            won=(0,) * n,
            trick=(),
            last_trick=(),
            last_leader=-1,
            points=(0,) * n,
            last_winner=-1,
            trump=suit.value,
            turn_up=turn_up,
            blind=blind,
            moves=(),
        )
        return NoStockDeal(DealSetup(rules, order, seed, dealer, tables), core)


ENGINE = NoStockEngine()
"""The engine instance registered under `ENGINE_NAME`."""
# --8<-- [end:engine]


# -- the rule set: shared parts, one option ------------------------------------------------------


# --8<-- [start:rules]
def build_rules(name: str, options: Mapping[str, OptionValue]) -> RuleSet:
    """The rule set of the no-stock duel with ``options`` (``target``)."""
    target = options["target"]
    assert isinstance(target, int)  # validated by its OptionSpec
    return RuleSet(
        name=name,
        players=2,
        deck=DeckSpec(ranks=(Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)),
        deal=DealPattern.rounds(2, (5, 5), turn_up=True),
        trump_order=TrumpOrder(),
        card_points=CardPoints.of(
            {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}, last_trick=10
        ),
        game_end=TargetEnd(target),
        engine=ENGINE_NAME,
        playoff_policy=TrickPolicy(PlayDuty.FOLLOW_BEAT_OR_TRUMP),
        description="Two hands, no stock: ten tricks with a turned trump and a blind of three.",
        option_values=(("target", target),),
        option_specs=(OptionSpec("target", 250, minimum=1, doc="Points to win the game."),),
        builder=build_rules,
    )


def register() -> None:
    """Register the engine and the variant (once; calling again does nothing)."""
    if ENGINE_NAME not in available_engines():
        register_engine(ENGINE)
    if VARIANT not in available_variants():
        register_variant(VARIANT, build_rules(VARIANT, {"target": 250}))


# --8<-- [end:rules]


def main() -> None:
    """Register, then drive a deal, check an illegal play, replay a record, and play a game."""
    register()
    deal = new_deal(VARIANT, seed=7)
    view = deal.view(0)
    print(f"{VARIANT} on the {get_rules(VARIANT).engine!r} engine, seed 7: trumps {view.trump}, turned {view.turn_up}")
    print(f"  player 0 holds {view.hand}; legal: {' '.join(str(a) for a in deal.legal_actions())}")
    deal = deal.apply(deal.legal_actions()[0])
    follower = deal.view(1)
    refused = next(c for c in follower.hand if not deal.is_legal(f"play {c}"))  # seed 7 deals one
    try:
        deal.check(f"play {refused}")
    except IllegalActionError as exc:
        print(f"  after {deal.history[-1][1]}: 'play {refused}' refused ({exc.rule.value})")
    rng = random.Random(7)
    while not deal.is_over:
        ids = deal.legal_action_ids()
        deal = deal.apply(ids[rng.randrange(len(ids))])
    print(f"  random play to the end: scores {deal.scores}, {sum(deal.scores)} of 130 points dealt out")
    print(f"  the record replays: {replay(record_of(deal)) == deal}")
    guess = determinize(deal.view(0), random.Random(1))
    print(f"  a determinized deal looks the same to player 0: {guess.view(0) == deal.view(0)}")
    agents = (level(4), level(1))
    game = new_game(VARIANT, seed=7)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game = game.apply(agents[seat].choose(game.view(seat), rng))
    print(
        f"  a game of level 4 against level 1: {game.deal_number} deals, totals {game.totals}, "
        f"winner player {game.winner}"
    )


if __name__ == "__main__":
    main()
