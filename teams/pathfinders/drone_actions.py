"""The Pathfinders' drone unique actions (lane pf-core): Remote Pilot (Drone Controller),
Pulse Accelerator (MV31)."""

from __future__ import annotations
