"""The steps both editions' Shoot and Fight frames share (:mod:`engine.game.attack_frames`):
re-rolled dice, save counting, strike and block options, and what a block discards."""

from __future__ import annotations

from typing import Any, cast

import pytest

from engine.game.actions import Action, IllegalActionError
from engine.game.attack_frames import (
    apply_block,
    block_options,
    count_saves,
    merge_rerolled,
    replaced_faces,
    strike_options,
    take_dice,
)
from engine.game.work import Work


class _Events:
    """Records what is emitted (all :func:`apply_block` asks of its battle)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append((kind, data))


def _texts(actions: list[Action]) -> list[str]:
    return [f"{a.verb} {a.text}" for a in actions]


def test_2_4_a_die_is_never_rerolled_twice() -> None:
    """KT24 2.4 / KT21 4.3: a die re-rolled before cannot be chosen again. Of (6, 4, 4) with
    the first 4 already re-rolled, one 4 can be set aside (the other, not flagged), leaving
    the 6 and the flagged 4; asking for both 4s must fail, citing the edition's rule."""
    vals, flags = take_dice((6, 4, 4), (False, True, False), (4,), "2.4")
    assert (vals, flags) == ([6, 4], [False, True])
    with pytest.raises(IllegalActionError, match=r"no die showing 4 .*\(rules/KT21.md 4.3\)"):
        take_dice((6, 4, 4), (False, True, False), (4, 4), "rules/KT21.md 4.3")


def test_2_4_rerolled_dice_rejoin_the_roll_highest_first_and_flagged() -> None:
    """After a re-roll the dice kept aside (5, 2) and the new faces (6, 2) form the roll
    again, highest first, the new ones flagged as re-rolled so they are never re-rolled
    again; of two 2s the one not re-rolled comes first. The faces replaced are those of the
    old roll that were not kept: of (5, 3, 2, 1) keeping (5, 2) replaced the 3 and the 1."""
    dice, flags = merge_rerolled((5, 2), (False, False), (6, 2))
    assert dice == (6, 5, 2, 2)
    assert flags == (True, False, False, True)
    assert replaced_faces((5, 3, 2, 1), (5, 2)) == (3, 1)


def test_5_1_defence_dice_a_one_fails_a_six_is_critical() -> None:
    """KT24 5.1 step 4 / KT21 10.1 step 4: against Save 3+, defence dice (6, 5, 3, 2, 1)
    give one critical save (the 6) and two normal ones (5 and 3); 2 and 1 fail. A rule
    making 5+ critical saves moves the 5 to the criticals. A Save better than 2+ still fails
    on a 1 (and on nothing else)."""
    assert count_saves((6, 5, 3, 2, 1), 3) == (2, 1)
    assert count_saves((6, 5, 3, 2, 1), 3, crit_at=5) == (1, 2)
    assert count_saves((2, 1), 1) == (1, 0)


def test_5_2_strikes_crit_first_then_normal() -> None:
    """KT24 5.2 step 4 / KT21 11 step 4: a fighter may strike with any success left, one of
    each kind listed (the crit first); none without successes."""
    assert _texts(strike_options((2, 1))) == ["Strike crit", "Strike normal"]
    assert strike_options((0, 0)) == []


def test_5_2_a_crit_blocks_either_a_normal_blocks_a_normal() -> None:
    """KT24 5.2 step 4 / KT21 11 step 4: with a normal and a crit against a normal and a
    crit, the crit blocks either and the normal blocks only the normal; a normal blocks a
    crit only when a rule says so (asked only when it could matter)."""
    asked: list[bool] = []

    def never() -> bool:
        asked.append(True)
        return False

    got = block_options((1, 1), (1, 1), False, never, brutal_bars_normal_on_nothing=False)
    assert _texts(got) == [
        "Block crit with crit",
        "Block normal with crit",
        "Block normal with normal",
    ]
    assert asked == [True]
    got = block_options((1, 0), (0, 1), False, lambda: True, brutal_bars_normal_on_nothing=False)
    assert _texts(got) == ["Block crit with normal"]


def test_6_brutal_only_crits_block() -> None:
    """KT24 6 / KT21 12 Brutal: against a Brutal weapon only a crit blocks (parries), so a
    normal neither blocks a normal nor, whatever a rule says, a crit; the rule is not even
    asked."""

    def must_not_ask() -> bool:
        raise AssertionError("asked although Brutal forbids it")

    got = block_options((1, 1), (1, 1), True, must_not_ask, brutal_bars_normal_on_nothing=False)
    assert _texts(got) == ["Block crit with crit", "Block normal with crit"]


def test_dc_16_21_a_block_with_nothing_left_to_block() -> None:
    """KT24 EDGE_CASES 8 / KT21 DC 16.21: a fighter may block (parry) although the opponent
    has nothing left, with a crit or a normal. Against Brutal, KT21 lets only a crit parry
    even then (the edition's parameter); KT24 allows the normal."""
    kt24 = block_options((1, 1), (0, 0), True, lambda: False, brutal_bars_normal_on_nothing=False)
    assert _texts(kt24) == ["Block nothing with crit", "Block nothing with normal"]
    kt21 = block_options((1, 1), (0, 0), True, lambda: False, brutal_bars_normal_on_nothing=True)
    assert _texts(kt21) == ["Block nothing with crit"]
    plain = block_options((1, 0), (0, 0), False, lambda: False, brutal_bars_normal_on_nothing=True)
    assert _texts(plain) == ["Block nothing with normal"]


def test_dc_16_16_a_block_spends_one_die_and_discards_what_it_names() -> None:
    """KT24 5.2 step 4 / KT21 11 step 4: blocking a normal with a crit spends the crit and
    discards one of the opponent's normals; a parry that discards two (DC 16.16, ``crit and
    normal with crit``) spends one crit and discards one of each; blocking nothing spends
    the die only. One ``block`` event per success discarded."""
    ev = _Events()
    w = cast(Work, ev)
    assert apply_block(w, "A1", "normal with crit", (1, 1), (2, 1)) == ((1, 0), (1, 1))
    assert apply_block(w, "A1", "crit and normal with crit", (0, 1), (2, 1)) == ((0, 0), (1, 0))
    assert apply_block(w, "A1", "nothing with normal", (1, 0), (0, 0)) == ((0, 0), (0, 0))
    assert [d["blocked"] for _, d in ev.events] == ["normal", "crit", "normal", "nothing"]
    assert {k for k, _ in ev.events} == {"block"}
