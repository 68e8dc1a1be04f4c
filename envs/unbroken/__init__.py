"""Unbroken: solo survival card game (two printings as rule presets)."""
