"""The KT18 Psychic phase (``rules/KT18.md`` 4, 6.9, 6.13, 8.5): psykers, Psychic tests,
Perils of the Warp, Deny the Witch and Psybolt, and the psyker data of a datasheet.

Positions use the rule scenarios' fixture team (``scenarios/teams/kt18_fixture.json``; its
Probe Psyker: W2, 25 mm base, one power and one deny per phase, knows Psybolt) on a 30" x 22"
board with one 5" wall (x 10-11, y 17-21.5) that blocks sight along y 19. Player A's models
are ``FIXA-1``..., player B's ``FIXB-1``...; both rosters list the Psyker first, then Probe
Troopers (W1, 25 mm). Two 25 mm bases whose centres are d" apart are d - 0.984" apart
(1.1: distances between bases).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.agents import RandomAgent
from engine.game.actions import IllegalActionError, format_action, parse_action
from engine.game.context import GameOptions
from engine.game.drivers import SeededDice
from engine.game.events import narrate
from engine.game.scenario import start_position
from engine.game.state import Chance, Decision, GameState
from engine.geometry import Killzone
from engine.rules.kt18.psychic import is_perils
from engine.rulesets import KT18, position
from engine.teams.io import team_from_dict, team_to_dict
from engine.teams.kt18_cards import Kt18Profile, kt18_profile_problem
from engine.teams.kt18_io import kt18_profile_from_dict, kt18_profile_to_dict
from engine.teams.model import Roster, Team
from tests.conformance_support import bogus, check_resources
from tests.kt18_flow_support import apply_all as play
from tests.kt18_flow_support import event_data as kinds

FIXTURE = json.loads(Path("scenarios/teams/kt18_fixture.json").read_text(encoding="utf-8"))
KZ = Killzone.from_dict(
    {
        "name": "kt18_psychic_test",
        "features": [
            {
                "name": "wall",
                "parts": [
                    {
                        "polygon": [[10, 17], [11, 17], [11, 21.5], [10, 21.5], [10, 17]],
                        "height": 5.0,
                        "types": ["Heavy"],
                    }
                ],
            }
        ],
        "drop_zones": {
            "A": [[0, 0], [3, 0], [3, 22], [0, 22], [0, 0]],
            "B": [[27, 0], [30, 0], [30, 22], [27, 22], [27, 0]],
        },
    }
)
GAP = 25 / 25.4  # two 25 mm base radii, inches


def fixture_team(psyker: Mapping[str, Any] | None = None, trooper_psyker: bool = False) -> Team:
    """The fixture team; ``psyker`` replaces the Probe Psyker's ``"psyker"`` object (``{}``
    removes it); ``trooper_psyker`` gives the Probe Trooper the PSYKER keyword (no counts)."""
    data = copy.deepcopy(FIXTURE)
    op = next(o for o in data["operatives"] if o["name"] == "Probe Psyker")
    if psyker is not None:
        op["kt18"].pop("psyker", None)
        if psyker:
            op["kt18"]["psyker"] = dict(psyker)
    if trooper_psyker:
        trooper = next(o for o in data["operatives"] if o["name"] == "Probe Trooper")
        trooper["keywords"] = [*trooper["keywords"], "PSYKER"]
    return team_from_dict(data, "kt18_fixture.json")


def psychic_position(
    at: Mapping[str, tuple[float, float]],
    *,
    a: Sequence[str] = ("Probe Psyker", "Probe Trooper"),
    b: Sequence[str] = ("Probe Psyker", "Probe Trooper", "Probe Trooper"),
    team_a: Team | None = None,
    team_b: Team | None = None,
    initiative: str = "A",
    effects: Sequence[Mapping[str, Any]] = (),
    wounds: Mapping[str, int] | None = None,
) -> GameState:
    """The Psychic phase of battle round 1 beginning, the models of ``at`` on the board."""
    ta, tb = team_a or fixture_team(), team_b or fixture_team()
    ops: dict[str, dict[str, Any]] = {k: {"at": v} for k, v in at.items()}
    for k, v in (wounds or {}).items():
        ops[k]["wounds"] = v
    return position(
        KZ,
        Roster.from_entries(ta, list(a)),
        Roster.from_entries(tb, list(b)),
        options=GameOptions(ruleset="kt18"),
        phase="psychic",
        initiative=initiative,
        operatives=ops,
        effects=list(effects),
    )


def choices(state: GameState) -> list[str]:
    """The legal inputs at ``state``'s node."""
    return [str(a) for a in state.legal_actions()]


def decision(state: GameState) -> tuple[str, str]:
    """``(player, kind)`` of the decision at ``state``."""
    node = state.node
    assert isinstance(node, Decision), node
    return node.player, node.kind


def chance(state: GameState) -> tuple[str, str, int]:
    """``(player, kind, dice)`` of the chance node at ``state``."""
    node = state.node
    assert isinstance(node, Chance), node
    return node.request.player, node.request.kind, node.request.dice


# A psyker at (5, 5), its friend at (5, 8), an enemy psyker 20" east (within 24", 4.5), an
# enemy Trooper 8" east (7.016" away, within 18", 4.3), another 12" east.
OPEN = {
    "FIXA-1": (5.0, 5.0),
    "FIXA-2": (5.0, 8.0),
    "FIXB-1": (25.0, 5.0),
    "FIXB-2": (13.0, 5.0),
    "FIXB-3": (17.0, 5.0),
}


# -------------------------------------------------------------------------------------------
# 4.1 Structure: one psyker per player, initiative order, shaken psykers
# -------------------------------------------------------------------------------------------


def test_players_choose_a_psyker_in_initiative_order() -> None:
    """4.1: in initiative order each player chooses one psyker or declines: with B holding
    the initiative, B chooses first; after B declines, A chooses."""
    s = psychic_position(OPEN, initiative="B")
    assert decision(s) == ("B", "kt18_psyker")
    assert choices(s) == ["Act FIXB-1 psybolt", "Pass"]
    s, ev = play(s, "Pass")
    assert kinds(ev, "kt18_psychic_declined") == [{"player": "B"}]
    assert decision(s) == ("A", "kt18_psyker")


def test_one_psyker_per_player_per_battle_round() -> None:
    """4.1: one psyker per player per battle round: A's two psykers (the Trooper FIXA-2 made
    a PSYKER for the test) are both offered, and once FIXA-1 has made its attempt the turn
    passes to B without offering FIXA-2."""
    s = psychic_position(OPEN, team_a=fixture_team(trooper_psyker=True))
    assert choices(s) == ["Act FIXA-1 psybolt", "Act FIXA-2 psybolt", "Pass"]
    s, _ = play(s, "Act FIXA-1 psybolt", "roll 2,1")  # 3 < 5: fails, no deny
    assert decision(s) == ("B", "kt18_psyker")
    assert "FIXA-2" not in " ".join(choices(s))


def test_a_player_without_a_psyker_is_not_asked() -> None:
    """4.1: only PSYKER models manifest powers: A has none on the battlefield (its psyker is
    not set up), so the first decision is B's."""
    at = {k: v for k, v in OPEN.items() if k != "FIXA-1"}
    s = psychic_position(at)
    assert decision(s) == ("B", "kt18_psyker")


def test_a_shaken_psyker_neither_manifests_nor_denies() -> None:
    """8.5: a shaken model can do nothing, no psychic power and no Deny the Witch: A's
    shaken psyker FIXA-1 is not offered (its other psyker FIXA-2 is) and choosing it is
    refused naming 8.5; when B's power manifests, only FIXA-2 is offered the deny."""
    s = psychic_position(
        OPEN,
        team_a=fixture_team(trooper_psyker=True),
        effects=[{"kind": "kt18_shaken", "op": "FIXA-1", "until": "end_battle"}],
    )
    assert choices(s) == ["Act FIXA-2 psybolt", "Pass"]
    with pytest.raises(IllegalActionError, match=r"shaken.*8\.5"):
        s.apply("Act FIXA-1 psybolt")
    s, _ = play(s, "Pass")
    s, _ = play(s, "Act FIXB-1 psybolt", "roll 4,3")
    assert decision(s) == ("A", "kt18_deny")
    assert choices(s) == ["Act FIXA-2 deny the witch", "Pass"]


def test_psykers_that_act_get_the_psychic_token() -> None:
    """tokens.py: a model that attempted a power or took a Deny the Witch test has the
    round's ``psychic`` token."""
    s = psychic_position(OPEN)
    s, _ = play(s, "Act FIXA-1 psybolt", "roll 4,3", "Act FIXB-1 deny the witch", "roll 1,2")
    by_id = {o.id: o for o in s.operatives}
    assert "psychic" in by_id["FIXA-1"].done and "psychic" in by_id["FIXB-1"].done


# -------------------------------------------------------------------------------------------
# 4.4 Psychic test and Perils of the Warp
# -------------------------------------------------------------------------------------------


def test_psychic_test_needs_the_warp_charge() -> None:
    """4.3, 4.4: Psybolt's warp charge is 5: 2D6 = 3 + 1 = 4 fails (no Deny, no effect)."""
    s = psychic_position(OPEN)
    assert chance(play(s, "Act FIXA-1 psybolt")[0]) == ("A", "kt18_psychic_test", 2)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 3,1")
    assert kinds(ev, "kt18_psychic_test")[0]["success"] is False
    assert kinds(ev, "kt18_power_failed") == [{"op": "FIXA-1", "power": "Psybolt", "why": "test"}]
    assert decision(s) == ("B", "kt18_psyker")


def test_psychic_test_of_exactly_the_warp_charge_manifests() -> None:
    """4.4: a total at least the warp charge manifests: 3 + 2 = 5 against 5."""
    s = psychic_position(OPEN)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 3,2")
    assert kinds(ev, "kt18_psychic_test")[0]["success"] is True
    assert decision(s) == ("B", "kt18_deny")


def test_perils_only_on_double_one_or_double_six() -> None:
    """4.4: Perils of the Warp on a double 1 or a double 6, no other double."""
    assert is_perils((1, 1)) and is_perils((6, 6))
    assert not any(is_perils((d, d)) for d in (2, 3, 4, 5))
    assert not is_perils((6, 1))


def test_perils_double_one_wounds_the_psyker_and_fails() -> None:
    """4.4: a double 1 totals 2 (fails) and is Perils: D3 mortal wounds to the psyker,
    rolled by its controller (6.9 reading). A D3 of 1 (die 2) takes 1 of its 2 wounds: no
    Injury roll, it stays; the power has failed."""
    s = psychic_position(OPEN)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 1,1")
    assert kinds(ev, "kt18_perils") == [{"op": "FIXA-1"}]
    assert chance(s) == ("A", "kt18_mortal_count", 1)
    s, ev = play(s, "roll 2")
    assert kinds(ev, "kt18_wounds_lost")[0]["wounds"] == 1
    assert kinds(ev, "kt18_power_failed") == [{"op": "FIXA-1", "power": "Psybolt", "why": "test"}]
    assert decision(s) == ("B", "kt18_psyker")


def test_perils_double_six_still_manifests_when_the_psyker_survives() -> None:
    """4.4: a double 6 totals 12 and manifests unless Perils takes the psyker out of action:
    D3 = 3 (die 6) takes its 2 wounds, the Injury roll (its controller's, A) of 3 is a flesh
    wound (6.9: 3 or less), so it stays on the battlefield and the power goes on to B's
    Deny the Witch."""
    s = psychic_position(OPEN)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 6,6", "roll 6")
    assert chance(s) == ("A", "kt18_injury", 1)
    s, ev = play(s, "roll 3")
    assert kinds(ev, "kt18_flesh_wound")[0]["op"] == "FIXA-1"
    assert decision(s) == ("B", "kt18_deny")


def test_perils_out_of_action_fails_and_blasts_every_model_within_3() -> None:
    """4.4 reading (b): Perils taking the psyker out of action (Injury roll 4+) makes the
    power fail and every model within 3" suffer D3 mortal wounds, friend and foe, each
    rolled separately by its controller (6.9 reading). FIXA-2 at (7, 5) is 2 - 0.984 =
    1.016" away and FIXB-2 at (5, 8.5) 2.516" away: both suffer; FIXB-3 at (9.5, 5) is
    3.516" away: spared."""
    at = {
        "FIXA-1": (5.0, 5.0),
        "FIXA-2": (7.0, 5.0),
        "FIXB-1": (25.0, 5.0),
        "FIXB-2": (5.0, 8.5),
        "FIXB-3": (9.5, 5.0),
    }
    s = psychic_position(at)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 6,6", "roll 6", "roll 4")
    assert kinds(ev, "kt18_power_failed") == [{"op": "FIXA-1", "power": "Psybolt", "why": "perils"}]
    assert kinds(ev, "kt18_perils_blast") == [{"op": "FIXA-1", "targets": ("FIXA-2", "FIXB-2")}]
    assert chance(s) == ("A", "kt18_mortal_count", 1)  # FIXA-2's D3, its controller's
    s, ev = play(s, "roll 1")  # D3 = 1: FIXA-2 (W1) to 0 wounds, Injury roll (A's)
    assert chance(s) == ("A", "kt18_injury", 1)
    s, ev = play(s, "roll 1")  # a flesh wound
    assert chance(s) == ("B", "kt18_mortal_count", 1)  # FIXB-2's D3, B's
    s, ev = play(s, "roll 2", "roll 6")  # 1 mortal wound, Injury 6: out of action
    assert kinds(ev, "kt18_out_of_action")[0]["op"] == "FIXB-2"
    assert decision(s) == ("B", "kt18_psyker")
    assert not any(e.kind in ("kt18_deny_test", "kt18_psybolt") for e in ev)


# -------------------------------------------------------------------------------------------
# 4.5 Deny the Witch
# -------------------------------------------------------------------------------------------


def test_deny_must_beat_the_psychic_test_total() -> None:
    """4.5: the Deny the Witch 2D6 must be strictly greater than the Psychic test's total:
    7 against 7 does not deny (Psybolt strikes), 8 against 7 denies (no effect)."""
    s = psychic_position(OPEN)
    s, _ = play(s, "Act FIXA-1 psybolt", "roll 4,3")
    assert choices(s) == ["Act FIXB-1 deny the witch", "Pass"]
    _, ev = play(s, "Act FIXB-1 deny the witch", "roll 5,2")
    assert kinds(ev, "kt18_deny_test")[0]["denied"] is False
    assert kinds(ev, "kt18_psybolt")[0]["target"] == "FIXB-2"
    _, ev = play(s, "Act FIXB-1 deny the witch", "roll 5,3")
    assert kinds(ev, "kt18_deny_test")[0] == {
        "op": "FIXB-1",
        "psyker": "FIXA-1",
        "dice": (5, 3),
        "total": 8,
        "needed": 7,
        "denied": True,
    }
    assert kinds(ev, "kt18_power_failed") == [{"op": "FIXA-1", "power": "Psybolt", "why": "denied"}]
    assert not any(e.kind == "kt18_psybolt" for e in ev)


def test_deny_only_by_a_psyker_within_24() -> None:
    """4.5: only an enemy psyker within 24" may deny: FIXB-1 at (29.5, 5) is 25.5" from
    FIXA-1 at (4, 5), less the bases 24.516": no kt18_deny decision, the power resolves."""
    at = {**OPEN, "FIXA-1": (4.0, 5.0), "FIXB-1": (29.5, 5.0)}
    s = psychic_position(at)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 4,3")
    assert any(e.kind == "kt18_power_manifested" for e in ev)
    assert kinds(ev, "kt18_psybolt")[0]["target"] == "FIXB-2"


def test_a_psyker_with_no_deny_left_is_not_offered() -> None:
    """4.5: Deny tests per battle round per psyker are on its datasheet: a psyker whose data
    gives 0 denies is never offered one."""
    team_b = fixture_team({"manifest": 1, "deny": 0})
    s = psychic_position(OPEN, team_b=team_b)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 4,3")
    assert any(e.kind == "kt18_power_manifested" for e in ev)


def test_a_psyker_with_no_counts_in_its_data_attempts_and_denies_once() -> None:
    """Decision (psychic part): a PSYKER whose data gives no counts attempts one power and
    takes one Deny the Witch test per phase (the digest leaves the numbers to the datasheet;
    one and one is the fixture's and the usual printed value)."""
    bare = fixture_team({})
    s = psychic_position(OPEN, team_a=bare, team_b=bare)
    s, _ = play(s, "Act FIXA-1 psybolt", "roll 4,3")
    assert decision(s) == ("B", "kt18_deny")


def test_deny_refused_names_the_reason() -> None:
    """4.5 and the house rule: an illegal choice names what is wrong; the state is unchanged."""
    s = psychic_position(OPEN)
    s, _ = play(s, "Act FIXA-1 psybolt", "roll 4,3")
    with pytest.raises(IllegalActionError, match="choose one of"):
        s.apply("Act FIXB-2 deny the witch")
    assert decision(s) == ("B", "kt18_deny")


# -------------------------------------------------------------------------------------------
# 4.3 Psybolt
# -------------------------------------------------------------------------------------------


def test_psybolt_strikes_the_closest_visible_enemy() -> None:
    """4.3: the closest enemy within 18" that the psyker can see: FIXB-2 at (12, 19) is
    closer (7") but behind the 5" wall (x 10-11), so FIXB-3 at (5, 9), 10 - 0.984 = 9.016"
    away and visible, is struck."""
    at = {
        "FIXA-1": (5.0, 19.0),
        "FIXA-2": (2.0, 12.0),
        "FIXB-1": (25.0, 12.0),
        "FIXB-2": (12.0, 19.0),
        "FIXB-3": (5.0, 9.0),
    }
    s = psychic_position(at)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 4,3", "Pass")
    assert kinds(ev, "kt18_psybolt") == [{"op": "FIXA-1", "target": "FIXB-3", "mortal": "1"}]
    assert kinds(ev, "kt18_mortal_wounds")[0]["op"] == "FIXB-3"


def test_psybolt_finds_no_target_beyond_18() -> None:
    """4.3: within 18" only: every enemy more than 18" away (FIXB-2 at 19.016"): the power
    is manifested with no target."""
    at = {"FIXA-1": (5.0, 5.0), "FIXB-1": (29.0, 5.0), "FIXB-2": (25.0, 5.0)}
    s = psychic_position(at, a=("Probe Psyker",), b=("Probe Psyker", "Probe Trooper"))
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 4,3", "Pass")
    assert kinds(ev, "kt18_psybolt") == [{"op": "FIXA-1", "target": "", "mortal": "1"}]
    assert not any(e.kind == "kt18_mortal_wounds" for e in ev)


def test_psybolt_of_ten_is_one_mortal_wound_eleven_is_d3() -> None:
    """4.3: 1 mortal wound, D3 instead when the Psychic test totalled 11 or more: 5 + 5 = 10
    gives 1 (no roll for the count), 6 + 5 = 11 asks for the D3 (the psyker's player's)."""
    s = psychic_position(OPEN)
    _, ev = play(s, "Act FIXA-1 psybolt", "roll 5,5", "Pass")
    assert kinds(ev, "kt18_psybolt")[0]["mortal"] == "1"
    assert kinds(ev, "kt18_mortal_wounds")[0]["count"] == 1
    eleven, ev = play(s, "Act FIXA-1 psybolt", "roll 6,5", "Pass")
    assert kinds(ev, "kt18_psybolt")[0]["mortal"] == "D3"
    assert chance(eleven) == ("A", "kt18_mortal_count", 1)
    eleven, ev = play(eleven, "roll 5")  # D3 of a 5 is 3
    assert kinds(ev, "kt18_mortal_wounds")[0]["count"] == 3


def test_psybolt_injury_roll_is_the_psykers_player() -> None:
    """6.9 reading: the attacking player rolls the Injury roll of mortal wounds from a
    psychic power: B's Trooper reduced to 0 by A's Psybolt, A rolls."""
    s = psychic_position(OPEN)
    s, _ = play(s, "Act FIXA-1 psybolt", "roll 4,3", "Pass")
    assert chance(s) == ("A", "kt18_injury", 1)


def test_psybolt_tie_for_closest_is_the_psykers_choice() -> None:
    """4.3 reading (b): equally closest enemies: the psyker's player chooses. FIXB-2 at
    (5, 12) and FIXB-3 at (12, 5) are both 7" (centres) from (5, 5)."""
    at = {**OPEN, "FIXB-2": (5.0, 12.0), "FIXB-3": (12.0, 5.0), "FIXA-2": (1.0, 1.0)}
    s = psychic_position(at)
    s, _ = play(s, "Act FIXA-1 psybolt", "roll 4,3", "Pass")
    assert decision(s) == ("A", "kt18_psybolt_target")
    assert choices(s) == ["Act FIXA-1 psybolt on FIXB-2", "Act FIXA-1 psybolt on FIXB-3"]
    s, ev = play(s, "Act FIXA-1 psybolt on FIXB-3")
    assert kinds(ev, "kt18_psybolt")[0]["target"] == "FIXB-3"


def test_psybolt_is_not_a_shooting_attack() -> None:
    """4.3: not a shooting attack: the closest enemy is struck even within 1" of the
    psyker's friend (FIXB-2 at (13, 5), FIXA-2 at (13, 6): 1 - 0.984" apart)."""
    at = {**OPEN, "FIXA-2": (13.0, 6.0)}
    s = psychic_position(at)
    s, ev = play(s, "Act FIXA-1 psybolt", "roll 4,3", "Pass")
    assert kinds(ev, "kt18_psybolt")[0]["target"] == "FIXB-2"


# -------------------------------------------------------------------------------------------
# 4.2 Powers known; powers the engine does not play
# -------------------------------------------------------------------------------------------


def test_a_power_the_engine_does_not_play_is_reported_not_offered() -> None:
    """4.2 and the house rule: a power other than Psybolt is reported at the start of the
    phase (``kt18_powers_not_played``, narrated) and never offered; choosing it is refused
    with the reason."""
    team_a = fixture_team({"manifest": 2, "deny": 1, "powers": ["Psybolt", "Might of Heroes"]})
    ra = Roster.from_entries(team_a, ["Probe Psyker", "Probe Trooper"])
    rb = Roster.from_entries(fixture_team(), ["Probe Psyker", "Probe Trooper", "Probe Trooper"])
    s, ev = start_position(
        KZ,
        ra,
        rb,
        options=GameOptions(ruleset="kt18"),
        phase="psychic",
        operatives={k: {"at": v} for k, v in OPEN.items()},
        ruleset=KT18,
    )
    reported = [e for e in ev if e.kind == "kt18_powers_not_played"]
    assert [dict(e.data) for e in reported] == [{"op": "FIXA-1", "powers": ("Might of Heroes",)}]
    assert "Might of Heroes" in narrate(reported[0])
    assert choices(s) == ["Act FIXA-1 psybolt", "Pass"]
    with pytest.raises(IllegalActionError, match="does not play"):
        s.apply("Act FIXA-1 might of heroes")


def test_the_same_power_is_never_attempted_twice_in_a_round() -> None:
    """4.2: not the same power twice in a battle round: a psyker allowed two attempts that
    knows only Psybolt attempts it once, then its player's turn ends."""
    team_a = fixture_team({"manifest": 2, "deny": 1})
    s = psychic_position(OPEN, team_a=team_a)
    s, _ = play(s, "Act FIXA-1 psybolt", "roll 2,1")
    assert decision(s) == ("B", "kt18_psyker")


# -------------------------------------------------------------------------------------------
# The whole phase in a battle; the psyker data
# -------------------------------------------------------------------------------------------


def test_the_psychic_phase_ends_into_the_shooting_phase() -> None:
    """2.1, 4.1: when both players have chosen or declined, the Shooting phase begins."""
    s = psychic_position(OPEN)
    s, ev = play(s, "Pass", "Pass")
    assert any(e.kind == "kt18_phase_started" and dict(e.data)["phase"] == "shooting" for e in ev)


def test_psyker_data_round_trips_and_is_checked() -> None:
    """1.6 and the team file format: the ``psyker`` object reads and writes back; counts
    out of 0-9, powers without counts, a twice-listed power and unknown fields are refused
    with the field named."""
    obj = {
        "ws": "3+",
        "bs": "3+",
        "s": 3,
        "t": 3,
        "a": "1",
        "ld": 9,
        "sv": "5+",
        "psyker": {"manifest": 2, "deny": 1, "powers": ["Psybolt", "Smite"]},
    }
    p = kt18_profile_from_dict(obj)
    assert p.psyker == (2, 1) and p.powers == ("Psybolt", "Smite")
    assert kt18_profile_to_dict(p) == obj
    assert kt18_profile_problem(p) is None
    with pytest.raises(ValueError, match=r"psyker.*unknown field"):
        kt18_profile_from_dict({**obj, "psyker": {"manifest": 1, "deny": 1, "cast": 1}})
    with pytest.raises(ValueError, match=r"psyker.*missing field 'deny'"):
        kt18_profile_from_dict({**obj, "psyker": {"manifest": 1}})
    base = Kt18Profile(3, 3, 3, 3, "1", 9, 5)
    assert "psyker.manifest" in str(
        kt18_profile_problem(Kt18Profile(3, 3, 3, 3, "1", 9, 5, psyker=(10, 1)))
    )
    assert "powers" in str(
        kt18_profile_problem(Kt18Profile(3, 3, 3, 3, "1", 9, 5, powers=("Smite",)))
    )
    assert "twice" in str(
        kt18_profile_problem(
            Kt18Profile(3, 3, 3, 3, "1", 9, 5, psyker=(1, 1), powers=("Smite", "smite"))
        )
    )
    assert kt18_profile_problem(base) is None


def test_fixture_psyker_has_its_counts() -> None:
    """The fixture's Probe Psyker attempts one power and denies one per phase and knows
    Psybolt (its ``psyker`` object), and the team file writes back as it reads."""
    team = fixture_team()
    card = next(o for o in team.operatives if o.name == "Probe Psyker").kt18
    assert card is not None and card.psyker == (1, 1) and card.powers == ("Psybolt",)
    again = team_from_dict(team_to_dict(team), "again.json")
    assert again == team


# -------------------------------------------------------------------------------------------
# Random Psychic phases keep the engine's invariants
# -------------------------------------------------------------------------------------------

CROWD = {
    "FIXA-1": (5.0, 5.0),
    "FIXA-2": (6.5, 6.0),
    "FIXA-3": (9.0, 5.0),
    "FIXB-1": (7.0, 7.5),
    "FIXB-2": (12.0, 5.0),
    "FIXB-3": (5.0, 9.0),
    "FIXB-4": (12.0, 5.0 + 2 * GAP),
}
"""Both players' Psyker and Adept crowded together (Perils' blast, ties, denies in reach)."""


@pytest.mark.parametrize("seed", range(6))
def test_random_psychic_phases_conform(seed: int) -> None:
    """The engine's invariants (tests/conformance_support.py) through a Psychic phase of
    random legal choices and seeded dice: legal actions non-empty, sorted and unique, their
    notation read back, every listed one accepted, a bogus input refused with the state
    unchanged, applying deterministic, wounds within bounds; the phase ends in the Shooting
    phase within a bounded number of steps (at most 2 psykers x 2 attempts, each a handful
    of nodes)."""
    s = psychic_position(
        CROWD,
        a=("Probe Psyker", "Probe Adept", "Probe Trooper"),
        b=("Probe Adept", "Probe Psyker", "Probe Trooper", "Probe Trooper"),
        initiative="AB"[seed % 2],
    )
    agents = {"A": RandomAgent(2 * seed + 1), "B": RandomAgent(2 * seed + 2)}
    dice = SeededDice(seed)
    for _ in range(200):
        if s.phase != "psychic" or s.is_terminal:
            break
        check_resources(s)
        before = s.hash()
        with pytest.raises(IllegalActionError):
            s.apply(bogus(s))
        assert s.hash() == before
        if isinstance(s.node, Chance):
            action = dice.roll(s)
        else:
            legal = list(s.legal_actions())
            assert legal and len(set(legal)) == len(legal)
            for act in legal:
                assert parse_action(format_action(act)) == act
                assert act in s.legal_actions()
            action = agents[decision(s)[0]].act(s)
        after, events = s.apply(action)
        again, events2 = s.apply(action)
        assert again.hash() == after.hash() and events2 == events
        s = after
    assert s.phase == "shooting"
