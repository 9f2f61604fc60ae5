"""Reading the fields of a scenario file (the format: :mod:`engine.game.scenario_file`): its
errors and limits, a script step, and one reader per table, each checking every field and
naming the file and the field's path in its errors (:func:`scenario_fields`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.game.actions import Action, parse_action
from engine.game.context import LAST_ROUNDS, RULESETS, GameOptions
from engine.game.scenario_tables import (
    CHOICE_POLICIES,
    POSITION_STATE_KEYS,
    STATE_EXPECT_KEYS,
    expect_state,
    position_state,
)
from engine.game.scenario_values import (
    MAX_COUNT,
    MAX_DESCRIPTION_CHARS,
    MAX_LIST_ITEMS,
    MAX_POSITION_OPERATIVES,
    MAX_STEPS,
    MAX_TEXT_CHARS,
    OPERATIVE_KEYS,
    POSITION_TOLERANCE,
    ExpectationError,
    ScenarioFileError,
    ScenarioFileProblem,
    ScenarioScriptError,
)
from engine.game.scenario_values import bool_ as _bool
from engine.game.scenario_values import carrying as _carrying
from engine.game.scenario_values import fail as _fail
from engine.game.scenario_values import keys as _keys
from engine.game.scenario_values import list_ as _list
from engine.game.scenario_values import pair as _pair
from engine.game.scenario_values import player as _player
from engine.game.scenario_values import point as _point
from engine.game.scenario_values import str_list as _str_list
from engine.game.scenario_values import text as _text
from engine.game.scenario_values import whole as _whole
from engine.geometry import Killzone, load_killzone
from engine.inputs import check_tree, shown
from engine.teams.io import load_builtin_team, load_team
from engine.teams.model import Roster
from engine.teams.roster_file import choice_table

__all__ = [
    "MAX_COUNT",
    "MAX_DESCRIPTION_CHARS",
    "MAX_LIST_ITEMS",
    "MAX_POSITION_OPERATIVES",
    "MAX_STEPS",
    "MAX_TEXT_CHARS",
    "POSITION_TOLERANCE",
    "ExpectationError",
    "ScenarioFileError",
    "ScenarioFileProblem",
    "ScenarioScriptError",
    "Step",
    "scenario_fields",
]


_TOP_KEYS = {
    "name",
    "description",
    "rules",
    "killzone",
    "ruleset",
    "teams",
    "options",
    "position",
    "steps",
    "expect",
    "choices",
}
_TEAM_KEYS = {"team", "operatives", "choices", "operative_choices"}
_OPTION_KEYS = {
    "ruleset",
    "objectives_pickup",
    "initiative_cards",
    "close_quarters",
    "open_windows",
    "mission",
    "crit_op",
    "tac_ops",
    "primary_ops",
}
_POSITION_KEYS = {
    "tp",
    "initiative",
    "turn",
    "cp",
    "vp",
    "open_hatchways",
    "operatives",
    "equipment",
    "tokens",
} | POSITION_STATE_KEYS
_TOKEN_KEYS = {"kind", "owner", "at", "angle", "name", "counters"}
_VP_OPS = {"kill", "crit", "tac", "primary"}
_POS_OP_KEYS = OPERATIVE_KEYS
_STEP_KEYS = {"name", "actions", "dice", "expect"}
_EXPECT_KEYS = {
    "vp_by_op",
    "kill_grade",
    "tokens",
    "cp",
    "vp",
    "node",
    "legal",
    "illegal",
    "options",
    "events",
    "no_events",
    "effects",
    "no_effects",
    "operatives",
} | STATE_EXPECT_KEYS
_EFFECT_KEYS = {"kind", "op", "until", "source", "value", "detail", "player", "pending", "count"}
_EXPECT_OP_KEYS = {
    "wounds",
    "at",
    "order",
    "ready",
    "incapacitated",
    "on_killzone",
    "carrying",
    "counteracted",
    "on_guard",
    "ap",
}


@attrs.frozen(slots=True)
class Step:
    """One step of a script: actions, dice and the expectations checked after it.

    Attributes:
        name: names the step in errors.
        actions: the actions (parsed).
        dice: the rolls (parsed ``roll`` actions), used in order.
        expect: the expectation table (validated; module docstring).
    """

    name: str
    actions: tuple[Action, ...]
    dice: tuple[Action, ...]
    expect: Mapping[str, Any]


def scenario_fields(data: Mapping[str, Any], source: str, base: Path) -> dict[str, Any]:
    """The fields of a :class:`~engine.game.scenario_file.Scenario` read from the parsed TOML
    ``data`` (the format: :mod:`engine.game.scenario_file`); relative paths are resolved
    from ``base``.

    Raises:
        ScenarioFileError: an unknown or malformed field, a limit exceeded, nesting too deep
            or a number out of range (:func:`engine.inputs.check_tree`), an invalid killzone
            or team.
    """
    if not isinstance(data, Mapping):
        raise _fail(source, "top level", f"expected a table, not {shown(data)}")
    check_tree(data, source, ScenarioFileError)
    _keys(source, "top level", data, _TOP_KEYS)
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(source, "name", "every scenario needs a name (a non-empty string)")
    _text(source, "name", name, "a name")
    description = _text(
        source,
        "description",
        data.get("description", ""),
        "a description",
        MAX_DESCRIPTION_CHARS,
    )
    rules = _str_list(source, "rules", data.get("rules", []))
    killzone = _killzone(source, base, data.get("killzone"))
    teams = _keys(source, "teams", data.get("teams", {}), {"A", "B"})
    rosters = []
    for p in ("A", "B"):
        if p not in teams:
            raise _fail(source, "teams", f"a roster for player {p} is required ([teams.{p}])")
        rosters.append(_roster(source, base, f"teams.{p}", teams[p]))
    opts = _keys(source, "options", data.get("options", {}), _OPTION_KEYS)
    for k, v in opts.items():
        if k in ("mission", "crit_op", "ruleset"):
            _text(source, f"options.{k}", v, "a name")
        elif k in ("tac_ops", "primary_ops"):
            table = _keys(source, f"options.{k}", v, {"A", "B"})
            for p, op_name in table.items():
                _text(source, f"options.{k}.{p}", op_name, "a name")
        elif not (isinstance(v, bool) or (k == "close_quarters" and v is None)):
            raise _fail(source, f"options.{k}", f"expected true or false, not {shown(v)}")
    ruleset = _text(source, "ruleset", data.get("ruleset", RULESETS[0]), "a ruleset name")
    if ruleset not in RULESETS:
        raise _fail(source, "ruleset", f"{shown(ruleset)} is not one of {', '.join(RULESETS)}")
    try:
        options = GameOptions(ruleset=ruleset, **dict(opts))
    except KillTeamError as exc:
        raise _fail(source, "options", str(exc)) from None
    pos = _position(source, data.get("position"), LAST_ROUNDS[ruleset])
    choices = _text(source, "choices", data.get("choices", "ask"), "a choices policy")
    if choices not in CHOICE_POLICIES:
        raise _fail(
            source, "choices", f"{shown(choices)} is not one of {', '.join(CHOICE_POLICIES)}"
        )
    steps_data = data.get("steps", [])
    if not isinstance(steps_data, list):
        raise _fail(source, "steps", "expected an array of tables ([[steps]])")
    if len(steps_data) > MAX_STEPS:
        raise _fail(
            source, "steps", f"{len(steps_data)} steps; a scenario may have at most {MAX_STEPS}"
        )
    steps = tuple(_step(source, k, s) for k, s in enumerate(steps_data))
    expect = _expect(source, "expect", data.get("expect", {}))
    return dict(
        source=source,
        name=name,
        description=description,
        rules=tuple(rules),
        killzone=killzone,
        rosters=(rosters[0], rosters[1]),
        options=options,
        position=pos,
        steps=steps,
        expect=expect,
        choices=choices,
    )


def _killzone(source: str, base: Path, value: Any) -> Killzone:
    if value is None:
        raise _fail(source, "killzone", "required: a shipped name, a file path or a table")
    try:
        if isinstance(value, Mapping):
            return Killzone.from_dict(value, source=f"{source}: killzone")
        if not isinstance(value, str):
            raise _fail(
                source, "killzone", f"expected a name, a path or a table, not {shown(value)}"
            )
        _text(source, "killzone", value, "a name or a path")
        candidate = base / value
        if Path(value).suffix in (".toml", ".json"):
            return load_killzone(candidate)
        return load_killzone(value)
    except ScenarioFileError:
        raise
    except KillTeamError as exc:
        raise _fail(source, "killzone", str(exc)) from None


def _roster(source: str, base: Path, where: str, value: Any) -> Roster:
    table = _keys(source, where, value, _TEAM_KEYS)
    ref = table.get("team")
    if not isinstance(ref, str) or not ref or "\x00" in ref:
        raise _fail(source, f"{where}.team", "a built-in team id or a team file path")
    _text(source, f"{where}.team", ref, "a team id or path")
    try:
        team = load_team(base / ref) if ref.endswith(".json") else load_builtin_team(ref)
    except KillTeamError as exc:
        raise _fail(source, f"{where}.team", str(exc)) from None
    if "operatives" not in table:
        return _choices(source, where, table, team.default())
    ops = _str_list(source, f"{where}.operatives", table["operatives"])
    known = [o.name for o in team.operatives]
    try:
        parsed = Roster.from_entries(team, ops)
    except ValueError as exc:
        raise _fail(source, f"{where}.operatives", str(exc)) from None
    for o in parsed.operatives:
        if o not in known:
            raise _fail(
                source,
                f"{where}.operatives",
                f"team {team.id!r} has no operative {o!r} (types: {', '.join(known)})",
            )
    if not ops:
        raise _fail(source, f"{where}.operatives", "at least one operative")
    return _choices(source, where, table, parsed)


def _choices(source: str, where: str, table: Mapping[str, Any], roster: Roster) -> Roster:
    """``roster`` with the roster-time choices of ``table`` (``choices = { "Chapter Tactics"
    = ["Aggressive", "Hardy"] }``, ``operative_choices = [{ "Mark of Chaos" = "Khorne" },
    ...]``), checked against the team's declarations."""
    try:
        choices = choice_table(table.get("choices", {}), "choices")
        per_op = table.get("operative_choices", [])
        if not isinstance(per_op, list):
            raise ValueError("field 'operative_choices': one table per operative, in order")
        op_choices = [choice_table(v, f"operative_choices[{k}]") for k, v in enumerate(per_op)]
    except ValueError as exc:
        raise _fail(source, f"{where}.choices", str(exc)) from None
    out = roster.with_choices(choices, op_choices)
    problems = [p for p in out.validate() if p.startswith("choice:")]
    if problems:
        raise _fail(source, f"{where}.choices", "; ".join(problems))
    return out


def _position(source: str, value: Any, last: int) -> dict[str, Any]:
    if value is None:
        raise _fail(source, "position", "required: [position] with its [position.operatives]")
    table = _keys(source, "position", value, _POSITION_KEYS)
    out: dict[str, Any] = position_state(source, table)
    phase = out.get("phase", "firefight")
    if "tp" in table:
        tp = table["tp"]
        if not isinstance(tp, int) or isinstance(tp, bool) or not 1 <= tp <= last:
            raise _fail(
                source,
                "position.tp",
                f"a turning point (battle round) 1 to {last} of this ruleset, not {shown(tp)}",
            )
        out["tp"] = tp
    if "initiative" in table:
        out["initiative"] = _player(source, "position.initiative", table["initiative"])
    if "turn" in table:
        out["turn"] = _player(source, "position.turn", table["turn"])
    for k in ("cp", "vp"):
        if k in table:
            out[k] = _pair(source, f"position.{k}", table[k])
    if "open_hatchways" in table:
        out["open_hatchways"] = _str_list(
            source, "position.open_hatchways", table["open_hatchways"]
        )
    if "equipment" in table:
        eq = _keys(source, "position.equipment", table["equipment"], {"A", "B"})
        out["equipment"] = {
            p: _str_list(source, f"position.equipment.{p}", v) for p, v in eq.items()
        }
    if "tokens" in table:
        raw_tokens = table["tokens"]
        if not isinstance(raw_tokens, list) or len(raw_tokens) > MAX_LIST_ITEMS:
            raise _fail(
                source, "position.tokens", "expected an array of tables ([[position.tokens]])"
            )
        tokens = []
        for n, raw_t in enumerate(raw_tokens):
            where = f"position.tokens[{n}]"
            t = _keys(source, where, raw_t, _TOKEN_KEYS)
            if "kind" not in t or "at" not in t:
                raise _fail(source, where, "'kind' and 'at' = [x, y] are required")
            item: dict[str, Any] = {
                "kind": _text(source, f"{where}.kind", t["kind"], "a token kind"),
                "at": _point(source, f"{where}.at", t["at"]),
            }
            if "owner" in t:
                item["owner"] = _player(source, f"{where}.owner", t["owner"])
            if "angle" in t:
                item["angle"] = _whole(source, f"{where}.angle", t["angle"], 0, 359)
            if "name" in t:
                item["name"] = _text(source, f"{where}.name", t["name"], "a token name")
            if "counters" in t:
                counters = _keys(source, f"{where}.counters", t["counters"], None)
                item["counters"] = {
                    str(k): _whole(source, f"{where}.counters.{k}", v) for k, v in counters.items()
                }
            tokens.append(item)
        out["tokens"] = tokens
    raw = table.get("operatives", {})
    if not isinstance(raw, Mapping) or (not raw and phase not in ("setup", "deployment")):
        raise _fail(source, "position.operatives", "at least one [position.operatives.ID]")
    _keys(source, "position.operatives", raw, None)
    specs: dict[str, dict[str, Any]] = {}
    for op_id, spec in raw.items():
        where = f"position.operatives.{op_id}"
        spec = _keys(source, where, spec, _POS_OP_KEYS)
        if spec.get("incapacitated") is not None:
            dead = _bool(source, f"{where}.incapacitated", spec["incapacitated"])
            if dead and set(spec) != {"incapacitated"}:
                raise _fail(
                    source,
                    where,
                    "an incapacitated operative is not on the killzone: no other field",
                )
            if dead:
                specs[str(op_id)] = {"incapacitated": True}
                continue
        if "at" not in spec:
            raise _fail(source, where, "'at' = [x, y] or [x, y, z] is required")
        s: dict[str, Any] = {"at": _point(source, f"{where}.at", spec["at"])}
        if "order" in spec:
            if not isinstance(spec["order"], str) or spec["order"] not in ("engage", "conceal"):
                raise _fail(
                    source, f"{where}.order", f'"engage" or "conceal", not {shown(spec["order"])}'
                )
            s["order"] = spec["order"]
        if "wounds" in spec:
            s["wounds"] = _whole(source, f"{where}.wounds", spec["wounds"])
        for k in ("ready", "counteracted", "on_guard", "interrupted"):
            if k in spec:
                s[k] = _bool(source, f"{where}.{k}", spec[k])
        if "ap" in spec:
            s["ap"] = _whole(source, f"{where}.ap", spec["ap"], 0, 9)
        if "limited" in spec:
            lim = _keys(source, f"{where}.limited", spec["limited"], None)
            s["limited"] = {
                str(k): _whole(source, f"{where}.limited.{k}", v) for k, v in lim.items()
            }
        if "carrying" in spec:
            s["carrying"] = _carrying(source, f"{where}.carrying", spec["carrying"])
        if "tokens" in spec:
            s["tokens"] = _str_list(source, f"{where}.tokens", spec["tokens"])
        specs[str(op_id)] = s
    out["operatives"] = specs
    return out


def _roll(source: str, where: str, value: Any) -> Action:
    if isinstance(value, list):
        if (
            not value
            or len(value) > MAX_LIST_ITEMS
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise _fail(source, where, f"a roll is a list of die faces, not {shown(value)}")
        text = ",".join(str(v) for v in value)
    elif isinstance(value, str):
        text = _text(source, where, value, "a roll").strip()
        if text.lower().startswith("roll"):
            text = text[4:].strip()
    else:
        raise _fail(source, where, f'a roll is "6,4,1" or [6, 4, 1], not {shown(value)}')
    try:
        a = parse_action(f"roll {text}")
    except KillTeamError as exc:
        raise _fail(source, where, f"not a roll: {shown(value)} ({exc})") from None
    return a


def _action(source: str, where: str, value: Any) -> Action:
    _text(source, where, value, "an action in notation")
    try:
        return parse_action(value)
    except KillTeamError as exc:
        raise _fail(source, where, str(exc)) from None


def _step(source: str, k: int, value: Any) -> Step:
    where = f"steps[{k + 1}]"
    table = _keys(source, where, value, _STEP_KEYS)
    name = _text(source, f"{where}.name", table.get("name", f"step {k + 1}"), "a name")
    actions = _str_list(source, f"{where}.actions", table.get("actions", []))
    dice = _list(source, f"{where}.dice", table.get("dice", []), "rolls")
    return Step(
        name=name,
        actions=tuple(
            _action(source, f"{where}.actions[{i + 1}]", a) for i, a in enumerate(actions)
        ),
        dice=tuple(_roll(source, f"{where}.dice[{i + 1}]", d) for i, d in enumerate(dice)),
        expect=_expect(source, f"{where}.expect", table.get("expect", {})),
    )


def _event_specs(source: str, where: str, value: Any) -> list[dict[str, Any]]:
    _list(source, where, value, "event tables ({ kind = ... })")
    out = []
    for i, spec in enumerate(value):
        w = f"{where}[{i + 1}]"
        if not isinstance(spec, Mapping) or not isinstance(spec.get("kind"), str):
            raise _fail(source, w, f"an event table needs a 'kind' string, not {shown(spec)}")
        _text(source, f"{w}.kind", spec["kind"], "an event kind")
        if "count" in spec:
            _whole(source, f"{w}.count", spec["count"])
        out.append(dict(spec))
    return out


def _expect(source: str, where: str, value: Any) -> dict[str, Any]:
    table = _keys(source, where, value, _EXPECT_KEYS)
    out: dict[str, Any] = expect_state(source, where, table)
    for k in ("cp", "vp", "kill_grade"):
        if k in table:
            out[k] = _pair(source, f"{where}.{k}", table[k])
    if "vp_by_op" in table:
        ops = _keys(source, f"{where}.vp_by_op", table["vp_by_op"], _VP_OPS)
        out["vp_by_op"] = {
            op: _pair(source, f"{where}.vp_by_op.{op}", pair) for op, pair in ops.items()
        }
    if "tokens" in table:
        out["tokens"] = _str_list(source, f"{where}.tokens", table["tokens"])
    if "node" in table:
        _text(source, f"{where}.node", table["node"], "a node")
        if not table["node"].split():
            raise _fail(source, f"{where}.node", '"decision B action", "chance attack"...')
        out["node"] = table["node"]
    for k in ("legal", "options"):
        if k in table:
            texts = _str_list(source, f"{where}.{k}", table[k])
            out[k] = [(t, _action(source, f"{where}.{k}[{i + 1}]", t)) for i, t in enumerate(texts)]
    if "illegal" in table:
        items = _list(source, f"{where}.illegal", table["illegal"], "actions")
        ill = []
        for i, item in enumerate(items):
            w = f"{where}.illegal[{i + 1}]"
            if isinstance(item, str):
                text, reason = item, ""
            else:
                item = _keys(source, w, item, {"action", "reason"})
                raw_text, raw_reason = item.get("action"), item.get("reason", "")
                if not isinstance(raw_text, str) or not isinstance(raw_reason, str):
                    raise _fail(source, w, "{ action = '...', reason = '...' } (strings)")
                text = raw_text
                reason = _text(source, f"{w}.reason", raw_reason, "a reason")
            ill.append((text, _action(source, w, text), reason))
        out["illegal"] = ill
    for k in ("events", "no_events"):
        if k in table:
            out[k] = _event_specs(source, f"{where}.{k}", table[k])
    for k in ("effects", "no_effects"):
        if k in table:
            specs = _event_specs(source, f"{where}.{k}", table[k])
            for i, effect_spec in enumerate(specs):
                _keys(source, f"{where}.{k}[{i + 1}]", effect_spec, _EFFECT_KEYS)
            out[k] = specs
    if "operatives" in table:
        ops = _keys(source, f"{where}.operatives", table["operatives"], None)
        checks: dict[str, dict[str, Any]] = {}
        for op_id, spec in ops.items():
            w = f"{where}.operatives.{op_id}"
            spec = _keys(source, w, spec, _EXPECT_OP_KEYS)
            c: dict[str, Any] = {}
            for key, val in spec.items():
                if key == "at":
                    c[key] = _point(source, f"{w}.at", val)
                elif key in ("wounds", "ap"):
                    c[key] = _whole(source, f"{w}.{key}", val)
                elif key == "carrying":
                    c[key] = _carrying(source, f"{w}.{key}", val)
                elif key == "order":
                    c[key] = _text(source, f"{w}.{key}", val, "a string")
                else:
                    c[key] = _bool(source, f"{w}.{key}", val)
            checks[str(op_id)] = c
        out["operatives"] = checks
    return out
