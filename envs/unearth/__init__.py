"""Unearth: 2-4 players, dice placement, hex-ring wonders (in progress; not registered yet)."""
