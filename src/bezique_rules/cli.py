"""The ``bezique-rules`` command: simulate (random deals, or agents against each other),
play (against the computer in the terminal), serve (the same in a web browser), replay, rules.

Errors from bad input are printed in one line (``error: …``) with exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from . import __version__
from .api import new_deal
from .errors import BeziqueRulesError, quote
from .game import GameState, deal_seed
from .records import replay
from .rules.registry import available_variants, get_rules, preset

if TYPE_CHECKING:
    from .agents.arena import Pool

__all__ = ["main"]


_MAX_DEALS = 100_000_000
"""The most deals ``simulate`` plays."""
_MAX_JOBS = 256
"""The most processes ``simulate --jobs`` starts."""


def _play_random_deals(variant: str, seed: int, first: int, count: int) -> list[tuple[tuple[int, ...], int]]:
    """Play deals ``first`` … ``first + count - 1`` with random legal actions."""
    rules = get_rules(variant)
    out = []
    for k in range(first, first + count):
        s = deal_seed(seed, k)
        rng = random.Random(s ^ 0x5EED)
        deal = new_deal(rules, seed=s, dealer=(k - 1) % rules.players)
        steps = 0
        while not deal.is_over:
            deal = deal.apply(rng.choice(deal.legal_actions()), check=False)
            steps += 1
        out.append((deal.scores, steps))
    return out


def _simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rules = get_rules(args.variant)
    n = args.deals
    if not 1 <= n <= _MAX_DEALS:
        raise SystemExit(f"error: --deals must be from 1 to {_MAX_DEALS}, not {n}")
    if not 1 <= args.jobs <= _MAX_JOBS:
        raise SystemExit(f"error: --jobs must be from 1 to {_MAX_JOBS}, not {args.jobs}")
    if args.agents is not None:
        return _arena(args, rules.name, out, err)
    jobs = max(1, args.jobs)
    chunk = max(1, min(250, math.ceil(n / (jobs * 4))))
    batches = [(k, min(chunk, n - k + 1)) for k in range(1, n + 1, chunk)]
    results: list[tuple[tuple[int, ...], int]] = []
    show = err.isatty() or n >= 2000

    def progress(done: int) -> None:
        if show:
            elapsed = time.perf_counter() - start
            err.write(f"\r{done}/{n} deals, {done / elapsed if elapsed else 0:.0f}/s")
            err.flush()

    with _pool(args) as (pool, where):
        start = time.perf_counter()  # the deals' time, without starting or reaching a cluster
        if pool is None:
            for first, count in batches:
                results.extend(_play_random_deals(rules.name, args.seed, first, count))
                progress(len(results))
        else:
            futures = [pool.submit(_play_random_deals, rules.name, args.seed, f, c) for f, c in batches]
            for fut in futures:
                results.extend(fut.result())
                progress(len(results))
        elapsed = time.perf_counter() - start
    if show:
        err.write("\n")
    # scores are per player, or per side in partnership games (as DealState.scores)
    sides = rules.sides
    who = [f"player {side[0]}" if len(side) == 1 else "side " + "+".join(map(str, side)) for side in sides]
    decisions = sum(steps for _s, steps in results)
    out.write(f"{rules.name}: {n} random deals, seed {args.seed}, {where}\n")
    for k, name in enumerate(who):
        scores = [s[k] for s, _ in results]
        mean = sum(scores) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / n)
        out.write(f"  {name}: mean {mean:.1f}  sd {sd:.1f}  min {min(scores)}  max {max(scores)}\n")
    wins = [0] * len(sides)
    draws = 0
    for s, _ in results:
        top = max(s)
        leaders = [k for k in range(len(sides)) if s[k] == top]
        if len(leaders) == 1:
            wins[leaders[0]] += 1
        else:
            draws += 1
    out.write("  deals won: " + ", ".join(f"{name} {w}" for name, w in zip(who, wins)) + f", tied {draws}\n")
    out.write(f"  decisions per deal: {decisions / n:.1f}\n")
    out.write(f"  throughput: {n / elapsed:.0f} deals/s, {decisions / elapsed:.0f} decisions/s ({elapsed:.2f} s)\n")
    return 0


@contextlib.contextmanager
def _pool(args: argparse.Namespace) -> Iterator[tuple[Pool | None, str]]:
    """Where ``simulate`` runs its chunks, and how the report names it: here (``--jobs 1``),
    local processes (``--jobs N``) or a Dask cluster (``--cluster``)."""
    if args.cluster is not None:
        from .cluster import open_cluster

        try:
            session = open_cluster(args.cluster)
        except ImportError as exc:
            raise SystemExit(f"error: --cluster: {exc}") from None
        with session as dask:
            workers = dask.workers
            yield dask, f"cluster {args.cluster} ({workers} worker{'s' if workers != 1 else ''})"
    elif args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as local:
            yield local, f"{args.jobs} jobs"
    else:
        yield None, "1 job"


def _agent_names(text: str) -> tuple[str, str]:
    from .agents import AGENT_NAMES

    names = [t.strip().lower() for t in text.split(",")]
    if len(names) != 2 or not all(names):
        raise SystemExit(
            f"error: --agents takes two agent names separated by a comma, e.g. level3,random; not {text!r}"
        )
    for name in names:
        if name not in AGENT_NAMES:
            raise SystemExit(f"error: unknown agent {name!r}; agents: {', '.join(AGENT_NAMES)}")
    return names[0], names[1]


def _arena(args: argparse.Namespace, variant: str, out: TextIO, err: TextIO) -> int:
    from .agents.arena import play_arena, plays_matches, seatings

    a, b = _agent_names(args.agents)
    rules = get_rules(variant)
    show = not args.no_progress

    def progress(done: int, total: int) -> None:
        if show:
            width = 30
            filled = width * done // total if total else width
            elapsed = time.perf_counter() - start
            err.write(f"\r[{'#' * filled}{'-' * (width - filled)}] {done}/{total} games, {elapsed:.0f} s")
            err.flush()

    with _pool(args) as (pool, where):
        start = time.perf_counter()  # the games' time, without starting or reaching a cluster
        result = play_arena(variant, a, b, deals=args.deals, seed=args.seed, pool=pool, progress=progress)
        elapsed = time.perf_counter() - start
    if show:
        err.write("\n")
    kind = "matches" if plays_matches(rules) else "deals"
    per = len(seatings(rules))
    out.write(
        f"{variant}: {a} against {b}, {args.deals} deal seed{'s' if args.deals != 1 else ''} x {per} seatings "
        f"= {result.games} {kind}, seed {args.seed}, {where}\n"
    )
    for line in result.report():
        out.write(line + "\n")
    out.write(f"  time: {elapsed:.1f} s\n")
    return 0


def _play(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    from .play.ladder import default_ladder_path
    from .play.terminal import play_session

    rules = get_rules(args.variant)
    if args.level is not None and not 1 <= args.level <= 5:
        raise SystemExit(f"error: --level is 1 to 5, not {args.level}")
    if args.matches is not None and args.matches < 1:
        raise SystemExit("error: --matches must be at least 1")
    path = Path(args.ladder_file).expanduser() if args.ladder_file else default_ladder_path()
    return play_session(
        rules.name,
        level=args.level,
        ladder_path=path,
        stdin=stdin,
        out=out,
        seed=args.seed,
        matches=args.matches,
        cut=args.cut,
        play_forced=not args.ask_forced,
    )


def _serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .play.ladder import LadderFile, default_ladder_path
    from .play.web import serve

    rules = get_rules(args.variant)
    if args.level is not None and not 1 <= args.level <= 5:
        raise SystemExit(f"error: --level is 1 to 5, not {args.level}")
    if not 0 <= args.port <= 65535:
        raise SystemExit(f"error: --port is 0 to 65535, not {args.port}")
    ladder_file = None
    if args.level is None:
        path = Path(args.ladder_file).expanduser() if args.ladder_file else default_ladder_path()
        ladder_file = LadderFile.load(path)
        for notice in ladder_file.notices:
            out.write(notice + "\n")
        ladder_file.notices.clear()
    try:
        server = serve(
            rules, host=args.host, port=args.port, ladder_file=ladder_file, level=args.level, seed=args.seed, out=out,
            play_forced=not args.ask_forced,
        )  # fmt: skip
    except OSError as exc:
        raise SystemExit(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            out.write("stopped\n")
    return 0


def _replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .records import MAX_RECORD_CHARS

    try:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read(MAX_RECORD_CHARS + 1)
    except OSError as exc:
        raise SystemExit(f"error: cannot read {args.file}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SystemExit(f"error: {args.file} is not a UTF-8 text file (a record is JSON)") from None
    if len(text) > MAX_RECORD_CHARS:
        raise SystemExit(f"error: {args.file} is larger than a record can be ({MAX_RECORD_CHARS} characters)")
    state = replay(text)
    kind = "game" if isinstance(state, GameState) else "deal"
    steps = len(json.loads(text)["actions"])
    status = "over" if state.is_over else "in progress"
    out.write(f"{state.rules.name} {kind}: {steps} actions replayed, all legal; {status}\n")
    if isinstance(state, GameState) and state.cut_for_deal is not None:
        out.write(state.cut_for_deal.describe() + "\n")
    out.write("final scores: " + ", ".join(f"player {p} {s}" for p, s in enumerate(state.scores)) + "\n")
    if isinstance(state, GameState) and state.is_over:
        out.write("winner: " + ("draw" if state.winner is None else f"player {state.winner}") + "\n")
    return 0


def _rules(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    found = preset(args.variant)
    rules = get_rules(args.variant)
    out.write(f"{found.name}" + (f" (aliases: {', '.join(found.aliases)})" if found.aliases else "") + "\n")
    out.write(f"  {found.description}\n")
    out.write(f"  players {rules.players}, {rules.deck.size} cards, behaviour version {rules.version}\n")
    out.write("options (name = default; allowed):\n")
    for spec in found.options:
        out.write(f"  {spec.name} = {spec.default!r}; {spec.allowed}\n")
        out.write(f"      {spec.doc}\n")
    return 0


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on the error stream, exit status 2."""

    err: TextIO | None = None

    def error(self, message: str) -> NoReturn:
        raise SystemExit(f"error: {message} (see 'bezique-rules --help')")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bezique-rules", description="Rules engine for the Bezique family of card games.")
    parser.add_argument("--version", action="version", version=f"bezique-rules {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sim = sub.add_parser(
        "simulate",
        help="play random legal deals and print score statistics and throughput; "
        "with --agents, play two agents against each other",
    )
    sim.add_argument("variant", help=f"a preset name ({', '.join(available_variants())})")
    sim.add_argument(
        "--deals",
        type=int,
        default=1000,
        help="how many deals (default 1000); with --agents, how many deal seeds, each played once per seating",
    )
    sim.add_argument("--seed", type=int, default=0, help="the seed (default 0); same seed, same deals")
    where = sim.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    where.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run on a Dask cluster: a scheduler address (tcp://host:8786) or local:N to start N local "
        "worker processes; needs the 'cluster' extra (pip install 'bezique-rules[cluster]')",
    )
    sim.add_argument(
        "--agents",
        metavar="A,B",
        help="play agent A against agent B with seats swapped (random, heuristic, search, level1 ... level5); "
        "reports A's win rate with a 95%% confidence interval and the points per deal",
    )
    sim.add_argument("--no-progress", action="store_true", help="with --agents: no progress bar on stderr")
    sim.set_defaults(run=_simulate)
    ply = sub.add_parser("play", help="play against the computer in the terminal (the ladder: levels 1 to 5)")
    ply.add_argument("variant", nargs="?", default="bezique-match", help="a preset name (default bezique-match)")
    ply.add_argument("--level", type=int, help="play at this level (1-5) without climbing the ladder")
    ply.add_argument(
        "--ladder-file",
        help="where the ladder is kept (default: $BEZIQUE_RULES_LADDER, else the user's data directory)",
    )
    ply.add_argument("--seed", type=int, help="shuffle from this seed (default: at random)")
    ply.add_argument("--matches", type=int, help="stop after this many matches (default: ask after each)")
    ply.add_argument(
        "--cut",
        action="store_true",
        help="cut for the first dealer of each match (shown before it starts) instead of alternating it",
    )
    ply.add_argument(
        "--ask-forced",
        action="store_true",
        help="ask for every move, even the only legal one (by default a forced move is played for you, with a line "
        "saying so)",
    )
    ply.set_defaults(run=_play)
    srv = sub.add_parser(
        "serve", help="play against the computer in a web browser (a local page; the same ladder as play)"
    )
    srv.add_argument("--variant", default="bezique-match", help="a preset name (default bezique-match)")
    srv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine)")
    srv.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    srv.add_argument("--level", type=int, help="play at this level (1-5) without climbing the ladder")
    srv.add_argument(
        "--ladder-file",
        help="where the ladder is kept (default: $BEZIQUE_RULES_LADDER, else the user's data directory)",
    )
    srv.add_argument(
        "--seed",
        type=int,
        help="for tests: deal every browser the same matches from this seed (whoever knows it knows the cards; "
        "default: each game at random)",
    )
    srv.add_argument(
        "--ask-forced",
        action="store_true",
        help="ask for every move, even the only legal one (by default a forced move is played for you, with a line "
        "saying so)",
    )
    srv.set_defaults(run=_serve)
    rep = sub.add_parser("replay", help="check a JSON record and print the final scores")
    rep.add_argument("file", help="the record (JSON)")
    rep.set_defaults(run=_replay)
    rul = sub.add_parser("rules", help="print a preset's options and defaults")
    rul.add_argument("variant", help="a preset name")
    rul.set_defaults(run=_rules)
    return parser


def main(
    argv: Sequence[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    *,
    stdin: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status.

    Args:
        argv: the arguments (default: the process's).
        out, err: where output and errors go (default: stdout, stderr).
        stdin: where ``play`` reads the person's moves (default: stdin).
    """
    out = out or sys.stdout
    err = err or sys.stderr
    if argv is not None and (not isinstance(argv, (list, tuple)) or not all(isinstance(a, str) for a in argv)):
        err.write(f"error: the arguments are a list of strings, not {quote(argv)}\n")
        return 2
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        if isinstance(exc.code, str):
            err.write(exc.code + "\n")
            return 2
        return 0 if exc.code is None else int(exc.code)
    try:
        if args.run is _play:
            status: int = _play(args, out, err, stdin or sys.stdin)
        else:
            status = args.run(args, out, err)
        return status
    except KeyboardInterrupt:
        err.write("\ninterrupted\n")
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        if out is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    except BeziqueRulesError as exc:
        err.write(f"error: {exc}\n")
        return 2
    except SystemExit as exc:
        if isinstance(exc.code, str):
            err.write(exc.code + "\n")
            return 2
        raise


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
