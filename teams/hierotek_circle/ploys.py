"""The Hierotek Circle's strategy and firefight ploys
(registered by rule id in ``engine.rules.registry``).
"""
