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

from .core import BatchState, new, random_actions
from .euchre import EuchreBatch
from .stock import StockBatch

__all__ = ["BatchState", "EuchreBatch", "StockBatch", "new", "random_actions"]
