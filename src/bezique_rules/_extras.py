"""Optional extras: the error raised when a feature's extra is not installed."""

from __future__ import annotations

__all__ = ["missing_extra"]


def missing_extra(extra: str, feature: str, module: str) -> ImportError:
    """The `ImportError` to raise when ``feature`` needs ``module``, which the extra ``extra``
    installs, and it is not installed.

    >>> str(missing_extra("cluster", "running the arena on a cluster", "distributed"))
    "running the arena on a cluster needs the 'cluster' extra (distributed): pip install 'bezique-rules[cluster]'"
    """
    error = ImportError(f"{feature} needs the {extra!r} extra ({module}): pip install 'bezique-rules[{extra}]'")
    error.name = module
    return error
