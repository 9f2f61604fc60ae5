"""KT21 Designer's Commentary 1.5 rulings that a scenario file cannot show by itself
(``rules/KT21.md`` 16): DC 16.34, a carrier that loses the Pick Up action drops what it
carries, when the effect taking Pick Up away begins during the battle (the scenario file
``scenarios/kt21_dc_34_carrier_that_cannot_pick_up_drops.toml`` starts with it in force);
DC 16.4, an operative is Visible to itself (no KT21 rule in the engine asks it yet)."""

from __future__ import annotations

from engine.game.actions import Action
from engine.game.context import GameOptions
from engine.game.state import Effect
from engine.game.work import Work
from engine.geometry import kt21_sight, load_killzone
from engine.rules.kt21.attack_sight import visible
from engine.rules.kt21.marker_actions import NO_PICK_UP
from engine.rulesets import position
from engine.teams import load_builtin_team

KT21 = GameOptions(ruleset="kt21", objectives_pickup=True)


def _carrier() -> Work:
    """KASA-1 (Engage, activated) carries the mid-north marker, standing on its centre."""
    team = load_builtin_team("kt21_kasrkin").default()
    kz = load_killzone("open_ruins")
    s = position(
        kz,
        team,
        team,
        operatives={"KASA-1": {"at": (15.0, 14.5), "carrying": "mid-north"}},
        options=KT21,
    )
    s, _ = s.apply(Action("Activate", op="KASA-1", text="engage"))
    return Work(s)


def _mid_north(w: Work) -> tuple[float, float, str]:
    m = next(m for m in w.markers if m.name == "mid-north")
    return m.x, m.y, m.carrier


def test_carrier_drops_marker_when_pick_up_is_taken_away() -> None:
    """16.34: the DC says an operative that can no longer perform Pick Up must drop what it
    carries. The effect begins outside an action (between KASA-1's actions), so it is in
    force at once: the marker is put down at the carrier's position, (15, 14.5), and it is
    carried by nobody."""
    w = _carrier()
    assert w.op("KASA-1").carrying == ("mid-north",)
    w.add_effect(Effect(NO_PICK_UP, "KASA-1", "end_tp", source="KASA-1"))
    assert w.op("KASA-1").carrying == ()
    assert _mid_north(w) == (15.0, 14.5, "")


def test_carrier_keeps_marker_without_the_effect() -> None:
    """15.1: an effect of another kind (an APL change) does not take Pick Up away: the carrier
    keeps the marker (the drop is the ruling's, not a side effect of any effect)."""
    w = _carrier()
    w.add_effect(Effect("apl", "KASA-1", "end_tp", source="KASA-1", value=-1))
    assert w.op("KASA-1").carrying == ("mid-north",)
    assert _mid_north(w)[2] == "KASA-1"


def test_operative_is_visible_to_itself() -> None:
    """16.4: the DC says an operative is Visible to itself. No KT21 rule in the engine asks
    it yet (a scenario cannot show it), so the sight answer is checked directly: KASA-1 is
    Visible to KASA-1 in the KT21 attacks' test and in the sight geometry (its head sees its
    own model)."""
    w = _carrier()
    o = w.op("KASA-1")
    assert visible(w, o, o)
    p = w.place(o)
    assert kt21_sight.visible(w.kz, p, p)
