"""Players: the Agent protocol and the agents that pick actions (random, MCTS, lookahead, saved MaskablePPO models,
self-play snapshots), the learned value models MCTS reads, and the registry that builds any of them from a spec
string. Each game's heuristic lives in agents/heuristics/, named by the game's record."""
