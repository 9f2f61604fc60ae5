"""What never changes during a battle: killzone, rosters, datacards, options, hooks, and the
geometry caches shared by every state of the battle.

Hooks (DESIGN.md principle 1): weapon rules, ploys, abilities and mission ops subscribe to
named events. A *did* hook ``fn(w, event)`` runs after an event of that kind happened and may
change the working state ``w``; a *would* hook ``fn(w, value, **info) -> value`` transforms a
value before the engine uses it (e.g. ``"would_use_weapon_rules"`` lets Condensed Environment
add Lethal 5+). Hook sets are assembled per battle from the enabled rule modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from engine.errors import KillTeamError
from engine.geometry import Killzone, Placement, sight
from engine.teams.model import Operative, Roster

__all__ = ["RULESETS", "GameContext", "GameOptions", "GameOptionsError", "Hooks"]

RULESETS = ("kt24",)
"""The rulesets the engine plays."""

MAX_STEPS_LIMIT = 100_000
"""The largest ``max_steps`` a battle may be given, and the default: a real battle takes a
few hundred inputs; a record holds at most this many (``engine.game.record_format``)."""


class GameOptionsError(KillTeamError, ValueError):
    """A game option has a value of the wrong type or out of range (the message names it)."""


def _flag(_obj: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    auto = attribute.name == "close_quarters"
    if not isinstance(value, bool) and not (value is None and auto):
        allowed = "true, false or null (decided by the killzone)" if auto else "true or false"
        raise GameOptionsError(
            f"game option {attribute.name!r} must be {allowed}, got {value!r:.60}"
        )


def _ruleset(_obj: Any, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if value not in RULESETS:
        raise GameOptionsError(
            f"game option 'ruleset' must be one of {', '.join(RULESETS)}, got {value!r:.60}"
        )


def _max_steps(_obj: Any, _attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_STEPS_LIMIT:
        raise GameOptionsError(
            f"game option 'max_steps' must be a whole number from 1 to {MAX_STEPS_LIMIT}, "
            f"got {value!r:.60}"
        )


DidHook = Callable[[Any, Any], None]
WouldHook = Callable[..., Any]


@attrs.frozen(slots=True)
class GameOptions:
    """Options of a battle.

    Attributes:
        ruleset: ``"kt24"``.
        initiative_cards: use the Approved Ops 2025 initiative cards (1.4).
        objectives_pickup: objective markers can be picked up (Pick Up Marker, 3.2); off in the
            kill op (no crit op allows it yet).
        close_quarters: ``None`` uses the Close Quarters rules (9.3) when the killzone has Wall
            terrain; True/False forces them.
        max_steps: a safety limit on inputs per battle (1 to :data:`MAX_STEPS_LIMIT`).

    Raises:
        GameOptionsError: an unknown ruleset, a flag that is not a bool, or ``max_steps`` out
            of range.
    """

    ruleset: str = attrs.field(default="kt24", validator=_ruleset)
    initiative_cards: bool = attrs.field(default=True, validator=_flag)
    objectives_pickup: bool = attrs.field(default=False, validator=_flag)
    close_quarters: bool | None = attrs.field(default=None, validator=_flag)
    max_steps: int = attrs.field(default=MAX_STEPS_LIMIT, validator=_max_steps)


class Hooks:
    """Named-event subscribers (module docstring)."""

    def __init__(self) -> None:
        self.did: dict[str, list[DidHook]] = {}
        self.would: dict[str, list[WouldHook]] = {}

    def on(self, kind: str, fn: DidHook) -> None:
        """Subscribe ``fn(w, event)`` to events of ``kind``."""
        self.did.setdefault(kind, []).append(fn)

    def transform(self, kind: str, fn: WouldHook) -> None:
        """Subscribe ``fn(w, value, **info) -> value`` to the *would* event ``kind``."""
        self.would.setdefault(kind, []).append(fn)


@attrs.define(slots=True, eq=False)
class GameContext:
    """The unchanging part of a battle (module docstring).

    Attributes:
        killzone: the layout with every hatchway closed.
        rosters: ``{"A": roster, "B": roster}``.
        ids: operative ids in state order; ``index``: id -> position; ``owner``: id -> player.
        datacards: id -> :class:`~engine.teams.model.Operative`.
        options: :class:`GameOptions`; ``hooks``: :class:`Hooks`.
        close_quarters: the Close Quarters rules apply.
        starting: number of operatives each player starts with (kill op rows).
    """

    killzone: Killzone
    rosters: Mapping[str, Roster]
    ids: tuple[str, ...]
    index: Mapping[str, int]
    owner: Mapping[str, str]
    datacards: Mapping[str, Operative]
    options: GameOptions
    hooks: Hooks
    close_quarters: bool
    starting: Mapping[str, int]
    _variants: dict[tuple[str, ...], Killzone] = attrs.field(factory=dict)
    _sight: dict[tuple[Any, ...], Any] = attrs.field(factory=dict)
    _places: dict[tuple[str, float, float, float], Placement] = attrs.field(factory=dict)

    def killzone_for(self, open_hatchways: tuple[str, ...]) -> Killzone:
        """The killzone with exactly these hatchways open (one value per hatch state, so the
        movement graphs cached on it are reused)."""
        if not open_hatchways:
            return self.killzone
        kz = self._variants.get(open_hatchways)
        if kz is None:
            kz = self._variants[open_hatchways] = self.killzone.with_open_hatchways(open_hatchways)
        return kz

    def placement(self, op_id: str, x: float, y: float, elevation: float) -> Placement:
        """The :class:`Placement` of operative ``op_id`` at a position (inches)."""
        key = (op_id, x, y, elevation)
        p = self._places.get(key)
        if p is None:
            if len(self._places) > 100_000:
                self._places.clear()
            p = self._places[key] = Placement(x, y, self.datacards[op_id].base_mm, elevation)
        return p

    # Geometry queries, cached per (hatch state, placements): states share them.

    def cached(self, key: tuple[Any, ...], fn: Callable[[], Any]) -> Any:
        """The value of ``fn()`` kept under ``key`` for the whole battle (keys must include
        the hatch state's killzone id and the placements the value depends on).

        ``id()`` is a safe key here, unlike in a process-wide cache: the cache lives on this
        context, which holds every killzone value it names (:attr:`killzone` and its hatch
        states in ``_variants``) for as long as the cache exists, so no id is reused while
        cached. The cache is bounded (cleared past 200,000 entries)."""
        cache = self._sight
        if key in cache:
            return cache[key]
        if len(cache) > 200_000:
            cache.clear()
        value = cache[key] = fn()
        return value

    def peek(self, key: tuple[Any, ...]) -> Any:
        """The value kept under ``key`` (by :meth:`cached` or :meth:`remember`), or ``None``."""
        return self._sight.get(key)

    def remember(self, key: tuple[Any, ...], value: Any) -> None:
        """Keep ``value`` under ``key`` (the key rules of :meth:`cached`): a pure function's
        result computed on the way, for a later :meth:`peek`."""
        if len(self._sight) > 200_000:
            self._sight.clear()
        self._sight[key] = value

    def visible(self, kz: Killzone, a: Placement, b: Placement) -> bool:
        """``b`` is visible to ``a`` (4.3)."""
        return bool(self.cached(("vis", id(kz), a, b), lambda: sight.visible(kz, a, b)))

    def control_range(self, kz: Killzone, a: Placement, b: Placement) -> bool:
        """``a`` and ``b`` are within each other's control range (4.2)."""
        if a == b:
            return False
        if sight.distance(a, b) > 1.0 + 1e-6:
            return False
        key = ("cr", id(kz), a, b) if (a.x, a.y) <= (b.x, b.y) else ("cr", id(kz), b, a)
        return bool(self.cached(key, lambda: sight.within_control_range(kz, a, b)))

    def targeting(self, kz: Killzone, shooter: Placement, target: Placement) -> sight.Targeting:
        """Targeting lines, cover and obscured (4.4, 4.5)."""
        return self.cached(  # type: ignore[no-any-return]
            ("tgt", id(kz), shooter, target), lambda: sight.targeting(kz, shooter, target)
        )

    def valid_target(
        self, kz: Killzone, target: Placement, shooter: Placement, order: str, seek: str | None
    ) -> bool:
        """Valid target (4.5, 4.7), see :func:`engine.geometry.sight.valid_target`."""
        return bool(
            self.cached(
                ("valid", id(kz), target, shooter, order, seek),
                lambda: sight.valid_target(kz, target, shooter, order, seek=seek),
            )
        )
