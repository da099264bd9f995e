"""A lock whose waiting threads take it in the order they asked for it: :class:`TurnLock`, the
engine's one lock.

``threading.Lock`` is given to no thread in particular: a thread that lets it go and asks for
it again at once (a batch going from one block of rows to the next) nearly always takes it
again before a waiting thread has woken. So a batch that let the lock go between its blocks
would still keep a request sent meanwhile waiting to its end; with turns, that request is
answered after the block being scored.

Not for: what the lock guards (:mod:`.engine`).
"""

from __future__ import annotations

import threading
from collections import deque
from types import TracebackType


class TurnLock:
    """A lock (a context manager, not reentrant) taken first come, first served: a thread
    asking for it waits until every thread that asked before it has had it and let it go."""

    def __init__(self) -> None:
        self._state = threading.Condition(threading.Lock())
        self._turns: deque[object] = deque()
        self._held = False

    def __enter__(self) -> None:
        turn = object()
        with self._state:
            self._turns.append(turn)
            try:
                while self._held or self._turns[0] is not turn:
                    self._state.wait()
            except BaseException:  # given up while waiting: its turn goes to the next
                self._turns.remove(turn)
                self._state.notify_all()
                raise
            self._turns.popleft()
            self._held = True

    @property
    def waiting(self) -> int:
        """How many threads are waiting for their turn (not the one holding the lock)."""
        with self._state:
            return len(self._turns)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        with self._state:
            self._held = False
            self._state.notify_all()
