"""Which torch API the corpus's snippets use, by how many snippets use each, and whether the
NumPy engine has it: the list that orders the engine's work (what most snippets need first).

``python tests/corpus/api_usage.py [--missing] [--top N]``

Each snippet is parsed, never run. A name counts when it resolves through the snippet's own
imports to ``torch...`` (``import torch.nn.functional as F`` makes ``F.relu`` into
``torch.nn.functional.relu``), and a method call ``x.name(...)`` counts as ``Tensor.name``
when real torch's Tensor has that method (so it needs torch installed). "has" looks the same
path up in ``playground.npgrad``, the engine's torch.
"""

from __future__ import annotations

import argparse
import ast
import collections
import importlib
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
# method names Python's own dict, list and str have and torch's Tensor has too (``.name()`` is
# mostly a grad_fn's): a call of one is not counted as Tensor's
PYTHONS_OWN = {"name", "values", "keys", "items", "append", "extend", "update", "get", "pop",
               "join", "format", "strip", "replace", "insert", "remove"}


def snippets() -> list[Path]:
    return sorted(CORPUS.glob("[0-9][0-9]*_*.py"))


def _aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> the torch path it stands for, from the snippet's imports."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for name in node.names:
                if name.name.split(".")[0] == "torch":
                    aliases[name.asname or "torch"] = name.name if name.asname else "torch"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch":
            for name in node.names:
                aliases[name.asname or name.name] = f"{node.module}.{name.name}"
    return aliases


def _dotted(node: ast.AST) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def _mark_parents(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child.parent = node


def engine_has(api: str) -> bool:
    """Whether ``api`` (a torch path or ``Tensor.name``) resolves in the NumPy engine."""
    npgrad = importlib.import_module("playground.npgrad")
    if api.startswith("Tensor."):
        return hasattr(npgrad.Tensor, api.split(".", 1)[1])
    parts = api.split(".")[1:]
    target = npgrad
    for index, part in enumerate(parts):
        if hasattr(target, part):
            target = getattr(target, part)
            continue
        try:
            target = importlib.import_module(".".join(["playground.npgrad", *parts[:index + 1]]))
        except ImportError:
            return False
    return True


def frequencies() -> collections.Counter:
    import torch

    tensor_methods = {name for name in dir(torch.Tensor)
                      if not name.startswith("_") and name not in PYTHONS_OWN}
    counts: collections.Counter = collections.Counter()
    for path in snippets():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        _mark_parents(tree)
        counts.update(_used_in_tree(tree, tensor_methods))
    return counts


def _used_in_tree(tree: ast.Module, tensor_methods: set[str]) -> set[str]:
    """The torch paths and Tensor methods one snippet uses."""
    aliases = _aliases(tree)
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(node.parent, ast.Attribute):
            parts = _dotted(node)
            if parts and parts[0] in aliases:
                used.add(".".join([aliases[parts[0]], *parts[1:]]))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            parts = _dotted(node.func)
            if (parts is None or parts[0] not in aliases) and node.func.attr in tensor_methods:
                used.add(f"Tensor.{node.func.attr}")
    for name, target in aliases.items():
        if target != "torch" and any(isinstance(node, ast.Name) and node.id == name
                                     for node in ast.walk(tree)):
            used.add(target)
    return used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="only what the engine lacks")
    parser.add_argument("--top", type=int, default=0, help="only the N most used")
    options = parser.parse_args()
    rows = frequencies().most_common()
    print(f"{len(snippets())} snippets, {len(rows)} distinct torch names")
    shown = 0
    for api, count in rows:
        has = engine_has(api)
        if options.missing and has:
            continue
        print(f"{count:4d}  {'has ' if has else 'LACKS'}  {api}")
        shown += 1
        if options.top and shown >= options.top:
            break


if __name__ == "__main__":
    main()
