"""The Pathfinders' drone rules (lane pf-core): Drone, Drone Controller, Analyse,
Grav-Inhibitor, High-Intensity Markerlight (MV7), Shield Generator."""

from __future__ import annotations
