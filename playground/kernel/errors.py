"""How a run that did not end normally is told: a RunError with one sentence and a traceback."""

from __future__ import annotations

import signal
import traceback
from pathlib import Path

import numpy as np

from playground.kernel import suggestions
from playground.kernel.channel import PIPES_CLOSED_STATUS
from playground.model import RunError

MESSAGE_LIMIT = 500        # characters of an exception's text in the one-sentence message
TRACEBACK_LIMIT = 64 * 1024
# Frames in these folders are the kernel's or the engine's, never shown to the user.
_OWN_CODE = str(Path(__file__).resolve().parents[1])
_NUMPY = str(Path(np.__file__).resolve().parent)


def describe_exception(error: BaseException, filename: str, memory_limit: int = 0) -> RunError:
    """The run's error, with a traceback like Python's own that shows the user's frames."""
    if isinstance(error, SyntaxError):
        text = "".join(traceback.format_exception_only(type(error), error))
        where = f" (line {error.lineno})" if error.lineno else ""
        return RunError("syntax", f"{type(error).__name__}: {error.msg}{where}.",
                        type(error).__name__, text, error.lineno)
    frames = traceback.extract_tb(error.__traceback__)
    # A 5 MB exception message still makes one sentence and a readable traceback.
    error_text = str(error)
    if len(error_text) > MESSAGE_LIMIT:
        error_text = error_text[:MESSAGE_LIMIT] + f"… ({len(error_text):,} characters)"
    user_lines = [frame.lineno for frame in frames if frame.filename == filename]
    shown = traceback.TracebackException(type(error), error, error.__traceback__)
    shown.stack = traceback.StackSummary.from_list(_users_frames(shown.stack, filename))
    if suggestions.needed() and not _said_already(shown._str):
        # (3.11's interpreter says it; its traceback module does not)
        nearest = suggestions.suggestion(error)
        if nearest is not None:
            shown._str += f". Did you mean: '{nearest}'?"
    # torch's allocator says it with a RuntimeError of its own (its text is kept, as torch's)
    out_of_memory = isinstance(error, MemoryError) or "can't allocate memory" in error_text
    kind = "memory" if out_of_memory else "exception"
    if isinstance(error, MemoryError):  # NumPy's _ArrayMemoryError is a detail: say what happened
        shown.exc_type = MemoryError
    text = _shorten("".join(shown.format()))
    line = user_lines[-1] if user_lines else None
    where = f" (line {line})" if line else ""
    if kind == "memory" and not error_text and memory_limit:
        error_text = (f"the code asked for more memory than the kernel's limit of "
                      f"{memory_limit / (1 << 30):.1f} GB")
    summary = f"{type(error).__name__}: {error_text}" if error_text else type(error).__name__
    return RunError(kind, f"{summary}{where}.", type(error).__name__, text, line)


def _said_already(text: str) -> bool:
    """Whether an engine's explanation already says what to do: a suggestion of its own, or
    the way out to the torch engine (a name torch has, however near one the engine has)."""
    return "Did you mean" in text or "switch the engine to torch" in text


def exit_error(code) -> RunError:
    """The script called sys.exit(code): the exit status Python would end with."""
    status = code if isinstance(code, int) else (0 if code is None else 1)
    return RunError("exit", f"The script called sys.exit({code!r}).", "SystemExit",
                    exit_code=status)


# Why a run's kernel was restarted, by what ended the wait for its reply: (kind, message).
RESTARTED = {
    "broken": ("crash", "The kernel sent a reply that could not be read, so it was restarted "
               "(did the script write to the kernel's control pipe?)."),
    "timeout": ("timeout", "The run took longer than the time limit and did not stop when "
                "interrupted, so the kernel was restarted."),
    "interrupt": ("interrupted", "The code did not stop within 2 seconds of the interrupt, "
                  "so the kernel was restarted."),
}
# What the console says when a run's figures end with their kernel.
DRAWING_ENDED = "(the kernel ended while it drew the figures: none is shown)\n"
STOP_IGNORED = ("(the figures did not stop drawing within 2 seconds of Stop, so the kernel "
                "was ended: the next run starts a new one)\n")


def restarted_error(reason: str) -> RunError:
    """The run's kernel was restarted for ``reason`` (a key of RESTARTED)."""
    kind, message = RESTARTED[reason]
    return RunError(kind, message)


def interrupted_error() -> RunError:
    """The app's Stop ended the run."""
    return RunError("interrupted", "The run was interrupted.", "KeyboardInterrupt")


def unshowable_error(failure: Exception) -> RunError:
    """The user's code finished, but the kernel could not send what it made."""
    return RunError("exception", f"The run finished, but its tensors could not be shown: "
                    f"{type(failure).__name__}: {str(failure)[:MESSAGE_LIMIT]}.",
                    type(failure).__name__)


def quote_the_code(error: SyntaxError, code: str) -> None:
    """A SyntaxError quotes the line of the code that ran (the editor's text, a notebook's
    cell), not the line Python re-reads from a file of the same name on disk."""
    lines = code.splitlines()
    if error.lineno is None and "\0" in code:  # Python names no line for a null byte
        error.lineno = code.count("\n", 0, code.index("\0")) + 1
    if error.lineno and 0 < error.lineno <= len(lines):
        error.text = lines[error.lineno - 1] + "\n"
        error.end_lineno = error.end_lineno if error.end_lineno == error.lineno else None


def _users_frames(stack, filename: str) -> list:
    """The frames a user wants to see, as python would show them: not the kernel's or the
    engine's, nor NumPy's under npgrad; torch's own frames under the torch engine's recording
    are torch's (python shows them), and a user's function the engine called back is shown."""
    shown, inside_engine = [], False
    for frame in stack:
        if frame.filename.startswith(_OWN_CODE):
            inside_engine = True
        elif frame.filename == filename:
            inside_engine = False
            shown.append(frame)
        elif not (inside_engine and frame.filename.startswith(_NUMPY)):
            shown.append(frame)
    return shown


def _shorten(text: str) -> str:
    """A traceback of at most TRACEBACK_LIMIT characters whose last line is still the error's."""
    if len(text) <= TRACEBACK_LIMIT:
        return text
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if len(line) > MESSAGE_LIMIT:  # a huge message (or value) on one line
            lines[index] = f"{line[:MESSAGE_LIMIT]}… ({len(line):,} characters)\n"
    text = "".join(lines)
    if len(text) <= TRACEBACK_LIMIT:
        return text
    half = TRACEBACK_LIMIT // 2
    return f"{text[:half]}\n[… traceback shortened …]\n{text[-half:]}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def ended_error(code: int, ending: str, memory_limit: int) -> RunError:
    """Why the kernel process ended during a run (its exit status ``code``; ``ending``: what
    it said as it ended itself), in one sentence."""
    if ending == "memory":
        return RunError("memory", "The run used more memory than the kernel's limit of "
                        f"{memory_limit / (1 << 30):.1f} GB and did not stop when "
                        "asked, so the kernel was ended; it restarts for the next run.",
                        exit_code=code)
    if code < 0:
        name = _signal_name(-code)
        what = {"SIGSEGV": "crashed with a segmentation fault",
                "SIGKILL": "was killed (out of memory, or by another program)",
                "SIGABRT": "aborted"}.get(name, f"died of {name}")
        return RunError("crash", f"The kernel process {what}; it restarts for the next run.",
                        exit_code=code)
    if code == PIPES_CLOSED_STATUS:
        return RunError("crash", "The script closed the kernel's own pipes (its file "
                        "descriptors), so the kernel ended; it restarts for the next run.",
                        exit_code=code)
    return RunError("exit", f"The script ended the kernel process with exit code {code}; "
                    "it restarts for the next run.", exit_code=code)
