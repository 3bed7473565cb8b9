"""What runs a table on the server: seats (joins, hand-overs, rematches) and the bots.

Who may import it: :mod:`spies_api.http` and :mod:`spies_api.app`; it imports
:mod:`spies_api.service` (a bot's move is a command like any other),
:mod:`spies_api.problems`, :mod:`spies_api.schemas` and :mod:`spies_api.settings`.
"""
