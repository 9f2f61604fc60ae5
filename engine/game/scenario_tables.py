"""Reading the tables of a complete position and the expectations about it (the format:
:mod:`engine.game.scenario_file`): the phase and step a position starts in, the players'
counters, effects in force, the mission's state, the operatives' counters, and the
expectations ``control``, ``sees``, ``rejected_option``, ``tp``, ``phase`` and
``initiative``; each reader checks every field and names the file and the field's path in
its errors (:func:`engine.game.scenario_values.fail`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from engine.game.context import GameOptions
from engine.game.scenario_state import CARDS, EFFECT_UNTIL, PHASE_STEPS, PHASES
from engine.game.scenario_values import (
    MAX_COUNT,
    MAX_LIST_ITEMS,
    bool_,
    fail,
    keys,
    list_,
    pair,
    player,
    str_list,
    text,
    whole,
)
from engine.inputs import shown

__all__ = [
    "CHOICE_POLICIES",
    "POSITION_STATE_KEYS",
    "STATE_EXPECT_KEYS",
    "expect_state",
    "position_state",
]

CHOICE_POLICIES = ("ask", "best", "decline")
"""The values of a scenario's ``choices`` (:mod:`engine.game.scenario_file`)."""

POSITION_STATE_KEYS = {
    "phase",
    "step",
    "initiative_roll",
    "gambit_turn",
    "players",
    "effects",
    "mission",
}
"""The ``[position]`` fields :func:`position_state` reads."""
_PLAYER_KEYS = {"cards", "ploys_used", "uses", "cp_spent", "kill_grade"}
_EFFECT_KEYS = {"kind", "op", "until", "source", "value", "detail", "player", "pending"}
_MISSION_KEYS = {"tac_revealed", "vp", "tp_vp", "facts"}
_OPS = {"kill", "crit", "tac", "primary"}
_SEES_KEYS = {"tac_ops", "primary_ops", "crit_op", "hidden", "tac_revealed", "facts"}
_OPTION_FIELDS = set(attrs.fields_dict(GameOptions))
STATE_EXPECT_KEYS = {"control", "sees", "rejected_option", "tp", "phase", "initiative"}
"""The expectation fields :func:`expect_state` reads."""


def _counter_table(source: str, where: str, value: Any) -> dict[str, int]:
    table = keys(source, where, value, None)
    return {str(k): whole(source, f"{where}.{k}", v) for k, v in table.items()}


def _players(source: str, value: Any) -> dict[str, dict[str, Any]]:
    table = keys(source, "position.players", value, {"A", "B"})
    out: dict[str, dict[str, Any]] = {}
    for p, spec in table.items():
        where = f"position.players.{p}"
        spec = keys(source, where, spec, _PLAYER_KEYS)
        item: dict[str, Any] = {}
        if "cards" in spec:
            cards = str_list(source, f"{where}.cards", spec["cards"])
            for i, c in enumerate(cards):
                if c not in CARDS:
                    raise fail(
                        source,
                        f"{where}.cards[{i + 1}]",
                        f"{shown(c)} is not an initiative card ({', '.join(CARDS)})",
                    )
            item["cards"] = cards
        if "ploys_used" in spec:
            item["ploys_used"] = str_list(source, f"{where}.ploys_used", spec["ploys_used"])
        if "uses" in spec:
            item["uses"] = _counter_table(source, f"{where}.uses", spec["uses"])
        for k in ("cp_spent", "kill_grade"):
            if k in spec:
                item[k] = whole(source, f"{where}.{k}", spec[k])
        out[str(p)] = item
    return out


def _effects(source: str, value: Any) -> list[dict[str, Any]]:
    items = list_(source, "position.effects", value, "effect tables ([[position.effects]])")
    out = []
    for n, raw in enumerate(items):
        where = f"position.effects[{n}]"
        spec = keys(source, where, raw, _EFFECT_KEYS)
        if "kind" not in spec:
            raise fail(source, where, "'kind' is required (the effect's kind, e.g. 'markerlight')")
        item: dict[str, Any] = {"kind": text(source, f"{where}.kind", spec["kind"], "a kind")}
        for k in ("op", "source", "detail"):
            if k in spec:
                item[k] = text(source, f"{where}.{k}", spec[k], "a string")
        if "player" in spec:
            item["player"] = player(source, f"{where}.player", spec["player"])
        if "until" in spec:
            until = text(source, f"{where}.until", spec["until"], "a duration")
            if until not in EFFECT_UNTIL:
                raise fail(
                    source,
                    f"{where}.until",
                    f"{shown(until)} is not one of {', '.join(EFFECT_UNTIL)}",
                )
            item["until"] = until
        if "value" in spec:
            item["value"] = whole(source, f"{where}.value", spec["value"], -MAX_COUNT)
        if "pending" in spec:
            item["pending"] = bool_(source, f"{where}.pending", spec["pending"])
        if "op" not in item and "player" not in item:
            raise fail(source, where, "name the operative (op) or the player it is on")
        out.append(item)
    return out


def _fact(source: str, where: str, value: Any, depth: int = 0) -> Any:
    """A fact's value: a string, a whole number, a boolean, or a list of those (nested)."""
    if isinstance(value, str):
        return text(source, where, value, "a string")
    if isinstance(value, bool | int):
        return value
    if isinstance(value, list) and depth < 4:
        list_(source, where, value, "values")
        return [_fact(source, f"{where}[{i}]", v, depth + 1) for i, v in enumerate(value)]
    raise fail(
        source,
        where,
        f"a fact is a string, a whole number, true/false or a list, not {shown(value)}",
    )


def _mission(source: str, value: Any) -> dict[str, Any]:
    table = keys(source, "position.mission", value, _MISSION_KEYS)
    out: dict[str, Any] = {}
    if "tac_revealed" in table:
        rev = keys(source, "position.mission.tac_revealed", table["tac_revealed"], {"A", "B"})
        out["tac_revealed"] = {
            p: bool_(source, f"position.mission.tac_revealed.{p}", v) for p, v in rev.items()
        }
    for k in ("vp", "tp_vp"):
        if k in table:
            ops = keys(source, f"position.mission.{k}", table[k], _OPS)
            out[k] = {op: pair(source, f"position.mission.{k}.{op}", v) for op, v in ops.items()}
    if "facts" in table:
        facts = keys(source, "position.mission.facts", table["facts"], None)
        out["facts"] = {
            str(key): _fact(source, f"position.mission.facts.{key}", v) for key, v in facts.items()
        }
    return out


def position_state(source: str, table: Mapping[str, Any]) -> dict[str, Any]:
    """The complete-position fields of the ``[position]`` table (module docstring): ``phase``,
    ``step``, ``initiative_roll``, ``gambit_turn``, ``players``, ``effects`` and ``mission``,
    as the keyword arguments of :func:`engine.game.scenario.position`.

    Raises:
        ScenarioFileError: a malformed field, a phase or step that does not exist, a field
            that does not fit the phase (operatives before deployment, a turn outside the
            Firefight phase...).
    """
    out: dict[str, Any] = {}
    phase = "firefight"
    if "phase" in table:
        phase = text(source, "position.phase", table["phase"], "a phase")
        if phase not in PHASES:
            raise fail(
                source, "position.phase", f"{shown(phase)} is not one of {', '.join(PHASES)}"
            )
        out["phase"] = phase
    if "step" in table:
        step = text(source, "position.step", table["step"], "a step")
        if step not in PHASE_STEPS[phase]:
            raise fail(
                source,
                "position.step",
                f"{shown(step)} is not a step of the {phase} phase "
                f"({', '.join(PHASE_STEPS[phase])})",
            )
        out["step"] = step
    step = out.get("step", PHASE_STEPS[phase][0])
    if "initiative_roll" in table:
        if (phase, step) != ("strategy", "initiative"):
            raise fail(
                source,
                "position.initiative_roll",
                'only with phase = "strategy", step = "initiative" (the roll-off is made there)',
            )
        roll = pair(source, "position.initiative_roll", table["initiative_roll"])
        for k, v in enumerate(roll):
            whole(source, f"position.initiative_roll[{k}]", v, 1, 6)
        out["initiative_roll"] = roll
    if "gambit_turn" in table:
        if (phase, step) != ("strategy", "gambit"):
            raise fail(
                source, "position.gambit_turn", 'only with phase = "strategy", step = "gambit"'
            )
        out["gambit_turn"] = player(source, "position.gambit_turn", table["gambit_turn"])
    if "turn" in table and phase != "firefight":
        raise fail(
            source,
            "position.turn",
            f"whose turn to activate: only in the firefight phase, not {phase}",
        )
    if phase in ("setup", "deployment") and "tp" in table:
        raise fail(source, "position.tp", f"the {phase} phase comes before the first turning point")
    if phase == "setup":
        for field in ("operatives", "initiative"):
            if field in table:
                raise fail(source, f"position.{field}", "not before the set-up roll-off (1.2)")
    if "players" in table:
        out["players"] = _players(source, table["players"])
    if "effects" in table:
        out["effects"] = _effects(source, table["effects"])
    if "mission" in table:
        out["mission"] = _mission(source, table["mission"])
    return out


def _sees(source: str, where: str, value: Any) -> dict[str, dict[str, Any]]:
    table = keys(source, where, value, {"A", "B"})
    out: dict[str, dict[str, Any]] = {}
    for p, spec in table.items():
        w = f"{where}.{p}"
        spec = keys(source, w, spec, _SEES_KEYS)
        item: dict[str, Any] = {}
        for k in ("tac_ops", "primary_ops"):
            if k in spec:
                got = str_list(source, f"{w}.{k}", spec[k])
                if len(got) != 2:
                    raise fail(
                        source,
                        f"{w}.{k}",
                        f'[A, B] as the viewer sees them ("?" hidden), not {shown(got)}',
                    )
                item[k] = got
        if "tac_revealed" in spec:
            v = spec["tac_revealed"]
            if not isinstance(v, list) or len(v) != 2:
                raise fail(source, f"{w}.tac_revealed", f"[A, B] true/false, not {shown(v)}")
            item["tac_revealed"] = [
                bool_(source, f"{w}.tac_revealed[{i}]", x) for i, x in enumerate(v)
            ]
        if "crit_op" in spec:
            item["crit_op"] = text(source, f"{w}.crit_op", spec["crit_op"], "a crit op")
        for k in ("hidden", "facts"):
            if k in spec:
                item[k] = str_list(source, f"{w}.{k}", spec[k])
        out[str(p)] = item
    return out


def _rejected(source: str, where: str, value: Any) -> list[tuple[dict[str, Any], str]]:
    items = list_(source, where, value, "{ options = { ... }, reason = '...' } tables")
    out = []
    for i, raw in enumerate(items):
        w = f"{where}[{i + 1}]"
        spec = keys(source, w, raw, {"options", "reason"})
        if "options" not in spec:
            raise fail(source, w, "'options' (the game options tried) is required")
        opts = keys(source, f"{w}.options", spec["options"], _OPTION_FIELDS)
        if not opts:
            raise fail(source, f"{w}.options", "at least one game option")
        reason = text(source, f"{w}.reason", spec.get("reason", ""), "a reason")
        out.append((dict(opts), reason))
    return out


def expect_state(source: str, where: str, table: Mapping[str, Any]) -> dict[str, Any]:
    """The expectations about a position's state in the expectation ``table`` (module
    docstring): ``control`` (marker -> ``"A"``, ``"B"`` or ``""`` none), ``sees`` (player
    -> what the player's view shows), ``rejected_option`` (game options refused with a
    message containing ``reason``), ``tp``, ``phase``, ``initiative``.

    Raises:
        ScenarioFileError: a malformed field.
    """
    out: dict[str, Any] = {}
    if "control" in table:
        ctl = keys(source, f"{where}.control", table["control"], None)
        checks = {}
        for name, v in ctl.items():
            if not isinstance(v, str) or v not in ("A", "B", ""):
                raise fail(
                    source, f"{where}.control.{name}", f'"A", "B" or "" (none), not {shown(v)}'
                )
            checks[str(name)] = v
        out["control"] = checks
    if "sees" in table:
        out["sees"] = _sees(source, f"{where}.sees", table["sees"])
    if "rejected_option" in table:
        out["rejected_option"] = _rejected(
            source, f"{where}.rejected_option", table["rejected_option"]
        )
    if "tp" in table:
        out["tp"] = whole(source, f"{where}.tp", table["tp"], 0, 5)
    if "phase" in table:
        out["phase"] = text(source, f"{where}.phase", table["phase"], "a phase")
    if "initiative" in table:
        out["initiative"] = player(source, f"{where}.initiative", table["initiative"])
    if len(out) > MAX_LIST_ITEMS:  # pragma: no cover - bounded by the table's keys
        raise fail(source, where, "too many expectations")
    return out
