"""The Hierotek Circle's faction rules
(registered by rule id in ``engine.rules.registry``).
"""
