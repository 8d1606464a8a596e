"""Shared test setup: hypothesis profiles.

``default`` (the README's test command) and ``ci`` (`.ci/run`: more examples) draw the same
examples on every run (``derandomize``), so a verdict does not depend on the luck of the
draw; ``explore`` (``HYPOTHESIS_PROFILE=explore``) draws new random examples, many of them.
A failure it finds is a bug to fix, and its example becomes a regression test."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile(
    "ci",
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    derandomize=True,
)
settings.register_profile(
    "explore", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
