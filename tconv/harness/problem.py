"""Load KernelBench-format problem files and their solutions.

A problem file defines `class Model(nn.Module)`, `get_inputs()` and `get_init_inputs()`; a solution
file defines `class ModelNew(nn.Module)` with the same constructor signature and parameter names.
Problems live in `<repo>/problems/<stem>.py` and solutions in `<repo>/solutions/<stem>.py`.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable, List, Optional, Union

import torch.nn as nn

PathLike = Union[str, Path]

# Every loaded file gets its own module name, so loading the same stem twice (a problem and its
# solution, or two runs in one process) never returns a stale module.
_module_counter = itertools.count()


@dataclass
class Problem:
    """The original model of a problem file: class and input factories."""

    stem: str
    path: Path
    Model: type
    get_inputs: Callable[[], List]
    get_init_inputs: Callable[[], List]


@dataclass
class LoadedProblem:
    """A problem together with the solution under test."""

    stem: str
    problem_path: Path
    solution_path: Path
    Model: type
    get_inputs: Callable[[], List]
    get_init_inputs: Callable[[], List]
    ModelNew: type


def import_file(path: PathLike, role: str) -> ModuleType:
    """Execute a Python file as a fresh module named after its role, stem and a counter."""
    path = Path(path).resolve()
    if not path.is_file():
        raise FileNotFoundError(f"{role} file not found: {path}")
    module_name = f"tconv_harness_{role}_{path.stem}_{next(_module_counter)}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {role} file {path}")
    module = importlib.util.module_from_spec(spec)
    # Registered before execution: dataclasses and pickling look modules up in sys.modules.
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _require(module: ModuleType, name: str, path: Path, role: str):
    if not hasattr(module, name):
        raise AttributeError(f"{role} file {path} does not define `{name}`")
    return getattr(module, name)


def _require_module_class(module: ModuleType, name: str, path: Path, role: str) -> type:
    cls = _require(module, name, path, role)
    if not (isinstance(cls, type) and issubclass(cls, nn.Module)):
        raise TypeError(f"`{name}` in {role} file {path} is not an nn.Module subclass")
    return cls


def load_problem_file(problem_path: PathLike) -> Problem:
    path = Path(problem_path).resolve()
    module = import_file(path, "problem")
    return Problem(
        stem=path.stem,
        path=path,
        Model=_require_module_class(module, "Model", path, "problem"),
        get_inputs=_require(module, "get_inputs", path, "problem"),
        get_init_inputs=_require(module, "get_init_inputs", path, "problem"),
    )


def load_solution_class(solution_path: PathLike) -> type:
    path = Path(solution_path).resolve()
    module = import_file(path, "solution")
    return _require_module_class(module, "ModelNew", path, "solution")


def default_solution_path(problem_path: PathLike) -> Path:
    """`<repo>/solutions/<stem>.py` for `<repo>/problems/<stem>.py`."""
    path = Path(problem_path).resolve()
    repo = path.parent.parent
    return repo / "solutions" / path.name


def resolve_solution_path(problem_path: PathLike, solution_path: Optional[PathLike]) -> Path:
    if solution_path is not None:
        return Path(solution_path).resolve()
    return default_solution_path(problem_path)


def load_problem(problem_path: PathLike, solution_path: Optional[PathLike] = None) -> LoadedProblem:
    """Load a problem and its solution (default: the same stem under `<repo>/solutions/`)."""
    problem = load_problem_file(problem_path)
    resolved_solution = resolve_solution_path(problem.path, solution_path)
    return LoadedProblem(
        stem=problem.stem,
        problem_path=problem.path,
        solution_path=resolved_solution,
        Model=problem.Model,
        get_inputs=problem.get_inputs,
        get_init_inputs=problem.get_init_inputs,
        ModelNew=load_solution_class(resolved_solution),
    )


def repo_root() -> Path:
    """The repository holding `problems/`: the current directory or an ancestor, else the package's checkout."""
    for candidate in (Path.cwd(), *Path.cwd().parents):
        if (candidate / "problems").is_dir():
            return candidate
    return Path(__file__).resolve().parents[2]


def resolve_problem_path(name_or_path: str, root: Optional[Path] = None) -> Path:
    """A problem given as a file path, or as a stem under `<repo>/problems/`."""
    as_path = Path(name_or_path)
    if as_path.suffix == ".py" or as_path.exists():
        return as_path.resolve()
    return (root or repo_root()) / "problems" / f"{name_or_path}.py"
