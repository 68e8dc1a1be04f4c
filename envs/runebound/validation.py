"""Runebound combat positions that cannot happen, refused by `StateFormatError` naming the field.

`CombatStateData.from_dict` decodes every field by its declaration (types, names, sizes); `validate_state` then checks
what a field alone cannot say: the hero and enemy the game plays, each side's tokens (the hero's own then its
weapons'; the first 4 + Act of the enemy's trait set), faces not cast only while a cast is pending or between rounds,
doubles stacked only on the enemy's tokens that can take them, damage within health and matching how the combat
ended, per-round values only during a round, abilities triggered by the side that owns them, and the frame stack
(kinds, and every detail a frame's kind needs, in range). tests/runebound/test_state_dicts.py rebuilds every state of
random combats from its dict and refuses mutated ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.decisions import DecisionFrame
from envs.core.game import StateFormatError
from envs.runebound.state import NOT_CAST, NOWHERE, ROUND_CAP, Kind, Outcome
from envs.runebound.symbols import ENEMY, HERO, SIDE_NAMES, SIDES, Symbol

if TYPE_CHECKING:
    from envs.runebound.state import CombatStateData

CAST_REASONS = ("round", "recast", "spent")
"""A CAST frame's `why` (rules.py: CAST_ROUND, CAST_AGAIN, CAST_SPENT)."""
MAX_AMOUNT = 99
"""Bound on an amount of damage or surges in a frame."""
ROUND_FRAMES = frozenset(
    {Kind.HERO_ACTION, Kind.NEXT_ACTION, Kind.ENEMY_ACTION, Kind.GROUP, Kind.AGILITY, Kind.COPY, Kind.END_ROUND}
)
"""Frames that exist only during a round's combat actions."""


def validate_state(state: CombatStateData) -> None:
    """Refuse a position no combat reaches; StateFormatError names the first field found wrong."""
    _check_content(state)
    _check_tokens(state)
    _check_values(state)
    _check_stack(state)


def _fail(field: str, message: str) -> StateFormatError:
    return StateFormatError(field, message)


def _pending(state: CombatStateData, kind: str) -> bool:
    return any(frame.kind == kind for frame in state.stack)


def _check_content(state: CombatStateData) -> None:
    """The hero and enemy are the game's (or still to be drawn), and each side holds the tokens it casts."""
    game, cards = state.game, state.game.cards
    names = state.name_tables()
    if state.hero == NOWHERE:
        if not _pending(state, Kind.PICK_HERO):
            raise _fail("hero", "no hero, and no draw of one pending")
    elif game.hero_choice != NOWHERE and state.hero != game.hero_choice:
        raise _fail("hero", f"this game's hero is {cards.heroes[game.hero_choice].name!r}")
    if state.enemy == NOWHERE:
        if not _pending(state, Kind.PICK_ENEMY):
            raise _fail("enemy", "no enemy, and no draw of one pending")
    elif state.enemy not in game.enemy_pool:
        pool = ", ".join(cards.enemies[e].name for e in game.enemy_pool)
        raise _fail("enemy", f"{names.name('enemy', state.enemy)!r} is not among this game's enemies ({pool})")
    if _pending(state, Kind.SETUP) or state.hero == NOWHERE or state.enemy == NOWHERE:
        for side in SIDES:
            if state.tokens[side]:
                raise _fail(f"tokens.{SIDE_NAMES[side]}", "tokens are taken at setup, which is still pending")
        return
    hero_tokens = [held.token for held in state.tokens[HERO]]
    own = cards.hero_own_tokens(state.hero)
    if tuple(hero_tokens[: len(own)]) != own:
        wanted = [cards.tokens[t].name for t in own]
        raise _fail("tokens.hero", f"the hero's tokens start with its own: {wanted}")
    weapon_tokens = {cards.token_index[weapon.token] for weapon in cards.weapons}
    extra = hero_tokens[len(own) :]
    for offset, token in enumerate(extra):
        if token not in weapon_tokens:
            raise _fail(f"tokens.hero[{len(own) + offset}].token", "after its own, a hero casts its weapons' tokens")
        if token in extra[:offset]:
            raise _fail(f"tokens.hero[{len(own) + offset}].token", "a weapon's token is held once")
    enemy_tokens = tuple(held.token for held in state.tokens[ENEMY])
    wanted_enemy = cards.enemy_tokens(state.enemy, game.act)
    if enemy_tokens != wanted_enemy:
        wanted = [cards.tokens[t].name for t in wanted_enemy]
        raise _fail("tokens.enemy", f"the enemy casts the first 4 + Act of its trait's set: {wanted}")


def _check_tokens(state: CombatStateData) -> None:
    """Faces not cast only while their cast is pending (or between rounds); doubles stacked as the board allows."""
    casting = {
        (frame.detail("side"), frame.detail("token"))
        for frame in state.stack
        if frame.kind == Kind.CAST and frame.detail("why") == "round"
    }
    between = _pending(state, Kind.START_ROUND) or state.outcome != Outcome.ONGOING
    cast_any = False
    faces = state.game.faces
    for side in SIDES:
        name = SIDE_NAMES[side]
        tokens = state.tokens[side]
        bases: set[int] = set()
        for index, held in enumerate(tokens):
            where = f"tokens.{name}[{index}]"
            if held.face == NOT_CAST:
                if held.spent or held.on != NOWHERE:
                    raise _fail(where, "a token not cast is neither spent nor stacked")
                if (side, index) not in casting and not between:
                    raise _fail(f"{where}.face", "not cast, but no cast of it is pending and the round is under way")
                continue
            cast_any = True
            if (side, index) in casting:
                raise _fail(f"{where}.face", "cast already, yet its cast is pending")
            if held.on == NOWHERE:
                continue
            if side == HERO:
                raise _fail(f"{where}.on", "only the enemy's board stacks a double on a token")
            if held.spent:
                raise _fail(f"{where}.on", "a spent token sits on no stack")
            if faces[held.token][held.face].symbol != Symbol.DOUBLE:
                raise _fail(f"{where}.on", "only a token showing a double is stacked on another")
            if not 0 <= held.on < len(tokens) or held.on == index:
                raise _fail(f"{where}.on", f"expected another of the enemy's tokens 0..{len(tokens) - 1}")
            base = tokens[held.on]
            if base.face == NOT_CAST or base.spent or base.on != NOWHERE:
                raise _fail(f"{where}.on", "a double sits on a cast, unspent token that is not itself stacked")
            if faces[base.token][base.face].symbol in (Symbol.DOUBLE, Symbol.BLANK):
                raise _fail(f"{where}.on", "a double doubles a token with a number, not a double or a blank")
            if held.on in bases:
                raise _fail(f"{where}.on", "two doubles on one token")
            bases.add(held.on)
    if cast_any and between and state.outcome == Outcome.ONGOING:
        raise _fail("tokens", "tokens are cast at the start of a round, which is still pending")
    if not cast_any and not casting:
        for field in ("passed", "charged", "silenced"):
            if any(getattr(state, field)):
                raise _fail(field, "set outside a round (it lasts one round)")
        if any(state.barrier):
            raise _fail("barrier", "a barrier lasts one round")
        if any(state.triggered):
            raise _fail("triggered", "abilities are triggered during a round")


def _check_values(state: CombatStateData) -> None:
    """Damage within health and matching the outcome; round and initiative; abilities owned by their side."""
    cards = state.game.cards
    if state.hero != NOWHERE and state.enemy != NOWHERE:
        healths = (cards.heroes[state.hero].health, cards.enemies[state.enemy].health)
        for side, outcome in ((HERO, Outcome.LOST), (ENEMY, Outcome.WON)):
            field = f"damage.{SIDE_NAMES[side]}"
            if state.damage[side] > healths[side]:
                raise _fail(field, f"more than the {SIDE_NAMES[side]}'s health ({healths[side]})")
            if (state.damage[side] == healths[side]) != (state.outcome == outcome):
                raise _fail(field, f"a side is defeated exactly when its damage reaches its health ({healths[side]})")
    elif any(state.damage):
        raise _fail("damage", "no damage before the hero and enemy are known")
    if (state.outcome == Outcome.ONGOING) != bool(state.stack):
        raise _fail("outcome", "a combat goes on exactly while frames are pending")
    if state.round == 0 and any(held.face != NOT_CAST for tokens in state.tokens for held in tokens):
        raise _fail("round", "tokens are cast, so a round has started")
    if state.outcome == Outcome.DRAWN and state.round != ROUND_CAP:
        raise _fail("outcome", f"a combat is drawn only at the round cap ({ROUND_CAP})")
    if state.initiative == NOWHERE and any(frame.kind in ROUND_FRAMES for frame in state.stack):
        raise _fail("initiative", "combat actions are under way, so initiative was taken")
    for side in SIDES:
        ids = state.triggered[side]
        if len(set(ids)) != len(ids):
            raise _fail(f"triggered.{SIDE_NAMES[side]}", "an ability triggered twice in a round")
        if not ids:
            continue
        base = state.game.hero_ability_base[state.hero] if side == HERO else state.game.enemy_ability_base[state.enemy]
        count = len(cards.heroes[state.hero].abilities if side == HERO else cards.enemies[state.enemy].abilities)
        for id_ in ids:
            if not base <= id_ < base + count:
                raise _fail(f"triggered.{SIDE_NAMES[side]}", "an ability of another card")


FRAME_DETAILS: dict[str, tuple[str, ...]] = {
    Kind.CAST: ("side", "token", "why"),
    Kind.NEXT_ACTION: ("side",),
    Kind.ENEMY_AGILITY: ("tokens",),
    Kind.DAMAGE: ("side", "amount", "symbol", "blockable"),
    Kind.GROUP: ("symbol", "tokens", "doubles"),
    Kind.AGILITY: ("source",),
    Kind.COPY: ("token",),
    Kind.COPIED_SURGE: ("amount",),
    Kind.BLOCK: ("amount", "symbol"),
    Kind.PREVENT: ("token",),
}
"""The details each kind of frame carries (the others carry none)."""


def _check_stack(state: CombatStateData) -> None:
    """Every frame's kind known, decided by its seat, with the details its kind needs, in range."""
    state.check_frames(1)  # type: ignore[attr-defined]
    for position, frame in enumerate(state.stack):
        where = f"stack[{position}].details"
        wanted = FRAME_DETAILS.get(frame.kind, ())
        given = {name for name, _ in frame.details}
        for name in sorted(given - set(wanted)):
            raise _fail(f"{where}.{name}", f"a {frame.kind!r} frame has no such detail (it has: {list(wanted)})")
        for name in wanted:
            if name not in given:
                raise _fail(f"{where}.{name}", f"missing (a {frame.kind!r} frame has: {list(wanted)})")
        _check_details(state, frame, where)
    if state.hero != NOWHERE and _pending(state, Kind.PICK_HERO):
        raise _fail("stack", "a hero is drawn, but the hero is known")
    if state.enemy != NOWHERE and _pending(state, Kind.PICK_ENEMY):
        raise _fail("stack", "an enemy is drawn, but the enemy is known")


def _check_details(state: CombatStateData, frame: DecisionFrame, where: str) -> None:
    def token_of(side: int, value: Any, name: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(state.tokens[side]):
            count = len(state.tokens[side])
            raise _fail(
                f"{where}.{name}", f"expected one of the {SIDE_NAMES[side]}'s tokens 0..{count - 1}, got {value!r}"
            )

    def number(name: str, low: int, high: int = MAX_AMOUNT) -> None:
        value = frame.detail(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _fail(f"{where}.{name}", f"expected an integer {low}..{high}, got {value!r}")

    kind = frame.kind
    if "side" in FRAME_DETAILS.get(kind, ()):
        number("side", 0, 1)
    if "symbol" in FRAME_DETAILS.get(kind, ()):
        number("symbol", 0, len(Symbol) - 1)
    if kind == Kind.CAST:
        token_of(frame.detail("side"), frame.detail("token"), "token")
        if frame.detail("why") not in CAST_REASONS:
            raise _fail(f"{where}.why", f"expected one of {CAST_REASONS}, got {frame.detail('why')!r}")
    elif kind == Kind.DAMAGE:
        number("amount", 0)
        if not isinstance(frame.detail("blockable"), bool):
            raise _fail(f"{where}.blockable", "expected true or false")
    elif kind in (Kind.COPIED_SURGE, Kind.BLOCK):
        number("amount", 1)
    elif kind in (Kind.AGILITY, Kind.COPY, Kind.PREVENT):
        name = "source" if kind == Kind.AGILITY else "token"
        token_of(HERO, frame.detail(name), name)
    elif kind == Kind.ENEMY_AGILITY:
        tokens = frame.detail("tokens")
        if not isinstance(tokens, tuple) or not tokens:
            raise _fail(f"{where}.tokens", "expected a non-empty list of the enemy's agility tokens")
        for value in tokens:
            token_of(ENEMY, value, "tokens")
    elif kind == Kind.GROUP:
        for name in ("tokens", "doubles"):
            values = frame.detail(name)
            if not isinstance(values, tuple) or (name == "tokens" and not values):
                raise _fail(f"{where}.{name}", "expected a list of the hero's tokens")
            for value in values:
                token_of(HERO, value, name)
                if state.tokens[HERO][value].spent or state.tokens[HERO][value].face == NOT_CAST:
                    raise _fail(f"{where}.{name}", f"hero token {value} is not in the pool")
