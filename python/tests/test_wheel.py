"""The wheel ``scripts/build-wheel`` makes works where no build tool is: installed into a fresh
virtual environment whose PATH holds that environment alone (no cargo, cmake or compiler), it
runs the README's Python quick start, the console script's ``solve`` on HiGHS and on CBC
(their worker processes), and ``pip check``; its extension module and every library it loads
resolve, with ``LD_LIBRARY_PATH`` empty, to the wheel's own copies or to the C and C++
runtimes and zlib every manylinux system has, so no system CBC is needed.

``scripts/test`` sets ``MILPTREE_WHEEL`` to the wheel it built; without it (a development
build, ``MILPTREE_PYTHON_BUILD=dev``) these tests are skipped."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WHEEL = os.environ.get("MILPTREE_WHEEL")
BUILD_TOOLS = ("cargo", "rustc", "cmake", "cc", "gcc", "g++", "c++", "clang", "ld")
# The libraries every manylinux system provides (the C and C++ runtimes and zlib, as
# auditwheel's manylinux policies list them), which the wheel may take from the system.
SYSTEM_LIBRARIES = re.compile(
    r"^(linux-vdso|ld-linux[^ ]*|libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|libz)\.so"
)

pytestmark = pytest.mark.skipif(
    not WHEEL, reason="MILPTREE_WHEEL is not set (scripts/test sets it to the wheel it built)"
)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh virtual environment with the wheel installed, the environment variables of a
    machine without build tools, and the seconds the install took."""
    home = tmp_path_factory.mktemp("wheel-env")
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / "bin"
    env = {
        "PATH": str(bin_dir),
        "HOME": os.environ.get("HOME", str(home)),
        "LD_LIBRARY_PATH": "",
        "LANG": "C.UTF-8",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    for name in ("PIP_INDEX_URL", "PIP_CERT", "PIP_FIND_LINKS", "SSL_CERT_FILE"):
        if name in os.environ:
            env[name] = os.environ[name]
    started = time.perf_counter()
    subprocess.run([str(bin_dir / "pip"), "install", "--quiet", WHEEL], check=True, env=env)
    seconds = time.perf_counter() - started
    print(f"\nwheel: pip install took {seconds:.1f} s")
    return venv, env, seconds


def run(command, env, cwd=None):
    return subprocess.run(
        [str(c) for c in command], env=env, cwd=cwd, capture_output=True, text=True
    )


def test_the_environment_has_no_build_tool(installed):
    _, env, _ = installed
    found = {tool: shutil.which(tool, path=env["PATH"]) for tool in BUILD_TOOLS}
    assert not any(found.values()), found


def test_the_quick_start_runs_from_the_wheel(installed, tmp_path):
    venv, env, install_seconds = installed
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Python quick start", 1)[1]
    example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    started = time.perf_counter()
    done = run([venv / "bin" / "python", "-c", example], env, cwd=tmp_path)
    seconds = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True "), done.stdout
    assert (tmp_path / "iris-tree.json").exists()
    print(f"\nwheel: install {install_seconds:.1f} s + quick start {seconds:.1f} s")


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_the_console_script_solves_with_each_solver(installed, solver, tmp_path):
    venv, env, _ = installed
    done = run(
        [venv / "bin" / "milptree", "solve", ROOT / "datasets" / "iris.csv", "--formulation",
         "oct", "--depth", "1", "--solver", solver, "--json", "--quiet", "--certify", "off"],
        env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["solver"] == solver
    assert report["termination"] == "optimal"
    # Iris's optimal depth-1 tree splits off setosa: 50 errors of 150, over the baseline's 100.
    assert report["errors"] == 50
    assert report["objective"] == pytest.approx(0.5)


def test_pip_check_passes(installed):
    venv, env, _ = installed
    done = run([venv / "bin" / "pip", "check"], env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_library_resolves_inside_the_wheel_or_the_c_runtime(installed):
    venv, env, _ = installed
    site = next((venv / "lib").glob("python3*/site-packages"))
    extensions = list((site / "milptree").glob("_core*.so"))
    assert len(extensions) == 1, extensions
    done = run(["/usr/bin/ldd", extensions[0]], env)
    assert done.returncode == 0, done.stderr
    resolved = {}
    for line in done.stdout.splitlines():
        match = re.match(r"\s*(\S+)(?: => (\S+))?", line)
        resolved[match.group(1)] = match.group(2)
    assert not [name for name, path in resolved.items() if path == "not"], done.stdout
    bundled = {name: path for name, path in resolved.items()
               if path and pathlib.Path(path).resolve().is_relative_to(site.resolve())}
    foreign = {name: path for name, path in resolved.items()
               if name not in bundled and not SYSTEM_LIBRARIES.match(pathlib.Path(name).name)}
    assert not foreign, f"libraries taken from the system:\n{done.stdout}"
    assert any(name.startswith("libCbc") for name in bundled), done.stdout
    assert any(name.startswith("libCoinUtils") for name in bundled), done.stdout
