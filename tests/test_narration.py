"""The narration shows what decided an outcome (``engine.narration``, ``engine.game.events``):
assists, Punishing/Rending/Severe upgrades, a Guard that ends and why, an operative becoming
injured, a Hot roll's outcome, and which player sets up in which drop zone.

Each test plays a hand-built position with scripted dice (``tests/test_game_rules_common``:
Gun 4 attacks Hit 3+ Dmg 3/4, Knife 3 attacks Hit 3+ Dmg 2/3, Save 4+, 10 wounds) and checks
that the narrated text says what the rules and the dice decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.game import GameOptions, GameState
from engine.game.actions import parse_action
from engine.game.drivers import ScriptedDice
from engine.game.events import Event, narrate
from engine.game.state import Chance
from engine.geometry import Killzone, load_killzone
from engine.narration import Narrator
from engine.rulesets import new_game, position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster
from tests.test_game_rules_common import BLU, LAB, RED, R, rect, roster, team_data

CLOSE = 2 * R + 0.5  # centres this far apart: bases 0.5" apart (within control range)


def _ripper_team() -> Any:
    """Team ``red`` with a "Ripper" type carrying one retention rule per gun, and a Hot
    blade (melee, Hit 4+)."""
    data = team_data("red")

    def weapon(name: str, kind: str, atk: int, hit: str, dmg: str, rules: str) -> dict[str, Any]:
        profile = {"name": "", "attacks": atk, "hit": hit, "damage": dmg, "rules": rules}
        return {"name": name, "kind": kind, "profiles": [profile]}

    ripper = dict(data["operatives"][0])
    ripper["name"] = "Ripper"
    ripper["weapons"] = [
        weapon("Punishing Gun", "ranged", 4, "3+", "3/4", "Punishing"),
        weapon("Rending Gun", "ranged", 4, "3+", "3/4", "Rending"),
        weapon("Severe Gun", "ranged", 4, "3+", "3/4", "Severe"),
        weapon("Hot Blade", "melee", 3, "4+", "2/3", "Hot"),
        weapon("Rending Blade", "melee", 3, "3+", "2/3", "Rending"),
    ]
    data["operatives"].append(ripper)
    return team_from_dict(data, "red")


RIPPERS = _ripper_team()


def narrated(state: GameState, actions: Sequence[str], dice: Sequence[str] = ()) -> list[str]:
    """The narration of ``actions`` from ``state``, with strictly scripted dice."""
    lines: list[str] = []
    narrator = Narrator(lines.append)
    queue = [parse_action(a) for a in actions]
    driver = ScriptedDice(dice)
    while queue or (driver.left and isinstance(state.node, Chance)):
        if isinstance(state.node, Chance):
            action, actor = driver.roll(state), "chance"
        else:
            action, actor = queue.pop(0), "A" if state.node.player == "A" else "B"  # type: ignore[union-attr]
        after, events = state.apply(action)
        narrator.on_step(state, action, actor, after, events)
        state = after
    assert driver.left == 0
    narrator.close()
    return lines


def one_line(lines: list[str], text: str) -> str:
    """The single line containing ``text``."""
    found = [line for line in lines if text in line]
    assert len(found) == 1, (text, lines)
    return found[0]


def lab(ops: dict[str, dict[str, Any]], red: Roster | None = None, **kw: Any) -> GameState:
    return position(LAB, red or roster(RED), roster(BLU), operatives=ops, cp=(0, 0), **kw)


# -------------------------------------------------------------------------------------------
# Assists (5.2 step 2)
# -------------------------------------------------------------------------------------------


def test_5_2_narration_names_who_assists_whom_and_the_hit_improvement() -> None:
    # RED-2 is within BLU-1's control range and no other enemy's: it assists RED-1, whose
    # Knife (3+) hits on 2+, so the 2s are hits: "2,2,1" retains 2 normal.
    s = lab(
        {
            "RED-1": {"at": (15, 14)},
            "BLU-1": {"at": (15 + CLOSE, 14)},
            "RED-2": {"at": (15 + CLOSE, 14 + CLOSE)},
        }
    )
    lines = narrated(
        s,
        ["Activate RED-1 engage", "Fight RED-1 knife at BLU-1", "Strike normal", "Strike normal"],
        ["2,2,1", "1,1,1"],
    )
    fight = one_line(lines, "fights BLU-1 with knife")
    assert "RED-2 assists RED-1 v BLU-1: Hit improved by 1" in fight
    assert "RED-1 rolls 2,2,1 -> hits 2 normal" in fight
    assert "BLU-1 takes 2 damage" in fight  # Knife normal damage 2, twice: 10 - 4 = 6W
    assert "BLU-1 takes 2 damage (6W left)" in fight


def test_5_2_narration_of_two_assists_on_the_retaliating_side() -> None:
    # BLU-2 and BLU-3 both within RED-1's control range only: BLU-1's Knife hits on 1+...
    # but a 1 always fails, so its "2,2,1" retains 2 normal; the Hit improvement is 2.
    s = lab(
        {
            "RED-1": {"at": (15, 14)},
            "BLU-1": {"at": (15 + CLOSE, 14)},
            "BLU-2": {"at": (15, 14 - CLOSE)},
            "BLU-3": {"at": (15, 14 + CLOSE)},
        }
    )
    lines = narrated(
        s,
        ["Activate RED-1 engage", "Fight RED-1 knife at BLU-1", "Strike normal", "Strike normal"],
        ["1,1,1", "2,2,1"],
    )
    fight = one_line(lines, "fights BLU-1 with knife")
    assert "BLU-2 and BLU-3 assist BLU-1 v RED-1: Hit improved by 2" in fight
    assert "BLU-1 rolls 2,2,1 -> hits 2 normal" in fight


# -------------------------------------------------------------------------------------------
# Punishing, Rending, Severe (6)
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "dice", "said"),
    [
        # A 6 is retained, so Punishing retains one fail (the 2) as a normal success.
        ("punishing gun", "6,2,1,1", "hits 1 normal + 1 crit (Punishing makes a fail 2 a normal)"),
        # A crit (6) and a normal (4) retained: Rending changes the normal to a crit.
        ("rending gun", "6,4,1,1", "hits 2 crit (Rending makes a normal 4 a crit)"),
        # No crit retained, two normals (5, 4): Severe changes one (the 5) to a crit.
        ("severe gun", "5,4,1,1", "hits 1 normal + 1 crit (Severe makes a normal 5 a crit)"),
    ],
)
def test_6_narration_says_which_rule_upgraded_which_die(weapon: str, dice: str, said: str) -> None:
    s = lab(
        {"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}},
        red=Roster(RIPPERS, ("Trooper", "Trooper", "Ripper")),
    )
    rule = weapon.split()[0].capitalize()  # the attacker applies it (a choice, 6)
    actions = ["Activate RED-3 engage", f"Shoot RED-3 {weapon} at BLU-1", f"Apply {rule}"]
    lines = narrated(s, actions, [dice, "1,1,1"])
    assert said in one_line(lines, f"shoots BLU-1 with {weapon}")


def test_6_a_declined_retention_rule_is_not_narrated() -> None:
    # "6,2,1,1" with Punishing declined: 1 crit only, nothing upgraded.
    s = lab(
        {"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}},
        red=Roster(RIPPERS, ("Trooper", "Trooper", "Ripper")),
    )
    actions = ["Activate RED-3 engage", "Shoot RED-3 punishing gun at BLU-1", "Decline"]
    line = one_line(narrated(s, actions, ["6,2,1,1", "1,1,1"]), "shoots BLU-1")
    assert "hits 1 crit" in line and "Punishing" not in line


def test_6_narration_of_an_upgrade_in_a_fight() -> None:
    # Rending Blade (Hit 3+, Rending): "6,4,1" retains a crit and a normal; applied, the 4
    # becomes a crit. BLU-1 rolls all fails.
    s = lab(
        {"RED-3": {"at": (15, 14)}, "BLU-1": {"at": (15 + CLOSE, 14)}},
        red=Roster(RIPPERS, ("Trooper", "Trooper", "Ripper")),
    )
    actions = [
        "Activate RED-3 engage",
        "Fight RED-3 rending blade at BLU-1",
        "Apply Rending",
        "Strike crit",
        "Strike crit",
    ]
    line = one_line(narrated(s, actions, ["6,4,1", "1,1,1"]), "fights BLU-1")
    assert "RED-3 rolls 6,4,1 -> hits 2 crit (Rending makes a normal 4 a crit)" in line


def test_6_no_upgrade_is_narrated_when_the_rule_does_not_apply() -> None:
    # Rending needs a retained crit: "5,4,1,1" has none, so both stay normal.
    s = lab(
        {"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}},
        red=Roster(RIPPERS, ("Trooper", "Trooper", "Ripper")),
    )
    lines = narrated(
        s, ["Activate RED-3 engage", "Shoot RED-3 rending gun at BLU-1"], ["5,4,1,1", "1,1,1"]
    )
    line = one_line(lines, "shoots BLU-1")
    assert "hits 2 normal" in line and "Rending" not in line


# -------------------------------------------------------------------------------------------
# Hot (6), injured (2.3)
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "said"),
    [
        # Hot Gun hits on 4+: a 3 is below it, 2 x 3 = 6 damage, 10 - 6 = 4W: injured (4 < 5).
        ("3", "Hot roll 3 v Hit 4+: RED-3 takes 6 damage (4W left, injured)"),
        # A 1 deals 2: 8W left, not injured.
        ("1", "Hot roll 1 v Hit 4+: RED-3 takes 2 damage (8W left)"),
        # A 4 is not below Hit 4+: no damage.
        ("4", "Hot roll 4 v Hit 4+: no damage"),
    ],
)
def test_6_hot_narration_gives_the_roll_the_hit_and_the_outcome(roll: str, said: str) -> None:
    s = lab({"RED-3": {"at": (5, 14)}, "BLU-1": {"at": (16, 14)}})
    lines = narrated(
        s, ["Activate RED-3 engage", "Shoot RED-3 hot gun at BLU-1"], ["1,1,1,1", "1,1,1", roll]
    )
    line = one_line(lines, "shoots BLU-1 with hot gun")
    assert line.endswith(said)


def test_6_hot_narration_in_a_fight() -> None:
    # Hot Blade hits on 4+; both sides fail every die; the Hot roll 2 deals 4 damage.
    s = lab(
        {"RED-3": {"at": (15, 14)}, "BLU-1": {"at": (15 + CLOSE, 14)}},
        red=Roster(RIPPERS, ("Trooper", "Trooper", "Ripper")),
    )
    lines = narrated(
        s, ["Activate RED-3 engage", "Fight RED-3 hot blade at BLU-1"], ["1,1,1", "1,1,1", "2"]
    )
    line = one_line(lines, "fights BLU-1 with hot blade")
    assert "Hot roll 2 v Hit 4+: RED-3 takes 4 damage (6W left)" in line


@pytest.mark.parametrize(
    ("start", "said"),
    [
        # 5 of 10 wounds is not fewer than half; a Gun normal hit (3) leaves 2: injured now.
        (5, "BLU-1 takes 3 damage (2W left, injured)"),
        # At 4 wounds it is already injured: nothing new to say.
        (4, "BLU-1 takes 3 damage (1W left)"),
    ],
)
def test_2_3_narration_says_when_an_operative_becomes_injured(start: int, said: str) -> None:
    s = lab({"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14), "wounds": start}})
    lines = narrated(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["3,1,1,1", "1,1,1"])
    line = one_line(lines, "shoots BLU-1")
    assert line.endswith(said)


def test_2_3_operative_injured_event_once() -> None:
    from tests.test_game_rules_common import of_kind, play

    s = lab({"RED-1": {"at": (5, 14)}, "BLU-1": {"at": (16, 14), "wounds": 5}})
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["3,1,1,1", "1,1,1"])
    (inj,) = of_kind(ev, "operative_injured")
    assert inj["op"] == "BLU-1" and inj["wounds"] == 2 and inj["by"] == "RED-1"
    assert narrate(inj).strip() == "BLU-1 is injured (2W left)"


# -------------------------------------------------------------------------------------------
# Guard ends (9.3)
# -------------------------------------------------------------------------------------------

CQ = load_killzone("close_quarters")
FAR = {"BLU-2": {"at": (27.0, 4.0)}}


def cq(ops: dict[str, dict[str, Any]], **kw: Any) -> GameState:
    return position(CQ, roster(RED), roster(BLU), operatives=ops, cp=(0, 0), **kw)


def test_9_3_narration_guard_ends_when_it_moves() -> None:
    s = cq({"RED-1": {"at": (9.0, 11.0), "on_guard": True}, **FAR})
    lines = narrated(s, ["Activate RED-1 engage", "Dash RED-1 to 8,11"])
    assert "RED-1 is no longer on guard (it moved)" in one_line(lines, "RED-1 activates")


def test_9_3_narration_guard_ends_when_its_order_changes() -> None:
    s = cq({"RED-1": {"at": (9.0, 11.0), "on_guard": True}, **FAR})
    lines = narrated(s, ["Activate RED-1 conceal"])
    assert "RED-1 is no longer on guard (its order changed)" in one_line(lines, "RED-1 activates")


def test_9_3_narration_guard_ends_at_the_next_turning_point() -> None:
    s = cq({"RED-1": {"at": (9.0, 11.0), "on_guard": True, "ready": False}, **FAR}, turn="B")
    lines = narrated(s, ["Activate BLU-2 engage", "End activation", "Initiative A"], ["6,1"])
    assert "RED-1 is no longer on guard (a new turning point)" in one_line(lines, "Strategy")


def test_9_3_narration_guard_ends_when_an_enemy_ends_an_action_in_control_range() -> None:
    # BLU-1 charges into RED-1's control range; A passes instead of interrupting.
    s = cq(
        {
            "RED-1": {"at": (9.0, 11.0), "on_guard": True, "ready": False},
            "BLU-1": {"at": (4.0, 11.0)},
            "RED-2": {"at": (2.0, 4.0), "ready": False, "order": "conceal"},
        },
        turn="B",
    )
    lines = narrated(s, ["Activate BLU-1 engage", f"Charge BLU-1 to {9 - CLOSE:.3f},11", "Pass"])
    text = (
        "RED-1 is no longer on guard (BLU-1 ended an action within its control range, no interrupt)"
    )
    assert any(text in line for line in lines), lines


# -------------------------------------------------------------------------------------------
# Drop zones (1.2)
# -------------------------------------------------------------------------------------------


def test_1_2_narration_says_which_player_sets_up_in_which_drop_zone() -> None:
    # A wins the roll-off (6 v 1), takes the initiative and picks the zone marked B (LAB: x
    # 24-30, the east edge); B sets up in the other one, marked A (x 0-6, the west edge).
    s = new_game(LAB, roster(RED), roster(BLU), GameOptions(mission="kill_op"))
    lines = narrated(s, ["Initiative A", "Drop zone B"], ["6,1"])
    setup = one_line(lines, "Set-up")
    assert "A chooses the drop zone marked B (east edge)" in setup
    assert "B sets up in the drop zone marked A (west edge)" in setup
    assert "takes drop zone" not in setup


def test_1_2_drop_zone_edge_follows_the_layout_not_the_name() -> None:
    # Zones along the south (y 0-4) and north (y 18-22) edges of a 30" x 22" board.
    kz = Killzone.from_dict(
        {
            "name": "strips",
            "features": [],
            "drop_zones": {"A": rect(0, 18, 30, 22), "B": rect(0, 0, 30, 4)},
        }
    )
    assert (kz.drop_zone_edge("A"), kz.drop_zone_edge("B")) == ("north", "south")
    assert (LAB.drop_zone_edge("A"), LAB.drop_zone_edge("B")) == ("west", "east")
    text = narrate(Event.make("drop_zone_chosen", player="B", zone="A", edge="north", by="A"))
    assert text == "B sets up in the drop zone marked A (north edge)"


def test_event_lines_of_the_new_events() -> None:
    # engine.game.events.narrate words each new event on its own (the fallback narration).
    lines = {
        "assisted": (
            {"op": "RED-1", "target": "BLU-1", "by": ("RED-2",), "improvement": 1},
            "RED-2 assists RED-1 v BLU-1: Hit improved by 1",
        ),
        "die_upgraded": (
            {"op": "RED-3", "target": "BLU-1", "rule": "Severe", "die": 0},
            "RED-3: Severe makes a normal (unrolled) a crit",
        ),
        "hot_roll": (
            {"op": "RED-3", "weapon": "hot gun", "roll": 2, "hit": 4, "damage": 4},
            "RED-3 (hot gun): Hot roll 2 v Hit 4+: 4 damage",
        ),
    }
    for kind, (data, text) in lines.items():
        if kind == "die_upgraded":
            data = {**data, "before": "normal", "after": "crit"}
        assert narrate(Event.make(kind, **data)).strip() == text


def test_a_mission_action_after_an_attack_is_narrated_once_naming_its_marker(
    tmp_path: Path,
) -> None:
    """The mission's line for its action names the marker and replaces the core's plain
    "X performs Y" (narration module docstring), also when the action comes right after a
    shooting attack in the same activation (its parts are then on the attack's line). KT21
    DC 16.37's position with TAR-1 moved 3.5" south (out of Engagement Range and of the
    marker's 2", in the open: PRO-1 may shoot it): PRO-1 shoots TAR-1 with its rifle (all
    dice fail: nothing happens), then Loots mid-north, which it controls alone
    (rules/KT21.md 15.1): the Loot must be said once, with its marker, never also as
    "PRO-1 performs Loot"."""
    from engine.cli.explain import load_position

    src = Path("scenarios/kt21_dc_37_apl_change_until_next_tp_controls_markers.toml").read_text()
    (tmp_path / "teams").mkdir()
    for team in ("kt21_probe.json", "kt21_target.json"):
        (tmp_path / "teams" / team).write_text(Path("scenarios/teams", team).read_text())
    path = tmp_path / "loot_after_shot.toml"
    path.write_text(src.replace("at = [16, 14.5]", "at = [14, 11]"))
    state, _, _ = load_position(str(path), 0)
    lines = narrated(
        state,
        ["Activate PRO-1 engage", "Shoot PRO-1 rifle at TAR-1", "Act PRO-1 loot mid-north"],
        ["1,1,1,1"],
    )
    text = "\n".join(lines)
    assert "PRO-1 performs Loot on objective marker mid-north" in text
    assert text.count("performs Loot") == 1, lines
