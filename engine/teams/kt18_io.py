"""KT18 datasheet values in team files (``rules/KT18.md`` 1.7, 1.8): the ``"kt18"`` object of
an operative and of a weapon profile, read and written in the datasheet's notation.

An operative of a ``"edition": "kt18"`` team::

    "kt18": {"ws": "3+", "bs": "3+", "s": 4, "t": 4, "a": "1", "ld": 7, "sv": "3+",
             "max": 0, "invulnerable": "5+", "flesh_wound_boxes": 3,
             "specialists": ["Leader", "Comms"], "leader": true}

(``"-"`` for a WS, BS or Sv the model does not have; ``max``, ``invulnerable``,
``flesh_wound_boxes``, ``specialists``, ``leader`` and ``psyker`` may be left out.) A psyker
(``rules/KT18.md`` 4.1, 4.2) also has::

    "psyker": {"manifest": 1, "deny": 1, "powers": ["Psybolt"]}

``manifest``: the psychic powers it may attempt in each Psychic phase, ``deny``: the Deny the
Witch tests it may take (0 to 9 each); ``powers`` (optional): the powers it knows, Psybolt
alone when left out (every psyker knows it unless its datasheet says otherwise).

Its ``move`` is M and its ``wounds`` W; it has no ``apl`` nor ``save``. A weapon profile::

    "kt18": {"range": "24\\"", "type": "Rapid Fire", "shots": "1", "s": "4", "ap": -1,
             "d": "1", "abilities": []}

(``"range": "Melee"`` and no ``"shots"`` for a melee weapon). Errors are ``ValueError`` naming
the field; :mod:`engine.teams.io` adds the file, team, operative and weapon.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.teams.kt18_cards import Kt18Profile, Kt18Weapon

__all__ = [
    "kt18_profile_from_dict",
    "kt18_profile_to_dict",
    "kt18_weapon_from_dict",
    "kt18_weapon_to_dict",
]

_PROFILE_KEYS = (
    "ws",
    "bs",
    "s",
    "t",
    "a",
    "ld",
    "sv",
    "max",
    "invulnerable",
    "flesh_wound_boxes",
    "specialists",
    "leader",
    "psyker",
)
_PSYKER_KEYS = ("manifest", "deny", "powers")
_PSYKER_REQUIRED = ("manifest", "deny")
_PROFILE_REQUIRED = ("ws", "bs", "s", "t", "a", "ld", "sv")
_WEAPON_KEYS = ("range", "type", "shots", "s", "ap", "d", "abilities")
_WEAPON_REQUIRED = ("range", "type", "s", "ap", "d")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _object(data: Any, keys: tuple[str, ...], required: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ValueError(f"expected an object, not {_short(data)}")
    extra = sorted(str(k) for k in set(data) - set(keys))
    if extra:
        raise ValueError(f"unknown field {_short(extra[0])} (allowed: {', '.join(keys)})")
    missing = [k for k in required if k not in data]
    if missing:
        raise ValueError(f"missing field {missing[0]!r}")
    return data


def _whole(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"field {name!r}: expected a whole number, not {_short(value)}")
    return value


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) and not (isinstance(value, int) and not isinstance(value, bool)):
        raise ValueError(f"field {name!r}: expected text or a number, not {_short(value)}")
    return str(value).strip()[:40]


def _threshold(name: str, value: Any, dash: bool) -> int:
    """``"3+"`` -> 3; ``"-"`` -> 0 when ``dash``."""
    if dash and value == "-":
        return 0
    m = re.fullmatch(r"\s*([2-6])\s*\+\s*", value) if isinstance(value, str) else None
    if m is None:
        also = ' or "-"' if dash else ""
        raise ValueError(
            f'field {name!r}: expected a threshold such as "3+"{also}, not {_short(value)}'
        )
    return int(m.group(1))


def _names(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"field {name!r}: expected a list of names, not {_short(value)}")
    if len(value) > 50:
        raise ValueError(f"field {name!r}: at most 50 names, got {len(value)}")
    return tuple(v.strip()[:200] for v in value)


def kt18_profile_from_dict(data: Any) -> Kt18Profile:
    """A :class:`Kt18Profile` from an operative's ``"kt18"`` object (module docstring).

    Raises:
        ValueError: a missing, unknown or malformed field (named)."""
    d = _object(data, _PROFILE_KEYS, _PROFILE_REQUIRED)
    leader = d.get("leader", False)
    if not isinstance(leader, bool):
        raise ValueError(f"field 'leader': expected true or false, not {_short(leader)}")
    inv = d.get("invulnerable")
    psyker, powers = _psyker(d["psyker"]) if "psyker" in d else (None, ())
    return Kt18Profile(
        ws=_threshold("ws", d["ws"], True),
        bs=_threshold("bs", d["bs"], True),
        strength=_whole("s", d["s"]),
        toughness=_whole("t", d["t"]),
        attacks=_text("a", d["a"]),
        leadership=_whole("ld", d["ld"]),
        save=_threshold("sv", d["sv"], True),
        maximum=_whole("max", d.get("max", 0)),
        invulnerable=0 if inv is None else _threshold("invulnerable", inv, False),
        flesh_wound_boxes=_whole("flesh_wound_boxes", d.get("flesh_wound_boxes", 3)),
        specialists=_names("specialists", d.get("specialists", [])),
        leader=leader,
        psyker=psyker,
        powers=powers,
    )


def _psyker(data: Any) -> tuple[tuple[int, int], tuple[str, ...]]:
    """The ``"psyker"`` object: ``((manifest, deny), powers)`` (module docstring)."""
    try:
        d = _object(data, _PSYKER_KEYS, _PSYKER_REQUIRED)
        counts = (_whole("manifest", d["manifest"]), _whole("deny", d["deny"]))
        powers = _names("powers", d.get("powers", []))
    except ValueError as exc:
        raise ValueError(f"field 'psyker': {exc}") from None
    return counts, powers


def _fmt_threshold(value: int) -> str:
    return "-" if value == 0 else f"{value}+"


def kt18_profile_to_dict(p: Kt18Profile) -> dict[str, Any]:
    """An operative's ``"kt18"`` object (inverse of :func:`kt18_profile_from_dict`)."""
    out: dict[str, Any] = {
        "ws": _fmt_threshold(p.ws),
        "bs": _fmt_threshold(p.bs),
        "s": p.strength,
        "t": p.toughness,
        "a": p.attacks,
        "ld": p.leadership,
        "sv": _fmt_threshold(p.save),
    }
    if p.maximum:
        out["max"] = p.maximum
    if p.invulnerable:
        out["invulnerable"] = f"{p.invulnerable}+"
    if p.flesh_wound_boxes != 3:
        out["flesh_wound_boxes"] = p.flesh_wound_boxes
    if p.specialists:
        out["specialists"] = list(p.specialists)
    if p.leader:
        out["leader"] = True
    if p.psyker is not None:
        psyker: dict[str, Any] = {"manifest": p.psyker[0], "deny": p.psyker[1]}
        if p.powers:
            psyker["powers"] = list(p.powers)
        out["psyker"] = psyker
    return out


def _range(value: Any) -> float:
    if value == "Melee":
        return 0.0
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    m = (
        re.fullmatch(r'\s*(\d{1,3}(?:\.\d{1,3})?)\s*"?\s*', value)
        if isinstance(value, str)
        else None
    )
    if m is None:
        raise ValueError(
            f'field \'range\': expected inches such as 24" or "Melee", not {_short(value)}'
        )
    return float(m.group(1))


def kt18_weapon_from_dict(data: Any) -> Kt18Weapon:
    """A :class:`Kt18Weapon` from a profile's ``"kt18"`` object (module docstring).

    Raises:
        ValueError: a missing, unknown or malformed field (named)."""
    d = _object(data, _WEAPON_KEYS, _WEAPON_REQUIRED)
    return Kt18Weapon(
        range=_range(d["range"]),
        type=_text("type", d["type"]),
        shots=_text("shots", d.get("shots", "")),
        strength=_text("s", d["s"]),
        ap=_whole("ap", d["ap"]),
        damage=_text("d", d["d"]),
        abilities=_names("abilities", d.get("abilities", [])),
    )


def kt18_weapon_to_dict(w: Kt18Weapon) -> dict[str, Any]:
    """A profile's ``"kt18"`` object (inverse of :func:`kt18_weapon_from_dict`)."""
    rng: str = "Melee" if w.type == "Melee" else (f'{w.range:g}"')
    out: dict[str, Any] = {"range": rng, "type": w.type}
    if w.shots:
        out["shots"] = w.shots
    out.update({"s": w.strength, "ap": w.ap, "d": w.damage})
    if w.abilities:
        out["abilities"] = list(w.abilities)
    return out
