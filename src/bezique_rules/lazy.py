"""Values built on first use, once, whatever the number of threads asking at the same time.

Rule sets keep their compiled tables (`RuleSet.tables` and the parts' derived tuples) as
cached properties, and the registry keeps the rule sets it built. Each of these is built
under `BUILD_LOCK`, one re-entrant lock for the whole library, and checked again once the
lock is held: two threads that ask a cold rule set for its tables at once get the *same*
table object, never two equal copies (the engines read tables by identity: a state keeps
the table object it was dealt with). Reading a value once built takes no lock.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping
from functools import cached_property
from types import MappingProxyType
from typing import Any, Generic, TypeVar

__all__ = ["BUILD_LOCK", "ImportedByName", "built_once", "built_once_per_key", "imported"]

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


class ImportedByName(Generic[_T]):
    """Values found by name: the built-in ones, each named by its module and attribute and
    imported on first use (a layer below never imports the modules that fill it), and those
    registered from outside. Holds the engines (`bezique_rules.engine.registry`) and the
    agents' strategies (`bezique_rules.agents.strategy`); each says who may register what.

    Importing is idempotent (Python's import lock), so two threads asking at once for a
    built-in not yet imported get the same object.
    """

    def __init__(self, builtin: Mapping[str, tuple[str, str]]) -> None:
        self.builtin: Mapping[str, tuple[str, str]] = MappingProxyType(dict(builtin))
        """Name -> (module, attribute) of the built-in values."""
        self.found: dict[str, _T] = {}
        """The values in use: built-ins once imported, and those registered."""

    def names(self) -> tuple[str, ...]:
        """The names of the built-in and registered values, sorted."""
        return tuple(sorted({*self.builtin, *self.found}))

    def get(self, name: str) -> _T | None:
        """The value called ``name`` (a built-in imported now if need be), or None."""
        found = self.found.get(name)
        if found is None and name in self.builtin:
            found = self.found[name] = imported(*self.builtin[name])
        return found


def imported(module: str, attribute: str) -> Any:
    """The attribute ``attribute`` of the module ``module``, imported now if need be."""
    return getattr(importlib.import_module(module), attribute)
