"""Partnership Pinochle against seed 003 (issue 13 items 4-8; reference.md §10.1).

Seed 003's rules, paraphrased: bids are multiples of 10 from 250, each bid 10 more than
the last or a jump of 20; a player may pass or "pass with help"; a declarer 250 or more
short of his bid after the melds may throw in, within 250 he plays; A, T, K always
count, some methods also count Q, J, 9; every meld value is given as "4 or 40".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bezique_rules import (
    Action,
    OptionError,
    Phase,
    RuleCode,
    TargetEnd,
    get_rules,
    new_deal,
    record_of,
    replay,
)
from bezique_rules.engine.auction import AuctionDeal
from bezique_rules.parts.auction import Auction, ContractRules
from scenario import auction_deal, legal, refusal, run

RECORDS = Path(__file__).parent / "records_0_1_0"


def bids(state: AuctionDeal) -> list[int]:
    """The bids legal now."""
    return [a.number for a in state.legal_actions() if a.number is not None]


# -- item 4: raises ----------------------------------------------------------------------


def test_raise_is_10_or_a_jump_of_20() -> None:
    """Seed 003: a bid is 10 more than the last bid or a jump of 20; the opening bid is any multiple of 10."""
    s = auction_deal("partnership-pinochle")
    assert bids(s)[:3] == [250, 260, 270] and bids(s)[-1] == 1500
    s = run(s, "bid 400")
    assert bids(s) == [410, 420] and legal(s) == ["bid 410", "bid 420", "pass"]
    assert refusal(s, "bid 430") is RuleCode.RAISE_TOO_BIG
    assert refusal(s, "bid 400") is RuleCode.BID_TOO_LOW
    s = run(s, "bid 420; pass; bid 430")
    assert s.core.bid == 430 and s.declarer == 3


def test_bid_raises_any() -> None:
    """bid_raises="any" (0.1.0): any higher multiple of 10 may follow."""
    s = run(auction_deal("partnership-pinochle", bid_raises="any"), "bid 400")
    assert bids(s)[:3] == [410, 420, 430] and "bid 900" in legal(s)


def test_raises_at_the_top_of_the_ladder() -> None:
    """Seed 003 raises near the highest bid: only the bids that exist remain."""
    s = run(auction_deal("partnership-pinochle"), "bid 1490")
    assert legal(s) == ["bid 1500", "pass"]


# -- item 5: throw-in at exactly 250 short ------------------------------------------------

HANDS = {0: "AS AH AD AC 9S 9S 9D 9D 9C 9C TS TS"}


def _after_melds(bid: int, **options: Any) -> AuctionDeal:
    s = auction_deal("partnership-pinochle", HANDS, pass_cards=0, bid_raises="any", **options)
    s = run(s, f"bid {bid}; pass; pass; pass; trump D")
    while s.phase is Phase.MELD:
        s = run(s, "meld best")
    return s


def test_throw_in_at_exactly_250_short() -> None:
    """Seed 003: 250 or more below the bid after melding the declarer may throw in; at exactly 250 both are legal."""
    side = sum(_after_melds(250).meld_points()[0::2])
    exact = _after_melds(side + 250)
    assert exact.phase is Phase.CONCEDE and legal(exact) == ["pass", "throw-in"]
    assert run(exact, "throw-in").scores[0] == -(side + 250)
    assert run(exact, "pass").phase is Phase.TRICKS
    within = _after_melds(side + 240)
    assert within.phase is Phase.TRICKS and refusal(within, "throw-in") is RuleCode.WRONG_PHASE


def test_throw_in_at_more_than_250() -> None:
    """throw_in_at="more_than_250" (0.1.0): at exactly 250 short the declarer plays."""
    side = sum(_after_melds(250).meld_points()[0::2])
    assert _after_melds(side + 250, throw_in_at="more_than_250").phase is Phase.TRICKS
    assert _after_melds(side + 260, throw_in_at="more_than_250").phase is Phase.CONCEDE


# -- item 6: counting schemes --------------------------------------------------------------


@pytest.mark.parametrize(
    ("counting", "values"),
    [
        ("tens", {"A": 10, "T": 10, "K": 10, "Q": 0, "J": 0, "9": 0}),
        ("classic", {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}),
        ("fives", {"A": 10, "T": 10, "K": 5, "Q": 5, "J": 0, "9": 0}),
    ],
)
def test_partnership_counting_schemes(counting: str, values: dict[str, int]) -> None:
    """Seed 003: A, T, K always count; some methods also count Q and J; each scheme totals 250 a deal."""
    rules = get_rules("partnership-pinochle", counting=counting)
    per_card = {str(c)[0]: v for c, v in zip(rules.deck.cards, rules.card_values)}
    assert per_card == values
    assert rules.card_points.total(rules.deck) == 250


def test_classic_counting_settles_with_its_values() -> None:
    """Seed 003 counting: a played-out deal's counters under counting="classic" add up to 250."""
    s = _after_melds(250, counting="classic")
    while not s.is_over:
        s = s.apply(s.legal_actions()[0])
    assert sum(b.cards + b.last_trick for b in s.breakdown) == 250


# -- item 7: pass with help ------------------------------------------------------------------


def test_pass_with_help_is_a_final_pass_everyone_sees() -> None:
    """Seed 003: "pass with help" is a pass that tells the partner something; it is final like a pass."""
    s = auction_deal("partnership-pinochle", pass_with_help=True)
    assert legal(s)[-2:] == ["pass", "pass help"]
    s = run(s, "bid 250; pass help")
    assert s.current_player == 2
    assert [str(a) for _p, a in s.view(3).history] == ["bid 250", "pass help"]
    s = run(s, "pass; bid 260")  # seat 1 passed with help: he is out of the auction
    assert s.current_player == 0
    s = run(s, "pass")
    assert s.phase is Phase.TRUMP and s.declarer == 3


def test_pass_help_notation_and_option_off() -> None:
    """``pass help`` reads and prints as itself; without the option it is not an action."""
    a = Action.parse("PASS  Help")
    assert a.with_help and str(a) == "pass help" and a != Action.parse("pass")
    s = auction_deal("partnership-pinochle")
    assert "pass help" not in legal(s)
    assert refusal(s, "pass help") is RuleCode.NOT_AN_ACTION


def test_stuck_dealer_may_not_pass_with_help() -> None:
    """A stuck dealer may not pass, with help or without."""
    s = run(auction_deal("partnership-pinochle", pass_with_help=True, all_pass="dealer_stuck"), "pass; pass; pass")
    assert "pass" not in legal(s) and "pass help" not in legal(s)
    assert refusal(s, "pass help") is RuleCode.MUST_BID


def test_pass_with_help_in_double_deck() -> None:
    """The double-deck preset offers the same signal as an option."""
    s = new_deal("double-deck-pinochle", seed=1, pass_with_help=True)
    assert "pass help" in legal(s)


# -- item 8: the /10 scale -------------------------------------------------------------------


def test_scale_10_divides_melds_counters_bids_and_target() -> None:
    """Seed 003 gives every value as "4 or 40": scale=10 divides melds, counters, bids, throw-in and target."""
    full, tenth = get_rules("partnership-pinochle"), get_rules("partnership-pinochle", scale=10)
    assert [k.points for k in tenth.melds.kinds] == [k.points // 10 for k in full.melds.kinds]
    assert tenth.card_points.total(tenth.deck) == 25
    assert isinstance(tenth.bidding, Auction) and tenth.bidding.ladder == tuple(range(25, 151))
    assert isinstance(tenth.contract, ContractRules) and tenth.contract.throw_in_short == 25
    assert isinstance(tenth.game_end, TargetEnd) and tenth.game_end.target == 150
    s = run(auction_deal("partnership-pinochle", scale=10), "bid 30")
    assert bids(s) == [31, 32]


def test_scale_10_deal_scores_a_tenth() -> None:
    """The same deal and play at scale=10 scores exactly a tenth of the full-point deal."""
    full = _after_melds(300)
    tenth = auction_deal("partnership-pinochle", HANDS, pass_cards=0, bid_raises="any", scale=10)
    tenth = run(tenth, "bid 30; pass; pass; pass; trump D")
    while tenth.phase is Phase.MELD:
        tenth = run(tenth, "meld best")
    assert tenth.meld_points() == tuple(p // 10 for p in full.meld_points())
    while not full.is_over:
        action = full.legal_actions()[0]
        full, tenth = full.apply(action), tenth.apply(str(action))
    assert tenth.is_over and tenth.scores == tuple(p // 10 for p in full.scores)


@pytest.mark.parametrize(
    ("options", "names"),
    [({"scale": 10, "counting": "classic"}, "counting"), ({"scale": 10, "minimum_bid": 255}, "minimum_bid"),
     ({"scale": 10, "target": 1005}, "target")],
)  # fmt: skip
def test_scale_10_refuses_values_that_do_not_divide(options: dict[str, Any], names: str) -> None:
    """scale=10 needs the options (in full points) and the counters to divide by ten, else an OptionError."""
    with pytest.raises(OptionError, match=names):
        get_rules("partnership-pinochle", **options)


# -- versions and records ----------------------------------------------------------------------


def test_partnership_behaviour_version_2() -> None:
    """The seed-003 raises and throw-in changed the preset's behaviour: version 2; double-deck stays 1."""
    assert get_rules("partnership-pinochle").version == 2
    assert get_rules("double-deck-pinochle").version == 1


def test_version_1_record_replays_with_the_old_rules() -> None:
    """A 0.1.0 record (no rules_version, no bid_raises) replays with bid_raises="any": its jump 820 -> 1420 stands."""
    record = json.loads((RECORDS / "partnership-pinochle-deal.json").read_text())
    expected = tuple(record.pop("expected_scores"))
    assert "rules_version" not in record and "bid 1420" in record["actions"]
    state = replay(record)
    assert state.scores == expected
    assert state.rules.options["bid_raises"] == "any" and state.rules.options["throw_in_at"] == "more_than_250"
    with pytest.raises(Exception, match="step 2"):
        replay({**record, "rules_version": 2})  # the same actions under the seed's raises


def test_new_records_carry_the_behaviour_version() -> None:
    """record_of writes the variant's behaviour version; the record replays to the same deal."""
    s = run(auction_deal("partnership-pinochle"), "bid 250; bid 270")
    record = record_of(s)
    assert record["rules_version"] == 2 and record["options"]["bid_raises"] == "10_or_20"
    assert replay(record) == s
    with pytest.raises(Exception, match="behaviour version 3"):
        replay({**record, "rules_version": 3})
