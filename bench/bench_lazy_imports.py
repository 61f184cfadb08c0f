"""Every import inside a function of the product, with what it saves at start-up (issue 25:
imports inside functions only where start-up time needs them, each listed with its measured gain
in ``docs/cli.md``).

For an import of module M inside a function of module X, the gain is the CPU time that a fresh
interpreter which has imported X (and the command line, ``olympiad.cli``, which every ``olympiad``
command loads) spends importing M: what every process that loads X would pay at start-up if the
import sat at the top of X. It is the median of ``--runs`` fresh interpreters (CPU time of the
import alone, ``time.process_time``), in milliseconds.

Run: ``.venv/bin/python -m bench.bench_lazy_imports [--markdown] [--runs N] [--only X]``;
``--markdown`` prints the table ``docs/cli.md`` holds.
"""
from __future__ import annotations

import argparse
import ast
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("schemas", "processors", "projections", "producers", "olympiad", "deploy")
PROBE = """
import time, importlib, olympiad.cli, {module}
t = time.process_time()
importlib.import_module({target!r})
print(time.process_time() - t)
"""


@dataclass(frozen=True)
class LateImport:
    """One import inside a function: the module ``module`` that holds it, the function, the
    imported module ``target`` (for ``from A import b``: ``A``, or ``A.b`` when that is a module of
    ours), and its line."""

    module: str
    function: str
    target: str
    line: int


def late_imports(root: Path = ROOT) -> list[LateImport]:
    """Every import inside a function of the product's packages, in file and line order."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for fn in ast.walk(tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(fn):
                    if isinstance(node, ast.ImportFrom):
                        base = module.rsplit(".", node.level)[0] + "." if node.level else ""
                        source = base + (node.module or "")
                        found.extend(LateImport(module, fn.name, _submodule(root, source, alias.name) or source, node.lineno)
                                     for alias in node.names)
                    elif isinstance(node, ast.Import):
                        found.extend(LateImport(module, fn.name, alias.name, node.lineno) for alias in node.names)
    return sorted(set(found), key=lambda i: (i.module, i.line, i.target))


def _submodule(root: Path, package: str, name: str) -> str | None:
    """``package.name`` when ``from package import name`` imports a module of ours (its cost is
    that module's, not the package's), else None."""
    path = root.joinpath(*package.split("."), name)
    return f"{package}.{name}" if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file() else None


def gain_ms(module: str, target: str, runs: int) -> float:
    """Median CPU milliseconds of importing ``target`` in a fresh interpreter that imported
    ``olympiad.cli`` and ``module`` first (0 when ``module`` already imports it)."""
    probe = PROBE.format(module=module, target=target)
    times = [float(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT).stdout)
             for _ in range(runs)]
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", help="measure the late imports of this module only")
    parser.add_argument("--markdown", action="store_true", help="print the table of docs/cli.md")
    args = parser.parse_args()
    imports = [i for i in late_imports() if args.only in (None, i.module)]
    gains: dict[tuple[str, str], float] = {}
    for i in imports:
        if (i.module, i.target) not in gains:
            gains[(i.module, i.target)] = gain_ms(i.module, i.target, args.runs)
    if args.markdown:
        print("| module | function | imports | start-up CPU saved, ms |\n|---|---|---|---|")
    for i in imports:
        g = gains[(i.module, i.target)]
        print(f"| `{i.module}` | `{i.function}` | `{i.target}` | {g:.1f} |" if args.markdown
              else f"{i.module}:{i.line} {i.function}: {i.target} {g:.1f} ms")
    if not args.markdown:
        print(f"{len(imports)} imports inside functions; {sum(1 for g in gains.values() if g < 1.0)} of "
              f"{len(gains)} (module, import) pairs save under 1 ms")


if __name__ == "__main__":
    main()
