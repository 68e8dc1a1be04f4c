"""Refuse every board position that cannot happen, naming the field: the board's own checks, then the fight's (the
combat's own validation, `validation.validate_combat`, over the combat's frames on the one stack).

Checked: the hero is a board hero (or its draw pending); every card is in exactly one place (deck, discard, market,
hand, learned, quests, held, set aside; the adventures drawn are out of the game); the hand within its bound; markets
within their slots; warbands spawned, face down or defeated, each once; a fight on exactly while the combat's frames
are pending, the combat's fields at rest otherwise; the dice only during a move; the frames' kinds and seats.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from envs.core.game import StateFormatError
from envs.runebound.board_cards import ASSET_TYPES, TROPHY_KINDS
from envs.runebound.board_state import MARKET_SLOTS, MAX_HAND, NONE, WARBAND_FIGHT, BoardKind, BoardOutcome, Prepare
from envs.runebound.state import COMBAT_KINDS, NOWHERE, Outcome
from envs.runebound.symbols import HERO
from envs.runebound.validation import validate_combat

if TYPE_CHECKING:
    from envs.runebound.board import BoardState


AT_REST = {
    "enemy": NOWHERE,
    "combat_tokens": ((), ()),
    "combat_damage": (0, 0),
    "combat_round": 0,
    "initiative": NOWHERE,
    "passed": (False, False),
    "charged": (False, False),
    "silenced": (False, False),
    "barrier": (0, 0),
    "combat_round_damage": (0, 0),
    "combat_triggered": ((), ()),
    "combat_outcome": Outcome.ONGOING,
}
"""The combat's fields between fights (`BoardState._rest_combat`)."""
CITY_FRAMES = frozenset({BoardKind.DEAL_MARKET, BoardKind.SHOP_DRAW, BoardKind.SHOP, BoardKind.RESTOCK})
TEST_FRAMES = frozenset({BoardKind.EXERT, BoardKind.TEST_ROLL})
MAX_TEST_BONUS = 40
"""Bound on a test's exerted bonus (a hand of at most 9 skills of at most 4 each)."""
HAND_GROWS = frozenset({BoardKind.DISCARD_SKILL, BoardKind.DRAW_SKILL})
"""Frames while the hand may hold more than its size: a train's draws and the discard after them."""


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
    kinds = {frame.kind for frame in stack}
    if state.hero != NOWHERE and len(state.hand) > state.hand_size() and not kinds & HAND_GROWS:
        raise _fail("hand", f"more than the hand size ({state.hand_size()}) with no discard pending")
    size = game.board.scenario.market_size
    shopping = {frame.detail("city") for frame in stack if frame.kind in (BoardKind.SHOP, BoardKind.SHOP_DRAW)}
    for city, market in enumerate(state.markets):
        if len(market) > size and city not in shopping:
            raise _fail(f"markets[{city}]", f"a market holds {size} assets but during a shop action in its city")
    if stack and stack[-1].kind == BoardKind.CHOOSE_ACTION and state.actions_left < 1:
        raise _fail("actions_left", "the hero chooses an action only while one is left")
    if len(state.quests) > game.board.scenario.max_quests:
        raise _fail("quests", f"at most {game.board.scenario.max_quests} quests are held")
    if state.actions_left and BoardKind.START_TURN in kinds:
        raise _fail("actions_left", "no action is left between turns")
    moving = any(frame.kind == BoardKind.MOVE_STEP for frame in stack)
    rolling = any(frame.kind == BoardKind.ROLL_DIE for frame in stack)
    if state.dice and not moving:
        raise _fail("dice", "terrain dice are held only during a move")
    if state.wounds >= state.max_health() and state.outcome != BoardOutcome.DEFEATED and state.hero != NOWHERE:
        raise _fail("wounds", f"the hero's health is {state.max_health()}: it would be defeated")
    if rolling and not moving:
        raise _fail("stack", "a terrain die is rolled only for a move")
    _check_board_frames(state)
    _check_board_stack(state)
    _check_turn(state)
    _check_fight(state)


ONCE = frozenset(
    {
        BoardKind.BOARD_SETUP,
        BoardKind.PICK_HERO,
        BoardKind.END_SETUP,
        BoardKind.START_TURN,
        BoardKind.NEXT_ACTION,
        BoardKind.CHOOSE_ACTION,
        BoardKind.MOVE_WARBANDS,
        BoardKind.DRAW_STORY,
        BoardKind.MOVE_STEP,
        BoardKind.SHOP,
        BoardKind.SHOP_DRAW,
        BoardKind.EXERT,
        BoardKind.TEST_ROLL,
        BoardKind.DRAW_ADVENTURE,
        BoardKind.FIGHT_EXERT,
    }
)
"""Board frames a stack holds at most once."""
BOTTOMS = frozenset({BoardKind.BOARD_SETUP, BoardKind.START_TURN, BoardKind.NEXT_ACTION, BoardKind.CHOOSE_ACTION})
"""The frames a board stack starts from: the setup, the next turn, the next action, the choice of an action."""
BETWEEN_TURNS = frozenset(
    {
        BoardKind.END_SETUP,
        BoardKind.DEAL_MARKET,
        BoardKind.SPAWN_WARBAND,
        BoardKind.MOVE_WARBANDS,
        BoardKind.DRAW_STORY,
    }
)
"""Frames only above the next turn's start (the setup's and the end of a turn's)."""
ACTION_FRAMES = frozenset(
    {BoardKind.MOVE_STEP, BoardKind.SHOP, BoardKind.DRAW_ADVENTURE, BoardKind.EXERT, BoardKind.TEST_ROLL}
)
"""Frames an action leaves directly above the next action."""
MARKET_SHORT = frozenset(
    {BoardKind.BOARD_SETUP, BoardKind.DEAL_MARKET, BoardKind.SHOP, BoardKind.SHOP_DRAW, BoardKind.RESTOCK}
)
"""Frames while a market may hold fewer assets than its size: the setup's deals, a shop, a restock to come."""
EFFECT_FRAMES = frozenset({BoardKind.DRAW_SKILL, BoardKind.DISCARD_SKILL, BoardKind.REVEAL_GEM, BoardKind.RESTOCK})
"""Frames a card's effects push, anywhere above the bottom."""


def _check_board_stack(state: BoardState) -> None:
    """The board's frames stand where the rules push them, bottom first (RULES.md, "State dicts")."""
    board = [frame for frame in state.stack if frame.kind not in COMBAT_KINDS]
    if not board:
        return
    kinds: list[str] = [frame.kind for frame in board]
    counts = Counter(kinds)
    for once in ONCE:
        if counts[once] > 1:
            raise _fail("stack", f"a {once!r} frame is pending at most once")
    bottom = kinds[0]
    if bottom not in BOTTOMS:
        raise _fail("stack[0].kind", f"the board's frames start from {sorted(BOTTOMS)}")
    if bottom == BoardKind.CHOOSE_ACTION and len(state.stack) > 1:
        raise _fail("stack[1]", "nothing is pending above the choice of an action")
    for index, kind in enumerate(kinds[1:], start=1):
        where = f"stack[{index}].kind"
        if kind in BOTTOMS and not (kind == BoardKind.START_TURN and bottom == BoardKind.BOARD_SETUP):
            raise _fail(where, f"a {kind!r} frame is only at the bottom of the stack")
        if kind == BoardKind.PICK_HERO and bottom != BoardKind.BOARD_SETUP:
            raise _fail(where, "the hero is drawn only before the setup")
        if kind in BETWEEN_TURNS and bottom != BoardKind.START_TURN:
            raise _fail(where, f"a {kind!r} frame comes only between turns (above the next turn's start)")
        if kind in ACTION_FRAMES and not (bottom == BoardKind.NEXT_ACTION and index == 1):
            raise _fail(where, f"a {kind!r} frame is an action's, directly above the next action")
        if kind == BoardKind.ROLL_DIE and kinds[index - 1] not in (BoardKind.MOVE_STEP, BoardKind.ROLL_DIE):
            raise _fail(where, "terrain dice are rolled above the move's first step")
        if kind == BoardKind.SHOP_DRAW and (kinds[index - 1] != BoardKind.SHOP or index != 2):
            raise _fail(where, "a shop draws above its shop")
    if BoardKind.SHOP_DRAW in counts:
        shop, draw = board[1], board[2]
        if shop.detail("city") != draw.detail("city"):
            raise _fail("stack[2].details.city", "a shop draws for its own city")
    if not counts.keys() & MARKET_SHORT and state.outcome == BoardOutcome.ONGOING and state.asset_deck:
        size = state.game.board.scenario.market_size
        for city, market in enumerate(state.markets):
            if len(market) != size:
                raise _fail(f"markets[{city}]", f"a market holds {size} assets while the deck lasts and no deal is due")
    deals = Counter(frame.detail("city") for frame in board if frame.kind == BoardKind.DEAL_MARKET)
    if deals or BoardKind.END_SETUP in counts:
        size = state.game.board.scenario.market_size
        for city, market in enumerate(state.markets):
            if len(market) + deals[city] != size:
                raise _fail(
                    f"markets[{city}]",
                    f"the setup deals each market {size} assets: it holds {len(market)}, {deals[city]} to come",
                )
    rolls = counts[BoardKind.ROLL_DIE]
    if state.hero != NOWHERE and len(state.dice) + rolls > state.dice_count():
        raise _fail("dice", f"a move rolls {state.dice_count()} terrain dice")


def _check_turn(state: BoardState) -> None:
    """The time within the track while the game goes on; the actions left within a turn's (3, 4 with a prepare token
    spent); a test's bonus and an adventure's deck in range."""
    track = 2 * state.game.board.scenario.act_length
    if state.outcome == BoardOutcome.TIME_OUT and state.time != track:
        raise _fail("time", f"the time runs out at the track's end ({track})")
    if state.outcome != BoardOutcome.TIME_OUT and state.time >= track:
        raise _fail("time", f"the track ends at {track}, which loses the scenario")
    most = 3 + (state.prepare == Prepare.NONE)
    if state.actions_left > most:
        raise _fail("actions_left", f"at most {most} actions in a turn (4 only with a prepare token spent)")


def _check_board_frames(state: BoardState) -> None:
    """Each board frame's details: a market's city, an adventure deck, a test's card and bonus; none for the others."""
    game = state.game
    for index, frame in enumerate(state.stack):
        if frame.kind in COMBAT_KINDS:
            continue
        where = f"stack[{index}].details"
        details = dict(frame.details)
        wanted: tuple[str, ...] = ()
        if frame.kind in CITY_FRAMES:
            wanted = ("city",)
        elif frame.kind == BoardKind.DRAW_ADVENTURE:
            wanted = ("deck",)
        elif frame.kind in TEST_FRAMES:
            wanted = ("adventure", "bonus")
        elif frame.kind == BoardKind.FIGHT_EXERT:
            wanted = ("ability", "paid")
        if sorted(details) != sorted(wanted):
            raise _fail(where, f"a {frame.kind!r} frame has the details {list(wanted)}, got {sorted(details)}")
        if "city" in details and details["city"] not in range(len(game.cities)):
            raise _fail(f"{where}.city", f"a city's index 0..{len(game.cities) - 1}")
        if "deck" in details and details["deck"] not in TROPHY_KINDS:
            raise _fail(f"{where}.deck", f"an adventure deck ({', '.join(TROPHY_KINDS)})")
        if "adventure" in details:
            card = details["adventure"]
            if game.board.adventures[card].kind != "test":
                raise _fail(f"{where}.adventure", f"{game.board.adventures[card].name!r} is not a test")
            bonus = details["bonus"]
            if not isinstance(bonus, int) or isinstance(bonus, bool) or not 0 <= bonus <= MAX_TEST_BONUS:
                raise _fail(f"{where}.bonus", f"an integer in 0..{MAX_TEST_BONUS}")
        if frame.kind == BoardKind.FIGHT_EXERT:
            _check_fight_exert(state, details, where)


def _check_fight_exert(state: BoardState, details: dict[str, Any], where: str) -> None:
    """An exert in a fight: for an exert ability of the hero's not yet used this round, with a skill in hand."""
    abilities = state.hero_card().abilities
    slot, paid = details["ability"], details["paid"]
    if not isinstance(slot, int) or isinstance(slot, bool) or slot not in range(len(abilities)):
        raise _fail(f"{where}.ability", f"the hero's ability slot 0..{len(abilities) - 1}")
    if not abilities[slot].exert:
        raise _fail(f"{where}.ability", f"{abilities[slot].name!r} does not exert")
    if abilities[slot].once_per_round and state.has_triggered(HERO, slot):
        raise _fail(f"{where}.ability", f"{abilities[slot].name!r} was used this combat round")
    if not isinstance(paid, bool):
        raise _fail(f"{where}.paid", "true or false (a tactics copying surges paid the ability)")
    if not state.hand:
        raise _fail("hand", "an exert in a fight discards a skill from the hand, which is empty")


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
    for card in range(len(game.asset_card_names)):
        if places[card] != 1:
            where = "in no place" if not places[card] else f"in {places[card]} places"
            raise _fail("asset_deck", f"{game.asset_card_names[card]!r} is {where} (deck, discard, markets, held)")
    for slot, card in enumerate(state.assets):
        if card == NONE:
            continue
        if game.is_twist(card) or game.board.assets[card].type != ASSET_TYPES[slot]:
            raise _fail(f"assets.{ASSET_TYPES[slot]}", f"{game.asset_card_names[card]!r} is not a {ASSET_TYPES[slot]}")
    skills = Counter([*state.skill_deck, *state.skill_discard, *state.hand, *state.learned])
    for skill in range(len(game.board.skills)):
        if skills[skill] != 1:
            where = "in no place" if not skills[skill] else f"in {skills[skill]} places"
            raise _fail("skill_deck", f"{game.board.skills[skill].name!r} is {where} (deck, discard, hand, learned)")
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
    for card in range(len(names)):
        if seen[card] != 1:
            where = "in no place" if not seen[card] else f"in {seen[card]} places"
            raise _fail("warbands", f"{names[card]!r} is {where} (face down, in play, defeated)")
    won = len(state.defeated) == len(names)
    if won != (state.outcome == BoardOutcome.WON):
        raise _fail("outcome", "the scenario is won exactly when every warband is defeated")


def _check_fight(state: BoardState) -> None:
    """A fight on exactly while the combat's frames are pending (then the combat's own checks), at rest otherwise."""
    stack = state.stack
    exerting = [index for index, frame in enumerate(stack) if frame.kind == BoardKind.FIGHT_EXERT]
    if exerting:
        if exerting[0] != len(stack) - 1 or len(stack) < 2 or stack[-2].kind not in COMBAT_KINDS:
            raise _fail(f"stack[{exerting[0]}].kind", "an exert in a fight is decided on top of the fight's frames")
        stack = stack[:-1]
    first = next((index for index, frame in enumerate(stack) if frame.kind in COMBAT_KINDS), len(stack))
    frames = stack[first:]
    if any(frame.kind not in COMBAT_KINDS for frame in frames):
        raise _fail(f"stack[{first}]", "the fight's frames are on top of the board's")
    if state.fight == NONE:
        if frames:
            raise _fail("fight", "the combat's frames are pending, so a fight is on")
        for name, value in (
            ("enemy", state.enemy),
            ("combat_tokens", state.combat_tokens),
            ("combat_damage", state.combat_damage),
            ("combat_round", state.combat_round),
            ("initiative", state.initiative),
            ("passed", state.passed),
            ("charged", state.charged),
            ("silenced", state.silenced),
            ("barrier", state.barrier),
            ("combat_round_damage", state.combat_round_damage),
            ("combat_triggered", state.combat_triggered),
            ("combat_outcome", state.combat_outcome),
        ):
            if value != AT_REST[name]:
                raise _fail(name, f"between fights the combat's fields are at rest ({AT_REST[name]!r})")
        return
    if not frames:
        raise _fail("fight", "no combat frame is pending, so no fight is on")
    if state.fight >= WARBAND_FIGHT:
        if state.fight - WARBAND_FIGHT >= len(state.warbands):
            raise _fail("fight", "no such warband in play")
    elif state.fight >= len(state.game.board.adventures) or state.game.board.adventures[state.fight].kind != "fight":
        raise _fail("fight", "a fight is for a fight adventure or a warband")
    validate_combat(state, frames, first)
