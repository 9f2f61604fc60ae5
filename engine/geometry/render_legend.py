"""The legend and captions of killzone pictures (:mod:`engine.geometry.render`): the colour
of each player, the style of each terrain category (``rules/KT24.md`` 4.6, 7.2, 9.3) and
which category a part is in, the legend's entries, and the caption of a sight line
(:func:`sight_caption`, 4.3-4.5).
"""

from __future__ import annotations

from collections.abc import Mapping

from matplotlib.artist import Artist
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from engine.geometry.model import (
    Killzone,
    Placement,
    TerrainType,
)

__all__ = ["PLAYER_COLOURS", "TERRAIN_STYLES", "sight_caption", "terrain_category"]

#: Colour per player (drop zone, territory outline, operatives).
PLAYER_COLOURS: Mapping[str, str] = {"A": "#1f63b5", "B": "#c0392b"}

#: Legend label -> (fill colour, hatch pattern) for each terrain category, in legend order.
TERRAIN_STYLES: Mapping[str, tuple[str, str]] = {
    "Wall": ("#34343f", ""),
    "Hatchway (closed)": ("#3d7ea6", "xxx"),
    "Blocking": ("#6a2c91", ""),
    "Heavy": ("#8a5a35", ""),
    "Vantage": ("#f0b429", ""),
    "Light": ("#8fbf5a", ""),
    "Accessible / open hatchway": ("#6fd0e8", ""),
    "Ceiling": ("#b7a6d9", ""),
    "Obstructing (razor wire)": ("#c0675c", "xx"),
    "Ladder": ("#a39e93", "---"),
    "Insignificant / Exposed": ("#d4cfc4", "..."),
    "Other": ("#ffffff", ""),
}

#: Edge colour of an injured operative's base (2.3).
_INJURED_COLOUR = "#111111"
#: Fill opacity of a ready operative and of an expended one (faded).
_READY_ALPHA, _EXPENDED_ALPHA = 0.95, 0.5


# -------------------------------------------------------------------------------------------
# Terrain categories and captions
# -------------------------------------------------------------------------------------------


def terrain_category(killzone: Killzone, index: int) -> str:
    """The legend category (a key of :data:`TERRAIN_STYLES`) of part ``index`` in the
    killzone's current hatchway state (section 4.6; hatchways section 9.3).

    The most restrictive type decides: Wall, then Blocking, Heavy, Vantage, Light,
    Accessible, Ceiling, Obstructing, Ladder (equipment, 7.2), Insignificant/Exposed. A
    hatchway's access point is "Hatchway (closed)" or, open, "Accessible / open hatchway".
    """
    part = killzone.parts[index]
    types = killzone.part_types(index)
    if part.open_types is not None:
        is_open = killzone.features[part.feature] in killzone.open_hatchways
        return "Accessible / open hatchway" if is_open else "Hatchway (closed)"
    order = (
        (TerrainType.WALL, "Wall"),
        (TerrainType.BLOCKING, "Blocking"),
        (TerrainType.HEAVY, "Heavy"),
        (TerrainType.VANTAGE, "Vantage"),
        (TerrainType.LIGHT, "Light"),
        (TerrainType.ACCESSIBLE, "Accessible / open hatchway"),
        (TerrainType.CEILING, "Ceiling"),
        (TerrainType.OBSTRUCTING, "Obstructing (razor wire)"),
        (TerrainType.LADDER, "Ladder"),
        (TerrainType.INSIGNIFICANT, "Insignificant / Exposed"),
        (TerrainType.EXPOSED, "Insignificant / Exposed"),
    )
    for kind, label in order:
        if kind in types:
            return label
    return "Other"


def _feature_list(killzone: Killzone, indices: frozenset[int]) -> str:
    names = [repr(killzone.features[i]) for i in sorted(indices)]
    return f"feature{'s' if len(names) > 1 else ''} {', '.join(names)}"


def sight_caption(
    killzone: Killzone,
    shooter_name: str,
    shooter: Placement,
    target_name: str,
    target: Placement,
) -> str:
    """One line of verdicts, e.g. ``A1 -> B2: visible, in cover (feature 'north ruin'), not
    obscured`` (sections 4.3-4.5, computed by :mod:`engine.geometry.sight`)."""
    from engine.geometry import sight

    head = f"{shooter_name} -> {target_name}"
    if not sight.visible(killzone, shooter, target):
        return f"{head}: not visible"
    result = sight.targeting(killzone, shooter, target)
    words = ["visible"]
    if result.in_cover:
        cover = getattr(result, "cover_features", result.intervening)
        words.append(f"in cover ({_feature_list(killzone, cover)})" if cover else "in cover")
    else:
        words.append("not in cover")
    if result.obscured:
        obscuring = getattr(result, "obscuring_features", result.intervening)
        words.append(
            f"obscured ({_feature_list(killzone, obscuring)})" if obscuring else "obscured"
        )
    else:
        words.append("not obscured")
    if sight.within_control_range(killzone, shooter, target):
        words.append("within control range")
    return f"{head}: {', '.join(words)}"


def _legend_handles(
    categories: list[str],
    kz: Killzone,
    players: set[str],
    sight: bool,
    owners: Mapping[str, str],
    marked: bool = False,
) -> list[Artist]:
    handles: list[Artist] = []
    for category in categories:
        colour, hatch = TERRAIN_STYLES[category]
        handles.append(
            Patch(
                facecolor=colour,
                edgecolor="#1d1d1d",
                hatch=hatch or None,
                label=category,
            )
        )
    for zone in sorted(kz.drop_zones):
        player = owners.get(zone, zone)
        colour = PLAYER_COLOURS.get(player, "#777777")
        label = f"Drop zone {zone}" + (f" (player {player})" if zone in owners else "")
        handles.append(Patch(facecolor=colour, alpha=0.2, label=label))
    for zone in sorted(kz.territories):
        player = owners.get(zone, zone)
        colour = PLAYER_COLOURS.get(player, "#777777")
        label = f"Territory {zone}" + (f" (player {player})" if zone in owners else "")
        handles.append(Line2D([], [], color=colour, linestyle=(0, (5, 3)), label=label))
    if kz.objectives:
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=10,
                markerfacecolor="#fff6d5",
                markeredgecolor="#b8860b",
                markeredgewidth=2,
                label="Objective marker (40 mm)",
            )
        )
    for player in sorted(players):
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=9,
                markerfacecolor=PLAYER_COLOURS.get(player, "#555555"),
                markeredgecolor="white",
                label=f"Operative, player {player}",
            )
        )
    if marked and players:
        colour = PLAYER_COLOURS.get(sorted(players)[0], "#555555")
        for letter, text in (("E", "Engage order"), ("C", "Conceal order")):
            handles.append(
                Line2D(
                    [],
                    [],
                    linestyle="none",
                    marker=f"${letter}$",
                    markersize=7,
                    color=colour,
                    label=f"{letter}: {text}",
                )
            )
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=9,
                markerfacecolor=colour,
                markeredgecolor="white",
                alpha=_EXPENDED_ALPHA,
                label="Faded: expended",
            )
        )
        handles.append(
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=9,
                markerfacecolor=colour,
                markeredgecolor=_INJURED_COLOUR,
                markeredgewidth=2.2,
                label="Black ring: injured",
            )
        )
    if sight:
        handles.append(Line2D([], [], color="#e4007c", label="Targeting lines"))
        handles.append(
            Patch(fill=False, edgecolor="#e4007c", linewidth=1.8, label="Intervening feature")
        )
    return handles
