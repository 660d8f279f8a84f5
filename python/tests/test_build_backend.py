"""The sdist's build backend (python/build_backend/milptree_build.py) names what a source build
lacks (cmake, a C++ compiler, pkg-config and CBC's development files) before maturin starts,
and ends with exit code 1 and that message; run here with a PATH that holds none of them."""

import importlib
import pathlib
import sys
import types

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
HOOKS = ("build_editable", "build_sdist", "build_wheel", "get_requires_for_build_editable",
         "get_requires_for_build_sdist", "get_requires_for_build_wheel",
         "prepare_metadata_for_build_editable", "prepare_metadata_for_build_wheel")


@pytest.fixture
def backend(monkeypatch, tmp_path):
    """The backend module over a stand-in maturin that records the builds it is asked for,
    with an empty directory as the PATH."""
    built = []
    maturin = types.ModuleType("maturin")
    for hook in HOOKS:
        setattr(maturin, hook, lambda *args, _hook=hook, **kwargs: built.append(_hook))
    monkeypatch.setitem(sys.modules, "maturin", maturin)
    monkeypatch.syspath_prepend(str(ROOT / "python" / "build_backend"))
    monkeypatch.setenv("PATH", str(tmp_path))
    for name in ("CXX", "CMAKE", "PKG_CONFIG", "MILPTREE_SKIP_BUILD_CHECK", "MATURIN_PEP517_ARGS"):
        monkeypatch.delenv(name, raising=False)
    sys.modules.pop("milptree_build", None)
    module = importlib.import_module("milptree_build")
    yield module, built
    sys.modules.pop("milptree_build", None)


def test_a_build_without_the_tools_is_refused_naming_each(backend, capsys):
    module, built = backend
    with pytest.raises(SystemExit) as stop:
        module.build_wheel("out")
    assert stop.value.code == 1
    message = capsys.readouterr().err
    assert message.startswith("milptree: building from source needs what this machine lacks:")
    for needed in ("cmake", "a C++ compiler", "pkg-config", "--only-binary milptree"):
        assert needed in message, message
    assert built == []


def test_without_the_cbc_feature_cbc_is_not_asked_for(backend):
    module, _ = backend
    found = module.missing({"build-args": "--profile dev --no-default-features"})
    assert [item.split()[0] for item in found] == ["cmake", "a"]


def test_the_check_can_be_skipped(backend, monkeypatch):
    module, built = backend
    monkeypatch.setenv("MILPTREE_SKIP_BUILD_CHECK", "1")
    module.build_wheel("out")
    assert built == ["build_wheel"]
