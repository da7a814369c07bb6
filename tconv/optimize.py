"""tconv.optimize(model): swap tconv's modules into an existing model.

Today it replaces every nn.ConvTranspose1d/2d/3d with tconv's drop-in module, sharing the original
parameters (no copies, so the state_dict is unchanged and loads both ways). Fusing
ConvTranspose -> activation -> GroupNorm chains comes with the fused kernels.
"""
import copy
from dataclasses import dataclass, field
from typing import List, Tuple

from torch import nn

from .modules import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

_REPLACEMENTS = {nn.ConvTranspose1d: ConvTranspose1d, nn.ConvTranspose2d: ConvTranspose2d,
                 nn.ConvTranspose3d: ConvTranspose3d}


@dataclass
class OptimizeReport:
    replaced: List[Tuple[str, str]] = field(default_factory=list)  # (qualified name, "A -> B")
    skipped: List[Tuple[str, str]] = field(default_factory=list)   # (qualified name, reason)

    def __str__(self) -> str:
        lines = [f"tconv.optimize: replaced {len(self.replaced)}, skipped {len(self.skipped)}"]
        lines += [f"  replaced {name}: {what}" for name, what in self.replaced]
        lines += [f"  skipped  {name}: {why}" for name, why in self.skipped]
        return "\n".join(lines)


def _skip_reason(module: nn.Module):
    if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)):
        return "already a tconv module"
    if type(module) not in _REPLACEMENTS:
        return f"{type(module).__name__} subclasses a ConvTranspose module (its own forward is kept)"
    if module.padding_mode != "zeros":
        return f"padding_mode={module.padding_mode!r} (ConvTranspose supports only 'zeros')"
    return None


def optimize(model: nn.Module, inplace: bool = False, verbose: bool = False):
    """Returns (optimized model, OptimizeReport). With inplace=False the model is deep-copied first."""
    if not inplace:
        model = copy.deepcopy(model)
    report = OptimizeReport()
    targets = []
    for name, module in model.named_modules():
        if isinstance(module, tuple(_REPLACEMENTS)):
            reason = _skip_reason(module)
            if reason is None:
                targets.append(name)
            else:
                report.skipped.append((name or "<root>", reason))
    for name in targets:
        original = model.get_submodule(name)
        replacement = _REPLACEMENTS[type(original)].from_torch(original)
        if name == "":
            model = replacement
        else:
            parent_name, _, child = name.rpartition(".")
            setattr(model.get_submodule(parent_name), child, replacement)
        report.replaced.append((name or "<root>", f"{type(original).__name__} -> tconv.{type(replacement).__name__}"))
    if verbose:
        print(report)
    return model, report
