"""The Pathfinders' core team rules (lane pf-core: Markerlight, the drones, the Shas'Ui,
Shas'La and Transpectral Interference abilities), one test (or more) per rule, in LAB
positions (``tests/test_game_rules_common``): the built-in Pathfinders (player A, ``PAT-n``)
against the BLU test team (player B, ``BLU-n``: Troopers with Gun 4/3+/3/4, Save 4+,
10 wounds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import teams.pathfinders  # noqa: F401  (registers the rules)
from engine.game import GameState, IllegalActionError
from engine.game.events import Event
from engine.game.scenario import run
from engine.game.state import Decision
from engine.game.work import Work
from engine.rulesets import position
from engine.teams.model import Roster
from teams.pathfinders.markerlights import add_markerlights, markerlights, remove_markerlights
from tests.test_game_rules_common import BLU, LAB, roster, with_destinations
from tests.test_team_weapon_rules import lab_team

Ops = dict[str, dict[str, Any]]
SHAS_UI = "Shas'Ui Pathfinder"
SHAS_LA = "Shas'La Pathfinder"
MB3 = "MB3 Recon Drone"
MV1 = "MV1 Gun Drone"
MV4 = "MV4 Shield Drone"
MV7 = "MV7 Marker Drone"
MV31 = "MV31 Pulse Accelerator Drone"
MV33 = "MV33 Grav-Inhibitor Drone"
CONTROLLER = "Drone Controller Pathfinder"
TRANSPECTRAL = "Transpectral Interference Pathfinder"
GRENADIER = "Assault Grenadier Pathfinder"


def lab(
    types: Sequence[str],
    ops: Mapping[str, Mapping[str, Any]],
    blu: Sequence[str] = ("Trooper", "Trooper"),
    **kw: Any,
) -> GameState:
    """A LAB position: the built-in Pathfinders (roster entries ``types``) against BLU."""
    kw.setdefault("cp", (0, 0))
    pf = Roster.from_entries(lab_team("pathfinders"), list(types))
    return position(LAB, pf, roster(BLU, tuple(blu)), operatives=ops, **kw)


def texts(s: GameState) -> list[str]:
    """The listed actions, each move at its listed destinations (through the destination
    decision its header opens)."""
    return [str(a) for a in with_destinations(s)]


def tokens(s: GameState, op: str) -> int:
    """A's Markerlight tokens on ``op``."""
    return markerlights(Work(s), op, "A")


def with_tokens(s: GameState, op: str, n: int) -> GameState:
    """``s`` with ``op`` holding ``n`` of A's Markerlight tokens (through the token API)."""
    w = Work(s)
    add_markerlights(w, op, n, "A")
    w.node = s.node
    return w.freeze()


def decline(s: GameState) -> GameState:
    """Pass the ploy windows and decline re-rolls and cover choices."""
    answer = {"ploy": "Pass", "dice_ploy": "Decline"}
    while isinstance(s.node, Decision) and s.node.kind in answer:
        s, _ = s.apply(answer[s.node.kind])
    return s


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


# -------------------------------------------------------------------------------------------
# Markerlight (faction rule)
# -------------------------------------------------------------------------------------------

# PAT-1 in the open lane at (5, 14.5), BLU-1 at (16, 14.5), BLU-2 behind the wall.
OPEN = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}, "BLU-2": {"at": (16, 20.5)}}


def test_markerlight_action_gives_a_token_to_a_visible_enemy_only() -> None:
    # 1AP: BLU-1 (visible) gains one token; BLU-2 behind the 5" wall is not visible, so it
    # cannot be selected.
    s = lab([SHAS_LA], OPEN)
    s, _ = s.apply("Activate PAT-1 engage")
    assert "Act PAT-1 markerlight on BLU-1" in texts(s)
    assert "Act PAT-1 markerlight on BLU-2" not in texts(s)
    with pytest.raises(IllegalActionError):
        s.apply("Act PAT-1 markerlight on BLU-2")
    s, _ = s.apply("Act PAT-1 markerlight on BLU-1")
    assert tokens(s, "BLU-1") == 1
    assert s.operatives[0].ap == 1  # it cost 1AP of the Shas'La's 2


def test_markerlight_tokens_are_capped_at_four_and_api_round_trips() -> None:
    s = lab([SHAS_LA], OPEN)
    w = Work(s)
    assert add_markerlights(w, "BLU-1", 3, "A") == 3
    assert add_markerlights(w, "BLU-1", 3, "A") == 1  # only one more fits (max four)
    assert markerlights(w, "BLU-1", "A") == 4
    assert markerlights(w, "BLU-1", "B") == 0  # they are A's tokens, not B's
    assert remove_markerlights(w, "BLU-1", 2) == 2
    assert markerlights(w, "BLU-1") == 2
    # An enemy with four tokens is not offered to a plain marker (nothing to gain).
    s = with_tokens(s, "BLU-1", 4)
    s, _ = s.apply("Activate PAT-1 engage")
    assert "Act PAT-1 markerlight on BLU-1" not in texts(s)


def test_markerlight_not_within_enemy_control_range() -> None:
    # A Shoot-capable Shas'Ui within control range of BLU-1 cannot Markerlight (the Shas'La
    # can: Fearless On The Frontline, tested below).
    s = lab([SHAS_UI], {"PAT-1": {"at": (15, 14.5)}, "BLU-1": {"at": (16.6, 14.5)}})
    s, _ = s.apply("Activate PAT-1 engage")
    assert not [t for t in texts(s) if "markerlight" in t]


def test_markerlight_only_operatives_whose_datacard_has_it() -> None:
    # The MV1 Gun Drone and the Marksman have no Markerlight action; the MV7 Marker Drone
    # and the Assault Grenadier have.
    from teams.pathfinders.markerlights import can_markerlight

    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "PAT-2": {"at": (5, 12.5)}, "BLU-1": {"at": (16, 14.5)}}
    s = lab([MV1, MV7], ops)
    s1, _ = s.apply("Activate PAT-1 engage")
    assert not [t for t in texts(s1) if "markerlight" in t]
    s2, _ = s.apply("Activate PAT-2 engage")
    assert "Act PAT-2 markerlight on BLU-1" in texts(s2)
    w = Work(lab(["Marksman Pathfinder", GRENADIER], ops))
    assert not can_markerlight(w, "PAT-1") and can_markerlight(w, "PAT-2")


MAY_MARKERLIGHT = {
    SHAS_UI: True,
    GRENADIER: True,
    "Blooded Pathfinder": True,
    "Comms Specialist Pathfinder": True,
    CONTROLLER: True,
    "Medical Technician Pathfinder": True,
    SHAS_LA: True,
    TRANSPECTRAL: True,
    MB3: True,
    MV7: True,
    "Marksman Pathfinder": False,
    "Weapons Expert Pathfinder": False,
    MV1: False,
    MV4: False,
    MV31: False,
    MV33: False,
}
"""Who may perform the Markerlight action. The dataslate says only operatives whose
datacard shows it; the killteamjson dataslate does not carry that mark, the BSData catalogue
does (every non-drone but the Marksman and the Weapons Expert; of the drones the MB3 Recon).
The MV7 Marker Drone is added: its own High-Intensity Markerlight works only on its
Markerlight action (the catalogue omits the mark)."""


def test_markerlight_who_may_perform_it_per_datacard() -> None:
    # Every datacard of the team, each alone on the board: may it perform the action?
    from teams.pathfinders.markerlights import can_markerlight

    names = {op.name for op in lab_team("pathfinders").operatives}
    assert names == set(MAY_MARKERLIGHT)  # the table covers every datacard
    for name, may in MAY_MARKERLIGHT.items():
        entry = f"{name} [Rail Rifle; Gun Butt]" if name.startswith("Weapons") else name
        w = Work(lab([entry], {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}))
        assert can_markerlight(w, "PAT-1") is may, name


def test_markerlight_and_shoot_in_one_activation_select_the_same_enemy() -> None:
    # After marking BLU-1 the Shas'La may shoot only BLU-1 (BLU-2, visible in the open lane
    # too, is refused); after shooting BLU-2 first it may mark only BLU-2.
    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}, "BLU-2": {"at": (16, 13)}}
    s = lab([SHAS_LA], ops)
    s, _ = s.apply("Activate PAT-1 engage")
    m, _ = s.apply("Act PAT-1 markerlight on BLU-1")
    shots = [t for t in texts(m) if t.startswith("Shoot")]
    assert shots and all(t.endswith("BLU-1") for t in shots)
    with pytest.raises(IllegalActionError):
        m.apply("Shoot PAT-1 pulse carbine at BLU-2")
    f, _ = run(s, ["Shoot PAT-1 pulse carbine at BLU-2"], dice=["1,1,1,1", "1,1,1"])
    f = decline(f)
    marks = [t for t in texts(f) if "markerlight" in t]
    assert marks == ["Act PAT-1 markerlight on BLU-2"]


def test_markerlight_mb3_recon_is_not_tied_to_its_shoot_target() -> None:
    # The MB3 Recon drone is excluded from the same-target restriction.
    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}, "BLU-2": {"at": (16, 13)}}
    s = lab([MB3], ops)
    s, _ = s.apply("Activate PAT-1 engage")
    m, _ = s.apply("Act PAT-1 markerlight on BLU-1")
    assert any(t.startswith("Shoot PAT-1") and t.endswith("BLU-2") for t in texts(m))


def test_markerlight_token_lost_once_per_activation_when_the_enemy_moves() -> None:
    # BLU-1 with 2 tokens Repositions then Dashes in its activation: it loses one token only
    # (once during each of its activations).
    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "BLU-1": {"at": (20, 14.5)}}
    s = with_tokens(lab([SHAS_LA], ops, turn="B", initiative="B"), "BLU-1", 2)
    s, _ = s.apply("Activate BLU-1 engage")
    s, _ = s.apply("Reposition BLU-1 to 22,14.5")
    assert tokens(s, "BLU-1") == 1
    s, _ = s.apply("Dash BLU-1 to 24,14.5")
    assert tokens(s, "BLU-1") == 1


def _shot(s: GameState, attack: str, defence: str) -> tuple[GameState, list[Event]]:
    s, _ = s.apply("Activate PAT-1 engage")
    s, ev = run(s, ["Shoot PAT-1 pulse carbine at BLU-1"], dice=[attack])
    return s, ev


def test_markerlight_one_token_gives_saturate_and_balanced() -> None:
    # With one token the Shas'La's pulse carbine (4/4+/4/5) has Balanced: a re-roll of one
    # attack die is offered after rolling 1,1,1,1 (without tokens: none).
    s = with_tokens(lab([SHAS_LA], OPEN), "BLU-1", 1)
    s, _ = _shot(s, "1,1,1,1", "")
    assert isinstance(s.node, Decision)
    assert any("Balanced" in t or "Re-roll" in t for t in texts(s)), texts(s)
    s0 = lab([SHAS_LA], OPEN)
    s0, _ = _shot(s0, "1,1,1,1", "")
    assert not any("Balanced" in t or t.startswith("Re-roll") for t in texts(s0))


def _profile(s: GameState, target: str) -> Any:
    from engine.game.attacks import attack_profile

    w = Work(s)
    return attack_profile(w, w.op("PAT-1"), "pulse carbine", "ranged", target=target)


def test_markerlight_two_tokens_improve_hit_to_at_most_three() -> None:
    # Shas'La carbine hits on 4+: 3+ with two tokens; the Shas'Ui's 3+ stays 3+ (max 3+).
    from engine.dice.rules import Balanced, Saturate

    s = lab([SHAS_LA], OPEN)
    assert _profile(s, "BLU-1").hit == 4
    one = with_tokens(s, "BLU-1", 1)
    assert _profile(one, "BLU-1").hit == 4  # one token: no Hit change
    assert _profile(one, "BLU-1").rules.has(Saturate)
    assert _profile(one, "BLU-1").rules.has(Balanced)
    two = with_tokens(s, "BLU-1", 2)
    assert _profile(two, "BLU-1").hit == 3
    ui = with_tokens(lab([SHAS_UI], OPEN), "BLU-1", 2)
    assert _profile(ui, "BLU-1").hit == 3


def test_markerlight_three_tokens_target_cannot_be_obscured() -> None:
    # BLU-1 at (16, 10) is obscured from (5, 10) by the ruin: 3 tokens remove that.
    from engine.game.shoot_targets import targeting

    ops: Ops = {"PAT-1": {"at": (5, 10)}, "BLU-1": {"at": (16, 10)}}
    s = lab([SHAS_LA], ops)
    w = Work(s)
    assert targeting(w, w.op("PAT-1"), w.op("BLU-1")).obscured
    w = Work(with_tokens(s, "BLU-1", 2))
    assert targeting(w, w.op("PAT-1"), w.op("BLU-1")).obscured
    w = Work(with_tokens(s, "BLU-1", 3))
    assert not targeting(w, w.op("PAT-1"), w.op("BLU-1")).obscured


def test_markerlight_four_tokens_seek_light_targets_conceal_in_light_cover() -> None:
    # BLU-1 Conceal at (16, 4) behind the light rubble is no valid target from (5, 4);
    # with four tokens (Seek Light) it is.
    ops: Ops = {"PAT-1": {"at": (5, 4)}, "BLU-1": {"at": (16, 4), "order": "conceal"}}
    s = lab([SHAS_LA], ops)
    three = with_tokens(s, "BLU-1", 3)
    a, _ = three.apply("Activate PAT-1 engage")
    assert "Shoot PAT-1 pulse carbine at BLU-1" not in texts(a)
    four = with_tokens(s, "BLU-1", 4)
    b, _ = four.apply("Activate PAT-1 engage")
    assert "Shoot PAT-1 pulse carbine at BLU-1" in texts(b)


def test_markerlight_not_for_the_fusion_grenade() -> None:
    # The Assault Grenadier's fusion grenade gets no Markerlight benefit; its carbine does.
    from engine.game.attacks import attack_profile

    ops: Ops = {"PAT-1": {"at": (10, 14.5)}, "BLU-1": {"at": (14, 14.5)}}
    s = with_tokens(lab([GRENADIER], ops), "BLU-1", 2)
    w = Work(s)
    nade = attack_profile(w, w.op("PAT-1"), "fusion grenade", "ranged", target="BLU-1")
    carbine = attack_profile(w, w.op("PAT-1"), "pulse carbine", "ranged", target="BLU-1")
    assert nade.hit == 3  # printed 3+, unchanged
    assert carbine.hit == 3  # printed 4+, improved by the two tokens


def test_markerlight_not_for_the_grenadiers_frag_and_krak_grenades() -> None:
    # Grenadier Specialist lets the Assault Grenadier throw frag and krak grenades (the rule
    # gives them), but they are universal equipment, not datacard weapons: with
    # four tokens on BLU-1 they gain neither Balanced nor Seek Light (their Saturate is
    # their own), and do not stop BLU-1 being obscured; the carbine gets all of them.
    from engine.dice.rules import Balanced, Saturate, SeekLight
    from engine.game.attacks import attack_profile
    from engine.game.shoot_targets import targeting

    ops: Ops = {"PAT-1": {"at": (10, 14.5)}, "BLU-1": {"at": (14, 14.5)}}
    s = with_tokens(lab([GRENADIER], ops), "BLU-1", 4)
    w = Work(s)
    for nade in ("frag grenade", "krak grenade"):
        prof = attack_profile(w, w.op("PAT-1"), nade, "ranged", target="BLU-1")
        # Saturate is both grenades' own rule (rules/KT24.md 6: frag and krak profiles), so
        # it cannot tell; Balanced and Seek Light, which only the tokens give, do.
        assert prof.rules.has(Saturate), nade
        assert not prof.rules.has(Balanced), nade
        assert not prof.rules.has(SeekLight), nade
    carbine = attack_profile(w, w.op("PAT-1"), "pulse carbine", "ranged", target="BLU-1")
    assert carbine.rules.has(Saturate) and carbine.rules.has(Balanced)
    assert carbine.rules.has(SeekLight)
    # Obscured BLU-1 behind the ruin: three tokens unobscure it for the carbine's Shoot,
    # not for a frag grenade's.
    ops = {"PAT-1": {"at": (5, 10)}, "BLU-1": {"at": (16, 10)}}
    s = with_tokens(lab([GRENADIER], ops), "BLU-1", 3)
    s, _ = s.apply("Activate PAT-1 engage")
    w = Work(s)
    w.emit("shoot_declared", op="PAT-1", weapon="frag grenade", target="BLU-1")
    assert targeting(w, w.op("PAT-1"), w.op("BLU-1")).obscured
    w = Work(s)
    w.emit("shoot_declared", op="PAT-1", weapon="pulse carbine", target="BLU-1")
    assert not targeting(w, w.op("PAT-1"), w.op("BLU-1")).obscured


# -------------------------------------------------------------------------------------------
# Drone
# -------------------------------------------------------------------------------------------

DRONES: Ops = {
    "PAT-1": {"at": (20, 13.2)},  # MV1 Gun Drone, on the objective marker (20, 14.5)
    "PAT-2": {"at": (5, 10)},  # Shas'La
    "BLU-1": {"at": (20, 15.8)},  # on the objective marker too
}


def test_drone_only_performs_its_listed_actions() -> None:
    # A drone may Dash but not Pick up (nor any action outside Charge, Dash, Fall Back,
    # Fight, Markerlight, Reposition, Shoot); the Shas'La is not limited.
    from engine.game import universal

    s, _ = lab([MV1, SHAS_LA], DRONES).apply("Activate PAT-1 engage")
    w = Work(s)
    drone, la = w.op("PAT-1"), w.op("PAT-2")
    assert universal.precheck(w, drone, "Dash", "activation") is None
    why = universal.precheck(w, drone, "Pick up", "activation")
    assert why is not None and "DRONE" in why
    assert "DRONE" not in str(universal.precheck(w, la, "Pick up", "activation"))


def test_drone_uses_only_its_datacard_weapons() -> None:
    # A weapon not on its datacard (one equipment would give it) is refused; its twin pulse
    # carbine is not.
    w = Work(lab([MV1, SHAS_LA], DRONES))
    drone = w.op("PAT-1")
    why = w.would("would_refuse_weapon", None, op=drone, weapon="bolt pistol", profile=None)
    assert why is not None and "datacard" in why
    ok = w.would("would_refuse_weapon", None, op=drone, weapon="twin pulse carbine", profile=None)
    assert ok is None


def test_drone_counts_one_apl_lower_for_markers_but_counts_for_the_kill_op() -> None:
    # MV1 (APL 2 -> 1) and BLU-1 (APL 2) both on the marker: B controls it. The drone still
    # counts for the kill op (the dataslate never says otherwise).
    from engine.game import universal
    from engine.missions.kill_op import counts_for_kill_op

    w = Work(lab([MV1, SHAS_LA], DRONES))
    obj = {"marker": "obj", "what": universal.OBJECTIVE_MARKER}
    assert w.would("would_control_apl", 2, op="PAT-1", **obj) == 1
    assert w.would("would_control_apl", 2, op="PAT-2", **obj) == 2
    near = {"PAT-1", "BLU-1"}
    assert universal.apl_controller(w, lambda o: o.id in near, "obj") == "B"
    assert counts_for_kill_op(w, w.op("PAT-1"))


# -------------------------------------------------------------------------------------------
# Drone Controller
# -------------------------------------------------------------------------------------------


def test_drone_controller_adds_two_inches_to_drones_and_frees_saviour_protocols() -> None:
    # With the controller on the killzone the MV1 has Move 8" (6 + 2) and Saviour Protocols
    # costs 0CP; the controller itself keeps 6"; without it on the killzone: 6" and 1CP.
    ops: Ops = {"PAT-1": {"at": (5, 14.5)}, "PAT-2": {"at": (5, 10)}, "BLU-1": {"at": (25, 4)}}
    w = Work(lab([MV1, CONTROLLER], ops))
    assert w.move_stat(w.op("PAT-1")) == 8.0
    assert w.move_stat(w.op("PAT-2")) == 6.0
    assert w.would("would_cost_ploy", 1, player="A", ploy="Saviour Protocols", target="") == 0
    assert w.would("would_cost_ploy", 1, player="A", ploy="Bonded", target="") == 1
    w = Work(lab([MV1, CONTROLLER], {"PAT-1": ops["PAT-1"], "BLU-1": ops["BLU-1"]}))
    assert w.move_stat(w.op("PAT-1")) == 6.0
    assert w.would("would_cost_ploy", 1, player="A", ploy="Saviour Protocols", target="") == 1


# -------------------------------------------------------------------------------------------
# Analyse (MB3 Recon Drone)
# -------------------------------------------------------------------------------------------


def test_analyse_marks_visible_enemies_within_three_inches_of_the_target() -> None:
    # MB3 marks BLU-1 (16, 14.5): BLU-2 at (16, 12.5) is 2" away and visible, so it gains a
    # token; BLU-3 at (16, 8.5) is 6" away: none. A Shas'La's Markerlight marks only BLU-1.
    ops: Ops = {
        "PAT-1": {"at": (5, 14.5)},
        "BLU-1": {"at": (16, 14.5)},
        "BLU-2": {"at": (16, 12.5)},
        "BLU-3": {"at": (16, 8.5)},
    }
    blu = ("Trooper", "Trooper", "Trooper")
    s = lab([MB3], ops, blu=blu)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-1"])
    assert [tokens(s, b) for b in ("BLU-1", "BLU-2", "BLU-3")] == [1, 1, 0]
    s = lab([SHAS_LA], ops, blu=blu)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-1"])
    assert [tokens(s, b) for b in ("BLU-1", "BLU-2", "BLU-3")] == [1, 0, 0]


def test_analyse_can_be_turned_off_by_a_rule_not_cumulative_with_it() -> None:
    # A rule subscribing to the team hook would_pathfinder_analyse (Orbital Survey Uplink
    # says it is not cumulative with Analyse) stops the extra tokens: only BLU-1 gains one.
    ops: Ops = {
        "PAT-1": {"at": (5, 14.5)},
        "BLU-1": {"at": (16, 14.5)},
        "BLU-2": {"at": (16, 12.5)},
    }
    s = lab([MB3], ops)
    s = s.with_hooks(lambda h: h.transform("would_pathfinder_analyse", lambda w, on, **info: False))
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-1"])
    assert [tokens(s, b) for b in ("BLU-1", "BLU-2")] == [1, 0]


# -------------------------------------------------------------------------------------------
# High-Intensity Markerlight (MV7)
# -------------------------------------------------------------------------------------------


def test_high_intensity_markerlight_gives_two_tokens_within_the_cap() -> None:
    # MV7: two tokens instead of one; from three tokens it reaches four (the maximum).
    s = lab([MV7], OPEN)
    a, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-1"])
    assert tokens(a, "BLU-1") == 2
    mark = ["Activate PAT-1 engage", "Act PAT-1 markerlight on BLU-1"]
    b, _ = run(with_tokens(s, "BLU-1", 3), mark)
    assert tokens(b, "BLU-1") == 4


# -------------------------------------------------------------------------------------------
# Shield Generator (MV4)
# -------------------------------------------------------------------------------------------


def test_shield_generator_ignores_piercing() -> None:
    # BLU-1 (a Gunner) shooting the MV4 with its Pierce Gun has no Piercing; at the Shas'La
    # it keeps it.
    from engine.dice.rules import Piercing
    from engine.game.attacks import attack_profile

    ops: Ops = {"PAT-1": {"at": (16, 14.5)}, "PAT-2": {"at": (16, 10)}, "BLU-1": {"at": (25, 14.5)}}
    w = Work(lab([MV4, SHAS_LA], ops, blu=("Gunner",)))
    gunner = w.op("BLU-1")
    at_drone = attack_profile(w, gunner, "pierce gun", "ranged", target="PAT-1")
    at_la = attack_profile(w, gunner, "pierce gun", "ranged", target="PAT-2")
    assert not at_drone.rules.has(Piercing)
    assert at_la.rules.has(Piercing)


def test_shield_generator_saviour_protocols_free_when_the_mv4_is_specified() -> None:
    # Saviour Protocols used with the MV4 (PAT-1) as the drone costs 0CP; with another
    # operative named it keeps its cost (no Drone Controller here).
    ops: Ops = {"PAT-1": {"at": (16, 14.5)}, "PAT-2": {"at": (16, 10)}, "BLU-1": {"at": (25, 4)}}
    w = Work(lab([MV4, MV1], ops))
    cost = "would_cost_ploy"
    assert w.would(cost, 1, player="A", ploy="Saviour Protocols", target="PAT-1") == 0
    assert w.would(cost, 1, player="A", ploy="Saviour Protocols", target="PAT-2") == 1
    assert w.would(cost, 1, player="A", ploy="Bonded", target="PAT-1") == 1


def _shoot_mv4(s: GameState, shooter: str, hits: str = "5,5,1,1") -> GameState:
    """B's ``shooter`` (Gun 4/3+/3/4) hits the MV4 (7 wounds, Save 4+) twice (5,5,1,1) and
    its saves 1,1,1 fail: two normal dice of 3 damage get through. Stops at A's Shield
    Generator choice if offered."""
    s, _ = run(s, [f"Activate {shooter} engage", f"Shoot {shooter} gun at PAT-1"], dice=[hits])
    s, _ = run(decline(s), [], dice=["1,1,1"])
    return decline(s)


SHIELD: Ops = {"PAT-1": {"at": (16, 14.5)}, "BLU-1": {"at": (25, 14.5)}, "BLU-2": {"at": (25, 13)}}


def test_shield_generator_ignores_one_normal_damage_die_once_per_turning_point() -> None:
    # A uses it: the first normal die is ignored, 3 damage (7 -> 4). BLU-2's identical shot
    # in the same turning point: no choice any more (once per turning point), all 6
    # damage: the MV4 is incapacitated.
    s = _shoot_mv4(lab([MV4], SHIELD, turn="B", initiative="B"), "BLU-1")
    assert s.node.kind == "team_rule" and "Use shield generator" in texts(s)  # type: ignore[union-attr]
    s, _ = s.apply("Use shield generator")
    s = decline(s)
    assert s.operatives[0].wounds == 4
    s, _ = run(s, ["End activation", "Activate PAT-1 engage", "End activation"])
    s = _shoot_mv4(s, "BLU-2")
    assert "Use shield generator" not in texts(s)
    assert not s.operatives[0].alive


def test_shield_generator_declined_stays_available() -> None:
    # Declined: all 6 damage (7 -> 1), and the next shot this turning point (one normal
    # hit) offers it again; used, that 3 damage is ignored and the MV4 lives on at 1.
    s = _shoot_mv4(lab([MV4], SHIELD, turn="B", initiative="B"), "BLU-1")
    s, _ = s.apply("Decline")
    s = decline(s)
    assert s.operatives[0].wounds == 1
    s, _ = run(s, ["End activation", "Activate PAT-1 engage", "End activation"])
    s = _shoot_mv4(s, "BLU-2", hits="5,1,1,1")
    assert "Use shield generator" in texts(s)
    s, _ = s.apply("Use shield generator")
    assert s.operatives[0].wounds == 1 and s.operatives[0].alive


def test_shield_generator_not_asked_when_the_other_dice_incapacitate_it() -> None:
    # MV4 at 3 wounds, two normal dice of 3: one is withheld, the other incapacitates it;
    # ignoring one die would not have saved it, so nothing is asked (and nothing spent).
    s = lab([MV4], {**SHIELD, "PAT-1": {"at": (16, 14.5), "wounds": 3}}, turn="B")
    s = _shoot_mv4(s, "BLU-1")
    assert "Use shield generator" not in texts(s)
    assert not s.operatives[0].alive


def test_shield_generator_in_a_fight_the_player_picks_the_normal_strike() -> None:
    # BLU-1 fights the MV4 (7 wounds) and strikes with two normal successes: A is asked at
    # each normal strike, after its damage is withheld; declining the first lets its damage
    # through, the second is ignored (once per turning point: the player picks which die).
    ops: Ops = {"PAT-1": {"at": (16, 14.5)}, "BLU-1": {"at": (17.3, 14.5)}}
    s = lab([MV4], ops, turn="B", initiative="B")
    s, _ = run(s, ["Activate BLU-1 engage"])
    fight = next(t for t in texts(s) if t.startswith("Fight BLU-1") and "PAT-1" in t)
    s, _ = run(s, [fight])
    while not (isinstance(s.node, Decision) and s.node.kind == "resolve"):
        if isinstance(s.node, Decision):
            s, _ = s.apply(texts(s)[0])  # the MV4's ram; no re-rolls
        else:
            req = s.node.request  # type: ignore[union-attr]
            hits = ["5", "5"] if req.player == "B" else []  # BLU-1's two normal successes
            s, _ = run(s, [], dice=[",".join(hits + ["1"] * (req.dice - len(hits)))])
    normal = s.operatives[0].wounds
    s, _ = s.apply("Strike normal")
    assert s.node == Decision("A", "team_rule")  # asked at the strike, before its damage
    assert s.operatives[0].wounds == normal == 7
    s, _ = s.apply("Decline")
    hit = 7 - s.operatives[0].wounds  # BLU-1's melee Normal Dmg, inflicted once declined
    assert hit > 0
    s, _ = s.apply("Strike normal")
    assert s.node == Decision("A", "team_rule")  # asked again: not used yet
    s, ev = s.apply("Use shield generator")
    assert s.operatives[0].wounds == 7 - hit  # the second strike ignored
    assert of_kind(ev, "shield_generator")


def test_shield_generator_not_for_critical_damage() -> None:
    # Two critical hits (6,6) on the MV4: no choice (only Normal Dmg can be ignored).
    s = lab([MV4], SHIELD, turn="B", initiative="B")
    s, _ = run(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at PAT-1"], dice=["6,6,1,1"])
    s, _ = run(decline(s), [], dice=["1,1,1"])
    s = decline(s)
    assert not (isinstance(s.node, Decision) and s.node.kind == "team_rule")


# -------------------------------------------------------------------------------------------
# Grav-Inhibitor (MV33)
# -------------------------------------------------------------------------------------------


def test_grav_inhibitor_slows_nearby_enemies_and_worsens_their_melee() -> None:
    # BLU-1 4" from the MV33 (visible): Reposition 6" -> 4", Dash unchanged (3"), Knife Hit
    # 3+ -> 4+; BLU-2 10" away: unchanged.
    from engine.game.attacks import attack_profile

    ops: Ops = {
        "PAT-1": {"at": (12, 14.5)},
        "BLU-1": {"at": (16, 14.5)},
        "BLU-2": {"at": (22, 14.5)},
    }
    w = Work(lab([MV33], ops))
    assert w.would("would_move_distance", 6.0, op="BLU-1", action="Reposition") == 4.0
    assert w.would("would_move_distance", 3.0, op="BLU-1", action="Dash") == 3.0
    assert w.would("would_move_distance", 6.0, op="BLU-2", action="Reposition") == 6.0
    knife = attack_profile(w, w.op("BLU-1"), "knife", "melee", target="PAT-1")
    assert knife.hit == 4
    far = attack_profile(w, w.op("BLU-2"), "knife", "melee", target="PAT-1")
    assert far.hit == 3


def test_grav_inhibitor_a_move_ending_near_it_counts_two_inches_more() -> None:
    # BLU-1 starts 10" (centres) from the MV33 at (12, 14.5), farther than 6" base to base:
    # a Reposition to x 17 (within 6" of the drone) is a 5" move counting 7": refused; to
    # x 18.5 (within 6" too) a 3.5" move counting 5.5": allowed; a Dash is not affected.
    ops: Ops = {"PAT-1": {"at": (12, 14.5)}, "BLU-1": {"at": (22, 14.5)}}
    s = lab([MV33], ops, turn="B", initiative="B")
    s, _ = s.apply("Activate BLU-1 engage")
    with pytest.raises(IllegalActionError):
        s.apply("Reposition BLU-1 to 17,14.5")
    ok, _ = s.apply("Reposition BLU-1 to 18.5,14.5")
    assert ok.operatives[1].x == 18.5
    dash, _ = s.apply("Dash BLU-1 to 19,14.5")
    assert dash.operatives[1].x == 19


def test_grav_inhibitor_a_move_passing_near_it_counts_two_inches_more() -> None:
    # BLU-1 at (18.8, 11.5) is 7.4" (centres) from the MV33 at (12, 14.5), more than 6"
    # base to base; so is (18.8, 17.5). The straight path between them passes 6.8" (centres)
    # from it, within 6" base to base: that 6" Reposition counts 8": refused, although it
    # starts and ends out of range. A 3.9" one counts 5.9": allowed; 4.1" (6.1"): refused.
    # A move that stays away (east) is not affected.
    ops: Ops = {"PAT-1": {"at": (12, 14.5)}, "BLU-1": {"at": (18.8, 11.5)}}
    s = lab([MV33], ops, turn="B", initiative="B")
    s, _ = s.apply("Activate BLU-1 engage")
    with pytest.raises(IllegalActionError, match="Grav-Inhibitor"):
        s.apply("Reposition BLU-1 to 18.8,17.5")
    ok, _ = s.apply("Reposition BLU-1 to 18.8,15.4")
    assert ok.operatives[1].y == 15.4
    with pytest.raises(IllegalActionError, match="Grav-Inhibitor"):
        s.apply("Reposition BLU-1 to 18.8,15.6")
    far, _ = s.apply("Reposition BLU-1 to 24.8,11.5")
    assert far.operatives[1].x == 24.8


def test_grav_inhibitor_judges_the_route_around_terrain_not_the_straight_line() -> None:
    # A 5" Heavy screen at x 19.8-20.2, y 4-8 on LAB; the MV33 at (20, 15). BLU-1 (18.5, 7)
    # Repositions to (21.5, 7) on the far side of the screen: the straight line (y 7) stays
    # 8" (centres) from the drone, farther than 6" base to base (1.26" of bases), so the old
    # straight-line reading allowed it. The route the operative must take goes around the
    # screen's north end (y 8.63: 6.37" centres, within 6" base to base, visible) and costs
    # 6" (3" + 3"): near the drone it counts 8", and the way around the south end, keeping
    # away, is over 7": refused. Moving back toward the start's side (no detour) is allowed.
    from engine.geometry import Killzone
    from tests.test_game_rules_common import lab_data, rect

    data = lab_data()
    screen = {"polygon": rect(19.8, 4, 20.2, 8), "height": 5.0, "types": ["Heavy"]}
    data["features"].append({"name": "screen", "parts": [screen]})
    kz = Killzone.from_dict(data, "lab_screen")
    pf = Roster.from_entries(lab_team("pathfinders"), [MV33])
    ops: Ops = {"PAT-1": {"at": (20, 15)}, "BLU-1": {"at": (18.5, 7)}}
    s = position(kz, pf, roster(BLU, ("Trooper",)), operatives=ops, turn="B", initiative="B")
    s, _ = s.apply("Activate BLU-1 engage")
    with pytest.raises(IllegalActionError, match="Grav-Inhibitor"):
        s.apply("Reposition BLU-1 to 21.5,7")
    ok, _ = s.apply("Reposition BLU-1 to 15.5,7")
    assert ok.operatives[1].x == 15.5
    # With the drone at (20, 21), 12" from the route, the same 6" route is legal: the
    # refusal above came from the drone near the route.
    far: Ops = {"PAT-1": {"at": (20, 21)}, "BLU-1": {"at": (18.5, 7)}}
    s = position(kz, pf, roster(BLU, ("Trooper",)), operatives=far, turn="B", initiative="B")
    s, _ = s.apply("Activate BLU-1 engage")
    moved, _ = s.apply("Reposition BLU-1 to 21.5,7")
    assert moved.operatives[1].x == 21.5


def test_grav_inhibitor_ignores_the_accessible_extra_inch_near_it() -> None:
    # A 5" bulkhead across LAB at x 22-22.5 with a 1" Accessible doorway at y 14-15; the MV33
    # at (27, 14.5). BLU-1 at (19.5, 14.5) is 7.5" (centres) away: not near. Through the
    # doorway to (23.5, 14.5) (near the drone, and every way there passes near it) is 4",
    # +1" Accessible = 5" as moves count it; Grav-Inhibitor counts the move as 4" + 2" = 6"
    # (the rule ignores the Accessible extra): allowed. To (24, 14.5): 5" + 2" = 7": refused.
    from engine.geometry import Killzone
    from tests.test_game_rules_common import lab_data, rect

    data = lab_data()
    parts = [
        {"polygon": rect(22, 0, 22.5, 14), "height": 5.0, "types": ["Heavy"]},
        {"polygon": rect(22, 14, 22.5, 15), "height": 5.0, "types": ["Accessible"]},
        {"polygon": rect(22, 15, 22.5, 22), "height": 5.0, "types": ["Heavy"]},
    ]
    data["features"].append({"name": "bulkhead", "parts": parts})
    kz = Killzone.from_dict(data, "lab_door")
    pf = Roster.from_entries(lab_team("pathfinders"), [MV33])
    ops: Ops = {"PAT-1": {"at": (27, 14.5)}, "BLU-1": {"at": (19.5, 14.5)}}
    s = position(kz, pf, roster(BLU, ("Trooper",)), operatives=ops, turn="B", initiative="B")
    s, _ = s.apply("Activate BLU-1 engage")
    ok, _ = s.apply("Reposition BLU-1 to 23.5,14.5")
    assert ok.operatives[1].x == 23.5
    with pytest.raises(IllegalActionError, match="Grav-Inhibitor"):
        s.apply("Reposition BLU-1 to 24,14.5")


def test_grav_inhibitor_a_move_starting_near_it_ignores_the_accessible_inch() -> None:
    # The bulkhead of the test above (x 22-22.5, 1" Accessible doorway at y 14-15); the MV33
    # at (16, 14.5), BLU-1 at (20, 14.5): 4" (centres) away and visible, so its Reposition is
    # 6" - 2" = 4" and the rule ignores the Accessible extra inch. Through the doorway to
    # (24, 14.5) is 4" (+1" Accessible = 5" as moves count it): allowed now; the old reading
    # (the 4" distance still counting the extra inch) refused it. (24.5, 14.5) is 4.5":
    # refused.
    from engine.geometry import Killzone
    from tests.test_game_rules_common import lab_data, rect

    data = lab_data()
    parts = [
        {"polygon": rect(22, 0, 22.5, 14), "height": 5.0, "types": ["Heavy"]},
        {"polygon": rect(22, 14, 22.5, 15), "height": 5.0, "types": ["Accessible"]},
        {"polygon": rect(22, 15, 22.5, 22), "height": 5.0, "types": ["Heavy"]},
    ]
    data["features"].append({"name": "bulkhead", "parts": parts})
    kz = Killzone.from_dict(data, "lab_door")
    pf = Roster.from_entries(lab_team("pathfinders"), [MV33])
    ops: Ops = {"PAT-1": {"at": (16, 14.5)}, "BLU-1": {"at": (20, 14.5)}}
    s = position(kz, pf, roster(BLU, ("Trooper",)), operatives=ops, turn="B", initiative="B")
    s, _ = s.apply("Activate BLU-1 engage")
    # The listing searches with the same arguments as the move (terrain extras off).
    from engine.game import universal

    w = Work(s)
    args = universal.move_args(w, w.op("BLU-1"), "Reposition", "activation")
    assert args["max_cost"] == 4.0 and args["terrain_extras"] is False
    ok, _ = s.apply("Reposition BLU-1 to 24,14.5")
    assert ok.operatives[1].x == 24
    with pytest.raises(IllegalActionError):
        s.apply("Reposition BLU-1 to 24.5,14.5")
    # A Dash is not affected: 3", through the doorway +1" = 4" > 3": refused as before.
    with pytest.raises(IllegalActionError):
        s.apply("Dash BLU-1 to 23,14.5")


def test_grav_inhibitor_finds_the_route_cheapest_without_the_terrain_extras() -> None:
    # Two short walls (x 20-20.3 and 20.8-21.1, y 13-15.6), each with a 1" Accessible doorway
    # at y 14-15; the MV33 at (27, 14.5). BLU-1 at (18.5, 14.5) (8.5" centres away: not near)
    # Repositions to (22.3, 14.5) (4.7" away: near). Straight through both doorways is 3.8":
    # 4" (+2" Accessible = 6" as moves count it). The search counting the extras prefers a
    # 5" route along the doorways' edges (no Accessible part entered); the old reading
    # judged that route: 5" + 2" = 7" > 6": refused. The rule ignores the extras, so the
    # straight route counts 4" + 2" = 6": allowed. To (22.8, 14.5) (4.3" -> 5" + 2" = 7"):
    # refused.
    from engine.geometry import Killzone
    from tests.test_game_rules_common import lab_data, rect

    data = lab_data()
    parts = []
    for x in (20.0, 20.8):
        parts += [
            {"polygon": rect(x, 13, x + 0.3, 14), "height": 5.0, "types": ["Heavy"]},
            {"polygon": rect(x, 14, x + 0.3, 15), "height": 5.0, "types": ["Accessible"]},
            {"polygon": rect(x, 15, x + 0.3, 15.6), "height": 5.0, "types": ["Heavy"]},
        ]
    data["features"].append({"name": "walls", "parts": parts})
    kz = Killzone.from_dict(data, "lab_doors")
    pf = Roster.from_entries(lab_team("pathfinders"), [MV33])
    ops: Ops = {"PAT-1": {"at": (27, 14.5)}, "BLU-1": {"at": (18.5, 14.5)}}
    s = position(kz, pf, roster(BLU, ("Trooper",)), operatives=ops, turn="B", initiative="B")
    s, _ = s.apply("Activate BLU-1 engage")
    ok, _ = s.apply("Reposition BLU-1 to 22.3,14.5")
    assert ok.operatives[1].x == 22.3
    with pytest.raises(IllegalActionError, match="Grav-Inhibitor"):
        s.apply("Reposition BLU-1 to 22.8,14.5")


# -------------------------------------------------------------------------------------------
# Remote Pilot (Drone Controller)
# -------------------------------------------------------------------------------------------

PILOT: Ops = {"PAT-1": {"at": (5, 10)}, "PAT-2": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}


def test_remote_pilot_gives_a_drone_one_free_action_moving_at_most_two_inches() -> None:
    # The controller (1AP) lets the MV1 act at once for free: it may shoot BLU-1, and any
    # move ends within 2" of where it is; then the controller's activation goes on (1AP left).
    from engine.geometry import sight

    s = lab([CONTROLLER, MV1], PILOT)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 remote pilot on PAT-2"])
    legal = with_destinations(s)
    assert "Shoot PAT-2 twin pulse carbine at BLU-1" in [str(a) for a in legal]
    w = Work(s)
    start = w.place(w.op("PAT-2"))
    for a in legal:
        if a.verb in ("Reposition", "Dash") and a.point is not None:
            there = w.ctx.placement("PAT-2", *a.point)
            assert sight.distance(start, there) <= 2.0 + 1e-6
    s, _ = run(s, ["Dash PAT-2 to 5,12.5"])
    assert s.operatives[0].ap == 1 and s.node.player == "A"  # type: ignore[union-attr]


def test_remote_pilot_again_but_never_the_same_free_action_twice() -> None:
    # The controller (APL 2) pilots the MV1 twice in one activation: first a Dash; the
    # second time the drone may not Dash again (same free action), but may Reposition.
    s = lab([CONTROLLER, MV1], PILOT)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 remote pilot on PAT-2"])
    s, _ = run(s, ["Dash PAT-2 to 5,12.5"])
    assert "Act PAT-1 remote pilot on PAT-2" in texts(s)
    s, _ = s.apply("Act PAT-1 remote pilot on PAT-2")
    acts = texts(s)
    assert not [t for t in acts if t.startswith("Dash")]
    assert [t for t in acts if t.startswith("Reposition")]
    assert s.operatives[0].ap == 0


def test_remote_pilot_any_action_guard_and_actions_with_an_argument() -> None:
    # Every action the drone could perform is a Remote Pilot free action: Guard among the
    # universal ones, and a rule action with an argument (a mission action ``secure
    # centre``, a Markerlight used with High-Intensity Markerlight) is matched by its name.
    from engine.game.actions import Action
    from engine.game.universal.activation import _free_allowed
    from teams.pathfinders.drone_actions import UNIVERSAL_VERBS

    assert "Guard" in UNIVERSAL_VERBS
    assert _free_allowed(Action("Act", op="PAT-2", text="secure centre"), ("secure",))
    assert not _free_allowed(Action("Act", op="PAT-2", text="securex"), ("secure",))
    # The MB3 piloted: its free Markerlight may use High-Intensity Markerlight (two tokens).
    s = lab([CONTROLLER, MB3], PILOT, equipment={"A": ("High-Intensity Markerlight",)})
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 remote pilot on PAT-2"])
    assert "Act PAT-2 markerlight high-intensity on BLU-1" in texts(s)
    s, _ = run(s, ["Act PAT-2 markerlight high-intensity on BLU-1"])
    assert tokens(s, "BLU-1") == 2


def test_remote_pilot_lifts_the_drone_rule_but_not_within_enemy_control_range() -> None:
    from engine.game import universal

    s = lab([CONTROLLER, MV1], PILOT)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 remote pilot on PAT-2"])
    w = Work(s)
    assert "DRONE" not in str(universal.precheck(w, w.op("PAT-2"), "Pick up", "free"))
    near: Ops = {**PILOT, "BLU-1": {"at": (6.6, 10)}}
    s = lab([CONTROLLER, MV1], near)
    s, _ = s.apply("Activate PAT-1 engage")
    assert not [t for t in texts(s) if "remote pilot" in t]


# -------------------------------------------------------------------------------------------
# Pulse Accelerator (MV31)
# -------------------------------------------------------------------------------------------


def test_pulse_accelerator_gives_lethal_and_severe_to_pulse_weapons_within_three() -> None:
    # After the MV31's action, the Shas'La 2" away has Lethal 5+ and Severe on its pulse
    # carbine, the one 5" away does not; the drone's next activation ends it.
    from engine.dice.rules import Lethal, Severe
    from engine.game.attacks import attack_profile

    ops: Ops = {
        "PAT-1": {"at": (5, 12)},
        "PAT-2": {"at": (5, 14)},
        "PAT-3": {"at": (5, 17)},
        "BLU-1": {"at": (25, 4)},
    }
    s = lab([MV31, SHAS_LA, SHAS_LA], ops)
    s, _ = run(s, ["Activate PAT-1 engage", "Act PAT-1 pulse accelerator"])

    def rules(s: GameState, op: str) -> Any:
        w = Work(s)
        return attack_profile(w, w.op(op), "pulse carbine", "ranged", target="BLU-1").rules

    assert rules(s, "PAT-2").has(Lethal) and rules(s, "PAT-2").has(Severe)
    assert not rules(s, "PAT-3").has(Lethal)
    assert "Act PAT-1 pulse accelerator" not in texts(s)  # once is enough: already active
    s, _ = run(s, ["End activation", "Activate BLU-1 engage", "End activation"])
    assert rules(s, "PAT-2").has(Severe)  # other activations do not end it
    # The MV31's next activation (made ready again here) ends it.
    w = Work(s)
    w.set_op("PAT-1", ready=True)
    w.node = s.node
    s, _ = w.freeze().apply("Activate PAT-1 engage")
    assert not rules(s, "PAT-2").has(Severe)


# -------------------------------------------------------------------------------------------
# Art Of War (Shas'Ui)
# -------------------------------------------------------------------------------------------


def gambit(types: Sequence[str], ops: Ops, used: Sequence[str] = ()) -> GameState:
    """TP2's Gambit step with A (Pathfinders) to decide: every operative of ``ops`` starts
    expended in TP1 (so TP1 ends at once); B wins the roll-off and passes first. ``used``:
    Art Of War options already used in the battle."""
    spent = {k: {**v, "ready": False} for k, v in ops.items()}
    s = lab(types, spent)
    if used:
        w = Work(s)
        for option in used:
            w.count("A", f"pf_art_of_war:{option}", 1)
        w.node = s.node
        s = w.freeze()
    while isinstance(s.node, Decision) and s.node.kind == "ploy":
        s, _ = s.apply("Pass")
    s, _ = run(s, [], dice=["3,4"])
    s, _ = run(s, ["Initiative B", "Pass"])
    assert s.node.player == "A" and s.node.kind == "gambit"  # type: ignore[union-attr]
    return s


def to_firefight(s: GameState) -> GameState:
    while isinstance(s.node, Decision) and s.node.kind in ("gambit", "ploy"):
        s, _ = s.apply("Pass")
    return s


ART: Ops = {"PAT-1": {"at": (3, 10)}, "PAT-2": {"at": (5, 14.5)}, "BLU-1": {"at": (16, 14.5)}}


def test_art_of_war_montka_adds_an_inch_of_move_once_per_battle() -> None:
    # Mont'ka: friendly PATHFINDER operatives have Move 7" this turning point; one option
    # per turning point (none offered after it), and Mont'ka already used in the battle
    # leaves only Kauyon.
    s = gambit([SHAS_UI, SHAS_LA], ART)
    assert {"Use art of war mont'ka", "Use art of war kauyon"} <= set(texts(s))
    s, _ = s.apply("Use art of war mont'ka")
    w = Work(s)
    assert w.move_stat(w.op("PAT-2")) == 7.0
    assert not [t for t in texts(s) if "art of war" in t]
    s = gambit([SHAS_UI, SHAS_LA], ART, used=["mont'ka"])
    assert [t for t in texts(s) if "art of war" in t] == ["Use art of war kauyon"]


def test_art_of_war_needs_the_shas_ui_on_the_killzone() -> None:
    s = gambit([SHAS_UI, SHAS_LA], {k: v for k, v in ART.items() if k != "PAT-1"})
    assert not [t for t in texts(s) if "art of war" in t]


def test_art_of_war_kauyon_gives_a_free_markerlight_to_conceal_operatives() -> None:
    # Kauyon: the Shas'La activated with a Conceal order marks BLU-1 for 0AP (2AP left);
    # with an Engage order it pays 1AP.
    s = gambit([SHAS_UI, SHAS_LA], ART)
    s = to_firefight(s.apply("Use art of war kauyon")[0])
    s, _ = run(s, ["Activate BLU-1 engage", "End activation"])  # B has the initiative
    s = decline(s)
    c, _ = run(s, ["Activate PAT-2 conceal", "Act PAT-2 markerlight on BLU-1"])
    assert tokens(c, "BLU-1") == 1 and c.operatives[1].ap == 2
    e, _ = run(s, ["Activate PAT-2 engage", "Act PAT-2 markerlight on BLU-1"])
    assert e.operatives[1].ap == 1


# -------------------------------------------------------------------------------------------
# Fearless On The Frontline (Shas'La)
# -------------------------------------------------------------------------------------------


def test_fearless_on_the_frontline_markerlight_in_control_range_and_cheap_fall_back() -> None:
    # Within BLU-1's control range the Shas'La may still Markerlight it, and Falls Back for
    # 1AP (2 - 1): 1AP left. (A Shas'Ui there cannot: test above.)
    ops: Ops = {"PAT-1": {"at": (15, 14.5)}, "BLU-1": {"at": (16.6, 14.5)}}
    s = lab([SHAS_LA], ops)
    s, _ = s.apply("Activate PAT-1 engage")
    assert "Act PAT-1 markerlight on BLU-1" in texts(s)
    back = next(t for t in texts(s) if t.startswith("Fall Back"))
    f, _ = s.apply(back)
    assert f.operatives[0].ap == 1


# -------------------------------------------------------------------------------------------
# Group Activation (Shas'La)
# -------------------------------------------------------------------------------------------


def test_group_activation_chains_one_other_shas_la_only() -> None:
    # After PAT-1 (Shas'La) ends its activation A must activate another ready Shas'La
    # (PAT-2, not the Shas'Ui PAT-3); after PAT-2, B activates (no third in succession).
    ops: Ops = {
        "PAT-1": {"at": (3, 10)},
        "PAT-2": {"at": (3, 14.5)},
        "PAT-3": {"at": (3, 4)},
        "PAT-4": {"at": (3, 18)},
        "BLU-1": {"at": (25, 14.5)},
    }
    s = lab([SHAS_LA, SHAS_LA, SHAS_UI, SHAS_LA], ops)
    s, _ = run(s, ["Activate PAT-1 engage", "End activation"])
    s = decline(s)
    assert s.node.player == "A" and s.node.kind == "activate"  # type: ignore[union-attr]
    acts = texts(s)
    assert "Activate PAT-2 engage" in acts and "Activate PAT-4 conceal" in acts
    assert not [t for t in acts if "PAT-3" in t]
    s, _ = run(s, ["Activate PAT-2 engage", "End activation"])
    s = decline(s)
    assert s.node.player == "B"  # type: ignore[union-attr]


def test_group_activation_not_when_a_non_shas_la_activates() -> None:
    ops: Ops = {"PAT-1": {"at": (3, 10)}, "PAT-2": {"at": (3, 14.5)}, "BLU-1": {"at": (25, 14.5)}}
    s = lab([SHAS_UI, SHAS_LA], ops)
    s, _ = run(s, ["Activate PAT-1 engage", "End activation"])
    s = decline(s)
    assert s.node.player == "B"  # type: ignore[union-attr]


# -------------------------------------------------------------------------------------------
# Multi-Dimensional Vision (Transpectral Interference)
# -------------------------------------------------------------------------------------------


def test_multi_dimensional_vision_targets_cannot_be_obscured() -> None:
    # BLU-1 at (16, 10) is obscured by the ruin from (5, 10): not from the Transpectral
    # Interference; still from a Shas'La there.
    from engine.game.shoot_targets import targeting

    w = Work(lab([TRANSPECTRAL], {"PAT-1": {"at": (5, 10)}, "BLU-1": {"at": (16, 10)}}))
    assert not targeting(w, w.op("PAT-1"), w.op("BLU-1")).obscured
    w = Work(lab([SHAS_LA], {"PAT-1": {"at": (5, 10)}, "BLU-1": {"at": (16, 10)}}))
    assert targeting(w, w.op("PAT-1"), w.op("BLU-1")).obscured


# -------------------------------------------------------------------------------------------
# System Jam (Transpectral Interference)
# -------------------------------------------------------------------------------------------


def test_system_jam_lowers_a_visible_enemys_apl_until_its_next_activation_ends() -> None:
    # 1AP: BLU-1 (APL 2) has APL 1; BLU-2 behind the wall is not offered; BLU-1's APL is 2
    # again once its next activation has ended.
    s = lab([TRANSPECTRAL], OPEN)
    s, _ = s.apply("Activate PAT-1 engage")
    assert "Act PAT-1 system jam on BLU-2" not in texts(s)
    s, _ = s.apply("Act PAT-1 system jam on BLU-1")
    w = Work(s)
    assert w.apl(w.op("BLU-1")) == 1 and s.operatives[0].ap == 1
    s, _ = run(s, ["End activation", "Activate BLU-1 engage"])
    assert s.operatives[1].ap == 1  # it activated with 1AP
    s, _ = run(s, ["End activation"])
    w = Work(s)
    assert w.apl(w.op("BLU-1")) == 2


def test_system_jam_not_with_a_conceal_order() -> None:
    s = lab([TRANSPECTRAL], OPEN)
    s, _ = s.apply("Activate PAT-1 conceal")
    assert not [t for t in texts(s) if "system jam" in t]
