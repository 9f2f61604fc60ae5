"""The unique-action skeleton (``engine/rules/unique_actions.py``): who performs it, "not
within control range of an enemy operative", what it selects, and the listed and refused
``Act`` actions; on toy actions in LAB positions (``tests/test_game_rules_common``)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from engine.game.actions import Action
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.unique_actions import PlainAction, SelectingAction, visible_friends_within
from engine.rulesets import position
from tests.test_game_rules_common import BLU, LAB, RED, roster


@attrs.frozen(slots=True)
class Nudge(SelectingAction):
    """A toy SUPPORT action of RED-1: a friend visible to and within 6"."""

    name: str = "Nudge"
    text: str = "nudge"
    ap: int = 1
    family: str = ""

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        return None if o.id == "RED-1" else f"{o.id} has no Nudge"

    def targets(self, w: Work, o: OperativeState) -> list[str]:
        return [f.id for f in visible_friends_within(w, o, 6.0)]

    def target_rule(self, w: Work, o: OperativeState) -> str:
        return f'Nudge selects a friend visible to and within 6" of {o.id}'


@attrs.frozen(slots=True)
class Shout(PlainAction):
    """A toy action selecting nothing, allowed near enemies, never in a counteraction."""

    name: str = "Shout"
    text: str = "shout"
    ap: int = 1
    family: str = ""
    engaged_ok: ClassVar[bool] = True

    def performer_problem(self, w: Work, o: OperativeState) -> str | None:
        return None

    def more_problem(self, w: Work, o: OperativeState, mode: str) -> str | None:
        return "not in a counteraction" if mode == "counteract" else None


def _work(blu_at: tuple[float, float]) -> Work:
    # Open lane (y 14.5), centres: RED-2 4" from RED-1 (2.74" between bases), RED-3 10"
    # (8.74"); BLU-1 where asked.
    ops: dict[str, Any] = {
        "RED-1": {"at": (10, 14.5)},
        "RED-2": {"at": (14, 14.5)},
        "RED-3": {"at": (20, 14.5)},
        "BLU-1": {"at": blu_at},
    }
    s = position(LAB, roster(RED, ("Trooper",) * 3), roster(BLU, ("Trooper",)), operatives=ops)
    return Work(s)


def test_selecting_action_lists_targets_in_reach_and_refuses_others() -> None:
    w = _work((27, 5))
    o = w.op("RED-1")
    # RED-2 is 2.74" away in the open: listed; RED-3 (8.74") is beyond 6".
    assert [str(a) for a in Nudge().options(w, o, "activation")] == ["Act RED-1 nudge on RED-2"]
    far = Action("Act", op="RED-1", text="nudge", target="RED-3")
    assert Nudge().check(w, o, far, "activation") == (
        'Act RED-1 nudge on RED-3: Nudge selects a friend visible to and within 6" of RED-1'
    )
    near = Action("Act", op="RED-1", text="nudge", target="RED-2")
    assert Nudge().check(w, o, near, "activation") is None
    # Only its performer: RED-2 has no Nudge, whatever it selects.
    assert Nudge().options(w, w.op("RED-2"), "activation") == []
    assert Nudge().check(w, w.op("RED-2"), near, "activation") == "RED-2 has no Nudge"


def test_selecting_action_not_within_enemy_control_range() -> None:
    # BLU-1 0.24" from RED-1's base: within its control range (1").
    w = _work((11.5, 14.5))
    o = w.op("RED-1")
    assert Nudge().options(w, o, "activation") == []
    near = Action("Act", op="RED-1", text="nudge", target="RED-2")
    assert Nudge().check(w, o, near, "activation") == (
        "RED-1 is within control range of an enemy operative (Nudge)"
    )


def test_plain_action_selects_nothing_and_may_allow_enemies_near() -> None:
    w = _work((11.5, 14.5))
    o = w.op("RED-1")
    # engaged_ok: listed although an enemy is within control range.
    assert [str(a) for a in Shout().options(w, o, "activation")] == ["Act RED-1 shout"]
    on = Action("Act", op="RED-1", text="shout", target="RED-2")
    assert Shout().check(w, o, on, "activation") == (
        "Act RED-1 shout on RED-2: Shout takes no point or operative"
    )
    # more_problem: the rule's own further limit.
    assert Shout().options(w, o, "counteract") == []


def test_visible_friends_within_itself_first_unless_other() -> None:
    w = _work((27, 5))
    o = w.op("RED-1")
    assert [f.id for f in visible_friends_within(w, o, 6.0)] == ["RED-2"]
    assert [f.id for f in visible_friends_within(w, o, 6.0, other=False)] == ["RED-1", "RED-2"]
    # Distances are between bases (32 mm: 0.63" radius): RED-3 is 8.74" away, within 10".
    assert [f.id for f in visible_friends_within(w, o, 10.0)] == ["RED-2", "RED-3"]
