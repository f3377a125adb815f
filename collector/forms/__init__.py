"""Forms of the collector's HTML pages, one module per concern."""
