"""The features extractors' former module path, kept for saved models: stable-baselines3 pickles a model's
`features_extractor_class` by module path, so the models of runs trained before the extractors moved to
agents/common/extractors.py name `agents.extractors.SeatGridExtractor` (or `EntityExtractor`) and load through this
alias. New code imports agents.common.extractors."""

from agents.common.extractors import EntityExtractor, SeatGridExtractor

__all__ = ["EntityExtractor", "SeatGridExtractor"]
