"""Runebound combat's fixed action space: one Discrete space for every hero and enemy, every id with a label.

Groups (append-only: a new group goes at the end, so saved replays keep their meaning). Tokens are named by their
place in a side's casting order ("hero token 2", "enemy token 4"); the observer's `action_text` adds the face a
token shows in the position at hand.

| group | ids | the decision |
|---|---|---|
| `pass` | 1 | pass: no more combat actions this round |
| `spend` | 6 hero tokens | start a combat action with a token: damage or charge (a group to add to), agility, tactics |
| `add` | 6 hero tokens | add a token to the action being built: another of its symbol, or a double |
| `strike` | 1 | carry out the action being built (deal its damage) |
| `flip` | 6 hero + 6 enemy tokens | the token an agility flips |
| `recast` | 6 hero + 6 enemy tokens | the token an agility recasts |
| `copy` | 6 hero + 6 enemy tokens | the token whose symbol a tactics copies |
| `ability` | 3 | use the hero's ability in that slot (surge abilities pay their surges) |
| `react` | use, decline | a reaction the text makes optional: a tactics spent to block, an ability preventing a flip |
| `round end` | stay, flee | after a round: stay in the combat or leave it |
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.actions import ActionCodec
from envs.runebound.cards import MAX_ENEMY_TOKENS, MAX_HERO_ABILITIES, MAX_HERO_TOKENS
from envs.runebound.symbols import ENEMY, HERO

USE, DECLINE = range(2)
"""Indices within the `react` group."""
STAY, FLEE = range(2)
"""Indices within the `round end` group."""


def token_target_labels() -> list[str]:
    """Labels of a group over every token of both sides: the hero's, then the enemy's."""
    return [f"hero token {k + 1}" for k in range(MAX_HERO_TOKENS)] + [
        f"enemy token {k + 1}" for k in range(MAX_ENEMY_TOKENS)
    ]


@dataclass(frozen=True)
class CombatActions:
    """Ids of every combat action (append-only)."""

    codec: ActionCodec
    pass_turn: int
    spend: int
    add: int
    strike: int
    flip: int
    recast: int
    copy: int
    ability: int
    react: int
    round_end: int

    @property
    def size(self) -> int:
        """Number of actions."""
        return len(self.codec)

    def target(self, group_start: int, side: int, token: int) -> int:
        """The id of a `flip`, `recast` or `copy` target: token `token` of `side`."""
        return group_start + token + (MAX_HERO_TOKENS if side == ENEMY else 0)

    def target_of(self, action: int, group_start: int) -> tuple[int, int]:
        """(side, token) of a `flip`, `recast` or `copy` id."""
        index = action - group_start
        return (HERO, index) if index < MAX_HERO_TOKENS else (ENEMY, index - MAX_HERO_TOKENS)


def build_actions(codec: ActionCodec | None = None) -> CombatActions:
    """Lay out the combat's action space (the same for every hero, enemy and Act), first in `codec` (a new one by
    default): the board game lays its own groups after the combat's, so a combat's ids are the same in both games."""
    codec = ActionCodec() if codec is None else codec
    hero_tokens = [f"hero token {k + 1}" for k in range(MAX_HERO_TOKENS)]
    ids = {
        "pass_turn": codec.add_group("pass", [""]),
        "spend": codec.add_group("spend", hero_tokens),
        "add": codec.add_group("add", hero_tokens),
        "strike": codec.add_group("strike", [""]),
        "flip": codec.add_group("flip", token_target_labels()),
        "recast": codec.add_group("recast", token_target_labels()),
        "copy": codec.add_group("copy", token_target_labels()),
        "ability": codec.add_group("ability", [f"hero ability {k + 1}" for k in range(MAX_HERO_ABILITIES)]),
        "react": codec.add_group("react", ["use", "decline"]),
        "round_end": codec.add_group("round end", ["stay", "flee"]),
    }
    return CombatActions(codec=codec, **ids)


ACTIONS = build_actions()
"""The one action layout (it depends on no content)."""
