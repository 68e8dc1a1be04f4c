"""Unearth's rules: the state, setup, turns, Delver cards, rolls and modifiers, Stones, Wonders, claims, End of Age.

Every rule runs as a stack of frames (envs/core/decisions.py): the frame on top is either a decision of one seat
(`current_player()` is that seat), a chance event (`CHANCE`: a draw from a pile, a die roll) or an automatic step
of the rules (resolved at once by `_run`, never seen from outside). Resolving a frame pops it and may push more;
a rule that needs several steps pushes them in reverse, so the first runs first. A decision with a single legal
option is taken by the rules at once (RULES.md, "Decisions"), so every decision an agent sees is a real choice.

Interpretations of the rulebook are stated in RULES.md, section by section; the code cites them by name.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from envs.core.chance_labels import ChanceLabel, FrameChanceLabels
from envs.core.decisions import DecisionFrame
from envs.core.engine import Automatic, Chance, Decision, FrameEngine, FrameKind, new_frame
from envs.core.game import CHANCE
from envs.core.hidden import redeal
from envs.core.outcomes import rank_returns
from envs.unearth.actions import (
    DECLINE,
    GENERIC_WONDER,
    KEEP,
    MINUS,
    MODIFIER_AMOUNTS,
    PLUS,
    REROLL,
)
from envs.unearth.cards import NamedWonder, formula_fits
from envs.unearth.claims import PlacedDie, resolve_claim
from envs.unearth.scoring import FinalStandings, PlayerHoldings, final_standings
from envs.unearth.state import (  # noqa: F401 - the kinds and sizes are read from here by the other modules
    APPLY_MODIFIERS,
    BAG_STONE,
    BUILD_WONDER,
    CHANCE_KINDS,
    CHECK_CLAIMS,
    CHOOSE_END_OF_AGE,
    CHOOSE_NAMED,
    CHOOSE_REMOVED,
    DEAL_DELVER,
    DEAL_HIDDEN_RUIN,
    DECISION_KINDS,
    DELVER_PHASE,
    DRAW_DELVER,
    DRAW_REMOVED,
    EDIFICE_REROLL,
    END_TURN,
    EXCAVATE,
    EXCAVATION_DIE,
    EXCAVATION_RUIN,
    FIRST_PLAYER,
    GAIN_STONE,
    GREATER,
    LESSER,
    MAP_REROLL,
    MODIFIER_ORDER,
    NAME_NUMBER,
    NAMED_BASE,
    NOWHERE,
    PLACE_STONE,
    READING_SIGN,
    REMOVE_RUIN,
    RESOLVE_ROLL,
    REVEAL_RUIN,
    ROLL,
    START_TURN,
    STEP_CLAIMS,
    STEP_DONE,
    STEP_EDIFICE,
    STEP_MAP,
    STEP_MODIFIERS,
    STEP_RUIN,
    STEP_STONE,
    STONE_TO_RUIN,
    TABLE_SIZE,
    TAKE_STONE,
    TARGET_DIE,
    WONDER_MODIFIER,
    WONDER_TOKEN,
    UnearthStateData,
)
from envs.unearth.tableau import NUM_COLOURS
from envs.unearth.validation import validate_state

if TYPE_CHECKING:
    pass

MIN_PLAYERS = 2
REMOVED_AT_SETUP = {2: 10, 3: 5, 4: 5}
"""Ruins put back in the box unseen at setup ("remove 10 Ruins Cards" in a 2-player game, else the top five)."""
DELVERS_DEALT = 2
"""Delver cards dealt to each player at setup."""
NAMED_WONDERS_EXTRA = 2
"""Named Wonders in play: number of players + 2."""
MAX_GAME_LENGTH = 4000
"""Bound on decisions in one game (measured games stay far below it: RULES.md)."""

PRIVATE_OPTION_COUNT = frozenset({DELVER_PHASE})
"""Decisions whose number of options the other seats cannot see (the Delver cards a seat can play depend on its
hidden hand): asked even with one option, since taking it at once would tell the table the hand has no playable
card (RULES.md, "The engine")."""
STONE_FACES = 3
"""A roll of 1, 2 or 3 gains a Stone."""

Counts = tuple[int, ...]


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """`values` with entry `index` replaced."""
    return (*values[:index], value, *values[index + 1 :])


def _add(counts: Counts, index: int, amount: int) -> Counts:
    return _with(counts, index, counts[index] + amount)


def _clamp(value: int, faces: int) -> int:
    """A modified result stays within the die ("never lower than 1, nor higher than the highest value")."""
    return 1 if value < 1 else faces if value > faces else value


@functools.cache
def modifier_results(value: int, faces: int, amounts: tuple[int, ...]) -> frozenset[int]:
    """Every final result of applying `amounts` one at a time, each clamped, over all orders (RULES.md)."""
    if not amounts:
        return frozenset((value,))
    results: set[int] = set()
    for amount in set(amounts):
        rest = list(amounts)
        rest.remove(amount)
        results |= modifier_results(_clamp(value + amount, faces), faces, tuple(sorted(rest)))
    return frozenset(results)


def _ruin_revealed(state: UnearthState, frame: DecisionFrame, ruin: int) -> str:
    return f"Ruin {state.game.ruins[ruin].name} is revealed at place {frame.detail('place') + 1}"


def _stone_to_ruin(state: UnearthState, frame: DecisionFrame, colour: int) -> str:
    return f"a {state.game.colour_names[colour]} Stone goes on place {frame.detail('place') + 1}"


def _rolled(state: UnearthState, frame: DecisionFrame, value: int) -> str:
    seat, die = frame.detail("seat"), frame.detail("die")
    return f"seat {seat} rolls {value} on die {die + 1} (d{state.game.cards.die_sides[die]})"


def _wonder_size(frame: DecisionFrame) -> str:
    return "Greater" if frame.detail("greater") else "Lesser"


def _wonder_built(state: UnearthState, frame: DecisionFrame, points: int) -> str:
    return f"seat {frame.detail('seat')} builds a {_wonder_size(frame)} Wonder worth {points}"


def _wonder_built_face_down(state: UnearthState, frame: DecisionFrame, points: int) -> str:
    return f"seat {frame.detail('seat')} builds a {_wonder_size(frame)} Wonder (face down)"


DELVERS, RUINS, COLOURS = attrgetter("game.cards.delvers"), attrgetter("game.ruins"), attrgetter("game.colour_names")
"""What a drawn Delver card, Ruin or Stone colour indexes (a chance label's `items`)."""
DELVER_DRAWN = ChanceLabel(
    "seat {seat} draws {item.name}", items=DELVERS, hidden="seat {seat} draws a Delver card", seen_by="seat"
)


class UnearthState(UnearthStateData, FrameEngine, FrameChanceLabels):  # type: ignore[misc]
    """A game of Unearth: the declared state (state.py) and every rule as a method, run by the core frame engine."""

    FRAME_KINDS: ClassVar[Mapping[str, FrameKind]] = {
        **{
            kind: Decision(
                "_decision_options",
                "_resolve_decision",
                no_option="_resolve_no_option",
                options_public=kind not in PRIVATE_OPTION_COUNT,
            )
            for kind in DECISION_KINDS
        },
        **{
            kind: Chance("_chance_outcomes", "_resolve_chance", nothing="_resolve_chance_nothing")
            for kind in CHANCE_KINDS
        },
        START_TURN: Automatic("_start_turn"),
        END_TURN: Automatic("_end_turn"),
        EXCAVATE: Automatic("_excavate"),
        RESOLVE_ROLL: Automatic("_resolve_roll"),
        APPLY_MODIFIERS: Automatic("_apply_modifiers"),
        GAIN_STONE: Automatic("_gain_stone"),
        CHECK_CLAIMS: Automatic("_check_claims"),
    }
    """Every frame kind and the methods that run it (envs/core/engine.py)."""
    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
        DEAL_DELVER: DELVER_DRAWN,
        DRAW_DELVER: DELVER_DRAWN,
        DEAL_HIDDEN_RUIN: ChanceLabel(
            "seat {seat} is dealt hidden Ruin {item.name}",
            items=RUINS,
            hidden="seat {seat} is dealt a hidden Ruin",
            seen_by="seat",
        ),
        REMOVE_RUIN: ChanceLabel("Ruin {item.name} is removed unseen", items=RUINS, hidden="a Ruin is removed unseen"),
        CHOOSE_END_OF_AGE: ChanceLabel(
            "End of Age card {item.name} goes under the Ruins deck",
            items=attrgetter("game.cards.end_of_age"),
            hidden="an End of Age card goes under the Ruins deck",
        ),
        REVEAL_RUIN: ChanceLabel(_ruin_revealed),
        STONE_TO_RUIN: ChanceLabel(_stone_to_ruin),
        CHOOSE_NAMED: ChanceLabel("Named Wonder {item.name} is in play", items=attrgetter("game.cards.named_wonders")),
        FIRST_PLAYER: ChanceLabel("seat {outcome} goes first"),
        ROLL: ChanceLabel(_rolled),
        BAG_STONE: ChanceLabel("seat {seat} draws a {item} Stone from the bag", items=COLOURS),
        WONDER_TOKEN: ChanceLabel(_wonder_built, hidden=_wonder_built_face_down, seen_by="seat"),
        DRAW_REMOVED: ChanceLabel(
            "seat {seat} adds removed Ruin {item.name} to its hidden Ruins",
            items=RUINS,
            hidden="seat {seat} adds a removed Ruin to its hidden Ruins",
            seen_by="seat",
        ),
    }
    """How each chance outcome reads, and what the seats that may not see it read (envs/core/chance_labels.py):
    others' Delver cards, hidden Ruins and Wonder token values are not named, nor the Ruins and End of Age card
    nobody sees."""

    def validate(self) -> None:
        """Refuse every position that cannot happen, naming the field (validation.py)."""
        validate_state(self)

    # ------------------------------------------------------------------------------------------ the contract
    @property
    def num_players(self) -> int:
        """Seats in this game."""
        return self.game.spec.num_players

    def returns(self) -> list[float]:
        """+1 to a sole winner, -1 to every seat below first place; seats sharing first place get 0 (RULES.md)."""
        if not self.over:
            return [0.0] * self.num_players
        places = self.standings().places
        winners = places.count(1)
        return [(1.0 if winners == 1 else 0.0) if place == 1 else -1.0 for place in places]

    def score(self) -> list[float]:
        """Every seat's final points as the rulebook scores them (0 until the game ends)."""
        if not self.over:
            return [0.0] * self.num_players
        return [float(total) for total in self.standings().totals]

    def rewards(self, mode: str = "win") -> list[float]:
        """ "win" (returns), "rank" (tie-aware places, the claim-value tie-break included) or "score" (RULES.md)."""
        if mode == "rank":
            if not self.over:
                return [0.0] * self.num_players
            return rank_returns(self.standings().tie_broken_scores)
        if mode == "score":
            scores = self.score()
            if not self.over:
                return scores
            return [
                scores[seat] - max(scores[other] for other in range(self.num_players) if other != seat)
                for seat in range(self.num_players)
            ]
        return super().rewards(mode)

    def episode_info(self, player: int = 0) -> dict[str, Any]:
        """Won, score and place of `player`, and the points it made from Ruins and from Wonders."""
        info = super().episode_info(player)
        if self.over:
            standings = self.standings()
            breakdown = standings.breakdowns[player]
            info.update(
                place=standings.places[player],
                ruin_points=breakdown.ruin_points,
                wonder_points=breakdown.wonder_points,
                wonders=self.tableaus[player].wonder_count,
            )
        return info

    def action_label_for(self, action: int, player: int | None) -> str:
        """The decision as `player` may see it: the removed Ruin The Crumbling Memorial takes is named to its owner
        only (the others see that a removed Ruin joined the hidden Ruins)."""
        frame = self.decision()
        if frame is not None and frame.kind == CHOOSE_REMOVED and frame.seat != player:
            return f"seat {frame.seat} adds a removed Ruin to its hidden Ruins"
        return self.game.action_label(action)

    # ------------------------------------------------------------------------------------------ queries
    def standings(self) -> FinalStandings:
        """Every seat's score breakdown, tie-break key and place, as if the game ended now."""
        ruins = self.game.ruins
        named = self.game.cards.named_wonders
        holdings = [
            PlayerHoldings(
                ruins=tuple(ruins[r] for r in self.claimed[seat]),
                hidden_ruins=tuple(ruins[r] for r in self.hidden_ruins[seat]),
                stones=self.tableaus[seat].stones_by_colour,
                lesser_wonders=self.lesser_built[seat],
                greater_wonders=self.greater_built[seat],
                named_wonders=tuple(named[k] for k in self.named_built[seat]),
            )
            for seat in range(self.num_players)
        ]
        return final_standings(holdings)

    def owns(self, seat: int, effect_kind: str) -> tuple[NamedWonder, ...]:
        """The Named Wonders `seat` built whose effect is of `effect_kind`."""
        named = self.game.cards.named_wonders
        return tuple(named[k] for k in self.named_built[seat] if named[k].effect.kind == effect_kind)

    def dice_on(self, place: int) -> list[PlacedDie]:
        """The dice on the Ruin at table place `place`."""
        sides = self.game.cards.die_sides
        return [
            PlacedDie(seat, sides[die], self.die_value[seat][die])
            for seat in range(self.num_players)
            for die in range(len(sides))
            if self.die_place[seat][die] == place
        ]

    def placed_dice(self) -> list[tuple[int, int]]:
        """(seat, die) of every die on a Ruin."""
        return [
            (seat, die)
            for seat in range(self.num_players)
            for die, place in enumerate(self.die_place[seat])
            if place != NOWHERE
        ]

    def ruins_on_table(self) -> list[int]:
        """Table places holding a Ruin."""
        return [place for place, ruin in enumerate(self.table) if ruin != NOWHERE]

    def unseen_delvers(self, player: int) -> Counts:
        """Delver cards `player` cannot see, per type: the draw pile and the other hands together."""
        counts = list(self.delver_deck)
        for seat in range(self.num_players):
            if seat != player:
                counts = [a + b for a, b in zip(counts, self.hands[seat], strict=True)]
        return tuple(counts)

    def wonder_options(self, seat: int, centre: int) -> list[int]:
        """`build` indices for the ring around `centre`: the generic Wonder, and each Named Wonder in play it fits."""
        colours = self.tableaus[seat].ring_colours(centre)
        named = self.game.cards.named_wonders
        fits = [k for k in self.named_in_play if formula_fits(named[k].formula, colours)]
        return [GENERIC_WONDER, *(1 + k for k in fits)]

    # ------------------------------------------------------------------------------------------ the engine
    def _game_over(self) -> bool:
        """The last Ruin is claimed after the End of Age card was revealed (the first test settles most steps)."""
        return (
            self.end_of_age_revealed
            and not self.ruin_deck
            and self.active != NOWHERE
            and all(r == NOWHERE for r in self.table)
        )

    def _end_game(self) -> None:
        """The game is over: the engine has emptied the stack."""
        self.over = True

    def _count_decision(self, frame: DecisionFrame) -> None:
        """A seat's decision (not one the rules took) counts toward `decisions`."""
        self.decisions += 1

    # ------------------------------------------------------------------------------------------ chance
    def _chance_outcomes(self, frame: DecisionFrame) -> list[tuple[int, float]]:
        kind = frame.kind
        if kind in (DEAL_DELVER, DRAW_DELVER):
            deck = self.delver_deck if sum(self.delver_deck) else self.delver_discard
            return _pile(deck)
        if kind in (DEAL_HIDDEN_RUIN, REMOVE_RUIN, REVEAL_RUIN):
            return _uniform(self.ruin_deck)
        if kind == CHOOSE_END_OF_AGE:
            return _uniform(range(len(self.game.cards.end_of_age)))
        if kind in (STONE_TO_RUIN, BAG_STONE):
            return _pile(self.bag)
        if kind == CHOOSE_NAMED:
            chosen = set(self.named_in_play)
            return _uniform([k for k in range(len(self.game.cards.named_wonders)) if k not in chosen])
        if kind == FIRST_PLAYER:
            return _uniform(range(self.num_players))
        if kind == ROLL:
            return _die_outcomes(self.game.cards.die_sides[frame.detail("die")])
        if kind == WONDER_TOKEN:
            return _uniform(self.greater_tokens if frame.detail("greater") else self.lesser_tokens)
        if kind == DRAW_REMOVED:
            return _uniform(self.removed)
        raise AssertionError(f"unknown chance event {kind!r}")

    def _resolve_chance_nothing(self, frame: DecisionFrame) -> None:
        """A chance event with nothing to draw: an empty pile or bag, no token left, no removed Ruin."""
        if frame.kind == REVEAL_RUIN:
            self._reveal_end_of_age(frame.detail("place"))
        elif frame.kind == WONDER_TOKEN:  # no token left: the ring holds a Wonder worth nothing (RULES.md)
            self._set_generic_wonder(frame, 0)

    def _resolve_chance(self, frame: DecisionFrame, outcome: int) -> None:
        kind = frame.kind
        if kind in (DEAL_DELVER, DRAW_DELVER):
            if not sum(self.delver_deck):  # "Reshuffle the discard pile to make a new Delver Deck"
                self.delver_deck, self.delver_discard = self.delver_discard, (0,) * len(self.delver_discard)
            seat = frame.detail("seat")
            self.delver_deck = _add(self.delver_deck, outcome, -1)
            self.hands = _with(self.hands, seat, _add(self.hands[seat], outcome, 1))
        elif kind == DEAL_HIDDEN_RUIN:
            seat = frame.detail("seat")
            self.ruin_deck = _without(self.ruin_deck, outcome)
            self.hidden_ruins = _with(self.hidden_ruins, seat, (*self.hidden_ruins[seat], outcome))
        elif kind == REMOVE_RUIN:
            self.ruin_deck = _without(self.ruin_deck, outcome)
            self.removed = tuple(sorted((*self.removed, outcome)))
        elif kind == CHOOSE_END_OF_AGE:
            self.end_of_age = outcome
        elif kind == REVEAL_RUIN:
            self.ruin_deck = _without(self.ruin_deck, outcome)
            self._place_ruin(frame.detail("place"), outcome)
        elif kind == STONE_TO_RUIN:
            place = frame.detail("place")
            self.bag = _add(self.bag, outcome, -1)
            self.ruin_stones = _with(self.ruin_stones, place, _add(self.ruin_stones[place], outcome, 1))
        elif kind == CHOOSE_NAMED:
            self.named_in_play = tuple(sorted((*self.named_in_play, outcome)))
        elif kind == FIRST_PLAYER:
            self.first_player = self.active = outcome
            self._push(new_frame(outcome, START_TURN))
        elif kind == ROLL:
            self._rolled(frame, outcome)
        elif kind == BAG_STONE:
            self.bag = _add(self.bag, outcome, -1)
            seat = frame.detail("seat")
            if frame.detail("library"):
                self.library_draws = (*self.library_draws, outcome)
            else:
                self._push(new_frame(seat, PLACE_STONE, frame.reason, seat=seat, colour=outcome))
        elif kind == WONDER_TOKEN:
            tokens = self.greater_tokens if frame.detail("greater") else self.lesser_tokens
            tokens = _without(tokens, outcome)
            if frame.detail("greater"):
                self.greater_tokens = tokens
            else:
                self.lesser_tokens = tokens
            self._set_generic_wonder(frame, outcome)
        elif kind == DRAW_REMOVED:
            seat = frame.detail("seat")
            self.removed = _without(self.removed, outcome)
            self.hidden_ruins = _with(self.hidden_ruins, seat, (*self.hidden_ruins[seat], outcome))

    def _place_ruin(self, place: int, ruin: int) -> None:
        """A Ruin goes face up on `place`, and its Stones value in Stones from the bag onto it."""
        self.table = _with(self.table, place, ruin)
        stones = self.game.ruins[ruin].stones
        self._push(*(new_frame(CHANCE, STONE_TO_RUIN, self.game.ruins[ruin].name, place=place) for _ in range(stones)))

    def _reveal_end_of_age(self, place: int) -> None:
        """The Ruins deck is empty: the End of Age card is revealed in its place, once (RULES.md, "End of Age")."""
        if self.end_of_age_revealed:
            return
        self.end_of_age_revealed = True
        card = self.game.cards.end_of_age[self.end_of_age]
        if card.ruin is not None:
            self._place_ruin(place, self.game.end_of_age_ruin[self.end_of_age])
            return
        assert card.effect is not None
        if card.effect.kind == "all_rolls_modifier":
            self.roll_modifier += card.effect.amount
        elif card.effect.kind == "each_player_draws_delvers":
            seats = [(self.active + offset) % self.num_players for offset in range(self.num_players)]
            self._push(
                *(
                    new_frame(CHANCE, DRAW_DELVER, card.name, seat=seat)
                    for seat in seats
                    for _ in range(card.effect.cards)
                )
            )

    # ------------------------------------------------------------------------------------------ turns
    def _start_turn(self, frame: DecisionFrame) -> None:
        self.turn += 1
        self._push(new_frame(self.active, DELVER_PHASE))

    def _end_turn(self, frame: DecisionFrame) -> None:
        self.map_rerolls = self.extra_dice = self.expeditions = self.reading = self.ancestral = 0
        self.active = (self.active + 1) % self.num_players
        self._push(new_frame(self.active, START_TURN))

    def _card_playable(self, effect_kind: str) -> bool:
        if effect_kind in ("name_a_number_reroll", "modify_placed_die", "reroll_placed_die"):
            return bool(self.placed_dice())
        if effect_kind == "reroll_own_dice":
            return any(place != NOWHERE for place in self.die_place[self.active])
        return True

    def _play_card(self, card_type: int) -> None:
        seat = self.active
        delver = self.game.cards.delvers[card_type]
        self.hands = _with(self.hands, seat, _add(self.hands[seat], card_type, -1))
        self.delver_discard = _add(self.delver_discard, card_type, 1)
        kind = delver.effect.kind
        # Back to the Delver Phase afterwards; claims are checked after a card is played.
        then = [new_frame(seat, CHECK_CLAIMS, delver.name), new_frame(seat, DELVER_PHASE)]
        if kind == "reroll_excavation":
            self.map_rerolls += 1
        elif kind == "two_dice":
            self.extra_dice += 1
        elif kind == "choose_ruin_after_roll":
            self.expeditions += 1
        elif kind == "next_roll_modifier":
            self.reading += 1
        elif kind == "next_d6_modifier":
            self.ancestral += 1
        elif kind in ("modify_placed_die", "reroll_placed_die"):
            then.insert(0, new_frame(seat, TARGET_DIE, delver.name, card=card_type))
        elif kind == "name_a_number_reroll":
            then.insert(0, new_frame(seat, NAME_NUMBER, delver.name))
        elif kind == "reroll_own_dice":
            dice = [(seat, die) for die, place in enumerate(self.die_place[seat]) if place != NOWHERE]
            then = [*self._batch_reroll(dice, delver.name), *then]
        self._push(*then)

    def _batch_reroll(self, dice: Sequence[tuple[int, int]], reason: str) -> list[DecisionFrame]:
        """Frames rerolling several dice at once: table place order, then seats from the active one, then die
        index; each roll resolves in full (its Stone included), then claims are checked once (RULES.md)."""
        n = self.num_players
        order = sorted(dice, key=lambda sd: (self.die_place[sd[0]][sd[1]], (sd[0] - self.active) % n, sd[1]))
        frames = [new_frame(CHANCE, ROLL, reason, seat=s, die=d, excavation=False, batch=True) for s, d in order]
        return [*frames, new_frame(self.active, CHECK_CLAIMS, reason)]

    def _excavate(self, frame: DecisionFrame) -> None:
        self._push(new_frame(self.active, EXCAVATION_DIE, "Excavation Phase"))

    # ------------------------------------------------------------------------------------------ rolls
    def _rolled(self, frame: DecisionFrame, face: int) -> None:
        seat, die = frame.detail("seat"), frame.detail("die")
        self.die_face = _with(self.die_face, seat, _with(self.die_face[seat], die, face))
        self.die_value = _with(self.die_value, seat, _with(self.die_value[seat], die, face))
        details = dict(frame.details)
        details["step"] = STEP_EDIFICE
        self._resolve_roll(new_frame(seat, RESOLVE_ROLL, frame.reason, **details))

    def _resolve_roll(self, frame: DecisionFrame) -> None:
        """Run a roll's resolution from its step on; a step that needs a decision or more steps pushes them with a
        frame resuming at the next step beneath, and stops."""
        details = dict(frame.details)
        seat, die = details["seat"], details["die"]
        face = self.die_face[seat][die]
        for step in range(details["step"], STEP_DONE):
            details["step"] = step + 1
            if step == STEP_EDIFICE:
                edifice = self.owns(seat, "reroll_own_faces")
                if edifice and not details.get("edifice_used") and face in edifice[0].effect.faces:
                    self._push(new_frame(seat, EDIFICE_REROLL, edifice[0].name, **details))
                    return
            elif step == STEP_RUIN:
                if self.die_place[seat][die] == NOWHERE:  # Expedition: the Ruin is chosen after rolling
                    self._push(new_frame(self.active, EXCAVATION_RUIN, "Expedition", **details))
                    return
            elif step == STEP_MODIFIERS:
                frames = self._gather_modifiers(seat, die, details)
                if frames:
                    self._push(*frames, new_frame(seat, RESOLVE_ROLL, frame.reason, **details))
                    return
            elif step == STEP_MAP:
                if details.get("excavation") and self.map_rerolls > 0:
                    self._push(new_frame(self.active, MAP_REROLL, "Ancient Map", **details))
                    return
            elif step == STEP_STONE:
                if face <= STONE_FACES:
                    self._push(new_frame(seat, RESOLVE_ROLL, frame.reason, **details))
                    self._gain_stone(
                        new_frame(seat, GAIN_STONE, frame.reason, seat=seat, place=self.die_place[seat][die])
                    )
                    return
            elif step == STEP_CLAIMS and not details.get("batch"):
                self._check_claims(frame)
                return

    def _gather_modifiers(self, seat: int, die: int, details: dict[str, Any]) -> list[DecisionFrame]:
        """Collect the roll's modifiers (RULES.md, "Modifiers"): the End of Age event's and the next-roll cards'
        at once, the die owner's optional Named Wonder modifiers and Reading the Stones' sign as decisions."""
        faces = self.game.cards.die_sides[die]
        modifiers = list(self.modifiers)
        if self.roll_modifier:
            modifiers.append(self.roll_modifier)
        frames: list[DecisionFrame] = []
        if not details.get("reroll_of_excavation"):
            # "The next die rolled this turn": the first roll after the card takes it, rerolls after it do not.
            if self.ancestral and faces == 6:
                modifiers.extend([2] * self.ancestral)
                self.ancestral = 0
            frames.extend(
                new_frame(self.active, READING_SIGN, "Reading the Stones", seat=seat, die=die)
                for _ in range(self.reading)
            )
            self.reading = 0
        named = self.game.cards.named_wonders
        place = self.die_place[seat][die]
        for k in self.named_built[seat]:
            effect = named[k].effect
            if effect.kind == "own_roll_modifier" and effect.die_sides in (None, faces):
                frames.append(new_frame(seat, WONDER_MODIFIER, named[k].name, wonder=k, seat=seat, die=die))
            elif effect.kind == "matching_roll_modifier":
                face = self.die_face[seat][die]
                others = [
                    self.die_value[s][d]
                    for s, d in self.placed_dice()
                    if self.die_place[s][d] == place and (s, d) != (seat, die)
                ]
                if face in others:
                    frames.append(new_frame(seat, WONDER_MODIFIER, named[k].name, wonder=k, seat=seat, die=die))
        self.modifiers = tuple(modifiers)
        if not frames and not modifiers:
            return []
        return [*frames, new_frame(seat, APPLY_MODIFIERS, "modifiers", seat=seat, die=die)]

    def _apply_modifiers(self, frame: DecisionFrame) -> None:
        """Apply the gathered modifiers: at once when every order gives one result, else the active seat orders."""
        seat, die = frame.detail("seat"), frame.detail("die")
        if not self.modifiers:
            return
        faces = self.game.cards.die_sides[die]
        value = self.die_value[seat][die]
        results = modifier_results(value, faces, tuple(sorted(self.modifiers)))
        if len(results) == 1:
            self._set_value(seat, die, next(iter(results)))
            self.modifiers = ()
            return
        self._push(new_frame(self.active, MODIFIER_ORDER, "modifiers", seat=seat, die=die))

    def _set_value(self, seat: int, die: int, value: int) -> None:
        self.die_value = _with(self.die_value, seat, _with(self.die_value[seat], die, value))

    # ------------------------------------------------------------------------------------------ stones and wonders
    def _gain_stone(self, frame: DecisionFrame) -> None:
        """A roll of 1-3: a Stone from the Ruin (the owner's choice of colour), else from the bag, else none."""
        seat, place = frame.detail("seat"), frame.detail("place")
        stones = self.ruin_stones[place] if place != NOWHERE else (0,) * NUM_COLOURS
        if sum(stones):
            self._push(new_frame(seat, TAKE_STONE, "Stone from the Ruin", seat=seat, place=place))
            return
        library = self.owns(seat, "bag_draw_keep")
        if library and sum(self.bag) > 1:
            draws = library[0].effect.draw
            self._push(
                *(new_frame(CHANCE, BAG_STONE, library[0].name, seat=seat, library=True) for _ in range(draws)),
                new_frame(seat, TAKE_STONE, library[0].name, seat=seat, place=NOWHERE),
            )
            return
        self._push(new_frame(CHANCE, BAG_STONE, "Stone from the bag", seat=seat, library=False))

    def _take_stone(self, frame: DecisionFrame, colour: int) -> None:
        seat, place = frame.detail("seat"), frame.detail("place")
        if place == NOWHERE:  # Underground Library: keep one draw, the others go back to the bag
            rest = list(self.library_draws)
            rest.remove(colour)
            for other in rest:
                self.bag = _add(self.bag, other, 1)
            self.library_draws = ()
        else:
            self.ruin_stones = _with(self.ruin_stones, place, _add(self.ruin_stones[place], colour, -1))
        self._push(new_frame(seat, PLACE_STONE, frame.reason, seat=seat, colour=colour))

    def _place_stone(self, frame: DecisionFrame, cell: int) -> None:
        seat, colour = frame.detail("seat"), frame.detail("colour")
        placement = self.tableaus[seat].place(cell, colour)
        self.tableaus = _with(self.tableaus, seat, placement.tableau)
        self._push(
            *(new_frame(seat, BUILD_WONDER, "closed ring", seat=seat, centre=c) for c in placement.closed_centres)
        )

    def _build(self, frame: DecisionFrame, option: int) -> None:
        seat, centre = frame.detail("seat"), frame.detail("centre")
        if option == GENERIC_WONDER:
            greater = len(set(self.tableaus[seat].ring_colours(centre))) == 1
            self._push(new_frame(CHANCE, WONDER_TOKEN, "closed ring", seat=seat, centre=centre, greater=greater))
            return
        k = option - 1
        wonder = self.game.cards.named_wonders[k]
        self.named_in_play = _without(self.named_in_play, k)
        self.named_built = _with(self.named_built, seat, (*self.named_built[seat], k))
        self.tableaus = _with(self.tableaus, seat, self.tableaus[seat].with_wonder(centre, NAMED_BASE + k))
        if wonder.effect.kind == "draw_removed_ruin":
            self._push(new_frame(CHANCE, DRAW_REMOVED, wonder.name, seat=seat))
        elif wonder.effect.kind == "choose_removed_ruin":
            self.removed_seen = _with(self.removed_seen, seat, True)
            self._push(new_frame(seat, CHOOSE_REMOVED, wonder.name, seat=seat))

    def _set_generic_wonder(self, frame: DecisionFrame, points: int) -> None:
        seat, centre, greater = frame.detail("seat"), frame.detail("centre"), frame.detail("greater")
        self.tableaus = _with(
            self.tableaus, seat, self.tableaus[seat].with_wonder(centre, GREATER if greater else LESSER)
        )
        if greater:
            self.greater_built = _with(self.greater_built, seat, (*self.greater_built[seat], points))
        else:
            self.lesser_built = _with(self.lesser_built, seat, (*self.lesser_built[seat], points))

    # ------------------------------------------------------------------------------------------ claims
    def _check_claims(self, frame: DecisionFrame) -> None:
        """Resolve every claimed Ruin, in table order (RULES.md, "Claims")."""
        totals = [0] * len(self.table)
        for seat_places, seat_values in zip(self.die_place, self.die_value, strict=True):
            for place, value in zip(seat_places, seat_values, strict=True):
                if place != NOWHERE:
                    totals[place] += value
        for place in self.ruins_on_table():
            ruin = self.table[place]
            if not totals[place] or totals[place] < self.game.ruins[ruin].claim:
                continue  # not claimed: "the total of all the dice ... greater than or equal to the claim value"
            dice = self.dice_on(place)
            result = resolve_claim(self.game.ruins[ruin].claim, dice)
            if not result.claimed:
                continue
            if result.winner is not None:
                self.claimed = _with(self.claimed, result.winner, (*self.claimed[result.winner], ruin))
            else:
                self.discarded_ruins = (*self.discarded_ruins, ruin)
            draws = dict(result.delver_draws)
            for seat in range(self.num_players):
                flame = self.owns(seat, "delver_when_claimed_without_dice")
                had_dice = any(die.owner == seat for die in dice)
                # The Eternal Flame draws when a Ruin is claimed; on an unbreakable tie "no one gets the Ruin Card"
                # (RULES.md, "Claims in play"), so it draws nothing. Drawing is automatic (RULES.md, Wonders).
                if flame and not had_dice and result.winner is not None:
                    draws[seat] = flame[0].effect.cards
            # Dice return to their owners; Stones left on the Ruin go back to the bag.
            for seat in range(self.num_players):
                places = self.die_place[seat]
                if place in places:
                    self.die_place = _with(self.die_place, seat, tuple(NOWHERE if p == place else p for p in places))
                    values = tuple(0 if p == place else v for p, v in zip(places, self.die_value[seat], strict=True))
                    self.die_value = _with(self.die_value, seat, values)
                    faces = tuple(0 if p == place else f for p, f in zip(places, self.die_face[seat], strict=True))
                    self.die_face = _with(self.die_face, seat, faces)
            self.bag = tuple(a + b for a, b in zip(self.bag, self.ruin_stones[place], strict=True))
            self.ruin_stones = _with(self.ruin_stones, place, (0,) * NUM_COLOURS)
            self.table = _with(self.table, place, NOWHERE)
            seats = [(self.active + offset) % self.num_players for offset in range(self.num_players)]
            self._push(
                *(
                    new_frame(CHANCE, DRAW_DELVER, "claim", seat=seat)
                    for seat in seats
                    for _ in range(draws.get(seat, 0))
                ),
                new_frame(CHANCE, REVEAL_RUIN, "claim", place=place),
            )

    # ------------------------------------------------------------------------------------------ decisions
    def _decision_options(self, frame: DecisionFrame) -> list[int]:
        """Legal action ids of a decision frame."""
        ids = self.game.actions
        kind, seat = frame.kind, frame.seat
        if kind == DELVER_PHASE:
            hand = self.hands[seat]
            delvers = self.game.cards.delvers
            playable = [
                ids.play + t for t, count in enumerate(hand) if count and self._card_playable(delvers[t].effect.kind)
            ]
            return [*playable, ids.excavate]
        if kind == TARGET_DIE:
            n = self.num_players
            return [ids.target((s - seat) % n, d) for s, d in self.placed_dice()]
        if kind == NAME_NUMBER:
            shown = {self.die_value[s][d] for s, d in self.placed_dice()}
            return [ids.name + number - 1 for number in sorted(shown)]
        if kind == EXCAVATION_DIE:
            places = self.die_place[seat]
            pool = [die for die, place in enumerate(places) if place == NOWHERE]
            # "If all of your dice are already on Ruins ... choose one of your dice currently on a Ruin"
            return [ids.roll_die + die for die in (pool or range(len(places)))]
        if kind == EXCAVATION_RUIN:
            return [ids.on_ruin + place for place in self.ruins_on_table()]
        if kind == READING_SIGN:
            return [ids.modifier + PLUS, ids.modifier + MINUS]
        if kind == WONDER_MODIFIER:
            choices = self.game.cards.named_wonders[frame.detail("wonder")].effect.choices
            signs = [ids.modifier + (PLUS if amount > 0 else MINUS) for amount in choices]
            return [*signs, ids.modifier + DECLINE]
        if kind == MODIFIER_ORDER:
            return [ids.apply_next + MODIFIER_AMOUNTS.index(amount) for amount in sorted(set(self.modifiers))]
        if kind in (MAP_REROLL, EDIFICE_REROLL):
            return [ids.reroll + REROLL, ids.reroll + KEEP]
        if kind == TAKE_STONE:
            place = frame.detail("place")
            if place == NOWHERE:
                colours = set(self.library_draws)
            else:
                colours = {c for c, count in enumerate(self.ruin_stones[place]) if count}
            return [ids.take_stone + colour for colour in sorted(colours)]
        if kind == PLACE_STONE:
            return [ids.place_stone + int(cell) for cell in self.tableaus[frame.detail("seat")].legal_cells()]
        if kind == BUILD_WONDER:
            return [ids.build + option for option in self.wonder_options(frame.detail("seat"), frame.detail("centre"))]
        if kind == CHOOSE_REMOVED:
            return [ids.removed_ruin + ruin for ruin in sorted(set(self.removed))]
        raise AssertionError(f"unknown decision {kind!r}")

    def _resolve_no_option(self, frame: DecisionFrame) -> None:
        """A decision with no legal option: a Stone with no legal cell goes back to the bag (RULES.md); the
        other decisions only lack options when there is nothing to choose (no removed Ruin left)."""
        if frame.kind == PLACE_STONE:
            self.bag = _add(self.bag, frame.detail("colour"), 1)

    def _resolve_decision(self, frame: DecisionFrame, action: int) -> None:
        ids = self.game.actions
        kind = frame.kind
        if kind == DELVER_PHASE:
            if action == ids.excavate:
                self._push(
                    *(new_frame(self.active, EXCAVATE) for _ in range(1 + self.extra_dice)),
                    new_frame(self.active, END_TURN),
                )
            else:
                self._play_card(action - ids.play)
        elif kind == TARGET_DIE:
            relative, die = divmod(action - ids.target_die, ids.dice_per_player)
            seat = (frame.seat + relative) % self.num_players
            delver = self.game.cards.delvers[frame.detail("card")]
            if delver.effect.kind == "modify_placed_die":
                faces = self.game.cards.die_sides[die]
                self._set_value(seat, die, _clamp(self.die_value[seat][die] + delver.effect.amount, faces))
            else:
                self._push(new_frame(CHANCE, ROLL, delver.name, seat=seat, die=die, excavation=False))
        elif kind == NAME_NUMBER:
            number = action - ids.name + 1
            dice = [(s, d) for s, d in self.placed_dice() if self.die_value[s][d] == number]
            self._push(*self._batch_reroll(dice, frame.reason))
        elif kind == EXCAVATION_DIE:
            die = action - ids.roll_die
            seat = frame.seat
            if self.die_place[seat][die] != NOWHERE:  # no die in the pool: this one is picked up from its Ruin
                self.die_place = _with(self.die_place, seat, _with(self.die_place[seat], die, NOWHERE))
                self._set_value(seat, die, 0)
            if self.expeditions:
                self.expeditions -= 1
                self._push(new_frame(CHANCE, ROLL, "Expedition", seat=seat, die=die, excavation=True))
            else:
                self._push(new_frame(seat, EXCAVATION_RUIN, "Excavation roll", seat=seat, die=die))
        elif kind == EXCAVATION_RUIN:
            place = action - ids.on_ruin
            seat, die = frame.detail("seat"), frame.detail("die")
            self.die_place = _with(self.die_place, seat, _with(self.die_place[seat], die, place))
            if frame.detail("step") is None:  # declared before the roll
                self._set_value(seat, die, 0)
                self._push(new_frame(CHANCE, ROLL, "Excavation roll", seat=seat, die=die, excavation=True))
            else:
                self._push(self._resume(frame))
        elif kind in (READING_SIGN, WONDER_MODIFIER):
            index = action - ids.modifier
            if index != DECLINE:
                choices = (
                    (1, -1)
                    if kind == READING_SIGN
                    else self.game.cards.named_wonders[frame.detail("wonder")].effect.choices
                )
                amount = next(a for a in choices if (a > 0) == (index == PLUS))
                self.modifiers = (*self.modifiers, amount)
        elif kind == MODIFIER_ORDER:
            amount = MODIFIER_AMOUNTS[action - ids.apply_next]
            seat, die = frame.detail("seat"), frame.detail("die")
            rest = list(self.modifiers)
            rest.remove(amount)
            self.modifiers = tuple(rest)
            self._set_value(seat, die, _clamp(self.die_value[seat][die] + amount, self.game.cards.die_sides[die]))
            self._push(new_frame(seat, APPLY_MODIFIERS, "modifiers", seat=seat, die=die))
        elif kind in (MAP_REROLL, EDIFICE_REROLL):
            if action - ids.reroll == KEEP:
                self._push(self._resume(frame))
                return
            details = {key: value for key, value in frame.details if key != "step"}
            if kind == MAP_REROLL:  # a new roll: The Shattered Edifice may act on it again
                details.pop("edifice_used", None)
                self.map_rerolls -= 1
                details["reroll_of_excavation"] = True
            else:
                details["edifice_used"] = True
            self._push(new_frame(CHANCE, ROLL, frame.reason, **details))
        elif kind == TAKE_STONE:
            self._take_stone(frame, action - ids.take_stone)
        elif kind == PLACE_STONE:
            self._place_stone(frame, action - ids.place_stone)
        elif kind == BUILD_WONDER:
            self._build(frame, action - ids.build)
        elif kind == CHOOSE_REMOVED:
            seat, ruin = frame.detail("seat"), action - ids.removed_ruin
            self.removed = _without(self.removed, ruin)
            self.hidden_ruins = _with(self.hidden_ruins, seat, (*self.hidden_ruins[seat], ruin))

    def _resume(self, frame: DecisionFrame) -> DecisionFrame:
        """The roll resolution a decision frame interrupted, continued at its next step."""
        details = dict(frame.details)
        return new_frame(details["seat"], RESOLVE_ROLL, frame.reason, **details)

    # ------------------------------------------------------------------------------------------ hidden information
    def resample_hidden(self, player: int, rng: np.random.Generator) -> UnearthState:
        """A clone whose information hidden from `player` is redrawn consistently with what it has seen.

        Redealt: the Delver cards of the other hands and the draw pile; the Ruins of the deck, the removed ones
        (unless `player` looked at them) and the other seats' hidden Ruins; the End of Age card while it is
        face down; the other seats' face-down Wonder token values and the stacks. Everything else is in sight.
        """
        clone = self.clone()
        clone.drop_caches()  # the cached actions and outcomes were the original deal's
        if self.over:  # "Players reveal their hidden Ruins Card" and score their tokens: nothing is hidden any more
            return clone
        n = self.num_players
        others = [seat for seat in range(n) if seat != player]
        # Delver cards: the other hands and the draw pile share the cards `player` cannot see.
        holders: dict[Any, int] = {seat: sum(self.hands[seat]) for seat in others}
        holders["deck"] = sum(self.delver_deck)
        dealt = redeal(self.unseen_delvers(player), holders, {}, rng)
        clone.delver_deck = dealt["deck"]
        clone.hands = tuple(self.hands[seat] if seat == player else dealt[seat] for seat in range(n))
        # Ruins: the deck, the removed ones and the other hidden Ruins.
        ruin_ids = len(self.game.ruins)
        hidden_others = [r for seat in others for r in self.hidden_ruins[seat]]
        pool = [0] * ruin_ids
        for ruin in (*self.ruin_deck, *self.removed, *hidden_others):
            pool[ruin] += 1
        ruin_holders: dict[Any, int] = {"deck": len(self.ruin_deck), "removed": len(self.removed)}
        ruin_holders.update({seat: len(self.hidden_ruins[seat]) for seat in others})
        known = {"removed": self.removed} if self.removed_seen[player] else {}
        ruins = redeal(pool, ruin_holders, known, rng)
        clone.ruin_deck = _ids(ruins["deck"])
        clone.removed = _ids(ruins["removed"])
        clone.hidden_ruins = tuple(
            self.hidden_ruins[seat] if seat == player else _ids(ruins[seat]) for seat in range(n)
        )
        if not self.end_of_age_revealed and self.end_of_age != NOWHERE:
            clone.end_of_age = int(rng.integers(len(self.game.cards.end_of_age)))
        # Face-down Wonder tokens: the other seats' and the stacks.
        for attribute, stack_attribute in (("lesser_built", "lesser_tokens"), ("greater_built", "greater_tokens")):
            built = getattr(self, attribute)
            values = sorted({*getattr(self, stack_attribute), *(v for seat in others for v in built[seat])})
            if not values:
                continue
            token_pool = [0] * (max(values) + 1)
            for value in (*getattr(self, stack_attribute), *(v for seat in others for v in built[seat])):
                token_pool[value] += 1
            token_holders: dict[Any, int] = {"stack": len(getattr(self, stack_attribute))}
            token_holders.update({seat: len(built[seat]) for seat in others})
            tokens = redeal(token_pool, token_holders, {}, rng)
            setattr(clone, stack_attribute, _ids(tokens["stack"]))
            setattr(clone, attribute, tuple(built[seat] if seat == player else _ids(tokens[seat]) for seat in range(n)))
        return clone

    def debug_text(self) -> str:
        """Omniscient text: the public view, then every hand, hidden Ruin, token and the End of Age card."""
        return self.game.state_text(self, None, omniscient=True)


@functools.cache
def _die_outcomes(faces: int) -> list[tuple[int, float]]:
    """Each face of a die equally likely (shared: callers never change it)."""
    return [(face, 1.0 / faces) for face in range(1, faces + 1)]


def _pile(counts: Counts) -> list[tuple[int, float]]:
    total = sum(counts)
    return [(card, copies / total) for card, copies in enumerate(counts) if copies] if total else []


def _uniform(values: Any) -> list[tuple[int, float]]:
    """A fair pick among `values` (a multiset: copies of a value add up)."""
    values = list(values)
    if not values:
        return []
    copies: dict[int, int] = {}
    for value in values:
        copies[value] = copies.get(value, 0) + 1
    return [(value, count / len(values)) for value, count in sorted(copies.items())]


def _without(values: tuple[int, ...], value: int) -> tuple[int, ...]:
    """`values` with one copy of `value` taken out."""
    index = values.index(value)
    return values[:index] + values[index + 1 :]


def _ids(counts: Sequence[int]) -> tuple[int, ...]:
    """Copies per id back to a sorted tuple of ids."""
    return tuple(card for card, copies in enumerate(counts) for _ in range(copies))
