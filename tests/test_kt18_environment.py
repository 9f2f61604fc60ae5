"""The KT18 Sector Imperialis killzone rules and environment table (``rules/KT18.md`` 11.2,
11.3): how a layout asks for them and the table's reading."""

from __future__ import annotations

import pytest

from engine.geometry.model import Killzone, KillzoneError
from engine.rules.kt18.environment import ENVIRONMENTS, environment_step

_BASE = {
    "name": "kt18_si",
    "features": [],
    "drop_zones": {
        "A": [[0, 0], [30, 0], [30, 11], [0, 11], [0, 0]],
        "B": [[0, 11], [30, 11], [30, 22], [0, 22], [0, 11]],
    },
}


def test_sector_imperialis_is_a_killzone_field_with_manholes() -> None:
    """11.2: a layout names its killzone rules (``kt18_killzone``) and the Tunnels manholes
    (11.3); both survive the layout's round trip; a layout without them has neither (KT24 and
    KT21 layouts are unchanged)."""
    kz = Killzone.from_dict(
        {**_BASE, "kt18_killzone": "sector_imperialis", "kt18_manholes": [[5, 5], [25, 17]]}
    )
    assert kz.kt18_killzone == "sector_imperialis"
    assert kz.kt18_manholes == ((5.0, 5.0), (25.0, 17.0))
    again = Killzone.from_dict(kz.to_dict())
    assert again.kt18_killzone == "sector_imperialis" and again.kt18_manholes == kz.kt18_manholes
    plain = Killzone.from_dict(_BASE)
    assert plain.kt18_killzone == "" and plain.kt18_manholes == ()
    assert "kt18_killzone" not in plain.to_dict()


def test_an_unknown_killzone_rules_name_or_an_off_board_manhole_is_refused() -> None:
    """Bad input names the field: only the Sector Imperialis killzone is known (11.2), and a
    manhole lies on the 30" x 22" board."""
    with pytest.raises(KillzoneError, match="kt18_killzone"):
        Killzone.from_dict({**_BASE, "kt18_killzone": "sector_mechanicus"})
    with pytest.raises(KillzoneError, match="manhole 0"):
        Killzone.from_dict({**_BASE, "kt18_manholes": [[31, 5]]})


def test_the_environment_table_has_six_results_in_the_seed_order() -> None:
    """11.3: D6 1 Deserted Habs, 2 Abandoned Munitions, 3 Smoke in the Air, 4 Traps,
    5 Tunnels, 6 Hidden Cache."""
    assert [ENVIRONMENTS[k] for k in range(1, 7)] == [
        "Deserted Habs",
        "Abandoned Munitions",
        "Smoke in the Air",
        "Traps",
        "Tunnels",
        "Hidden Cache",
    ]


def test_no_environment_roll_without_the_sector_imperialis_killzone() -> None:
    """11.2: the roll belongs to the Sector Imperialis killzone only: on another killzone the
    set-up step adds nothing."""

    from types import SimpleNamespace

    w = SimpleNamespace(kz=Killzone.from_dict(_BASE), effects=[])
    assert environment_step(w) is None  # type: ignore[arg-type]
