"""Mariage: engine, observation and PettingZoo env (``mariage_v1``)."""
