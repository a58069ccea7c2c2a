"""The kernel's "Did you mean" for a misspelt attribute or name is the interpreter's own: the
same suggestion (or none) as Python 3.11's printer gives for each case, asked of a fresh
interpreter here, and on both engines' tracebacks."""

from __future__ import annotations

import subprocess
import sys

import pytest

from playground.kernel import suggestions

pytestmark = pytest.mark.skipif(not suggestions.needed(),
                                reason="Python 3.12's traceback module suggests by itself")

_SETUP = """
class Model:
    def __init__(self):
        self.weight, self.bias, self.Weights, self.learning_rate = 1, 2, 3, 4
        self.hidden_layer_number_one, self.x = 5, 6

values, Values, total_loss = [1], [2], 3
"""
_ATTRIBUTES = ["[].apend", "''.uper", "{}.itmes", "Model().wieght", "Model().weights",
               "Model().Bias", "Model().learningrate", "Model().hidden_layer_number_on",
               "Model().y", "Model().zzzzzz", "Model().WEIGHT", "(1).bit_lenght",
               "Model().hidden_layer_number_one_and_more_than_forty_characters_long"]
_NAMES = ["valeus", "vaLues", "total_los", "prnt", "lenn", "Modle", "zzzzzz", "tota"]


def _interpreters_suggestions(expressions: list[str]) -> list[str | None]:
    """Each expression evaluated in a fresh interpreter, its error printed by Python's own
    excepthook; the name after "Did you mean", if any."""
    script = _SETUP + "import sys\n" + "".join(
        f"try:\n    {expression}\nexcept Exception as error:\n"
        f"    sys.excepthook(type(error), error, error.__traceback__)\n"
        for expression in expressions)
    printed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             check=True).stderr
    lasts = [line for line in printed.splitlines() if line.startswith(("AttributeError",
                                                                        "NameError"))]
    return [line.split("Did you mean: '")[1][:-2] if "Did you mean" in line else None
            for line in lasts]


def _ours(expressions: list[str]) -> list[str | None]:
    namespace: dict = {}
    exec(_SETUP, namespace)
    found = []
    for expression in expressions:
        try:
            exec(expression, namespace)
        except Exception as error:
            found.append(suggestions.suggestion(error))
    return found


def test_attribute_and_name_suggestions_are_the_interpreters():
    expressions = _ATTRIBUTES + _NAMES
    theirs = _interpreters_suggestions(expressions)
    assert len(theirs) == len(expressions)
    assert _ours(expressions) == theirs
    assert "weight" in theirs and None in theirs  # (the cases show both outcomes)


def test_a_run_with_a_typo_shows_the_suggestion(tmp_path):
    script = tmp_path / "typo.py"
    script.write_text("import torch\nloss_value = torch.ones(1)\nprint(loss_valeu)\n")
    shown = subprocess.run([sys.executable, "-m", "playground", "run", str(script)],
                           capture_output=True, text=True).stderr
    assert shown.rstrip().endswith("NameError: name 'loss_valeu' is not defined. Did you mean: "
                                   "'loss_value'?")
