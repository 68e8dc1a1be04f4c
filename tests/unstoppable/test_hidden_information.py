"""What the player knows of each sleeve, and `resample_hidden` redrawing only what the player has not seen.

Rulebook: a drafted core is sleeved "without viewing the threat side"; the player deck is "threat side up" (only its
top card, the on-deck threat, shows); the threat and upgrade decks are face down. RULES.md, "Hidden information",
says what `resample_hidden` redraws: the threats of the unseen sleeves and of the threat deck, over one pool.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from envs.core.testing import (
    check_clone_independence,
    check_json_round_trip,
    check_no_leak,
    check_resample_keeps_own_view,
    check_resample_matches_reload,
    check_sampler_matches_outcomes,
)
from envs.unstoppable.rules import UnstoppableState
from tests.unstoppable.scenarios import rules_game, scenario, sleeve_named

THREATS = ["Rust Golem", "Ash Wyrm", "Neon Cutthroat"]


def unseen_position() -> UnstoppableState:
    """Two drafted cards in hand whose threats the player has not seen, beside one it has."""
    return scenario(
        hand=["Strike"],
        unseen=["Viren Strategy / Vinespider", "Hired Guns / Commhacker"],
        battlefield=THREATS,
        deck=["Ceresan Thief", "Strike"],
    )


def threat_pool(state: UnstoppableState) -> Counter[int]:
    """The threats of the threat deck and of the unseen sleeves, together."""
    pool: Counter[int] = Counter({t: c for t, c in enumerate(state.threat_deck.counts()) if c})
    pool.update(s.threat for s in state.sleeves if not s.seen)
    return pool


def test_resampling_redraws_unseen_threats_only_and_keeps_the_pool() -> None:
    """The unseen sleeves' threats and the threat deck are dealt again from one pool; every seen sleeve, every zone
    and every other pile stays as it was."""
    state = unseen_position()
    unseen = [s for s, sleeve in enumerate(state.sleeves) if not sleeve.seen]
    assert len(unseen) == 2
    rng = np.random.default_rng(0)
    drawn = set()
    for _ in range(40):
        other = state.resample_hidden(0, rng)
        assert threat_pool(other) == threat_pool(state)
        for sleeve, (mine, theirs) in enumerate(zip(state.sleeves, other.sleeves, strict=True)):
            if sleeve not in unseen:
                assert mine == theirs
        assert (other.hand, other.deck, other.core_decks, other.market) == (
            state.hand,
            state.deck,
            state.core_decks,
            state.market,
        )
        rules_game().state_from_dict(other.to_dict())  # a position that can happen
        drawn.add(tuple(other.sleeves[s].threat for s in unseen))
    assert len(drawn) > 5, "the unseen threats are really redrawn"


def test_an_unseen_threat_is_not_in_the_observation() -> None:
    """The observation is the same whatever threat an unseen sleeve holds; a seen one shows."""
    state = unseen_position()
    observer = rules_game().observer(0)
    data = state.to_dict()
    vinespider = sleeve_named(state, "Vinespider")
    data["sleeves"][vinespider]["threat"] = "Deadwood Stalker"
    data["threat_deck"]["unknown"]["Vinespider"] = 1
    data["threat_deck"]["unknown"].pop("Deadwood Stalker")
    other = rules_game().state_from_dict(data)
    assert np.array_equal(observer.tensor(state), observer.tensor(other))
    assert observer.text(state) == observer.text(other)
    data["sleeves"][vinespider]["seen"] = True
    seen = rules_game().state_from_dict(data)
    assert not np.array_equal(observer.tensor(seen), observer.tensor(other))


def test_the_generic_hidden_information_checkers_pass() -> None:
    """envs/core/testing.py: resampling offers what the reloaded position offers, no observation changes with what
    is hidden, the player's own view survives resampling, clones are independent, draws follow their odds, and every
    state survives JSON."""
    game = rules_game()
    assert check_resample_matches_reload(game, seed=1, games=2) > 0
    assert check_no_leak(game, seed=2, games=2, redraws=2) > 0
    assert check_resample_keeps_own_view(game, seed=3, games=2) > 0
    assert check_clone_independence(game, seed=4, games=3) > 0
    assert check_sampler_matches_outcomes(game, seed=5, games=2, draws=500, max_nodes=10) > 0
    state = game.new_initial_state()
    check_json_round_trip(game, state)
