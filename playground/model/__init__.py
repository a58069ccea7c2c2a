"""Plain data the views read after a run: the graph, the backward traces (no Qt, no engine)."""

from playground.model.arrays import ArrayData
from playground.model.graph import Graph, GraphEdge, GraphNode
from playground.model.run_result import RunError, RunResult
from playground.model.trace import BackwardStep, BackwardTrace

__all__ = ["ArrayData", "Graph", "GraphEdge", "GraphNode", "BackwardStep", "BackwardTrace",
           "RunError", "RunResult"]
