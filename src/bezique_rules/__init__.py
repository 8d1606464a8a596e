"""bezique-rules: correct, fast, fully typed rules for the Bezique family of card games.

Everything public is importable from here:

>>> from bezique_rules import new_deal
>>> deal = new_deal("bezique", seed=1)
>>> deal = deal.apply(deal.legal_actions()[0])
>>> deal.current_player
1
"""

from __future__ import annotations

from .actions import Action, ActionKind, ActionSpace, Verb
from .agents import Agent, HeuristicAgent, RandomAgent, SearchAgent, level
from .api import new_deal
from .cards import JOKER, Card, CardSet, Rank, Suit, parse_cards
from .cut import BEZIQUE_CUT, EUCHRE_CUT, PINOCHLE_CUT, CutDecision, CutDraw, CutForDeal, CutOutcome
from .deck import DealPattern, DeckSpec, shuffle
from .errors import (
    ArgumentTypeError,
    BeziqueRulesError,
    DealError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    RuleCode,
    UnknownVariantError,
)
from .events import (
    CardsReceived,
    CardsShown,
    DealOver,
    Event,
    Moved,
    PhaseChanged,
    ScoresChanged,
    TrickWon,
    TrumpsFixed,
    what_happened,
)
from .game import GameState, deal_seed, new_game
from .melds import DixRule, FixedCards, MeldKind, MeldRules, MeldTable, Quartet, SuitRun, TrumpWith
from .records import record_of, replay
from .rules import OptionSpec, Preset, RuleSet, StockRules, available_variants, get_rules, register_variant
from .scoring import BRISQUES, CardPoints, MatchEnd, ScoreBreakdown, StockBonuses, TargetEnd
from .state import DealResult, DealState, Phase, PlayerView, TableMeld, determinize
from .tricks import BeatRule, PlayDuty, TrickPolicy
from .trumps import TrumpOrder, TrumpTable
from .worlds import Worlds

__version__ = "0.2.0"
"""The package version."""

__all__ = [
    "BEZIQUE_CUT",
    "BRISQUES",
    "EUCHRE_CUT",
    "JOKER",
    "PINOCHLE_CUT",
    "Action",
    "ActionKind",
    "ActionSpace",
    "Agent",
    "ArgumentTypeError",
    "BeatRule",
    "BeziqueRulesError",
    "Card",
    "CardPoints",
    "CardSet",
    "CardsReceived",
    "CardsShown",
    "CutDecision",
    "CutDraw",
    "CutForDeal",
    "CutOutcome",
    "DealError",
    "DealOver",
    "DealPattern",
    "DealResult",
    "DealState",
    "DeckSpec",
    "DixRule",
    "Event",
    "FixedCards",
    "GameState",
    "HeuristicAgent",
    "IllegalActionError",
    "MatchEnd",
    "MeldKind",
    "MeldRules",
    "MeldTable",
    "Moved",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "Phase",
    "PhaseChanged",
    "PlayDuty",
    "PlayerView",
    "Preset",
    "Quartet",
    "RandomAgent",
    "Rank",
    "RecordError",
    "RuleCode",
    "RuleSet",
    "ScoreBreakdown",
    "ScoresChanged",
    "SearchAgent",
    "StockBonuses",
    "StockRules",
    "Suit",
    "SuitRun",
    "TableMeld",
    "TargetEnd",
    "TrickPolicy",
    "TrickWon",
    "TrumpOrder",
    "TrumpTable",
    "TrumpWith",
    "TrumpsFixed",
    "UnknownVariantError",
    "Verb",
    "Worlds",
    "__version__",
    "available_variants",
    "deal_seed",
    "determinize",
    "get_rules",
    "level",
    "new_deal",
    "new_game",
    "parse_cards",
    "record_of",
    "register_variant",
    "replay",
    "shuffle",
    "what_happened",
]
