"""The weapon-rule parser and the DiceRules summary (``rules/KT24.md`` section 6).

Each universal rule has a parse test named after it; then round-trips (canonical string ->
spec -> same string, and spec -> string -> equal spec), realistic datacard strings,
malformed strings (the error names the bad token), the :class:`DiceRules` summary the dice
core reads, and a hypothesis round-trip property over generated rule combinations.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import WeaponRules, parse_weapon_rules
from engine.dice.rules import (
    Accurate,
    Balanced,
    Blast,
    Brutal,
    Ceaseless,
    Devastating,
    DiceRules,
    Heavy,
    Hot,
    Lethal,
    Limited,
    Piercing,
    PiercingCrits,
    Psychic,
    Punishing,
    Range,
    Relentless,
    Rending,
    RerollMode,
    Saturate,
    Seek,
    SeekLight,
    Severe,
    Shock,
    Silent,
    Stun,
    TeamRule,
    Torrent,
    WeaponRule,
)
from engine.errors import WeaponRuleError


def only(text: str) -> WeaponRule:
    """Parse a string holding exactly one rule and return that rule's spec."""
    rules = parse_weapon_rules(text)
    assert len(rules) == 1, rules
    return rules.rules[0]


# --------------------------------------------------------------------------------------------
# One test per universal rule
# --------------------------------------------------------------------------------------------


def test_accurate_parses() -> None:
    assert only("Accurate 1") == Accurate(1)
    assert only("Accurate 2") == Accurate(2)


def test_balanced_parses() -> None:
    assert only("Balanced") == Balanced()


def test_blast_parses() -> None:
    assert only('Blast 2"') == Blast(2.0)
    assert only('Blast 1.5"') == Blast(1.5)


def test_brutal_parses() -> None:
    assert only("Brutal") == Brutal()


def test_ceaseless_parses() -> None:
    assert only("Ceaseless") == Ceaseless()


def test_devastating_parses() -> None:
    rule = only("Devastating 3")
    assert rule == Devastating(3)
    assert isinstance(rule, Devastating) and rule.distance is None


def test_area_devastating_parses() -> None:
    # 'd" Devastating x': x damage to the target and to everything within d of it.
    rule = only('1" Devastating 2')
    assert rule == Devastating(2, 1.0)
    assert isinstance(rule, Devastating) and rule.damage == 2 and rule.distance == 1.0
    assert only('2" Devastating 1') == Devastating(1, 2.0)


def test_heavy_parses() -> None:
    rule = only("Heavy")
    assert rule == Heavy()
    assert isinstance(rule, Heavy) and rule.only is None


def test_heavy_dash_only_parses() -> None:
    rule = only("Heavy (Dash only)")
    assert rule == Heavy("Dash")
    assert rule.format() == "Heavy (Dash only)"


def test_heavy_reposition_only_parses() -> None:
    assert only("Heavy (Reposition only)") == Heavy("Reposition")


def test_hot_parses() -> None:
    assert only("Hot") == Hot()


def test_lethal_parses() -> None:
    assert only("Lethal 5+") == Lethal(5)
    assert only("Lethal 2+") == Lethal(2)
    assert only("Lethal 6+") == Lethal(6)


def test_limited_parses() -> None:
    assert only("Limited 1") == Limited(1)
    assert only("Limited 2") == Limited(2)


def test_piercing_parses() -> None:
    assert only("Piercing 1") == Piercing(1)
    assert only("Piercing 2") == Piercing(2)


def test_piercing_crits_parses() -> None:
    rule = only("Piercing Crits 1")
    assert rule == PiercingCrits(1)
    assert not isinstance(rule, Piercing)  # a distinct rule, not Piercing with a suffix


def test_punishing_parses() -> None:
    assert only("Punishing") == Punishing()


def test_range_parses() -> None:
    assert only('Range 8"') == Range(8.0)
    assert only('Range 6"') == Range(6.0)


def test_relentless_parses() -> None:
    assert only("Relentless") == Relentless()


def test_rending_parses() -> None:
    assert only("Rending") == Rending()


def test_saturate_parses() -> None:
    assert only("Saturate") == Saturate()


def test_seek_parses() -> None:
    assert only("Seek") == Seek()


def test_seek_light_parses() -> None:
    rule = only("Seek Light")
    assert rule == SeekLight()
    assert not isinstance(rule, Seek)


def test_severe_parses() -> None:
    assert only("Severe") == Severe()


def test_shock_parses() -> None:
    assert only("Shock") == Shock()


def test_silent_parses() -> None:
    assert only("Silent") == Silent()


def test_stun_parses() -> None:
    assert only("Stun") == Stun()


def test_torrent_parses() -> None:
    assert only('Torrent 1"') == Torrent(1.0)
    assert only('Torrent 2"') == Torrent(2.0)


def test_psychic_parses() -> None:
    assert only("PSYCHIC") == Psychic()


def test_team_rule_star_parses_to_team_rule() -> None:
    rule = only("Concealed Position*")
    assert rule == TeamRule("Concealed Position")
    assert rule.format() == "Concealed Position*"
    # A star makes any token a team rule, even one that looks like a universal rule.
    assert only('Torrent 0"*') == TeamRule('Torrent 0"')
    assert only("Poison *") == TeamRule("Poison")


def test_empty_and_dash_mean_no_rules() -> None:
    for text in ("", "-", "  -  ", "   "):
        rules = parse_weapon_rules(text)
        assert rules == WeaponRules()
        assert len(rules) == 0 and not rules
        assert rules.format() == ""


# --------------------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------------------

#: Every rule in its canonical spelling, with the spec it parses to.
CANONICAL: list[tuple[str, WeaponRule]] = [
    ("Accurate 1", Accurate(1)),
    ("Accurate 2", Accurate(2)),
    ("Balanced", Balanced()),
    ('Blast 2"', Blast(2.0)),
    ('Blast 1.5"', Blast(1.5)),
    ("Brutal", Brutal()),
    ("Ceaseless", Ceaseless()),
    ("Devastating 3", Devastating(3)),
    ('1" Devastating 2', Devastating(2, 1.0)),
    ('1.5" Devastating 1', Devastating(1, 1.5)),
    ("Heavy", Heavy()),
    ("Heavy (Dash only)", Heavy("Dash")),
    ("Heavy (Reposition only)", Heavy("Reposition")),
    ("Hot", Hot()),
    ("Lethal 5+", Lethal(5)),
    ("Limited 1", Limited(1)),
    ("Piercing 1", Piercing(1)),
    ("Piercing Crits 2", PiercingCrits(2)),
    ("Punishing", Punishing()),
    ('Range 8"', Range(8.0)),
    ("Relentless", Relentless()),
    ("Rending", Rending()),
    ("Saturate", Saturate()),
    ("Seek", Seek()),
    ("Seek Light", SeekLight()),
    ("Severe", Severe()),
    ("Shock", Shock()),
    ("Silent", Silent()),
    ("Stun", Stun()),
    ('Torrent 1"', Torrent(1.0)),
    ("PSYCHIC", Psychic()),
    ("Concealed Position*", TeamRule("Concealed Position")),
]


@pytest.mark.parametrize(("text", "spec"), CANONICAL, ids=[t for t, _ in CANONICAL])
def test_every_rule_round_trips(text: str, spec: WeaponRule) -> None:
    assert spec.format() == text
    assert str(spec) == text
    assert only(text) == spec
    assert parse_weapon_rules(spec.format()) == WeaponRules((spec,))
    assert parse_weapon_rules(text).format() == text


DATACARD_STRINGS = [
    'Range 8", Hot, Lethal 5+, Piercing 1',
    'PSYCHIC, Blast 2", 1" Devastating 1, Saturate',
    'Range 4", Saturate, Seek, Torrent 0"*',
    'Range 6", Blast 2", Saturate',  # frag grenade
    'Range 6", Piercing 1, Saturate',  # krak grenade
    "Heavy (Dash only), Piercing 1",
    "Accurate 1, Balanced, Lethal 5+",
    "Brutal, Shock",
    "Ceaseless, Lethal 5+, Rending",
    '2" Devastating 2, Heavy, Limited 1',
    "Relentless, Severe, Stun",
    "Piercing Crits 1, Punishing",
    'Silent, Seek Light, Torrent 2"',
]


@pytest.mark.parametrize("text", DATACARD_STRINGS)
def test_datacard_strings_round_trip(text: str) -> None:
    rules = parse_weapon_rules(text)
    assert rules.format() == text
    assert str(rules) == text
    assert parse_weapon_rules(rules.format()) == rules
    assert len(rules) == text.count(",") + 1


def test_datacard_string_specs_in_order() -> None:
    assert parse_weapon_rules('Range 8", Hot, Lethal 5+, Piercing 1').rules == (
        Range(8.0),
        Hot(),
        Lethal(5),
        Piercing(1),
    )
    assert parse_weapon_rules('PSYCHIC, Blast 2", 1" Devastating 1, Saturate').rules == (
        Psychic(),
        Blast(2.0),
        Devastating(1, 1.0),
        Saturate(),
    )
    assert parse_weapon_rules('Range 4", Saturate, Seek, Torrent 0"*').rules == (
        Range(4.0),
        Saturate(),
        Seek(),
        TeamRule('Torrent 0"'),
    )
    assert parse_weapon_rules("-").rules == ()


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("lethal 5+", "Lethal 5+"),
        ("LETHAL 5+", "Lethal 5+"),
        ("psychic", "PSYCHIC"),
        ("heavy (dash only)", "Heavy (Dash only)"),
        ("Heavy(Dash only)", "Heavy (Dash only)"),
        ('Blast 2.0"', 'Blast 2"'),
        ("Piercing   1", "Piercing 1"),
        ("piercing crits 1", "Piercing Crits 1"),
        ("seek light", "Seek Light"),
        ('1"Devastating 2', '1" Devastating 2'),
        ('  Range 8" ,Hot ,  Lethal 5+ ', 'Range 8", Hot, Lethal 5+'),
        ("Balanced,\tRending", "Balanced, Rending"),
    ],
)
def test_loose_spelling_formats_canonically(loose: str, canonical: str) -> None:
    rules = parse_weapon_rules(loose)
    assert rules.format() == canonical
    assert parse_weapon_rules(canonical) == rules


def test_duplicates_are_kept_for_round_trip() -> None:
    rules = parse_weapon_rules("Accurate 1, Accurate 1")
    assert rules.rules == (Accurate(1), Accurate(1))
    assert rules.format() == "Accurate 1, Accurate 1"


def test_weapon_rules_of_coerces() -> None:
    parsed = parse_weapon_rules("Lethal 5+, Piercing 1")
    assert WeaponRules.of("Lethal 5+, Piercing 1") == parsed
    assert WeaponRules.of(parsed) is parsed
    assert WeaponRules.of([Lethal(5), Piercing(1)]) == parsed
    assert WeaponRules.of(None) == WeaponRules()


def test_has_get_and_with_rules() -> None:
    rules = parse_weapon_rules("Lethal 5+, Piercing 1")
    assert rules.has(Lethal) and rules.has(Piercing)
    assert not rules.has(PiercingCrits) and not rules.has(Accurate)
    assert rules.get(Piercing) == Piercing(1)
    assert rules.get(Accurate) is None
    more = rules.with_rules(Accurate(1))
    assert more.format() == "Lethal 5+, Piercing 1, Accurate 1"
    assert rules.format() == "Lethal 5+, Piercing 1"  # the original is unchanged
    assert more.dice.accurate == 1


# --------------------------------------------------------------------------------------------
# Malformed strings: WeaponRuleError naming the bad token
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ('Rang 8"', 'Rang 8"'),  # unknown rule (typo)
        ('Range 8", Rang 8"', 'Rang 8"'),
        ("Lethal 7+", "Lethal 7+"),  # threshold out of 2+..6+
        ("Lethal 1+", "Lethal 1+"),
        ("Lethal 5", "Lethal 5"),  # missing '+'
        ("Blast 1", "Blast 1"),  # distance without the inch mark
        ('Range 8", Torrent 2', "Torrent 2"),
        ("Range 8", "Range 8"),
        ("Lethal 5+ Piercing 1", "Lethal 5+ Piercing 1"),  # missing comma
        ("Piercing1", "Piercing1"),  # missing space
        ("Accurate 0", "Accurate 0"),
        ("Piercing 0", "Piercing 0"),
        ("Devastating", "Devastating"),  # missing x
        ("Heavy (Charge only)", "Heavy (Charge only)"),
        ("Poison", "Poison"),  # team rule without its '*'
        ("AP1", "AP1"),  # a KT21 rule
    ],
)
def test_malformed_string_raises_naming_token(text: str, token: str) -> None:
    with pytest.raises(WeaponRuleError) as info:
        parse_weapon_rules(text)
    assert token in str(info.value)
    assert info.value.token == token
    assert info.value.text == text


@pytest.mark.parametrize("text", ["Lethal 5+,", "Lethal 5+, ", ", Lethal 5+", "Hot,, Stun", ","])
def test_empty_token_raises(text: str) -> None:
    # A trailing (or doubled) comma leaves an empty token: the message says so and quotes
    # the whole string.
    with pytest.raises(WeaponRuleError) as info:
        parse_weapon_rules(text)
    assert "empty" in str(info.value)
    assert repr(text) in str(info.value)
    assert info.value.text == text
    assert info.value.token.strip() == ""


def test_bare_star_is_an_empty_team_rule() -> None:
    with pytest.raises(WeaponRuleError, match="team rule"):
        parse_weapon_rules("Hot, *")


def test_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_weapon_rules("Lethal 9+")


def test_non_string_raises() -> None:
    with pytest.raises(WeaponRuleError):
        parse_weapon_rules(5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# The DiceRules summary
# --------------------------------------------------------------------------------------------


def dice(text: str) -> DiceRules:
    return parse_weapon_rules(text).dice


def test_no_rules_summary_is_default() -> None:
    assert dice("-") == DiceRules()
    assert dice("-").reroll == RerollMode.NONE


def test_single_accurate_keeps_x() -> None:
    assert dice("Accurate 1").accurate == 1
    assert dice("Accurate 3").accurate == 3


def test_several_accurate_instances_become_accurate_2() -> None:
    # Section 6: several instances of Accurate may be treated as one Accurate 2.
    assert dice("Accurate 1, Accurate 1").accurate == 2
    assert dice("Accurate 1, Accurate 1, Accurate 1").accurate == 2
    # ... or the attacker picks the best x (general rule for rules with an x).
    assert dice("Accurate 3, Accurate 1").accurate == 3


def test_lethal_picks_lowest_threshold() -> None:
    assert dice("Lethal 5+").lethal == 5
    assert dice("Lethal 5+, Lethal 4+").lethal == 4
    assert dice("Lethal 3+, Lethal 5+").lethal == 3
    assert dice("-").lethal is None


def test_piercing_takes_max() -> None:
    assert dice("Piercing 1, Piercing 2").piercing == 2
    assert dice("Piercing 2, Piercing 1").piercing == 2
    assert dice("Piercing 1").piercing_crits == 0


def test_piercing_crits_takes_max() -> None:
    assert dice("Piercing Crits 1, Piercing Crits 2").piercing_crits == 2
    assert dice("Piercing Crits 2, Piercing Crits 1").piercing_crits == 2
    # Piercing and Piercing Crits are recorded separately.
    summary = dice("Piercing 1, Piercing Crits 2")
    assert (summary.piercing, summary.piercing_crits) == (1, 2)


def test_devastating_takes_max_damage() -> None:
    assert dice("Devastating 1, Devastating 3").devastating == 3
    assert dice("Devastating 3, Devastating 1").devastating == 3
    summary = dice('1" Devastating 2')
    assert (summary.devastating, summary.devastating_distance) == (2, 1.0)
    summary = dice("Devastating 2")
    assert (summary.devastating, summary.devastating_distance) == (2, None)


@pytest.mark.parametrize(
    ("text", "flag"),
    [
        ("Balanced", "balanced"),
        ("Ceaseless", "ceaseless"),
        ("Relentless", "relentless"),
        ("Punishing", "punishing"),
        ("Rending", "rending"),
        ("Severe", "severe"),
        ("Brutal", "brutal"),
        ("Shock", "shock"),
        ("Saturate", "saturate"),
        ("Stun", "stun"),
        ("Hot", "hot"),
    ],
)
def test_flag_rules_set_their_flag(text: str, flag: str) -> None:
    summary = dice(text)
    assert getattr(summary, flag) is True
    assert getattr(dice("-"), flag) is False


@pytest.mark.parametrize(
    "text",
    [
        'Range 8"',
        'Blast 2"',
        'Torrent 1"',
        "Heavy",
        "Heavy (Dash only)",
        "Limited 1",
        "Silent",
        "Seek",
        "Seek Light",
        "PSYCHIC",
        "Concealed Position*",
    ],
)
def test_rules_without_dice_effect_leave_summary_default(text: str) -> None:
    assert dice(text) == DiceRules()


def test_same_flag_twice_is_no_extra_benefit() -> None:
    assert dice("Balanced, Balanced") == dice("Balanced")
    assert dice("Rending, Rending") == dice("Rending")


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("-", RerollMode.NONE),
        ("Balanced", RerollMode.BALANCED),
        ("Ceaseless", RerollMode.CEASELESS),
        ("Ceaseless, Balanced", RerollMode.CEASELESS_BALANCED),
        ("Balanced, Ceaseless", RerollMode.CEASELESS_BALANCED),
        ("Relentless", RerollMode.RELENTLESS),
        ("Relentless, Balanced", RerollMode.RELENTLESS),
        ("Ceaseless, Relentless", RerollMode.RELENTLESS),
        ("Balanced, Ceaseless, Relentless", RerollMode.RELENTLESS),
    ],
)
def test_reroll_mode_precedence(text: str, mode: str) -> None:
    # Relentless > Ceaseless+Balanced > Ceaseless > Balanced > none.
    assert dice(text).reroll == mode


def test_dice_summary_is_cached_and_not_part_of_equality() -> None:
    a = parse_weapon_rules("Lethal 5+")
    b = parse_weapon_rules("Lethal 5+")
    assert a.dice is a.dice
    assert a == b  # one has computed its summary, equality ignores it


# --------------------------------------------------------------------------------------------
# Hypothesis: round trip over generated rule combinations
# --------------------------------------------------------------------------------------------

# Distances as written on datacards: whole or half inches.
distances = st.integers(min_value=0, max_value=48).map(lambda n: n / 2)
small = st.integers(min_value=1, max_value=6)
team_names = st.lists(
    st.text(
        alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-'", min_size=1, max_size=8
    ),
    min_size=1,
    max_size=3,
).map(" ".join)

rule_specs: st.SearchStrategy[WeaponRule] = st.one_of(
    st.builds(Accurate, small),
    st.builds(Lethal, st.integers(min_value=2, max_value=6)),
    st.builds(Limited, small),
    st.builds(Piercing, small),
    st.builds(PiercingCrits, small),
    st.builds(Devastating, small, st.none() | distances.filter(bool)),
    st.builds(Range, distances),
    st.builds(Blast, distances),
    st.builds(Torrent, distances),
    st.builds(Heavy, st.sampled_from([None, "Dash", "Reposition"])),
    st.builds(TeamRule, team_names),
    st.sampled_from(
        [
            Balanced(),
            Brutal(),
            Ceaseless(),
            Hot(),
            Punishing(),
            Relentless(),
            Rending(),
            Saturate(),
            Seek(),
            SeekLight(),
            Severe(),
            Shock(),
            Silent(),
            Stun(),
            Psychic(),
        ]
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(rule_specs, max_size=8))
def test_round_trip_property(specs: list[WeaponRule]) -> None:
    rules = WeaponRules(tuple(specs))
    text = rules.format()
    parsed = parse_weapon_rules(text)
    assert parsed == rules
    assert parsed.format() == text
    # The loose spellings (any case, extra spaces around commas) parse to the same thing.
    assert parse_weapon_rules(text.replace(", ", " ,  ")) == rules
    assert parse_weapon_rules(text.upper() if not rules.has(TeamRule) else text) == rules
