"""``torch.futures``: the Future that ``torch.jit.fork`` returns. Work here runs at once, so
a future is done when it is handed back; callbacks run when its result is set."""

from __future__ import annotations

from collections.abc import Callable


class Future:
    """A value that is (here: already) computed, or the error that computing it raised."""

    __module__ = "torch"

    def __init__(self, *, devices=None) -> None:
        self._done = False
        self._value = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable] = []

    def done(self) -> bool:
        return self._done

    def wait(self):
        if not self._done:
            raise RuntimeError("Future.wait() would block forever: nothing will set its result "
                               "in this single-threaded engine")
        return self.value()

    def value(self):
        if self._error is not None:
            raise self._error
        return self._value

    def set_result(self, result) -> None:
        self._finish(result, None)

    def set_exception(self, result: BaseException) -> None:
        self._finish(None, result)

    def _finish(self, value, error) -> None:
        if self._done:
            raise RuntimeError("Future can only be marked completed once.")
        self._value, self._error, self._done = value, error, True
        for callback in self._callbacks:
            callback(self)
        self._callbacks.clear()

    def then(self, callback: Callable) -> Future:
        """A future of ``callback(self)``, set when this one is."""
        chained = Future()

        def run(finished: Future) -> None:
            try:
                chained.set_result(callback(finished))
            except Exception as error:  # noqa: BLE001 - handed to the chained future, as torch
                chained.set_exception(error)

        self.add_done_callback(run)
        return chained

    def add_done_callback(self, callback: Callable) -> None:
        if self._done:
            callback(self)
        else:
            self._callbacks.append(callback)


def collect_all(futures: list[Future]) -> Future:
    collected = Future()
    collected.set_result(list(futures))
    return collected


def wait_all(futures: list[Future]) -> list:
    return [future.wait() for future in futures]
