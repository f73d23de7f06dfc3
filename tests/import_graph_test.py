"""
The import graph of `fewshot_parser`: no cycle, no import from a lower layer into a higher one, and
AllenNLP patched in one module only.

Layers, bottom to top. A module may import modules of its own layer and of the layers below it:

    0. the package-root helpers `config_defaults`, `offline`, `startup_warnings`, `version`
       (standard library only; the package `__init__` runs them before anything else)
    1. `common`          bookkeeping shared by everything: errors, safe I/O, provenance, archives
    2. `logical_forms`   LF trees, templates, actions and the transition system (plain Python)
    3. `data`            reading files, vocabulary namespaces, readers, data loaders, augmentation
    4. `modules`         the neural pieces the models are built from
    5. `models`          the registered models and their metric
    6. `predictors`
    7. `training`        TrainModels, trainers, callbacks, schedulers
    8. `serving`         the served parser's state, teaching jobs, HTTP API and page (`allennlp serve`)
    9. `commands`        subcommands, the grid driver and report, and `cli_behaviour`
    10. the package itself (`fewshot_parser/__init__.py`, `__main__.py`), which imports every layer so
       that importing it registers every component

The graph is read from the source with `ast`, without importing anything: every `import` and
`from ... import` of a module of the package is an edge, wherever it is (module level, inside a
function or under `TYPE_CHECKING`). Two kinds of statement are left out:

* an import under `if __name__ == "__main__":`, which runs only when the file is run as a script,
  never when it is imported, so it cannot take part in an import cycle;
* the parent packages that Python imports before a module (`a/__init__.py` before `a/b.py`). Were
  they counted, every module would import the package `__init__`, which imports every layer. They
  are safe to leave out because a package `__init__` may import only modules of its own package
  (`test_a_package_init_imports_only_its_own_package`).

`from a import b` names the module `a.b` when there is one, and the module (or package) `a`
otherwise.

AllenNLP is patched (an attribute of one of its modules or classes assigned, deleted or `setattr`)
only in `PATCH_MODULE`, whose `install_cli_behaviour` the package `__init__` calls, and where
`ALLOWED_PATCHES` says why; any other module may only register its classes.
"""
import ast
import os
import textwrap
from typing import Dict, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple

from tests import PROJECT_ROOT

PACKAGE = "fewshot_parser"

# Bottom to top, as in the module docstring.
LAYERS: Tuple[str, ...] = ("root helpers", "common", "logical_forms", "data", "modules", "models", "predictors",
                           "training", "serving", "commands", "package")
ROOT_HELPERS = ("config_defaults", "offline", "startup_warnings", "version")

# Imports allowed to run from a lower layer to a higher one: (importer, imported) -> why. None today.
ALLOWED_UPWARD: Dict[Tuple[str, str], str] = {}

# The one module allowed to patch AllenNLP (docs/errors.md lists what it changes, and why).
PATCH_MODULE = f"{PACKAGE}.commands.cli_behaviour"
# Patches allowed elsewhere: (module, patched attribute) -> why.
ALLOWED_PATCHES: Dict[Tuple[str, str], str] = {
    (f"{PACKAGE}.commands.teach", "common_logging.prepare_global_logging"):
        "quiet_console, only while `allennlp teach` trains, restored on exit; nothing at import",
}
PATCHED_LIBRARIES = ("allennlp", "allennlp_models")


class Import(NamedTuple):
    importer: str
    imported: str
    path: str  # the importer's file, relative to the project root
    line: int
    in_function: bool


def module_files(root: str, package: str = PACKAGE) -> Dict[str, str]:
    """Dotted module name -> file path relative to `root`, for every `.py` file of `package`."""
    found = {}
    for directory, subdirectories, files in os.walk(os.path.join(root, package)):
        subdirectories[:] = sorted(d for d in subdirectories if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                relative = os.path.relpath(os.path.join(directory, name), root)
                dotted = relative[: -len(".py")].replace(os.sep, ".")
                found[dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted] = relative
    return found


def _is_main_guard(node: ast.AST) -> bool:
    """`if __name__ == "__main__":`"""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare) or len(node.test.comparators) != 1:
        return False
    left, right = node.test.left, node.test.comparators[0]
    return (isinstance(left, ast.Name) and left.id == "__name__" and isinstance(right, ast.Constant)
            and right.value == "__main__")


def _import_nodes(tree: ast.Module) -> Iterator[Tuple[ast.AST, bool]]:
    """Every import statement of a module but those under a `__main__` guard, with whether it is inside a function."""

    def walk(node: ast.AST, in_function: bool) -> Iterator[Tuple[ast.AST, bool]]:
        for child in ast.iter_child_nodes(node):
            if _is_main_guard(child):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            yield from walk(child, inside)

    yield from walk(tree, False)


def _imported_names(node: ast.AST, module: str, is_package: bool, modules: Dict[str, str]) -> List[str]:
    """The modules of the package an import statement names."""
    if isinstance(node, ast.Import):
        candidates = [alias.name for alias in node.names]
    else:
        assert isinstance(node, ast.ImportFrom)
        if node.level:  # relative: against the importer's package
            parts = module.split(".") if is_package else module.split(".")[:-1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join(parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        candidates = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
    names = []
    for candidate in candidates:
        # `import a.b.c` where c is a function is not valid Python; still, fall back to the longest module prefix.
        parts = candidate.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        if parts and ".".join(parts) not in names:
            names.append(".".join(parts))
    return names


def import_graph(root: str = PROJECT_ROOT, package: str = PACKAGE) -> Tuple[Dict[str, str], List[Import]]:
    """The modules of the package (name -> path) and every import of one of them by another."""
    modules = module_files(root, package)
    imports = []
    for module, path in modules.items():
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), filename=path)
        for node, in_function in _import_nodes(tree):
            for imported in _imported_names(node, module, path.endswith("__init__.py"), modules):
                if imported != module:
                    imports.append(Import(module, imported, path, node.lineno, in_function))
    return modules, imports


def layer_of(module: str, package: str = PACKAGE) -> Optional[int]:
    """The index in `LAYERS` of a module of the package; None when the module belongs to no layer."""
    if module in (package, f"{package}.__main__"):
        return LAYERS.index("package")
    parts = module.split(".")
    if len(parts) == 2 and parts[1] in ROOT_HELPERS:
        return LAYERS.index("root helpers")
    if len(parts) >= 2 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return None


def upward_imports(imports: Sequence[Import], package: str = PACKAGE) -> List[Import]:
    """The imports from a module into a module of a higher layer."""
    return [i for i in imports if (layer_of(i.importer, package) or 0) < (layer_of(i.imported, package) or 0)]


def _edges(imports: Sequence[Import]) -> Dict[str, Dict[str, Import]]:
    edges: Dict[str, Dict[str, Import]] = {}
    for found in imports:
        edges.setdefault(found.importer, {}).setdefault(found.imported, found)
    return edges


def cyclic_components(imports: Sequence[Import]) -> List[List[str]]:
    """The strongly connected components of the graph with more than one module (Tarjan's, iteratively)."""
    edges = _edges(imports)
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    components: List[List[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges.get(successor, {})))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return sorted(components)


def cycles(imports: Sequence[Import]) -> List[List[Import]]:
    """One cycle (the list of its imports) through the first module of each cyclic component."""
    edges = _edges(imports)
    components = cyclic_components(imports)
    found_cycles = []
    for component in components:
        members = set(component)
        # The shortest way back to the component's first module, by breadth-first search inside it.
        first = component[0]
        previous: Dict[str, str] = {}
        frontier = [first]
        while frontier and first not in previous:
            following = []
            for node in frontier:
                for successor in sorted(edges.get(node, {})):
                    if successor in members and successor not in previous:
                        previous[successor] = node
                        following.append(successor)
            frontier = following
        path = [first]
        while len(path) == 1 or path[-1] != first:
            path.append(previous[path[-1]])
        path.reverse()
        found_cycles.append([edges[a][b] for a, b in zip(path, path[1:])])
    return found_cycles


def patches(root: str = PROJECT_ROOT, package: str = PACKAGE) -> List[Tuple[str, int, str]]:
    """
    `(module, line, target)` for every statement that assigns, deletes or `setattr`s an attribute of
    something imported from AllenNLP: a name bound by an import of `PATCHED_LIBRARIES`, or a loop
    variable running over such names.
    """
    found = []
    for module, path in module_files(root, package).items():
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), filename=path)
        bound: Set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                bound.update(alias.asname or alias.name.split(".")[0] for alias in node.names
                             if alias.name.split(".")[0] in PATCHED_LIBRARIES)
            elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] \
                    in PATCHED_LIBRARIES:
                bound.update(alias.asname or alias.name for alias in node.names)
        for node in ast.walk(tree):  # `for module in (archival, predict): module.x = ...`
            if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name) \
                    and isinstance(node.iter, (ast.Tuple, ast.List)) \
                    and any(isinstance(e, ast.Name) and e.id in bound for e in node.iter.elts):
                bound.add(node.target.id)

        def root_name(expression: ast.AST) -> Optional[str]:
            while isinstance(expression, (ast.Attribute, ast.Subscript)):
                expression = expression.value
            return expression.id if isinstance(expression, ast.Name) else None

        for node in ast.walk(tree):
            targets: List[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = list(node.targets)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("setattr", "delattr") and node.args and root_name(node.args[0]) in bound:
                found.append((module, node.lineno, ast.unparse(node)))
            for target in targets:
                for element in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                    if isinstance(element, ast.Attribute) and root_name(element) in bound:
                        found.append((module, node.lineno, ast.unparse(element)))
    return found


def _where(found: Import) -> str:
    return f"{found.path}:{found.line}{' (in a function)' if found.in_function else ''}"


def _layer_name(module: str) -> str:
    layer = layer_of(module)
    return "no layer" if layer is None else LAYERS[layer]


def test_every_module_belongs_to_a_layer():
    modules, _ = import_graph()
    unplaced = sorted(m for m in modules if layer_of(m) is None)
    assert not unplaced, ("modules in no layer (add their package or root module to LAYERS / ROOT_HELPERS in "
                          f"tests/import_graph_test.py): {', '.join(unplaced)}")


def test_the_package_has_no_import_cycle():
    _, imports = import_graph()
    found = cycles(imports)
    message = "\n\n".join(
        f"cycle {i + 1}, among {', '.join(component)}:\n  "
        + " -> ".join([cycle[0].importer] + [step.imported for step in cycle]) + "\n"
        + "\n".join(f"  {step.importer} imports {step.imported} at {_where(step)}" for step in cycle)
        for i, (component, cycle) in enumerate(zip(cyclic_components(imports), found)))
    assert not found, f"import cycles (move what both sides need into a module below them):\n\n{message}"


def test_no_module_imports_from_a_higher_layer():
    _, imports = import_graph()
    upward = [i for i in upward_imports(imports) if (i.importer, i.imported) not in ALLOWED_UPWARD]
    lines = [f"  {_where(i)}: {i.importer} ({_layer_name(i.importer)}) imports {i.imported} "
             f"({_layer_name(i.imported)})" for i in sorted(upward)]
    order = " < ".join(LAYERS)
    assert not upward, f"imports into a higher layer (layers: {order}):\n" + "\n".join(lines)


def test_allowed_upward_imports_are_still_needed():
    _, imports = import_graph()
    present = {(i.importer, i.imported) for i in imports}
    unused = sorted(set(ALLOWED_UPWARD) - present)
    assert not unused, f"ALLOWED_UPWARD lists imports that no longer exist: {unused}"


def test_a_package_init_imports_only_its_own_package():
    modules, imports = import_graph()
    packages = {m for m, path in modules.items() if path.endswith("__init__.py")} - {PACKAGE}
    outside = [i for i in imports if i.importer in packages and not i.imported.startswith(i.importer + ".")]
    lines = [f"  {_where(i)}: {i.importer} imports {i.imported}" for i in sorted(outside)]
    assert not outside, "package __init__ files that import outside their package:\n" + "\n".join(lines)


def test_only_the_cli_behaviour_module_patches_allennlp():
    modules, _ = import_graph()
    assert PATCH_MODULE in modules
    elsewhere = [(m, line, target) for m, line, target in patches()
                 if m != PATCH_MODULE and (m, target) not in ALLOWED_PATCHES]
    lines = [f"  {modules[m]}:{line}: {target}" for m, line, target in sorted(elsewhere)]
    assert not elsewhere, (f"AllenNLP patched outside {PATCH_MODULE} (make the replacement there, from a "
                           "function the other module provides):\n" + "\n".join(lines))
    assert any(m == PATCH_MODULE for m, _, _ in patches()), "the patch finder no longer finds the CLI-behaviour patches"
    unused = sorted(set(ALLOWED_PATCHES) - {(m, target) for m, _, target in patches()})
    assert not unused, f"ALLOWED_PATCHES lists patches that no longer exist: {unused}"


def _write(root, files: Dict[str, str]) -> None:
    for path, text in files.items():
        full = os.path.join(str(root), path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as handle:
            handle.write(textwrap.dedent(text))


def test_the_checks_find_cycles_upward_imports_and_patches(tmp_path):
    _write(tmp_path, {
        "fewshot_parser/__init__.py": "from fewshot_parser import commands, common\n",
        "fewshot_parser/common/__init__.py": "",
        "fewshot_parser/common/a.py": "def f():\n    from fewshot_parser.commands import b\n",
        "fewshot_parser/commands/__init__.py": "",
        "fewshot_parser/commands/b.py": "from . import c\n",
        "fewshot_parser/commands/c.py": """\
            import allennlp.commands.train as train
            from allennlp.common import Params
            from fewshot_parser.commands.b import x

            def install():
                train.train_model = None
                Params.assert_empty = None

            if __name__ == "__main__":
                import fewshot_parser.common.a
        """,
    })
    modules, imports = import_graph(str(tmp_path))
    assert set(modules) == {"fewshot_parser", "fewshot_parser.common", "fewshot_parser.common.a",
                            "fewshot_parser.commands", "fewshot_parser.commands.b", "fewshot_parser.commands.c"}
    (cycle,) = cycles(imports)
    assert [(step.importer, step.imported) for step in cycle] == [
        ("fewshot_parser.commands.b", "fewshot_parser.commands.c"),
        ("fewshot_parser.commands.c", "fewshot_parser.commands.b")]
    (upward,) = upward_imports(imports)
    assert (upward.importer, upward.imported, upward.line, upward.in_function) == (
        "fewshot_parser.common.a", "fewshot_parser.commands.b", 2, True)
    assert [(m, target) for m, _, target in patches(str(tmp_path))] == [
        ("fewshot_parser.commands.c", "train.train_model"), ("fewshot_parser.commands.c", "Params.assert_empty")]


def test_the_product_never_imports_the_lab():
    """`fewshot_lab` (lab/) imports the package; nothing in the package imports it."""
    root = os.path.join(PROJECT_ROOT, "fewshot_parser")
    offenders = []
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                tree = ast.parse(open(path, encoding="utf-8").read())
                for node in ast.walk(tree):
                    names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                        [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                    offenders += [f"{path}:{node.lineno}" for n in names if n.split(".")[0] == "fewshot_lab"]
    assert offenders == []
