"""What a stock game's trick winner may declare: the declaration predicates, each rule stated
once, and the legal declaration ids built from them (read by the legal ids, the refusals and
the transitions alike)."""

from __future__ import annotations

from ...actions import _MELD
from ...deck import DeckSpec, card_ids
from ...parts.stock import DixRule
from ...rules.ruleset import RuleSet
from .record import Declared, Declaring, StockCore
from .tables import DeclarationTables, MeldKey, StockTables


def meld_limit_reached(d: DeclarationTables, declaring: Declaring) -> bool:
    """Whether this trick's winner has declared as many melds as one trick won allows."""
    return d.meld_limit > 0 and declaring.melds_this_trick >= d.meld_limit


def exchange_blocks_melds(dix: DixRule | None, declaring: Declaring) -> bool:
    """Whether the trump seven was exchanged on this trick under the house rule that then
    allows no meld (`DixRule.no_meld_when_exchanging`)."""
    return declaring.exchanged >= 0 and dix is not None and dix.no_meld_when_exchanging


def may_meld(d: DeclarationTables, dix: DixRule | None, declaring: Declaring) -> bool:
    """Whether a meld may be declared now (to score, or past the limit to lie pending): not
    `meld_limit_reached` (unless pending declarations lay it out) nor `exchange_blocks_melds`
    (written out: read at every trick won)."""
    limit = d.meld_limit
    if limit and declaring.melds_this_trick >= limit and not d.pending:
        return False
    return declaring.exchanged < 0 or dix is None or not dix.no_meld_when_exchanging


def meld_scores(d: DeclarationTables, declaring: Declaring) -> bool:
    """Whether a meld declared now scores now (with pending declarations, a meld past the
    trick's limit lies pending instead)."""
    return not d.pending or declaring.melds_this_trick < d.meld_limit


def may_score_pending(d: DeclarationTables, dix: DixRule | None, declaring: Declaring) -> bool:
    """Whether a pending meld may be scored now (a meld of this trick's limit)."""
    return not meld_limit_reached(d, declaring) and not exchange_blocks_melds(dix, declaring)


def meld_forbidden(dix: DixRule | None, declaring: Declaring) -> int:
    """The card a meld may not use: the one taken in exchange for the seven on this trick,
    unless the rules allow it (`DixRule.exchange_card_usable_same_trick`); else 0."""
    if declaring.exchanged >= 0 and dix is not None and not dix.exchange_card_usable_same_trick:
        return 1 << declaring.exchanged
    return 0


def seven_open(declaring: Declaring) -> bool:
    """Whether a trump-seven action is still open on this trick (one per trick)."""
    return not declaring.seven_done


def may_exchange(rules: RuleSet, dix_face: int, turn_up: int, declaring: Declaring) -> bool:
    """Whether the trump seven / dix of face ``dix_face`` may be exchanged for the turn-up now:
    the rules have the exchange, the turn-up is there and is not itself the dix, and (under
    `DixRule.no_meld_when_exchanging`) no meld was declared on this trick."""
    dix = rules.stock.dix
    return (
        _can_exchange(rules, dix_face, turn_up)
        and dix is not None
        and not (dix.no_meld_when_exchanging and declaring.melds_this_trick)
    )


def _declare_ids(
    rules: RuleSet,
    t: StockTables,
    hand: int,
    tabled: int,
    history: tuple[tuple[int, int], ...],
    trump: int,
    declaring: Declaring,
    turn_up: int,
) -> list[int]:
    """The declare-phase actions open to a trick winner: always ``pass``, then melds and sevens."""
    d = t.declaring
    index = t.index
    ids = [index.pass_id]
    dix = rules.stock.dix
    if may_meld(d, dix, declaring) and hand & d.meldable:
        found = d.finders[trump](hand, tabled, history, meld_forbidden(dix, declaring))
        if found:
            meld_ids = index.meld_ids
            for k in found:
                ids.append(meld_ids[k])
    # an unscored trump seven / dix in hand (no dix rule, no trump or no dix face: an empty mask)
    if hand & d.dix_masks[trump] & ~declaring.scored and seven_open(declaring) and dix is not None:
        face = d.dix_faces[trump]
        if may_exchange(rules, face, turn_up, declaring):
            ids.append(index.exchange_ids[face])
        if dix.methods != "exchange_only" or not _can_exchange(rules, face, turn_up):
            ids.append(index.declare_ids[face])
    return ids


def _declaring(rules: RuleSet, t: StockTables, core: StockCore, p: int) -> list[int]:
    """The declare-phase actions of ``p`` (the winner, or the partner he passed to): with
    `DeclarationPrivilege` ``cards="with_partner_tabled"`` his melds may use his partner's
    tabled cards (under both players' declarations), except the own-cards-only kinds."""
    hands, tabled = core.hands, core.tabled
    declaring = core.declaring
    turn_up = core.turn_up
    d = t.declaring
    if not d.with_partner:
        ids = _declare_ids(rules, t, hands[p], tabled[p], _history(declaring.declarations, p), core.trump,
                           declaring, turn_up)  # fmt: skip
    else:
        q = _partner(t, p)
        history = _history(declaring.declarations, p) + _history(declaring.declarations, q)
        ids = _declare_ids(rules, t, hands[p] | tabled[q], tabled[p] | tabled[q], history, core.trump, declaring,
                           turn_up)  # fmt: skip
        if d.own_only:
            meanings = t.index.meanings
            own = _declare_ids(rules, t, hands[p], tabled[p], history, core.trump, declaring, turn_up)
            ids = [i for i in ids if meanings[i].kind != _MELD or meanings[i].number not in d.own_only]
            ids += [i for i in own if meanings[i].kind == _MELD and meanings[i].number in d.own_only]
    if t.index.to_partner_id >= 0 and not declaring.melds_this_trick and seven_open(declaring) and p == core.leader:
        ids.append(t.index.to_partner_id)
    if declaring.pending:
        ids += [i for i in _pending_ids(rules, t, core, p) if i not in ids]
    return ids


def _pending_ids(rules: RuleSet, t: StockTables, core: StockCore, p: int) -> list[int]:
    """The meld actions (every card ``*``) that score a pending meld of ``p``: open while he
    may still score a meld on this trick (`StockRules.pending_declarations`)."""
    if not may_score_pending(t.declaring, rules.stock.dix, core.declaring):
        return []
    face_of = rules.deck.face_of
    return [t.index.meld_ids[(k, tuple((f, True) for f in sorted(face_of[c] for c in card_ids(mask))))]
            for q, k, mask in core.declaring.pending if q == p]  # fmt: skip


def _pending_match(
    rules: RuleSet,
    pending: tuple[Declared, ...],
    p: int,
    kind_index: int,
    key: MeldKey,
) -> Declared | None:
    """The pending meld of ``p`` that the meld action (``kind_index``, ``key``) scores, or None."""
    if not all(star for _f, star in key):
        return None
    face_of = rules.deck.face_of
    faces = [f for f, _s in key]
    for record in pending:
        if (
            record.player == p
            and record.kind == kind_index
            and sorted(face_of[c] for c in card_ids(record.cards)) == faces
        ):
            return record
    return None


def _drop_pending(declaring: Declaring, cards: int) -> Declaring:
    """Cancel the pending melds using any of ``cards`` (played, or the table cleared for the
    play-off): they leave both ``pending`` and ``declarations``, never having scored."""
    gone = [record for record in declaring.pending if record.cards & cards]
    if not gone:
        return declaring
    return declaring._replace(
        pending=tuple(record for record in declaring.pending if record not in gone),
        declarations=tuple(record for record in declaring.declarations if record not in gone),
    )


def _meld_cards(
    t: StockTables,
    hands: tuple[int, ...],
    tabled: tuple[int, ...],
    declarations: tuple[Declared, ...],
    p: int,
    kind_index: int,
) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """The held cards, tabled cards and earlier declarations a meld of ``p`` is made under."""
    if not t.declaring.with_partner:
        return hands[p], tabled[p], _history(declarations, p)
    q = _partner(t, p)
    history = _history(declarations, p) + _history(declarations, q)
    if kind_index in t.declaring.own_only:
        return hands[p], tabled[p], history
    return hands[p] | tabled[q], tabled[p] | tabled[q], history


def _known_copies_first(deck: DeckSpec, mask: int, unseen: int, seen: int) -> int:
    """``mask`` (a meld's cards) using the copies in ``seen`` (held off the table, known to
    everyone: a taken turn-up, a declared seven) in place of copies in ``unseen`` (held
    concealed) of the same faces, so that what the others know of the hand after the meld
    does not depend on which copies were concealed."""
    spare = seen & ~mask
    if not spare:
        return mask
    for pid in card_ids(mask & unseen):
        same = spare & deck.face_masks[deck.face_of[pid]]
        if same:
            low = same & -same
            mask = (mask & ~(1 << pid)) | low
            spare &= ~low
    return mask


def _partner(t: StockTables, p: int) -> int:
    """The partner of ``p`` (partnership games: across the table)."""
    n = t.trick.players
    return (p + n // 2) % n


def _partner_winning(t: StockTables, core: StockCore) -> bool:
    """Whether the card winning the trick so far is the partner's of the player to play."""
    trick = core.trick
    if len(trick) < 2:
        return False
    n = t.trick.players
    return (core.leader + t.trick.trumps[core.trump].winner(trick)) % n == _partner(t, core.player)


def _more_may_be_declared(rules: RuleSet, t: StockTables, core: StockCore) -> bool:
    """Whether the rules (not the winner's hidden hand) leave a meld or a seven action open
    on this trick: the meld limit, the exchange house rule, one seven action per trick, and
    whether a trump seven / dix is still unscored (public)."""
    dix = rules.stock.dix
    declaring = core.declaring
    if may_meld(t.declaring, dix, declaring):
        return True
    if dix is None or not seven_open(declaring) or core.trump < 0:
        return False
    played = 0
    for w in core.won:
        played |= w
    return bool(t.declaring.dix_masks[core.trump] & ~declaring.scored & ~played)


def _can_exchange(rules: RuleSet, dix_face: int, turn_up: int) -> bool:
    dix = rules.stock.dix
    return dix is not None and dix.methods != "score_only" and turn_up >= 0 and rules.deck.face_of[turn_up] != dix_face


def _history(declarations: tuple[Declared, ...], player: int) -> tuple[tuple[int, int], ...]:
    """The (kind index, cards) declarations of ``player`` (what the meld rules read)."""
    if not declarations:
        return ()
    return tuple([(kind, cards) for who, kind, cards in declarations if who == player])
