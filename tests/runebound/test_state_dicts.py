"""State dicts of a combat: every position random play reaches survives JSON and rebuilds equal; impossible positions
are refused by `state_from_dict`, naming the field (envs/runebound/validation.py); the random-simulation invariants
hold on the hand-made content."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from envs.core.game import StateFormatError
from envs.core.testing import check_json_round_trip, random_simulation
from envs.runebound.symbols import ENEMY, HERO

from .scenarios import make_game, position

HERO_TOKENS = [("Tester 1", "physical 1"), ("Buckler", "shield 1")]
ENEMY_FACES = ["skull 1", "surge 1", "double", "-", "-", "-"]


def saved() -> dict[str, Any]:
    """A valid position's dict (the hero to act)."""
    return position(make_game(), HERO_TOKENS, ENEMY_FACES).to_dict()


def test_random_combats_keep_every_invariant_and_survive_json() -> None:
    """The generic random-simulation checker: chance outcomes, legal actions, the mask, observations, the length bound,
    and every seventh state rebuilt from its JSON dict."""
    for act in ("I", "II"):
        report = random_simulation(make_game("Dummy", act=act), num_games=60, seed=3, check_roundtrip_every=7)
        assert report.games == 60
    for enemy in ("Horde", "Brigand", "Shade", "Tricky Dummy", "Twins"):
        random_simulation(make_game(enemy, enemy_choice="two_damage"), num_games=40, seed=5, check_roundtrip_every=5)


def test_every_state_of_a_combat_rebuilds_equal_from_its_dict() -> None:
    """`to_dict` -> JSON -> `state_from_dict` gives the same state, the same legal actions and chance outcomes."""
    game = make_game("Horde", hero="Mender")
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 200:
        check_json_round_trip(game, state)
        options = state.legal_actions() or [outcome for outcome, _ in state.chance_outcomes()]
        state.apply_action(options[steps % len(options)])
        steps += 1
    check_json_round_trip(game, state)


def test_a_saved_position_names_its_content() -> None:
    """Tokens, faces, sides and abilities are written by name."""
    data = saved()
    assert data["hero"] == "Tester" and data["enemy"] == "Dummy"
    assert data["combat_tokens"]["hero"][0] == {"token": "Tester 1", "face": "physical 1", "spent": False, "on": None}
    assert data["initiative"] == "hero"
    json.dumps(data)


def change(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit setting a dotted path (`tokens.enemy[0].face`) of a state dict."""

    def edit(data: dict[str, Any]) -> None:
        node: Any = data
        steps = path.replace("[", ".").replace("]", "").split(".")
        for step in steps[:-1]:
            node = node[int(step)] if step.isdigit() else node[step]
        last = steps[-1]
        node[int(last) if last.isdigit() else last] = value

    return edit


REFUSED = [
    ("combat_tokens.enemy[0].face", change("combat_tokens.enemy.0.face", "skull 2"), "unknown token_face"),
    (
        "combat_tokens.enemy",
        change("combat_tokens.enemy.0", {"token": "P2", "face": "skull 2", "spent": False}),
        "first 4 + Act",
    ),
    (
        "combat_tokens.hero",
        change("combat_tokens.hero.0", {"token": "Blade", "face": "physical 1", "spent": False}),
        "start with its",
    ),
    (
        "combat_tokens.hero[1].token",
        change("combat_tokens.hero.1", {"token": "P1", "face": "shield 1", "spent": False}),
        "weapons'",
    ),
    ("combat_tokens.enemy[0].on", change("combat_tokens.enemy.0.on", 1), "only a token showing a double"),
    ("combat_tokens.enemy[2].on", change("combat_tokens.enemy.2.on", 3), "cast, unspent token"),
    ("combat_tokens.hero[0].on", change("combat_tokens.hero.0.on", 1), "only the enemy's board"),
    ("combat_tokens.hero[0].face", change("combat_tokens.hero.0.face", None), "no cast of it is pending"),
    ("combat_damage.hero", change("combat_damage.hero", 11), "more than"),
    ("combat_damage.enemy", change("combat_damage.enemy", 10), "defeated exactly when"),
    ("combat_round", change("combat_round", 0), "a round has started"),
    ("initiative", change("initiative", None), "initiative was taken"),
    ("combat_triggered.enemy", change("combat_triggered.enemy", ["Horde: Relentless"]), "another card"),
    ("combat_outcome", change("combat_outcome", "FLED"), "frames are pending"),
    ("hero", change("hero", "Mender"), "this game's hero"),
    ("stack[0].details.side", change("stack.0.details", {}), "missing"),
    ("stack[0].details.why", change("stack.0.details", {"side": "hero", "why": 1}), "no such detail"),
    ("combat_tokens.sword", change("combat_tokens", {"hero": [], "enemy": [], "sword": 1}), "unknown side"),
]


@pytest.mark.parametrize(
    ("field", "edit", "words"), REFUSED, ids=[f"{field}-{i}" for i, (field, _, _) in enumerate(REFUSED)]
)
def test_an_impossible_position_is_refused_naming_the_field(
    field: str, edit: Callable[[dict[str, Any]], None], words: str
) -> None:
    """`state_from_dict` refuses a position no combat reaches, with a StateFormatError naming the field."""
    data = copy.deepcopy(saved())
    edit(data)
    with pytest.raises(StateFormatError) as error:
        make_game().state_from_dict(data)
    assert error.value.field == field, error.value
    assert words in str(error.value)


def test_the_saved_position_itself_is_accepted() -> None:
    """The unedited dict loads (the refusals above are the edits')."""
    state = make_game().state_from_dict(saved())
    assert state.combat_tokens[HERO][0].face == 0 and state.combat_tokens[ENEMY][1].face == 1


# ---------------------------------------------------------------------------------------- issue 32: fuzzed dicts
def shipped_position(kind: str, seed: int = 0, **game: Any) -> dict[str, Any]:
    """The dict of the first state of a seeded random combat on the shipped content (Lissa against the Undead Horde
    in Act I unless `game` says otherwise) whose top frame is of `kind`."""
    import numpy as np

    from envs.core.game import CHANCE
    from envs.runebound.game import RuneboundCombatGame

    combat = RuneboundCombatGame(**({"hero": "Lissa", "enemy": "Undead Horde", "act": "I"} | game))
    rng = np.random.default_rng(seed)
    state = combat.new_initial_state()
    while not state.is_terminal():
        if state.stack[-1].kind == kind:
            return state.to_dict()
        legal = state.legal_actions()
        state.apply_action(state.sample_chance(rng) if state.current_player() == CHANCE else legal[-1])
    raise AssertionError(f"no {kind!r} frame on top in that combat")


def refused(data: dict[str, Any], **game: Any) -> StateFormatError:
    """The StateFormatError the shipped game (as `shipped_position`'s) raises for `data` (failing if it loads)."""
    from envs.runebound.game import RuneboundCombatGame

    combat = RuneboundCombatGame(**({"hero": "Lissa", "enemy": "Undead Horde", "act": "I"} | game))
    with pytest.raises(StateFormatError) as error:
        combat.state_from_dict(data)
    return error.value


def test_a_hero_token_missing_or_added_is_refused() -> None:
    """Issue 32: a hero whose loadout weapon is missing (Lissa casts her three tokens and her Act I Dagger) or held
    twice was accepted; the game deals the loadout, so a loaded position must hold it (`weapons="loadout"`)."""
    data = shipped_position("hero combat action")
    assert [row["token"] for row in data["combat_tokens"]["hero"]] == ["Lissa 1", "Lissa 2", "Lissa 3", "Dagger"]
    missing = copy.deepcopy(data)
    del missing["combat_tokens"]["hero"][3]
    error = refused(missing)
    assert error.field == "combat_tokens.hero" and "loadout" in str(error) and "'Dagger'" in str(error)
    doubled = copy.deepcopy(data)
    doubled["combat_tokens"]["hero"].append(dict(doubled["combat_tokens"]["hero"][3]))
    assert refused(doubled).field == "combat_tokens.hero"
    from envs.runebound.game import RuneboundCombatGame

    anything = RuneboundCombatGame(hero="Lissa", enemy="Undead Horde", act="I", weapons="any")
    assert anything.state_from_dict(missing).to_dict() == missing  # a hand-set position without the weapon


def test_a_duplicated_frame_is_refused() -> None:
    """Issue 32: a frame written twice (the hero's action, the next combat action) was accepted."""
    data = shipped_position("hero combat action")
    assert [frame["kind"] for frame in data["stack"]] == ["next combat action", "hero combat action"]
    twice = copy.deepcopy(data)
    twice["stack"].append(dict(twice["stack"][1]))
    error = refused(twice)
    assert error.field == "stack[2]" and "one frame" in str(error)
    bottom = copy.deepcopy(data)
    bottom["stack"].insert(0, dict(bottom["stack"][0]))
    assert refused(bottom).field == "stack[2]"


def test_reversed_frames_are_refused() -> None:
    """Issue 32: frames swapped (the hero's action below the next combat action; two casts of a round out of casting
    order) were accepted."""
    data = shipped_position("hero combat action")
    data["stack"].reverse()
    error = refused(data)
    assert error.field == "stack[0].kind" and "bottom" in str(error)
    casting = shipped_position("cast")
    casts = casting["stack"]
    assert [frame["kind"] for frame in casts[:3]] == ["after cast", "cast", "cast"]
    casts[-1], casts[-2] = casts[-2], casts[-1]
    error = refused(casting)
    assert error.field == "stack" and "casting order" in str(error)


def test_round_zero_with_a_round_under_way_is_refused() -> None:
    """Issue 32: round 0 while the first round's casts are pending (no token cast yet) was accepted; round 0 is before
    the first round, and so is a position with damage dealt."""
    casting = shipped_position("cast")
    casting["combat_round"] = 0
    error = refused(casting)
    assert error.field == "combat_round" and "before the first round" in str(error)
    start = shipped_position("cast")
    start |= {"combat_round": 0, "stack": [{"seat": 0, "kind": "start combat round", "reason": "", "details": {}}]}
    for row in start["combat_tokens"]["hero"] + start["combat_tokens"]["enemy"]:
        row["face"] = None
    from envs.runebound.game import RuneboundCombatGame

    combat = RuneboundCombatGame(hero="Lissa", enemy="Undead Horde", act="I")
    assert combat.state_from_dict(start).combat_round == 1  # the first round's start, settled: its casts are pending
    assert refused(start | {"initiative": "hero"}).field == "initiative"  # taken once the casts are done
    start["combat_damage"]["hero"] = 1
    assert refused(start).field == "combat_damage"
    fled = shipped_position("stay or flee")
    fled |= {"combat_outcome": "FLED", "stack": [], "decisions": 0, "combat_round": 0}
    error = refused(fled)
    assert error.field == "combat_round" and "before the first round" in str(error)


def test_a_tactics_block_without_a_tactics_is_refused() -> None:
    """Issue 32: a pending tactics block whose hero shows no tactics was accepted, and answering it raised IndexError
    in the rules' tactics step; it is refused, naming the frame."""
    data = shipped_position("tactics block", seed=3, enemy="Orc Brigand")
    hero = data["combat_tokens"]["hero"]
    tactics = [index for index, row in enumerate(hero) if row["face"] == "tactics" and not row["spent"]]
    assert tactics
    for index in tactics:
        hero[index]["spent"] = True
    error = refused(data, enemy="Orc Brigand")
    assert error.field == f"stack[{len(data['stack']) - 1}]" and "tactics" in str(error)


def test_a_count_of_decisions_no_combat_reaches_is_refused() -> None:
    """Issue 32 (`decisions=10**9` in the fuzzed dicts): the hero's decisions are at most the game's maximum length,
    at least one per round already over (the hero decided to stay after it), and none before the first round."""
    from envs.runebound.state import MAX_GAME_LENGTH

    data = shipped_position("hero combat action")
    for count in (MAX_GAME_LENGTH + 1, 10**9):
        error = refused(data | {"decisions": count})
        assert error.field == "decisions" and str(MAX_GAME_LENGTH) in str(error)
    late = data | {"combat_round": 4, "decisions": 2}
    error = refused(late)
    assert error.field == "decisions" and "3 rounds" in str(error)
    casting = shipped_position("cast")
    start = casting | {
        "combat_round": 0,
        "decisions": 1,
        "stack": [{"seat": 0, "kind": "start combat round", "reason": ""}],
    }
    for row in start["combat_tokens"]["hero"] + start["combat_tokens"]["enemy"]:
        row["face"] = None
    assert refused(start).field == "decisions"


def test_a_silence_or_a_barrier_no_ability_raised_is_refused() -> None:
    """Silence and barriers come from abilities only ("The foe uses no abilities this round", "block the next 2
    damage this round"): a side silenced while its foe triggered no silence this round, or a barrier larger than the
    barriers its side triggered, is refused, naming the field; with the ability triggered, the position loads."""
    game = make_game("Horde")
    hero = [("Tester 1", "physical 1"), ("Buckler", "shield 1")]
    enemy = ["skull 1", "-", "-", "-", "-", "-"]
    with pytest.raises(StateFormatError, match="triggered no silence") as error:
        position(game, hero, enemy, silenced={"hero": True, "enemy": False})
    assert error.value.field == "silenced.hero"
    swarm = {"hero": [], "enemy": ["Horde: Swarm"]}
    assert position(game, hero, enemy, silenced={"hero": True, "enemy": False}, combat_triggered=swarm).silenced[HERO]
    mender = make_game(hero="Mender")
    with pytest.raises(StateFormatError, match="barriers the hero triggered") as error:
        position(mender, hero, enemy, barrier={"hero": 1, "enemy": 0})
    assert error.value.field == "barrier.hero"
    ward = {"hero": ["Mender: Ward"], "enemy": []}
    assert position(mender, hero, enemy, barrier={"hero": 2, "enemy": 0}, combat_triggered=ward).barrier[HERO] == 2
    with pytest.raises(StateFormatError, match=r"barriers the hero triggered this round \(2\)"):
        position(mender, hero, enemy, barrier={"hero": 3, "enemy": 0}, combat_triggered=ward)


def test_damage_taken_this_round_beyond_the_damage_taken_is_refused() -> None:
    """Issue 32 (an independent fuzzer): `round_damage` 1 with no damage at all, during the setup, was accepted.
    "Damage each side took this round" is dealt by combat actions, after initiative ("the side with the most gold
    rims takes the first combat action"), so nothing is dealt before them; and it is part of the damage on the side,
    but for what the side healed this round (its heal abilities triggered) or the blow that defeated it."""
    setup = shipped_position("pick hero", hero="random", enemy="random")
    assert [frame["kind"] for frame in setup["stack"]] == ["combat setup", "pick enemy", "pick hero"]
    setup["combat_round_damage"]["hero"] = 1
    error = refused(setup, hero="random", enemy="random")
    assert error.field == "combat_round_damage.hero" and "initiative" in str(error)
    acting = shipped_position("hero combat action")
    assert acting["combat_triggered"]["hero"] == [] and acting["combat_outcome"] == "ONGOING"
    acting["combat_round_damage"]["hero"] = acting["combat_damage"]["hero"] + 1
    error = refused(acting)
    assert error.field == "combat_round_damage.hero" and "healed" in str(error)


def test_a_side_charged_before_spending_charge_is_refused() -> None:
    """Issue 32 (an independent fuzzer): the enemy charged while the first round's casts were pending, nothing spent,
    was accepted. CHARGE: "As a combat action, a combatant can spend X [charge] ... During a combat round, after a
    combatant has spent [charge], that combatant cannot block damage": a side is charged only once the round's combat
    actions began (initiative taken), and the token it spent stays spent for the round unless an ability recasts a
    spent token."""
    casting = shipped_position("cast")
    assert casting["combat_round"] == 1 and casting["initiative"] is None
    casting["charged"]["enemy"] = True
    error = refused(casting)
    assert error.field == "charged.enemy" and "initiative" in str(error)
    acting = shipped_position("hero combat action", seed=2)
    assert acting["initiative"] == "hero" and acting["combat_triggered"]["enemy"] == []
    assert not any(row["spent"] for row in acting["combat_tokens"]["enemy"])
    acting["charged"]["enemy"] = True
    error = refused(acting)
    assert error.field == "charged.enemy" and "spent" in str(error)


@pytest.mark.parametrize("on", [-1, -2, 6, 10**40])
def test_a_stack_index_out_of_range_is_refused_not_read_as_none(on: int) -> None:
    """Issue 32 (an independent fuzzer): a token's `on` of -1 was read as null (the internal "on no stack"); `on` is
    null or the index of another of the side's tokens, and anything else is refused naming the field."""
    data = shipped_position("hero combat action")
    assert data["combat_tokens"]["enemy"][0]["on"] is None and len(data["combat_tokens"]["enemy"]) == 5
    data["combat_tokens"]["enemy"][0]["on"] = on
    error = refused(data)
    assert error.field == "combat_tokens.enemy[0].on"


@pytest.mark.parametrize(
    ("seed", "shape"),
    [
        (89, "next combat action / prevent flip / prevent flip"),
        (11, "next combat action / combat damage / tactics block"),
    ],
    ids=["two flips to prevent", "damage under a tactics block"],
)
def test_the_fuzzers_invariants_hold_on_the_rare_stacks_play_reaches(seed: int, shape: str) -> None:
    """The invariants `benchmarks.state_fuzz` checks (tests/runebound/invariants.py) hold on every position of a seeded
    random combat (Act II, hero and enemy drawn) reaching a stack the enemy's copy space leaves with two of its tactics
    (RULES.md, "Readings": "An enemy action that flips several tokens (two tactics copying an agility) asks about each
    flip in turn"); they used to allow one frame above the next combat action only."""
    import numpy as np

    from envs.core.game import CHANCE
    from envs.runebound.game import RuneboundCombatGame

    from .invariants import state_invariants

    rng = np.random.default_rng(seed)
    state = RuneboundCombatGame(act="II").new_initial_state()
    shapes = set()
    while True:
        state_invariants(state)
        shapes.add(" / ".join(str(frame.kind) for frame in state.stack))
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(
            state.sample_chance(rng) if state.current_player() == CHANCE else legal[rng.integers(len(legal))]
        )
    assert shape in shapes
