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


def _wait_for_turn(page: Any, tmp_path: Path | None = None) -> str:
    """Wait until the person is to act or the match is over; which one. The end of a deal on the way is
    left with "Next deal" (its panel photographed once when ``tmp_path`` is given)."""
    while True:
        page.wait_for_function(
            "['you', 'next'].includes(document.body.dataset.toAct) || document.body.dataset.matchOver === 'true'",
            timeout=60_000,
        )
        if page.evaluate("document.body.dataset.matchOver") == "true":
            return "over"
        if page.evaluate("document.body.dataset.toAct") == "you":
            return "you"
        assert page.is_visible("#deal-result") and page.is_visible("#next-deal")
        if tmp_path is not None and not (tmp_path / "web-game-deal-over.png").exists():
            _shot(page, tmp_path, "web-game-deal-over.png")
        page.click("#next-deal")
        page.wait_for_function("document.body.dataset.toAct !== 'next'")


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
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)  # a 404 too
        page.goto(server.url)
        page.wait_for_selector("#board svg .card.hand")
        assert page.locator("#board svg .card.hand").count() == 8
        assert page.locator("#board .card.hand").first.get_attribute("tabindex") == "0"
        assert "streak 0.0000" in page.inner_text("header")
        _shot(page, tmp_path, "web-game-start.png")
        refused = ""
        clicks = 0
        while _wait_for_turn(page, tmp_path) == "you":
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
        assert page.is_visible("#deal-result") and not page.is_visible("#next-deal")  # the last deal's breakdown
        level = page.inner_text("#level")
        assert level == ("computer level 2" if "You win by" in result else "computer level 1")
        _shot(page, tmp_path, "web-game-over.png")
        assert [e for e in errors if "status of 422" not in e] == []  # the refused click is the only failure
        context.close()
    entry = json.loads(ladder.read_text(encoding="utf-8"))["ladders"]["bezique-match"]
    assert entry["matches"] == 1 and clicks > 30
    if "You win by" in result:
        assert entry["wins"] == 1 and "The computer moves up to level 2." in result
    else:
        assert entry["wins"] == 0 and "the computer stays at level 1" in result


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


def test_forced_moves_in_the_browser(browser: Any, tmp_path: Path) -> None:
    """Issue 29, item 9: the lone ``pass`` after a won trick is played for the person with a line in the log,
    never offered as a button; unticking "Play my forced moves for me" offers it again."""
    with running_server(None, seed=5, level=1) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        context.add_init_script("window.BEZIQUE_DELAY = 0;")
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector("#board svg .card.hand")
        assert page.is_checked("#play-forced")
        for _ in range(40):
            if _wait_for_turn(page) != "you" or "is played for you." in page.inner_text("#log"):
                break
            buttons = page.locator("#controls button")
            assert buttons.count() != 1 or page.locator("#board .card.hand.legal").count() > 0, "a lone move asked"
            moves = int(page.evaluate("document.body.dataset.moves"))
            legal = page.locator("#board .card.hand.legal")
            (legal.first if legal.count() else buttons.first).click()
            page.wait_for_function(f"Number(document.body.dataset.moves) > {moves}", timeout=30_000)
        assert "Your only move, pass, is played for you." in page.inner_text("#log")
        _shot(page, tmp_path, "web-game-forced.png")
        page.uncheck("#play-forced")
        page.wait_for_function("document.body.dataset.moves !== undefined")
        asked = False
        for _ in range(80):
            if _wait_for_turn(page) != "you":
                break
            buttons = page.locator("#controls button")
            if (
                buttons.count() == 1
                and buttons.first.inner_text() == "pass"
                and not page.locator("#board .card.hand.legal").count()
            ):
                asked = True
                break
            moves = int(page.evaluate("document.body.dataset.moves"))
            legal = page.locator("#board .card.hand.legal")
            (legal.first if legal.count() else buttons.first).click()
            page.wait_for_function(f"Number(document.body.dataset.moves) > {moves}", timeout=30_000)
        assert asked, "with the switch off, the lone pass is a button"
        context.close()


def test_euchre_table_in_the_browser(browser: Any, tmp_path: Path) -> None:
    """Issue 29, item 11: the Euchre table calls its pile the kitty, and once trumps are made the turn-up is
    not drawn as the turn-up any more."""
    with running_server(None, variant="euchre", seed=3, level=1) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        context.add_init_script("window.BEZIQUE_DELAY = 0;")
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector("#board svg")
        assert "kitty" in page.inner_html("#board") and "stock:" not in page.inner_html("#board")
        for _ in range(20):
            if _wait_for_turn(page) != "you" or (
                page.evaluate("document.body.dataset.moves")
                and ("tricks" in page.inner_text("#status") or page.locator("#board .card.hand.legal").count())
            ):
                break
            moves = int(page.evaluate("document.body.dataset.moves"))
            page.locator("#controls button").first.click()
            page.wait_for_function(f"Number(document.body.dataset.moves) > {moves}", timeout=30_000)
        board = page.inner_html("#board")
        if page.locator("#board .card.hand.legal").count():  # trumps are made: the tricks are under way
            assert "card turn-up" not in board and ("taken up by" in board or "turned down" in board)
        _shot(page, tmp_path, "web-game-euchre.png")
        context.close()
