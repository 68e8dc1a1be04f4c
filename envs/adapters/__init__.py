"""Generic adapters over any Game: the shared GameDriver, the Gymnasium env (solo) and the PettingZoo AEC env."""
