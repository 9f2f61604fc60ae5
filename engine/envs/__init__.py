"""The AI researcher's front door: integer action codec, tensor observations and adapters to
reinforcement-learning frameworks (PettingZoo, Gymnasium, OpenSpiel).

Importing this package imports no framework library: the adapters that need one import it in
their own module (install them with ``pip install -e ".[rl]"``). :mod:`engine.envs.codec`
maps the engine's actions to integers of a fixed, published range and back;
:mod:`engine.envs.observation` gives one player's view as fixed-shape float32 arrays.
"""
