"""Replay a Euchre deal in OpenSpiel's terms with the ``euchre-openspiel`` preset.

Run it with ``python examples/euchre_openspiel_replay.py`` (OpenSpiel itself is
not needed). It builds a deal from OpenSpiel-style chance outcomes (the dealer,
the 20 cards dealt one at a time starting with the dealer, the up-card), then
plays it by picking OpenSpiel action ids (0-23 cards, 24 Pass, 25-28 the suits
C D H S, 29 Alone, 30 Partner), converting each with `from_openspiel_action`,
and prints every step's id with our notation and, at the end, OpenSpiel's
returns per player.
"""

from __future__ import annotations

import random

from bezique_rules import new_deal
from bezique_rules.integrations.openspiel import (
    card_from_openspiel,
    deck_from_openspiel,
    from_openspiel_action,
    openspiel_returns,
    to_openspiel_action,
)

SEED = 11
DEALER = 2
SEATS = "NESW"


def chance_outcomes(rng: random.Random) -> list[int]:
    """The 20 dealt card ids in OpenSpiel's order, then the up-card id (what OpenSpiel's chance nodes give)."""
    return rng.sample(range(24), 21)


def main() -> None:
    """Deal from chance outcomes, play by OpenSpiel ids, print the ids and the returns."""
    rng = random.Random(SEED)
    cards = chance_outcomes(rng)
    deal = new_deal("euchre-openspiel", deck=deck_from_openspiel(cards), dealer=DEALER, allow_lone_defender=True)
    print(f"chance: dealer {DEALER} ({SEATS[DEALER]}), cards {cards[:20]}, up-card {cards[20]}")
    for seat in range(4):
        print(f"  {SEATS[seat]} ({seat}) holds {deal.view(seat).hand}")
    print(f"  up-card {card_from_openspiel(cards[20])}")
    step = 0
    while not deal.is_over:
        player = deal.current_player
        legal_ids = sorted(to_openspiel_action(deal, a) for a in deal.legal_actions())
        action_id = rng.choice(legal_ids)
        action = from_openspiel_action(deal, action_id)
        step += 1
        print(f"{step:2} {deal.phase.value:7} player {player}: id {action_id:2} = {action}  (legal {legal_ids})")
        deal = deal.apply(action)
    print(f"points per side {deal.scores}; OpenSpiel returns {openspiel_returns(deal)}")


if __name__ == "__main__":
    main()
