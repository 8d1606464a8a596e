"""Golden playthroughs and perft counts: the engine's behaviour on fixed deals does not drift.

The files in ``tests/goldens/`` are written by ``tests/goldens/regen.py``; these tests
regenerate the same text in memory and compare. A difference means the behaviour
changed: if the change is intended, run ``python tests/goldens/regen.py`` and review
the diff of the golden files.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable
from pathlib import Path

import pytest

from bezique_rules import available_variants, new_deal
from scripts import load_script

GOLDEN_DIR = Path(__file__).resolve().parent / "goldens"
REGEN = "python tests/goldens/regen.py"


_regen = load_script(GOLDEN_DIR / "regen.py", "golden_regen")
render_all: Callable[[], dict[str, str]] = _regen.render_all
playthrough_name: Callable[[str, int], str] = _regen.playthrough_name
SEEDS: tuple[int, ...] = _regen.SEEDS
PERFT_FILE: str = _regen.PERFT_FILE


@functools.lru_cache(maxsize=1)
def expected() -> dict[str, str]:
    """Every golden file's content, regenerated in memory (once per session)."""
    return render_all()


def golden_names() -> list[str]:
    """The golden files regen.py writes for the presets registered now."""
    return [playthrough_name(v, s) for v in available_variants(builtin=True) for s in SEEDS] + [PERFT_FILE]


def compare(name: str) -> None:
    """Fail with a unified diff when the file differs from the regenerated text."""
    path = GOLDEN_DIR / name
    want = expected()[name]
    if not path.exists():
        pytest.fail(f"golden file {path} is missing: run `{REGEN}` to create it")
    have = path.read_text(encoding="utf-8")
    if have != want:
        diff = "".join(
            list(
                difflib.unified_diff(
                    have.splitlines(keepends=True),
                    want.splitlines(keepends=True),
                    fromfile=f"goldens/{name} (on disk)",
                    tofile=f"goldens/{name} (engine now)",
                    n=1,
                )
            )[:60]
        )
        pytest.fail(
            f"the engine's behaviour changed: goldens/{name} differs from the regenerated text.\n"
            f"If the change is intended, run `{REGEN}` and review the diff of the golden files.\n{diff}",
            pytrace=False,
        )


@pytest.mark.parametrize("name", golden_names())
def test_golden_file_matches_the_engine(name: str) -> None:
    """Each seeded playthrough (step, player, phase, summary, legal actions, choice) and the
    perft counts are exactly what the engine produces now."""
    compare(name)
    assert (GOLDEN_DIR / name).read_text(encoding="utf-8") == expected()[name]


def test_golden_directory_has_no_stale_or_missing_files() -> None:
    """The golden directory holds exactly the files regen.py writes (one per preset and seed, and perft)."""
    on_disk = sorted(p.name for p in GOLDEN_DIR.glob("*.txt"))
    assert on_disk == sorted(expected()), (
        f"golden files on disk {on_disk} differ from what regen.py writes {sorted(expected())}: run `{REGEN}`"
    )
    assert sorted(expected()) == sorted(golden_names())


def test_playthrough_goldens_replay_with_full_checks() -> None:
    """Each golden playthrough on disk replays from its seed: at every step the listed legal
    actions are the engine's, the chosen one is legal, and the deal ends."""
    for variant in available_variants(builtin=True):
        for seed in SEEDS:
            path = GOLDEN_DIR / playthrough_name(variant, seed)
            if not path.exists():
                pytest.fail(f"golden file {path} is missing: run `{REGEN}` to create it")
            lines = path.read_text(encoding="utf-8").splitlines()
            steps = [line for line in lines if line[:1] != "#" and not line.startswith(("end", "result"))]
            state = new_deal(variant, seed=seed)
            for number, line in enumerate(steps):
                fields = line.split(" | ")
                assert fields[0].split()[0] == str(number)
                legal = [a.strip() for a in fields[2].split(";")]
                assert legal == [str(a) for a in state.legal_actions()]
                assert fields[3] in legal
                state = state.apply(fields[3])
            assert state.is_over, f"{variant} seed {seed}: the golden playthrough does not end the deal"
