"""Chance labels by table: each kind of chance node says once how its outcome reads, and what a seat that may not
see the outcome reads instead.

A game's state declares the table and inherits `chance_label` and `chance_label_for` from `FrameChanceLabels` (a
frame-engine state: the kind of the frame on top picks the entry) or `ChanceLabels` (a state that names its own
node, e.g. by its phase):

    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {
        Kind.FIRST: ChanceLabel("seat {outcome} goes first"),
        Kind.DEAL: ChanceLabel(
            "seat {seat} draws {item.name}", items=attrgetter("game.cards.hand"),
            hidden="seat {seat} draws a card", seen_by="seat",
        ),
        Kind.ROLL: ChanceLabel(_roll_words),               # a function (state, node, outcome) -> str
    }

Words are a format template or a function `(state, node, outcome) -> str`, the node being the frame on top (or
what `ChanceLabels._chance_node` gives). A label's template reads `{outcome}`, `{item}` (the outcome's entry in
the entry's `items`), the frame's details by name (`{seat}`) and `{state}` (`{state.level}`); a hidden template
reads the details and `{state}` only, so that it cannot name the outcome it hides.

A kind with no entry is an error (`UnknownChanceKindError`), never a made-up label; a frame-engine state's table
is checked against its `FRAME_KINDS` when the class is made: every chance kind has an entry, every entry a chance
kind.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from envs.core.decisions import DecisionFrame, DecisionStack
from envs.core.engine import Chance
from envs.core.game import State

Words = str | Callable[[Any, Any, int], str]
"""A format template, or a function (state, node, outcome) -> str."""


@dataclass(frozen=True, slots=True)
class ChanceLabel:
    """How the outcome of one kind of chance node reads, in full and for a seat that may not see it."""

    label: Words
    """The outcome in words, hidden parts included (`State.chance_label`)."""
    items: Callable[[Any], Sequence[Any]] | None = None
    """The sequence the outcome indexes, from the state (e.g. `attrgetter("game.cards.heroes")`): `{item}` in the
    label's template is its entry at the outcome. None: the template has no `{item}`."""
    hidden: Words | None = None
    """What a seat that may not see the outcome reads, in a game with hidden information; None: every seat sees it."""
    seen_by: str | None = None
    """With `hidden`: the node's detail naming the one seat that sees the outcome; None: no seat sees it."""

    def __post_init__(self) -> None:
        if self.seen_by is not None and self.hidden is None:
            raise TypeError(f"ChanceLabel({self.label!r}): seen_by={self.seen_by!r} needs the hidden words")


class UnknownChanceKindError(LookupError):
    """A chance node whose kind has no entry in its state's `CHANCE_LABELS`; names the kind and the known ones."""

    def __init__(self, owner: str, kind: Hashable, known: Sequence[Hashable]) -> None:
        super().__init__(f"{owner}.CHANCE_LABELS has no entry for chance kind {kind!r}; its kinds are {list(known)}")


class ChanceLabels(State):
    """A state whose chance labels come from its class's `CHANCE_LABELS` table, keyed by the kind `_chance_node`
    names."""

    CHANCE_LABELS: ClassVar[Mapping[Hashable, ChanceLabel]] = {}
    """Every kind of chance node of the game: how its outcome reads."""

    @abc.abstractmethod
    def _chance_node(self) -> tuple[Hashable, Any]:
        """The pending chance node's kind (a key of `CHANCE_LABELS`) and the node a label function reads."""

    def chance_label(self, outcome: int) -> str:
        """The chance outcome in words, hidden parts included (the entry's `label`)."""
        kind, node = self._chance_node()
        entry = self._chance_entry(kind)
        return _words(entry.label, self, node, outcome, entry.items)

    def chance_label_for(self, outcome: int, player: int | None) -> str:
        """The chance outcome as seat `player` (None: a spectator) may see it: the entry's `hidden` words unless the
        game hides nothing, the kind hides nothing, or `player` is the seat the entry's `seen_by` names."""
        kind, node = self._chance_node()
        entry = self._chance_entry(kind)
        hidden = entry.hidden
        if hidden is None or not self.game.spec.hidden_information:
            return _words(entry.label, self, node, outcome, entry.items)
        if entry.seen_by is not None and _details(node).get(entry.seen_by) == player:
            return _words(entry.label, self, node, outcome, entry.items)
        if isinstance(hidden, str):
            return _format(hidden, self, node, {"state": self, **_details(node)})
        return hidden(self, node, outcome)

    def _chance_entry(self, kind: Hashable) -> ChanceLabel:
        """The table's entry for `kind`; UnknownChanceKindError naming it and the known kinds otherwise."""
        entry = self.CHANCE_LABELS.get(kind)
        if entry is None:
            raise UnknownChanceKindError(type(self).__name__, kind, list(self.CHANCE_LABELS))
        return entry


class FrameChanceLabels(ChanceLabels):
    """Chance labels of a frame-engine state (envs/core/engine.py), keyed by the kind of the frame on top; the
    table is checked against the class's `FRAME_KINDS` when the class is made."""

    stack: DecisionStack

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        frame_kinds = getattr(cls, "FRAME_KINDS", {})
        if frame_kinds:
            check_chance_labels(cls.__name__, cls.CHANCE_LABELS, frame_kinds)

    def _chance_node(self) -> tuple[Hashable, Any]:
        """The kind of the frame on top, and the frame."""
        frame = self.stack[-1]
        return frame.kind, frame


def check_chance_labels(owner: str, labels: Mapping[Hashable, ChanceLabel], frame_kinds: Mapping[str, Any]) -> None:
    """TypeError naming the kinds unless `labels` has an entry for each chance kind of `frame_kinds` and no other."""
    chance_kinds = {str.__str__(kind) for kind, entry in frame_kinds.items() if isinstance(entry, Chance)}
    labelled = {str.__str__(kind) if isinstance(kind, str) else kind for kind in labels}
    for kind, entry in labels.items():
        if not isinstance(entry, ChanceLabel):
            raise TypeError(f"{owner}.CHANCE_LABELS[{kind!r}]: expected a ChanceLabel, got {entry!r}")
    missing = sorted(chance_kinds - labelled)
    if missing:
        raise TypeError(f"{owner}.CHANCE_LABELS: the chance kinds {missing} of its FRAME_KINDS have no label")
    extra = sorted(map(repr, labelled - chance_kinds))
    if extra:
        raise TypeError(f"{owner}.CHANCE_LABELS: {', '.join(extra)} is not a chance kind of its FRAME_KINDS")


def _details(node: Any) -> dict[str, Any]:
    """A frame's details by name (nothing for another node)."""
    return dict(node.details) if isinstance(node, DecisionFrame) else {}


def _words(words: Words, state: State, node: Any, outcome: int, items: Callable[[Any], Sequence[Any]] | None) -> str:
    """A label's words for `outcome`: its function's, or its template filled with the outcome, item and details."""
    if not isinstance(words, str):
        return words(state, node, outcome)
    fields = {"state": state, **_details(node), "outcome": outcome}
    if items is not None:
        fields["item"] = items(state)[outcome]
    return _format(words, state, node, fields)


def _format(template: str, state: State, node: Any, fields: Mapping[str, Any]) -> str:
    """`template` filled from `fields`; KeyError naming the template, the field and the node if one is missing."""
    try:
        return template.format_map(fields)
    except KeyError as missing:
        raise KeyError(
            f"{type(state).__name__}.CHANCE_LABELS: the template {template!r} reads {missing}, which the node "
            f"{node!r} does not have (it has {sorted(fields)})"
        ) from None
