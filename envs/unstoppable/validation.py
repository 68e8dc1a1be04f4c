"""Unstoppable positions that cannot happen, refused by `StateFormatError` naming the field.

`UnstoppableStateData.from_dict` decodes every field by its declaration (names, sizes, bounds); `validate_state`
checks what a field alone cannot say: the sleeve table against the character deck and the content, every sleeve in
exactly one zone, every card of the content somewhere exactly once (cores, threats, upgrades), the piles' known
cards, the player mat's ranges, this turn's repeat counts, and the frame stack (each frame's details: its kind's,
of the right type, naming slots and cards that exist; which frames may sit above which: the pending steps of setup
and of the turn at the bottom in the rulebook's order, every other frame above them). A position a game reaches
always passes (tests/unstoppable/test_state_dicts.py rebuilds every state of random games from its dict).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import TYPE_CHECKING

from envs.core.engine import new_frame
from envs.core.game import StateFormatError
from envs.unstoppable.cards import MAX_EFFECTS, MAX_LEVEL, SKIPPED_BORDER
from envs.unstoppable.effects import (
    BONUS,
    DRAFT_SIZE,
    EXHAUST,
    MODES,
    PLAY,
    REPEAT_LIMIT,
    SLOTS,
    boss_defeated,
    card_effects,
    on_deck,
    threat_health,
)
from envs.unstoppable.state import MARKET_SIZE, MAX_SLEEVES, NONE, Kind, Phase

if TYPE_CHECKING:
    from envs.core.decisions import DecisionFrame
    from envs.unstoppable.game import UnstoppableGame
    from envs.unstoppable.state import UnstoppableStateData

ZONES = ("hand", "in_play", "battlefield", "discard", "eliminated")
"""The zones listed by sleeve (the deck is the sixth)."""


def validate_state(state: UnstoppableStateData) -> None:
    """Refuse a position no game reaches; StateFormatError names the first field found wrong."""
    _check_sleeves(state)
    _check_zones(state)
    _check_cores(state)
    _check_threats(state)
    _check_upgrades(state)
    _check_player(state)
    _check_repeats(state)
    _check_stack(state)
    _check_danger(state)
    _check_lethal_damage(state)
    _check_decisions(state)


def _check_sleeves(state: UnstoppableStateData) -> None:
    game = state.game
    cards = game.cards
    deck = game.character_deck
    if not len(deck) <= len(state.sleeves) <= MAX_SLEEVES:
        raise StateFormatError(
            "sleeves", f"expected the {len(deck)} character-deck sleeves and the drafted ones, got {len(state.sleeves)}"
        )
    for index, sleeve in enumerate(state.sleeves):
        where = f"sleeves[{index}]"
        core, threat = cards.cores[sleeve.core], cards.threats[sleeve.threat]
        if index < len(deck):
            if (sleeve.core, sleeve.threat) != deck[index]:
                expected = f"{cards.cores[deck[index][0]].name} / {cards.threats[deck[index][1]].name}"
                raise StateFormatError(where, f"the character deck's sleeve {index + 1} holds {expected}")
            if not sleeve.seen:
                raise StateFormatError(
                    f"{where}.seen", "the character deck is sleeved by the player: its threats are seen"
                )
        else:
            if core.level == 0:
                raise StateFormatError(
                    f"{where}.core", f"{core.name} is a level-0 core: only levelled cores are drafted"
                )
            if threat.group == "starting":
                raise StateFormatError(
                    f"{where}.threat", f"{threat.name} is a starting threat, never in the threat deck"
                )
        for cutout in ("top", "bottom"):
            upgrade = getattr(sleeve, cutout)
            if upgrade == NONE:
                continue
            record = cards.upgrades[upgrade]
            if record.cutout != cutout:
                raise StateFormatError(f"{where}.{cutout}", f"{record.name} has a {record.cutout} cutout")
            if record.requirement not in ("any", core.type):
                raise StateFormatError(f"{where}.{cutout}", f"{record.name} goes on a {record.requirement} only")


def _check_zones(state: UnstoppableStateData) -> None:
    count = len(state.sleeves)
    seen: dict[int, str] = {}
    deck = state.deck
    for zone, members in (
        *((name, getattr(state, name)) for name in ZONES),
        ("deck", (*deck.top, *deck.unknown, *deck.bottom)),
    ):
        for sleeve in members:
            if sleeve >= count:
                raise StateFormatError(zone, f"sleeve {sleeve} does not exist (the table has {count} sleeves)")
            if sleeve in seen:
                raise StateFormatError(zone, f"sleeve {sleeve} is also in {seen[sleeve]}")
            seen[sleeve] = zone
    missing = [sleeve for sleeve in range(count) if sleeve not in seen]
    if missing:
        raise StateFormatError("sleeves", f"sleeves {missing} are in no zone (every sleeve is somewhere once)")
    cores = state.game.cards.cores
    for sleeve in state.exhausted:
        if sleeve not in state.in_play or cores[state.sleeves[sleeve].core].type != "ally":
            raise StateFormatError("exhausted", f"sleeve {sleeve} is not an ally in play")
    if len(set(state.exhausted)) != len(state.exhausted):
        raise StateFormatError("exhausted", "a sleeve is listed twice")
    if len(deck.top) > 1 or deck.bottom:
        raise StateFormatError("deck", "only the on-deck threat (the top card) of your deck is known")
    visible = set(state.battlefield) | ({on_deck(state)} - {NONE})
    for sleeve, record in enumerate(state.sleeves):
        if record.damage and sleeve not in visible:
            raise StateFormatError(f"sleeves[{sleeve}].damage", "damage stays on a threat only while it is a threat")
        if sleeve in visible and not record.seen:
            raise StateFormatError(f"sleeves[{sleeve}].seen", "a threat on the battlefield or on deck is seen")


REVEALS_CORE = (Kind.REVEAL_CORE, Kind.DRAFT_DRAW)
"""The frames that reveal a core deck's next top card (a draft draws it, then reveals the next)."""


def _check_cores(state: UnstoppableStateData) -> None:
    cards = state.game.cards
    held: Counter[int] = Counter(state.draft)
    for level, deck in enumerate(state.core_decks, start=1):
        for core, copies in enumerate(deck.counts()):
            if copies and cards.cores[core].level != level:
                raise StateFormatError(
                    f"core_decks[{level - 1}]", f"{cards.cores[core].name} is a level-{cards.cores[core].level} core"
                )
            held[core] += copies
        revealing = any(frame.kind in REVEALS_CORE and frame.detail("level") == level for frame in state.stack)
        if len(deck) and not deck.top and deck.unknown_size and not revealing:
            raise StateFormatError(
                f"core_decks[{level - 1}]", "a face-up core deck shows its top card (unless its reveal is pending)"
            )
    for sleeve in state.sleeves[state.game.character_deck_size :]:
        held[sleeve.core] += 1
    held.update(frame.detail("core") for frame in state.stack if frame.kind == Kind.SLEEVE)  # kept, being sleeved
    for core, card in enumerate(cards.cores):
        expected = card.copies if 1 <= card.level <= MAX_LEVEL else 0
        if held[core] != expected:
            raise StateFormatError(
                "core_decks", f"{card.name}: {expected} copies in the core decks and drafted, got {held[core]}"
            )
    if state.draft and not _pending(state, Kind.DRAFT, Kind.DRAFT_DRAW):
        raise StateFormatError("draft", "cores are drawn only while a draft is pending")


def _check_threats(state: UnstoppableStateData) -> None:
    game = state.game
    held = Counter({card: copies for card, copies in enumerate(state.threat_deck.counts()) if copies})
    held.update({card: copies for card, copies in enumerate(state.boss_deck.counts()) if copies})
    held.update(sleeve.threat for sleeve in state.sleeves[game.character_deck_size :])
    expected = Counter({card: copies for card, copies in enumerate(game.initial_threats) if copies})
    if held != expected:
        names = game.cards.threats
        difference = {
            names[card].name: held[card] - expected[card]
            for card in set(held) | set(expected)
            if held[card] != expected[card]
        }
        raise StateFormatError(
            "threat_deck",
            f"the threat deck, boss deck and drafted sleeves hold the wrong threats (copies off by {difference})",
        )
    if state.threat_deck.top or state.threat_deck.bottom:
        raise StateFormatError("threat_deck", "the threat deck is face down: no card of it is known")
    boss = game.boss
    if not boss.boss_deck_shuffled:
        # An unshuffled boss deck gives its cards from the top in the mat's order: what is left is the order's tail.
        listed = game.cards.boss_deck(boss)
        deck = state.boss_deck
        if deck.unknown_size or deck.bottom or deck.top != listed[len(listed) - len(deck.top) :]:
            order = [game.cards.threats[card].name for card in listed]
            raise StateFormatError("boss_deck", f"the boss deck keeps the mat's order, top first: the end of {order}")


def _check_upgrades(state: UnstoppableStateData) -> None:
    cards = state.game.cards
    held: Counter[int] = Counter({card: copies for card, copies in enumerate(state.upgrade_deck.counts()) if copies})
    held.update(upgrade for upgrade in state.market if upgrade != NONE)
    for sleeve in state.sleeves:
        held.update(upgrade for upgrade in (sleeve.top, sleeve.bottom) if upgrade != NONE)
    for index, upgrade in enumerate(cards.upgrades):
        if held[index] != upgrade.copies:
            raise StateFormatError(
                "upgrade_deck", f"{upgrade.name}: {upgrade.copies} copies exist, the state holds {held[index]}"
            )
    if state.upgrade_deck.top:
        raise StateFormatError(
            "upgrade_deck", "the upgrade deck is face down: only cycled upgrades are known (at its bottom)"
        )


def _check_members(state: UnstoppableStateData) -> None:
    """A boss with members: one damage entry per member, none above what it takes, and the boss damage their sum; a
    boss without members: none."""
    win = state.game.boss.win
    if len(state.member_damage) != len(win.members):
        raise StateFormatError(
            "member_damage",
            f"one entry per member of {state.game.boss.name} ({len(win.members)}), got {len(state.member_damage)}",
        )
    for index, damage in enumerate(state.member_damage):
        if damage > win.amount:
            raise StateFormatError(f"member_damage[{index}]", f"a member takes at most {win.amount} boss damage")
    if win.members and sum(state.member_damage) != state.boss_damage:
        raise StateFormatError("boss_damage", "on a boss with members the boss damage is what its members took")


def _check_player(state: UnstoppableStateData) -> None:
    game = state.game
    if state.small_level < state.level:
        raise StateFormatError(
            "small_level", f"the small disc ({state.small_level}) is never behind the large one ({state.level})"
        )
    if state.danger > game.max_danger:
        raise StateFormatError("danger", f"the danger track has spaces 0..{game.max_danger}, got {state.danger}")
    if game.boss.danger_track[state.danger].border == _skipped(state) and state.danger:
        raise StateFormatError("danger", f"space {state.danger} is skipped on {game.difficulty} difficulty")
    _check_members(state)
    ended = state.health <= 0 or state.danger >= game.max_danger or boss_defeated(state)
    if ended != state.over:
        raise StateFormatError(
            "over", "the game is over exactly when health is 0, Maximum Danger is reached or the boss is defeated"
        )
    if state.over and state.stack:
        raise StateFormatError("stack", "the game is over, yet frames are pending")
    if state.won != (state.over and state.health > 0 and boss_defeated(state)):
        raise StateFormatError("won", "won means the game ended with the boss defeated")
    if state.phase == Phase.SETUP and state.turn:
        raise StateFormatError("phase", "setup ends before the first turn")
    if state.phase != Phase.SETUP and not state.turn:
        raise StateFormatError("turn", f"the {state.phase.name.lower()} phase belongs to a turn: turns count from 1")


@functools.lru_cache(maxsize=16)
def danger_spaces(game: UnstoppableGame) -> tuple[int, ...]:
    """The danger-track space the marker stands on after 0, 1, 2, ... advances: the first "0" space, then each space
    the game's difficulty does not skip, the last one Maximum Danger ("Advance the danger marker 1 space on the
    danger track" each Cleanup Phase; "skip all spaces with a green border" on Normal)."""
    track = game.boss.danger_track
    skipped = SKIPPED_BORDER[game.difficulty]
    return (0, *(space for space in range(1, len(track)) if track[space].border != skipped))


def danger_advances(state: UnstoppableStateData) -> int:
    """How many times the danger marker has advanced: once in each Cleanup Phase of the turns played, so one fewer
    than the turn until this turn's advance resolves (none during setup). A game never ends in the Cleanup Phase
    before the advance: nothing there deals damage to you or to the boss."""
    if state.phase == Phase.SETUP:
        return 0
    advanced = state.phase == Phase.CLEANUP and not _pending(state, Kind.ADVANCE_DANGER)
    return state.turn if advanced else state.turn - 1


def _check_danger(state: UnstoppableStateData) -> None:
    spaces = danger_spaces(state.game)
    advances = danger_advances(state)
    if advances >= len(spaces):
        raise StateFormatError(
            "turn",
            f"the danger track allows {len(spaces) - 1} turns on {state.game.difficulty} difficulty "
            f"(the marker advances once a turn), got turn {state.turn}",
        )
    if state.danger != spaces[advances]:
        phase = state.phase.name.lower()
        raise StateFormatError(
            "danger",
            f"the marker advances once a turn, in the Cleanup Phase: after {advances} advance(s) (turn {state.turn}, "
            f"{phase} phase) it stands on space {spaces[advances]}, got {state.danger}",
        )


def _check_lethal_damage(state: UnstoppableStateData) -> None:
    """A threat whose damage reaches its health is defeated at once ("the threat is defeated once its damage reaches
    its health"): such a threat on the battlefield or on deck has its defeat pending."""
    defeating = {frame.detail("sleeve") for frame in state.stack if frame.kind == Kind.DEFEAT}
    for sleeve in (*state.battlefield, *state.deck.top):
        damage = state.sleeves[sleeve].damage
        if damage and damage >= threat_health(state, sleeve) and sleeve not in defeating:
            raise StateFormatError(
                f"sleeves[{sleeve}].damage",
                f"{damage} damage defeats this threat (health {threat_health(state, sleeve)}), yet no defeat of it "
                "is pending",
            )


def _check_decisions(state: UnstoppableStateData) -> None:
    bound = state.game.spec.max_game_length
    if state.decisions > bound:
        raise StateFormatError(
            "decisions", f"a game lasts at most {bound} decisions (the spec's max_game_length), got {state.decisions}"
        )


def _skipped(state: UnstoppableStateData) -> str:
    return SKIPPED_BORDER[state.game.difficulty]


def _check_repeats(state: UnstoppableStateData) -> None:
    keys = set()
    for index, (sleeve, effect, times) in enumerate(state.repeats):
        where = f"repeats[{index}]"
        if sleeve >= len(state.sleeves):
            raise StateFormatError(where, f"sleeve {sleeve} does not exist")
        if effect >= MODES * SLOTS:
            raise StateFormatError(where, f"effect id {effect} is not one of 0..{MODES * SLOTS - 1}")
        if not 1 <= times <= REPEAT_LIMIT:
            raise StateFormatError(where, f"an effect resolves 1..{REPEAT_LIMIT} times a turn, got {times}")
        if (sleeve, effect) in keys:
            raise StateFormatError(where, "the same effect of the same card is counted twice")
        keys.add((sleeve, effect))


FRAME_DETAILS: dict[str, tuple[str, ...]] = {
    Kind.REVEAL_CORE: ("level",),
    Kind.MARKET: ("slot",),
    Kind.DEAL: ("to",),
    Kind.DRAFT_DRAW: ("left", "level"),
    Kind.DRAFT: ("level",),
    Kind.SLEEVE: ("core", "level"),
    Kind.EFFECT: ("left", "mode", "sleeve"),
    Kind.TARGET: ("amount", "ignore_taunt", "mode", "slot", "sleeve"),
    Kind.ELIMINATE: ("optional", "sleeve"),
    Kind.REFRESH: ("sleeve",),
    Kind.DANGER: ("effect",),
    Kind.REFILL: ("leveled",),
    Kind.DEFEAT: ("sleeve",),
    Kind.CRAZED: ("sleeve",),
    Kind.BONUS: ("index", "sleeve"),
    Kind.REPEAT_LIMIT: ("sleeve",),
}
"""The details each frame kind carries (sorted, as frames keep them); every other kind carries none."""
DEAL_DESTINATIONS = ("hand", "battlefield")
DANGER_EFFECTS = ("eliminate", "market_cycle")
MAX_DAMAGE_AMOUNT = 10**4
"""Bound on a pending damage instance's amount (an X of Focus or Unite times the icon's amount)."""


TURN_STEPS = (
    Kind.START_TURN,
    Kind.DRAFT_START,
    Kind.MAIN_START,
    Kind.THREAT_PHASE,
    Kind.CLEANUP,
    Kind.REFILL,
    Kind.ADVANCE_DANGER,
    Kind.END_TURN,
)
"""The steps of a turn in the order they run: pending ones sit on the stack in reverse (the next one on top)."""
SOLO_SEAT = 0
"""The seat of the expected steps (the seat of a pending frame is checked by `check_frames`, not here)."""
PENDING_STEPS: dict[Phase, tuple[str, ...]] = {
    Phase.UPKEEP: (Kind.CLEANUP, Kind.THREAT_PHASE, Kind.MAIN_START, Kind.DRAFT_START),
    Phase.DRAFT: (Kind.CLEANUP, Kind.THREAT_PHASE, Kind.MAIN_START),
    Phase.MAIN: (Kind.CLEANUP, Kind.THREAT_PHASE),
    Phase.THREAT: (Kind.CLEANUP,),
}
"""The turn's steps pending in each phase before Cleanup, bottom of the stack first: the Upkeep pushes the four
phases on an emptied stack, and each phase step sets the phase as it resolves."""
CLEANUP_STEPS = (Kind.END_TURN, Kind.ADVANCE_DANGER, Kind.REFILL)
"""The steps Cleanup pushes, bottom first: in the Cleanup phase a tail of them is pending (at least the end of the
turn), or the next turn's start that the end of the turn pushed."""


def _check_stack(state: UnstoppableStateData) -> None:
    state.check_frames(1)  # type: ignore[attr-defined]
    for index, frame in enumerate(state.stack):
        _check_frame_details(state, frame, f"stack[{index}]")
    _check_steps(state)
    if (
        state.deck.unknown
        and not state.deck.top
        and state.stack
        and not _pending(state, Kind.REVEAL, Kind.DEAL, Kind.RESHUFFLE)
    ):
        raise StateFormatError("deck", "your deck shows its on-deck threat (its top card) unless a reveal is pending")
    if state.deck.top and _pending(state, Kind.REVEAL):
        raise StateFormatError("deck", "a reveal of the on-deck threat is pending: the deck shows no top card yet")


def _check_steps(state: UnstoppableStateData) -> None:
    """Which frames may sit above which. The steps of setup and of the turn are pushed on an emptied stack in the
    rulebook's order, so the pending ones are the bottom of the stack, the next one on top: a tail of setup's draws
    (the first turn's start beneath them) during setup, the phases still to come during a turn. Every other frame
    is pushed by a step or a card and sits above them; it is never one of them (a deal happens only at setup; the
    market and the core decks are filled at setup before any card is dealt), and a reveal of a new on-deck threat is
    pushed when the on-deck card leaves the deck and resolves first, so it is pending only on top of the stack."""
    stack = state.stack
    if state.over:
        return  # an ended game has no frames (_check_player)
    steps, least = _expected_steps(state)
    below = 0
    while below < min(len(stack), len(steps)) and _same_step(stack[below], steps[below]):
        below += 1
    phase = state.phase.name.lower()
    if below < least:
        names = ", ".join(repr(str(step.kind)) for step in steps[:least])
        found = repr(str(stack[below].kind)) if below < len(stack) else "nothing"
        raise StateFormatError(
            f"stack[{below}].kind" if below < len(stack) else "stack",
            f"in the {phase} phase the pending steps {names} are the bottom of the stack in this order, got {found}",
        )
    others: set[str] = {*TURN_STEPS, Kind.DEAL}
    if state.phase == Phase.SETUP:
        setup_reveal_pending = any(step.kind == Kind.REVEAL for step in stack[:below])
        others |= {step.kind for step in steps} - ({Kind.REVEAL} if not setup_reveal_pending else set())
    for index in range(below, len(stack)):
        kind = stack[index].kind
        if kind in others:
            raise StateFormatError(
                f"stack[{index}].kind",
                f"{str(kind)!r} is a step of setup or of the turn: the pending steps are the bottom of the stack, in "
                "the rulebook's order, and every other frame sits above them",
            )
        if kind == Kind.REVEAL and index != len(stack) - 1:
            raise StateFormatError(
                f"stack[{index}].kind",
                f"{str(kind)!r} resolves as soon as the on-deck card leaves the deck: it is pending only on top",
            )


def _expected_steps(state: UnstoppableStateData) -> tuple[tuple[DecisionFrame, ...], int]:
    """The steps that may be pending at the bottom of the stack in the state's phase (bottom first), and how many
    of them at least."""
    if state.phase == Phase.SETUP:
        return setup_steps(state.game), 1
    if state.phase == Phase.CLEANUP:
        if state.stack and state.stack[0].kind == Kind.START_TURN:
            return (new_frame(SOLO_SEAT, Kind.START_TURN),), 1
        return tuple(new_frame(SOLO_SEAT, kind) for kind in CLEANUP_STEPS), 1
    pending = PENDING_STEPS[state.phase]
    return tuple(new_frame(SOLO_SEAT, kind) for kind in pending), len(pending)


def _same_step(frame: DecisionFrame, step: DecisionFrame) -> bool:
    """Whether a pending frame is that step: the same kind with the same details (a refill's `leveled` aside: it
    says whether the refill has levelled up already, and either is the refill step)."""
    return frame.kind == step.kind and (frame.details == step.details or step.kind == Kind.REFILL)


@functools.lru_cache(maxsize=16)
def setup_steps(game: UnstoppableGame) -> tuple[DecisionFrame, ...]:
    """Setup's pending frames in a game before its first draw, bottom of the stack first (the first turn's start,
    the reveal of the on-deck threat, the deals, the market, the core decks' reveals): the game pushes them."""
    return tuple(game.new_initial_state().stack)


def _pending(state: UnstoppableStateData, *kinds: str) -> bool:
    """Whether a frame of one of `kinds` is on the stack."""
    return any(frame.kind in kinds for frame in state.stack)


def _integer(value: object, low: int, high: int) -> bool:
    """Whether `value` is an integer (not a bool) in low..high."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_frame_details(state: UnstoppableStateData, frame: DecisionFrame, where: str) -> None:
    """A frame carries exactly its kind's details, each of the right type and in range, naming cards and slots that
    exist: the sleeve it resolves, the effect slots left of its mode, the draft's level."""
    required = FRAME_DETAILS.get(frame.kind, ())
    keys = tuple(key for key, _ in frame.details)
    for key in keys:
        if key not in required:
            expected = ", ".join(required) or "none"
            raise StateFormatError(f"{where}.details.{key}", f"{frame.kind!r} has no such detail (it has: {expected})")
    for key in required:
        if key not in keys:
            raise StateFormatError(f"{where}.details.{key}", f"missing ({frame.kind!r} needs {', '.join(required)})")
    sleeves = len(state.sleeves)
    for key, value in frame.details:
        path = f"{where}.details.{key}"
        if key in ("ignore_taunt", "optional", "leveled"):
            ok, expected = isinstance(value, bool), "true or false"
        elif key == "sleeve":
            low = NONE if frame.kind == Kind.ELIMINATE else 0
            ok, expected = _integer(value, low, sleeves - 1), f"a sleeve 0..{sleeves - 1}"
        elif key == "level":
            ok, expected = _integer(value, 1, MAX_LEVEL), f"a level 1..{MAX_LEVEL}"
        elif key == "slot":
            top = MARKET_SIZE - 1 if frame.kind == Kind.MARKET else SLOTS - 1
            ok, expected = _integer(value, 0, top), f"a slot 0..{top}"
        elif key == "mode":
            ok, expected = _integer(value, 0, MODES - 1), f"a mode 0..{MODES - 1}"
        elif key == "amount":
            ok, expected = _integer(value, 1, MAX_DAMAGE_AMOUNT), f"damage 1..{MAX_DAMAGE_AMOUNT}"
        elif key == "index":
            ok, expected = _integer(value, 0, MAX_EFFECTS), f"an effect index 0..{MAX_EFFECTS}"
        elif key == "to":
            ok, expected = value in DEAL_DESTINATIONS, " or ".join(DEAL_DESTINATIONS)
        elif key == "effect":
            ok, expected = value in DANGER_EFFECTS, " or ".join(DANGER_EFFECTS)
        elif key == "left" and frame.kind == Kind.DRAFT_DRAW:
            ok, expected = _integer(value, 0, DRAFT_SIZE), f"cores left to draw 0..{DRAFT_SIZE}"
        elif key == "left":
            ok = isinstance(value, tuple) and all(_integer(slot, 0, SLOTS - 1) for slot in value)
            ok = ok and len(set(value)) == len(value)
            expected = f"distinct effect slots 0..{SLOTS - 1}"
        else:  # core: decoded by name (a core of the content)
            ok, expected = _integer(value, 0, len(state.game.cards.cores) - 1), "a core"
        if not ok:
            raise StateFormatError(path, f"expected {expected}, got {value!r}")
    _check_frame_meaning(state, frame, where)


def _check_frame_meaning(state: UnstoppableStateData, frame: DecisionFrame, where: str) -> None:
    """What a frame's details name exists: the effect slots of its card's mode, its bonus, its draft's level."""
    cores = state.game.cards.cores
    if frame.kind == Kind.EFFECT:
        sleeve, mode = frame.detail("sleeve"), frame.detail("mode")
        icons = len(cores[state.sleeves[sleeve].core].exhaust)
        if mode == BONUS or (mode != PLAY and mode - EXHAUST >= icons):
            raise StateFormatError(
                f"{where}.details.mode", f"sleeve {sleeve} has no mode {mode} to resolve (play and {icons} icon(s))"
            )
        slots = {slot for slot, _ in card_effects(state, sleeve, mode)}
        unknown = sorted(set(frame.detail("left")) - slots)
        if unknown:
            raise StateFormatError(f"{where}.details.left", f"sleeve {sleeve} has no effect in slot(s) {unknown}")
    elif frame.kind == Kind.BONUS:
        sleeve = frame.detail("sleeve")
        bonus = state.game.cards.threats[state.sleeves[sleeve].threat].bonus
        if frame.detail("index") > len(bonus):
            raise StateFormatError(
                f"{where}.details.index", f"the threat of sleeve {sleeve} has {len(bonus)} bonus(es)"
            )
    elif frame.kind in (Kind.DRAFT_DRAW, Kind.DRAFT, Kind.SLEEVE) and frame.detail("level") != state.small_level:
        raise StateFormatError(
            f"{where}.details.level", f"the draft is from the small disc's deck (level {state.small_level})"
        )
    if frame.kind == Kind.DRAFT:
        wrong = [cores[core].name for core in state.draft if cores[core].level != frame.detail("level")]
        if wrong:
            raise StateFormatError(
                f"{where}.details.level", f"the draft's cores {wrong} are not of level {frame.detail('level')}"
            )
