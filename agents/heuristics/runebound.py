"""A heuristic hero for Runebound on the board (`tabletop/Runebound-v0`, solo, The Locust Swarm), from the game's
public rule queries: the state's queries (board.py), the map's, the content and the legal actions.

How it decides, outside fights (inside a fight the combat heuristic, agents/heuristics/runebound_combat.py, decides
every step, unchanged: the combat's ids are the same in both games):

- Learn every skill it can pay for (no action), the most useful first (health, then speed, then attributes).
- Pick one goal, the first that applies: an upgrade in the market where it stands; the nearest warband it takes on
  (nearly unhurt, the enemy's health well below its own, and armed unless the enemy is feeble); a market within
  reach holding an upgrade it can pay for (weapons first, then armor, a mount, a trinket: selling what it replaces);
  rest when healed it would take on a warband on the board (in a city or town when one is near, where a rest heals
  fully); when the next warband is about to spawn, the city or town nearest the Outlaw Glade, to meet it at once;
  the adventure gem worth most for its distance (the mean over the cards left in its deck: a fight it expects to
  win, a test by its exact chance of success, a quest); the quests it holds; else it waits (rest, train with
  trophies to spend, prepare, end the turn).
- Go to the goal on the shortest route: one hex without dice when it is next door, else a move, spending the dice on
  the route that gets nearest (searched over the dice left, the least versatile face first among equals), and
  stopping when no die brings it nearer.
- At the goal: fight, take the adventure, shop, or rest. With one action left where a fight or an adventure needs
  two, it spends a prepare token it holds, else places one.
- Tests: it exerts a skill of the test's attribute only when that lifts a poor chance; a full hand drops the skill it
  values least.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from agents.heuristics.runebound_combat import RuneboundHeuristicAgent
from envs.core.hexgrid import NUM_SIDES
from envs.runebound.board import BoardState
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
from envs.runebound.board_cards import ASSET_TYPES, TROPHY_KINDS, Adventure, Asset, BoardEffect
from envs.runebound.board_game import RuneboundGame
from envs.runebound.board_map import GEM_DECKS
from envs.runebound.board_state import BoardKind
from envs.runebound.movement import TERRAIN_DIE, can_step

FAR = 999
"""The distance of a cell not reached (the map is connected: never in practice)."""
FIGHT_MARGIN = 2
"""It fights an enemy when its health left in a fight is at least the enemy's health plus this."""
ADVENTURE_FIGHT_MARGIN = 3
"""The margin for a combat gem, whose enemy is drawn: over the mean health of the fights left in its deck."""
SETTLED_REST_DETOUR = 3
"""It walks up to this many hexes to a city or town to rest there (a full heal) rather than resting on the spot."""
SHOP_DETOUR = 5
"""It walks up to this many hexes to a market holding an upgrade it can pay for."""
GEM_DISTANCE_COST = 0.5
"""What a hex of travel costs an adventure gem's worth."""
GEM_WORTH_FLOOR = 0.4
"""It goes for a gem only when its expected worth is at least this (a trophy counts 1)."""
CAMP_TURNS = 1
"""It heads for its camp near the Outlaw Glade when the next warband comes within this many turns (and its road)."""
WOUND_SLACK = 1
"""It fights only with at most this many wounds carried into the fight."""
UNARMED_ENEMY = 3
"""Unarmed, it fights only enemies of at most this health."""
QUEST_SHARE = 0.7
"""A quest's reward counts this share of its worth (the road to its target is still to go)."""
RISKY_FIGHT_WORTH = -10.0
"""A fight without the margin counts as this (a lost fight loses the game)."""
EFFECT_WORTH = {
    "gain_trophy": 1.0,
    "gain_gold": 0.5,
    "lose_gold": -0.5,
    "damage": -0.7,
    "heal": 0.3,
    "draw_skill": 0.3,
    "gain_prepare": 0.3,
    "reveal_gems": 0.3,
}
"""What one unit of each card effect is worth to the hero (a trophy counts 1); the others count nothing."""
WOUND_SAFETY = 2
"""Damage that leaves the hero within this much of its health counts as dangerous."""
DANGEROUS_WOUND = -5.0
"""The worth of one dangerous wound."""
EXERT_BELOW = 0.6
"""It exerts a skill in a test when its chance of success is below this."""
ASSET_WORTH = {"weapon": 10.0, "armor": 4.0, "mount": 3.0, "trinket": 1.0}
"""Worth of one point of an asset's value, by type: weapons first, then armor (health), a mount, a trinket."""
LEARNED_WORTH = {"health": 4.0, "speed": 3.0, "body": 2.0, "mind": 2.0, "spirit": 2.0, "hand_size": 1.0}
"""What a learned skill's raise is worth to this hero (for learning, and for which skill a full hand drops)."""
TEST_DIE_FACES = 6
"""A test rolls one six-sided die (RULES.md, "Tests")."""
SETTLED_KINDS = ("city", "town")
"""Where a rest heals fully (RULES.md, "Rest")."""
ADVENTURE_ACTIONS = 2
"""An adventure and a warband fight cost 2 actions."""


def _without(values: tuple[int, ...], item: int) -> tuple[int, ...]:
    """`values` without one copy of `item`."""
    index = values.index(item)
    return (*values[:index], *values[index + 1 :])


class Goal(NamedTuple):
    """Where the hero is heading and what it does there (an index of the `action` group)."""

    cell: int
    action: int


def success_chance(needed: int) -> float:
    """The exact chance that one d6 reaches `needed` (what the die must show at least)."""
    return min(1.0, max(0.0, (TEST_DIE_FACES + 1 - needed) / TEST_DIE_FACES))


class RuneboundBoardHeuristicAgent:
    """Rule-of-thumb hero for Runebound on the board: weapons first, the warbands it can beat, adventures worth their
    road, rest when low; the combat heuristic inside fights."""

    name = "heuristic"

    def __init__(self, game: RuneboundGame) -> None:
        self.game = game
        self.combat = RuneboundHeuristicAgent(game)
        board = game.board
        hex_map = board.map.hex_map
        self.distances = tuple(
            tuple(FAR if d is None else d for d in hex_map.distances(cell)) for cell in range(len(hex_map))
        )
        """Hexes between any two cells (a hex without dice goes anywhere: the planning distance)."""
        self.steps = tuple(
            tuple(
                tuple(
                    d
                    for d in range(NUM_SIDES)
                    if hex_map.neighbour(cell, d) is not None and can_step(board.map, cell, d, face)
                )
                for face in TERRAIN_DIE
            )
            for cell in range(len(hex_map))
        )
        """The directions a die of each face steps from each cell (movement.py's rule, tabled once)."""
        self.settled = tuple(
            cell for cell in range(len(hex_map)) if (site := board.map.site_at(cell)) and site.kind in SETTLED_KINDS
        )
        self.enemy_health = tuple(enemy.health for enemy in game.cards.enemies)
        self.adventure_enemy_health = tuple(
            self.enemy_health[game.enemy_index[card.enemy]] if card.enemy is not None else 0
            for card in board.adventures
        )

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget between games (every choice is read from the state)."""

    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The heuristic's choice at the hero's decision in `state`."""
        assert isinstance(state, BoardState), "the Runebound board heuristic reads the rules-core state"
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        frame = state.decision()
        assert frame is not None, "act() is called only when the hero decides"
        kind = frame.kind
        if kind == BoardKind.FIGHT_EXERT:
            return min(legal, key=lambda a: (self._skill_worth(state, state.hand[a - BOARD_ACTIONS.exert]), a))
        if state.fighting() or legal[-1] < BOARD_ACTIONS.action:
            return self.combat.act(observation, action_mask, state)
        if kind == BoardKind.CHOOSE_ACTION:
            return self._turn_action(state, legal)
        if kind == BoardKind.MOVE_STEP:
            return self._step(state, legal)
        if kind == BoardKind.SHOP:
            return self._shop(state, legal, frame.detail("city"))
        if kind == BoardKind.EXERT:
            return self._exert(state, legal, frame.detail("adventure"), frame.detail("bonus"))
        if kind == BoardKind.DISCARD_SKILL:
            return min(legal, key=lambda a: (self._skill_worth(state, state.hand[a - BOARD_ACTIONS.discard_skill]), a))
        return legal[0]

    # ------------------------------------------------------------------------------------------ the turn
    def _turn_action(self, state: BoardState, legal: list[int]) -> int:
        """Learn what it can, then work toward the goal (see the module docstring)."""
        ids = BOARD_ACTIONS
        learnable = [a for a in legal if ids.learn <= a < ids.buy]
        if learnable:
            return max(learnable, key=lambda a: (self._skill_worth(state, state.hand[a - ids.learn]), -a))
        allowed = set(legal)
        goal = self._goal(state)
        if goal is None:
            return self._idle(state, allowed)
        if goal.cell != state.cell:
            return self._travel(state, goal.cell, allowed)
        wanted = ids.action + goal.action
        if wanted in allowed:
            return wanted
        if goal.action in (ADVENTURE, FIGHT_WARBAND) and state.actions_left < ADVENTURE_ACTIONS:
            if ids.action + SPEND_PREPARE in allowed:
                return ids.action + SPEND_PREPARE
            if ids.action + PREPARE in allowed:
                return ids.action + PREPARE
        return self._idle(state, allowed)

    def _idle(self, state: BoardState, allowed: set[int]) -> int:
        """Nothing to go for this action: heal, train toward a skill, hold an action for later, or end the turn."""
        ids = BOARD_ACTIONS
        if ids.action + REST in allowed:
            return ids.action + REST
        if ids.action + TRAIN in allowed and len(state.hand) < state.hand_size() and sum(state.trophies) > 0:
            return ids.action + TRAIN
        if ids.action + PREPARE in allowed:
            return ids.action + PREPARE
        return ids.action + END_TURN

    def _travel(self, state: BoardState, target: int, allowed: set[int]) -> int:
        """One hex without dice when the target is next door (or a move's dice cannot help), else a move."""
        ids = BOARD_ACTIONS
        distances = self.distances[target]
        neighbours = self.game.board.map.hex_map.neighbour_table[state.cell]
        if distances[state.cell] > 1 and ids.action + MOVE in allowed:
            return ids.action + MOVE
        steps = [ids.step + d for d, cell in enumerate(neighbours) if cell >= 0 and ids.step + d in allowed]
        return min(steps, key=lambda a: (distances[neighbours[a - ids.step]], a))

    # ------------------------------------------------------------------------------------------ goals
    def _goal(self, state: BoardState) -> Goal | None:
        """The goal of the moment (module docstring, in order)."""
        row = self.distances[state.cell]
        shop = self._shop_goal(state)
        if shop is not None and shop.cell == state.cell:
            return shop
        health = self._fight_health(state)
        bands = [(band.cell, self._band_health(band.card, band.units)) for band in state.warbands]
        ready = [cell for cell, enemy in bands if self._ready(state, enemy, health)]
        if ready:
            return Goal(min(ready, key=lambda cell: (row[cell], cell)), FIGHT_WARBAND)
        if shop is not None:
            return shop
        full = self._full_fight_health(state)
        if state.wounds > 0 and any(self._ready(state, enemy, full) for _, enemy in bands):
            return self._rest_goal(state)
        camp = self._camp_goal(state)
        if camp is not None:
            return camp
        gem = self._gem_goal(state)
        if gem is not None:
            return gem
        if state.quests:
            cells = [self.game.quest_cell[quest] for quest in state.quests]
            return Goal(min(cells, key=lambda cell: (row[cell], cell)), END_TURN)
        return None

    def _ready(self, state: BoardState, enemy: int, health: int) -> bool:
        """Whether the hero, with `health` left for a fight, takes on an enemy of health `enemy` now."""
        if health < enemy + FIGHT_MARGIN or health < state.hero_card().health - WOUND_SLACK:
            return False
        return state.held("weapon") is not None or enemy <= UNARMED_ENEMY

    def _camp_goal(self, state: BoardState) -> Goal | None:
        """Near the next warband's spawn: wait in the city or town nearest the Outlaw Glade, to meet it at once."""
        if state.warbands or not state.warband_pile:
            return None
        spaces = [space for space in self.game.board.scenario.warband_spaces if space > state.time]
        if not spaces:
            return None
        camp = self._camp(state)
        turns = spaces[0] - state.time
        if turns > CAMP_TURNS + self.distances[state.cell][camp] / 3:
            return None
        return Goal(camp, REST if state.wounds > 0 else END_TURN)

    def _camp(self, state: BoardState) -> int:
        """The city or town, not scorched, nearest the Outlaw Glade (else the glade itself)."""
        row = self.distances[self.game.glade]
        settled = [cell for cell in self.settled if cell not in state.scorched]
        return min(settled, key=lambda cell: (row[cell], cell), default=self.game.glade)

    def _rest_goal(self, state: BoardState) -> Goal:
        """Rest in the nearest city or town not scorched when it is near, else where it stands."""
        settled = [cell for cell in self.settled if cell not in state.scorched]
        row = self.distances[state.cell]
        nearest = min(settled, key=lambda cell: (row[cell], cell), default=state.cell)
        if settled and row[nearest] <= SETTLED_REST_DETOUR:
            return Goal(nearest, REST)
        return Goal(state.cell, REST)

    def _fight_health(self, state: BoardState) -> int:
        """The hero's health left at the start of a fight now."""
        return state.hero_card().health - state.combat_hero_wounds()

    def _full_fight_health(self, state: BoardState) -> int:
        """The hero's health at the start of a fight once healed."""
        return state.hero_card().health

    def _band_health(self, card: int, units: int) -> int:
        """The health of the enemy a warband of `units` puts up."""
        return self.enemy_health[self.game.warband_enemies[card][units - 1]]

    def _gem_goal(self, state: BoardState) -> Goal | None:
        """The face-up gem worth most for its distance, if any is worth the road."""
        row = self.distances[state.cell]
        best: tuple[float, int] | None = None
        worth_of: dict[str, float] = {}
        for cell in state.gems:
            if cell in state.scorched:
                continue
            deck = GEM_DECKS[self.game.board.map.gem_at(cell) or ""]
            if deck not in worth_of:
                worth_of[deck] = self._deck_worth(state, deck)
            worth = worth_of[deck] - GEM_DISTANCE_COST * row[cell]
            if worth_of[deck] >= GEM_WORTH_FLOOR and (best is None or (worth, -cell) > (best[0], -best[1])):
                best = (worth, cell)
        return None if best is None else Goal(best[1], ADVENTURE)

    def _deck_worth(self, state: BoardState, deck: str) -> float:
        """The mean worth of the next adventure of `deck` (the cards left, those of another hero redrawn)."""
        adventures = self.game.board.adventures
        cards = [card for card in state.deck_cards(deck) if not adventures[card].other_hero]
        if not cards:
            return -FAR
        return sum(self._adventure_worth(state, card, adventures[card]) for card in cards) / len(cards)

    def _adventure_worth(self, state: BoardState, card: int, adventure: Adventure) -> float:
        """What an adventure is worth: its reward by its chance, less its failure (a fight it cannot expect to win
        is worth a loss of the game)."""
        reward = self._effects_worth(state, adventure.reward)
        if adventure.kind == "quest":
            return reward * QUEST_SHARE
        if adventure.kind == "fight":
            enemy = self.adventure_enemy_health[card]
            if self._fight_health(state) >= enemy + ADVENTURE_FIGHT_MARGIN:
                return reward
            return RISKY_FIGHT_WORTH
        needed = (adventure.difficulty or 0) - state.test_total(card, self._exert_bonus(state, adventure))
        chance = success_chance(needed)
        return chance * reward + (1.0 - chance) * self._effects_worth(state, adventure.failure)

    def _exert_bonus(self, state: BoardState, adventure: Adventure) -> int:
        """The most the skills in hand could add to a test of `adventure`'s attribute."""
        skills = self.game.board.skills
        return sum(skills[skill].exert for skill in state.hand if skills[skill].attribute == adventure.attribute)

    def _effects_worth(self, state: BoardState, effects: Sequence[BoardEffect]) -> float:
        """Card effects as worth (`EFFECT_WORTH`): gold lost and wounds healed count only as far as they go, a wound
        near the end of the hero's health counts `DANGEROUS_WOUND`."""
        worth = 0.0
        left = state.max_health() - state.wounds
        for effect in effects:
            amount = effect.amount
            if effect.kind == "lose_gold":
                amount = min(amount, state.hero_gold)
            elif effect.kind == "heal":
                amount = min(amount, state.wounds)
            elif effect.kind == "damage" and amount >= left - WOUND_SAFETY:
                worth += DANGEROUS_WOUND * amount
                continue
            worth += EFFECT_WORTH.get(effect.kind, 0.0) * amount
        return worth

    # ------------------------------------------------------------------------------------------ assets
    def _asset_worth(self, asset: Asset | None) -> float:
        """What an asset is worth held (0 for none): weapons by cost, armor by health, mounts, trinkets."""
        if asset is None:
            return 0.0
        value = {"weapon": asset.cost, "armor": asset.health, "mount": asset.speed, "trinket": asset.bonus}[asset.type]
        return ASSET_WORTH[asset.type] * value

    def _upgrade(self, state: BoardState, city: int) -> tuple[float, int] | None:
        """The best (gain, market slot) the hero can pay for in city `city`'s market, selling what it replaces."""
        assets = self.game.board.assets
        best: tuple[float, int] | None = None
        for slot, card in enumerate(state.markets[city]):
            asset = assets[card]
            held = state.held(asset.type)
            gain = self._asset_worth(asset) - self._asset_worth(held)
            budget = state.hero_gold + (held.cost if held else 0)
            if gain > 0 and asset.cost <= budget and (best is None or gain > best[0]):
                best = (gain, slot)
        return best

    def _shop_goal(self, state: BoardState) -> Goal | None:
        """The nearest market (not scorched, not too far) holding an upgrade the hero can pay for."""
        row = self.distances[state.cell]
        options = [
            (row[cell], cell)
            for city, cell in enumerate(self.game.cities)
            if cell not in state.scorched and row[cell] <= SHOP_DETOUR and self._upgrade(state, city) is not None
        ]
        return Goal(min(options)[1], SHOP) if options else None

    def _shop(self, state: BoardState, legal: list[int], city: int) -> int:
        """Buy the best upgrade (selling what it replaces first), else discard the market's least useful card."""
        ids = BOARD_ACTIONS
        assets = self.game.board.assets
        market = state.markets[city]
        upgrade = self._upgrade(state, city)
        if upgrade is not None:
            slot = upgrade[1]
            buy = ids.buy + slot
            if buy in legal:
                return buy
            sell = ids.sell + ASSET_TYPES.index(assets[market[slot]].type)
            if sell in legal:
                return sell
        discards = [a for a in legal if ids.discard_asset <= a < ids.sell]
        if discards:
            return min(discards, key=lambda a: (self._asset_worth(assets[market[a - ids.discard_asset]]), a))
        return legal[0]

    # ------------------------------------------------------------------------------------------ moving
    def _step(self, state: BoardState, legal: list[int]) -> int:
        """The die step on a route that gets the hero nearest its goal with the dice left (the least versatile face
        first among equals); stop when no die brings it nearer."""
        ids = BOARD_ACTIONS
        goal = self._goal(state)
        if goal is None or goal.cell == state.cell:
            return ids.stop
        distances = self.distances[goal.cell]
        neighbours = self.game.board.map.hex_map.neighbour_table[state.cell]
        memo: dict[tuple[int, tuple[int, ...]], int] = {}
        best, best_key = ids.stop, (distances[state.cell], 0, ids.stop)
        for action in legal:
            if action == ids.stop:
                continue
            face, direction = ids.move_of(action)
            cell = neighbours[direction]
            if distances[cell] >= distances[state.cell]:
                continue
            reach = self._nearest_reach(cell, _without(state.dice, face), distances, memo)
            key = (reach, len(TERRAIN_DIE[face].terrains), action)
            if key < best_key:
                best, best_key = action, key
        return best

    def _nearest_reach(
        self, cell: int, dice: tuple[int, ...], distances: tuple[int, ...], memo: dict[tuple[int, tuple[int, ...]], int]
    ) -> int:
        """The nearest the hero on `cell` gets to the goal with `dice` left, stepping only nearer each time."""
        key = (cell, dice)
        known = memo.get(key)
        if known is not None:
            return known
        best = distances[cell]
        if best > 0:
            neighbours = self.game.board.map.hex_map.neighbour_table[cell]
            steps = self.steps[cell]
            for face in set(dice):
                rest = _without(dice, face)
                for direction in steps[face]:
                    neighbour = neighbours[direction]
                    if distances[neighbour] < distances[cell]:
                        best = min(best, self._nearest_reach(neighbour, rest, distances, memo))
                if best == 0:
                    break
        memo[key] = best
        return best

    # ------------------------------------------------------------------------------------------ tests and skills
    def _exert(self, state: BoardState, legal: list[int], card: int, bonus: int) -> int:
        """Exert the strongest skill of the test's attribute while the chance is poor and the skill lifts it."""
        ids = BOARD_ACTIONS
        adventure = self.game.board.adventures[card]
        needed = (adventure.difficulty or 0) - state.test_total(card, bonus)
        chance = success_chance(needed)
        exerts = [a for a in legal if ids.exert <= a < ids.roll]
        if chance >= EXERT_BELOW or not exerts:
            return ids.roll
        skills = self.game.board.skills
        best = max(exerts, key=lambda a: (skills[state.hand[a - ids.exert]].exert, -a))
        if success_chance(needed - skills[state.hand[best - ids.exert]].exert) > chance:
            return best
        return ids.roll

    def _skill_worth(self, state: BoardState, skill: int) -> float:
        """What a skill is worth to this hero: its raise, less what it still lacks of its trophy cost."""
        card = self.game.board.skills[skill]
        short = sum(max(0, amount - state.trophies[TROPHY_KINDS.index(kind)]) for kind, amount in card.cost.items())
        return LEARNED_WORTH[card.learned] - short
