"""Helpers for Unstoppable rule scenarios: positions written with card names and built by `state_from_dict`.

A scenario starts from the dict of a real state after setup (seeded), and rewrites its zones: each zone is a list of
cards by name. A level-0 core ("Strike", "Spore Shield") or a starting threat ("Ceresan Thief", "Sporeling") names a
sleeve of the character deck holding it; any other core or threat names a drafted sleeve, made with that card and a
partner taken from the content still unused (a core of the highest level left, or a threat from the end of the
threat deck's list), or
with both named as "core / threat". The character-deck sleeves no zone names go to the discard pile. The piles lose
the cards the drafted sleeves hold, so validation sees every card once. The position is the Main Phase of turn 1
unless the test says otherwise (`stack`).

Decisions are taken by their labels as the player reads them (`act`), which name drafted cards and effects.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.game import CHANCE
from envs.unstoppable.game import UnstoppableGame
from envs.unstoppable.rules import UnstoppableState
from envs.unstoppable.validation import danger_spaces

CARDS = Path(__file__).resolve().parent / "cards"
"""The hand-made test cards."""
MAIN_PHASE_STACK = [
    {"seat": 0, "kind": "cleanup", "reason": "", "details": {}},
    {"seat": 0, "kind": "threat phase", "reason": "", "details": {}},
    {"seat": 0, "kind": "main phase", "reason": "", "details": {}},
]
"""The frames of a turn in its Main Phase: the Main Phase decision, then the Threat and Cleanup Phases."""


@functools.cache
def rules_game(difficulty: str = "normal", boss: str | None = None) -> UnstoppableGame:
    """The game on the hand-made cards (its character; its first boss, the Test Harbinger, or `boss`)."""
    return UnstoppableGame(difficulty=difficulty, boss=boss, card_directory=str(CARDS))


@functools.cache
def _setup_json(difficulty: str, seed: int, boss: str | None = None) -> str:
    state = rules_game(difficulty, boss).new_initial_state()
    rng = np.random.default_rng(seed)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    return json.dumps(state.to_dict())


def setup_dict(difficulty: str = "normal", seed: int = 0, boss: str | None = None) -> dict[str, Any]:
    """A fresh copy of the dict of a seeded game after setup (at its first decision)."""
    data: dict[str, Any] = json.loads(_setup_json(difficulty, seed, boss))
    return data


class _Builder:
    """Turns zone lists of card names into sleeves, taking drafted cards out of the piles."""

    def __init__(self, game: UnstoppableGame, data: dict[str, Any]) -> None:
        self.game = game
        self.data = data
        cards = game.cards
        self.sleeves: list[dict[str, Any]] = data["sleeves"][: game.character_deck_size]
        self.free_character = list(range(game.character_deck_size))
        # Partners are taken from the highest levels first, so the low core decks stay whole for drafts.
        self.core_left = {core.name: core.copies for core in sorted(cards.cores, key=lambda c: -c.level) if core.level}
        # Partner threats are taken from the end of the threat deck's list (the minions), away from the world threats
        # tests name.
        self.threat_left = {
            cards.threats[t].name: copies for t, copies in reversed(list(enumerate(game.initial_threat_deck))) if copies
        }

    def sleeve(self, spec: str, seen: bool = True) -> int:
        """The sleeve index a card spec names (a new drafted sleeve, or a free character-deck sleeve)."""
        cards = self.game.cards
        core_name, _, threat_name = (part.strip() for part in spec.partition("/"))
        names = {core.name: core for core in cards.cores}
        threats = {threat.name: threat for threat in cards.threats}
        if not threat_name and core_name in threats:
            core_name, threat_name = "", core_name
        starting = (core_name in names and names[core_name].level == 0) or (
            threat_name in threats and threats[threat_name].group == "starting"
        )
        if starting:
            for sleeve in self.free_character:
                record = self.sleeves[sleeve]
                if core_name in ("", record["core"]) and threat_name in ("", record["threat"]):
                    self.free_character.remove(sleeve)
                    return sleeve
            raise AssertionError(f"no free character-deck sleeve holds {spec!r}")
        core_name = core_name or next(name for name, left in self.core_left.items() if left)
        threat_name = threat_name or next(name for name, left in self.threat_left.items() if left)
        for pile, name in ((self.core_left, core_name), (self.threat_left, threat_name)):
            assert pile.get(name, 0) > 0, f"{name!r} is not left to draft or sleeve (in {spec!r})"
            pile[name] -= 1
        self.sleeves.append({"core": core_name, "threat": threat_name, "seen": seen})
        return len(self.sleeves) - 1

    def piles(self) -> None:
        """The core decks and the threat deck without the drafted cards (nothing known in them)."""
        cards = self.game.cards
        self.data["core_decks"] = [
            {
                "unknown": {
                    core.name: self.core_left[core.name]
                    for core in cards.cores
                    if core.level == level and self.core_left[core.name]
                },
                "top": [],
                "bottom": [],
            }
            for level in range(1, 7)
        ]
        self.data["threat_deck"] = {
            "unknown": {name: left for name, left in self.threat_left.items() if left},
            "top": [],
            "bottom": [],
        }


def scenario_dict(
    hand: Sequence[str] = (),
    in_play: Sequence[str] = (),
    battlefield: Sequence[str] = (),
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    exhausted: Sequence[str] = (),
    unseen: Sequence[str] = (),
    difficulty: str = "normal",
    stack: list[dict[str, Any]] | None = None,
    core_tops: bool = True,
    upgrades: dict[str, dict[str, str]] | None = None,
    damage: dict[str, int] | None = None,
    boss: str | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """The dict of a position: zones of card specs (the deck's first card is the on-deck threat, the rest unknown;
    `exhausted` names allies of `in_play`; `unseen` names hand cards whose threat the player has not seen), the
    player mat's fields as keywords, the Main Phase of turn 1 unless `stack` says otherwise (with `danger` given, of
    the turn the marker stands on that space; in a Cleanup Phase past the marker's advance, on the space it advanced
    to). With `core_tops`, each
    core deck shows a top card, as a face-up deck does. `upgrades` slides upgrades into the first sleeve whose core
    or threat has a name ({"Strike": {"bottom": "Frenzy Serum"}}), taking them from the market or the upgrade deck;
    `damage` puts damage on the first sleeve of a name; `boss` plays another boss of the hand-made cards."""
    game = rules_game(difficulty, boss)
    data = setup_dict(difficulty, boss=boss)
    builder = _Builder(game, data)
    zones: dict[str, list[int]] = {}
    for zone, specs in (
        ("hand", hand),
        ("in_play", in_play),
        ("battlefield", battlefield),
        ("deck", deck),
        ("discard", discard),
    ):
        zones[zone] = [builder.sleeve(spec) for spec in specs]
    for spec in unseen:
        sleeve = builder.sleeve(spec, seen=False)
        zones["hand"].append(sleeve)
    zones["discard"] += builder.free_character
    builder.piles()
    if core_tops:
        for pile in data["core_decks"]:
            if pile["unknown"]:
                name = next(iter(pile["unknown"]))
                pile["unknown"][name] -= 1
                if not pile["unknown"][name]:
                    del pile["unknown"][name]
                pile["top"] = [name]
    names = [record["core"] for record in builder.sleeves]
    data.update(
        sleeves=builder.sleeves,
        hand=zones["hand"],
        in_play=zones["in_play"],
        exhausted=[zones["in_play"][[names[s] for s in zones["in_play"]].index(name)] for name in exhausted],
        battlefield=zones["battlefield"],
        deck={"top": zones["deck"][:1], "unknown": sorted(zones["deck"][1:]), "bottom": []},
        discard=zones["discard"],
        eliminated=[],
        draft=[],
        turn=1,
        phase="MAIN",
        repeats=[],
        action_points=3,
        stack=stack if stack is not None else [dict(frame) for frame in MAIN_PHASE_STACK],
    )
    if "danger" in fields and "turn" not in fields:  # the marker advances once a turn: the turn it stands on then
        data["turn"] = danger_spaces(game).index(fields["danger"]) + 1
    data.update(fields)
    advanced = data["phase"] == "CLEANUP" and all(frame["kind"] != "advance danger" for frame in data["stack"])
    if advanced and "danger" not in fields:  # this turn's advance has resolved
        data["danger"] = danger_spaces(game)[data["turn"]]
    for name, cutouts in (upgrades or {}).items():
        record = _first_sleeve(game, builder.sleeves, name)
        for cutout, upgrade in cutouts.items():
            record[cutout] = upgrade
            if upgrade in data["market"]:
                data["market"][data["market"].index(upgrade)] = None
            else:
                unknown = data["upgrade_deck"]["unknown"]
                assert unknown.get(upgrade), f"{upgrade!r} is in neither the market nor the upgrade deck"
                unknown[upgrade] -= 1
                if not unknown[upgrade]:
                    del unknown[upgrade]
    for name, amount in (damage or {}).items():
        _first_sleeve(game, builder.sleeves, name)["damage"] = amount
    return data


def _first_sleeve(game: UnstoppableGame, sleeves: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """The first saved sleeve whose core or threat is called `name`."""
    for record in sleeves:
        if name in (record["core"], record["threat"]):
            return record
    raise AssertionError(f"no sleeve holds {name!r}")


def scenario(*args: Any, **kwargs: Any) -> UnstoppableState:
    """The position `scenario_dict(...)` describes, built and checked by `state_from_dict`."""
    return rules_game(kwargs.get("difficulty", "normal"), kwargs.get("boss")).state_from_dict(
        scenario_dict(*args, **kwargs)
    )


# ---------------------------------------------------------------------------------------------- playing
def labels(state: UnstoppableState) -> list[str]:
    """The legal actions as the player reads them."""
    return [state.action_label_for(action, 0) for action in state.legal_actions()]


def act(state: UnstoppableState, label: str) -> None:
    """Take the one legal action whose label (as the player reads it) contains `label`."""
    legal = state.legal_actions()
    matches = [action for action in legal if label in state.action_label_for(action, 0)]
    assert len(matches) == 1, f"{len(matches)} legal actions match {label!r}: {labels(state)}"
    state.apply_action(matches[0])


def sleeve_named(state: UnstoppableState, name: str, nth: int = 0) -> int:
    """The `nth` sleeve whose core or threat is called `name`."""
    cards = state.game.cards
    found = [
        s
        for s, sleeve in enumerate(state.sleeves)
        if name in (cards.cores[sleeve.core].name, cards.threats[sleeve.threat].name)
    ]
    assert len(found) > nth, f"no sleeve {nth} named {name!r}"
    return found[nth]


def target(state: UnstoppableState, threat: str, nth: int = 0) -> None:
    """Deal the pending damage instance to the threat called `threat`."""
    state.apply_action(state.game.actions.target + sleeve_named(state, threat, nth))


def reveal(state: UnstoppableState, name: str) -> None:
    """At a chance reveal of your deck, reveal the card called `name` (a core or threat name of the sleeve)."""
    assert state.current_player() == CHANCE, f"expected a chance event, the player decides {state.decision()}"
    sleeve = sleeve_named(state, name)
    assert sleeve in dict(state.chance_outcomes()), f"{name} cannot be revealed now"
    state.apply_action(sleeve)


def chance(state: UnstoppableState, outcome: int) -> None:
    """Apply a chance outcome the test picks."""
    assert state.current_player() == CHANCE
    assert outcome in dict(state.chance_outcomes()), f"{outcome} is not an outcome of {state.stack[-1].kind}"
    state.apply_action(outcome)


def top_kind(state: UnstoppableState) -> str:
    """The kind of the frame on top (what the state waits for)."""
    return str(state.stack[-1].kind) if state.stack else "terminal"
