"""The ladder of ``bezique-rules play`` and the small JSON file that keeps it.

Each match the person wins raises the computer one level, up to level 5; a
loss or a draw ends the streak and the computer goes back to level 1. The
streak score is the number of wins plus the sum of the winning margins as four
decimals: ``3.0870`` is three wins whose margins add up to 870 (the margin part
stops at 9999). The best score is kept.

The file is written whole to a temporary file, then moved over the old one
(`os.replace`), so an interrupted write never leaves half a file. A file that
cannot be read as a ladder is reported, renamed out of the way and replaced by
a fresh ladder: the program never stops because of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

__all__ = ["ENV_VAR", "Ladder", "LadderFile", "default_ladder_path", "format_score", "streak_text"]

ENV_VAR = "BEZIQUE_RULES_LADDER"
"""The environment variable naming the ladder file."""

_FORMAT = "bezique-rules-ladder"
_VERSION = 1
MAX_LEVEL = 5
"""The highest level of the computer."""
MARGIN_CAP = 9999
"""The margin part of a streak score stops here."""


def format_score(wins: int, margins: int) -> str:
    """A streak score: wins, then the margins as four decimals.

    >>> format_score(3, 870), format_score(1, 12345)
    ('3.0870', '1.9999')
    """
    return f"{wins}.{min(max(margins, 0), MARGIN_CAP):04d}"


@attrs.frozen
class Ladder:
    """The ladder of one variant: the current streak, the best one, and the matches played."""

    wins: int = 0
    """Matches won in the current streak."""
    margins: int = 0
    """The sum of the winning margins of the current streak."""
    matches: int = 0
    """Matches played (the first dealer alternates from match to match)."""
    best_wins: int = 0
    """Wins of the best streak so far."""
    best_margins: int = 0
    """Margins of the best streak so far."""

    @property
    def level(self) -> int:
        """The computer's level for the next match: 1 plus the wins of the streak, at most 5."""
        return min(MAX_LEVEL, 1 + self.wins)

    @property
    def score(self) -> str:
        """The current streak score, e.g. ``"2.0450"``."""
        return format_score(self.wins, self.margins)

    @property
    def best(self) -> str:
        """The best streak score."""
        return format_score(self.best_wins, self.best_margins)

    @property
    def computer_deals(self) -> bool:
        """Whether the computer deals the next match (it deals the first, then every other)."""
        return self.matches % 2 == 0

    def after(self, result: float, margin: int) -> Ladder:
        """The ladder after a match: ``result`` 1 for a win of the person, 0.5 for a draw,
        0 for a loss; ``margin`` the points by which the person won.

        >>> Ladder().after(1, 430).after(1, 440).score
        '2.0870'
        >>> Ladder(wins=4, margins=900).after(0, -50)
        Ladder(wins=0, margins=0, matches=1, best_wins=0, best_margins=0)
        """
        if result == 1:
            wins, margins = self.wins + 1, self.margins + max(0, margin)
        else:
            wins, margins = 0, 0
        best_wins, best_margins = self.best_wins, self.best_margins
        if (wins, min(margins, MARGIN_CAP)) > (best_wins, min(best_margins, MARGIN_CAP)):
            best_wins, best_margins = wins, margins
        return Ladder(wins, margins, self.matches + 1, best_wins, best_margins)

    def to_dict(self) -> dict[str, int]:
        """The ladder as JSON-safe data."""
        return attrs.asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Ladder:
        """Read `to_dict` output.

        Raises:
            ValueError: the data is not a ladder.
        """
        if not isinstance(data, Mapping):
            raise ValueError("a ladder is a JSON object")
        values = {}
        for field in attrs.fields(cls):
            v = data.get(field.name, 0)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"{field.name} must be a whole number of 0 or more, not {v!r}")
            values[field.name] = v
        return cls(**values)


def streak_text(ladder: Ladder) -> str:
    """The streak as the games show it: the score, and what it means in words.

    >>> streak_text(Ladder()), streak_text(Ladder(wins=2, margins=450, best_wins=2, best_margins=450))
    ('streak 0.0000 (no wins yet)', 'streak 2.0450 (2 wins, margins 450) · best 2.0450')
    """
    if ladder.wins:
        meaning = f"{ladder.wins} win{'s' if ladder.wins != 1 else ''}, margins {ladder.margins}"
    else:
        meaning = "no wins yet"
    best = f" · best {ladder.best}" if ladder.best_wins else ""
    return f"streak {ladder.score} ({meaning}){best}"


def default_ladder_path() -> Path:
    """Where the ladder lives: ``$BEZIQUE_RULES_LADDER`` if set, else the user's data
    directory (``%APPDATA%\\bezique-rules`` on Windows, ``$XDG_DATA_HOME/bezique-rules`` or
    ``~/.local/share/bezique-rules`` elsewhere), file ``ladder.json``."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "bezique-rules" / "ladder.json"


@attrs.define
class LadderFile:
    """The ladder file: one `Ladder` per variant.

    `load` never raises: a missing file is an empty ladder, a corrupt one is set
    aside (renamed) and reported in `notices`.
    """

    path: Path
    """The file."""
    ladders: dict[str, Ladder] = attrs.field(factory=dict)
    """The ladder of each variant."""
    notices: list[str] = attrs.field(factory=list)
    """What went wrong reading or writing the file, for the person to read."""
    lock: threading.Lock = attrs.field(factory=threading.Lock, eq=False, repr=False)
    """Held while the ladders are read or changed by several games at once (the web server)."""

    @classmethod
    def load(cls, path: Path) -> LadderFile:
        """Read the ladder file (see the class docs: this never raises)."""
        found = cls(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return found
        except (OSError, UnicodeDecodeError) as exc:
            found._set_aside(f"cannot be read ({exc.__class__.__name__})")
            return found
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != _FORMAT:
                raise ValueError("not a bezique-rules ladder file")
            if data.get("version") != _VERSION:
                raise ValueError(f"unknown version {data.get('version')!r}")
            ladders = data.get("ladders")
            if not isinstance(ladders, dict):
                raise ValueError("no ladders")
            found.ladders = {str(k): Ladder.from_dict(v) for k, v in ladders.items()}
        except ValueError as exc:
            found._set_aside(f"is corrupt ({exc})")
        return found

    def _set_aside(self, why: str) -> None:
        aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.path, aside)
            self.notices.append(f"The ladder file {self.path} {why}; it was set aside as {aside.name}. "
                                "A new ladder starts.")  # fmt: skip
        except OSError:
            self.notices.append(f"The ladder file {self.path} {why} and could not be set aside. A new ladder starts.")

    def get(self, variant: str) -> Ladder:
        """The ladder of ``variant`` (a fresh one when there is none)."""
        return self.ladders.get(variant, Ladder())

    def put(self, variant: str, ladder: Ladder) -> bool:
        """Store the ladder of ``variant`` and write the file; False (with a notice) when the
        file cannot be written."""
        self.ladders[variant] = ladder
        return self.save()

    def save(self) -> bool:
        """Write the file atomically: a temporary file in the same directory, then `os.replace`."""
        data = {
            "format": _FORMAT,
            "version": _VERSION,
            "ladders": {k: v.to_dict() for k, v in sorted(self.ladders.items())},
        }
        text = json.dumps(data, indent=2, sort_keys=True) + "\n"
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=self.path.name + ".", suffix=".tmp", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
            tmp = None
            return True
        except OSError as exc:
            self.notices.append(f"The ladder could not be saved to {self.path}: {exc.strerror or exc}.")
            return False
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
