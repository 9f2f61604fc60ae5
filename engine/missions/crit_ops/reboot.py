"""Crit op **Reboot** (``rules/KT24.md`` 1.4, 8.3, Approved Ops 2025).

- *Numbers*: the objective markers are numbered 1 to 3 in the killzone layout's order
  (:func:`marker_number`). Both built-in layouts list drop zone A's marker, the centre
  marker, then drop zone B's marker, so those are 1, 2 and 3. The pack lets the players
  number them at set-up; a fixed numbering is our choice (numbers only name the markers,
  and the picks below are made knowing them).
- *Picks*: at the start of the Gambit step of every turning point, the first included
  (the pack says each Strategy phase), each player secretly picks one number
  (``Op reboot <n>``), the player with initiative first; the first pick stays secret (fact
  ``"secret:<player>:Reboot pick"``) until both have picked, then both are revealed
  together. The same number for both: that marker is inert for this turning point;
  different numbers: the marker neither picked is inert. The first turning point's pick
  is asked as printed although its inert marker scores nothing then (a marker inert in
  turning point 1 is a fact other rules and the record may read). A layout without
  objective markers has no picks.
- *Reboot* (mission action, **2AP**; not in the first turning point nor within control
  range of an enemy operative): an inert objective marker the active operative controls
  is no longer inert. Being inert is what the effect needs, not a printed condition: a
  Reboot of a controlled marker that is not inert is legal and does nothing (not offered,
  :class:`engine.missions.actions.MarkerAction`).
- *Scoring*: at the end of each turning point after the first, 1VP for each objective
  marker that is not inert and that the player's operatives control.
- Limits: the 6VP cap of the op (8.1); the pack prints no cap per turning point, so none is
  applied (three controlled markers after a Reboot score 3VP).

Facts: ``"Reboot:inert"`` = the inert markers this turning point (layout order);
``"Reboot:picks"`` = ``(turning point, A's number, B's number)`` once revealed.
"""

from __future__ import annotations

import attrs

from engine.game.actions import Action, IllegalActionError
from engine.game.context import Hooks
from engine.game.events import Event, add_template
from engine.game.secrets import SecretSelection, register_secret, with_facts
from engine.game.state import GameState, OperativeState, other
from engine.game.work import Work
from engine.missions.actions import MarkerAction
from engine.missions.markers import controlled_by, marker_names
from engine.missions.pack import OpSpec, crit_active, register
from engine.missions.scoring import CRIT, fact, initiative_first, score, set_fact

__all__ = [
    "NAME",
    "PICK_SECRET",
    "REBOOT",
    "RebootPickFrame",
    "inert",
    "install",
    "marker_number",
    "numbered",
    "pick_key",
]

NAME = "Reboot"


def numbered(w: Work) -> list[str]:
    """The objective markers in number order: number ``k`` is ``numbered(w)[k - 1]``."""
    return marker_names(w)


def marker_number(w: Work, marker: str) -> int:
    """The number (1-3) of ``marker``.

    Raises:
        ValueError: ``marker`` is not an objective marker of the killzone.
    """
    names = numbered(w)
    if marker not in names:
        raise ValueError(f"Reboot: no objective marker {marker!r} ({', '.join(names)})")
    return names.index(marker) + 1


def inert(w: Work) -> tuple[str, ...]:
    """The objective markers inert during this turning point."""
    return tuple(fact(w, f"{NAME}:inert", ()))


def pick_key(player: str) -> str:
    """The secret fact holding ``player``'s pick until both players have picked."""
    return f"secret:{player}:{NAME} pick"


def _resolve(w: Work, picks: dict[str, int]) -> None:
    """Reveal both picks and make the marker(s) inert for this turning point (docstring)."""
    names = numbered(w)
    chosen = {picks["A"], picks["B"]}
    if len(chosen) == 1:
        dead = [names[picks["A"] - 1]]
    else:
        dead = [m for k, m in enumerate(names, start=1) if k not in chosen]
    set_fact(w, f"{NAME}:picks", (w.tp, picks["A"], picks["B"]))
    set_fact(w, f"{NAME}:inert", tuple(dead) or None)
    w.emit("reboot_picks_revealed", picks=(picks["A"], picks["B"]), inert=tuple(dead))


@attrs.frozen(slots=True)
class RebootPickFrame:
    """Both players secretly pick a marker's number at the start of the Gambit step, the
    player with initiative (``turn``) first (module docstring); ``asked``: picks made."""

    turn: str
    asked: int = 0

    def run(self, w: Work) -> None:
        w.decide(self.turn, "reboot pick")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise IllegalActionError("no dice here")

    def options(self, w: Work) -> list[Action]:
        """``Op reboot <n>`` for each marker's number."""
        return [Action("Op", text=f"reboot {k}") for k in range(1, len(numbered(w)) + 1)]

    def act(self, w: Work, a: Action) -> None:
        """Record the pick of ``turn``; after the second pick, reveal both.

        Raises:
            IllegalActionError: not ``Op reboot <n>`` with ``n`` a marker's number.
        """
        if a not in self.options(w):
            names = ", ".join(f"{k} {m}" for k, m in enumerate(numbered(w), start=1))
            raise IllegalActionError(
                f"{a}: player {self.turn} picks an objective marker's number with "
                f"'Op reboot <n>' ({names}) (Reboot)"
            )
        number = int(a.text.removeprefix("reboot "))
        w.emit("reboot_picked", player=self.turn)
        if self.asked == 0:
            set_fact(w, pick_key(self.turn), number)
            w.replace_top(turn=other(self.turn), asked=1)
            return
        first = other(self.turn)
        picks = {self.turn: number, first: int(fact(w, pick_key(first)))}
        set_fact(w, pick_key(first), None)
        w.stack.pop()
        _resolve(w, picks)


def _pick_step(w: Work) -> RebootPickFrame | None:
    if not crit_active(w, NAME) or not numbered(w):
        return None
    return RebootPickFrame(turn=w.initiative or "A")


def _tp_started(w: Work, ev: Event) -> None:
    if crit_active(w, NAME) and inert(w):  # inert only during the turning point picked
        set_fact(w, f"{NAME}:inert", None)


def _idle(w: Work, o: OperativeState, marker: str) -> str | None:
    if marker not in inert(w):
        return f"objective marker {marker} is not inert (Reboot)"
    return None


def _reboot(w: Work, o: OperativeState, marker: str) -> None:
    rest = tuple(m for m in inert(w) if m != marker)
    set_fact(w, f"{NAME}:inert", rest or None)
    w.emit("marker_rebooted", player=o.player, op=o.id, marker=marker)


REBOOT = MarkerAction("Reboot", "reboot", NAME, CRIT, _reboot, ap=2, idle=_idle)
"""The Reboot mission action (``Act <operative> reboot <marker>``, 2AP)."""


def _score(w: Work, ev: Event) -> None:
    if not crit_active(w, NAME) or w.tp < 2:
        return
    live = [m for m in marker_names(w) if m not in inert(w)]
    for p in initiative_first(w):
        mine = len(controlled_by(w, p, live))
        if mine:
            score(w, p, CRIT, mine, f"Reboot: {mine} objective marker(s) controlled, not inert")


def install(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Add the Gambit-step picks, the Reboot action and the end-of-turning-point scoring."""
    hooks.on("turning_point_started", _tp_started)
    hooks.gambit_step(_pick_step)
    hooks.action(REBOOT, players)
    hooks.on("turning_point_ending", _score)


add_template("reboot_picked", lambda e: f"{e['player']} picks a marker number in secret")
add_template(
    "reboot_picks_revealed",
    lambda e: (
        f"Reboot picks: A {e['picks'][0]}, B {e['picks'][1]}; inert this turning point: "
        + (", ".join(e["inert"]) or "none")
    ),
)
add_template("marker_rebooted", lambda e: f"  {e['op']} reboots objective marker {e['marker']}")

SPEC = register(
    OpSpec(
        NAME,
        CRIT,
        install,
        summary="Pick numbers to make a marker inert each turning point; score live markers held.",
    )
)


def _pick_hidden(state: GameState, owner: str) -> bool:
    return state.mission.fact(pick_key(owner)) is not None


def _pick_choices(state: GameState, owner: str) -> tuple[int, ...]:
    """Every marker's number (the first pick is made before the second player picks)."""
    return tuple(range(1, len(state.markers) + 1))


def _pick_put(state: GameState, owner: str, number: int) -> GameState:
    return with_facts(state, {pick_key(owner): number})


PICK_SECRET = register_secret(
    SecretSelection("reboot pick", _pick_hidden, _pick_choices, _pick_put)
)
"""The first Reboot pick until the second is made (:mod:`engine.game.secrets`): redrawn
among the markers' numbers."""
