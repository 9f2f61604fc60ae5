"""The Hierotek Circle's operatives' abilities
(registered by rule id in ``engine.rules.registry``).
"""
