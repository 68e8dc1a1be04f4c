"""Unearth rule scenarios for the End of Age card, the end of the game and its rewards.

Rulebook (Unearth's): "End of Age", "Winning the Game", "A Tied Game"; the cards' effects from the
reference (end_of_age.yaml); decisions in RULES.md, "End of Age and the end of the game" and "Rewards and results".
"""

from __future__ import annotations

from typing import Any

import pytest

from envs.core.game import CHANCE
from envs.unearth.rules import DRAW_DELVER, STONE_TO_RUIN, UnearthState
from tests.unearth.scenarios import (
    D6_A,
    D6_B,
    D6_C,
    D8,
    RED,
    act,
    chance,
    draw,
    end_of_age_index,
    excavate,
    play_card,
    roll,
    ruin_id,
    scenario,
    settle,
    top_kind,
)

TABLE = ("peach 9", "green 13", "blue 15", "gray 17")
"""A 2-player table: claim values 9, 13, 15, 17."""
TABLE_3P = ("peach 9", "green 13", "blue 15", "gray 17", "purple 17")
"""A 3-4 player table."""


def last_reveal(num_players: int, end_of_age: str, table: tuple[str | None, ...], **fields: Any) -> UnearthState:
    """The Ruins deck is empty; seat 1's d6 shows 4 on the Ruin at place 1 (peach 9) and seat 0 claims it with its
    d8 (5), so the End of Age card is to be revealed there once seat 1 drew its consolation card."""
    state = scenario(num_players, table=table, ruin_deck=[], end_of_age=end_of_age, dice=[(1, D6_A, 0, 4)], **fields)
    excavate(state, D8, 0, 5)
    assert state.claimed[0] == (ruin_id(state.game, "peach 9"),)
    assert top_kind(state) == DRAW_DELVER
    assert not state.end_of_age_revealed
    draw(state, "Forlorn")
    return state


# ---------------------------------------------------------------------------------------------- revealing it
@pytest.mark.parametrize(("card", "claim", "stones"), [("City of Gold", 21, 5), ("City of Ash", 17, 3)])
def test_an_end_of_age_ruin_is_revealed_in_place_of_the_next_ruin_with_its_stones(
    card: str, claim: int, stones: int
) -> None:
    """ "Reveal the End of Age Card the same way you would reveal the next Ruin, and do what it says. If it is a new
    Ruin, place Stones on the Ruin as you normally would." (City of Gold: claim 21, 5 Stones; City of Ash: 17, 3.)"""
    state = last_reveal(2, card, TABLE)
    assert state.end_of_age_revealed
    city = ruin_id(state.game, card)
    assert state.table[0] == city
    assert state.game.ruins[city].claim == claim
    for _ in range(stones):
        chance(state, STONE_TO_RUIN, RED)
    assert state.ruin_stones[0] == (stones, 0, 0, 0)
    assert state.current_player() == 1 and not state.is_terminal()


def test_city_of_gold_is_claimed_at_twenty_one() -> None:
    """City of Gold (claim 21): "When the total of all dice on the Ruin equals or exceeds this value" the Ruin is
    claimed: 20 is not enough, 21 is."""
    table = ("City of Gold", "green 13", "blue 15", "gray 17")
    revealed: dict[str, Any] = {"end_of_age": "City of Gold", "end_of_age_revealed": True, "ruin_deck": []}
    short = scenario(2, table=table, dice=[(1, D8, 0, 8), (1, D6_A, 0, 6)], **revealed)
    excavate(short, D6_A, 0, 6)
    assert short.claimed == ((), ())
    enough = scenario(2, table=table, dice=[(1, D8, 0, 8), (1, D6_A, 0, 6), (1, D6_B, 0, 1)], **revealed)
    excavate(enough, D6_A, 0, 6)
    assert enough.claimed[1] == (ruin_id(enough.game, "City of Gold"),)


def test_day_of_rest_makes_each_player_draw_three() -> None:
    """Day of Rest: "Each player draws 3 Delver cards." (RULES.md: from the active seat in turn order; the place stays
    empty.)"""
    state = last_reveal(3, "Day of Rest", TABLE_3P)
    assert state.end_of_age_revealed
    drawers = [frame.detail("seat") for frame in reversed(state.stack) if frame.kind == DRAW_DELVER]
    assert drawers == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    settle(state)
    assert [sum(hand) for hand in state.hands] == [3, 4, 3]
    assert state.table[0] == -1
    assert not state.is_terminal()


@pytest.mark.parametrize(("card", "modifier"), [("The Gathering", -1), ("Festival of Reclamation", 1)])
def test_an_event_modifies_every_later_roll(card: str, modifier: int) -> None:
    """The Gathering: "-1 to every die rolled for the rest of the game"; Festival of Reclamation: "+1". The place the
    event was revealed on stays empty (RULES.md)."""
    state = last_reveal(2, card, TABLE)
    assert state.end_of_age_revealed
    assert state.roll_modifier == modifier
    assert state.table[0] == -1
    settle(state)
    assert state.active == 1
    excavate(state, D6_C, 3, 5)
    settle(state)
    assert state.die_value[1][D6_C] == 5 + modifier


def test_the_gathering_modifies_rerolls_too() -> None:
    """The Gathering: "-1 to every die rolled" (RULES.md, Modifiers: "rerolls included"): a Lost in the Ruins reroll
    showing 5 shows 4."""
    state = scenario(
        2,
        table=TABLE,
        hands={0: {"Lost in the Ruins": 1}},
        dice=[(1, D6_A, 3, 6)],
        end_of_age="The Gathering",
        end_of_age_revealed=True,
        ruin_deck=[],
        roll_modifier=-1,
    )
    play_card(state, "Lost in the Ruins")
    roll(state, 5)
    assert state.die_value[1][D6_A] == 4


def test_festival_of_reclamation_modifies_the_ancient_map_reroll() -> None:
    """Festival of Reclamation: "+1 to every die rolled" (RULES.md, Rolls: "the End of Age event and the owner's
    Named Wonders apply to" the Ancient Map reroll)."""
    state = scenario(
        2,
        table=TABLE,
        hands={0: {"Ancient Map": 1}},
        end_of_age="Festival of Reclamation",
        end_of_age_revealed=True,
        ruin_deck=[],
        roll_modifier=1,
    )
    play_card(state, "Ancient Map")
    excavate(state, D6_A, 3, 5)
    assert state.die_value[0][D6_A] == 6
    act(state, "reroll: reroll")
    roll(state, 4)
    assert state.die_value[0][D6_A] == 5


def test_no_ruin_is_revealed_after_the_end_of_age() -> None:
    """ "there is one card left in the Ruins Deck: the End of Age Card": once it is revealed, a claimed Ruin's place
    stays empty."""
    state = scenario(
        2,
        table=TABLE,
        ruin_deck=[],
        end_of_age="The Gathering",
        end_of_age_revealed=True,
        roll_modifier=-1,
        dice=[(1, D6_A, 0, 4)],
    )
    excavate(state, D8, 0, 6)  # 4 + 5 = 9
    settle(state)
    assert state.table[0] == -1
    assert state.end_of_age == end_of_age_index(state.game, "The Gathering")
    assert not state.is_terminal()


# ---------------------------------------------------------------------------------------------- the end
def test_the_game_ends_when_the_last_ruin_is_claimed_even_mid_turn() -> None:
    """ "The game continues until all Ruins on the table (including those placed during the End of Age) have been
    claimed." "When the last Ruin has been claimed, the game ends" (RULES.md: "even in the middle of a turn"): a
    Band of Delvers second roll is not made."""
    state = scenario(
        2,
        table=("peach 9", None, None, None),
        ruin_deck=[],
        end_of_age="Day of Rest",
        end_of_age_revealed=True,
        hands={0: {"Band of Delvers": 1}},
        dice=[(1, D6_A, 0, 6)],
    )
    play_card(state, "Band of Delvers")
    excavate(state, D8, 0, 4)  # 6 + 4 = 10: seat 1's 6 claims the last Ruin
    assert state.is_terminal()
    assert state.claimed[1] == (ruin_id(state.game, "peach 9"),)
    assert state.current_player() != CHANCE and state.legal_actions() == []


def test_the_game_goes_on_while_the_end_of_age_ruin_is_on_the_table() -> None:
    """ "The game continues until all Ruins on the table (including those placed during the End of Age) have been
    claimed": claiming the last Ruin of the deck reveals City of Ash, which must be claimed too."""
    state = last_reveal(2, "City of Ash", ("peach 9", None, None, None))
    assert not state.is_terminal()
    settle(state)
    assert state.table[0] == ruin_id(state.game, "City of Ash")
    assert state.current_player() == 1


def test_an_end_of_age_event_on_the_last_claim_ends_the_game() -> None:
    """ "When the last Ruin has been claimed, the game ends": an event leaves no Ruin to claim."""
    state = last_reveal(2, "Festival of Reclamation", ("peach 9", None, None, None))
    assert state.end_of_age_revealed
    assert state.is_terminal()


# ---------------------------------------------------------------------------------------------- results
def finished(num_players: int, **fields: Any) -> UnearthState:
    """A game over (no Ruin on the table or in the deck, End of Age revealed) with the given holdings."""
    state = scenario(
        num_players,
        table=(None,) * (4 if num_players == 2 else 5),
        ruin_deck=[],
        end_of_age="Day of Rest",
        end_of_age_revealed=True,
        **fields,
    )
    assert state.is_terminal()
    return state


def test_sole_winner_gets_one_and_the_others_minus_one() -> None:
    """ "Whoever has the most points wins." (RULES.md, Rewards: "+1 to a sole winner and -1 to every other seat".)
    Three peach Ruins score 12, two blue 6, one green 2 ("Three of the same color 12 points")."""
    state = finished(
        3,
        claimed={0: ["peach 9", "peach 11"], 2: ["blue 11"]},
        hidden_ruins={0: ["peach 13"], 1: ["green 9"], 2: ["blue 9"]},
    )
    assert state.score() == [12.0, 2.0, 6.0]
    assert state.returns() == [1.0, -1.0, -1.0]
    assert state.rewards("win") == [1.0, -1.0, -1.0]


def test_score_reward_is_the_difference_to_the_best_other_seat() -> None:
    """RULES.md, Rewards: "`score`: the seat's points minus the best other seat's points"."""
    state = finished(
        3,
        claimed={0: ["peach 9", "peach 11"], 2: ["blue 11"]},
        hidden_ruins={0: ["peach 13"], 1: ["green 9"], 2: ["blue 9"]},
    )
    assert state.rewards("score") == [6.0, -10.0, -6.0]


def test_a_tie_in_points_goes_to_the_most_ruins_of_the_highest_claim_value() -> None:
    """ "In the case of a tie in points, the player with the most Ruins of the highest claim value wins." """
    state = finished(2, hidden_ruins={0: ["peach 17"], 1: ["green 9"]})
    assert state.score() == [2.0, 2.0]
    assert state.returns() == [1.0, -1.0]


def test_an_unbroken_tie_shares_first_place() -> None:
    """RULES.md, Rewards: "when players are still tied after the claim-value tie-break they share first place and
    get 0 each"."""
    state = finished(2, hidden_ruins={0: ["peach 13"], 1: ["green 13"]})
    assert state.returns() == [0.0, 0.0]


def test_players_tied_after_the_tie_break_share_first_place() -> None:
    """RULES.md, Rewards: tied first seats "share first place and get 0 each (a draw among them), the others -1"."""
    state = finished(3, hidden_ruins={0: ["peach 13"], 1: ["green 9"], 2: ["blue 13"]})
    assert state.returns() == [0.0, -1.0, 0.0]


def test_rank_rewards_order_the_seats() -> None:
    """RULES.md, Rewards: "`rank`: ... (+1 first, -1 last, evenly spaced; tied seats share)"."""
    state = finished(
        3,
        claimed={0: ["peach 9", "peach 11"], 2: ["blue 11"]},
        hidden_ruins={0: ["peach 13"], 1: ["green 9"], 2: ["blue 9"]},
    )
    assert state.rewards("rank") == [1.0, -1.0, 0.0]
