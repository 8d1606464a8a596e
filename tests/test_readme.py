"""The README's Python example runs, and its two commands are the ones CI uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_python_example_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every ```python block of the README executes without error."""
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks, "the README has a Python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})


def test_readme_starts_with_the_two_commands() -> None:
    """The first two shell blocks install and run the main job, then install and run the tests."""
    commands = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    assert len(commands) >= 2
    main_job, tests = commands[0].strip(), commands[1].strip()
    assert "pip install ." in main_job and "bezique-rules simulate" in main_job
    assert 'pip install ".[test]"' in tests and "python -m pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip" install -q ".[test]"' in ci and 'python" -m pytest' in ci
