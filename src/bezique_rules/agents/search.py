"""`SearchAgent`: determinized information-set Monte Carlo tree search (ISMCTS).

Every iteration deals the hidden cards at random (`bezique_rules.Worlds`, built once per
decision: a world consistent with everything the player's view shows) and plays on in that
world; the statistics of the actions are shared by all worlds (single-observer
ISMCTS: only the actions legal in the current world compete, and UCB counts how
often each was available).

In the stock games (Bezique and its relatives, two-hand Pinochle) the search is
guided by the heuristic:

* only the heuristic's favourite actions are compared (``width``), in rounds:
  each round samples one world and tries every candidate in it with the same
  rollout randomness, so that the candidates are compared on equal cards;
* below each candidate a tree grows as deep as ``depth`` allows;
* rollouts are played by the heuristic itself for ``horizon`` more tricks, then
  the deal is estimated (points scored, card points won, meld prospects of both
  hands) instead of being played to the end;
* once the stock is gone nothing is hidden any more, and the play-off is solved
  exactly (see `endgame`).

In the other games (the Pinochle auctions, Euchre) it is plain ISMCTS with random
rollouts to the end of the deal. Results are scaled to [-1, 1]: a deal's margin
(squashed by a typical margin of the variant) or, in the short match of
``bezique-match``, what the deal means for the match.
"""

from __future__ import annotations

import math
import random
import time

import attrs

from ..actions import Action
from ..parts.scoring import MatchEnd
from ..rules.ruleset import RuleSet
from ..state.deal import DealState, PlayerView
from ..state.worlds import Worlds
from .base import choose_in_worlds
from .strategy import AgentStrategy, Rollout, RolloutKind, random_rollout, strategy_for

__all__ = ["SearchAgent", "reward_scale"]


STEPS_PER_ITERATION = 16
"""Outside the stock games the budget is ``iterations`` times this many actions played."""


class _Node:
    """A node of the search tree: the statistics of the action that led to it."""

    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        """Who took the action leading here (-1 at the root)."""
        self.children: dict[int, _Node] = {}
        """Action id to child."""
        self.visits = 0
        """How often the action was tried."""
        self.total = 0.0
        """The sum of the results for ``player``."""
        self.avail = 0
        """How often the action was legal when its parent was visited."""


def reward_scale(rules: RuleSet) -> float:
    """A typical winning margin of one deal of ``rules`` (results are squashed by it)."""
    return strategy_for(rules).reward_scale(rules)


@attrs.frozen
class _Judge:
    """Turns the final scores of a deal into a result in [-1, 1] for each player."""

    rules: RuleSet
    scale: float
    before: tuple[int, ...] | None
    first_of_match: bool
    last_of_match: bool
    lead: int

    @classmethod
    def of(cls, rules: RuleSet, view: PlayerView) -> _Judge:
        before = view.game_scores
        end = rules.game_end
        first = last = False
        lead = 0
        if isinstance(end, MatchEnd) and before is not None:
            first = not any(before)
            last = not first or end.deals == 1
            lead = end.lead
        return cls(rules, reward_scale(rules), before, first, last, lead)

    def results(self, scores: tuple[float, ...]) -> list[float]:
        rules = self.rules
        totals: tuple[float, ...] = scores
        if self.before is not None and (self.first_of_match or self.last_of_match):
            totals = tuple(b + s for b, s in zip(self.before, scores))
        per_side = []
        for s in range(len(totals)):
            others = max(t for i, t in enumerate(totals) if i != s)
            diff = totals[s] - others
            if self.last_of_match:
                v = 0.75 * ((diff > 0) - (diff < 0)) + 0.25 * math.tanh(diff / self.scale)
            elif self.first_of_match and self.lead:
                v = max(-1.0, min(1.0, diff / self.lead))
            else:
                v = math.tanh(diff / self.scale)
            per_side.append(v)
        return [per_side[rules.side_of(p)] for p in range(rules.players)]


@attrs.frozen
class SearchAgent:
    """Determinized information-set Monte Carlo tree search.

    Works for every preset. The agent's randomness (the worlds it samples, its
    rollouts) comes only from the ``rng`` given to `choose`: the same rng state
    gives the same choice when the budget is a number of iterations.

    >>> import random
    >>> from bezique_rules import new_deal
    >>> from bezique_rules.agents import SearchAgent
    >>> deal = new_deal("bezique", seed=1)
    >>> action = SearchAgent(iterations=20).choose(deal.view(0), random.Random(0))
    >>> deal.is_legal(action)
    True
    """

    iterations: int = 64
    """The budget: rollouts per decision (ignored when ``seconds`` is set)."""
    seconds: float | None = None
    """A time budget per decision instead of an iteration count (not reproducible)."""
    exploration: float = 0.7
    """The UCB exploration constant (results lie in [-1, 1])."""
    rollout: RolloutKind = "heuristic"
    """Rollout policy: ``"heuristic"`` (the heuristic in the stock games, random moves
    elsewhere), ``"fast"`` (a faster, weaker heuristic in the stock games) or ``"random"``."""
    endgame: bool = True
    """Solve the two-player play-off exactly once the stock is gone."""
    endgame_nodes: int = 3000
    """The largest play-off searched exactly (positions); larger ones are sampled."""
    horizon: int | None = 1
    """Stock games: stop a rollout after this many more tricks and estimate the result
    (points so far, card points won, meld prospects); None plays to the end."""
    width: int | None = 4
    """Stock games: compare only the heuristic's favourite actions (this many); None: all."""
    depth: int = 1
    """Tree depth below each candidate (1: flat Monte Carlo, each candidate played out)."""
    confidence: float = 1.0
    """Stock games: leave the heuristic's favourite only for a candidate that does better on
    the same worlds by this many standard errors (0: take the best average)."""
    weight: float = 0.6
    """Stock games: the weight of meld prospects in that estimate."""
    holding: float = 0.5
    """Stock games: the share of the card points of the cards held counted in that estimate."""
    inference: int = 0
    """Stock games: weigh each sampled world by how well it explains the opponent's last
    this many card plays (0: every world counts the same)."""
    mismatch: float = 0.3
    """The weight factor of each of those plays the heuristic would not have made in the world."""
    name: str = "search"
    """A name for reports."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The best action found by the search (the only one when it is forced).

        Raises:
            IllegalActionError: it is not this player's turn.
            ArgumentTypeError: ``view`` or ``rng`` of the wrong type.
        """
        return choose_in_worlds(view, rng, lambda worlds, world: self._best(worlds, world, rng))

    def _best(self, worlds: Worlds, world: DealState, rng: random.Random) -> Action:
        """The exact play-off's choice where the strategy has one and it is small enough,
        else the search's."""
        rules = world.rules
        actions = rules.action_space.actions
        strategy = strategy_for(rules)
        if self.endgame and strategy.endgame is not None:
            exact = strategy.endgame(world, self.endgame_nodes)
            if exact is not None:
                best = max(exact.values())
                ids = sorted(i for i, v in exact.items() if v == best)
                return actions[ids[0]]
        best_id = self._search(worlds, world, strategy, rng)
        return actions[best_id]

    def _policy(self, strategy: AgentStrategy) -> Rollout:
        found = strategy.rollouts(self.rollout) if strategy.rollouts is not None else None
        return random_rollout if found is None else found

    def _search(self, worlds: Worlds, first: DealState, strategy: AgentStrategy, rng: random.Random) -> int:
        view = worlds.view
        judge = _Judge.of(first.rules, view)
        policy = self._policy(strategy)
        if strategy.ranking is None:
            return self._tree_search(worlds, first, strategy, policy, judge, rng)
        # the heuristic's favourites, compared on the same worlds
        if self.width is not None:
            candidates = strategy.ranking(first, rng)[: max(1, self.width)]
        else:
            candidates = list(first.legal_action_ids())
        if len(candidates) == 1:
            return candidates[0]
        me = view.player
        nodes = {a: _Node(me) for a in candidates}
        results: dict[int, list[float]] = {a: [] for a in candidates}
        weights: list[float] = []
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        rounds = max(2, self.iterations // len(candidates))
        done = 0
        world: DealState = first
        while True:
            if done:
                world = worlds.sample(rng)
            seed = rng.getrandbits(48)
            likely = strategy.likelihood
            weights.append(likely(world, me, self.inference, self.mismatch) if self.inference and likely else 1.0)
            for a in candidates:
                # the same world and the same rollout randomness for every candidate
                after = world.apply(a, check=False)
                value = self._descend(nodes[a], after, strategy, policy, judge, random.Random(seed))
                results[a].append(value)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline and done >= 2:
                    break
            elif done >= rounds:
                break
        return _paired_choice(candidates, results, self.confidence, weights)

    def _tree_search(
        self,
        worlds: Worlds,
        first: DealState,
        strategy: AgentStrategy,
        policy: Rollout,
        judge: _Judge,
        rng: random.Random,
    ) -> int:
        """Plain ISMCTS from the root: one world per iteration, UCB over the actions legal in it.

        The budget counts actions played rather than iterations (``STEPS_PER_ITERATION`` per
        iteration), so that games with long deals get fewer, equally costly iterations."""
        root = _Node(-1)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        steps = [0]
        budget = max(1, self.iterations) * STEPS_PER_ITERATION
        world = first
        while True:
            if done:
                world = worlds.sample(rng)
            self._descend(root, world, strategy, policy, judge, rng, widen=False, limit=1 << 30, counter=steps)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif steps[0] >= budget and done >= 2:
                break

        def rank(a: int) -> tuple[int, float]:
            child = root.children.get(a)
            if child is None or not child.visits:
                return (0, -math.inf)
            return (child.visits, child.total / child.visits)

        return max(first.legal_action_ids(), key=rank)

    def _descend(
        self,
        node: _Node,
        state: DealState,
        strategy: AgentStrategy,
        policy: Rollout,
        judge: _Judge,
        rng: random.Random,
        *,
        widen: bool = True,
        limit: int | None = None,
        counter: list[int] | None = None,
    ) -> float:
        """One iteration below a root candidate: walk the tree (UCB over the actions legal in
        this world, a new child only as the visits grow), play out, back up; the result for
        the player who chose the candidate."""
        path = [node]
        c = self.exploration
        depth = 1
        limit = self.depth if limit is None else limit
        while not state.is_over and depth < limit:
            legal = state.legal_action_ids()
            player = state.current_player
            assert player is not None
            children = node.children
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            known = [a for a in legal if a in children]
            if len(known) < len(legal) and (not widen or len(known) <= math.isqrt(node.visits)):
                guess = policy(state, rng)
                if guess in children:
                    untried = [a for a in legal if a not in children]
                    guess = untried[rng.randrange(len(untried))]
                child = _Node(player)
                child.avail = 1
                children[guess] = child
                path.append(child)
                state = state.apply(guess, check=False)
                break
            best_a, best_u = known[0], -math.inf
            for a in known:
                child = children[a]
                u = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if u > best_u:
                    best_a, best_u = a, u
            node = children[best_a]
            path.append(node)
            state = state.apply(best_a, check=False)
            depth += 1
        results = self._play_out(state, strategy, policy, judge, rng, counter)
        for n in path:
            if n.player >= 0:
                n.visits += 1
                n.total += results[n.player]
        return results[path[0].player] if path[0].player >= 0 else 0.0

    def _play_out(
        self,
        state: DealState,
        strategy: AgentStrategy,
        policy: Rollout,
        judge: _Judge,
        rng: random.Random,
        counter: list[int] | None = None,
    ) -> list[float]:
        """Play the rollout policy to the end of the deal, or, where the strategy can estimate
        (the stock games), for ``horizon`` tricks and then estimate."""
        start = len(state.moves)
        clock, estimate = strategy.clock, strategy.estimate
        if clock is not None and estimate is not None and self.horizon is not None:
            stop = clock(state) + self.horizon
            while not state.is_over:
                if clock(state) >= stop:
                    guess = estimate(state, self.weight, self.holding)
                    if guess is not None:
                        return judge.results(guess)
                state = state.apply(policy(state, rng), check=False)
        while not state.is_over:
            state = state.apply(policy(state, rng), check=False)
        if counter is not None:
            counter[0] += len(state.moves) - start + 1
        return judge.results(state.scores)


def _paired_choice(
    candidates: list[int], results: dict[int, list[float]], z: float, weights: list[float] | None = None
) -> int:
    """The candidate with the best (weighted) average, unless its edge over the first (the
    heuristic's favourite), measured world by world, is within ``z`` standard errors of nothing."""
    favourite = candidates[0]
    w = weights if weights else [1.0] * len(results[favourite])
    total = sum(w)

    def mean_of(a: int) -> float:
        return sum(wi * x for wi, x in zip(w, results[a])) / total

    best = max(candidates, key=lambda a: (mean_of(a), a == favourite))
    if best == favourite:
        return favourite
    diffs = [x - y for x, y in zip(results[best], results[favourite])]
    mean = sum(wi * d for wi, d in zip(w, diffs)) / total
    n_eff = total * total / sum(wi * wi for wi in w)
    var = sum(wi * (d - mean) ** 2 for wi, d in zip(w, diffs)) / total * n_eff / max(1.0, n_eff - 1)
    return best if mean > z * math.sqrt(var / n_eff) else favourite
