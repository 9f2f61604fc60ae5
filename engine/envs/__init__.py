"""Environments for learning agents (issue 30): action codec, tensor observations, adapters."""
