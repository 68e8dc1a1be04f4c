"""What was saved before agents/ was grouped into rooms: models naming the former extractor path still load, and a
checkpoint's resume state naming a class that is no longer there is ignored (the run resumes approximately)."""

from __future__ import annotations

import pickle
import zipfile
from pathlib import Path

import pytest

from agents.common.extractors import EntityExtractor, SeatGridExtractor
from agents.training.resume import RESUME_STATE_MEMBER, read_resume_state


@pytest.mark.parametrize("extractor", [SeatGridExtractor, EntityExtractor])
def test_the_former_extractor_path_unpickles_to_the_extractor(extractor: type) -> None:
    # sb3 pickles policy_kwargs' features_extractor_class by reference: module path and class name.
    pickled = f"cagents.extractors\n{extractor.__name__}\n.".encode()
    assert pickle.loads(pickled) is extractor


@pytest.mark.parametrize(
    "reference",
    ["agents.no_such_room.resume\nResumeState", "agents.training.resume\nNoSuchState"],
    ids=["module gone", "class gone"],
)
def test_a_resume_state_naming_a_class_no_longer_there_is_ignored(tmp_path: Path, reference: str) -> None:
    checkpoint = tmp_path / "model_8_steps.zip"
    with zipfile.ZipFile(checkpoint, "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr(RESUME_STATE_MEMBER, f"c{reference}\n.".encode())
    assert read_resume_state(checkpoint) is None
