"""Unstoppable's rules: setup, the five phases of a turn, effects and the events that interrupt them, level up.

Every rule runs as a stack of frames on the core frame engine (envs/core/engine.py): the frame on top is a decision
of the player, a chance event (a draw, a reveal) or an automatic step resolved at once. An effect that stops half way
(a damage instance waiting for its target, an event it triggered, a level-up) leaves its continuation beneath the
interruption: a frame that names the card (its sleeve) and what is left of it, so it resumes once the interruption is
resolved, "even if its card is no longer in play", because it reads the card's effects by sleeve, not from play.

Interpretations of the rulebook are in RULES.md ("Readings"); the code cites them by name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping, Sequence
from operator import attrgetter
from typing import Any, ClassVar, NamedTuple

import numpy as np

from envs.core.chance_labels import ChanceLabel, FrameChanceLabels
from envs.core.components import Deck, UniqueDeck, uniform_outcomes
from envs.core.decisions import DecisionFrame
from envs.core.engine import Automatic, Chance, Decision, FrameEngine, FrameKind, new_frame
from envs.core.game import CHANCE
from envs.core.hidden import redeal
from envs.unstoppable.actions import DECLINE, FORFEIT, NO_ELIMINATION, STOP_CYCLING, TAKE
from envs.unstoppable.cards import MAX_EXHAUST_ICONS, MAX_LEVEL, SKIPPED_BORDER, Effect, LevelUpEffect
from envs.unstoppable.effects import (
    ACTIVE_THREATS,
    BONUS,
    CAPS,
    CRAZED_DAMAGE,
    DRAFT_SIZE,
    EXHAUST,
    HAND_LIMIT,
    PLAY,
    REPEAT_LIMIT,
    bargain_cost,
    boss_defeated,
    boss_mat_hits,
    boss_progress,
    can_resolve,
    capped,
    card_effects,
    core_of,
    deal_boss_damage,
    effect_at,
    effect_id,
    eliminable,
    is_fast,
    legal_targets,
    on_deck,
    scaled,
    threat_attack,
    threat_health,
    threat_keywords,
    threat_of,
)
from envs.unstoppable.state import (
    DECISION_KINDS,
    MARKET_SIZE,
    MAX_SLEEVES,
    NONE,
    Kind,
    Phase,
    Sleeve,
    UnstoppableStateData,
)
from envs.unstoppable.validation import validate_state

PLAYER = 0
"""The one seat of the solo game."""
UPKEEP_ACTION_POINTS = 3
"""Upkeep step 1: "Place 3 action point discs"."""

SLEEVE_GROUPS = frozenset({"play", "exhaust", "target", "eliminate", "buy", "refresh", "discard"})
"""Action groups keyed by a sleeve."""
LEVEL_UP_EFFECTS: Mapping[str, str] = {"boss_cards": "_boss_cards_frames"}
"""A boss mat's level-up effect kind (cards.LevelUpKind) -> the method giving the frames it pushes."""


class DangerEffect(NamedTuple):
    """How a danger space's optional effect is read: the method saying whether it is offered when the marker reaches
    the space, the method carrying it out once taken, and its words in action labels."""

    offered: str
    take: str
    words: str


DANGER_EFFECTS: Mapping[str, DangerEffect] = {
    "eliminate": DangerEffect(
        "_can_eliminate_for_credit", "_eliminate_for_credit", "spend 1 credit to eliminate a card"
    ),
    "market_cycle": DangerEffect("_market_to_cycle", "_cycle_market", "cycle the market"),
}
"""A danger space's effect kind (cards.SpaceEffect, but `none`) -> its rule."""
CHANCE_KINDS = (Kind.DEAL, Kind.REVEAL, Kind.REVEAL_CORE, Kind.SLEEVE, Kind.MARKET, Kind.BOSS_CARD)
"""Every chance event."""


DEALT_TO = {"hand": "is dealt to your hand", "battlefield": "is dealt to the battlefield"}
"""Where a DEAL or REVEAL frame's `to` puts the card, in words (by default it is revealed on top of the deck)."""


def _card_dealt(state: UnstoppableState, frame: DecisionFrame, sleeve: int) -> str:
    cards, card = state.game.cards, state.sleeves[sleeve]
    where = DEALT_TO.get(frame.detail("to", ""), "is revealed on top of your deck")
    return f"{cards.cores[card.core].name} / {cards.threats[card.threat].name} (sleeve {sleeve + 1}) {where}"


def _threat_sleeved(state: UnstoppableState, frame: DecisionFrame, threat: int) -> str:
    cards = state.game.cards
    return f"{cards.cores[frame.detail('core')].name} is sleeved with {cards.threats[threat].name} (unseen)"


def _threat_sleeved_unseen(state: UnstoppableState, frame: DecisionFrame, threat: int) -> str:
    return f"{state.game.cards.cores[frame.detail('core')].name} is sleeved with the top threat (unseen)"


def _market_filled(state: UnstoppableState, frame: DecisionFrame, upgrade: int) -> str:
    return f"{state.game.cards.upgrades[upgrade].name} fills market slot {frame.detail('slot') + 1}"


def _without(values: tuple[int, ...], value: int) -> tuple[int, ...]:
    """`values` less its first `value`."""
    index = values.index(value)
    return values[:index] + values[index + 1 :]


class UnstoppableState(UnstoppableStateData, FrameEngine, FrameChanceLabels):  # type: ignore[misc]
    """A game of Unstoppable: the declared state (state.py) and every rule as a method, run by the frame engine."""

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {
        Kind.MAIN: Decision("_main_options", "_main_action"),
        Kind.EFFECT: Decision("_effect_options", "_choose_effect"),
        Kind.TARGET: Decision("_target_options", "_deal_damage"),
        Kind.ELIMINATE: Decision("_eliminate_options", "_choose_elimination"),
        Kind.REFRESH: Decision("_refresh_options", "_refresh"),
        Kind.HAND_LIMIT: Decision("_hand_limit_options", "_discard_from_hand"),
        Kind.RAGE: Decision("_rage_options", "_discard_ally"),
        Kind.DRAFT: Decision("_draft_options", "_keep_core"),
        Kind.DANGER: Decision("_danger_options", "_danger_effect"),
        Kind.CYCLE: Decision("_cycle_options", "_cycle"),
        Kind.DEAL: Chance("_deck_outcomes", "_dealt"),
        Kind.REVEAL: Chance("_reveal_outcomes", "_revealed"),
        Kind.REVEAL_CORE: Chance("_core_reveal_outcomes", "_core_revealed"),
        Kind.SLEEVE: Chance("_threat_deck_outcomes", "_sleeved", nothing="_nothing_to_sleeve"),
        Kind.MARKET: Chance("_market_outcomes", "_market_refilled"),
        Kind.BOSS_CARD: Chance("_boss_deck_outcomes", "_boss_card_to_threat_deck"),
        Kind.START_TURN: Automatic("_start_turn"),
        Kind.DRAFT_START: Automatic("_draft_start"),
        Kind.DRAFT_DRAW: Automatic("_draft_draw"),
        Kind.MAIN_START: Automatic("_main_start"),
        Kind.THREAT_PHASE: Automatic("_threat_phase"),
        Kind.CLEANUP: Automatic("_cleanup"),
        Kind.REFILL: Automatic("_refill"),
        Kind.ADVANCE_DANGER: Automatic("_advance_danger"),
        Kind.END_TURN: Automatic("_end_turn"),
        Kind.DEFEAT: Automatic("_defeat"),
        Kind.CRAZED: Automatic("_crazed"),
        Kind.BONUS: Automatic("_bonus"),
        Kind.LEVEL_CHECK: Automatic("_level_check"),
        Kind.LEVEL_UP: Automatic("_level_up"),
        Kind.BOSS_LEVEL_UP: Automatic("_boss_level_up"),
        Kind.RESHUFFLE: Automatic("_reshuffle"),
        Kind.REPEAT_LIMIT: Automatic("_repeat_limit"),
    }
    """Every frame kind and the methods that run it (envs/core/engine.py)."""
    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
        Kind.DEAL: ChanceLabel(_card_dealt),
        Kind.REVEAL: ChanceLabel(_card_dealt),
        Kind.REVEAL_CORE: ChanceLabel(
            "{item.name} is revealed on top of the level-{level} core deck", items=attrgetter("game.cards.cores")
        ),
        Kind.SLEEVE: ChanceLabel(_threat_sleeved, hidden=_threat_sleeved_unseen),
        Kind.MARKET: ChanceLabel(_market_filled),
        Kind.BOSS_CARD: ChanceLabel(
            "boss card {item.name} is shuffled into the threat deck", items=attrgetter("game.cards.threats")
        ),
    }
    """Each chance outcome in words, naming the card revealed or drawn; the player does not see the threat a
    drafted core is sleeved with (envs/core/chance_labels.py)."""

    def validate(self) -> None:
        """Refuse every position that cannot happen, naming the field (validation.py)."""
        validate_state(self)

    # ------------------------------------------------------------------------------------------ the contract
    def returns(self) -> list[float]:
        """+1 once the boss is defeated, -1 once you lose (0 until the end)."""
        if not self.over:
            return [0.0]
        return [1.0 if self.won else -1.0]

    def score(self) -> list[float]:
        """Progress toward defeating the boss, by the boss's win kind (effects.WIN_RULES; RULES.md, "Reward modes")."""
        return [boss_progress(self)]

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """Won, score, boss damage, turns played and how the game ended."""
        info = super().episode_info(player)
        info.update(boss_damage=self.boss_damage, turns=self.turn, level=self.level, ending=self.ending())
        return info

    def ending(self) -> str:
        """How the game ended: "boss defeated", "health", "danger", or "" while it goes on."""
        if not self.over:
            return ""
        if self.won:
            return "boss defeated"
        return "health" if self.health <= 0 else "danger"

    def action_label_for(self, action: int, player: int | None) -> str:
        """The action with what the player knows of its cards named: a drafted sleeve's core, a target's threat
        ("target: drafted card 2 (Rust Golem)", never the core on its other side), an effect slot's effect written
        out, a market slot's upgrade and what it costs on that card ("buy: market slot 2 (Nerve Toxin) onto drafted
        card 1 (Viren Strategy) for 0 credits"), a danger space's effect. A threat the player has not seen is not
        named. Terminal play and the viewer read actions with this (`Observer.action_text`), replays and logs too."""
        label = self.game.action_label(action)
        group, index = self.game.actions.codec.decode(action)
        frame = self.decision()
        if group == "effect" and frame is not None and frame.kind == Kind.EFFECT:
            sleeve, mode = frame.detail("sleeve"), frame.detail("mode")
            return f"{label} of {core_of(self, sleeve).name}: {effect_at(self, sleeve, mode, index).text()}"
        if group == "buy":
            slot, sleeve = divmod(index, MAX_SLEEVES)
            words = f"buy: market slot {slot + 1} ({self._market_name(slot)}) onto {self._sleeve_words(sleeve)}"
            upgrade = self.market[slot]
            if upgrade == NONE or sleeve >= len(self.sleeves):
                return words
            price = self.upgrade_price(upgrade, sleeve)
            return f"{words} for {price} credit{'' if price == 1 else 's'}"
        if group == "cycle":
            return f"{label} ({self._market_name(index)})"
        if group == "danger" and frame is not None and frame.kind == Kind.DANGER:
            return f"{label} ({DANGER_EFFECTS[frame.detail('effect')].words})"
        sleeve = {"exhaust": index // MAX_EXHAUST_ICONS, "buy": index % MAX_SLEEVES}.get(group, index)
        if group not in SLEEVE_GROUPS or sleeve >= len(self.sleeves):
            return label
        if group == "target":
            return f"{label} ({threat_of(self, sleeve).name})" if self.sleeves[sleeve].seen else label
        if sleeve >= self.game.character_deck_size:
            return f"{label} ({core_of(self, sleeve).name})"
        return label

    def _market_name(self, slot: int) -> str:
        """The upgrade in a market slot by name ("empty" for an empty slot)."""
        upgrade = self.market[slot]
        return "empty" if upgrade == NONE else self.game.cards.upgrades[upgrade].name

    def _sleeve_words(self, sleeve: int) -> str:
        """A sleeve as labels name it, its core named ("sleeve 3 (Strike)", "drafted card 2 (Viren Strategy)")."""
        words = self.game.action_label(self.game.actions.play + sleeve).partition(": ")[2]
        if self.game.character_deck_size <= sleeve < len(self.sleeves):
            words += f" ({core_of(self, sleeve).name})"
        return words

    def resample_hidden(self, player: int, rng: np.random.Generator) -> UnstoppableState:
        """A clone whose hidden threats are redealt: the threat deck's cards and the threats of the sleeves the
        player has not seen, over one pool (RULES.md, "Hidden information"). Deck orders are not state (the unknown
        parts are sets and multisets), so nothing else is redrawn."""
        unseen = [s for s, sleeve in enumerate(self.sleeves) if not sleeve.seen]
        pool = list(self.threat_deck.unknown)
        for sleeve in unseen:
            pool[self.sleeves[sleeve].threat] += 1
        holders: dict[Any, int] = {"threat deck": self.threat_deck.unknown_size}
        holders.update({sleeve: 1 for sleeve in unseen})
        dealt = redeal(pool, holders, {}, rng)
        clone = self.clone()
        clone.threat_deck = Deck(dealt["threat deck"], self.threat_deck.top, self.threat_deck.bottom)
        sleeves = list(self.sleeves)
        for sleeve in unseen:
            threat = next(card for card, copies in enumerate(dealt[sleeve]) if copies)
            sleeves[sleeve] = dataclasses.replace(sleeves[sleeve], threat=threat)
        clone.sleeves = tuple(sleeves)
        clone.drop_caches()  # the cached options and outcomes were computed from the old threats
        return clone

    # ------------------------------------------------------------------------------------------ hooks
    def _game_over(self) -> bool:
        """You win when the boss is defeated (effects.WIN_RULES); you lose at 0 health or on Maximum Danger."""
        return self.health <= 0 or boss_defeated(self) or self.danger >= self.game.max_danger

    def _end_game(self) -> None:
        self.over = True
        self.won = self.health > 0 and boss_defeated(self)

    def _count_decision(self, frame: DecisionFrame) -> None:
        self.decisions += 1

    # ------------------------------------------------------------------------------------------ sleeves and zones
    def _set_sleeve(self, sleeve: int, **changes: Any) -> None:
        """Replace one sleeve's record with some of its fields changed."""
        self.sleeves = (
            *self.sleeves[:sleeve],
            dataclasses.replace(self.sleeves[sleeve], **changes),
            *self.sleeves[sleeve + 1 :],
        )

    def zone_of(self, sleeve: int) -> str:
        """Where a sleeve is: hand, play, battlefield, deck, discard or eliminated."""
        for zone, members in (
            ("hand", self.hand),
            ("play", self.in_play),
            ("battlefield", self.battlefield),
            ("discard", self.discard),
            ("eliminated", self.eliminated),
        ):
            if sleeve in members:
                return zone
        return "deck"

    def _take_from_zone(self, sleeve: int) -> list[DecisionFrame]:
        """Take a sleeve out of wherever it is; the frames that follow (a reveal when it was the on-deck threat)."""
        zone = self.zone_of(sleeve)
        if zone == "hand":
            self.hand = _without(self.hand, sleeve)
        elif zone == "play":
            self.in_play = _without(self.in_play, sleeve)
            if sleeve in self.exhausted:
                self.exhausted = _without(self.exhausted, sleeve)
        elif zone == "battlefield":
            self.battlefield = _without(self.battlefield, sleeve)
        elif zone == "discard":
            self.discard = _without(self.discard, sleeve)
        elif zone == "deck":
            was_on_deck = on_deck(self) == sleeve
            self.deck = self.deck.draw(sleeve) if was_on_deck else _deck_without(self.deck, sleeve)
            if was_on_deck:
                return [new_frame(CHANCE, Kind.REVEAL)]
        return []

    def _eliminate(self, sleeve: int) -> None:
        """Return a card to the box (its damage tokens go with it)."""
        frames = self._take_from_zone(sleeve)
        self.eliminated = (*self.eliminated, sleeve)
        self._set_sleeve(sleeve, damage=0)
        self._push(*frames)

    # ------------------------------------------------------------------------------------------ turn
    def _start_turn(self, frame: DecisionFrame) -> None:
        """Upkeep: 3 action points, allies refreshed, the repeat counts of the last turn forgotten."""
        self.turn += 1
        self.phase = Phase.UPKEEP
        self.action_points = capped(self.action_points, UPKEEP_ACTION_POINTS, CAPS["action_points"])
        self.exhausted = ()
        self.repeats = ()
        self._push(
            new_frame(PLAYER, Kind.DRAFT_START),
            new_frame(PLAYER, Kind.MAIN_START),
            new_frame(PLAYER, Kind.THREAT_PHASE),
            new_frame(PLAYER, Kind.CLEANUP),
        )

    def _draft_start(self, frame: DecisionFrame) -> None:
        self.phase = Phase.DRAFT
        self._push(new_frame(PLAYER, Kind.DRAFT_DRAW, level=self.small_level, left=DRAFT_SIZE))

    def _draft_draw(self, frame: DecisionFrame) -> None:
        """Draw the top cards of the small disc's core deck one by one (each card under a face-up top is unknown
        until the top is taken: a chance reveal), then reveal the new top and ask which to keep."""
        level, left = frame.detail("level"), frame.detail("left")
        deck = self.core_decks[level - 1]
        if left and len(deck):
            if not deck.top and deck.unknown_size:
                self._push(new_frame(CHANCE, Kind.REVEAL_CORE, level=level), frame)
                return
            card = deck.draw_outcomes()[0][0]
            self._set_core_deck(level, deck.draw(card))
            self.draft = (*self.draft, card)
            self._push(new_frame(PLAYER, Kind.DRAFT_DRAW, level=level, left=left - 1))
            return
        frames = [new_frame(CHANCE, Kind.REVEAL_CORE, level=level)]
        if self.draft:
            frames.append(new_frame(PLAYER, Kind.DRAFT, level=level))
        else:
            self.small_level = self.level
        self._push(*frames)

    def _set_core_deck(self, level: int, deck: Deck) -> None:
        self.core_decks = (*self.core_decks[: level - 1], deck, *self.core_decks[level:])

    def _core_reveal_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        deck = self.core_decks[frame.detail("level") - 1]
        return deck.draw_outcomes() if not deck.top and deck.unknown_size else ()

    def _core_revealed(self, frame: DecisionFrame, card: int) -> None:
        level = frame.detail("level")
        self._set_core_deck(level, self.core_decks[level - 1].reveal_next_unknown(card))

    def _draft_options(self, frame: DecisionFrame) -> list[int]:
        return [self.game.actions.draft + card for card in set(self.draft)]

    def _keep_core(self, frame: DecisionFrame, action: int) -> None:
        """Keep one core; the others go to the bottom of their deck in the order drawn (RULES.md); the kept core is
        sleeved with the top threat of the threat deck, unseen."""
        card = action - self.game.actions.draft
        level = frame.detail("level")
        returned = _without(self.draft, card)
        deck = self.core_decks[level - 1]
        for other in returned:
            deck = deck.put_on_bottom(other)
        self._set_core_deck(level, deck)
        self.draft = ()
        self._push(new_frame(CHANCE, Kind.SLEEVE, core=card, level=level))

    def _threat_deck_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        return self.threat_deck.draw_outcomes() if len(self.threat_deck) else ()

    def _sleeved(self, frame: DecisionFrame, threat: int) -> None:
        """The drafted core and the threat deck's top card share a new sleeve, which goes to your hand."""
        self.threat_deck = self.threat_deck.draw(threat)
        sleeve = len(self.sleeves)
        self.sleeves = (*self.sleeves, Sleeve(core=frame.detail("core"), threat=threat, seen=False))
        self.hand = (*self.hand, sleeve)
        self.small_level = self.level

    def _nothing_to_sleeve(self, frame: DecisionFrame) -> None:
        """No threat left to sleeve with: the kept core goes back under its deck (RULES.md, "Empty piles")."""
        level = frame.detail("level")
        self._set_core_deck(level, self.core_decks[level - 1].put_on_bottom(frame.detail("core")))
        self.small_level = self.level

    def _main_start(self, frame: DecisionFrame) -> None:
        self.phase = Phase.MAIN
        self._push(new_frame(PLAYER, Kind.MAIN))

    # ------------------------------------------------------------------------------------------ main phase
    def _main_options(self, frame: DecisionFrame) -> list[int]:
        """Play a card you can pay for, exhaust an ready ally through one of its icons, buy an upgrade that fits a
        card you hold or have in play, or end the phase."""
        actions = self.game.actions
        cores = self.game.cards.cores
        options = [actions.end_main]
        for sleeve in self.hand:
            if cores[self.sleeves[sleeve].core].cost <= self.action_points:
                options.append(actions.play + sleeve)
        for sleeve in self.in_play:
            core = cores[self.sleeves[sleeve].core]
            if core.type == "ally" and sleeve not in self.exhausted:
                options.extend(actions.exhaust_id(sleeve, icon) for icon in range(len(core.exhaust)))
        cheapest = self.game.cheapest_upgrade_price
        for slot, upgrade in enumerate(self.market):
            # An upgrade you cannot pay even with its discount fits no card (the test that saves the most time).
            if upgrade != NONE and self.credits >= cheapest[upgrade]:
                options.extend(
                    actions.buy_id(slot, sleeve)
                    for sleeve in (*self.hand, *self.in_play)
                    if self.can_buy(upgrade, sleeve)
                )
        return options

    def upgrade_price(self, upgrade: int, sleeve: int) -> int:
        """Credits an upgrade costs when added to the card in `sleeve` (its discount for the card's faction)."""
        card = self.game.cards.upgrades[upgrade]
        discount = card.discount
        if discount is not None and core_of(self, sleeve).faction == discount.faction:
            return max(0, card.cost - discount.amount)
        return card.cost

    def can_buy(self, upgrade: int, sleeve: int) -> bool:
        """Whether the upgrade fits the card (its requirement, a free cutout) and you can pay for it."""
        card = self.game.cards.upgrades[upgrade]
        record = self.sleeves[sleeve]
        if (record.top if card.cutout == "top" else record.bottom) != NONE:
            return False
        if card.requirement != "any" and core_of(self, sleeve).type != card.requirement:
            return False
        return self.credits >= self.upgrade_price(upgrade, sleeve)

    def _main_action(self, frame: DecisionFrame, action: int) -> None:
        actions = self.game.actions
        group, index = actions.codec.decode(action)
        if group == "end main phase":
            return
        if group == "play":
            self._play(index)
        elif group == "exhaust":
            sleeve, icon = divmod(index, MAX_EXHAUST_ICONS)
            self.exhausted = (*self.exhausted, sleeve)
            self._push(self._resolution(sleeve, EXHAUST + icon), new_frame(PLAYER, Kind.MAIN))
        elif group == "buy":
            slot, sleeve = divmod(index, MAX_SLEEVES)
            self._buy(slot, sleeve)

    def _play(self, sleeve: int) -> None:
        """Spend its cost, put it in play core side up, and resolve its effects in the order you choose."""
        self.action_points -= core_of(self, sleeve).cost
        self.hand = _without(self.hand, sleeve)
        self.in_play = (*self.in_play, sleeve)
        self._push(self._resolution(sleeve, PLAY), new_frame(PLAYER, Kind.MAIN))

    def _buy(self, slot: int, sleeve: int) -> None:
        """Spend the price, slide the upgrade into the sleeve's cutout, refill the market slot."""
        upgrade = self.market[slot]
        self.credits -= self.upgrade_price(upgrade, sleeve)
        cutout = self.game.cards.upgrades[upgrade].cutout
        self._set_sleeve(sleeve, **{cutout: upgrade})
        self.market = (*self.market[:slot], NONE, *self.market[slot + 1 :])
        self._push(new_frame(CHANCE, Kind.MARKET, slot=slot), new_frame(PLAYER, Kind.MAIN))

    def _market_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        if self.market[frame.detail("slot")] != NONE or not len(self.upgrade_deck):
            return ()
        return self.upgrade_deck.draw_outcomes()

    def _market_refilled(self, frame: DecisionFrame, upgrade: int) -> None:
        slot = frame.detail("slot")
        self.upgrade_deck = self.upgrade_deck.draw(upgrade)
        self.market = (*self.market[:slot], upgrade, *self.market[slot + 1 :])

    # ------------------------------------------------------------------------------------------ effects
    def _resolution(self, sleeve: int, mode: int) -> DecisionFrame:
        """The frame that resolves a card's effects of `mode` in the order the player chooses."""
        slots = tuple(slot for slot, _ in card_effects(self, sleeve, mode))
        return new_frame(PLAYER, Kind.EFFECT, sleeve=sleeve, mode=mode, left=slots)

    def _effect_options(self, frame: DecisionFrame) -> list[int]:
        """Each remaining effect that can resolve now, and forfeiting the rest unless a mandatory one (Conspire,
        Focus, Unite) can still resolve."""
        sleeve, mode = frame.detail("sleeve"), frame.detail("mode")
        base = self.game.actions.effect
        options, mandatory = [], False
        for slot in frame.detail("left"):
            effect = effect_at(self, sleeve, mode, slot)
            if can_resolve(self, sleeve, effect):
                options.append(base + slot)
                mandatory = mandatory or effect.mandatory
        if not mandatory:
            options.append(self.game.actions.done + FORFEIT)
        return options

    def _choose_effect(self, frame: DecisionFrame, action: int) -> None:
        """Resolve the chosen effect, then come back for the rest ("Effects that you cannot resolve, or choose not
        to, are forfeited": forfeiting ends the card's resolution)."""
        if action == self.game.actions.done + FORFEIT:
            return
        sleeve, mode, left = frame.detail("sleeve"), frame.detail("mode"), frame.detail("left")
        slot = action - self.game.actions.effect
        rest = tuple(s for s in left if s != slot)
        self._push(
            *self._resolve_effect(sleeve, mode, slot),
            new_frame(PLAYER, Kind.EFFECT, sleeve=sleeve, mode=mode, left=rest),
        )

    def _resolve_effect(self, sleeve: int, mode: int, slot: int) -> list[DecisionFrame]:
        """Resolve one effect of a card: its immediate part now, its decisions (targets, cards) as frames; counted
        for the repeat limit, whose 4th resolution eliminates the card once the effect is resolved."""
        effect = effect_at(self, sleeve, mode, slot)
        frames = self._apply_effect(sleeve, mode, slot, effect)
        if self._count_resolution(sleeve, effect_id(mode, slot)) >= REPEAT_LIMIT:
            frames.append(new_frame(PLAYER, Kind.REPEAT_LIMIT, sleeve=sleeve))
        return frames

    def _count_resolution(self, sleeve: int, effect: int) -> int:
        """Count one more resolution of the effect this turn; how many there have been."""
        for index, (counted_sleeve, counted_effect, times) in enumerate(self.repeats):
            if (counted_sleeve, counted_effect) == (sleeve, effect):
                self.repeats = (*self.repeats[:index], (sleeve, effect, times + 1), *self.repeats[index + 1 :])
                return times + 1
        self.repeats = (*self.repeats, (sleeve, effect, 1))
        return 1

    def _apply_effect(self, sleeve: int, mode: int, slot: int, effect: Effect) -> list[DecisionFrame]:
        """Carry out one effect's icon with its X; the decisions it needs as frames."""
        if effect.bargain is not None:
            self.credits -= bargain_cost(self, sleeve, effect)
        amount, instances = scaled(self, sleeve, effect)
        kind = effect.kind
        if kind == "damage":
            target = new_frame(
                PLAYER,
                Kind.TARGET,
                sleeve=sleeve,
                mode=mode,
                slot=slot,
                amount=amount,
                ignore_taunt=effect.ignore_taunt,
            )
            return [target] * instances
        if kind == "eliminate":
            return [new_frame(PLAYER, Kind.ELIMINATE, sleeve=sleeve, optional=False)] * amount
        if kind == "refresh":
            return [new_frame(PLAYER, Kind.REFRESH, sleeve=sleeve)] * amount
        if kind == "credits":
            self.credits += amount
        elif kind == "train":
            self.small_level = min(MAX_LEVEL, self.small_level + amount)
        elif kind == "boss_damage":
            deal_boss_damage(self, amount)
        else:
            setattr(self, kind, capped(getattr(self, kind), amount, CAPS[kind]))
        return []

    def _target_options(self, frame: DecisionFrame) -> list[int]:
        base = self.game.actions.target
        return [base + sleeve for sleeve in legal_targets(self, frame.detail("ignore_taunt"))]

    def _deal_damage(self, frame: DecisionFrame, action: int) -> None:
        """One damage instance to the chosen threat: Terror costs 1 action point per instance first (ignored at 0
        action points); the threat is defeated once its damage reaches its health."""
        target = action - self.game.actions.target
        for _ in range(threat_keywords(self, target).terror):
            self.action_points = max(0, self.action_points - 1)
        damage = self.sleeves[target].damage + frame.detail("amount")
        self._set_sleeve(target, damage=damage)
        if damage >= threat_health(self, target):
            self._push(new_frame(PLAYER, Kind.DEFEAT, sleeve=target))

    def _eliminate_options(self, frame: DecisionFrame) -> list[int]:
        base = self.game.actions.eliminate
        options = [base + sleeve for sleeve in eliminable(self)]
        if frame.detail("optional"):
            options.append(self.game.actions.done + NO_ELIMINATION)
        return options

    def _choose_elimination(self, frame: DecisionFrame, action: int) -> None:
        if action == self.game.actions.done + NO_ELIMINATION:
            return
        self._eliminate(action - self.game.actions.eliminate)

    def _refresh_options(self, frame: DecisionFrame) -> list[int]:
        return [self.game.actions.refresh + sleeve for sleeve in self.exhausted]

    def _refresh(self, frame: DecisionFrame, action: int) -> None:
        self.exhausted = _without(self.exhausted, action - self.game.actions.refresh)

    def _repeat_limit(self, frame: DecisionFrame) -> None:
        """The 4th resolution of one effect of a card this turn: the card is eliminated (if it still exists)."""
        sleeve = frame.detail("sleeve")
        if sleeve not in self.eliminated:
            self._eliminate(sleeve)

    # ------------------------------------------------------------------------------------------ events
    def _defeat(self, frame: DecisionFrame) -> None:
        """A defeated threat goes to your hand before its bonus resolves; the threat under it on your deck is
        revealed (the Crazed check follows); the boss may take damage; then the bonus; then a level-up if your deck
        is empty and no threat is active (Main Phase)."""
        sleeve = frame.detail("sleeve")
        frames = self._take_from_zone(sleeve)
        self._set_sleeve(sleeve, damage=0, seen=True)
        self.hand = (*self.hand, sleeve)
        for amount, member in boss_mat_hits(self, sleeve):
            deal_boss_damage(self, amount, member)
        frames += [new_frame(PLAYER, Kind.BONUS, sleeve=sleeve, index=0), new_frame(PLAYER, Kind.LEVEL_CHECK)]
        self._push(*frames)

    def _bonus(self, frame: DecisionFrame) -> None:
        """A defeated threat's bonus effects, mandatory, in printed order; each that cannot resolve is skipped."""
        sleeve = frame.detail("sleeve")
        bonus = threat_of(self, sleeve).bonus
        for index in range(frame.detail("index"), len(bonus)):
            if not can_resolve(self, sleeve, bonus[index]):
                continue
            frames = self._resolve_effect(sleeve, BONUS, index)
            if frames:
                self._push(*frames, new_frame(PLAYER, Kind.BONUS, sleeve=sleeve, index=index + 1))
                return

    def _reveal_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        deck = self.deck
        if deck.top or not deck.unknown:
            return ()
        return uniform_outcomes(sorted(deck.unknown))

    def _revealed(self, frame: DecisionFrame, sleeve: int) -> None:
        """The next card of your deck turns out to be `sleeve`: the new on-deck threat, seen; Crazed checks it."""
        self.deck = self.deck.reveal_next_unknown(sleeve)
        self._set_sleeve(sleeve, seen=True)
        self._push(new_frame(PLAYER, Kind.CRAZED, sleeve=sleeve))

    def _crazed(self, frame: DecisionFrame) -> None:
        """Crazed X: each instance whose X is at least your health deals the revealed threat 2 damage; if that
        defeats it, it is defeated like any threat (and the next card is revealed and checked in turn)."""
        sleeve = frame.detail("sleeve")
        hits = sum(1 for x in threat_keywords(self, sleeve).crazed if self.health <= x)
        if not hits:
            return
        damage = self.sleeves[sleeve].damage + CRAZED_DAMAGE * hits
        self._set_sleeve(sleeve, damage=damage)
        if damage >= threat_health(self, sleeve):
            self._push(new_frame(PLAYER, Kind.DEFEAT, sleeve=sleeve))

    def _level_check(self, frame: DecisionFrame) -> None:
        """Main Phase: "You level up if your deck is empty and there are no active threats"."""
        if self.phase == Phase.MAIN and not len(self.deck) and not self.battlefield:
            self._push(new_frame(PLAYER, Kind.LEVEL_UP))

    # ------------------------------------------------------------------------------------------ level up
    def _level_up(self, frame: DecisionFrame) -> None:
        """Level up: both discs advance; tactics and allies leave play; discard down to 3; optionally eliminate a
        card; the boss mat's level-up effects; the discard pile reshuffled into your deck."""
        self.level = min(MAX_LEVEL, self.level + 1)
        self.small_level = min(MAX_LEVEL, self.small_level + 1)
        self.discard = (*self.discard, *self.in_play)
        self.in_play = self.exhausted = ()
        self._push(
            new_frame(PLAYER, Kind.HAND_LIMIT),
            new_frame(PLAYER, Kind.ELIMINATE, sleeve=NONE, optional=True),
            new_frame(PLAYER, Kind.BOSS_LEVEL_UP),
            new_frame(PLAYER, Kind.RESHUFFLE),
        )

    def _hand_limit_options(self, frame: DecisionFrame) -> list[int]:
        if len(self.hand) <= HAND_LIMIT:
            return []
        return [self.game.actions.discard + sleeve for sleeve in self.hand]

    def _discard_from_hand(self, frame: DecisionFrame, action: int) -> None:
        sleeve = action - self.game.actions.discard
        self.hand = _without(self.hand, sleeve)
        self.discard = (*self.discard, sleeve)
        self._push(new_frame(PLAYER, Kind.HAND_LIMIT))

    def _boss_level_up(self, frame: DecisionFrame) -> None:
        """Level-up step 4: the boss mat's level-up effects, in printed order, each read by kind (LEVEL_UP_EFFECTS)."""
        frames = [
            pushed
            for effect in self.game.boss.level_up
            for pushed in getattr(self, LEVEL_UP_EFFECTS[effect.kind])(effect)
        ]
        self._push(*frames)

    def _boss_cards_frames(self, effect: LevelUpEffect) -> list[DecisionFrame]:
        """`boss_cards`: the boss deck's top `amount` cards, each shuffled into the threat deck (a chance event)."""
        return [new_frame(CHANCE, Kind.BOSS_CARD) for _ in range(effect.amount)]

    def _boss_deck_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        return self.boss_deck.draw_outcomes() if len(self.boss_deck) else ()

    def _boss_card_to_threat_deck(self, frame: DecisionFrame, threat: int) -> None:
        """The boss deck's top card is shuffled into the threat deck (seen as it goes: RULES.md)."""
        self.boss_deck = self.boss_deck.draw(threat)
        self.threat_deck = self.threat_deck.put_on_top(threat).shuffle_into_unknown()

    def _reshuffle(self, frame: DecisionFrame) -> None:
        """Level-up step 5: the discard pile, shuffled, becomes your deck threat side up; its top is revealed."""
        cards = (*self.deck.top, *self.deck.unknown, *self.deck.bottom, *self.discard)
        self.deck = UniqueDeck(MAX_SLEEVES, frozenset(cards))
        self.discard = ()
        self._push(new_frame(CHANCE, Kind.REVEAL))

    # ------------------------------------------------------------------------------------------ threat phase
    def _threat_phase(self, frame: DecisionFrame) -> None:
        """Each active threat deals its attack (upgrades included), armor first; then each Rage instance on the
        battlefield makes you discard an ally from play."""
        self.phase = Phase.THREAT
        damage = sum(threat_attack(self, sleeve) for sleeve in self.battlefield)
        absorbed = min(self.armor, damage)
        self.armor -= absorbed
        self.health = max(0, self.health - (damage - absorbed))
        rage = sum(threat_keywords(self, sleeve).rage for sleeve in self.battlefield)
        self._push(*(new_frame(PLAYER, Kind.RAGE) for _ in range(rage)))

    def _rage_options(self, frame: DecisionFrame) -> list[int]:
        cores = self.game.cards.cores
        base = self.game.actions.discard
        return [base + sleeve for sleeve in self.in_play if cores[self.sleeves[sleeve].core].type == "ally"]

    def _discard_ally(self, frame: DecisionFrame, action: int) -> None:
        sleeve = action - self.game.actions.discard
        self._take_from_zone(sleeve)
        self.discard = (*self.discard, sleeve)

    # ------------------------------------------------------------------------------------------ cleanup
    def _cleanup(self, frame: DecisionFrame) -> None:
        """Tactics to the discard pile, action points lost, armor to 0; then refill, then the danger marker."""
        self.phase = Phase.CLEANUP
        cores = self.game.cards.cores
        tactics = tuple(s for s in self.in_play if cores[self.sleeves[s].core].type == "tactic")
        self.in_play = tuple(s for s in self.in_play if s not in tactics)
        self.discard = (*self.discard, *tactics)
        self.action_points = 0
        self.armor = 0
        self._push(
            new_frame(PLAYER, Kind.REFILL, leveled=False),
            new_frame(PLAYER, Kind.ADVANCE_DANGER),
            new_frame(PLAYER, Kind.END_TURN),
        )

    def _refill(self, frame: DecisionFrame) -> None:
        """Add threats from the top of your deck until 3 non-Fast threats are active and the on-deck threat is not
        Fast; if the deck is empty while a threat must be added, level up, then go on (once: an empty deck after
        the level-up ends the refill)."""
        steady = sum(1 for sleeve in self.battlefield if not is_fast(self, sleeve))
        top = on_deck(self)
        if steady >= ACTIVE_THREATS and (top == NONE or not is_fast(self, top)):
            return
        if not len(self.deck):
            if not frame.detail("leveled"):
                self._push(new_frame(PLAYER, Kind.LEVEL_UP), new_frame(PLAYER, Kind.REFILL, leveled=True))
            return
        assert top != NONE, "a non-empty deck shows its on-deck threat"
        self.deck = self.deck.draw(top)
        self.battlefield = (*self.battlefield, top)
        self._push(new_frame(CHANCE, Kind.REVEAL), new_frame(PLAYER, Kind.REFILL, leveled=False))

    def _advance_danger(self, frame: DecisionFrame) -> None:
        """The danger marker advances 1 space, skipping the spaces of the difficulty's border colour; a space's
        optional effect is offered (never on a skipped space)."""
        track = self.game.boss.danger_track
        skipped = SKIPPED_BORDER[self.game.difficulty]
        position = self.danger + 1
        while track[position].border == skipped:
            position += 1
        self.danger = position
        effect = track[position].effect
        if effect != "none" and getattr(self, DANGER_EFFECTS[effect].offered)():
            self._push(new_frame(PLAYER, Kind.DANGER, effect=effect))

    def _can_eliminate_for_credit(self) -> bool:
        """`eliminate`: offered with 1 credit to spend and a card to eliminate."""
        return self.credits >= 1 and bool(eliminable(self))

    def _eliminate_for_credit(self) -> None:
        """`eliminate`: spend 1 credit to eliminate 1 card in your hand, your discard pile or play."""
        self.credits -= 1
        self._push(new_frame(PLAYER, Kind.ELIMINATE, sleeve=NONE, optional=False))

    def _market_to_cycle(self) -> bool:
        """`market_cycle`: offered with an upgrade in the market."""
        return any(upgrade != NONE for upgrade in self.market)

    def _cycle_market(self) -> None:
        """`market_cycle`: move any number of market upgrades to the bottom of the deck, then refill the market."""
        self._push(new_frame(PLAYER, Kind.CYCLE))

    def _danger_options(self, frame: DecisionFrame) -> list[int]:
        base = self.game.actions.danger
        return [base + TAKE, base + DECLINE]

    def _danger_effect(self, frame: DecisionFrame, action: int) -> None:
        if action == self.game.actions.danger + DECLINE:
            return
        getattr(self, DANGER_EFFECTS[frame.detail("effect")].take)()

    def _cycle_options(self, frame: DecisionFrame) -> list[int]:
        base = self.game.actions.cycle
        return [
            *(base + slot for slot, upgrade in enumerate(self.market) if upgrade != NONE),
            self.game.actions.done + STOP_CYCLING,
        ]

    def _cycle(self, frame: DecisionFrame, action: int) -> None:
        """Move one market upgrade to the bottom of the upgrade deck; once done, refill every empty slot."""
        if action == self.game.actions.done + STOP_CYCLING:
            self._push(*(new_frame(CHANCE, Kind.MARKET, slot=slot) for slot in range(MARKET_SIZE)))
            return
        slot = action - self.game.actions.cycle
        self.upgrade_deck = self.upgrade_deck.put_on_bottom(self.market[slot])
        self.market = (*self.market[:slot], NONE, *self.market[slot + 1 :])
        self._push(new_frame(PLAYER, Kind.CYCLE))

    def _end_turn(self, frame: DecisionFrame) -> None:
        self._push(new_frame(PLAYER, Kind.START_TURN))

    # ------------------------------------------------------------------------------------------ setup
    def _deck_outcomes(self, frame: DecisionFrame) -> Sequence[tuple[int, float]]:
        deck = self.deck
        if deck.top:
            return ((deck.top[0], 1.0),)
        return uniform_outcomes(sorted(deck.unknown)) if deck.unknown else ()

    def _dealt(self, frame: DecisionFrame, sleeve: int) -> None:
        """Setup: a card from your deck to your hand, or threat side up to the battlefield (revealed: Crazed)."""
        self.deck = self.deck.draw(sleeve)
        if frame.detail("to") == "hand":
            self.hand = (*self.hand, sleeve)
        else:
            self.battlefield = (*self.battlefield, sleeve)
            self._push(new_frame(PLAYER, Kind.CRAZED, sleeve=sleeve))


def _deck_without(deck: UniqueDeck, sleeve: int) -> UniqueDeck:
    """The deck less a card known to be in it (an elimination that reaches into the deck)."""
    return UniqueDeck(
        deck.num_card_ids,
        deck.unknown - {sleeve},
        tuple(s for s in deck.top if s != sleeve),
        tuple(s for s in deck.bottom if s != sleeve),
    )


__all__ = ["CHANCE_KINDS", "DECISION_KINDS", "UnstoppableState"]
