"""Rules-core replay records (envs/core/replays.py) and their replayer (`python -m envs.replay`), on Card Duel."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from envs import replay as replay_cli
from envs.adapters.opponents import OpponentEnv
from envs.adapters.pettingzoo_env import TabletopAECEnv
from envs.core.game import CHANCE
from envs.core.replays import (
    ReplayError,
    ReplayFormatError,
    ReplayRecord,
    build_record,
    parse_record,
    read_record,
    record_json,
    replay,
    write_record,
)
from envs.toys.card_duel import BLAME_BASE, DECK_SIZE, CardDuelGame
from envs.toys.card_duel_heuristic import CardDuelHeuristic
from tests.toys.summit import SummitCoopGame

REPO_ROOT = Path(__file__).resolve().parents[2]
ENV_ID = "envs.toys:tabletop/card_duel_v0"
"""Card Duel's PettingZoo id, named with the package that registers it."""


class FirstLegal:
    """The learner of these tests: always the lowest legal action (deterministic, so every game is a fixture)."""

    def act(self, observation: object, action_mask: np.ndarray, state: object | None = None) -> int:
        """The lowest legal action."""
        return int(np.flatnonzero(action_mask)[0])


def played_game(seed: int = 7, start: dict | None = None) -> tuple[OpponentEnv, ReplayRecord]:
    """A 3-seat Card Duel: seat 0 by FirstLegal, seats 1 and 2 by the heuristic, through the opponent env."""
    game = CardDuelGame(num_players=3)
    env = OpponentEnv(game, [CardDuelHeuristic(game)], learner_seats=0)
    observation, _ = env.reset(seed=seed, options=None if start is None else {"state": start})
    terminated = False
    while not terminated:
        observation, _, terminated, _, _ = env.step(FirstLegal().act(observation, observation["action_mask"]))
    assert env.state is not None
    record = build_record(
        game,
        env.history,
        env.state,
        env_id=ENV_ID,
        game_kwargs={"num_players": 3},
        seed=seed,
        start_state=env.start_state,
        players=["first legal", "heuristic", "heuristic"],
    )
    return env, record


def test_a_three_player_game_replays_exactly_from_json_on_disk(tmp_path: Path) -> None:
    """Every decision and chance outcome is recorded; replaying the file reaches the same state and returns."""
    env, record = played_game()
    path = write_record(record, tmp_path / "game.json")
    loaded = read_record(path)
    assert loaded == record
    assert json.loads(path.read_text())["format"] == "tabletop-gym replay"
    seats = {player for player, _ in loaded.events}
    assert seats == {CHANCE, 0, 1, 2}  # chance (deal, lead draws) and every seat's decisions
    final = replay(loaded)
    assert env.state is not None
    assert final.to_dict() == env.state.to_dict()
    assert loaded.result is not None and final.returns() == loaded.result.returns == env.state.returns()
    assert loaded.result.terminal and loaded.result.scores == [float(p) for p in env.state.to_dict()["points"]]


def test_a_game_started_from_a_set_position_replays_from_it() -> None:
    """A record keeps the start position (reset(options={"state": ...})) and replays from there."""
    whole, whole_record = played_game(seed=3)
    state = CardDuelGame(num_players=3).new_initial_state()
    for _, action in whole.history[:20]:  # the deal, the first lead draw and a few plays: mid-game
        state.apply_action(action)
    start = state.to_dict()
    env, record = played_game(seed=11, start=start)
    assert record.start_state == start and env.start_state == start
    assert len(record.events) < len(whole_record.events) and record.events[0][0] != CHANCE  # no deal this time
    assert env.state is not None and replay(record).to_dict() == env.state.to_dict()
    with pytest.raises(ReplayError, match=r"^step 1: the record has seat \d acting"):
        replay(record.model_copy(update={"start_state": None}))  # from the setup the same events cannot happen


def test_events_show_labels_taken_before_each_event_and_the_chosen_view() -> None:
    """Chance outcomes are labelled by the state they happen in, as the chosen view may see them (Card Duel rule 1:
    hands are private); decisions carry the chosen view's text after them."""
    _, record = played_game()
    shown = []
    replay(record, view=1, show=shown.append)
    assert [event.step for event in shown] == list(range(1, len(record.events) + 1))
    first, second = shown[0], shown[1]
    assert (first.player, first.text) == (CHANCE, None)
    assert first.label == "a card is dealt to seat 0"  # seat 1 does not see seat 0's card
    assert second.label == f"deal card {second.action} (rank {second.action // 2 + 1}) to seat 1"
    omniscient: list = []
    replay(record, view="omniscient", show=omniscient.append)
    assert omniscient[0].label == f"deal card {first.action} (rank {first.action // 2 + 1}) to seat 0"
    lead_draw = shown[12]  # 4 cards to each of 3 seats, then who leads
    assert lead_draw.label == f"seat {lead_draw.action} leads"
    decision = next(event for event in shown if event.player != CHANCE)
    assert decision.text is not None and decision.text.startswith("card duel (seat 1)")
    omniscient: list = []
    replay(record, view="omniscient", show=omniscient.append)
    assert all("[state]" in event.text for event in omniscient if event.player != CHANCE)


def test_a_tampered_record_fails_naming_the_step() -> None:
    """Rule 3 (play a card from your hand) and the turn order are checked at every step; the result at the end."""
    _, record = played_game()
    events = list(record.events)
    step = next(index for index, (player, _) in enumerate(events) if player == 1)
    player, action = events[step]
    state = CardDuelGame(num_players=3).new_initial_state()
    for _, earlier in events[:step]:
        state.apply_action(earlier)
    illegal = next(card for card in range(DECK_SIZE) if card not in state.legal_actions())  # not in seat 1's hand
    events[step] = (player, illegal)
    tampered = record.model_copy(update={"events": events})
    with pytest.raises(ReplayError, match=rf"^step {step + 1}: seat 1: illegal action {illegal} \(play card"):
        replay(tampered)
    events[step] = (2, action)  # the right card, the wrong seat
    with pytest.raises(ReplayError, match=rf"^step {step + 1}: the record has seat 2 acting .* but seat 1 is"):
        replay(record.model_copy(update={"events": events}))
    events = list(record.events)
    events[0] = (CHANCE, 99)  # no such card in the deck
    with pytest.raises(ReplayError, match=r"^step 1: chance: illegal action 99 \(chance outcome 99\)"):
        replay(record.model_copy(update={"events": events}))
    assert record.result is not None
    other = record.result.model_copy(update={"returns": [1.0, 1.0, 1.0]})
    with pytest.raises(ReplayError, match=r"differs from the record: returns: recorded \[1.0, 1.0, 1.0\]"):
        replay(record.model_copy(update={"result": other}))
    with pytest.raises(ReplayError, match=r"step \d+: the record has seat 0 acting .* nobody \(the game is over\)"):
        replay(record.model_copy(update={"events": [*record.events, (0, BLAME_BASE)]}))


def test_bad_files_are_errors_naming_the_file_and_the_field(tmp_path: Path) -> None:
    _, record = played_game()
    document = json.loads(record_json(record))
    cases = [
        ({**document, "events": [[-1, 3], [0, "x"]]}, "events[1][1]: expected an integer"),
        ({key: value for key, value in document.items() if key != "game"}, "game: missing required field"),
        ({**document, "version": 2}, "version: expected 1, got 2 (written by a newer version"),
        ({**document, "format": "something"}, "format: expected 'tabletop-gym replay'"),
        ({"env_id": ENV_ID, "seed": 1, "actions": [1, 2]}, "format: old format"),
    ]
    for data, message in cases:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(data))
        with pytest.raises(ReplayFormatError, match="^" + re.escape(f"{path}: {message}")):
            read_record(path)
    with pytest.raises(ReplayFormatError, match="not valid JSON"):
        parse_record("{", "x.json")
    with pytest.raises(ReplayError, match="unknown game 'chess'"):
        replay(record.model_copy(update={"env_id": None, "game": "chess"}))
    with pytest.raises(ReplayError, match="game_kwargs: card_duel rejects"):
        replay(record.model_copy(update={"game_kwargs": {"num_players": 9}}))


def test_the_pettingzoo_env_exposes_a_history_that_replays() -> None:
    """The AEC env's `history` and `start_state` are the same record source as the Gymnasium adapters'."""
    game = CardDuelGame(num_players=2)
    env = TabletopAECEnv(game)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert isinstance(env.history, tuple) and env.start_state is None
    assert env.game_state is not None
    record = build_record(game, env.history, env.game_state, env_id=None, game_kwargs={"num_players": 2})
    assert replay(record).returns() == env.game_state.returns()


def test_the_replayer_imports_the_package_named_by_the_env_id_in_a_fresh_process(tmp_path: Path) -> None:
    """`python -m envs.replay` on a record of a game registered outside envs/ ("package:id") imports the package."""
    _, record = played_game()
    path = write_record(record, tmp_path / "game.json")
    command = [sys.executable, "-m", "envs.replay", str(path), "--view", "seat", "2"]
    result = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert "--- step 1/" in result.stdout and ": chance: deal card" in result.stdout
    # Seat 2's view names its own cards only (Card Duel rule 1: hands are private).
    assert re.search(r"deal card \d+ \(rank \d+\) to seat [01]", result.stdout) is None
    assert "a card is dealt to seat 0" in result.stdout
    assert "seat 1 (heuristic): play card" in result.stdout and "card duel (seat 2)" in result.stdout
    assert result.stdout.rstrip().endswith("the replay matches the record")
    write_record(record.model_copy(update={"env_id": "tabletop/card_duel_v0"}), path)  # no package: not registered
    result = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 1 and result.stderr.startswith("error: no game declares the env id")
    assert result.stderr.count("\n") == 1


def test_the_replayer_cli_rejects_a_view_of_a_missing_seat(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    _, record = played_game()
    path = write_record(record, tmp_path / "game.json")
    assert replay_cli.main([str(path), "--view", "seat", "3"]) == 1
    assert capsys.readouterr().err == "error: view: the game has seats 0..2, not seat 3\n"
    assert replay_cli.main([str(path), "--view", "omniscient", "--render", "none"]) == 0
    assert "[state]" not in capsys.readouterr().out  # --render none: the events only


@pytest.mark.parametrize(
    ("game_kwargs", "message"),
    [
        ({"num_players": 9}, "GameSpec.num_players: 9 is outside 2..4"),
        ({"num_players": 3, "speed": "fast"}, "unexpected keyword argument 'speed'"),
        ({"num_players": 3, "reward": "score"}, "unexpected keyword argument 'reward'"),  # an adapter's kwarg
    ],
)
def test_the_replayer_cli_refuses_bad_game_kwargs_with_one_line(
    game_kwargs: dict, message: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    _, record = played_game()
    path = write_record(record.model_copy(update={"game_kwargs": game_kwargs}), tmp_path / "game.json")
    assert replay_cli.main([str(path), "--render", "none"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"error: game_kwargs: card_duel rejects {game_kwargs}: ") and message in error
    assert error.count("\n") == 1


def test_a_cooperative_game_of_a_solo_and_coop_record_replays_from_its_env_id(tmp_path: Path) -> None:
    """A record whose game has a solo Gymnasium id and a co-op PettingZoo module (Summit) replays a co-op game by the
    game its env id builds, not by the record's solo default: recorded with no kwargs (as `play --record` does), the
    co-op module's default of 2 seats replays, not the solo game's 1."""
    game = SummitCoopGame()
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    history: list[tuple[int, int]] = []
    while not state.is_terminal():
        player = state.current_player()
        action = state.sample_chance(rng) if player == CHANCE else int(rng.choice(state.legal_actions()))
        history.append((player, action))
        state.apply_action(action)
    record = build_record(game, history, state, env_id="tabletop/summit_coop_v0", game_kwargs={}, players=["a", "b"])
    replayed = replay(read_record(write_record(record, tmp_path / "coop.json")))
    assert replayed.to_dict() == state.to_dict()


def test_a_record_under_a_former_game_name_still_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: the combat's record was renamed (`runebound` -> `runebound_combat`); old replays "still load (a
    one-line alias)": a replay naming the former name with the combat's env id replays exactly; since issue 34 the
    board game holds the name `runebound` (a current name wins over a former one), so only the env id routes an old
    combat replay; a name no game held is still refused."""
    import gymnasium as gym

    from envs.core import registration

    env = gym.make("tabletop/RuneboundCombat-v0")
    env.reset(seed=3)
    terminated = truncated = False
    rng = np.random.default_rng(3)
    while not (terminated or truncated):
        mask = env.unwrapped.state.legal_actions_mask()  # type: ignore[attr-defined]
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
    game = env.unwrapped.game  # type: ignore[attr-defined]
    final = env.unwrapped.state  # type: ignore[attr-defined]
    for env_id in ("tabletop/RuneboundCombat-v0",):
        record = build_record(
            game,
            env.unwrapped.history,
            final,
            env_id=env_id,
            game_kwargs={},
            seed=3,  # type: ignore[attr-defined]
            start_state=env.unwrapped.start_state,  # type: ignore[attr-defined]
        )
        old = record.model_copy(update={"game": "runebound"})
        assert replay(parse_record(record_json(old))).to_dict() == final.to_dict()
    assert registration.game_record("runebound").name == "runebound"
    with pytest.raises(ReplayError, match="the record names 'unbroken'"):
        replay(record.model_copy(update={"game": "unbroken", "env_id": "tabletop/RuneboundCombat-v0"}))
    combat = registration.game_record("runebound_combat")
    pitch = registration.game_record("pitch")
    impostor = registration.GameRecord(
        "climb", "x", gym_envs=(registration.GymEnvRecord("t/C-v0", "x:y"),), former_names=("pitch",)
    )
    monkeypatch.setattr(registration, "registered_games", lambda: {"climb": impostor, "pitch": pitch, "c": combat})
    assert registration.game_record("pitch") is pitch  # the current holder of a name wins
