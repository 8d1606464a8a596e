"""The leak check: nothing shown to a player that he may not know (issue 25).

For a state and a player, build *worlds* the player cannot tell from it, and compare
everything the library shows him across them:

- swap worlds, built independently of the library's own sampling: swap two cards of
  faces the player never saw (no copy of either face anywhere in his view) in the deck
  as dealt, deal it again and replay the whole history with every check on. A world
  whose replay is illegal (say the swap breaks a void the play showed) is not one he
  cannot tell apart: it is skipped, and counted;
- determinize worlds: `determinize(view, rng)`, the library's own sampling (a world must
  not be the real deal, and must show the player the same view).

The surfaces (`surfaces`): the view, its JSON (``to_dict`` where views have it, and
``attrs.asdict``, the obvious way to send one), the observation and information-state
tensors and strings, the SVG picture, OpenSpiel's strings, tensors, public observer,
player to act and legal actions (when ``pyspiel`` imports), PettingZoo's and Gymnasium's
observations (when installed), the built-in games' narration (`what_happened` and its
sentences) and the web page's JSON of the view, and whatever `EXTRA_SURFACES` adds. Two
worlds that differ on a surface are a *leak*.

This is a test-only oracle: the library never imports it. ``tests/test_leaks.py`` runs a
short form; ``benchmarks/leak_check.py`` the long one.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import attrs

from bezique_rules import DealState, available_variants, determinize, get_rules, new_deal, record_of, replay
from bezique_rules.engine.euchre import FarmersRound
from bezique_rules.state import PlayerView
from bezique_rules.state.observation import information_state_string, observation_string

PRESETS = tuple(available_variants(builtin=True))

HOUSE_RULES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("euchre", {"farmers_hand": "mixed"}),  # a holder's hidden pass, a shown swap
    ("british-euchre", {"farmers_hand": "nines_or_tens", "dealer_may_discard_upcard": False}),  # issue 25 cause 3
    ("euchre", {"dealer_pickup": "may", "lone_defender": "always", "partner_takeover": True}),
    ("auction-pinochle", {"bury_melded": True}),  # burials of melded cards
    ("double-deck-pinochle", {"pass_cards": 3, "pass_with_help": True}),  # cards passed between partners
    ("bezique", {"pending_declarations": True}),  # melds laid out, not yet scored
    ("pinochle", {"show_last_card": False}),  # the last stock card not shown
)
"""The house rules that change who sees what, one setup each."""

SETUPS: tuple[tuple[str, dict[str, Any]], ...] = tuple((v, {}) for v in PRESETS) + HOUSE_RULES
"""Every preset as it comes, then the house-rule setups."""


def setup_id(variant: str, options: dict[str, Any]) -> str:
    return variant + "".join(f" {k}={v}" for k, v in sorted(options.items()))


Surface = Callable[[DealState, int, "Context"], Any]
"""A surface: what ``player`` is shown of ``deal`` (anything comparable with ``==``)."""

EXTRA_SURFACES: dict[str, Surface] = {}
"""More surfaces by name, compared like the built-in ones (a front end of your own plugs in here)."""


NOT_SHOWN = "(not shown at this point)"
"""What a surface returns for a state its interface never shows the player (the Gymnasium
learner sees only his own turns): not compared."""


@dataclass
class Context:
    """What a surface may need besides the deal: the farmer's-hand round position the real
    state has (an adapter shows it; every world keeps it)."""

    asked: int = 0


@dataclass(frozen=True)
class Leak:
    setup: str
    seed: int
    moves: int
    player: int
    world: str
    surface: str
    detail: str

    def __str__(self) -> str:
        return (
            f"{self.setup} seed {self.seed} after {self.moves} moves, player {self.player}, "
            f"{self.world} world: {self.surface} differs ({self.detail})"
        )


@dataclass
class Tally:
    states: int = 0
    swap_worlds: int = 0
    swap_illegal: int = 0
    """Swap worlds skipped because their replay is illegal (not leaks)."""
    swap_shown: int = 0
    """Swap worlds skipped because they show the player a swapped card (not leaks)."""
    swap_none: int = 0
    """(state, player) pairs with fewer than two unseen faces: no swap world."""
    determinize_worlds: int = 0
    comparisons: int = 0
    """Surfaces compared (one surface of one world against the real state)."""
    leaks: list[Leak] = field(default_factory=list)
    bad_worlds: list[str] = field(default_factory=list)
    """determinize worlds that are the real deal or show another view (not leaks of a surface)."""

    def add(self, other: Tally) -> None:
        self.states += other.states
        self.swap_worlds += other.swap_worlds
        self.swap_illegal += other.swap_illegal
        self.swap_shown += other.swap_shown
        self.swap_none += other.swap_none
        self.determinize_worlds += other.determinize_worlds
        self.comparisons += other.comparisons
        self.leaks += other.leaks
        self.bad_worlds += other.bad_worlds

    def summary(self) -> str:
        return (
            f"{self.states} states, {self.swap_worlds} swap worlds (skipped: {self.swap_illegal} illegal replays, "
            f"{self.swap_shown} showing a swapped card; "
            f"{self.swap_none} player-states with nothing to swap), {self.determinize_worlds} determinize worlds, "
            f"{self.comparisons} surfaces compared, {len(self.leaks)} leaks, {len(self.bad_worlds)} bad worlds"
        )


# -- surfaces -------------------------------------------------------------------------------


def _view(deal: DealState, player: int, ctx: Context) -> PlayerView:
    return deal.view(player)


def _asdict(deal: DealState, player: int, ctx: Context) -> str:
    """``attrs.asdict`` of the view (issue 25 cause 4: it held the whole state): a deal in it
    stands for what a client could read from it, its deck order and moves."""
    fields = attrs.asdict(deal.view(player), recurse=False)
    return repr(
        {
            name: ("a deal", value.deck_order, value.moves) if isinstance(value, DealState) else value
            for name, value in fields.items()
        }
    )


def _to_dict(deal: DealState, player: int, ctx: Context) -> str:
    view = deal.view(player)
    to_dict: Callable[[], dict[str, Any]] | None = getattr(view, "to_dict", None)  # views gain it in issue 25
    if to_dict is None:
        return "(no to_dict)"
    return json.dumps(to_dict(), sort_keys=True)


def _tensors(deal: DealState, player: int, ctx: Context) -> tuple[list[float], list[float]]:
    return deal.view(player).observation_tensor(), deal.information_state_tensor(player)


def _strings(deal: DealState, player: int, ctx: Context) -> tuple[str, str]:
    view = deal.view(player)
    return observation_string(view), information_state_string(view)


def _svg(deal: DealState, player: int, ctx: Context) -> str:
    from bezique_rules.state.svg import render

    return render(deal.view(player))


SURFACES: dict[str, Surface] = {
    "view": _view,
    "view asdict": _asdict,
    "view to_dict JSON": _to_dict,
    "tensors": _tensors,
    "strings": _strings,
    "svg": _svg,
}


def _openspiel_surfaces() -> dict[str, Surface]:
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation
    except ImportError:
        return {}
    from bezique_rules.integrations._openspiel_games import game_name, game_parameters
    from bezique_rules.integrations.openspiel import register

    register()
    games: dict[Any, Any] = {}
    public = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )

    def openspiel(deal: DealState, player: int, ctx: Context) -> Any:
        rules = deal.rules
        if rules not in games:
            game = pyspiel.load_game(game_name(rules.name), game_parameters(rules))
            games[rules] = (game, make_observation(game, public))
        game, observer = games[rules]
        state = game.state_of(deal, ctx.asked)
        observer.set_from(state, player)
        to_act = state.current_player()
        return (
            state.observation_string(player),
            state.information_state_string(player),
            state.observation_tensor(player),
            state.information_state_tensor(player),
            observer.string_from(state, player),
            observer.tensor.tolist(),
            to_act,
            state.legal_actions() if to_act == player else [],
        )

    return {"openspiel": openspiel}


def _plain(value: Any) -> Any:
    """``value`` with numpy arrays as lists (comparable with ``==``)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    tolist: Callable[[], Any] | None = getattr(value, "tolist", None)
    return tolist() if tolist is not None else value


def _env_surfaces() -> dict[str, Surface]:
    try:  # the rl extra: without it there are no environments to compare
        for extra in ("numpy", "gymnasium", "pettingzoo"):
            importlib.import_module(extra)
        from bezique_rules.integrations.envs import aec_env, gym_env
    except ImportError:
        return {}
    envs: dict[Any, Any] = {}

    def pettingzoo(deal: DealState, player: int, ctx: Context) -> Any:
        """The AEC env holding the deal: the agent selected, and the player's observation and mask."""
        rules = deal.rules
        if rules not in envs:
            options: dict[str, Any] = dict(rules.options)
            envs[rules] = aec_env(rules.name, **options)
        env = envs[rules]
        env.state_now = deal
        env._begin()  # the env's own start of a table (agent selection, the farmer's-hand round)
        if env._farmers is not None:  # the round where the real state has it
            env._farmers = FarmersRound(deal, ctx.asked).over(deal)
            env.state_now = env._farmers.deal
            seat = env._farmers.current_player
            env.agent_selection = env.possible_agents[seat if seat is not None else 0]
        return env.agent_selection, _plain(env.observe(f"player_{player}"))

    def gymnasium(deal: DealState, player: int, ctx: Context) -> Any:
        """The learner's observation (with the trick features), shown at his turns only (the
        others' moves, a holder's farmer's-hand decision among them, are played in between,
        unseen)."""
        if deal.current_player != player:
            return NOT_SHOWN
        key = (deal.rules, player)
        if key not in envs:
            options: dict[str, Any] = dict(deal.rules.options)
            envs[key] = gym_env(deal.rules.name, seat=player, trick_features=True, **options)  # the trick fields too
        env = envs[key]
        env.state_now = deal
        return _plain(env._observe())  # what reset and step hand the learner

    return {"pettingzoo": pettingzoo, "gymnasium": gymnasium}


def _previous(deal: DealState) -> DealState:
    """``deal`` one move earlier: its deck dealt again and its moves but the last replayed."""
    rules = deal.rules
    before = new_deal(rules, deck=[rules.deck.card(pid) for pid in deal.deck_order], dealer=deal.dealer)
    if deal.setup.packet >= 0:
        before = before._with_cut_packet(deal.setup.packet)
    for _, action_id in deal.moves[:-1]:
        before = before.apply(action_id, check=False)
    return before


def _narration_surfaces() -> dict[str, Surface]:
    """What the built-in games tell and show the person: `what_happened` between his views
    before and after the last move (as events), the games' sentences from it
    (``play.match.narrate``), and the web page's JSON of his view (``play.web.view_json``:
    phase, legal moves, buttons, the picture with seat names and title, the scores)."""
    from bezique_rules import what_happened
    from bezique_rules.play.match import narrate, seat_names
    from bezique_rules.play.web import view_json

    def narration(deal: DealState, player: int, ctx: Context) -> Any:
        after = deal.view(player)
        before = _previous(deal).view(player) if deal.moves else after
        events = what_happened(before, after)
        names = seat_names(deal.rules, player)
        return tuple(events), tuple(narrate(deal.rules, names, before, after, events))

    def web_json(deal: DealState, player: int, ctx: Context) -> Any:
        names = seat_names(deal.rules, player)
        return json.dumps(view_json(deal.view(player), deal.rules, names, title=deal.rules.name), sort_keys=True)

    return {"narration": narration, "web JSON": web_json}


PAST_SURFACES = frozenset({"narration"})
"""Surfaces read from the viewer's previous view too (what happened between two views): a
`determinize` world agrees with the view it was made from, not with the views before it (the
card he drew last is not in his view), so they are compared on swap worlds only."""


def all_surfaces() -> dict[str, Surface]:
    return {**SURFACES, **_openspiel_surfaces(), **_env_surfaces(), **_narration_surfaces(), **EXTRA_SURFACES}


# -- worlds ---------------------------------------------------------------------------------


def _seen_faces(view: PlayerView) -> set[str]:
    """Every face anywhere in ``view`` (conservative: all copies of a face shown count as seen)."""
    cards: list[Any] = list(view.hand)
    for group in (*view.tabled, *view.known, *view.won):
        cards += list(group)
    cards += [*view.trick, *view.last_trick, *view.buried]
    if view.turn_up is not None:
        cards.append(view.turn_up)
    for meld in (*view.melds, *view.pending):
        cards += list(meld.cards)
    for _, action in view.history:
        cards += list(action.cards)
    return {str(c) for c in cards}


def swap_world(deal: DealState, player: int, rng: random.Random) -> DealState | str | None:
    """A world ``player`` cannot tell from ``deal``: two cards of faces he never saw swapped in
    the deck as dealt, the history replayed with checks. None: nothing to swap; "illegal":
    the replay is illegal, or a move is made by another seat; "shown": the world shows him
    one of the swapped cards (both are worlds he can tell apart)."""
    rules = deal.rules
    seen = _seen_faces(deal.view(player))
    cards = [rules.deck.card(pid) for pid in deal.deck_order]
    unseen = [i for i, c in enumerate(cards) if str(c) not in seen]
    if len({str(cards[i]) for i in unseen}) < 2:
        return None
    for _ in range(50):
        i, j = rng.sample(unseen, 2)
        if cards[i] != cards[j]:
            break
    else:
        return None
    cards[i], cards[j] = cards[j], cards[i]
    world = new_deal(rules, deck=cards, dealer=deal.dealer)
    if deal.setup.packet >= 0:  # six-pack's cut: the same public cut
        world = world._with_cut_packet(deal.setup.packet)
    try:
        for who, action_id in deal.moves:
            if world.current_player != who:  # the same move by another seat: another history
                return "illegal"
            world = world.apply(action_id)  # checked
    except Exception:  # an illegal replay: a world the player can tell apart
        return "illegal"
    if {str(cards[i]), str(cards[j])} & _seen_faces(world.view(player)):
        return "shown"  # the world shows him a swapped card (a meld made by "meld best"): he can tell
    return world


def _differs(a: Any, b: Any) -> str:
    sa, sb = str(a), str(b)
    if sa == sb:
        return "equal as text, unequal as values"
    k = next((k for k, (x, y) in enumerate(zip(sa, sb)) if x != y), min(len(sa), len(sb)))
    return f"{sa[max(0, k - 30) : k + 40]!r} vs {sb[max(0, k - 30) : k + 40]!r}"


# -- the check ------------------------------------------------------------------------------


def random_states(variant: str, options: dict[str, Any], seed: int, count: int) -> Iterable[tuple[int, DealState]]:
    """``count`` states of one random deal (seeded): (moves played, state), spread over the deal."""
    rng = random.Random(f"leaks:{seed}")
    deal = new_deal(get_rules(variant, **options), seed=seed)
    states = [deal]
    while not deal.is_over and len(states) < 600:
        deal = deal.apply(rng.choice(deal.legal_action_ids()))
        states.append(deal)
    picks = sorted(rng.sample(range(len(states)), min(count, len(states))))
    return [(k, states[k]) for k in picks]


def check_state(
    deal: DealState,
    *,
    setup: str,
    seed: int,
    moves: int,
    swaps: int,
    samples: int,
    surfaces: dict[str, Surface],
    rng: random.Random,
) -> Tally:
    """Compare every surface of ``deal`` with its worlds, for each player."""
    tally = Tally(states=1)
    ctx = Context(asked=FarmersRound.start(deal).asked)
    for player in range(deal.rules.players):
        real = {name: surface(deal, player, ctx) for name, surface in surfaces.items()}
        worlds: list[tuple[str, DealState]] = []
        for _ in range(swaps):
            world = swap_world(deal, player, rng)
            if world is None:
                tally.swap_none += 1
                break
            if world == "illegal":
                tally.swap_illegal += 1
                continue
            if world == "shown":
                tally.swap_shown += 1
                continue
            assert isinstance(world, DealState)
            tally.swap_worlds += 1
            worlds.append(("swap", world))
        view = deal.view(player)
        for _ in range(samples):
            where = f"{setup} seed {seed} after {moves} moves, player {player}"
            tally.determinize_worlds += 1
            try:
                world = determinize(view, random.Random(rng.getrandbits(32)))
            except Exception as exc:  # no world at all: report it
                tally.bad_worlds.append(f"{where}: determinize raised {type(exc).__name__}: {str(exc)[:160]}")
                continue
            if world is deal:  # (an equal deck order may be the only one the play leaves)
                tally.bad_worlds.append(f"{where}: determinize returned the real deal (issue 25 cause 3)")
            if world.view(player) != view:
                tally.bad_worlds.append(f"{where}: a determinize world shows another view")
                continue
            if not _replays(world):
                tally.bad_worlds.append(f"{where}: a determinize world's history is illegal (issue 25 cause 3)")
                continue
            worlds.append(("determinize", world))
        for kind, world in worlds:
            for name, surface in surfaces.items():
                if kind == "determinize" and name in PAST_SURFACES:
                    continue
                try:
                    shown = surface(world, player, ctx)
                except Exception as exc:  # a surface that fails on a world: report it
                    shown = f"raised {type(exc).__name__}: {exc}"
                if NOT_SHOWN in (shown, real[name]):
                    continue
                tally.comparisons += 1
                if shown != real[name]:
                    tally.leaks.append(Leak(setup, seed, moves, player, kind, name, _differs(real[name], shown)))
    return tally


def _replays(world: DealState) -> bool:
    """Whether ``world``'s history is legal: its record replays, with checks, to a deal with
    the same moves that every player sees as he sees the world (a record names cards, so the
    physical copies of identical cards may be numbered otherwise)."""
    try:
        again = replay(record_of(world))
    except Exception:
        return False
    assert isinstance(again, DealState)
    return again.moves == world.moves and all(again.view(p) == world.view(p) for p in range(world.rules.players))


def check_setup(
    variant: str,
    options: dict[str, Any],
    *,
    seeds: Iterable[int],
    states: int,
    swaps: int,
    samples: int,
    surfaces: dict[str, Surface] | None = None,
) -> Tally:
    """The leak check over random states of deals of one setup."""
    surfaces = all_surfaces() if surfaces is None else surfaces
    tally = Tally()
    name = setup_id(variant, options)
    for seed in seeds:
        rng = random.Random(f"worlds:{seed}")
        for moves, deal in random_states(variant, options, seed, states):
            tally.add(
                check_state(
                    deal, setup=name, seed=seed, moves=moves, swaps=swaps, samples=samples, surfaces=surfaces, rng=rng
                )
            )
    return tally
