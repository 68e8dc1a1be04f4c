"""`tabletop/RuneboundCombat-v0`: the Gymnasium env over the combat, its kwargs, spaces, observation, labels,
rendering, determinism and the API checkers (Gymnasium's and stable-baselines3's)."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env

import envs  # noqa: F401 - registers the ids
from envs.runebound.actions import ACTIONS
from envs.runebound.cards import load_runebound_cards
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.state import Kind

from .example import example_start

ENV_ID = "tabletop/RuneboundCombat-v0"


def rollout(env: gym.Env, seed: int, policy_seed: int = 0) -> list[tuple[int, float, bool]]:
    """A random episode: (action, reward, terminated) per step."""
    rng = np.random.default_rng(policy_seed)
    observation, _ = env.reset(seed=seed)
    steps = []
    terminated = truncated = False
    while not (terminated or truncated):
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        observation, reward, terminated, truncated, _ = env.step(action)
        steps.append((action, reward, terminated))
    return steps


def test_the_env_takes_the_issues_kwargs() -> None:
    """hero, enemy (a name or random), trait, act (I or II), enemy_choice, reward, illegal_action, render_mode,
    card_directory (and the adapters' flat)."""
    env = gym.make(ENV_ID, hero="Eliam", enemy="Sorcerer", trait="Mystic", act="II", enemy_choice="two_damage",
                   reward="score", illegal_action="penalize", render_mode="ansi", card_directory=None)  # fmt: skip
    game = env.unwrapped.game
    assert (game.hero_choice, game.enemy_pool, game.act, game.preset.name) == (0, (4,), 2, "two_damage")
    env.reset(seed=0)
    assert "Sorcerer" in env.render()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"hero": "Gandalf"}, "unknown hero 'Gandalf'"),
        ({"enemy": "Balrog"}, "unknown enemy 'Balrog'"),
        ({"trait": "Wizard"}, "unknown trait 'Wizard'"),
        ({"act": "III"}, "unknown act 'III'"),
        ({"enemy": "Sorcerer", "trait": "Savage"}, "is a Mystic, not a Savage"),
        ({"enemy_choice": "kind"}, "unknown enemy_choice 'kind'"),
        ({"reward": "rank"}, "does not declare the reward mode 'rank'"),
    ],
)
def test_bad_kwargs_are_refused_naming_them(kwargs: dict[str, str], words: str) -> None:
    """A value the game does not know is a ValueError that names it."""
    with pytest.raises(ValueError, match=words):
        gym.make(ENV_ID, **kwargs)


def test_a_misspelled_kwarg_names_the_valid_ones() -> None:
    """`enemey=` is a TypeError that says which keyword was meant."""
    with pytest.raises(TypeError, match="did you mean 'enemy'"):
        gym.make(ENV_ID, enemey="Sorcerer")


def test_one_fixed_discrete_space_with_a_label_for_every_id() -> None:
    """Atomic decisions over one fixed Discrete space; every id has its own label."""
    game = RuneboundCombatGame()
    labels = [game.action_label(action) for action in range(game.spec.num_actions)]
    assert game.spec.num_actions == ACTIONS.size == 57 and len(set(labels)) == len(labels)
    assert labels[0] == "pass" and "flip: enemy token 6" in labels and "round end: flee" in labels
    env = gym.make(ENV_ID)
    assert env.action_space == gym.spaces.Discrete(57)
    for hero in load_runebound_cards().heroes:  # the same spaces for every hero
        other = gym.make(ENV_ID, hero=hero.name, act="II")
        assert other.observation_space == env.observation_space and other.action_space == env.action_space


def test_observations_lie_in_their_bounds_and_the_mask_is_the_legal_actions() -> None:
    """Observation values in [0, 1]; the mask equals the rules' legal actions at every decision."""
    env = gym.make(ENV_ID, act="II")
    rng = np.random.default_rng(1)
    for seed in range(20):
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            tensor = observation["observation"]
            assert tensor.dtype == np.float32 and tensor.min() >= 0.0 and tensor.max() <= 1.0
            state = env.unwrapped.state
            assert list(np.flatnonzero(observation["action_mask"])) == state.legal_actions()
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, _, info = env.step(int(legal[rng.integers(len(legal))]))
        assert {"won", "score", "outcome", "rounds"} <= set(info)


def test_the_observation_shows_both_sides_the_board_and_the_decision() -> None:
    """The example's first decision: Eliam's and the Sorcerer's tokens, the Sorcerer's tokens on their spaces, the
    health, the board and the decision are all in the tensor (views named as the observer documents)."""
    state = example_start()
    observer = state.game.observer(0)
    tensor = observer.tensor(state)
    hero_tokens = observer.view(tensor, "hero_tokens")
    enemy_tokens = observer.view(tensor, "enemy_tokens")
    assert hero_tokens[:3, 0].tolist() == [1.0, 1.0, 1.0] and hero_tokens[3:, 0].sum() == 0
    assert enemy_tokens[:5, 1].sum() == 5  # cast
    spaces = enemy_tokens[:5, 27:34].argmax(axis=1).tolist()
    board = state.trait().board
    assert [board.spaces[s].symbol.name for s in spaces] == ["TACTICS", "DOUBLE", "SURGE", "SKULL", "SKULL"]
    assert observer.view(tensor, "health")[4:].tolist() == [1.0, 1.0]
    assert observer.view(tensor, "decision")[0] == 1.0  # the hero's combat action
    assert observer.view(tensor, "board")[:, 0].sum() == len(board.spaces)


def test_action_text_names_the_face_in_play() -> None:
    """Labels are stable ("spend: hero token 1"); the observer's action text adds the face it names now."""
    state = example_start()
    observer = state.game.observer(0)
    assert observer.action_text(state, ACTIONS.spend) == "spend: hero token 1 (physical 1)"
    assert observer.action_text(state, ACTIONS.ability) == "ability: hero ability 1 (Twin Blades)"


def test_reset_can_start_from_a_state_dict() -> None:
    """`reset(options={"state": ...})` starts from a position written by hand (the combat example's, where Eliam
    carries no weapon: `weapons="any"` lets a position give the hero other weapons than its Act's loadout)."""
    start = example_start()
    env = gym.make(ENV_ID, hero="Eliam", enemy="Sorcerer", weapons="any")
    observation, _ = env.reset(seed=0, options={"state": start.to_dict()})
    assert env.unwrapped.state.decision().kind == Kind.HERO_COMBAT_ACTION
    _, reward, terminated, _, _ = env.step(ACTIONS.ability)  # Twin Blades; the round runs to its end
    assert not terminated and reward == 0.0 and env.unwrapped.state.combat_damage == (5, 3)


def test_render_modes_give_text_and_a_picture() -> None:
    """ansi: the text view; rgb_array: a picture of both sides' tokens, the board and health."""
    text_env = gym.make(ENV_ID, render_mode="ansi")
    text_env.reset(seed=4)
    text = text_env.render()
    assert isinstance(text, str) and "board" in text and "health" in text
    picture_env = gym.make(ENV_ID, render_mode="rgb_array")
    picture_env.reset(seed=4)
    picture = picture_env.render()
    assert picture.shape == (600, 960, 3) and picture.dtype == np.uint8 and picture.std() > 10


def test_seeded_episodes_are_deterministic_even_with_the_global_rngs_disturbed() -> None:
    """The same seed gives the same episode; Python's and numpy's global generators play no part."""
    env = gym.make(ENV_ID)
    first = rollout(env, seed=7)
    random.seed(99)
    np.random.seed(99)
    _ = [random.random() for _ in range(5)], np.random.random(5)
    assert rollout(gym.make(ENV_ID), seed=7) == first
    assert rollout(env, seed=8) != first or rollout(env, seed=9) != first


def test_the_score_reward_is_damage_dealt_minus_taken_over_the_enemys_health() -> None:
    """RULES.md, "Readings": `score` = (damage on the enemy - damage on the hero) / the enemy's health."""
    env = gym.make(ENV_ID, reward="score")
    steps = rollout(env, seed=3)
    state = env.unwrapped.state
    assert steps[-1][1] == pytest.approx((state.combat_damage[1] - state.combat_damage[0]) / state.enemy_card().health)


@pytest.mark.parametrize("flat", [False, True])
def test_gymnasium_check_env_passes(flat: bool) -> None:
    """Gymnasium's env checker (spaces, reset and step contracts, determinism under seeding); it samples unmasked
    actions, so an illegal one ends the episode with a penalty instead of raising."""
    env = gym.make(ENV_ID, act="II", flat=flat, illegal_action="penalize")
    gymnasium_check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("flat", [False, True])
def test_stable_baselines3_check_env_passes(flat: bool) -> None:
    """stable-baselines3's checker (Python float rewards and bool flags, the Dict and the flat observation)."""
    from stable_baselines3.common.env_checker import check_env

    check_env(gym.make(ENV_ID, flat=flat, illegal_action="penalize").unwrapped, warn=False)
