"""A short MaskablePPO training run on the Gymnasium environment (issue 30): steps per second
and the learner's win rate against the random agent before and after training.

Needs ``pip install -e ".[rl]"`` and ``pip install sb3-contrib torch`` (the script says so and
exits with status 2 when they are missing).

Run: ``python benchmarks/train_maskable_ppo.py [--timesteps N] [--battles M] [--teams A B]
[--seed S]``. The learner is player A of :class:`engine.envs.gymnasium.KillTeamEnv`
against the opponent ``"random"`` (``reward="result"``: +1/-1/0 at the end), policy
``MultiInputPolicy`` over the observation's three arrays, actions masked with
``env.action_masks()``. Before and after ``N`` training steps (default 4096) the policy plays
``M`` battles (default 20, seeds 10_000 + i, the policy acting deterministically on the
mask) and the script prints wins, draws and losses with the Wilson 95% interval of the
win rate, then the training's environment steps per second (wall clock, one process,
learning included). Nothing is asserted: the figures go in the issue note.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from engine.batch import wilson_interval

try:
    import torch
    from sb3_contrib import MaskablePPO  # type: ignore[import-untyped,unused-ignore]
except ImportError as exc:  # pragma: no cover - depends on the installation
    print(
        f"this benchmark needs sb3-contrib and torch ({exc.name} is missing): "
        'pip install -e ".[rl]" sb3-contrib torch',
        file=sys.stderr,
    )
    raise SystemExit(2) from None

from engine.envs.gymnasium import KillTeamEnv


def evaluate(model: Any, teams: tuple[str, str], battles: int) -> tuple[int, int, int]:
    """Wins, draws and losses of ``model`` (player A) against the random agent over
    ``battles`` battles of seeds ``10_000 + i``."""
    env = KillTeamEnv("random", teams=teams)
    won = drawn = lost = 0
    for i in range(battles):
        obs, _ = env.reset(seed=10_000 + i)
        done = cut = False
        reward = 0.0
        while not (done or cut):
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, cut, _ = env.step(int(action))
        won += reward > 0
        drawn += reward == 0
        lost += reward < 0
    return won, drawn, lost


def report(label: str, wdl: tuple[int, int, int]) -> None:
    """Print one line of results."""
    won, drawn, lost = wdl
    n = won + drawn + lost
    lo, hi = wilson_interval(won, n)
    print(
        f"{label}: {won} won, {drawn} drawn, {lost} lost of {n}; win rate "
        f"{won / n:.2f} (95% CI {lo:.2f}-{hi:.2f})"
    )


def main() -> None:
    """Parse the arguments, evaluate, train, evaluate again (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timesteps", type=int, default=4096)
    parser.add_argument("--battles", type=int, default=20)
    parser.add_argument("--teams", nargs=2, default=["angels_of_death", "legionaries"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    teams = (args.teams[0], args.teams[1])
    torch.set_num_threads(1)
    env = KillTeamEnv("random", teams=teams)
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=512,
        batch_size=128,
        n_epochs=4,
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    print(f"teams {teams[0]} (learner, A) vs {teams[1]} (random agent, B)")
    report("before training", evaluate(model, teams, args.battles))
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.perf_counter() - start
    steps = model.num_timesteps
    print(f"trained {steps} steps in {seconds:.1f} s: {steps / seconds:.0f} steps/s")
    report("after training", evaluate(model, teams, args.battles))


if __name__ == "__main__":
    main()
