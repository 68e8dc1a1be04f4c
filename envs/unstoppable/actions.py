"""Unstoppable's fixed action space: every id keyed by a physical sleeve, a market slot, a core card or an effect
slot, with a label naming it.

Groups (append-only: a new group goes at the end, so saved replays keep their meaning):

| group | ids | the decision |
|---|---|---|
| `play` | one per sleeve | play the card in that sleeve from your hand |
| `exhaust` | sleeves x exhaust icons | exhaust the ally in that sleeve through icon k |
| `target` | one per sleeve | the threat in that sleeve takes the pending damage instance |
| `eliminate` | one per sleeve | eliminate the card in that sleeve (hand, discard pile or play) |
| `buy` | market slots x sleeves | buy the upgrade in market slot m onto the card in sleeve s |
| `draft` | one per core card | keep that core of the three drawn |
| `effect` | one per effect slot | resolve that remaining effect of the resolving card next |
| `done` | 3 | forfeit the remaining effects / eliminate nothing / stop cycling the market |
| `end main phase` | 1 | end the Main Phase |
| `danger` | take, decline | a danger-track space's optional effect |
| `refresh` | one per sleeve | refresh the exhausted ally in that sleeve |
| `discard` | one per sleeve | discard that card (down to 3 in hand on level up; an ally from play for Rage) |
| `cycle` | one per market slot | move that market upgrade to the bottom of the upgrade deck |

A sleeve's label names its core where the game knows it from the start (the character deck); a drafted sleeve is
named by its draft ("drafted card 3"). A `target` acts on the threat side, so its label names the sleeve alone, never
the core on the other side. These are the labels of the ids; the labels a player reads name what the position adds
(a drafted card's core, a target's threat, a market slot's upgrade and its price: `action_label_for`).
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.actions import ActionCodec
from envs.unstoppable.cards import MAX_EXHAUST_ICONS, UnstoppableCards
from envs.unstoppable.effects import SLOTS, slot_name
from envs.unstoppable.state import MARKET_SIZE, MAX_SLEEVES

FORFEIT, NO_ELIMINATION, STOP_CYCLING = range(3)
"""Indices within the `done` group."""
TAKE, DECLINE = range(2)
"""Indices within the `danger` group."""


@dataclass(frozen=True)
class UnstoppableActions:
    """Ids of every Unstoppable action (append-only)."""

    codec: ActionCodec
    play: int
    exhaust: int
    target: int
    eliminate: int
    buy: int
    draft: int
    effect: int
    done: int
    end_main: int
    danger: int
    refresh: int
    discard: int
    cycle: int

    @property
    def size(self) -> int:
        """Number of actions."""
        return len(self.codec)

    def exhaust_id(self, sleeve: int, icon: int) -> int:
        """Exhaust the ally in `sleeve` through icon `icon`."""
        return self.exhaust + sleeve * MAX_EXHAUST_ICONS + icon

    def buy_id(self, slot: int, sleeve: int) -> int:
        """Buy market slot `slot`'s upgrade onto `sleeve`."""
        return self.buy + slot * MAX_SLEEVES + sleeve


def sleeve_names(cards: UnstoppableCards, character_deck: tuple[tuple[int, int], ...]) -> list[str]:
    """Every sleeve as labels name it: 'sleeve 1 (Strike)' for the character deck, 'drafted card 1' after."""
    places = sleeve_places(len(character_deck))
    for sleeve, (core, _) in enumerate(character_deck):
        places[sleeve] += f" ({cards.cores[core].name})"
    return places


def sleeve_places(character_deck_size: int) -> list[str]:
    """Every sleeve by its place alone ('sleeve 1', 'drafted card 1'): the target labels, whose card is a threat."""
    places = [f"sleeve {s + 1}" for s in range(character_deck_size)]
    return places + [f"drafted card {k + 1}" for k in range(MAX_SLEEVES - character_deck_size)]


def build_actions(cards: UnstoppableCards, character_deck: tuple[tuple[int, int], ...]) -> UnstoppableActions:
    """Lay out the action space for a card set and a character deck."""
    codec = ActionCodec()
    sleeves = sleeve_names(cards, character_deck)
    ids = {
        "play": codec.add_group("play", sleeves),
        "exhaust": codec.add_group(
            "exhaust", [f"{name} icon {icon + 1}" for name in sleeves for icon in range(MAX_EXHAUST_ICONS)]
        ),
        "target": codec.add_group("target", sleeve_places(len(character_deck))),
        "eliminate": codec.add_group("eliminate", sleeves),
        "buy": codec.add_group(
            "buy", [f"market slot {slot + 1} onto {name}" for slot in range(MARKET_SIZE) for name in sleeves]
        ),
        "draft": codec.add_group("draft", [core.name for core in cards.cores]),
        "effect": codec.add_group("effect", [slot_name(slot) for slot in range(SLOTS)]),
        "done": codec.add_group("done", ["forfeit the remaining effects", "eliminate nothing", "stop cycling"]),
        "end_main": codec.add_group("end main phase", [""]),
        "danger": codec.add_group("danger", ["take", "decline"]),
        "refresh": codec.add_group("refresh", sleeves),
        "discard": codec.add_group("discard", sleeves),
        "cycle": codec.add_group("cycle", [f"market slot {slot + 1}" for slot in range(MARKET_SIZE)]),
    }
    return UnstoppableActions(codec=codec, **ids)
