"""A heuristic Unstoppable player: kills the threats worth most, keeps its health above the coming attack, drafts
and upgrades the cards that hit hardest.

How it decides, in damage equivalents (one damage = one credit = one health, as the content's power budget counts):

- **Threats**: a visible threat (active or on deck) is worth killing for the card it puts in the hand, the boss
  damage it deals on defeat (its boss mat's minions, its bonus), its bonus, and, while active, the attack it would
  deal this turn (priced by how close that attack comes to killing the player), its Rage and its Taunt. Damage that
  falls short of a kill is worth a share of the kill (damage persists on threats).
- **Damage**: every damage instance still to come from the resolving card is assigned together (a small search over
  the visible threats, Taunt and kills in order), and the first instance goes where the best assignment puts it.
- **Main Phase**: each play, exhaust and buy is scored by its effects now (`card_effects_worth`; an ally also by the
  icons it will exhaust), less the action points it spends while the hand wants them; the best one worth taking is
  taken, else the phase ends. Upgrades are bought when their core side outweighs what they add to the threat side.
- **Draft**: the core whose printed effects are worth most for their cost, more for each card of its faction the
  player owns.
- **Level up, Rage and eliminations**: the cards kept are the ones worth most (`card_worth`); a card is eliminated
  when it is worth less than nothing to keep (a weak card whose threat side hurts: thinning the deck brings the
  minions round sooner).

It reads the state only through the rule queries of envs/unstoppable/effects.py and what the player may see: the
cores of its own sleeves, the threat sides it has seen (`Sleeve.seen`), the visible threats, the market, its mat.
It never reads an unseen threat side, the threat deck or the order of any deck; `check_no_peek` holds it to that.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.unstoppable.actions import DECLINE, FORFEIT, NO_ELIMINATION, STOP_CYCLING, TAKE
from envs.unstoppable.cards import MAX_EXHAUST_ICONS, MAX_LEVEL, Core, Effect, Keywords, Upgrade
from envs.unstoppable.effects import (
    EXHAUST,
    PLAY,
    REPEAT_LIMIT,
    bargain_cost,
    can_resolve,
    card_effects,
    core_of,
    defeat_boss_damage,
    effect_at,
    effect_id,
    on_deck,
    scaled,
    threat_attack,
    threat_health,
    threat_keywords,
    threat_of,
    upgrades_of,
)
from envs.unstoppable.game import UnstoppableGame
from envs.unstoppable.rules import UnstoppableState
from envs.unstoppable.state import MAX_ACTION_POINTS, MAX_ARMOR, MAX_HEALTH, MAX_SLEEVES, NONE, Kind


@dataclass(frozen=True)
class HeuristicWeights:
    """Every tuned number of the heuristic, in damage equivalents unless noted."""

    boss_damage: float = 6.0
    """Worth of one boss damage (12 win the game)."""
    card_to_hand: float = 4.0
    """Worth of a card entering the hand (defeating threats is how you draw), before its own worth."""
    core_share: float = 0.3
    """Share of a card's own worth counted when a kill puts it in the hand."""
    partial_share: float = 0.35
    """Share of a kill's worth per share of the threat's health dealt short of a kill (damage persists)."""
    overkill: float = 0.05
    """Cost of each damage beyond what a kill needs."""
    credit: float = 0.5
    """Worth of one credit (upgrades and Bargain spend them)."""
    action_point: float = 1.5
    """Worth of one action point the hand can still use."""
    action_point_spare: float = 0.1
    """Worth of one action point nothing in hand needs."""
    train: float = 1.5
    """Worth of training one level (the next draft comes from a higher core deck)."""
    eliminate: float = 0.5
    """Worth of eliminating a card, when one is worth eliminating."""
    bonus_damage: float = 0.8
    """Worth of each damage a threat's bonus deals (it finds a target of its own)."""
    armor: float = 0.67
    """Printed worth of one armor (it lasts one turn)."""
    health: float = 1.0
    """Worth of one health at full health; more as health runs low (`low_health`)."""
    low_health: float = 0.25
    """Extra worth of a health per point of health below `comfortable_health`."""
    comfortable_health: int = 7
    """Health above which a health point is worth only `health`."""
    death: float = 60.0
    """Cost of taking the damage that ends the game."""
    rage: float = 1.5
    """Worth of removing a Rage instance from the battlefield while an ally is in play."""
    taunt: float = 0.5
    """Worth of removing a Taunt threat (damage may go anywhere again)."""
    on_deck_attack: float = 0.3
    """Share of the on-deck threat's attack counted (it becomes active only at the next refill)."""
    ally_turns: float = 2.0
    """Turns an ally is expected to be exhausted before it leaves play (its icons' worth times this)."""
    ally_later: float = 1.0
    """Turns after this one an ally played now is expected to be exhausted (level-ups discard it)."""
    play_threshold: float = 0.15
    """Least worth of a play, exhaust or buy the heuristic takes (else it ends the Main Phase)."""
    buy_threshold: float = 0.5
    """Least net worth of an upgrade the heuristic buys."""
    upgrade_plays: float = 2.5
    """Times an upgrade's core side is expected to resolve over the rest of a game."""
    threat_attack_cost: float = 1.2
    """Cost of each attack an upgrade adds to a threat side (it hits every time the card is active)."""
    threat_defense_cost: float = 0.4
    """Cost of each defense an upgrade adds to a threat side (one more damage to draw the card)."""
    fast_cost: float = 0.4
    """Cost of a Fast on a threat side (one more active threat whenever it comes up)."""
    taunt_cost: float = 0.4
    """Cost of a Taunt on a threat side (it takes the damage meant for the threats worth killing)."""
    terror_cost: float = 0.4
    """Cost of a Terror on a threat side (each hit on it costs an action point)."""
    rage_cost: float = 0.4
    """Cost of a Rage on a threat side (an ally discarded while it is active)."""
    crazed_worth: float = 0.3
    """Worth of a Crazed on a threat side (it may hurt itself)."""
    faction_synergy: float = 0.3
    """Worth per card of the same faction the player owns, when drafting (Focus, Conspire, Bargain grow)."""
    eliminate_below: float = 0.0
    """A card is eliminated only when its worth to keep is below this."""
    unseen_threat: float = -0.5
    """Worth of a threat side the player has not seen (most threats hurt more than their bonus gives)."""
    damage_search_instances: int = 4
    """Damage instances assigned together; the rest go one by one."""


WEIGHTS = HeuristicWeights()
EFFECT_ORDER = ("action_points", "credits", "boss_damage", "train", "refresh", "damage", "eliminate", "armor", "health")
"""The order a card's effects resolve in: first those that pay for others (action points, credits), damage before
armor (a kill lowers the attack the armor must stop)."""


class UnstoppableHeuristicAgent:
    """Rule-of-thumb policy over what the player may see (its own cards, the seen threat sides, the table)."""

    name = "heuristic"
    reads_observation = False
    """Envs need not build its observation (it reads the state's public queries)."""

    def __init__(self, game: UnstoppableGame, weights: HeuristicWeights = WEIGHTS) -> None:
        self.game = game
        self.ids = game.actions
        self.cards = game.cards
        self.weights = weights
        self._core_worth = [self._static_core_worth(core) for core in self.cards.cores]
        """Each core's worth by its printed effects (Focus and Unite at X = 2), for drafting and keeping."""

    def reset(self, seed: int | None = None) -> None:
        """Deterministic: nothing to reseed."""

    # ------------------------------------------------------------------------------------------ the policy
    def act(self, observation: Any, action_mask: np.ndarray, state: Any | None = None) -> int:
        """The heuristic's choice at the player's decision in `state` (the rules-core state)."""
        assert isinstance(state, UnstoppableState), "the Unstoppable heuristic reads the rules-core state"
        frame = state.decision()
        assert frame is not None, "act() is called only when the player decides"
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if len(legal) == 1:
            return legal[0]
        kind = frame.kind
        if kind == Kind.MAIN:
            return self._main(state, legal)
        if kind == Kind.EFFECT:
            return self._effect(state, frame.detail("sleeve"), frame.detail("mode"), legal)
        if kind == Kind.TARGET:
            return self._target(state, legal)
        if kind == Kind.DRAFT:
            return max(legal, key=lambda a: (self._draft_worth(state, a - self.ids.draft), -a))
        if kind == Kind.ELIMINATE:
            return self._eliminate(state, legal)
        if kind == Kind.HAND_LIMIT or kind == Kind.RAGE:
            return min(legal, key=lambda a: (self.card_worth(state, a - self.ids.discard), a))
        if kind == Kind.REFRESH:
            return max(legal, key=lambda a: (self._best_icon(state, a - self.ids.refresh)[1], -a))
        if kind == Kind.DANGER:
            return self._danger(state, frame.detail("effect"), legal)
        if kind == Kind.CYCLE:
            return self.ids.done + STOP_CYCLING
        return legal[0]

    # ------------------------------------------------------------------------------------------ the Main Phase
    def _main(self, state: UnstoppableState, legal: list[int]) -> int:
        """The play, exhaust or buy worth most now, or the end of the phase when none is worth taking."""
        ids = self.ids
        best, best_worth = ids.end_main, self.weights.play_threshold
        for action in legal:
            if ids.play <= action < ids.exhaust:
                worth = self._play_worth(state, action - ids.play)
            elif ids.exhaust <= action < ids.target:
                sleeve, icon = divmod(action - ids.exhaust, MAX_EXHAUST_ICONS)
                worth = self.card_effects_worth(state, sleeve, EXHAUST + icon)
            elif ids.buy <= action < ids.draft:
                slot, sleeve = divmod(action - ids.buy, MAX_SLEEVES)
                worth = self._buy_worth(state, state.market[slot], sleeve)
            else:
                continue
            if worth > best_worth:
                best, best_worth = action, worth
        return best

    def _play_worth(self, state: UnstoppableState, sleeve: int) -> float:
        """Worth of playing the card now: its effects, less the action points it spends."""
        core = core_of(state, sleeve)
        worth = self.card_effects_worth(state, sleeve, PLAY, spent=core.cost)
        if core.type == "ally":  # it can be exhausted at once, and in the turns it stays in play
            later = self.weights.ally_later * self._printed_icon_worth(state, sleeve)
            worth += self._best_icon(state, sleeve)[1] + later
        return worth - core.cost * self._action_point_price(state, sleeve)

    def _action_point_price(self, state: UnstoppableState, playing: int) -> float:
        """What an action point is worth to the rest of the hand: dear while other cards want more than is left."""
        cores = self.cards.cores
        wanted = sum(cores[state.sleeves[s].core].cost for s in state.hand if s != playing)
        return self.weights.action_point if wanted > state.action_points - 1 else self.weights.action_point_spare

    def card_effects_worth(self, state: UnstoppableState, sleeve: int, mode: int, spent: int = 0) -> float:
        """Worth of resolving the card's effects of `mode` now (those that can resolve; damage assigned together),
        `spent` action points already paid for it."""
        damage: list[int] = []
        worth = 0.0
        for slot, effect in card_effects(state, sleeve, mode):
            if not can_resolve(state, sleeve, effect):
                continue
            repeat = self._repeat_cost(state, sleeve, mode, slot)
            if effect.kind == "damage":
                amount, instances = scaled(state, sleeve, effect)
                damage += [amount] * instances
                worth -= repeat + self._bargain_cost(state, sleeve, effect)
                continue
            value = self.effect_worth(state, sleeve, effect, spent) - repeat
            if value > 0 or effect.mandatory:
                worth += value
        if damage:
            worth += self.assign_damage(state, damage)[1]
        return worth

    def _repeat_cost(self, state: UnstoppableState, sleeve: int, mode: int, slot: int) -> float:
        """The card's worth when resolving this effect again would be its 4th resolution this turn (eliminating it)."""
        wanted = (sleeve, effect_id(mode, slot))
        for counted_sleeve, counted_effect, times in state.repeats:
            if (counted_sleeve, counted_effect) == wanted and times + 1 >= REPEAT_LIMIT:
                return max(0.0, self.card_worth(state, sleeve)) + self.weights.card_to_hand
        return 0.0

    def _bargain_cost(self, state: UnstoppableState, sleeve: int, effect: Effect) -> float:
        return self.weights.credit * bargain_cost(state, sleeve, effect) if effect.bargain is not None else 0.0

    def effect_worth(self, state: UnstoppableState, sleeve: int, effect: Effect, spent: int = 0) -> float:
        """Worth of one non-damage effect resolving now (its Bargain credits paid), `spent` action points already
        paid by the card that resolves it."""
        w = self.weights
        amount, _ = scaled(state, sleeve, effect)
        kind = effect.kind
        cost = self._bargain_cost(state, sleeve, effect)
        if kind == "credits":
            return amount * w.credit - cost
        if kind == "action_points":
            gained = min(amount, MAX_ACTION_POINTS - (state.action_points - spent))
            return gained * self._action_point_price(state, sleeve) - cost
        if kind == "health":
            return self.health_worth(state.health, min(amount, MAX_HEALTH - state.health)) - cost
        if kind == "armor":
            return self._armor_worth(state, amount) - cost
        if kind == "train":
            return (w.train if state.small_level < MAX_LEVEL else 0.0) - cost
        if kind == "eliminate":
            worst = self._worst_card(state, exclude=sleeve)
            return (w.eliminate if worst is not None else -w.eliminate) - cost
        if kind == "refresh":
            return max((self._best_icon(state, s)[1] for s in state.exhausted), default=0.0) - cost
        if kind == "boss_damage":
            return amount * w.boss_damage - cost
        return 0.0

    # ------------------------------------------------------------------------------------------ health and attack
    def incoming(self, state: UnstoppableState) -> int:
        """Damage the active threats will deal in this turn's Threat Phase, armor not counted."""
        return sum(threat_attack(state, s) for s in state.battlefield)

    def health_worth(self, health: int, gained: int) -> float:
        """Worth of `gained` health from `health` (a health point is dearer the lower health is)."""
        w = self.weights
        worth = 0.0
        for point in range(health, health + gained):
            worth += w.health + w.low_health * max(0, w.comfortable_health - point)
        return worth

    def damage_taken_cost(self, health: int, taken: int) -> float:
        """Cost of taking `taken` damage at `health`: the health lost, and the game when it reaches 0."""
        taken = max(0, taken)
        if taken >= health:
            return self.weights.death + self.health_worth(0, health)
        return self.health_worth(health - taken, taken)

    def _attack_cost_saved(self, state: UnstoppableState, removed: int) -> float:
        """Worth of `removed` less attack this turn: the damage taken it saves."""
        taken = self.incoming(state) - state.armor
        return self.damage_taken_cost(state.health, taken) - self.damage_taken_cost(state.health, taken - removed)

    def _armor_worth(self, state: UnstoppableState, amount: int) -> float:
        """Worth of `amount` armor now (it lasts until the Cleanup Phase)."""
        gained = min(amount, MAX_ARMOR - state.armor)
        return self._attack_cost_saved(state, gained)

    # ------------------------------------------------------------------------------------------ threats and damage
    def kill_worth(self, state: UnstoppableState, sleeve: int) -> float:
        """Worth of defeating a visible threat now (see the module docstring)."""
        w = self.weights
        worth = w.card_to_hand + w.core_share * self._core_worth[state.sleeves[sleeve].core]
        worth += w.boss_damage * defeat_boss_damage(state, sleeve)
        for effect in threat_of(state, sleeve).bonus:
            if effect.kind == "damage":
                worth += w.bonus_damage * effect.amount * effect.instances
            elif effect.kind != "boss_damage":  # counted by defeat_boss_damage
                worth += max(0.0, self.effect_worth(state, sleeve, effect))
        keywords = threat_keywords(state, sleeve)
        if sleeve in state.battlefield:
            worth += self._attack_cost_saved(state, threat_attack(state, sleeve))
            if state.in_play and keywords.rage:
                worth += w.rage * keywords.rage
        else:
            worth += w.on_deck_attack * threat_attack(state, sleeve)
        if keywords.taunt:
            worth += w.taunt
        return worth

    def _remaining(self, state: UnstoppableState, sleeve: int) -> int:
        return max(1, threat_health(state, sleeve) - state.sleeves[sleeve].damage)

    def assign_damage(
        self, state: UnstoppableState, amounts: list[int], ignore_taunt: bool = False
    ) -> tuple[int, float]:
        """The best target of the first of `amounts` (damage instances dealt in that order) and the worth of the
        best assignment of all of them to the visible threats (Taunt respected, kills opening the others)."""
        visible = [*state.battlefield]
        top = on_deck(state)
        if top != NONE:
            visible.append(top)
        if not visible:
            return NONE, 0.0
        remaining = [self._remaining(state, s) for s in visible]
        kills = [self.kill_worth(state, s) for s in visible]
        taunting = [bool(threat_keywords(state, s).taunt) and not ignore_taunt for s in visible]
        terror = [threat_keywords(state, s).terror for s in visible]
        w = self.weights
        searched = amounts[: w.damage_search_instances]
        rest = amounts[w.damage_search_instances :]
        best_first, best_worth = NONE, -1e9

        def worth_of(dealt: list[int]) -> float:
            total = 0.0
            for index, damage in enumerate(dealt):
                if damage == 0:
                    continue
                if damage >= remaining[index]:
                    total += kills[index] - w.overkill * (damage - remaining[index])
                else:
                    total += w.partial_share * kills[index] * damage / remaining[index]
            return total

        for choice in itertools.product(range(len(visible)), repeat=len(searched)):
            dealt = [0] * len(visible)
            terror_hits = 0
            legal = True
            for amount, index in zip(searched, choice, strict=True):
                open_taunt = any(t and dealt[i] < remaining[i] for i, t in enumerate(taunting))
                if open_taunt and not taunting[index]:
                    legal = False
                    break
                dealt[index] += amount
                terror_hits += terror[index]
            if not legal:
                continue
            for amount in rest:  # beyond the search: each to the target where it adds most
                gains = [worth_of([d + amount * (j == i) for j, d in enumerate(dealt)]) for i in range(len(visible))]
                dealt[int(np.argmax(gains))] += amount
            worth = worth_of(dealt) - terror_hits * min(1.0, state.action_points) * w.action_point
            if worth > best_worth:
                best_first, best_worth = visible[choice[0]], worth
        return best_first, best_worth

    def _pending_damage(self, state: UnstoppableState) -> list[int]:
        """The damage instances the resolving card still deals in order: the target decision's and those queued
        under it (the rest of the same effect)."""
        amounts = []
        for frame in reversed(state.stack):
            if frame.kind != Kind.TARGET:
                break
            amounts.append(frame.detail("amount"))
        return amounts

    def _target(self, state: UnstoppableState, legal: list[int]) -> int:
        frame = state.decision()
        assert frame is not None
        first, _ = self.assign_damage(state, self._pending_damage(state), frame.detail("ignore_taunt"))
        action = self.ids.target + first
        return action if action in legal else legal[0]

    # ------------------------------------------------------------------------------------------ effects in order
    def _effect(self, state: UnstoppableState, sleeve: int, mode: int, legal: list[int]) -> int:
        """The next effect to resolve: the first worth resolving in EFFECT_ORDER; forfeit the rest when none is."""
        ids = self.ids
        forfeit = ids.done + FORFEIT
        chosen, rank = forfeit, len(EFFECT_ORDER)
        for action in legal:
            if action == forfeit:
                continue
            slot = action - ids.effect
            effect = effect_at(state, sleeve, mode, slot)
            if not effect.mandatory:
                repeat = self._repeat_cost(state, sleeve, mode, slot)
                if effect.kind == "damage":
                    amount, instances = scaled(state, sleeve, effect)
                    worth = self.assign_damage(state, [amount] * instances, effect.ignore_taunt)[1]
                    worth -= self._bargain_cost(state, sleeve, effect)
                else:
                    worth = self.effect_worth(state, sleeve, effect)
                if worth - repeat <= 0:
                    continue
            order = EFFECT_ORDER.index(effect.kind)
            if order < rank:
                chosen, rank = action, order
        if chosen == forfeit and forfeit not in legal:
            return legal[0]
        return chosen

    # ------------------------------------------------------------------------------------------ cards
    def _static_effects_worth(self, effects: tuple[Effect, ...]) -> float:
        """Printed worth of a list of effects: Focus and Unite count X = 2, Level X+ effects half, Bargain's credits
        half (the faction often pays part)."""
        w = self.weights
        units = {
            "damage": 1.0,
            "credits": w.credit,
            "action_points": w.action_point,
            "health": w.health,
            "armor": w.armor,
            "train": w.train,
            "eliminate": w.eliminate,
            "refresh": 1.0,
            "boss_damage": w.boss_damage,
        }
        total = 0.0
        for effect in effects:
            amount, instances = effect.amount, effect.instances
            if effect.scaling == "amount":
                amount *= 2
            elif effect.scaling == "instances":
                instances *= 2
            value = units[effect.kind] * amount * instances - w.credit * (effect.bargain or 0) * 0.5
            total += value * (0.5 if effect.level > 1 else 1.0)
        return total

    def _static_core_worth(self, core: Core) -> float:
        """A core's worth by its printed effects, per play (an ally's best icon over the turns it stays in play),
        less its cost."""
        w = self.weights
        worth = self._static_effects_worth(core.effects)
        if core.exhaust:
            worth += w.ally_turns * max(self._static_effects_worth(icon) for icon in core.exhaust)
        return worth - w.action_point * core.cost

    def _upgrade_core_worth(self, upgrade: Upgrade, ally: bool) -> float:
        """Worth of an upgrade's core side each time its card resolves (an ally's exhaust every turn in play)."""
        worth = self._static_effects_worth(upgrade.on_play)
        if ally:
            worth += self.weights.ally_turns * self._static_effects_worth(upgrade.on_exhaust)
        return worth

    def _threat_side_cost(self, upgrade: Upgrade) -> float:
        """What an upgrade adds to its card's threat side, as a cost."""
        w = self.weights
        return (
            w.threat_attack_cost * upgrade.attack
            + w.threat_defense_cost * upgrade.defense
            + self._keywords_cost(upgrade.keywords)
        )

    def _keywords_cost(self, keywords: Keywords) -> float:
        """What threat keywords cost the player while the threat is visible."""
        w = self.weights
        return (
            w.fast_cost * min(1, keywords.fast)
            + w.taunt_cost * min(1, keywords.taunt)
            + w.terror_cost * keywords.terror
            + w.rage_cost * keywords.rage
            - w.crazed_worth * len(keywords.crazed)
        )

    def _buy_worth(self, state: UnstoppableState, upgrade_index: int, sleeve: int) -> float:
        """Net worth of adding the market upgrade to the card: its core side over the plays to come and now, less
        its threat side and its price; nothing below the buy threshold."""
        w = self.weights
        upgrade = self.cards.upgrades[upgrade_index]
        ally = core_of(state, sleeve).type == "ally"
        if sleeve in state.in_play and not ally:
            return 0.0  # a tactic in play resolves the upgrade only after the next level-up
        worth = w.upgrade_plays * self._upgrade_core_worth(upgrade, ally)
        worth -= self._threat_side_cost(upgrade) + w.credit * 0.5 * state.upgrade_price(upgrade_index, sleeve)
        return worth if worth >= w.buy_threshold else 0.0

    def card_worth(self, state: UnstoppableState, sleeve: int) -> float:
        """Worth of keeping a card: its core, its upgrades' core sides, and its threat side as far as the player
        has seen it (boss damage and bonuses for, attack and keywords against)."""
        w = self.weights
        core = core_of(state, sleeve)
        worth = self._core_worth[state.sleeves[sleeve].core]
        for upgrade in upgrades_of(state, sleeve):
            if upgrade is not None:
                worth += self._upgrade_core_worth(upgrade, core.type == "ally")
        if not state.sleeves[sleeve].seen:
            return worth + w.unseen_threat
        worth += w.boss_damage * defeat_boss_damage(state, sleeve)
        keywords = threat_keywords(state, sleeve)
        worth -= threat_attack(state, sleeve) + self._keywords_cost(keywords)
        for effect in threat_of(state, sleeve).bonus:
            if effect.kind != "boss_damage":
                worth += 0.5 * self._static_effects_worth((effect,))
        return worth

    def _worst_card(self, state: UnstoppableState, exclude: int = NONE) -> int | None:
        """The card worth eliminating most (hand, discard pile or play), if any is worth less than nothing."""
        candidates = [s for s in (*state.hand, *state.discard, *state.in_play) if s != exclude]
        if not candidates:
            return None
        worst = min(candidates, key=lambda s: (self.card_worth(state, s), s))
        return worst if self.card_worth(state, worst) < self.weights.eliminate_below else None

    def _eliminate(self, state: UnstoppableState, legal: list[int]) -> int:
        ids = self.ids
        candidates = [a for a in legal if ids.eliminate <= a < ids.buy]
        worst = min(candidates, key=lambda a: (self.card_worth(state, a - ids.eliminate), a))
        skip = ids.done + NO_ELIMINATION
        if skip in legal and self.card_worth(state, worst - ids.eliminate) >= self.weights.eliminate_below:
            return skip
        return worst

    def _best_icon(self, state: UnstoppableState, sleeve: int) -> tuple[int, float]:
        """The ally's exhaust icon worth most now, and its worth."""
        icons = len(core_of(state, sleeve).exhaust)
        if not icons:
            return 0, 0.0
        worths = [self.card_effects_worth(state, sleeve, EXHAUST + icon) for icon in range(icons)]
        best = int(np.argmax(worths))
        return best, worths[best]

    def _printed_icon_worth(self, state: UnstoppableState, sleeve: int) -> float:
        """The printed worth of the ally's best exhaust icon, its upgrades' exhaust effects added."""
        core = core_of(state, sleeve)
        added = sum(self._static_effects_worth(upgrade.on_exhaust) for upgrade in upgrades_of(state, sleeve) if upgrade)
        return max((self._static_effects_worth(icon) for icon in core.exhaust), default=0.0) + added

    def _draft_worth(self, state: UnstoppableState, core_index: int) -> float:
        """Worth of drafting a core: its printed worth, its level, and the cards of its faction the player owns."""
        w = self.weights
        core = self.cards.cores[core_index]
        worth = self._core_worth[core_index]
        if core.faction != "none":
            owned = sum(
                1
                for s in range(len(state.sleeves))
                if s not in state.eliminated and core_of(state, s).faction == core.faction
            )
            worth += w.faction_synergy * owned
        return worth

    def _danger(self, state: UnstoppableState, effect: str, legal: list[int]) -> int:
        """Take the danger track's elimination when a card is worth eliminating; never cycle the market."""
        ids = self.ids
        if effect == "eliminate" and self._worst_card(state) is not None:
            return ids.danger + TAKE
        return ids.danger + DECLINE


__all__ = ["WEIGHTS", "HeuristicWeights", "UnstoppableHeuristicAgent"]
