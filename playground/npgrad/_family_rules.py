"""The derivative table's rows kept beside their op families (each family's rules module gives
a function of the table's ``_row`` and its ELEMENT_WISE mark): _rules.py adds them to its own."""

from __future__ import annotations

from dataclasses import replace

from ._activation_rules import activation_rows
from ._complex_rules import complex_rows
from ._more_math_rules import more_math_rows
from ._selection_rules import selection_rows
from ._sparse_rules import sparse_rows


def family_rows(row, element_wise) -> tuple:
    return (activation_rows(row, element_wise) + selection_rows(row, element_wise)
            + more_math_rows(row, element_wise) + complex_rows(row, element_wise)
            + sparse_rows(row)
            # forward AD's unpack_dual: the primal, torch's Identity (a CppFunction by type)
            + (row("unpack_dual", "CppFunction", "self", "", "grad"),))


# In-place names that _everyday_ops.py binds for rows of the table itself (each records its
# row's node, as torch's floor_ records FloorBackward0)
_MORE_INPLACE = {"floor": "floor_", "ceil": "ceil_", "trunc": "trunc_ fix_", "round": "round_",
                 "frac": "frac_", "clamp": "clip_", "scatter": "scatter_",
                 "scatter_value": "scatter_", "scatter_add": "scatter_add_",
                 "scatter_reduce": "scatter_reduce_", "index_reduce": "index_reduce_",
                 "index_fill": "index_fill_", "index_copy": "index_copy_",
                 "index_put": "index_put_", "sub": "subtract_", "mul": "multiply_",
                 "div": "divide_ true_divide_"}


def with_more_inplace(rule):
    """The row with the in-place names the families bind for it."""
    names = _MORE_INPLACE.get(rule.op)
    return replace(rule, inplace=rule.inplace + tuple(names.split())) if names else rule
