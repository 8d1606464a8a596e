"""``python -m bezique_rules``: the same as the ``bezique-rules`` command."""

from __future__ import annotations

from .cli import main

raise SystemExit(main())
