"""Arbitrary and mutated JSON/TOML documents for the loaders' property tests.

The property the loader tests check (DESIGN.md principle 6, issue 12): whatever document a
loader is given, it either loads or raises the loader's documented error class (a
:class:`~engine.errors.KillTeamError` subclass), never another exception.

Documents are plain JSON-like Python values, except that :class:`Deep` stands for a value
wrapped in thousands of arrays: the writers below expand it as text and :func:`expand` builds
it without recursion, so neither the test nor ``json.dumps`` hits Python's recursion limit.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

from hypothesis import strategies as st


class Deep:
    """``inner`` wrapped in ``levels`` arrays (``[[[...inner...]]]``)."""

    def __init__(self, levels: int, inner: Any = 0) -> None:
        self.levels = levels
        self.inner = inner

    def __repr__(self) -> str:
        return f"Deep({self.levels})"


#: Values that broke loaders before issue 12: infinities, NaN, 1e400 (read as infinity), a
#: 400-digit integer, numbers past the inputs limit, deep nesting, a long string.
NASTY: list[Any] = [
    math.nan,
    math.inf,
    -math.inf,
    float("1e400"),
    10**400,
    -(10**400),
    10**20,
    1e300,
    -1e16,
    Deep(5000),
    Deep(70),
    Deep(63),
    "x" * 100_000,
    "\x00",
    "../../etc/passwd",
    "",
    [],
    {},
    None,
    True,
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(NASTY),
)

json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.text(max_size=10), inner, max_size=5),
    ),
    max_leaves=25,
)


def write_document(folder: Path, name: str, text: str | bytes) -> Path:
    """Write ``text`` (bytes as they are, text as UTF-8) to ``folder / name``; the path."""
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def expand(value: Any) -> Any:
    """``value`` with every :class:`Deep` built as real nested lists (iteratively)."""
    if isinstance(value, Deep):
        out = expand(value.inner)
        for _ in range(value.levels):
            out = [out]
        return out
    if isinstance(value, dict):
        return {k: expand(v) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v) for v in value]
    return value


def to_json(value: Any) -> str:
    """JSON text of ``value`` (NaN and infinities as ``NaN``/``Infinity``, as Python writes
    them; huge integers in full)."""
    if isinstance(value, Deep):
        return "[" * value.levels + to_json(value.inner) + "]" * value.levels
    if isinstance(value, dict):
        items = (f"{json.dumps(str(k))}: {to_json(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(to_json(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return json.dumps(value)  # NaN, Infinity, -Infinity are written as such
    return json.dumps(str(value), ensure_ascii=False)


def _toml_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, Deep):
        return "[" * value.levels + _toml_value(value.inner) + "]" * value.levels
    if isinstance(value, dict):
        items = (f"{_toml_string(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + ", ".join(items) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '"null"'  # TOML has no null
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        text = repr(value)
        return text if any(c in text for c in ".e") else text + ".0"
    return _toml_string(str(value))


def to_toml(value: Any) -> str:
    """TOML text of ``value`` (a table: one ``key = value`` line per field, inline tables
    below; anything else is written as the field ``value``)."""
    if not isinstance(value, dict):
        value = {"value": value}
    return "".join(f"{_toml_string(str(k))} = {_toml_value(v)}\n" for k, v in value.items())


def _nodes(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) pair of ``doc`` (iteratively, file order)."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                out.append((node, k))
                stack.append(v)
        elif isinstance(node, list):
            for k, v in enumerate(node):
                out.append((node, k))
                stack.append(v)
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """``base`` (a valid document) after one to three random mutations: a value replaced by
    an arbitrary or nasty one, a field or item deleted, a value wrapped in nesting, or an
    unknown field added."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        nodes = _nodes(doc)
        if not nodes:
            break
        container, key = nodes[draw(st.integers(min_value=0, max_value=len(nodes) - 1))]
        if isinstance(container[key], Deep):
            continue
        kind = draw(st.sampled_from(["replace", "nasty", "delete", "wrap", "add"]))
        if kind == "replace":
            container[key] = draw(json_values)
        elif kind == "nasty":
            container[key] = draw(st.sampled_from(NASTY))
        elif kind == "delete":
            del container[key]
        elif kind == "wrap":
            levels = draw(st.sampled_from([1, 2, 10, 100, 5000]))
            container[key] = Deep(levels, container[key])
        elif isinstance(container, dict):
            container[draw(st.text(max_size=8))] = draw(json_values)
        else:
            container.insert(key, draw(json_values))
    return doc
