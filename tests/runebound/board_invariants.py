"""Runebound board game's invariants of a position, for `benchmarks.state_fuzz --invariants`: checked apart from the
game's own validation, so that the fuzzer finds what validation lets through."""

from __future__ import annotations

from collections import Counter

from envs.core.game import State
from envs.runebound.board import BoardState
from envs.runebound.board_actions import BOARD_ACTIONS
from envs.runebound.board_state import MAX_GAME_LENGTH, NONE, BoardKind, BoardOutcome
from envs.runebound.state import COMBAT_KINDS


def state_invariants(state: State) -> None:
    """The position passes validation; every asset card, skill and warband is in exactly one place; a fight is on
    exactly while combat frames are on top of the board's (the hero's choice of a skill to exert above them); a market
    holds 3 assets but while cards are dealt or a shop is on; the game is over exactly when its outcome is set;
    decisions within bound."""
    assert isinstance(state, BoardState)
    state.validate()
    game = state.game
    held = [card for card in state.assets if card != NONE]
    markets = [card for market in state.markets for card in market]
    places = Counter([*state.asset_deck, *state.asset_discard, *state.set_aside, *markets, *held])
    assert all(places[card] == 1 for card in range(len(game.asset_card_names))), places
    skills = Counter([*state.skill_deck, *state.skill_discard, *state.hand, *state.learned])
    assert all(skills[skill] == 1 for skill in range(len(game.board.skills))), skills
    bands = Counter([*state.warband_pile, *(band.card for band in state.warbands), *state.defeated])
    assert all(bands[card] == 1 for card in range(len(game.board.warbands))), bands
    combat = [index for index, frame in enumerate(state.stack) if frame.kind in COMBAT_KINDS]
    assert bool(combat) == state.fighting()
    if combat:
        top = len(state.stack) - (state.stack[-1].kind == BoardKind.FIGHT_EXERT)
        assert combat == list(range(combat[0], top)), "the fight's frames are on top"
        if top < len(state.stack):
            assert state.hand and state.legal_actions() == [BOARD_ACTIONS.exert + k for k in range(len(state.hand))]
    kinds = {frame.kind for frame in state.stack}
    dealing = kinds & {
        BoardKind.BOARD_SETUP,
        BoardKind.DEAL_MARKET,
        BoardKind.SHOP,
        BoardKind.SHOP_DRAW,
        BoardKind.RESTOCK,
    }
    if not dealing and state.outcome == BoardOutcome.ONGOING and state.asset_deck:
        assert all(len(market) == game.board.scenario.market_size for market in state.markets), state.markets
    assert (state.outcome == BoardOutcome.ONGOING) == bool(state.stack)
    assert state.decisions <= MAX_GAME_LENGTH
