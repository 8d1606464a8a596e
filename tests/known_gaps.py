"""Known gaps the property tests name instead of skipping them silently.

Issue 25 leaves one open: after a carte blanche (the hand shown without a court card), the
witness can miscount the shown copies of a face that also became known another way (the
turn-up, an exchange, a declared seven), and `determinize` then raises `DealError`. The
property tests meet it in a few of their generated deals: such a test is reported as an
expected failure naming the gap (``pytest -rx`` lists them), never passed over unseen.
"""

from __future__ import annotations

import random

import pytest

from bezique_rules import DealError, DealState, PlayerView, determinize


def determinize_or_known_gap(view: PlayerView, rng: random.Random) -> DealState:
    """``determinize(view, rng)``; the known carte-blanche gap is reported as an expected failure."""
    try:
        return determinize(view, rng)
    except DealError as exc:
        if any(action.meld == "carte-blanche" for _, action in view.history):
            pytest.xfail(f"known gap (issue 25): determinize after a carte blanche: {exc}")
        raise
