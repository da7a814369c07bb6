"""Command line: python -m tconv {info,build,verify,bench,summary,digest} (also installed as `tconv`)."""
import argparse
import os
import sys


def _info() -> int:
    import platform

    import torch

    from . import __version__, _build, _ops

    print(f"tconv        {__version__}")
    print(f"python       {platform.python_version()}")
    print(f"torch        {torch.__version__}")
    print(f"CUDA (torch) {torch.version.cuda}")
    cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    print(f"cuDNN        {cudnn}")
    if torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            major, minor = torch.cuda.get_device_capability(i)
            print(f"GPU {i}        {torch.cuda.get_device_name(i)} (sm_{major}{minor})")
    else:
        print("GPU          none (CUDA kernels unavailable; CPU tensors run PyTorch's implementation)")
    print(f"arch list    {';'.join(_build.arch_list())} (TORCH_CUDA_ARCH_LIST, default {_build.DEFAULT_ARCH_LIST})")
    library = _build.built_library()
    if library is None:
        print("extension    not built yet (built on first CUDA use, or: python -m tconv build)")
    else:
        print(f"extension    {library}")
        if torch.cuda.is_available():
            ext = _build.load()
            print(f"archs built  {ext.compiled_arch_list()}")
            print(f"SASS in use  sm_{ext.kernel_binary_version(torch.cuda.current_device())} on GPU "
                  f"{torch.cuda.current_device()}")
    if _ops.USE_TORCH_LIBRARY:
        print(f"ops          {', '.join(_ops.registered_ops())} (torch.library, fake kernels, autograd)")
    else:
        print("ops          autograd.Function path (torch.library custom-op API unavailable or disabled)")
    return 0


def _build_cmd(verbose: bool, break_lock: bool = False) -> int:
    import torch

    from . import _build

    if break_lock:
        # torch's extension builder waits forever on the lock file a killed build leaves in the build directory
        # (run 309 waited on one until its device call's limit); only for callers that know no build is running.
        lock = os.path.join(_build.build_directory(), "lock")
        if os.path.exists(lock):
            os.remove(lock)
            print(f"tconv build: removed a stale lock ({lock})", file=sys.stderr)
    if torch.version.cuda is None:
        print("tconv build: this torch has no CUDA support; nothing to build", file=sys.stderr)
        return 2
    ext = _build.load(verbose=verbose)
    print(f"tconv build: ok ({_build.built_library()}; archs {ext.compiled_arch_list()})")
    return 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="tconv", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("info", help="versions, GPU, built archs, registered ops")
    build = sub.add_parser("build", help="compile the CUDA extension ahead of time")
    build.add_argument("--verbose", action="store_true")
    build.add_argument("--break-lock", action="store_true",
                       help="first delete the build directory's lock, left by a killed build (no build may be running)")
    sub.add_parser("verify", help="verify a solution against its problem (see: tconv verify -h)", add_help=False)
    sub.add_parser("bench", help="benchmark problems (see: tconv bench -h)", add_help=False)
    sub.add_parser("summary", help="suite geomeans of tconv bench results files (see: tconv summary -h)",
                   add_help=False)
    sub.add_parser("digest", help="digest of the code files, as tconv bench records it (see: tconv digest -h)",
                   add_help=False)
    if argv and argv[0] in ("verify", "bench", "summary", "digest"):
        from .harness import bench, sources, summary, verify

        return {"verify": verify, "bench": bench, "summary": summary, "digest": sources}[argv[0]].main(argv[1:])
    args = parser.parse_args(argv)
    if args.command == "info":
        return _info()
    return _build_cmd(args.verbose, args.break_lock)


if __name__ == "__main__":
    sys.exit(main())
