"""Utility Grenades and Explosive Grenades (``rules/KT24.md`` 7.2; EDGE_CASES 4), one test per
rule, in :mod:`engine.rules.equipment.grenades`.

Positions are LAB positions (``test_game_rules_common``: 32 mm bases, radius ``R`` = 0.63";
the lane at y 13-16 is open, the wall at x 10-11, y 17-21.5 is 5" tall). The selection is put
on the players directly (:func:`equip`), as the set-up steps that select equipment are not
part of these tests. Player A's roster has
two Sappers (RED-7, RED-8) carrying weapons with Piercing 2 and Piercing Crits 2 and its own Frag
Grenade.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pytest

from engine.agents import Agent, HeuristicAgent, RandomAgent
from engine.game import GameOptions, GameState, IllegalActionError
from engine.game.actions import format_action, parse_action
from engine.game.attacks import attack_profile
from engine.game.drivers import SeededDice
from engine.game.drivers import play as play_out
from engine.game.tokens import Token
from engine.game.universal import weapon_usable, weapons_of
from engine.game.work import Work
from engine.geometry import Placement, load_killzone
from engine.rules.equipment import grenades
from engine.rulesets import position
from engine.teams.io import team_from_dict
from engine.teams.model import Roster
from tests.test_game_rules_common import (
    BLU,
    LAB,
    ROSTER,
    R,
    _operative,
    _profile,
    _weapon,
    attack_texts,
    of_kind,
    play,
    team_data,
)

UTILITY = "Utility Grenades (smoke and stun)"
EXPLOSIVE = "Explosive Grenades (frag and krak)"


def _red() -> Any:
    data = team_data("red")
    data["operatives"].append(
        _operative(
            "Sapper",
            [
                _weapon("Pierce 2 Gun", "ranged", _profile(4, "3+", "3/4", "Piercing 2")),
                _weapon("Piercer", "ranged", _profile(4, "3+", "3/4", "Piercing Crits 2")),
                _weapon("Frag Grenade", "ranged", _profile(3, "5+", "1/1")),
            ],
        )
    )
    return team_from_dict(data, "red")


RED = _red()
RED_ROSTER = (*ROSTER, "Sapper", "Sapper")  # RED-7 and RED-8 are Sappers


def equip(s: GameState, a: Sequence[str] = (), b: Sequence[str] = ()) -> GameState:
    """``s`` with A's and B's equipment selections (every battle has the grenade module
    installed: it acts for a player only once it selected a grenade option)."""
    players = (
        attrs.evolve(s.players[0], equipment=tuple(a)),
        attrs.evolve(s.players[1], equipment=tuple(b)),
    )
    return attrs.evolve(s, players=players)


def gpos(
    operatives: Mapping[str, Mapping[str, Any]],
    a: Sequence[str] = (UTILITY, EXPLOSIVE),
    b: Sequence[str] = (),
    **kw: Any,
) -> GameState:
    """A LAB position (no CP) with grenades selected (A: both options by default)."""
    kz = kw.pop("kz", LAB)
    s = position(
        kz, Roster(RED, RED_ROSTER), Roster(BLU, ROSTER), operatives=operatives, cp=(0, 0), **kw
    )
    return equip(s, a, b)


def texts(s: GameState) -> list[str]:
    """The listed actions in the notation, each Shoot header (``Shoot KAS-1``) replaced by
    the complete shots its decision lists (:func:`tests.test_game_rules_common.attack_texts`)."""
    return attack_texts(s)


def names(s: GameState, op: str) -> list[str]:
    w = Work(s)
    return [n for n, _, _ in weapons_of(w, op, "ranged")]


def smoke(owner: str, x: float, y: float, z: float = 0.0, **counters: int) -> Token:
    return Token(
        "smoke", owner, f"{owner} smoke 9", x, y, z, counters=tuple(sorted(counters.items()))
    )


def with_tokens(s: GameState, *tokens: Token) -> GameState:
    return attrs.evolve(s, tokens=tuple(tokens))


OPEN = 14.5  # y of the open lane


# -------------------------------------------------------------------------------------------
# Explosive Grenades
# -------------------------------------------------------------------------------------------


def test_explosive_grenades_profiles() -> None:
    # rules/KT24.md 6 and 7.2: frag 4 / 4+ / 2/4 Range 6", Blast 2", Saturate; krak 4 / 4+ /
    # 4/5 Range 6", Piercing 1, Saturate (the digest follows the 2024 game data; the
    # KTDash-derived equipment data omits krak's Saturate, and the digest decides).
    frag, krak = grenades.FRAG.profiles[0], grenades.KRAK.profiles[0]
    assert (frag.attacks, frag.hit, frag.normal_damage, frag.critical_damage) == (4, 4, 2, 4)
    assert frag.rules.format() == 'Range 6", Blast 2", Saturate'
    assert (krak.attacks, krak.hit, krak.normal_damage, krak.critical_damage) == (4, 4, 4, 5)
    assert krak.rules.format() == 'Range 6", Piercing 1, Saturate'


def test_krak_grenade_saturate_denies_the_cover_save() -> None:
    """Krak grenade, Saturate (rules/KT24.md 6: "the defender cannot retain cover saves").

    BLU-1 at (16, 4) has an Engage order behind the LAB rubble (Light terrain 0.5" in front
    of it, more than 2" from RED-1 at (10.5, 4)), so it would be in cover. The krak grenade
    hits twice (4, 4, 1, 1 at Hit 4+). With Saturate no cover save is retained unrolled, so
    the defender rolls its 3 defence dice minus Piercing 1 = 2 dice (with a cover save it
    would roll only 1), and no ``saves_retained`` event has a cover save."""
    s = gpos({"RED-1": {"at": (10.5, 4)}, "BLU-1": {"at": (16, 4), "order": "engage"}})
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 krak grenade at BLU-1"], ["4,4,1,1"])
    assert s.node.request.kind == "defence"  # type: ignore[union-attr]
    assert s.node.request.dice == 2  # type: ignore[union-attr]
    s, ev = play(s, [], ["1,1"])
    assert all(e["cover"] == 0 for e in of_kind(ev, "saves_retained"))
    # Both normal hits land unsaved: 2 x 4 damage.
    assert sum(e["damage"] for e in of_kind(ev, "damage_inflicted")) == 8


def test_explosive_grenades_given_to_every_operative_of_the_player() -> None:
    # Each selection is a weapon "your operatives can use": every operative of A has the
    # grenades of A's split (2 frag: frag only); B selected nothing, so its operatives don't.
    s = gpos(
        {"RED-1": {"at": (5, OPEN)}, "RED-3": {"at": (5, 4)}, "BLU-1": {"at": (9, OPEN)}},
        a=["Explosive Grenades (2 frag)"],
    )
    for op in ("RED-1", "RED-3"):
        assert "frag grenade" in names(s, op)
        assert "krak grenade" not in names(s, op)
    assert not any("grenade" in n for n in names(s, "BLU-1"))
    assert not any("grenade" in n for n, _, _ in weapons_of(Work(s), "RED-1", "melee"))


def test_explosive_grenades_uses_shared_by_the_kill_team() -> None:
    # "your kill team can only use that weapon a total number of times ... equal to your
    # selection": 1 frag (frag and krak) is spent by RED-1's Shoot, after which no operative
    # of A has a frag grenade, while the krak grenade is still there.
    s = gpos({"RED-1": {"at": (5, OPEN)}, "RED-2": {"at": (5, 12)}, "BLU-1": {"at": (9, OPEN)}})
    s, ev = play(
        s, ["Activate RED-1 engage", "Shoot RED-1 frag grenade at BLU-1"], ["1,1,1,1", "1,1,1"]
    )
    assert of_kind(ev, "grenade_used")[0].as_dict() == {
        "kind": "grenade_used",
        "player": "A",
        "grenade": "frag",
        "left": 0,
    }
    assert dict(s.player("A").uses) == {"frag grenades used": 1}
    for op in ("RED-1", "RED-2"):
        assert "frag grenade" not in names(s, op)
        assert "krak grenade" in names(s, op)


def test_explosive_grenades_use_counted_when_the_shoot_ends() -> None:
    # The use is spent once the Shoot action is done, so the weapon is still the shooter's
    # while its attack dice are resolved (the sequence reads its profile at every step).
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (9, OPEN)}})
    s, _ = play(s, ["Activate RED-1 engage", "Shoot RED-1 krak grenade at BLU-1"], ["4,4,4,1"])
    assert s.node.request.kind == "defence"  # type: ignore[union-attr]
    assert dict(s.player("A").uses) == {}
    s, _ = play(s, [], ["1,1"])  # 3 defence dice - Piercing 1
    assert dict(s.player("A").uses) == {"krak grenades used": 1}


def test_explosive_grenades_refused_when_used_up() -> None:
    # A grenade whose uses are gone is refused, naming 7.2 (the would_refuse_weapon hook);
    # the weapon source no longer gives it, so a Shoot with it names no such weapon.
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (9, OPEN)}}, a=[EXPLOSIVE])
    s = attrs.evolve(
        s, players=(attrs.evolve(s.players[0], uses=(("frag grenades used", 1),)), s.players[1])
    )
    w = Work(s)
    why = weapon_usable(w, w.op("RED-1"), "frag grenade", grenades.FRAG.profiles[0])
    assert why is not None and "no frag grenade left" in why and "(7.2)" in why
    s = s.apply("Activate RED-1 engage")[0]
    assert "Shoot RED-1 frag grenade at BLU-1" not in texts(s)
    with pytest.raises(IllegalActionError, match="no ranged weapon 'frag grenade'"):
        s.apply("Shoot RED-1 frag grenade at BLU-1")


def test_explosive_grenades_own_datacard_weapon_kept() -> None:
    # The Sapper's datacard has its own Frag Grenade (3 / 5+ / 1/1): it keeps that one (no
    # second weapon of the same name) and using it spends none of the kill team's uses.
    s = gpos({"RED-7": {"at": (5, OPEN)}, "BLU-1": {"at": (9, OPEN)}})
    w = Work(s)
    frags = [p for n, _, p in weapons_of(w, "RED-7", "ranged") if n == "frag grenade"]
    assert [(p.attacks, p.hit) for p in frags] == [(3, 5)]
    s, ev = play(
        s, ["Activate RED-7 engage", "Shoot RED-7 frag grenade at BLU-1"], ["1,1,1", "1,1,1"]
    )
    assert not of_kind(ev, "grenade_used")
    assert dict(s.player("A").uses) == {}


def test_explosive_grenades_rule_given_own_weapon_kept() -> None:
    # A rule may give an operative a grenade as its own (the would_own_weapon hook): RED-1
    # then gets no equipment copy of the frag grenade (it has none on its datacard, so it
    # has no frag grenade here at all), its Shoot with a frag grenade is never refused for
    # lack of uses, and (the krak grenade not being its own) the krak is still the team's.
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (9, OPEN)}}, a=[EXPLOSIVE])
    s = s.with_hooks(
        lambda h: h.transform(
            "would_own_weapon",
            lambda _w, v, op, weapon: v or (op, weapon) == ("RED-1", "frag grenade"),
        )
    )
    assert "frag grenade" not in names(s, "RED-1") and "krak grenade" in names(s, "RED-1")
    assert "frag grenade" in names(s, "RED-2")
    s = attrs.evolve(
        s, players=(attrs.evolve(s.players[0], uses=(("frag grenades used", 1),)), s.players[1])
    )
    w = Work(s)
    assert weapon_usable(w, w.op("RED-1"), "frag grenade", grenades.FRAG.profiles[0]) is None
    assert weapon_usable(w, w.op("RED-2"), "frag grenade", grenades.FRAG.profiles[0])


# -------------------------------------------------------------------------------------------
# Utility Grenades: the actions' conditions
# -------------------------------------------------------------------------------------------


def test_utility_grenades_uses_from_the_split() -> None:
    # "2 smoke": Smoke Grenade twice in the battle, no Stun Grenade at all.
    s = gpos(
        {"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (9, OPEN)}}, a=["Utility Grenades (2 smoke)"]
    )
    s = s.apply("Activate RED-1 engage")[0]
    acts = texts(s)
    assert "Act RED-1 smoke grenade at 5,14.5" in acts
    assert not any("stun grenade" in a for a in acts)
    with pytest.raises(IllegalActionError, match="did not select Utility Grenades with stun"):
        s.apply("Act RED-1 stun grenade on BLU-1")
    s = attrs.evolve(
        s, players=(attrs.evolve(s.players[0], uses=(("smoke grenades used", 2),)), s.players[1])
    )
    assert not any("smoke grenade" in a for a in texts(s))
    with pytest.raises(IllegalActionError, match=r"performed Smoke Grenade 2 time\(s\)"):
        s.apply("Act RED-1 smoke grenade at 5,14.5")


def test_utility_grenades_not_within_enemy_control_range() -> None:
    # "cannot perform this action while within control range of an enemy operative": bases
    # 0.5" apart are within control range.
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (5 + 2 * R + 0.5, OPEN)}})
    s = s.apply("Activate RED-1 engage")[0]
    assert not any("grenade" in a and a.startswith("Act") for a in texts(s))
    for a in ("Act RED-1 smoke grenade at 5,14.5", "Act RED-1 stun grenade on BLU-1"):
        with pytest.raises(IllegalActionError, match="within control range of an enemy"):
            s.apply(a)


def test_utility_grenades_cost_1ap_once_per_activation() -> None:
    # Each is a 1AP action, so RED-1 (APL 2) has 1AP left after one; the same action cannot
    # be performed twice in an activation (1.5).
    s = gpos(
        {"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (12, OPEN)}}, a=["Utility Grenades (2 smoke)"]
    )
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 smoke grenade at 5,14.5"])
    assert s.operative("RED-1").ap == 1
    with pytest.raises(IllegalActionError, match="once per activation"):
        s.apply("Act RED-1 smoke grenade at 2,14.5")


def test_grenade_action_notation_round_trips() -> None:
    # Every listed grenade action parses back to itself (the notation's promise).
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (9, OPEN)}})
    s = s.apply("Activate RED-1 engage")[0]
    acts = [a for a in s.legal_actions() if a.verb == "Act"]
    assert acts
    for a in acts:
        assert parse_action(format_action(a)) == a


# -------------------------------------------------------------------------------------------
# Smoke Grenade: placement
# -------------------------------------------------------------------------------------------


def test_smoke_grenade_marker_within_6_inches() -> None:
    # Measured from RED-1's base (0.63") to the 20 mm marker (0.394"): a centre 7" away is
    # 5.976" away, one 7.1" away is 6.076" away (too far).
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (20, OPEN)}})
    s = s.apply("Activate RED-1 engage")[0]
    assert s.is_legal("Act RED-1 smoke grenade at 12,14.5")
    with pytest.raises(IllegalActionError, match='more than 6" from RED-1'):
        s.apply("Act RED-1 smoke grenade at 12.1,14.5")


def test_smoke_grenade_marker_visible_to_the_operative() -> None:
    # Behind the 5" wall (x 10-11) a spot 5.98" away is hidden from RED-1 at (5, 19).
    s = gpos({"RED-1": {"at": (5, 19)}, "BLU-1": {"at": (20, OPEN)}})
    s = s.apply("Activate RED-1 engage")[0]
    with pytest.raises(IllegalActionError, match="not visible to RED-1"):
        s.apply("Act RED-1 smoke grenade at 12,19")
    with pytest.raises(IllegalActionError, match="inside terrain"):
        s.apply("Act RED-1 smoke grenade at 10.5,19")
    assert s.is_legal("Act RED-1 smoke grenade at 9,19")


def test_smoke_grenade_on_vantage_of_a_visible_feature() -> None:
    # heights.toml: a 2.5" Vantage tower at x 3-7, y 2-6. From the floor at (9, 4) its top is
    # hidden (the line to (6, 4, 2.5) passes x 7 at about 2.1" high), but the tower's side is
    # visible: the marker may go on its Vantage terrain (3D distance about 3.2").
    kz = load_killzone("scenarios/killzones/heights.toml")
    s = gpos({"RED-1": {"at": (9, 4)}, "BLU-1": {"at": (27, 11)}}, kz=kz)
    s = s.apply("Activate RED-1 engage")[0]
    w = Work(s)
    me = w.place(w.op("RED-1"))
    assert not w.ctx.visible(w.kz, me, Placement(6, 4, 20.0, 2.5, 0.1))
    assert s.is_legal("Act RED-1 smoke grenade at 6,4,2.5")
    with pytest.raises(IllegalActionError, match=r'no Vantage terrain 1\.5" high'):
        s.apply("Act RED-1 smoke grenade at 6,4,1.5")


def test_smoke_grenade_listed_spots() -> None:
    # Its own spot, the other operatives' spots and 3" in eight directions, each allowed:
    # BLU-1 is 15" away (not listed), the spot 3" west is (2, 14.5).
    s = gpos(
        {"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (20, OPEN)}}, a=["Utility Grenades (2 smoke)"]
    )
    s = s.apply("Activate RED-1 engage")[0]
    spots = [a.point for a in s.legal_actions() if a.verb == "Act"]
    assert (5.0, 14.5, 0.0) in spots and (2.0, 14.5, 0.0) in spots and (8.0, 14.5, 0.0) in spots
    assert (20.0, 14.5, 0.0) not in spots
    assert len(spots) == 9


def test_smoke_grenade_places_a_token() -> None:
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (20, OPEN)}})
    s, ev = play(s, ["Activate RED-1 engage", "Act RED-1 smoke grenade at 8,14.5"])
    assert [(t.kind, t.owner, t.name, t.x, t.y) for t in s.tokens] == [
        ("smoke", "A", "A smoke 1", 8.0, 14.5)
    ]
    assert of_kind(ev, "smoke_placed")[0]["marker"] == "A smoke 1"
    assert dict(s.player("A").uses) == {"smoke grenades used": 1}


# -------------------------------------------------------------------------------------------
# Smoke: the area, obscured, Piercing
# -------------------------------------------------------------------------------------------


def test_smoke_area_wholly_within_1_inch_and_not_below() -> None:
    # Wholly within: centre distance + base radius <= 1" (0.37" + 0.63" = 1" is in, 0.38" is
    # not); from the marker's elevation upwards without limit, nothing below it.
    marker = smoke("A", 10, 10, 2.0)
    assert grenades.wholly_in_smoke(Placement(10.37, 10, 32.0, 2.0), marker)
    assert not grenades.wholly_in_smoke(Placement(10.38, 10, 32.0, 2.0), marker)
    assert grenades.wholly_in_smoke(Placement(10, 10, 32.0, 5.0), marker)
    assert not grenades.wholly_in_smoke(Placement(10, 10, 32.0, 0.0), marker)


def test_smoke_obscures_a_target_wholly_within_from_more_than_2_inches() -> None:
    # BLU-1 wholly in smoke, RED-1 7" - 2R = 5.74" away: obscured, so of 6,5,4,1 (3
    # successes, one a crit) one success is discarded and the crit is a normal (4.5).
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (12, OPEN)}})
    s = with_tokens(s, smoke("B", 12, OPEN))
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["6,5,4,1", "1,1,1"])
    got = of_kind(ev, "attack_retained")[0]
    assert (got["normals"], got["crits"], got["obscured"]) == (2, 0, True)


def test_smoke_does_not_obscure_within_2_inches() -> None:
    # RED-1 at 3.2" between centres: 3.2 - 2R = 1.94" <= 2": not obscured.
    s = gpos({"RED-1": {"at": (8.8, OPEN)}, "BLU-1": {"at": (12, OPEN)}})
    s = with_tokens(s, smoke("B", 12, OPEN))
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["6,5,4,1", "1,1,1"])
    got = of_kind(ev, "attack_retained")[0]
    assert (got["normals"], got["crits"], got["obscured"]) == (2, 1, False)


def test_smoke_target_not_wholly_within_is_not_obscured() -> None:
    # The marker 0.5" from BLU-1's centre: 0.5 + 0.63 > 1", the base is partly outside.
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (12, OPEN)}})
    s = with_tokens(s, smoke("B", 12.5, OPEN))
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["6,5,4,1", "1,1,1"])
    assert of_kind(ev, "attack_retained")[0]["obscured"] is False


def test_smoke_vice_versa_a_shooter_in_smoke_sees_targets_obscured() -> None:
    # "obscured to operatives more than 2" from it, and vice versa": operatives more than 2"
    # away are obscured to the operative in smoke, so RED-1 in smoke shooting out is obscured.
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (12, OPEN)}})
    s = with_tokens(s, smoke("A", 5, OPEN))
    s, ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1"], ["6,5,4,1", "1,1,1"])
    assert of_kind(ev, "attack_retained")[0]["obscured"] is True


def test_smoke_obscures_blast_secondaries_of_a_primary_in_smoke() -> None:
    # Blast: secondaries are obscured if the primary was (6); the frag grenade's primary
    # BLU-1 is wholly in smoke, so BLU-2 (1.5" from it, outside the smoke) is obscured too.
    s = gpos({"RED-1": {"at": (7, OPEN)}, "BLU-1": {"at": (12, OPEN)}, "BLU-2": {"at": (12, 16.5)}})
    s = with_tokens(s, smoke("B", 12, OPEN))
    s, ev = play(
        s,
        ["Activate RED-1 engage", "Shoot RED-1 frag grenade at BLU-1"],
        ["6,5,4,1", "1,1,1", "6,5,4,1", "1,1,1"],
    )
    assert [(e["target"], e["obscured"]) for e in of_kind(ev, "attack_retained")] == [
        ("BLU-1", True),
        ("BLU-2", True),
    ]


def test_smoke_reduces_piercing_2_to_piercing_1() -> None:
    # Shooting an enemy wholly in smoke from more than 2" away: Piercing 2 -> Piercing 1,
    # Piercing Crits 2 -> Piercing Crits 1; Piercing 1 stays (smoke never adds a die); within
    # 2" nothing changes.
    s = gpos({"RED-7": {"at": (5, OPEN)}, "BLU-1": {"at": (12, OPEN)}, "BLU-2": {"at": (12, 4)}})
    s = with_tokens(s, smoke("B", 12, OPEN))
    w = Work(s)
    o = w.op("RED-7")

    def rules(weapon: str, target: str) -> str:
        return attack_profile(w, o, weapon, "ranged", target=target).rules.format()

    assert rules("pierce 2 gun", "BLU-1") == "Piercing 1"
    assert rules("piercer", "BLU-1") == "Piercing Crits 1"
    assert rules("pierce 2 gun", "BLU-2") == "Piercing 2"  # not in smoke
    s2 = gpos({"RED-7": {"at": (10, OPEN)}, "BLU-1": {"at": (12, OPEN)}})
    s2 = with_tokens(s2, smoke("B", 12, OPEN))
    w2 = Work(s2)
    near = attack_profile(w2, w2.op("RED-7"), "pierce 2 gun", "ranged", target="BLU-1")
    assert near.rules.format() == "Piercing 2"  # 2 - 2R = 0.74" apart


def test_edge_case_4_smoke_and_piercing_crits_2() -> None:
    # EDGE_CASES 4 with a real smoke grenade: BLU-1 throws smoke on itself; RED-7's Piercer
    # (Piercing Crits 2) never fires against it (obscured: no crit survives, 3 defence dice
    # are rolled), and RED-8's Pierce 2 Gun has Piercing 1 (2 defence dice rolled, not 1).
    s = gpos(
        {"RED-7": {"at": (5, OPEN)}, "RED-8": {"at": (5, 16)}, "BLU-1": {"at": (12, OPEN)}},
        a=(),
        b=["Utility Grenades (2 smoke)"],
        turn="B",
    )
    s, ev = play(
        s,
        [
            "Activate BLU-1 engage",
            "Act BLU-1 smoke grenade at 12,14.5",
            "End activation",
            "Activate RED-7 engage",
            "Shoot RED-7 piercer at BLU-1",
        ],
        ["6,6,4,1", "4,2,1"],
    )
    assert [t.name for t in s.tokens] == ["B smoke 1"]
    got = of_kind(ev, "attack_retained")[0]
    assert (got["normals"], got["crits"], got["obscured"]) == (2, 0, True)
    assert of_kind(ev, "dice_rolled")[-1]["values"] == (4, 2, 1)  # 3 defence dice
    # B has no ready operative: it passes its counteraction, and A activates RED-8.
    s, ev = play(
        s,
        ["End activation", "Pass", "Activate RED-8 engage", "Shoot RED-8 pierce 2 gun at BLU-1"],
        ["5,4,2,1", "4,2"],
    )
    assert of_kind(ev, "dice_rolled")[-1]["values"] == (4, 2)  # 3 - Piercing 1


# -------------------------------------------------------------------------------------------
# Smoke: duration
# -------------------------------------------------------------------------------------------


def test_smoke_d3_is_half_a_d6_rounded_up() -> None:
    # The D3 is rolled as a D6: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3.
    assert [grenades.d3(v) for v in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def _tp1_smoke() -> GameState:
    """RED-1 throws smoke in TP1, BLU-1 activates; TP2 starts (A has initiative)."""
    s = gpos(
        {"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (20, OPEN)}},
        a=["Utility Grenades (2 smoke)"],
        options=GameOptions(initiative_cards=False),
    )
    s, _ = play(
        s,
        [
            "Activate RED-1 engage",
            "Act RED-1 smoke grenade at 5,14.5",
            "End activation",
            "Activate BLU-1 engage",
            "End activation",
        ],
        ["4,2"],
    )
    return s.apply("Initiative A")[0]


def test_smoke_duration_rolled_in_the_next_ready_step() -> None:
    # Placed in TP1, the marker stays for the rest of TP1 (BLU-1's activation did not
    # remove it); in TP2's Ready step (after the CP gain, before the Gambit step) its owner
    # rolls the D3: a 3 gives 2 activations.
    s = _tp1_smoke()
    assert s.tp == 2 and s.node.request.kind == "smoke"  # type: ignore[union-attr]
    assert s.node.request.player == "A"  # type: ignore[union-attr]
    s, ev = play(s, [], ["3"])
    assert of_kind(ev, "smoke_duration")[0]["activations"] == 2
    assert s.node.kind == "gambit"  # type: ignore[union-attr]
    assert s.tokens[0].counter("left") == 2


def test_smoke_removed_after_d3_activations() -> None:
    # D3 = 1 (a roll of 2): removed as soon as one activation (of either player) is done.
    s, _ = play(_tp1_smoke(), ["Pass", "Pass", "Activate RED-1 engage"], ["2"])
    assert len(s.tokens) == 1
    s, ev = play(s, ["End activation"])
    assert s.tokens == ()
    assert of_kind(ev, "smoke_removed")[0]["why"] == "its D3 activations are completed"


def test_smoke_removed_at_the_end_of_the_turning_point() -> None:
    # D3 = 3 (a roll of 6), but TP2 has only 2 activations (RED-1, BLU-1): the end of the
    # turning point comes first and removes the marker.
    s, _ = play(
        _tp1_smoke(),
        ["Pass", "Pass", "Activate RED-1 engage", "End activation", "Activate BLU-1 engage"],
        ["6"],
    )
    assert s.tokens[0].counter("left") == 2
    s, ev = play(s, ["End activation"], ["4,2"])
    assert of_kind(ev, "smoke_removed")[0]["why"] == "end of the turning point"
    assert s.tokens == ()


# -------------------------------------------------------------------------------------------
# Stun Grenade
# -------------------------------------------------------------------------------------------


def test_stun_grenade_enemy_visible_and_within_6_inches() -> None:
    # From (8.5, 19): BLU-1 at (9, 13), 6.02" - 2R = 4.76" away in the open, is listed;
    # BLU-2 4" - 2R = 2.74" away behind the 5" wall (x 10-11) and BLU-3 far away are not
    # (visible to and within 6" of the thrower).
    s = gpos(
        {
            "RED-1": {"at": (8.5, 19)},
            "BLU-1": {"at": (9, 13)},
            "BLU-2": {"at": (12.5, 19)},
            "BLU-3": {"at": (20, 4)},
        }
    )
    s = s.apply("Activate RED-1 engage")[0]
    stuns = [a for a in texts(s) if "stun grenade" in a]
    assert stuns == ["Act RED-1 stun grenade on BLU-1"]
    for t in ("BLU-2", "BLU-3"):
        with pytest.raises(IllegalActionError, match="not visible to and within 6"):
            s.apply(f"Act RED-1 stun grenade on {t}")
    with pytest.raises(IllegalActionError, match="friendly operative"):
        s.apply("Act RED-1 stun grenade on RED-1")


def test_stun_grenade_tests_the_target_and_every_operative_within_1_inch() -> None:
    # BLU-1 is selected; BLU-2 (0.7" from it) and RED-2 (0.9" from it, A's own) take a test
    # too, BLU-3 (2.83" - 2R = 1.57") does not. One chance node, ordered: BLU-1 first, then
    # roster order (RED-2, BLU-2). Rolls 3, 2, 6: a 3+ stuns BLU-1 and BLU-2, the 2 leaves RED-2.
    s = gpos(
        {
            "RED-1": {"at": (5, OPEN)},
            "BLU-1": {"at": (10, OPEN)},
            "BLU-2": {"at": (10 + 2 * R + 0.7, OPEN)},
            "RED-2": {"at": (10 - 2 * R - 0.9, OPEN)},
            "BLU-3": {"at": (12, OPEN + 2)},
        }
    )
    s, _ = play(s, ["Activate RED-1 engage", "Act RED-1 stun grenade on BLU-1"])
    req = s.node.request  # type: ignore[union-attr]
    assert (req.kind, req.player, req.dice, req.ordered) == ("stun", "A", 3, True)
    s, ev = play(s, [], ["3,2,6"])
    assert [(e["op"], e["roll"], e["stunned"]) for e in of_kind(ev, "stun_test")] == [
        ("BLU-1", 3, True),
        ("RED-2", 2, False),
        ("BLU-2", 6, True),
    ]
    assert sorted(e.op for e in s.effects if e.kind == "apl" and e.value == -1) == [
        "BLU-1",
        "BLU-2",
    ]


def test_stun_grenade_apl_minus_1_until_the_end_of_the_next_activation() -> None:
    # A stunned Trooper (APL 2) activates with 1AP; the effect ends with that activation, so
    # it would have 2AP again in the next turning point.
    s = gpos({"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (10, OPEN)}})
    s, _ = play(
        s,
        ["Activate RED-1 engage", "Act RED-1 stun grenade on BLU-1", "End activation"],
        ["5"],
    )
    s, _ = play(s, ["Activate BLU-1 engage"])
    assert s.operative("BLU-1").ap == 1
    s, _ = play(s, ["End activation"])
    assert not [e for e in s.effects if e.op == "BLU-1"]


# -------------------------------------------------------------------------------------------
# Agents
# -------------------------------------------------------------------------------------------


def _open_position() -> GameState:
    return gpos(
        {
            "RED-1": {"at": (5, OPEN)},
            "RED-2": {"at": (6, 7)},
            "RED-3": {"at": (8, 4)},
            "BLU-1": {"at": (10, OPEN)},
            "BLU-2": {"at": (12, 7)},
            "BLU-3": {"at": (12, 4)},
        },
        b=(UTILITY, "Explosive Grenades (2 krak)"),
    )


def test_random_agents_use_grenades() -> None:
    # Uniform over the listed actions, random agents reach every grenade action and weapon
    # from this close position over a few seeded battles, and the battles end (eight since
    # a move's destination is a decision of its own: the frag grenade first in seed 6).
    seen: set[str] = set()

    def note(before: GameState, a: Any, actor: str, after: GameState, ev: list[Any]) -> None:
        for e in ev:
            if e.kind == "grenade_used":
                seen.add(e["grenade"])

    for seed in range(8):
        agents: dict[str, Agent] = {"A": RandomAgent(seed), "B": RandomAgent(seed + 100)}
        end = play_out(_open_position(), agents, SeededDice(seed), on_step=note)
        assert end.is_terminal
    assert seen == {"frag", "krak", "smoke", "stun"}


def test_heuristic_agent_plays_with_grenades() -> None:
    # The heuristic agent need not use smoke or stun, but must play through them.
    agents: dict[str, Agent] = {"A": HeuristicAgent(), "B": RandomAgent(3)}
    end = play_out(_open_position(), agents, SeededDice(3))
    assert end.is_terminal


def test_heuristic_stun_rule_of_thumb() -> None:
    # Rule of thumb (engine.agents.heuristic): 4/6 x STUN_GAIN (0.1) for each enemy tested,
    # half for one already activated, minus the same for a friendly one. BLU-1 and BLU-2
    # ready, RED-2 ready: 4/6 x 0.1 x (1 + 1 - 1) = 0.0667; with BLU-2 expended 0.0333.
    from engine.agents.action_choices import stun_grenade_value as _stun_value

    ops: dict[str, dict[str, Any]] = {
        "RED-1": {"at": (5, OPEN)},
        "BLU-1": {"at": (10, OPEN)},
        "BLU-2": {"at": (10 + 2 * R + 0.7, OPEN)},
        "RED-2": {"at": (10 - 2 * R - 0.9, OPEN)},
    }
    assert _stun_value(Work(gpos(ops)), "A", "BLU-1") == pytest.approx(0.4 / 6)
    ops["BLU-2"] = {**ops["BLU-2"], "ready": False}
    assert _stun_value(Work(gpos(ops)), "A", "BLU-1") == pytest.approx(0.2 / 6)


def test_grenade_actions_offered_only_with_a_grenade_left() -> None:
    # The listing shortcut (a rule action's ``offered``): False exactly when the player has
    # no grenade of that kind left, where the options are empty anyway; "2 smoke" offers
    # Smoke Grenade until both are used and never Stun Grenade.
    s = gpos(
        {"RED-1": {"at": (5, OPEN)}, "BLU-1": {"at": (9, OPEN)}}, a=["Utility Grenades (2 smoke)"]
    )
    s = s.apply("Activate RED-1 engage")[0]
    w = Work(s)
    o = w.op("RED-1")
    assert grenades.SMOKE_GRENADE.offered(w, o) and grenades.SMOKE_GRENADE.options(
        w, o, "activation"
    )
    assert not grenades.STUN_GRENADE.offered(w, o)
    assert grenades.STUN_GRENADE.options(w, o, "activation") == []
    w.count("A", "smoke grenades used", 2)
    assert not grenades.SMOKE_GRENADE.offered(w, o)
    assert grenades.SMOKE_GRENADE.options(w, o, "activation") == []
