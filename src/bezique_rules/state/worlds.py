"""Worlds a player cannot tell from his own: `determinize` from the view alone.

A *world* is a full deal state whose view for the viewer equals his view. Search agents
(information-set Monte Carlo tree search) sample one per iteration, so sampling is fast,
and it reads nothing but the view (a `PlayerView` holds no state; one restored from JSON
works the same).

Two steps:

1. **The witness** (`Worlds`, once per view): one world consistent with the view, built
   constructively, with a generator seeded by the view alone (a CRC-32 of its player,
   dealer, hand and history length: not injective, and it need not be; the same in every
   process), so equal views give the same witness.

   * `bezique_rules.state.witness_plan` deals the deck: every card a player names (plays,
     melds, declares, exchanges, discards, passes; the viewer's hand at the end) reached
     his hand in a *slot* (his dealt hand, or a draw after a trick, whose time the public
     history gives), and faces go to slots by an earliest-deadline matching, honouring the
     copies of a multi-pack deck and the turn-up; the other cards are dealt so that a
     player's unplaced slots avoid the voids he shows after they come.
   * `bezique_rules.state.witness` replays the view's public history on that deck with
     every check on, repairing in place (transpositions of cards nobody has seen) what the
     plan cannot know: another player's hidden decisions (a burial, a pass of cards, a
     farmer's hand), melds laid without naming cards, a turn-up exchanged.

   The witness is then checked: its view must equal the viewer's, and when a repair may
   have changed what an earlier step allowed, its history must replay with checks (a
   `DealError` naming the preset otherwise: please report it). When the planned and the
   plain decks all fail, a last resort builds worlds without replaying as it goes (strict
   off), and keeps the first whose history replays with checks to the view; only when none
   does is a world that fits the view but whose past does not replay returned (a known gap
   no sweep has met: `benchmarks/worlds_sweep.py 3 200`, 35,418 views of every preset and
   house-rule setup, needed the last resort for two double-deck-pinochle views, and found
   worlds that replay for both).

2. **A sample** (`Worlds.sample`): the engine's own ``_determinize`` on the witness deals
   the cards the viewer has not seen again at random among their places, under every
   constraint the engine knows (voids, melds, burials, passes, a carte blanche, a
   farmer's hand), uniformly over the consistent placements where the engine says so.

What is sampled: the current placement of the hidden cards, by the engine. What is not:
the unobservable past (which hidden card went where before it was revealed, which cards
another player buried or passed) is the witness's. That past cannot change what any legal
continuation does, so a search over samples is sound; and since the witness depends on the
view alone, two states with equal views give the same worlds for the same ``rng``.

`Worlds` pays for the witness once, so an agent takes one per decision and samples from
it on every iteration; `bezique_rules.determinize` is ``Worlds(view).sample(rng)``. Nothing
is cached between calls (no hidden global state).
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterable, Iterator

import attrs

from ..actions import Verb
from ..errors import DealError
from .deal import DealState, PlayerView, check_rng, check_view
from .witness import Stuck, Witness

__all__ = ["Worlds", "determinize"]

_DECKS = 6
"""How many decks (seeded from the view, in turn) the witness starts from at most: the
repairs almost always succeed on the first; a few late auction-game views need another."""
_MORE_DECKS = 40
"""How many decks the last resort tries, seeded from the view's whole JSON form, planned and
plain in turn (for the few views whose repairs fail on the first `_DECKS`: only they pay)."""
_TURN_UP_TRIES = 8
"""How many faces the witness tries for a turn-up the view no longer shows (an exchanged or
drawn turn-up: the first candidate almost always fits)."""


class Worlds:
    """The worlds a player cannot tell from his view: build once, sample many.

    >>> import random
    >>> from bezique_rules import Worlds, new_deal
    >>> deal = new_deal("bezique", seed=7).apply("play AS")
    >>> worlds = Worlds(deal.view(1))
    >>> world = worlds.sample(random.Random(1))
    >>> world.view(1) == deal.view(1), world is deal
    (True, False)

    Building it finds one world consistent with the view (the *witness*, a function of the
    view alone); `sample` deals the hidden cards of the witness again at random. See the
    module docs for the algorithm and the distribution.

    Raises:
        ArgumentTypeError: ``view`` is not a `PlayerView` (a TypeError).
        DealError: no consistent world was built (a defect: please report it).
    """

    __slots__ = ("_witness", "view")

    view: PlayerView
    """The view the worlds agree with."""

    def __init__(self, view: PlayerView) -> None:
        self.view = check_view(view, "Worlds")
        self._witness = _build(view)

    @property
    def witness(self) -> DealState:
        """The world built from the view (the same for equal views)."""
        return self._witness

    def sample(self, rng: random.Random) -> DealState:
        """A world: the witness with the cards the viewer has not seen dealt again with
        ``rng`` (the engine's ``_determinize``); never the deal the view was taken from.

        Raises:
            ArgumentTypeError: ``rng`` is not a `random.Random` (a TypeError).
        """
        check_rng(rng, "Worlds.sample")
        return self._witness._determinize(self.view.player, rng)

    def __repr__(self) -> str:
        return f"Worlds({self.view!r})"


def _deal_view(view: PlayerView) -> PlayerView:
    """``view`` as its deal shows it (a game's view adds the totals and the cut for deal)."""
    if view.game_scores is None and view.cut_for_deal is None:
        return view
    return attrs.evolve(view, game_scores=None, cut_for_deal=None)


def _digest(view: PlayerView) -> int:
    """A seed that is a function of the view alone, the same in every process."""
    # not injective (it need not be): the view's identity, hand and length of history
    text = f"{view.rules.name}|{view.player}|{view.dealer}|{len(view.history)}|{' '.join(map(str, view.hand))}"
    return zlib.crc32(text.encode())


def _full_digest(view: PlayerView) -> int:
    """A seed from everything the view shows (its JSON form), for the last resort only."""
    return zlib.crc32(json.dumps(view.to_dict(), sort_keys=True).encode())


def _attempts(view: PlayerView) -> Iterator[tuple[int, int, bool, bool]]:
    """The witness's tries in turn: (seed, turn-up face, strict, planned)."""
    seed = _digest(view)
    candidates = _turn_up_candidates(view)[:_TURN_UP_TRIES]
    for attempt in range(_DECKS):
        for planned in (True, False):  # the planned deck; else a plain shuffle, all repaired
            for turn_up in candidates if attempt == 0 else candidates[:1]:
                yield seed + attempt, turn_up, True, planned
    for attempt in range(_DECKS):  # a world that fits the view (see `strict`)
        yield seed + attempt, candidates[0], False, True
    seed = _full_digest(view)  # the last resort: more decks, seeded from all the view shows
    for attempt in range(_MORE_DECKS):
        for strict in (True, False):
            yield seed + attempt, candidates[0], strict, attempt % 2 == 0


def _build(view: PlayerView) -> DealState:
    """The witness of ``view`` (see the module docs)."""
    target = _deal_view(view)
    last: Stuck | None = None
    unreplayed: DealState | None = None  # a world that fits the view, whose past does not
    for seed, turn_up, strict, planned in _attempts(view):
        witness = Witness(target, random.Random(seed), turn_up, strict=strict, planned=planned)
        try:
            world = witness.build()
        except Stuck as stuck:
            last = stuck
            continue
        shown = witness.shown_view
        if (shown[1] if shown is not None and shown[0] is world else world.view(view.player)) == target:
            if strict or witness.replays(world):
                return world
            unreplayed = unreplayed or world
            last = Stuck("the world's history does not replay to it")
            continue
        last = Stuck("the world built shows the viewer another view")
    if unreplayed is not None:  # the known gap (see the module docs): rare, and it fits the view
        return unreplayed
    raise DealError(
        f"determinize found no world consistent with player {view.player}'s view in {view.rules.name!r} "
        f"({len(view.history)} actions in; {last}); please report it"
    )


def _turn_up_candidates(view: PlayerView) -> list[int]:
    """Faces for the turn-up the deal began with, likeliest first (``[-1]``: any, or none)."""
    rules = view.rules
    deck = rules.deck
    exchanged = any(a.verb is Verb.EXCHANGE for _, a in view.history)
    if not rules.deal.turn_up:  # the deal turns no card up
        return [-1]
    if view.turn_up is not None and not exchanged:
        return [deck.face_index[view.turn_up]]
    if view.trump is None:
        return [-1]
    out: list[int] = []

    def add(cards: Iterable[object]) -> None:
        for card in cards:
            f = deck.face_index.get(card)  # type: ignore[call-overload]
            if f is not None and deck.faces[f].suit is view.trump and f not in out:
                out.append(f)

    for q, known in enumerate(view.known):  # a known card no meld explains first (a drawn turn-up)
        melded = {c for m in view.melds if m.player == q for c in m.cards}
        add(c for c in known if c not in melded)
    for known in view.known:
        add(known)
    for i, (q, action) in enumerate(view.history):  # what an exchanger names later: the turn-up he took
        if action.verb is Verb.EXCHANGE:
            add(c for w, a in view.history[i + 1 :] if w == q for c in a.cards)
            if q == view.player:
                add(view.hand)
    for _, action in view.history:
        if action.verb is not Verb.EXCHANGE:
            add(action.cards)
    add(deck.faces)
    # an exchange gives the dix (the seven, or nine, of trumps) for the turn-up: not a dix itself
    dix = {deck.face_index[c] for _, a in view.history if a.verb is Verb.EXCHANGE for c in a.cards}
    return [f for f in out if f not in dix] + [f for f in out if f in dix]


def determinize_world(view: PlayerView, rng: random.Random) -> DealState:
    """``Worlds(view).sample(rng)`` (what `bezique_rules.determinize` does)."""
    return Worlds(view).sample(rng)


def determinize(view: PlayerView, rng: random.Random) -> DealState:
    """A full deal state consistent with everything ``view`` shows, from the view alone.

    The cards the viewer cannot see (other players' concealed unknown cards, the
    face-down stock, a hidden widow or burial) are dealt at random among their
    places, consistent with what the history implies (voids, melds, passes), so that
    ``determinize(view, rng).view(view.player) == view``; equal views give the same
    world for the same ``rng``, and a world's record replays to it. Use it for
    imperfect-information search; `Worlds` builds the consistent world once and
    samples many (``determinize(view, rng)`` is ``Worlds(view).sample(rng)``; see
    the module docs for the distribution).

    >>> from bezique_rules import new_deal, determinize
    >>> import random
    >>> deal = new_deal("bezique", seed=7)
    >>> guess = determinize(deal.view(0), random.Random(1))
    >>> guess.view(0) == deal.view(0)
    True

    Raises:
        ArgumentTypeError: ``view`` is not a `PlayerView`, or ``rng`` is not a
            `random.Random` (both are TypeErrors).
    """
    check_view(view, "determinize")
    check_rng(rng, "determinize")
    return Worlds(view).sample(rng)
