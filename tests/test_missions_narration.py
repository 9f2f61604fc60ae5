"""Every event the mission modules emit is narrated (``engine.game.events.add_template``;
``rules/KT24.md`` 8).

The events are found in the source: every ``w.emit("<kind>", key=...)`` call under
``engine/missions``. Each kind must have a template that gives a line for an event with the
keys that call passes (sample values stand for the real ones), so a new op's event cannot
go unnarrated.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.game.events import Event, narrate
from engine.missions import pack

MISSIONS = Path(__file__).resolve().parent.parent / "engine" / "missions"


class Sample(str):
    """A stand-in value for any event field: text that takes any format spec and any index
    (a template may format it as a number or index it)."""

    __slots__ = ()

    def __new__(cls, text: str = "X") -> Sample:
        return super().__new__(cls, text)

    def __format__(self, spec: str) -> str:
        return str(self)

    def __getitem__(self, key: object) -> Sample:
        return Sample()


def emitted() -> dict[str, tuple[str, set[str]]]:
    """Each event kind emitted under ``engine/missions`` -> (where, the keys passed)."""
    found: dict[str, tuple[str, set[str]]] = {}
    for path in sorted(MISSIONS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "emit"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                continue
            kind = node.args[0].value
            keys = {k.arg for k in node.keywords if k.arg is not None}
            where = f"{path.relative_to(MISSIONS.parent.parent)}:{node.lineno}"
            old = found.get(kind)
            found[kind] = (old[0] if old else where, (old[1] if old else set()) | keys)
    return found


EMITTED = emitted()


def test_the_mission_modules_emit_events() -> None:
    # The scan finds the ops' events (a guard against a scan that finds nothing).
    assert {"vp_scored", "mission_marker_placed", "banner_planted", "marker_secured"} <= set(
        EMITTED
    )


@pytest.mark.parametrize("kind", sorted(EMITTED))
def test_8_every_mission_event_has_a_narration_line(kind: str) -> None:
    pack.crit_ops()  # every op module imported: their templates are registered
    where, keys = EMITTED[kind]
    event = Event.make(kind, **{k: Sample() for k in sorted(keys)})
    assert narrate(event).strip(), f"event {kind!r} ({where}) has no narration template"


def test_8_mission_marker_narration() -> None:
    # A marker handed to an operative and one put on the killzone read differently.
    carried = Event.make(
        "mission_marker_placed",
        player="A",
        marker="A retrieval 1",
        mission_op="Retrieval",
        carrier="RED-1",
        x=3.0,
        y=4.0,
    )
    placed = Event.make(
        "mission_marker_placed",
        player="A",
        marker="A intelligence 1",
        mission_op="Steal Intelligence",
        carrier="",
        x=16.0,
        y=14.5,
    )
    pack.crit_ops()
    assert narrate(carried) == "  RED-1 now carries A retrieval 1 (Retrieval)"
    assert narrate(placed) == "  A intelligence 1 is placed at (16, 14.5) (Steal Intelligence)"
