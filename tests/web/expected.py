"""What the web tests expect the pages to say, shared by the tests of a page's behaviour and
the screenshots of it (a test module imports no other test module)."""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "web" / "src" / "rules"

GAMES = ("deck-of-spies", "black-spy", "spies-and-lies")

NESTED = re.compile(r"\([^()]*\(")

DEAD_END_WORDS = {
    "en": {
        "unknown": ("No such game", "This server has no game", "Start a new game in the lobby"),
        "down": ("The server does not answer", "cannot reach its server", "Try again"),
    },
    "de": {
        "unknown": (
            "Dieses Spiel gibt es nicht",
            "Dieser Server hat kein Spiel",
            "In der Lobby ein neues Spiel anlegen",
        ),
        "down": ("Der Server antwortet nicht", "erreicht ihren Server nicht", "Noch einmal"),
    },
}

LOST = {
    "en": {
        "title": "You are watching as a spectator",
        "none": "This browser holds no seat of this game",
        "refused": "The server refused the key this browser kept for seat 2",
        "link": "The server refused this seat link",
        "watch": "Anyone can watch a game",
        "forward": "open the private link of your seat",
    },
    "de": {
        "title": "Du schaust als Zuschauer zu",
        "none": "Dieser Browser hält keinen Platz in diesem Spiel",
        "refused": "Der Server hat den Schlüssel abgelehnt, den dieser Browser für Platz 2 hatte",
        "link": "Der Server hat diesen Platz-Link abgelehnt",
        "watch": "Jedes Spiel kann man ansehen",
        "forward": "öffne den privaten Link deines Platzes",
    },
}

OVER = {
    "en": ("This game is over: no move can be made in it any more.", "Watch the rematch"),
    "de": ("Dieses Spiel ist vorbei: hier kann niemand mehr ziehen.", "Revanche ansehen"),
}
