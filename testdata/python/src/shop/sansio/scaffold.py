from __future__ import annotations

import typing as t
from functools import update_wrapper

F = t.TypeVar("F", bound=t.Callable[..., t.Any])


def setupmethod(f: F) -> F:
    def wrapper(self: Scaffold, *args: t.Any, **kwargs: t.Any) -> t.Any:
        self._check_setup_finished(f.__name__)
        return f(self, *args, **kwargs)

    return t.cast(F, update_wrapper(wrapper, f))


class Scaffold:
    """Common behaviour of applications and blueprints."""

    #: Set once the first request was handled.
    _got_first_request: bool = False

    def __init__(self, name: str) -> None:
        self.name = name
        #: Functions called before each request.
        self.before_request_funcs: list[t.Callable[[], None]] = []

    def _check_setup_finished(self, f_name: str) -> None:
        if self._got_first_request:
            raise AssertionError(f"{f_name} called after the first request")

    @setupmethod
    def before_request(self, f: F) -> F:
        """Register a function to run before each request.

        The function is called without arguments.
        """
        self.before_request_funcs.append(f)
        return f

    def reset(self) -> None:
        """Forget the registered functions."""
        self.before_request_funcs.clear()
