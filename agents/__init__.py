"""Agents of tabletop-gym, in rooms: players/ (the Agent protocol, random, MCTS, lookahead, saved models, the
registry of spec strings), heuristics/ (each game's heuristic), training/ (MaskablePPO, imitation, self-play, the
train command), evaluation/ (episodes, tournaments, ratings, the evaluate command, terminal play), rllib/ (the Ray
RLlib route) and common/ (configs, run directories, features extractors)."""
