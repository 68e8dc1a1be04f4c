"""Public rule queries about cards and effects: which effects a card resolves, their X and costs, legal targets,
and a threat's attack, health and keywords. The rules and agents both read them (a rule written twice drifts).

A card resolves its effects in one of a few modes: when played (`PLAY`), when exhausted through icon k
(`EXHAUST + k`), or as a threat's bonus when defeated (`BONUS`). Each effect of a mode has a slot: the core's own
effects in slots 0-3, the top upgrade's in 4-7, the bottom upgrade's in 8-11, so a slot keeps its meaning when an
upgrade is added. The pair (mode, slot) is the effect's identity for the repeat limit (`effect_id`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from envs.unstoppable.cards import (
    DANGER_DEFENSE,
    FACTIONS,
    MAX_EFFECTS,
    MAX_EXHAUST_ICONS,
    NO_FACTION,
    BossDamageSource,
    Core,
    Effect,
    Keywords,
    Threat,
    Upgrade,
)
from envs.unstoppable.state import MAX_ACTION_POINTS, MAX_ARMOR, MAX_HEALTH, NONE, Sleeve

if TYPE_CHECKING:
    from envs.unstoppable.state import UnstoppableStateData

PLAY = 0
"""Mode of a card's effects when it is played."""
EXHAUST = 1
"""Mode of an ally's effects exhausted through icon k: EXHAUST + k."""
BONUS = EXHAUST + MAX_EXHAUST_ICONS
"""Mode of a threat's bonus when it is defeated."""
MODES = BONUS + 1
CORE_PART, TOP_PART, BOTTOM_PART = range(3)
"""Whose effects a slot holds: the core's, the top upgrade's, the bottom upgrade's."""
PART_SIZE = MAX_EFFECTS
"""Slots per part."""
SLOTS = 3 * PART_SIZE
"""Effect slots of one mode."""
REPEAT_LIMIT = 4
"""Rulebook: "if you resolve the same effect of the same card for the 4th time in a single turn, you must then
eliminate that card"."""
HAND_LIMIT = 3
"""Level-up step 2: "discard down to 3 cards in hand"."""
DRAFT_SIZE = 3
"""Draft step 2: "Draw the top 3 cards of that core deck"."""
ACTIVE_THREATS = 3
"""The battlefield refills to 3 active (non-Fast) threats."""
CRAZED_DAMAGE = 2
"""Crazed: "the Crazed threat deals itself 2 damage"."""


def effect_id(mode: int, slot: int) -> int:
    """The identity of effect `slot` of mode `mode` of a card (the repeat limit counts by it)."""
    return mode * SLOTS + slot


def mode_name(mode: int) -> str:
    """'play', 'exhaust icon 2', 'bonus'."""
    if mode == PLAY:
        return "play"
    if mode == BONUS:
        return "bonus"
    return f"exhaust icon {mode - EXHAUST + 1}"


def slot_name(slot: int) -> str:
    """'effect 1', 'top upgrade effect 1', 'bottom upgrade effect 2'."""
    part, index = divmod(slot, PART_SIZE)
    return ("effect", "top upgrade effect", "bottom upgrade effect")[part] + f" {index + 1}"


# ---------------------------------------------------------------------------------------------- cards of a sleeve
def core_of(state: UnstoppableStateData, sleeve: int) -> Core:
    """The core of a sleeve."""
    return state.game.cards.cores[state.sleeves[sleeve].core]


def threat_of(state: UnstoppableStateData, sleeve: int) -> Threat:
    """The threat of a sleeve."""
    return state.game.cards.threats[state.sleeves[sleeve].threat]


def upgrades_of(state: UnstoppableStateData, sleeve: int) -> tuple[Upgrade | None, Upgrade | None]:
    """The sleeve's top and bottom upgrades (None where the cutout is empty)."""
    record: Sleeve = state.sleeves[sleeve]
    upgrades = state.game.cards.upgrades
    return (
        None if record.top == NONE else upgrades[record.top],
        None if record.bottom == NONE else upgrades[record.bottom],
    )


def card_effects(state: UnstoppableStateData, sleeve: int, mode: int) -> tuple[tuple[int, Effect], ...]:
    """(slot, effect) of every effect the card resolves in `mode`, the core's first, then its upgrades'."""
    if mode == BONUS:
        return tuple(enumerate(threat_of(state, sleeve).bonus))
    core = core_of(state, sleeve)
    own = core.effects if mode == PLAY else core.exhaust[mode - EXHAUST]
    found = [(CORE_PART * PART_SIZE + index, effect) for index, effect in enumerate(own)]
    for part, upgrade in zip((TOP_PART, BOTTOM_PART), upgrades_of(state, sleeve), strict=True):
        if upgrade is not None:
            added = upgrade.on_play if mode == PLAY else upgrade.on_exhaust
            found += [(part * PART_SIZE + index, effect) for index, effect in enumerate(added)]
    return tuple(found)


def effect_at(state: UnstoppableStateData, sleeve: int, mode: int, slot: int) -> Effect:
    """The effect in `slot` of the card's `mode`."""
    if mode == BONUS:
        return threat_of(state, sleeve).bonus[slot]
    part, index = divmod(slot, PART_SIZE)
    if part == CORE_PART:
        core = core_of(state, sleeve)
        return (core.effects if mode == PLAY else core.exhaust[mode - EXHAUST])[index]
    upgrade = upgrades_of(state, sleeve)[part - TOP_PART]
    assert upgrade is not None, f"sleeve {sleeve} has no upgrade for slot {slot}"
    return (upgrade.on_play if mode == PLAY else upgrade.on_exhaust)[index]


# ---------------------------------------------------------------------------------------------- faction keywords
def cards_at_hand_and_in_play(state: UnstoppableStateData) -> Iterable[int]:
    """Sleeves in your hand and in play: what faction keywords count ("in your hand and/or in play")."""
    return (*state.hand, *state.in_play)


def faction_count(state: UnstoppableStateData, sleeve: int) -> int:
    """Cards of the card's faction in your hand and/or in play, itself included even when it has left play (X of
    Focus, the reduction of Bargain); 0 for a factionless card."""
    faction = core_of(state, sleeve).faction
    if faction == NO_FACTION:
        return 0
    cores = state.game.cards.cores
    counted = [s for s in cards_at_hand_and_in_play(state) if cores[state.sleeves[s].core].faction == faction]
    return len(counted) + (sleeve not in counted)


def factions_present(state: UnstoppableStateData, sleeve: int) -> int:
    """Different factions among the cards in your hand and/or in play and the card itself (X of Unite)."""
    cores = state.game.cards.cores
    present = {cores[state.sleeves[s].core].faction for s in (*cards_at_hand_and_in_play(state), sleeve)}
    return len(present & set(FACTIONS))


def bargain_cost(state: UnstoppableStateData, sleeve: int, effect: Effect) -> int:
    """Credits a Bargain effect costs now: N less 1 per card of the faction (itself included), never below 0."""
    assert effect.bargain is not None
    return max(0, effect.bargain - faction_count(state, sleeve))


def keyword_allows(state: UnstoppableStateData, sleeve: int, effect: Effect) -> bool:
    """Whether the effect's faction keyword lets it resolve now (Conspire's condition, Bargain's credits; Focus and
    Conspire never on a factionless card)."""
    keyword = effect.keyword
    if keyword is None or keyword == "unite":
        return True
    if keyword == "bargain":
        return state.credits >= bargain_cost(state, sleeve, effect)
    count = faction_count(state, sleeve)
    if keyword == "focus":
        return count > 0
    return count > 1  # conspire: at least 1 other card of the same faction


def scaled(state: UnstoppableStateData, sleeve: int, effect: Effect) -> tuple[int, int]:
    """The (amount, instances) the effect resolves with now: Focus and Unite multiply one of them by X."""
    amount, instances = effect.amount, effect.instances
    if effect.scaling is None:
        return amount, instances
    x = faction_count(state, sleeve) if effect.focus is not None else factions_present(state, sleeve)
    return (amount * x, instances) if effect.scaling == "amount" else (amount, instances * x)


# ---------------------------------------------------------------------------------------------- threats
def on_deck(state: UnstoppableStateData) -> int:
    """The on-deck threat (the deck's known top card), or NONE."""
    top = state.deck.top
    return top[0] if top else NONE


def threat_keywords(state: UnstoppableStateData, sleeve: int) -> Keywords:
    """The threat's keywords with those its upgrades add."""
    keywords = threat_of(state, sleeve).keywords
    for upgrade in upgrades_of(state, sleeve):
        if upgrade is not None:
            keywords = keywords.plus(upgrade.keywords)
    return keywords


def threat_attack(state: UnstoppableStateData, sleeve: int) -> int:
    """Damage the threat deals each Threat Phase: its attack plus its upgrades'."""
    return threat_of(state, sleeve).attack + sum(u.attack for u in upgrades_of(state, sleeve) if u is not None)


def danger_level(state: UnstoppableStateData) -> int:
    """The number in the danger marker's space."""
    return state.game.boss.danger_track[state.danger].value


def threat_health(state: UnstoppableStateData, sleeve: int) -> int:
    """Attack plus defense (the skull: the danger level), upgrades included: the damage that defeats it."""
    threat = threat_of(state, sleeve)
    defense = danger_level(state) if threat.defense == DANGER_DEFENSE else threat.defense
    extra = sum(u.attack + u.defense for u in upgrades_of(state, sleeve) if u is not None)
    return threat.attack + defense + extra


def _boss_damage_reached(state: UnstoppableStateData) -> bool:
    """`boss_damage`: the boss damage dealt reaches the boss mat's (per player)."""
    return state.boss_damage >= state.game.boss_damage_required


def _boss_damage_share(state: UnstoppableStateData) -> float:
    """`boss_damage`: the boss damage dealt over the boss damage required, at most 1."""
    return min(1.0, state.boss_damage / state.game.boss_damage_required)


def _boss_damage_taken(state: UnstoppableStateData, amount: int, member: str) -> int:
    """`boss_damage`: the boss takes it all."""
    state.boss_damage += amount
    return amount


def _boss_damage_words(state: UnstoppableStateData) -> str:
    """`boss_damage`: "boss damage 5/12"."""
    return f"boss damage {state.boss_damage}/{state.game.boss_damage_required}"


def _members_down(state: UnstoppableStateData) -> bool:
    """`members`: every member has taken its boss damage."""
    return all(damage >= state.game.boss.win.amount for damage in state.member_damage)


def _members_share(state: UnstoppableStateData) -> float:
    """`members`: the boss damage the members took (each at most its own) over what all of them need."""
    return state.boss_damage / state.game.boss_damage_required


def _member_taken(state: UnstoppableStateData, amount: int, member: str) -> int:
    """`members`: the named member takes the damage, or (damage naming none: a card's boss damage icon) the member
    with the most damage still to take, the first on the mat on a tie (RULES.md, "The Triumvirate"); a member takes
    no more than it needs (a member down takes none)."""
    win = state.game.boss.win
    damage = list(state.member_damage)
    if member:
        index = win.members.index(member)
    else:
        index = min(range(len(damage)), key=lambda i: (damage[i], i))
    taken = min(amount, win.amount - damage[index])
    damage[index] += taken
    state.member_damage = tuple(damage)
    state.boss_damage += taken
    return taken


def _members_words(state: UnstoppableStateData) -> str:
    """`members`: "Triumvir of Coin 2/5, ..."."""
    win = state.game.boss.win
    taken = zip(win.members, state.member_damage, strict=True)
    return ", ".join(f"{name} {damage}/{win.amount}" for name, damage in taken)


class WinRule(NamedTuple):
    """How a boss's win kind is read: whether the boss is defeated; how far toward it the game is (in [0, 1]:
    `reward="score"`, the outcome facts, the balance tables); how boss damage is taken (the amount taken); and the
    boss's damage in words."""

    defeated: Callable[[UnstoppableStateData], bool]
    progress: Callable[[UnstoppableStateData], float]
    take: Callable[[UnstoppableStateData, int, str], int]
    words: Callable[[UnstoppableStateData], str]


WIN_RULES: Mapping[str, WinRule] = {
    "boss_damage": WinRule(_boss_damage_reached, _boss_damage_share, _boss_damage_taken, _boss_damage_words),
    "members": WinRule(_members_down, _members_share, _member_taken, _members_words),
}
"""A boss's `win` kind (cards.WinKind) -> its rule."""


def boss_defeated(state: UnstoppableStateData) -> bool:
    """Whether the boss is defeated, by its win kind (WIN_RULES)."""
    return WIN_RULES[state.game.boss.win.kind].defeated(state)


def boss_progress(state: UnstoppableStateData) -> float:
    """Progress toward defeating the boss in [0, 1], by its win kind (WIN_RULES)."""
    return WIN_RULES[state.game.boss.win.kind].progress(state)


def deal_boss_damage(state: UnstoppableStateData, amount: int, member: str = "") -> int:
    """The boss takes `amount` boss damage (to `member` where the source names one), by its win kind; the amount
    taken."""
    return WIN_RULES[state.game.boss.win.kind].take(state, amount, member)


def boss_damage_words(state: UnstoppableStateData) -> str:
    """The boss damage taken, in words, by the boss's win kind."""
    return WIN_RULES[state.game.boss.win.kind].words(state)


def _defeat_source(state: UnstoppableStateData, source: BossDamageSource, sleeve: int) -> int:
    """A `defeat` source: its amount when the threat defeated is the one it names."""
    return source.amount if threat_of(state, sleeve).name == source.threat else 0


DEFEAT_SOURCES: Mapping[str, Callable[[UnstoppableStateData, BossDamageSource, int], int]] = {
    "defeat": _defeat_source,
}
"""A boss mat's boss-damage source kind -> the boss damage it deals when a threat (a sleeve) enters your hand upon
defeat."""


def boss_mat_hits(state: UnstoppableStateData, sleeve: int) -> list[tuple[int, str]]:
    """The boss damage the boss mat deals when the threat enters your hand upon defeat ("The Harbinger can be dealt 1
    boss damage when an Order Acolyte or Order Archivist enters your hand upon defeat"), each source read by kind:
    (amount, the member it names or "")."""
    hits = []
    for source in state.game.boss.boss_damage_sources:
        amount = DEFEAT_SOURCES[source.kind](state, source, sleeve)
        if amount:
            hits.append((amount, source.member))
    return hits


def boss_mat_damage(state: UnstoppableStateData, sleeve: int) -> int:
    """The boss damage the boss mat's sources would deal if the threat entered your hand upon defeat now, counting
    only what the boss can still take (a member down takes none)."""
    win = state.game.boss.win
    total = 0
    for amount, member in boss_mat_hits(state, sleeve):
        if member:
            amount = min(amount, win.amount - state.member_damage[win.members.index(member)])
        total += amount
    return total


def defeat_boss_damage(state: UnstoppableStateData, sleeve: int) -> int:
    """All the boss damage defeating the threat deals: the boss mat's and its bonus's (a boss card's)."""
    bonus = sum(effect.amount for effect in threat_of(state, sleeve).bonus if effect.kind == "boss_damage")
    return boss_mat_damage(state, sleeve) + bonus


def is_fast(state: UnstoppableStateData, sleeve: int) -> bool:
    """Whether the threat is Fast (it does not count toward the 3 active threats)."""
    return threat_keywords(state, sleeve).fast > 0


def visible_threats(state: UnstoppableStateData) -> tuple[int, ...]:
    """The active threats and the on-deck threat: the threats damage may target."""
    top = on_deck(state)
    return (*state.battlefield, top) if top != NONE else state.battlefield


def legal_targets(state: UnstoppableStateData, ignore_taunt: bool = False) -> tuple[int, ...]:
    """Threats a damage instance may target: any visible threat, or only the Taunt ones while one is visible
    ("you must target a Taunt threat with any damage effect unless stated otherwise")."""
    visible = visible_threats(state)
    if ignore_taunt:
        return visible
    taunting = tuple(s for s in visible if threat_keywords(state, s).taunt)
    return taunting or visible


# ---------------------------------------------------------------------------------------------- resolving
def can_resolve(state: UnstoppableStateData, sleeve: int, effect: Effect) -> bool:
    """Whether the effect can resolve now: its Level X+ condition, its keyword, and something for it to act on
    (a target for damage, a card to eliminate, an exhausted ally to refresh); "Effects that you cannot resolve ...
    are forfeited"."""
    if state.level < effect.level or not keyword_allows(state, sleeve, effect):
        return False
    kind = effect.kind
    if kind == "damage":
        return scaled(state, sleeve, effect)[1] > 0 and bool(legal_targets(state, effect.ignore_taunt))
    if kind == "eliminate":
        return bool(eliminable(state))
    if kind == "refresh":
        return bool(state.exhausted)
    return scaled(state, sleeve, effect)[0] > 0


def eliminable(state: UnstoppableStateData) -> tuple[int, ...]:
    """Cards an elimination may choose: "1 card in your hand, in your discard pile, or in play"."""
    return (*state.hand, *state.discard, *state.in_play)


def capped(value: int, gain: int, cap: int) -> int:
    """A gain that stops at the track's top ("If you gain ... when at the maximum, nothing happens")."""
    return min(cap, value + gain)


CAPS = {"health": MAX_HEALTH, "armor": MAX_ARMOR, "action_points": MAX_ACTION_POINTS}
"""The tracks with a maximum."""
