import sys, time, numpy as np
from envs.unbroken.rules import UnbrokenGame
from agents.heuristics.unbroken import UnbrokenHeuristicAgent
from collections import Counter
def play(game, agent, seed):
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    n=0
    while not s.is_terminal():
        if s.current_player() < 0:
            s.apply_action(s.sample_chance(rng))
        else:
            a = agent.act(None, s.legal_actions_mask(), s); s.apply_action(a); n+=1
    return s, n
N=int(sys.argv[1]) if len(sys.argv)>1 else 300
for preset in ("english","spanish"):
  for d in ("easy","normal","hard"):
    g = UnbrokenGame(difficulty=d, preset=preset); ag = UnbrokenHeuristicAgent(g)
    wins=0; levels=Counter(); reasons=Counter(); t=time.time(); scores=[]
    for i in range(N):
        s,n = play(g, ag, i)
        wins += s.outcome==1; levels[s.level]+=1; reasons[s.end_reason]+=1
        if s.outcome==1: scores.append(s.final_score())
    print(preset, d, f"win {wins/N:.2f}", dict(sorted(levels.items())), dict(reasons), f"score {np.mean(scores) if scores else 0:.1f}", f"{time.time()-t:.1f}s")
