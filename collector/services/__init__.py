"""Writes of the collector, one module per concern (``services/<concern>.py``)."""
