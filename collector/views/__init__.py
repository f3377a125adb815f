"""The collector's HTML pages, one module per concern."""
