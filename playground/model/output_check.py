"""Whether a cell printed what the tutorial shows under it: ✓ the same, ≈ the same up to what
always differs (object addresses, node names of older torch, a float32's last digit, unseeded
random numbers), ≠ different, each with its reason in one line.

The tutorial's output is read from the editor's text (a markdown notebook's indented block or
plain fenced block under a code block, an ``Out[n]:`` line) or from the notebook file (an
.ipynb's stored outputs). Nothing here runs code.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from playground.model.notebook import OUT_PROMPT, cell_spans, markdown_line

SAME, CLOSE, DIFFERENT = "✓", "≈", "≠"
SHOWN_ROWS = 8  # differing lines shown side by side for a ≠
NONE_SHOWN = "the tutorial shows no output under this cell"
NEXT_CELLS = "the tutorial's block also shows the next cell's output"
RANDOM_REASON = "random numbers drawn without a seed (torch.manual_seed fixes them)"
EARLIER_RANDOM = ("an earlier cell drew random numbers without a seed, which may explain it "
                  "(torch.manual_seed fixes them)")

_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{4,}\b")
_NODE_NAME = re.compile(r"\b([A-Z][A-Za-z]*Backward)(\d*)\b")
_NUMBER = re.compile(r"(?<![\w.])-?\d+\.\d*(?:e[+-]?\d+)?|(?<![\w.])-?\d+e[+-]?\d+")
_RANDOM = re.compile(r"\b(?:rand|randn|randint|randperm|rand_like|randn_like|normal_|"
                     r"uniform_|bernoulli|multinomial|dropout|Dropout|np\.random|random\.)")
_SEEDED = re.compile(r"\b(?:manual_seed|seed)\s*\(")
# A notebook dump's prose line that is a cell's printed output, not the tutorial's words
_LOOKS_PRINTED = re.compile(r"^(?:tensor\(|Parameter|<|None$|True$|False$|\[|\(|\{|-?\d|"
                            r"torch\.|Out\[)|grad_fn=")


@dataclass(frozen=True)
class OutputCheck:
    """A cell's output against the tutorial's: the mark, why (one line each), and for a ≠
    the differing lines as (the tutorial's, printed now) pairs."""

    mark: str
    reasons: tuple[str, ...] = ()
    rows: tuple[tuple[str, str], ...] = ()

    def summary(self) -> str:
        """One line for the console and the gutter's tooltip."""
        if self.mark == SAME:
            return f"{SAME} printed what the tutorial shows"
        told = "; ".join(self.reasons)
        if self.mark == CLOSE:
            return f"{CLOSE} printed what the tutorial shows, up to: {told}"
        return f"{DIFFERENT} printed other than the tutorial shows" + (f" ({told})" if told
                                                                       else "")


def expected_outputs(text: str, dump: bool = False,
                     spans: list[tuple[int, int, str]] | None = None) -> dict[int, str]:
    """The output a tutorial shows under each code cell of the editor's percent text, by the
    cell's first line (0-based); a cell with none shown is left out. Found in the markdown
    cell that follows: an indented block (nbconvert's export, most blogs), a plain fenced
    block, or ``Out[n]:`` lines, at its start; in a notebook ``dump`` (``In [n]:`` text, whose
    printed output is not indented), the whole cell when its first line looks printed.
    ``spans`` are the text's cells where the caller has them already."""
    lines = text.split("\n")
    spans = cell_spans(text) if spans is None else spans
    found: dict[int, str] = {}
    for (first, _last, kind), following in zip(spans, spans[1:], strict=False):
        if kind != "code" or following[2] != "markdown":
            continue
        prose = [markdown_line(line) for line in lines[following[0] + 1:following[1] + 1]]
        shown = _shown_output(prose)
        if shown is None and dump:
            shown = _printed_prose(prose)
        if shown is not None:
            found[first] = shown
    return found


def _shown_output(prose: list[str]) -> str | None:
    """The output block at the start of a markdown cell's lines, if it has one."""
    start = next((i for i, line in enumerate(prose) if line.strip()), None)
    if start is None:
        return None
    head = prose[start]
    if head.strip() == "```":  # a plain fenced block (a language would make it code)
        block = []
        for line in prose[start + 1:]:
            if line.strip() == "```":
                return "\n".join(block)
            block.append(line)
        return None
    if OUT_PROMPT.match(head):
        block = [OUT_PROMPT.sub("", head)]
        block += [line for line in _indented_run(prose[start + 1:])]
        return "\n".join(block)
    if head.startswith(("    ", "\t")):
        return "\n".join(line[4:] if line.startswith("    ") else line.lstrip("\t")
                         for line in _indented_run(prose[start:]))
    return None


def _printed_prose(prose: list[str]) -> str | None:
    """A dump's printed lines: the paragraphs from the start that look printed (the
    tutorial's words follow them after a blank line)."""
    kept: list[str] = []
    for paragraph in re.split(r"\n\s*\n", "\n".join(_lines("\n".join(prose)))):
        if not _LOOKS_PRINTED.search(paragraph.split("\n")[0]):
            break
        kept.append(paragraph)
    return "\n\n".join(kept) if kept else None


def _indented_run(lines: list[str]) -> list[str]:
    """The lines up to the first one that is neither blank nor indented (blank lines inside
    a block kept, those after it dropped)."""
    block = []
    for line in lines:
        if line.strip() and not line.startswith(("    ", "\t")):
            break
        block.append(line)
    while block and not block[-1].strip():
        block.pop()
    return block


def check(expected: str, printed: str, code: str = "", next_expected: str = "",
          earlier: str = "") -> OutputCheck:
    """``printed`` against the tutorial's ``expected``. ``code``: the cell's own code (its
    random numbers drawn without a seed make other numbers ≈); ``earlier``: the cells run
    before it (random numbers drawn there are named as a likely cause of a ≠, no more: a
    wrong number printed later must not pass); ``next_expected``: what the tutorial shows
    under the next code cell (a tutorial's block may hold that one's output too)."""
    wanted, got = _lines(_unprompted(expected)), _lines(_unprompted(printed))
    if wanted == got:
        return OutputCheck(SAME)
    if not wanted:
        return OutputCheck(DIFFERENT, (NONE_SHOWN,), _rows(wanted, got))
    reasons: list[str] = []
    following = _lines(_unprompted(next_expected))
    if following and len(wanted) > len(following) and wanted[-len(following):] == following:
        wanted = wanted[:-len(following)]  # then a ≠ at best: the tutorial's block is wrong
        reasons.append(NEXT_CELLS)
    for step in (_addresses, _node_names, _spacing, _last_digits, _random_numbers):
        wanted, got, reason = step(wanted, got, code)
        if reason:
            reasons.append(reason)
        if wanted == got:
            break
    mark = CLOSE if wanted == got and NEXT_CELLS not in reasons else DIFFERENT
    if mark == DIFFERENT and wanted != got and RANDOM_REASON not in reasons:
        if _unseeded(code):  # the likely cause: a loop that ran other times...
            reasons.append(RANDOM_REASON)
        elif _unseeded(earlier + "\n" + code):
            reasons.append(EARLIER_RANDOM)
    rows = _rows(_lines(_unprompted(expected)), _lines(_unprompted(printed))) \
        if mark == DIFFERENT else ()
    return OutputCheck(mark, tuple(reasons), rows)


def _unprompted(text: str) -> str:
    """Without ``Out[n]:`` prompts: a notebook's export shows a cell's value without one."""
    return "\n".join(OUT_PROMPT.sub("", line) for line in text.split("\n"))


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def _addresses(wanted: list[str], got: list[str], _code: str):
    before = (wanted, got)
    wanted = [_ADDRESS.sub("0x…", line) for line in wanted]
    got = [_ADDRESS.sub("0x…", line) for line in got]
    changed = _ADDRESS.findall("\n".join(before[0])) != _ADDRESS.findall("\n".join(before[1]))
    return wanted, got, "object addresses (they change on every run)" if changed else ""


def _node_names(wanted: list[str], got: list[str], _code: str):
    """Node names of older torch (``AddBackward``, ``MeanBackward1``): today's name named."""
    theirs = _NODE_NAME.findall("\n".join(wanted))
    ours = _NODE_NAME.findall("\n".join(got))
    renamed = []
    if len(theirs) == len(ours):
        for (base, number), (our_base, our_number) in zip(theirs, ours, strict=True):
            if base == our_base and number != our_number and \
                    f"{base}{number}" not in [pair[0] for pair in renamed]:
                renamed.append((f"{base}{number}", f"{our_base}{our_number}"))
    if not renamed:
        return wanted, got, ""
    names = dict(renamed)

    def today(match: re.Match) -> str:
        return names.get(match.group(0), match.group(0))

    wanted = [_NODE_NAME.sub(today, line) for line in wanted]
    said = ", ".join(f"{old} is {new}" for old, new in renamed)
    return wanted, got, f"node names of an older torch ({said} in today's)"


def _spacing(wanted: list[str], got: list[str], _code: str):
    """Spaces and line breaks (IPython's pretty printer breaks a long value over lines, a
    notebook's export adds blank lines between outputs)."""
    squeeze, ours = _squeezed(wanted), _squeezed(got)
    if squeeze == ours:
        return ours, ours, "spacing and line breaks"
    return wanted, got, ""


def _squeezed(lines: list[str]) -> list[str]:
    """All on one line without its spaces: torch pads a tensor's numbers to line them up
    (``[ 0.9773,  1.1569]`` where another draw prints ``[-1.1258, -1.1524]``)."""
    return ["".join("\n".join(lines).split())]


def _last_digits(wanted: list[str], got: list[str], _code: str):
    """Numbers that differ in their last printed digit only (float32 rounding, which
    depends on the CPU and the order of sums)."""
    text, ours = "\n".join(wanted), "\n".join(got)
    theirs_numbers, our_numbers = _NUMBER.findall(text), _NUMBER.findall(ours)
    if _NUMBER.sub("#", text) != _NUMBER.sub("#", ours) or \
            len(theirs_numbers) != len(our_numbers):
        return wanted, got, ""
    if not all(a == b or _one_last_digit_apart(a, b)
               for a, b in zip(theirs_numbers, our_numbers, strict=True)):
        return wanted, got, ""
    return got, got, "the last printed digit of some numbers (float32 rounding)"


def _one_last_digit_apart(a: str, b: str) -> bool:
    mantissa_a, _, exponent_a = a.partition("e")
    mantissa_b, _, exponent_b = b.partition("e")
    if exponent_a != exponent_b or len(mantissa_a) != len(mantissa_b) or \
            mantissa_a[:-1].lstrip("-") == "" or "." not in mantissa_a:
        return False
    decimals = len(mantissa_a.partition(".")[2])
    try:
        gap = abs(float(mantissa_a) - float(mantissa_b))
    except ValueError:
        return False
    return gap <= 1.5 * 10.0 ** -decimals if decimals else False


def _random_numbers(wanted: list[str], got: list[str], code: str):
    """Numbers drawn at random without a seed: other ones on every run."""
    if not _unseeded(code):
        return wanted, got, ""
    theirs, ours = _squeezed(_numberless(wanted)), _squeezed(_numberless(got))
    if theirs != ours:
        return wanted, got, ""
    return ours, ours, RANDOM_REASON


def _unseeded(code: str) -> bool:
    return bool(_RANDOM.search(code)) and not _SEEDED.search(code)


def _numberless(lines: list[str]) -> list[str]:
    return [_NUMBER.sub("#", line) for line in lines]


def _rows(wanted: list[str], got: list[str]) -> tuple[tuple[str, str], ...]:
    """The differing lines, paired as a side-by-side diff pairs them."""
    rows: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(a=wanted, b=got, autojunk=False)
    for tag, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        if tag == "equal":
            continue
        theirs, ours = wanted[a_start:a_end], got[b_start:b_end]
        for index in range(max(len(theirs), len(ours))):
            rows.append((theirs[index] if index < len(theirs) else "",
                         ours[index] if index < len(ours) else ""))
    return tuple(rows[:SHOWN_ROWS])
