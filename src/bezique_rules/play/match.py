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

import random
import threading
from collections.abc import Sequence

import attrs

from ..actions import Action, Verb
from ..agents.base import Agent
from ..agents.levels import level as level_agent
from ..cards import Card, CardSet, cards_without
from ..errors import IllegalActionError, NotationError, OptionError, RuleCode
from ..game import GameState, deal_seed, new_game
from ..rules.registry import get_rules
from ..rules.ruleset import RuleSet
from ..state import PlayerView
from .ladder import Ladder, LadderFile

__all__ = ["Match", "MatchResult", "PlayedMove", "Session", "cards_text", "seat_names"]


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
    """What happened, in sentences (the move, the trick won, the cards drawn, the deal's end)."""


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

    def __init__(self, rules: RuleSet, game: GameState, *, human: int, level: int, seed: int) -> None:
        self.rules = rules
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
        seats = self.rules.sides[side]
        if self.human in seats:
            return "you" if len(seats) == 1 else "your side"
        return self.names[seats[0]] if len(seats) == 1 else "their side"

    def score_line(self) -> str:
        """The scores of this deal (and the totals before it)."""
        game = self.game
        deal = ", ".join(f"{self.side_name(s)} {v}" for s, v in enumerate(game.deal.scores))
        text = f"Scores this deal: {deal}"
        if game.deal_number > 1 or any(game.totals):
            text += " (before this deal: " + self.totals_text() + ")"
        if self.rules.card_points_at_end:
            text += "; aces and tens won count at the end"
        if self.rules.closing_game is not None:
            from ..engine.marriage import MarriageDeal

            if isinstance(game.deal, MarriageDeal):  # game points above; the race to 66 here
                points = ", ".join(f"{self.side_name(s)} {v}" for s, v in enumerate(game.deal.points))
                text += f"; points toward {self.rules.closing_game.out.target}: {points}"
        return text

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

    def _apply(self, player: int, action: Action) -> PlayedMove:
        before = self.game
        after = before.apply(action)
        self.game = after
        move = PlayedMove(player, action, tuple(self._describe(player, action, before, after)))
        self.moves.append(move)
        return move

    # -- narration -------------------------------------------------------------------

    def _describe(self, player: int, action: Action, before: GameState, after: GameState) -> list[str]:
        who = self.names[player]
        you = player == self.human
        verb = action.verb
        subject = "You" if you else who.capitalize()
        if verb is Verb.PLAY:
            lines = [f"{'You play' if you else subject + ' plays'} {cards_text(action.cards)}."]
        elif verb is Verb.MELD:
            kinds = before.rules.melds
            k = kinds.index(action.meld)
            extra = f" for {kinds.kinds[k].points}" if k >= 0 else ""
            told = f"{action.meld} {cards_text(action.cards)}{extra}"
            lines = [f"{'You declare' if you else subject + ' declares'} {told}."]
        elif verb is Verb.EXCHANGE:
            told = f"{cards_text(action.cards)} for the turn-up (10)"
            lines = [f"{'You exchange' if you else subject + ' exchanges'} {told}."]
        elif verb is Verb.BID:
            lines = [f"{'You bid' if you else subject + ' bids'} {action.number}."]
        elif verb is Verb.PASS:
            lines = ["You pass." if you else f"{subject} passes."]
        else:
            lines = [f"{subject}: {action}."]
        lines.extend(self._after(before, after, action))
        return lines

    def _after(self, before: GameState, after: GameState, action: Action) -> list[str]:
        if after.deal_number != before.deal_number or (after.is_over and not before.is_over):
            return self.deal_over_lines(after)
        lines = []
        b = before.deal.view(self.human)
        a = after.deal.view(self.human)
        for p in range(self.rules.players):
            if len(a.won[p]) > len(b.won[p]):
                lines.append(f"{'You win' if p == self.human else self.names[p].capitalize() + ' wins'} the trick.")
        gained = cards_without(a.hand, b.hand)
        if action.verb is Verb.EXCHANGE and b.turn_up is not None and b.turn_up in gained:
            gained.remove(b.turn_up)
        if gained:
            verb = "draw" if self.rules.draws_from_stock else "receive"
            lines.append(f"You {verb} {cards_text(gained)}.")
        return lines

    def deal_over_lines(self, after: GameState) -> list[str]:
        """The end of a deal: each side's score and where it came from, then the totals."""
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
    ) -> None:
        if level is not None and not 1 <= level <= 5:
            raise OptionError(f"the computer's level is 1 to 5, not {level}")
        self.rules = get_rules(variant) if isinstance(variant, str) else variant
        self.level = level
        self.ladder_file = ladder_file if level is None else None
        self.seed = seed
        self.human = human
        self.cut = cut
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
            lines.append(
                f"Ladder: the computer plays at level {ladder.level}; your streak {ladder.score}, best {ladder.best}."
            )
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
            return Match(self.rules, game, human=human, level=lvl, seed=match_seed)
        game = new_game(self.rules, seed=match_seed, dealer=dealer)
        return Match(self.rules, game, human=self.human, level=lvl, seed=match_seed)

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
            lines.append(f"Your streak ends at {ladder.score} (best {new.best}); the computer goes back to level 1.")
        lines.extend(self.notices())
        return lines
