"""The killzone model and its layout files (rules/KT24.md 4.6, 4.8, 9; decision 11)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.geometry import Killzone, KillzoneError, Placement, TerrainType, load_killzone
from engine.geometry.model import shipped_killzones


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


GOOD: dict[str, Any] = {
    "name": "test",
    "version": "2",
    "features": [
        {
            "name": "north ruin",
            "parts": [{"polygon": rect(10, 5, 11, 15), "height": 3, "types": ["Heavy"]}],
        },
        {
            "name": "tower",
            "parts": [{"polygon": rect(20, 5, 24, 9), "height": 3, "types": ["Vantage"]}],
        },
    ],
    "drop_zones": {"A": rect(0, 0, 3, 22), "B": rect(27, 0, 30, 22)},
    "territories": {"A": rect(0, 0, 15, 22), "B": rect(15, 0, 30, 22)},
    "objectives": [{"name": "centre", "position": [15, 11]}],
}


def bad(**change: Any) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data.update(change)
    return data


def with_part(**part: Any) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data["features"][0]["parts"][0].update(part)
    return data


def error(data: dict[str, Any]) -> str:
    with pytest.raises(KillzoneError) as info:
        Killzone.from_dict(data, source="layouts/test.toml")
    return str(info.value)


# -------------------------------------------------------------------------------------------
# Shipped layouts
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["open_ruins", "close_quarters"])
def test_shipped_layout_loads_with_drop_zones_and_three_objectives(name: str) -> None:
    kz = load_killzone(name)
    assert (kz.width, kz.depth) == (30.0, 22.0)
    assert set(kz.drop_zones) == {"A", "B"}
    assert len(kz.objectives) == 3
    assert {"open_ruins", "close_quarters"} <= set(shipped_killzones())


def test_open_ruins_has_heavy_light_and_vantage_terrain() -> None:
    kz = load_killzone("open_ruins")
    for kind in (TerrainType.HEAVY, TerrainType.LIGHT, TerrainType.VANTAGE):
        assert kz.flags[kind].any(), kind


def test_close_quarters_hatchways_open_and_close() -> None:
    kz = load_killzone("close_quarters")
    assert len(kz.hatchways) >= 4 and not kz.open_hatchways
    hatch = sorted(kz.hatchways)[0]
    index = next(p.index for p in kz.parts if kz.features[p.feature] == hatch)
    assert TerrainType.WALL in kz.part_types(index)
    opened = kz.with_open_hatchways([hatch])
    assert TerrainType.ACCESSIBLE in opened.part_types(index)
    assert TerrainType.WALL not in opened.part_types(index)
    assert kz.part_types(index) != opened.part_types(index)  # the original is unchanged


def test_unknown_hatchway_name_is_an_error() -> None:
    with pytest.raises(KillzoneError, match="no hatchway named 'nope'"):
        load_killzone("close_quarters").with_open_hatchways(["nope"])


def test_layout_loads_from_any_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_killzone("open_ruins").name == "open_ruins"


# -------------------------------------------------------------------------------------------
# from_dict and files
# -------------------------------------------------------------------------------------------


def test_from_dict_builds_features_parts_and_areas() -> None:
    kz = Killzone.from_dict(GOOD)
    assert kz.features == ("north ruin", "tower") and kz.version == "2"
    assert kz.parts[0].height == 3 and kz.parts[0].types == frozenset({TerrainType.HEAVY})
    assert kz.territories["A"].area == pytest.approx(15 * 22)
    assert kz.objective("centre").position == (15, 11)


def test_toml_and_json_files_with_the_same_content_load_equal(tmp_path: Path) -> None:
    json_path = tmp_path / "k.json"
    json_path.write_text(json.dumps(GOOD))
    toml_path = tmp_path / "k.toml"
    lines = ['name = "test"', 'version = "2"']
    for feat in GOOD["features"]:
        lines.append("[[features]]")
        lines.append(f'name = "{feat["name"]}"')
        for part in feat["parts"]:
            lines.append("[[features.parts]]")
            lines.append(f"polygon = {json.dumps(part['polygon'])}")
            lines.append(f"height = {part['height']}")
            lines.append(f"types = {json.dumps(part['types'])}")
    lines.append("[[objectives]]")
    lines.append('name = "centre"')
    lines.append("position = [15, 11]")
    lines.append("[drop_zones]")
    for k, v in GOOD["drop_zones"].items():
        lines.append(f"{k} = {json.dumps(v)}")
    lines.append("[territories]")
    for k, v in GOOD["territories"].items():
        lines.append(f"{k} = {json.dumps(v)}")
    toml_path.write_text("\n".join(lines) + "\n")
    a, b = load_killzone(json_path), load_killzone(toml_path)
    assert a.features == b.features and a.objectives == b.objectives
    for p, q in zip(a.parts, b.parts, strict=True):
        assert p.polygon.equals(q.polygon) and p.height == q.height and p.types == q.types


def test_placement_is_quantised_to_a_thousandth_of_an_inch() -> None:
    p = Placement(1.23456, 2.0004)
    assert (p.x, p.y) == (1.235, 2.0)
    assert hash(Placement(5.0001, 5)) == hash(Placement(5.0, 5))


def test_standing_part_is_the_vantage_under_an_elevated_operative() -> None:
    kz = Killzone.from_dict(GOOD)
    assert kz.standing_part(Placement(22, 7, elevation=3)) == 1
    assert kz.standing_part(Placement(22, 7)) is None
    assert kz.standing_part(Placement(5, 7, elevation=3)) is None


# -------------------------------------------------------------------------------------------
# Bad layouts: each error names the file, the feature and the field
# -------------------------------------------------------------------------------------------


def test_polygon_that_does_not_close_names_file_feature_and_field() -> None:
    msg = error(with_part(polygon=rect(10, 5, 11, 15)[:-1]))
    assert msg.startswith(
        "layouts/test.toml: feature 'north ruin' part 0: field 'polygon' does not close"
    )


def test_negative_height_is_an_error() -> None:
    msg = error(with_part(height=-1))
    assert "feature 'north ruin' part 0: field 'height' must be at least 0" in msg


def test_non_numeric_height_is_an_error() -> None:
    assert "field 'height' must be a number, not 'tall'" in error(with_part(height="tall"))


def test_unknown_terrain_type_is_an_error() -> None:
    msg = error(with_part(types=["Heavy", "Spiky"]))
    assert "feature 'north ruin' part 0: field 'types': unknown terrain type 'Spiky'" in msg


def test_unknown_field_is_an_error() -> None:
    assert "feature 'north ruin' part 0: unknown field 'colour'" in error(with_part(colour="red"))
    assert "layout: unknown field 'author'" in error(bad(author="me"))


def test_self_intersecting_polygon_is_an_error() -> None:
    bow = [[10, 5], [11, 15], [11, 5], [10, 15], [10, 5]]
    assert "field 'polygon' is not a valid polygon (Self-intersection" in error(
        with_part(polygon=bow)
    )


def test_part_off_the_board_is_an_error() -> None:
    assert "field 'polygon' is not wholly on the board" in error(
        with_part(polygon=rect(28, 5, 31, 6))
    )


def test_marker_off_the_board_is_an_error() -> None:
    msg = error(bad(objectives=[{"name": "edge", "position": [0.2, 11]}]))
    assert "objective 'edge': field 'position' [0.2, 11] puts the marker off the board" in msg


def test_marker_inside_heavy_terrain_is_an_error() -> None:
    msg = error(bad(objectives=[{"name": "buried", "position": [10.5, 10]}]))
    assert "objective 'buried'" in msg and "inside Heavy terrain (feature 'north ruin')" in msg


def test_missing_drop_zone_is_an_error() -> None:
    msg = error(bad(drop_zones={"A": rect(0, 0, 3, 22)}))
    assert "field 'drop_zones' must define exactly players 'A' and 'B'" in msg


def test_bad_toml_syntax_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\n[[features]\n')
    with pytest.raises(KillzoneError, match=r"broken\.toml: not valid TOML: .*line 2"):
        load_killzone(path)


def test_missing_file_lists_the_shipped_layouts() -> None:
    with pytest.raises(KillzoneError, match=r"no such killzone file .*open_ruins"):
        load_killzone("no_such_layout")


def test_hatchway_flags_must_be_booleans() -> None:
    data = copy.deepcopy(GOOD)
    data["features"][0]["hatchway"] = "no"
    assert "feature 'north ruin': field 'hatchway' must be true or false, not 'no'" in error(data)


def test_open_is_only_for_hatchways() -> None:
    data = copy.deepcopy(GOOD)
    data["features"][0]["open"] = True
    assert "feature 'north ruin': field 'open' is only for hatchway features" in error(data)


def test_duplicate_objective_name_is_an_error() -> None:
    twice = [{"name": "centre", "position": [15, 11]}, {"name": "centre", "position": [15, 18]}]
    assert "objectives[0] and objectives[1] are both named 'centre'" in error(bad(objectives=twice))
