"""Readings of the Approved Ops 2025 pack checked again against its text (group B): an action
whose printed conditions allow it is legal even when its effect changes nothing (only the
effect is conditional); such an action is not offered, since choosing it can change nothing
but the AP spent (``docs/RULINGS.md``, Readings chosen).

Positions as in :mod:`tests.test_crit_ops_b` (``open_ruins``; Kasrkin play Legionaries).
"""

from __future__ import annotations

from typing import Any

from engine.game.scenario import run
from tests.test_crit_ops_b import IDLE, ON_B, ON_CENTRE, kinds, offered, pos


def test_secure_of_a_marker_already_secured_by_you_is_legal_and_changes_nothing() -> None:
    """Secure's printed conditions are only "not in the first turning point, not within an
    enemy's control range". The centre is already secured by A: KAS-1 may Secure it again
    (1AP: APL 3 leaves 2), it stays A's and no marker_secured event is emitted; the action
    is not offered."""
    ops: dict[str, dict[str, Any]] = {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}}
    s = pos("secure", 2, ops, Secure__centre="A")
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert s.is_legal("Act KAS-1 secure centre") and not offered(s, "secure centre", "KAS-1")
    ap = s.operative("KAS-1").ap
    s, ev = run(s, ["Act KAS-1 secure centre"])
    assert s.operative("KAS-1").ap == ap - 1
    assert s.mission.fact("Secure:centre") == "A" and kinds(ev, "marker_secured") == []


def test_secure_of_a_marker_the_enemy_secured_is_offered() -> None:
    """The same action on a marker B secured changes it to A's (the effect: "secured by your
    kill team until the enemy kill team secures it"), so it is offered."""
    ops: dict[str, dict[str, Any]] = {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}}
    s = pos("secure", 2, ops, Secure__centre="B")
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert offered(s, "secure centre", "KAS-1")


def test_initiate_transmission_of_a_transmitting_marker_is_legal_and_changes_nothing() -> None:
    """Initiate Transmission's conditions are the pack's two common ones; the centre already
    transmits in turning point 2 (until the start of the next), so a second Initiate
    Transmission there is legal, spends 1AP, and leaves it transmitting until the same
    time; not offered."""
    ops: dict[str, dict[str, Any]] = {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}}
    s = pos("transmission", 2, ops, Transmission__centre=2)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert s.is_legal("Act KAS-1 initiate transmission centre")
    assert not offered(s, "initiate transmission centre", "KAS-1")
    ap = s.operative("KAS-1").ap
    s, ev = run(s, ["Act KAS-1 initiate transmission centre"])
    assert s.operative("KAS-1").ap == ap - 1
    assert s.mission.fact("Transmission:centre") == 2
    assert kinds(ev, "transmission_initiated") == []
    assert [e["action"] for e in kinds(ev, "mission_action")] == ["Initiate Transmission"]


def test_loot_of_a_marker_looted_this_turning_point_stays_illegal() -> None:
    """Loot prints "or if that objective marker has already been looted during this turning
    point" among its conditions: that one is a condition, so it is refused."""
    ops: dict[str, dict[str, Any]] = {"KAS-1": {"at": ON_CENTRE}, "LEG-3": {"at": ON_B, **IDLE}}
    s = pos("loot", 2, ops, Loot__centre=2)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not s.is_legal("Act KAS-1 loot centre")


def test_download_of_your_own_marker_stays_illegal() -> None:
    """Download acts on "the centre or the opponent's" objective marker and scores whenever
    performed: a Download of one's own marker would score for nothing, so which markers it
    is performed upon is part of the action (reading in docs/RULINGS.md)."""
    ops: dict[str, dict[str, Any]] = {"KAS-1": {"at": (9.5, 8.5)}, "LEG-3": {"at": ON_B, **IDLE}}
    s = pos("download", 3, ops)
    s, _ = run(s, ["Activate KAS-1 engage"])
    assert not s.is_legal("Act KAS-1 download a")
