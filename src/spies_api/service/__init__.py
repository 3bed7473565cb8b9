"""What the API does, between HTTP and the replay log: commands, reads, callers, wake-ups.

Who may import it: :mod:`spies_api.http`, :mod:`spies_api.table` and :mod:`spies_api.app`;
it imports :mod:`spies_api.problems`, :mod:`spies_api.schemas` and
:mod:`spies_api.settings` of the API, never :mod:`spies_api.http` (it knows no HTTP).
"""
