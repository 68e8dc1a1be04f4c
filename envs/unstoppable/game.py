"""Unstoppable's game: the configuration (boss, character, difficulty, card data, action space) that makes states.

The rules are in rules.py (the state and every rule), the rule queries in effects.py, the observation and text in
observer.py; the state is declared in state.py and checked in validation.py.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from envs.core.components import Deck, UniqueDeck
from envs.core.engine import new_frame
from envs.core.game import CHANCE, Game, GameSpec, Observer
from envs.core.record import NameTables
from envs.unstoppable.actions import UnstoppableActions, build_actions
from envs.unstoppable.cards import (
    DIFFICULTIES,
    MAX_AMOUNT,
    MAX_EXHAUST_ICONS,
    MAX_INSTANCES,
    MAX_LEVEL,
    SKIPPED_BORDER,
    Boss,
    UnstoppableCards,
    load_unstoppable_cards,
)
from envs.unstoppable.effects import REPEAT_LIMIT
from envs.unstoppable.rules import PLAYER, UnstoppableState
from envs.unstoppable.state import (
    MARKET_SIZE,
    MAX_HEALTH,
    MAX_SLEEVES,
    NONE,
    Kind,
    Phase,
    Sleeve,
    unstoppable_name_tables,
)

STARTING_HEALTH = MAX_HEALTH
"""Player setup: "Set the markers at '10' on the health track"."""
STARTING_CREDITS = 3
"""Player setup: "Take credit tokens with a total value of 3 credits"."""
STARTING_HAND = 3
"""Player setup: "Draw 3 cards from your deck"."""
STARTING_BATTLEFIELD = 3
"""Player setup: "Take 3 cards from your deck. Place these cards in a row ... threat side up"."""
MAX_GAME_LENGTH = 5000
"""Decisions after which the Gymnasium env truncates an episode (`GameSpec.max_game_length`): more than 10 times the
longest of 1,000 random and 1,000 greedy games at every difficulty (`python -m benchmarks.unstoppable_game_length`,
benchmarks/results/unstoppable_game_length.md). The bound the rules prove (`proven_decision_bound`) is billions."""


class UnstoppableGame(Game):
    """Unstoppable, solo: one character against one boss at one difficulty, with the shipped (or a user's) cards."""

    KWARG_MEANINGS: ClassVar[dict[str, str]] = {
        "boss": "the boss mat played against (its name; the first of bosses.yaml by default)",
        "character": "the character played (its name; the first of characters.yaml by default)",
        "difficulty": "normal, hard or expert: which danger-track spaces the marker skips",
        "card_directory": "a folder of card YAML in the shipped schema, used instead of the shipped content",
    }

    def __init__(
        self,
        boss: str | None = None,
        character: str | None = None,
        difficulty: str = "normal",
        card_directory: str | None = None,
    ) -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {difficulty!r}")
        self.cards: UnstoppableCards = load_unstoppable_cards(card_directory)
        self.card_directory = card_directory
        try:
            self.boss: Boss = self.cards.boss(boss) if boss is not None else self.cards.bosses[0]
            character_record = self.cards.character(character) if character is not None else self.cards.characters[0]
        except KeyError as error:  # a bad keyword value, as the other kwargs report it
            raise ValueError(error.args[0]) from None
        self.character = character_record
        self.difficulty = difficulty
        self.character_deck: tuple[tuple[int, int], ...] = self.cards.character_deck(character_record)
        """(core, threat) of each character-deck sleeve, in sleeve order."""
        self.character_deck_size = len(self.character_deck)
        self.boss_damage_required = self.boss.win.amount * max(1, len(self.boss.win.members))
        """Boss damage that defeats the boss (one player): the mat's amount, once per member on a boss with members."""
        self.max_danger = len(self.boss.danger_track) - 1
        """The Maximum Danger space's index."""
        threat_deck = self.cards.threat_deck(self.boss)
        boss_deck = self.cards.boss_deck(self.boss)
        self.initial_threat_deck: tuple[int, ...] = threat_deck
        self.initial_threats: tuple[int, ...] = tuple(
            copies + boss_deck.count(card) for card, copies in enumerate(threat_deck)
        )
        """Copies per threat in the threat deck and the boss deck at setup (validation counts them)."""
        self.max_turns = max_turns(self.boss, difficulty)
        if self.character_deck_size + self.max_turns > MAX_SLEEVES:
            raise ValueError(
                f"{self.boss.name}'s danger track allows {self.max_turns} turns on {difficulty}: with the "
                f"{self.character_deck_size}-card character deck that is more than {MAX_SLEEVES} sleeves"
            )
        if sum(threat_deck) < self.max_turns:
            raise ValueError(
                f"{self.boss.name}'s threat deck holds {sum(threat_deck)} threats, fewer than the {self.max_turns} "
                f"drafts of a game on {difficulty}: a drafted core would find no threat to share its sleeve"
            )
        self.actions: UnstoppableActions = build_actions(self.cards, self.character_deck)
        self.cheapest_upgrade_price: tuple[int, ...] = tuple(
            max(0, card.cost - (card.discount.amount if card.discount else 0)) for card in self.cards.upgrades
        )
        """Each upgrade's lowest price (with its faction discount): with fewer credits it fits no card."""
        self._core_deck_counts = tuple(
            tuple(core.copies if core.level == level else 0 for core in self.cards.cores)
            for level in range(1, MAX_LEVEL + 1)
        )
        self.proven_decisions = proven_decision_bound(self.max_turns, len(self.cards.upgrades) * MARKET_SIZE)
        """The bound on a game's decisions the rules prove (RULES.md, "Game length"): every game ends."""
        self.spec = GameSpec(
            name="unstoppable",
            num_players=1,
            num_actions=self.actions.size,
            max_game_length=MAX_GAME_LENGTH,
            min_players=1,
            max_players=1,
            utility="solo",
            information="imperfect",
            reward_modes=("win", "score"),
        )

    def kwarg_values(self) -> dict[str, tuple[Any, ...]]:
        """The bosses and characters of the content in play (the first is the default) and the difficulties."""
        return {
            "boss": tuple(boss.name for boss in self.cards.bosses),
            "character": tuple(character.name for character in self.cards.characters),
            "difficulty": tuple(DIFFICULTIES),
        }

    def new_initial_state(self) -> UnstoppableState:
        """The table before setup: every setup draw is a chance event on the stack, in the rulebook's order."""
        cards = self.cards
        deck_size = self.character_deck_size
        boss_deck = self.cards.boss_deck(self.boss)
        if self.boss.boss_deck_shuffled:
            boss_pile = Deck.from_counts(boss_deck.count(card) for card in range(len(cards.threats)))
        else:
            boss_pile = Deck((0,) * len(cards.threats), top=boss_deck)
        setup = [
            *(new_frame(CHANCE, Kind.REVEAL_CORE, level=level) for level in range(1, MAX_LEVEL + 1)),
            *(new_frame(CHANCE, Kind.MARKET, slot=slot) for slot in range(MARKET_SIZE)),
            *(new_frame(CHANCE, Kind.DEAL, to="hand") for _ in range(STARTING_HAND)),
            *(new_frame(CHANCE, Kind.DEAL, to="battlefield") for _ in range(STARTING_BATTLEFIELD)),
            new_frame(CHANCE, Kind.REVEAL),
            new_frame(PLAYER, Kind.START_TURN),
        ]
        state = UnstoppableState(
            game=self,
            sleeves=tuple(Sleeve(core=core, threat=threat) for core, threat in self.character_deck),
            hand=(),
            in_play=(),
            exhausted=(),
            battlefield=(),
            deck=UniqueDeck(MAX_SLEEVES, frozenset(range(deck_size))),
            discard=(),
            eliminated=(),
            core_decks=tuple(Deck.from_counts(counts) for counts in self._core_deck_counts),
            draft=(),
            threat_deck=Deck.from_counts(self.initial_threat_deck),
            boss_deck=boss_pile,
            upgrade_deck=Deck.from_counts(upgrade.copies for upgrade in cards.upgrades),
            market=(NONE,) * MARKET_SIZE,
            health=STARTING_HEALTH,
            armor=0,
            credits=STARTING_CREDITS,
            action_points=0,  # the 3 discs placed at setup are the first Upkeep's (RULES.md)
            level=1,
            small_level=1,
            danger=0,
            boss_damage=0,
            member_damage=(0,) * len(self.boss.win.members),
            turn=0,
            phase=Phase.SETUP,
            repeats=(),
            over=False,
            won=False,
            stack=tuple(reversed(setup)),
        )
        state._run()
        return state

    @functools.cached_property
    def name_tables(self) -> NameTables:
        """Content names by table (cores, threats, upgrades), for saved states."""
        return unstoppable_name_tables(self)

    def state_from_dict(self, data: dict[str, Any]) -> UnstoppableState:
        """The state `UnstoppableState.to_dict` described; StateFormatError naming the first bad field."""
        state = UnstoppableState.from_dict(self, data)
        state.settle_saved()
        return state

    def action_label(self, action: int) -> str:
        """'play: sleeve 1 (Strike)', 'target: drafted card 2', 'effect: top upgrade effect 1', ..."""
        return self.actions.codec.label(action)

    def observer(self, player: int | None = 0) -> Observer:
        """The player's view (what a player may see), or with None the public view (the same in a solo game)."""
        from envs.unstoppable.observer import UnstoppableObserver

        return UnstoppableObserver(self, player)


def max_turns(boss: Boss, difficulty: str) -> int:
    """Turns a game can last: one per danger-track space the marker lands on before Maximum Danger (the marker
    advances 1 space each Cleanup Phase, skipping the difficulty's spaces; landing on the last space loses)."""
    skipped = SKIPPED_BORDER[difficulty]
    return sum(1 for space in boss.danger_track[1:] if space.border != skipped)


def proven_decision_bound(turns: int, buys: int) -> int:
    """A proven bound on the player's decisions in a game: turns times a bound on one turn's decisions (RULES.md,
    "Game length"); a proof that every game ends, far too large to truncate an episode by (`MAX_GAME_LENGTH`).
    The repeat limit makes a turn finite: each effect of each card resolves at most REPEAT_LIMIT times a turn, so
    resolutions are at most REPEAT_LIMIT x sleeves x effects per sleeve; everything else a turn holds is bounded by
    them."""
    sleeves = MAX_SLEEVES
    effects_per_sleeve = (MAX_EXHAUST_ICONS + 1) * 3 * 4 + 4  # play and each icon: core and 2 upgrades; the bonus
    resolutions = REPEAT_LIMIT * sleeves * effects_per_sleeve
    per_resolution = 1 + MAX_INSTANCES * max(sleeves, MAX_AMOUNT)  # its choice, then targets or cards to choose
    defeats = resolutions * per_resolution  # each damage instance defeats one threat at most (Crazed chains too)
    plays = sleeves + defeats + 1  # a card is played once per arrival in hand: at the turn's start, drafted, defeated
    exhausts = sleeves + plays + resolutions * MAX_AMOUNT  # an ally is ready once a turn, when played, when refreshed
    level_ups = defeats + 1
    per_turn = (
        1  # the draft
        + plays
        + exhausts
        + buys  # each upgrade is bought once at most
        + 1  # ending the Main Phase
        + resolutions * per_resolution
        + plays
        + exhausts
        + defeats  # forfeiting the rest of a card's effects
        + level_ups * (sleeves + 1)  # discarding down to 3, the optional elimination
        + sleeves  # Rage discards
        + 1
        + MARKET_SIZE
        + 1  # a danger-track effect: take or decline, then cycling
    )
    return turns * per_turn
