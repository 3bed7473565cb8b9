"""The OpenAPI document: the schema plugins, the examples and the committed document.

- :mod:`.config`: the OpenAPI configuration (title, description, security, tags) and the
  docs page.
- :mod:`.plugins`: the schema plugins that make the code's docstrings the document's
  descriptions and tag every union with its discriminator; :mod:`.constraints`: what a
  field's ``Annotated`` type adds to its schema (a card's ``pattern``, bounds).
- :mod:`.operations`: what the document says of each operation (one module per resource),
  taken by the controllers with ``documented``.
- :mod:`.examples`: the example values and problem tables of every operation.
- :mod:`.document`: the document as committed in ``openapi/openapi.json``
  (``python -m spies_api.openapi``).

Who may import it: :mod:`spies_api.app` and :mod:`spies_api.http` (the routes' metadata);
it imports :mod:`spies_api.schemas`, :mod:`spies_api.settings` and :mod:`spies_api.problems`,
and only :mod:`.document` imports the app (to generate the document from it).
"""
