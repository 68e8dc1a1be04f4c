"""Runebound board game as text: the hero, the time, the warbands, the markets and the pending decision
(`board_text`, the ansi picture), and a board action in words in its position (`action_words`). The combat's text is
added while a fight is on (render.state_text). The picture for `rgb_array` is `render_board_rgb`
(board_picture.py)."""

from __future__ import annotations

from envs.runebound.board import BoardState
from envs.runebound.board_actions import BOARD_ACTIONS, TURN_ACTIONS
from envs.runebound.board_cards import TROPHY_KINDS
from envs.runebound.board_state import NONE, BoardKind
from envs.runebound.movement import FACE_NAMES
from envs.runebound.render import state_text


def board_text(state: BoardState) -> str:
    """The whole position in lines of text (everything is public)."""
    game = state.game
    board = game.board
    scenario = board.scenario
    lines = [f"{board.scenario.name}: time {state.time}/{2 * scenario.act_length} (Act {'I' * state.act()})"]
    if state.hero < 0:
        lines.append("the hero is not drawn yet")
        return "\n".join(lines)
    hero = state.board_hero()
    trophies = ", ".join(f"{kind} {count}" for kind, count in zip(TROPHY_KINDS, state.trophies, strict=True))
    lines.append(
        f"{hero.name} at {game.hex_name(state.cell)}: health {state.max_health() - state.wounds}/{state.max_health()}, "
        f"gold {state.hero_gold}, trophies {trophies}, actions left {state.actions_left}, "
        f"prepare token {state.prepare.name.lower()}"
    )
    held = [board.assets[card].name for card in state.assets if card != NONE]
    lines.append(f"assets: {', '.join(held) or 'none'}")
    lines.append(f"hand: {', '.join(board.skills[s].name for s in state.hand) or 'empty'}")
    if state.learned:
        lines.append(f"learned: {', '.join(board.skills[s].name for s in state.learned)}")
    if state.quests:
        quests = [f"{board.adventures[q].name} -> {board.adventures[q].target}" for q in state.quests]
        lines.append(f"quests: {'; '.join(quests)}")
    if state.dice:
        lines.append(f"terrain dice: {', '.join(FACE_NAMES[face] for face in state.dice)}")
    bands = [
        f"{board.warbands[b.card].name} ({b.units} unit{'s' if b.units > 1 else ''}) at {game.hex_name(b.cell)}"
        for b in state.warbands
    ]
    lines.append(
        f"warbands: {'; '.join(bands) or 'none in play'}; face down {len(state.warband_pile)}, "
        f"defeated {len(state.defeated)}/{len(board.warbands)}"
    )
    if state.scorched:
        lines.append(f"scorched: {', '.join(game.hex_name(cell) for cell in state.scorched)}")
    for city, market in zip(game.cities, state.markets, strict=True):
        cards = ", ".join(f"{board.assets[card].name} ({board.assets[card].cost}g)" for card in market)
        lines.append(f"market of {game.hex_name(city)}: {cards or 'empty'}")
    lines.append(f"gems face up: {len(state.gems)}")
    frame = state.decision()
    if state.fighting():
        lines.append("")
        lines.append(state_text(state))
    elif frame is not None:
        lines.append(f"deciding: {frame.kind}")
    if state.is_terminal():
        lines.append(f"game over: {state.outcome.name.lower().replace('_', ' ')}")
    return "\n".join(lines)


def action_words(state: BoardState, action: int) -> str:
    """A board action with what it names in this position ("learn: slot 2 (Shield Wall)", "buy: slot 1 (Longbow,
    3 gold)", "step: NE (Millford (1, 4))")."""
    ids = BOARD_ACTIONS
    game = state.game
    board = game.board
    label = ids.codec.label(action)
    group, index = ids.codec.decode(action)
    frame = state.decision()
    if group in ("learn", "exert", "discard skill") and index < len(state.hand):
        return f"{label} ({board.skills[state.hand[index]].name})"
    if group in ("buy", "discard asset") and frame is not None and frame.kind == BoardKind.SHOP:
        market = state.markets[frame.detail("city")]
        if index < len(market):
            asset = board.assets[market[index]]
            return f"{label} ({asset.name}, {asset.type}, {asset.cost} gold)"
    if group == "sell" and state.assets[index] != NONE:
        asset = board.assets[state.assets[index]]
        return f"{label} ({asset.name}, {asset.cost} gold)"
    if group in ("step", "move"):
        direction = index if group == "step" else ids.move_of(action)[1]
        neighbour = board.map.hex_map.neighbour_table[state.cell][direction]
        if neighbour >= 0:
            return f"{label} (to {game.hex_name(neighbour)}, {board.map.terrain(neighbour)})"
    if group == "action" and TURN_ACTIONS[index] == "adventure":
        colour = board.map.gem_at(state.cell)
        return f"{label} ({colour} gem)" if colour else label
    return label
