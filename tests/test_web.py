"""``bezique-rules serve``: the page and the JSON API, over real HTTP, without a browser."""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import os
import random
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from bezique_rules import available_variants, deal_seed, new_game
from bezique_rules.cli import main
from bezique_rules.play.ladder import LadderFile
from bezique_rules.play.web import MAX_BODY, Tables
from bezique_rules.rules.registry import get_rules
from webserver import Client, running_server


def _play_to_the_end(client: Client) -> dict[str, Any]:
    """Play the first legal move (the person) and step (the computer) until the match is over."""
    state = client.state()
    while not state["match_over"]:
        if state["to_act"] == "you":
            status, state = client.request("POST", "/api/act", {"action": state["legal"][0]})
        elif state["to_act"] == "next":
            status, state = client.request("POST", "/api/next", {})
        else:
            status, state = client.request("POST", "/api/step", {})
        assert status == 200, state
    return state


def test_the_page_is_self_contained(tmp_path: Path) -> None:
    """GET / serves one HTML page with its script and style inline: no address outside the server."""
    with running_server(tmp_path / "ladder.json") as server:
        browser = Client(server)
        conn = http.client.HTTPConnection(browser.host, browser.port)
        conn.request("GET", "/")
        response = conn.getresponse()
        page = response.read().decode()
        assert response.status == 200 and response.getheader("Content-Type", "").startswith("text/html")
        assert "default-src 'none'" in (response.getheader("Content-Security-Policy") or "")
    assert "<script>" in page and "<style>" in page
    assert not re.search(r"(src|href)\s*=", page), "the page loads nothing"
    assert "http://" not in page and "https://" not in page


def test_a_whole_match_through_the_api_moves_the_ladder(tmp_path: Path) -> None:
    """A match played through the API ends with a result, and the ladder file counts it like the terminal game."""
    ladder = tmp_path / "ladder.json"
    with running_server(ladder) as server:
        client = Client(server)
        status, state = client.request("POST", "/api/new", {})
        assert status == 200 and client.cookie is not None
        assert state["to_act"] == "you" and state["legal"] and state["svg"].startswith("<svg")
        final = _play_to_the_end(client)
    assert final["result"] and final["result"][0].startswith("Match over: you ")
    entry = json.loads(ladder.read_text(encoding="utf-8"))["ladders"]["bezique-match"]
    assert entry["matches"] == 1
    won = any(line.startswith("You win by") for line in final["result"])
    assert final["ladder"]["level"] == (2 if won else 1) and entry["wins"] == (1 if won else 0)


def test_the_web_match_is_the_terminal_match(tmp_path: Path) -> None:
    """With the same seed the web game deals the same match as new_game (shared Session code)."""
    with running_server(None, seed=5, level=1) as server:
        client = Client(server)
        _s, state = client.request("POST", "/api/new", {})
    rules = get_rules("bezique-match")
    game = new_game(rules, seed=deal_seed(5, 1), dealer=1)
    assert state["legal"] == [str(a) for a in game.legal_actions()]
    assert state["practice"] == 1 and state["ladder"] is None


def test_an_illegal_move_is_refused_with_the_rule_and_changes_nothing(tmp_path: Path) -> None:
    """A move the rules forbid: 422 and the rule's message; not the person's turn: 409; the game is unchanged."""
    with running_server(tmp_path / "ladder.json") as server:
        client = Client(server)
        client.request("POST", "/api/new", {})
        before = client.state()
        status, answer = client.request("POST", "/api/act", {"action": "pass"})
        assert status == 422
        assert answer == {"error": "nothing to pass: play a card: 'pass'", "rule": "wrong-phase"}
        status, answer = client.request("POST", "/api/act", {"action": "play ZZ"})
        assert status == 422 and answer["rule"] == "notation"
        status, answer = client.request("POST", "/api/step", {})
        assert status == 409 and answer["rule"] == "not-your-turn"
        assert client.state() == before
        status, after = client.request("POST", "/api/act", {"action": before["legal"][0]})
        assert status == 200 and after["to_act"] == "computer"
        status, answer = client.request("POST", "/api/act", {"action": before["legal"][1]})
        assert status == 409 and "not your turn" in answer["error"]


def test_each_browser_has_its_own_game(tmp_path: Path) -> None:
    """Two cookies, two games: a move in one leaves the other as it was; no cookie, no game."""
    with running_server(tmp_path / "ladder.json") as server:
        a, b = Client(server), Client(server)
        a.request("POST", "/api/new", {})
        b.request("POST", "/api/new", {})
        assert a.cookie != b.cookie
        b_before = b.state()
        status, _ = a.request("POST", "/api/act", {"action": a.state()["legal"][0]})
        assert status == 200
        assert a.state()["moves"] == 1 and b.state() == b_before
        status, answer = Client(server).request("GET", "/api/state")
        assert status == 404 and answer["rule"] == "no-game"


def test_the_number_of_games_is_bounded() -> None:
    """Beyond the limit the least recently used game is dropped."""
    tables = Tables(get_rules("bezique"), ladder_file=None, level=1, seed=1, max_games=3)
    tokens = [tables.create()[0] for _ in range(3)]
    assert tables.get(tokens[0]) is not None  # used: now the most recent
    tables.create()
    assert len(tables) == 3
    assert tables.get(tokens[1]) is None and tables.get(tokens[0]) is not None


def test_a_new_match_abandons_the_unfinished_one(tmp_path: Path) -> None:
    """POST /api/new during a match deals a new one; the abandoned match is not counted in the ladder."""
    ladder = tmp_path / "ladder.json"
    with running_server(ladder) as server:
        client = Client(server)
        client.request("POST", "/api/new", {})
        client.request("POST", "/api/act", {"action": client.state()["legal"][0]})
        status, state = client.request("POST", "/api/new", {})
        assert status == 200 and state["moves"] == 0
        assert "Match abandoned: it is not counted." in state["log"]
    assert LadderFile.load(ladder).get("bezique-match").matches == 0


def _fuzz_request(rng: random.Random, legal_not: list[str]) -> tuple[str, str, bytes | None, dict[str, str]]:
    """A random request that no rule may accept: (method, path, body, headers)."""
    paths = ["/api/act", "/api/step", "/api/new", "/api/state", "/", "/api/", "/api/act/../new", "/x" * 30, "/%00"]
    methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "BREW"]
    kind = rng.randrange(9)
    json_type = {"Content-Type": "application/json"}
    if kind == 0:  # a move the rules forbid, with the game's cookie
        return "POST", "/api/act", json.dumps({"action": rng.choice(legal_not)}).encode(), json_type
    if kind == 1:  # garbage bytes as JSON
        return "POST", rng.choice(paths[:3]), bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))), json_type
    if kind == 2:  # JSON that is not an object, or the wrong fields
        long = json.dumps({"action": "play " + "Q" * 300})
        body = rng.choice(["[]", '"play QS"', "17", "null", '{"action": 5}', '{"action": ""}', '{"move": "pass"}',
                           '{"action": "pass", "x": 1}', long])  # fmt: skip
        return "POST", rng.choice(["/api/act", "/api/new", "/api/step"]), body.encode(), json_type
    if kind == 3:  # too large
        return "POST", "/api/act", b"{" + b" " * (MAX_BODY + rng.randrange(1, 5000)) + b"}", json_type
    if kind == 4:  # not JSON
        return "POST", rng.choice(["/api/act", "/api/new"]), b'{"action": "pass"}', {"Content-Type": "text/plain"}
    if kind == 5:  # a wrong method or an unknown path
        method = rng.choice(methods)
        path = rng.choice(paths)
        if (method, path) in {("GET", "/"), ("GET", "/api/state")}:
            path = "/nowhere"
        return method, path, None, {}
    if kind == 6 and rng.random() < 0.3:  # another site's name for this server (DNS rebinding)
        return "GET", "/api/state", None, {"Host": rng.choice(["evil.example:80", "", "127.0.0.1:1"])}
    if kind == 6:  # an unknown or broken cookie
        cookie = rng.choice(["bezique_game=nope", "bezique_game=" + "A" * 32, "=;;=\x7f", "bezique_game"])
        return "POST", "/api/act", b'{"action": "pass"}', {**json_type, "Cookie": cookie}
    if kind == 7:  # the computer's move when it is the person's turn
        return "POST", "/api/step", b"{}", json_type
    text = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz QSHDCKJAT9871*-") for _ in range(rng.randrange(1, 30)))
    if len(text.strip()) <= 3:  # a short text could be a card to play, maybe a legal one: make it longer
        text = "zz" + text
    move = json.dumps({"action": text}).encode()
    return "POST", "/api/act", move, json_type


def _raw(server_address: tuple[Any, ...], payload: bytes) -> int:
    """Send raw bytes as a request; the status code of the answer."""
    with socket.create_connection(server_address[:2], timeout=10) as sock:
        sock.sendall(payload)
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return int(answer.split(b" ", 2)[1])


def test_fuzz_bad_requests_get_4xx_and_change_no_game(tmp_path: Path) -> None:
    """1,000 random or malformed requests: each is answered with a 4xx, and the existing games stay unchanged."""
    rng = random.Random(17)
    with running_server(tmp_path / "ladder.json") as server:
        players = [Client(server) for _ in range(3)]
        for client in players:
            client.request("POST", "/api/new", {})
        players[1].request("POST", "/api/act", {"action": players[1].state()["legal"][0]})
        before = [client.state() for client in players]
        rules = get_rules("bezique-match")
        all_moves = [str(a) for a in new_game(rules, seed=1).all_actions()]
        legal = set(before[0]["legal"]) | set(before[2]["legal"])
        legal_not = [m for m in all_moves if m not in legal and not m.startswith("play ")] + ["play JK", "play QS QS"]
        statuses = []
        for k in range(1000):
            if k % 50 == 49:  # a malformed request line or headers, straight on the socket
                payload = rng.choice([b"\x16\x03\x01garbage\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                                      b"POST /api/act HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
                                      b"POST /api/act HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
                                      b"POST /api/act HTTP/1.1\r\n\r\n"])  # fmt: skip
                statuses.append(_raw(server.server_address, payload))
                continue
            method, path, body, headers = _fuzz_request(rng, legal_not)
            client = players[k % 2 * 2]  # the games of players 0 and 2 (the person to act)
            if "Cookie" not in headers and client.cookie:
                headers = {**headers, "Cookie": client.cookie}
            conn = http.client.HTTPConnection(client.host, client.port, timeout=10)
            conn.putrequest(method, path, skip_host="Host" in headers, skip_accept_encoding=True)
            for name, value in headers.items():
                conn.putheader(name, value)
            if body is not None:
                conn.putheader("Content-Length", str(len(body)))
            conn.endheaders()
            if body is not None:
                with contextlib.suppress(OSError):  # the server may refuse a too-large body unread
                    conn.send(body)
            response = conn.getresponse()
            data = json.loads(response.read())
            conn.close()
            assert 400 <= response.status < 500, (method, path, body, response.status, data)
            assert isinstance(data["error"], str) and data["error"]
            statuses.append(response.status)
        after = [client.state() for client in players]
    assert len(statuses) == 1000 and all(400 <= s < 500 for s in statuses)
    assert after == before
    assert {400, 403, 404, 405, 409, 413, 415, 422} <= set(statuses)


@pytest.mark.parametrize("args", [["--level", "7"], ["--port", "70000"], ["--variant", "nonesuch"]])
def test_serve_rejects_bad_options_in_one_line(args: list[str]) -> None:
    """serve with a bad option: one "error:" line, exit status 2."""
    out, err = io.StringIO(), io.StringIO()
    assert main(["serve", *args], out, err) == 2
    assert err.getvalue().startswith("error: ") and len(err.getvalue().splitlines()) == 1


def test_serve_prints_the_address_it_listens_on(tmp_path: Path) -> None:
    """bezique-rules serve --port 0 prints the real address (127.0.0.1 and the port chosen), which serves the page."""
    env = dict(os.environ, BEZIQUE_RULES_LADDER=str(tmp_path / "ladder.json"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "bezique_rules", "serve", "--port", "0", "--variant", "euchre"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"euchre against the computer on (http://127\.0\.0\.1:(\d+)/)$", line.strip())
        assert found, line
        assert int(found.group(2)) > 0
        with urllib.request.urlopen(found.group(1), timeout=30) as response:
            assert response.status == 200 and b"bezique-rules" in response.read()
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.parametrize("variant", available_variants(builtin=True))
def test_every_preset_can_be_served(variant: str) -> None:
    """serve --variant V: the first 60 moves of a game of every builtin preset go through the API."""
    with running_server(None, variant=variant, seed=3, level=1) as server:
        client = Client(server)
        status, state = client.request("POST", "/api/new", {})
        assert status == 200 and state["variant"] == variant
        for _ in range(60):
            if state["match_over"]:
                break
            if state["to_act"] == "you":
                status, state = client.request("POST", "/api/act", {"action": state["legal"][-1]})
            elif state["to_act"] == "next":
                status, state = client.request("POST", "/api/next", {})
            else:
                status, state = client.request("POST", "/api/step", {})
            assert status == 200, state
        assert state["svg"].startswith("<svg") and state["log"]
