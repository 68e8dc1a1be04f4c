"""Refuse every board position that cannot happen, naming the field: the board's own checks, then the fight's (the
combat's own validation, `validation.validate_combat`, over the combat's frames on the one stack).

Checked: the hero is a board hero (or its draw pending); every card is in exactly one place (deck, discard, market,
hand, learned, quests, held, set aside; the adventures drawn are out of the game); the hand within its bound; markets
within their slots; warbands spawned, face down or defeated, each once; a fight on exactly while the combat's frames
are pending, the combat's fields at rest otherwise; the dice only during a move; the frames' kinds and seats.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from envs.core.game import StateFormatError
from envs.runebound.board_cards import ASSET_TYPES
from envs.runebound.board_state import MARKET_SLOTS, MAX_HAND, NONE, WARBAND_FIGHT, BoardKind, BoardOutcome
from envs.runebound.state import COMBAT_KINDS, NOWHERE, Outcome
from envs.runebound.validation import validate_combat

if TYPE_CHECKING:
    from envs.runebound.board import BoardState


def _fail(field: str, message: str) -> StateFormatError:
    return StateFormatError(field, message)


def validate_board(state: BoardState) -> None:
    """The board's checks, then the fight's; StateFormatError names the first field found wrong."""
    game = state.game
    stack = state.stack
    state.check_frames(1)
    picking = any(frame.kind == BoardKind.PICK_HERO for frame in stack)
    if state.hero == NOWHERE:
        if not picking:
            raise _fail("hero", "no hero, and no draw of one pending")
    elif state.hero not in game.board_hero_of:
        raise _fail("hero", f"not a board hero (board heroes: {', '.join(game.board.heroes.names)})")
    elif picking:
        raise _fail("stack", "a hero is drawn, but the hero is known")
    if state.outcome != BoardOutcome.ONGOING and stack:
        raise _fail("outcome", "the game is over, yet frames are pending")
    if state.outcome == BoardOutcome.ONGOING and not stack:
        raise _fail("stack", "the game goes on, so something is pending")
    _check_cards(state)
    _check_warbands(state)
    if len(state.markets) != len(game.cities):
        raise _fail("markets", f"one market per city ({len(game.cities)})")
    for city, market in enumerate(state.markets):
        if len(market) > MARKET_SLOTS:
            raise _fail(f"markets[{city}]", f"a market holds at most {MARKET_SLOTS} assets")
        if any(game.is_twist(card) for card in market):
            raise _fail(f"markets[{city}]", "a twist never stays in a market (TWISTS)")
    if len(state.hand) > MAX_HAND + 3:
        raise _fail("hand", f"at most {MAX_HAND + 3} cards")
    moving = any(frame.kind == BoardKind.MOVE_STEP for frame in stack)
    rolling = any(frame.kind == BoardKind.ROLL_DIE for frame in stack)
    if state.dice and not moving:
        raise _fail("dice", "terrain dice are held only during a move")
    if state.wounds >= state.max_health() and state.outcome != BoardOutcome.DEFEATED and state.hero != NOWHERE:
        raise _fail("wounds", f"the hero's health is {state.max_health()}: it would be defeated")
    if rolling and not moving:
        raise _fail("stack", "a terrain die is rolled only for a move")
    _check_fight(state)


def _check_cards(state: BoardState) -> None:
    """Each asset-deck card and skill in one place at most; assets held of their own type."""
    game = state.game
    places = Counter(
        [
            *state.asset_deck,
            *state.asset_discard,
            *state.set_aside,
            *(card for market in state.markets for card in market),
            *(card for card in state.assets if card != NONE),
        ]
    )
    for card, count in places.items():
        if count > 1:
            raise _fail("asset_deck", f"{game.asset_card_names[card]!r} is in {count} places")
    for slot, card in enumerate(state.assets):
        if card == NONE:
            continue
        if game.is_twist(card) or game.board.assets[card].type != ASSET_TYPES[slot]:
            raise _fail(f"assets.{ASSET_TYPES[slot]}", f"{game.asset_card_names[card]!r} is not a {ASSET_TYPES[slot]}")
    skills = Counter([*state.skill_deck, *state.skill_discard, *state.hand, *state.learned])
    for skill, count in skills.items():
        if count > 1:
            raise _fail("skill_deck", f"{game.board.skills[skill].name!r} is in {count} places")
    for quest in state.quests:
        if game.board.adventures[quest].kind != "quest":
            raise _fail("quests", f"{game.board.adventures[quest].name!r} is not a quest")
        if quest in state.adventure_deck:
            raise _fail("quests", f"{game.board.adventures[quest].name!r} is still in the adventure deck")
    for cell in state.gems:
        if cell not in game.gem_cells:
            raise _fail("gems", f"{game.hex_name(cell)} holds no gem space")


def _check_warbands(state: BoardState) -> None:
    """Every warband face down, in play or defeated, once; a win exactly when all are defeated."""
    seen = Counter([*state.warband_pile, *(band.card for band in state.warbands), *state.defeated])
    names = state.game.board.warbands.names
    for card, count in seen.items():
        if count > 1:
            raise _fail("warbands", f"{names[card]!r} is in {count} places")
    won = len(state.defeated) == len(names)
    if won != (state.outcome == BoardOutcome.WON):
        raise _fail("outcome", "the scenario is won exactly when every warband is defeated")


def _check_fight(state: BoardState) -> None:
    """A fight on exactly while the combat's frames are pending (then the combat's own checks), at rest otherwise."""
    stack = state.stack
    first = next((index for index, frame in enumerate(stack) if frame.kind in COMBAT_KINDS), len(stack))
    frames = stack[first:]
    if any(frame.kind not in COMBAT_KINDS for frame in frames):
        raise _fail(f"stack[{first}]", "the fight's frames are on top of the board's")
    if state.fight == NONE:
        if frames:
            raise _fail("fight", "the combat's frames are pending, so a fight is on")
        if state.enemy != NOWHERE or any(state.combat_tokens) or any(state.combat_damage) or state.combat_round:
            raise _fail("enemy", "between fights the combat's fields are at rest")
        if state.combat_outcome != Outcome.ONGOING:
            raise _fail("combat_outcome", "between fights the combat's fields are at rest")
        return
    if not frames:
        raise _fail("fight", "no combat frame is pending, so no fight is on")
    if state.fight >= WARBAND_FIGHT:
        if state.fight - WARBAND_FIGHT >= len(state.warbands):
            raise _fail("fight", "no such warband in play")
    elif state.fight >= len(state.game.board.adventures) or state.game.board.adventures[state.fight].kind != "fight":
        raise _fail("fight", "a fight is for a fight adventure or a warband")
    validate_combat(state, frames)
