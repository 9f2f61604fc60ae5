"""The Pathfinders' unique actions
(registered by rule id in ``engine.rules.registry``).
"""
