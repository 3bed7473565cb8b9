"""The codes of a command the rules refuse, any game's and each game's own: the texts of
their rows in ``docs/api.md`` (:data:`spies_api.problems.codes.ERROR_CODES` holds them in
order, with their statuses)."""

from __future__ import annotations

from typing import Final

from spies_api.problems import errors as api_errors
from spies_core import errors as core_errors

__all__ = ["RULE_CODES"]

RULE_CODES: Final[tuple[tuple[str, type[core_errors.SpiesError], str], ...]] = (
    # -- commands: any game -----------------------------------------------------------------
    (
        "wrong-game-command",
        api_errors.WrongGameCommandError,
        "A well-formed command of another game; `GET /games/{id}/legal` lists this game's.",
    ),
    ("not-your-turn", core_errors.NotYourTurnError, "The seat may not act now."),
    (
        "game-over",
        core_errors.GameOverError,
        "The game has ended: no command is accepted, nor a join, a hand-over or a take-back.",
    ),
    ("illegal-command", core_errors.RuleError, "A command the rules do not allow now."),
    ("unknown-card", core_errors.RuleError, "A card that does not exist in the game's deck."),
    ("card-not-in-hand", core_errors.RuleError, "A card that is not in the seat's hand."),
    # -- commands: Deck of Spies ------------------------------------------------------------
    ("duplicate-card", core_errors.RuleError, "A card given twice, or both used and retired."),
    (
        "insufficient-value",
        core_errors.RuleError,
        "No cards named, or cards that sum to less than the spy's value.",
    ),
    (
        "unnecessary-card",
        core_errors.RuleError,
        "A card the counter does not need: without it the cards still beat the spy.",
    ),
    (
        "wrong-suit",
        core_errors.RuleError,
        "A recruit with a card not of the spy's suit (and no double agent).",
    ),
    (
        "must-assassinate",
        core_errors.RuleError,
        "The hand cannot counter the spy: the only way on is to assassinate it.",
    ),
    ("not-an-ace", core_errors.RuleError, "Only an Ace can be sacrificed to assassinate a spy."),
    ("ace-not-available", core_errors.RuleError, "That Ace is discarded or removed, not owned."),
    (
        "assassination-not-allowed",
        core_errors.RuleError,
        "Assassination is allowed only when the hand cannot counter the spy.",
    ),
    (
        "retire-single-card",
        core_errors.RuleError,
        "A retire needs two or more cards of one value.",
    ),
    ("retire-mixed-ranks", core_errors.RuleError, "One retire is cards of one value only."),
    # -- commands: Black Spy ----------------------------------------------------------------
    ("wrong-pass-count", core_errors.RuleError, "A pass must be exactly three cards."),
    ("already-passed", core_errors.NotYourTurnError, "The seat has passed already this deal."),
    ("passing-not-over", core_errors.NotYourTurnError, "Cards are played once every seat passed."),
    (
        "must-follow",
        core_errors.RuleError,
        "The seat holds cards of the led colour or rank and must play one.",
    ),
    (
        "black-lead-first-trick",
        core_errors.RuleError,
        "The first trick may not be led with a black card.",
    ),
    # -- commands: Stratego Spies & Lies ----------------------------------------------------
    (
        "not-started",
        core_errors.GameNotStartedError,
        "The game has not started: it is waiting for players (nothing is dealt until its last"
        " open seat is taken).",
    ),
    ("not-deploy-phase", core_errors.RuleError, "Soldiers are deployed only in the deploy phase."),
    (
        "wrong-soldier-count",
        core_errors.RuleError,
        "A deploy of the wrong number of soldiers for the seat.",
    ),
    ("invalid-rank", core_errors.RuleError, "A soldier rank that is not 1 to 10."),
    ("duplicate-soldier", core_errors.RuleError, "The same soldier deployed twice."),
    ("soldier-exhausted", core_errors.RuleError, "The soldier is exhausted on this day."),
    ("soldier-not-in-hand", core_errors.RuleError, "The soldier is not in the side's hand."),
    (
        "deployment-out-of-order",
        core_errors.RuleError,
        "The deployment breaks the order the missions must read in.",
    ),
    (
        "deployment-not-completable",
        core_errors.RuleError,
        "The remaining soldiers could not complete the deployment.",
    ),
    (
        "not-intel-phase",
        core_errors.RuleError,
        "`mark_sergeant` and `confirm_intel` only in the intel phase.",
    ),
    ("no-sergeant-deployed", core_errors.RuleError, "No Sergeant to mark; send `confirm_intel`."),
    (
        "sergeant-choice-required",
        core_errors.RuleError,
        "The Sergeant is deployed: choose its mission before confirming intel.",
    ),
    ("not-guess-step", core_errors.RuleError, "A guess outside the guess step."),
    (
        "no-deception-token",
        core_errors.NotYourTurnError,
        "The side holds no deception token for that mission.",
    ),
    ("outside-deception-window", core_errors.NotYourTurnError, "No deception window is open now."),
    ("choice-not-offered", core_errors.RuleError, "A Marshal or Captain choice not offered now."),
    (
        "borrow-not-exhausted",
        core_errors.RuleError,
        "The borrowed soldier is not among the defender's exhausted soldiers.",
    ),
)
"""``(code, the exception class that carries it, meaning)`` of every rule code, grouped as in
``docs/api.md``."""
