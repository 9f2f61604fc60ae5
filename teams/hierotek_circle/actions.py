"""The Hierotek Circle's unique actions
(registered by rule id in ``engine.rules.registry``).
"""
