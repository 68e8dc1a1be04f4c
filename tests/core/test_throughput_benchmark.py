"""benchmarks/throughput.py on a PettingZoo module: it runs and reports rates (timing itself is never asserted)."""

from __future__ import annotations

import re

import pytest

from benchmarks import throughput

MODULE = "envs.toys.card_duel_v0"


def test_throughput_times_a_pettingzoo_module_beside_connect_four(capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["--pettingzoo-module", MODULE, "--kwargs", "num_players=3", "--seconds", "0.2", "--rounds", "1"]
    assert throughput.main(arguments) == 0
    output = capsys.readouterr().out
    module_line = re.search(
        rf"^{re.escape(MODULE)}\(num_players=3\): ([\d,]+) steps/s, ([\d,.]+) games/s$", output, re.M
    )
    reference_line = re.search(r"^connect_four_v3: ([\d,]+) steps/s$", output, re.M)
    ratio_line = re.search(r"^ratio: (\d+\.\d+)x connect_four", output, re.M)
    assert module_line and reference_line and ratio_line, output
    rates = [*module_line.groups(), *reference_line.groups(), *ratio_line.groups()]
    assert all(float(rate.replace(",", "")) > 0 for rate in rates), output


def test_throughput_needs_a_game_or_a_module(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        throughput.main(["--seconds", "0.1"])
    assert stop.value.code == 2
    assert "give --game, --pettingzoo-module or both" in capsys.readouterr().err
