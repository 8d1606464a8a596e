"""Pictures of deals: a `PlayerView` (or a whole `DealState`, face up) drawn as SVG.

`render` builds a standalone SVG document as a string, with the standard library
only: the viewer's hand at the bottom (the cards lying on the table in their own
row), the other players' card backs and tabled cards above, the current and last
trick, the stock and the turn-up, trumps, the scores and who is to act. Card faces
(rank, suit glyph, red or black, the joker) are drawn by this module: nothing is
fetched. The output depends only on its input, so it can be compared with a golden
file, and it is well-formed XML.

>>> from bezique_rules import new_deal
>>> from bezique_rules.state.svg import render
>>> deal = new_deal("bezique", seed=1)
>>> picture = render(deal.view(0), highlight_legal=True)
>>> picture.startswith("<svg ") and picture.count('class="card hand') == 8
True

In Jupyter a view or a deal shows itself this way (``_repr_svg_``).

Cards of the viewer's hand carry ``data-card`` (the card code) and, for a card lying
on the table in a meld, ``data-tabled="true"``; legal ones (with ``highlight_legal``)
have the class ``legal``. The web game (``bezique-rules serve``) uses these to make
the cards clickable.
"""

from __future__ import annotations

from collections.abc import Sequence

from .deal import DealState, PlayerView
from .picture import WIDTH, pile_of, state_picture, view_picture

__all__ = ["WIDTH", "pile_of", "render"]


def render(
    view_or_state: PlayerView | DealState,
    *,
    highlight_legal: bool = False,
    names: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """Draw a player's view of a deal, or a whole deal face up, as a standalone SVG document.

    Args:
        view_or_state: a `PlayerView` (the other hands are card backs), or a `DealState`
            (every hand face up, seen from player 0's seat, for analysis).
        highlight_legal: outline the cards the player to act may play (for a view: only
            when the viewer is to act).
        names: what to call each seat (default ``player 0``, ``player 1`` …).
        title: the first line of the header (default: the variant's name for a state,
            nothing for a view).

    Returns:
        The SVG text (UTF-8, no XML declaration), the same for the same input.

    Raises:
        TypeError: ``view_or_state`` is neither a view nor a deal.
    """
    if isinstance(view_or_state, DealState):
        return state_picture(view_or_state, highlight_legal=highlight_legal, names=names, title=title)
    if isinstance(view_or_state, PlayerView):
        return view_picture(view_or_state, highlight_legal=highlight_legal, names=names, title=title)
    raise TypeError(f"render draws a PlayerView or a DealState, not {type(view_or_state).__name__}")
