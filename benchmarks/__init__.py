"""Benchmarks of tabletop-gym (throughput, balance, reference table, MCTS curve), run as modules from the repo root:
`python -m benchmarks.balance --game GAME`. Each takes the game as an argument and reads its registration record."""
