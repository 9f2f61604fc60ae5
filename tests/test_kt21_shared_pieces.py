"""The pieces both editions share, each given the edition's parameters (DESIGN.md: rulesets
as composition roots): the fight resolver (``engine.dice.fight.Resolver``) with the KT24 or
KT21 strike/parry rules, and the deployment turns in alternating thirds
(``engine.game.deployment``)."""

from __future__ import annotations

import random

from engine.dice.fight import Resolver, unpack
from engine.dice.kt21_fight import Kt21Resolver
from engine.game.deployment import alternating_thirds, thirds


def test_shock_discards_a_crit_in_kt24_but_kt21_stun_only_a_normal_hit() -> None:
    """Attacker: one critical success (damage 1/1, Shock or Stun); defender: one critical
    success (damage 3/3); 10 wounds each, attacker to play.

    KT24 Shock (``rules/KT24.md`` 5.2): the first critical strike discards an enemy normal
    success, else a critical one, so striking deals 1 and leaves the defender nothing: +1,
    better than parrying crit with crit (0). KT21 Stun (``rules/KT21.md`` 12) discards a
    normal hit only: striking deals 1 and then takes 3 (-2), so parrying (0) is best. The one
    resolver gives both, by the edition's parameter."""
    kt24 = Resolver(1, 1, 3, 3, shock_a=True)
    kt21 = Resolver(1, 1, 3, 3, shock_a=True, shock_discards_crit=False)
    assert unpack(kt24.solve(0, 1, 0, 1, 10, 10, True, False, True))[0] == 1
    assert unpack(kt21.solve(0, 1, 0, 1, 10, 10, True, False, True))[0] == 0


def test_a_parry_that_discards_two_is_a_block_of_two_in_the_shared_resolver() -> None:
    """``rules/KT21.md`` 16.16: attacker with 1 normal hit (damage 1/1), defender with 2
    normal hits (damage 5/5), 10 wounds each. A plain parry discards one hit and the other
    lands (5 taken; striking instead lets both land: 10, incapacitated); a parry that
    discards two leaves the defender nothing (0 taken). The shared resolver's ``block_two_a``
    is the KT21 resolver's ``parry_two_a``."""
    shared = Resolver(1, 1, 5, 5, block_two_a=True, shock_discards_crit=False)
    kt21 = Kt21Resolver(1, 1, 5, 5, parry_two_a=True)
    plain = Kt21Resolver(1, 1, 5, 5)
    position = (1, 0, 2, 0, 10, 10, False, False, True)
    assert unpack(shared.solve(*position))[2] == unpack(kt21.solve(*position))[2] == 0
    assert unpack(plain.solve(*position))[2] == 5


def test_kt21_stun_in_the_written_out_solver_equals_the_move_loop() -> None:
    """Two independent implementations of the same minimax (module docstring of
    ``engine.dice.fight``): the written-out solver of two ``optimal`` sides and the generic
    move loop (the reference, also used for fixed policies and parries of two) give the same
    packed value for 2,000 random positions under the KT21 Stun (a normal hit discarded
    only), random damages and Brutal, and fill their memos with the same positions and
    values."""
    rnd = random.Random(21)
    for _ in range(100):
        damages = [rnd.randint(0, 5) for _ in range(4)]
        flags = {name: rnd.random() < 0.4 for name in ("brutal_a", "brutal_b", "stun_a", "stun_b")}
        fast = Kt21Resolver(*damages, **flags)
        reference = Kt21Resolver(*damages, **flags)
        for _ in range(20):
            counts = [rnd.randint(0, 5) for _ in range(4)]
            wounds = [rnd.randint(1, 20) for _ in range(2)]
            stuns_turn = [rnd.random() < 0.5 for _ in range(3)]
            position = (*counts, *wounds, *stuns_turn)
            assert fast.solve(*position) == reference._solve_generic(*position), position
        assert fast.memo == reference.memo


def test_deployment_alternates_thirds_rounded_up_from_the_first_player() -> None:
    """``rules/KT24.md`` 1.2 and ``rules/KT21.md`` 1.2 step 8: each kill team sets up in
    thirds rounded up, fixed once (10 -> ceil(10/3) = 4, then ceil(6/2) = 3, then 3;
    7 -> 3, 2, 2), the groups alternating from the first player."""
    assert thirds(10) == (4, 3, 3) and thirds(7) == (3, 2, 2) and thirds(11) == (4, 4, 3)
    assert alternating_thirds("B", 10, 7) == (
        ("B", 4),
        ("A", 3),
        ("B", 3),
        ("A", 2),
        ("B", 3),
        ("A", 2),
    )


def test_a_kill_team_of_two_has_two_groups_and_the_other_team_sets_up_its_last_alone() -> None:
    """Thirds of 2 rounded up are 1, 1 and nothing left (ceil(2/3) = 1, ceil(1/2) = 1); a team
    of 6 has 2, 2, 2. Alternating from A (2 operatives): A1, B2, A1, B2, then B's last group
    on its own."""
    assert thirds(2) == (1, 1)
    assert alternating_thirds("A", 2, 6) == (("A", 1), ("B", 2), ("A", 1), ("B", 2), ("B", 2))
