"""Django-free ML core of Stumper: CODAH data, scorers, fine-tuning and live-draft batching."""
