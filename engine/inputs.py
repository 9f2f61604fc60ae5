"""Reading the documents users hand the engine (JSON and TOML), safely.

Every loader (killzones, teams, rosters, scenarios, records, operatives files, the importers)
parses through this module, so that the same limits hold at every door (DESIGN.md principle 6:
illegal input gets a precise error and changes nothing):

- **nesting**: at most :data:`MAX_DEPTH` levels of arrays and tables; deeper documents are
  rejected before they are parsed (no ``RecursionError``, and no parser work on a deep
  document): JSON brackets, and TOML brackets, table headers and dotted keys, are counted
  by a linear pre-scan (:func:`toml_depth`);
- **numbers**: finite, with magnitude at most :data:`MAX_MAGNITUDE` (``1e400``, ``NaN``,
  ``Infinity`` and 400-digit integers are rejected, naming where they are);
- **size**: a file at most :data:`MAX_FILE_BYTES` bytes, a TOML document at most
  :data:`MAX_TOML_CHARS` characters (records are read line by line, each
  line at most :data:`MAX_LINE_BYTES`);
- **kind of file**: only a regular file is opened (:func:`open_input`): a missing path, a
  folder, and a device, FIFO (named pipe) or socket each get their own message
  (``x.json: no such team file``, ``x.json: is a folder, not a team file``,
  ``x.json: is not a regular file (a character device), not a team file``), checked before
  opening and again on the open file, so a FIFO never blocks the reader;
- **unique keys**: a JSON object naming the same key twice is refused (Python's ``json``
  would silently keep the last value: a team's second ``"operatives"`` would hide the
  first), naming the key and where it is. TOML refuses duplicate keys itself.

Errors are raised as the caller's error class (a :class:`~engine.errors.KillTeamError`
subclass), with a message that starts with the source (file name or ``record line N``) and
names the path of the offending value (``features[2].parts[0].height``).
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from engine.errors import KillTeamError

MAX_DEPTH = 64
"""The deepest nesting of arrays and tables (objects) any input document may have."""

MAX_MAGNITUDE = 1e15
"""The largest absolute value of any number in an input document (inches, millimetres, counts
and seeds are far below it; every integer up to it is exact as a float). Each loader sets
tighter limits on its own fields."""

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest input file read whole (64 MiB)."""

MAX_TOML_CHARS = 2 * 1024 * 1024
"""The longest TOML document parsed (2 Mi characters): Python's TOML parser is slow (a
2 MiB document of numbers takes about 5 s and 110 MB to parse), and every TOML input (layouts,
scenarios, operatives files) is far smaller; JSON documents may be :data:`MAX_FILE_BYTES`."""

MAX_LINE_BYTES = 1024 * 1024
"""The largest line of a line-oriented input (a record line), 1 MiB."""

EXCERPT_CHARS = 60
"""How much of an offending input an error message quotes at most."""

ErrorClass = Callable[[str], KillTeamError]


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters (with ``...``)."""
    shown = text if len(text) <= limit else text[:limit] + "..."
    return repr(shown)


def _pre_depth(text: str) -> int:
    """The deepest bracket nesting of ``text`` outside double-quoted strings (cheap, over-counts
    TOML's single-quoted strings and table headers only by their own brackets)."""
    depth = best = 0
    in_str = escape = False
    for ch in text:
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > best:
                best = depth
                if best > MAX_DEPTH + 2:
                    return best
        elif ch in "]}":
            depth -= 1
    return best


# Tokens of the TOML pre-scan (:func:`toml_depth`): strings (skipped whole), comments,
# brackets, commas, line ends, and in keys the dots and the '=' ending them.
_TOML_KEY_TOKENS = re.compile(r"\"\"\"|'''|[\"'#\[\]{}=,.\n]")
_TOML_VALUE_TOKENS = re.compile(r"\"\"\"|'''|[\"'#\[\]{},\n]")
_TOML_BASIC_END = re.compile(r'(?:[^"\\\n]|\\.)*"')
_TOML_MULTI_END = re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL)


def toml_depth(text: str) -> tuple[int, int] | None:
    """Where TOML ``text`` nests containers :data:`MAX_DEPTH` or more levels below the root,
    as ``(line, depth)`` (the first such place), else ``None``: a linear pre-scan run before
    the parser, which would otherwise build every level first (a dotted key of 16,000 parts
    costs seconds and a gigabyte in ``tomllib``).

    The depth found is a lower bound of the parsed document's (a document refused here is
    refused by :func:`check_tree` too): a table header ``[a.b.c]`` opens tables 3 deep
    (``[[a.b.c]]`` 4: a list of tables), a dotted key ``x.y.z = v`` puts ``v`` 3 levels below
    the table it is in, and arrays and inline tables (and dotted keys inside them) nest
    further. Strings (basic, literal, multi-line) and comments are skipped; malformed TOML is
    left to the parser (which stops at the first error, before anything after it).
    """
    table = 0  # depth of the current table (its header's)
    base, parts = 0, 1  # depth of the table the key being read is in; the key's parts
    stack: list[tuple[str, int]] = []  # open '=' (value to come), '[', '{' and their depth
    mode = "key"  # "key", "value", "header", or "rest" (ignored up to the line end)
    aot = 0
    pos, n = 0, len(text)

    def deep(depth: int, at: int) -> tuple[int, int] | None:
        if depth >= MAX_DEPTH:
            return text.count("\n", 0, at) + 1, depth
        return None

    while pos < n:
        m = (_TOML_VALUE_TOKENS if mode == "value" else _TOML_KEY_TOKENS).search(text, pos)
        if m is None:
            break
        tok, at, pos = m.group(), m.start(), m.end()
        if tok == '"':
            end = _TOML_BASIC_END.match(text, pos)
            if end is None:
                break
            pos = end.end()
        elif tok == "'":
            pos = text.find("'", pos) + 1
            if not pos:
                break
        elif tok == '"""':
            end = _TOML_MULTI_END.match(text, pos)
            if end is None:
                break
            pos = end.end()
            pos += 1 if text.startswith('"', pos) else 0
            pos += 1 if text.startswith('"', pos) else 0
        elif tok == "'''":
            pos = text.find("'''", pos) + 3
            if pos < 3:
                break
            pos += 1 if text.startswith("'", pos) else 0
            pos += 1 if text.startswith("'", pos) else 0
        elif tok == "#":
            end_at = text.find("\n", pos)
            pos = n if end_at < 0 else end_at
        elif tok == "\n":
            if len(stack) == 1 and stack[0][0] == "=":
                stack.clear()  # a key/value line ends
            if not stack:
                mode, base, parts = "key", table, 1
        elif mode == "rest":
            continue
        elif mode == "header":
            if tok == ".":
                parts += 1
                found = deep(parts + aot, at)
                if found:
                    return found
            elif tok == "]":
                table, mode = parts + aot, "rest"
        elif mode == "key" and tok == ".":
            parts += 1
            found = deep(base + parts - 1, at)
            if found:
                return found
        elif mode == "key" and tok == "=":
            stack.append(("=", base + parts))
            mode = "value"
        elif mode == "key" and tok == "[" and not stack:
            aot = 1 if text.startswith("[", pos) else 0
            pos += aot
            mode, parts = "header", 1
        elif tok in "[{":
            top = stack[-1] if stack else ("{", table)
            depth = top[1] if top[0] == "=" else top[1] + 1
            found = deep(depth, at)
            if found:
                return found
            if top[0] == "=":
                stack.pop()
            stack.append((tok, depth))
            if tok == "{":
                mode, base, parts = "key", depth, 1
            else:
                mode = "value"
        elif tok in "]}":
            if stack and stack[-1][0] == "=":
                stack.pop()
            if stack:
                stack.pop()
            mode = "value" if stack else "rest"
        elif tok == ",":
            if stack and stack[-1][0] == "=":
                stack.pop()
            if stack and stack[-1][0] == "{":
                mode, base, parts = "key", stack[-1][1], 1
    return None


def _is_plain(key: str) -> bool:
    return 0 < len(key) <= 40 and key.isprintable() and not any(c in key for c in ".[]'\"")


def _where(path: tuple[str | int, ...]) -> str:
    """The path of a value (``features[2].parts[0].height``); a key that is empty, long, or
    holds line breaks, dots, brackets or quotes is quoted (``['a\\nb']``, cut to a few
    characters), so messages stay on one line and the path reads back unambiguously."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        elif _is_plain(step):
            out += f".{step}" if out else step
        else:
            out += f"[{excerpt(step, 20)}]"
    return out or "the document"


class _DuplicateKeys(dict[str, Any]):
    """A parsed JSON object that named ``duplicate`` more than once (:func:`_unique_object`);
    :func:`check_tree` refuses it, naming where it is."""

    duplicate: str = ""


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The ``object_pairs_hook`` of :func:`parse_json`: the object as a dict, marked as a
    :class:`_DuplicateKeys` when a key appears twice (``json`` alone keeps the last value)."""
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    marked = _DuplicateKeys(obj)
    for key, _ in pairs:
        if key in seen:
            marked.duplicate = key
            break
        seen.add(key)
    return marked


def check_tree(data: Any, source: str, error: ErrorClass) -> Any:
    """Check a parsed document against the limits of this module; returns ``data``.

    Args:
        data: JSON-like values (dicts, lists, strings, numbers, booleans, ``None``, and the
            dates TOML may give).
        source: what to name in messages (a file name, ``record line 12``).
        error: the error class to raise.

    Raises:
        error: nesting deeper than :data:`MAX_DEPTH`, a number that is not finite or whose
            magnitude exceeds :data:`MAX_MAGNITUDE`, or a JSON object naming a key twice
            (:func:`parse_json`; the message gives the value's path).
    """
    stack: list[tuple[Any, tuple[str | int, ...], int]] = [(data, (), 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, dict):
            if type(value) is _DuplicateKeys:
                where = f"{_where(path)}: " if path else ""
                raise error(
                    f"{source}: {where}the key {excerpt(value.duplicate)} is given twice "
                    "(an object holds one value per key: the first would be silently ignored)"
                )
            items: Any = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if isinstance(value, float) and not math.isfinite(value):
                raise error(
                    f"{source}: {_where(path)}: the number {value} is not finite "
                    "(NaN, infinity, or too large to represent, such as 1e400)"
                )
            if abs(value) > MAX_MAGNITUDE:
                text = shown(value) if isinstance(value, int) else f"{value:g}"
                raise error(
                    f"{source}: {_where(path)}: the number {text} is too large "
                    f"(at most {MAX_MAGNITUDE:g} in magnitude)"
                )
            continue
        if depth >= MAX_DEPTH:
            raise error(f"{source}: {_where(path)}: nested more than {MAX_DEPTH} levels deep")
        for key, item in items:
            stack.append((item, (*path, key if isinstance(key, int) else str(key)), depth + 1))
    return data


def _too_large(text: str) -> ValueError:
    return ValueError(f"the number {excerpt(text)} is too large (at most {MAX_MAGNITUDE:g})")


def _parse_int(text: str) -> int:
    # A 400-digit integer is a valid int but overflows as a float later; past 4300 digits
    # int() itself refuses. Refuse before converting.
    if len(text.lstrip("-")) > 16:
        raise _too_large(text)
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _too_large(text)
    return value


def parse_json(text: str, source: str, error: ErrorClass) -> Any:
    """Parse JSON ``text`` and check it (:func:`check_tree`).

    Raises:
        error: not JSON (with the line and column), too deep, a bad number, or an object
            naming the same key twice (naming the key and the object's path).
    """
    if _pre_depth(text) > MAX_DEPTH + 1:
        raise error(f"{source}: nested more than {MAX_DEPTH} levels deep")
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=float,
            object_pairs_hook=_unique_object,
        )
    except json.JSONDecodeError as exc:
        raise error(f"{source}: not valid JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise error(f"{source}: not valid JSON: {exc}") from None
    return check_tree(data, source, error)


def parse_toml(text: str, source: str, error: ErrorClass) -> Any:
    """Parse TOML ``text`` and check it (:func:`check_tree`).

    Raises:
        error: not TOML (with the line and column), longer than :data:`MAX_TOML_CHARS`, too
            deep (with the line), or a bad number.
    """
    if len(text) > MAX_TOML_CHARS:
        raise error(
            f"{source}: the TOML document is longer than {MAX_TOML_CHARS // (1024 * 1024)} Mi "
            "characters"
        )
    found = toml_depth(text)
    if found is not None:
        raise error(f"{source}: line {found[0]}: nested more than {MAX_DEPTH} levels deep")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{source}: not valid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise error(f"{source}: not valid TOML: {exc}") from None
    return check_tree(data, source, error)


_SPECIAL_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)


def _mode_kind(mode: int) -> str:
    """``"file"`` for a regular file, ``"folder"``, or what else ``mode`` is (``"a character
    device"``, ``"a block device"``, ``"a FIFO"``, ``"a socket"``)."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "folder"
    return next((name for test, name in _SPECIAL_KINDS if test(mode)), "a special file")


def file_kind(path: str | Path) -> str:
    """What ``path`` is, following symbolic links, without opening it: ``"file"`` (a regular
    file), ``"folder"``, ``"missing"`` (nothing there, or a regular file on the way:
    ``a.txt/b.json``), or what else it is (``"a character device"``, ``"a block device"``,
    ``"a FIFO"``, ``"a socket"``).

    Raises:
        OSError: the path cannot be looked up (permission, a name too long...).
        ValueError: the path holds NUL.
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    return _mode_kind(mode)


def kind_message(kind: str, what: str) -> str:
    """What is wrong with a path of kind ``kind`` (:func:`file_kind`: not ``"file"``) given as
    a ``what`` (``"team file"``): ``"no such team file"``, ``"is a folder, not a team file"``,
    ``"is not a regular file (a FIFO), not a team file"``."""
    if kind == "missing":
        return f"no such {what}"
    a = "an" if what[:1] in ("a", "e", "i", "o", "u") else "a"
    if kind == "folder":
        return f"is a folder, not {a} {what}"
    return f"is not a regular file ({kind}), not {a} {what}"


def open_input(
    path: str | Path, error: ErrorClass, what: str = "file", name: str | None = None
) -> BinaryIO:
    """``path`` opened for reading in binary mode, when it is a regular file.

    The kind of file is checked before opening (so a FIFO is refused without blocking) and
    again on the open file (opened non-blocking, so a path swapped for a FIFO in between
    is refused too).

    Args:
        path: the file. error: the error class to raise. what: what the file is, for
            messages (``"team file"``). name: how messages name the file (default: ``path``).

    Raises:
        error: ``"x.json: no such team file"``, ``"x.json: is a folder, not a team file"``,
            ``"x.json: is not a regular file (a character device), not a team file"`` (also a
            block device, a FIFO (named pipe), a socket), or ``"x.json: cannot read team
            file: Permission denied"`` (any other reason the file cannot be opened).
    """
    shown_name = str(path) if name is None else name
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    kind = "missing"
    fd = -1
    try:
        kind = file_kind(path)
        if kind == "file":
            fd = os.open(path, flags)
            kind = _mode_kind(os.fstat(fd).st_mode)
    except FileNotFoundError:  # removed since it was looked up
        kind = "missing"
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        if fd >= 0:
            os.close(fd)
        why = getattr(exc, "strerror", None) or exc
        raise error(f"{shown_name}: cannot read {what}: {why}") from None
    if kind != "file":
        if fd >= 0:
            os.close(fd)
        raise error(f"{shown_name}: {kind_message(kind, what)}")
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text(path: str | Path, error: ErrorClass, what: str = "file") -> str:
    """The text of ``path`` (UTF-8), at most :data:`MAX_FILE_BYTES` bytes.

    Raises:
        error: a missing path, a folder, a path that is not a regular file (a device, a
            FIFO, a socket: never opened for reading, so never blocks), an unreadable file,
            one too large, or not UTF-8 (naming the file; :func:`open_input`).
    """
    p = Path(path)
    with open_input(p, error, what) as fh:
        try:
            raw = fh.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise error(f"{p}: cannot read {what}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise error(f"{p}: the {what} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        why = f"{exc.reason} at byte {exc.start}"
        raise error(f"{p}: the {what} is not UTF-8 text ({why})") from None


def read_document(path: str | Path, error: ErrorClass, what: str = "file") -> Any:
    """Read and parse a JSON or TOML file (by its suffix: ``.toml`` is TOML, anything else
    JSON), with every check of this module.

    Raises:
        error: as :func:`read_text`, :func:`parse_json` and :func:`parse_toml`.
    """
    p = Path(path)
    text = read_text(p, error, what)
    if p.suffix.lower() == ".toml":
        return parse_toml(text, str(p), error)
    return parse_json(text, str(p), error)


_SHOWN_NODES = 24


def shown(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """``value`` (any parsed or Python value) written for an error message, safely and
    briefly: strings quoted as by :func:`excerpt`, numbers and small containers as their
    ``repr`` cut to ``limit`` characters (``[1, 2, 3]``); a
    container with more than a few items, or nested, as a summary (``a list of 3000 items``);
    an integer with more than ``limit`` digits by its number of digits. Never recurses, so a
    deeply nested or huge value cannot raise ``RecursionError`` or ``ValueError`` here."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 3 * limit:
            return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
        return _cut(str(value), limit)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return excerpt(value, limit)
    if isinstance(value, dict | list | tuple):
        nodes = 0
        stack: list[Any] = [value]
        while stack and nodes <= _SHOWN_NODES:
            item = stack.pop()
            nodes += 1
            if isinstance(item, dict):
                stack.extend(item.keys())
                stack.extend(item.values())
            elif isinstance(item, list | tuple):
                stack.extend(item)
            elif isinstance(item, int) and not isinstance(item, bool):
                if item.bit_length() > 64:
                    nodes = _SHOWN_NODES + 1
            elif not isinstance(item, str | float | bool | type(None)):
                nodes = _SHOWN_NODES + 1
        if nodes <= _SHOWN_NODES:
            return _cut(repr(value), limit)
        kind = "table" if isinstance(value, dict) else "list"
        unit = "field" if isinstance(value, dict) else "item"
        return f"a {kind} of {len(value)} {unit}{'s' if len(value) != 1 else ''}"
    return _cut(repr(value), limit)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
