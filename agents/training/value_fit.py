"""Fit a game's value model (agents/players/value_model.py) to its heuristic's play, and write
agents/players/value_models/<game>.npz.

    python -m agents.training.value_fit --game GAME --episodes 3000 --seed 1000000

The heuristic plays every seat of `--episodes` games, spread evenly over every combination of the game's settings
(on its eval config's other env kwargs); episode i starts from `env.reset(seed=SEED + i)` and samples chance from a
generator seeded with SEED + i. Every decision gives one example: the acting seat's observation, labelled with that
seat's final return. The last `--holdout` share of the games is kept aside to choose the epoch and to report the
fit (log loss and Brier score beside a constant guess). Seeded: the same command writes the same weights on one
machine.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.common.config import load_eval_config
from agents.evaluation.environment import make_env
from agents.evaluation.evaluate_cli import game_eval_config
from agents.players.registry import make_heuristic_agent
from agents.players.value_model import ValueModel, value_model_path
from envs.core.registration import game_record


@dataclass
class Examples:
    """Observations, their labels (win probability targets in [0, 1]) and the game each comes from."""

    observations: np.ndarray
    targets: np.ndarray
    games: np.ndarray


def setting_combinations(game_name: str) -> list[dict[str, Any]]:
    """The eval config's env kwargs with every combination of the game's settings."""
    record = game_record(game_name)
    base = dict(load_eval_config(game_eval_config(game_name)).env.kwargs)
    return [{**base, **setting} for setting in record.setting_combinations()]


def collect_examples(game_name: str, episodes: int, seed: int) -> Examples:
    """Play `episodes` heuristic games over the setting combinations; one example per decision."""
    record = game_record(game_name)
    assert record.primary_env_id is not None, f"{game_name} has no Gymnasium env"
    combinations = setting_combinations(game_name)
    envs = [make_env(record.primary_env_id, kwargs) for kwargs in combinations]
    heuristics = [make_heuristic_agent(env.unwrapped.game) for env in envs]  # type: ignore[attr-defined]
    rows: list[np.ndarray] = []
    targets: list[float] = []
    games: list[int] = []
    for episode in range(episodes):
        which = episode % len(envs)
        env, heuristic = envs[which], heuristics[which]
        env.reset(seed=seed + episode)
        state = env.unwrapped.state.clone()  # type: ignore[attr-defined]
        game = state.game
        rng = np.random.default_rng(seed + episode)
        seats: list[int] = []
        for _ in range(game.spec.max_game_length):
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            if state.is_terminal():
                break
            player = state.current_player()
            rows.append(game.observer(player).tensor(state))
            seats.append(player)
            state.apply_unchecked(heuristic.act(None, state.legal_actions_mask(), state))
        returns = state.returns() if state.is_terminal() else [0.0] * game.spec.num_players
        targets.extend((returns[seat] + 1.0) / 2.0 for seat in seats)
        games.extend([episode] * len(seats))
    for env in envs:
        env.close()
    return Examples(np.asarray(rows, dtype=np.float32), np.asarray(targets), np.asarray(games))


def log_loss(probabilities: np.ndarray, targets: np.ndarray) -> float:
    """Mean binary cross-entropy."""
    p = np.clip(probabilities, 1e-7, 1 - 1e-7)
    return float(-np.mean(targets * np.log(p) + (1 - targets) * np.log(1 - p)))


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def fit_value_model(
    examples: Examples,
    hidden: int = 64,
    epochs: int = 8,
    batch_size: int = 512,
    learning_rate: float = 3e-4,
    weight_decay: float = 1e-2,
    holdout: float = 0.1,
    seed: int = 0,
) -> tuple[ValueModel, dict[str, float]]:
    """Adam on the cross-entropy of the win probability; returns the best epoch's model on the held-out games."""
    rng = np.random.default_rng(seed)
    games = np.unique(examples.games)
    cut = games[int(len(games) * (1 - holdout))]
    train = np.flatnonzero(examples.games < cut)
    held = np.flatnonzero(examples.games >= cut)
    x_all, y_all = examples.observations, examples.targets
    x_held, y_held = x_all[held].astype(np.float64), y_all[held]
    inputs = x_all.shape[1]
    base_rate = float(np.clip(y_all[train].mean(), 1e-3, 1 - 1e-3))
    params = {
        "w1": rng.normal(0.0, math.sqrt(2.0 / inputs), (inputs, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0.0, math.sqrt(1.0 / hidden), hidden),
        "b2": np.array(math.log(base_rate / (1 - base_rate))),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0

    def model_of(p: dict[str, np.ndarray]) -> ValueModel:
        return ValueModel(p["w1"].copy(), p["b1"].copy(), p["w2"].copy(), float(p["b2"]))

    best_model, best_loss, best_epoch = model_of(params), math.inf, 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(train)
        for start in range(0, len(order), batch_size):
            index = order[start : start + batch_size]
            x, y = x_all[index].astype(np.float64), y_all[index]
            pre = x @ params["w1"] + params["b1"]
            h = np.maximum(pre, 0.0)
            p = _sigmoid(h @ params["w2"] + params["b2"])
            dz = (p - y) / len(index)
            dh = np.outer(dz, params["w2"]) * (pre > 0)
            grads = {
                "w1": x.T @ dh + weight_decay * params["w1"],
                "b1": dh.sum(axis=0),
                "w2": h.T @ dz + weight_decay * params["w2"],
                "b2": np.array(dz.sum()),
            }
            step += 1
            for key, grad in grads.items():
                m, v = moments[key]
                m *= beta1
                m += (1 - beta1) * grad
                v *= beta2
                v += (1 - beta2) * grad * grad
                m_hat = m / (1 - beta1**step)
                v_hat = v / (1 - beta2**step)
                params[key] = params[key] - learning_rate * m_hat / (np.sqrt(v_hat) + eps)
        held_loss = log_loss(_sigmoid(model_of(params).logits(x_held)), y_held)
        print(f"epoch {epoch}: held-out log loss {held_loss:.4f}", flush=True)
        if held_loss < best_loss:
            best_model, best_loss, best_epoch = model_of(params), held_loss, epoch
    held_p = _sigmoid(best_model.logits(x_held))
    report = {
        "examples": float(len(train)),
        "held_out_examples": float(len(held)),
        "best_epoch": float(best_epoch),
        "held_out_log_loss": best_loss,
        "held_out_log_loss_constant": log_loss(np.full(len(held), base_rate), y_held),
        "held_out_brier": float(np.mean((held_p - y_held) ** 2)),
        "held_out_brier_constant": float(np.mean((base_rate - y_held) ** 2)),
    }
    return best_model, report


def build_parser() -> argparse.ArgumentParser:
    """The command line of the fit."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="registered game with a heuristic and a Gymnasium env")
    parser.add_argument("--episodes", type=int, default=3000, help="heuristic games to learn from")
    parser.add_argument("--seed", type=int, default=1_000_000, help="episode i uses seed SEED + i")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units")
    parser.add_argument("--epochs", type=int, default=8, help="passes over the training games")
    parser.add_argument("--learning-rate", type=float, default=3e-4, help="Adam's step size")
    parser.add_argument("--weight-decay", type=float, default=1e-2, help="L2 penalty on the weights")
    parser.add_argument("--holdout", type=float, default=0.1, help="share of the games kept aside")
    parser.add_argument("--out", type=Path, default=None, help="where to write (default: the shipped model's path)")
    parser.add_argument("--examples", type=Path, default=None, help="examples .npz: read if it exists, else written")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Collect, fit, report and write the model."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    start = time.monotonic()
    if args.examples is not None and args.examples.is_file():
        with np.load(args.examples) as data:
            examples = Examples(data["observations"], data["targets"], data["games"])
    else:
        examples = collect_examples(args.game, args.episodes, args.seed)
        if args.examples is not None:
            np.savez(args.examples, observations=examples.observations, targets=examples.targets, games=examples.games)
    seconds = time.monotonic() - start
    print(f"{len(examples.targets)} examples from {args.episodes} games in {seconds:.0f} s", flush=True)
    model, report = fit_value_model(
        examples,
        hidden=args.hidden,
        epochs=args.epochs,
        learning_rate=args.learning_rate,
        weight_decay=args.weight_decay,
        holdout=args.holdout,
    )
    out = args.out or value_model_path(args.game)
    model.save(out)
    print(", ".join(f"{key} {value:.4g}" for key, value in report.items()))
    print(f"wrote {out} ({time.monotonic() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
