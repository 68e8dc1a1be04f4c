"""Runebound on the board, solo, The Locust Swarm: the rules as frames on the core frame engine, over the declared
state (board_state.py), holding the combat's rules (combat.py) for the fights, on the same stack.

A turn is 3 actions (move, rest, shop, adventure, fight a warband, train, prepare; a prepare token spent for a fourth),
then the time token advances one space (solo: once per turn), story cards and warbands come at their spaces, and the
warbands move one hex each toward the nearest civilized hex they can target. Every draw is a chance event over the
cards left at that moment (RULES.md, "What is hidden"); every test and terrain die a chance event with its exact
probabilities. A fight pushes the combat's setup above the board's frames; the combat's end (`combat_over`) brings the
board its consequences.

Every reading of the text, the public facts and the designed parts is in RULES.md, "The board game"; the methods
name their rule.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from envs.core.chance_labels import ChanceLabel
from envs.core.decisions import DecisionFrame
from envs.core.engine import Automatic, Chance, Decision, FrameKind, new_frame
from envs.core.game import CHANCE
from envs.core.hexmap import NO_CELL
from envs.runebound.board_actions import (
    ADVENTURE,
    BOARD_ACTIONS,
    END_TURN,
    FIGHT_WARBAND,
    MOVE,
    PREPARE,
    REST,
    SHOP,
    SPEND_PREPARE,
    TRAIN,
)
from envs.runebound.board_cards import ASSET_TYPES, TROPHY_KINDS, Adventure, Asset, BoardEffect, BoardHero, Skill
from envs.runebound.board_map import GEM_DECKS
from envs.runebound.board_state import (
    MAX_GOLD,
    MAX_HAND,
    MAX_TROPHIES,
    MAX_UNITS,
    MAX_WOUNDS,
    NONE,
    WARBAND_FIGHT,
    BoardKind,
    BoardOutcome,
    BoardStateData,
    Prepare,
    WarbandOnBoard,
)
from envs.runebound.combat import COMBAT_CHANCE_LABELS, COMBAT_FRAME_KINDS, CombatRules, combat_frames, fresh_tokens
from envs.runebound.movement import FACE_NAMES, TERRAIN_DIE, can_step, die_outcomes
from envs.runebound.state import NOWHERE, Outcome
from envs.runebound.symbols import HERO

if TYPE_CHECKING:
    from envs.runebound.board_game import RuneboundGame

SEAT = 0
"""The solo hero's seat."""
TURN_ACTIONS = 3
"""Actions in a turn ("Each turn you have 3 actions", public facts 3.3)."""
ADVENTURE_ACTIONS = 2
"""An adventure costs 2 actions (public facts 3.3); a warband fight too (designed: a fight like a combat adventure)."""
TEST_DIE = tuple((face, 1.0 / 6.0) for face in range(1, 7))
"""A test rolls one six-sided die (designed: RULES.md, "Tests")."""
WARBAND_REWARD = (BoardEffect(kind="gain_gold", amount=2), BoardEffect(kind="gain_trophy", trophy="combat"))
"""What defeating a warband gives (designed)."""
TARGET_KINDS = ("shrine", "town", "stronghold", "city")
"""A warband of n units targets the first n kinds (The Locust Swarm: "1 unit -> shrines; 2 -> also towns; 3 -> also
strongholds; 4 -> also cities")."""
WARBAND_STEP_CACHE = 65536
"""Warband moves kept by the game (cells x units x scorched sets met: a few thousand in a thousand games)."""
SETTLED_KINDS = ("city", "town")
"""Where a rest heals fully (designed)."""


def _without(values: tuple[int, ...], item: int) -> tuple[int, ...]:
    """`values` without one copy of `item`."""
    index = values.index(item)
    return (*values[:index], *values[index + 1 :])


def _uniform(items: Sequence[int]) -> list[tuple[int, float]]:
    return [(item, 1.0 / len(items)) for item in items]


def _asset_drawn(state: BoardState, frame: DecisionFrame, card: int, why: str) -> str:
    """An asset-deck card drawn for a market, with what becomes of it (TWISTS, SOLO RULES)."""
    game = state.game
    city = game.hex_name(game.cities[frame.detail("city")])
    name = game.asset_card_names[card]
    words = {
        "dealt": f"{name} is dealt to the market of {city}",
        "shop": f"the shop in {city} draws {name}",
        "restock": f"the market of {city} restocks with {name}",
    }[why]
    if game.is_twist(card):
        twist = game.twist_of(card)
        if why == "dealt":
            return f"{words} (a twist: set aside)"
        if why == "shop" and not twist.other_hero:
            return f"{words} (a twist: resolved, then replaced)"
        return f"{words} (a twist: discarded and replaced)"
    if game.board.assets[card].other_hero:
        return f"{words} (it refers to another hero: discarded and replaced)"
    return words


def _gem_revealed(state: BoardState, frame: DecisionFrame, cell: int) -> str:
    return f"a gem is revealed at {state.game.hex_name(cell)}"


class BoardState(BoardStateData, CombatRules):
    """A solo game of Runebound on the board: the declared state, the board's rules and the combat's."""

    game: RuneboundGame

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {
        BoardKind.PICK_HERO: Chance("_hero_outcomes", "_pick_hero"),
        BoardKind.DEAL_MARKET: Chance("_asset_outcomes", "_deal_market", nothing="_nothing_to_draw"),
        BoardKind.SHOP_DRAW: Chance("_asset_outcomes", "_shop_draw", nothing="_nothing_to_draw"),
        BoardKind.ROLL_DIE: Chance("_die_outcomes", "_roll_die"),
        BoardKind.DRAW_ADVENTURE: Chance("_adventure_outcomes", "_draw_adventure", nothing="_nothing_to_draw"),
        BoardKind.DRAW_SKILL: Chance("_skill_outcomes", "_draw_skill", nothing="_nothing_to_draw"),
        BoardKind.DRAW_STORY: Chance("_story_outcomes", "_draw_story", nothing="_nothing_to_draw"),
        BoardKind.SPAWN_WARBAND: Chance("_warband_outcomes", "_spawn_warband", nothing="_nothing_to_draw"),
        BoardKind.REVEAL_GEM: Chance("_gem_outcomes", "_reveal_gem", nothing="_nothing_to_draw"),
        BoardKind.TEST_ROLL: Chance("_test_outcomes", "_test_roll"),
        BoardKind.RESTOCK: Chance("_asset_outcomes", "_restock", nothing="_nothing_to_draw"),
        BoardKind.BOARD_SETUP: Automatic("_board_setup"),
        BoardKind.END_SETUP: Automatic("_end_setup"),
        BoardKind.START_TURN: Automatic("_start_turn"),
        BoardKind.NEXT_ACTION: Automatic("_next_action_of_turn"),
        BoardKind.END_TURN: Automatic("_end_turn"),
        BoardKind.MOVE_WARBANDS: Automatic("_move_warbands"),
        BoardKind.CHOOSE_ACTION: Decision("_action_choices", "_take_turn_action"),
        BoardKind.MOVE_STEP: Decision("_step_options", "_take_step"),
        BoardKind.SHOP: Decision("_shop_options", "_shop"),
        BoardKind.EXERT: Decision("_exert_options", "_exert"),
        BoardKind.DISCARD_SKILL: Decision("_discard_skill_options", "_discard_skill"),
        BoardKind.FIGHT_EXERT: Decision("_fight_exert_options", "_fight_exert"),
        **COMBAT_FRAME_KINDS,
    }
    """The board's frame kinds, then every frame kind of the combat (envs/core/engine.py)."""
    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
        BoardKind.PICK_HERO: ChanceLabel("the hero is {item.name}", items=attrgetter("game.cards.heroes")),
        BoardKind.DEAL_MARKET: ChanceLabel(lambda state, frame, card: _asset_drawn(state, frame, card, "dealt")),
        BoardKind.SHOP_DRAW: ChanceLabel(lambda state, frame, card: _asset_drawn(state, frame, card, "shop")),
        BoardKind.ROLL_DIE: ChanceLabel("a terrain die shows {item}", items=lambda state: FACE_NAMES),
        BoardKind.DRAW_ADVENTURE: ChanceLabel(
            "the adventure is {item.name}", items=attrgetter("game.board.adventures")
        ),
        BoardKind.DRAW_SKILL: ChanceLabel("the skill drawn is {item.name}", items=attrgetter("game.board.skills")),
        BoardKind.DRAW_STORY: ChanceLabel("the story card is {item.name}", items=attrgetter("game.board.story")),
        BoardKind.SPAWN_WARBAND: ChanceLabel("{item.name} spawns", items=attrgetter("game.board.warbands")),
        BoardKind.REVEAL_GEM: ChanceLabel(
            lambda state, frame, cell: f"a gem is revealed at {state.game.hex_name(cell)}"
        ),
        BoardKind.TEST_ROLL: ChanceLabel("the test die shows {outcome}"),
        BoardKind.RESTOCK: ChanceLabel(lambda state, frame, card: _asset_drawn(state, frame, card, "restock")),
        **COMBAT_CHANCE_LABELS,
    }
    """How each chance outcome reads (envs/core/chance_labels.py)."""

    def validate(self) -> None:
        """Refuse every position that cannot happen, naming the field (board_validation.py)."""
        from envs.runebound.board_validation import validate_board

        validate_board(self)

    # ------------------------------------------------------------------------------------------ queries
    def board_hero(self) -> BoardHero:
        """The hero's board record (board_heroes.yaml)."""
        return self.game.board_hero_of[self.hero]

    def raised(self, what: str) -> int:
        """How much the skills learned raise `what` (an attribute, health, speed or hand_size)."""
        skills = self.game.board.skills
        return sum(1 for skill in self.learned if skills[skill].learned == what)

    def held(self, type_: str) -> Asset | None:
        """The asset held of `type_`, if any."""
        card = self.assets[ASSET_TYPES.index(type_)]
        return None if card == NONE else self.game.board.assets[card]

    def max_health(self) -> int:
        """The hero's health on the board: its card's, its armor's and its learned skills' (RULES.md, "Health")."""
        armor = self.held("armor")
        return self.hero_card().health + (armor.health if armor else 0) + self.raised("health")

    def hand_size(self) -> int:
        """Skill cards the hero keeps: its card's and its learned skills'."""
        return min(MAX_HAND, self.hero_card().hand_size + self.raised("hand_size"))

    def attribute(self, name: str) -> int:
        """The hero's attribute (body, mind or spirit) with its learned raises."""
        return int(getattr(self.hero_card(), name)) + self.raised(name)

    def test_bonus(self, attribute: str) -> int:
        """What the hero adds to every test of `attribute`: its trinket's and its ability's."""
        trinket = self.held("trinket")
        bonus = trinket.bonus if trinket and trinket.attribute == attribute else 0
        ability = self.board_hero().ability
        if ability.kind == "test_bonus" and ability.attribute == attribute:
            bonus += ability.amount
        return bonus

    def dice_count(self) -> int:
        """Terrain dice a move rolls: speed, a mount's, learned raises and an extra-die ability (at most 6)."""
        mount = self.held("mount")
        ability = self.board_hero().ability
        extra = ability.amount if ability.kind == "extra_die" else 0
        return min(6, self.board_hero().speed + (mount.speed if mount else 0) + self.raised("speed") + extra)

    def act(self) -> int:
        """The Act of the time track (1 or 2)."""
        return 1 if self.time < self.game.board.scenario.act_length else 2

    def fighting(self) -> bool:
        """Whether a fight is on."""
        return self.fight != NONE

    def warband_targets(self, units: int) -> tuple[int, ...]:
        """The civilized cells a warband of `units` may target: the kinds its units reach, not scorched."""
        scorched = self.scorched
        return tuple(cell for cell in self.game.targets_by_units[units] if cell not in scorched)

    def warband_step(self, band: WarbandOnBoard) -> tuple[int, int] | None:
        """(target, next cell) of a warband's move, None when it has no target (RULES.md, "Warbands"); a pure function
        of the warband's cell and units and the scorched hexes, kept in the game's `warband_steps` once computed."""
        key = (band.cell, band.units, self.scorched)
        steps = self.game.warband_steps
        if key not in steps:
            if len(steps) >= WARBAND_STEP_CACHE:
                steps.clear()
            steps[key] = self._warband_step(band)
        return steps[key]

    def _warband_step(self, band: WarbandOnBoard) -> tuple[int, int] | None:
        targets = self.warband_targets(band.units)
        if not targets:
            return None
        distance = self.game.land_distances[band.cell]
        target = min(targets, key=lambda cell: (distance[cell], cell))
        if target == band.cell:
            return target, band.cell
        to_target = self.game.land_distances[target]
        hex_map = self.game.board.map.hex_map
        for neighbour in hex_map.neighbour_table[band.cell]:
            if neighbour != NO_CELL and to_target[neighbour] == to_target[band.cell] - 1:
                return target, neighbour
        return None

    # ------------------------------------------------------------------------------------------ the combat's hooks
    def combat_seat(self) -> int:
        """The solo hero's seat."""
        return SEAT

    def combat_hero(self) -> int:
        """The hero on the board."""
        return self.hero

    def combat_hero_health(self) -> int:
        """The hero's health on the board: its card's, its armor's and its learned skills' (RULES.md, "Health")."""
        return self.max_health()

    def combat_hero_wounds(self) -> int:
        """The hero's wounds on the board: a fight starts from them."""
        return self.wounds

    def combat_weapon_tokens(self) -> tuple[int, ...]:
        """The token of the weapon held ("Buying a weapon gives you its combat token")."""
        weapon = self.held("weapon")
        if weapon is None:
            return ()
        return (self.game.weapon_token[weapon.weapon],)  # type: ignore[index]

    def combat_act(self) -> int:
        """The time track's Act ("Act II uses the combat's Act II tokens")."""
        return self.act()

    def combat_exert_ready(self) -> bool:
        """A skill in hand to exert (RULES.md, "Exert in fights")."""
        return bool(self.hand)

    def combat_exert(self, slot: int, paid: bool) -> bool:
        """The hero chooses the skill to exert (discard), then the ability goes on (RULES.md, "Exert in fights")."""
        self._push(new_frame(SEAT, BoardKind.FIGHT_EXERT, ability=slot, paid=paid))
        return False

    def combat_choice_as_damage(self) -> bool:
        """The game's `enemy_choice` preset."""
        return self.game.preset.choice_as_damage

    def combat_over(self, outcome: Outcome) -> None:
        """The fight's consequences: the hero's wounds, then a victory's reward (an adventure's, or a warband
        defeated), a defeat's end of the game; the combat's fields back at rest (RULES.md, "Fights")."""
        self.wounds = self.combat_damage[HERO]
        fight = self.fight
        self.fight = NONE
        self._rest_combat()
        if outcome == Outcome.LOST:
            self.outcome = BoardOutcome.DEFEATED
            return
        if outcome != Outcome.WON:
            return
        if fight >= WARBAND_FIGHT:
            place = fight - WARBAND_FIGHT
            band = self.warbands[place]
            self.warbands = (*self.warbands[:place], *self.warbands[place + 1 :])
            self.defeated = tuple(sorted((*self.defeated, band.card)))
            self._effects(WARBAND_REWARD)
            if not self.warbands and not self.warband_pile:
                self.outcome = BoardOutcome.WON
        else:
            self._effects(self.game.board.adventures[fight].reward)

    def _rest_combat(self) -> None:
        """The combat's fields at rest between fights."""
        self.enemy = NOWHERE
        self.combat_tokens = ((), ())
        self.combat_damage = (0, 0)
        self.combat_round = 0
        self.initiative = NOWHERE
        self.passed = self.charged = self.silenced = (False, False)
        self.barrier = self.combat_round_damage = (0, 0)
        self.combat_triggered = ((), ())
        self.combat_outcome = Outcome.ONGOING

    def _start_fight(self, enemy: int, fight: int) -> None:
        """A fight against `enemy` for `fight` (an adventure, or a warband): the combat's setup on top."""
        self.enemy = enemy
        self.fight = fight
        self.combat_tokens = (fresh_tokens(()), fresh_tokens(()))
        self._push(combat_frames(SEAT).setup)

    # ------------------------------------------------------------------------------------------ the contract
    def returns(self) -> list[float]:
        """+1 for a won scenario, -1 for a lost one, 0 while it goes on."""
        if self.outcome == BoardOutcome.WON:
            return [1.0]
        if self.outcome in (BoardOutcome.TIME_OUT, BoardOutcome.DEFEATED):
            return [-1.0]
        return [0.0]

    def score(self) -> list[float]:
        """The share of the warbands defeated (+1 more for a win), less 1 for a defeat (RULES.md, "Rewards")."""
        share = len(self.defeated) / len(self.game.board.warbands)
        if self.outcome == BoardOutcome.DEFEATED:
            return [share - 1.0]
        return [share]

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """Won, score, how the game ended, the warbands defeated, the time and the decisions."""
        info = super().episode_info(player)
        info.update(
            outcome=self.outcome.name.lower(),
            warbands_defeated=len(self.defeated),
            time=self.time,
            turns=self.time,
            scorched=len(self.scorched),
        )
        return info

    # ------------------------------------------------------------------------------------------ engine hooks
    def _game_over(self) -> bool:
        return self.outcome != BoardOutcome.ONGOING

    def _end_game(self) -> None:
        if self.fighting():
            self.fight = NONE
            self._rest_combat()

    def _count_decision(self, frame: DecisionFrame) -> None:
        self.decisions += 1

    def _nothing_to_draw(self, frame: DecisionFrame) -> None:
        """An empty deck draws nothing (designed: the deck and its discards are both spent)."""

    # ------------------------------------------------------------------------------------------ setup
    def _hero_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        return self.game.hero_outcomes

    def _pick_hero(self, frame: DecisionFrame, hero: int) -> None:
        self.hero = hero

    def _board_setup(self, frame: DecisionFrame) -> None:
        """The hero at its city with its gold (and Tatianna's trophy); the markets dealt; the first warband."""
        hero = self.board_hero()
        game = self.game
        self.cell = game.board.map.site_cell(hero.start)
        self.hero_gold = hero.gold + game.board.scenario.start_gold
        if hero.ability.kind == "setup_trophy":
            self._gain_trophy(hero.ability.trophy or TROPHY_KINDS[0], hero.ability.amount)
        deals = [
            new_frame(CHANCE, BoardKind.DEAL_MARKET, city=city)
            for city in range(len(game.cities))
            for _ in range(game.board.scenario.market_size)
        ]
        spawns = [
            new_frame(CHANCE, BoardKind.SPAWN_WARBAND) for space in game.board.scenario.warband_spaces if space == 0
        ]
        self._push(*deals, new_frame(SEAT, BoardKind.END_SETUP), *spawns, new_frame(SEAT, BoardKind.START_TURN))

    def _end_setup(self, frame: DecisionFrame) -> None:
        """ "Once the markets are ready, shuffle all drawn twists back into the asset deck" (TWISTS)."""
        self.asset_deck = tuple(sorted((*self.asset_deck, *self.set_aside)))
        self.set_aside = ()

    # ------------------------------------------------------------------------------------------ the asset deck
    def _asset_pool(self) -> tuple[int, ...]:
        """The cards a draw takes from: the deck, or its discards once it is empty (reshuffled)."""
        return self.asset_deck or self.asset_discard

    def _asset_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return _uniform(self._asset_pool())

    def _take_asset(self, card: int) -> None:
        """Take `card` from the deck (or the reshuffled discards)."""
        if not self.asset_deck:
            self.asset_deck, self.asset_discard = self.asset_discard, ()
        self.asset_deck = _without(self.asset_deck, card)

    def _deal_market(self, frame: DecisionFrame, card: int) -> None:
        """A card dealt to a market at setup: "If a twist card is drawn during setup, set it aside and continue to deal
        asset cards"; a card that refers to another hero is discarded and replaced (SOLO RULES)."""
        self._take_asset(card)
        city = frame.detail("city")
        if self.game.is_twist(card):
            self.set_aside = tuple(sorted((*self.set_aside, card)))
            self._push(frame)
        elif self.game.board.assets[card].other_hero:
            self.asset_discard = tuple(sorted((*self.asset_discard, card)))
            self._push(frame)
        else:
            self._to_market(city, card)

    def _to_market(self, city: int, card: int) -> None:
        markets = list(self.markets)
        markets[city] = (*markets[city], card)
        self.markets = tuple(markets)

    def _shop_draw(self, frame: DecisionFrame, card: int) -> None:
        """The shop's draw: "Whenever a twist is drawn, the player shopping in that city resolves it and then discards
        it before drawing a replacement asset"; several twists in a row are each resolved (TWISTS)."""
        self._take_asset(card)
        city = frame.detail("city")
        if self.game.is_twist(card):
            self.asset_discard = tuple(sorted((*self.asset_discard, card)))
            self._push(frame)  # the replacement is drawn after the twist's effects (pushed above it)
            twist = self.game.twist_of(card)
            if not twist.other_hero:  # SOLO RULES: a card that refers to another hero is discarded and replaced
                self._effects(twist.effects)
        elif self.game.board.assets[card].other_hero:
            self.asset_discard = tuple(sorted((*self.asset_discard, card)))
            self._push(frame)
        else:
            self._to_market(city, card)

    def _restock(self, frame: DecisionFrame, card: int) -> None:
        """A market's replacement outside a shop action: "If an asset is removed from a city outside of a shop action
        and a twist is drawn, discard the twist and draw another card from the asset deck" (TWISTS)."""
        self._take_asset(card)
        if self.game.is_twist(card) or self.game.board.assets[card].other_hero:
            self.asset_discard = tuple(sorted((*self.asset_discard, card)))
            self._push(frame)
        else:
            self._to_market(frame.detail("city"), card)

    # ------------------------------------------------------------------------------------------ turns
    def _start_turn(self, frame: DecisionFrame) -> None:
        """3 actions; a prepare token placed last turn may be spent from now on ("On a future turn")."""
        self.actions_left = TURN_ACTIONS
        if self.prepare == Prepare.PLACED:
            self.prepare = Prepare.HELD
        self._push(new_frame(SEAT, BoardKind.CHOOSE_ACTION))

    def _next_action_of_turn(self, frame: DecisionFrame) -> None:
        """The next action while some are left, else the end of the turn."""
        if self.actions_left > 0:
            self._push(new_frame(SEAT, BoardKind.CHOOSE_ACTION))
        else:
            self._push(new_frame(SEAT, BoardKind.END_TURN))

    def _action_choices(self, frame: DecisionFrame) -> list[int]:
        """Every action the hero may take now (RULES.md, "Turns"), learning a skill (no action) and ending the turn."""
        ids = BOARD_ACTIONS
        game = self.game
        options = [ids.action + MOVE, ids.action + END_TURN]
        hex_map = game.board.map.hex_map
        options.extend(
            ids.step + direction
            for direction, neighbour in enumerate(hex_map.neighbour_table[self.cell])
            if neighbour != NO_CELL
        )
        if self.wounds > 0:
            options.append(ids.action + REST)
        if self.cell in game.city_index and self.cell not in self.scorched:
            options.append(ids.action + SHOP)
        if self.actions_left >= ADVENTURE_ACTIONS:
            if self.cell in self.gems and self.deck_cards(GEM_DECKS[game.board.map.gem_at(self.cell) or ""]):
                options.append(ids.action + ADVENTURE)
            if any(band.cell == self.cell for band in self.warbands):
                options.append(ids.action + FIGHT_WARBAND)
        if self.skill_deck or self.skill_discard:
            options.append(ids.action + TRAIN)
        if self.prepare == Prepare.NONE:
            options.append(ids.action + PREPARE)
        if self.prepare == Prepare.HELD:
            options.append(ids.action + SPEND_PREPARE)
        options.extend(ids.learn + slot for slot, skill in enumerate(self.hand) if self.can_learn(skill))
        return options

    def can_learn(self, skill: int) -> bool:
        """Whether the hero holds the trophies that learning `skill` costs."""
        cost = self.game.board.skills[skill].cost
        return all(self.trophies[TROPHY_KINDS.index(kind)] >= amount for kind, amount in cost.items())

    def _take_turn_action(self, frame: DecisionFrame, action: int) -> None:
        ids = BOARD_ACTIONS
        group, index = ids.codec.decode(action)
        if group == "learn":
            self._learn(self.hand[index])
            self._push(new_frame(SEAT, BoardKind.NEXT_ACTION))
            return
        if group == "step":
            self.actions_left -= 1
            self._push(new_frame(SEAT, BoardKind.NEXT_ACTION))  # beneath what entering the hex may push
            self._enter(self.game.board.map.hex_map.neighbour_table[self.cell][index])
            return
        if index == SPEND_PREPARE:
            self.prepare = Prepare.NONE
            self.actions_left += 1
            self._push(new_frame(SEAT, BoardKind.NEXT_ACTION))
            return
        if index == END_TURN:
            self.actions_left = 0
            self._push(new_frame(SEAT, BoardKind.NEXT_ACTION))
            return
        cost = ADVENTURE_ACTIONS if index in (ADVENTURE, FIGHT_WARBAND) else 1
        self.actions_left -= cost
        then = new_frame(SEAT, BoardKind.NEXT_ACTION)
        if index == MOVE:
            rolls = [new_frame(CHANCE, BoardKind.ROLL_DIE)] * self.dice_count()
            self._push(*rolls, new_frame(SEAT, BoardKind.MOVE_STEP), then)
        elif index == REST:
            self._push(then)
            self._rest()
        elif index == SHOP:
            city = self.game.city_index[self.cell]
            self._push(
                new_frame(CHANCE, BoardKind.SHOP_DRAW, city=city), new_frame(SEAT, BoardKind.SHOP, city=city), then
            )
        elif index == ADVENTURE:
            deck = GEM_DECKS[self.game.board.map.gem_at(self.cell) or ""]
            self.gems = _without(self.gems, self.cell)
            self._push(new_frame(CHANCE, BoardKind.DRAW_ADVENTURE, deck=deck), then)
        elif index == FIGHT_WARBAND:
            place = next(k for k, band in enumerate(self.warbands) if band.cell == self.cell)
            band = self.warbands[place]
            enemy = self.game.warband_enemies[band.card][band.units - 1]
            self._push(then)
            self._start_fight(enemy, WARBAND_FIGHT + place)
        elif index == TRAIN:
            draws = [new_frame(CHANCE, BoardKind.DRAW_SKILL)] * self.game.board.scenario.train_draw
            self._push(*draws, new_frame(SEAT, BoardKind.DISCARD_SKILL), then)
        elif index == PREPARE:
            self.prepare = Prepare.PLACED
            self._push(then)

    def _end_turn(self, frame: DecisionFrame) -> None:
        """The time token advances (solo: once per turn); story cards and warbands at their spaces; the warbands move;
        the end of Act II loses the scenario (RULES.md, "Time")."""
        scenario = self.game.board.scenario
        self.time += 1
        if self.time >= 2 * scenario.act_length:
            self.outcome = BoardOutcome.TIME_OUT
            return
        frames = []
        space = self.time % scenario.act_length or scenario.act_length
        if space in scenario.story_spaces:
            frames.append(new_frame(CHANCE, BoardKind.DRAW_STORY))
        frames.extend(new_frame(CHANCE, BoardKind.SPAWN_WARBAND) for at in scenario.warband_spaces if at == self.time)
        self._push(*frames, new_frame(SEAT, BoardKind.MOVE_WARBANDS), new_frame(SEAT, BoardKind.START_TURN))

    # ------------------------------------------------------------------------------------------ moving
    def _die_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return die_outcomes()

    def _roll_die(self, frame: DecisionFrame, face: int) -> None:
        self.dice = tuple(sorted((*self.dice, face)))

    def _step_options(self, frame: DecisionFrame) -> list[int]:
        """Each (face, direction) a die of the move can step, and stop (RULES.md, "Movement")."""
        board = self.game.board.map
        hex_map = board.hex_map
        options = [BOARD_ACTIONS.stop]
        for face in set(self.dice):
            terrain_face = TERRAIN_DIE[face]
            options.extend(
                BOARD_ACTIONS.move_id(face, direction)
                for direction in range(6)
                if hex_map.neighbour_table[self.cell][direction] != NO_CELL
                and can_step(board, self.cell, direction, terrain_face)
            )
        return options

    def _take_step(self, frame: DecisionFrame, action: int) -> None:
        if action == BOARD_ACTIONS.stop:
            self.dice = ()
            return
        face, direction = BOARD_ACTIONS.move_of(action)
        self.dice = _without(self.dice, face)
        if self.dice:
            self._push(frame)  # the next step, after what entering the hex may push
        self._enter(self.game.board.map.hex_map.neighbour_table[self.cell][direction])

    def _enter(self, cell: int) -> None:
        """The hero enters `cell`: the quests it targets are completed (RULES.md, "Quests")."""
        self.cell = cell
        self._complete_quests()

    def _complete_quests(self) -> None:
        done = [quest for quest in self.quests if self.game.quest_cell[quest] == self.cell]
        for quest in done:
            self.quests = _without(self.quests, quest)
            self._effects(self.game.board.adventures[quest].reward)

    # ------------------------------------------------------------------------------------------ rest, shop, train
    def _rest(self) -> None:
        """Heal `rest_heal` (and the hero's rest bonus), fully in an unscorched city or town (RULES.md, "Rest")."""
        scenario = self.game.board.scenario
        settled = self.game.site_kind_at[self.cell] in SETTLED_KINDS and self.cell not in self.scorched
        amount = scenario.town_rest_heal if settled else scenario.rest_heal
        ability = self.board_hero().ability
        if ability.kind == "rest_bonus":
            amount += ability.amount
        self.wounds = max(0, self.wounds - amount)

    def _shop_options(self, frame: DecisionFrame) -> list[int]:
        """Buy an affordable asset of a type not held, discard one, or sell an asset held (RULES.md, "Shop")."""
        ids = BOARD_ACTIONS
        market = self.markets[frame.detail("city")]
        assets = self.game.board.assets
        options = [ids.discard_asset + slot for slot in range(len(market))]
        options.extend(
            ids.buy + slot
            for slot, card in enumerate(market)
            if assets[card].cost <= self.hero_gold and self.assets[ASSET_TYPES.index(assets[card].type)] == NONE
        )
        options.extend(
            ids.sell + slot for slot, card in enumerate(self.assets) if card != NONE and self._can_sell(card)
        )
        return options

    def _can_sell(self, card: int) -> bool:
        """Whether selling `card` leaves the hero alive: armor whose health holds the hero's wounds is kept
        (RULES.md, "Rest, shop, train, skills")."""
        return self.wounds < self.max_health() - self.game.board.assets[card].health

    def _shop(self, frame: DecisionFrame, action: int) -> None:
        group, index = BOARD_ACTIONS.codec.decode(action)
        city = frame.detail("city")
        assets = self.game.board.assets
        if group == "sell":
            card = self.assets[index]
            self.hero_gold = min(MAX_GOLD, self.hero_gold + assets[card].cost)
            self.assets = (*self.assets[:index], NONE, *self.assets[index + 1 :])
            self.asset_discard = tuple(sorted((*self.asset_discard, card)))
            self._push(frame)
            return
        market = self.markets[city]
        card = market[index]
        markets = list(self.markets)
        markets[city] = (*market[:index], *market[index + 1 :])
        self.markets = tuple(markets)
        if group == "buy":
            self.hero_gold -= assets[card].cost
            slot = ASSET_TYPES.index(assets[card].type)
            self.assets = (*self.assets[:slot], card, *self.assets[slot + 1 :])
        else:
            self.asset_discard = tuple(sorted((*self.asset_discard, card)))

    def _skill_pool(self) -> tuple[int, ...]:
        return self.skill_deck or self.skill_discard

    def _skill_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return _uniform(self._skill_pool())

    def _draw_skill(self, frame: DecisionFrame, skill: int) -> None:
        """A skill drawn to the hand; one that refers to another hero is discarded and replaced (SOLO RULES)."""
        if not self.skill_deck:
            self.skill_deck, self.skill_discard = self.skill_discard, ()
        self.skill_deck = _without(self.skill_deck, skill)
        if self.game.board.skills[skill].other_hero:
            self.skill_discard = tuple(sorted((*self.skill_discard, skill)))
            self._push(frame)
        else:
            self.hand = (*self.hand, skill)

    def _discard_skill_options(self, frame: DecisionFrame) -> list[int]:
        """A skill to discard while the hand holds more than the hand size; none otherwise."""
        if len(self.hand) <= self.hand_size():
            return []
        return [BOARD_ACTIONS.discard_skill + slot for slot in range(len(self.hand))]

    def _discard_skill(self, frame: DecisionFrame, action: int) -> None:
        self._spend_skill(action - BOARD_ACTIONS.discard_skill)
        self._push(frame)

    def _learn(self, skill: int) -> None:
        """Learn a skill from the hand, paying its trophies (RULES.md, "Skills")."""
        cost = self.game.board.skills[skill].cost
        trophies = list(self.trophies)
        for kind, amount in cost.items():
            trophies[TROPHY_KINDS.index(kind)] -= amount
        self.trophies = tuple(trophies)
        self.hand = _without(self.hand, skill)
        self.learned = (*self.learned, skill)

    # ------------------------------------------------------------------------------------------ adventures
    def deck_cards(self, deck: str) -> tuple[int, ...]:
        """The cards left in adventure deck `deck` (a trophy kind)."""
        kinds = self.game.adventure_deck_of
        return tuple(card for card in self.adventure_deck if kinds[card] == deck)

    def _adventure_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return _uniform(self.deck_cards(frame.detail("deck")))

    def _draw_adventure(self, frame: DecisionFrame, card: int) -> None:
        """The adventure drawn: a fight starts, a test asks for exerts then rolls, a quest is taken; a card that refers
        to another hero is discarded and replaced (SOLO RULES)."""
        self.adventure_deck = _without(self.adventure_deck, card)
        adventure: Adventure = self.game.board.adventures[card]
        if adventure.other_hero:
            self._push(frame)
        elif adventure.kind == "fight":
            self._start_fight(self.game.enemy_index[adventure.enemy], card)  # type: ignore[index]
        elif adventure.kind == "test":
            self._push(new_frame(SEAT, BoardKind.EXERT, adventure=card, bonus=0))
        elif len(self.quests) < self.game.board.scenario.max_quests:
            self.quests = (*self.quests, card)
            self._complete_quests()

    def _exert_options(self, frame: DecisionFrame) -> list[int]:
        """Exert a skill of the test's attribute, or roll (RULES.md, "Tests")."""
        attribute = self.game.board.adventures[frame.detail("adventure")].attribute
        skills = self.game.board.skills
        options = [BOARD_ACTIONS.roll]
        options.extend(
            BOARD_ACTIONS.exert + slot for slot, skill in enumerate(self.hand) if skills[skill].attribute == attribute
        )
        return options

    def _exert(self, frame: DecisionFrame, action: int) -> None:
        adventure = frame.detail("adventure")
        if action == BOARD_ACTIONS.roll:
            self._push(new_frame(CHANCE, BoardKind.TEST_ROLL, adventure=adventure, bonus=frame.detail("bonus")))
            return
        slot = action - BOARD_ACTIONS.exert
        skill: Skill = self.game.board.skills[self.hand[slot]]
        self._spend_skill(slot)
        self._push(new_frame(SEAT, BoardKind.EXERT, adventure=adventure, bonus=frame.detail("bonus") + skill.exert))

    def _fight_exert_options(self, frame: DecisionFrame) -> list[int]:
        """Exert any skill in hand for the fight's exert ability (RULES.md, "Exert in fights")."""
        return [BOARD_ACTIONS.exert + slot for slot in range(len(self.hand))]

    def _fight_exert(self, frame: DecisionFrame, action: int) -> None:
        """The skill is discarded; the exert ability is paid and carried out."""
        self._spend_skill(action - BOARD_ACTIONS.exert)
        self._use_hero_ability(frame.detail("ability"), paid=frame.detail("paid"), exerted=True)

    def _spend_skill(self, slot: int) -> None:
        """The skill in hand `slot` goes to the skill discard pile (exerted or discarded)."""
        self.skill_discard = tuple(sorted((*self.skill_discard, self.hand[slot])))
        self.hand = (*self.hand[:slot], *self.hand[slot + 1 :])

    def test_total(self, adventure: int, bonus: int) -> int:
        """What a test adds to its die: the attribute, the exerted skills' bonus, the trinket and the ability."""
        attribute = self.game.board.adventures[adventure].attribute or ""
        return self.attribute(attribute) + bonus + self.test_bonus(attribute)

    def _test_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        return TEST_DIE

    def _test_roll(self, frame: DecisionFrame, roll: int) -> None:
        """Success when the die and the total reach the difficulty: the reward; otherwise the failure."""
        card = frame.detail("adventure")
        adventure = self.game.board.adventures[card]
        if roll + self.test_total(card, frame.detail("bonus")) >= (adventure.difficulty or 0):
            self._effects(adventure.reward)
        else:
            self._effects(adventure.failure)

    # ------------------------------------------------------------------------------------------ story and warbands
    def _story_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return _uniform(self.story_deck)

    def _draw_story(self, frame: DecisionFrame, card: int) -> None:
        self.story_deck = _without(self.story_deck, card)
        self._effects(self.game.board.story[card].effects)

    def _warband_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        return _uniform(self.warband_pile)

    def _spawn_warband(self, frame: DecisionFrame, card: int) -> None:
        """A face-down warband flips and spawns at the Outlaw Glade (The Locust Swarm)."""
        self.warband_pile = _without(self.warband_pile, card)
        self.warbands = (*self.warbands, WarbandOnBoard(card, self.game.glade, self.game.board.scenario.start_units))

    def _move_warbands(self, frame: DecisionFrame) -> None:
        """Each warband in story-space order moves one hex toward the nearest civilized hex it can target; one that
        reaches it scorches it; one with no target gains a unit (RULES.md, "Warbands")."""
        bands = list(self.warbands)
        for place, band in enumerate(bands):
            move = self.warband_step(band)
            if move is None:
                bands[place] = band._replace(units=min(MAX_UNITS, band.units + 1))
                continue
            target, cell = move
            bands[place] = band._replace(cell=cell)
            if cell == target:
                self.scorched = tuple(sorted((*self.scorched, cell)))
        self.warbands = tuple(bands)

    # ------------------------------------------------------------------------------------------ gems
    def _gem_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        empty = [cell for cell in self.game.gem_cells if cell not in self.gems and cell not in self.scorched]
        return _uniform(empty) if empty else []

    def _reveal_gem(self, frame: DecisionFrame, cell: int) -> None:
        self.gems = tuple(sorted((*self.gems, cell)))

    # ------------------------------------------------------------------------------------------ board effects
    def _effects(self, effects: Iterable[BoardEffect]) -> None:
        """Resolve card effects in order: immediate ones at once, draws as chance events (RULES.md, "Board
        effects")."""
        frames: list[DecisionFrame] = []
        for effect in effects:
            frames.extend(BOARD_EFFECTS[effect.kind](self, effect))
        if frames:
            self._push(*frames)

    def _gain_trophy(self, kind: str, amount: int) -> None:
        index = TROPHY_KINDS.index(kind)
        trophies = list(self.trophies)
        trophies[index] = min(MAX_TROPHIES, trophies[index] + amount)
        self.trophies = tuple(trophies)

    def _hero_damaged(self, amount: int) -> None:
        """Damage on the board: the hero is defeated at its health (RULES.md, "Board effects")."""
        self.wounds = min(MAX_WOUNDS, self.wounds + amount)
        if self.wounds >= self.max_health():
            self.wounds = self.max_health()
            self.outcome = BoardOutcome.DEFEATED


def _gain_gold(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    state.hero_gold = min(MAX_GOLD, state.hero_gold + effect.amount)
    return []


def _lose_gold(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    state.hero_gold = max(0, state.hero_gold - effect.amount)
    return []


def _heal(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    state.wounds = max(0, state.wounds - effect.amount)
    return []


def _damage(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    state._hero_damaged(effect.amount)
    return []


def _gain_trophy(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    state._gain_trophy(effect.trophy or TROPHY_KINDS[0], effect.amount)
    return []


def _draw_skill(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    return [new_frame(CHANCE, BoardKind.DRAW_SKILL)] * effect.amount + [new_frame(SEAT, BoardKind.DISCARD_SKILL)]


def _warbands_grow(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    state.warbands = tuple(band._replace(units=min(MAX_UNITS, band.units + effect.amount)) for band in state.warbands)
    return []


def _reveal_gems(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    return [new_frame(CHANCE, BoardKind.REVEAL_GEM)] * effect.amount


def _gain_prepare(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    if state.prepare == Prepare.NONE:
        state.prepare = Prepare.HELD
    return []


def _restock_markets(state: BoardState, effect: BoardEffect) -> list[DecisionFrame]:
    """Each market's first asset leaves and a replacement is drawn outside a shop action (TWISTS)."""
    frames = []
    markets = list(state.markets)
    for city, market in enumerate(markets):
        if market:
            state.asset_discard = tuple(sorted((*state.asset_discard, market[0])))
            markets[city] = market[1:]
            frames.append(new_frame(CHANCE, BoardKind.RESTOCK, city=city))
    state.markets = tuple(markets)
    return frames


BOARD_EFFECTS = {
    "gain_gold": _gain_gold,
    "lose_gold": _lose_gold,
    "heal": _heal,
    "damage": _damage,
    "gain_trophy": _gain_trophy,
    "draw_skill": _draw_skill,
    "warbands_grow": _warbands_grow,
    "reveal_gems": _reveal_gems,
    "gain_prepare": _gain_prepare,
    "restock_markets": _restock_markets,
}
"""Each board effect kind's rule (RULES.md, "Board effects"): it changes the state and returns the chance events and
decisions it needs, pushed in order."""
