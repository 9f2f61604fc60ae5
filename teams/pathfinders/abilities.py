"""The Pathfinders' operatives' abilities
(registered by rule id in ``engine.rules.registry``).
"""
