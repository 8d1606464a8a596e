"""The stock engine's tables, compiled once per rule set: what each action id does, who wins a
trick, what may be declared and what scores (`StockEngine.compile`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

import attrs

from ...actions import Action, ActionKind, ActionNumbering, ActionSpace, ActionTable, Verb
from ...bits import lowest_bit
from ...cards import Card, Suit
from ...parts.melds import Finder, declaration_finder
from ...parts.scoring import DealResultRule
from ...parts.tricks import PlayDuty, TrickPolicy
from ...parts.trumps import TrumpTable
from ...rules.ruleset import RuleSet

MeldKey = tuple[tuple[int, bool], ...]
"""A meld action's cards: (face, from the table) pairs, sorted."""


@attrs.frozen
class ActionMeaning:
    """What one action id of the stock engine does."""

    kind: ActionKind
    """The action's kind."""
    number: int = -1
    """The face played, exchanged or declared; the meld kind index; the cut size guessed
    (-1: none)."""
    from_table: bool = False
    """A play of the copy lying on the table (``*``)."""
    key: MeldKey = ()
    """A meld's cards, as (face, from the table) pairs, sorted."""


@attrs.frozen
class ActionIndex:
    """The numbered actions by meaning, and how to read the plays of a hand."""

    meanings: tuple[ActionMeaning, ...]
    """Per action id: what it does."""
    play_hand: tuple[int, ...]
    """Per physical id: the id of playing it from the concealed hand."""
    play_table: tuple[int, ...]
    """Per physical id: the id of playing it from the table (``*``)."""
    hand_id_bytes: tuple[tuple[tuple[int, ...], ...], ...]
    """``[k][byte]``: the ids of playing from the hand the faces ``8k ..`` set in ``byte``."""
    meld_ids: Mapping[tuple[int, MeldKey], int]
    """Per (meld kind index, cards): ``meld <kind> <cards>`` (read-only)."""
    exchange_ids: tuple[int, ...]
    """Per face: ``exchange <card>`` (-1 when not a dix face or no exchange)."""
    declare_ids: tuple[int, ...]
    """Per face: ``declare <card>`` (-1 when not a dix face)."""
    pass_id: int
    """``pass``."""
    carte_id: int
    """``meld carte-blanche``, or -1."""
    to_partner_id: int
    """``pass partner`` (`DeclarationPrivilege`), or -1."""
    guess_ids: tuple[int, ...]
    """The ids of ``guess <size>``, ascending (six-pack's cut)."""
    face_masks: tuple[int, ...]
    """Per face: the mask of its physical copies."""
    num_faces: int
    """The deck's faces."""
    all_faces: int
    """The mask of every face."""
    packs: int
    """The deck's copies of each face."""


class WinnerTable(NamedTuple):
    """A two-player trick's winner at a glance, for one trump (`TrumpTable`'s own data)."""

    power: tuple[int, ...]
    """Per physical id: its power."""
    suit: tuple[int, ...]
    """Per physical id: its suit index."""
    trumps: int
    """The mask of the trumps."""


@attrs.frozen
class TrickTables:
    """Who plays, what may be played and who wins."""

    players: int
    """The players."""
    trumps: tuple[TrumpTable, ...]
    """By trump index (-1 = no trump): the trump table."""
    winners: tuple[WinnerTable, ...]
    """By trump index: the same as `WinnerTable`."""
    stock_policy: TrickPolicy
    """What may be played while the stock lasts."""
    playoff_policy: TrickPolicy
    """What may be played in the play-off."""
    stock_free: bool
    """Any card may be played while the stock lasts."""
    playoff_free: bool
    """Any card may be played in the play-off."""
    partner_duty: bool
    """The play-off duty spares a partner's winning card (partnership games)."""


@attrs.frozen
class DeclarationTables:
    """What may be declared after a trick (melds, the dix, carte blanche)."""

    finders: tuple[Finder, ...]
    """By trump index (-1 = no trump): the declaration search."""
    meldable: int
    """The cards in some meld or dix action (a hand without them declares nothing)."""
    court_mask: int
    """The court cards (a carte blanche is a hand without them)."""
    carte_repeat: bool
    """A carte blanche may be shown again after drawing a card that is not a court card."""
    dix_faces: tuple[int, ...]
    """Per suit index: the face of the dix rank (-1: none)."""
    dix_masks: tuple[int, ...]
    """By trump index: the physical dix cards (0 without trumps)."""
    dix_points: int
    """What the dix scores."""
    score_on_play: bool
    """The dix scores when played."""
    score_on_play_in_playoff: bool
    """It scores when played in the play-off too."""
    dix_any_time: bool
    """The dix may be declared on one's turn to play (a second method some rules give)."""
    meld_limit: int
    """Melds per trick won (0: no limit)."""
    pending: bool
    """`StockRules.pending_declarations` with a meld limit."""
    with_partner: bool
    """A declarer's melds may use his partner's tabled cards (`DeclarationPrivilege`)."""
    own_only: frozenset[int]
    """The meld kinds made of one's own cards only."""


@attrs.frozen
class ScoringTables:
    """What cards and tricks score."""

    card_values: tuple[int, ...]
    """Per physical id: its card points."""
    value_bytes: tuple[tuple[int, ...], ...]
    """``[k][byte]``: the card points of the ids ``8k ..`` set in ``byte``."""
    immediate: bool
    """Card points count as tricks are won."""
    last_bonus: int
    """The last-trick bonus."""
    last_at_final: bool
    """The last-trick bonus goes to the deal's last trick (else the last stock trick)."""
    declare_on_last: bool
    """The winner of the last stock trick may declare."""
    show_last: bool
    """The last face-down card of the stock is shown when drawn."""
    last_card_bonus: int
    """For drawing the last card of the stock (0: none)."""
    sweep_bonus: int
    """For winning every play-off trick (0: none)."""
    result: DealResultRule | None
    """The deal-result rule (`RubiconScoring`), or None."""


@attrs.frozen
class StockTables:
    """The stock engine's compiled tables for one rule set (held by `RuleSet.tables`)."""

    actions: ActionSpace
    """The numbered actions."""
    action_table: ActionTable
    """What each id does, column by column (read by the agents and the batch engine)."""
    index: ActionIndex
    """What each action does, and the ids by meaning."""
    trick: TrickTables
    """The trick tables."""
    declaring: DeclarationTables
    """The declaration tables."""
    scoring: ScoringTables
    """The scoring tables."""


def _meld_keys(inst: tuple[int, ...]) -> list[MeldKey]:
    """Every way to name the cards of a meld instance: each copy from the hand or the table."""
    counts: dict[int, int] = {}
    for f in inst:
        counts[f] = counts.get(f, 0) + 1
    keys: list[MeldKey] = [()]
    for f, m in sorted(counts.items()):
        keys = [k + ((f, False),) * (m - t) + ((f, True),) * t for k in keys for t in range(m + 1)]
    return [tuple(sorted(key)) for key in keys]


def _build_tables(rules: RuleSet) -> StockTables:
    deck = rules.deck
    faces = deck.faces
    numbering = ActionNumbering[ActionMeaning]()
    add = numbering.add
    play_ids = [
        add(Action.make(Verb.PLAY, [card], [star]), ActionMeaning(ActionKind.PLAY, number=f, from_table=star))
        for f, card in enumerate(faces)
        for star in (False, True)
    ]
    meld_ids: dict[tuple[int, MeldKey], int] = {}
    kinds = rules.melds.kinds
    for kind_index, inst in rules.melds.all_instances(deck):
        for key in _meld_keys(inst):
            action = Action.make(
                Verb.MELD, [faces[f] for f, _ in key], [s for _, s in key], meld=kinds[kind_index].name
            )
            meld_ids[(kind_index, key)] = add(action, ActionMeaning(ActionKind.MELD, number=kind_index, key=key))
    exchange_ids = [-1] * len(faces)
    declare_ids = [-1] * len(faces)
    dix_faces = [-1] * 4
    dix = rules.stock.dix
    if dix is not None:
        for s in Suit:
            card = Card(s, dix.rank)
            if card in deck.face_index:
                dix_faces[s.value] = deck.face(card)
        for f in dix_faces:
            if f < 0:
                continue
            if dix.methods != "score_only" and rules.deal.turn_up:
                exchange_ids[f] = add(
                    Action.make(Verb.EXCHANGE, [faces[f]]), ActionMeaning(ActionKind.EXCHANGE, number=f)
                )
            declare_ids[f] = add(Action.make(Verb.DECLARE, [faces[f]]), ActionMeaning(ActionKind.DECLARE, number=f))
    carte_id = -1
    if rules.stock.carte_blanche:
        carte_id = add(Action.make(Verb.MELD, meld="carte-blanche"), ActionMeaning(ActionKind.CARTE_BLANCHE))
    guess_ids: list[int] = []
    cut = rules.stock.cut_guess
    if cut is not None:
        for size in range(cut.smallest, cut.largest + 1):
            guess_ids.append(add(Action(Verb.GUESS, number=size), ActionMeaning(ActionKind.GUESS, number=size)))
    privilege = rules.stock.privilege
    to_partner_id = -1
    if privilege.holder == "winner_or_partner":
        to_partner_id = add(Action(Verb.PASS, to_partner=True), ActionMeaning(ActionKind.PASS_TO_PARTNER))
    pass_id = add(Action(Verb.PASS), ActionMeaning(ActionKind.PASS))
    meldable = 0
    for _k, inst in rules.melds.all_instances(deck):
        for f in inst:
            meldable |= deck.face_masks[f]
    for f in dix_faces:
        if f >= 0:
            meldable |= deck.face_masks[f]
    court = 0
    for pid, card in enumerate(deck.cards):
        if card.rank.is_court:
            court |= 1 << pid
    nf = deck.num_faces
    stock = rules.stock
    meanings = numbering.meanings
    return StockTables(
        actions=numbering.space(),
        action_table=_action_table(meanings),
        index=ActionIndex(
            meanings=tuple(meanings),
            play_hand=tuple(play_ids[f * 2] for f in deck.face_of),
            play_table=tuple(play_ids[f * 2 + 1] for f in deck.face_of),
            hand_id_bytes=tuple(
                tuple(
                    tuple(play_ids[(8 * k + j) * 2] for j in range(8) if b >> j & 1 and 8 * k + j < nf)
                    for b in range(256)
                )
                for k in range((nf + 7) // 8)
            ),
            meld_ids=MappingProxyType(meld_ids),
            exchange_ids=tuple(exchange_ids),
            declare_ids=tuple(declare_ids),
            pass_id=pass_id,
            carte_id=carte_id,
            to_partner_id=to_partner_id,
            guess_ids=tuple(guess_ids),
            face_masks=deck.face_masks,
            num_faces=nf,
            all_faces=(1 << nf) - 1,
            packs=deck.packs,
        ),
        trick=TrickTables(
            players=rules.players,
            trumps=rules.trump_tables,
            winners=tuple(WinnerTable(t.power, t.suit, t.trump_mask) for t in rules.trump_tables),
            stock_policy=rules.stock_policy,
            playoff_policy=rules.playoff_policy,
            stock_free=rules.stock_policy.duty is PlayDuty.FREE,
            playoff_free=rules.playoff_policy.duty is PlayDuty.FREE,
            partner_duty=rules.partnership and not rules.playoff_policy.must_beat_partner,
        ),
        declaring=DeclarationTables(
            finders=tuple(declaration_finder(search) for search in rules.meld_search),
            meldable=meldable,
            court_mask=court,
            carte_repeat=stock.carte_blanche_repeat,
            dix_faces=tuple(dix_faces),
            dix_masks=tuple(deck.face_masks[f] if f >= 0 else 0 for f in dix_faces) + (0,),
            dix_points=dix.points if dix is not None else 0,
            score_on_play=dix is not None and dix.score_on_play,
            score_on_play_in_playoff=dix is not None and dix.score_on_play and dix.score_on_play_in_playoff,
            dix_any_time=dix is not None and dix.any_time,
            meld_limit=stock.melds_per_trick,
            pending=stock.pending_declarations and stock.melds_per_trick > 0,
            with_partner=privilege.cards == "with_partner_tabled",
            own_only=frozenset(i for i, k in enumerate(kinds) if k.name in privilege.own_cards_only),
        ),
        scoring=ScoringTables(
            card_values=rules.card_values,
            value_bytes=_byte_sums(rules.card_values),
            immediate=stock.card_timing == "immediate",
            last_bonus=rules.card_points.last_trick,
            last_at_final=stock.last_trick_bonus_at == "final",
            declare_on_last=stock.declare_on_last_stock_trick,
            show_last=stock.show_last_card,
            last_card_bonus=stock.bonuses.last_card,
            sweep_bonus=stock.bonuses.playoff_sweep,
            result=stock.result,
        ),
    )


def _action_table(meanings: list[ActionMeaning]) -> ActionTable:
    """The meanings as columns: a card action's face, a meld's kind, a guess's size."""
    carded = (ActionKind.PLAY, ActionKind.EXCHANGE, ActionKind.DECLARE)
    return ActionTable.of(
        (m.kind for m in meanings),
        face=(m.number if m.kind in carded else -1 for m in meanings),
        from_table=(m.from_table for m in meanings),
        meld_kind=(m.number if m.kind is ActionKind.MELD else -1 for m in meanings),
        number=(m.number if m.kind is ActionKind.GUESS else -1 for m in meanings),
    )


def _byte_sums(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per byte k of a mask of ids: the sum of ``values`` of the ids in each byte value."""
    out = []
    for k in range(0, len(values), 8):
        chunk = values[k : k + 8]
        sums = [0] * 256
        for b in range(1, 256):
            low = lowest_bit(b)
            sums[b] = sums[b & (b - 1)] + (chunk[low] if low < len(chunk) else 0)
        out.append(tuple(sums))
    return tuple(out)


def _mask_points(value_bytes: tuple[tuple[int, ...], ...], mask: int) -> int:
    """The card points of the cards in ``mask``, a byte of ids at a time."""
    total = 0
    for table in value_bytes:
        if not mask:
            break
        total += table[mask & 255]
        mask >>= 8
    return total
