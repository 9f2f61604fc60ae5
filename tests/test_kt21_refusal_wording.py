"""KT21 refusals of the shared core speak KT21 (``engine/rules/kt21/wording.py``): the same
illegal action in the same position is refused in a KT21 battle with KT21's term, Engagement
Range (``rules/KT21.md`` 7.2: two operatives within 1" and Visible), and the ``rules/KT21.md``
section of the rule that forbids it; in a KT24 battle with KT24's control range and
``rules/KT24.md`` sections, exactly as before (the KT24 texts are compared whole).

The position: the probe PRO-1 of player A at (5, 19) on the flat scenario range, the target
TAR-1 either 1.7" away centre to centre (28mm bases: 0.6" apart, Visible: within each other's
Engagement Range / control range) or at (20, 19), far from it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.explain import explain
from engine.game.actions import IllegalActionError
from engine.game.bookkeeping import KT24_WORDING, WORDING_CHECKS, Wording
from engine.game.context import GameOptions
from engine.game.scenario import position
from engine.game.state import GameState
from engine.geometry import load_killzone
from engine.rules.kt21.wording import KT21_WORDING
from engine.rulesets import KT21, KT24
from engine.teams.io import load_team
from engine.teams.model import Roster

KZ = load_killzone("scenarios/killzones/range.toml")
NEAR = {"PRO-1": {"at": (5, 19)}, "TAR-1": {"at": (6.7, 19)}}
FAR = {"PRO-1": {"at": (5, 19)}, "TAR-1": {"at": (20, 19)}}


def _position(ruleset: str, ops: dict[str, dict[str, Any]], **kw: Any) -> GameState:
    """The position ``ops`` of a battle of ``ruleset`` (the scenario probe and target teams
    of that edition), player A to activate PRO-1."""
    prefix = "kt21_" if ruleset == "kt21" else ""
    a = Roster(load_team(f"scenarios/teams/{prefix}probe.json"), ("Probe Trooper",))
    b = Roster(load_team(f"scenarios/teams/{prefix}target.json"), ("Target Trooper",))
    rules = KT21 if ruleset == "kt21" else KT24
    return position(
        KZ, a, b, operatives=ops, ruleset=rules, options=GameOptions(ruleset=ruleset), **kw
    )


def _refusal(state: GameState, *actions: str) -> str:
    """The refusal of the last of ``actions`` after the others are applied (it must be
    refused)."""
    *first, last = actions
    for a in first:
        state, _ = state.apply(a)
    with pytest.raises(IllegalActionError) as exc:
        state.apply(last)
    return str(exc.value)


# (the case's position, its order and turning point, the actions, the KT21 refusal, the KT24
# refusal). Each KT21 text names the rule of the digest: 6.1 gives each universal action's
# conditions and exclusions, 7.2 Engagement Range, 3.1 step 4 the AP and once per
# activation, 5 the orders, 11 the fight's target, 7.3-7.4 moving.
CASES = {
    "dash within Engagement Range (6.1, 7.2)": (
        NEAR,
        {},
        ("Activate PRO-1 engage", "Dash PRO-1 to 4,19"),
        "Dash cannot be performed within Engagement Range of an enemy operative "
        "(rules/KT21.md 6.1, 7.2)",
        "Dash cannot be performed within control range of an enemy operative (3.2)",
    ),
    "shoot within Engagement Range (6.1, 7.2)": (
        NEAR,
        {},
        ("Activate PRO-1 engage", "Shoot PRO-1 rifle at TAR-1"),
        "Shoot cannot be performed within Engagement Range of an enemy operative "
        "(rules/KT21.md 6.1, 7.2)",
        "Shoot cannot be performed within control range of an enemy operative (3.2)",
    ),
    "fall back without an enemy within Engagement Range (6.1, 7.2)": (
        FAR,
        {},
        ("Activate PRO-1 engage", "Fall Back PRO-1 to 4,19"),
        "Fall Back needs an enemy operative within Engagement Range (rules/KT21.md 6.1, 7.2)",
        "Fall Back needs an enemy operative within control range (3.2)",
    ),
    "fight without an enemy within Engagement Range (6.1, 11)": (
        FAR,
        {},
        ("Activate PRO-1 engage", "Fight PRO-1 big blade at TAR-1"),
        "Fight needs an enemy operative within Engagement Range (rules/KT21.md 6.1, 11)",
        "Fight needs an enemy operative within control range (3.2)",
    ),
    "charge on a Conceal order (5, 6.1)": (
        {"PRO-1": {"at": (5, 19), "order": "conceal"}, "TAR-1": {"at": (20, 19)}},
        {"tp": 2},
        ("Activate PRO-1 conceal", "Charge PRO-1 to 11,19"),
        "an operative with a Conceal order cannot Charge (rules/KT21.md 5, 6.1)",
        "an operative with a Conceal order cannot Charge (1.5, 3.2)",
    ),
    "an action twice in an activation (3.1 step 4)": (
        FAR,
        {},
        ("Activate PRO-1 engage", "Dash PRO-1 to 5,20", "Dash PRO-1 to 5,21"),
        "PRO-1 already performed Dash this activation: once per activation (rules/KT21.md 3.1)",
        "PRO-1 already performed Dash this activation: once per activation (1.5)",
    ),
    "Fall Back's 2AP with 1AP left (3.1, 6.1)": (
        FAR,
        {},
        ("Activate PRO-1 engage", "Dash PRO-1 to 5,20", "Fall Back PRO-1 to 5,21"),
        "Fall Back costs 2AP and PRO-1 has 1AP left (rules/KT21.md 3.1, 6.1)",
        "Fall Back costs 2AP and PRO-1 has 1AP left (1.5, 3.2)",
    ),
    "Charge after Dash (6.1)": (
        FAR,
        {},
        ("Activate PRO-1 engage", "Dash PRO-1 to 5,20", "Charge PRO-1 to 11,19"),
        "Charge cannot be performed in the same activation as Dash (rules/KT21.md 6.1)",
        "Charge cannot be performed in the same activation as Dash (3.2)",
    ),
    "no enemy within a Charge's reach (6.1)": (
        FAR,
        {},
        ("Activate PRO-1 engage", "Charge PRO-1"),
        "PRO-1 has no enemy operative within reach of a Charge (rules/KT21.md 6.1)",
        "PRO-1 has no enemy operative within reach of a Charge (3.2)",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_kt21_refusal_names_engagement_range_and_kt21_sections(case: str) -> None:
    """The KT21 battle refuses with KT21's words and sections (the case's name gives the
    digest's rule); the same position and actions in a KT24 battle keep the KT24 text, word
    for word (``rules/KT24.md`` 1.5, 3.2: control range; the pinned battles and many tests
    compare these texts)."""
    ops, kw, actions, kt21_text, kt24_text = CASES[case]
    assert _refusal(_position("kt21", ops, **kw), *actions) == kt21_text
    assert _refusal(_position("kt24", ops, **kw), *actions) == kt24_text


def test_kt21_move_out_of_reach_cites_kt21_moving_7_3_7_4() -> None:
    """Dash moves at most 3" (6.1); 20" away is out of reach, and the KT21 refusal cites how
    KT21 moves (7.3, 7.4), the KT24 one KT24's (3.2, 3.3)."""
    actions = ("Activate PRO-1 engage", "Dash PRO-1 to 25,19")
    kt21 = _refusal(_position("kt21", FAR), *actions)
    kt24 = _refusal(_position("kt24", FAR), *actions)
    assert kt21.startswith('Dash PRO-1: no legal path reaches (25, 19) within 3" of movement')
    assert "(rules/KT21.md 7.3, 7.4)" in kt21 and "(3.2, 3.3)" not in kt21
    assert kt24.startswith(
        'Dash PRO-1: no legal path reaches (25, 19) within 3" of movement (3.2, 3.3)'
    )


def test_kt24_action_in_a_kt21_battle_is_refused_citing_kt21_6_1() -> None:
    """Reposition is KT24's; KT21's universal actions are those of 6.1 (Normal Move instead),
    so a KT21 battle refuses it as no action of an activation, citing 6.1."""
    why = _refusal(_position("kt21", FAR), "Activate PRO-1 engage", "Reposition PRO-1 to 5,20")
    assert why == "Reposition PRO-1 to 5,20 is not an action of an activation (rules/KT21.md 6.1)"


def test_explain_can_under_kt21_cites_engagement_range_and_kt21_sections() -> None:
    """``killteam explain ... can`` reads the game's own refusals: under KT21 the reason and
    its rule are KT21's (Engagement Range, rules/KT21.md 6.1, 7.2), under KT24 KT24's (3.2)."""
    for ruleset, reason, rule in (
        (
            "kt21",
            "Dash cannot be performed within Engagement Range of an enemy operative "
            "(rules/KT21.md 6.1, 7.2)",
            "rules/KT21.md 6.1, 7.2",
        ),
        (
            "kt24",
            "Dash cannot be performed within control range of an enemy operative (3.2)",
            "3.2",
        ),
    ):
        state, _ = _position(ruleset, NEAR).apply("Activate PRO-1 engage")
        r = explain(state, "can PRO-1 Dash to 4,19")
        assert r.verdict is False
        assert r.data["reasons"] == [{"reason": reason, "rule": rule, "source": "core", "by": ""}]


def test_kt21_wording_cites_only_kt21_sections_and_says_engagement_range() -> None:
    """7.2: KT21 calls the 1" zone Engagement Range; every section the KT21 wording cites is
    a ``rules/KT21.md`` section (a KT21 ruling never cites a bare KT24 number)."""
    assert KT21_WORDING.control_range == "Engagement Range"
    assert set(KT21_WORDING.sections) == set(WORDING_CHECKS)
    for check, cited in KT21_WORDING.sections.items():
        assert cited.startswith("rules/KT21.md "), (check, cited)
    assert KT24_WORDING.control_range == "control range"
    assert not any("KT21" in s for s in KT24_WORDING.sections.values())


def test_a_wording_missing_a_check_is_refused_naming_it() -> None:
    """A wording must cite a section for every check of the core, or a refusal would have
    none: a table without ``fight`` is refused, naming it."""
    sections = {k: "1" for k in WORDING_CHECKS if k != "fight"}
    with pytest.raises(ValueError, match="missing \\['fight'\\]"):
        Wording(control_range="x", sections=sections)


def test_kt21_move_ending_within_engagement_range_is_refused_in_kt21_words() -> None:
    """A move may not end within an enemy's Engagement Range (rules/KT21.md 6.1 Normal Move,
    7.2), as a KT24 Reposition may not end within control range (rules/KT24.md 3.2): the
    movement query words its refusal in KT24's terms, and a KT21 battle rewords it
    (``Wording.geometry_text``): "Engagement Range", "Normal Move", rules/KT21.md 6.1 and 7.2,
    nothing of KT24 left. TAR-1 stands 4" from PRO-1; 2.5" towards it leaves 0.4" between
    the 28mm bases."""
    ops = {"PRO-1": {"at": (5, 19)}, "TAR-1": {"at": (9, 19)}}
    kt21 = _refusal(_position("kt21", ops), "Activate PRO-1 engage", "Normal Move PRO-1 to 7.5,19")
    assert "within Engagement Range of an enemy" in kt21, kt21
    assert "Normal Move cannot finish there (rules/KT21.md 6.1, 7.2)" in kt21, kt21
    assert "KT24" not in kt21 and "control range" not in kt21, kt21
    kt24 = _refusal(_position("kt24", ops), "Activate PRO-1 engage", "Reposition PRO-1 to 7.5,19")
    assert kt24.endswith(
        "path ends within control range of an enemy (the operative at (9, 19)): Reposition "
        "cannot finish there (KT24 3.2)"
    ), kt24
