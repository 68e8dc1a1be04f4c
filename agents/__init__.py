"""Agents of tabletop-gym: the Agent protocol, random, heuristic, MCTS and MaskablePPO players, training, evaluation."""
