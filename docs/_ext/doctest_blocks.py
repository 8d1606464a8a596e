"""A griffe extension for the docs build: show bare ``>>>`` doctest blocks as code.

Docstrings in ``src/`` carry short doctested examples as bare ``>>>`` blocks. In the
Google docstring style, mkdocstrings renders such a block as code only inside an
``Examples:`` section; elsewhere Markdown reads ``>>>`` as nested quotes. This
extension fences each bare doctest block (``>>>`` lines and their output, up to the
next blank line) as ``pycon`` code before rendering. Docstrings that already use an
``Examples:`` section are left alone, so the extension does nothing once every
docstring does.

Configured in ``mkdocs.yml`` under ``plugins: mkdocstrings: handlers: python:
options: extensions``. Not part of the library.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_EXAMPLES_SECTION = re.compile(r"^Examples?:\s*$", re.MULTILINE)
_FENCE = re.compile(r"^\s*(```|~~~)")


def fence_doctests(text: str) -> str:
    """``text`` with every bare doctest block wrapped in a ``pycon`` code fence."""
    if ">>>" not in text or _EXAMPLES_SECTION.search(text):
        return text
    out: list[str] = []
    lines = text.splitlines()
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
        if in_fence or not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        block: list[str] = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i])
            i += 1
        out.append(f"{indent}```pycon")
        out.extend(block)
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence bare doctest blocks in every docstring (see the module docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring when it holds bare doctest blocks."""
        docstring = obj.docstring
        if docstring is not None:
            docstring.value = fence_doctests(docstring.value)
