"""SVG pictures of deals (`bezique_rules.state.svg`): golden files, well-formed XML, every preset."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from bezique_rules import JOKER, DealState, available_variants, new_deal
from bezique_rules.state.svg import render
from scripts import load_script

SVG_DIR = Path(__file__).resolve().parent / "goldens" / "svg"
NS = "{http://www.w3.org/2000/svg}"
REGEN = "python tests/goldens/svg/regen_svg.py"


_regen = load_script(SVG_DIR / "regen_svg.py", "svg_regen")
render_all: Callable[[], dict[str, str]] = _regen.render_all
position: Callable[[str], DealState] = _regen.position
PRESETS = available_variants(builtin=True)


def _cards(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


@pytest.fixture(scope="module")
def pictures() -> dict[str, str]:
    return render_all()


@pytest.mark.parametrize("variant", PRESETS)
def test_pictures_match_the_golden_files(variant: str, pictures: dict[str, str]) -> None:
    """The view and face-up pictures of every builtin preset are byte-for-byte the golden files."""
    for kind in ("view", "deal"):
        name = f"{variant}-{kind}.svg"
        path = SVG_DIR / name
        assert path.exists(), f"no golden picture {name}: run {REGEN}"
        assert pictures[name] == path.read_text(encoding="utf-8"), f"{name} changed: if intended, run {REGEN}"


def test_no_stale_golden_files(pictures: dict[str, str]) -> None:
    """Every golden picture belongs to a builtin preset."""
    assert sorted(p.name for p in SVG_DIR.glob("*.svg")) == sorted(pictures)


@pytest.mark.parametrize("variant", PRESETS)
def test_every_hand_card_is_drawn_and_the_xml_is_well_formed(variant: str) -> None:
    """Each seat's view parses as SVG and shows exactly the cards of the viewer's hand, and the others' backs."""
    deal = position(variant)
    for p in range(deal.players):
        view = deal.view(p)
        svg = render(view, highlight_legal=True)
        root = ET.fromstring(svg)
        assert root.tag == f"{NS}svg"
        shown = sorted(g.get("data-card") or "" for g in _cards(svg, "hand"))
        assert shown == sorted(str(c) for c in view.hand)
        assert len(_cards(svg, "back")) >= sum(
            view.hand_sizes[q] - len(view.tabled[q]) for q in range(deal.players) if q != p
        )


@pytest.mark.parametrize("variant", PRESETS)
def test_legal_cards_are_highlighted_only_for_the_player_to_act(variant: str) -> None:
    """highlight_legal marks exactly the cards of the legal plays, and only in the view of the player to act."""
    deal = position(variant)
    actor = deal.current_player
    assert actor is not None
    plays = {
        (str(a.cards[0]), bool(a.tabled and a.tabled[0]))
        for a in deal.legal_actions()
        if a.verb.value == "play" and len(a.cards) == 1
    }
    svg = render(deal.view(actor), highlight_legal=True)
    marked = {(g.get("data-card") or "", g.get("data-tabled") == "true") for g in _cards(svg, "legal")}
    assert marked == plays
    other = (actor + 1) % deal.players
    assert _cards(render(deal.view(other), highlight_legal=True), "legal") == []
    assert _cards(render(deal.view(actor)), "legal") == []


@pytest.mark.parametrize("variant", PRESETS)
def test_a_deal_is_drawn_face_up(variant: str) -> None:
    """Rendering a DealState shows every player's cards as faces, no backs."""
    deal = new_deal(variant, seed=2)
    svg = render(deal)
    faces = [g.get("data-card") for g in _cards(svg, "card") if "trick" not in (g.get("class") or "")]
    assert len(faces) >= sum(len(deal.view(p).hand) for p in range(deal.players))
    assert _cards(svg, "back") == [] or deal.view(0).stock_size > 0


def test_rendering_is_deterministic() -> None:
    """The same position gives the same text, every time."""
    deal = position("partnership-pinochle")
    assert render(deal) == render(deal)
    assert render(deal.view(1), highlight_legal=True) == render(deal.view(1), highlight_legal=True)


def test_the_joker_has_its_own_face() -> None:
    """The joker (British Euchre's Benny) is drawn with its own face, red, labelled JOKER."""
    deal = new_deal("british-euchre", seed=1)
    holder = next(p for p in range(deal.players) if JOKER in deal.view(p).hand)
    svg = render(deal.view(holder))
    (joker,) = [g for g in _cards(svg, "hand") if g.get("data-card") == "JK"]
    texts = [t.text for t in joker.iter(f"{NS}text")]
    assert "JK" in texts and "JOKER" in texts


def test_names_and_title_are_escaped() -> None:
    """Seat names and the title are text, escaped: the picture stays well-formed XML."""
    deal = new_deal("bezique", seed=1)
    svg = render(deal.view(0), names=["<you> & me", 'the "computer"'], title="a < b")
    root = ET.fromstring(svg)
    texts = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "<you> & me" in texts and "a < b" in texts


def test_bad_arguments_are_refused() -> None:
    """render takes a view or a deal, and one name per seat."""
    deal = new_deal("bezique", seed=1)
    with pytest.raises(TypeError, match="PlayerView or a DealState"):
        render("QS")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one per seat"):
        render(deal.view(0), names=["only one"])


def test_jupyter_reprs_delegate_to_render() -> None:
    """PlayerView._repr_svg_ and DealState._repr_svg_ are the pictures render draws."""
    deal = new_deal("euchre", seed=3)
    assert deal._repr_svg_() == render(deal)
    assert deal.view(2)._repr_svg_() == render(deal.view(2))


def test_importing_the_package_loads_no_rendering_or_web_module() -> None:
    """import bezique_rules loads neither the SVG module nor the web server."""
    code = (
        "import sys, bezique_rules\n"
        "names = ('bezique_rules.state.svg', 'bezique_rules.play', 'http.server', 'xml.sax')\n"
        "loaded = [m for m in names if m in sys.modules]\n"
        "print(loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_docs_hook_draws_pictures_at_build_time() -> None:
    """The mkdocs hook turns a deal-picture directive into an SVG figure and gives a preset page its picture."""
    path = Path(__file__).resolve().parent.parent / "docs" / "_ext" / "deal_pictures.py"
    spec = importlib.util.spec_from_file_location("deal_pictures", path)
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)

    class File:
        def __init__(self, src_uri: str) -> None:
            self.src_uri = src_uri

    class Page:
        def __init__(self, src_uri: str) -> None:
            self.file = File(src_uri)

    text = "Intro\n\n<!-- deal-picture variant=euchre seed=3 steps=2 face-up -->\n\nEnd\n"
    out = hook.on_page_markdown(text, Page("how-to/x.md"), None, None)
    figure = out.split("\n")[3]
    assert figure.startswith('<figure class="deal-picture"><svg ') and "-->" not in out
    ET.fromstring(figure.replace("<figure", "<figure xmlns:svg='x'", 1))
    preset_page = "# euchre\n\n## Description\n\nText.\n\n## Rules\n\nMore.\n"
    out = hook.on_page_markdown(preset_page, Page("presets/euchre.md"), None, None)
    assert out.index('class="deal-picture"') < out.index("## Rules")
    with pytest.raises(ValueError, match="unknown argument"):
        hook.on_page_markdown("<!-- deal-picture variant=euchre colour=red -->\n", Page("x.md"), None, None)


def test_euchre_kitty_and_the_turn_up_as_they_lie() -> None:
    """Issue 29, item 11: Euchre's face-down pile is the kitty, not a stock; its turn-up is drawn face up only
    while the first round of bidding lasts, then said to be taken up by the dealer (ordered up) or turned
    down; an auction's pile is the widow; Bezique keeps its stock and turn-up."""
    from bezique_rules import new_deal

    deal = new_deal("euchre", seed=0)
    bidding = render(deal.view(0))
    assert "kitty: 3" in bidding and 'class="card turn-up"' in bidding and "stock:" not in bidding
    ordered = deal.apply("order-up")
    picture = render(ordered.view(1))
    assert "kitty: 3" in picture and 'class="card turn-up"' not in picture and "taken up by player 3" in picture
    passed = deal
    for _ in range(4):
        passed = passed.apply("pass")
    assert "turned down" in render(passed.view(0)) and 'class="card turn-up"' not in render(passed.view(0))
    assert "widow: 3" in render(new_deal("auction-pinochle", seed=0).view(0))
    stock = render(new_deal("bezique", seed=0).view(0))
    assert "stock: " in stock and 'class="card turn-up"' in stock
