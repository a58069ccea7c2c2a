"""Engine properties torch has no direct counterpart for: no recursion, imports, observers."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest


def test_a_100000_op_chain_runs_backward_and_is_freed(engine):
    x = engine.tensor([0.5, -0.5], dtype=engine.float64, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0000001
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0000001**100_000] * 2, rtol=1e-9)
    del y  # dropping the last tensor frees 100,000 nodes without a deep recursion


def test_a_100000_op_chain_with_create_graph_and_grad(engine):
    x = engine.tensor(1.0, dtype=engine.float64, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y + x * 1e-6
    (g,) = engine.autograd.grad(y, x)
    assert g.item() == pytest.approx(1 + 0.1, rel=1e-9)


def test_importing_the_engine_imports_neither_torch_nor_qt():
    code = ("import sys, playground.npgrad; "
            "print(sorted(m for m in ('torch', 'PySide6', 'pyqtgraph') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_observer_sees_every_step_with_gradients(engine):
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    steps, started, finished = [], [], []
    with engine.autograd.observe(steps.append, started.append, finished.append):
        (x * 3).sum().backward()
        (x * 3).sum().backward()
    assert [s.node.name() for s in steps] == ["SumBackward0", "MulBackward0",
                                               "torch::autograd::AccumulateGrad"] * 2
    assert [kind for kind, _ in started] == ["backward", "backward"] and len(finished) == 2
    mul = steps[1]
    assert mul.incoming[0].tolist() == [1.0, 1.0]
    assert mul.outgoing[0].tolist() == [3.0, 3.0] and mul.outgoing[1] is None
    first, second = steps[2], steps[5]
    assert first.grad_before is None and first.grad_after.tolist() == [3.0, 3.0]
    assert second.grad_before.tolist() == [3.0, 3.0]
    assert second.grad_after.tolist() == [6.0, 6.0]
    (x * 3).sum().backward()  # outside the block: no more steps
    assert len(steps) == 6


def test_node_hooks_match_torch(torch, engine):
    def run(module):
        x = module.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        z = y.sum()
        log = []
        handle = y.grad_fn.register_hook(
            lambda grad_inputs, grad_outputs: log.append(
                ("post", [g.tolist() if g is not None else None for g in grad_inputs],
                 [g.tolist() for g in grad_outputs])))
        y.grad_fn.register_prehook(lambda grad_outputs: log.append(
            ("pre", [g.tolist() for g in grad_outputs])))
        z.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
        z.backward(retain_graph=True)
        handle.remove()
        z.backward()
        return log, x.grad.tolist()

    assert run(engine) == run(torch)


def test_backward_inputs_accumulates_only_into_them(torch, engine):
    def run(module):
        x = module.tensor([1.0, 2.0], requires_grad=True)
        w = module.tensor([3.0, 4.0], requires_grad=True)
        (x * w).sum().backward(inputs=[w])
        return x.grad, w.grad.tolist()

    assert run(engine) == run(torch)


def test_saved_values_are_exposed_for_the_inspector(engine):
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    w = engine.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    saved = y.grad_fn.saved_values()
    assert saved["self"] is x and saved["other"] is w
    e = x.exp()
    assert e.grad_fn.saved_values()["result"].tolist() == pytest.approx(np.exp([1, 2]).tolist())
    assert y.grad_fn.rule.describe() == (
        "MulBackward0: grad_self = grad * other; grad_other = grad * self")


def test_random_numbers_repeat_with_the_same_seed(engine):
    engine.manual_seed(7)
    first = engine.randn(3), engine.rand(2), engine.randint(0, 10, (4,))
    engine.manual_seed(7)
    second = engine.randn(3), engine.rand(2), engine.randint(0, 10, (4,))
    for a, b in zip(first, second, strict=True):
        assert a.tolist() == b.tolist()
    assert first[0].dtype == engine.float32 and first[2].dtype == engine.int64


def test_gradients_never_alias_each_other_or_the_callers_array(engine):
    """AccumulateGrad keeps an incoming array only when nothing else can see it."""
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    w = engine.tensor([3.0, 4.0], requires_grad=True)
    given = engine.tensor([10.0, 20.0])
    (x + w).backward(given)
    assert x.grad.tolist() == w.grad.tolist() == [10.0, 20.0]
    x.grad.zero_()
    assert w.grad.tolist() == [10.0, 20.0] and given.tolist() == [10.0, 20.0]
    y = x * 2
    (y + y).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0] and w.grad.tolist() == [10.0, 20.0]


def test_what_the_engine_lacks_is_named_with_a_way_out(engine):
    with pytest.raises(AttributeError, match="module 'torch' has no attribute "
                                             "'quantize_per_tensor' in the built-in NumPy "
                                             "engine"):
        engine.quantize_per_tensor(engine.ones(8), 0.1, 0, None)
    assert hasattr(engine, "cumsum") and hasattr(engine.ones(1), "logsumexp")


def test_the_engines_stand_ins_for_torchs_classes_name_what_they_lack(engine):
    """A distribution, optimizer, scheduler, generator or module method of torch's the engine
    lacks is named with the way out; a user's own missing attribute reads as torch words it,
    and Python's private probes stay plain."""
    hint = "in the built-in NumPy engine; if real torch has it, switch the engine to torch"
    model = engine.nn.Linear(2, 2)
    optimizer = engine.optim.SGD(model.parameters(), lr=0.1)
    stand_ins = [engine.distributions.Normal(0.0, 1.0), optimizer, engine.Generator(),
                 engine.optim.lr_scheduler.StepLR(optimizer, 2), model,
                 engine.nn.MultiheadAttention(4, 2)]
    for stand_in, name in zip(stand_ins, ["arg_constraints", "register_step_pre_hook",
                                          "graphsafe_get_state", "nonexistent_method", "xpu",
                                          "merge_masks"], strict=True):
        with pytest.raises(AttributeError) as raised:
            getattr(stand_in, name)
        assert str(raised.value) == (f"'{type(stand_in).__name__}' object has no attribute "
                                     f"'{name}' {hint}")
    with pytest.raises(AttributeError) as raised:
        _ = model.fc3
    assert str(raised.value) == "'Linear' object has no attribute 'fc3'"
    with pytest.raises(AttributeError) as raised:
        _ = engine.distributions.Normal(0.0, 1.0)._private
    assert str(raised.value) == "'Normal' object has no attribute '_private'"


def test_the_module_and_tensor_method_names_are_torchs():
    torch = pytest.importorskip("torch")
    from playground.npgrad._torch_names import TORCH_TENSOR_NAMES
    from playground.npgrad.nn.modules.lookup import TORCH_LAYER_NAMES, TORCH_MODULE_NAMES

    assert {n for n in dir(torch.nn.Module) if not n.startswith("_")} == TORCH_MODULE_NAMES
    layers = [kind for kind in vars(torch.nn).values()
              if isinstance(kind, type) and issubclass(kind, torch.nn.Module)]
    assert {n for kind in layers for n in dir(kind) if not n.startswith("_")} - \
        TORCH_MODULE_NAMES == TORCH_LAYER_NAMES
    assert {n for n in dir(torch.Tensor) if not n.startswith("_")} == TORCH_TENSOR_NAMES


def test_a_device_the_engine_lacks_is_named_and_refused_where_a_tensor_would_go(engine):
    cuda = engine.device("cuda", 0)  # code that picks a device names one first
    assert str(cuda) == "cuda:0"
    for place in (lambda: engine.ones(2, device=cuda), lambda: engine.ones(2).to("cuda"),
                  lambda: engine.nn.Linear(2, 2).to("cuda"), lambda: engine.ones(2).cuda()):
        with pytest.raises(RuntimeError, match="is not in the built-in NumPy engine .it runs "
                                               "on the CPU only.; switch the engine to torch"):
            place()


def test_a_rules_formulas_are_compiled_at_its_first_backward_not_at_import():
    """In a fresh process (the table's state is per process): the engine starts with stand-ins,
    a backward through acosh compiles acosh's formula, which then replaces them in the rule
    and in its node class; its gradient is the formula's, and a complex acosh still works."""
    probe = (
        "import playground.npgrad as torch\n"
        "from playground.npgrad._formula_compiler import LazyFormula\n"
        "from playground.npgrad._nodes import NODE_CLASSES\n"
        "from playground.npgrad._rules import RULES\n"
        "lazy = lambda op: type(RULES[op].formulas[0]) is LazyFormula\n"
        "print(sum(map(lazy, RULES)) == len([r for r in RULES.values() if r.texts]))\n"
        "x = torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=True)\n"
        "x.acosh().sum().backward()\n"
        "print(lazy('acosh'), NODE_CLASSES['acosh'].formulas is RULES['acosh'].formulas)\n"
        "print(x.grad.tolist() == (x.detach() * x.detach() - 1).rsqrt().tolist(), "
        "lazy('asinh'))\n"
        "z = torch.tensor([2.0 + 1.0j], requires_grad=True)\n"
        "z.asinh().abs().sum().backward()\n"
        "print(z.grad.tolist())\n"
    )
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout.split("\n")
    assert output[:3] == ["True", "False True", "True True"]
    torch = pytest.importorskip("torch")  # the complex gradient's oracle (its float32 last
    z = torch.tensor([2.0 + 1.0j], requires_grad=True)  # bits are the CPU's SIMD kernels')
    z.asinh().abs().sum().backward()
    assert complex(output[3].strip("[]()")) == pytest.approx(z.grad.item(), rel=1e-6)
