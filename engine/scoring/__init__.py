"""Scoring modules: one per game family, sharing the match's per-side tallies."""
