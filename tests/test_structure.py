"""The shape of the package: data flows one way, no cycles, no grab-bag modules."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

PACKAGE: Final = Path(__file__).resolve().parent.parent / "ginrules"

#: Layers, lowest first: a module may import its own layer and those below, never above.
LAYERS: Final = (
    ("ginrules.lru", "ginrules.refusal", "ginrules.schema", "ginrules.cards"),
    ("ginrules.melds",),
    ("ginrules.layoffs",),
    ("ginrules.rules",),
    ("ginrules.engine",),
    ("ginrules.words",),
    ("ginrules.sheets",),
    ("ginrules.web",),
    ("ginrules.cli",),
    ("ginrules.__main__",),
)
#: The package's face (``import ginrules``) sits above the library it curates; below it,
#: modules may read only its version string.
TOP: Final = "ginrules"
VERSION_ONLY: Final = frozenset({"__version__"})

#: Modules allowed past the line limits, and why.
LONG_MODULES: Final = {
    # The hand state machine: one class whose phases and checks read best together.
    "ginrules.engine.hand": 720,
}
MODULE_LINES: Final = 650
WEB_MODULE_LINES: Final = 450


@dataclass(frozen=True)
class Import:
    module: str
    target: str
    names: frozenset[str]
    where: str


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: Final = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports() -> Iterator[Import]:
    """Every import of a ginrules module, function-level ones included."""
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == TOP:
                        yield Import(name, alias.name, frozenset(), where)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] != TOP:
                    continue
                # ``from ginrules import schema`` imports the module ginrules.schema.
                plain = frozenset(
                    a.name for a in node.names if f"{node.module}.{a.name}" in MODULES
                )
                for sub in sorted(plain):
                    yield Import(name, f"{node.module}.{sub}", frozenset(), where)
                rest = frozenset(a.name for a in node.names) - plain
                if rest:
                    yield Import(name, node.module, rest, where)


def layer_of(module: str) -> int | None:
    for level, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return level
    return None


def test_every_module_has_a_layer() -> None:
    missing = [m for m in MODULES if m != TOP and layer_of(m) is None]
    assert not missing, f"add these modules to a layer in LAYERS: {missing}"


def upward_imports(found_imports: Iterator[Import] | list[Import]) -> list[str]:
    upward = []
    for found in found_imports:
        if found.module == TOP:
            continue  # the face imports whatever it curates
        if found.target == TOP:
            if found.names <= VERSION_ONLY:
                continue
            upward.append(f"{found.where}: {found.module} imports {sorted(found.names)} from {TOP}")
            continue
        mine, theirs = layer_of(found.module), layer_of(found.target)
        assert mine is not None and theirs is not None, found
        if theirs > mine:
            upward.append(
                f"{found.where}: {found.module} (layer {mine}) imports {found.target}"
                f" (layer {theirs})"
            )
    return upward


def test_no_import_runs_back_up_a_layer() -> None:
    upward = upward_imports(imports())
    assert not upward, "imports that run back up a layer:\n" + "\n".join(upward)


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for found in imports():
        target = found.target if found.target in MODULES else None
        if target is not None and target != found.module and found.target != TOP:
            graph[found.module].add(target)
    return graph


def cycles_in(graph: dict[str, set[str]]) -> list[list[str]]:
    # Tarjan's strongly connected components: any with two or more modules is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_the_import_graph_has_no_cycle() -> None:
    cycles = cycles_in(import_graph())
    assert not cycles, f"import cycles: {cycles}"


def test_no_module_grows_into_a_grab_bag() -> None:
    too_long = []
    for name, path in MODULES.items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        limit = LONG_MODULES.get(name, MODULE_LINES)
        if name.startswith("ginrules.web."):
            limit = min(limit, WEB_MODULE_LINES)
        if lines > limit:
            too_long.append(f"{path.relative_to(PACKAGE.parent)}: {lines} lines (limit {limit})")
    assert not too_long, "\n".join(too_long)


def test_the_checks_themselves_catch_an_upward_import_and_a_cycle() -> None:
    planted = Import("ginrules.engine.hand", "ginrules.web.views.api", frozenset(), "hand.py:1")
    assert upward_imports([planted]) == [
        "hand.py:1: ginrules.engine.hand (layer 4) imports ginrules.web.views.api (layer 7)"
    ]
    sneaky = Import("ginrules.melds", TOP, frozenset({"simulate"}), "melds.py:1")
    assert upward_imports([sneaky])
    assert not upward_imports([Import("ginrules.melds", TOP, VERSION_ONLY, "melds.py:1")])
    graph = import_graph()
    graph["ginrules.cards"].add("ginrules.engine.hand")  # hand imports cards: a loop
    assert any("ginrules.cards" in cycle for cycle in cycles_in(graph))
