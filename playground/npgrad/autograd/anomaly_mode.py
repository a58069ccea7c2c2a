"""``torch.autograd.anomaly_mode``: detect_anomaly and set_detect_anomaly."""

from __future__ import annotations

import functools

from .._anomaly import AnomalyMode, set_mode
from .._user_warnings import warn_at_user_code


class detect_anomaly:  # noqa: N801 - torch's name
    """A block (or function, decorated) in which backward checks its nodes and says where a
    failing node was made."""

    def __init__(self, check_nan: bool = True) -> None:
        self.previous = AnomalyMode.enabled
        self.check_nan = check_nan
        self.previous_check_nan = AnomalyMode.check_nan
        warn_at_user_code("Anomaly Detection has been enabled. This mode will increase the "
                          "runtime and should only be enabled for debugging.")

    def __enter__(self) -> None:
        set_mode(True, self.check_nan)

    def __exit__(self, *exc_info) -> None:
        set_mode(self.previous, self.previous_check_nan)

    def __call__(self, function):
        @functools.wraps(function)
        def run(*args, **kwargs):
            with self.__class__(self.check_nan):
                return function(*args, **kwargs)

        return run


class set_detect_anomaly:  # noqa: N801 - torch's name
    """Turn anomaly detection on or off; as a block, back to what it was afterwards."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.previous, self.previous_check_nan = AnomalyMode.enabled, AnomalyMode.check_nan
        set_mode(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info) -> None:
        set_mode(self.previous, self.previous_check_nan)


def is_anomaly_enabled() -> bool:
    return AnomalyMode.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return AnomalyMode.check_nan


__all__ = ["detect_anomaly", "set_detect_anomaly"]
