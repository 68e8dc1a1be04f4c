"""Every action id and every chance outcome has a label, and a label that concerns a card names it (issue 20: "Every
id has a label naming its card; every chance outcome has a label naming the card revealed")."""

from __future__ import annotations

import numpy as np

from envs.core.game import CHANCE
from envs.unstoppable.cards import MAX_EXHAUST_ICONS
from envs.unstoppable.effects import BONUS, core_of, threat_of
from envs.unstoppable.game import UnstoppableGame
from envs.unstoppable.rules import UnstoppableState
from envs.unstoppable.state import MAX_SLEEVES, Kind

GAMES = 8
"""Seeded games (greedy and random in turn) whose every decision and chance node is checked."""


def played_states(game: UnstoppableGame, seed: int) -> list[UnstoppableState]:
    """Clones of every decision and chance node of seeded games (greedy play every other game reaches buys, allies,
    level-ups and the danger track's effects)."""
    rng = np.random.default_rng(seed)
    states = []
    for index in range(GAMES):
        state = game.new_initial_state()
        while not state.is_terminal():
            states.append(state.clone())
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if index % 2:
                legal = [action for action in legal if action != game.actions.end_main] or legal
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def names_in_label(state: UnstoppableState, action: int) -> list[str]:
    """The card names an action's label must hold, by its group: the card of its sleeve (a threat for a target, its
    core otherwise), the upgrade of its market slot, the core drafted, the resolving card."""
    actions = state.game.actions
    cards = state.game.cards
    group, index = actions.codec.decode(action)
    if group in ("play", "eliminate", "refresh", "discard"):
        return [core_of(state, index).name]
    if group == "exhaust":
        return [core_of(state, index // MAX_EXHAUST_ICONS).name]
    if group == "target":
        return [threat_of(state, index).name]
    if group == "buy":
        slot, sleeve = divmod(index, MAX_SLEEVES)
        return [cards.upgrades[state.market[slot]].name, core_of(state, sleeve).name]
    if group == "cycle":
        return [cards.upgrades[state.market[index]].name]
    if group == "draft":
        return [cards.cores[index].name]
    if group == "effect":
        frame = state.decision()
        assert frame is not None
        return [core_of(state, frame.detail("sleeve")).name]
    return []


def test_every_legal_action_has_a_label_naming_its_card() -> None:
    """At every decision of seeded games, each legal action's label as the player reads it names the card it acts
    on; every group that concerns a card is met (the games reach buys, exhausts, targets, drafts and effects)."""
    game = UnstoppableGame()
    groups = set()
    for state in played_states(game, seed=1):
        if state.current_player() == CHANCE:
            continue
        for action in state.legal_actions():
            label = state.action_label_for(action, 0)
            assert label and label.startswith(game.actions.codec.decode(action)[0]), label
            for name in names_in_label(state, action):
                assert name in label, f"{label!r} does not name {name!r}"
            groups.add(game.actions.codec.decode(action)[0])
    assert {"play", "exhaust", "target", "buy", "draft", "effect", "end main phase"} <= groups


def test_every_action_id_has_a_static_label() -> None:
    """Every id of the action space has a distinct label; a character-deck sleeve's names its core."""
    game = UnstoppableGame()
    labels = [game.action_label(action) for action in range(game.spec.num_actions)]
    assert all(labels) and len(set(labels)) == len(labels)
    first = game.cards.cores[game.character_deck[0][0]].name
    assert labels[game.actions.play] == f"play: sleeve 1 ({first})"


def chance_names(state: UnstoppableState, outcome: int) -> list[str]:
    """The card names a chance outcome's label must hold, by the kind of chance event."""
    cards = state.game.cards
    kind = state.stack[-1].kind
    if kind in (Kind.DEAL, Kind.REVEAL):
        sleeve = state.sleeves[outcome]
        return [cards.cores[sleeve.core].name, cards.threats[sleeve.threat].name]
    if kind == Kind.REVEAL_CORE:
        return [cards.cores[outcome].name]
    if kind == Kind.SLEEVE:
        return [cards.cores[state.stack[-1].detail("core")].name, cards.threats[outcome].name]
    if kind == Kind.MARKET:
        return [cards.upgrades[outcome].name]
    assert kind == Kind.BOSS_CARD, f"a chance event of an unknown kind: {kind}"
    return [cards.threats[outcome].name]


def test_every_chance_outcome_has_a_label_naming_its_card() -> None:
    """At every chance node, each outcome's label names the card revealed, drawn or dealt; the player's label of a
    drafted core's sleeving names the core but not the threat, which the player does not see."""
    game = UnstoppableGame()
    kinds = set()
    for state in played_states(game, seed=2):
        if state.current_player() != CHANCE:
            continue
        kind = state.stack[-1].kind
        kinds.add(kind)
        for outcome, _ in state.chance_outcomes():
            label = state.chance_label(outcome)
            for name in chance_names(state, outcome):
                assert name in label, f"{label!r} does not name {name!r}"
            if kind == Kind.SLEEVE:
                seen = state.chance_label_for(outcome, 0)
                assert game.cards.threats[outcome].name not in seen and "unseen" in seen
    assert {Kind.DEAL, Kind.REVEAL, Kind.REVEAL_CORE, Kind.SLEEVE, Kind.MARKET, Kind.BOSS_CARD} <= kinds


def test_effect_and_danger_labels_say_what_they_do() -> None:
    """An effect slot's label writes the effect out; a danger space's take and decline say its effect."""
    game = UnstoppableGame()
    seen_effect = seen_danger = False
    for state in played_states(game, seed=3):
        frame = state.decision()
        if frame is None:
            continue
        if frame.kind == Kind.EFFECT and frame.detail("mode") != BONUS and frame.detail("left"):
            slot = frame.detail("left")[0]
            action = game.actions.effect + slot
            if action in state.legal_actions():
                assert ": " in state.action_label_for(action, 0).split(" of ", 1)[1]
                seen_effect = True
        if frame.kind == Kind.DANGER:
            label = state.action_label_for(state.legal_actions()[0], 0)
            assert "eliminate a card" in label or "cycle the market" in label
            seen_danger = True
    assert seen_effect and seen_danger
