"""Unearth's fixed action space: one Discrete space for 2, 3 and 4 players, every id with a label.

Groups (append-only: a new group goes at the end, so saved replays keep their meaning):

| group | ids | the decision |
|---|---|---|
| `play` | one per Delver type (data order) | play a Delver card of that type (Delver Phase) |
| `excavate` | 1 | end the Delver Phase: go to the Excavation Phase |
| `target die` | 4 seats x 5 dice | the die a card acts on, by seat relative to the decider (0 = own) and die index |
| `name` | 1..8 | the number Forgotten Song names |
| `roll die` | 5 | which of your dice the Excavation roll uses |
| `on ruin` | 5 table places | the Ruin the Excavation die goes to (before the roll, or after it with Expedition) |
| `modifier` | +1, -1, decline | a modifier's sign (Reading the Stones) or a Named Wonder's optional modifier |
| `apply next` | -2, -1, +1, +2 | which of the roll's modifiers applies next, when their order changes the result |
| `reroll` | reroll, keep | Ancient Map's or The Shattered Edifice's optional reroll |
| `take stone` | one per Stone colour | the Stone taken (from a Ruin, or of the two Underground Library draws) |
| `place stone` | one per tableau cell | where the Stone goes in the decider's tableau |
| `build` | generic + one per Named Wonder | the Wonder in a closed ring (a Lesser/Greater token or a Named Wonder) |
| `removed ruin` | one per Ruin card | the removed Ruin The Crumbling Memorial adds to the hidden Ruins |
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.actions import ActionCodec
from envs.unearth.cards import UnearthCards
from envs.unearth.tableau import COLOUR_NAMES, tableau_geometry

MAX_PLAYERS = 4
"""Most seats in a game (the per-seat action and observation blocks are sized for it)."""
MAX_TABLE = 5
"""Most Ruins face up at once (3-4 players; 4 in a 2-player game)."""
MAX_FACES = 8
"""The biggest die (d8): the numbers Forgotten Song may name."""
MODIFIER_AMOUNTS = (-2, -1, 1, 2)
"""Every amount a roll modifier can have (event +-1, Reading the Stones +-1, Ancestral Claim +2, Wonders +-1)."""
PLUS, MINUS, DECLINE = range(3)
"""Indices within the `modifier` group."""
REROLL, KEEP = range(2)
"""Indices within the `reroll` group."""
GENERIC_WONDER = 0
"""Index within the `build` group of the Lesser or Greater Wonder (the token the ring's colours call for)."""


@dataclass(frozen=True)
class UnearthActions:
    """Ids of every Unearth action, built from the card data (append-only)."""

    codec: ActionCodec
    play: int
    excavate: int
    target_die: int
    name: int
    roll_die: int
    on_ruin: int
    modifier: int
    apply_next: int
    reroll: int
    take_stone: int
    place_stone: int
    build: int
    removed_ruin: int
    dice_per_player: int
    cells: int

    @property
    def size(self) -> int:
        """Number of actions."""
        return len(self.codec)

    def target(self, relative_seat: int, die: int) -> int:
        """The `target die` id of die `die` of the seat `relative_seat` places after the decider."""
        return self.target_die + relative_seat * self.dice_per_player + die


def build_actions(cards: UnearthCards) -> UnearthActions:
    """Lay out the action space for a card set."""
    codec = ActionCodec()
    dice = len(cards.die_sides)
    cells = tableau_geometry().size
    relative = ("own", "next", "second next", "third next")
    ids = {
        "play": codec.add_group("play", [delver.name for delver in cards.delvers]),
        "excavate": codec.add_group("excavate", [""]),
        "target_die": codec.add_group(
            "target die",
            [
                f"{relative[seat]} die {die + 1} (d{cards.die_sides[die]})"
                for seat in range(MAX_PLAYERS)
                for die in range(dice)
            ],
        ),
        "name": codec.add_group("name", [str(number) for number in range(1, MAX_FACES + 1)]),
        "roll_die": codec.add_group(
            "roll die", [f"die {die + 1} (d{sides})" for die, sides in enumerate(cards.die_sides)]
        ),
        "on_ruin": codec.add_group("on ruin", [f"place {slot + 1}" for slot in range(MAX_TABLE)]),
        "modifier": codec.add_group("modifier", ["+1", "-1", "decline"]),
        "apply_next": codec.add_group("apply next", [f"{amount:+d}" for amount in MODIFIER_AMOUNTS]),
        "reroll": codec.add_group("reroll", ["reroll", "keep"]),
        "take_stone": codec.add_group("take stone", list(COLOUR_NAMES)),
        "place_stone": codec.add_group("place stone", [f"cell {cell}" for cell in range(cells)]),
        "build": codec.add_group("build", ["lesser or greater", *(wonder.name for wonder in cards.named_wonders)]),
        "removed_ruin": codec.add_group("removed ruin", [ruin.name for ruin in cards.ruins]),
    }
    return UnearthActions(codec=codec, dice_per_player=dice, cells=cells, **ids)
