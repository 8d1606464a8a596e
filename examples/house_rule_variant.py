"""Register a house-rule variant and play a deal of it.

Run it with ``python examples/house_rule_variant.py``. The house plays Bezique to
1500, allows quartets only with one card of each suit, and pays 50 for a carte
blanche (a dealt hand without king, queen or jack, shown before one's first card).
Once registered, the name works everywhere a preset name does.
"""

from __future__ import annotations

import random

from bezique_rules import (
    IllegalActionError,
    available_variants,
    get_rules,
    new_deal,
    record_of,
    register_variant,
    replay,
)

NAME = "bezique-house"


def main() -> None:
    """Register the variant, show what differs, and play a deal in which a carte blanche is shown."""
    register_variant(NAME, get_rules("bezique", target=1500, quartet_rule="one_per_suit", carte_blanche=50))
    print(f"variants now: {', '.join(available_variants())}")
    house, classic = get_rules(NAME), get_rules("bezique")
    for option, value in house.options.items():
        if classic.options[option] != value:
            print(f"  {option}: {classic.options[option]!r} -> {value!r}")

    four_kings = "meld four-kings KS KS KH KD"  # two kings of spades: no longer a quartet
    try:
        house.action_id(four_kings)
    except IllegalActionError as exc:
        print(f"'{four_kings}' is a meld in bezique (id {classic.action_id(four_kings)}), not here: {exc.rule.value}")

    # Find a shuffle that deals someone a carte blanche, then play that deal.
    seed = next(s for s in range(10_000) if "meld carte-blanche" in map(str, new_deal(NAME, seed=s).legal_actions()))
    deal = new_deal(NAME, seed=seed)
    print(f"seed {seed}: player {deal.current_player} holds {deal.view(0).hand} (no king, queen or jack)")
    deal = deal.apply("meld carte-blanche")
    print(f"  shows a carte blanche: scores {deal.scores[0]}-{deal.scores[1]}")
    rng = random.Random(seed)
    while not deal.is_over:
        deal = deal.apply(rng.choice(deal.legal_actions()))
    melds = ", ".join(f"p{m.player} {m.kind} {m.points}" for m in deal.view(0).melds) or "none"
    print(f"  melds declared: {melds}")
    print(f"  final scores {deal.scores[0]}-{deal.scores[1]} (game to {house.options['target']})")
    record = record_of(deal)
    print(f"  the record names the variant {record['variant']!r} and replays: {replay(record) == deal}")


if __name__ == "__main__":
    main()
