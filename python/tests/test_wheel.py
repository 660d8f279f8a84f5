"""The wheel ``scripts/build-wheel`` makes works where no build tool is: installed into a fresh
virtual environment whose PATH holds that environment alone (no cargo, cmake or compiler), it
runs the README's Python quick start, the console script's ``solve`` on HiGHS (its worker
process), and ``pip check``; its extension module and every library it loads resolve, with
``LD_LIBRARY_PATH`` empty, to the C and C++ runtimes every manylinux system has. The wheel is
tagged manylinux_2_28 or older, and ``auditwheel show`` agrees. It carries HiGHS only: CBC, by
the console script's ``--solver cbc`` and the estimator's ``solver="cbc"``, is refused by name
with the remedy.

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
# The newest glibc the wheel may need: scripts/build-wheel builds for manylinux_2_17
# (manylinux2014: CentOS/RHEL 7 and newer); 2.28 is the least this package promises.
NEWEST_GLIBC = (2, 28)
# The virtual environment scripts/build-wheel runs auditwheel from.
BUILD_VENV = pathlib.Path(os.environ.get("MILPTREE_BUILD_VENV", ROOT / "target" / "build-venv"))
# The first line of the refusal of CBC by a milptree without it, and its remedy.
CBC_REFUSAL = "CBC is not built into this milptree"
CBC_REMEDY = "pip install milptree --no-binary milptree"
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


def solve_iris(venv, env, cwd, solver):
    return run(
        [venv / "bin" / "milptree", "solve", ROOT / "datasets" / "iris.csv", "--formulation",
         "oct", "--depth", "1", "--solver", solver, "--json", "--quiet", "--certify", "off"],
        env,
        cwd=cwd,
    )


def test_the_console_script_solves_with_highs(installed, tmp_path):
    venv, env, _ = installed
    done = solve_iris(venv, env, tmp_path, "highs")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["solver"] == "highs"
    assert report["termination"] == "optimal"
    # Iris's optimal depth-1 tree splits off setosa: 50 errors of 150, over the baseline's 100.
    assert report["errors"] == 50
    assert report["objective"] == pytest.approx(0.5)


def test_the_console_script_refuses_cbc_by_name_with_the_remedy(installed, tmp_path):
    venv, env, _ = installed
    done = solve_iris(venv, env, tmp_path, "cbc")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert CBC_REFUSAL in done.stderr and CBC_REMEDY in done.stderr, done.stderr
    assert "--solver" in done.stderr, done.stderr


def test_the_estimator_refuses_cbc_with_a_value_error(installed, tmp_path):
    venv, env, _ = installed
    code = (
        "from sklearn.datasets import load_iris\n"
        "from milptree import OptimalTreeClassifier\n"
        "X, y = load_iris(return_X_y=True)\n"
        "try:\n"
        "    OptimalTreeClassifier(method='oct', max_depth=1, solver='cbc').fit(X, y)\n"
        "except ValueError as error:\n"
        "    print(error)\n"
    )
    done = run([venv / "bin" / "python", "-c", code], env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    message = done.stdout.strip()
    assert message.startswith("invalid solver: " + CBC_REFUSAL), message
    assert CBC_REMEDY in message and "\n" not in message, message


def wheel_glibc(text):
    """The glibc versions of the manylinux tags in ``text`` (a wheel's name, auditwheel's
    output): ``manylinux_2_28`` and ``manylinux2014`` (2.17) alike."""
    legacy = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}
    found = [(int(a), int(b)) for a, b in re.findall(r"manylinux_(\d+)_(\d+)", text)]
    found += [legacy["manylinux" + year] for year in re.findall(r"manylinux(1|2010|2014)_", text)]
    return found


def test_the_wheel_is_tagged_manylinux_2_28_or_older():
    name = pathlib.Path(WHEEL).name
    assert name.endswith("_x86_64.whl"), name
    tags = wheel_glibc(name)
    assert tags and max(tags) <= NEWEST_GLIBC, name


def test_auditwheel_finds_manylinux_2_28_or_older():
    auditwheel = BUILD_VENV / "bin" / "auditwheel"
    if not auditwheel.exists():
        pytest.skip(f"no auditwheel in {BUILD_VENV} (scripts/build-wheel installs it)")
    done = subprocess.run([str(auditwheel), "show", WHEEL], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    # "... is consistent with the following platform tag: "manylinux_2_28_x86_64"."
    policy = re.search(r'consistent with the following platform tag: "([^"]+)"', text)
    assert policy, done.stdout
    glibc = wheel_glibc(policy.group(1))
    assert glibc and max(glibc) <= NEWEST_GLIBC, done.stdout


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
    # HiGHS and zig's C++ runtime are linked in: no library of CBC or HiGHS is loaded.
    assert not [name for name in resolved if re.match(r"lib(Cbc|Clp|Coin|Osi|Cgl|highs)", name)], (
        done.stdout
    )
