"""``bezique-rules serve``: the match against the computer as a local web page.

Standard library only (`http.server`, `json`). The server serves one self-contained
page (inline CSS, script and SVG: nothing is fetched from the network) and a small
JSON API; the match and the ladder are the terminal game's (`bezique_rules.play.match`,
one ladder file).

The API (every answer is JSON; errors are ``{"error": message, "rule": code}`` with a
4xx status and leave the game unchanged):

- ``GET /api/state``: the browser's game (404 when it has none).
- ``POST /api/new`` ``{}``: deal a new match (an unfinished one is abandoned, not counted);
  ``{"resume": true}``: the browser's game when it has one, else a new one (what the page
  asks on loading).
- ``POST /api/act`` ``{"action": "play QS"}``: the person's move, in the notation
  (``play QS*`` plays the copy lying on the table); refused with the rule's message
  (422) when the rules forbid it, 409 when it is not the person's turn.
- ``POST /api/step`` ``{}``: the computer's next move (409 when it is not its turn),
  so the page shows the computer's moves one by one.
- ``POST /api/next`` ``{}``: leave the end of a deal (its last trick and its result stay
  on the table until then; 409 when no deal has just ended) and go on to the next deal.
- ``POST /api/settings`` ``{"play_forced": false}``: whether the person's forced moves
  (a single legal move) are played for him, with a line saying so (the default unless
  the server was started with ``--ask-forced``).

Everything a game's JSON shows the person is computed from his views (the narration from
`bezique_rules.what_happened`), never from the hidden cards.

On the loopback address the server answers only requests whose ``Host`` is its own
address (127.0.0.1, localhost), against DNS rebinding. Each browser has its own game,
found by a random token in a cookie (``SameSite=Strict``,
``HttpOnly``); POST bodies must be ``application/json`` (a page on another site cannot
send that without the browser asking first), at most `MAX_BODY` bytes, nested at most
`MAX_DEPTH` deep. At most `MAX_GAMES` games are kept, at most `MAX_GAMES_PER_CLIENT` per
client address: a client beyond its share loses its own oldest game, and when the server is
full the client holding the most games loses its least recently used one, so one client
cannot push out the games of others. At most `MAX_CONNECTIONS` connections are served at
once (more are answered 503 and closed), and each request, from its first byte to its
answer, has `REQUEST_DEADLINE` seconds: a client that sends its request slowly is cut off.
A connection carries one request (the answer says ``Connection: close``), so no idle
connection holds a slot.

``--seed`` deals every browser the same matches: it is a switch for tests (whoever knows
the seed knows the cards), and the server says so when it starts.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import sys
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, TextIO

import attrs

from ..actions import Verb
from ..errors import BeziqueRulesError, IllegalActionError, NotationError, RuleCode
from ..rules.ruleset import RuleSet
from ..state.deal import PlayerView
from ..state.svg import render
from .ladder import LadderFile, streak_text
from .match import Match, PlayedMove, Session, score_text

__all__ = [
    "MAX_BODY",
    "MAX_CONNECTIONS",
    "MAX_DEPTH",
    "MAX_GAMES",
    "MAX_GAMES_PER_CLIENT",
    "REQUEST_DEADLINE",
    "ApiError",
    "GameServer",
    "Tables",
    "serve",
    "state_of",
    "view_json",
]

MAX_BODY = 2048
"""The largest request body accepted, in bytes."""
MAX_DEPTH = 8
"""How deeply a request body's JSON may nest (arrays and objects)."""
MAX_GAMES = 64
"""How many browsers' games the server keeps at once."""
MAX_GAMES_PER_CLIENT = 8
"""How many games one client address may hold at once."""
MAX_CONNECTIONS = 32
"""How many connections are served at once."""
REQUEST_DEADLINE = 20.0
"""Seconds a request may take, from the connection's opening to its answer."""
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
    deal_end: PlayedMove | None = None
    """The move that ended a deal, while its end stays on the table (until ``/api/next``)."""
    lock: threading.Lock = attrs.field(factory=threading.Lock)

    def tell(self, lines: list[str] | tuple[str, ...]) -> None:
        self.log.extend(lines)
        del self.log[:-MAX_LOG]


@attrs.define(eq=False, repr=False)
class Tables:
    """The games of every browser, by token; thread-safe.

    Each game belongs to the client address that created it: a client holds at most
    ``per_client`` games (a new one pushes out its own oldest), and when ``max_games`` are
    held the client with the most games loses its least recently used one.
    """

    rules: RuleSet
    """The variant every game is played under."""
    ladder_file: LadderFile | None = attrs.field(kw_only=True)
    """The ladder every game counts on (None: practice without a ladder)."""
    level: int | None = attrs.field(default=None, kw_only=True)
    """A fixed level of the computer (practice: the ladder is left alone); None: the ladder's."""
    seed: int | None = attrs.field(default=None, kw_only=True)
    """Deal every game the same matches from this seed (a switch for tests); None: each at random."""
    max_games: int = attrs.field(default=MAX_GAMES, kw_only=True)
    """How many games are held at most (then a client with the most loses its least recently used)."""
    per_client: int = attrs.field(default=MAX_GAMES_PER_CLIENT, kw_only=True)
    """How many games one client address holds at most."""
    play_forced: bool = attrs.field(default=True, kw_only=True)
    """Whether the person's forced moves (a single legal move) are played for him."""
    _games: OrderedDict[str, WebGame] = attrs.field(factory=OrderedDict, init=False)
    _owner: dict[str, str] = attrs.field(factory=dict, init=False)
    _lock: threading.Lock = attrs.field(factory=threading.Lock, init=False)

    def get(self, token: str | None) -> WebGame | None:
        """The game of ``token`` (None when unknown)."""
        if token is None:
            return None
        with self._lock:
            game = self._games.get(token)
            if game is not None:
                self._games.move_to_end(token)
            return game

    def create(self, client: str = "") -> tuple[str, WebGame]:
        """A new game for ``client`` (its address; its first match dealt) and its token."""
        session = Session(
            self.rules, level=self.level, ladder_file=self.ladder_file, seed=self.seed, play_forced=self.play_forced
        )
        lines = session.opening_lines()
        match = session.new_match()
        game = WebGame(session, match, [])
        game.tell([*lines, *_match_start(game)])
        advance_forced(game)
        token = secrets.token_urlsafe(24)
        with self._lock:
            own = [t for t in self._games if self._owner[t] == client]  # least recently used first
            while own and len(own) >= self.per_client:
                self._drop(own.pop(0))
            self._games[token] = game
            self._owner[token] = client
            while len(self._games) > self.max_games:
                counts = Counter(self._owner.values())
                greedy = max(counts.values())
                victim = next(t for t in self._games if counts[self._owner[t]] == greedy)
                self._drop(victim)
        return token, game

    def _drop(self, token: str) -> None:
        del self._games[token]
        del self._owner[token]

    def games_of(self, client: str) -> int:
        """How many games ``client`` holds."""
        with self._lock:
            return sum(1 for owner in self._owner.values() if owner == client)

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)


def _match_start(game: WebGame) -> list[str]:
    match = game.match
    dealer = match.names[match.game.deal.dealer]
    return [f"--- Match {game.session.played + 1} against level {match.level}; {dealer} deals ---"]


def view_json(view: PlayerView, rules: RuleSet, names: Sequence[str], *, title: str) -> dict[str, Any]:
    """What the page shows of one view: the phase, the viewer's legal moves (as notation, and
    those shown as buttons), the picture and the scores. Computed from the view alone (and
    the public rules), so two worlds the viewer cannot tell apart give the same JSON.

    >>> from bezique_rules import get_rules, new_deal
    >>> from bezique_rules.play.match import seat_names
    >>> rules = get_rules("bezique")
    >>> data = view_json(new_deal(rules, seed=1).view(0), rules, seat_names(rules, 0), title="bezique")
    >>> data["phase"], data["legal"][:2], data["buttons"], data["scores"]
    ('play', ['play AH', 'play KH'], [], 'Scores this deal: you 0, computer 0; aces and tens won count at the end')
    """
    legal = view.legal_actions()
    return {
        "phase": view.phase.value,
        "legal": [str(a) for a in legal],
        "buttons": [str(a) for a in legal if not (a.verb is Verb.PLAY and len(a.cards) == 1)],
        "svg": render(view, highlight_legal=bool(legal), names=names, title=title),
        "scores": score_text(rules, view, names),
    }


def state_of(game: WebGame, tables: Tables) -> dict[str, Any]:
    """The browser's view of its game, as JSON data: `view_json` of the person's view (at the
    end of a deal, his last view of it), the narration (told from his views), the totals and
    results of finished deals (public), and the ladder. Never read from the hidden cards."""
    match = game.match
    session = game.session
    ended = game.deal_end
    view: PlayerView = ended.deal_end if ended is not None and ended.deal_end is not None else match.view()
    if match.is_over:
        to_act = None
    elif ended is not None:
        to_act = "next"  # the end of a deal waits for "Next deal"
    else:
        to_act = "you" if match.human_to_act else "computer"
    ladder = session.ladder
    number = session.played + (0 if game.finished else 1)
    deal = len(match.game.results) if ended is not None else match.game.deal_number
    title = f"{tables.rules.name} · match {number} · deal {deal}"
    next_level = session.level if session.level is not None else ladder.level
    return {
        "variant": tables.rules.name,
        "level": match.level,
        "next_level": next_level if game.finished else match.level,
        "deal": deal,
        "moves": len(match.moves),
        "to_act": to_act,
        **view_json(view, tables.rules, match.names, title=title),
        "totals": match.totals_text(),
        "log": list(game.log),
        "deal_result": None if ended is None else {"title": f"Deal {deal} is over", "lines": _breakdown(match)},
        "match_over": match.is_over,
        "result": game.finished,
        "ladder": None
        if session.ladder_file is None
        else {
            "level": ladder.level,
            "score": ladder.score,
            "best": ladder.best,
            "wins": ladder.wins,
            "text": streak_text(ladder),
        },
        "practice": session.level,
        "play_forced": match.play_forced,
    }


def _breakdown(match: Match) -> list[str]:
    """The last deal's result, side by side (without its title line)."""
    return [line.strip() for line in match.deal_over_lines(match.game)[2:] if line]


def _told(game: WebGame, move: PlayedMove) -> None:
    """Tell a move; a move that ended a deal leaves the deal's end on the table."""
    game.tell(move.lines)
    if move.deal_end is not None:
        game.deal_end = move
    if game.match.is_over and game.finished is None:
        game.finished = game.session.finish(game.match)
        game.tell(["", *game.finished])


def advance_forced(game: WebGame) -> None:
    """Play the person's forced moves for him (when that is on), until he has a choice,
    it is the computer's turn, or a deal ends."""
    while game.deal_end is None and not game.match.is_over:
        move = game.match.play_forced_move()
        if move is None:
            return
        _told(game, move)


def new_match(tables: Tables, game: WebGame) -> None:
    """Deal the browser's next match (an unfinished one is abandoned, not counted)."""
    with game.lock:
        if not game.match.is_over:
            game.tell(["Match abandoned: it is not counted."])
        game.match = game.session.new_match()
        game.finished = None
        game.deal_end = None
        game.tell(["", *_match_start(game)])
        advance_forced(game)


def _refuse_at_deal_end(game: WebGame) -> None:
    if game.deal_end is not None and not game.match.is_over:
        raise ApiError(HTTPStatus.CONFLICT, "the deal is over: go on with Next deal", "deal-over")


def act(game: WebGame, text: str) -> None:
    """The person's move; the game is unchanged when it is refused."""
    with game.lock:
        _refuse_at_deal_end(game)
        try:
            move = game.match.play_human(text)
        except IllegalActionError as exc:
            status = HTTPStatus.CONFLICT if exc.rule in (RuleCode.NOT_YOUR_TURN, RuleCode.GAME_OVER) else 422
            raise ApiError(HTTPStatus(status), str(exc), exc.rule.value) from None
        except NotationError as exc:
            raise ApiError(HTTPStatus.UNPROCESSABLE_ENTITY, str(exc), "notation") from None
        _told(game, move)
        advance_forced(game)


def step(game: WebGame) -> None:
    """The computer's next move."""
    with game.lock:
        _refuse_at_deal_end(game)
        try:
            move = game.match.play_computer()
        except IllegalActionError as exc:
            raise ApiError(HTTPStatus.CONFLICT, str(exc), exc.rule.value) from None
        _told(game, move)
        advance_forced(game)


def next_deal(game: WebGame) -> None:
    """Leave the end of a deal and go on to the next one."""
    with game.lock:
        if game.deal_end is None or game.match.is_over:
            raise ApiError(HTTPStatus.CONFLICT, "no deal has just ended", "no-deal-end")
        game.deal_end = None
        match = game.match
        dealer = match.names[match.game.deal.dealer]
        game.tell(["", f"--- Deal {match.game.deal_number}; {dealer} deal{'s' if dealer != 'you' else ''} ---"])
        advance_forced(game)


def settings(game: WebGame, play_forced: bool) -> None:
    """Change the game's settings: whether forced moves are played for the person."""
    with game.lock:
        game.match.play_forced = play_forced
        game.session.play_forced = play_forced
        advance_forced(game)


def _too_deep(raw: str, limit: int) -> bool:
    """Whether JSON text nests arrays and objects more than ``limit`` deep (read before
    parsing it, so a deeply nested body never reaches the parser)."""
    depth = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


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

    def handle_one_request(self) -> None:
        """One request, cut off when it takes longer than the server's deadline (from the
        wait for its first byte to the end of its answer)."""
        timer = threading.Timer(self.server.request_deadline, self._cut_off)
        timer.daemon = True
        timer.start()
        try:
            super().handle_one_request()
        except OSError:  # the connection was cut off, or the client went away
            self.close_connection = True
        finally:
            timer.cancel()

    def _cut_off(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

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
        # one request a connection: no idle keep-alive connection holds one of the server's few slots
        self.send_header("Connection", "close")
        self.close_connection = True
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
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body is not JSON (not UTF-8)", "request") from None
        if _too_deep(text, MAX_DEPTH):
            raise ApiError(HTTPStatus.BAD_REQUEST, f"the body nests more than {MAX_DEPTH} deep", "request")
        try:
            data = json.loads(text) if text else {}
        except (ValueError, RecursionError):
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body is not JSON", "request") from None
        if not isinstance(data, dict):
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object", "request")
        return data

    # -- routes ----------------------------------------------------------------------

    def _route(self) -> None:
        """Answer a request of any verb: the route says which verb each path takes (405 for the others)."""
        method = self.command
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
            if path == "/favicon.ico" and method in ("GET", "HEAD"):  # no icon (and no 404 in the console)
                self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
                return
            routes = {"/api/state": "GET", "/api/new": "POST", "/api/act": "POST", "/api/step": "POST",
                      "/api/next": "POST", "/api/settings": "POST"}  # fmt: skip
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

    # http.server calls do_<VERB>; every verb goes through the one router
    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _route

    def _api(self, path: str) -> None:
        tables = self.server.tables
        token = self._token()
        game = tables.get(token)
        body = self._body() if self.command == "POST" else {}
        allowed = {"/api/act": {"action"}, "/api/new": {"resume"}, "/api/settings": {"play_forced"}}.get(path, set())
        unknown = sorted(str(k)[:40] for k in body if k not in allowed)
        if unknown:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"unknown field(s) {unknown}", "request")
        cookie = None
        if path == "/api/new":
            resume = body.get("resume", False)
            if not isinstance(resume, bool):
                raise ApiError(HTTPStatus.BAD_REQUEST, 'send {"resume": true} or {}', "request")
            if game is None:
                token, game = tables.create(self.client_address[0])
                cookie = token
            elif not resume:
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
        elif path == "/api/next":
            next_deal(game)
        elif path == "/api/settings":
            play_forced = body.get("play_forced")
            if not isinstance(play_forced, bool):
                raise ApiError(HTTPStatus.BAD_REQUEST, 'send {"play_forced": true} or false', "request")
            settings(game, play_forced)
        with game.lock:
            data = state_of(game, tables)
        self._json(HTTPStatus.OK, data, cookie)


class GameServer(ThreadingHTTPServer):
    """The web game's HTTP server: the page, and the browsers' games (`Tables`).

    Serves at most ``max_connections`` connections at once (a connection beyond them gets
    a 503 and is closed); each request has ``request_deadline`` seconds.
    """

    daemon_threads = True
    request_queue_size = 32

    def __init__(
        self,
        address: tuple[str, int],
        tables: Tables,
        *,
        verbose: bool = False,
        max_connections: int = MAX_CONNECTIONS,
        request_deadline: float = REQUEST_DEADLINE,
    ) -> None:
        self.tables = tables
        self.verbose = verbose
        self.page = _page()
        self.max_connections = max_connections
        self.request_deadline = request_deadline
        self._slots = threading.BoundedSemaphore(max_connections)
        super().__init__(address, _Handler)
        host, port = self.server_address[:2]
        self.allowed_hosts: frozenset[str] | None = None
        if str(host) in ("127.0.0.1", "::1"):  # a page of another site renamed to 127.0.0.1 is refused
            self.allowed_hosts = frozenset({f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"})

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection in a thread of its own, unless the server is full."""
        if not self._slots.acquire(blocking=False):
            body = b'{"error": "the server is busy: try again in a moment", "rule": "busy"}'
            head = (
                b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
                b"Retry-After: 1\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
            )
            with contextlib.suppress(OSError):
                request.settimeout(1.0)
                request.sendall(head + body)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed (cut off, or the client went away): said only when verbose."""
        if self.verbose:
            super().handle_error(request, client_address)

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
    play_forced: bool = True,
) -> GameServer:
    """Make the server (bound, not yet serving) and print its address.

    Args:
        rules: the variant played.
        host, port: where to listen (port 0: any free port; the real one is printed).
        ladder_file: the ladder (None: practice without a ladder).
        level: a fixed level (practice: the ladder is left alone).
        seed: deal every browser the same matches from this seed: a switch for tests
            (whoever knows the seed knows the cards; the server says so when it starts);
            None: each game at random.
        out: where the address is printed (default stdout).
        ready: set once the address is printed.
        play_forced: play each person's forced moves for him (the page can turn it off).
    """
    tables = Tables(rules, ladder_file=ladder_file, level=level, seed=seed, play_forced=play_forced)
    server = GameServer((host, port), tables)
    out = out or sys.stdout
    out.write(f"bezique-rules serve: {rules.name} against the computer on {server.url}\n")
    if seed is not None:
        out.write(f"--seed {seed}: every browser is dealt the same matches, and whoever knows the seed knows "
                  "the cards (a switch for tests; leave it out to play).\n")  # fmt: skip
    out.write("Open that address in a browser; press Ctrl+C to stop.\n")
    out.flush()
    if ready is not None:
        ready.set()
    return server
