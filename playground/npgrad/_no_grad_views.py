"""Views made under no_grad of a tensor that requires grad, as torch treats them (its
CreationMeta NO_GRAD_MODE): they require grad but lead nowhere, and writing to them, or
reading the history of one whose base was written since, is refused."""

from __future__ import annotations

MADE_UNDER_NO_GRAD = 1   # the view itself was made under no_grad
OF_A_NO_GRAD_VIEW = 2    # made with grad mode on, of such a view

_ADVICE = (" with grad mode enabled. Given that this use case is ambiguous and error-prone, it "
           "is forbidden. You can clarify your code by moving both the view and the inplace "
           "either both inside the no_grad block (if you don't want the inplace to be tracked) "
           "or both outside (if you want the inplace to be tracked).")


def mark(view, base, grad_enabled: bool) -> None:
    """Note how ``view`` of ``base`` (the tensor it was taken from) was made."""
    if not grad_enabled:
        view._made = MADE_UNDER_NO_GRAD
        view._rg = base._rg  # (torch: it requires grad where what it views does)
    elif base._made:
        view._made = OF_A_NO_GRAD_VIEW


def refused(view, written_itself: bool) -> RuntimeError:
    """torch's error for writing to such a view (``written_itself``), or for reading the
    history of one whose base was written since."""
    if view._made == MADE_UNDER_NO_GRAD:
        subject = "A view was created in no_grad mode"
    else:
        kind = view._fn.name().removesuffix("Backward0") if view._fn is not None else "View"
        subject = f"Output 0 of {kind} is a view of a view which was created in no_grad mode"
    what = "is being modified inplace" if written_itself else \
        "its base or another view of its base has been modified inplace"
    return RuntimeError(f"{subject} and {what}{_ADVICE}")
