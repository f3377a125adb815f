"""JSON API of the annotation app: one DRF ``APIView`` per operation, one module per concern."""
