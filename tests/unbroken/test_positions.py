"""Saved positions: `to_dict` speaks the content's names, `state_from_dict` refuses every position that cannot happen.

DESIGN.md, core contract: a State is "serialisable to a JSON-able dict and back (`to_dict` / `from_dict`): that is
how users set up positions and how tests set up rulebook examples"; `state_from_dict` "raises StateFormatError naming
the bad field". RULES.md ("Positions") lists what is checked.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.heuristics.unbroken import UnbrokenHeuristicAgent
from envs.core.game import StateFormatError
from envs.unbroken.cards import load_cards
from envs.unbroken.game import UnbrokenGame
from envs.unbroken.rules import UnbrokenState
from envs.unbroken.state import FINAL_LEVEL, Phase

from .conftest import combat_state, new_game, skill_index, travel_state

DATA = Path(__file__).resolve().parents[2] / "envs" / "unbroken" / "data"


def played_states(game: UnbrokenGame, seed: int, games: int = 3) -> list[UnbrokenState]:
    """Every decision state of a few seeded random games (positions the rules really reach)."""
    rng = np.random.default_rng(seed)
    states = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                states.append(state.clone())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
        states.append(state.clone())
    return states


# ================================================================================================ names
def test_to_dict_writes_names(english) -> None:
    """Issue "one skeleton": phases, resources, characters, weapons, monsters, skills and conditions are saved by the
    names of the YAML content, so that a saved position is readable and can be written by hand."""
    state = combat_state(english, "Goblin", skills=[skill_index(english, "Dodge")], res={"food": 3})
    data = state.to_dict()
    assert data["phase"] == "DECIDE_PLAYER_TURN"
    assert data["character"] == "Kira the Huntress"
    assert data["resources"]["food"] == 3 and set(data["resources"]) >= {"small_effort", "time", "treasure"}
    assert data["monsters"][state.level - 1] == "Goblin"
    assert data["skills"] == ["Dodge"]
    assert data["weapons"] == ["Bare Hands"]
    assert all(isinstance(count, int) and count > 0 for count in data["encounter_deck"].values())
    json.dumps(data)  # JSON-able as it is


def test_saved_position_survives_a_reordering_of_the_content(tmp_path: Path) -> None:
    """A saved position names its cards, so it loads the same after the content files are reordered."""
    for path in DATA.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    for name, key in (("monsters.yaml", "monsters"), ("skills.yaml", "skills"), ("encounters.yaml", "encounters")):
        document = yaml.safe_load((tmp_path / name).read_text(encoding="utf-8"))
        document[key].reverse()
        (tmp_path / name).write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8")
    shipped = new_game()
    reordered = UnbrokenGame(character="Kira the Huntress", cards=load_cards(tmp_path))
    assert [m.name for m in reordered.cards.monsters] != [m.name for m in shipped.cards.monsters]
    state = combat_state(shipped, "Goblin", skills=[skill_index(shipped, "Dodge")])
    moved = reordered.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert moved.to_dict() == state.to_dict()
    assert reordered.cards.monsters[moved.monster()].name == "Goblin"
    assert [reordered.cards.skills[k].name for k in moved.skills] == ["Dodge"]


def test_action_id_is_the_inverse_of_action_label(english) -> None:
    """Issue "one skeleton": `game.action_id(label)` is the inverse of `game.action_label(id)`, for every id."""
    for action in range(english.spec.num_actions):
        assert english.action_id(english.action_label(action)) == action
    with pytest.raises(ValueError, match="no action labelled 'rest please'"):
        english.action_id("rest please")


def test_env_reset_starts_from_a_written_position() -> None:
    """README, "Setting up a position": `env.reset(options={"state": ...})` starts from a state dict."""
    env = gym.make("tabletop/Unbroken-v0", character="Kira the Huntress")
    game = env.unwrapped.game  # type: ignore[attr-defined]
    position = combat_state(game, "Goblin", res={"small_effort": 5}).to_dict()
    _, info = env.reset(seed=0, options={"state": position})
    assert env.unwrapped.state.to_dict() == position  # type: ignore[attr-defined]
    assert info["action_mask"][game.action_id("skip turn")] == 1


# ================================================================================================ refused
def test_battle_without_a_monster_is_refused(english) -> None:
    """A battle is fought against this level's monster: a battle with none chosen cannot happen (it used to read
    the last monster of the list)."""
    data = combat_state(english, "Kobold").to_dict()
    data["monsters"][0] = None
    with pytest.raises(StateFormatError, match=r"monsters\[0\]") as error:
        english.state_from_dict(data)
    assert error.value.field == "monsters[0]"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("wounds", 99),
        ("armor_broken", -3),
        ("ability_uses", 9),
        ("round", 0),
        ("roll", 7),
        ("aside_rounds", 2),
        ("round", 10**40),
        ("reveal_bonus", 2**63),
    ],
)
def test_impossible_numbers_are_refused(english, field: str, value: int) -> None:
    """unbroken.en.txt, Battle step: "If the token on the monster's health bar reaches the space on the far right,
    then you have defeated the monster" (wounds stay below the health in a battle); Abilities: "you can use your
    character's abilities a number of times equal to the current level"; broken armor lies within the armor value, a
    battle has rounds, a die shows 1-6; a battle lasts no more rounds than a game has decisions, and the next
    exploration's bonus grows by one action at a time (RULES.md, Positions). Each violation names the field and the
    value."""
    data = combat_state(english, "Kobold").to_dict()
    data[field] = value
    with pytest.raises(StateFormatError) as error:
        english.state_from_dict(data)
    assert error.value.field == field and str(value) in str(error.value)


def test_missing_field_is_refused(english) -> None:
    """A missing field is an error, not a silent setup default."""
    data = travel_state(english).to_dict()
    del data["level"]
    with pytest.raises(StateFormatError, match="state.level: missing field"):
        english.state_from_dict(data)


def test_resources_beyond_their_bar_are_refused(english) -> None:
    """unbroken.en.txt, Resources: "You can never have more of any resource than the corresponding resource bar has
    space for"."""
    data = travel_state(english).to_dict()
    data["resources"]["small_effort"] = 99
    with pytest.raises(StateFormatError, match=r"state.resources.small_effort: 99"):
        english.state_from_dict(data)


def test_a_card_in_two_places_is_refused(english) -> None:
    """unbroken.en.txt, Components: "88 encounter cards": every card is in exactly one place."""
    data = travel_state(english).to_dict()
    data["phase"] = "DECIDE_ENCOUNTER_OR_REST"
    data["chosen_card"] = next(iter(data["encounter_deck"]))
    with pytest.raises(StateFormatError, match="encounter_deck"):
        english.state_from_dict(data)


def test_spanish_future_monster_cannot_be_known(spanish) -> None:
    """unbroken.es.txt: the monster is picked with a d6 when it is revealed, so a later level has none yet."""
    data = travel_state(spanish).to_dict()
    later = [m.name for m in spanish.cards.monsters if m.level == 3][0]
    data["monsters"][2] = later
    with pytest.raises(StateFormatError, match=r"monsters\[2\]"):
        spanish.state_from_dict(data)


def reached_position(game: UnbrokenGame, phase: Phase, seed: int = 0) -> dict[str, Any]:
    """The saved dict of the first state in `phase` that seeded random games reach."""
    rng = np.random.default_rng(seed)
    for _ in range(200):
        state = game.new_initial_state()
        while True:
            if state.phase == phase:
                return state.to_dict()
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    raise AssertionError(f"no random game reached {phase.name}")


def test_negative_round_at_game_over_is_refused(game: UnbrokenGame) -> None:
    """Issue 19: a finished game keeps the round it ended in (0 outside a battle), never a negative one."""
    data = reached_position(game, Phase.GAME_OVER)
    game.state_from_dict(data)
    data["round"] = -1
    with pytest.raises(StateFormatError, match=r"state\.round: -1") as error:
        game.state_from_dict(data)
    assert error.value.field == "round"


@pytest.mark.parametrize("change", [-1, 1])
def test_skill_target_other_than_the_rewards_step_reveals_is_refused(game: UnbrokenGame, change: int) -> None:
    """unbroken.en.txt, Rewards: "reveal the top 2 cards of the skill deck" (more with a skill's bonus): during the
    skill draw the target is that number, so a draw that stops early or reveals one too many cannot happen."""
    data = reached_position(game, Phase.CHANCE_SKILL_DRAW)
    game.state_from_dict(data)
    data["skill_target"] += change
    with pytest.raises(StateFormatError, match=r"state\.skill_target: \d: the Rewards step reveals 2 skill cards"):
        game.state_from_dict(data)


def test_a_skill_draw_beyond_the_target_is_refused(game: UnbrokenGame) -> None:
    """Issue 19, "a skill_target below the coming draw": a skill draw pending when the offer already holds the target
    number of cards would reveal one too many."""
    data = reached_position(game, Phase.CHANCE_SKILL_DRAW)
    deck = data["skill_deck"]
    while len(data["skill_offer"]) < data["skill_target"]:  # move cards from the deck into the offer
        name = next(name for name, count in deck.items() if count > 0)
        deck[name] -= 1
        data["skill_offer"].append(name)
    with pytest.raises(StateFormatError, match=r"state\.skill_target: 2: a skill card is being drawn"):
        game.state_from_dict(data)


def test_an_encounter_draw_beyond_the_target_is_refused(game: UnbrokenGame) -> None:
    """unbroken.en.txt, Exploration step: "reveal 2 encounter cards" (the target): a draw pending when the target is
    already revealed would reveal one too many (benchmarks/state_fuzz.py found it accepted)."""
    data = reached_position(game, Phase.CHANCE_ENCOUNTER_DRAW)
    data["reveal_target"] = len(data["revealed_cards"])
    with pytest.raises(StateFormatError, match=r"state\.reveal_target: \d: an encounter card is being drawn"):
        game.state_from_dict(data)


@pytest.mark.parametrize(
    ("phase", "deck", "discard"),
    [
        ("CHANCE_ENCOUNTER_DRAW", "encounter_deck", "encounter_discard"),
        ("CHANCE_SKILL_DRAW", "skill_deck", "skill_discard"),
    ],
)
def test_a_draw_from_an_empty_deck_is_refused(game: UnbrokenGame, phase: str, deck: str, discard: str) -> None:
    """An empty deck is refilled from its discard pile before a draw (RULES.md), so a pending draw has cards to draw:
    a position with the whole deck in the discard pile, waiting on a draw, is refused naming the deck."""
    data = reached_position(game, Phase[phase])
    for name, count in data[deck].items():
        data[discard][name] = data[discard].get(name, 0) + count
        data[deck][name] = 0
    with pytest.raises(StateFormatError, match=rf"state\.{deck}: 'empty'"):
        game.state_from_dict(data)


@pytest.mark.parametrize("preset", ["english", "spanish"])
def test_the_setup_skill_step_comes_before_any_battle(preset: str) -> None:
    """Appendix D, Easy: a skill at setup. That skill step, at level I, continues to the first travel: a trickery or a
    revealed monster before it cannot happen (benchmarks/state_fuzz.py found a tricked flag accepted there)."""
    game = new_game(preset, difficulty="easy")
    bonus = reached_position(game, Phase.CHANCE_BONUS_RESOURCE)
    with pytest.raises(StateFormatError) as refused:
        game.state_from_dict({**bonus, "monster_revealed": True})
    # The Spanish printing draws a monster when it is revealed, so there the missing monster is named first.
    assert refused.value.field == ("monster_revealed" if preset == "english" else "monsters[0]"), str(refused.value)
    data = reached_position(game, Phase.CHANCE_SKILL_DRAW)
    assert data["after_skill"] == "TRAVEL" and data["level"] == 1
    game.state_from_dict(data)
    for field, value in (("tricked", True), ("monster_revealed", True), ("level", 2)):
        changed = {**data, field: value}
        expected = "after_skill" if field == "level" else field
        with pytest.raises(StateFormatError) as error:
            game.state_from_dict(changed)
        assert error.value.field == expected, str(error.value)


def test_the_hunger_step_follows_a_revealed_monster(game: UnbrokenGame) -> None:
    """The Hunger step follows this level's battle or trickery, both against the revealed monster."""
    data = reached_position(game, Phase.DECIDE_HUNGER)
    game.state_from_dict(data)
    data["monster_revealed"] = False
    with pytest.raises(StateFormatError, match=r"state\.monster_revealed: False: DECIDE_HUNGER follows a battle"):
        game.state_from_dict(data)


# ================================================================================================ fuzzing
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-1000, max_value=1000),
    st.text(max_size=8),
    st.lists(st.integers(min_value=-5, max_value=50), max_size=5),
    st.dictionaries(st.text(max_size=6), st.integers(min_value=-5, max_value=50), max_size=3),
)


def _positions() -> list[dict[str, Any]]:
    """Saved positions from random games of both printings (built once)."""
    positions = []
    for preset, seed in (("english", 3), ("spanish", 4)):
        game = UnbrokenGame(preset=preset)
        positions += [(preset, s.to_dict()) for s in played_states(game, seed, games=2)[::3]]
    return positions


POSITIONS = _positions()
GAMES = {preset: UnbrokenGame(preset=preset) for preset in ("english", "spanish")}


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside a saved position (dict keys and list indices)."""
    paths = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            paths += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += _paths(item, (*prefix, index))
    return paths


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_positions_fail_only_with_state_format_error(data: st.DataObject) -> None:
    """Fuzzing `state_from_dict` with mutations of real positions: every bad dict raises StateFormatError naming a
    field; no KeyError, IndexError or TypeError escapes, and a dict that is accepted round-trips exactly."""
    preset, position = data.draw(st.sampled_from(POSITIONS))
    mutated = copy.deepcopy(position)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(mutated)
        path = data.draw(st.sampled_from(paths))
        parent = mutated
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete", "swap_type"]))
        if action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "swap_type":
            parent[path[-1]] = data.draw(JUNK)
        else:
            current = parent[path[-1]]
            if isinstance(current, bool):
                parent[path[-1]] = not current
            elif isinstance(current, int):
                parent[path[-1]] = current + data.draw(st.integers(min_value=-3, max_value=3))
            else:
                parent[path[-1]] = data.draw(JUNK)
    game = GAMES[preset]
    try:
        state = game.state_from_dict(mutated)
    except StateFormatError as error:
        top = error.field.split(".")[0].split("[")[0]
        assert top in UnbrokenState.field_names() or (top not in position and top in mutated), str(error)
        return
    assert state.to_dict() == game.state_from_dict(state.to_dict()).to_dict()


def test_every_reached_position_round_trips() -> None:
    """Every position of random games in both printings saves and loads back to the same state."""
    for preset, position in POSITIONS:
        assert GAMES[preset].state_from_dict(position).to_dict() == position


# ================================================================================================ the heuristic
def test_heuristic_never_peeks_at_hidden_information() -> None:
    """DESIGN.md: agents use the game's public rule queries, never hidden information. The heuristic's decision is
    unchanged when the hidden part of the state (the face-down monsters) is redrawn with `resample_hidden`."""
    game = UnbrokenGame(preset="english", difficulty="normal")
    agent = UnbrokenHeuristicAgent(game)
    observer = game.observer(0)
    chance, hidden = np.random.default_rng(5), np.random.default_rng(7)
    checked = changed_hidden = 0
    levels = set()
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(chance))
                continue
            mask = state.legal_actions_mask()
            choice = agent.act(observer.tensor(state), mask, state=state)
            for _ in range(2):
                other = state.resample_hidden(0, hidden)
                np.testing.assert_array_equal(observer.tensor(other), observer.tensor(state))
                changed_hidden += other.monsters != state.monsters
                assert agent.act(observer.tensor(other), mask, state=other) == choice
                checked += 1
            levels.add(state.level)
            state.apply_action(choice)
    assert checked > 200 and changed_hidden > 100 and FINAL_LEVEL in levels


def test_clone_is_independent_and_does_not_serialise(english, monkeypatch: pytest.MonkeyPatch) -> None:
    """DESIGN.md, core contract: a State is "cheap to `clone()`": a clone copies the containers it may change (the
    original never sees the clone's moves) and does not go through to_dict/from_dict (search clones every node)."""
    state = combat_state(english, "Goblin", skills=[skill_index(english, "Dodge")], res={"food": 3})
    before = state.to_dict()

    def refuse(*_: Any) -> None:
        raise AssertionError("clone went through serialisation")

    monkeypatch.setattr(UnbrokenState, "to_dict", refuse)
    monkeypatch.setattr(UnbrokenState, "from_dict", refuse)
    clone = state.clone()
    clone.resources[0] -= 1
    clone.weapons.append(1)
    clone.apply_action(english.action_id("skip turn"))
    monkeypatch.undo()
    assert state.to_dict() == before and clone.to_dict() != before


def test_debug_text_shows_what_the_player_cannot(english) -> None:
    """unbroken.en.txt, Setting up 6: the monsters are stacked "face down". The player's text view hides them; the
    omniscient `debug_text` (for transcripts of errors) names them; the public view of a solo game is the player's."""
    state = travel_state(english, monster="Kobold")
    hidden = english.cards.monsters[state.monster()].name
    assert hidden not in english.observer(0).text(state)
    assert english.observer(None).text(state) == english.observer(0).text(state)
    assert f"level 1: {hidden}" in state.debug_text()
    with pytest.raises(ValueError, match="seat 1 does not exist"):
        english.observer(1)
