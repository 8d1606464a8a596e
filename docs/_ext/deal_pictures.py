"""A mkdocs hook: pictures of deals drawn at build time by `bezique_rules.state.svg.render`.

Nothing rendered is committed: the pictures follow the code.

- In any page, a line ``<!-- deal-picture variant=bezique seed=1 steps=12 -->`` becomes
  the picture of that deal (shuffled with ``seed``) after ``steps`` legal actions chosen
  by ``random.Random(seed)``, seen by the player to act with the legal cards outlined.
  Add ``face-up`` to show every hand (the `DealState` picture), ``seat=N`` to show
  player N's view instead, ``caption="..."`` for a caption.
- Every preset page (``presets/<name>.md`` of a registered preset) gets a picture of
  one of its deals at the end of its Description section, with no directive needed.
"""

from __future__ import annotations

import random
import re
import shlex
import sys
from html import escape
from pathlib import Path
from typing import Any

_SRC = Path(__file__).resolve().parents[2] / "src"
if _SRC.is_dir() and str(_SRC) not in sys.path:
    sys.path.insert(0, str(_SRC))  # the pictures of this checkout, not of an older installed copy

from bezique_rules import DealState, available_variants, new_deal  # noqa: E402
from bezique_rules.state.svg import render  # noqa: E402

_DIRECTIVE = re.compile(r"^<!--\s*deal-picture\s+(?P<args>.*?)\s*-->\s*$", re.MULTILINE)
PRESET_STEPS = 17
"""How far into a deal the automatic preset pictures are taken."""


def position(variant: str, seed: int, steps: int) -> DealState:
    """The deal ``variant``/``seed`` after ``steps`` random legal actions (stopping before it ends)."""
    deal = new_deal(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        after = deal.apply(rng.choice(deal.legal_actions()))
        if after.is_over:
            break
        deal = after
    return deal


def picture(variant: str, *, seed: int = 1, steps: int = 0, face_up: bool = False, seat: int | None = None,
            caption: str = "") -> str:  # fmt: skip
    """The HTML of one picture (on one line, so that Markdown leaves it alone)."""
    deal = position(variant, seed, steps)
    if face_up:
        svg = render(deal, highlight_legal=True)
    else:
        who = seat if seat is not None else (deal.current_player or 0)
        svg = render(deal.view(who), highlight_legal=True, title=variant)
    text = caption or (
        f"A {variant} deal (seed {seed}) after {len(deal.history)} actions"
        + (", every hand face up" if face_up else ", as the player to act sees it; legal cards outlined")
        + ". Drawn when the documentation was built, by bezique_rules.state.svg.render."
    )
    return f'<figure class="deal-picture">{svg.strip()}<figcaption>{escape(text)}</figcaption></figure>'


def _from_directive(match: re.Match[str]) -> str:
    args: dict[str, Any] = {}
    variant = None
    for word in shlex.split(match.group("args")):
        key, _, value = word.partition("=")
        if key == "variant":
            variant = value
        elif key in ("seed", "steps", "seat"):
            args[key] = int(value)
        elif key == "face-up":
            args["face_up"] = True
        elif key == "caption":
            args["caption"] = value
        else:
            raise ValueError(f"deal-picture: unknown argument {word!r} in {match.group(0)!r}")
    if variant is None:
        raise ValueError(f"deal-picture: no variant= in {match.group(0)!r}")
    return "\n" + picture(variant, **args) + "\n"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace the directives; give each preset page its picture."""
    markdown = _DIRECTIVE.sub(_from_directive, markdown)
    src = page.file.src_uri
    if src.startswith("presets/") and src.count("/") == 1:
        name = src[len("presets/") : -len(".md")]
        if name in available_variants(builtin=True) and "\n## Rules" in markdown:
            shown = picture(name, seed=1, steps=PRESET_STEPS)
            markdown = markdown.replace("\n## Rules", f"\n{shown}\n\n## Rules", 1)
    return markdown
