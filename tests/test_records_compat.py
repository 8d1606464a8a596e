"""Records written by release 0.1.0 still replay (issue 14, item 6: `DealState.moves` changed
from packed ints to (player, action_id) pairs; the JSON record format did not)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bezique_rules import DealState, GameState, replay

RECORDS = sorted((Path(__file__).parent / "records_0_1_0").glob("*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_from_0_1_0_replays_to_its_scores(path: Path) -> None:
    """A finished deal or game recorded by 0.1.0 replays, every step checked, to the same scores."""
    record = json.loads(path.read_text())
    expected = tuple(record.pop("expected_scores"))
    state = replay(record)
    assert isinstance(state, (DealState, GameState))
    assert state.is_over
    assert state.scores == expected


def test_moves_are_player_and_action_id_pairs() -> None:
    """`DealState.moves` holds (player, action_id) pairs, matching `history` and `action_history`."""
    record = json.loads((Path(__file__).parent / "records_0_1_0" / "partnership-pinochle-deal.json").read_text())
    record.pop("expected_scores")
    deal = replay(record)
    assert isinstance(deal, DealState)
    assert len(deal.moves) == len(record["actions"]) > 0
    assert [player for player, _ in deal.moves] == [player for player, _ in deal.history]
    assert [action_id for _, action_id in deal.moves] == list(deal.action_history)
    assert {player for player, _ in deal.moves} == {0, 1, 2, 3}
