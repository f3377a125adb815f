"""Neural models: loading, scoring, live inference engines and caches, fine-tuning, cross-validation."""
