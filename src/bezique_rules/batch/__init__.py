"""Many deals at once: a struct-of-arrays engine that advances N deals in lockstep.

Install the extra first: ``pip install 'bezique-rules[batch]'`` (numpy).

>>> import numpy as np
>>> from bezique_rules import batch
>>> state = batch.new("euchre", range(4))
>>> state.legal_mask().shape
(4, 64)
>>> rng = np.random.default_rng(0)
>>> while not state.done.all():
...     state = state.step(batch.random_actions(state.legal_mask(), rng))
>>> state.scores.shape, bool((state.current_player == -1).all())
((4, 2), True)

`new` deals the same cards as `new_deal` for the same seeds; `BatchState.legal_mask`
numbers actions exactly as the scalar engine (``rules.action_id``); `BatchState.to_state`
gives the scalar `DealState` of one deal. The rules are read from the rule set's parts
(its deck and deal pattern, trump tables, play duty, bidding and scoring parts, action
space) into lookup tables once per rule set; a step is a fixed number of array
operations whatever N is.

Supported: the Euchre presets ``euchre``, ``british-euchre`` and ``euchre-openspiel``
(`EuchreBatch`), and the two-hand stock presets ``bezique``, ``bezique-match`` and
``pinochle`` (`StockBatch`), with every option except those that `new` refuses with
`OptionError` naming them. Other variants raise `OptionError` naming the variant.
"""

from __future__ import annotations

from .._extras import missing_extra

try:
    import numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised without numpy only
    raise missing_extra("batch", "the batch engine (bezique_rules.batch)", "numpy") from exc

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from ..api import resolve_rules
from ..deck import check_dealer
from ..errors import DealError, OptionError
from ..rules.ruleset import RuleSet
from .core import BatchState, random_actions
from .euchre import EuchreBatch, new_euchre
from .stock import StockBatch, new_stock
from .stocktables import SUPPORTED

__all__ = ["BatchState", "EuchreBatch", "StockBatch", "new", "random_actions"]


def new(variant: str | RuleSet, seeds: Iterable[int] | npt.NDArray[np.integer[Any]], *, dealer: int | None = None,
        **options: Any) -> BatchState:  # fmt: skip
    """N deals of ``variant``, one per seed: the same cards as ``new_deal(variant, seed=s)``.

    Args:
        variant: a registered name or a `RuleSet`.
        seeds: the shuffle seeds (whole numbers of 0 or more), one per deal.
        dealer: the dealer's seat in every deal; default the last seat.
        **options: option changes (see `get_rules`).

    >>> from bezique_rules import batch, new_deal
    >>> state = batch.new("euchre-openspiel", [7, 8])
    >>> state.to_state(1) == new_deal("euchre-openspiel", seed=8)
    True

    Raises:
        UnknownVariantError: no such variant.
        OptionError: an unknown option or a bad value; a variant or an option value the
            batch engine does not support (the message names it).
        DealError: a seed that is not a whole number of 0 or more, no seeds, or a bad dealer.
    """
    rules = variant if not options and isinstance(variant, RuleSet) else resolve_rules(variant, options)
    seat = rules.players - 1 if dealer is None else check_dealer(dealer, rules.players)
    raw: list[Any] = seeds.tolist() if isinstance(seeds, np.ndarray) else list(seeds)
    for s in raw:
        if not isinstance(s, int) or isinstance(s, bool) or s < 0:
            raise DealError(f"a seed is a whole number of 0 or more, not {s!r}")
    if not raw:
        raise DealError("batch.new needs at least one seed")
    if rules.engine == "euchre":
        return new_euchre(rules, raw, seat)
    if rules.engine == "stock":
        return new_stock(rules, raw, seat)
    raise OptionError(f"the batch engine does not support {rules.name!r} yet; {SUPPORTED}")
