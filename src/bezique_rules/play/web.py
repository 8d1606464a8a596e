"""``bezique-rules serve``: the match against the computer as a local web page.

Standard library only (`http.server`, `json`). The server serves one self-contained
page (inline CSS, script and SVG: nothing is fetched from the network) and a small
JSON API; the match and the ladder are the terminal game's (`bezique_rules.play.match`,
one ladder file).

The API (every answer is JSON; errors are ``{"error": message, "rule": code}`` with a
4xx status and leave the game unchanged):

- ``GET /api/state``: the browser's game (404 when it has none).
- ``POST /api/new`` ``{}``: deal a new match (an unfinished one is abandoned, not counted).
- ``POST /api/act`` ``{"action": "play QS"}``: the person's move, in the notation
  (``play QS*`` plays the copy lying on the table); refused with the rule's message
  (422) when the rules forbid it, 409 when it is not the person's turn.
- ``POST /api/step`` ``{}``: the computer's next move (409 when it is not its turn),
  so the page shows the computer's moves one by one.

On the loopback address the server answers only requests whose ``Host`` is its own
address (127.0.0.1, localhost), against DNS rebinding. Each browser has its own game,
found by a random token in a cookie (``SameSite=Strict``,
``HttpOnly``); POST bodies must be ``application/json`` (a page on another site cannot
send that without the browser asking first), at most `MAX_BODY` bytes. At most
`MAX_GAMES` games are kept; beyond that the least recently used one is dropped.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
import threading
from collections import OrderedDict
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, TextIO

import attrs

from ..actions import Verb
from ..errors import BeziqueRulesError, IllegalActionError, NotationError, RuleCode
from ..rules.ruleset import RuleSet
from ..svg import render
from .ladder import LadderFile
from .match import Match, Session

__all__ = ["MAX_BODY", "MAX_GAMES", "ApiError", "GameServer", "Tables", "serve"]

MAX_BODY = 2048
"""The largest request body accepted, in bytes."""
MAX_GAMES = 64
"""How many browsers' games the server keeps at once."""
MAX_LOG = 80
"""How many lines of narration a game keeps for the page."""
COOKIE = "bezique_game"
_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'"
)
"""The cookie holding a browser's token."""


class ApiError(Exception):
    """A refused request: the HTTP status, the message and the rule (or a request code)."""

    def __init__(self, status: HTTPStatus, message: str, rule: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule


@attrs.define
class WebGame:
    """One browser's game: its session (the matches and the ladder) and the current match."""

    session: Session
    match: Match
    log: list[str]
    finished: list[str] | None = None
    """The end of the match (result, ladder) once it is over and counted."""
    lock: threading.Lock = attrs.field(factory=threading.Lock)

    def tell(self, lines: list[str] | tuple[str, ...]) -> None:
        self.log.extend(lines)
        del self.log[:-MAX_LOG]


class Tables:
    """The games of every browser, by token; thread-safe."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        ladder_file: LadderFile | None,
        level: int | None = None,
        seed: int | None = None,
        max_games: int = MAX_GAMES,
    ) -> None:
        self.rules = rules
        self.ladder_file = ladder_file
        self.level = level
        self.seed = seed
        self.max_games = max_games
        self._games: OrderedDict[str, WebGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, token: str | None) -> WebGame | None:
        """The game of ``token`` (None when unknown)."""
        if token is None:
            return None
        with self._lock:
            game = self._games.get(token)
            if game is not None:
                self._games.move_to_end(token)
            return game

    def create(self) -> tuple[str, WebGame]:
        """A new browser's game (its first match dealt) and its token."""
        session = Session(self.rules, level=self.level, ladder_file=self.ladder_file, seed=self.seed)
        lines = session.opening_lines()
        match = session.new_match()
        game = WebGame(session, match, [])
        game.tell([*lines, *_match_start(game)])
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._games[token] = game
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)
        return token, game

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)


def _match_start(game: WebGame) -> list[str]:
    match = game.match
    dealer = match.names[match.game.deal.dealer]
    return [f"--- Match {game.session.played + 1} against level {match.level}; {dealer} deals ---"]


def state_of(game: WebGame, tables: Tables) -> dict[str, Any]:
    """The browser's view of its game, as JSON data."""
    match = game.match
    session = game.session
    view = match.view()
    legal = match.legal_actions()
    to_act = None if match.is_over else ("you" if match.human_to_act else "computer")
    ladder = session.ladder
    number = session.played + (0 if game.finished else 1)
    title = f"{tables.rules.name} · match {number} · deal {match.game.deal_number}"
    return {
        "variant": tables.rules.name,
        "level": match.level,
        "deal": match.game.deal_number,
        "moves": len(match.moves),
        "phase": view.phase.value,
        "to_act": to_act,
        "legal": [str(a) for a in legal],
        "buttons": [str(a) for a in legal if not (a.verb is Verb.PLAY and len(a.cards) == 1)],
        "svg": render(view, highlight_legal=True, names=match.names, title=title),
        "scores": match.score_line(),
        "totals": match.totals_text(),
        "log": list(game.log),
        "match_over": match.is_over,
        "result": game.finished,
        "ladder": None
        if session.ladder_file is None
        else {"level": ladder.level, "score": ladder.score, "best": ladder.best, "wins": ladder.wins},
        "practice": session.level,
    }


def _finish_if_over(game: WebGame) -> None:
    if game.match.is_over and game.finished is None:
        game.finished = game.session.finish(game.match)
        game.tell(["", *game.finished])


def new_match(tables: Tables, game: WebGame) -> None:
    """Deal the browser's next match (an unfinished one is abandoned, not counted)."""
    with game.lock:
        if not game.match.is_over:
            game.tell(["Match abandoned: it is not counted."])
        game.match = game.session.new_match()
        game.finished = None
        game.tell(["", *_match_start(game)])


def act(game: WebGame, text: str) -> None:
    """The person's move; the game is unchanged when it is refused."""
    with game.lock:
        try:
            move = game.match.play_human(text)
        except IllegalActionError as exc:
            status = HTTPStatus.CONFLICT if exc.rule in (RuleCode.NOT_YOUR_TURN, RuleCode.GAME_OVER) else 422
            raise ApiError(HTTPStatus(status), str(exc), exc.rule.value) from None
        except NotationError as exc:
            raise ApiError(HTTPStatus.UNPROCESSABLE_ENTITY, str(exc), "notation") from None
        game.tell(move.lines)
        _finish_if_over(game)


def step(game: WebGame) -> None:
    """The computer's next move."""
    with game.lock:
        try:
            move = game.match.play_computer()
        except IllegalActionError as exc:
            raise ApiError(HTTPStatus.CONFLICT, str(exc), exc.rule.value) from None
        game.tell(move.lines)
        _finish_if_over(game)


def _page() -> bytes:
    return resources.files(__package__).joinpath("page.html").read_bytes()


class _Handler(BaseHTTPRequestHandler):
    """One request: the page, or the JSON API."""

    server: GameServer
    server_version = "bezique-rules"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    default_request_version = "HTTP/1.0"  # even a garbled request line gets a status line back
    timeout = 15

    # -- plumbing --------------------------------------------------------------------

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)

    def _send(self, status: HTTPStatus, body: bytes, content_type: str, cookie: str | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", _POLICY)
        if cookie is not None:
            self.send_header("Set-Cookie", f"{COOKIE}={cookie}; Path=/; HttpOnly; SameSite=Strict")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: HTTPStatus, data: dict[str, Any], cookie: str | None = None) -> None:
        self._send(status, json.dumps(data).encode(), "application/json; charset=utf-8", cookie)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Every error as JSON, and the client's fault (4xx): an unknown method is 405, not the
        base class's 501; an HTTP version other than 1.x is 400, not 505."""
        status = HTTPStatus(code)
        if status == HTTPStatus.NOT_IMPLEMENTED:
            status = HTTPStatus.METHOD_NOT_ALLOWED
        elif status >= 500:
            status = HTTPStatus.BAD_REQUEST
        self.close_connection = True
        with contextlib.suppress(OSError):
            self._json(status, {"error": message or status.phrase, "rule": "request"})

    def _token(self) -> str | None:
        raw = self.headers.get("Cookie")
        if not raw or len(raw) > 1024:
            return None
        try:
            cookie = SimpleCookie(raw)
        except CookieError:
            return None
        morsel = cookie.get(COOKIE)
        return morsel.value if morsel is not None else None

    def _body(self) -> dict[str, Any]:
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            raise ApiError(HTTPStatus.LENGTH_REQUIRED, "a POST needs a Content-Length", "request")
        try:
            length = int(length_text)
        except ValueError:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"bad Content-Length: {length_text[:40]!r}", "request") from None
        if length < 0:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"bad Content-Length: {length}", "request")
        if length > MAX_BODY:
            raise ApiError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a request body is at most {MAX_BODY} bytes",
                           "request")  # fmt: skip
        raw = self.rfile.read(length)
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type != "application/json":
            raise ApiError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON (Content-Type: application/json)", "request")
        try:
            data = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, ValueError):
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body is not JSON", "request") from None
        if not isinstance(data, dict):
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object", "request")
        return data

    # -- routes ----------------------------------------------------------------------

    def do_GET(self) -> None:
        self._route("GET")

    def do_HEAD(self) -> None:
        self._route("HEAD")

    def do_POST(self) -> None:
        self._route("POST")

    def do_PUT(self) -> None:
        self._route("PUT")

    def do_DELETE(self) -> None:
        self._route("DELETE")

    def do_PATCH(self) -> None:
        self._route("PATCH")

    def do_OPTIONS(self) -> None:
        self._route("OPTIONS")

    def _route(self, method: str) -> None:
        path = self.path.split("?", 1)[0]
        try:
            allowed = self.server.allowed_hosts
            if allowed is not None and (self.headers.get("Host") or "").lower() not in allowed:
                raise ApiError(HTTPStatus.FORBIDDEN, "this server answers only to its own address", "request")
            if path in ("/", "/index.html"):
                if method not in ("GET", "HEAD"):
                    raise ApiError(HTTPStatus.METHOD_NOT_ALLOWED, f"{method} {path}: use GET", "request")
                self._send(HTTPStatus.OK, self.server.page, "text/html; charset=utf-8")
                return
            routes = {"/api/state": "GET", "/api/new": "POST", "/api/act": "POST", "/api/step": "POST"}
            if path not in routes:
                raise ApiError(HTTPStatus.NOT_FOUND, f"no such page: {path[:80]!r}", "request")
            if method != routes[path]:
                raise ApiError(HTTPStatus.METHOD_NOT_ALLOWED, f"{method} {path}: use {routes[path]}", "request")
            self._api(path)
        except ApiError as exc:
            self.close_connection = True
            self._json(exc.status, {"error": exc.message, "rule": exc.rule})
        except BeziqueRulesError as exc:  # any other refusal by the rules: still the caller's fault
            self.close_connection = True
            self._json(HTTPStatus.UNPROCESSABLE_ENTITY, {"error": str(exc), "rule": "rules"})

    def _api(self, path: str) -> None:
        tables = self.server.tables
        token = self._token()
        game = tables.get(token)
        body = self._body() if self.command == "POST" else {}
        allowed = {"/api/act": {"action"}}.get(path, set())
        unknown = sorted(str(k)[:40] for k in body if k not in allowed)
        if unknown:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"unknown field(s) {unknown}", "request")
        cookie = None
        if path == "/api/new":
            if game is None:
                token, game = tables.create()
                cookie = token
            else:
                new_match(tables, game)
        elif game is None:
            raise ApiError(HTTPStatus.NOT_FOUND, "no game for this browser: POST /api/new to start one", "no-game")
        elif path == "/api/act":
            action = body.get("action")
            if not isinstance(action, str) or not action.strip() or len(action) > 200:
                raise ApiError(HTTPStatus.BAD_REQUEST, 'send {"action": "<a move in notation>"}', "request")
            act(game, action.strip())
        elif path == "/api/step":
            step(game)
        with game.lock:
            data = state_of(game, tables)
        self._json(HTTPStatus.OK, data, cookie)


class GameServer(ThreadingHTTPServer):
    """The web game's HTTP server: the page, and the browsers' games (`Tables`)."""

    daemon_threads = True
    request_queue_size = 32

    def __init__(self, address: tuple[str, int], tables: Tables, *, verbose: bool = False) -> None:
        self.tables = tables
        self.verbose = verbose
        self.page = _page()
        super().__init__(address, _Handler)
        host, port = self.server_address[:2]
        self.allowed_hosts: frozenset[str] | None = None
        if str(host) in ("127.0.0.1", "::1"):  # a page of another site renamed to 127.0.0.1 is refused
            self.allowed_hosts = frozenset({f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"})

    @property
    def url(self) -> str:
        """The address to open in a browser."""
        host, port = self.server_address[:2]
        shown = f"[{host!s}]" if ":" in str(host) else str(host)
        return f"http://{shown}:{port}/"


def serve(
    rules: RuleSet,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    ladder_file: LadderFile | None,
    level: int | None = None,
    seed: int | None = None,
    out: TextIO | None = None,
    ready: threading.Event | None = None,
) -> GameServer:
    """Make the server (bound, not yet serving) and print its address.

    Args:
        rules: the variant played.
        host, port: where to listen (port 0: any free port; the real one is printed).
        ladder_file: the ladder (None: practice without a ladder).
        level: a fixed level (practice: the ladder is left alone).
        seed: deal each browser's matches from this seed (tests; None: at random).
        out: where the address is printed (default stdout).
        ready: set once the address is printed.
    """
    tables = Tables(rules, ladder_file=ladder_file, level=level, seed=seed)
    server = GameServer((host, port), tables)
    out = out or sys.stdout
    out.write(f"bezique-rules serve: {rules.name} against the computer on {server.url}\n")
    out.write("Open that address in a browser; press Ctrl+C to stop.\n")
    out.flush()
    if ready is not None:
        ready.set()
    return server
