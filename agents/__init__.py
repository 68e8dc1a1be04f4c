"""Agents for tabletop-gym: the Agent protocol, random, heuristic, MCTS and MaskablePPO players, training and evaluation."""
