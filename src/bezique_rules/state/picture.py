"""The drawing behind `bezique_rules.state.svg`: a deal's picture laid out from the players' views.

It reads views (and, for a whole deal face up, the deal's own views of every seat), never
the state's hidden fields. `DealState` and `PlayerView` import it on use for their Jupyter
pictures (``_repr_svg_``); it imports neither at run time, so the state layer and its
pictures form no import loop. The public entry is `bezique_rules.state.svg.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal
from xml.sax.saxutils import escape

from ..actions import Action, Verb
from ..cards import Card, Rank, Suit, cards_without
from ..parts.auction import Auction
from ..parts.euchre import OrderUp

if TYPE_CHECKING:
    from .deal import DealState, PlayerView

__all__ = ["pile_of", "state_picture", "view_picture"]

WIDTH = 960
"""The width of every picture (the height follows from the number of players)."""

_BIG = (62, 88)
_SMALL = (44, 62)
_FELT = "#1f5f3a"
_INK = "#f4f1e8"
_RED = "#c62828"
_BLACK = "#1c1c1c"
_GOLD = "#ffb300"
_FONT = "font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\""

_TABLED = ' data-tabled="true"'
_RANK_LABEL = {Rank.TEN: "10", Rank.JOKER: "JK"}
_SUIT_SHAPES = {
    Suit.HEARTS: '<path d="M0 9C-3 6-10 1-10-4C-10-8-7-10-4.5-10C-2.5-10-1-8.5 0-7C1-8.5 2.5-10 4.5-10'
    'C7-10 10-8 10-4C10 1 3 6 0 9Z"/>',
    Suit.DIAMONDS: '<path d="M0-10L7.5 0L0 10L-7.5 0Z"/>',
    Suit.SPADES: '<path d="M0-10C-3-6-10-2-10 2.5C-10 5.5-7.5 7-5.5 7C-3.5 7-2 6-1 4.5L-2.5 10H2.5L1 4.5'
    'C2 6 3.5 7 5.5 7C7.5 7 10 5.5 10 2.5C10-2 3-6 0-10Z"/>',
    Suit.CLUBS: '<circle cx="0" cy="-5" r="4.4"/><circle cx="-5" cy="1.6" r="4.4"/>'
    '<circle cx="5" cy="1.6" r="4.4"/><path d="M0-1L-2.6 10H2.6Z"/>',
}
_STAR = '<path d="M0-10L2.9-4L9.5-3.1L4.7 1.5L5.9 8.1L0 5L-5.9 8.1L-4.7 1.5L-9.5-3.1L-2.9-4Z"/>'


def _n(value: float) -> str:
    """A coordinate: whole numbers without a decimal point, else one decimal."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _glyph(suit: Suit | None, x: float, y: float, size: float) -> str:
    """A suit glyph (or the joker's star) centred on (x, y), ``size`` pixels high."""
    colour = _RED if suit is None or suit.is_red else _BLACK
    shape = _STAR if suit is None else _SUIT_SHAPES[suit]
    return f'<g transform="translate({_n(x)} {_n(y)}) scale({_n(size / 20)})" fill="{colour}">{shape}</g>'


def _card_name(card: Card) -> str:
    if card.suit is None:
        return "joker"
    return f"{card.rank.name.lower()} of {card.suit.name.lower()}"


def _face(
    card: Card, x: float, y: float, size: tuple[int, int], *, extra: str = "", legal: bool = False, tabled: bool = False
) -> str:
    """A card face at (x, y): rank and small suit in the corner, a large suit in the middle."""
    w, h = size
    colour = _RED if card.suit is None or card.suit.is_red else _BLACK
    rank = _RANK_LABEL.get(card.rank, card.rank.code)
    fs = 15 if w >= 60 else 12
    stroke = f'stroke="{_GOLD}" stroke-width="3"' if legal else 'stroke="#555" stroke-width="1"'
    parts = [
        f'<g class="card{extra and " " + extra}{" legal" if legal else ""}"{_TABLED if tabled else ""}'
        f' data-card="{card}"'
        f' transform="translate({_n(x)} {_n(y)})">',
        f"<title>{_card_name(card)}</title>",
        f'<rect width="{w}" height="{h}" rx="5" fill="#fffdf7" {stroke}/>',
        f'<text x="4" y="{fs + 1}" font-size="{fs}" font-weight="bold" fill="{colour}" {_FONT}>{rank}</text>',
        _glyph(card.suit, 4 + fs * 0.4, fs + 11, fs * 0.75),
        _glyph(card.suit, w / 2 + 3, h / 2 + 8, w * 0.45),
    ]
    if card.suit is None:
        parts.append(
            f'<text x="{_n(w / 2 + 3)}" y="{h - 6}" font-size="{fs - 4}" text-anchor="middle" fill="{_RED}"'
            f" {_FONT}>JOKER</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def _back(x: float, y: float, size: tuple[int, int]) -> str:
    """A card back at (x, y)."""
    w, h = size
    return (
        f'<g class="back" transform="translate({_n(x)} {_n(y)})">'
        f'<rect width="{w}" height="{h}" rx="5" fill="#30479b" stroke="#f4f1e8" stroke-width="1"/>'
        f'<rect x="4" y="4" width="{w - 8}" height="{h - 8}" rx="3" fill="none" stroke="#9fb0e8"'
        ' stroke-width="1" stroke-dasharray="3 2"/></g>'
    )


def _text(x: float, y: float, text: str, *, size: int = 13, anchor: str = "start", bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" fill="{_INK}" text-anchor="{anchor}"{weight} {_FONT}>'
        f"{escape(text)}</text>"
    )


def _step(count: int, size: tuple[int, int], room: float) -> float:
    """How far apart ``count`` cards of ``size`` are laid to fit ``room`` pixels (overlapping if need be)."""
    if count <= 1:
        return 0
    return min(size[0] + 6, (room - size[0]) / (count - 1))


def _row(
    cards: Sequence[Card],
    x: float,
    y: float,
    size: tuple[int, int],
    room: float,
    *,
    extra: str = "",
    legal: frozenset[Card] = frozenset(),
    tabled: bool = False,
) -> list[str]:
    step = _step(len(cards), size, room)
    return [_face(c, x + i * step, y, size, extra=extra, legal=c in legal, tabled=tabled) for i, c in enumerate(cards)]


def _legal_plays(actions: Sequence[Action]) -> tuple[frozenset[Card], frozenset[Card]]:
    """The cards that may be played from the concealed hand, and from the table."""
    hidden: set[Card] = set()
    table: set[Card] = set()
    for a in actions:
        if a.verb is Verb.PLAY and len(a.cards) == 1:
            (table if a.tabled and a.tabled[0] else hidden).add(a.cards[0])
    return frozenset(hidden), frozenset(table)


def state_picture(
    state: DealState,
    *,
    highlight_legal: bool = False,
    names: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """A whole deal, every hand face up, seen from player 0's seat (see `bezique_rules.state.svg.render`)."""
    views = [state.view(p) for p in range(state.players)]
    legal = state.legal_actions() if highlight_legal else ()
    title = state.rules.name if title is None else title
    return _Picture(views[0], views, True, legal, names, title).draw()


def view_picture(
    view: PlayerView,
    *,
    highlight_legal: bool = False,
    names: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """A player's view, the other hands as card backs (see `bezique_rules.state.svg.render`)."""
    legal = view.legal_actions() if highlight_legal else ()
    return _Picture(view, [view], False, legal, names, title).draw()


def pile_of(view: PlayerView) -> tuple[Literal["stock", "kitty", "widow"], Literal["face up", "taken", "turned down"]]:
    """What the face-down pile is called and how the turn-up lies, read from the view (its rule
    set names the pile; its history says how the turn-up lies): Euchre's
    kitty (its turn-up face up while the first round of bidding lasts, then ``taken`` up by
    the dealer or ``turned down``), an auction's widow, else the stock (its turn-up face up).

    >>> from bezique_rules import new_deal
    >>> pile_of(new_deal("euchre", seed=0).view(0)), pile_of(new_deal("euchre", seed=0).apply("order-up").view(0))
    (('kitty', 'face up'), ('kitty', 'taken'))
    """
    bidding = view.rules.bidding
    if not isinstance(bidding, OrderUp):
        return ("widow" if isinstance(bidding, Auction) else "stock"), "face up"
    verbs = {a.verb for _, a in view.history}
    if Verb.ORDER_UP in verbs:
        return "kitty", "taken"
    passes = sum(1 for _, a in view.history if a.verb is Verb.PASS)
    if Verb.CALL in verbs or view.trump is not None or passes >= len(view.hand_sizes):
        return "kitty", "turned down"
    return "kitty", "face up"


class _Picture:
    """The layout of one picture, top to bottom."""

    def __init__(
        self,
        view: PlayerView,
        views: list[PlayerView],
        face_up: bool,
        legal: Sequence[Action],
        names: Sequence[str] | None,
        title: str | None,
    ) -> None:
        self.view = view
        self.views = views
        self.face_up = face_up
        self.players = len(view.hand_sizes)
        self.names = list(names) if names is not None else [f"player {p}" for p in range(self.players)]
        if len(self.names) != self.players:
            raise ValueError(f"names: one per seat ({self.players}), not {len(self.names)}: {list(self.names)!r}")
        self.title = title
        self.legal = _legal_plays(legal)
        self.actor = view.current_player
        self.parts: list[str] = []

    def draw(self) -> str:
        y = self._header(0)
        for k in range(1, self.players):
            y = self._opponent((self.view.player + k) % self.players, y)
        y = self._centre(y)
        y = self._own(y)
        y = self._melds(y)
        height = y + 8
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{_n(height)}"'
            f' viewBox="0 0 {WIDTH} {_n(height)}" role="img" class="bezique-deal">'
        )
        label = f"<title>{escape(self._label())}</title>"
        background = f'<rect width="{WIDTH}" height="{_n(height)}" rx="10" fill="{_FELT}"/>'
        return head + label + background + "".join(self.parts) + "</svg>\n"

    def _label(self) -> str:
        v = self.view
        hand = " ".join(str(c) for c in v.hand)
        who = self.names[v.player]
        trump = f", trumps {v.trump.name.lower()}" if v.trump is not None else ""
        return f"{self.title + ': ' if self.title else ''}{who}'s hand {hand or '(empty)'}{trump}"

    def _seat_label(self, p: int) -> str:
        tags = [self.names[p]]
        if p == self.view.dealer:
            tags.append("dealer")
        if p in self.view.sitting_out:
            tags.append("sits out")
        if p == self.actor:
            tags.append("to act")
        return " · ".join(tags)

    def _header(self, y: float) -> float:
        v = self.view
        first = [self.title] if self.title else []
        first.append(f"phase: {v.phase.value}")
        if self.actor is not None:
            first.append(f"to act: {self.names[self.actor]}")
        else:
            first.append("the deal is over")
        self.parts.append(_text(14, y + 22, " · ".join(first), size=15, bold=True))
        sides = self._sides()
        scores = " · ".join(f"{' & '.join(self.names[p] for p in side)} {s}" for side, s in zip(sides, v.scores))
        line = f"scores: {scores}"
        if v.game_scores is not None and any(v.game_scores):
            line += "   (before this deal: " + " · ".join(str(s) for s in v.game_scores) + ")"
        self.parts.append(_text(14, y + 42, line))
        if v.trump is not None:
            self.parts.append(_text(WIDTH - 40, y + 30, "trumps", anchor="end"))
            self.parts.append(
                f'<circle cx="{WIDTH - 22}" cy="{_n(y + 26)}" r="14" fill="#fffdf7" stroke="#555" stroke-width="1"/>'
            )
            self.parts.append(_glyph(v.trump, WIDTH - 22, y + 26, 18))
        return y + 52

    def _sides(self) -> list[tuple[int, ...]]:
        count = len(self.view.scores)
        if count == self.players:
            return [(p,) for p in range(self.players)]
        return [tuple(p for p in range(self.players) if p % count == s) for s in range(count)]

    def _legal_for(self, p: int) -> tuple[frozenset[Card], frozenset[Card]]:
        return self.legal if p == self.actor else (frozenset(), frozenset())

    def _opponent(self, p: int, y: float) -> float:
        v = self.view
        tabled = list(v.tabled[p]) if v.tabled else []
        concealed = v.hand_sizes[p] - len(tabled)
        self.parts.append(_text(14, y + 16, f"{self._seat_label(p)} · {v.hand_sizes[p]} cards"))
        top = y + 22
        if self.face_up:
            hidden, table = self._legal_for(p)
            hand = cards_without(self.views[p].hand, tabled)  # the concealed cards
            self.parts.extend(_row(hand, 14, top, _SMALL, 470, legal=hidden))
        else:
            step = _step(concealed, _SMALL, 470)
            self.parts.extend(_back(14 + i * step, top, _SMALL) for i in range(concealed))
            table = frozenset()
        if tabled:
            self.parts.append(_text(500, y + 16, "on the table"))
            self.parts.extend(_row(tabled, 500, top, _SMALL, WIDTH - 514, extra="tabled", legal=table, tabled=True))
        return top + _SMALL[1] + 8

    def _centre(self, y: float) -> float:
        v = self.view
        n = self.players
        top = y + 22
        self.parts.append(_text(14, y + 16, "trick", bold=True))
        seats = v.seats_in_play(v.trick_leader)
        for i, card in enumerate(v.trick):
            x = 14 + i * (_BIG[0] + 10)
            self.parts.append(_face(card, x, top, _BIG, extra="trick"))
            self.parts.append(_text(x + _BIG[0] / 2, top + _BIG[1] + 14, self.names[seats[i]],
                                    size=11, anchor="middle"))  # fmt: skip
        x0 = 14 + max(n, 2) * (_BIG[0] + 10) + 20
        self.parts.append(_text(x0, y + 16, "last trick"))
        last_seats = v.seats_in_play(v.last_trick_leader)
        for i, card in enumerate(v.last_trick):
            x = x0 + i * (_SMALL[0] + 6)
            self.parts.append(_face(card, x, top, _SMALL, extra="last"))
            self.parts.append(_text(x + _SMALL[0] / 2, top + _SMALL[1] + 13, self.names[last_seats[i]],
                                    size=10, anchor="middle"))  # fmt: skip
        x1 = x0 + max(n, 2) * (_SMALL[0] + 6) + 40
        if v.stock_size or v.turn_up is not None:
            pile, up = pile_of(v)
            self.parts.append(_text(x1, y + 16, f"{pile}: {v.stock_size}"))
            for k in range(min(3, v.stock_size)):
                self.parts.append(_back(x1 + 2 * k, top + 2 * k, _BIG))
            if v.turn_up is not None and up == "face up":
                self.parts.append(_text(x1 + 90, y + 16, "turn-up"))
                self.parts.append(_face(v.turn_up, x1 + 90, top, _BIG, extra="turn-up"))
            elif v.turn_up is not None:  # Euchre: taken up by the dealer, or turned down
                taken = f"taken up by {self.names[v.dealer]}" if up == "taken" else "turned down"
                self.parts.append(_text(x1 + 90, y + 16, f"turn-up {v.turn_up}"))
                self.parts.append(_text(x1 + 90, y + 34, taken, size=11))
        if v.cut is not None:
            self.parts.append(_text(x1 + 180, y + 16, f"cut: {v.cut}"))
        return top + _BIG[1] + 24

    def _own(self, y: float) -> float:
        v = self.view
        p = v.player
        hidden, table = self._legal_for(p)
        tabled = list(v.tabled[p]) if v.tabled else []
        if tabled:
            self.parts.append(_text(14, y + 14, "on the table"))
            self.parts.extend(_row(tabled, 14, y + 20, _BIG, WIDTH - 28, extra="hand tabled", legal=table, tabled=True))
            y += 20 + _BIG[1] + 6
        hand = cards_without(v.hand, tabled)  # the concealed cards
        self.parts.append(_text(14, y + 16, f"{self._seat_label(p)} · {v.hand_sizes[p]} cards", bold=True))
        self.parts.extend(_row(hand, 14, y + 24, _BIG, WIDTH - 28, extra="hand", legal=hidden))
        if not hand:
            self.parts.append(_text(14, y + 44, "(no cards)"))
        return y + 24 + _BIG[1] + 6

    def _melds(self, y: float) -> float:
        melds = self.view.melds[-4:]
        if not melds:
            return y
        earlier = len(self.view.melds) - len(melds)
        y += 16
        self.parts.append(_text(14, y, f"melds{f' (the last 4; {earlier} earlier)' if earlier else ''}:", size=12))
        for m in melds:
            y += 16
            cards = " ".join(str(c) for c in m.cards)
            self.parts.append(_text(28, y, f"{self.names[m.player]}: {m.kind} {cards} ({m.points})", size=12))
        return y + 8
