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
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

import attrs

from . import __version__
from .api import new_deal
from .engine.auction import AuctionDeal
from .errors import BeziqueRulesError, OptionError, quote
from .rules.registry import available_variants, get_rules, preset
from .rules.ruleset import OptionSpec, OptionValue, RuleSet
from .state.deal import DealState
from .state.game import GameState, deal_seed
from .state.records import record_of, replay

if TYPE_CHECKING:
    from .agents.arena import Pool

__all__ = ["main"]


_MAX_DEALS = 100_000_000
"""The most deals ``simulate`` plays."""
_MAX_JOBS = 256
"""The most processes ``simulate --jobs`` starts."""


_DealOutcome = tuple[tuple[int, ...], int, str | None, str | None]
"""One random deal: its scores, how many actions, how its contract ended (``made``, ``set``,
``thrown in``; None without an auction) and its record as one line of JSON (when asked)."""


def _contract(deal: DealState) -> str | None:
    """How an auction deal's contract ended: ``made``, ``set`` (the declarer's side lost its
    bid, conceded or not) or ``thrown in`` (everyone passed); None in games without an auction."""
    if not isinstance(deal, AuctionDeal):
        return None
    if deal.thrown_in or deal.contract_side is None:
        return "thrown in"
    return "set" if deal.scores[deal.contract_side] < 0 else "made"


def _play_random_deals(
    variant: str, options: dict[str, OptionValue], seed: int, first: int, count: int, records: bool = False
) -> list[_DealOutcome]:
    """Play deals ``first`` … ``first + count - 1`` with random legal actions."""
    rules = get_rules(variant, **options)
    out: list[_DealOutcome] = []
    for k in range(first, first + count):
        s = deal_seed(seed, k)
        rng = random.Random(s ^ 0x5EED)
        deal = new_deal(rules, seed=s, dealer=(k - 1) % rules.players)
        steps = 0
        while not deal.is_over:
            deal = deal.apply(rng.choice(deal.legal_actions()), check=False)
            steps += 1
        record = json.dumps(record_of(deal), separators=(",", ":")) if records else None
        out.append((deal.scores, steps, _contract(deal), record))
    return out


class _Progress:
    """Progress on the error stream: a live line while a terminal shows it, else one quiet
    line at the end; nothing at all with ``--no-progress``."""

    def __init__(self, err: TextIO, total: int, word: str, *, enabled: bool, bar: bool = False) -> None:
        self.err = err
        self.total = total
        self.word = word
        self.enabled = enabled
        self.live = enabled and err.isatty()
        self.bar = bar
        self.start = time.perf_counter()

    def restart(self) -> None:
        """Count the time from now (after starting processes or reaching a cluster)."""
        self.start = time.perf_counter()

    def update(self, done: int) -> None:
        if not self.live:
            return
        elapsed = time.perf_counter() - self.start
        if self.bar:
            width = 30
            filled = width * done // self.total if self.total else width
            text = f"[{'#' * filled}{'-' * (width - filled)}] {done}/{self.total} {self.word}, {elapsed:.0f} s"
        else:
            text = f"{done}/{self.total} {self.word}, {done / elapsed if elapsed else 0:.0f}/s"
        self.err.write("\r" + text)
        self.err.flush()

    def finish(self, done: int) -> None:
        if self.live:
            self.err.write("\n")
        elif self.enabled:
            self.err.write(f"{done}/{self.total} {self.word} done in {time.perf_counter() - self.start:.1f} s\n")
        self.err.flush()


_SWITCH_WORDS = {
    "true": True,
    "yes": True,
    "on": True,
    "1": True,
    "false": False,
    "no": False,
    "off": False,
    "0": False,
}
"""How a switch (a True / False option) may be written on the command line."""


def _parse_value(spec: OptionSpec | None, text: str) -> object:
    """An option's value typed on the command line, read as the option takes it: a switch
    (true/false, yes/no, on/off, 1/0), a whole number, one of its choices, or none. A value
    that reads as none of these is passed on as written, so that the option's own check
    reports it in the same words as `get_rules`."""
    if spec is None:
        return text
    word = text.strip().lower()
    if spec.allow_none and word in ("none", "null", "off"):
        return None
    if spec.choices is not None:
        for choice in spec.choices:
            if str(choice).lower() == word:
                return choice
        return text
    if isinstance(spec.default, bool):
        return _SWITCH_WORDS.get(word, text)
    if isinstance(spec.default, int) or spec.minimum is not None:
        try:
            return int(word.replace("_", ""))
        except ValueError:
            return text
    return text


def _options(variant: str, pairs: Sequence[str] | None) -> dict[str, Any]:
    """The ``--option key=value`` pairs of a command, typed by the variant's option specs."""
    specs = {spec.name: spec for spec in preset(variant).options}
    options: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise SystemExit(f"error: --option takes key=value (e.g. --option target=1500), not {pair!r}")
        if key in options:
            raise OptionError(f"option {key!r} given twice (--option {pair})")
        options[key] = _parse_value(specs.get(key), value)
    return options


def _rules_of(args: argparse.Namespace) -> tuple[RuleSet, dict[str, Any]]:
    """The rule set a command plays (its variant and ``--option``s, checked as `get_rules`
    checks them), and the options as given."""
    options = _options(args.variant, args.option)
    return get_rules(args.variant, **options), options


def _variant(args: argparse.Namespace) -> str:
    """The variant of ``play`` and ``serve``: given as a word or with ``--variant`` (not both,
    unless they agree)."""
    given = [v for v in (args.variant_word, args.variant_flag) if v is not None]
    if len(given) == 2 and given[0] != given[1]:
        raise SystemExit(f"error: two variants given: {given[0]!r} and --variant {given[1]!r}")
    return given[0] if given else "bezique-match"


def _open_output(name: str, what: str) -> TextIO:
    try:
        return open(name, "w", encoding="utf-8")
    except OSError as exc:
        raise SystemExit(f"error: cannot write {what} to {name}: {exc.strerror}") from None


@attrs.frozen(eq=False)
class _Simulation:
    """One ``simulate`` run, as its two kinds (random deals, an arena) read it."""

    args: argparse.Namespace
    rules: RuleSet
    options: dict[str, Any]
    """The ``--option``s as given."""
    out: TextIO
    err: TextIO
    """Where the progress goes."""
    records: TextIO | None
    """The ``--records`` file, if asked."""

    @property
    def title(self) -> str:
        """The rule set's name and the options given, as the report's first line begins."""
        changed = f" ({', '.join(f'{k}={v!r}' for k, v in self.options.items())})" if self.options else ""
        return f"{self.rules.name}{changed}"


def _simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rules, options = _rules_of(args)
    n = args.deals
    if not 1 <= n <= _MAX_DEALS:
        raise SystemExit(f"error: --deals must be from 1 to {_MAX_DEALS}, not {n}")
    if not 1 <= args.jobs <= _MAX_JOBS:
        raise SystemExit(f"error: --jobs must be from 1 to {_MAX_JOBS}, not {args.jobs}")
    records = _open_output(args.records, "records") if args.records is not None else None
    with records if records is not None else contextlib.nullcontext():
        run = _Simulation(args, rules, options, out, err, records)
        return _arena(run) if args.agents is not None else _random_deals(run)


def _random_deals(run: _Simulation) -> int:
    args, rules, options, out, records = run.args, run.rules, run.options, run.out, run.records
    n = args.deals
    jobs = max(1, args.jobs)
    chunk = max(1, min(250, math.ceil(n / (jobs * 4))))
    batches = [(k, min(chunk, n - k + 1)) for k in range(1, n + 1, chunk)]
    results: list[_DealOutcome] = []
    progress = _Progress(run.err, n, "deals", enabled=not args.no_progress)
    keep = records is not None

    def collect(found: list[_DealOutcome]) -> None:
        if records is not None:  # written as they come, not kept: a long run would hold them all
            records.writelines(record + "\n" for _s, _n, _c, record in found if record is not None)
        results.extend((scores, steps, contract, None) for scores, steps, contract, _r in found)
        progress.update(len(results))

    with _pool(args) as (pool, where):
        progress.restart()  # the deals' time, without starting or reaching a cluster
        start = time.perf_counter()
        if pool is None:
            for first, count in batches:
                collect(_play_random_deals(rules.name, options, args.seed, first, count, keep))
        else:
            futures = [pool.submit(_play_random_deals, rules.name, options, args.seed, f, c, keep) for f, c in batches]
            for fut in futures:
                collect(fut.result())
        elapsed = time.perf_counter() - start
    progress.finish(len(results))
    # scores are per player, or per side in partnership games (as DealState.scores)
    sides = rules.sides
    who = [f"player {side[0]}" if len(side) == 1 else "side " + "+".join(map(str, side)) for side in sides]
    decisions = sum(r[1] for r in results)
    out.write(f"{run.title}: {n} random deals, seed {args.seed}, {where}\n")
    for k, name in enumerate(who):
        scores = [r[0][k] for r in results]
        mean = sum(scores) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / n)
        out.write(f"  {name}: mean {mean:.1f}  sd {sd:.1f}  min {min(scores)}  max {max(scores)}\n")
    contracts = [r[2] for r in results if r[2] is not None]
    if contracts:
        made, lost, thrown = (contracts.count(word) for word in ("made", "set", "thrown in"))
        out.write(f"  contracts: made {made}, set {lost}, thrown in {thrown} (everyone passed)\n")
    else:
        wins = [0] * len(sides)
        draws = 0
        for r in results:
            top = max(r[0])
            leaders = [k for k in range(len(sides)) if r[0][k] == top]
            if len(leaders) == 1:
                wins[leaders[0]] += 1
            else:
                draws += 1
        out.write("  deals won: " + ", ".join(f"{name} {w}" for name, w in zip(who, wins)) + f", tied {draws}\n")
    out.write(f"  decisions per deal: {decisions / n:.1f}\n")
    if records is not None:
        out.write(f"  records: {n} deals written to {args.records} (JSON lines; bezique-rules replay reads them)\n")
    out.write(f"  throughput: {n / elapsed:.0f} deals/s, {decisions / elapsed:.0f} decisions/s ({elapsed:.2f} s)\n")
    return 0


@contextlib.contextmanager
def _pool(args: argparse.Namespace) -> Iterator[tuple[Pool | None, str]]:
    """Where ``simulate`` runs its chunks, and how the report names it: here (``--jobs 1``),
    local processes (``--jobs N``) or a Dask cluster (``--cluster``)."""
    if args.cluster is not None:
        from .integrations.cluster import open_cluster

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


def _arena(run: _Simulation) -> int:
    from .agents.arena import play_arena, plays_matches, seatings

    args, rules, options, out, records = run.args, run.rules, run.options, run.out, run.records
    a, b = _agent_names(args.agents)
    kind = "matches" if plays_matches(rules) else "deals"
    per = len(seatings(rules))
    progress = _Progress(run.err, args.deals * per, kind, enabled=not args.no_progress, bar=True)

    def report(done: int, total: int) -> None:
        progress.update(done)

    with _pool(args) as (pool, where):
        progress.restart()  # the games' time, without starting or reaching a cluster
        start = time.perf_counter()
        result = play_arena(
            rules.name,
            a,
            b,
            deals=args.deals,
            seed=args.seed,
            pool=pool,
            progress=report,
            options=options,
            records=records is not None,
        )
        elapsed = time.perf_counter() - start
    progress.finish(result.games)
    if records is not None:
        records.writelines(o.record + "\n" for o in result.outcomes if o.record is not None)
    out.write(
        f"{run.title}: {a} against {b}, {args.deals} deal seed{'s' if args.deals != 1 else ''} "
        f"x {per} seatings = {result.games} {kind}, seed {args.seed}, {where}\n"
    )
    for line in result.report():
        out.write(line + "\n")
    if records is not None:
        out.write(f"  records: {result.games} {kind} written to {args.records} (JSON lines; replay reads them)\n")
    out.write(f"  time: {elapsed:.1f} s\n")
    return 0


def _play(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    from .play.ladder import default_ladder_path
    from .play.terminal import play_session

    args.variant = _variant(args)
    rules, _options = _rules_of(args)
    if args.level is not None and not 1 <= args.level <= 5:
        raise SystemExit(f"error: --level is 1 to 5, not {args.level}")
    if args.matches is not None and args.matches < 1:
        raise SystemExit("error: --matches must be at least 1")
    path = Path(args.ladder_file).expanduser() if args.ladder_file else default_ladder_path()
    records = _open_output(args.record, "the record") if args.record is not None else None

    def keep(game: GameState) -> None:
        if records is not None:
            records.write(json.dumps(record_of(game), separators=(",", ":")) + "\n")
            records.flush()

    with records if records is not None else contextlib.nullcontext():
        return play_session(
            rules,
            level=args.level,
            ladder_path=path,
            stdin=stdin,
            out=out,
            seed=args.seed,
            matches=args.matches,
            cut=args.cut,
            play_forced=not args.ask_forced,
            on_match_end=keep,
        )


def _serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .play.ladder import LadderFile, default_ladder_path
    from .play.web import serve

    args.variant = _variant(args)
    rules, _options = _rules_of(args)
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


def _describe(state: DealState | GameState, steps: int) -> list[str]:
    """What ``replay`` says of one replayed record."""
    kind = "game" if isinstance(state, GameState) else "deal"
    status = "over" if state.is_over else "in progress"
    lines = [f"{state.rules.name} {kind}: {steps} actions replayed, all legal; {status}"]
    if isinstance(state, GameState) and state.cut_for_deal is not None:
        lines.append(state.cut_for_deal.describe())
    sides = state.rules.sides
    who = [f"player {side[0]}" if len(side) == 1 else "side " + "+".join(map(str, side)) for side in sides]
    scores = ", ".join(f"{name} {s}" for name, s in zip(who, state.scores))
    lines.append(("final scores: " if state.is_over else "scores so far: ") + scores)
    if isinstance(state, GameState) and state.is_over:
        lines.append("winner: " + ("draw" if state.winner is None else who[state.winner]))
    return lines


def _replay_one(text: str, where: str) -> tuple[DealState | GameState, int]:
    try:
        state = replay(text)
    except BeziqueRulesError as exc:
        raise SystemExit(f"error: {where}{exc}") from None
    actions = json.loads(text).get("actions", ())
    return state, len(actions) if isinstance(actions, list) else 0


def _replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .state.records import MAX_RECORD_CHARS

    try:
        with open(args.file, encoding="utf-8") as fh:
            first = fh.readline(MAX_RECORD_CHARS + 1)
            lines = _json_lines(first, fh, MAX_RECORD_CHARS)
            if lines is None:
                text = first + fh.read(MAX_RECORD_CHARS + 1 - len(first))
                if len(text) > MAX_RECORD_CHARS:
                    raise SystemExit(
                        f"error: {args.file} is larger than a record can be ({MAX_RECORD_CHARS} characters)"
                    )
                state, steps = _replay_one(text, "")
                for line in _describe(state, steps):
                    out.write(line + "\n")
                return 0
            count = 0
            for number, line in lines:
                state, steps = _replay_one(line, f"{args.file} line {number}: ")
                count += 1
                described = _describe(state, steps)
                out.write(f"line {number}: " + "; ".join(described) + "\n")
            out.write(f"{count} records replayed, all legal\n")
            return 0
    except OSError as exc:
        raise SystemExit(f"error: cannot read {args.file}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SystemExit(f"error: {args.file} is not a UTF-8 text file (a record is JSON)") from None


def _json_lines(first: str, rest: TextIO, limit: int) -> Iterator[tuple[int, str]] | None:
    """The records of a JSON-lines file (one record a line, as ``simulate --records`` and
    ``play --record`` write them), or None when the file holds one JSON document."""
    try:
        json.loads(first)
    except ValueError:
        return None  # the first line is not a whole record: one document, perhaps indented
    following = rest.readline(limit + 1)
    start = 2
    while following and not following.strip():
        following = rest.readline(limit + 1)
        start += 1
    if not following:
        return None  # a single record on one line

    def lines() -> Iterator[tuple[int, str]]:
        yield 1, first
        number = start
        line = following
        while line:
            if len(line) > limit:
                raise SystemExit(f"error: line {number} is larger than a record can be ({limit} characters)")
            if line.strip():
                yield number, line
            number += 1
            line = rest.readline(limit + 1)

    return lines()


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
        raise SystemExit(f"error: {message} (see '{self.prog} --help')")


_OPTION_HELP = (
    "change an option of the variant (a house rule), e.g. --option target=1500; repeatable; "
    "'bezique-rules rules VARIANT' lists the options"
)


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
    sim.add_argument("--option", action="append", metavar="KEY=VALUE", help=_OPTION_HELP)
    sim.add_argument(
        "--records",
        metavar="FILE",
        help="write every deal's (with --agents: every game's) record to FILE, one JSON record a line; "
        "'bezique-rules replay FILE' checks them",
    )
    sim.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress on stderr (by default a live line on a terminal, else one line at the end)",
    )
    sim.set_defaults(run=_simulate)
    ply = sub.add_parser("play", help="play against the computer in the terminal (the ladder: levels 1 to 5)")
    ply.add_argument("variant_word", metavar="variant", nargs="?", help="a preset name (default bezique-match)")
    ply.add_argument("--variant", dest="variant_flag", metavar="VARIANT", help="the same, as an option")
    ply.add_argument("--option", action="append", metavar="KEY=VALUE", help=_OPTION_HELP)
    ply.add_argument(
        "--record",
        metavar="FILE",
        help="write each match's record to FILE (one JSON record a line); 'bezique-rules replay FILE' replays them",
    )
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
    srv.add_argument("variant_word", metavar="variant", nargs="?", help="a preset name (default bezique-match)")
    srv.add_argument("--variant", dest="variant_flag", metavar="VARIANT", help="the same, as an option")
    srv.add_argument("--option", action="append", metavar="KEY=VALUE", help=_OPTION_HELP)
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
    rep = sub.add_parser("replay", help="check a JSON record (or a file of them, one a line) and print the scores")
    rep.add_argument("file", help="the record (JSON), or JSON lines of records (as simulate --records writes)")
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
