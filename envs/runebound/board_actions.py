"""Runebound board game's fixed action space: the combat's ids first (the same ids as `RuneboundCombat-v0`, so the
combat heuristic drives fights inside the board game unchanged), then the board's groups, then the co-operative
groups, reserved and never legal in solo (the co-op mode plays on the same space). Append-only.

| group | ids | the decision |
|---|---|---|
| the combat's groups | `actions.ACTIONS` | a fight's decisions (actions.py) |
| `action` | 9 | move, rest, shop, adventure, fight warband, train, prepare, spend prepare, end turn |
| `step` | 6 directions | move one hex without dice (an action) |
| `move` | 6 faces x 6 directions | spend a terrain die showing the face to step in the direction |
| `stop` | 1 | stop moving (the unspent dice are lost) |
| `learn` | 6 hand slots | learn the skill in that slot, paying its trophies (no action) |
| `buy` | 4 market slots | buy the market's asset in that slot |
| `discard asset` | 4 market slots | discard the market's asset in that slot |
| `sell` | 4 asset types | sell the asset held of that type at its gold value |
| `exert` | 6 hand slots | exert (discard) the skill in that slot: for a test's bonus, or a fight's exert ability |
| `roll` | 1 | roll the test |
| `discard skill` | 6 hand slots | discard a skill down to the hand size |
| `party` (co-op) | 4 | form a party with seat +1, +2, +3; leave the party |
| `give` (co-op) | 3 | give 1 gold to seat +1, +2, +3 |
| `envelope` (co-op) | 4 | send 1 gold to seat +1, +2, +3 in an envelope; open an envelope |
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.actions import ActionCodec
from envs.core.hexgrid import DIRECTION_NAMES, DIRECTIONS
from envs.runebound.actions import CombatActions, build_actions
from envs.runebound.board_cards import ASSET_TYPES
from envs.runebound.board_state import MARKET_SLOTS, MAX_HAND
from envs.runebound.movement import FACE_NAMES

TURN_ACTIONS = ("move", "rest", "shop", "adventure", "fight warband", "train", "prepare", "spend prepare", "end turn")
"""The `action` group, in order."""
MOVE, REST, SHOP, ADVENTURE, FIGHT_WARBAND, TRAIN, PREPARE, SPEND_PREPARE, END_TURN = range(len(TURN_ACTIONS))
OTHER_SEATS = ("seat +1", "seat +2", "seat +3")


@dataclass(frozen=True)
class BoardActions:
    """Ids of every board action, after the combat's (append-only)."""

    codec: ActionCodec
    combat: CombatActions
    combat_ids: int
    """The combat's ids come first: ids below this are a fight's decisions."""
    action: int
    step: int
    move: int
    stop: int
    learn: int
    buy: int
    discard_asset: int
    sell: int
    exert: int
    roll: int
    discard_skill: int
    party: int
    give: int
    envelope: int

    @property
    def size(self) -> int:
        """Number of actions."""
        return len(self.codec)

    def move_id(self, face: int, direction: int) -> int:
        """The id of spending a die showing `face` to step in `direction`."""
        return self.move + face * len(DIRECTIONS) + direction

    def move_of(self, action: int) -> tuple[int, int]:
        """(face, direction) of a `move` id."""
        return divmod(action - self.move, len(DIRECTIONS))


def build_board_actions() -> BoardActions:
    """Lay out the action space (the same for every hero and seat count)."""
    codec = ActionCodec()
    combat = build_actions(codec)
    combat_ids = len(codec)
    slots = [f"slot {k + 1}" for k in range(MAX_HAND)]
    market = [f"slot {k + 1}" for k in range(MARKET_SLOTS)]
    ids = {
        "action": codec.add_group("action", list(TURN_ACTIONS)),
        "step": codec.add_group("step", list(DIRECTION_NAMES)),
        "move": codec.add_group("move", [f"{face} {way}" for face in FACE_NAMES for way in DIRECTION_NAMES]),
        "stop": codec.add_group("stop", [""]),
        "learn": codec.add_group("learn", slots),
        "buy": codec.add_group("buy", market),
        "discard_asset": codec.add_group("discard asset", market),
        "sell": codec.add_group("sell", list(ASSET_TYPES)),
        "exert": codec.add_group("exert", slots),
        "roll": codec.add_group("roll", [""]),
        "discard_skill": codec.add_group("discard skill", slots),
        "party": codec.add_group("party", [*(f"form with {seat}" for seat in OTHER_SEATS), "leave"]),
        "give": codec.add_group("give", [f"1 gold to {seat}" for seat in OTHER_SEATS]),
        "envelope": codec.add_group("envelope", [*(f"send 1 gold to {seat}" for seat in OTHER_SEATS), "open"]),
    }
    return BoardActions(codec=codec, combat=combat, combat_ids=combat_ids, **ids)


BOARD_ACTIONS = build_board_actions()
"""The one action layout of the board game."""
