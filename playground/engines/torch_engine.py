"""The torch engine: real torch (imported only here, lazily), on CUDA when asked or available."""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import json
import sys
import threading
import urllib.parse
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path

from playground.engines.base import Attributes, Engine, EngineError
from playground.engines.graph_builder import EngineView
from playground.engines.module_calls import ModuleHooks
from playground.engines.trace_recorder import LiveStep, LiveTrace, TraceRecorder

DEVICES = ("auto", "cpu", "cuda")


def install_hint(origin: str | None = None) -> str:
    """How to add torch, in the way this copy of the app was installed: an editable checkout
    gets its folder's ``[torch]`` extra, a package from an index its extra, else plain torch.

    ``origin``: PEP 610's ``direct_url.json`` text, "" when pip installed from an index (it
    writes none then), None to look this installation up.
    """
    origin = _installed_from() if origin is None else origin
    command = "python -m pip install torch"  # not installed by pip, or from a wheel file
    if origin == "":
        command = 'python -m pip install "autograd-playground[torch]"'
    elif origin != "unknown":
        try:
            record = json.loads(origin)
        except ValueError:
            record = {}
        url = record.get("url", "") if isinstance(record, dict) else ""
        editable = isinstance(record, dict) and isinstance(record.get("dir_info"), dict) \
            and record["dir_info"].get("editable")
        if editable and url.startswith("file://"):
            folder = urllib.parse.unquote(urllib.parse.urlparse(url).path)
            command = f'python -m pip install -e "{folder}[torch]"'
    return (f"The torch engine needs PyTorch, which is not installed: run `{command}` in the "
            "environment the app runs in, or use the NumPy engine.")


def _installed_from() -> str:
    """PEP 610's record of where pip installed the app from; "" for an index, "unknown"
    when the app runs from a folder pip never installed."""
    # a checkout's own *.egg-info may come first on sys.path: the installed record wins
    found = list(importlib.metadata.distributions(name="autograd-playground"))
    if not found:
        return "unknown"
    records = [d.read_text("direct_url.json") for d in found]
    return next((record for record in records if record), "")


def import_torch():
    """torch, or one clear sentence when it is missing or broken."""
    try:
        return importlib.import_module("torch")
    except ImportError as error:
        raise EngineError(install_hint()) from error


class TorchEngine(Engine):
    """Tutorial code on real torch; with CUDA, tensors made without a device land on the GPU."""

    name = "torch"

    def __init__(self, device: str = "auto") -> None:
        if device not in DEVICES:
            raise EngineError(f"Unknown device '{device}': choose one of {', '.join(DEVICES)}.")
        self.torch = import_torch()
        self.requested = device
        self.device = self._resolve(device)

    def _resolve(self, device: str) -> str:
        cuda_available = self.cuda_available = bool(self.torch.cuda.is_available())
        if device == "cuda" and not cuda_available:
            raise EngineError(
                "CUDA was asked for, but torch finds no CUDA device on this machine "
                f"(torch {self.torch.__version__}); choose the CPU or 'auto'."
            )
        if device == "auto":
            return "cuda" if cuda_available else "cpu"
        return device

    def torch_module(self):
        return self.torch

    def describe(self) -> str:
        version = self.torch.__version__
        if self.device == "cuda":
            index = self.torch.cuda.current_device()
            return f"torch {version} · cuda:{index} · {self.torch.cuda.get_device_name(index)}"
        found = " (no CUDA found)" if self.requested == "auto" else ""
        return f"torch {version} · CPU{found}"

    def warm_up(self) -> None:
        """torch._dynamo, which torch imports at a script's first optimizer (0.9 s) and which
        wraps ``torch.manual_seed`` and sets TORCHINDUCTOR_CACHE_DIR as it loads: imported
        before a kernel reads its state, those are the state a fresh run starts from, and a
        script with an optimizer no longer reads as one that changed its process (every fresh
        run after it went to a new one, which imported it again)."""
        importlib.import_module("torch._dynamo")

    def reading(self):
        return self.torch._C.DisableTorchFunctionSubclass()

    @contextlib.contextmanager
    def activate(self) -> Iterator[None]:
        """On CUDA, make it the default device so tutorial code lands on the GPU unchanged."""
        if self.device == "cpu":
            yield
            return
        previous = self.torch.get_default_device()
        self.torch.set_default_device(self.device)
        try:
            yield
        finally:
            self.torch.set_default_device(previous)

    def process_state(self) -> tuple:
        torch = self.torch
        # the modules and classes scripts patch; scanning all 700 of torch's would cost every run
        patched = [torch, torch.nn, torch.nn.functional, torch.optim, torch.autograd,
                   torch.Tensor, torch.nn.Module, torch.nn.Parameter]
        return (torch.get_default_dtype(), torch.is_grad_enabled(),
                torch.is_inference_mode_enabled(), torch.get_num_threads(),
                torch.are_deterministic_algorithms_enabled(), torch.is_anomaly_enabled(),
                torch.get_float32_matmul_precision(), str(torch.get_default_device()),
                tuple(sorted(vars(torch._tensor_str.PRINT_OPTS).items())),
                Attributes(patched))

    def view(self) -> EngineView:
        torch = self.torch
        return EngineView(lambda value: isinstance(value, torch.Tensor), _reader(torch))

    def module_hooks(self) -> ModuleHooks | None:
        mark = getattr(self.torch._C._autograd, "_get_sequence_nr", None)
        module = self.torch.nn.Module
        method = "_call_impl" if "_call_impl" in vars(module) else "__call__"
        if mark is None or method not in vars(module):
            return None  # an older torch: its graphs are drawn without modules
        compiler = getattr(self.torch, "compiler", None)
        # dynamo's own test is a plain ``return False`` that its tracer reads as True: a
        # third of is_compiling's time, and the marks ask it at every statement
        compiling = getattr(compiler, "is_dynamo_compiling", None) or \
            getattr(compiler, "is_compiling", None)
        return ModuleHooks(module, mark, compiling, method)

    @contextlib.contextmanager
    def record(self, recorder: TraceRecorder) -> Iterator[None]:
        """Wrap torch.autograd.backward/grad (Tensor.backward calls the former) with hooks."""
        autograd = self.torch.autograd
        original_backward, original_grad = autograd.backward, autograd.grad
        # The default-device mode (CUDA) dispatches autograd.grad through torch_function,
        # which calls the public function again: record only the outermost call.
        depth = [0]

        main = threading.main_thread().ident
        thread = threading.get_ident
        torchs = str(Path(self.torch.__file__).parent)

        def recorded(kind: str, original, tensors, args, kwargs):
            depth[0] += 1
            try:
                with _hooked(recorder, kind, tensors, self.torch):
                    return original(*args, **kwargs)
            finally:
                depth[0] -= 1

        # Every call of a loop passes here, most not recorded: those are sent on at once.
        # Calls from threads the script started are not recorded: hooks on nodes they share
        # (a leaf's AccumulateGrad) broke their backward and lost gradients.
        def wrapped(kind: str, original, first: str):
            """``original`` that records the calls the recorder takes; its first argument
            (the roots) by position or by its name, ``first``."""
            def call(*args, **kwargs):
                with _warnings_at_the_callers_line(torchs):
                    if depth[0] or thread() != main or recorder.declines():
                        return original(*args, **kwargs)  # torch's, no hooks
                    tensors = args[0] if args else kwargs.get(first, ())
                    return recorded(kind, original, tensors, args, kwargs)

            return call

        backward = wrapped("backward", original_backward, "tensors")
        grad = wrapped("grad", original_grad, "outputs")
        autograd.backward, autograd.grad = backward, grad
        stacks = sys.modules.get("torch.fx.traceback")
        original_stack = getattr(stacks, "format_stack", None)
        if original_stack is not None:
            # anomaly mode keeps each node's forward stack from this function: without the
            # kernel's frames, as python would show it
            stacks.format_stack = lambda: [entry for entry in original_stack()
                                           if not _kernel_frame(entry)]
        try:
            yield
        finally:
            autograd.backward, autograd.grad = original_backward, original_grad
            if original_stack is not None:
                stacks.format_stack = original_stack


_APP = str(Path(__file__).resolve().parents[1])


@contextlib.contextmanager
def _warnings_at_the_callers_line(torchs: str) -> Iterator[None]:
    """torch places a warning raised inside backward (a full backward hook's...) at the line
    that called it by counting frames, and the wrapper above adds its own: a warning placed
    in this module is shown at the first line outside torch (its folder, ``torchs``) and
    this module instead."""
    shown = warnings.showwarning

    def at_the_callers_line(message, category, filename, lineno, file=None, line=None):
        if filename == __file__:
            frame = sys._getframe(1)  # (out past the warning's own frames to the wrapper's,
            while frame is not None and frame.f_code.co_filename != __file__:  # then past
                frame = frame.f_back                                           # it and torch)
            while frame is not None and (frame.f_code.co_filename == __file__ or
                                         frame.f_code.co_filename.startswith(torchs)):
                frame = frame.f_back
            if frame is not None:
                filename, lineno, line = frame.f_code.co_filename, frame.f_lineno, None
        shown(message, category, filename, lineno, file, line)

    warnings.showwarning = at_the_callers_line
    try:
        yield
    finally:
        if warnings.showwarning is at_the_callers_line:
            warnings.showwarning = shown


def _kernel_frame(entry: str) -> bool:
    """A formatted stack entry of the app's own code, or of python's runpy."""
    return entry.startswith(('  File "<frozen ', f'  File "{_APP}'))


def _reader(torch) -> Callable:
    """A tensor's values as NumPy reads them: sparse made dense, bfloat16 and other dtypes
    NumPy lacks widened to float32, a conjugate view resolved (meta tensors have none)."""
    def to_numpy(tensor):
        if tensor.requires_grad:  # a gradient needs none: read as it is (a recorded call
            tensor = tensor.detach()  # of a loop reads forty, and a detach costs a copy's time)
        try:  # the usual tensor, on the CPU in a dtype NumPy has: no checks
            return tensor.numpy()
        except (TypeError, RuntimeError, NotImplementedError):
            pass  # one of the others: numpy() refuses them all
        if tensor.is_meta:
            raise ValueError("a meta tensor has no values")
        if tensor.layout != torch.strided:
            tensor = tensor.to_dense()
        if tensor.dtype == torch.bfloat16 or "float8" in str(tensor.dtype):
            tensor = tensor.float()
        return tensor.cpu().resolve_conj().resolve_neg().numpy()

    return to_numpy


def _roots(tensors, torch) -> list:
    tensors = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
    return [t.grad_fn for t in tensors if t.grad_fn is not None]


def _reachable(roots: list) -> list:
    seen: dict[int, object] = {}
    stack = list(roots)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        for next_node, _ in node.next_functions:
            if next_node is not None:
                stack.append(next_node)
    return list(seen.values())


@contextlib.contextmanager
def _hooked(recorder: TraceRecorder, kind: str, tensors, torch) -> Iterator[None]:
    """Hooks on the graph's nodes (on a leaf, the leaf's own: ``_leaf_hooks``) for the
    duration of one call, removed after."""
    roots = _roots(tensors, torch)
    trace = recorder.start(kind, roots)
    removals: list[Callable[[], None]] = []
    endings: list[Callable[[], None]] = []  # what is read once the call has ended well
    for node in _reachable(roots):
        before, after = _hooks(recorder, trace, node)
        variable = getattr(node, "variable", None)
        if variable is not None and kind == "backward" and \
                hasattr(variable, "register_post_accumulate_grad_hook"):
            _leaf_hooks(variable, before, after, removals, endings)
        else:
            removals.append(node.register_prehook(before).remove)
            removals.append(node.register_hook(after).remove)
    error = None
    try:
        yield
    except BaseException as raised:
        error = raised
        raise
    finally:
        if error is None:
            for ending in endings:
                ending()
        for remove in removals:
            remove()
        recorder.finish(trace, error)


OURS = -1  # our hook's key in a leaf's table (torch's handles count up from 0)


def _leaf_hooks(variable, before: Callable, after: Callable, removals: list,
                endings: list) -> None:
    """A leaf's step heard through the leaf's own hook, which runs where its AccumulateGrad's
    would, and its .grad after the call (``endings``); what removes it (``removals``). A node
    keeps a hook it was once given (an empty one when removed) as long as the node lives,
    and a leaf's AccumulateGrad lives through a whole loop: its empty hooks cost each later
    step 5,000 instructions a leaf (callgrind). A leaf's hooks set to None are gone, but for
    a post-accumulate hook, which torch keeps (1,000 instructions a leaf a step): the .grad
    a leaf's accumulation left is read as the call ends, unless the user's own such hooks
    may change it (an optimizer stepping inside backward), then in one of ours after them."""
    heard = []

    def hook(grad):
        heard.append(True)
        before((grad,))

    if variable._backward_hooks is None:  # the usual leaf: its table set and unset whole
        variable._backward_hooks = OrderedDict([(OURS, hook)])  # (an OrderedDict, as
        removals.append(_unhooked(variable))  # torch's: a hook the user adds joins it)
    else:
        removals.append(variable.register_hook(hook).remove)
    if variable._post_accumulate_grad_hooks is None:
        endings.append(lambda: heard and after((), ()))
    else:
        removals.append(variable.register_post_accumulate_grad_hook(
            lambda _leaf: after((), ())).remove)


def _unhooked(variable) -> Callable[[], None]:
    """What takes the hook ``_leaf_hooks`` set whole away again (and the table if empty)."""
    def remove() -> None:
        hooks = variable._backward_hooks
        if hooks is not None:
            hooks.pop(OURS, None)
            if not hooks:
                variable._backward_hooks = None

    return remove


def _hooks(recorder: TraceRecorder, trace: LiveTrace, node) -> tuple[Callable, Callable]:
    """The node's pre-hook (a step with the gradients it receives) and hook (the gradients
    it passes on); a leaf's AccumulateGrad also notes its leaf's .grad before and after."""
    value = recorder.optional_array
    variable = getattr(node, "variable", None)
    ran: list[LiveStep] = []  # its step (a node runs once in a call)

    def before(grad_outputs):
        step = LiveStep(node, [value(g) for g in grad_outputs])
        if variable is not None:
            step.grad_before = value(variable.grad)
        trace.steps.append(step)
        ran.append(step)

    def after(grad_inputs, grad_outputs):
        step = ran[-1]
        step.outgoing = [value(g) for g in grad_inputs]
        if variable is not None:
            step.grad_after = value(variable.grad)

    return before, after
