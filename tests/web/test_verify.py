"""The replay page verifies a finished game's export in the browser (web/src/verify/).

A game played over the API and an imported one (bots, a clock, forced moves, a hand-over)
verify; an export tampered with on its way (served by a route the test controls) shows the
first failing seq; only the replay page loads the verifier's bundle; the receipts the
browser kept of a game it played are checked against the log.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
from playwright.sync_api import Page, Request, Route, expect

from tests.support.waiting import until
from tests.web.helpers import create_in_lobby, finish_over_the_api, play_moves, summary, version

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "protocol" / "vectors" / "exports"
VERIFY_JS = "/assets/web/verify.js"


def imported(base: str, db: Path, name: str) -> str:
    """The id of a vector export imported into the server's database (as an operator would)."""
    path = VECTORS / f"{name}.jsonl"
    game_id = "vector-" + name
    if httpx.get(f"{base}/games/{game_id}").status_code == 404:
        tool = Path(sys.executable).parent / "spies-replay"
        done = subprocess.run(
            [str(tool), "--db", str(db), "import", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    return game_id


def verdict_of(page: Page) -> tuple[str | None, str | None, str]:
    """The replay page's verdict once it is in: data-ok, data-seq and its words."""
    found = page.wait_for_selector("[data-testid='verify-verdict'][data-ok]", state="attached")
    assert found is not None
    return found.get_attribute("data-ok"), found.get_attribute("data-seq"), found.inner_text()


def test_a_played_game_verifies_in_the_browser(page: Page, base: str) -> None:
    created = finish_over_the_api(base, "deck-of-spies", 1, "web-verify-1")
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))

    page.goto(f"{base}/")
    page.wait_for_selector("#app h1")
    assert not any(url.endswith(VERIFY_JS) for url in requested), "the lobby loaded the verifier"

    page.goto(f"{base}/replay/{created['id']}")
    ok, seq, words = verdict_of(page)
    assert (ok, seq) == ("true", "")
    assert "Verified in this browser" in words
    assert any(url.endswith(VERIFY_JS) for url in requested)

    page.locator(".lang-switch").click()  # stores the choice and loads the page again
    expect(page.get_by_test_id("verify-verdict")).to_contain_text("In diesem Browser geprüft")
    assert page.get_by_test_id("verify-verdict").get_attribute("data-ok") == "true"


def test_an_imported_game_with_bots_and_a_clock_verifies(
    page: Page, base: str, web_db: Path
) -> None:
    game_id = imported(base, web_db, "deck-of-spies-deal-clock")
    page.goto(f"{base}/replay/{game_id}")
    ok, seq, words = verdict_of(page)
    assert (ok, seq) == ("true", "")
    # greedy@1's three moves are not re-run by this verifier, and it says so
    assert "3 moves of bots other than random not re-run" in words


def test_a_tampered_export_shows_its_first_failing_seq(page: Page, base: str, web_db: Path) -> None:
    game_id = imported(base, web_db, "deck-of-spies-deal-clock")
    # the same game's log with a cards_drawn edited at seq 8 and the chain recomputed
    forged = (VECTORS / "tampered-edited-event-rechained.jsonl").read_bytes()
    served: list[str] = []

    def tamper(route: Route, request: Request) -> None:
        served.append(request.url)
        route.fulfill(status=200, body=forged, content_type="application/x-ndjson")

    page.route(f"**/games/{game_id}/export", tamper)
    page.goto(f"{base}/replay/{game_id}")
    ok, seq, words = verdict_of(page)
    assert served, "the page did not fetch the export"
    assert (ok, seq) == ("false", "8")
    assert "Verification failed at event 8: rederivation-mismatch" in words
    expect(page.get_by_test_id("verify-verdict")).to_have_class("verify-verdict bad")


def test_the_browser_keeps_its_receipts_and_checks_the_log_against_them(
    page: Page, base: str
) -> None:
    game_id = create_in_lobby(page, base, "deck-of-spies", ["creator"], seed="web-receipts")
    assert play_moves(page, base, game_id, 2) == 2
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('spies:receipts:{game_id}'))")
    # the creation's receipt and one per move, each the server's word on the head then
    assert len(kept) == 3, kept
    assert [r["game_id"] for r in kept] == [game_id] * 3
    assert kept == sorted(kept, key=lambda r: r["seq"]) and kept[-1]["seq"] == version(page)
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('spies:tokens:{game_id}'))['0']")
    handed = httpx.post(
        f"{base}/games/{game_id}/seats/0/bot",
        json={"bot": "random"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert handed.status_code == 200, handed.text
    finished_at = wait_finished(base, game_id)
    assert finished_at > kept[-1]["seq"]

    page.goto(f"{base}/replay/{game_id}")
    ok, seq, words = verdict_of(page)
    assert (ok, seq) == ("true", "")
    assert "The log holds the 3 receipts the server signed for this browser" in words
    assert page.get_by_test_id("verify-verdict").get_attribute("data-receipts") == "3"

    # The server (or whoever serves the export) rewrote the log before a receipt's seq: the
    # export still chains and ends in the published head, but not through the receipt's.
    middle = kept[1]
    forged = [*kept[:1], {**middle, "head_hash": "0" * 64}, *kept[2:]]
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"spies:receipts:{game_id}", json.dumps(forged)],
    )
    page.reload()
    ok, seq, words = verdict_of(page)
    assert (ok, seq) == ("false", str(middle["seq"]))
    assert f"Verification failed at event {middle['seq']}: receipt-mismatch" in words


def wait_finished(base: str, game_id: str) -> int:
    """The game's last version once the bot has played it out."""
    found = until(
        lambda: (s := summary(base, game_id))["status"] == "finished" and s,
        timeout=60.0,
        what=f"game {game_id} to finish",
    )
    return int(found["version"])
