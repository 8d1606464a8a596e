"""``bezique-rules play``: a game against the computer in the terminal.

Plain text in and out (no dependency): the person types the number of a move in
the list, or its notation (``play QS``, or just ``QS``; ``meld royal-marriage KH
QH``; ``exchange 7H``; ``pass``), ``help`` or ``quit``. A refused move is
explained by the rule that forbids it. The match and the ladder are
`bezique_rules.play.match`, shared with the web game. Between matches the ladder (see
`bezique_rules.play.ladder`) moves the computer up a level for each match won.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from ..actions import Action
from ..errors import IllegalActionError, NotationError
from ..rules.ruleset import RuleSet
from ..state.deal import PlayerView
from ..state.game import GameState
from ..state.svg import pile_of
from .ladder import LadderFile
from .match import Match, PlayedMove, Session, cards_text

__all__ = ["play_session"]

_HELP = """\
How to play
  Type the number of a move in the list, or the move itself:
    play QS        play the queen of spades (QS* plays the copy lying on the table)
    QS             the same, for short
    meld royal-marriage KH QH    declare a meld (cards on the table are marked *)
    exchange 7H    swap the seven of trumps for the turned-up card (10 points)
    declare 7H     score the seven of trumps without an exchange
    pass           declare nothing more and draw
  Cards: rank A T K Q J 9 8 7 (T is the ten), then suit S H D C (spades, hearts,
  diamonds, clubs).
  Other commands: 'help' shows this, 'quit' stops (a match left unfinished is
  not counted). When only one move is legal it is played for you, with a line
  saying so (start with --ask-forced to be asked every time).

Bezique in short
  Aces and tens (brisques) won in tricks score 10 each, the last trick 10.
  While the stock lasts any card may be played; the winner of a trick may declare
  one meld, and the seven of trumps, before both draw. Melds: sequence (A T K Q J
  of trumps) 250, royal marriage (K Q of trumps) 40, marriage 20, bezique
  (QS + JD) 40, double bezique 500, four aces 100, kings 80, queens 60, jacks 40.
  When the stock is gone, follow suit and win the trick if you can (trump if
  void). A match is one or two deals: a lead of 400 after the first deal wins at
  once, otherwise the higher total after two deals.

The ladder
  Each match you win raises the computer one level (up to 5); a loss or a draw
  ends your streak and the computer goes back to level 1. The streak score is
  the number of wins plus the winning margins as four decimals (3.0870: three
  wins, margins adding up to 870; 0.0000 before the first win).
"""


class _Console:
    """Lines in, text out."""

    def __init__(self, stdin: TextIO, out: TextIO) -> None:
        self.stdin = stdin
        self.out = out

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def ask(self, prompt: str) -> str | None:
        """A line of input (stripped), or None at the end of the input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            self.out.write("\n")
            return None
        return line.strip()


class _Quit(Exception):
    """The person typed quit (or the input ended)."""


def _hand_text(view: PlayerView) -> str:
    """The hand, the cards lying on the table marked ``*``."""
    tabled = list(view.tabled[view.player]) if view.tabled else []
    parts = []
    for card in view.hand:
        if card in tabled:
            tabled.remove(card)
            parts.append(f"{card}*")
        else:
            parts.append(str(card))
    return " ".join(parts) if parts else "(empty)"


class _TerminalMatch:
    """A `Match` told in the terminal: the table shown as text, moves typed."""

    def __init__(self, console: _Console, match: Match) -> None:
        self.console = console
        self.match = match

    def _show(self, view: PlayerView) -> None:
        say = self.console.say
        match = self.match
        names = match.names
        say()
        say(f"Deal {match.game.deal_number} (dealer: {names[view.dealer]}) - computer level {match.level} - "
            f"{view.phase.value}")  # fmt: skip
        pile, lies = pile_of(view)
        if view.trump is not None or view.turn_up is not None:
            trump = f"{view.trump.code} {view.trump.symbol}" if view.trump is not None else "not yet fixed"
            up = ""
            if view.turn_up is not None:
                how = {"face up": "", "taken": f" (taken up by {names[view.dealer]})", "turned down": " (turned down)"}
                up = f", turn-up {view.turn_up}{how[lies]}"
            say(f"Trumps: {trump}{up}; {pile}: {view.stock_size} cards")
        elif match.rules.draws_from_stock or view.stock_size:
            say(f"Trumps: not yet fixed; {pile}: {view.stock_size} cards")
        say(match.score_line())
        for p in range(match.rules.players):
            melds = [m for m in view.melds if m.player == p]
            if melds:
                shown = "; ".join(f"{m.kind} {cards_text(m.cards)} ({m.points})" for m in melds)
                who = "Your" if p == match.human else f"{names[p].capitalize()}'s"
                say(f"{who} melds: {shown}")
        for p in range(match.rules.players):
            if p != match.human and view.tabled and view.tabled[p]:
                say(f"On the table ({names[p]}): {cards_text(view.tabled[p])}")
        n = match.rules.players
        if view.last_trick:
            lead = view.last_trick_leader
            plays = ", ".join(f"{names[(lead + i) % n]} {c}" for i, c in enumerate(view.last_trick))
            say(f"Last trick: {plays}")
        if view.trick:
            lead = view.trick_leader
            plays = ", ".join(f"{names[(lead + i) % n]} {c}" for i, c in enumerate(view.trick))
            say(f"Trick: {plays}")
        say(f"Your hand: {_hand_text(view)}")

    def _moves(self, legal: Sequence[Action]) -> None:
        items = [f"{i}. {a}" for i, a in enumerate(legal, start=1)]
        width = max(len(s) for s in items) + 2
        per_line = max(1, 78 // width)
        say = self.console.say
        say("Your moves:")
        for start in range(0, len(items), per_line):
            say("  " + "".join(s.ljust(width) for s in items[start : start + per_line]).rstrip())

    def play(self) -> None:
        """Play to the end of the match; raises `_Quit` when the person stops."""
        match = self.match
        shown_deal = 0
        while not match.is_over:
            game = match.game
            if game.deal_number != shown_deal:
                shown_deal = game.deal_number
                dealer = game.deal.dealer
                self.console.say()
                self.console.say(
                    f"=== Deal {shown_deal}: {match.names[dealer]} deal{'s' if dealer != match.human else ''} ==="
                )
            move = self._human_move() if match.human_to_act else match.play_computer()
            for line in move.lines:
                self.console.say(line)

    def _human_move(self) -> PlayedMove:
        match = self.match
        view = match.view()
        legal = match.legal_actions()
        forced = match.play_forced_move()  # a single legal move, played for the person (unless asked not to)
        if forced is not None:
            return forced
        self._show(view)
        self._moves(legal)
        while True:
            text = self.console.ask("Your move (number or notation; help, quit): ")
            if text is None:
                raise _Quit
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise _Quit
            if word in ("help", "h", "?"):
                self.console.say(_HELP)
                self._moves(legal)
                continue
            if word in ("show", "hand", "s"):
                self._show(view)
                self._moves(legal)
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(legal):
                    return match.play_human(legal[k - 1])
                self.console.say(f"There is no move {k}: choose 1 to {len(legal)}.")
                continue
            try:
                return match.play_human(text)
            except IllegalActionError as exc:
                self.console.say(f"Not allowed: {exc}")
            except NotationError as exc:
                self.console.say(f"Not understood: {exc}. Type 'help' for the notation.")


def play_session(
    variant: str | RuleSet,
    *,
    level: int | None,
    ladder_path: Path | None,
    stdin: TextIO,
    out: TextIO,
    seed: int | None = None,
    matches: int | None = None,
    cut: bool = False,
    play_forced: bool = True,
    on_match_end: Callable[[GameState], None] | None = None,
) -> int:
    """Run ``bezique-rules play``: matches against the computer until the person stops.

    Args:
        variant: the preset (``bezique-match`` by default on the command line).
        level: a fixed level of the computer (practice: the ladder is left alone), or
            None to climb the ladder.
        ladder_path: the ladder file (None: no ladder is kept).
        stdin, out: where the person types and reads.
        seed: shuffle the matches from this seed (None: at random).
        matches: stop after this many matches (None: ask after each).
        cut: cut for the first dealer of each match (shown before its first deal).
        play_forced: play a forced move (the only legal one) for the person, with a line
            saying so; False asks for every move (``--ask-forced``).
        on_match_end: called with each match's game when it ends or is abandoned (``play
            --record`` writes its record).

    Returns:
        The exit status (0).
    """
    console = _Console(stdin, out)
    say = console.say
    ladder_file = LadderFile.load(ladder_path) if ladder_path is not None and level is None else None
    session = Session(variant, level=level, ladder_file=ladder_file, seed=seed, cut=cut, play_forced=play_forced)
    say(f"{session.rules.name}: you against the computer. Type 'help' for how to play, 'quit' to stop.")
    for line in session.opening_lines():
        say(line)
    while True:
        match = session.new_match()
        say()
        say(f"--- Match {session.played + 1} against level {match.level} ---")
        for line in match.cut_lines():
            say(line)
        try:
            _TerminalMatch(console, match).play()
        except _Quit:
            if on_match_end is not None:
                on_match_end(match.game)
            say("Match abandoned: it is not counted. Goodbye.")
            return 0
        if on_match_end is not None:
            on_match_end(match.game)
        say()
        for line in session.finish(match):
            say(line)
        if matches is not None and session.played >= matches:
            say("Goodbye.")
            return 0
        answer = console.ask("Another match? [Y/n] ")
        if answer is None or answer.lower() in ("n", "no", "q", "quit"):
            say("Goodbye.")
            return 0
