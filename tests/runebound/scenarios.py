"""Helpers for Runebound combat rule scenarios: positions written as state dicts, chance and decisions by their labels.

The rule tests run on the hand-made content of tests/runebound/content/ (a test hero, test weapons whose tokens give
every symbol, five test traits sharing one token set, P1..P6, each board with one of the board-ability kinds, and
test enemies carrying the abilities one test needs), so a rule is checked apart from the shipped content.

`position` writes a state dict from a few words: the hero's tokens as (name, face) pairs, the enemy's six faces in
the order of its set (`"-"` for a token already spent), and who acts next; the rules settle it
(`RuneboundCombatGame.state_from_dict`). `act` takes a decision by its label, `cast` applies a cast by the face's
text, each checking that the state waits for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from envs.core.game import CHANCE
from envs.runebound.game import RuneboundCombatGame
from envs.runebound.rules import CombatState
from envs.runebound.state import Kind

CONTENT = Path(__file__).resolve().parent / "content"
"""The hand-made content of the rule tests."""
ENEMY_SET = ("P1", "P2", "P3", "P4", "P5", "P6")
"""The test traits' token set (Act II casts all six)."""
SPENT = "-"
"""An enemy face written as spent (the token is cast and spent; which face it shows does not matter)."""


def make_game(
    enemy: str = "Dummy",
    hero: str = "Tester",
    act: str = "II",
    enemy_choice: str = "detrimental",
    flight: str = "draw",
) -> RuneboundCombatGame:
    """A combat on the test content, whose positions may give the hero any of the test weapons."""
    return RuneboundCombatGame(
        hero=hero,
        enemy=enemy,
        act=act,
        enemy_choice=enemy_choice,
        flight=flight,
        weapons="any",
        card_directory=CONTENT,
    )


def token_rows(entries: list[Any], names: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """Token records of a state dict: (name, face), (name, face, "spent"), or for the enemy's set a face alone, a dict
    of record keys (`{"face": "double", "on": 2}`, `on` 1-based), or SPENT."""
    rows = []
    for index, entry in enumerate(entries):
        if names is not None:
            name = names[index]
            if entry == SPENT:
                rows.append({"token": name, "face": None, "spent": False, "on": None, "spent_any": True})
                continue
            if isinstance(entry, dict):
                on = entry.get("on")
                rows.append(
                    {
                        "token": name,
                        "face": entry["face"],
                        "spent": entry.get("spent", False),
                        "on": None if on is None else on - 1,
                    }
                )
                continue
            rows.append({"token": name, "face": entry, "spent": False, "on": None})
            continue
        name, face, *flags = entry
        rows.append({"token": name, "face": face, "spent": "spent" in flags, "on": None})
    return rows


def position(
    game: RuneboundCombatGame,
    hero: Sequence[tuple[str, ...]],
    enemy: list[Any],
    to_act: str = "hero",
    **fields: Any,
) -> CombatState:
    """A position in round 1 (unless `fields` say otherwise) with `to_act` acting next; settled by the rules."""
    enemy_rows = token_rows(enemy, ENEMY_SET[: len(enemy)])
    tokens = game.cards.tokens
    for row in enemy_rows:
        if row.pop("spent_any", False):  # a spent token shows its first face
            row["face"], row["spent"] = tokens[game.cards.token_index[row["token"]]].faces[0].text, True
    data: dict[str, Any] = {
        "hero": game.cards.heroes[game.hero_choice].name,
        "enemy": game.cards.enemies[game.enemy_pool[0]].name,
        "combat_tokens": {"hero": token_rows(list(hero)), "enemy": enemy_rows},
        "combat_damage": {"hero": 0, "enemy": 0},
        "combat_round": 1,
        "initiative": "hero",
        "passed": {"hero": False, "enemy": False},
        "charged": {"hero": False, "enemy": False},
        "silenced": {"hero": False, "enemy": False},
        "barrier": {"hero": 0, "enemy": 0},
        "combat_round_damage": {"hero": 0, "enemy": 0},
        "combat_triggered": {"hero": [], "enemy": []},
        "combat_outcome": "ONGOING",
        "decisions": 0,
        "stack": [{"seat": 0, "kind": Kind.NEXT_COMBAT_ACTION.value, "reason": "", "details": {"side": to_act}}],
    }
    for key, value in fields.items():
        data[key] = value
    return game.state_from_dict(data)


def labels(state: CombatState) -> list[str]:
    """The labels of the legal actions."""
    return [state.game.action_label(action) for action in state.legal_actions()]


def act(state: CombatState, label: str, kind: str | None = None) -> None:
    """Take the decision labelled `label` (checking the decision's kind when given)."""
    frame = state.decision()
    assert frame is not None, f"no decision pending; the state:\n{state.debug_text()}"
    if kind is not None:
        assert frame.kind == kind, f"expected a {kind!r} decision, the state waits for {frame.kind!r}"
    action = state.game.action_id(label)
    assert action in state.legal_actions(), f"{label!r} is not legal; legal: {labels(state)}"
    state.apply_action(action)


def cast(state: CombatState, face: str) -> None:
    """Resolve the pending cast with the face whose text is `face` ("physical 2")."""
    assert state.current_player() == CHANCE, f"no chance event pending; the state:\n{state.debug_text()}"
    frame = state.stack[-1]
    assert frame.kind == Kind.CAST, f"expected a cast, got {frame.kind!r}"
    held = state.combat_tokens[frame.detail("side")][frame.detail("token")]
    faces = [f.text for f in state.game.faces[held.token]]
    assert face in faces, f"token {state.game.cards.tokens[held.token].name} has faces {faces}, not {face!r}"
    state.apply_action(faces.index(face))


def faces(state: CombatState, side: int) -> list[str]:
    """Each token's face text of a side ("-" for a spent one, "?" not cast)."""
    shown = []
    for index, held in enumerate(state.combat_tokens[side]):
        if held.spent:
            shown.append("-")
        elif held.face < 0:
            shown.append("?")
        else:
            shown.append(state.face(side, index).text)
    return shown
