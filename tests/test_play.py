"""``bezique-rules play``: a game against the computer driven by scripted input, and its ladder file."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bezique_rules.cli import main
from bezique_rules.play.ladder import ENV_VAR, Ladder, LadderFile, default_ladder_path, format_score

MOVES = "1\n" * 400
"""Enough "first move in the list" answers for a whole match."""


def play(args: list[str], text: str, ladder: Path | None = None) -> tuple[int, str, str]:
    """Run ``bezique-rules play`` in-process with scripted input: (status, output, errors)."""
    out, err = io.StringIO(), io.StringIO()
    argv = ["play", *args]
    if ladder is not None:
        argv += ["--ladder-file", str(ladder)]
    status = main(argv, out, err, stdin=io.StringIO(text))
    return status, out.getvalue(), err.getvalue()


def outcome(text: str) -> tuple[float, int]:
    """The person's result (1, 0.5, 0) and margin, read from the match report."""
    won = re.search(r"You win by (\d+)\.", text)
    if won:
        return 1.0, int(won.group(1))
    lost = re.search(r"The computer wins by (\d+)\.", text)
    if lost:
        return 0.0, -int(lost.group(1))
    assert "A draw." in text
    return 0.5, 0


# -- a whole match ------------------------------------------------------------------------------


def test_a_whole_match_played_by_numbers(tmp_path: Path) -> None:
    """Answering "1" to every prompt plays a bezique-match match to its end; the ladder records it."""
    ladder = tmp_path / "ladder.json"
    status, out, err = play(["--seed", "5", "--matches", "1"], MOVES, ladder)
    assert status == 0, err
    assert err == ""
    assert "--- Match 1 against level 1 ---" in out
    assert "=== Deal 1: computer deals ===" in out  # the computer deals the first match: the person leads
    assert "Your hand:" in out and "Your moves:" in out and "Trumps:" in out and "stock:" in out
    assert "Match over:" in out and out.rstrip().endswith("Goodbye.")
    result, margin = outcome(out)
    saved = json.loads(ladder.read_text(encoding="utf-8"))
    entry = saved["ladders"]["bezique-match"]
    assert entry["matches"] == 1
    if result == 1:
        assert (entry["wins"], entry["margins"]) == (1, margin)
        assert f"score {format_score(1, margin)}" in out
        assert "The computer moves up to level 2." in out
    else:
        assert (entry["wins"], entry["margins"]) == (0, 0)
        assert "No streak yet (best 0.0000): the computer stays at level 1." in out  # a first match lost


def test_the_state_shown_to_the_person(tmp_path: Path) -> None:
    """The display shows the hand, trumps and turn-up, the stock, the scores, the last trick and the melds."""
    status, out, _err = play(["--seed", "5", "--level", "1", "--matches", "1"], MOVES)
    assert status == 0
    assert re.search(r"Trumps: [SHDC] ., turn-up [AKQJT987][SHDC]; stock: \d+ cards", out)
    assert "Scores this deal: you " in out and ", computer " in out
    assert "Last trick: you " in out or "Last trick: computer " in out
    assert re.search(r"(Computer's|Your) melds: [a-z-]+ .* \(\d+\)", out)
    assert "Deal 1 is over." in out
    assert re.search(r"You (play|draw) [AKQJT987][SHDC]", out)


def test_ladder_persists_between_sessions(tmp_path: Path) -> None:
    """The next session starts from the saved ladder: its level, its streak, and the other dealer."""
    ladder = tmp_path / "ladder.json"
    _s, first, _e = play(["--seed", "5", "--matches", "1"], MOVES, ladder)
    result, margin = outcome(first)
    status, second, _e = play(["--seed", "6", "--matches", "1"], MOVES, ladder)
    assert status == 0
    expected = Ladder().after(result, margin)
    assert f"the computer plays at level {expected.level}; your streak {expected.score}" in second
    assert f"--- Match 1 against level {expected.level} ---" in second
    assert "=== Deal 1: you deal ===" in second  # the first dealer alternates from match to match
    entry = json.loads(ladder.read_text(encoding="utf-8"))["ladders"]["bezique-match"]
    assert entry["matches"] == 2


def test_practice_level_leaves_the_ladder_alone(tmp_path: Path) -> None:
    """play --level N plays at that level and writes no ladder."""
    ladder = tmp_path / "ladder.json"
    status, out, _err = play(["--seed", "5", "--level", "2", "--matches", "1"], MOVES, ladder)
    assert status == 0
    assert "Practice at level 2" in out and "--- Match 1 against level 2 ---" in out
    assert not ladder.exists()


def test_two_matches_alternate_the_first_dealer() -> None:
    """With --matches 2 the computer deals the first match and the person the second."""
    status, out, _err = play(["--seed", "9", "--level", "1", "--matches", "2"], MOVES * 2)
    assert status == 0
    assert out.count("Match over:") == 2
    first, second = out.split("--- Match 2", 1)
    assert "=== Deal 1: computer deals ===" in first
    assert "=== Deal 1: you deal ===" in second


# -- commands and refusals ------------------------------------------------------------------------


def test_help_and_quit(tmp_path: Path) -> None:
    """'help' prints how to play and the ladder; 'quit' leaves (the match is not counted)."""
    ladder = tmp_path / "ladder.json"
    status, out, _err = play(["--seed", "5"], "help\nquit\n", ladder)
    assert status == 0
    assert "How to play" in out and "The ladder" in out and "3.0870" in out
    assert "Match abandoned: it is not counted. Goodbye." in out
    assert not ladder.exists()


def test_end_of_input_quits() -> None:
    """When the input ends the program stops cleanly."""
    status, out, _err = play(["--seed", "5", "--level", "1"], "1\n2\n")
    assert status == 0
    assert out.rstrip().endswith("Goodbye.")


def test_a_refused_move_is_explained_by_its_rule() -> None:
    """A move the rules forbid is refused with the rule's explanation, and the person asked again."""
    status, out, _err = play(["--seed", "5", "--level", "1"], "meld bezique QS JD\npass\n42\nplay ZZ\nquit\n")
    assert status == 0
    assert "Not allowed: only the trick winner declares, after the trick and before drawing" in out
    assert "Not allowed: nothing to pass: play a card" in out
    assert "There is no move 42" in out
    assert "Not understood: not a card" in out
    assert out.count("Your move (") == 5


def test_a_card_not_held_is_refused() -> None:
    """Playing a card one does not hold is refused with the rule that forbids it."""
    _s, out, _e = play(["--seed", "5", "--level", "1"], "quit\n")
    hand = re.search(r"Your hand: (.*)", out)
    assert hand is not None
    held = set(hand.group(1).replace("*", "").split())
    missing = next(c for c in ("AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S") if c not in held)
    _s, out, _e = play(["--seed", "5", "--level", "1"], f"{missing}\nquit\n")
    assert f"Not allowed: you hold no such card in your concealed hand: 'play {missing}'" in out


def test_notation_and_numbers_both_work() -> None:
    """A move may be typed as its notation, or as a bare card to play."""
    _s, out, _e = play(["--seed", "5", "--level", "1"], "quit\n")
    hand = re.search(r"Your hand: (\S+)", out)
    assert hand is not None
    card = hand.group(1).rstrip("*")
    _s, out, _e = play(["--seed", "5", "--level", "1"], f"{card}\nquit\n")
    assert f"You play {card}." in out


# -- the ladder file --------------------------------------------------------------------------------


def test_streak_score_format() -> None:
    """Streak score: wins plus margins as four decimals, the margin part stopping at 9999."""
    assert format_score(3, 870) == "3.0870"
    assert format_score(0, 0) == "0.0000"
    assert format_score(2, 12000) == "2.9999"


def test_ladder_climbs_and_resets() -> None:
    """Each win raises the level (at most 5); a loss or a draw ends the streak and goes back to level 1."""
    ladder = Ladder()
    for k in range(6):
        assert ladder.level == min(5, 1 + k)
        ladder = ladder.after(1, 100)
    assert (ladder.wins, ladder.margins, ladder.level, ladder.score) == (6, 600, 5, "6.0600")
    best = ladder.after(0.5, 0)
    assert (best.wins, best.level, best.best) == (0, 1, "6.0600")
    assert best.after(0, -30).score == "0.0000"
    assert [Ladder(matches=m).computer_deals for m in range(3)] == [True, False, True]


def test_corrupt_ladder_file_is_set_aside(tmp_path: Path) -> None:
    """A corrupt ladder file is reported and renamed, the game goes on, and a good file is written."""
    ladder = tmp_path / "ladder.json"
    ladder.write_text("{not json", encoding="utf-8")
    status, out, _err = play(["--seed", "5", "--matches", "1"], MOVES, ladder)
    assert status == 0
    assert f"The ladder file {ladder} is corrupt" in out and "set aside as ladder.json.corrupt-" in out
    aside = list(tmp_path.glob("ladder.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == "{not json"
    assert json.loads(ladder.read_text(encoding="utf-8"))["ladders"]["bezique-match"]["matches"] == 1


@pytest.mark.parametrize(
    "content",
    [
        '{"format": "bezique-rules-ladder", "version": 1, "ladders": {"bezique-match": {"wins": -3}}}',
        '{"format": "something-else"}',
        "[]",
        '{"format": "bezique-rules-ladder", "version": 7, "ladders": {}}',
    ],
)
def test_invalid_ladder_contents_are_set_aside(tmp_path: Path, content: str) -> None:
    """Valid JSON that is not a ladder is set aside too, never trusted."""
    path = tmp_path / "ladder.json"
    path.write_text(content, encoding="utf-8")
    found = LadderFile.load(path)
    assert found.ladders == {}
    assert len(found.notices) == 1 and "set aside" in found.notices[0]
    assert not path.exists()


def test_interrupted_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ladder is written to a temporary file then moved: a failure leaves the old file whole, no debris."""
    path = tmp_path / "ladder.json"
    good = LadderFile(path)
    assert good.put("bezique-match", Ladder(wins=2, margins=300, matches=2))
    before = path.read_text(encoding="utf-8")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    assert not good.put("bezique-match", Ladder(wins=3, margins=500, matches=3))
    assert "could not be saved" in good.notices[-1]
    assert path.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ladder.json"]
    monkeypatch.undo()
    assert LadderFile.load(path).get("bezique-match") == Ladder(wins=2, margins=300, matches=2)


def test_ladder_location(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ladder lives in $BEZIQUE_RULES_LADDER if set, else in the user's data directory."""
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "mine.json"))
    assert default_ladder_path() == tmp_path / "mine.json"
    monkeypatch.delenv(ENV_VAR)
    if sys.platform != "win32":
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        assert default_ladder_path() == tmp_path / "data" / "bezique-rules" / "ladder.json"
        monkeypatch.delenv("XDG_DATA_HOME")
        monkeypatch.setenv("HOME", str(tmp_path))
        assert default_ladder_path() == tmp_path / ".local" / "share" / "bezique-rules" / "ladder.json"


def test_environment_variable_chooses_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --ladder-file, play keeps its ladder where BEZIQUE_RULES_LADDER says."""
    path = tmp_path / "env-ladder.json"
    monkeypatch.setenv(ENV_VAR, str(path))
    status, _out, _err = play(["--seed", "5", "--matches", "1"], MOVES)
    assert status == 0
    assert json.loads(path.read_text(encoding="utf-8"))["ladders"]["bezique-match"]["matches"] == 1


# -- the command line ---------------------------------------------------------------------------------


def test_bad_level_is_a_one_line_error() -> None:
    """play --level 9: one "error:" line, exit 2."""
    status, out, err = play(["--level", "9"], "")
    assert status == 2 and out == ""
    assert err.startswith("error: --level is 1 to 5") and len(err.splitlines()) == 1


def test_play_through_a_subprocess(tmp_path: Path) -> None:
    """python -m bezique_rules play, its input piped in: a whole match, exit status 0."""
    env = dict(os.environ, **{ENV_VAR: str(tmp_path / "ladder.json")})
    done = subprocess.run(
        [sys.executable, "-m", "bezique_rules", "play", "--seed", "3", "--matches", "1"],
        input=MOVES,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Match over:" in done.stdout
    saved = json.loads((tmp_path / "ladder.json").read_text(encoding="utf-8"))
    assert saved["ladders"]["bezique-match"]["matches"] == 1


# -- narration and forced moves (issues 25 and 29) ---------------------------------------------

_CARD = re.compile(r"\b(?:[AKQJT98765432][SHDC]|JK)\b")


@pytest.mark.parametrize("variant", ["euchre", "british-euchre", "auction-pinochle", "partnership-pinochle"])
def test_the_narration_names_no_card_the_person_has_not_seen(variant: str) -> None:
    """Issue 25, cause 1: the narration of a whole match names only cards the person's view shows (his hand,
    the tricks, the won cards, the known and melded cards, the turn-up, the moves as his history shows
    them): the Euchre dealer's discard, a burial, cards passed between two other seats are told without
    their cards. Every line is told from `what_happened` between his views."""
    from bezique_rules import Moved, what_happened
    from bezique_rules.play.match import Session

    session = Session(variant, level=1, seed=0)
    match = session.new_match()
    hidden_verbs = 0
    while not match.is_over:
        before = match.view()
        move = match.play_human(match.legal_actions()[0]) if match.human_to_act else match.play_computer()
        after = move.deal_end if move.deal_end is not None else match.view()
        assert move.events == what_happened(before, after)
        told = move.lines[: len(move.lines) - (len(match.deal_over_lines(match.game)) if move.deal_end else 0)]
        assert list(told) == match.narrate(move.events, before, after)
        seen = {*after.hand, *after.trick, *after.last_trick, *(before.turn_up,), *(after.turn_up,), *after.buried}
        seen.update(c for cards in (*after.won, *after.known) for c in cards)
        seen.update(c for m in after.melds for c in m.cards)
        seen.update(c for _, a in after.history for c in a.cards)
        named = {m for line in told for m in _CARD.findall(line)}
        assert named <= {str(c) for c in seen if c is not None}, (told, named)
        first = move.events[0]
        if move.player != match.human and move.action.verb.value in ("discard", "give") and move.action.cards:
            assert isinstance(first, Moved)
            if not first.action.cards:  # a card the person does not see (one given to him, he sees)
                hidden_verbs += 1
                assert not _CARD.findall(told[0]), told
    assert hidden_verbs


def test_euchre_dealers_discard_is_told_face_down() -> None:
    """The issue's example: ``Session("euchre", level=1, seed=0)`` no longer says ``Seat 3: discard KH.``."""
    from bezique_rules.play.match import Session

    match = Session("euchre", level=1, seed=0).new_match()
    lines: list[str] = []
    while not match.is_over and len(match.game.results) == 0:
        move = match.play_human(match.legal_actions()[0]) if match.human_to_act else match.play_computer()
        lines.extend(move.lines)
    assert not any(re.search(r"discard\w* [AKQJT9][SHDC]", line) for line in lines if not line.startswith("You"))
    assert any("discards face down." in line for line in lines) or not any("discard" in line for line in lines)


def test_a_forced_move_is_played_with_a_line_saying_so() -> None:
    """Issue 29, item 9: the only legal move (the ``pass`` after a won trick with nothing to declare) is
    played for the person with one line saying so, and he is not asked; ``--ask-forced`` asks every time."""
    status, out, err = play(["--seed", "5", "--matches", "1", "--level", "1"], MOVES)
    assert status == 0, err
    forced = re.findall(r"^Your only move, (.+), is played for you\.$", out, re.MULTILINE)
    assert "pass" in forced and len(forced) >= 5
    menus = re.findall(r"Your moves:\n((?:  .*\n)+)", out)
    assert menus and all(re.search(r"\b2\. ", m) for m in menus), "every menu shown has a choice"
    status, asked, err = play(["--seed", "5", "--matches", "1", "--level", "1", "--ask-forced"], MOVES)
    assert status == 0, err
    assert "is played for you" not in asked
    assert re.search(r"Your moves:\n  1\. pass\n", asked), "the lone pass is asked for"


def test_the_euchre_table_in_the_terminal_says_kitty() -> None:
    """Issue 29, item 11: the terminal calls Euchre's pile the kitty, and once the dealer has taken up the
    turn-up it says so; the dealer's discard is told face down and trumps are named."""
    status, out, err = play(["euchre", "--level", "1", "--seed", "3"], "order-up\nquit\n")
    assert status == 0, err
    assert "kitty: 3 cards" in out and "stock:" not in out
    assert "turn-up JC (taken up by seat 3)" in out
    assert "You order up.\nTrumps: clubs.\nSeat 3 discards face down." in out
