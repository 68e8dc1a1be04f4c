"""Helpers for the board game's rule scenarios: positions written as state dicts, chance events and decisions by name.

`turn_start` plays the setup with the first outcome of every chance event (the markets dealt in deck order, the first
warband spawned) and returns the state at the first turn's first action; `position` takes its dict, replaces the
fields given and lets the rules settle it (`RuneboundGame.state_from_dict`). `act` takes a decision by its label,
`draw` applies a chance outcome by the name of what it draws (an asset card, a skill, an adventure, a story card, a
warband, a terrain face) or by its value (a test die, a gem's cell), each checking that the state waits for it.

`content_copy` writes a copy of the shipped content and `edit_content` replaces top-level fields of one of its files,
for tests that need content of their own (a scenario's number, a card); `line_map` writes a copy whose map is a line of
hexes with the sites where the warband tests want them (`LINE`), so a warband's distances can be read off by eye.

The content's tunable numbers (a hero's gold, the scenario's spaces, a card's effects) are read from the loaded
content (`setup_gold`, `gold_after`, `quiet_story`, `band_fighting`), never typed here, so tuning them breaks no test.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from envs.core.game import CHANCE
from envs.runebound.board import BoardState
from envs.runebound.board_cards import BoardEffect
from envs.runebound.board_game import RuneboundGame
from envs.runebound.board_state import MAX_GOLD, BoardKind
from envs.runebound.movement import FACE_NAMES

SHIPPED = Path(__file__).resolve().parents[2] / "envs" / "runebound" / "data"
"""The shipped content (copied by `content_copy`)."""


def first_outcomes(state: BoardState) -> None:
    """Resolve chance events with their first outcome until a decision (or the end)."""
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])


def turn_start(game: RuneboundGame) -> BoardState:
    """The first turn's first action, after a setup that takes the first outcome of every chance event."""
    state = game.new_initial_state()
    first_outcomes(state)
    return state


def position(game: RuneboundGame, **fields: Any) -> BoardState:
    """The first turn's start with `fields` of its dict replaced (by their saved form), settled by the rules."""
    data = turn_start(game).to_dict() | fields
    return game.state_from_dict(data)


def edited(state: BoardState, **fields: Any) -> BoardState:
    """`state` with `fields` of its dict replaced (by their saved form), settled by the rules."""
    return state.game.state_from_dict(state.to_dict() | fields)


def hex_of(game: RuneboundGame, cell: int) -> list[int]:
    """A cell as a state dict writes it: `[q, r]`."""
    return list(game.board.map.hex_map.hex_at(cell))


def site_hex(game: RuneboundGame, name: str) -> list[int]:
    """The `[q, r]` of the site named `name`."""
    return hex_of(game, game.board.map.site_cell(name))


def labels(state: BoardState) -> list[str]:
    """The labels of the legal actions."""
    return [state.game.action_label(action) for action in state.legal_actions()]


def act(state: BoardState, label: str) -> None:
    """Take the decision labelled `label`, checking that it is legal."""
    assert state.decision() is not None, f"no decision pending; the stack: {state.stack}"
    action = state.game.action_id(label)
    assert action in state.legal_actions(), f"{label!r} is not legal; legal: {labels(state)}"
    state.apply_action(action)


def chance_kind(state: BoardState) -> str | None:
    """The kind of the chance event pending, or None."""
    return state.stack[-1].kind if state.current_player() == CHANCE else None


def outcome_of(state: BoardState, item: str | int) -> int:
    """The chance outcome of the pending event that draws `item` (a name, or a die's or a cell's value)."""
    game = state.game
    kind = chance_kind(state)
    assert kind is not None, f"no chance event pending; the stack: {state.stack}"
    if isinstance(item, int):
        return item
    names: dict[str, list[str]] = {
        BoardKind.DEAL_MARKET: list(game.asset_card_names),
        BoardKind.SHOP_DRAW: list(game.asset_card_names),
        BoardKind.RESTOCK: list(game.asset_card_names),
        BoardKind.DRAW_SKILL: list(game.board.skills.names),
        BoardKind.DRAW_ADVENTURE: list(game.board.adventures.names),
        BoardKind.DRAW_STORY: list(game.board.story.names),
        BoardKind.SPAWN_WARBAND: list(game.board.warbands.names),
        BoardKind.ROLL_DIE: list(FACE_NAMES),
    }
    return names[kind].index(item)


def draw(state: BoardState, item: str | int, kind: str | None = None) -> None:
    """Resolve the pending chance event with the outcome that draws `item` (checking the event's kind when given)."""
    if kind is not None:
        assert chance_kind(state) == kind, f"expected a {kind!r} event, the state waits for {state.stack[-1:]}"
    outcome = outcome_of(state, item)
    offered = [value for value, _ in state.chance_outcomes()]
    assert outcome in offered, f"{item!r} cannot be drawn now; offered: {[state.chance_label(o) for o in offered]}"
    state.apply_action(outcome)


def decision_kind(state: BoardState) -> str | None:
    """The kind of the decision pending, or None."""
    frame = state.decision()
    return None if frame is None else frame.kind


def skill_names(state: BoardState, skills: tuple[int, ...]) -> list[str]:
    """Skills by name."""
    return [state.game.board.skills[skill].name for skill in skills]


def with_cards(
    game: RuneboundGame,
    markets: list[list[str]] | None = None,
    held: dict[str, str] | None = None,
    hand: list[str] | None = None,
) -> dict[str, Any]:
    """State dict fields that put asset cards in the markets and the hero's slots, and skills in the hand, taking them
    from wherever the first turn's start has them (the decks take back what the markets give up)."""
    data = turn_start(game).to_dict()
    fields: dict[str, Any] = {}
    markets = markets if markets is not None else data["markets"]
    slots = {**data["assets"], **(held or {})}
    placed = {card for market in markets for card in market} | {card for card in slots.values() if card}
    fields["markets"], fields["assets"] = markets, slots
    fields["asset_deck"] = [card for card in game.asset_card_names if card not in placed]
    if hand is not None:
        fields["hand"] = hand
        fields["skill_deck"] = [skill for skill in game.board.skills.names if skill not in hand]
    return fields


def asset(game: RuneboundGame, name: str) -> int:
    """The asset-deck id of the asset or twist named `name`."""
    return game.asset_card_names.index(name)


# ---------------------------------------------------------------------------------------------------------- content
def setup_gold(game: RuneboundGame) -> int:
    """The gold `game`'s hero has after setup by the content: its gold (board_heroes.yaml) and the scenario's
    `start_gold` (RULES.md, "Setup")."""
    return game.board.heroes.by_name(game.hero_name).gold + game.board.scenario.start_gold


def gold_after(gold: int, effects: tuple[BoardEffect, ...]) -> int:
    """`gold` after the gold effects of `effects` in order (`lose_gold` not below 0: RULES.md, "Board effects"; at
    most `MAX_GOLD`)."""
    for effect in effects:
        if effect.kind == "gain_gold":
            gold = min(MAX_GOLD, gold + effect.amount)
        elif effect.kind == "lose_gold":
            gold = max(0, gold - effect.amount)
    return gold


def amount_of(effects: tuple[BoardEffect, ...], kind: str) -> int:
    """The total amount of the effects of `kind` among `effects` (0 if none)."""
    return sum(effect.amount for effect in effects if effect.kind == kind)


QUIET_EFFECTS = frozenset({"heal", "gain_gold", "lose_gold", "gain_prepare"})
"""Board effects that draw nothing, damage no one and leave the warbands be."""


def quiet_story(game: RuneboundGame) -> str:
    """The name of the first story card whose effects are all `QUIET_EFFECTS`: drawn where a test needs a story card
    that changes nothing it checks."""
    for card in game.board.story:
        if all(effect.kind in QUIET_EFFECTS for effect in card.effects):
            return card.name
    raise AssertionError(f"no story card has only effects of {sorted(QUIET_EFFECTS)}; add one in a content copy")


def band_fighting(game: RuneboundGame, enemy: str, at: list[int]) -> dict[str, Any]:
    """A state dict's warband row at `at` whose units make it fight `enemy`: the first warband (warbands.yaml) with
    `enemy` at some unit count, at that count."""
    for warband in game.board.warbands:
        if enemy in warband.enemies:
            return {"warband": warband.name, "at": at, "units": warband.enemies.index(enemy) + 1}
    raise AssertionError(f"no warband fights {enemy!r} at any unit count (warbands.yaml)")


def content_copy(directory: Path) -> Path:
    """A copy of the shipped content in `directory`/content."""
    content = directory / "content"
    shutil.copytree(SHIPPED, content)
    return content


def edit_content(content: Path, stem: str, **fields: Any) -> None:
    """Replace the top-level `fields` of `content`/`stem`.yaml (its other fields kept)."""
    path = content / f"{stem}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    missing = sorted(set(fields) - set(data))
    assert not missing, f"{path} has no field {missing}; it has {sorted(data)}"
    path.write_text(yaml.safe_dump(data | fields, sort_keys=False, allow_unicode=True), encoding="utf-8")


def read_content(content: Path, stem: str) -> dict[str, Any]:
    """The fields of `content`/`stem`.yaml."""
    data: dict[str, Any] = yaml.safe_load((content / f"{stem}.yaml").read_text(encoding="utf-8"))
    return data


LINE = {
    -8: ("city", "Riverwatch"),
    -7: ("city", "Greyhaven"),
    -6: ("town", "Eastmere"),
    -5: ("town", "Highfold"),
    -4: ("town", "Harrow Cross"),
    -3: ("stronghold", "Stonecrag Hold"),
    -2: ("stronghold", "Ravenhold"),
    0: ("outlaw_glade", "Outlaw Glade"),
    1: ("shrine", "Old Altar"),
    3: ("town", "Millford"),
    5: ("city", "Tamalir"),
    8: ("stronghold", "Blackwall Keep"),
    10: ("shrine", "Moonwell"),
    14: ("shrine", "Stone Circle"),
    23: ("shrine", "Shrine of the Dawn"),
}
"""The line map's sites by `q` (row 0): every site the shipped content names (the heroes' cities, the quests'
targets, the Outlaw Glade), placed for the warband tests. From q = 6 a city is 1 step away (Tamalir), a stronghold 2
(Blackwall Keep), a town 3 (Millford), a shrine 4 (Moonwell)."""
LINE_WATER = 22
"""Row 0's one water hex: (21, 0) reaches (23, 0) round it, by (21, 1) and (22, 1), in 3 steps."""
LINE_RIVER = ((9, 0), (10, 0))
"""A river edge (no bridge) in front of Moonwell."""
LINE_ROW_0 = range(-8, 25)
LINE_ROW_1 = (21, 22)


def line_map(directory: Path) -> Path:
    """A copy of the shipped content in `directory` whose map is the line of `LINE` (all plains, no gems) and whose
    scenario spawns its first warband at setup only (`warband_spaces: [0]`), so that the warband tests see only the
    warbands they place, whatever the shipped spaces."""
    content = content_copy(directory)
    edit_content(content, "locust_swarm", warband_spaces=[0])
    hexes = [f"  - {{at: [{q}, 0], terrain: {'water' if q == LINE_WATER else 'plains'}}}" for q in LINE_ROW_0] + [
        f"  - {{at: [{q}, 1], terrain: plains}}" for q in LINE_ROW_1
    ]
    sites = [f"  - {{kind: {kind}, name: {name}, at: [{q}, 0]}}" for q, (kind, name) in sorted(LINE.items())]
    (first, second) = LINE_RIVER
    text = "\n".join(
        [
            "name: The Line",
            "hexes:",
            *hexes,
            "sites:",
            *sites,
            "rivers:",
            f"  - {{between: [[{first[0]}, {first[1]}], [{second[0]}, {second[1]}]]}}",
            "",
        ]
    )
    (content / "map.yaml").write_text(text, encoding="utf-8")
    return content
