"""KT18 psykers and the psychic powers the engine plays (``rules/KT18.md`` 4.1-4.3, 4.5, 6.9,
6.13).

- A model is a psyker when its datasheet has the PSYKER keyword (4.1). How many powers it
  may attempt and how many Deny the Witch tests it may take in each Psychic phase are its
  datasheet's numbers (:attr:`~engine.teams.kt18_cards.Kt18Profile.psyker`); a PSYKER whose
  data gives none attempts one and denies one (:func:`psyker_counts`).
- The powers it knows are its data's
  (:attr:`~engine.teams.kt18_cards.Kt18Profile.powers`), Psybolt alone when none is listed
  (4.2: every psyker knows it unless its datasheet says otherwise). The engine plays Psybolt
  only (:data:`WARP_CHARGES`); any other power known is reported
  (:func:`unplayed_powers`, the ``kt18_powers_not_played`` event) and never offered.
- **Psybolt** (4.3): warp charge 5; the closest enemy model within 18" that the psyker can
  see suffers 1 mortal wound, D3 when the Psychic test totalled 11 or more. It is no
  shooting attack: an enemy within 1" of the psyker's friends may be struck. Ties for the
  closest are the psyker's player's choice (4.3 reading (b)). The Injury roll the mortal
  wounds may cause is the psyker's player's (6.9 reading: the attacking player rolls for the
  psychic powers they cause) and takes the -1 of a model obscured behind cover from the
  psyker (6.9: psychic powers are among the causes it applies to).
"""

from __future__ import annotations

from engine.dice.kt18_values import RandomValue
from engine.game.state import OperativeState
from engine.game.work import Work
from engine.rules.kt18.models import TOLERANCE, distance, profile
from engine.rules.kt18.sight import injury_cover, visible
from engine.rules.kt18.wounds import push_mortal_wounds

__all__ = [
    "DEFAULT_COUNTS",
    "DENY_RANGE",
    "PSYBOLT",
    "PSYBOLT_RANGE",
    "PSYBOLT_STRONG",
    "WARP_CHARGES",
    "canonical_power",
    "is_psyker",
    "known_powers",
    "played_powers",
    "power_key",
    "psybolt_targets",
    "psyker_counts",
    "strike_with_psybolt",
    "unplayed_powers",
    "warp_charge",
]

PSYBOLT = "Psybolt"
"""The power every psyker knows unless its datasheet says otherwise (4.2, 4.3)."""
WARP_CHARGES = {"psybolt": 5}
"""The warp charge of each power the engine plays, by its key (:func:`power_key`; 4.3)."""
PSYBOLT_RANGE = 18.0
"""Inches: Psybolt strikes the closest visible enemy within this distance (4.3)."""
PSYBOLT_STRONG = 11
"""A Psychic test total from which Psybolt inflicts D3 mortal wounds instead of 1 (4.3)."""
DENY_RANGE = 24.0
"""Inches: an enemy psyker within this distance of the manifesting psyker may deny (4.5)."""
DEFAULT_COUNTS = (1, 1)
"""``(manifest, deny)`` of a PSYKER whose data gives no counts (:func:`psyker_counts`)."""
_D3 = RandomValue(dice=1, sides=3)


def power_key(name: str) -> str:
    """A power's name as the engine compares it: lower case, single spaces (``"psybolt"``)."""
    return " ".join(name.lower().split())


def canonical_power(name: str) -> str:
    """The name the engine writes for the power ``name`` (``"Psybolt"`` for any spelling of
    it; another power as its data writes it)."""
    return PSYBOLT if power_key(name) == "psybolt" else name


def is_psyker(w: Work, op_id: str) -> bool:
    """Whether ``op_id`` has the PSYKER keyword (``rules/KT18.md`` 4.1)."""
    return any(k.upper() == "PSYKER" for k in w.ctx.datacards[op_id].keywords)


def psyker_counts(w: Work, op_id: str) -> tuple[int, int]:
    """``(manifest, deny)``: the powers ``op_id`` may attempt and the Deny the Witch tests
    it may take in each Psychic phase (``rules/KT18.md`` 4.1, 4.5): its datasheet's numbers,
    :data:`DEFAULT_COUNTS` for a PSYKER whose data gives none, ``(0, 0)`` for a model that
    is no psyker.

    Raises:
        ValueError: the model has no KT18 characteristics."""
    if not is_psyker(w, op_id):
        return (0, 0)
    counts = profile(w, op_id).psyker
    return DEFAULT_COUNTS if counts is None else counts


def known_powers(w: Work, op_id: str) -> tuple[str, ...]:
    """The powers ``op_id`` knows (``rules/KT18.md`` 4.2): its data's list, else Psybolt
    alone; ``()`` for a model that is no psyker.

    Raises:
        ValueError: the model has no KT18 characteristics."""
    if not is_psyker(w, op_id):
        return ()
    powers = profile(w, op_id).powers
    return tuple(canonical_power(p) for p in powers) if powers else (PSYBOLT,)


def played_powers(w: Work, op_id: str) -> tuple[str, ...]:
    """The powers ``op_id`` knows that the engine plays (:data:`WARP_CHARGES`)."""
    return tuple(p for p in known_powers(w, op_id) if power_key(p) in WARP_CHARGES)


def unplayed_powers(w: Work, op_id: str) -> tuple[str, ...]:
    """The powers ``op_id`` knows that the engine does not play (reported, never offered)."""
    return tuple(p for p in known_powers(w, op_id) if power_key(p) not in WARP_CHARGES)


def warp_charge(power: str) -> int:
    """The warp charge of ``power``, one the engine plays (4.3).

    Raises:
        KeyError: a power the engine does not play."""
    return WARP_CHARGES[power_key(power)]


def psybolt_targets(w: Work, psyker: OperativeState) -> list[str]:
    """The enemy models Psybolt may strike (``rules/KT18.md`` 4.3): of the enemies on the
    battlefield within :data:`PSYBOLT_RANGE` inches that ``psyker`` can see, the closest
    (every one as close, within :data:`~engine.rules.kt18.models.TOLERANCE`); ``[]`` when
    none is visible within range. Models within 1" of the psyker's friends count (not a
    shooting attack)."""
    found: list[tuple[float, str]] = []
    for e in w.enemies_of(psyker.id):
        d = distance(w, psyker, e)
        if d <= PSYBOLT_RANGE + TOLERANCE and visible(w, psyker.id, e.id):
            found.append((d, e.id))
    if not found:
        return []
    best = min(d for d, _ in found)
    return [i for d, i in found if d <= best + TOLERANCE]


def strike_with_psybolt(w: Work, psyker_id: str, target_id: str, total: int) -> None:
    """Psybolt strikes ``target_id`` (``rules/KT18.md`` 4.3, 6.13): emits ``kt18_psybolt``
    and pushes 1 mortal wound, or D3 when the Psychic test ``total`` was
    :data:`PSYBOLT_STRONG` or more; the Injury roll is the psyker's player's, -1 when the
    target is obscured behind cover from the psyker (6.9). ``target_id`` ``""``: no target,
    only the event."""
    count: int | RandomValue = _D3 if total >= PSYBOLT_STRONG else 1
    w.emit(
        "kt18_psybolt",
        op=psyker_id,
        target=target_id,
        mortal="D3" if isinstance(count, RandomValue) else "1",
    )
    if not target_id:
        return
    modifier = -1 if injury_cover(w, psyker_id, target_id) else 0
    push_mortal_wounds(
        w,
        target_id,
        count,
        roller=w.op(psyker_id).player,
        source=PSYBOLT,
        injury_modifier=modifier,
        by=psyker_id,
    )
