"""Layered layout of autograd graphs without Graphviz, with an optional C core.

``layered.py`` drives the four phases, each in its own module: ranking.py (layers),
layering.py (dummy nodes of long edges), crossings.py (orders), placement.py (coordinates);
core.py loads _core.c, which runs the hot loops much faster and draws the same.
"""

from playground.layout.crossings import count_inversions
from playground.layout.layered import Layout, layered_layout

__all__ = ["Layout", "count_inversions", "layered_layout"]
