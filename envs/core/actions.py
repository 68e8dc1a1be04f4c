"""ActionCodec: structured actions <-> stable integer ids, with a human label for every id."""

from __future__ import annotations

from collections.abc import Sequence


class ActionCodec:
    """A fixed Discrete(N) action space built from named groups; ids are append-only and stable."""

    def __init__(self) -> None:
        self._labels: list[str] = []
        self._groups: dict[str, tuple[int, int]] = {}

    def add_group(self, name: str, labels: Sequence[str]) -> int:
        """Append a group of actions (one label each) and return the id of its first action."""
        if name in self._groups:
            raise ValueError(f"action group {name!r} defined twice")
        start = len(self._labels)
        self._labels.extend(f"{name}: {label}" if label else name for label in labels)
        self._groups[name] = (start, len(labels))
        return start

    def id(self, group: str, index: int = 0) -> int:
        """The id of the `index`-th action of `group`."""
        start, count = self._groups[group]
        if not 0 <= index < count:
            raise IndexError(f"action group {group!r} has {count} actions, no index {index}")
        return start + index

    def group_range(self, group: str) -> range:
        """All ids of a group."""
        start, count = self._groups[group]
        return range(start, start + count)

    def decode(self, action: int) -> tuple[str, int]:
        """(group name, index within the group) of an id."""
        for name, (start, count) in self._groups.items():
            if start <= action < start + count:
                return name, action - start
        raise IndexError(f"action id {action} is outside the action space of {len(self._labels)} ids")

    def label(self, action: int) -> str:
        """Human-readable label of an id."""
        if not 0 <= action < len(self._labels):
            return f"out of range (the action space has {len(self._labels)} ids)"
        return self._labels[action]

    @property
    def labels(self) -> list[str]:
        """Every label, indexed by id."""
        return list(self._labels)

    def __len__(self) -> int:
        return len(self._labels)
