"""The state interface: what a deal and a game look like from outside, whatever the engine.

- `bezique_rules.state.deal`: `DealState` (the deal every engine implements), `PlayerView`
  (what one player may know), results and the shared record fields. Its names are
  importable from here, as they were from the 0.2.0 module ``bezique_rules.state``.
- `bezique_rules.state.game`: `GameState`, deals played to the game's end.
- `bezique_rules.state.records`: records of deals and games, and their replay.
- `bezique_rules.state.knowledge`: what a player can know of the hidden cards.
- `bezique_rules.state.worlds`: `determinize` and `Worlds`, the deals a player cannot tell
  from his view.
- `bezique_rules.state.viewdata`: a view's JSON form (`PlayerView.to_dict` / `from_dict`).
- `bezique_rules.state.observation`: views as tensors and strings.
- `bezique_rules.state.svg` (and the drawing behind it, `bezique_rules.state.picture`):
  views as pictures.
- `bezique_rules.state.events`: what happened between two states, told from a view.

The state layer sits below the engines (they implement `DealState`); a state's record,
tensor and picture are conveniences that reach up a layer and import on use.
"""

from __future__ import annotations

from .deal import DealCore, DealResult, DealSetup, DealState, Move, Phase, PlayerView, TableMeld
from .deal import Seating as Seating
from .deal import _unpickled_deal as _unpickled_deal  # what a deal pickled by 0.2.0 names
from .deal import _unpickled_setup as _unpickled_setup
from .deal import check_rng as check_rng
from .deal import check_view as check_view
from .deal import relabel_mask as relabel_mask
from .deal import relabel_seq as relabel_seq
from .worlds import Worlds as Worlds
from .worlds import determinize as determinize

__all__ = ["DealCore", "DealResult", "DealSetup", "DealState", "Move", "Phase", "PlayerView", "TableMeld"]
