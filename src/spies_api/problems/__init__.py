"""Errors as the API answers them: RFC 9457 problem details with a stable ``code``.

- :mod:`.errors`: the errors the API layer itself raises (bad requests, authentication,
  seats) and the one table from every exception to a problem document.
- :mod:`.codes`: the catalogue of every code with its status and meaning (the table of
  ``docs/api.md``); the rows of the rules' codes are in :mod:`.rule_codes`.
- :mod:`.hints`: what to send instead, added to a refusal's ``detail``.

Who may import it: every other part of :mod:`spies_api`; it imports only
:mod:`spies_api.schemas` and :mod:`spies_api.settings` of the API, and the packages below.
"""
