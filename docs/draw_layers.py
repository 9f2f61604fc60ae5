"""Draw the engine's layers as they are in the code: ``docs/layers.png``.

The rows are the layers of the import-linter contract in ``pyproject.toml`` (top: the command
line; bottom: the errors), one box per package or module of a layer; an arrow from box A to box
B says that modules of A import modules of B, the thicker the more such imports (read by
``grimp`` from the source, imports inside functions included). Every arrow points down or
sideways within a layer; ``lint-imports`` fails the build otherwise.

Run: ``python docs/draw_layers.py [OUTPUT]`` (needs the ``dev`` extra: grimp comes with
import-linter; matplotlib is a dependency of the engine).
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from pathlib import Path

import grimp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

ROOT = Path(__file__).resolve().parent.parent


def layers() -> list[list[str]]:
    """The contract's layers, top first, each a list of module names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = config["tool"]["importlinter"]["contracts"][0]
    rows = []
    for layer in contract["layers"]:
        parts = layer.replace("|", ":").split(":")
        rows.append([p.strip() for p in parts if p.strip()])
    return rows


def import_counts(boxes: list[str]) -> Counter[tuple[str, str]]:
    """(importer box, imported box) -> number of direct imports between their modules."""
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph("engine", "teams")

    def box_of(module: str) -> str | None:
        best = None
        for b in boxes:
            if (module == b or module.startswith(b + ".")) and (best is None or len(b) > len(best)):
                best = b
        return best

    counts: Counter[tuple[str, str]] = Counter()
    for module in graph.modules:
        a = box_of(module)
        for imported in graph.find_modules_directly_imported_by(module):
            b = box_of(imported)
            if a and b and a != b:
                counts[(a, b)] += 1
    return counts


def draw(output: Path) -> None:
    """Draw the picture to ``output`` (.png or .svg)."""
    rows = layers()
    boxes = [b for row in rows for b in row]
    counts = import_counts(boxes)
    width, row_h, box_h = 12.0, 1.0, 0.5
    fig, ax = plt.subplots(figsize=(width, row_h * len(rows) + 0.6))
    centre: dict[str, tuple[float, float]] = {}
    for i, row in enumerate(rows):
        y = (len(rows) - 1 - i) * row_h
        box_w = min(2.2, (width - 0.4) / len(row) - 0.6)
        gap = (width - len(row) * box_w) / (len(row) + 1)
        for j, name in enumerate(row):
            x = gap + j * (box_w + gap)
            ax.add_patch(
                FancyBboxPatch(
                    (x, y - box_h / 2),
                    box_w,
                    box_h,
                    boxstyle="round,pad=0.02",
                    facecolor="#dbe7f3",
                    edgecolor="#34506b",
                    zorder=2,
                )
            )
            ax.text(x + box_w / 2, y, name, ha="center", va="center", fontsize=9, zorder=3)
            centre[name] = (x + box_w / 2, y)
    for (a, b), n in sorted(counts.items()):
        (xa, ya), (xb, yb) = centre[a], centre[b]
        start = (xa, ya - box_h / 2) if ya > yb else (xa, ya)
        end = (xb, yb + box_h / 2) if ya > yb else (xb, yb)
        ax.annotate(
            "",
            xy=end,
            xytext=start,
            zorder=1,
            arrowprops={
                "arrowstyle": "-|>",
                "color": "#8a9aa9",
                "alpha": 0.55,
                "lw": 0.4 + min(n, 120) / 30,
                "connectionstyle": "arc3,rad=0.12",
                "shrinkA": 0,
                "shrinkB": 0,
            },
        )
    ax.set_xlim(0, width)
    ax.set_ylim(-row_h, row_h * len(rows) - 0.4)
    ax.axis("off")
    ax.set_title(
        "engine and teams: the layers (each imports down); arrows: direct imports", fontsize=10
    )
    fig.tight_layout()
    fig.savefig(output, dpi=110)


if __name__ == "__main__":
    draw(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "layers.png")
