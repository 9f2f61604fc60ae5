"""Battle sequence rules (``rules/KT24.md`` 1.2-1.8) and the kill op (8.2), one test per rule.

Expected values are worked out from the digest by hand (comments give the arithmetic).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest

from engine.game import Decision, GameOptions, GameState, IllegalActionError, Terminal
from engine.rulesets import new_game
from tests.test_game_rules_common import BLU, LAB, RED, R, kinds, of_kind, play, pos, roster

# -------------------------------------------------------------------------------------------
# Helpers: a whole battle from set-up with tiny rosters
# -------------------------------------------------------------------------------------------


def fresh(
    red: Sequence[str] = ("Trooper",),
    blu: Sequence[str] = ("Trooper",),
    options: GameOptions | None = None,
    equipment: dict[str, tuple[str, ...]] | None = None,
) -> GameState:
    """A new battle on LAB; the universal equipment selections are fixed (none unless
    ``equipment`` says), so the set-up goes from the drop zones straight to deployment. The
    battle plays the kill op alone: these tests follow the battle sequence, and the pack's
    own steps (crit op roll, tac op, primary op) are tested in ``test_missions_pack.py``."""
    opts = options or GameOptions(mission="kill_op")
    if not opts.equipment:
        opts = attrs.evolve(opts, equipment=equipment or {"A": (), "B": ()})
    return new_game(LAB, roster(RED, red), roster(BLU, blu), opts)


def deploy_all(s: GameState) -> tuple[GameState, list[str]]:
    """Deploy every operative at the first listed spot; returns who deployed, in order."""
    who = []
    while isinstance(s.node, Decision) and s.node.kind == "deploy":
        who.append(s.node.player)
        s, _ = s.apply(s.legal_actions()[0])
    return s, who


def setup_a_first(options: GameOptions | None = None, **kw: Sequence[str]) -> GameState:
    """Set-up: A wins the roll-off (6 v 1), keeps initiative, takes drop zone A, deploys."""
    s = fresh(options=options, **kw)
    s, _ = play(s, ["Initiative A", "Drop zone A"], ["6,1"])
    s, _ = deploy_all(s)
    return s


def strategy(s: GameState, roll: str = "6,1", initiative: str = "A") -> GameState:
    """Initiative roll-off (both pass their cards), initiative decided, Gambit passes."""
    s, _ = play(s, [], [roll])
    while isinstance(s.node, Decision) and s.node.kind == "initiative_card":
        s, _ = s.apply("Pass")
    s, _ = s.apply(f"Initiative {initiative}")
    while isinstance(s.node, Decision) and s.node.kind == "gambit":
        s, _ = s.apply("Pass")
    return s


def skip_firefight(s: GameState) -> GameState:
    """Every operative activates and ends its activation at once."""
    while isinstance(s.node, Decision) and s.node.kind in ("activate", "counteract"):
        if s.node.kind == "counteract":
            s, _ = s.apply("Pass")
            continue
        s, _ = s.apply(s.legal_actions()[0])
        s, _ = s.apply("End activation")
    return s


# -------------------------------------------------------------------------------------------
# 1.2 Set-up
# -------------------------------------------------------------------------------------------


def test_1_2_setup_roll_off_tie_is_rolled_again() -> None:
    s, _ev = play(fresh(), [], ["3,3"])
    # 3 v 3: nobody wins, the roll-off is rolled again (2.4).
    assert s.node == fresh().node
    s, _ = play(s, [], ["2,5"])
    assert s.node == Decision("B", "initiative")


def test_1_2_setup_roll_off_winner_decides_initiative() -> None:
    s, _ = play(fresh(), [], ["2,5"])
    assert s.node == Decision("B", "initiative")  # B rolled 5 > 2
    s, _ = s.apply("Initiative A")
    assert s.initiative == "A"
    # The initiative player (A, although B won the roll-off) picks the drop zone.
    assert s.node == Decision("A", "drop_zone")


def test_1_2_initiative_player_picks_drop_zone_opponent_gets_other_and_reroll_card() -> None:
    s, _ = play(fresh(), ["Initiative A", "Drop zone B"], ["6,1"])
    assert s.player("A").drop_zone == "B"
    assert s.player("B").drop_zone == "A"
    assert s.player("B").cards == ("re-roll",)
    assert s.player("A").cards == ()


def test_1_2_each_player_starts_with_2cp() -> None:
    s = fresh()
    assert (s.player("A").cp, s.player("B").cp) == (2, 2)


def test_1_2_deployment_alternates_thirds_rounded_up_initiative_first_10_is_4_3_3() -> None:
    # A (initiative) 10 operatives -> 4/3/3; B 11 operatives -> 4/4/3 (larger groups first).
    s = fresh(red=["Trooper"] * 10, blu=["Trooper"] * 11)
    s, _ = play(s, ["Initiative A", "Drop zone A"], ["6,1"])
    s, who = deploy_all(s)
    expected = ["A"] * 4 + ["B"] * 4 + ["A"] * 3 + ["B"] * 4 + ["A"] * 3 + ["B"] * 3
    assert who == expected


def test_1_2_operatives_set_up_wholly_within_drop_zone() -> None:
    s, _ = play(fresh(), ["Initiative A", "Drop zone A"], ["6,1"])
    # Drop zone A is x 0-6: a base centred at x = 6 - R + 0.2 pokes 0.2" out of it.
    with pytest.raises(IllegalActionError, match=r"1\.2"):
        s.apply(f"Deploy RED-1 at {6 - R + 0.2:.3f},11")
    with pytest.raises(IllegalActionError, match=r"1\.2"):
        s.apply("Deploy RED-1 at 27,11")  # drop zone B
    s2, _ = s.apply(f"Deploy RED-1 at {6 - R - 0.01:.3f},11")
    assert s2.operative("RED-1").placed


def test_1_2_operatives_are_set_up_with_conceal_orders() -> None:
    s = setup_a_first()
    assert [o.order for o in s.operatives] == ["conceal", "conceal"]
    assert all(o.placed for o in s.operatives)


# -------------------------------------------------------------------------------------------
# 1.4 Strategy phase: initiative (AO 2025 cards and the core rule), Ready, Gambit
# -------------------------------------------------------------------------------------------


def test_1_4_initiative_rolled_off_in_tp1_loser_plays_cards_first() -> None:
    s = setup_a_first()
    assert s.tp == 1 and s.phase == "strategy"
    s, _ = play(s, [], ["2,5"])  # A 2, B 5: A lost the roll-off
    assert s.node == Decision("A", "initiative_card")


def test_1_4_initiative_card_play_alternates_until_two_passes_then_winner_decides() -> None:
    s = setup_a_first()
    s, _ = play(s, ["Pass"], ["5,2"])  # B lost: B starts, passes; A's turn
    assert s.node == Decision("A", "initiative_card")
    s, _ = s.apply("Pass")
    assert s.node == Decision("A", "initiative")  # A rolled 5 > 2


def test_1_4_initiative_reroll_card_rerolls_own_die() -> None:
    s = setup_a_first()
    # B (no initiative at set-up) holds the Re-roll card; B lost 2 v 5 and re-rolls a 6.
    s, ev = play(s, ["Play re-roll"], ["5,2", "6"])
    assert s.player("B").cards == ()
    # The event names B's die before and after the re-roll (2.4): 2 -> 6.
    (e,) = [x for x in ev if x.kind == "dice_rerolled"]
    assert (e["player"], tuple(e["old"]), tuple(e["new"])) == ("B", (2,), (6,))
    # Nobody holds a card any more (no passes needed): B's 6 beats A's 5.
    assert s.node == Decision("B", "initiative")


def test_1_4_initiative_tie_goes_to_player_without_initiative() -> None:
    s = setup_a_first()  # A has initiative from set-up
    s, _ = play(s, ["Pass", "Pass"], ["4,4"])
    assert s.node == Decision("B", "initiative")


def test_1_4_initiative_roll_off_loser_gains_card_of_the_turning_point() -> None:
    s = setup_a_first()
    s = strategy(s, roll="6,1", initiative="A")  # B lost TP1: gains the +1/-1 card
    assert sorted(s.player("B").cards) == ["1", "re-roll"]
    assert s.player("A").cards == ()
    s = skip_firefight(s)
    assert s.tp == 2
    s, _ = play(s, [], ["6,3"])  # B loses again and may play the +1 card
    assert s.node == Decision("B", "initiative_card")
    s, _ = play(s, ["Play +1", "Pass", "Pass"])
    # The card raised B's 3 to 4: still below 6, A wins and decides.
    assert s.node == Decision("A", "initiative")
    assert s.player("B").cards == ("re-roll",)


def test_1_4_initiative_card_modifies_the_players_own_result() -> None:
    """Approved Ops 2025: the +1/-1 card lets its player "modify your result": the player's
    own roll-off result, never the opponent's."""
    s = setup_a_first()
    s = skip_firefight(strategy(s, roll="6,1"))  # B gains card 1; A keeps initiative
    # TP2: A 4, B 3. B plays +1: B 3 + 1 = 4 = A 4, a tie, won by the player without
    # initiative (B). (Had the card lowered A's result instead, 4 - 1 = 3 = 3 would also
    # tie: the -1 below tells the readings apart.)
    s2, _ = play(s, ["Play +1", "Pass", "Pass"], ["4,3"])
    assert s2.node == Decision("B", "initiative")
    # B plays -1: B's own 3 becomes 2, A's 4 is unchanged: A wins and decides. (The old
    # reading, -1 to the opponent, made A 3 = B 3 a tie that B won.)
    s3, ev = play(s, ["Play -1", "Pass", "Pass"], ["4,3"])
    assert s3.node == Decision("A", "initiative")
    assert [e["card"] for e in of_kind(ev, "initiative_card")] == ["-1"]


def test_1_4_core_initiative_tie_decided_by_player_without_initiative() -> None:
    opts = GameOptions(initiative_cards=False, mission="kill_op")
    s = setup_a_first(options=opts)
    # Core rule: TP1 initiative is the set-up one (no roll-off).
    assert s.initiative == "A" and s.node == Decision("A", "gambit")
    s, _ = play(s, ["Pass", "Pass"])
    s = skip_firefight(s)
    assert s.tp == 2
    s, _ = play(s, [], ["3,3"])
    assert s.node == Decision("B", "initiative")  # B did not have initiative in TP1


def test_1_4_ready_step_tp1_each_player_gains_1cp() -> None:
    s = strategy(setup_a_first())
    # 2CP at set-up + 1CP each in TP1.
    assert (s.player("A").cp, s.player("B").cp) == (3, 3)


def test_1_4_ready_step_cp_gain_after_tp1() -> None:
    s = skip_firefight(strategy(setup_a_first()))
    s = strategy(s, roll="1,6", initiative="B")
    # TP2: B (initiative) +1CP, A (no initiative) +2CP: 3 + 2 = 5 and 3 + 1 = 4.
    assert (s.player("A").cp, s.player("B").cp) == (5, 4)


def test_1_4_ready_step_readies_all_operatives() -> None:
    s = skip_firefight(strategy(setup_a_first()))
    assert s.tp == 2 and not any(o.ready for o in s.operatives)
    s = strategy(s)
    assert all(o.ready for o in s.operatives)


def test_1_4_gambit_two_passes_in_succession_starting_with_initiative_player() -> None:
    s = setup_a_first()
    s, _ = play(s, ["Pass", "Pass", "Initiative B"], ["6,1"])
    assert s.node == Decision("B", "gambit")  # B now has initiative
    s, _ = s.apply("Pass")
    assert s.node == Decision("A", "gambit")
    s, _ = s.apply("Pass")
    assert s.phase == "firefight" and s.node == Decision("B", "activate")


# -------------------------------------------------------------------------------------------
# 1.3 / 1.5 Firefight phase
# -------------------------------------------------------------------------------------------


def test_1_5_initiative_player_activates_first_then_players_alternate() -> None:
    s = pos(
        {
            "RED-1": {"at": (3, 14)},
            "RED-2": {"at": (3, 10)},
            "BLU-1": {"at": (27, 14)},
            "BLU-2": {"at": (27, 10)},
        },
        initiative="B",
    )
    order = []
    while s.phase == "firefight" and isinstance(s.node, Decision) and s.node.kind == "activate":
        order.append(s.node.player)
        s, _ = play(s, [str(s.legal_actions()[0]), "End activation"])
    assert order == ["B", "A", "B", "A"]


def test_1_5_ap_equals_apl_at_activation() -> None:
    s = pos({"RED-5": {"at": (3, 14)}, "RED-1": {"at": (3, 10)}, "BLU-1": {"at": (27, 14)}})
    s1, _ev = s.apply("Activate RED-5 engage")
    assert s1.operative("RED-5").ap == 3  # Captain: APL 3
    s2, _ = s.apply("Activate RED-1 conceal")
    assert s2.operative("RED-1").ap == 2  # Trooper: APL 2


def test_1_5_order_chosen_at_every_activation_including_tp1() -> None:
    s = pos({"RED-1": {"at": (3, 14), "order": "conceal"}, "BLU-1": {"at": (27, 14)}}, tp=1)
    s, _ = s.apply("Activate RED-1 engage")
    assert s.operative("RED-1").order == "engage"


def test_1_5_operative_is_expended_when_its_activation_ends() -> None:
    s = pos({"RED-1": {"at": (3, 14)}, "BLU-1": {"at": (27, 14)}})
    s, _ = play(s, ["Activate RED-1 engage", "End activation"])
    assert not s.operative("RED-1").ready
    assert s.node == Decision("B", "activate")


def test_1_5_ap_spent_never_exceeds_apl_activation_ends_at_zero_ap() -> None:
    s = pos({"RED-1": {"at": (3, 14)}, "BLU-1": {"at": (27, 14)}})
    s, _ = play(s, ["Activate RED-1 engage", "Reposition RED-1 to 5,14", "Dash RED-1 to 7,14"])
    # APL 2: two 1AP actions spend it all, so the activation ends by itself.
    assert not s.operative("RED-1").ready
    assert s.node == Decision("B", "activate")


def test_1_5_each_action_at_most_once_per_activation() -> None:
    s = pos({"RED-5": {"at": (3, 14)}, "BLU-1": {"at": (27, 14)}})
    s, _ = play(s, ["Activate RED-5 engage", "Reposition RED-5 to 5,14"])
    assert s.operative("RED-5").ap == 2
    with pytest.raises(IllegalActionError, match=r"once per activation \(1\.5\)"):
        s.apply("Reposition RED-5 to 7,14")


def test_1_3_turning_point_ends_when_all_operatives_expended_next_begins() -> None:
    s = pos({"RED-1": {"at": (3, 14)}, "BLU-1": {"at": (27, 14)}}, tp=2)
    s = skip_firefight(s)
    assert s.tp == 3 and s.phase == "strategy"
    assert s.node.request.kind == "roll_off"  # type: ignore[union-attr]


# -------------------------------------------------------------------------------------------
# 1.6 Counteract
# -------------------------------------------------------------------------------------------


def _counter_pos(**kw: object) -> GameState:
    ops = {
        "RED-1": {"at": (8, 14), "ready": False, "order": "engage"},
        "BLU-1": {"at": (20, 14)},
        "BLU-2": {"at": (27, 10)},
        "BLU-3": {"at": (27, 4)},
    }
    ops.update(kw)  # type: ignore[arg-type]
    return pos(ops, turn="A")


def test_1_6_counteract_offered_when_all_expended_and_opponent_has_ready() -> None:
    s = _counter_pos()
    assert s.node == Decision("A", "counteract")
    assert [str(a) for a in s.legal_actions()] == ["Counteract RED-1", "Pass"]


def test_1_6_counteract_needs_an_engage_order() -> None:
    s = _counter_pos(**{"RED-1": {"at": (8, 14), "ready": False, "order": "conceal"}})
    # No eligible operative: A has no decision, B activates.
    assert s.node == Decision("B", "activate")


def test_1_6_counteract_is_one_free_1ap_action_not_an_activation() -> None:
    s = _counter_pos()
    s, ev = play(s, ["Counteract RED-1", "Reposition RED-1 to 10,14"])
    r1 = s.operative("RED-1")
    assert (r1.x, r1.y) == (10, 14)
    assert not r1.ready and r1.counteracted  # still expended: not an activation
    assert "activated" not in kinds(ev)
    assert s.node == Decision("B", "activate")  # one action, then play passes back


def test_1_6_counteract_cannot_choose_a_2ap_action() -> None:
    s = _counter_pos(
        **{
            "RED-1": {"at": (19, 14), "ready": False, "order": "engage"},
            "BLU-1": {"at": (19 + 2 * R + 0.5, 14)},
        }
    )
    s, _ = s.apply("Counteract RED-1")
    with pytest.raises(IllegalActionError, match=r"1\.6"):
        s.apply("Fall Back RED-1 to 15,14")


def test_1_6_counteract_moves_at_most_2_inches() -> None:
    s, _ = _counter_pos().apply("Counteract RED-1")
    # Move 6", but a counteraction moves at most 2": 8 -> 11 is 3".
    with pytest.raises(IllegalActionError):
        s.apply("Reposition RED-1 to 11,14")
    s2, _ = s.apply("Reposition RED-1 to 10,14")
    assert s2.operative("RED-1").x == 10


def test_1_6_counteract_once_per_turning_point() -> None:
    s = _counter_pos()
    s, _ = play(s, ["Counteract RED-1", "Reposition RED-1 to 9,14"])
    s, _ = play(s, ["Activate BLU-2 engage", "End activation"])
    # A's turn again: RED-1 already counteracted this TP, so B goes on.
    assert s.node == Decision("B", "activate")


def test_1_6_declining_counteract_keeps_later_opportunities() -> None:
    s = _counter_pos()
    s, _ = play(s, ["Pass", "Activate BLU-2 engage", "End activation"])
    assert s.node == Decision("A", "counteract")
    assert "Counteract RED-1" in [str(a) for a in s.legal_actions()]


def test_1_6_counteract_not_bound_by_earlier_activation_restrictions() -> None:
    s = pos(
        {
            "RED-1": {"at": (8, 14)},
            "BLU-1": {"at": (20, 14)},
            "BLU-2": {"at": (27, 10)},
            "BLU-3": {"at": (27, 4)},
        }
    )
    # RED-1 shoots in its activation (attack 1,1,1,1: no hits).
    s, _ = play(
        s,
        ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-1", "End activation"],
        ["1,1,1,1", "1,1,1"],
    )
    s, _ = play(s, ["Activate BLU-2 engage", "End activation"])
    # Counteracting, it may Shoot again (the counteraction is not that activation).
    s, _ = play(s, ["Counteract RED-1", "Shoot RED-1 gun at BLU-1"], ["1,1,1,1", "1,1,1"])
    assert s.operative("RED-1").counteracted


# -------------------------------------------------------------------------------------------
# 1.8 End of battle
# -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("vp", "winner"), [((3, 1), "A"), ((1, 4), "B"), ((2, 2), "")])
def test_1_8_battle_ends_after_tp4_most_vp_wins_equal_is_draw(
    vp: tuple[int, int], winner: str
) -> None:
    s = pos({"RED-1": {"at": (3, 14)}, "BLU-1": {"at": (27, 14)}}, tp=4, vp=vp)
    s = skip_firefight(s)
    assert isinstance(s.node, Terminal)
    assert s.node.result.vp == vp and s.node.result.winner == winner
    with pytest.raises(IllegalActionError, match=r"1\.8"):
        s.apply("Pass")


# -------------------------------------------------------------------------------------------
# 8.2 Kill op
# -------------------------------------------------------------------------------------------

# Shooting a Weakling (2 wounds) dead: attack 3,1,1,1 retains one normal (Gun 3+, 3 damage);
# defence 1,1,1 saves nothing (Save 4+): 3 damage >= 2 wounds.
KILL_SHOT = (["Activate RED-1 engage", "Shoot RED-1 gun at BLU-6"], ["3,1,1,1", "1,1,1"])


def _kill_pos(blu: Sequence[str], tp: int = 1) -> GameState:
    weak = str(len(blu))
    return pos(
        {"RED-1": {"at": (8, 14)}, f"BLU-{weak}": {"at": (14, 14)}, "BLU-1": {"at": (27, 4)}},
        blu=blu,
        tp=tp,
    )


def test_8_2_kill_op_grade_1_scores_1vp_with_6_starting_enemies() -> None:
    # 6 starting enemies: grade 1 needs 1 kill.
    blu = ["Trooper"] * 5 + ["Weakling"]
    s, ev = play(_kill_pos(blu), *KILL_SHOT)
    assert of_kind(ev, "operative_incapacitated")
    assert s.player("A").kill_grade == 1 and s.player("A").vp == 1


def test_8_2_kill_op_row_uses_starting_enemies_8_needs_2_kills() -> None:
    # 8 starting enemies: grade 1 needs 2 kills, so one kill scores nothing.
    blu = ["Trooper"] * 5 + ["Weakling"]
    blu = [*blu[:5], "Trooper", "Trooper", "Weakling"]
    s = pos(
        {"RED-1": {"at": (8, 14)}, "BLU-8": {"at": (14, 14)}, "BLU-1": {"at": (27, 4)}},
        blu=blu,
    )
    s, _ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-8"], ["3,1,1,1", "1,1,1"])
    assert not s.operative("BLU-8").placed
    assert s.player("A").kill_grade == 0 and s.player("A").vp == 0


def test_8_2_kill_op_operatives_ignored_for_it_count_neither_as_starting_nor_as_kills() -> None:
    # 8 starting enemies, two of which a rule ignores for the kill op (as the Bomb Squig's
    # Expendable or a drone): the row is 6, where grade 1 needs 1 kill, so one kill scores.
    blu = [*(["Trooper"] * 5), "Trooper", "Trooper", "Weakling"]
    s = pos(
        {"RED-1": {"at": (8, 14)}, "BLU-8": {"at": (14, 14)}, "BLU-1": {"at": (27, 4)}},
        blu=blu,
    )
    ignored = {"BLU-6", "BLU-7"}
    s = s.with_hooks(
        lambda h: h.transform("would_count_for_kill_op", lambda _w, v, op: v and op not in ignored)
    )
    s2, _ev = play(s, ["Activate RED-1 engage", "Shoot RED-1 gun at BLU-8"], ["3,1,1,1", "1,1,1"])
    assert s2.player("A").kill_grade == 1 and s2.player("A").vp == 1


def test_8_2_kill_op_an_ignored_operative_incapacitated_is_no_kill() -> None:
    # 6 starting enemies, the Weakling ignored: the row is 5 (grade 1 needs 1 kill), but the
    # Weakling's incapacitation is not a kill, so the grade stays 0.
    blu = ["Trooper"] * 5 + ["Weakling"]
    s = _kill_pos(blu)
    s = s.with_hooks(
        lambda h: h.transform("would_count_for_kill_op", lambda _w, v, op: v and op != "BLU-6")
    )
    s2, ev = play(s, *KILL_SHOT)
    assert of_kind(ev, "operative_incapacitated")
    assert s2.player("A").kill_grade == 0 and s2.player("A").vp == 0


def test_8_2_kill_op_higher_grade_at_end_of_battle_scores_1vp_more() -> None:
    blu = ["Trooper"] * 5 + ["Weakling"]
    s, _ = play(_kill_pos(blu, tp=4), *KILL_SHOT)
    s = skip_firefight(s.apply("End activation")[0])
    assert isinstance(s.node, Terminal)
    # Grade 1 (1VP) and a higher grade than B's 0 (+1VP).
    assert s.node.result.vp == (2, 0) and s.node.result.winner == "A"
    assert s.node.result.kill_grades == (1, 0)
