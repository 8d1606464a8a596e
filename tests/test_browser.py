"""The web game in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

Needs the ``web-test`` extra (``pip install 'bezique-rules[web-test]'``) and a Chromium
at ``/usr/bin/chromium`` (or ``$BEZIQUE_RULES_CHROMIUM``); without them these tests skip.
Playwright's own browser download is never used. Screenshots go to the test's
temporary directory, and to ``$BEZIQUE_RULES_SCREENSHOTS`` when that is set.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from webserver import running_server

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser tests need: pip install 'bezique-rules[web-test]'"
)
CHROMIUM = os.environ.get("BEZIQUE_RULES_CHROMIUM", "/usr/bin/chromium")
if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def _shot(page: Any, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=False)
    keep = os.environ.get("BEZIQUE_RULES_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)
    assert path.stat().st_size > 10_000
    return path


def _wait_for_turn(page: Any) -> str:
    """Wait until the person is to act or the match is over; which one."""
    page.wait_for_function(
        "document.body.dataset.toAct === 'you' || document.body.dataset.matchOver === 'true'", timeout=60_000
    )
    return "over" if page.evaluate("document.body.dataset.matchOver") == "true" else "you"


def test_a_whole_match_in_the_browser(browser: Any, tmp_path: Path) -> None:
    """A seeded bezique-match against level 1 clicked to the end: cards clickable, an illegal click refused
    with the rule's message, the match over, the ladder one match further."""
    ladder = tmp_path / "ladder.json"
    with running_server(ladder, seed=5) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        context.add_init_script("window.BEZIQUE_DELAY = 0;")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url)
        page.wait_for_selector("#board svg .card.hand")
        assert page.locator("#board svg .card.hand").count() == 8
        assert page.locator("#board .card.hand").first.get_attribute("tabindex") == "0"
        assert "streak 0.0000" in page.inner_text("header")
        _shot(page, tmp_path, "web-game-start.png")
        refused = ""
        clicks = 0
        while _wait_for_turn(page) == "you":
            moves = int(page.evaluate("document.body.dataset.moves"))
            illegal = page.locator("#board .card.hand:not(.legal)")
            if not refused and illegal.count() and page.locator("#board .card.hand.legal").count() == 0:
                illegal.first.click()
                page.wait_for_function("document.getElementById('message').textContent.length > 0")
                refused = page.inner_text("#message")
                assert int(page.evaluate("document.body.dataset.moves")) == moves  # the game did not change
                _shot(page, tmp_path, "web-game-refused.png")
            legal = page.locator("#board .card.hand.legal")
            if legal.count():
                legal.first.click()
            else:
                page.locator("#controls button").first.click()
            clicks += 1
            page.wait_for_function(f"Number(document.body.dataset.moves) > {moves}", timeout=30_000)
        assert refused, "no illegal card was ever clicked"
        assert "declare" in refused or "pass" in refused or "follow" in refused or "trick" in refused
        page.wait_for_selector("#result:not([hidden])")
        result = page.inner_text("#result-text")
        assert result.startswith("Match over: you ")
        _shot(page, tmp_path, "web-game-over.png")
        assert errors == []
        context.close()
    entry = json.loads(ladder.read_text(encoding="utf-8"))["ladders"]["bezique-match"]
    assert entry["matches"] == 1 and clicks > 30
    if "You win by" in result:
        assert entry["wins"] == 1 and "The computer moves up to level 2." in result
    else:
        assert entry["wins"] == 0 and "the computer goes back to level 1" in result


def test_keyboard_and_a_phone_screen(browser: Any, tmp_path: Path) -> None:
    """On a 390-pixel-wide screen the page fits and the cards work from the keyboard: Tab to a card, Enter plays."""
    with running_server(tmp_path / "ladder.json", seed=7) as server:
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, bypass_csp=True)
        context.add_init_script("window.BEZIQUE_DELAY = 0;")
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector("#board svg .card.hand")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "the page itself does not scroll sideways (the table may)"
        font = page.evaluate("parseFloat(getComputedStyle(document.getElementById('status')).fontSize)")
        assert font >= 14
        _shot(page, tmp_path, "web-game-phone.png")
        assert _wait_for_turn(page) == "you"
        moves = int(page.evaluate("document.body.dataset.moves"))
        page.focus("#board .card.hand.legal")
        focused = page.evaluate("document.activeElement.getAttribute('data-card')")
        assert focused
        page.keyboard.press("Enter")
        page.wait_for_function(f"Number(document.body.dataset.moves) > {moves}")
        assert f"You play {focused}." in page.inner_text("#log")
        context.close()
