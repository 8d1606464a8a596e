"""What the player to act may decide before the tricks: the declaration predicates, each rule
stated once, and the legal ids and refusals built from them.

The predicates (read by the legal ids, the refusals and the transitions alike):

- the auction: `bids_open` (the bids above the high bid), `dealer_stuck` (the dealer must
  bid: no ``pass``);
- the widow: `widow_waits_at_minimum` (a bid won at the minimum leaves the widow face down,
  so that the declarer may concede without seeing it), `widow_waits` (it is still face down:
  ``pass`` turns it up, no trump can be named yet);
- the concession: `may_throw_in` (``throw-in`` is open now), `concession` (which one it is),
  `may_concede_after_melds` (the declarer is short enough of his bid after the melds to be
  asked);
- passing cards: `give_receiver` (who receives the cards the player to act gives);
- the burial: `burial_keeps_melds` (the cards the declarer's melds need stay out of it);
- the melds: `fitting_meld_ids` (the melds that fit beside those laid down, as `melds_fit`);
- the tricks: `partner_winning` (read by the trick policy's duties).

Helpers that state no rule: `face_counts`, `pick` (which physical copy leaves a hand),
`meld_need`, `meld_points`, `spare_counts`.
"""

from __future__ import annotations

from ...actions import _BEST_MELD, _BID, _DISCARD, _GIVE, _MELD, _PASS, _PASS_WITH_HELP, _PLAY, _TRUMP, Action, Verb
from ...bits import lowest_bit
from ...deck import DeckSpec
from ...errors import RuleCode
from ...parts.auction import Auction, Concession, ContractRules
from ...parts.melds import Laid, MeldKind
from ...rules.ruleset import RuleSet
from ...state.deal import DealSetup, Phase
from .record import AuctionCore
from .tables import AuctionTables, MeldIndex, _multiset_ids

# -- helpers -----------------------------------------------------------------------------------


def face_counts(deck: DeckSpec, hand: int) -> list[int]:
    """Per face: the copies ``hand`` (a mask of physical cards) holds."""
    return [(hand & fm).bit_count() for fm in deck.face_masks]


def pick(deck: DeckSpec, face: int, hand: int, known: int = 0) -> int:
    """The physical card of ``face`` that leaves ``hand``: a ``known`` copy first (so what the
    others know of the hand does not depend on which copy it was), or -1."""
    copies = hand & deck.face_masks[face]
    return lowest_bit(copies & known or copies)


def meld_need(kinds: tuple[MeldKind, ...], laid: tuple[Laid, ...]) -> dict[int, int]:
    """Per face: the copies the melds ``laid`` use together (a card serves once per class,
    so a face is needed as often as its busiest class needs it)."""
    per_class: dict[tuple[str, int], int] = {}
    for k, faces in laid:
        key = kinds[k].meld_class or kinds[k].group
        for f in faces:
            per_class[(key, f)] = per_class.get((key, f), 0) + 1
    need: dict[int, int] = {}
    for (_key, f), count in per_class.items():
        need[f] = max(need.get(f, 0), count)
    return need


def meld_points(kinds: tuple[MeldKind, ...], laid: tuple[tuple[Laid, ...], ...]) -> tuple[int, ...]:
    """Per player: the points of the melds he laid down."""
    return tuple(sum(kinds[k].points for k, _f in mine) for mine in laid)


def spare_counts(kinds: tuple[MeldKind, ...], laid: tuple[Laid, ...], counts: list[int]) -> list[int]:
    """Per face: the copies of ``counts`` beyond those the melds ``laid`` use (below 0 when
    the melds use more)."""
    need = meld_need(kinds, laid)
    return [held - need.get(f, 0) for f, held in enumerate(counts)]


# -- the declaration predicates -----------------------------------------------------------------


def bids_open(auction: Auction, c: AuctionCore) -> tuple[int, ...]:
    """The bids the player to act may make: those of the ladder above the high bid."""
    return auction.bids_above(c.bid or None)


def dealer_stuck(auction: Auction, dealer: int, players: int, c: AuctionCore) -> bool:
    """Whether the dealer must bid (no ``pass``): the rules stick him
    (``Auction.all_pass == "dealer_stuck"``), everyone else passed and nobody bid."""
    return (
        auction.all_pass == "dealer_stuck" and c.player == dealer and c.bid == 0 and c.passed.bit_count() == players - 1
    )


def widow_waits_at_minimum(auction: Auction, contract: ContractRules, bid: int) -> bool:
    """Whether a bid of ``bid`` that wins the auction leaves the widow face down for a while:
    the rules let a declarer at the minimum concede before he sees it
    (`ContractRules.concede_before_widow`)."""
    return contract.widow and contract.concede_before_widow and bid == auction.minimum


def widow_waits(contract: ContractRules, c: AuctionCore) -> bool:
    """Whether the widow still lies face down before the declarer (the trump phase): his
    ``pass`` turns it up; no trump is named before."""
    return contract.widow and not c.widow_shown


def may_throw_in(contract: ContractRules, c: AuctionCore) -> bool:
    """Whether the declarer may concede (``throw-in``) now: before the widow when it waits
    (`widow_waits`), after it (naming trumps, or instead of the burial) when the rules allow
    it (`ContractRules.concede_after_widow`), and when the concession phase asks him."""
    stage = c.stage
    if stage is Phase.CONCEDE:
        return True
    if stage is Phase.TRUMP:
        return widow_waits(contract, c) or contract.concede_after_widow
    return stage is Phase.DISCARD and contract.concede_after_widow


def concession(c: AuctionCore) -> Concession:
    """Which concession a ``throw-in`` now is (`may_throw_in`)."""
    if c.stage is Phase.CONCEDE:
        return "after_meld"
    return "after_widow" if c.widow_shown or not c.widow else "before_widow"


def may_concede_after_melds(rules: RuleSet, contract: ContractRules, c: AuctionCore) -> bool:
    """Whether, the melds laid, the declarer is asked to concede or play: his side's melds leave
    him at least `ContractRules.throw_in_short` short of the bid."""
    if contract.throw_in_short is None:
        return False
    side = rules.side_of(c.declarer)
    meld = sum(pts for q, pts in enumerate(meld_points(rules.melds.kinds, c.laid)) if rules.side_of(q) == side)
    return c.bid - meld >= contract.throw_in_short


def give_receiver(c: AuctionCore, players: int) -> int:
    """Who receives the cards the player to act passes: the declarer from his partner, then
    the partner back (`ContractRules.pass_cards`)."""
    return c.declarer if c.give_step == 1 else (c.declarer + 2) % players


def burial_keeps_melds(contract: ContractRules, spare: list[int], size: int) -> bool:
    """Whether the burial of ``size`` cards must leave out the cards the declarer's melds
    use: the rules say so (not `ContractRules.bury_melded`) and the cards spare of them
    (``spare``, per face, `spare_counts`) are enough; else any cards may be buried."""
    return not contract.bury_melded and sum(max(0, n) for n in spare) >= size


def fitting_meld_ids(melds: MeldIndex, trump: int, counts: list[int], laid: tuple[Laid, ...]) -> list[int]:
    """The ids of the melds a hand of ``counts`` may lay beside ``laid`` with trump ``trump``:
    each meld's cards held, a card serving once per class (as `melds_fit`); none when the
    melds laid do not fit the hand."""
    ids = []
    checks = melds.checks[trump]
    if not laid:
        for i, _cls, need in checks:
            for f, n in need:
                if counts[f] < n:
                    break
            else:
                ids.append(i)
        return ids
    nf = len(counts)
    demand: dict[int, int] = {}
    kind_class = melds.kind_class
    for k, faces in laid:
        base = kind_class[k] * nf
        for f in faces:
            demand[base + f] = demand.get(base + f, 0) + 1
    if all(n <= counts[key % nf] for key, n in demand.items()):
        get = demand.get
        for i, cls, need in checks:
            base = cls * nf
            for f, n in need:
                if get(base + f, 0) + n > counts[f]:
                    break
            else:
                ids.append(i)
    return ids


def partner_winning(rules: RuleSet, c: AuctionCore) -> bool:
    """Whether the player to act's partner is winning the current trick."""
    if not c.trick or not rules.partnership:
        return False
    seat = (c.leader + rules.trump_tables[c.trump].winner(c.trick)) % rules.players
    return seat != c.player and seat % 2 == c.player % 2


# -- the legal ids ------------------------------------------------------------------------------


def _multisets_held(counts: list[int], weights: tuple[tuple[int, ...], ...]) -> list[int]:
    """The ids of the distinct multisets (gives or burials) from ``counts`` cards of each face."""
    held = [f for f, n in enumerate(counts) if n]
    return _multiset_ids(weights, held, [counts[f] for f in held])


def decision_ids(setup: DealSetup[AuctionTables], c: AuctionCore) -> tuple[int, ...]:
    """The legal ids before and after the tricks (every phase but ``TRICKS``), sorted."""
    stage = c.stage
    t = setup.tables
    if stage is Phase.GIVE:
        return tuple(_multisets_held(face_counts(setup.rules.deck, c.hands[c.player]), t.cards.give_weights))
    if stage is Phase.DISCARD:
        return tuple(_burial_ids(setup, c))
    if stage is Phase.MELD:
        rules = setup.rules
        p = c.player
        counts = face_counts(rules.deck, c.hands[p])
        return (t.bidding.pass_id, *fitting_meld_ids(t.melds, c.trump, counts, c.laid[p]), t.melds.best_id)
    return tuple(sorted(set(_bidding_ids(setup, c))))


def _burial_ids(setup: DealSetup[AuctionTables], c: AuctionCore) -> list[int]:
    """The burials the declarer may make (`burial_keeps_melds`), after ``throw-in`` when open."""
    rules = setup.rules
    t = setup.tables
    contract = t.contract
    counts = face_counts(rules.deck, c.hands[c.player])
    if not contract.bury_melded:  # (written out: `burial_keeps_melds` needs the spare cards)
        spare = spare_counts(rules.melds.kinds, c.laid[c.player], counts)
        if burial_keeps_melds(contract, spare, contract.bury):
            counts = [max(0, n) for n in spare]
    ids = _multisets_held(counts, t.cards.bury_weights)
    if may_throw_in(contract, c):
        ids.insert(0, t.bidding.throw_in_id)
    return ids


def _bidding_ids(setup: DealSetup[AuctionTables], c: AuctionCore) -> list[int]:
    """The legal ids in the bidding, trump and concede phases (any order)."""
    t = setup.tables
    table = t.bidding
    contract = t.contract
    stage = c.stage
    if stage is Phase.BID:
        auction = t.auction
        ids = [table.bid_ids[b] for b in bids_open(auction, c)]
        if not dealer_stuck(auction, setup.dealer, setup.rules.players, c):
            ids.append(table.pass_id)
            if table.help_id >= 0:
                ids.append(table.help_id)
        return ids
    if stage is Phase.TRUMP:
        ids = [table.pass_id] if widow_waits(contract, c) else list(table.trump_ids)
    elif stage is Phase.CONCEDE:
        ids = [table.pass_id]
    else:
        return []  # over
    if may_throw_in(contract, c):
        ids.append(table.throw_in_id)
    return ids


# -- the refusals -------------------------------------------------------------------------------


def bid_refusal(setup: DealSetup[AuctionTables], c: AuctionCore, number: int) -> tuple[RuleCode, str]:
    """Why a bid of ``number`` is refused (on the ladder or off it)."""
    if c.stage is not Phase.BID:
        return RuleCode.WRONG_PHASE, "the auction is over"
    auction = setup.tables.auction
    if number <= c.bid:
        return RuleCode.BID_TOO_LOW, f"a bid must be higher than {c.bid}"
    if number < auction.minimum:
        return RuleCode.BID_TOO_LOW, f"the lowest bid is {auction.minimum}"
    if c.bid and number in auction.ladder and number not in bids_open(auction, c):
        return RuleCode.RAISE_TOO_BIG, f"a raise is one of {', '.join(map(str, bids_open(auction, c)))}"
    return RuleCode.BID_TOO_LOW, "not an allowed bid (off the step)"


def unlisted_refusal(setup: DealSetup[AuctionTables], c: AuctionCore, action: Action) -> tuple[RuleCode, str] | None:
    """The rule that refuses an action outside the action space (a bid off the ladder)."""
    if action.verb is Verb.BID and action.number is not None:
        return bid_refusal(setup, c, action.number)
    return None


def refusal(setup: DealSetup[AuctionTables], c: AuctionCore, action_id: int) -> tuple[RuleCode, str]:
    """Why the illegal action ``action_id`` is refused, naming the rule (the deal not over)."""
    t = setup.tables
    meaning = t.meanings[action_id]
    kind, laid = meaning.kind, meaning.laid
    stage = c.stage
    rules = setup.rules
    if kind == _PLAY:
        if stage is not Phase.TRICKS:
            return RuleCode.WRONG_PHASE, f"no card is played during the {stage.value} phase"
        pid = pick(rules.deck, meaning.number, c.hands[c.player])
        if pid < 0:
            return RuleCode.CARD_NOT_HELD, "you do not hold that card"
        why = rules.playoff_policy.refusal(
            rules.trump_tables[c.trump], c.hands[c.player], c.trick, pid, partner_winning(rules, c)
        )
        return why or (RuleCode.NOT_AN_ACTION, "not playable")
    if kind == _BID:
        return bid_refusal(setup, c, meaning.number)
    if kind in (_PASS, _PASS_WITH_HELP):
        if stage is Phase.BID and dealer_stuck(t.auction, setup.dealer, rules.players, c):
            return RuleCode.MUST_BID, "everyone else passed: the dealer must bid"
        return RuleCode.WRONG_PHASE, f"nothing to pass during the {stage.value} phase"
    if kind == _TRUMP:
        if stage is Phase.TRUMP and widow_waits(t.contract, c):
            return RuleCode.WRONG_PHASE, "turn up the widow first ('pass') or concede ('throw-in')"
        return RuleCode.WRONG_PHASE, "only the declarer names trumps, after the auction"
    if kind == _GIVE:
        if stage is not Phase.GIVE:
            return RuleCode.WRONG_PHASE, "cards are passed after trumps are named"
        return RuleCode.CARD_NOT_HELD, f"pass exactly {t.contract.pass_cards} cards that you hold"
    if kind == _DISCARD:
        if stage is not Phase.DISCARD:
            return RuleCode.WRONG_PHASE, "the bidder buries cards after melding"
        counts = face_counts(rules.deck, c.hands[c.player])
        if all(meaning.faces.count(f) <= counts[f] for f in meaning.faces):  # held: the melds keep them
            return RuleCode.BURY_MELDED, "a card used in your melds may not be buried"
        return RuleCode.CARD_NOT_HELD, f"bury exactly {t.contract.bury} cards that you hold"
    if kind in (_MELD, _BEST_MELD):
        if stage is not Phase.MELD:
            return RuleCode.WRONG_PHASE, "melds are laid down in the meld phase"
        if laid is not None:
            if laid not in rules.meld_instances[c.trump]:
                return RuleCode.NOT_A_MELD, "these cards do not form that meld with these trumps"
            counts = face_counts(rules.deck, c.hands[c.player])
            if any(laid[1].count(f) > counts[f] for f in set(laid[1])):
                return RuleCode.CARD_NOT_HELD, "you do not hold those cards"
        return RuleCode.MELD_CARD_REUSED, "you cannot also make that meld: a card serves once in each class"
    return RuleCode.WRONG_PHASE, "you cannot concede now"
