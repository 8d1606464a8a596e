"""Drive one seeded deal of two-hand Bezique with random legal choices.

Run it with ``python examples/drive_a_deal.py``. It prints the hands dealt, every
trick (who led, the cards, who won it), every declaration, and where each
player's points came from at the end.
"""

from __future__ import annotations

import random

from bezique_rules import DealState, Phase, Verb, new_deal

SEED = 2024


def describe_start(deal: DealState) -> None:
    """Print the trump suit, the turn-up and both hands."""
    view = deal.view(0)
    trump = view.trump.symbol if view.trump is not None else "none"
    print(f"bezique, seed {SEED}: trumps {trump} (turn-up {view.turn_up}), player {deal.current_player} leads")
    for player in range(deal.players):
        print(f"  player {player} holds {deal.view(player).hand}")


def main() -> None:
    """Play the deal to its end, printing tricks and declarations as they happen."""
    deal = new_deal("bezique", seed=SEED)
    rng = random.Random(SEED)
    describe_start(deal)
    tricks = 0
    while not deal.is_over:
        player = deal.current_player
        action = rng.choice(deal.legal_actions())
        before = deal.phase
        deal = deal.apply(action)
        if action.verb is Verb.PLAY:
            view = deal.view(0)
            if not view.trick:  # the trick is complete
                tricks += 1
                cards = " ".join(str(c) for c in view.last_trick)
                leader, winner = view.last_trick_leader, view.trick_leader
                print(f"trick {tricks:2}: player {leader} led, {cards}: won by player {winner}")
        elif action.verb is not Verb.PASS:
            print(f"           player {player}: {action}  (scores now {deal.scores[0]}-{deal.scores[1]})")
        if deal.phase is Phase.PLAYOFF and before is not Phase.PLAYOFF:
            print("           the stock is exhausted: the last 8 tricks follow strict rules")
    result = deal.result
    assert result is not None
    print("final breakdown:")
    for player, part in enumerate(result.breakdown):
        print(
            f"  player {player}: melds {part.melds}, trump seven {part.seven}, brisques {part.cards}, "
            f"last trick {part.last_trick} = {part.total}"
        )


if __name__ == "__main__":
    main()
