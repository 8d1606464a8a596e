"""Tournaments on a pool or a cluster: any executor-like pool, a local Dask cluster, a lost
worker's chunk run again, ``simulate --cluster``, and the ``cluster`` extra kept optional.

The tests that start a Dask cluster skip when the ``cluster`` extra is not installed;
CI installs it and runs them (``.ci/run``).
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Generic, ParamSpec, TypeVar, cast

import attrs
import pytest

import bezique_rules
from bezique_rules.agents import play_arena
from bezique_rules.agents.arena import FutureLike, chunk_size
from bezique_rules.cli import main
from bezique_rules.errors import DealError
from bezique_rules.integrations.cluster import ClusterError, DaskPool, check_versions, open_cluster, parse_cluster

T = TypeVar("T")
P = ParamSpec("P")


def run(*argv: str) -> tuple[int, str, str]:
    """Run the command in-process: (exit status, stdout text, stderr text)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


# -- any executor-like pool, without the extra ----------------------------------------------


def test_arena_on_any_executor_gives_the_one_job_result() -> None:
    """A thread pool as the arena's pool, with chunks of 1, 2 or 5 deal numbers: the jobs=1 result."""
    one = play_arena("euchre", "heuristic", "random", deals=7, seed=11)
    for chunk in (1, 2, 5):
        with ThreadPoolExecutor(max_workers=3) as pool:
            assert play_arena("euchre", "heuristic", "random", deals=7, seed=11, pool=pool, chunk=chunk) == one


@attrs.define
class ReversedPool:
    """A pool that runs each call at once, and finishes them all, the last submitted first,
    once every future has a done-callback."""

    submitted: int = 0
    waiting: list[Callable[[], object]] = attrs.field(factory=list)

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> FutureLike[T]:
        """Run the call now; its future finishes later."""
        self.submitted += 1
        return HeldFuture(fn(*args, **kwargs), self)


@attrs.frozen
class HeldFuture(Generic[T]):
    """A call that has run, whose done-callback its `ReversedPool` calls."""

    value: T
    pool: ReversedPool

    def result(self, timeout: float | None = None) -> T:
        """The value."""
        return self.value

    def add_done_callback(self, fn: Callable[[FutureLike[T]], object], /) -> None:
        """Hold ``fn``; when the pool's last future has a callback too, call them all, last first."""
        self.pool.waiting.append(lambda: fn(self))
        if len(self.pool.waiting) == self.pool.submitted:
            for call in reversed(self.pool.waiting):
                call()

    def cancel(self) -> bool:
        """Too late: the call has run."""
        return False


def test_arena_puts_chunks_finished_out_of_order_back_in_order() -> None:
    """Chunks finishing last-first still give the games in deal-number order: the jobs=1 result."""
    seen: list[tuple[int, int]] = []
    pool = ReversedPool()
    result = play_arena(
        "bezique", "random", "heuristic", deals=8, seed=5, pool=pool, chunk=2, progress=lambda d, t: seen.append((d, t))
    )
    assert pool.submitted == 4
    assert result == play_arena("bezique", "random", "heuristic", deals=8, seed=5)
    assert seen == [(0, 16), (4, 16), (8, 16), (12, 16), (16, 16)]


@pytest.mark.parametrize(("deals", "chunk", "quoted"), [(-1, None, "-1"), (4, 0, "0")])
def test_bad_deals_or_chunk_is_a_deal_error(deals: int, chunk: int | None, quoted: str) -> None:
    """Fewer than 0 deal numbers, or chunks of fewer than 1: a DealError (a ValueError) quoting the number."""
    with pytest.raises(DealError, match=f"not {quoted}$"):
        play_arena("bezique", "random", "random", deals=deals, chunk=chunk)


def test_chunk_size_is_at_least_one_and_at_most_sixteen() -> None:
    """Chunks hold 1 deal number for small runs, 16 at most for large ones; 128 chunks or more from 128 deal numbers."""
    assert chunk_size(1) == 1 and chunk_size(256) == 1 and chunk_size(257) == 2
    assert chunk_size(10**7) == 16
    assert all(-(-deals // chunk_size(deals)) >= 128 for deals in range(128, 20_000, 7))


@pytest.mark.parametrize(
    ("spec", "parsed"), [("local:1", 1), ("local:12", 12), ("tcp://10.1.2.3:8786", "tcp://10.1.2.3:8786")]
)
def test_parse_cluster(spec: str, parsed: int | str) -> None:
    """local:N is N local workers; anything else is the scheduler's address."""
    assert parse_cluster(spec) == parsed


@pytest.mark.parametrize("spec", ["local", "local:0", "local:x", "local:-2", "", "tcp://a b:1"])
def test_bad_cluster_is_a_cluster_error_quoting_it(spec: str) -> None:
    """A bad --cluster value is a ClusterError (a ValueError) that quotes it, before any import of Dask."""
    with pytest.raises(ClusterError, match="not " + repr(spec).replace("\\", "\\\\")) as info:
        parse_cluster(spec)
    assert isinstance(info.value, ValueError)


def test_simulate_bad_cluster_is_a_one_line_error() -> None:
    """simulate --cluster local:x: one "error:" line, exit 2, whether or not the extra is installed."""
    status, out, err = run("simulate", "bezique", "--agents", "random,random", "--deals", "2", "--cluster", "local:x")
    assert status == 2 and out == ""
    assert err.startswith("error: a local cluster is 'local:N'") and len(err.splitlines()) == 1


def test_simulate_cluster_and_jobs_exclude_each_other() -> None:
    """--cluster and --jobs together: a one-line usage error."""
    status, out, err = run("simulate", "bezique", "--deals", "2", "--jobs", "2", "--cluster", "local:2")
    assert status == 2 and out == ""
    assert "not allowed with" in err and len(err.splitlines()) == 1


def test_workers_of_another_version_are_refused() -> None:
    """A cluster whose workers run another bezique-rules version: ClusterError naming the worker and its version."""
    here = bezique_rules.__version__
    check_versions("local:2", {"tcp://a:1": here, "tcp://b:2": here})
    with pytest.raises(ClusterError, match=rf"must run bezique-rules {here}.*tcp://b:2 runs '0\.0\.1' \(and 1 more\)"):
        check_versions("tcp://s:8786", {"tcp://a:1": here, "tcp://b:2": "0.0.1", "tcp://c:3": "9.9"})


def test_cluster_without_the_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Dask installed, --cluster fails in one line naming the 'cluster' extra; the API raises ImportError."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    status, out, err = run("simulate", "bezique", "--agents", "random,random", "--deals", "2", "--cluster", "local:2")
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("error: --cluster: ") and "pip install 'bezique-rules[cluster]'" in err
    with pytest.raises(ImportError, match=r"'cluster' extra"):
        open_cluster("tcp://127.0.0.1:8786")


def test_importing_the_library_does_not_import_dask() -> None:
    """import bezique_rules (with the arena, the cluster module and the command line) imports no Dask."""
    code = (
        "import sys, bezique_rules, bezique_rules.agents, bezique_rules.integrations.cluster, bezique_rules.cli\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed', 'numpy')))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


# -- a local Dask cluster (the cluster extra) -----------------------------------------------


@pytest.fixture(scope="module")
def dask_pool() -> Iterator[DaskPool]:
    """A local cluster of two worker processes, shared by the tests below."""
    pytest.importorskip("distributed", reason="the cluster tests need the 'cluster' extra (Dask distributed)")
    with open_cluster("local:2") as pool:
        yield pool


def _worker_pid() -> int:
    return os.getpid()


def _first_time(marker: str) -> bool:
    """Whether this is the first call to reach ``marker``: it creates the file, with this process's id."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    return True


def _dies_once(marker: str, first_deal: int, fn: Callable[..., T], *args: object) -> T:
    """Run the chunk ``fn(*args)`` (``args``: its first deal number and its count); but the first
    time the chunk of ``first_deal`` runs, kill this worker process."""
    if args[0] == first_deal and _first_time(marker):
        os._exit(1)
    return fn(*args)


def _fails_once(marker: str, fn: Callable[..., T], *args: object) -> T:
    """Run the chunk ``fn(*args)``; but the first chunk to run raises instead."""
    if _first_time(marker):
        raise RuntimeError("a passing failure")
    return fn(*args)


@attrs.frozen
class Wrapped:
    """A pool that runs every submitted call through ``wrapper(*before, fn, *args)``."""

    pool: DaskPool
    wrapper: Callable[..., object]
    before: tuple[object, ...]

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> FutureLike[T]:
        """Submit the wrapped call."""
        return cast("FutureLike[T]", self.pool.submit(self.wrapper, *self.before, fn, *args))


def test_arena_on_a_local_cluster_gives_the_one_job_result(dask_pool: DaskPool) -> None:
    """Two worker processes, chunks of 1 and 3 deal numbers: the same games as jobs=1."""
    one = play_arena("euchre", "heuristic", "random", deals=6, seed=2)
    assert dask_pool.workers == 2
    for chunk in (1, 3):
        assert play_arena("euchre", "heuristic", "random", deals=6, seed=2, pool=dask_pool, chunk=chunk) == one


def test_a_killed_worker_loses_no_games(dask_pool: DaskPool, tmp_path: Path) -> None:
    """A worker process killed while it runs a chunk mid-tournament: its chunks run again, the totals are jobs=1's."""
    marker = tmp_path / "killed"
    one = play_arena("euchre", "heuristic", "random", deals=16, seed=4)
    pids_before = set(dask_pool.client.run(_worker_pid).values())
    pool = Wrapped(dask_pool, _dies_once, (str(marker), 9))
    result = play_arena("euchre", "heuristic", "random", deals=16, seed=4, pool=pool, chunk=2)
    assert marker.exists(), "no worker was killed"
    killed = int(marker.read_text())
    assert killed in pids_before
    assert killed not in set(dask_pool.client.run(_worker_pid).values())
    assert result == one
    assert (result.wins, result.draws, result.losses, result.deals) == (one.wins, one.draws, one.losses, one.deals)


def test_a_failed_chunk_is_retried(dask_pool: DaskPool, tmp_path: Path) -> None:
    """A chunk whose task raises once is run again (retries): the result is still jobs=1's."""
    marker = tmp_path / "failed"
    one = play_arena("pinochle", "random", "heuristic", deals=4, seed=6)
    pool = Wrapped(dask_pool, _fails_once, (str(marker),))
    assert play_arena("pinochle", "random", "heuristic", deals=4, seed=6, pool=pool, chunk=1) == one
    assert marker.exists()


def test_simulate_on_a_cluster_gives_the_one_job_result(dask_pool: DaskPool) -> None:
    """simulate --agents ... --cluster ADDRESS (the local cluster's scheduler) reports what --jobs 1
    reports, and shows its progress bar."""
    address = dask_pool.client.scheduler.address
    args = ("simulate", "euchre", "--agents", "heuristic,random", "--deals", "5", "--seed", "8")
    one = run(*args, "--no-progress")
    status, out, err = run(*args, "--cluster", address)
    assert status == one[0] == 0
    # 1 or 2 workers: the worker killed by an earlier test may still be restarting
    assert re.search(rf"seed 8, cluster {re.escape(address)} \([12] workers?\)$", out.splitlines()[0])
    assert out.splitlines()[1:3] == one[1].splitlines()[1:3]
    assert "10/10 deals" in err  # the progress, in the report's word


def test_simulate_random_deals_on_a_cluster_gives_the_one_job_result(dask_pool: DaskPool) -> None:
    """simulate VARIANT --deals N --cluster ADDRESS (random deals, no agents): the --jobs 1 statistics."""
    address = dask_pool.client.scheduler.address
    one = run("simulate", "bezique", "--deals", "40", "--seed", "3")
    status, out, _ = run("simulate", "bezique", "--deals", "40", "--seed", "3", "--cluster", address)
    assert status == one[0] == 0
    assert out.splitlines()[1:4] == one[1].splitlines()[1:4]


def test_an_unreachable_scheduler_is_a_cluster_error() -> None:
    """A scheduler address nobody answers at: ClusterError quoting the address, once the timeout is over."""
    pytest.importorskip("distributed", reason="the cluster tests need the 'cluster' extra (Dask distributed)")
    unreachable = open_cluster("tcp://127.0.0.1:9", timeout=1)
    with pytest.raises(ClusterError, match=r"cannot reach the Dask scheduler at 'tcp://127\.0\.0\.1:9'"):
        unreachable.__enter__()
