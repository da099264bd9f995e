"""The engine's lock: waiting threads take it in the order they asked for it."""

from __future__ import annotations

import threading
import time

from paralign.web.turns import TurnLock


def _waiting(lock: TurnLock) -> int:
    """How many threads wait for `lock` (not the one holding it): the engine asks no such count."""
    with lock._state:
        return len(lock._turns)


def _wait_for(condition, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.002)
    assert condition()


def test_waiting_threads_take_the_lock_in_the_order_they_asked_and_the_holder_asking_again_waits() -> None:
    """threading.Lock goes to no thread in particular: a holder that lets it go and asks again
    at once mostly has it again first. Here every thread waits its turn, the holder included."""
    lock, order = TurnLock(), []

    def take(name: str) -> None:
        with lock:
            order.append(name)

    lock.__enter__()
    threads = []
    for n, name in enumerate("abc", 1):
        threads.append(threading.Thread(target=take, args=(name,), daemon=True))
        threads[-1].start()
        _wait_for(lambda n=n: _waiting(lock) == n)
    lock.__exit__(None, None, None)
    take("again")  # the holder asking again: after the three that waited
    for thread in threads:
        thread.join(10)
    assert order == ["a", "b", "c", "again"] and _waiting(lock) == 0


def test_a_thread_given_up_while_waiting_passes_its_turn_on() -> None:
    lock, order = TurnLock(), []
    lock.__enter__()

    class Stop(BaseException):
        pass

    def waits_then_stops() -> None:  # its wait ends in an exception (as a KeyboardInterrupt would)
        original = lock._state.wait

        def wait(timeout=None):
            raise Stop

        lock._state.wait = wait
        try:
            with lock:
                order.append("never")
        except Stop:
            order.append("stopped")
        finally:
            lock._state.wait = original

    waits_then_stops()
    assert order == ["stopped"] and _waiting(lock) == 0
    lock.__exit__(None, None, None)
    with lock:
        order.append("next")
    assert order == ["stopped", "next"]
