"""The Hierotek Circle's team equipment
(registered by rule id in ``engine.rules.registry``).
"""
