"""The board game's heuristic hero (agents/heuristics/runebound.py): complete games on every hero with legal actions
only, some of them won, fights left to the combat heuristic, the choices its docstring promises in positions written
as state dicts, and only public queries read."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from agents.heuristics.runebound import RuneboundBoardHeuristicAgent
from agents.heuristics.runebound_combat import RuneboundHeuristicAgent
from envs.runebound.board import BoardState
from envs.runebound.board_game import RuneboundGame
from envs.runebound.board_state import MAX_GAME_LENGTH, BoardKind, BoardOutcome
from envs.runebound.state import COMBAT_KINDS

from .board_scenarios import band_fighting, decision_kind, first_outcomes, hex_of, position, site_hex, with_cards

HEROES = ("Eliam", "Tatianna", "Master Thorn", "Corbin")
WIN_GAMES = 30
"""Seeded games of its strongest hero, of which it wins at least one (measured: about 20% won)."""
AGENT_FILE = Path(__file__).resolve().parents[2] / "agents" / "heuristics" / "runebound.py"


def play(game: RuneboundGame, seed: int, fights: RuneboundHeuristicAgent | None = None) -> BoardState:
    """One seeded game played by the heuristic, each action checked against the mask; with `fights`, every choice in
    a fight is checked against that combat heuristic's."""
    agent = RuneboundBoardHeuristicAgent(game)
    agent.reset(seed)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        mask = state.legal_actions_mask()
        action = agent.act(None, mask, state=state)
        assert mask[action], (game.action_label(action), state.legal_actions())
        if fights is not None and decision_kind(state) in COMBAT_KINDS:
            assert action == fights.act(None, mask, state=state)
        state.apply_action(action)
    return state


@pytest.mark.parametrize("hero", HEROES)
def test_it_plays_complete_games_with_legal_actions(hero: str) -> None:
    """Seeded games on each hero run to their end (a win, a defeat or the time track's end) with legal actions."""
    game = RuneboundGame(hero=hero)
    for seed in range(3):
        state = play(game, seed)
        assert state.outcome != BoardOutcome.ONGOING
        assert state.decisions < MAX_GAME_LENGTH


def test_it_wins_some_games() -> None:
    """Tatianna, the heuristic's strongest hero, wins at least one of its seeded games."""
    game = RuneboundGame(hero="Tatianna")
    wins = sum(play(game, seed).outcome == BoardOutcome.WON for seed in range(WIN_GAMES))
    assert wins >= 1


def test_fights_are_left_to_the_combat_heuristic() -> None:
    """Inside a fight every choice of the combat's is the combat heuristic's, unchanged (the combat's ids are the
    board's first); Eliam's exert ability (Twin Blades) adds the board's choice of a skill to exert."""
    game = RuneboundGame(hero="Eliam")
    combat = RuneboundHeuristicAgent(game)
    fought = 0
    for seed in range(3):
        state = play(game, seed, fights=combat)
        fought += len(state.defeated) + (state.outcome == BoardOutcome.DEFEATED)
    assert fought > 0


def equipped(game: RuneboundGame, weapon: str, **fields: object) -> BoardState:
    """The first turn's position (Tatianna's setup: the markets dealt in deck order) with `weapon` held, taken from
    its market, whose slot gets the deck's first card, and `fields` replaced."""
    data = position(game).to_dict()
    markets = [list(market) for market in data["markets"]]
    deck = list(data["asset_deck"])
    city, slot = next((c, m.index(weapon)) for c, m in enumerate(markets) if weapon in m)
    markets[city][slot] = deck.pop(0)
    assets = dict(data["assets"], weapon=weapon)
    return position(game, markets=markets, asset_deck=deck, assets=assets, **fields)


def choice(state: BoardState) -> str:
    """The heuristic's choice in `state`, by its label."""
    agent = RuneboundBoardHeuristicAgent(state.game)
    return state.game.action_label(agent.act(None, state.legal_actions_mask(), state=state))


def test_it_fights_a_warband_it_can_beat_on_its_hex() -> None:
    """Armed and unhurt on the hex of a one-unit warband (The Blood Harvest: the Razorwing, 5 health), it fights."""
    game = RuneboundGame(hero="Tatianna")
    state = equipped(game, "Longsword", cell=site_hex(game, "Outlaw Glade"))
    assert choice(state) == "action: fight warband"


def test_unarmed_it_leaves_a_warband_alone() -> None:
    """Weapons first: unarmed, it does not fight the same warband (an enemy of 5 health) on its hex."""
    game = RuneboundGame(hero="Tatianna")
    state = position(game, cell=site_hex(game, "Outlaw Glade"))
    assert choice(state) != "action: fight warband"


def test_hurt_it_rests_in_a_town_before_a_fight() -> None:
    """With wounds that keep it from a fight it would take, in a town (where a rest heals fully) and without gold for
    an upgrade, it rests."""
    game = RuneboundGame(hero="Tatianna")
    state = equipped(game, "Longsword", cell=site_hex(game, "Harrow Cross"), wounds=4, hero_gold=0)
    assert choice(state) == "action: rest"


def test_it_sells_its_weapon_for_a_better_one() -> None:
    """In Riverwatch with a Short Sword (worth 2 gold) and 2 gold, the Battle Axe (4 gold) in the market: it shops,
    sells the Short Sword and buys the Battle Axe."""
    game = RuneboundGame(hero="Tatianna")
    state = equipped(game, "Short Sword", hero_gold=2)
    assert state.cell == game.board.map.site_cell("Riverwatch")
    agent = RuneboundBoardHeuristicAgent(game)
    taken = []
    for _ in range(3):
        action = agent.act(None, state.legal_actions_mask(), state=state)
        taken.append(game.action_label(action))
        state.apply_action(action)
        first_outcomes(state)
    assert taken[0] == "action: shop" and taken[1] == "sell: weapon" and taken[2].startswith("buy: ")
    held = state.held("weapon")
    assert held is not None and held.name == "Battle Axe"


def test_in_a_fight_it_exerts_the_skill_worth_least_to_it() -> None:
    """Twin Blades exerts a skill (RULES.md, "Exert in fights"): of Shield Wall (learned: +1 health, 2 combat trophies)
    and Brawler (+1 body, 1 combat trophy), it keeps Shield Wall, the raise it values more (`LEARNED_WORTH`)."""
    game = RuneboundGame(hero="Eliam")
    band = band_fighting(game, "Razorwing", hex_of(game, game.board.map.site_cell("Tamalir")))
    state = position(game, warbands=[band], **with_cards(game, hand=["Shield Wall", "Brawler"]))
    state.apply_action(game.action_id("action: fight warband"))
    first_outcomes(state)
    state.apply_action(game.action_id("ability: hero ability 1"))
    assert decision_kind(state) == BoardKind.FIGHT_EXERT
    assert choice(state) == "exert: slot 2"


def test_it_reads_only_public_queries() -> None:
    """The heuristic reads the state through its public names only (no `state._...`, no `game._...`)."""
    tree = ast.parse(AGENT_FILE.read_text())
    private = [
        f"{node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("state", "game")
        and node.attr.startswith("_")
    ]
    assert private == []
