"""Crit op **Download** (``rules/KT24.md`` 8.3, Approved Ops 2025).

- *Download* (mission action, 1AP; only in the third and fourth turning points, not within
  control range of an enemy operative): the centre objective marker or the opponent's
  objective marker, controlled by the active operative, is downloaded. Each marker can be
  downloaded once in the battle, by either kill team (a marker the opponent downloaded
  cannot be downloaded again).
- *Scoring*: performing Download scores 1VP in the third turning point and 2VP in the
  fourth, at once. At the end of each turning point after the first, a player whose
  operatives control more of the markers not yet downloaded than the opponent's do scores
  1VP.
- Limits: the 6VP cap of the op (8.1); the pack prints no cap per turning point, so none is
  applied here (two Downloads in turning point 4 and the control point score 5VP).

Facts: ``"Download:<marker>"`` = the player whose operative downloaded it.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.state import OperativeState, other
from engine.game.work import Work
from engine.missions.actions import MarkerAction
from engine.missions.markers import CENTRE, controlled_by, marker_names, opponent_marker
from engine.missions.pack import OpSpec, crit_active, register
from engine.missions.scoring import CRIT, fact, initiative_first, score, set_fact

__all__ = ["DOWNLOAD", "NAME", "downloaded", "install"]

NAME = "Download"

VP_BY_TP = {3: 1, 4: 2}
"""VP scored by a Download action in each turning point it may be performed in."""


def downloaded(w: Work) -> list[str]:
    """The objective markers downloaded so far (either kill team), in the layout's order."""
    return [m for m in marker_names(w) if fact(w, f"{NAME}:{m}")]


def _problem(w: Work, o: OperativeState, marker: str) -> str | None:
    if marker not in (CENTRE, opponent_marker(w, o.player)):
        return (
            f"Download is performed on the centre or the opponent's objective marker, "
            f"not {marker} (Download)"
        )
    who = fact(w, f"{NAME}:{marker}")
    if who:
        return f"objective marker {marker} was already downloaded by {who}'s kill team (Download)"
    return None


def _download(w: Work, o: OperativeState, marker: str) -> None:
    set_fact(w, f"{NAME}:{marker}", o.player)
    w.emit("marker_downloaded", player=o.player, op=o.id, marker=marker)
    vp = VP_BY_TP.get(w.tp, 0)
    score(w, o.player, CRIT, vp, f"Download: objective marker {marker} in turning point {w.tp}")


DOWNLOAD = MarkerAction("Download", "download", NAME, CRIT, _download, _problem, min_tp=3)
"""The Download mission action (``Act <operative> download <marker>``)."""


def _score(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME) or w.tp < 2:
        return
    gone = downloaded(w)
    live = [m for m in marker_names(w) if m not in gone]
    for p in initiative_first(w):
        if len(controlled_by(w, p, live)) > len(controlled_by(w, other(p), live)):
            score(w, p, CRIT, 1, "Download: more objective markers controlled")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Download action and the end-of-turning-point scoring (module docstring)."""
    hooks.action(DOWNLOAD, players)
    hooks.on("turning_point_ending", _score)


add_template("marker_downloaded", lambda e: f"  {e['op']} downloads objective marker {e['marker']}")

SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Download the centre or enemy marker late for 1-2VP; score for controlling more.",
    )
)
