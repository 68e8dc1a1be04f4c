"""The actions as the player reads them where they choose (terminal play and the viewer: `Observer.action_text`):
each names the card it acts on, as the log names it once played (issue 32: "targeting a battlefield threat reads
`target: sleeve 2 (Strike)` (the core side) while you hit Ceresan Thief")."""

from __future__ import annotations

import numpy as np

from agents.view.board import grouped_actions
from envs.core.game import CHANCE
from envs.unstoppable.game import UnstoppableGame
from envs.unstoppable.rules import UnstoppableState
from tests.unstoppable.scenarios import act, rules_game, scenario


def offered(state: UnstoppableState) -> list[str]:
    """The legal actions as terminal play lists them (the player's observer)."""
    observer = state.game.observer(0)
    return [observer.action_text(state, action) for action in state.legal_actions()]


def viewer_texts(state: UnstoppableState) -> list[str]:
    """The legal actions as the viewer's buttons read."""
    return [entry["text"] for group in grouped_actions(state, 0) for entry in group["actions"]]


def at_target_decision() -> UnstoppableState:
    """Strike played against two battlefield threats: the sleeve-2 card is Strike on its core side and Ceresan
    Thief on its threat side."""
    state = scenario(hand=["Strike"], battlefield=["Ceresan Thief", "Junker Cyclist"])
    act(state, "play: sleeve 1 (Strike)")
    act(state, "effect 1")
    return state


def test_a_target_names_the_threat_it_hits_not_its_core() -> None:
    """Rulebook: "Deal damage to any active threat" (Strike): a damage instance hits a threat side, so the choice
    names the threat; the core on the other side of the sleeve is not named, where offered or once played."""
    state = at_target_decision()
    cards = state.game.cards
    expected = ["target: sleeve 2 (Ceresan Thief)", "target: sleeve 10 (Junker Cyclist)"]
    assert offered(state) == expected
    assert viewer_texts(state) == expected
    assert [state.action_label_for(action, 0) for action in state.legal_actions()] == expected
    thief = state.legal_actions()[0]
    assert cards.cores[state.sleeves[thief - state.game.actions.target].core].name == "Strike"
    assert state.game.action_label(thief) == "target: sleeve 2"  # the id's own label names no side


def test_a_buy_names_the_upgrade_and_its_price_on_that_card() -> None:
    """Rulebook: "To buy an upgrade, you must spend credits equal to its cost", and "Discount: This indicates a
    discount to the upgrade cost that applies when it is added to a card of a specific faction": each buy names the
    market's upgrade, the card it goes onto and the credits it costs there (Nerve Toxin: 2, -2 on a viren card)."""
    state = scenario(hand=["Strike", "Viren Strategy"], credits=5)
    slot = [state.game.cards.upgrades[u].name for u in state.market].index("Nerve Toxin") + 1
    texts = offered(state)
    assert f"buy: market slot {slot} (Nerve Toxin) onto sleeve 1 (Strike) for 2 credits" in texts
    assert f"buy: market slot {slot} (Nerve Toxin) onto drafted card 1 (Viren Strategy) for 0 credits" in texts
    assert viewer_texts(state) == texts
    assert all(" credit" in text for text in texts if text.startswith("buy: "))


def test_a_drafted_card_is_played_by_its_name() -> None:
    """A drafted card's sleeve has no name in the action space ("drafted card 1"); where it is played the choice
    names its core, which the player drafted face up."""
    state = scenario(hand=["Strike", "Viren Strategy"])
    texts = offered(state)
    assert "play: drafted card 1 (Viren Strategy)" in texts
    assert "play: sleeve 1 (Strike)" in texts
    assert viewer_texts(state) == texts


def test_the_labels_read_show_nothing_the_player_has_not_seen() -> None:
    """At every decision of seeded random games, each legal action reads the same after the player's hidden
    information is redealt (`resample_hidden`: the threat deck and the threats of unseen sleeves): a label never
    names an unseen threat."""
    game = UnstoppableGame()
    observer = game.observer(0)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            redealt = state.resample_hidden(0, rng)
            for action in legal:
                assert observer.action_text(state, action) == observer.action_text(redealt, action)
            checked += len(legal)
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 100


def test_the_static_target_labels_name_no_core() -> None:
    """Every target id's own label (errors, replays without a state) names its sleeve alone."""
    game = rules_game()
    codec = game.actions.codec
    targets = [game.action_label(action) for action in codec.group_range("target")]
    assert targets[0] == "target: sleeve 1" and targets[game.character_deck_size] == "target: drafted card 1"
    assert not any("(" in label for label in targets)
