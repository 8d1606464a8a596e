"""Regenerate the SVG golden files: ``python tests/goldens/svg/regen_svg.py``.

For every builtin preset: the deal shuffled with seed 1, played for `STEPS` actions
chosen by ``random.Random(1)`` among the legal ones (stopping before the deal ends), then

- ``<preset>-view.svg``: the view of the player to act, legal cards highlighted;
- ``<preset>-deal.svg``: the whole deal face up (`DealState` rendering).

`tests/test_svg.py` renders the same pictures in memory and compares them with the files.
When a change of the drawing is intended, run this script and look at the new pictures.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from bezique_rules import DealState, available_variants, new_deal
from bezique_rules.state.svg import render

GOLDEN_DIR = Path(__file__).resolve().parent
STEPS = 23
SEED = 1


def position(variant: str) -> DealState:
    """The position drawn for ``variant``."""
    deal = new_deal(variant, seed=SEED)
    rng = random.Random(SEED)
    for _ in range(STEPS):
        after = deal.apply(rng.choice(deal.legal_actions()))
        if after.is_over:
            break
        deal = after
    return deal


def render_all() -> dict[str, str]:
    """File name -> SVG text, for every builtin preset."""
    out = {}
    for variant in available_variants(builtin=True):
        deal = position(variant)
        actor = deal.current_player
        out[f"{variant}-view.svg"] = render(deal.view(0 if actor is None else actor), highlight_legal=True)
        out[f"{variant}-deal.svg"] = render(deal, highlight_legal=True)
    return out


def main() -> int:
    for old in GOLDEN_DIR.glob("*.svg"):
        old.unlink()
    for name, text in render_all().items():
        (GOLDEN_DIR / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(render_all())} files to {GOLDEN_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
