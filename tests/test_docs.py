"""The documentation site: its code examples run, and its preset pages match the registry.

Every fenced ``python`` block of ``docs/**/*.md`` is executed, the blocks of one page in
order and in one fresh namespace, with the working directory set to a temporary
directory (so examples may write files). A block that must not run is fenced as
``text``. Each preset page (``docs/presets/<name>.md``) has the sections of every preset
page, in order, and an ``## Options`` table that must list exactly the options of the
preset ``<name>``, with their defaults and allowed values; and every preset of the
library has such a page, listed in the ``mkdocs.yml`` nav. The rule-code table of the
errors page lists every ``RuleCode``.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import bezique_rules
from bezique_rules import MeldKind, MeldTable, Quartet, Rank, RuleCode, get_rules, register_variant
from bezique_rules.rules import registry
from bezique_rules.rules.registry import Preset, preset
from bezique_rules.rules.ruleset import OptionSpec

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PRESET_PAGES = DOCS / "presets"
NOT_PRESET_PAGES = {"index"}

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w+-]*)[^\n`]*$")


def code_blocks(path: Path, lang: str = "python") -> list[tuple[int, str]]:
    """The fenced blocks of ``lang`` in a Markdown file, as (line number of the first code line, dedented code)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        match = _FENCE_OPEN.match(lines[i])
        if match is None:
            i += 1
            continue
        indent = match.group("indent")
        close = re.compile(rf"^{re.escape(indent)}```\s*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if j == len(lines):
            raise AssertionError(f"{path}:{i + 1}: unclosed code fence")
        if match.group("lang") == lang:
            body = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : j]]
            blocks.append((i + 2, "\n".join(body) + "\n"))
        i = j + 1
    return blocks


def _pages_with_code() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if code_blocks(p))


def _page_id(path: Path) -> str:
    return path.relative_to(DOCS).as_posix() if path.is_relative_to(DOCS) else path.name


_SHOWN = re.compile(r"#\s*->\s?(?P<expected>.*?)\s*$")
"""An output comment: ``print(x)  # -> what it prints``; ``...`` in it stands for any text."""


def shown_outputs(code: str, first_line: int) -> dict[int, str]:
    """The output comments of a block, by the Markdown line they are on."""
    out = {}
    for offset, text in enumerate(code.splitlines()):
        match = _SHOWN.search(text)
        if match and "print(" in text:
            out[first_line + offset] = match.group("expected")
    return out


def _matches(expected: str, printed: str) -> bool:
    if "..." not in expected:
        return printed == expected
    pattern = ".*?".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, printed, re.DOTALL) is not None


def run_page(path: Path) -> int:
    """Execute a page's python blocks in order in one fresh namespace; return how many ran.

    A ``print`` call whose line ends with ``# -> text`` must print exactly ``text`` (its lines
    joined by " / " when it prints several; ``...`` matches anything), so that the outputs a
    page shows are the outputs the code gives.
    """
    namespace: dict[str, Any] = {"__name__": f"docs.{_page_id(path)}"}
    printed: dict[int, list[str]] = {}
    filename = str(path)

    def recording_print(*args: Any, sep: str | None = " ", end: str | None = "\n", **kwargs: Any) -> None:
        frame = sys._getframe(1)
        while frame.f_back is not None and frame.f_code.co_filename != filename:
            frame = frame.f_back  # print called through a helper: the page's line that called it
        buffer = io.StringIO()
        print(*args, sep=sep, end=end, file=buffer)
        printed.setdefault(frame.f_lineno, []).append(buffer.getvalue())
        if kwargs.get("file") is not None:
            print(*args, sep=sep, end=end, **kwargs)

    namespace["print"] = recording_print
    ran = 0
    for line, code in code_blocks(path):
        # Pad with blank lines so that tracebacks show the line numbers of the Markdown file.
        compiled = compile("\n" * (line - 1) + code, filename, "exec")
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compiled, namespace)
        for at, expected in shown_outputs(code, line).items():
            got = " / ".join("".join(printed.get(at, [])).rstrip("\n").split("\n"))
            assert at in printed, f"{path}:{at}: the line shows an output but printed nothing"
            assert _matches(expected, got), f"{path}:{at}: the page shows {expected!r}, the code prints {got!r}"
        ran += 1
    return ran


def _quick(command: str) -> bool:
    """Whether a shown command is quick and needs nobody at the keyboard (not ``play``, ``serve``
    or an agents' tournament)."""
    words = command.split()
    return words[1] in ("replay", "rules") or (words[1] == "simulate" and "--agents" not in words)


def command_sessions(path: Path) -> list[tuple[int, list[tuple[str, list[str]]]]]:
    """The ``text`` blocks of a page that show a terminal session of quick commands: lines
    ``$ bezique-rules ...``, each followed by what it prints (a line ``...`` stands for any
    lines, and ``...`` inside a line for any text)."""
    sessions = []
    for line, block in code_blocks(path, "text"):
        lines = block.splitlines()
        if not lines or not lines[0].startswith("$ bezique-rules "):
            continue
        steps: list[tuple[str, list[str]]] = []
        for text in lines:
            if text.startswith("$ "):
                steps.append((text[2:], []))
            else:
                steps[-1][1].append(text)
        if all(_quick(command) for command, _out in steps):
            sessions.append((line, steps))
    return sessions


def run_sessions(path: Path) -> int:
    """Run a page's command-line sessions (in the current directory, after its python blocks)
    and check that each command prints what the page shows; return how many ran."""
    import shlex

    from bezique_rules.cli import main

    ran = 0
    for line, steps in command_sessions(path):
        for command, expected in steps:
            out, err = io.StringIO(), io.StringIO()
            status = main(shlex.split(command)[1:], out, err)
            assert status == 0, f"{path}:{line}: {command!r} failed: {err.getvalue()}"
            pattern = "\n".join(
                ".*?" if text.strip() == "..." else ".*?".join(re.escape(part) for part in text.split("..."))
                for text in expected
            )
            got = out.getvalue().rstrip("\n")
            assert re.fullmatch(pattern, got, re.DOTALL), f"{path}:{line}: {command!r} prints\n{got}"
            ran += 1
    return ran


@pytest.fixture
def isolated_registry() -> Iterator[None]:
    """Undo the variants a doc example registers, so that other tests see only the library's presets."""
    tables: tuple[dict[Any, Any], ...] = (registry._PRESETS, registry._ALIASES, registry._BUILT)
    saved = [dict(table) for table in tables]
    yield
    for table, content in zip(tables, saved):
        table.clear()
        table.update(content)


@pytest.mark.usefixtures("isolated_registry")
@pytest.mark.parametrize("page", _pages_with_code(), ids=_page_id)
def test_page_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every python block of a docs page runs without error, in order, in a temporary directory."""
    if "import numpy" in page.read_text(encoding="utf-8"):  # the batch engine's pages
        pytest.importorskip("numpy", reason="this page's examples need the [batch] extra (numpy)")
    monkeypatch.chdir(tmp_path)
    assert run_page(page) == len(code_blocks(page)) > 0
    run_sessions(page)


def test_command_line_sessions_are_checked() -> None:
    """The replay how-to's terminal sessions are among the checked ones (their outputs drifted once)."""
    steps = [command for _line, session in command_sessions(DOCS / "how-to" / "replay-a-record.md")
             for command, _out in session]  # fmt: skip
    assert "bezique-rules replay deal-3.json" in steps


def test_output_comments_are_checked(tmp_path: Path) -> None:
    """A page whose ``# ->`` comment disagrees with what the code prints fails; ``...`` matches anything."""
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nprint(1 + 1)  # -> 2\nprint('a', 'b')  # -> a ...\n"
        "for k in range(2):\n    print(k)  # -> 0 / 1\n```\n",
        encoding="utf-8",
    )
    assert run_page(page) == 1
    page.write_text("```python\nprint(1 + 1)  # -> 3\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="the page shows '3', the code prints '2'"):
        run_page(page)


def test_docs_show_checked_outputs() -> None:
    """The pages a new user reads first show outputs that the tests check (``# ->`` comments)."""
    for page in ("index.md", "tutorial/first-deal.md", "how-to/replay-a-record.md"):
        blocks = code_blocks(DOCS / page)
        assert any(shown_outputs(code, line) for line, code in blocks), page


def test_docs_have_examples() -> None:
    """The tutorial, how-to and explanation pages carry runnable examples."""
    pages = {_page_id(p) for p in _pages_with_code()}
    for required in ("index.md", "tutorial/first-deal.md", "how-to/write-an-agent.md", "explanation/meld-rules.md"):
        assert required in pages


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=_page_id)
def test_python_blocks_have_no_placeholders(page: Path) -> None:
    """A python block is real code: no ``...`` placeholders (use a text block for sketches)."""
    for line, code in code_blocks(page):
        tree = ast.parse(code, filename=f"{page}:{line}")
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and node.value is Ellipsis):
                continue
            parent = parents.get(node)
            if isinstance(parent, ast.Tuple):  # tuple[int, ...] in a type is fine
                parent = parents.get(parent)
            where = f"{page}:{line + node.lineno - 1}"
            assert isinstance(parent, ast.Subscript), f"{where}: '...' placeholder in a python block"


# -- preset pages ---------------------------------------------------------------------


def _preset_pages() -> list[Path]:
    return sorted(p for p in PRESET_PAGES.glob("*.md") if p.stem not in NOT_PRESET_PAGES)


def options_table(path: Path) -> list[dict[str, str]]:
    """The rows of the first table under the ``## Options`` heading, as {column: cell text}."""
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "## Options")
    except StopIteration:
        raise AssertionError(f"{path}: no '## Options' heading") from None
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        text = line.strip()
        if text.startswith("#"):
            break
        if text.startswith("|"):
            rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", text.strip("|"))])
        elif rows:
            break
    assert len(rows) >= 2, f"{path}: no options table under '## Options'"
    header, rule, body = rows[0], rows[1], rows[2:]
    assert all(set(cell) <= set("-: ") for cell in rule), f"{path}: malformed options table"
    return [dict(zip([h.lower() for h in header], row)) for row in body]


def _literals(cell: str) -> list[Any]:
    """The Python literals written as code spans in a table cell."""
    return [ast.literal_eval(code) for code in re.findall(r"`([^`]+)`", cell)]


def _allowed_ok(spec: OptionSpec, cell: str) -> bool:
    """Whether an 'allowed' cell states what the option allows."""
    if spec.choices is not None:
        values = _literals(cell)
        return [(type(v), v) for v in values] == [(type(c), c) for c in spec.choices] + (
            [(type(None), None)] if spec.allow_none else []
        )
    if isinstance(spec.default, bool):
        return _literals(cell) == [True, False]
    if spec.minimum is not None:
        ok = f">= {spec.minimum}" in cell or f"≥ {spec.minimum}" in cell
        return ok and (not spec.allow_none or "`None`" in cell)
    return True


@pytest.mark.parametrize("page", _preset_pages(), ids=_page_id)
def test_preset_page_options_table(page: Path) -> None:
    """A preset page's options table lists exactly the preset's options, in order, with their defaults."""
    found: Preset = preset(page.stem)
    rows = options_table(page)
    assert [r["option"].strip("`") for r in rows] == [s.name for s in found.options]
    for row, spec in zip(rows, found.options):
        (default,) = _literals(row["default"])
        assert (type(default), default) == (type(spec.default), spec.default), f"{spec.name}: default"
        assert _allowed_ok(spec, row["allowed"]), f"{spec.name}: allowed values {row['allowed']!r}"
        assert row["meaning"], f"{spec.name}: no meaning given"


PRESET_PAGE_SECTIONS = [
    "Description",
    "Rules",
    "Choices where the sources are silent",
    "Specs",
    "Options",
    "Notation",
    "Sources",
    "Version history",
]


@pytest.mark.parametrize("page", _preset_pages(), ids=_page_id)
def test_preset_page_shape(page: Path) -> None:
    """Every preset page has the same sections in the same order, and lists the preset's current version."""
    text = page.read_text(encoding="utf-8")
    headings = [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]
    assert headings == PRESET_PAGE_SECTIONS
    version = preset(page.stem).rules({}).version
    history = text.split("## Version history", 1)[1]
    assert re.search(rf"^\| {version} \|", history, re.MULTILINE), f"version {version} not in the version history"


@pytest.mark.parametrize("page", _preset_pages(), ids=_page_id)
def test_preset_page_is_linked(page: Path) -> None:
    """Each preset page is in the mkdocs.yml nav and in the table of docs/presets/index.md."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"presets/{page.name}" in nav
    index = (PRESET_PAGES / "index.md").read_text(encoding="utf-8")
    assert f"[`{page.stem}`]({page.name})" in index


def _library_presets() -> list[str]:
    """The presets a fresh ``import bezique_rules`` registers: not the variants that other tests register."""
    code = "import bezique_rules; print(*bezique_rules.available_variants())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    return done.stdout.split()


def test_every_preset_has_a_page_in_the_nav() -> None:
    """Every preset of the library has a page docs/presets/<name>.md, listed in the mkdocs.yml nav."""
    names = _library_presets()
    assert {"bezique", "pinochle", "euchre"} <= set(names)
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:", 1)[1]
    without_page = [n for n in names if not (PRESET_PAGES / f"{n}.md").is_file()]
    not_in_nav = [n for n in names if not re.search(rf"^\s+- {re.escape(n)}: presets/{re.escape(n)}\.md$", nav, re.M)]
    assert not without_page, f"presets without a page in docs/presets/: {without_page}"
    assert not not_in_nav, f"presets missing from the mkdocs.yml nav: {not_in_nav}"
    strays = sorted({p.stem for p in _preset_pages()} - set(names))
    assert not strays, f"preset pages for no registered preset: {strays}"


def test_every_preset_is_in_the_readme_table() -> None:
    """README's presets table has a row for every preset of the library (three multi-pack presets were missing)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [n for n in _library_presets() if not re.search(rf"^\| `{re.escape(n)}`", readme, re.M)]
    assert not missing, f"presets missing from README's table: {missing}"


def test_api_reference_covers_every_public_name() -> None:
    """Every name in bezique_rules.__all__ is rendered by one of the docs/reference/ pages."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in (DOCS / "reference").glob("*.md"))
    documented = set(re.findall(r"^::: bezique_rules\.(\w+)\s*$", text, re.MULTILINE))
    api = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    members = api.split("members:", 1)[1].split("show_submodules", 1)[0]
    documented |= set(re.findall(r"^\s+- (\w+)\s*$", members, re.MULTILINE))
    missing = sorted(set(bezique_rules.__all__) - documented - {"__version__"})
    assert not missing, f"public names missing from the API reference: {missing}"


def test_changelog_page_includes_the_changelog() -> None:
    """docs/changelog.md includes the repository's CHANGELOG.md (pymdownx.snippets), so it never drifts."""
    assert (DOCS / "changelog.md").read_text(encoding="utf-8").strip() == '--8<-- "CHANGELOG.md"'
    assert (ROOT / "CHANGELOG.md").is_file()


def test_errors_page_lists_every_rule_code() -> None:
    """The rule-code table of explanation/errors.md has exactly one row per RuleCode, with its value."""
    text = (DOCS / "explanation" / "errors.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([A-Z_]+)` \| `([a-z-]+)` \|", text, re.MULTILINE)
    assert sorted(rows) == sorted((code.name, code.value) for code in RuleCode)


# -- engine behaviour the how-to pages rely on ------------------------------------------


def _four_tens_table() -> MeldTable:
    base = get_rules("bezique")
    return MeldTable(base.melds.kinds + (MeldKind("four-tens", 90, Quartet(Rank.TEN), meld_class="C", level=1),))


def test_with_options_keeps_a_swapped_part() -> None:
    """Changing an option of a rule set built from parts keeps the parts that were swapped in."""
    table = _four_tens_table()
    custom = attrs.evolve(get_rules("bezique"), melds=table)
    assert custom.with_options(target=1500).melds == table


@pytest.mark.usefixtures("isolated_registry")
def test_registered_custom_rule_set_takes_options() -> None:
    """A registered rule set built from parts accepts option changes by name and keeps its parts."""
    table = _four_tens_table()
    register_variant("docs-test-four-tens", attrs.evolve(get_rules("bezique"), name="docs-test-four-tens", melds=table))
    changed = get_rules("docs-test-four-tens", target=1500)
    assert changed.options["target"] == 1500
    assert changed.melds == table


def test_api_page_names_every_reference_page() -> None:
    """The "what it covers" table of reference/api.md links every other reference page."""
    api = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    table = api.split("| page | what it covers |", 1)[1].split("\n\n", 1)[0]
    linked = set(re.findall(r"^\| \[[^\]]+\]\(([\w-]+\.md)\) \|", table, re.MULTILINE))
    pages = {p.name for p in (DOCS / "reference").glob("*.md")} - {"api.md"}
    assert linked == pages


def test_every_preset_is_in_the_home_page_table() -> None:
    """The home page's "What is available today" table has a row for every preset of the library
    (six were missing)."""
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    missing = [
        n for n in _library_presets() if not re.search(rf"^\| `{re.escape(n)}`.*\(presets/{n}\.md\) \|$", home, re.M)
    ]
    assert not missing, f"presets missing from the home page's table: {missing}"


def test_presets_index_versions_are_the_presets_behaviour_versions() -> None:
    """The presets index's version column is each preset's behaviour version (`RuleSet.version`), one row per
    built-in preset: the page a user reads to know which records replay under which rules."""
    text = (ROOT / "docs" / "presets" / "index.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| \[`([a-z0-9-]+)`\]\(.*?\| (\d+) \|\s*$", text, flags=re.M))
    assert set(rows) == set(bezique_rules.available_variants(builtin=True))
    assert {name: int(version) for name, version in rows.items()} == {name: get_rules(name).version for name in rows}
