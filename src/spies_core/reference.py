"""What a client needs of a game's rule reference, as data: the rule behind each refusal and
each ending, and the rules' figures that a person is shown.

Each game's ``text.py`` (the game for people) defines its :class:`RuleReference` as
``REFERENCE``, citing its own rule reference (``docs/rules/<game>.md``) by section, and
:func:`spies_core.decider.assemble` puts it on the spec. The web client is generated from
it (``python -m spies_api.webdata``), so a rule renumbered or a figure changed is one edit
here, never a copy in the client.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["Figure", "RuleReference", "section"]

Figure = int | str | tuple[int, ...] | tuple[str, ...] | Mapping[str, int]
"""A figure of the rules: a number, a name, a list of them, or numbers by name."""


@dataclass(frozen=True, slots=True)
class RuleReference:
    """A game's rule reference, as data a client links to and quotes.

    Attributes:
        refusals: a rule error's ``code`` -> the citation of the rule it enforces, e.g.
            Black Spy's ``{"must-follow": "§5.2"}`` (a code the game does not raise has
            none).
        endings: an :attr:`spies_core.decider.Outcome.reason` -> the citation of the rule
            that ends the game that way.
        figures: the rules' figures a client shows or computes with, by a snake_case name,
            e.g. ``{"win_faces": 7}``.
    """

    refusals: Mapping[str, str] = field(default_factory=dict)
    endings: Mapping[str, str] = field(default_factory=dict)
    figures: Mapping[str, Figure] = field(default_factory=dict)


def section(citation: str) -> str:
    """The section number of a citation: Black Spy's ``"§5.2"`` -> ``"5.2"``.

    Raises:
        ValueError: not a section citation (``§`` and dotted numbers).
    """
    number = citation.removeprefix("§")
    if number == citation or not all(part.isdigit() for part in number.split(".")):
        raise ValueError(f"not a section citation: {citation!r}")
    return number
