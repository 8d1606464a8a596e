"""A `bezique-rules serve` server running in a thread, and a small JSON client, for the web tests."""

from __future__ import annotations

import http.client
import io
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bezique_rules import get_rules
from bezique_rules.play.ladder import LadderFile
from bezique_rules.play.web import GameServer, Tables, serve


@contextmanager
def running_server(
    ladder: Path | None,
    *,
    variant: str = "bezique-match",
    seed: int = 5,
    level: int | None = None,
    play_forced: bool = True,
    **limits: Any,
) -> Iterator[GameServer]:
    """A server on a free port of 127.0.0.1, serving in a thread until the block ends; ``limits`` are
    `GameServer` keywords (``max_connections``, ``request_deadline``) and `Tables` ones (``per_client``)."""
    ladder_file = LadderFile.load(ladder) if ladder is not None else None
    out = io.StringIO()
    if limits:
        per_client = {k: limits.pop(k) for k in ("per_client", "max_games") if k in limits}
        tables = Tables(get_rules(variant), ladder_file=ladder_file, level=level, seed=seed, play_forced=play_forced,
                        **per_client)  # fmt: skip
        server = GameServer(("127.0.0.1", 0), tables, **limits)
    else:
        server = serve(get_rules(variant), port=0, ladder_file=ladder_file, level=level, seed=seed, out=out,
                       play_forced=play_forced)  # fmt: skip
        assert server.url in out.getvalue()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


class Client:
    """One browser: keeps the game cookie between requests."""

    def __init__(self, server: GameServer) -> None:
        host, port = server.server_address[:2]
        self.host = str(host)
        self.port = int(port)
        self.cookie: str | None = None

    def request(
        self, method: str, path: str, body: Any = None, *, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Send a request; the status and the JSON answer."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        if self.cookie and "Cookie" not in sent:
            sent["Cookie"] = self.cookie
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        text = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        conn.close()
        return response.status, json.loads(text)

    def state(self) -> dict[str, Any]:
        status, data = self.request("GET", "/api/state")
        assert status == 200, data
        return data
