"""Runebound combat positions that cannot happen, refused by `StateFormatError` naming the field.

`validate_combat` checks a combat wherever it is held (the combat's part of a host state's `validate()`);
`validate_state` checks `RuneboundCombat-v0`'s positions: its own fields and settings, then the combat.

`CombatStateData.from_dict` decodes every field by its declaration (types, names, sizes); `validate_state` then checks
what a field alone cannot say: the hero and enemy the game plays, each side's tokens (the hero's own then its
weapons'; the first 4 + Act of the enemy's trait set), faces not cast only while a cast is pending or between rounds,
doubles stacked only on the enemy's tokens that can take them, damage within health and matching how the combat
ended, per-round values only during a round's combat actions (damage taken this round part of the damage, a charged
side holding a spent token), abilities triggered by the side that owns them, and the frame stack (kinds, and every
detail a frame's kind needs, in range). tests/runebound/test_state_dicts.py rebuilds every state of random combats
from its dict and refuses mutated ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envs.core.decisions import DecisionFrame
from envs.core.game import StateFormatError
from envs.runebound.state import (
    COMBAT_KINDS,
    LOADOUT,
    MAX_BARRIER,
    NOT_CAST,
    NOWHERE,
    ROUND_CAP,
    DrawKind,
    Kind,
    Outcome,
)
from envs.runebound.symbols import (
    ATTACK_SYMBOLS,
    ENEMY,
    HERO,
    NOTHING_TO_DOUBLE,
    SIDE_NAMES,
    SIDES,
    SYMBOL_NAMES,
    Symbol,
)

if TYPE_CHECKING:
    from envs.core.decisions import DecisionStack
    from envs.runebound.combat import CombatRules
    from envs.runebound.rules import CombatState

CAST_REASONS = ("round", "recast", "spent")
"""A CAST frame's `why` (rules.py: CAST_ROUND, CAST_AGAIN, CAST_SPENT)."""
MAX_AMOUNT = 99
"""Bound on an amount of damage or surges in a frame."""
ROUND_FRAMES = frozenset(
    {
        Kind.HERO_COMBAT_ACTION,
        Kind.NEXT_COMBAT_ACTION,
        Kind.ENEMY_COMBAT_ACTION,
        Kind.COMBAT_GROUP,
        Kind.AGILITY,
        Kind.COPY,
        Kind.END_COMBAT_ROUND,
    }
)
"""Frames that exist only during a round's combat actions."""


def validate_state(state: CombatState) -> None:
    """`RuneboundCombat-v0`'s positions: the game's hero and enemy (or their draws pending), its Act's loadout under
    `weapons="loadout"`, the draws above the combat's setup, a combat that goes on exactly while frames are pending, the
    hero's decisions, then the combat itself (`validate_combat`). StateFormatError names the first field found wrong."""
    game, cards = state.game, state.game.cards
    names = state.name_tables()
    stack = state.stack
    if state.hero == NOWHERE:
        if not _pending(stack, DrawKind.PICK_HERO):
            raise _fail("hero", "no hero, and no draw of one pending")
    elif game.hero_choice != NOWHERE and state.hero != game.hero_choice:
        raise _fail("hero", f"this game's hero is {cards.heroes[game.hero_choice].name!r}")
    if state.enemy == NOWHERE:
        if not _pending(stack, DrawKind.PICK_ENEMY):
            raise _fail("enemy", "no enemy, and no draw of one pending")
    elif state.enemy not in game.enemy_pool:
        pool = ", ".join(cards.enemies[e].name for e in game.enemy_pool)
        raise _fail("enemy", f"{names.name('enemy', state.enemy)!r} is not among this game's enemies ({pool})")
    if game.weapons == LOADOUT and state.combat_tokens[HERO] and state.hero != NOWHERE:
        hero_tokens = tuple(held.token for held in state.combat_tokens[HERO])
        carried = cards.hero_tokens(state.hero, game.act)
        if hero_tokens != carried:
            wanted = [cards.tokens[t].name for t in carried]
            raise _fail(
                "combat_tokens.hero", f"the hero casts its own tokens, then its Act's loadout's weapons': {wanted}"
            )
    if (state.combat_outcome == Outcome.ONGOING) != bool(stack):
        raise _fail("combat_outcome", "a combat goes on exactly while frames are pending")
    if state.decisions < state.combat_round - 1:
        raise _fail(
            "decisions", f"the hero decided to stay after each of the {state.combat_round - 1} rounds before this one"
        )
    if state.combat_round == 0 and state.decisions:
        raise _fail("decisions", "the hero decides nothing before the first round")
    state.check_frames(1)
    if state.hero != NOWHERE and _pending(stack, DrawKind.PICK_HERO):
        raise _fail("stack", "a hero is drawn, but the hero is known")
    if state.enemy != NOWHERE and _pending(stack, DrawKind.PICK_ENEMY):
        raise _fail("stack", "an enemy is drawn, but the enemy is known")
    frames = stack
    if stack and stack[0].kind == Kind.COMBAT_SETUP:
        kinds = [frame.kind for frame in stack]
        if kinds != [kind for kind in SETUP_FRAMES if kind in kinds]:
            raise _fail("stack", f"before the first round the stack is {list(SETUP_FRAMES)} (the draws optional)")
        frames = stack[:1]
    for position, frame in enumerate(frames):
        if frame.kind not in COMBAT_KINDS:
            raise _fail(f"stack[{position}].kind", f"a {frame.kind!r} frame comes only before the combat's setup")
    validate_combat(state, frames)


SETUP_FRAMES = (Kind.COMBAT_SETUP, DrawKind.PICK_ENEMY, DrawKind.PICK_HERO)
"""`RuneboundCombat-v0`'s stack before its combat, bottom first (the draws only while the hero or enemy is random)."""


def validate_combat(state: CombatRules, frames: DecisionStack, first: int | None = None) -> None:
    """Refuse a combat no fight reaches, the combat's part of a host's validation: `frames` are the host's stack from
    the combat's bottom frame up (every frame of the combat; empty once it is over), at `first` in it (by default the
    top of the stack). StateFormatError names the first field found wrong (a frame by its place in the host's
    stack)."""
    if first is None:
        first = len(state.stack) - len(frames)
    _check_content(state, frames)
    _check_tokens(state, frames)
    _check_values(state, frames)
    _check_frames(state, frames, first)


def _fail(field: str, message: str) -> StateFormatError:
    return StateFormatError(field, message)


def _pending(frames: DecisionStack, kind: str) -> bool:
    return any(frame.kind == kind for frame in frames)


def _check_content(state: CombatRules, frames: DecisionStack) -> None:
    """Each side holds the tokens it casts: the hero its own, then its weapons' (each once); the enemy the first
    4 + Act of its trait's set; none before the combat's setup."""
    cards = state.game.cards
    hero, enemy = state.combat_hero(), state.enemy
    if _pending(frames, Kind.COMBAT_SETUP) or hero == NOWHERE or enemy == NOWHERE:
        for side in SIDES:
            if state.combat_tokens[side]:
                raise _fail(f"combat_tokens.{SIDE_NAMES[side]}", "tokens are taken at setup, which is still pending")
        return
    _check_weapons(state, tuple(held.token for held in state.combat_tokens[HERO]))
    enemy_tokens = tuple(held.token for held in state.combat_tokens[ENEMY])
    wanted_enemy = cards.enemy_tokens(enemy, state.combat_act())
    if enemy_tokens != wanted_enemy:
        wanted = [cards.tokens[t].name for t in wanted_enemy]
        raise _fail("combat_tokens.enemy", f"the enemy casts the first 4 + Act of its trait's set: {wanted}")


def _check_weapons(state: CombatRules, hero_tokens: tuple[int, ...]) -> None:
    """The hero's tokens: its own, then weapons' tokens, each once."""
    cards = state.game.cards
    own = cards.hero_own_tokens(state.combat_hero())
    if hero_tokens[: len(own)] != own:
        wanted = [cards.tokens[t].name for t in own]
        raise _fail("combat_tokens.hero", f"the hero's tokens start with its own: {wanted}")
    weapon_tokens = {cards.token_index[weapon.token] for weapon in cards.weapons}
    extra = hero_tokens[len(own) :]
    for offset, token in enumerate(extra):
        if token not in weapon_tokens:
            raise _fail(
                f"combat_tokens.hero[{len(own) + offset}].token", "after its own, a hero casts its weapons' tokens"
            )
        if token in extra[:offset]:
            raise _fail(f"combat_tokens.hero[{len(own) + offset}].token", "a weapon's token is held once")


def _check_tokens(state: CombatRules, frames: DecisionStack) -> None:
    """Faces not cast only while their cast is pending (or between rounds); doubles stacked as the board allows."""
    casting = {
        (frame.detail("side"), frame.detail("token"))
        for frame in frames
        if frame.kind == Kind.CAST and frame.detail("why") == "round"
    }
    between = _pending(frames, Kind.START_COMBAT_ROUND) or state.combat_outcome != Outcome.ONGOING
    cast_any = False
    faces = state.game.faces
    for side in SIDES:
        name = SIDE_NAMES[side]
        tokens = state.combat_tokens[side]
        bases: set[int] = set()
        for index, held in enumerate(tokens):
            where = f"combat_tokens.{name}[{index}]"
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
            if faces[base.token][base.face].symbol in NOTHING_TO_DOUBLE:
                raise _fail(f"{where}.on", "a double doubles a token with a number, not a double or a blank")
            if held.on in bases:
                raise _fail(f"{where}.on", "two doubles on one token")
            bases.add(held.on)
    if cast_any and between and state.combat_outcome == Outcome.ONGOING:
        raise _fail("combat_tokens", "tokens are cast at the start of a round, which is still pending")


def _check_values(state: CombatRules, frames: DecisionStack) -> None:
    """Damage within health and matching the outcome; round and initiative; abilities owned by their side."""
    cards = state.game.cards
    hero = state.combat_hero()
    if hero != NOWHERE and state.enemy != NOWHERE:
        healths = (state.combat_hero_health(), cards.enemies[state.enemy].health)
        for side, outcome in ((HERO, Outcome.LOST), (ENEMY, Outcome.WON)):
            field = f"combat_damage.{SIDE_NAMES[side]}"
            if state.combat_damage[side] > healths[side]:
                raise _fail(field, f"more than the {SIDE_NAMES[side]}'s health ({healths[side]})")
            if (state.combat_damage[side] == healths[side]) != (state.combat_outcome == outcome):
                raise _fail(field, f"a side is defeated exactly when its damage reaches its health ({healths[side]})")
    elif any(state.combat_damage):
        raise _fail("combat_damage", "no damage before the hero and enemy are known")
    if state.combat_round == 0 and any(held.face != NOT_CAST for tokens in state.combat_tokens for held in tokens):
        raise _fail("combat_round", "tokens are cast, so a round has started")
    if state.combat_outcome == Outcome.DRAWN and state.combat_round != ROUND_CAP:
        raise _fail("combat_outcome", f"a combat is drawn only at the round cap ({ROUND_CAP})")
    if state.initiative == NOWHERE and any(frame.kind in ROUND_FRAMES for frame in frames):
        raise _fail("initiative", "combat actions are under way, so initiative was taken")
    if state.combat_outcome in (Outcome.FLED, Outcome.DRAWN) and state.initiative != NOWHERE:
        raise _fail("initiative", "a flight or a draw comes at a round's end, which forgets the initiative")
    if state.combat_outcome in (Outcome.WON, Outcome.LOST) and state.initiative == NOWHERE:
        raise _fail("initiative", "a side is defeated during the combat actions, after initiative was taken")
    _check_round_values_need_actions(state)
    for side in SIDES:
        ids = state.combat_triggered[side]
        if not ids:
            continue
        field = f"combat_triggered.{SIDE_NAMES[side]}"
        base = state.game.hero_ability_base[hero] if side == HERO else state.game.enemy_ability_base[state.enemy]
        abilities = cards.heroes[hero].abilities if side == HERO else cards.enemies[state.enemy].abilities
        for position, id_ in enumerate(ids):
            if not base <= id_ < base + len(abilities):
                raise _fail(field, "an ability of another card")
            ability = abilities[id_ - base]
            if side == ENEMY and not ability.surge:
                raise _fail(field, f"{ability.name!r} is an agility ability: only surge abilities are marked triggered")
            if id_ in ids[:position] and (side == ENEMY or ability.once_per_round):
                raise _fail(field, f"{ability.name!r} is triggered at most once per combat round")
    _check_round_effects(state)


ROUND_VALUES = ("passed", "charged", "silenced", "barrier", "combat_round_damage", "combat_triggered")
"""The values that last one round: each starts empty, is set by a combat action (a pass, charge spent, an ability,
damage taken) and is forgotten at the round's end."""


def _check_round_values_need_actions(state: CombatRules) -> None:
    """A value that lasts one round is set only once the round's combat actions began: initiative is taken after the
    casts, and every pass, charge, ability and damage is a combat action or resolves one (RULES.md, "State dicts")."""
    if state.initiative != NOWHERE:
        return
    for field in ROUND_VALUES:
        for side in SIDES:
            if getattr(state, field)[side]:
                raise _fail(
                    f"{field}.{SIDE_NAMES[side]}",
                    "set before this round's combat actions (initiative is not taken): it comes from a combat action "
                    "and lasts one round",
                )


def _check_round_effects(state: CombatRules) -> None:
    """A side silenced this round by a silence its foe triggered; a barrier no larger than the barriers its side
    triggered this round (abilities are the only source of either: RULES.md, "Abilities"); the damage taken this round
    part of the damage on the side (but for what it healed this round, or the blow that defeated it); a side charged
    this round holds a spent token, unless an ability recast spent tokens (RULES.md, "State dicts")."""
    hero = state.combat_hero()
    if hero == NOWHERE or state.enemy == NOWHERE:
        return
    cards, game = state.game.cards, state.game
    triggered = []
    for side in SIDES:
        base = game.hero_ability_base[hero] if side == HERO else game.enemy_ability_base[state.enemy]
        abilities = cards.heroes[hero].abilities if side == HERO else cards.enemies[state.enemy].abilities
        triggered.append([abilities[id_ - base].effect for id_ in state.combat_triggered[side]])
    recast_spent = any(effect.kind == "recast_spent" for effects in triggered for effect in effects)
    for side, defeat in ((HERO, Outcome.LOST), (ENEMY, Outcome.WON)):
        name = SIDE_NAMES[side]
        if state.silenced[side] and not any(effect.kind == "silence" for effect in triggered[1 - side]):
            raise _fail(f"silenced.{name}", f"the {SIDE_NAMES[1 - side]} triggered no silence this round")
        raised = sum(effect.amount for effect in triggered[side] if effect.kind == "barrier")
        if state.barrier[side] > min(raised, MAX_BARRIER):
            raise _fail(f"barrier.{name}", f"more than the barriers the {name} triggered this round ({raised})")
        healed = sum(effect.amount for effect in triggered[side] if effect.kind == "heal")
        if state.combat_outcome != defeat and state.combat_round_damage[side] > state.combat_damage[side] + healed:
            raise _fail(
                f"combat_round_damage.{name}",
                f"more than the damage on the {name} ({state.combat_damage[side]}) and what it healed this round "
                f"({healed}): the damage taken this round is part of it",
            )
        if state.charged[side] and not recast_spent and not any(held.spent for held in state.combat_tokens[side]):
            raise _fail(
                f"charged.{name}",
                f"the {name} spent charge this round, so a token of its stays spent (no ability recast a spent token)",
            )


FRAME_DETAILS: dict[str, tuple[str, ...]] = {
    Kind.CAST: ("side", "token", "why"),
    Kind.NEXT_COMBAT_ACTION: ("side",),
    Kind.ENEMY_AGILITY: ("tokens",),
    Kind.COMBAT_DAMAGE: ("side", "amount", "symbol", "blockable"),
    Kind.COMBAT_GROUP: ("symbol", "tokens", "doubles"),
    Kind.AGILITY: ("source",),
    Kind.COPY: ("token",),
    Kind.COPIED_SURGE: ("amount",),
    Kind.BLOCK: ("amount", "symbol"),
    Kind.PREVENT: ("token",),
}
"""The details each kind of frame carries (the others carry none)."""


def _check_frames(state: CombatRules, frames: DecisionStack, first: int) -> None:
    """Every combat frame with the details its kind needs, in range, and the frames in an order the rules push them."""
    for position, frame in enumerate(frames, start=first):
        where = f"stack[{position}].details"
        wanted = FRAME_DETAILS.get(frame.kind, ())
        given = {name for name, _ in frame.details}
        for name in sorted(given - set(wanted)):
            raise _fail(f"{where}.{name}", f"a {frame.kind!r} frame has no such detail (it has: {list(wanted)})")
        for name in wanted:
            if name not in given:
                raise _fail(f"{where}.{name}", f"missing (a {frame.kind!r} frame has: {list(wanted)})")
        _check_details(state, frame, where)
    _check_stack_shape(state, frames, first)


def _check_details(state: CombatRules, frame: DecisionFrame, where: str) -> None:
    def token_of(side: int, value: Any, name: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(state.combat_tokens[side]):
            count = len(state.combat_tokens[side])
            raise _fail(
                f"{where}.{name}", f"expected one of the {SIDE_NAMES[side]}'s tokens 0..{count - 1}, got {value!r}"
            )

    def number(name: str, low: int, high: int = MAX_AMOUNT) -> None:
        value = frame.detail(name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _fail(f"{where}.{name}", f"expected an integer {low}..{high}, got {value!r}")

    def shows(side: int, index: int) -> Symbol | None:
        """The symbol token `index` of `side` shows (None: not cast)."""
        held = state.combat_tokens[side][index]
        return None if held.face == NOT_CAST else state.game.faces[held.token][held.face].symbol

    def in_pool(side: int, index: int, name: str) -> None:
        held = state.combat_tokens[side][index]
        if held.spent or held.face == NOT_CAST:
            raise _fail(f"{where}.{name}", f"{SIDE_NAMES[side]} token {index} is not in the pool (cast, unspent)")

    kind = frame.kind
    if frame.reason:
        raise _fail(f"{where.removesuffix('.details')}.reason", "a combat's frames carry no reason")
    if "side" in FRAME_DETAILS.get(kind, ()):
        number("side", 0, 1)
    if "symbol" in FRAME_DETAILS.get(kind, ()):
        number("symbol", 0, len(Symbol) - 1)
    if kind == Kind.CAST:
        side, index, why = frame.detail("side"), frame.detail("token"), frame.detail("why")
        token_of(side, index, "token")
        if why not in CAST_REASONS:
            raise _fail(f"{where}.why", f"expected one of {CAST_REASONS}, got {why!r}")
        held = state.combat_tokens[side][index]
        if why == "recast" and held.face == NOT_CAST:  # spent meanwhile is possible (paying a reaction above it)
            raise _fail(f"{where}.token", f"{SIDE_NAMES[side]} token {index} is not cast, so not recast in play")
        if why == "spent" and not (held.spent and held.face != NOT_CAST):
            raise _fail(f"{where}.token", f"a spent token is recast, but {SIDE_NAMES[side]} token {index} is not spent")
    elif kind == Kind.COMBAT_DAMAGE:
        number("amount", 0)
        if not isinstance(frame.detail("blockable"), bool):
            raise _fail(f"{where}.blockable", "expected true or false")
    elif kind in (Kind.COPIED_SURGE, Kind.BLOCK):
        number("amount", 1)
        if kind == Kind.BLOCK and not (
            not state.charged[HERO]
            and any(shows(HERO, i) == Symbol.TACTICS for i in _unspent(state, HERO))
            and any(shows(side, i) == Symbol.SHIELD for side in SIDES for i in _unspent(state, side))
        ):
            raise _fail(
                where.removesuffix(".details"),
                "the hero blocks with a tactics only while it shows one, a shield shows, and it spent no charge",
            )
    elif kind in (Kind.AGILITY, Kind.COPY, Kind.PREVENT):
        name = "source" if kind == Kind.AGILITY else "token"
        index = frame.detail(name)
        token_of(HERO, index, name)
        if kind == Kind.AGILITY:
            held = state.combat_tokens[HERO][index]
            if not (shows(HERO, index) == Symbol.AGILITY and not held.spent) and not (
                shows(HERO, index) == Symbol.TACTICS and held.spent
            ):
                raise _fail(
                    f"{where}.source", "an agility in the pool, or a spent tactics that copied one, gives the target"
                )
        elif kind == Kind.COPY:
            in_pool(HERO, index, name)
            if shows(HERO, index) != Symbol.TACTICS:
                raise _fail(f"{where}.token", f"hero token {index} shows no tactics to copy with")
        elif shows(HERO, index) is None:  # spent meanwhile is possible (paying the prevention of another flip)
            raise _fail(f"{where}.token", f"hero token {index} is not cast, so no flip of it is pending")
    elif kind == Kind.ENEMY_AGILITY:
        tokens = frame.detail("tokens")
        if not isinstance(tokens, tuple) or not tokens:
            raise _fail(f"{where}.tokens", "expected a non-empty list of the enemy's agility tokens")
        for value in tokens:
            token_of(ENEMY, value, "tokens")
            if shows(ENEMY, value) != Symbol.AGILITY:
                raise _fail(f"{where}.tokens", f"enemy token {value} shows no agility")
        if len(set(tokens)) != len(tokens) or list(tokens) != sorted(tokens):
            raise _fail(f"{where}.tokens", "the agility space's tokens, each once, in token order")
    elif kind == Kind.COMBAT_GROUP:
        symbol = frame.detail("symbol")
        if symbol not in ATTACK_SYMBOLS:
            raise _fail(f"{where}.symbol", "a hero's combat action groups physical, magic or charge")
        chosen: list[int] = []
        for name in ("tokens", "doubles"):
            values = frame.detail(name)
            if not isinstance(values, tuple) or (name == "tokens" and not values):
                raise _fail(f"{where}.{name}", "expected a list of the hero's tokens")
            for value in values:
                token_of(HERO, value, name)
                in_pool(HERO, value, name)
                if shows(HERO, value) != (symbol if name == "tokens" else Symbol.DOUBLE):
                    wanted = SYMBOL_NAMES[symbol] if name == "tokens" else "double"
                    raise _fail(f"{where}.{name}", f"hero token {value} does not show {wanted}")
                if value in chosen:
                    raise _fail(f"{where}.{name}", f"hero token {value} is in the action twice")
                chosen.append(value)
        if len(frame.detail("doubles")) > len(frame.detail("tokens")):
            raise _fail(f"{where}.doubles", "each double doubles a different token of the action")


def _unspent(state: CombatRules, side: int) -> list[int]:
    """`side`'s tokens cast and not spent."""
    return [i for i, held in enumerate(state.combat_tokens[side]) if held.face != NOT_CAST and not held.spent]


HERO_ACTION_FRAMES = frozenset({Kind.HERO_COMBAT_ACTION, Kind.COMBAT_GROUP, Kind.AGILITY, Kind.COPY, Kind.COPIED_SURGE})
"""The hero's decisions of a combat action of its own (one at a time, above the enemy's next action)."""
ENEMY_ACTION_FRAMES = frozenset({Kind.COMBAT_DAMAGE, Kind.BLOCK, Kind.PREVENT, Kind.CAST})
"""What the enemy's action leaves pending above the hero's next action (damage, the hero's answers, recasts), above
at most one ENEMY_AGILITY (the rest of its agility space)."""


def _check_stack_shape(state: CombatRules, stack: DecisionStack, first: int) -> None:
    """The frames stand in an order the rules push them, bottom first: the setup draws (round 0); the next round
    (after the hero's stay-or-flee); the round's casts in casting order; the Trickster's recasts before initiative;
    the end of the round; or the next combat action with at most the action in progress above it (one frame of the
    hero's own action, or what the enemy's action left: its agility space's rest, damage, answers and recasts).
    `stack` is the combat's part of the host's stack, which starts at `first`."""
    if state.combat_round == 0 and (not stack or stack[0].kind not in (Kind.COMBAT_SETUP, Kind.START_COMBAT_ROUND)):
        raise _fail(
            "combat_round", "round 0 is before the first round: only the setup or the first round's start is pending"
        )
    wounds = state.combat_hero_wounds()
    if state.combat_round == 0 and state.combat_damage != (wounds, 0):
        raise _fail(
            "combat_damage", f"no damage is dealt before the first round (the hero carries {wounds} into the fight)"
        )
    if not stack:
        return
    bottom = stack[0].kind
    kinds = [frame.kind for frame in stack]
    if state.initiative != NOWHERE and bottom in (
        Kind.COMBAT_SETUP,
        Kind.START_COMBAT_ROUND,
        Kind.AFTER_CAST,
        Kind.COMBAT_INITIATIVE,
    ):
        raise _fail("initiative", "initiative is taken after the casts and lasts until the round's end")
    if bottom == Kind.COMBAT_SETUP:
        if state.combat_round != 0:
            raise _fail(f"stack[{first}].kind", "the setup comes before the first round (round 0)")
        if len(kinds) > 1:
            raise _fail(f"stack[{first + 1}]", "nothing of the combat is pending above its setup")
        return
    rest = stack[1:]
    if bottom == Kind.START_COMBAT_ROUND:
        if state.combat_round >= ROUND_CAP:
            raise _fail("combat_round", f"a combat is drawn after round {ROUND_CAP}: no round starts after it")
        if [frame.kind for frame in rest] not in ([], [Kind.STAY]) or (rest and state.combat_round == 0):
            raise _fail("stack", "the next round's start waits only for the hero to stay or flee after a round")
    elif bottom == Kind.AFTER_CAST:
        _check_round_casts(state, rest, first)
    elif bottom == Kind.COMBAT_INITIATIVE:
        _check_blank_recasts(state, rest, first)
    elif bottom == Kind.END_COMBAT_ROUND:
        if rest:
            raise _fail(f"stack[{first + 1}]", "nothing is pending above the end of a round")
    elif bottom == Kind.NEXT_COMBAT_ACTION:
        if stack[0].detail("side") == ENEMY:
            _check_hero_action(state, rest, first)
        else:
            _check_enemy_action(state, rest, first)
    else:
        raise _fail(f"stack[{first}].kind", f"a {bottom!r} frame is never at the bottom of the combat's frames")


def _check_round_casts(state: CombatRules, casts: tuple[DecisionFrame, ...], first: int) -> None:
    """Above AFTER_CAST: the round's casts still to come, the next on top, in casting order (the hero's tokens, then
    the enemy's)."""
    order = [(side, index) for side in SIDES for index in range(len(state.combat_tokens[side]))]
    pending = [(frame.detail("side"), frame.detail("token")) for frame in reversed(casts)]
    for position, frame in enumerate(casts, start=first + 1):
        if frame.kind != Kind.CAST or frame.detail("why") != "round":
            raise _fail(f"stack[{position}].kind", "above the casts' end only the round's casts are pending")
    if pending != order[len(order) - len(pending) :]:
        raise _fail("stack", "the round's casts are pending in casting order (the hero's tokens, then the enemy's)")


def _check_blank_recasts(state: CombatRules, recasts: tuple[DecisionFrame, ...], first: int) -> None:
    """Above INITIATIVE: only the board ability's recasts of the enemy's blanks, the lowest token on top."""
    indices = []
    for position, frame in enumerate(recasts, start=first + 1):
        if frame.kind != Kind.CAST or frame.detail("why") != "recast" or frame.detail("side") != ENEMY:
            raise _fail(f"stack[{position}]", "before initiative only the enemy's blanks are recast")
        index = frame.detail("token")
        held = state.combat_tokens[ENEMY][index]
        if held.face == NOT_CAST or held.spent or state.game.faces[held.token][held.face].symbol != Symbol.BLANK:
            raise _fail(f"stack[{position}].details.token", "the board ability recasts the enemy's blanks")
        indices.append(index)
    if recasts and state.game.enemy_traits[state.enemy].board.ability.kind != "recast_blanks":
        raise _fail(f"stack[{first + 1}]", "only a board whose ability recasts blanks recasts tokens before initiative")
    if indices != sorted(set(indices), reverse=True):
        raise _fail("stack", "the blanks' recasts are pending once each, the lowest token on top")


def _check_hero_action(state: CombatRules, rest: tuple[DecisionFrame, ...], first: int) -> None:
    """Above the enemy's next action: nothing (the enemy acts next), or one frame of the hero's combat action."""
    if not rest:
        return
    if len(rest) > 1:
        raise _fail(f"stack[{first + 2}]", "the hero's combat action leaves one frame pending at a time")
    frame = rest[0]
    where = f"stack[{first + 1}]"
    if state.passed[HERO]:
        raise _fail("passed.hero", "the hero's combat action is under way, so the hero has not passed")
    if frame.kind in HERO_ACTION_FRAMES:
        return
    if frame.kind == Kind.COMBAT_DAMAGE and frame.detail("side") == ENEMY:
        return
    if frame.kind == Kind.CAST and frame.detail("why") == "recast":
        return
    raise _fail(f"{where}.kind", f"a {frame.kind!r} frame is not part of the hero's combat action")


def _check_enemy_action(state: CombatRules, rest: tuple[DecisionFrame, ...], first: int) -> None:
    """Above the hero's next action: nothing (the hero acts next), the enemy's action to resolve, or what it left
    pending: at most one ENEMY_AGILITY at the bottom, then damage on the hero, the hero's answers and recasts, a
    tactics block only on top."""
    if not rest:
        return
    if state.passed[ENEMY]:
        raise _fail("passed.enemy", "the enemy's combat action is under way, so the enemy has not passed")
    if rest[0].kind == Kind.ENEMY_COMBAT_ACTION:
        if len(rest) > 1:
            raise _fail(f"stack[{first + 2}]", "the enemy's action resolves before anything is pending above it")
        return
    for position, frame in enumerate(rest, start=first + 1):
        where = f"stack[{position}]"
        if frame.kind == Kind.ENEMY_AGILITY and position == first + 1:
            continue
        if frame.kind not in ENEMY_ACTION_FRAMES:
            raise _fail(f"{where}.kind", f"a {frame.kind!r} frame is not part of the enemy's combat action")
        if frame.kind == Kind.COMBAT_DAMAGE and frame.detail("side") != HERO:
            raise _fail(f"{where}.details.side", "the enemy's action deals damage to the hero")
        if frame.kind == Kind.BLOCK and position != first + len(rest):
            raise _fail(where, "the hero's tactics block is answered before anything below it")
        if frame.kind == Kind.CAST and frame.detail("why") == "round":
            raise _fail(f"{where}.details.why", "the round's casts come before any combat action")
        if frame.kind == Kind.CAST and frame.detail("why") == "recast" and frame.detail("side") != HERO:
            raise _fail(f"{where}.details.side", "the enemy's action recasts the hero's tokens")
