"""A derivative rule's formula texts made into functions: at a rule's first backward, not at
import (the table's ~600 texts took 26 ms of every engine's start, the kernel's and the CLI's)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from ._parallel import FORMULA_OPERATORS, fuse_tanh_grads, split_operators

# Names a formula may use besides grad, the saved values and the kit (and the operators its
# arithmetic is compiled to, which split large arrays between the cores).
FORMULA_GLOBALS = {"__builtins__": {}, "None": None, "__name__": "playground.npgrad._rules",
                   **FORMULA_OPERATORS}
# Told of each rule whose formulas were just compiled (_nodes.py: its node class reads them
# directly from then on, with no stand-in in between).
COMPILED_HOOKS: list[Callable] = []


def formula(rule, text: str, split: bool = False):
    """``f(k, grad, saved[, i])``: the saved tuple is unpacked into the rule's names; with
    ``split``, its ``+ - * /`` split large arrays between the cores."""
    parameters = "k, grad, saved, i" if rule.variadic else "k, grad, saved"
    unpack = f"    {', '.join(rule.saves)}, = saved\n" if rule.saves else ""
    source = f"def formula({parameters}):\n{unpack}    return {text}\n"
    tree = ast.parse(source)
    code = split_operators(tree) if split else fuse_tanh_grads(tree)
    namespace: dict = {}
    exec(compile(code, f"<{rule.node_name} formula>", "exec"), FORMULA_GLOBALS, namespace)
    return namespace["formula"]


class LazyFormula:
    """Stands in for formula ``index`` of ``rule`` until it is first called: then all the
    rule's formulas are compiled and take the stand-ins' place in the rule (and, through
    COMPILED_HOOKS, wherever the table was copied); one kept elsewhere passes calls on."""

    __slots__ = ("rule", "index")

    def __init__(self, rule, index: int) -> None:
        self.rule, self.index = rule, index

    def __call__(self, *arguments):
        formulas = self.rule.formulas
        if formulas and type(formulas[0]) is LazyFormula:
            formulas = compile_formulas(self.rule)
        return formulas[self.index](*arguments)


def stand_ins(rule) -> tuple:
    """The rule's formulas as stand-ins that compile them when first called."""
    return tuple(LazyFormula(rule, index) for index in range(len(rule.texts)))


def compile_formulas(rule) -> tuple:
    """Compile the rule's formulas now (the rule keeps them); tell COMPILED_HOOKS."""
    compiled = tuple(formula(rule, text) for text in rule.texts)
    object.__setattr__(rule, "formulas", compiled)
    for hook in COMPILED_HOOKS:
        hook(rule)
    return compiled
