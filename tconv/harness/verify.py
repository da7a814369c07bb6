"""Verify a KernelBench-format solution against its problem: correctness first, then anti-cheat.

    tconv verify PROBLEM.py [--solution FILE] [--trials 5] [--precision tf32|fp32|fp16|bf16]
                            [--device cuda|cpu] [--seed 0] [--layout contiguous|channels_last] [--json OUT]

What runs (DESIGN.md section 6):
  * Model and ModelNew are built from the same seed; parameters and buffers must match, and
    state_dicts must load both ways (strict).
  * Each trial draws fresh inputs (`get_inputs()`, torch.rand; plus one extra trial with randn) and
    a fresh random grad_output, runs forward + backward of the original Model (in the precision
    mode), of a float64 copy (the reference) and of ModelNew, and compares the output and the
    gradients of every input and every parameter (rules in compare.py).
  * Before each ModelNew run on CUDA, the allocator's free memory is filled with NaN (poison.py).
  * Anti-cheat checks: new random parameters loaded after construction and parameters changed in
    place after a forward (weights cached or transformed once), two calls with different inputs
    (cached outputs), global flags and current stream unchanged, inputs not mutated, no torch
    convolution op or cuDNN kernel in ModelNew's profile, output dtype equal to Model's.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import torch
import torch.nn as nn

from .compare import Comparison, Measurement, judge, measure, pool_baselines, round_to_tf32
from .conv_detect import find_torch_conv_events
from .poison import poison_cuda_allocator
from .precision import (
    PRECISIONS,
    compute_dtype,
    global_state_differences,
    precision_mode,
    preserved_global_state,
    snapshot_global_state,
)
from .problem import Problem, load_problem_file, load_solution_class, resolve_solution_path
from .tensors import (LAYOUTS, backward_all, copies, make_leaves, map_floats, strided_like, tensor_list, to_device,
                      to_layout)

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"

# Every check a report lists, in the order the table shows them.
CHECK_NAMES = (
    "load",
    "params_match",
    "state_dict_roundtrip",
    "output_shape_dtype",
    "forward",
    "grad_input",
    "grad_params",
    "grads_exist",
    "nan_poison",
    "cached_output",
    "perturbed_params",
    "inputs_unmutated",
    "global_state",
    "no_torch_conv",
)

# Checks whose runs share the baseline pool of another check (same parameters, same tensors).
_POOLED_WITH = {"cached_output": "forward"}

# Seed offsets: each use of randomness gets its own stream, derived from the user's seed.
_TRIAL_SEED_OFFSET = 1
_GRAD_SEED_OFFSET = 1000
_CACHED_OUTPUT_SEED_OFFSET = 2000
_PERTURB_SEED_OFFSET = 3000
_PROFILE_SEED_OFFSET = 4000


@dataclass
class CheckResult:
    name: str
    status: str  # PASS, FAIL or SKIP
    message: str


@dataclass
class VerifyReport:
    problem: str
    solution: str
    precision: str
    device: str
    seed: int
    trials: int
    checks: List[CheckResult] = field(default_factory=list)
    layout: str = "contiguous"

    @property
    def passed(self) -> bool:
        return bool(self.checks) and not any(check.status == FAIL for check in self.checks)

    def check(self, name: str) -> CheckResult:
        for result in self.checks:
            if result.name == name:
                return result
        raise KeyError(name)

    def failed_checks(self) -> List[str]:
        return [check.name for check in self.checks if check.status == FAIL]

    def to_dict(self) -> Dict[str, Any]:
        return {**asdict(self), "passed": self.passed}

    def format_table(self) -> str:
        lines = [
            f"tconv verify  problem: {self.problem}",
            f"              solution: {self.solution}",
            f"              precision={self.precision} device={self.device} seed={self.seed} "
            f"trials={self.trials} (+1 randn) layout={self.layout}",
            "",
            f"  {'CHECK':<22}{'RESULT':<8}DETAIL",
        ]
        for check in self.checks:
            lines.append(f"  {check.name:<22}{check.status:<8}{check.message}")
        counts = {status: sum(c.status == status for c in self.checks) for status in (PASS, FAIL, SKIP)}
        verdict = "PASS" if self.passed else "FAIL (" + ", ".join(self.failed_checks()) + ")"
        lines += ["", f"RESULT: {verdict}  [{counts[PASS]} passed, {counts[FAIL]} failed, {counts[SKIP]} skipped]"]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format_table()


class _CheckBook:
    """Collects outcomes per check over all runs; a check fails if any run failed it."""

    def __init__(self) -> None:
        self._failures: Dict[str, List[str]] = {name: [] for name in CHECK_NAMES}
        self._pass_notes: Dict[str, str] = {}
        self._skip_notes: Dict[str, str] = {}
        self._tightest: Dict[str, float] = {}
        # (pool, tensor) -> [(check, description, measurement)], judged together at the end
        self._measurements: Dict[Tuple[str, str], List[Tuple[str, str, Measurement]]] = {}

    def fail(self, name: str, message: str) -> None:
        self._failures[name].append(message)

    def note_pass(self, name: str, message: str) -> None:
        self._pass_notes[name] = message

    def skip(self, name: str, message: str) -> None:
        self._skip_notes[name] = message

    def has_failed(self, name: str) -> bool:
        return bool(self._failures[name])

    def has_passed(self, name: str) -> bool:
        return name in self._pass_notes

    def record_measurement(self, name: str, tensor: str, run: str, measurement: Measurement) -> None:
        """Keep one run's errors of `tensor` for `judge_measurements`."""
        pool = (_POOLED_WITH.get(name, name), tensor)
        self._measurements.setdefault(pool, []).append((name, f"{run} {tensor}", measurement))

    def judge_measurements(self) -> None:
        """Judge every recorded run against its tensor's baseline pooled over all runs of the check."""
        for runs in self._measurements.values():
            baselines = [measurement.baseline for _, _, measurement in runs if measurement.baseline is not None]
            pooled = pool_baselines(baselines) if baselines else None
            for name, what, measurement in runs:
                self.record_comparison(name, what, judge(measurement, pooled))
        self._measurements.clear()

    def record_comparison(self, name: str, what: str, comparison: Comparison) -> None:
        """A failing comparison fails `name`; a passing one is kept if it is the tightest so far."""
        if not comparison.ok:
            self.fail(name, f"{what}: {comparison.message}")
        elif comparison.margin >= self._tightest.get(name, -1.0):
            self._tightest[name] = comparison.margin
            self.note_pass(name, f"tightest: {what}: {comparison.message}")

    def results(self) -> List[CheckResult]:
        results = []
        for name in CHECK_NAMES:
            failures = self._failures[name]
            if failures:
                more = f" (+{len(failures) - 1} more)" if len(failures) > 1 else ""
                results.append(CheckResult(name, FAIL, failures[0] + more))
            elif name in self._pass_notes:
                results.append(CheckResult(name, PASS, self._pass_notes[name]))
            else:
                results.append(CheckResult(name, SKIP, self._skip_notes.get(name, "not run")))
        return results


@dataclass
class _RunRecord:
    """Detached results of one forward + backward."""

    outputs: List[torch.Tensor]
    input_grads: List[Optional[torch.Tensor]]  # one entry per model input
    param_grads: Dict[str, Optional[torch.Tensor]]
    grad_outputs: List[torch.Tensor]

    def tensors(self) -> List[torch.Tensor]:
        grads = [g for g in self.input_grads if g is not None]
        grads += [g for g in self.param_grads.values() if g is not None]
        return self.outputs + grads


def describe_error(error: BaseException) -> str:
    """'Type: first line of the message', for one-line reports."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


def _forward_backward(
    model: nn.Module,
    leaves: Sequence[Any],
    grad_outputs_for: Callable[[List[torch.Tensor]], List[torch.Tensor]],
) -> _RunRecord:
    for parameter in model.parameters():
        parameter.grad = None
    outputs = tensor_list(model(*leaves))
    grad_outputs = grad_outputs_for(outputs)
    backward_all(outputs, grad_outputs)
    return _RunRecord(
        outputs=[out.detach() for out in outputs],
        input_grads=[
            leaf.grad.detach() if isinstance(leaf, torch.Tensor) and leaf.grad is not None else None
            for leaf in leaves
        ],
        param_grads={
            name: (p.grad.detach().clone() if p.grad is not None else None) for name, p in model.named_parameters()
        },
        grad_outputs=grad_outputs,
    )


def _forward_only(model: nn.Module, inputs: Sequence[Any]) -> List[torch.Tensor]:
    with torch.no_grad():
        return [out.detach() for out in tensor_list(model(*inputs))]


def default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


class _Verifier:
    def __init__(
        self,
        problem_path: Path,
        solution_path: Path,
        trials: int,
        precision: str,
        device: torch.device,
        seed: int,
        check_torch_conv: bool,
        layout: str = "contiguous",
    ) -> None:
        self.layout = layout
        self.problem_path = problem_path
        self.solution_path = solution_path
        self.trials = trials
        self.precision = precision
        self.dtype = compute_dtype(precision)
        self.device = device
        self.seed = seed
        self.check_torch_conv = check_torch_conv
        self.book = _CheckBook()
        self.candidate_calls = 0
        self.problem: Optional[Problem] = None
        self.model: Optional[nn.Module] = None
        self.new: Optional[nn.Module] = None
        self.reference: Optional[nn.Module] = None
        self.ideal_tf32_reference: Optional[nn.Module] = None

    # -- driver ---------------------------------------------------------------------------------

    def run(self) -> List[CheckResult]:
        if not self._load():
            for name in CHECK_NAMES[1:]:
                self.book.skip(name, "not run: loading failed")
            return self.book.results()
        if not self._stage("params_match", "comparing parameters", self._check_parameters):
            return self._skip_rest("parameter comparison failed")
        if not self._stage("load", f"moving the models to {self.device}/{self.precision}", self._move_models):
            return self._skip_rest("moving the models failed")
        self._stage("forward", "accuracy trials", self._accuracy_trials)
        self._stage("cached_output", "the repeated-call check", self._check_cached_output)
        self._stage("perturbed_params", "the perturbed-parameter check", self._check_perturbed_parameters)
        self._stage("no_torch_conv", "profiling ModelNew", self._check_torch_conv)
        self.book.judge_measurements()
        self._finish_summaries()
        return self.book.results()

    def _stage(self, check: str, description: str, action: Callable[[], None]) -> bool:
        try:
            action()
            return True
        except Exception as error:
            self.book.fail(check, f"{description} raised {describe_error(error)}")
            return False

    def _skip_rest(self, reason: str) -> List[CheckResult]:
        for name in CHECK_NAMES:
            self.book.skip(name, f"not run: {reason}")
        return self.book.results()

    # -- stages ---------------------------------------------------------------------------------

    def _load(self) -> bool:
        try:
            self.problem = load_problem_file(self.problem_path)
        except Exception as error:
            self.book.fail("load", f"problem file {self.problem_path}: {describe_error(error)}")
            return False
        try:
            init_inputs = self.problem.get_init_inputs()
            torch.manual_seed(self.seed)
            self.model = self.problem.Model(*init_inputs)
        except Exception as error:
            self.book.fail("load", f"constructing Model raised {describe_error(error)}")
            return False
        # Importing and constructing the solution may not change global state either.
        with preserved_global_state():
            before = snapshot_global_state()
            try:
                model_new_class = load_solution_class(self.solution_path)
                torch.manual_seed(self.seed)
                self.new = model_new_class(*init_inputs)
            except Exception as error:
                self.book.fail("load", f"solution {self.solution_path}: {describe_error(error)}")
                return False
            finally:
                changes = global_state_differences(before, snapshot_global_state())
                if changes:
                    self.book.fail("global_state", "importing/constructing ModelNew changed " + "; ".join(changes))
        self.book.note_pass("load", f"Model and ModelNew built from get_init_inputs() = {init_inputs!r}")
        return True

    def _check_parameters(self) -> None:
        mismatches = _state_mismatches("parameter", dict(self.model.named_parameters()), dict(self.new.named_parameters()))
        mismatches += _state_mismatches("buffer", dict(self.model.named_buffers()), dict(self.new.named_buffers()))

        # ModelNew -> Model first: the other direction overwrites ModelNew's own values.
        roundtrip_ok = True
        try:
            copy.deepcopy(self.model).load_state_dict(self.new.state_dict(), strict=True)
        except Exception as error:
            roundtrip_ok = False
            self.book.fail("state_dict_roundtrip", f"Model.load_state_dict(ModelNew.state_dict()) raised {describe_error(error)}")
        try:
            self.new.load_state_dict(self.model.state_dict(), strict=True)
        except Exception as error:
            roundtrip_ok = False
            self.book.fail("state_dict_roundtrip", f"ModelNew.load_state_dict(Model.state_dict()) raised {describe_error(error)}")
        if roundtrip_ok:
            self.book.note_pass("state_dict_roundtrip", "strict load_state_dict works both ways")

        if mismatches:
            shown = "; ".join(mismatches[:4]) + (f" (+{len(mismatches) - 4} more)" if len(mismatches) > 4 else "")
            if roundtrip_ok:
                shown += " [later checks load Model's state into ModelNew, to test the computation alone]"
            self.book.fail("params_match", shown)
        else:
            n_params = len(list(self.model.parameters()))
            n_buffers = len(list(self.model.buffers()))
            self.book.note_pass("params_match", f"{n_params} parameters, {n_buffers} buffers: same names, shapes, dtypes, values")

    def _move_models(self) -> None:
        self.model.to(self.device)
        self.new.to(self.device)
        if self.dtype != torch.float32:
            self.model.to(self.dtype)
            self.new.to(self.dtype)
        self._build_references()

    def _build_references(self) -> None:
        """float64 copies of Model (with the mode's rounded parameters); TF32-rounded one in tf32 mode."""
        for parameter in self.model.parameters():
            parameter.grad = None
        self.reference = copy.deepcopy(self.model).to(torch.float64)
        self.ideal_tf32_reference = None
        if self.precision == "tf32":
            ideal = copy.deepcopy(self.model)
            with torch.no_grad():
                for parameter in ideal.parameters():
                    parameter.copy_(round_to_tf32(parameter))
            self.ideal_tf32_reference = ideal.to(torch.float64)

    def _accuracy_trials(self) -> None:
        for trial in range(self.trials + 1):
            randn_trial = trial == self.trials
            torch.manual_seed(self.seed + _TRIAL_SEED_OFFSET + trial)
            base_inputs = self.problem.get_inputs()
            if randn_trial:
                base_inputs = map_floats(base_inputs, torch.randn_like)
            label = f"trial {trial} ({'randn' if randn_trial else 'rand'} inputs)"
            self._compare_run(base_inputs, self.seed + _GRAD_SEED_OFFSET + trial, label)

    def _check_cached_output(self) -> None:
        torch.manual_seed(self.seed + _CACHED_OUTPUT_SEED_OFFSET)
        first = self._prepare(self.problem.get_inputs())
        second = self._prepare(self.problem.get_inputs())
        original, reference, ideal = self._reference_forwards(second)
        # ModelNew gets copies: a solution that also mutates its inputs must not skew this check.
        with self._candidate_scope("repeated calls"):
            first_outputs = [out.detach().clone() for out in tensor_list(self.new(*copies(first)))]
            second_outputs = [out.detach().clone() for out in tensor_list(self.new(*copies(second)))]
        if len(second_outputs) != len(reference):
            self.book.fail("cached_output", f"second call returned {len(second_outputs)} outputs, expected {len(reference)}")
            return
        for index, candidate in enumerate(second_outputs):
            self.book.record_measurement(
                "cached_output",
                f"output {index}",
                "second call (new inputs)",
                measure(candidate, original[index], reference[index], self.precision, ideal[index] if ideal else None),
            )
        if all(torch.equal(a, b) for a, b in zip(first_outputs, second_outputs)):
            self.book.fail("cached_output", "two calls with different inputs returned identical outputs")

    def _check_perturbed_parameters(self) -> None:
        generator = torch.Generator().manual_seed(self.seed + _PERTURB_SEED_OFFSET)
        model_parameters = dict(self.model.named_parameters())
        new_parameters = dict(self.new.named_parameters())

        # 1. New random values through load_state_dict, after construction.
        perturbed_state = {
            name: (_perturbed(value, generator) if name in model_parameters and value.is_floating_point() else value)
            for name, value in self.model.state_dict().items()
        }
        self.model.load_state_dict(perturbed_state, strict=True)
        self.new.load_state_dict(perturbed_state, strict=True)
        self._build_references()
        torch.manual_seed(self.seed + _PERTURB_SEED_OFFSET + 1)
        self._compare_run(
            self.problem.get_inputs(),
            self.seed + _PERTURB_SEED_OFFSET + 2,
            "after load_state_dict(new random parameters)",
            accuracy_check="perturbed_params",
        )

        # 2. In-place changes after a first forward (catches caches filled lazily on the first call).
        torch.manual_seed(self.seed + _PERTURB_SEED_OFFSET + 3)
        warm_up_inputs = self._prepare(self.problem.get_inputs())
        with precision_mode(self.precision):
            _forward_only(self.model, warm_up_inputs)
        with self._candidate_scope("forward before the in-place parameter update"):
            _forward_only(self.new, copies(warm_up_inputs))
        with torch.no_grad():
            for name, parameter in model_parameters.items():
                delta = _perturbed(torch.zeros_like(parameter), generator, reference=parameter)
                parameter.data.add_(delta)
                if name in new_parameters:
                    new_parameters[name].data.add_(delta)
        self._build_references()
        torch.manual_seed(self.seed + _PERTURB_SEED_OFFSET + 4)
        self._compare_run(
            self.problem.get_inputs(),
            self.seed + _PERTURB_SEED_OFFSET + 5,
            "after in-place .data.add_() on every parameter",
            accuracy_check="perturbed_params",
        )

    def _check_torch_conv(self) -> None:
        if not self.check_torch_conv:
            self.book.skip("no_torch_conv", "disabled (check_torch_conv=False)")
            return
        torch.manual_seed(self.seed + _PROFILE_SEED_OFFSET)
        leaves = make_leaves(self._prepare(self.problem.get_inputs()))

        def forward_backward() -> None:
            outputs = tensor_list(self.new(*leaves))
            backward_all(outputs, [torch.randn_like(out) for out in outputs])

        with self._candidate_scope("forward/backward under the profiler"):
            found = find_torch_conv_events(forward_backward, self.device)
        if found:
            self.book.fail("no_torch_conv", "ModelNew ran torch's convolution: " + ", ".join(found[:8]))
        else:
            exempt = " (tconv.cpu_fallback scope exempt on CPU)" if self.device.type == "cpu" else ""
            self.book.note_pass("no_torch_conv", f"no torch convolution op or cuDNN kernel in forward+backward{exempt}")

    def _finish_summaries(self) -> None:
        """Pass notes that sum up a check better than its tightest comparison."""
        for name, note in (
            ("cached_output", "a second call with new inputs differs from the first and matches the reference"),
            ("perturbed_params", "correct after load_state_dict of new random parameters and after in-place updates"),
        ):
            if self.book.has_passed(name) and not self.book.has_failed(name):
                self.book.note_pass(name, note)
        if not self.book.has_failed("global_state"):
            self.book.note_pass(
                "global_state",
                f"flags, grad mode and current stream unchanged by import, construction and {self.candidate_calls} ModelNew runs",
            )
        if self.device.type != "cuda":
            self.book.skip("nan_poison", "no-op on CPU: the caching allocator to poison is CUDA's")

    # -- one comparison run -----------------------------------------------------------------------

    def _prepare(self, base_inputs: Sequence[Any]) -> List[Any]:
        return to_layout(to_device(base_inputs, self.device, self.dtype), self.layout)

    def _random_grad_outputs(self, outputs: List[torch.Tensor], seed: int) -> List[torch.Tensor]:
        generator = torch.Generator(device=self.device).manual_seed(seed)
        grads = [
            torch.randn(out.shape, generator=generator, device=self.device, dtype=torch.float32).to(out.dtype)
            for out in outputs
        ]
        return grads if self.layout == "contiguous" else strided_like(grads, outputs)

    @contextlib.contextmanager
    def _candidate_scope(self, what: str) -> Iterator[None]:
        """Run ModelNew under the mode's flags and fail `global_state` if it changes any of them."""
        self.candidate_calls += 1
        with precision_mode(self.precision):
            before = snapshot_global_state()
            try:
                yield
            finally:
                changes = global_state_differences(before, snapshot_global_state())
                if changes:
                    self.book.fail("global_state", f"ModelNew {what} changed " + "; ".join(changes))

    def _reference_forwards(
        self, inputs: Sequence[Any]
    ) -> Tuple[List[torch.Tensor], List[torch.Tensor], Optional[List[torch.Tensor]]]:
        """Forward outputs of Model (in the mode), the float64 reference and the ideal-TF32 reference."""
        with precision_mode(self.precision):
            original = _forward_only(self.model, inputs)
        reference = _forward_only(self.reference, map_floats(inputs, lambda t: t.to(torch.float64)))
        ideal = None
        if self.ideal_tf32_reference is not None:
            ideal = _forward_only(
                self.ideal_tf32_reference, map_floats(inputs, lambda t: round_to_tf32(t).to(torch.float64))
            )
        return original, reference, ideal

    def _run_candidate(
        self, inputs: List[Any], grad_outputs: List[torch.Tensor], expected_bytes: int, label: str
    ) -> Tuple[_RunRecord, int]:
        """ModelNew forward + backward on poisoned memory; fails `inputs_unmutated` if it wrote into them."""
        leaves = make_leaves(inputs)
        watched = [(f"input {i}", leaf) for i, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]
        watched += [(f"grad_output {i}", grad) for i, grad in enumerate(grad_outputs)]
        pristine = [(name, tensor.detach().clone(), tensor._version) for name, tensor in watched]
        poisoned_bytes = poison_cuda_allocator(self.device, expected_bytes)
        try:
            with self._candidate_scope("forward/backward"):
                record = _forward_backward(self.new, leaves, lambda outputs: grad_outputs)
        finally:
            # Checked even when ModelNew raised: the write may be what broke its backward.
            mutated = [
                name
                for (name, tensor), (_, clean, version) in zip(watched, pristine)
                if tensor._version != version or not torch.equal(tensor.detach(), clean)
            ]
            if mutated:
                self.book.fail("inputs_unmutated", f"{label}: ModelNew wrote into " + ", ".join(mutated))
            else:
                self.book.note_pass("inputs_unmutated", "inputs and grad_output unchanged (values and version counters)")
        return record, poisoned_bytes

    def _compare_run(
        self, base_inputs: Sequence[Any], grad_seed: int, label: str, accuracy_check: Optional[str] = None
    ) -> None:
        """One forward + backward of all models on the same inputs; records every comparison.

        `accuracy_check` files the accuracy outcomes (shape, forward, gradients) under that check
        instead of their own names (used by the perturbed-parameter check).
        """

        def target(name: str) -> str:
            return accuracy_check or name

        inputs = self._prepare(base_inputs)
        with precision_mode(self.precision):
            original = _forward_backward(
                self.model, make_leaves(inputs), lambda outputs: self._random_grad_outputs(outputs, grad_seed)
            )
        grad_outputs = original.grad_outputs
        reference = _forward_backward(
            self.reference,
            make_leaves(map_floats(inputs, lambda t: t.to(torch.float64))),
            lambda outputs: [grad.to(torch.float64) for grad in grad_outputs],
        )
        ideal = None
        if self.ideal_tf32_reference is not None:
            ideal = _forward_backward(
                self.ideal_tf32_reference,
                make_leaves(map_floats(inputs, lambda t: round_to_tf32(t).to(torch.float64))),
                lambda outputs: [round_to_tf32(grad).to(torch.float64) for grad in grad_outputs],
            )

        expected_bytes = sum(t.numel() * t.element_size() for t in original.tensors())
        try:
            candidate, poisoned_bytes = self._run_candidate(inputs, grad_outputs, expected_bytes, label)
        except Exception as error:
            self.book.fail(target("forward"), f"{label}: ModelNew forward/backward raised {describe_error(error)}")
            return

        if not self._shapes_and_dtypes_match(candidate, original, label, target("output_shape_dtype")):
            return

        def ideal_of(tensors: Optional[List[Optional[torch.Tensor]]], index: int) -> Optional[torch.Tensor]:
            return tensors[index] if tensors is not None else None

        for index, output in enumerate(candidate.outputs):
            self.book.record_measurement(
                target("forward"),
                f"output {index}",
                label,
                measure(
                    output,
                    original.outputs[index],
                    reference.outputs[index],
                    self.precision,
                    ideal_of(ideal.outputs if ideal else None, index),
                ),
            )

        missing_grads = []
        for index, original_grad in enumerate(original.input_grads):
            if original_grad is None:
                continue
            candidate_grad = candidate.input_grads[index]
            if candidate_grad is None:
                missing_grads.append(f"input {index}")
                continue
            self.book.record_measurement(
                target("grad_input"),
                f"grad of input {index}",
                label,
                measure(
                    candidate_grad,
                    original_grad,
                    reference.input_grads[index],
                    self.precision,
                    ideal_of(ideal.input_grads if ideal else None, index),
                ),
            )
        for name, original_grad in original.param_grads.items():
            if original_grad is None:
                continue
            candidate_grad = candidate.param_grads.get(name)
            if candidate_grad is None:
                missing_grads.append(name)
                continue
            self.book.record_measurement(
                target("grad_params"),
                f"grad of {name}",
                label,
                measure(
                    candidate_grad,
                    original_grad,
                    reference.param_grads[name],
                    self.precision,
                    ideal.param_grads[name] if ideal else None,
                ),
            )
        if missing_grads:
            self.book.fail(target("grads_exist"), f"{label}: ModelNew produced no gradient for " + ", ".join(missing_grads))
        else:
            count = sum(g is not None for g in original.input_grads) + sum(
                g is not None for g in original.param_grads.values()
            )
            self.book.note_pass("grads_exist", f"all {count} gradients the original Model produces are present")

        if poisoned_bytes:
            non_finite = [t for t in candidate.tensors() if t.numel() and not torch.isfinite(t).all()]
            if non_finite:
                self.book.fail(
                    target("nan_poison"),
                    f"{label}: {len(non_finite)} result tensor(s) hold NaN/Inf after NaN-poisoning "
                    "the allocator (elements never written?)",
                )
            else:
                self.book.note_pass(
                    "nan_poison", f"all results finite with {poisoned_bytes / 2**20:.0f} MiB of allocator memory NaN-filled"
                )

    def _shapes_and_dtypes_match(self, candidate: _RunRecord, original: _RunRecord, label: str, check: str) -> bool:
        if len(candidate.outputs) != len(original.outputs):
            self.book.fail(check, f"{label}: {len(candidate.outputs)} outputs, Model returns {len(original.outputs)}")
            return False
        ok = True
        for index, (got, expected) in enumerate(zip(candidate.outputs, original.outputs)):
            if got.shape != expected.shape or got.dtype != expected.dtype:
                ok = False
                self.book.fail(
                    check,
                    f"{label} output {index}: {tuple(got.shape)} {got.dtype}, "
                    f"Model gives {tuple(expected.shape)} {expected.dtype}",
                )
        if ok and check == "output_shape_dtype":
            described = ", ".join(f"{tuple(t.shape)} {t.dtype}" for t in original.outputs)
            self.book.note_pass(check, f"same as Model: {described}")
        return ok


def _state_mismatches(kind: str, original: Dict[str, torch.Tensor], candidate: Dict[str, torch.Tensor]) -> List[str]:
    mismatches = []
    missing = sorted(set(original) - set(candidate))
    extra = sorted(set(candidate) - set(original))
    if missing:
        mismatches.append(f"ModelNew lacks {kind}(s) {', '.join(missing)}")
    if extra:
        mismatches.append(f"ModelNew has extra {kind}(s) {', '.join(extra)}")
    for name in sorted(set(original) & set(candidate)):
        a, b = original[name], candidate[name]
        if a.shape != b.shape or a.dtype != b.dtype:
            mismatches.append(f"{kind} {name}: {tuple(b.shape)} {b.dtype}, Model has {tuple(a.shape)} {a.dtype}")
        elif not torch.equal(a.detach().cpu(), b.detach().cpu()):
            max_diff = (a.detach().double().cpu() - b.detach().double().cpu()).abs().max().item()
            mismatches.append(f"{kind} {name}: values differ (max |diff| {max_diff:.3g}; same seed, different init?)")
    return mismatches


def _perturbed(value: torch.Tensor, generator: torch.Generator, reference: Optional[torch.Tensor] = None) -> torch.Tensor:
    """`value` plus Gaussian noise scaled to the magnitude of `reference` (default: `value`)."""
    scale_source = value if reference is None else reference
    scale = 0.5 * scale_source.detach().float().abs().mean().item() + 0.05
    noise = torch.randn(value.shape, generator=generator, dtype=torch.float32)
    return value.detach() + (noise * scale).to(device=value.device, dtype=value.dtype)


def verify(
    problem_path,
    solution_path=None,
    trials: int = 5,
    precision: str = "tf32",
    device: Optional[str] = None,
    seed: int = 0,
    check_torch_conv: bool = True,
    layout: str = "contiguous",
) -> VerifyReport:
    """Verify the solution of a KernelBench-format problem; see the module docstring. `layout` (tensors.LAYOUTS):
    "channels_last" runs every comparison on channels-last inputs (4-D and 5-D ones) and grad_outputs laid out as
    their outputs.

    The process's global flags and RNG state are left as they were.
    """
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r}; expected one of {', '.join(PRECISIONS)}")
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    if trials < 1:
        raise ValueError("trials must be at least 1")
    resolved_device = torch.device(device or default_device())
    if resolved_device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError("device cuda requested but torch.cuda.is_available() is False")
    problem_path = Path(problem_path).resolve()
    solution_path = resolve_solution_path(problem_path, solution_path)
    verifier = _Verifier(problem_path, solution_path, trials, precision, resolved_device, seed, check_torch_conv,
                         layout)
    rng_devices = []
    if resolved_device.type == "cuda":
        rng_devices = [resolved_device.index if resolved_device.index is not None else torch.cuda.current_device()]
    with preserved_global_state(), torch.random.fork_rng(devices=rng_devices):
        checks = verifier.run()
    return VerifyReport(
        problem=str(problem_path),
        solution=str(solution_path),
        precision=precision,
        device=str(resolved_device),
        seed=seed,
        trials=trials,
        checks=checks,
        layout=layout,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tconv verify",
        description="Verify a KernelBench-format solution (ModelNew) against its problem (Model).",
    )
    parser.add_argument("problem", help="problem file (defines Model, get_inputs, get_init_inputs)")
    parser.add_argument("--solution", help="solution file defining ModelNew (default: <repo>/solutions/<stem>.py)")
    parser.add_argument("--trials", type=int, default=5, help="random-input trials (one randn trial is added)")
    parser.add_argument("--precision", choices=PRECISIONS, default="tf32")
    parser.add_argument("--device", choices=("cuda", "cpu"), default=None, help="default: cuda when available")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--layout", choices=LAYOUTS, default="contiguous",
                        help="channels_last: 4-D and 5-D inputs in channels-last memory format (default: contiguous)")
    parser.add_argument("--json", metavar="OUT", help="also write the report as JSON to OUT")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """CLI entry (argv excludes the `verify` subcommand): 0 all pass, 1 any FAIL, 2 usage error."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_request:  # argparse reports usage errors (and --help) by exiting
        return int(exit_request.code or 0)
    problem_path = Path(args.problem)
    if not problem_path.is_file():
        print(f"tconv verify: problem file not found: {problem_path}", file=sys.stderr)
        return 2
    solution_path = resolve_solution_path(problem_path, args.solution)
    if not solution_path.is_file():
        print(f"tconv verify: solution file not found: {solution_path} (use --solution FILE)", file=sys.stderr)
        return 2
    if args.trials < 1:
        print("tconv verify: --trials must be at least 1", file=sys.stderr)
        return 2
    if args.device == "cuda" and not torch.cuda.is_available():
        print("tconv verify: --device cuda requested but no CUDA device is available", file=sys.stderr)
        return 2
    report = verify(
        problem_path,
        solution_path,
        trials=args.trials,
        precision=args.precision,
        device=args.device,
        seed=args.seed,
        layout=args.layout,
    )
    print(report.format_table(), flush=True)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report.to_dict(), indent=2) + "\n")
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
