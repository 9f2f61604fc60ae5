"""Rules printed with the same text by teams of another keyword (issue 28): Transhuman
Physiology and Purity Seals (the Angels of Death's; Deathwatch, Phobos Strike Team print
them) and Take Cover (the Pathfinders'; Death Korps print it) are played for a team of
another keyword through the implementation's ``for_keyword`` installer.

Each test imports a real killteamjson team of the data samples under another name and with
its keyword replaced everywhere (as the Astartes keyword test of ``tests/test_shared_rules``
does), so none of its rule ids is implemented and only the shared implementation can play
the rule. Skipped when the data samples are absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

import engine.rulesets  # noqa: F401  (adds the built-in teams' rule loaders)
from engine.game import GameState
from engine.game.scenario import run
from engine.game.state import Decision
from engine.rules import registry
from engine.rules.registry import installer_of, team_rules
from engine.rulesets import position
from engine.teams import load_builtin_team
from engine.teams.importers.killteamjson import import_killteamjson
from engine.teams.model import Roster, Team
from engine.teams.rule_text import team_keyword
from tests.test_game_rules_common import BLU, LAB, roster
from tests.test_team_pathfinders_ploys import decline, of_kind, pass_ploy_windows, ploys_used

_HERE = Path(__file__).resolve()
SAMPLES = next(
    (
        p / "shared" / "data_samples" / "killteamjson"
        for p in (_HERE.parents[2], _HERE.parents[3])
        if (p / "shared" / "data_samples" / "killteamjson").is_dir()
    ),
    _HERE.parents[2] / "shared" / "data_samples" / "killteamjson",
)
pytestmark = pytest.mark.skipif(not SAMPLES.is_dir(), reason="data_samples absent")

TRANSHUMAN = "angels_of_death/firefight_ploy/transhuman_physiology"
PURITY_SEALS = "angels_of_death/equipment/purity_seals"
TAKE_COVER = "pathfinders/strategy_ploy/take_cover"
KAS = load_builtin_team("kasrkin").default()


def _copy(tmp_path: Path, file: str, name: str, old: str, new: str) -> Team:
    """The killteamjson team ``file`` renamed ``name`` with the keyword ``old`` replaced by
    ``new`` everywhere, imported; any 1-14 operatives, no leader needed (LAB positions)."""
    text = (SAMPLES / "en" / "teams" / file).read_text(encoding="utf-8").replace(old, new)
    data = json.loads(text)
    data["killteamName"] = name
    path = tmp_path / "COPY.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    (team,) = import_killteamjson(path).teams
    assert team_keyword(team) == new
    return attrs.evolve(team, selection=attrs.evolve(team.selection, size=(1, 14), leader=()))


def _shared(team: Team, impl_id: str) -> registry.Installer:
    """The rule ``impl_id`` of ``team`` is played by that implementation, through the
    installer built for the team's keyword (not the built-in team's own)."""
    ref = impl_id.split("/", 1)[1]
    (decl,) = [d for d in team_rules(team) if d.id.split("/", 1)[1] == ref]
    assert (decl.played_by, decl.shared, decl.reason) == (impl_id, True, "")
    impl = registry.implementation(impl_id)
    assert impl is not None and impl.for_keyword is not None
    made = installer_of(decl, team_keyword(team))
    assert made is not None and made is not impl.installer
    return made


def _texts(s: GameState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def _damage_to(events: list[object], op: str) -> int:
    return sum(
        e["damage"]  # type: ignore[index]
        for e in events
        if getattr(e, "kind", "") == "damage_inflicted" and e["op"] == op  # type: ignore[index]
    )


def _deathwatch(tmp_path: Path) -> Roster:
    team = _copy(tmp_path, "IMP-AOD.json", "Deathwatch", "ANGEL OF DEATH", "DEATHWATCH")
    return Roster.from_entries(team, ["Assault Intercessor Warrior"])


# KAS-1 (plasma pistol 4/3+, Piercing 1) and DEA-1 (Save 3+) 6" apart in LAB's open lane.
FACING = {"KAS-1": {"at": (5, 14.5)}, "DEA-1": {"at": (11, 14.5)}}


def test_transhuman_physiology_for_deathwatch_operatives(tmp_path: Path) -> None:
    """KAS-1 shoots DEA-1 (a DEATHWATCH operative): 6,6,1,1 are two critical hits; the
    plasma pistol's Piercing 1 leaves two defence dice, 4 (a normal save at Save 3+) and 1.
    The printed text ("a friendly DEATHWATCH operative" being shot, a normal success) holds,
    so the ploy is offered; as a critical save the 4 blocks a critical hit (5 damage), which
    a normal save cannot, so DEA-1 takes less damage than when B declines."""
    dw = _deathwatch(tmp_path)
    _shared(dw.team, TRANSHUMAN)
    s = position(LAB, KAS, dw, operatives=FACING, cp=(2, 2))
    s, _ = run(s, ["Activate KAS-1 engage", "Shoot KAS-1 plasma pistol (standard) at DEA-1"])
    s, _ = run(s, [], dice=["6,6,1,1"])
    if isinstance(s.node, Decision) and s.node.kind == "dice_ploy":
        s, _ = s.apply("Decline")
    s, _ = run(s, [], dice=["4,1"])
    assert s.node == Decision("B", "dice_ploy")
    assert "Ploy transhuman physiology" in _texts(s)
    _, plain = run(s, ["Decline"])
    after, used = run(s, ["Ploy transhuman physiology"])
    assert after.player("B").cp == 1
    while isinstance(after.node, Decision) and after.node.kind == "dice_ploy":
        after, more = run(after, ["Decline"])
        used += more
    assert 0 < _damage_to(used, "DEA-1") < _damage_to(plain, "DEA-1")


def test_purity_seals_for_deathwatch_operatives(tmp_path: Path) -> None:
    """DEA-1 (a friendly DEATHWATCH operative, heavy bolt pistol Hit 3+) shoots KAS-1 and
    rolls 5,2,1,1: three fails (the text's "two or more fails"), so with Purity Seals
    selected ``Use purity seals`` is offered; it discards a 1 and retains the 2 as a normal
    success: 2 normal successes (the 5 and the 2), no critical."""
    dw = _deathwatch(tmp_path)
    _shared(dw.team, PURITY_SEALS)
    ops = {"KAS-1": {"at": (5, 14.5)}, "DEA-1": {"at": (11, 14.5)}}
    s = position(
        LAB, KAS, dw, operatives=ops, turn="B", cp=(0, 0), equipment={"B": ["Purity Seals"]}
    )
    s = pass_ploy_windows(run(s, ["Activate DEA-1 engage"])[0])
    s, _ = run(s, ["Shoot DEA-1 heavy bolt pistol at KAS-1"], dice=["5,2,1,1"])
    assert s.node == Decision("B", "dice_ploy")
    assert "Use purity seals" in _texts(s)
    s, ev = s.apply("Use purity seals")
    got = [e for e in ev if e.kind == "attack_retained"]
    assert (got[0]["normals"], got[0]["crits"]) == (2, 0)


def _death_korps(tmp_path: Path) -> Team:
    return _copy(tmp_path, "TAU-PF.json", "Death Korps", "PATHFINDER", "DEATH KORPS")


def _korps_shot(tmp_path: Path, ploy: bool) -> list[object]:
    """TP2: DEA-1 (a DEATH KORPS operative, Save 5+) at (16, 4) behind LAB's rubble, in
    cover from BLU-1 at (5, 4); A uses Take Cover in the Gambit step when ``ploy``; BLU-1
    shoots DEA-1 (hits 6,5,4,1), A keeps a normal cover save, defence dice 4,4."""
    team = _death_korps(tmp_path)
    pf = Roster.from_entries(team, [team.operatives[1].name])
    ops = {
        "DEA-1": {"at": (16, 4), "ready": False},
        "BLU-1": {"at": (5, 4), "ready": False},
        "BLU-2": {"at": (5, 6), "ready": False},
    }
    s = pass_ploy_windows(
        position(LAB, pf, roster(BLU, ("Trooper", "Trooper")), operatives=ops, cp=(3, 3))
    )
    s, _ = run(s, [], dice=["3,4"])
    s, _ = s.apply("Initiative B")
    s, _ = s.apply("Pass")
    assert s.node == Decision("A", "gambit")
    assert "Ploy take cover" in _texts(s)
    if ploy:
        s, ev = s.apply("Ploy take cover")
        assert ploys_used(ev) == [("A", "Take Cover")]
    while isinstance(s.node, Decision) and s.node.kind in ("gambit", "ploy"):
        s, _ = s.apply("Pass")
    s, _ = run(s, ["Activate BLU-1 engage", "Shoot BLU-1 gun at DEA-1"])
    s = decline(s)
    s, _ = run(s, [], dice=["6,5,4,1"])
    s = decline(s)
    s, ev = run(s, [], dice=["4,4"])
    decline(s, events=ev)
    return list(ev)


def test_take_cover_for_death_korps_operatives(tmp_path: Path) -> None:
    """The shot DEATH KORPS operative is in cover and can retain a cover save (the gun has
    no Saturate), so Take Cover improves its Save 5+ to 4+: the two 4s are saves, three
    normal saves with the cover save; without the ploy the 4s fail at 5+ (one normal save,
    the cover save)."""
    team = _death_korps(tmp_path)
    assert team.operatives[1].save == 5 and "DEATH KORPS" in team.operatives[1].keywords
    _shared(team, TAKE_COVER)
    assert of_kind(_korps_shot(tmp_path, True), "saves_retained")[-1]["normals"] == 3  # type: ignore[arg-type]
    assert of_kind(_korps_shot(tmp_path, False), "saves_retained")[-1]["normals"] == 1  # type: ignore[arg-type]
