"""Regenerate the golden files: ``python tests/goldens/regen.py``.

Two kinds of golden files, for every registered preset (default options):

- ``<preset>-seed<N>.txt`` for seeds 1, 2, 3: a playthrough of the deal shuffled with
  that seed, chosen by ``random.Random(seed)`` among the legal actions. One line per
  step: the step number, the player to act, the phase, a short summary (scores, stock
  size, turn-up, trick, the hand of the player to act), the sorted legal actions and
  the action chosen; then the result.
- ``perft.txt``: perft-style counts from fixed deals (seed 1 of every preset, and a
  stacked meld-rich deal of every 64-card stock preset): for depths 1 to 4 (fewer where
  the tree passes 4000 leaves, as in bidding), how many distinct action sequences there
  are and how many distinct positions they reach (positions compared as the players'
  views with the order of the actions forgotten).

`tests/test_goldens.py` regenerates the same text in memory and compares it with the
files. When a change of behaviour is intended, run this script and review the diff.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from bezique_rules import DealState, PlayerView, available_variants, get_rules, new_deal

GOLDEN_DIR = Path(__file__).resolve().parent
SEEDS = (1, 2, 3)
PERFT_DEPTH = 4
PERFT_CAP = 4000  # the deepest depth counted is the last whose leaves number at most this
PERFT_SEEDS = (1,)
PERFT_FILE = "perft.txt"

# A stacked 64-card Bezique deal where player 0 holds a hearts sequence, a bezique and
# spade marriage, with hearts trumps: declarations appear within the first plies.
MELD_RICH_HANDS = ("AH TH KH QH JH QS JD KS", "7S 8S 9S 7C 8C 9C 7D 8D")
MELD_RICH_TURN_UP = "9H"


def playthrough_name(variant: str, seed: int) -> str:
    """The golden file of a playthrough."""
    return f"{variant}-seed{seed}.txt"


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards) or "-"


def summary(state: DealState) -> str:
    """A short, engine-independent summary of a state, from the view of the player to act."""
    p = state.current_player
    view = state.view(0 if p is None else p)
    scores = "-".join(str(s) for s in view.scores)
    turn_up = "-" if view.turn_up is None else str(view.turn_up)
    trump = "-" if view.trump is None else str(view.trump)
    return (
        f"scores {scores} stock {view.stock_size} turn-up {turn_up} trump {trump} "
        f"trick [{_cards(view.trick)}] hand [{_cards(view.hand)}]"
    )


def playthrough(variant: str, seed: int) -> str:
    """The golden text of one seeded playthrough."""
    rng = random.Random(seed)
    state = new_deal(variant, seed=seed)
    rules = state.rules
    lines = [
        f"# {variant} (rules version {rules.version}), default options, shuffle seed {seed}, "
        f"dealer {state.dealer}; actions chosen by random.Random({seed})",
        "# step player phase | summary | legal actions | chosen",
    ]
    step = 0
    while not state.is_over:
        legal = state.legal_actions()
        chosen = legal[rng.randrange(len(legal))]
        lines.append(
            f"{step:3d} p{state.current_player} {state.phase.value} | {summary(state)} | "
            f"{'; '.join(str(a) for a in legal)} | {chosen}"
        )
        state = state.apply(chosen)
        step += 1
    result = state.result
    assert result is not None
    lines.append(f"end after {step} steps | {summary(state)}")
    for q, b in enumerate(result.breakdown):
        parts = ", ".join(f"{k} {v}" for k, v in attrs.asdict(b).items() if v)
        lines.append(f"result side/player {q}: {b.total} ({parts or 'nothing'})")
    return "\n".join(lines) + "\n"


def actions_made(state: DealState) -> tuple[tuple[int, int], ...]:
    """The actions so far as a sorted list of (player, action id): the history, order forgotten."""
    return tuple(sorted(zip((p for p, _a in state.history), state.action_history)))


def views_without_history(state: DealState) -> tuple[PlayerView, ...]:
    """Every player's view, without its history."""
    return tuple(attrs.evolve(state.view(q), history=()) for q in range(state.players))


def count_positions(states: list[DealState]) -> int:
    """Distinct positions: states differ when the actions made differ (order forgotten) or,
    for the same actions in another order, when some player's view differs."""
    groups: dict[tuple[tuple[int, int], ...], list[DealState]] = {}
    for s in states:
        groups.setdefault(actions_made(s), []).append(s)
    return sum(1 if len(g) == 1 else len({views_without_history(s) for s in g}) for g in groups.values())


def perft(state: DealState, depth: int, cap: int = PERFT_CAP) -> list[tuple[int, int]]:
    """For depths 1..``depth``: (action sequences, distinct positions) reachable from ``state``,
    stopping before a depth with more than ``cap`` sequences.

    A finished deal has no legal action, so it reaches nothing deeper.
    """
    frontier: list[DealState] = [state]
    out = []
    for _ in range(depth):
        if sum(len(s.legal_action_ids()) for s in frontier) > cap:
            break
        nxt = [s.apply(a) for s in frontier for a in s.legal_actions()]
        out.append((len(nxt), count_positions(nxt)))
        frontier = nxt
    return out


def meld_rich_deck() -> list[str]:
    """The stacked meld-rich deck (top first)."""
    full = [r + s for s in "SHDC" for r in "ATKQJ987"] * 2
    hand0, hand1 = (h.split() for h in MELD_RICH_HANDS)
    for c in (*hand0, *hand1, MELD_RICH_TURN_UP):
        full.remove(c)
    deck: list[str] = [""] * 17
    for slot, card in zip((0, 1, 2, 6, 7, 10, 11, 12), hand0):
        deck[slot] = card
    for slot, card in zip((3, 4, 5, 8, 9, 13, 14, 15), hand1):
        deck[slot] = card
    deck[16] = MELD_RICH_TURN_UP
    return deck + full


def perft_deals() -> Iterator[tuple[str, str, DealState]]:
    """(variant, deal label, deal) for the perft counts."""
    for variant in available_variants(builtin=True):
        for seed in PERFT_SEEDS:
            yield variant, f"seed={seed}", new_deal(variant, seed=seed)
        rules = get_rules(variant)
        if rules.engine == "stock" and rules.players == 2 and rules.deck.size == 64:
            yield variant, "meld-rich", new_deal(variant, deck=meld_rich_deck())


def perft_text() -> str:
    """The golden text of the perft counts."""
    lines = [
        "# perft: distinct action sequences and distinct positions (views, the order of the actions forgotten) "
        f"reachable in 1..{PERFT_DEPTH} actions (depths with more than {PERFT_CAP} sequences left out)",
        f"# meld-rich: a stacked deal, player 0 holds {MELD_RICH_HANDS[0]}, player 1 "
        f"{MELD_RICH_HANDS[1]}, turn-up {MELD_RICH_TURN_UP}",
        "# variant deal depth sequences positions",
    ]
    for variant, label, deal in perft_deals():
        for depth, (sequences, positions) in enumerate(perft(deal, PERFT_DEPTH), start=1):
            lines.append(f"{variant} {label} {depth} {sequences} {positions}")
    return "\n".join(lines) + "\n"


def render_all() -> dict[str, str]:
    """Every golden file's name and content."""
    files = {playthrough_name(v, s): playthrough(v, s) for v in available_variants(builtin=True) for s in SEEDS}
    files[PERFT_FILE] = perft_text()
    return files


def main() -> int:
    """Write every golden file and delete stale ones."""
    files = render_all()
    for stale in sorted(GOLDEN_DIR.glob("*.txt")):
        if stale.name not in files:
            stale.unlink()
            print(f"deleted {stale.name}")
    for name, text in files.items():
        path = GOLDEN_DIR / name
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"{'updated' if old is not None else 'created'} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
