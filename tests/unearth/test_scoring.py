"""Scenario tests for Unearth's end-of-game scoring and winner order (envs/unearth/scoring.py), quoting the rulebook.

Rulebook: Unearth's, "Winning the Game" and "A Tied Game"; decisions in envs/unearth/RULES.md,
"Scoring". Ruins and Named Wonders are the shipped content (envs/unearth/data).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from envs.core.outcomes import rank_returns, ranks
from envs.unearth.cards import NamedWonder, Ruin, load_unearth_cards
from envs.unearth.scoring import (
    PlayerHoldings,
    ScoreBreakdown,
    final_standings,
    named_wonder_end_points,
    ruin_set_points,
    score_player,
)

CARDS = load_unearth_cards()
PEACH, GREEN, BLUE, PURPLE, GRAY = range(5)
RED_STONE, YELLOW_STONE, BLUE_STONE, BLACK_STONE = range(4)
NO_STONES = (0, 0, 0, 0)


def ruin(colour: int, claim: int) -> Ruin:
    """The shipped Ruin of a colour and claim value."""
    return next(card for card in CARDS.ruins if card.colour == colour and card.claim == claim)


def end_of_age_ruin(name: str) -> Ruin:
    """The shipped End of Age Ruin called `name`."""
    return next(card.ruin for card in CARDS.end_of_age if card.name == name and card.ruin is not None)


def wonder(name: str) -> NamedWonder:
    """The shipped Named Wonder called `name`."""
    return next(card for card in CARDS.named_wonders if card.name == name)


def colour_ruins(colour: int, count: int) -> tuple[Ruin, ...]:
    """`count` Ruins of one colour (lowest claim values first)."""
    return tuple(card for card in CARDS.ruins if card.colour == colour)[:count]


def rainbow(claim: int = 9) -> tuple[Ruin, ...]:
    """One Ruin of each colour."""
    return tuple(ruin(colour, claim) for colour in range(5))


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 2), (2, 6), (3, 12), (4, 20), (5, 30)])
def test_matching_ruin_set_table(count: int, points: int) -> None:
    """ "Players ... score points for each set of matching Ruins Cards they have": "One of any color 2 points", "Two
    of the same color 6 points", "Three of the same color 12 points", "Four of the same color 20 points", "Five of
    the same color 30 points"."""
    assert ruin_set_points(count) == points
    assert score_player(PlayerHoldings(ruins=colour_ruins(PURPLE, count))).total == points


def test_sets_of_each_colour_add_up() -> None:
    """ "score points for each set of matching Ruins Cards they have": three peach (12) and two gray (6)."""
    breakdown = score_player(PlayerHoldings(ruins=colour_ruins(PEACH, 3) + colour_ruins(GRAY, 2)))
    assert breakdown.ruin_sets == 18
    assert breakdown.mixed_sets == 0
    assert breakdown.total == 18


def test_hidden_ruin_counts_in_its_set() -> None:
    """ "Players reveal their hidden Ruins Card and score points for each set of matching Ruins Cards they have": a
    hidden green Ruin makes two face-up greens a set of three."""
    holdings = PlayerHoldings(ruins=colour_ruins(GREEN, 2), hidden_ruins=(ruin(GREEN, 17),))
    assert score_player(holdings).ruin_sets == 12


def test_one_of_each_colour_scores_five_more() -> None:
    """ "Players score an additional 5 points for collecting a set of one of each of the 5 colors of Ruins." Five
    single Ruins: 5 x 2 + 5."""
    breakdown = score_player(PlayerHoldings(ruins=rainbow()))
    assert breakdown.ruin_sets == 10
    assert breakdown.mixed_sets == 5
    assert breakdown.total == 15


def test_two_complete_mixed_sets() -> None:
    """ "This may be scored multiple times for multiple sets, and Ruins may be scored both within their type, and
    within a set of mixed types." Two of each colour: 5 x 6 for the pairs and 2 x 5 for the two mixed sets; one more
    peach makes no third set."""
    holdings = PlayerHoldings(ruins=rainbow(9) + rainbow(11))
    breakdown = score_player(holdings)
    assert breakdown.ruin_sets == 30
    assert breakdown.mixed_sets == 10
    extra = score_player(PlayerHoldings(ruins=holdings.ruins + (ruin(PEACH, 13),)))
    assert extra.ruin_sets == 36
    assert extra.mixed_sets == 10


def test_hidden_ruin_completes_a_mixed_set() -> None:
    """ "Players reveal their hidden Ruins Card and score points for each set": the hidden Ruin counts in the set of
    one of each colour too."""
    holdings = PlayerHoldings(ruins=rainbow()[:4], hidden_ruins=(ruin(GRAY, 15),))
    assert score_player(holdings).mixed_sets == 5


def test_end_of_age_ruins_score_only_their_printed_points() -> None:
    """ "When the End of Age card appears ... total your points from Wonders and sets of Ruins"; City of Gold "is
    worth 7 points" and City of Ash "-4" (RULES.md Content): in no colour set and in no set of one of each colour."""
    gold, ash = end_of_age_ruin("City of Gold"), end_of_age_ruin("City of Ash")
    breakdown = score_player(PlayerHoldings(ruins=rainbow()[:4] + (gold, ash)))
    assert breakdown.end_of_age_ruins == 3
    assert breakdown.ruin_sets == 8
    assert breakdown.mixed_sets == 0
    assert breakdown.total == 11


def test_wonder_tokens_and_named_wonder_points() -> None:
    """ "Players score points for their Lesser, Greater, and (some) Named Wonders (as indicated on those cards or
    tokens)." Two Wonders: no bonus."""
    holdings = PlayerHoldings(stones=(6, 0, 0, 6), greater_wonders=(7,), named_wonders=(wonder("Palace of Relics"),))
    breakdown = score_player(holdings)
    assert breakdown.wonder_tokens == 7
    assert breakdown.named_wonders == 6
    assert breakdown.wonder_count_bonus == 0
    assert breakdown.total == 13


def test_three_wonders_of_any_type_score_five_more() -> None:
    """ "Players score an additional 5 points for building three or more Wonders (irrespective of type)." A Lesser,
    a Greater and a Named Wonder worth 0 points count alike; a fourth adds no more."""
    three = PlayerHoldings(
        stones=(3, 3, 3, 3),
        lesser_wonders=(2,),
        greater_wonders=(8,),
        named_wonders=(wonder("The Blackened Cenotaph"),),
    )
    breakdown = score_player(three)
    assert breakdown.wonder_count_bonus == 5
    assert breakdown.total == 2 + 8 + 0 + 5
    four = PlayerHoldings(stones=(3, 3, 3, 3), lesser_wonders=(2, 3, 4, 2))
    assert score_player(four).wonder_count_bonus == 5
    assert score_player(PlayerHoldings(lesser_wonders=(2, 3))).wonder_count_bonus == 0


@pytest.mark.parametrize(
    ("name", "stone"),
    [
        ("Temple of Flames", RED_STONE),
        ("Temple of Prosperity", YELLOW_STONE),
        ("Temple of Clarity", BLUE_STONE),
        ("Temple of Fate", BLACK_STONE),
    ],
)
def test_temples_score_a_point_per_stone_of_their_colour(name: str, stone: int) -> None:
    """ "Players score points for their ... (some) Named Wonders (as indicated on those cards": a Temple scores +1
    per Stone of its colour at the end of the game."""
    stones = [2, 3, 4, 5]
    stones[stone] = 7
    holdings = PlayerHoldings(stones=tuple(stones), named_wonders=(wonder(name),))
    breakdown = score_player(holdings)
    assert breakdown.named_wonder_effects == 7
    assert breakdown.total == 7


def test_tomb_of_the_last_age_scores_each_stone_colour() -> None:
    """ "Tomb of the Last Age grants points for each color of Stone you have at the end of the game": three colours
    held (none black) -> 3, all four -> 4."""
    tomb = wonder("Tomb of the Last Age")
    assert named_wonder_end_points(tomb, (5, 1, 2, 0)) == 3
    assert named_wonder_end_points(tomb, (5, 1, 2, 9)) == 4


def test_fountain_of_reflection_scores_the_scarcest_colour() -> None:
    """ "Players score points for their ... (some) Named Wonders (as indicated on those cards": Fountain of
    Reflection, "+2 points for each Stone of the colour you have fewest of"; a colour held 0 times scores 0."""
    fountain = wonder("Fountain of Reflection")
    assert named_wonder_end_points(fountain, (5, 3, 2, 4)) == 4
    assert named_wonder_end_points(fountain, (5, 3, 0, 4)) == 0


def test_named_wonders_with_abilities_score_only_printed_points() -> None:
    """ "(some) Named Wonders": those whose effects act during play score only the points printed on them."""
    stones = (4, 4, 4, 4)
    for card in CARDS.named_wonders:
        if not card.effect.kind.startswith("points_per"):
            assert named_wonder_end_points(card, stones) == 0
            assert score_player(PlayerHoldings(stones=stones, named_wonders=(card,))).total == card.points


def test_breakdown_parts_add_to_the_total() -> None:
    """ "Whoever has the most points wins": every source of points appears in the breakdown and adds to the total."""
    holdings = PlayerHoldings(
        ruins=rainbow() + (ruin(PEACH, 11), end_of_age_ruin("City of Gold")),
        hidden_ruins=(ruin(PEACH, 13),),
        stones=(7, 2, 2, 2),
        lesser_wonders=(3,),
        greater_wonders=(6,),
        named_wonders=(wonder("Temple of Flames"), wonder("College of the Overseers")),
    )
    assert score_player(holdings) == ScoreBreakdown(
        ruin_sets=12 + 4 * 2,
        mixed_sets=5,
        end_of_age_ruins=7,
        wonder_tokens=9,
        named_wonders=2,
        named_wonder_effects=7,
        wonder_count_bonus=5,
    )
    assert score_player(holdings).total == 20 + 5 + 7 + 9 + 2 + 7 + 5


def claims(*values: int) -> tuple[Ruin, ...]:
    """Ruins with these claim values (colours spread so no two share a card)."""
    used: list[Ruin] = []
    for value in values:
        used.append(next(card for card in CARDS.ruins if card.claim == value and card not in used))
    return tuple(used)


def test_rulebook_tied_game_example() -> None:
    """ "In the case of a tie in points, the player with the most Ruins of the highest claim value wins. ... Red has
    Ruins with Claim values of 17, 15, 9, 9, 9, 9. Blue has Ruins with Claim values of 17, 13, 13, 13. Green has Ruins
    with Claim values of 17, 15, 15. All Players are tied for the number of 17 value Ruins. Green therefore wins
    because she has the most 15 value Ruins." The totals are made equal with Wonder tokens."""
    red, blue, green = claims(17, 15, 9, 9, 9, 9), claims(17, 13, 13, 13), claims(17, 15, 15)
    totals = [score_player(PlayerHoldings(ruins=ruins)).total for ruins in (red, blue, green)]
    top = max(totals)
    players = [
        PlayerHoldings(ruins=ruins, lesser_wonders=(top - total,))
        for ruins, total in zip((red, blue, green), totals, strict=True)
    ]
    standings = final_standings(players)
    assert len(set(standings.totals)) == 1
    assert standings.tie_break_keys == ((1, 1, 0, 4), (1, 0, 3, 0), (1, 2, 0, 0))
    assert standings.winners == (2,)
    assert standings.places == (2, 3, 1)
    assert ranks(standings.tie_broken_scores) == list(standings.places)


def test_more_points_win_before_the_tie_break() -> None:
    """ "Whoever has the most points wins": the tie-break only orders players equal in points."""
    standings = final_standings([PlayerHoldings(ruins=claims(17, 17)), PlayerHoldings(ruins=colour_ruins(GREEN, 3))])
    assert standings.totals == (4, 12)
    assert standings.places == (2, 1)


def test_hidden_and_end_of_age_ruins_count_in_the_tie_break() -> None:
    """ "the player with the most Ruins of the highest claim value wins": the revealed hidden Ruin and an End of Age
    Ruin (City of Ash, claim 17) are Ruins with claim values like any other."""
    ash = end_of_age_ruin("City of Ash")
    hidden = PlayerHoldings(ruins=(ruin(PEACH, 9),), hidden_ruins=(ruin(GREEN, 17),), lesser_wonders=(2,))
    city = PlayerHoldings(ruins=(ruin(BLUE, 9), ash), lesser_wonders=(4, 4))
    plain = PlayerHoldings(ruins=(ruin(GRAY, 9), ruin(PURPLE, 15)), lesser_wonders=(2,))
    standings = final_standings([hidden, city, plain])
    assert standings.totals == (6, 6, 6)
    assert standings.tie_break_keys == ((1, 0, 1), (1, 0, 1), (0, 1, 1))
    assert standings.places == (1, 1, 3)
    assert standings.winners == (0, 1)


def test_fully_tied_game_shares_first_place() -> None:
    """ "In the case of a tie in points, the player with the most Ruins of the highest claim value wins": with equal
    points and the same claim values the tie stands, and the players share first place (rewards 0)."""
    players = [PlayerHoldings(ruins=(ruin(colour, 13), ruin(colour, 9))) for colour in (PEACH, GREEN, BLUE)]
    standings = final_standings(players)
    assert standings.places == (1, 1, 1)
    assert standings.winners == (0, 1, 2)
    assert rank_returns(standings.tie_broken_scores) == [0.0, 0.0, 0.0]


def test_tie_broken_scores_keep_ties_on_points_below_the_next_point() -> None:
    """ "Whoever has the most points wins": the tie-broken scores order a tie on points without passing a player with
    one point more."""
    players = [
        PlayerHoldings(ruins=claims(17), lesser_wonders=(3,)),
        PlayerHoldings(ruins=claims(9), lesser_wonders=(3,)),
        PlayerHoldings(ruins=claims(9), lesser_wonders=(4,)),
    ]
    standings = final_standings(players)
    assert standings.totals == (5, 5, 6)
    assert standings.places == (2, 3, 1)
    assert all(
        total <= score < total + 1 for total, score in zip(standings.totals, standings.tie_broken_scores, strict=True)
    )


COLOURED_RUINS = [card for card in CARDS.ruins if card.colour is not None]


@given(held=st.sets(st.sampled_from(COLOURED_RUINS), max_size=24), data=st.data())
def test_adding_a_coloured_ruin_never_lowers_ruin_points(held: set[Ruin], data: st.DataObject) -> None:
    """ "score points for each set of matching Ruins Cards" and "+5 ... for a set of one of each": adding a coloured
    Ruin (face up or hidden) never lowers a player's Ruin points. (City of Ash, -4, is the one Ruin that does.)"""
    extra = data.draw(st.sampled_from([card for card in COLOURED_RUINS if card not in held]))
    before = score_player(PlayerHoldings(ruins=tuple(held))).ruin_points
    assert score_player(PlayerHoldings(ruins=tuple(held) + (extra,))).ruin_points > before
    assert score_player(PlayerHoldings(ruins=tuple(held), hidden_ruins=(extra,))).ruin_points > before
