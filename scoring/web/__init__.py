"""The web layer of scoring: the score sheet's pages and forms, the REST API and its serializers,
the live pages, the chief referee's hall and the live stream (SSE). Views here call the services
below and repeat none of their logic."""
