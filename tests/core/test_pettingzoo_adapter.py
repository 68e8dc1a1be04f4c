"""The generic PettingZoo AEC adapter on the toy Card Duel, 2-4 seats, competitive and cooperative (test kind 4)."""

from __future__ import annotations

import importlib
import random
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

from envs import register_pettingzoo_envs
from envs.adapters.pettingzoo_env import TabletopAECEnv, make_env_module
from envs.core.game import CHANCE, IllegalActionError, State
from envs.core.registration import GameRecord, registered_games
from envs.core.testing import check_clone_independence, check_sampler_matches_outcomes, player_count_settings
from envs.toys.card_duel import BLAME, BLAME_BASE, LEAD_DRAW, CardDuelGame, CardDuelState
from envs.toys.card_duel_v0 import env, raw_env

SEATS = [2, 3, 4]
VARIANTS = [False, True]


def _play(aec: TabletopAECEnv, seed: int, policy_seed: int = 0) -> list:
    """Play one game with a seeded random policy; the trajectory of (agent, observation bytes, reward, action)."""
    policy = np.random.default_rng(policy_seed)
    aec.reset(seed=seed)
    trajectory = []
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, info = aec.last()
        action = None
        if not (terminated or truncated):
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[policy.integers(len(legal))])
        trajectory.append((agent, observation["observation"].tobytes(), reward, terminated, action))
        aec.step(action)
    return trajectory


def registered_modules() -> list[Any]:
    """pytest parameters (PettingZoo module, game keywords): every registered game's PettingZoo modules (the
    toys' included) at every value of its record's `num_players` setting (without that setting: its default)."""
    return [
        pytest.param(
            importlib.import_module(module),
            kwargs,
            id=f"{module.rpartition('.')[2]}-{kwargs['num_players']}p" if kwargs else module,
        )
        for record in registered_games().values()
        for module in record.pettingzoo_modules
        for kwargs in player_count_settings(record)
    ]


@pytest.mark.parametrize(("module", "kwargs"), registered_modules())
def test_pettingzoo_api_test(module: ModuleType, kwargs: dict[str, Any]) -> None:
    """PettingZoo's api_test accepts the wrapped env() and the bare raw_env() of every registered game at every
    player count."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations warn, as for every classic env with an action mask
        api_test(module.env(**kwargs), num_cycles=200)
        api_test(module.raw_env(**kwargs), num_cycles=200)


@pytest.mark.parametrize(("module", "kwargs"), registered_modules())
def test_pettingzoo_seed_test(module: ModuleType, kwargs: dict[str, Any]) -> None:
    """PettingZoo's seed_test: two envs reset with the same seed play identically (every game, every count)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: module.env(**kwargs), num_cycles=200)


@pytest.mark.parametrize(
    "record",
    [record for record in registered_games().values() if record.same_spaces_at_every_player_count],
    ids=lambda record: record.name,
)
def test_pettingzoo_spaces_equal_at_every_player_count_where_promised(record: GameRecord) -> None:
    """A game that promises equal spaces at every player count has one observation and one action space, for every
    agent of every module at every count."""
    for module_name in record.pettingzoo_modules:
        module = importlib.import_module(module_name)
        spaces = set()
        for kwargs in player_count_settings(record):
            aec = module.raw_env(**kwargs)
            spaces |= {(repr(aec.observation_space(a)), repr(aec.action_space(a))) for a in aec.possible_agents}
        assert len(spaces) == 1, f"{module_name}: spaces differ across player counts: {sorted(spaces)}"


@pytest.mark.parametrize("num_players", SEATS)
def test_every_seat_gets_its_final_reward(num_players: int) -> None:
    """At the end every seat reads its own final reward from last(): -1 for losers in win mode, +1 for a sole winner."""
    outcomes: set[float] = set()
    for seed in range(10):
        aec = raw_env(num_players=num_players)
        aec.reset(seed=seed)
        finals: dict[str, float] = {}
        for agent in aec.agent_iter():
            observation, reward, terminated, truncated, info = aec.last()
            if terminated:
                finals[agent] = reward
                assert "won" in info and "score" in info
                aec.step(None)
                continue
            assert reward == 0.0
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(int(legal[0]))
        assert set(finals) == set(aec.possible_agents)
        state = aec.game_state
        assert isinstance(state, CardDuelState)
        assert [finals[agent] for agent in aec.possible_agents] == state.returns()
        outcomes.update(finals.values())
    assert {-1.0, 1.0} <= outcomes, "winners and losers both read their final reward"


@pytest.mark.parametrize("num_players", SEATS)
def test_cooperative_seats_share_the_result(num_players: int) -> None:
    """In the cooperative variant every seat receives the same final reward, wins and losses both seen."""
    seen = set()
    for seed in range(20):
        aec = raw_env(num_players=num_players, cooperative=True)
        trajectory = _play(aec, seed, policy_seed=seed)
        finals = {agent: reward for agent, _, reward, terminated, _ in trajectory if terminated}
        assert len(finals) == num_players and len(set(finals.values())) == 1
        seen.add(next(iter(finals.values())))
    assert seen == {1.0, -1.0}


@pytest.mark.parametrize("num_players", SEATS)
def test_out_of_turn_decision_and_chance_chosen_leader_happen(num_players: int) -> None:
    """The trick winner blames out of turn, and a chance draw picks who leads: both happen in play."""
    out_of_turn = chance_leads = 0
    leaders = set()
    for seed in range(5):
        aec = raw_env(num_players=num_players)
        aec.reset(seed=seed)
        previous: int | None = None
        for agent in aec.agent_iter():
            observation, _, terminated, _, _ = aec.last()
            if terminated:
                aec.step(None)
                continue
            state = aec.game_state
            assert isinstance(state, CardDuelState)
            seat = aec.possible_agents.index(agent)
            assert seat == state.current_player(), "agent_selection follows the rules' seat to act"
            in_rotation = previous is not None and seat == (previous + 1) % num_players
            if state.phase == BLAME and not in_rotation:
                out_of_turn += 1
            if len(state.trick) == 0 and state.phase != BLAME and previous is not None:
                leaders.add(seat)
                chance_leads += not in_rotation
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(int(legal[-1]))
            previous = seat
    assert out_of_turn > 0 and chance_leads > 0 and len(leaders) > 1


def test_lead_draw_is_an_exact_chance_node() -> None:
    """The leader is drawn at a chance node with exact, uniform probabilities over the seats."""
    state = CardDuelGame(num_players=3).new_initial_state()
    rng = np.random.default_rng(0)
    while state.phase != LEAD_DRAW:
        assert state.current_player() == CHANCE
        state.apply_action(state.sample_chance(rng))
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]


def test_illegal_action_raises_naming_the_legal_ones() -> None:
    """raw_env's default: an illegal action raises IllegalActionError listing every legal action's label."""
    aec = raw_env(num_players=3)
    aec.reset(seed=1)
    observation = aec.observe(aec.agent_selection)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError) as error:
        aec.step(illegal)
    message = str(error.value)
    assert aec.game.action_label(illegal) in message
    for legal in np.flatnonzero(observation["action_mask"]):
        assert aec.game.action_label(int(legal)) in message


@pytest.mark.parametrize("cooperative", VARIANTS)
def test_illegal_action_penalize_ends_the_game_for_everyone(cooperative: bool) -> None:
    """illegal_action='penalize': the game ends, the offender gets -1 and every other seat 0 (documented)."""
    aec = raw_env(num_players=3, cooperative=cooperative, illegal_action="penalize")
    aec.reset(seed=1)
    offender = aec.agent_selection
    illegal = int(np.flatnonzero(aec.observe(offender)["action_mask"] == 0)[0])
    aec.step(illegal)
    assert all(aec.terminations.values())
    assert aec.rewards == {agent: (-1.0 if agent == offender else 0.0) for agent in aec.agents}
    assert aec.infos[offender]["illegal_action"] == illegal
    assert all("illegal_action" not in aec.infos[agent] for agent in aec.agents if agent != offender)


def test_wrapped_env_terminates_on_illegal_action() -> None:
    """env() is wrapped as PettingZoo classic: an illegal action ends the game with -1 for the offender."""
    aec = env(num_players=2)
    aec.reset(seed=3)
    offender = aec.agent_selection
    illegal = int(np.flatnonzero(aec.observe(offender)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aec.step(illegal)
    assert all(aec.terminations.values()) and aec.rewards[offender] == -1.0


@pytest.mark.parametrize("num_players", SEATS)
def test_same_seed_same_game_with_global_rngs_disturbed(num_players: int) -> None:
    """Randomness only through reset(seed=...): same seed and policy give the same game; other seeds differ."""
    first = _play(raw_env(num_players=num_players), seed=5)
    random.seed(123)
    np.random.seed(456)
    assert _play(raw_env(num_players=num_players), seed=5) == first
    assert _play(raw_env(num_players=num_players), seed=6) != first


def test_max_decisions_truncates_every_seat() -> None:
    """max_decisions=k truncates every agent after k decisions, with reward 0."""
    aec = raw_env(num_players=2, max_decisions=3)
    trajectory = _play(aec, seed=0)
    assert sum(action is not None for *_, action in trajectory) == 3
    assert all(reward == 0.0 for _, _, reward, _, _ in trajectory)


@pytest.mark.parametrize("num_players", SEATS)
def test_observers_equal_size_and_seat_relative(num_players: int) -> None:
    """Every seat's observation has the same size; 'me' comes first; absent seats are zero; public view hides hands."""
    game = CardDuelGame(num_players=num_players)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    sizes = {game.observer(seat).size for seat in range(num_players)} | {game.observer(None).size}
    assert len(sizes) == 1 and sizes == {CardDuelGame(num_players=4).observer(0).size}
    for seat in range(num_players):
        observer = game.observer(seat)
        assert observer.player == seat
        tensor = observer.tensor(state)
        present = observer.view(tensor, "seats_present")
        assert present.tolist() == [1.0] * num_players + [0.0] * (4 - num_players)
        assert observer.view(tensor, "to_act")[(state.current_player() - seat) % num_players] == 1.0
        assert np.flatnonzero(observer.view(tensor, "hand")).tolist() == list(state.hands[seat])
    public = game.observer(None)
    assert public.player is None and public.view(public.tensor(state), "hand").sum() == 0


@pytest.mark.parametrize("num_players", SEATS)
def test_resample_hidden_redraws_only_what_the_seat_has_not_seen(num_players: int) -> None:
    """resample_hidden keeps the seat's own view and hand sizes and redraws the other hands from unseen cards."""
    game = CardDuelGame(num_players=num_players)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    changed = 0
    for _ in range(30):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        for seat in range(num_players):
            resampled = state.resample_hidden(seat, rng)
            observer = game.observer(seat)
            assert np.array_equal(observer.tensor(resampled), observer.tensor(state))
            assert [len(hand) for hand in resampled.hands] == [len(hand) for hand in state.hands]
            cards = sorted([*resampled.deck, *resampled.played, *(c for h in resampled.hands for c in h)])
            cards += [card for _, card in resampled.trick]
            assert sorted(cards) == list(range(20))
            changed += resampled.hands != state.hands
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert changed > 0


@pytest.mark.parametrize("cooperative", VARIANTS)
def test_generic_checkers_accept_the_toy(cooperative: bool) -> None:
    """The core checkers (clone independence, sampler against exact outcomes) pass on the toy."""
    game = CardDuelGame(num_players=3, cooperative=cooperative)
    assert check_clone_independence(game) > 0
    assert check_sampler_matches_outcomes(game) > 0
    state = game.new_initial_state()
    assert game.state_from_dict(state.to_dict()) == state


def test_registered_in_pettingzoo_registry() -> None:
    """A game record's PettingZoo module registers in PettingZoo's own registry, and make() builds it."""
    record = GameRecord(name="card_duel", description="toy", pettingzoo_modules=("envs.toys.card_duel_v0",))
    assert register_pettingzoo_envs(record)
    aec = pettingzoo.make("aec", "tabletop/card_duel-v0", num_players=3, max_cycles=-1)
    aec.reset(seed=0)
    assert aec.possible_agents == ["player_0", "player_1", "player_2"]


def test_render_ansi_is_the_public_view() -> None:
    """render_mode='ansi' returns the public view's text, which names no seat's hand."""
    aec = raw_env(num_players=2, render_mode="ansi")
    aec.reset(seed=0)
    text = aec.render()
    assert isinstance(text, str) and "public" in text and "hand:" not in text


def _picture(state: State) -> np.ndarray:
    """A fake rgb renderer: a 2x3 picture whose red channel holds the tricks done."""
    assert isinstance(state, CardDuelState)
    image = np.zeros((2, 3, 3), dtype=np.uint8)
    image[..., 0] = state.tricks_done
    return image


def test_render_rgb_array_calls_the_games_renderer() -> None:
    """A module made with an rgb renderer offers render_mode='rgb_array' and returns the renderer's picture of the
    state being played, through the wrapped env() too; before reset it renders nothing."""
    env_rgb, raw_env_rgb = make_env_module(CardDuelGame, "card_duel_v0", rgb_renderer=_picture)
    aec = raw_env_rgb(num_players=3, render_mode="rgb_array")
    assert aec.metadata["render_modes"] == ["ansi", "rgb_array"]
    assert aec.render() is None
    _play(aec, seed=1)
    picture = aec.render()
    assert isinstance(picture, np.ndarray) and picture.shape == (2, 3, 3) and picture.dtype == np.uint8
    state = aec.game_state
    assert isinstance(state, CardDuelState) and picture[0, 0, 0] == state.tricks_done > 0
    wrapped = env_rgb(num_players=2, render_mode="rgb_array")
    wrapped.reset(seed=0)
    assert wrapped.render().shape == (2, 3, 3)


def test_render_rgb_array_needs_a_renderer() -> None:
    """Without a renderer the env offers 'ansi' only, and asking for 'rgb_array' names the missing renderer."""
    assert raw_env(num_players=2).metadata["render_modes"] == ["ansi"]
    with pytest.raises(ValueError, match="no rgb_array renderer"):
        raw_env(num_players=2, render_mode="rgb_array")


def test_blame_actions_name_other_seats() -> None:
    """A blame decision offers every other seat and never the winner itself."""
    state = CardDuelGame(num_players=4).new_initial_state()
    rng = np.random.default_rng(2)
    while state.phase != BLAME:
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(state.legal_actions()[0])
    winner = state.current_player()
    assert state.legal_actions() == [BLAME_BASE + seat for seat in range(4) if seat != winner]


@pytest.mark.parametrize("mode", ["rank", "score"])
def test_reward_modes_give_state_rewards(mode: str) -> None:
    """reward='rank' / 'score': every seat's final reward is the state's `rewards(mode)` for that seat."""
    aec = raw_env(num_players=3, reward=mode)
    trajectory = _play(aec, seed=4)
    finals = {agent: reward for agent, _, reward, terminated, _ in trajectory if terminated}
    state = aec.game_state
    assert isinstance(state, CardDuelState)
    assert [finals[agent] for agent in aec.possible_agents] == state.rewards(mode)
