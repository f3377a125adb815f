"""Data formats and selection: CODAH TSV, answer spans, passages, near-duplicates."""
