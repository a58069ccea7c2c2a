"""``torch.compile``: code that compiles its model or function for speed runs it as written
here (the values are the same; the graph shows the model's own ops where torch's shows one
CompiledFunctionBackward). A module comes back wrapped as torch wraps it (``_orig_mod``)."""

from __future__ import annotations

import functools


def compile(model=None, *, fullgraph: bool = False, dynamic=None, backend="inductor",
            mode=None, options=None, disable: bool = False):
    """``model`` (a Module or a function) ready to call; used bare as a decorator too."""
    if model is None:
        return functools.partial(compile, fullgraph=fullgraph, dynamic=dynamic,
                                 backend=backend, mode=mode, options=options, disable=disable)
    from .nn.modules import Module

    if isinstance(model, Module):
        return _optimized_module_class()(model)

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return model(*args, **kwargs)

    return compiled


def compile_module(module, *args, **kwargs) -> None:
    """``module.compile(...)``: torch compiles the module's calls in place; they run as
    written here."""


@functools.cache
def _optimized_module_class():
    from .nn.modules import Module

    class OptimizedModule(Module):
        """The module torch.compile returns: the original as ``_orig_mod``, its attributes
        read through."""
        __module__ = "torch._dynamo.eval_frame"

        def __init__(self, mod) -> None:
            super().__init__()
            self._orig_mod = mod

        def forward(self, *args, **kwargs):
            return self._orig_mod(*args, **kwargs)

        def __getattr__(self, name: str):
            try:
                return super().__getattr__(name)
            except AttributeError:
                return getattr(self._modules["_orig_mod"], name)

    return OptimizedModule
