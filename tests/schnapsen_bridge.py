"""A bridge between our ``schnapsen`` preset and the ``schnapsen`` package on PyPI (0.0.5).

The package (the Vrije Universiteit's course platform, GPL-3.0-or-later) is an independent
implementation of pagat's Schnapsen. It is a test-only oracle, installed by the ``crosscheck``
extra, imported only here and by the tests and benchmarks that use this module, never by the
library, and no code of it is copied: the bridge only calls its public classes (and, to apply a
trick chosen outside the package, its trick implementer).

Two uses:

- `crosscheck_deal`: the differential test. The package shuffles and deals; the same cards
  are stacked into our preset (`our_deck`); one random choice per decision drives both
  engines; at every step the legal moves (plays, marriages, the trump-jack exchange), each
  trick's winner, the cards won, the card points and, at the end, the deal's winner and game
  points are compared. Where the rule sets differ by a documented choice, a named `Mapping`
  translates between them and is counted; nothing is skipped silently.
- `play_versus`: a deal between one of our agents and one of the package's bots, each seeing
  only its own engine's view of the same cards (the strength measurement,
  ``benchmarks/schnapsen_versus.py``).

How the package deals (``SchnapsenHandGenerator``): the shuffled cards 0, 2, 4, 6, 8 to the
leader, 1, 3, 5, 7, 9 to the follower, the rest is the talon, top first, whose last card is
the trump card. Our preset deals 3 each, the turn-up, 2 each, then the talon top first
(`DealPattern.rounds(2, (3, 2), turn_up=True, turn_up_after_round=1)`, docs/presets/
schnapsen.md), the first packet to the dealer's left, who leads.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import schnapsen.game as sg  # the crosscheck extra: GPL, test-only
from schnapsen.deck import Card as PackageCard
from schnapsen.deck import OrderedCardCollection
from schnapsen.deck import Rank as PackageRank
from schnapsen.deck import Suit as PackageSuit

from bezique_rules import Action, Agent, new_deal
from bezique_rules.engine.marriage import MarriageDeal

__all__ = [
    "CLOSING_ON_OPTIONS",
    "MATCH_OPTIONS",
    "CrossCheck",
    "Mapping",
    "Versus",
    "code",
    "crosscheck_deal",
    "our_deck",
    "package_card",
    "package_deal",
    "play_versus",
]

_SUIT = {PackageSuit.SPADES: "S", PackageSuit.HEARTS: "H", PackageSuit.DIAMONDS: "D", PackageSuit.CLUBS: "C"}
_RANK = {
    PackageRank.ACE: "A",
    PackageRank.TEN: "T",
    PackageRank.KING: "K",
    PackageRank.QUEEN: "Q",
    PackageRank.JACK: "J",
}
_PACKAGE_SUIT = {v: k for k, v in _SUIT.items()}
_PACKAGE_RANK = {v: k for k, v in _RANK.items()}
_VALUE = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
"""Card points (pagat): only to sum the package's won cards for the comparison."""


def pagat_worth(loser_points: int, loser_took_a_trick: bool) -> int:
    """A won deal's game points (pagat, Schnapsen, "Scoring"; written out here, not read from
    our rule parts): 3 if the loser took no trick, 2 if he has fewer than 33 points, else 1."""
    if not loser_took_a_trick:
        return 3
    return 2 if loser_points < 33 else 1


def pagat_failed_closing(opponent_had_a_trick: bool) -> int:
    """What a failed closing gives the closer's opponent (pagat, Schnapsen, "Closing"): 2, or 3
    if he had taken no trick when the talon was closed."""
    return 2 if opponent_had_a_trick else 3


CLOSING_ON_OPTIONS: dict[str, Any] = {}
"""Our preset's defaults: closing allowed from two face-down cards, the exchange from two."""

MATCH_OPTIONS: dict[str, Any] = {"exchange_min_stock": 1, "closing_min_stock": 10}
"""The rules both engines share, for matches between their players: the package's exchange
(allowed while one face-down card is left) and no closing (the package cannot close; no talon
holds ten face-down cards, so ``closing_min_stock=10`` switches closing off)."""


class Mapping(enum.Enum):
    """A documented difference between the package and our preset, and how the bridge maps it.

    Each value is the one-line reason; `CrossCheck.mappings` counts how often each applied.
    """

    OUT_IS_AUTOMATIC = (
        "the package ends the deal by itself when a trick's winner has 66; we offer 'out' to the player "
        "on lead: 'out' is left out of the compared moves and claimed exactly when the package ends the deal"
    )
    NO_CLOSING = (
        "the package cannot close the talon: 'close' is left out of the compared moves; with closing on, "
        "the driver may choose it and the package plays the rest as an exhausted talon"
    )
    EXCHANGE_LAST_FACE_DOWN = (
        "the package allows the trump-jack exchange while one face-down card is left (its talon needs two "
        "cards, the trump card included); our default needs two face-down cards (exchange_min_stock=2)"
    )
    MARRIAGE_LEADS_KING = (
        "the package's marriage always leads the king; we offer the king or the queen after the "
        "announcement: both must be offered, the driver leads the king"
    )
    MARRIAGE_PENDING = (
        "the package keeps a marriage's points pending until the announcer's next won trick; pagat "
        "counts them once he has won a trick (ours): the package's points plus the pending points of a "
        "player who has won a trick are compared with ours"
    )
    LOSER_PENDING = (
        "the package's game points read the loser's points without his pending marriage; ours count it "
        "when he has won a trick: the expected game points use the mapped points"
    )
    CLOSED_TALON = (
        "after a closing the package plays on as with an exhausted talon (the face-down cards and the "
        "turn-up leave its game): the moves, tricks and card points are compared as usual; the game "
        "points come from pagat's closing rules applied to the package's points"
    )


@attrs.frozen
class CrossCheck:
    """The result of one deal driven through both engines."""

    seed: int
    """The package's shuffle seed (and the driver's choices)."""
    closing: bool
    """Whether the driver could close."""
    mismatch: str | None
    """The first disagreement, described with the moves so far, or None."""
    mappings: Counter[Mapping]
    """How often each mapping applied."""
    closed: bool
    """Whether the driver closed the talon in this deal."""
    steps: int
    """Decisions compared."""


def code(card: Any) -> str:
    """Our card code for a package card (``Card.ACE_SPADES`` -> ``"AS"``)."""
    return _RANK[card.rank] + _SUIT[card.suit]


def package_card(text: str) -> Any:
    """The package's card for our code."""
    return PackageCard.get_card(_PACKAGE_RANK[text[0]], _PACKAGE_SUIT[text[1]])


def our_deck(shuffled: Sequence[str]) -> list[str]:
    """Our stacked deck (top first) that deals the package's shuffled cards as the package does.

    The package's leader gets cards 0, 2, 4, 6, 8, the follower 1, 3, 5, 7, 9; 10 to 18 are the
    face-down talon (top first) and 19 the trump card. Ours: 3 to the leader, 3 to the other,
    the turn-up, 2 and 2, then the talon.
    """
    lead, follow = list(shuffled[0:10:2]), list(shuffled[1:10:2])
    return [*lead[:3], *follow[:3], shuffled[19], *lead[3:], *follow[3:], *shuffled[10:19]]


class _Seat(sg.Bot):  # type: ignore[misc]
    """Marks which of our seats a package player is (the driver makes every move itself)."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat}")
        self.seat = seat

    def get_move(self, perspective: Any, leader_move: Any) -> Any:
        raise AssertionError("the bridge chooses every move; the package never asks a player")


def package_deal(seed: int, first: int) -> tuple[Any, Any, list[str]]:
    """The package's engine, its initial state (its leader is our seat ``first``) and the shuffled
    cards as our codes, for a shuffle with ``random.Random(seed)`` (as ``play_game`` does)."""
    engine = sg.SchnapsenGamePlayEngine()
    shuffled = engine.deck_generator.shuffle_deck(engine.deck_generator.get_initial_deck(), random.Random(seed))
    lead, follow, talon = engine.hand_generator.generateHands(OrderedCardCollection(shuffled.get_cards()))
    state = sg.GameState(
        leader=sg.BotState(implementation=_Seat(first), hand=lead),
        follower=sg.BotState(implementation=_Seat(1 - first), hand=follow),
        talon=talon,
        previous=None,
    )
    return engine, state, [code(c) for c in shuffled.get_cards()]


def _key(move: Any, trump: str) -> str:
    """Our action text for a package move (a marriage: its announcement)."""
    if move.is_marriage():
        kind = "royal-marriage" if code(move.king_card)[1] == trump else "common-marriage"
        return f"meld {kind} {code(move.king_card)} {code(move.queen_card)}"
    if move.is_trump_exchange():
        return f"exchange {code(move.jack)}"
    return f"play {code(move.card)}"


def _seat(bot_state: Any) -> int:
    seat: int = bot_state.implementation.seat
    return seat


def _by_seat(state: Any) -> dict[int, Any]:
    return {_seat(state.leader): state.leader, _seat(state.follower): state.follower}


def _package_points(player: Any) -> int:
    """The package's points of a player mapped to pagat's count (`Mapping.MARRIAGE_PENDING`)."""
    score = player.score
    return int(score.direct_points + (score.pending_points if player.won_cards else 0))


class _Mismatch(Exception):
    """A disagreement between the engines (the driver stops the deal)."""


class _Lockstep:
    """Both engines over one deal; every move goes through `lead` / `follow` here."""

    def __init__(self, seed: int, first: int, options: dict[str, Any]) -> None:
        self.engine, self.package, shuffled = package_deal(seed, first)
        self.ours: MarriageDeal = new_deal(  # type: ignore[assignment]
            "schnapsen", deck=our_deck(shuffled), dealer=1 - first, **options
        )
        self.trump = "SHDC"[self.ours.core.trump]
        self.mappings: Counter[Mapping] = Counter()
        self.leader_move: Any = None
        self.closed_by = -1
        self.at_closing: tuple[bool, int] = (False, 0)  # the closer's opponent: a trick? his points

    # -- comparisons --

    def moves_so_far(self) -> str:
        return " | ".join(f"{p}:{a}" for p, a in self.ours.history)

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            raise _Mismatch(f"{what}; moves: {self.moves_so_far()}")

    def compare_state(self) -> None:
        """Hands, talon, cards won, card points and points towards 66 of both seats."""
        ours = self.ours
        deck = ours.rules.deck.cards
        for seat, player in _by_seat(self.package).items():
            hand = sorted(code(c) for c in player.hand.get_cards())
            self.check(sorted(str(deck[i]) for i in _bits(ours.core.hands[seat])) == hand, f"seat {seat}'s hand")
            won = sorted(code(c) for c in player.won_cards)
            self.check(sorted(str(deck[i]) for i in _bits(ours.core.won[seat])) == won, f"seat {seat}'s cards won")
            card_points = sum(_VALUE[c[0]] for c in won)
            self.check(ours.core.card_points[seat] == card_points, f"seat {seat}'s card points")
            self.check(bool(ours.core.tricks[seat]) == bool(won), f"seat {seat} has won a trick")
            mapped = _package_points(player)
            if mapped != player.score.direct_points:
                self.mappings[Mapping.MARRIAGE_PENDING] += 1
            self.check(ours.points[seat] == mapped, f"seat {seat}'s points: ours {ours.points[seat]}, package {mapped}")
        if self.closed_by < 0:
            talon = [code(c) for c in self.package.talon.get_cards()]
            stock = [str(deck[i]) for i in ours.core.stock]
            turn_up = [str(deck[ours.core.turn_up])] if ours.core.turn_up >= 0 else []
            self.check(stock + turn_up == talon, f"the talon: ours {stock + turn_up}, package {talon}")

    # -- moves --

    def lead_options(self, closing: bool) -> list[str]:
        """The compared leader moves (after the mappings), plus 'close' when the driver may close."""
        ours = self.ours
        self.check(ours.current_player == _seat(self.package.leader), "the player on lead")
        mine = {str(a) for a in ours.legal_actions()}
        if "out" in mine:
            mine.discard("out")
            self.mappings[Mapping.OUT_IS_AUTOMATIC] += 1
        may_close = "close" in mine
        if may_close:
            mine.discard("close")
            self.mappings[Mapping.NO_CLOSING] += 1
        theirs = set()
        for move in self.engine.move_validator.get_legal_leader_moves(self.engine, self.package):
            last = move.is_trump_exchange() and len(self.package.talon) == 2 and len(ours.core.stock) == 1
            if last and f"exchange {code(move.jack)}" not in mine:
                self.mappings[Mapping.EXCHANGE_LAST_FACE_DOWN] += 1
                continue
            theirs.add(_key(move, self.trump))
        self.check(mine == theirs, f"leader moves: ours {sorted(mine)}, package {sorted(theirs)}")
        return sorted(mine) + (["close"] if may_close and closing else [])

    def lead(self, choice: str) -> None:
        """Apply a leader's move in both engines ('close', an exchange, a marriage, a card)."""
        ours = self.ours
        p = ours.current_player
        assert p is not None
        if choice == "close":
            self.ours = ours.apply("close")
            self.closed_by = p
            opponent = _by_seat(self.package)[1 - p]
            self.at_closing = (bool(opponent.won_cards), _package_points(opponent))
            self.package.talon = sg.Talon([], self.package.trump_suit)
            self.mappings[Mapping.CLOSED_TALON] += 1
            return
        verb, _, rest = choice.partition(" ")
        if verb == "exchange":
            self.ours = ours.apply(choice)
            move = sg.TrumpExchange(package_card(rest))
            self.package = self.engine.trick_implementer.play_trick_with_fixed_leader_move(
                self.engine, self.package, move
            )
            return
        if verb == "meld":
            king, queen = rest.split()[1:]
            self.ours = ours.apply(choice)
            after = {str(a) for a in self.ours.legal_actions()}
            self.check({f"play {king}", f"play {queen}"} <= after, f"after the marriage: {sorted(after)}")
            self.mappings[Mapping.MARRIAGE_LEADS_KING] += 1
            self.ours = self.ours.apply(f"play {king}")
            self.leader_move = sg.Marriage(package_card(queen), package_card(king))
            return
        self.ours = ours.apply(choice)
        self.leader_move = sg.RegularMove(package_card(rest))

    def follow_options(self) -> list[str]:
        mine = {str(a) for a in self.ours.legal_actions()}
        theirs = {
            _key(m, self.trump)
            for m in self.engine.move_validator.get_legal_follower_moves(self.engine, self.package, self.leader_move)
        }
        self.check(mine == theirs, f"follower moves: ours {sorted(mine)}, package {sorted(theirs)}")
        return sorted(mine)

    def follow(self, choice: str) -> None:
        self.ours = self.ours.apply(choice)
        trick = sg.RegularTrick(leader_move=self.leader_move, follower_move=sg.RegularMove(package_card(choice[5:])))
        self.package = self.engine.trick_implementer._apply_regular_trick(self.engine, self.package, trick)
        self.leader_move = None
        winner = _seat(self.package.leader)
        ours = self.ours
        ours_winner = ours.current_player if not ours.is_over else ours.core.leader
        self.check(ours_winner == winner, f"the trick's winner: ours {ours_winner}, package {winner}")

    # -- the end --

    def expected_end(self, winner: int, by_66: bool) -> tuple[int, int]:
        """Who wins and his game points, by pagat, from the package's points (see `Mapping`)."""
        players = _by_seat(self.package)
        loser = players[1 - winner]
        if self.closed_by < 0:
            worth = pagat_worth(_package_points(loser), bool(loser.won_cards))
            return winner, worth
        # Pagat, Schnapsen, "Closing": the closer who goes out scores by his opponent's tricks and
        # points at the moment of closing; if he does not (the opponent reaches 66 first, or the
        # cards run out), the opponent scores 2, or 3 if he had no trick when the talon was closed.
        closer, opponent = self.closed_by, 1 - self.closed_by
        had_trick, had_points = self.at_closing
        if by_66 and winner == closer:
            return closer, pagat_worth(had_points, had_trick)
        return opponent, pagat_failed_closing(had_trick)

    def finish(self, result: Any) -> tuple[int, int]:
        """The package ended the deal (``declare_winner``): claim 'out' in ours if cards are left."""
        winner_state, package_points = result
        winner = _seat(winner_state)
        by_66 = winner_state.score.direct_points >= 66
        loser = _by_seat(self.package)[1 - winner]
        if by_66 and self.closed_by < 0:
            own = pagat_worth(loser.score.direct_points, bool(loser.won_cards))
            self.check(own == package_points, "the package's own game points against pagat's table")
        expected = self.expected_end(winner, by_66)
        if self.closed_by < 0 and expected[1] != package_points:
            self.mappings[Mapping.LOSER_PENDING] += 1
        if not self.ours.is_over:
            self.check(by_66, "the package ended the deal without 66 while we have cards left")
            legal = {str(a) for a in self.ours.legal_actions()}
            self.check(self.ours.current_player == winner and "out" in legal, f"'out' for seat {winner}: {legal}")
            self.ours = self.ours.apply("out")
            self.mappings[Mapping.OUT_IS_AUTOMATIC] += 1
        return expected


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if (mask >> i) & 1]


def crosscheck_deal(seed: int, *, closing: bool, options: dict[str, Any] | None = None) -> CrossCheck:
    """Drive both engines through the deal the package shuffles with ``seed``.

    ``closing``: whether the driver may close the talon (a choice like any other). Our seat 0
    leads on even seeds, seat 1 on odd ones (our dealer alternates).
    """
    rng = random.Random(seed * 7919 + 1)
    run = _Lockstep(seed, seed % 2, dict(options or {}))
    steps = 0
    mismatch = None
    try:
        run.compare_state()
        while True:
            choice = rng.choice(run.lead_options(closing))
            run.lead(choice)
            steps += 1
            if choice == "close" or choice.startswith("exchange"):
                run.compare_state()
                continue
            run.follow(rng.choice(run.follow_options()))
            steps += 1
            run.compare_state()
            result = run.engine.trick_scorer.declare_winner(run.package)
            if result is None:
                run.check(not run.ours.is_over, f"our deal ended ({run.ours.outcome}), the package's goes on")
                continue
            winner, points = run.finish(result)
            outcome = run.ours.outcome
            assert outcome is not None
            run.check(
                (outcome.winner, outcome.game_points) == (winner, points),
                f"the deal's result: ours {outcome}, expected seat {winner} with {points}",
            )
            break
    except _Mismatch as exc:
        mismatch = str(exc)
    return CrossCheck(seed, closing, mismatch, run.mappings, run.closed_by >= 0, steps)


# -- matches between our agents and the package's bots ------------------------------------------


@attrs.frozen
class Versus:
    """One deal between our agent and a package bot."""

    seed: int
    """The package's shuffle seed."""
    agent_seat: int
    """Our agent's seat (seat 0 leads first when it is 0)."""
    winner: int
    """The seat that won the deal."""
    game_points: int
    """The winner's game points."""
    ending: str
    """How the deal ended (our `Outcome.ending`)."""

    @property
    def agent_won(self) -> bool:
        return self.winner == self.agent_seat

    @property
    def agent_points(self) -> int:
        return self.game_points if self.agent_won else 0

    @property
    def bot_points(self) -> int:
        return 0 if self.agent_won else self.game_points


def play_versus(
    seed: int,
    agent: Agent,
    make_bot: Callable[[random.Random], Any],
    *,
    agent_seat: int,
    agent_rng: random.Random,
    bot_rng: random.Random,
) -> Versus:
    """One deal, shuffled by the package with ``seed``, between ``agent`` (our rules, our view)
    and the bot ``make_bot(bot_rng)`` (the package's rules and perspective), seat 0 leading.

    The rules are those both engines share (`MATCH_OPTIONS`: no closing, the exchange while a
    face-down card is left). Our engine referees: the bot goes out ('out') as the package does,
    as soon as it is on lead with 66; our agent claims for itself. Every move is checked against
    both engines' legal moves (`_Lockstep`), so a bot cannot make a move our rules refuse.
    """
    run = _Lockstep(seed, 0, MATCH_OPTIONS)
    bot = make_bot(bot_rng)
    bot_seat = 1 - agent_seat
    while not run.ours.is_over:
        ours = run.ours
        p = ours.current_player
        assert p is not None
        if p == agent_seat:
            action: Action = agent.choose(ours.view(p), agent_rng)
            text = str(action)
            if text == "out":
                run.ours = ours.apply("out")
                break
            if run.leader_move is None:
                run.lead_options(closing=False)
                if text.startswith("meld"):
                    run.ours = ours.apply(text)
                    follow_up = str(agent.choose(run.ours.view(p), agent_rng))
                    if follow_up == "out":
                        run.ours = run.ours.apply("out")
                        break
                    _announce(run, text, follow_up)
                else:
                    run.lead(text)
            else:
                run.follow_options()
                run.follow(text)
            if run.leader_move is None:  # a trick or an exchange is complete
                run.compare_state()
            continue
        if run.leader_move is None:
            if ours.points[p] >= 66 and "out" in {str(a) for a in ours.legal_actions()}:
                run.ours = ours.apply("out")
                break
            run.lead_options(closing=False)
            move = bot.get_move(sg.LeaderPerspective(run.package, run.engine), None)
            run.lead(_key(move, run.trump))
        else:
            run.follow_options()
            move = bot.get_move(sg.FollowerPerspective(run.package, run.engine, run.leader_move), run.leader_move)
            run.follow(_key(move, run.trump))
        if run.leader_move is None:
            run.compare_state()
        assert p == bot_seat
    outcome = run.ours.outcome
    assert outcome is not None
    return Versus(seed, agent_seat, outcome.winner, outcome.game_points, outcome.ending)


def _announce(run: _Lockstep, meld: str, lead: str) -> None:
    """Our agent announced a marriage (already applied) and leads ``lead`` (its king or queen):
    the package's marriage leads the king; a queen lead is applied to the package by hand
    (the marriage's pending points, then the queen as a plain lead)."""
    king, queen = meld.split()[2:]
    run.ours = run.ours.apply(lead)
    if lead == f"play {king}":
        run.leader_move = sg.Marriage(package_card(queen), package_card(king))
        return
    marriage = sg.Marriage(package_card(queen), package_card(king))
    run.package.leader.score += run.engine.trick_scorer.marriage(marriage, run.package)
    run.leader_move = sg.RegularMove(package_card(queen))
