"""`batch.random_actions`: one legal id per row, uniformly, whatever the mask's layout."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the batch engine needs the [batch] extra (numpy)")

from bezique_rules import batch  # noqa: E402
from bezique_rules.batch.core import unpack_words  # noqa: E402

WIDTHS = (1, 3, 8, 24, 63, 64, 65, 130, 294, 310, 1102)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_draw_is_legal_in_every_layout(width: int) -> None:
    """A draw is a legal id of its row (0 for a row with none), and the same draw whether the
    mask is contiguous, the first columns of whole-word rows with bits set past them (what
    legal_mask gives, and the same with True past them), or a slice of a wider array."""
    rng = np.random.default_rng(width)
    n = 3000
    words = rng.integers(0, 2**63, (n, -(-width // 64) + 1), dtype=np.int64).view(np.uint64)
    words &= rng.integers(0, 2**63, words.shape, dtype=np.int64).view(np.uint64)  # a quarter of the bits
    words[:5] = 0
    unpacked = unpack_words(words[:, : -(-width // 64)], width)  # the padding past width is garbage
    wider = np.ones((n, width + 70), bool)
    wider[:, :width] = unpacked
    padded = np.ones((n, 64 * -(-width // 64)), bool)  # whole-word rows, True past the mask
    padded[:, :width] = unpacked
    layouts = {
        "view": unpacked,
        "contiguous": np.ascontiguousarray(unpacked),
        "slice": wider[:, :width],
        "padded": padded[:, :width],
    }
    draws = {}
    for name, mask in layouts.items():
        got = batch.random_actions(mask, np.random.default_rng(7))
        legal = unpacked[np.arange(n), np.minimum(got, width - 1)] & (got < width)
        assert (legal | ~unpacked.any(axis=1)).all(), name
        assert (got[:5] == 0).all(), name
        draws[name] = got
    assert all((got == draws["contiguous"]).all() for got in draws.values())


def test_uniform_among_the_legal_ids() -> None:
    """Each legal id of a row is drawn about equally often (six ids across three words)."""
    mask = np.zeros((60_000, 140), bool)
    ids = [0, 5, 63, 64, 70, 139]
    mask[:, ids] = True
    got = batch.random_actions(mask, np.random.default_rng(3))
    counts = np.bincount(got, minlength=140)
    assert set(np.flatnonzero(counts).tolist()) == set(ids)
    assert (np.abs(counts[ids] - 10_000) < 500).all()


@pytest.mark.parametrize("variant", ["euchre", "bezique", "bezique-match", "pinochle"])
def test_drawing_from_the_state_reads_its_packed_mask(variant: str) -> None:
    """random_actions(state) only ever picks ids legal_mask() allows, the same ids as
    random_actions(state.legal_mask()) for the same generator, and the same ids again for a
    generator seeded alike; legal_words() is legal_mask() packed, 64 ids a word."""
    state = batch.new(variant, range(300))
    packed_rng, dense_rng, again_rng = (np.random.default_rng(11) for _ in range(3))
    again = state
    while not state.done.all():
        mask = state.legal_mask()
        words = state.legal_words()
        assert words.dtype == np.uint64 and words.shape == (state.size, -(-mask.shape[1] // 64))
        assert (unpack_words(words, mask.shape[1]) == mask).all()
        assert (np.bitwise_count(words).sum(axis=1) == mask.sum(axis=1)).all()  # nothing past the last id
        got = batch.random_actions(state, packed_rng)
        assert (got == batch.random_actions(mask, dense_rng)).all()
        live = ~state.done
        assert mask[np.flatnonzero(live), got[live]].all()
        state = state.step(got)
        again = again.step(batch.random_actions(again, again_rng))
    assert (again.history == state.history).all()


def test_a_checked_step_reads_the_packed_mask() -> None:
    """step(check=True) on Bezique batches (18 mask words a deal) takes exactly the ids that
    legal_mask() allows, the melds' high ids included: each id's bit is read from
    legal_words(), and an illegal one is refused naming its deal."""
    from bezique_rules import IllegalActionError
    from bezique_rules.batch.core import _word_bits

    state = batch.new("bezique", range(40))
    rng = np.random.default_rng(5)
    checked = step = 0
    while not state.done.all():
        mask = state.legal_mask()
        words = state.legal_words()
        for a in range(mask.shape[1]) if step % 8 == 2 else ():  # every id, on every 8th step
            assert (_word_bits(words, np.full(state.size, a)) == mask[:, a]).all()
        step += 1
        checked += int(mask[:, 64:].any())
        ids = batch.random_actions(state, rng)
        live = np.flatnonzero(~state.done)
        refused = np.flatnonzero(~mask[live[0]])
        bad = ids.copy()
        bad[live[0]] = refused[-1]
        with pytest.raises(IllegalActionError, match=f"deal {live[0]}:"):
            state.step(bad)
        state = state.step(ids)
    assert checked  # some steps had legal melds past the first word
