"""Runebound's invariants of a combat position, for `benchmarks.state_fuzz --invariants`: checked apart from the
game's own validation, so that the fuzzer finds what validation lets through."""

from __future__ import annotations

import re

from envs.core.game import State
from envs.runebound.rules import CombatState
from envs.runebound.state import LOADOUT, NOT_CAST, NOWHERE, DrawKind, Kind
from envs.runebound.symbols import ENEMY, HERO
from tests.runebound.test_simulation import combat_invariants

STACK_SHAPES = re.compile(
    r"|combat setup( / pick enemy( / pick hero)?)?"
    r"|after cast( / cast)+"
    r"|start combat round / stay or flee"
    r"|combat initiative / cast"
    r"|next combat action / (hero combat action|combat group|agility target|tactics copy|copied surge|cast)"
    r"|next combat action( / enemy agility)?( / (combat damage|prevent flip))* / (tactics block|prevent flip|cast)"
)
"""The frame stacks (kinds, bottom first) the rules push: setup's draws, a round's casts, the end of a round, the
initiative recast, one frame of the hero's own combat action (or the recast its agility asked for) above the next
combat action, or what the enemy's action left: the rest of its agility space, then what each of its tactics left
(damage, a flip the hero may prevent) under the hero's answer or a recast on top. Two frames left by two tactics are
rare in random play (tests/runebound/test_state_dicts.py replays a seeded combat reaching each)."""


def state_invariants(state: State) -> None:
    """The combat's own invariants (tests/runebound/test_simulation.py) and: the position passes validation; each
    side holds the tokens it casts, in order (the hero its own, then its weapons' each once; the enemy the first 4 +
    Act of its trait's set); before the first round nothing is cast, dealt or decided; the stack has a shape combats
    reach, no frame twice (but a flip to prevent: each of the enemy's tactics copying an agility picks the token to
    flip before the hero answers the flip before it, so two may name the same token); the hero's decisions are within
    the spec's maximum length."""
    assert isinstance(state, CombatState)
    state.validate()
    combat_invariants(state)
    game, cards = state.game, state.game.cards
    if state.hero != NOWHERE and state.enemy != NOWHERE and state.combat_tokens[HERO]:
        hero = tuple(held.token for held in state.combat_tokens[HERO])
        own = cards.hero_own_tokens(state.hero)
        if game.weapons == LOADOUT:
            assert hero == cards.hero_tokens(state.hero, game.act), f"hero tokens {hero}"
        assert hero[: len(own)] == own and len(set(hero)) == len(hero), f"hero tokens {hero}"
        enemy = tuple(held.token for held in state.combat_tokens[ENEMY])
        assert enemy == cards.enemy_tokens(state.enemy, game.act), f"enemy tokens {enemy}"
    if state.combat_round == 0:
        cast = [held for side in state.combat_tokens for held in side if held.face != NOT_CAST or held.spent]
        dealt = any(state.combat_damage) or any(state.combat_round_damage)
        assert not cast and not dealt and state.decisions == 0, "play before the first round"
    kinds = " / ".join(str(frame.kind) for frame in state.stack)
    assert STACK_SHAPES.fullmatch(kinds), f"a stack no combat reaches: {kinds}"
    distinct = [frame for frame in state.stack if frame.kind != Kind.PREVENT]
    assert len(set(distinct)) == len(distinct), "a frame twice on the stack"
    assert all(frame.kind in {*Kind, *DrawKind} for frame in state.stack)
    assert state.decisions <= game.spec.max_game_length, f"{state.decisions} decisions"
