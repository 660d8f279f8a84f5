"""The build backend of the sdist and of ``pip install .``: maturin's, after a check that the
tools a source build needs are there, so that a missing one is one message naming it and what
to install (or to use a wheel), not the end of a compiler's output.

Checked: cmake and a C++ compiler (HiGHS is compiled from source), pkg-config and CBC's
development files when the ``cbc`` feature is on (the default; ``--no-default-features`` in
the build arguments turns it off). Rust is maturin's own check (it installs a temporary Rust
toolchain when cargo is missing). ``MILPTREE_SKIP_BUILD_CHECK=1`` skips the check."""

import os
import shutil
import subprocess
import sys

from maturin import (  # noqa: F401  (the hooks this backend passes on unchanged)
    build_editable as _build_editable,
    build_sdist,
    build_wheel as _build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

REMEDY = (
    "or install a milptree wheel instead (pip install milptree --only-binary milptree; "
    "the wheels carry HiGHS but not CBC)"
)


def _cbc_on(config_settings):
    args = (config_settings or {}).get("build-args", "")
    if isinstance(args, (list, tuple)):
        args = " ".join(args)
    extra = os.environ.get("MATURIN_PEP517_ARGS", "")
    return "--no-default-features" not in f"{args} {extra}".split()


def _compiler(names):
    return any(shutil.which(name.split()[0]) for name in names if name)


def missing(config_settings=None):
    """What a source build needs and this machine lacks, each with what to install."""
    found = []
    if not shutil.which(os.environ.get("CMAKE", "cmake")):
        found.append("cmake (Debian/Ubuntu: apt-get install cmake; or pip install cmake)")
    if not _compiler([os.environ.get("CXX", ""), "c++", "g++", "clang++"]):
        found.append("a C++ compiler (Debian/Ubuntu: apt-get install g++)")
    if _cbc_on(config_settings):
        pkg_config = shutil.which(os.environ.get("PKG_CONFIG", "pkg-config"))
        if not pkg_config:
            found.append("pkg-config (Debian/Ubuntu: apt-get install pkg-config)")
        elif subprocess.run([pkg_config, "--exists", "cbc"]).returncode != 0:
            found.append(
                "CBC's development files (Debian/Ubuntu: apt-get install coinor-libcbc-dev; "
                "Homebrew: brew install cbc), or build without CBC: "
                "--config-settings=build-args=--no-default-features"
            )
    return found


def _check(config_settings):
    if os.environ.get("MILPTREE_SKIP_BUILD_CHECK"):
        return
    found = missing(config_settings)
    if found:
        lines = "\n".join(f"  - {item}" for item in found)
        sys.stderr.write(
            f"milptree: building from source needs what this machine lacks:\n{lines}\n"
            f"Install it and build again, {REMEDY}.\n"
        )
        raise SystemExit(1)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _check(config_settings)
    return _build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _check(config_settings)
    return _build_editable(wheel_directory, config_settings, metadata_directory)
