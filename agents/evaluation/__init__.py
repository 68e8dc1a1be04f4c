"""Evaluation: the env a config names, episodes of one agent, tournaments of several, ratings, result tables, the
evaluate command and terminal play."""
