"""Neither reads nor writes: how the collector's objects are shown (pages, API, websocket, CLI) and written out (grade files)."""
