"""Moving Euchre deals between this library and OpenSpiel's ``euchre``.

OpenSpiel numbers its actions 0-30: cards 0-23 (``rank * 4 + suit`` with suits
C D H S = 0 1 2 3 and ranks 9 T J Q K A = 0-5), 24 Pass, 25-28 the suits
Clubs, Diamonds, Hearts, Spades (ordering up in round one, naming trumps in
round two), 29 Alone, 30 Partner. The same number means different actions in
different phases, so both directions take the state.

OpenSpiel's chance outcomes are the dealer, the 20 cards dealt one at a time
(the first to the dealer) and the up-card. `deck_from_openspiel` turns them into
a stacked ``deck=`` for the ``euchre-openspiel`` preset, so the same deal can be
replayed step by step in either engine:

>>> from bezique_rules import new_deal
>>> from bezique_rules.integrations.openspiel import deck_from_openspiel, to_openspiel_action
>>> deal = new_deal("euchre-openspiel", deck=deck_from_openspiel(range(21)), dealer=0)
>>> [to_openspiel_action(deal, a) for a in deal.legal_actions()]
[24, 25]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._extras import missing_extra
from ..actions import Action, Verb
from ..cards import Card, Rank, Suit
from ..errors import IllegalActionError, NotationError, RuleCode
from ..state.deal import DealState, Phase

__all__ = [
    "card_from_openspiel",
    "deck_from_openspiel",
    "from_openspiel_action",
    "openspiel_card",
    "openspiel_returns",
    "openspiel_state",
    "register",
    "to_openspiel_action",
]

_OS_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_OS_RANKS = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
PASS, ALONE, PARTNER = 24, 29, 30


def openspiel_card(card: Card) -> int:
    """OpenSpiel's id (0-23) of a card of the 24-card pack.

    >>> openspiel_card(Card.parse("9C")), openspiel_card(Card.parse("AS"))
    (0, 23)

    Raises:
        NotationError: not a card of OpenSpiel's pack.
    """
    if card.suit is None or card.rank not in _OS_RANKS:
        raise NotationError(f"{card} is not a card of OpenSpiel's 24-card euchre pack")
    return _OS_RANKS.index(card.rank) * 4 + _OS_SUITS.index(card.suit)


def card_from_openspiel(card_id: int) -> Card:
    """The card with OpenSpiel id ``card_id`` (0-23).

    >>> str(card_from_openspiel(2))
    '9H'

    Raises:
        NotationError: not a card id.
    """
    if not isinstance(card_id, int) or isinstance(card_id, bool) or not 0 <= card_id < 24:
        raise NotationError(f"OpenSpiel card ids are 0 to 23, not {card_id!r}")
    return Card(_OS_SUITS[card_id % 4], _OS_RANKS[card_id // 4])


def deck_from_openspiel(chance_cards: Iterable[int]) -> list[Card]:
    """A stacked deck for ``euchre-openspiel`` from OpenSpiel's dealing chance outcomes.

    Args:
        chance_cards: the 20 dealt card ids in OpenSpiel's order (the first to the
            dealer), then the up-card id; the three kitty cards OpenSpiel never
            reveals follow in id order.

    Raises:
        NotationError: a bad id, a repeated card, or not 21 ids.
    """
    ids = list(chance_cards)
    if len(ids) != 21 or len(set(ids)) != 21:
        raise NotationError("give the 20 dealt cards and the up-card: 21 distinct OpenSpiel card ids")
    cards = [card_from_openspiel(i) for i in ids]
    cards.extend(card_from_openspiel(i) for i in range(24) if i not in ids)
    return cards


def _suit_id(suit: Suit) -> int:
    return 25 + _OS_SUITS.index(suit)


def to_openspiel_action(state: DealState, action: Action | str) -> int:
    """OpenSpiel's action id (0-30) for ``action`` in ``state`` (a Euchre deal).

    Raises:
        IllegalActionError: the action has no OpenSpiel counterpart here.
    """
    a = state.parse_action(action) if isinstance(action, str) else action
    phase = state.phase
    if a.verb in (Verb.PLAY, Verb.DISCARD) and len(a.cards) == 1:
        return openspiel_card(a.cards[0])
    if phase is Phase.ALONE:
        if a.verb is Verb.ALONE:
            return ALONE
        if a.verb is Verb.PASS:
            return PARTNER
    if a.verb is Verb.PASS:
        return PASS
    if a.verb is Verb.ORDER_UP and not a.alone:
        turn_up = state.view(0).turn_up
        if turn_up is not None and turn_up.suit is not None:
            return _suit_id(turn_up.suit)
    if a.verb is Verb.CALL and not a.alone and a.suit is not None:
        return _suit_id(a.suit)
    raise _not_an_action(state, a, f"no OpenSpiel euchre action matches {str(a)!r}")


def from_openspiel_action(state: DealState, action_id: int) -> Action:
    """Our action for OpenSpiel's ``action_id`` (0-30) in ``state`` (a Euchre deal).

    Raises:
        IllegalActionError: the id means nothing in this phase.
    """
    phase = state.phase
    if isinstance(action_id, int) and 0 <= action_id < 24 and phase in (Phase.DISCARD, Phase.TRICKS):
        card = card_from_openspiel(action_id)
        verb = Verb.DISCARD if phase is Phase.DISCARD else Verb.PLAY
        return Action.make(verb, [card])
    if phase is Phase.ALONE and action_id in (ALONE, PARTNER):
        return Action(Verb.ALONE) if action_id == ALONE else Action(Verb.PASS)
    if phase is Phase.BID and action_id == PASS:
        return Action(Verb.PASS)
    if phase is Phase.BID and isinstance(action_id, int) and 25 <= action_id <= 28:
        suit = _OS_SUITS[action_id - 25]
        turn_up = state.view(0).turn_up
        if any(a.verb is Verb.ORDER_UP for a in state.legal_actions()):  # round one
            if turn_up is not None and turn_up.suit is suit:
                return Action(Verb.ORDER_UP)
        else:
            return Action(Verb.CALL, suit=suit)
    raise _not_an_action(state, action_id, f"OpenSpiel action {action_id!r} means nothing")


def _not_an_action(state: DealState, action: object, what: str) -> IllegalActionError:
    """The error for an action with no counterpart in ``state``'s phase (``what`` says which)."""
    return IllegalActionError(
        f"{what} in the {state.phase.value} phase",
        rule=RuleCode.NOT_AN_ACTION,
        action=action,
        player=state.current_player,
        phase=state.phase,
    )


def openspiel_returns(state: DealState) -> tuple[int, ...]:
    """OpenSpiel's returns for a finished Euchre deal: per player, own side's points
    minus the other side's (-4 … 4); all zeros while the deal is not over."""
    scores = state.scores
    if not state.is_over or len(scores) != 2:
        return (0,) * state.rules.players
    return tuple(scores[state.side_of(p)] - scores[1 - state.side_of(p)] for p in range(state.rules.players))


def register() -> tuple[str, ...]:
    """Register every variant as a pyspiel Python game; return the registered names.

    Each name is ``python_bezique_rules_<variant with underscores>`` (for example
    ``python_bezique_rules_bezique_match``); the game parameters are the variant's
    options (an option that may be None takes -1 for None). One game is one deal: chance
    moves deal the deck (and draw six-pack's cut), then the players act with this
    library's action ids (under Euchre's farmer's-hand house rule every seat is asked in
    turn first: `bezique_rules.engine.euchre.FarmersRound`); the observation and
    information-state tensors are `bezique_rules.state.observation`'s, a player's own or only
    their public part (observers honour ``private_info``), and ``resample_from_infostate``
    deals the hidden cards again (`determinize`), so information-set search works.
    Calling it again registers only new variants.

    Raises:
        ImportError: OpenSpiel is not installed (``pip install 'bezique-rules[openspiel]'``).
    """
    try:
        from ._openspiel_games import register_all
    except ImportError as exc:
        raise missing_extra("openspiel", "registering the OpenSpiel games", exc.name or "pyspiel") from exc
    return register_all()


def openspiel_state(deal: DealState) -> Any:
    """The pyspiel state (of the game `register` made for ``deal``'s variant and options)
    holding ``deal``: hand it to an OpenSpiel bot, such as information-set MCTS. Under
    Euchre's farmer's-hand house rule, a deal in that round is put where its moves leave
    it (`bezique_rules.engine.euchre.FarmersRound.start`: a fresh deal asks the dealer's left
    first).

    Raises:
        ImportError: OpenSpiel is not installed (``pip install 'bezique-rules[openspiel]'``).
    """
    register()
    import pyspiel

    from ._openspiel_games import game_name, game_parameters

    game = pyspiel.load_game(game_name(deal.rules.name), game_parameters(deal.rules))
    return game.state_of(deal)
