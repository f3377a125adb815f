"""The collector's JSON API: one ``APIView`` per operation, one module per concern."""
