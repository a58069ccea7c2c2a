"""``torch.autograd.profiler``: the profiler's older home (``profile``, ``record_function``)."""

from ..profiler import EventList, FunctionEventAvg, profile, record_function

__all__ = ["EventList", "FunctionEventAvg", "profile", "record_function"]
