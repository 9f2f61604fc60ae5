"""What the Hierotek Circle's rules share: keywords, who may perform a unique action
(Apprentek Assistance), SUPPORT selection, and tokens that last until the start of the
performer's next activation.

For the modules of other lanes (the Chronomancer's and Psychomancer's unique actions): an
action asks :func:`performs` (``performs(w, o, "Chronometron")``; the unique actions of
:mod:`.actions` in their ``performer_problem``), so that the
Apprentek performs its CRYPTEK's unique actions too (Apprentek Assistance, whose once per
turning point limit is enforced by :mod:`.abilities` for every CRYPTEK unique action).
"""

from __future__ import annotations

from engine.game import universal
from engine.game.state import Effect, OperativeState
from engine.game.work import Work
from engine.rules.equipment.markers import support_distance
from engine.rules.unique_actions import visible_friends_within

TEAM = "hierotek_circle"
FACTION = "HIEROTEK CIRCLE"
CRYPTEK = "CRYPTEK"
APPRENTEK = "APPRENTEK"
UNTIL_NEXT = "hie_until_next"  # effect kind: a token until the start of source's activation


def has_keyword(w: Work, op: str, keyword: str) -> bool:
    """Whether ``op``'s datacard has ``keyword``."""
    return keyword in w.ctx.datacards[op].keywords


def is_hierotek(w: Work, op: str) -> bool:
    """Whether ``op`` is a HIEROTEK CIRCLE operative."""
    return has_keyword(w, op, FACTION)


def own_actions(w: Work, op: str) -> tuple[str, ...]:
    """The unique actions printed on ``op``'s datacard."""
    return tuple(a.name for a in w.ctx.datacards[op].actions)


def cryptek_of(w: Work, player: str) -> str | None:
    """``player``'s CRYPTEK operative selected for the battle (on the killzone or not)."""
    for o in w.ops:
        if o.player == player and has_keyword(w, o.id, CRYPTEK) and is_hierotek(w, o.id):
            return o.id
    return None


def cryptek_action(w: Work, o: OperativeState, name: str) -> bool:
    """Whether ``o`` is an APPRENTEK performing ``name`` as its CRYPTEK's unique action
    (Apprentek Assistance): not on its own datacard, on its CRYPTEK's."""
    if not has_keyword(w, o.id, APPRENTEK) or name in own_actions(w, o.id):
        return False
    c = cryptek_of(w, o.player)
    return c is not None and name in own_actions(w, c)


def performs(w: Work, o: OperativeState, name: str) -> bool:
    """Whether ``o`` has the unique action ``name``: printed on its datacard, or (an
    APPRENTEK, Apprentek Assistance) on its CRYPTEK's."""
    return name in own_actions(w, o.id) or cryptek_action(w, o, name)


def support_targets(
    w: Work, o: OperativeState, inches: float, *, other: bool = False, hierotek: bool = True
) -> list[OperativeState]:
    """Friendly operatives of ``o`` (itself too unless ``other``; HIEROTEK CIRCLE ones if
    ``hierotek``) visible to and within ``inches`` of it, the distance of a SUPPORT rule
    (:func:`engine.rules.equipment.markers.support_distance`: Comms Device...)."""
    reach = support_distance(w, o.id, inches)
    pool = visible_friends_within(w, o, reach, other=other)
    return [f for f in pool if not hierotek or is_hierotek(w, f.id)]


def add_until_next(
    w: Work, target: str, source: str, detail: str, value: int = 0, *, exclusive: bool = True
) -> None:
    """A token ``detail`` on ``target`` until the start of ``source``'s next activation (or
    until ``target`` is incapacitated: removed with its effects). ``exclusive``: it replaces
    any token with the same ``detail`` of ``source``'s player (a rule that ends when the
    action is performed again by a friendly operative); else only ``source``'s own."""
    player = w.ctx.owner[source]
    w.effects = [
        e
        for e in w.effects
        if not (
            e.kind == UNTIL_NEXT
            and e.detail == detail
            and (w.ctx.owner[e.source] == player if exclusive else e.source == source)
        )
    ]
    w.add_effect(
        Effect(UNTIL_NEXT, target, "end_battle", source=source, detail=detail, value=value)
    )


def until_next(w: Work, target: str, detail: str) -> list[Effect]:
    """The tokens ``detail`` on ``target`` (:func:`add_until_next`)."""
    return [e for e in w.effects if e.kind == UNTIL_NEXT and e.op == target and e.detail == detail]


def end_until_next(w: Work, source: str) -> None:
    """``source`` is activated: the tokens it gave end."""
    if any(e.kind == UNTIL_NEXT and e.source == source for e in w.effects):
        w.effects = [e for e in w.effects if not (e.kind == UNTIL_NEXT and e.source == source)]


def has_kw(w: Work, op: str, *keywords: str) -> bool:
    """``op`` is a HIEROTEK CIRCLE operative with every one of ``keywords``."""
    kw = w.ctx.datacards[op].keywords
    return FACTION in kw and all(k in kw for k in keywords)


def op_effect(w: Work, op: str, kind: str) -> Effect | None:
    """The first effect of ``kind`` on ``op`` (``e.op == op``), or ``None``."""
    for e in w.effects:
        if e.kind == kind and e.op == op:
            return e
    return None


def drop_effects(w: Work, kind: str, op: str | None = None) -> None:
    """Remove the effects of ``kind`` (on ``op`` only, when given)."""
    w.effects = [e for e in w.effects if not (e.kind == kind and (op is None or e.op == op))]


def visible_within(w: Work, a: str, b: str, inches: float) -> bool:
    """``b`` is visible to ``a`` and within ``inches`` of it."""
    pa, pb = w.place(w.op(a)), w.place(w.op(b))
    return w.distance(pa, pb) <= inches + 1e-6 and bool(w.ctx.visible(w.kz, pa, pb))


def in_own_activation(w: Work, op: str) -> bool:
    """The top-most activation or counteraction in progress is ``op``'s."""
    for f in reversed(w.stack):
        if isinstance(f, universal.ActivationFrame) and f.mode in ("activation", "counteract"):
            return bool(f.op == op)
    return False
