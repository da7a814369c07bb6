"""tconv bench's code digest (tconv/harness/sources.py): computed from the files, so a results file names the code
it timed even where the git metadata beside a copied tree is stale (run 170 recorded an older HEAD). The digest of a
working tree equals that of the commit it checks out, changes with any code file, and ignores other files."""
import subprocess
from pathlib import Path

import pytest

from tconv.__main__ import main as tconv_main
from tconv.harness import sources


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def repo(tmp_path):
    try:
        _git(tmp_path, "init", "-q")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git is not available")
    (tmp_path / "tconv" / "csrc").mkdir(parents=True)
    (tmp_path / "tconv" / "__init__.py").write_text("x = 1\n")
    (tmp_path / "tconv" / "csrc" / "kernel.cu").write_text("__global__ void k() {}\n")
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "p.py").write_text("batch_size = 2\n")
    (tmp_path / "README.md").write_text("not code\n")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first")
    return tmp_path


def test_tree_digest_matches_its_commit_and_tracks_code_files(repo):
    first = sources.tree_digest(repo)
    assert len(first) == 16 and first == sources.commit_digest("HEAD", repo)
    (repo / "README.md").write_text("still not code\n")
    (repo / "tconv" / "__pycache__").mkdir()
    (repo / "tconv" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    assert sources.tree_digest(repo) == first  # docs and caches are not code
    (repo / "tconv" / "csrc" / "kernel.cu").write_text("__global__ void k() { }\n")
    second = sources.tree_digest(repo)
    assert second != first
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "second")
    assert sources.commit_digest("HEAD", repo) == second and sources.commit_digest("HEAD~1", repo) == first
    (repo / "solutions").mkdir()
    (repo / "solutions" / "p.py").write_text("class ModelNew: pass\n")  # a new, untracked code file counts too
    assert sources.tree_digest(repo) != second


def test_digest_is_independent_of_file_order():
    files = [("tconv/a.py", b"a"), ("tconv/b.cu", b"b")]
    assert sources.digest_of(files) == sources.digest_of(files[::-1])
    assert sources.digest_of(files) != sources.digest_of([("tconv/a.py", b"b"), ("tconv/b.cu", b"a")])


def test_no_tconv_folder_gives_none(tmp_path):
    assert sources.tree_digest(tmp_path) is None


def test_digest_command(repo, capsys):
    assert tconv_main(["digest", "--root", str(repo)]) == 0
    assert capsys.readouterr().out.strip() == sources.tree_digest(repo)
    assert tconv_main(["digest", "--root", str(repo), "--commit", "HEAD"]) == 0
    assert capsys.readouterr().out.strip() == sources.commit_digest("HEAD", repo)
    assert tconv_main(["digest", "--root", str(repo), "--commit", "no-such-commit"]) == 2
    assert "cannot read commit" in capsys.readouterr().err
