"""Bias probes: lexical artifacts, label balance, reweighting, ambiguity and gender, the coach."""
