"""Anomaly detection (``torch.autograd.detect_anomaly``): while on, each node remembers the
user's lines that made it, and a backward node that fails or returns NaN says where its
forward call was, in torch's words."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

import numpy as np

from . import _nodes, _recording
from ._user_warnings import warn_at_user_code

_ENGINE = str(Path(__file__).resolve().parents[1])  # the app's own frames are not shown
_TRIGGERED = (" (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/"
              "python_anomaly_mode.cpp:122.)")


class AnomalyMode:
    enabled = False
    check_nan = True
    forward_stacks: dict[int, list] = {}  # a node's sequence number -> where it was made


def set_mode(enabled: bool, check_nan: bool = True) -> None:
    """Turn the mode on or off: node numbers are then drawn through ``_numbered``."""
    AnomalyMode.enabled, AnomalyMode.check_nan = bool(enabled), bool(check_nan)
    numbering = _numbered if enabled else _plain_number
    _recording._next_sequence = numbering
    _nodes.new_sequence_number = numbering


_plain_number = _nodes.new_sequence_number


def _numbered() -> int:
    number = _plain_number()
    frames = [frame for frame in traceback.extract_stack(sys._getframe(1))
              if not frame.filename.startswith((_ENGINE, "<frozen "))]
    AnomalyMode.forward_stacks[number] = frames
    return number


def checked(run, node, *arguments):
    """``run(node, *arguments)`` (a node's backward) with the mode's checks: an error, or a
    NaN in an output when checking NaNs, first warns where the node's forward call was."""
    try:
        outputs = run(node, *arguments)
    except Exception:
        _warn_forward(node)
        raise
    if AnomalyMode.check_nan:
        for index, output in enumerate(outputs):
            values = getattr(output, "_data", output)
            if isinstance(values, np.ndarray) and values.dtype.kind in "fc" and \
                    np.isnan(values).any():
                _warn_forward(node)
                raise RuntimeError(f"Function '{node.name()}' returned nan values in its "
                                   f"{index}th output.")
    return outputs


def _warn_forward(node) -> None:
    frames = AnomalyMode.forward_stacks.get(getattr(node, "_seq", None))
    if frames is None:
        return
    warn_at_user_code(f"Error detected in {node.name()}. Traceback of forward call that "
                      f"caused the error:\n{''.join(traceback.format_list(frames))}"
                      f"{_TRIGGERED}")
