"""Keyword arguments checked by name: a misspelled one (`flatt=True`) is refused with the list of the valid ones.

Python's own error ("got an unexpected keyword argument 'flatt'") names neither the valid keywords nor the one
meant; env factories and game classes are called with keywords from configs and `gym.make(id, **kwargs)`, where a
typo is the usual mistake, so they say both (`keyword_checked`, or `check_keywords` for a factory that forwards
`**kwargs`).
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_NAMED_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def keywords_of(function: Callable[..., Any]) -> tuple[str, ...] | None:
    """The keyword arguments `function` takes (a class: its `__init__`'s, less `self`); None if it takes `**kwargs`."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # no signature to read (some builtins): accept every name
        return None
    if any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters):
        return None
    return tuple(p.name for p in parameters if p.kind in _NAMED_KINDS and p.name != "self")


def check_keywords(owner: str, given: Iterable[str], valid: Iterable[str]) -> None:
    """TypeError naming the first of `given` that is not in `valid`, the valid keyword it resembles and every one."""
    valid = list(valid)
    for keyword in given:
        if keyword not in valid:
            close = difflib.get_close_matches(keyword, valid, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise TypeError(
                f"{keyword!r} is not a valid keyword argument of {owner}{hint}; valid keywords: [{', '.join(valid)}]"
            )


def keyword_checked(owner: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a function (or a class's `__init__`) so that an unknown keyword raises `check_keywords`'s error."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        keywords = keywords_of(function)
        if keywords is None:  # it takes **kwargs itself: every name is accepted
            return function
        valid: tuple[str, ...] = keywords
        allowed = frozenset(valid)

        @functools.wraps(function)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            if not kwargs.keys() <= allowed:
                check_keywords(owner, kwargs, valid)
            return function(*args, **kwargs)

        return checked

    return decorate
