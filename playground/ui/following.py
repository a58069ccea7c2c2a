"""Views follow the ViewState's events for as long as they live: ``follow`` connects a
handler and disconnects it when its widget is destroyed (a closed view is never called)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from playground.model.view_state import Event


def follow(view: QObject, event: Event, handler: Callable) -> None:
    """Call ``handler`` on each ``event`` until ``view`` is destroyed."""
    event.connect(handler)
    view.destroyed.connect(lambda *_: _forget(event, handler))


def _forget(event: Event, handler: Callable) -> None:
    if handler in event:
        event.disconnect(handler)
