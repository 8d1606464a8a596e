"""Tournaments on a cluster: the arena's chunks on Dask ``distributed`` workers.

Needs the ``cluster`` extra (``pip install 'bezique-rules[cluster]'``, which installs
Dask ``distributed``); importing this module does not import Dask, opening a cluster
does. `open_cluster` connects to a running scheduler (``tcp://host:8786``) or starts
a local cluster of worker processes (``local:4``), and gives a `DaskPool`, which
`play_arena` accepts as its ``pool``::

    from bezique_rules.agents import play_arena
    from bezique_rules.integrations.cluster import open_cluster

    with open_cluster("tcp://scheduler:8786") as pool:
        result = play_arena("bezique-match", "level5", "level4", deals=100_000, pool=pool)

The result is the one ``jobs=1`` gives for the same seed: every game's shuffle and
every agent's randomness come from the seed and the deal number, and the games are
put back in order. Each chunk is a task; if a worker is lost, the scheduler runs its
chunks again on another worker, and a chunk that fails is retried (``retries``).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import attrs

from .._extras import missing_extra
from ..errors import BeziqueRulesError

if TYPE_CHECKING:
    import distributed

    from ..agents.arena import FutureLike

__all__ = ["ClusterError", "DaskPool", "check_versions", "open_cluster", "parse_cluster"]

T = TypeVar("T")
P = ParamSpec("P")

_LOCAL = re.compile(r"local(?::(.*))?")


class ClusterError(BeziqueRulesError, ValueError):
    """A cluster that is neither ``local:N`` nor a scheduler address, or a scheduler that
    cannot be reached. The message quotes what was given."""


def parse_cluster(spec: str) -> int | str:
    """The number of local workers of ``local:N``, or else the scheduler address ``spec``.

    >>> parse_cluster("local:3"), parse_cluster("tcp://10.0.0.5:8786")
    (3, 'tcp://10.0.0.5:8786')

    Raises:
        ClusterError: ``local`` without a whole number of workers of at least 1, or an
            empty address or one with spaces.
    """
    text = spec.strip()
    local = _LOCAL.fullmatch(text)
    if local is not None:
        count = local.group(1)
        if count is None or not count.isdecimal() or int(count) < 1:
            raise ClusterError(
                f"a local cluster is 'local:N' with N worker processes (at least 1), e.g. 'local:4'; not {spec!r}"
            )
        return int(count)
    if not text or any(c.isspace() for c in text):
        raise ClusterError(
            f"a cluster is 'local:N' or a Dask scheduler address such as 'tcp://host:8786'; not {spec!r}"
        )
    return text


@attrs.frozen
class DaskPool:
    """A Dask ``distributed`` client as the arena's `Pool`: each ``submit`` is a task that
    may run on any worker, is retried ``retries`` times if it fails, and is run again
    elsewhere if its worker is lost.

    Build one from a client you already have (``DaskPool(distributed.Client(...))``) or
    let `open_cluster` do it.
    """

    client: distributed.Client
    """The connected client."""
    retries: int = 3
    """How many times a failed chunk is run again before the arena gives up."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> FutureLike[T]:
        """Run ``fn(*args, **kwargs)`` on the cluster (never deduplicated: ``pure=False``); a
        ``distributed.Future``."""
        future: FutureLike[T] = self.client.submit(fn, *args, retries=self.retries, pure=False, **kwargs)
        return future

    @property
    def workers(self) -> int:
        """How many workers the scheduler has now."""
        return len(self.client.nthreads())


def _require_distributed() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise missing_extra("cluster", "running on a cluster", "distributed") from exc


def open_cluster(spec: str, *, retries: int = 3, timeout: float = 30.0) -> contextlib.AbstractContextManager[DaskPool]:
    """Connect to a Dask cluster, or start a local one, for the time of a ``with`` block.

    Args:
        spec: ``local:N`` (start N worker processes of one thread each on this machine,
            and stop them at the end) or the address of a running Dask scheduler
            (``tcp://host:8786``; its workers need this library installed).
        retries: how many times a failed chunk is run again.
        timeout: seconds to wait for the scheduler.

    Raises:
        ImportError: the ``cluster`` extra is not installed (the message names it).
        ClusterError: a bad ``spec`` (at once); on entering the block, a scheduler that
            cannot be reached, or workers without this library or with another version
            of it (see `check_versions`).
    """
    target = parse_cluster(spec)
    _require_distributed()
    return _session(spec, target, retries, timeout)


@contextlib.contextmanager
def _session(spec: str, target: int | str, retries: int, timeout: float) -> Iterator[DaskPool]:
    import distributed

    with contextlib.ExitStack() as stack:
        address: str | distributed.LocalCluster = target if isinstance(target, str) else ""
        if isinstance(target, int):
            address = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=target,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: several local clusters may run at once
                    silence_logs=logging.ERROR,  # not the workers' warnings on a slow shutdown
                )
            )
        try:
            client = stack.enter_context(distributed.Client(address, timeout=timeout))
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {spec!r}: {exc}") from exc
        try:
            found = client.run(_library_version)
        except Exception as exc:  # a worker that cannot unpickle the check: no bezique_rules there
            raise ClusterError(
                f"the workers of {spec!r} cannot run bezique-rules (install it on every worker): {exc}"
            ) from exc
        check_versions(spec, found)
        yield DaskPool(client, retries)


def _library_version() -> str:
    """This process's bezique-rules version (run on each worker)."""
    from .. import __version__

    return __version__


def check_versions(spec: str, found: Mapping[str, str]) -> None:
    """Refuse a cluster whose workers run another version of bezique-rules than this process
    (``found``: worker address -> version): it might play differently, and the result would
    not be the ``jobs=1`` result. Workers that join later are not checked.

    >>> check_versions("local:2", {"tcp://10.0.0.5:4001": _library_version()})

    Raises:
        ClusterError: some worker runs another version (the message names it).
    """
    here = _library_version()
    other = sorted((worker, version) for worker, version in found.items() if version != here)
    if other:
        worker, version = other[0]
        raise ClusterError(
            f"the workers of {spec!r} must run bezique-rules {here}, like this process; "
            f"{worker} runs {version!r}" + (f" (and {len(other) - 1} more)" if len(other) > 1 else "")
        )
