"""Scripted rule scenarios for Runebound on the board (solo, The Locust Swarm): twists, the solo rules, the prepare
action, turns and time, warbands, movement, the shop, tests, fights, and saved positions. Each test cites the
expansion's text (`TWISTS`, `SOLO RULES`, `PREPARE ACTION`, `CIVILIZED HEX`), the public facts (REFERENCE.md 3.3-3.7)
or the reading in RULES.md ("The board game") that it checks, and sets its scenario up from a state dict
(tests/runebound/board_scenarios.py); the warbands' rules run on a map that is one line of hexes (`line_map`). The
content's tunable numbers (gold, the track's spaces, the cards' effects, the warbands' enemies) are read from the loaded
content, so each rule is checked exactly whatever the tuning.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core.game import CHANCE, StateFormatError
from envs.runebound.board import TEST_DIE, WARBAND_REWARD, BoardState
from envs.runebound.board_actions import BOARD_ACTIONS
from envs.runebound.board_cards import TROPHY_KINDS, BoardEffect
from envs.runebound.board_game import RuneboundGame
from envs.runebound.board_state import BoardKind, BoardOutcome, Prepare
from envs.runebound.movement import FACE_NAMES, TERRAIN_DIE, can_step
from envs.runebound.symbols import ENEMY, HERO

from .board_scenarios import (
    LINE,
    LINE_RIVER,
    act,
    amount_of,
    asset,
    band_fighting,
    chance_kind,
    content_copy,
    decision_kind,
    draw,
    edit_content,
    edited,
    first_outcomes,
    gold_after,
    hex_of,
    labels,
    line_map,
    position,
    quiet_story,
    read_content,
    setup_gold,
    site_hex,
    skill_names,
    turn_start,
    with_cards,
)

ELIAM = RuneboundGame(hero="Eliam")
"""Eliam starts in Tamalir (board_heroes.yaml); body 2, health 9, hand size 3 (heroes.yaml)."""
TATIANNA = RuneboundGame(hero="Tatianna")
"""Tatianna starts in Riverwatch, by the river (map.yaml)."""
NO_ASSETS = {"weapon": None, "armor": None, "trinket": None, "mount": None}
SCENARIO = ELIAM.board.scenario
"""The Locust Swarm's numbers (locust_swarm.yaml): the track, the story and warband spaces, the setup gold."""
TRACK = range(1, 2 * SCENARIO.act_length)
"""The time token's positions after a turn before the track runs out."""
STORY_TIMES = [time for time in TRACK if (time % SCENARIO.act_length or SCENARIO.act_length) in SCENARIO.story_spaces]
"""The positions of both Acts at a story space."""
SPAWN_TIMES = [space for space in SCENARIO.warband_spaces if space > 0]
"""The positions after setup where a face-down warband spawns."""
RAZORWING_BAND = band_fighting(ELIAM, "Razorwing", [0, 3])
"""A warband in Tamalir (0, 3) with the units that fight the Razorwing (`RAZORWING_CASTS`)."""


def twist_effects(game: RuneboundGame, name: str) -> tuple[BoardEffect, ...]:
    """The effects of the twist named `name` (twists.yaml)."""
    return game.board.twists.by_name(name).effects


def trophies_of(effects: tuple[BoardEffect, ...]) -> tuple[int, ...]:
    """The trophies (combat, exploration, social) that `effects` gain."""
    return tuple(
        sum(effect.amount for effect in effects if effect.kind == "gain_trophy" and effect.trophy == kind)
        for kind in TROPHY_KINDS
    )


def end_turn(state: BoardState) -> None:
    """End the turn, and draw a story card that changes nothing checked (`quiet_story`) if one comes; a spawn is left
    pending."""
    act(state, "action: end turn")
    if chance_kind(state) == BoardKind.DRAW_STORY:
        draw(state, quiet_story(state.game), BoardKind.DRAW_STORY)


def names(game: RuneboundGame, cards: tuple[int, ...]) -> list[str]:
    """Asset-deck cards by name."""
    return [game.asset_card_names[card] for card in cards]


def shopping(game: RuneboundGame = ELIAM, **fields: Any) -> BoardState:
    """Eliam in Tamalir (a city) having taken the shop action: the shop's draw pending."""
    state = position(game, **fields)
    act(state, "action: shop")
    assert chance_kind(state) == BoardKind.SHOP_DRAW
    return state


# ---------------------------------------------------------------------------------------------------------- setup
@pytest.mark.parametrize("content", ["shipped", "start_gold raised"])
def test_setup_gives_the_hero_its_gold_and_the_scenarios_start_gold(
    tmp_path_factory: pytest.TempPathFactory, content: str
) -> None:
    """RULES.md, "Setup": "The hero starts in its city (`board_heroes.yaml` `start`) with its gold ... and the
    scenario's `start_gold`". Every hero, on the shipped content and on a copy whose `start_gold` is 3 more, so the
    rule is seen whatever the tuning: the gold at setup is the hero's plus `start_gold`, before any market is dealt."""
    directory = None
    if content != "shipped":
        directory = content_copy(tmp_path_factory.mktemp("start_gold"))
        edit_content(directory, "locust_swarm", start_gold=read_content(directory, "locust_swarm")["start_gold"] + 3)
    for hero in ELIAM.board.heroes.names:
        game = RuneboundGame(hero=hero, card_directory=directory)
        state = game.new_initial_state()
        assert chance_kind(state) == BoardKind.DEAL_MARKET and state.markets[0] == ()
        gold = game.board.heroes.by_name(hero).gold + game.board.scenario.start_gold
        assert state.hero_gold == gold == setup_gold(game), hero
    if directory is not None:
        assert game.board.scenario.start_gold == SCENARIO.start_gold + 3


# ---------------------------------------------------------------------------------------------------------- twists
def test_a_twist_dealt_at_setup_is_set_aside_and_shuffled_back_once_the_markets_are_ready() -> None:
    """TWISTS: "If a twist card is drawn during setup, set it aside and continue to deal asset cards to set up the
    markets. Once the markets are ready, shuffle all drawn twists back into the asset deck." Two twists dealt: neither
    is resolved (the setup's gold is kept), neither is drawn again while dealing, and both are back in the deck after
    the last deal (each city dealt `market_size` assets, in the order drawn)."""
    state = ELIAM.new_initial_state()
    gold = setup_gold(ELIAM)
    windfall, cutpurse = asset(ELIAM, "Merchant's Windfall"), asset(ELIAM, "Cutpurse")
    draw(state, "Merchant's Windfall", BoardKind.DEAL_MARKET)
    assert state.set_aside == (windfall,) and state.markets[0] == () and state.hero_gold == gold
    assert state.stack[-1].kind == BoardKind.DEAL_MARKET and state.stack[-1].detail("city") == 0
    assert windfall not in [card for card, _ in state.chance_outcomes()]
    size = SCENARIO.market_size
    dealt = [card.name for card in ELIAM.board.assets if not card.other_hero][: size * len(ELIAM.cities)]
    half = len(dealt) // 2
    for name in dealt[:half]:
        draw(state, name, BoardKind.DEAL_MARKET)
    draw(state, "Cutpurse", BoardKind.DEAL_MARKET)
    assert state.set_aside == (windfall, cutpurse) and state.hero_gold == gold
    for name in dealt[half:]:
        draw(state, name, BoardKind.DEAL_MARKET)
    assert chance_kind(state) == BoardKind.SPAWN_WARBAND  # the markets are ready
    markets = [dealt[start : start + size] for start in range(0, len(dealt), size)]
    assert [names(ELIAM, market) for market in state.markets] == markets
    assert state.set_aside == () and {windfall, cutpurse} <= set(state.asset_deck)
    assert state.hero_gold == gold and state.asset_discard == ()


def test_a_twist_drawn_while_shopping_is_resolved_then_discarded_before_its_replacement() -> None:
    """TWISTS: "Whenever a twist is drawn, the player shopping in that city resolves it and then discards it before
    drawing a replacement asset." Merchant's Windfall gives its gold, goes to the discards, and the shop draws again
    for the same city; the replacement makes the market one more than dealt."""
    state = shopping()
    dealt = names(ELIAM, state.markets[0])
    draw(state, "Merchant's Windfall", BoardKind.SHOP_DRAW)
    assert state.hero_gold == gold_after(setup_gold(ELIAM), twist_effects(ELIAM, "Merchant's Windfall"))
    assert state.hero_gold > setup_gold(ELIAM)
    assert names(ELIAM, state.asset_discard) == ["Merchant's Windfall"]
    assert chance_kind(state) == BoardKind.SHOP_DRAW and state.stack[-1].detail("city") == 0
    draw(state, "Mule", BoardKind.SHOP_DRAW)
    assert names(ELIAM, state.markets[0]) == [*dealt, "Mule"]
    assert decision_kind(state) == BoardKind.SHOP


def test_a_twist_is_resolved_before_the_replacement_is_drawn() -> None:
    """TWISTS: the player "resolves it and then discards it before drawing a replacement asset". Old Tutor draws a
    skill: the skill's draw comes before the shop's replacement draw."""
    state = shopping()
    draw(state, "Old Tutor", BoardKind.SHOP_DRAW)
    assert chance_kind(state) == BoardKind.DRAW_SKILL
    draw(state, "Brawler", BoardKind.DRAW_SKILL)
    assert skill_names(state, state.hand) == ["Brawler"]
    assert chance_kind(state) == BoardKind.SHOP_DRAW


def test_several_twists_in_a_row_while_shopping_are_each_resolved() -> None:
    """TWISTS: "If a player draws multiple twists in a row while shopping, he or she resolves each one." Windfall
    (gain gold), Cutpurse (lose gold), Street Healer (heal): all three resolved in turn and discarded, then the
    asset."""
    twists = ["Merchant's Windfall", "Cutpurse", "Street Healer"]
    state = shopping(wounds=3)
    dealt = len(state.markets[0])
    for twist in twists:
        draw(state, twist, BoardKind.SHOP_DRAW)
    effects = tuple(effect for twist in twists for effect in twist_effects(ELIAM, twist))
    assert state.hero_gold == gold_after(setup_gold(ELIAM), effects)
    assert state.wounds == max(0, 3 - amount_of(effects, "heal")) < 3
    assert sorted(names(ELIAM, state.asset_discard)) == sorted(twists)
    draw(state, "Mule", BoardKind.SHOP_DRAW)
    assert len(state.markets[0]) == dealt + 1


def test_a_twist_drawn_outside_a_shop_action_is_discarded_without_effect() -> None:
    """TWISTS: "If an asset is removed from a city outside of a shop action and a twist is drawn, discard the twist and
    draw another card from the asset deck." The story card Tithe of War takes each market's first asset (and gold);
    Merchant's Windfall drawn for the first market gives no gold, is discarded, and another card is drawn."""
    state = position(ELIAM, time=STORY_TIMES[0] - 1, hero_gold=5)
    act(state, "action: end turn")
    markets = [names(ELIAM, market) for market in state.markets]
    draw(state, "Tithe of War", BoardKind.DRAW_STORY)
    gold = gold_after(5, ELIAM.board.story.by_name("Tithe of War").effects)
    assert state.hero_gold == gold
    assert names(ELIAM, state.markets[0]) == markets[0][1:]
    assert sorted(names(ELIAM, state.asset_discard)) == sorted(market[0] for market in markets)
    draw(state, "Merchant's Windfall", BoardKind.RESTOCK)
    assert state.hero_gold == gold
    assert "Merchant's Windfall" in names(ELIAM, state.asset_discard)
    assert chance_kind(state) == BoardKind.RESTOCK and state.stack[-1].detail("city") == 0
    draw(state, "Mule", BoardKind.RESTOCK)
    assert names(ELIAM, state.markets[0]) == [*markets[0][1:], "Mule"]
    assert state.stack[-1].detail("city") == 1


# ---------------------------------------------------------------------------------------------------------- solo rules
def test_an_adventure_that_refers_to_another_hero_is_discarded_and_replaced() -> None:
    """SOLO RULES: "when you draw an adventure, skill, or asset card that refers to another hero, discard it and draw a
    replacement." Horde at the Gates ("Another hero in your hex may fight beside you") leaves the deck and no fight
    starts; the next draw from the combat deck is the adventure."""
    state = position(ELIAM, cell=[4, 0])  # a red gem
    act(state, "action: adventure")
    horde = ELIAM.board.adventures.index_of("Horde at the Gates")
    draw(state, "Horde at the Gates", BoardKind.DRAW_ADVENTURE)
    assert horde not in state.adventure_deck and not state.fighting()
    assert chance_kind(state) == BoardKind.DRAW_ADVENTURE and state.stack[-1].detail("deck") == "combat"
    draw(state, "Restless Dead", BoardKind.DRAW_ADVENTURE)
    assert state.fighting() and ELIAM.cards.enemies[state.enemy].name == "Undead Horde"


def test_a_skill_that_refers_to_another_hero_is_discarded_and_replaced() -> None:
    """SOLO RULES: a skill card that refers to another hero (Shoulder to Shoulder) is discarded and another drawn."""
    state = position(ELIAM)
    act(state, "action: train")
    draw(state, "Shoulder to Shoulder", BoardKind.DRAW_SKILL)
    shoulder = ELIAM.board.skills.index_of("Shoulder to Shoulder")
    assert state.hand == () and state.skill_discard == (shoulder,)
    draw(state, "Brawler", BoardKind.DRAW_SKILL)  # the replacement
    draw(state, "Stoic", BoardKind.DRAW_SKILL)  # the train's second draw
    assert skill_names(state, state.hand) == ["Brawler", "Stoic"]


@pytest.mark.parametrize("kind", [BoardKind.DEAL_MARKET, BoardKind.SHOP_DRAW])
def test_an_asset_that_refers_to_another_hero_is_discarded_and_replaced(kind: str) -> None:
    """SOLO RULES: an asset card that refers to another hero (Covered Wagon: "Another hero in your hex may move with
    you") is discarded and replaced, whether dealt at setup or drawn by the shop."""
    if kind == BoardKind.DEAL_MARKET:
        state = ELIAM.new_initial_state()
    else:
        state = shopping()
    before = state.markets[0]
    draw(state, "Covered Wagon", kind)
    assert names(ELIAM, state.asset_discard) == ["Covered Wagon"] and state.markets[0] == before
    assert chance_kind(state) == kind and state.stack[-1].detail("city") == 0


def test_a_twist_that_refers_to_another_hero_is_discarded_unresolved() -> None:
    """SOLO RULES: "when you draw an adventure, skill, or asset card that refers to another hero, discard it and draw a
    replacement"; TWISTS: twists "are a new type of asset". Generous Patron ("another hero in your hex gains 1 gold")
    drawn while shopping is discarded and replaced: its gold is not gained."""
    state = shopping()
    draw(state, "Generous Patron", BoardKind.SHOP_DRAW)
    assert amount_of(twist_effects(ELIAM, "Generous Patron"), "gain_gold") > 0
    assert state.hero_gold == setup_gold(ELIAM)
    assert names(ELIAM, state.asset_discard) == ["Generous Patron"]
    assert chance_kind(state) == BoardKind.SHOP_DRAW


# ---------------------------------------------------------------------------------------------------------- prepare
def test_a_prepare_token_is_spent_on_a_future_turn_for_one_more_action() -> None:
    """PREPARE ACTION: "When you take a prepare action, place a prepare token on your hero sheet. On a future turn,
    you can spend a prepare token to take 1 additional action during that turn." The token placed this turn cannot be
    spent this turn; next turn it is, for a fourth action."""
    state = position(ELIAM)
    act(state, "action: prepare")
    assert state.prepare == Prepare.PLACED and state.actions_left == 2
    assert "action: spend prepare" not in labels(state)
    act(state, "action: end turn")
    assert state.time == 1 and state.prepare == Prepare.HELD and state.actions_left == 3
    act(state, "action: spend prepare")
    assert state.prepare == Prepare.NONE and state.actions_left == 4
    for _ in range(4):
        act(state, "step: E")
    assert state.time == 2 and state.actions_left == 3


def test_a_hero_holds_at_most_one_prepare_token() -> None:
    """PREPARE ACTION: "You cannot have more than 1 prepare token on your hero sheet." With a token placed or held,
    the prepare action is not offered, and A Quiet Evening ("Gain a prepare token") gives none more."""
    for token in ("PLACED", "HELD"):
        state = position(ELIAM, prepare=token)
        assert "action: prepare" not in labels(state)
    state = shopping(prepare="PLACED")
    draw(state, "A Quiet Evening", BoardKind.SHOP_DRAW)
    assert state.prepare == Prepare.PLACED
    free = shopping()
    draw(free, "A Quiet Evening", BoardKind.SHOP_DRAW)
    assert free.prepare == Prepare.HELD


# ---------------------------------------------------------------------------------------------------------- turns
def test_a_turn_is_three_actions_and_the_time_token_advances_once_per_turn() -> None:
    """Public facts 3.3: "Each turn you have 3 actions, and may repeat an action"; "After every player has taken a
    turn, advance the time token one space" (solo: once per turn, RULES.md "Time"). Three steps without dice, then
    the next turn starts with the time one space on."""
    state = position(ELIAM)
    for left, label in zip((2, 1), ("step: E", "step: W"), strict=True):
        act(state, label)
        assert state.actions_left == left and state.time == 0
    act(state, "step: E")
    assert state.time == 1 and state.actions_left == 3 and decision_kind(state) == BoardKind.CHOOSE_ACTION
    assert hex_of(ELIAM, state.cell) == [1, 3]


def test_an_adventure_costs_two_actions_and_is_not_offered_with_one_left() -> None:
    """Public facts 3.3: "Adventure (costs 2 actions): when in a hex with a face-up adventure gem, draw from the
    matching-colour deck"; a warband fight costs 2 too (RULES.md, "Turns"). With 1 action left neither is offered;
    with 3, the adventure takes 2 and the gem."""
    warband = [RAZORWING_BAND | {"at": [2, 3]}]
    short = position(ELIAM, cell=[2, 3], actions_left=1, warbands=warband)  # a green gem
    assert "action: adventure" not in labels(short) and "action: fight warband" not in labels(short)
    two = position(ELIAM, cell=[2, 3], actions_left=2, warbands=warband)
    assert {"action: adventure", "action: fight warband"} <= set(labels(two))
    state = position(ELIAM, cell=[2, 3])
    act(state, "action: adventure")
    assert state.actions_left == 1 and state.cell not in state.gems
    assert chance_kind(state) == BoardKind.DRAW_ADVENTURE and state.stack[-1].detail("deck") == "exploration"


@pytest.mark.parametrize("time", STORY_TIMES)
def test_a_story_card_is_drawn_when_the_time_token_reaches_a_story_space(time: int) -> None:
    """Public facts 3.3: "Story cards trigger at set points on the track"; the set points are the spaces
    `story_spaces` of each Act (RULES.md, "Time", locust_swarm.yaml)."""
    state = position(ELIAM, time=time - 1)
    act(state, "action: end turn")
    assert state.time == time and chance_kind(state) == BoardKind.DRAW_STORY


@pytest.mark.parametrize("time", [time for time in TRACK if time not in STORY_TIMES])
def test_no_story_card_is_drawn_between_the_story_spaces(time: int) -> None:
    """Public facts 3.3: story cards trigger at set points only (RULES.md, "Time")."""
    state = position(ELIAM, time=time - 1)
    act(state, "action: end turn")
    assert state.time == time and chance_kind(state) != BoardKind.DRAW_STORY


@pytest.mark.parametrize("time", SPAWN_TIMES)
def test_a_face_down_warband_spawns_at_the_outlaw_glade_at_its_track_space(time: int) -> None:
    """Public facts 3.7: the warbands are put "face down ...; story cards flip these later", the first spawned "at
    Outlaw Glade"; solo plays all 5, the others at the track positions `warband_spaces` (RULES.md, "Setup"), each a
    chance draw among the face-down ones, with `start_units` units (after the story card of a story space)."""
    state = position(ELIAM, time=time - 1)
    pile = state.warband_pile
    end_turn(state)
    assert chance_kind(state) == BoardKind.SPAWN_WARBAND
    assert state.chance_outcomes() == [(card, 1 / len(pile)) for card in pile]
    card = pile[-1]
    draw(state, ELIAM.board.warbands[card].name, BoardKind.SPAWN_WARBAND)
    assert card not in state.warband_pile
    spawned = state.warbands[-1]
    assert spawned.card == card and spawned.units == SCENARIO.start_units
    assert ELIAM.land_distances[ELIAM.glade][spawned.cell] == 1  # spawned at the glade, then moved with the others


def test_warbands_spawn_exactly_at_the_scenarios_warband_spaces() -> None:
    """RULES.md, "Setup": the first warband spawns at setup, the others at the track positions of `warband_spaces`
    only. Every turn of the track is ended: a spawn comes exactly at those positions."""
    assert len(turn_start(ELIAM).warbands) == SCENARIO.warband_spaces.count(0)
    spawns = []
    for time in TRACK:
        state = position(ELIAM, time=time - 1)
        end_turn(state)
        if chance_kind(state) == BoardKind.SPAWN_WARBAND:
            spawns.append(time)
        else:
            assert chance_kind(state) is None and len(state.warbands) == 1, f"time {time}"
    assert spawns == SPAWN_TIMES


@pytest.mark.parametrize(
    ("time", "act_number", "enemy_tokens"),
    [(SCENARIO.act_length - 1, 1, 5), (SCENARIO.act_length, 2, 6), (2 * SCENARIO.act_length - 1, 2, 6)],
)
def test_act_two_starts_after_the_first_run_of_the_track_and_its_enemies_cast_six_tokens(
    time: int, act_number: int, enemy_tokens: int
) -> None:
    """Public facts 3.3: "The track is run twice: Act I, then flip the token to "2" for Act II"; "An enemy uses the
    first 4 + Act tokens (5 in Act I, 6 in Act II)" (the combat's rule; the board gives it the track's Act)."""
    state = position(ELIAM, time=time, warbands=[RAZORWING_BAND])
    assert state.act() == act_number == state.combat_act()
    act(state, "action: fight warband")
    assert len(state.combat_tokens[ENEMY]) == enemy_tokens


# ---------------------------------------------------------------------------------------------------------- warbands
@pytest.fixture(scope="module")
def line(tmp_path_factory: pytest.TempPathFactory) -> RuneboundGame:
    """Eliam on the line map (board_scenarios.LINE), in Tamalir at q = 5."""
    return RuneboundGame(hero="Eliam", card_directory=line_map(tmp_path_factory.mktemp("line")))


def band(q: int, units: int = 1, r: int = 0, name: str = "The Blood Harvest") -> dict[str, Any]:
    """A warband row of a state dict."""
    return {"warband": name, "at": [q, r], "units": units}


def sites(game: RuneboundGame, *site_names: str) -> list[list[int]]:
    """The `[q, r]` of the sites named."""
    return [site_hex(game, name) for name in site_names]


SHRINES = ("Old Altar", "Moonwell", "Stone Circle", "Shrine of the Dawn")


def test_a_warband_targets_the_civilized_hexes_its_units_reach(line: RuneboundGame) -> None:
    """Public facts 3.7: "Targeting by unit count: 1 unit -> shrines; 2 -> also towns; 3 -> also strongholds; 4 ->
    also cities"; CIVILIZED HEX: "A hex is considered civilized when it contains a city, a town, a stronghold, or a
    shrine." The Outlaw Glade is none of them."""
    state = position(line)
    by_kind = {kind: {line.board.map.site_cell(name) for q, (k, name) in LINE.items() if k == kind} for kind in KINDS}
    reached: set[int] = set()
    for units, kind in enumerate(KINDS, start=1):
        reached |= by_kind[kind]
        assert set(state.warband_targets(units)) == reached
    assert line.glade not in reached


KINDS = ("shrine", "town", "stronghold", "city")


@pytest.mark.parametrize(
    ("units", "target", "then"), [(1, "Moonwell", 7), (2, "Millford", 5), (3, "Blackwall Keep", 7), (4, "Tamalir", 5)]
)
def test_a_warband_moves_one_hex_toward_the_nearest_hex_it_can_target(
    line: RuneboundGame, units: int, target: str, then: int
) -> None:
    """Public facts 3.7: "Each warband moves 1 hex toward the nearest civilized hex it can target". From q = 6 the
    nearest city is 1 step west, the nearest stronghold 2 east, town 3 west, shrine 4 east: each unit count turns the
    warband toward its own. Only the target is scorched: the 2-unit warband passes through Tamalir (a city it cannot
    target) and leaves it be; the 4-unit one enters it as its target and scorches it."""
    state = position(line, warbands=[band(6, units)])
    step = state.warband_step(state.warbands[0])
    assert step is not None and step[0] == line.board.map.site_cell(target)
    end_turn(state)
    assert hex_of(line, state.warbands[0].cell) == [then, 0] and state.warbands[0].units == units
    reached = state.warbands[0].cell == line.board.map.site_cell(target)
    assert state.scorched == ((state.warbands[0].cell,) if reached else ())


def test_a_tie_between_nearest_targets_goes_to_the_lowest_cell(line: RuneboundGame) -> None:
    """Public facts 3.7 leave ties open; RULES.md, "Warbands": "ties go to the lowest cell id". Moonwell and Stone
    Circle are both 2 steps from q = 12: Moonwell's cell is lower, so the warband steps west; with Moonwell scorched it
    steps east."""
    moonwell, stone_circle = line.board.map.site_cell("Moonwell"), line.board.map.site_cell("Stone Circle")
    assert moonwell < stone_circle
    state = position(line, warbands=[band(12)])
    end_turn(state)
    assert hex_of(line, state.warbands[0].cell) == [11, 0]
    scorched = position(line, warbands=[band(12)], scorched=sites(line, "Moonwell"))
    end_turn(scorched)
    assert hex_of(line, scorched.warbands[0].cell) == [13, 0]


def test_a_warband_walks_a_shortest_path_over_land_round_water(line: RuneboundGame) -> None:
    """RULES.md, "Warbands": "nearest by steps over land (water hexes are not crossed; rivers are)". Shrine of the
    Dawn lies 2 hexes east of q = 21 across a water hex; the warband goes round it by row 1, one hex a turn, and
    scorches the shrine on the third turn."""
    scorched = sites(line, "Old Altar", "Moonwell", "Stone Circle")
    state = position(line, warbands=[band(21)], scorched=scorched)
    path = []
    for _ in range(3):
        end_turn(state)
        path.append(hex_of(line, state.warbands[0].cell))
    assert path == [[21, 1], [22, 1], [23, 0]]
    assert line.board.map.site_cell("Shrine of the Dawn") in state.scorched


def test_a_warband_entering_its_target_scorches_it_and_scorched_hexes_are_never_targeted(line: RuneboundGame) -> None:
    """Public facts 3.7: "Hexes with scorched-earth tokens can't be targeted"; RULES.md, "Warbands": "A warband
    entering its target scorches it". From q = 9 the warband crosses the river into Moonwell and scorches it; Moonwell
    is then no target, and the warband turns toward Stone Circle."""
    moonwell = line.board.map.site_cell("Moonwell")
    state = position(line, warbands=[band(9)])
    assert line.board.map.river_between(state.warbands[0].cell, moonwell)
    assert [list(edge) for edge in LINE_RIVER] == [[9, 0], [10, 0]]
    end_turn(state)
    assert state.warbands[0].cell == moonwell and state.scorched == (moonwell,)
    assert moonwell not in state.warband_targets(4)
    end_turn(state)
    assert hex_of(line, state.warbands[0].cell) == [11, 0]


def test_a_warband_with_no_target_gains_a_unit_instead_of_moving_up_to_four(line: RuneboundGame) -> None:
    """Public facts 3.7: "A warband with no valid target gains 1 unit instead of moving"; a warband has at most 4
    units (RULES.md, "Warbands"). With every shrine scorched a 1-unit warband grows to 2 and stays; with every
    civilized hex scorched a 4-unit warband stays at 4."""
    state = position(line, warbands=[band(12)], scorched=sites(line, *SHRINES))
    end_turn(state)
    assert hex_of(line, state.warbands[0].cell) == [12, 0] and state.warbands[0].units == 2
    every = [name for kind, name in LINE.values() if kind != "outlaw_glade"]
    full = position(line, warbands=[band(12, units=4)], scorched=sites(line, *every))
    end_turn(full)
    assert hex_of(line, full.warbands[0].cell) == [12, 0] and full.warbands[0].units == 4


@pytest.mark.parametrize("first", [9, 11])
def test_warbands_move_in_story_space_order(line: RuneboundGame, first: int) -> None:
    """Public facts 3.7: warbands move "in story-space order" (the order they spawned, RULES.md "Warbands"). Two
    1-unit warbands on either side of Moonwell, the only shrine not scorched: the first to move scorches it, and the
    second, left with no target, gains a unit."""
    second = 20 - first
    warbands = [band(first), band(second, name="The Black Tithe")]
    pile = [name for name in line.board.warbands.names if name not in {"The Blood Harvest", "The Black Tithe"}]
    shrines = sites(line, "Old Altar", "Stone Circle", "Shrine of the Dawn")
    state = position(line, warbands=warbands, warband_pile=pile, scorched=shrines)
    end_turn(state)
    mover, grower = state.warbands
    assert hex_of(line, mover.cell) == [10, 0] and mover.units == 1
    assert hex_of(line, grower.cell) == [second, 0] and grower.units == 2


def test_a_story_card_that_grows_the_warbands_grows_each_one_up_to_four(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """RULES.md, "Board effects": "`warbands_grow` (each warband in play gains units, at most 4)". A story card of its
    own (Drums of the Swarm: 2 units), added to a copy of the line map's content: drawn at a story space, it grows a
    1-unit warband to 3 and a 3-unit one to 4; both then move, as warbands with a target do."""
    content = line_map(tmp_path_factory.mktemp("grow"))
    drums = {
        "name": "Drums of the Swarm",
        "effects": [{"kind": "warbands_grow", "amount": 2}],
        "text": "Each warband on the board gains 2 units.",
    }
    edit_content(content, "story", story=[*read_content(content, "story")["story"], drums])
    game = RuneboundGame(hero="Eliam", card_directory=content)
    placed = ["The Blood Harvest", "The Black Tithe"]
    pile = [name for name in game.board.warbands.names if name not in placed]
    warbands = [band(12), band(16, units=3, name="The Black Tithe")]
    state = position(game, time=STORY_TIMES[0] - 1, warbands=warbands, warband_pile=pile)
    act(state, "action: end turn")
    draw(state, "Drums of the Swarm", BoardKind.DRAW_STORY)
    assert [warband.units for warband in state.warbands] == [3, 4]
    moved = [hex_of(game, warband.cell) != [q, 0] for warband, q in zip(state.warbands, (12, 16), strict=True)]
    assert moved == [True, True]


# ---------------------------------------------------------------------------------------------------------- movement
RIVERWATCH_STEPS = {
    "plains": ["E", "NW"],
    "mountains/water": ["E", "NW", "W"],
    "forest/hills": ["E", "NE", "NW"],
    "wild": ["E", "NE", "NW", "W"],
}
"""From Riverwatch (2, 6): E (3, 6) forest along a road, NE (3, 5) hills, NW (2, 5) plains over a bridge (a road
across the river), W (1, 6) plains across the river without a bridge; SW and SE are off the map."""


def test_the_move_offers_exactly_the_steps_each_die_face_allows() -> None:
    """Public facts 3.3: "Each die whose face matches a hex's terrain moves you into that hex. Wild faces match any
    terrain"; "On a road, any die result continues along the road"; "Crossing a river or swamp needs a water die. Any
    die can be used to cross a bridge." Tatianna rolls her 3 dice in Riverwatch: the mask is stop and, for each face
    rolled, the directions that face can step (movement.can_step), and nothing else."""
    state = position(TATIANNA)
    act(state, "action: move")
    rolled = ["plains", "mountains/water", "forest/hills"]
    for face in rolled:
        draw(state, face, BoardKind.ROLL_DIE)
    assert decision_kind(state) == BoardKind.MOVE_STEP
    expected = ["stop", *(f"move: {face} {way}" for face in rolled for way in RIVERWATCH_STEPS[face])]
    assert sorted(labels(state)) == sorted(expected)
    board = TATIANNA.board.map
    allowed = {
        BOARD_ACTIONS.move_id(face, direction)
        for face in state.dice
        for direction in range(6)
        if can_step(board, state.cell, direction, TERRAIN_DIE[face])
    }
    assert set(state.legal_actions()) == allowed | {BOARD_ACTIONS.stop}


@pytest.mark.parametrize("face", list(RIVERWATCH_STEPS))
def test_each_face_steps_where_its_terrain_roads_and_rivers_allow(face: str) -> None:
    """Public facts 3.3-3.4 (roads, rivers, bridges, "Wild faces match any terrain"): one die of each face in
    Riverwatch."""
    state = position(TATIANNA)
    act(state, "action: move")
    for _ in range(3):
        draw(state, face, BoardKind.ROLL_DIE)
    assert sorted(labels(state)) == sorted(["stop", *(f"move: {face} {way}" for way in RIVERWATCH_STEPS[face])])


def test_a_die_is_spent_per_step_and_the_unspent_dice_are_lost_at_the_stop() -> None:
    """Public facts 3.3: each die "moves you into that hex" (one die, one hex); RULES.md, "Movement": "unspent dice are
    lost at the stop". The water die crosses the river west; from there the plains die may go on; stopping ends the
    move with the other dice lost, one action spent."""
    state = position(TATIANNA)
    act(state, "action: move")
    for face in ("plains", "mountains/water", "forest/hills"):
        draw(state, face, BoardKind.ROLL_DIE)
    act(state, "move: mountains/water W")
    assert hex_of(TATIANNA, state.cell) == [1, 6]
    assert [FACE_NAMES[face] for face in state.dice] == ["plains", "forest/hills"]
    assert "move: mountains/water E" not in labels(state) and "move: plains W" in labels(state)  # (0, 6) plains
    act(state, "stop")
    assert state.dice == () and decision_kind(state) == BoardKind.CHOOSE_ACTION and state.actions_left == 2
    assert hex_of(TATIANNA, state.cell) == [1, 6]


def test_one_hex_without_dice_goes_to_any_neighbour() -> None:
    """Public facts 3.3: "either move 1 adjacent space without dice, or roll terrain dice"; RULES.md, "Movement": any
    neighbour on the map, across a river too. From Riverwatch: its four neighbours on the map."""
    state = position(TATIANNA)
    assert sorted(label for label in labels(state) if label.startswith("step:")) == sorted(
        f"step: {way}" for way in ("E", "NE", "NW", "W")
    )
    act(state, "step: W")
    assert hex_of(TATIANNA, state.cell) == [1, 6] and state.actions_left == 2


# ---------------------------------------------------------------------------------------------------------- shop
def shop_of(**fields: Any) -> BoardState:
    """Eliam in Tamalir with 3 gold holding the Dagger, Tamalir's market Short Sword (2), Leather Jerkin (2), Dwarven
    Plate (6); the shop draws the Mule (1)."""
    cards = with_cards(
        ELIAM,
        markets=[
            ["Short Sword", "Leather Jerkin", "Dwarven Plate"],
            ["War Hammer", "Longsword", "Ring of Might"],
            ["Battle Axe", "Arcane Staff", "Longbow"],
        ],
        held={"weapon": "Dagger"},
    )
    state = shopping(hero_gold=3, **cards, **fields)
    draw(state, "Mule", BoardKind.SHOP_DRAW)
    return state


def test_the_shop_draws_a_fourth_asset_and_buys_only_what_is_affordable_and_of_a_type_not_held() -> None:
    """Public facts 3.3: "Shop (city only): draw the top asset card into that city's market (making 4), then buy or
    discard 1"; "Only 1 asset of each type may be held". With 3 gold and a weapon held: the armor for 2 and the mount
    for 1 can be bought; not the Short Sword (a weapon is held), not the Dwarven Plate (6 gold); any of the 4 can be
    discarded; the Dagger can be sold."""
    state = shop_of()
    assert names(ELIAM, state.markets[0]) == ["Short Sword", "Leather Jerkin", "Dwarven Plate", "Mule"]
    assert sorted(labels(state)) == sorted(
        ["buy: slot 2", "buy: slot 4", *(f"discard asset: slot {k}" for k in range(1, 5)), "sell: weapon"]
    )


def test_a_shop_outside_a_city_or_in_a_scorched_one_is_not_offered() -> None:
    """Public facts 3.3: "Shop (city only)"; RULES.md, "Warbands": scorched earth has no shop."""
    assert "action: shop" in labels(position(ELIAM))
    assert "action: shop" not in labels(position(ELIAM, cell=[1, 3]))
    assert "action: shop" not in labels(position(ELIAM, scorched=[[0, 3]]))


@pytest.mark.parametrize(
    ("label", "gone"), [("buy: slot 2", "Leather Jerkin"), ("discard asset: slot 1", "Short Sword")]
)
def test_buying_or_discarding_one_leaves_three_in_the_market(label: str, gone: str) -> None:
    """Public facts 3.3: "then buy or discard 1, so 3 always remain"; "Buy ... at gold cost". Buying the Leather
    Jerkin pays 2 gold and fills the armor slot; discarding the Short Sword sends it to the discards; either way the
    market is 3 again and the shop action is over."""
    state = shop_of()
    act(state, label)
    assert len(state.markets[0]) == 3 and gone not in names(ELIAM, state.markets[0])
    if label.startswith("buy"):
        assert state.hero_gold == 3 - 2 and state.held("armor") is not None
        assert state.held("armor").name == "Leather Jerkin"  # type: ignore[union-attr]
    else:
        assert state.hero_gold == 3 and names(ELIAM, state.asset_discard) == ["Short Sword"]
    assert decision_kind(state) == BoardKind.CHOOSE_ACTION and state.actions_left == 2


def test_selling_an_asset_gives_its_gold_value_and_frees_its_slot() -> None:
    """Public facts 3.3: "Buy or sell at gold cost". Selling the Dagger (2) gives 2 gold and empties the weapon slot,
    so the Short Sword can now be bought; the shop goes on."""
    state = shop_of()
    act(state, "sell: weapon")
    assert state.hero_gold == 3 + 2 and state.held("weapon") is None
    assert names(ELIAM, state.asset_discard) == ["Dagger"]
    assert decision_kind(state) == BoardKind.SHOP and "buy: slot 1" in labels(state)


def test_selling_armor_never_leaves_the_hero_at_its_health_alive() -> None:
    """RULES.md, "Health": the hero's health is its card's + its armor's; "Board damage ... that reaches the health
    defeats the hero"; DESIGN.md: "Every position the rules reach loads back from its dict". Eliam (9) with the Chain
    Hauberk (+2) and 10 wounds sells the armor: the position the rules reach must be one its dict loads back as."""
    cards = with_cards(ELIAM, held={"armor": "Chain Hauberk"})
    state = shopping(wounds=10, **cards)
    draw(state, "Mule", BoardKind.SHOP_DRAW)
    if "sell: armor" in labels(state):  # a sale may be refused; a sale made must leave a position that can happen
        act(state, "sell: armor")
        assert state.wounds < state.max_health() or state.outcome == BoardOutcome.DEFEATED
        assert ELIAM.state_from_dict(state.to_dict()).to_dict() == state.to_dict()


# ---------------------------------------------------------------------------------------------------------- rest, train
@pytest.mark.parametrize(
    ("hero", "cell", "scorched", "healed"),
    [
        ("Eliam", [1, 3], [], 2),
        ("Eliam", [0, 3], [], 5),
        ("Eliam", [0, 3], [[0, 3]], 2),
        ("Eliam", [1, 4], [], 5),
        ("Corbin", [1, 3], [], 3),
    ],
)
def test_a_rest_heals_two_or_all_in_a_city_or_town_not_scorched(
    hero: str, cell: list[int], scorched: list[list[int]], healed: int
) -> None:
    """RULES.md, "Rest" (designed; the facts give no amounts): "heal 2 (`rest_heal`), all (`town_rest_heal`) in a city
    or town not scorched; Corbin heals 1 more". 5 wounds: 2 healed in the open, all in Tamalir or Millford, 2 in a
    scorched Tamalir, 3 for Corbin."""
    game = ELIAM if hero == "Eliam" else RuneboundGame(hero=hero)
    state = position(game, cell=cell, scorched=scorched, wounds=5)
    act(state, "action: rest")
    assert state.wounds == 5 - healed and state.actions_left == 2


def test_train_draws_two_skills_then_discards_down_to_the_hand_size() -> None:
    """Public facts 3.3: "Train draws skill cards"; 3.6: the hero's hand size; RULES.md, "Train": "draw 2 skills, then
    discard down to the hand size". Eliam (hand size 3) holding 2 draws 2 and discards 1."""
    state = position(ELIAM, **with_cards(ELIAM, hand=["Brawler", "Stoic"]))
    act(state, "action: train")
    draw(state, "Fearless", BoardKind.DRAW_SKILL)
    draw(state, "Inner Calm", BoardKind.DRAW_SKILL)
    assert decision_kind(state) == BoardKind.DISCARD_SKILL
    assert labels(state) == [f"discard skill: slot {k}" for k in range(1, 5)]
    act(state, "discard skill: slot 2")
    assert skill_names(state, state.hand) == ["Brawler", "Fearless", "Inner Calm"]
    assert skill_names(state, state.skill_discard) == ["Stoic"]
    assert decision_kind(state) == BoardKind.CHOOSE_ACTION and state.actions_left == 2


def test_learning_a_skill_pays_its_trophies_keeps_its_raise_and_takes_no_action() -> None:
    """Public facts 3.3: "A skill is learned by paying trophies"; RULES.md, "Train": the raise stays, "learning is no
    action". Brawler (1 combat trophy) raises Eliam's body from 2 to 3; without the trophy it is not offered."""
    hand = with_cards(ELIAM, hand=["Brawler"])
    assert "learn: slot 1" not in labels(position(ELIAM, **hand))
    state = position(ELIAM, trophies={"combat": 1}, **hand)
    act(state, "learn: slot 1")
    assert state.trophies == (0, 0, 0) and state.hand == () and skill_names(state, state.learned) == ["Brawler"]
    assert state.attribute("body") == 3 and state.actions_left == 3


def test_board_damage_that_reaches_the_health_defeats_the_hero() -> None:
    """RULES.md, "Fights and health": "Board damage (a twist, a story card, a failed test) that reaches the health
    defeats the hero." Pestilence's damage at a story space, with the wounds that damage short of the health."""
    damage = amount_of(ELIAM.board.story.by_name("Pestilence").effects, "damage")
    state = position(ELIAM, time=STORY_TIMES[0] - 1)
    state = edited(state, wounds=state.max_health() - damage)
    act(state, "action: end turn")
    assert state.outcome == BoardOutcome.ONGOING
    draw(state, "Pestilence", BoardKind.DRAW_STORY)
    assert state.outcome == BoardOutcome.DEFEATED and state.is_terminal() and state.returns() == [-1.0]


# ---------------------------------------------------------------------------------------------------------- quests
def holding_quest(quest: str, cell: list[int]) -> BoardState:
    """Eliam on `cell` holding `quest` (out of the adventure deck)."""
    deck = [card for card in turn_start(ELIAM).to_dict()["adventure_deck"] if card != quest]
    return position(ELIAM, cell=cell, quests=[quest], adventure_deck=deck)


def test_a_quest_is_completed_on_entering_its_target_with_the_dice() -> None:
    """RULES.md, "Quests" (designed): quests are "completed on entering their site". The Standing Stones (Stone Circle:
    1 exploration trophy and a skill): a plains/forest die into Stone Circle (forest) from the west completes it; the
    skill is drawn at once, before the move's next step ("Board effects": effects resolve in order, draws as chance
    events), and the move goes on with the dice left."""
    state = holding_quest("The Standing Stones", [3, 4])
    act(state, "action: move")
    for face in ("plains/forest", "mountains/water", "mountains/water", "mountains/water"):
        draw(state, face, BoardKind.ROLL_DIE)
    act(state, "move: plains/forest E")
    assert state.quests == () and state.trophies == (0, 1, 0)
    assert chance_kind(state) == BoardKind.DRAW_SKILL
    hand = len(state.hand)
    state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.hand) == hand + 1
    act(state, "stop")
    assert state.dice == ()


def test_a_quest_completed_by_a_step_without_dice_gives_its_whole_reward() -> None:
    """RULES.md, "Quests": completed on entering the site; "Board effects": draws are chance events. The Standing Stones
    completed by one hex without dice: the skill draw comes before the next action."""
    state = holding_quest("The Standing Stones", [3, 4])
    act(state, "step: E")
    assert state.quests == () and state.trophies == (0, 1, 0)
    assert chance_kind(state) == BoardKind.DRAW_SKILL


# ---------------------------------------------------------------------------------------------------------- tests
GREEN_GEM = [2, 3]
"""A green gem (exploration deck) west of Millford."""


@pytest.mark.parametrize("roll", range(1, 7))
def test_a_test_rolls_one_die_of_exact_chances_and_succeeds_at_the_difficulty(roll: int) -> None:
    """RULES.md, "Tests" (designed): "one d6 + the attribute + the skills exerted + a trinket's and an ability's bonus,
    against the difficulty: the reward at or above it, the failure below (exact chances: each face 1/6)". Rope Bridge
    tests body (Eliam: 2) at 5: a roll of 3 or more gains the exploration trophy, less takes 1 damage."""
    state = position(ELIAM, cell=GREEN_GEM)
    act(state, "action: adventure")
    draw(state, "Rope Bridge", BoardKind.DRAW_ADVENTURE)
    assert chance_kind(state) == BoardKind.TEST_ROLL  # no skill to exert: the roll is taken at once
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(1, 7)] == list(TEST_DIE)
    draw(state, roll, BoardKind.TEST_ROLL)
    success = roll + 2 >= 5
    assert state.trophies == ((0, 1, 0) if success else (0, 0, 0))
    assert state.wounds == (0 if success else 1)


def test_a_trinket_adds_its_bonus_to_tests_of_its_attribute() -> None:
    """RULES.md, "Tests": the total adds "a trinket's ... bonus" (Ring of Might: "Add 1 to your body tests"). Rope
    Bridge (body 5) passes on a 2 with the ring."""
    state = position(ELIAM, cell=GREEN_GEM, **with_cards(ELIAM, held={"trinket": "Ring of Might"}))
    act(state, "action: adventure")
    draw(state, "Rope Bridge", BoardKind.DRAW_ADVENTURE)
    draw(state, 2, BoardKind.TEST_ROLL)
    assert state.trophies == (0, 1, 0) and state.wounds == 0


def test_exerting_a_skill_adds_its_bonus_to_the_test_and_discards_it() -> None:
    """Public facts 3.3: "a skill card can be discarded ("exert") to re-roll dice or boost a stat during a test"
    (RULES.md, "Tests": the boost, skills of the test's attribute). Bog of Sorrows tests body at 8: Crusader's Vigor
    (+3) and Brawler (+1) may be exerted, Stoic (spirit) may not; with the Vigor exerted, 2 + 3 + a roll of 3 passes
    and a roll of 2 fails."""
    hand = ["Crusader's Vigor", "Brawler", "Stoic"]
    state = position(ELIAM, cell=GREEN_GEM, **with_cards(ELIAM, hand=hand))
    act(state, "action: adventure")
    draw(state, "Bog of Sorrows", BoardKind.DRAW_ADVENTURE)
    assert decision_kind(state) == BoardKind.EXERT
    assert sorted(labels(state)) == ["exert: slot 1", "exert: slot 2", "roll"]
    act(state, "exert: slot 1")
    assert skill_names(state, state.hand) == ["Brawler", "Stoic"]
    assert skill_names(state, state.skill_discard) == ["Crusader's Vigor"]
    act(state, "roll")
    bog = ELIAM.board.adventures.index_of("Bog of Sorrows")
    assert state.test_total(bog, state.stack[-1].detail("bonus")) == 2 + 3
    failed = state.clone()
    draw(state, 3, BoardKind.TEST_ROLL)
    assert state.trophies == (0, 2, 0) and state.wounds == 0
    draw(failed, 2, BoardKind.TEST_ROLL)
    assert failed.trophies == (0, 0, 0) and failed.wounds == 2


# ---------------------------------------------------------------------------------------------------------- fights
RAZORWING_CASTS = "every token's first face: Eliam's physical 1, physical 1, shield 1; the Razorwing's charges deal 3"


def cast_first_faces(state: BoardState) -> None:
    """Cast every token with its first face (RAZORWING_CASTS): the hero then acts, with 3 damage taken."""
    first_outcomes(state)
    assert decision_kind(state) is not None and "spend: hero token 1" in labels(state)


def finish_enemy(state: BoardState, hero_damage: int | None = None) -> BoardState:
    """The fight with the enemy 1 damage from defeat (and the hero's damage set when given), the hero to strike."""
    health = state.game.cards.enemies[state.enemy].health
    damage = {"hero": state.combat_damage[HERO] if hero_damage is None else hero_damage, "enemy": health - 1}
    round_damage = {"hero": state.combat_round_damage[HERO], "enemy": health - 1}
    return edited(state, combat_damage=damage, combat_round_damage=round_damage)


def test_a_won_adventure_fight_gives_the_cards_reward_and_keeps_the_fights_wounds() -> None:
    """Public facts 3.3: combat adventures are fights; RULES.md, "Fights": "the reward on a victory"; "Health": "after
    it, the wounds are the board's plus the damage the fight dealt". Razorwing Nest: its reward's gold and trophies;
    the 3 damage of the fight stay as wounds."""
    state = position(ELIAM, cell=[4, 0])  # a red gem
    act(state, "action: adventure")
    draw(state, "Razorwing Nest", BoardKind.DRAW_ADVENTURE)
    assert state.fighting() and state.combat_damage[HERO] == 0
    cast_first_faces(state)
    assert state.combat_damage[HERO] == 3
    state = finish_enemy(state)
    act(state, "spend: hero token 1")
    act(state, "strike")
    assert not state.fighting() and state.outcome == BoardOutcome.ONGOING
    reward = ELIAM.board.adventures.by_name("Razorwing Nest").reward
    assert state.hero_gold == gold_after(setup_gold(ELIAM), reward) and state.trophies == trophies_of(reward)
    assert state.wounds == 3
    assert decision_kind(state) == BoardKind.CHOOSE_ACTION and state.actions_left == 1


def test_a_lost_fight_ends_the_game() -> None:
    """Public facts 3.7 and the issue: the scenario is lost when the hero is defeated (RULES.md, "Fights": "a defeat
    loses the game"). The hero at 8 damage of 9 passes; the enemy's skull defeats it."""
    state = position(ELIAM, warbands=[RAZORWING_BAND])
    act(state, "action: fight warband")
    cast_first_faces(state)
    state = edited(state, combat_damage={"hero": 8, "enemy": 0})
    act(state, "pass")
    assert state.outcome == BoardOutcome.DEFEATED and state.is_terminal() and state.returns() == [-1.0]
    assert state.wounds >= state.max_health() and not state.fighting()


def test_armor_adds_health_in_fights_and_the_wounds_go_in_and_out_of_a_fight() -> None:
    """RULES.md, "Health" (designed): "the hero's health is its card's, + its armor's, + 1 per learned health, on the
    board and in a fight alike ... A fight starts from the hero's wounds and leaves it with the damage it ends with".
    With the Chain Hauberk (+2) and 4 wounds, the fight starts at 4 damage of 11; 3 more in the fight: 7 wounds."""
    cards = with_cards(ELIAM, held={"armor": "Chain Hauberk"})
    state = position(ELIAM, wounds=4, warbands=[RAZORWING_BAND], **cards)
    assert state.max_health() == 9 + 2 and state.combat_hero_wounds() == 4
    act(state, "action: fight warband")
    assert state.combat_damage[HERO] == 4 and state.combat_hero_health() == 11
    cast_first_faces(state)
    assert state.combat_damage[HERO] == 4 + 3
    state = finish_enemy(state)
    act(state, "spend: hero token 1")
    act(state, "strike")
    assert not state.fighting() and state.wounds == 4 + 3


def test_a_held_weapon_gives_its_combat_token() -> None:
    """Public facts 3.3: "Buying a weapon gives you its combat token": the hero casts its own tokens, then the
    Longsword's."""
    markets = [
        ["Short Sword", "Dagger", "Longbow"],
        ["War Hammer", "Mule", "Leather Jerkin"],
        ["Battle Axe", "Arcane Staff", "Prayer Beads"],
    ]
    cards = with_cards(ELIAM, markets=markets, held={"weapon": "Longsword"})
    state = position(ELIAM, warbands=[RAZORWING_BAND], **cards)
    act(state, "action: fight warband")
    tokens = [ELIAM.cards.tokens[held.token].name for held in state.combat_tokens[HERO]]
    assert tokens == ["Eliam 1", "Eliam 2", "Eliam 3", "Longsword"]


TWIN_BLADES = "ability: hero ability 1"
"""Eliam's first ability, Twin Blades, exerts (heroes.yaml): "you may exert and remove 2 of your physical tokens to
deal 3 physical that cannot be blocked"."""


def fighting_with(hand: list[str]) -> BoardState:
    """Eliam fighting the Razorwing warband with `hand` in hand, its first faces cast: two physical tokens showing."""
    state = position(ELIAM, warbands=[RAZORWING_BAND], **with_cards(ELIAM, hand=hand))
    act(state, "action: fight warband")
    cast_first_faces(state)
    return state


def test_an_exert_ability_is_offered_in_a_fight_only_with_a_skill_in_hand() -> None:
    """Public facts 3.3: "a skill card can be discarded ("exert")"; Twin Blades: "you may exert and remove 2 of your
    physical tokens" (RULES.md, "Exert in fights": an exert ability needs a skill in hand to discard)."""
    assert TWIN_BLADES not in labels(fighting_with([]))
    assert TWIN_BLADES in labels(fighting_with(["Brawler"]))


def test_exerting_in_a_fight_discards_the_only_skill_and_the_ability_resolves() -> None:
    """Public facts 3.3: exerting discards a skill card; Twin Blades removes 2 physical tokens and deals 3 physical
    that cannot be blocked. With one skill in hand there is nothing to choose: it is discarded at once."""
    state = fighting_with(["Brawler"])
    enemy_damage = state.combat_damage[ENEMY]
    act(state, TWIN_BLADES)
    assert state.hand == () and skill_names(state, state.skill_discard) == ["Brawler"]
    assert state.combat_damage[ENEMY] == enemy_damage + 3


def test_with_several_skills_the_hero_chooses_the_one_to_exert_before_the_ability_resolves() -> None:
    """Public facts 3.3: the skill discarded is the hero's choice; RULES.md, "Exert in fights": the choice is a
    decision of the board ("exert: slot k") above the fight's frames, and the ability is paid and resolved after it."""
    state = fighting_with(["Brawler", "Shield Wall"])
    enemy_damage = state.combat_damage[ENEMY]
    act(state, TWIN_BLADES)
    assert decision_kind(state) == BoardKind.FIGHT_EXERT and state.fighting()
    assert labels(state) == ["exert: slot 1", "exert: slot 2"]
    assert state.combat_damage[ENEMY] == enemy_damage and not any(held.spent for held in state.combat_tokens[HERO])
    assert edited(state).to_dict() == state.to_dict()  # the pending choice round-trips through its dict
    act(state, "exert: slot 2")
    assert skill_names(state, state.hand) == ["Brawler"] and skill_names(state, state.skill_discard) == ["Shield Wall"]
    assert state.combat_damage[ENEMY] == enemy_damage + 3


def test_an_exert_ability_that_defeats_the_enemy_ends_the_fight_after_the_choice() -> None:
    """Twin Blades deals 3 to an enemy 1 damage from defeat: the fight is won once the skill is chosen (RULES.md,
    "Fights": a warband defeated leaves the board)."""
    state = finish_enemy(fighting_with(["Brawler", "Shield Wall"]))
    act(state, TWIN_BLADES)
    act(state, "exert: slot 1")
    assert not state.fighting() and state.warbands == () and state.hand == (ELIAM.board.skills.index_of("Shield Wall"),)


def test_a_pending_exert_in_a_fight_is_refused_where_the_rules_never_put_it() -> None:
    """RULES.md, "Exert in fights": the choice stands on top of the fight's frames, for an exert ability of the hero
    not used this round, with a skill in hand; a saved position saying otherwise is refused naming the field."""
    state = fighting_with(["Brawler", "Shield Wall"])
    act(state, TWIN_BLADES)
    data = state.to_dict()
    frame = data["stack"][-1]
    for details, field in (
        ({"ability": 1, "paid": False}, "ability"),  # Blade Dance does not exert
        ({"ability": 7, "paid": False}, "ability"),
        ({"ability": 0, "paid": 1}, "paid"),
    ):
        bad = data | {"stack": [*data["stack"][:-1], frame | {"details": details}]}
        with pytest.raises(StateFormatError, match=field):
            ELIAM.state_from_dict(bad)
    with pytest.raises(StateFormatError, match="on top of the fight"):
        ELIAM.state_from_dict(data | {"stack": [*data["stack"][:-2], frame, data["stack"][-2]]})


def test_a_market_short_of_assets_with_no_deal_due_is_refused() -> None:
    """Public facts 3.3 and RULES.md, "Shop": a market is dealt back up to its 3 assets after every shop and at setup,
    so a saved position at a turn's start with a market of 2 (and assets left in the deck) is refused naming it."""
    markets = [list(market) for market in turn_start(ELIAM).to_dict()["markets"]]
    short = with_cards(ELIAM, markets=[markets[0][:2], *markets[1:]])
    with pytest.raises(StateFormatError, match=r"markets\[0\]"):
        position(ELIAM, **short)


def test_defeating_a_warband_removes_it_and_defeating_the_last_one_wins() -> None:
    """Public facts 3.7: "Win: defeat all warbands" (all 5: RULES.md, "Time, story and warbands"). The last warband,
    with none face down, is defeated: the scenario is won."""
    others = [name for name in ELIAM.board.warbands.names if name != RAZORWING_BAND["warband"]]
    state = position(ELIAM, warbands=[RAZORWING_BAND], warband_pile=[], defeated=others)
    act(state, "action: fight warband")
    cast_first_faces(state)
    state = finish_enemy(state)
    act(state, "spend: hero token 1")
    act(state, "strike")
    assert state.warbands == () and len(state.defeated) == len(ELIAM.board.warbands)
    assert state.outcome == BoardOutcome.WON and state.is_terminal() and state.returns() == [1.0]


def test_defeating_a_warband_with_others_left_goes_on() -> None:
    """RULES.md, "Fights": a warband defeated leaves the board (its reward, `WARBAND_REWARD`: gold and a combat trophy,
    designed); the game goes on while warbands remain face down."""
    state = position(ELIAM, warbands=[RAZORWING_BAND])
    act(state, "action: fight warband")
    cast_first_faces(state)
    state = finish_enemy(state)
    act(state, "spend: hero token 1")
    act(state, "strike")
    defeated = ELIAM.board.warbands.index_of(RAZORWING_BAND["warband"])
    assert state.warbands == () and state.defeated == (defeated,) and state.outcome == BoardOutcome.ONGOING
    assert state.warband_pile != ()
    assert state.hero_gold == gold_after(setup_gold(ELIAM), WARBAND_REWARD)
    assert state.trophies == trophies_of(WARBAND_REWARD) == (1, 0, 0)


def test_the_time_track_running_out_loses_the_scenario() -> None:
    """Public facts 3.3: "The track is run twice ... At the end of Act II, follow the scenario card"; the issue: the
    scenario is lost "when the time track runs out"."""
    state = position(ELIAM, time=2 * SCENARIO.act_length - 1)
    act(state, "action: end turn")
    assert state.time == 2 * SCENARIO.act_length and state.outcome == BoardOutcome.TIME_OUT
    assert state.is_terminal() and state.returns() == [-1.0]


# ---------------------------------------------------------------------------------------------------------- saved
def test_every_reached_position_round_trips_through_its_dict() -> None:
    """DESIGN.md: "Every position the rules reach loads back from its dict". 20 seeded random games (random hero),
    every 5th position: loaded back it saves the same dict and offers the same actions or outcomes."""
    game = RuneboundGame()
    checked = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if step % 5 == 0:
                data = state.to_dict()
                loaded = game.state_from_dict(data)
                assert loaded.to_dict() == data, f"seed {seed}, step {step}"
                assert loaded.legal_actions() == state.legal_actions()
                assert loaded.chance_outcomes() == state.chance_outcomes()
                checked += 1
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            step += 1
    assert checked > 20 * 10
