"""Killzones whose drop zones cannot take a roster are refused at set-up (issue: hardened
inputs, class 5; rules/KT24.md 1.2: each player sets up its operatives wholly within its drop
zone).

Before the check, a drop zone covered by terrain, too thin for a base, or too small for the
roster reached a set-up decision with no legal action. Now :func:`engine.rulesets.new_game` (and
``killteam play``/``batch`` before any battle) raise a :class:`SetupError` naming the drop
zone. Either player may set up in either drop zone (the roll-off decides), so each zone is
checked against both rosters. (The shipped layouts take every built-in roster: every
random-playout conformance game starts with new_game on them.)
"""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.errors import KillTeamError
from engine.game.deployment import _grid_block, drop_zone_problems, zone_spots
from engine.game.setup import SetupError
from engine.geometry import Killzone
from engine.rulesets import new_game
from engine.teams import load_builtin_team

ROOT = Path(__file__).resolve().parent.parent


def _ruins() -> dict[str, Any]:
    """The open ruins layout without its terrain (drop zones x 0-6 and 24-30 on a 30" x 22"
    board): movement graphs of a bare board build in milliseconds."""
    with (ROOT / "killzones" / "open_ruins.toml").open("rb") as fh:
        data = tomllib.load(fh)
    data["features"] = []
    return data


def _with_zone_a(ring: list[list[float]], name: str) -> dict[str, Any]:
    data = copy.deepcopy(_ruins())
    data["name"] = name
    data["drop_zones"]["A"] = ring
    return data


def _covered() -> dict[str, Any]:
    """Drop zone A (x 0-6) wholly under a Heavy wall 3" tall."""
    data = copy.deepcopy(_ruins())
    data["name"] = "covered"
    ring = [[0, 0], [6, 0], [6, 22], [0, 22], [0, 0]]
    data["features"] = [
        {"name": "bunker", "parts": [{"polygon": ring, "height": 3, "types": ["Heavy"]}]}
    ]
    return data


def _thin() -> dict[str, Any]:
    """Drop zone A only 0.5" deep: no base (at least 25mm, 0.98") fits wholly within it."""
    return _with_zone_a([[0, 0], [0.5, 0], [0.5, 22], [0, 22], [0, 0]], "thin")


def _small() -> dict[str, Any]:
    """Drop zone A 4" x 4": a 2" set-up grid starting 0.5" plus a base's radius in from the
    edges gives 2 x 2 = 4 points for 25-32mm bases, fewer than a ten-operative roster."""
    return _with_zone_a([[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], "small")


def _roster(team: str) -> Any:
    return load_builtin_team(team).default()


def test_setup_error_is_a_killteam_error() -> None:
    # The command line turns every KillTeamError into one line and exit 2.
    assert issubclass(SetupError, KillTeamError)


@pytest.mark.parametrize("layout", [_covered, _thin, _small], ids=["covered", "thin", "small"])
def test_unplayable_drop_zone_is_refused_at_set_up_naming_the_zone(layout: Any) -> None:
    kz = Killzone.from_dict(layout(), source="test")
    with pytest.raises(SetupError, match=r"drop zone A of killzone") as info:
        new_game(kz, _roster("kasrkin"), _roster("legionaries"))
    # Both rosters are named (either may set up in zone A), zone B is fine.
    assert "player A's 10 operatives" in str(info.value)
    assert "player B's 6 operatives" in str(info.value)
    assert "drop zone B" not in str(info.value)


def test_covered_and_thin_drop_zones_have_no_set_up_point() -> None:
    # Terrain covers the whole zone / no base fits inside it: zero points for any base.
    for layout in (_covered, _thin):
        kz = Killzone.from_dict(layout(), source="test")
        assert zone_spots(kz, "A", 25.0) == []


def test_small_drop_zone_fits_a_small_roster_but_not_a_large_one() -> None:
    """A 4" x 4" zone has 4 set-up points for 32mm bases (x and y in {1.13, 3.13}: 0.5" plus
    the 0.63" radius, then +2" while the base stays within 4"). Same-size bases on the same
    grid take one point each, so four 32mm operatives always fit and six do not."""
    kz = Killzone.from_dict(_small(), source="test")
    assert len(zone_spots(kz, "A", 32.0)) == 4
    assert drop_zone_problems(kz, {"A": [32.0] * 4, "B": [32.0] * 4}) == []
    problems = drop_zone_problems(kz, {"A": [32.0] * 6, "B": [32.0] * 4})
    assert len(problems) == 1 and "player A's 6 operatives need 6" in problems[0]


def test_grid_block_counts_points_a_base_can_take() -> None:
    """Bases under 2" (50.8mm) on the same 2" grid never reach a neighbouring point: one
    each. Two 60mm bases (radii 1.18") reach the four neighbours at 2" as well: five. A 60mm
    base on the 25mm grid (offset 0.69" in x and y, reach 1.67") covers the points at
    distances 0.98, 1.48 and 1.48: three."""
    assert _grid_block(32.0, 32.0) == 1
    assert _grid_block(50.0, 50.0) == 1
    assert _grid_block(60.0, 60.0) == 5
    assert _grid_block(25.0, 60.0) == 3


def test_play_with_an_unplayable_drop_zone_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command's main (what the console script calls) returns the exit status.
    path = tmp_path / "small.json"
    path.write_text(json.dumps(_small()), encoding="utf-8")
    record = tmp_path / "game.jsonl"
    assert main(["play", "--killzone", str(path), "--record", str(record)]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "drop zone A" in lines[0], err
    assert "Traceback" not in err and out == ""
    assert not record.exists()


def test_opponents_count_when_the_drop_zones_touch() -> None:
    """Drop zones A (x 0-4) and B (x 4-8) share an edge, so an opponent's base set up at B's
    edge may cover points of A on A's grid whatever the offset of the two grids: each 32mm
    opponent counts for at most (floor(2 x 1.26" / 2") + 1)^2 = 4 points of A (the grid
    points within the square around its reach of 0.63" + 0.63"). A zone 4" x 22" has 2 x 11
    = 22 points for 32mm bases: enough for 6 operatives alone (6), not with 6 opponents
    beside it (6 + 6 x 4 = 30)."""
    data = _ruins()
    data["drop_zones"] = {
        "A": [[0, 0], [4, 0], [4, 22], [0, 22], [0, 0]],
        "B": [[4, 0], [8, 0], [8, 22], [4, 22], [4, 0]],
    }
    kz = Killzone.from_dict(data, source="test")
    assert len(zone_spots(kz, "A", 32.0)) == 22
    problems = drop_zone_problems(kz, {"A": [32.0] * 6, "B": [32.0] * 6})
    assert any("drop zone A" in p and "need 30" in p for p in problems), problems
    far = _ruins()  # the shipped drop zones, 18" apart: opponents never count
    kz_far = Killzone.from_dict(far, source="test")
    assert drop_zone_problems(kz_far, {"A": [32.0] * 6, "B": [32.0] * 6}) == []


@pytest.mark.parametrize("layout", ["open_ruins", "close_quarters"])
def test_set_up_points_with_equipment_terrain_equal_a_full_scan(layout: str) -> None:
    """Equipment terrain set up before the operatives (7.2) takes floor from the drop zone
    (1.2: a base cannot stand on terrain). The set-up points of a killzone with added terrain
    are computed from the layout's points, checking again only those near an added part; they
    must equal a point-by-point scan of the new killzone for every base size, with barricades
    in and next to both drop zones, at both angles, including ones that remove points."""
    from engine.game.deployment import _scan_spots
    from engine.geometry import load_killzone
    from engine.rules.equipment.shapes import equipment_feature

    kz = load_killzone(layout)
    removed = 0
    for k, (x, y) in enumerate([(3.0, 5.0), (2.2, 11.0), (27.0, 17.5), (6.5, 3.0)]):
        for angle in (0.0, 90.0):
            kinds = ("light_barricade", "heavy_barricade")
            feats = [
                equipment_feature(kinds[k % 2], x, y, angle, name="b1"),
                equipment_feature("light_barricade", kz.width - x, kz.depth - y, angle, "b2"),
            ]
            variant = kz.with_terrain(feats)
            for zone in sorted(kz.drop_zones):
                for base in (25.0, 32.0, 40.0, 50.0):
                    got = zone_spots(variant, zone, base)
                    assert got == _scan_spots(variant, zone, base), (x, y, angle, zone, base)
                    removed += len(zone_spots(kz, zone, base)) - len(got)
    assert removed > 0  # the barricades did take set-up points away
