"""A cell's printed output against the tutorial's: which blocks are the tutorial's output, and
✓ / ≈ / ≠ with the reason named."""

from __future__ import annotations

from playground.model.notebook import from_dump, from_markdown, to_percent
from playground.model.output_check import (
    CLOSE,
    DIFFERENT,
    EARLIER_RANDOM,
    NEXT_CELLS,
    NONE_SHOWN,
    RANDOM_REASON,
    SAME,
    check,
    expected_outputs,
)

LESSON = """---
title: a lesson
---
Make a leaf.
```python
import torch
x = torch.ones(2, requires_grad=True)
print(x)
```

    tensor([1., 1.], requires_grad=True)

Its function:
```python
y = (x * 3).mean()
print(y.grad_fn)
```
```
<MeanBackward1 object at 0x7f3a2c0d1e80>
```
No output here:
```python
z = y * 2
```
Prose that is not indented.
"""


def _percent(text: str, reader=from_markdown) -> str:
    return to_percent(reader(text))


def test_indented_and_plain_fenced_blocks_under_a_code_block_are_its_output():
    text = _percent(LESSON)
    found = expected_outputs(text)
    lines = text.split("\n")
    assert [lines[line] for line in found] == ["# %%", "# %%"]
    assert list(found.values()) == ["tensor([1., 1.], requires_grad=True)",
                                    "<MeanBackward1 object at 0x7f3a2c0d1e80>"]


def test_a_dumps_unindented_printed_lines_stop_at_the_tutorials_words():
    dump = ("In [1]:\nimport torch\nprint(torch.ones(2))\n\ntensor([1., 1.])\n\n\n"
            "# Gradients\n\nIn [2]:\nprint(torch.ones(1))\n\ntensor([1.])\n\n\n"
            "**So backward() is backward(torch.tensor(1.)).**\n\n"
            "In [3]:\nprint('a sentence')\n\nIt printed a sentence.\n")
    found = expected_outputs(_percent(dump, from_dump), dump=True)
    # the tutorial's words are not output, even with a tensor( in them
    assert list(found.values()) == ["tensor([1., 1.])", "tensor([1.])"]


def test_the_same_output_is_a_tick():
    assert check("tensor([1., 1.])\n", "tensor([1., 1.])").mark == SAME
    assert check("", "").mark == SAME


def test_addresses_and_older_node_names_are_close_with_their_reasons():
    found = check("<AddBackward object at 0x11416ebe0>\ntensor(27., grad_fn=<MeanBackward1>)",
                  "<AddBackward0 object at 0x7f00aa11bb22>\ntensor(27., grad_fn=<MeanBackward0>)")
    assert found.mark == CLOSE
    assert found.reasons == ("object addresses (they change on every run)",
                             "node names of an older torch (AddBackward is AddBackward0, "
                             "MeanBackward1 is MeanBackward0 in today's)")
    assert not found.rows


def test_another_node_is_not_a_rename():
    found = check("tensor(3., grad_fn=<AddBackward0>)", "tensor(3., grad_fn=<MulBackward0>)")
    assert found.mark == DIFFERENT and found.rows == (
        ("tensor(3., grad_fn=<AddBackward0>)", "tensor(3., grad_fn=<MulBackward0>)"),)


def test_line_breaks_of_a_pretty_printed_value_and_out_prompts_are_close():
    found = check("[tensor([2.], requires_grad=True),\n tensor([5.], requires_grad=True)]",
                  "Out[3]: [tensor([2.], requires_grad=True), tensor([5.], requires_grad=True)]")
    assert found.mark == CLOSE and found.reasons == ("spacing and line breaks",)
    assert check("tensor(3.)", "Out[7]: tensor(3.)").mark == SAME


def test_a_last_digit_apart_is_close_two_apart_is_not():
    assert check("tensor([0.1235, 2.0000])", "tensor([0.1234, 2.0000])").mark == CLOSE
    assert check("tensor([0.1236, 2.0000])", "tensor([0.1234, 2.0000])").mark == DIFFERENT


def test_unseeded_random_numbers_are_close_and_name_the_cause_of_a_difference():
    code = "x = torch.randn(3)\nprint(x)"
    assert check("tensor([-1.0617,  1.1143,  0.9000])", "tensor([0.0176, 0.2559, 1.5849])",
                 code).reasons == (RANDOM_REASON,)
    seeded = "torch.manual_seed(0)\n" + code
    assert check("tensor([-1.0617,  1.1143,  0.9000])", "tensor([0.0176, 0.2559, 1.5849])",
                 seeded).mark == DIFFERENT
    longer = check("tensor([1.])\ntensor([2.])", "tensor([3.])", code)  # a loop ran less
    assert longer.mark == DIFFERENT and longer.reasons == (RANDOM_REASON,)


def test_a_block_that_also_holds_the_next_cells_output_is_explained():
    found = check("tensor(3.)\nTrue\nFalse", "tensor(3.)", next_expected="True\nFalse")
    assert found.mark == DIFFERENT and found.reasons == (NEXT_CELLS,)


def test_printed_where_the_tutorial_shows_nothing():
    found = check("", "hello")
    assert found.mark == DIFFERENT and found.reasons == (NONE_SHOWN,)
    assert found.rows == (("", "hello"),)
    assert found.summary() == f"≠ printed other than the tutorial shows ({NONE_SHOWN})"


def test_random_numbers_drawn_in_an_earlier_cell_explain_a_difference_but_never_pass_it():
    earlier = "x = torch.randn(3, requires_grad=True)\n(x * 2).sum().backward()"
    found = check("tensor(13.)", "tensor(12.)", "print(x.grad.sum())", earlier=earlier)
    assert found.mark == DIFFERENT and found.reasons == (EARLIER_RANDOM,)


def test_the_padding_of_another_draw_is_no_difference():
    padded = check("tensor([[-1.1258, -1.1524],\n        [-0.2506, -0.4339]])",
                   "tensor([[ 0.9773,  1.1569],\n        [-0.3807,  1.2525]])",
                   "print(torch.randn(2, 2))")
    assert padded.mark == CLOSE and padded.reasons == (RANDOM_REASON,)


def test_an_ipython_terminal_transcripts_output_is_read_as_output():
    transcript = ("In [1]: import torch\n\nIn [2]: a = torch.tensor(2.0, requires_grad=True)\n\n"
                  "In [3]: for i in range(2):\n   ...:     print(i)\n   ...:\n0\n1\n\n"
                  "In [4]: print(a * 10)\ntensor(20., grad_fn=<MulBackward0>)\n")
    book = from_dump(transcript)
    assert [cell.source for cell in book.cells if cell.kind == "code"] == [
        "import torch", "a = torch.tensor(2.0, requires_grad=True)",
        "for i in range(2):\n    print(i)", "print(a * 10)"]
    assert list(expected_outputs(to_percent(book), dump=True).values()) == [
        "0\n1", "tensor(20., grad_fn=<MulBackward0>)"]
