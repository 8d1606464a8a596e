"""``bezique-rules play``: a game against the computer in the terminal.

Plain text in and out (no dependency): the person types the number of a move in
the list, or its notation (``play QS``, or just ``QS``; ``meld royal-marriage KH
QH``; ``exchange 7H``; ``pass``), ``help`` or ``quit``. A refused move is
explained by the rule that forbids it. Between matches the ladder (see
`bezique_rules.agents.ladder`) moves the computer up a level for each match won.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ..actions import Action, Verb
from ..cards import Card, CardSet
from ..errors import IllegalActionError, NotationError
from ..game import GameState, deal_seed, new_game
from ..rules.registry import get_rules
from ..rules.ruleset import RuleSet
from ..state import PlayerView
from .ladder import Ladder, LadderFile
from .levels import level as level_agent

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
  not counted).

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
  wins, margins adding up to 870).
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


def _names(rules: RuleSet, human: int) -> list[str]:
    n = rules.players
    if n == 2:
        return ["you" if p == human else "computer" for p in range(n)]
    out = []
    for p in range(n):
        if p == human:
            out.append("you")
        elif rules.partnership and p % 2 == human % 2:
            out.append(f"partner (seat {p})")
        else:
            out.append(f"seat {p}")
    return out


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


def _cards(cards: Sequence[Card] | CardSet) -> str:
    return " ".join(str(c) for c in cards)


class _Match:
    """One match (a whole game of the variant) between the person and the computer."""

    def __init__(self, console: _Console, rules: RuleSet, game: GameState, human: int, level: int, seed: int) -> None:
        self.console = console
        self.rules = rules
        self.game = game
        self.human = human
        self.level = level
        self.agent = level_agent(level)
        self.rng = random.Random(f"bezique-rules:play:{seed}")
        self.names = _names(rules, human)

    # -- narration ------------------------------------------------------------------

    def _score_line(self, game: GameState) -> str:
        rules = self.rules
        deal = ", ".join(f"{self._side_name(s)} {v}" for s, v in enumerate(game.deal.scores))
        text = f"Scores this deal: {deal}"
        if game.deal_number > 1 or any(game.totals):
            text += (
                " (before this deal: " + ", ".join(f"{self._side_name(s)} {v}" for s, v in enumerate(game.totals)) + ")"
            )
        if rules.engine == "stock" and rules.stock.card_timing != "immediate":
            text += "; aces and tens won count at the end"
        return text

    def _side_name(self, side: int) -> str:
        seats = self.rules.sides[side]
        if self.human in seats:
            return "you" if len(seats) == 1 else "your side"
        return self.names[seats[0]] if len(seats) == 1 else "their side"

    def _show(self, view: PlayerView) -> None:
        say = self.console.say
        game = self.game
        dealer = self.names[view.dealer]
        say()
        head = f"Deal {game.deal_number} (dealer: {dealer}) - computer level {self.level} - {view.phase.value}"
        say(head)
        if view.trump is not None or view.turn_up is not None:
            trump = f"{view.trump.code} {view.trump.symbol}" if view.trump is not None else "not yet fixed"
            up = f", turn-up {view.turn_up}" if view.turn_up is not None else ""
            say(f"Trumps: {trump}{up}; stock: {view.stock_size} cards")
        elif self.rules.engine == "stock":
            say(f"Trumps: not yet fixed; stock: {view.stock_size} cards")
        say(self._score_line(game))
        for p in range(self.rules.players):
            melds = [m for m in view.melds if m.player == p]
            if melds:
                shown = "; ".join(f"{m.kind} {_cards(m.cards)} ({m.points})" for m in melds)
                who = "Your" if p == self.human else f"{self.names[p].capitalize()}'s"
                say(f"{who} melds: {shown}")
        for p in range(self.rules.players):
            if p != self.human and view.tabled and view.tabled[p]:
                say(f"On the table ({self.names[p]}): {_cards(view.tabled[p])}")
        if view.last_trick:
            lead = view.last_trick_leader
            plays = ", ".join(
                f"{self.names[(lead + i) % self.rules.players]} {c}" for i, c in enumerate(view.last_trick)
            )
            say(f"Last trick: {plays}")
        if view.trick:
            lead = view.trick_leader
            plays = ", ".join(f"{self.names[(lead + i) % self.rules.players]} {c}" for i, c in enumerate(view.trick))
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

    def _describe(self, player: int, action: Action, before: GameState, after: GameState) -> None:
        say = self.console.say
        who = self.names[player]
        you = player == self.human
        verb = action.verb
        if verb is Verb.PLAY:
            say(f"{'You play' if you else who.capitalize() + ' plays'} {_cards(action.cards)}.")
        elif verb is Verb.MELD:
            kinds = before.rules.melds
            k = kinds.index(action.meld)
            extra = f" for {kinds.kinds[k].points}" if k >= 0 else ""
            subject = "You declare" if you else who.capitalize() + " declares"
            say(f"{subject} {action.meld} {_cards(action.cards)}{extra}.")
        elif verb is Verb.EXCHANGE:
            subject = "You exchange" if you else who.capitalize() + " exchanges"
            say(f"{subject} {_cards(action.cards)} for the turn-up (10).")
        elif verb is Verb.BID:
            say(f"{'You bid' if you else who.capitalize() + ' bids'} {action.number}.")
        elif verb is Verb.PASS and you:
            say("You pass.")
        elif verb is Verb.PASS:
            say(f"{who.capitalize()} passes.")
        else:
            say(f"{'You' if you else who.capitalize()}: {action}.")
        self._after(before, after, action)

    def _after(self, before: GameState, after: GameState, action: Action) -> None:
        say = self.console.say
        if after.deal_number != before.deal_number or (after.is_over and not before.is_over):
            self._deal_over(after)
            return
        b = before.deal.view(self.human)
        a = after.deal.view(self.human)
        for p in range(self.rules.players):
            if len(a.won[p]) > len(b.won[p]):
                say(f"{'You win' if p == self.human else self.names[p].capitalize() + ' wins'} the trick.")
        gained = _minus(list(a.hand), list(b.hand))
        if action.verb is Verb.EXCHANGE and b.turn_up is not None and b.turn_up in gained:
            gained.remove(b.turn_up)
        if gained:
            verb = "draw" if self.rules.engine == "stock" else "receive"
            say(f"You {verb} {_cards(gained)}.")

    def _deal_over(self, after: GameState) -> None:
        say = self.console.say
        result = after.results[-1]
        say()
        say(f"Deal {len(after.results)} is over.")
        for side, part in enumerate(result.breakdown):
            items = [("melds", part.melds), ("seven", part.seven), ("cards", part.cards),
                     ("last trick", part.last_trick), ("bonus", part.bonus), ("contract", part.contract)]  # fmt: skip
            shown = ", ".join(f"{k} {v}" for k, v in items if v)
            say(f"  {self._side_name(side)}: {result.scores[side]}" + (f" ({shown})" if shown else ""))
        if not after.is_over:
            say("Totals: " + ", ".join(f"{self._side_name(s)} {v}" for s, v in enumerate(after.totals)))

    # -- the loop -------------------------------------------------------------------

    def play(self) -> GameState:
        """Play to the end of the match; raises `_Quit` when the person stops."""
        shown_deal = 0
        while not self.game.is_over:
            game = self.game
            if game.deal_number != shown_deal:
                shown_deal = game.deal_number
                dealer = game.deal.dealer
                self.console.say()
                self.console.say(
                    f"=== Deal {shown_deal}: {self.names[dealer]} deal{'s' if dealer != self.human else ''} ==="
                )
            p = game.current_player
            assert p is not None
            if p == self.human:
                action = self._human_move()
            else:
                action = self.agent.choose(game.view(p), self.rng)
            after = game.apply(action)
            self._describe(p, action, game, after)
            self.game = after
        return self.game

    def _human_move(self) -> Action:
        game = self.game
        view = game.view(self.human)
        legal = view.legal_actions()
        if len(legal) == 1 and legal[0].verb is Verb.PLAY:
            self.console.say(f"Your only move: {legal[0]}.")
            return legal[0]
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
                    return legal[k - 1]
                self.console.say(f"There is no move {k}: choose 1 to {len(legal)}.")
                continue
            action = self._parse(text)
            if action is None:
                continue
            try:
                game.check(action)
            except IllegalActionError as exc:
                self.console.say(f"Not allowed: {exc}")
                continue
            return action

    def _parse(self, text: str) -> Action | None:
        game = self.game
        tries = [text]
        if len(text.split()) == 1 and (not text.isalpha() or len(text) in (2, 3)):
            tries.append("play " + text)  # a bare card: play it
        first_error: Exception | None = None
        for t in tries:
            try:
                return game.parse_action(t)
            except (NotationError, IllegalActionError) as exc:
                first_error = first_error or exc
        if isinstance(first_error, IllegalActionError):
            self.console.say(f"Not allowed: {first_error}")
        else:
            self.console.say(f"Not understood: {first_error}. Type 'help' for the notation.")
        return None


def _minus(a: list[Card], b: list[Card]) -> list[Card]:
    """The cards of ``a`` not in ``b`` (as multisets)."""
    rest = list(b)
    out = []
    for c in a:
        if c in rest:
            rest.remove(c)
        else:
            out.append(c)
    return out


def play_session(
    variant: str,
    *,
    level: int | None,
    ladder_path: Path | None,
    stdin: TextIO,
    out: TextIO,
    seed: int | None = None,
    matches: int | None = None,
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

    Returns:
        The exit status (0).
    """
    rules = get_rules(variant)
    console = _Console(stdin, out)
    say = console.say
    human = 0
    ladder_file = LadderFile.load(ladder_path) if ladder_path is not None and level is None else None
    say(f"{rules.name}: you against the computer. Type 'help' for how to play, 'quit' to stop.")
    if ladder_file is not None:
        for notice in ladder_file.notices:
            say(notice)
        ladder_file.notices.clear()
        ladder = ladder_file.get(rules.name)
        say(f"Ladder: the computer plays at level {ladder.level}; your streak {ladder.score}, best {ladder.best}.")
    elif level is not None:
        say(f"Practice at level {level}: the ladder is not changed.")
    master = random.Random(seed) if seed is not None else random.SystemRandom()
    played = 0
    while True:
        ladder = ladder_file.get(rules.name) if ladder_file is not None else Ladder(matches=played)
        lvl = level if level is not None else ladder.level
        dealer = rules.players - 1 if ladder.computer_deals else human
        match_seed = deal_seed(seed, played + 1) if seed is not None else master.getrandbits(63)
        game = new_game(rules, seed=match_seed, dealer=dealer)
        say()
        say(f"--- Match {played + 1} against level {lvl} ---")
        match = _Match(console, rules, game, human, lvl, match_seed)
        try:
            final = match.play()
        except _Quit:
            say("Match abandoned: it is not counted. Goodbye.")
            return 0
        played += 1
        result, margin = _outcome(rules, final, human)
        totals = ", ".join(f"{match._side_name(s)} {v}" for s, v in enumerate(final.totals))
        say()
        say(f"Match over: {totals}.")
        if result == 1:
            say(f"You win by {margin}.")
        elif result == 0:
            say(f"The computer wins by {-margin}.")
        else:
            say("A draw.")
        if ladder_file is not None:
            new = ladder.after(result, margin)
            ladder_file.put(rules.name, new)
            if result == 1:
                say(f"Streak: {new.wins} win{'s' if new.wins != 1 else ''}, score {new.score} (best {new.best}).")
                if new.level > ladder.level:
                    say(f"The computer moves up to level {new.level}.")
                else:
                    say("The computer stays at level 5, its best.")
            else:
                say(f"Your streak ends at {ladder.score} (best {new.best}); the computer goes back to level 1.")
            for notice in ladder_file.notices:
                say(notice)
            ladder_file.notices.clear()
        if matches is not None and played >= matches:
            say("Goodbye.")
            return 0
        answer = console.ask("Another match? [Y/n] ")
        if answer is None or answer.lower() in ("n", "no", "q", "quit"):
            say("Goodbye.")
            return 0


def _outcome(rules: RuleSet, game: GameState, human: int) -> tuple[float, int]:
    """The person's result (1 win, 0.5 draw, 0 loss) and margin."""
    side = rules.side_of(human)
    totals = game.totals
    best_other = max(t for s, t in enumerate(totals) if s != side)
    margin = totals[side] - best_other
    if game.winner is None:
        return 0.5, margin
    return (1.0 if game.winner == side else 0.0), margin
