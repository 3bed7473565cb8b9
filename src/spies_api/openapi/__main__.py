"""``python -m spies_api.openapi > openapi/openapi.json``: write the app's OpenAPI document."""

from spies_api.openapi.document import main

main()
