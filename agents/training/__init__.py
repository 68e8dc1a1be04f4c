"""Training: the train command, MaskablePPO training (vec envs, callbacks, exact resume), imitation pretraining,
self-play snapshots of the learner, and the fitting of the games' value models."""
