"""The ``bezique-rules`` command line: simulate, rules, replay, and its one-line errors."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bezique_rules import available_variants, get_rules, new_deal, new_game, record_of
from bezique_rules.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    """Run the command in-process: (exit status, stdout text, stderr text)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status: int, out: str, err: str, *fragments: str) -> None:
    """A failure: non-zero status, nothing on stdout, exactly one line on stderr starting "error:"."""
    assert status != 0
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error:")
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0]


def stats_lines(out: str) -> list[str]:
    """The statistics lines of a simulate report (the header's job count and the throughput left out)."""
    lines = out.splitlines()
    header = re.sub(r", \d+ jobs?$", "", lines[0])
    return [header] + [line for line in lines[1:] if "throughput" not in line]


STAT = re.compile(r"^  player (\d): mean (-?\d+\.\d)  sd (\d+\.\d)  min (-?\d+)  max (-?\d+)$")


# -- simulate --------------------------------------------------------------------------------


def test_simulate_prints_statistics_and_throughput() -> None:
    """simulate bezique --deals 20 --seed 3: score statistics per player, deals won, throughput; exit 0."""
    status, out, err = run("simulate", "bezique", "--deals", "20", "--seed", "3")
    assert status == 0
    assert re.fullmatch(r"20/20 deals done in \d+\.\d s\n", err)  # not a terminal: one quiet final line
    lines = out.splitlines()
    assert lines[0] == "bezique: 20 random deals, seed 3, 1 job"
    players = [STAT.match(line) for line in lines if line.startswith("  player")]
    assert [m.group(1) for m in players if m] == ["0", "1"]
    for m in players:
        assert m is not None
        mean, low, high = float(m.group(2)), int(m.group(4)), int(m.group(5))
        assert 0 <= low <= mean <= high
        assert low % 10 == 0 and high % 10 == 0  # every Bezique score is a multiple of 10
    won = next(line for line in lines if line.startswith("  deals won:"))
    counts = [int(n) for n in re.findall(r"(?:player \d|tied) (\d+)", won)]
    assert len(counts) == 3 and sum(counts) == 20
    decisions = next(line for line in lines if line.startswith("  decisions per deal:"))
    assert float(decisions.split(":")[1]) > 32  # at least one card per player per trick
    throughput = lines[-1]
    assert re.match(r"^  throughput: \d+ deals/s, \d+ decisions/s \(\d+\.\d\d s\)$", throughput)


def test_simulate_is_reproducible_and_independent_of_jobs() -> None:
    """The same seed gives the same statistics, with --jobs 1 and --jobs 2; another seed differs."""
    one = run("simulate", "bezique", "--deals", "20", "--seed", "3", "--jobs", "1")
    again = run("simulate", "bezique", "--deals", "20", "--seed", "3")
    two = run("simulate", "bezique", "--deals", "20", "--seed", "3", "--jobs", "2")
    other = run("simulate", "bezique", "--deals", "20", "--seed", "4")
    assert one[0] == two[0] == again[0] == 0
    assert "2 jobs" in two[1].splitlines()[0]
    assert stats_lines(one[1]) == stats_lines(again[1]) == stats_lines(two[1])
    assert stats_lines(one[1]) != stats_lines(other[1])


def test_simulate_the_match_preset() -> None:
    """simulate works for every registered preset name and alias."""
    for name in ("bezique-match", "two-hand-bezique"):
        status, out, _err = run("simulate", name, "--deals", "3", "--seed", "1")
        assert status == 0
        assert "3 random deals, seed 1" in out


@pytest.mark.parametrize("variant", available_variants(builtin=True))
def test_simulate_every_preset_reports_each_scoring_side(variant: str) -> None:
    """simulate reports one line per scoring side (partners together), as DealState.scores."""
    status, out, err = run("simulate", variant, "--deals", "2", "--seed", "3", "--no-progress")
    assert status == 0, err
    sides = get_rules(variant).sides
    lines = [line for line in out.splitlines() if "mean" in line]
    assert len(lines) == len(sides)
    if len(sides[0]) > 1:
        assert lines[0].lstrip().startswith("side 0+2:")


def test_simulate_zero_deals_is_a_one_line_error() -> None:
    """simulate --deals 0: one "error:" line, exit non-zero."""
    assert_one_line_error(*run("simulate", "bezique", "--deals", "0"), "--deals")


# -- rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["bezique", "bezique-match"])
def test_rules_lists_every_option_with_its_default(name: str) -> None:
    """rules NAME: every option of the preset on its own line with its default (and what is allowed)."""
    status, out, err = run("rules", name)
    assert status == 0
    assert err == ""
    assert out.splitlines()[0].startswith(name)
    options = get_rules(name).options
    listed = [line for line in out.splitlines() if re.match(r"^  [a-z_]+ = ", line)]
    assert len(listed) == len(options)
    for option, default in options.items():
        assert any(line.startswith(f"  {option} = {default!r};") for line in listed), option


def test_rules_shows_preset_differences_and_aliases() -> None:
    """rules: the match preset lists match_lead, not target; bezique shows its alias; an alias finds it."""
    _s, match, _e = run("rules", "bezique-match")
    _s, classic, _e = run("rules", "bezique")
    _s, alias, _e = run("rules", "two-hand-bezique")
    assert "  match_lead = 400;" in match
    assert "  target = " not in match
    assert "  quartet_rule = 'one_per_suit';" in match
    assert "  target = 1000;" in classic
    assert "  quartet_rule = 'any';" in classic
    assert "aliases: two-hand-bezique" in classic
    assert alias == classic


# -- replay ------------------------------------------------------------------------------------


def test_replay_a_deal_record_prints_the_final_scores(tmp_path: Path) -> None:
    """replay FILE of a finished deal: all steps legal, the final scores; exit 0."""
    deal = new_deal("bezique", seed=12)
    rng = random.Random(12)
    while not deal.is_over:
        deal = deal.apply(rng.choice(deal.legal_actions()))
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record_of(deal)), encoding="utf-8")
    status, out, err = run("replay", str(path))
    assert status == 0
    assert err == ""
    steps = len(deal.history)
    assert f"bezique deal: {steps} actions replayed, all legal; over" in out
    assert f"final scores: player 0 {deal.scores[0]}, player 1 {deal.scores[1]}" in out


def test_replay_a_game_record_prints_scores_and_winner(tmp_path: Path) -> None:
    """replay FILE of a finished game: the game totals and the winner (or draw)."""
    game = new_game("bezique-match", seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(game)), encoding="utf-8")
    status, out, _err = run("replay", str(path))
    assert status == 0
    assert "bezique-match game:" in out
    assert f"final scores: player 0 {game.scores[0]}, player 1 {game.scores[1]}" in out
    winner = "draw" if game.winner is None else f"player {game.winner}"
    assert f"winner: {winner}" in out


def test_replay_an_unfinished_deal(tmp_path: Path) -> None:
    """replay FILE of a deal in progress: says so and prints the scores so far."""
    deal = new_deal("bezique", seed=1).apply("play AH").apply("play TS")
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(record_of(deal)), encoding="utf-8")
    status, out, _err = run("replay", str(path))
    assert status == 0
    assert "2 actions replayed, all legal; in progress" in out
    assert f"scores so far: player 0 {deal.scores[0]}, player 1 {deal.scores[1]}" in out
    assert "final scores" not in out


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["simulate", "rules"])
def test_unknown_variant_is_a_one_line_error(command: str) -> None:
    """An unknown variant: one "error:" line naming it and the known variants; exit non-zero."""
    assert_one_line_error(*run(command, "no-such-game"), "'no-such-game'", *available_variants())


def test_unreadable_file_is_a_one_line_error(tmp_path: Path) -> None:
    """replay of a missing file or a directory: one "error:" line saying it cannot be read."""
    missing = tmp_path / "missing.json"
    assert_one_line_error(*run("replay", str(missing)), "cannot read", str(missing))
    assert_one_line_error(*run("replay", str(tmp_path)), "cannot read")


def test_tampered_record_is_a_one_line_error(tmp_path: Path) -> None:
    """replay of a tampered record: one "error:" line with the failing step number."""
    record = record_of(new_deal("bezique", seed=1).apply("play AH").apply("play TS"))
    record["actions"][1] = "pass"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert_one_line_error(*run("replay", str(path)), "step 2", "'pass'")


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("not json", "is JSON"),
        ("[1, 2]", "JSON object"),
        ('{"format": "bezique-rules-record", "version": 9}', "version 9"),
    ],
)
def test_corrupt_record_is_a_one_line_error(tmp_path: Path, content: str, fragment: str) -> None:
    """replay of a file that is not a valid record: one "error:" line saying what is wrong."""
    path = tmp_path / "corrupt.json"
    path.write_text(content, encoding="utf-8")
    assert_one_line_error(*run("replay", str(path)), fragment)


def test_binary_file_is_a_one_line_error(tmp_path: Path) -> None:
    """replay of a file that is not UTF-8 text: one "error:" line."""
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00\x81 not text")
    assert_one_line_error(*run("replay", str(path)))


def test_record_with_bad_decks_is_a_one_line_error(tmp_path: Path) -> None:
    """replay of a game record whose decks are not card lists: one "error:" line."""
    record = record_of(new_game("bezique", seed=1))
    record["decks"] = [5]
    path = tmp_path / "decks.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert_one_line_error(*run("replay", str(path)))


# -- the installed command ---------------------------------------------------------------------


def test_python_dash_m_runs_the_command() -> None:
    """python -m bezique_rules simulate bezique --deals 5 --seed 1 runs and exits 0."""
    done = subprocess.run(
        [sys.executable, "-m", "bezique_rules", "simulate", "bezique", "--deals", "5", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "bezique: 5 random deals, seed 1, 1 job"
    assert "throughput:" in done.stdout
    assert stats_lines(done.stdout) == stats_lines(run("simulate", "bezique", "--deals", "5", "--seed", "1")[1])


def test_python_dash_m_error_exit_status() -> None:
    """python -m bezique_rules rules of an unknown variant: exit 2 and one "error:" line on stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "bezique_rules", "rules", "no-such-game"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: unknown variant 'no-such-game'")
    assert len(done.stderr.splitlines()) == 1


# -- house rules: --option ------------------------------------------------------------------------


def test_simulate_takes_options_and_records_them(tmp_path: Path) -> None:
    """simulate --option target=1500 --option playoff_rule=...: the header names the changed options and
    every record carries them (a switch, a number and a choice are typed as the option takes them)."""
    path = tmp_path / "deals.jsonl"
    status, out, err = run(
        "simulate", "schnapsen", "--deals", "4", "--option", "target=10", "--option", "playoff_rule=follow_only",
        "--option", "exchange_needs_trick=yes", "--records", str(path), "--no-progress",
    )  # fmt: skip
    assert status == 0, err
    assert err == ""
    assert out.splitlines()[0].startswith(
        "schnapsen (target=10, playoff_rule='follow_only', exchange_needs_trick=True): 4 random deals"
    )
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    for line in lines:
        options = json.loads(line)["options"]
        assert options["target"] == 10 and options["playoff_rule"] == "follow_only"
        assert options["exchange_needs_trick"] is True


@pytest.mark.parametrize(
    ("option", "value"),
    [("target", "abc"), ("target", "0"), ("playoff_rule", "sometimes"), ("exchange_needs_trick", "maybe"),
     ("no_such_option", "1")],
)  # fmt: skip
@pytest.mark.parametrize("command", ["simulate", "play", "serve"])
def test_a_bad_option_gets_the_error_get_rules_gives(command: str, option: str, value: str) -> None:
    """A bad --option is refused by the option specs of get_rules, in the same words, before anything is
    played or served."""
    typed: object = int(value) if value.isdigit() and option != "no_such_option" else value
    with pytest.raises(Exception) as raised:
        get_rules("schnapsen", **{option: typed})
    status, out, err = run(command, "schnapsen", "--option", f"{option}={value}")
    assert_one_line_error(status, out, err)
    assert err == f"error: {raised.value}\n"


def test_an_option_without_a_value_is_a_one_line_error() -> None:
    """--option target (no '='), or the same option twice: one "error:" line naming it."""
    assert_one_line_error(*run("simulate", "bezique", "--option", "target"), "key=value", "'target'")
    assert_one_line_error(
        *run("simulate", "bezique", "--option", "target=500", "--option", "target=600"), "'target'", "twice"
    )


# -- records that replay reads -----------------------------------------------------------------------


def test_simulate_records_replay_to_the_reported_deals(tmp_path: Path) -> None:
    """simulate --records FILE: one JSON record a line, one per deal; replay FILE replays every one."""
    path = tmp_path / "deals.jsonl"
    status, out, _err = run("simulate", "auction-pinochle", "--deals", "6", "--seed", "2", "--records", str(path))
    assert status == 0
    assert f"  records: 6 deals written to {path}" in out
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    assert [json.loads(line)["kind"] for line in lines] == ["deal"] * 6
    status, replayed, err = run("replay", str(path))
    assert status == 0, err
    assert replayed.splitlines()[-1] == "6 records replayed, all legal"
    assert sum(line.startswith("line ") and "; over; final scores: " in line for line in replayed.splitlines()) == 6


def test_simulate_agents_records_one_per_game(tmp_path: Path) -> None:
    """simulate --agents A,B --records FILE: one record per game (every seating), each replayable."""
    path = tmp_path / "games.jsonl"
    status, _out, err = run(
        "simulate", "schnapsen", "--agents", "random,heuristic", "--deals", "2", "--records", str(path),
        "--option", "target=3",
    )  # fmt: skip
    assert status == 0, err
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4  # 2 deal seeds x 2 seatings
    assert all(json.loads(line)["kind"] == "deal" and json.loads(line)["options"]["target"] == 3 for line in lines)
    status, replayed, _err = run("replay", str(path))
    assert status == 0
    assert replayed.count("schnapsen deal:") == 4 and replayed.count("; over; final scores:") == 4


def test_play_record_writes_each_match_for_replay(tmp_path: Path) -> None:
    """play --record FILE: the match's record (played, then abandoned) is written; replay reads it."""
    path = tmp_path / "match.jsonl"
    moves = io.StringIO("1\n1\n1\nquit\n")
    out, err = io.StringIO(), io.StringIO()
    argv = ["play", "--variant", "schnapsen", "--level", "1", "--seed", "4", "--option", "target=3"]
    status = main([*argv, "--record", str(path)], out, err, stdin=moves)
    assert status == 0, err.getvalue()
    (line,) = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(line)
    assert record["variant"] == "schnapsen" and record["options"]["target"] == 3
    status, replayed, _err = run("replay", str(path))
    assert status == 0
    assert "schnapsen game:" in replayed and "in progress" in replayed and "scores so far:" in replayed


def test_play_and_serve_take_the_variant_both_ways() -> None:
    """play VARIANT, play --variant VARIANT, serve VARIANT and serve --variant VARIANT are the same;
    two different variants are refused."""
    for command in ("play", "serve"):
        for argv in ([command, "no-such-game"], [command, "--variant", "no-such-game"]):
            assert_one_line_error(*run(*argv), "unknown variant 'no-such-game'")
        assert_one_line_error(*run(command, "schnapsen", "--variant", "sixty-six"), "two variants")
        assert_one_line_error(*run(command, "schnapsen", "--variant", "schnapsen", "--level", "9"), "--level")


# -- progress -----------------------------------------------------------------------------------


class Terminal(io.StringIO):
    """An error stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_is_live_on_a_terminal_only() -> None:
    """A terminal gets a live line (carriage returns); a pipe one final line; --no-progress nothing."""
    out, tty = io.StringIO(), Terminal()
    assert main(["simulate", "bezique", "--deals", "6"], out, tty) == 0
    assert "\r" in tty.getvalue() and "6/6 deals" in tty.getvalue()
    status, _out, err = run("simulate", "bezique", "--deals", "6")
    assert status == 0 and "\r" not in err and len(err.splitlines()) == 1
    for argv in (["--deals", "6"], ["--deals", "1", "--agents", "random,random"]):
        tty = Terminal()
        assert main(["simulate", "bezique", *argv, "--no-progress"], io.StringIO(), tty) == 0
        assert tty.getvalue() == ""
        status, _out, err = run("simulate", "bezique", *argv, "--no-progress")
        assert status == 0 and err == ""


@pytest.mark.parametrize(("variant", "word"), [("bezique-match", "matches"), ("bezique", "deals")])
def test_progress_and_report_count_the_same_thing(variant: str, word: str) -> None:
    """The arena's progress line and its report use one word: matches for a match preset, else deals."""
    tty = Terminal()
    out = io.StringIO()
    argv = ["simulate", variant, "--agents", "random,random", "--deals", "1", "--option"]
    argv.append("match_lead=100" if variant == "bezique-match" else "target=1000")
    assert main(argv, out, tty) == 0
    assert f" 2/2 {word}," in tty.getvalue()
    assert f"= 2 {word}," in out.getvalue().splitlines()[0]
    status, _out, err = run(*argv)
    assert status == 0
    assert err == f"2/2 {word} done in {err.split(' in ')[1]}"


# -- reports -------------------------------------------------------------------------------------


def test_simulate_auction_pinochle_counts_contracts() -> None:
    """simulate auction-pinochle: the report counts contracts made, set and thrown in (not deals won,
    where the two defenders always tie)."""
    status, out, _err = run("simulate", "auction-pinochle", "--deals", "30", "--seed", "5", "--no-progress")
    assert status == 0
    assert "deals won" not in out
    (line,) = [line for line in out.splitlines() if line.startswith("  contracts:")]
    made, lost, thrown = map(int, re.findall(r"\d+", line))
    assert made + lost + thrown == 30


def test_contract_outcome_follows_the_declarer_side_score() -> None:
    """A contract is made when the declarer's side scores, set when it loses points (pagat, Auction
    Pinochle: the bidder who fails pays each opponent), thrown in when everyone passed."""
    from bezique_rules.agents import make_agent
    from bezique_rules.cli import _contract

    agent = make_agent("heuristic")
    seen = set()
    for seed in range(12):
        deal = new_deal("auction-pinochle", seed=seed)
        rng = random.Random(seed)
        while (player := deal.current_player) is not None:
            deal = deal.apply(agent.choose(deal.view(player), rng))
        outcome = _contract(deal)
        seen.add(outcome)
        if deal.thrown_in:
            assert outcome == "thrown in"
        else:
            assert deal.contract_side is not None
            assert outcome == ("set" if deal.scores[deal.contract_side] < 0 else "made")
    assert "made" in seen
    assert _contract(new_deal("bezique", seed=1)) is None


@pytest.mark.parametrize(
    "argv",
    [[], ["simulate"], ["simulate", "bezique", "--bogus"], ["replay"], ["rules"], ["serve", "a", "b"],
     ["simulate", "bezique", "--deals", "2"], ["rules", "bezique"]],
)  # fmt: skip
def test_no_command_prints_the_usage(argv: list[str]) -> None:
    """Neither a mistake nor a success prints argparse's usage block: a mistake is one line that
    points to the command's --help."""
    status, out, err = run(*argv)
    assert "usage:" not in out + err
    if status:
        assert_one_line_error(status, out, err, "--help")


def test_unwritable_records_file_is_a_one_line_error(tmp_path: Path) -> None:
    """simulate --records / play --record into a folder that does not exist: one "error:" line,
    before anything is played."""
    target = str(tmp_path / "no-such-folder" / "out.jsonl")
    assert_one_line_error(*run("simulate", "bezique", "--deals", "2", "--records", target), "cannot write", target)
    assert_one_line_error(*run("play", "bezique", "--level", "1", "--record", target), "cannot write", target)


def test_serve_plays_the_house_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """serve VARIANT --option ...: the web table is served the rule set with those options."""
    import bezique_rules.play.web as web

    served = []

    class Server:
        def __enter__(self) -> Server:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def serve_forever(self) -> None:
            raise KeyboardInterrupt

    def fake_serve(rules: object, **kwargs: object) -> Server:
        served.append(rules)
        return Server()

    monkeypatch.setattr(web, "serve", fake_serve)
    status, out, err = run("serve", "schnapsen", "--level", "1", "--option", "target=3", "--port", "0")
    assert status == 0, err
    assert served == [get_rules("schnapsen", target=3)]
    assert out == "stopped\n"
