"""The runnable examples in examples/: each runs to exit 0 and prints what it promises."""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))


@functools.cache
def run_example(name: str) -> str:
    """Run ``examples/<name>`` with this interpreter; return its stdout (exit 0 and no stderr required)."""
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=EXAMPLES.parent,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def test_the_first_examples_exist() -> None:
    """examples/ holds at least the three documented scripts."""
    names = {p.name for p in SCRIPTS}
    assert {"drive_a_deal.py", "replay_a_record.py", "house_rule_variant.py"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_every_example_runs_and_has_a_main(script: Path) -> None:
    """Every example has a docstring, `main() -> None` and a __main__ guard, and runs to exit 0 with output."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    assert ast.get_docstring(tree)
    mains = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main"]
    assert len(mains) == 1
    assert isinstance(mains[0].returns, ast.Constant) and mains[0].returns.value is None
    guard = tree.body[-1]
    assert isinstance(guard, ast.If)
    assert ast.unparse(guard.test) == "__name__ == '__main__'"
    out = run_example(script.name)
    assert out.strip()
    assert len(out.splitlines()) <= 60  # short


BREAKDOWN = re.compile(r"^  player (\d): melds (\d+), trump seven (\d+), brisques (\d+), last trick (\d+) = (\d+)$")


def test_drive_a_deal_prints_every_trick_and_the_breakdown() -> None:
    """drive_a_deal.py: the hands, all 32 tricks in order, the play-off start and a consistent final breakdown."""
    out = run_example("drive_a_deal.py")
    lines = out.splitlines()
    assert lines[0].startswith("bezique, seed 2024: trumps ")
    assert lines[1].startswith("  player 0 holds ")
    assert lines[2].startswith("  player 1 holds ")
    assert len(lines[1].split("holds ")[1].split()) == 8
    tricks = [int(m.group(1)) for line in lines if (m := re.match(r"^trick +(\d+): player \d led, ", line))]
    assert tricks == list(range(1, 33))
    playoff = next(i for i, line in enumerate(lines) if "the stock is exhausted" in line)
    assert lines[playoff - 1].startswith("trick 24:")
    parts = [m for line in lines if (m := BREAKDOWN.match(line))]
    assert [m.group(1) for m in parts] == ["0", "1"]
    for m in parts:
        melds, seven, brisques, last, total = (int(m.group(i)) for i in range(2, 7))
        assert melds + seven + brisques + last == total
    assert sum(int(m.group(4)) for m in parts) == 160  # every ace and ten is won by someone
    assert sorted(int(m.group(5)) for m in parts) == [0, 10]  # one last-trick bonus


def test_replay_a_record_verifies_and_rejects_tampering() -> None:
    """replay_a_record.py: the JSON record replays to an identical state; the tampered step is named."""
    out = run_example("replay_a_record.py")
    assert "wrote deal.json" in out
    assert "replayed from JSON: identical state True" in out
    tampered = re.search(r"tampering with step (\d+):", out)
    rejected = re.search(r"tampered record rejected at step (\d+): step (\d+) \(", out)
    assert tampered and rejected
    assert tampered.group(1) == rejected.group(1) == rejected.group(2)
    assert "only the trick winner declares" in out


def test_house_rule_variant_registers_and_plays() -> None:
    """house_rule_variant.py: the variant is registered with its three changes and a deal of it is played."""
    out = run_example("house_rule_variant.py")
    variants = next(line for line in out.splitlines() if line.startswith("variants now: "))
    assert {"bezique", "bezique-house", "bezique-match"} <= set(variants.removeprefix("variants now: ").split(", "))
    assert "  carte_blanche: 0 -> 50" in out
    assert "  quartet_rule: 'any' -> 'one_per_suit'" in out
    assert "  target: 1000 -> 1500" in out
    assert "not here: not-an-action" in out
    assert "shows a carte blanche: scores 50-0" in out
    assert "(game to 1500)" in out
    assert "the record names the variant 'bezique-house' and replays: True" in out


def test_custom_engine_registers_and_plays_through_the_generic_machinery() -> None:
    """custom_engine.py: its own engine deals, refuses a card by rule, replays, determinizes and plays a game."""
    out = run_example("custom_engine.py")
    assert out.startswith("no-stock-duel on the 'no-stock' engine, seed 7: trumps ")
    assert re.search(r"'play \w\w' refused \(must-(follow-suit|beat|trump)\)", out)
    assert "the record replays: True" in out
    assert "a determinized deal looks the same to player 0: True" in out
    assert re.search(r"a game of level 4 against level 1: \d+ deals, totals \(\d+, \d+\), winner player [01]", out)
