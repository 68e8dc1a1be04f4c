"""Generic adapters: one Gymnasium env over any solo Game (PettingZoo AEC adapter comes with Unearth)."""
