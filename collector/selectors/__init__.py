"""Reads of the collector, one module per concern (``selectors/<concern>.py``)."""
