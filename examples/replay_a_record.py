"""Record a deal as JSON, replay it, and watch a tampered record being rejected.

Run it with ``python examples/replay_a_record.py``. A record holds the variant,
its options, the seed (or stacked deck), the dealer and every action in
canonical notation; `replay` re-checks every action, so a record that was
changed fails at the first step that no longer fits.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from bezique_rules import RecordError, new_deal, record_of, replay

SEED = 7


def main() -> None:
    """Play, write, read back, replay, verify; then tamper with one step."""
    deal = new_deal("bezique", seed=SEED)
    rng = random.Random(SEED)
    while not deal.is_over:
        deal = deal.apply(rng.choice(deal.legal_actions()))
    record = record_of(deal)
    print(f"played a deal: {len(record['actions'])} actions, scores {deal.scores[0]}-{deal.scores[1]}")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.json"
        path.write_text(json.dumps(record, indent=2), encoding="utf-8")
        print(f"wrote {path.name}: {path.stat().st_size} bytes, first actions {record['actions'][:4]}")
        text = path.read_text(encoding="utf-8")

    again = replay(text)
    print(f"replayed from JSON: identical state {again == deal}, scores {again.scores[0]}-{again.scores[1]}")
    if again != deal:
        raise SystemExit("the replayed deal differs from the original")

    # Tamper with the record: replace a card play by a meld, which is never legal while playing.
    tampered = json.loads(text)
    step = next(i for i, a in enumerate(tampered["actions"]) if i >= 10 and a.startswith("play "))
    print(f"tampering with step {step + 1}: {tampered['actions'][step]!r} -> 'meld bezique QS JD'")
    tampered["actions"][step] = "meld bezique QS JD"
    try:
        replay(tampered)
    except RecordError as exc:
        print(f"tampered record rejected at step {exc.step}: {exc}")
    else:
        raise SystemExit("the tampered record was accepted")


if __name__ == "__main__":
    main()
