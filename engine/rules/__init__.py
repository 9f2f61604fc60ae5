"""The rule-module framework (DESIGN.md "Growing the rules"): the registry of team rule
implementations keyed by stable rule ids, and the team rules each team declares.

See :mod:`engine.rules.registry`.
"""

from engine.rules.registry import (
    KINDS,
    RuleDeclaration,
    RuleImplementation,
    implementation,
    install,
    register,
    rule_id,
    team_key,
    team_rules,
    unimplemented_rules,
)

__all__ = [
    "KINDS",
    "RuleDeclaration",
    "RuleImplementation",
    "implementation",
    "install",
    "register",
    "rule_id",
    "team_key",
    "team_rules",
    "unimplemented_rules",
]
