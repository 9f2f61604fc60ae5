"""The KT21 Kasrkin Recon-Trooper's **Reconnoitre Killzone** (``rules/KT21.md`` 1.2 step 9
Scouting, Recon):

In the Scouting step, once the scouting options are revealed, a player whose Recon-Trooper
(with this ability) is in the killzone resolves one additional Recon option (even when it
selected Recon): one of its operatives wholly within its drop zone makes a free Dash
(:class:`engine.rules.kt21.setup.ReconFrame`). The first turning point's initiative is still
decided by the options selected.

Reading (``docs/rulings/kt21_teams.md``): the additional Recon is resolved after both
players' selected options and the first initiative's decision (the core resolves the
selections as one step, the Attacker's first; the initiative does not depend on it); when
both players have the ability the Defender's is resolved first, as the rule says.
"""

from __future__ import annotations

from engine.game.context import Hooks
from engine.game.events import Event
from engine.game.work import Work
from engine.rules.kt21 import roles
from engine.rules.kt21.setup import ReconFrame, ScoutingFrame
from engine.rules.registry import register
from teams.kt21_kasrkin.common import has_ability

__all__ = ["RECONNOITRE", "install_reconnoitre_killzone"]

RECONNOITRE = "Reconnoitre Killzone"


def _scouting(frame: object) -> bool:
    return isinstance(frame, ScoutingFrame)


def install_reconnoitre_killzone(hooks: Hooks, players: tuple[str, ...]) -> None:
    """Reconnoitre Killzone (module docstring): when the scouting options are revealed (the
    ``rule_used`` event of the Attacker's option, emitted first), the additional Recon
    frames are put under the scouting step's frame (so they run once it has resolved the
    selections and the initiative), the Attacker's first so that the Defender's runs
    first."""

    def revealed(w: Work, ev: Event) -> None:
        if not str(ev["rule"]).startswith("Scouting: "):
            return
        first = roles.attacker(w) or "A"
        if ev["player"] != first:
            return  # (both options are revealed together: act once)
        at = next((i for i in range(len(w.stack) - 1, -1, -1) if _scouting(w.stack[i])), None)
        if at is None:
            return
        defender = "B" if first == "A" else "A"
        for p in (first, defender):  # the last put runs first: the Defender's
            if p in players and any(has_ability(w, o.id, RECONNOITRE) for o in w.alive(p)):
                w.emit("rule_used", player=p, rule=RECONNOITRE, trigger="scouting")
                w.stack.insert(at, ReconFrame(player=p))

    hooks.on("rule_used", revealed)


register(
    "kt21_kasrkin/ability/reconnoitre_killzone",
    install_reconnoitre_killzone,
    "In the Scouting step, its player resolves one additional Recon option.",
)
