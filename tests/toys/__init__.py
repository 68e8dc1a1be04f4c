"""Toy games on the rules-core contract, small enough to test the adapters on (not registered games)."""
