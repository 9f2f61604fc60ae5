"""The AI researcher's front door (``docs/AI.md``): integer action codec, tensor observations
and adapters to reinforcement-learning frameworks.

- :mod:`engine.envs.codec`: the engine's actions as integers of a fixed, published range and
  back, with exact masks; chance outcomes as integers with exact probabilities.
- :mod:`engine.envs.observation`: one player's view as fixed-shape float32 arrays.
- :mod:`engine.envs.core`: a battle driven by integer actions (seeded dice, rewards), shared
  by the adapters.
- :mod:`engine.envs.pettingzoo`, :mod:`engine.envs.gymnasium`, :mod:`engine.envs.openspiel`:
  the adapters (``pip install -e ".[rl]"``).

Importing this package, the codec, the observations or the core imports no framework library:
each adapter imports its framework in its own module.
"""
