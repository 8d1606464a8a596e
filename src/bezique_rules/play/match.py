"""A match against the computer and the ladder around it: the one implementation behind
both the terminal game (``bezique-rules play``) and the web game (``bezique-rules serve``).

A `Match` holds one game (a `GameState`) between the person, at seat ``human``, and
the computer at a `level` (`bezique_rules.agents.level`); every move of the person goes
through the rules (`GameState.check`) before it is applied, and every move, by either
side, comes back as lines of narration. A `Session` deals the matches one after the
other and keeps the ladder (`bezique_rules.play.ladder`): which level the computer
plays at, who deals first, the streak score.

>>> from bezique_rules.play.match import Session
>>> session = Session("bezique-match", level=1, seed=5)
>>> match = session.new_match()
>>> (match.level, match.names)
(1, ('you', 'computer'))
>>> while not match.is_over:
...     if match.human_to_act:
...         _ = match.play_human(match.legal_actions()[0])
...     else:
...         _ = match.play_computer()
>>> lines = session.finish(match)
>>> lines[0].startswith("Match over: you ")
True
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Sequence

import attrs

from ..actions import Action, Verb
from ..agents.base import Agent
from ..agents.levels import level as level_agent
from ..cards import Card, CardSet
from ..errors import IllegalActionError, NotationError, OptionError, RuleCode
from ..rules.registry import get_rules
from ..rules.ruleset import RuleSet
from ..state.deal import Phase, PlayerView
from ..state.events import (
    CardsReceived,
    CardsShown,
    Event,
    Moved,
    PhaseChanged,
    ScoresChanged,
    TrickWon,
    TrumpsFixed,
    what_happened,
)
from ..state.game import GameState, deal_seed, new_game
from .ladder import Ladder, LadderFile, streak_text

__all__ = [
    "Match",
    "MatchResult",
    "PlayedMove",
    "Session",
    "cards_text",
    "narrate",
    "race_points",
    "score_text",
    "seat_names",
    "side_name",
]


_SAID_IN_FIXED_WORDS: dict[Verb, tuple[str, str]] = {
    Verb.ALONE: ("go", "alone"),
    Verb.THROW_IN: ("throw", "in the hand"),
    Verb.CLOSE: ("close", "the stock"),
    Verb.OUT: ("claim", "out"),
}
"""The moves narrated in the same words every time: verb -> (the verb said, the rest)."""


def seat_names(rules: RuleSet, human: int) -> tuple[str, ...]:
    """What each seat is called from the person's side of the table.

    >>> from bezique_rules import get_rules
    >>> seat_names(get_rules("partnership-pinochle"), 0)
    ('you', 'seat 1', 'partner (seat 2)', 'seat 3')
    """
    n = rules.players
    if n == 2:
        return tuple("you" if p == human else "computer" for p in range(n))
    out = []
    for p in range(n):
        if p == human:
            out.append("you")
        elif rules.partnership and p % 2 == human % 2:
            out.append(f"partner (seat {p})")
        else:
            out.append(f"seat {p}")
    return tuple(out)


def side_name(rules: RuleSet, human: int, names: Sequence[str], side: int) -> str:
    """A scoring side as the person at seat ``human`` calls it: you, your side, computer,
    their side (``names``: `seat_names`)."""
    seats = rules.sides[side]
    if human in seats:
        return "you" if len(seats) == 1 else "your side"
    return names[seats[0]] if len(seats) == 1 else "their side"


def score_text(rules: RuleSet, view: PlayerView, names: Sequence[str]) -> str:
    """The scores of the deal (and the totals before it) as the viewer reads them, from his
    view alone.

    >>> from bezique_rules import get_rules, new_game
    >>> rules = get_rules("sixty-six")
    >>> score_text(rules, new_game(rules, seed=1).view(0), seat_names(rules, 0))
    'Scores this deal: you 0, computer 0; points toward 66: you 0, computer 0'
    """
    side = functools.partial(side_name, rules, view.player, names)
    text = "Scores this deal: " + ", ".join(f"{side(s)} {v}" for s, v in enumerate(view.scores))
    before = view.game_scores
    if before is not None and any(before):
        text += " (before this deal: " + ", ".join(f"{side(s)} {v}" for s, v in enumerate(before)) + ")"
    if rules.card_points_at_end:
        text += "; aces and tens won count at the end"
    if rules.closing_game is not None:  # game points above; the race to 66 here
        points = ", ".join(f"{side(s)} {v}" for s, v in enumerate(race_points(rules, view)))
        text += f"; points toward {rules.closing_game.out.target}: {points}"
    return text


def race_points(rules: RuleSet, view: PlayerView) -> tuple[int, ...]:
    """Sixty-six, Schnapsen: each player's points toward the target, from the view (the cards
    he won, and his marriages once he has won a trick)."""
    value = dict(rules.card_points.points)
    out = []
    for p, won in enumerate(view.won):
        points = sum(value.get(c.rank, 0) for c in won)
        if won:
            points += sum(m.points for m in view.melds if m.player == p)
        out.append(points)
    return tuple(out)


def cards_text(cards: Sequence[Card] | CardSet) -> str:
    """Cards in notation, separated by spaces."""
    return " ".join(str(c) for c in cards)


@attrs.frozen
class PlayedMove:
    """One move of the match as it was told: who made it, what it was, and the narration."""

    player: int
    """The seat that moved."""
    action: Action
    """The move."""
    lines: tuple[str, ...]
    """What happened, in sentences (the move, the trick won, the cards drawn, the deal's end),
    told from `events` alone."""
    events: tuple[Event, ...] = ()
    """What the person saw happen (`bezique_rules.what_happened` between his views before and
    after the move)."""
    deal_end: PlayerView | None = None
    """When the move ended a deal: the person's last view of it (its last trick, its scores)."""
    forced: bool = False
    """Whether the move was the person's only legal move, played for him."""


@attrs.frozen
class MatchResult:
    """How a finished match went for the person."""

    result: float
    """1 for a win, 0.5 for a draw, 0 for a loss."""
    margin: int
    """The person's total minus the best other total (negative for a loss)."""


class Match:
    """One match (a whole game of the variant) between the person and the computer.

    The match changes as moves are made (`play_human`, `play_computer`); the game itself
    stays an immutable `GameState` in `game`. A lock (`lock`) is there for callers that
    share a match between threads (the web server).
    """

    def __init__(
        self, rules: RuleSet, game: GameState, *, human: int, level: int, seed: int, play_forced: bool = True
    ) -> None:
        self.rules = rules
        self.play_forced = play_forced
        """Whether the person's forced moves (a single legal move) are played for him."""
        self.game = game
        self.human = human
        self.level = level
        self.seed = seed
        self.agent: Agent = level_agent(level)
        self.rng = random.Random(f"bezique-rules:play:{seed}")
        self.names = seat_names(rules, human)
        self.moves: list[PlayedMove] = []
        self.lock = threading.Lock()

    # -- the state -------------------------------------------------------------------

    def cut_lines(self) -> list[str]:
        """The cut for the first deal in words, when the match began with one; else []."""
        cut = self.game.cut_for_deal
        return [] if cut is None else [cut.describe(self.names)]

    @property
    def is_over(self) -> bool:
        """Whether the match is finished."""
        return self.game.is_over

    @property
    def human_to_act(self) -> bool:
        """Whether the person is to move."""
        return not self.game.is_over and self.game.current_player == self.human

    def view(self) -> PlayerView:
        """What the person may see of the current deal."""
        return self.game.view(self.human)

    def legal_actions(self) -> tuple[Action, ...]:
        """The person's legal moves (empty when it is not their turn)."""
        return self.game.legal_actions() if self.human_to_act else ()

    def side_name(self, side: int) -> str:
        """A scoring side as the person calls it: you, your side, computer, their side."""
        return side_name(self.rules, self.human, self.names, side)

    def score_line(self, view: PlayerView | None = None) -> str:
        """The scores of this deal (and the totals before it), from the person's view."""
        return score_text(self.rules, self.view() if view is None else view, self.names)

    def totals_text(self) -> str:
        """The match totals, side by side."""
        return ", ".join(f"{self.side_name(s)} {v}" for s, v in enumerate(self.game.totals))

    # -- moves -----------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        """Read a move typed by the person: its notation (``play QS``, ``meld bezique QS JD``),
        or a bare card (``QS``, ``QS*`` for the copy on the table) meaning play it.

        Raises:
            NotationError: the text is not a move.
            IllegalActionError: the move is not legal now (the rule's message).
        """
        tries = [text]
        if len(text.split()) == 1 and (not text.isalpha() or len(text) in (2, 3)):
            tries.append("play " + text)  # a bare card: play it
        first_error: NotationError | IllegalActionError | None = None
        for t in tries:
            try:
                return self.game.parse_action(t)
            except (NotationError, IllegalActionError) as exc:
                first_error = first_error or exc
        assert first_error is not None
        raise first_error

    def play_human(self, action: Action | str) -> PlayedMove:
        """Make the person's move, checked by the rules first.

        Raises:
            IllegalActionError: not the person's turn, or the rules forbid the move; the
                match is unchanged.
            NotationError: ``action`` is text that is not a move.
        """
        if self.game.is_over:
            raise IllegalActionError(f"the match is over: {action!s}", rule=RuleCode.GAME_OVER, action=action)
        if self.game.current_player != self.human:
            raise IllegalActionError(
                f"it is not your turn: wait for the computer ({action!s})", rule=RuleCode.NOT_YOUR_TURN, action=action
            )
        chosen = self.parse(action) if isinstance(action, str) else action
        self.game.check(chosen)
        return self._apply(self.human, chosen)

    def forced_move(self) -> Action | None:
        """The person's only legal move when he is to act and has exactly one (else None)."""
        legal = self.legal_actions()
        return legal[0] if len(legal) == 1 else None

    def play_forced_move(self) -> PlayedMove | None:
        """When `play_forced` is on and the person has a single legal move, play it for him
        (its narration begins with a line saying so); else None."""
        action = self.forced_move() if self.play_forced else None
        if action is None:
            return None
        return self._apply(self.human, action, forced=True)

    def play_computer(self) -> PlayedMove:
        """Make the computer's next move.

        Raises:
            IllegalActionError: the match is over, or it is the person's turn.
        """
        player = self.game.current_player
        if self.game.is_over or player is None:
            raise IllegalActionError("the match is over: the computer has nothing to play", rule=RuleCode.GAME_OVER)
        if player == self.human:
            raise IllegalActionError("it is your turn, not the computer's", rule=RuleCode.NOT_YOUR_TURN)
        action = self.agent.choose(self.game.view(player), self.rng)
        return self._apply(player, action)

    def _apply(self, player: int, action: Action, *, forced: bool = False) -> PlayedMove:
        before = self.game
        seen = before.view(self.human)
        after = before.apply(action)
        self.game = after
        deal_end = None
        if after.deal_number != before.deal_number or after.is_over:
            # the deal is over: the person's last view of it (the next deal may already be dealt)
            last = after.deal if after.deal_number == before.deal_number else before.deal.apply(action, check=False)
            deal_end = attrs.evolve(last.view(self.human), game_scores=seen.game_scores)
        now = deal_end if deal_end is not None else after.view(self.human)
        events = what_happened(seen, now)
        lines = self.narrate(events, seen, now)
        if forced:
            lines[0] = f"Your only move, {action}, is played for you."
        if deal_end is not None:
            lines.extend(self.deal_over_lines(after))
        move = PlayedMove(player, action, tuple(lines), events, deal_end, forced)
        self.moves.append(move)
        return move

    # -- narration -------------------------------------------------------------------

    def narrate(self, events: Sequence[Event], before: PlayerView, after: PlayerView) -> list[str]:
        """What the person saw happen, in sentences (see `narrate`)."""
        return narrate(self.rules, self.names, before, after, events)

    def deal_over_lines(self, after: GameState) -> list[str]:
        """The end of a deal: each side's score and where it came from (the deal's result,
        public once it is over: `GameState.results`), then the totals."""
        result = after.results[-1]
        lines = ["", f"Deal {len(after.results)} is over."]
        for side, part in enumerate(result.breakdown):
            items = [("melds", part.melds), ("seven", part.seven), ("cards", part.cards),
                     ("last trick", part.last_trick), ("bonus", part.bonus), ("contract", part.contract)]  # fmt: skip
            shown = ", ".join(f"{k} {v}" for k, v in items if v)
            lines.append(f"  {self.side_name(side)}: {result.scores[side]}" + (f" ({shown})" if shown else ""))
        if not after.is_over:
            lines.append("Totals: " + ", ".join(f"{self.side_name(s)} {v}" for s, v in enumerate(after.totals)))
        return lines

    def result(self) -> MatchResult:
        """The person's result and margin (the match must be over).

        Raises:
            IllegalActionError: the match is not over yet.
        """
        if not self.game.is_over:
            raise IllegalActionError("the match is not over yet", rule=RuleCode.WRONG_PHASE)
        side = self.rules.side_of(self.human)
        totals = self.game.totals
        margin = totals[side] - max(t for s, t in enumerate(totals) if s != side)
        if self.game.winner is None:
            return MatchResult(0.5, margin)
        return MatchResult(1.0 if self.game.winner == side else 0.0, margin)

    def result_lines(self) -> list[str]:
        """The end of the match: the totals and who won by how much."""
        outcome = self.result()
        lines = [f"Match over: {self.totals_text()}."]
        if outcome.result == 1:
            lines.append(f"You win by {outcome.margin}.")
        elif outcome.result == 0:
            lines.append(f"The computer wins by {-outcome.margin}.")
        else:
            lines.append("A draw.")
        return lines


class _Teller:
    """The sentences of `narrate`, for the person at seat ``human``."""

    def __init__(self, rules: RuleSet, human: int, names: Sequence[str]) -> None:
        self.rules = rules
        self.human = human
        self.names = names

    def _subject(self, player: int) -> str:
        return "You" if player == self.human else self.names[player].capitalize()

    def _verb(self, player: int, verb: str) -> str:
        """``You play`` or ``Computer plays``."""
        if player == self.human:
            return f"You {verb}"
        third = verb + ("es" if verb.endswith(("s", "sh", "ch")) else "s")
        return f"{self._subject(player)} {third}"

    def tell(self, events: Sequence[Event], before: PlayerView, after: PlayerView) -> list[str]:
        lines: list[str] = []
        named_trump = False
        moved = [e for e in events if isinstance(e, Moved)]
        scored = next((e.gained for e in events if isinstance(e, ScoresChanged)), None)
        for event in events:
            if isinstance(event, Moved):
                named_trump = named_trump or event.action.verb in (Verb.TRUMP, Verb.CALL)
                line = self._move_line(event, before)
                if event.action.verb in (Verb.EXCHANGE, Verb.DECLARE) and scored is not None and len(moved) == 1:
                    gained = scored[self.rules.side_of(event.player)]
                    line = line[:-1] + f" ({gained})." if gained else line  # the points it scored
                lines.append(line)
            elif isinstance(event, TrickWon):
                lines.append(f"{self._verb(event.player, 'win')} the trick.")
            elif isinstance(event, CardsReceived):
                told = cards_text(event.cards)
                lines.append({
                    "stock": f"You draw {told}.",
                    "turn-up": f"You take the turn-up {told}.",
                    "widow": f"You take the widow: {told}.",
                    "given": f"You receive {told}.",
                    "other": f"You pick up {told}.",
                }[event.source])  # fmt: skip
            elif isinstance(event, CardsShown):
                who = self._subject(event.player)
                if event.cards == (before.turn_up,):  # the last card of the stock, or the Euchre dealer's
                    lines.append(f"{who} takes the turn-up {event.cards[0]}.")
                elif before.stock_size > after.stock_size and len(event.cards) == before.stock_size:
                    lines.append(f"{who} takes the widow: {cards_text(event.cards)}.")
                else:
                    lines.append(f"{who} shows {cards_text(event.cards)}.")
            elif isinstance(event, TrumpsFixed) and not named_trump:
                lines.append(f"Trumps: {event.suit.name.lower()}.")
            elif isinstance(event, PhaseChanged) and event.after is Phase.PLAYOFF:
                lines.append("The stock is used up: the last tricks are played out.")
        return lines

    def _move_line(self, event: Moved, before: PlayerView) -> str:
        words = self._move_words(event, before)
        if words is None:
            return f"{self._subject(event.player)}: {event.action}."  # the move as the person saw it
        verb, rest = words
        return f"{self._verb(event.player, verb)} {rest}." if rest else f"{self._verb(event.player, verb)}."

    def _move_words(self, event: Moved, before: PlayerView) -> tuple[str, str] | None:
        """A move in words: the verb (``play``, ``order``) and the rest of the sentence; None for
        a move told by its notation."""
        action = event.action
        verb, cards = action.verb, cards_text(action.cards)
        alone = " and go alone" if action.alone else ""
        if verb in _SAID_IN_FIXED_WORDS:
            return _SAID_IN_FIXED_WORDS[verb]
        if verb is Verb.PLAY or verb is Verb.DECLARE:
            return verb.value, cards
        if verb is Verb.BID or verb is Verb.GUESS:
            return verb.value, str(action.number)
        if verb is Verb.MELD:
            if not action.cards:
                return "lay", f"down {'your' if event.player == self.human else 'their'} melds ({action})"
            k = self.rules.melds.index(action.meld)
            extra = f" for {self.rules.melds.kinds[k].points}" if k >= 0 else ""
            return "declare", f"{action.meld} {cards}{extra}"
        if verb is Verb.EXCHANGE:
            return "exchange", f"{cards} for the turn-up" + (f" {before.turn_up}" if before.turn_up is not None else "")
        if verb is Verb.PASS:
            return "pass", "(asking for help)" if action.with_help else "to the partner" if action.to_partner else ""
        if verb is Verb.TRUMP and action.suit is not None:
            return "name", f"{action.suit.name.lower()} trumps"
        if verb is Verb.ORDER_UP:
            return "order", f"up{alone}"
        if verb is Verb.CALL and action.suit is not None:
            return "call", f"{action.suit.name.lower()}{alone}"
        if verb is Verb.DISCARD:
            return "discard", cards or "face down"
        if verb is Verb.GIVE:
            return "pass", cards or "cards face down"
        return None


def narrate(
    rules: RuleSet,
    names: Sequence[str],
    before: PlayerView,
    after: PlayerView,
    events: Sequence[Event] | None = None,
) -> list[str]:
    """What the viewer of ``before`` and ``after`` (two of his views of one deal) saw happen,
    in sentences: told from `bezique_rules.what_happened` between the two views (``events``,
    when already computed) and the views themselves, nothing else, so the narration names no
    card he has not seen. ``names`` are the seats as he calls them (`seat_names`).

    >>> from bezique_rules import get_rules, new_deal
    >>> rules = get_rules("euchre")
    >>> deal = new_deal(rules, seed=0)
    >>> later = deal.apply("order-up")
    >>> later = later.apply(later.legal_actions()[0])
    >>> narrate(rules, seat_names(rules, 1), deal.view(1), later.view(1))
    ['Seat 0 orders up.', 'Partner (seat 3) discards face down.', 'Trumps: hearts.']
    """
    told = what_happened(before, after) if events is None else events
    return _Teller(rules, before.player, names).tell(told, before, after)


class Session:
    """Matches against the computer one after the other, and the ladder they climb.

    Args:
        variant: the preset (or a `RuleSet`).
        level: a fixed level of the computer (practice: the ladder is left alone), or
            None to climb the ladder.
        ladder_file: where the ladder is kept (None: no ladder is kept; the computer then
            plays at level 1 unless ``level`` is given). Several sessions may share one
            file (the web server does): its reads and writes hold the file's ``lock``.
        seed: shuffle the matches from this seed (None: at random).
        human: the person's seat (with ``cut``: the person's turn to draw; the cut may seat
            him elsewhere when it draws partners).
        cut: draw for the first dealer of each match (``first_dealer="cut"``) instead of
            letting the ladder alternate it.
        play_forced: play the person's forced moves (a single legal move, such as the
            ``pass`` after a won trick with nothing to declare) for him, with a line saying
            so (False: ask for every move).
    """

    def __init__(
        self,
        variant: str | RuleSet,
        *,
        level: int | None = None,
        ladder_file: LadderFile | None = None,
        seed: int | None = None,
        human: int = 0,
        cut: bool = False,
        play_forced: bool = True,
    ) -> None:
        if level is not None and not 1 <= level <= 5:
            raise OptionError(f"the computer's level is 1 to 5, not {level}")
        self.rules = get_rules(variant) if isinstance(variant, str) else variant
        self.level = level
        self.ladder_file = ladder_file if level is None else None
        self.seed = seed
        self.human = human
        self.cut = cut
        self.play_forced = play_forced
        self.played = 0
        self._master: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()

    @property
    def ladder(self) -> Ladder:
        """The ladder of this variant (a fresh one when none is kept: practice)."""
        if self.ladder_file is None:
            return Ladder(matches=self.played)
        with self.ladder_file.lock:
            return self.ladder_file.get(self.rules.name)

    def opening_lines(self) -> list[str]:
        """What to tell the person before the first match: the ladder, or the practice level."""
        lines = self.notices()
        if self.ladder_file is not None:
            ladder = self.ladder
            lines.append(f"Ladder: the computer plays at level {ladder.level}; your {streak_text(ladder)}.")
        elif self.level is not None:
            lines.append(f"Practice at level {self.level}: the ladder is not changed.")
        return lines

    def notices(self) -> list[str]:
        """The ladder file's notices (a corrupt file set aside, a failed save), said once."""
        if self.ladder_file is None:
            return []
        with self.ladder_file.lock:
            out = list(self.ladder_file.notices)
            self.ladder_file.notices.clear()
        return out

    def new_match(self) -> Match:
        """Deal the next match: the ladder's level (or the practice level), the ladder's dealer."""
        ladder = self.ladder
        lvl = self.level if self.level is not None else ladder.level
        dealer = self.rules.players - 1 if ladder.computer_deals else self.human
        match_seed = deal_seed(self.seed, self.played + 1) if self.seed is not None else self._master.getrandbits(63)
        if self.cut:
            game = new_game(self.rules, seed=match_seed, first_dealer="cut")
            assert game.cut_for_deal is not None  # first_dealer="cut"
            human = game.cut_for_deal.seat_of(self.human)
            return Match(self.rules, game, human=human, level=lvl, seed=match_seed, play_forced=self.play_forced)
        game = new_game(self.rules, seed=match_seed, dealer=dealer)
        return Match(self.rules, game, human=self.human, level=lvl, seed=match_seed, play_forced=self.play_forced)

    def finish(self, match: Match) -> list[str]:
        """Count a finished match: the ladder moves (unless practising); returns the narration.

        Raises:
            IllegalActionError: the match is not over yet.
        """
        outcome = match.result()
        self.played += 1
        lines = match.result_lines()
        if self.ladder_file is None:
            return lines
        with self.ladder_file.lock:
            ladder = self.ladder_file.get(self.rules.name)
            new = ladder.after(outcome.result, outcome.margin)
            self.ladder_file.put(self.rules.name, new)
        if outcome.result == 1:
            lines.append(f"Streak: {new.wins} win{'s' if new.wins != 1 else ''}, score {new.score} (best {new.best}).")
            if new.level > ladder.level:
                lines.append(f"The computer moves up to level {new.level}.")
            else:
                lines.append("The computer stays at level 5, its best.")
        else:
            if ladder.wins:
                lines.append(
                    f"Your streak ends at {ladder.score} (best {new.best}); the computer goes back to level 1."
                )
            else:  # no streak to end
                lines.append(f"No streak yet (best {new.best}): the computer stays at level 1.")
        lines.extend(self.notices())
        return lines
