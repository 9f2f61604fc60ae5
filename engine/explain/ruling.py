"""What :func:`engine.explain.explain` returns: a :class:`Ruling` (the answer, the steps that
led to it with the rule section and source of each, and what a picture of it draws), and
its stable JSON form (``docs/EXPLAIN.md``, schema :data:`SCHEMA`)."""

from __future__ import annotations

from typing import Any

import attrs

from engine.errors import KillTeamError

__all__ = [
    "SCHEMA",
    "SOURCES",
    "Drawing",
    "QueryError",
    "Ruling",
    "Step",
    "source_of_module",
]

#: The version of the JSON form (:meth:`Ruling.to_json`); a change of shape changes it.
SCHEMA = "killteam-explain/1"

#: Where a rule comes from: the core rules, a weapon rule, a ploy, equipment, a team rule,
#: the mission (its ops and actions) or another rule module of the engine.
SOURCES = ("core", "weapon rule", "ploy", "equipment", "team rule", "mission", "rule")


class QueryError(KillTeamError, ValueError):
    """A query that cannot be read or names something that is not there; the message names
    the bad word (``killteam explain`` prints it on one line and exits with status 2)."""


def source_of_module(module: str) -> str:
    """The source (one of :data:`SOURCES`) of a hook function defined in ``module`` (its
    ``__module__``): ``teams.*`` a team rule, ``engine.missions.*`` the mission,
    ``engine.rules.equipment.*`` equipment, ploy modules a ploy, weapon-rule modules a weapon
    rule, ``engine.game.*`` the core, anything else a rule module."""
    if module.startswith("teams."):
        return "team rule"
    if module.startswith("engine.missions"):
        return "mission"
    if module.startswith("engine.rules.equipment"):
        return "equipment"
    if "ploy" in module:
        return "ploy"
    if "weapon_rules" in module:
        return "weapon rule"
    if module.startswith(("engine.game", "engine.rules.close_quarters")):
        return "core"
    return "rule"


@attrs.frozen(slots=True)
class Step:
    """One step of a ruling: a check the engine makes, its result and the rule behind it.

    Attributes:
        check: what is checked (``"visible"``, ``"in cover"``, ``"precheck"``...).
        result: its result in a word or two (``"yes"``, ``"no"``, ``"3"``...).
        detail: one sentence saying why (names parts, lines, operatives, distances).
        rule: the section of ``rules/KT24.md`` (``"4.5"``), or ``""``.
        source: one of :data:`SOURCES`.
        by: the rule module or hook that decided it (``""``: the core's own code).
    """

    check: str
    result: str
    detail: str = ""
    rule: str = ""
    source: str = "core"
    by: str = ""

    def to_json(self) -> dict[str, str]:
        """The step as a JSON object (every field, as text)."""
        return {
            "check": self.check,
            "result": self.result,
            "detail": self.detail,
            "rule": self.rule,
            "source": self.source,
            "by": self.by,
        }


@attrs.frozen(slots=True)
class Drawing:
    """What ``--picture`` draws for a ruling (inches).

    Attributes:
        operatives: ``(id, x, y, radius)`` of the operatives the query names.
        lines: ``(x0, y0, x1, y1, clear)``: the lines used (``clear``: nothing blocks or
            intervenes).
        parts: ``(part index, role)``: the terrain parts used (``"cover"``, ``"obscuring"``,
            ``"blocking"``, ``"intervening"``, ``"vetoed"``).
        distances: ``(x0, y0, x1, y1, label)``: distances measured.
        markers: ``(name, x, y)`` of the markers the query names.
    """

    operatives: tuple[tuple[str, float, float, float], ...] = ()
    lines: tuple[tuple[float, float, float, float, bool], ...] = ()
    parts: tuple[tuple[int, str], ...] = ()
    distances: tuple[tuple[float, float, float, float, str], ...] = ()
    markers: tuple[tuple[str, float, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The drawing as a JSON object of lists."""
        return {
            "operatives": [
                {"id": i, "x": round(x, 3), "y": round(y, 3), "radius": round(r, 3)}
                for i, x, y, r in self.operatives
            ],
            "lines": [
                {"from": [round(a, 3), round(b, 3)], "to": [round(c, 3), round(d, 3)], "clear": k}
                for a, b, c, d, k in self.lines
            ],
            "parts": [{"part": p, "role": r} for p, r in self.parts],
            "distances": [
                {"from": [round(a, 3), round(b, 3)], "to": [round(c, 3), round(d, 3)], "label": t}
                for a, b, c, d, t in self.distances
            ],
            "markers": [
                {"name": n, "x": round(x, 3), "y": round(y, 3)} for n, x, y in self.markers
            ],
        }


@attrs.frozen(slots=True)
class Ruling:
    """The answer to one query and the rules behind it.

    Attributes:
        query: the query as read (normalised). kind: ``"target"``, ``"can"``,
            ``"control"``, ``"attack"`` or ``"event"``.
        answer: the ruling in one line (``"TAR-2 is a valid target for PRO-1"``).
        verdict: the answer as a value: a bool (target, can), a player or ``""``
            (control), the expected damage (attack), the event kind (event).
        steps: the checks in the order the engine makes them.
        data: query-specific values (JSON-ready: numbers, text, lists, objects).
        drawing: what a picture of the ruling draws.
    """

    query: str
    kind: str
    answer: str
    verdict: Any
    steps: tuple[Step, ...]
    data: dict[str, Any] = attrs.field(factory=dict)
    drawing: Drawing = Drawing()

    def to_json(self) -> dict[str, Any]:
        """The stable JSON form (``docs/EXPLAIN.md``): ``schema``, ``query``, ``kind``,
        ``answer``, ``verdict``, ``steps`` (objects of :meth:`Step.to_json`), ``data``,
        ``drawing`` (:meth:`Drawing.to_json`)."""
        return {
            "schema": SCHEMA,
            "query": self.query,
            "kind": self.kind,
            "answer": self.answer,
            "verdict": self.verdict,
            "steps": [s.to_json() for s in self.steps],
            "data": self.data,
            "drawing": self.drawing.to_json(),
        }
