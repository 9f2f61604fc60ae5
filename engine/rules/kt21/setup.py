"""The KT21 set-up as frames (``rules/KT21.md`` 1.2 Critical Operations 2022, the default;
1.3 the Core Book 2021 sequence and 1.4 Lite, by ``GameOptions.mission``).

1. :class:`SetupFrame`: the roll-off (a tie is rolled again); its winner decides who is the
   Defender (``Op defender A``); the Defender picks a drop zone (``Drop zone A``), the
   Attacker has the other; each player starts with the sequence's CP
   (:data:`~engine.rules.kt21.roles.START_CP`: 3 or 2).
2. The set-up steps rule modules add (``Hooks.setup_step``: tac ops, equipment), then the
   barricades, two each alternating from the Defender (:mod:`engine.rules.kt21.barricades`).
3. :class:`DeployFrame`: Critical Operations 2022 sets up three numerically even groups per
   player alternating from the Defender (1.2 step 8); the Core Book and Lite set up the
   whole kill teams, the Defender's first (1.3, 1.4). Each operative is set up wholly
   within its drop zone (``Deploy KAS-1 at 3,4``), then its player gives it an Engage or
   Conceal order (``Op order engage``).
4. :class:`ScoutingFrame` (Critical Operations 2022 and the Core Book): each player picks
   Fortify, Infiltrate or Recon in secret (``Op scouting recon``), the Attacker first;
   both are revealed and resolved, the Attacker's first. Infiltrate lets its player change
   one operative's order once as it activates in TP1; Recon lets one operative wholly
   within its drop zone make a free Dash (:class:`ReconFrame`; "as if it could FLY" is
   reported, ``rule_not_played``: the Dash moves as a Dash); Fortify sets up one more
   barricade (:func:`engine.rules.kt21.barricades.fortify_frame`).
5. The first turning point's initiative (2.1): Critical Operations 2022 from the scouting
   options (UNCONFIRMED, digest 1.2 step 10: Fortify beats Infiltrate, Infiltrate beats Recon,
   Recon beats Fortify, the player whose option beats the other's has initiative; the same
   option on both sides: a roll-off, a tie rolled again, whose winner decides); the Core Book
   gives it to the Attacker (UNCONFIRMED, digest 1.3, as [SIM] does); Lite rolls off in the
   first Initiative phase (:mod:`engine.rules.kt21.turning_point`).
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.game import deployment
from engine.game.actions import Action, IllegalActionError
from engine.game.flow import expect
from engine.game.frame_skeleton import push_steps, roll_off_winner
from engine.game.secrets import SecretSelection, register_secret, with_facts
from engine.game.state import PLAYERS, GameState, other
from engine.game.universal.activation import start_free_action
from engine.game.work import Work
from engine.rules.kt21 import barricades, roles
from engine.rules.kt21.turning_point import TurningPointFrame

__all__ = [
    "BEATS",
    "SCOUTING",
    "DeployFrame",
    "ReconFrame",
    "ScoutingFrame",
    "SetupFrame",
    "deploy_turns",
    "scouting_of",
]

SCOUTING = ("fortify", "infiltrate", "recon")
"""The scouting options (1.2 step 9), in listing order."""

BEATS = {"fortify": "infiltrate", "infiltrate": "recon", "recon": "fortify"}
"""Which scouting option each one beats for the first turning point's initiative
(UNCONFIRMED: the digest's reading of 1.2 step 10)."""

_SECRET = "secret:{}:kt21_scouting"
_REVEALED = "kt21_scouting"


def _illegal(why: str) -> IllegalActionError:
    return IllegalActionError(why)


def _has_scouting(w: Work) -> bool:
    """The game sequence has a scouting step (1.2, 1.3; Lite has none, 1.4)."""
    return w.ctx.options.mission != "lite"


@attrs.frozen(slots=True)
class SetupFrame:
    """The roll-off for Attacker and Defender, the Defender's drop zone, CP, the set-up steps
    rule modules add and the barricades (module docstring, steps 1-2).

    Attributes:
        stage: ``"roll"``, ``"roles"`` (the winner decides), ``"zone"`` (the Defender picks
            a drop zone), ``"steps"`` (the set-up steps), ``"deploy"`` (the barricades
            next), ``"barricades"`` (deployment next).
        winner: the roll-off winner.
    """

    stage: str = "roll"
    winner: str = ""

    def run(self, w: Work) -> None:
        if self.stage == "roll":
            w.roll("roll_off", "A", 2, ordered=True, label="set-up roll-off (Attacker/Defender)")
        elif self.stage == "roles":
            w.decide(self.winner, "roles")
        elif self.stage == "zone":
            w.decide(roles.defender(w), "drop_zone")
        elif self.stage == "steps":
            w.replace_top(stage="deploy")
            push_steps(w, w.ctx.hooks.setup_steps)
        elif self.stage == "deploy":
            w.replace_top(stage="barricades")
            barricades.start(w)  # 1.2 step 7: then deployment
        else:
            _start_deployment(w)

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        winner = roll_off_winner(w, values, "Attacker and Defender")
        if winner:  # a tie is rolled again (2.1)
            w.replace_top(stage="roles", winner=winner)

    def options(self, w: Work) -> list[Action]:
        if self.stage == "roles":
            return [Action("Op", text=f"defender {p.lower()}") for p in PLAYERS]
        return [Action("Drop zone", text=z) for z in sorted(w.kz.drop_zones)]

    def act(self, w: Work, a: Action) -> None:
        if self.stage == "roles":
            expect(a, ("Op",), "the roll-off winner's choice of Defender (rules/KT21.md 1.2)")
            choice = a.text.lower().split()
            if len(choice) != 2 or choice[0] != "defender" or choice[1].upper() not in PLAYERS:
                raise _illegal(
                    f"{a} is not possible now: the roll-off winner names the Defender "
                    "(Op defender A or Op defender B, rules/KT21.md 1.2)"
                )
            d = choice[1].upper()
            roles.set_defender(w, d)
            w.emit("roles_decided", attacker=other(d), defender=d, by=self.winner)
            w.replace_top(stage="zone")
            return
        expect(a, ("Drop zone",), "the Defender's choice of drop zone (rules/KT21.md 1.2)")
        if a.text not in w.kz.drop_zones:
            raise _illegal(f"the killzone has no drop zone {a.text!r}")
        d = roles.defender(w)
        rest = next(z for z in sorted(w.kz.drop_zones) if z != a.text)
        w.set_pl(d, drop_zone=a.text)
        w.set_pl(other(d), drop_zone=rest)
        for player, zone in ((d, a.text), (other(d), rest)):
            edge = w.kz.drop_zone_edge(zone)
            w.emit("drop_zone_chosen", player=player, zone=zone, edge=edge, by=d)
        cp = roles.START_CP.get(w.ctx.options.mission, 2)
        for p in PLAYERS:  # the pool starts with the sequence's CP (1.2 step 4)
            w.set_pl(p, cp=cp)
            w.emit("cp_gained", player=p, cp=cp, total=cp)
        w.replace_top(stage="steps")


def _start_deployment(w: Work) -> None:
    """Replace the set-up frame with deployment, then scouting (when the sequence has it),
    then the first turning point (pushed last-first)."""
    w.stack.pop()
    w.stack.append(TurningPointFrame())
    if _has_scouting(w):
        w.stack.append(ScoutingFrame(turn=roles.attacker(w)))
    w.stack.append(DeployFrame.start(w))


def deploy_turns(w: Work) -> tuple[tuple[str, int], ...]:
    """The deployment turns ``(player, operatives)``: three numerically even groups each,
    alternating from the Defender (Critical Operations 2022, 1.2 step 8: 10 -> 4/3/3), or
    each whole kill team, the Defender's first (the Core Book and Lite, 1.3, 1.4)."""
    first = roles.defender(w) or "A"
    counts = {p: sum(1 for o in w.ops if o.player == p and not o.incapacitated) for p in PLAYERS}
    if w.ctx.options.mission != "critical_ops_2022":
        return tuple((p, counts[p]) for p in (first, other(first)) if counts[p])
    return deployment.alternating_thirds(first, counts[first], counts[other(first)])


@attrs.frozen(slots=True)
class DeployFrame:
    """Setting up the operatives (module docstring, step 3).

    Attributes:
        turns: :func:`deploy_turns`.
        pos: the turn under way; ``placed``: operatives set up in it so far.
        pending: the operative just set up, waiting for its order (``""``: none).
    """

    turns: tuple[tuple[str, int], ...]
    pos: int = 0
    placed: int = 0
    pending: str = ""

    @classmethod
    def start(cls, w: Work) -> DeployFrame:
        """Deployment from its first turn (:func:`deploy_turns`)."""
        return cls(deploy_turns(w))

    def run(self, w: Work) -> None:
        if self.pending:
            w.decide(w.op(self.pending).player, "deploy_order")
            return
        if self.pos >= len(self.turns):
            w.stack.pop()
            return
        w.decide(self.turns[self.pos][0], "deploy")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice are rolled during deployment")

    def options(self, w: Work) -> list[Action]:
        if self.pending:
            return [Action("Op", text=f"order {order}") for order in ("conceal", "engage")]
        return deployment.deploy_options(w, self.turns[self.pos][0])

    def act(self, w: Work, a: Action) -> None:
        if self.pending:
            expect(a, ("Op",), f"the order of {self.pending}, just set up (rules/KT21.md 1.2)")
            order = a.text.lower().removeprefix("order ").strip()
            if order not in ("engage", "conceal"):
                raise _illegal(
                    f"{a} is not an order: Op order engage or Op order conceal "
                    "(rules/KT21.md 1.2 step 8, 5)"
                )
            w.set_op(self.pending, order=order)
            w.emit("order_changed", op=self.pending, order=order, why="set up")
            size = self.turns[self.pos][1]
            if self.placed + 1 >= size:
                w.replace_top(pos=self.pos + 1, placed=0, pending="")
            else:
                w.replace_top(placed=self.placed + 1, pending="")
            return
        expect(a, ("Deploy",), "deployment (rules/KT21.md 1.2 step 8)")
        o = deployment.deploy_operative(w, a, self.turns[self.pos][0])
        w.replace_top(pending=o.id)


def scouting_of(s: GameState | Work, player: str) -> str:
    """``player``'s scouting option in the state (or working copy) ``s`` (``""``: not
    picked yet)."""
    return str(s.mission.fact(_SECRET.format(player), ""))


def _put_fact(w: Work, key: str, value: Any) -> None:
    facts = dict(w.mission.facts)
    facts[key] = value
    w.mission = attrs.evolve(w.mission, facts=tuple(sorted(facts.items())))


@attrs.frozen(slots=True)
class ScoutingFrame:
    """Scouting (module docstring, steps 4-5).

    Attributes:
        turn: the player picking (the Attacker first); ``""`` once both have picked.
        stage: ``"pick"``, ``"decided"`` (the first turning point's initiative goes to
            ``winner``, once the Recon Dashes are made), ``"roll"`` (its roll-off after a
            tie), ``"choose"`` (the roll-off ``winner`` decides).
        winner: who has (``"decided"``) or decides (``"choose"``) that initiative.
    """

    turn: str
    stage: str = "pick"
    winner: str = ""

    def run(self, w: Work) -> None:
        if self.stage == "pick":
            w.decide(self.turn, "scouting")
        elif self.stage == "decided":
            self._initiative(w, self.winner)
        elif self.stage == "roll":
            w.roll("roll_off", "A", 2, ordered=True, label="first initiative roll-off")
        else:
            w.decide(self.winner, "initiative")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:
        winner = roll_off_winner(w, values, "initiative TP1 (same scouting option)")
        if winner:  # a tie is rolled again (2.1)
            w.replace_top(stage="choose", winner=winner)

    def options(self, w: Work) -> list[Action]:
        if self.stage == "choose":
            return [Action("Initiative", text=p) for p in PLAYERS]
        return [Action("Op", text=f"scouting {o}") for o in SCOUTING]

    def act(self, w: Work, a: Action) -> None:
        if self.stage == "choose":
            expect(a, ("Initiative",), "the roll-off winner's choice (rules/KT21.md 2.1)")
            self._initiative(w, a.text)
            return
        expect(a, ("Op",), "the scouting step (rules/KT21.md 1.2 step 9)")
        choice = a.text.lower().removeprefix("scouting ").strip()
        if choice not in SCOUTING:
            raise _illegal(
                f"{a} is not a scouting option: Op scouting fortify, infiltrate or recon "
                "(rules/KT21.md 1.2 step 9)"
            )
        _put_fact(w, _SECRET.format(self.turn), choice)
        first = roles.attacker(w) or "A"
        if self.turn == first:
            w.replace_top(turn=other(first))
            return
        self._reveal(w, first)

    def _reveal(self, w: Work, first: str) -> None:
        """Both picked: reveal, resolve the Attacker's first, then the first initiative."""
        picks = {p: scouting_of(w, p) for p in PLAYERS}
        _put_fact(w, _REVEALED, f"{picks['A']} {picks['B']}")
        for p in (first, other(first)):
            choice = picks[p]
            w.emit("rule_used", player=p, rule=f"Scouting: {choice}", trigger="scouting")
            if choice == "infiltrate":
                w.count(p, roles.INFILTRATE_KEY, 1 - w.count(p, roles.INFILTRATE_KEY))
        a, b = picks["A"], picks["B"]
        if w.ctx.options.mission == "corebook_2021":
            winner = first  # UNCONFIRMED (1.3): the Attacker, as [SIM] does
        else:
            winner = "A" if BEATS[a] == b else "B" if BEATS[b] == a else ""
        w.replace_top(stage="decided" if winner else "roll", winner=winner)
        for p in (other(first), first):  # pushed last-first: the Attacker's Recon first
            if picks[p] == "recon":
                w.stack.append(ReconFrame(player=p))
            elif picks[p] == "fortify":  # one more barricade (:mod:`.barricades`)
                w.stack.append(barricades.fortify_frame(w, p))

    def _initiative(self, w: Work, player: str) -> None:
        w.initiative = player
        w.emit("initiative_decided", player=player, tp=0)
        w.stack.pop()


def recon_eligible(w: Work, player: str) -> list[str]:
    """The operatives of ``player`` wholly within its drop zone (1.2 step 9 Recon)."""
    out = []
    for o in w.alive(player):
        try:
            deployment.check_deployment(w, o, (o.x, o.y, o.elevation))
        except IllegalActionError:
            continue
        out.append(o.id)
    return out


@attrs.frozen(slots=True)
class ReconFrame:
    """Recon (1.2 step 9): ``player`` picks one of its operatives wholly within its drop
    zone (``Act KAS-1 recon``), which makes a free Dash (a free action, not an activation:
    DC 1.5, digest 16.30), or passes. "As if it could FLY" is reported, not played.

    Attributes:
        player: the player who chose Recon.
    """

    player: str

    def run(self, w: Work) -> None:
        if not recon_eligible(w, self.player):
            w.emit("passed", player=self.player, step="recon")
            w.stack.pop()
            return
        w.decide(self.player, "recon")

    def rolled(self, w: Work, values: tuple[int, ...]) -> None:  # pragma: no cover
        raise _illegal("no dice here")

    def options(self, w: Work) -> list[Action]:
        return [Action("Pass")] + [
            Action("Act", op=i, text="recon") for i in recon_eligible(w, self.player)
        ]

    def act(self, w: Work, a: Action) -> None:
        expect(a, ("Pass", "Act"), "Recon (rules/KT21.md 1.2 step 9)")
        if a.verb == "Pass":
            w.emit("passed", player=self.player, step="recon")
            w.stack.pop()
            return
        if a not in self.options(w):
            raise _illegal(
                f"{a} is not possible now: Recon picks an operative wholly within its "
                "drop zone (Act KAS-1 recon, rules/KT21.md 1.2 step 9)"
            )
        w.stack.pop()
        w.emit(
            "rule_not_played",
            player=self.player,
            rule="Recon: as if it could FLY",
            why="FLY is not played yet: the free Dash moves as a Dash (rules/KT21.md 1.2)",
        )
        start_free_action(w, a.op, ("Dash",))


def _hidden(s: GameState, owner: str) -> bool:
    return bool(scouting_of(s, owner)) and not s.mission.fact(_REVEALED, "")


def _choices(s: GameState, owner: str) -> tuple[str, ...]:
    return SCOUTING


def _put(s: GameState, owner: str, choice: Any) -> GameState:
    return with_facts(s, {_SECRET.format(owner): str(choice)})


SCOUTING_SECRET = register_secret(SecretSelection("scouting", _hidden, _choices, _put))
"""The scouting option is a secret selection until both are revealed (1.2 step 9)."""
