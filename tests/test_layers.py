"""The layers of domrec and of the tournament tool import only downwards, and nothing in a circle.

Every module of both packages is parsed (never imported) and each of its imports resolved to
the project module it names: absolute and relative, at the top or inside a function (a lazy
import is still a dependency); only the body of ``if TYPE_CHECKING:`` is left out.  Then:

* no import cycle at all, counting cycles through a package's ``__init__`` (a submodule that
  imports a name from its own package, whose ``__init__`` imports that submodule back);
* tournament's layers, lowest first: the base (``errors``, ``settings``, ``values``, ``names``),
  ``pairing/`` (pure algorithms), ``store/`` (the schema and all SQL), ``event/`` (the director's
  operations), ``pages/`` (what people read), ``cli/`` (and ``web/`` beside it).  A module
  imports tournament modules of a lower layer or of its own package only; ``tournament/__init__``
  (the library's public names) sits below ``cli/`` and above the rest, and nothing but a front
  end imports it;
* ``pairing/`` uses no database;
* domrec never imports tournament, and its own layers (:data:`DOMREC_LAYERS`) import downwards;
* no module of a command line is longer than :data:`MAX_CLI_LINES` lines.

The checker is tried on made-up packages first (:func:`test_the_checker_finds_a_cycle` …), so
that these tests cannot pass by finding nothing.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domrec", "tournament")

#: tournament's layers: a module's layer is the first entry its name is (or is inside).
TOURNAMENT_LAYERS: tuple[tuple[str, int], ...] = (
    ("tournament.errors", 0), ("tournament.settings", 0), ("tournament.values", 0), ("tournament.names", 0),
    ("tournament.i18n", 0),
    ("tournament.pairing", 1),
    ("tournament.store", 2),
    ("tournament.event", 3),
    ("tournament.pages", 4),
    ("tournament", 4.5),  # the package's __init__: the public names of the library, for front ends
    ("tournament.web", 5),  # the venue server: a front end over event/ and pages/, as the CLI is
    ("tournament.cli", 6),  # the command, on top: `tournament serve` starts the venue server
    ("tournament.entry", 7),  # the command's entry point: tournament.cli imported under a guard
)
LAYER_NAMES = {0: "base", 1: "pairing", 2: "store", 3: "event", 4: "pages", 4.5: "the public API", 5: "the web",
               6: "the command line", 7: "the entry point"}

#: domrec's layers, lowest first (read from its imports; a package counts as one module).
#: ``notation`` may be a module or a package (``domrec/notation/``): either way one layer.
DOMREC_LAYERS: tuple[tuple[str, ...], ...] = (
    ("domrec.errors", "domrec.record", "domrec.tiles", "domrec.shape", "domrec.reader", "domrec.dgn_archive", "domrec.i18n",
     "domrec.lookalikes",
     "domrec.phrases", "domrec.working", "domrec.piped"),
    ("domrec.games",),
    ("domrec.validate", "domrec.deals"),
    ("domrec.game", "domrec.explain", "domrec.summary"),
    ("domrec.notation",),
    ("domrec.recorder", "domrec.session", "domrec.convert", "domrec.simulate", "domrec.pictures", "domrec.replay_page",
     "domrec.output", "domrec.parallel", "domrec.cluster"),
    ("domrec",),  # the package's __init__: the public names of the library
    ("domrec.cli", "domrec.console", "domrec.record_cli"),
    ("domrec.entry",),  # the command's entry point: domrec.cli imported under a guard
)

#: The longest a module of a command line may be (tournament/cli/ is split by subject to stay below).
MAX_CLI_LINES = 600
CLI_FOLDERS = ("tournament/cli",)
CLI_MODULES = ("domrec/cli.py", "domrec/record_cli.py", "domrec/console.py")

DATABASE_MODULES = ("sqlite3", "sqlite_utils")


# --- the checker -----------------------------------------------------------------------------------


def modules_of(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the packages under ``root``: dotted name -> file (a package is its ``__init__``)."""
    out: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, wherever it is, but in an ``if TYPE_CHECKING:`` body."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                if isinstance(other, (ast.Import, ast.ImportFrom)):
                    yield other
                else:
                    yield from _import_nodes(other)
        else:
            yield from _import_nodes(child)


def raw_imports(module: str, path: Path) -> Iterator[tuple[str, str | None]]:
    """What a module imports, as (absolute module, name imported from it or None)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            parts = parts[:len(parts) - (node.level - 1)]
            base = ".".join(parts + ([node.module] if node.module else []))
        for alias in node.names:
            yield base, alias.name


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """Module -> the project modules it imports.  ``from p import x`` names the module ``p.x`` when
    there is one, else ``p`` itself (its ``__init__``); ``import a.b.c`` names the deepest of
    ``a.b.c``, ``a.b``, ``a`` that is a project module.  The packages a module sits in, which
    Python runs first, are not counted: only what the module names."""
    modules = modules_of(root, packages)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for base, name in raw_imports(module, path):
            target = None
            if name is not None and f"{base}.{name}" in modules:
                target = f"{base}.{name}"
            else:
                parts = base.split(".")
                while parts and ".".join(parts) not in modules:
                    parts.pop()
                target = ".".join(parts) or None
            if target is not None and target != module:
                graph[module].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (a, b, …, a) for every group of modules that import each other in a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components (iterative)
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.append(w)
                        if w == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_one_cycle(graph, set(group)) for group in groups]


def _one_cycle(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """The shortest way round from the group's first module back to it."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & group):
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover


def layer_violations(graph: dict[str, set[str]], layer_of: Callable[[str], tuple[float, str] | None],
                     name_of: Callable[[float], str] = str) -> list[str]:
    """Every import that does not go down: ``layer_of(module)`` is its (rank, group), or None for a
    module outside the layers checked.  An import is allowed to a lower rank, or within a group."""
    out = []
    for module in sorted(graph):
        mine = layer_of(module)
        if mine is None:
            continue
        for target in sorted(graph[module]):
            theirs = layer_of(target)
            if theirs is None or theirs[0] < mine[0] or theirs[1] == mine[1]:
                continue
            where = "a layer above it" if theirs[0] > mine[0] else "beside it, not below"
            out.append(f"{module} ({name_of(mine[0])}) imports {target} ({name_of(theirs[0])}), {where}")
    return out


def tournament_layer(module: str) -> tuple[float, str] | None:
    """(rank, group): a subpackage is a group of its own; the base layer's modules are one group."""
    if module != "tournament" and not module.startswith("tournament."):
        return None
    for prefix, rank in TOURNAMENT_LAYERS:
        if module == prefix or (prefix != "tournament" and module.startswith(prefix + ".")):
            group = prefix if rank not in (0,) else "tournament (base)"
            return rank, group
    raise AssertionError(f"{module} is in no layer of the tournament tool: put it in one (TOURNAMENT_LAYERS)")


def domrec_layer(module: str) -> tuple[float, str] | None:
    if module != "domrec" and not module.startswith("domrec."):
        return None
    for rank, names in enumerate(DOMREC_LAYERS):
        for name in names:
            if module == name or (name != "domrec" and module.startswith(name + ".")):
                return rank, f"domrec layer {rank}"
    raise AssertionError(f"{module} is in no layer of domrec: put it in one (DOMREC_LAYERS)")


def _domrec_layer_name(rank: float) -> str:
    return "layer of " + ", ".join(n.rpartition(".")[2] for n in DOMREC_LAYERS[int(rank)])


# --- the project ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(ROOT, PACKAGES)


def test_no_import_cycles(graph: dict[str, set[str]]) -> None:
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_tournament_imports_only_downwards(graph: dict[str, set[str]]) -> None:
    wrong = layer_violations(graph, tournament_layer, lambda r: LAYER_NAMES[r])
    assert not wrong, "\n".join(wrong)


def test_nothing_but_a_front_end_imports_the_tournament_package_itself(graph: dict[str, set[str]]) -> None:
    wrong = [m for m, targets in graph.items() if "tournament" in targets and m.startswith("tournament.")
             and not m.startswith(("tournament.cli", "tournament.web"))]
    assert not wrong, f"these import tournament/__init__ (the public API) from inside the tool: {wrong}"


def test_pairing_uses_no_database() -> None:
    modules = modules_of(ROOT, ["tournament"])
    wrong = [f"{m} imports {base}" for m, path in modules.items() if m.startswith("tournament.pairing")
             for base, _ in raw_imports(m, path)
             if base.split(".")[0] in DATABASE_MODULES or base == "tournament.store"
             or base.startswith("tournament.store.")]
    assert not wrong, "\n".join(wrong)


def test_domrec_never_imports_tournament() -> None:
    modules = modules_of(ROOT, ["domrec"])
    wrong = [f"{m} imports {base}" for m, path in modules.items() for base, _ in raw_imports(m, path)
             if base.split(".")[0] == "tournament"]
    assert not wrong, "\n".join(wrong)


def test_domrec_imports_only_downwards(graph: dict[str, set[str]]) -> None:
    wrong = layer_violations(graph, domrec_layer, _domrec_layer_name)
    assert not wrong, "\n".join(wrong)


def test_no_command_line_module_is_too_long() -> None:
    files = [p for folder in CLI_FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))]
    files += [ROOT / name for name in CLI_MODULES]
    assert len(files) > len(CLI_MODULES), "tournament/cli/ has no modules"
    long = {str(p.relative_to(ROOT)): n for p in files if (n := len(p.read_text(encoding="utf-8").splitlines()))
            > MAX_CLI_LINES}
    assert not long, f"over {MAX_CLI_LINES} lines (split them by subject): {long}"


# --- the checker, on made-up packages ------------------------------------------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_the_checker_finds_a_cycle(tmp_path: Path) -> None:
    """Through a lazy import inside a function, and through a relative import."""
    root = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": "def f():\n    from .c import g\n",
        "pkg/c.py": "import pkg.a\ndef g(): pass\n",
        "pkg/d.py": "import json\nfrom pkg.a import thing\n",
    })
    graph = import_graph(root, ["pkg"])
    assert graph["pkg.b"] == {"pkg.c"} and graph["pkg.d"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_the_checker_finds_a_cycle_through_a_package_init(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "from pkg.sub.x import X\n",
        "pkg/sub/x.py": "from pkg.sub.y import helper\nX = 1\n",
        "pkg/sub/y.py": "def helper():\n    from pkg.sub import X\n",  # X is a name: the __init__ runs
        "pkg/sub/z.py": "from pkg.sub import x\n",  # a submodule: not the __init__
    })
    graph = import_graph(root, ["pkg"])
    assert graph["pkg.sub.z"] == {"pkg.sub.x"}
    assert cycles(graph) == [["pkg.sub", "pkg.sub.x", "pkg.sub.y", "pkg.sub"]]


def test_the_checker_leaves_out_type_checking_imports(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": """\
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from pkg.a import A
            else:
                import json
            """,
    })
    graph = import_graph(root, ["pkg"])
    assert graph["pkg.b"] == set() and cycles(graph) == []


def test_the_checker_finds_an_upward_import(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "tournament/__init__.py": "from tournament.event.y import z\n",
        "tournament/errors.py": "",
        "tournament/settings.py": "from tournament.errors import E\n",
        "tournament/store/__init__.py": "",
        "tournament/store/x.py": "from tournament.settings import S\ndef f():\n    from tournament.event.y import z\n",
        "tournament/store/w.py": "from tournament.store import x\n",
        "tournament/event/__init__.py": "",
        "tournament/event/y.py": "from tournament.store.x import f\nfrom tournament.errors import E\n",
        "tournament/pages/__init__.py": "",
        "tournament/pages/p.py": "import tournament\n",
    })
    wrong = layer_violations(import_graph(root, ["tournament"]), tournament_layer, lambda r: LAYER_NAMES[r])
    assert wrong == [
        "tournament.pages.p (pages) imports tournament (the public API), a layer above it",
        "tournament.store.x (store) imports tournament.event.y (event), a layer above it",
    ]
    with pytest.raises(AssertionError, match="tournament.stray is in no layer"):
        tournament_layer("tournament.stray")


def test_the_checker_finds_an_upward_import_in_domrec(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "domrec/__init__.py": "",
        "domrec/errors.py": "",
        "domrec/validate.py": "from domrec.errors import E\nfrom domrec import notation\n",
        "domrec/notation/__init__.py": "",
        "domrec/notation/reader.py": "from domrec.validate import v\nfrom domrec.notation import writer\n",
        "domrec/notation/writer.py": "from domrec.notation.reader import r\n",
    })
    graph = import_graph(root, ["domrec"])
    assert layer_violations(graph, domrec_layer, _domrec_layer_name) == [
        "domrec.validate (layer of validate, deals) imports domrec.notation (layer of notation), a layer above it"]
    assert cycles(graph) == [["domrec.notation.reader", "domrec.notation.writer", "domrec.notation.reader"]]
