"""Every public name of the package has a numpydoc docstring: each function, class, method and
property of the public modules, checked by numpydoc's own validator (a summary, every
parameter described and none that is not one, a Returns section where a value is returned);
each module-level constant with a docstring after it; and the extension module's type stubs
(``_core.pyi``) name exactly what the compiled module has, each with a docstring."""

import ast
import importlib
import inspect
import pathlib

import pytest
from numpydoc.validate import validate

import milptree
from milptree import _core

PACKAGE = pathlib.Path(milptree.__file__).parent
MODULES = [
    "milptree",
    "milptree.estimator",
    "milptree.export",
    "milptree.pareto",
    "milptree.plot",
    "milptree.tree_structure",
]
# numpydoc's checks that every docstring passes: GL08 no docstring, SS01 no summary, SS03 a
# summary without a full stop, PR01 a parameter not described, PR02 a described parameter that
# is not one, PR07 a parameter without a description, RT01 no Returns section where a value is
# returned, RT03 a return value without a description.
CHECKS = {"GL08", "SS01", "SS03", "PR01", "PR02", "PR07", "RT01", "RT03"}


def public_names():
    """The import paths of the public functions, classes, methods and properties."""
    names = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        exported = getattr(module, "__all__", None) or [
            n for n in vars(module) if not n.startswith("_")
        ]
        for name in exported:
            value = getattr(module, name)
            if not (inspect.isfunction(value) or inspect.isclass(value)):
                continue
            if value.__module__ != module_name:
                continue  # documented where it is defined
            names.append(f"{module_name}.{name}")
            if inspect.isclass(value):
                for member, attribute in vars(value).items():
                    if not member.startswith("_") and (
                        inspect.isfunction(attribute) or isinstance(attribute, property)
                    ):
                        names.append(f"{module_name}.{name}.{member}")
    return names


NAMES = public_names()


def test_the_public_names_are_found():
    assert "milptree.estimator.OptimalTreeClassifier.fit" in NAMES
    assert "milptree.pareto.pareto_front" in NAMES
    assert "milptree.plot.plot_tree" in NAMES
    assert "milptree.estimator.load_tree" in NAMES
    assert "milptree.export.export_text" in NAMES
    assert "milptree.estimator.OptimalTreeClassifier.to_html" in NAMES
    assert "milptree.tree_structure.TreeStructure.compute_feature_importances" in NAMES


def test_every_exported_name_resolves_to_a_documented_object():
    for name in milptree.__all__:
        value = getattr(milptree, name)
        if name == "__version__":
            assert isinstance(value, str)
        else:
            assert inspect.getdoc(value), name


@pytest.mark.parametrize("name", NAMES)
def test_a_public_name_has_a_numpydoc_docstring(name):
    errors = [f"{code} {message}" for code, message in validate(name)["errors"] if code in CHECKS]
    assert not errors, f"{name}:\n" + "\n".join(errors)


def documented_assignments(tree):
    """The module-level names assigned in ``tree``, each with whether a string follows it."""
    found = {}
    body = tree.body
    for index, node in enumerate(body):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            following = body[index + 1] if index + 1 < len(body) else None
            documented = (
                isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            )
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = documented
    return found


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_constant_has_a_docstring(module_name):
    module = importlib.import_module(module_name)
    tree = ast.parse(pathlib.Path(module.__file__).read_text())
    undocumented = [
        name
        for name, documented in documented_assignments(tree).items()
        if not name.startswith("_") and name != "__all__" and not documented
    ]
    assert not undocumented, undocumented


def stub_names(node):
    """The public names a stub module or class defines, each with whether it has a docstring."""
    names = {}
    for child in node.body:
        if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
            names[child.name] = ast.get_docstring(child) is not None
    names.update(
        {k: v for k, v in documented_assignments(node).items()} if isinstance(node, ast.Module)
        else {}
    )
    return {name: documented for name, documented in names.items()
            if not name.startswith("_") or name == "__version__"}


def runtime_names(value):
    return {n for n in dir(value) if not n.startswith("_")}


def test_the_stubs_name_what_the_extension_module_has():
    stub = ast.parse((PACKAGE / "_core.pyi").read_text())
    names = stub_names(stub)
    assert set(names) == runtime_names(_core) | {"__version__"}
    assert all(names.values()), [n for n, documented in names.items() if not documented]
    tree_class = next(c for c in stub.body if isinstance(c, ast.ClassDef) and c.name == "Tree")
    assert ast.get_docstring(tree_class)
    members = stub_names(tree_class)
    assert set(members) == runtime_names(_core.Tree)
    assert all(members.values()), [n for n, documented in members.items() if not documented]


def test_the_package_is_typed():
    assert (PACKAGE / "py.typed").exists()
