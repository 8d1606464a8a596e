"""Values built on first use, once, whatever the number of threads asking at the same time.

Rule sets keep their compiled tables (`RuleSet.tables` and the parts' derived tuples) as
cached properties, and the registry keeps the rule sets it built. Each of these is built
under `BUILD_LOCK`, one re-entrant lock for the whole library, and checked again once the
lock is held: two threads that ask a cold rule set for its tables at once get the *same*
table object, never two equal copies (the engines read tables by identity: a state keeps
the table object it was dealt with). Reading a value once built takes no lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cached_property
from typing import Any, TypeVar

__all__ = ["BUILD_LOCK", "built_once", "built_once_per_key"]

BUILD_LOCK = threading.RLock()
"""Held while anything lazily built is built (a rule set by the registry, a table by its rule
set). Re-entrant: building a rule set's tables reads its other lazily built values."""

_T = TypeVar("_T")
_K = TypeVar("_K")


class built_once(cached_property[_T]):
    """A `functools.cached_property` built at most once per object, even when several threads
    read it first at the same time.

    Works on attrs' slotted classes (attrs turns a cached property into a slot filled on first
    read): the value is built and stored under `BUILD_LOCK`, after a second look at the slot,
    so a thread that waited for the lock takes the value the first thread built.
    """

    def __init__(self, func: Callable[[Any], _T]) -> None:
        name = func.__name__

        def build(obj: Any) -> _T:
            with BUILD_LOCK:
                try:
                    found: _T = object.__getattribute__(obj, name)  # built while we waited?
                    return found
                except AttributeError:
                    pass
                value = func(obj)
                object.__setattr__(obj, name, value)  # stored before the lock is let go
                return value

        build.__name__ = name
        build.__qualname__ = getattr(func, "__qualname__", name)
        build.__doc__ = func.__doc__
        build.__annotations__ = getattr(func, "__annotations__", {})
        super().__init__(build)


class built_once_per_key:
    """A one-argument function's results kept per argument (a hashable value such as a rule set),
    the ``maxsize`` most recently built kept: like `functools.lru_cache`, but two threads asking
    at once for a key not yet built get one result, built once under `BUILD_LOCK`.

    >>> @built_once_per_key(2)
    ... def square(n: int) -> int:
    ...     return n * n
    >>> square(3), square(3)
    (9, 9)
    """

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize

    def __call__(self, func: Callable[[_K], _T]) -> Callable[[_K], _T]:
        cache: dict[_K, _T] = {}  # oldest first
        maxsize = self.maxsize

        def cached(key: _K) -> _T:
            found = cache.get(key, _MISSING)  # one dict read: no lock once built
            if found is _MISSING:
                with BUILD_LOCK:
                    found = cache.get(key, _MISSING)
                    if found is _MISSING:
                        found = func(key)
                        cache[key] = found
                        while len(cache) > maxsize:
                            del cache[next(iter(cache))]
            result: _T = found
            return result

        cached.__name__ = func.__name__
        cached.__qualname__ = func.__qualname__
        cached.__doc__ = func.__doc__
        cached.__module__ = func.__module__
        cached.__wrapped__ = func  # type: ignore[attr-defined]
        return cached


_MISSING: Any = object()
