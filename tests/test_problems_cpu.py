"""CPU checks of the problem suite (problems/) and its ModelNew solutions (solutions/).

Full-size forwards are GPU work (some inputs are ~2 GB), so shapes are checked on the meta
device and numerics on a scaled-down input (batch 1, each spatial dim at most 9).
"""
import functools
import importlib.util
import inspect
from pathlib import Path

import pytest
import torch
import torch.nn as nn

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "problems"
SOLUTIONS = ROOT / "solutions"
# The order in which problem files declare their spatial sizes (1D files use `length` alone).
SPATIAL_NAMES = ("depth", "height", "width", "length")
SMALL_DIM = 9


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


suites = _load(PROBLEMS / "suites.py", "tconv_test_problem_suites")


@functools.lru_cache(maxsize=None)
def problem(stem):
    return _load(PROBLEMS / f"{stem}.py", f"tconv_test_problem_{stem}")


@functools.lru_cache(maxsize=None)
def solution(stem):
    return _load(SOLUTIONS / f"{stem}.py", f"tconv_test_solution_{stem}")


@pytest.fixture(scope="module")
def tconv():
    # Solutions import tconv at module level; until its drop-in modules exist, skip rather than fail.
    mod = pytest.importorskip("tconv")
    missing = [n for n in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d") if not hasattr(mod, n)]
    if missing:
        pytest.skip(f"tconv lacks {', '.join(missing)}")
    return mod


def declared_input_shape(mod):
    spatial = [getattr(mod, n) for n in SPATIAL_NAMES if hasattr(mod, n)]
    return (mod.batch_size, mod.in_channels, *spatial)


def conv_transposes(model):
    return [m for m in model.modules() if isinstance(m, nn.modules.conv._ConvTransposeNd)]


def expected_output_shape(conv, input_shape):
    out = []
    for i, k, s, p, d, op in zip(input_shape[2:], conv.kernel_size, conv.stride, conv.padding,
                                 conv.dilation, conv.output_padding):
        out.append((i - 1) * s - 2 * p + d * (k - 1) + op + 1)
    return (input_shape[0], conv.out_channels, *out)


def build(cls, mod, seed=0):
    torch.manual_seed(seed)
    return cls(*mod.get_init_inputs())


def test_suites_cover_every_file():
    assert len(suites.CORE) == 5 and len(suites.FAMILY) == 13 and len(suites.REAL) == 4
    assert suites.ALL == suites.CORE + suites.FAMILY + suites.REAL
    assert len(set(suites.ALL)) == len(suites.ALL)
    on_disk = {p.stem for p in PROBLEMS.glob("*.py")} - {"suites", "__init__"}
    assert on_disk == set(suites.ALL + suites.BLOCKS) and not set(suites.ALL) & set(suites.BLOCKS)
    assert {p.stem for p in SOLUTIONS.glob("*.py")} - {"__init__"} == set(suites.ALL + suites.BLOCKS)


@pytest.mark.parametrize("stem", suites.ALL + suites.BLOCKS)
def test_problem_inputs_and_output_shape(stem):
    mod = problem(stem)
    model = build(mod.Model, mod)
    assert len(conv_transposes(model)) == 1

    # The meta device gives shapes without allocating the full-size tensors.
    with torch.device("meta"):
        inputs = mod.get_inputs()
        meta_model = mod.Model(*mod.get_init_inputs())
        out = meta_model(*inputs)
    assert len(inputs) == 1
    (x,) = inputs
    assert x.dtype == torch.float32
    assert tuple(x.shape) == declared_input_shape(mod)
    assert tuple(out.shape) == expected_output_shape(conv_transposes(model)[0], x.shape)


@pytest.mark.parametrize("stem", suites.ALL + suites.BLOCKS)
def test_solution_matches_model(stem, tconv):
    mod, sol = problem(stem), solution(stem)
    assert (sol.__doc__ or "").strip(), "solution needs a docstring naming its problem"
    # The harness takes inputs from the problem file; a solution must not bring its own.
    assert not hasattr(sol, "get_inputs") and not hasattr(sol, "get_init_inputs")
    assert inspect.signature(sol.ModelNew.__init__) == inspect.signature(mod.Model.__init__)

    model, new = build(mod.Model, mod), build(sol.ModelNew, mod)
    convs = conv_transposes(new)
    assert convs and all(
        isinstance(c, (tconv.ConvTranspose1d, tconv.ConvTranspose2d, tconv.ConvTranspose3d)) for c in convs)

    ref_state, new_state = model.state_dict(), new.state_dict()
    assert list(ref_state) == list(new_state)
    for key, value in ref_state.items():
        assert new_state[key].shape == value.shape, key
        assert torch.equal(new_state[key], value), key
    model.load_state_dict(new_state, strict=True)
    new.load_state_dict(ref_state, strict=True)

    full = declared_input_shape(mod)
    torch.manual_seed(1)
    x = torch.rand(1, full[1], *[min(d, SMALL_DIM) for d in full[2:]])
    with torch.no_grad():
        torch.testing.assert_close(new(x), model(x))
