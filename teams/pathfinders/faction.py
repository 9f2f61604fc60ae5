"""The Pathfinders' faction rules
(registered by rule id in ``engine.rules.registry``).
"""
