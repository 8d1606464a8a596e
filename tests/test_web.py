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
from bezique_rules.play.web import MAX_BODY, Tables, serve
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


# -- hardening (issue 25) -----------------------------------------------------------------------


def _address(server: Any) -> tuple[str, int]:
    host, port = server.server_address[:2]
    return str(host), int(port)


def _post_raw(server: Any, path: str, body: bytes, cookie: str | None = None) -> tuple[int, dict[str, Any]]:
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(str(host), int(port), timeout=10)
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
    conn.request("POST", path, body=body, headers=headers)
    response = conn.getresponse()
    data = json.loads(response.read())
    conn.close()
    return response.status, data


def test_a_deeply_nested_body_is_a_400(tmp_path: Path) -> None:
    """A body of 1,000 nested arrays (under the size limit) gets a 400 saying so, not a dropped connection;
    the server goes on serving."""
    with running_server(None, level=1) as server:
        client = Client(server)
        client.request("POST", "/api/new", {})
        for body in ("[" * 1000 + "]" * 1000, '{"action": ' + "[" * 900 + "]" * 900 + "}", "{" * 1000):
            assert len(body) <= MAX_BODY
            status, answer = _post_raw(server, "/api/act", body.encode(), client.cookie)
            assert status == 400 and "nests more than" in answer["error"], answer
        assert client.state()["moves"] == 0
        status, answer = _post_raw(server, "/api/act", b'{"action": ["[", "{{{{"]}', client.cookie)
        assert status == 400 and answer["rule"] == "request"  # brackets inside strings do not count


def test_one_client_cannot_push_out_the_games_of_others() -> None:
    """A client holds at most ``per_client`` games (a new one pushes out its own oldest); when the server is
    full, the client with the most games loses one, never a client with fewer."""
    tables = Tables(get_rules("bezique"), ladder_file=None, level=1, seed=1, max_games=6, per_client=4)
    others = [tables.create("10.0.0.2")[0], tables.create("10.0.0.3")[0]]
    greedy = [tables.create("10.0.0.9")[0] for _ in range(10)]
    assert tables.games_of("10.0.0.9") == 4 and all(tables.get(t) is not None for t in others)
    assert [tables.get(t) is not None for t in greedy] == [False] * 6 + [True] * 4
    tables.create("10.0.0.4")  # full (7 > 6): the greedy client gives up its least recently used game
    assert len(tables) == 6 and tables.games_of("10.0.0.9") == 3
    assert all(tables.get(t) is not None for t in others)


def test_games_per_client_over_http(tmp_path: Path) -> None:
    """Over HTTP the client is its address: new games beyond its share push out its own oldest."""
    with running_server(None, level=1, per_client=2) as server:
        first, second, third = Client(server), Client(server), Client(server)
        for client in (first, second, third):
            assert client.request("POST", "/api/new", {})[0] == 200
        assert first.request("GET", "/api/state")[0] == 404
        assert second.request("GET", "/api/state")[0] == 200 and third.request("GET", "/api/state")[0] == 200


def test_a_slow_request_is_cut_off_at_its_deadline() -> None:
    """A client sending one header line every half second is cut off at the request deadline (here 1 s), and
    others are served meanwhile."""
    import time

    with running_server(None, level=1, request_deadline=1.0) as server:
        started = time.monotonic()
        with socket.create_connection(_address(server), timeout=10) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            closed = False
            for k in range(20):  # at most 10 s
                time.sleep(0.5)
                try:
                    slow.sendall(f"X-Slow-{k}: 1\r\n".encode())
                    slow.settimeout(0.01)
                    closed = slow.recv(1024) == b""
                except TimeoutError:
                    continue
                except OSError:
                    closed = True
                if closed:
                    break
            assert closed and time.monotonic() - started < 5
        assert Client(server).request("POST", "/api/new", {})[0] == 200


def _favicon(server: Any) -> bytes:
    return f"GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:{server.server_address[1]}\r\n\r\n".encode()


def test_connections_are_capped() -> None:
    """Beyond ``max_connections`` idle connections a new one gets a 503 at once; when they are cut off at the
    deadline, the server serves again."""
    import time

    with running_server(None, level=1, max_connections=2, request_deadline=1.5) as server:
        idle = [socket.create_connection(_address(server), timeout=10) for _ in range(2)]
        time.sleep(0.2)
        try:
            assert _raw(server.server_address, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") == 503
        finally:
            for sock in idle:
                sock.close()
        for _ in range(50):  # the idle connections end (closed, or at their deadline)
            time.sleep(0.1)
            if _raw(server.server_address, _favicon(server)) == 204:
                break
        else:
            raise AssertionError("the server did not serve again")


def test_seed_is_said_to_be_a_test_switch(tmp_path: Path) -> None:
    """serve --seed deals every browser the same cards: the server says so when it starts; without it, two
    browsers get different deals."""
    out = io.StringIO()
    server = serve(get_rules("bezique-match"), port=0, ladder_file=None, level=1, seed=5, out=out)
    server.server_close()
    assert "--seed 5: every browser is dealt the same matches" in out.getvalue()
    tables = Tables(get_rules("bezique-match"), ladder_file=None, level=1, seed=None)
    hands = {str(tables.create(str(k))[1].match.view().hand) for k in range(4)}
    assert len(hands) > 1


# -- the end of a deal, forced moves, small things (issue 29) ------------------------------------


def test_the_end_of_a_deal_stays_on_the_table(tmp_path: Path) -> None:
    """When a deal ends its last trick and scores stay shown with a deal-result panel (the breakdown) until
    POST /api/next; the computer cannot move meanwhile."""
    with running_server(None, level=1) as server:
        client = Client(server)
        status, state = client.request("POST", "/api/new", {})
        while state["to_act"] in ("you", "computer"):
            if state["to_act"] == "you":
                status, state = client.request("POST", "/api/act", {"action": state["legal"][0]})
            else:
                status, state = client.request("POST", "/api/step", {})
            assert status == 200, state
        panel = state["deal_result"]
        assert panel["title"] == "Deal 1 is over" and any(line.strip().startswith("you:") for line in panel["lines"])
        assert state["phase"] == "over" and 'class="card last' in state["svg"]
        if state["match_over"]:
            return  # the match ended with its first deal: the result box takes over
        assert state["to_act"] == "next" and state["legal"] == []
        assert client.request("POST", "/api/step", {})[0] == 409
        assert client.request("POST", "/api/act", {"action": "pass"})[0] == 409
        status, state = client.request("POST", "/api/next", {})
        assert status == 200 and state["deal"] == 2 and state["deal_result"] is None
        assert client.request("POST", "/api/next", {})[0] == 409


def test_forced_moves_are_played_for_the_person_unless_turned_off(tmp_path: Path) -> None:
    """With forced moves played (the default) the person is never asked for a lone move and the log says
    each one; POST /api/settings turns it off, and the lone ``pass`` is asked for."""
    with running_server(None, level=1) as server:
        client = Client(server)
        status, state = client.request("POST", "/api/new", {})
        assert state["play_forced"] is True
        for _ in range(60):
            if state["to_act"] == "you":
                assert len(state["legal"]) > 1
                status, state = client.request("POST", "/api/act", {"action": state["legal"][0]})
            elif state["to_act"] == "computer":
                status, state = client.request("POST", "/api/step", {})
            else:
                break
        assert any(line.startswith("Your only move, pass, is played for you.") for line in state["log"])
        status, state = client.request("POST", "/api/settings", {"play_forced": False})
        assert status == 200 and state["play_forced"] is False
        asked = False
        for _ in range(300):
            if state["to_act"] == "you":
                asked = asked or len(state["legal"]) == 1
                status, state = client.request("POST", "/api/act", {"action": state["legal"][0]})
            elif state["to_act"] == "computer":
                status, state = client.request("POST", "/api/step", {})
            else:
                break
            if asked:
                break
        assert asked, "a lone move is asked for"
        assert client.request("POST", "/api/settings", {"play_forced": "yes"})[0] == 400


def test_resume_favicon_and_the_streak_in_words(tmp_path: Path) -> None:
    """The page's first request (POST /api/new {"resume": true}) makes a game or returns the browser's own,
    never a 404; /favicon.ico is a 204; the streak is shown with what it means."""
    with running_server(tmp_path / "ladder.json") as server:
        client = Client(server)
        status, first = client.request("POST", "/api/new", {"resume": True})
        assert status == 200 and client.cookie
        client.request("POST", "/api/act", {"action": first["legal"][0]})
        status, again = client.request("POST", "/api/new", {"resume": True})
        assert status == 200 and again["moves"] >= 1
        assert _raw(server.server_address, _favicon(server)) == 204
        assert first["ladder"]["text"] == "streak 0.0000 (no wins yet)"
        conn = http.client.HTTPConnection(*_address(server), timeout=10)
        conn.request("GET", "/", headers={"Host": f"127.0.0.1:{_address(server)[1]}"})
        response = conn.getresponse()
        response.read()
        assert response.getheader("Connection") == "close"  # one request a connection: no idle slot held
        conn.close()


@pytest.mark.parametrize("variant", ["euchre", "auction-pinochle", "partnership-pinochle", "sixty-six", "bezique"])
def test_the_page_json_is_the_same_in_worlds_the_person_cannot_tell_apart(variant: str) -> None:
    """Issue 25: what the page shows of a view (`view_json`) and the narration's events are the same in every
    world `determinize` builds from the person's view (other hands and the stock dealt anew): nothing in
    them comes from the hidden cards."""
    from bezique_rules import determinize, new_deal, what_happened
    from bezique_rules.play.match import narrate, seat_names
    from bezique_rules.play.web import view_json

    rules = get_rules(variant)
    rng = random.Random(7)
    deal = new_deal(rules, seed=4)
    names = seat_names(rules, 0)
    checked = 0
    while not deal.is_over:
        before = deal.view(0)
        deal = deal.apply(rng.choice(deal.legal_actions()))
        view = deal.view(0)
        shown = view_json(view, rules, names, title="t")
        told = what_happened(before, view)
        for k in range(2):
            world = determinize(view, random.Random(k))
            assert view_json(world.view(0), rules, names, title="t") == shown
            assert what_happened(before, world.view(0)) == told
            assert narrate(rules, names, before, world.view(0)) == narrate(rules, names, before, view)
            checked += 1
    assert checked >= 10


def test_serve_ask_forced_starts_with_the_switch_off(tmp_path: Path) -> None:
    """``serve --ask-forced`` (here `serve(play_forced=False)`): every game starts asking for forced moves."""
    with running_server(None, level=1, play_forced=False) as server:
        status, state = Client(server).request("POST", "/api/new", {})
        assert status == 200 and state["play_forced"] is False
    args = ["serve", "--ask-forced", "--level", "9"]
    out, err = io.StringIO(), io.StringIO()
    assert main(args, out, err) == 2 and "--level" in err.getvalue()  # the flag itself is accepted
