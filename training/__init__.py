"""Training scripts (``taas.training``), one file per method in CleanRL style, and what they share
(:mod:`taas.training.common`)."""
