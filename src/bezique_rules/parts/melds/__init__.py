"""Meld tables as data, and the declaration rules.

A `MeldKind` names a scoring combination, its points and its *pattern* (which
cards make it), plus the bookkeeping that the reuse rules need:

- ``group``: the kind for the rule against reusing a card in the same kind (royal and common marriages share the group
  ``"marriage"``): a card never scores twice in one group;
- ``meld_class`` and ``level``: the class within which melds go up, never down (A: marriages and
  sequences, B: beziques, C: quartets); a card may move up a class (royal
  marriage → sequence, bezique → double bezique) but not down.

`MeldRules` holds the options that change those rules, and
`MeldRules.refusal` decides one declaration. `legal_declarations` searches a
hand for every legal declaration, choosing physical copies for the player (a rule set keeps
that search built once per trump: ``rules.meld_search[trump].legal(held, tabled, history)``).

The package holds four parts of different lifetimes: the meld kinds as data (`kinds`), the
declaration rules (`rules`), both fixed per rule set; the search of a hand (`search`), per
state; and the auction games' lay-down (`laydown`).
"""

from __future__ import annotations

# Re-exported under the old module's names; the names in __all__ are the public ones, the
# others (``X as X``) are the package's own, imported by the engines and batch from here.
from .kinds import CopyOrder as CopyOrder
from .kinds import CrossClassReuse as CrossClassReuse
from .kinds import Declaration as Declaration
from .kinds import FixedCards, MeldKind, MeldReuse, MeldTable, NewCardRule, Quartet, RunSuits, SuitRun, TrumpWith
from .kinds import Pattern as Pattern
from .kinds import face_needs as face_needs
from .laydown import Laid as Laid
from .laydown import best_melds as best_melds
from .laydown import melds_fit as melds_fit
from .rules import MeldRules
from .rules import quick_rules as quick_rules
from .rules import reuse_blocks as reuse_blocks
from .search import Finder as Finder
from .search import Instance as Instance
from .search import InstanceGroup, index_instances, legal_declarations
from .search import MeldSearch as MeldSearch
from .search import declaration_finder as declaration_finder

__all__ = [
    "FixedCards",
    "InstanceGroup",
    "MeldKind",
    "MeldReuse",
    "MeldRules",
    "MeldTable",
    "NewCardRule",
    "Quartet",
    "RunSuits",
    "SuitRun",
    "TrumpWith",
    "index_instances",
    "legal_declarations",
]
