"""The arena: one agent against another, seats swapped, in parallel, reproducibly.

Each deal number ``k`` (1, 2, …) is shuffled with `deal_seed` (seed, k) and played
once per seating: agent A in seat 0 then in seat 1 (in a partnership game A
takes a whole side, seats 0 and 2, then 1 and 3; with three players A takes
each seat in turn against two copies of B). Every random choice of the agents
comes from a `random.Random` derived from the seed, the deal number, the seating
and the seat, never from the order in which processes run, so the same seed
gives the same result whatever the number of jobs.

The work is cut into chunks of consecutive deal numbers. They run in this process
(``jobs=1``), in a local process pool (``jobs=N``) or on any pool with a
``submit`` method returning a future (see `Pool`: a
`concurrent.futures.Executor`, or a Dask cluster through
`bezique_rules.integrations.cluster.open_cluster`), and the games are put back in deal-number
order, so the result does not depend on where or in which order chunks ran, or on
a chunk run twice after a lost worker.

Presets whose game is a short match (``bezique-match``) are played as whole
matches (`new_game`), and the match result is what counts; the others are
played deal by deal.
"""

from __future__ import annotations

import json
import math
import queue
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, ParamSpec, Protocol, TypeVar

import attrs

from ..api import new_deal
from ..errors import DealError
from ..parts.scoring import MatchEnd
from ..rules.registry import get_rules
from ..rules.ruleset import RuleSet
from ..state.deal import DealState
from ..state.game import GameState, deal_seed, new_game
from ..state.records import record_of
from .base import Agent
from .levels import make_agent

__all__ = [
    "ArenaResult",
    "FutureLike",
    "GameOutcome",
    "Pool",
    "chunk_size",
    "play_arena",
    "play_pairing",
    "play_pairings",
    "plays_matches",
    "seatings",
]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
P = ParamSpec("P")

AgentSpec = Agent | str
"""An agent, or its name (see `make_agent`)."""


@attrs.frozen
class GameOutcome:
    """One game of the arena (a deal, or a whole match) from agent A's side."""

    number: int
    """The deal number (its seed is ``deal_seed(seed, number)``)."""
    seating: int
    """Which seating: A in seat ``seating`` (or on side ``seating``)."""
    result: float
    """1 for a win of A, 0.5 for a draw, 0 for a loss."""
    points_a: float
    """A's points (its side's; with several seats of B, per seat) over the game."""
    points_b: float
    """B's points over the game (per seat when B holds several seats of its own)."""
    deals: int
    """How many deals the game took."""
    record: str | None = None
    """The game's record as one line of JSON (`bezique_rules.replay` reads it), when the
    arena was asked for records (``play_arena(..., records=True)``); else None."""


@attrs.frozen
class ArenaResult:
    """The outcome of an arena run."""

    variant: str
    """The preset."""
    agent_a: str
    """A's name."""
    agent_b: str
    """B's name."""
    seed: int
    """The seed."""
    outcomes: tuple[GameOutcome, ...]
    """Every game, in deal-number then seating order."""

    @property
    def games(self) -> int:
        """How many games were played."""
        return len(self.outcomes)

    @property
    def wins(self) -> int:
        """Games A won."""
        return sum(1 for o in self.outcomes if o.result == 1.0)

    @property
    def draws(self) -> int:
        """Games drawn."""
        return sum(1 for o in self.outcomes if o.result == 0.5)

    @property
    def losses(self) -> int:
        """Games A lost."""
        return sum(1 for o in self.outcomes if o.result == 0.0)

    @property
    def win_rate(self) -> float:
        """A's score rate: wins plus half the draws, over the games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of the win rate (95% for ``z=1.96``)."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    @property
    def deals(self) -> int:
        """How many deals were played in all."""
        return sum(o.deals for o in self.outcomes)

    @property
    def points_per_deal(self) -> tuple[float, float]:
        """Average points per deal of A and of B."""
        d = max(1, self.deals)
        return (sum(o.points_a for o in self.outcomes) / d, sum(o.points_b for o in self.outcomes) / d)

    def report(self) -> list[str]:
        """The result as text lines."""
        low, high = self.interval()
        a, b = self.agent_a, self.agent_b
        pa, pb = self.points_per_deal
        return [
            f"  {a} won {self.wins}, drew {self.draws}, lost {self.losses}: win rate {100 * self.win_rate:.1f}% "
            f"(95% CI {100 * low:.1f}%-{100 * high:.1f}%)",
            f"  points per deal: {a} {pa:.1f}, {b} {pb:.1f} ({self.deals} deals)",
        ]


class FutureLike(Protocol[T_co]):
    """What `Pool.submit` returns: a `concurrent.futures.Future`, a Dask ``distributed.Future``."""

    def result(self, timeout: float | None = None) -> T_co:
        """Wait for the value (or raise the call's exception)."""
        ...

    def add_done_callback(self, fn: Callable[[FutureLike[T_co]], object], /) -> None:
        """Call ``fn(future)`` once the call has finished (at once if it has), in any thread."""
        ...

    def cancel(self) -> object:
        """Give up on the call if it has not run yet."""
        ...


class Pool(Protocol):
    """Where the arena runs its chunks: anything with the ``submit`` of a
    `concurrent.futures.Executor` (a `ProcessPoolExecutor`, a
    `bezique_rules.integrations.cluster.DaskPool`). The functions and arguments submitted are
    module-level functions, names and numbers, so any process can run them."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> FutureLike[T]:
        """Start ``fn(*args, **kwargs)`` somewhere; its future."""
        ...


def plays_matches(rules: RuleSet) -> bool:
    """Whether the arena plays whole matches of ``rules`` (a short match: ``bezique-match``)."""
    return isinstance(rules.game_end, MatchEnd)


def seatings(rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """The seats A takes in each seating: (0,) then (1,); sides in partnership games; each seat
    in turn with three players."""
    if rules.partnership:
        return tuple(tuple(side) for side in rules.sides)
    if rules.players == 2:
        return ((0,), (1,))
    return tuple((p,) for p in range(rules.players))


def _name(agent: AgentSpec) -> str:
    return agent if isinstance(agent, str) else str(getattr(agent, "name", type(agent).__name__))


@attrs.frozen
class _Pairing:
    """Agent A against agent B in one variant under its options, from one seed: what every
    game of an arena shares, sent whole to wherever its chunks run (it pickles when the
    agents do; names always do)."""

    variant: str
    agent_a: AgentSpec
    agent_b: AgentSpec
    seed: int
    options: Mapping[str, Any] | None = None
    """The variant's options to change (as `get_rules` takes them)."""
    records: bool = False
    """Whether each game's record is kept."""

    def play(self, number: int) -> list[GameOutcome]:
        """Deal number ``number``, once per seating (see `play_pairing`)."""
        rules = get_rules(self.variant, **(self.options or {}))
        a = make_agent(self.agent_a) if isinstance(self.agent_a, str) else self.agent_a
        b = make_agent(self.agent_b) if isinstance(self.agent_b, str) else self.agent_b
        shuffle = deal_seed(self.seed, number)
        out = []
        for seating, seats in enumerate(seatings(rules)):
            agents = [a if p in seats else b for p in range(rules.players)]
            rngs = [
                random.Random(f"bezique-rules:arena:{self.seed}:{number}:{seating}:{p}") for p in range(rules.players)
            ]
            out.append(_play_one(rules, agents, rngs, shuffle, number, seating, seats, self.records))
        return out

    def play_chunk(self, first: int, count: int) -> list[GameOutcome]:
        """Deal numbers ``first`` … ``first + count - 1`` (a chunk of the arena), each once
        per seating."""
        out: list[GameOutcome] = []
        for k in range(first, first + count):
            out.extend(self.play(k))
        return out


def play_pairing(
    variant: str,
    agent_a: AgentSpec,
    agent_b: AgentSpec,
    seed: int,
    number: int,
    *,
    options: Mapping[str, Any] | None = None,
    records: bool = False,
) -> list[GameOutcome]:
    """Play deal number ``number`` once per seating (see `seatings`), under the variant's
    ``options`` (as `get_rules` takes them); with ``records``, keep each game's record."""
    return _Pairing(variant, agent_a, agent_b, seed, options, records).play(number)


def play_pairings(
    variant: str,
    agent_a: AgentSpec,
    agent_b: AgentSpec,
    seed: int,
    first: int,
    count: int,
    *,
    options: Mapping[str, Any] | None = None,
    records: bool = False,
) -> list[GameOutcome]:
    """Play deal numbers ``first`` … ``first + count - 1`` (a chunk of the arena), each once
    per seating (see `play_pairing`)."""
    return _Pairing(variant, agent_a, agent_b, seed, options, records).play_chunk(first, count)


def chunk_size(deals: int) -> int:
    """How many deal numbers a chunk of the arena holds by default: at most 16, and few
    enough for at least 128 chunks (when there are that many deal numbers), to share them
    evenly among many workers and to lose little when one is lost.

    >>> chunk_size(6), chunk_size(1000), chunk_size(100_000)
    (1, 4, 16)
    """
    return max(1, min(16, math.ceil(deals / 256)))


def _play_one(
    rules: RuleSet,
    agents: Sequence[Agent],
    rngs: Sequence[random.Random],
    shuffle: int,
    number: int,
    seating: int,
    seats: tuple[int, ...],
    records: bool = False,
) -> GameOutcome:
    state: GameState | DealState
    state = new_game(rules, seed=shuffle) if plays_matches(rules) else new_deal(rules, seed=shuffle)
    while not state.is_over:
        p = state.current_player
        assert p is not None
        state = state.apply(agents[p].choose(state.view(p), rngs[p]))
    side_a = rules.side_of(seats[0])
    if isinstance(state, GameState):
        scores = state.totals
        deals = len(state.results)
        result = 0.5 if state.winner is None else (1.0 if state.winner == side_a else 0.0)
    else:
        scores = state.scores
        deals = 1
        top = max(scores)
        leaders = [s for s, v in enumerate(scores) if v == top]
        result = (0.5 if len(leaders) > 1 else 1.0) if side_a in leaders else 0.0
    others = [s for s in range(len(scores)) if s != side_a]
    points_b = sum(scores[s] for s in others) / len(others)
    record = json.dumps(record_of(state), separators=(",", ":")) if records else None
    return GameOutcome(number, seating, result, float(scores[side_a]), float(points_b), deals, record)


def play_arena(
    variant: str,
    agent_a: AgentSpec,
    agent_b: AgentSpec,
    *,
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    pool: Pool | None = None,
    chunk: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    options: Mapping[str, Any] | None = None,
    records: bool = False,
) -> ArenaResult:
    """Play ``deals`` deal numbers, each once per seating, and collect the results.

    The result depends only on the variant, the agents, ``deals`` and ``seed``: not on
    ``jobs``, ``pool`` or ``chunk``.

    Args:
        variant: a registered preset.
        agent_a: agent A, or its name (names are needed with several jobs or a pool
            unless the agents can be pickled).
        agent_b: agent B, or its name.
        deals: how many deal numbers (so ``deals * len(seatings)`` games).
        seed: the seed of every shuffle and every agent's randomness.
        jobs: parallel processes of a local pool (ignored with ``pool``).
        pool: where to run the chunks instead (see `Pool`): an executor, or a Dask
            cluster's `bezique_rules.integrations.cluster.DaskPool`. The caller keeps it open.
        chunk: deal numbers per chunk (default `chunk_size`).
        progress: called with (games done, games in all) as chunks finish.
        options: the variant's options to change (as `get_rules` takes them: house rules).
        records: keep each game's record in its `GameOutcome.record`.

    Raises:
        DealError: ``deals`` below 0 (``deals=0`` plays nothing) or ``chunk`` below 1.

    >>> result = play_arena("bezique", "heuristic", "random", deals=2, seed=1)
    >>> result.games, result.wins + result.draws + result.losses
    (4, 4)
    """
    options = dict(options or {})
    rules = get_rules(variant, **options)
    if deals < 0:
        raise DealError(f"deals must be at least 0, not {deals!r}")
    size = chunk_size(deals) if chunk is None else chunk
    if size < 1:
        raise DealError(f"chunk must be at least 1, not {chunk!r}")
    per = len(seatings(rules))
    total = deals * per
    chunks = [(first, min(size, deals - first + 1)) for first in range(1, deals + 1, size)]
    found: list[GameOutcome] = []
    if progress is not None:
        progress(0, total)
    pairing = _Pairing(rules.name, agent_a, agent_b, seed, options, records)
    if pool is None and jobs <= 1:
        for first, count in chunks:
            found.extend(pairing.play_chunk(first, count))
            if progress is not None:
                progress(len(found), total)
    elif pool is None:
        with ProcessPoolExecutor(max_workers=jobs) as own:
            _run_chunks(own, pairing, chunks, found, total, progress)
    else:
        _run_chunks(pool, pairing, chunks, found, total, progress)
    found.sort(key=lambda o: (o.number, o.seating))
    return ArenaResult(rules.name, _name(agent_a), _name(agent_b), seed, tuple(found))


def _run_chunks(
    pool: Pool,
    pairing: _Pairing,
    chunks: Sequence[tuple[int, int]],
    found: list[GameOutcome],
    total: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Submit every chunk of ``pairing`` to ``pool`` and collect the games as chunks finish (in any order);
    if one fails, or the caller is interrupted, the chunks not yet run are cancelled."""
    finished: queue.SimpleQueue[FutureLike[list[GameOutcome]]] = queue.SimpleQueue()
    futures = [pool.submit(pairing.play_chunk, f, c) for f, c in chunks]
    try:
        for fut in futures:
            fut.add_done_callback(finished.put)
        for _ in futures:
            found.extend(finished.get().result())
            if progress is not None:
                progress(len(found), total)
    except BaseException:
        for fut in futures:
            fut.cancel()
        raise
