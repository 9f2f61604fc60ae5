"""The published vocabularies of the action codec (:mod:`engine.envs.codec`): the words of
its ``fixed`` and ``allocate`` families and the verbs of its other families, by notation
(:mod:`engine.game.actions`). The codec's indices follow the order of these tuples, so an
entry is only ever appended.
"""

from __future__ import annotations

from engine.game.actions import MOVE_VERBS

__all__ = [
    "ALLOCATION_WORDS",
    "ATTACK_VERBS",
    "FIXED_WORDS",
    "KT21_ATTACK_VERBS",
    "KT21_MOVE_VERBS",
    "KT21_NAMED_VERBS",
    "KT21_OPERATIVE_VERBS",
    "KT21_WORDS",
    "MAX_SAVES",
    "NAMED_TARGET_VERBS",
    "NAMED_VERBS",
    "OPERATIVE_VERBS",
    "POINT_VERBS",
]

FIXED_WORDS: tuple[str, ...] = (
    "Pass",
    "Done",
    "Keep",
    "Decline",
    "End activation",
    "Back",
    "Initiative A",
    "Initiative B",
    "Drop zone A",
    "Drop zone B",
    "Play +1",
    "Play +2",
    "Play +3",
    "Play -1",
    "Play -2",
    "Play -3",
    "Play re-roll",
    "Strike crit",
    "Strike normal",
    *(f"Block {a} with {b}" for a in ("nothing", "crit", "normal") for b in ("crit", "normal")),
    "Same feature cover",
    "Same feature obscured",
    "Same feature both",
    "Apply Punishing",
    "Apply Rending",
    "Apply Severe",
    "Cover save normal",
    "Cover save critical",
    "Cover save two normals",
    "Cover save normal and critical",
    "Cover save none",
    *(f"Accurate {n}" for n in range(10)),
    *(f"Command re-roll {n}" for n in range(1, 7)),
)
"""The operand-free actions and those of a small fixed vocabulary, by notation: the
``fixed`` family's word field."""

MAX_SAVES = 4
"""The most saves an ``Allocate saves`` action allocates (a shot's defence dice are at most
3, cover saves among them)."""


def _allocation_words(most: int) -> tuple[str, ...]:
    """Every ``Allocate saves`` notation that uses at most ``most`` saves: ``none`` first,
    then by saves used and in the order of the blocks' counts."""
    words = ["none"]
    for used in range(1, most + 1):
        for k in range(used + 1):
            for j in range(used - k + 1):
                for y in range((used - k - j) // 2 + 1):
                    x = used - k - j - 2 * y
                    blocks = (
                        ["crit>crit"] * k
                        + ["crit>normal"] * j
                        + ["normals>crit"] * y
                        + ["normal>normal"] * x
                    )
                    words.append(" ".join(blocks))
    return tuple(words)


ALLOCATION_WORDS: tuple[str, ...] = _allocation_words(MAX_SAVES)
"""The blocks of every ``Allocate saves`` action the codec encodes (at most
:data:`MAX_SAVES` saves), the ``allocate`` family's field."""

OPERATIVE_VERBS: tuple[str, ...] = (
    "Activate engage",
    "Activate conceal",
    "Counteract",
    "Guard",
    "Interrupt",
    "Shoot",
    *MOVE_VERBS,
    "Retaliate",
    "Also",
)
"""The ``operative`` family's verbs: an action naming one operative and nothing else (the
Shoot and move headers, ``Retaliate LEG-2`` without weapon; ``Also LEG-3`` names its
target)."""

ATTACK_VERBS = ("Shoot", "Fight", "Hatchway fight")
NAMED_TARGET_VERBS = ("Ploy", "Use", "Act")
NAMED_VERBS = ("Equipment", "Op", "Pick up", "Operate hatch")
POINT_VERBS = ("Act", "Place marker", "Set up", "named text")

# -- KT21 (rules/KT21.md): the vocabularies of the families appended after ``allocate`` ------

KT21_WORDS: tuple[str, ...] = (
    "Op defender a",
    "Op defender b",
    "Op order conceal",
    "Op order engage",
    "Op scouting fortify",
    "Op scouting infiltrate",
    "Op scouting recon",
    "Op tac security",
    "Op tac seek-and-destroy",
    "Op tac infiltration",
    "Op tac recon",
    "Op tac unsourced",
    "Save invulnerable",
    "Save normal",
    "Block crit and crit with crit",
    "Block crit and normal with crit",
    "Block normal and normal with crit",
    "Block normal and normal with normal",
)
"""The ``kt21_word`` family's words, by notation (``rules/KT21.md``): the KT21 set-up
choices (the roll-off winner's Attacker/Defender pick, an operative's deployment order and
the scouting options, 1.2; the tac op archetype and an unsourced tac op, 1.2 step 5 and
15.3), the defender's choice of save (invulnerable or normal, 10.3), the parries that
discard two dice (the "parry discards two" rule of the Designer's Commentary, 11). Every
word is one KT24 never lists (``Equipment done`` is KT24's too: it keeps the ``named``
family)."""

KT21_OPERATIVE_VERBS: tuple[str, ...] = ("Act overwatch", "Act recon")
"""The ``kt21_operative`` family's verbs: a choice of an operative that is not in activation
(``Act LEG-3 overwatch``: the Overwatch turn of the Firefight phase, 3.5; ``Act KAS-1
recon``: the operative making the Recon scouting Dash, 1.2 step 9)."""

KT21_MOVE_VERBS: tuple[str, ...] = ("Normal Move", "Dash", "Fall Back", "Charge")
"""The ``kt21_move`` family's verbs: KT21's move actions, listed complete with their
destination (``Normal Move KAS-1 to 8,4``, 6.1) at an action decision, not after a header."""

KT21_ATTACK_VERBS: tuple[str, ...] = ("Overwatch",)
"""The ``kt21_attack`` family's verbs: ``Overwatch LEG-2 boltgun at KAS-3`` (3.5)."""

KT21_NAMED_VERBS: tuple[str, ...] = ("Drop marker",)
"""The ``kt21_named`` family's verbs: ``Drop marker KAS-1 [marker] at x,y`` (the point is
the carrier's own, so only the marker's name is a field; dropping is free, 6.2, 15.1)."""
