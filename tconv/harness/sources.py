"""A digest of the code a benchmark ran (tconv's package and kernels, problems/ and solutions/), computed from the
files themselves. Why: the git metadata beside a tree copied to a GPU machine can be stale, and runs 9-10 and 170
recorded an older HEAD than the code they timed; a results file's `tconv_sources` names its code either way, and
`tconv digest --commit REV` says which commit it matches.
"""
import argparse
import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Iterable, List, Optional, Tuple

CODE_DIRS = ("tconv", "problems", "solutions")
CODE_SUFFIXES = (".py", ".cu", ".cuh", ".cpp", ".h")
REPO_ROOT = Path(__file__).resolve().parents[2]


def is_code(path: str) -> bool:
    """Whether a repository-relative POSIX path is part of the digest."""
    parts = path.split("/")
    return parts[0] in CODE_DIRS and path.endswith(CODE_SUFFIXES) and "__pycache__" not in parts


def digest_of(files: Iterable[Tuple[str, bytes]]) -> str:
    """16 hex digits over (path, content) pairs, independent of their order."""
    total = hashlib.sha256()
    for path, content in sorted(files):
        total.update(path.encode() + b"\0" + hashlib.sha256(content).digest())
    return total.hexdigest()[:16]


def tree_digest(root: Path = REPO_ROOT) -> Optional[str]:
    """The digest of the code files under root; None where root has none of CODE_DIRS (an installed package)."""
    root = Path(root)
    if not (root / "tconv").is_dir():
        return None
    files: List[Tuple[str, bytes]] = []
    for folder in CODE_DIRS:
        for path in sorted((root / folder).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and is_code(relative):
                files.append((relative, path.read_bytes()))
    return digest_of(files)


def git_command(root: Path) -> List[str]:
    """git run on the repository at root; safe.directory: a copy owned by another user is still that checkout."""
    return ["git", "-c", f"safe.directory={root}", "-C", str(root)]


def commit_digest(commit: str, root: Path = REPO_ROOT) -> str:
    """The digest of the code files of a commit of the repository at root (git must know the commit)."""
    git = git_command(root)
    listing = subprocess.run(git + ["ls-tree", "-r", "--name-only", commit, "--", *CODE_DIRS], capture_output=True,
                             text=True, check=True).stdout.splitlines()
    files = [(path, subprocess.run(git + ["show", f"{commit}:{path}"], capture_output=True, check=True).stdout)
             for path in listing if is_code(path)]
    return digest_of(files)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tconv digest", description=__doc__.splitlines()[0])
    parser.add_argument("--commit", help="digest this commit's files instead of the working tree's")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="repository root (default: this checkout)")
    args = parser.parse_args(argv)
    if args.commit:
        try:
            print(commit_digest(args.commit, args.root))
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"tconv digest: cannot read commit {args.commit!r} under {args.root}: {error}", file=sys.stderr)
            return 2
        return 0
    digest = tree_digest(args.root)
    if digest is None:
        print(f"tconv digest: no tconv/ folder under {args.root}", file=sys.stderr)
        return 2
    print(digest)
    return 0
