"""The frame engine (envs/core/engine.py) on three toy games: Tug (initiative), Party (standing orders) and
Spellbook (effects interrupted by events and level-ups, private options).

The issue: "decision, chance and automatic frames; a decision with one legal option taken by the rules, with a
per-kind opt-out for decisions that must always be asked; resume after an interrupting frame (an event inside an
effect, a level-up in the middle of a card)"; "collapse only where the number of options is public, and ask
otherwise"; "Caches are never saved"; "resample_hidden does not clear them: the resampled state offers the
original deck's outcomes and the decider's original actions".
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

import envs.core.engine as engine_module
from envs.core.decisions import DecisionFrame, stack_to_list
from envs.core.engine import Automatic, Decision, FrameEngine, FrameKind, UnknownFrameKindError, new_frame
from envs.core.game import CHANCE, TERMINAL, Game, State, StateFormatError
from envs.core.testing import (
    check_clone_independence,
    check_no_leak,
    check_resample_keeps_own_view,
    check_sampler_matches_outcomes,
    random_simulation,
)
from envs.toys import party, spellbook, tug
from envs.toys.party import PartyGame, PartyState
from envs.toys.spellbook import SpellbookGame, SpellbookState
from envs.toys.tug import TugGame, TugState

REPO_ROOT = Path(__file__).resolve().parents[2]
TOY_GAMES = {
    "tug": TugGame,
    "party_2": lambda: PartyGame(2),
    "party_3": lambda: PartyGame(3),
    "spellbook": SpellbookGame,
}


def frames(*stack: DecisionFrame) -> list[dict[str, Any]]:
    """A stack (bottom first) as a state dict writes it."""
    return stack_to_list(stack)


def settled(state: State) -> None:
    """The engine leaves every state it returns on a real decision, a chance event or the end."""
    assert isinstance(state, FrameEngine)
    assert state.is_settled(), f"the engine stopped on a frame it should have resolved: {state.stack[-1:]}"


# ------------------------------------------------------------------------------------------ the core contract
@pytest.mark.parametrize("name", TOY_GAMES)
def test_toys_pass_the_random_simulation_and_clone_checks(name: str) -> None:
    game = TOY_GAMES[name]()
    report = random_simulation(game, num_games=150, seed=3, invariants=(settled,), check_roundtrip_every=1)
    assert report.games == 150 and report.decisions > 150
    assert check_clone_independence(game, seed=3) > 0


@pytest.mark.parametrize("name", TOY_GAMES)
def test_every_state_survives_json_with_the_same_options(name: str) -> None:
    """A state saved through json.dumps/json.loads equals the original and offers the same actions and outcomes."""
    game = TOY_GAMES[name]()
    rng = np.random.default_rng(5)
    for _ in range(10):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.legal_actions()  # fill the caches: they must not travel
            state.chance_outcomes()
            loaded = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
            assert loaded.to_dict() == state.to_dict()
            assert loaded.current_player() == state.current_player()
            assert loaded.legal_actions() == state.legal_actions()
            assert loaded.chance_outcomes() == state.chance_outcomes()
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])


def test_spellbook_passes_the_hidden_information_checks() -> None:
    game = SpellbookGame()
    assert check_no_leak(game, seed=1) > 0
    assert check_resample_keeps_own_view(game, seed=1) > 0
    assert check_sampler_matches_outcomes(game, seed=1) > 0


# ------------------------------------------------------------------------------------------ the table
def test_a_table_entry_naming_no_method_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match=r"FRAME_KINDS\['tick'\]: resolve names '_tik'"):

        class Misspelt(FrameEngine):
            FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {"tick": Automatic("_tik")}

            def _tick(self, frame: DecisionFrame) -> None:
                """The method the table meant."""


def test_a_table_entry_that_is_not_a_kind_is_refused() -> None:
    with pytest.raises(TypeError, match=r"FRAME_KINDS\['tick'\]: expected a Decision, Chance or Automatic"):

        class Untyped(FrameEngine):
            FRAME_KINDS: ClassVar[Mapping[str, Any]] = {"tick": "_tick"}


def test_a_subclass_overriding_a_named_method_runs_its_own() -> None:
    """The table is compiled per class: a variant of a game overrides one rule by name."""

    class LoadedCoin(TugState):
        def _coin(self, frame: DecisionFrame) -> list[tuple[int, float]]:
            return [(1, 1.0)]

    state = LoadedCoin(game=TugGame())
    state._push(new_frame(CHANCE, tug.Kind.ROUND), new_frame(0, tug.Kind.END_ROUND))
    state._run()
    assert state.chance_outcomes() == [(1, 1.0)]
    assert TugGame().new_initial_state().chance_outcomes() == [(0, 0.5), (1, 0.5)]


def test_a_frame_of_an_unknown_kind_is_named() -> None:
    game = TugGame()
    state = game.new_initial_state()
    state.stack = (*state.stack, DecisionFrame(0, "juggle"))
    with pytest.raises(UnknownFrameKindError, match=r"no frame kind 'juggle'.*'initiative'"):
        state._run()
    data = game.new_initial_state().to_dict()
    data["stack"].append({"seat": 0, "kind": "juggle", "reason": "", "details": {}})
    with pytest.raises(StateFormatError, match="unknown frame kind 'juggle'") as error:
        game.state_from_dict(data)
    assert error.value.field == "stack[2].kind"


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ({"seat": 0, "kind": "round start"}, "'round start' is a chance event: its seat is -1"),
        ({"seat": 2, "kind": "initiative"}, "'initiative' needs a seat 0..1, got 2"),
        ({"seat": CHANCE, "kind": "end of round"}, "'end of round' needs a seat 0..1, got -1"),
    ],
)
def test_a_frame_whose_seat_does_not_fit_its_kind_is_refused(frame: dict[str, Any], message: str) -> None:
    data = TugGame().new_initial_state().to_dict()
    data["stack"].append({"reason": "", "details": {}, **frame})
    with pytest.raises(StateFormatError, match=re.escape(message)) as error:
        TugGame().state_from_dict(data)
    assert error.value.field == "stack[2].seat"


def test_a_saved_stack_the_rules_would_still_run_is_refused() -> None:
    """An automatic step on top, or a decision with one public option, is never where a game waits."""
    game = TugGame()
    data = game.new_initial_state().to_dict()
    data["stack"] = frames(new_frame(0, tug.Kind.END_ROUND))
    with pytest.raises(StateFormatError, match="resolve at once"):
        game.state_from_dict(data)
    data.update(energy=[0, 0], stack=frames(new_frame(0, tug.Kind.END_ROUND), new_frame(1, tug.Kind.INITIATIVE)))
    with pytest.raises(StateFormatError, match="resolve at once"):
        game.state_from_dict(data)


def test_frames_of_typed_kinds_are_shared_and_equal_their_saved_form() -> None:
    frame = new_frame(CHANCE, spellbook.Kind.EVENT, seat=1)
    assert new_frame(CHANCE, spellbook.Kind.EVENT, seat=1) is frame
    loaded = DecisionFrame.from_dict(json.loads(json.dumps(frame.to_dict())))
    assert type(loaded.kind) is str and loaded == frame and hash(loaded) == hash(frame)


# ------------------------------------------------------------------------------------------ caches
def test_caches_are_never_saved_and_a_clone_keeps_its_own() -> None:
    state = PartyGame(3).new_initial_state()
    legal = state.legal_actions()
    assert state._legal == tuple(legal)
    assert not any(key.startswith("_") for key in state.to_dict())
    clone = state.clone()
    clone.apply_action(party.EXPLORE)
    assert clone.is_chance_node() and clone._legal is None
    assert state._legal == tuple(legal) and state.legal_actions() == legal
    state.drop_caches()
    assert state._legal is None and state._outcomes is None


def _decisions_and_draws(game: Game, seed: int, games: int) -> list[State]:
    """States of random games at every node."""
    rng = np.random.default_rng(seed)
    states: list[State] = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            states.append(state.clone())
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    return states


def resampled_options_mismatches(game: Game, seed: int = 0) -> tuple[int, int]:
    """(mismatches, changes) over random states with their caches filled: a state resampled for the seat that is
    not the decider (or drawer) against the same resampled state reloaded from its dict, by legal actions and
    chance outcomes; `changes` counts resamples whose options differ from the original's (so the check bites)."""
    rng = np.random.default_rng(seed + 7)
    mismatches = changes = 0
    for state in _decisions_and_draws(game, seed, games=20):
        assert isinstance(state, FrameEngine)
        state.legal_actions()
        state.chance_outcomes()
        frame = state.stack[-1]
        seat = frame.detail("seat") if frame.seat == CHANCE else frame.seat
        other = state.resample_hidden(1 - seat, rng)
        reloaded = game.state_from_dict(other.to_dict())
        seen = (other.legal_actions(), other.chance_outcomes())
        truth = (reloaded.legal_actions(), reloaded.chance_outcomes())
        mismatches += seen != truth
        changes += truth != (state.legal_actions(), state.chance_outcomes())
    return mismatches, changes


def test_resampling_drops_the_cached_options_and_outcomes() -> None:
    """The resampled deck and hand give their own outcomes and options, as a reloaded state computes them."""
    mismatches, changes = resampled_options_mismatches(SpellbookGame())
    assert changes > 0, "no resample changed the options: the check would be vacuous"
    assert mismatches == 0


def test_the_resampling_check_catches_a_state_that_keeps_its_caches() -> None:
    """The planted defect: a resample that forgets `drop_caches` offers the original deck's draws."""

    class StaleSpellbook(SpellbookState):
        def resample_hidden(self, player: int, rng: np.random.Generator) -> SpellbookState:
            fresh = super().resample_hidden(player, rng)
            fresh._legal, fresh._outcomes = self._legal, self._outcomes
            return fresh

    class StaleGame(SpellbookGame):
        def new_initial_state(self) -> SpellbookState:
            return StaleSpellbook.from_dict(self, super().new_initial_state().to_dict())

        def state_from_dict(self, data: dict[str, Any]) -> SpellbookState:
            return SpellbookState.from_dict(self, data)

    mismatches, _ = resampled_options_mismatches(StaleGame())
    assert mismatches > 0


# ------------------------------------------------------------------------------------------ initiative (Tug)
def tug_position(holder: int, energy: Sequence[int], hand_overs: int, rope: int = 0, round_: int = 0) -> TugState:
    """Seat `holder` holds the initiative in round `round_`."""
    game = TugGame()
    data = game.new_initial_state().to_dict()
    data.update(
        rope=rope,
        energy=list(energy),
        hand_overs_left=hand_overs,
        round=round_,
        stack=frames(new_frame(0, tug.Kind.END_ROUND), new_frame(holder, tug.Kind.INITIATIVE)),
    )
    return game.state_from_dict(data)


def test_the_initiative_holder_acts_and_keeps_it() -> None:
    state = tug_position(holder=1, energy=(2, 2), hand_overs=2)
    assert state.legal_actions() == [tug.PULL, tug.HAND_OVER, tug.END_ROUND]
    state.apply_action(tug.PULL)
    assert (state.current_player(), state.rope, state.energy) == (1, -1, (2, 1))


def test_handing_over_gives_the_other_seat_the_initiative_a_bounded_number_of_times() -> None:
    state = tug_position(holder=0, energy=(1, 1), hand_overs=tug.HAND_OVERS)
    holders = []
    while tug.HAND_OVER in state.legal_actions():
        state.apply_action(tug.HAND_OVER)
        holders.append(state.current_player())
    assert holders == [1, 0][: tug.HAND_OVERS]
    assert state.legal_actions() == [tug.PULL, tug.END_ROUND]


def test_seats_that_only_hand_over_still_end_the_game() -> None:
    """With hand-overs bounded, the policy "hand over whenever you can, else end" finishes every round."""
    game = TugGame()
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state.apply_action(tug.HAND_OVER if tug.HAND_OVER in legal else tug.END_ROUND)
        decisions += 1
    assert decisions == tug.ROUNDS * (tug.HAND_OVERS + 1)
    assert state.round == tug.ROUNDS and state.rope == 0


def test_a_single_public_option_is_taken_by_the_rules() -> None:
    """Seat 1 has no energy and no hand-over left: ending the round is its only option, so the rules take it."""
    state = tug_position(holder=0, energy=(1, 0), hand_overs=1, round_=0)
    state.apply_action(tug.HAND_OVER)
    assert state.is_chance_node()  # the next round's coin: seat 1 was not asked
    assert state.round == 1 and state.energy == (2, 1)


# ------------------------------------------------------------------------------------------ standing orders (Party)
def party_position(**fields: Any) -> PartyState:
    """Three seats, seat 0 leads; `fields` override the state's."""
    game = PartyGame(3)
    data = game.new_initial_state().to_dict()
    data.update(fields)
    return game.state_from_dict(data)


def test_a_standing_order_is_carried_out_in_another_seats_turn_without_asking() -> None:
    state = party_position(loot=[1, 2, 1], wounds=[0, 0, 0], orders=[0, 1, 0], deck=[3, 2])
    state.apply_action(party.EXPLORE)  # seat 0 explores, no order of its own
    state.apply_action(party.TRAP)
    assert state.in_party == (1, 0, 1) and state.banked == (0, 2, 0) and state.wounds == (1, 1, 1)
    assert state.current_player() == 2  # the next leader; seat 1 was never asked
    assert state.decision() == new_frame(2, party.Kind.LEAD)


def test_a_seat_knocked_out_before_its_order_loses_its_loot() -> None:
    state = party_position(loot=[1, 3, 1], wounds=[0, party.KNOCKED_OUT - 1, 0], orders=[0, 0, 0], deck=[3, 2])
    state.apply_action(party.EXPLORE + 1)  # seat 0 orders "leave at 1 wound" and explores
    state.apply_action(party.TRAP)
    assert state.in_party == (0, 0, 1) and state.banked == (1, 0, 0)


def test_every_decision_of_party_is_a_leaders_turn() -> None:
    """Leaving is always legal, yet no seat is ever asked whether it leaves after another seat's draw."""
    rng = np.random.default_rng(2)
    game = PartyGame(3)
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            assert state.decision() == new_frame(state.leader, party.Kind.LEAD)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


# ------------------------------------------------------------------------------------------ effects (Spellbook)
def spellbook_position(
    hand: Sequence[int],
    level: Sequence[int] = (1, 1),
    xp: Sequence[int] = (0, 0),
    points: Sequence[int] = (0, 0),
    draw_first: bool = False,
) -> SpellbookState:
    """Seat 0's turn, about to play from `hand` (card ids), or to draw first; seat 1 holds two sparks."""
    game = SpellbookGame()
    hands = [[0] * len(spellbook.CARDS), [0] * len(spellbook.CARDS)]
    for card in hand:
        hands[0][card] += 1
    hands[1][spellbook.SPARK] += 2
    deck = [copies - hands[0][card] - hands[1][card] for card, copies in enumerate(spellbook.COPIES)]
    turn = [new_frame(0, spellbook.Kind.END_TURN), new_frame(0, spellbook.Kind.PLAY)]
    if draw_first:
        turn.append(new_frame(CHANCE, spellbook.Kind.DRAW, seat=0))
    data = game.new_initial_state().to_dict()
    data.update(
        deck=deck, hands=hands, level=list(level), xp=list(xp), points=list(points), turn=2, stack=frames(*turn)
    )
    return game.state_from_dict(data)


def effect_resumes(card: int, step: int) -> DecisionFrame:
    """The continuation of seat 0's `card` at `step`."""
    return new_frame(0, spellbook.Kind.EFFECT, card=card, seat=0, step=step)


def test_an_event_interrupts_an_effect_which_then_resumes() -> None:
    state = spellbook_position([spellbook.OMEN, spellbook.SPARK])
    state.apply_action(spellbook.PLAY + spellbook.OMEN)
    assert state.stack[-1] == new_frame(CHANCE, spellbook.Kind.EVENT, seat=0)
    assert state.stack[-2] == effect_resumes(spellbook.OMEN, 1)
    assert state.in_play == spellbook.OMEN and state.points == (0, 0)
    state.apply_action(spellbook.BOON)
    assert state.points == (2, 0)  # the boon, then the omen's own point after it
    assert state.in_play == spellbook.NONE and state.discard[spellbook.OMEN] == 1
    assert state.is_chance_node() and state.stack[-1].detail("seat") == 1  # seat 1's turn began


def test_an_effect_finishes_after_an_event_blew_its_card_out_of_play() -> None:
    state = spellbook_position([spellbook.OMEN, spellbook.SPARK])
    state.apply_action(spellbook.PLAY + spellbook.OMEN)
    state.apply_action(spellbook.GUST)
    assert state.points == (1, 0) and state.discard[spellbook.OMEN] == 1 and state.in_play == spellbook.NONE


def test_a_level_up_mid_effect_recalls_the_card_and_the_effect_still_finishes() -> None:
    state = spellbook_position([spellbook.RITUAL], level=(2, 1), xp=(1, 0))
    state.apply_action(spellbook.PLAY + spellbook.RITUAL)
    assert state.level == (3, 1) and state.current_player() == 0
    assert state.decision() == new_frame(0, spellbook.Kind.LEVEL_UP)
    assert state.stack[-2] == effect_resumes(spellbook.RITUAL, 1)
    assert state.legal_actions() == [spellbook.PERK_POINTS, spellbook.PERK_RECALL]
    state.apply_action(spellbook.PERK_RECALL)  # the ritual leaves play, back to the hand
    assert state.in_play == spellbook.NONE and state.hands[0][spellbook.RITUAL] == 1
    assert state.stack[-1] == new_frame(CHANCE, spellbook.Kind.EVENT, seat=0)  # its effect goes on: the event
    state.apply_action(spellbook.STORM)
    assert state.points == (2, 0) and state.xp == (1, 0)  # then xp 1 (no level past the last) and 2 points
    assert state.hands[0][spellbook.RITUAL] == 1 and state.discard[spellbook.RITUAL] == 0


def test_a_perk_with_one_public_option_is_taken_by_the_rules_mid_effect() -> None:
    """With the card blown away, the only perk is the points: the rules take it and count no decision."""
    state = spellbook_position([spellbook.RITUAL], level=(2, 1))
    decisions = state.decisions
    state.apply_action(spellbook.PLAY + spellbook.RITUAL)
    state.apply_action(spellbook.GUST)
    assert state.level == (3, 1) and state.points == (spellbook.PERK_VALUE + 2, 0)
    assert state.decisions == decisions + 1 and state.is_chance_node()


def test_a_single_private_option_is_still_asked() -> None:
    """Seat 0 draws a second nova it cannot play yet: "pass" is its only option, but its hand is private."""
    state = spellbook_position([spellbook.NOVA], draw_first=True)
    state.apply_action(spellbook.NOVA)
    assert state.current_player() == 0 and state.legal_actions() == [spellbook.PASS]
    decisions = state.decisions
    state.apply_action(spellbook.PASS)
    assert state.decisions == decisions + 1


def test_the_same_option_collapses_where_the_options_are_declared_public() -> None:
    """The counterpart: were the play's options public, the rules would take the pass and seat 1 would draw."""

    class PublicHands(SpellbookState):
        FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {
            **SpellbookState.FRAME_KINDS,
            spellbook.Kind.PLAY: Decision("_play_options", "_play"),
        }

    state = PublicHands.from_dict(SpellbookGame(), spellbook_position([spellbook.NOVA], draw_first=True).to_dict())
    decisions = state.decisions
    state.apply_action(spellbook.NOVA)
    assert state.is_chance_node() and state.stack[-1].detail("seat") == 1
    assert state.decisions == decisions


def test_the_game_ends_in_the_middle_of_an_effect() -> None:
    """The level-up's points reach the target: the game is over before the card's own point."""
    state = spellbook_position([spellbook.STUDY], points=(spellbook.TARGET - spellbook.PERK_VALUE, 0))
    state.apply_action(spellbook.PLAY + spellbook.STUDY)
    state.apply_action(spellbook.PERK_POINTS)
    assert state.current_player() == TERMINAL and state.stack == () and state.over
    assert state.points == (spellbook.TARGET, 0) and state.returns() == [1.0, -1.0]


# ------------------------------------------------------------------------------------------ the docs
def test_the_engines_examples_are_the_toys_code() -> None:
    """Every code line the module docstring shows is a line of a toy (comments aside), so the docs cannot drift."""
    doc = engine_module.__doc__
    assert doc is not None
    toy_lines = set()
    for module in (tug, party, spellbook):
        assert module.__file__ is not None
        toy_lines |= {line.strip() for line in Path(module.__file__).read_text(encoding="utf-8").splitlines()}
    shown = [line for line in doc.splitlines() if line.startswith("    ")]
    assert len(shown) > 10
    for line in shown:
        code = line.split("  #")[0].strip()
        assert code in toy_lines, f"the docstring shows {code!r}, which no toy has"
