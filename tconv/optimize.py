"""tconv.optimize(model): swap tconv's modules into an existing model.

1. Every ConvTranspose2d/3d -> activation -> GroupNorm chain (or ConvTranspose -> GroupNorm) becomes one
   `ConvTransposeActGroupNorm{2,3}d` (tconv/fused.py): inside nn.Sequential containers directly,
   elsewhere through torch.fx when the model is traceable (the result is then a GraphModule).
   Through torch.fx the activation may also be a function or method call (F.relu, torch.sigmoid,
   F.leaky_relu(x, 0.2), x.relu(), ...) with constant arguments, as model code often writes it.
   The GroupNorm stays where it was, as a pass-through that keeps its parameters, and the
   activation becomes nn.Identity inside Sequentials, so the state_dict keys do not change.
2. Every remaining nn.ConvTranspose1d/2d/3d becomes tconv's drop-in module.
All parameters are shared, never copied: state_dicts load both ways.
"""
import copy
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn

from .fused import (ConvTransposeActGroupNorm2d, ConvTransposeActGroupNorm3d, GroupNormAppliedUpstream,
                    fused_class_for, fusion_refusal)
from .modules import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

_REPLACEMENTS = {nn.ConvTranspose1d: ConvTranspose1d, nn.ConvTranspose2d: ConvTranspose2d,
                 nn.ConvTranspose3d: ConvTranspose3d}
_TCONV_MODULES = (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)
_CONV_TRANSPOSE = (nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d)


@dataclass
class OptimizeReport:
    replaced: List[Tuple[str, str]] = field(default_factory=list)  # (qualified name, "A -> B")
    fused: List[Tuple[str, str]] = field(default_factory=list)     # (first module's name, chain)
    skipped: List[Tuple[str, str]] = field(default_factory=list)   # (qualified name, reason)

    def __str__(self) -> str:
        lines = [f"tconv.optimize: fused {len(self.fused)}, replaced {len(self.replaced)}, "
                 f"skipped {len(self.skipped)}"]
        lines += [f"  fused    {name}: {what}" for name, what in self.fused]
        lines += [f"  replaced {name}: {what}" for name, what in self.replaced]
        lines += [f"  skipped  {name}: {why}" for name, why in self.skipped]
        return "\n".join(lines)


def _qualified(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _chain_text(conv, act, norm) -> str:
    return f"{type(conv).__name__} -> {type(act).__name__} -> GroupNorm({norm.num_groups}, {norm.num_channels})"


def _fuse_sequentials(model: nn.Module, report: OptimizeReport) -> None:
    for prefix, container in model.named_modules():
        if not isinstance(container, nn.Sequential):
            continue
        names = list(container._modules)
        for i in range(len(names) - 1):
            conv = container._modules[names[i]]
            if not isinstance(conv, (nn.ConvTranspose2d, nn.ConvTranspose3d)):
                continue
            # ConvTranspose -> activation -> GroupNorm, or ConvTranspose -> GroupNorm (the identity activation).
            following = [container._modules[n] for n in names[i + 1:i + 3]]
            if type(following[0]) is nn.GroupNorm:
                act, norm, span = nn.Identity(), following[0], 2
            elif len(following) == 2 and type(following[1]) is nn.GroupNorm:
                act, norm, span = following[0], following[1], 3
            else:
                continue
            where = _qualified(prefix, names[i])
            reason = fusion_refusal(conv, act, norm)
            if reason is not None:
                report.skipped.append((where, f"not fused: {reason}"))
                continue
            fused = fused_class_for(conv).fuse(conv, act, norm)
            applied = GroupNormAppliedUpstream.from_group_norm(norm)
            fused.bind_group_norm(applied)  # the module that stays in the tree owns the parameters
            container._modules[names[i]] = fused
            if span == 3:
                container._modules[names[i + 1]] = nn.Identity()
            container._modules[names[i + span - 1]] = applied
            report.fused.append((where, _chain_text(conv, act, norm)))


# Activations written as calls, as the module each one equals: (module class, its parameters after the input, as
# (name, default)). Torch's in-place forms count too: the conv's output has no other user when a chain is fused.
_ACTIVATION_CALLS = {
    F.relu: (nn.ReLU, [("inplace", False)]),
    torch.relu: (nn.ReLU, []),
    torch.relu_: (nn.ReLU, []),
    F.relu6: (nn.ReLU6, [("inplace", False)]),
    F.leaky_relu: (nn.LeakyReLU, [("negative_slope", 0.01), ("inplace", False)]),
    F.gelu: (nn.GELU, [("approximate", "none")]),
    F.silu: (nn.SiLU, [("inplace", False)]),
    F.hardswish: (nn.Hardswish, [("inplace", False)]),
    F.hardtanh: (nn.Hardtanh, [("min_val", -1.0), ("max_val", 1.0), ("inplace", False)]),
    torch.tanh: (nn.Tanh, []),
    F.tanh: (nn.Tanh, []),
    torch.sigmoid: (nn.Sigmoid, []),
    F.sigmoid: (nn.Sigmoid, []),
}
_ACTIVATION_METHODS = {"relu": nn.ReLU, "relu_": nn.ReLU, "tanh": nn.Tanh, "tanh_": nn.Tanh, "sigmoid": nn.Sigmoid,
                       "sigmoid_": nn.Sigmoid}


def _activation_of_call(node) -> Tuple[Optional[nn.Module], Optional[str]]:
    """The activation module a call_function / call_method node equals: (module, None); (None, reason) for a known
    activation it cannot take (arguments computed in the graph); (None, None) for anything else."""
    import torch.fx as fx

    if node.op == "call_method":
        cls = _ACTIVATION_METHODS.get(node.target)
        if cls is None:
            return None, None
        if len(node.args) != 1 or node.kwargs:
            return None, f"{node.target}() with arguments"
        return cls(), None
    if node.op != "call_function" or node.target not in _ACTIVATION_CALLS:
        return None, None
    cls, params = _ACTIVATION_CALLS[node.target]
    name = getattr(node.target, "__name__", str(node.target))
    if len(node.args) - 1 > len(params) or any(k not in dict(params) for k in node.kwargs):
        return None, f"{name} called with arguments it does not take"
    values = dict(params)
    values.update(zip([p for p, _ in params], node.args[1:]))
    values.update(node.kwargs)
    if any(isinstance(v, fx.Node) for v in values.values()):
        return None, f"{name} takes an argument computed in the graph"
    values.pop("inplace", None)
    return cls(**values), None


def _fuse_with_fx(model: nn.Module, report: OptimizeReport) -> nn.Module:
    """Fuses chains that are not inside a Sequential, through torch.fx; returns the model (a
    GraphModule when anything was fused)."""
    try:
        import torch.fx as fx
    except ImportError:  # pragma: no cover - torch without fx
        return model

    class _Tracer(fx.Tracer):
        def is_leaf_module(self, m, qualname):  # tconv's modules are opaque ops, like torch's own
            return isinstance(m, (*_TCONV_MODULES, GroupNormAppliedUpstream)) or super().is_leaf_module(m, qualname)

    try:
        graph = _Tracer().trace(model)
    except Exception as err:  # noqa: BLE001 - any tracing failure means "not traceable"
        has_chain_parts = any(isinstance(m, _CONV_TRANSPOSE) for m in model.modules()) and any(
            type(m) is nn.GroupNorm for m in model.modules())
        if has_chain_parts:
            report.skipped.append(("<model>", f"not traced by torch.fx ({type(err).__name__}: "
                                              f"{str(err).splitlines()[0][:120]}); only Sequential chains fused"))
        return model
    gm = fx.GraphModule(model, graph)
    modules = dict(gm.named_modules())

    def is_group_norm(n) -> bool:
        return n.op == "call_module" and type(modules.get(n.target)) is nn.GroupNorm

    changed = False
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(modules.get(node.target), (nn.ConvTranspose2d, nn.ConvTranspose3d)):
            continue
        if isinstance(modules[node.target], (ConvTransposeActGroupNorm2d, ConvTransposeActGroupNorm3d)):
            continue
        users = list(node.users)
        if len(users) != 1 or users[0].op not in ("call_module", "call_function", "call_method"):
            continue
        if is_group_norm(users[0]):
            act_node, norm_node = None, users[0]  # ConvTranspose -> GroupNorm: the identity activation
        else:
            act_node = users[0]
            act_users = list(act_node.users)
            if len(act_users) != 1 or not is_group_norm(act_users[0]):
                continue
            norm_node = act_users[0]
        if act_node is None:
            act = nn.Identity()
        elif act_node.op == "call_module":
            act = modules[act_node.target]
        else:
            act, why = _activation_of_call(act_node)
            if act is None:
                what = why or f"{getattr(act_node.target, '__name__', act_node.target)} is not a fusable activation"
                report.skipped.append((node.target, f"not fused: {what}"))
                continue
        conv, norm = modules[node.target], modules[norm_node.target]
        reason = fusion_refusal(conv, act, norm)
        if reason is not None:
            report.skipped.append((node.target, f"not fused: {reason}"))
            continue
        parent_name, _, child = node.target.rpartition(".")
        setattr(gm.get_submodule(parent_name) if parent_name else gm, child, fused_class_for(conv).fuse(conv, act, norm))
        norm_node.replace_all_uses_with(node)
        gm.graph.erase_node(norm_node)
        if act_node is not None:
            gm.graph.erase_node(act_node)
        report.fused.append((node.target, _chain_text(conv, act, norm)))
        changed = True
    if not changed:
        return model
    gm.graph.lint()
    gm.recompile()
    _restore_unreferenced_modules(gm, model)
    return gm


def _restore_unreferenced_modules(gm: nn.Module, model: nn.Module) -> None:
    """A GraphModule holds only the submodules, parameters and buffers its graph uses, in the order it met them, under
    new containers where a path passes through one. What it left out (a module forward does not call, a GroupNorm
    already passed through, a parameter nothing reads) goes back in under its name, and every container's entries
    follow the original order, so the state_dict keeps every key in the original order and parameters() lists the
    same tensors in the same order."""
    for name, module in model.named_modules():
        owner = gm.get_submodule(name) if name else gm  # named_modules lists a parent before its children
        # Only gm and the plain containers fx made along a path are partial; a module the graph calls (or the fused
        # module that replaced one) is whole.
        if owner is module or (owner is not gm and type(owner) is not nn.Module):
            continue
        for table in ("_modules", "_parameters", "_buffers"):
            theirs, ours = getattr(module, table), getattr(owner, table)
            for key, value in theirs.items():
                if key not in ours:
                    ours[key] = value
            ordered = [(key, ours[key]) for key in theirs] + [(k, v) for k, v in ours.items() if k not in theirs]
            ours.clear()
            ours.update(ordered)
        owner._non_persistent_buffers_set |= module._non_persistent_buffers_set


def _replace_convs(model: nn.Module, report: OptimizeReport) -> nn.Module:
    targets = []
    for name, module in model.named_modules():
        if not isinstance(module, _CONV_TRANSPOSE) or isinstance(module, _TCONV_MODULES):
            continue
        if type(module) not in _REPLACEMENTS:
            report.skipped.append((name or "<root>", f"{type(module).__name__} subclasses a ConvTranspose module "
                                                     "(its own forward is kept)"))
        elif module.padding_mode != "zeros":
            report.skipped.append((name or "<root>", f"padding_mode={module.padding_mode!r} "
                                                     "(ConvTranspose supports only 'zeros')"))
        else:
            targets.append(name)
    for name in targets:
        original = model.get_submodule(name)
        replacement = _REPLACEMENTS[type(original)].from_torch(original)
        if name == "":
            model = replacement
        else:
            parent_name, _, child = name.rpartition(".")
            setattr(model.get_submodule(parent_name), child, replacement)
        report.replaced.append((name or "<root>", f"{type(original).__name__} -> tconv.{type(replacement).__name__}"))
    return model


def optimize(model: nn.Module, inplace: bool = False, fuse: bool = True, verbose: bool = False):
    """Returns (optimized model, OptimizeReport). With inplace=False the model is deep-copied first
    (with inplace=True the model is modified, but a model fused through torch.fx is returned as a
    new GraphModule that shares its parameters)."""
    if not inplace:
        model = copy.deepcopy(model)
    report = OptimizeReport()
    if fuse:
        _fuse_sequentials(model, report)
        if not isinstance(model, nn.Sequential):
            model = _fuse_with_fx(model, report)
    model = _replace_convs(model, report)
    if verbose:
        print(report)
    return model, report
