"""User-facing text speaks to users: no internal codes, no files they cannot open.

The docs pages, the README and what the command line prints (``bezique-rules rules`` for every
preset, every command's ``--help``) must not name the project's internal labels: rule numbers
such as "R1" or "D1", the numbered rules texts ("seed 000", "seed 002 method 2"), sections of
the unpublished rules reference ("reference §2", ``spec/rules/reference.md``, ``presets.md``)
or "release 0.1.0's rule". A rule is said in words and cites a published source (the preset
pages' Sources tables). Benchmark figures give the result, the command and the machine, not
commit hashes or load averages.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

import pytest

from bezique_rules import available_variants
from bezique_rules.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

INTERNAL = re.compile(
    r"\bR[0-9]\b(?!\s*=)"  # the meld rules' numbers (R1 ... R5)
    r"|\bD[0-9]\b"  # the double-bezique rule's number
    r"|\b[Ss]eed 0[0-9]{2}\b"  # the numbered rules texts
    r"|\bmethod [0-9]\b"
    r"|§ ?[0-9]"  # sections of the rules reference
    r"|\brules reference\b|\breference\.md\b|\bpresets\.md\b|spec/rules"
    r"|release 0\.1\.0's"
)
"""Labels that mean something only inside the project."""

BENCHMARK_NOISE = re.compile(r"\bcommit [0-9a-f]{7,40}\b|\bat [0-9a-f]{7,40}\b|\bload average\b|\ba load of\b")
"""What a benchmark figure should not lean on: the commit it ran at, the machine's load."""


def offending(text: str, pattern: re.Pattern[str]) -> list[str]:
    """The lines of ``text`` that match ``pattern``, numbered from 1."""
    return [f"{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1) if pattern.search(line)]


def _pages() -> list[Path]:
    # changelog.md includes CHANGELOG.md, a record of past releases in their own words
    return sorted(p for p in DOCS.rglob("*.md") if p.name != "changelog.md")


@pytest.mark.parametrize("page", [*_pages(), ROOT / "README.md"], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_docs_pages_use_no_internal_codes(page: Path) -> None:
    """A docs page says rules in words and cites published sources, never the project's labels."""
    text = page.read_text(encoding="utf-8")
    assert not offending(text, INTERNAL), f"{page.name}: internal codes"
    assert not offending(text, BENCHMARK_NOISE), f"{page.name}: commit hashes or load averages"


def test_the_patterns_catch_what_they_should() -> None:
    """The checks above would have caught the texts the issue quotes, and pass plain prose."""
    quoted = ("R1: each meld", "(R5)", "no D1", "seed 000", "Seed 002 method 2", "reference §2")
    paths = ("`spec/rules/reference.md`", "(presets.md)", "release 0.1.0's rule", "the rules reference")
    for bad in quoted + paths:
        assert INTERNAL.search(bad), bad
    for fine in ("R = 3", "round 1", "seeds 0 to 9", "Release 0.2.0", "RD1", "see [Sources](#sources)"):
        assert not INTERNAL.search(fine), fine
    assert BENCHMARK_NOISE.search("measured at commit 140b2d8") and BENCHMARK_NOISE.search("a load average of 10")


def _cli(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    assert status == 0, err.getvalue()
    return out.getvalue() + err.getvalue()


@pytest.mark.parametrize("variant", available_variants(builtin=True))
def test_rules_command_uses_no_internal_codes(variant: str) -> None:
    """``bezique-rules rules VARIANT``: the description and every option's meaning in words."""
    text = _cli("rules", variant)
    assert not offending(text, INTERNAL)


@pytest.mark.parametrize("command", [[], ["simulate"], ["play"], ["serve"], ["replay"], ["rules"]])
def test_help_uses_no_internal_codes(command: list[str]) -> None:
    """Every command's --help speaks to users."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*command, "--help"]) == 0
    assert "usage:" in out.getvalue()
    assert not offending(out.getvalue(), INTERNAL)


def _docstrings() -> list[tuple[Path, int, str]]:
    """Every string written in the package: docstrings (of modules, classes, functions and
    attributes: the API reference renders them), messages, option meanings, page text."""
    found = []
    for path in sorted((ROOT / "src" / "bezique_rules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append((path, node.lineno, node.value))
    return found


def test_package_text_uses_no_internal_codes() -> None:
    """The docstrings the API reference renders, and every message, say rules in words, as the
    docs pages do."""
    bad = [
        f"{path.relative_to(ROOT)}:{line + k}: {text.strip()}"
        for path, line, doc in _docstrings()
        for k, text in enumerate(doc.splitlines())
        if INTERNAL.search(text)
    ]
    assert not bad, "\n".join(bad)
