"""``engine.game.work.evolve``: the hot-path replacement for ``attrs.evolve`` gives the same
value as ``attrs.evolve`` and refuses an unknown field the same way."""

from __future__ import annotations

import attrs
import pytest

from engine.game import GameState
from engine.game.state import Effect
from engine.game.work import evolve
from engine.geometry import load_killzone
from engine.rulesets import new_game
from engine.teams import load_builtin_team


@attrs.frozen(slots=True)
class _Private:
    _hidden: int
    shown: str = ""


@attrs.frozen(slots=True)
class _NotInInit:
    a: int
    b: int = attrs.field(init=False, default=7)


def _state() -> GameState:
    return new_game(
        load_killzone("open_ruins"),
        load_builtin_team("kasrkin").default(),
        load_builtin_team("legionaries").default(),
    )


def test_evolve_equals_attrs_evolve_on_the_state_classes() -> None:
    # The same fields changed give equal values (and equal hashes: states are hashed).
    s = _state()
    o = s.operatives[0]
    assert evolve(o, wounds=3) == attrs.evolve(o, wounds=3)
    assert hash(evolve(o, wounds=3)) == hash(attrs.evolve(o, wounds=3))
    assert evolve(o, wounds=3).wounds == 3 and evolve(o, wounds=3).id == o.id
    p = s.player("A")
    assert evolve(p, cp=p.cp + 1) == attrs.evolve(p, cp=p.cp + 1)
    e = Effect("kind", o.id, "end_tp")
    assert evolve(e, until="end_battle") == attrs.evolve(e, until="end_battle")


def test_evolve_uses_init_aliases_of_private_fields() -> None:
    # attrs strips the underscore of a private field in __init__: the change is by alias.
    assert evolve(_Private(1, "x"), hidden=2) == _Private(2, "x")


def test_evolve_falls_back_to_attrs_for_a_field_outside_init() -> None:
    assert evolve(_NotInInit(1), a=2) == attrs.evolve(_NotInInit(1), a=2)


def test_evolve_refuses_an_unknown_field_as_attrs_does() -> None:
    o = _state().operatives[0]
    with pytest.raises(TypeError):
        attrs.evolve(o, no_such_field=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="no_such_field"):
        evolve(o, no_such_field=1)
