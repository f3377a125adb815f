"""Dataset releases in the Hugging Face format, without Django: licenses, splits, pseudonyms,
the dataset card and the Parquet files (``evaluation/release_services.py`` does the ORM part)."""
