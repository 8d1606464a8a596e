"""Computer players: the Agent protocol, random / heuristic / search agents, the levels, the arena."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from bezique_rules import (
    Action,
    DealState,
    GameState,
    IllegalActionError,
    Phase,
    Verb,
    available_variants,
    determinize,
    get_rules,
    new_deal,
    new_game,
)
from bezique_rules.agents import (
    AGENT_NAMES,
    Agent,
    ArenaResult,
    GameOutcome,
    HeuristicAgent,
    RandomAgent,
    SearchAgent,
    level,
    make_agent,
    play_arena,
    play_pairing,
)
from bezique_rules.agents.arena import seatings
from bezique_rules.agents.base import choose_in_world
from bezique_rules.agents.endgame import playoff_values
from bezique_rules.agents.stockplay import stock_evaluate
from bezique_rules.engine.stock import StockDeal
from scenario import run, stock_deal, stock_game

TINY_SEARCH = SearchAgent(iterations=3, endgame_nodes=300, name="tiny")
"""A search agent cheap enough to run through whole deals in tests."""


def play_through(state: DealState, agents: list[Agent], seed: int, limit: int = 5000) -> DealState:
    """Play a deal to its end, seat p played by agents[p % len(agents)], every action checked."""
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        p = state.current_player
        assert p is not None
        action = agents[p % len(agents)].choose(state.view(p), rng)
        assert action in state.legal_actions()
        state = state.apply(action)
        steps += 1
        assert steps < limit
    return state


# -- the protocol ---------------------------------------------------------------------------


def test_every_agent_satisfies_the_protocol() -> None:
    """RandomAgent, HeuristicAgent, SearchAgent and every level have choose(view, rng) -> Action."""
    agents: list[object] = [RandomAgent(), HeuristicAgent(), HeuristicAgent(strength="weak"), SearchAgent()]
    agents += [level(n) for n in range(1, 6)]
    for agent in agents:
        assert isinstance(agent, Agent)


def test_levels_are_named_and_distinct() -> None:
    """level(n) for n = 1..5: random, weak heuristic, medium heuristic, full heuristic, search."""
    agents = [level(n) for n in range(1, 6)]
    assert [getattr(a, "name", None) for a in agents] == ["level1", "level2", "level3", "level4", "level5"]
    assert isinstance(agents[0], RandomAgent)
    assert agents[1] == HeuristicAgent(strength="weak", name="level2")
    assert agents[2] == HeuristicAgent(strength="medium", name="level3")
    assert agents[3] == HeuristicAgent(name="level4")
    assert isinstance(agents[4], SearchAgent)


def test_heuristic_strength_is_checked() -> None:
    """HeuristicAgent's strength is one of weak, medium, full; anything else is refused at once."""
    with pytest.raises(ValueError, match="strength"):
        HeuristicAgent(strength="expert")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0, 6, -1, True])
def test_level_outside_one_to_five_is_refused(bad: int) -> None:
    """level(n) raises ValueError outside 1..5."""
    with pytest.raises(ValueError, match="1 to 5"):
        level(bad)


def test_agents_by_name() -> None:
    """make_agent knows every name of AGENT_NAMES and refuses others, listing the known names."""
    assert AGENT_NAMES == ("random", "heuristic", "search", "level1", "level2", "level3", "level4", "level5")
    for name in AGENT_NAMES:
        assert isinstance(make_agent(name), Agent)
    assert make_agent("Level3") == level(3)
    with pytest.raises(ValueError, match="random, heuristic, search"):
        make_agent("genius")


def test_agents_refuse_to_move_out_of_turn() -> None:
    """An agent asked to move for a player who is not to act raises (its view has no legal action)."""
    deal_ = new_deal("bezique", seed=1)
    for agent in (RandomAgent(), HeuristicAgent(), TINY_SEARCH):
        with pytest.raises(Exception, match="nothing to do"):
            agent.choose(deal_.view(1), random.Random(0))


# -- every preset ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", available_variants())
def test_random_and_heuristic_agents_play_every_preset(variant: str) -> None:
    """Random and heuristic agents play a whole deal of every preset with legal actions only."""
    end = play_through(
        new_deal(variant, seed=11), [HeuristicAgent(), RandomAgent(), HeuristicAgent(strength="weak")], 11
    )
    assert end.is_over and end.result is not None


@pytest.mark.parametrize("variant", available_variants())
def test_search_agent_chooses_legal_actions_in_every_preset(variant: str) -> None:
    """The search agent picks a legal action at decisions all through a deal of every preset."""
    state = new_deal(variant, seed=5)
    rng = random.Random(5)
    asked = 0
    while not state.is_over:
        p = state.current_player
        assert p is not None
        view = state.view(p)
        if len(view.legal_actions()) > 1 and asked < 4 and (rng.random() < 0.3 or asked == 0):
            action = TINY_SEARCH.choose(view, rng)
            asked += 1
        else:
            action = RandomAgent().choose(view, rng)
        assert state.is_legal(action)
        state = state.apply(action)
    assert asked > 0


def test_search_plays_a_whole_bezique_deal() -> None:
    """A whole two-hand Bezique deal between the search agent and the heuristic ends normally."""
    end = play_through(new_deal("bezique-match", seed=3), [TINY_SEARCH, HeuristicAgent()], 3)
    assert end.is_over


def test_agents_play_whole_games() -> None:
    """Agents take a game's view (with game_scores) as well as a deal's: a bezique-match game plays out."""
    game = new_game("bezique-match", seed=8)
    rng = random.Random(8)
    agents: list[Agent] = [level(2), level(3)]
    while not game.is_over:
        p = game.current_player
        assert p is not None
        view = game.view(p)
        assert view.game_scores is not None
        game = game.apply(agents[p].choose(view, rng))
    assert game.is_over and len(game.results) in (1, 2)


# -- views only, reproducibility --------------------------------------------------------------


def _two_lookalikes() -> tuple[DealState, DealState, int]:
    """Two deals that look the same to the player to move, with other hidden cards."""
    state = new_deal("bezique", seed=21)
    rng = random.Random(2)
    for _ in range(13):
        state = state.apply(HeuristicAgent().choose(state.view(state.current_player or 0), rng))
    while len(state.legal_actions()) == 1:  # a forced pass is no choice: go on to a real one
        state = state.apply(state.legal_actions()[0])
    p = state.current_player
    assert p is not None
    other = determinize(state.view(p), random.Random(99))
    assert other.view(p) == state.view(p)
    assert isinstance(state, StockDeal) and isinstance(other, StockDeal)
    assert other.hands != state.hands
    return state, other, p


@pytest.mark.parametrize("agent", [RandomAgent(), HeuristicAgent(), HeuristicAgent(strength="weak")])
def test_agents_see_only_the_view(agent: Agent) -> None:
    """Two deals that look the same to the player (other hidden cards) get the same choice from the same rng."""
    state, other, p = _two_lookalikes()
    assert agent.choose(state.view(p), random.Random(7)) == agent.choose(other.view(p), random.Random(7))


def test_search_sees_the_hidden_cards_only_through_determinize(monkeypatch: pytest.MonkeyPatch) -> None:
    """Given the same sampled worlds, the search chooses alike from two lookalike deals: it reads nothing else."""
    from bezique_rules.state.worlds import Worlds

    state, other, p = _two_lookalikes()
    worlds = [determinize(state.view(p), random.Random(k)) for k in range(40)]
    calls: list[int] = []

    def fixed_worlds(self: Worlds, rng: random.Random) -> DealState:
        calls.append(1)
        return worlds[len(calls) % len(worlds)]

    # every world the agent samples (the first, `choose_in_worlds`, and the search's further ones)
    monkeypatch.setattr(Worlds, "sample", fixed_worlds)
    agent = SearchAgent(iterations=16)
    first = agent.choose(state.view(p), random.Random(7))
    used = len(calls)
    calls.clear()
    assert agent.choose(other.view(p), random.Random(7)) == first
    assert len(calls) == used > 1


def test_choose_in_world_plays_a_forced_action_without_sampling() -> None:
    """`choose_in_world` returns the only legal action without sampling a world (the rng is
    untouched), and otherwise what ``decide`` makes of one world consistent with the view."""
    seen: list[DealState] = []

    def last_legal(world: DealState) -> Action:
        seen.append(world)
        return world.legal_actions()[-1]

    state = new_deal("bezique", seed=1)
    forced, walk = state, random.Random(0)
    while len(forced.legal_actions()) != 1:
        forced = forced.apply(walk.choice(forced.legal_actions()))
    player = forced.current_player
    assert player is not None
    rng = random.Random(3)
    before = rng.getstate()
    assert choose_in_world(forced.view(player), rng, last_legal) == forced.legal_actions()[0]
    assert rng.getstate() == before and not seen
    view = state.view(0)
    assert choose_in_world(view, random.Random(3), last_legal) == view.legal_actions()[-1]
    assert len(seen) == 1 and seen[0].view(0) == view
    with pytest.raises(IllegalActionError, match="nothing to do"):
        choose_in_world(state.view(1), random.Random(3), last_legal)


def test_search_is_reproducible_from_its_rng() -> None:
    """With an iteration budget the search agent's choice depends only on the rng's state."""
    state = new_deal("bezique-match", seed=4)
    agent = SearchAgent(iterations=24)
    picks = {str(agent.choose(state.view(0), random.Random(s))) for s in (3, 3, 3)}
    assert len(picks) == 1


def test_search_time_budget() -> None:
    """A search agent with a time budget answers within about that time."""
    import time

    state = new_deal("bezique-match", seed=4)
    start = time.perf_counter()
    action = SearchAgent(seconds=0.05).choose(state.view(0), random.Random(0))
    assert time.perf_counter() - start < 2.0
    assert state.is_legal(action)


# -- the heuristic follows the strategy advice ---------------------------------------------------


def choice(state: StockDeal, agent: Agent | None = None) -> str:
    """The (full) heuristic's choice for the player to move, as notation."""
    p = state.current_player
    assert p is not None
    return str((agent or HeuristicAgent()).choose(state.view(p), random.Random(0)))


def test_heuristic_wins_a_brisque_with_the_cheapest_winner() -> None:
    """A ten led is won, with the plain ace rather than the trump ace (hearts trumps)."""
    s = stock_game("bezique-match", p0="TC", p1="AC AH 7S 8S 8D 9D 7D 9S", turn_up="9H")
    s = run(s, "play TC")
    assert choice(s) == "play AC"


def test_heuristic_throws_a_seven_when_nothing_is_at_stake() -> None:
    """A worthless lead with nothing to declare: keep the trumps, give away a seven or an eight."""
    s = stock_game("bezique-match", p0="9C", p1="8H 9H 7S 8S 8D 9D 7D 9S", turn_up="9H")
    s = run(s, "play 9C")
    assert choice(s) in ("play 7S", "play 7D", "play 8S", "play 8D")


def test_heuristic_wins_the_trick_when_a_meld_is_waiting() -> None:
    """With the royal marriage in hand a low trump wins a worthless trick, so that the marriage can be declared."""
    s = stock_game("bezique-match", p0="9C", p1="KH QH 8H 7S 8S 8D 9D 7D", turn_up="9H")
    s = run(s, "play 9C")
    assert choice(s) == "play 8H"


def test_heuristic_declares_the_royal_marriage_before_the_sequence() -> None:
    """Holding A T K Q J of trumps early in the deal: royal marriage first (40 + 250 later)."""
    s = stock_game("bezique-match", p0="KH QH AH TH JH 9S 9D", p1="8C 8C", turn_up="9H")
    s = run(s, "play 9S; play 8C")
    assert choice(s) == "meld royal-marriage KH QH"


def test_heuristic_declares_the_single_bezique_before_the_double() -> None:
    """Holding both pairs early in the deal: single bezique first (40 + 500 later)."""
    s = stock_game("bezique-match", p0="QS JD QS JD 9S 9D 9C", p1="8C 8C 8D", turn_up="9H")
    s = run(s, "play 9S; play 8C")
    assert choice(s) == "meld bezique QS JD"


def test_search_declares_the_royal_marriage_before_the_sequence() -> None:
    """Seed 001's tip, level 5: at trick 1 the royal marriage (40 now, the sequence's 250 later), not the sequence."""
    s = stock_game("bezique-match", p0="KH QH AH TH JH 9S 9D", p1="8C 8C", turn_up="9H")
    s = run(s, "play 9S; play 8C")
    for seed in range(3):
        assert str(level(5).choose(s.view(0), random.Random(seed))) == "meld royal-marriage KH QH"


def test_search_declares_the_single_bezique_before_the_double() -> None:
    """Seed 001's tip, level 5: at trick 1 the single bezique first (40 now, the double's 500 later), not the double."""
    s = stock_game("bezique-match", p0="QS JD QS JD 9S 9D 9C", p1="8C 8C 8D", turn_up="9H")
    s = run(s, "play 9S; play 8C")
    for seed in range(3):
        assert str(level(5).choose(s.view(0), random.Random(seed))) == "meld bezique QS JD"


def test_search_then_declares_the_sequence_on_top() -> None:
    """The second step of the plan: with the royal marriage declared, the next trick won adds the sequence (250)."""
    s = stock_game("bezique-match", p0="KH QH AH TH JH 9S 9D 9D", p1="8C 8C 8D 8D", turn_up="9H")
    s = run(s, "play 9S; play 8C; meld royal-marriage KH QH; play 9D; play 8D")
    assert str(level(5).choose(s.view(0), random.Random(0))) == "meld sequence AH TH KH* QH* JH"


def test_stock_evaluation_values_the_upgrade_still_in_hand() -> None:
    """The rollout estimate counts a sequence still to grow from a declared royal marriage at nearly its 250
    (one more trick won before the stock runs out), and no royal marriage from a declared sequence (no step down)."""
    s = stock_game("bezique-match", p0="KH QH AH TH JH 9S 9D", p1="8C 8C", turn_up="9H")
    s = run(s, "play 9S; play 8C")
    marriage = stock_deal(run(s, "meld royal-marriage KH QH"))
    sequence = stock_deal(run(s, "meld sequence AH TH KH QH JH"))
    assert stock_evaluate(marriage)[0] > stock_evaluate(sequence)[0]
    assert stock_evaluate(marriage, weight=0.0, holding=0.0)[0] == 40.0
    assert stock_evaluate(sequence, weight=0.0, holding=0.0)[0] == 250.0


def test_heuristic_exchanges_the_trump_seven_for_a_good_turn_up() -> None:
    """The trump seven is exchanged for the turned-up ace of trumps."""
    s = run(stock_game("bezique", p0="7H 9S", p1="8C", turn_up="AH"), "play 9S; play 8C")
    assert choice(s) == "exchange 7H"


def test_heuristic_counts_the_cards_in_the_play_off() -> None:
    """In the play-off the heuristic follows suit with the cheapest card that wins."""
    state = new_deal("bezique-match", seed=30)
    rng = random.Random(30)
    checked = 0
    agent = HeuristicAgent()
    while not state.is_over and checked < 6:
        p = state.current_player
        assert p is not None
        view = state.view(p)
        action = agent.choose(view, rng)
        if view.phase is Phase.PLAYOFF and view.trick:
            rules = state.rules
            assert isinstance(state, StockDeal)
            table = rules.trump_tables[state.trump]
            pid = {a: state.rules.deck.face_masks[state.rules.deck.face(a.cards[0])] for a in view.legal_actions()}
            led = state.trick[0]
            beaters = [a for a, m in pid.items() if table.beats((m & -m).bit_length() - 1, led)]
            if beaters:
                assert action in beaters
                powers = [table.power[(pid[a] & -pid[a]).bit_length() - 1] for a in beaters]
                assert table.power[(pid[action] & -pid[action]).bit_length() - 1] == min(powers)
                checked += 1
        state = state.apply(action)
    assert checked > 0


def test_heuristic_bids_and_melds_in_auction_pinochle() -> None:
    """In the auction presets the heuristic bids only on a hand worth it and lays down its best melds."""
    agent = HeuristicAgent()
    bids = 0
    for seed in range(6):
        state = new_deal("auction-pinochle", seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            action = agent.choose(state.view(p), rng)
            if action.verb is Verb.BID:
                bids += 1
            if state.phase is Phase.MELD:
                assert action == Action(Verb.MELD, meld="best")
            state = state.apply(action)
    assert bids > 0


# -- the search's tools ---------------------------------------------------------------------


def _minimax(state: StockDeal, me: int) -> int:
    """Card points ``me`` wins minus the opponent's in the rest of the deal, both playing best (brute force)."""
    if state.is_over:
        won = [sum(state.rules.card_values[c] for c in range(state.rules.deck.size) if w >> c & 1) for w in state.won]
        last = state.breakdown
        return won[me] + last[me].last_trick - won[1 - me] - last[1 - me].last_trick
    values = [_minimax(state.apply(a, check=False), me) for a in state.legal_action_ids()]
    return max(values) if state.current_player == me else min(values)


def test_play_off_solver_matches_brute_force() -> None:
    """The exact play-off values agree with a brute-force minimax over the last three tricks."""
    checked = 0
    for seed in range(4):
        state = new_deal("bezique-match", seed=seed)
        rng = random.Random(seed)
        while not (state.phase is Phase.PLAYOFF and len(state.view(0).hand) + len(state.view(1).hand) <= 6):
            state = state.apply(rng.choice(state.legal_actions()))
        assert isinstance(state, StockDeal)
        me = state.current_player
        assert me is not None
        values = playoff_values(state)
        assert values is not None
        before = _minimax(state, me) - _minimax_base(state, me)
        assert max(values.values()) == before
        for a, v in values.items():
            after = state.apply(a, check=False)
            assert isinstance(after, StockDeal)
            assert v == _minimax(after, me) - _minimax_base(state, me)
        checked += 1
    assert checked == 4


def _minimax_base(state: StockDeal, me: int) -> int:
    won = [sum(state.rules.card_values[c] for c in range(state.rules.deck.size) if w >> c & 1) for w in state.won]
    return won[me] - won[1 - me]


def test_play_off_solver_declines_large_positions() -> None:
    """The solver returns None outside a two-player play-off, or over its position limit."""
    state = new_deal("bezique", seed=2)
    assert isinstance(state, StockDeal)
    assert playoff_values(state) is None
    rng = random.Random(2)
    while state.phase is not Phase.PLAYOFF:
        state = state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, StockDeal)
    assert playoff_values(state, node_limit=1) is None


def test_stock_evaluation_counts_scores_and_won_cards() -> None:
    """The rollout estimate adds the points scored and the card points won (prospects weigh nothing at 0)."""
    state = new_deal("bezique", seed=6)
    rng = random.Random(6)
    for _ in range(30):
        state = state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, StockDeal)
    values = state.rules.card_values
    expected = tuple(
        float(state.scores[p] + sum(values[c] for c in range(state.rules.deck.size) if state.won[p] >> c & 1))
        for p in range(2)
    )
    assert stock_evaluate(state, weight=0.0, holding=0.0) == expected
    assert all(a >= b for a, b in zip(stock_evaluate(state), expected))


# -- strength (a small sample; the full table is benchmarks/arena.py) ----------------------------


def test_heuristic_beats_random() -> None:
    """The heuristic wins most bezique-match matches against random play (8 matches, seats swapped)."""
    result = play_arena("bezique-match", "heuristic", "random", deals=4, seed=3)
    assert result.games == 8
    assert result.wins >= 7


# -- the arena -------------------------------------------------------------------------------


def test_seatings() -> None:
    """Seats swap: (0,), (1,) with two players; a whole side with partners; each seat with three players."""
    assert seatings(get_rules("bezique-match")) == ((0,), (1,))
    assert seatings(get_rules("euchre")) == ((0, 2), (1, 3))
    assert seatings(get_rules("auction-pinochle")) == ((0,), (1,), (2,))


def test_pairing_plays_each_deal_seed_once_per_seating() -> None:
    """play_pairing plays the same deal seed with A in seat 0, then in seat 1; match presets play matches."""
    out = play_pairing("bezique-match", "level2", "random", seed=1, number=3)
    assert [(o.number, o.seating) for o in out] == [(3, 0), (3, 1)]
    assert all(o.deals in (1, 2) for o in out)
    single = play_pairing("bezique", "random", "random", seed=1, number=3)
    assert all(o.deals == 1 for o in single)


def test_arena_same_seed_same_result_whatever_the_jobs() -> None:
    """The same seed gives the same games with one job or two; another seed differs."""
    one = play_arena("euchre", "heuristic", "random", deals=6, seed=7, jobs=1)
    two = play_arena("euchre", "heuristic", "random", deals=6, seed=7, jobs=2)
    other = play_arena("euchre", "heuristic", "random", deals=6, seed=8, jobs=1)
    assert one == two
    assert one.outcomes != other.outcomes
    assert one.games == 12


def test_arena_reports_progress() -> None:
    """The progress callback sees every game counted up to the total."""
    seen: list[tuple[int, int]] = []
    play_arena("pinochle", "random", "random", deals=2, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 4) and seen[-1] == (4, 4)


def test_arena_result_statistics() -> None:
    """Win rate counts draws half; the Wilson 95% interval contains it; points are per deal."""
    results = [1.0] * 6 + [0.5] * 2 + [0.0] * 2
    outcomes = tuple(
        GameOutcome(k, s, r, 100.0, 50.0, 2) for k, s, r in zip(range(10), itertools.cycle((0, 1)), results)
    )
    result = ArenaResult("bezique-match", "a", "b", 0, outcomes)
    assert (result.wins, result.draws, result.losses) == (6, 2, 2)
    assert result.win_rate == pytest.approx(0.7)
    low, high = result.interval()
    assert low == pytest.approx(0.3968, abs=1e-3) and high == pytest.approx(0.8922, abs=1e-3)
    assert result.points_per_deal == (50.0, 25.0)
    assert "win rate 70.0% (95% CI 39.7%-89.2%)" in result.report()[0]


def test_game_state_views_work_in_the_arena() -> None:
    """A game's state (for matches) and a deal's state both give views the agents accept."""
    for state in (new_game("bezique-match", seed=1), new_deal("bezique", seed=1)):
        assert isinstance(state, (GameState, DealState))
        action = HeuristicAgent().choose(state.view(0), random.Random(1))
        assert state.is_legal(action)


# -- the arena on the command line -------------------------------------------------------------


def simulate(*argv: str) -> tuple[int, str, str]:
    """Run ``bezique-rules simulate`` in-process: (status, stdout, stderr)."""
    import io

    from bezique_rules.cli import main

    out, err = io.StringIO(), io.StringIO()
    status = main(["simulate", *argv], out, err)
    return status, out.getvalue(), err.getvalue()


def test_simulate_agents_reports_win_rate_and_points() -> None:
    """simulate --agents A,B: A's wins, draws, losses, win rate with its 95% interval, points per deal."""
    status, out, err = simulate("bezique-match", "--agents", "level2,level1", "--deals", "3", "--seed", "2")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "bezique-match: level2 against level1, 3 deal seeds x 2 seatings = 6 matches, seed 2, 1 job"
    assert re.match(r"^  level2 won \d, drew \d, lost \d: win rate \d+\.\d% \(95% CI \d+\.\d%-\d+\.\d%\)$", lines[1])
    assert re.match(r"^  points per deal: level2 \d+\.\d, level1 \d+\.\d \(\d+ deals\)$", lines[2])
    assert re.match(r"^  time: \d+\.\d s$", lines[3])
    assert "6/6 matches" in err  # the progress, in the report's word


def test_simulate_agents_same_seed_same_result_whatever_the_jobs() -> None:
    """simulate --agents gives the same result with --jobs 1 and --jobs 2."""
    one = simulate("pinochle", "--agents", "heuristic,random", "--deals", "4", "--seed", "9", "--no-progress")
    two = simulate("pinochle", "--agents", "heuristic,random", "--deals", "4", "--seed", "9", "--jobs", "2")
    assert one[0] == two[0] == 0
    assert one[2] == ""
    assert one[1].splitlines()[1:3] == two[1].splitlines()[1:3]
    assert "2 jobs" in two[1].splitlines()[0]


@pytest.mark.parametrize("agents", ["level3,genius", "level3", "a,b,c"])
def test_simulate_bad_agents_is_a_one_line_error(agents: str) -> None:
    """An unknown agent name, or not two names: one "error:" line, exit 2."""
    status, out, err = simulate("bezique", "--agents", agents, "--deals", "2")
    assert status == 2 and out == ""
    assert err.startswith("error: ") and len(err.splitlines()) == 1


def test_inference_weighs_worlds_by_the_opponents_play() -> None:
    """Against a heuristic opponent, the true deal explains his play (weight 1); some sampled worlds do not."""
    from bezique_rules.agents.stockplay import STRATEGY

    _likelihood = STRATEGY.likelihood
    assert _likelihood is not None
    state = new_deal("bezique-match", seed=12)
    rng = random.Random(12)
    agent = HeuristicAgent()
    for _ in range(24):
        p = state.current_player
        assert p is not None
        state = state.apply(agent.choose(state.view(p), rng))
    me = state.current_player
    assert me is not None and isinstance(state, StockDeal)
    assert _likelihood(state, me, 4, 0.3) == 1.0
    weights = []
    for k in range(12):
        world = determinize(state.view(me), random.Random(k))
        assert isinstance(world, StockDeal)
        weights.append(_likelihood(world, me, 4, 0.3))
    assert all(0.0 < w <= 1.0 for w in weights)
    assert min(weights) < 1.0


def test_the_trick_heuristic_knows_who_is_winning_a_lone_hands_trick() -> None:
    """Euchre, going alone (pagat.com/euchre/euchre.html, "Going alone": the lone player's
    partner places his cards face down and takes no part in the play): a trick skips the
    seat sitting out, so the seat that played the winning card is found by walking the
    seats from the leader past the one sitting out, not by ``(leader + index) % 4``. The
    view's seat order (`PlayerView.seats_in_play`, read by the heuristic, the trick features
    and the pictures) is checked against who really played each card of the trick."""
    checked = differ = 0
    for seed in range(200):
        deal = new_deal("euchre", seed=seed)
        rng = random.Random(seed)
        alone = [a for a in deal.legal_actions() if "alone" in str(a)]
        if not alone:
            continue
        deal = deal.apply(alone[0])
        while deal.current_player is not None and checked < 40:
            view = deal.view(deal.current_player)
            if view.sitting_out and view.trick:
                plays = [who for who, action in view.history if action.verb is Verb.PLAY]
                played_by = plays[len(plays) - len(view.trick) :]
                seats = view.seats_in_play(view.trick_leader)
                assert list(seats[: len(view.trick)]) == played_by
                differ += any((view.trick_leader + i) % 4 != s for i, s in enumerate(played_by))
                checked += 1
            deal = deal.apply(rng.choice(deal.legal_actions()))
    assert checked >= 20 and differ > 0  # lone-hand tricks were seen, some skipping the partner
