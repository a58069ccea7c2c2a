"""``torch.distributed`` as a single process without a process group sees it: available, not
initialized, each collective refused in torch's words. Scripts that import it and branch on
``RANK`` (nanoGPT's train.py) run; starting a process group is real torch's alone."""

from __future__ import annotations

import enum
import os

from ._missing import MISSING_HINT, missing_attribute

NO_GROUP = ("Default process group has not been initialized, please make sure to call "
            "init_process_group.")


class ReduceOp:
    """The reductions collectives take (``dist.ReduceOp.SUM``)."""

    class RedOpType(enum.Enum):
        SUM, AVG, PRODUCT, MIN, MAX, BAND, BOR, BXOR, PREMUL_SUM, UNUSED = range(10)

        def __repr__(self) -> str:
            return f"<RedOpType.{self.name}: {self.value}>"

        def __str__(self) -> str:
            return f"RedOpType.{self.name}"

    RedOpType.__qualname__ = "ReduceOp.RedOpType"


for _op in ReduceOp.RedOpType:
    setattr(ReduceOp, _op.name, _op)


def is_available() -> bool:
    return True


def is_initialized() -> bool:
    return False


def is_torchelastic_launched() -> bool:
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def is_gloo_available() -> bool:
    return True


def is_nccl_available() -> bool:
    return False


def is_mpi_available() -> bool:
    return False


def init_process_group(*args, **kwargs) -> None:
    raise NotImplementedError(f"torch.distributed.init_process_group {MISSING_HINT}")


def destroy_process_group(group=None) -> None:
    raise AssertionError("Process group cannot be None")


def _needs_a_group(*args, **kwargs):
    raise ValueError(NO_GROUP)


# every call that works on the default process group, which a single process lacks
get_rank = get_world_size = get_backend = barrier = all_reduce = all_gather = broadcast = \
    reduce = gather = scatter = all_to_all = reduce_scatter = all_gather_object = \
    broadcast_object_list = send = recv = new_group = _needs_a_group

__getattr__ = missing_attribute("torch.distributed")
