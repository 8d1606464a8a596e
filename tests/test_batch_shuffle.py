"""The batch engine's shuffles in array form (`bezique_rules.batch.shuffle`) against the
library's documented shuffle, `seeded_order`: the same deck order for every seed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="the batch engine needs the [batch] extra (numpy)")

from bezique_rules.batch import shuffle  # noqa: E402
from bezique_rules.deck import seeded_order  # noqa: E402

EDGE_SEEDS = [0, 1, 2, 7, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**64, 2**64 + 5, 10**40]
EDGE_SEEDS += [2**640 + 3, 2 ** (32 * 630) + 12345]  # keys of 21 and 631 words (longer than the state)
DECK_SIZES = (2, 3, 24, 25, 48, 64)


def expected(size: int, seeds: list[int]) -> Any:
    return np.array([seeded_order(size, s) for s in seeds], np.int64).reshape(len(seeds), size)


@pytest.fixture
def array_form(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every batch, however small, shuffled in array form, in small chunks."""
    monkeypatch.setattr(shuffle, "ARRAY_FROM", 1)
    monkeypatch.setattr(shuffle, "CHUNK", 100)


@pytest.mark.parametrize("size", DECK_SIZES)
def test_array_form_equals_seeded_order(size: int, array_form: None) -> None:
    """The array-form seeding, twist and Fisher-Yates give `seeded_order`'s deck for edge
    seeds (0, 2**32 - 1, 2**32, keys of several words) and thousands of random ones."""
    rng = random.Random(size)
    seeds = EDGE_SEEDS + [rng.getrandbits(rng.choice((8, 31, 32, 33, 64, 100))) for _ in range(2000)]
    assert (shuffle.seeded_orders(size, seeds) == expected(size, seeds)).all()


def test_default_thresholds_mix_both_forms() -> None:
    """With the default thresholds a large batch of one-word seeds goes through the array
    form, its few long-key seeds through `seeded_order`; every row is `seeded_order`'s."""
    seeds = list(range(10**6, 10**6 + shuffle.ARRAY_FROM)) + [2**40 + 1, 2**64 + 9]
    got = shuffle.seeded_orders(24, seeds)
    assert (got == expected(24, seeds)).all()


def test_small_batch_is_seeded_order() -> None:
    """Below `ARRAY_FROM` deals each row is `seeded_order` itself."""
    seeds = [3, 1, 4, 1, 5]
    assert (shuffle.seeded_orders(64, seeds) == expected(64, seeds)).all()


def test_out_of_outputs_falls_back(array_form: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal that needs more generator outputs than the array form made gets `seeded_order`:
    with too few outputs for most deals, every row is still right."""
    monkeypatch.setattr(shuffle, "_draws", lambda size: 24)
    seeds = list(range(500))
    assert (shuffle.seeded_orders(24, seeds) == expected(24, seeds)).all()


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from(DECK_SIZES),
    seeds=st.lists(st.integers(min_value=0, max_value=2**80), min_size=1, max_size=40),
)
def test_any_seeds(size: int, seeds: list[int]) -> None:
    """For any whole-number seeds (hypothesis) the array form is `seeded_order`."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(shuffle, "ARRAY_FROM", 1)
        mp.setattr(shuffle, "CHUNK", 7)
        assert (shuffle.seeded_orders(size, seeds) == expected(size, seeds)).all()
