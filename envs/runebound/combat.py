"""Runebound's combat as a part a state holds while a fight is on: casting, initiative, combat actions, the enemy's turn
on its combat board, damage and blocking, abilities, rounds and the end of the combat.

`CombatRules` is a mixin of every combat rule, run as frames on the state's one stack by the core frame engine
(envs/core/engine.py): the frame on top is a decision of the fighting hero, a chance event (a token cast or recast) or
an automatic step of the rules (resolved at once, never seen from outside). The enemy is run by the rules: its combat
actions are automatic steps that resolve the next space of its trait's combat board. A rule that stops half way for
the hero (a tactics spent to block, an ability preventing a flip) pushes the hero's decision above the frames that
carry the rest of the enemy's action, which resume once the hero has answered.

A state that holds a combat (the host) inherits:

- the combat's saved fields, `state.CombatFields`, and calls `validation.validate_combat` from its `validate()`;
- these rules, `CombatRules`, with the combat's frame kinds `COMBAT_FRAME_KINDS` and chance labels
  `COMBAT_CHANCE_LABELS` merged into its own tables;
- on its game, the content tables the rules read (`CombatContent`).

It starts a fight by setting `enemy` and pushing `combat_frames(seat).setup`, and answers the hooks below, which stand
where a game setting or a fixed start used to: the hero fighting (`combat_hero`) and its seat (`combat_seat`), the
damage it carries into the fight (`combat_hero_wounds`), the weapons' tokens it casts (`combat_weapon_tokens`), the Act
(`combat_act`), whether it can exert and the exert itself (`combat_exert_ready`, `combat_exert`), how the enemy's
choices resolve (`combat_choice_as_damage`), and the end of the fight (`combat_over`, called with the outcome once the
combat's frames are off the stack). `rules.CombatState` (`RuneboundCombat-v0`) plugs them to its game's settings and
ends its game when the combat ends.

Interpretations of the text are stated in RULES.md, section by section; the methods cite them by name.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from envs.core.chance_labels import ChanceLabel, FrameChanceLabels
from envs.core.decisions import DecisionFrame
from envs.core.engine import Automatic, Chance, Decision, FrameEngine, FrameKind, new_frame
from envs.core.game import CHANCE, Game
from envs.runebound.actions import ACTIONS, DECLINE, FLEE, USE
from envs.runebound.cards import Cost, Effect, Enemy, EnemyAbility, Face, Hero, RuneboundCards, Space, Trait
from envs.runebound.combat_board import (
    Candidate,
    cheapest_hero_payment,
    cheapest_payment,
    flip_choice,
    hero_worth,
    most_value_with_doubles,
    recast_choice,
    recast_spent_choice,
    remove_choice,
    surge_sections,
)
from envs.runebound.presets import CHOICE_DAMAGE
from envs.runebound.state import (
    COMBAT_KINDS,
    MAX_BARRIER,
    NOT_CAST,
    NOWHERE,
    ROUND_CAP,
    CombatFields,
    Held,
    Kind,
    Outcome,
    make_held,
)
from envs.runebound.symbols import ATTACK_SYMBOLS, ENEMY, HERO, NOTHING_TO_DOUBLE, SIDE_NAMES, SIDES, Symbol

if TYPE_CHECKING:
    from envs.core.decisions import DecisionStack

HALVES: tuple[tuple[int, float], ...] = ((0, 0.5), (1, 0.5))
"""A cast: either face, with equal chance."""
FLIP_FOE = Effect(kind="flip_foe")
RECAST_FOE = Effect(kind="recast_foe")
AGILITY_INSTRUCTIONS: Mapping[str, Effect] = {"flip_foe": FLIP_FOE, "recast_foe": RECAST_FOE}
"""A board's agility space as the effect it has on the hero's tokens."""
CAST_ROUND, CAST_AGAIN, CAST_SPENT = "round", "recast", "spent"
"""Why a token is cast (a CAST frame's `why`): at the start of a round; recast in play; a spent token recast back
into its side's pool."""


class SidePools(NamedTuple):
    """One side's tokens in play, sorted out once per change of its tokens (`CombatRules.pools`)."""

    pool: tuple[int, ...]
    """Cast and not spent, in token order (a double stacked on a token included)."""
    showing: dict[int, tuple[int, ...]]
    """Symbol -> the pool's tokens showing it on their own (not stacked), in token order."""
    doubles: dict[int, int]
    """Token -> the first unspent double stacked on it."""


class CombatContent(Game):
    """A game whose states hold combats, with the content tables the combat's rules read from a state's game, derived
    once from its cards: the game inherits this and calls `derive_combat_content()` once its `cards` are loaded."""

    cards: RuneboundCards
    faces: tuple[tuple[Face, Face], ...]
    """Each token's two faces, by token index."""
    hero_ability_base: tuple[int, ...]
    """Each hero's first id in the `hero_ability` name table."""
    enemy_ability_base: tuple[int, ...]
    """Each enemy's first id in the `enemy_ability` name table."""
    enemy_traits: tuple[Trait, ...]
    """Each enemy's trait record, by enemy index."""
    enemy_spaces: tuple[tuple[int, ...], ...]
    """Each enemy's board space by symbol (`Board.space_of`; -1: none), by enemy index."""
    hero_surge_costs: tuple[bool, ...]
    """Whether each hero has an ability paid with surges."""
    enemy_surge_abilities: tuple[bool, ...]
    """Whether each enemy has a surge ability."""
    enemy_agility_abilities: tuple[tuple[EnemyAbility, ...], ...]
    """Each enemy's agility abilities (those not paid with surges), in card order."""

    def derive_combat_content(self) -> None:
        """Derive the tables above from `cards`."""
        cards = self.cards
        self.faces = tuple(token.faces for token in cards.tokens)
        self.hero_ability_base = _bases([len(hero.abilities) for hero in cards.heroes])
        self.enemy_ability_base = _bases([len(enemy.abilities) for enemy in cards.enemies])
        self.enemy_traits = tuple(cards.traits[trait] for trait in cards.enemy_trait)
        self.enemy_spaces = tuple(
            tuple(trait.board.space_of(symbol) for symbol in Symbol) for trait in self.enemy_traits
        )
        self.hero_surge_costs = tuple(
            any(ability.cost.symbol == Symbol.SURGE for ability in hero.abilities) for hero in cards.heroes
        )
        self.enemy_surge_abilities = tuple(any(ability.surge for ability in enemy.abilities) for enemy in cards.enemies)
        self.enemy_agility_abilities = tuple(
            tuple(ability for ability in enemy.abilities if not ability.surge) for enemy in cards.enemies
        )


def _bases(counts: list[int]) -> tuple[int, ...]:
    """Each entry's first id when the entries' counts are numbered one after another."""
    bases, total = [], 0
    for count in counts:
        bases.append(total)
        total += count
    return tuple(bases)


class CombatFrames(NamedTuple):
    """The combat's frames without details (or with a side only) for one seat, made once (frames are immutable)."""

    setup: DecisionFrame
    start_round: DecisionFrame
    after_cast: DecisionFrame
    initiative: DecisionFrame
    next_action: tuple[DecisionFrame, DecisionFrame]
    """The next combat action's frame, by the side whose turn it is."""
    hero_action: DecisionFrame
    enemy_action: DecisionFrame
    end_round: DecisionFrame
    stay: DecisionFrame


@functools.lru_cache(maxsize=16)
def combat_frames(seat: int) -> CombatFrames:
    """The combat's frames for the hero in `seat` (its decisions and the rules' steps carry the fighter's seat)."""
    return CombatFrames(
        setup=new_frame(seat, Kind.COMBAT_SETUP),
        start_round=new_frame(seat, Kind.START_COMBAT_ROUND),
        after_cast=new_frame(seat, Kind.AFTER_CAST),
        initiative=new_frame(seat, Kind.COMBAT_INITIATIVE),
        next_action=(
            new_frame(seat, Kind.NEXT_COMBAT_ACTION, side=HERO),
            new_frame(seat, Kind.NEXT_COMBAT_ACTION, side=ENEMY),
        ),
        hero_action=new_frame(seat, Kind.HERO_COMBAT_ACTION),
        enemy_action=new_frame(seat, Kind.ENEMY_COMBAT_ACTION),
        end_round=new_frame(seat, Kind.END_COMBAT_ROUND),
        stay=new_frame(seat, Kind.STAY),
    )


@functools.lru_cache(maxsize=256)
def fresh_tokens(tokens: tuple[int, ...]) -> tuple[Held, ...]:
    """Tokens before a cast: not cast, unspent, on no stack."""
    return tuple(make_held(token) for token in tokens)


@functools.lru_cache(maxsize=64)
def _round_casts(hero_tokens: int, enemy_tokens: int) -> tuple[DecisionFrame, ...]:
    """The round's casts: every token of the hero, then every token of the enemy."""
    return tuple(
        new_frame(CHANCE, Kind.CAST, side=side, token=index, why=CAST_ROUND)
        for side, count in ((HERO, hero_tokens), (ENEMY, enemy_tokens))
        for index in range(count)
    )


def _token_cast(state: CombatRules, frame: DecisionFrame, face: int) -> str:
    side, index = frame.detail("side"), frame.detail("token")
    token = state.combat_tokens[side][index].token
    verb = "shows" if frame.detail("why") == CAST_ROUND else "is recast to"
    name = state.game.cards.tokens[token].name
    return f"{SIDE_NAMES[side]} token {index + 1} ({name}) {verb} {state.game.faces[token][face]}"


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """`values` with entry `index` replaced."""
    return (*values[:index], value, *values[index + 1 :])


class CombatRules(CombatFields, FrameEngine, FrameChanceLabels):
    """Every rule of a combat as a method, over the combat's fields (`CombatFields`) and the host's hooks; the host
    state merges `COMBAT_FRAME_KINDS` and `COMBAT_CHANCE_LABELS` into its tables."""

    game: CombatContent
    stack: DecisionStack

    # ------------------------------------------------------------------------------------------ the host's hooks
    def combat_seat(self) -> int:
        """The seat of the hero fighting: its decisions' seat."""
        raise NotImplementedError

    def combat_hero(self) -> int:
        """The hero fighting (an index of the content's heroes)."""
        raise NotImplementedError

    def combat_hero_health(self) -> int:
        """The hero's health in this fight: its card's in a combat alone; a host may add to it (armor, skills)."""
        raise NotImplementedError

    def combat_hero_wounds(self) -> int:
        """The damage the hero carries into the fight (its health at the start of the fight is its health less this)."""
        raise NotImplementedError

    def combat_weapon_tokens(self) -> tuple[int, ...]:
        """The tokens the hero's equipment gives it to cast after its own (token indices, in casting order)."""
        raise NotImplementedError

    def combat_act(self) -> int:
        """The Act (1 or 2): the enemy casts the first 4 + Act tokens of its trait's set."""
        raise NotImplementedError

    def combat_exert_ready(self) -> bool:
        """Whether the hero can exert now, which an exert ability needs (RULES.md, "Exert")."""
        raise NotImplementedError

    def combat_exert(self, slot: int, paid: bool) -> bool:
        """The hero exerts for its ability `slot` (RULES.md, "Exert"): True once done; False when the host pushed the
        hero's decision of what to exert, whose rule then uses the ability (`_use_hero_ability(slot, paid, True)`;
        `paid`: a tactics copying surges paid its cost)."""
        raise NotImplementedError

    def combat_choice_as_damage(self) -> bool:
        """Whether an enemy's choice among two or more tokens deals 2 damage to the hero instead (ENEMY CHOICES)."""
        raise NotImplementedError

    def combat_over(self, outcome: Outcome) -> None:
        """The combat ended with `outcome` (`combat_outcome` is set and its frames are off the stack)."""
        raise NotImplementedError

    # ------------------------------------------------------------------------------------------ the end
    def _frames(self) -> CombatFrames:
        return combat_frames(self.combat_seat())

    def _end_combat(self, outcome: Outcome) -> None:
        """The combat ends: its outcome is set, every combat frame still pending leaves the stack (the host's frames
        below them stay), and the host's `combat_over` takes it from there."""
        self.combat_outcome = outcome
        stack = self.stack
        keep = len(stack)
        while keep and stack[keep - 1].kind in COMBAT_KINDS:
            keep -= 1
        self.stack = stack[:keep]
        self.combat_over(outcome)

    # ------------------------------------------------------------------------------------------ queries
    def hero_card(self) -> Hero:
        """The hero's record."""
        return self.game.cards.heroes[self.combat_hero()]

    def enemy_card(self) -> Enemy:
        """The enemy's record."""
        return self.game.cards.enemies[self.enemy]

    def trait(self) -> Trait:
        """The enemy's trait (its token set and combat board)."""
        return self.game.enemy_traits[self.enemy]

    def face(self, side: int, index: int) -> Face:
        """The face token `index` of `side` shows (it must be cast)."""
        held = self.combat_tokens[side][index]
        return self.game.faces[held.token][held.face]

    def other_face(self, side: int, index: int) -> Face:
        """The face token `index` of `side` would show if flipped."""
        held = self.combat_tokens[side][index]
        return self.game.faces[held.token][1 - held.face]

    def pools(self, side: int) -> SidePools:
        """`side`'s pool sorted out (computed once per change of its tokens, kept in `combat_token_cache`)."""
        tokens = self.combat_tokens[side]
        cache = self.combat_token_cache
        if cache is not None and cache[side][0] is tokens:
            pools: SidePools = cache[side][1]
            return pools
        faces = self.game.faces
        pool: list[int] = []
        showing: dict[int, list[int]] = {}
        doubles: dict[int, int] = {}
        for index, held in enumerate(tokens):
            if held.spent:
                continue
            if held.on != NOWHERE:
                doubles.setdefault(held.on, index)
            if held.face == NOT_CAST:
                continue
            pool.append(index)
            if held.on == NOWHERE:
                showing.setdefault(faces[held.token][held.face].symbol, []).append(index)
        pools = SidePools(tuple(pool), {symbol: tuple(found) for symbol, found in showing.items()}, doubles)
        entry = (tokens, pools)
        if cache is None:
            cache = ((None, None), (None, None))
        self.combat_token_cache = (entry, cache[ENEMY]) if side == HERO else (cache[HERO], entry)
        return pools

    def pool(self, side: int) -> list[int]:
        """The tokens in `side`'s combat pool: cast and not spent (a double stacked on a token included)."""
        return list(self.pools(side).pool)

    def showing(self, side: int, symbol: Symbol) -> list[int]:
        """The tokens of `side`'s pool that show `symbol`, on their own (not a double already stacked on a token)."""
        return list(self.pools(side).showing.get(symbol, ()))

    def double_on(self, side: int, index: int) -> int:
        """The double stacked on token `index` of `side`, or NOWHERE."""
        return self.pools(side).doubles.get(index, NOWHERE)

    def value(self, side: int, index: int) -> int:
        """What token `index` of `side` is worth when spent: its face's number, doubled by a double stacked on it."""
        held = self.combat_tokens[side][index]
        value = self.game.faces[held.token][held.face].value
        return 2 * value if side == ENEMY and index in self.pools(ENEMY).doubles else value

    def gold(self, side: int) -> int:
        """Gold rims among `side`'s cast tokens (initiative)."""
        faces = self.game.faces
        return sum(faces[held.token][held.face].gold for held in self.combat_tokens[side] if held.face != NOT_CAST)

    def abilities(self, side: int) -> tuple[Any, ...]:
        """The hero's or the enemy's abilities, in card order."""
        return self.hero_card().abilities if side == HERO else self.enemy_card().abilities

    def has_triggered(self, side: int, slot: int) -> bool:
        """Whether ability `slot` of `side` was triggered this round."""
        return self._ability_id(side, slot) in self.combat_triggered[side]

    def surge_sections(self) -> dict[int, int]:
        """The section (1..3) of the surge space each of the enemy's surge tokens sits in (SPENDING SURGES)."""
        units = [(i, self.value(ENEMY, i)) for i in self.showing(ENEMY, Symbol.SURGE)]
        costs = [
            (slot, ability.cost.amount)
            for slot, ability in enumerate(self.enemy_card().abilities)
            if ability.surge and not self.has_triggered(ENEMY, slot)
        ]
        return surge_sections(units, costs)

    def space_of(self, index: int) -> int:
        """The board space enemy token `index` sits on (a stacked double: its base's space; -1: a blank or not cast)."""
        held = self.combat_tokens[ENEMY][index]
        if held.face == NOT_CAST or held.spent:
            return NOWHERE
        if held.on != NOWHERE:
            return self.space_of(held.on)
        return self.game.enemy_spaces[self.enemy][self.game.faces[held.token][held.face].symbol]

    def _ability_id(self, side: int, slot: int) -> int:
        base = self.game.hero_ability_base if side == HERO else self.game.enemy_ability_base
        return base[self.combat_hero() if side == HERO else self.enemy] + slot

    def hero_has_surges(self) -> bool:
        """Whether the hero has an ability paid with surges (surges are worth something to it)."""
        return self.game.hero_surge_costs[self.combat_hero()]

    def enemy_has_surges(self) -> bool:
        """Whether the enemy has a surge ability."""
        return self.game.enemy_surge_abilities[self.enemy]

    # ------------------------------------------------------------------------------------------ token changes
    def _set(self, side: int, index: int, held: Held) -> None:
        hero, enemy = self.combat_tokens
        if side == HERO:
            self.combat_tokens = ((*hero[:index], held, *hero[index + 1 :]), enemy)
        else:
            self.combat_tokens = (hero, (*enemy[:index], held, *enemy[index + 1 :]))

    def _spend(self, side: int, index: int) -> None:
        """Spend a token (and a double stacked on it: "spends his stacked [surge]")."""
        double = self.double_on(side, index) if side == ENEMY else NOWHERE
        self._set(side, index, self.combat_tokens[side][index].spent_now())
        if double != NOWHERE:
            self._set(side, double, self.combat_tokens[side][double].spent_now())

    def _turn(self, side: int, index: int, face: int) -> None:
        """A token flipped or recast to `face` (MOVING TOKENS): a double that turns leaves its stack, so the token
        it doubled returns to its own space; a double on a token that turns stays on it while the new face has a
        value to double, and returns to the double space when it shows a blank or a double (RULES.md)."""
        held = self.combat_tokens[side][index]
        if face == held.face:
            return
        self._set(side, index, held.turned(face))
        if side == ENEMY and self.game.faces[held.token][face].symbol in NOTHING_TO_DOUBLE:
            double = self.double_on(ENEMY, index)
            if double != NOWHERE:
                self._set(ENEMY, double, self.combat_tokens[ENEMY][double].unstacked())

    # ------------------------------------------------------------------------------------------ setup and casts
    def _combat_setup(self, frame: DecisionFrame) -> None:
        """The hero's tokens (its own, then its weapons': `combat_weapon_tokens`), the first 4 + Act tokens of the
        enemy's trait set, the damage the hero carries into the fight (`combat_hero_wounds`); then the first round."""
        hero, enemy = self.combat_hero(), self.enemy
        cards = self.game.cards
        self.combat_tokens = (
            fresh_tokens((*cards.hero_own_tokens(hero), *self.combat_weapon_tokens())),
            fresh_tokens(cards.enemy_tokens(enemy, self.combat_act())),
        )
        self.combat_damage = (self.combat_hero_wounds(), 0)
        self._push(combat_frames(self.combat_seat()).start_round)

    def _cast_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        return HALVES

    def _cast(self, frame: DecisionFrame, face: int) -> None:
        details = dict(frame.details)  # one pass over the three details (the most frequent frame of a combat)
        side, index = details["side"], details["token"]
        if details["why"] == CAST_AGAIN:
            self._turn(side, index, face)
        else:  # the round's cast, or a spent token recast back into play (Relentless: "Recast any spent token")
            self._set(side, index, self.combat_tokens[side][index].cast(face))

    # ------------------------------------------------------------------------------------------ rounds
    def _start_round(self, frame: DecisionFrame) -> None:
        """Both sides cast every token (the hero's first), then the board ability that acts on the cast, then
        initiative."""
        self.combat_round += 1
        self._push(
            *_round_casts(len(self.combat_tokens[HERO]), len(self.combat_tokens[ENEMY])), self._frames().after_cast
        )

    def _after_cast(self, frame: DecisionFrame) -> None:
        """A board ability that acts once the tokens are cast (Trickster: blanks recast once), then initiative."""
        recasts = []
        if self.trait().board.ability.kind == "recast_blanks":
            recasts = [
                new_frame(CHANCE, Kind.CAST, side=ENEMY, token=index, why=CAST_AGAIN)
                for index in self.showing(ENEMY, Symbol.BLANK)
            ]
        self._push(*recasts, self._frames().initiative)

    def _take_initiative(self, frame: DecisionFrame) -> None:
        """The side with more gold rims acts first; "If there is a tie for initiative, the hero takes the first combat
        action"."""
        first = HERO if self.gold(HERO) >= self.gold(ENEMY) else ENEMY
        self.initiative = first
        self._push(self._frames().next_action[first])

    def _next_action(self, frame: DecisionFrame) -> None:
        """Combatants alternate combat actions; a side that passed takes no more, so the other goes on alone; the
        round ends once both have passed."""
        side = frame.detail("side")
        passed = self.passed
        frames = self._frames()
        if passed[HERO] and passed[ENEMY]:
            self._push(frames.end_round)
            return
        if passed[side]:
            side = 1 - side
        if side == HERO:
            self._push(frames.hero_action, frames.next_action[ENEMY])
        else:
            self._push(frames.enemy_action, frames.next_action[HERO])

    def _end_round(self, frame: DecisionFrame) -> None:
        """Unspent tokens are lost and every per-round effect ends; after the round cap the combat is a draw, else the
        hero stays or flees and a new round begins."""
        self.combat_tokens = (
            tuple(make_held(h.token) for h in self.combat_tokens[HERO]),
            tuple(make_held(h.token) for h in self.combat_tokens[ENEMY]),
        )
        self.passed = self.charged = self.silenced = (False, False)
        self.barrier = self.combat_round_damage = (0, 0)
        self.combat_triggered = ((), ())
        self.initiative = NOWHERE
        if self.combat_round >= ROUND_CAP:
            self._end_combat(Outcome.DRAWN)
            return
        frames = self._frames()
        self._push(frames.stay, frames.start_round)

    def _stay_options(self, frame: DecisionFrame) -> list[int]:
        return [ACTIONS.round_end, ACTIONS.round_end + FLEE]

    def _stay_or_flee(self, frame: DecisionFrame, action: int) -> None:
        if action == ACTIONS.round_end + FLEE:
            self._end_combat(Outcome.FLED)

    # ------------------------------------------------------------------------------------------ the hero's actions
    def _action_options(self, frame: DecisionFrame) -> list[int]:
        """Pass (always: optional while a token can be used, the only option when none can), a token that starts an
        action (damage or charge, an agility with a target, a tactics with something to copy), a usable ability.
        A shield, a double on its own, a surge and a blank start nothing ("a blank cannot be spent to skip")."""
        options = [ACTIONS.pass_turn]
        for index in self.pool(HERO):
            symbol = self.face(HERO, index).symbol
            if symbol in ATTACK_SYMBOLS:
                options.append(ACTIONS.spend + index)
            elif symbol == Symbol.AGILITY:
                if self._has_agility_target():
                    options.append(ACTIONS.spend + index)
            elif symbol == Symbol.TACTICS and self.copy_targets(index):
                options.append(ACTIONS.spend + index)
        options.extend(
            ACTIONS.ability + slot for slot in range(len(self.hero_card().abilities)) if self._ability_usable(slot)
        )
        return options

    def _take_action(self, frame: DecisionFrame, action: int) -> None:
        if action == ACTIONS.pass_turn:
            self.passed = (True, self.passed[ENEMY])
            return
        if action >= ACTIONS.ability:
            self._use_hero_ability(action - ACTIONS.ability)
            return
        index = action - ACTIONS.spend
        symbol = self.face(HERO, index).symbol
        if symbol == Symbol.AGILITY:
            self._push(new_frame(self.combat_seat(), Kind.AGILITY, source=index))
        elif symbol == Symbol.TACTICS:
            self._push(new_frame(self.combat_seat(), Kind.COPY, token=index))
        else:
            self._push(
                new_frame(self.combat_seat(), Kind.COMBAT_GROUP, symbol=int(symbol), tokens=(index,), doubles=())
            )

    def _group_options(self, frame: DecisionFrame) -> list[int]:
        """Strike, or add a token: another showing the action's symbol, or a double (one per token in the group)."""
        symbol, tokens, doubles = frame.detail("symbol"), frame.detail("tokens"), frame.detail("doubles")
        options = [ACTIONS.strike]
        for index in self.pool(HERO):
            if index in tokens or index in doubles:
                continue
            shown = self.face(HERO, index).symbol
            if shown == symbol or (shown == Symbol.DOUBLE and len(doubles) < len(tokens)):
                options.append(ACTIONS.add + index)
        return options

    def _grow_group(self, frame: DecisionFrame, action: int) -> None:
        symbol, tokens, doubles = frame.detail("symbol"), frame.detail("tokens"), frame.detail("doubles")
        if action == ACTIONS.strike:
            amount = most_value_with_doubles([self.face(HERO, i).value for i in tokens], len(doubles))
            for index in (*tokens, *doubles):
                self._spend(HERO, index)
            if symbol == Symbol.CHARGE:
                self.charged = (True, self.charged[ENEMY])
            self._push(self._damage(ENEMY, amount, symbol, blockable=symbol != Symbol.CHARGE))
            return
        index = action - ACTIONS.add
        if self.face(HERO, index).symbol == Symbol.DOUBLE:
            doubles = (*doubles, index)
        else:
            tokens = (*tokens, index)
        self._push(new_frame(self.combat_seat(), Kind.COMBAT_GROUP, symbol=symbol, tokens=tokens, doubles=doubles))

    def agility_targets(self, source: int) -> list[tuple[int, int]]:
        """(side, token) an agility spent from hero token `source` may flip or recast: any token in either pool but
        the one being spent."""
        return [(side, index) for side in SIDES for index in self.pool(side) if not (side == HERO and index == source)]

    def _has_agility_target(self) -> bool:
        """Whether an agility in the hero's pool has something to flip or recast (`agility_targets` is not empty):
        another token in either pool."""
        return len(self.pools(HERO).pool) > 1 or bool(self.pools(ENEMY).pool)

    def _agility_options(self, frame: DecisionFrame) -> list[int]:
        options = []
        for side, index in self.agility_targets(frame.detail("source")):
            options.append(ACTIONS.target(ACTIONS.flip, side, index))
            options.append(ACTIONS.target(ACTIONS.recast, side, index))
        return options

    def _use_agility(self, frame: DecisionFrame, action: int) -> None:
        """Spend the agility (or the tactics that copied one) to flip or recast the chosen token."""
        source = frame.detail("source")
        if not self.combat_tokens[HERO][source].spent:
            self._spend(HERO, source)
        if action < ACTIONS.recast:
            side, index = ACTIONS.target_of(action, ACTIONS.flip)
            if not self._enemy_prevents_flip():
                self._turn(side, index, 1 - self.combat_tokens[side][index].face)
        else:
            side, index = ACTIONS.target_of(action, ACTIONS.recast)
            self._push(new_frame(CHANCE, Kind.CAST, side=side, token=index, why=CAST_AGAIN))

    def copy_targets(self, tactics: int) -> list[tuple[int, int]]:
        """(side, token) whose symbol hero token `tactics` may copy as a combat action (RULES.md, "Tactics"): damage,
        charge, an agility (it then has a target: the copied token itself), a surge that pays a usable ability."""
        targets = []
        for side in SIDES:
            for index in self.pool(side):
                if side == HERO and index == tactics:
                    continue
                face = self.face(side, index)
                symbol = face.symbol
                if symbol in ATTACK_SYMBOLS or symbol == Symbol.AGILITY:
                    targets.append((side, index))
                elif symbol == Symbol.SURGE and self.copied_surge_slots(face.value):
                    targets.append((side, index))
        return targets

    def _copy_options(self, frame: DecisionFrame) -> list[int]:
        return [ACTIONS.target(ACTIONS.copy, side, index) for side, index in self.copy_targets(frame.detail("token"))]

    def _copy(self, frame: DecisionFrame, action: int) -> None:
        """The tactics is spent as a copy of the symbol, its number copied too, on its own (TACTICS)."""
        tactics = frame.detail("token")
        side, index = ACTIONS.target_of(action, ACTIONS.copy)
        face = self.face(side, index)
        self._spend(HERO, tactics)
        if face.symbol in ATTACK_SYMBOLS:
            if face.symbol == Symbol.CHARGE:
                self.charged = (True, self.charged[ENEMY])
            self._push(self._damage(ENEMY, face.value, face.symbol, blockable=face.symbol != Symbol.CHARGE))
        elif face.symbol == Symbol.AGILITY:
            self._push(new_frame(self.combat_seat(), Kind.AGILITY, source=tactics))
        else:
            self._push(new_frame(self.combat_seat(), Kind.COPIED_SURGE, amount=face.value))

    def copied_surge_slots(self, amount: int) -> list[int]:
        """The hero's abilities a tactics copying `amount` surges pays for (an ability costing surges by value)."""
        return [
            slot
            for slot, ability in enumerate(self.hero_card().abilities)
            if ability.cost.symbol == Symbol.SURGE
            and not ability.cost.tokens
            and ability.cost.amount <= amount
            and self._ability_usable(slot, paid=True)
        ]

    def _copied_surge_options(self, frame: DecisionFrame) -> list[int]:
        return [ACTIONS.ability + slot for slot in self.copied_surge_slots(frame.detail("amount"))]

    def _use_copied_surge(self, frame: DecisionFrame, action: int) -> None:
        self._use_hero_ability(action - ACTIONS.ability, paid=True)

    # ------------------------------------------------------------------------------------------ abilities
    def _ability_usable(self, slot: int, paid: bool = False) -> bool:
        """Whether the hero may use ability `slot` as a combat action now (`paid`: its cost is already met)."""
        ability = self.hero_card().abilities[slot]
        if ability.timing != "action" or self.silenced[HERO]:
            return False
        if ability.once_per_round and self.has_triggered(HERO, slot):
            return False
        if ability.exert and not self.combat_exert_ready():
            return False
        return (paid or self._can_pay(HERO, ability.cost)) and self._effect_matters(HERO, ability.effect)

    def _use_hero_ability(self, slot: int, paid: bool = False, exerted: bool = False) -> None:
        """Use ability `slot`: an exert ability exerts first (the host's `combat_exert`, which may ask the hero what
        to exert and come back here `exerted`), then its cost is paid (unless `paid`: by copied surges) and its effect
        carried out."""
        ability = self.hero_card().abilities[slot]
        if ability.exert and not exerted and not self.combat_exert(slot, paid):
            return
        if not paid:
            self._pay(HERO, ability.cost)
        self._trigger(HERO, slot)

    def _trigger(self, side: int, slot: int) -> None:
        """Mark ability `slot` of `side` triggered this round and carry out its effect."""
        self.combat_triggered = _with(
            self.combat_triggered, side, (*self.combat_triggered[side], self._ability_id(side, slot))
        )
        self._apply_effect(side, self.abilities(side)[slot].effect)

    def _units(self, side: int, symbol: Symbol) -> list[tuple[int, int]]:
        """(token, value) of `side`'s tokens showing `symbol` (an enemy's stack counts doubled: `value`)."""
        pools = self.pools(side)
        showing = pools.showing.get(symbol)
        if not showing:
            return []
        faces, tokens = self.game.faces, self.combat_tokens[side]
        units = [(index, faces[tokens[index].token][tokens[index].face].value) for index in showing]
        if side == ENEMY and pools.doubles:
            units = [(index, 2 * value if index in pools.doubles else value) for index, value in units]
        return units

    def _can_pay(self, side: int, cost: Cost) -> bool:
        units = self._units(side, cost.symbol)
        if cost.tokens:
            return len(units) >= cost.amount
        values = [value for _, value in units]
        if side == HERO:
            return most_value_with_doubles(values, len(self.showing(HERO, Symbol.DOUBLE))) >= cost.amount
        return sum(values) >= cost.amount

    def _pay(self, side: int, cost: Cost) -> None:
        """Spend what `cost` asks: the lowest tokens when it counts tokens; else the cheapest payment by value (a
        hero's doubles join it where they save tokens; RULES.md, "Paying")."""
        units = self._units(side, cost.symbol)
        if cost.tokens:
            spent: Sequence[int] = [index for _, index in sorted((value, index) for index, value in units)][
                : cost.amount
            ]
        elif side == HERO:
            payment = cheapest_hero_payment(tuple(units), tuple(self.showing(HERO, Symbol.DOUBLE)), cost.amount)
            assert payment is not None, "the hero cannot pay"
            spent = (*payment[0], *payment[1])
        else:
            chosen = cheapest_payment(tuple(units), cost.amount)
            assert chosen is not None, "the enemy cannot pay"
            spent = chosen
        for index in spent:
            self._spend(side, index)

    def _effect_matters(self, side: int, effect: Effect) -> bool:
        """Whether `effect` used by `side` would change anything but the tokens spent on it (SPENDING SURGES: an
        ability "that would have no effect" is not triggered)."""
        foe = 1 - side
        kind = effect.kind
        if kind == "heal":
            return self.combat_damage[side] > 0
        if kind == "reflect":
            return self.combat_round_damage[side] > 0
        if kind == "remove_shields":
            return bool(self.showing(foe, Symbol.SHIELD))
        if kind == "remove_token":
            assert effect.symbol is not None
            return bool(self.showing(foe, effect.symbol))
        if kind == "silence":
            return not self.silenced[foe]
        if kind in ("flip_foe", "recast_foe"):
            return self._turn_would_harm_hero()
        return kind != "prevent_flip"  # damage, barrier and recast_spent always do something

    def _apply_effect(self, side: int, effect: Effect) -> None:
        """Carry out an ability's effect for `side` (RULES.md, "Abilities"); the enemy's choices of a token go
        through `_enemy_picks`."""
        EFFECT_RULES[effect.kind](self, side, effect)

    def _effect_damage(self, side: int, effect: Effect) -> None:
        self._push(self._damage(1 - side, effect.amount, effect.damage, blockable=not effect.unblockable))

    def _effect_heal(self, side: int, effect: Effect) -> None:
        self.combat_damage = _with(self.combat_damage, side, max(0, self.combat_damage[side] - effect.amount))

    def _effect_reflect(self, side: int, effect: Effect) -> None:
        self._push(self._damage(1 - side, self.combat_round_damage[side], Symbol.MAGIC, blockable=True))

    def _effect_remove_shields(self, side: int, effect: Effect) -> None:
        for index in self.showing(1 - side, Symbol.SHIELD):
            self._spend(1 - side, index)

    def _effect_remove_token(self, side: int, effect: Effect) -> None:
        assert effect.symbol is not None
        ranked = remove_choice(self._candidates(self.showing(HERO, effect.symbol)))
        chosen = self._enemy_picks(ranked)
        if chosen is not None:
            self._spend(HERO, chosen)

    def _effect_recast_spent(self, side: int, effect: Effect) -> None:
        spent = {
            s: [i for i, held in enumerate(self.combat_tokens[s]) if held.spent and held.face != NOT_CAST]
            for s in SIDES
        }
        ranked = recast_spent_choice(
            self._candidates(spent[ENEMY], ENEMY),
            self._candidates(spent[HERO], HERO),
            self.enemy_has_surges(),
            self.hero_has_surges(),
        )
        chosen = self._enemy_picks(ranked)
        if chosen is not None:
            self._push(new_frame(CHANCE, Kind.CAST, side=chosen[0], token=chosen[1], why=CAST_SPENT))

    def _effect_silence(self, side: int, effect: Effect) -> None:
        self.silenced = _with(self.silenced, 1 - side, True)

    def _effect_barrier(self, side: int, effect: Effect) -> None:
        self.barrier = _with(self.barrier, side, min(MAX_BARRIER, self.barrier[side] + effect.amount))

    def _effect_flip_foe(self, side: int, effect: Effect) -> None:
        chosen = self._enemy_picks(self._flip_ranking())
        if chosen is None:
            return
        if self._hero_can_prevent():
            self._push(new_frame(self.combat_seat(), Kind.PREVENT, token=chosen))
        else:
            self._turn(HERO, chosen, 1 - self.combat_tokens[HERO][chosen].face)

    def _effect_recast_foe(self, side: int, effect: Effect) -> None:
        chosen = self._enemy_picks(self._recast_ranking())
        if chosen is not None:
            self._push(new_frame(CHANCE, Kind.CAST, side=HERO, token=chosen, why=CAST_AGAIN))

    def _effect_prevent_flip(self, side: int, effect: Effect) -> None:
        raise AssertionError("prevent_flip is a reaction, never resolved as an action")

    # ------------------------------------------------------------------------------------------ enemy choices
    def _candidates(self, indices: Sequence[int], side: int = HERO) -> list[Candidate]:
        return [(index, self.face(side, index), self.other_face(side, index)) for index in indices]

    def _turn_would_harm_hero(self) -> bool:
        """Whether a flip or a recast of one of the hero's tokens would harm it: `flip_choice` and `recast_choice`
        rank the same tokens (those whose other face is worth less), so either has a choice exactly then."""
        faces, surges = self.game.faces, self.hero_has_surges()
        for index in self.pools(HERO).pool:
            held = self.combat_tokens[HERO][index]
            pair = faces[held.token]
            if hero_worth(pair[held.face], surges) > hero_worth(pair[1 - held.face], surges):
                return True
        return False

    def _flip_ranking(self) -> list[int]:
        return flip_choice(self._candidates(self.pool(HERO)), self.hero_has_surges())

    def _recast_ranking(self) -> list[int]:
        return recast_choice(self._candidates(self.pool(HERO)), self.hero_has_surges())

    def _enemy_picks(self, ranked: Sequence[Any]) -> Any:
        """The enemy's choice among `ranked` (most detrimental first), or None when the `two_damage` preset deals 2
        damage to the hero in place of the effect (two or more candidates make it a choice)."""
        if not ranked:
            return None
        if len(ranked) >= 2 and self.combat_choice_as_damage():
            self._push(self._damage(HERO, CHOICE_DAMAGE, Symbol.SKULL, blockable=True))
            return None
        return ranked[0]

    # ------------------------------------------------------------------------------------------ flips prevented
    def _enemy_prevents_flip(self) -> bool:
        """ENEMY CHOICES: an enemy that "may spend 1 [agility] to prevent its foe from flipping a token" does so
        whenever it can."""
        if self.silenced[ENEMY]:
            return False
        for ability in self.enemy_card().abilities:
            if ability.timing == "prevent_flip" and self._can_pay(ENEMY, ability.cost):
                self._pay(ENEMY, ability.cost)
                return True
        return False

    def _hero_prevent_slot(self) -> int:
        """The hero's ability that may prevent a flip now, or NOWHERE."""
        if self.silenced[HERO]:
            return NOWHERE
        for slot, ability in enumerate(self.hero_card().abilities):
            if ability.timing != "prevent_flip" or (ability.once_per_round and self.has_triggered(HERO, slot)):
                continue
            if self._can_pay(HERO, ability.cost):
                return slot
        return NOWHERE

    def _hero_can_prevent(self) -> bool:
        return self._hero_prevent_slot() != NOWHERE

    def _prevent_options(self, frame: DecisionFrame) -> list[int]:
        """Use the ability while the hero can still pay it, else only let the flip be (an enemy action that flips
        several tokens asks about each in turn, and an earlier answer may have spent what paid it)."""
        if self._hero_can_prevent():
            return [ACTIONS.react + USE, ACTIONS.react + DECLINE]
        return [ACTIONS.react + DECLINE]

    def _prevent_reaction(self, frame: DecisionFrame, action: int) -> None:
        """The hero's reaction to the enemy's flip: prevent it with the ability (paying its cost), or let it be."""
        index = frame.detail("token")
        if action == ACTIONS.react + USE:
            slot = self._hero_prevent_slot()
            self._pay(HERO, self.hero_card().abilities[slot].cost)
            self.combat_triggered = _with(
                self.combat_triggered, HERO, (*self.combat_triggered[HERO], self._ability_id(HERO, slot))
            )
            return
        self._turn(HERO, index, 1 - self.combat_tokens[HERO][index].face)

    # ------------------------------------------------------------------------------------------ damage
    def _damage(self, target: int, amount: int, symbol: int, blockable: bool) -> DecisionFrame:
        """The frame that deals `amount` damage of `symbol` to `target`."""
        return new_frame(
            self.combat_seat(), Kind.COMBAT_DAMAGE, side=target, amount=amount, symbol=int(symbol), blockable=blockable
        )

    def _resolve_damage(self, frame: DecisionFrame) -> None:
        """Blockable damage meets the barrier, then the shields (SHIELDS: "always spent at the first opportunity in
        response to taking damage"), then a tactics as a copy of a shield: the enemy's always, the hero's by choice.
        A side that spent charge this round blocks nothing."""
        target, amount = frame.detail("side"), frame.detail("amount")
        if frame.detail("blockable") and not self.charged[target]:
            amount = self._absorb(target, amount)
            if amount > 0 and self._tactics_can_block(target):
                if target == HERO:
                    self._push(new_frame(self.combat_seat(), Kind.BLOCK, amount=amount, symbol=frame.detail("symbol")))
                    return
                amount = max(0, amount - self._tactics_block(ENEMY))
        self._take_damage(target, amount)

    def _absorb(self, target: int, amount: int) -> int:
        """The damage left after `target`'s barrier and shields (spending the shields it takes)."""
        barrier = self.barrier[target]
        if barrier and amount:
            held_off = min(barrier, amount)
            self.barrier = _with(self.barrier, target, barrier - held_off)
            amount -= held_off
        if not amount:
            return 0
        bonus = self._board_amount("shield_bonus") if target == ENEMY else 0
        shields = tuple((index, value + bonus) for index, value in self._units(target, Symbol.SHIELD))
        total = sum(value for _, value in shields)
        if total <= amount:  # every shield is spent, and what they do not block goes through
            chosen: Sequence[int] = [index for index, _ in shields]
        else:  # the shields that block it all with the least to spare ("as many as it takes")
            payment = cheapest_payment(shields, amount)
            assert payment is not None
            chosen = payment
        for index in chosen:
            self._spend(target, index)
        return max(0, amount - total)

    def _tactics_can_block(self, side: int) -> bool:
        """Whether `side` holds a tactics and a shield shows on another token in any pool (TACTICS: "spend one
        [tactics] ... as a copy of a symbol that would allow him or her to block")."""
        return bool(self.showing(side, Symbol.TACTICS)) and any(self.showing(s, Symbol.SHIELD) for s in SIDES)

    def _tactics_block(self, side: int) -> int:
        """Spend `side`'s first tactics as a copy of the highest shield showing; what it blocks (Mirror Ward adds)."""
        self._spend(side, self.showing(side, Symbol.TACTICS)[0])
        copied = max(self.face(s, index).value for s in SIDES for index in self.showing(s, Symbol.SHIELD))
        return copied + (self._board_amount("tactics_block_bonus") if side == ENEMY else 0)

    def _block_options(self, frame: DecisionFrame) -> list[int]:
        return [ACTIONS.react + USE, ACTIONS.react + DECLINE]

    def _block_reaction(self, frame: DecisionFrame, action: int) -> None:
        amount = frame.detail("amount")
        if action == ACTIONS.react + USE:
            amount = max(0, amount - self._tactics_block(HERO))
        self._take_damage(HERO, amount)

    def _take_damage(self, target: int, amount: int) -> None:
        """Damage on `target`; at its health it is defeated and the combat ends."""
        if amount <= 0:
            return
        health = self.combat_hero_health() if target == HERO else self.enemy_card().health
        self.combat_damage = _with(self.combat_damage, target, min(health, self.combat_damage[target] + amount))
        self.combat_round_damage = _with(self.combat_round_damage, target, self.combat_round_damage[target] + amount)
        if self.combat_damage[target] >= health:
            self._end_combat(Outcome.WON if target == ENEMY else Outcome.LOST)

    def _board_amount(self, kind: str) -> int:
        """The amount of the enemy board's ability if it is of `kind`, else 0."""
        ability = self.trait().board.ability
        return ability.amount if ability.kind == kind else 0

    def _wounded_bonus(self) -> int:
        """Bloodlust (wounded_damage_bonus): +N to the enemy's damage and charge spaces once it has taken at least
        half its health in damage."""
        bonus = self._board_amount("wounded_damage_bonus")
        return bonus if bonus and 2 * self.combat_damage[ENEMY] >= self.enemy_card().health else 0

    # ------------------------------------------------------------------------------------------ the enemy's turn
    def _enemy_action(self, frame: DecisionFrame) -> None:
        """COMBAT BOARDS: "resolve the next space on the combat board that contains a token (from top to bottom)";
        a space whose symbol cannot be resolved or would have no effect is skipped (and checked again next time);
        "Once there are no more spaces that can be resolved, the enemy passes"."""
        showing = self.pools(ENEMY).showing
        for space in self.trait().board.spaces:
            tokens = showing.get(space.symbol)
            if tokens and SPACE_RULES[space.instruction](self, space, list(tokens)):
                return
        self.passed = (self.passed[HERO], True)

    def _damage_space(self, space: Space, tokens: list[int]) -> bool:
        """All the space's tokens together, +N when at least one resolves (+ SYMBOLS)."""
        amount = sum(self.value(ENEMY, index) for index in tokens) + space.bonus + self._wounded_bonus()
        for index in tokens:
            self._spend(ENEMY, index)
        self._push(self._damage(HERO, amount, space.symbol, blockable=True))
        return True

    def _charge_space(self, space: Space, tokens: list[int]) -> bool:
        """CHARGE: "spend X [charge] to deal X unblockable damage"; the enemy blocks nothing more this round."""
        amount = sum(self.value(ENEMY, index) for index in tokens) + space.bonus + self._wounded_bonus()
        for index in tokens:
            self._spend(ENEMY, index)
        self.charged = (self.charged[HERO], True)
        self._push(self._damage(HERO, amount, Symbol.CHARGE, blockable=False))
        return True

    def _double_space(self, space: Space, doubles: list[int]) -> bool:
        """Each double is stacked on the space's preferred symbol ("he must double [surge] first"), its highest token;
        a double with nothing to double is skipped."""
        placed = False
        for double in doubles:
            target = self._double_target(space.priority, double)
            if target != NOWHERE:
                self._set(ENEMY, double, self.combat_tokens[ENEMY][double].stacked_on(target))
                placed = True
        return placed

    def _double_target(self, priority: Sequence[Symbol], double: int) -> int:
        for symbol in priority:
            candidates = [
                (self.face(ENEMY, index).value, -index)
                for index in self.showing(ENEMY, symbol)
                if index != double and self.double_on(ENEMY, index) == NOWHERE
            ]
            if candidates:
                return -max(candidates)[1]
        return NOWHERE

    def _surge_space(self, space: Space, tokens: list[int]) -> bool:
        """SPENDING SURGES: trigger the most expensive ability not triggered this round that would have an effect
        (equal costs: bottom of the card first), spending as many surges as it takes; none: skip the space."""
        choice = self._enemy_surge_choice()
        if choice is None:
            return False
        slot, payment = choice
        for index in payment:
            self._spend(ENEMY, index)
        self._trigger(ENEMY, slot)
        return True

    def _enemy_surge_choice(self) -> tuple[int, tuple[int, ...]] | None:
        """(ability slot, surge tokens paying it) the surge space resolves now, or None."""
        if self.silenced[ENEMY]:
            return None
        units = tuple(self._units(ENEMY, Symbol.SURGE))
        total = sum(value for _, value in units)
        best: tuple[int, int] | None = None
        for slot, ability in enumerate(self.enemy_card().abilities):
            cost = ability.cost.amount
            if not ability.surge or cost > total or self.has_triggered(ENEMY, slot):
                continue
            if self._effect_matters(ENEMY, ability.effect) and (best is None or (cost, slot) > best):
                best = (cost, slot)
        if best is None:
            return None
        payment = cheapest_payment(units, best[0])
        assert payment is not None
        return best[1], payment

    def _copy_space(self, space: Space, tactics: list[int]) -> bool:
        """Each tactics copies the highest token showing the space's first preferred symbol it can copy (the hero's
        symbols excepted), and is spent as that symbol on its own."""
        resolved = False
        for token in tactics:
            target = self._enemy_copy_target(space.priority, token)
            if target is None:
                continue
            face = self.face(*target)
            if face.symbol == Symbol.AGILITY:
                resolved = self._enemy_agility_use(NOWHERE, copier=token) or resolved
                continue
            self._spend(ENEMY, token)
            if face.symbol == Symbol.CHARGE:
                self.charged = (self.charged[HERO], True)
            self._push(self._damage(HERO, face.value, face.symbol, blockable=face.symbol != Symbol.CHARGE))
            resolved = True
        return resolved

    def _enemy_copy_target(self, priority: Sequence[Symbol], tactics: int) -> tuple[int, int] | None:
        for symbol in priority:
            candidates = [
                (self.face(side, index).value, -side, -index)
                for side in SIDES
                for index in self.showing(side, symbol)
                if not (side == ENEMY and index == tactics)
            ]
            if candidates:
                value, side, index = max(candidates)
                return -side, -index
        return None

    def _agility_space(self, space: Space, tokens: list[int]) -> bool:
        """The agility space: the enemy card's agility ability if it has one (AGILITY ABILITIES: "rather than the
        instructions on the [agility] space"), else the space's instruction; each token in turn."""
        if not self._enemy_agility_possible():
            return False
        self._push(new_frame(self.combat_seat(), Kind.ENEMY_AGILITY, tokens=tuple(tokens)))
        return True

    def _enemy_agility_possible(self) -> bool:
        abilities = self.game.enemy_agility_abilities[self.enemy]
        if abilities:
            if self.silenced[ENEMY]:
                return False
            return any(
                ability.timing == "action"
                and self._can_pay(ENEMY, ability.cost)
                and self._effect_matters(ENEMY, ability.effect)
                for ability in abilities
            )
        return self._effect_matters(ENEMY, self._agility_instruction())

    def _agility_instruction(self) -> Effect:
        board = self.trait().board
        return AGILITY_INSTRUCTIONS[board.spaces[board.space_of(Symbol.AGILITY)].instruction]

    def _enemy_agility(self, frame: DecisionFrame) -> None:
        """One agility token of the space resolved; the rest after it (the hero may react to this one first)."""
        first, *rest = frame.detail("tokens")
        if rest:
            self._push(new_frame(self.combat_seat(), Kind.ENEMY_AGILITY, tokens=tuple(rest)))
        if not self.combat_tokens[ENEMY][first].spent:
            self._enemy_agility_use(first)

    def _enemy_agility_use(self, token: int, copier: int = NOWHERE) -> bool:
        """One use of agility by the enemy: agility token `token`, or (NOWHERE) tactics `copier` spent as a copy of
        an agility, worth one agility. Its card's agility ability if it has one, else the board's instruction.
        False: nothing to do (the token stays, to be checked again on the enemy's next action)."""
        abilities = self.game.enemy_agility_abilities[self.enemy]
        if abilities:
            if self.silenced[ENEMY]:
                return False
            for ability in abilities:
                if ability.timing != "action" or not self._effect_matters(ENEMY, ability.effect):
                    continue
                if token == NOWHERE:
                    if ability.cost.amount > 1:  # a copy is one agility
                        continue
                elif self._can_pay(ENEMY, ability.cost):
                    self._pay(ENEMY, ability.cost)
                else:
                    continue
                effect = ability.effect
                break
            else:
                return False
        else:
            effect = self._agility_instruction()
            if not self._effect_matters(ENEMY, effect):
                return False
            if token != NOWHERE:
                self._spend(ENEMY, token)
        if copier != NOWHERE:
            self._spend(ENEMY, copier)
        self._apply_effect(ENEMY, effect)
        return True

    def _never(self, space: Space, tokens: list[int]) -> bool:
        """The shields' space: shields are spent only in response to damage, never as a combat action."""
        return False


SpaceRule = Callable[[CombatRules, Space, list[int]], bool]
SPACE_RULES: Mapping[str, SpaceRule] = {
    "damage": CombatRules._damage_space,
    "charge": CombatRules._charge_space,
    "double": CombatRules._double_space,
    "surge": CombatRules._surge_space,
    "copy": CombatRules._copy_space,
    "flip_foe": CombatRules._agility_space,
    "recast_foe": CombatRules._agility_space,
    "block": CombatRules._never,
}
"""A board space's instruction -> the rule that resolves it (True: the enemy took its action there)."""
EffectRule = Callable[[CombatRules, int, Effect], None]
EFFECT_RULES: Mapping[str, EffectRule] = {
    "damage": CombatRules._effect_damage,
    "heal": CombatRules._effect_heal,
    "reflect": CombatRules._effect_reflect,
    "remove_shields": CombatRules._effect_remove_shields,
    "remove_token": CombatRules._effect_remove_token,
    "recast_spent": CombatRules._effect_recast_spent,
    "silence": CombatRules._effect_silence,
    "barrier": CombatRules._effect_barrier,
    "flip_foe": CombatRules._effect_flip_foe,
    "recast_foe": CombatRules._effect_recast_foe,
    "prevent_flip": CombatRules._effect_prevent_flip,
}
"""An effect's kind -> the rule that carries it out for a side."""


COMBAT_FRAME_KINDS: Mapping[str, FrameKind] = {
    Kind.CAST: Chance("_cast_outcomes", "_cast"),
    Kind.COMBAT_SETUP: Automatic("_combat_setup"),
    Kind.START_COMBAT_ROUND: Automatic("_start_round"),
    Kind.AFTER_CAST: Automatic("_after_cast"),
    Kind.COMBAT_INITIATIVE: Automatic("_take_initiative"),
    Kind.NEXT_COMBAT_ACTION: Automatic("_next_action"),
    Kind.ENEMY_COMBAT_ACTION: Automatic("_enemy_action"),
    Kind.ENEMY_AGILITY: Automatic("_enemy_agility"),
    Kind.COMBAT_DAMAGE: Automatic("_resolve_damage"),
    Kind.END_COMBAT_ROUND: Automatic("_end_round"),
    Kind.HERO_COMBAT_ACTION: Decision("_action_options", "_take_action"),
    Kind.COMBAT_GROUP: Decision("_group_options", "_grow_group"),
    Kind.AGILITY: Decision("_agility_options", "_use_agility"),
    Kind.COPY: Decision("_copy_options", "_copy"),
    Kind.COPIED_SURGE: Decision("_copied_surge_options", "_use_copied_surge"),
    Kind.BLOCK: Decision("_block_options", "_block_reaction"),
    Kind.PREVENT: Decision("_prevent_options", "_prevent_reaction"),
    Kind.STAY: Decision("_stay_options", "_stay_or_flee"),
}
"""Every frame kind of the combat and the methods of `CombatRules` that run it (envs/core/engine.py)."""
COMBAT_CHANCE_LABELS: Mapping[Hashable, ChanceLabel] = {Kind.CAST: ChanceLabel(_token_cast)}
"""The face a cast token shows ("hero token 2 (Eliam 2) shows physical 1 (gold)") (envs/core/chance_labels.py)."""
