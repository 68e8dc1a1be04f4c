"""The shared rules core: Game/State contract, chance, components, actions, observations, data, testing."""
