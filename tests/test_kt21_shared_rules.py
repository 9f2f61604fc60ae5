"""The shared KT21 rule modules of the Designer's Commentary 1.5 rulings (``rules/KT21.md``
16): "a parry discards two" (DC 16.16, :mod:`engine.rules.kt21.parry_two`) and psychic
weapons keeping their BS/WS when the psyker is injured (DC 16.33,
:func:`engine.rules.kt21.attack_dice.hit_threshold`)."""

from __future__ import annotations

from pathlib import Path

from engine.game.actions import Action, format_action, parse_action
from engine.game.context import GameOptions
from engine.game.state import Chance, GameState
from engine.game.work import Work
from engine.geometry import load_killzone
from engine.rules.kt21.attack_dice import hit_threshold
from engine.rules.kt21.fight import _parries_of_two
from engine.rules.kt21.parry_two import has_parry_two
from engine.rulesets import position
from engine.teams.io import load_team
from engine.teams.roster import Roster, Team

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
KT21 = GameOptions(ruleset="kt21")


def _dc_team() -> Team:
    return load_team(SCENARIOS / "teams" / "kt21_dc.json")


def _fight(shield_bearer: bool) -> GameState:
    """FIG-1 (A, a Probe Fighter) in Engagement Range of DC-1 (B: the Shield Bearer or the
    plain DC Trooper), A to act."""
    fighters = load_team(SCENARIOS / "teams" / "kt21_fighters.json")
    a = Roster.from_entries(fighters, ["Probe Fighter"])
    b = Roster.from_entries(_dc_team(), ["DC Shield Bearer" if shield_bearer else "DC Trooper"])
    return position(
        load_killzone(str(SCENARIOS / "killzones" / "range.toml")),
        a,
        b,
        cp=(0, 0),
        operatives={
            "FIG-1": {"at": (10.0, 19.5)},
            "DC-1": {"at": (12.0, 19.5), "ready": False, "counteracted": True},
        },
        options=KT21,
    )


def _play(s: GameState, *steps: str) -> GameState:
    for text in steps:
        s, _ = s.apply(parse_action(text))
    return s


def _blocks(s: GameState) -> set[str]:
    return {format_action(a) for a in s.legal_actions() if a.verb == "Block"}


def _to_parry(shield_bearer: bool) -> GameState:
    """The fight of the scenario ``kt21_dc_16_16_parry_discards_two.toml``: A retains one
    crit and three normals (6,5,5,4 at WS 3+), B one crit and one normal (6,4,1,1); A strikes
    with a normal hit, B is to resolve against one crit and two normals."""
    s = _play(_fight(shield_bearer), "Activate FIG-1 engage", "Fight FIG-1 blade at DC-1")
    for dice in ("6,5,5,4", "6,4,1,1"):
        while not isinstance(s.node, Chance):
            s = _play(s, "Decline")
        s, _ = s.apply(_roll(s, dice))
    while not any(a.verb == "Strike" for a in s.legal_actions()):
        s = _play(s, "Decline")
    return _play(s, "Strike normal")


def _roll(s: GameState, dice: str) -> Action:
    values = tuple(sorted((int(v) for v in dice.split(",")), reverse=True))
    return next(o for o, _ in s.chance_outcomes() if tuple(o.values) == values)


def test_parry_discards_two_normal_parry_two_normals() -> None:
    """16.16: a normal parry of an operative with the rule discards two normal hits; the
    Shield Bearer's normal parry against one crit and two normals leaves the crit alone."""
    s = _play(_to_parry(True), "Block normal and normal with normal")
    left = Work(s).top
    assert (left.an, left.ac) == (0, 1)


def test_parry_discards_two_critical_parry_any_two() -> None:
    """16.16: a critical parry discards any two hits: a crit and a normal, or two normals
    (the opponent has one crit, so two crits cannot be offered)."""
    assert _blocks(_to_parry(True)) == {
        "Block crit and normal with crit",
        "Block normal and normal with crit",
        "Block normal and normal with normal",
    }
    s = _play(_to_parry(True), "Block crit and normal with crit")
    left = Work(s).top
    assert (left.an, left.ac) == (1, 0)


def test_parry_discards_one_without_the_rule() -> None:
    """11 step 4: without the rule a parry discards one hit (the usual three parries)."""
    assert _blocks(_to_parry(False)) == {
        "Block crit with crit",
        "Block normal with crit",
        "Block normal with normal",
    }


def test_parry_discards_two_pairs_with_brutal_and_few_hits() -> None:
    """16.16 with 12 Brutal: against Brutal only a crit parries, so the normal parry of two
    is not offered; two crits are offered when the opponent has two; a normal parry against
    a single normal hit left discards that one."""
    got = {a.text for a in _parries_of_two((1, 1), (0, 2), brutal=True)}
    assert got == {"crit and crit with crit"}
    got = {a.text for a in _parries_of_two((1, 0), (1, 1), brutal=False)}
    assert got == {"normal with normal"}


def test_parry_discards_two_found_by_the_ability_identity() -> None:
    """DESIGN "Rulesets": the rule is found by its identity (the ability's name slug), not by
    the team: the Shield Bearer has it, the DC Trooper does not."""
    cards = {op.name: op for op in _dc_team().operatives}
    assert has_parry_two(cards["DC Shield Bearer"])
    assert not has_parry_two(cards["DC Trooper"])


def test_block_of_two_notation_round_trips() -> None:
    """The notation of a parry discarding two reads back to the same action."""
    a = parse_action("Block crit and normal with crit")
    assert a == Action("Block", text="crit and normal with crit")
    assert parse_action(format_action(a)) == a


def test_psychic_weapon_keeps_its_bs_when_injured() -> None:
    """16.33: a psychic power's weapon is not equipped, so the injury penalty (4.4: BS 1
    worse) does not apply to it: the Psyker's Psychic Bolt stays 3+ injured, its Rifle
    becomes 4+."""
    cards = {op.name: op for op in _dc_team().operatives}
    psyker = cards["DC Psyker"]
    bolt = next(w for w in psyker.weapons if w.name == "Psychic Bolt").profiles[0]
    rifle = next(w for w in psyker.weapons if w.name == "Rifle").profiles[0]
    w = Work(_fight(True))
    o = w.op("FIG-1")
    assert hit_threshold(w, o, bolt, injured=True) == 3
    assert hit_threshold(w, o, rifle, injured=True) == 4
