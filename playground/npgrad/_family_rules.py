"""The derivative table's rows kept beside their op families (each family's rules module gives
a function of the table's ``_row`` and its ELEMENT_WISE mark): _rules.py adds them to its own."""

from __future__ import annotations

from ._activation_rules import activation_rows
from ._complex_rules import complex_rows
from ._more_math_rules import more_math_rows
from ._selection_rules import selection_rows


def family_rows(row, element_wise) -> tuple:
    return (activation_rows(row, element_wise) + selection_rows(row, element_wise)
            + more_math_rows(row, element_wise) + complex_rows(row, element_wise))
