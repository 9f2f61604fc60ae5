"""The Kasrkin's team rules that the engine plays, registered by rule id
(``engine.rules.registry``)."""

from engine.rules.registry import register
from engine.rules.team_weapon_rules import install_concealed_position

register(
    "kasrkin/weapon_rule/concealed_position",
    install_concealed_position,
    "The weapon can only be used in the operative's first Shoot action of the battle.",
)
